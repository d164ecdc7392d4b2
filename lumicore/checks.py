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
{'first': 1, 'dice': [2, 5], 'todo': ['order']}
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
import math
import numbers
import os
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeGuard, TypeVar, overload

import numpy as np

from lumicore.data import read_file, shorten
from lumicore.errors import DataError, LumicoreError, SearchLimitError

__all__ = ["SEED_LIMIT", "check_seed", "is_integer", "check_int", "check_bool", "check_players",
           "check_index", "check_real", "check_finite", "check_array", "check_time_limit",
           "check_type", "parse_int", "parse_real",
           "Spec", "Int", "Choice", "Text", "Maybe", "ListOf",
           "Items", "Table", "MapOf", "Where", "Load", "BOOL", "read_json", "read_record",
           "check_fields", "field_error", "check_known_keys", "read_key"]

SEED_LIMIT = 2**63
"""Seeds are integers in ``0 .. SEED_LIMIT - 1`` (they fit a signed 64-bit integer)."""


def check_seed(seed: object, limit: int = SEED_LIMIT, name: str = "seed") -> int:
    """``seed`` as an int if it is an integer in ``0 .. limit - 1`` (bool is no integer here);
    else :class:`LumicoreError` naming ``name`` and quoting the value."""
    return check_index(seed, limit, name)


def is_integer(value: object) -> TypeGuard[int | np.integer]:
    """Whether ``value`` is a Python or numpy integer (a bool is none here).

    >>> is_integer(np.int64(2)), is_integer(2.0), is_integer(True)
    (True, False, False)
    """
    return not isinstance(value, bool) and isinstance(value, (int, np.integer))


def check_int(value: object, name: str, low: int | None = None, high: int | None = None,
              what: str | None = None, error: type[LumicoreError] = LumicoreError) -> int:
    """``value`` as an int if it is an integer (numpy's too, a bool none) from ``low`` to
    ``high`` (None: unbounded); else ``error``: "``name`` must be ``what``" (by default "an
    integer from LOW to HIGH", ">= LOW" or "<= HIGH"), quoting the value.

    >>> check_int(np.int64(4), "depth", 0, 10)
    4
    >>> check_int(2.0, "depth", 0, 10)
    Traceback (most recent call last):
    ...
    lumicore.errors.LumicoreError: depth must be an integer from 0 to 10, got '2.0'
    """
    try:
        if is_integer(value) and (low is None or int(value) >= low) \
                and (high is None or int(value) <= high):
            return int(value)
    except TypeError:
        pass
    _check_bounds(low=low, high=high)  # a caller's bounds, checked only when the value fails
    if what is None:
        what = Int(low, high).what
    raise error(f"{name} must be {what}, got {shorten(value)}")


def _check_bounds(**bounds: Any) -> None:
    """:class:`LumicoreError` naming the first of the two ``bounds`` (low, high) that is
    neither an integer nor None, or both when they make an empty range (the bounds a caller
    gives a check, looked at only once the value failed)."""
    for key, bound in bounds.items():
        if bound is not None and not is_integer(bound):
            raise LumicoreError(f"{key} must be an integer or None, got {shorten(bound)}")
    low, high = bounds.values()
    if low is not None and high is not None and low > high:
        raise LumicoreError(f"high must be >= low, got low {shorten(low)}, high {shorten(high)}")


def check_bool(value: object, name: str, what: str = "True or False") -> bool:
    """``value`` as a bool if it is a bool or a numpy bool; else :class:`LumicoreError`:
    "``name`` must be ``what``", quoting the value (1 and "yes" are no flags).

    >>> check_bool(np.bool_(True), "prune")
    True
    >>> check_bool(1, "prune")
    Traceback (most recent call last):
    ...
    lumicore.errors.LumicoreError: prune must be True or False, got '1'
    """
    if not isinstance(value, (bool, np.bool_)):
        raise LumicoreError(f"{name} must be {what}, got {shorten(value)}")
    return bool(value)


