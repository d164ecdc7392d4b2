"""best_turn, the reef bots and the game commands of the CLI."""

from __future__ import annotations

import json

import numpy as np
import pytest

from lumicore.errors import LumicoreError
from lumicore.reef.decisions import Place, Score, Skip, Turn
from lumicore.reef.game import Game
from solvers.arena import make_bot, play_game
from solvers.cli import main
from solvers.reef.bots import BOTS
from solvers.reef.turn import best_turn


def at_turn(seed: int = 3, players: int = 2) -> Game:
    game = Game.new(players=players, seed=seed)
    while game.phase == "orient":
        game.play(game.decisions()[0])
    return game


def brute_value(game: Game, decision: Turn) -> float:
    """The turn's value by trying every placement line through the game itself (estimate of
    the final position, margin against the best opponent)."""
    me = game.current_player()
    probe = game.clone()
    probe.play(decision)
    best = float("-inf")

    def walk(state: Game) -> None:
        nonlocal best
        if state.phase != "place" or state.current_player() != me:
            est = state.estimate()
            best = max(best, est[me] - max(e for p, e in enumerate(est) if p != me))
            return
        for k in range(len(state.decisions())):
            child = state.clone()
            child.apply_action(k)
            walk(child)

    walk(probe)
    return best


def test_best_turn_ranks_every_turn_and_the_best_is_the_best_line():
    game = at_turn()
    result = best_turn(game)
    turns = [d for d in game.decisions() if isinstance(d, Turn)]
    assert {str(r.decision) for r in result.ranked} == {str(t) for t in turns}
    values = [r.value for r in result.ranked]
    assert values == sorted(values, reverse=True) and result.status == "optimal"
    one_tile = [r for r in result.ranked if len(r.decision.take) == 1][:3]
    for entry in one_tile:     # the exact placement: no line through the game does better
        assert brute_value(game, entry.decision) <= entry.value + 1e-9


def test_best_turn_values_action_a_by_its_limestone():
    game = at_turn()
    a_turns = {r.decision.limestone: r.value for r in best_turn(game, "score").ranked
               if r.decision.action == "A"}
    assert len(a_turns) >= 2
    low, high = min(a_turns), max(a_turns)
    assert a_turns[high] >= a_turns[low]   # more limestone is never worth less


def test_best_turn_in_the_scoring_phase_and_while_placing():
    game = at_turn()
    while game.phase != "score":
        game.play(game.decisions()[-1] if game.phase == "turn" else game.decisions()[0])
    result = best_turn(game)
    assert {type(r.decision) for r in result.ranked} <= {Score, Skip}
    assert len(result.ranked) == len(game.decisions())
    game = at_turn()
    take = next(d for d in game.decisions() if isinstance(d, Turn) and len(d.take) == 2)
    game.play(take)
    result = best_turn(game)
    # while placing, every next step is weighed (it was only the first step of the hand's
    # best placement, ranked by the placement objective: "optimal" then missed better steps)
    assert sorted(map(str, (r.decision for r in result.ranked))) == sorted(
        map(str, game.decisions()))
    assert result.status == "optimal" and isinstance(result.best.decision, Place)
    for entry in result.ranked[:3]:  # each step's value: the exact placement of the tile left
        rest = entry.placement.placements
        assert len(rest) + len(entry.placement.discarded) == 1
        assert brute_value(game, entry.decision) <= entry.value + 1e-9


def test_while_placing_the_last_tile_the_best_step_is_the_best_by_the_value():
    """A position (2 players, round 10) where the placement objective's best step was not the
    best by the margin: best_turn said "optimal" for a step 2 VP of margin short."""
    game = Game.new(players=2, seed=0)
    rng = np.random.default_rng(1)  # its 5th and 6th such positions were ranked wrongly
    checked = 0
    while not game.is_terminal() and checked < 6:
        if game.phase == "place" and len(game.hand) == 1:
            me = game.current_player()
            result = best_turn(game)
            values = []
            for k in range(len(game.decisions())):
                probe = game.clone()
                probe.apply_action(k)
                est = probe.estimate()
                values.append(est[me] - max(e for p, e in enumerate(est) if p != me))
            assert result.best.value == pytest.approx(max(values))
            assert result.status == "optimal" and len(result.ranked) == len(values)
            checked += 1
        actions = game.legal_actions()
        game.apply_action(actions[int(rng.integers(len(actions)))])
    assert checked == 6


