"""Checks of plain arguments that every game shares (the public layer validates; kernels trust).

>>> check_seed(7)
7
>>> check_seed(-1)
Traceback (most recent call last):
...
lumicore.errors.LumicoreError: seed must be an integer from 0 to 2**63 - 1, got '-1'

Loaders of saved states describe each JSON field by a :class:`Kind` and read them all with
:func:`load_fields`, which names the field and the value it refuses:

>>> load_fields({"round": "x"}, {"round": integer(1, 10)}, "saved game")
Traceback (most recent call last):
...
lumicore.errors.DataError: saved game: field 'round' must be an int from 1 to 10, got 'x'
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np

from lumicore.data import shorten
from lumicore.errors import DataError, LumicoreError

__all__ = ["SEED_LIMIT", "check_seed", "Kind", "integer", "one_of", "list_of", "maybe", "BOOL",
           "TEXT", "load_fields", "show"]

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


def _any(value: object) -> bool:
    return True


def _same(value: object) -> object:
    return value


@dataclass(frozen=True)
class Kind:
    """What a field of saved data must be: ``what`` (for messages: "an int from 1 to 10"), a
    ``test`` of the JSON value and a ``load`` that turns it into the object the state holds
    (it may raise :class:`ValueError`, :class:`LumicoreError` among them, with the reason)."""

    what: str
    test: Callable[[Any], bool] = _any
    load: Callable[[Any], Any] = _same

    def read(self, value: object) -> Any:
        """``value`` loaded; ValueError if it is not of this kind."""
        if not self.test(value):
            raise ValueError("")
        return self.load(value)


def integer(low: int | None = None, high: int | None = None) -> Kind:
    """An int (not a bool) in ``low..high`` (either bound may be open).

    >>> integer(0).what, integer(0).test(True), integer(-1, 3).test(4)
    ('an int >= 0', False, False)
    """
    what = ("an int" if low is None and high is None else f"an int >= {low}" if high is None
            else f"an int <= {high}" if low is None else f"an int from {low} to {high}")
    return Kind(what, lambda v: isinstance(v, int) and not isinstance(v, bool)
                and (low is None or v >= low) and (high is None or v <= high))


def one_of(*values: Hashable) -> Kind:
    """One of ``values`` and of its type (``True`` is not ``1``).

    >>> one_of(0, 6).test(False), one_of("A", "B").what
    (False, "one of 'A', 'B'")
    """
    return Kind(f"one of {', '.join(map(repr, values))}",
                lambda v: any(type(v) is type(x) and v == x for x in values))


def list_of(item: Kind, length: int | None = None, most: int | None = None,
            distinct: bool = False) -> Kind:
    """A list of ``item`` (loaded one by one): exactly ``length`` or at most ``most`` of them,
    ``distinct`` if no item may repeat.

    >>> list_of(integer(0), length=2).read([1, 2])
    [1, 2]
    >>> list_of(integer(0), most=3, distinct=True).what
    'a list of at most 3 distinct items, each an int >= 0'
    """
    size = (f"{length} " if length is not None else f"at most {most} " if most is not None
            else "")
    what = f"a list of {size}{'distinct ' if distinct else ''}items, each {item.what}"

    def load(values: list) -> list:
        out = [item.read(v) for v in values]
        if distinct and len(set(out)) != len(out):
            raise ValueError("an item repeats")
        return out

    return Kind(what, lambda v: isinstance(v, list) and (length is None or len(v) == length)
                and (most is None or len(v) <= most), load)


def maybe(kind: Kind) -> Kind:
    """``null`` (None) or ``kind``."""
    return Kind(f"null or {kind.what}", load=lambda v: None if v is None else kind.read(v))


BOOL = Kind("true or false", lambda v: isinstance(v, bool))
TEXT = Kind("a string", lambda v: isinstance(v, str))


def show(value: object, limit: int = 80) -> str:
    """``repr`` of a loaded value cut to about ``limit`` characters (``'3'`` is text, ``3`` a
    number), for error messages.

    >>> show("3"), show(3), show(True), show(list(range(100)))[-8:]
    ("'3'", '3', 'True', '21, 2...')
    """
    try:
        text = repr(value)
    except ValueError:  # an int beyond Python's digit limit
        return shorten(value, limit)
    return text if len(text) <= limit else text[:limit] + "..."


def load_fields(data: object, kinds: dict[str, Kind], what: str,
                exact: bool = True) -> dict[str, Any]:
    """The fields ``kinds`` names, each read by its :class:`Kind`, from the JSON object ``data``
    (``exact``: no other field allowed). A missing, unknown or bad field is a
    :class:`DataError` that starts with ``what`` and names the field and its value."""
    if not isinstance(data, dict):
        raise DataError(f"{what}: expected a JSON object, got {show(data)}")
    missing = [name for name in kinds if name not in data]
    unknown = [name for name in data if name not in kinds] if exact else []
    if missing or unknown:
        raise DataError(f"{what}: " + "; ".join(
            [f"missing field {shorten(name)}" for name in missing[:3]]
            + [f"unknown field {shorten(name)}" for name in unknown[:3]]))
    out = {}
    for name, kind in kinds.items():
        try:
            out[name] = kind.read(data[name])
        except ValueError as exc:
            reason = f": {str(exc)[:120]}" if str(exc) else ""
            raise DataError(f"{what}: field {name!r} must be {kind.what}, got "
                            f"{show(data[name])}{reason}") from None
    return out
