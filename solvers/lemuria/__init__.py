"""Lemuria build scheduling with CP-SAT: the VP-maximal year for one player.

``build_schedule(instance)`` models the year of docs/lemuria.md (Trend row ageing and refill,
builds and remodels with their reductions and trend bonus, district chits and turn-start bonuses,
characters played, housed, bought and exchanged, festival scoring) in
:mod:`solvers.lemuria.model`, solves it and returns a :class:`~lumicore.lemuria.Schedule` that
``lumicore.lemuria.simulate`` replays to the same VP.

>>> from lumicore.lemuria import default_instance
>>> plan = build_schedule(default_instance(seed=1, turns=3), time_limit=10, workers=1)
>>> plan.status, plan.vp == sum(plan.breakdown.values())
('optimal', True)
"""

from __future__ import annotations

import math
import multiprocessing
import time
from collections.abc import Callable
from dataclasses import dataclass

from ortools.sat.python import cp_model

from lumicore.checks import check_bool
from lumicore.errors import LumicoreError
from lumicore.lemuria import Instance, Schedule, simulate
from lumicore.lemuria.harvests import AltarSetup
from lumicore.lemuria.instance import check_instance, check_seed
from solvers.batch import cores, worker_count
from solvers.ctrl_c import noting
from solvers.lemuria.beside import BranchBeside
from solvers.lemuria.bound import DEFAULT_BOUND_TIME, METHODS, BoundResult, lagrangian_bound
from solvers.lemuria.branch import branch_bound
from solvers.lemuria.characters import best_characters, freer_reductions
from solvers.lemuria.dives import DIVES, column_options, dive
from solvers.lemuria.exhaustive import exhaustive_best
from solvers.lemuria.greedy import greedy_schedule
from solvers.lemuria.lns import improve
from solvers.lemuria.model import YearModel
from solvers.lemuria.search import Watch, branch_count, solve_watched, wait_watched
from solvers.limits import (
    FEASIBLE,
    INTERRUPTED,
    OPTIMAL,
    REASON_INTERRUPTED,
    REASON_TIME,
    check_limits,
)
from solvers.progress import check_progress

__all__ = ["DEFAULT_TIME_LIMIT", "SEED_LIMIT", "POLISH_SHARE", "BRANCH_SHARE", "DIVE_SHARE",
           "PARTNER_LATE", "VIOLATION_LS", "ModelStats", "build_schedule", "model_stats",
           "default_workers", "best_turn"]

SEED_LIMIT = 2**31
"""CP-SAT's ``random_seed`` is a 32-bit signed int: seeds lie in 0..2**31-1."""
DEFAULT_TIME_LIMIT = 20.0
"""Seconds. 12-turn default instances are not proven within it (see the benchmark); 4-turn
ones mostly are."""


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


def _solver(workers: int, seed: int, time_limit: float | None, log: bool,
            interleave: bool) -> cp_model.CpSolver:
    """A solver with the LP at level 2 (it needs the clauses presolve makes of the links);
    ``interleave``: the subsolvers max_lp (the bound) and quick_restart (the plans), run
    interleaved in one thread, with the neighbourhood searches, when ``workers == 1`` (the
    default pair of workers has no LP at level 2). On two workers CP-SAT runs max_lp in one
    thread and its neighbourhood searches in the other (quick_restart does not run); for the
    plans that ties with quick_restart in that thread and beats CP-SAT's default pair and
    neighbourhoods alone (benchmarks/bench_lemuria_workers.py)."""
    solver = cp_model.CpSolver()
    params = solver.parameters
    params.num_workers = workers
    params.random_seed = seed
    # CP-SAT's own SIGINT handler does not hand Ctrl-C back to Python afterwards
    params.catch_sigint_signal = False
    if time_limit is not None:
        params.max_time_in_seconds = max(float(time_limit), 0.01)
    params.log_search_progress = log
    params.linearization_level = 2
    if interleave:
        params.subsolvers.extend(["max_lp", "quick_restart"])
        params.interleave_search = workers == 1
        if workers >= 2:
            params.num_violation_ls = VIOLATION_LS
    return solver