@pytest.mark.parametrize("objective", ["score", "margin"])
def test_while_placing_one_tile_best_turn_values_it_as_the_estimate_does(objective):
    """The estimate counts a tile in hand at its best placement now, the value best_turn gives
    placing it (before: the estimate ignored the hand and was lower; best_turn's probes must
    not count the placed tile again as still in hand)."""
    game = at_turn()
    take = next(d for d in game.decisions() if isinstance(d, Turn) and d.action == "B")
    game.play(take)
    assert game.phase == "place" and len(game.hand) == 1
    me = game.current_player()
    est = game.estimate()
    own = est[me] if objective == "score" else est[me] - max(
        e for p, e in enumerate(est) if p != me)
    assert best_turn(game, objective).best.value == pytest.approx(own)


def test_best_turn_scores_in_the_last_phase_of_a_premature_end():
    game = at_turn(seed=4)
    game.round = 4
    game.unseen = [0] * len(game.unseen)      # the bag runs out at the next draw (2 players:
    game.bag_left = 0                         # no emergency stack): the game ends early
    while game.phase == "turn":
        game.play(next(d for d in game.decisions() if isinstance(d, Turn) and d.action == "A"))
    assert game.ending and game.phase == "score"
    while not game.extra:
        game.play(Skip())
    assert game.phase == "score" and game.round == 5
    result = best_turn(game, "score")
    # skipping the last scoring phase forfeits the jellyfish (2 VP) and the limestone: every
    # coral scoring must rank above the skip (now 12.0 against 9.0; the estimate counted 5
    # more scoring phases and ranked the skip first, 28.2 against 26.4)
    assert isinstance(result.best.decision, Score)
    skip = next(r.value for r in result.ranked if isinstance(r.decision, Skip))
    assert all(r.value >= skip + 2 for r in result.ranked if isinstance(r.decision, Score))


def test_best_turn_rejects_bad_input():
    with pytest.raises(LumicoreError):
        best_turn("game")
    with pytest.raises(LumicoreError):
        best_turn(at_turn(), objective="fun")
    with pytest.raises(LumicoreError):
        best_turn(Game.new(seed=1))           # orientation is not weighed
    with pytest.raises(LumicoreError):
        best_turn(at_turn(), time_limit=-1)


def test_reef_bots_are_found_first_and_play_whole_games():
    assert set(BOTS) == {"greedy", "flatmc", "mcts"}
    assert type(make_bot("greedy", "reef", seed=1)).__module__ == "solvers.reef.bots"
    record, final = play_game("reef", ["greedy", "random"], 2, seed=4)
    again, _ = play_game("reef", ["greedy", "random"], 2, seed=4)
    assert record["actions"] == again["actions"] and final.is_terminal()
    replayed = Game.replay(final.record())
    assert replayed.totals() == final.totals()


def test_greedy_beats_random_in_most_games():
    wins = 0
    for seed in range(4):
        bots = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        _, final = play_game("reef", bots, 2, seed=seed)
        wins += final.returns()[bots.index("greedy")]
    assert wins >= 3


@pytest.mark.parametrize("bot", ["flatmc:playouts=1:cutoff=4:candidates=2",
                                 # a play-out for each candidate: the most visited is played
                                 "mcts:iterations=2:cutoff=2:candidates=2"])
