"""Lemuria planning instances: the cards, the opening Trend row and decks, the player's start,
per-turn income and (optionally) what the opponents do. Read from and written to TOML.

>>> inst = default_instance(seed=1)
>>> inst.turns, len(inst.trend), len(inst.hand), inst.start["gold"]
(12, 5, 3, 3)
>>> parse_instance(inst.to_toml()) == inst
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from lumicore.checks import check_index, check_int, check_seed, check_type, is_integer
from lumicore.data import parse_toml, plural, read_toml, shorten, write_file
from lumicore.errors import DataError
from lumicore.lemuria.cards import (
    Building,
    Character,
    cards_to_toml,
    check_building,
    check_character,
    inline_table,
    load_buildings,
    load_characters,
    parse_buildings,
    parse_characters,
    resources,
    toml_str,
)
from lumicore.lemuria.schedule import COLORS, DISTRICTS, RESOURCES

__all__ = [
    "MAX_TURNS",
    "FESTIVALS",
    "REMODEL_FROM",
    "MAX_OPPONENTS",
    "CHITS",
    "CAPACITY",
    "Opponent",
    "Instance",
    "load_instance",
    "parse_instance",
    "instance_from_dict",
    "dump_instance",
    "default_instance",
    "default_income",
    "small_instance",
    "check_instance",
    "check_seed",
]

MAX_TURNS = 12
"""A year has 12 months; an instance may stop earlier (tiny test instances)."""
FESTIVALS = (4, 8, 12)
"""The months of the year that end with a festival."""
REMODEL_FROM = 8
"""The first month in which a facility may be remodelled."""
MAX_OPPONENTS = 3
"""The most opponents an instance may list (a game seats at most 4 players)."""
CHITS = 8
"""Building chits per player: at most this many chits, and this many facilities."""
CAPACITY = {"rural": 6, "commerce": 5, "administrative": 5, "church": 4}
"""Building slots per district (20 in the city)."""

if tuple(COLORS) != ("red", "blue", "green", "yellow"):  # pragma: no cover
    raise ImportError("lemuria colours changed: update the default cards")


def _turn(key: Any, turns: int, where: str) -> int:
    """A turn number from a TOML key ("3") or an int, within 1..turns."""
    if isinstance(key, str) and key.strip().isascii() and key.strip().isdigit():
        if len(key.strip().lstrip("0")) > 2:  # int() refuses 4300+ digits; a turn has 2
            raise DataError(f"{where}: turn {shorten(key.strip())} outside 1..{turns}")
        key = int(key)
    if isinstance(key, bool) or not isinstance(key, int):
        raise DataError(f"{where}: turn {shorten(key)} is not a number")
    if not 1 <= key <= turns:
        shown = key if abs(key) < 10**6 else shorten(key)
        raise DataError(f"{where}: turn {shown} outside 1..{turns}")
    return key


def _table(value: Any, where: str) -> Mapping[Any, Any]:
    if not isinstance(value, Mapping):
        raise DataError(f"{where}: expected a table, got {shorten(value)}")
    return value


def _nonzero(amounts: Mapping[str, int]) -> dict[str, int]:
    return {k: v for k, v in amounts.items() if v}


@dataclass(frozen=True)
class Opponent:
    """What one other player does, as given: ``builds`` turn -> Trend card taken (if still in the
    row), ``chits`` turn -> district of the chit placed (if a slot is free), ``residents`` festival
    turn -> housed facilities per colour at that festival; ``placed``: district -> the chits
    they already have there when the year starts (empty by default)."""

    builds: dict[int, str] = field(default_factory=dict)
    chits: dict[int, str] = field(default_factory=dict)
    residents: dict[int, dict[str, int]] = field(default_factory=dict)
    placed: dict[str, int] = field(default_factory=dict)

    __hash__ = None  # type: ignore[assignment]

    def _checked(self, turns: int, festivals: tuple[int, ...], where: str) -> Opponent:
        builds = {_turn(t, turns, f"{where}.builds"): card for t, card in
                  _table(self.builds, f"{where}.builds").items()}
        chits = {}
        for t, district in _table(self.chits, f"{where}.chits").items():
            turn = _turn(t, turns, f"{where}.chits")
            if district not in DISTRICTS:
                raise DataError(f"{where}.chits turn {turn}: unknown district {shorten(district)} "
                                f"(one of {', '.join(DISTRICTS)})")
            chits[turn] = district
        placed = _district_counts(self.placed, f"{where}.placed")
        if len(chits) + sum(placed.values()) > CHITS:
            raise DataError(f"{where}.chits: {len(chits)} chits"
                            + (f" and {sum(placed.values())} placed" if placed else "")
                            + f", a player has only {CHITS}")
        residents = {}
        for t, per_color in _table(self.residents, f"{where}.residents").items():
            turn = _turn(t, turns, f"{where}.residents")
            at = f"{where}.residents turn {turn}"
            if turn not in festivals:
                raise DataError(f"{at}: not a festival turn (the instance's: "
                                f"{', '.join(map(str, festivals)) or 'none'})")
            counts = _table(per_color, at)
            for color in counts:
                if color not in COLORS:
                    raise DataError(f"{at}: unknown colour {shorten(color)}")
            residents[turn] = _nonzero(_counts(counts, at))
        return Opponent(dict(sorted(builds.items())), dict(sorted(chits.items())),
                        dict(sorted(residents.items())), placed)


def _district_counts(counts: Any, where: str) -> dict[str, int]:
    """Chits per district (a table of counts 0..8), normalised to the districts with chits in
    the order of ``DISTRICTS``; a bad district or count is a DataError naming it."""
    counts = _table(counts, where)
    for district in counts:
        if district not in DISTRICTS:
            raise DataError(f"{where}: unknown district {shorten(district)} (one of "
                            f"{', '.join(DISTRICTS)})")
    checked = _counts(counts, where, "chits")
    return {d: checked[d] for d in DISTRICTS if checked.get(d)}


@cache
def _festivals(turns: int, first_turn: int) -> tuple[int, ...]:
    """The turns of a year of ``turns`` turns from month ``first_turn`` that end with a festival
    (read on every turn of the rules and every node of the exhaustive planner: worked out
    once)."""
    return tuple(t for t in range(1, turns + 1) if t + first_turn - 1 in FESTIVALS)


def _counts(counts: Mapping[str, Any], where: str, what: str = "facilities"
            ) -> dict[str, int]:
    """Counts by key (colours or districts) in 0..CHITS (a player has at most 8 facilities and
    8 chits), naming the bad entry."""
    out = {}
    for key, value in counts.items():
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= CHITS:
            raise DataError(f"{where}.{key}: expected a count of {what} 0..{CHITS}, got "
                            f"{shorten(value)}")
        out[key] = value
    return out


@dataclass(frozen=True)
class Instance:
    """A planning instance (see the module docstring and docs/lemuria.md for the TOML schema).

    The constructor checks and normalises: ``trend`` has 5 slots (None or ``""`` = empty),
    ``start`` holds all four resources, ``income`` every turn 1..turns (missing = ``{}``).
    Any inconsistency raises :class:`~lumicore.errors.DataError` naming the entry.
    """

    turns: int
    buildings: dict[str, Building]
    characters: dict[str, Character]
    trend: tuple[str | None, ...]
    deck: tuple[str, ...] = ()
    start: dict[str, int] = field(default_factory=dict)
    hand: tuple[str, ...] = ()
    character_deck: tuple[str, ...] = ()
    income: dict[int, dict[str, int]] = field(default_factory=dict)
    opponents: tuple[Opponent, ...] = ()
    first_turn: int = 1
    """The month of the year the instance's turn 1 is: festivals and the first remodel turn
    follow the calendar (:attr:`festivals`, :attr:`remodel_from`); turns are still numbered
    from 1 everywhere else (income, opponents, plans)."""
    facilities: dict[str, str | None] = field(default_factory=dict)
    """The player's facilities when the year starts (a year planned from the middle of a
    game): building -> the character housed there (None: nobody). They may house characters,
    count at festivals and be remodelled like facilities built in the year, and count towards
    the 8 facilities; the VP they gave when built and housed are not the year's."""
    chits: dict[str, int] = field(default_factory=dict)
    """The player's building chits already in the city when the year starts, per district
    (at most one per facility: a chit is placed with each build). They count for the
    majorities, the district bonuses and the free slots like chits placed in the year."""
    first_bonuses: tuple[str, ...] | None = None
    """None: turn 1's district bonuses are taken at its start, as every turn's. A list of
    districts: turn 1 began before the year (the game's current turn): these are the bonuses
    its start gave, already in ``start`` and outside the year's VP; of them only
    ``administrative`` still acts (a reduction for turn 1's build)."""

    __hash__ = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        turns = self.turns
        if not is_integer(turns) or not 1 <= turns <= MAX_TURNS:
            raise DataError(f"turns: expected 1..{MAX_TURNS}, got {shorten(turns)}")
        first, last = self.first_turn, MAX_TURNS - int(turns) + 1
        if not is_integer(first) or not 1 <= first <= last:
            raise DataError(f"first_turn: expected 1..{last} (a year of {MAX_TURNS} months, "
                            f"{turns} turns planned), got {shorten(first)}")
        # plain ints: a numpy integer given would reach the records and JSON of the year
        object.__setattr__(self, "turns", int(turns))
        object.__setattr__(self, "first_turn", int(first))
        for name, kind, check in (("buildings", Building, check_building),
                                  ("characters", Character, check_character)):
            cards = getattr(self, name)
            if not isinstance(cards, Mapping) or not all(
                    isinstance(c, kind) and c.id == k for k, c in cards.items()):
                raise DataError(f"{name}: expected a mapping id -> {kind.__name__}")
            for k, c in cards.items():
                check(c, f"{name[:-1]} {k}")
        for name in ("trend", "deck", "hand", "character_deck"):
            if not isinstance(getattr(self, name), (list, tuple)):
                raise DataError(f"{name}: expected a sequence of card ids, "
                                f"got {shorten(getattr(self, name))}")
        trend = tuple(None if slot in (None, "") else slot for slot in self.trend)
        if len(trend) != 5:
            raise DataError(f"trend: expected 5 slots, got {len(trend)}")
        facilities = self._checked_facilities()
        places: dict[str, str] = {}
        self._place_all(places, "building", self.buildings,
                        [(c, f"trend slot {i + 1}") for i, c in enumerate(trend) if c] +
                        [(c, f"deck position {i + 1}") for i, c in enumerate(self.deck)] +
                        [(c, "facilities") for c in facilities])
        places = {}
        self._place_all(places, "character", self.characters,
                        [(c, f"hand position {i + 1}") for i, c in enumerate(self.hand)] +
                        [(c, f"character_deck position {i + 1}")
                         for i, c in enumerate(self.character_deck)] +
                        [(r, f"facilities.{b}") for b, r in facilities.items() if r])
        start = resources(self.start, "start")
        income: dict[int, dict[str, int]] = {t: {} for t in range(1, turns + 1)}
        for t, amounts in _table(self.income, "income").items():
            turn = _turn(t, turns, "income")
            income[turn] = _nonzero(resources(amounts, f"income turn {turn}"))
        if not isinstance(self.opponents, (list, tuple)):
            raise DataError(f"opponent: expected a list of Opponent, got {shorten(self.opponents)}")
        opponents = tuple(self.opponents)
        if len(opponents) > MAX_OPPONENTS:
            raise DataError(f"opponent: at most {MAX_OPPONENTS} opponents, got {len(opponents)}")
        checked = []
        taken: dict[str, str] = {}
        in_play = {c for c in trend if c} | set(self.deck)
        for i, opp in enumerate(opponents):
            where = f"opponent {i + 1}"
            if not isinstance(opp, Opponent):
                raise DataError(f"{where}: expected an Opponent, got {shorten(opp)}")
            opp = opp._checked(turns, self.festivals, where)
            for turn, card in opp.builds.items():
                at = f"{where}.builds turn {turn}"
                if not isinstance(card, str) or card not in self.buildings:
                    raise DataError(f"{at}: unknown building {shorten(card)}")
                if card not in in_play:
                    raise DataError(f"{at}: {card} is in neither the trend nor the deck")
                if card in taken:
                    raise DataError(f"{at}: {card} is also taken by {taken[card]}")
                taken[card] = at
            checked.append(opp)
        chits = _district_counts(self.chits, "chits")
        if sum(chits.values()) > len(facilities):
            raise DataError(f"chits: {sum(chits.values())} chits placed, but the player has "
                            f"{len(facilities)} facilities (a chit is placed with each build)")
        for district, slots in CAPACITY.items():
            held = chits.get(district, 0) + sum(o.placed.get(district, 0) for o in checked)
            if held > slots:
                raise DataError(f"chits: {held} chits already in the {district} district (the "
                                f"player's and the opponents' placed), it has {slots} slots")
        first_bonuses = self.first_bonuses
        if first_bonuses is not None:
            if isinstance(first_bonuses, str) or not isinstance(first_bonuses, (list, tuple)):
                raise DataError(f"first_bonuses: expected a list of districts, got "
                                f"{shorten(first_bonuses)}")
            for district in first_bonuses:
                if district not in DISTRICTS:
                    raise DataError(f"first_bonuses: unknown district {shorten(district)} (one "
                                    f"of {', '.join(DISTRICTS)})")
            first_bonuses = tuple(d for d in DISTRICTS if d in first_bonuses)
        set_ = object.__setattr__
        set_(self, "trend", trend)
        set_(self, "deck", tuple(self.deck))
        set_(self, "hand", tuple(self.hand))
        set_(self, "character_deck", tuple(self.character_deck))
        set_(self, "start", {r: start.get(r, 0) for r in RESOURCES})
        set_(self, "income", income)
        set_(self, "opponents", tuple(checked))
        set_(self, "facilities", facilities)
        set_(self, "chits", chits)
        set_(self, "first_bonuses", first_bonuses)

    def _checked_facilities(self) -> dict[str, str | None]:
        """``facilities`` checked (a table of at most 8 building ids to a character id, or
        None / ``""`` for nobody) and sorted by building; that every card is known and in one
        place is checked with the others."""
        facilities = _table(self.facilities, "facilities")
        if len(facilities) > CHITS:
            raise DataError(f"facilities: {len(facilities)} facilities, a player has at most "
                            f"{CHITS}")
        out: dict[str, str | None] = {}
        for building, resident in sorted(facilities.items(), key=lambda kv: str(kv[0])):
            if resident is not None and not isinstance(resident, str):
                raise DataError(f"facilities.{building}: expected a character id or \"\" "
                                f"(nobody), got {shorten(resident)}")
            out[building] = resident or None
        return out

    @property
    def present(self) -> str | None:
        """The first field saying what the year starts with (``facilities``, ``chits``, an
        opponent's ``placed`` chits, ``first_bonuses``), or None when it starts with
        nothing built: the planners that model no present facilities refuse the former
        (:meth:`check_nothing_present`)."""
        if self.facilities:
            return "facilities"
        if self.chits:
            return "chits"
        for i, opp in enumerate(self.opponents):
            if opp.placed:
                return f"opponent {i + 1}.placed"
        return None if self.first_bonuses is None else "first_bonuses"

    def check_nothing_present(self, planner: str) -> None:
        """A :class:`~lumicore.errors.DataError` naming the field when the year starts with
        present facilities or chits (:attr:`present`), which ``planner`` does not model."""
        field_name = self.present
        if field_name is not None:
            raise DataError(f"{field_name}: {planner} does not model the facilities and chits "
                            "present when the year starts (build_schedule, with or without "
                            "harvests, `lumicore lemuria plan` and exhaustive_best do)")

    @staticmethod
    def _place_all(places: dict[str, str], kind: str, known: Mapping[str, Any],
                   cards: list[tuple[str, str]]) -> None:
        """Check that every card is known and in one place only."""
        for card, where in cards:
            if not isinstance(card, str) or card not in known:
                raise DataError(f"{where}: unknown {kind} {shorten(card)}")
            if card in places:
                raise DataError(f"{kind} {card} is in two places: {places[card]} and {where}")
            places[card] = where

    @property
    def festivals(self) -> tuple[int, ...]:
        """The turns of this instance that end with a festival (months 4, 8 and 12).

        >>> default_instance(0, turns=6).festivals
        (4,)
        >>> default_instance(0, turns=6, first_turn=3).festivals
        (2, 6)
        """
        return _festivals(self.turns, self.first_turn)

    @property
    def remodel_from(self) -> int:
        """The first turn of this instance in which a remodel is allowed (month 8 on)."""
        return max(1, REMODEL_FROM - self.first_turn + 1)

    def __str__(self) -> str:
        """:meth:`to_toml`: the instance's notation (``parse_instance(str(inst)) == inst``)."""
        return self.to_toml()

    def __repr__(self) -> str:
        """One line naming the year (the dataclass repr spelt out every card of both sets).

        >>> default_instance(0, turns=6)
        <lemuria Instance: 6 turns from month 1, trend B11 B22 B26 B12 B03, 27 buildings and \
21 characters in the decks, hand C19 C23 C08, no opponents>
        """
        trend = " ".join(c or "-" for c in self.trend)
        present = "" if self.present is None else f", {self.present} present"
        rivals = plural(len(self.opponents), "opponent") if self.opponents else "no opponents"
        return (f"<lemuria Instance: {plural(self.turns, 'turn')} from month {self.first_turn}, "
                f"trend {trend}, {plural(len(self.deck), 'building')} and "
                f"{plural(len(self.character_deck), 'character')} in the decks, hand "
                f"{' '.join(self.hand) or '(empty)'}, {rivals}{present}>")

    def to_toml(self) -> str:
        """The instance as TOML; :func:`parse_instance` reads it back to an equal instance.

        Default card sets are written as ``"default"``, any other cards inline as
        ``[[building]]`` / ``[[character]]`` tables."""
        default_b = self.buildings == load_buildings()
        default_c = self.characters == load_characters()
        lines = ["# Lemuria planning instance (lumicore; schema in docs/lemuria.md)",
                 f"turns = {self.turns}"]
        if self.first_turn != 1:
            lines.append(f"first_turn = {self.first_turn}")
        if self.facilities:
            homes = ", ".join(f"{toml_str(b)} = {toml_str(r or '')}"
                              for b, r in self.facilities.items())
            lines.append(f"facilities = {{ {homes} }}")
        if self.chits:
            lines.append(f"chits = {inline_table(self.chits)}")
        if self.first_bonuses is not None:
            lines.append(f"first_bonuses = {_array(self.first_bonuses)}")
        if default_b:
            lines.append('buildings = "default"')
        elif not self.buildings:  # no tables would read as the default cards
            lines.append("building = []")
        if default_c:
            lines.append('characters = "default"')
        elif not self.characters:
            lines.append("character = []")
        lines += [f"trend = {_array(c or '' for c in self.trend)}",
                  f"deck = {_array(self.deck)}",
                  f"start = {inline_table(self.start)}",
                  f"hand = {_array(self.hand)}",
                  f"character_deck = {_array(self.character_deck)}",
                  "", "[income]"]
        lines += [f"{t} = {inline_table(a)}" for t, a in self.income.items() if a]
        for opp in self.opponents:
            residents = ", ".join(f"{t} = {inline_table(c)}" for t, c in opp.residents.items())
            lines += ["", "[[opponent]]",
                      f"builds = {inline_table({str(t): c for t, c in opp.builds.items()})}",
                      f"chits = {inline_table({str(t): d for t, d in opp.chits.items()})}",
                      f"residents = {{ {residents} }}" if residents else "residents = {}"]
            if opp.placed:
                lines.append(f"placed = {inline_table(opp.placed)}")
        cards = cards_to_toml(None if default_b else self.buildings,
                              None if default_c else self.characters)
        return "\n".join(lines) + "\n" + ("\n" + cards if cards else "")


