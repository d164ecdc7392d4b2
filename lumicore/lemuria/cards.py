"""Lemuria card data: building cards (facilities) and character cards, loaded from TOML.

The rulebook does not print the cards; the default files ``lumicore/data/lemuria_buildings.toml``
and ``lemuria_characters.toml`` are a reconstruction (see their header). Pass a path to use your
own cards.

>>> buildings = load_buildings()
>>> len(buildings), buildings["B01"].color, buildings["B01"].cost
(32, 'red', {'stone': 2})
>>> load_characters()["C01"].vp_match
2
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lumicore.checks import check_type
from lumicore.data import read_toml, shorten
from lumicore.errors import DataError
from lumicore.lemuria.schedule import COLORS, RESOURCE_LIMIT, RESOURCES
from lumicore.lemuria.skills import Skill, parse_skill

__all__ = [
    "Building",
    "Character",
    "load_buildings",
    "load_characters",
    "parse_buildings",
    "parse_characters",
    "cards_to_toml",
    "check_building",
    "check_character",
    "RESOURCE_LIMIT",
    "VP_LIMIT",
]

VP_LIMIT = 100
"""The most VP one card may print (VP, ``vp_match``); the score track is far shorter."""

BUILTIN_BUILDINGS = {"default": "lemuria_buildings.toml"}
BUILTIN_CHARACTERS = {"default": "lemuria_characters.toml"}


@dataclass(frozen=True)
class Building:
    """A building card: built from the Trend row it becomes one of the player's facilities.

    >>> Building("B99", "red", 3, {"stone": 2}).total_cost
    2
    """

    id: str
    color: str
    vp: int
    cost: dict[str, int] = field(default_factory=dict)

    def __hash__(self) -> int:
        return hash((self.id, self.color, self.vp, tuple(sorted(self.cost.items()))))

    @property
    def total_cost(self) -> int:
        return sum(self.cost.values())


@dataclass(frozen=True)
class Character:
    """A character card: played for ``food``; housed in a facility it scores ``vp``, or
    ``vp_match`` when the facility has its colour. ``skill`` is the printed text; ``effect``
    (optional) the skill in the vocabulary of :mod:`lumicore.lemuria.skills`, applied by the
    whole game (the one-player year leaves skills out)."""

    id: str
    color: str
    food: int
    vp: int
    vp_match: int
    skill: str = ""
    effect: str = ""

    @property
    def skill_effect(self) -> Skill | None:
        """The parsed ``effect`` (None when the card has none)."""
        return parse_skill(self.effect, f"character {self.id}.effect")


def _amount(value: Any, where: str, limit: int = RESOURCE_LIMIT) -> int:
    """An integer in 0..``limit`` from a data file, or a DataError naming ``where``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise DataError(f"{where}: expected a non-negative integer, got {shorten(value)}")
    if value > limit:
        raise DataError(f"{where}: {shorten(value)} is more than the game can hold (at most "
                        f"{limit})")
    return value


def check_building(card: Any, where: str) -> None:
    """Raise DataError unless ``card`` is a :class:`Building` with amounts the game can hold."""
    if not isinstance(card, Building):
        raise DataError(f"{where}: expected a Building, got {shorten(card)}")
    _color(card.color, f"{where}.color")
    _amount(card.vp, f"{where}.vp", VP_LIMIT)
    resources(card.cost, f"{where}.cost")


def check_character(card: Any, where: str) -> None:
    """Raise DataError unless ``card`` is a :class:`Character` with amounts the game can hold."""
    if not isinstance(card, Character):
        raise DataError(f"{where}: expected a Character, got {shorten(card)}")
    _color(card.color, f"{where}.color")
    _amount(card.food, f"{where}.food")
    _amount(card.vp, f"{where}.vp", VP_LIMIT)
    _amount(card.vp_match, f"{where}.vp_match", VP_LIMIT)


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise DataError(f"{where}: expected a non-empty string, got {shorten(value)}")
    return value


def _color(value: Any, where: str) -> str:
    if value not in COLORS:
        raise DataError(f"{where}: unknown colour {shorten(value)} (one of {', '.join(COLORS)})")
    return value


def resources(value: Any, where: str) -> dict[str, int]:
    """A table resource -> amount with known resources and non-negative amounts."""
    if not isinstance(value, Mapping):
        raise DataError(f"{where}: expected a table of resources, got {shorten(value)}")
    out = {}
    for name, amount in value.items():
        if name not in RESOURCES:
            raise DataError(f"{where}: unknown resource {shorten(name)} "
                            f"(one of {', '.join(RESOURCES)})")
        out[name] = _amount(amount, f"{where}.{name}")
    return out


