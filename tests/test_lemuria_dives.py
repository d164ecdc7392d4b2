"""Plans from the bound (solvers.lemuria.dives): the master's building plans, the model with a
plan's builds fixed (it keeps every year with those builds, the optimum's among them), and the
scheduler's start from the best dive."""

from __future__ import annotations

import random
import signal

import pytest
from lemuria_helpers import Clock, Press, random_schedule
from ortools.sat.python import cp_model

from lumicore.errors import LumicoreError
from lumicore.lemuria import Schedule, default_instance, simulate
from lumicore.lemuria.instance import small_instance
from solvers import lemuria
from solvers.lemuria import _dive, _hint_plan, _solver, build_schedule
from solvers.lemuria.bound import lagrangian_bound
from solvers.lemuria.dives import column_options, dive, fixed_builds, plan_options
from solvers.lemuria.exhaustive import exhaustive_best
from solvers.lemuria.greedy import greedy_schedule
from solvers.lemuria.model import YearModel
from solvers.lemuria.search import Watch


def _deterministic(workers: int, seed: int, seconds: float | None, log: bool,
                   interleave: bool = False) -> cp_model.CpSolver:
    """One CP-SAT worker, not interleaved, limited by deterministic time (``seconds`` of it,
    about a second each on the test machines; the wall clock only as a stop 30 times later):
    its search is the same however loaded the machine (a dive's plan under load was the greedy
    year's, or none, before)."""
    solver = _solver(1, seed, None, log, interleave=False)
    if seconds is not None:
        solver.parameters.max_deterministic_time = seconds
        solver.parameters.max_time_in_seconds = 30 * seconds
    return solver


def _make(seconds: float) -> cp_model.CpSolver:
    return _deterministic(1, 0, seconds, False)


def test_column_options_are_the_masters_building_plans_heaviest_first():
    fast = lagrangian_bound(default_instance(1, turns=8), time_limit=5)
    options = column_options(fast, limit=50)
    weight = {}
    for (side, column), w in zip(fast.columns, fast.weights, strict=True):
        key = tuple(int(o) for o in column.plan.option)
        if side == "building" and w > 1e-6:
            weight[key] = max(weight.get(key, 0.0), w)
    assert options and len(set(options)) == len(options) == len(weight)
    assert set(options) == set(weight)
    assert [weight[o] for o in options] == sorted(weight.values(), reverse=True)
    assert column_options(fast, limit=1) == options[:1]
    assert column_options(lagrangian_bound(default_instance(1, turns=8), method="subgradient"))\
        == []


