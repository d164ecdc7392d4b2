"""Lucia's own arena bot ``best`` (solvers/lucia/bots.py) and solo tournaments."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from lumicore.errors import IllegalMoveError, LumicoreError
from lumicore.lucia import Action, Card, Train
from lumicore.lucia.deal import deal
from lumicore.lucia.deal_game import DealState
from solvers.arena import make_bot, tournament
from solvers.lucia.bots import BestBot
from solvers.lucia.play import best_play


def _decision(seed: int) -> DealState:
    return DealState.from_deal(deal(seed, players=2))


def test_the_best_bot_plays_what_best_play_ranks_first() -> None:
    light, lucia = Card((Action.light("T"),)), Card((Action.lucia(),))
    state = DealState(Train.parse("H L4 T"), (light, lucia), [[0, 1]], order=[0])
    action = BestBot(seed=0, samples=4).choose(state)
    ranking = best_play(state.train, [light, lucia], [light], samples=4)
    assert ranking.best.wins == 4 > ranking.plays[-1].wins  # a play that wins every sample
    card, after = ranking.best.play.card, ranking.best.play.train
    assert state.action_to_string(action) == f"player 1: {card.name} => {after}"


@pytest.mark.parametrize("seed", [1, 2])
def test_the_best_bot_never_reads_the_decks_order(seed: int) -> None:
    """It knows the unseen cards as a multiset: the same position with the deck (and the other
    hands' cards, which it has not seen either) in another order gets the same choice."""
    state = _decision(seed)
    rng = np.random.default_rng(seed)
    shuffled = state.clone()
    unseen = [*shuffled.order, *shuffled.hands[1]]
    rng.shuffle(unseen)
    shuffled.hands[1] = sorted(unseen[:len(state.hands[1])])
    shuffled.order = unseen[len(state.hands[1]):]
    assert shuffled.unseen() == state.unseen() and shuffled.order != state.order
    choices = {BestBot(seed=3, samples=6).choose(s) for s in (state, shuffled)}
    assert len(choices) == 1 and choices <= set(state.legal_actions())


def test_the_best_bot_is_found_by_the_arena_with_its_options() -> None:
    bot = make_bot("best", "lucia", seed=1, samples=3, max_nodes=500)
    assert isinstance(bot, BestBot) and bot.samples == 3 and bot.max_nodes == 500
    state = _decision(4)
    assert bot.choose(state) == make_bot("best", "lucia", seed=1, samples=3,
                                         max_nodes=500).choose(state)  # seeded


@pytest.mark.parametrize("options, message", [
    ({"samples": 0}, "samples must be a positive integer"),
    ({"samples": True}, "samples must be a positive integer"),
    ({"max_nodes": 0}, "max_nodes"),
    ({"time_limit": float("nan")}, "time_limit"),
    ({"seed": -1}, "seed"),
])
def test_the_best_bot_refuses_bad_options(options: dict, message: str) -> None:
    with pytest.raises(LumicoreError, match=message):
        BestBot(**options)


def test_the_best_bot_chooses_at_decisions_only() -> None:
    state = DealState.new_game(seed=0)
    assert state.is_chance_node()
    with pytest.raises(LumicoreError, match="decision node only"):
        BestBot().choose(state)
    with pytest.raises(LumicoreError, match="Lucia DealState"):
        BestBot().choose(object())


def test_action_of_play_is_the_decision_that_makes_it() -> None:
    state = _decision(5)
    hand = [state.kinds[k] for k in state.hands[0]]
    for card in hand:
        for play in state.train.plays(card):
            after = state.clone()
            after.apply_action(state.action_of_play(play))
            assert after.train == play.train
    other = next(p for p in Train.parse("H L4 T").plays(Card((Action.lucia(),))))
    with pytest.raises(IllegalMoveError, match="not a legal play here"):
        state.action_of_play(dataclasses.replace(other))


def test_a_solo_tournament_of_lucia_counts_each_bots_deals() -> None:
    """A tournament had 2 to 4 players in every game; Lucia is co-operative and may be played
    alone, so one player is a tournament of its own there (each bot at its table)."""
    result = tournament("lucia", ["greedy", "best:samples=2:max_nodes=200"], players=1, games=1,
                        seed=4, workers=1, progress=False)  # seed 4: games of 13 and 11 actions
    assert result.players == 1 and result.deals == 1 and result.played == 2
    assert {label: r.games for label, r in result.bots.items()} == {
        "greedy": 1, "best:samples=2:max_nodes=200": 1}
    with pytest.raises(LumicoreError, match="from 2 to 4 for Lumicora"):  # competitive: two or more
        tournament("reef", ["random", "greedy"], players=1, games=1, workers=1)


def test_a_solo_tournament_command_says_one_player(capsys) -> None:
    from solvers.cli import main

    assert main(["lucia", "tournament", "--bots", "greedy", "--players", "1", "--games", "1",
                 "--seed", "4", "--workers", "1"]) == 0  # seed 4: a short game (seed 0: seconds)
    assert capsys.readouterr().out.startswith(
        "lucia: 1 of 1 games (each bot on the same 1 deal), 1 player, seed 4 (done)")


def test_best_play_ranks_the_same_whatever_the_order_of_the_unseen_cards() -> None:
    """lucia play passed the deck in its real (hidden) order, and the samples were drawn from
    that list: the ranking of one seed differed with the deck's order."""
    state = _decision(1)
    hand = [state.kinds[k] for k in state.hands[0]]
    unseen = list(state.unseen().elements())
    rankings = []
    for seed in range(2):
        shuffled = list(unseen)
        np.random.default_rng(seed).shuffle(shuffled)
        ranking = best_play(state.train, hand, shuffled, players=2, samples=6, seed=3)
        rankings.append([(str(e.play), e.wins, e.trials) for e in ranking.plays])
    assert rankings[0] == rankings[1]


def _dealt(players: int, seed: int) -> DealState:
    state = DealState.new_game(players=players, seed=seed)
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("seed", range(3))
def test_a_resampled_world_keeps_what_the_player_knows(seed: int) -> None:
    state = _dealt(3, seed)
    for player in range(3):
        world = state.resample_from_infostate(player, np.random.default_rng(seed))
        assert world.hands[player] == state.hands[player] and world.train == state.train
        assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
        assert (world.mover, world.owed) == (state.mover, state.owed)
        assert sum(world.counts) == sum(state.counts)
        mine = sorted(state.hands[player])
        everything = sorted(sum(state.hands, []) + [k for k, n in enumerate(state.counts)
                                                    for _ in range(n)])
        assert sorted(sum(world.hands, []) + [k for k, n in enumerate(world.counts)
                                              for _ in range(n)]) == everything
        assert mine == world.hands[player]
    solo = _dealt(1, seed)
    assert solo.resample_from_infostate(0, np.random.default_rng(0)) == solo


@pytest.mark.parametrize("bot, options", [("flatmc", {"playouts": 1, "cutoff": 6}),
                                          ("mcts", {"iterations": 12, "cutoff": 6})])
def test_the_search_bots_do_not_read_their_partners_hands(bot: str, options: dict) -> None:
    """flatmc and mcts searched copies of the whole table, the partners' hands included (the
    rulebook: "do not show the cards to each other"): two positions the mover cannot tell
    apart, the partners' hands swapped, got other choices from the same seed."""
    differ = 0
    for seed in range(3):
        state = _dealt(3, seed)
        swapped = state.clone()
        swapped.hands[1], swapped.hands[2] = swapped.hands[2], swapped.hands[1]
        moved = swapped.resample_from_infostate(0, np.random.default_rng(seed))
        differ += moved.hands != state.hands
        picks = {make_bot(bot, "lucia", seed=7, **options).choose(s)
                 for s in (state, swapped, moved)}
        assert len(picks) == 1, seed
    assert differ  # the positions compared are other tables
