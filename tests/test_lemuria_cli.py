"""``lumicore lemuria plan``, ``replay`` and ``tournament``: text and JSON output, the default
instance, bad input and bad records."""

from __future__ import annotations

import json

import pytest

from lumicore.lemuria import Build, Buy, Exchange, Play, Remodel, TurnPlan, load_instance, simulate
from solvers.cli import main

INSTANCE = """\
turns = 3
buildings = "default"
characters = "default"
trend = ["B01", "B02", "B03", "B04", "B05"]
deck = ["B06", "B07", "B08"]
start = { gold = 3, food = 3, stone = 2 }
hand = ["C03", "C11"]
character_deck = ["C01", "C02"]
[income]
1 = { stone = 2, wood = 1 }
2 = { gold = 1, stone = 2 }
3 = { wood = 2, food = 1 }
"""


def _file(tmp_path):
    path = tmp_path / "year.toml"
    path.write_text(INSTANCE, encoding="utf-8")
    return path


def _actions(data):
    """The JSON plan back as turn plans."""
    kinds = {"build": Build, "remodel": Remodel, "play": Play, "buy": Buy, "exchange": Exchange}
    plans = []
    for turn in data["turns"]:
        acts = []
        for a in turn["actions"]:
            fields = {k: v for k, v in a.items() if k != "type"}
            if "reduce" in fields:
                fields["reduce"] = tuple(fields["reduce"])
            acts.append(kinds[a["type"]](**fields))
        plans.append(TurnPlan(turn["turn"], tuple(acts)))
    return plans


def test_plan_json_is_optimal_and_replays(tmp_path, capsys):
    path = _file(tmp_path)
    assert main(["lemuria", "plan", str(path), "--json", "--workers", "1", "--time-limit", "20"]
                ) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "optimal" and data["bound"] == data["vp"]
    assert data["vp"] == data["simulated_vp"] == sum(data["breakdown"].values())
    assert set(data["breakdown"]) == {"buildings", "trend", "residents", "church", "festival"}
    assert data["model"]["variables"] > 0
    assert simulate(load_instance(path), _actions(data)).total == data["vp"]


def test_plan_text_prints_turns_breakdown_and_status(tmp_path, capsys):
    path = _file(tmp_path)
    assert main(["lemuria", "plan", str(path), "--workers", "1"]) == 0
    out = capsys.readouterr().out
    for turn in (1, 2, 3):
        assert f"turn  {turn}" in out
    assert "VP buildings" in out and "total" in out
    assert "status: optimal" in out


