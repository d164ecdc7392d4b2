"""``best_choice``: every choice of the player to move, ranked by its chance to win.

Two methods answer, and the result says which (``method``):

- ``"exact"``: an expectimax over the whole rest of the game (every dice roll among the 21,
  every bag and token draw with its probability; each player maximises their own result, ties
  towards the lower result of the other). It is exact, and answers once the tree left fits in
  ``max_nodes`` (positions met again are looked up, not searched again) within half the time
  limit. It is tried in the last round only (:data:`EXACT_ROUNDS`); in practice it finishes
  from the resolution steps of the last round on.
- ``"monte carlo"``: otherwise, each choice is followed by play-outs to the end, in turn,
  until ``time_limit``; the value is the share of play-outs won, with a 95% Wilson interval.
  ``playout="kernel"`` (the default) plays uniformly random play-outs in the kernel's game loop
  (:func:`lumicore.lumen.kernel.playouts`, :data:`KERNEL_BATCH` per choice and turn); any bot
  name (``"random"``, ``"sheet"``, ...) plays them through the Python ``GameState`` with that
  bot for both players, chance drawn by its probability. Play-out ``i`` of every choice uses
  the same seed (common random numbers).

>>> from lumicore.game import play_randomly
>>> from lumicore.lumen.game import GameState
>>> state = play_randomly(GameState.new_game(), seed=0, max_steps=12)
>>> while state.is_chance_node(): state.apply_action(0)
>>> result = best_choice(state, time_limit=0.2, seed=1)
>>> result.method, len(result.choices) == len(state.legal_actions())
('monte carlo', True)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from tqdm import tqdm

from lumicore.checks import check_int, check_real, check_type
from lumicore.errors import LumicoreError
from lumicore.game import sample_chance
from lumicore.lumen import kernel
from lumicore.lumen.game import GameState, check_seed
from solvers.ctrl_c import check, noting
from solvers.limits import (
    FEASIBLE,
    INTERRUPTED,
    LIMIT,
    OPTIMAL,
    REASON_INTERRUPTED,
    REASON_TIME,
    check_limits,
)
from solvers.lumen.bots import make_policy
from solvers.progress import check_callback, check_progress
from solvers.progress import progress as progress_bar
from solvers.stats import wilson

__all__ = ["Choice", "ChoiceResult", "best_choice", "exact_values", "DEFAULT_TIME_LIMIT",
           "DEFAULT_MAX_NODES"]

DEFAULT_TIME_LIMIT = 5.0
"""Seconds ``best_choice`` spends by default."""
DEFAULT_MAX_NODES = 20_000
"""Positions the exact search may visit before Monte Carlo answers instead."""
KERNEL_BATCH = 64
"""Play-outs per choice and turn when the kernel plays them (``playout="kernel"``; without a
time limit the last turn plays what is left of ``min_samples``)."""
EXACT_ROUNDS = 1
"""The exact search is tried in the last this many rounds only (earlier trees are far too big
for it to finish)."""


@dataclass(frozen=True)
class Choice:
    """One action of the player to move: its ``value`` (chance to win, 0..1), the interval
    ``low..high`` (equal to the value when exact; -inf..inf, ``null`` in JSON, where fewer
    than two play-outs give no spread) and the play-outs behind it (0 when exact)."""

    action: int
    move: str
    value: float
    low: float
    high: float
    samples: int = 0

    def to_dict(self) -> dict:
        return {"action": self.action, "move": self.move, "value": self.value,
                "low": _finite(self.low), "high": _finite(self.high), "samples": self.samples}


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


@dataclass(frozen=True)
class ChoiceResult:
    """Choices best first; ``plan`` is the best action's name; ``status`` is ``optimal``
    (exact), ``feasible`` (Monte Carlo), ``interrupted`` (Ctrl-C: the play-outs so far) or
    ``limit`` (no play-out finished)."""

    player: int
    method: str
    status: str
    choices: list[Choice] = field(default_factory=list)
    reason: str | None = None
    nodes: int = 0
    elapsed: float = 0.0

    @property
    def best(self) -> Choice | None:
        return self.choices[0] if self.choices else None

    @property
    def plan(self) -> list[str]:
        """The best action's name ([] when no choice was valued: no play-out before the
        limit)."""
        return [self.choices[0].move] if self.choices and self._valued(self.choices[0]) else []

    @property
    def value(self) -> float | None:
        return self.choices[0].value if self.plan else None

    def _valued(self, choice: Choice) -> bool:
        return choice.samples > 0 or self.method != "monte carlo"

    def to_dict(self) -> dict:
        """As JSON; a choice no play-out valued has ``value`` null (its text shows '-')."""
        choices = [{**c.to_dict(), **({} if self._valued(c) else {"value": None})}
                   for c in self.choices]
        return {"player": self.player + 1, "method": self.method, "status": self.status,
                "reason": self.reason, "nodes": self.nodes, "elapsed": round(self.elapsed, 3),
                "plan": self.plan, "choices": choices}

    def __str__(self) -> str:
        head = (f"player {self.player + 1} to move: {self.method}, {self.status}"
                + (f" ({self.reason})" if self.reason else "")
                + f", {self.nodes} nodes, {self.elapsed:.2f} s")
        lines = [head]
        for c in self.choices:
            if c.samples == 0 and self.method == "monte carlo":  # the limit came first
                lines.append(f"  {'-':>6}  (no play-out before the limit)  {c.move}")
                continue
            interval = "" if c.samples == 0 else f"  [{c.low:.3f}, {c.high:.3f}] n={c.samples}"
            lines.append(f"  {c.value:6.3f}{interval}  {c.move}")
        return "\n".join(lines)


class _OutOfBudget(Exception):
    pass


def exact_values(state: GameState, max_nodes: int = DEFAULT_MAX_NODES,
                 deadline: float | None = None,
                 progress: Callable[[int], object] | None = None
                 ) -> tuple[list[list[float]], int] | None:
    """Every action's exact expected returns ``[[r0, r1], ...]`` and the nodes visited, or None
    when the tree does not fit in ``max_nodes`` (or the clock passes ``deadline``).
    ``progress(nodes)`` is called every 1,024 steps of the search."""
    check_type(state, GameState, "state", "a Lumen GameState")
    max_nodes = check_int(max_nodes, "max_nodes", 1, what="a positive integer")
    if deadline is not None:
        check_real(deadline, "deadline", "a time.perf_counter() value")
    check_callback(progress)
    memo: dict[tuple, list[float]] = {}
    count = [0, 0]  # new positions, and every call (a position met again costs a copy too)

    def value(s: GameState) -> list[float]:
        count[1] += 1
        if count[1] % 16 == 0:
            check()
            if deadline is not None and time.perf_counter() > deadline:
                raise _OutOfBudget
            if progress is not None and count[1] % 1024 == 0:
                progress(count[0])
        if s.is_terminal():
            return s.returns()
        key = s._key()
        if key in memo:
            return memo[key]
        count[0] += 1
        if count[0] > max_nodes:
            raise _OutOfBudget
        if s.is_chance_node():
            out = [0.0, 0.0]
            for a, p in s.chance_outcomes():
                v = value(_child(s, a))
                out = [out[0] + p * v[0], out[1] + p * v[1]]
        else:
            me = s.current_player()
            out = max((value(_child(s, a)) for a in s.legal_actions()),
                      key=lambda v: (v[me], -v[1 - me]))
        memo[key] = out
        return out

    try:
        return [value(_child(state, a)) for a in state.legal_actions()], count[0]
    except _OutOfBudget:
        return None


def _child(state: GameState, action: int) -> GameState:
    child = state.clone()
    child.apply_action(action)
    return child


Policy = Callable[[GameState, np.random.Generator], int]
"""A play-out policy: the action to play in a state."""


class _OutOfTime(Exception):
    pass


def _playout(state: GameState, policy: Policy, rng: np.random.Generator,
             deadline: float | None = None) -> list[float]:
    while not state.is_terminal():
        if deadline is not None and time.perf_counter() > deadline:
            raise _OutOfTime  # a bot's play-out can take minutes: it is dropped unfinished
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(policy(state, rng))
    return state.returns()


def _policy(name: str, seed: int) -> Policy:
    if name == "random":
        return lambda s, rng: int(rng.integers(len(s.legal_actions())))
    bot = make_policy(name, seed=seed)
    return lambda s, rng: bot.choose(s)


def search_bar(progress: bool | None) -> tqdm:
    """The progress line of :func:`best_choice` and
    :func:`~solvers.lumen.solitaire.solitaire_choice`: the nodes (positions, or play-outs)
    counted so far, their rate and the time, from the first second on."""
    return progress_bar(desc="lumen best", unit=" nodes", delay=1.0, enabled=progress)


@noting()
def best_choice(state: GameState, time_limit: float | None = DEFAULT_TIME_LIMIT,
                max_nodes: int = DEFAULT_MAX_NODES, seed: int = 0, playout: str = "kernel",
                min_samples: int = 1, objective: str = "win",
                progress: bool | None = False) -> ChoiceResult:
    """Rank every action of the player to move in ``state`` by expected result (module
    docstring). ``time_limit`` bounds the whole call (None: exactly ``min_samples`` play-outs
    per choice when Monte Carlo answers). ``objective="sheet"`` ranks the selections and
    bubbles of a selection node by expected chain gains of the sheet alone instead
    (:func:`solvers.lumen.solitaire.solitaire_choice`). With a time limit the play-outs stop
    at it, even in the middle of the first round of play-outs (a choice not reached yet has
    no samples; with none at all the status is ``limit``); ``min_samples`` play-outs per choice
    are played first only when the time allows. ``progress`` shows a progress line (None: on
    a terminal only): the nodes so far and the best choice's value."""
    min_samples = check_int(min_samples, "min_samples", 1, what="a positive integer")
    check_progress(progress)
    if objective == "sheet":
        from solvers.lumen.solitaire import solitaire_choice

        check_limits(None, time_limit)
        return solitaire_choice(state, time_limit, seed, min_samples=min_samples,
                                progress=progress)
    if objective != "win":
        raise LumicoreError(f"objective {str(objective)[:80]!r} is not 'win' or 'sheet'")
    if not isinstance(state, GameState):
        raise LumicoreError(f"expected a Lumen GameState, got {type(state).__name__}")
    if state.is_terminal() or state.is_chance_node():
        raise LumicoreError("best_choice needs a position where a player decides "
                            f"(this one is {'over' if state.is_terminal() else 'a chance node'})")
    check_limits(max_nodes, time_limit)
    seed = check_seed(seed)
    with search_bar(progress) as bar:
        return _rank(state, time_limit, max_nodes, seed, playout, min_samples, bar)


