"""Large neighbourhood search (solvers.lemuria.lns) and the complete greedy hint: neighbourhoods
keep the turns outside the window, better plans replay through the simulator, and a
neighbourhood's bound never passes for the year's bound."""

from __future__ import annotations

import random
import time

from lemuria_helpers import random_schedule
from ortools.sat.python import cp_model

from lumicore.lemuria import default_instance, simulate
from lumicore.lemuria.instance import small_instance
from lumicore.lemuria.schedule import Exchange, Remodel
from solvers.lemuria import _solver
from solvers.lemuria.characters import best_characters
from solvers.lemuria.greedy import greedy_schedule
from solvers.lemuria.lns import improve, neighbourhood, turn_literals
from solvers.lemuria.model import YearModel
from solvers.lemuria.search import Watch, solve_watched


def _greedy_year(seed: int, turns: int):
    inst = default_instance(seed, turns=turns)
    year = YearModel(inst)
    greedy = greedy_schedule(inst)
    year.hint(greedy.turns, {t.turn: t.row for t in simulate(inst, greedy).trace})
    values = year.complete_hint()
    assert values is not None
    return inst, year, greedy, values


def _solve(model: cp_model.CpModel, watch: Watch, bounds: bool = True,
           seconds: float = 20) -> cp_model.CpSolver:
    solver = _solver(1, 0, seconds, False, interleave=False)
    assert solve_watched(solver, model, watch, bounds) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    return solver


def test_complete_hint_is_the_greedy_year():
    inst, year, greedy, values = _greedy_year(0, 5)
    assert sum(values[x.index] for t in year.turns for x in year.bs[t]) == sum(
        1 for p in greedy.turns if p.build_action())
    fixed = year.m.clone()  # the hint is a whole solution: fixing every variable to it
    for i, value in enumerate(values):
        fixed.add(fixed.get_int_var_from_proto_index(i) == value)
    assert _solve(fixed, Watch()).objective_value == greedy.vp


def test_an_empty_window_keeps_the_incumbent():
    inst, year, greedy, values = _greedy_year(1, 5)
    solver = _solve(neighbourhood(year, values, range(0), greedy.vp), Watch(), bounds=False)
    for t in year.turns:
        for x in turn_literals(year, t):
            assert solver.value(x) == values[x.index]
    assert simulate(inst, year.schedule_turns(solver)).total == greedy.vp


def test_a_window_finds_a_better_legal_year_and_its_bound_is_not_the_years():
    inst, year, greedy, values = _greedy_year(2, 6)
    watch = Watch(bound=1000.0)
    solver = _solve(neighbourhood(year, values, range(3, 7), greedy.vp + 1), watch, False)
    assert solver.objective_value > greedy.vp
    assert watch.bound == 1000.0  # a neighbourhood's bound says nothing about the year
    plan = year.schedule_turns(solver)
    assert simulate(inst, plan).total == round(solver.objective_value)
    for t in (1, 2):  # outside the window: as in the greedy year
        assert [x for x in turn_literals(year, t) if solver.value(x)] == [
            x for x in turn_literals(year, t) if values[x.index]]


def test_improve_returns_a_better_year_that_replays():
    inst, year, greedy, values = _greedy_year(3, 6)

    def make(seconds: float) -> cp_model.CpSolver:
        return _solver(1, 0, seconds, False, interleave=False)

    best = improve(year, values, greedy.vp, Watch(), time.perf_counter() + 3, make, seed=0)
    assert best is not None and best.objective_value > greedy.vp
    assert simulate(inst, year.schedule_turns(best)).total == round(best.objective_value)


def test_improve_widens_the_window_after_a_round_without_gain_then_stops(monkeypatch):
    from lumicore.lemuria.instance import small_instance
    from solvers.lemuria import lns

    inst = small_instance(seed=0, turns=3)
    year = YearModel(inst)
    solver = _solve(year.m, Watch())
    assert solver.status_name(solver.solve(year.m)) == "OPTIMAL"  # no window can do better
    widths = []
    real = lns._neighbourhood

    def spy(year, values, window, floor):
        widths.append(len(window))
        return real(year, values, window, floor)

    monkeypatch.setattr(lns, "_neighbourhood", spy)

    def make(seconds: float) -> cp_model.CpSolver:
        return _solver(1, 0, seconds, False, interleave=False)

    best = improve(year, list(solver.response_proto.solution), round(solver.objective_value),
                   Watch(), time.perf_counter() + 60, make, seed=0, windows=(1, 2))
    assert best is None
    assert widths == [1, 1, 1, 2, 2]  # every start of width 1, then of width 2, then done