def check_players(players: object, low: int, high: int, game: str) -> int:
    """``players`` as an int if it is an integer (numpy's too, a bool none) from ``low`` to
    ``high``; else :class:`LumicoreError` in the same words for every game, naming ``game``
    and its range and quoting the value.

    >>> check_players(3, 2, 4, "Lemuria")
    3
    >>> check_players(2.0, 2, 4, "Lemuria")
    Traceback (most recent call last):
    ...
    lumicore.errors.LumicoreError: players must be an integer from 2 to 4 for Lemuria, got '2.0'
    >>> check_players(3, 2, 2, "Lumen")
    Traceback (most recent call last):
    ...
    lumicore.errors.LumicoreError: players must be the integer 2 for Lumen, got '3'
    """
    try:
        if is_integer(players) and low <= int(players) <= high:
            return int(players)
    except TypeError:
        pass
    _check_bounds(low=low, high=high)
    what = f"the integer {low}" if low == high else f"an integer from {low} to {high}"
    raise LumicoreError(f"players must be {what} for {game}, got {shorten(players)}")


def check_index(value: object, size: int, name: str, what: str = "an integer",
                error: type[LumicoreError] = LumicoreError) -> int:
    """``value`` as an int if it is an integer in ``0 .. size - 1`` (bool is no integer here);
    else ``error``: "``name`` must be ``what`` from 0 to ``size - 1``", quoting the value.

    >>> check_index(1, 2, "player", "a player index")
    1
    >>> check_index(2, 2, "player", "a player index")
    Traceback (most recent call last):
    ...
    lumicore.errors.LumicoreError: player must be a player index from 0 to 1, got '2'
    """
    try:
        if is_integer(value) and 0 <= int(value) < size:
            return int(value)
    except TypeError:
        pass
    if not is_integer(size) or size < 0:  # a caller's size, checked only when the value fails
        raise LumicoreError(f"size must be an integer >= 0, got {shorten(size)}")
    bound = "2**63 - 1" if size == SEED_LIMIT else str(size - 1)
    raise error(f"{name} must be {what} from 0 to {bound}, got {shorten(value)}")


def check_real(value: object, name: str, what: str = "a finite number",
               at_least: float | None = None) -> float:
    """``value`` as a float if it is a real number (numpy's too; bool is none here) that a
    float holds, that is neither infinite nor NaN and, with ``at_least``, not below it; else
    :class:`LumicoreError`: "``name`` must be ``what``", quoting the value (an int past a
    float's range raised OverflowError in ``float()``).

    >>> check_real(3, "target")
    3.0
    >>> check_real(float("nan"), "target", "a finite number of VP")
    Traceback (most recent call last):
    ...
    lumicore.errors.LumicoreError: target must be a finite number of VP, got 'nan'
    >>> check_real(-0.5, "margin", "a number >= 0", at_least=0)
    Traceback (most recent call last):
    ...
    lumicore.errors.LumicoreError: margin must be a number >= 0, got '-0.5'
    """
    if not isinstance(value, bool) and isinstance(value, numbers.Real):
        try:
            out = float(value)
        except OverflowError:
            out = math.inf
        try:
            if math.isfinite(out) and (at_least is None or out >= at_least):
                return out
        except TypeError:
            pass
    if at_least is not None:  # a caller's bound, checked only when the value fails
        if isinstance(at_least, bool) or not isinstance(at_least, numbers.Real) \
                or not math.isfinite(at_least):
            raise LumicoreError(f"at_least must be a finite number or None, got "
                                f"{shorten(at_least)}")
        if what == "a finite number":
            what = f"a finite number >= {at_least}"
    raise LumicoreError(f"{name} must be {what}, got {shorten(value)}")


def check_time_limit(time_limit: object, name: str = "time_limit") -> float | None:
    """``time_limit`` as a float if it is a positive finite number of seconds (None: None, no
    limit); else :class:`SearchLimitError` naming ``name`` and quoting the value. Kernels read
    a deadline at or below 0 as none, so a limit that is not positive must not reach them.

    >>> check_time_limit(2)
    2.0
    >>> check_time_limit(-1.0)
    Traceback (most recent call last):
    ...
    lumicore.errors.SearchLimitError: time_limit must be a positive number of seconds, got '-1.0'
    """
    if time_limit is None:
        return None
    try:
        seconds = check_real(time_limit, name)
    except LumicoreError:
        seconds = 0.0
    if seconds <= 0:
        raise SearchLimitError(f"{name} must be a positive number of seconds, "
                               f"got {shorten(time_limit)}")
    return seconds


_BLANKS = " \t\n\r\f\v"
_INTEGER = re.compile(r"[+-]?[0-9]+")
_REAL = re.compile(r"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf|infinity|nan)",
                   re.IGNORECASE)


