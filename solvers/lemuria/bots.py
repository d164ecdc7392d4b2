"""Lemuria bots for ``solvers.arena`` and ``lumicore lemuria play``.

``BOTS`` maps a name to a factory called as ``factory(seed=..., **options)``; each bot has
``choose(state) -> int`` for a decision node of a :class:`lumicore.lemuria.Game`:

- ``random``: a uniformly random legal action (seeded);
- ``greedy``: one ply on :meth:`Game.potential` of the acting player: the move that raises it
  most, ending the turn when no move raises it (ties: the first move);
- ``planner``: :func:`solvers.lemuria.turn.best_turn` (the rest of the year planned with the
  CP-SAT model with harvests), following the plan's first turn.

>>> from lumicore.lemuria import Game
>>> game = Game.new(players=2, seed=0)
>>> while game.is_chance_node():
...     _ = game.resolve_chance()
>>> bot = make_bot("greedy", seed=0)
>>> game.apply_action(bot.choose(game)); game.current_player()
1
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from lumicore.errors import LumicoreError
from lumicore.lemuria.game import Game

__all__ = ["BOTS", "RandomBot", "GreedyBot", "make_bot", "TURN_CAP"]

TURN_CAP = 40
"""Actions a greedy player takes in one turn before it ends the turn when it may."""


class RandomBot:
    """A uniformly random legal action."""

    def __init__(self, seed: int = 0, **_options: Any) -> None:
        self.rng = np.random.default_rng(seed)

    def choose(self, state: Game) -> int:
        actions = state.legal_actions()
        return int(actions[self.rng.integers(len(actions))])


def _value_after(state: Game, action: int, player: int) -> float:
    child = state.clone()
    child.apply_action(action)
    return child.potential(player)


class GreedyBot:
    """One ply on the acting player's :meth:`Game.potential` (see the module docstring)."""

    def __init__(self, seed: int = 0, **_options: Any) -> None:
        self.seed = seed
        self._turn: tuple[int, int] | None = None
        self._count = 0

    def choose(self, state: Game) -> int:
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


BOTS: dict[str, Callable[..., Any]] = {"random": RandomBot, "greedy": GreedyBot,
                                       "planner": _planner}


def make_bot(name: str, seed: int = 0, **options: Any) -> Any:
    """A bot of :data:`BOTS` by name (a one-line error for an unknown name)."""
    if name not in BOTS:
        raise LumicoreError(f"unknown Lemuria bot {name[:40]!r} (one of {', '.join(BOTS)})")
    return BOTS[name](seed=seed, **options)
