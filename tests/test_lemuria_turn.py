"""best_turn and the planner bot: the planned turn is legal in the game and ends the turn."""

from __future__ import annotations

import pytest
from ctrl_c_helpers import ctrl_c_on_call

from lumicore.errors import LumicoreError
from lumicore.lemuria import Game
from lumicore.lemuria.harvests import ME, OTHERS
from solvers.lemuria.turn import PlannerBot, best_turn, planner_instance


def _main_phase(players: int = 3, seed: int = 1) -> Game:
    game = Game.new(players=players, seed=seed)
    while game.is_chance_node() or game.phase == "pass":
        if game.is_chance_node():
            game.resolve_chance()
        else:
            game.apply_action(0)
    return game


def test_best_turn_moves_are_legal_and_end_the_turn():
    game = _main_phase()
    result = best_turn(game, time_limit=1, horizon=2, seed=0)
    assert result.player == 0 and result.others == "greedy" and result.assumptions
    assert result.moves[-1] == ("end",)
    assert any(m[0] in ("place", "pedestal", "harvest") for m in result.moves)
    for move in result.moves:
        assert game.current_player() == 0
        game.apply_move(move)
        while game.is_chance_node():
            game.resolve_chance()
    assert game.current_player() == 1
    lines = str(result).splitlines()  # it printed as the dataclass repr, the plan and all
    assert lines[0].startswith("player 1: ") and lines[0].endswith(" s)")
    assert f"({result.status}, planned {result.vp} VP, " in lines[0]
    assert lines[1] == "planned year: " + str(result.plan).splitlines()[0]
    assert lines[-len(result.assumptions):] == [f"assumed: {a}" for a in result.assumptions]
    nothing = type(result)(0, [], None, 0, "interrupted", "greedy", ["stopped"])
    assert str(nothing) == ("player 1: none (interrupted, planned 0 VP, 0.0 s)\n"
                            "assumed: stopped")


def test_planner_instance_maps_the_altar_and_the_player():
    game = _main_phase()
    game.apply_move(("place", 0, "plant"))
    game.apply_move(("end",))                       # player 2 to act
    game.apply_move(("place", 0, "plant"))
    inst, setup, _notes = planner_instance(game, 1, horizon=3)
    assert inst.turns == 3 and inst.start == game.resources(1)
    assert set(setup.start[0].owners) == {ME, OTHERS}
    assert setup.materials == {"plant": 1, "mineral": 2} and setup.first_turn == 1


def test_best_turn_needs_a_main_phase_decision():
    game = Game.new(players=2, seed=0)
    with pytest.raises(LumicoreError, match="main phase"):
        best_turn(game)
    with pytest.raises(LumicoreError, match="horizon"):
        best_turn(_main_phase(2), horizon=0)


@pytest.mark.parametrize("kwargs, match", [
    (dict(seed=-1), "seed must be an integer"), (dict(seed="x"), "seed must be an integer"),
    (dict(seed=2**70), "seed must be an integer"),
])
def test_best_turn_checks_its_seed(kwargs, match):
    """A bad seed was a ValueError from numpy (-1) or a TypeError ('x')."""
    with pytest.raises(LumicoreError, match=match):
        best_turn(_main_phase(2), time_limit=0.5, horizon=2, **kwargs)


@pytest.mark.parametrize("player", [2, -1, "0", True])
def test_planner_instance_checks_the_player(player):
    with pytest.raises(LumicoreError, match="player must be a player index"):
        planner_instance(_main_phase(2), player, horizon=2)


def test_planner_bot_passes_its_least_useful_card_then_plans():
    game = Game.new(players=2, seed=3)
    while game.is_chance_node():
        game.resolve_chance()
    bot = PlannerBot(seed=0, time_limit=1, horizon=2)
    hand = game.hand(0)
    move = game.moves()[bot.choose(game)]
    chars = game.cards.characters
    assert move == ("pass", min(hand, key=lambda c: chars[c].vp_match))


@pytest.mark.slow
def test_planner_plays_a_whole_game():
    from solvers.lemuria.play import play_game

    result = play_game(2, "planner,greedy", seed=2, time_limit=0.5)
    assert result.game.is_terminal() and Game.replay(result.game.record()) == result.game


@pytest.mark.parametrize("limits, match", [
    (dict(time_limit=float("inf")), "time_limit"), (dict(time_limit=0), "time_limit"),
    (dict(workers=0), "workers"), (dict(workers=10**23), "workers"),
])
def test_the_harvest_planner_checks_its_limits(limits, match):
    """A limit CP-SAT would take as none (inf) or could not take (a 32-bit worker count) is a
    one-line error before any search, in the planner and in the bot that calls it."""
    from lumicore.lemuria import default_instance
    from solvers.lemuria.harvest import build_harvest_schedule

    with pytest.raises(LumicoreError, match=match):
        build_harvest_schedule(default_instance(0, turns=2), **limits)
    if "time_limit" in limits:
        with pytest.raises(LumicoreError, match=match):
            PlannerBot(**limits)


