"""Loading a saved reef state checks every field: a field replaced by a value of another JSON
type is a DataError naming the field; any other damage is a LumicoreError at load time or leaves
a state that plays on to the end with no other exception. And every state ``serialize()``
writes loads back to the same state, all through random games. The damage is done by
tests/damage_helpers.py, which the other games' tests use on their own states."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from damage_helpers import JUNK, check_damage, json_type, states, step, types_seen

from lumicore.errors import DataError
from lumicore.game import GameState, new_game
from lumicore.reef import load_tiles
from lumicore.reef.game import Game
from lumicore.reef.hand import HandState
from lumicore.reef.sample import random_reef

CHECKED = ["reef"]
"""The registered games (``lumicore.game.GAMES``) fuzzed here. Lumen, Lemuria and the Lucia deal
run the same checks (:func:`damage_helpers.check_damage`, every state loading back) in their own
tests (test_lumen_game.py, test_lemuria_game.py, test_lucia_deal_play.py), on the scenarios,
options and decks they need: they are not listed here, so no fuzz runs twice."""

BAD = [*JUNK, "", 10**30, [None]]
"""What a field or an item of one is replaced by."""


def _positions(name: str) -> list[GameState]:
    """A few states of random two-player games of ``name``: the start, early, middle, late, the
    end."""
    out = []
    for seed, picks in ((1, (0, 6, 40)), (2, (120, 10_000))):
        seen = list(states(new_game(name, players=2, seed=seed), seed))
        out += [seen[min(k, len(seen) - 1)] for k in picks]
    return out


@pytest.mark.parametrize("name", CHECKED)
def test_a_damaged_field_is_refused_or_plays_on(name):
    # each field, and 40 fields one level down, replaced by junk (a wrong type: a DataError
    # naming the field)
    types = types_seen(s for seed in (1, 2) for s in states(new_game(name, seed=seed), seed))
    loaded = [check_damage(state, type(state).deserialize, types=types, depth=2, seed=i, junk=BAD)
              for i, state in enumerate(_positions(name))]
    assert sum(loaded) > 50  # and played on


def _hand_state(seed: int) -> HandState:
    rng = np.random.default_rng(seed)
    tiles = load_tiles("default").luminos
    hand = [tiles[i] for i in rng.choice(len(tiles), 3, replace=False)]
    return HandState(random_reef("AB"[seed % 2], pieces=6, seed=seed), hand, limestone=seed % 4)


def test_a_damaged_reef_hand_state_is_refused_or_plays_on():
    seen = [s for seed in range(3) for s in states(_hand_state(seed), seed)]
    types = types_seen(seen)
    loaded = [check_damage(state, HandState.deserialize, types=types, depth=2, seed=i, junk=BAD)
              for i, state in enumerate(seen[::2])]
    assert sum(loaded) > 20  # and played on


@pytest.mark.parametrize("bad, message", [
    ({"round": "x"}, "field 'round' must be an integer from 1 to 10, got \"x\""),
    ({"octopus": 2}, "field 'octopus' must be an integer from 0 to 1, got 2"),
    ({"ending": 1}, "field 'ending' must be true or false, got 1"),
    ({"then": "finish"}, "field 'then' must be one of \"\", \"start-round\""),
    ({"reefs": []}, "field 'reefs' must be a list of 2 items"),
    ({"bag_left": 3}, "field 'bag_left' must be unseen + returned - emergency"),
    ({"vp": [0, 1.0]}, "field 'vp[1]' must be an integer, got 1.0"),
    ({"setup": {"players": 5}}, "field 'setup.players' must be a number of players from 2 to 4"),
    ({"setup": []}, "field 'setup' must be an object of players (2-4)"),
    ({"atoll": ["pink 9"]}, "bad token '9'"),
    ({"dealt": [["pink", "pink"], None]}, "field 'dealt[0]' must be two different colours"),
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
                  if isinstance(v, (list, dict)) else json_type(v)) for k, v in data.items())


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
        step(twin, np.random.default_rng(seed))
        step(loaded, np.random.default_rng(seed))
        assert loaded.serialize() == twin.serialize()


@pytest.mark.parametrize("name", CHECKED)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_serialized_state_loads_back(name, players):
    rng = np.random.default_rng(players)
    for seed in range(2):
        seen = list(states(new_game(name, players=players, seed=seed), seed))
        assert seen[-1].is_terminal()
        for state in _sample(seen):
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
        for state in _sample(list(states(game, seed))):
            seen |= {("ending", state.ending), ("extra", state.extra)}
            _round_trip(state, rng)
    assert {("ending", True), ("extra", True)} <= seen