def test_plan_default_instance_with_a_short_limit(capsys):
    assert main(["lemuria", "plan", "--json", "--time-limit", "1", "--deal", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["instance"] == "default_instance(2)"
    assert len(data["turns"]) == 12
    assert data["vp"] == data["simulated_vp"]
    assert data["status"] in ("optimal", "feasible")


def test_plan_bad_instance_exits_2(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text(INSTANCE.replace('"B05"]', '"B99"]'), encoding="utf-8")
    assert main(["lemuria", "plan", str(bad)]) == 2
    assert "B99" in capsys.readouterr().err


def test_plan_deal_with_an_instance_file_exits_2(tmp_path, capsys):
    # --deal deals the default instance; with a file it was silently ignored (exit 0)
    assert main(["lemuria", "plan", str(_file(tmp_path)), "--deal", "5"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("lumicore: error: --deal 5 with an instance file") and \
        err.count("\n") == 1


def test_plan_bad_deal_names_the_option(capsys):
    # before: "seed must be an integer ...", naming no option the command has
    assert main(["lemuria", "plan", "--deal", "-1"]) == 2
    assert capsys.readouterr().err == ("lumicore: error: --deal must be an integer from 0 to "
                                       "2**63 - 1, got '-1'\n")


def test_plan_bad_time_limit_exits_2(tmp_path, capsys):
    with pytest.raises(SystemExit) as info:  # argparse's usage error, before the file is read
        main(["lemuria", "plan", str(_file(tmp_path)), "--time-limit", "-1"])
    assert info.value.code == 2
    assert "argument --time-limit: must be a positive number" in capsys.readouterr().err


def test_plan_harvests_interrupted_while_the_model_is_built_prints_the_greedy_plan(
        tmp_path, capsys, monkeypatch):
    """Ctrl-C while the harvest model was built raised KeyboardInterrupt: exit 130 with no plan
    printed; now the greedy plan is printed, marked interrupted (exit 130), as ``plan`` without
    ``--harvests`` does."""
    import signal

    import solvers.lemuria.harvest as harvest

    real = harvest.HarvestYearModel

    def pressed(*args, **kwargs):
        signal.raise_signal(signal.SIGINT)
        return real(*args, **kwargs)

    monkeypatch.setattr(harvest, "HarvestYearModel", pressed)
    code = main(["lemuria", "plan", str(_file(tmp_path)), "--harvests", "--json", "--workers",
                 "1", "--time-limit", "20"])
    out = capsys.readouterr().out
    assert code == 130 and out
    data = json.loads(out)
    assert data["status"] == "interrupted" and data["reason"] == "interrupted"
    assert data["vp"] == data["simulated_vp"]


# ------------------------------------------------------------------ replay and tournament
PLAY = ["lemuria", "play", "--players", "2", "--bots", "greedy,random", "--seed", "1"]


def _played(tmp_path, capsys):
    """A short seeded game played with ``--record``: the record's path and play's text."""
    path = tmp_path / "game.json"
    assert main([*PLAY, "--record", str(path)]) == 0
    return path, capsys.readouterr().out


def test_replay_ends_with_the_lines_play_ended_with(tmp_path, capsys):
    path, played = _played(tmp_path, capsys)
    assert main(["lemuria", "replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Lemuria turn 12 (over)")
    ends = played.splitlines()[-2:]
    assert ends[0].startswith("final VP: player 1 (greedy) ") and ends[1].startswith("winner: ")
    assert out.splitlines()[-2:] == ends


def test_replay_json_from_the_file_and_from_its_text(tmp_path, capsys):
    path, _ = _played(tmp_path, capsys)
    record = json.loads(path.read_text(encoding="utf-8"))
    assert main(["lemuria", "replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert main(["lemuria", "replay", path.read_text(encoding="utf-8"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == data
    assert data["over"] and data["phase"] == "over" and data["turn"] == 12
    assert (data["vp"], data["winner"]) == (record["vp"], record["winner"])
    assert data["bots"] == ["greedy", "random"] and data["actions"] == len(record["actions"])
    assert [sum(b.values()) for b in data["breakdown"]] == data["vp"]


def test_replay_of_a_record_that_stops_early(capsys):
    from lumicore.lemuria.game import Game

    game = Game.new(players=2, seed=4)
    for _ in range(30):
        game.apply_action(game.legal_actions()[0])
    assert main(["lemuria", "replay", json.dumps(game.record())]) == 0
    out = capsys.readouterr().out.splitlines()
    vp = ", ".join(f"player {p + 1} {v}" for p, v in enumerate(game.vp()))
    assert out[-2:] == [f"VP so far: {vp}", "winner: none yet (the game is not over)"]


def _tampered(record, how):
    record = dict(record)
    if how == "vp":
        record["vp"] = [v + 1 for v in record["vp"]]
    elif how == "winner":
        record["winner"] = 1 - record["winner"]
    else:
        record["actions"] = [*record["actions"][:20], 9999, *record["actions"][21:]]
    return record


@pytest.mark.parametrize("how, message", [
    ("vp", "the replay ends with vp"), ("winner", "the replay ends with winner"),
    ("action", "actions[20]: action 9999 is not legal"),
])
def test_replay_of_a_tampered_record_is_one_line_exit_2(tmp_path, capsys, how, message):
    path, _ = _played(tmp_path, capsys)
    bad = _tampered(json.loads(path.read_text(encoding="utf-8")), how)
    (tmp_path / "bad.json").write_text(json.dumps(bad), encoding="utf-8")
    for source, named in ((str(tmp_path / "bad.json"), f"{str(tmp_path / 'bad.json')!r}: "),
                          (json.dumps(bad), "")):
        assert main(["lemuria", "replay", source, "--json"]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.startswith(f"lumicore: error: {named}Lemuria game record")
        assert message in err and err.count("\n") == 1, err


@pytest.mark.parametrize("source, message", [
    ("no-such-game.json", "'no-such-game.json' is not a file"),
    ("{not json", "Lemuria game record: not JSON"),
    ('{"game": "reef", "actions": []}', "not a Lemuria game record"),
])
def test_replay_of_what_is_no_record_is_one_line_exit_2(capsys, source, message):
    assert main(["lemuria", "replay", source]) == 2
    err = capsys.readouterr().err
    assert err.startswith("lumicore: error: ") and message in err and err.count("\n") == 1


def test_tournament_plays_lemuria_and_its_records_replay(tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    assert main(["lemuria", "tournament", "--bots", "greedy,random", "--games", "2",
                 "--workers", "1", "--json", "--out", str(out)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "lemuria" and data["played"] == 2 and data["status"] == "done"
    assert {name: r["games"] for name, r in data["bots"].items()} == {"greedy": 2, "random": 2}
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    assert main(["lemuria", "replay", lines[0], "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    record = json.loads(lines[0])
    assert replayed["over"] and replayed["bots"] == record["bots"]
    assert [float(p == replayed["winner"]) for p in range(2)] == record["returns"]


def test_tournament_plays_impact_as_play_does_and_its_records_replay(tmp_path, capsys):
    """``--impact`` as ``play`` takes it (before: unrecognized arguments, the base game only);
    each ``--out`` line holds it and ``replay`` plays the Impact game back."""
    out = tmp_path / "games.jsonl"
    assert main(["lemuria", "tournament", "--bots", "greedy,random", "--games", "2",
                 "--workers", "1", "--impact", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[1] == "options: impact True"
    lines = out.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["options"] for line in lines] == [{"impact": True}] * 2
    assert main(["lemuria", "replay", lines[0], "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["over"] and replayed["options"]["impact"] is True
    with pytest.raises(SystemExit) as exc:
        main(["lemuria", "tournament", "--impact=yes"])
    assert exc.value.code == 2
    assert "argument --impact: ignored explicit argument 'yes'" in capsys.readouterr().err


def test_tournament_text_and_a_bad_bot(capsys):
    assert main(["lemuria", "tournament", "--bots", "greedy,random", "--games", "1",
                 "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("lemuria: 1 of 1 games, 2 players, seed 0 (done)")
    assert "greedy" in out and "wins by seat:" in out
    assert main(["lemuria", "tournament", "--bots", "greedy,nobot", "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert "nobot" in err and err.count("\n") == 1
