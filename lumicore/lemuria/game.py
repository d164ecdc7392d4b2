"""The whole game of Lemuria for 2-4 players as a :class:`lumicore.game.GameState`.

A year of 12 turns: turn start (district bonuses, turn order from VP and pedestals), the altar
phase (from turn 4: the altar turns by itself, then the dealer may pay 1 gold to turn it one
memory either way), the main phase (each player in turn order: a mandatory material operation,
builds or remodels, characters played, bought or exchanged, a Lemuria Impact) and the end of the
turn (black cubes, Trend refill, festival scoring). Build, remodel and the hand go through
:mod:`lumicore.lemuria.rules` (the one-player rules), the altar through
:mod:`lumicore.lemuria.altar`. docs/lemuria.md ("The whole game") states every rule decision.

Deck draws (the Trend row, character cards, Impact cards) are chance nodes: the shuffled part of
a deck is a set of unknown order, cards returned to its bottom are a known queue under it.
Actions are indices into :meth:`Game.moves` (a sorted list of move tuples); chance outcomes are
card indices. ``Game.new(players, seed)`` makes a fresh game; :meth:`Game.resolve_chance` draws a
chance node's outcome from the game's seed, so a seeded game is reproducible;
:meth:`Game.record` / :meth:`Game.replay` write and replay a game as one JSON object.

>>> game = Game.new(players=3, seed=1)
>>> game.is_chance_node(), game.current_player()
(True, -2)
>>> while game.is_chance_node():
...     _ = game.resolve_chance()
>>> game.current_player(), game.phase, len(game.hand(0))   # choosing the card to pass left
(0, 'pass', 3)
"""

from __future__ import annotations

import itertools
import json
import pickle
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast, overload

import numpy as np

from lumicore import checks
from lumicore.checks import (
    BOOL,
    SEED_LIMIT,
    Choice,
    Int,
    Items,
    ListOf,
    MapOf,
    Maybe,
    Spec,
    Table,
    Text,
    Where,
    check_bool,
    check_fields,
    check_index,
    check_seed,
    check_type,
    field_error,
    read_json,
    read_record,
)
from lumicore.data import file_version, shorten
from lumicore.errors import DataError, IllegalMoveError, LumicoreError
from lumicore.game import (
    CHANCE,
    TERMINAL,
    RecordRules,
    check_action,
    checked_load,
    replay_arena_record,
    sample_chance,
)
from lumicore.lemuria import rules
from lumicore.lemuria.altar import (
    ALTAR_FROM,
    FESTIVALS,
    MATERIAL_COUNT,
    MATERIALS,
    MEMORIES,
    MONTHS,
    AltarCard,
    Memory,
    add_black_cubes,
    can_place,
    harvest_shares,
    is_full,
    load_altar,
    place,
    turn_altar,
)
from lumicore.lemuria.cards import Building, Character, load_buildings, load_characters
from lumicore.lemuria.instance import CHITS
from lumicore.lemuria.rules import SOURCES, TREND_BONUS
from lumicore.lemuria.schedule import COLORS, DISTRICTS, RESOURCES, Build, Play, Remodel
from lumicore.lemuria.skills import DECLINE, ImpactCard, Skill, load_impacts

__all__ = ["MIN_PLAYERS", "MAX_PLAYERS", "START", "HAND_SIZE", "Cards", "Game", "describe_move",
           "order_from_vp", "check_players", "check_seed"]

MIN_PLAYERS = 2
"""The fewest players of a game."""
MAX_PLAYERS = 4
"""The most players of a game."""
START = {"gold": 3, "food": 3}
"""Resources each player takes at setup."""
HAND_SIZE = 3
"""Character cards each player is dealt at the setup."""
MATERIAL_SET = {m: MATERIAL_COUNT for m in MATERIALS}
CHURCH_VP = 3
OPTIONS = ("impact", "buildings", "characters", "altar", "impacts")
RECORD = "Lemuria game record"
"""What errors about a Lemuria game record call it."""
ARENA_RULES = RecordRules(RECORD)
"""How every replay of a Lemuria arena record reads it (:meth:`Game.replay`, and the any-game
replay through :data:`lumicore.game.RECORD_RULES`): every field of the record is required."""
PHASES = ("deal", "pass", "altar", "main", "scoring", "over")
SOURCE = "serialized lemuria game"
HEADER = {"game": Choice("lemuria", what='"lemuria"'),
          "players": Int(MIN_PLAYERS, MAX_PLAYERS, f"a number of players from {MIN_PLAYERS} to "
                         f"{MAX_PLAYERS}"),
          "seed": Int(0, SEED_LIMIT - 1, "a seed from 0 to 2**63 - 1"),
          "options": Table({"impact": BOOL, **{k: Text("a card file name or path")
                                               for k in OPTIONS[1:]}})}
"""The fields read first: they say which players and cards the state describes."""
_S = {s: i for i, s in enumerate(SOURCES)}

_CARDS_KEPT = 16
"""How many sets of card files (each version of an edited file counts) :meth:`Cards.load` keeps
loaded."""


class Cards:
    """The card data a game is played with (loaded once per set of files: a file edited since is
    loaded again)."""

    _cache: dict[tuple, Cards] = {}
    remodel_from = rules.REMODEL_FROM
    """The game's turns are the months, so remodels follow the calendar (the rules read this
    where they read an instance's)."""
    first_turn = 1
    """The month of turn 1 (an instance's ``first_turn``): the game starts the year."""

    def __init__(self, buildings: Mapping[str, Building], characters: Mapping[str, Character],
                 altar: AltarCard, impacts: Mapping[int, ImpactCard]) -> None:
        for name, table, kind in (("buildings", buildings, Building),
                                  ("characters", characters, Character),
                                  ("impacts", impacts, ImpactCard)):
            if not isinstance(table, Mapping) or not all(isinstance(v, kind)
                                                         for v in table.values()):
                raise LumicoreError(f"{name} must be a dict of lemuria {kind.__name__} cards by "
                                    f"id, got {shorten(table)}")
        check_type(altar, AltarCard, "altar", "a lemuria AltarCard (see load_altar)")
        self.buildings = dict(buildings)
        self.characters = dict(characters)
        self.altar = altar
        self.impacts = dict(impacts)
        self.building_ids = sorted(self.buildings)
        self.character_ids = sorted(self.characters)
        self.skills: dict[str, Skill | None] = {c: ch.skill_effect
                                                for c, ch in self.characters.items()}

    @classmethod
    def load(cls, buildings: str = "default", characters: str = "default",
             altar: str = "default", impacts: str = "default") -> Cards:
        key = tuple(file_version(name) for name in (buildings, characters, altar, impacts))
        cards = cls._cache.get(key)
        if cards is None:
            cards = cls(load_buildings(buildings), load_characters(characters),
                        load_altar(altar), load_impacts(impacts))
            # each edit of a file is a new key: drop the oldest (list() and pop(key, None): the
            # same in two threads at once)
            for old in list(cls._cache)[:len(cls._cache) + 1 - _CARDS_KEPT]:
                cls._cache.pop(old, None)
            cls._cache[key] = cards
        return cards




