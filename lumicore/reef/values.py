"""The small value types of Lumicora: colours, animals, Luminos and placements.

This module imports nothing else of ``lumicore.reef``; every other reef module builds on it.

Colour and animal codes are the index in :data:`COLORS` / :data:`ANIMALS` (the Cython kernel and
the bitboards use the codes).

A normal Lumino is one colour; one half shows a number 1..6 (the *number half*), the other half an
animal or nothing. Its notation is ``"<colour> [<number>] [<animal>]"``, e.g. ``"pink 3 crab"``
or ``"blue 5"``. ``fish`` (the fish on the back, used only to sort the tiles by player count) is
**not** part of equality or hashing.

The starting Lumino is a :class:`StartLumino` ``(color_a, color_b)``: two differently coloured
halves, no number, no animal.

>>> lum = Lumino.parse("pink 3 crab")
>>> lum.color, lum.number, lum.animal
('pink', 3, 'crab')
>>> Placement(lum, (2, 5), (1, 4), level=1, cost=0).lumino
Lumino('pink 3 crab')
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lumicore.checks import is_integer
from lumicore.data import shorten
from lumicore.errors import LumicoreError, NotationError

__all__ = ["COLORS", "ANIMALS", "Cell", "color_code", "animal_code", "Lumino", "StartLumino",
           "Piece", "Placement", "Space"]

Cell = tuple[int, int]
"""A space as ``(row, column)`` in the doubled-coordinate drawing of a board."""

COLORS: tuple[str, ...] = ("pink", "green", "blue", "yellow")
"""The Lumino colours; a colour's code is its index here."""
ANIMALS: tuple[str, ...] = ("shellfish", "crab", "seahorse", "starfish")
"""The animals a Lumino's half may show; an animal's code is its index here."""

def color_code(color: str) -> int:
    """The code of a colour name (its index in :data:`COLORS`).

    >>> color_code("blue")
    2
    """
    try:
        return COLORS.index(color)
    except ValueError:
        raise NotationError(f"unknown colour {shorten(color)} (expected one of "
                            f"{', '.join(COLORS)})") from None


def animal_code(animal: str | None) -> int:
    """The code of an animal name (its index in :data:`ANIMALS`), -1 for ``None``.

    >>> animal_code("crab"), animal_code(None)
    (1, -1)
    """
    if animal is None:
        return -1
    try:
        return ANIMALS.index(animal)
    except ValueError:
        raise NotationError(f"unknown animal {shorten(animal)} (expected one of "
                            f"{', '.join(ANIMALS)})") from None


