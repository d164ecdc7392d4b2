"""Running CP-SAT on a Lemuria year: Ctrl-C, a progress line, and the best plan and bound so far.

The solve runs in a worker thread (CP-SAT releases the GIL); the calling thread waits on it and,
on the main thread, a Ctrl-C handler sets ``watch.interrupted`` there at once (elsewhere Python's
``KeyboardInterrupt`` does), so :class:`Watch` stops the search with ``StopSearch`` and keeps
what the solver had found. A solution callback and the bound callback
record the best VP and bound, and a progress line (``solvers.progress``) shows them with the gap.

>>> watch = Watch(show=False)
>>> watch.found(200), watch.bounded(250.0)
(None, None)
>>> watch.text()
'VP 200 bound 250 gap 20.0%'
"""

from __future__ import annotations

import contextlib
import math
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from typing import Any, Protocol

from ortools.sat.python import cp_model

from lumicore.checks import check_bool, check_real, check_type
from lumicore.data import shorten
from lumicore.errors import LumicoreError
from solvers.ctrl_c import noting, pressed, watcher
from solvers.progress import progress

__all__ = ["Watch", "Partner", "solve_watched", "wait_watched", "branch_count", "solve_checked",
           "SOLVER_FAULTS"]


class Watch:
    """Best plan VP and bound seen over one or more CP-SAT runs, the progress line, and whether
    the user interrupted. ``show``: draw the progress line (None: only on a terminal)."""

    def __init__(self, show: bool | None = False, time_limit: float | None = None,
                 vp: int | None = None, bound: float | None = None) -> None:
        self.vp = vp
        self.bound = bound
        self._interrupted = False
        self._pressed = watcher()  # read from CP-SAT's threads, heard as this thread hears it
        self.partner: Partner | None = None
        """A search beside this one (:class:`solvers.lemuria.beside.BranchBeside`): it hears
        of each better plan, and each tick reads its bound."""
        self.start = time.perf_counter()
        total = None if time_limit is None else round(check_real(time_limit, "time_limit"), 1)
        self.bar = progress(total=total, desc="lemuria plan", unit="s", enabled=show,
                            bar_format="{desc} {n:.0f}/{total_fmt} s{postfix}")

    def found(self, vp: float) -> None:
        vp = int(round(vp))
        if self.vp is None or vp > self.vp:
            self.vp = vp
            if self.partner is not None:
                self.partner.found(vp)

    def bounded(self, bound: float) -> None:
        if math.isfinite(bound) and (self.bound is None or bound < self.bound):
            self.bound = float(bound)

    @property
    def interrupted(self) -> bool:
        """The user pressed Ctrl-C (recorded here or by :mod:`solvers.ctrl_c`)."""
        return self._interrupted or self._pressed()

    @interrupted.setter
    def interrupted(self, value: bool) -> None:
        self._interrupted = value

    @property
    def proven(self) -> bool:
        """The best plan reaches the bound (rounded down: VP are whole): nothing is left to
        search for."""
        return (self.vp is not None and self.bound is not None
                and self.vp >= math.floor(self.bound + 1e-6))

    @property
    def over(self) -> bool:
        """Interrupted, or proven: no search should go on."""
        return self.interrupted or self.proven

    def text(self) -> str:
        parts = []
        if self.vp is not None:
            parts.append(f"VP {self.vp}")
        if self.bound is not None:
            parts.append(f"bound {math.floor(self.bound + 1e-6)}")
            if self.vp is not None and self.bound > 0:
                parts.append(f"gap {max(0.0, (self.bound - self.vp) / self.bound):.1%}")
        return " ".join(parts)

    def tick(self) -> None:
        if self.partner is not None:
            self.bounded(self.partner.poll())
        bar = self.bar
        if bar.disable:
            return
        elapsed = time.perf_counter() - self.start
        bar.n = min(elapsed, bar.total) if bar.total else elapsed
        bar.set_postfix_str(self.text(), refresh=False)
        bar.refresh()

    def close(self) -> None:
        self.bar.close()


