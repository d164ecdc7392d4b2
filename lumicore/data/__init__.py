"""Default data files (decks, boards, tile sets, card lists) and the loader they share.

Every loader in lumicore takes either the name of a built-in file or a path to the user's own.

>>> data_dir().name
'data'
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from lumicore.errors import DataError

__all__ = ["data_dir", "resolve", "read_toml", "read_text", "tomllib"]


def data_dir() -> Path:
    """The folder that holds the built-in data files."""
    return Path(__file__).resolve().parent


def resolve(name_or_path: str | Path, builtin: dict[str, str]) -> Path:
    """Map a built-in name (a key of ``builtin``) to its file, or take the argument as a path.

    Raises :class:`DataError` naming the argument when neither exists.
    """
    key = str(name_or_path)
    if key in builtin:
        return data_dir() / builtin[key]
    path = Path(name_or_path)
    if path.is_file():
        return path
    known = ", ".join(repr(k) for k in builtin)
    raise DataError(f"{key!r} is neither a built-in name ({known}) nor a readable file")


def read_toml(name_or_path: str | Path, builtin: dict[str, str]) -> dict[str, Any]:
    """Parse a TOML data file; a syntax error becomes a :class:`DataError` naming the file."""
    path = resolve(name_or_path, builtin)
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{path}: {exc}") from exc


def read_text(name_or_path: str | Path, builtin: dict[str, str]) -> str:
    """Read a text data file (e.g. a board drawing)."""
    return resolve(name_or_path, builtin).read_text(encoding="utf-8")
