"""Exact deal solving: is a deal (train, deck order, players; all known) winnable?

``solve_deal(train, deck, players)`` searches every order of plays in the Cython kernel
(``ext/lucia_deal.pxi``): depth-first, a transposition table of positions known not to win, and
cuts of positions whose remaining cards cannot cover what the train lacks (docs/lucia.md, "Deals,
win rates and play", says why each cut is sound). ``shortest=True`` then finds the fewest plays by
iterative deepening on the number of plays.

>>> from lumicore.lucia import Action, Card, Train
>>> light, lucia = Card((Action.light("T"),)), Card((Action.lucia(),))
>>> result = solve_deal(Train.parse("H L3 T"), [light, lucia, light, light])
>>> result.status, result.cost, str(result.plan[0])
('winnable', 3, 'player 1: light from T: T 2 lights => H L4 T')
>>> str(result.plan[-1].train)
'L5 H T'
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from lumicore.checks import check_int
from lumicore.data import shorten
from lumicore.errors import IllegalMoveError, LumicoreError
from lumicore.lucia import kernel
from lumicore.lucia.cards import Card, Deck
from lumicore.lucia.deal import HAND_SIZE, Deal, check_players, heuristic_table
from lumicore.lucia.train import DEFAULT_RULES, Play, Rules, Train, as_train, check_cards
from solvers.limits import (
    INTERRUPTED,
    LIMIT,
    REASON_INTERRUPTED,
    UNWINNABLE,
    WINNABLE,
    check_limits,
)
from solvers.progress import check_callback

__all__ = ["solve_deal", "solve_position", "DealResult", "DealStep", "replay_deal",
           "DEFAULT_DEAL_NODES", "DEFAULT_TT_BITS"]

DEFAULT_DEAL_NODES = 50_000_000
"""Default cap on positions visited by one deal search."""
DEFAULT_TT_BITS = 20
"""Transposition table of 2**20 slots (24 bytes each: 24 MB)."""


@dataclass(frozen=True)
class DealStep:
    """One play of a plan: the ``player`` (1-based) and the reference :class:`Play`."""

    player: int
    play: Play

    @property
    def card(self) -> Card:
        return self.play.card

    @property
    def train(self) -> Train:
        return self.play.train

    def __str__(self) -> str:
        return f"player {self.player}: {self.play}"


@dataclass(frozen=True)
class DealResult:
    """What a deal search found.

    ``status``: ``"winnable"`` (``plan`` wins, ``cost`` plays), ``"unwinnable"`` (no order of
    plays wins: proven), ``"limit"`` (``max_nodes`` or ``time_limit`` struck first; with
    ``shortest=True`` a plan may still be there) or ``"interrupted"`` (Ctrl-C). ``shortest_proven``:
    ``cost`` is the fewest plays possible (only with ``shortest=True``, or for an empty plan).
    ``reason``: which limit stopped the search (``"nodes"``, ``"time"``, ``"memory"``,
    ``"interrupted"``), None when none did; with ``shortest=True`` a winnable result whose
    shortest proof was cut keeps its plan and names the limit here. ``nodes``: positions
    visited.
    """

    status: str
    cost: int | None
    plan: list[DealStep]
    shortest_proven: bool
    nodes: int
    elapsed: float
    reason: str | None = None
    start: Train | None = field(default=None, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready)."""
        return {"status": self.status, "cost": self.cost, "shortest_proven": self.shortest_proven,
                "nodes": self.nodes, "elapsed": self.elapsed, "reason": self.reason,
                "start": None if self.start is None else str(self.start),
                "plan": [{"player": s.player, "card": s.card.name, "play": str(s.play),
                          "train": str(s.train)} for s in self.plan]}


def _kind_indices(cards: Sequence[Card], kinds: tuple[Card, ...]) -> list[int]:
    return [kinds.index(card) for card in cards]


