"""solvers.reef.best_placement: equal to a brute force over the reference rules on small seeded
cases, pruning never changes the optimum, every plan replays through Reef.place."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lumicore.errors import LumicoreError, SearchLimitError
from lumicore.reef import (
    Board,
    Lumino,
    Piece,
    Reef,
    StartLumino,
    kernel,
    load_board,
    load_tiles,
    reference,
    scoring,
)
from lumicore.reef.sample import random_reef
from lumicore.reef.tiles import COLORS
from solvers.reef import OBJECTIVES as OBJECTIVES_ALL
from solvers.reef import Objective, as_objective, best_placement, weighted

TILES = load_tiles("default").luminos
TINY = Board.parse(" L W\nL S S\n W L\n", name="tiny")          # 7 spaces
SMALL = Board.parse(" L W L\nL S S W\n W L 2\n", name="small")  # 9 spaces, one remote


# ---- an independent oracle: every order, every placement, via the reference rules ---------------


def reference_value(name: str):
    """The objective computed from lumicore.reef.reference / scoring (not the kernel)."""
    if name.startswith("coral:"):
        return lambda reef: reference.coral_score(reef, name[6:])
    if name.startswith("visible:"):
        return lambda reef: reference.visible_counts(reef)[name[8:]]
    board = name.split(":")[1] if ":" in name else None

    def final(reef: Reef) -> float:
        animals = (scoring.dark_animal_points if board == "dark"
                   else scoring.light_animal_points)(reef)
        return (sum(animals.values()) - reference.remote_penalty(reef)
                + 0.25 * sum(reference.visible_counts(reef).values()))

    return final


def brute_force(reef: Reef, hand, limestone: int, value,
                limestone_value: float = 0.0) -> tuple[float, int]:
    """(best value, most limestone left at that value), trying every order and placement."""
    best = (float("-inf"), -1)

    def walk(node: Reef, rest: list, ls: int, returned: int) -> None:
        nonlocal best
        if not rest:
            here = (round(value(node) - returned + limestone_value * ls, 9), ls)
            best = max(best, here)
            return
        for i, tile in enumerate(rest):
            others = rest[:i] + rest[i + 1:]
            walk(node, others, ls, returned + 1)
            for p in reference.placements(node, tile, ls):
                walk(node.place(p), others, ls - p.cost, returned)

    walk(reef, list(hand), limestone, 0)
    return best


def grown(board: Board, pieces: int, seed: int) -> Reef:
    return random_reef(board, pieces=pieces, seed=seed, climb=0.5, limestone=1)


def hand(seed: int, size: int) -> list[Lumino]:
    return random.Random(seed).sample(TILES, size)


def replay(reef: Reef, result, limestone: int) -> tuple[Reef, int]:
    """Play the result's placements through Reef.place (which checks every rule and the cost)."""
    for p in result.placements:
        reef = reef.place(p, limestone)
        limestone -= p.cost
    return reef, limestone


CASES = [(board, pieces, seed, size, limestone)
         for board in (TINY, SMALL) for pieces, seed in ((0, 1), (2, 2), (4, 3), (6, 4))
         for size, limestone in ((3, 1), (2, 2))]
OBJECTIVES = ["coral:pink", "coral:blue", "visible:green", "final:dark", "final:light"]


@pytest.mark.parametrize("board, pieces, seed, size, limestone", CASES)
def test_solver_equals_brute_force_on_small_boards(board, pieces, seed, size, limestone):
    reef = grown(board, pieces, seed)
    tiles = hand(seed, size)
    for k, name in enumerate(OBJECTIVES):
        if k % 2 != seed % 2 and name != "final:dark":   # keep the run short: half of them
            continue
        result = best_placement(reef, tiles, limestone, name)
        value, left = brute_force(reef, tiles, limestone, reference_value(name))
        assert result.status == "optimal"
        assert result.value == pytest.approx(value), (name, str(result))
        assert result.limestone == left
        final, ls = replay(reef, result, limestone)
        assert final == result.reef and ls == result.limestone
        assert reference_value(name)(final) - len(result.discarded) == pytest.approx(value)
        assert sorted(map(str, list(p.lumino for p in result.placements) +
                          list(result.discarded))) == sorted(map(str, tiles))


