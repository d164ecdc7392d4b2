"""Exhaustive planner for tiny Lemuria instances: the oracle the CP-SAT scheduler is tested against.

It searches every legal year through the rules code of :mod:`lumicore.lemuria.rules` (nothing of
the CP-SAT model) and returns the best VP with a schedule that :func:`lumicore.lemuria.simulate`
scores at the same total.

Why the search is complete (no optimal value is lost):

* Within a turn it enumerates every state reachable by any sequence of the player's actions
  (build or remodel, plays housed anywhere or not housed, buys, exchanges giving back any card),
  in any order, and lets the turn end in each of them. Two sequences that reach the same state
  (e.g. two plays in either order) are merged, which loses nothing since the future depends on
  the state only. Resources never grow during a turn, so sequences are finite except for cycles
  of free actions (a free buy into an empty hand, a 0-food play not housed); merging equal states
  cuts those cycles.
* Between turns it memoises the best future VP of each state (its VP so far left out), which is
  exact dynamic programming since a state determines everything that can still happen.
* The only actions it leaves out are builds and remodels that use fewer resource reductions than
  allowed (capped by what the card costs). Such a build reaches a state that differs from the
  fully reduced one only by holding fewer resources, and no rule ever prefers fewer resources:
  every action that is legal with less is legal with more and has the same effect.

It is exponential: meant for 3-5 turns and a handful of cards, with ``max_nodes`` and
``time_limit`` (a node is one state expanded within a turn).

>>> from lumicore.lemuria import Instance, Building, Character
>>> inst = Instance(turns=2, buildings={"A": Building("A", "red", 2, {"stone": 1}),
...                                     "B": Building("B", "blue", 4, {"stone": 2})},
...                 characters={}, trend=("A", None, None, None, "B"), start={"stone": 2})
>>> result = exhaustive_best(inst)
>>> result.vp, result.status
(15, 'optimal')
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass, field

from lumicore.checks import check_type
from lumicore.errors import IllegalMoveError
from lumicore.lemuria.instance import Instance, check_instance
from lumicore.lemuria.rules import (
    _SLIPS,
    MAX_FACILITIES,
    SOURCES,
    TREND_BONUS,
    State,
    allowed_reductions,
    apply,
    begin_turn,
    bonuses_taken,
    build_card,
    chit_options,
    end_turn,
    initial_state,
    place_chit,
    replace,
    start_bonuses,
)
from lumicore.lemuria.schedule import (
    RESOURCES,
    Action,
    Build,
    Buy,
    Exchange,
    Play,
    Remodel,
    Schedule,
    TurnPlan,
)
from lumicore.lemuria.simulate import simulate
from solvers.ctrl_c import noting
from solvers.limits import INTERRUPTED, LIMIT, OPTIMAL, REASON_INTERRUPTED, Budget

__all__ = ["ExhaustiveResult", "exhaustive_best", "turn_actions", "upper_bound"]

_NO_VP = (0,) * len(SOURCES)


@dataclass
class ExhaustiveResult:
    """Best VP found, its schedule (replayable by ``simulate``), ``status`` ``"optimal"`` (the
    whole space was searched), ``"limit"`` (cut off: the best schedule found so far) or
    ``"interrupted"`` (Ctrl-C: the best schedule found so far, ``reason`` ``"interrupted"``),
    the nodes expanded and the seconds spent."""

    vp: int
    schedule: Schedule
    status: str
    nodes: int = 0
    elapsed: float = 0.0
    breakdown: dict[str, int] = field(default_factory=dict)
    reason: str | None = None


class _Cutoff(Exception):
    pass


def _reduction_choices(cost: dict[str, int], allowed: int) -> list[tuple[str, ...]]:
    """Every multiset of ``min(allowed, total cost)`` reductions the cost can absorb."""
    units = [r for r, n in sorted(cost.items()) for _ in range(n)]
    k = min(allowed, len(units))
    return sorted(set(itertools.combinations(units, k)))


def _build_actions(instance: Instance, state: State) -> Iterator[Action]:
    if state.built:
        return
    if len(state.facilities) < MAX_FACILITIES:
        for slot, card_id in enumerate(state.row, 1):
            if card_id is None:
                continue
            cost = instance.buildings[card_id].cost
            for reduce in _reduction_choices(cost, allowed_reductions(state, slot)):
                yield Build(card_id, None, reduce)  # the chit's district is chosen at turn end
    if state.turn >= instance.remodel_from:
        for discard, _ in state.facilities:
            color = instance.buildings[discard].color
            for slot, card_id in enumerate(state.row, 1):
                if card_id is None:
                    continue
                card = instance.buildings[card_id]
                allowed = allowed_reductions(state, slot, color, card.color)
                for reduce in _reduction_choices(card.cost, allowed):
                    yield Remodel(discard, card_id, reduce)


def turn_actions(instance: Instance, state: State) -> Iterator[Action]:
    """The player's candidate actions in ``state`` (mid-turn): every legal action except builds
    that waste an allowed reduction. Some may still be illegal (too few resources). A build's
    chit district is left open (``None``): :func:`_with_chits` chooses it when the turn ends."""
    yield from _build_actions(instance, state)
    empty = [b for b, resident in state.facilities if resident is None]
    food, gold = state.resource_dict()["food"], state.gold
    for character in state.hand:
        if instance.characters[character].food <= food:
            for house in [*empty, None]:
                yield Play(character, house)
    if state.character_deck:
        if gold >= len(state.hand):
            yield Buy()
        if gold >= 2:
            for give_back in sorted(set(state.hand) | {state.character_deck[0]}):
                yield Exchange(give_back)


def _turn_endings(instance: Instance, start: State, budget: Budget
                  ) -> dict[State, tuple[Action, ...]]:
    """Every state reachable within the turn from ``start``, with one action sequence to it,
    except states dominated by one already reached (equal but for holding no more resources and
    no more VP): whatever follows a dominated state also follows the dominating one."""
    paths: dict[State, tuple[Action, ...]] = {start: ()}
    reached: dict[State, list[State]] = {}
    stack = [start]
    while stack:
        state = stack.pop()
        if not budget.spend():
            raise _Cutoff
        for action in turn_actions(instance, state):
            try:
                nxt = (build_card(instance, state, action.card, action.reduce)
                       if isinstance(action, Build) else apply(instance, state, action))
            except IllegalMoveError:
                continue
            if nxt in paths:
                continue
            group = reached.setdefault(replace(nxt, resources=(), vp=()), [])
            if any(_dominates(other, nxt) for other in group):
                continue
            group.append(nxt)
            paths[nxt] = paths[state] + (action,)
            stack.append(nxt)
    return paths


def _dominates(a: State, b: State) -> bool:
    """``a`` has at least ``b``'s VP and at least as much of every resource (the rest equal)."""
    return a.total >= b.total and all(
        x >= y for x, y in zip(a.resources, b.resources, strict=True))


