"""Helpers for the saved-state tests of the games: play random games and serialize their states
on the way, and damage one field of a serialization at a time (top-level fields and a sample
of nested ones) to check that loading it is either a LumicoreError or a state that plays on.
The per-game tests (test_lumen_game, test_lemuria_game, test_lucia_deal_play) and
test_load_fuzz (the reef) all use them."""

from __future__ import annotations

import json
import random
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence

import numpy as np

from lumicore.errors import DataError, LumicoreError
from lumicore.game import GameState, play_randomly, sample_chance

JUNK = ["x", 1.5, None, [], {}, -1, True, 10**6]
"""What replaces a field: each of a wrong type for most fields, or out of range."""


def step(state: GameState, rng: np.random.Generator) -> None:
    """One random move of ``state`` (or chance outcome, drawn as the game says)."""
    if state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    else:
        actions = state.legal_actions()
        state.apply_action(actions[int(rng.integers(len(actions)))])


def states(state: GameState, seed: int, every: int = 1) -> Iterator[GameState]:
    """Every ``every``-th state of a random game from ``state`` (and the last one), copies."""
    rng = np.random.default_rng(seed)
    moves = 0
    while not state.is_terminal():
        if moves % every == 0:
            yield state.clone()
        moves += 1
        step(state, rng)
    yield state


def json_type(value: object) -> str:
    """The JSON type of a parsed value (a bool is not a number)."""
    for kind, types in (("bool", bool), ("int", int), ("float", float), ("str", str),
                        ("null", type(None)), ("list", list), ("object", dict)):
        if isinstance(value, types):
            return kind
    raise AssertionError(f"not JSON: {value!r}")


def paths(data: object, prefix: tuple = (), depth: int | None = None) -> Iterator[tuple]:
    """The path (keys and list indices) of every value inside ``data``, ``depth`` levels down
    at most (None: all)."""
    if depth == 0:
        return
    items = (data.items() if isinstance(data, dict)
             else enumerate(data) if isinstance(data, list) else ())
    for key, value in items:
        yield prefix + (key,)
        yield from paths(value, prefix + (key,), None if depth is None else depth - 1)


def pattern(path: tuple) -> tuple:
    """``path`` with each list index as ``"*"`` (any item)."""
    return tuple("*" if isinstance(p, int) else p for p in path)


def _name(path: tuple) -> str:
    return "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path)[1:]


def types_seen(seen: Iterable[GameState]) -> dict[tuple, set[str]]:
    """The JSON types each place (a :func:`pattern`) holds in the serializations of the states
    ``seen``: for :func:`check_damage`, a value of another type there is a type error."""
    types: dict[tuple, set[str]] = defaultdict(set)
    for state in seen:
        data = json.loads(state.serialize())
        for path in paths(data):
            spot = data
            for key in path:
                spot = spot[key]
            types[pattern(path)].add(json_type(spot))
    return types


def check_damage(state: GameState, load: Callable[[str], GameState], nested: int = 40,
                 nullable: str = "$^", seed: int = 0, max_steps: int = 1000,
                 types: dict[tuple, set[str]] | None = None, depth: int | None = None,
                 junk: Sequence[object] = tuple(JUNK)) -> int:
    """Replace each top-level field of ``state``'s serialization, and ``nested`` fields inside
    them (``depth`` levels down at most) picked at random, by each value of ``junk``
    (:data:`JUNK`), and load the result with ``load``: a value of another JSON type than the
    field's (null too, unless the field's path matches the regular expression ``nullable``)
    must raise a LumicoreError; a state that loads must play on (``max_steps`` random moves, or
    to the end) raising nothing but a LumicoreError. With ``types`` (:func:`types_seen`), a
    value of a type the place never holds must be a DataError naming the top-level field
    (``nullable`` is not used). Returns how many states loaded."""
    text = state.serialize()
    data = json.loads(text)
    every = list(paths(data, depth=depth))
    rng = random.Random(seed)
    inner = [p for p in every if len(p) > 1]
    chosen = [p for p in every if len(p) == 1] + rng.sample(inner, min(nested, len(inner)))
    loaded = 0
    for path in chosen:
        for bad in junk:
            damaged = json.loads(text)
            spot = damaged
            for key in path[:-1]:
                spot = spot[key]
            original, spot[path[-1]] = spot[path[-1]], bad
            if json_type(bad) == json_type(original) and bad == original:
                continue
            if types is not None and json_type(bad) not in types[pattern(path)]:
                try:
                    load(json.dumps(damaged))
                except DataError as exc:
                    field = re.escape(str(path[0]))
                    assert re.search(f"field '{field}['.\\[]", str(exc)), (path, bad, str(exc))
                    continue
                raise AssertionError(f"{_name(path)} = {bad!r} (was {original!r}): no "
                                     "DataError")
            try:
                copy = load(json.dumps(damaged))
            except LumicoreError:
                continue
            wrong_type = types is None and original is not None \
                and json_type(bad) != json_type(original) \
                and not (bad is None and re.search(nullable, _name(path)))
            assert not wrong_type, f"{_name(path)} = {bad!r} (was {original!r}) loaded"
            loaded += 1
            try:
                play_randomly(copy, seed=loaded, max_steps=max_steps)
            except LumicoreError:
                pass
    return loaded
