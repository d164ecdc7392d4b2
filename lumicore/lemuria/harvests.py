"""One player's year with the altar: material operations planned, income earned by harvests.

The one-player year (:func:`lumicore.lemuria.simulate`) takes each turn's income as given. Here
the income comes from the Star-Carved Altar instead: a plan's turns also hold the player's
material operations (:class:`Place`, :class:`Pedestal`, :class:`Harvest`), and
:func:`replay_harvests` plays them through the altar rules (:mod:`lumicore.lemuria.altar`) and
the rest of each turn through :mod:`lumicore.lemuria.rules`. What the player does not decide is
an :class:`AltarSetup`: the altar card, its contents and rotation at the start, the dealers'
optional steps per turn (the automatic turn from turn 4 is always made) and the materials other
players place (before the player acts in that turn; they never harvest in this mode, and a
harvest by the player hands them their share). This is the independent check of the plans of
``build_schedule(..., harvests=True)``.

>>> from lumicore.lemuria import Instance, Building, TurnPlan, Build
>>> inst = Instance(turns=3, buildings={"A": Building("A", "red", 2, {"wood": 2})},
...                 characters={}, trend=(None, None, None, None, "A"))
>>> plan = [TurnPlan(1, (Place(1, "plant"),)),   # memory 2: 2 blocks, a black cube fills it
...         TurnPlan(2, (Harvest(1), Build("A", "rural", ("wood",)))),
...         TurnPlan(3, (Place(0, "mineral"),))]
>>> result = replay_harvests(inst, AltarSetup(), plan)
>>> result.income[2], result.total
({'wood': 2}, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from dataclasses import replace as dc_replace

from lumicore.checks import check_index, check_type, is_integer
from lumicore.data import shorten
from lumicore.errors import DataError, IllegalMoveError
from lumicore.lemuria.altar import (
    ALTAR_FROM,
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
    memory_problem,
    place,
)
from lumicore.lemuria.instance import Instance, check_instance
from lumicore.lemuria.rules import apply, begin_turn, end_turn, initial_state, start_bonuses
from lumicore.lemuria.schedule import RESOURCES, Schedule, TurnPlan
from lumicore.lemuria.simulate import SimResult, TurnTrace, plans_by_turn

__all__ = ["Place", "Pedestal", "Harvest", "MaterialOp", "AltarSetup", "AltarYear",
           "HarvestResult", "replay_harvests", "ME", "OTHERS"]

ME = 0
"""Owner index of the planning player's materials in an :class:`AltarSetup`."""
OTHERS = 1
"""Owner index standing for every other player."""
_R = {r: i for i, r in enumerate(RESOURCES)}


def _shown(memory: object) -> str:
    """A memory as the text numbers it (1-12), or as given when it is no number."""
    return str(memory + 1) if isinstance(memory, int) else shorten(memory)


@dataclass(frozen=True)
class Place:
    """Place a material (``plant`` or ``mineral``) on an empty block of ``memory`` (0-11)."""

    memory: int
    material: str

    def __str__(self) -> str:
        return f"place {self.material} in memory {_shown(self.memory)}"


@dataclass(frozen=True)
class Pedestal:
    """Place a material on a turn-order pedestal (it comes back at the next turn's start)."""

    material: str

    def __str__(self) -> str:
        return f"place {self.material} on a pedestal"


@dataclass(frozen=True)
class Harvest:
    """Harvest the full ``memory`` holding a material of the player; ``paid``: an additional
    harvest of the turn, for 1 gold."""

    memory: int
    paid: bool = False

    def __str__(self) -> str:
        return f"harvest memory {_shown(self.memory)}" + (" (1 gold)" if self.paid else "")


MaterialOp = Place | Pedestal | Harvest
"""Any material operation of a turn: a material placed on the altar or on a pedestal, or a
harvest."""


def _empty_altar() -> tuple[Memory, ...]:
    return (Memory(),) * MEMORIES


def _is_placement(pair: object) -> bool:
    """Whether ``pair`` is a ``(memory, material)`` pair that other players can place."""
    if not isinstance(pair, (tuple, list)) or len(pair) != 2:
        return False
    memory, material = pair
    return (isinstance(memory, int) and not isinstance(memory, bool) and 0 <= memory < MEMORIES
            and isinstance(material, str) and material in MATERIALS)