@pytest.mark.parametrize("seed", range(3))
def test_fixed_builds_keep_every_year_with_those_builds(seed):
    rng = random.Random(seed)
    inst = default_instance(seed, turns=6)
    plan = Schedule(random_schedule(inst, rng))
    year = YearModel(inst)
    if not _hint_plan(inst, year, plan):
        pytest.skip("a plan the model does not describe")
    vp = simulate(inst, plan).total
    options = plan_options(inst, plan)
    model = fixed_builds(year, options)
    model.add(sum(year.parts.values()) >= vp)
    solver = _make(20)
    solver.parameters.stop_after_first_solution = True
    assert solver.solve(model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    found = year.schedule_turns(solver)
    assert plan_options(inst, found) == options
    assert simulate(inst, found).total == round(solver.objective_value) >= vp


@pytest.mark.parametrize("seed", range(3))
def test_the_optimums_builds_fixed_reach_the_optimum(seed):
    inst = small_instance(seed=seed, turns=3, opponents=seed % 2)
    best = exhaustive_best(inst)
    assert best.status == "optimal"
    solver = _make(20)
    assert solver.solve(fixed_builds(YearModel(inst), plan_options(inst, best.schedule))) \
        == cp_model.OPTIMAL
    assert round(solver.objective_value) == best.vp


def test_a_dive_on_builds_no_year_makes_finds_nothing():
    inst = default_instance(0, turns=6)
    year = YearModel(inst)
    overspending = (5,) * 6  # a build every turn from the dearest slot
    assert dive(year, overspending, Watch(), _make, 10) is None
    with pytest.raises(LumicoreError, match="6 build options"):
        fixed_builds(year, (1,))


def _first_found(seconds: float) -> cp_model.CpSolver:
    """As :func:`_make`, stopping at the first year found."""
    solver = _make(seconds)
    solver.parameters.stop_after_first_solution = True
    return solver


def test_a_dive_gives_a_legal_year_with_its_builds():
    inst = default_instance(2, turns=8)
    # the heaviest building plan, dived to its first year (about a deterministic second: the
    # other plans of this year take several, and make the same checks)
    options = column_options(lagrangian_bound(inst, time_limit=5), limit=1)
    plans = [dive(YearModel(inst), o, Watch(), _first_found, 3) for o in options]
    found = [(o, p) for o, p in zip(options, plans, strict=True) if p is not None]
    assert found
    for o, p in found:
        assert plan_options(inst, p) == o
        assert simulate(inst, p).total == p.vp


def test_the_best_dive_is_the_models_complete_hint(monkeypatch):
    monkeypatch.setattr(lemuria, "_solver", _deterministic)
    # one dive, on the heaviest building plan, of about a deterministic second (126 VP where
    # the greedy year makes 100; its polish gets what the dive left of its share, on a loaded
    # machine none)
    monkeypatch.setattr(lemuria, "DIVES", 1)
    inst = default_instance(1, turns=8)
    greedy = greedy_schedule(inst)
    year = YearModel(inst)
    _hint_plan(inst, year, greedy)
    values = year.complete_hint()
    watch = Watch()
    plan, hinted = _dive(inst, year, lagrangian_bound(inst, time_limit=5), watch, 1, 0, 1.5,
                         False, (greedy, values))
    assert plan.vp > greedy.vp and watch.vp == plan.vp
    assert simulate(inst, plan).total == plan.vp
    fixed = year.m.clone()  # the values are a whole solution of the model scoring the plan
    for i, value in enumerate(hinted):
        fixed.add(fixed.get_int_var_from_proto_index(i) == value)
    solver = _make(10)
    assert solver.solve(fixed) == cp_model.OPTIMAL
    assert round(solver.objective_value) == plan.vp


@pytest.mark.parametrize(("used", "polished"), [(1.0, [1.0, 1.0]), (1.99, []), (2.5, [])])
def test_a_dives_polish_gets_only_what_the_dive_left_of_its_share(monkeypatch, used, polished):
    """The polish of a dive's year got at least 0.1 s, so the dives could run past their share
    of the time limit by 0.1 s a dive. Now it gets what the dive left of its share and none
    when that is under MIN_POLISH. On a fake clock two dives share 4 s: each (stubbed, the
    greedy year) uses ``used`` seconds, the polish (stubbed) all it is given."""
    clock = Clock()
    monkeypatch.setattr(lemuria, "time", clock)
    inst = default_instance(1, turns=8)
    greedy = greedy_schedule(inst)

    def dived(year, option, watch, make, seconds):
        clock.now += used
        return greedy

    given = []

    def polish(instance, plan, seconds):
        given.append(seconds)
        clock.now += seconds

    monkeypatch.setattr(lemuria, "column_options", lambda fast, limit: [(1,), (2,)])
    monkeypatch.setattr(lemuria, "dive", dived)
    monkeypatch.setattr(lemuria, "_polish", polish)
    began = clock.now
    found = _dive(inst, YearModel(inst), None, Watch(), 1, 0, 4.0, False, (greedy, [0]))
    assert given == pytest.approx(polished) and found == (greedy, [0])
    assert clock.now - began <= max(4.0, 2 * used)  # past the share only by the dives' own


def test_a_schedule_of_a_long_year_dives_and_replays(monkeypatch):
    tried = []

    def counted(year, options, *args):
        tried.append(options)
        return dive(year, options, *args)

    monkeypatch.setattr(lemuria, "dive", counted)
    monkeypatch.setattr(lemuria, "DIVE_SHARE", 0.5)  # 2 s: each of 3 dives over MIN_DIVE
    inst = default_instance(3, turns=8)
    plan = build_schedule(inst, time_limit=4, workers=1, beside=False)
    assert tried
    assert simulate(inst, plan).total == plan.vp >= greedy_schedule(inst).vp
    assert plan.bound is None or plan.bound >= plan.vp


@pytest.mark.parametrize("while_diving", [False, True])
def test_ctrl_c_during_the_dives_keeps_the_best_plan(monkeypatch, while_diving):
    """At once (Python's KeyboardInterrupt, between solves) or while CP-SAT dives (the
    solver's flag, at the first tick of a dive: a count, not a delay, as a dive on building
    plans no year makes ends at once, and which plans the fast bound gives depends on the
    machine's speed): the search stops with a legal plan, and no dive starts after the press."""

    press = Press(monkeypatch, at_tick=1 if while_diving else None)
    dives = []
    ended = []

    def interrupted(*args):
        dives.append(press.pressed.is_set())
        try:
            if not while_diving:
                press.now()
            return dive(*args)
        finally:
            ended.append(press.pressed.is_set())

    monkeypatch.setattr(lemuria, "dive", interrupted)
    monkeypatch.setattr(lemuria, "DIVE_SHARE", 0.5)  # dives of seconds: a press unheard shows
    inst = default_instance(4)
    plan = build_schedule(inst, time_limit=30, workers=1, beside=False)
    assert plan.status == "interrupted" and plan.reason == "interrupted"
    # the press came in a dive, the last one: a dive that ran on would tick to its own time
    # limit, a search that went on would dive again
    assert dives and True not in dives and ended[-1] and press.stopped
    if not while_diving:
        assert dives == [False]
    assert simulate(inst, plan).total == plan.vp >= greedy_schedule(inst).vp
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
