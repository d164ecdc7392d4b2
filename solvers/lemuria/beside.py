"""The branch and bound of :mod:`solvers.lemuria.branch` in a process of its own, beside the
CP-SAT search of :func:`solvers.lemuria.build_schedule`.

Run one after the other, CP-SAT's two workers and the branch and bound share the time limit
and one core idles while the branch and bound (a single thread) runs. Run beside each other,
the branch and bound has the whole time limit: it lowers the bound by more for a little of
CP-SAT's time (docs/lemuria.md measures both). The process learns the best plan's VP as
CP-SAT finds them (it prunes the nodes no better) and sends each fall of its bound back.

The process starts with Ctrl-C ignored: the caller stops it (:meth:`BranchBeside.finish`),
so a Ctrl-C reaches only the planner, which keeps its plan and the bound proven so far. A press
the planner had noted (:mod:`solvers.ctrl_c`) when the process was forked is cleared as it
starts: it stopped the search at once before.

>>> from lumicore.lemuria import default_instance
>>> from solvers.lemuria.bound import lagrangian_bound
>>> year = default_instance(2, turns=4)
>>> beside = BranchBeside(year, lagrangian_bound(year), seconds=20.0, vp=0)
>>> result = beside.finish(wait=30.0)
>>> result.bound <= result.root
True
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import os
import sys
import time
from multiprocessing.connection import Connection
from typing import Any

from lumicore.checks import check_int, check_real
from lumicore.errors import LumicoreError
from lumicore.lemuria import Instance
from lumicore.lemuria.instance import check_instance
from solvers.batch import (
    children_ignore_ctrl_c,
    ctrl_c_held,
    deliver_ctrl_c,
    end_processes,
    ignore_ctrl_c,
    parent_ended,
)
from solvers.ctrl_c import forget
from solvers.lemuria.bound import BoundResult
from solvers.lemuria.branch import BranchResult, _check_root, branch_bound
from solvers.lemuria.model import VP_RANGE

__all__ = ["BranchBeside"]

_START = "fork" if sys.platform.startswith("linux") else "spawn"
"""How the process starts: a fork on Linux (at once, before CP-SAT's threads exist, and a
user's script without an ``if __name__ == "__main__":`` guard is not run again, as "spawn"
would); elsewhere a fresh interpreter, as multiprocessing advises there."""


class BranchBeside:
    """:func:`~solvers.lemuria.branch.branch_bound` of ``instance`` from the whole year's
    column-generation bound ``root``, for at most ``seconds``, in a process started at once;
    ``vp``: the best plan's VP known now (:meth:`found` tells it of better ones)."""

    def __init__(self, instance: Instance, root: BoundResult, seconds: float, vp: int) -> None:
        check_instance(instance).check_nothing_present("BranchBeside")
        _check_root(instance, root)
        seconds = check_real(seconds, "seconds", "a finite number >= 0", 0)
        vp = check_int(vp, "vp", *VP_RANGE)
        context: Any = multiprocessing.get_context(_START)  # typeshed's BaseContext: no Process
        self._vp = context.Value("i", int(vp))
        self._stop = context.Event()
        self._receive, send = context.Pipe(duplex=False)
        self.bound = math.inf
        """The least bound the process has sent so far."""
        self.result: BranchResult | None = None
        self._error: BaseException | None = None
        forked = _START == "fork"
        # a fresh interpreter gets the year once started (_hand_over), a fork has it already
        take, give = (None, None) if forked else context.Pipe(duplex=False)
        self.process = context.Process(
            target=_run, args=((instance, root) if forked else None, take, float(seconds),
                               self._vp, self._stop, send),
            name="lemuria-branch", daemon=True)
        pressed: list[int] = []
        with children_ignore_ctrl_c(pressed if forked else None):
            self.process.start()
        send.close()
        if take is not None and give is not None:
            take.close()  # the child's end: its end then breaks the pipe
            self._hand_over(give, (instance, root))
        if pressed:  # Ctrl-C while the process started: its handler runs now
            try:
                deliver_ctrl_c()
            except BaseException:
                self.finish(wait=0.0)
                raise

    def _hand_over(self, give: Connection, year: tuple[Instance, BoundResult]) -> None:
        """Send ``year`` down ``give`` to the process started in a fresh interpreter and wait
        for it to say it has it. Started with the year as its arguments, a process that ended
        as it started (a script without the ``__main__`` guard, which the new interpreter runs
        again) left the planner writing them (hundreds of KB) to it for ever, with Ctrl-C
        ignored; here its end is a :class:`LumicoreError` naming the guard, and Ctrl-C ends
        the process."""
        try:
            with give:
                give.send(year)
            kind, _ = self._receive.recv()
            if kind != "started":
                raise EOFError(kind)
        except (EOFError, OSError) as exc:
            self.finish(wait=5.0)
            code = self.process.exitcode
            how = "" if code is None else f" (exit status {code})"
            raise LumicoreError(
                f"the branch-and-bound process beside the planner ended as it started{how}: on "
                'macOS and Windows (the "spawn" start method) the script that plans must keep '
                'its main code under \'if __name__ == "__main__":\', as the new process runs '
                "the script again") from exc
        except BaseException:  # Ctrl-C: the process is ended with the planner's search
            self.finish(wait=0.0)
            raise

    def found(self, vp: int) -> None:
        """Tell the process of a plan of ``vp`` VP (it prunes nodes no better)."""
        vp = check_int(vp, "vp", *VP_RANGE)
        with self._vp.get_lock():
            if vp > self._vp.value:
                self._vp.value = int(vp)

    def poll(self) -> float:
        """The least bound sent so far (inf before the first)."""
        with contextlib.suppress(EOFError, OSError):
            while self.result is None and self._receive.poll():
                self._take(self._receive.recv())
        return self.bound

    def finished(self) -> bool:
        """Whether the search has sent its result (it ended by itself: proven, exhausted or
        out of time)."""
        self.poll()
        return self.result is not None

    def finish(self, wait: float = 5.0) -> BranchResult | None:
        """Stop the search and return its result (None if the process gave none within
        ``wait`` seconds). The whole of ``wait`` holds for both steps: the result and the
        process's exit are waited for only while it lasts, then the process is terminated.
        What the process sent before (its bounds, the result) is read even when ``wait`` is 0."""
        if self._stop.is_set():
            return self.result
        self._stop.set()
        end = time.perf_counter() + max(float(wait), 0.0)

        def left() -> float:
            return max(end - time.perf_counter(), 0.0)

        with contextlib.suppress(EOFError, OSError):
            while self.result is None and self._receive.poll(left()):
                self._take(self._receive.recv())
        self.process.join(timeout=left())
        with ctrl_c_held():
            end_processes([self.process])
        self._receive.close()
        if self._error is not None:
            raise self._error
        return self.result

    def _take(self, message: tuple[str, Any]) -> None:
        kind, value = message
        if kind == "bound":
            self.bound = min(self.bound, float(value))
        elif kind == "error":
            self._error = value
        else:
            self.result = value
            self.bound = min(self.bound, value.bound)


