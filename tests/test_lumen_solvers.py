"""best_choice (exact near the end, Monte Carlo before), win_probability and Lumen's bots."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from lumen_helpers import clear, do, k, put, sequence_step, started, t

from lumicore.errors import LumicoreError
from lumicore.game import play_randomly
from lumicore.lumen.game import GameState
from solvers.arena import make_bot, replay_record
from solvers.lumen import best_choice, win_probability
from solvers.lumen.bots import GreedyBot, RandomBot, SheetBot, sheet_scores
from solvers.lumen.planner import KERNEL_BATCH, exact_values


def last_round_move() -> GameState:
    """Round 17, player 1 resolves last with one sequence choice: moving a Shroomling from
    b1 into b2 ties the spring centre and wins 5 to 0; anything else loses 5 to 7."""
    state = sequence_step(clear(started(1)))
    state.round = 17
    state.discovery = [0] * 9
    put(state, "b1", 0, "shroomling", 2)
    put(state, "b2", 1, "shroomling")
    return state


def test_exact_answer_in_the_last_round():
    state = last_round_move()
    result = best_choice(state, time_limit=10)
    assert result.method == "exact" and result.status == "optimal"
    best = result.best
    assert best.value == 1.0 and state.moves()[best.action] == (
        "move", k("shroomling"), 0, t("b1"), t("b2"))
    assert result.plan == [best.move]
    stop = next(c for c in result.choices if state.moves()[c.action] == ("stop",))
    assert stop.value == 0.0
    assert [c.value for c in result.choices] == sorted((c.value for c in result.choices),
                                                      reverse=True)


def test_exact_values_agree_with_playing_each_choice():
    state = last_round_move()
    values, _ = exact_values(state)
    for a, v in enumerate(values):
        child = state.clone()
        child.apply_action(a)
        assert child.is_terminal() and child.returns() == v


def last_round_reinforcement() -> GameState:
    """A seeded random game played to the reinforcement phase of its last round."""
    from lumicore.game import sample_chance

    rng, state = np.random.default_rng(5), GameState.new_game(seed=2)
    while state.round < state.board.rounds or state.phase != "reinforce" \
            or state.is_chance_node():
        actions = state.legal_actions()
        state.apply_action(sample_chance(state, rng) if state.is_chance_node()
                           else actions[int(rng.integers(len(actions)))])
    return state


def test_exact_values_reads_the_clock_between_positions_met_again(monkeypatch):
    """The clock was read every 256 new positions only: positions met again (each a copy and
    a move) and chance fan-out ran on, and a 0.1 s limit spent 0.23 s in the exact search
    before Monte Carlo had any time. A deadline already past now stops it within 16 calls."""
    import time

    from solvers.lumen import planner

    state = last_round_reinforcement()
    children = []
    real = planner._child
    monkeypatch.setattr(planner, "_child", lambda s, a: children.append(1) or real(s, a))
    assert exact_values(state, 20_000, time.perf_counter()) is None
    assert len(children) <= 16


def test_best_choice_shows_a_progress_line_when_asked(capsys):
    """best_choice had no progress line: `lumen best` was silent for its 5 s."""
    state = play_randomly(GameState.new_game(seed=1), seed=1, max_steps=60)
    while state.is_chance_node():
        state.apply_action(0)
    best_choice(state, time_limit=1.3, progress=True)
    err = capsys.readouterr().err
    assert "lumen best:" in err and "nodes/s" in err and "best " in err
    best_choice(state, time_limit=1.3)  # default: no line
    assert capsys.readouterr().err == ""
    assert state.phase == "choose"  # a selection node: the sheet objective's line too
    best_choice(state, objective="sheet", time_limit=1.3, progress=True)
    assert "lumen best:" in capsys.readouterr().err
    with pytest.raises(LumicoreError, match="progress must be True, False or None"):
        best_choice(state, progress="yes")


def test_exact_values_report_their_positions():
    state = last_round_reinforcement()
    calls = []
    _, nodes = exact_values(state, progress=calls.append)
    assert len(calls) > 10 and calls == sorted(calls) and 0 < calls[0] and calls[-1] <= nodes


def test_exact_expectation_over_a_chance_node():
    state = last_round_move()
    state.phase = "reinforce"   # reinforcing then refilling: draws do not change the result
    state.left = 1
    state._moves = None
    result = best_choice(state, time_limit=10)
    assert result.method == "exact"
    placed = [c for c in result.choices if state.moves()[c.action][0] == "place"]
    # a Shroomling into b1 keeps it; any reinforcement leaves b2 to player 2: player 1 loses
    assert all(c.value == 0.0 for c in placed)


def test_monte_carlo_at_the_start_with_intervals():
    state = started(0)
    do(state, "roll", 3, 4)
    result = best_choice(state, time_limit=None, min_samples=2, seed=3, playout="random")
    assert result.method == "monte carlo" and result.status == "feasible"
    assert len(result.choices) == len(state.legal_actions())
    assert all(c.samples == 2 and c.low <= c.value <= c.high for c in result.choices)
    again = best_choice(state, time_limit=None, min_samples=2, seed=3, playout="random")
    assert [c.action for c in again.choices] == [c.action for c in result.choices]
    assert "monte carlo" in str(result) and result.to_dict()["plan"] == result.plan


def test_best_choice_needs_a_decision():
    with pytest.raises(LumicoreError, match="chance"):
        best_choice(GameState.new_game())
    with pytest.raises(LumicoreError):
        best_choice("state")
    with pytest.raises(LumicoreError):
        best_choice(last_round_move(), time_limit=-1)


def test_win_probability_of_a_won_position():
    result = win_probability(last_round_move(), samples=5, bot="sheet")
    assert result.wins == (5, 0) and result.probabilities == (1.0, 0.0)
    assert result.intervals[0][1] == 1.0 and result.intervals[0][0] > 0.4


def test_win_probability_counts_every_game():
    result = win_probability(GameState.new_game(), samples=6, bot="random", seed=1)
    assert sum(result.wins) + result.nobody == result.samples == 6
    assert result.status == "done"  # an estimate: never "optimal"
    for bad in (0, -1, 1.5):
        with pytest.raises(LumicoreError):
            win_probability(GameState.new_game(), samples=bad)
    with pytest.raises(LumicoreError, match="^progress must be"):  # was taken by its truth
        win_probability(GameState.new_game(), samples=1, progress="no")


def test_win_probability_stops_at_its_time_limit_with_the_games_played():
    # a million samples had no limit but Ctrl-C
    result = win_probability(GameState.new_game(), samples=10**6, bot="random", seed=1,
                             time_limit=1e-9)
    assert (result.status, result.reason, result.samples) == ("limit", "time", 1)
    assert sum(result.wins) + result.nobody == 1
    assert win_probability(GameState.new_game(), samples=2, bot="random",
                           time_limit=60).status == "done"
    for bad in (0, -1, float("nan"), True):
        with pytest.raises(LumicoreError, match="time_limit"):
            win_probability(GameState.new_game(), samples=2, time_limit=bad)
    with pytest.raises(LumicoreError, match="unknown bot|foo"):
        win_probability(GameState.new_game(), samples=1, bot="foo")


def test_sheet_bot_takes_the_largest_chain():
    state = started(0)
    state.sheets[0] = state.sheets[0].place((0, 0), 4).place((0, 1), 9)
    do(state, "roll", 2, 2)  # low 2, high 2, sum 4, product 4, difference 0
    scores = sheet_scores(state)
    best = state.moves()[max(range(len(scores)), key=scores.__getitem__)]
    assert best[0] == "choose" and best[1] in (2, 3) and best[2] == 5  # a 4 under the 4
    # sum and product tie (both a 4 under the 4): the bot takes one of the best-scoring moves
    tied = {m for m, v in zip(state.moves(), scores, strict=True) if v >= max(scores) - 1e-12}
    assert best in tied and tied == {("choose", 2, 5), ("choose", 3, 5)}
    assert all(state.moves()[SheetBot(seed=s).choose(state)] in tied for s in range(3))


@pytest.mark.parametrize("factory", [RandomBot, GreedyBot, SheetBot])
def test_bots_play_legal_and_deterministic(factory):
    state = play_randomly(GameState.new_game(), seed=4, max_steps=30)
    while state.is_chance_node():
        state.apply_action(0)
    a, b = factory(seed=5).choose(state), factory(seed=5).choose(state)
    assert a == b and a in state.legal_actions()


def test_the_arena_finds_the_sheet_bot_and_replays_lumen_records():
    assert isinstance(make_bot("sheet", "lumen", seed=1), SheetBot)
    end = play_randomly(GameState.new_game(seed=6), seed=6)
    assert replay_record(end.record()) == end


# --- the sheet objective: a solitaire under dice

def brute_value(sheet, uses, limits, rounds):
    """Expected best total gain by plain enumeration of the 36 ordered rolls."""
    from lumicore.lumen import reference
    from lumicore.lumen.dice import SELECTIONS, selections

    if rounds == 0:
        return 0.0
    total = 0.0
    for a in range(1, 7):
        for b in range(1, 7):
            values = selections(a, b)
            best = None  # a round is passed only when nothing may be written
            for s, name in enumerate(SELECTIONS):
                if uses[s] >= limits[s]:
                    continue
                for cell in reference.legal_cells(sheet.values, sheet.layout.neighbors):
                    gain = sum(reference.gains(sheet.values, sheet.layout.neighbors, cell,
                                               values[name]))
                    after = sheet.place(sheet.layout.cells[cell], values[name])
                    more = uses[:s] + (uses[s] + 1,) + uses[s + 1:]
                    value = gain + brute_value(after, more, limits, rounds - 1)
                    best = value if best is None else max(best, value)
            if best is None:
                best = brute_value(sheet, uses, limits, rounds - 1)
            total += best / 36
    return total


@pytest.mark.parametrize("text, uses, rounds", [("3 . / . .", (0, 0, 0, 0, 0), 1),
                                                ("3 . / . .", (1, 0, 1, 0, 1), 2),
                                                ("3 .", (0, 0, 0, 0, 0), 2),
                                                (". . / 6 .", (0, 1, 1, 1, 0), 2)])
def test_sheet_value_matches_brute_force(text, uses, rounds):
    from lumicore.lumen import Sheet
    from solvers.lumen.solitaire import sheet_value

    sheet, limits = Sheet.parse(text), (1, 1, 1, 1, 1)
    assert sheet_value(sheet, uses, limits, rounds) == pytest.approx(
        brute_value(sheet, uses, limits, rounds))


def test_sheet_value_never_passes_a_round_that_can_be_written():
    # "3 ." has one bubble left: a roll with no 2, 3 or 4 among its selections (6 of 36) must
    # still be written there for nothing, which leaves the next round nothing. The exact value
    # let the player pass such a roll and wait: 1.944 instead of 2 * 30/36 (an "optimal"
    # answer the rules do not allow)
    from lumicore.lumen import Sheet
    from solvers.lumen.solitaire import sheet_value

    assert sheet_value(Sheet.parse("3 ."), (0,) * 5, (1,) * 5, 2) == pytest.approx(2 * 30 / 36)
    # no selection left: the round is passed
    assert sheet_value(Sheet.parse("3 ."), (1,) * 5, (1,) * 5, 2) == 0.0


def test_sheet_objective_exact_in_the_last_two_rounds_and_monte_carlo_before():
    state = started(0)
    state.sheets[0] = state.sheets[0].place((0, 0), 4)
    do(state, "roll", 2, 2)
    state.round = 16
    exact = best_choice(state, objective="sheet")
    assert exact.method == "exact" and exact.status == "optimal"
    assert len(exact.choices) == len(state.legal_actions())
    top = exact.best
    assert state.moves()[top.action][2] in (1, 5)  # next to the 4
    state.round = 10
    mc = best_choice(state, objective="sheet", time_limit=None, min_samples=3, seed=2)
    assert mc.method == "monte carlo" and all(c.samples == 3 for c in mc.choices)
    assert all(c.low <= c.value <= c.high for c in mc.choices)
    # the interval from the play-outs' spread: unbounded after one play-out, where it was the
    # value alone (a zero-width "certainty")
    one = best_choice(state, objective="sheet", time_limit=None, min_samples=1, seed=2)
    assert all(c.samples == 1 and (c.low, c.high) == (-math.inf, math.inf) for c in one.choices)
    assert all(d["low"] is None and d["high"] is None
               for d in json.loads(json.dumps(one.to_dict()))["choices"])
    many = best_choice(state, objective="sheet", time_limit=None, min_samples=40, seed=2)
    assert all(math.isfinite(c.low) and c.low <= c.value <= c.high for c in many.choices)
    assert any(c.high > c.low for c in many.choices)
    with pytest.raises(LumicoreError):
        best_choice(state, objective="vp")


def test_the_sheet_objective_keeps_its_time_limit_when_the_exact_search_is_too_big():
    """depth=4 at round 14 (an exact expectimax of four rounds) took 34 s with time_limit=1;
    now the exact search stops at half the time limit and Monte Carlo answers (no wall-clock
    assertion: the method says which answered)."""
    from solvers.lumen.solitaire import solitaire_choice

    state = started(0)
    state.sheets[0] = state.sheets[0].place((0, 0), 4)
    do(state, "roll", 2, 2)
    state.round = 14
    result = solitaire_choice(state, time_limit=0.5, depth=4)
    assert result.method == "monte carlo" and result.status == "feasible"
    assert len(result.choices) == len(state.legal_actions())
    state.round = 16
    assert solitaire_choice(state, time_limit=5, depth=4).method == "exact"


@pytest.mark.parametrize("kwargs, match", [
    (dict(depth="x"), "depth must be a positive integer"),
    (dict(depth=None), "depth must be a positive integer"),
    (dict(min_samples="a"), "min_samples must be a positive integer"),
    (dict(min_samples=0, time_limit=None), "min_samples must be a positive integer"),
    (dict(time_limit="1"), "time_limit"), (dict(time_limit=-1), "time_limit"),
])
def test_the_sheet_objective_checks_its_arguments(kwargs, match):
    """These were TypeErrors ('<=' between int and str), or a 'feasible' answer of no
    play-out at all (min_samples=0) or after none within a negative time limit."""
    from solvers.lumen.solitaire import solitaire_choice

    state = started(0)
    do(state, "roll", 2, 2)
    with pytest.raises(LumicoreError, match=match):
        solitaire_choice(state, **kwargs)


def test_kernel_playouts_rank_choices_like_the_python_engine_would():
    from lumicore.lumen import kernel, reference

    state = started(0)
    do(state, "roll", 3, 4)
    result = best_choice(state, time_limit=None, min_samples=2 * KERNEL_BATCH, seed=5)
    assert result.method == "monte carlo"
    assert all(c.samples == 2 * KERNEL_BATCH and c.low <= c.value <= c.high
               for c in result.choices)
    # the kernel's play-outs from a position are the reference's random games from it
    child = state.clone()
    child.apply_action(result.best.action)
    wins = [0, 0, 0]
    for i in range(20):
        wins[reference.random_game(child, 9 + i)[1]] += 1
    w0, w1, nobody = kernel.playouts(child, 20, seed=9)
    assert (w0, w1, nobody) == (wins[0], wins[1], wins[-1])


def test_fastmc_bot_is_found_and_deterministic():
    bot = make_bot("fastmc", "lumen", seed=3, playouts=8)
    state = play_randomly(GameState.new_game(), seed=4, max_steps=30)
    while state.is_chance_node():
        state.apply_action(0)
    assert bot.choose(state) == make_bot("fastmc", "lumen", seed=3, playouts=8).choose(state)
    with pytest.raises(LumicoreError):
        make_bot("fastmc", "lumen", playouts=0)


def test_bot_play_outs_stop_at_the_time_limit(monkeypatch, tmp_path, capsys):
    # a bot's play-out (mcts: minutes) ran to its end for every choice before the time limit
    # was looked at: best_choice(time_limit=0.5, playout="mcts") took over a minute
    from types import SimpleNamespace

    import solvers.lumen.planner as planner
    from solvers.cli import main

    # the planner's clock is a fake one that only the bot moves, 0.01 s a choice: the count of
    # choices made shows the play-out was dropped at the time limit, whatever the machine
    clock = [0.0]
    choices = []

    def slow(name, seed):
        def choose(state, rng):
            choices.append(clock[0])
            clock[0] += 0.01
            return 0
        return choose

    monkeypatch.setattr(planner, "_policy", slow)
    monkeypatch.setattr(planner, "time", SimpleNamespace(perf_counter=lambda: clock[0]))
    state = started(0)
    do(state, "roll", 3, 4)
    result = best_choice(state, time_limit=0.3, playout="slow")
    assert 0 < len(choices) <= 31  # 0.3 s of 0.01 s choices, then the play-out is dropped
    assert result.status == "limit" and result.reason == "time" and result.nodes == 0
    path = tmp_path / "state.json"
    path.write_text(state.serialize())
    assert main(["lumen", "best", str(path), "--playout", "slow", "--time-limit", "0.3"]) == 1
    capsys.readouterr()
    monkeypatch.undo()
    # the kernel's play-outs stop between choices too, and keep what they played
    result = best_choice(state, time_limit=0.5)
    assert result.status == "feasible" and result.nodes > 0
    for bad in (0, -1, 1.5, "2", True):
        with pytest.raises(LumicoreError, match="min_samples"):
            best_choice(state, time_limit=None, min_samples=bad)


@pytest.mark.parametrize("limits", [{"max_nodes": float("nan")}, {"max_nodes": float("inf")},
                                    {"max_nodes": "abc"}, {"time_limit": "1"},
                                    {"time_limit": [1]}, {"time_limit": 10**400}])
def test_best_choice_rejects_limits_that_are_not_numbers(limits):
    # int(nan), int("abc") and "1" > 0 escaped check_limits as ValueError / TypeError
    from lumicore.errors import SearchLimitError

    state = started(0)
    do(state, "roll", 3, 4)
    with pytest.raises(SearchLimitError):
        best_choice(state, **limits)


@pytest.mark.parametrize("samples", [1, 5, KERNEL_BATCH + 1])
def test_without_a_time_limit_each_choice_gets_exactly_min_samples(samples):
    """The kernel's play-outs came in batches of KERNEL_BATCH: min_samples=1 played 64."""
    state = started(0)
    do(state, "roll", 3, 4)
    result = best_choice(state, time_limit=None, min_samples=samples, seed=5)
    assert [c.samples for c in result.choices] == [samples] * len(result.choices)
    assert result.nodes == samples * len(result.choices)