@pytest.mark.parametrize("side, seed", [("A", 11), ("B", 12)])
def test_solver_equals_brute_force_on_the_real_boards(side, seed):
    reef = random_reef(side, pieces=6, seed=seed, climb=0.6)
    tiles = hand(seed, 2)
    for name in ("coral:yellow", "final:dark"):
        result = best_placement(reef, tiles, 1, name)
        assert (result.value, result.limestone) == pytest.approx(
            brute_force(reef, tiles, 1, reference_value(name)))


FEATURE_NAMES = ["coral:pink", "coral:green", "visible:blue", "animals:dark", "animals:light",
                 "remote"]


@settings(max_examples=25)
@given(seed=st.integers(0, 10**6), pieces=st.integers(0, 5), size=st.integers(1, 3),
       limestone=st.integers(0, 2),
       weights=st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0]), min_size=6, max_size=6))
def test_solver_equals_brute_force_for_random_weighted_objectives(seed, pieces, size, limestone,
                                                                  weights):
    reef = grown(SMALL if seed % 2 else TINY, pieces, seed)
    tiles = hand(seed, size)
    goal = weighted(dict(zip(FEATURE_NAMES, weights, strict=True)))

    def oracle(r: Reef) -> float:
        parts = {"coral:pink": reference.coral_score(r, "pink"),
                 "coral:green": reference.coral_score(r, "green"),
                 "visible:blue": reference.visible_counts(r)["blue"],
                 "animals:dark": sum(scoring.dark_animal_points(r).values()),
                 "animals:light": sum(scoring.light_animal_points(r).values()),
                 "remote": -reference.remote_penalty(r)}
        return sum(w * parts[name] for name, w in zip(FEATURE_NAMES, weights, strict=True))

    result = best_placement(reef, tiles, limestone, goal)
    assert (result.value, result.limestone) == pytest.approx(
        brute_force(reef, tiles, limestone, oracle))


@pytest.mark.parametrize("board, seed", [(TINY, 21), (SMALL, 22), (SMALL, 23)])
@pytest.mark.parametrize("limestone_value", [0.5, 2.0])
def test_limestone_value_prices_the_markers_left(board, seed, limestone_value):
    reef = grown(board, 3, seed)
    tiles = hand(seed, 3)
    value = reference_value("final:dark")
    best_value, _ = brute_force(reef, tiles, 2, value)
    priced, _ = brute_force(reef, tiles, 2, value, limestone_value)
    result = best_placement(reef, tiles, 2, "final:dark", limestone_value=limestone_value)
    plain = best_placement(reef, tiles, 2, "final:dark", limestone_value=limestone_value,
                           prune=False)
    assert result.value == pytest.approx(priced) == pytest.approx(plain.value)
    assert result.value == pytest.approx(
        value(result.reef) - len(result.discarded) + limestone_value * result.limestone)
    assert best_placement(reef, tiles, 2, "final:dark").value == pytest.approx(best_value)


# ---- the bounds and the merging keep the optimum ------------------------------------------------

MIXED = weighted({"coral:green": 1.0, "final:light": 0.5, "visible:yellow": 0.25})


@pytest.mark.parametrize("side", "AB")
@pytest.mark.parametrize("seed", range(6))
def test_pruning_never_changes_the_optimum(side, seed):
    reef = random_reef(side, pieces=15, seed=seed, climb=0.6)
    tiles = hand(100 + seed, 3)
    limestone = seed % 4
    for objective in [f"coral:{COLORS[seed % 4]}", "final:dark", "final:light", MIXED]:
        pruned = best_placement(reef, tiles, limestone, objective)
        plain = best_placement(reef, tiles, limestone, objective, prune=False)
        assert pruned.optimal and plain.optimal
        assert (pruned.value, pruned.limestone) == pytest.approx((plain.value, plain.limestone))
        assert pruned.nodes <= plain.nodes and plain.pruned == 0
        final, ls = replay(reef, pruned, limestone)
        assert final == pruned.reef and ls == pruned.limestone
        goal = as_objective(objective)
        assert goal(final) - len(pruned.discarded) == pytest.approx(pruned.value)


