"""Every public integer argument takes a numpy integer as the plain int (same answer, a plain
int stored), and refuses a bool, a float and a numpy bool as it refuses them for seeds; flags
take a numpy bool as the bool (audit 6, C7)."""

from __future__ import annotations

import json
from dataclasses import asdict, replace

import numpy as np
import pytest

from lumicore.errors import IllegalMoveError, LumicoreError, SearchLimitError
from lumicore.lemuria import Game as LemuriaGame
from lumicore.lemuria import default_instance, simulate
from lumicore.lemuria.schedule import Build, Remodel, TurnPlan
from lumicore.lucia import Deal, load_deck, random_train, scramble
from lumicore.lucia.game import PuzzleState
from lumicore.lumen import Sheet, load_layout, selections
from lumicore.lumen.game import GameState as LumenState
from lumicore.lumen.sheet import HighCommand
from lumicore.reef import Lumino, Reef, load_board
from lumicore.reef import kernel as reef_kernel
from lumicore.reef.game import Game as ReefGame
from lumicore.reef.sample import random_reef
from lumicore.reef.scoring import gain_limestone, majority_points, round_limestone
from solvers.arena import make_bot
from solvers.batch import worker_count
from solvers.lucia import best_play, play_game, solve, solve_position, win_rate
from solvers.lucia.graph import state_graph
from solvers.lumen import best_choice, win_probability
from solvers.progress import check_progress
from solvers.reef import best_placement

NUMPY_INTS = [np.int64, np.int32, np.uint8]
TRAIN = "L0 h T"


def _same(plain, numpy_value, stored=None):
    """``plain`` and ``numpy_value`` equal, and ``stored`` (the value kept) a plain int."""
    assert plain == numpy_value
    if stored is not None:
        assert type(stored) is int


@pytest.mark.parametrize("kind", NUMPY_INTS)
def test_the_shared_checks_take_numpy_integers(kind):
    from lumicore.checks import check_int

    assert type(check_int(kind(4), "depth", 0, 10)) is int
    assert worker_count(kind(2), lambda: 1) == 2 and type(worker_count(kind(2), int)) is int


@pytest.mark.parametrize("bad", [True, 2.0, np.float64(2), np.bool_(True), "2", None])
def test_the_shared_integer_check_refuses_what_is_no_integer(bad):
    from lumicore.checks import check_int

    with pytest.raises(LumicoreError, match=r"^depth must be an integer from 0 to 10, got "):
        check_int(bad, "depth", 0, 10)
    if bad is not None:  # workers=None: the default
        with pytest.raises(SearchLimitError, match="workers must be an integer from 1 to"):
            worker_count(bad, lambda: 1)


def test_flags_take_a_numpy_bool_as_the_bool():
    from lumicore.checks import check_bool

    assert check_bool(np.bool_(False), "prune") is False
    assert check_progress(np.bool_(True)) is True and check_progress(None) is None
    for bad in (1, 0, "yes", np.int64(1)):
        with pytest.raises(LumicoreError, match="must be True or False"):
            check_bool(bad, "prune")


# ---- Lucia ----------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", NUMPY_INTS)
def test_lucia_counts(kind):
    assert scramble(kind(4), seed=3) == scramble(4, seed=3)
    deck = tuple(load_deck().cards)
    d = Deal(random_train(1), deck, players=2, hand_size=kind(2))
    _same(Deal(random_train(1), deck, players=2, hand_size=2), d, d.hand_size)
    json.dumps(d.to_json())
    state = PuzzleState.new(TRAIN, max_plays=kind(4))
    _same(PuzzleState.new(TRAIN, max_plays=4).max_plays, state.max_plays, state.max_plays)
    assert solve(TRAIN, weight=kind(2)).cost == solve(TRAIN, weight=2).cost