def parse_int(text: object, name: str = "the number") -> int:
    """The integer ``text`` writes in ASCII digits (a sign and blanks around it allowed); else
    :class:`LumicoreError`: "``name`` must be a whole number in ASCII digits", quoting the text.
    ``int()`` alone also reads other scripts' digits ('٣' is 3) and ``1_000``.

    >>> parse_int(" -12 ")
    -12
    >>> parse_int("\u0663", "--seed")
    Traceback (most recent call last):
    ...
    lumicore.errors.LumicoreError: --seed must be a whole number in ASCII digits, got '٣'
    """
    word = text.strip(_BLANKS) if isinstance(text, str) else ""
    if not _INTEGER.fullmatch(word):
        raise LumicoreError(f"{name} must be a whole number in ASCII digits, got {shorten(text)}")
    try:
        return int(word)
    except ValueError:  # more digits than int() reads (4300)
        raise LumicoreError(f"{name} has too many digits, got {shorten(text)}") from None


def parse_real(text: object, name: str = "the number") -> float:
    """The number ``text`` writes in ASCII (digits, a point, an exponent; ``inf`` and ``nan`` as
    ``float()`` reads them); else :class:`LumicoreError` naming ``name``, as :func:`parse_int`.

    >>> parse_real("2.5e1")
    25.0
    >>> parse_real("\u0662.5", "--time-limit")
    Traceback (most recent call last):
    ...
    lumicore.errors.LumicoreError: --time-limit must be a number in ASCII digits, got '٢.5'
    """
    word = text.strip(_BLANKS) if isinstance(text, str) else ""
    if not _REAL.fullmatch(word):
        raise LumicoreError(f"{name} must be a number in ASCII digits, got {shorten(text)}")
    return float(word)


_T = TypeVar("_T")


@overload
def check_type(value: object, kind: type[_T], name: str, what: str) -> _T: ...


@overload
def check_type(value: object, kind: tuple[type, ...], name: str, what: str) -> Any: ...


def check_type(value: object, kind: Any, name: str, what: str) -> Any:
    """``value`` if it is a ``kind``; else :class:`LumicoreError`: "``name`` must be ``what``",
    quoting the value.

    >>> check_type(3, int, "count", "an int")
    3
    >>> check_type("3", int, "count", "an int")
    Traceback (most recent call last):
    ...
    lumicore.errors.LumicoreError: count must be an int, got '3'
    """
    try:
        if isinstance(value, kind):
            return value
    except TypeError:  # a caller's kind, checked only when isinstance fails on it
        raise LumicoreError(f"kind must be a type, got {shorten(kind)}") from None
    raise LumicoreError(f"{name} must be {what}, got {shorten(value)}")


def check_finite(array: np.ndarray, name: str) -> np.ndarray:
    """``array`` (a numpy array of real numbers) if it holds no NaN and no infinity; else
    :class:`LumicoreError` naming ``name``, the first such value and where it is. Its sum is
    looked at first (finite when every value is, and no array of flags is made: kernel doors
    check large arrays on every call), each value only when the sum is not.

    >>> check_finite(np.array([[0.5, 2.0], [np.nan, 1.0]]), "prices")
    Traceback (most recent call last):
    ...
    lumicore.errors.LumicoreError: prices must hold finite numbers, got nan at (1, 0)
    """
    try:
        total = array.sum()
    except AttributeError:
        raise LumicoreError(f"{name} must be a numpy array of numbers, got "
                            f"{shorten(array)}") from None
    if not math.isfinite(total) and not (finite := np.isfinite(array)).all():
        where = tuple(int(i) for i in np.argwhere(~finite)[0])
        if not where:  # a numpy scalar, no array
            raise LumicoreError(f"{name} must be an array of finite numbers, got "
                                f"{shorten(array)}")
        raise LumicoreError(f"{name} must hold finite numbers, got {array[where]} at "
                            f"{where if len(where) > 1 else where[0]}")
    return array


