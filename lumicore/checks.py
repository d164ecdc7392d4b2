"""Checks of plain arguments that every game shares (the public layer validates; kernels trust).

>>> check_seed(7)
7
>>> check_seed(-1)
Traceback (most recent call last):
...
lumicore.errors.LumicoreError: seed must be an integer from 0 to 2**63 - 1, got '-1'

Saved data (a serialized game state) is checked field by field against a table of
:class:`Spec` rules with :func:`check_fields`; a bad field is a :class:`DataError` naming the
field's path and quoting the value as JSON:

>>> table = {"first": Int(0, 1, "a player index from 0 to 1"), "dice": Items(Int(1, 6), Int(1, 6)),
...          "todo": ListOf(Choice("bonus", "order"), high=3)}
>>> check_fields({"first": 1, "dice": [2, 5], "todo": ["order"]}, table, "saved game")
>>> check_fields({"first": -1, "dice": [2, 5], "todo": []}, table, "saved game")
Traceback (most recent call last):
...
lumicore.errors.DataError: saved game: field 'first' must be a player index from 0 to 1, got -1
>>> check_fields({"first": 0, "dice": [2, True], "todo": []}, table, "saved game")
Traceback (most recent call last):
...
lumicore.errors.DataError: saved game: field 'dice[1]' must be an integer from 1 to 6, got true
>>> check_fields({"first": 0, "dice": [2, 5]}, table, "saved game")
Traceback (most recent call last):
...
lumicore.errors.DataError: saved game: field 'todo' is missing
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from lumicore.data import shorten
from lumicore.errors import DataError, LumicoreError

__all__ = ["SEED_LIMIT", "check_seed", "Spec", "Int", "Choice", "Text", "Maybe", "ListOf",
           "Items", "Table", "MapOf", "Where", "BOOL", "read_json", "check_fields", "field_error",
           "Kind", "integer", "one_of", "list_of", "maybe", "BOOL_KIND", "TEXT", "load_fields",
           "show"]

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


# ------------------------------------------------------------------------------------------
# field-by-field checks of saved data

def _show(value: object) -> str:
    """``value`` as JSON text, cut to about 80 characters."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):  # not JSON, or an int beyond Python's digit limit
        return shorten(value)
    return text if len(text) <= 80 else text[:80] + "..."


def field_error(source: str, path: str, what: str, value: object) -> DataError:
    """The error for a bad field: ``source: field 'path' must be what, got value``."""
    return DataError(f"{source}: field {path!r} must be {what}, got {_show(value)}")


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


class Spec:
    """A rule for one field: :attr:`what` it must be (for the message) and :meth:`check`."""

    what = "valid"

    def ok(self, value: Any) -> bool:
        """Whether ``value`` itself has the right type and range (not its items)."""
        return True

    def check(self, value: Any, path: str, source: str) -> None:
        """Raise :func:`field_error` for ``value`` at ``path``, or for the first bad item."""
        if not self.ok(value):
            raise field_error(source, path, self.what, value)


class Int(Spec):
    """An integer (never a bool) from ``low`` to ``high`` (None: unbounded)."""

    def __init__(self, low: int | None = 0, high: int | None = None,
                 what: str | None = None) -> None:
        self.low, self.high = low, high
        if what is None:
            what = ("an integer" if low is None and high is None
                    else f"an integer >= {low}" if high is None
                    else f"an integer <= {high}" if low is None
                    else f"an integer from {low} to {high}")
        self.what = what

    def ok(self, value: Any) -> bool:
        return (type(value) is int and (self.low is None or value >= self.low)
                and (self.high is None or value <= self.high))


class Choice(Spec):
    """One of the given JSON scalars (text, integers, true / false, null), type included: the
    choice ``1`` does not take ``true``."""

    def __init__(self, *options: object, what: str | None = None) -> None:
        self.options = frozenset((type(o), o) for o in options)
        self.what = what or "one of " + ", ".join(json.dumps(o) for o in options)

    def ok(self, value: Any) -> bool:
        return isinstance(value, (str, int, float, type(None))) \
            and (type(value), value) in self.options


BOOL = Choice(True, False, what="true or false")


class Text(Spec):
    """Any text of at most ``limit`` characters."""

    def __init__(self, what: str = "text", limit: int = 10_000) -> None:
        self.what, self.limit = what, limit

    def ok(self, value: Any) -> bool:
        return isinstance(value, str) and len(value) <= self.limit


class Maybe(Spec):
    """``null`` or a value of ``spec``."""

    def __init__(self, spec: Spec) -> None:
        self.spec, self.what = spec, f"null or {spec.what}"

    def check(self, value: Any, path: str, source: str) -> None:
        if value is not None:
            if not self.spec.ok(value):
                raise field_error(source, path, self.what, value)
            self.spec.check(value, path, source)


