"""Plans from the bound (a Lagrangian heuristic): the building plans that the master of column
generation mixes, each made a legal year by CP-SAT with its builds fixed.

At the root of a default 12-turn year the master of :func:`solvers.lemuria.bound.
lagrangian_bound` weighs a few building plans (the build option of each turn: no build, or the
Trend slot built from), chosen by prices that balance the year's resources and housing on
average. One of them, its builds fixed, is a much smaller problem than the whole year: CP-SAT
picks the chits, reductions, remodels and character moves around it, and often finds a year
the whole model's search does not reach within the minute (docs/lemuria.md measures it). A
plan whose builds overspend has no legal year; CP-SAT says so at once.

>>> from lumicore.lemuria import default_instance
>>> from solvers.lemuria.bound import lagrangian_bound
>>> options = column_options(lagrangian_bound(default_instance(1, turns=8)))
>>> all(len(o) == 8 and set(o) <= set(range(6)) for o in options)
True
"""

from __future__ import annotations

from collections.abc import Callable

from ortools.sat.python import cp_model

from lumicore.checks import check_int, check_real, check_type
from lumicore.errors import LumicoreError
from lumicore.lemuria import Instance, Schedule, simulate
from lumicore.lemuria.schedule import TurnPlan
from solvers.lemuria.bound import BoundResult
from solvers.lemuria.model import YearModel, _fix, check_year
from solvers.lemuria.search import Watch, check_maker, check_watch, make_checked, solve_watched

__all__ = ["column_options", "plan_options", "fixed_builds", "dive", "DIVES"]

DIVES = 3
"""Building plans of the master tried, heaviest first."""
MIN_WEIGHT = 1e-6
"""Columns the master weighs less than this are not among its plans."""
SLOT_OPTIONS = range(6)
"""The build options of a turn: 0, no build; 1..5, the Trend slot built from."""


def column_options(fast: BoundResult, limit: int = DIVES) -> list[tuple[int, ...]]:
    """The build options by turn (0: no build, 1..5: the slot built from) of the building
    plans the master of ``fast`` (a column-generation bound) weighs, heaviest first, each
    once, at most ``limit`` of them (none for a bound without columns)."""
    check_type(fast, BoundResult, "fast", "a BoundResult (solvers.lemuria.bound)")
    limit = check_int(limit, "limit", 1)
    weighed = sorted(((w, column) for (side, column), w in zip(fast.columns, fast.weights,
                                                                strict=False)
                      if side == "building" and w > MIN_WEIGHT), key=lambda x: -x[0])
    out: list[tuple[int, ...]] = []
    for _w, column in weighed:
        options = tuple(int(o) for o in column.plan.option)
        if options not in out:
            out.append(options)
        if len(out) == limit:
            break
    return out


def plan_options(instance: Instance, schedule: Schedule | list[TurnPlan]) -> tuple[int, ...]:
    """The build options by turn of a legal plan (0: no build, 1..5: the slot of the Trend
    row it saw that its build or remodel took), as :func:`column_options` gives them.

    >>> from lumicore.lemuria import default_instance
    >>> from solvers.lemuria.greedy import greedy_schedule
    >>> inst = default_instance(0, turns=3)
    >>> options = plan_options(inst, greedy_schedule(inst))
    >>> len(options), all(0 <= o <= 5 for o in options)
    (3, True)
    """
    options = []
    for trace in simulate(instance, schedule).trace:
        build = TurnPlan(trace.turn, trace.actions).build_action()
        options.append(0 if build is None else trace.row.index(build.card) + 1)
    return tuple(options)


def fixed_builds(year: YearModel, options: tuple[int, ...]) -> cp_model.CpModel:
    """A copy of the year's model whose build in each turn is ``options``' (the model's slot
    literals fixed), without hints.

    >>> from lumicore.lemuria import default_instance
    >>> year = YearModel(default_instance(0, turns=2))
    >>> model = fixed_builds(year, (1, 0))
    >>> fixed_builds(year, (1, 6))
    Traceback (most recent call last):
    ...
    lumicore.errors.LumicoreError: options[1] must be a build option (0: none, 1-5: a Trend \
slot), got '6'
    """
    return _fixed_builds(check_year(year), _check_options(year, options))


def _check_options(year: YearModel, options: object) -> tuple[int, ...]:
    """``options`` as a tuple of ints if it is a sequence of a build option per turn of
    ``year``; else :class:`LumicoreError` naming it."""
    given: tuple | list = check_type(options, (tuple, list), "options",
                                     "a tuple of build options, one per turn")
    if len(given) != year.T:
        raise LumicoreError(f"options must hold {year.T} build options (one per turn), got "
                            f"{len(given)}")
    return tuple(check_int(o, f"options[{k}]", 0, len(SLOT_OPTIONS) - 1,
                           what="a build option (0: none, 1-5: a Trend slot)")
                 for k, o in enumerate(given))


def _fixed_builds(year: YearModel, options: tuple[int, ...]) -> cp_model.CpModel:
    model = year.m.clone()
    for t in year.turns:
        for s, x in enumerate(year.bs[t]):
            _fix(model, x, int(options[t - 1] == s + 1))
    model.clear_hints()
    return model


def dive(year: YearModel, options: tuple[int, ...], watch: Watch,
         make_solver: Callable[[float], cp_model.CpSolver], seconds: float) -> Schedule | None:
    """The best year CP-SAT finds within ``seconds`` with the builds of ``options`` (None if
    it finds none: no legal year makes those builds, or the time was too short)."""
    options = _check_options(check_year(year), options)
    check_watch(watch)
    solver = make_checked(check_maker(make_solver),
                          check_real(seconds, "seconds", "a finite number >= 0", 0))
    code = solve_watched(solver, _fixed_builds(year, options), watch, bounds=False)
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    return year.schedule(solver)