def check_array(array: object, name: str, shape: tuple[int | None, ...]) -> np.ndarray:
    """``array`` if it is a numpy array of finite real numbers of ``shape`` (None: any length
    of at least 1, shown as T); else :class:`LumicoreError` naming ``name``.

    >>> check_array(np.zeros((4, 3)), "start", (4, None)).shape
    (4, 3)
    >>> check_array(np.zeros(3), "start", (4, None))
    Traceback (most recent call last):
    ...
    lumicore.errors.LumicoreError: start must be a (4, T) array of real numbers, got shape (3,)
    """
    if not isinstance(shape, tuple) or not all(n is None or is_integer(n) and n >= 0
                                               for n in shape):
        raise LumicoreError(f"shape must be a tuple of lengths (None: any), got "
                            f"{shorten(shape)}")
    if (not isinstance(array, np.ndarray) or array.dtype.kind not in "biuf"
            or array.ndim != len(shape)
            or any(m < 1 if n is None else m != n
                   for m, n in zip(array.shape, shape, strict=True))):
        dims = ["T" if n is None else str(n) for n in shape]
        want = f"({', '.join(dims)}{',' if len(dims) == 1 else ''})"
        got = f"shape {array.shape}" if isinstance(array, np.ndarray) else shorten(array)
        raise LumicoreError(f"{name} must be a {want} array of real numbers, got {got}")
    return check_finite(array, name)


# ------------------------------------------------------------------------------------------
# field-by-field checks of saved data

