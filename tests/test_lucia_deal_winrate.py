"""Win rates over seeded deals: counts, intervals, resuming, the process and Dask backends."""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from lumicore.errors import DataError, LumicoreError
from lumicore.lucia import Action, Card, Deck
from lumicore.lucia.deal import deal
from lumicore.lucia.start import Setup
from solvers.cli import main
from solvers.lucia import solve_deal, win_rate
from solvers.lucia.winrate import game_key
from solvers.stats import wilson

LT, LU, W1, LH = (Card((a,)) for a in (Action.light("T"), Action.lucia(), Action.wild(1),
                                        Action.light("H")))
SMALL = dict(deck=Deck((LT,) * 2 + (LU,) * 2 + (W1,) * 3 + (LH,) * 5),
             setup=Setup(((0, 2, 0), (1, 3), (7,))))
"""A small game (6 kids, 12 cards) whose deals are winnable, unwinnable or cut by the node cap."""
# node caps instead of time limits keep every count deterministic
FAST = dict(time_limit=None, max_nodes=60, **SMALL)


def test_counts_match_solving_each_deal():
    result = win_rate(deals=12, seed=3, workers=1, **FAST)
    statuses = [solve_deal(deal(s, **SMALL), max_nodes=60).status for s in range(3, 15)]
    assert set(statuses) == {"winnable", "unwinnable", "limit"}
    assert result.winnable == statuses.count("winnable")
    assert result.unwinnable == statuses.count("unwinnable")
    assert result.limit == statuses.count("limit")
    assert result.solved == 12 and result.status == "done"
    assert (result.low, result.high) == wilson(result.winnable,
                                               result.winnable + result.unwinnable)
    assert result.low_all_limits_lost <= result.high_all_limits_won
    assert result.worst_time >= result.median_time >= 0


def test_dask_local_cluster_gives_the_process_counts():
    pytest.importorskip("dask.distributed")
    args = dict(deals=12, seed=3, players=1, workers=2, **FAST)
    process = win_rate(backend="process", **args).to_dict()
    dask = win_rate(backend="dask", **args).to_dict()
    for key in ("winnable", "unwinnable", "limit", "rate", "low", "high"):
        assert process[key] == dask[key], key


def test_out_file_resumes(tmp_path):
    out = tmp_path / "deals.jsonl"
    seen = []
    first = win_rate(deals=3, seed=0, workers=1, out=out, **FAST)
    assert len(out.read_text().splitlines()) == 3
    second = win_rate(deals=5, seed=0, workers=1, out=out,
                      on_outcome=lambda r: seen.append(r.solved), **FAST)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(line["seed"] for line in lines) == [0, 1, 2, 3, 4]
    assert seen == [4, 5], "the deals already in the file were solved again"
    whole = win_rate(deals=5, seed=0, workers=1, **FAST)
    assert second.to_dict() | {"median_time": 0, "worst_time": 0} == \
        whole.to_dict() | {"median_time": 0, "worst_time": 0}
    assert first.solved == 3


def test_a_resumed_run_counts_only_the_deals_of_its_own_deck_and_setup(tmp_path):
    """The lines of a run with another deck (or setup) were counted as this run's: 3 deals of
    the calibrated deck, rerun on the same file with another deck, reported their outcomes."""
    out = tmp_path / "deals.jsonl"
    other = Deck((LT,) * 3 + (LU,) * 1 + (W1,) * 2 + (LH,) * 6)
    win_rate(deals=4, seed=0, workers=1, out=out, **FAST)
    for changed in ({"deck": other}, {"setup": Setup(((0, 3, 0), (1, 2), (7,)))}):
        resumed = win_rate(deals=4, seed=0, workers=1, out=out, **{**FAST, **changed})
        fresh = win_rate(deals=4, seed=0, workers=1, **{**FAST, **changed})
        assert resumed.to_dict() | {"median_time": 0, "worst_time": 0} == \
            fresh.to_dict() | {"median_time": 0, "worst_time": 0}, changed
    assert len(out.read_text().splitlines()) == 12  # each game's deals solved once
    again = win_rate(deals=4, seed=0, workers=1, out=out, **{**FAST, "deck": other})
    assert len(out.read_text().splitlines()) == 12 and again.solved == 4


