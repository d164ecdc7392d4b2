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
from collections.abc import Iterator

__all__ = ["noting", "pressed", "check", "forget"]

_PRESSED = threading.Event()
_depth = 0


@contextlib.contextmanager
def noting(raising: bool = True) -> Iterator[None]:
    """Within: a Ctrl-C is recorded, then the handler that was in place runs (``raising``;
    False: only recorded, for a caller that waits on a search running in another thread and
    reads :func:`pressed`). Off the main thread, or where SIGINT is ignored or kills the
    process, nothing changes. The record is cleared when the outermost ``noting()`` begins
    and ends."""
    global _depth
    previous = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or not callable(previous):
        yield
        return

    def handler(signum: int, frame: object) -> None:
        _PRESSED.set()
        if raising:
            previous(signum, frame)

    if _depth == 0:
        _PRESSED.clear()
    signal.signal(signal.SIGINT, handler)
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        signal.signal(signal.SIGINT, previous)
        if _depth == 0:
            _PRESSED.clear()


def pressed() -> bool:
    """Ctrl-C was pressed within the current :func:`noting`."""
    return _depth > 0 and _PRESSED.is_set()


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