def _with_chits(state: State, actions: tuple[Action, ...], last_turn: bool
                ) -> Iterator[tuple[State, tuple[Action, ...]]]:
    """The turn's ending with the chit of its build (if any) placed in each legal district.

    Nothing else in a turn depends on the chit, so choosing it last loses nothing; on the last
    turn one district stands for all, since chits pay only at the start of later turns."""
    builds = [i for i, a in enumerate(actions) if isinstance(a, Build)]
    if not builds:
        yield state, actions
        return
    i = builds[0]
    build = actions[i]
    assert isinstance(build, Build)
    options = chit_options(state)
    for district in options[:1] if last_turn else options:
        placed = Build(build.card, district, build.reduce)
        yield place_chit(state, district), actions[:i] + (placed,) + actions[i + 1:]


def _undominated(endings: dict[State, tuple[Action, ...]]) -> dict[State, tuple[Action, ...]]:
    """Drop every ending that another ending beats on resources (each at least as many) and VP
    while equal in everything else: more resources never hurt, so nothing optimal is lost."""
    groups: dict[State, list[State]] = {}
    for state in endings:
        groups.setdefault(replace(state, resources=(), vp=()), []).append(state)
    kept = {}
    for group in groups.values():
        group.sort(key=lambda s: (-s.total, tuple(-r for r in s.resources)))
        front: list[State] = []
        for state in group:
            if not any(_dominates(f, state) for f in front):
                front.append(state)
                kept[state] = endings[state]
    return kept