SHORT_YEAR = 6
"""Years of at most this many turns start with a proving phase when solved on one worker."""


def default_workers() -> int:
    """Two CP-SAT workers where the process may run on two cores or more, else one."""
    return 2 if cores() >= 2 else 1


def _check_args(instance: Instance, workers: int | None, seed: int) -> tuple[int, int]:
    check_instance(instance)
    return worker_count(workers, default_workers), check_seed(seed, SEED_LIMIT)


@noting()
def build_schedule(instance: Instance, time_limit: float | None = DEFAULT_TIME_LIMIT,
                   workers: int | None = None, seed: int = 0, hint: bool = True,
                   log: bool = False, show_progress: bool | None = False,
                   harvests: bool = False, altar: AltarSetup | None = None,
                   lns: bool = True, fast_bound: bool = True, restarts: bool = True,
                   characters: bool = True, bound_method: str = "columns",
                   branch: bool = True, beside: bool = True, dives: bool = True) -> Schedule:
    """Solve the year of ``instance`` for the most VP.

    Returns a :class:`~lumicore.lemuria.Schedule` with ``status`` ``"optimal"`` (its VP equals a
    proven upper bound), ``"feasible"`` (cut off by ``time_limit``, ``reason`` ``"time"``;
    ``bound`` is the least
    proven upper bound: CP-SAT's or :func:`solvers.lemuria.bound.upper_bound`'s, rounded down)
    or ``"interrupted"`` (Ctrl-C: the best plan so far, ``reason = "interrupted"``).
    ``workers``: CP-SAT workers (None: :func:`default_workers`); ``seed``: CP-SAT's random seed,
    0..2**31-1. The greedy year (:func:`solvers.lemuria.greedy.greedy_schedule`) is the fallback:
    with ``hint`` it is given to the solver as a first plan, and when the solver stops before it
    found a better plan the greedy year is returned. ``show_progress``: a progress line with the
    plan's VP, the bound and the gap (None: only on a terminal). ``lns``: on long years, spend
    the last ``1 - LNS_START`` of the time re-solving windows of turns around the best plan
    (:mod:`solvers.lemuria.lns`); ``restarts``: then spend what the neighbourhoods leave (or,
    without ``lns``, the same share of the time) on CP-SAT runs of the whole model from the best
    plan as a complete hint, with other random seeds (both leaving a core to the branch and
    bound beside, where it runs, on at least one worker).
    ``fast_bound``: compute :func:`solvers.lemuria.bound.lagrangian_bound` and add it as a cut
    (False: CP-SAT's bound alone, for comparisons); ``bound_method``: how it searches its
    multipliers (one of :data:`solvers.lemuria.bound.METHODS`). ``characters``: keep the last
    ``POLISH_SHARE`` of the time for :func:`solvers.lemuria.characters.best_characters` on the best
    plan (the same builds, the character moves planned anew by a dynamic program). ``branch``: keep
    the last ``BRANCH_SHARE`` of the time for :func:`solvers.lemuria.branch.branch_bound`, which
    lowers the proven bound by branching on the builds (with the fast bound by column generation and
    a time limit only); with ``beside`` (the default) it runs instead in a process of its own beside
    CP-SAT for the whole time (:mod:`solvers.lemuria.beside`), and a bound it proves that the plan
    reaches ends the search at once. ``dives``: on years longer than ``SHORT_YEAR`` turns, spend the
    first ``DIVE_SHARE`` of the time on the building plans the fast bound's master mixes
    (:mod:`solvers.lemuria.dives`: each solved with its builds fixed, its character moves polished),
    and start the search from the best year they give when it beats the greedy one.
    ``schedule.stats`` holds the model size (:class:`ModelStats`), ``schedule.branches`` the
    solver's branch count.

    A year that starts with present facilities or chits (:attr:`Instance.present
    <lumicore.lemuria.Instance.present>`: a year under way) is planned by CP-SAT alone from the
    greedy year: the fast bound, the branch and bound (after CP-SAT or beside it), the dives
    and the character polish do not model what is present, so ``fast_bound``, ``branch``,
    ``beside``, ``dives`` and ``characters`` are ignored (skipped) there. Its bound is then
    CP-SAT's where the model describes every year (:attr:`YearModel.every_year`), else none
    is proven and the plan is ``"feasible"`` with ``bound`` None, unless on a year of at most
    ``SHORT_YEAR`` turns the exhaustive planner
    (:func:`~solvers.lemuria.exhaustive.exhaustive_best`, which models them and runs on every
    unproven short year) finishes in the time left and proves it.

    Optimal means that no legal year scores more. The model describes every rule of
    docs/lemuria.md in the canonical order of each turn described in
    :mod:`solvers.lemuria.model`, except that a character returned to the bottom of the
    character deck is never drawn again and a card drawn in a turn is not housed in the
    facility that turn's remodel discards; so CP-SAT's own bound counts only where neither
    can happen (:attr:`YearModel.every_year`), and elsewhere the fast bound and the branch and
    bound, which hold for every year, prove the plan.

    ``harvests=True``: the instance's income is ignored; the model also decides the player's
    material operations on the altar (``altar``: an :class:`~lumicore.lemuria.harvests.
    AltarSetup`, default: the default altar card, empty, no other materials) and the income is
    an output (``schedule.income``); see :mod:`solvers.lemuria.harvest`.
    """
    check_limits(None, time_limit)
    workers, seed = _check_args(instance, workers, seed)
    check_progress(show_progress, "show_progress")
    log = check_bool(log, "log")  # OR-Tools' log_search_progress takes a bool only
    hint, harvests, lns, fast_bound, restarts, characters, branch, beside, dives = (
        check_bool(flag, name) for flag, name in (
            (hint, "hint"), (harvests, "harvests"), (lns, "lns"), (fast_bound, "fast_bound"),
            (restarts, "restarts"), (characters, "characters"), (branch, "branch"),
            (beside, "beside"), (dives, "dives")))
    if bound_method not in METHODS:
        raise LumicoreError(f"bound_method: {bound_method!r} is not one of {', '.join(METHODS)}")
    if harvests:  # the material operations decided too: solvers.lemuria.harvest
        from solvers.lemuria.harvest import build_harvest_schedule

        return build_harvest_schedule(instance, altar, time_limit, workers, seed, hint, log,
                                      show_progress=show_progress)
    if instance.present is not None:  # a year under way: the fast bound (so the branch and
        # bound, its partner process and the dives) and the character polish do not model its
        # present facilities and chits, so only CP-SAT searches (and _exhaust on short years)
        fast_bound = characters = False
    start = time.perf_counter()
    greedy = greedy_schedule(instance)
    try:
        year, limit, values, fast = _prepare(instance, greedy, time_limit, hint,
                                             bound_method if fast_bound else None, start)
    except KeyboardInterrupt:  # Ctrl-C before the solver started: the greedy year
        greedy.status, greedy.reason = INTERRUPTED, REASON_INTERRUPTED
        greedy.elapsed = time.perf_counter() - start
        return greedy
    # the model's set-up counts in the time limit: when it took all of it, no search starts
    # and the greedy year is the answer (CP-SAT got at least 0.01 s and took several times that)
    spent = _time_left(start, time_limit) == 0.0
    branch = branch and time_limit is not None and fast is not None and fast.method == "columns"
    seconds = 0.0 if time_limit is None else float(time_limit)
    partner = None
    wanted = (branch and fast is not None and beside and not spent and not fast.interrupted
              and (limit is None or greedy.vp < limit))
    late = wanted and PARTNER_LATE and instance.turns > SHORT_YEAR and _may_fork()
    if wanted and not late:
        assert fast is not None  # wanted: a branch-and-price bound
        try:
            partner = _partner(instance, fast, start + seconds - time.perf_counter(), greedy.vp)
        except KeyboardInterrupt:  # Ctrl-C while the partner started: the greedy year
            greedy.status, greedy.reason = INTERRUPTED, REASON_INTERRUPTED
            greedy.elapsed = time.perf_counter() - start
            return greedy
    watch = Watch(show_progress, time_limit, vp=greedy.vp,
                  bound=None if limit is None else float(limit))
    watch.interrupted = fast is not None and fast.interrupted
    watch.partner = partner
    for_branch = BRANCH_SHARE * seconds if branch and partner is None and not late else 0.0

    def begin_partner() -> None:  # PARTNER_LATE: once CP-SAT's first run ends
        nonlocal partner
        assert fast is not None and watch.vp is not None  # late: wanted, and greedy's VP known
        partner = watch.partner = _partner(instance, fast, start + seconds - time.perf_counter(),
                                           int(watch.vp))
    reserve = for_branch + (POLISH_SHARE * seconds if characters else 0.0)
    try:
        first = greedy
        if (dives and not spent and fast is not None and fast.columns and time_limit is not None
                and instance.turns > SHORT_YEAR and values is not None):
            first, values = _dive(instance, year, fast, watch, workers, seed,
                                  DIVE_SHARE * seconds, log, (greedy, values))
        runs = [] if spent else _solve(
            year, instance, watch, workers, seed,
            None if time_limit is None else float(time_limit) - reserve, log, start,
            lns and values is not None, restarts and values is not None,
            (values, first.vp), begin_partner if late else None)
        schedule = _result(year, first, runs, watch, time.perf_counter() - start)

        def left(kept: float = 0.0) -> float | None:  # seconds to the time limit, less kept
            seconds_left = _time_left(start, time_limit)  # (0: none left, the step is skipped)
            return None if seconds_left is None else max(seconds_left - kept, 0.0)

        def last_wait() -> float:  # for the partner: up to PARTNER_WAIT, within the time limit
            return min(PARTNER_WAIT, max(start + seconds - time.perf_counter(), 0.0))

        if characters and schedule.status == FEASIBLE and (polish := left(for_branch)) != 0:
            _polish(instance, schedule, polish)
            watch.found(schedule.vp)
            watch.tick()
        if partner is not None:
            if schedule.status == FEASIBLE:  # the time the polish left: the bound may fall
                wait_watched(watch, max(start + seconds - time.perf_counter(), 0.0))
                if watch.interrupted:
                    schedule.status, schedule.reason = INTERRUPTED, REASON_INTERRUPTED
            partner.finish(wait=last_wait())
            _bounded(schedule, partner.bound, watch)
        elif branch and fast is not None and schedule.status == FEASIBLE \
                and (bounding := left()) != 0:  # branch: fast is the columns' bound
            _branch(instance, schedule, fast, bounding, watch)
        seconds_left = (EXHAUSTIVE_TIME if time_limit is None
                        else start + float(time_limit) - time.perf_counter())
        if (schedule.status == FEASIBLE and instance.turns <= SHORT_YEAR
                and seconds_left >= MIN_EXHAUSTIVE):
            _exhaust(instance, schedule, seconds_left, watch)
    finally:
        if partner is not None:  # stopped by an error: at once
            partner.finish(wait=0.0)
        watch.close()
    schedule.elapsed = time.perf_counter() - start
    if schedule.status == FEASIBLE and time_limit is not None and schedule.reason is None:
        schedule.reason = REASON_TIME  # what cut the search short, as other searches say
    return schedule


