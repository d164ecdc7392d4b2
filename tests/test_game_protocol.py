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
from lumicore.game import (
    CHANCE,
    GameState,
    new_game,
    play_randomly,
    replay_arena_record,
    sample_chance,
)
from lumicore.game import GAMES as REGISTERED
from lumicore.lemuria.game import Game as LemuriaGame
from lumicore.lucia import Action, Card, Deck, Train, load_deck, scramble
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


PUZZLE_CARDS = load_deck().kinds[1::3]
"""A third of the default deck's 15 kinds (moves, a light, a wild, lucia with a light): each
load (checked_load) plays every move and its replies, half a second per state with the whole deck
(lucia-small plays the whole deck)."""

GAMES = {
    "lucia": lambda seed: DealState.new_game(players=1 + seed % 3, seed=seed, deck=SMALL_DECK),
    "lucia-deal": lucia_small_deal,
    "lucia-puzzle": lambda seed: PuzzleState.new(scramble(5, seed=seed), PUZZLE_CARDS,
                                                 max_plays=6),
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


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("seed", range(3))
def test_a_loaded_state_plays_on_as_the_original(game, seed):
    """A state loaded from its serialization equals the original (they serialize alike), but
    that does not show it *plays* alike: what the text leaves out (a deck's hidden order, a
    random generator, a counter) would only show later. Every few steps of a random game a
    loaded copy plays on beside the original, the same actions, chance outcomes included, to
    the end: legal actions, players, returns and serializations stay the same at every step."""
    state = GAMES[game](seed)
    rng = np.random.default_rng(seed)
    loaded = []
    for step in range(2000):
        if step % 5 == 0:
            loaded.append(DESERIALIZE[game](state.serialize()))
        if state.is_terminal():
            break
        actions = state.legal_actions()
        action = actions[int(rng.integers(len(actions)))]
        state.apply_action(action)
        for copy_ in loaded:
            copy_.apply_action(action)
        for copy_ in loaded:
            assert copy_.serialize() == state.serialize(), f"a copy loaded at step {step}"
            assert copy_.legal_actions() == state.legal_actions()
            assert copy_.current_player() == state.current_player()
            assert copy_.returns() == state.returns()
        loaded = loaded[-3:]  # the last few copies: the check stays linear in the game's length
    assert state.is_terminal() and loaded


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
        legal = state._legal()  # once a state: each call builds every action's play
        trains = [legal[a].train for a in state.legal_actions()]
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


# ------------------------------------------------------------------------------------------
# what every registered game (lumicore.game.GAMES) does alike

OPTIONS = {"reef": "side, scoreboard, tiles, auto_chance", "lumen": "scenario, board",
           "lemuria": "impact, buildings, characters, altar, impacts", "lucia": "deck, setup"}
"""The options each registered game takes, as new_game lists them."""


def test_every_registered_game_lists_its_options_here():
    assert sorted(OPTIONS) == sorted(REGISTERED)


@pytest.mark.parametrize("name", sorted(REGISTERED))
def test_an_option_the_game_does_not_have_is_named(name):
    """``new_game("reef", bogus=1)`` (any game) was a TypeError from the game's factory."""
    with pytest.raises(LumicoreError, match=rf"^game '{name}' has no option 'bogus' "
                                            rf"\(its options: {OPTIONS[name]}\)$"):
        new_game(name, bogus=1)
    with pytest.raises(LumicoreError, match=rf"^game '{name}' has no options 'bogus', "
                                            rf"'{'x' * 80}\.\.\.' \("):
        new_game(name, bogus=1, **{"x" * 500: 2})
    # an arena record with such an option is that record's error (Lucia's record rules name
    # the options they take before the game is made)
    record = {"game": name, "players": 2, "seed": 0, "options": {"bogus": 1}, "actions": []}
    with pytest.raises(DataError, match="game record: .*bogus"):
        replay_arena_record(record)


@pytest.mark.parametrize("name", sorted(REGISTERED))
@pytest.mark.parametrize("argument, value", [
    ("players", 2.0), ("players", True), ("players", "2"), ("players", np.float64(2)),
    ("seed", 1.0), ("seed", True), ("seed", "1"),
])
def test_players_and_seed_must_be_integers_in_every_game(name, argument, value):
    """Lumen took ``players=2.0`` (it checked only ``players != 2``); every game refuses a
    players or seed that is no integer (a bool is none) naming the argument."""
    with pytest.raises(LumicoreError, match=argument):
        new_game(name, **{argument: value})
    assert new_game(name, players=np.int64(2), seed=np.int64(1)) == new_game(name, seed=1)


PLAYERS = {"reef": "an integer from 2 to 4 for Lumicora",
           "lemuria": "an integer from 2 to 4 for Lemuria",
           "lucia": "an integer from 1 to 4 for Lucia", "lumen": "the integer 2 for Lumen"}
"""What each registered game says ``players`` must be (its range, in the same words for all)."""


def test_every_registered_game_has_its_players_rule_here():
    assert sorted(PLAYERS) == sorted(REGISTERED)


@pytest.mark.parametrize("name", sorted(REGISTERED))
@pytest.mark.parametrize("value, shown", [
    (0, "'0'"), (9, "'9'"), (2.0, "'2.0'"), (True, "'True'"), ("2", "'2'"),
    (np.int64(9), "'9'"), (10**30, f"'{10**30}'"),
])
def test_a_bad_players_is_the_same_message_in_every_game(name, value, shown):
    """Each game worded its check of players its own way ("Lemuria is played by 2 to 4 players,
    got 9" unquoted, "Lumicora is for 2 to 4 players, got '9'", "Lumen is a game for 2 players,
    got '9'", "players must be an integer from 1 to 4, got '9'")."""
    message = f"players must be {PLAYERS[name]}, got {shown}"
    with pytest.raises(LumicoreError) as info:
        new_game(name, players=value, seed=0)
    assert str(info.value) == message


@pytest.mark.parametrize("name", sorted(REGISTERED))
@pytest.mark.parametrize("seed", range(3))
def test_equal_states_are_those_that_serialize_alike(name, seed):
    """The protocol's ``==``: the same data written by ``serialize()``, and equal states hash
    alike (Lemuria's states did not hash, Lumen's ``==`` left out the seed and history)."""
    state = play_randomly(new_game(name, seed=seed), seed=seed, max_steps=5 + 11 * seed)
    assert not state.is_terminal()
    copy, loaded = state.clone(), type(state).deserialize(state.serialize())
    for twin in (copy, loaded):
        assert twin == state and hash(twin) == hash(state)
    after = state.clone()
    after.apply_action(after.legal_actions()[-1])
    assert after != state and hash(after) != hash(state)
    assert len({state, copy, loaded, after}) == 2
    fresh, other = new_game(name, seed=seed), new_game(name, seed=seed + 100)
    same = json.loads(fresh.serialize()) == json.loads(other.serialize())
    assert (fresh == other) == same and (fresh != other) != same


def test_lumen_states_that_differ_only_in_history_are_not_equal():
    """Lumen's ``==`` compared the position alone: two states whose history differs were equal
    though they serialize (and record) differently."""
    state = play_randomly(new_game("lumen", seed=1), seed=1, max_steps=12)
    data = json.loads(state.serialize())
    data["history"] = data["history"][::-1]
    other = LumenState.deserialize(json.dumps(data))
    assert other.history != state.history and other != state


@pytest.mark.parametrize("reader", sorted(REGISTERED))
@pytest.mark.parametrize("writer", sorted(REGISTERED))
def test_a_serialization_of_another_game_is_refused_by_its_game_field(reader, writer):
    """The reef's serializations had no ``game``: other games called them "field 'game' is
    missing" and the reef called another game's an unknown or missing field."""
    text = new_game(writer, seed=1).serialize()
    assert json.loads(text)["game"] == writer
    if reader != writer:
        with pytest.raises(DataError, match=rf"field 'game' must be \"{reader}\", "
                                            rf"got \"{writer}\""):
            type(new_game(reader)).deserialize(text)


def test_a_reef_state_written_before_it_named_its_game_still_loads():
    state = play_randomly(new_game("reef", players=3, seed=3), seed=3, max_steps=40)
    data = json.loads(state.serialize())
    old = {key: value for key, value in data.items() if key != "game"}
    loaded = Game.deserialize(json.dumps(old))
    assert loaded == state and loaded.serialize() == state.serialize()
    for bad in ("lumen", "Reef", None, 1, True):
        with pytest.raises(DataError, match="^serialized reef game: field 'game' must be "
                                            '"reef", got '):
            Game.deserialize(json.dumps({**data, "game": bad}))
