"""The best character moves for a fixed building plan: a dynamic program over the year.

CP-SAT is weak on the character side of a Lemuria year (which cards to draw, when, which to
play where): with every build of a good year fixed, it often neither finds better character moves
nor proves there are none within minutes. Once the builds are fixed, though, everything else the
character moves depend on is fixed too: the gold and food each turn brings (income, Rural and
Commerce bonuses: the chits are the builds'), what each build costs, which facilities stand in
which turn. What is left is small enough for a dynamic program over the turns whose state is

* the position in the character deck and the cards sent to its bottom (in order),
* the hand (a set of cards),
* which facilities are empty (and who lives in a facility that a later remodel discards: that
  card goes back to the deck's bottom),
* the gold and food held, and the VP so far.

Within a turn every sequence of plays, buys, exchanges and the turn's fixed build is followed
(states reached twice are merged); states equal but for gold, food and VP keep only the
undominated ones (more of each is never worse: every move legal with less is legal with more).
So without truncation the result is the best year among those with these builds, exactly as the
rules (``lumicore.lemuria.rules``) play them, and the returned schedule replays through
:func:`lumicore.lemuria.simulate` at its VP.

When a turn ends with more than ``max_states`` states, the best ``max_states`` are kept (by VP,
then resources and hand), the search goes on as a beam and the result is ``"limit"``.

>>> from lumicore.lemuria import default_instance
>>> from solvers.lemuria.greedy import greedy_schedule
>>> inst = default_instance(seed=1, turns=4)
>>> plan = best_characters(inst, greedy_schedule(inst))
>>> plan.status, plan.vp >= simulate(inst, greedy_schedule(inst)).total
('optimal', True)
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from lumicore.checks import check_int, check_type
from lumicore.data import plural
from lumicore.errors import IllegalMoveError
from lumicore.lemuria.instance import Instance, check_instance
from lumicore.lemuria.rules import festival_points
from lumicore.lemuria.schedule import (
    Action,
    Buy,
    Exchange,
    Play,
    Remodel,
    Schedule,
    TurnPlan,
)
from lumicore.lemuria.simulate import plans_by_turn, simulate
from solvers.ctrl_c import check, noting
from solvers.limits import (
    INTERRUPTED,
    LIMIT,
    OPTIMAL,
    REASON_INTERRUPTED,
    REASON_NODES,
    REASON_TIME,
    check_limits,
)

__all__ = ["CharacterPlan", "best_characters", "freer_reductions", "MAX_STATES"]

MAX_STATES = 20_000
"""States kept at the end of a turn before the search becomes a beam."""

_EMPTY = -1
_HOUSED = -2  # a resident nothing will send back: who it is no longer matters


@dataclass
class CharacterPlan:
    """The best year found with a plan's builds: ``schedule`` (a :class:`Schedule` with ``vp``
    and ``breakdown``), ``status`` ``"optimal"`` (best among the years with these builds) or
    ``"limit"`` (a turn kept only its best ``max_states`` states, or a limit stopped it:
    ``reason``), the states expanded (``nodes``), the most states held at a turn's end and the
    seconds spent."""

    schedule: Schedule
    status: str
    nodes: int = 0
    widest: int = 0
    elapsed: float = 0.0
    reason: str | None = None
    vp: int = field(init=False)

    def __post_init__(self) -> None:
        check_type(self.schedule, Schedule, "schedule", "a lemuria Schedule")
        self.vp = self.schedule.vp

    def __str__(self) -> str:
        """The VP, the status and the search's figures, then a line per turn."""
        reason = f" ({self.reason})" if self.reason else ""
        head = (f"{self.vp} VP, {self.status}{reason}: {plural(self.nodes, 'state')} expanded, "
                f"at most {self.widest} at a turn's end, {self.elapsed:.1f} s")
        return "\n".join([head, *map(str, self.schedule.turns)])


@dataclass(frozen=True)
class _Facility:
    building: str
    color: str
    built: int
    discarded: int | None  # the turn a remodel discards it