PARTNER_LATE = False
"""On long years, start the branch and bound beside CP-SAT only once CP-SAT's first run ends,
leaving the dives and that run both cores. Off: measured on 20 default years at 60 s, the plans
gain 1.3 VP on the mean and the bound loses 0.45, the median gap the same (docs/lemuria.md,
"late" in Benchmarks)."""
VIOLATION_LS = 0
"""Violation local searches (CP-SAT's ``num_violation_ls``) among the neighbourhood searches of
two workers or more. Off: measured on 20 default years at 60 s ("vls" in docs/lemuria.md,
Benchmarks)."""
DIVE_SHARE = 0.2
"""Share of the time limit for the dives of :mod:`solvers.lemuria.dives` on long years."""
DIVE_POLISH = 0.3
"""Share of a dive's time for polishing its character moves."""
MIN_DIVE = 0.5
"""Seconds below which a dive is not started."""
MIN_POLISH = 0.05
"""Seconds left of a dive's share below which its year is not polished."""


def _dive(instance: Instance, year: YearModel, fast: BoundResult, watch: Watch, workers: int,
          seed: int, seconds: float, log: bool, start: tuple[Schedule, list[int]]
          ) -> tuple[Schedule, list[int]]:
    """The best year of the dives within ``seconds`` and its values as the model's complete
    hint, or ``start`` (the greedy year and its values) if no dive beats it. A polished year
    the model does not describe (a character drawn back from the bottom of the deck) is not
    taken: the model's bound would not cover it."""
    deadline = time.perf_counter() + seconds
    best, values = start
    improved = False
    options = column_options(fast, DIVES)

    def make(limit: float) -> cp_model.CpSolver:
        return _solver(workers, seed, limit, log, interleave=workers <= 2)

    try:
        for k, option in enumerate(options):
            each = (deadline - time.perf_counter()) / (len(options) - k)
            if each < MIN_DIVE or watch.over:
                break
            plan = dive(year, option, watch, make, each * (1 - DIVE_POLISH))
            if plan is None:
                continue
            polished = Schedule(plan.turns, plan.vp, plan.breakdown)
            left = deadline - time.perf_counter() - each * (len(options) - k - 1)
            if left >= MIN_POLISH:  # what the dive left of its share, no more
                _polish(instance, polished, left)
            if polished.status == INTERRUPTED:
                watch.interrupted = True
            for candidate in (polished, plan):
                if candidate.vp > best.vp and year.describes(candidate.turns,
                                                             _rows(instance, candidate)):
                    best, improved = candidate, True
                    watch.found(best.vp)
                    break
    except KeyboardInterrupt:  # outside the solver's own Ctrl-C handling: the search stops
        watch.interrupted = True
    if watch.interrupted or not improved:  # no search follows, or the hint stays
        return best, values
    _hint_plan(instance, year, best)
    hinted = year.complete_hint()
    if hinted is None:  # pragma: no cover - the fixed plan's solve takes milliseconds
        year.hint_values(values)
        return start
    return best, hinted


