"""The rules of a Lemuria year for one player, as plain functions on an immutable :class:`State`.

A turn is ``begin_turn`` (district bonuses, opponents, income), any number of ``apply(action)``
and ``end_turn`` (Trend row ageing and refill, festival scoring). :func:`lumicore.lemuria.simulate`
plays a schedule through these functions; ``solvers.lemuria.exhaustive`` searches with them.
docs/lemuria.md states every rule decision taken here.

>>> from lumicore.lemuria.instance import default_instance
>>> inst = default_instance(seed=0)
>>> state = begin_turn(inst, initial_state(inst))
>>> state.turn, state.row == inst.trend, state.gold
(1, True, 3)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from lumicore.checks import check_type
from lumicore.data import shorten
from lumicore.errors import IllegalMoveError, LumicoreError
from lumicore.lemuria.cards import Building, Character
from lumicore.lemuria.instance import CAPACITY, CHITS, REMODEL_FROM, Instance, check_instance
from lumicore.lemuria.schedule import (
    COLORS,
    DISTRICTS,
    RESOURCES,
    Action,
    Build,
    Buy,
    Exchange,
    Play,
    Remodel,
)

__all__ = [
    "SOURCES",
    "TREND_BONUS",
    "CAPACITY",
    "REMODEL_FROM",
    "MAX_FACILITIES",
    "State",
    "replace",
    "initial_state",
    "begin_turn",
    "apply",
    "build_card",
    "place_chit",
    "chit_options",
    "end_turn",
    "age_row",
    "district_bonuses",
    "start_bonuses",
    "bonuses_taken",
    "allowed_reductions",
    "festival_vp",
    "festival_points",
]

SOURCES = ("buildings", "trend", "residents", "church", "festival")
"""The VP sources of a breakdown, always all five."""
TREND_BONUS = (6, 3, 1, 0, 0)
"""VP for building from Trend slot 1..5; slots 1-3 are the Upper Trend, 4-5 the Lower Trend."""
UPPER = 3
MAX_FACILITIES = CHITS
"""The most facilities a player may own: one per building chit."""
CHURCH_VP = 3

_R = {r: i for i, r in enumerate(RESOURCES)}
_D = {d: i for i, d in enumerate(DISTRICTS)}
_S = {s: i for i, s in enumerate(SOURCES)}

_SLIPS = (AttributeError, TypeError, IndexError, KeyError)
"""What a rule step given an argument of the wrong kind raises: its arguments are checked only
then (:func:`_check_args`), so that the searches' hot path runs no check."""


def _check_card_data(instance: object) -> None:
    """:class:`LumicoreError` unless ``instance`` holds the card data the rules read."""
    check_type(instance, (CardData,), "instance", "a lemuria Instance or a game's Cards")


def _check_args(**args: object) -> None:
    """:class:`LumicoreError` naming the first of a rule step's arguments that is not of its
    kind (by its name: ``instance``, ``state``, ``turn``, ...); nothing when all are."""
    for name, value in args.items():
        kind, what = _KINDS[name]
        check_type(value, kind, name, what)
        if name == "row" and not value:
            raise LumicoreError(f"row must be {what} of 1 or more slots, got {shorten(value)}")


@runtime_checkable
class CardData(Protocol):
    """What :func:`apply` reads of the card data: an :class:`Instance`, or the cards of a game
    (:class:`lumicore.lemuria.game.Cards`)."""

    @property
    def buildings(self) -> Mapping[str, Building]: ...
    @property
    def characters(self) -> Mapping[str, Character]: ...
    @property
    def remodel_from(self) -> int: ...
    @property
    def first_turn(self) -> int: ...