def _rank(state: GameState, time_limit: float | None, max_nodes: int, seed: int, playout: str,
          min_samples: int, bar: tqdm) -> ChoiceResult:
    """:func:`best_choice` on checked arguments, counting its nodes on ``bar``."""
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    player, actions = state.current_player(), state.legal_actions()
    names = [state.action_to_string(a) for a in actions]
    exact = None
    if state.round >= state.board.rounds - EXACT_ROUNDS + 1:
        half = None if time_limit is None else start + time_limit / 2
        try:
            exact = exact_values(state, max_nodes, half,
                                 progress=lambda nodes: bar.update(nodes - bar.n))
        except KeyboardInterrupt:
            return ChoiceResult(player, "exact", INTERRUPTED, [], REASON_INTERRUPTED, 0,
                                time.perf_counter() - start)
    if exact is not None:
        values, nodes = exact
        other = {a: v[1 - player] for a, v in zip(actions, values, strict=True)}
        choices = [Choice(a, n, v[player], v[player], v[player])
                   for a, n, v in zip(actions, names, values, strict=True)]
        # ties go towards the lower result of the other, as inside the search
        choices.sort(key=lambda c: (-c.value, other[c.action]))
        return ChoiceResult(player, "exact", OPTIMAL, choices, None, nodes,
                            time.perf_counter() - start)
    policy = None if playout == "kernel" else _policy(playout, seed)
    children = [_child(state, a) for a in actions]
    wins, games = [0] * len(actions), [0] * len(actions)
    status, reason, i = FEASIBLE, None, 0
    try:
        while True:
            check()
            for j, child in enumerate(children):
                if deadline is not None and time.perf_counter() > deadline:
                    raise _OutOfTime
                if deadline is None and games[j] >= min_samples:
                    continue
                was = games[j]
                if child.is_terminal():
                    wins[j] += child.returns()[player] == 1.0
                    games[j] += 1
                elif policy is None:
                    batch = KERNEL_BATCH if deadline is not None \
                        else min(KERNEL_BATCH, min_samples - games[j])
                    batch_seed = (seed + i * KERNEL_BATCH) % 2**63
                    wins[j] += kernel.playouts(child, batch, batch_seed)[player]
                    games[j] += batch
                else:
                    result = _playout(child.clone(), policy, np.random.default_rng([seed, i]),
                                      deadline)
                    wins[j] += result[player] == 1.0
                    games[j] += 1
                bar.update(games[j] - was)  # after the exact search's positions, if any
            i += 1
            best = max((w / g for w, g in zip(wins, games, strict=True) if g), default=0.0)
            bar.set_postfix_str(f"best {best:.1%}", refresh=False)
            if deadline is None:
                if min(games) >= min_samples:
                    break
            elif time.perf_counter() > deadline:
                reason = REASON_TIME
                break
    except _OutOfTime:
        reason = REASON_TIME
    except KeyboardInterrupt:
        status, reason = INTERRUPTED, REASON_INTERRUPTED
    if not any(games):
        status = INTERRUPTED if status == INTERRUPTED else LIMIT
    choices = []
    for a, n, w, g in zip(actions, names, wins, games, strict=True):
        low, high = wilson(w, g)
        choices.append(Choice(a, n, w / g if g else 0.0, low, high, g))
    choices.sort(key=lambda c: (-c.value, -c.samples))
    return ChoiceResult(player, "monte carlo", status, choices, reason, sum(games),
                        time.perf_counter() - start)