def test_planner_bot_stops_the_game_when_ctrl_c_stops_its_plan(monkeypatch):
    # the harvest planner returns its plan marked "interrupted" on Ctrl-C: the bot must not
    # play on with it (lumicore lemuria play exits 130)
    import solvers.lemuria.turn as turn

    game = _main_phase()
    real = turn.build_harvest_schedule

    def interrupted(*args, **kwargs):
        plan = real(*args, **kwargs)
        plan.status = "interrupted"
        return plan

    monkeypatch.setattr(turn, "build_harvest_schedule", interrupted)
    with pytest.raises(KeyboardInterrupt):
        PlannerBot(seed=0, time_limit=1, horizon=2).choose(game)


def test_the_play_out_of_the_others_keeps_to_its_time():
    """The play-out took as long as the others' bot liked (a 'planner' or 'mcts' seat searched
    every decision with no regard to best_turn's time_limit); once its time is spent the
    greedy bot finishes it, and the assumptions say so."""
    game = _main_phase(2)
    cut, _setup, notes = planner_instance(game, 0, horizon=3, others="random", time_limit=1e-9)
    greedy, _setup, greedy_notes = planner_instance(game, 0, horizon=3, others="greedy")
    assert cut == greedy
    assert "until the play-out's 1e-09 s ran out in month 1, then as the 'greedy' bot" in notes[0]
    assert "ran out" not in greedy_notes[0]
    slow, _setup, slow_notes = planner_instance(game, 0, horizon=3, others="random",
                                                time_limit=600)
    assert "ran out" not in slow_notes[0]
    with pytest.raises(LumicoreError, match="time_limit"):
        planner_instance(game, 0, horizon=3, time_limit=0)


@pytest.mark.parametrize("name, options, match", [
    ("greedy", dict(depth=2), "bad options"), ("planner", dict(horizn=3), "bad options"),
    ("planner", dict(others="nobody"), "unknown bot 'nobody'"),
])
def test_lemuria_bots_refuse_options_they_do_not_have(name, options, match):
    """Both Lemuria bots swallowed any option (a misspelt 'horizn' planned 12 turns)."""
    from solvers.arena import make_bot

    with pytest.raises(LumicoreError, match=match):
        make_bot(name, "lemuria", seed=1, **options)


def _planned(game: Game, **kwargs):
    try:
        return best_turn(game, **kwargs)
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C escaped best_turn as KeyboardInterrupt")


def test_ctrl_c_in_the_play_out_of_the_others_returns_nothing_planned(monkeypatch):
    """Ctrl-C while the other players' bots play the game out raised KeyboardInterrupt out of
    best_turn; now it returns "interrupted" with nothing planned, and the planner bot stops the
    game (``lumicore lemuria play`` exits 130 after the turns it printed)."""
    import signal

    from solvers.lemuria.bots import GreedyBot

    game = _main_phase()
    calls = ctrl_c_on_call(monkeypatch, GreedyBot, "choose", 20)
    result = _planned(game, time_limit=5, horizon=2)
    assert len(calls) == 20  # the play-out stopped at the press
    assert result.status == "interrupted" and result.moves == [] and result.plan is None
    assert result.vp == 0 and "before a year was planned" in result.assumptions[-1]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    ctrl_c_on_call(monkeypatch, GreedyBot, "choose", 20)
    with pytest.raises(KeyboardInterrupt):
        PlannerBot(seed=0, time_limit=5, horizon=2).choose(game)


@pytest.mark.parametrize("step", ["HarvestYearModel", "_hint"])
def test_ctrl_c_while_the_model_is_built_returns_the_greedy_plan(monkeypatch, step):
    """Ctrl-C while the CP-SAT model was built or hinted raised KeyboardInterrupt out of
    best_turn (and out of the harvest planner, so ``lumicore lemuria plan --harvests`` printed
    no plan); now the greedy plan, the solver's hint, comes back "interrupted"."""
    import solvers.lemuria.harvest as harvest

    game = _main_phase()
    ctrl_c_on_call(monkeypatch, harvest, step, 1)
    result = _planned(game, time_limit=5, horizon=2)
    assert result.status == "interrupted" and result.plan.reason == "interrupted"
    assert result.vp == result.plan.vp == result.plan.greedy_vp
    _ends_the_turn(game, result.moves)


def _ends_the_turn(game: Game, moves: list[tuple]) -> None:
    """``moves`` are legal in ``game`` and end the first player's turn."""
    assert moves[-1] == ("end",)
    for move in moves:
        game.apply_move(move)
        while game.is_chance_node():
            game.resolve_chance()
    assert game.current_player() == 1


