"""A dealt Lucia game in progress as a :class:`~lumicore.game.GameState` (1..4 co-operative
players; registered in :data:`lumicore.game.GAMES` as ``"lucia"``).

Decision actions are the mover's distinct plays (card, resulting train) of
:func:`lumicore.lucia.deal_reference.plays`, cards in kind order, then trains by notation (the
state asks the Cython kernel for them; the tests compare it with the reference).
Draws are chance nodes when the deck order is hidden (``DealState.new_game``: the deck is a
multiset; an outcome is a card kind, numbered by the deck's kinds, with probability by count; the
hands are dealt that way too, player 1 first). A state built from a known
:class:`~lumicore.lucia.deal.Deal` (``DealState.from_deal``) has a fixed deck order and no chance
nodes. ``returns()`` is 1.0 for every player once the game is won, else 0.0.

>>> state = DealState.new_game(players=1, seed=3)
>>> state.is_chance_node(), len(state.chance_outcomes()) > 1
(True, True)
>>> from lumicore.game import play_randomly
>>> end = play_randomly(state, seed=1)
>>> end.is_terminal(), end.returns() in ([0.0], [1.0])
(True, True)
>>> DealState.deserialize(end.serialize()) == end
True
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, cast

import numpy as np

from lumicore.checks import (
    BOOL,
    SEED_LIMIT,
    Choice,
    Int,
    ListOf,
    MapOf,
    Maybe,
    Spec,
    Text,
    Where,
    check_fields,
    check_index,
    field_error,
    read_json,
    read_record,
)
from lumicore.data import shorten
from lumicore.errors import DataError, IllegalMoveError, LumicoreError
from lumicore.game import (
    CHANCE,
    TERMINAL,
    RecordRules,
    check_action,
    check_record_game,
    checked_load,
    replay_arena_record,
)
from lumicore.lucia.cards import Card, Deck, read_card_kinds
from lumicore.lucia.deal import (
    HAND_SIZE,
    MAX_PLAYERS,
    Deal,
    check_players,
    check_seed,
    deal,
    game_deck,
    heuristic_table,
)
from lumicore.lucia.kernel import card_plays
from lumicore.lucia.notation import unpack
from lumicore.lucia.start import random_train
from lumicore.lucia.train import Play, Train

__all__ = ["DealState"]

SOURCE = "serialized lucia game"
HEADER = {"game": Choice("lucia", what='"lucia"'), "train": Text("a train in its notation"),
          "cards": ListOf(Spec(), low=1, high=1000, what="a list of 1 to 1000 card kinds"),
          "hands": ListOf(Spec(), low=1, high=MAX_PLAYERS, what=f"a list of 1 to {MAX_PLAYERS} "
                          "hands (one per player)")}
"""The fields read first: the card kinds, the train and the players the others refer to."""

RECORD = "Lucia game record"
_GAME = {"seed": Int(0, SEED_LIMIT - 1, "a seed from 0 to 2**63 - 1"),
         "players": Int(1, MAX_PLAYERS, f"a number of players from 1 to {MAX_PLAYERS}")}
PLAY_RECORD = {**_GAME, "turns": ListOf(Spec(), what="a list of turns")}
"""The fields every ``lucia play`` record has (``game``, ``deck``, ``setup``, ``won`` and
``plays`` are checked when present)."""
ARENA_RECORD = {**_GAME, "actions": ListOf(Spec(), what="a list of actions"),
                "options": MapOf(Choice("deck", "setup", what='"deck" or "setup"'),
                                 Text("a deck or setup (a built-in name or a path)"),
                                 what="an object of deck and setup")}
"""The fields of an arena record of Lucia (``solvers.arena``: a line of a tournament's
output)."""
ARENA_RULES = RecordRules(RECORD, ARENA_RECORD)
"""How every replay of an arena record reads Lucia's (:meth:`DealState.replay`, and
``solvers.arena.replay_record`` through :data:`lumicore.game.RECORD_RULES`): ``options`` are
required."""


_PARTS = {"kinds": "cards", "hands": "hands (card indices)", "owed": "player indices"}


def _plays(train: Train, kinds: tuple[Card, ...], hand: list[int]) -> list[tuple[int, int]]:
    """:func:`lumicore.lucia.deal_reference.plays` of the sorted hand by the kernel, as (kind
    index, packed train after), in the actions' order: cards in kind order, then trains by
    notation (the kernel's order). Every train fits the kernel's 64-bit word and every index is
    a row of the kinds' table."""
    plays_of, packed = card_plays(kinds), train.packed
    return [(k, after) for k in dict.fromkeys(hand) for after in plays_of(packed, k)]


def _check_parts(**parts: object) -> None:
    """:class:`LumicoreError` naming the first of a :class:`DealState`'s ``kinds`` (cards),
    ``hands`` (lists of card indices) and ``owed`` (None or a list) of the wrong kind."""
    for name, value in parts.items():
        items = list(value) if isinstance(value, (list, tuple)) else None
        if name == "owed" and value is None:
            continue
        if items is None or (name == "kinds" and not all(isinstance(c, Card) for c in items)) \
                or (name == "hands" and not all(isinstance(h, (list, tuple)) for h in items)):
            raise LumicoreError(f"{name} must be a list of {_PARTS[name]}, got {shorten(value)}")


class DealState:
    """Train, card kinds, hands (kind indices, sorted), mover, the deck (a fixed order of kind
    indices, or the counts of each kind left when hidden) and the draws still owed."""

    cooperative = True
    """The players win or lose together (:func:`lumicore.game.is_cooperative`)."""

    def __init__(self, train: Train, kinds: tuple[Card, ...], hands: list[list[int]],
                 mover: int = 0, order: list[int] | None = None,
                 counts: list[int] | None = None, owed: list[int] | None = None,
                 won: bool | None = None) -> None:
        if not isinstance(train, Train):
            raise LumicoreError(f"train must be a Train, got {train!r:.80}")
        if not hands:
            raise LumicoreError(f"hands must hold one hand per player, got {shorten(hands)}")
        try:
            check_players(len(hands))
            self.train, self.kinds = train, tuple(kinds)
            self.hands = [sorted(h) for h in hands]
            self.owed = list(owed or [])
        except TypeError:  # checked only here: every clone of the bots' searches comes here
            _check_parts(kinds=kinds, hands=hands, owed=owed)
            raise
        self.mover, self.order, self.counts = mover, order, counts
        self.won = train.is_goal() if won is None else won
        self._moves: list[tuple[int, int]] | None = None

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def from_deal(cls, deal: Deal) -> DealState:
        """The start of a known deal (fixed deck order: no chance nodes)."""
        kinds = deal.kinds
        idx = [kinds.index(c) for c in deal.deck]
        k = deal.hand_size
        hands = [idx[i * k:(i + 1) * k] for i in range(deal.players)]
        return cls(deal.train, kinds, hands, 0, order=idx[deal.players * k:])

    @classmethod
    def new_game(cls, players: int = 1, seed: int = 0, deck: str | Path | Deck = "default",
                 setup: str | Path = "default") -> DealState:
        """A fresh game with the deck hidden: the train dealt from ``seed``, the hands still to
        be dealt (chance nodes)."""
        players, seed = check_players(players), check_seed(seed)
        cards = game_deck(deck)
        kinds = cards.kinds
        counts = [cards.copies(c) for c in kinds]
        owed = [p for p in range(players) for _ in range(HAND_SIZE)][:len(cards)]
        return cls(random_train(seed, setup), kinds, [[] for _ in range(players)], 0,
                   counts=counts, owed=owed)

    # -- records ----------------------------------------------------------------------------

    @classmethod
    def replay(cls, record: Mapping[str, Any] | str | Path,
               on_action: Callable[[DealState, int], Any] | None = None) -> DealState:
        """The game a record describes, replayed and checked play by play; returns the state
        where the record ends. The record is the dict, its JSON text or the path of its JSON
        file (:func:`lumicore.checks.read_record`: a ``str`` starting with ``{`` is the text,
        any other the path), either

        - what ``lumicore lucia play --json`` prints: ``seed``, ``players``, ``deck`` (default
          ``"default"``) and ``setup`` (default ``"default"``) give the deal
          (:func:`lumicore.lucia.deal.deal`, replayed with its deck order known), ``turns`` the
          plays (each ``player`` 1-based, ``hand`` the card names held, ``play`` the play as
          ``str(Play)``: card, choices, resulting train), ``won`` and ``plays`` the result; or
        - an arena record (``solvers.arena``: ``options``, ``actions`` the indices of
          ``legal_actions()`` on ``DealState.new_game``, chance outcomes included, and
          ``returns``).

        A play that is not legal where it stands is an :class:`IllegalMoveError` naming it and
        its index (``turns[3].play``, ``actions[12]``); a record whose result the replay does
        not reach (``won``, ``plays``, ``returns``; ``won: false`` before the game is over), a
        turn whose player or hand is not the replay's, and a record of another game are
        :class:`DataError`\\ s. ``on_action(state, action)`` is called before every action
        (chance outcomes included), as ``solvers.arena.play_game`` calls it."""
        record = read_record(record, RECORD)
        if not isinstance(record, Mapping):
            raise DataError(f"{RECORD}: expected a JSON object, got {shorten(record)}")
        if "game" not in record and "turns" not in record:  # older play records have no game
            raise DataError(f'not a {RECORD}: no "game": "lucia" (nor "turns")')
        if "game" in record:
            check_record_game(record, "lucia", RECORD)
        if ("turns" in record) == ("actions" in record):
            raise DataError(f"{RECORD}: expected its plays as 'turns' (lucia play) or its "
                            "actions as 'actions' (an arena record), one of them")
        if "actions" in record:
            return cls._replay_arena(dict(record), on_action)
        return cls._replay_turns(dict(record), on_action)

    @classmethod
    def _replay_turns(cls, record: dict[str, Any],
                      on_action: Callable[[DealState, int], Any] | None) -> DealState:
        """A ``lucia play`` record (see :meth:`replay`)."""
        check_fields(record, PLAY_RECORD, RECORD, exact=False)
        names = {key: record.get(key, "default") for key in ("deck", "setup")}
        for key, name in names.items():
            if not isinstance(name, str):
                raise field_error(RECORD, key, "a built-in name or a path", name)
        try:
            dealt = deal(record["seed"], record["players"], names["setup"], names["deck"])
        except LumicoreError as exc:
            raise DataError(f"{RECORD}: {str(exc)[:160]}") from None
        state = cls.from_deal(dealt)
        for i, turn in enumerate(record["turns"]):
            where = f"{RECORD}: turns[{i}]"
            if not isinstance(turn, Mapping) or not isinstance(turn.get("play"), str):
                raise DataError(f"{where} must be an object with the play as text, got "
                                f"{shorten(turn)}")
            if state.is_terminal():
                raise IllegalMoveError(f"{where}.play {shorten(turn['play'])}: the game is "
                                       f"{'won' if state.won else 'lost'} before it")
            mover = state.mover + 1
            if "player" in turn and (type(turn["player"]) is not int or turn["player"] != mover):
                raise field_error(RECORD, f"turns[{i}].player",
                                  f"{mover} (player {mover} plays there)", turn["player"])
            held = sorted(state.kinds[k].name for k in state.hands[state.mover])
            if "hand" in turn and (not isinstance(turn["hand"], list)
                                   or sorted(map(str, turn["hand"])) != held):
                raise field_error(RECORD, f"turns[{i}].hand",
                                  f"the cards player {mover} holds there, {json.dumps(held)} "
                                  "in some order", turn["hand"])
            action = state._action_of(turn["play"])
            if action is None:
                raise IllegalMoveError(f"{where}.play {shorten(turn['play'])} is not a legal "
                                       f"play of player {mover} here (train {state.train}, "
                                       f"hand {', '.join(held)})")
            if on_action is not None:
                on_action(state, action)
            state.apply_action(action)
        plays = len(record["turns"])
        if "plays" in record and (type(record["plays"]) is not int or record["plays"] != plays):
            raise field_error(RECORD, "plays", f"{plays} (the turns it lists)", record["plays"])
        if "won" in record and (record["won"] is not state.won or not state.is_terminal()):
            raise field_error(RECORD, "won", f"{json.dumps(state.won)}: the replay is "
                              f"{_outcome(state)} after {plays} plays" if state.is_terminal()
                              else f"left out: the replay is not over after {plays} plays",
                              record["won"])
        return state

    @classmethod
    def _replay_arena(cls, record: dict[str, Any],
                      on_action: Callable[[DealState, int], Any] | None) -> DealState:
        """An arena record (see :meth:`replay`)."""
        return cast(DealState, replay_arena_record(record, "lucia", on_action=on_action))

    def _action_of(self, text: str) -> int | None:
        """The decision whose play (``str(Play)``: card, choices, resulting train) is ``text``;
        None if no legal play reads so."""
        for action, (card, after) in enumerate(self._legal()):
            if any(str(play) == text for play in self.train.plays(card) if play.train == after):
                return action
        return None

    def action_of_play(self, play: Play) -> int:
        """The decision that makes ``play`` (its card and the train after it, as
        :func:`solvers.lucia.play.best_play` and ``Train.plays`` give them): how a policy that
        thinks in plays acts in the state. IllegalMoveError if no legal action does.

        >>> state = DealState.from_deal(deal(3))
        >>> play = next(p for c in {state.kinds[k] for k in state.hands[0]}
        ...             for p in state.train.plays(c))
        >>> state.action_to_string(state.action_of_play(play)).endswith(str(play.train))
        True
        """
        if not self.is_chance_node():
            for action, (card, after) in enumerate(self._legal()):
                if card == play.card and after == play.train:
                    return action
        raise IllegalMoveError(f"{shorten(str(play))} is not a legal play here")

    # -- protocol --------------------------------------------------------------------------

    def num_players(self) -> int:
        return len(self.hands)

    def _deck_left(self) -> int:
        return len(self.order) if self.order is not None else sum(self.counts or [])

    def is_chance_node(self) -> bool:
        return not self.won and bool(self.owed) and self._deck_left() > 0

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            return []
        counts = self._hidden()
        total = sum(counts)
        return [(k, n / total) for k, n in enumerate(counts) if n]

    def _hidden(self) -> list[int]:
        """The counts of the hidden deck, which chance nodes draw from (a fixed deck order
        owes no draws)."""
        assert self.counts is not None
        return self.counts

    def _packed_moves(self) -> list[tuple[int, int]]:
        """The decisions as (kind index, packed train after); a bot's search asks for many
        states' moves and plays few of them, so the trains are built by :meth:`_move`."""
        if self._moves is None:
            # docs/lucia.md: cards in kind order, trains by notation (str), as PuzzleState
            self._moves = [] if self.won or self.is_chance_node() else \
                _plays(self.train, self.kinds, self.hands[self.mover])
        return self._moves

    def _move(self, action: int) -> tuple[int, Train]:
        """Decision ``action``: the kind index played and the train after it."""
        kind, after = self._packed_moves()[action]
        return kind, Train._of(unpack(after))

    def _legal(self) -> list[tuple[Card, Train]]:
        """Every decision as (card, train after)."""
        return [(self.kinds[k], Train._of(unpack(after))) for k, after in self._packed_moves()]

    def is_terminal(self) -> bool:
        return self.won or (not self.is_chance_node() and not self._packed_moves())

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        return CHANCE if self.is_chance_node() else self.mover

    def legal_actions(self) -> list[int]:
        if self.is_chance_node():
            return [k for k, _ in self.chance_outcomes()]
        return list(range(len(self._packed_moves())))

    def apply_action(self, action: int) -> None:
        action = check_action(self, action)
        if self.is_chance_node():
            self._hidden()[action] -= 1
            self.hands[self.owed.pop(0)].append(action)
            self.hands = [sorted(h) for h in self.hands]
        else:
            kind, after = self._move(action)
            hand = self.hands[self.mover]
            hand.remove(kind)
            self.train, self.won = after, after.is_goal()
            if self.order is not None:
                if self.order:
                    hand.append(self.order.pop(0))
                    hand.sort()
            elif self._deck_left():
                self.owed.append(self.mover)
            self.mover = (self.mover + 1) % len(self.hands)
        self._moves = None

    def action_to_string(self, action: int) -> str:
        action = check_action(self, action)
        if self.is_chance_node():
            return f"draw {self.kinds[action].name}"
        kind, after = self._move(action)
        return f"player {self.mover + 1}: {self.kinds[kind].name} => {after}"

    def returns(self) -> list[float]:
        return [1.0 if self.won else 0.0] * len(self.hands)

    def evaluate(self) -> list[float]:
        """1 / (1 + puzzle lower bound of the train): a cheap value for greedy bots."""
        from lumicore.lucia.heuristic import INF, estimate

        h = estimate(self.train, heuristic_table(self.kinds, self.train))
        return [0.0 if h >= INF else 1.0 / (1 + h)] * len(self.hands)

    def clone(self) -> DealState:
        return DealState(self.train, self.kinds, [list(h) for h in self.hands], self.mover,
                         None if self.order is None else list(self.order),
                         None if self.counts is None else list(self.counts), list(self.owed),
                         self.won)

    __copy__ = clone  # copy.copy: the lists play changes in place are not shared either

    def serialize(self) -> str:
        return json.dumps({"game": "lucia", "train": str(self.train),
                           "cards": [c.to_dict() for c in self.kinds], "hands": self.hands,
                           "mover": self.mover, "order": self.order, "counts": self.counts,
                           "owed": self.owed, "won": self.won})

    @classmethod
    def deserialize(cls, text: str) -> DealState:
        return checked_load(lambda: cls._deserialize(text), SOURCE)

    @classmethod
    def _deserialize(cls, text: str) -> DealState:
        data = read_json(text, SOURCE)
        check_fields(data, HEADER, SOURCE, exact=False)
        kinds = read_card_kinds(data["cards"], SOURCE)
        try:
            train = Train.parse(data["train"])
        except LumicoreError as exc:
            raise field_error(SOURCE, "train", f"a train ({str(exc)[:80]})",
                              data["train"]) from None
        players = len(data["hands"])
        card = Int(0, len(kinds) - 1, f"a card kind index from 0 to {len(kinds) - 1}")
        player = Int(0, players - 1, f"a player index from 0 to {players - 1}")
        check_fields(data, {**HEADER, **{
            "hands": ListOf(ListOf(card, high=HAND_SIZE), length=players),
            "mover": player,
            "order": Maybe(ListOf(card)),
            "counts": Maybe(ListOf(Int(0, None, "a number of cards >= 0"), length=len(kinds))),
            "owed": ListOf(player),
            "won": Where(BOOL, lambda won: won == train.is_goal(),
                         f"{str(train.is_goal()).lower()}: the train is "
                         f"{'' if train.is_goal() else 'not '}the goal"),
        }}, SOURCE)
        hands, order, counts, owed = data["hands"], data["order"], data["counts"], data["owed"]
        if (order is None) == (counts is None):
            raise field_error(SOURCE, "order", "null exactly when the counts of the hidden "
                              "deck are given (a deck order or the counts, not both)", order)
        if owed and counts is None:
            raise field_error(SOURCE, "owed", "[]: draws are owed only when the deck order is "
                              "hidden", owed)
        # while the hidden deck has cards beyond the draws owed, every hand is (to be) full
        full = counts is not None and sum(counts) > len(owed)
        for p, hand in enumerate(hands):
            if len(hand) + owed.count(p) > HAND_SIZE or (
                    full and len(hand) + owed.count(p) < HAND_SIZE):
                raise field_error(SOURCE, "owed", f"{'' if full else 'at most '}"
                                  f"{HAND_SIZE - len(hand)} draws of player {p + 1} "
                                  f"({len(hand)} cards in hand)", owed)
        if order and len({len(h) for h in hands}) > 1:
            raise field_error(SOURCE, "hands", "hands of one size while the deck lasts", hands)
        return cls(train, tuple(kinds), hands, data["mover"], order, counts, owed, data["won"])

    def resample_from_infostate(self, player: int, rng: np.random.Generator) -> DealState:
        """A copy in which what ``player`` has not seen is dealt anew (OpenSpiel's
        ``resample_from_infostate``): the other players' hands and the hidden deck drawn from
        the cards ``player`` has not seen, each hand as large as it was; the train, the
        player's hand, the mover and the draws owed stay. A solo game (its hidden deck is
        already drawn by chance) and a deal whose deck order is known (:meth:`from_deal`, the
        analysis of a known deal) are copied as they are. The search bots
        of ``solvers.bots`` play out such copies, so that they do not read their partners'
        hands (the rulebook: "do not show the cards to each other").

        >>> state = DealState.new_game(players=2, seed=1)
        >>> while state.is_chance_node():
        ...     state.apply_action(state.legal_actions()[0])
        >>> world = state.resample_from_infostate(0, np.random.default_rng(0))
        >>> world.hands[0] == state.hands[0], world.unseen() == state.unseen()
        (True, True)
        """
        world = self.clone()
        check_index(player, len(self.hands), "player", "a player index")
        if self.counts is None or len(self.hands) == 1:  # nothing hidden but the deck's order
            return world
        pool = [k for k, n in enumerate(self.counts) for _ in range(n)]
        for i, hand in enumerate(self.hands):
            if i != player:
                pool += hand
        # sorted first: the same cards unseen, the same worlds from the same generator
        pool = [int(k) for k in rng.permutation(sorted(pool))] if pool else []
        counts = [0] * len(self.kinds)
        for i, hand in enumerate(self.hands):
            if i != player:
                world.hands[i] = sorted(pool[:len(hand)])
                del pool[:len(hand)]
        for k in pool:
            counts[k] += 1
        world.counts = counts
        return world

    def _key(self) -> tuple:
        return (self.train, self.kinds, tuple(map(tuple, self.hands)), self.mover,
                None if self.order is None else tuple(self.order),
                None if self.counts is None else tuple(self.counts), tuple(self.owed), self.won)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def unseen(self) -> Counter[Card]:
        """The cards the mover has not seen: the deck and the other players' hands."""
        deck = (Counter(self.order) if self.order is not None
                else Counter({k: n for k, n in enumerate(self._hidden()) if n}))
        for i, h in enumerate(self.hands):
            if i != self.mover:
                deck.update(h)
        return Counter({self.kinds[k]: n for k, n in deck.items()})

    def __str__(self) -> str:
        return f"{self.train} | {self._status()}"

    def _status(self) -> str:
        """``won`` or ``lost`` once the game is over, else the mover and their hand."""
        if self.is_terminal():
            return _outcome(self)
        hand = ", ".join(self.kinds[k].name for k in self.hands[self.mover])
        return f"player {self.mover + 1} holds {hand or 'nothing'}"

    def __repr__(self) -> str:
        return f"DealState({str(self)!r})"

    def _repr_svg_(self) -> str:
        """The train, captioned with the player to play and their hand, or with ``won`` or
        ``lost`` once the game is over (notebooks)."""
        from lumicore.lucia.render import train_svg

        return train_svg(self.train, caption=self._status())


def _outcome(state: DealState) -> str:
    """``won``, ``lost`` or ``not over``."""
    return "won" if state.won else "lost" if state.is_terminal() else "not over"
