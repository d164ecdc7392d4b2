"""Copies and pickles of the games' objects, as notebooks, caches and worker processes make
them: equal objects hash alike in any process, copies are independent, kernel objects say what
to send instead."""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from lumicore.game import GAMES, new_game, play_randomly
from lumicore.lumen import kernel as lumen_kernel
from lumicore.lumen.game import GameState
from lumicore.reef import Lumino, Reef, load_board
from lumicore.reef import kernel as reef_kernel

ROOT = Path(__file__).resolve().parents[1]


def _reef() -> Reef:
    start = Reef.new(load_board("A"), start=("pink", "green"))
    return start.place(next(start.placements(Lumino("pink", 3, "crab"), limestone=2)))


def test_a_pickled_reef_hashes_as_an_equal_one_built_in_another_process():
    """The hash a reef caches is of its process's salted string hashes; a pickle carried it to
    processes whose equal reefs hash otherwise (a dict keyed by reefs missed them)."""
    reef = _reef()
    blob = pickle.dumps({reef: "cached"})  # hashing it for the dict caches the hash
    code = ("import pickle, sys; from tests.test_pickling import _reef; "
            "d = pickle.loads(sys.stdin.buffer.read()); print(_reef() in d)")
    for salt in ("1", "2"):
        env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED=salt)
        out = subprocess.run([sys.executable, "-c", code], input=blob, capture_output=True,
                             env=env, cwd=ROOT, check=True).stdout
        assert out.strip() == b"True"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_copy_copy_of_a_state_is_independent(game):
    state = play_randomly(new_game(game, players=2, seed=3), seed=20, max_steps=20)
    before = state.serialize()
    other = copy.copy(state)
    assert other == state and other is not state
    other.apply_action(other.legal_actions()[-1])
    assert state.serialize() == before
    after = other.serialize()
    state.apply_action(state.legal_actions()[0])
    assert other.serialize() == after


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_every_game_state_pickles_at_every_protocol(protocol):
    for game in sorted(GAMES):
        state = play_randomly(new_game(game, players=2, seed=3), seed=5, max_steps=10)
        back = pickle.loads(pickle.dumps(state, protocol))
        assert back == state and back.legal_actions() == state.legal_actions()


def test_kernel_objects_say_what_to_pickle_instead():
    state = reef_kernel.state(_reef())
    assert copy.copy(state) is not state and copy.deepcopy(state) is not state
    with pytest.raises(TypeError, match="pickle the Reef"):
        pickle.dumps(state)
    with pytest.raises(TypeError, match="pickle the GameState"):
        pickle.dumps(lumen_kernel.setup(GameState.new_game(seed=1)))
