"""What the Lumen data-file readers share: data of the wrong shape (a table where a list
belongs, a list where a name belongs, an infinite number) is a :class:`DataError` naming the
file, never a stray ``TypeError``.

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
from typing import Any, TypeVar

from lumicore.data import shorten
from lumicore.errors import DataError

__all__ = ["malformed_is_data_error"]

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
