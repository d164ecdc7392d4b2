"""Lumicora bots for ``solvers.arena`` and ``lumicore reef play`` / ``tournament``.

``BOTS`` maps a name to a factory called as ``factory(seed=..., **options)`` (the arena looks here
before its generic bots); each bot has ``choose(state) -> int`` for a decision node of a
:class:`lumicore.reef.game.Game`:

- ``greedy``: :func:`solvers.reef.turn.best_turn` (exact placements, the game's evaluation),
  taking the best decision (ties: the first), then following its placement plan;
- ``flatmc``: flat Monte Carlo over the ``candidates`` best decisions of ``best_turn`` (4): each
  is played on a copy, followed by ``playouts`` (6) play-outs of ``cutoff`` (10) decisions with
  chance sampled (``policy`` ``"random"``, or ``"greedy"``: every player as the greedy bot),
  scored by ``Game.evaluate``; the best mean wins;
- ``mcts``: the arena's UCT (:class:`solvers.bots.MCTSBot`) with a reef budget: ``iterations``
  (48) and play-outs cut after ``cutoff`` (6) decisions and scored by ``Game.evaluate``.

``random`` is the arena's generic bot.

>>> from lumicore.reef.game import Game
>>> game = Game.new(players=2, seed=0)
>>> bot = make_bot("greedy", seed=0)
>>> action = bot.choose(game); str(game.decisions()[action]).startswith("orient")
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from lumicore.errors import LumicoreError
from lumicore.reef.game import Game
from solvers.bots import MCTSBot, check_seed, rollout
from solvers.limits import INTERRUPTED
from solvers.reef.turn import best_turn

__all__ = ["BOTS", "GreedyBot", "FlatMCBot", "make_bot", "reef_mcts"]


def _check(state: object) -> Game:
    if not isinstance(state, Game) or state.is_chance_node() or state.is_terminal():
        raise LumicoreError("a reef bot chooses at a decision node of a lumicore.reef.game.Game")
    return state


def _positive_int(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise LumicoreError(f"{name} must be a positive integer, got {value!r:.80}")
    return value


class GreedyBot:
    """The best decision of :func:`best_turn` (see the module docstring)."""

    name = "greedy"

    def __init__(self, seed: int = 0, objective: str = "margin") -> None:
        self.seed = check_seed(seed)
        self.objective = objective

    def ranked(self, game: Game) -> list:
        """The decisions weighed by ``best_turn``, best first (other phases: as listed)."""
        if game.phase in ("turn", "place", "score"):
            result = best_turn(game, self.objective)
            if result.status == INTERRUPTED:  # Ctrl-C: the bot has no answer, the game stops
                raise KeyboardInterrupt
            return [r.decision for r in result.ranked]
        if game.phase == "swap":       # reached only by other bots' choices: stop swapping
            return list(reversed(game.decisions()))
        return list(game.decisions())

    def choose(self, state: Game) -> int:
        game = _check(state)
        best = self.ranked(game)[0]
        return game.decisions().index(best)


class FlatMCBot(GreedyBot):
    """Flat Monte Carlo over the best candidates of ``best_turn`` (see the module docstring)."""

    name = "flatmc"

    def __init__(self, seed: int = 0, candidates: int = 4, playouts: int = 6, cutoff: int = 10,
                 objective: str = "margin", policy: str = "random") -> None:
        super().__init__(seed, objective)
        self.candidates = _positive_int(candidates, "candidates")
        self.playouts = _positive_int(playouts, "playouts")
        self.cutoff = _positive_int(cutoff, "cutoff")
        if policy not in ("random", "greedy"):
            raise LumicoreError(f"policy must be 'random' or 'greedy', got {policy!r:.80}")
        self.policy = None if policy == "random" else GreedyBot(seed, objective).choose
        self.rng = np.random.default_rng(self.seed)

    def choose(self, state: Game) -> int:
        game = _check(state)
        options = self.ranked(game)[: self.candidates]
        if len(options) == 1 or game.phase == "place":
            return game.decisions().index(options[0])
        me = game.current_player()
        best, best_value = options[0], -1.0
        for decision in options:
            total = 0.0
            for _ in range(self.playouts):
                probe = game.clone()
                probe.auto_chance = False
                probe.apply_action(probe.decisions().index(decision))
                total += rollout(probe, self.rng, policy=self.policy, cutoff=self.cutoff)[me]
            if total / self.playouts > best_value + 1e-12:
                best, best_value = decision, total / self.playouts
        return game.decisions().index(best)


def reef_mcts(seed: int = 0, iterations: int = 48, cutoff: int = 6, **options: Any) -> MCTSBot:
    """The arena's MCTS with the reef's budget (see the module docstring)."""
    bot = MCTSBot(seed=seed, iterations=iterations, cutoff=cutoff, **options)
    bot.name = "mcts"
    return bot


BOTS: dict[str, Callable[..., Any]] = {
    "greedy": GreedyBot,
    "flatmc": FlatMCBot,
    "mcts": reef_mcts,
}


def make_bot(name: str, seed: int = 0, **options: Any):
    """The reef bot called ``name`` (``BOTS``), seeded."""
    if name not in BOTS:
        raise LumicoreError(f"unknown reef bot {name!r:.80} (known: {', '.join(sorted(BOTS))})")
    return BOTS[name](seed=seed, **options)
