"""The door to the Cython kernel ``lumicore._ext.lumen``: a sheet's legal bubbles and chain
gains on 64-bit masks, and the map's strength sums, with every argument checked before it
reaches C. The answers are those of :mod:`lumicore.lumen.reference`, which states the rules
plainly (the tests compare the two on random sheets and maps).

>>> from lumicore.lumen.sheet import Sheet
>>> sheet = Sheet.parse("4 . / . 4")
>>> legal_cells(sheet), gains(sheet, 1, 4)
([1, 2], (3, 0))
>>> table, cells = gains_all(sheet, [4, 5])
>>> cells.tolist(), table[0].tolist()
([1, 2], [[3, 0], [0, 3]])
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from lumicore._ext import lumen as _k
from lumicore.errors import LumicoreError
from lumicore.lumen.dice import MAX_VALUE
from lumicore.lumen.sheet import Layout, Sheet

__all__ = ["legal_cells", "gains", "gains_all", "strength_sums", "strength_table"]


@lru_cache(maxsize=64)
def _masks(layout: Layout) -> np.ndarray:
    return np.array(layout.masks, dtype=np.uint64)


def _sheet(sheet: object) -> tuple[bytes, np.ndarray]:
    if not isinstance(sheet, Sheet):
        raise LumicoreError(f"expected a lumicore.lumen.Sheet, got {type(sheet).__name__}")
    return sheet.packed(), _masks(sheet.layout)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def legal_cells(sheet: Sheet) -> list[int]:
    """Indices of the bubbles of ``sheet`` a value may be written in (ascending)."""
    vals, nbr = _sheet(sheet)
    return _bits(_k.legal_mask(vals, nbr))


def _value(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
            or not 0 <= value <= MAX_VALUE:
        raise LumicoreError(f"value {value!r} is not a selection value 0..{MAX_VALUE}")
    return int(value)


def gains(sheet: Sheet, cell: int, value: int) -> tuple[int, int]:
    """``(identical, sequence)`` gains of writing ``value`` in the empty bubble index ``cell``
    (the legality of ``cell`` is not checked: :meth:`Sheet.gains` does that)."""
    vals, nbr = _sheet(sheet)
    if isinstance(cell, bool) or not isinstance(cell, (int, np.integer)) \
            or not 0 <= cell < len(vals) or vals[cell] != 255:
        raise LumicoreError(f"bubble index {cell!r} is not an empty bubble")
    return _k.gains(vals, nbr, int(cell), _value(value))


def gains_all(sheet: Sheet, values: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """The gains of every value of ``values`` in every legal bubble: an int32 array
    ``(bubbles, values, 2)`` (identical, sequence) and the legal bubble indices."""
    vals, nbr = _sheet(sheet)
    arr = np.array([_value(v) for v in values], dtype=np.int32)
    return _k.gains_all(vals, nbr, arr)


def strength_table(strengths: Sequence[int]) -> np.ndarray:
    """Strengths as the kernel's int32 array (checked: non-negative, below 2**31)."""
    arr = np.asarray(strengths)
    if arr.ndim != 1 or arr.dtype.kind not in "iu" or (arr.size and not
                                                      (0 <= arr.min() and arr.max() < 2**31)):
        raise LumicoreError("strengths must be a list of non-negative integers")
    return np.ascontiguousarray(arr, dtype=np.int32)


def strength_sums(units: Sequence[Sequence[Sequence[int]]] | np.ndarray,
                  strengths: Sequence[int] | np.ndarray) -> list[list[int]]:
    """``result[t][p]``: player ``p``'s strength in territory ``t`` (``units[t][p][c]`` counts
    of each side of each kind, ``strengths[c]`` their strength)."""
    arr = np.asarray(units)
    if arr.ndim != 3 or arr.dtype.kind not in "iu" or (arr.size and arr.min() < 0) \
            or (arr.size and arr.max() >= 2**31):
        raise LumicoreError("units must be counts units[territory][player][kind side] >= 0")
    table = strength_table(strengths)
    if len(table) != arr.shape[2]:
        raise LumicoreError(f"{len(table)} strengths for {arr.shape[2]} unit counts")
    return _k.strength_sums(np.ascontiguousarray(arr, dtype=np.int32), table).tolist()
