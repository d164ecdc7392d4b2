"""Conformance of every game state to lumicore.game.GameState (OpenSpiel style): random play-outs
check the protocol's invariants at every step, and exhaustive play through the protocol agrees
with the solvers."""

from __future__ import annotations

import copy
import json
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lumicore.errors import DataError, IllegalMoveError, LumicoreError
from lumicore.game import CHANCE, GameState, new_game, play_randomly, sample_chance
from lumicore.lemuria.game import Game as LemuriaGame
from lumicore.lucia import Action, Card, Deck, Train, scramble
from lumicore.lucia.deal import Deal
from lumicore.lucia.deal_game import DealState
from lumicore.lucia.game import PuzzleState
from lumicore.lumen.game import GameState as LumenState
from lumicore.reef import load_tiles
from lumicore.reef.game import Game
from lumicore.reef.hand import HandState
from lumicore.reef.sample import random_reef
from solvers.lucia import solve
from solvers.reef import best_placement


def reef_hand(seed: int, size: int = 3) -> HandState:
    rng = np.random.default_rng(seed)
    tiles = load_tiles("default").luminos
    hand = [tiles[i] for i in rng.choice(len(tiles), size, replace=False)]
    return HandState(random_reef("AB"[seed % 2], pieces=8, seed=seed), hand, limestone=seed % 3)


SMALL_DECK = Deck(tuple(Card((a,)) for a in (Action.light("T"), Action.lucia(), Action.wild(1),
                                              Action.light("H"))) * 3)


def lucia_small_deal(seed: int) -> DealState:
    """A short dealt game (5 kids, 12 cards) with the deck order fixed."""
    rng = np.random.default_rng(seed)
    cards = tuple(SMALL_DECK.cards[i] for i in rng.permutation(len(SMALL_DECK)))
    return DealState.from_deal(Deal(Train.parse("h T H L2 h"), cards, players=1 + seed % 2))


