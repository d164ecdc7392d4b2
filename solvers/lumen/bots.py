"""Lumen's own bots, found first by ``solvers.arena.make_bot`` (``BOTS``), beside the arena's
generic ``random``, ``greedy``, ``flatmc`` and ``mcts``:

- ``fastmc``: flat Monte Carlo with its play-outs in the kernel's game loop (200 random
  play-outs per action by default; a kernel play-out is over a hundred times cheaper than one
  through the Python ``GameState``).
- ``sheet``: at a selection it takes the selection and bubble with the largest chain gains
  (identical + sequence, +1 for a High Command box, a small penalty for spending a scarce
  selection); elsewhere one ply on :meth:`GameState.evaluate` (the VP lead if the game ended
  now, plus a tenth of the strength lead), chance nodes just after the action taken at their
  expectation when they have few outcomes (:class:`GreedyBot`).

:class:`RandomBot` and :class:`GreedyBot` are the plain policies it builds on. Each bot is
seeded and deterministic (ties broken by the seeded generator).

>>> from lumicore.game import play_randomly
>>> from lumicore.lumen.game import GameState
>>> bot = SheetBot(seed=1)
>>> state = play_randomly(GameState.new_game(), seed=0, max_steps=10)
>>> while state.is_chance_node(): state.apply_action(0)
>>> bot.choose(state) in state.legal_actions()
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from lumicore.checks import check_index, check_int, check_type
from lumicore.errors import LumicoreError
from lumicore.game import GameState
from lumicore.lumen import kernel
from lumicore.lumen.dice import SELECTIONS, selections
from lumicore.lumen.game import GameState as LumenState
from lumicore.lumen.game import check_seed

__all__ = ["RandomBot", "GreedyBot", "SheetBot", "FastMCBot", "BOTS", "make_policy",
           "chance_value"]

MAX_OUTCOMES = 24
"""Chance nodes with at most this many outcomes are valued by their expectation."""


def _check(state: object) -> LumenState:
    if not isinstance(state, LumenState):
        raise LumicoreError(f"expected a Lumen GameState, got {type(state).__name__}")
    if state.is_terminal() or state.is_chance_node():
        raise LumicoreError("a bot chooses at a decision node only")
    return state


class RandomBot:
    """A uniformly random legal action."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(check_seed(seed))

    def choose(self, state: GameState) -> int:
        actions = _check(state).legal_actions()
        return int(actions[int(self.rng.integers(len(actions)))])


def chance_value(state: LumenState, player: int, depth: int = 1) -> float:
    """``player``'s :meth:`~LumenState.evaluate` of ``state``, with up to ``depth`` chance
    nodes at its front taken at their expectation (when they have few outcomes)."""
    try:
        if player < 0 or depth < 0:  # a value's [-1] is the other player's; no depth limit
            raise IndexError(player)
        if depth and state.is_chance_node():
            outcomes = state.chance_outcomes()
            if len(outcomes) <= MAX_OUTCOMES:
                total = 0.0
                for a, p in outcomes:
                    child = state.clone()
                    child.apply_action(a)
                    total += p * chance_value(child, player, depth - 1)
                return total
        return state.evaluate()[player]
    except (AttributeError, TypeError, IndexError):  # checked only here: every ply of the bots
        check_type(state, LumenState, "state", "a Lumen GameState")
        check_index(player, 2, "player", "a player index")
        check_int(depth, "depth", 0)
        raise


class GreedyBot:
    """One ply on ``evaluate()`` (see the module docstring)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(check_seed(seed))

    def _best(self, state: LumenState, actions: list[int]) -> int:
        player = state.current_player()
        best, value = [], -np.inf
        for a in actions:
            child = state.clone()
            child.apply_action(a)
            v = chance_value(child, player)
            if v > value + 1e-12:
                best, value = [a], v
            elif v > value - 1e-12:
                best.append(a)
        return int(best[int(self.rng.integers(len(best)))])

    def choose(self, state: GameState) -> int:
        state = _check(state)
        return self._best(state, state.legal_actions())


def sheet_scores(state: LumenState) -> list[float]:
    """The ``sheet`` bot's score of every action of a selection node (higher is better)."""
    p = state.current_player()
    sheet = state.sheets[p]
    values = selections(*state.dice)
    limits = state.board.limits
    threshold = sheet.layout.high_command.threshold
    table: dict[int, dict[int, tuple[int, int]]] = {}
    scores = []
    for move in state.moves():
        if move[0] != "choose":
            scores.append(0.0)
            continue
        _, s, cell = move
        value = values[SELECTIONS[s]]
        if value not in table:
            gains, cells = kernel.gains_all(sheet, [value])
            table[value] = {int(c): (int(g[0][0]), int(g[0][1])) for g, c in zip(gains, cells,
                                                                                  strict=True)}
        ident, seq = table[value][cell]
        left = limits[SELECTIONS[s]] - state.uses[p][s]
        scores.append(ident + seq + (value >= threshold) - 0.5 / left)
    return scores


class SheetBot(GreedyBot):
    """Chain gains at a selection, ``greedy`` elsewhere (see the module docstring)."""

    def choose(self, state: GameState) -> int:
        state = _check(state)
        if state.phase != "choose":
            return self._best(state, state.legal_actions())
        scores = sheet_scores(state)
        top = max(scores)
        best = [a for a, s in enumerate(scores) if s >= top - 1e-12]
        return int(best[int(self.rng.integers(len(best)))])


class FastMCBot:
    """Flat Monte Carlo with the play-outs in the kernel's game loop
    (:func:`lumicore.lumen.kernel.playouts`, uniformly random choices): every legal action is
    scored by ``playouts`` play-outs of the position after it (the same seeds for every action)
    and the most wins is taken."""

    def __init__(self, seed: int = 0, playouts: int = 200) -> None:
        playouts = check_int(playouts, "playouts", 1, what="a positive integer")
        self.rng = np.random.default_rng(check_seed(seed))
        self.playouts = playouts

    def choose(self, state: GameState) -> int:
        state = _check(state)
        player, actions = state.current_player(), state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        base = int(self.rng.integers(2**62))
        best, value = [], -1.0
        for a in actions:
            child = state.clone()
            child.apply_action(a)
            if child.is_terminal():
                v = child.returns()[player]
            else:
                v = kernel.playouts(child, self.playouts, base)[player] / self.playouts
            if v > value + 1e-12:
                best, value = [a], v
            elif v > value - 1e-12:
                best.append(a)
        return int(best[int(self.rng.integers(len(best)))])


BOTS: dict[str, Callable[..., Any]] = {"sheet": SheetBot, "fastmc": FastMCBot}
"""Lumen's own bots by name, each made as ``factory(seed=...)``."""


def make_policy(name: str, seed: int = 0) -> Any:
    """A bot by name or spec (``"mcts:iterations=200"``): Lumen's own (:data:`BOTS`) or the
    arena's generic ones."""
    from solvers.arena import make_bot, parse_bot_spec

    if not isinstance(name, str):
        raise LumicoreError(f"a bot name is a string, got {name!r:.80}")
    bot, options = parse_bot_spec(name)
    return make_bot(bot, "lumen", seed=seed, **options)
