"""Action cards: actions (``move``, ``wild``, ``light``, ``lucia``), cards of one or two actions,
and decks read from TOML (schema in docs/lucia.md).

>>> card = Card.from_dict({"actions": [{"kind": "light", "source": "H"},
...                                    {"kind": "move", "roles": "S", "steps": 1}]})
>>> card.name
'light from H + move S 1'
>>> deck = load_deck("default")
>>> len(deck), len(deck.kinds)
(33, 15)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lumicore.checks import field_error
from lumicore.data import naming_source, read_toml, shorten
from lumicore.errors import DataError, LumicoreError
from lumicore.lucia.notation import MAX_KIDS, ROLES

__all__ = ["Action", "Card", "Deck", "load_deck", "read_card_kinds", "BUILTIN_DECKS", "KINDS"]

KINDS = ("move", "wild", "light", "lucia")
"""The action kinds a card may have (a deck file's ``kind`` values)."""
BUILTIN_DECKS = {"default": "lucia_deck.toml", "reconstructed": "lucia_deck.toml",
                 "calibrated": "lucia_deck_calibrated.toml"}
"""Built-in decks by name, as :func:`load_deck` takes them: ``default`` and ``reconstructed`` (the
same reconstructed deck), ``calibrated`` (the deck of dealt games, see docs/lucia.md)."""
MAX_COPIES = 1000
"""The most copies of one card a deck file may ask for."""
_ACTION_KEYS = {"move": {"kind", "roles", "steps"}, "wild": {"kind", "steps"},
                "light": {"kind", "source"}, "lucia": {"kind"}}
_ROLE_NAMES = {"L": "Lucia", "H": "Handmaiden", "T": "Tomten", "S": "Starboy", "G": "Gingerbread"}


def _first(keys: set[Any]) -> str:
    """The first of some unknown keys, for an error message."""
    return sorted(map(str, keys))[0]


@dataclass(frozen=True, order=True)
class Action:
    """One action of a card.

    ``roles`` (move: the role letters that may move; wild: all five), ``steps`` (move / wild:
    exact number of steps), ``source`` (light: ``'H'`` or ``'T'``).

    >>> Action.move("HS", 2), Action.light("T"), Action.lucia()
    (Action('move S or H 2'), Action('light from T'), Action('lucia'))
    """

    kind: str
    roles: str = ""
    steps: int = 0
    source: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise DataError(f"action kind {shorten(self.kind)} is not one of {', '.join(KINDS)}")
        if self.kind in ("move", "wild"):
            if (isinstance(self.steps, bool) or not isinstance(self.steps, int)
                    or not 1 <= self.steps < MAX_KIDS):
                raise DataError(f"{self.kind} steps must be an integer 1..{MAX_KIDS - 1}, "
                                f"got {shorten(self.steps)}")
            roles = ROLES if self.kind == "wild" else self.roles
            if not isinstance(roles, str) or not roles or any(r not in ROLES for r in roles):
                raise DataError(f"move roles must be letters of {ROLES!r}, "
                                f"got {shorten(self.roles)}")
            # canonical order so that "HS" and "SH" are the same action
            object.__setattr__(self, "roles", "".join(r for r in ROLES if r in roles))
        elif self.kind == "light":
            if self.source not in ("H", "T"):
                raise DataError(f"light source must be 'H' or 'T', got {shorten(self.source)}")
        if self.kind != "light" and self.source:
            raise DataError(f"{self.kind} takes no source")
        if self.kind in ("light", "lucia") and (self.roles or self.steps):
            raise DataError(f"{self.kind} takes no roles or steps")

    @classmethod
    def move(cls, roles: str, steps: int) -> Action:
        return cls("move", roles=roles, steps=steps)

    @classmethod
    def wild(cls, steps: int) -> Action:
        return cls("wild", roles=ROLES, steps=steps)

    @classmethod
    def light(cls, source: str) -> Action:
        return cls("light", source=source)

    @classmethod
    def lucia(cls) -> Action:
        return cls("lucia")

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Action:
        """One inline table of a deck file's ``actions`` list."""
        if not isinstance(d, Mapping):
            raise DataError(f"an action is a table, got {shorten(d)}")
        kind = d.get("kind")
        if not isinstance(kind, str) or kind not in _ACTION_KEYS:
            raise DataError(f"action kind {shorten(kind)} is not one of {', '.join(KINDS)}")
        extra = set(d) - _ACTION_KEYS[kind]
        missing = _ACTION_KEYS[kind] - set(d)
        if extra or missing:
            unknown = sorted(k[:80] for k in map(str, extra))
            raise DataError(f"{kind} action: unknown keys {unknown}, missing {sorted(missing)}")
        if kind == "wild":
            return cls.wild(d["steps"])
        return cls(kind, roles=d.get("roles", ""), steps=d.get("steps", 0),
                   source=d.get("source", ""))

    def to_dict(self) -> dict[str, Any]:
        keys = sorted(_ACTION_KEYS[self.kind] - {"kind"})
        return {"kind": self.kind, **{k: getattr(self, k) for k in keys}}

    def moves(self, role: str) -> bool:
        """Whether a kid of ``role`` may be moved by this action."""
        return self.kind in ("move", "wild") and role in self.roles

    def covers(self, other: Action) -> bool:
        """Whether every way to perform ``other`` is also a way to perform this action (a
        move of the same steps whose roles include the other's; equal actions).

        >>> Action.wild(1).covers(Action.move("S", 1)), Action.wild(2).covers(Action.wild(1))
        (True, False)
        """
        if not isinstance(other, Action):
            raise DataError(f"an action covers only actions, got {shorten(other)}")
        if self.kind in ("move", "wild") and other.kind in ("move", "wild"):
            return self.steps == other.steps and set(other.roles) <= set(self.roles)
        return self == other

    def __str__(self) -> str:
        if self.kind == "move":
            return f"move {' or '.join(r for r in 'SHGTL' if r in self.roles)} {self.steps}"
        if self.kind == "wild":
            return f"wild {self.steps}"
        if self.kind == "light":
            return f"light from {self.source}"
        return "lucia"

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"


@dataclass(frozen=True)
class Card:
    """A card of one action or two (a multi card, performed in either order).

    Two cards are equal when they hold the same actions (in any order); ``name`` is for display.

    >>> Card((Action.move("S", 1), Action.light("H"))) == Card((Action.light("H"),
    ...                                                        Action.move("S", 1)), name="x")
    True
    """

    actions: tuple[Action, ...]
    name: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        actions = tuple(self.actions) if isinstance(self.actions, Iterable) else ()
        if not 1 <= len(actions) <= 2 or not all(isinstance(a, Action) for a in actions):
            raise DataError(f"a card holds one or two actions, got {shorten(self.actions)}")
        if not isinstance(self.name, str):
            raise DataError(f"card name must be text, got {shorten(self.name)}")
        object.__setattr__(self, "actions", actions)
        if not self.name:
            object.__setattr__(self, "name", " + ".join(str(a) for a in actions))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return sorted(self.actions) == sorted(other.actions)

    def __hash__(self) -> int:
        return hash(tuple(sorted(self.actions)))

    def covers(self, other: Card) -> bool:
        """Whether every play of ``other`` is also a play of this card (action by action, in
        some pairing), so a search may leave ``other`` out.

        >>> Card((Action.wild(1),)).covers(Card((Action.move("S", 1),)))
        True
        """
        if not isinstance(other, Card):
            raise DataError(f"a card covers only cards, got {shorten(other)}")
        a, b = self.actions, other.actions
        if len(a) != len(b):
            return False
        if len(a) == 1:
            return a[0].covers(b[0])
        return (a[0].covers(b[0]) and a[1].covers(b[1])) or \
            (a[0].covers(b[1]) and a[1].covers(b[0]))

    @property
    def orders(self) -> tuple[tuple[Action, ...], ...]:
        """The orders in which the actions may be performed (one for a single or twin card)."""
        a = self.actions
        return (a,) if len(a) == 1 or a[0] == a[1] else (a, a[::-1])

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Card:
        """One ``[[card]]`` table: ``actions`` (one or two), optional ``name`` and ``copies``."""
        if not isinstance(d, Mapping):
            raise DataError(f"a card is a table, got {shorten(d)}")
        name = d.get("name", "")
        if not isinstance(name, str):
            raise DataError(f"card name must be text, got {shorten(name)}")
        extra = set(d) - {"name", "copies", "actions"}
        if extra:
            raise DataError(f"card {shorten(name)}: unknown key {shorten(_first(extra))}")
        card_copies(d)
        actions = d.get("actions")
        if not isinstance(actions, list) or not 1 <= len(actions) <= 2:
            raise DataError(f"card {shorten(name)}: 'actions' must list one or two actions")
        try:
            return cls(tuple(Action.from_dict(a) for a in actions), name=name)
        except DataError as exc:
            raise DataError(f"card {shorten(name)}: {exc}") from exc

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "actions": [a.to_dict() for a in self.actions]}

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Card({self.name!r})"


