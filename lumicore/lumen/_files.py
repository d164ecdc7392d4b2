"""What the Lumen data-file readers share: data of the wrong shape (a table where a list
belongs, a list where a name belongs, an infinite number) is a :class:`DataError` naming the
file, never a stray ``TypeError``; a loader (:func:`file_loader`) takes a built-in name, a
file or the loaded thing itself.

>>> reader = malformed_is_data_error(lambda data, source="x": sorted(data["a"]))
>>> reader({"a": 5}, "my.toml")
Traceback (most recent call last):
...
lumicore.errors.DataError: 'my.toml': malformed data (TypeError: 'int' object is not iterable)
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from lumicore.checks import BOOL, Int, Text, read_key
from lumicore.data import file_version, parse_toml, read_file, resolve, shorten
from lumicore.errors import DataError, LumicoreError

__all__ = ["malformed_is_data_error", "file_loader", "MAX_NUMBER", "every_key", "int_key",
           "flag_key", "text_key", "table_key"]

T = TypeVar("T")

MAX_NUMBER = 999
"""The largest count, strength or VP a board or scenario file may give (a unit bag, a start
count, the supply, a selection limit, a token count, an objective or discovery VP). The
random-game kernel keeps every count of a game below 2**20, and the largest sum of such numbers
a game can reach (999 objective tokens of 999 VP) stays below it."""

_MALFORMED = (KeyError, TypeError, AttributeError, IndexError, ValueError, OverflowError)


def malformed_is_data_error(read: Callable[..., T]) -> Callable[..., T]:
    """``read(data, source, ...)`` with the errors of data of the wrong shape turned into a
    :class:`DataError` naming ``source`` (a :class:`DataError` of its own passes through)."""

    default = inspect.signature(read).parameters["source"].default

    @functools.wraps(read)
    def checked(data: Any, *args: Any, **kwargs: Any) -> T:
        try:
            return read(data, *args, **kwargs)
        except DataError:
            raise
        except _MALFORMED as exc:
            source = args[0] if args else kwargs.get("source", default)
            raise DataError(f"{shorten(source)}: malformed data ({type(exc).__name__}: "
                            f"{str(exc)[:80]})") from exc

    return checked


def file_loader(kind: type[T], from_dict: Callable[[Any, Path], T], builtin: dict[str, str],
                name: str, cache: int = 16) -> Callable[[str | Path | T], T]:
    """A loader of a ``kind``: given a ``kind``, it returns it as is; given a built-in name (a
    key of ``builtin``) or a file path, it reads that TOML file with ``from_dict(data, path)``
    (the last ``cache`` files read are kept, each read again once it changed); anything else
    is a :class:`LumicoreError` "``name`` must be a name or a path"."""

    @functools.lru_cache(maxsize=cache)
    def read(path: Path, version: tuple) -> T:
        return from_dict(parse_toml(read_file(path), path), path)

    def load(name_or_path: str | Path | T) -> T:
        if isinstance(name_or_path, kind):
            return name_or_path
        if not isinstance(name_or_path, (str, Path)):
            raise LumicoreError(f"{name} must be a name or a path, got {shorten(name_or_path)}")
        path = resolve(name_or_path, builtin)
        return read(path, file_version(path))

    return load


def _path(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def every_key(table: dict[str, Any], keys: tuple[str, ...], where: str, source: object,
              what: str) -> None:
    """A :class:`DataError` naming the first of ``keys`` that ``table`` leaves out."""
    missing = [k for k in keys if k not in table]
    if missing:
        raise DataError(f"{shorten(source)}: {where} leaves out {missing[0]} ({what})")


def int_key(table: dict[str, Any], key: str, default: int, where: str, source: object,
            low: int = 0, high: int = MAX_NUMBER) -> int:
    """``table[key]`` (``default`` when left out), an integer from ``low`` to ``high`` (never a
    bool or a float); else a :class:`DataError` naming ``where.key`` (``where``: the dotted
    path of ``table``, "" at the top)."""
    return read_key(table, key, default, Int(low, high), _path(where, key), source)


def flag_key(table: dict[str, Any], key: str, default: bool, where: str, source: object) -> bool:
    """``table[key]`` (``default`` when left out): true or false, else a :class:`DataError`."""
    return read_key(table, key, default, BOOL, _path(where, key), source)


def text_key(table: dict[str, Any], key: str, default: str, where: str, source: object) -> str:
    """``table[key]`` (``default`` when left out): text, else a :class:`DataError`."""
    return read_key(table, key, default, Text(), _path(where, key), source)


def table_key(data: dict[str, Any], key: str, source: object, what: str) -> dict[str, Any]:
    """The table ``[key]`` of a data file: a :class:`DataError` naming it when it is missing
    (saying ``what`` it gives) or is not a table."""
    if key not in data:
        raise DataError(f"{shorten(source)}: no [{key}] table ({what})")
    if not isinstance(data[key], dict):
        raise DataError(f"{shorten(source)}: {key} must be a table, not {shorten(data[key])}")
    return data[key]