def _forced_pass() -> GameState:
    """Random play (seed 0) to round 16, where the second player has nothing to write."""
    from lumicore.game import sample_chance

    rng = np.random.default_rng(0)
    state = GameState.new_game(seed=0)
    while not (state.round == 16 and state.phase == "choose" and state.actor != state.first):
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(int(rng.integers(len(state.legal_actions()))))
    return state


def test_the_sheet_objective_values_a_forced_pass_by_the_rounds_after_it():
    """A round with nothing to write was "exact, optimal" at 0.0 whatever the rounds after it
    were worth (2.08 here), even where the rounds left called for Monte Carlo."""
    from lumicore.lumen.dice import SELECTIONS
    from solvers.lumen.solitaire import sheet_value

    state = _forced_pass()
    assert state.moves() == [("pass",)]
    p = state.current_player()
    limits = tuple(state.board.limits[name] for name in SELECTIONS)
    rest = sheet_value(state.sheets[p], tuple(state.uses[p]), limits,
                       state.board.rounds - state.round)
    result = best_choice(state, objective="sheet", time_limit=None)
    assert (result.method, result.status) == ("exact", "optimal") and rest > 0
    assert [c.action for c in result.choices] == [0] and result.best.value == pytest.approx(rest)
    state.round -= 3  # more rounds left than the exact search takes: Monte Carlo
    mc = best_choice(state, objective="sheet", time_limit=None, min_samples=20)
    assert mc.method == "monte carlo" and mc.best.value > rest


