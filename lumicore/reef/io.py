"""Reefs as JSON: the board (a built-in side's name or a drawing), the start and the placements
in order. Loading replays every placement through the rules.

::

    {
      "format": "lumicore-reef", "version": 1,
      "board": "A",                      (or {"name": "mine", "drawing": " S S\\nL L L\\n"})
      "start": ["pink", "green"],
      "placements": [
        {"lumino": "pink 3 crab", "number_cell": [2, 5], "other_cell": [1, 4], "level": 1}
      ]
    }

A board drawn from a row other than 0 also has ``"first_row"`` (the drawing's rows are
renumbered from 0; the placements keep the board's rows). ``level`` is written for readers. On
loading, ``level`` and ``cost`` (limestone paid) are optional and, when present, must be the
true ones.

>>> from lumicore.reef import Reef, load_board
>>> reef = Reef.build(load_board("A"), ("pink", "green"), [("pink 3 crab", (2, 5), (1, 4))])
>>> loads(dumps(reef)) == reef
True
>>> to_json(reef)["placements"][0]["lumino"]
'pink 3 crab'
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from lumicore.checks import Load, Spec, check_int, check_type, read_json
from lumicore.data import read_file, shorten, write_file
from lumicore.errors import DataError, IllegalMoveError, LumicoreError
from lumicore.reef.board import BUILTIN_BOARDS, Board, load_board
from lumicore.reef.reef import Reef
from lumicore.reef.tiles import Lumino

__all__ = ["FORMAT", "VERSION", "to_json", "from_json", "dumps", "loads", "save", "load", "REEF"]

FORMAT = "lumicore-reef"
"""The ``format`` field of a reef file: a file with another one is refused."""
VERSION = 1
"""The ``version`` field of a reef file: a file with another one is refused."""


def _board_json(board: Board) -> str | dict[str, str | int]:
    for side in BUILTIN_BOARDS:
        if board.is_builtin(side):
            return side
    first = min(r for r, _ in board.cells)
    shift = {"first_row": first} if first else {}  # the drawing's rows start at 0
    return {"name": board.name, "drawing": board.drawing(), **shift}


def to_json(reef: Reef) -> dict[str, Any]:
    """The reef as plain JSON data."""
    check_type(reef, Reef, "reef", "a Reef")
    cells = reef.board.cells
    return {
        "format": FORMAT,
        "version": VERSION,
        "board": _board_json(reef.board),
        "start": list(reef.start),
        "placements": [
            {
                "lumino": str(piece.lumino),
                "number_cell": list(cells[piece.number_cell]),
                "other_cell": list(cells[piece.other_cell]),
                "level": piece.level,
            }
            for piece in reef.pieces[1:]
        ],
    }


def _board_from(value: Any) -> Board:
    if isinstance(value, str):
        if value not in BUILTIN_BOARDS:
            raise DataError(f"board {value!r}: expected 'A', 'B' or {{'name', 'drawing'}}")
        return load_board(value)
    if isinstance(value, dict) and isinstance(value.get("drawing"), str):
        board = Board.parse(value["drawing"], name=str(value.get("name", "custom")))
        first = value.get("first_row", 0)
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < 2**16:
            raise DataError(f"board first_row: expected the row number of the drawing's first "
                            f"row (an integer >= 0), got {shorten(first)}")
        if not first:
            return board
        return Board(board.name, tuple((r + first, c) for r, c in board.cells), board.kinds)
    raise DataError(f"board {value!r}: expected 'A', 'B' or {{'name', 'drawing'}}")


def _cell(value: Any, where: str) -> tuple[int, int]:
    if (isinstance(value, list) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        return (value[0], value[1])
    raise DataError(f"{where}: expected [row, column], got {value!r}")


def from_json(data: Any) -> Reef:
    """Rebuild a reef from :func:`to_json` data, checking every placement against the rules.

    DataError names the malformed field; IllegalMoveError names the placement (1 = first)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise DataError(f"not a reef file: expected an object with \"format\": \"{FORMAT}\", "
                        f"got {shorten(data)}")
    if type(data.get("version")) is not int or data["version"] != VERSION:  # true is not 1
        raise DataError(f"reef file version {data.get('version')!r} (this lumicore reads "
                        f"version {VERSION})")
    for key in ("board", "start", "placements"):
        if key not in data:
            raise DataError(f"reef file: missing {key!r}")
    board = _board_from(data["board"])
    start = data["start"]
    if not (isinstance(start, list) and len(start) == 2 and all(isinstance(c, str) for c in start)):
        raise DataError(f"start {start!r}: expected two colour names")
    reef = Reef.new(board, (start[0], start[1]))
    if not isinstance(data["placements"], list):
        raise DataError("placements: expected a list")
    for k, move in enumerate(data["placements"], start=1):
        where = f"placement {k}"
        if not isinstance(move, dict) or not isinstance(move.get("lumino"), str):
            raise DataError(f"{where}: expected an object with a \"lumino\" notation")
        try:
            lumino = Lumino.parse(move["lumino"])
            placement = reef.placement_at(lumino, _cell(move.get("number_cell"), where),
                                          _cell(move.get("other_cell"), where))
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"{where}: {exc}") from None
        except LumicoreError as exc:
            raise DataError(f"{where}: {exc}") from None
        for key in ("level", "cost"):
            if key in move and move[key] != getattr(placement, key):
                raise IllegalMoveError(f"{where}: {key} {move[key]!r} given, the reef gives "
                                       f"{getattr(placement, key)}")
        reef = reef.place(placement)
    return reef


REEF = Load(Spec(), from_json, "a reef (lumicore-reef JSON)")
"""A reef as a field of saved data (see :func:`lumicore.checks.check_fields`)."""


def dumps(reef: Reef, indent: int | None = 2) -> str:
    """The reef as JSON text."""
    if indent is not None:  # json.dumps would also take text, and fail late on a float
        indent = check_int(indent, "indent", 0, 80)
    return json.dumps(to_json(reef), indent=indent)


def loads(text: str) -> Reef:
    """Read a reef from JSON text (see :func:`from_json`)."""
    return from_json(read_json(text, "reef file"))


def save(reef: Reef, path: str | Path) -> None:
    """Write the reef to a JSON file, whole or not at all (through a temporary file in its
    folder, as ``--svg`` files are); an OutputError names it when that fails."""
    if not isinstance(path, (str, Path)) or str(path) == "":
        raise DataError(f"a reef is saved to a file name, got {shorten(path)}")
    write_file(path, dumps(reef) + "\n", atomic=True)


def load(path: str | Path) -> Reef:
    """Read a reef from a JSON file; errors name the file."""
    text = read_file(path)
    try:
        return loads(text)
    except LumicoreError as exc:
        raise type(exc)(f"{shorten(path)}: {exc}") from None