def test_ctrl_c_while_the_plan_becomes_moves_keeps_them(monkeypatch):
    """Ctrl-C while best_turn turned the plan's first turn into game moves (``_to_moves``)
    escaped as KeyboardInterrupt; now the moves are kept and the turn is "interrupted"."""
    import solvers.lemuria.turn as turn

    game = _main_phase()
    calls = ctrl_c_on_call(monkeypatch, turn, "_to_moves", 1)
    result = _planned(game, time_limit=5, horizon=2)
    assert calls == [1]
    assert result.status == "interrupted" and result.plan.reason == "interrupted"
    assert result.vp == result.plan.vp
    _ends_the_turn(game, result.moves)


@pytest.mark.parametrize("kind", ["build", "remodel"])
def test_the_planned_reductions_are_the_ones_played(kind):
    """The move was matched on its cards only: the first legal reductions were played, not
    the plan's (a remodel planned '-gold, -wood' paid food and gold)."""
    from lumicore.lemuria.schedule import Build, Remodel
    from solvers.lemuria.turn import _to_moves

    game = _main_phase(2, 1)
    s, p = game.s, game.current_player()
    s["turn"] = 8
    s["admin"][p] = True  # a second reduction, for the Upper Trend cards too
    s["pl"][p]["fac"] = [["B03", None]]
    s["pl"][p]["res"].update(stone=9, wood=9, gold=9, food=9)
    game._moves = None
    tried = 0
    for move in game.moves():
        if move[0] != kind:
            continue
        same = [m for m in game.moves() if m[:3] == move[:3]]
        if len(same) < 2:
            continue
        want = same[-1]
        action = (Build(want[1], want[2], want[3]) if kind == "build"
                  else Remodel(want[1], want[2], want[3]))
        assert _to_moves(game, p, (action,))[0] == want
        tried += 1
    assert tried


def test_best_turn_refuses_the_give_back_decision_of_an_exchange():
    """It returned ("end",), which is not legal while a card is owed to the deck."""
    game = _main_phase(2, 1)
    p = game.current_player()
    game.s["pl"][p]["res"]["gold"] = 5
    game._moves = None
    while game.phase == "main" and ("exchange",) not in game.moves():
        game.apply_action(0)
        while game.is_chance_node():
            game.resolve_chance()
    game.apply_move(("exchange",))
    while game.is_chance_node():
        game.resolve_chance()
    assert game.s["give_back"]
    with pytest.raises(LumicoreError, match="gives a card back first"):
        best_turn(game, time_limit=1)


def test_best_turn_refuses_a_turn_that_has_built_and_placed():
    """In the middle of a turn it planned a second build and material operation and counted
    their VP (4 VP here); the game refused both and the turn gained nothing."""
    game = _main_phase(2, 2)
    cost = {m: game.cards.buildings[m[1]].total_cost for m in game.moves() if m[0] == "build"}
    game.apply_move(min(cost, key=cost.get))
    with pytest.raises(LumicoreError, match="this turn has had its build"):
        best_turn(game, time_limit=1, horizon=1)
    game.apply_move(("place", 0, "plant"))
    with pytest.raises(LumicoreError, match="its material operation and its build"):
        best_turn(game, time_limit=1, horizon=1)


def test_the_others_moves_after_the_player_this_month_are_in_the_plan():
    """The play-out's builds of the others after the player in the current month were left
    out of the model: the plan counted on cards its own play-out gave away (3 players, seed 4,
    month 9: B04 and B29)."""
    from solvers.lemuria.bots import GreedyBot
    from solvers.lemuria.turn import _moves_by_turn, _opponents, _play_out

    game = Game.new(players=3, seed=4)
    bots = [GreedyBot(seed=i) for i in range(3)]
    while not (game.turn == 9 and game.phase == "main" and not game.is_chance_node()):
        if game.is_chance_node():
            game.resolve_chance()
        else:
            game.apply_action(bots[game.current_player()].choose(game))
    player = game.current_player()
    sim, _drawn, festivals, _ = _play_out(game, "greedy", 0, None)
    opponents = _opponents(game, sim, festivals, player, 4)
    by_player = _moves_by_turn(game, sim, player)
    later = 0
    for opponent, q in zip(opponents, [q for q in range(game.players) if q != player],
                           strict=True):
        now = [m for t, m, _after in by_player.get(q, [])
               if t == game.turn and m[0] in ("build", "remodel")]
        if now:
            later += 1
            card = now[0][1] if now[0][0] == "build" else now[0][2]
            assert opponent.builds[2] == card
    assert later  # the position has such moves


def test_the_planner_bot_finishes_a_turn_met_halfway_as_the_greedy_bot():
    """A game resumed after the turn's build and material operation: best_turn refuses such a
    turn, and the bot would have stopped the game with that error."""
    game = _main_phase(2, 2)
    cost = {m: game.cards.buildings[m[1]].total_cost for m in game.moves() if m[0] == "build"}
    game.apply_move(min(cost, key=cost.get))
    game.apply_move(("place", 0, "plant"))
    bot = PlannerBot(seed=0, time_limit=1, horizon=1)
    assert bot.choose(game) in game.legal_actions() and bot.last is None