def upper_bound(instance: Instance, state: State) -> int:
    """An optimistic bound on the VP still to gain from ``state`` (before its turn starts).

    Builds: at most one per turn, each worth at most its VP plus the trend bonus (6 in later
    turns, since cards enter the row at the left), paid from at most every resource unit the
    player has or can still receive, each card's cost lowered by the most reductions it could get
    (and, when remodels are possible, each card as often as there are turns); on the last turn,
    exactly the affordable cards of the row at their slot's bonus. Residents: at most one per
    facility without resident and per remaining build, each worth at most the best VP a card
    prints (``vp`` or ``vp_match``: a card file may print a lower ``vp_match``).
    Church: this turn's bonus exactly, 3 VP for each later turn. Festivals: 3 VP per facility
    that can be housed by then.
    """
    try:
        t, last = state.turn, instance.turns
        turns_left = last - t + 1
        if turns_left <= 0:
            return 0
        bonuses = start_bonuses(instance, state)
        taken = bonuses_taken(instance, t)  # before the year: only the Administrative one acts
        now = dict(zip(RESOURCES, state.resources, strict=True))
        for resource, amount in instance.income[t].items():
            now[resource] += amount
        now["food"] += "rural" in bonuses and not taken
        now["gold"] += "commerce" in bonuses and not taken
        if turns_left == 1:
            build_vp, builds = _last_build_bound(instance, state, now, "administrative" in bonuses)
        else:
            later = 2 * (turns_left - 1) + sum(
                sum(instance.income[u].values()) for u in range(t + 1, last + 1))
            build_vp, builds = _build_bound(instance, state, sum(now.values()) + later)
        church_vp = 3 * ("church" in bonuses and not taken) + 3 * (turns_left - 1)
        return build_vp + _resident_bound(instance, state, builds) + church_vp
    except _SLIPS:  # checked only here: every node
        check_instance(instance)
        check_type(state, State, "state", "a lemuria State")
        raise


def _remodel_possible(instance: Instance) -> bool:
    return instance.turns >= instance.remodel_from


def _last_build_bound(instance: Instance, state: State, have: dict[str, int], admin: bool
                      ) -> tuple[int, int]:
    """Best VP of one build on the last turn from the row as it stands, and 1 (or 0 builds)."""
    taken = {o.builds.get(state.turn) for o in instance.opponents}
    remodel = state.turn >= instance.remodel_from and bool(state.facilities)
    if len(state.facilities) >= MAX_FACILITIES and not remodel:
        return 0, 0
    best = 0
    for slot, card_id in enumerate(state.row):
        if card_id is None or card_id in taken:
            continue
        card = instance.buildings[card_id]
        allowed = (1 if slot >= 3 else int(admin)) + (2 if remodel else 0)
        short = sum(max(0, n - have[r]) for r, n in card.cost.items())
        if short <= allowed:
            best = max(best, card.vp + TREND_BONUS[slot])
    return best, 1


def _build_bound(instance: Instance, state: State, units: int) -> tuple[int, int]:
    """Bound on the VP of the remaining builds, and how many builds there can be at most."""
    turns_left = instance.turns - state.turn + 1
    remodel = _remodel_possible(instance)
    most_reductions = 3 if remodel else 1
    cards = [c for c in state.row if c] + list(state.deck)
    if remodel:
        cards += [b for b, _ in state.facilities]
    offers = [(instance.buildings[c].vp + TREND_BONUS[0],
               max(0, instance.buildings[c].total_cost - most_reductions)) for c in cards]
    builds = turns_left if remodel else min(turns_left, MAX_FACILITIES - len(state.facilities))
    if remodel:  # a remodelled facility returns to the deck and may be built again
        offers *= builds
    offers.sort(reverse=True)
    by_count = sum(v for v, _ in offers[:builds])
    # the fractional knapsack summed in integers (floats lost a VP: 23 * (39 / 69) is
    # 12.999...); its order by the float ratio is exact: two ratios of VP (at most 106) to
    # costs (at most 4 * 525) differ by far more than a float's rounding
    by_units, room = 0, units
    for value, need in sorted(offers, key=lambda o: -o[0] / o[1] if o[1] else -math.inf):
        if need > room:
            by_units += value * room // need
            break
        by_units += value
        room -= need
    return min(by_count, by_units), builds


def _resident_bound(instance: Instance, state: State, builds: int) -> int:
    """Bound on resident VP and festival VP still to come."""
    t = state.turn
    remodel = _remodel_possible(instance)
    characters = [*state.hand, *state.character_deck]
    if remodel:
        characters += [r for _, r in state.facilities if r]
    housed = sum(1 for _, r in state.facilities if r)
    empty = len(state.facilities) - housed
    cards = instance.characters
    values = sorted((max(cards[c].vp, cards[c].vp_match) for c in characters), reverse=True)
    homes = empty + builds
    if remodel:
        resident_vp = homes * (values[0] if values else 0)
    else:
        resident_vp = sum(values[:homes])
    festival_vp = 0
    for f in instance.festivals:
        if t <= f:
            can_house = min(MAX_FACILITIES, housed + empty + min(builds, f - t + 1),
                            MAX_FACILITIES if remodel else housed + len(characters))
            festival_vp += 3 * can_house
    return resident_vp + festival_vp


