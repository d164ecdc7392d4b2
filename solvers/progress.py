"""Progress lines for long runs: shown on a terminal, quiet when piped or under ``--json``.

>>> with progress(total=3, enabled=False) as bar:
...     bar.update(3)
>>> bar.disable
True
"""

from __future__ import annotations

import sys
from typing import Any

from tqdm.auto import tqdm

__all__ = ["progress", "on_terminal"]


def on_terminal() -> bool:
    """Whether standard error is a terminal (where a progress line helps and does not pollute)."""
    return sys.stderr.isatty()


def progress(total: int | None = None, desc: str = "", unit: str = "it",
             enabled: bool | None = None, **kwargs: Any) -> tqdm:
    """A tqdm bar on standard error; ``enabled=None`` shows it only on a terminal. Set
    ``bar.set_postfix(...)`` for rates, bounds or running win rates."""
    show = on_terminal() if enabled is None else enabled
    return tqdm(total=total, desc=desc, unit=unit, disable=not show, file=sys.stderr,
                dynamic_ncols=True, leave=False, **kwargs)