def test_search_bots_choose_legal_decisions(bot):
    record, final = play_game("reef", [bot, "random"], 2, seed=2)
    assert final.is_terminal()


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_play_record_replay_and_best_turn(capsys, tmp_path):
    path = tmp_path / "game.json"
    code, out, _ = run(capsys, "reef", "play", "--players", "3", "--bots", "greedy,random,random",
                       "--seed", "1", "--record", str(path))
    assert code == 0 and "round 10" in out and "final scoring:" in out and "winner:" in out
    record = json.loads(path.read_text())
    assert Game.replay(record).totals() == record["totals"]
    code, out, _ = run(capsys, "reef", "replay", str(path), "--json")
    assert code == 0 and json.loads(out)["totals"] == record["totals"]
    cut = next(k for k in range(80, len(record["actions"]))
               if not record["actions"][k].startswith("draw "))
    record["actions"] = record["actions"][:cut]
    del record["totals"]
    mid = tmp_path / "mid.json"
    mid.write_text(json.dumps(record))
    code, out, _ = run(capsys, "reef", "best-turn", str(mid), "--json", "--top", "3")
    data = json.loads(out)
    assert code == 0 and 1 <= len(data["ranked"]) <= 3 and data["status"] == "optimal"
    # the counts too (before: neither the nodes nor how many decisions --top cut from)
    game = Game.replay(record)
    direct = best_turn(game)
    assert (data["weighed"], data["nodes"]) == (len(direct.ranked), direct.nodes)
    assert data["weighed"] >= len(data["ranked"])
    # the whole record, analysed at the same step, gives the same ranking
    code, out, _ = run(capsys, "reef", "best-turn", str(path), "--decisions", str(cut),
                       "--json", "--top", "3")
    whole = json.loads(out)
    assert code == 0 and whole.pop("elapsed") >= 0 and data.pop("elapsed") >= 0
    assert whole == data
    code, _, err = run(capsys, "reef", "best-turn", str(path), "--decisions", "100000")
    assert code == 2 and "--decisions 100000" in err


def test_cli_tournament_json(capsys):
    code, out, _ = run(capsys, "reef", "tournament", "--bots", "greedy,random", "--games", "2",
                       "--workers", "1", "--json")
    assert code == 0 and json.loads(out)


def test_cli_tournament_plays_play_s_variant_and_its_records_replay(capsys, tmp_path):
    """``--side``/``--scoreboard`` as ``play`` takes them (before: unrecognized arguments);
    each ``--out`` line holds them and ``reef replay`` reads it (before: "not a game
    record")."""
    out = tmp_path / "games.jsonl"
    code, text, _ = run(capsys, "reef", "tournament", "--bots", "greedy,random", "--games", "2",
                        "--workers", "1", "--side", "B", "--scoreboard", "light", "--json",
                        "--out", str(out))
    assert code == 0
    assert json.loads(text)["options"] == {"side": "B", "scoreboard": "light"}
    lines = out.read_text().splitlines()
    records = [json.loads(line) for line in lines]
    assert [r["options"] for r in records] == [{"side": "B", "scoreboard": "light"}] * 2
    code, text, _ = run(capsys, "reef", "replay", lines[0], "--json")
    data = json.loads(text)
    assert code == 0 and data["phase"] == "over"
    assert (data["state"]["setup"]["side"], data["state"]["setup"]["scoreboard"]) == ("B", "light")
    assert [float(p in data["winners"]) for p in range(2)] == records[0]["returns"]
    code, text, _ = run(capsys, "reef", "tournament", "--bots", "greedy,random", "--games", "1",
                        "--workers", "1", "--side", "B")
    assert code == 0 and "options: side B, scoreboard dark" in text


def test_cli_tournament_bad_side_is_the_usage_error_of_play(capsys):
    for command in ("play", "tournament"):
        with pytest.raises(SystemExit) as exc:
            main(["reef", command, "--side", "C"])
        err = capsys.readouterr().err
        assert exc.value.code == 2 and "argument --side: invalid choice: 'C'" in err


def test_cli_play_takes_a_time_limit_for_the_reef_flatmc(capsys):
    """``flatmc:time_limit=...`` reaches the reef's own flatmc (before: "bad options")."""
    code, out, _ = run(capsys, "reef", "play", "--bots", "flatmc:time_limit=0.01,random",
                       "--seed", "1")
    assert code == 0 and "winner:" in out