def check_players(players: Any) -> int:
    """``players`` as an int from 2 to 4, else a one-line LumicoreError naming the rule (in
    every game's words: :func:`lumicore.checks.check_players`)."""
    return checks.check_players(players, MIN_PLAYERS, MAX_PLAYERS, "Lemuria")


def order_from_vp(vp: list[int], previous_dealer: int, pedestals: Mapping[int, int]
                  ) -> list[int]:
    """The turn order (players by pedestal 1..N) from turn 2 on.

    ``pedestals`` maps a pedestal (1-based) to the player whose material stood on it: that
    player takes it whatever their VP. The others take the empty pedestals from the lowest
    number up, lowest VP first; among tied players the one closer clockwise (seat + 1 is the
    next seat clockwise) goes first, measured from the previous turn's dealer for the first of
    them when pedestal 1 is free (so with everyone tied, the player left of the previous dealer
    deals), otherwise from this turn's dealer (the player on pedestal 1).

    >>> order_from_vp([5, 3, 3], previous_dealer=1, pedestals={})
    [2, 1, 0]
    >>> order_from_vp([4, 4, 4], previous_dealer=0, pedestals={})
    [1, 2, 0]
    >>> order_from_vp([9, 3, 0], previous_dealer=0, pedestals={1: 0})
    [0, 2, 1]
    """
    if isinstance(vp, (str, bytes)) or not isinstance(vp, (list, tuple)) or not vp \
            or not all(checks.is_integer(v) for v in vp):
        raise LumicoreError(f"vp must be a list of each player's VP, got {shorten(vp)}")
    n = len(vp)
    check_index(previous_dealer, n, "previous_dealer", "a player index")
    if not isinstance(pedestals, Mapping) or not all(
            checks.is_integer(ped) and 1 <= ped <= n and checks.is_integer(p) and 0 <= p < n
            for ped, p in pedestals.items()):
        raise LumicoreError(f"pedestals must map pedestals 1..{n} to player indices, got "
                            f"{shorten(pedestals)}")
    slots: list[int | None] = [None] * n
    for ped, p in pedestals.items():
        slots[ped - 1] = p
    rest = [p for p in range(n) if p not in pedestals.values()]
    first: list[int] = []
    if slots[0] is None and rest:
        low = min(vp[p] for p in rest)
        dealer = min((p for p in rest if vp[p] == low), key=lambda p: (p - previous_dealer - 1) % n)
        first, rest = [dealer], [p for p in rest if p != dealer]
    else:  # pedestal 1 is taken (or, with it empty, nobody is left to seat)
        dealer = slots[0] if slots[0] is not None else previous_dealer
    rest.sort(key=lambda p: (vp[p], (p - dealer) % n))
    free = [i for i in range(n) if slots[i] is None]
    for i, p in zip(free, first + rest, strict=True):
        slots[i] = p
    return [p for p in slots if p is not None]


def describe_move(move: tuple) -> str:
    """A readable name for a move tuple of :meth:`Game.moves`.

    >>> describe_move(("place", 2, "plant"))
    'place plant in memory 3'
    >>> describe_move(("build", "B03", "rural", ("stone",)))
    'build B03 (rural, -stone)'
    """
    try:
        return _describe(move)
    except (TypeError, IndexError, KeyError, AttributeError):
        raise LumicoreError(f"move must be a move of Game.moves(), got {shorten(move)}") from None


def _describe(move: tuple) -> str:
    """:func:`describe_move` of a well-formed move."""
    kind = move[0]
    if kind == "place":
        return f"place {move[2]} in memory {move[1] + 1}"
    if kind == "pedestal":
        return f"place {move[2]} on pedestal {move[1]}"
    if kind == "harvest":
        return f"harvest memory {move[1] + 1}" + (" (1 gold)" if move[2] else "")
    if kind == "build":
        extra = [move[2] or "no chit"] + [f"-{r}" for r in move[3]]
        return f"build {move[1]} ({', '.join(extra)})"
    if kind == "remodel":
        red = f" ({', '.join('-' + r for r in move[3])})" if move[3] else ""
        return f"remodel {move[1]} -> {move[2]}{red}"
    if kind == "play":
        where = f" in {move[2]}" if move[2] else " (not housed)"
        skill = "" if move[3] == DECLINE else f", skill: {move[3]}"
        return f"play {move[1]}{where}{skill}"
    if kind == "give":
        return f"give back {move[1]}"
    if kind == "pass":
        return f"pass {move[1]} left"
    if kind == "altar":
        return {0: "leave the altar", 1: "turn the altar clockwise (1 gold)",
                -1: "turn the altar back (1 gold)"}[move[1]]
    if kind == "impact":
        return "declare a Lemuria Impact" + ("" if move[1] == "use" else f" ({move[1]})")
    return {"buy": "buy a character", "exchange": "exchange a character (2 gold)",
            "end": "end the turn"}.get(kind, repr(move))


def _memory(blocks: int, shape: Spec) -> Where:
    """The rule of a memory of ``blocks`` blocks: ``[material, owners, black cubes]`` (of the
    ``shape``), at most ``blocks`` materials and cubes, a material exactly when it has owners."""
    return Where(shape, lambda m: ((m[0] is None) == (not m[1]) and (bool(m[1]) or not m[2])
                                   and len(m[1]) + m[2] <= blocks),
                 f"[material, owners, black cubes]: at most {blocks} in all, a material exactly "
                 "when there are owners, black cubes only with owners")


def _new_player() -> dict[str, Any]:
    return {"res": {r: START.get(r, 0) for r in RESOURCES}, "vp": [0] * len(SOURCES),
            "hand": [], "fac": [], "chits": [0] * len(DISTRICTS), "mat": dict(MATERIAL_SET),
            "pedestal": None, "impact": None, "passing": None}