@pytest.mark.parametrize("side", "AB")
def test_the_root_bound_is_above_the_optimum(side):
    goals = [as_objective(name) for name in OBJECTIVES_ALL] + [MIXED]
    for seed in range(15):
        reef = random_reef(side, pieces=3 + 2 * seed, seed=seed, climb=0.6)
        tiles = hand(300 + seed, 1 + seed % 3)
        for goal in goals:
            found = kernel.search_hand(kernel.state(reef), tiles, [1] * len(tiles), seed % 4,
                                     goal.weights, prune=False, max_nodes=None, time_limit=None)
            assert found["complete"] and found["bound"] >= found["value"] - 1e-9, (seed, goal)


@pytest.mark.parametrize("side, seed", [("A", 1), ("B", 2)])
def test_kernel_merging_equals_the_python_search(side, seed):
    """A callable objective runs the Python search (exact tuple keys, no bounds)."""
    reef = random_reef(side, pieces=15, seed=seed, climb=0.6)
    tiles = hand(seed, 2)
    goal = as_objective("final:dark")
    fast_result = best_placement(reef, tiles, 2, goal)
    slow_result = best_placement(reef, tiles, 2, lambda r: goal(r))
    assert (fast_result.value, fast_result.limestone) == pytest.approx(
        (slow_result.value, slow_result.limestone))
    assert slow_result.status == "optimal" and slow_result.pruned == 0


def test_the_bounds_prune_on_mid_game_reefs():
    reef = random_reef("A", pieces=15, seed=7)
    tiles = hand(7, 3)
    pruned = best_placement(reef, tiles, 2, "coral:pink")
    plain = best_placement(reef, tiles, 2, "coral:pink", prune=False)
    assert pruned.pruned > 0 and pruned.nodes < plain.nodes


def test_identical_tiles_and_orders_merge():
    reef = random_reef("A", pieces=10, seed=3)
    result = best_placement(reef, "pink 3, pink 3, pink 3", 0, "visible:pink", prune=False)
    assert result.merged > 0 and result.optimal
    assert len(result.placements) == 3 and result.value == reference.visible_counts(
        result.reef)["pink"]


# ---- rule 5, limits, objectives, input checks ---------------------------------------------------


def test_a_tile_that_fits_nowhere_goes_back_to_the_bag():
    board = Board.parse("1 S S 2\n W L W\n", name="remote")   # every free pair has a water space
    reef = Reef.new(board, start=("pink", "green"))
    result = best_placement(reef, "blue 3 crab", 0, "animals:dark")
    assert result.discarded == (Lumino("blue", 3, "crab"),) and result.value == -1.0
    result = best_placement(reef, "blue 3 crab", 1, "animals:dark")
    assert result.placements and result.value == 2.0 and result.limestone == 0


def test_returning_beats_a_harmful_placement():
    # a row of four spaces: the start, then a pink Lumino whose crab lies next to the start
    row = Board.parse("S S L L\n", name="row")
    reef = Reef.build(row, ("pink", "green"), [("pink 1 crab", (0, 6), (0, 4))])
    # the only place for a green tile covers the crab: returning it (2 - 1 VP) beats placing (0)
    hidden = best_placement(reef, "green 2", 0, "animals:dark")
    assert hidden.discarded == (Lumino("green", 2),) and hidden.value == 1.0
    # a green crab may go there: its own crab replaces the covered one (2 VP)
    kept = best_placement(reef, "green 2 crab", 0, "animals:dark")
    assert kept.value == 2.0 and kept.placements[0].other_cell == (0, 4)
    for tile in ("green 2", "green 2 crab"):
        assert brute_force(reef, [Lumino.parse(tile)], 0, lambda r: sum(
            scoring.dark_animal_points(r).values()))[0] == (1.0 if tile == "green 2" else 2.0)


