"""Lumen through the generic GameState protocol: random play-outs check every invariant of
``lumicore.game`` (two players, chance nodes) at every step, the registry makes the game, and
play-outs are reproducible."""

from __future__ import annotations

import numpy as np
import pytest

from lumicore.errors import IllegalMoveError
from lumicore.game import CHANCE, GAMES, TERMINAL, GameState, new_game, play_randomly, sample_chance
from lumicore.lumen.game import GameState as LumenState


def check_invariants(state: LumenState) -> None:
    assert isinstance(state, GameState)
    actions = state.legal_actions()
    assert actions == sorted(set(actions)) and all(isinstance(a, int) for a in actions)
    assert state.is_terminal() == (not actions)
    assert len(state.returns()) == state.num_players() == 2
    player = state.current_player()
    if state.is_terminal():
        assert player == TERMINAL
    elif state.is_chance_node():
        assert player == CHANCE
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == actions
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert all(p > 0 for _, p in outcomes)
    else:
        assert player in (0, 1) and state.chance_outcomes() == []
    copy = LumenState.deserialize(state.serialize())
    assert copy == state and copy.legal_actions() == actions
    for bad in (len(actions), -1, 0.5, True):
        with pytest.raises(IllegalMoveError):
            state.clone().apply_action(bad)
    assert all(isinstance(state.action_to_string(a), str) for a in actions)
    values = state.evaluate()
    assert len(values) == 2 and all(0.0 <= v <= 1.0 for v in values)


@pytest.mark.parametrize("seed", range(3))
def test_random_play_keeps_the_protocol(seed):
    state = new_game("lumen", players=2, seed=seed)
    rng = np.random.default_rng(seed)
    for step in range(3000):
        if step % 7 == 0 or state.is_terminal():
            check_invariants(state)
        if state.is_terminal():
            break
        before = state.clone()
        probe = state.clone()
        probe.apply_action(state.legal_actions()[0])
        assert state == before, "applying an action to a clone changed the original"
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            actions = state.legal_actions()
            state.apply_action(actions[int(rng.integers(len(actions)))])
    assert state.is_terminal()
    assert sorted(state.returns()) in ([0.0, 1.0], [0.0, 0.0])
    assert state.evaluate() == state.returns()
    with pytest.raises(IllegalMoveError):
        state.apply_action(0)


def test_registered():
    assert "lumen" in GAMES
    assert isinstance(new_game("lumen", seed=5), LumenState)


def test_play_randomly_is_reproducible():
    state = LumenState.new_game(seed=1)
    one, two = play_randomly(state, seed=7), play_randomly(state, seed=7)
    assert one.is_terminal() and one == two and one.returns() == two.returns()
    assert not state.is_terminal()
