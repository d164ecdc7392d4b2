"""The reef's sampling bots: what their play-outs score, where they stop, whose draws they use."""

from __future__ import annotations

import time
import types

import numpy as np
import pytest

from lumicore.errors import DataError, LumicoreError
from lumicore.reef.decisions import Turn
from lumicore.reef.game import Game, least_tiles
from solvers.arena import make_bot, parse_bot_spec, play_game
from solvers.reef.bots import FlatMCBot, between_turns, playout
from solvers.reef.turn import RankedTurn, best_turn


def at_turn(seed: int = 3, players: int = 2) -> Game:
    game = Game.new(players=players, seed=seed)
    while game.phase == "orient":
        game.play(game.decisions()[0])
    return game


def test_flatmc_scores_whole_turns_that_follow_the_candidates_plan(monkeypatch):
    """The play-outs of a candidate turn place its tiles as the candidate's plan says and are
    scored between turns, never with tiles still in a hand (before: the play-out placed them at
    random and was scored after 10 decisions, whatever the phase)."""
    game = at_turn(seed=5)
    me, played = game.current_player(), len(game.log)
    top = best_turn(game).ranked[:3]
    reefs = [r.placement.reef if r.placement else game.reefs[me] for r in top]
    seen = []
    estimate = Game.estimate

    def spy(self, spent=()):
        if len(self.log) > played:      # a state played on from the root (not best_turn's probes)
            seen.append((self.phase, self.reefs[me]))
        return estimate(self, spent)

    monkeypatch.setattr(Game, "estimate", spy)
    bot = make_bot("flatmc", "reef", seed=1, candidates=3, playouts=2, policy="random")
    bot.choose(game)
    assert seen
    assert all(phase in ("turn", "score", "over") for phase, _ in seen), seen
    assert all(any(reef == r for r in reefs) for _, reef in seen)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_reef_mcts_chooses_among_greedys_candidates(seed):
    """Before: the arena's UCT spread 48 iterations over the ~100 decisions of a turn, each
    tried once at most, so it played an arbitrary one (0 wins in 60 games against greedy)."""
    game = at_turn(seed=seed)
    top = [r.decision for r in best_turn(game).ranked[:4]]
    bot = make_bot("mcts", "reef", seed=seed, iterations=6, cutoff=2)
    assert game.decisions()[bot.choose(game)] in top


@pytest.mark.parametrize("name", ["mcts", "flatmc"])
def test_search_bots_do_not_draw_from_the_games_own_generator(monkeypatch, name):
    """A game made by Game.new draws from its own seeded generator, which a copy shares: a
    play-out on such a copy would see the very tiles the game will draw (before: mcts did)."""
    game = at_turn(seed=4)

    def leak(self):
        raise AssertionError("a play-out drew from the game's own generator")

    monkeypatch.setattr(Game, "_sample", leak)
    bot = make_bot(name, "reef", seed=1, iterations=4, cutoff=2) if name == "mcts" else \
        make_bot(name, "reef", seed=1, candidates=2, playouts=1, cutoff=2)
    assert bot.choose(game) in game.legal_actions()


def test_a_play_out_to_the_mover_s_turn_end_values_each_candidate_as_greedy_does():
    """With no play-out after the candidate's own turn, its value is best_turn's: the plan is
    played and the evaluation is greedy's (the margin of the estimates)."""
    game = at_turn(seed=6)
    bot = FlatMCBot(seed=0, candidates=5, playouts=1, horizon="turn", policy="random")
    samples = bot.samples(game)
    assert len(samples) == 5
    for ranked, values in samples:
        assert values == [pytest.approx(ranked.value)]
    assert game.decisions()[bot.choose(game)] == best_turn(game).best.decision