def test_limits_stop_with_a_legal_plan():
    reef = random_reef("B", pieces=15, seed=4)
    tiles = hand(4, 3)
    for kwargs in ({"max_nodes": 1}, {"max_nodes": 50}, {"time_limit": 1e-6}):
        result = best_placement(reef, tiles, 3, "final:dark", **kwargs)
        assert result.status == "limit"
        final, ls = replay(reef, result, 3)
        assert final == result.reef and ls == result.limestone
        assert len(result.placements) + len(result.discarded) == 3
    with pytest.raises(SearchLimitError):
        best_placement(reef, tiles, 3, max_nodes=0)


def test_a_callable_objective_stops_at_the_first_node_past_the_time_limit():
    """The clock was read every 1024 nodes: with a 1 ms objective a 0.01 s limit took 1.27 s.
    Counted in objective calls here, not seconds: a time limit spent by the first call stops
    the search at the next node."""
    import time

    reef = Reef.new(load_board("B"), start=("pink", "green"))
    calls = []

    def objective(r):
        calls.append(1)
        time.sleep(0.002)
        return r.visible_count("pink")

    result = best_placement(reef, "pink 3 crab, blue 5, yellow 2 seahorse", 3, objective,
                            time_limit=1e-3)
    assert result.status == "limit" and len(calls) <= 3  # the first leaf (one plan) and one more


def test_objectives_and_their_names():
    reef = random_reef("B", pieces=12, seed=9)
    final = as_objective("final:light")
    assert final(reef) == pytest.approx(reference_value("final:light")(reef))
    assert as_objective({"coral:pink": 2})(reef) == 2 * reference.coral_score(reef, "pink")
    assert as_objective("remote")(reef) == -reference.remote_penalty(reef)
    with pytest.raises(LumicoreError, match="unknown objective"):
        as_objective("coral:red")
    with pytest.raises(LumicoreError):
        weighted({"coral:pink": float("nan")})


def test_negative_weights_search_without_bounds_and_stay_exact():
    reef = grown(SMALL, 4, 5)
    tiles = hand(5, 3)
    goal = weighted({"visible:pink": -1.0, "coral:blue": 1.0})
    result = best_placement(reef, tiles, 1, goal)
    assert result.pruned == 0
    assert (result.value, result.limestone) == pytest.approx(brute_force(
        reef, tiles, 1, lambda r: reference.coral_score(r, "blue")
        - reference.visible_counts(r)["pink"]))


@pytest.mark.parametrize("bad", [[], "pink 1, pink 2, pink 3, pink 4", ["pink 3"]])
def test_bad_hands_are_refused(bad):
    reef = Reef.new(load_board("A"), start=("pink", "green"))
    with pytest.raises(LumicoreError):
        best_placement(reef, bad, 2)


def test_a_tower_beyond_the_kernel_is_refused():
    board = Board.parse("S S L\n", name="row")
    start = Piece(StartLumino("pink", "green"), 0, 1, 1)
    tower = [Piece(Lumino("blue", 2), 1, 0, level) for level in range(2, kernel.MAX_HEIGHT)]
    reef = Reef(board, (start, *tower))
    assert best_placement(reef, "blue 1", 0).optimal
    with pytest.raises(LumicoreError, match="levels high"):
        best_placement(reef, "blue 1, blue 2, blue 3", 0)


def test_bad_limestone_and_reef_are_refused():
    reef = Reef.new(load_board("A"), start=("pink", "green"))
    with pytest.raises(LumicoreError):
        best_placement(reef, "pink 1", -1)
    with pytest.raises(LumicoreError):
        best_placement("reef", "pink 1", 1)
    with pytest.raises(LumicoreError, match="limestone 11: storage holds 0..10"):
        best_placement(reef, "pink 1", 11)  # the CLI refused it; the library searched with it
    assert best_placement(reef, "pink 1", 10).limestone <= 10


