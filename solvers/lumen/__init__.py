"""Planning for Lumen: The Lost World.

- :func:`best_choice`: every choice of the player to move ranked by its chance to win (exact
  expectimax near the end, Monte Carlo play-outs with intervals before);
- :func:`win_probability`: each player's chance to win when both play a bot;
- :mod:`solvers.lumen.bots`: Lumen's own bots (``random``, ``greedy``, ``sheet``).
"""

from __future__ import annotations

from solvers.lumen.odds import WinProbability, win_probability
from solvers.lumen.planner import Choice, ChoiceResult, best_choice

__all__ = ["best_choice", "Choice", "ChoiceResult", "win_probability", "WinProbability"]
