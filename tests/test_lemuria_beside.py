"""The branch and bound beside CP-SAT (solvers.lemuria.beside): its bound holds, it prunes
against the plans it is told of, it ignores Ctrl-C (the planner stops it), a failure in it is
raised in the caller, and a bound it proves ends the CP-SAT search at once."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time
from typing import IO

import pytest
from lemuria_helpers import Clock, optimum
from ortools.sat.python import cp_model
from process_helpers import ctrl_c_state, kill, running, windows_parent
from test_lemuria_branch import YEARS

import solvers.lemuria as lemuria
from lumicore.lemuria import default_instance, simulate
from solvers.batch import END_WAIT
from solvers.lemuria import beside as beside_module
from solvers.lemuria import build_schedule
from solvers.lemuria.beside import BranchBeside
from solvers.lemuria.bound import lagrangian_bound
from solvers.lemuria.branch import branch_bound
from solvers.lemuria.greedy import greedy_schedule
from solvers.lemuria.search import Watch, solve_watched


def _run(inst, vp: int, seconds: float = 20.0) -> tuple[BranchBeside, object]:
    partner = BranchBeside(inst, lagrangian_bound(inst), seconds=seconds, vp=vp)
    partner.process.join(seconds + 10)  # it stops by itself: proven, exhausted or out of time
    return partner, partner.finish(wait=5.0)


@pytest.mark.parametrize("name", ["tiny 0", "opponent", "remodels"])
def test_the_bound_beside_never_falls_below_the_optimum(name):
    """Told of no plan, the search's every bound (each one sent, and its result's) is at
    least the exhaustive optimum; told of the optimum, it proves it or stops at a node it
    cannot split."""
    inst = YEARS[name]()
    best = optimum(inst).vp
    partner, result = _run(inst, vp=0)
    assert result is not None and result.bound >= best - 1e-6
    assert partner.bound >= best - 1e-6
    partner, result = _run(inst, vp=best)
    assert result.bound >= best and result.status in ("proven", "exhausted")
    assert result.status != "proven" or result.bound == best


def _after_a_plan(instance, **options):
    """The branch and bound once the caller has told of a plan (a tiny year's search may
    otherwise end before the news arrives)."""
    incumbent, waited = options["incumbent"], time.perf_counter()
    while incumbent() == 0 and time.perf_counter() - waited < 20:
        time.sleep(0.01)
    return branch_bound(instance, **options)


@pytest.mark.skipif(beside_module._START != "fork", reason="the patched search reaches only "
                    "a forked process")
def test_found_tells_the_process_and_keeps_the_best(monkeypatch):
    inst = YEARS["tiny 0"]()
    best = optimum(inst).vp
    monkeypatch.setattr(beside_module, "branch_bound", _after_a_plan)
    partner = BranchBeside(inst, lagrangian_bound(inst), seconds=20.0, vp=0)
    partner.found(best)
    partner.found(best - 3)  # a worse plan does not lower what it prunes against
    partner.process.join(30)
    result = partner.finish()
    assert result.status == "proven" and result.bound == best


@pytest.mark.skipif(sys.platform == "win32", reason="Windows sends no SIGINT to one process")
def test_the_process_ignores_ctrl_c():
    """A Ctrl-C (SIGINT to the process group) must not end the search with a traceback: the
    planner stops it."""
    inst = default_instance(0, turns=6)
    partner = BranchBeside(inst, lagrangian_bound(inst), seconds=30.0, vp=0)
    os.kill(partner.process.pid, signal.SIGINT)
    assert partner.process.is_alive()
    result = partner.finish(wait=10.0)
    assert result is not None and result.status == "limit"
    assert partner.process.exitcode == 0


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="reads /proc")
def test_the_process_ignores_ctrl_c_without_blocking_it():
    """The fork starts with SIGINT blocked, so that a Ctrl-C before it ignores SIGINT waits:
    the block was kept for the process's whole life. It is lifted once SIGINT is ignored."""
    inst = default_instance(0, turns=6)
    partner = BranchBeside(inst, lagrangian_bound(inst), seconds=30.0, vp=0)
    try:
        deadline = time.monotonic() + 30
        state = ctrl_c_state(partner.process.pid)
        while state != (True, False) and time.monotonic() < deadline:
            time.sleep(0.01)
            state = ctrl_c_state(partner.process.pid)
    finally:
        partner.finish(wait=10.0)
    assert state == (True, False)


