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

from lumicore.data import shorten
from lumicore.errors import DataError, LumicoreError
from lumicore.lumen._files import file_loader, malformed_is_data_error

__all__ = ["SEASONS", "Map", "load_map", "SCENARIOS"]

SEASONS = {"winter": 1, "autumn": 3, "summer": 5, "spring": 7}
"""VP of controlling a territory of each season at the end (blue, orange, green, pink)."""
SCENARIOS = {"A": "lumen_scenario_a.toml", "default": "lumen_scenario_a.toml"}
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
    at: tuple[tuple[int, int], ...]

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


@malformed_is_data_error
def map_from_dict(data: dict[str, Any], source: object = "map", kinds: tuple[str, ...] = ()
                  ) -> Map:
    """A :class:`Map` from the tables of a scenario file (format in ``lumen_scenario_a.toml``);
    ``kinds`` (when given) are the unit kinds the starting units may name."""
    terr = data.get("territories")
    if not isinstance(terr, dict) or not terr:
        raise DataError(f"{shorten(source)}: no [territories] table")
    if len(terr) > MAX_TERRITORIES:
        raise DataError(f"{shorten(source)}: more than {MAX_TERRITORIES} territories")
    names = tuple(terr)
    index = {n: i for i, n in enumerate(names)}
    seasons, discovery, at = [], [], []
    for i, (name, raw) in enumerate(terr.items()):
        if not isinstance(raw, dict) or raw.get("season") not in SEASONS:
            season = raw.get("season") if isinstance(raw, dict) else raw
            raise DataError(f"{shorten(source)}: territory {name!r} has season {shorten(season)}"
                            f" (known: {', '.join(SEASONS)})")
        seasons.append(raw["season"])
        d = raw.get("discovery", 0)
        if isinstance(d, bool) or not isinstance(d, int) or d < 0:
            raise DataError(f"{shorten(source)}: territory {name!r}: bad discovery {shorten(d)}")
        discovery.append(d)
        pos = raw.get("at", [i // 3, i % 3])
        if not (isinstance(pos, list) and len(pos) == 2
                and all(isinstance(x, (int, float)) and not isinstance(x, bool)
                        and 0 <= x < MAX_TERRITORIES for x in pos)):  # nan fails the range too
            raise DataError(f"{shorten(source)}: territory {name!r}: bad position {shorten(pos)}"
                            f" (expected [row, col], numbers from 0 to below {MAX_TERRITORIES})")
        at.append((pos[0], pos[1]))
    nbrs: list[set[int]] = [set() for _ in names]
    for pair in data.get("adjacency", []):
        if not isinstance(pair, list) or len(pair) != 2:
            raise DataError(f"{shorten(source)}: bad adjacency entry {shorten(pair)}")
        for n in pair:
            if n not in index:
                raise DataError(f"{shorten(source)}: adjacency names {shorten(n)}, which is not a "
                                "territory")
        a, b = index[pair[0]], index[pair[1]]
        if a == b:
            raise DataError(f"{shorten(source)}: territory {pair[0]!r} next to itself")
        nbrs[a].add(b)
        nbrs[b].add(a)
    initiative = data.get("initiative")
    if initiative not in index:
        raise DataError(f"{shorten(source)}: initiative territory {shorten(initiative)} is not a "
                        "territory")
    start: list[list[tuple[int, str, int]]] = [[], []]
    for entry in data.get("start", []):
        try:
            player, where, units = entry["player"], entry["territory"], entry["units"]
        except (KeyError, TypeError, ValueError) as exc:
            raise DataError(f"{shorten(source)}: bad [[start]] entry {shorten(entry)}") from exc
        if isinstance(player, bool) or not isinstance(player, int) or player not in (1, 2):
            raise DataError(f"{shorten(source)}: start player {shorten(player)} is not 1 or 2")
        if where not in index:
            raise DataError(f"{shorten(source)}: start territory {shorten(where)} is not a "
                            "territory")
        for kind, n in units.items():
            if kinds and kind not in kinds:
                raise DataError(f"{shorten(source)}: start unit {shorten(kind)} is not a unit kind")
            if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                raise DataError(f"{shorten(source)}: bad count {shorten(n)} of {kind}")
            start[player - 1].append((index[where], kind, n))
    for p in (0, 1):
        if not start[p]:
            raise DataError(f"{shorten(source)}: player {p + 1} has no starting units")
        for t, _kind, _n in start[p]:
            if discovery[t]:
                raise DataError(f"{shorten(source)}: territory {names[t]!r}: a discovery token "
                                f"where player {p + 1}'s units start (nobody could be the first "
                                "to enter it)")
    return Map(str(data.get("name", "custom")), names, tuple(seasons),
               tuple(tuple(sorted(n)) for n in nbrs), tuple(discovery), index[initiative],
               (tuple(start[0]), tuple(start[1])), tuple(at))


_load = file_loader(Map, map_from_dict, SCENARIOS, "scenario")


def load_map(name_or_path: str | Path | Map = "A") -> Map:
    """A scenario map: ``"A"`` (Primer Contacto, the default) or a scenario file."""
    return _load(name_or_path)
