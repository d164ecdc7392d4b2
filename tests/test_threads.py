"""Searches in several threads of one process: a search lets the others run, and a Ctrl-C meant
for the main thread's search does not stop searches that other threads started on their own."""

from __future__ import annotations

import signal
import threading

import pytest

from lumicore.game import new_game
from lumicore.lemuria import default_instance
from lumicore.lucia.deal import deal
from lumicore.reef.sample import random_reef
from solvers.arena import play_game
from solvers.ctrl_c import listening, noting, pressed, watcher
from solvers.lemuria import build_schedule
from solvers.lucia import solve_deal
from solvers.lumen import best_choice
from solvers.reef import best_placement


def test_a_deal_search_lets_other_threads_run():
    """The deal search held the GIL till it ended (without a progress callback): a timer thread
    could not run, so neither could its Ctrl-C, nor any other thread's work or clock."""
    pressed_at = threading.Event()

    def press() -> None:
        pressed_at.set()
        signal.raise_signal(signal.SIGINT)

    timer = threading.Timer(0.3, press)
    timer.start()
    try:  # millions of positions: seconds of searching, were it not stopped
        result = solve_deal(deal(7, players=2), max_nodes=50_000_000, time_limit=120)
    finally:
        timer.cancel()
    assert pressed_at.is_set()
    assert (result.status, result.reason) == ("interrupted", "interrupted")
    assert result.nodes < 50_000_000


def test_a_thread_hears_the_main_threads_ctrl_c_unless_it_runs_a_search_of_its_own():
    heard: dict[str, bool] = {}

    def helper() -> None:  # as a solver's callback thread: part of the main thread's search
        heard["helper"] = pressed()

    def own_search() -> None:
        with noting():
            heard["own"] = pressed()
            heard["listening"] = listening()
            heard["watcher"] = watcher()()

    with noting(raising=False):
        signal.raise_signal(signal.SIGINT)
        assert pressed() and watcher()()
        for target in (helper, own_search):
            thread = threading.Thread(target=target)
            thread.start()
            thread.join()
    assert heard == {"helper": True, "own": False, "listening": False, "watcher": False}
    assert not pressed()  # the record ends with the outermost block


def _in_a_thread(run):
    """``run()`` in a thread of its own while the main thread's search has recorded a Ctrl-C:
    its result, or the exception it raised."""
    out: list[object] = []

    def target() -> None:
        try:
            out.append(run())
        except BaseException as exc:  # noqa: BLE001 - a KeyboardInterrupt is the failure shown
            out.append(exc)

    with noting(raising=False):
        signal.raise_signal(signal.SIGINT)
        thread = threading.Thread(target=target)
        thread.start()
        thread.join(timeout=120)
    assert not thread.is_alive()
    return out[0]


SEARCHES = {
    "lemuria build_schedule": lambda: build_schedule(default_instance(1, turns=3), time_limit=5,
                                                     workers=1).status,
    "reef best_placement": lambda: best_placement(
        random_reef("B", pieces=8, seed=2), "pink 3 crab, blue 5", 2, max_nodes=2000).status,
    "lumen best_choice": lambda: best_choice(_lumen_position(), time_limit=None,
                                             min_samples=20).status,
    "arena play_game": lambda: play_game("reef", ["greedy", "random"], seed=1)[1].is_terminal(),
}


def _lumen_position():
    state = new_game("lumen", seed=1)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


@pytest.mark.parametrize("name", list(SEARCHES))
def test_a_search_of_another_thread_runs_on_through_the_main_threads_ctrl_c(name):
    """A press recorded for the main thread's search stopped searches of other threads too
    (they read the same record): "interrupted", or a KeyboardInterrupt in that thread."""
    result = _in_a_thread(SEARCHES[name])
    assert not isinstance(result, BaseException), repr(result)
    assert result not in ("interrupted", False)