GAMES = {
    "lucia": lambda seed: DealState.new_game(players=1 + seed % 3, seed=seed, deck=SMALL_DECK),
    "lucia-deal": lucia_small_deal,
    "lucia-puzzle": lambda seed: PuzzleState.new(scramble(5, seed=seed), max_plays=6),
    "lucia-small": lambda seed: PuzzleState.new("h S T h L2 H", max_plays=4 + seed % 3),
    "reef-hand": reef_hand,
    "lemuria": lambda seed: LemuriaGame.new(players=2 + seed % 3, seed=seed, impact=seed % 2 == 1),
    "lumen": lambda seed: LumenState.new_game(seed=seed),
    "reef": lambda seed: new_game("reef", players=2 + seed % 3, seed=seed, side="AB"[seed % 2],
                                  scoreboard=("dark", "light")[seed // 2 % 2]),
}
DESERIALIZE = {"lucia": DealState.deserialize, "lucia-deal": DealState.deserialize,
               "lucia-puzzle": PuzzleState.deserialize, "lucia-small": PuzzleState.deserialize,
               "reef-hand": HandState.deserialize, "lemuria": LemuriaGame.deserialize,
               "lumen": LumenState.deserialize, "reef": Game.deserialize}


def check_invariants(state: GameState, deserialize) -> None:
    assert isinstance(state, GameState)
    actions = state.legal_actions()
    assert actions == sorted(set(actions)) and all(isinstance(a, int) for a in actions)
    assert state.is_terminal() == (not actions)
    assert len(state.returns()) == state.num_players()
    if state.is_terminal():
        assert state.current_player() == -1
    elif state.is_chance_node():
        assert state.current_player() == CHANCE
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == actions and abs(sum(p for _, p in outcomes) - 1) < 1e-9
    else:
        assert 0 <= state.current_player() < state.num_players()
    copy = deserialize(state.serialize())
    assert copy == state and copy.legal_actions() == actions
    for bad in (max(actions, default=-1) + 1, -1, 0.5, True):
        with pytest.raises(IllegalMoveError):
            state.clone().apply_action(bad)
    for a in actions:
        assert isinstance(state.action_to_string(a), str)


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("seed", range(4))
def test_random_play_keeps_the_protocol(game, seed):
    state = GAMES[game](seed)
    rng = np.random.default_rng(seed)
    for _ in range(2000):
        check_invariants(state, DESERIALIZE[game])
        if state.is_terminal():
            break
        before = state.clone()
        probe = state.clone()
        probe.apply_action(state.legal_actions()[0])
        assert state == before, "applying an action to a clone changed the original"
        actions = state.legal_actions()
        state.apply_action(np.int64(actions[int(rng.integers(len(actions)))]))  # as numpy gives
    assert state.is_terminal()
    with pytest.raises(IllegalMoveError):
        state.apply_action(0)


def _mutate_containers(state: GameState) -> None:
    """Change, in place, every list and dict a state hands out or holds as an attribute."""
    for name in ("moves", "decisions"):
        if hasattr(state, name):
            getattr(state, name)().reverse()
    for value in vars(state).values():
        if isinstance(value, list):
            value.append(None)
        elif isinstance(value, dict):
            value["mutated"] = True


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_clone_and_a_pickled_copy_are_independent(game):
    state = GAMES[game](2)
    for step in range(12):  # a few steps in, short of the end
        after = play_randomly(state, seed=step, max_steps=1)
        if after.is_terminal():
            break
        state = after
    before, first = state.serialize(), state.action_to_string(state.legal_actions()[0])
    _mutate_containers(state.clone())
    assert state.serialize() == before
    assert state.action_to_string(state.legal_actions()[0]) == first
    assert pickle.loads(pickle.dumps(state)) == state == copy.deepcopy(state)


def test_chance_helpers_and_play_randomly_refuse_bad_arguments():
    state = play_randomly(GAMES["lemuria"](1), seed=1, max_steps=5)
    while state.is_chance_node():
        state.resolve_chance()
    with pytest.raises(LumicoreError, match="not a chance node"):
        sample_chance(state, np.random.default_rng(0))
    with pytest.raises(LumicoreError, match="not a chance node"):
        state.resolve_chance()
    for kwargs, name in (({"seed": -1}, "seed"), ({"seed": 1.5}, "seed"),
                         ({"max_steps": None}, "max_steps"), ({"max_steps": -2}, "max_steps")):
        with pytest.raises(LumicoreError, match=name):
            play_randomly(state, **kwargs)


def test_numpy_integers_are_integers_for_every_game():
    for game, players in (("reef", 2), ("lemuria", 2), ("lucia", 2)):
        for seed in np.arange(2):
            state = new_game(game, players=np.int64(players), seed=seed)
            assert state == new_game(game, players=players, seed=int(seed))
            state.serialize()


@pytest.mark.parametrize("seed", range(3))
def test_reef_game_random_play_keeps_the_protocol(seed):
    state = new_game("reef", players=2 + seed, seed=seed, side="AB"[seed % 2])
    rng = np.random.default_rng(seed)
    for step in range(5000):
        if step % 9 == 0 or state.is_terminal():
            check_invariants(state, Game.deserialize)
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        actions = state.legal_actions()
        state.apply_action(actions[int(rng.integers(len(actions)))])
    assert state.is_terminal() and sum(state.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_play_randomly_is_reproducible(game):
    state = GAMES[game](1)
    before = state.serialize()
    one, two = play_randomly(state, seed=7), play_randomly(state, seed=7)
    assert one.is_terminal() and one == two and one.returns() == two.returns()
    # it plays on a clone: the state given is untouched (and so the second run starts afresh)
    assert state.serialize() == before and not state.is_terminal() and state != one


def test_solver_plan_played_through_the_protocol_wins():
    train = scramble(6, seed=3)
    result = solve(train)
    state = PuzzleState.new(train, max_plays=result.cost)
    for play in result.plan:
        trains = [state._legal()[a].train for a in state.legal_actions()]
        state.apply_action(trains.index(play.train))
    assert state.is_terminal() and state.returns() == [1.0]


def test_puzzle_play_cap_ends_without_winning():
    state = PuzzleState.new(Train.parse("h S T h L2 H"), max_plays=1)
    state.apply_action(0)
    assert state.is_terminal() and state.returns() == [0.0]


def best_return(state: GameState) -> float:
    """Exhaustive search over the protocol alone."""
    if state.is_terminal():
        return state.returns()[0]
    best = -np.inf
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        best = max(best, best_return(child))
    return best


@pytest.mark.parametrize("seed", range(4))
def test_reef_hand_exhaustive_play_matches_best_placement(seed):
    state = reef_hand(seed, size=2)
    result = best_placement(state.reef, state.hand, state.limestone, objective="animals:dark")
    assert result.status == "optimal"
    assert best_return(state) == pytest.approx(result.value)


@pytest.mark.parametrize("change, message", [
    ({"plays": -5}, "field 'plays' must be an integer >= 0"),  # 8 plays under a cap of 3
    ({"plays": 4}, r"field 'plays' must be at most max_plays \(3\)"),
    ({"plays": 1.9}, "field 'plays'"),                           # read as 1
    ({"max_plays": "3"}, "field 'max_plays'"),                   # read as 3
    ({"max_plays": True}, "field 'max_plays'"),                  # read as 1
    ({"game": "reef"}, "field 'game'"),
    ({"junk": 1}, "unknown field 'junk'"),
])
def test_a_damaged_puzzle_state_names_its_field(change, message):
    """These were taken silently (the constructor never checked ``plays``)."""
    state = PuzzleState.new("L3 G h G h G T S S h H S H T H H", max_plays=3)
    data = json.loads(state.serialize())
    with pytest.raises(DataError, match=message):
        PuzzleState.deserialize(json.dumps({**data, **change}))
    with pytest.raises(LumicoreError, match="plays must be an integer from 0 to max_plays"):
        PuzzleState(state.train, state.cards, 3, plays=-5)


@pytest.mark.parametrize("text", ["", "[]", '{"game": "lucia-puzzle"}', "not json"])
def test_deserialize_rejects_garbage(text):
    with pytest.raises(DataError):
        PuzzleState.deserialize(text)
    with pytest.raises(DataError):
        HandState.deserialize(text)
    with pytest.raises(DataError):
        Game.deserialize(text)
        LemuriaGame.deserialize(text)


_JUNK = [None, -1, 0, 10**30, "x", [], {}, 1.5, True, 2**64, ""]


def _mutate(obj, rng: np.random.Generator):
    """``obj`` (parsed JSON) with one entry somewhere dropped, repeated or replaced by junk."""
    if isinstance(obj, (dict, list)) and obj:
        keys = list(obj) if isinstance(obj, dict) else list(range(len(obj)))
        key = keys[int(rng.integers(len(keys)))]
        r = rng.random()
        if r < 0.15:
            obj.pop(key)
        elif r < 0.6:
            obj[key] = _mutate(obj[key], rng)
        elif r < 0.7 and isinstance(obj, list):
            obj.append(obj[key])
        else:
            obj[key] = _JUNK[int(rng.integers(len(_JUNK)))]
        return obj
    if isinstance(obj, int) and not isinstance(obj, bool) and rng.random() < 0.5:
        return obj + int(rng.choice([-1, 1, 7, -100]))
    return _JUNK[int(rng.integers(len(_JUNK)))]


@settings(max_examples=150, deadline=None)
@given(game=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32 - 1),
       steps=st.integers(0, 40), edits=st.integers(1, 3))
def test_a_damaged_serialization_loads_playable_or_is_a_data_error(game, seed, steps, edits):
    """Whatever the damage, deserialize raises a LumicoreError or returns a state on which
    every move can be played and shown (checked_load)."""
    rng = np.random.default_rng(seed)
    state = play_randomly(GAMES[game](seed % 4), seed=rng, max_steps=steps)
    data = json.loads(state.serialize())
    for _ in range(edits):
        data = _mutate(data, rng)
    try:
        loaded = DESERIALIZE[game](json.dumps(data))
    except LumicoreError:
        return
    if not loaded.is_terminal():
        actions = loaded.legal_actions()
        assert actions
        loaded.apply_action(actions[int(rng.integers(len(actions)))])
    str(loaded), loaded.serialize()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_state_draws_itself_for_notebooks(game):
    """python-chess style: any position of any game shows as an SVG image in Jupyter."""
    import xml.dom.minidom

    state = GAMES[game](2)
    rng = np.random.default_rng(2)
    for step in range(2000):
        if step % 15 == 0 or state.is_terminal():
            root = xml.dom.minidom.parseString(state._repr_svg_()).documentElement
            assert root.tagName == "svg" and float(root.getAttribute("width")) > 0
        if state.is_terminal():
            break
        actions = state.legal_actions()
        state.apply_action(actions[int(rng.integers(len(actions)))])