def test_bad_out_file_line_is_named(tmp_path):
    out = tmp_path / "deals.jsonl"
    out.write_text('{"seed": 0}\n')
    with pytest.raises(DataError, match="line 1"):
        win_rate(deals=2, workers=1, out=out, **FAST)


@pytest.mark.parametrize("field, value", [("elapsed", "x"), ("status", ["x"]), ("seed", [0]),
                                          ("status", "won"), ("nodes", None), ("seed", True)])
def test_an_out_line_with_a_bad_field_is_named(tmp_path, capsys, field, value):
    """A line whose keys are right but whose values are not (an edited or damaged file) was
    counted as it was: "elapsed": "x" ended the run with a TypeError traceback when the times
    were summed up, a list as seed or status too ('unhashable type'), and an unknown status
    counted as a limit."""
    out = tmp_path / "deals.jsonl"
    win_rate(deals=1, seed=0, workers=1, out=out, **FAST)
    line = json.loads(out.read_text())
    out.write_text(json.dumps({**line, field: value}) + "\n")
    with pytest.raises(DataError, match=f"line 1 .*field '{field}'"):
        win_rate(deals=1, seed=0, workers=1, out=out, **FAST)
    assert main(["lucia", "winrate", "--deals", "1", "--out", str(out)]) == 2
    assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.parametrize("kwargs, match", [
    ({"on_outcome": 5}, "on_outcome"), ({"out": 5}, "out"),
    ({"deals": 0}, "deals"), ({"players": 9}, "players"), ({"time_limit": -1.0}, "time_limit"),
    ({"workers": 0}, "workers"), ({"backend": "spark"}, "backend"), ({"seed": -3}, "seed"),
    ({"time_limit": "1"}, "time_limit"), ({"max_nodes": 0}, "max_nodes"),
    ({"seed": 2**63 - 1}, r"seed \(of 2 deals.* got '9223372036854775807'"),
    ({"deals": 2**63 + 1}, "deals"),
])
def test_bad_arguments(kwargs, match):
    with pytest.raises(LumicoreError, match=match):
        win_rate(**{"deals": 2, **kwargs})


@pytest.mark.parametrize("deals", [2**63, 1_000_001])
def test_more_deals_than_a_run_holds_are_refused_before_any_job(deals, monkeypatch):
    """2**63 deals were accepted and made a set and a job of each deal before solving any:
    the memory filled. (A deck read after the checks fails here, so that code which passes
    them fails at once instead of filling the memory.)"""
    from solvers.lucia import winrate

    def made(*args, **kwargs):
        raise AssertionError("the deals were accepted")

    monkeypatch.setattr(winrate, "game_deck", made)
    with pytest.raises(LumicoreError, match=r"^deals must be an integer from 1 to 1,000,000, "):
        win_rate(deals=deals)
    with pytest.raises(AssertionError, match="accepted"):
        win_rate(deals=1_000_000)


def test_cli_winrate_json_and_out(tmp_path, capsys):
    out = tmp_path / "w.jsonl"
    code = main(["lucia", "winrate", "--deals", "4", "--seed", "7", "--workers", "1",
                 "--max-nodes", "2000", "--json", "--out", str(out)])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert {"winnable", "unwinnable", "limit", "rate", "low", "high"} <= set(data)
    assert data["winnable"] + data["unwinnable"] + data["limit"] == 4
    assert len(out.read_text().splitlines()) == 4
    with pytest.raises(SystemExit):
        main(["lucia", "winrate", "--deals", "2", "--time-limit", "-1"])
    assert main(["lucia", "winrate", "--deals", "2", "--out", str(tmp_path / "no" / "x")]) == 2


def test_cli_winrate_without_a_decided_deal_exits_1(capsys):
    """Every deal cut by its limit leaves no rate: exit status 1 (no answer), as a search
    stopped by a limit; it was 0."""
    code = main(["lucia", "winrate", "--deals", "2", "--workers", "1", "--max-nodes", "1",
                 "--json"])
    data = json.loads(capsys.readouterr().out)
    assert (code, data["limit"], data["rate"], data["status"]) == (1, 2, None, "done")


