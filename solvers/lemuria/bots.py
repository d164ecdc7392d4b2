"""Lemuria bots for ``solvers.arena`` and ``lumicore lemuria play``.

``BOTS`` maps a name to a factory called as ``factory(seed=..., **options)``
(``solvers.arena.make_bot`` looks here before its generic bots ``random``, ``flatmc``,
``mcts``); each bot has ``choose(state) -> int`` for a decision node of a
:class:`lumicore.lemuria.Game`:

- ``greedy``: one ply on :meth:`Game.potential` of the acting player: the move that raises it
  most, ending the turn when no move raises it (ties: the first move); at the setup it passes
  the card with the lowest ``vp_match``;
- ``planner``: :func:`solvers.lemuria.turn.best_turn` (the rest of the year planned with the
  CP-SAT model with harvests), following the plan's first turn.

>>> from lumicore.lemuria import Game
>>> game = Game.new(players=2, seed=0)
>>> while game.is_chance_node():
...     _ = game.resolve_chance()
>>> bot = GreedyBot(seed=0)
>>> game.apply_action(bot.choose(game)); game.current_player()
1
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from lumicore.checks import check_seed, check_type
from lumicore.data import shorten
from lumicore.errors import LumicoreError
from lumicore.lemuria.game import Game
from solvers.bots import decision_actions

__all__ = ["BOTS", "GreedyBot", "TURN_CAP", "least_useful"]

TURN_CAP = 40
"""Actions a greedy player takes in one turn before it ends the turn when it may."""


def least_useful(state: Game) -> int:
    """At the setup's pass: the hand card with the lowest ``vp_match`` (the first of them).
    A game at another point is a :class:`LumicoreError` naming ``state``."""
    check_type(state, Game, "state", "a Lemuria Game")
    if state.phase != "pass":
        raise LumicoreError(f"state must be a game at the setup's pass, got one in phase "
                            f"{shorten(state.phase)}")
    moves = state.moves()
    chars = state.cards.characters
    return min(range(len(moves)), key=lambda i: (chars[moves[i][1]].vp_match, i))


def _value_after(state: Game, action: int, player: int) -> float:
    child = state.clone()
    child.apply_action(action)
    return child.potential(player)


class GreedyBot:
    """One ply on the acting player's :meth:`Game.potential` (see the module docstring)."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = check_seed(seed)
        self._turn: tuple[int, int] | None = None
        self._count = 0

    def choose(self, state: Game) -> int:
        decision_actions(state)
        if state.phase == "pass":
            return least_useful(state)
        player = state.current_player()
        moves = state.moves()
        end = moves.index(("end",)) if ("end",) in moves else None
        key = (state.turn, player)
        self._count = self._count + 1 if key == self._turn else 1
        self._turn = key
        if end is not None and self._count > TURN_CAP:
            return end
        now = state.potential(player)
        best, best_value = None, -np.inf
        for action in range(len(moves)):
            if action == end:
                continue
            value = _value_after(state, action, player)
            if value > best_value + 1e-9:
                best, best_value = action, value
        if best is None or (end is not None and best_value <= now + 1e-9):
            return end if end is not None else 0
        return best


def _planner(seed: int = 0, **options: Any) -> Any:
    from solvers.lemuria.turn import PlannerBot

    return PlannerBot(seed=seed, **options)


BOTS: dict[str, Callable[..., Any]] = {"greedy": GreedyBot, "planner": _planner}
"""Lemuria's own bots by name (``greedy``, ``planner``, described above), each a factory called as
``factory(seed=..., **options)``; the arena looks here before its generic bots."""