def test_a_play_out_stops_between_turns():
    game = at_turn(seed=2)
    take = max((d for d in game.decisions() if isinstance(d, Turn)), key=lambda d: len(d.take))
    game.play(take)
    assert game.phase == "place"
    for cutoff in (1, 2, 3):
        probe = game.clone()
        probe.auto_chance = False
        playout(probe, np.random.default_rng(cutoff), cutoff=cutoff)
        assert between_turns(probe) and not probe.hand
    probe = game.clone()
    probe.auto_chance = False
    playout(probe, np.random.default_rng(0))
    assert probe.round == game.round + 1 and between_turns(probe)


def test_a_play_out_past_its_deadline_stops_at_the_next_pause_between_turns():
    """The reef MCTS's play-outs read the search's deadline (a time.perf_counter() value; here
    one already past): between turns at once, inside a turn once the hand is placed. Before,
    only the first descent's whole play-out ignored ``time_limit``."""
    game = at_turn(seed=2)
    take = max((d for d in game.decisions() if isinstance(d, Turn)), key=lambda d: len(d.take))
    past = time.perf_counter() - 1.0
    probe = game.clone()
    probe.auto_chance = False
    playout(probe, np.random.default_rng(0), deadline=past)
    assert probe.record() == game.record()  # between turns: nothing played
    game.play(take)
    probe = game.clone()
    probe.auto_chance = False
    playout(probe, np.random.default_rng(0), deadline=past)
    assert between_turns(probe) and not probe.hand and probe.round == game.round
    assert probe.current_player() != game.current_player()


@pytest.fixture
def placement_clock(monkeypatch):
    """A fake clock that each placement search of ``best_turn`` (what its time goes on) moves on
    by one second, read by the bots (``time.perf_counter``) and ``best_turn``
    (``time.monotonic``); the searches themselves run whole, so the count is deterministic."""
    import solvers.bots
    import solvers.reef.bots
    import solvers.reef.turn

    clock = [0.0]
    real = solvers.reef.turn.best_placement

    def best_placement(*args, **options):
        clock[0] += 1
        return real(*args, **{**options, "time_limit": None})

    monkeypatch.setattr(solvers.reef.turn, "best_placement", best_placement)
    monkeypatch.setattr(solvers.reef.turn, "time",
                        types.SimpleNamespace(monotonic=lambda: clock[0]))
    fake = types.SimpleNamespace(perf_counter=lambda: clock[0])
    monkeypatch.setattr(solvers.reef.bots, "time", fake)
    monkeypatch.setattr(solvers.bots, "time", fake)
    return clock


def _search_starts(monkeypatch, placement_clock) -> list[float]:
    """The fake clock's reading as each placement search of ``best_turn`` starts (filled as the
    searches run)."""
    import solvers.reef.turn as turn

    searched = turn.best_placement
    starts: list[float] = []

    def counted(*args, **options):
        starts.append(placement_clock[0])
        return searched(*args, **options)

    monkeypatch.setattr(turn, "best_placement", counted)
    return starts


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("limit", [5, 40])
def test_reef_mcts_keeps_a_time_limit(placement_clock, players, limit):
    """Greedy's candidates at the root are ranked once and within the limit (a limit of 5 runs
    out while ranking them: the best weighed is played), the greedy play-outs' turns too, so a
    decision ends about one placement search past the limit (here 6 fake seconds for 5, 41-42
    for 40, at turns of 10 to 12 searches). Before: the root's ranking ran whole, twice,
    whatever the limit: 21-27 fake seconds for a limit of 5, 51-64 for 40."""
    game = at_turn(seed=1, players=players)
    bot = make_bot("mcts", "reef", seed=0, time_limit=limit)
    action = bot.choose(game)
    assert action in game.legal_actions()
    assert placement_clock[0] <= limit + 5, f"{placement_clock[0]:g} fake seconds for {limit}"