def _rows(instance: Instance, plan: Schedule) -> dict[int, tuple]:
    """The Trend row ``plan`` sees in each turn."""
    return {trace.turn: trace.row for trace in simulate(instance, plan).trace}


def _hint_plan(instance: Instance, year: YearModel, plan: Schedule) -> bool:
    """Hint ``year`` with the decisions of ``plan`` (replacing its hints); False (and no
    hint) if the model does not describe the plan."""
    year.m.clear_hints()
    return year.hint(plan.turns, _rows(instance, plan))


def _time_left(start: float, time_limit: float | None) -> float | None:
    """Seconds of ``time_limit`` from ``start`` (a ``time.perf_counter()`` value) not spent
    yet: None without a limit, 0.0 once it has passed."""
    if time_limit is None:
        return None
    return max(float(time_limit) - (time.perf_counter() - start), 0.0)


def _prepare(instance: Instance, greedy: Schedule, time_limit: float | None, hint: bool,
             method: str | None, start: float
             ) -> tuple[YearModel, int | None, list[int] | None, BoundResult | None]:
    """The model with the fast bound (by ``method``; None: no fast bound) as a cut and
    the greedy year as a complete hint: the model, the bound (rounded down; None without
    a method), the hint's values and the fast bound's result. The hint is left out (values
    None) once ``time_limit`` from ``start`` has passed: no search would use it."""
    limit, fast = None, None
    if method is not None:
        spend = DEFAULT_BOUND_TIME if time_limit is None else min(DEFAULT_BOUND_TIME,
                                                                   0.1 * float(time_limit))
        fast = lagrangian_bound(instance, spend, target=greedy.vp, method=method)
        limit = math.floor(fast.value + 1e-6)
    year = YearModel(instance)
    if limit is not None:
        year.add_bound(limit)
    values = None
    if hint and _time_left(start, time_limit) != 0.0:
        _hint_plan(instance, year, greedy)
        values = year.complete_hint()
    return year, limit, values, fast


