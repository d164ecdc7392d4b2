"""Standard error as the ``lumicore`` command writes to it: warnings, errors, notes and progress
lines. A closed or missing standard error (``lumicore ... 2>&-``, where Python sets
``sys.stderr`` to None, or ``pythonw``) drops them: they never go to standard output, where
``print(file=None)`` would put them among the results that scripts read.

>>> import io, sys
>>> saved, sys.stderr = sys.stderr, None
>>> say("lumicore: warning: dropped")  # nothing is printed, on stdout either
>>> error_stream() is None
True
>>> sys.stderr = io.StringIO()
>>> say("lumicore: note")
>>> sys.stderr.getvalue()
'lumicore: note\\n'
>>> sys.stderr = saved
"""

from __future__ import annotations

import sys
from typing import TextIO

from lumicore.data import shorten
from lumicore.errors import LumicoreError

__all__ = ["error_stream", "say"]


def error_stream() -> TextIO | None:
    """``sys.stderr`` if it can be written to; None if it is missing or closed."""
    stream = sys.stderr
    if stream is None or getattr(stream, "closed", False):
        return None
    return stream


def say(line: str, end: str = "\n") -> None:
    """Print ``line`` (then ``end``) on standard error; drop it if standard error is missing,
    closed or cannot take it (its reader has gone): a message must not cost the command its
    result."""
    if not isinstance(end, str):
        raise LumicoreError(f"end must be a string, got {shorten(end)}")
    stream = error_stream()
    if stream is None:
        return
    try:
        print(line, file=stream, end=end, flush=True)
    except (OSError, ValueError):  # a broken pipe; a stream closed under us
        pass
