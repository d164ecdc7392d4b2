"""Lucia's own bot for ``solvers.arena`` and ``lumicore lucia tournament``, beside the arena's
generic ``random``, ``greedy``, ``flatmc`` and ``mcts``:

- ``best``: the policy of ``lumicore lucia play --policy best``
  (:func:`solvers.lucia.play.best_play`) at every decision. It knows the train, its own hand
  and the cards it has not seen (the deck and the other hands, as a multiset: never the deck's
  order, even in a deal whose order is fixed); it samples ``samples`` (20) orders of them,
  solves each sampled game exactly from every legal play (at most ``max_nodes`` positions per
  play and sample, 20,000) and plays the one that wins the most samples (``lucia play`` takes
  200: ``best:samples=200`` samples as many, at ten times the time). ``time_limit`` caps each
  decision (seconds; default none).

The generic bots win few Lucia deals (a greedy play has no look-ahead, and a random play-out of a
co-operative puzzle almost never reaches the goal), so their tournaments tell little apart;
``best`` looks ahead through the cards still to come, as the players of a deal can.

>>> from lumicore.lucia.deal_game import DealState
>>> from lumicore.game import sample_chance
>>> import numpy as np
>>> state, rng = DealState.new_game(seed=3), np.random.default_rng(0)
>>> while state.is_chance_node():
...     state.apply_action(sample_chance(state, rng))
>>> BestBot(seed=1, samples=4).choose(state) in state.legal_actions()
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from lumicore.checks import SEED_LIMIT, check_seed
from lumicore.errors import LumicoreError
from lumicore.lucia.deal_game import DealState
from solvers.lucia.play import SAMPLE_NODES, best_play, check_sampling

__all__ = ["BOTS", "BestBot", "BEST_SAMPLES"]

BEST_SAMPLES = 20
"""Sampled orders of the unseen cards per decision of the ``best`` bot (``lucia play`` samples
200 by default; a tournament plays many more decisions)."""


class BestBot:
    """The play that wins the most sampled orders of the unseen cards (see the module
    docstring)."""

    name = "best"

    def __init__(self, seed: int = 0, samples: int = BEST_SAMPLES,
                 max_nodes: int = SAMPLE_NODES, time_limit: float | None = None) -> None:
        samples = check_sampling(samples, max_nodes, time_limit)
        self.samples, self.max_nodes, self.time_limit = samples, max_nodes, time_limit
        self.rng = np.random.default_rng(check_seed(seed))

    def choose(self, state: DealState) -> int:
        if not isinstance(state, DealState):
            raise LumicoreError(f"expected a Lucia DealState, got {type(state).__name__}")
        if state.is_terminal() or state.is_chance_node():
            raise LumicoreError("a bot chooses at a decision node only")
        players, mover = state.num_players(), state.mover
        hand = [state.kinds[k] for k in state.hands[mover]]
        others = [len(state.hands[(mover + i) % players]) for i in range(1, players)]
        ranking = best_play(state.train, hand, state.unseen(), players, self.samples,
                            int(self.rng.integers(SEED_LIMIT)), self.time_limit,
                            self.max_nodes, others)
        return state.action_of_play(ranking.best.play)


BOTS: dict[str, Callable[..., Any]] = {"best": BestBot}
"""Lucia's own bots by name, each a factory called as ``factory(seed=..., **options)``
(``solvers.arena`` looks here before its generic bots): ``best``, described above."""
