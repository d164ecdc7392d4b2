"""A Ctrl-C whose KeyboardInterrupt Python drops (raised inside a garbage-collection callback,
as hypothesis installs one) still stops every Lemuria search at its next step: solvers.ctrl_c.
In CI such a press once let a year's search run on to its time limit."""

from __future__ import annotations

import contextlib
import gc
import math
import signal
import sys

import pytest

from lumicore.lemuria import default_instance, simulate
from solvers import ctrl_c
from solvers.lemuria import bound, branch, build_schedule, characters
from solvers.lemuria.bound import lagrangian_bound
from solvers.lemuria.branch import branch_bound
from solvers.lemuria.characters import best_characters
from solvers.lemuria.greedy import greedy_schedule
from solvers.limits import Budget


@pytest.fixture
def dropped_ctrl_c(monkeypatch):
    """Arm: Ctrl-C arrives inside the next garbage collection and Python drops its exception.
    Returns the list of dropped exceptions (one after the press)."""
    dropped: list[BaseException] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda raised: dropped.append(raised.exc_value))

    def press_inside_gc(phase: str, _info: dict) -> None:
        if phase == "start":
            gc.callbacks.remove(press_inside_gc)
            signal.raise_signal(signal.SIGINT)
            sum(range(10_000))  # Python runs its signal handler here, inside the callback

    def arm(collect_in: tuple[object, str] | None = None) -> list[BaseException]:
        """``collect_in``: (module, function) that collects garbage when first called, for a
        search whose loop frees what it allocates (no collection would come by itself)."""
        gc.callbacks.append(press_inside_gc)
        if collect_in is not None:
            owner, name = collect_in
            real = getattr(owner, name)

            def collecting(*args, **kwargs):
                if press_inside_gc in gc.callbacks:
                    gc.collect()
                return real(*args, **kwargs)

            monkeypatch.setattr(owner, name, collecting)
        return dropped

    yield arm
    if press_inside_gc in gc.callbacks:
        gc.callbacks.remove(press_inside_gc)


def _was_dropped(dropped: list[BaseException]) -> bool:
    return any(isinstance(exc, KeyboardInterrupt) for exc in dropped)


def test_a_dropped_press_is_noted_and_raised_again(dropped_ctrl_c):
    before = signal.getsignal(signal.SIGINT)
    with ctrl_c.noting():
        dropped = dropped_ctrl_c()
        gc.collect()
        assert _was_dropped(dropped) and ctrl_c.pressed()
        with pytest.raises(KeyboardInterrupt):
            ctrl_c.check()
    assert not ctrl_c.pressed() and signal.getsignal(signal.SIGINT) is before
    ctrl_c.check()  # the record ends with the outermost noting()


def test_the_bound_steps_stop(dropped_ctrl_c):
    inst = default_instance(1)
    whole = lagrangian_bound(inst, time_limit=30)
    dropped = dropped_ctrl_c((bound, "_price"))
    cut = lagrangian_bound(inst, time_limit=30)
    assert _was_dropped(dropped) and cut.interrupted and cut.steps < whole.steps
    assert cut.value >= whole.value - 1e-6  # fewer steps: a bound no lower


def test_the_branch_and_bound_stops(dropped_ctrl_c):
    inst = default_instance(1, turns=6)
    root = lagrangian_bound(inst, time_limit=30)
    dropped = dropped_ctrl_c((branch, "_split"))
    result = branch_bound(inst, time_limit=30, root=root)
    assert _was_dropped(dropped) and result.status == "interrupted" and result.nodes < 10


def test_the_branch_and_bound_stopped_at_its_first_step_keeps_the_roots_bound(dropped_ctrl_c):
    """A press before the first node was spent (the bound so far still infinite) raised
    OverflowError (the infinite bound rounded down against the target) instead of the result;
    so did the branch and bound beside CP-SAT when its process was forked just after a press
    Python dropped (the fork inherits the record of the press)."""
    inst = default_instance(1, turns=6)
    root = lagrangian_bound(inst, time_limit=30)
    dropped = dropped_ctrl_c((Budget, "spend"))
    result = branch_bound(inst, time_limit=30, root=root, target=10)
    assert _was_dropped(dropped) and result.status == "interrupted" and result.nodes == 1
    assert result.bound == math.floor(root.value + 1e-6)


def test_the_character_search_stops(dropped_ctrl_c):
    inst = default_instance(1)
    greedy = greedy_schedule(inst)
    dropped = dropped_ctrl_c((characters._Search, "_turn"))
    plan = best_characters(inst, greedy, time_limit=30)
    assert _was_dropped(dropped) and plan.status == "interrupted"
    assert simulate(inst, plan.schedule).total == plan.vp >= greedy.vp


