"""Lucia as it is played: a deal (start train, shuffled deck, players) and its rules.

Player 1 takes the top 3 cards of the deck, player 2 the next 3, and so on; player 1 plays first,
then the others in turn. A play: one card from the mover's hand, performed, discarded; then the
mover draws the top card of the deck, if any. The players (co-operative) win as soon as the train
is a goal after a play, and lose when the player to move holds no card that can be played (an
empty hand included). A start train that is already a goal is won with no play.

>>> d = deal(seed=1)
>>> len(d.deck), d.players, [len(h) for h in d.hands()], len(d.stock())
(33, 1, [3], 30)
>>> Deal.from_json(d.to_json()) == d
True
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np

from lumicore import checks
from lumicore.checks import check_int, check_seed
from lumicore.data import cached_by_identity, plural, shorten
from lumicore.errors import DataError, LumicoreError
from lumicore.lucia.cards import Card, Deck, load_deck
from lumicore.lucia.heuristic import HeuristicTable, build_table, shape
from lumicore.lucia.start import Setup, random_train
from lumicore.lucia.train import Train, check_cards

__all__ = ["Deal", "deal", "HAND_SIZE", "MAX_PLAYERS", "GAME_DECK", "game_deck", "check_seed",
           "check_players", "unseen_counts", "heuristic_table"]

HAND_SIZE: Final = 3
"""Cards each player is dealt (and the largest ``hand_size`` a :class:`Deal` may have)."""
MAX_PLAYERS: Final = 4
"""The most players a deal seats."""
GAME_DECK: Final = "calibrated"
"""The built-in deck the game functions (``deal``, ``win_rate``, ``best_play``, the ``deal`` /
``winrate`` / ``play`` commands) use when given ``deck="default"``; see docs/lucia.md."""




def check_players(players: object) -> int:
    """``players`` as an int from 1 to :data:`MAX_PLAYERS` (numpy integers too), else a
    LumicoreError quoting it."""
    return checks.check_players(players, 1, MAX_PLAYERS, "Lucia")


def game_deck(deck: str | Path | Deck = "default") -> Deck:
    """The deck of a game: a Deck as is, ``"default"`` the game's deck (:data:`GAME_DECK`), any
    other name or path through :func:`~lumicore.lucia.cards.load_deck`."""
    if isinstance(deck, Deck):
        return deck
    if not isinstance(deck, (str, Path)):
        raise LumicoreError(f"deck must be a Deck, a built-in name or a path, got {shorten(deck)}")
    return load_deck(GAME_DECK if isinstance(deck, str) and deck == "default" else deck)


@dataclass(frozen=True)
class Deal:
    """A deal: the start ``train``, the ``deck`` order (top first, every card, the hands' cards
    included), the number of ``players`` (1..4, co-operative) and the ``hand_size`` (3).

    >>> from lumicore.lucia import Action
    >>> light = Card((Action.light("T"),))
    >>> d = Deal(Train.parse("h T L4"), (light,) * 4)
    >>> d.hands(), d.stock()
    (((Card('light from T'), Card('light from T'), Card('light from T')),), (Card('light from T'),))
    """

    train: Train
    deck: tuple[Card, ...]
    players: int = 1
    hand_size: int = HAND_SIZE
    seed: int | None = field(default=None, compare=False)
    """The seed :func:`deal` used (for display; not part of equality)."""

    def __post_init__(self) -> None:
        if not isinstance(self.train, Train):
            raise LumicoreError(f"deal: train must be a lumicore.lucia.Train, "
                                f"got {shorten(self.train)}")
        deck = tuple(self.deck) if isinstance(self.deck, (list, tuple, Deck)) else None
        if deck is None or not all(isinstance(c, Card) for c in deck):
            raise LumicoreError(f"deal: deck must be a sequence of lumicore.lucia.Card, "
                                f"got {shorten(self.deck)}")
        if not deck:  # a game of no cards at all, whose state could not be read back
            raise LumicoreError("deal: the deck must hold at least one card")
        object.__setattr__(self, "deck", deck)
        object.__setattr__(self, "players", check_players(self.players))
        if self.seed is not None:  # to_json writes it and from_json checks it
            object.__setattr__(self, "seed", check_seed(self.seed, name="deal: seed"))
        object.__setattr__(self, "hand_size", check_int(self.hand_size, "deal: hand_size", 1,
                                                        HAND_SIZE, f"1..{HAND_SIZE}"))

    @property
    def kinds(self) -> tuple[Card, ...]:
        """The distinct cards of the deck, in order of first appearance."""
        return tuple(dict.fromkeys(self.deck))

    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """The hands as dealt: player 1 the top ``hand_size`` cards, player 2 the next, ..."""
        k = self.hand_size
        return tuple(self.deck[i * k:(i + 1) * k] for i in range(self.players))

    def stock(self) -> tuple[Card, ...]:
        """The cards left to draw after the deal, top first."""
        return self.deck[self.players * self.hand_size:]

    def to_dict(self) -> dict[str, Any]:
        kinds = self.kinds
        return {"train": str(self.train), "players": self.players, "hand_size": self.hand_size,
                "seed": self.seed, "cards": [c.to_dict() for c in kinds],
                "deck": [kinds.index(c) for c in self.deck]}

    def to_json(self) -> str:
        """JSON text: the train notation, players, hand size, seed, the distinct ``cards`` (as
        in a deck file) and the ``deck`` order as indices into ``cards``."""
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: object) -> Deal:
        if not isinstance(data, dict):
            raise DataError(f"a deal is a JSON object, got {shorten(data)}")
        missing = {"train", "cards", "deck"} - set(data)
        extra = set(data) - {"train", "players", "hand_size", "seed", "cards", "deck"}
        if missing or extra:
            raise DataError(f"deal: missing keys {sorted(missing)}, unknown keys {sorted(extra)}")
        try:
            train = Train.parse(data["train"])
        except LumicoreError as exc:
            raise DataError(f"deal: train: {exc}") from exc
        cards = data["cards"]
        if not isinstance(cards, list) or not cards:
            raise DataError("deal: 'cards' must list the distinct cards")
        kinds = [_card(i, c) for i, c in enumerate(cards)]
        order = data["deck"]
        if not isinstance(order, list):
            raise DataError("deal: 'deck' must list indices into 'cards'")
        for i, k in enumerate(order):
            if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < len(kinds):
                raise DataError(f"deal: deck card #{i + 1}: {shorten(k)} is not an index "
                                f"0..{len(kinds) - 1} into 'cards'")
        seed = data.get("seed")
        return cls(train, tuple(kinds[k] for k in order), data.get("players", 1),
                   data.get("hand_size", HAND_SIZE),
                   None if seed is None else check_seed(seed))

    @classmethod
    def from_json(cls, text: str) -> Deal:
        """Read :meth:`to_json`'s text; bad input raises :class:`DataError` naming the part."""
        try:
            data = json.loads(text)
        except RecursionError:
            raise DataError("a deal is JSON text: nested too deeply") from None
        except (TypeError, ValueError) as exc:
            raise DataError(f"a deal is JSON text: {exc}") from exc
        return cls.from_dict(data)

    def __str__(self) -> str:
        lines = [f"train: {self.train}", f"players: {self.players}"]
        lines += [f"hand {i + 1}: {', '.join(c.name for c in h)}"
                  for i, h in enumerate(self.hands())]
        lines.append(f"deck ({len(self.stock())} cards, top first): "
                     f"{', '.join(c.name for c in self.stock())}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        """One line (the dataclass repr spelt out every card of the deck; ``str`` lists them).

        >>> deal(seed=1)
        <lucia Deal of seed 1: train 'h G G G h S h h S h T T S h h L0', 1 player, hands of 3, \
33 cards>
        """
        seed = "" if self.seed is None else f" of seed {self.seed}"
        return (f"<lucia Deal{seed}: train '{self.train}', {plural(self.players, 'player')}, "
                f"hands of {self.hand_size}, {plural(len(self.deck), 'card')}>")


def _card(i: int, c: object) -> Card:
    """Entry ``i`` of a deal's ``cards``; DataError naming it (``deal: card #N: ...``)."""
    if not isinstance(c, dict):
        raise DataError(f"deal: card #{i + 1} is not a table: {shorten(c)}")
    try:
        return Card.from_dict(c)
    except LumicoreError as exc:
        raise DataError(f"deal: card #{i + 1}: {exc}") from exc


def deal(seed: int, players: int = 1, setup: str | Path | Setup = "default",
         deck: str | Path | Deck = "default") -> Deal:
    """A deal as the rulebook sets it up: the star groups shuffled and fixed up
    (:func:`~lumicore.lucia.start.random_train`), then the deck shuffled; both from ``seed``.
    ``deck="default"`` is the game's deck (:data:`GAME_DECK`).

    >>> deal(7).train == deal(7).train and deal(7).deck == deal(7).deck
    True
    """
    seed = check_seed(seed)
    players = check_players(players)
    cards = game_deck(deck).cards
    rng = np.random.default_rng(seed)
    train = random_train(rng, setup)
    order = tuple(cards[i] for i in rng.permutation(len(cards)))
    return Deal(train, order, players, HAND_SIZE, seed)


_TABLES: dict[tuple, HeuristicTable] = {}
_BY_IDENTITY: dict[tuple, tuple[tuple, HeuristicTable]] = {}


def heuristic_table(kinds: tuple[Card, ...], train: Train) -> HeuristicTable:
    """The puzzle heuristic's table for these card kinds and this train's shape, cached (every
    train a setup deals has the same shape, and a table takes about 0.1 s to build). A tuple of
    kinds seen before is found by its identity first: a game state and its clones share theirs,
    and hashing the cards cost more than the heuristic (:meth:`DealState.evaluate`)."""
    sizes = shape(train)
    if isinstance(kinds, tuple):  # a list could change under the same id
        return cached_by_identity(_BY_IDENTITY, kinds, sizes,
                                  lambda: _by_cards(kinds, train, sizes))
    return _by_cards(kinds, train, sizes)


def _by_cards(kinds: tuple[Card, ...], train: Train, sizes: tuple[int, int, int]
              ) -> HeuristicTable:
    key = (check_cards("kinds", kinds), *sizes)
    table = _TABLES.get(key)  # kept in hand: another thread may clear the cache meanwhile
    if table is None:
        table = build_table(kinds, train)
        if len(_TABLES) > 64:
            _TABLES.clear()
        _TABLES[key] = table
    return table


def unseen_counts(cards: Sequence[Card]) -> Counter[Card]:
    """The multiset of ``cards`` (what a player has not seen yet), as a Counter."""
    return Counter(check_cards("cards", cards))