@dataclass(frozen=True)
class AltarSetup:
    """What the player does not decide about the altar (see the module docstring).

    ``start``: the 12 memories at the start (owner :data:`ME` or :data:`OTHERS`); ``rotation``
    the altar's rotation in the instance's turn 1 (after that turn's altar phase); ``steps``:
    instance turn -> the dealer's optional step (-1, 0, 1) in that turn's altar phase;
    ``others``: instance turn -> the ``(memory, material)`` other players place before the
    player acts; ``materials``: the player's materials in front at the start (the rest are on
    the altar); ``first_turn``: the game turn of the instance's turn 1 (the automatic turn is
    made from game turn 4; no black cubes after game turn 12).
    """

    card: AltarCard = field(default_factory=load_altar)
    start: tuple[Memory, ...] = field(default_factory=_empty_altar)
    rotation: int = 0
    steps: Mapping[int, int] = field(default_factory=dict)
    others: Mapping[int, tuple[tuple[int, str], ...]] = field(default_factory=dict)
    materials: Mapping[str, int] = field(default_factory=lambda: {"plant": 2, "mineral": 2})
    first_turn: int = 1

    __hash__ = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if not isinstance(self.card, AltarCard):
            raise DataError(f"altar card: expected an AltarCard (load_altar), got "
                            f"{shorten(self.card)}")
        for name in ("steps", "others", "materials"):
            if not isinstance(getattr(self, name), Mapping):
                raise DataError(f"altar {name}: expected a mapping, got "
                                f"{shorten(getattr(self, name))}")
        if not isinstance(self.start, (list, tuple)) or len(self.start) != MEMORIES \
                or not all(isinstance(m, Memory) for m in self.start):
            raise DataError(f"altar start: expected {MEMORIES} memories, got "
                            f"{shorten(self.start)}")
        for i, memory in enumerate(self.start):
            problem = memory_problem(self.card, memory, i)
            if problem is None and not set(memory.owners) <= {ME, OTHERS}:
                problem = f"owners are {ME} (the player) or {OTHERS} (the others), got " \
                          f"{shorten(memory.owners)}"
            if problem is not None:
                raise DataError(f"altar start memory {_shown(i)}: {problem}")
        object.__setattr__(self, "rotation", check_index(self.rotation, MEMORIES,
                                                         "altar rotation", "a memory", DataError))
        if not is_integer(self.first_turn) or not 1 <= self.first_turn <= MONTHS:
            raise DataError(f"altar first_turn: expected a month from 1 to {MONTHS}, got "
                            f"{shorten(self.first_turn)}")
        object.__setattr__(self, "first_turn", int(self.first_turn))
        last = MONTHS - self.first_turn + 1
        for turn, step in self.steps.items():
            if isinstance(turn, bool) or not isinstance(turn, int) or not 1 <= turn <= last:
                raise DataError(f"altar steps: {shorten(turn)} is not a turn of the year "
                                f"(1 to {last})")
            if turn == 1 and step:
                raise DataError("altar steps turn 1: the dealer's step of turn 1 is part of "
                                "the altar's rotation (rotation: after turn 1's altar phase)")
            if step not in (-1, 0, 1):
                raise DataError(f"altar steps turn {turn}: a dealer's step is -1, 0 or 1, "
                                f"got {step!r}")
            if self.game_turn(turn) < ALTAR_FROM and step:
                raise DataError(f"altar steps turn {turn}: no altar phase before turn "
                                f"{ALTAR_FROM}")
        for turn, placed in self.others.items():
            if isinstance(turn, bool) or not isinstance(turn, int) or not 1 <= turn <= last:
                raise DataError(f"altar others: {shorten(turn)} is not a turn of the year "
                                f"(1 to {last})")
            if isinstance(placed, (str, bytes)) or not isinstance(placed, Iterable):
                raise DataError(f"altar others turn {turn}: expected (memory, material) pairs, "
                                f"got {shorten(placed)}")
            for pair in placed:
                if not _is_placement(pair):
                    raise DataError(f"altar others turn {turn}: bad material {shorten(pair)} "
                                    f"(a memory 0 to {MEMORIES - 1} and plant or mineral)")
        if set(self.materials) != set(MATERIALS):
            raise DataError(f"altar materials: expected plant and mineral counts (0 to 2), got "
                            f"{shorten(self.materials)}")
        for material in MATERIALS:
            check_index(self.materials[material], MATERIAL_COUNT + 1,
                        f"altar materials: {material}", "a count", DataError)
            on_altar = sum(m.owners.count(ME) for m in self.start if m.material == material)
            if self.materials[material] + on_altar > MATERIAL_COUNT:
                raise DataError(f"altar materials: {self.materials[material]} {material} in "
                                f"front and {on_altar} on the altar, where a player has "
                                f"{MATERIAL_COUNT}")

    def game_turn(self, turn: int) -> int:
        return self.first_turn + turn - 1

    def check_calendar(self, instance: Instance) -> None:
        """Raise :class:`DataError` unless the altar and ``instance`` start in the same month
        (the altar's automatic turn and the instance's festivals follow the same calendar)."""
        if self.first_turn != instance.first_turn:
            raise DataError(f"altar first_turn {self.first_turn} and instance first_turn "
                            f"{instance.first_turn} differ: the year starts in one month")

    def rotation_at(self, turn: int) -> int:
        """The altar's rotation during instance turn ``turn`` (after its altar phase).

        >>> setup = AltarSetup(steps={5: -1})
        >>> [setup.rotation_at(t) for t in (1, 3, 4, 5, 6)]
        [0, 0, 1, 1, 2]
        """
        rotation = self.rotation
        for u in range(2, turn + 1):
            rotation += int(self.game_turn(u) >= ALTAR_FROM) + self.steps.get(u, 0)
        return rotation % MEMORIES