def test_the_sheet_objective_stops_at_its_time_limit_before_min_samples():
    """min_samples rounds of play-outs were played whatever the clock said."""
    state = started(0)
    do(state, "roll", 3, 4)
    state.round = 5
    result = best_choice(state, objective="sheet", time_limit=0.001, min_samples=3000)
    assert result.method == "monte carlo" and result.reason == "time"
    assert result.best.samples < 3000


def test_the_sheet_objective_stops_within_its_first_round_of_play_outs():
    """A first round of play-outs (one per choice, each to the end of the game) was always
    played to its end: 0.07-0.19 s at time_limit=0.02 on a first position. With the time
    spent before the first play-out, no choice has one and the status is "limit"."""
    state = started(0)
    do(state, "roll", 3, 4)
    result = best_choice(state, objective="sheet", time_limit=1e-9)
    assert (result.method, result.status, result.reason) == ("monte carlo", "limit", "time")
    assert all(c.samples == 0 for c in result.choices) and len(result.choices) > 1
    assert result.plan == [] and result.value is None and result.nodes == 0


def test_a_choice_without_play_outs_prints_as_none():
    """A choice the limit left unsampled printed as an exact 0.000."""
    from solvers.lumen.planner import Choice, ChoiceResult

    result = ChoiceResult(0, "monte carlo", "feasible",
                          [Choice(3, "player 1: sum 7", 0.5, 0.2, 0.8, 4),
                           Choice(5, "player 1: low 3", 0.0, 0.0, 0.0, 0)], "time", 4, 0.1)
    lines = str(result).splitlines()
    assert "n=4" in lines[1] and "0.000" not in lines[2]
    assert lines[2].split() == ["-", "(no", "play-out", "before", "the", "limit)", "player", "1:",
                                "low", "3"]
    # in JSON too: the value was 0.0, and with no choice valued the plan named the first one
    assert [c["value"] for c in result.to_dict()["choices"]] == [0.5, None]
    nothing = ChoiceResult(0, "monte carlo", "limit", [Choice(5, "player 1: low 3", 0.0, 0.0,
                                                              0.0, 0)], "time", 0, 0.1)
    assert nothing.plan == [] and nothing.value is None and nothing.to_dict()["plan"] == []


