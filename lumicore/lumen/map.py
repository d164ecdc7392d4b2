"""Scenario maps: territories, which are neighbours, seasons, discovery tokens, the initiative
territory and the starting units.

>>> m = load_map("A")
>>> m.name, len(m.territories), m.territories[m.initiative], m.vp[m.initiative]
('Primer Contacto', 9, 'b2', 7)
>>> sorted(m.graph().neighbors("a1"))
['a2', 'b1']
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import networkx as nx

from lumicore.checks import check_known_keys
from lumicore.data import shorten
from lumicore.errors import DataError, LumicoreError
from lumicore.lumen._files import (
    MAX_NUMBER,
    every_key,
    file_loader,
    int_key,
    malformed_is_data_error,
    text_key,
)

__all__ = ["SEASONS", "Map", "load_map", "SCENARIOS"]

SEASONS = {"winter": 1, "autumn": 3, "summer": 5, "spring": 7}
"""VP of controlling a territory of each season at the end (blue, orange, green, pink)."""
SCENARIOS = {"A": "lumen_scenario_a.toml", "default": "lumen_scenario_a.toml"}
"""Built-in scenario maps by name, as :func:`load_map` takes them."""
MAX_TERRITORIES = 64


@dataclass(frozen=True)
class Map:
    """A scenario. Territories are indexed in file order; ``neighbors[t]`` lists the indices next
    to territory ``t``; ``discovery[t]`` is the VP of its discovery token (0: none);
    ``start[p]`` lists ``(territory, unit kind, count)`` for player ``p`` (0-based)."""

    name: str
    territories: tuple[str, ...]
    seasons: tuple[str, ...]
    neighbors: tuple[tuple[int, ...], ...]
    discovery: tuple[int, ...]
    initiative: int
    start: tuple[tuple[tuple[int, str, int], ...], ...]
    at: tuple[tuple[float, float], ...]

    @property
    def vp(self) -> tuple[int, ...]:
        """VP of each territory (by its season)."""
        return tuple(SEASONS[s] for s in self.seasons)

    def index(self, territory: str) -> int:
        """The index of a territory by name; :class:`LumicoreError` naming an unknown one."""
        try:
            return self.territories.index(territory)
        except ValueError:
            raise LumicoreError(f"unknown territory {shorten(territory)} on map "
                                f"{self.name!r}") from None

    def _repr_svg_(self) -> str:
        from lumicore.lumen.render import map_svg

        return map_svg(self)

    def graph(self) -> nx.Graph:
        """The map as a graph: nodes are territory names with ``season``, ``vp``,
        ``discovery`` and ``initiative`` attributes."""
        g = nx.Graph(name=self.name)
        for t, name in enumerate(self.territories):
            g.add_node(name, season=self.seasons[t], vp=self.vp[t],
                       discovery=self.discovery[t], initiative=t == self.initiative)
        for t, nbrs in enumerate(self.neighbors):
            g.add_edges_from((self.territories[t], self.territories[u]) for u in nbrs)
        return g


SCENARIO_KEYS = ("name", "initiative", "adjacency", "territories", "start")
TERRITORY_KEYS = ("season", "discovery", "at")
START_KEYS = ("player", "territory", "units")


def _name(value: object, what: str, index: dict[str, int], source: object) -> int:
    """The index of the territory named ``value`` (``what`` in ``source``, for the error)."""
    if not isinstance(value, str):
        raise DataError(f"{shorten(source)}: {what} must be a territory name, not "
                        f"{shorten(value)}")
    if value not in index:
        raise DataError(f"{shorten(source)}: {what} names {shorten(value)}, which is not a "
                        "territory")
    return index[value]


def _territories(terr: dict[str, Any], source: object
                 ) -> tuple[list[str], list[int], list[tuple[float, float]]]:
    """The seasons, discovery VP and drawing positions of the ``[territories]`` entries."""
    seasons, discovery, at = [], [], []
    for i, (name, raw) in enumerate(terr.items()):
        if not isinstance(raw, dict) or raw.get("season") not in SEASONS:
            season = raw.get("season") if isinstance(raw, dict) else raw
            raise DataError(f"{shorten(source)}: territory {shorten(name)} has season "
                            f"{shorten(season)} (known: {', '.join(SEASONS)})")
        check_known_keys(raw, TERRITORY_KEYS, f"territory {shorten(name)}", source)
        seasons.append(raw["season"])
        discovery.append(int_key(raw, "discovery", 0, f"territories.{name[:80]}", source))
        pos = raw.get("at", [i // 3, i % 3])
        if not (isinstance(pos, list) and len(pos) == 2
                and all(isinstance(x, (int, float)) and not isinstance(x, bool)
                        and 0 <= x < MAX_TERRITORIES for x in pos)):  # nan fails the range too
            raise DataError(f"{shorten(source)}: territory {shorten(name)}: bad position "
                            f"{shorten(pos)} (expected [row, col], numbers from 0 to below "
                            f"{MAX_TERRITORIES})")
        at.append((pos[0], pos[1]))
    return seasons, discovery, at


def _start(entries: object, index: dict[str, int], kinds: tuple[str, ...], source: object
           ) -> list[list[tuple[int, str, int]]]:
    """Each player's starting units ``(territory, kind, count)`` from the ``[[start]]``
    tables; a player starts with at most :data:`MAX_NUMBER` units of a kind in all."""
    if not isinstance(entries, list):
        raise DataError(f"{shorten(source)}: start must be [[start]] tables, not "
                        f"{shorten(entries)}")
    start: list[list[tuple[int, str, int]]] = [[], []]
    totals: dict[tuple[int, str], int] = {}
    for number, entry in enumerate(entries, 1):
        where = f"[[start]] #{number}"
        if not isinstance(entry, dict):
            raise DataError(f"{shorten(source)}: {where} is not a table: {shorten(entry)}")
        check_known_keys(entry, START_KEYS, where, source)
        every_key(entry, START_KEYS, where, source, "player 1 or 2, a territory and units")
        player, units = entry["player"], entry["units"]
        if isinstance(player, bool) or not isinstance(player, int) or player not in (1, 2):
            raise DataError(f"{shorten(source)}: {where}: player {shorten(player)} is not 1 or 2")
        t = _name(entry["territory"], f"{where}: territory", index, source)
        if not isinstance(units, dict):
            raise DataError(f"{shorten(source)}: {where}: units must be a table of unit counts "
                            f"({{ kind = count }}), not {shorten(units)}")
        for kind, n in units.items():
            if kinds and kind not in kinds:
                raise DataError(f"{shorten(source)}: start unit {shorten(kind)} is not a unit kind")
            int_key(units, kind, 1, f"{where}: units", source, low=1)
            total = totals[player, kind] = totals.get((player, kind), 0) + n
            if total > MAX_NUMBER:
                raise DataError(f"{shorten(source)}: player {player} starts with {total} "
                                f"{shorten(kind)} units, more than {MAX_NUMBER}")
            start[player - 1].append((t, kind, n))
    return start


@malformed_is_data_error
def map_from_dict(data: dict[str, Any], source: object = "map", kinds: tuple[str, ...] = ()
                  ) -> Map:
    """A :class:`Map` from the tables of a scenario file (format in ``lumen_scenario_a.toml``);
    ``kinds`` (when given) are the unit kinds the starting units may name. An unknown key, at
    the top, in a territory or in a ``[[start]]`` table, is an error (a misspelt one would be
    left out silently)."""
    check_known_keys(data, SCENARIO_KEYS, "the scenario file", source)
    terr = data.get("territories")
    if not isinstance(terr, dict) or not terr:
        raise DataError(f"{shorten(source)}: no [territories] table")
    if len(terr) > MAX_TERRITORIES:
        raise DataError(f"{shorten(source)}: more than {MAX_TERRITORIES} territories")
    names = tuple(terr)
    index = {n: i for i, n in enumerate(names)}
    seasons, discovery, at = _territories(terr, source)
    nbrs: list[set[int]] = [set() for _ in names]
    adjacency = data.get("adjacency", [])
    if not isinstance(adjacency, list):
        raise DataError(f"{shorten(source)}: adjacency must be a list of pairs of territory "
                        f"names, not {shorten(adjacency)}")
    for pair in adjacency:
        if not isinstance(pair, list) or len(pair) != 2 \
                or not all(isinstance(n, str) for n in pair):
            raise DataError(f"{shorten(source)}: bad adjacency entry {shorten(pair)} (expected "
                            "a pair of territory names)")
        a, b = (_name(n, "adjacency", index, source) for n in pair)
        if a == b:
            raise DataError(f"{shorten(source)}: territory {shorten(pair[0])} next to itself")
        nbrs[a].add(b)
        nbrs[b].add(a)
    if "initiative" not in data:
        raise DataError(f"{shorten(source)}: no initiative territory (initiative = NAME)")
    initiative = _name(data["initiative"], "initiative", index, source)
    start = _start(data.get("start", []), index, kinds, source)
    for p in (0, 1):
        if not start[p]:
            raise DataError(f"{shorten(source)}: player {p + 1} has no starting units")
        for t, _kind, _n in start[p]:
            if discovery[t]:
                raise DataError(f"{shorten(source)}: territory {shorten(names[t])}: a discovery "
                                f"token where player {p + 1}'s units start (nobody could be the "
                                "first to enter it)")
    return Map(text_key(data, "name", "custom", "", source), names, tuple(seasons),
               tuple(tuple(sorted(n)) for n in nbrs), tuple(discovery), initiative,
               (tuple(start[0]), tuple(start[1])), tuple(at))


_load = file_loader(Map, map_from_dict, SCENARIOS, "scenario")


def load_map(name_or_path: str | Path | Map = "A") -> Map:
    """A scenario map: ``"A"`` (Primer Contacto, the default) or a scenario file."""
    return _load(name_or_path)