@pytest.mark.skipif(beside_module._START != "fork", reason="only a fork inherits the record")
def test_a_press_noted_before_the_fork_does_not_stop_the_search_beside():
    """A Ctrl-C the planner had noted (solvers.ctrl_c) just before the process was forked was
    inherited by it: its search stopped at once, "interrupted". It is cleared as the process
    starts, so the search runs as it does without the press (its stop is the planner's)."""
    from solvers.ctrl_c import noting, pressed

    inst = YEARS["tiny 0"]()
    root = lagrangian_bound(inst)

    def search() -> object:
        partner = BranchBeside(inst, root, seconds=20.0, vp=0)
        partner.process.join(30)  # it stops by itself: exhausted or out of time
        return partner.finish(wait=5.0)

    plain = search()
    with noting(raising=False):
        signal.raise_signal(signal.SIGINT)
        while not pressed():  # the handler runs at the next bytecode of the main thread
            time.sleep(0.001)
        result = search()
    assert plain.status != "interrupted"
    assert (result.status, result.bound) == (plain.status, plain.bound)


def test_a_failure_beside_is_raised_in_the_caller(monkeypatch):
    def broken(*_args, **_kwargs):
        raise RuntimeError("broken branch")

    monkeypatch.setattr(beside_module, "branch_bound", broken)
    if beside_module._START != "fork":  # a fresh interpreter does not see the patch
        pytest.skip("the patch reaches the process only through a fork")
    inst = YEARS["tiny 0"]()
    partner = BranchBeside(inst, lagrangian_bound(inst), seconds=5.0, vp=0)
    with pytest.raises(RuntimeError, match="broken branch"):
        partner.finish(wait=10.0)


class _Proving:
    """A partner that proves the plan it hears of at once; counts its polls."""

    def __init__(self) -> None:
        self.vp, self.polls = None, 0

    def found(self, vp: int) -> None:
        self.vp = vp

    def poll(self) -> float:
        self.polls += 1
        return float("inf") if self.vp is None else float(self.vp)

    def finished(self) -> bool:
        return False


def test_a_bound_from_beside_stops_the_solver():
    """Once the partner's bound meets the plan, CP-SAT is stopped at the next tick (a few
    polls, where the full time limit would take about 100)."""
    inst = default_instance(0)
    year = lemuria.YearModel(inst)
    watch = Watch(show=False, vp=100)
    partner = _Proving()
    partner.found(100)
    watch.partner = partner
    solver = lemuria._solver(1, 0, 25.0, False, interleave=True)
    code = solve_watched(solver, year.m, watch)
    assert code in (cp_model.FEASIBLE, cp_model.UNKNOWN)
    assert watch.proven and watch.bound <= watch.vp  # later plans may arrive before the stop
    assert partner.polls <= 4


def test_build_schedule_ends_proven_by_the_bound_beside(monkeypatch):
    """A year whose plan the bound beside reaches is optimal, and the plan replays."""
    inst = default_instance(1, turns=6)
    greedy = greedy_schedule(inst)
    monkeypatch.setattr(lemuria, "_partner", lambda *args: _FinishedProving(greedy.vp))
    schedule = build_schedule(inst, time_limit=60, workers=1)
    assert schedule.status == "optimal" and schedule.bound == schedule.vp
    assert schedule.vp == simulate(inst, schedule).total >= greedy.vp


class _FinishedProving(_Proving):
    def __init__(self, vp: int) -> None:
        super().__init__()
        self.vp = vp
        self.bound = float(vp)

    def finish(self, wait: float = 0.0) -> None:
        return None


def test_build_schedule_beside_keeps_tiny_years_optimal():
    """With the search beside (the default) tiny years are still proven and equal the
    exhaustive planner."""
    for name in ("tiny 0", "held 2"):
        inst = YEARS[name]()
        best = optimum(inst).vp
        schedule = build_schedule(inst, time_limit=30, workers=1)
        assert schedule.status == "optimal" and schedule.vp == best == schedule.bound


