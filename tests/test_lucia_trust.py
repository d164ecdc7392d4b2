"""Lucia: no wrong answers from equivalent cards, one-line errors for bad limits and seeds."""

from __future__ import annotations

import pytest

from lumicore.errors import LumicoreError
from lumicore.lucia import Action, Card, random_train, scramble
from solvers.cli import main
from solvers.lucia import search_kinds, solve

WILD1 = Card((Action.wild(1),))
ALL1 = Card((Action.move("LHTSG", 1),))
LIGHT_T = Card((Action.light("T"),))


def test_equivalent_cards_keep_exactly_one():
    assert WILD1.covers(ALL1) and ALL1.covers(WILD1) and WILD1 != ALL1
    assert search_kinds([WILD1, ALL1, LIGHT_T]) == (WILD1, LIGHT_T)
    assert search_kinds([ALL1, WILD1, LIGHT_T]) == (ALL1, LIGHT_T)
    assert search_kinds([ALL1, WILD1]) == (ALL1,)


@pytest.mark.parametrize("algorithm", ["bfs", "astar", "idastar"])
def test_twin_cards_solve_like_one(algorithm):
    alone = solve("S h T h L0", [WILD1, LIGHT_T], algorithm=algorithm)
    twins = solve("S h T h L0", [WILD1, ALL1, LIGHT_T], algorithm=algorithm)
    assert alone.status == twins.status == "optimal"
    assert twins.cost == alone.cost == 12
    assert solve("L0 h T", [WILD1, ALL1], algorithm=algorithm).status == "unsolvable"


def test_twin_deck_file_on_the_command_line(tmp_path, capsys):
    deck = tmp_path / "twins.toml"
    deck.write_text('[[card]]\nactions = [{ kind = "wild", steps = 1 }]\n'
                    '[[card]]\nactions = [{ kind = "move", roles = "LHTSG", steps = 1 }]\n'
                    '[[card]]\nactions = [{ kind = "light", source = "T" }]\n')
    code = main(["lucia", "solve", "S h T h L0", "--deck", str(deck)])
    assert code == 0 and "status: optimal  cost: 12" in capsys.readouterr().out


@pytest.mark.parametrize("kwargs", [{"time_limit": "5"}, {"time_limit": [1]},
                                    {"max_nodes": "100"}, {"max_nodes": 2.5},
                                    {"max_nodes": [1]}, {"time_limit": True}])
def test_limits_of_the_wrong_type(kwargs):
    with pytest.raises(LumicoreError):
        solve("L0 h T", **kwargs)


@pytest.mark.parametrize("seed", [-1, 2**63, 1.5, "3", True])
def test_bad_seeds(seed):
    with pytest.raises(LumicoreError, match="seed"):
        random_train(seed)
    with pytest.raises(LumicoreError, match="seed"):
        scramble(2, seed=seed)


def test_largest_seed_and_generator_are_fine():
    import numpy as np
    assert random_train(2**63 - 1).is_standard
    assert random_train(np.random.default_rng(1)) == random_train(1)


def test_scramble_needs_cards_and_a_sane_depth():
    with pytest.raises(LumicoreError, match="card"):
        scramble(3, cards=[])
    with pytest.raises(LumicoreError, match="card"):
        scramble(3, cards=["wild 1"])
    with pytest.raises(LumicoreError, match="depth"):
        scramble(1_000_000_000)


@pytest.mark.parametrize("argv", [["random", "--seed", "-1"], ["scramble", "--depth", "3",
                                  "--seed", "-1"], ["scramble", "--depth", "1000000000"],
                                  ["random", "--seed", str(2**63)]])
def test_cli_bad_seed_or_depth_is_one_line_exit_2(argv, capsys):
    code = main(["lucia", *argv])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("lumicore: error: ") and err.count("\n") == 1


def test_random_and_scramble_json(capsys):
    import json
    assert main(["lucia", "random", "--seed", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["train"] == str(random_train(3)) and data["seed"] == 3
    assert main(["lucia", "scramble", "--depth", "3", "--seed", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["train"] == str(scramble(3, seed=1)) and data["depth"] == 3