LNS_START = 0.4
"""Share of a long year's time limit for the first CP-SAT run; the rest goes to the large
neighbourhood search around its plan (:mod:`solvers.lemuria.lns`)."""


def _solve(year: YearModel, instance: Instance, watch: Watch, workers: int, seed: int,
           time_limit: float | None, log: bool, start: float, lns: bool, restarts: bool,
           incumbent: tuple, after_first: Callable[[], None] | None = None) -> list:
    """The CP-SAT runs: ``[(status code, solver), ...]``. ``incumbent``: the values of every
    variable for the greedy year and its VP, where the search starts from."""
    # One worker, short years: first the default search with the LP at level 2 for half the
    # time (it proves them: all of default_instance(0..3, turns=4) in 30 s, median about 13 s on
    # the shared 2-core machine, where the interleaved pair below proved none); if it does not
    # prove the year, max_lp and quick_restart interleaved in the thread for the rest. Long
    # years go straight to the interleaved pair, which finds their plans (221 VP for
    # default_instance(0) in 60 s, where the default search kept the greedy 171; split in
    # halves, 10 s runs never beat the greedy year). The better plan and the lower bound are
    # kept.
    runs: list = []
    if watch.over:  # Ctrl-C while the fast bound was computed, or the greedy year reaches it
        return runs
    if workers == 1 and instance.turns <= SHORT_YEAR:
        left = _time_left(start, time_limit)
        first = None if left is None else left / 2  # half of what the set-up left
        solver = _solver(1, seed, first, log, interleave=False)
        code = solve_watched(solver, year.m, watch, bounds=year.every_year)
        runs.append((code, solver))
        left = _time_left(start, time_limit)
        if (code not in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and not watch.over
                and (left is None or left > 0)):
            solver = _solver(1, seed, left, log, interleave=True)
            runs.append((solve_watched(solver, year.m, watch, bounds=year.every_year), solver))
    else:
        left = _time_left(start, time_limit)
        improving = left is not None and (lns or restarts)
        first = LNS_START * left if improving and left is not None else left
        solver = _solver(workers, seed, first, log, interleave=workers <= 2)
        code = solve_watched(solver, year.m, watch, bounds=year.every_year)
        runs.append((code, solver))
        if after_first is not None and not watch.over:
            after_first()
        if improving and code != cp_model.OPTIMAL:
            if code == cp_model.FEASIBLE and solver.objective_value > incumbent[1]:
                incumbent = _values(solver)
            assert time_limit is not None  # improving: there is a time left
            _improve(year, incumbent, watch, _beside_workers(workers, watch), seed,
                     start + float(time_limit), log, lns, restarts, runs)
    if any(code == cp_model.INFEASIBLE for code, _s in runs):  # pragma: no cover
        raise AssertionError("the Lemuria year model is infeasible: a modelling bug")
    return runs