def _solve_in_worker(seed: int) -> tuple[str, int]:
    schedule = build_schedule(YEARS["tiny 0"](), time_limit=10, workers=1, seed=seed)
    return schedule.status, schedule.vp


def test_build_schedule_in_a_daemonic_pool_worker():
    """A multiprocessing.Pool worker may not start a process: the branch and bound then runs
    after CP-SAT, and the year is solved as in the main process."""
    import multiprocessing

    best = optimum(YEARS["tiny 0"]()).vp
    with multiprocessing.get_context("fork" if beside_module._START == "fork" else "spawn"
                                     ).Pool(1) as pool:
        status, vp = pool.apply(_solve_in_worker, (0,))
    assert status == "optimal" and vp == best


class _LateProving(_Proving):
    """Proves the plan at its third poll."""

    def poll(self) -> float:
        self.polls += 1
        return float(self.vp) if self.polls >= 3 else float("inf")


def test_waiting_for_the_partner_ends_when_the_year_is_proven():
    """After the polish, build_schedule waits out the time limit for the bound beside; a bound
    that proves the plan ends the wait at once (here at the third poll of some 120)."""
    from solvers.lemuria.search import wait_watched

    watch = Watch(show=False, vp=150)
    partner = _LateProving()
    partner.found(150)
    watch.partner = partner
    wait_watched(watch, 30.0)
    assert watch.proven and not watch.interrupted and partner.polls == 3


def test_ctrl_c_leaves_no_process_behind():
    """Ctrl-C stops the planner; the search beside is stopped with it, and its bound so far
    is kept where it holds."""
    import multiprocessing
    import threading

    inst = default_instance(1)
    timer = threading.Timer(3.0, signal.raise_signal, (signal.SIGINT,))
    timer.start()
    plan = build_schedule(inst, time_limit=60, workers=1, seed=0)
    timer.join()
    assert plan.status == "interrupted"
    assert multiprocessing.active_children() == []
    assert plan.bound is None or plan.bound >= plan.vp
    assert simulate(inst, plan).total == plan.vp


@pytest.mark.parametrize(("cores", "workers", "beside", "expected"),
                         [(2, 2, True, 1), (1, 2, True, 1), (8, 2, True, 2), (4, 8, True, 3),
                          (2, 2, False, 2), (2, 1, True, 1)])
