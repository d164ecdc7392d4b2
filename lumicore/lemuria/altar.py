"""The Star-Carved Altar and Calendar of Lemuria: memories, materials, black cubes, harvests.

The altar card is data (``lumicore/data/lemuria_altar.toml``, a reconstruction): 12 memories,
each with its blocks (how many materials and black cubes fit) and the resource a Plant and a
Mineral material yield there. The blocks stay in place; turning the altar moves the printed
resources: at ``rotation`` r memory m yields what memory m - r printed (clockwise is +1).
Memories are numbered 0..11 in code and 1..12 in text. What lies in a memory is a
:class:`Memory`: the material type, the owners of the materials (one entry per material) and the
black cubes. The functions here are pure: they return new values or raise
:class:`~lumicore.errors.IllegalMoveError` naming the rule.

>>> card = load_altar()
>>> len(card.memories), card.memories[0].blocks, card.yields(0, "plant", rotation=0)
(12, 3, 'food')
>>> card.yields(1, "plant", rotation=1)   # memory 1 now shows what memory 0 printed
'food'
>>> m = place(card, Memory(), 0, 0, "plant")
>>> str(place(card, m, 0, 1, "plant"))
'plant 0 1'
>>> can_place(card, m, 0, "mineral")
'memory 1 holds plant materials: only plant may be placed there (one type per memory)'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lumicore.checks import check_index, check_int, check_type
from lumicore.data import read_toml, shorten
from lumicore.errors import DataError, IllegalMoveError, LumicoreError
from lumicore.lemuria.schedule import RESOURCE_LIMIT, RESOURCES

__all__ = ["MEMORIES", "MATERIALS", "MATERIAL_COUNT", "FESTIVALS", "ALTAR_FROM", "MONTHS",
           "AltarMemory", "AltarCard", "Memory", "load_altar", "parse_altar", "place", "can_place",
           "memory_problem", "is_full",
           "harvest_shares", "add_black_cubes", "turn_altar", "Calendar"]

MEMORIES = 12
"""Memories on the altar (numbered 0..11 in code, 1..12 in text)."""
MATERIALS = ("plant", "mineral")
"""The material types: a memory holds materials of one type only."""
MATERIAL_COUNT = 2
"""Materials of each type a player has (on the altar, on a pedestal or in front)."""
MONTHS = 12
"""Months (turns) in a Lemuria year."""
FESTIVALS = (4, 8, 12)
"""The months that end with a festival."""
ALTAR_FROM = FESTIVALS[0]
"""The altar phase is played from the first festival turn on (turns 1-3 skip it)."""
PLANT_YIELDS = ("food", "wood")
MINERAL_YIELDS = ("gold", "stone")
BUILTIN_ALTARS = {"default": "lemuria_altar.toml"}


@dataclass(frozen=True)
class AltarMemory:
    """One memory of the altar card: its ``blocks`` and the ``plant`` / ``mineral`` yields."""

    blocks: int
    plant: str
    mineral: str


@dataclass(frozen=True)
class AltarCard:
    """The 12 memories (clockwise from the start position) and the resource ``supply``."""

    memories: tuple[AltarMemory, ...]
    supply: dict[str, int] = field(default_factory=dict)

    def __hash__(self) -> int:
        return hash((self.memories, tuple(sorted(self.supply.items()))))

    def blocks(self, memory: int) -> int:
        return self.memories[memory].blocks

    def yields(self, memory: int, material: str, rotation: int) -> str:
        """The resource a ``material`` harvested from ``memory`` gives at ``rotation``."""
        return getattr(self.memories[(memory - rotation) % MEMORIES], material)


def parse_altar(data: Any, where: str = "altar") -> AltarCard:
    """An :class:`AltarCard` from parsed TOML (``supply`` table and 12 ``[[memory]]`` tables)."""
    if not isinstance(data, dict):
        raise DataError(f"{where}: expected a table, got {shorten(data)}")
    for key in data:
        if key not in ("memory", "supply"):
            raise DataError(f"{where}: unknown key {shorten(key)} (expected supply and [[memory]])")
    entries = data.get("memory")
    if not isinstance(entries, list) or len(entries) != MEMORIES:
        n = len(entries) if isinstance(entries, list) else 0
        raise DataError(f"{where}: expected {MEMORIES} [[memory]] tables, got {n}")
    memories = []
    for i, entry in enumerate(entries):
        at = f"{where} memory {i + 1}"
        if not isinstance(entry, dict):
            raise DataError(f"{at}: expected a table with the keys blocks, plant, mineral")
        for key in sorted(set(entry) ^ {"blocks", "plant", "mineral"}, key=str):
            what = "unknown" if key in entry else "missing"
            raise DataError(f"{at}: {what} key {shorten(key)} (expected blocks, plant, mineral)")
        blocks = entry["blocks"]
        if isinstance(blocks, bool) or not isinstance(blocks, int) or not 1 <= blocks <= 6:
            raise DataError(f"{at}.blocks: expected 1..6, got {shorten(blocks)}")
        if entry["plant"] not in PLANT_YIELDS:
            raise DataError(f"{at}.plant: expected food or wood, got {shorten(entry['plant'])}")
        if entry["mineral"] not in MINERAL_YIELDS:
            raise DataError(f"{at}.mineral: expected gold or stone, "
                            f"got {shorten(entry['mineral'])}")
        memories.append(AltarMemory(blocks, entry["plant"], entry["mineral"]))
    supply = data.get("supply", {})
    if not isinstance(supply, dict):
        raise DataError(f"{where}.supply: expected a table of resources ({', '.join(RESOURCES)})")
    for r, n in supply.items():
        if r not in RESOURCES:
            raise DataError(f"{where}.supply: unknown resource {shorten(r)} (one of "
                            f"{', '.join(RESOURCES)})")
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= RESOURCE_LIMIT:
            raise DataError(f"{where}.supply.{r}: expected an integer 0..{RESOURCE_LIMIT} (what "
                            f"the game can hold), got {shorten(n)}")
    return AltarCard(tuple(memories), {r: supply.get(r, 40) for r in RESOURCES})


def load_altar(name_or_path: str | Path = "default") -> AltarCard:
    """The altar card from ``"default"`` or a TOML file (see the module docstring)."""
    return parse_altar(read_toml(name_or_path, BUILTIN_ALTARS), str(name_or_path))


@dataclass(frozen=True)
class Memory:
    """What lies in one memory: the ``material`` type (None when empty), the ``owners`` of the
    materials there (one entry per material, sorted) and the ``black`` cubes."""

    material: str | None = None
    owners: tuple[int, ...] = ()
    black: int = 0

    @property
    def filled(self) -> int:
        return len(self.owners) + self.black

    def __str__(self) -> str:
        if not self.filled:
            return "-"
        return " ".join([self.material or "-"] + [str(p) for p in self.owners]
                        + ["x"] * self.black)


_STEP_ERRORS = (AttributeError, TypeError, IndexError, ZeroDivisionError)
"""What the altar's rule steps raise on arguments of the wrong kind: they check their arguments
(:func:`_check_step`) only then, as the game and the planners call them for every move."""


def _check_step(**args: object) -> None:
    """:class:`LumicoreError` naming the first argument of an altar rule step that is of the
    wrong kind (``card`` an :class:`AltarCard`, ``memory`` a :class:`Memory`, ``memories`` a
    tuple of them, ``index`` a memory index, the others integers: ``players`` from 1 up,
    ``player`` and ``harvester`` from 0)."""
    for name, value in args.items():
        if name == "card":
            check_type(value, AltarCard, name, "a lemuria AltarCard (see load_altar)")
        elif name == "memory":
            check_type(value, Memory, name, "a lemuria altar Memory")
        elif name == "memories":
            if not isinstance(value, tuple) or not all(isinstance(m, Memory) for m in value):
                raise LumicoreError(f"memories must be a tuple of altar Memory, got "
                                    f"{shorten(value)}")
        elif name == "index":
            check_index(value, MEMORIES, name, "a memory index")
        else:
            check_int(value, name, {"players": 1, "player": 0, "harvester": 0}.get(name))


def memory_problem(card: AltarCard, memory: Memory, index: int) -> str | None:
    """None if ``memory`` can lie in memory ``index`` of ``card``, else what is wrong with it.

    >>> memory_problem(load_altar(), Memory("plant", (0, 1), 2), 0)
    '4 pieces (materials and black cubes) in a memory of 3 blocks'
    """
    if not isinstance(memory, Memory):
        _check_step(memory=memory)
    if memory.material is None:
        return "black cubes or owners without a material" if memory.filled else None
    if memory.material not in MATERIALS:
        return f"material {shorten(memory.material)} is not one of {', '.join(MATERIALS)}"
    if not memory.owners:
        return "a material without owners"
    if not isinstance(memory.owners, tuple) or not all(
            isinstance(o, int) and not isinstance(o, bool) and o >= 0 for o in memory.owners):
        return f"owners: expected a tuple of player numbers, got {shorten(memory.owners)}"
    if isinstance(memory.black, bool) or not isinstance(memory.black, int) or memory.black < 0:
        return f"black cubes: expected a count >= 0, got {shorten(memory.black)}"
    try:
        blocks = card.blocks(index)
    except _STEP_ERRORS:
        _check_step(card=card, index=index)
        raise
    if memory.filled > blocks:
        return (f"{memory.filled} pieces (materials and black cubes) in a memory of "
                f"{blocks} blocks")
    return None


def is_full(card: AltarCard, memory: Memory, index: int) -> bool:
    """Whether every block of memory ``index`` is filled."""
    try:
        return memory.filled >= card.blocks(index)
    except _STEP_ERRORS:
        _check_step(card=card, memory=memory, index=index)
        raise


def can_place(card: AltarCard, memory: Memory, index: int, material: str) -> str | None:
    """None if a ``material`` may be placed in memory ``index``, else the rule it breaks."""
    if not isinstance(material, str) or material not in MATERIALS:
        return f"unknown material {shorten(material)} (plant or mineral)"
    if is_full(card, memory, index):
        return f"memory {index + 1} is full (no empty block)"
    if memory.owners and memory.material != material:
        return (f"memory {index + 1} holds {memory.material} materials: only {memory.material} "
                "may be placed there (one type per memory)")
    return None


def place(card: AltarCard, memory: Memory, index: int, player: int, material: str) -> Memory:
    """``memory`` with ``player``'s ``material`` placed on an empty block."""
    reason = can_place(card, memory, index, material)
    if reason:
        raise IllegalMoveError(reason)
    try:
        return Memory(material, tuple(sorted(memory.owners + (player,))), memory.black)
    except _STEP_ERRORS:
        _check_step(player=player)
        raise