def _tie_game(folder) -> GameState:
    """A two-round game on a tiny custom board where every move of player 1 loses for sure
    (value 0) but some leave player 2 a smaller chance than others."""
    (folder / "sheet.toml").write_text('name = "tiny"\nrows = 2\ncols = 2\n[high_command]\n'
                                       'threshold = 6\nsections = [1, 1]\n'
                                       'objective_sections = [1]\n')
    units = "".join(
        f'[units.{n}]\nstrength = {s}\nability = "{a}"\nbag = {b}\n' + extra
        for n, s, a, b, extra in [
            ("shroomling", 2, "none", 2, ""),
            ("mudshell", 3, "none", 1, "moves = false\nprotected = true\n"),
            ("deadly", 1, "kill", 1, ""), ("pusher", 1, "push", 1, ""),
            ("feathered", 1, "fly", 1, ""), ("restorer", 1, "restore", 1, ""),
            ("mercenary", 3, "none", 0, "special = true\n")])
    (folder / "board.toml").write_text(
        'rounds = 2\nlayout = "sheet.toml"\nsupply = 1\n[limits]\nlow = 1\nhigh = 1\nsum = 1\n'
        'product = 1\ndifference = 1\n' + units + '[bonus]\nmercenary = 1\nsecret = 1\n'
        'glow = 1\n[objectives]\nvalues = [2, 3]\n')
    (folder / "scen.toml").write_text(
        'name = "Line"\ninitiative = "b"\nadjacency = [["a", "b"], ["b", "c"]]\n'
        '[territories]\na = { season = "winter", at = [0, 0] }\n'
        'b = { season = "spring", at = [0, 1], discovery = 2 }\n'
        'c = { season = "autumn", at = [0, 2] }\n[[start]]\nplayer = 1\nterritory = "a"\n'
        'units = { shroomling = 1 }\n[[start]]\nplayer = 2\nterritory = "c"\n'
        'units = { shroomling = 1 }\n')
    return GameState.replay({"game": "lumen", "seed": 100032,
                             "actions": [1, 0, 1, 0, 9, 13, 15, 4],
                             "options": {"scenario": str(folder / "scen.toml"),
                                         "board": str(folder / "board.toml")}})