def test_the_search_beside_gets_a_core_after_the_first_run(monkeypatch, cores, workers, beside,
                                                          expected):
    """After CP-SAT's first run, its neighbourhoods and restarts leave a core to the branch and
    bound beside it where the machine has none to spare, and never go below one worker."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(cores)), raising=False)
    watch = Watch(show=False)
    watch.partner = object() if beside else None
    assert lemuria._beside_workers(workers, watch) == expected


@pytest.mark.parametrize(("allowed", "expected"), [({0}, 1), ({3, 5}, 2), (set(range(16)), 2)])
def test_the_default_workers_count_the_cores_the_process_may_use(monkeypatch, allowed,
                                                                   expected):
    """A job pinned to one core of a 64-core machine (taskset, a container's cpuset) gets one
    CP-SAT worker, not two."""
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: allowed, raising=False)
    assert lemuria.default_workers() == expected


def test_build_schedule_improves_on_the_workers_the_search_beside_leaves(monkeypatch):
    calls = []
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setattr(lemuria, "_improve",
                        lambda year, incumbent, watch, workers, *rest: calls.append(
                            (workers, watch.partner is not None)))
    inst = default_instance(4, turns=9)
    # (5 s: the branch and bound beside starts with over 4 s to go, PARTNER_MIN is 2: the
    # set-up before it took 0.6 s on the loaded test machine)
    plan = build_schedule(inst, time_limit=5, workers=2, seed=0, characters=False)
    assert simulate(inst, plan).total == plan.vp
    assert calls == [(1, True)]


PLANNER = """\
import sys, time
import solvers.lemuria.beside as beside_module
from lumicore.lemuria import default_instance
from solvers.lemuria.bound import lagrangian_bound
from solvers.lemuria.beside import BranchBeside

if __name__ == "__main__":
    beside_module._START = sys.argv[1]
    year = default_instance(0)
    # (a root of half a second: the branch and bound of a 12-turn year runs on for minutes)
    beside = BranchBeside(year, lagrangian_bound(year, time_limit=0.5), seconds=1000.0, vp=0)
    print(beside.process.pid, flush=True)
    time.sleep(1000)
"""


def _read_line(stream: IO[bytes], seconds: float) -> bytes | None:
    """A line of ``stream``, None if none comes within ``seconds`` (a thread reads it: a pipe
    cannot be waited on with a timeout everywhere)."""
    import queue
    import threading

    lines: queue.Queue[bytes] = queue.Queue()
    threading.Thread(target=lambda: lines.put(stream.readline()), daemon=True).start()
    try:
        return lines.get(timeout=seconds)
    except queue.Empty:
        return None


@pytest.mark.parametrize(("start", "windows"), [("fork", False), ("spawn", False),
                                                ("fork", True), ("spawn", True)])
def test_the_search_beside_ends_when_the_planner_is_killed(tmp_path, start, windows):
    """A planner killed outright (SIGKILL, the OOM killer, a CI timeout) cannot stop its
    daemonic child: the branch and bound ran on, orphaned, for its whole time limit. It also
    did with ``windows``: no pidfd, and a parent id that stays the dead planner's, as on
    Windows, where the orphan watched ``os.getppid()`` for a change that never came."""
    import subprocess
    from pathlib import Path

    if start not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {start} start method here")
    script = tmp_path / "planner.py"
    script.write_text(PLANNER)
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root)}
    if windows:
        env = windows_parent(env, tmp_path / "site")
    planner = subprocess.Popen([sys.executable, str(script), start], stdout=subprocess.PIPE,
                               env=env)
    try:
        line = _read_line(planner.stdout, 120)
        assert line, "the planner did not start its branch and bound"
        child = int(line)
        time.sleep(1.0)
    finally:
        planner.kill()
        planner.wait()
        planner.stdout.close()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if not running(child):
            return
        time.sleep(0.2)
    kill(child)
    pytest.fail("the branch and bound outlived its planner by a minute")


UNGUARDED = """\
import solvers.lemuria.beside as beside_module
beside_module._START = "spawn"  # what macOS and Windows get
from lumicore.lemuria import default_instance
from solvers.lemuria import build_schedule
print(build_schedule(default_instance(0), time_limit=5, workers=1).status, flush=True)
"""


@pytest.mark.skipif("spawn" not in multiprocessing.get_all_start_methods(), reason="no spawn")
def test_a_script_without_the_main_guard_is_an_error_under_spawn(tmp_path):
    """Under "spawn" (macOS, Windows) the process beside re-runs a script without an ``if
    __name__ == "__main__":`` guard and ends as it starts: the planner then waited for ever
    writing the year (hundreds of KB) to it, Ctrl-C ignored. Now it is an error naming the
    guard, at once."""
    import subprocess
    from pathlib import Path

    script = tmp_path / "unguarded.py"
    script.write_text(UNGUARDED)
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(root)})
    assert done.returncode == 1 and done.stdout == ""
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("lumicore.errors.LumicoreError: the branch-and-bound process "
                           "beside the planner ended as it started (exit status 1)")
    assert 'if __name__ == "__main__":' in last


def test_the_year_goes_to_a_fresh_interpreter_once_it_has_started(monkeypatch):
    """Under "spawn" the year goes down a pipe once the process has started, and its search
    runs as a fork's does."""
    monkeypatch.setattr(beside_module, "_START", "spawn")
    inst = YEARS["tiny 0"]()
    best = optimum(inst).vp
    partner, result = _run(inst, vp=0)
    assert result is not None and result.bound >= best - 1e-6
    assert partner.process.exitcode == 0


def test_ctrl_c_while_the_year_goes_to_the_process_stops_it(monkeypatch):
    """A Ctrl-C while the year goes to a fresh interpreter ends that process and is raised."""
    from multiprocessing.connection import Connection

    from lumicore.lemuria import Instance

    send = Connection.send

    def pressed_while_sending(self, obj):
        if isinstance(obj, tuple) and obj and isinstance(obj[0], Instance):
            signal.raise_signal(signal.SIGINT)
        return send(self, obj)

    monkeypatch.setattr(beside_module, "_START", "spawn")
    monkeypatch.setattr(Connection, "send", pressed_while_sending)
    inst = YEARS["tiny 0"]()
    with pytest.raises(KeyboardInterrupt):
        BranchBeside(inst, lagrangian_bound(inst), seconds=20.0, vp=0)
    assert multiprocessing.active_children() == []


class _Unproving(_Proving):
    """A partner whose bound never comes; records the waits ``finish`` is given."""

    def __init__(self) -> None:
        super().__init__()
        self.bound = float("inf")
        self.waits: list[float] = []

    def finish(self, wait: float = 0.0) -> None:
        self.waits.append(wait)


@pytest.mark.parametrize(("rest", "expected"), [(0.25, 0.25), (0.0, 0.0), (-0.5, 0.0)])
def test_the_last_wait_for_the_partner_ends_at_the_time_limit(monkeypatch, rest, expected):
    """At the time limit build_schedule still gave the branch and bound beside it PARTNER_WAIT
    (1 s) to send its result: now only what is left of the time limit. On a fake clock in
    solvers.lemuria, the wait for the partner's bound after the search uses up the time limit
    but ``rest`` seconds."""
    clock = Clock()
    monkeypatch.setattr(lemuria, "time", clock)
    waited = []

    def wait(watch: Watch, seconds: float) -> None:
        waited.append(seconds)
        clock.now += seconds - rest

    monkeypatch.setattr(lemuria, "wait_watched", wait)
    partner = _Unproving()
    monkeypatch.setattr(lemuria, "_partner", lambda *args: partner)
    plan = build_schedule(default_instance(0), time_limit=1, workers=1, characters=False,
                          dives=False, lns=False, restarts=False)
    assert plan.status == "feasible" and waited == [1.0]  # the clock stood still until then
    assert partner.waits[0] == pytest.approx(expected)  # (the fake is not stopped by it)


class _LastWord(_Unproving):
    """A partner silent while the search runs whose final bound, sent as it finishes, is the
    VP of the best plan it heard of."""

    def poll(self) -> float:
        self.polls += 1
        return float("inf")

    def finish(self, wait: float = 0.0) -> None:
        super().finish(wait)
        self.bound = float(self.vp)


def test_the_partners_last_bound_proves_the_plan(monkeypatch):
    """The bound the partner sends as it ends, after the last poll, reaches the schedule."""
    partner = _LastWord()

    def start(instance, fast, seconds, vp):  # told the greedy year's VP, as the real one is
        partner.found(vp)
        return partner

    monkeypatch.setattr(lemuria, "_partner", start)
    monkeypatch.setattr(lemuria, "wait_watched", lambda watch, seconds: None)
    plan = build_schedule(default_instance(0, turns=8), time_limit=3, workers=1,
                          characters=False, dives=False, lns=False, restarts=False)
    assert partner.polls > 0 and partner.waits  # heard, polled and finished
    assert (plan.status, plan.bound) == ("optimal", plan.vp)
    assert simulate(default_instance(0, turns=8), plan).total == plan.vp


@pytest.mark.parametrize(("used", "polished", "branched"),
                         [(5.0, [2.5], [5.0]), (8.0, [], [2.0]), (10.0, [], []), (10.5, [], [])])
def test_the_polish_and_the_branch_and_bound_get_only_what_is_left(monkeypatch, used, polished,
                                                                    branched):
    """The character polish and the branch and bound after CP-SAT (``beside=False``) got at
    least 0.1 s each, so a year could end about 0.2 s past its time limit. Now each gets only
    what is left (the polish: less the branch and bound's share, 25% of 10 s), and one with
    nothing left is skipped: the plan so far stays, "feasible". On a fake clock in
    solvers.lemuria, CP-SAT (stubbed: no plan beyond the greedy year) uses ``used`` seconds."""
    clock = Clock()
    monkeypatch.setattr(lemuria, "time", clock)

    def solve(*args) -> list:
        clock.now += used
        return []

    steps: dict[str, list[float]] = {"polish": [], "branch": []}
    monkeypatch.setattr(lemuria, "_solve", solve)
    monkeypatch.setattr(lemuria, "_polish", lambda inst, plan, seconds:
                        steps["polish"].append(seconds))
    monkeypatch.setattr(lemuria, "_branch", lambda inst, plan, fast, seconds, watch:
                        steps["branch"].append(seconds))
    inst = default_instance(0)
    plan = build_schedule(inst, time_limit=10, workers=1, beside=False, dives=False)
    assert steps == {"polish": pytest.approx(polished), "branch": pytest.approx(branched)}
    assert plan.status == "feasible" and plan.reason != "interrupted"
    assert plan.vp == greedy_schedule(inst).vp


class _Pipe:
    """The result arrives after ``delay`` seconds of the fake clock."""

    def __init__(self, clock: Clock, delay: float) -> None:
        self.clock, self.delay, self.sent = clock, delay, False

    def poll(self, timeout: float) -> bool:
        if self.sent or timeout < self.delay:
            self.clock.now += timeout
            return False
        self.clock.now += self.delay
        self.sent = True
        return True

    def recv(self) -> tuple:
        return ("result", type("Result", (), {"bound": 200.0})())

    def close(self) -> None:
        pass


class _Process:
    """Records the join timeouts; alive until terminated."""

    def __init__(self) -> None:
        self.joins: list[float | None] = []
        self.alive = True

    def join(self, timeout: float | None = None) -> None:
        self.joins.append(timeout)

    def is_alive(self) -> bool:
        return self.alive

    def terminate(self) -> None:
        self.alive = False


@pytest.mark.parametrize(("delay", "joins"), [(0.4, [0.6, "end"]), (1.5, [0.0, "end"])])
def test_finish_waits_no_longer_than_it_is_given(monkeypatch, delay, joins):
    """finish(wait) waited up to ``wait`` for the result, then up to ``wait`` again (or 0.1 s
    without a result) for the process to end: both now share the one ``wait``, after which the
    process is terminated, and given :data:`solvers.batch.END_WAIT` to end before it is killed.
    A fake clock, pipe and process."""
    import threading

    clock = Clock()
    monkeypatch.setattr(beside_module, "time", clock, raising=False)
    partner = object.__new__(BranchBeside)  # no process started: the fakes stand in
    partner._stop, partner._error = threading.Event(), None
    partner.bound, partner.result = float("inf"), None
    partner._receive, partner.process = _Pipe(clock, delay), _Process()
    result = partner.finish(wait=1.0)
    end = pytest.approx(END_WAIT, abs=0.5)  # the real clock's
    assert partner.process.joins == [end if j == "end" else pytest.approx(j) for j in joins]
    assert not partner.process.alive
    assert (result is not None) == (delay < 1.0) and partner.bound == (200.0 if delay < 1.0
                                                                       else float("inf"))


@pytest.mark.parametrize("late", [False, True])
def test_the_branch_and_bound_beside_starts_with_the_search_or_after_its_first_run(
        monkeypatch, late):
    """By default the process beside starts before CP-SAT; with ``PARTNER_LATE`` (the "late"
    set-up of the benchmark) once CP-SAT's first run on the whole year has ended."""
    events: list[str] = []
    monkeypatch.setattr(lemuria, "PARTNER_LATE", late)
    monkeypatch.setattr(lemuria, "_partner", lambda *args: events.append("partner"))

    def watched(solver, model, watch, bounds=True):  # the CP-SAT runs of the whole year
        events.append("CP-SAT")
        return solve_watched(solver, model, watch, bounds)

    monkeypatch.setattr(lemuria, "solve_watched", watched)
    inst = default_instance(0, turns=7)
    plan = build_schedule(inst, time_limit=2, workers=1, dives=False, characters=False)
    assert simulate(inst, plan).total == plan.vp
    assert events.count("partner") == 1
    assert events[:2] == (["CP-SAT", "partner"] if late else ["partner", "CP-SAT"])


def test_ctrl_c_while_the_partner_starts_stops_the_plan(monkeypatch):
    """Ctrl-C was ignored while the branch and bound's process started (so that it does not
    reach the child): a press then was lost and the plan ran to its limit (seen under load)."""
    import multiprocessing.process

    start = multiprocessing.process.BaseProcess.start

    def pressed_while_starting(self):
        signal.raise_signal(signal.SIGINT)
        time.sleep(0.05)  # the press lands while the process starts
        return start(self)

    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", pressed_while_starting)
    plan = build_schedule(default_instance(0), time_limit=8, workers=1, seed=0, dives=False)
    assert plan.status == "interrupted" and plan.reason == "interrupted"
