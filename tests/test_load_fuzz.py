"""Loading a saved game state checks every field: a field replaced by a value of another JSON type
is a DataError naming the field; any other damage is a LumicoreError at load time or leaves a
state that plays on to the end with no other exception. And every state ``serialize()`` writes
loads back to the same state, all through random games."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from lumicore.errors import DataError, LumicoreError
from lumicore.game import GameState, new_game, play_randomly, sample_chance
from lumicore.reef import load_tiles
from lumicore.reef.game import Game
from lumicore.reef.hand import HandState
from lumicore.reef.sample import random_reef

CHECKED = ["reef"]
"""The registered games (``lumicore.game.GAMES``) whose ``deserialize`` checks every field."""

BAD = ["x", "", 1.5, None, [], {}, -1, True, 10**30, [None]]
"""What a field or an item of one is replaced by."""


def _kind(value: object) -> str:
    """The JSON type of a parsed value (a bool is not a number)."""
    for kind, types in (("bool", bool), ("int", int), ("float", float), ("str", str),
                        ("null", type(None)), ("list", list), ("object", dict)):
        if isinstance(value, types):
            return kind
    raise AssertionError(f"not JSON: {value!r}")


def _step(state: GameState, rng: np.random.Generator) -> None:
    if state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    else:
        actions = state.legal_actions()
        state.apply_action(actions[int(rng.integers(len(actions)))])


def _history(state: GameState, seed: int, steps: int = 10_000) -> Iterator[GameState]:
    """``state`` and the states after each random action, up to ``steps`` actions or the end."""
    rng = np.random.default_rng(seed)
    yield state.clone()
    for _ in range(steps):
        if state.is_terminal():
            return
        _step(state, rng)
        yield state.clone()


def _places(data: dict) -> Iterator[tuple[str, tuple]]:
    """Where to put junk: each field, and one level down the first item of a list field and
    each key of an object field. Yields (field, path); ``"*"`` stands for any list item."""
    for field, value in data.items():
        yield field, (field,)
        if isinstance(value, list) and value:
            yield field, (field, 0)
        if isinstance(value, dict):
            for key in value:
                yield field, (field, key)


def _pattern(path: tuple) -> tuple:
    return tuple("*" if isinstance(p, int) else p for p in path)


def _get(data: object, path: tuple) -> object:
    for p in path:
        data = data[p]
    return data


def _types_seen(states: list[GameState]) -> dict[tuple, set[str]]:
    """The JSON types each place (see :func:`_places`) holds in the serializations of
    ``states``: a value of another type there is a type error."""
    seen: dict[tuple, set[str]] = defaultdict(set)
    for state in states:
        data = json.loads(state.serialize())
        for _field, path in _places(data):
            if len(path) == 2 and isinstance(path[1], int):
                seen[_pattern(path)] |= {_kind(v) for v in _get(data, path[:1])}
            else:
                seen[_pattern(path)].add(_kind(_get(data, path)))
    return seen


def _check_damage(state: GameState, load: Callable[[str], GameState],
                  types: dict[tuple, set[str]]) -> int:
    """Each place of ``state``'s serialization replaced by each junk value: a value of a type
    the place never holds is a DataError naming the field; another is a LumicoreError now or a
    state that plays randomly to the end raising nothing else. The number of loads tried."""
    data = json.loads(state.serialize())
    assert isinstance(data, dict)
    tried = 0
    for field, path in _places(data):
        for bad in BAD:
            damaged = json.loads(json.dumps(data))
            if len(path) == 1:
                damaged[field] = bad
            else:
                _get(damaged, path[:-1])[path[-1]] = bad
            text = json.dumps(damaged)
            tried += 1
            if _kind(bad) not in types[_pattern(path)]:
                with pytest.raises(DataError) as info:
                    load(text)
                assert repr(field) in str(info.value), (path, bad, str(info.value))
                continue
            try:
                loaded = load(text)
            except LumicoreError:
                continue
            try:
                end = play_randomly(loaded, seed=3)
                str(end), end.serialize(), end.returns()
            except LumicoreError:
                pass
    return tried


def _positions(name: str) -> list[GameState]:
    """A few states of random two-player games of ``name``: the start, early, middle, late, the
    end."""
    out = []
    for seed, picks in ((1, (0, 6, 40)), (2, (120, 10_000))):
        states = list(_history(new_game(name, players=2, seed=seed), seed))
        out += [states[min(k, len(states) - 1)] for k in picks]
    return out


@pytest.mark.parametrize("name", CHECKED)
def test_a_damaged_field_is_refused_or_plays_on(name):
    positions = _positions(name)
    types = _types_seen([s for seed in (1, 2) for s in _history(new_game(name, seed=seed), seed)])
    load = type(positions[0]).deserialize
    assert sum(_check_damage(state, load, types) for state in positions) > 100


def _hand_state(seed: int) -> HandState:
    rng = np.random.default_rng(seed)
    tiles = load_tiles("default").luminos
    hand = [tiles[i] for i in rng.choice(len(tiles), 3, replace=False)]
    return HandState(random_reef("AB"[seed % 2], pieces=6, seed=seed), hand, limestone=seed % 4)


def test_a_damaged_reef_hand_state_is_refused_or_plays_on():
    states = [s for seed in range(3) for s in _history(_hand_state(seed), seed)]
    types = _types_seen(states)
    assert sum(_check_damage(state, HandState.deserialize, types) for state in states[::2]) > 50


@pytest.mark.parametrize("bad, message", [
    ({"round": "x"}, "field 'round' must be an int from 1 to 10, got 'x'"),
    ({"octopus": 2}, "field 'octopus' must be an int from 0 to 1, got 2"),
    ({"ending": 1}, "field 'ending' must be true or false, got 1"),
    ({"then": "finish"}, "field 'then' must be one of '', 'start-round'"),
    ({"reefs": []}, "field 'reefs' must be a list of 2 items"),
    ({"bag_left": 3}, "field 'bag_left' must be unseen + returned - emergency"),
    ({"vp": [0, 1.0]}, "field 'vp' must be a list of 2 items, each an int, got"),
    ({"setup": {"players": 5}}, "field 'setup' must be an object of players (2-4)"),
    ({"atoll": ["pink 9"]}, "bad token '9'"),
])
def test_the_message_names_the_field_and_the_value(bad, message):
    game = Game.new(players=2, seed=1)
    data = {**json.loads(game.serialize()), **bad}
    with pytest.raises(DataError, match="^serialized reef game: ") as info:
        Game.deserialize(json.dumps(data))
    assert message in str(info.value)


def _shape(state: GameState) -> tuple:
    """The texts, flags and nulls of ``state``'s serialization, and which lists and objects in
    it are empty (a phase, a pending step, an empty hand...)."""
    data = json.loads(state.serialize())
    return tuple((k, v if isinstance(v, (str, bool, type(None))) else not v
                  if isinstance(v, (list, dict)) else _kind(v)) for k, v in data.items())


def _sample(states: list[GameState], every: int = 10) -> list[GameState]:
    """Every ``every``-th state, the last, and each state of a shape (:func:`_shape`) not seen
    before: rare moments are tried too."""
    seen: set[tuple] = set()
    out = []
    for k, state in enumerate(states):
        shape = _shape(state)
        if k % every == 0 or k == len(states) - 1 or shape not in seen:
            out.append(state)
        seen.add(shape)
    return out


def _round_trip(state: GameState, rng: np.random.Generator) -> None:
    """``state`` loads back to a state that serializes the same, and the same move on both keeps
    them the same."""
    text = state.serialize()
    loaded = type(state).deserialize(text)
    assert loaded.serialize() == text
    if not state.is_terminal():
        twin, seed = state.clone(), int(rng.integers(2**32))
        _step(twin, np.random.default_rng(seed))
        _step(loaded, np.random.default_rng(seed))
        assert loaded.serialize() == twin.serialize()


@pytest.mark.parametrize("name", CHECKED)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_serialized_state_loads_back(name, players):
    rng = np.random.default_rng(players)
    for seed in range(2):
        states = list(_history(new_game(name, players=players, seed=seed), seed))
        assert states[-1].is_terminal()
        for state in _sample(states):
            _round_trip(state, rng)


def test_reef_round_trip_through_an_early_end(tmp_path: Path):
    """A small tile set runs the bag dry in round 1 or 2: the emergency stack goes in and the
    game ends after one more scoring phase; a game that draws for itself (auto_chance)."""
    specs = "\n".join(f'{{ number = {1 + k % 6}, animal = "crab" }},' for k in range(8))
    tiles = tmp_path / "tiles.toml"
    tiles.write_text('colors = ["pink", "green", "blue", "yellow"]\n'
                     'starts = [["pink", "green"], ["pink", "blue"], ["blue", "yellow"]]\n'
                     f"tiles = [\n{specs}\n]\n", encoding="utf-8")
    rng = np.random.default_rng(0)
    seen = set()
    for seed in range(3):
        game = Game.new(players=3, seed=seed, tiles=tiles)
        for state in _sample(list(_history(game, seed))):
            seen |= {("ending", state.ending), ("extra", state.extra)}
            _round_trip(state, rng)
    assert {("ending", True), ("extra", True)} <= seen
