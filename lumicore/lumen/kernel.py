"""The door to the Cython kernel ``lumicore._ext.lumen`` (sheet gains and legal bubbles on
bitmasks, the map's strength sums), with every argument checked before it reaches C.

The same answers as :mod:`lumicore.lumen.reference`, which states the rules plainly; when the
extension is not built, the functions fall back to it (``KERNEL`` is then False).

>>> from lumicore.lumen.sheet import Sheet
>>> sheet = Sheet.parse("4 . / . 4")
>>> legal_cells(sheet), gains(sheet, 1, 4)
([1, 2], (3, 0))
"""

from __future__ import annotations

from collections.abc import Sequence

from lumicore.lumen import reference
from lumicore.lumen.sheet import Sheet

try:
    from lumicore._ext import lumen as _k
except ImportError:  # pragma: no cover - an install without the compiled core
    _k = None

__all__ = ["KERNEL", "legal_cells", "gains", "strength_sums"]

KERNEL = _k is not None
"""Whether the compiled kernel is in use."""


def legal_cells(sheet: Sheet) -> list[int]:
    """Indices of the bubbles of ``sheet`` a value may be written in."""
    return reference.legal_cells(sheet.values, sheet.layout.neighbors)


def gains(sheet: Sheet, cell: int, value: int) -> tuple[int, int]:
    """``(identical, sequence)`` gains of writing ``value`` in bubble index ``cell``."""
    return reference.gains(sheet.values, sheet.layout.neighbors, cell, value)


def strength_sums(units: Sequence[Sequence[Sequence[int]]],
                  strengths: Sequence[int]) -> list[list[int]]:
    """``result[t][p]``: player ``p``'s strength in territory ``t``."""
    return reference.strength_sums(units, strengths)
