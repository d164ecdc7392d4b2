"""A greedy Lemuria year: the baseline the CP-SAT scheduler is measured against (and its hint).

Each turn it builds the affordable Trend card with the best VP (printed + trend bonus) per
resource paid, with every reduction it is allowed, placing the chit in Church first, then
Rural, Commerce, Administrative, and so on in turn. Then it houses characters: while there is an
empty facility and food, it plays the hand card scoring most there (buying first, for free, when
the hand is empty). No remodels, no exchanges. Every step goes through the rules code, so the
plan is legal by construction.

>>> from lumicore.lemuria import default_instance, simulate
>>> inst = default_instance(seed=2, turns=4)
>>> plan = greedy_schedule(inst)
>>> simulate(inst, plan).total == plan.vp
True
"""

from __future__ import annotations

import itertools
import time

from lumicore.checks import check_int
from lumicore.errors import IllegalMoveError
from lumicore.lemuria import Build, Buy, Instance, Play, Schedule, TurnPlan
from lumicore.lemuria.rules import (
    State,
    allowed_reductions,
    apply,
    begin_turn,
    end_turn,
    initial_state,
)

__all__ = ["greedy_schedule", "DISTRICT_ORDER"]

DISTRICT_ORDER = ("church", "rural", "commerce", "administrative")
"""The districts :func:`greedy_schedule` places its chits in, in turn (the next one with a free
slot): Church first, then Rural, Commerce, Administrative."""
TREND_BONUS = (6, 3, 1, 0, 0)


def _best_build(instance: Instance, state: State, district: str | None) -> Build | None:
    best, best_key = None, None
    for slot, card_id in enumerate(state.row, 1):
        if card_id is None:
            continue
        card = instance.buildings[card_id]
        units = [r for r, n in sorted(card.cost.items()) for _ in range(n)]
        k = min(allowed_reductions(state, slot), len(units))
        for reduce in sorted(set(itertools.combinations(units, k))):
            action = Build(card_id, district, reduce)
            try:
                apply(instance, state, action)
            except IllegalMoveError:
                continue
            value = card.vp + TREND_BONUS[slot - 1]
            key = (value / max(1, len(units) - k), value)
            if best_key is None or key > best_key:
                best, best_key = action, key
    return best


def _district(state: State, built: int) -> str | None:
    for i in range(len(DISTRICT_ORDER)):
        district = DISTRICT_ORDER[(built + i) % len(DISTRICT_ORDER)]
        if state.free_slots(district) > 0:
            return district
    return None


def _house(instance: Instance, state: State, actions: list) -> State:
    while True:
        empty = [b for b, resident in state.facilities if resident is None]
        if not empty:
            return state
        if not state.hand and state.character_deck:
            try:
                state = apply(instance, state, Buy())
                actions.append(Buy())
            except IllegalMoveError:
                return state
        options = []
        for c in state.hand:
            ch = instance.characters[c]
            for b in empty:
                match = instance.buildings[b].color == ch.color
                options.append((ch.vp_match if match else ch.vp, -ch.food, c, b))
        for *_score, c, b in sorted(options, reverse=True):
            try:
                state = apply(instance, state, Play(c, b))
            except IllegalMoveError:
                continue
            actions.append(Play(c, b))
            break
        else:
            return state


def check_max_builds(max_builds: object) -> int | None:
    """``max_builds`` as an int if it is None or an integer from 0 to 2**31 - 1 (bool is no
    integer here; CP-SAT takes no bound past 64 bits); else :class:`LumicoreError` naming it."""
    if max_builds is None:
        return None
    return check_int(max_builds, "max_builds", 0, 2**31 - 1,
                     "None or an integer >= 0 (at most 2**31 - 1)")


def greedy_schedule(instance: Instance, max_builds: int | None = None) -> Schedule:
    """The greedy year of the module docstring, with its VP and breakdown (status
    ``"feasible"``: no claim of optimality). ``max_builds`` caps the facilities it builds
    (None: the rules' 8)."""
    max_builds = check_max_builds(max_builds)
    start = time.perf_counter()
    state = initial_state(instance)
    plans = []
    built = 0
    for turn in range(1, instance.turns + 1):
        state = begin_turn(instance, state)
        actions: list = []
        if len(state.facilities) < 8 and (max_builds is None or built < max_builds):
            build = _best_build(instance, state, _district(state, built))
            if build is not None:
                state = apply(instance, state, build)
                actions.append(build)
                built += 1
        state = _house(instance, state, actions)
        state = end_turn(instance, state)
        plans.append(TurnPlan(turn, tuple(actions)))
    return Schedule(turns=plans, vp=state.total, breakdown=state.breakdown(), status="feasible",
                    elapsed=time.perf_counter() - start)
