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

from lumicore.data import shorten
from lumicore.errors import DataError, LumicoreError
from lumicore.lumen._files import file_loader, malformed_is_data_error
from lumicore.lumen.dice import SELECTIONS

__all__ = ["ABILITIES", "BONUS_KINDS", "UnitKind", "Board", "load_board", "BOARDS"]

ABILITIES = ("none", "restore", "push", "kill", "fly")
"""What activating a unit does: nothing, turn allies around active, push a unit to a
neighbouring territory, remove an enemy unit, fly anywhere."""
BONUS_KINDS = ("mercenary", "secret", "glow")
BOARDS = {"default": "lumen_board.toml"}


@dataclass(frozen=True)
class UnitKind:
    """A kind of unit: strength, ability, whether it moves, whether Deadly Fighters can remove
    it, and whether it is special (a Mercenary: never in a bag)."""

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


def _int(table: dict[str, Any], key: str, default: int, source: object, low: int = 0) -> int:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise DataError(f"{shorten(source)}: {key} must be an integer >= {low}, "
                        f"not {shorten(value)}")
    return value


def _flag(table: dict[str, Any], key: str, default: bool, where: str, source: object) -> bool:
    value = table.get(key, default)
    if not isinstance(value, bool):
        raise DataError(f"{shorten(source)}: {where}.{key} must be true or false, "
                        f"not {shorten(value)}")
    return value


def _table(data: dict[str, Any], key: str, source: object, what: str) -> dict[str, Any]:
    """The table ``[key]`` of a board file: a DataError naming it when it is missing (saying
    ``what`` it gives) or is not a table."""
    if key not in data:
        raise DataError(f"{shorten(source)}: no [{key}] table ({what})")
    if not isinstance(data[key], dict):
        raise DataError(f"{shorten(source)}: {key} must be a table, not {shorten(data[key])}")
    return data[key]


def _known(table: dict[str, Any], keys: tuple[str, ...], where: str, source: object) -> None:
    unknown = [k for k in table if k not in keys]
    if unknown:
        raise DataError(f"{shorten(source)}: unknown key {shorten(unknown[0])} in {where} "
                        f"(known: {', '.join(keys)})")


def _every(table: dict[str, Any], keys: tuple[str, ...], where: str, source: object,
           what: str) -> None:
    missing = [k for k in keys if k not in table]
    if missing:
        raise DataError(f"{shorten(source)}: {where} leaves out {missing[0]} ({what})")


@malformed_is_data_error
def board_from_dict(data: dict[str, Any], source: object = "board") -> Board:
    """A :class:`Board` from the tables of a board file (format in ``lumen_board.toml``): it
    needs ``[units.NAME]``, ``[limits]`` (every selection), ``[bonus]`` (every bonus token kind)
    and ``[objectives]`` (``values``); 0 or ``[]`` plays without a selection or token. An
    unknown key is an error (a misspelt one would be left out silently)."""
    _known(data, BOARD_KEYS, "the board file", source)
    units, bag = [], {}
    raw_units = data.get("units")
    if not isinstance(raw_units, dict) or not raw_units:
        raise DataError(f"{shorten(source)}: no [units.NAME] tables")
    for name, raw in raw_units.items():
        if not isinstance(raw, dict):
            raise DataError(f"{shorten(source)}: units.{name} is not a table")
        _known(raw, UNIT_KEYS, f"[units.{name}]", source)
        ability = raw.get("ability", "none")
        if ability not in ABILITIES:
            raise DataError(f"{shorten(source)}: unit {name}: unknown ability {shorten(ability)}")
        units.append(UnitKind(name, _int(raw, "strength", 1, source), ability,
                              *(_flag(raw, key, default, f"units.{name}", source)
                                for key, default in (("moves", True), ("protected", False),
                                                     ("special", False)))))
        bag[name] = _int(raw, "bag", 0, source)
    # without limits every player passes every round; without bonus tokens or objectives the
    # High Command row gives nothing: each table is asked for, 0 or [] when meant
    limits_raw = _table(data, "limits", source, "uses of each selection")
    _known(limits_raw, SELECTIONS, "[limits]", source)
    _every(limits_raw, SELECTIONS, "[limits]", source, "give 0 to forbid it")
    limits = {s: _int(limits_raw, s, 0, source) for s in SELECTIONS}
    bonus_raw = _table(data, "bonus", source, "the bonus tokens of each kind: "
                       f"{', '.join(BONUS_KINDS)}; 0 for none")
    _known(bonus_raw, (*BONUS_KINDS, "secret_vp"), "[bonus]", source)
    _every(bonus_raw, BONUS_KINDS, "[bonus]", source, "give 0 to play without them")
    bonus = {b: _int(bonus_raw, b, 0, source) for b in BONUS_KINDS}
    if bonus["mercenary"] and "mercenary" not in bag:
        raise DataError(f"{shorten(source)}: mercenary bonus tokens need a [units.mercenary]")
    objectives_raw = _table(data, "objectives", source, "values = the VP of each objective "
                            "token; [] for none")
    _known(objectives_raw, ("values",), "[objectives]", source)
    _every(objectives_raw, ("values",), "[objectives]", source, "give [] to play without them")
    objectives = objectives_raw["values"]
    if not isinstance(objectives, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in objectives):
        raise DataError(f"{shorten(source)}: objectives.values must be a list of integers")
    return Board(tuple(units), bag, limits, _int(data, "supply", 3, source),
                 _int(data, "rounds", 17, source, low=1), str(data.get("layout", "default")),
                 bonus, _int(bonus_raw, "secret_vp", 2, source), tuple(objectives),
                 str(data.get("name", "default")))


_load = file_loader(Board, board_from_dict, BOARDS, "board")


def load_board(name_or_path: str | Path | Board = "default") -> Board:
    """The player board and unit data: ``"default"`` or a board file (or a :class:`Board`)."""
    return _load(name_or_path)