class AltarYear:
    """The altar through a year for one player: the state the replay and the greedy plan
    share. ``memories`` and ``front`` (materials in front of the player) change as turns and
    operations are applied."""

    def __init__(self, setup: AltarSetup) -> None:
        self.setup = check_type(setup, AltarSetup, "setup", "a lemuria AltarSetup")
        self.card = setup.card
        self.memories = list(setup.start)
        self.front = dict(setup.materials)
        self.pedestal: str | None = None
        self.turn = 0
        self.op: str | None = None

    def start_turn(self, turn: int) -> None:
        """The pedestal material comes back; the others place their materials."""
        self.turn, self.op = turn, None
        if self.pedestal is not None:
            self.front[self.pedestal] += 1
            self.pedestal = None
        for memory, material in self.setup.others.get(turn, ()):
            reason = can_place(self.card, self.memories[memory], memory, material)
            if reason:
                raise IllegalMoveError(f"turn {turn}: another player's {material} cannot be "
                                       f"placed: {reason}")
            self.memories[memory] = place(self.card, self.memories[memory], memory, OTHERS,
                                          material)

    def harvestable(self) -> list[int]:
        return [i for i, m in enumerate(self.memories)
                if ME in m.owners and is_full(self.card, m, i)]

    def placements(self) -> list[Place]:
        return [Place(i, k) for i, m in enumerate(self.memories) for k in MATERIALS
                if self.front[k] > 0 and can_place(self.card, m, i, k) is None]

    def apply(self, op: MaterialOp) -> dict[str, int]:
        """Apply a material operation; returns the player's gains (a paid harvest's gold is the
        caller's to pay)."""
        if not isinstance(op, (Place, Pedestal, Harvest)):
            raise IllegalMoveError(f"not a material operation: {shorten(op)}")
        if not isinstance(op, Pedestal):
            check_index(op.memory, MEMORIES, "memory", "a memory", IllegalMoveError)
        if not isinstance(op, Harvest) and op.material not in MATERIALS:
            raise IllegalMoveError(f"{shorten(op.material)} is not a material (plant or "
                                   "mineral)")
        if isinstance(op, Harvest):
            if self.op == "place" or (self.op is None and op.paid):
                raise IllegalMoveError("only one material operation a turn; an additional "
                                       "harvest (paid) follows the turn's first harvest")
            if self.op == "harvest" and not op.paid:
                raise IllegalMoveError("each additional harvest costs 1 gold (paid=True)")
            memory = self.memories[op.memory]
            shares = harvest_shares(self.card, memory, op.memory,
                                    self.setup.rotation_at(self.turn), ME, 2)
            self.front[memory.material or "plant"] += memory.owners.count(ME)
            self.memories[op.memory] = Memory()
            self.op = "harvest"
            return {r: n for p, r, n in shares if p == ME}
        if self.op is not None:
            raise IllegalMoveError("only one material operation (place or harvest) a turn")
        if self.front.get(op.material, 0) < 1:
            raise IllegalMoveError(f"no {op.material} material in front of the player")
        if isinstance(op, Place):
            self.memories[op.memory] = place(self.card, self.memories[op.memory], op.memory, ME,
                                             op.material)
        else:
            self.pedestal = op.material
        self.front[op.material] -= 1
        self.op = "place"
        return {}

    def check_done(self) -> None:
        """The material operation is mandatory when one is possible."""
        if self.op is None and (self.harvestable() or any(self.front.values())):
            raise IllegalMoveError("the material operation is mandatory (place or harvest)")

    def end_turn(self) -> None:
        if self.setup.game_turn(self.turn) < MONTHS:
            self.memories = list(add_black_cubes(self.card, tuple(self.memories)))