class Game:
    """A game of Lemuria (see the module docstring). Build one with :meth:`Game.new`."""

    def __init__(self, players: int, seed: int, options: dict[str, Any], state: dict[str, Any],
                 cards: Cards) -> None:
        self.players, self.seed, self.options, self.s, self.cards = (players, seed, options,
                                                                      state, cards)
        self._moves: list[tuple] | None = None

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(cls, players: int = 3, seed: int = 0, impact: bool = False,
            buildings: str = "default", characters: str = "default", altar: str = "default",
            impacts: str = "default") -> Game:
        """A fresh game at its first chance node (the Trend row's first draw).

        ``impact``: play with the Lemuria Impact append rules; ``buildings``, ``characters``,
        ``altar``, ``impacts``: card data by built-in name or path.
        """
        players, seed = check_players(players), check_seed(seed)
        impact = check_bool(impact, "impact", "true or false")
        options: dict[str, Any] = {"impact": impact, "buildings": str(buildings),
                                   "characters": str(characters), "altar": str(altar),
                                   "impacts": str(impacts)}
        cards = Cards.load(options["buildings"], options["characters"], options["altar"],
                           options["impacts"])
        if len(cards.characters) < HAND_SIZE * players:
            raise DataError(f"{shorten(str(characters))}: {len(cards.characters)} character "
                            f"cards cannot deal {HAND_SIZE} to {players} players")
        for r, n in START.items():
            if cards.altar.supply[r] < n * players:
                raise DataError(f"{shorten(str(altar))}: a supply of {cards.altar.supply[r]} {r} "
                                f"cannot give {players} players {n} {r} each")
        pending: list[list] = [["row"]] * 5
        pending += [["char", p] for p in range(players) for _ in range(HAND_SIZE)]
        if impact:
            pending += [["impact"]] * min(players, len(cards.impacts))
        state = {
            "turn": 0, "phase": "deal", "rotation": 0,
            "altar": [[None, [], 0] for _ in range(MEMORIES)],
            "row": [None] * 5, "bdeck": list(cards.building_ids), "bbottom": [],
            "cdeck": list(cards.character_ids), "cbottom": [],
            "impact_deck": sorted(cards.impacts), "impacts_up": [],
            "supply": {r: cards.altar.supply[r] - START.get(r, 0) * players for r in RESOURCES},
            "pl": [_new_player() for _ in range(players)],
            "order": list(range(players)), "dealer": 0, "actor": 0, "passer": 0,
            "op": None, "builds": 1, "remodeled": False, "discount": 0, "bonus": None,
            "give_back": False, "admin": [False] * players,
            "pending": [list(t) for t in pending], "history": [], "orders": {},
        }
        game = cls(players, seed, options, state, cards)
        game._advance()
        return game

    # ------------------------------------------------------------------ simple views
    @property
    def phase(self) -> str:
        """``deal``, ``pass``, ``altar``, ``main``, ``scoring`` or ``over``."""
        return self.s["phase"]

    @property
    def turn(self) -> int:
        return self.s["turn"]

    @property
    def rotation(self) -> int:
        return self.s["rotation"]

    @property
    def row(self) -> tuple[str | None, ...]:
        return tuple(self.s["row"])

    @property
    def order(self) -> list[int]:
        """This turn's order (players by pedestal); the first is the dealer."""
        return list(self.s["order"])

    def _seat(self, player: object) -> int:
        """``player`` if it is a player index of this game, else a LumicoreError naming it."""
        return check_index(player, self.players, "player", "a player index")

    def memory(self, index: int) -> Memory:
        index = check_index(index, MEMORIES, "memory", "a memory")
        material, owners, black = self.s["altar"][index]
        return Memory(material, tuple(owners), black)

    def memories(self) -> tuple[Memory, ...]:
        return tuple(self.memory(i) for i in range(MEMORIES))

    def _set_memory(self, index: int, memory: Memory) -> None:
        self.s["altar"][index] = [memory.material if memory.owners or memory.black else None,
                                  list(memory.owners), memory.black]

    def resources(self, player: int) -> dict[str, int]:
        player = self._seat(player)
        return dict(self.s["pl"][player]["res"])

    def hand(self, player: int) -> list[str]:
        player = self._seat(player)
        return sorted(self.s["pl"][player]["hand"])

    def facilities(self, player: int) -> list[tuple[str, str | None]]:
        player = self._seat(player)
        return [tuple(f) for f in self.s["pl"][player]["fac"]]

    def materials(self, player: int) -> dict[str, int]:
        """The materials in front of ``player`` (not on the altar or a pedestal)."""
        player = self._seat(player)
        return dict(self.s["pl"][player]["mat"])

    def chits(self, player: int) -> dict[str, int]:
        player = self._seat(player)
        return dict(zip(DISTRICTS, self.s["pl"][player]["chits"], strict=True))

    @overload
    def vp(self, player: None = None) -> list[int]: ...
    @overload
    def vp(self, player: int) -> int: ...
    def vp(self, player: int | None = None) -> int | list[int]:
        """A player's VP, or everyone's as a list."""
        if player is None:
            return [sum(p["vp"]) for p in self.s["pl"]]
        return sum(self.s["pl"][self._seat(player)]["vp"])

    def breakdown(self, player: int) -> dict[str, int]:
        player = self._seat(player)
        return dict(zip(SOURCES, self.s["pl"][player]["vp"], strict=True))

    def winner(self) -> int | None:
        """The winner once the game is over: most VP, a tie going to the player who went
        earlier in the final turn."""
        if self.phase != "over":
            return None
        final = self.s["orders"][str(MONTHS)]
        vps = self.vp()
        return max(range(self.players), key=lambda p: (vps[p], -final.index(p)))

    # ------------------------------------------------------------------ protocol
    def num_players(self) -> int:
        return self.players

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def is_chance_node(self) -> bool:
        return bool(self.s["pending"]) and not self.is_terminal()

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        if self.is_chance_node():
            return CHANCE
        phase = self.phase
        if phase == "pass":
            return self.s["passer"]
        if phase == "altar":
            return self.s["order"][0]
        return self.s["order"][self.s["actor"]]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            return []
        ids = self._chance_ids()
        return [(i, 1.0 / len(ids)) for i in ids]

    def _chance_ids(self) -> list[int]:
        kind = self.s["pending"][0][0]
        if kind == "row":
            index = {c: i for i, c in enumerate(self.cards.building_ids)}
            return sorted(index[c] for c in self.s["bdeck"])
        if kind == "char":
            index = {c: i for i, c in enumerate(self.cards.character_ids)}
            return sorted(index[c] for c in self.s["cdeck"])
        return list(self.s["impact_deck"])

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        if self.is_chance_node():
            return self._chance_ids()
        return list(range(len(self._legal_moves())))

    def returns(self) -> list[float]:
        """1.0 for the winner, 0.0 for the others (0 for everyone until the end)."""
        winner = self.winner()
        return [float(p == winner) for p in range(self.players)] if winner is not None \
            else [0.0] * self.players

    def evaluate(self) -> list[float]:
        """A heuristic value per player on the scale of :meth:`returns`: a softmax (5 VP
        temperature) of each player's VP plus what their resources, materials on the altar,
        hand and empty facilities are likely worth (:meth:`potential`). At the end: returns."""
        if self.is_terminal():
            return self.returns()
        values = np.array([self.potential(p) for p in range(self.players)], dtype=float)
        weights = np.exp((values - values.max()) / 5.0)
        return [float(w) for w in weights / weights.sum()]

    def potential(self, player: int) -> float:
        """VP plus a rough value of the player's position (a heuristic for bots): 0.7 VP a
        resource (food 0.5), 0.6 a material on the altar plus its share of the black cubes
        there, 0.3 a material in front, 0.5 a hand card (or a pending draw), 0.5 an empty
        facility, 1.5 a housed facility per festival still to come; resources and cards count
        less in the last three turns."""
        s = self.s
        p = s["pl"][self._seat(player)]
        turn = max(s["turn"], 1)
        scale = min(1.0, (MONTHS - turn + 1) / 4)
        res = p["res"]
        value = sum(p["vp"]) + scale * (0.7 * (res["gold"] + res["stone"] + res["wood"])
                                         + 0.5 * res["food"])
        for _material, owners, black in s["altar"]:
            mine = owners.count(player)
            if mine:
                value += scale * 0.6 * (mine + black / len(set(owners)))
        draws = sum(1 for t in s["pending"] if t[0] == "char" and t[1] == player)
        value += scale * (0.3 * sum(p["mat"].values()) + 0.5 * (len(p["hand"]) + draws))
        empty = sum(1 for _b, r in p["fac"] if r is None)
        festivals = sum(1 for f in FESTIVALS if f >= turn)
        return value + scale * 0.5 * empty + 1.5 * festivals * (len(p["fac"]) - empty)

    def clone(self) -> Game:
        copy = Game(self.players, self.seed, dict(self.options), pickle.loads(pickle.dumps(self.s)),
                    self.cards)
        copy._moves = self._moves
        return copy

    __copy__ = clone  # copy.copy: the lists play changes in place are not shared either

    def _key(self) -> str:
        """What :meth:`serialize` writes, its keys sorted: the order in which a dict of the
        state got its keys is no part of the position."""
        return json.dumps(self._data(), sort_keys=True)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _data(self) -> dict[str, Any]:
        return {"game": "lemuria", "players": self.players, "seed": self.seed,
                "options": self.options, "state": self.s}

    def serialize(self) -> str:
        return json.dumps(self._data())

    @classmethod
    def deserialize(cls, text: str) -> Game:
        """The game :meth:`serialize` wrote; :class:`DataError` naming the first bad field (its
        type, length, range, or its agreement with the other fields) for anything else."""
        return checked_load(lambda: cls._deserialize(text), SOURCE)

    @classmethod
    def _deserialize(cls, text: str) -> Game:
        data = read_json(text, SOURCE)
        check_fields(data, HEADER, SOURCE, exact=False)
        try:
            game = cls.new(data["players"], data["seed"], **data["options"])
        except LumicoreError as exc:
            raise DataError(f"{SOURCE}: field 'options': {exc}") from None
        if isinstance(data.get("state"), dict):  # written before a turn knew its remodel
            data["state"].setdefault("remodeled", False)
        check_fields(data, {**HEADER, "state": Table(game._schema())}, SOURCE)
        game.s = data["state"]
        game._check_consistency()
        game._moves = None
        return game

    def _schema(self) -> dict[str, Spec]:
        """The rule of each field of the state for this game's players and cards."""
        n, cards = self.players, self.cards
        player = Int(0, n - 1, f"a player index from 0 to {n - 1}")
        building = Choice(*cards.building_ids, what="a building card id")
        character = Choice(*cards.character_ids, what="a character card id")
        impact = Choice(*cards.impacts, what="an Impact card number")
        material = Choice(*MATERIALS, what=" or ".join(MATERIALS))
        totals = cards.altar.supply
        resources = Table({r: Int(0, totals[r], f"an amount of {r} from 0 to {totals[r]}")
                           for r in RESOURCES})
        order = ListOf(player, length=n, unique=True, what=f"an order of the {n} players")
        counts = Int(0, None, "a count >= 0")
        memories = [_memory(cards.altar.blocks(i), Items(Maybe(material), ListOf(player), counts))
                    for i in range(MEMORIES)]
        task = Where(ListOf(Spec(), low=1, high=2),
                     lambda t: t in (["row"], ["impact"]) or (t[0] == "char" and len(t) == 2
                                                              and player.ok(t[1])),
                     f'a draw: ["row"], ["impact"] or ["char", player 0 to {n - 1}]')
        pl = Table({
            "res": resources,
            "vp": Items(*(counts for _ in SOURCES), what=f"a list of {len(SOURCES)} VP counts "
                        f"({', '.join(SOURCES)})"),
            "hand": ListOf(character),
            "fac": ListOf(Items(building, Maybe(character), what="[building, resident or null]"),
                          high=rules.MAX_FACILITIES),
            "chits": Where(Items(*(counts for _ in DISTRICTS)), lambda c: sum(c) <= CHITS,
                           f"a list of {len(DISTRICTS)} chit counts ({', '.join(DISTRICTS)}), "
                           f"{CHITS} in all at most"),
            "mat": Table({m: Int(0, k, f"a number of {m} materials from 0 to {k}")
                          for m, k in MATERIAL_SET.items()}),
            "pedestal": Maybe(Items(Int(1, n, f"a pedestal from 1 to {n}"), material)),
            "impact": Maybe(impact), "passing": Maybe(character)})
        return {
            "turn": Int(0, MONTHS, f"a turn from 0 (setup) to {MONTHS}"),
            "phase": Choice(*PHASES, what=f"a phase ({', '.join(PHASES)})"),
            "rotation": Int(0, MEMORIES - 1, f"a rotation from 0 to {MEMORIES - 1}"),
            "altar": Items(*memories, what=f"a list of {MEMORIES} memories"),
            "row": Items(*(Maybe(building) for _ in range(5)), what="a list of 5 Trend slots"),
            "bdeck": ListOf(building), "bbottom": ListOf(building),
            "cdeck": ListOf(character), "cbottom": ListOf(character),
            "impact_deck": ListOf(impact), "impacts_up": ListOf(impact),
            "supply": resources,
            "pl": ListOf(pl, length=n, what=f"a list of {n} players"),
            "order": order, "dealer": player,
            "actor": Int(0, n, f"a position in the turn order from 0 to {n}"),
            "passer": Int(0, n, f"a player index from 0 to {n} (all passed)"),
            "op": Maybe(Choice("place", "harvest")),
            "builds": counts, "remodeled": BOOL, "discount": counts,
            "bonus": Maybe(Items(*(counts for _ in TREND_BONUS), what="5 Trend bonuses")),
            "give_back": BOOL,
            "admin": Items(*(BOOL for _ in range(n)), what=f"a list of {n} true / false"),
            "pending": ListOf(task),
            "history": ListOf(Int(0, None, "an action index >= 0")),
            "orders": MapOf(Choice(*(str(t) for t in range(1, MONTHS + 1)),
                                   what=f"a turn from 1 to {MONTHS}"), order),
        }

    def _check_consistency(self) -> None:
        """What the fields of the state must agree on (each alone is already checked): the
        cards, resources and materials are all somewhere, once, and the turn, phase and orders
        fit together."""
        s, cards, n = self.s, self.cards, self.players

        def need(ok: bool, path: str, what: str, value: object) -> None:
            if not ok:
                raise field_error(SOURCE, f"state.{path}", what, value)

        def once(found: list, every: list, what: str, path: str) -> None:
            twice = sorted(c for c, k in Counter(found).items() if k > 1)
            missing = sorted(set(every) - set(found))
            if twice or missing:
                why = f"{twice[0]} is there twice" if twice else f"{missing[0]} is nowhere"
                raise field_error(SOURCE, f"state.{path}", f"where the {what} are: each once "
                                  f"in all ({why})", s[path])

        facilities = [f for p in s["pl"] for f in p["fac"]]
        once([c for c in s["row"] if c] + s["bdeck"] + s["bbottom"] + [b for b, _ in facilities],
             cards.building_ids, "buildings (row, bdeck, bbottom, facilities)", "bdeck")
        once(s["cdeck"] + s["cbottom"] + [c for p in s["pl"] for c in p["hand"]]
             + [r for _, r in facilities if r], cards.character_ids,
             "characters (cdeck, cbottom, hands, residents)", "cdeck")
        once(s["impact_deck"] + s["impacts_up"] + [p["impact"] for p in s["pl"]
                                                   if p["impact"] is not None],
             sorted(cards.impacts), "Impact cards (impact_deck, impacts_up, players)",
             "impact_deck")
        dealt = len(s["impacts_up"]) + sum(p["impact"] is not None for p in s["pl"]) \
            + s["pending"].count(["impact"])
        deal = min(n, len(cards.impacts)) if self.options["impact"] else 0
        need(dealt == deal, "impacts_up", f"the Impact cards face up: {deal} dealt in all "
             f"(with those players hold and those still to deal: {dealt})", s["impacts_up"])
        for r in RESOURCES:
            held = sum(p["res"][r] for p in s["pl"])
            need(s["supply"][r] + held == cards.altar.supply[r], f"supply.{r}",
                 f"{cards.altar.supply[r] - held}: {cards.altar.supply[r]} {r} in all, {held} "
                 "held by the players", s["supply"][r])
        for q, me in enumerate(s["pl"]):
            for m, k in MATERIAL_SET.items():
                placed = sum(owners.count(q) for mat, owners, _ in s["altar"] if mat == m) + (
                    me["pedestal"] is not None and me["pedestal"][1] == m)
                need(me["mat"][m] + placed == k, f"pl[{q}].mat.{m}", f"{k - placed}: each player "
                     f"has {k} {m} materials, {placed} on the altar or a pedestal",
                     me["mat"][m])
        pedestals = [p["pedestal"][0] for p in s["pl"] if p["pedestal"] is not None]
        need(len(set(pedestals)) == len(pedestals), "pl", "players on different pedestals",
             pedestals)
        for d, district in enumerate(DISTRICTS):
            chits = sum(p["chits"][d] for p in s["pl"])
            need(chits <= rules.CAPACITY[district], "pl", f"players with at most "
                 f"{rules.CAPACITY[district]} chits in the {district} district", chits)
        turn, phase = s["turn"], s["phase"]
        need((turn == 0) == (phase in ("deal", "pass")) and (phase != "over" or turn == MONTHS)
             and (phase != "altar" or turn >= ALTAR_FROM), "phase",
             f"a phase of turn {turn}", phase)
        need(set(s["orders"]) == {str(t) for t in range(1, turn + 1)}
             and (turn == 0 or s["orders"][str(turn)] == s["order"]), "orders",
             f"the orders of turns 1 to {turn}, the last one the order", s["orders"])
        need(phase not in ("main", "altar") or s["actor"] < n, "actor",
             f"a position from 0 to {n - 1} while players act", s["actor"])
        need(phase != "pass" or s["passer"] < n, "passer",
             f"a player from 0 to {n - 1} while cards are passed", s["passer"])
        need(not s["give_back"] or phase == "main", "give_back", "false outside the main phase",
             s["give_back"])

    def action_to_string(self, action: int) -> str:
        action = check_action(self, action)
        if self.is_chance_node():
            kind = self.s["pending"][0]
            if kind[0] == "row":
                return f"draw {self.cards.building_ids[action]} into the Trend row"
            if kind[0] == "char":
                return f"player {kind[1] + 1} draws {self.cards.character_ids[action]}"
            return f"Impact card {action} is dealt"
        return f"player {self.current_player() + 1}: {describe_move(self._legal_moves()[action])}"

    def apply_action(self, action: int) -> None:
        action = check_action(self, action)
        if self.is_chance_node():
            self._resolve(action)
        else:
            self._play(self._legal_moves()[action])
        self.s["history"].append(action)
        self._moves = None
        self._advance()

    def resolve_chance(self) -> int:
        """Draw the chance node's outcome from the game's seed (and the number of actions so
        far), apply it and return it."""
        rng = np.random.default_rng([self.seed, len(self.s["history"])])
        action = sample_chance(self, rng)
        self.apply_action(action)
        return action

    def apply_move(self, move: tuple) -> None:
        """Apply a move tuple (as listed by :meth:`moves`)."""
        moves = self._legal_moves()
        if move not in moves:
            raise IllegalMoveError(self._why_illegal(move))
        self.apply_action(moves.index(move))

    def _why_illegal(self, move: Any) -> str:
        """A one-line message naming the rule an illegal move breaks."""
        if not isinstance(move, tuple) or not move or not isinstance(move[0], str) \
                or (move[0] in ("place", "pedestal") and len(move) == 3
                    and not isinstance(move[2], str)):
            return f"not a Lemuria move: {shorten(move)}"
        try:
            name = describe_move(move)
        except (IndexError, KeyError, TypeError):
            return f"not a Lemuria move: {shorten(move)}"
        if self.is_terminal():
            return f"{name}: the game is over"
        if self.is_chance_node():
            return f"{name}: a card is being drawn (a chance node)"
        kind, s = move[0], self.s
        p = self.current_player()
        if kind in ("place", "harvest") and not (isinstance(move[1], int)
                                                 and 0 <= move[1] < MEMORIES):
            return f"{name}: the altar has memories 1 to {MEMORIES}"
        if kind in ("place", "pedestal", "harvest") and s["phase"] != "main":
            return f"{name}: material operations belong to the main phase"
        if kind in ("place", "pedestal"):
            if s["op"] is not None:
                return f"{name}: only one material operation (place or harvest) a turn"
            if s["pl"][p]["mat"].get(move[2], 0) < 1:
                return f"{name}: player {p + 1} has no {move[2]} material in front of them"
        if kind == "place":
            reason = can_place(self.cards.altar, self.memory(move[1]), move[1], move[2])
            if reason:
                return f"{name}: {reason}"
        if kind == "pedestal":
            if s["pl"][p]["pedestal"] is not None:
                return f"{name}: materials may not be placed on more than one pedestal"
            return f"{name}: pedestal {move[1]} is not an empty pedestal (1 to {self.players})"
        if kind == "harvest":
            if s["op"] == "place":
                return f"{name}: only one material operation (place or harvest) a turn"
            try:
                harvest_shares(self.cards.altar, self.memory(move[1]), move[1], s["rotation"],
                               p, self.players)
            except IllegalMoveError as exc:
                return f"{name}: {exc}"
            if s["op"] is None and move[2]:
                return f"{name}: the first harvest of a turn is free (give 0)"
            if s["op"] == "harvest" and not move[2]:
                return f"{name}: each additional harvest costs 1 gold"
            return f"{name}: an additional harvest needs 1 gold"
        if kind == "end":
            return f"{name}: the material operation is mandatory (place or harvest first)"
        reason = self._why_not_main_move(move, p)
        return f"{name}: {reason}" if reason else f"{name} is not legal here"

    def _why_not_main_move(self, move: tuple, p: int) -> str | None:
        """The rule a build, remodel, play, draw or give-back breaks (None if none is found)."""
        kind, s = move[0], self.s
        if kind in ("build", "remodel", "play", "buy", "exchange", "impact", "give") \
                and s["phase"] != "main":
            return f"it belongs to the main phase (the game is at {s['phase']})"
        if s["give_back"] and kind != "give":
            return "the player gives a card back first (the exchange's second half)"
        if kind == "give":
            return "a card is given back only after an exchange" if not s["give_back"] \
                else f"{move[1]} is not in player {p + 1}'s hand"
        if kind in ("buy", "exchange"):
            price = len(s["pl"][p]["hand"]) if kind == "buy" else 2
            if not self._deck_left():
                return "the character deck is empty"
            return f"it costs {price} gold, player {p + 1} has {s['pl'][p]['res']['gold']}"
        if kind == "remodel" and s["turn"] < rules.REMODEL_FROM:
            return f"remodelling is allowed from turn {rules.REMODEL_FROM}"
        if kind == "remodel" and s["remodeled"]:
            return "only one remodel a turn (an extra build skill adds a build, not a remodel)"
        view = self._view(p)
        try:
            if kind == "build":
                rules.apply(self.cards, view, Build(move[1], move[2], tuple(move[3])))
                slot = view.row.index(move[1]) + 1
                options = self._reductions(view, move[1], slot)
            elif kind == "remodel":
                rules.apply(self.cards, view, Remodel(move[1], move[2], tuple(move[3])))
                slot = view.row.index(move[2]) + 1
                options = self._reductions(view, move[2], slot, move[1])
            elif kind == "play":
                rules.apply(self.cards, view, Play(move[1], move[2]))
                choices = self._choices(self.cards.skills[move[1]])
                return f"the skill's choice is one of {', '.join(choices)}"
            else:
                return None
        except IllegalMoveError as exc:
            return str(exc)
        except (TypeError, ValueError, KeyError):
            return None
        if tuple(sorted(move[3])) not in options:
            most = len(options[0]) if options else 0
            return (f"a build takes the most reductions allowed ({most} here: "
                    + " or ".join("-" + ", -".join(o) if o else "none" for o in options) + ")")
        return None

    # ------------------------------------------------------------------ chance
    def _draw_pending_deterministic(self) -> bool:
        """Resolve the first pending draw if its deck has no unknown part; False if it is a
        chance node."""
        task = self.s["pending"][0]
        kind = task[0]
        if kind == "row" and not self.s["bdeck"]:
            if self.s["bbottom"]:
                self._put_in_row(self.s["bbottom"].pop(0))
            else:
                self.s["pending"] = [t for t in self.s["pending"] if t[0] != "row"]
                return True
        elif kind == "char" and not self.s["cdeck"]:
            if self.s["cbottom"]:
                self.s["pl"][task[1]]["hand"].append(self.s["cbottom"].pop(0))
        elif kind == "impact" and not self.s["impact_deck"]:
            pass
        else:
            return False
        self.s["pending"].pop(0)
        return True

    def _resolve(self, action: int) -> None:
        task = self.s["pending"].pop(0)
        if task[0] == "row":
            card = self.cards.building_ids[action]
            self.s["bdeck"].remove(card)
            self._put_in_row(card)
        elif task[0] == "char":
            card = self.cards.character_ids[action]
            self.s["cdeck"].remove(card)
            self.s["pl"][task[1]]["hand"].append(card)
        else:
            self.s["impact_deck"].remove(action)
            self.s["impacts_up"] = sorted(self.s["impacts_up"] + [action])

    def _put_in_row(self, card: str) -> None:
        row = self.s["row"]
        slot = max(i for i, c in enumerate(row) if c is None)
        row[slot] = card

    # ------------------------------------------------------------------ flow
    def _advance(self) -> None:
        """Run the automatic steps until a decision, a chance node or the end."""
        s = self.s
        while True:
            while s["pending"] and self._draw_pending_deterministic():
                pass
            if s["pending"]:
                return
            phase = s["phase"]
            if phase == "deal":
                s["phase"], s["passer"] = "pass", 0
                return
            if phase == "scoring":
                if s["turn"] in FESTIVALS:
                    self._festival()
                if s["turn"] == MONTHS:
                    s["phase"] = "over"
                    return
                self._start_turn(s["turn"] + 1)
                continue
            return

    def _start_turn(self, turn: int) -> None:
        s = self.s
        s["turn"] = turn
        self._district_bonuses(turn in FESTIVALS)
        if turn == 1:
            s["order"], s["dealer"] = list(range(self.players)), 0
        else:
            pedestals = {}
            for p, player in enumerate(s["pl"]):
                if player["pedestal"] is not None:
                    ped, material = player["pedestal"]
                    pedestals[ped] = p
                    player["mat"][material] += 1
                    player["pedestal"] = None
            s["order"] = order_from_vp(self.vp(), s["dealer"], pedestals)
            s["dealer"] = s["order"][0]
        s["orders"][str(turn)] = list(s["order"])
        s["actor"] = 0
        self._begin_player_turn()
        if turn >= ALTAR_FROM:
            s["rotation"] = turn_altar(s["rotation"], 1)
            s["phase"] = "altar"
        else:
            s["phase"] = "main"

    def _district_bonuses(self, festival: bool) -> None:
        """Turn-start bonuses: in each district the single player with most chits (at least
        one), or on a festival turn every player with a chit there. Chits are handed out from
        the previous dealer clockwise (that order matters only when the supply runs out)."""
        s = self.s
        n = self.players
        for k in range(n):
            p = (s["dealer"] + k) % n
            s["admin"][p] = False
            for d, district in enumerate(DISTRICTS):
                mine = s["pl"][p]["chits"][d]
                most = max((s["pl"][q]["chits"][d] for q in range(n) if q != p), default=0)
                if mine < 1 or (not festival and mine <= most):
                    continue
                if district == "rural":
                    self._gain(p, "food", 1)
                elif district == "commerce":
                    self._gain(p, "gold", 1)
                elif district == "church":
                    s["pl"][p]["vp"][_S["church"]] += CHURCH_VP
                else:
                    s["admin"][p] = True

    def _begin_player_turn(self) -> None:
        s = self.s
        s["op"], s["builds"], s["discount"], s["bonus"], s["give_back"] = None, 1, 0, None, False
        s["remodeled"] = False

    def _end_player_turn(self) -> None:
        s = self.s
        s["actor"] += 1
        self._begin_player_turn()
        if s["actor"] < self.players:
            return
        if s["turn"] < MONTHS:
            self._set_altar(add_black_cubes(self.cards.altar, self.memories()))
            row = s["row"]
            if row[-1] is not None:
                s["bbottom"].append(row[-1])
            remaining = [c for c in row[:-1] if c is not None]
            s["row"] = [None] * (5 - len(remaining)) + remaining
            s["pending"] += [["row"]] * (5 - len(remaining))
        s["phase"] = "scoring"

    def _set_altar(self, memories: tuple[Memory, ...]) -> None:
        for i, m in enumerate(memories):
            self._set_memory(i, m)

    def _festival(self) -> None:
        """Per colour, housed facilities: the single player with most scores 3 VP each, every
        other player (or everyone tied for most) 1 VP each."""
        counts = []
        for p in self.s["pl"]:
            colors = [self.cards.buildings[b].color for b, r in p["fac"] if r is not None]
            counts.append([colors.count(c) for c in COLORS])
        for ci in range(len(COLORS)):
            column = [c[ci] for c in counts]
            best = max(column)
            unique = column.count(best) == 1
            for p, n in enumerate(column):
                self.s["pl"][p]["vp"][_S["festival"]] += 3 * n if unique and n == best else n

    def _gain(self, player: int, resource: str, amount: int) -> int:
        """Take up to ``amount`` of ``resource`` from the supply (it may run out)."""
        got = max(0, min(amount, self.s["supply"][resource]))
        self.s["supply"][resource] -= got
        self.s["pl"][player]["res"][resource] += got
        return got

    # ------------------------------------------------------------------ the rules view
    def _view(self, p: int) -> rules.State:
        s = self.s
        me = s["pl"][p]
        return rules.State(
            turn=max(s["turn"], 1), row=tuple(s["row"]), deck=tuple(s["bbottom"]),
            resources=tuple(me["res"][r] for r in RESOURCES), hand=tuple(sorted(me["hand"])),
            character_deck=tuple(s["cbottom"]),
            facilities=tuple(sorted(tuple(f) for f in me["fac"])), chits=tuple(me["chits"]),
            opponent_chits=tuple(tuple(q["chits"]) for i, q in enumerate(s["pl"]) if i != p),
            built=s["builds"] <= 0, admin=s["admin"][p], vp=tuple(me["vp"]),
            discount=s["discount"])

    def _unview(self, p: int, view: rules.State) -> None:
        s = self.s
        me = s["pl"][p]
        for r, n in zip(RESOURCES, view.resources, strict=True):
            s["supply"][r] += me["res"][r] - n
            me["res"][r] = n
        s["row"], s["bbottom"], s["cbottom"] = list(view.row), list(view.deck), \
            list(view.character_deck)
        me["hand"], me["fac"] = list(view.hand), [list(f) for f in view.facilities]
        me["chits"], me["vp"] = list(view.chits), list(view.vp)
        s["admin"][p], s["discount"] = view.admin, view.discount

    def _rules_apply(self, p: int, action: Build | Remodel | Play) -> None:
        view = rules.apply(self.cards, self._view(p), action)
        self._unview(p, view)

    # ------------------------------------------------------------------ legal moves
    def moves(self) -> list[tuple]:
        """The decision's legal moves as tuples, in a fixed order (action i is moves()[i])."""
        return list(self._legal_moves())

    def _legal_moves(self) -> list[tuple]:
        """The cached move list itself (callers inside the class do not change it)."""
        if self._moves is None:
            self._moves = [] if self.is_terminal() or self.is_chance_node() else self._legal()
        return self._moves

    def _legal(self) -> list[tuple]:
        s = self.s
        if s["phase"] == "pass":
            return [("pass", c) for c in sorted(set(s["pl"][s["passer"]]["hand"]))]
        if s["phase"] == "altar":
            dealer = s["order"][0]
            steps = [0] + ([1, -1] if s["pl"][dealer]["res"]["gold"] >= 1 else [])
            return [("altar", k) for k in steps]
        p = self.current_player()
        if s["give_back"]:
            return [("give", c) for c in sorted(set(s["pl"][p]["hand"]))]
        moves = self._material_moves(p)
        must = s["op"] is None and bool(moves)
        if s["op"] == "harvest" and s["pl"][p]["res"]["gold"] >= 1:
            moves += [("harvest", m, 1) for m in self._harvestable(p)]
        moves += self._build_moves(p) + self._remodel_moves(p) + self._play_moves(p)
        moves += self._draw_moves(p) + self._impact_moves(p)
        if not must:
            moves.append(("end",))
        return moves

    def _harvestable(self, p: int) -> list[int]:
        altar = self.cards.altar
        return [i for i, m in enumerate(self.memories())
                if p in m.owners and is_full(altar, m, i)]

    def _material_moves(self, p: int) -> list[tuple]:
        s = self.s
        if s["op"] is not None:
            return []
        me = s["pl"][p]
        moves: list[tuple] = []
        kinds = [k for k in MATERIALS if me["mat"][k] > 0]
        for i, m in enumerate(self.memories()):
            moves += [("place", i, k) for k in kinds if can_place(self.cards.altar, m, i, k)
                      is None]
        if kinds and me["pedestal"] is None:
            taken = {q["pedestal"][0] for q in s["pl"] if q["pedestal"] is not None}
            moves += [("pedestal", ped, k) for ped in range(1, self.players + 1)
                      if ped not in taken for k in kinds]
        moves += [("harvest", m, 0) for m in self._harvestable(p)]
        return moves

    def _reductions(self, view: rules.State, card: str, slot: int,
                    discard: str | None = None) -> list[tuple[str, ...]]:
        """The reductions offered for a build: every choice of the maximal number of them
        (using fewer only costs more)."""
        building = self.cards.buildings[card]
        color = self.cards.buildings[discard].color if discard else None
        allowed = rules.allowed_reductions(view, slot, color, building.color)
        units = [r for r, n in sorted(building.cost.items()) for _ in range(n)]
        k = min(allowed, len(units))
        return sorted(set(itertools.combinations(units, k)))

    def _build_moves(self, p: int) -> list[tuple]:
        view = self._view(p)
        if view.built or len(view.facilities) >= rules.MAX_FACILITIES:
            return []
        moves = []
        districts = rules.chit_options(view)
        for slot, card in enumerate(view.row, 1):
            if card is None:
                continue
            for reduce in self._reductions(view, card, slot):
                try:
                    after = rules.build_card(self.cards, view, card, reduce)
                except IllegalMoveError:
                    continue
                del after
                moves += [("build", card, d, reduce) for d in districts]
        return moves

    def _remodel_moves(self, p: int) -> list[tuple]:
        view = self._view(p)
        if view.built or view.turn < rules.REMODEL_FROM or self.s["remodeled"]:
            return []  # an extra build skill adds a build, never a second remodel
        moves = []
        for discard, _resident in view.facilities:
            for slot, card in enumerate(view.row, 1):
                if card is None:
                    continue
                for reduce in self._reductions(view, card, slot, discard):
                    move = Remodel(discard, card, reduce)
                    try:
                        rules.apply(self.cards, view, move)
                    except IllegalMoveError:
                        continue
                    moves.append(("remodel", discard, card, reduce))
        return moves

    def _deck_left(self) -> bool:
        return bool(self.s["cdeck"] or self.s["cbottom"])

    def _choices(self, skill: Skill | None) -> tuple[str, ...]:
        if skill is None:
            return (DECLINE,)
        choices = skill.choices()
        if skill.kind == "draw" and not self._deck_left():
            return (DECLINE,)
        return choices

    def _play_moves(self, p: int) -> list[tuple]:
        me = self.s["pl"][p]
        empty = sorted(b for b, r in me["fac"] if r is None)
        moves = []
        for c in sorted(set(me["hand"])):
            if self.cards.characters[c].food > me["res"]["food"]:
                continue
            for house in [None] + empty:
                moves += [("play", c, house, ch) for ch in self._choices(self.cards.skills[c])]
        return moves

    def _draw_moves(self, p: int) -> list[tuple]:
        me = self.s["pl"][p]
        if not self._deck_left():
            return []
        moves = []
        if me["res"]["gold"] >= len(me["hand"]):
            moves.append(("buy",))
        if me["res"]["gold"] >= 2:
            moves.append(("exchange",))
        return moves

    def _impact_moves(self, p: int) -> list[tuple]:
        s = self.s
        if not s["impacts_up"] or s["pl"][p]["impact"] is not None:
            return []
        card = self.cards.impacts[s["impacts_up"][0]]
        return [("impact", ch) for ch in self._choices(card.effect) if ch != DECLINE]

    # ------------------------------------------------------------------ playing a move
    def _play(self, move: tuple) -> None:
        s = self.s
        kind = move[0]
        if kind == "pass":
            self._pass_card(move[1])
            return
        if kind == "altar":
            dealer = s["order"][0]
            if move[1]:
                self._pay(dealer, "gold", 1)
                s["rotation"] = turn_altar(s["rotation"], move[1])
            s["phase"] = "main"
            return
        p = self.current_player()
        me = s["pl"][p]
        if kind == "place":
            _k, index, material = move
            self._set_memory(index, place(self.cards.altar, self.memory(index), index, p,
                                          material))
            me["mat"][material] -= 1
            s["op"] = "place"
        elif kind == "pedestal":
            me["pedestal"] = [move[1], move[2]]
            me["mat"][move[2]] -= 1
            s["op"] = "place"
        elif kind == "harvest":
            if move[2]:
                self._pay(p, "gold", 1)
            self._harvest(p, move[1])
            s["op"] = "harvest"
        elif kind == "build":
            self._build(p, move[1], lambda: self._rules_apply(p, Build(move[1], move[2],
                                                                       move[3])))
        elif kind == "remodel":
            self._build(p, move[2], lambda: self._rules_apply(p, Remodel(move[1], move[2],
                                                                         move[3])))
            s["remodeled"] = True
        elif kind == "play":
            _k, card, house, choice = move
            self._rules_apply(p, Play(card, house))
            self._use(p, self.cards.skills[card], choice)
        elif kind == "buy":
            self._pay(p, "gold", len(me["hand"]))
            s["pending"].append(["char", p])
        elif kind == "exchange":
            self._pay(p, "gold", 2)
            s["pending"].append(["char", p])
            s["give_back"] = True
        elif kind == "give":
            me["hand"].remove(move[1])
            s["cbottom"].append(move[1])
            s["give_back"] = False
        elif kind == "impact":
            number = s["impacts_up"].pop(0)
            me["impact"] = number
            self._use(p, self.cards.impacts[number].effect, move[1])
        elif kind == "end":
            self._end_player_turn()

    def _pass_card(self, card: str) -> None:
        s = self.s
        s["pl"][s["passer"]]["passing"] = card
        s["passer"] += 1
        if s["passer"] < self.players:
            return
        n = self.players
        for p in range(n):
            s["pl"][p]["hand"].remove(s["pl"][p]["passing"])
        for p in range(n):
            s["pl"][(p + 1) % n]["hand"].append(s["pl"][p]["passing"])
        self._start_turn(1)

    def _pay(self, p: int, resource: str, amount: int) -> None:
        have = self.s["pl"][p]["res"][resource]
        if amount > have:
            raise IllegalMoveError(f"needs {amount} {resource}, player {p + 1} has {have}")
        self.s["pl"][p]["res"][resource] -= amount
        self.s["supply"][resource] += amount

    def _harvest(self, p: int, index: int) -> None:
        memory = self.memory(index)
        shares = harvest_shares(self.cards.altar, memory, index, self.s["rotation"], p,
                                self.players)
        for q, resource, amount in shares:
            self._gain(q, resource, amount)
        for owner in memory.owners:
            self.s["pl"][owner]["mat"][memory.material] += 1
        self._set_memory(index, Memory())

    def _build(self, p: int, card: str, apply: Any) -> None:
        """A build or remodel through the rules, then the turn's trend bonus override (a
        Lemuria Impact) and one build fewer left."""
        slot = self.s["row"].index(card)
        apply()
        self.s["builds"] -= 1
        bonus = self.s["bonus"]
        if bonus is not None:
            self.s["pl"][p]["vp"][_S["trend"]] += bonus[slot] - TREND_BONUS[slot]

    def _use(self, p: int, skill: Skill | None, choice: str) -> None:
        """Apply an effect (a character's skill or an Impact card) unless declined."""
        if skill is None or choice == DECLINE:
            return
        s = self.s
        if skill.kind == "gain":
            self._gain(p, skill.resource or "gold", skill.amount)
        elif skill.kind == "rotate":
            s["rotation"] = turn_altar(s["rotation"], 1 if choice == "clockwise" else -1)
        elif skill.kind == "extra build":
            s["builds"] += 1
        elif skill.kind == "discount":
            s["discount"] += 1
        elif skill.kind == "draw":
            s["pending"].append(["char", p])
        elif skill.kind == "trend bonus":
            s["bonus"] = list(skill.bonus)

    # ------------------------------------------------------------------ records
    def record(self) -> dict[str, Any]:
        """The game so far as one JSON object: ``game``, ``players``, ``seed``, ``options``,
        ``actions`` (every action and chance outcome), ``moves`` (their names), ``vp`` and
        ``winner`` (None until the end). :meth:`replay` plays it back."""
        moves = []
        game = Game.new(self.players, self.seed, **self.options)
        for action in self.s["history"]:
            moves.append(game.action_to_string(action))
            game.apply_action(action)
        return {"game": "lemuria", "players": self.players, "seed": self.seed,
                "options": dict(self.options), "actions": list(self.s["history"]),
                "moves": moves, "vp": self.vp(), "winner": self.winner()}

    @classmethod
    def replay(cls, record: Mapping[str, Any] | str | Path) -> Game:
        """The game a :meth:`record` describes, replayed action by action: the dict, its JSON
        text or the path of its JSON file (:func:`lumicore.checks.read_record`: a ``str``
        starting with ``{`` is the text, any other the path), replayed as every game replays an
        arena record (:func:`lumicore.game.iter_arena_record`: an illegal action is an
        :class:`IllegalMoveError` naming its index in ``actions``, from 0); a record whose ``vp``
        or ``winner`` differ from the replay's is a :class:`DataError`."""
        data = read_record(record, RECORD)
        game = cast(Game, replay_arena_record(data, "lemuria"))
        for key, value in (("vp", game.vp()), ("winner", game.winner())):
            if key in data and data[key] != value:
                raise DataError(f"{RECORD}: the replay ends with {key} {value}, the record "
                                f"says {shorten(data[key])}")
        return game

    # ------------------------------------------------------------------ text
    def altar_text(self) -> str:
        """The altar on one line: rotation, then each memory with its contents."""
        altar = self.cards.altar
        parts = []
        for i, m in enumerate(self.memories()):
            parts.append(f"{i + 1}:{m}/{altar.blocks(i)}" if m.filled else f"{i + 1}:-/"
                         f"{altar.blocks(i)}")
        return f"altar r{self.rotation} | " + " ".join(parts)

    def player_text(self, p: int) -> str:
        me = self.s["pl"][self._seat(p)]
        res = " ".join(f"{r[0]}{me['res'][r]}" for r in RESOURCES)
        fac = " ".join(f"{b}[{r}]" if r else b for b, r in me["fac"]) or "-"
        mat = f"P{me['mat']['plant']} M{me['mat']['mineral']}"
        return (f"player {p + 1}: VP {sum(me['vp'])} | {res} | {mat} | hand "
                f"{' '.join(sorted(me['hand'])) or '-'} | {fac}")

    def __str__(self) -> str:
        row = " ".join(c or "-" for c in self.s["row"])
        order = " ".join(str(p + 1) for p in self.s["order"])
        lines = [f"Lemuria turn {self.turn} ({self.phase}) | order {order} | row {row}",
                 self.altar_text()]
        lines += [self.player_text(p) for p in range(self.players)]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<Lemuria game: {self.players} players, turn {self.turn}, {self.phase}>"

    def _repr_svg_(self) -> str:
        """The game at a glance (:func:`lumicore.lemuria.render.render_game`), for notebooks."""
        from lumicore.lemuria.render import render_game

        return render_game(self)