def _beside_workers(workers: int, watch: Watch) -> int:
    """CP-SAT's workers after its first run: where the branch and bound runs beside it, at most
    the machine's cores less one (and at least one), so that it has a core of its own. The
    neighbourhoods and restarts find their plans as well on one worker of two (docs/lemuria.md,
    "CP-SAT's workers on 12-turn years")."""
    if watch.partner is None:
        return workers
    return max(1, min(workers, cores() - 1))


RESTART_SLICES = 3
"""Hinted restarts without the neighbourhood search share the time in this many runs."""


def _values(solver: cp_model.CpSolver) -> tuple[list[int], int]:
    return list(solver.response_proto.solution), int(round(solver.objective_value))


def _improve(year: YearModel, incumbent: tuple[list[int], int], watch: Watch, workers: int,
             seed: int, deadline: float, log: bool, lns: bool, restarts: bool, runs: list
             ) -> None:
    """After the first run, until ``deadline``: the large neighbourhood search around the
    incumbent (``lns``), then hinted restarts of the whole model (``restarts``): all the time
    left once the neighbourhoods stall, or ``RESTART_SLICES`` runs without ``lns``. Appends
    the runs to ``runs``."""
    if lns:
        def make(seconds: float) -> cp_model.CpSolver:
            sub = _solver(workers, seed, seconds, log, interleave=False)
            sub.parameters.linearization_level = 1
            return sub

        best = improve(year, *incumbent, watch, deadline, make, seed)
        if best is not None:
            runs.append((cp_model.FEASIBLE, best))
            incumbent = _values(best)
    slices = 1 if lns else RESTART_SLICES
    for k in range(slices if restarts else 0):
        left = (deadline - time.perf_counter()) / (slices - k)
        if left < 1.0 or watch.over:
            return
        code, solver = _restart(year, incumbent[0], watch, workers, seed + 1 + k, left, log)
        runs.append((code, solver))
        if code == cp_model.OPTIMAL:
            return
        if code == cp_model.FEASIBLE and solver.objective_value > incumbent[1]:
            incumbent = _values(solver)


