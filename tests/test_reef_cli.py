"""The ``lumicore reef`` command: show, best, and their argument parsing."""

import itertools
import json

import pytest

from lumicore.errors import LumicoreError
from lumicore.reef import Lumino, Reef, load_board, parse_hand
from lumicore.reef.io import load, save
from solvers.cli import main
from solvers.commands.reef import parse_objective, parse_start


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_show_new_reef(capsys):
    code, out, _ = run(capsys, "reef", "show", "--board", "B", "--start", "blue/yellow")
    assert code == 0
    assert "reef on board B, start blue/yellow, 0 Luminos placed, 1 level" in out
    assert "-3   ~   .  B1- Y1-  .   ~  -1" in out  # row 3 of side B with the start
    assert "visible spaces: pink 0, green 0, blue 1, yellow 1" in out


def test_show_saved_reef_and_svg(capsys, tmp_path):
    reef = Reef.build(load_board("A"), ("pink", "green"), [("pink 3 crab", (2, 5), (1, 4))])
    path = tmp_path / "reef.json"
    save(reef, path)
    image = tmp_path / "reef.svg"
    code, out, _ = run(capsys, "reef", "show", str(path), "--svg", str(image))
    assert code == 0
    assert "P13" in out and "P1c" in out
    assert "coral scoring now: pink 3, green 0" in out
    assert image.read_text().startswith("<svg")


