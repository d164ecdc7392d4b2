"""Lemuria build scheduling with CP-SAT: the VP-maximal year for one player.

``build_schedule(instance)`` models the year of docs/lemuria.md (Trend row ageing and refill,
builds and remodels with their reductions and trend bonus, district chits and turn-start bonuses,
characters played, housed, bought and exchanged, festival scoring) in
:mod:`solvers.lemuria_model`, solves it and returns a :class:`~lumicore.lemuria.Schedule` that
``lumicore.lemuria.simulate`` replays to the same VP.

>>> from lumicore.lemuria import default_instance
>>> plan = build_schedule(default_instance(seed=1, turns=3), time_limit=10, workers=1)
>>> plan.status, plan.vp == sum(plan.breakdown.values())
('optimal', True)
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ortools.sat.python import cp_model

from lumicore.errors import SearchLimitError
from lumicore.lemuria import Instance, Schedule, simulate
from solvers.lemuria_greedy import greedy_schedule
from solvers.lemuria_model import YearModel
from solvers.limits import FEASIBLE, OPTIMAL, check_limits

__all__ = ["DEFAULT_TIME_LIMIT", "ModelStats", "build_schedule", "model_stats"]

DEFAULT_TIME_LIMIT = 20.0
"""Seconds; the default instances are proven optimal well within it (see the benchmark)."""


@dataclass(frozen=True)
class ModelStats:
    """Size of the CP-SAT model: variables and constraints (as built, before presolve)."""

    variables: int
    booleans: int
    constraints: int


def model_stats(instance: Instance) -> ModelStats:
    """The size of the model :func:`build_schedule` solves for ``instance``.

    >>> from lumicore.lemuria import default_instance
    >>> model_stats(default_instance(0, turns=2)).variables > 0
    True
    """
    return _stats(YearModel(instance).m)


def _stats(model: cp_model.CpModel) -> ModelStats:
    proto = model.proto
    booleans = sum(1 for var in proto.variables if list(var.domain) == [0, 1])
    return ModelStats(len(proto.variables), booleans, len(proto.constraints))


def build_schedule(instance: Instance, time_limit: float | None = DEFAULT_TIME_LIMIT,
                   workers: int = 1, seed: int = 0, hint: bool = True,
                   log: bool = False) -> Schedule:
    """Solve the year of ``instance`` for the most VP.

    Returns a :class:`~lumicore.lemuria.Schedule` with ``status`` ``"optimal"`` (proven) or
    ``"feasible"`` (cut off by ``time_limit``; ``bound`` is the solver's upper bound on the VP).
    The greedy year (:func:`solvers.lemuria_greedy.greedy_schedule`) is the fallback: with
    ``hint`` it is given to the solver as a first plan, and when the solver stops before it
    found a better plan the greedy year is returned (status ``"feasible"``, the solver's bound).
    ``schedule.stats`` holds the model size (:class:`ModelStats`), ``schedule.branches`` the
    solver's branch count.

    Optimal means optimal over the plans the model describes: every rule of docs/lemuria.md, in
    the canonical order of each turn described in :mod:`solvers.lemuria_model` (which loses
    nothing), except that a character returned to the bottom of the character deck is never
    drawn again (the model draws each card of the initial character deck at most once).
    """
    check_limits(None, time_limit)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise SearchLimitError(f"workers must be a positive integer, got {workers!r}")
    start = time.perf_counter()
    year = YearModel(instance)
    greedy = greedy_schedule(instance)
    if hint:
        rows = {trace.turn: trace.row for trace in simulate(instance, greedy).trace}
        year.hint(greedy.turns, rows)
    solver = cp_model.CpSolver()
    params = solver.parameters
    params.num_workers = workers
    params.random_seed = seed
    if time_limit is not None:
        params.max_time_in_seconds = float(time_limit)
    params.log_search_progress = log
    params.linearization_level = 2  # the LP needs the clauses presolve makes of the links
    if workers == 2:
        # An LP at level 2 proves the bound, quick restarts find the plans. The default pair
        # of workers has no LP at level 2.
        params.subsolvers.extend(["max_lp", "quick_restart"])
    # One worker runs the default search with the LP at level 2 (the greedy year is its first
    # plan). Interleaving max_lp and quick_restart in one thread (the earlier setting) proved
    # none of default_instance(0..3, turns=4) in 30 s; the default search proves all four
    # (median about 11 s on the shared 2-core machine).
    code = solver.solve(year.m)
    elapsed = time.perf_counter() - start
    if code == cp_model.INFEASIBLE:  # pragma: no cover - an empty year is always legal
        raise AssertionError("the Lemuria year model is infeasible: a modelling bug")
    found = code in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    if found and (code == cp_model.OPTIMAL or solver.objective_value > greedy.vp):
        optimal = code == cp_model.OPTIMAL
        schedule = Schedule(
            turns=year.schedule_turns(solver),
            vp=int(round(solver.objective_value)),
            breakdown=year.breakdown(solver),
            status=OPTIMAL if optimal else FEASIBLE,
            bound=None if optimal else float(solver.best_objective_bound),
            elapsed=elapsed,
        )
    else:  # cut off before beating the greedy year
        schedule = Schedule(turns=greedy.turns, vp=greedy.vp, breakdown=greedy.breakdown,
                            status=FEASIBLE, bound=float(solver.best_objective_bound),
                            elapsed=elapsed)
    schedule.stats = _stats(year.m)  # type: ignore[attr-defined]
    schedule.branches = solver.num_branches  # type: ignore[attr-defined]
    return schedule
