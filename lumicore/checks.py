"""Checks of plain arguments that every game shares (the public layer validates; kernels trust).

>>> check_seed(7)
7
>>> check_seed(-1)
Traceback (most recent call last):
...
lumicore.errors.LumicoreError: seed must be an integer from 0 to 2**63 - 1, got '-1'
"""

from __future__ import annotations

import numpy as np

from lumicore.data import shorten
from lumicore.errors import LumicoreError

__all__ = ["SEED_LIMIT", "check_seed"]

SEED_LIMIT = 2**63
"""Seeds are integers in ``0 .. SEED_LIMIT - 1`` (they fit a signed 64-bit integer)."""


def check_seed(seed: object, limit: int = SEED_LIMIT, name: str = "seed") -> int:
    """``seed`` as an int if it is an integer in ``0 .. limit - 1`` (bool is no integer here);
    else :class:`LumicoreError` naming ``name`` and quoting the value."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) \
            or not 0 <= int(seed) < limit:
        bound = "2**63 - 1" if limit == SEED_LIMIT else str(limit - 1)
        raise LumicoreError(f"{name} must be an integer from 0 to {bound}, got {shorten(seed)}")
    return int(seed)
