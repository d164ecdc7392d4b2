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

from lumicore.data import file_version, parse_toml, read_file, resolve, shorten
from lumicore.errors import DataError, LumicoreError

__all__ = ["malformed_is_data_error", "file_loader"]

T = TypeVar("T")

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
