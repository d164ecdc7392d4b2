"""Helpers for the saved-state tests of the games: play random games and serialize their states
on the way, and damage one field of a serialization at a time (top-level fields and a sample
of nested ones) to check that loading it is either a LumicoreError or a state that plays on."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator

import numpy as np

from lumicore.errors import LumicoreError
from lumicore.game import GameState, play_randomly, sample_chance

JUNK = ["x", 1.5, None, [], {}, -1, True, 10**6]
"""What replaces a field: each of a wrong type for most fields, or out of range."""


def states(state: GameState, seed: int, every: int = 1) -> Iterator[GameState]:
    """Every ``every``-th state of a random game from ``state`` (and the last one), copies."""
    rng = np.random.default_rng(seed)
    step = 0
    while not state.is_terminal():
        if step % every == 0:
            yield state.clone()
        step += 1
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            actions = state.legal_actions()
            state.apply_action(actions[int(rng.integers(len(actions)))])
    yield state


def _paths(data: object, prefix: tuple = ()) -> Iterator[tuple]:
    items = (data.items() if isinstance(data, dict)
             else enumerate(data) if isinstance(data, list) else ())
    for key, value in items:
        yield prefix + (key,)
        yield from _paths(value, prefix + (key,))


def _kind(value: object) -> str:
    return "bool" if isinstance(value, bool) else type(value).__name__


def _name(path: tuple) -> str:
    return "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path)[1:]


def check_damage(state: GameState, load: Callable[[str], GameState], nested: int = 40,
                 nullable: str = "$^", seed: int = 0, max_steps: int = 1000) -> int:
    """Replace each top-level field of ``state``'s serialization, and ``nested`` fields inside
    them picked at random, by each value of :data:`JUNK`, and load the result with ``load``:
    a value of another JSON type than the field's (null too, unless the field's path matches
    the regular expression ``nullable``) must raise a LumicoreError; a state that loads must
    play on (``max_steps`` random moves, or to the end) raising nothing but a LumicoreError.
    Returns how many states loaded."""
    text = state.serialize()
    data = json.loads(text)
    paths = list(_paths(data))
    rng = random.Random(seed)
    inner = [p for p in paths if len(p) > 1]
    chosen = [p for p in paths if len(p) == 1] + rng.sample(inner, min(nested, len(inner)))
    loaded = 0
    for path in chosen:
        for bad in JUNK:
            damaged = json.loads(text)
            spot = damaged
            for key in path[:-1]:
                spot = spot[key]
            original, spot[path[-1]] = spot[path[-1]], bad
            if _kind(bad) == _kind(original) and bad == original:
                continue
            try:
                copy = load(json.dumps(damaged))
            except LumicoreError:
                continue
            wrong_type = original is not None and _kind(bad) != _kind(original) and not (
                bad is None and re.search(nullable, _name(path)))
            assert not wrong_type, f"{_name(path)} = {bad!r} (was {original!r}) loaded"
            loaded += 1
            try:
                play_randomly(copy, seed=loaded, max_steps=max_steps)
            except LumicoreError:
                pass
    return loaded
