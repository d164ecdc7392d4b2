"""The Lucia train: an immutable, hashable state that prints in its notation, and its plays.

>>> train = Train.parse("S h T G L0")
>>> train, hex(train.packed)
(Train('S h T G L0'), '0xfffffffffff54203')
>>> from lumicore.lucia.cards import Action, Card
>>> for play in train.plays(Card((Action.move("S", 1),))):
...     print(play)
move S 1: S 0→1 => h S T G L0
>>> Train.parse("S G h L0")
Traceback (most recent call last):
...
lumicore.errors.NotationError: Gingerbread at position 1 stands next to the Starboy at position 0
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from numbers import Integral
from typing import Final

from lumicore.checks import check_type
from lumicore.data import shorten
from lumicore.errors import LumicoreError, NotationError
from lumicore.lucia import reference
from lumicore.lucia.cards import Card
from lumicore.lucia.notation import (
    EMPTY,
    GINGER,
    LUCIA5,
    MAX_KIDS,
    STARBOY,
    TOKENS,
    candles_of,
    format_codes,
    is_lucia,
    pack,
    parse_codes,
    role_of,
    unpack,
)

__all__ = ["Rules", "Train", "Play", "Choice", "STANDARD_COUNTS", "DEFAULT_RULES"]

Choice = reference.Choice

STANDARD_COUNTS: Final = {"L": 1, "H": 7, "T": 2, "S": 3, "G": 3}
"""Kids per role in the box's train of 16."""


@dataclass(frozen=True)
class Rules:
    """The rule options of docs/lucia.md (defaults are the design's decisions).

    ``lucia_partial``: the ``lucia`` action may stop after any number of the Handmaidens of the
    run instead of passing the whole run. ``custom_trains``: trains of 1..16 kids with any mix of
    roles (exactly one Lucia) are accepted; ``False`` requires the box's counts (STANDARD_COUNTS).
    """

    lucia_partial: bool = False
    custom_trains: bool = True

    def __post_init__(self) -> None:
        for name in ("lucia_partial", "custom_trains"):
            if not isinstance(getattr(self, name), bool):
                raise LumicoreError(f"Rules({name}=...) is True or False, got "
                                    f"{shorten(getattr(self, name))}")


DEFAULT_RULES: Final = Rules()
"""The rules every function uses unless given others: the design's decisions (``Rules()``)."""


def check_rules(rules: object) -> Rules:
    """``rules`` if it is a :class:`Rules`, else a :class:`LumicoreError` naming it."""
    return check_type(rules, Rules, "rules", "a lumicore.lucia.Rules")


def check_card(card: object) -> Card:
    """``card`` if it is a :class:`Card`, else a :class:`LumicoreError` naming it."""
    return check_type(card, Card, "card", "a lumicore.lucia.Card (see load_deck)")


def check_cards(what: str, cards: object,
                expected: str = "a sequence of lumicore.lucia.Card") -> tuple[Card, ...]:
    """``cards`` as a tuple if it is a sequence of :class:`Card`, else a
    :class:`LumicoreError` naming ``what`` ("``what`` must be ``expected``") or the first card
    that is none, counted from 1 as a user counts them.

    >>> from lumicore.lucia import Action
    >>> check_cards("hand", [Card((Action.wild(1),)), "wild 2"])
    Traceback (most recent call last):
    ...
    lumicore.errors.LumicoreError: hand card #2 is not a lumicore.lucia.Card: 'wild 2'
    """
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise LumicoreError(f"{what} must be {expected}, got {shorten(cards)}")
    items = tuple(cards)
    for i, card in enumerate(items):
        if not isinstance(card, Card):
            raise LumicoreError(f"{what} card #{i + 1} is not a lumicore.lucia.Card: "
                                f"{shorten(card)}")
    return items


def as_train(value: object, rules: Rules = DEFAULT_RULES, name: str = "train") -> Train:
    """``value`` if it is a :class:`Train`, parsed if it is its notation, else a
    :class:`LumicoreError` naming ``name``."""
    train = Train.parse(value, rules) if isinstance(value, str) else value
    if not isinstance(train, Train):
        raise LumicoreError(f"{name} must be a Train or its notation, got {shorten(value)}")
    return train


def _check(codes: tuple[int, ...], rules: Rules) -> None:
    if not 1 <= len(codes) <= MAX_KIDS:
        raise NotationError(f"a train has 1..{MAX_KIDS} kids, got {len(codes)} kid codes")
    for pos, code in enumerate(codes):
        if not 0 <= code <= LUCIA5:
            shown = code if abs(code) < 1 << 64 else shorten(code)  # str() fails past 4300 digits
            raise NotationError(f"bad kid code {shown} at position {pos}")
    lucias = [pos for pos, code in enumerate(codes) if is_lucia(code)]
    if len(lucias) != 1:
        where = f" (at positions {', '.join(map(str, lucias))})" if lucias else ""
        raise NotationError(f"a train has exactly one Lucia, got {len(lucias)}{where}")
    for pos in range(1, len(codes)):
        pair = (codes[pos - 1], codes[pos])
        if GINGER in pair and STARBOY in pair:
            g = pos if codes[pos] == GINGER else pos - 1
            raise NotationError(f"Gingerbread at position {g} stands next to the Starboy at "
                                f"position {2 * pos - 1 - g}")
    if not check_rules(rules).custom_trains:
        counts = Counter(role_of(c) for c in codes)
        for role, want in STANDARD_COUNTS.items():
            if counts[role] != want:
                raise NotationError(f"the standard train has {want} of role {role}, "
                                    f"got {counts[role]} (Rules(custom_trains=True) allows it)")


