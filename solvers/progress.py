"""Progress lines for long runs: shown on a terminal, quiet when piped or under ``--json``.

>>> with progress(total=3, enabled=False) as bar:
...     bar.update(3)
>>> bar.disable
True
"""

from __future__ import annotations

import math
import os
from typing import Any

from tqdm.auto import tqdm

from lumicore.checks import check_bool
from lumicore.data import shorten
from lumicore.errors import LumicoreError
from solvers.console import error_stream

__all__ = ["progress", "on_terminal", "check_progress", "check_callback", "DELAY_VARIABLE"]

DELAY_VARIABLE = "LUMICORE_PROGRESS_DELAY"
"""An environment variable: seconds a run lasts before its progress line appears, for the
lines that wait (1 s by default: a quick answer shows none); 0 shows them at once."""


class _Bar(tqdm):
    """A tqdm bar without tqdm's monitor thread: a batch run forks its worker processes while a
    bar is shown, and a fork of a process with threads can deadlock the child (Python 3.12 on
    warns of it)."""

    monitor_interval = 0


def on_terminal() -> bool:
    """Whether standard error is a terminal (where a progress line helps and does not pollute);
    False when it is closed or missing (``2>&-``)."""
    stream = error_stream()
    try:
        return stream is not None and stream.isatty()
    except (OSError, ValueError):  # a stream without a descriptor, or closed
        return False


def progress(total: float | None = None, desc: str = "", unit: str = "it",
             enabled: bool | None = None, **kwargs: Any) -> tqdm:
    """A tqdm bar on standard error; ``enabled=None`` shows it only on a terminal. Set
    ``bar.set_postfix(...)`` for rates, bounds or running win rates. With standard error closed
    or missing (``2>&-``) no bar is shown, even with ``enabled=True``."""
    stream = error_stream()
    show = stream is not None and (on_terminal() if enabled is None else enabled)
    if "delay" in kwargs and os.environ.get(DELAY_VARIABLE):
        kwargs["delay"] = _delay(os.environ[DELAY_VARIABLE])
    return _Bar(total=total, desc=desc, unit=unit, disable=not show, file=stream,
                dynamic_ncols=True, leave=False, **kwargs)


def _delay(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 <= value < math.inf:
        raise LumicoreError(f"{DELAY_VARIABLE} must be a number of seconds, 0 or more, got "
                            f"{shorten(text)}")
    return value


def check_progress(progress: object, name: str = "progress") -> bool | None:
    """``progress`` if it is True, False or None (a progress line always, never, or on a
    terminal only), as the searches that draw their own line take it; else
    :class:`LumicoreError` naming ``name`` (a numpy bool is taken as the bool)."""
    return None if progress is None else check_bool(progress, name, "True, False or None")


def check_callback(progress: object, name: str = "progress") -> None:
    """:class:`LumicoreError` naming ``name`` unless ``progress`` is callable or None, as the
    searches that report to a caller's progress line take it."""
    if progress is not None and not callable(progress):
        raise LumicoreError(f"{name} must be callable or None, got {shorten(progress)}")