@pytest.mark.parametrize("limit", [13, 16, 25])
def test_reef_mcts_at_a_limit_too_small_for_one_pass_plays_greedys_choice(
        placement_clock, monkeypatch, limit):
    """A limit that runs out before every candidate had a play-out (the root's ranking takes
    about 11 fake seconds here, a play-out several): the bot played the most visited of the
    one or two candidates its descents had tried (another than greedy's at these limits), and
    the play-out running at the deadline finished its turn with a placement search per
    decision past it. Now greedy's choice is played, and no search starts past the deadline:
    the descent it would be for is dropped."""
    from solvers.reef.bots import GreedyBot

    game = at_turn(seed=1)
    greedy = game.decisions().index(GreedyBot(0).ranked(game)[0])
    placement_clock[0] = 0
    starts = _search_starts(monkeypatch, placement_clock)
    assert make_bot("mcts", "reef", seed=1, time_limit=limit).choose(game) == greedy
    assert starts and max(starts) <= limit  # the deadline is 0 + limit on the fake clock


def test_reef_mcts_plays_the_most_visited_only_once_every_candidate_had_a_play_out():
    """Candidates 7, 8, 9 (greedy's first is 7): 9, visited most, is played once each had a
    play-out; with one untried (a count of iterations below the candidates' too) or one whose
    only descent was dropped, greedy's 7."""
    from solvers.bots import _Node

    bot = make_bot("mcts", "reef", seed=0)

    def root(visits: dict[int, int], untried: list[int]) -> _Node:
        node = _Node(2)
        node.player, node.untried = 0, untried
        for action, n in visits.items():
            node.children[action] = child = _Node(2)
            child.visits, child.totals = n, [0.5 * n, 0.5 * n]
        return node

    assert bot._pick(root({7: 2, 8: 1, 9: 3}, []), [7, 8, 9]) == 9
    assert bot._pick(root({8: 1, 9: 3}, [7]), [7, 8, 9]) == 7
    assert bot._pick(root({7: 2, 8: 0, 9: 3}, []), [7, 8, 9]) == 7


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("limit", [5, 300])
def test_reef_flatmc_keeps_a_time_limit(placement_clock, players, limit):
    """The reef's flatmc takes ``time_limit`` as the arena's does (before: an unknown option):
    its candidates and greedy play-outs rank within it, rounds of play-outs go on until it is
    up (a limit of 5 runs out while ranking: one round, each candidate scored once its turn is
    played; here 6 fake seconds), the round left unfinished is dropped so that every
    candidate keeps as many paired play-outs (300: 1-6 rounds in 301 fake seconds; with 4
    players the second round's last play-out reaches the limit inside a turn and is dropped
    with its round, where it searched past the limit before)."""
    game = at_turn(seed=1, players=players)
    bot = make_bot("flatmc", "reef", seed=0, time_limit=limit)
    assert bot.choose(game) in game.legal_actions()
    assert placement_clock[0] <= limit + 5, f"{placement_clock[0]:g} fake seconds for {limit}"
    placement_clock[0] = 0
    samples = bot.samples(game)
    assert placement_clock[0] <= limit + 5
    assert len(samples) == 4 and len({len(values) for _, values in samples}) == 1
    # (a placing step weighs every next step since best_turn stopped trusting one placement
    # plan: more fake seconds a play-out, so 300 of them may hold a single round)
    assert len(samples[0][1]) == 1 if limit == 5 else len(samples[0][1]) >= 1


@pytest.mark.parametrize("limit", [20, 40, 300])
def test_reef_flatmc_starts_no_search_past_its_time_limit(placement_clock, monkeypatch, limit):
    """The greedy play-out running at the deadline finished its turn with a placement search per
    decision past it (1 ms each). Now no search starts past the deadline: that play-out is
    dropped with its round (in the first round its candidate is scored once its turn is
    played), so every candidate keeps as many paired play-outs."""

    game = at_turn(seed=1)
    starts = _search_starts(monkeypatch, placement_clock)
    bot = make_bot("flatmc", "reef", seed=0, time_limit=limit)
    placement_clock[0] = 0
    samples = bot.samples(game)
    assert starts and max(starts) <= limit  # the deadline is 0 + limit on the fake clock
    assert len(samples) == 4 and len({len(values) for _, values in samples}) == 1


