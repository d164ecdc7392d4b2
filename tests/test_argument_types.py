"""Arguments as users pass them from numpy and pathlib: a numpy integer is the same as the int
(and is stored as an int), an array or a float is no action, a ``Path`` is always a file."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from lumicore.data import data_dir, file_version
from lumicore.errors import IllegalMoveError, LumicoreError
from lumicore.lemuria import default_income
from lumicore.lucia import Deal, load_deck, random_train
from lumicore.lucia.deal import game_deck
from lumicore.lumen.game import GameState
from lumicore.reef.board import load_board
from solvers.arena import make_bot, play_game


def _lumen_choice() -> GameState:
    state = GameState.new_game(seed=1)
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node()
                           else state.legal_actions()[-1])
    return state


def test_lumen_best_choice_takes_a_numpy_seed():
    """The kernel playouts' seeds were worked out from the numpy value (an OverflowError)."""
    from solvers.lumen import best_choice

    state = _lumen_choice()
    plain = best_choice(state, time_limit=None, seed=3, min_samples=4, max_nodes=2_000)
    for seed in (np.int64(3), np.int32(3)):
        ranked = best_choice(state, time_limit=None, seed=seed, min_samples=4, max_nodes=2_000)
        assert ranked.choices == plain.choices and ranked.nodes == plain.nodes


@pytest.mark.parametrize("game, bot", [("lemuria", "planner"), ("lumen", "greedy"),
                                       ("reef", "random")])
def test_bots_keep_a_numpy_seed_as_an_int(game, bot):
    made = make_bot(bot, game, seed=np.int64(1))
    seeds = [v for k, v in vars(made).items() if k == "seed"]
    assert all(type(s) is int for s in seeds)


def test_the_lemuria_planner_bot_keeps_its_seed_as_an_int():
    """Its turn's seed, seed + turn modulo 2**63, overflowed a numpy seed at the first turn."""
    from solvers.lemuria.turn import PlannerBot

    assert type(PlannerBot(seed=np.int64(1)).seed) is int


def test_a_deal_stores_plain_players_and_checks_its_seed():
    train, deck = random_train(1), tuple(load_deck().cards)
    d = Deal(train, deck, players=np.int64(2), seed=np.int64(7))
    assert type(d.players) is int and type(d.seed) is int
    assert "2 players" in repr(d) or "players=2" in repr(d)
    assert Deal.from_json(d.to_json()) == d and json.loads(d.to_json())["seed"] == 7
    for bad in (-5, "abc", 2**70, True):
        with pytest.raises(LumicoreError, match="seed"):
            Deal(train, deck, seed=bad)


@pytest.mark.parametrize("turns", [True, -3, 0, 13, 2.5, np.float64(2)])
def test_default_income_checks_turns(turns):
    with pytest.raises(LumicoreError, match="turns must be an integer from 1 to 12"):
        default_income(turns, 5)


def test_default_income_takes_a_numpy_turn_count():
    assert default_income(np.int64(4), 5) == default_income(4, 5)


class _Chooses:
    def __init__(self, pick):
        self.pick = pick

    def choose(self, state):
        return self.pick(state.legal_actions())


@pytest.mark.parametrize("pick", [lambda legal: np.array([legal[0]]),
                                  lambda legal: np.array([legal[0], legal[0]]),
                                  lambda legal: float(legal[0])])
def test_an_arena_bot_must_answer_an_integer(pick):
    with pytest.raises(IllegalMoveError, match="not a legal action"):
        play_game("reef", [_Chooses(pick), _Chooses(pick)], seed=1)


def test_an_arena_bot_may_answer_a_numpy_integer():
    record, _ = play_game("reef", [_Chooses(lambda legal: np.int64(legal[0]))] * 2, seed=1)
    assert all(type(a) is int for a in record["actions"])


def test_a_path_is_always_a_file(tmp_path, monkeypatch):
    """A Path whose text is a built-in name read the built-in data, not the user's file."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(data_dir() / "lucia_deck_calibrated.toml", "default")
    shutil.copy(data_dir() / "reef_b.txt", "A")
    assert load_deck(Path("default")).cards == load_deck(data_dir() / "lucia_deck_calibrated.toml"
                                                          ).cards
    assert load_deck("default").cards != load_deck(Path("default")).cards  # the name: built-in
    assert game_deck(Path("default")).cards == load_deck(Path("default")).cards
    assert load_board(Path("A")) == load_board("B") != load_board("A")
    # the caches of loaded files tell them apart too
    assert file_version("default") != file_version(Path("default"))


def test_a_tournament_takes_a_numpy_game_count():
    from solvers.arena import tournament

    plain = tournament("reef", ["random", "greedy"], games=2, seed=1, workers=1)
    numpy = tournament("reef", ["random", "greedy"], games=np.int64(2), seed=1, workers=1)
    assert numpy.to_dict()["games"] == plain.to_dict()["games"] == 2
    assert json.dumps(numpy.to_dict()["games"])


def test_a_lumen_bubble_is_named_by_integers():
    from lumicore.lumen.sheet import load_layout

    layout = load_layout("default")
    row, column = layout.cells[3]
    assert layout.index((np.int64(row), np.int32(column))) == layout.index((row, column)) == 3
    for bad in ((True, column) if row == 1 else (row, float(column)), (float(row), column)):
        with pytest.raises(LumicoreError, match="no bubble at"):
            layout.index(bad)
