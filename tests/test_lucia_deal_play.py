"""Best play with a hidden deck (perfect-information Monte Carlo), greedy play, whole games."""

from __future__ import annotations

import json

import pytest
from damage_helpers import check_damage, states

from lumicore.errors import DataError, LumicoreError
from lumicore.lucia import Action, Card, Deck, Train
from lumicore.lucia.deal import Deal, heuristic_table
from lumicore.lucia.deal_game import DealState
from lumicore.lucia.deal_reference import after_play, plays, winnable
from lumicore.lucia.heuristic import build_table, estimate
from solvers.cli import main
from solvers.lucia import best_play, greedy_play, play_game, solve_deal

LT, LU, W1, LH = (Card((a,)) for a in (Action.light("T"), Action.lucia(), Action.wild(1),
                                        Action.light("H")))


def test_a_deck_of_one_kind_makes_every_estimate_exact():
    """With all unseen cards alike every sample is the true deck: each play's estimate is 0 or 1
    and equals the exhaustive answer for the game after it."""
    train, hand, unseen = Train.parse("h T H L2 h"), [LT, LU, W1], [LH] * 5
    ranking = best_play(train, hand, unseen, samples=3)
    assert ranking.samples == 3
    assert {(e.card, e.play.train) for e in ranking.plays} == set(plays(train, hand))
    for e in ranking.plays:
        assert e.trials == 3 and e.wins in (0, 3)
        won = e.play.train.is_goal() or winnable(
            e.play.train, *after_play((tuple(hand),), 0, e.card, tuple(unseen))[::2])
        assert (e.wins == 3) == won, str(e)
    assert [e.rate for e in ranking.plays] == sorted((e.rate for e in ranking.plays),
                                                     reverse=True)


def test_a_heuristic_table_is_found_by_its_kinds_whatever_holds_them():
    """The cache finds a tuple of kinds by identity first (a state and its clones share it),
    then by the cards: equal kinds in another tuple or a list get the same table, other kinds
    their own."""
    train, kinds = Train.parse("h T H L2 h"), (LT, LU, W1, LH)
    table = heuristic_table(kinds, train)
    assert heuristic_table(kinds, train) is table
    assert heuristic_table(tuple(list(kinds)), train) is table
    assert heuristic_table(list(kinds), train) is table
    fewer = heuristic_table((LT, W1), train).values
    assert (fewer == build_table((LT, W1), train).values).all()
    assert fewer.shape != table.values.shape or (fewer != table.values).any()


def test_two_player_samples_deal_the_partner_a_hand():
    train = Train.parse("H L3 T")
    ranking = best_play(train, [LH, LH, LH], [LU, LT, LT, LT], players=2, samples=5, seed=1)
    assert ranking.best.wins == ranking.best.trials == 5   # light from H: L4, any hand then wins
    with pytest.raises(LumicoreError, match="hand_sizes"):
        best_play(train, [LH], [LU], players=2, hand_sizes=[3])


def test_estimates_are_reproducible_and_intervals_contain_the_rate():
    args = (Train.parse("h T H L2 h"), [LT, LU, W1], [LH, LT, LU, W1, LH, LH])
    one, two = best_play(*args, samples=20, seed=4), best_play(*args, samples=20, seed=4)
    assert [(str(e.play), e.wins) for e in one.plays] == [(str(e.play), e.wins) for e in two.plays]
    for e in one.plays:
        assert e.low <= e.rate <= e.high


def test_best_play_takes_any_node_limit():
    train = Train.parse("H L3 T")
    huge = best_play(train, [LH, LT], [LU, LT, LT], samples=3, max_nodes=10**30)
    free = best_play(train, [LH, LT], [LU, LT, LT], samples=3, max_nodes=None)
    assert huge.plays == free.plays and huge.samples == free.samples == 3


def test_greedy_takes_the_play_with_the_lowest_heuristic():
    train, hand = Train.parse("h T H L2 h"), [LT, LU, W1]
    play = greedy_play(train, hand)
    table = heuristic_table(tuple(hand), train)
    assert estimate(play.train, table) == min(estimate(t, table) for _, t in plays(train, hand))
    assert greedy_play(Train.parse("L3 T h"), [LU]) is None
    assert best_play(Train.parse("L3 T h"), [], [LU]).plays == []