def test_a_year_interrupted_while_its_fast_bound_is_computed(dropped_ctrl_c, monkeypatch):
    inst = default_instance(1)
    dropped = dropped_ctrl_c((bound, "_price"))
    priced = bound._price
    after = []  # pricing steps begun after the press (a collection may come before the first)

    def counted(*args, **kwargs):
        if _was_dropped(dropped):
            after.append(args)
        return priced(*args, **kwargs)

    monkeypatch.setattr(bound, "_price", counted)
    plan = build_schedule(inst, time_limit=30, workers=1, seed=0)
    assert _was_dropped(dropped) and plan.status == "interrupted"
    # the bound stopped at its first check after the press (one that did not hear it prices on
    # for its seconds: 68 steps here), and no CP-SAT run followed
    assert len(after) <= 1 and plan.branches == 0
    assert simulate(inst, plan).total == plan.vp


def _lumen_mid_game():
    from lumen_helpers import do, started

    state = started(0)
    do(state, "roll", 3, 4)
    return state


def _lumen_sheet_game():
    state = _lumen_mid_game()
    state.round = 10
    return state


def _searches():
    """Each other Python search as (set-up, search, where a collection is forced): the search
    runs far longer than a test (the time limits are a backstop) and gives the status."""
    import solvers.arena as arena
    import solvers.lumen.odds as odds
    import solvers.lumen.planner as planner
    import solvers.lumen.solitaire as solitaire
    import solvers.reef.turn as turn
    from lumicore.reef.game import Game
    from solvers.lumen import best_choice, win_probability

    def reef_game():
        game = Game.new(players=2, seed=3)
        while game.phase == "orient":
            game.play(game.decisions()[0])
        return game

    return {
        "lumen win_probability": (_lumen_mid_game, lambda state: win_probability(
            state, samples=10**6, bot="random").status, (odds, "_play_out")),
        "lumen best_choice": (_lumen_mid_game, lambda state: best_choice(
            state, time_limit=60, playout="random").status, (planner, "_playout")),
        "lumen sheet choice": (_lumen_sheet_game, lambda state: best_choice(
            state, objective="sheet", time_limit=60).status, (solitaire, "_greedy_rest")),
        "reef best_turn": (reef_game, lambda game: turn.best_turn(game, time_limit=60).status,
                           (turn, "_weigh")),
        "arena tournament": (lambda: None, lambda _: arena.tournament(
            "reef", ["random", "greedy"], games=10**5, workers=1, progress=False).status,
            (arena, "_play_job")),
    }


@pytest.mark.parametrize("name", list(_searches()))
def test_every_python_search_stops(name, dropped_ctrl_c):
    set_up, search, collect_in = _searches()[name]
    state = set_up()
    dropped = dropped_ctrl_c(collect_in)
    assert search(state) == "interrupted" and _was_dropped(dropped)


@pytest.fixture
def press_as_switched(monkeypatch):
    """Arm: a real Ctrl-C the moment ``noting()`` switches the SIGINT handler ("in": just after
    its handler is installed; "out": just before the previous one is put back)."""
    switch = signal.signal
    before = signal.getsignal(signal.SIGINT)

    def arm(when: str) -> None:

        def switching(signum, handler):
            if when == "out" and handler is before:
                signal.raise_signal(signal.SIGINT)  # its handler runs as this call returns
            old = switch(signum, handler)
            if when == "in" and handler is not before:
                signal.raise_signal(signal.SIGINT)
            return old

        monkeypatch.setattr(signal, "signal", switching)

    yield arm
    switch(signal.SIGINT, before)  # were it left in place, the tests after would fail too


@pytest.mark.parametrize("when", ["in", "out"])
@pytest.mark.parametrize("raising", [True, False])
def test_a_press_as_the_handler_is_switched_leaves_nothing_behind(press_as_switched, when,
                                                                  raising):
    """The press is the block's as noting() begins (raised from the with statement, or noted
    for the block), and the previous handler's as it ends (raised once that handler is back).
    The handler of noting() stayed in place instead (each later press went through it, outside
    any noting()): the press as it began escaped between the switch and the try, and the press
    as it ended raised inside the finally before the switch back (or, not raising, was lost)."""
    before = signal.getsignal(signal.SIGINT)
    press_as_switched(when)
    raised = raising or when == "out"
    seen = []
    with pytest.raises(KeyboardInterrupt) if raised else contextlib.nullcontext():
        with ctrl_c.noting(raising):
            seen.append(ctrl_c.pressed())
    assert seen == ([] if raising and when == "in" else [when == "in"])
    assert signal.getsignal(signal.SIGINT) is before
    assert ctrl_c._depth == 0 and not ctrl_c.pressed()