def test_every_neighbourhood_holds_its_hint(monkeypatch):
    """The hint of a neighbourhood is a solution of it (CP-SAT fixed to its hint finds the
    incumbent's VP): a hint its own model excludes sets off google/or-tools#5288."""
    from solvers.lemuria import lns

    inst, year, greedy, values = _greedy_year(4, 6)
    models = []
    real = lns._neighbourhood

    def spy(year, values, window, floor):
        models.append(real(year, values, window, floor))
        return models[-1]

    monkeypatch.setattr(lns, "_neighbourhood", spy)

    def make(seconds: float) -> cp_model.CpSolver:
        return _solver(1, 0, seconds, False, interleave=False)

    improve(year, values, greedy.vp, Watch(), time.perf_counter() + 2, make, seed=0)
    assert models
    vps = []
    for model in models:
        solver = _solver(1, 0, 20, False, interleave=False)
        solver.parameters.fix_variables_to_their_hinted_value = True
        assert solver.solve(model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
        vps.append(round(solver.objective_value))
    assert vps[0] == greedy.vp  # the first is built from the greedy year
    assert vps == sorted(vps)  # the later ones from the better years found


def test_restarts_share_the_time_left_and_replay(monkeypatch):
    import solvers.lemuria as lemuria

    calls = []
    real = lemuria._restart

    def spy(year, values, watch, workers, seed, seconds, log):
        calls.append((seed, seconds))
        return real(year, values, watch, workers, seed, seconds, log)

    monkeypatch.setattr(lemuria, "_restart", spy)
    # a short first run leaves the restarts most of a short time limit: each needs a second of
    # its own (below that it is skipped), and the three slices of the first call get about 1.3 s
    monkeypatch.setattr(lemuria, "LNS_START", 0.1)
    inst = default_instance(4, turns=9)
    # (no fast bound, branch and bound, dives or polish: they would keep a share of these 5 s,
    # and a restart needs a second of its own: on a loaded machine none was left)
    limit = 5.0
    plan = lemuria.build_schedule(inst, time_limit=limit, workers=1, lns=False, restarts=True,
                                  fast_bound=False, branch=False, dives=False, characters=False)
    assert simulate(inst, plan).total == plan.vp
    assert [seed for seed, _s in calls] == [1, 2, 3][:len(calls)] and calls
    assert all(seconds <= limit * (1 - lemuria.LNS_START) for _seed, seconds in calls)
    # the first restart gets its slice of what the first run left (about 1.5 s), not all of it
    # (4.5 s; the first run may end a little before its share, so the slice may be a little more)
    assert calls[0][1] <= limit / lemuria.RESTART_SLICES
    calls.clear()
    monkeypatch.setattr(lemuria, "improve", lambda *a, **k: None)  # neighbourhoods stall
    plan = lemuria.build_schedule(inst, time_limit=3, workers=1, branch=False, dives=False,
                                  fast_bound=False, characters=False)
    assert simulate(inst, plan).total == plan.vp
    assert len(calls) == 1 and calls[0][0] == 1  # one restart with all the time left


def _complete(inst, plans):
    """The model's values for a legal plan (None: the model does not describe it) and the VP the
    model gives them."""
    year = YearModel(inst)
    if not year.hint(plans, {t.turn: t.row for t in simulate(inst, plans).trace}):
        return None
    values = year.complete_hint()
    if values is None:
        return None
    fixed = year.m.clone()
    for i, value in enumerate(values):
        fixed.add(fixed.get_int_var_from_proto_index(i) == value)
    return _solve(fixed, Watch()).objective_value


def test_the_hint_takes_exchanges_and_remodels_at_the_plans_vp():
    """Plans the character planner writes (exchanges, plays without a home) and random legal
    plans with remodels: where the model describes them, it scores them as the simulator."""
    inst = default_instance(1, turns=6)
    plan = best_characters(inst, greedy_schedule(inst)).schedule
    assert _complete(inst, plan.turns) == plan.vp
    kinds, described = set(), 0
    for seed in range(15):  # 11 of them described, 5 with both an exchange and a remodel
        inst = small_instance(seed, turns=9, buildings=6, characters=10)
        plans = random_schedule(inst, random.Random(seed))
        vp = _complete(inst, plans)
        if vp is not None:
            assert vp == simulate(inst, plans).total
            described += 1
            kinds |= {type(a) for p in plans for a in p.actions}
    assert described >= 10 and {Exchange, Remodel} <= kinds


def test_fix_variable_fixes_a_domain_with_holes():
    """A domain with holes has more than two bounds: fixing wrote over the first two and left
    the others, a domain CP-SAT calls invalid."""
    from solvers.lemuria.model import fix_variable

    model = cp_model.CpModel()
    x = model.new_int_var_from_domain(cp_model.Domain.from_values([0, 2, 5]), "x")
    model.maximize(-x)
    fix_variable(model, x, 5)
    assert list(model.proto.variables[0].domain) == [5, 5]
    solver = cp_model.CpSolver()
    assert solver.solve(model) == cp_model.OPTIMAL and solver.value(x) == 5


def test_the_searches_check_the_solver_their_maker_gives():
    """``make_solver`` must give a CpSolver: anything else is a LumicoreError naming it, not an
    AttributeError from inside the search."""
    import pytest

    from lumicore.errors import LumicoreError
    from solvers.lemuria.dives import dive

    _inst, year, greedy, values = _greedy_year(0, 3)
    with pytest.raises(LumicoreError, match="make_solver's result must be a CP-SAT CpSolver"):
        improve(year, values, greedy.vp, Watch(), time.perf_counter() + 5, lambda s: None,
                windows=(1,))
    with pytest.raises(LumicoreError, match="make_solver's result must be a CP-SAT CpSolver"):
        dive(year, (0, 0, 0), Watch(), lambda s: "solver", 1.0)
    with pytest.raises(LumicoreError, match=r"values must hold \d+ values .* got 3"):
        neighbourhood(year, [0, 0, 0], range(1, 2), 0)
