"""Ctrl-C that a search never loses.

Python raises ``KeyboardInterrupt`` wherever the main thread is when its signal handler runs.
When that is a garbage-collection callback (hypothesis installs one) or a ``__del__`` method,
Python prints the exception and drops it, and a search would run on to its time limit. Within
:func:`noting`, the handler first records the press: :func:`pressed` reads the record and
:func:`check` raises ``KeyboardInterrupt`` again, so a search that reads either between its
steps stops at the next step even when the first exception was lost.

>>> with noting():
...     pressed()
False
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType

__all__ = ["noting", "pressed", "check", "forget", "listening", "watcher"]

_PRESSED = threading.Event()
_depth = 0
_local = threading.local()  # .own: how deep this thread (not the main one) is in noting()


@contextlib.contextmanager
def noting(raising: bool = True) -> Iterator[None]:
    """Within: a Ctrl-C is recorded, then the handler that was in place runs (``raising``;
    False: only recorded, for a caller that waits on a search running in another thread and
    reads :func:`pressed`). Where SIGINT is ignored or kills the process, nothing changes; off
    the main thread, the block is a search of that thread's own, which does not hear the main
    thread's presses (:func:`listening`). The record is cleared when the outermost
    ``noting()`` begins and ends.

    A press while the handler is switched leaves neither handler nor count behind: one as
    ``noting()`` begins is the block's (recorded, and raised from the ``with`` statement when
    ``raising``), one as it ends is the previous handler's, which runs once it is back."""
    global _depth
    if threading.current_thread() is not threading.main_thread():
        # a search of this thread's own: a press the main thread records is not its to hear
        _local.own = getattr(_local, "own", 0) + 1
        try:
            yield
        finally:
            _local.own -= 1
        return
    previous = signal.getsignal(signal.SIGINT)
    if not callable(previous):
        yield
        return
    closing = False
    late: list[FrameType | None] = []  # the frame of a press while closing

    def handler(signum: int, frame: FrameType | None) -> None:
        if closing:  # the previous handler's press: it runs once that handler is back
            late.append(frame)
            return
        _PRESSED.set()
        if raising:
            previous(signum, frame)

    # Python runs a handler between bytecodes (3.10: almost any two; from 3.11: at calls and
    # loops), so the order keeps the handler and the count consistent wherever one runs: the
    # count goes up just before the try, the handler is switched in within it, and its finally
    # undoes both.
    if _depth == 0:
        _PRESSED.clear()
    _depth += 1
    try:
        signal.signal(signal.SIGINT, handler)
        yield
    finally:
        # nested: should a press raise just as this finally begins (3.10 may run a handler
        # there, though never just before a ``try``), the inner finally still runs
        try:
            closing = True
        finally:
            _depth -= 1
            signal.signal(signal.SIGINT, previous)
            if _depth == 0:
                _PRESSED.clear()
            if late:
                previous(signal.SIGINT, late[0])


def pressed() -> bool:
    """Ctrl-C was pressed within the current :func:`noting`, and it concerns the calling
    thread (:func:`listening`)."""
    return listening() and _recorded()


def listening() -> bool:
    """Whether a Ctrl-C that the main thread's :func:`noting` records concerns the calling
    thread: it does in the main thread and in the threads its searches start (a solver's
    callbacks), not in a thread running a search of its own (one within its own
    :func:`noting`), which Ctrl-C does not stop: before, a press meant for the main thread's
    search stopped searches started in other threads too, as they read the same record."""
    return getattr(_local, "own", 0) == 0


def watcher() -> Callable[[], bool]:
    """:func:`pressed` as the calling thread hears it, to be read from threads it starts (a
    solver's callbacks, which are not within its :func:`noting`).

    >>> with noting():
    ...     watcher()()
    False
    """
    return _recorded if listening() else _never


def _recorded() -> bool:
    return _depth > 0 and _PRESSED.is_set()


def _never() -> bool:
    return False


def check() -> None:
    """Raise ``KeyboardInterrupt`` if Ctrl-C was pressed within the current :func:`noting`."""
    if pressed():
        raise KeyboardInterrupt


def forget() -> None:
    """Start afresh in a process forked from one within :func:`noting`: the press it recorded
    and its open ``noting()`` blocks are the parent's, not this process's (whose own stop comes
    from the parent)."""
    global _depth
    _depth = 0
    _PRESSED.clear()
