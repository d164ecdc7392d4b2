"""A player's reef: the Luminos placed on a board, in order. Reefs are immutable, hashable values.

Public methods take cells as ``(row, column)`` tuples. The index-based view (for the Cython
kernel and the solvers; ``i`` is a cell index of ``reef.board``):

- ``reef.pieces``: tuple of :class:`Piece` in placement order; ``pieces[0]`` is the starting
  Lumino (a :class:`~lumicore.reef.tiles.StartLumino`; its ``color_a`` half on ``number_cell``).
- per-cell tuples: ``reef.heights[i]`` (0 = bare base space, n = top Lumino in level n),
  ``reef.top_pieces[i]`` (index into ``pieces`` of the top Lumino, -1 if bare),
  ``reef.cell_colors[i]`` (colour code of the visible half, -1 if bare),
  ``reef.cell_numbers[i]`` (visible number, 0 = none), ``reef.cell_animals[i]`` (animal code,
  -1 = none); the same as methods ``reef.cell_color(i)``, ``cell_number(i)``, ``cell_animal(i)``,
  ``top_piece(i)``, ``height_index(i)``.

Legality lives in :mod:`lumicore.reef.reference` (the plain statement of the rules).

>>> from lumicore.reef import Lumino, load_board
>>> reef = Reef.new(load_board("A"), start=("pink", "green"))
>>> reef.top((3, 6)).color, reef.top((3, 8)).color, reef.height((3, 6))
('pink', 'green', 1)
>>> first = next(reef.placements(Lumino("pink", 3, "crab"), limestone=0))
>>> first
Placement(lumino=Lumino('pink 3 crab'), number_cell=(1, 4), other_cell=(2, 5), level=1, cost=0)
>>> reef2 = reef.place(first)
>>> reef2.height((1, 4)), reef2.top((2, 5)).animal, reef.height((1, 4))
(1, 'crab', 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from lumicore.checks import check_int, is_integer
from lumicore.data import shorten
from lumicore.errors import IllegalMoveError, LumicoreError
from lumicore.reef import kernel, reference, render
from lumicore.reef.board import Board
from lumicore.reef.values import (
    ANIMALS,
    COLORS,
    Cell,
    Lumino,
    Piece,
    Placement,
    Space,
    StartLumino,
    animal_code,
    color_code,
)

__all__ = ["Reef", "HandPlacement"]


@dataclass(frozen=True, eq=False)
class Reef:
    """A reef: a board and the Luminos on it, ``pieces[0]`` the starting Lumino.

    ``Reef(board, pieces)`` checks the stacking (adjacent cells, levels that match the heights,
    the starting Lumino first); :meth:`new` and :meth:`place` check every placement rule.
    Two reefs are equal when they have the same board and the same pieces in the same order.
    """

    board: Board
    pieces: tuple[Piece, ...]
    heights: tuple[int, ...] = field(init=False, repr=False)
    top_pieces: tuple[int, ...] = field(init=False, repr=False)
    cell_colors: tuple[int, ...] = field(init=False, repr=False)
    cell_numbers: tuple[int, ...] = field(init=False, repr=False)
    cell_animals: tuple[int, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.board, Board):
            raise LumicoreError(f"board must be a lumicore.reef.Board (see load_board), got "
                                f"{shorten(self.board)}")
        if isinstance(self.pieces, (str, bytes)) or not isinstance(self.pieces, Iterable):
            raise LumicoreError(f"pieces must be a sequence of Piece, got {shorten(self.pieces)}")
        pieces = tuple(self.pieces)
        for k, piece in enumerate(pieces):
            if not isinstance(piece, Piece):
                raise LumicoreError(f"piece {k}: {shorten(piece)} is not a Piece")
        object.__setattr__(self, "pieces", pieces)
        if not pieces or not isinstance(pieces[0].lumino, StartLumino):
            raise LumicoreError("a reef starts with its starting Lumino (a StartLumino) as "
                                "pieces[0]")
        n = len(self.board.cells)
        arrays = ([0] * n, [-1] * n, [-1] * n, [0] * n, [-1] * n)
        for k, piece in enumerate(pieces):
            self._check_piece(k, piece, arrays[0])
            _stack(arrays, k, piece)
        self._set_arrays(arrays)

    def _check_piece(self, k: int, piece: Piece, heights: list[int]) -> None:
        board = self.board
        a, b = piece.number_cell, piece.other_cell
        n = len(board.cells)
        if not (isinstance(a, int) and isinstance(b, int) and 0 <= a < n and 0 <= b < n):
            raise LumicoreError(f"piece {k}: cells {a!r}, {b!r} are not cell indices of the board")
        if not board.neighbors[a] >> b & 1:
            raise LumicoreError(f"piece {k}: cells {board.cells[a]} and {board.cells[b]} are not "
                                "adjacent")
        if heights[a] != heights[b] or piece.level != heights[a] + 1:
            raise LumicoreError(f"piece {k}: level {piece.level} does not lie flat on heights "
                                f"{heights[a]} and {heights[b]}")
        is_start = isinstance(piece.lumino, StartLumino)
        if is_start != (k == 0):
            raise LumicoreError(f"piece {k}: only pieces[0] is the starting Lumino")
        if is_start and (a, b) != board.start_cells:
            raise LumicoreError("the starting Lumino lies on the starting area, color_a half on "
                                "the first (lower column) starting cell")
        if not is_start and not isinstance(piece.lumino, Lumino):
            raise LumicoreError(f"piece {k}: {piece.lumino!r} is not a Lumino")

    def _set_arrays(self, arrays) -> None:
        for name, values in zip(
            ("heights", "top_pieces", "cell_colors", "cell_numbers", "cell_animals"), arrays,
            strict=True,
        ):
            object.__setattr__(self, name, tuple(values))

    @classmethod
    def new(cls, board: Board, start: tuple[str, str]) -> Reef:
        """A reef with only its starting Lumino: ``start[0]`` on the first starting cell (lower
        column), ``start[1]`` on the second."""
        if not isinstance(board, Board):
            raise LumicoreError(f"board must be a lumicore.reef.Board (see load_board), got "
                                f"{shorten(board)}")
        try:
            color_a, color_b = start
        except (TypeError, ValueError):
            raise LumicoreError(f"start must be two colours, got {shorten(start)}") from None
        lumino = StartLumino(color_a, color_b)
        a, b = board.start_cells
        return cls(board, (Piece(lumino, a, b, 1),))

    @classmethod
    def build(
        cls,
        board: Board,
        start: tuple[str, str],
        moves: Iterable[tuple[Lumino | str, Cell, Cell]],
    ) -> Reef:
        """A reef grown from its start by ``(lumino, number_cell, other_cell)`` moves (a Lumino or
        its notation), each checked by every placement rule; IllegalMoveError names the move.

        >>> from lumicore.reef import load_board
        >>> moves = [("blue 2 crab", (2, 5), (2, 3))]
        >>> reef = Reef.build(load_board("A"), ("blue", "yellow"), moves)
        >>> reef.visible_count("blue"), reef.visible_animals()["crab"]
        (3, 1)
        """
        reef = cls.new(board, start)
        if isinstance(moves, (str, bytes)) or not isinstance(moves, Iterable):
            raise LumicoreError(f"moves must be a list of (lumino, number_cell, other_cell), "
                                f"got {shorten(moves)}")
        for k, move in enumerate(moves, start=1):
            items: tuple[Any, ...] = tuple(move) if isinstance(move, Iterable) and not isinstance(
                move, (str, bytes)) else ()
            if len(items) != 3:
                raise LumicoreError(f"move {k}: expected (lumino, number_cell, other_cell), "
                                    f"got {shorten(move)}")
            lumino, number_cell, other_cell = items
            if isinstance(lumino, str):
                lumino = Lumino.parse(lumino)
            try:
                reef = reef.place(reef.placement_at(lumino, number_cell, other_cell))
            except LumicoreError as exc:
                raise type(exc)(f"move {k}: {exc}") from None
        return reef

    # ---- building -------------------------------------------------------------------------

    def placements(self, lumino: Lumino, limestone: int) -> Iterator[Placement]:
        """Every legal placement of ``lumino`` with ``limestone`` markers in storage, in a fixed
        order (by number cell, then other cell)."""
        return iter(kernel.placements(self, lumino, limestone))

    def placement_at(self, lumino: Lumino, number_cell: Cell, other_cell: Cell) -> Placement:
        """The placement of ``lumino`` on these cells, with its level and cost filled in;
        IllegalMoveError (with the rule broken) when it is not legal."""
        if not isinstance(lumino, Lumino):
            raise IllegalMoveError(f"only a Lumino can be placed, not {lumino!r}")
        a, b = self.board.cell_index(number_cell), self.board.cell_index(other_cell)
        reason = reference.illegal_reason(self, lumino, a, b)
        if reason is not None:
            raise IllegalMoveError(
                f"cannot place {lumino} with its number on {self.board.cells[a]} and its other "
                f"half on {self.board.cells[b]}: {reason}"
            )
        return Placement(lumino, self.board.cells[a], self.board.cells[b],
                         self.heights[a] + 1, reference.cost(self, a, b))

    def place(self, placement: Placement, limestone: int | None = None) -> Reef:
        """The reef after ``placement``; IllegalMoveError if it breaks a rule, if its level or
        cost is not the true one, or if ``limestone`` is given and cannot pay the cost."""
        if not isinstance(placement, Placement):
            raise IllegalMoveError(f"expected a Placement, got {placement!r}")
        if limestone is not None:
            limestone = check_int(limestone, "limestone", 0, what="None or an integer >= 0")
        true = self.placement_at(placement.lumino, placement.number_cell, placement.other_cell)
        if (placement.level, placement.cost) != (true.level, true.cost):
            raise IllegalMoveError(
                f"placement says level {placement.level}, cost {placement.cost}; the reef gives "
                f"level {true.level}, cost {true.cost}"
            )
        if limestone is not None and true.cost > limestone:
            raise IllegalMoveError(f"placing on {true.cost} water spaces costs {true.cost} "
                                   f"limestone markers, only {limestone} in storage")
        index = self.board.index
        return self._with(Piece(true.lumino, index[true.number_cell], index[true.other_cell],
                                true.level))

    def _with(self, piece: Piece) -> Reef:
        """This reef plus ``piece``, without checks (the caller checked it)."""
        new = object.__new__(Reef)
        object.__setattr__(new, "board", self.board)
        object.__setattr__(new, "pieces", self.pieces + (piece,))
        arrays = tuple(list(values) for values in (
            self.heights, self.top_pieces, self.cell_colors, self.cell_numbers, self.cell_animals
        ))
        _stack(arrays, len(self.pieces), piece)
        new._set_arrays(arrays)
        return new

    # ---- views ----------------------------------------------------------------------------

    @property
    def start(self) -> tuple[str, str]:
        """The starting Lumino's colours (first starting cell, second)."""
        return self.pieces[0].lumino.colors

    def height(self, cell: Cell) -> int:
        """The level of the top Lumino on ``(row, column)``; 0 for a bare base space."""
        return self.heights[self.board.cell_index(cell)]

    def top(self, cell: Cell) -> Space | None:
        """The visible coral space on ``(row, column)``, or None for a bare base space."""
        i = self.board.cell_index(cell)
        if self.top_pieces[i] < 0:
            return None
        number, animal = self.cell_numbers[i], self.cell_animals[i]
        return Space(COLORS[self.cell_colors[i]], number or None,
                     ANIMALS[animal] if animal >= 0 else None, self.heights[i], self.top_pieces[i])

    def _index(self, i: int) -> int:
        if not is_integer(i) or not 0 <= i < len(self.heights):
            raise LumicoreError(f"no cell index {shorten(i)} on board {self.board.name!r} "
                                f"(0..{len(self.heights) - 1})")
        return int(i)

    def height_index(self, i: int) -> int:
        """The height of cell index ``i`` (0 = bare); LumicoreError for a bad index."""
        return self.heights[self._index(i)]

    def top_piece(self, i: int) -> int:
        """The index in ``pieces`` of the top Lumino on cell ``i`` (-1 if bare)."""
        return self.top_pieces[self._index(i)]

    def cell_color(self, i: int) -> int:
        """The colour code visible on cell ``i`` (-1 if bare)."""
        return self.cell_colors[self._index(i)]

    def cell_number(self, i: int) -> int:
        """The number visible on cell ``i`` (0 if none)."""
        return self.cell_numbers[self._index(i)]

    def cell_animal(self, i: int) -> int:
        """The animal code visible on cell ``i`` (-1 if none)."""
        return self.cell_animals[self._index(i)]

    def levels(self) -> int:
        """The highest level in the reef."""
        return max(self.heights)

    def visible_count(self, color: str) -> int:
        """How many visible coral spaces of ``color`` the reef shows (for the majorities)."""
        return self.visible_counts()[COLORS[color_code(color)]]

    def visible_counts(self) -> dict[str, int]:
        """Visible coral spaces per colour (every colour a key)."""
        s = kernel.state(self)
        return {name: s.visible_count(code) for code, name in enumerate(COLORS)}

    def visible_animals(self) -> dict[str, int]:
        """How many of each animal are visible (every species a key, 0 if none)."""
        return dict(zip(ANIMALS, kernel.state(self).animal_counts(), strict=True))

    def coral_score(self, color: str) -> int:
        """What a coral scoring of ``color`` would give now: per level the smallest visible
        number on a ``color`` space, summed."""
        return kernel.state(self).coral_score(color_code(color))

    def remote_penalty(self) -> int:
        """VP lost for the remote limestone spaces still visible (B side), as a number >= 0."""
        return kernel.state(self).remote_penalty()

    def animal_points(self, score_board: str = "dark") -> int:
        """Animal VP of this reef on the ``"dark"`` (counts) or ``"light"`` (neighbours) score
        board."""
        s = kernel.state(self)
        if score_board == "dark":
            return s.dark_animal_points()
        if score_board == "light":
            return s.light_animal_points()
        raise LumicoreError(f"unknown score board {shorten(score_board)} (expected 'dark' or "
                            "'light')")

    # ---- value semantics and display --------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Reef):
            return NotImplemented
        return self.pieces == other.pieces and self.board == other.board

    def __hash__(self) -> int:
        try:
            return self.__dict__["_hash"]
        except KeyError:
            value = hash((self.board, self.pieces))
            object.__setattr__(self, "_hash", value)
            return value

    def __getstate__(self) -> dict:
        # the cached hash is of this process's salted string hashes: never carried to another
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    def __repr__(self) -> str:
        return (f"<Reef board={self.board.name!r} start={'/'.join(self.start)} "
                f"placements={len(self.pieces) - 1}>")

    def __str__(self) -> str:
        return render.text(self)

    def _repr_svg_(self) -> str:
        return render.svg(self)


