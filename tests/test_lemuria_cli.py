"""``lumicore lemuria plan``: text and JSON output, the default instance, bad input."""

from __future__ import annotations

import json

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
    assert main(["lemuria", "plan", "--json", "--time-limit", "3", "--deal", "2"]) == 0
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


def test_plan_bad_time_limit_exits_2(tmp_path, capsys):
    assert main(["lemuria", "plan", str(_file(tmp_path)), "--time-limit", "-1"]) == 2
    assert "time_limit" in capsys.readouterr().err


def test_plan_harvests_interrupted_while_the_model_is_built_prints_the_greedy_plan(
        tmp_path, capsys, monkeypatch):
    """Ctrl-C while the harvest model was built raised KeyboardInterrupt: exit 130 with no plan
    printed; now the greedy plan is printed, marked interrupted (exit 130), as ``plan`` without
    ``--harvests`` does."""
    import os
    import signal

    import solvers.lemuria.harvest as harvest

    real = harvest.HarvestYearModel

    def pressed(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGINT)
        return real(*args, **kwargs)

    monkeypatch.setattr(harvest, "HarvestYearModel", pressed)
    code = main(["lemuria", "plan", str(_file(tmp_path)), "--harvests", "--json", "--workers",
                 "1", "--time-limit", "20"])
    out = capsys.readouterr().out
    assert code == 130 and out
    data = json.loads(out)
    assert data["status"] == "interrupted" and data["reason"] == "interrupted"
    assert data["vp"] == data["simulated_vp"]