def card_copies(table: Mapping[str, Any]) -> int:
    """A ``[[card]]`` table's ``copies`` (1 when absent), checked.

    >>> card_copies({"copies": 0})
    Traceback (most recent call last):
    ...
    lumicore.errors.DataError: copies must be an integer 1..1000, got '0'
    """
    copies = table.get("copies", 1)
    if isinstance(copies, bool) or not isinstance(copies, int) or not 1 <= copies <= MAX_COPIES:
        raise DataError(f"copies must be an integer 1..{MAX_COPIES}, got {shorten(copies)}")
    return copies


@dataclass(frozen=True)
class Deck:
    """A deck: every physical card (``cards``, copies repeated) in file order.

    >>> deck = Deck.from_dict({"card": [{"copies": 2, "actions": [{"kind": "lucia"}]}]})
    >>> len(deck), deck.kinds
    (2, (Card('lucia'),))
    """

    cards: tuple[Card, ...]

    @property
    def kinds(self) -> tuple[Card, ...]:
        """The distinct cards, in order of first appearance."""
        return tuple(dict.fromkeys(self.cards))

    def copies(self, card: Card) -> int:
        return sum(c == card for c in self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Deck:
        """A deck from a parsed deck file: ``[[card]]`` tables and nothing else.

        >>> Deck.from_dict({"cards": []})
        Traceback (most recent call last):
        ...
        lumicore.errors.DataError: unknown key 'cards' in a deck file (expected [[card]] tables)
        """
        if not isinstance(data, Mapping):
            raise DataError(f"a deck is a table of [[card]] tables, got {shorten(data)}")
        extra = set(data) - {"card"}
        if extra:
            raise DataError(f"unknown key {shorten(_first(extra))} in a deck file "
                            "(expected [[card]] tables)")
        tables = data.get("card")
        if not isinstance(tables, list) or not tables:
            raise DataError("a deck file needs at least one [[card]] table")
        cards: list[Card] = []
        for i, table in enumerate(tables):
            try:
                cards += [Card.from_dict(table)] * card_copies(table)
            except DataError as exc:
                raise DataError(f"card #{i + 1}: {exc}") from exc
        return cls(tuple(cards))


def load_deck(name_or_path: str | Path = "default") -> Deck:
    """Load a built-in deck (``"default"``: the 33 cards of docs/lucia.md) or a TOML file."""
    data = read_toml(name_or_path, BUILTIN_DECKS)
    with naming_source(name_or_path):
        return Deck.from_dict(data)


def read_card_kinds(items: list[Any], source: str, field: str = "cards") -> list[Card]:
    """The cards of a saved state's ``field`` (a list of card tables), each kind once; a
    :class:`DataError` naming ``source`` and the first bad item."""
    if not isinstance(items, list):
        raise field_error(source, field, "a list of cards", items)
    kinds: list[Card] = []
    for i, raw in enumerate(items):
        try:
            kinds.append(Card.from_dict(raw))
        except (LumicoreError, RecursionError) as exc:
            raise field_error(source, f"{field}[{i}]", f"a card ({str(exc)[:80]})",
                              raw) from None
        if kinds[-1] in kinds[:-1]:
            raise field_error(source, f"{field}[{i}]", "a card kind listed once", raw)
    return kinds
