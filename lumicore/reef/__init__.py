"""Lumicora reefs and the whole game (see docs/reef.md).

Layers, each importing only those above it: ``values`` (colours, animals, ``Lumino``,
``Placement``), ``board``, ``tiles`` (hands, tile sets), ``reference`` (the rules in plain
Python) and ``kernel`` (the Cython kernel's door), ``render``, ``reef`` (``Reef``), ``scoring``,
``io``, ``game`` (the whole game). The best placement of a hand and the best turn are searched by
``solvers.reef``.

>>> from lumicore.reef import Lumino, Reef, load_board
>>> reef = Reef.new(load_board("A"), start=("pink", "green"))
>>> reef = reef.place(reef.placement_at(Lumino("pink", 3), (2, 5), (2, 7)))
>>> reef.coral_score("pink")
3
"""

from __future__ import annotations

from lumicore.reef.board import Board, load_board
from lumicore.reef.game import Game
from lumicore.reef.reef import Reef
from lumicore.reef.tiles import TileSet, format_hand, load_tiles, parse_hand
from lumicore.reef.values import (
    ANIMALS,
    COLORS,
    Lumino,
    Piece,
    Placement,
    Space,
    StartLumino,
)

__all__ = [
    "Game",
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
