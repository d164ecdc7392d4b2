"""``lumicore lumen``: play, replay, best, odds (through solvers.cli.main)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from terminal_helpers import run_on_terminal

from lumicore.errors import DataError
from lumicore.game import play_randomly
from lumicore.lumen.game import GameState, replay
from solvers.cli import main


def test_play_prints_rounds_and_the_winner_and_writes_a_replayable_record(tmp_path, capsys):
    record = tmp_path / "game.json"
    assert main(["lumen", "play", "--seed", "3", "--bots", "greedy,random",
                 "--record", str(record)]) == 0
    out = capsys.readouterr().out
    lines = out.strip().splitlines()
    assert lines[-1].startswith(("winner: player", "nobody won"))
    assert out.count("== round") == 17 or "no units left" in lines[-1]
    assert "dice" in out and "score if it ended now" in out and "spring" in out
    data = json.loads(record.read_text())
    end = replay(data)
    assert end.is_terminal() and data["bots"] == ["greedy", "random"]
    assert data["returns"] == end.returns()
    assert main(["lumen", "replay", str(record)]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == lines[-1]


def test_play_is_reproducible_and_json(capsys):
    assert main(["lumen", "play", "--seed", "5", "--bots", "random,random", "--json"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert main(["lumen", "play", "--seed", "5", "--bots", "random,random", "--json"]) == 0
    two = json.loads(capsys.readouterr().out)
    assert one == two and one["record"]["seed"] == 5 and len(one["rounds"]) >= 1


def test_play_is_the_arenas_game_of_its_seed(capsys):
    """``lumen play --seed 5`` seeded its bots ``seed + 1 + seat`` and its dice and draws
    ``seed``: another game than the arena's (and a tournament's) of seed 5."""
    from solvers.arena import play_game

    assert main(["lumen", "play", "--seed", "5", "--bots", "random,greedy", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)["record"]
    arena, final = play_game("lumen", ["random", "greedy"], players=2, seed=5)
    assert record["actions"] == arena["actions"] and record["returns"] == final.returns()


@pytest.mark.parametrize("argv", [["lumen", "play", "--bots", "foo,random"],
                                  ["lumen", "play", "--bots", "greedy,random,mcts"],
                                  ["lumen", "play", "--seed", "-3"],
                                  ["lumen", "play", "--scenario", "nowhere.toml"],
                                  ["lumen", "play", "--record", "/no/such/folder/g.json"],
                                  ["lumen", "best", "missing.json"],
                                  ["lumen", "best", "missing.json", "--top", "-1"]])
def test_bad_input_exits_2_with_one_line(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("lumicore: error:") and "\n" not in err


def test_tournament_takes_play_s_scenario_and_board(tmp_path, capsys):
    """``--scenario``/``--board`` as ``play`` takes them (before: unrecognized arguments); each
    ``--out`` line holds them and replays."""
    from lumicore.data import data_dir

    scenario = str(data_dir() / "lumen_scenario_a.toml")
    out = tmp_path / "games.jsonl"
    assert main(["lumen", "tournament", "--bots", "greedy,random", "--games", "2",
                 "--workers", "1", "--scenario", scenario, "--json", "--out", str(out)]) == 0
    options = {"scenario": scenario, "board": "default"}
    assert json.loads(capsys.readouterr().out)["options"] == options
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["options"] for r in records] == [options] * 2
    assert replay(records[0]).returns() == records[0]["returns"]
    assert main(["lumen", "tournament", "--games", "1", "--scenario", "nowhere.toml"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("lumicore: error:") and "nowhere.toml" in err and "\n" not in err


def decision_file(folder: Path) -> tuple[GameState, Path]:
    """Game 1 after 60 random steps, played on (chance outcome 0) to a player's decision, and
    ``folder/state.json`` holding it."""
    state = play_randomly(GameState.new_game(seed=1), seed=1, max_steps=60)
    while state.is_chance_node():
        state.apply_action(0)
    path = folder / "state.json"
    path.write_text(state.serialize())
    return state, path


def test_best_ranks_choices(tmp_path, capsys):
    state, path = decision_file(tmp_path)
    assert main(["lumen", "best", str(path), "--time-limit", "0.5", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["method"] == "monte carlo" and result["choices"]
    assert len(result["choices"]) == len(state.legal_actions())
    values = [c["value"] for c in result["choices"]]
    assert values == sorted(values, reverse=True)


def test_best_without_a_time_limit_ranks_alike_for_the_same_seed(tmp_path, capsys):
    """`lumen best` had no way to run without its time limit (5 s by default), so the play-outs
    counted, and the ranking, depended on the machine's speed whatever the --seed."""
    _, path = decision_file(tmp_path)
    runs = []
    for _ in range(2):
        assert main(["lumen", "best", str(path), "--time-limit", "none", "--samples", "300",
                     "--seed", "3"]) == 0
        runs.append(capsys.readouterr().out.splitlines())
    assert runs[0][1:] == runs[1][1:] and len(runs[0]) > 2  # the first line gives the time
    assert all("n=300 " in line for line in runs[0][1:])
    assert main(["lumen", "best", str(path), "--time-limit", "None", "--top", "1",
                 "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["choices"][0]["samples"] == 1000 and result["reason"] is None
    with pytest.raises(SystemExit) as exited:
        main(["lumen", "best", str(path), "--time-limit", "0"])
    assert exited.value.code == 2
    assert capsys.readouterr().err.endswith("argument --time-limit: must be a positive number "
                                            "of seconds (ASCII digits) or none, got '0'\n")


def test_best_shows_a_progress_line_on_a_terminal_only(tmp_path):
    """`lumen best` printed nothing for its 5 s."""
    _, path = decision_file(tmp_path)
    args = ("lumen", "best", str(path), "--time-limit", "1.5", "--top", "1")
    shown = run_on_terminal(*args)
    assert "lumen best:" in shown and "nodes/s" in shown
    assert shown.index("lumen best:") < shown.index("player 1 to move")
    quiet = run_on_terminal(*args, "--json")
    assert "lumen best:" not in quiet and len(json.loads(quiet)["choices"]) == 1


def test_a_negative_top_is_bad_input(tmp_path, capsys):
    # --top -1 printed every choice but the last (choices[:-1]) and exited 0
    state, path = decision_file(tmp_path)
    assert main(["lumen", "best", str(path), "--time-limit", "0.2", "--top", "-1"]) == 2
    assert "--top" in capsys.readouterr().err
    assert main(["lumen", "best", str(path), "--time-limit", "0.2", "--top", "2", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["choices"]) == 2


def test_odds(tmp_path, capsys):
    path = tmp_path / "state.json"
    path.write_text(GameState.new_game().serialize())
    assert main(["lumen", "odds", str(path), "--samples", "3", "--bot", "random", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["samples"] == 3 and sum(result["wins"]) + result["nobody"] == 3
    assert main(["lumen", "odds", str(path), "--samples", "1000000", "--bot", "random",
                 "--time-limit", "0.000001", "--json"]) == 0  # an estimate of the games played
    result = json.loads(capsys.readouterr().out)
    assert (result["status"], result["reason"], result["samples"]) == ("limit", "time", 1)


def test_ctrl_c_during_best_exits_130_with_the_play_outs_so_far(tmp_path, capsys, monkeypatch):
    from lumicore.lumen import kernel

    state, path = decision_file(tmp_path)
    real, calls = kernel.playouts, []

    def interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) > len(state.legal_actions()):
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(kernel, "playouts", interrupted)
    assert main(["lumen", "best", str(path), "--json"]) == 130
    result = json.loads(capsys.readouterr().out)
    assert result["status"] == "interrupted" and result["reason"] == "interrupted"
    assert sum(c["samples"] for c in result["choices"]) >= 64 * len(state.legal_actions())


def test_the_quick_start_of_docs_lumen_runs():
    # with max_steps=200 the random game was over, and best_choice refused the final position
    import re

    text = (Path(__file__).parents[1] / "docs" / "lumen.md").read_text(encoding="utf-8")
    code = re.search(r"## Quick start\s+```python\n(.*?)```", text, re.S).group(1)
    code = code.replace("time_limit=3", "time_limit=0.2").replace("samples=50", "samples=2")
    namespace: dict = {}
    exec(compile(code, "docs/lumen.md", "exec"), namespace)
    state = namespace["state"]
    assert not state.is_terminal() and not state.is_chance_node()


@pytest.mark.parametrize("command", ["replay", "best", "odds"])
def test_json_nested_too_deeply_is_a_one_line_error(command, tmp_path, capsys):
    # json.loads raised RecursionError (a traceback) on a file of 100,000 '['
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000)
    assert main(["lumen", command, str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("lumicore: error: '") and err.count("\n") == 1
    assert err.endswith(": not JSON (nested too deeply)\n")


def test_a_state_file_is_parsed_once_and_its_errors_are_deserialize_s(tmp_path, monkeypatch,
                                                                      capsys):
    """The commands' loader parsed a state's JSON, wrote it back (json.dumps) and had
    GameState.deserialize parse that text again; now GameState.from_dict takes the parsed JSON."""
    from solvers.commands.lumen import load_state

    state = play_randomly(GameState.new_game(seed=1), seed=1, max_steps=60)
    text = state.serialize()
    path = tmp_path / "state.json"
    path.write_text(text, encoding="utf-8")
    parsed: list[int] = []
    loads = json.loads
    monkeypatch.setattr(json, "loads",
                        lambda s, *a, **k: parsed.append(len(s)) or loads(s, *a, **k))
    assert load_state(str(path)).serialize() == text
    assert parsed == [len(text)]  # the file's text, once
    monkeypatch.undo()
    for bad in ({**json.loads(text), "first": -1}, {"game": "lumen"}, [1]):
        with pytest.raises(DataError) as from_text:
            GameState.deserialize(json.dumps(bad))
        with pytest.raises(DataError) as from_dict:
            GameState.from_dict(bad)
        assert str(from_dict.value) == str(from_text.value)
        path.write_text(json.dumps(bad), encoding="utf-8")
        assert main(["lumen", "replay", str(path)]) == 2
        assert capsys.readouterr().err == f"lumicore: error: {str(path)!r}: {from_text.value}\n"


@pytest.mark.parametrize("command", ["replay", "best", "odds"])
def test_a_record_without_its_actions_is_named_a_record(command, tmp_path, capsys):
    """A record that lost its ``actions`` was read as a serialized state and blamed for a
    state's first field (``serialized lumen game: field 'round' is missing``)."""
    from solvers.arena import play_game

    record, _ = play_game("lumen", ["random", "random"], players=2, seed=2)
    del record["actions"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["lumen", command, str(path)]) == 2
    assert capsys.readouterr().err == (f"lumicore: error: {str(path)!r}: Lumen game record: "
                                       "field 'actions' is missing\n")


def test_best_on_a_finished_game_names_the_file(tmp_path, capsys):
    """``lumen best`` on a finished game (as ``play --record`` writes) said only that
    best_choice needs a position where a player decides; it names the file and how to pick an
    earlier position, exit status 2."""
    path = tmp_path / "over.json"
    path.write_text(play_randomly(GameState.new_game(seed=1), seed=1).serialize())
    assert main(["lumen", "best", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"lumicore: error: {str(path)!r} ends where the game is over; best ranks the "
                   "choices of a player to move (--decisions N picks the position after a "
                   "record's first N actions)")


def test_decisions_pick_a_position_of_a_record(tmp_path, capsys):
    """A record of a whole game (as ``play --record`` writes) was refused by ``best`` with no way
    to pick an earlier position but editing the file: ``--decisions N`` takes the first decision
    at or after its first N actions, for ``best`` and ``odds``."""
    record = tmp_path / "game.json"
    assert main(["lumen", "play", "--seed", "3", "--record", str(record)]) == 0
    capsys.readouterr()
    actions = json.loads(record.read_text())["actions"]
    state = GameState.new_game(seed=3)
    for action in actions[:40]:
        state.apply_action(action)
    while state.is_chance_node():
        state.apply_action(actions[len(state.history)])
    position = tmp_path / "position.json"
    position.write_text(state.serialize())
    ranked = []
    for source in (["--decisions", "40", str(record)], [str(position)]):
        assert main(["lumen", "best", *source, "--time-limit", "none", "--samples", "20",
                     "--json"]) == 0
        ranked.append(json.loads(capsys.readouterr().out)["choices"])
    assert ranked[0] == ranked[1] and len(ranked[0]) == len(state.legal_actions())
    assert main(["lumen", "odds", str(record), "--decisions", "40", "--samples", "4",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["samples"] == 4
    for argv, message in [
            ([str(record), "--decisions", "100000"],
             f"--decisions 100000: the record holds no decision after 100000 steps "
             f"({len(actions)} in all)"),
            ([str(position), "--decisions", "3"],
             f"{str(position)!r}: --decisions 3 picks a position in a game record, not in a "
             "serialized state"),
            ([str(record), "--decisions", "-1"], "--decisions -1: expected 0 or more")]:
        assert main(["lumen", "best", *argv]) == 2
        assert capsys.readouterr().err.strip() == f"lumicore: error: {message}"