def _check_keys(entry: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
    if not isinstance(entry, Mapping):
        raise DataError(f"{where}: expected a table, got {shorten(entry)}")
    for key in entry:
        if key not in allowed:
            raise DataError(f"{where}: unknown key {shorten(key)}")
    for key in allowed:
        if key not in entry and key not in ("skill", "cost", "effect"):
            raise DataError(f"{where}: missing key {key!r}")


def _parse(entries: Any, where: str, kind: str, keys: tuple[str, ...],
           make: Callable[[Mapping[str, Any], str, str], Any]) -> dict[str, Any]:
    """Cards by id from a parsed ``[[kind]]`` array; ``make(entry, id, where)`` builds one."""
    if not isinstance(entries, list):
        raise DataError(f"{where}: expected an array of tables [[{kind}]], got "
                        f"{shorten(entries)}")
    cards: dict[str, Any] = {}
    for i, entry in enumerate(entries):
        at = f"{where}[{i}]"
        _check_keys(entry, keys, at)
        card_id = _text(entry["id"], f"{at}.id")
        at = f"{where} {card_id if len(card_id) <= 40 else card_id[:40] + '...'}"
        if card_id in cards:
            raise DataError(f"{at}: duplicate id")
        cards[card_id] = make(entry, card_id, at)
    return cards


def _building(entry: Mapping[str, Any], card_id: str, at: str) -> Building:
    return Building(card_id, _color(entry["color"], f"{at}.color"),
                    _amount(entry["vp"], f"{at}.vp", VP_LIMIT),
                    resources(entry.get("cost", {}), f"{at}.cost"))


def _character(entry: Mapping[str, Any], card_id: str, at: str) -> Character:
    skill = entry.get("skill", "")
    if not isinstance(skill, str):
        raise DataError(f"{at}.skill: expected a string, got {shorten(skill)}")
    return Character(card_id, _color(entry["color"], f"{at}.color"),
                     _amount(entry["food"], f"{at}.food"),
                     _amount(entry["vp"], f"{at}.vp", VP_LIMIT),
                     _amount(entry["vp_match"], f"{at}.vp_match", VP_LIMIT), skill,
                     _effect(entry, at))


def _effect(entry: Mapping[str, Any], at: str) -> str:
    """The optional ``effect`` of a character, checked against the skill vocabulary."""
    effect = entry.get("effect", "")
    skill = parse_skill(effect, f"{at}.effect")
    if skill is not None and skill.kind == "trend bonus":  # the year model knows no such play
        raise DataError(f"{at}.effect: 'trend bonus' is an Impact card's effect, not a "
                        "character's")
    return effect


def parse_buildings(entries: Any, where: str = "building") -> dict[str, Building]:
    """Building cards from the parsed ``[[building]]`` array of a TOML file."""
    return _parse(entries, where, "building", ("id", "color", "vp", "cost"), _building)


def parse_characters(entries: Any, where: str = "character") -> dict[str, Character]:
    """Character cards from the parsed ``[[character]]`` array of a TOML file."""
    return _parse(entries, where, "character",
                  ("id", "color", "food", "vp", "vp_match", "skill", "effect"), _character)


CARD_TABLES = ("building", "character")
"""The tables of a card file: a loader reads its own and lets the other kind be."""


def _load(name_or_path: str | Path, builtin: dict[str, str], key: str) -> list[Any]:
    data = read_toml(name_or_path, builtin)
    # one file may hold both kinds of cards (as cards_to_toml writes them); each loader reads
    # its own
    extra = [k for k in data if k not in CARD_TABLES]
    if extra:
        raise DataError(f"{shorten(name_or_path)}: unknown key {shorten(extra[0])} "
                        f"(expected [[{key}]] tables)")
    if not data.get(key):  # a game of no cards: an empty Trend row, or no hands to deal
        raise DataError(f"{shorten(name_or_path)}: no [[{key}]] tables")
    return data[key]


def load_buildings(name_or_path: str | Path = "default") -> dict[str, Building]:
    """Building cards by id from ``"default"`` or a TOML file of ``[[building]]`` tables."""
    return parse_buildings(_load(name_or_path, BUILTIN_BUILDINGS, "building"),
                           f"{shorten(name_or_path)}: building")


def load_characters(name_or_path: str | Path = "default") -> dict[str, Character]:
    """Character cards by id from ``"default"`` or a TOML file of ``[[character]]`` tables."""
    return parse_characters(_load(name_or_path, BUILTIN_CHARACTERS, "character"),
                            f"{shorten(name_or_path)}: character")


def toml_str(text: str) -> str:
    """A TOML basic string (JSON escapes are valid TOML escapes).

    >>> toml_str('say "hi"')
    '"say \\\\"hi\\\\""'
    """
    import json

    # JSON leaves DEL (U+007F) raw, which a TOML string may not hold
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def inline_table(values: Mapping[str, Any]) -> str:
    """``{ a = 1, b = "x" }`` for a flat mapping of ints and strings."""
    parts = [f"{k} = {toml_str(v) if isinstance(v, str) else v}" for k, v in values.items()]
    return "{ " + ", ".join(parts) + " }" if parts else "{}"


def cards_to_toml(buildings: Mapping[str, Building] | None = None,
                  characters: Mapping[str, Character] | None = None) -> str:
    """The ``[[building]]`` and ``[[character]]`` tables of a card file (round-trips)."""
    for name, cards in (("buildings", buildings), ("characters", characters)):
        if cards is not None:
            check_type(cards, Mapping, name,  # type: ignore[type-abstract]
                       "a mapping of card ids to cards, or None")
    lines: list[str] = []
    for b in (buildings or {}).values():
        lines += ["[[building]]", f"id = {toml_str(b.id)}", f"color = {toml_str(b.color)}",
                  f"vp = {b.vp}", f"cost = {inline_table(b.cost)}", ""]
    for c in (characters or {}).values():
        lines += ["[[character]]", f"id = {toml_str(c.id)}", f"color = {toml_str(c.color)}",
                  f"food = {c.food}", f"vp = {c.vp}", f"vp_match = {c.vp_match}",
                  f"skill = {toml_str(c.skill)}"]
        lines += [f"effect = {toml_str(c.effect)}"] if c.effect else []
        lines.append("")
    return "\n".join(lines)