class Partner(Protocol):
    """What :class:`Watch` asks of a search running beside it."""

    def found(self, vp: int) -> None: ...

    def poll(self) -> float: ...

    def finished(self) -> bool: ...


class _Callback(cp_model.CpSolverSolutionCallback):
    def __init__(self, watch: Watch, bounds: bool) -> None:
        super().__init__()
        self.watch = watch
        self.bounds = bounds

    def on_solution_callback(self) -> None:
        self.watch.found(self.objective_value)
        if self.bounds:
            self.watch.bounded(self.best_objective_bound)


@contextlib.contextmanager
def _ctrl_c_sets(watch: Watch) -> Iterator[None]:
    """While the solver runs, Ctrl-C sets ``watch.interrupted`` instead of raising
    ``KeyboardInterrupt`` (:func:`solvers.ctrl_c.noting` with ``raising=False``; on the main
    thread only, elsewhere Python's own Ctrl-C stays)."""
    with noting(raising=False):
        try:
            yield
        finally:
            if pressed():
                watch.interrupted = True


SOLVER_FAULTS = (IndexError, RuntimeError)
"""How CP-SAT's own C++ errors reach Python (``std::out_of_range``, ``std::runtime_error``).
OR-Tools 9.15 now and then raises ``IndexError: absl::btree_map::at`` while presolving a model
whose hint it cannot carry over (google/or-tools#5288; it depends on the workers' timing): such
a run counts as one that found nothing, the search goes on, and a ``RuntimeWarning`` says so."""


def _warn_fault(error: BaseException) -> None:
    known = " (google/or-tools#5288)" if "btree_map" in str(error) else ""
    warnings.warn(f"a CP-SAT run failed inside the solver{known}: {type(error).__name__}: "
                  f"{error}; the search went on without it", RuntimeWarning, stacklevel=3)


def check_watch(watch: object) -> Watch:
    """``watch`` if it is a :class:`Watch`; else :class:`LumicoreError` naming it."""
    return check_type(watch, Watch, "watch", "a Watch (solvers.lemuria.search)")


def check_solver(solver: object, name: str = "solver") -> cp_model.CpSolver:
    """``solver`` if it is a CP-SAT ``CpSolver``; else :class:`LumicoreError` naming ``name``."""
    return check_type(solver, cp_model.CpSolver, name, "a CP-SAT CpSolver")


def check_model(model: object, name: str = "model") -> cp_model.CpModel:
    """``model`` if it is a CP-SAT ``CpModel``; else :class:`LumicoreError` naming ``name``."""
    return check_type(model, cp_model.CpModel, name, "a CP-SAT CpModel")


def make_checked(make_solver: Callable[[float], cp_model.CpSolver], seconds: float
                 ) -> cp_model.CpSolver:
    """``make_solver(seconds)``, the solver of one run of the searches that take a maker (the
    dives, the neighbourhoods), checked: :class:`LumicoreError` naming ``make_solver`` unless
    it is callable and gives a ``CpSolver``.

    >>> make_checked(lambda seconds: cp_model.CpSolver(), 1.0).parameters.num_workers
    0
    >>> make_checked(None, 1.0)
    Traceback (most recent call last):
    ...
    lumicore.errors.LumicoreError: make_solver must be callable, giving a CpSolver, got 'None'
    """
    return check_solver(check_maker(make_solver)(seconds), "make_solver's result")


def check_maker(make_solver: object) -> Callable[[float], cp_model.CpSolver]:
    """``make_solver`` if it is callable; else :class:`LumicoreError` naming it."""
    if not callable(make_solver):
        raise LumicoreError(f"make_solver must be callable, giving a CpSolver, got "
                            f"{shorten(make_solver)}")
    return make_solver