def _restart(year: YearModel, values: list[int], watch: Watch, workers: int, seed: int,
             seconds: float, log: bool) -> tuple:
    """CP-SAT on the whole model again, from the incumbent ``values`` as a complete hint, with
    another random seed: the rest of the time once the neighbourhoods stall."""
    year.hint_values(values)
    solver = _solver(workers, seed % SEED_LIMIT, seconds, log, interleave=workers <= 2)
    return solve_watched(solver, year.m, watch, bounds=year.every_year), solver


POLISH_SHARE = 0.05
"""Share of the time limit kept for planning the character moves of the best plan anew."""
BRANCH_SHARE = 0.25
"""Share of the time limit kept for the branch and bound that lowers the proven bound."""
POLISH_BEAMS = (300, 1000, 3000)
"""States per turn the character planner keeps in its successive runs when it polishes a plan
(each a beam, from the plan the one before found, while the time lasts)."""


def _polish(instance: Instance, schedule: Schedule, seconds: float | None) -> None:
    """Replace the character moves of ``schedule`` by better ones where the character planner
    finds them within ``seconds``, starting from the plan with
    :func:`~solvers.lemuria.characters.freer_reductions`; the builds stay. A bound the polished
    plan beats (none that holds for every year can) is dropped rather than reported."""
    deadline = None if seconds is None else time.perf_counter() + seconds
    start = Schedule(freer_reductions(instance, schedule), vp=schedule.vp)
    for states in POLISH_BEAMS:
        left = None if deadline is None else deadline - time.perf_counter()
        if left is not None and left <= 0:
            break
        plan = best_characters(instance, start, max_states=states, time_limit=left)
        if plan.status == INTERRUPTED:
            schedule.status, schedule.reason = INTERRUPTED, REASON_INTERRUPTED
            return
        if plan.vp > schedule.vp:
            schedule.turns, schedule.vp = plan.schedule.turns, plan.vp
            schedule.breakdown = plan.schedule.breakdown
            start = plan.schedule
        if plan.status == OPTIMAL:
            break
    if schedule.bound is not None and schedule.vp >= schedule.bound:
        if schedule.vp > schedule.bound:
            schedule.bound = None
        else:
            schedule.mark_optimal()


PARTNER_MIN = 2.0
"""Seconds left below which no branch and bound starts beside CP-SAT."""


def _partner(instance: Instance, fast: BoundResult, seconds: float,
             vp: int) -> BranchBeside | None:
    """The branch and bound beside CP-SAT for ``seconds``, if that is worth a process and
    this process may start one (a daemonic one, such as a ``multiprocessing.Pool`` worker,
    may not: the branch and bound then runs after CP-SAT)."""
    if seconds < PARTNER_MIN or not _may_fork():
        return None
    return BranchBeside(instance, fast, seconds, vp)


def _may_fork() -> bool:
    """This process may start a process beside it (a daemonic one may not)."""
    return not multiprocessing.current_process().daemon


def _branch(instance: Instance, schedule: Schedule, fast: BoundResult, seconds: float | None,
            watch: Watch) -> None:
    """Lower ``schedule.bound`` by :func:`solvers.lemuria.branch.branch_bound` within
    ``seconds`` (its bound holds for every legal year, also those the CP-SAT model does not
    describe), showing it on ``watch``'s progress line; a bound the plan reaches makes it
    optimal."""
    found = branch_bound(instance, time_limit=seconds, target=schedule.vp, root=fast,
                         on_bound=lambda bound: _show(watch, schedule, bound))
    if found.status == "interrupted":
        schedule.status, schedule.reason = INTERRUPTED, REASON_INTERRUPTED
    _bounded(schedule, found.bound, watch)