@pytest.mark.parametrize("max_nodes", [np.int64(2000), 2000.0, np.float64(2000)])
def test_state_graph_and_solve_take_max_nodes_as_the_other_searches_do(max_nodes):
    graph = state_graph(TRAIN, max_nodes=max_nodes)
    assert sorted(graph.nodes) == sorted(state_graph(TRAIN, max_nodes=2000).nodes)
    assert solve(TRAIN, max_nodes=max_nodes).cost == solve(TRAIN, max_nodes=2000).cost


@pytest.mark.parametrize("bad", [True, 2.5, None, np.bool_(True), 0])
def test_state_graph_refuses_what_is_no_node_count(bad):
    with pytest.raises(SearchLimitError, match="max_nodes must be a positive integer"):
        state_graph(TRAIN, max_nodes=bad)


def test_lucia_sampled_play_and_win_rate():
    from lumicore.lucia import Card

    train, hand = random_train(2), list(load_deck().cards)[:3]
    unseen = [c for c in load_deck().cards if isinstance(c, Card)][3:9]
    plain = best_play(train, hand, unseen, samples=3, seed=1, max_nodes=500)
    given = best_play(train, hand, unseen, samples=np.int64(3), seed=1, max_nodes=500)
    _same(plain.plays, given.plays, given.samples)
    deal = Deal(random_train(1), tuple(load_deck().cards), players=1, seed=1)
    assert play_game(deal, samples=np.int64(2), max_nodes=200) == play_game(
        deal, samples=2, max_nodes=200)
    options = dict(seed=1, time_limit=None, max_nodes=2000)
    rate = win_rate(deals=np.int64(1), workers=np.int64(1), **options)
    clocks = {"elapsed": 0, "times": 0}
    assert asdict(rate) | clocks == asdict(win_rate(deals=1, workers=1, **options)) | clocks
    assert type(rate.deals) is int
    json.dumps(asdict(rate))


def test_solve_position_takes_a_numpy_mover():
    deck = list(load_deck().cards)
    hands, stock = [deck[:3], deck[3:6]], deck[6:12]
    args = (random_train(4), hands, stock)
    given = solve_position(*args, mover=np.int64(1), max_nodes=5000)
    assert given.status == solve_position(*args, mover=1, max_nodes=5000).status
    with pytest.raises(LumicoreError, match="mover must be a seat 0..1, got 'True'"):
        solve_position(*args, mover=True)


# ---- Lumicora (reef) ------------------------------------------------------------------------


def _reef() -> Reef:
    return random_reef(load_board("A"), pieces=3, seed=2, limestone=1)


@pytest.mark.parametrize("kind", NUMPY_INTS)
def test_reef_indices_and_limestone(kind):
    reef, lumino = _reef(), Lumino("pink", 3, "crab")
    board = reef.board
    assert list(reef.placements(lumino, kind(2))) == list(reef.placements(lumino, 2))
    first = next(reef.placements(lumino, 0))
    assert reef.place(first, kind(2)) == reef.place(first, 2)
    assert reef.height_index(kind(3)) == reef.height_index(3)
    assert board.neighbor_cells(kind(3)) == board.neighbor_cells(3)
    cell = board.cells[3]
    assert board.cell_index((kind(cell[0]), kind(cell[1]))) == 3
    lumino = Lumino("blue", kind(2), "seahorse", fish=kind(1))
    assert lumino == Lumino("blue", 2, "seahorse") and type(lumino.number) is int
    assert type(lumino.fish) is int
    assert round_limestone(kind(5)) == 2 and gain_limestone(kind(7), kind(2)) == 9
    assert majority_points([kind(2), kind(1)]) == majority_points([2, 1])


@pytest.mark.parametrize("bad", [(True, 4), (1.0, 4.0), (1, 4.0), ("1", 4), (1,), 3])
def test_board_cell_index_refuses_what_is_no_pair_of_integers(bad):
    board = load_board("A")
    assert board.cell_index(board.cells[0]) == 0
    with pytest.raises(LumicoreError, match="no space at"):
        board.cell_index(bad)


