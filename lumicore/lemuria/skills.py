"""Character skills and Lemuria Impact cards in a small effect vocabulary (all reconstructions).

The rulebook prints no skill and only one Impact card (8: every Trend slot's bonus becomes 6 VP
for the rest of the turn). lumicore's cards carry an optional ``effect`` in this notation:

- ``gain RESOURCE N``: take N of a resource from the supply;
- ``rotate``: turn the altar one memory clockwise or one memory back (free);
- ``extra build``: one more build this turn;
- ``discount``: the next build this turn may reduce one more required resource by 1;
- ``draw``: draw one character card (free);
- ``trend bonus A B C D E`` (Impact cards): the trend bonus of slots 1-5 for the rest of the turn.

Every effect is a "may": the player chooses :data:`DECLINE` or one of the effect's choices.

>>> skill = parse_skill("gain stone 2")
>>> skill.kind, skill.resource, skill.amount, str(skill), skill.choices()
('gain', 'stone', 2, 'gain stone 2', ('decline', 'use'))
>>> parse_skill("rotate").choices()
('decline', 'clockwise', 'back')
>>> load_impacts()[8].effect.bonus
(6, 6, 6, 6, 6)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lumicore.data import read_toml, shorten
from lumicore.errors import DataError
from lumicore.lemuria.schedule import RESOURCE_LIMIT, RESOURCES

__all__ = ["KINDS", "DECLINE", "Skill", "ImpactCard", "parse_skill", "load_impacts",
           "parse_impacts"]

KINDS = ("gain", "rotate", "extra build", "discount", "draw", "trend bonus")
"""The effect kinds of a skill or Impact card (how its notation starts)."""
DECLINE = "decline"
"""The choice that declines an effect (every effect is a "may")."""
BUILTIN_IMPACTS = {"default": "lemuria_impact.toml"}


@dataclass(frozen=True)
class Skill:
    """One effect: ``kind`` (one of :data:`KINDS`), ``resource`` and ``amount`` for ``gain``,
    ``bonus`` (5 slots) for ``trend bonus``."""

    kind: str
    resource: str | None = None
    amount: int = 0
    bonus: tuple[int, ...] = ()

    def choices(self) -> tuple[str, ...]:
        """The ways to resolve it: decline first, then the uses."""
        if self.kind == "rotate":
            return (DECLINE, "clockwise", "back")
        return (DECLINE, "use")

    def __str__(self) -> str:
        if self.kind == "gain":
            return f"gain {self.resource} {self.amount}"
        if self.kind == "trend bonus":
            return "trend bonus " + " ".join(map(str, self.bonus))
        return self.kind


MAX_DIGITS = 9
"""The most digits of a number in an effect (``int`` refuses more than 4300)."""


def _digits(word: str) -> bool:
    """ASCII digits only (``str.isdigit`` also takes '²', which ``int`` refuses), at most
    :data:`MAX_DIGITS` of them."""
    return word.isascii() and word.isdigit() and len(word) <= MAX_DIGITS


def parse_skill(text: str, where: str = "effect") -> Skill | None:
    """A :class:`Skill` from its notation (``""`` -> None); ``str(parse_skill(x)) == x``.

    >>> parse_skill("extra build"), parse_skill("")
    (Skill(kind='extra build', resource=None, amount=0, bonus=()), None)
    """
    if not isinstance(text, str):
        raise DataError(f"{where}: expected a string, got {shorten(text)}")
    words = text.split()
    if not words:
        return None
    bad = DataError(f"{where}: unknown effect {shorten(text)} (gain RESOURCE N, rotate, extra "
                    "build, discount, draw, trend bonus A B C D E)")
    if words[0] == "gain":
        if len(words) != 3 or words[1] not in RESOURCES or not _digits(words[2]) \
                or not 1 <= int(words[2]) <= RESOURCE_LIMIT:
            raise DataError(f"{where}: expected 'gain RESOURCE N' (N in 1..{RESOURCE_LIMIT}, "
                            f"what the game can hold; a resource of {', '.join(RESOURCES)}), got "
                            f"{shorten(text)}")
        return Skill("gain", words[1], int(words[2]))
    if words[:2] == ["trend", "bonus"]:
        values = words[2:]
        if len(values) != 5 or not all(_digits(v) for v in values):
            raise DataError(f"{where}: expected 'trend bonus A B C D E' (5 VP values of at "
                            f"most {MAX_DIGITS} digits), got {shorten(text)}")
        return Skill("trend bonus", bonus=tuple(int(v) for v in values))
    name = " ".join(words)
    if name in ("rotate", "extra build", "discount", "draw"):
        return Skill(name)
    raise bad


@dataclass(frozen=True)
class ImpactCard:
    """A Lemuria Impact card: its ``number`` (1-8), ``name`` and ``effect``."""

    number: int
    name: str
    effect: Skill


def parse_impacts(entries: Any, where: str = "impact") -> dict[int, ImpactCard]:
    """Impact cards by number from the parsed ``[[impact]]`` array of a TOML file."""
    if not isinstance(entries, list) or not entries:
        raise DataError(f"{where}: expected a non-empty array of tables [[impact]], got "
                        f"{shorten(entries)}")
    cards: dict[int, ImpactCard] = {}
    for i, entry in enumerate(entries):
        at = f"{where}[{i}]"
        if not isinstance(entry, dict):
            raise DataError(f"{at}: expected a table")
        for key in entry:
            if key not in ("number", "name", "effect"):
                raise DataError(f"{at}: unknown key {shorten(key)}")
        number = entry.get("number")
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 8:
            raise DataError(f"{at}.number: expected 1..8, got {shorten(number)}")
        if number in cards:
            raise DataError(f"{at}: duplicate Impact card {number}")
        name = entry.get("name", f"Impact {number}")
        effect = parse_skill(entry.get("effect", ""), f"{where} {number}.effect")
        if effect is None:
            raise DataError(f"{where} {number}.effect: missing")
        cards[number] = ImpactCard(number, str(name), effect)
    return dict(sorted(cards.items()))


def load_impacts(name_or_path: str | Path = "default") -> dict[int, ImpactCard]:
    """Impact cards from ``"default"`` (card 8 only, the one the rulebook prints) or a file."""
    data = read_toml(name_or_path, BUILTIN_IMPACTS)
    extra = [k for k in data if k != "impact"]
    if extra:
        raise DataError(f"{name_or_path}: unknown key {shorten(extra[0])} (expected [[impact]] "
                        "tables)")
    return parse_impacts(data.get("impact"), f"{name_or_path}: impact")