def _show(value: object) -> str:
    """``value`` as JSON text, cut to about 80 characters."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):  # not JSON, or an int beyond Python's digit limit
        return shorten(value)
    return text if len(text) <= 80 else text[:80] + "..."


def field_error(source: str, path: str, what: str, value: object, verb: str = "be") -> DataError:
    """The error for a bad field: ``source: field 'path' must be what, got value`` (``verb``:
    another verb than "be", as in "must add up to ...")."""
    return DataError(f"{source}: field {path!r} must {verb} {what}, got {_show(value)}")


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _call(name: str, *args: object, **options: object) -> str:
    """``name(args, key=value)`` as Python writes a call, leaving out options that are None (a
    function given is named, not shown as ``<function ...>``).

    >>> _call("Int", 1, None, what="a number of players", high=None)
    "Int(1, None, what='a number of players')"
    """
    def show(value: object) -> str:
        return value.__qualname__ if callable(value) and hasattr(value, "__qualname__") \
            and not isinstance(value, Spec) else repr(value)

    shown = [show(a) for a in args]
    shown += [f"{key}={show(value)}" for key, value in options.items() if value is not None]
    return f"{name}({', '.join(shown)})"


def _spec(value: object, name: str) -> Spec:
    """``value`` if it is a :class:`Spec`, else :class:`LumicoreError` naming ``name`` (the
    rules are a caller's constants: this runs once per table built)."""
    return check_type(value, Spec, name, "a field rule (lumicore.checks.Spec)")


def _specs(fields: object) -> dict[str, Spec]:
    """``fields`` as a new dict if it maps field names to :class:`Spec` rules, else
    :class:`LumicoreError` naming ``fields``."""
    if not isinstance(fields, Mapping) or not all(
            isinstance(k, str) and isinstance(v, Spec) for k, v in fields.items()):
        raise LumicoreError(f"fields must map field names to field rules (lumicore.checks.Spec), "
                            f"got {shorten(fields)}")
    return dict(fields)


class Spec:
    """A rule for one field: :attr:`what` it must be (for the message), :meth:`ok` for the value
    itself and :meth:`read`, which checks the value and its items and returns it loaded (the
    value as it is, unless a :class:`Load` rule inside makes objects of it). A rule shows as the
    call that makes it (the API reference shows the rules the modules define):

    >>> ListOf(Choice(True, False, what="true or false"), high=3)
    ListOf(Choice(True, False, what='true or false'), high=3)
    """

    what = "valid"

    def __repr__(self) -> str:
        return _call(type(self).__name__)

    def ok(self, value: Any) -> bool:
        """Whether ``value`` itself has the right type and range (not its items)."""
        return True

    def read(self, value: Any, path: str, source: str) -> Any:
        """``value`` (at ``path``) loaded; :func:`field_error` for it or its first bad item."""
        if not self.ok(value):
            raise field_error(source, path, self.what, value)
        return value


class Int(Spec):
    """An integer (never a bool) from ``low`` to ``high`` (None: unbounded)."""

    def __init__(self, low: int | None = 0, high: int | None = None,
                 what: str | None = None) -> None:
        self.low, self.high, self._what = low, high, what
        if what is None:
            what = ("an integer" if low is None and high is None
                    else f"an integer >= {low}" if high is None
                    else f"an integer <= {high}" if low is None
                    else f"an integer from {low} to {high}")
        self.what = what

    def __repr__(self) -> str:
        return _call("Int", self.low, self.high, what=self._what)

    def ok(self, value: Any) -> bool:
        return (type(value) is int and (self.low is None or value >= self.low)
                and (self.high is None or value <= self.high))


class Choice(Spec):
    """One of the given JSON scalars (text, integers, true / false, null), type included: the
    choice ``1`` does not take ``true``."""

    def __init__(self, *options: object, what: str | None = None) -> None:
        self.options = frozenset((type(o), o) for o in options)
        self.what = what or "one of " + ", ".join(json.dumps(o) for o in options)
        self._given = options, what

    def __repr__(self) -> str:
        return _call("Choice", *self._given[0], what=self._given[1])

    def ok(self, value: Any) -> bool:
        return isinstance(value, (str, int, float, type(None))) \
            and (type(value), value) in self.options


BOOL = Choice(True, False, what="true or false")
"""The rule of a field that is JSON ``true`` or ``false`` (not 0 or 1)."""


class Text(Spec):
    """Any text of at most ``limit`` characters."""

    def __init__(self, what: str = "text", limit: int = 10_000) -> None:
        self.what, self.limit = what, limit

    def __repr__(self) -> str:
        return _call("Text", what=None if self.what == "text" else self.what,
                     limit=None if self.limit == 10_000 else self.limit)

    def ok(self, value: Any) -> bool:
        return isinstance(value, str) and len(value) <= self.limit


class Maybe(Spec):
    """``null`` or a value of ``spec``."""

    def __init__(self, spec: Spec) -> None:
        self.spec, self.what = _spec(spec, "spec"), f"null or {spec.what}"

    def __repr__(self) -> str:
        return _call("Maybe", self.spec)

    def read(self, value: Any, path: str, source: str) -> Any:
        if value is None:
            return None
        if not self.spec.ok(value):
            raise field_error(source, path, self.what, value)
        return self.spec.read(value, path, source)


class ListOf(Spec):
    """A list of ``low`` to ``high`` items (exactly ``length`` when given), each of ``item``;
    ``unique``: no item twice."""

    def __init__(self, item: Spec, length: int | None = None, low: int = 0,
                 high: int | None = None, unique: bool = False, what: str | None = None) -> None:
        self.item, self.unique = _spec(item, "item"), unique
        self.low, self.high = (length, length) if length is not None else (low, high)
        self._given = {"length": length, "low": low or None, "high": high,
                       "unique": unique or None, "what": what}
        size = (f"{length} " if length is not None
                else f"{low} to {high} " if high is not None and low
                else f"at most {high} " if high is not None else "")
        self.what = what or f"a list of {size}items{' (none twice)' if unique else ''}"

    def __repr__(self) -> str:
        return _call("ListOf", self.item, **self._given)

    def ok(self, value: Any) -> bool:
        return isinstance(value, list) and self.low <= len(value) \
            and (self.high is None or len(value) <= self.high)

    def read(self, value: Any, path: str, source: str) -> Any:
        super().read(value, path, source)
        out = [self.item.read(item, f"{path}[{i}]", source) for i, item in enumerate(value)]
        if self.unique and len({json.dumps(v) for v in value}) != len(value):
            raise field_error(source, path, self.what, value)
        return out


class Items(Spec):
    """A list of fixed length whose item ``i`` follows ``specs[i]``."""

    def __init__(self, *specs: Spec, what: str | None = None) -> None:
        self.specs, self._what = specs, what
        self.what = what or f"a list of {len(specs)} items"

    def __repr__(self) -> str:
        return _call("Items", *self.specs, what=self._what)

    def ok(self, value: Any) -> bool:
        return isinstance(value, list) and len(value) == len(self.specs)

    def read(self, value: Any, path: str, source: str) -> Any:
        super().read(value, path, source)
        return [spec.read(item, f"{path}[{i}]", source)
                for i, (spec, item) in enumerate(zip(self.specs, value, strict=True))]


class Table(Spec):
    """An object with exactly the keys of ``fields``, each value following its spec (a missing
    or an unknown key is named)."""

    def __init__(self, fields: Mapping[str, Spec], what: str = "an object") -> None:
        self.fields, self.what = _specs(fields), what

    def __repr__(self) -> str:
        return _call("Table", self.fields, what=None if self.what == "an object" else self.what)

    def ok(self, value: Any) -> bool:
        return isinstance(value, dict)

    def read(self, value: Any, path: str, source: str) -> Any:
        super().read(value, path, source)
        out = {}
        for key, spec in self.fields.items():
            if key not in value:
                raise DataError(f"{source}: field {_join(path, key)!r} is missing")
            out[key] = spec.read(value[key], _join(path, key), source)
        for key in value:
            if key not in self.fields:
                raise DataError(f"{source}: unknown field {_join(path, str(key)[:80])!r}")
        return out


class MapOf(Spec):
    """An object whose keys follow ``keys`` (a spec of text) and values ``values``."""

    def __init__(self, keys: Spec, values: Spec, what: str | None = None) -> None:
        self.keys, self.values, self._what = _spec(keys, "keys"), _spec(values, "values"), what
        self.what = what or f"an object whose keys are {keys.what}"

    def __repr__(self) -> str:
        return _call("MapOf", self.keys, self.values, what=self._what)

    def ok(self, value: Any) -> bool:
        return isinstance(value, dict) and all(self.keys.ok(k) for k in value)

    def read(self, value: Any, path: str, source: str) -> Any:
        super().read(value, path, source)
        return {key: self.values.read(item, _join(path, key), source)
                for key, item in value.items()}


class Where(Spec):
    """A value of ``spec`` for which ``test(value)`` holds too (a rule across its items)."""

    def __init__(self, spec: Spec, test: Callable[[Any], bool], what: str) -> None:
        self.spec, self.test, self.what = _spec(spec, "spec"), test, what

    def __repr__(self) -> str:
        return _call("Where", self.spec, self.test, what=self.what)

    def read(self, value: Any, path: str, source: str) -> Any:
        out = self.spec.read(value, path, source)
        if not self.test(value):
            raise field_error(source, path, self.what, value)
        return out


class Load(Spec):
    """A value of ``spec`` that ``load`` turns into the object the state holds (a tile from its
    notation, a reef from its JSON); a :class:`ValueError` of ``load`` (a
    :class:`LumicoreError` among them) is a bad field, ``what`` with the reason.

    >>> bits = Load(Text(), lambda text: int(text, 2), "binary digits")
    >>> bits.read("101", "mask", "save")
    5
    >>> bits.read("12", "mask", "save")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lumicore.errors.DataError: save: field 'mask' must be binary digits (invalid ...), got "12"
    """

    def __init__(self, spec: Spec, load: Callable[[Any], Any], what: str) -> None:
        self.spec, self.load, self.what = _spec(spec, "spec"), load, what

    def __repr__(self) -> str:
        return _call("Load", self.spec, self.load, what=self.what)

    def ok(self, value: Any) -> bool:
        return self.spec.ok(value)

    def read(self, value: Any, path: str, source: str) -> Any:
        if not self.spec.ok(value):
            raise field_error(source, path, self.what, value)
        value = self.spec.read(value, path, source)
        try:
            return self.load(value)
        except ValueError as exc:
            reason = f" ({str(exc)[:120]})" if str(exc) else ""
            raise field_error(source, path, self.what + reason, value) from None


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


def read_record(record: object, what: str = "game record", many: bool = False) -> Any:
    """A game record as a replay takes it, read the same way for every game: a
    :class:`pathlib.Path` (any ``os.PathLike``) is a file of JSON; a ``str`` is JSON text when
    its first non-space character is ``{`` (with ``many``, ``{`` or ``[``) and the path of such
    a file otherwise; anything else (a dict) comes back as it is, for the caller to check.
    Unreadable files and text that is not JSON are :class:`DataError`\\ s naming the file, or
    ``what`` for text.

    The JSON is one value or JSON lines (a value on each line that is not blank, as a
    tournament's ``--out`` writes them). Without ``many`` it must hold one record: several are
    a :class:`DataError` ("'games.jsonl' holds 2 records: replay one"), whatever the game. With
    ``many`` (a file of records) every value must be an object; they come back as a list (a
    dict given: a list of it).

    >>> read_record('  {"game": "lumen", "actions": []}')
    {'game': 'lumen', 'actions': []}
    >>> read_record('{"seed": 1}\\n{"seed": 2}', many=True)
    [{'seed': 1}, {'seed': 2}]
    >>> read_record('{"seed": 1}\\n{"seed": 2}')
    Traceback (most recent call last):
    ...
    lumicore.errors.DataError: game record holds 2 records: replay one
    >>> read_record("no-such-record.json")
    Traceback (most recent call last):
    ...
    lumicore.errors.DataError: 'no-such-record.json' is not a file
    """
    if isinstance(record, str) and record.lstrip().startswith(("{", "[") if many else "{"):
        name, text = what, record
    elif isinstance(record, (str, os.PathLike)):
        name, text = shorten(record), read_file(record)
    elif not many:  # a dict, or anything else the caller rejects
        return record
    else:
        return _only_objects([record], name=what)
    if many and not text.strip():
        raise DataError(f"{name} holds no {what}")
    try:
        values = [read_json(text, name)]
    except DataError:
        if not _several_values(text):
            raise
        values = [read_json(line, f"{name} line {number}")  # each line names itself
                  for number, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if many:
        return _only_objects(values, name)
    if len(values) != 1:
        raise DataError(f"{name} holds {len(values)} records: replay one")
    return values[0]


def _several_values(text: str) -> bool:
    """Whether ``text``, which is not one JSON value, is JSON lines: its first line is JSON and
    other lines follow (else the error of the whole text says best what is wrong)."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) < 2:
        return False
    try:
        json.loads(lines[0])
    except (ValueError, RecursionError):
        return False
    return True


def _only_objects(values: list, name: str) -> list[dict]:
    if not all(isinstance(value, dict) for value in values):
        raise DataError(f"{name}: every record is a JSON object")
    return values


def check_fields(data: object, fields: Mapping[str, Spec], source: str,
                 exact: bool = True) -> dict[str, Any]:
    """Check the object ``data`` against the table ``fields`` (field name -> :class:`Spec`);
    ``exact``: a key not in the table is an error too. Raises a :class:`DataError` naming
    ``source`` and the first bad field; returns the fields loaded (see :meth:`Spec.read`:
    each value as it is, unless a :class:`Load` rule makes objects of it)."""
    fields = _specs(fields)
    if not isinstance(data, dict):
        raise DataError(f"{source}: expected a JSON object, got {_show(data)}")
    table = fields if exact else {**{k: Spec() for k in data}, **fields}
    return Table(table).read(data, "", source)


def check_known_keys(table: Mapping[str, Any], known: Iterable[str], where: str,
                     source: object = None) -> None:
    """A :class:`DataError` naming the first key of ``table`` (``where`` in a file: "the tile
    file", "[units.x]") that is not one of ``known``: a misspelt key would be left out
    silently. ``source`` (the file), when given, starts the message.

    >>> check_known_keys({"fsh": 4}, ("fish", "number"), "tile 2")
    Traceback (most recent call last):
    ...
    lumicore.errors.DataError: unknown key 'fsh' in tile 2 (known: fish, number)
    """
    if not isinstance(table, Mapping):
        raise LumicoreError(f"table must be a table (a dict), got {shorten(table)}")
    if isinstance(known, (str, bytes)) or not isinstance(known, Iterable):
        raise LumicoreError(f"known must be a list of key names, got {shorten(known)}")
    known = tuple(known)
    unknown = [key for key in table if key not in known]
    if unknown:
        start = "" if source is None else f"{shorten(source)}: "
        raise DataError(f"{start}unknown key {shorten(unknown[0])} in {where} (known: "
                        f"{', '.join(known)})")


def read_key(table: Mapping[str, Any], key: str, default: Any, spec: Spec, path: str,
             source: object) -> Any:
    """``table[key]`` (``default`` when left out) if it is ``spec.what``, else a
    :class:`DataError` "SOURCE: PATH must be WHAT, not VALUE".

    >>> read_key({"rows": 2.7}, "rows", 1, Int(1, 64), "rows", "layout.toml")
    Traceback (most recent call last):
    ...
    lumicore.errors.DataError: 'layout.toml': rows must be an integer from 1 to 64, not '2.7'
    """
    if not isinstance(table, Mapping):
        raise LumicoreError(f"table must be a table (a dict), got {shorten(table)}")
    if not isinstance(key, str):
        raise LumicoreError(f"key must be a key name, got {shorten(key)}")
    _spec(spec, "spec")
    value = table.get(key, default)
    if not spec.ok(value):
        raise DataError(f"{shorten(source)}: {path} must be {spec.what}, not {shorten(value)}")
    return value