@dataclass(frozen=True)
class State:
    """Everything that matters about the player's year at one moment.

    ``resources`` follow ``RESOURCES`` (gold, food, stone, wood), ``chits`` and each entry of
    ``opponent_chits`` follow ``DISTRICTS``, ``vp`` follows ``SOURCES``. ``hand`` is sorted and
    ``facilities`` holds ``(building, resident or None)`` sorted by building: the order carries
    no meaning. ``built`` says a build or remodel was done this turn, ``admin`` that the
    Administrative bonus is available this turn.
    """

    turn: int
    row: tuple[str | None, ...]
    deck: tuple[str, ...]
    resources: tuple[int, ...]
    hand: tuple[str, ...]
    character_deck: tuple[str, ...]
    facilities: tuple[tuple[str, str | None], ...] = ()
    chits: tuple[int, ...] = (0, 0, 0, 0)
    opponent_chits: tuple[tuple[int, ...], ...] = ()
    built: bool = False
    admin: bool = False
    vp: tuple[int, ...] = (0, 0, 0, 0, 0)
    discount: int = 0
    """Extra reductions the next build may take (a ``discount`` skill, whole game only)."""

    @property
    def gold(self) -> int:
        return self.resources[_R["gold"]]

    @property
    def total(self) -> int:
        return sum(self.vp)

    def breakdown(self) -> dict[str, int]:
        return dict(zip(SOURCES, self.vp, strict=True))

    def resource_dict(self) -> dict[str, int]:
        return dict(zip(RESOURCES, self.resources, strict=True))

    def residents(self) -> dict[str, str | None]:
        return dict(self.facilities)

    def free_slots(self, district: str) -> int:
        d = _D[district]
        return CAPACITY[district] - self.chits[d] - sum(o[d] for o in self.opponent_chits)

    def chits_left(self) -> int:
        return CHITS - sum(self.chits)

    def __str__(self) -> str:
        """One line: turn, row, deck size, resources, hand, facilities[resident], chits, VP.

        >>> from lumicore.lemuria import Building, Instance
        >>> inst = Instance(turns=1, buildings={"A": Building("A", "red", 2, {})},
        ...                 characters={}, trend=("A", None, None, None, None), start={"gold": 1})
        >>> str(initial_state(inst))
        'turn 1 | row A - - - - | deck 0 | g1 f0 s0 w0 | hand - | - | chits - | VP 0'
        """
        row = " ".join(c or "-" for c in self.row)
        res = " ".join(f"{r[0]}{n}" for r, n in zip(RESOURCES, self.resources, strict=True))
        homes = " ".join(f"{b}[{r}]" if r else b for b, r in self.facilities) or "-"
        chits = " ".join(f"{d} {n}" for d, n in zip(DISTRICTS, self.chits, strict=True) if n)
        return (f"turn {self.turn} | row {row} | deck {len(self.deck)} | {res} | hand "
                f"{' '.join(self.hand) or '-'} | {homes} | chits {chits or '-'} | VP {self.total}")


_KINDS: dict[str, tuple[type | tuple[type, ...], str]] = {
    "instance": (Instance, "a lemuria Instance"),
    "state": (State, "a lemuria State"),
    "turn": (int, "a turn number"),
    "slot": (int, "a Trend slot number (1 to 5)"),
    "district": ((str, type(None)), "a district's name or None"),
    "row": (tuple, "a Trend row (a tuple of card ids or None)"),
    "deck": (tuple, "a tuple of card ids"),
    "housed": (list, "a list of colours"),
    "reduce": ((tuple, list), "a tuple of resource names"),
}
"""The kind of each argument of the rule steps, for :func:`_check_args`."""


def replace(state: State, **changes: object) -> State:
    """``dataclasses.replace`` for :class:`State` without re-running ``__init__`` (the search's
    hot path; every field is immutable, so sharing them is safe)."""
    try:
        new = object.__new__(State)
        new.__dict__.update(state.__dict__)
        new.__dict__.update(changes)
        return new
    except _SLIPS:  # checked only here: the searches call this millions of times
        _check_args(state=state)
        raise