def test_reef_searches_and_game():
    reef = _reef()
    hand = "pink 3 crab, blue 2 seahorse"
    plain = best_placement(reef, hand, 2, max_nodes=5000)
    given = best_placement(reef, hand, np.int64(2), max_nodes=5000, prune=np.bool_(True))
    assert (given.value, given.placements, given.limestone) == (plain.value, plain.placements,
                                                                plain.limestone)
    assert type(given.limestone) is int
    assert best_placement(reef, hand, 2, max_nodes=5000, prune=np.bool_(False)).value == \
        best_placement(reef, hand, 2, max_nodes=5000, prune=False).value
    with pytest.raises(LumicoreError, match="prune must be True or False, got '1'"):
        best_placement(reef, hand, 2, prune=1)
    game = ReefGame.new(players=2, seed=5)
    assert game.placement_weights(np.int64(1)) == game.placement_weights(1)
    with pytest.raises(LumicoreError, match="player must be an index 0..1, got 'True'"):
        game.placement_weights(True)


# ---- Lemuria --------------------------------------------------------------------------------


def test_lemuria_instance_plans_and_game():
    inst = default_instance(5, turns=np.int64(4), first_turn=np.int32(2))
    assert inst == default_instance(5, turns=4, first_turn=2)
    assert type(inst.turns) is int and type(inst.first_turn) is int
    with pytest.raises(LumicoreError, match="turns must be an integer from 1 to 12, got 'True'"):
        default_instance(5, turns=True)
    with pytest.raises(LumicoreError, match="turns: expected 1..12, got 'True'"):
        replace(inst, turns=True)
    with pytest.raises(LumicoreError, match="first_turn: expected 1..9 .*, got '2.0'"):
        default_instance(5, turns=4, first_turn=2.0)
    plan = TurnPlan(np.int64(1), ())
    assert plan == TurnPlan(1, ()) and type(plan.turn) is int
    small = default_instance(5, turns=2)
    assert simulate(small, [plan]) == simulate(small, [TurnPlan(1, ())])
    with pytest.raises(IllegalMoveError, match="turn '1.0': not a turn number"):
        simulate(small, [TurnPlan(1.0, ())])
    game = LemuriaGame.new(players=2, seed=1, impact=np.bool_(True))
    assert game.serialize() == LemuriaGame.new(players=2, seed=1, impact=True).serialize()
    with pytest.raises(LumicoreError, match="impact must be true or false, got '1'"):
        LemuriaGame.new(players=2, seed=1, impact=1)
    from lumicore.lemuria.harvests import AltarSetup

    altar = AltarSetup(rotation=np.int64(2), first_turn=np.int64(3))
    assert altar == AltarSetup(rotation=2, first_turn=3)
    assert type(altar.rotation) is int and type(altar.first_turn) is int


@pytest.mark.parametrize("kind", [Build, Remodel])
def test_a_list_of_reductions_is_kept_as_a_tuple(kind):
    args = ("B01",) if kind is Build else ("B07", "B01")
    action = kind(*args, reduce=["gold", "stone"])
    assert action.reduce == ("gold", "stone") and action == kind(*args, reduce=("gold", "stone"))
    assert hash(action) == hash(kind(*args, reduce=("gold", "stone")))


def test_lemuria_best_turn_takes_a_numpy_horizon():
    from solvers.lemuria.turn import PlannerBot, best_turn

    game = LemuriaGame.new(players=2, seed=1)
    while game.is_chance_node() or game.phase == "pass":
        game.resolve_chance() if game.is_chance_node() else game.apply_action(0)
    result = best_turn(game, time_limit=2, horizon=np.int64(1), workers=np.int64(1))
    assert result.moves and result.moves[-1] == ("end",)
    assert PlannerBot(horizon=np.int64(2)).horizon == 2
    assert type(PlannerBot(horizon=np.int64(2)).horizon) is int
    with pytest.raises(LumicoreError, match="horizon must be a positive integer, got '1.0'"):
        best_turn(game, horizon=1.0)


