"""Random legal Lemuria plans and a naive search over the character moves of fixed builds, for
the tests of the character planner and of the model's hints."""

from __future__ import annotations

import functools
import itertools
import math
import random

from lumicore.errors import IllegalMoveError
from lumicore.lemuria.rules import (
    apply,
    begin_turn,
    build_card,
    chit_options,
    end_turn,
    initial_state,
    replace,
)
from lumicore.lemuria.schedule import DISTRICTS, Build, Buy, Exchange, Play, Remodel, TurnPlan
from solvers.lemuria.exhaustive import exhaustive_best, turn_actions

_NO_VP = (0, 0, 0, 0, 0)
_OPTIMA: dict[str, object] = {}


def optimum(instance):
    """The exhaustive planner's best year of ``instance`` (no node limit, 60 s), computed once
    per test process: several tests compare their bounds with the same small years."""
    key = repr(instance)
    if key not in _OPTIMA:
        _OPTIMA[key] = exhaustive_best(instance, max_nodes=None, time_limit=60)
    return _OPTIMA[key]


def random_schedule(inst, rng: random.Random) -> list[TurnPlan]:
    """A random legal year, played through the rules, as turn plans (builds and remodels
    included, with their chits)."""
    state = initial_state(inst)
    plans = []
    for turn in range(1, inst.turns + 1):
        state = begin_turn(inst, state)
        done = []
        for _ in range(rng.randint(0, 4)):
            actions = list(turn_actions(inst, state))
            rng.shuffle(actions)
            for action in actions:
                try:
                    if isinstance(action, Build):
                        nxt = build_card(inst, state, action.card, action.reduce)
                        action = Build(action.card, rng.choice(chit_options(nxt)),
                                       action.reduce)
                    state = apply(inst, state, action)
                    done.append(action)
                    break
                except IllegalMoveError:
                    continue
        plans.append(TurnPlan(turn, tuple(done)))
        state = end_turn(inst, state)
    return plans


def naive_best(instance, plans=None) -> int:
    """Best VP by brute force: every action the rules know, every district and every number of
    reductions, each turn's reachable states enumerated; no bounds, no dominance, and a memo
    only of states equal but for their VP. With ``plans``: only the years with the builds and
    remodels of those turn plans (each at any point of its turn), every character move free."""
    fixed = None if plans is None else {p.turn: p.build_action() for p in plans}

    def reductions(card):
        needed = sorted(instance.buildings[card].cost)
        for k in range(4):
            yield from itertools.combinations_with_replacement(needed, k)

    def builds(state):
        if fixed is not None:
            if fixed.get(state.turn) is not None and not state.built:
                yield fixed[state.turn]
            return
        for card in filter(None, state.row):
            for district in (*DISTRICTS, None):
                for reduce in reductions(card):
                    yield Build(card, district, reduce)
            for discard, _ in state.facilities:
                for reduce in reductions(card):
                    yield Remodel(discard, card, reduce)

    def actions(state):
        yield from builds(state)
        for character in state.hand:
            for house in (*(b for b, _ in state.facilities), None):
                yield Play(character, house)
        yield Buy()
        for card in set(state.hand) | set(state.character_deck[:1]):
            yield Exchange(card)

    @functools.cache
    def gain(key) -> float:
        """The most VP the rest of the year adds from ``key`` (a state without its VP; minus
        infinity when a fixed build can no longer be paid)."""
        if key.turn > instance.turns:
            return 0
        start = begin_turn(instance, key)
        reached, todo = {start}, [start]
        while todo:
            current = todo.pop()
            for action in actions(current):
                try:
                    nxt = apply(instance, current, action)
                except IllegalMoveError:
                    continue
                if nxt not in reached:
                    reached.add(nxt)
                    todo.append(nxt)
        must = fixed is not None and fixed.get(key.turn) is not None
        ends = [end_turn(instance, s) for s in reached if s.built or not must]
        return max((s.total + gain(replace(s, vp=_NO_VP)) for s in ends), default=-math.inf)

    return gain(replace(initial_state(instance), vp=_NO_VP))