@pytest.mark.parametrize(("statuses", "code"), [
    (["limit", "limit", "limit"], 1), (["limit", "unwinnable", "limit"], 0),
    (["winnable", "limit", "limit"], 0), (["limit", "interrupted", "limit"], 130),
])
def test_cli_winrate_exits_1_only_when_no_deal_is_decided(statuses, code, monkeypatch, capsys):
    import solvers.lucia.winrate as W

    def outcome(job):
        return W.DealOutcome(job.seed, job.players, statuses[job.seed], None, 1, 0.0)

    monkeypatch.setattr(W, "_solve", outcome)
    assert main(["lucia", "winrate", "--deals", "3", "--workers", "1"]) == code
    assert capsys.readouterr().err == ""


@pytest.fixture
def forking():
    """Pool workers started by fork for the test (the default start method is "forkserver" on
    Linux from Python 3.14, "spawn" on macOS): only a forked worker sees a monkeypatch."""
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the patched search reaches only a forked worker")
    previous = multiprocessing.get_start_method(allow_none=True)
    multiprocessing.set_start_method("fork", force=True)
    yield
    multiprocessing.set_start_method(previous, force=True)


# Python 3.12 on warns of a fork beside other threads: the Dask tests before this one leave
# threads in the test process (the command itself starts none), and pytest shows the warning
@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning")
def test_cli_a_worker_killed_outright_is_one_line_and_status_3(forking, monkeypatch, capsys):
    """A pool worker killed by SIGKILL (the out-of-memory killer) gave a ``BrokenProcessPool``
    traceback."""
    import solvers.lucia.winrate as W

    def killed(d, **limits):
        os.kill(os.getpid(), signal.SIGKILL)

    monkeypatch.setattr(W, "solve_deal", killed)
    assert main(["lucia", "winrate", "--deals", "2", "--workers", "2", "--json"]) == 3
    out, err = capsys.readouterr()
    assert out == ""
    assert re.fullmatch(r"lumicore: error: a worker process died in deal [01] \(killed by SIGKILL, "
                        r"most likely by the system for lack of memory\): run with fewer "
                        r"workers\n", err)


def test_ctrl_c_returns_the_partial_result(monkeypatch):
    import solvers.lucia.winrate as W

    calls = []

    def interrupted(job):
        calls.append(job.seed)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return W.DealOutcome(job.seed, job.players, "unwinnable", None, 1, 0.0)

    monkeypatch.setattr(W, "_solve", interrupted)
    result = win_rate(deals=10, workers=1, **FAST)
    assert result.status == "interrupted" and result.solved == 2 and result.unwinnable == 2


def test_cli_ctrl_c_prints_the_partial_result_and_exits_130(monkeypatch, capsys):
    import solvers.lucia.winrate as W

    def interrupted(job):
        if job.seed == 2:
            raise KeyboardInterrupt
        return W.DealOutcome(job.seed, job.players, "winnable", 5, 1, 0.0)

    monkeypatch.setattr(W, "_solve", interrupted)
    assert main(["lucia", "winrate", "--deals", "5", "--workers", "1", "--json"]) == 130
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "interrupted" and data["winnable"] == 2


def test_an_error_in_a_deal_names_its_seed(monkeypatch, capsys):
    """An error while solving one deal reached the caller without its seed, so the deal could
    not be looked at alone (``lumicore lucia deal --seed S``)."""
    import solvers.lucia.winrate as W

    def refused_at_5(d, **limits):
        if d.seed == 5:
            raise LumicoreError("no such thing")
        return solve_deal(d, **limits)

    monkeypatch.setattr(W, "solve_deal", refused_at_5)
    with pytest.raises(LumicoreError, match=r"^deal 5: no such thing$"):
        win_rate(deals=4, seed=3, workers=1, **FAST)
    assert main(["lucia", "winrate", "--deals", "3", "--seed", "4", "--workers", "1"]) == 2
    assert capsys.readouterr().err.endswith("lumicore: error: deal 5: no such thing\n")


def test_decks_whose_cards_share_names_but_not_actions_are_other_games():
    """The fingerprint of a deck was made of its cards' names: a rerun with another deck whose
    cards had the same names counted the first deck's outcomes (2 of 2 winnable, truly 0)."""
    setup = Setup(((0, 3, 0), (1, 2), (7,)))
    light = Deck((Card((Action.light("T"),), name="x"),) * 4)
    move = Deck((Card((Action.move("T", 1),), name="x"),) * 4)
    assert game_key(light, setup) != game_key(move, setup)
    assert game_key(light, setup) == game_key(Deck(light.cards), setup)


