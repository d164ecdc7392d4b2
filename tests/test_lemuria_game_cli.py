"""``lumicore lemuria play``: a whole game from the CLI, its record, bad input."""

from __future__ import annotations

import json

import pytest

from lumicore.lemuria import Game, TurnPlan
from solvers.cli import main


def test_play_prints_turns_vp_and_winner_and_writes_a_replayable_record(tmp_path, capsys):
    path = tmp_path / "game.json"
    assert main(["lemuria", "play", "--players", "3", "--bots", "greedy,random,greedy",
                 "--seed", "1", "--record", str(path)]) == 0
    out = capsys.readouterr().out
    for turn in range(1, 13):
        assert f"\nturn {turn}: order " in out
    assert "altar r0 | 1:" in out and "winner: player " in out
    record = json.loads(path.read_text(encoding="utf-8"))
    game = Game.replay(path)
    assert game.is_terminal() and game.vp() == record["vp"]
    assert f"winner: player {record['winner'] + 1} " in out
    assert f"final VP: player 1 (greedy) {record['vp'][0]}," in out


def test_play_json_is_the_record(capsys):
    assert main(["lemuria", "play", "--players", "2", "--bots", "random", "--seed", "4",
                 "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["bots"] == ["random", "random"]
    assert Game.replay(record).winner() == record["winner"]


def test_play_is_the_arenas_game_of_its_seed(capsys):
    """``lemuria play --seed 3`` seeded its bots ``seed * 10 + seat`` and drew chance from
    ``Game.resolve_chance``: another game than the arena's (and a tournament's) of seed 3."""
    from solvers.arena import play_game

    assert main(["lemuria", "play", "--players", "2", "--bots", "random,random", "--seed", "3",
                 "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    arena, final = play_game("lemuria", ["random", "random"], players=2, seed=3)
    assert record["actions"] == arena["actions"] and record["vp"] == final.vp()


def test_play_takes_bot_options_as_the_other_games_do(capsys):
    """--bots planner:horizon=2 was "unknown bot 'planner:horizon=2'"."""
    assert main(["lemuria", "play", "--players", "2", "--seed", "1", "--bots",
                 "planner:horizon=1:time_limit=0.2,random", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["bots"] == ["planner:horizon=1:time_limit=0.2", "random"]
    assert Game.replay(record).winner() == record["winner"]


def test_play_bad_input_is_one_line_exit_2(tmp_path, capsys):
    for argv, message in [
        (["--players", "5"], "players must be an integer from 2 to 4 for Lemuria, got '5'"),
        (["--players", "3", "--bots", "greedy,random"], "2 bots for 3 players"),
        (["--bots", "nobody"], "unknown bot 'nobody'"),
        (["--bots", "nobody:horizon=2"], "unknown bot 'nobody'"),
        (["--bots", "planner:horizon", "--players", "2"], "is not KEY=VALUE"),
        (["--bots", "planner:horizon=0,greedy", "--players", "2"], "horizon must be a positive"),
        (["--seed", "-1", "--bots", "random"], "seed"),
        (["--bots", "random", "--record", str(tmp_path / "no" / "x.json")], "does not exist"),
    ]:
        assert main(["lemuria", "play", *argv]) == 2
        err = capsys.readouterr().err.strip()
        assert message in err and "\n" not in err
    # a bad --time-limit is argparse's usage error whatever the bots (random ones took inf
    # and 1e400 silently): tests/test_cli.py checks it for every command that has one
    with pytest.raises(SystemExit):
        main(["lemuria", "play", "--bots", "random", "--time-limit", "1e400"])
    assert "argument --time-limit: must be a positive number" in capsys.readouterr().err


def test_plan_harvests_json_has_the_income_and_replays(tmp_path, capsys):
    from lumicore.lemuria import load_instance
    from lumicore.lemuria.harvests import AltarSetup, Harvest, Pedestal, Place, replay_harvests
    from tests.test_lemuria_cli import INSTANCE, _actions

    path = tmp_path / "year.toml"
    path.write_text(INSTANCE, encoding="utf-8")
    assert main(["lemuria", "plan", str(path), "--harvests", "--json", "--workers", "1",
                 "--time-limit", "20"]) == 0
    data = json.loads(capsys.readouterr().out)
    # its characters can come back from the deck bottom, which the model does not describe
    assert data["status"] == "feasible" and data["bound"] is None and data["gap"] is None
    assert set(data["income"]) == {"1", "2", "3"}
    ops = {"place": Place, "pedestal": Pedestal, "harvest": Harvest}
    plans = _actions({"turns": [{"turn": t["turn"], "actions": [
        a for a in t["actions"] if a["type"] not in ops]} for t in data["turns"]]})
    full = []
    for plan, turn in zip(plans, data["turns"], strict=True):
        first = tuple(ops[a["type"]](**{k: v for k, v in a.items() if k != "type"})
                      for a in turn["actions"] if a["type"] in ops)
        full.append(TurnPlan(plan.turn, first + plan.actions))
    result = replay_harvests(load_instance(path), AltarSetup(), full)
    assert result.total == data["vp"] == data["simulated_vp"]
    assert {str(t): g for t, g in result.income.items()} == data["income"]