def harvest_shares(card: AltarCard, memory: Memory, index: int, rotation: int, harvester: int,
                   players: int) -> list[tuple[int, str, int]]:
    """The harvest of memory ``index`` by ``harvester``: ``(player, resource, amount)`` in the
    order the chits are handed out (the harvester, then clockwise). The harvester gets their
    own materials plus every black cube; every other owner their own materials plus half the
    black cubes, rounded down. Raises :class:`IllegalMoveError` unless the memory is full and
    holds a material of the harvester.

    >>> card = load_altar()
    >>> harvest_shares(card, Memory("mineral", (0, 2), 1), 0, 0, 2, 3)
    [(2, 'stone', 2), (0, 'stone', 1)]
    """
    try:
        if harvester not in memory.owners:
            _check_step(players=players)
            check_index(harvester, players, "harvester", "a player index")
            raise IllegalMoveError(f"memory {index + 1} holds no material of player "
                                   f"{harvester + 1} (harvest a memory with a material of yours)")
        if not is_full(card, memory, index):
            raise IllegalMoveError(f"memory {index + 1} is not full ({memory.filled} of "
                                   f"{card.blocks(index)} blocks): only a full memory is "
                                   "harvested")
        resource = card.yields(index, memory.material or "plant", rotation)
        # the owners in the order the chits go round from the harvester (a loop over the seats
        # would run as long as ``players`` is large)
        order = sorted({p for p in memory.owners if 0 <= p < players},
                       key=lambda p: (p - harvester) % players)
    except _STEP_ERRORS:
        _check_step(card=card, memory=memory, index=index, rotation=rotation,
                    harvester=harvester, players=players)
        raise
    shares = []
    for p in order:
        amount = memory.owners.count(p) + (memory.black if p == harvester else memory.black // 2)
        shares.append((p, resource, amount))
    return shares


def add_black_cubes(card: AltarCard, memories: tuple[Memory, ...]) -> tuple[Memory, ...]:
    """End of a turn (not the last): one black cube on every memory that holds a player's
    material and has an empty block."""
    try:
        return tuple(Memory(m.material, m.owners, m.black + 1)
                     if m.owners and not is_full(card, m, i) else m
                     for i, m in enumerate(memories))
    except _STEP_ERRORS:
        _check_step(card=card, memories=memories)
        raise


def turn_altar(rotation: int, step: int) -> int:
    """The rotation after turning ``step`` memories (+1 clockwise, -1 back)."""
    try:
        return (rotation + step) % MEMORIES
    except TypeError:
        _check_step(rotation=rotation, step=step)
        raise


@dataclass(frozen=True)
class Calendar:
    """The Star-Carved Calendar: one memory a month, festivals at months 4, 8 and 12.

    >>> Calendar(4).festival, Calendar(3).altar_phase, Calendar(12).last
    (True, False, True)
    """

    month: int = 1

    @property
    def festival(self) -> bool:
        return self.month in FESTIVALS

    @property
    def altar_phase(self) -> bool:
        return self.month >= ALTAR_FROM

    @property
    def last(self) -> bool:
        return self.month == MONTHS
