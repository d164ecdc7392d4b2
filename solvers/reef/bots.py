"""Lumicora bots for ``solvers.arena`` and ``lumicore reef play`` / ``tournament``.

``BOTS`` maps a name to a factory called as ``factory(seed=..., **options)`` (the arena looks here
before its generic bots); each bot has ``choose(state) -> int`` for a decision node of a
:class:`lumicore.reef.game.Game`:

- ``greedy``: :func:`solvers.reef.turn.best_turn` (exact placements, the game's evaluation),
  taking the best decision (ties: the first), then following its placement plan;
- ``flatmc``: flat Monte Carlo over the ``candidates`` (4) best decisions of ``best_turn``
  (greedy's choice first): each is played on a copy with its placement plan, then ``playouts``
  (8) play-outs (``policy`` ``"greedy"``: every player as the greedy bot, or ``"random"``) with
  the bag draws sampled by the bot, to the end of the round (``horizon="round"``; ``"turn"``:
  no play-out after the mover's own turn; ``cutoff``: at most that many decisions), always
  stopping between turns, never inside one; each is scored like ``best_turn`` (the ``objective``,
  by default the margin of :meth:`Game.estimate` over the best opponent). Every candidate sees
  the same draws in play-out ``i`` (common random numbers); the bot leaves greedy's choice only
  for a candidate whose mean gain over it is above ``margin`` (1 VP) and twice its standard
  error. With ``time_limit`` (seconds per decision, as the arena's ``flatmc``) rounds of
  play-outs go on until the clock runs out instead of ``playouts``, and no search starts past
  it (see :meth:`FlatMCBot.samples`);
- ``mcts``: the arena's UCT (:class:`solvers.bots.MCTSBot`) over greedy's ``candidates`` (4)
  best decisions at every decision node (greedy's placement plan while placing), ``iterations``
  (48), play-outs as ``flatmc``'s scored by ``Game.evaluate`` (or by ``evaluate(game)``, a
  value per player on the scale of ``returns()``, when given; the returns once the game is
  over); the bag draws come from the bot's generator, never from the game's own. With
  ``time_limit`` (seconds per decision) it searches until the clock runs out: the clock starts
  before the root's candidates are ranked, every ranking (candidates, the greedy play-outs'
  turns) gets the time left, the best candidate ranked is played if none is left for a
  descent, and a play-out stops at the first pause between turns past the limit; no search
  starts past it (the descent that would need one is dropped). The most visited candidate is
  played once every candidate had a play-out, else (a limit too small for one pass, or
  ``iterations`` below ``candidates``) greedy's choice.

``random`` is the arena's generic bot.

>>> from lumicore.reef.game import Game
>>> game = Game.new(players=2, seed=0)
>>> bot = make_bot("greedy", seed=0)
>>> action = bot.choose(game); str(game.decisions()[action]).startswith("orient")
True
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from lumicore.checks import check_real, check_type
from lumicore.data import shorten
from lumicore.errors import LumicoreError
from lumicore.game import GameState
from lumicore.reef.decisions import Place, Return
from lumicore.reef.game import Game
from solvers.bots import (
    MAX_STEPS,
    Evaluator,
    MCTSBot,
    check_seed,
    positive_int,
    sample_outcome,
    score,
)
from solvers.limits import INTERRUPTED, check_limits
from solvers.progress import check_callback
from solvers.reef.turn import OBJECTIVES, RankedTurn, best_turn, turn_value

__all__ = ["BOTS", "GreedyBot", "FlatMCBot", "ReefMCTSBot", "make_bot", "reef_mcts", "playout",
           "between_turns"]

HORIZONS = ("round", "turn")
_MIN_LEFT = 1e-6
"""What a ranking started at or past a deadline gets as its ``time_limit``: ``best_turn`` then
weighs one decision (each placement search gets its own floor, 1 ms)."""


def _check(state: object) -> Game:
    if not isinstance(state, Game) or state.is_chance_node() or state.is_terminal():
        raise LumicoreError("a reef bot chooses at a decision node of a lumicore.reef.game.Game")
    return state


def _one_of(value: object, allowed: tuple[str, ...], name: str) -> str:
    if value not in allowed:
        raise LumicoreError(f"{name} must be one of {', '.join(allowed)}, got {value!r:.80}")
    return value


def between_turns(game: Game) -> bool:
    """Whether ``game`` rests between two players' turns (a turn or coral scoring not begun, or
    the end): where a play-out may stop without leaving a turn half done (tiles in hand)."""
    check_type(game, Game, "game", "a reef Game")
    return game.is_terminal() or (not game.is_chance_node() and game.phase in ("turn", "score"))


def _left(deadline: float | None) -> float | None:
    """Seconds from now to ``deadline`` (a ``time.perf_counter()`` value) as a ``time_limit``
    for :func:`best_turn`: None without a deadline, at least :data:`_MIN_LEFT` past it."""
    return None if deadline is None else max(_MIN_LEFT, deadline - time.perf_counter())


class _OutOfTime(Exception):
    """A search of the reef MCTS or flatmc was due past its deadline: the descent or play-out
    is dropped instead."""


def _on_time(deadline: float | None) -> None:
    """Raise :class:`_OutOfTime` once the clock is past ``deadline``."""
    if deadline is not None and time.perf_counter() > deadline:
        raise _OutOfTime


def _within(choose: Callable[..., int] | None, deadline: float | None, drop: bool = False
            ) -> Callable[[Game], int] | None:
    """The play-out policy ``choose`` (a :class:`GreedyBot`'s, or None: random) ranking each
    decision within the time left to ``deadline``, if there is one; ``drop``: past the deadline
    it searches no more and raises :class:`_OutOfTime` (the bot drops that play-out)."""
    if choose is None or deadline is None:
        return choose

    def policy(game: Game) -> int:
        if drop:
            _on_time(deadline)
        return choose(game, _left(deadline))

    return policy


def playout(game: Game, rng: np.random.Generator, policy: Callable[[Game], int] | None = None,
            horizon: str = "round", cutoff: int | None = None,
            deadline: float | None = None) -> Game:
    """Play ``game`` on (in place, its bag draws sampled from ``rng``) with ``policy``
    (uniformly random by default) up to the ``horizon`` (``"round"``: the next round, ``"turn"``:
    no further), or earlier once ``cutoff`` decisions are made or the clock is past
    ``deadline`` (a ``time.perf_counter()`` value); it stops only :func:`between_turns`.
    Returns ``game``."""
    check_type(game, Game, "game", "a reef Game")
    check_type(rng, np.random.Generator, "rng", "a numpy Generator (numpy.random.default_rng)")
    check_callback(policy, "policy")
    _one_of(horizon, HORIZONS, "horizon")
    if cutoff is not None:
        positive_int(cutoff, "cutoff")
    if deadline is not None:
        check_real(deadline, "deadline", "a time.perf_counter() value")
    start, decisions = game.round, 0
    while not game.is_terminal():
        if game.is_chance_node():
            game.apply_action(sample_outcome(game, rng))
            continue
        if between_turns(game) and (horizon == "turn" or game.round != start
                                    or (cutoff is not None and decisions >= cutoff)
                                    or (deadline is not None and time.perf_counter() > deadline)):
            break
        if policy is None:
            actions = game.legal_actions()
            game.apply_action(int(actions[int(rng.random() * len(actions))]))
        else:
            game.apply_action(policy(game))
        decisions += 1
    return game


def follow(game: Game, ranked: RankedTurn, rng: np.random.Generator) -> Game:
    """Apply ``ranked``'s decision to ``game`` (in place, draws from ``rng``) and, for a turn
    that takes tiles, its placement plan (the placements, then the returns to the bag)."""
    game.apply_action(game.decisions().index(ranked.decision))
    plan = ranked.placement
    if plan is None:
        return game
    steps = [Place(p) for p in plan.placements] + [Return(t) for t in plan.discarded]
    for step in steps:
        while game.is_chance_node():
            game.apply_action(sample_outcome(game, rng))
        if game.phase != "place":
            break
        moves = game.decisions()
        if step in moves:
            game.apply_action(moves.index(step))
    return game


def _followed(game: Game, ranked: RankedTurn, seed: int) -> tuple[Game, np.random.Generator]:
    """A copy of ``game`` (drawing from the bot's samples, not its own generator) with
    ``ranked`` played (:func:`follow`, draws from a generator of ``seed``), and that
    generator."""
    rng = np.random.default_rng(seed)
    probe = game.clone()
    probe.auto_chance = False
    return follow(probe, ranked, rng), rng


class GreedyBot:
    """The best decision of :func:`best_turn` (see the module docstring)."""

    name = "greedy"

    def __init__(self, seed: int = 0, objective: str = "margin") -> None:
        self.seed = check_seed(seed)
        self.objective = _one_of(objective, OBJECTIVES, "objective")

    def ranked_turns(self, game: Game, time_limit: float | None = None) -> list[RankedTurn]:
        """``best_turn``'s ranking, best first (turns, placements and coral scorings only);
        with ``time_limit`` (seconds), that of the decisions it weighed in that time (at least
        one)."""
        result = best_turn(game, self.objective, time_limit=time_limit)
        if result.status == INTERRUPTED:  # Ctrl-C: the bot has no answer, the game stops
            raise KeyboardInterrupt
        return list(result.ranked)

    def ranked(self, game: Game, time_limit: float | None = None) -> list:
        """The decisions weighed by ``best_turn`` (within ``time_limit``), best first (other
        phases: as listed)."""
        if game.phase in ("turn", "place", "score"):
            return [r.decision for r in self.ranked_turns(game, time_limit)]
        if game.phase == "swap":       # reached only by other bots' choices: stop swapping
            return list(reversed(game.decisions()))
        return list(game.decisions())

    def choose(self, state: Game, time_limit: float | None = None) -> int:
        """The best decision (of those weighed within ``time_limit`` seconds, if given)."""
        game = _check(state)
        best = self.ranked(game, time_limit)[0]
        return game.decisions().index(best)


class FlatMCBot(GreedyBot):
    """Flat Monte Carlo over the best candidates of ``best_turn`` (see the module docstring)."""

    name = "flatmc"

    def __init__(self, seed: int = 0, candidates: int = 4, playouts: int = 8,
                 cutoff: int | None = None, objective: str = "margin", policy: str = "greedy",
                 horizon: str = "round", margin: float = 1.0,
                 time_limit: float | None = None) -> None:
        super().__init__(seed, objective)
        self.candidates = positive_int(candidates, "candidates")
        self.playouts = positive_int(playouts, "playouts")
        self.cutoff = None if cutoff is None else positive_int(cutoff, "cutoff")
        _one_of(policy, ("random", "greedy"), "policy")
        self.policy = None if policy == "random" else GreedyBot(seed, objective).choose
        self.horizon = _one_of(horizon, HORIZONS, "horizon")
        self.margin = check_real(margin, "margin", "a number >= 0", at_least=0)
        check_limits(None, time_limit)
        self.time_limit = time_limit
        self.rng = np.random.default_rng(self.seed)

    def samples(self, game: Game) -> list[tuple[RankedTurn, list[float]]]:
        """The candidates (greedy's choice first) with their play-out values, play-out ``i`` of
        every candidate drawing from the same seed. With ``time_limit`` (the clock starts before
        the candidates are ranked, within it) rounds of play-outs, one per candidate, go on
        until the clock runs out, whatever ``playouts``: a play-out running then stops at its
        next pause between turns, or is dropped where its turn needs a search past the deadline
        (none starts then), a round left unfinished is dropped, and in the first round a
        candidate not reached or whose play-out was dropped (or a lone candidate) is scored
        once its turn is played, without a play-out."""
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        options = self.ranked_turns(game, _left(deadline))[: self.candidates]
        me = game.current_player()
        policy = _within(self.policy, deadline, drop=True)
        out: list[tuple[RankedTurn, list[float]]] = [(ranked, []) for ranked in options]
        timed = deadline is not None
        seeds = None if timed else self.rng.integers(2**63, size=self.playouts)
        for i in range(MAX_STEPS if timed else self.playouts):
            seed = int(self.rng.integers(2**63) if seeds is None else seeds[i])
            for ranked, values in out:
                late = deadline is not None and (len(out) == 1 or time.perf_counter() > deadline)
                if late and i:
                    return [(ranked, values[:i]) for ranked, values in out]
                probe, rng = _followed(game, ranked, seed)
                if not late:
                    try:
                        playout(probe, rng, policy, self.horizon, self.cutoff, deadline)
                    except _OutOfTime:  # its turn needed a search past the deadline
                        if i:
                            return [(ranked, values[:i]) for ranked, values in out]
                        probe, _ = _followed(game, ranked, seed)
                values.append(turn_value(probe, me, self.objective))
        return out

    def pick(self, samples: list[tuple[RankedTurn, list[float]]]) -> RankedTurn:
        """Greedy's choice (the first) unless another's mean gain over it (paired by play-out)
        is above ``margin`` and twice its standard error; then the largest such gain."""
        base = np.asarray(samples[0][1])
        best, best_gain = samples[0][0], 0.0
        for ranked, values in samples[1:]:
            diff = np.asarray(values) - base
            gain = float(diff.mean())
            se = float(diff.std(ddof=1) / math.sqrt(len(diff))) if len(diff) > 1 else math.inf
            if gain > self.margin and gain > 2 * se and gain > best_gain:
                best, best_gain = ranked, gain
        return best

    def choose(self, state: Game) -> int:  # type: ignore[override]  # its own time_limit
        game = _check(state)
        if game.phase not in ("turn", "score"):
            return super().choose(game, self.time_limit)
        samples = self.samples(game)
        if len(samples) == 1:
            return game.decisions().index(samples[0][0].decision)
        return game.decisions().index(self.pick(samples).decision)


class _Candidates:
    """A reef game seen through greedy's candidates: at a decision node the legal actions are
    ``best_turn``'s ``k`` best (its first only while placing), ranked within the time left to
    ``deadline`` (a ``time.perf_counter()`` value) if given, elsewhere the game's own. They are
    computed once per position (a clone keeps them until an action is applied). A clone (a
    descent's copy) ranks nothing past the deadline: it raises :class:`_OutOfTime`."""

    def __init__(self, game: Game, bot: GreedyBot, k: int, deadline: float | None = None,
                 drop: bool = False) -> None:
        self.game, self.bot, self.k, self.deadline = game, bot, k, deadline
        self.drop = drop
        self._actions: list[int] | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def legal_actions(self) -> list[int]:
        if self._actions is None:
            self._actions = self._candidates()
        return list(self._actions)

    def _candidates(self) -> list[int]:
        game = self.game
        if game.is_chance_node() or game.is_terminal():
            return game.legal_actions()
        if self.drop:
            _on_time(self.deadline)
        ranked = self.bot.ranked(game, _left(self.deadline))
        top = ranked[:1] if game.phase == "place" else ranked[: self.k]
        moves = game.decisions()
        return [moves.index(d) for d in top]

    def apply_action(self, action: int) -> None:
        self._actions = None
        self.game.apply_action(action)

    def clone(self) -> _Candidates:
        twin = _Candidates(self.game.clone(), self.bot, self.k, self.deadline, drop=True)
        twin._actions = self._actions
        return twin


class ReefMCTSBot(MCTSBot):
    """The arena's UCT over greedy's candidates (see the module docstring)."""

    name = "mcts"

    def __init__(self, seed: int = 0, iterations: int = 48, candidates: int = 4,
                 cutoff: int | None = None, policy: str = "greedy", horizon: str = "round",
                 objective: str = "margin", exploration: float = 1.4,
                 time_limit: float | None = None, evaluate: Evaluator | None = None) -> None:
        super().__init__(seed=seed, iterations=iterations, exploration=exploration,
                         policy=policy, cutoff=cutoff, time_limit=time_limit, evaluate=evaluate)
        self.candidates = positive_int(candidates, "candidates")
        self.horizon = _one_of(horizon, HORIZONS, "horizon")
        self.ranker = GreedyBot(seed, objective)
        self.reef_policy = None if policy == "random" else self.ranker.choose
        self._until: float | None = None

    def choose(self, state: GameState) -> int:
        """The most visited of greedy's candidates once each had a play-out, else greedy's
        choice (the first); with ``time_limit``, the clock starts before they are ranked
        (within the limit), and once it has run out by then the best of them is played
        without a descent."""
        game = _check(state).clone()
        game.auto_chance = False   # draws are the bot's samples, not the game's own generator
        self._until = super()._deadline()
        try:
            root = _Candidates(game, self.ranker, self.candidates, self._until)
            actions = root.legal_actions()
            if len(actions) == 1 or (self._until is not None
                                     and time.perf_counter() > self._until):
                return actions[0]
            return super().choose(root)
        finally:
            self._until = None

    def _deadline(self) -> float | None:
        return self._until   # set by choose: the search's clock started before the root's ranking

    def _iterate(self, root: Any, state: Any, deadline: float | None = None) -> None:
        """A descent, dropped (no visit counted) where a search in it was due past the
        deadline: the clock ran out in it."""
        with contextlib.suppress(_OutOfTime):
            super()._iterate(root, state, deadline)

    def _pick(self, root: Any, actions: list[int]) -> int:
        """The most visited candidate once every candidate had a play-out; else (a limit too
        small for one pass over them) greedy's choice, the first."""
        if root.untried is None or root.untried or any(
                child.visits == 0 for child in root.children.values()):
            return actions[0]
        return super()._pick(root, actions)

    def _playout(self, state: Any, deadline: float | None = None) -> list[float]:
        game = state.game if isinstance(state, _Candidates) else state
        playout(game, self.rng, _within(self.reef_policy, deadline, drop=True), self.horizon,
                self.cutoff, deadline)
        return score(game, self.evaluate)


def reef_mcts(seed: int = 0, **options: Any) -> ReefMCTSBot:
    """The reef's MCTS (see the module docstring)."""
    return ReefMCTSBot(seed=seed, **options)


BOTS: dict[str, Callable[..., Any]] = {
    "greedy": GreedyBot,
    "flatmc": FlatMCBot,
    "mcts": reef_mcts,
}
"""Lumicora's own bots by name (``greedy``, ``flatmc``, ``mcts``, described above), each a factory
called as ``factory(seed=..., **options)``; the arena looks here before its generic bots."""


def make_bot(name: str, seed: int = 0, **options: Any):
    """The reef bot called ``name`` (``BOTS``), seeded."""
    if not isinstance(name, str) or name not in BOTS:
        raise LumicoreError(f"unknown reef bot {shorten(name)} (known: {', '.join(sorted(BOTS))})")
    return BOTS[name](seed=seed, **options)