def test_bad_limestone_value_and_prune_are_named():
    """A limestone_value past a float's range raised math's OverflowError, an array for prune
    numpy's "truth value is ambiguous"; both are now LumicoreErrors naming the argument."""
    reef = Reef.new(load_board("A"), start=("pink", "green"))
    for value in (10**400, -(10**400), float("nan"), "1"):
        with pytest.raises(LumicoreError, match="limestone_value"):
            best_placement(reef, "pink 1", 1, limestone_value=value)
    for prune in (None, "yes", 1, [True, False]):
        with pytest.raises(LumicoreError, match="prune"):
            best_placement(reef, "pink 1", 1, prune=prune)


def test_result_prints_the_plan():
    reef = Reef.new(load_board("A"), start=("pink", "green"))
    text = str(best_placement(reef, "pink 3 crab, blue 5", 4, "final:dark"))
    assert "pink 3 crab" in text and "blue 5" in text and "optimal" in text


@pytest.mark.slow
def test_pruning_never_changes_the_optimum_thorough():
    """Every built-in objective and a mixed one, 80 random reefs and hands (about a minute)."""
    goals = [*OBJECTIVES_ALL, MIXED, weighted({"remote": 2.0, "animals:light": 1.0})]
    for seed in range(80):
        reef = random_reef("AB"[seed % 2], pieces=random.Random(seed).randint(3, 25), seed=seed,
                           climb=0.6)
        tiles = hand(seed + 7, 3)
        for goal in goals:
            pruned = best_placement(reef, tiles, seed % 5, goal)
            plain = best_placement(reef, tiles, seed % 5, goal, prune=False)
            assert (pruned.value, pruned.limestone) == pytest.approx(
                (plain.value, plain.limestone)), (seed, str(goal))


@pytest.mark.parametrize("value", [math.nan, math.inf, "high", None])
def test_an_objective_that_is_no_finite_number_is_named(value):
    """A callable objective returning NaN gave a placement of value NaN (every comparison of
    the search false: the first plan kept), and a text a ValueError from float()."""
    reef = random_reef("A", pieces=10, seed=3, climb=0.6)
    with pytest.raises(LumicoreError, match="finite number"):
        best_placement(reef, hand(3, 1), 0, lambda r: value)


# ---- Ctrl-C -------------------------------------------------------------------------------------

LONG_HAND = "green 5 starfish, green 3 starfish, green 4"


def long_search_reef() -> Reef:
    """A young reef where 3 green tiles with 10 limestone have about 90 placements each: without
    pruning the search walks about 1.3 million nodes (0.4 s here; 3.5 million and 2 s on a
    64-space board), far more than the 32768 between two polls of the kernel."""
    return random_reef("B", pieces=2, seed=5, climb=0.0, limestone=10)


@pytest.mark.parametrize("press", ["signal", "dropped"])
def test_ctrl_c_stops_the_kernel_search_with_its_best_plan(monkeypatch, press):
    """The kernel polls for Ctrl-C: a SIGINT that arrives while it runs (``signal``; delivered
    by the kernel's poll) or a press whose KeyboardInterrupt Python dropped (``dropped``:
    only solvers.ctrl_c.pressed() knows) ends it with status "interrupted" and the best legal
    plan so far. Before, the search ran to its end and the SIGINT raised KeyboardInterrupt
    afterwards: no result at all."""
    import signal
    import threading

    import solvers.reef.placement as placement
    from solvers.ctrl_c import pressed as noted

    polls = []

    def pressed() -> bool:
        polls.append(1)
        if press == "dropped":
            return len(polls) >= 2
        if len(polls) == 1:  # the signal comes while the kernel runs, between two polls
            threading.Timer(0.01, signal.raise_signal, (signal.SIGINT,)).start()
        return noted()  # the kernel delivers it to the handler, which notes it

    monkeypatch.setattr(placement, "pressed", pressed, raising=False)
    reef = long_search_reef()
    result = best_placement(reef, LONG_HAND, 10, "final:light", prune=False)
    assert result.status == "interrupted" and not result.optimal
    assert polls and result.nodes < 1_000_000
    assert result.placements  # a complete plan was found before the press: it is kept
    final, ls = replay(reef, result, 10)
    assert final == result.reef and ls == result.limestone
    assert result.value == pytest.approx(as_objective("final:light")(final)
                                         - len(result.discarded))
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


