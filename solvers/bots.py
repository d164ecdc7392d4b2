"""Generic bots for any :class:`lumicore.game.GameState`: random, greedy, flat Monte Carlo, MCTS.

A bot answers ``choose(state) -> action`` at a decision node (never at a chance node). Every bot
is seeded and, with its default iteration budgets, deterministic: the same seed and the same
sequence of states give the same actions. A ``time_limit`` option (flat Monte Carlo, MCTS) stops
searching on the clock instead, and then the actions depend on the machine's speed.

Bots work from the protocol alone, so a player who acts several times in a row (a multi-step
turn: ``current_player()`` stays the same) is handled like any other sequence of decisions.
Greedy, flat Monte Carlo and MCTS score unfinished states with the state's ``evaluate()`` (if it
has one); an ``evaluate=function`` option replaces it, so a game's ``solvers/<game>/bots.py`` can
build its own bots from these, e.g. ``{"greedy": functools.partial(GreedyBot, evaluate=f)}``.
:func:`solvers.arena.make_bot` finds bots by name (a game's own bots first).

>>> from lumicore.lucia.game import PuzzleState
>>> state = PuzzleState.new("h L4 H T S", max_plays=4)
>>> bot = MCTSBot(seed=3, iterations=50)
>>> bot.choose(state) in state.legal_actions()
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Collection, Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from lumicore.checks import check_int, check_real, check_seed, check_type
from lumicore.data import shorten
from lumicore.errors import LumicoreError
from lumicore.game import GameState, check_state
from solvers.limits import check_limits

__all__ = ["Bot", "RandomBot", "GreedyBot", "FlatMCBot", "MCTSBot", "GENERIC_BOTS", "check_seed",
           "score", "value_after", "rollout", "sample_outcome", "positive_int", "decision_actions"]

MAX_OUTCOMES = 64
"""A chance node with at most this many outcomes is resolved by its expectation (greedy)."""
MAX_STEPS = 100_000
"""Play-outs longer than this are a game that never ends: an error, not a hang."""


@runtime_checkable
class Bot(Protocol):
    """Anything with ``choose(state) -> action``, called at decision nodes only."""

    def choose(self, state: GameState) -> int:
        """A legal action for the player to act in ``state`` (which it must not change)."""
        ...




def positive_int(value: object, name: str) -> int:
    """``value`` as an int if it is a whole number >= 1 (numpy's too, not a bool), else
    :class:`LumicoreError` naming ``name``: the counts of the bots' options (samples, play-outs,
    iterations, ...)."""
    return check_int(value, name, 1, what="a positive integer")


def _check_evaluate(evaluate: object) -> Evaluator | None:
    if evaluate is not None and not callable(evaluate):
        raise LumicoreError(f"evaluate must be a function of a state, got {shorten(evaluate)}")
    return evaluate


def decision_actions(state: GameState) -> list[int]:
    """The legal actions of ``state`` where a player decides, as a bot's ``choose`` takes it;
    at the end of the game or at a chance node a :class:`LumicoreError` says so (a bot chose a
    chance outcome there, or failed on the empty list of a finished game)."""
    try:
        over = state.is_terminal()
    except AttributeError:  # checked only here: a random bot's play-out chooses through this
        check_state(state)
        raise
    if over:
        raise LumicoreError("a bot chooses where a player decides: the game is over")
    if state.is_chance_node():
        raise LumicoreError("a bot chooses where a player decides: this is a chance node (draw "
                            "its outcome with lumicore.game.sample_chance)")
    return state.legal_actions()


def _pick(rng: np.random.Generator, items: Sequence[int]) -> int:
    return int(items[int(rng.random() * len(items))])


def sample_outcome(state: GameState, rng: np.random.Generator) -> int:
    """A chance outcome drawn with its probability, from one uniform number of ``rng`` (the
    bots' draws; :func:`lumicore.game.sample_chance` draws the same way through
    ``rng.choice``, a stream of its own, so the bots keep the streams they were measured
    with)."""
    try:
        outcomes = state.chance_outcomes()
        x = rng.random() * sum(p for _, p in outcomes)
    except AttributeError:  # checked only here: the bots' play-outs draw through this
        check_state(state)
        check_type(rng, np.random.Generator, "rng", "a numpy random Generator")
        raise
    for action, p in outcomes:
        x -= p
        if x < 0:
            return int(action)
    return int(outcomes[-1][0])


def _child(state: GameState, action: int) -> GameState:
    child = state.clone()
    child.apply_action(action)
    return child


def _world(state: GameState, rng: np.random.Generator) -> GameState:
    """A copy of ``state`` to search: with what its mover has not seen dealt anew where the
    game hides something from its players (its ``resample_from_infostate``, as OpenSpiel
    names it: Lucia's hands), else a clone."""
    resample = getattr(state, "resample_from_infostate", None)
    if resample is None or state.is_terminal() or state.is_chance_node():
        return state.clone()
    return resample(state.current_player(), rng)


Evaluator = Callable[[GameState], Sequence[float]]
"""A heuristic value per player of an unfinished state, on the scale of ``returns()``."""


def score(state: GameState, evaluate: Evaluator | None = None) -> list[float]:
    """Every player's value of ``state``: once the game is over its ``returns()``; before, the
    ``evaluate`` function if given, else the state's own ``evaluate()`` if it has one, else
    ``returns()``."""
    try:
        over = state.is_terminal()
    except AttributeError:  # checked only here: every play-out of the bots ends here
        check_state(state)
        raise
    _check_evaluate(evaluate)
    if not over:
        if evaluate is not None:
            return [float(v) for v in evaluate(state)]
        if hasattr(state, "evaluate"):
            return [float(v) for v in state.evaluate()]
    return [float(v) for v in state.returns()]


def value_after(state: GameState, player: int, rng: np.random.Generator, samples: int = 4,
                width: int = 1, evaluate: Evaluator | None = None) -> float:
    """``player``'s value of ``state`` once the chance nodes at its front are resolved: by their
    expectation while the tree of outcomes has at most :data:`MAX_OUTCOMES` leaves, else by
    seeded samples (``samples``, fewer as the tree widens)."""
    try:
        chance = state.is_chance_node()
    except AttributeError:  # checked only here: the bots call this for every action they weigh
        check_state(state)
        raise
    if not chance:
        values = score(state, evaluate)
        try:
            return values[player]
        except (TypeError, IndexError):  # checked only here, as the state above
            raise LumicoreError(f"player must be a player index from 0 to {len(values) - 1}, "
                                f"got {shorten(player)}") from None
    outcomes = state.chance_outcomes()
    if len(outcomes) * width <= MAX_OUTCOMES:
        return sum(p * value_after(_child(state, a), player, rng, samples,
                                   width * len(outcomes), evaluate) for a, p in outcomes)
    k = max(1, min(samples, MAX_OUTCOMES // width))
    return sum(value_after(_child(state, sample_outcome(state, rng)), player, rng, samples,
                           width * k, evaluate) for _ in range(k)) / k


class _OutOfTime(Exception):
    """A play-out's greedy policy passed the search's deadline: the play-out stops there."""


def rollout(state: GameState, rng: np.random.Generator,
            policy: Callable[[GameState], int] | None = None, cutoff: int | None = None,
            evaluate: Evaluator | None = None, deadline: float | None = None) -> list[float]:
    """Play ``state`` (in place) to the end with ``policy`` (uniformly random by default) and
    chance sampled; with ``cutoff``, stop after that many decisions and :func:`score` there;
    with ``deadline`` (a ``time.perf_counter()`` value), likewise at the first decision node
    reached past it, or when the policy stops for it (the greedy policy of the searching bots
    reads the clock between the actions it weighs)."""
    try:
        return _rollout(state, rng, policy, cutoff, evaluate, deadline)
    except (AttributeError, TypeError):  # checked only here: the searches play out thousands
        _check_rollout(state, rng, policy, cutoff, evaluate, deadline)  # of times a decision
        raise


def _check_rollout(state: object, rng: object, policy: object, cutoff: object,
                   evaluate: object, deadline: object) -> None:
    """:class:`LumicoreError` naming the first of :func:`rollout`'s arguments of the wrong kind."""
    check_state(state)
    check_type(rng, np.random.Generator, "rng", "a numpy random Generator")
    if policy is not None and not callable(policy):
        raise LumicoreError(f"policy must be a function of a state or None, got "
                            f"{shorten(policy)}")
    if cutoff is not None:
        check_int(cutoff, "cutoff", 0, what="None or an integer >= 0")
    if deadline is not None:
        check_real(deadline, "deadline", "None or a time.perf_counter() value")
    _check_evaluate(evaluate)


def _rollout(state: GameState, rng: np.random.Generator,
             policy: Callable[[GameState], int] | None, cutoff: int | None,
             evaluate: Evaluator | None, deadline: float | None) -> list[float]:
    decisions = 0
    for _ in range(MAX_STEPS):
        if state.is_terminal():
            return score(state, evaluate)
        if state.is_chance_node():
            state.apply_action(sample_outcome(state, rng))
            continue
        if (cutoff is not None and decisions >= cutoff) or (
                deadline is not None and time.perf_counter() > deadline):
            return score(state, evaluate)
        try:
            action = policy(state) if policy else _pick(rng, state.legal_actions())
        except _OutOfTime:
            return score(state, evaluate)
        state.apply_action(action)
        decisions += 1
    raise LumicoreError(f"a play-out did not end within {MAX_STEPS} actions")


class RandomBot:
    """A uniformly random legal action.

    >>> from lumicore.lucia.game import PuzzleState
    >>> state = PuzzleState.new("h L4 H T S", max_plays=4)
    >>> RandomBot(seed=1).choose(state) == RandomBot(seed=1).choose(state)
    True
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(check_seed(seed))

    def choose(self, state: GameState) -> int:
        return _pick(self.rng, decision_actions(state))


class _ByValue:
    """A bot that plays the action of highest ``values(state)``, ties broken by its rng."""

    rng: np.random.Generator

    def values(self, state: GameState) -> dict[int, float]:
        raise NotImplementedError

    def choose(self, state: GameState) -> int:
        actions = decision_actions(state)
        if len(actions) == 1:
            return actions[0]
        return self._best(self.values(state))

    def _best(self, values: dict[int, float]) -> int:
        best = max(values.values())
        return _pick(self.rng, [a for a, v in values.items() if v >= best - 1e-9])


class GreedyBot(_ByValue):
    """One ply: the action whose resulting state (chance resolved as in :func:`value_after`)
    scores best for the mover by ``evaluate()`` (or ``returns()``); ties broken at random.

    >>> from lumicore.lucia.game import PuzzleState
    >>> state = PuzzleState.new("h L4 H T S", max_plays=4)
    >>> GreedyBot(seed=2).choose(state) in state.legal_actions()
    True
    """

    name = "greedy"

    def __init__(self, seed: int = 0, samples: int = 4, evaluate: Evaluator | None = None
                 ) -> None:
        samples = positive_int(samples, "samples")
        self.rng = np.random.default_rng(check_seed(seed))
        self.samples, self.evaluate = samples, _check_evaluate(evaluate)

    def values(self, state: GameState, deadline: float | None = None) -> dict[int, float]:
        """Each legal action's value for the player to act. ``deadline``: for the play-outs
        of a timed search, which stop (``_OutOfTime``) once the clock passes it between two
        actions."""
        me = state.current_player()
        out = {}
        for a in state.legal_actions():
            if deadline is not None and time.perf_counter() > deadline:
                raise _OutOfTime
            out[a] = value_after(_child(state, a), me, self.rng, self.samples, 1, self.evaluate)
        return out


class _Searcher:
    """Shared options of the sampling bots: budget, clock, play-out policy and cut-off."""

    def __init__(self, seed: int, time_limit: float | None, policy: str, cutoff: int | None,
                 evaluate: Evaluator | None):
        self.rng = np.random.default_rng(check_seed(seed))
        check_limits(None, time_limit)
        if policy not in ("random", "greedy"):
            raise LumicoreError(f"policy must be 'random' or 'greedy', got {policy!r:.80}")
        if cutoff is not None:
            cutoff = positive_int(cutoff, "cutoff")
        self.time_limit, self.policy, self.cutoff = time_limit, policy, cutoff
        self.evaluate = _check_evaluate(evaluate)
        self._greedy = GreedyBot(seed=int(self.rng.integers(2**63)), samples=1, evaluate=evaluate)

    def _playout(self, state: GameState, deadline: float | None = None) -> list[float]:
        """A play-out of ``state`` (in place), scored at its end, its cut-off or the first
        decision past ``deadline``."""
        return rollout(state, self.rng, self._policy(deadline), self.cutoff, self.evaluate,
                       deadline)

    def _policy(self, deadline: float | None) -> Callable[[GameState], int] | None:
        """The play-out policy: None (random) or the greedy bot's choice, which reads the
        clock between the actions it weighs when there is a ``deadline``."""
        if self.policy != "greedy":
            return None
        greedy = self._greedy  # play-outs choose at decisions only: no check, as choose makes

        def choose(state: GameState) -> int:
            actions = state.legal_actions()
            if len(actions) == 1:
                return actions[0]
            return greedy._best(greedy.values(state, deadline))

        return choose

    def _deadline(self) -> float | None:
        return None if self.time_limit is None else time.perf_counter() + self.time_limit


class FlatMCBot(_Searcher, _ByValue):
    """Flat Monte Carlo: every legal action is scored by ``playouts`` seeded play-outs
    (``policy`` "random" or "greedy", optionally cut off after ``cutoff`` decisions and scored by
    ``evaluate()``); the best mean wins. With ``time_limit`` (seconds per decision) play-outs go
    round the actions until the clock runs out (not deterministic): a play-out running then
    stops at its next decision and is scored there, and once it has run out every action not
    sampled yet (in the first round) is scored where its play-out starts, so the limit holds
    and every action has a value.

    >>> from lumicore.lucia.game import PuzzleState
    >>> state = PuzzleState.new("h L4 H T S", max_plays=4)
    >>> FlatMCBot(seed=4, playouts=4).choose(state) in state.legal_actions()
    True
    """

    name = "flatmc"

    def __init__(self, seed: int = 0, playouts: int = 16, policy: str = "random",
                 cutoff: int | None = None, time_limit: float | None = None,
                 evaluate: Evaluator | None = None) -> None:
        super().__init__(seed, time_limit, policy, cutoff, evaluate)
        self.playouts = positive_int(playouts, "playouts")

    def values(self, state: GameState) -> dict[int, float]:
        """Each legal action's mean play-out value for the player to act."""
        me, actions = state.current_player(), state.legal_actions()
        totals = dict.fromkeys(actions, 0.0)
        counts = dict.fromkeys(actions, 0)
        deadline = self._deadline()
        for _round in range(self.playouts if deadline is None else MAX_STEPS):
            for a in actions:
                if counts[a] and deadline is not None and time.perf_counter() > deadline:
                    return {a: totals[a] / counts[a] for a in actions}
                world = _world(state, self.rng)  # a copy already: played on in place
                world.apply_action(a)
                totals[a] += self._playout(world, deadline)[me]
                counts[a] += 1
        return {a: totals[a] / counts[a] for a in actions}


class _Node:
    __slots__ = ("visits", "totals", "children", "untried", "player")

    def __init__(self, players: int) -> None:
        self.visits = 0
        self.totals = [0.0] * players
        self.children: dict[int, _Node] = {}
        self.untried: list[int] | None = None
        self.player = -1


class MCTSBot(_Searcher):
    """UCT with chance nodes sampled: ``iterations`` descents from the current state, each
    expanding one node and finishing with a play-out (see :class:`FlatMCBot` for ``policy`` and
    ``cutoff``). Every node keeps the total return of every player; a decision node picks its
    child by the UCB1 value of its own mover's return (``exploration`` is UCB1's constant, for
    returns on a 0..1 scale). The most visited action is played. With ``time_limit`` (seconds
    per decision) descents go on until the clock runs out (not deterministic); the play-out
    running then stops at its next decision and is scored there (the first descent's too, so
    a tiny limit holds).

    >>> from lumicore.lucia.game import PuzzleState
    >>> state = PuzzleState.new("h L4 H T S", max_plays=4)
    >>> MCTSBot(seed=5, iterations=30).choose(state) in state.legal_actions()
    True
    """

    name = "mcts"

    def __init__(self, seed: int = 0, iterations: int = 200, exploration: float = 1.4,
                 policy: str = "random", cutoff: int | None = None,
                 time_limit: float | None = None, evaluate: Evaluator | None = None) -> None:
        super().__init__(seed, time_limit, policy, cutoff, evaluate)
        iterations = positive_int(iterations, "iterations")
        self.iterations = iterations
        self.exploration = check_real(exploration, "exploration", "a number >= 0", at_least=0)
        self._worlds = False  # set by choose: whether the searched state hides something

    def choose(self, state: GameState) -> int:
        actions = decision_actions(state)
        if len(actions) == 1:
            return actions[0]
        root = _Node(state.num_players())
        deadline = self._deadline()
        # the state hides something: each descent's world may allow other actions at a node
        self._worlds = hasattr(state, "resample_from_infostate")
        for i in range(self.iterations if deadline is None else 10**9):
            if deadline is not None and i and time.perf_counter() > deadline:
                break
            self._iterate(root, _world(state, self.rng), deadline)
        return self._pick(root, actions)

    def _pick(self, root: _Node, actions: list[int]) -> int:
        """The action played once the search ends: the most visited of the root's children
        (``actions``: the root's legal actions, in their order)."""
        return max(root.children.items(),
                   key=lambda kv: (kv[1].visits, kv[1].totals[root.player]))[0]

    def _iterate(self, root: _Node, state: GameState, deadline: float | None = None) -> None:
        worlds = self._worlds
        node, path = root, [root]
        while not state.is_terminal():
            if state.is_chance_node():
                action = sample_outcome(state, self.rng)
                state.apply_action(action)
                node = node.children.setdefault(action, _Node(len(root.totals)))
                path.append(node)
                continue
            legal: Collection[int] = state.legal_actions()
            if node.untried is None:
                node.player = state.current_player()
                node.untried = list(legal)
                self.rng.shuffle(node.untried)
            elif worlds:  # this world may allow other actions here (another player's hand)
                legal = set(legal)
                node.untried += [a for a in legal
                                 if a not in node.children and a not in node.untried]
            playable = ([i for i, a in enumerate(node.untried) if a in legal] if worlds
                        else range(len(node.untried)))
            if playable:
                action = node.untried.pop(playable[-1])
                state.apply_action(action)
                node.children[action] = node = _Node(len(root.totals))
                path.append(node)
                break
            action, node = self._select(node, legal if worlds else None)
            state.apply_action(action)
            path.append(node)
        values = self._playout(state, deadline)
        for n in path:
            n.visits += 1
            for p, v in enumerate(values):
                n.totals[p] += v

    def _select(self, node: _Node, legal: Collection[int] | None) -> tuple[int, _Node]:
        """The child of the best UCB1 value among the ``legal`` actions (None: all)."""
        log_n, me, c = math.log(node.visits), node.player, self.exploration
        return max(((a, child) for a, child in node.children.items()
                    if legal is None or a in legal),
                   key=lambda kv: kv[1].totals[me] / kv[1].visits
                   + c * math.sqrt(log_n / kv[1].visits))


GENERIC_BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot, "greedy": GreedyBot, "flatmc": FlatMCBot, "mcts": MCTSBot,
}
"""The bots every game has, by name (a game's ``solvers.<game>.bots.BOTS`` may override)."""