@pytest.mark.parametrize("argv, message", [
    (["reef", "play", "--players", "5", "--bots", "greedy"], "from 2 to 4 for Lumicora"),
    (["reef", "play", "--bots", "flatmc:time_limit=0,random"],
     "time_limit must be a positive number of seconds, got '0'"),
    (["reef", "play", "--bots", "greedy,nobot"], "nobot"),
    (["reef", "tournament", "--bots", "greedy,nobot", "--games", "1"], "nobot"),
])
def test_cli_bad_input_is_one_line(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err and err.count("\n") == 1


def test_cli_replay_names_the_illegal_decision(capsys, tmp_path):
    game = at_turn()
    record = game.record()
    record["decisions"].append("put pink 9 into the Atoll; A: take 9 limestone")
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    code, _, err = run(capsys, "reef", "replay", str(path))
    assert code == 2 and "decision 3 (round 1, player 1" in err


def test_best_turn_interrupted_keeps_what_it_weighed(monkeypatch):
    import solvers.reef.turn as turn

    calls = {"n": 0}
    real = turn._weigh

    def weigh(*args):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(turn, "_weigh", weigh)
    result = best_turn(at_turn())
    assert result.status == "interrupted" and result.reason == "interrupted"
    assert len(result.ranked) == 2


def test_best_turn_names_the_limit_that_stopped_it():
    by_nodes = best_turn(at_turn(), max_nodes=5)
    assert by_nodes.status == "limit" and by_nodes.reason == "nodes"
    by_time = best_turn(at_turn(), time_limit=1e-9)
    assert by_time.status == "limit" and by_time.reason == "time"
    assert best_turn(at_turn(), max_nodes=10**9).reason is None


def test_a_placement_search_stopped_by_ctrl_c_stops_best_turn(monkeypatch):
    """best_placement returns "interrupted" when Ctrl-C stops its kernel: best_turn stops there
    too (the decision being weighed is left out), not "limit" as if a time limit had struck."""
    import dataclasses

    import solvers.reef.turn as turn

    calls = {"n": 0}
    real = turn.best_placement

    def placement(*args, **kwargs):
        calls["n"] += 1
        result = real(*args, **kwargs)
        return dataclasses.replace(result, status="interrupted") if calls["n"] == 3 else result

    monkeypatch.setattr(turn, "best_placement", placement)
    game = at_turn()
    result = best_turn(game)
    assert result.status == "interrupted" and result.reason == "interrupted"
    assert calls["n"] == 3 and 0 < len(result.ranked) < len(best_turn(game).ranked)
    assert all(r.placement is None or r.placement.status == "optimal" for r in result.ranked)


def test_best_turn_reports_decisions_weighed_and_placement_nodes(monkeypatch):
    """best_turn had no progress: `reef best-turn` was silent however long its searches ran."""
    import solvers.reef.turn as turn

    game = at_turn()
    decisions = len(game.decisions())
    calls = []
    result = best_turn(game, progress=lambda *a: calls.append(a))
    assert [c[:2] for c in calls] == [(k, decisions) for k in range(1, decisions + 1)]
    assert calls[-1][2] == result.nodes and all(c[3] >= 0 for c in calls)
    real, searches = turn.best_placement, []

    def placement(*args, **kwargs):  # a search that reports 100 nodes under way
        searches.append(calls[-1] if calls else (0, decisions, 0, 0.0))
        kwargs["progress"](100, 0.0)
        return real(*args, **kwargs)

    monkeypatch.setattr(turn, "best_placement", placement)
    calls.clear()
    best_turn(game, progress=lambda *a: calls.append(a))
    assert searches and len(calls) == decisions + len(searches)
    for before in searches:  # the decisions weighed so far, and 100 nodes more than so far
        assert (before[0], decisions, before[2] + 100) in [c[:3] for c in calls]
    with pytest.raises(LumicoreError, match="progress must be callable"):
        best_turn(game, progress=1)