def _plan(start: Train, steps: list[tuple[int, int, int]], kinds: tuple[Card, ...], seats: int,
          first: int, rules: Rules) -> list[DealStep]:
    """Kernel steps (relative seat, kind, packed train) -> reference plays (each one checked)."""
    plan, train = [], start
    for seat, kind, packed in steps:
        after = Train.from_packed(packed)
        play = next((p for p in train.plays(kinds[kind], rules) if p.train == after), None)
        if play is None:
            raise IllegalMoveError(f"kernel plan: {kinds[kind]} does not lead from {train} "
                                   f"to {after}")
        plan.append(DealStep((first + seat) % seats + 1, play))
        train = after
    return plan


def _check_sequences(hands: object, deck: object) -> None:
    """A LumicoreError naming ``hands``, a hand or ``deck`` when it is not a sequence of cards'
    worth (the cards themselves are checked after)."""
    parts = [("hands", hands), ("deck", deck)]
    if isinstance(hands, Sequence) and not isinstance(hands, (str, bytes)):
        parts += [(f"hand {i + 1}", h) for i, h in enumerate(hands)]
    for what, cards in parts:
        if isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence):
            raise LumicoreError(f"{what} must be a sequence, got {cards!r:.80}")


def solve_position(train: Train, hands: Sequence[Sequence[Card]], deck: Sequence[Card],
                   mover: int = 0, shortest: bool = False,
                   max_nodes: int | None = DEFAULT_DEAL_NODES, time_limit: float | None = None,
                   rules: Rules = DEFAULT_RULES, tt_bits: int = DEFAULT_TT_BITS,
                   progress: Callable[[int, float], object] | None = None) -> DealResult:
    """:func:`solve_deal` from a game in progress: ``hands`` in seat order (one per player),
    ``mover`` the seat to play (0-based), ``deck`` the cards still to draw (top first)."""
    if not isinstance(train, Train):
        raise LumicoreError(f"train must be a lumicore.lucia.Train, got {train!r}")
    check_limits(max_nodes, time_limit)
    check_callback(progress)
    _check_sequences(hands, deck)
    if not hands:
        raise LumicoreError("hands must hold one hand per player, got none")
    seats = check_players(len(hands))
    mover = check_int(mover, "mover", 0, seats - 1, f"a seat 0..{seats - 1}")
    clock = time.perf_counter()
    for what, cards in [("deck", deck), *((f"hand {i + 1}", h) for i, h in enumerate(hands))]:
        check_cards(what, cards)
    kinds = tuple(dict.fromkeys([*deck, *(c for h in hands for c in h)]))
    if not kinds:
        return DealResult(WINNABLE if train.is_goal() else UNWINNABLE, 0 if train.is_goal()
                          else None, [], train.is_goal(), 0, 0.0, None, train)
    order = [hands[(mover + i) % seats] for i in range(seats)]
    search_table = heuristic_table(kinds, train)
    search = kernel.deal_search(train, kinds, _kind_indices(deck, kinds),
                                [_kind_indices(h, kinds) for h in order],
                                search_table, rules, tt_bits)
    limit = kernel.deal_node_limit(max_nodes)
    deadline = kernel.deal_deadline(time_limit)
    report = None if progress is None else (
        lambda visited: progress(visited, time.perf_counter() - clock))
    code, why, steps, nodes = search.solve(train.packed, -1, limit, deadline, report)
    status = kernel.DEAL_CODES[code]
    reason = kernel.DEAL_REASONS[why]
    proven = status == WINNABLE and not steps
    if status == WINNABLE and shortest and steps:
        proven, bound = False, int(kernel.heuristic([train.packed], search_table)[0])
        while not proven:
            if bound >= len(steps):
                proven = True
                break
            code, why, found, nodes = search.solve(train.packed, bound, limit, deadline, report)
            if code == 1:
                steps, proven = found, True
            elif code == 3:
                reason = kernel.DEAL_REASONS[why]
                break
            bound += 1
    if status == LIMIT:
        status = INTERRUPTED if reason == REASON_INTERRUPTED else LIMIT
    plan = _plan(train, steps, kinds, seats, mover, rules) if status == WINNABLE else []
    return DealResult(status, len(plan) if status == WINNABLE else None, plan,
                      proven, int(nodes), time.perf_counter() - clock, reason, train)