def test_whole_games_end_and_wins_only_on_winnable_deals():
    deck = (LT, LU, W1, LH, LH, LT, LU, W1, LH, LT)
    for players in (1, 2):
        d = Deal(Train.parse("h T H L2 h"), deck, players)
        exact = solve_deal(d).status
        for policy in ("greedy", "best"):
            record = play_game(d, policy, samples=10)
            assert record.won in (True, False)
            if record.won:
                assert exact == "winnable" and record.turns[-1][2].train.is_goal()
            assert [p for p, *_ in record.turns] == [i % players + 1
                                                     for i in range(len(record.turns))]


@pytest.mark.parametrize("kwargs, match", [
    ({"samples": 0}, "samples"), ({"players": 9}, "players"), ({"hand": [LT] * 4}, "hand"),
    ({"unseen": ["x"]}, "Card"), ({"seed": -1}, "seed"), ({"time_limit": -2.0}, "time_limit"),
])
def test_bad_input(kwargs, match):
    args = {"train": Train.parse("H L3 T"), "hand": [LT], "unseen": [LU], **kwargs}
    with pytest.raises(LumicoreError, match=match):
        best_play(**args)


def test_cli_play_prints_every_turn_and_the_result(capsys):
    assert main(["lucia", "play", "--seed", "2", "--samples", "4", "--max-nodes", "300"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("start: ") and out[-1].split()[0] in ("won", "lost")
    assert sum(line.startswith("player 1  hand:") for line in out) == int(out[-1].split()[2])
    assert main(["lucia", "play", "--seed", "2", "--samples", "4", "--json",
                 "--policy", "greedy"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["won"] in (True, False) and data["plays"] == len(data["turns"])
    assert main(["lucia", "play", "--seed", "2", "--players", "0"]) == 2


@pytest.mark.parametrize("option, value", [("--samples", "0"), ("--max-nodes", "-1"),
                                           ("--time-limit", "nan")])
def test_cli_play_greedy_refuses_a_bad_search_option(option, value, capsys):
    # greedy reads none of them; a bad one was ignored (exit 0) instead of refused (the limits
    # as argparse's usage errors, the samples by the command)
    argv = ["lucia", "play", "--seed", "2", "--policy", "greedy", option, value]
    if option == "--samples":
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("lumicore: error: ") and err.count("\n") == 1 and value in err
    else:
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 2 and f"argument {option}: " in capsys.readouterr().err


def test_play_takes_the_largest_seed(capsys):
    """The per-turn sampling seed is seed + turn: it must wrap, not overflow the seed range
    after the first turn (exit 2 mid-game)."""
    top = str(2**63 - 1)
    assert main(["lucia", "play", "--seed", top, "--samples", "1", "--max-nodes", "50"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].split()[0] in ("won", "lost") and int(out[-1].split()[2]) > 1
    with pytest.raises(LumicoreError, match="Deal"):
        play_game("not a deal")


# --- saved states of a dealt game (DealState.serialize / deserialize)

SMALL_DECK = Deck((LT, LU, W1, LH) * 3)


def _game(kind: str, players: int, seed: int) -> DealState:
    if kind == "hidden":
        return DealState.new_game(players=players, seed=seed, deck=SMALL_DECK)
    if kind == "default":
        return DealState.new_game(players=players, seed=seed)
    cards = SMALL_DECK.cards[seed:] + SMALL_DECK.cards[:seed]
    return DealState.from_deal(Deal(Train.parse("h T H L2 h"), cards, players=players))


@pytest.mark.parametrize("kind, players, seed", [
    ("hidden", 1, 0), ("hidden", 2, 1), ("hidden", 3, 2), ("hidden", 4, 3), ("default", 2, 4),
    ("fixed", 1, 5), ("fixed", 3, 6)])
def test_every_saved_state_of_a_random_game_loads_back(kind, players, seed):
    for state in states(_game(kind, players, seed), seed):
        copy = DealState.deserialize(state.serialize())
        assert copy == state and copy.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("kind, players, seed", [("hidden", 2, 7), ("hidden", 4, 8),
                                                 ("fixed", 2, 9)])
def test_a_damaged_saved_state_is_a_data_error_or_plays_on(kind, players, seed):
    # one field (top-level, or one of 40 nested ones) replaced by junk: a value of the wrong
    # type is a LumicoreError, and whatever loads plays to the end without a stray exception
    # (before, "order": {} or 0 loaded as an empty deck, and "owed" took any draws)
    for i, state in enumerate(states(_game(kind, players, seed), seed, every=4)):
        check_damage(state, DealState.deserialize, nullable=r"^(order|counts)$", seed=i)


@pytest.mark.parametrize("kind, field, value, message", [
    ("fixed", "order", {}, "field 'order' must be null or a list of items, got {}"),
    ("fixed", "order", 0, "field 'order' must be null or a list of items, got 0"),
    ("fixed", "owed", [0], "field 'owed' must be \\[\\]: draws are owed only when the deck "
     "order is hidden"),
    ("hidden", "owed", [0] * 4, "field 'owed' must be 3 draws of player 1 \\(0 cards"),
    ("hidden", "owed", [], "field 'owed' must be 3 draws of player 1 \\(0 cards"),
    ("hidden", "mover", 2, "field 'mover' must be a player index from 0 to 1, got 2"),
    ("hidden", "won", True, "field 'won' must be false: the train is not the goal, got true"),
    ("hidden", "counts", [1, 2], "field 'counts' must be null or a list of 4 items"),
    ("hidden", "hands", [[0, 9], []], "field 'hands\\[0\\]\\[1\\]' must be a card kind index "
     "from 0 to 3, got 9"),
    ("hidden", "cards", [LT.to_dict()] * 2, "field 'cards\\[1\\]' must be a card kind listed "
     "once"),
    ("hidden", "train", "h T X", "field 'train' must be a train"),
])
def test_a_bad_field_is_named(kind, field, value, message):
    data = json.loads(_game(kind, 2, 0).serialize())
    data[field] = value
    with pytest.raises(DataError, match="^serialized lucia game: " + message):
        DealState.deserialize(json.dumps(data))


def test_a_sample_the_deadline_cuts_short_is_dropped(monkeypatch):
    """The kernel marks every play it did not get to before the deadline 'undecided' (code 3),
    and such a sample counted them as lost trials: the plays searched last in the cut sample
    looked worse than they are."""
    import solvers.lucia.play as play

    real = play.kernel.deal_search

    class CutAtOnce:  # the deadline strikes before the first play's search ends
        def __init__(self, search):
            self.search = search

        def children(self, *args):
            found, _why = self.search.children(*args)
            return [(kind, after, 3) for kind, after, _code in found], 2

        def reset(self, *args):  # the next sample: the same search dealt anew
            self.search.reset(*args)

    monkeypatch.setattr(play.kernel, "deal_search", lambda *a, **k: CutAtOnce(real(*a, **k)))
    ranking = best_play(Train.parse("h T H L2 h"), [LT, LU, W1], [LH] * 5, samples=3,
                        time_limit=60)
    assert ranking.samples == 0 and ranking.plays
    assert all(e.trials == e.wins == e.undecided == 0 for e in ranking.plays)


def test_best_play_makes_one_kernel_search_per_call(monkeypatch):
    """Each sample made a kernel search of its own, a 24 MB transposition table allocated and
    cleared each time; the call's one search is dealt each sample anew."""
    import solvers.lucia.play as play

    made = []
    real = play.kernel.deal_search
    monkeypatch.setattr(play.kernel, "deal_search", lambda *a, **k: made.append(1) or real(*a, **k))
    ranking = best_play(Train.parse("h T H L2 h"), [LT, LU, W1], [LH, LT, LU, W1, LH], samples=5)
    assert ranking.samples == 5 and len(made) == 1


def test_a_redealt_search_answers_as_a_new_one():
    """kernel.redeal keeps the table; its entries of earlier deals (told apart by the deal's
    number, which wraps after 256 deals and then clears the table) never answer for the new
    one: every play's value, and the node counts, are those of a new search, on a table small
    enough (16 entries) that the deals fight over it."""
    import numpy as np

    from lumicore.lucia import kernel
    from lumicore.lucia.deal import deal

    game = deal(3)
    hand, pool = game.hands()[0], list(game.stock())
    kinds = tuple(dict.fromkeys([*hand, *pool]))
    index = {c: i for i, c in enumerate(kinds)}
    htable = heuristic_table(kinds, game.train)
    rng = np.random.default_rng(0)
    mine = [index[c] for c in hand]
    reused = None
    for n in range(260):
        deck = [index[pool[i]] for i in rng.permutation(len(pool))]
        fresh = kernel.deal_search(game.train, kinds, deck, [mine], htable, tt_bits=4)
        if reused is None:
            reused = kernel.deal_search(game.train, kinds, deck, [mine], htable, tt_bits=4)
        else:
            kernel.redeal(reused, len(kinds), deck, [mine])
        limit = (40, 400, 4000)[n % 3]
        assert reused.children(game.train.packed, limit, 0.0) == \
            fresh.children(game.train.packed, limit, 0.0), n
    with pytest.raises(LumicoreError, match="out of range"):
        kernel.redeal(reused, len(kinds), [len(kinds)], [mine])


def _counts(ranking):
    return [(str(e.play), e.wins, e.trials, e.undecided) for e in ranking.plays]


@pytest.mark.parametrize("players", [1, 2])
def test_workers_share_the_samples_and_rank_alike(players):
    """The samples are drawn in the calling process and searched in runs by the workers: any
    number of workers gives the same counts, in the same order, as one."""
    from lumicore.lucia.deal import deal

    game = deal(5, players)
    hand, unseen = game.hands()[0], [*game.stock(), *(c for h in game.hands()[1:] for c in h)]
    seen = []
    args = (game.train, hand, unseen, players)
    one = best_play(*args, samples=10, seed=3, max_nodes=500)
    two = best_play(*args, samples=10, seed=3, max_nodes=500, workers=2,
                    progress=lambda done, total: seen.append((done, total)))
    assert two.samples == one.samples == 10 and _counts(two) == _counts(one)
    assert seen == [(i, 10) for i in range(1, 11)]


def test_workers_stop_at_the_time_limit():
    """A run the deadline cuts ends with the last whole sample, as in one process: each play's
    trials are the samples counted."""
    from lumicore.lucia.deal import deal

    game = deal(1)
    ranking = best_play(game.train, game.hands()[0], game.stock(), samples=10_000,
                        max_nodes=None, time_limit=0.5, workers=2)
    assert ranking.samples < 10_000
    assert all(e.trials == ranking.samples for e in ranking.plays)


@pytest.mark.parametrize("workers", [0, True, 1.5, 2000])
def test_bad_workers_are_named(workers):
    with pytest.raises(LumicoreError, match="workers must be an integer"):
        best_play(Train.parse("H L3 T"), [LT], [LU], workers=workers)


def test_cli_play_workers_play_the_same_game(capsys):
    argv = ["lucia", "play", "--seed", "4", "--samples", "6", "--max-nodes", "400", "--json"]
    assert main([*argv, "--workers", "1"]) == 0
    one = capsys.readouterr().out
    assert main([*argv, "--workers", "2"]) == 0
    assert capsys.readouterr().out == one
    assert main([*argv, "--workers", "0"]) == 2
    assert "workers must be an integer from 1" in capsys.readouterr().err


def test_a_huge_sample_count_is_drawn_only_as_far_as_the_time_limit_goes(monkeypatch):
    """Every sample was drawn before the time limit was looked at: 10**6 samples with a 1 s
    limit took 32 s and 584 MB. Now they are drawn as the searches take them. The count of
    draws tells (not the clock); drawing more than ``cap`` fails at once rather than fill the
    memory as the old code would."""
    import solvers.lucia.play as play
    from lumicore.lucia.deal import deal

    drawn, cap = [0], 100_000
    real = play._sampled_deal

    def counted(*args):
        drawn[0] += 1
        if drawn[0] > cap:
            raise AssertionError("drew far more samples than the time limit allows")
        return real(*args)

    monkeypatch.setattr(play, "_sampled_deal", counted)
    game = deal(7)
    for workers in (1, 2):
        drawn[0] = 0
        ranking = best_play(game.train, game.hands()[0], game.stock(), samples=10**9,
                            time_limit=0.3, workers=workers)
        assert ranking.samples <= drawn[0] < cap
        assert all(e.trials == ranking.samples for e in ranking.plays)


def _eager_samples(game, players, seed, samples):
    """The samples as best_play drew them before, all at once: the reference."""
    import numpy as np

    import solvers.lucia.play as play

    hand = game.hands()[0]
    pool = [*game.stock(), *(c for h in game.hands()[1:] for c in h)]
    pool.sort(key=lambda card: sorted(map(str, card.actions)))
    kinds = tuple(dict.fromkeys([*hand, *pool]))
    index = {c: i for i, c in enumerate(kinds)}
    sizes = [min(3, len(pool))] * (players - 1)
    rng = np.random.default_rng(seed)
    return [play._sampled_deal(rng, [index[c] for c in pool], [index[c] for c in hand], sizes)
            for _ in range(samples)]


@pytest.mark.parametrize("players, seed, samples", [(1, 2, 12), (2, 5, 40), (1, 9, 3)])
def test_lazily_drawn_samples_are_the_eagerly_drawn_ones_in_the_same_runs(monkeypatch, players,
                                                                         seed, samples):
    """The samples are drawn lazily now: in one process the searches get the samples of the
    eager reference drawing in its order, and with two workers run_batch gets the same runs
    (consecutive slices of ``max(4, ceil(samples / 16))``) as before."""
    import solvers.lucia.play as play
    from lumicore.lucia.deal import deal

    game = deal(seed, players)
    hand, unseen = game.hands()[0], [*game.stock(), *(c for h in game.hands()[1:] for c in h)]
    reference = _eager_samples(game, players, seed, samples)
    searched, jobs = [], []
    real_search, real_batch = play._search_samples, play.run_batch

    def search(train, kinds, rules, limit, left, deals):
        return real_search(train, kinds, rules, limit, left,
                           (searched.append(d) or d for d in deals))

    def batch(fn, items, **kwargs):
        jobs.extend(job[-1] for job in items)
        return real_batch(fn, items, **kwargs)

    monkeypatch.setattr(play, "_search_samples", search)
    monkeypatch.setattr(play, "run_batch", batch)
    args = (game.train, hand, unseen, players)
    one = best_play(*args, samples=samples, seed=seed, max_nodes=300)
    assert searched == reference
    two = best_play(*args, samples=samples, seed=seed, max_nodes=300, workers=2)
    size = max(4, -(-samples // 16))
    assert jobs == [reference[i:i + size] for i in range(0, samples, size)]
    assert _counts(two) == _counts(one) and two.samples == one.samples == samples


def test_many_samples_go_to_the_workers_in_waves_and_rank_alike(monkeypatch):
    """Past ``workers * SHARES * LONGEST_RUN`` samples, runs are at most LONGEST_RUN long and
    are drawn and sent a wave at a time (memory bounded): the counts stay those of one
    process."""
    import solvers.lucia.play as play
    from lumicore.lucia.deal import deal

    monkeypatch.setattr(play, "LONGEST_RUN", 4)  # 2 workers: waves of 16 runs of 4 samples
    waves = []
    real_batch = play.run_batch
    monkeypatch.setattr(play, "run_batch",
                        lambda fn, items, **kw: waves.append(len(items)) or real_batch(fn, items,
                                                                                         **kw))
    game = deal(5)
    args = (game.train, game.hands()[0], game.stock())
    two = best_play(*args, samples=70, seed=1, max_nodes=200, workers=2)
    one = best_play(*args, samples=70, seed=1, max_nodes=200)
    assert waves == [16, 2] and _counts(two) == _counts(one) and two.samples == 70
