"""The decisions of a Lumicora game, as small values that print readably.

A game (:class:`lumicore.reef.game.Game`) lists its legal decisions at every decision node; each
prints as one line, and that line is what a game record stores.

>>> from lumicore.reef.values import Lumino
>>> str(Turn(Lumino("pink", 6), "A", (), 6))
'put pink 6 into the Atoll; A: take 6 limestone'
>>> str(Turn(Lumino("pink", 6), "C", (Lumino("blue", 2), Lumino("blue", 5))))
'put pink 6 into the Atoll; C: take blue 2, blue 5 from the Atoll'
>>> str(Score("pink", 11))
'coral scoring: pink (+11 VP)'
"""

from __future__ import annotations

from dataclasses import dataclass

from lumicore.reef.values import Lumino, Placement, StartLumino

__all__ = ["Orient", "Spend", "Pick", "SwapDone", "Turn", "Place", "Return", "Score", "Skip",
           "Decision"]


def _tiles(tiles: tuple[Lumino, ...]) -> str:
    return ", ".join(str(t) for t in tiles)


@dataclass(frozen=True)
class Orient:
    """Setup: lay the dealt starting Lumino with ``start.color_a`` on the left starting space."""

    start: StartLumino

    def __str__(self) -> str:
        return f"orient the starting Lumino {self.start.color_a}/{self.start.color_b}"


@dataclass(frozen=True)
class Spend:
    """Start of a turn: spend a jellyfish to swap tiles of the ``"atoll"`` or of the player's
    ``"display"`` (chosen next, one :class:`Pick` at a time, then :class:`SwapDone`)."""

    where: str

    def __str__(self) -> str:
        place = "the Atoll" if self.where == "atoll" else "your display"
        return f"spend a jellyfish to swap tiles of {place}"


@dataclass(frozen=True)
class Pick:
    """Choose one more tile to swap (tiles are picked in the order of the tile kinds, so each
    set of tiles has one way to be picked)."""

    lumino: Lumino

    def __str__(self) -> str:
        return f"swap {self.lumino}"


@dataclass(frozen=True)
class SwapDone:
    """The tiles picked go back to the bag and as many are drawn in their place."""

    def __str__(self) -> str:
        return "back to the bag with them and draw as many"


@dataclass(frozen=True)
class Turn:
    """Steps 1 and 2 of a turn: ``put`` (a display tile, None if the display is empty) into the
    Atoll, then action ``"A"`` (``limestone`` markers), ``"B"`` (``take`` one display tile) or
    ``"C"`` (``take`` 1-3 Atoll tiles of one other colour)."""

    put: Lumino | None
    action: str
    take: tuple[Lumino, ...] = ()
    limestone: int = 0

    def __str__(self) -> str:
        first = f"put {self.put} into the Atoll" if self.put else "nothing to put into the Atoll"
        if self.action == "A":
            return f"{first}; A: take {self.limestone} limestone"
        if self.action == "B":
            return f"{first}; B: take {_tiles(self.take)} from your display"
        return f"{first}; C: take {_tiles(self.take)} from the Atoll"


@dataclass(frozen=True)
class Place:
    """Step 4: place a tile from the hand."""

    placement: Placement

    def __str__(self) -> str:
        p = self.placement
        return (f"place {p.lumino}: number on {p.number_cell}, other half on {p.other_cell} "
                f"(level {p.level}, {p.cost} limestone)")


@dataclass(frozen=True)
class Return:
    """Step 4: return a tile from the hand to the bag (-1 VP)."""

    lumino: Lumino

    def __str__(self) -> str:
        return f"return {self.lumino} to the bag (-1 VP)"


@dataclass(frozen=True)
class Score:
    """Scoring phase: flip the ``color`` scoring tile and score it (``vp`` VP now)."""

    color: str
    vp: int

    def __str__(self) -> str:
        return f"coral scoring: {self.color} (+{self.vp} VP)"


@dataclass(frozen=True)
class Skip:
    """Scoring phase: no coral scoring this time."""

    def __str__(self) -> str:
        return "skip the coral scoring"


Decision = Orient | Spend | Pick | SwapDone | Turn | Place | Return | Score | Skip
"""Any decision of a Lumicora game, as :meth:`lumicore.reef.game.Game.decisions` lists them."""
