"""The rules of a dealt game in plain Python, and a plain exhaustive search: the executable spec
that the kernel's deal search (``ext/lucia_deal.pxi``) is tested against.

A position is the train, the hands (one tuple of cards per player, in seat order), the seat of the
player to move and the cards left to draw (top first).

>>> from lumicore.lucia import Action, Card, Train
>>> light, lucia = Card((Action.light("T"),)), Card((Action.lucia(),))
>>> winnable(Train.parse("h T L4"), ((light,),), ())
False
>>> winnable(Train.parse("H L4 T"), ((light, lucia),), ())
True
>>> fewest_plays(Train.parse("H L4 T"), ((light, lucia),), ())
2
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache

from lumicore.lucia.cards import Card
from lumicore.lucia.train import DEFAULT_RULES, Rules, Train

__all__ = ["Position", "plays", "after_play", "winnable", "fewest_plays"]

Hands = tuple[tuple[Card, ...], ...]
Position = tuple[Train, Hands, int, tuple[Card, ...]]
"""A position of a dealt game: the train, the hands (one tuple of cards per player, in seat order),
the seat of the player to move and the cards left to draw (top first)."""


def plays(train: Train, hand: Sequence[Card], rules: Rules = DEFAULT_RULES
          ) -> list[tuple[Card, Train]]:
    """The distinct plays of a hand: (card, resulting train), cards in hand order."""
    out: dict[tuple[Card, Train], None] = {}
    for card in dict.fromkeys(hand):
        for after in sorted(train.successors(card, rules), key=lambda t: t.codes):
            out.setdefault((card, after), None)
    return list(out)


def after_play(hands: Hands, mover: int, card: Card, deck: tuple[Card, ...]
               ) -> tuple[Hands, int, tuple[Card, ...]]:
    """The mover discards ``card`` and draws the top of ``deck`` if any; the next player moves."""
    hand = list(hands[mover])
    hand.remove(card)
    if deck:
        hand.append(deck[0])
        deck = deck[1:]
    new = hands[:mover] + (tuple(hand),) + hands[mover + 1:]
    return new, (mover + 1) % len(hands), deck


def _key(train: Train, hands: Hands, mover: int, deck: tuple[Card, ...]) -> tuple:
    return train, tuple(frozenset(Counter(h).items()) for h in hands), mover, len(deck)


def winnable(train: Train, hands: Hands, deck: Sequence[Card], mover: int = 0,
             rules: Rules = DEFAULT_RULES) -> bool:
    """Whether some order of plays wins (plain depth-first search over every play, memoised)."""
    deck = tuple(deck)

    @cache
    def win(key: tuple) -> bool:
        train, hands, mover, deck = memo[key]
        for card, after in plays(train, hands[mover], rules):
            if after.is_goal():
                return True
            nxt = (after, *after_play(hands, mover, card, deck))
            k = _key(*nxt)
            memo.setdefault(k, nxt)
            if win(k):
                return True
        return False

    if train.is_goal():
        return True
    start = (train, tuple(map(tuple, hands)), mover, deck)
    memo = {_key(*start): start}
    return win(_key(*start))


def fewest_plays(train: Train, hands: Hands, deck: Sequence[Card], mover: int = 0,
                 rules: Rules = DEFAULT_RULES) -> int | None:
    """The fewest plays that win (breadth-first, one layer per play), None if none does."""
    if train.is_goal():
        return 0
    layer = {_key(train, tuple(map(tuple, hands)), mover, tuple(deck)):
             (train, tuple(map(tuple, hands)), mover, tuple(deck))}
    depth = 0
    while layer:
        depth += 1
        nxt: dict[tuple, Position] = {}
        for train, hands, mover, deck in layer.values():
            for card, after in plays(train, hands[mover], rules):
                if after.is_goal():
                    return depth
                pos = (after, *after_play(hands, mover, card, deck))
                nxt.setdefault(_key(*pos), pos)
        layer = nxt
    return None