@pytest.mark.parametrize("spec, error", [("flatmc:time_limit=0", "time_limit must be"),
                                         ("flatmc:time_limit=-1", "time_limit must be"),
                                         ("flatmc:time_limit=0.25", None)])
def test_reef_flatmc_takes_time_limit_as_a_bot_option(spec, error):
    name, options = parse_bot_spec(spec)
    if error:
        with pytest.raises(LumicoreError, match=error):
            make_bot(name, "reef", **options)
    else:
        assert make_bot(name, "reef", **options).time_limit == 0.25


def test_reef_mcts_ranks_the_root_once(monkeypatch):
    """Without a time limit the root's candidates were ranked twice (by MCTSBot.choose and by
    the first descent); the choice is the same with one ranking."""
    import solvers.reef.bots

    game = at_turn(seed=0)
    calls = []

    def counted(state, *args, **options):
        calls.append(state.record())
        return best_turn(state, *args, **options)

    monkeypatch.setattr(solvers.reef.bots, "best_turn", counted)
    bot = make_bot("mcts", "reef", seed=0, iterations=3, cutoff=1, policy="random")
    assert bot.choose(game) in game.legal_actions()
    assert calls.count(game.record()) == 1


def test_flatmc_leaves_greedys_choice_only_for_a_clear_gain():
    bot = FlatMCBot(seed=0, margin=1.0)
    first, other = RankedTurn("first", 0.0), RankedTurn("other", 0.0)
    assert bot.pick([(first, [0, 0, 0, 0]), (other, [0.5] * 4)]) is first    # below the margin
    assert bot.pick([(first, [0, 0, 0, 0]), (other, [8, -3, 8, -3])]) is first  # noise
    assert bot.pick([(first, [0, 0, 0, 0]), (other, [2, 2.5, 2, 2.5])]) is other
    best = RankedTurn("best", 0.0)
    assert bot.pick([(first, [1, 1]), (other, [3, 3]), (best, [5, 5])]) is best


@pytest.mark.parametrize("options", [{"horizon": "week"}, {"margin": -1}, {"cutoff": 0},
                                     {"policy": "smart"}, {"objective": "win"}])
def test_flatmc_rejects_bad_options(options):
    with pytest.raises(LumicoreError):
        FlatMCBot(seed=0, **options)


def test_reef_mcts_scores_its_play_outs_with_the_evaluate_given(monkeypatch):
    """The reef's MCTS took no ``evaluate`` (the arena's generic MCTS does): its play-outs were
    always scored by Game.evaluate."""
    game = at_turn(seed=2)
    calls = []

    def mine(state):
        calls.append(state.phase)
        return [1.0 if p == 0 else 0.0 for p in range(state.num_players())]

    def not_this(self):
        raise AssertionError("the play-out was scored by Game.evaluate")

    monkeypatch.setattr(Game, "evaluate", not_this)
    bot = make_bot("mcts", "reef", seed=1, iterations=5, cutoff=2, evaluate=mine)
    assert bot.choose(game) in game.legal_actions()
    assert len(calls) == 5 and all(phase != "over" for phase in calls)
    with pytest.raises(LumicoreError, match="evaluate must be a function"):
        make_bot("mcts", "reef", evaluate=3)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_bot_plays_a_game_on_the_smallest_tile_set(tmp_path, players):
    """Before: a tile set smaller than the emergency stack was accepted and the arena failed
    with an IndexError (sample_outcome on a draw with no outcomes); the smallest set Game.new
    takes now plays to the end with every bot."""
    from tests.test_reef_game import small_tile_set

    path = small_tile_set(tmp_path / "tiles.toml", least_tiles(players))
    bots = ["random", "greedy", "flatmc:playouts=2", "mcts:iterations=8"][:players]
    _, state = play_game("reef", bots, players, seed=1, options={"tiles": path})
    assert state.is_terminal() and state.round < 10
    with pytest.raises(DataError, match="a game needs at least"):
        play_game("reef", bots, players, seed=1, options={
            "tiles": small_tile_set(tmp_path / "tiles.toml", least_tiles(players) - 1)})