class ListOf(Spec):
    """A list of ``low`` to ``high`` items (exactly ``length`` when given), each of ``item``;
    ``unique``: no item twice."""

    def __init__(self, item: Spec, length: int | None = None, low: int = 0,
                 high: int | None = None, unique: bool = False, what: str | None = None) -> None:
        self.item, self.unique = item, unique
        self.low, self.high = (length, length) if length is not None else (low, high)
        size = (f"{length} " if length is not None
                else f"{low} to {high} " if high is not None and low
                else f"at most {high} " if high is not None else "")
        self.what = what or f"a list of {size}items{' (none twice)' if unique else ''}"

    def ok(self, value: Any) -> bool:
        return isinstance(value, list) and self.low <= len(value) \
            and (self.high is None or len(value) <= self.high)

    def check(self, value: Any, path: str, source: str) -> None:
        super().check(value, path, source)
        for i, item in enumerate(value):
            self.item.check(item, f"{path}[{i}]", source)
        if self.unique and len({json.dumps(v) for v in value}) != len(value):
            raise field_error(source, path, self.what, value)


class Items(Spec):
    """A list of fixed length whose item ``i`` follows ``specs[i]``."""

    def __init__(self, *specs: Spec, what: str | None = None) -> None:
        self.specs = specs
        self.what = what or f"a list of {len(specs)} items"

    def ok(self, value: Any) -> bool:
        return isinstance(value, list) and len(value) == len(self.specs)

    def check(self, value: Any, path: str, source: str) -> None:
        super().check(value, path, source)
        for i, (spec, item) in enumerate(zip(self.specs, value, strict=True)):
            spec.check(item, f"{path}[{i}]", source)


class Table(Spec):
    """An object with exactly the keys of ``fields``, each value following its spec (a missing
    or an unknown key is named)."""

    def __init__(self, fields: Mapping[str, Spec], what: str = "an object") -> None:
        self.fields, self.what = dict(fields), what

    def ok(self, value: Any) -> bool:
        return isinstance(value, dict)

    def check(self, value: Any, path: str, source: str) -> None:
        super().check(value, path, source)
        for key, spec in self.fields.items():
            if key not in value:
                raise DataError(f"{source}: field {_join(path, key)!r} is missing")
            spec.check(value[key], _join(path, key), source)
        for key in value:
            if key not in self.fields:
                raise DataError(f"{source}: unknown field {_join(path, str(key)[:80])!r}")


class MapOf(Spec):
    """An object whose keys follow ``keys`` (a spec of text) and values ``values``."""

    def __init__(self, keys: Spec, values: Spec, what: str | None = None) -> None:
        self.keys, self.values = keys, values
        self.what = what or f"an object whose keys are {keys.what}"

    def ok(self, value: Any) -> bool:
        return isinstance(value, dict) and all(self.keys.ok(k) for k in value)

    def check(self, value: Any, path: str, source: str) -> None:
        super().check(value, path, source)
        for key, item in value.items():
            self.values.check(item, _join(path, key), source)


class Where(Spec):
    """A value of ``spec`` for which ``test(value)`` holds too (a rule across its items)."""

    def __init__(self, spec: Spec, test: Callable[[Any], bool], what: str) -> None:
        self.spec, self.test, self.what = spec, test, what

    def check(self, value: Any, path: str, source: str) -> None:
        self.spec.check(value, path, source)
        if not self.test(value):
            raise field_error(source, path, self.what, value)


def read_json(text: object, source: str) -> Any:
    """The JSON value of ``text``; a :class:`DataError` naming ``source`` for anything that is
    not JSON text (nesting too deep for the parser included).

    >>> read_json("[" * 100_000, "saved game")
    Traceback (most recent call last):
    ...
    lumicore.errors.DataError: saved game: not JSON (nested too deeply)
    """
    if not isinstance(text, (str, bytes, bytearray)):
        raise DataError(f"{source}: expected JSON text, got {shorten(text)}")
    try:
        return json.loads(text)
    except RecursionError:
        raise DataError(f"{source}: not JSON (nested too deeply)") from None
    except ValueError as exc:
        raise DataError(f"{source}: not JSON ({str(exc)[:80]})") from None


def check_fields(data: object, fields: Mapping[str, Spec], source: str,
                 exact: bool = True) -> None:
    """Check the object ``data`` against the table ``fields`` (field name -> :class:`Spec`);
    ``exact``: a key not in the table is an error too. Raises a :class:`DataError` naming
    ``source`` and the first bad field."""
    if not isinstance(data, dict):
        raise DataError(f"{source}: expected a JSON object, got {_show(data)}")
    Table(fields if exact else {**{k: Spec() for k in data}, **fields}).check(data, "", source)


# ------------------------------------------------------------------------------------------
# the reef's loaders (Kind / load_fields), until they move onto check_fields

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


BOOL_KIND = Kind("true or false", lambda v: isinstance(v, bool))
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