def initial_state(instance: Instance) -> State:
    """The state before turn 1 starts: with the facilities and chits the player and the
    opponents already have (none by default), no VP yet."""
    check_instance(instance)
    return State(
        turn=1,
        row=instance.trend,
        deck=instance.deck,
        resources=tuple(instance.start[r] for r in RESOURCES),
        hand=tuple(sorted(instance.hand)),
        character_deck=instance.character_deck,
        facilities=tuple(sorted(instance.facilities.items())),
        chits=tuple(instance.chits.get(d, 0) for d in DISTRICTS),
        opponent_chits=tuple(tuple(o.placed.get(d, 0) for d in DISTRICTS)
                             for o in instance.opponents),
    )


def _add(amounts: tuple[int, ...], index: int, n: int) -> tuple[int, ...]:
    return amounts[:index] + (amounts[index] + n,) + amounts[index + 1:]


def district_bonuses(state: State, festival: bool) -> tuple[str, ...]:
    """Districts whose turn-start bonus the player takes: the single player with the most chits
    there (ties for most give nobody the bonus); on a festival turn, any chit there is enough."""
    try:
        out = []
        for d, district in enumerate(DISTRICTS):
            mine = state.chits[d]
            best_other = max((o[d] for o in state.opponent_chits), default=0)
            if mine >= 1 and (festival or mine > best_other):
                out.append(district)
        return tuple(out)
    except _SLIPS:  # checked only here: the searches call this millions of times
        _check_args(state=state)
        raise


def bonuses_taken(instance: Instance, turn: int) -> bool:
    """Whether the district bonuses of ``turn`` were taken before the year (turn 1 with
    ``instance.first_bonuses``): they give no resources or VP in it."""
    try:
        return turn == 1 and instance.first_bonuses is not None
    except _SLIPS:  # checked only here: the searches call this millions of times
        _check_args(instance=instance)
        raise


def start_bonuses(instance: Instance, state: State) -> tuple[str, ...]:
    """The district bonuses of the start of ``state.turn`` (``state`` before the turn
    starts): :func:`district_bonuses`, or ``instance.first_bonuses`` in turn 1 when given."""
    try:
        if bonuses_taken(instance, state.turn):
            return instance.first_bonuses  # type: ignore[return-value]
        return district_bonuses(state, state.turn in instance.festivals)
    except _SLIPS:  # checked only here: the searches call this millions of times
        _check_args(instance=instance, state=state)
        raise


def begin_turn(instance: Instance, state: State) -> State:
    """Turn start (district bonuses from chits placed in earlier turns, :func:`start_bonuses`;
    nothing but the Administrative bonus when they were taken before the year), then the
    opponents' actions (their Trend card taken if still in the row, their chit placed if a
    slot is free), then the turn's income."""
    try:
        turn = state.turn
        bonuses = start_bonuses(instance, state)
        resources, vp = state.resources, state.vp
        if not bonuses_taken(instance, turn):
            if "rural" in bonuses:
                resources = _add(resources, _R["food"], 1)
            if "commerce" in bonuses:
                resources = _add(resources, _R["gold"], 1)
            if "church" in bonuses:
                vp = _add(vp, _S["church"], CHURCH_VP)
        state = replace(state, resources=resources, vp=vp, built=False,
                        admin="administrative" in bonuses)
        for i, opponent in enumerate(instance.opponents):
            card = opponent.builds.get(turn)
            if card is not None and card in state.row:
                state = replace(state, row=_take(state.row, card))
            district = opponent.chits.get(turn)
            if district is not None and state.free_slots(district) > 0:
                chits = list(state.opponent_chits)
                chits[i] = _add(chits[i], _D[district], 1)
                state = replace(state, opponent_chits=tuple(chits))
        for resource, amount in instance.income[turn].items():
            state = replace(state, resources=_add(state.resources, _R[resource], amount))
        return state
    except _SLIPS:  # checked only here: the searches call this millions of times
        _check_args(instance=instance, state=state)
        raise


def _take(row: tuple[str | None, ...], card: str) -> tuple[str | None, ...]:
    """The row with ``card``'s slot emptied (the other cards keep their slots until the end of
    the turn)."""
    return tuple(None if c == card else c for c in row)


