"""``win_probability``: the chance that each player wins from a position when both play a bot.

>>> from lumicore.lumen.game import GameState
>>> result = win_probability(GameState.new_game(), samples=4, bot="random", seed=2)
>>> result.samples, len(result.wins), round(sum(result.probabilities) + result.nobody, 9)
(4, 2, 1.0)
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from lumicore.checks import check_int
from lumicore.errors import LumicoreError
from lumicore.game import sample_chance
from lumicore.lumen.game import GameState, check_seed
from solvers.ctrl_c import check, noting
from solvers.limits import (
    DONE,
    INTERRUPTED,
    LIMIT,
    REASON_INTERRUPTED,
    REASON_TIME,
    check_limits,
)
from solvers.lumen.bots import make_policy
from solvers.progress import check_progress
from solvers.progress import progress as progress_bar
from solvers.stats import wilson

__all__ = ["WinProbability", "win_probability"]


@dataclass(frozen=True)
class WinProbability:
    """Games won by each player out of ``samples`` (and won by nobody), with 95% Wilson
    intervals; ``status`` ``done`` (all samples played: an estimate, not a proof), ``limit``
    (``reason`` ``time``: the time limit stopped it after ``samples`` games) or
    ``interrupted``."""

    wins: tuple[int, int]
    nobody: int
    samples: int
    bot: str
    status: str = DONE
    reason: str | None = None
    elapsed: float = 0.0

    @property
    def probabilities(self) -> tuple[float, float]:
        n = max(self.samples, 1)
        return (self.wins[0] / n, self.wins[1] / n)

    @property
    def intervals(self) -> tuple[tuple[float, float], tuple[float, float]]:
        return (wilson(self.wins[0], self.samples), wilson(self.wins[1], self.samples))

    def to_dict(self) -> dict:
        return {"bot": self.bot, "samples": self.samples, "wins": list(self.wins),
                "nobody": self.nobody, "probabilities": list(self.probabilities),
                "intervals": [list(i) for i in self.intervals], "status": self.status,
                "reason": self.reason, "elapsed": round(self.elapsed, 3)}

    def __str__(self) -> str:
        parts = [f"player {p + 1}: {self.probabilities[p]:.3f} "
                 f"[{self.intervals[p][0]:.3f}, {self.intervals[p][1]:.3f}]" for p in (0, 1)]
        return (f"{'; '.join(parts)}; nobody {self.nobody}/{self.samples} "
                f"({self.bot} vs {self.bot}, {self.status})")


def _play_out(state: GameState, bots: list, rng: np.random.Generator) -> int | None:
    """Play ``state`` to its end in place; the winner (None: nobody)."""
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(bots[state.current_player()].choose(state))
    return state.winner()


@noting()
def win_probability(state: GameState, samples: int = 100, bot: str = "sheet",
                    seed: int = 0, progress: bool | None = False,
                    time_limit: float | None = None) -> WinProbability:
    """Play ``samples`` games from ``state`` (a clone) with ``bot`` for both players, chance
    drawn by its probability (game ``i`` seeded ``[seed, i]``), and count the winners.
    ``time_limit`` (seconds) stops it after the game under way when the time is up, with the
    games played so far (status ``limit``). ``progress`` shows a bar (None: on a terminal
    only)."""
    if not isinstance(state, GameState):
        raise LumicoreError(f"expected a Lumen GameState, got {type(state).__name__}")
    samples = check_int(samples, "samples", 1, what="a positive integer")
    seed = check_seed(seed)
    check_limits(None, time_limit)
    check_progress(progress)
    start = time.perf_counter()
    deadline = math.inf if time_limit is None else start + time_limit
    bots = [make_policy(bot, seed=seed), make_policy(bot, seed=seed + 1 if seed < 2**63 - 1 else 0)]
    wins, nobody, played = [0, 0], 0, 0
    status, reason = DONE, None
    try:
        with progress_bar(samples, "games", "game", enabled=progress) as bar:
            for i in range(samples):
                check()
                w = _play_out(state.clone(), bots, np.random.default_rng([seed, i]))
                if w is None:
                    nobody += 1
                else:
                    wins[w] += 1
                played += 1
                bar.update()
                if time.perf_counter() >= deadline and played < samples:
                    status, reason = LIMIT, REASON_TIME
                    break
    except KeyboardInterrupt:
        status, reason = INTERRUPTED, REASON_INTERRUPTED
    return WinProbability((wins[0], wins[1]), nobody, played, bot, status, reason,
                          time.perf_counter() - start)
