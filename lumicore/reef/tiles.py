"""Hands of Luminos in text and the tile set (the Luminos themselves live in ``values``).

Colour and animal codes are the index in :data:`COLORS` / :data:`ANIMALS` (the Cython kernel and
the bitboards use the codes).

A normal Lumino is one colour; one half shows a number 1..6 (the *number half*), the other half an
animal or nothing. Its notation is ``"<colour> [<number>] [<animal>]"``, e.g. ``"pink 3 crab"``
or ``"blue 5"``; a hand is a comma-separated list of them.

``fish`` (the fish on the back, used only to sort the tiles by player count) is **not** part of
equality or hashing: two Luminos with the same colour, number and animal are the same tile for
every rule, so a hand typed as text equals the tiles drawn from the set.

The starting Lumino is a :class:`StartLumino` ``(color_a, color_b)``: two differently coloured
halves, no number, no animal. As a piece in a reef its ``color_a`` half lies on the piece's
``number_cell`` and its ``color_b`` half on ``other_cell``.

>>> lum = Lumino.parse("pink 3 crab")
>>> lum.color, lum.number, lum.animal
('pink', 3, 'crab')
>>> str(lum)
'pink 3 crab'
>>> parse_hand("pink 3 crab, blue 5")
(Lumino('pink 3 crab'), Lumino('blue 5'))
>>> tiles = load_tiles("default")
>>> len(tiles.luminos), len(tiles.starts), len(tiles.for_players(2))
(104, 6, 72)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from lumicore.checks import check_known_keys, is_integer
from lumicore.data import naming_source, read_toml, shorten
from lumicore.errors import DataError, LumicoreError, NotationError
from lumicore.reef.values import (
    ANIMALS,
    COLORS,
    Lumino,
    StartLumino,
    animal_code,
    color_code,
)

__all__ = [
    "COLORS",
    "ANIMALS",
    "Lumino",
    "StartLumino",
    "TileSet",
    "parse_hand",
    "format_hand",
    "load_tiles",
    "color_code",
    "animal_code",
]

BUILTIN_TILES = {"default": "lumicora_tiles.toml"}


def parse_hand(text: str) -> tuple[Lumino, ...]:
    """Read a comma-separated hand, e.g. ``"pink 3 crab, blue 5"``; ``""`` is the empty hand.

    >>> parse_hand("green 1 shellfish,yellow 6")
    (Lumino('green 1 shellfish'), Lumino('yellow 6'))
    >>> parse_hand("pink 3, , blue 5")
    Traceback (most recent call last):
    ...
    lumicore.errors.NotationError: empty Lumino at position 2 of hand 'pink 3, , blue 5'
    """
    if not isinstance(text, str):
        raise NotationError(f"a hand is written as text, got {shorten(text)}")
    if not text.strip():
        return ()
    hand = []
    for position, item in enumerate(text.split(","), start=1):
        if not item.strip():
            raise NotationError(f"empty Lumino at position {position} of hand {shorten(text)}")
        hand.append(Lumino.parse(item))
    return tuple(hand)


def format_hand(hand: Iterable[Lumino]) -> str:
    """The notation of a hand: ``parse_hand(format_hand(h)) == tuple(h)``.

    >>> format_hand([Lumino("pink", 3, "crab"), Lumino("blue", 5)])
    'pink 3 crab, blue 5'
    """
    items = list(hand) if isinstance(hand, Iterable) and not isinstance(hand, (str, bytes)) \
        else None
    if items is None or not all(isinstance(t, Lumino) for t in items):
        raise NotationError(f"a hand is a sequence of Luminos, got {shorten(hand)} (a hand "
                            "written as text is read by parse_hand)")
    return ", ".join(str(lumino) for lumino in items)


@dataclass(frozen=True)
class TileSet:
    """All Luminos of a game (with their fish backs) and the starting Luminos."""

    luminos: tuple[Lumino, ...]
    starts: tuple[StartLumino, ...]

    def for_players(self, n: int) -> tuple[Lumino, ...]:
        """The Luminos that go in the bag for ``n`` players, sorted by the fish on their backs:
        2 players (and 1, a solo reef): no fish; 3 players: up to 3 fish; 4 players: all.

        >>> tiles = load_tiles("default")
        >>> [len(tiles.for_players(n)) for n in (1, 2, 3, 4)]
        [72, 72, 88, 104]
        """
        if not is_integer(n) or not 1 <= n <= 4:
            raise LumicoreError(f"bad player count {shorten(n)} (expected 1..4)")
        n = int(n)
        most_fish = {1: 0, 2: 0, 3: 3, 4: max((t.fish for t in self.luminos), default=0)}[n]
        return tuple(t for t in self.luminos if t.fish <= most_fish)


def load_tiles(name_or_path: str | Path = "default") -> TileSet:
    """Load a tile set: ``"default"`` (the 104 Luminos and 6 starting Luminos of the game) or the
    path of a TOML file in the same format (see ``lumicore/data/lumicora_tiles.toml``). A
    built-in set is read once (every new or loaded game needs it); a file, each time."""
    if isinstance(name_or_path, str) and name_or_path in BUILTIN_TILES:
        return _builtin_tiles(name_or_path)
    data = read_toml(name_or_path, BUILTIN_TILES)
    return _tile_set(data, str(name_or_path))


@cache
def _builtin_tiles(name: str) -> TileSet:
    return _tile_set(read_toml(name, BUILTIN_TILES), name)


TILE_SET_KEYS = ("colors", "tiles", "starts")
"""The keys of a tile file (each is needed)."""
TILE_KEYS = ("number", "animal", "fish")
"""The keys of one entry of ``tiles`` (each may be left out)."""


def _tile_set(data: dict[str, Any], source: str) -> TileSet:
    """The tile set of a parsed tile file; a :class:`DataError` names ``source`` and the bad
    key or entry."""
    with naming_source(source):
        return _read_tile_set(data)


def _read_tile_set(data: dict[str, Any]) -> TileSet:
    check_known_keys(data, TILE_SET_KEYS, "the tile file")
    for key in TILE_SET_KEYS:
        if key not in data:
            raise DataError(f"missing key {key!r}")
    colors = _colors(data["colors"])
    specs = data["tiles"]
    if not isinstance(specs, list) or not specs:
        raise DataError(f"tiles must be a list of tables such as {{ number = 3, animal = "
                        f"\"crab\", fish = 0 }}, got {shorten(specs)}")
    kinds = [_tile(spec, f"tile {i}") for i, spec in enumerate(specs)]
    luminos = tuple(Lumino(color, number, animal, fish)
                    for color in colors for number, animal, fish in kinds)
    return TileSet(luminos, _starts(data["starts"]))


def _colors(colors: object) -> list[str]:
    """The ``colors`` of a tile file: a non-empty list of colour names, none twice."""
    if not isinstance(colors, list) or not colors:
        raise DataError(f"colors must be a list of colours ({', '.join(COLORS)}), got "
                        f"{shorten(colors)}")
    for i, color in enumerate(colors):
        if color not in COLORS:
            raise DataError(f"colors[{i}]: unknown colour {shorten(color)} (expected one of "
                            f"{', '.join(COLORS)})")
        if color in colors[:i]:
            raise DataError(f"colors[{i}]: {color} is listed twice (each colour gets every tile "
                            "of the list once)")
    return colors


def _tile(spec: object, where: str) -> tuple[int | None, str | None, int]:
    """The ``(number, animal, fish)`` of one entry of ``tiles``."""
    if not isinstance(spec, dict):
        raise DataError(f"{where}: expected a table such as {{ number = 3, animal = \"crab\", "
                        f"fish = 0 }}, got {shorten(spec)}")
    check_known_keys(spec, TILE_KEYS, where)
    number, animal, fish = spec.get("number"), spec.get("animal"), spec.get("fish", 0)
    if number is not None and (isinstance(number, bool) or not isinstance(number, int)
                               or not 1 <= number <= 6):
        raise DataError(f"{where}: number must be an integer 1..6 (or left out), got "
                        f"{shorten(number)}")
    if animal is not None and animal not in ANIMALS:
        raise DataError(f"{where}: animal must be one of {', '.join(ANIMALS)} (or left out), "
                        f"got {shorten(animal)}")
    if isinstance(fish, bool) or not isinstance(fish, int) or fish < 0:
        raise DataError(f"{where}: fish must be an integer >= 0, got {shorten(fish)}")
    return number, animal, fish


def _starts(pairs: object) -> tuple[StartLumino, ...]:
    """The ``starts`` of a tile file: a non-empty list of pairs of different colours, no pair
    twice (in either order: a player orients the Lumino dealt)."""
    if not isinstance(pairs, list) or not pairs:
        raise DataError(f"starts must be a list of colour pairs such as [\"pink\", \"green\"], "
                        f"got {shorten(pairs)}")
    starts: list[StartLumino] = []
    for i, pair in enumerate(pairs):
        if not isinstance(pair, list) or len(pair) != 2 or not all(c in COLORS for c in pair) \
                or pair[0] == pair[1]:
            raise DataError(f"starts[{i}]: a starting Lumino is two different colours of "
                            f"{', '.join(COLORS)}, got {shorten(pair)}")
        start = StartLumino(*pair)
        if any(set(start.colors) == set(other.colors) for other in starts):
            raise DataError(f"starts[{i}]: {start.color_a}/{start.color_b} is listed twice (a "
                            "player orients the starting Lumino dealt)")
        starts.append(start)
    return tuple(starts)
