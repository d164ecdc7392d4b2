"""Arrays kept from one evaluation of the bound to the next.

The program of the cards held (:mod:`solvers.lemuria.bound`) writes two arrays of a few
hundred kilobytes per deck item and keeps them for the walk that follows. Fresh arrays of that
size come from the operating system page by page, and those page faults cost more than the
kernel's work on them (docs/lemuria.md, "The upper bound"); so an evaluation takes its arrays
from a :class:`Scratch` and gives them back when its walk is over.

>>> scratch = Scratch()
>>> with scratch.lease():
...     a = scratch.take((2, 3))
>>> with scratch.lease():
...     b = scratch.take((3, 2))
>>> a.base is b.base  # the same memory, reused
True
"""

from __future__ import annotations

import contextlib
import math
import threading
from collections.abc import Iterator

import numpy as np

__all__ = ["Scratch"]


class Scratch(threading.local):
    """A pool of float64 arrays, one per thread. :meth:`take` inside a :meth:`lease` hands out
    an array that stays the caller's until the lease ends; outside a lease it is a fresh one.
    When a lease ends, the pool keeps the arrays of the sizes it handed out and drops the
    others, so it holds at most what one evaluation used at once."""

    def __init__(self) -> None:
        self._free: dict[int, list[np.ndarray]] = {}
        self._taken: dict[int, list[np.ndarray]] | None = None

    def __reduce__(self) -> tuple:
        return (Scratch, ())  # a copy in another process starts empty

    @contextlib.contextmanager
    def lease(self) -> Iterator[None]:
        """Every array taken inside is the caller's until the end of the block (a lease
        inside another is part of it)."""
        if self._taken is not None:
            yield
            return
        self._taken = {}
        try:
            yield
        finally:
            taken, self._taken = self._taken, None
            for size, arrays in taken.items():
                arrays.extend(self._free.get(size, ()))
            self._free = taken

    def take(self, shape: tuple[int, ...]) -> np.ndarray:
        """An uninitialised float64 array of ``shape``."""
        if self._taken is None:
            return np.empty(shape)
        size = math.prod(shape)
        free = self._free.get(size)
        flat = free.pop() if free else np.empty(size)
        self._taken.setdefault(size, []).append(flat)
        return flat.reshape(shape)