EXHAUSTIVE_TIME = 60.0
"""Seconds for the exhaustive planner on an unproven short year solved without a time limit."""
MIN_EXHAUSTIVE = 0.5
"""Seconds left below which an unproven short year is not handed to the exhaustive planner."""


def _exhaust(instance: Instance, schedule: Schedule, seconds: float, watch: Watch) -> None:
    """A short year not proven by the searches (CP-SAT's bound does not count where its model
    leaves out a corner case of the rules, and the fast bound can be loose: 72 on a 3-turn
    year worth 26): :func:`solvers.lemuria.exhaustive.exhaustive_best` within ``seconds``. Its
    plan replaces one it beats; a search it finishes proves its plan optimal."""
    try:
        found = exhaustive_best(instance, max_nodes=None, time_limit=seconds)
    except KeyboardInterrupt:
        schedule.status, schedule.reason = INTERRUPTED, REASON_INTERRUPTED
        return
    if found.vp > schedule.vp:
        schedule.turns, schedule.vp = found.schedule.turns, found.vp
        schedule.breakdown = dict(found.schedule.breakdown)
        watch.found(found.vp)
    if found.status == INTERRUPTED:
        schedule.status, schedule.reason = INTERRUPTED, REASON_INTERRUPTED
    if found.status == OPTIMAL:
        _bounded(schedule, float(found.vp), watch)


def _show(watch: Watch, schedule: Schedule, bound: float) -> None:
    """The branch and bound's bound on the progress line (no lower than the plan it knows)."""
    watch.bounded(max(bound, float(schedule.vp)))
    watch.tick()


PARTNER_WAIT = 1.0
"""Seconds the branch and bound beside CP-SAT gets at most to send its result and end once
asked to stop, and never past the time limit: at the limit it is terminated at once (the
bounds it sent so far are kept either way)."""


def _bounded(schedule: Schedule, bound: float, watch: Watch) -> None:
    """Lower ``schedule.bound`` to a bound of the branch and bound: every legal year scores at
    most the larger of ``bound`` and the VP of the plans it was told of, which the schedule's
    plan reaches; a bound the plan reaches makes it optimal."""
    if not math.isfinite(bound):
        return
    bound = float(math.floor(bound + 1e-6))
    _show(watch, schedule, bound)
    if schedule.status == OPTIMAL:
        return
    if schedule.bound is None or bound < schedule.bound:
        schedule.bound = bound
    if schedule.bound <= schedule.vp and schedule.status == FEASIBLE:
        schedule.mark_optimal()


def _result(year: YearModel, fallback: Schedule, runs: list, watch: Watch,
            elapsed: float) -> Schedule:
    """The best plan of the runs (or ``fallback``, the year they started from) with the least
    proven bound."""
    bound = math.floor(watch.bound + 1e-6) if watch.bound is not None else None
    found = [(s.objective_value, i) for i, (code, s) in enumerate(runs)
             if code in (cp_model.OPTIMAL, cp_model.FEASIBLE)]
    best = runs[max(found)[1]][1] if found else None
    if best is not None and best.objective_value > fallback.vp - 0.5:
        schedule = year.schedule(best)
    else:  # cut off before beating the year they started from
        schedule = Schedule(turns=fallback.turns, vp=fallback.vp, breakdown=fallback.breakdown)
    schedule.elapsed = elapsed
    if bound is not None and schedule.vp >= bound:
        schedule.mark_optimal()
    else:
        schedule.status, schedule.bound = FEASIBLE, None if bound is None else float(bound)
    if watch.interrupted:
        schedule.status, schedule.reason = INTERRUPTED, REASON_INTERRUPTED
    schedule.stats = _stats(year.m)  # type: ignore[attr-defined]
    schedule.branches = sum(branch_count(s) for _c, s in runs)  # type: ignore[attr-defined]
    return schedule


from solvers.lemuria.turn import best_turn  # noqa: E402  (it imports this package's parts)