def allowed_reductions(state: State, slot: int, remodel_color: str | None = None,
                       card_color: str | None = None) -> int:
    """How many 1-resource reductions a build from ``slot`` (1-based) may take: one in the Lower
    Trend, one in the Upper Trend with the Administrative bonus; a remodel adds one, and one more
    when the discarded facility (``remodel_color``) has the new card's colour."""
    try:
        n = (1 if slot > UPPER else int(state.admin)) + state.discount
        if remodel_color is not None:
            n += 1 + int(remodel_color == card_color)
        return n
    except _SLIPS:  # checked only here: the searches call this millions of times
        _check_args(state=state, slot=slot)
        raise


def _reduced_cost(card: Building, reduce: Iterable[str], allowed: int) -> dict[str, int]:
    reduce = tuple(reduce)
    if len(reduce) > allowed:
        raise IllegalMoveError(f"{len(reduce)} reductions, only {allowed} allowed for {card.id} "
                               f"(reduce {shorten(reduce)})")
    cost = dict(card.cost)
    for resource in reduce:
        if not isinstance(resource, str) or resource not in _R:
            raise IllegalMoveError(f"unknown resource {shorten(resource)} in reduce")
        if cost.get(resource, 0) <= 0:
            raise IllegalMoveError(f"cannot reduce {resource} of {card.id} below 0")
        cost[resource] -= 1
    return cost


def _pay(state: State, cost: dict[str, int], what: str) -> State:
    resources = list(state.resources)
    for resource, amount in cost.items():
        have = resources[_R[resource]]
        if amount > have:
            raise IllegalMoveError(f"{what} needs {amount} {resource}, the player has {have}")
        resources[_R[resource]] = have - amount
    return replace(state, resources=tuple(resources))


def _build_from_row(instance: CardData, state: State, card_id: str, reduce: tuple[str, ...],
                    discarded: Building | None) -> State:
    """Take ``card_id`` from the row, pay its reduced cost, score its VP and trend bonus."""
    if card_id is None or card_id not in state.row:
        raise IllegalMoveError(f"card {card_id} is not in the Trend row {_row_text(state.row)}")
    slot = state.row.index(card_id) + 1
    card = instance.buildings[card_id]
    allowed = allowed_reductions(state, slot, discarded.color if discarded else None, card.color)
    state = _pay(state, _reduced_cost(card, reduce, allowed), f"building {card_id}")
    vp = _add(_add(state.vp, _S["buildings"], card.vp), _S["trend"], TREND_BONUS[slot - 1])
    facilities = tuple(sorted(state.facilities + ((card_id, None),)))
    # the Administrative bonus is for one Upper Trend card: a Lower Trend build leaves it for
    # a second build of the turn (an ``extra build`` skill, whole game only)
    return replace(state, row=_take(state.row, card_id), facilities=facilities, vp=vp,
                   built=True, admin=state.admin and slot > UPPER, discount=0)


def _row_text(row: tuple[str | None, ...]) -> str:
    return "[" + " ".join(c or "-" for c in row) + "]"


def place_chit(state: State, district: str | None) -> State:
    """Place the new facility's chit in ``district``; None only when no chit is left or no
    district has a free slot."""
    try:
        free = [d for d in DISTRICTS if state.free_slots(d) > 0]
        if district is None:
            if state.chits_left() > 0 and free:
                raise IllegalMoveError(
                    f"the new chit must be placed (free slots in {', '.join(free)})")
            return state
        if district not in _D:
            raise IllegalMoveError(f"unknown district {district!r} (one of {', '.join(DISTRICTS)})")
        if state.chits_left() == 0:
            raise IllegalMoveError("no building chit left to place")
        if district not in free:
            raise IllegalMoveError(f"the {district} district has no free slot")
        return replace(state, chits=_add(state.chits, _D[district], 1))
    except _SLIPS:  # checked only here: the searches call this millions of times
        _check_args(state=state, district=district)
        raise