@pytest.mark.parametrize("window", ["before", "after"])
def test_ctrl_c_just_before_or_after_the_kernel_search_is_interrupted(monkeypatch, window):
    """A press in the Python lines around the kernel's search (``before``: as the reef's kernel
    state is made; ``after``: while the plan it found is replayed and scored) escaped
    best_placement as KeyboardInterrupt; now it gives the result, "interrupted", with the best
    plan found (here the whole search: the kernel's first poll comes after 32768 nodes)."""
    import signal

    from ctrl_c_helpers import ctrl_c_on_call

    import solvers.reef.placement as placement

    reef = random_reef("A", pieces=10, seed=3, climb=0.6)
    whole = best_placement(reef, "pink 3, pink 5 crab, blue 2", 4, "final:dark")
    owner, name = (kernel, "state") if window == "before" else (placement, "_score")
    calls = ctrl_c_on_call(monkeypatch, owner, name)
    try:
        result = best_placement(reef, "pink 3, pink 5 crab, blue 2", 4, "final:dark")
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C escaped best_placement as KeyboardInterrupt")
    assert calls and result.status == "interrupted" and not result.optimal
    assert result.value == whole.value and result.placements == whole.placements
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_the_kernel_poll_is_checked_and_its_errors_raised():
    reef = long_search_reef()
    tiles = list(dict.fromkeys(Lumino.parse(t) for t in LONG_HAND.split(", ")))
    goal = as_objective("final:light")

    def search(poll):
        return kernel.search_hand(kernel.state(reef), tiles, [1] * len(tiles), 10, goal.weights,
                                  prune=False, max_nodes=None, time_limit=None, poll=poll)

    stopped = search(lambda: True)
    assert stopped["interrupted"] and not stopped["complete"] and stopped["nodes"] == 32768
    with pytest.raises(ZeroDivisionError):
        search(lambda: 1 / 0)
    with pytest.raises(LumicoreError, match="poll must be callable"):
        search(True)


def test_ctrl_c_stops_the_search_of_a_callable_objective_with_its_best_plan():
    """The Python search (a callable objective) ends like the kernel's: status "interrupted"
    and the best legal plan so far, not a KeyboardInterrupt."""
    reef = random_reef("A", pieces=10, seed=3, climb=0.6)
    calls = []

    def objective(r: Reef) -> float:
        calls.append(1)
        if len(calls) == 40:
            raise KeyboardInterrupt
        return float(r.coral_score("pink"))

    try:
        result = best_placement(reef, "pink 3, pink 5 crab, blue 2", 4, objective)
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C escaped the search as KeyboardInterrupt")
    assert result.status == "interrupted" and not result.optimal
    final, ls = replay(reef, result, 4)
    assert final == result.reef and ls == result.limestone


def test_ctrl_c_as_the_python_search_builds_its_result_is_interrupted(monkeypatch):
    """A press after the Python search (a callable objective), while its best plan is replayed
    and scored, escaped best_placement as KeyboardInterrupt (the result was built after its
    noting() block); now it gives the result, "interrupted", with the plan the search found
    (here the whole search's)."""
    import signal

    from ctrl_c_helpers import ctrl_c_on_call

    import solvers.reef.placement as placement

    reef = random_reef("A", pieces=10, seed=3, climb=0.6)

    def objective(r: Reef) -> float:
        return float(r.coral_score("pink"))

    whole = best_placement(reef, "pink 3, pink 5 crab, blue 2", 4, objective)
    calls = ctrl_c_on_call(monkeypatch, placement, "_result")
    try:
        result = best_placement(reef, "pink 3, pink 5 crab, blue 2", 4, objective)
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C escaped best_placement as KeyboardInterrupt")
    assert calls == [1] and whole.status == "optimal"
    assert result.status == "interrupted" and not result.optimal
    assert result.value == whole.value and result.placements == whole.placements
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