def _lumicore(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -m lumicore ARGS`` in ``cwd``, as a user runs it."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    return subprocess.run([sys.executable, "-m", "lumicore", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


WINRATE = ("lucia", "winrate", "--deals", "2", "--seed", "4", "--workers", "1",
           "--max-nodes", "20000")


def test_a_resumed_file_whose_last_line_lacks_its_newline_stays_readable(tmp_path):
    """The first new outcome was glued onto that line: the run said done, and the next rerun
    refused the file ("line 2 is not a deal outcome")."""
    out = tmp_path / "deals.jsonl"
    win_rate(deals=2, seed=0, workers=1, out=out, **FAST)
    out.write_text(out.read_text().rstrip("\n"))
    resumed = win_rate(deals=4, seed=0, workers=1, out=out, **FAST)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line["seed"] for line in lines] == [0, 1, 2, 3] and out.read_text().endswith("\n")
    again = win_rate(deals=4, seed=0, workers=1, out=out, **FAST)
    assert again.to_dict() | {"median_time": 0, "worst_time": 0} == \
        resumed.to_dict() | {"median_time": 0, "worst_time": 0}


def test_a_last_line_cut_short_is_dropped_with_a_warning_and_its_deal_solved_again(tmp_path):
    """A run killed (or a full disk) while writing a line left half of it: every rerun refused
    the file until the user found and deleted that line by hand."""
    out = tmp_path / "deals.jsonl"
    win_rate(deals=3, seed=0, workers=1, out=out, **FAST)
    whole = out.read_text()
    out.write_text(whole[:whole.rindex("\n", 0, -1) + 20])       # two lines and 19 characters
    with pytest.warns(RuntimeWarning, match=r"deals\.jsonl': its last line was cut short"):
        resumed = win_rate(deals=3, seed=0, workers=1, out=out, **FAST)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert resumed.solved == 3 and [line["seed"] for line in lines] == [0, 1, 2]


@pytest.mark.parametrize("text", ["not an outcome", '{"seed": 0}\n{"seed": 1, "pla',
                                  '{"seed": 0, "players": 1, "status": "won", "cost": null, '
                                  '"nodes": 1, "elapsed": 0.1}'])
def test_a_bad_last_line_that_win_rate_did_not_start_is_refused_and_left(tmp_path, text):
    out = tmp_path / "deals.jsonl"
    out.write_text(text)
    with pytest.raises(DataError, match=r"line \d is not a deal outcome"):
        win_rate(deals=2, seed=0, workers=1, out=out, **FAST)
    assert out.read_text() == text


def test_an_out_file_nested_too_deeply_is_a_one_line_error(tmp_path):
    """json.loads raised RecursionError, which no except took: a traceback and exit 1."""
    out = tmp_path / "deep.jsonl"
    out.write_text("[" * 100_000 + "\n")
    with pytest.raises(DataError, match=r"'.*deep\.jsonl' line 1 is not a deal outcome: "
                                        r"'\[\[\[.*' \(nested too deeply\)$"):
        win_rate(deals=2, seed=0, workers=1, out=out, **FAST)
    done = _lumicore(*WINRATE, "--out", "deep.jsonl", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("lumicore: error: 'deep.jsonl' line 1 is not a deal outcome")


def test_a_winrate_on_a_file_another_run_writes_is_refused_at_once(tmp_path):
    """Two runs on one --out solved the same deals twice (each read the file before the other
    wrote): a second run is now refused before it reads or solves anything."""
    fcntl = pytest.importorskip("fcntl")      # no lock on Windows
    out = tmp_path / "deals.jsonl"
    with open(out, "a") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        done = _lumicore(*WINRATE, "--out", "deals.jsonl", cwd=tmp_path)
        with pytest.raises(LumicoreError, match=r"^cannot write '.*deals\.jsonl': another run "
                                                r"is writing it$"):
            win_rate(deals=2, seed=0, workers=1, out=out, **FAST)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr == "lumicore: error: cannot write 'deals.jsonl': another run is writing it\n"
    assert out.read_text() == ""
    assert _lumicore(*WINRATE, "--out", "deals.jsonl", cwd=tmp_path).returncode == 0
    assert len(out.read_text().splitlines()) == 2