@pytest.mark.parametrize("argv, message", [
    (["reef", "show", "--start", "pink"], "two colours"),
    (["reef", "show", "--start", "pink,pink"], "different colours"),
    (["reef", "show", "--board", "C"], "'C'"),
    (["reef", "best", "--hand", "pink 3 crb", "--limestone", "2"], "'crb'"),
    (["reef", "best", "--hand", "", "--limestone", "2"], "1 to 3"),
    (["reef", "best", "--hand", "pink 1, pink 2, pink 3, pink 4", "--limestone", "2"], "1 to 3"),
    (["reef", "best", "--hand", "pink 1", "--limestone", "11"], "0..10"),
    (["reef", "best", "--hand", "pink 1", "--limestone", "1", "--objective", "x=y"], "weight"),
    # the second weight silently replaced the first (the plan was searched for 2*coral:pink)
    (["reef", "best", "--hand", "pink 1", "--limestone", "1", "--objective",
      "coral:pink=1,coral:pink=2"], "'coral:pink' is given twice"),
])
def test_bad_arguments_exit_2_naming_the_problem(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert message in err


def test_reef_file_and_board_conflict(capsys, tmp_path):
    path = tmp_path / "reef.json"
    save(Reef.new(load_board("A"), ("pink", "green")), path)
    code, _, err = run(capsys, "reef", "show", str(path), "--board", "B")
    assert code == 2 and "not both" in err


def test_parsers():
    assert parse_start("pink, green") == ("pink", "green")
    assert parse_start("Blue Yellow") == ("blue", "yellow")
    with pytest.raises(LumicoreError):
        parse_start("pink,green,blue")
    assert parse_objective("coral:pink") == "coral:pink"
    assert parse_objective("coral:pink=2,remote=1") == {"coral:pink": 2.0, "remote": 1.0}


def brute_force_coral(reef, hand, limestone, color):
    """Best coral score of ``color`` over every order and placement (or return, -1 VP each),
    by the reference rules alone."""
    best = float("-inf")
    for order in set(itertools.permutations(hand)):
        frontier = [(reef, limestone, 0)]
        for lumino in order:
            nxt = []
            for r, stone, returned in frontier:
                nxt.append((r, stone, returned + 1))
                nxt.extend((r.place(p), stone - p.cost, returned)
                           for p in r.placements(lumino, stone))
            frontier = nxt
        best = max(best, max(r.coral_score(color) - returned for r, _, returned in frontier))
    return best


def test_best_plan_is_legal_and_optimal(capsys, tmp_path):
    pytest.importorskip("solvers.reef")
    start = Reef.build(load_board("A"), ("pink", "green"), [("pink 4", (2, 5), (1, 4))])
    path, out_path = tmp_path / "reef.json", tmp_path / "after.json"
    save(start, path)
    hand = "pink 3 crab, pink 1"
    code, out, _ = run(capsys, "reef", "best", str(path), "--hand", hand, "--limestone", "1",
                       "--objective", "coral:pink", "--save", str(out_path))
    assert code == 0
    assert "(optimal)" in out
    after = load(out_path)  # loading replays every placement through the rules
    assert after.pieces[: len(start.pieces)] == start.pieces
    placed = [p.lumino for p in after.pieces[len(start.pieces):]]
    assert all(lumino in parse_hand(hand) for lumino in placed)
    value = float(out.split("value ")[1].split()[0])
    expected = brute_force_coral(start, parse_hand(hand), 1, "pink")
    assert value == expected
    assert after.coral_score("pink") - (2 - len(placed)) == expected
    json.loads(out_path.read_text())


def test_hand_parser_used_by_best_round_trips():
    hand = parse_hand("pink 3 crab, blue 5")
    assert hand == (Lumino("pink", 3, "crab"), Lumino("blue", 5))
    assert ", ".join(map(str, hand)) == "pink 3 crab, blue 5"


def test_best_save_and_svg_to_one_file_is_an_error(tmp_path, capsys, monkeypatch):
    # the SVG overwrote the saved reef, exit 0; the same file by another name too
    monkeypatch.chdir(tmp_path)
    for svg in ("out.json", str(tmp_path / "out.json"), "./out.json"):
        assert main(["reef", "best", "--hand", "blue 5", "--limestone", "2", "--max-nodes", "20",
                     "--save", "out.json", "--svg", svg]) == 2
        err = capsys.readouterr().err
        assert err.startswith("lumicore: error: --save and --svg name the same file 'out.json'")
        assert err.count("\n") == 1 and not (tmp_path / "out.json").exists()


def test_best_interrupted_prints_the_plan_so_far_and_exits_130(capsys, monkeypatch):
    """Ctrl-C during the search (here a press only solvers.ctrl_c.pressed() saw, whose
    KeyboardInterrupt was dropped) prints the best plan found so far and exits 130."""
    import solvers.reef.placement as placement

    monkeypatch.setattr(placement, "pressed", lambda: True, raising=False)
    code, out, _ = run(capsys, "reef", "best", "--hand",
                       "green 5 starfish, green 3 starfish, green 4", "--limestone", "10",
                       "--objective", "final:light", "--json")
    data = json.loads(out)
    assert code == 130 and data["status"] == "interrupted"
    assert len(data["placements"]) + len(data["discarded"]) == 3 and data["nodes"] == 32768


@pytest.mark.parametrize(("nodes", "placed"), [("1", 0), ("2", 2)])
def test_best_stopped_by_a_limit_exits_0_with_the_best_plan_so_far(nodes, placed, capsys):
    """A placement search has an answer at any limit, the best legal plan it found (every tile
    back to the bag when it found none complete): exit status 0 (solvers.limits.exit_code), as
    for an answer; 1 is for a limit with no answer."""
    code, out, _ = run(capsys, "reef", "best", "--hand", "pink 3 crab, blue 5", "--limestone",
                       "4", "--max-nodes", nodes, "--json")
    data = json.loads(out)
    assert (code, data["status"], len(data["placements"])) == (0, "limit", placed)
    assert len(data["placements"]) + len(data["discarded"]) == 2
    code, out, _ = run(capsys, "reef", "best", "--hand", "pink 3 crab, blue 5", "--limestone",
                       "4", "--max-nodes", nodes)
    assert code == 0 and "(limit)" in out.splitlines()[0]


@pytest.mark.parametrize("games", [str(10**30), "1000001"])
def test_a_tournament_of_more_games_than_it_holds_is_refused_before_any_job(
        games, capsys, monkeypatch):
    """Before: the jobs of --games 10**30 were made up front, until the memory ran out. The
    count is now checked first: no game is dealt, no job made."""
    import solvers.arena as arena

    def no_game(*args):
        raise AssertionError("a game was dealt or a game's job made")

    monkeypatch.setattr(arena, "_new_game", no_game)
    monkeypatch.setattr(arena, "game_seed", no_game)
    code, out, err = run(capsys, "reef", "tournament", "--bots", "random,greedy", "--games",
                         games, "--workers", "1")
    assert code == 2 and out == ""
    assert err == f"lumicore: error: games must be an integer from 1 to 1,000,000, got '{games}'\n"


@pytest.mark.parametrize("bots, some", [("greedy", "one bot"), ("foo", "one bot"),
                                        ("random,random,random,random,random", "5 bots")])
def test_play_without_players_names_bots_and_players_when_the_count_is_wrong(
        bots, some, capsys):
    """--players defaults to one seat per bot named. Before, '--bots greedy' alone (the help
    offers one bot for every seat) said only "Lumicora is for 2 to 4 players, got '1'", naming
    neither option, also for an unknown bot ('--bots foo')."""
    code, out, err = run(capsys, "reef", "play", "--bots", bots)
    assert code == 2 and out == ""
    assert err == (f"lumicore: error: --bots '{bots}' names {some} and no --players: Lumicora is "
                   "for 2 to 4 players (name one bot per seat, or give --players for one bot to "
                   "take every seat)\n")


@pytest.mark.parametrize("objective, message", [
    # before: "--objective: bad weight in ''", naming neither the value nor what is wrong
    ("coral:pink=1,", "--objective 'coral:pink=1,': an empty term (a comma too many?)"),
    (",=", "--objective ',=': an empty term (a comma too many?)"),
    # before: "unknown objective ''"
    ("=1", "--objective '=1': '=1' names no objective"),
    ("coral:pink=1,=2", "--objective 'coral:pink=1,=2': '=2' names no objective"),
    # before: "bad weight in 'remote'" (the weight was read before the '=' was looked for)
    ("coral:pink=1,remote", "--objective 'coral:pink=1,remote': 'remote' needs name=weight"),
    # before: "bad weight 'nan' for 'coral:pink'", naming neither the option nor its value
    ("coral:pink=nan", "--objective 'coral:pink=nan': bad weight in 'coral:pink=nan'"),
    ("coral:pink=-inf", "--objective 'coral:pink=-inf': bad weight in 'coral:pink=-inf'"),
    ("coral:pink=1e309", "--objective 'coral:pink=1e309': bad weight in 'coral:pink=1e309'"),
    # before: "an objective has 11 finite weights" (two finite weights of one feature add up
    # to inf)
    ("final:dark=1e308,animals:dark=1e308",
     "objective '1e+308*final:dark + 1e+308*animals:dark': its weights add up to inf for "
     "animals:dark, beyond the floating-point range"),
    # before: weight 2 (float() reads any script's digits) and weight 1000
    ("coral:pink=\u0662", "--objective 'coral:pink=\u0662': bad weight in 'coral:pink=\u0662'"),
    ("coral:pink=1_000", "--objective 'coral:pink=1_000': bad weight in 'coral:pink=1_000'"),
])
def test_bad_objectives_are_one_line_errors_naming_the_value(objective, message, capsys):
    code, out, err = run(capsys, "reef", "best", "--hand", "blue 5", "--limestone", "2",
                         "--max-nodes", "100", "--objective", objective)
    assert code == 2 and out == ""
    assert err == f"lumicore: error: {message}\n"


@pytest.mark.parametrize("objective", ["x" * 10**5, "x" * 10**5 + "=1",
                                       "coral:pink=1," + "x" * 10**5, "x" * 10**5 + "=nan"])
def test_an_overlong_objective_is_shortened_in_its_error(objective, capsys):
    """Before: the unknown objective or bad weight was quoted whole (100,000 characters)."""
    code, _, err = run(capsys, "reef", "best", "--hand", "blue 5", "--limestone", "2",
                       "--objective", objective)
    assert code == 2 and err.count("\n") == 1 and len(err) < 600
    assert err.startswith("lumicore: error: ") and "xxx..." in err


def test_best_turn_where_there_is_nothing_to_weigh_names_the_record_or_decisions(
        tmp_path, capsys, monkeypatch):
    """Before: "best_turn weighs turns, placements and coral scorings; the game is at phase
    'orient'" (or 'over'), naming neither --decisions nor the record."""
    monkeypatch.chdir(tmp_path)
    assert main(["reef", "play", "--bots", "random", "--players", "2", "--record",
                 "game.json", "--json"]) == 0
    capsys.readouterr()
    weighs = "best-turn weighs turns, placements and coral scorings"
    code, out, err = run(capsys, "reef", "best-turn", "game.json")
    assert code == 2 and out == ""
    assert err == (f"lumicore: error: 'game.json' ends where the game is over; {weighs} "
                   "(--decisions N picks the position after its first N steps)\n")
    code, out, err = run(capsys, "reef", "best-turn", "game.json", "--decisions", "2")
    assert code == 2 and out == ""
    assert err == (f"lumicore: error: --decisions 2: at the position it picks in 'game.json' the "
                   f"game is at phase 'orient'; {weighs}\n")
    code, _, err = run(capsys, "reef", "best-turn", (tmp_path / "game.json").read_text())
    assert code == 2 and err.startswith("lumicore: error: the record ends where the game is over")


def test_best_turn_says_when_draws_move_the_position_past_decisions(tmp_path, capsys,
                                                                     monkeypatch):
    """``--decisions N`` where draws follow step N weighed the decision after the draws and
    said nothing of it (step 16 for ``--decisions 7``)."""
    from lumicore.reef.game import Game

    monkeypatch.chdir(tmp_path)
    assert main(["reef", "play", "--bots", "greedy,random", "--seed", "1", "--record",
                 "game.json"]) == 0
    capsys.readouterr()
    states = list(Game.iter_replay("game.json"))
    n = next(k for k in range(len(states) - 1)
             if states[k].is_chance_node() and states[k].phase == "draw")
    after = next(k for k in range(n, len(states)) if not states[k].is_chance_node())
    code, out, _ = run(capsys, "reef", "best-turn", "game.json", "--decisions", str(n),
                       "--top", "1")
    assert code == 0 and out.splitlines()[0] == (
        f"--decisions {n}: draws follow step {n}; the position is the decision after them, "
        f"after step {after}")
    assert out.splitlines()[1] == str(states[after]).splitlines()[0]
    code, out, _ = run(capsys, "reef", "best-turn", "game.json", "--decisions", str(after),
                       "--top", "1", "--json")
    assert code == 0 and json.loads(out)["step"] == after
    code, out, _ = run(capsys, "reef", "best-turn", "game.json", "--decisions", str(after),
                       "--top", "1")
    assert "draws follow" not in out


@pytest.mark.parametrize("output", ["--record", "--json"])
def test_play_interrupted_keeps_the_game_so_far(output, tmp_path, capsys, monkeypatch):
    """Ctrl-C in 'reef play --record/--json' (here just before the 30th action is applied):
    exit 130 with the record of the game so far, which replays and which best-turn reads.
    Before: 'lumicore: interrupted', and the game played so far was lost."""
    from ctrl_c_helpers import ctrl_c_on_call

    from lumicore.reef.game import Game

    monkeypatch.chdir(tmp_path)
    ctrl_c_on_call(monkeypatch, Game, "apply_action", call=30)
    argv = ["reef", "play", "--bots", "random", "--players", "2", "--seed", "3"]
    code, out, err = run(capsys, *argv, *(["--record", "game.json"] if output == "--record"
                                          else ["--json"]))
    assert code == 130 and err == ""
    if output == "--record":
        assert "interrupted after 30 actions; record of the game so far written to game.json" in out
        record = json.loads((tmp_path / "game.json").read_text())
    else:
        record = json.loads(out)
    assert len(record["actions"]) == 30 and "totals" not in record
    assert record["bots"] == ["random", "random"] and record["seed"] == 3
    game = Game.replay(record)
    assert not game.is_terminal()
    code, out, _ = run(capsys, "reef", "best-turn", json.dumps(record), "--decisions", "20",
                       "--time-limit", "5")
    assert code == 0 and "best decisions of player" in out


def test_a_reef_file_too_tall_for_the_kernel_is_refused_naming_the_file(tmp_path, capsys,
                                                                         monkeypatch):
    """A reef stacked past the kernel's ceiling (legal placements can build one by hand) was
    refused in one line that did not name the file; the ceiling is lowered here so that a
    two-level reef stands for one."""
    from lumicore.reef import kernel

    reef = Reef.new(load_board("A"), parse_start("pink,green"))
    reef = reef.place(next(iter(reef.placements(Lumino("blue", 1), 0))))
    path = tmp_path / "tall.json"
    save(reef, path)
    monkeypatch.setattr(kernel, "MAX_HEIGHT", max(reef.heights) - 1)
    for command in (["reef", "show"], ["reef", "best", "--hand", "pink 3", "--limestone", "1"]):
        assert main([*command, str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"lumicore: error: {str(path)!r}: reef is ") and "levels high" in err


@pytest.mark.parametrize("tamper, message", [
    (lambda r: r.update(totals=[r["totals"][1] + 1, r["totals"][0]]), "totals"),
    (lambda r: r["actions"].__setitem__(-1, "no such decision"), "decision"),
])
def test_best_turn_at_a_decision_still_replays_the_whole_record(tamper, message, tmp_path,
                                                                capsys, monkeypatch):
    """``best-turn --decisions N`` stopped replaying at the position it picks, so a record
    with wrong totals or an illegal step after it was analysed as if it were sound."""
    monkeypatch.chdir(tmp_path)
    assert main(["reef", "play", "--bots", "random", "--players", "2", "--seed", "3",
                 "--record", "game.json"]) == 0
    record = json.loads((tmp_path / "game.json").read_text())
    tamper(record)
    (tmp_path / "game.json").write_text(json.dumps(record))
    capsys.readouterr()
    code, out, err = run(capsys, "reef", "best-turn", "game.json", "--decisions", "20",
                         "--time-limit", "5")
    assert code == 2 and out == ""
    assert err.startswith("lumicore: error: 'game.json': ") and message in err


def test_best_and_best_turn_show_a_progress_line_on_a_terminal_only(capsys, monkeypatch):
    """`reef best` and `reef best-turn` drew no progress line. Their searches here end well
    within the second after which the line shows, so that delay is dropped (and the tenth of
    a second between two redraws), and the terminal is faked (solvers.progress.on_terminal)."""
    import solvers.commands.reef as commands
    import solvers.progress as progress
    from lumicore.reef.game import Game

    real = progress.progress
    monkeypatch.setattr(commands, "progress",
                        lambda *a, **k: real(*a, **{**k, "delay": 0, "mininterval": 0}))
    game = Game.new(players=2, seed=3)
    while game.phase == "orient":
        game.play(game.decisions()[0])
    best = ["reef", "best", "--board", "B", "--hand", "green 5 starfish, green 3 starfish, "
            "green 4", "--limestone", "10", "--objective", "final:light"]
    turn = ["reef", "best-turn", json.dumps(game.record()), "--top", "1"]
    for argv in (best, turn):
        code, out, err = run(capsys, *argv)  # not on a terminal: no line
        assert code == 0 and err == ""
    monkeypatch.setattr(progress, "on_terminal", lambda: True)
    code, out, err = run(capsys, *best)
    assert code == 0 and "reef best: 32768 nodes" in err and "nodes/s" in err
    code, out, err = run(capsys, *turn)
    assert code == 0 and "reef best-turn:" in err and "decisions weighed" in err
    for argv in (best, turn):
        code, out, err = run(capsys, *argv, "--json")
        assert code == 0 and err == "" and json.loads(out)
