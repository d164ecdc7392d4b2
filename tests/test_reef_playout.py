"""Whole random games in the kernel against the pure-Python twin (same seed, same game), and the
twin's decisions replayed through the game engine."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lumicore.errors import LumicoreError
from lumicore.reef import kernel, load_board, load_tiles, reference
from lumicore.reef.game import Game

TILES = load_tiles()


def arguments(players: int, seed: int, side: str, light: bool):
    return (players, seed, load_board(side), TILES.for_players(players), TILES.starts,
            0 if players == 2 else 6, light, side == "B")


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**63 - 1), side=st.sampled_from("AB"),
       light=st.booleans())
def test_kernel_playout_is_the_reference_playout(players, seed, side, light):
    args = arguments(players, seed, side, light)
    ref, fast = reference.playout(*args), kernel.playout(*args)
    for key in ("totals", "vp", "limestone", "jellyfish", "rounds"):
        assert fast[key] == ref[key], key
    assert fast["decisions"] == len(ref["decisions"])


@pytest.mark.parametrize("players, seed, side, light", [(2, 1, "A", False), (3, 7, "B", True),
                                                        (4, 12, "A", True)])
def test_reference_playout_replays_through_the_game(players, seed, side, light):
    ref = reference.playout(*arguments(players, seed, side, light))
    game = Game.replay({"format": "lumicore-reef-game", "version": 1, "players": players,
                        "seed": seed, "side": side, "scoreboard": "light" if light else "dark",
                        "decisions": ref["decisions"]})
    assert game.is_terminal() and game.totals() == ref["totals"]
    assert game.limestone == ref["limestone"] and game.round == ref["rounds"]


def test_play_many_counts_wins_of_the_single_games():
    args = arguments(3, 100, "A", False)
    wins = kernel.playout(*args, count=20)
    expected = [0.0, 0.0, 0.0]
    for seed in range(100, 120):
        game = kernel.playout(*arguments(3, seed, "A", False))
        keys = list(zip(game["totals"], game["limestone"], strict=True))
        best = [p for p, k in enumerate(keys) if k == max(keys)]
        for p in best:
            expected[p] += 1 / len(best)
    assert wins == pytest.approx(expected) and sum(wins) == pytest.approx(20)


@pytest.mark.parametrize("players, size", [(2, 26), (4, 44)])
def test_a_small_bag_runs_out_the_same_way_in_both(players, size):
    """With a small bag the emergency stack is needed and games end early."""
    rounds = []
    for seed in range(8):
        args = (players, seed, load_board("A"), TILES.for_players(4)[:size], TILES.starts,
                6 if players > 2 else 0, False, False)
        ref, fast = reference.playout(*args), kernel.playout(*args)
        assert (fast["totals"], fast["rounds"]) == (ref["totals"], ref["rounds"])
        rounds.append(ref["rounds"])
    assert min(rounds) < 10


@pytest.mark.parametrize("bad", [{"players": 5}, {"seed": -1}, {"seed": 2**63},
                                 {"count": -1}, {"players": True}])
def test_playout_rejects_bad_arguments(bad):
    values = dict(players=2, seed=0, count=None) | bad
    args = arguments(2, 0, "A", False)
    with pytest.raises(LumicoreError):
        kernel.playout(values["players"], values["seed"], *args[2:], count=values["count"])


@pytest.mark.parametrize("position,bad,name", [
    (5, 6.9, "emergency"), (5, "6", "emergency"), (5, True, "emergency"), (5, -1, "emergency"),
    (6, "no", "light"), (6, 1, "light"), (6, None, "light"), (7, "yes", "penalties")])
def test_emergency_light_and_penalties_must_be_of_their_type(position, bad, name):
    """int() took emergency 6.9 or "6" as 6 and bool() light "no" as True; each is refused."""
    args = list(arguments(3, 1, "A", False))
    args[position] = bad
    with pytest.raises(LumicoreError, match=f"{name} must be"):
        kernel.playout(*args)


@pytest.mark.parametrize("position", [3, 4])
@pytest.mark.parametrize("bad", [None, 5, "blue 2", {"a": 1}])
def test_luminos_and_starts_that_are_no_sequence_are_named(position, bad):
    """A number or None for the Luminos or the starting Luminos raised Python's "object is not
    iterable" TypeError; a LumicoreError names what a play-out needs."""
    args = list(arguments(2, 1, "A", False))
    args[position] = bad
    with pytest.raises(LumicoreError, match="Luminos"):
        kernel.playout(*args)
