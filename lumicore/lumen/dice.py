"""Two six-sided dice and the five selections a player may take from them.

>>> selections(2, 5)
{'low': 2, 'high': 5, 'sum': 7, 'product': 10, 'difference': 3}
>>> len(ROLLS), round(sum(p for _, p in ROLLS), 12)
(21, 1.0)
"""

from __future__ import annotations

from lumicore.checks import is_integer
from lumicore.data import shorten
from lumicore.errors import LumicoreError

__all__ = ["SELECTIONS", "ROLLS", "MAX_VALUE", "selections", "selection_value", "check_selection",
           "check_die"]

SELECTIONS: tuple[str, ...] = ("low", "high", "sum", "product", "difference")
"""The five selections, in the order of the player board."""
MAX_VALUE = 36
"""The largest value a selection can give (6 x 6); the smallest is 0 (a difference of doubles)."""
ROLLS: tuple[tuple[tuple[int, int], float], ...] = tuple(
    ((a, b), (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(a, 7)
)
"""The 21 distinct rolls of two dice ``(low, high)`` with their probabilities."""


def check_die(d: object) -> int:
    """``d`` as a die face 1..6, else :class:`LumicoreError` naming it."""
    if not is_integer(d) or not 1 <= d <= 6:
        raise LumicoreError(f"die {shorten(d)} is not a face 1..6")
    return int(d)


def check_selection(name: object) -> str:
    """``name`` if it is one of :data:`SELECTIONS`, else :class:`LumicoreError` naming it.

    >>> check_selection("sum")
    'sum'
    """
    if not isinstance(name, str) or name not in SELECTIONS:
        raise LumicoreError(f"unknown selection {str(name)[:80]!r} "
                            f"(known: {', '.join(SELECTIONS)})")
    return name


def selections(d1: int, d2: int) -> dict[str, int]:
    """The value of every selection for the dice ``d1`` and ``d2`` (any order)."""
    a, b = sorted((check_die(d1), check_die(d2)))
    return {"low": a, "high": b, "sum": a + b, "product": a * b, "difference": b - a}


def selection_value(name: str, d1: int, d2: int) -> int:
    """The value of the selection ``name`` for the dice ``d1`` and ``d2``.

    >>> selection_value("difference", 6, 1)
    5
    """
    return selections(d1, d2)[check_selection(name)]
