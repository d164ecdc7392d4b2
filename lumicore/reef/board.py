"""Reef boards: the hexagonal spaces of one side of a reef board, read from a drawing.

A drawing has one line per row of spaces; every non-space character is one space (token), and its
``(row, column)`` is the line number (0 = first drawing line; ``#`` comment lines and blank lines
before or after the drawing do not count) and the character column. Neighbours in a row stand two
columns apart and rows are offset by one column, so the drawing *is* the doubled-coordinate hex
grid: the neighbours of ``(r, x)`` are ``(r, x±2)`` and ``(r±1, x±1)``.

Tokens: ``L`` limestone base space, ``W`` water base space (covering it costs 1 limestone marker),
``S`` starting area (exactly two adjacent spaces), ``1`` ``2`` ``3`` remote limestone space (B
side) that loses that many VP if still visible at the end.

Cells are numbered by their position in ``Board.cells`` (sorted by row, then column); every set of
cells is an ``int`` bit mask (bit ``i`` = cell ``i``), at most 64 cells.

>>> board = load_board("A")
>>> len(board.cells), bin(board.water_mask).count("1"), board.kinds.count("L")
(44, 20, 22)
>>> [board.cells[i] for i in board.start_cells]
[(3, 6), (3, 8)]
>>> sorted(board.cells[j] for j in board.neighbor_cells(board.index[(3, 6)]))
[(2, 5), (2, 7), (3, 4), (3, 8), (4, 5), (4, 7)]
>>> Board.parse(str(board)) == board
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import cast

import networkx as nx

from lumicore.checks import is_integer
from lumicore.data import read_text, shorten
from lumicore.errors import DataError, LumicoreError, NotationError

__all__ = ["Board", "load_board", "KINDS", "MAX_CELLS", "BUILTIN_BOARDS"]

KINDS = ("L", "W", "S", "1", "2", "3")
"""The tokens of a board drawing: ``L`` limestone, ``W`` water, ``S`` starting area, ``1`` ``2``
``3`` remote limestone spaces losing that many VP."""
MAX_CELLS = 64
"""The most spaces a board may have (a set of spaces is one 64-bit mask)."""
BUILTIN_BOARDS = {"A": "reef_a.txt", "B": "reef_b.txt"}
"""The two sides of the box's reef board by name (``A``, ``B``), as :func:`load_board` takes
them."""

Cell = tuple[int, int]


def _neighbor_coords(cell: Cell) -> tuple[Cell, ...]:
    r, x = cell
    return ((r, x - 2), (r, x + 2), (r - 1, x - 1), (r - 1, x + 1), (r + 1, x - 1), (r + 1, x + 1))


def _mask(indices) -> int:
    mask = 0
    for i in indices:
        mask |= 1 << i
    return mask


def _where(cell: Cell) -> str:
    return f"row {cell[0]}, column {cell[1]}"


@dataclass(frozen=True)
class Board:
    """One side of a reef board. Build it with :func:`load_board` or :meth:`Board.parse`.

    Equality and hashing look only at the spaces (``cells`` and ``kinds``), not at ``name``.
    Derived per-cell data, indexed by cell index: ``kinds``, ``neighbors`` (bit masks),
    ``penalty`` (1..3 on remote spaces, else 0); masks ``water_mask``, ``base_mask`` (every space
    but the starting area), ``remote_mask``, ``all_mask``; ``start_cells`` (the two starting-area
    cell indices, lower column first); ``index`` maps ``(row, column)`` to the cell index.
    """

    name: str = field(compare=False)
    cells: tuple[Cell, ...]
    kinds: tuple[str, ...]
    index: dict[Cell, int] = field(init=False, compare=False, repr=False)
    neighbors: tuple[int, ...] = field(init=False, compare=False, repr=False)
    water_mask: int = field(init=False, compare=False, repr=False)
    base_mask: int = field(init=False, compare=False, repr=False)
    remote_mask: int = field(init=False, compare=False, repr=False)
    penalty: tuple[int, ...] = field(init=False, compare=False, repr=False)
    start_cells: tuple[int, int] = field(init=False, compare=False, repr=False)
    all_mask: int = field(init=False, compare=False, repr=False)
    edges: tuple[tuple[int, int], ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise NotationError(f"a board's name must be text, got {self.name!r:.80}")
        try:
            # (row, column) pairs once _check below passes
            cells = cast("tuple[Cell, ...]", tuple(map(tuple, self.cells)))
            kinds = tuple(self.kinds)
        except TypeError:
            raise NotationError("cells must be (row, column) pairs and kinds tokens") from None
        self._check(cells, kinds)
        order = sorted(range(len(cells)), key=lambda i: cells[i])
        cells = tuple(cells[i] for i in order)
        kinds = tuple(kinds[i] for i in order)
        index = {cell: i for i, cell in enumerate(cells)}
        neighbors = tuple(
            _mask(index[n] for n in _neighbor_coords(cell) if n in index) for cell in cells
        )
        starts = tuple(i for i, k in enumerate(kinds) if k == "S")
        setattr_ = object.__setattr__
        setattr_(self, "cells", cells)
        setattr_(self, "kinds", kinds)
        setattr_(self, "index", index)
        setattr_(self, "neighbors", neighbors)
        setattr_(self, "water_mask", _mask(i for i, k in enumerate(kinds) if k == "W"))
        setattr_(self, "base_mask", _mask(i for i, k in enumerate(kinds) if k != "S"))
        setattr_(self, "remote_mask", _mask(i for i, k in enumerate(kinds) if k in "123"))
        setattr_(self, "penalty", tuple(int(k) if k in "123" else 0 for k in kinds))
        setattr_(self, "start_cells", tuple(sorted(starts, key=lambda i: (cells[i][1], i))))
        setattr_(self, "all_mask", (1 << len(cells)) - 1)
        setattr_(self, "edges", tuple(
            (i, j) for i in range(len(cells)) for j in range(len(cells)) if neighbors[i] >> j & 1
        ))

    @staticmethod
    def _check(cells: tuple[Cell, ...], kinds: tuple[str, ...]) -> None:
        if len(cells) != len(kinds):
            raise NotationError(f"{len(cells)} cells but {len(kinds)} kinds")
        if not cells:
            raise NotationError("a board needs at least the two starting-area spaces")
        for cell in cells:
            if len(cell) != 2 or not all(
                isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in cell
            ):
                raise NotationError(f"bad cell {shorten(cell)}: expected (row, column) with ints "
                                    ">= 0")
        parity = sum(cells[0]) % 2
        seen: set[Cell] = set()
        for number, (cell, kind) in enumerate(zip(cells, kinds, strict=True), start=1):
            if kind not in KINDS:
                raise NotationError(f"unknown token {shorten(kind)} at {_where(cell)} "
                                    f"(expected {' '.join(KINDS)})")
            if sum(cell) % 2 != parity:
                raise NotationError(
                    f"misaligned space at {_where(cell)}: neighbours in a row stand two columns "
                    f"apart and each row is shifted by one column against the next"
                )
            if cell in seen:
                raise NotationError(f"two spaces at {_where(cell)}")
            if number > MAX_CELLS:
                raise NotationError(f"more than {MAX_CELLS} spaces: space {number} at "
                                    f"{_where(cell)}")
            seen.add(cell)
        starts = [c for c, k in zip(cells, kinds, strict=True) if k == "S"]
        if len(starts) != 2:
            where = f" (the third at {_where(starts[2])})" if len(starts) > 2 else (
                f" (only {_where(starts[0])})" if starts else "")
            raise NotationError(
                f"the starting area must be two adjacent S spaces, found {len(starts)}{where}"
            )
        if starts[1] not in _neighbor_coords(starts[0]):
            raise NotationError(
                f"the starting area must be two adjacent S spaces: {_where(starts[0])} and "
                f"{_where(starts[1])} do not touch"
            )

    @classmethod
    def parse(cls, drawing: str, name: str = "custom") -> Board:
        """Read a drawing (see the module docstring); NotationError names the row and column.

        >>> Board.parse(" S S\\nL W\\n").cells
        ((0, 1), (0, 3), (1, 0), (1, 2))
        >>> Board.parse("S S X")
        Traceback (most recent call last):
        ...
        lumicore.errors.NotationError: unknown token 'X' at row 0, column 4 (expected L W S 1 2 3)
        """
        if not isinstance(drawing, str):
            raise NotationError(f"a board drawing is text, got {shorten(drawing)}")
        drawing = drawing.removeprefix("\ufeff")  # a byte-order mark is not a space
        # rows end at a newline only (splitlines also breaks at form feeds and U+2028), and
        # only spaces are blank (a tab or no-break space is an unknown token, even at the end)
        lines = [line.removesuffix("\r") for line in drawing.split("\n")]
        lines = [line for line in lines if not line.lstrip(" ").startswith("#")]
        while lines and not lines[0].strip(" "):
            lines.pop(0)
        while lines and not lines[-1].strip(" "):
            lines.pop()
        cells, kinds = [], []
        for row, line in enumerate(lines):
            for column, char in enumerate(line.rstrip(" ")):
                if char == " ":
                    continue
                cells.append((row, column))
                kinds.append(char)
        return cls(name, tuple(cells), tuple(kinds))

    def drawing(self) -> str:
        """The board drawn in its file format (no comments); ``Board.parse`` reads it back (rows
        are renumbered from 0 if the first row is not row 0)."""
        rows: dict[int, dict[int, str]] = {}
        for (r, x), kind in zip(self.cells, self.kinds, strict=True):
            rows.setdefault(r, {})[x] = kind
        lines = []
        for r in range(min(rows), max(rows) + 1):
            row = rows.get(r, {})
            chars = [" "] * (max(row, default=-1) + 1)
            for x, kind in row.items():
                chars[x] = kind
            lines.append("".join(chars))
        return "\n".join(lines) + "\n"

    def __str__(self) -> str:
        return self.drawing()

    def __hash__(self) -> int:
        return hash((self.cells, self.kinds))

    def cell_index(self, cell: Cell) -> int:
        """The index of the space at ``(row, column)`` (integers, numpy's too; a bool or a
        float is none); LumicoreError if there is none."""
        try:
            row, column = cell
            if is_integer(row) and is_integer(column):
                return self.index[(int(row), int(column))]
        except (KeyError, TypeError, ValueError):
            pass
        raise LumicoreError(f"no space at {shorten(cell)} on board {shorten(self.name)}")

    def neighbor_cells(self, i: int) -> tuple[int, ...]:
        """The cell indices adjacent to cell ``i``, in increasing order."""
        if not is_integer(i) or not 0 <= i < len(self.cells):
            raise LumicoreError(f"no cell index {shorten(i)} on board {shorten(self.name)} "
                                f"(0..{len(self.cells) - 1})")
        mask = self.neighbors[int(i)]
        return tuple(j for j in range(len(self.cells)) if mask >> j & 1)

    def graph(self) -> nx.Graph:
        """The spaces as a ``networkx.Graph``: one node per cell index with attributes ``cell``
        (row, column) and ``kind`` (token), one edge per pair of neighbouring spaces.

        >>> g = load_board("A").graph()
        >>> g.number_of_nodes(), g.number_of_edges(), g.nodes[0]["kind"]
        (44, 109, 'W')
        """
        graph = nx.Graph(name=self.name)
        for i, (cell, kind) in enumerate(zip(self.cells, self.kinds, strict=True)):
            graph.add_node(i, cell=cell, kind=kind)
        graph.add_edges_from((i, j) for i, j in self.edges if i < j)
        return graph

    def is_builtin(self, side: str) -> bool:
        """Whether this board has the spaces of the built-in side ``"A"`` or ``"B"``."""
        return side in BUILTIN_BOARDS and self == _builtin(side)


def load_board(name_or_path: str | Path = "A") -> Board:
    """The built-in side ``"A"`` or ``"B"``, or a drawing read from a file (named by its stem).

    >>> load_board("B").penalty.count(0)
    38
    """
    if isinstance(name_or_path, str) and name_or_path in BUILTIN_BOARDS:
        return _builtin(name_or_path)
    return _read_board(name_or_path)


@cache
def _builtin(side: str) -> Board:
    return _read_board(side)


def _read_board(name_or_path: str | Path) -> Board:
    text = read_text(name_or_path, BUILTIN_BOARDS)
    # the argument, not the name, tells a built-in board: a user's A.txt is named "A" too
    builtin = isinstance(name_or_path, str) and name_or_path in BUILTIN_BOARDS
    name = str(name_or_path) if builtin else Path(name_or_path).stem
    try:
        return Board.parse(text, name=name)
    except NotationError as exc:
        if builtin:
            raise DataError(f"built-in board {name!r}: {exc}") from exc
        raise NotationError(f"{shorten(str(name_or_path))}: {exc}") from exc
