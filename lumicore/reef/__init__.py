"""Lumicora reefs: boards, Luminos, reefs, placement rules and scoring (see docs/reef.md).

The best placement of a hand is searched by ``solvers.reef.best_placement``.

>>> from lumicore.reef import Lumino, Reef, load_board
>>> reef = Reef.new(load_board("A"), start=("pink", "green"))
>>> reef = reef.place(reef.placement_at(Lumino("pink", 3), (2, 5), (2, 7)))
>>> reef.coral_score("pink")
3
"""

from __future__ import annotations

from lumicore.reef.board import Board, load_board
from lumicore.reef.reef import Piece, Placement, Reef, Space
from lumicore.reef.tiles import (
    ANIMALS,
    COLORS,
    Lumino,
    StartLumino,
    TileSet,
    format_hand,
    load_tiles,
    parse_hand,
)

__all__ = [
    "ANIMALS",
    "COLORS",
    "Board",
    "load_board",
    "Lumino",
    "StartLumino",
    "TileSet",
    "load_tiles",
    "parse_hand",
    "format_hand",
    "Piece",
    "Placement",
    "Reef",
    "Space",
]