class HandPlacement(NamedTuple):
    """Tiles of a hand placed into a reef: the ``reef`` after the ``placements`` (made in this
    order), the ``limestone`` left after paying for them and the tiles ``returned`` to the bag.
    ``HandPlacement(reef, limestone, (), ())`` is the start; :meth:`then` adds a plan's steps.

    >>> from lumicore.reef import load_board
    >>> start = Reef.new(load_board("A"), ("pink", "green"))
    >>> crab, index = Lumino("pink", 3, "crab"), start.board.index
    >>> steps = [(crab, index[(2, 5)], index[(1, 4)]), (Lumino("blue", 2), -1, -1)]
    >>> hand = HandPlacement(start, 2, (), ()).then(steps)
    >>> len(hand.reef.pieces), hand.limestone, [str(t) for t in hand.returned]
    (2, 2, ['blue 2'])
    """

    reef: Reef
    limestone: int
    placements: tuple[Placement, ...]
    returned: tuple[Lumino, ...]

    def then(self, steps: Iterable[tuple[Lumino, int, int]]) -> HandPlacement:
        """This placement followed by ``steps`` as a hand search gives them: ``(lumino, number
        cell index, other cell index)``, the cells -1 for a tile returned to the bag. Each
        placement is checked by the rules (``Reef.place``) and paid from the limestone left."""
        reef, limestone = self.reef, self.limestone
        placements, returned = list(self.placements), list(self.returned)
        cells = reef.board.cells
        for lumino, a, b in steps:
            if a < 0:
                returned.append(lumino)
                continue
            placement = reef.placement_at(lumino, cells[a], cells[b])
            reef = reef.place(placement, limestone)
            limestone -= placement.cost
            placements.append(placement)
        return HandPlacement(reef, limestone, tuple(placements), tuple(returned))


def _stack(arrays, k: int, piece: Piece) -> None:
    """Put piece number ``k`` on top of its two cells in the per-cell lists ``arrays``."""
    heights, tops, colors, numbers, animals = arrays
    lumino = piece.lumino
    color_a, color_b = lumino.colors
    a, b = piece.number_cell, piece.other_cell
    for cell, color in ((a, color_a), (b, color_b)):
        heights[cell] = piece.level
        tops[cell] = k
        colors[cell] = color_code(color)
        numbers[cell] = 0
        animals[cell] = -1
    numbers[a] = lumino.number or 0
    animals[b] = animal_code(lumino.animal)