def test_exact_choices_of_equal_value_rank_the_others_lower_chance_first(tmp_path):
    """The search breaks ties towards the lower result of the other; the final ranking sorted
    by the mover's value only and recommended a move that lets player 2 win for certain."""
    state = _tie_game(tmp_path)
    values = exact_values(state)[0]
    mover = state.current_player()
    assert len({v[mover] for v in values}) == 1   # every move is worth the same to the mover
    assert len({v[1 - mover] for v in values}) > 1
    result = best_choice(state, time_limit=None)
    assert result.method == "exact" and result.status == "optimal"
    others = [values[c.action][1 - mover] for c in result.choices]
    assert others == sorted(others) and others[0] == min(v[1 - mover] for v in values)


def test_chance_value_names_its_bad_argument():
    # it raised AttributeError ('str' object has no attribute 'is_chance_node') or TypeError
    # (list indices must be integers); checked only once the evaluation failed
    from lumicore.lumen.game import GameState
    from solvers.lumen.bots import chance_value

    state = GameState(seed=1)
    with pytest.raises(LumicoreError, match=r"^state must be a Lumen GameState, got 'x'$"):
        chance_value("x", 0)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(LumicoreError, match=r"^player must be a player index from 0 to 1"):
        chance_value(state, "0")
    # a negative player read the other player's value, a negative depth took every chance node
    with pytest.raises(LumicoreError, match=r"^player must be a player index from 0 to 1"):
        chance_value(state, -1)
    with pytest.raises(LumicoreError, match=r"^depth must be"):
        chance_value(state, 0, -1)
