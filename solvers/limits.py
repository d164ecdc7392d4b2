"""Search limits and the status words every search result uses.

>>> budget = Budget(max_nodes=2, time_limit=None)
>>> budget.spend(1), budget.spend(1), budget.spend(1)
(True, True, False)
>>> budget.nodes, budget.exhausted
(2, True)
"""

from __future__ import annotations

import math
import numbers
import time
from typing import Final

from lumicore.checks import check_time_limit
from lumicore.errors import SearchLimitError
from solvers.ctrl_c import check

__all__ = ["OPTIMAL", "UNSOLVABLE", "LIMIT", "FEASIBLE", "WINNABLE", "UNWINNABLE", "DONE",
           "INTERRUPTED",
           "REASON_NODES", "REASON_TIME", "REASON_MEMORY", "REASON_INTERRUPTED", "EXIT_ANSWER",
           "EXIT_NO_ANSWER", "EXIT_BAD_INPUT", "EXIT_WORKER_DIED", "EXIT_INTERRUPTED", "Budget",
           "check_limits", "exit_code"]

OPTIMAL: Final = "optimal"
"""The result is proven best (or, for a puzzle, proven shortest)."""
UNSOLVABLE: Final = "unsolvable"
"""The whole reachable space was exhausted without reaching the goal."""
LIMIT: Final = "limit"
"""A node or time limit stopped the search before it could prove anything."""
FEASIBLE: Final = "feasible"
"""A solution was found but not proven optimal (with a bound where the method gives one)."""
WINNABLE: Final = "winnable"
"""A deal (perfect information) has a winning order of plays; the plan shows one."""
UNWINNABLE: Final = "unwinnable"
"""No order of plays wins the deal: the whole game tree was refuted."""
DONE: Final = "done"
"""A sampled run (tournament, win rate, win odds) played every game it was asked for: an
estimate with its interval, never a proof."""
INTERRUPTED: Final = "interrupted"
"""The user stopped the search (Ctrl-C); the result holds what was found so far."""

REASON_NODES: Final = "nodes"
"""A result's ``reason`` (which limit stopped its search; None when none did) when the search
ran out of nodes (``max_nodes``)."""
REASON_TIME: Final = "time"
"""A result's ``reason`` when the search ran out of time (``time_limit``)."""
REASON_MEMORY: Final = "memory"
"""A result's ``reason`` when the search stopped before its tables outgrew its memory budget
(``max_memory``)."""
REASON_INTERRUPTED: Final = "interrupted"
"""A result's ``reason`` when the user stopped the search (Ctrl-C)."""

EXIT_ANSWER: Final = 0
"""CLI exit status when there is an answer (optimal, feasible, unsolvable, winnable, ...)."""
EXIT_NO_ANSWER: Final = 1
"""CLI exit status when a limit stopped a search with no answer."""
EXIT_BAD_INPUT: Final = 2
"""CLI exit status for bad input: a one-line error naming the bad argument, file or token (a
usage error prints argparse's usage lines before it)."""
EXIT_WORKER_DIED: Final = 3
"""CLI exit status when a worker process of a batch run died (killed by a signal, most likely
by the system for lack of memory: :class:`lumicore.errors.WorkerDiedError`)."""
EXIT_INTERRUPTED: Final = 130
"""CLI exit status when the user stopped the command (Ctrl-C); the best result so far is
printed."""
EXIT_BROKEN_PIPE: Final = 141
"""CLI exit status when the reader of the output went away (``lumicore ... | head``): what a
shell reports for a command stopped by SIGPIPE; nothing is printed."""


def exit_code(status: str, has_answer: bool) -> int:
    """The CLI exit status for a result: 130 if interrupted, 0 with an answer, else 1."""
    if status == INTERRUPTED:
        return EXIT_INTERRUPTED
    return EXIT_ANSWER if has_answer or status != LIMIT else EXIT_NO_ANSWER


def _whole(value: object) -> bool:
    if isinstance(value, numbers.Integral):
        return True
    return isinstance(value, numbers.Real) and math.isfinite(value) and math.trunc(value) == value


def check_limits(max_nodes: int | None, time_limit: float | None) -> None:
    """Raise :class:`SearchLimitError` for a non-positive or non-finite limit, or one that is
    not a number at all (``True`` is not a limit, though Python counts it as 1).

    >>> check_limits(None, "1")
    Traceback (most recent call last):
    ...
    lumicore.errors.SearchLimitError: time_limit must be a positive number of seconds, got '1'
    """
    if max_nodes is not None and (isinstance(max_nodes, bool) or not _whole(max_nodes)
                                  or max_nodes <= 0):
        raise SearchLimitError(f"max_nodes must be a positive integer, got {max_nodes!r:.80}")
    check_time_limit(time_limit)


class Budget:
    """Counts nodes against ``max_nodes`` and the clock against ``time_limit`` (seconds).

    ``spend(n)`` adds ``n`` nodes and returns False once a limit is passed: nodes past
    ``max_nodes`` are refused, not counted (``nodes`` never exceeds it), and once exhausted the
    budget counts nothing more. The clock is read only
    every ``check_every`` nodes so that hot loops do not pay for it; there, and in
    :meth:`out_of_time`, a Ctrl-C whose exception Python dropped is raised again
    (:func:`solvers.ctrl_c.check`).
    """

    __slots__ = ("max_nodes", "time_limit", "nodes", "start", "exhausted", "reason",
                 "_deadline", "_next_check", "check_every")

    def __init__(self, max_nodes: int | None, time_limit: float | None, check_every: int = 1024):
        check_limits(max_nodes, time_limit)
        self.max_nodes = max_nodes
        self.time_limit = time_limit
        self.nodes = 0
        self.start = time.perf_counter()
        self._deadline = None if time_limit is None else self.start + time_limit
        self.check_every = check_every
        self._next_check = check_every
        self.exhausted = False
        self.reason: str | None = None
        """Which limit exhausted the budget: :data:`REASON_NODES` or :data:`REASON_TIME`."""

    def spend(self, n: int = 1) -> bool:
        # nodes that do not fit are not counted: a result reports nodes <= max_nodes
        if self.exhausted:
            return False
        if self.max_nodes is not None and self.nodes + n > self.max_nodes:
            self._stop(REASON_NODES)
            return False
        self.nodes += n
        if self._deadline is not None and self.nodes >= self._next_check:
            self._next_check = self.nodes + self.check_every
            check()
            if time.perf_counter() > self._deadline:
                self._stop(REASON_TIME)
        return not self.exhausted

    def _stop(self, reason: str) -> None:
        self.exhausted, self.reason = True, reason

    def room(self, n: int) -> bool:
        """Whether ``n`` more nodes fit under ``max_nodes`` (for a search that must spend them
        all at once or none: the children of a split); False marks the budget exhausted."""
        if self.max_nodes is not None and self.nodes + n > self.max_nodes:
            self._stop(REASON_NODES)
        return not self.exhausted

    def out_of_time(self) -> bool:
        """Read the clock now (for loops that spend nodes in large batches)."""
        check()
        if self._deadline is not None and time.perf_counter() > self._deadline:
            self._stop(REASON_TIME)
        return self.exhausted

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.start