def solve_deal(train: Train | str | Deal, deck: Sequence[Card] | Deck | None = None,
               players: int = 1, shortest: bool = False,
               max_nodes: int | None = DEFAULT_DEAL_NODES, time_limit: float | None = None,
               rules: Rules = DEFAULT_RULES, tt_bits: int = DEFAULT_TT_BITS,
               progress: Callable[[int, float], object] | None = None) -> DealResult:
    """Whether the deal ``train`` + ``deck`` (top first; player 1 takes the top 3 cards, player 2
    the next 3, ...) can be won by ``players`` co-operative players who all know the deck order.

    ``train`` may also be a :class:`~lumicore.lucia.deal.Deal` (then ``deck`` and ``players``
    come from it). ``shortest=True``: the plan has the fewest plays possible (``shortest_proven``
    False when a limit cut that proof short; the plan found first is kept). Ctrl-C returns
    status ``"interrupted"``. ``progress(nodes, elapsed)`` is called every 65,536 positions
    (a progress line); should it raise, the search stops (``KeyboardInterrupt``: status
    ``"interrupted"``; anything else is raised).
    """
    if isinstance(train, Deal):
        if deck is not None:
            raise LumicoreError("give a Deal alone, or a train and a deck")
        deal = train
        train, deck, players, hand = deal.train, deal.deck, deal.players, deal.hand_size
    else:
        hand = HAND_SIZE
        if isinstance(train, str):
            train = Train.parse(train, rules)
        if deck is None:
            raise LumicoreError("solve_deal needs a deck (a sequence of Card, top first)")
        if isinstance(deck, Deck):
            deck = deck.cards
        if isinstance(deck, (str, bytes)) or not isinstance(deck, Sequence):
            raise LumicoreError(f"deck must be a sequence of Card, top first, got {deck!r:.80}")
    players = check_players(players)
    cards = list(deck)
    hands = [cards[i * hand:(i + 1) * hand] for i in range(players)]
    return solve_position(train, hands, cards[players * hand:], 0, shortest, max_nodes,
                          time_limit, rules, tt_bits, progress)


def replay_deal(train: Train | str, deck: Sequence[Card], players: int, plan: Sequence[DealStep],
                rules: Rules = DEFAULT_RULES, hand_size: int = HAND_SIZE) -> Train:
    """Re-play a plan through the reference rules (dealing ``hand_size`` cards to each player,
    hands, turn order, draws): each step must be the mover's, use a card the mover holds and be
    legal; returns the final train."""
    from lumicore.lucia.deal_reference import after_play

    train = as_train(train, rules)
    if isinstance(plan, (str, bytes)) or not isinstance(plan, Iterable):
        raise LumicoreError(f"plan must be a sequence of DealSteps, got {shorten(plan)}")
    cards, players = check_cards("deck", deck), check_players(players)
    hand_size = check_int(hand_size, "hand_size", 1, HAND_SIZE, f"1..{HAND_SIZE}")
    hands = tuple(cards[i * hand_size:(i + 1) * hand_size] for i in range(players))
    stock, mover = cards[players * hand_size:], 0
    for i, step in enumerate(plan):
        if not isinstance(step, DealStep):
            raise LumicoreError(f"step {i + 1} is not a DealStep: {step!r:.80}")
        if step.player != mover + 1:
            raise IllegalMoveError(f"step {i + 1}: player {step.player} plays, but player "
                                   f"{mover + 1} is to move")
        if step.card not in hands[mover]:
            raise IllegalMoveError(f"step {i + 1}: player {step.player} does not hold "
                                   f"{step.card}")
        if step.train not in train.successors(step.card, rules):
            raise IllegalMoveError(f"step {i + 1} ({step.play}) is not legal from {train}")
        train = step.train
        hands, mover, stock = after_play(hands, mover, step.card, stock)
    return train