def build_card(instance: CardData, state: State, card: str, reduce: tuple[str, ...] = ()
               ) -> State:
    """A build without its chit (:func:`place_chit` follows): one per turn, at most 8
    facilities, the card from the row at its reduced cost, VP and trend bonus scored."""
    try:
        if state.built:
            raise IllegalMoveError("only one build or remodel per turn")
        if len(state.facilities) >= MAX_FACILITIES:
            raise IllegalMoveError(f"the player already has {MAX_FACILITIES} facilities")
        return _build_from_row(instance, state, card, tuple(reduce), None)
    except _SLIPS:
        _check_card_data(instance)
        _check_args(state=state, reduce=reduce)
        raise


def chit_options(state: State) -> list[str | None]:
    """The legal districts for a new chit: every district with a free slot, or [None]."""
    try:
        free: list[str | None] = [d for d in DISTRICTS if state.free_slots(d) > 0]
        return free if free and state.chits_left() > 0 else [None]
    except _SLIPS:  # checked only here: the searches call this millions of times
        _check_args(state=state)
        raise


def _build(instance: CardData, state: State, action: Build) -> State:
    return place_chit(build_card(instance, state, action.card, action.reduce), action.district)


def _remodel(instance: CardData, state: State, action: Remodel) -> State:
    if state.turn < instance.remodel_from:
        raise IllegalMoveError(f"remodelling is allowed from turn {instance.remodel_from} only"
                               + (f" (month {REMODEL_FROM})" if instance.first_turn > 1 else ""))
    if state.built:
        raise IllegalMoveError("only one build or remodel per turn")
    residents = state.residents()
    if action.discard not in residents:
        raise IllegalMoveError(f"{action.discard} is not one of the player's facilities")
    if action.card is None or action.card not in state.row:  # before the discard
        raise IllegalMoveError(f"card {action.card} is not in the Trend row "
                               f"{_row_text(state.row)}")
    resident = residents.pop(action.discard)
    state = replace(
        state,
        facilities=tuple(sorted(residents.items())),
        deck=state.deck + (action.discard,),
        character_deck=state.character_deck + ((resident,) if resident else ()),
    )
    discarded = instance.buildings[action.discard]
    return _build_from_row(instance, state, action.card, tuple(action.reduce), discarded)


def _play(instance: CardData, state: State, action: Play) -> State:
    if action.character not in state.hand:
        raise IllegalMoveError(f"{action.character} is not in the hand")
    character = instance.characters[action.character]
    residents = state.residents()
    if action.house_in is not None:
        if action.house_in not in residents:
            raise IllegalMoveError(f"{action.house_in} is not one of the player's facilities")
        if residents[action.house_in] is not None:
            raise IllegalMoveError(
                f"{action.house_in} already houses {residents[action.house_in]}")
    state = _pay(state, {"food": character.food}, f"playing {character.id}")
    hand = _remove(state.hand, character.id)
    if action.house_in is None:
        return replace(state, hand=hand, character_deck=state.character_deck + (character.id,))
    residents[action.house_in] = character.id
    match = instance.buildings[action.house_in].color == character.color
    vp = _add(state.vp, _S["residents"], character.vp_match if match else character.vp)
    return replace(state, hand=hand, facilities=tuple(sorted(residents.items())), vp=vp)


def _remove(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1:]


def _draw(state: State) -> State:
    if not state.character_deck:
        raise IllegalMoveError("the character deck is empty")
    top, *rest = state.character_deck
    return replace(state, hand=tuple(sorted(state.hand + (top,))), character_deck=tuple(rest))


def _buy(state: State) -> State:
    if not state.character_deck:
        raise IllegalMoveError("the character deck is empty")
    state = _pay(state, {"gold": len(state.hand)}, "buying a character")
    return _draw(state)


def _exchange(state: State, action: Exchange) -> State:
    if not state.character_deck:
        raise IllegalMoveError("the character deck is empty")
    state = _draw(_pay(state, {"gold": 2}, "exchanging a character"))
    if action.give_back not in state.hand:
        raise IllegalMoveError(f"{action.give_back} is not in the hand to give back")
    return replace(state, hand=_remove(state.hand, action.give_back),
                   character_deck=state.character_deck + (action.give_back,))


