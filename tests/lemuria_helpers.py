"""Random legal Lemuria plans and a naive search over the character moves of fixed builds, for
the tests of the character planner and of the model's hints; a simulated Ctrl-C that counts
what the planner still did after it, for the tests of its stop."""

from __future__ import annotations

import functools
import itertools
import math
import random
import signal
import threading

from lumicore.errors import IllegalMoveError
from lumicore.lemuria import Building, Character
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
from solvers.lemuria.search import Watch

_NO_VP = (0, 0, 0, 0, 0)
_OPTIMA: dict[str, object] = {}
ORACLE_NODES = 1_000_000
"""Nodes of the exhaustive planner for a test's oracle (a node cap, not a time limit: the
small years of the tests take at most about 100,000)."""


def optimum(instance):
    """The exhaustive planner's best year of ``instance`` (up to ``ORACLE_NODES`` nodes, no
    time limit: the same answer however loaded the machine), computed once per test process:
    several tests compare their bounds with the same small years."""
    key = repr(instance)
    if key not in _OPTIMA:
        _OPTIMA[key] = exhaustive_best(instance, max_nodes=ORACLE_NODES, time_limit=None)
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


STOPPED_TICKS = 3
"""Ticks a planner that heard Ctrl-C may still make: the one closing the CP-SAT run it stopped
and those showing the bound on its way out. One that did not hear it ticks every quarter second
until its time limit (or, stopped only when a run ended by itself, to that run's limit)."""


class Clock:
    """A fake ``time`` module: ``perf_counter`` moves only when the test moves it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def perf_counter(self) -> float:
        return self.now


class Press:
    """A simulated Ctrl-C (a real SIGINT) and a count of the planner's :class:`Watch` ticks
    after it (``after``: its check every quarter second while CP-SAT runs, and after each
    run). A count, not a time: a search that stopped makes at most :data:`STOPPED_TICKS`
    whatever the machine's speed, which :attr:`stopped` checks instead of the seconds the run
    took. ``at_tick``: press from another thread at that tick (1: the first, a quarter second
    into the first CP-SAT run), while the planner waits on CP-SAT."""

    def __init__(self, monkeypatch, at_tick: int | None = None) -> None:
        self.pressed = threading.Event()
        self.after = 0
        ticks = 0
        real = Watch.tick

        def tick(watch: Watch) -> None:
            nonlocal ticks
            ticks += 1
            if self.pressed.is_set():
                self.after += 1
            elif ticks == at_tick:
                self.later(0.0)
            real(watch)

        monkeypatch.setattr(Watch, "tick", tick)

    def now(self) -> None:
        """Ctrl-C now (from any thread: the signal goes to the main thread)."""
        if self.pressed.is_set():
            return
        self.pressed.set()
        signal.raise_signal(signal.SIGINT)

    def later(self, seconds: float) -> threading.Timer:
        """Ctrl-C from another thread in ``seconds``."""
        timer = threading.Timer(seconds, self.now)
        timer.start()
        return timer

    def __repr__(self) -> str:
        return f"Press(pressed={self.pressed.is_set()}, ticks after it={self.after})"

    @property
    def stopped(self) -> bool:
        """The press came, and the planner ticked no more than a stopped one does."""
        return self.pressed.is_set() and self.after <= STOPPED_TICKS


def random_cards(rng: random.Random, buildings: int, characters: int,
                 resources: tuple[str, ...]) -> tuple[dict, dict]:
    """Random red and blue cards of a tiny year: buildings ``B0..`` costing one to three
    resources drawn from ``resources`` (repeat one to weigh it), VP 1..5; characters ``C0..``
    eating 1..2 food, VP 0..2 unmatched and up to 3 more matched."""
    out_b = {}
    for i in range(buildings):
        cost: dict[str, int] = {}
        for _ in range(rng.randint(1, 3)):
            r = rng.choice(resources)
            cost[r] = cost.get(r, 0) + 1
        out_b[f"B{i}"] = Building(f"B{i}", rng.choice(("red", "blue")), rng.randint(1, 5), cost)
    out_c = {}
    for i in range(characters):
        vp = rng.randint(0, 2)
        out_c[f"C{i}"] = Character(f"C{i}", rng.choice(("red", "blue")), rng.randint(1, 2),
                                   vp, vp + rng.randint(0, 3))
    return out_b, out_c