# ---- progress -----------------------------------------------------------------------------------

def test_the_search_reports_its_nodes_to_progress():
    """best_placement had no progress: `reef best` could walk millions of nodes in silence."""
    calls = []
    result = best_placement(long_search_reef(), LONG_HAND, 10, "final:light", prune=False,
                            progress=lambda *a: calls.append(a))
    assert result.optimal and len(calls) == result.nodes // kernel.POLL_NODES
    assert [n for n, _ in calls] == [kernel.POLL_NODES * k for k in range(1, len(calls) + 1)]
    assert all(b >= a >= 0 for (_, a), (_, b) in zip(calls, calls[1:], strict=False))
    python = []  # the Python search of a callable objective: every 256 nodes
    result = best_placement(random_reef("A", pieces=10, seed=3, climb=0.6), "pink 3, blue 2", 4,
                            lambda r: float(r.coral_score("pink")),
                            progress=lambda *a: python.append(a))
    assert [n for n, _ in python] == [256 * k for k in range(1, result.nodes // 256 + 1)]


def test_progress_that_raises_stops_the_search():
    def press(*_):
        raise KeyboardInterrupt

    def boom(*_):
        raise RuntimeError("boom")
    reef = long_search_reef()
    stopped = best_placement(reef, LONG_HAND, 10, "final:light", prune=False, progress=press)
    assert stopped.status == "interrupted" and stopped.nodes == kernel.POLL_NODES
    with pytest.raises(RuntimeError, match="boom"):
        best_placement(reef, LONG_HAND, 10, "final:light", prune=False, progress=boom)
    with pytest.raises(LumicoreError, match="progress must be callable"):
        best_placement(reef, LONG_HAND, 10, progress="yes")


@pytest.mark.parametrize("value", [1e308, -1e308, 1e10, -2e9])
def test_a_price_whose_plans_could_overflow_is_refused(value):
    """``limestone_value=1e308`` is finite, but times the markers left it made every plan worth
    inf, reported "optimal" (ties could hide a worse plan): a price is at most 1e9 in size."""
    reef = Reef.new(load_board("A"), start=("pink", "green"))
    with pytest.raises(LumicoreError, match=r"^limestone_value must be a number from -1e9 to 1e9"):
        best_placement(reef, "pink 3 crab, blue 5", 4, limestone_value=value)
    with pytest.raises(LumicoreError, match=r"weights add up to .* for coral:pink; a weight is a "
                                            r"number from -1e9 to 1e9"):
        best_placement(reef, "pink 1", 1, objective={"coral:pink": value})
    with pytest.raises(LumicoreError, match="finite weights from -1e9 to 1e9"):
        Objective((value,) + (0.0,) * (len(kernel.FEATURES) - 1))
    start, tile = kernel.state(reef), [Lumino("pink", 1)]
    zero = [0.0] * len(kernel.FEATURES)
    with pytest.raises(LumicoreError, match=r"^discard_cost must be a number from -1e9"):
        kernel.search_hand(start, tile, [1], 1, zero, prune=False, max_nodes=None,
                           time_limit=None, discard_cost=value)
    with pytest.raises(LumicoreError, match=r"^the weight of coral:pink must be a number"):
        kernel.search_hand(start, tile, [1], 1, [value] + zero[1:], prune=False, max_nodes=None,
                           time_limit=None)


def test_the_largest_price_still_searches_to_a_finite_optimum():
    reef = Reef.new(load_board("A"), start=("pink", "green"))
    priced = best_placement(reef, "pink 3 crab, blue 5", 4, limestone_value=1e9)
    plain = best_placement(reef, "pink 3 crab, blue 5", 4)
    assert priced.status == "optimal" and math.isfinite(priced.value)
    assert priced.value == plain.value + 4e9 and priced.limestone == 4