class _Search:
    """Depth-first branch and bound over turns with memoised exact values of states.

    ``best_vp``/``best_plans`` is the best complete year seen; a subtree is cut when its prefix
    VP plus :func:`upper_bound` (or the value of a solved state that differs only by holding at
    least as many resources) cannot beat it. A state's value is memoised as exact only when no
    child of it was cut below the value found; otherwise its bound is kept to cut it sooner.
    """

    def __init__(self, instance: Instance, budget: Budget):
        self.instance = instance
        self.budget = budget
        self.exact: dict[State, tuple[int, tuple[TurnPlan, ...]]] = {}
        self.bound: dict[State, int] = {}
        self.by_rest: dict[State, list[tuple[tuple[int, ...], int]]] = {}
        self.best_vp = -1
        self.best_plans: tuple[TurnPlan, ...] = ()

    def _record(self, vp: int, plans: tuple[TurnPlan, ...]) -> None:
        if vp > self.best_vp:
            self.best_vp, self.best_plans = vp, plans

    def _richer_value(self, key: State) -> int | float:
        """The least exact value of a solved state equal to ``key`` but with at least its
        resources: more resources never hurt, so it bounds ``key``'s value."""
        values = [value for resources, value in self.by_rest.get(replace(key, resources=()), ())
                  if all(a >= b for a, b in zip(resources, key.resources, strict=True))]
        return min(values, default=float("inf"))

    def future(self, state: State, prefix_vp: int, prefix: tuple[TurnPlan, ...]
               ) -> tuple[int, tuple[TurnPlan, ...], bool]:
        """``(value, plans, exact)``: the best VP still to gain from ``state`` (before its turn
        starts) with its plans when ``exact``, else only an upper bound on it."""
        if state.turn > self.instance.turns:
            self._record(prefix_vp, prefix)
            return 0, (), True
        key = replace(state, vp=_NO_VP)
        if key in self.exact:
            gain, plans = self.exact[key]
            self._record(prefix_vp + gain, prefix + plans)
            return gain, plans, True
        bound = self.bound.get(key)
        if bound is None:  # the rule's bound is finite, so the least of the two is an int
            bound = int(min(upper_bound(self.instance, state), self._richer_value(key)))
        if prefix_vp + bound <= self.best_vp:
            return bound, (), False
        started = begin_turn(self.instance, state)
        endings = []
        last_turn = state.turn == self.instance.turns
        for mid, path in _undominated(_turn_endings(self.instance, started,
                                                    self.budget)).items():
            for placed, actions in _with_chits(mid, path, last_turn):
                after = end_turn(self.instance, placed)
                endings.append((after.total - state.total, after, TurnPlan(state.turn, actions)))
        endings.sort(key=lambda e: -e[0])
        best_plans: tuple[TurnPlan, ...] = ()
        best, cut = -1, -1
        for gain, after, plan in endings:
            rest, plans, exact = self.future(after, prefix_vp + gain, prefix + (plan,))
            if not exact:
                cut = max(cut, gain + rest)
            elif gain + rest > best:
                best, best_plans = gain + rest, (plan, *plans)
        if best >= cut:
            self.exact[key] = (best, best_plans)
            self.by_rest.setdefault(replace(key, resources=()), []).append(
                (key.resources, best))
            return best, best_plans, True
        self.bound[key] = cut
        return cut, (), False


@noting()
def exhaustive_best(instance: Instance, max_nodes: int | None = 2_000_000,
                    time_limit: float | None = 60.0) -> ExhaustiveResult:
    """The best year of ``instance`` by exhaustive search (see the module docstring).

    ``status`` is ``"optimal"`` when the search finished, ``"limit"`` when ``max_nodes`` or
    ``time_limit`` (seconds) stopped it (``reason`` ``"nodes"`` or ``"time"``), ``"interrupted"``
    when Ctrl-C did; then ``vp``/``schedule`` are the best found so far.
    """
    budget = Budget(max_nodes, time_limit, check_every=256)
    search = _Search(instance, budget)
    reason = None
    try:
        search.future(initial_state(instance), 0, ())
        status = OPTIMAL
    except _Cutoff:
        status, reason = LIMIT, budget.reason
    except KeyboardInterrupt:
        status, reason = INTERRUPTED, REASON_INTERRUPTED
    vp, plans = max(search.best_vp, 0), search.best_plans
    schedule = Schedule(turns=list(plans), vp=vp, status=status, elapsed=budget.elapsed)
    schedule.reason = reason
    if status == OPTIMAL:
        schedule.mark_optimal()
    schedule.breakdown = simulate(instance, schedule).breakdown
    return ExhaustiveResult(vp, schedule, status, budget.nodes, budget.elapsed,
                            dict(schedule.breakdown), reason)