@dataclass(frozen=True)
class HarvestResult(SimResult):
    """A :class:`SimResult` plus the ``income`` harvested per turn and the ``gold_paid`` for
    additional harvests per turn."""

    income: dict[int, dict[str, int]] = field(default_factory=dict)
    gold_paid: dict[int, int] = field(default_factory=dict)


def replay_harvests(instance: Instance, setup: AltarSetup,
                    schedule: Schedule | Iterable[TurnPlan]) -> HarvestResult:
    """Play a plan with material operations through the altar and the rules; the instance's
    own ``income`` is ignored (the harvests are the income). Raises
    :class:`IllegalMoveError` naming the turn and action at the first broken rule."""
    check_instance(instance)
    check_type(setup, AltarSetup, "setup", "a lemuria AltarSetup")
    setup.check_calendar(instance)
    plans = plans_by_turn(instance, schedule)
    bare = dc_replace(instance, income={})
    altar = AltarYear(setup)
    state = initial_state(bare)
    trace: list[TurnTrace] = []
    income: dict[int, dict[str, int]] = {}
    paid: dict[int, int] = {}
    for turn in range(1, instance.turns + 1):
        bonuses = start_bonuses(instance, state)
        state = begin_turn(bare, state)
        altar.start_turn(turn)
        row, start = state.row, state.resource_dict()
        actions = plans[turn].actions if turn in plans else ()
        income[turn], paid[turn] = {}, 0
        for i, action in enumerate(actions, 1):
            try:
                if isinstance(action, (Place, Pedestal, Harvest)):
                    if isinstance(action, Harvest) and action.paid:
                        if state.resources[_R["gold"]] < 1:
                            raise IllegalMoveError("an additional harvest needs 1 gold")
                        state = _gain(state, {"gold": -1})
                        paid[turn] += 1
                    gains = altar.apply(action)
                    state = _gain(state, gains)
                    for r, n in gains.items():
                        income[turn][r] = income[turn].get(r, 0) + n
                else:
                    state = apply(bare, state, action)
            except IllegalMoveError as exc:
                raise IllegalMoveError(f"turn {turn}, action {i} ({action}): {exc}"
                                       ) from None
        try:
            altar.check_done()
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"turn {turn}: {exc}") from None
        end = state.resource_dict()
        altar.end_turn()
        state = end_turn(bare, state)
        trace.append(TurnTrace(turn, bonuses, row, start, tuple(actions), end,
                               state.residents(), state.total, state.breakdown()))
    return HarvestResult(state.total, state.breakdown(), tuple(trace), state, income, paid)


def _gain(state, gains: Mapping[str, int]):
    from lumicore.lemuria.rules import replace

    resources = list(state.resources)
    for r, n in gains.items():
        resources[_R[r]] += n
    return replace(state, resources=tuple(resources))