def _run(year: tuple[Instance, BoundResult] | None, take: Connection | None, seconds: float,
         vp: Any, stop: Any, send: Connection) -> None:
    """The process's work: the search of ``year`` (or of the one sent down ``take``, then
    acknowledged), each fall of its bound and its result sent down ``send``."""
    # also when started off the main thread, where children_ignore_ctrl_c cannot; a fork starts
    # with SIGINT blocked (children_ignore_ctrl_c), which this unblocks once it is ignored
    ignore_ctrl_c()
    forget()  # a press the planner noted just before the fork is its own: its stop is `stop`
    started_by = multiprocessing.parent_process()
    ended = parent_ended(started_by.pid if started_by is not None and started_by.pid is not None
                         else os.getppid())

    def stopped() -> bool:  # asked to, or orphaned: a planner killed (SIGKILL, SIGTERM, OOM)
        return stop.is_set() or ended(0)  # cannot stop a daemonic child itself

    def tell(message: tuple[str, Any]) -> None:
        with contextlib.suppress(OSError):  # the planner is gone: nobody to tell
            send.send(message)

    if take is not None:
        try:
            with take:
                year = take.recv()
        except (EOFError, OSError):  # the planner ended before it sent the year
            return
        tell(("started", None))
    assert year is not None  # given, or sent
    instance, root = year
    try:
        result = branch_bound(instance, time_limit=seconds, root=root,
                              on_bound=lambda bound: tell(("bound", bound)),
                              incumbent=lambda: vp.value, stop=stopped)
    except Exception as error:  # noqa: BLE001 - raised again in the caller's process
        tell(("error", error))
    else:
        tell(("result", result))
    send.close()
