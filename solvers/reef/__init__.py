"""Lumicora searches: the best placement of a hand (``placement``), the best turn of a game
(``turn``) and the game's bots for the arena (``bots``).

>>> from lumicore.reef import Reef, load_board
>>> reef = Reef.new(load_board("A"), start=("pink", "green"))
>>> best_placement(reef, "pink 3 crab", 0, "coral:pink").value
3.0
"""

from __future__ import annotations

from solvers.reef.placement import (
    OBJECTIVES,
    VISIBLE_WEIGHT,
    Objective,
    PlacementResult,
    as_objective,
    best_placement,
    weighted,
)
from solvers.reef.turn import RankedTurn, TurnResult, best_turn

__all__ = ["VISIBLE_WEIGHT", "OBJECTIVES", "Objective", "weighted", "as_objective",
           "PlacementResult", "best_placement", "best_turn", "TurnResult", "RankedTurn"]