class _Frame:
    """What the fixed builds decide: per turn the gold and food gained, the build and its gold
    and food price, and the facilities standing before and after it."""

    def __init__(self, instance: Instance, schedule: Schedule | list[TurnPlan]) -> None:
        self.given = result = simulate(instance, schedule)
        plans = {p.turn: p for p in (schedule.turns if isinstance(schedule, Schedule)
                                     else schedule)}
        self.turns = instance.turns
        self.festivals = instance.festivals
        self.instance = instance
        self.build: dict[int, tuple[Action, int, int, int, int | None]] = {}
        self.facilities: list[_Facility] = []
        standing: dict[str, int] = {}
        held = {"gold": instance.start["gold"], "food": instance.start["food"]}
        self.inflow: dict[int, tuple[int, int]] = {}
        for trace in result.trace:
            t = trace.turn
            self.inflow[t] = (trace.resources_start["gold"] - held["gold"],
                              trace.resources_start["food"] - held["food"])
            held = trace.resources_end
            plan = plans.get(t)
            action = plan.build_action() if plan else None
            if action is None:
                continue
            card = instance.buildings[action.card]
            cost = dict(card.cost)
            for r in action.reduce:
                cost[r] -= 1
            gone = None
            if isinstance(action, Remodel):
                gone = standing.pop(action.discard)
                old = self.facilities[gone]
                self.facilities[gone] = _Facility(old.building, old.color, old.built, t)
            standing[action.card] = len(self.facilities)
            self.facilities.append(_Facility(action.card, card.color, t, None))
            self.build[t] = (action, cost.get("gold", 0), cost.get("food", 0),
                             len(self.facilities) - 1, gone)

    def hope(self, t: int, cards: _Cards) -> Callable[[int, int, int], int]:
        """``hope(housed, left, food)``: at least the character VP the turns after ``t`` can
        still add to a state with ``housed`` residents, ``left`` cards not yet played and
        ``food``: festivals for its residents; for each card yet to be housed (at most one per
        empty or later facility, card left and ``least_food`` food), the best VP of a card and
        the festivals from the turn its facility stands."""
        after = sum(1 for f in self.festivals if f > t)
        standing = len(self.standing(t, True))
        later = sorted((3 * sum(1 for f in self.festivals if f >= fac.built)
                        for fac in self.facilities if fac.built > t), reverse=True)
        later_food = self.future(t)[1]

        def hope(housed: int, left: int, food: int) -> int:
            slots = [3 * after] * (standing - housed) + later
            n = min(len(slots), left)
            if cards.least_food > 0:
                n = min(n, (food + later_food) // cards.least_food)
            return 3 * housed * after + sum(slots[:n]) + n * cards.best

        return hope

    def future(self, t: int) -> tuple[int, int]:
        """The gold and food the turns after ``t`` bring."""
        later = [self.inflow[u] for u in range(t + 1, self.turns + 1)]
        return sum(g for g, _ in later), sum(f for _, f in later)

    def standing(self, t: int, built: bool) -> list[int]:
        """Facilities standing in turn ``t`` before (``built`` False) or after the turn's build."""
        out = []
        for i, f in enumerate(self.facilities):
            up = f.built < t or (built and f.built == t)
            down = f.discarded is not None and (f.discarded < t or (built and f.discarded == t))
            if up and not down:
                out.append(i)
        return out


class _Cards:
    """The characters as indices: food, VP in each facility, the deck and the opening hand."""

    def __init__(self, instance: Instance, frame: _Frame) -> None:
        ids = sorted(set(instance.hand) | set(instance.character_deck))
        self.ids = ids
        index = {c: i for i, c in enumerate(ids)}
        chars = [instance.characters[c] for c in ids]
        self.food = [c.food for c in chars]
        self.value = [[c.vp_match if c.color == f.color else c.vp for f in frame.facilities]
                      for c in chars]
        self.deck = tuple(index[c] for c in instance.character_deck)
        self.hand = sum(1 << index[c] for c in instance.hand)
        self.least_food = min(self.food, default=0)
        self.best = max((max(v, default=0) for v in self.value), default=0)


def _draw(deck: tuple[int, ...], k: int, bottom: tuple[int, ...]
          ) -> tuple[int, int, tuple[int, ...]] | None:
    if k < len(deck):
        return deck[k], k + 1, bottom
    if bottom:
        return bottom[0], k, bottom[1:]
    return None


class _Turn:
    """What one turn of the frame offers: its build, the facilities standing before and after
    it (one of each kind: facilities of one colour that stand equally long are interchangeable),
    and whether the deck's bottom can still be reached."""

    def __init__(self, frame: _Frame, cards: _Cards, t: int) -> None:
        self.frame = frame
        self.build = frame.build.get(t)
        self.pre, self.post = frame.standing(t, False), frame.standing(t, True)
        self.later_gold, self.later_food = frame.future(t)
        self.deck_size = len(cards.deck)
        self.least_food = cards.least_food

    def leaves(self, f: int) -> bool:
        return self.frame.facilities[f].discarded is not None

    def empty(self, occ: tuple, built: bool) -> list[int]:
        out, kinds = [], set()
        for f in (self.post if built else self.pre):
            if occ[f] == _EMPTY:
                fac = self.frame.facilities[f]
                kind = (fac.color, fac.discarded)
                if kind not in kinds:
                    kinds.add(kind)
                    out.append(f)
        return out

    def deep(self, k: int, gold: int, food: int) -> bool:
        """Whether the year can still draw past the deck into its bottom: each draw costs a
        gold, but for a free buy into an empty hand, and each hand emptied again costs a play
        (at least ``least_food`` food)."""
        if self.least_food == 0:
            return True
        draws = gold + self.later_gold + (food + self.later_food) // self.least_food + 1
        return k + draws > self.deck_size


class _Search:
    """One run of the dynamic program; entries are ``[gold, food, vp, parent, action, alive]``."""

    def __init__(self, frame: _Frame, cards: _Cards, max_states: int, max_nodes: int | None,
                 deadline: float | None) -> None:
        self.frame, self.cards = frame, cards
        self.max_states, self.max_nodes, self.deadline = max_states, max_nodes, deadline
        self.nodes = 0
        self.widest = 0
        self.truncated = False
        self.reason: str | None = None
        self.floor: int | None = None
        self.stopped = False

    def run(self) -> list | None:
        frame, cards = self.frame, self.cards
        occ = tuple(_EMPTY for _ in frame.facilities)
        gold0 = frame.instance.start["gold"]
        food0 = frame.instance.start["food"]
        # an entry: [gold, food, vp, the entry before, the move from it, still to expand]
        start: dict[tuple, list[list[Any]]] = {
            (0, (), cards.hand, occ): [[gold0, food0, 0, None, None, True]]}
        for t in range(1, frame.turns + 1):
            gold_in, food_in = frame.inflow[t]
            for entries in start.values():
                for e in entries:
                    e[0] += gold_in
                    e[1] += food_in
            ends = self._turn(t, start)
            if ends is None:
                self.stopped = True
                return None
            start = self._hopeful(t, ends)
            if not self._in_limits():
                self.stopped = True
                return None
            start = self._keep_best(start)
        best: list[Any] | None = None
        for entries in start.values():
            for e in entries:
                if best is None or e[2] > best[2]:
                    best = e
        return best

    def _turn(self, t: int, start: dict) -> dict | None:
        """Every state the turn can end in, from every state it starts in."""
        frame = self.frame
        build = frame.build.get(t)
        seen: dict[tuple, list[list]] = {}
        stack = []
        for (k, bottom, hand, occ), entries in start.items():
            key = (k, bottom, hand, occ, build is None, False)
            seen[key] = entries
            stack += [(key, e) for e in entries]
        turn = _Turn(frame, self.cards, t)
        while stack:
            key, e = stack.pop()
            if not e[5]:
                continue
            self.nodes += 1
            if (self.nodes & 1023 == 0 or self.nodes == self.max_nodes) \
                    and not self._in_limits():
                return None
            for key2, gold, food, vp, action in self._moves(turn, key, e):
                if self._insert(seen, key2, gold, food, vp, e, action):
                    stack.append((key2, seen[key2][-1]))
        ends: dict[tuple, list[list]] = {}
        for n, ((k, bottom, hand, occ, built, pending), entries) in enumerate(seen.items()):
            if n & 4095 == 4095 and not self._in_limits():
                return None
            if not built or pending:
                continue
            bonus = 0
            if t in frame.festivals:
                housed = [frame.facilities[f].color for f in turn.post if occ[f] != _EMPTY]
                bonus = festival_points(frame.instance, housed, t)
            for e in entries:
                if e[5]:
                    self._insert(ends, (k, bottom, hand, occ), e[0], e[1], e[2] + bonus, e,
                                 ("end",))
        return ends

    def _moves(self, turn: _Turn, key: tuple, e: list):
        """The states one move leads to: ``(key, gold, food, vp, move)``.

        A card played without a home only makes the hand smaller for a buy; played just before
        that buy it costs the same food and leaves more food until then. So such a play must be
        followed by a buy (the state is ``pending`` until then), except where the order of the
        deck's bottom can still matter (the deck could run out)."""
        k, bottom, hand, occ, built, pending = key
        gold, food, vp = e[0], e[1], e[2]
        cards = self.cards
        deep = turn.deep(k, gold, food)
        if not deep:
            bottom = ()
        if not built and not pending and turn.build is not None:  # built: no build this turn
            _action, gold_cost, food_cost, new, gone = turn.build
            if gold >= gold_cost and food >= food_cost:
                occ2 = list(occ)
                bottom2 = bottom
                if gone is not None:
                    if occ[gone] >= 0 and deep:
                        bottom2 = bottom + (occ[gone],)
                    occ2[gone] = _EMPTY
                yield ((k, bottom2, hand, tuple(occ2), True, False), gold - gold_cost,
                       food - food_cost, vp, ("build",))
        empty = turn.empty(occ, built)
        drawn = _draw(cards.deck, k, bottom)
        size = 0
        c = 0
        h = hand
        while h:
            if h & 1:
                size += 1
                if cards.food[c] <= food:
                    hand2 = hand & ~(1 << c)
                    food2 = food - cards.food[c]
                    for f in empty:
                        occ2 = list(occ)
                        occ2[f] = c if turn.leaves(f) else _HOUSED
                        yield ((k, bottom, hand2, tuple(occ2), built, pending), gold, food2,
                               vp + cards.value[c][f], ("play", c, f))
                    if drawn is not None:
                        back = bottom + (c,) if deep else ()
                        yield ((k, back, hand2, occ, built, not deep), gold, food2, vp,
                               ("play", c, None))
            h >>= 1
            c += 1
        if drawn is None:
            return
        card, k2, bottom2 = drawn
        if gold >= size:
            yield ((k2, bottom2, hand | (1 << card), occ, built, False), gold - size, food, vp,
                   ("buy",))
        if gold >= 2 and not pending:
            full = hand | (1 << card)
            c = 0
            h = full
            while h:
                if h & 1:
                    back = bottom2 + (c,) if deep else ()
                    yield ((k2, back, full & ~(1 << c), occ, built, False), gold - 2, food, vp,
                           ("exchange", c))
                h >>= 1
                c += 1

    @staticmethod
    def _insert(table: dict, key: tuple, gold: int, food: int, vp: int, parent: list,
                action: tuple) -> bool:
        """Add the entry unless an entry of ``key`` has at least its gold, food and VP; drop
        the entries it beats. True when added."""
        entries = table.get(key)
        if entries is None:
            table[key] = [[gold, food, vp, parent, action, True]]
            return True
        for o in entries:
            if o[0] >= gold and o[1] >= food and o[2] >= vp:
                return False
        keep = []
        for o in entries:
            if gold >= o[0] and food >= o[1] and vp >= o[2]:
                o[5] = False
            else:
                keep.append(o)
        keep.append([gold, food, vp, parent, action, True])
        table[key] = keep
        return True

    def _hopeful(self, t: int, ends: dict) -> dict:
        """The states at the end of turn ``t`` that could still beat ``self.floor`` (the
        character VP of the given plan): their VP plus :meth:`_Frame.hope` is more."""
        if self.floor is None:
            return ends
        kept = {}
        hope = self.frame.hope(t, self.cards)
        for key, entries in ends.items():
            k, bottom, hand, occ = key
            left = bin(hand).count("1") + len(self.cards.deck) - k + len(bottom)
            housed = sum(1 for x in occ if x != _EMPTY)
            alive = [e for e in entries
                     if e[2] + hope(housed, left, e[1]) > self.floor]
            if alive:
                kept[key] = alive
        return kept

    def _keep_best(self, ends: dict) -> dict:
        count = sum(len(v) for v in ends.values())
        self.widest = max(self.widest, count)
        if count <= self.max_states:
            return ends
        self.truncated = True
        ranked = sorted(((e[2], e[1] + e[0], bin(key[2]).count("1"), key, i)
                         for key, entries in ends.items() for i, e in enumerate(entries)),
                        reverse=True)[:self.max_states]
        kept: dict[tuple, list[list]] = {}
        for *_score, key, i in ranked:
            kept.setdefault(key, []).append(ends[key][i])
        return kept

    def _in_limits(self) -> bool:
        check()  # a Ctrl-C whose exception Python dropped
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            self.reason = REASON_NODES
            return False
        if self.deadline is not None and time.perf_counter() > self.deadline:
            self.reason = REASON_TIME
            return False
        return True


def _schedule(frame: _Frame, cards: _Cards, best: list) -> list[TurnPlan]:
    """The turn plans of the path ending in ``best``."""
    path = []
    e = best
    while e is not None and e[4] is not None:
        path.append(e[4])
        e = e[3]
    path.reverse()
    plans: list[TurnPlan] = []
    actions: list[Action] = []
    t = 1
    for step in path:
        if step[0] == "end":
            plans.append(TurnPlan(t, tuple(actions)))
            actions, t = [], t + 1
        elif step[0] == "build":
            actions.append(frame.build[t][0])
        elif step[0] == "play":
            house = None if step[2] is None else frame.facilities[step[2]].building
            actions.append(Play(cards.ids[step[1]], house))
        elif step[0] == "buy":
            actions.append(Buy())
        else:
            actions.append(Exchange(cards.ids[step[1]]))
    return plans


@noting()
def best_characters(instance: Instance, schedule: Schedule | list[TurnPlan], *,
                    max_states: int = MAX_STATES, max_nodes: int | None = None,
                    time_limit: float | None = None) -> CharacterPlan:
    """The best year that keeps the builds and remodels of ``schedule`` (their turns, cards,
    reductions and chits) and chooses every character move anew.

    ``schedule`` must be legal (:func:`simulate` replays it; its ``IllegalMoveError`` is raised
    otherwise). The result's schedule is never worse than ``schedule`` when the status is
    ``"optimal"``; under a limit it is the best the search reached, or ``schedule`` itself if
    that scores more.
    """
    check_limits(max_nodes, time_limit)
    if isinstance(instance, Instance):
        instance.check_nothing_present("best_characters")
    max_states = check_int(max_states, "max_states", 1, what="a positive integer")
    began = time.perf_counter()
    frame = _Frame(instance, schedule)
    cards = _Cards(instance, frame)
    deadline = None if time_limit is None else began + time_limit
    search = _Search(frame, cards, max_states, max_nodes, deadline)
    given = frame.given
    search.floor = given.breakdown["residents"] + given.breakdown["festival"]
    try:
        best = search.run()
    except KeyboardInterrupt:
        best, search.reason, search.stopped = None, REASON_INTERRUPTED, True
    plans = _schedule(frame, cards, best) if best is not None else None
    result = simulate(instance, plans) if plans is not None else None
    if plans is None or result is None or result.total < given.total:
        plans = list(schedule.turns if isinstance(schedule, Schedule) else schedule)
        result = given
    status = LIMIT if search.stopped or search.truncated else OPTIMAL
    if search.reason == REASON_INTERRUPTED:
        status = INTERRUPTED
    out = Schedule(plans, vp=result.total, breakdown=dict(result.breakdown), status=status,
                   elapsed=time.perf_counter() - began)
    return CharacterPlan(out, status, search.nodes, search.widest, out.elapsed, search.reason)


CHARACTER_RESOURCES = ("food", "gold")
"""What character moves spend: the reductions :func:`freer_reductions` moves onto."""
EXTRA_REDUCTIONS = 2
"""Reductions beyond a build's own that :func:`freer_reductions` tries (a remodel of the same
colour allows three)."""


def freer_reductions(instance: Instance, schedule: Schedule | list[TurnPlan]) -> list[TurnPlan]:
    """The year of ``schedule`` with each build's and remodel's reductions moved onto food and
    gold as far as the year stays legal (turn by turn, the most food and gold first), the
    character moves kept. The character planner can only gain from it: every character move of
    the year stays legal with more food and gold, and nothing else the year scores changes.

    >>> from lumicore.lemuria import default_instance
    >>> from solvers.lemuria.greedy import greedy_schedule
    >>> inst = default_instance(seed=1, turns=6)
    >>> simulate(inst, freer_reductions(inst, greedy_schedule(inst))).total >= 0
    True
    """
    check_instance(instance)
    plans = list(plans_by_turn(instance, schedule).values())  # a bad schedule is named
    simulate(instance, plans)  # IllegalMoveError for an illegal year
    for n, plan in enumerate(plans):
        action = plan.build_action()
        if action is None:
            continue
        for reduce in _freer(instance.buildings[action.card].cost, action.reduce):
            actions = tuple(replace(a, reduce=reduce) if a is action else a
                            for a in plan.actions)
            trial = plans[:n] + [TurnPlan(plan.turn, actions)] + plans[n + 1:]
            try:
                simulate(instance, trial)
            except IllegalMoveError:
                continue
            plans = trial
            break
    return plans


def _freer(cost: dict[str, int], reduce: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Reductions of a card of ``cost`` that lower food and gold more than ``reduce`` does, with
    up to ``EXTRA_REDUCTIONS`` more reductions: the most food and gold first."""
    def spared(r: tuple[str, ...]) -> tuple[int, int]:
        return sum(r.count(x) for x in CHARACTER_RESOURCES), r.count(CHARACTER_RESOURCES[0])

    names = sorted(x for x, k in cost.items() for _ in range(k))
    out: set[tuple[str, ...]] = set()
    for size in range(len(reduce), len(reduce) + EXTRA_REDUCTIONS + 1):
        out.update(itertools.combinations(names, size))
    least = spared(reduce)[0]
    return sorted((r for r in out if spared(r)[0] > least),
                  key=lambda r: (spared(r), -len(r), r), reverse=True)