def apply(instance: CardData, state: State, action: Action) -> State:
    """The state after the player's ``action``; :class:`IllegalMoveError` if it breaks a rule."""
    try:
        if isinstance(action, Build):
            return _build(instance, state, action)
        if isinstance(action, Remodel):
            return _remodel(instance, state, action)
        if isinstance(action, Play):
            return _play(instance, state, action)
        if isinstance(action, Buy):
            return _buy(state)
        if isinstance(action, Exchange):
            return _exchange(state, action)
    except _SLIPS:  # checked only here: the searches call this millions of times
        _check_card_data(instance)
        _check_args(state=state)
        raise
    raise IllegalMoveError(f"not a Lemuria action: {shorten(action)}")


def age_row(row: tuple[str | None, ...], deck: tuple[str, ...]
            ) -> tuple[tuple[str | None, ...], tuple[str, ...]]:
    """End-of-turn Trend refill: the slot-5 card (if any) goes to the bottom of the deck; the
    remaining cards slide right, closing every gap (they keep their order and end up in the
    rightmost slots); then cards are drawn from the top of the deck one at a time into the empty
    slots from the right: the first drawn goes to the rightmost empty slot.

    >>> age_row(("A", None, "C", "D", "E"), ("F", "G", "H"))
    (('G', 'F', 'A', 'C', 'D'), ('H', 'E'))
    >>> age_row(("A", "B", None, None, None), ())
    ((None, None, None, 'A', 'B'), ())
    """
    try:
        deck = deck + ((row[-1],) if row[-1] is not None else ())
        remaining = tuple(c for c in row[:-1] if c is not None)
        empty = len(row) - len(remaining)
        drawn, deck = deck[:empty], deck[empty:]
        return (None,) * (empty - len(drawn)) + tuple(reversed(drawn)) + remaining, deck
    except _SLIPS:  # checked only here: the searches call this millions of times
        _check_args(row=row, deck=deck)
        raise


def festival_vp(instance: Instance, state: State, turn: int) -> int:
    """Festival scoring: per colour, the player's housed facilities of that colour score 3 VP each
    when strictly more than every opponent's residents of that colour at this festival, otherwise
    (second place or a tie for most) 1 VP each."""
    try:
        housed = [instance.buildings[b].color for b, resident in state.facilities if resident]
        return festival_points(instance, housed, turn)
    except _SLIPS:  # checked only here: the searches call this millions of times
        _check_args(instance=instance, state=state, turn=turn)
        raise


def festival_points(instance: Instance, housed: list[str], turn: int) -> int:
    """Festival VP at ``turn`` of housed facilities of the colours ``housed`` (one entry each)."""
    try:
        vp = 0
        for color in COLORS:
            mine = housed.count(color)
            others = max((o.residents.get(turn, {}).get(color, 0) for o in instance.opponents),
                         default=0)
            vp += 3 * mine if mine > others else mine
        return vp
    except _SLIPS:  # checked only here: the searches call this millions of times
        _check_args(instance=instance, housed=housed, turn=turn)
        raise


def end_turn(instance: Instance, state: State) -> State:
    """Trend ageing and refill (not after the instance's last turn), then festival scoring on
    the instance's festival turns (months 4, 8 and 12); the returned state is before the next
    turn's start."""
    try:
        row, deck, vp = state.row, state.deck, state.vp
        if state.turn < instance.turns:
            row, deck = age_row(row, deck)
        if state.turn in instance.festivals:
            vp = _add(vp, _S["festival"], festival_vp(instance, state, state.turn))
        return replace(state, turn=state.turn + 1, row=row, deck=deck, vp=vp, built=False,
                       admin=False)
    except _SLIPS:  # checked only here: the searches call this millions of times
        _check_args(instance=instance, state=state)
        raise
