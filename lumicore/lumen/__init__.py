"""Lumen: The Lost World: the command sheet, dice selections, scenario maps, units and a whole
two-player game as a :class:`lumicore.game.GameState`.

Planners and bots live in :mod:`solvers.lumen` (``best_choice``, ``win_probability``).

>>> from lumicore.lumen import Sheet, selections
>>> sheet = Sheet.new().place((0, 0), selections(3, 3)["sum"])
>>> sheet.gains((0, 1), 6)
Gains(identical=2, sequence=0)
"""

from __future__ import annotations

from lumicore.lumen.dice import ROLLS, SELECTIONS, selections
from lumicore.lumen.map import SEASONS, Map, load_map
from lumicore.lumen.sheet import Gains, HighCommand, Layout, Sheet, load_layout
from lumicore.lumen.units import Board, UnitKind, load_board

__all__ = ["ROLLS", "SELECTIONS", "selections", "SEASONS", "Map", "load_map", "Gains",
           "HighCommand", "Layout", "Sheet", "load_layout", "Board", "UnitKind", "load_board"]