# ---- Lumen ----------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", NUMPY_INTS)
def test_lumen_dice_sheet_and_high_command(kind):
    assert selections(kind(3), kind(5)) == selections(3, 5)
    layout = load_layout()
    values = [kind(1)] + [None] * (len(layout.cells) - 1)
    sheet = Sheet(layout, values)
    assert sheet.values == Sheet(layout, [1] + [None] * (len(layout.cells) - 1)).values
    assert type(sheet.values[0]) is int
    cell = layout.cells[sheet.legal_indices()[0]]
    placed = sheet.place(cell, kind(2))
    assert placed.values == sheet.place(cell, 2).values
    assert all(type(v) is int for v in placed.values if v is not None)
    hc = HighCommand(threshold=kind(7), sections=(kind(2), kind(3)))
    assert hc == HighCommand(threshold=7, sections=(2, 3)) and type(hc.threshold) is int
    assert all(type(s) is int for s in hc.sections)


def test_lumen_refusals_name_the_type():
    with pytest.raises(LumicoreError, match=r"die '3.0' is not a face 1..6"):
        selections(3.0, 5)
    with pytest.raises(IllegalMoveError, match="value 'True' is not a selection value"):
        Sheet(load_layout(), [True] + [None] * (len(load_layout().cells) - 1))
    with pytest.raises(LumicoreError, match=r"values must be a tuple or list of values \(None "
                                            r"or 0..36\), one per bubble"):
        Sheet(load_layout(), np.array([None] * len(load_layout().cells)))


def _lumen_choice() -> LumenState:
    state = LumenState.new_game(players=2, seed=1)
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node()
                           else state.legal_actions()[-1])
    return state


def test_lumen_searches_and_bots():
    state = LumenState.new_game(players=2, seed=1)
    given = win_probability(state, samples=np.int64(4), bot="random", seed=1)
    plain = win_probability(state, samples=4, bot="random", seed=1)
    assert (given.wins, given.samples) == (plain.wins, plain.samples)
    assert type(given.samples) is int
    choice = _lumen_choice()
    options = dict(time_limit=None, seed=3, playout="random")
    assert best_choice(choice, min_samples=np.int64(2), **options).choices == best_choice(
        choice, min_samples=2, **options).choices
    for name, option in (("mcts", "iterations"), ("flatmc", "playouts"), ("greedy", "samples")):
        bot = make_bot(name, "lumen", seed=1, **{option: np.int64(3)})
        assert type(getattr(bot, option)) is int
        with pytest.raises(LumicoreError, match=f"{option} must be a positive integer"):
            make_bot(name, "lumen", seed=1, **{option: 3.0})


# ---- the other integer arguments (found beside the audit's list) ----------------------------


def test_reef_samples_tiles_hands_scores_and_play_outs():
    from lumicore.reef.hand import HandState
    from lumicore.reef.scoring import final_scores, winners
    from lumicore.reef.tiles import load_tiles

    board = load_board("A")
    assert random_reef(board, pieces=np.int64(3), seed=2) == random_reef(board, pieces=3, seed=2)
    tiles = load_tiles("default")
    assert tiles.for_players(np.int64(3)) == tiles.for_players(3)
    reef = _reef()
    state = HandState(reef, "pink 3 crab", np.int64(2))
    assert state.limestone == 2 and type(state.limestone) is int
    scores = final_scores([reef, reef], [np.int64(1), 0], [np.int64(3), 2])
    assert scores == final_scores([reef, reef], [1, 0], [3, 2])
    assert winners(scores, [np.int64(3), 2], [0, np.int64(0)]) == winners(scores, [3, 2], [0, 0])
    setup = (board, tiles.for_players(2), tiles.starts, 0)
    assert reef_kernel.playout(np.int64(2), np.int64(7), *setup, count=np.int64(3)) == \
        reef_kernel.playout(2, 7, *setup, count=3)
    with pytest.raises(LumicoreError, match="bad round '5.0'"):
        round_limestone(5.0)


