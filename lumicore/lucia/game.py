"""A Lucia train puzzle as a :class:`~lumicore.game.GameState` (one player).

Each action plays one card: the actions are the distinct resulting trains over the card kinds, in
a fixed order (by card, then by train notation). The game ends when the goal is reached (return
1), when no card can be played, or after ``max_plays`` plays (return 0).

>>> state = PuzzleState.new("h L4 H T S", max_plays=3)
>>> [state.action_to_string(a) for a in state.legal_actions()][:1]
['move S or H 2: H 2→0 => H h L4 T S']
>>> state.apply_action(0); str(state.train), state.is_terminal()
('H h L4 T S', False)
>>> PuzzleState.deserialize(state.serialize()) == state
True
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable

from lumicore.checks import (
    BOOL,
    Choice,
    Int,
    ListOf,
    Spec,
    Text,
    check_fields,
    check_int,
    field_error,
    read_json,
)
from lumicore.errors import LumicoreError
from lumicore.game import OnePlayerState, check_action, checked_load
from lumicore.lucia.cards import Card, Deck, load_deck, read_card_kinds
from lumicore.lucia.kernel import card_plays
from lumicore.lucia.notation import unpack
from lumicore.lucia.train import DEFAULT_RULES, Play, Rules, Train, check_cards, check_rules

__all__ = ["PuzzleState"]

SOURCE = "serialized Lucia puzzle state"


class PuzzleState(OnePlayerState):
    """Train, card kinds (each usable any number of times), plays made and the play cap."""

    def __init__(self, train: Train, cards: Iterable[Card], max_plays: int = 30,
                 plays: int = 0, rules: Rules = DEFAULT_RULES) -> None:
        if not isinstance(train, Train):
            raise LumicoreError(f"train must be a Train, got {train!r}")
        self.cards = tuple(dict.fromkeys(check_cards("cards", cards)))
        if not self.cards or not all(isinstance(c, Card) for c in self.cards):
            raise LumicoreError("cards must be one or more lumicore.lucia.Card")
        max_plays = check_int(max_plays, "max_plays", 0, what="a non-negative integer")
        plays = check_int(plays, "plays", 0, max_plays,
                          f"an integer from 0 to max_plays ({max_plays})")
        self.train, self.max_plays, self.plays = train, max_plays, plays
        self.rules = check_rules(rules)
        self._moves: list[tuple[int, int]] | None = None

    @classmethod
    def new(cls, train: Train | str, cards: Deck | Iterable[Card] | None = None,
            max_plays: int = 30, rules: Rules = DEFAULT_RULES) -> PuzzleState:
        """A puzzle from a train (or its notation) and cards (default: the default deck)."""
        train = Train.parse(train, rules) if isinstance(train, str) else train
        kinds = (cards or load_deck()).kinds if isinstance(cards, (Deck, type(None))) else cards
        return cls(train, kinds, max_plays, 0, rules)

    def _packed_moves(self) -> list[tuple[int, int]]:
        """The actions as (card index, packed train after), in their order, from the kernel
        (a bot's search asks for many states' moves and plays few of them)."""
        if self._moves is None:
            self._moves = []
            if not self.train.is_goal() and self.plays < self.max_plays:
                plays_of, packed = card_plays(self.cards, self.rules), self.train.packed
                self._moves = [(i, after) for i in range(len(self.cards))
                               for after in plays_of(packed, i)]
        return self._moves

    def _play(self, action: int) -> Play:
        """Action ``action`` as the reference's play (the first of the card's plays, in the
        order of ``Train.plays``, that makes its train)."""
        i, packed = self._packed_moves()[action]
        after = Train._of(unpack(packed))
        return next(p for p in self.train.plays(self.cards[i], self.rules) if p.train == after)

    def _legal(self) -> list[Play]:
        """Every action as the reference's play."""
        return [self._play(a) for a in range(len(self._packed_moves()))]

    def legal_actions(self) -> list[int]:
        return list(range(len(self._packed_moves())))

    def apply_action(self, action: int) -> None:
        action = check_action(self, action)
        self.train = Train._of(unpack(self._packed_moves()[action][1]))
        self.plays += 1
        self._moves = None

    def action_to_string(self, action: int) -> str:
        action = check_action(self, action)
        return str(self._play(action))

    def is_terminal(self) -> bool:
        return not self._packed_moves()

    def returns(self) -> list[float]:
        return [1.0 if self.train.is_goal() else 0.0]

    def clone(self) -> PuzzleState:
        # a shallow copy: every field is replaced by a move, never changed in place, and the
        # clone shares the cards' tuple, by which the kernel's plays are kept (card_plays)
        return copy.copy(self)

    def serialize(self) -> str:
        return json.dumps({"game": "lucia-puzzle", "train": str(self.train),
                           "cards": [c.to_dict() for c in self.cards], "plays": self.plays,
                           "max_plays": self.max_plays,
                           "lucia_partial": self.rules.lucia_partial})

    @classmethod
    def deserialize(cls, text: str) -> PuzzleState:
        return checked_load(lambda: cls._deserialize(text), SOURCE)

    @classmethod
    def _deserialize(cls, text: str) -> PuzzleState:
        data = check_fields(read_json(text, SOURCE), {
            "game": Choice("lucia-puzzle"), "train": Text("a train notation"),
            "cards": ListOf(Spec(), low=1, what="a list of 1 or more cards"),
            "plays": Int(0), "max_plays": Int(0), "lucia_partial": BOOL}, SOURCE)
        if data["plays"] > data["max_plays"]:
            raise field_error(SOURCE, "plays", f"at most max_plays ({data['max_plays']})",
                              data["plays"])
        rules = Rules(lucia_partial=data["lucia_partial"])
        try:
            train = Train.parse(data["train"], rules)
        except LumicoreError as exc:
            raise field_error(SOURCE, "train", f"a train ({str(exc)[:80]})",
                              data["train"]) from None
        return cls(train, read_card_kinds(data["cards"], SOURCE), data["max_plays"],
                   data["plays"], rules)


    def _key(self) -> tuple:
        return (self.train, self.cards, self.plays, self.max_plays, self.rules)

    def __str__(self) -> str:
        return str(self.train)

    def __repr__(self) -> str:
        return f"PuzzleState({str(self.train)!r}, plays={self.plays}/{self.max_plays})"

    def _repr_svg_(self) -> str:
        """The train, captioned with the plays made (notebooks)."""
        from lumicore.lucia.render import train_svg

        return train_svg(self.train, caption=f"{self.plays} of {self.max_plays} plays")