def solve_checked(solver: cp_model.CpSolver, model: cp_model.CpModel) -> cp_model.CpSolverStatus:
    """``solver.solve(model)``, where a fault of the solver (:data:`SOLVER_FAULTS`) is a
    ``RuntimeWarning`` and the status ``UNKNOWN`` (a run that found nothing)."""
    check_solver(solver)
    check_model(model)
    try:
        return solver.solve(model)
    except SOLVER_FAULTS as error:
        _warn_fault(error)
        return cp_model.UNKNOWN


def branch_count(solver: cp_model.CpSolver) -> int:
    """``solver.num_branches``, or 0 for a run that failed before the solver answered."""
    check_solver(solver)
    try:
        return solver.num_branches
    except RuntimeError:  # "solve() has not been called": no response to read
        return 0


def solve_watched(solver: cp_model.CpSolver, model: cp_model.CpModel, watch: Watch,
                  bounds: bool = True) -> cp_model.CpSolverStatus:
    """``solver.solve(model)`` in a thread, recording into ``watch``; a Ctrl-C (or an earlier
    one, ``watch.interrupted``) stops it gracefully. A model CP-SAT rejects raises
    :class:`LumicoreError` (its bound would mean nothing); a fault inside the solver
    (:data:`SOLVER_FAULTS`) is a ``RuntimeWarning`` and the status ``UNKNOWN``. ``bounds``: the
    model is the whole year, so its bounds bound the year (False for a neighbourhood, whose
    bound does not)."""
    check_solver(solver)
    check_model(model)
    check_watch(watch)
    bounds = check_bool(bounds, "bounds")
    if watch.over:
        return cp_model.UNKNOWN
    solver.parameters.catch_sigint_signal = False
    if bounds:
        solver.best_bound_callback = watch.bounded
    result: dict[str, Any] = {}  # "code" (a CpSolverStatus) or "error" (an exception)
    done = threading.Event()
    callback = _Callback(watch, bounds)

    def run() -> None:
        try:
            result["code"] = solver.solve(model, callback)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
            result["error"] = exc
        finally:
            done.set()

    thread = threading.Thread(target=run, name="cp-sat", daemon=True)
    with _ctrl_c_sets(watch):
        thread.start()
        _tick_until(watch, done.wait)
        if watch.over:  # proven: by a bound from beside the solver
            solver.stop_search()
            while not done.wait(0.25):  # a second Ctrl-C waits as well: the thread must finish
                solver.stop_search()
    if "error" in result:
        error = result["error"]
        if not isinstance(error, SOLVER_FAULTS):
            raise error
        _warn_fault(error)
        return cp_model.UNKNOWN
    code = result["code"]
    if code == cp_model.MODEL_INVALID:
        raise LumicoreError("CP-SAT rejected the year model as invalid: "
                            f"{model.validate()[:80]}")
    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):  # UNKNOWN's bound may be a dummy
        watch.found(solver.objective_value)
        if bounds:
            watch.bounded(solver.best_objective_bound)
    watch.tick()
    return code


def wait_watched(watch: Watch, seconds: float) -> None:
    """Tick ``watch`` for ``seconds`` while its partner searches on, until the year is proven,
    the partner's search has ended or Ctrl-C (which sets ``watch.interrupted``)."""
    check_watch(watch)
    end = time.perf_counter() + check_real(seconds, "seconds", "a finite number >= 0", 0)
    partner = watch.partner

    def finished(step: float) -> bool:
        time.sleep(max(0.0, min(step, end - time.perf_counter())))
        return time.perf_counter() >= end or (partner is not None and partner.finished())

    with _ctrl_c_sets(watch):
        _tick_until(watch, finished)


def _tick_until(watch: Watch, finished: Callable[[float], bool]) -> None:
    """Tick ``watch`` every quarter second until ``finished(0.25)`` (which waits up to that
    long) is True or the watch is over."""
    try:
        while not finished(0.25) and not watch.over:
            watch.tick()
    except KeyboardInterrupt:  # raised by a handler of the caller's own (off the main thread)
        watch.interrupted = True
