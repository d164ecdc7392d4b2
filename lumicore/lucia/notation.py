"""The Lucia train notation and the nibble codes of the packed form (docs/lucia.md).

One token per kid, front first, whitespace ignored: ``L0``..``L5`` Lucia with that many candles,
``H`` lit handmaiden, ``h`` unlit handmaiden, ``T`` Tomten, ``S`` Starboy, ``G`` Gingerbread.

>>> codes = parse_codes("S h G  L3")
>>> codes
(3, 0, 4, 8)
>>> format_codes(codes)
'S h G L3'
>>> parse_codes("ShL9")
Traceback (most recent call last):
...
lumicore.errors.NotationError: bad token 'L9' at character 2 (kid 2): Lucia takes 0..5 candles
"""

from __future__ import annotations

from typing import Final

import numpy as np

from lumicore.data import shorten
from lumicore.errors import LumicoreError, NotationError

__all__ = [
    "H_UNLIT", "H_LIT", "TOMTEN", "STARBOY", "GINGER", "LUCIA0", "LUCIA5", "EMPTY", "MAX_KIDS",
    "MAX_CANDLES", "ROLES", "TOKENS", "role_of", "is_lucia", "candles_of", "parse_codes",
    "format_codes", "pack", "unpack",
]

H_UNLIT: Final = 0
"""Nibble code of an unlit Handmaiden (token ``h``)."""
H_LIT: Final = 1
"""Nibble code of a lit Handmaiden (token ``H``)."""
TOMTEN: Final = 2
"""Nibble code of a Tomten (token ``T``)."""
STARBOY: Final = 3
"""Nibble code of a Starboy (token ``S``)."""
GINGER: Final = 4
"""Nibble code of a Gingerbread (token ``G``)."""
LUCIA0: Final = 5
"""Nibble code of Lucia with no candle (token ``L0``); with ``c`` candles she is
``LUCIA0 + c``."""
LUCIA5: Final = 10
"""Nibble code of Lucia with all five candles (token ``L5``)."""
EMPTY: Final = 15
"""Nibble of an empty position (behind the last kid of a train shorter than 16)."""
MAX_KIDS: Final = 16
"""The longest train: 16 kids (a packed train is one 64-bit word of 4-bit codes)."""
MAX_CANDLES: Final = 5
"""The candles Lucia carries when all are lit; the goal needs all of them."""

ROLES: Final = "LHTSG"
"""Role letters: Lucia, Handmaiden, Tomten, Starboy, Gingerbread."""

TOKENS: Final = ("h", "H", "T", "S", "G", "L0", "L1", "L2", "L3", "L4", "L5")
"""``TOKENS[code]`` is the notation of a nibble code."""

_CODE_OF: Final = {token: code for code, token in enumerate(TOKENS)}


def _bad(name: str, value: object, what: str = "a kid's code from 0 to 10") -> LumicoreError:
    """The error for a bad ``value`` of argument ``name``. The helpers here check only when
    Python fails on the value: the trains' rules call them for every kid."""
    return LumicoreError(f"{name} must be {what}, got {shorten(value)}")


def role_of(code: int) -> str:
    """The role letter of a nibble code (``h`` and ``H`` are both ``'H'``)."""
    try:
        return "L" if code >= LUCIA0 else "HHTSG"[code]
    except (TypeError, IndexError):
        raise _bad("code", code) from None


def is_lucia(code: int) -> bool:
    """Whether a kid's code is Lucia's (any candle count)."""
    try:
        return LUCIA0 <= code <= LUCIA5
    except TypeError:
        raise _bad("code", code) from None


def candles_of(code: int) -> int:
    """Lucia's candle count from her code."""
    try:
        return code - LUCIA0
    except TypeError:
        raise _bad("code", code) from None


def parse_codes(text: str) -> tuple[int, ...]:
    """Tokenize a train into nibble codes; a bad token raises :class:`NotationError` naming it."""
    if not isinstance(text, str):
        raise NotationError(f"a train is written as text, got {type(text).__name__}")
    codes: list[int] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        if ch == "L":
            token = text[i:i + 2]
            if token not in _CODE_OF:
                raise NotationError(f"bad token {token!r} at character {i} (kid {len(codes)}): "
                                    "Lucia takes 0..5 candles")
            i += 2
        elif ch in _CODE_OF:
            token = ch
            i += 1
        else:
            raise NotationError(f"bad token {ch!r} at character {i} (kid {len(codes)}): "
                                "expected one of L0..L5, H, h, T, S, G")
        codes.append(_CODE_OF[token])
    return tuple(codes)


def format_codes(codes: tuple[int, ...]) -> str:
    """The notation of a train given as kid codes (what :meth:`Train.__str__` prints)."""
    try:
        return " ".join(TOKENS[c] for c in codes)
    except (TypeError, IndexError):
        raise _bad("codes", codes, "a sequence of kids' codes from 0 to 10") from None


def pack(codes: tuple[int, ...]) -> int:
    """4 bits per kid, position 0 in the lowest nibble, empty positions 15."""
    value = 0
    try:
        for pos in range(MAX_KIDS):
            value |= (codes[pos] if pos < len(codes) else EMPTY) << (4 * pos)
    except (TypeError, IndexError, KeyError):
        raise _bad("codes", codes, "a sequence of kids' codes from 0 to 10") from None
    return value


def unpack(packed: int) -> tuple[int, ...]:
    """Nibble codes up to the first empty position (validated by ``Train.from_packed``)."""
    codes = []
    if not isinstance(packed, (int, np.integer)):  # bool is an int: a train of one kid
        raise _bad("packed", packed, "a packed train (an integer)")
    for pos in range(MAX_KIDS):
        code = (packed >> (4 * pos)) & 0xF
        if code == EMPTY:
            break
        codes.append(code)
    return tuple(codes)