def test_lumen_kernel_counts():
    from lumicore.lumen import kernel

    setup = kernel.setup(LumenState.new_game())
    assert kernel.random_games(setup, np.int64(5), seed=3) == kernel.random_games(setup, 5, 3)
    state = _lumen_choice()
    assert kernel.playouts(state, np.int32(4), 1) == kernel.playouts(state, 4, 1)
    with pytest.raises(LumicoreError, match="n must be a game count 0..2\\*\\*31-1, got 'True'"):
        kernel.random_games(setup, True)


def test_bots_and_batches():
    from solvers.batch import run_batch
    from solvers.lucia.bots import BestBot
    from solvers.lumen.bots import FastMCBot

    assert list(run_batch(abs, [-1, 2], workers=1, chunksize=np.int64(1))) == \
        list(run_batch(abs, [-1, 2], workers=1, chunksize=1))
    assert type(BestBot(samples=np.int64(3)).samples) is int
    assert type(FastMCBot(playouts=np.int64(3)).playouts) is int
    with pytest.raises(LumicoreError, match="playouts must be a positive integer, got '3.0'"):
        FastMCBot(playouts=3.0)


def test_lemuria_bounds_and_character_search():
    from solvers.lemuria.bound import lagrangian_bound
    from solvers.lemuria.branch import branch_bound
    from solvers.lemuria.characters import best_characters
    from solvers.lemuria.greedy import greedy_schedule

    inst = default_instance(2, turns=3)
    plain = lagrangian_bound(inst, time_limit=None, max_steps=5, fixed={1: 0})
    given = lagrangian_bound(inst, time_limit=None, max_steps=np.int64(5),
                             fixed={np.int64(1): np.int64(0)})
    assert given.value == plain.value
    greedy = greedy_schedule(inst)
    assert best_characters(inst, greedy, max_states=np.int64(5)).vp == best_characters(
        inst, greedy, max_states=5).vp
    target = greedy.vp
    assert branch_bound(inst, time_limit=None, max_nodes=5, target=np.int64(target)).bound == \
        branch_bound(inst, time_limit=None, max_nodes=5, target=target).bound
    with pytest.raises(LumicoreError, match="target must be a whole number of VP"):
        branch_bound(inst, target=np.float64(3))


@pytest.mark.parametrize("kind", [np.float32, np.float64, np.int64])
def test_float_options_take_numpy_numbers(kind):
    """A numpy number (np.float32 is no float subclass) is the plain number, stored as a
    float; before, ``exploration``, ``margin`` and an objective's weights refused np.float32."""
    from solvers.bots import MCTSBot
    from solvers.reef.bots import FlatMCBot
    from solvers.reef.placement import Objective, weighted

    assert MCTSBot(exploration=kind(2)).exploration == 2.0
    assert type(FlatMCBot(margin=kind(2)).margin) is float
    mixed = weighted({"coral:pink": kind(1), "final:dark": 0.5})
    assert mixed.weights == weighted({"coral:pink": 1, "final:dark": 0.5}).weights
    custom = Objective(tuple(kind(1) for _ in mixed.weights))
    assert all(type(w) is float for w in custom.weights)


@pytest.mark.parametrize("bad", [-1, np.float32(-0.5), np.float32("nan"), np.bool_(True), "1"])
def test_float_options_refuse_what_is_no_number_at_least_zero(bad):
    from solvers.bots import MCTSBot
    from solvers.reef.bots import FlatMCBot

    with pytest.raises(LumicoreError, match=r"^exploration must be a number >= 0, got '"):
        MCTSBot(exploration=bad)
    with pytest.raises(LumicoreError, match=r"^margin must be a number >= 0, got '"):
        FlatMCBot(margin=bad)