def _array(items: Any) -> str:
    return "[" + ", ".join(toml_str(x) for x in items) + "]"


KEYS = ("turns", "first_turn", "buildings", "characters", "building", "character", "trend",
        "deck", "start", "hand", "character_deck", "income", "opponent", "facilities", "chits",
        "first_bonuses")


def _cards(data: Mapping[str, Any], key: str, inline_key: str, base: Path | None,
           load: Any, parse: Any) -> Any:
    if inline_key in data:
        if key in data:
            raise DataError(f"{key}: give either {key} = ... or [[{inline_key}]] tables, not both")
        return parse(data[inline_key], inline_key)
    source = data.get(key, "default")
    if not isinstance(source, str):
        raise DataError(f"{key}: expected \"default\" or a path, got {shorten(source)}")
    if source != "default" and base is not None:  # relative to the instance file, never the cwd
        if not (base / source).is_file():
            raise DataError(f"{key}: no file {shorten(source)} in the instance's folder {base}")
        source = str(base / source)
    return load(source)


def _string_list(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise DataError(f"{where}: expected an array of card ids, got {shorten(value)}")
    return value


def instance_from_dict(data: Mapping[str, Any], base: Path | None = None) -> Instance:
    """An :class:`Instance` from parsed TOML (``base``: folder that card paths are relative to)."""
    data = _table(data, "an instance")
    for key in data:
        if key not in KEYS:
            raise DataError(f"unknown key {shorten(key)} (expected one of {', '.join(KEYS)})")
    for key in ("turns", "trend"):
        if key not in data:
            raise DataError(f"missing key {shorten(key)}")
    opponents = data.get("opponent", [])
    if not isinstance(opponents, list):
        raise DataError("opponent: expected an array of tables [[opponent]]")
    opps = []
    for i, entry in enumerate(opponents):
        where = f"opponent {i + 1}"
        entry = _table(entry, where)
        for key in entry:
            if key not in ("builds", "chits", "residents", "placed"):
                raise DataError(f"{where}: unknown key {shorten(key)}")
        opps.append(Opponent(dict(_table(entry.get("builds", {}), f"{where}.builds")),
                             dict(_table(entry.get("chits", {}), f"{where}.chits")),
                             dict(_table(entry.get("residents", {}), f"{where}.residents")),
                             dict(_table(entry.get("placed", {}), f"{where}.placed"))))
    first_bonuses = data.get("first_bonuses")
    if first_bonuses is not None and not isinstance(first_bonuses, list):
        raise DataError(f"first_bonuses: expected an array of districts, got "
                        f"{shorten(first_bonuses)}")
    return Instance(
        turns=data["turns"],
        buildings=_cards(data, "buildings", "building", base, load_buildings, parse_buildings),
        characters=_cards(data, "characters", "character", base, load_characters,
                          parse_characters),
        trend=tuple(_string_list(data["trend"], "trend")),
        deck=tuple(_string_list(data.get("deck", []), "deck")),
        start=dict(_table(data.get("start", {}), "start")),
        hand=tuple(_string_list(data.get("hand", []), "hand")),
        character_deck=tuple(_string_list(data.get("character_deck", []), "character_deck")),
        income=dict(_table(data.get("income", {}), "income")),
        opponents=tuple(opps),
        first_turn=data.get("first_turn", 1),
        facilities=dict(_table(data.get("facilities", {}), "facilities")),
        chits=dict(_table(data.get("chits", {}), "chits")),
        first_bonuses=None if first_bonuses is None else tuple(first_bonuses),
    )


def load_instance(path: str | Path) -> Instance:
    """Read an instance TOML file; errors name the file and the bad entry."""
    data = read_toml(path, {})  # the name as given: Path("") is the folder "."
    path = Path(path)
    try:
        return instance_from_dict(data, path.parent)
    except DataError as exc:
        raise DataError(f"{shorten(str(path))}: {exc}") from exc


def parse_instance(text: str) -> Instance:
    """An instance from TOML text (card paths relative to the current folder)."""
    return instance_from_dict(parse_toml(text, "instance"))


def dump_instance(instance: Instance, path: str | Path) -> None:
    """Write ``instance.to_toml()`` to ``path`` (an OutputError names it when that fails)."""
    write_file(path, instance.to_toml())




def check_instance(instance: object) -> Instance:
    """``instance`` if it is an :class:`Instance`, else a :class:`LumicoreError` naming it (the
    searches and the rules read its fields at once).

    >>> check_instance("year.toml")
    Traceback (most recent call last):
    ...
    lumicore.errors.LumicoreError: instance must be a lemuria Instance, got 'year.toml'
    """
    return check_type(instance, Instance, "instance", "a lemuria Instance")


def default_income(turns: int, seed: int) -> dict[int, dict[str, int]]:
    """The default per-turn income, a stand-in for the altar's harvests: every turn one harvest of
    2 units of one resource and 1 unit of a different one, drawn with weights stone 0.3, wood 0.3,
    gold 0.2, food 0.2 (seeded). 36 resources over 12 turns.

    >>> inc = default_income(12, seed=0)
    >>> sorted(inc) == list(range(1, 13)), all(sum(a.values()) == 3 for a in inc.values())
    (True, True)
    """
    turns = check_int(turns, "turns", 1, MAX_TURNS)
    rng = np.random.default_rng(check_seed(seed))
    kinds = ("stone", "wood", "gold", "food")
    weights = np.array([0.3, 0.3, 0.2, 0.2])
    income = {}
    for turn in range(1, turns + 1):
        first, second = rng.choice(len(kinds), size=2, replace=False, p=weights)
        income[turn] = {kinds[first]: 2, kinds[second]: 1}
    return income


def default_instance(seed: int = 0, turns: int = MAX_TURNS, first_turn: int = 1) -> Instance:
    """An instance from the default cards: the building deck shuffled (seeded), the Trend row
    dealt as the rulebook's setup does (the first five cards drawn, placed from the right), a
    start of 3 gold and 3 food, a hand of 3 characters from the shuffled character deck, the
    :func:`default_income`, and no opponents; ``first_turn``: the month the year starts in
    (the same cards and income, the festivals and remodels later in the year's turns).

    >>> a, b = default_instance(5), default_instance(5)
    >>> a == b, a.trend == default_instance(6).trend
    (True, False)
    """
    rng = np.random.default_rng(check_seed(seed))
    buildings = load_buildings()
    characters = load_characters()
    deck = [str(x) for x in rng.permutation(sorted(buildings))]
    chars = [str(x) for x in rng.permutation(sorted(characters))]
    return Instance(
        turns=turns,
        buildings=buildings,
        characters=characters,
        trend=tuple(reversed(deck[:5])),
        deck=tuple(deck[5:]),
        start={"gold": 3, "food": 3},
        hand=tuple(chars[:3]),
        character_deck=tuple(chars[3:]),
        income=default_income(turns, int(rng.integers(2**31))),
        first_turn=first_turn,
    )


def small_instance(seed: int = 0, turns: int = 4, buildings: int = 5, characters: int = 2,
                   opponents: int = 0, first_turn: int = 1) -> Instance:
    """A tiny random instance for exhaustive checks (``solvers.lemuria.exhaustive``): the default
    cards, ``buildings`` of them in the Trend row (from slot 1) and deck, ``characters`` of them
    (one in hand, the rest in the character deck), a start of 1 gold and 2 food, the
    :func:`default_income`, and optionally opponents who take a random Trend card, place a random
    chit and hold 0-1 residents of each colour at festivals, each turn; ``first_turn``: the
    month the year starts in.

    >>> inst = small_instance(seed=2, turns=3)
    >>> inst.turns, sum(c is not None for c in inst.trend), len(inst.hand)
    (3, 5, 1)
    """
    rng = np.random.default_rng(check_seed(seed))
    turns = check_int(turns, "turns", 1, MAX_TURNS)
    # checked before the opponents' loop: opponents=2**70 filled the memory
    opponents = check_index(opponents, MAX_OPPONENTS + 1, "opponents", "a count of opponents",
                            DataError)
    all_b, all_c = load_buildings(), load_characters()
    for name, count, most in (("buildings", buildings, len(all_b)),
                              ("characters", characters, len(all_c))):
        check_index(count, most + 1, name, "a count of default cards", DataError)
    if opponents and not buildings:
        raise DataError("opponents take Trend cards: small_instance needs buildings >= 1")
    cards = [str(x) for x in rng.permutation(sorted(all_b))[:buildings]]
    chars = [str(x) for x in rng.permutation(sorted(all_c))[:characters]]
    opps = []
    for _ in range(opponents):
        opps.append(Opponent(
            builds={t: str(rng.choice(cards)) for t in range(1, turns + 1) if rng.random() < 0.3},
            chits={t: str(rng.choice(DISTRICTS)) for t in range(1, min(turns, CHITS) + 1)
                   if rng.random() < 0.5},
            residents={t: {c: int(rng.integers(2)) for c in COLORS}
                       for t in range(1, turns + 1) if t + first_turn - 1 in FESTIVALS}))
    taken: set[str] = set()
    for opp in opps:  # a card is taken by one opponent at most
        for t, card in list(opp.builds.items()):
            if card in taken:
                del opp.builds[t]
            taken.add(card)
    trend = tuple(cards[:5]) + (None,) * max(0, 5 - len(cards))
    return Instance(turns=turns, buildings=all_b, characters=all_c, trend=trend,
                    deck=tuple(cards[5:]), start={"gold": 1, "food": 2}, hand=tuple(chars[:1]),
                    character_deck=tuple(chars[1:]),
                    income=default_income(turns, int(rng.integers(2**31))),
                    opponents=tuple(opps), first_turn=first_turn)
