"""Units, the player board's numbers (selection limits, supply, bag) and the token pools.

>>> board = load_board()
>>> board.kinds[:2], board.kind("mudshell").strength, board.kind("mudshell").moves
(('shroomling', 'mudshell'), 3, False)
>>> sum(board.limits.values()), board.supply, board.bag["shroomling"]
(17, 3, 6)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lumicore.checks import check_known_keys
from lumicore.data import shorten
from lumicore.errors import DataError, LumicoreError
from lumicore.lumen._files import (
    MAX_NUMBER,
    every_key,
    file_loader,
    flag_key,
    int_key,
    malformed_is_data_error,
    table_key,
    text_key,
)
from lumicore.lumen.dice import SELECTIONS
from lumicore.lumen.sheet import LAYOUTS, MAX_BUBBLES

__all__ = ["ABILITIES", "BONUS_KINDS", "UnitKind", "Board", "load_board", "BOARDS", "MAX_ROUNDS"]

ABILITIES = ("none", "restore", "push", "kill", "fly")
"""What activating a unit does: nothing, turn allies around active, push a unit to a
neighbouring territory, remove an enemy unit, fly anywhere."""
BONUS_KINDS = ("mercenary", "secret", "glow")
"""The kinds of bonus token (a board's ``[bonus]`` table gives the count of each)."""
BOARDS = {"default": "lumen_board.toml"}
"""Built-in player boards by name, as :func:`load_board` takes them."""
MAX_ROUNDS = MAX_BUBBLES
"""The most rounds a board file may give: a player writes one value a round on a sheet of at
most 64 bubbles, so in any later round both players could only pass."""


@dataclass(frozen=True)
class UnitKind:
    """A kind of unit: strength, ability, whether it moves, whether Deadly Fighters can remove
    it, and whether it is special (a Mercenary: it never goes back to a bag, removed when
    killed; a special kind with a ``bag`` count starts in the bag and is drawn like the
    others)."""

    name: str
    strength: int
    ability: str = "none"
    moves: bool = True
    protected: bool = False
    special: bool = False


@dataclass(frozen=True)
class Board:
    """Everything on the player board and in the token pools (both players alike)."""

    units: tuple[UnitKind, ...]
    bag: dict[str, int]
    limits: dict[str, int]
    supply: int = 3
    rounds: int = 17
    layout: str = "default"
    bonus: dict[str, int] | None = None
    secret_vp: int = 2
    objectives: tuple[int, ...] = (2, 3, 4, 5)
    name: str = "default"

    def __hash__(self) -> int:
        return hash((self.units, tuple(self.limits.items()), self.supply, self.rounds))

    @property
    def kinds(self) -> tuple[str, ...]:
        """Unit kind names in file order (the index of a kind everywhere)."""
        return tuple(u.name for u in self.units)

    def kind(self, name: str) -> UnitKind:
        for u in self.units:
            if u.name == name:
                return u
        raise LumicoreError(f"unknown unit {shorten(name)} (known: {', '.join(self.kinds)})")

    def kind_index(self, name: str) -> int:
        return self.kinds.index(self.kind(name).name)


BOARD_KEYS = ("name", "rounds", "layout", "supply", "limits", "units", "bonus", "objectives")
UNIT_KEYS = ("strength", "ability", "moves", "protected", "special", "bag")


def _layout(data: dict[str, Any], source: object) -> str:
    """The board's ``layout``: a built-in layout name as it is, else a layout file, relative to
    the board file's folder when the board is read from a file (a :class:`DataError` naming
    the board file and the key when there is no such file)."""
    name = text_key(data, "layout", "default", "", source)
    if name in LAYOUTS:
        return name
    path = Path(name)
    if isinstance(source, Path) and not path.is_absolute():
        path = source.absolute().parent / path  # kept after a change of folder
    try:
        found = name != "" and path.is_file()
    except (OSError, ValueError):  # a name too long, a NUL byte
        found = False
    if not found:
        where = " (a path is relative to the board file's folder)" \
            if isinstance(source, Path) else ""
        raise DataError(f"{shorten(source)}: layout {shorten(name)} is neither a built-in layout "
                        f"({', '.join(map(repr, LAYOUTS))}) nor a file{where}")
    return str(path)


@malformed_is_data_error
def board_from_dict(data: dict[str, Any], source: object = "board") -> Board:
    """A :class:`Board` from the tables of a board file (format in ``lumen_board.toml``): it
    needs ``[units.NAME]``, ``[limits]`` (every selection), ``[bonus]`` (every bonus token kind)
    and ``[objectives]`` (``values``); 0 or ``[]`` plays without a selection or token. An
    unknown key is an error (a misspelt one would be left out silently)."""
    check_known_keys(data, BOARD_KEYS, "the board file", source)
    units, bag = [], {}
    raw_units = data.get("units")
    if not isinstance(raw_units, dict) or not raw_units:
        raise DataError(f"{shorten(source)}: no [units.NAME] tables")
    for name, raw in raw_units.items():
        where = f"units.{name[:80]}"
        if not isinstance(raw, dict):
            raise DataError(f"{shorten(source)}: {where} is not a table")
        check_known_keys(raw, UNIT_KEYS, f"[{where}]", source)
        ability = raw.get("ability", "none")
        if ability not in ABILITIES:
            raise DataError(f"{shorten(source)}: unit {name}: unknown ability {shorten(ability)}")
        units.append(UnitKind(name, int_key(raw, "strength", 1, where, source), ability,
                              *(flag_key(raw, key, default, where, source)
                                for key, default in (("moves", True), ("protected", False),
                                                     ("special", False)))))
        bag[name] = int_key(raw, "bag", 0, where, source)
    # without limits every player passes every round; without bonus tokens or objectives the
    # High Command row gives nothing: each table is asked for, 0 or [] when meant
    limits_raw = table_key(data, "limits", source, "uses of each selection")
    check_known_keys(limits_raw, SELECTIONS, "[limits]", source)
    every_key(limits_raw, SELECTIONS, "[limits]", source, "give 0 to forbid it")
    limits = {s: int_key(limits_raw, s, 0, "limits", source) for s in SELECTIONS}
    bonus_raw = table_key(data, "bonus", source, "the bonus tokens of each kind: "
                          f"{', '.join(BONUS_KINDS)}; 0 for none")
    check_known_keys(bonus_raw, (*BONUS_KINDS, "secret_vp"), "[bonus]", source)
    every_key(bonus_raw, BONUS_KINDS, "[bonus]", source, "give 0 to play without them")
    bonus = {b: int_key(bonus_raw, b, 0, "bonus", source) for b in BONUS_KINDS}
    if bonus["mercenary"] and "mercenary" not in bag:
        raise DataError(f"{shorten(source)}: mercenary bonus tokens need a [units.mercenary]")
    if bonus["mercenary"] and (bag["mercenary"] or not units[list(bag).index("mercenary")].special):
        # a drawn token's unit and a bag's could not be told apart on the map: a saved position
        # would not load back
        raise DataError(f"{shorten(source)}: units.mercenary, the unit of the mercenary bonus "
                        "tokens, must be special = true with bag = 0")
    objectives_raw = table_key(data, "objectives", source, "values = the VP of each objective "
                               "token; [] for none")
    check_known_keys(objectives_raw, ("values",), "[objectives]", source)
    every_key(objectives_raw, ("values",), "[objectives]", source,
              "give [] to play without them")
    objectives = objectives_raw["values"]
    if not isinstance(objectives, list) or len(objectives) > MAX_NUMBER or not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_NUMBER
            for v in objectives):
        raise DataError(f"{shorten(source)}: objectives.values must be a list of at most "
                        f"{MAX_NUMBER} integers from 0 to {MAX_NUMBER}, not "
                        f"{shorten(objectives)}")
    return Board(tuple(units), bag, limits, int_key(data, "supply", 3, "", source),
                 int_key(data, "rounds", 17, "", source, low=1, high=MAX_ROUNDS),
                 _layout(data, source), bonus, int_key(bonus_raw, "secret_vp", 2, "bonus", source),
                 tuple(objectives), text_key(data, "name", "default", "", source))


_load = file_loader(Board, board_from_dict, BOARDS, "board")


def load_board(name_or_path: str | Path | Board = "default") -> Board:
    """The player board and unit data: ``"default"`` or a board file (or a :class:`Board`)."""
    return _load(name_or_path)