@dataclass(frozen=True)
class Train:
    """A train of 1..16 kids, front first, as nibble codes (see :mod:`lumicore.lucia.notation`).

    Build it with :meth:`parse` or :meth:`from_packed`; ``str(train)`` is its notation.
    """

    codes: tuple[int, ...]

    @classmethod
    def _of(cls, codes: tuple[int, ...]) -> Train:
        """The train of ``codes`` that a rule made from a valid train: not checked again (a
        check costs more than the rule; the twin tests compare the rules with the kernel's)."""
        train = object.__new__(cls)
        object.__setattr__(train, "codes", codes)
        return train

    def __post_init__(self) -> None:
        if isinstance(self.codes, (str, bytes)) or not isinstance(self.codes, Iterable):
            raise NotationError(f"kid codes must be a sequence of integers, "
                                f"got {shorten(self.codes)}")
        codes = tuple(self.codes)
        if not all(isinstance(c, int) and not isinstance(c, bool) for c in codes):
            raise NotationError(f"kid codes must be integers, got {shorten(self.codes)}")
        object.__setattr__(self, "codes", codes)
        _check(codes, DEFAULT_RULES)

    @classmethod
    def parse(cls, text: str, rules: Rules = DEFAULT_RULES) -> Train:
        """Read the notation, e.g. ``"S h S h S h h G h G T h T G h L0"``."""
        codes = parse_codes(text)
        _check(codes, rules)
        return cls(codes)

    @classmethod
    def from_packed(cls, packed: int, rules: Rules = DEFAULT_RULES) -> Train:
        """The train of a packed ``uint64`` (4 bits per position, 15 = empty, at the end only)."""
        if (isinstance(packed, bool) or not isinstance(packed, Integral)
                or not 0 <= int(packed) < 1 << 64):
            raise NotationError(f"a packed train is an unsigned 64-bit integer, "
                                f"got {shorten(packed)}")
        packed = int(packed)
        codes = unpack(packed)
        for pos in range(len(codes), MAX_KIDS):
            if (packed >> (4 * pos)) & 0xF != EMPTY:
                raise NotationError(f"packed train has a kid at position {pos} after the empty "
                                    f"position {len(codes)}")
        _check(codes, rules)
        return cls(codes)

    @property
    def packed(self) -> int:
        """The ``uint64`` of docs/lucia.md: position ``i`` in bits ``4i..4i+3``."""
        return pack(self.codes)

    def __str__(self) -> str:
        return format_codes(self.codes)

    def __repr__(self) -> str:
        return f"Train({str(self)!r})"

    def __len__(self) -> int:
        return len(self.codes)

    @property
    def tokens(self) -> tuple[str, ...]:
        return tuple(TOKENS[c] for c in self.codes)

    @property
    def lucia_position(self) -> int:
        return next(pos for pos, c in enumerate(self.codes) if is_lucia(c))

    @property
    def candles(self) -> int:
        """How many of Lucia's candles are lit (0..5)."""
        return candles_of(self.codes[self.lucia_position])

    def count(self, role: str) -> int:
        """Kids of a role letter (``'H'`` counts lit and unlit Handmaidens)."""
        return sum(role_of(c) == role for c in self.codes)

    @property
    def is_standard(self) -> bool:
        """Whether the train has the box's 16 kids (STANDARD_COUNTS)."""
        return all(self.count(r) == n for r, n in STANDARD_COUNTS.items())

    def is_goal(self) -> bool:
        """Lucia in front with 5 candles, all Starboys at the back, all Handmaidens lit."""
        return reference.is_goal(self.codes)

    def plays(self, card: Card, rules: Rules = DEFAULT_RULES) -> Iterator[Play]:
        """Every legal way to play ``card`` (none when it cannot be played)."""
        for choices, after in reference.card_outcomes(self.codes, check_card(card),
                                                         check_rules(rules).lucia_partial):
            yield Play(card, choices, self, Train._of(after))

    def successors(self, card: Card, rules: Rules = DEFAULT_RULES) -> frozenset[Train]:
        """The distinct trains one play of ``card`` can lead to."""
        partial = check_rules(rules).lucia_partial
        return frozenset(Train._of(k) for k in reference.successors(self.codes, check_card(card),
                                                                 partial))

    def text(self) -> str:
        """A two-line plain-text view for terminals: positions above tokens."""
        cells = [(str(i), t) for i, t in enumerate(self.tokens)]
        width = [max(len(a), len(b)) for a, b in cells]
        return "\n".join(" ".join(cell[row].rjust(w) for cell, w in zip(cells, width, strict=True))
                         for row in (0, 1))

    def _repr_svg_(self) -> str:
        from lumicore.lucia.render import train_svg

        return train_svg(self)


def describe(choice: Choice) -> str:
    """``S 3→5`` for a move, ``T 7 lights`` for a light, ``L2 15→13`` for Lucia's run."""
    token = TOKENS[choice.code]
    if choice.action.kind == "light":
        return f"{token} {choice.start} lights"
    return f"{token} {choice.start}→{choice.end}"


@dataclass(frozen=True)
class Play:
    """One legal play: the card, the choices in the order performed, and the trains before and
    after (``play.train``)."""

    card: Card
    choices: tuple[Choice, ...]
    before: Train
    train: Train

    def __str__(self) -> str:
        return f"{self.card.name}: {', '.join(map(describe, self.choices))} => {self.train}"

    def _repr_svg_(self) -> str:
        from lumicore.lucia.render import train_svg

        return train_svg(self.train, caption=f"{self.card.name}: "
                                             f"{', '.join(map(describe, self.choices))}")