@dataclass(frozen=True)
class Lumino:
    """A one-colour Lumino: ``color``, the ``number`` on one half (1..6 or None), the ``animal`` on
    the other half (or None). ``fish`` (0, 3 or 4 on the default backs) is ignored by ``==``.

    >>> Lumino("blue", 5) == Lumino("blue", 5, fish=3)
    True
    >>> Lumino("red", 2)
    Traceback (most recent call last):
    ...
    lumicore.errors.NotationError: unknown colour 'red' (expected one of pink, green, blue, yellow)
    """

    color: str
    number: int | None = None
    animal: str | None = None
    fish: int = field(default=0, compare=False)

    def __post_init__(self) -> None:
        color_code(self.color)
        animal_code(self.animal)
        if self.number is not None and (not is_integer(self.number)
                                        or not 1 <= self.number <= 6):
            raise NotationError(f"bad number {shorten(self.number)} on a Lumino (expected 1..6 "
                                "or None)")
        if not is_integer(self.fish) or self.fish < 0:
            raise NotationError(f"bad fish count {shorten(self.fish)} (expected an integer >= 0)")
        # plain ints, so that a numpy integer given leaks into no notation, record or JSON
        if self.number is not None:
            object.__setattr__(self, "number", int(self.number))
        object.__setattr__(self, "fish", int(self.fish))

    @property
    def colors(self) -> tuple[str, str]:
        """The colours of the (number half, other half)."""
        return (self.color, self.color)

    @classmethod
    def parse(cls, text: str) -> Lumino:
        """Read ``"<colour> [<number>] [<animal>]"`` (case-insensitive); NotationError names the
        bad token.

        >>> Lumino.parse("Yellow seahorse")
        Lumino('yellow seahorse')
        >>> Lumino.parse("pink 7")
        Traceback (most recent call last):
        ...
        lumicore.errors.NotationError: bad token '7' in Lumino 'pink 7': numbers are 1..6
        """
        if not isinstance(text, str):
            raise NotationError(f"a Lumino is written as text, got {shorten(text)}")
        tokens = text.lower().split()
        if not tokens:
            raise NotationError(
                f"empty Lumino {shorten(text)}: expected '<colour> [<number>] [<animal>]'")
        color, *rest = tokens
        if color not in COLORS:
            raise NotationError(
                f"bad token {shorten(color, 30)} in Lumino {shorten(text)}: unknown colour "
                f"(expected one of {', '.join(COLORS)})"
            )
        number: int | None = None
        animal: str | None = None
        if rest and rest[0].isascii() and rest[0].isdigit():
            token = rest.pop(0)
            if len(token) > 1 or not 1 <= int(token) <= 6:  # int() refuses 4300+ digits
                raise NotationError(
                    f"bad token {shorten(token, 30)} in Lumino {shorten(text)}: numbers are 1..6")
            number = int(token)
        if rest:
            token = rest.pop(0)
            if token not in ANIMALS:
                raise NotationError(
                    f"bad token {shorten(token, 30)} in Lumino {shorten(text)}: expected an animal "
                    f"({', '.join(ANIMALS)})" + ("" if number else " or a number 1..6")
                )
            animal = token
        if rest:
            raise NotationError(
                f"bad token {shorten(rest[0], 30)} in Lumino {shorten(text)}: nothing may follow")
        return cls(color, number, animal)

    def __str__(self) -> str:
        parts = [self.color]
        if self.number is not None:
            parts.append(str(self.number))
        if self.animal is not None:
            parts.append(self.animal)
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Lumino({str(self)!r})"


@dataclass(frozen=True)
class StartLumino:
    """A starting Lumino: two halves of different colours, no number, no animal.

    In a reef its ``color_a`` half is on the piece's ``number_cell`` and ``color_b`` on its
    ``other_cell``. ``StartLumino("pink", "green") != StartLumino("green", "pink")``: the order is
    the orientation on the board.

    >>> StartLumino("pink", "green").colors
    ('pink', 'green')
    """

    color_a: str
    color_b: str
    number = None
    animal = None

    def __post_init__(self) -> None:
        color_code(self.color_a)
        color_code(self.color_b)
        if self.color_a == self.color_b:
            raise LumicoreError(
                f"a starting Lumino has two different colours, got {shorten(self.color_a)} twice"
            )

    @property
    def colors(self) -> tuple[str, str]:
        """The colours of the (first, second) half."""
        return (self.color_a, self.color_b)

    def __str__(self) -> str:
        return f"start {self.color_a}/{self.color_b}"


@dataclass(frozen=True)
class Piece:
    """A Lumino in a reef: its two cells (indices) and its level."""

    lumino: Lumino | StartLumino
    number_cell: int
    other_cell: int
    level: int


@dataclass(frozen=True)
class Placement:
    """A legal way to place ``lumino``: its number half on ``number_cell``, its other half on
    ``other_cell`` (``(row, column)``), in ``level``, costing ``cost`` limestone markers."""

    lumino: Lumino
    number_cell: Cell
    other_cell: Cell
    level: int
    cost: int


@dataclass(frozen=True)
class Space:
    """What is visible on a covered cell: the top Lumino's half there."""

    color: str
    number: int | None
    animal: str | None
    level: int
    piece: int
