"""The Cython reef kernel (lumicore.reef.kernel): placement rules on hand-made reefs, differential
tests against lumicore.reef.reference on reefs grown by random legal play, input checks."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lumicore.errors import LumicoreError, SearchLimitError
from lumicore.reef import Board, Lumino, Piece, Reef, StartLumino, kernel, load_board, reference
from lumicore.reef.sample import random_reef
from lumicore.reef.tiles import ANIMALS, COLORS

# A small board: the starting area in the middle, every other space next to it.
#  row 0:  (0,1)L (0,3)W (0,5)L
#  row 1:  (1,0)L (1,2)S (1,4)S (1,6)W
#  row 2:  (2,1)W (2,3)L (2,5)L
SMALL = Board.parse(" L W L\nL S S W\n W L L\n", name="small")
# Free spaces form a ring of 8 edges; W spaces are (0,3), (1,6), (2,1).
RING = [((0, 1), (0, 3)), ((0, 3), (0, 5)), ((0, 1), (1, 0)), ((1, 0), (2, 1)),
        ((2, 1), (2, 3)), ((2, 3), (2, 5)), ((2, 5), (1, 6)), ((1, 6), (0, 5))]


def both_ways(edges):
    return {pair for a, b in edges for pair in ((a, b), (b, a))}


def cells(placements):
    return {(p.number_cell, p.other_cell) for p in placements}


# ---- the rules, on hand-made reefs (expected sets worked out from reef.md by hand) ------------


def test_first_tile_of_a_new_colour_touches_any_lumino_and_pays_water():
    reef = Reef.new(SMALL, start=("pink", "green"))
    free = [edge for edge in RING if not {"(0, 3)", "(1, 6)", "(2, 1)"} & {str(c) for c in edge}]
    assert cells(kernel.placements(reef, Lumino("blue", 2), 0)) == both_ways(free)
    assert cells(kernel.placements(reef, Lumino("blue", 2), 1)) == both_ways(RING)
    assert {p.cost for p in kernel.placements(reef, Lumino("blue", 2), 5)} == {0, 1}
    assert all(p.level == 1 for p in kernel.placements(reef, Lumino("blue", 2), 5))


def test_level_1_must_touch_its_own_colour_when_it_can():
    reef = Reef.new(SMALL, start=("pink", "green"))  # pink on (1,2)
    away = {((2, 5), (1, 6)), ((1, 6), (0, 5))}      # no cell next to (1,2)
    expected = both_ways(edge for edge in RING if edge not in away)
    assert cells(kernel.placements(reef, Lumino("pink", 2), 2)) == expected


def test_level_1_exception_when_no_free_pair_touches_the_own_colour():
    reef = Reef.build(SMALL, ("green", "yellow"), [
        ("pink 1", (0, 5), (1, 6)),    # no pink yet: touches the start
        ("blue 1", (0, 1), (0, 3)),    # no blue yet
        ("yellow 1", (2, 3), (2, 5)),  # touches the yellow start half
    ])
    # the only free pair, (1,0)-(2,1), touches no pink: a pink may go there anyway
    level_1 = {c for p in kernel.placements(reef, Lumino("pink", 2), 1) if p.level == 1
               for c in [(p.number_cell, p.other_cell)]}
    assert level_1 == both_ways([((1, 0), (2, 1))])
    assert not [p for p in kernel.placements(reef, Lumino("pink", 2), 0) if p.level == 1]


def test_higher_levels_cover_or_touch_the_own_colour_never_one_lumino_never_tilted():
    reef = Reef.build(SMALL, ("green", "yellow"), [
        ("pink 1", (0, 5), (1, 6)),
        ("blue 1", (0, 1), (0, 3)),
        ("yellow 1", (2, 3), (2, 5)),
    ])
    pink = cells(p for p in kernel.placements(reef, Lumino("pink", 2), 0) if p.level == 2)
    assert ((0, 5), (1, 4)) in pink                       # covers a pink space
    assert ((0, 5), (1, 6)) not in pink                   # would exactly cover the pink Lumino
    assert ((0, 3), (1, 4)) not in pink                   # covers no pink, touches none in level 2
    assert all(p.level in (1, 2) for p in kernel.placements(reef, Lumino("pink", 2), 0))
    assert ((1, 0), (1, 2)) not in cells(kernel.placements(reef, Lumino("green", 2), 5))  # tilted
    green = cells(kernel.placements(reef, Lumino("green", 2), 0))
    assert ((0, 5), (1, 4)) not in green
    higher = reef.place(reef.placement_at(Lumino("green", 4), (1, 2), (0, 1)))
    green = cells(kernel.placements(higher, Lumino("green", 2), 0))
    assert ((0, 5), (1, 4)) in green                      # touches green in level 2 at (1,2)


def test_remote_spaces_cost_nothing_and_count_as_penalties():
    board = Board.parse("1 S S 2\n W L W\n", name="remote")
    reef = Reef.new(board, start=("pink", "green"))
    assert kernel.placements(reef, Lumino("blue", 1), 0) == []   # every free pair has one W
    found = kernel.placements(reef, Lumino("blue", 1), 1)
    assert len(found) == 8 and {p.cost for p in found} == {1}
    assert reef.remote_penalty() == 3
    covered = reef.place(reef.placement_at(Lumino("blue", 1), (0, 0), (1, 1)), 1)
    assert covered.remote_penalty() == 2


def test_visible_views_follow_the_top_of_each_stack():
    reef = Reef.build(SMALL, ("green", "yellow"), [
        ("pink 1 crab", (0, 5), (1, 6)),
        ("blue 6 seahorse", (0, 1), (0, 3)),
        ("yellow 1", (2, 3), (2, 5)),
        ("pink 5 starfish", (0, 5), (1, 4)),
    ])
    assert reef.visible_counts() == {"pink": 3, "green": 1, "blue": 2, "yellow": 2}
    assert reef.visible_animals() == {"shellfish": 0, "crab": 1, "seahorse": 1,
                                          "starfish": 1}
    # pink: level 1 shows no pink number (the 1 is covered), level 2 shows the 5
    assert reef.coral_score("pink") == 5
    assert reef.coral_score("yellow") == 1 and reef.coral_score("blue") == 6
    # dark board (rulebook): 1 crab 2, 1 seahorse 1, 1 starfish 4
    assert reef.animal_points("dark") == 7


# ---- differential tests against the reference --------------------------------------------------

DARK = {"shellfish": (0, 0, 1, 4, 8), "crab": (0, 2, 4, 7, 10), "seahorse": (0, 1, 6, 7, 12),
        "starfish": (0, 4, 8, 11, 14)}   # the rulebook's table for 0..4 visible animals


def assert_same_as_reference(reef: Reef, limestone: int) -> None:
    for color in COLORS:
        tile = Lumino(color, 3, "crab")
        assert kernel.placements(reef, tile, limestone) == reference.placements(reef, tile,
                                                                              limestone)
        assert reef.coral_score(color) == reference.coral_score(reef, color)
    assert reef.visible_counts() == reference.visible_counts(reef)
    animals = reference.visible_animals(reef)
    assert reef.visible_animals() == animals
    assert reef.animal_points("dark") == sum(DARK[a][min(n, 4)] for a, n in animals.items())
    assert reef.animal_points("light") == sum(
        points for *_, points in reference.light_animal_points(reef))
    assert reef.remote_penalty() == reference.remote_penalty(reef)
    # the search's feature vector (each name at its place), feature by feature
    want = {f"coral:{c}": reference.coral_score(reef, c) for c in COLORS}
    want |= {f"visible:{c}": n for c, n in reference.visible_counts(reef).items()}
    want |= {"animals:dark": sum(DARK[a][min(n, 4)] for a, n in animals.items()),
             "animals:light": sum(p for *_, p in reference.light_animal_points(reef)),
             "remote": -reference.remote_penalty(reef)}
    assert kernel.features(reef) == want
    s = kernel.state(reef)
    assert [s.height(i) for i in range(s.n)] == list(reef.heights)
    assert [s.top(i) for i in range(s.n)] == list(reef.top_pieces)


@given(side=st.sampled_from("AB"), seed=st.integers(0, 2**32 - 1), pieces=st.integers(0, 26),
       climb=st.floats(0, 1), limestone=st.integers(0, 3))
def test_kernel_equals_reference_on_random_reefs(side, seed, pieces, climb, limestone):
    reef = random_reef(side, pieces=pieces, seed=seed, climb=climb, limestone=2)
    assert_same_as_reference(reef, limestone)


def test_kernel_equals_reference_along_a_long_game_on_both_sides():
    for side in "AB":
        for seed in range(3):
            for pieces in (5, 15, 30):
                assert_same_as_reference(random_reef(side, pieces, seed, climb=0.7), 2)


FULL = "\n".join((" " * (r % 2)) + " ".join(["S" if (r, c) in ((3, 3), (3, 4)) else
                                                "WL"[(r + c) % 2] for c in range(8)])
                 for r in range(8))


def test_kernel_on_a_board_of_64_spaces():
    board = Board.parse(FULL, name="full")
    assert len(board.cells) == 64
    for seed in range(4):
        reef = random_reef(board, pieces=25, seed=seed, climb=0.5, limestone=2)
        assert_same_as_reference(reef, 2)
    # the corner cell 63 (the masks' top bit) takes a Lumino: in seed 2's reef a green one can
    # go there (the reference says so), and the kernel finds the same placements on it
    reef = random_reef(board, pieces=25, seed=2, climb=0.5, limestone=2)

    def on_corner(found):
        return {(p.number_cell, p.other_cell) for p in found
                if board.cells[63] in (p.number_cell, p.other_cell)}

    want = on_corner(reference.placements(reef, Lumino("green", 1), 2))
    assert want and on_corner(kernel.placements(reef, Lumino("green", 1), 2)) == want


# ---- the edge: nothing unchecked reaches the kernel ---------------------------------------------


@pytest.mark.parametrize("limestone", [-1, True, 1.5, "2", None])
def test_bad_limestone_is_refused(limestone):
    reef = Reef.new(load_board("A"), start=("pink", "green"))
    with pytest.raises(LumicoreError, match="limestone"):
        kernel.placements(reef, Lumino("pink", 1), limestone)


def test_only_one_colour_luminos_are_placed():
    reef = Reef.new(load_board("A"), start=("pink", "green"))
    with pytest.raises(LumicoreError):
        kernel.placements(reef, StartLumino("pink", "blue"), 2)
    with pytest.raises(LumicoreError):
        kernel.placements(reef, "pink 3", 2)


def test_huge_limestone_is_fine():
    reef = random_reef("B", 10, seed=1)
    assert kernel.placements(reef, Lumino("blue", 3), 10**30) == \
        reference.placements(reef, Lumino("blue", 3), 10**30)


HAND = [Lumino("pink", 3, "crab"), Lumino("blue", 2), Lumino("green", 5, "starfish")]


def _search(**options):
    """A hand search on a reef of 10 pieces (all weights 1; options change the arguments)."""
    arguments = dict(counts=[1, 1, 1], max_nodes=None, time_limit=None) | options
    return kernel.search_hand(kernel.state(random_reef("A", 10, seed=1)), HAND,
                              arguments["counts"], 2, [1.0] * len(kernel.FEATURES),
                              prune=False, max_nodes=arguments["max_nodes"],
                              time_limit=arguments["time_limit"])


@pytest.mark.parametrize("name,bad", [
    ("max_nodes", 0), ("max_nodes", -1), ("max_nodes", 2.0), ("max_nodes", True),
    ("max_nodes", "5"), ("time_limit", 0), ("time_limit", -1.0), ("time_limit", -1e9),
    ("time_limit", float("nan")), ("time_limit", float("inf")), ("time_limit", "1"),
    ("time_limit", True)])
def test_search_hand_refuses_limits_that_are_not_positive_numbers(name, bad):
    """The kernel reads a limit <= 0 as none: max_nodes=0 or time_limit=-1 (or NaN) ran the
    whole search, and time_limit="1" was Python's TypeError. Each is now a SearchLimitError."""
    with pytest.raises(SearchLimitError, match=f"{name} must be a positive"):
        _search(**{name: bad})


def test_search_hand_keeps_positive_limits():
    assert _search(max_nodes=1)["nodes"] == 1 and not _search(max_nodes=1)["complete"]
    assert _search(max_nodes=2**62)["complete"] and _search(time_limit=60)["complete"]


@pytest.mark.parametrize("counts", [[1.5, 0.5, 1], [1.0, 1, 1], [True, 1, 1], ["1", 1, 1],
                                    [-1, 2, 1]])
def test_search_hand_refuses_counts_that_are_not_whole_numbers(counts):
    """int() made counts [1.5, 0.5, 1] a hand of two Luminos [1, 0, 1]."""
    with pytest.raises(LumicoreError, match="counts must be whole numbers >= 0"):
        _search(counts=counts)


@pytest.mark.parametrize("bad", ["x", float("nan"), None, True])
def test_search_hand_refuses_weights_that_are_not_numbers(bad):
    """float() turned text into Python's own ValueError and let NaN through to the kernel."""
    state = kernel.state(random_reef("A", 10, seed=1))
    weights = [1.0] * len(kernel.FEATURES)
    with pytest.raises(LumicoreError, match="weight of"):
        kernel.search_hand(state, HAND, [1, 1, 1], 2, [bad, *weights[1:]], prune=False,
                           max_nodes=None, time_limit=None)
    for option in ("discard_cost", "limestone_value"):
        with pytest.raises(LumicoreError, match=option):
            kernel.search_hand(state, HAND, [1, 1, 1], 2, weights, prune=False, max_nodes=None,
                               time_limit=None, **{option: bad})


def test_state_rejects_bad_arrays_and_moves():
    board = load_board("A")
    s = kernel.state(Reef.new(board, start=("pink", "green")))
    a, b = board.start_cells
    far = board.index[(0, 3)]
    with pytest.raises(LumicoreError, match=f"cells a={a} and b={far} are not adjacent"):
        s.apply(a, far, 0, 0, 1, -1)          # not adjacent
    with pytest.raises(LumicoreError, match="b must be a cell index from 0 to 43, got '99'"):
        s.apply(a, 99, 0, 0, 1, -1)           # no such cell
    with pytest.raises(LumicoreError, match="ca must be a colour code from 0 to 3, got '7'"):
        s.apply(a, b, 7, 0, 1, -1)            # bad colour
    with pytest.raises(LumicoreError, match="color must be a colour code from 0 to 3, got '4'"):
        s.placements(4, 0)
    n = len(board.cells)
    with pytest.raises(LumicoreError, match=r"animals\[0\] must be an animal code"):
        s.load([0] * n, [-1] * n, [-1] * n, [0] * n, [9] * n, 1)   # animal code 9
    with pytest.raises(LumicoreError, match=r"heights\[0\] must be an integer from 0 to 126"):
        s.load([200] * n, [0] * n, [0] * n, [0] * n, [-1] * n, 1)  # above the ceiling
    with pytest.raises(LumicoreError, match="cell 0: a bare cell"):
        s.load([0] * n, [0] * n, [-1] * n, [0] * n, [-1] * n, 1)   # bare, with a top piece
    assert s.max_height == 0 and s.npieces == 0                     # left empty


# ---- the kernel's own State checks its arguments: kernel.State and the objects state() gives
# are public, and their methods took C ints (a plain ValueError, IndexError, OverflowError or
# TypeError; 1.0 and True read as 1; a colour, level or animal out of range read as 0)

def _reef_state():
    return kernel.state(random_reef("A", 6, seed=3))


N = len(load_board("A").cells)
OK_LOAD = ([0] * N, [-1] * N, [-1] * N, [0] * N, [-1] * N, 0)


def _load_with(i, value):
    """A load whose argument ``i`` holds ``value`` (for cell 0 when it is a per-cell list)."""
    args = list(OK_LOAD)
    args[i] = value if i == 5 else [value] + args[i][1:]
    return lambda s: s.load(*args)


def _new_state(i, value):
    args = [2, [2, 1], 3, 0, 0, [0, 0]]
    args[i] = value if i in (0, 2, 3, 4) else [value, 0]
    return lambda s: kernel.State(*args)


STATE_ARGUMENTS = [  # (label, call with the value, the argument's name, lowest, highest)
    *[(m, lambda v, m=m: lambda s: getattr(s, m)(v), "cell", 0, N - 1)
      for m in ("height", "top", "color", "number", "animal")],
    ("level_mask", lambda v: lambda s: s.level_mask(v), "level", 0, 127),
    ("color_mask", lambda v: lambda s: s.color_mask(v), "color", 0, 3),
    ("number_mask", lambda v: lambda s: s.number_mask(v), "number", 1, 6),
    ("animal_mask", lambda v: lambda s: s.animal_mask(v), "animal", 0, 3),
    ("visible_count", lambda v: lambda s: s.visible_count(v), "color", 0, 3),
    ("coral_score", lambda v: lambda s: s.coral_score(v), "color", 0, 3),
    ("placements", lambda v: lambda s: s.placements(v, 0), "color", 0, 3),
    # any count of markers is fine (capped, as the door does)
    ("placements/limestone", lambda v: lambda s: s.placements(0, v), "limestone", 0, None),
    ("count_placements", lambda v: lambda s: s.count_placements(v, 0), "color", 0, 3),
    ("count_many", lambda v: lambda s: s.count_many(v, 0, 1), "color", 0, 3),
    ("count_many/repeat", lambda v: lambda s: s.count_many(0, 0, v), "repeat", 0, 2**31 - 1),
    *[(f"apply/{name}", lambda v, i=i: lambda s: s.apply(*[v if j == i else ok for j, ok in
                                                          enumerate((0, 1, 0, 0, 1, -1))]),
       name, low, high) for i, (name, low, high) in enumerate(
           [("a", 0, N - 1), ("b", 0, N - 1), ("ca", 0, 3), ("cb", 0, 3), ("number", 0, 6),
            ("animal", -1, 3)])],
    *[(f"load/{name}", lambda v, i=i: _load_with(i, v), rf"{name}(\[0\])?", low, high)
      for i, (name, low, high) in enumerate(
          [("heights", 0, 126), ("tops", -1, -1), ("colors", -1, 3), ("numbers", 0, 6),
           ("animals", -1, 3), ("npieces", 0, 2**30 - 1)])],
    *[(f"State/{name}", lambda v, i=i: _new_state(i, v), rf"{name}(\[0\])?", low, high)
      for i, (name, low, high) in enumerate(
          [("n", 1, 64), ("neighbors", 0, 2**64 - 1), ("base", 0, 2**64 - 1),
           ("water", 0, 2**64 - 1), ("remote", 0, 2**64 - 1), ("penalties", 0, 2**20)])],
]
BAD_VALUES = [-2, 2**70, np.int64(2**40), np.int32(-7), "1", 1.0, None, True]


def _bad_cases():
    """Each argument with a value just above its range and every value of BAD_VALUES that is
    not in its range."""
    for label, call, name, low, high in STATE_ARGUMENTS:
        above = [] if high is None else [high + 1]
        for bad in [*above, *BAD_VALUES]:
            whole = isinstance(bad, (int, np.integer)) and not isinstance(bad, bool)
            if not (whole and low <= bad and (high is None or bad <= high)):
                yield pytest.param(call, name, bad, id=f"{label}-{bad!r}")


@pytest.mark.parametrize("call, name, bad", list(_bad_cases()))
def test_kernel_state_methods_name_a_bad_argument(call, name, bad):
    with pytest.raises(LumicoreError, match=rf"^{name} must be .*, got "):
        call(bad)(_reef_state())


def test_a_failed_load_leaves_no_cell_half_written():
    """A value C could not convert stopped State.load after it had written part of a cell: a
    height of -2**31 stayed, and the next placements read memory far outside the state (the
    process died). Now every value of a cell is checked before any is written."""
    s = _reef_state()
    with pytest.raises(LumicoreError, match=r"heights\[0\]"):
        s.load([-2**31] + [0] * (N - 1), [2**70] + [-1] * (N - 1), [-1] * N, [0] * N,
               [-1] * N, 0)
    assert s.height(0) == 0 and s.max_height == 0 and s.npieces == 0
    assert s.count_placements(0, 0) == 0  # an empty board: no Lumino to touch


def test_apply_and_views_agree_with_reef_place():
    reef = random_reef("A", 12, seed=5)
    tile = Lumino("yellow", 4, "starfish")
    for placement in kernel.placements(reef, tile, 2)[:10]:
        s = kernel.state(reef)
        board = reef.board
        a, b = board.index[placement.number_cell], board.index[placement.other_cell]
        s.apply(a, b, 3, 3, 4, ANIMALS.index("starfish"))
        after = reef.place(placement)
        assert [s.height(i) for i in range(s.n)] == list(after.heights)
        assert [s.color(i) for i in range(s.n)] == list(after.cell_colors)
        assert [s.number(i) for i in range(s.n)] == list(after.cell_numbers)
        assert [s.animal(i) for i in range(s.n)] == list(after.cell_animals)
        assert s.features() == kernel.state(after).features()


def test_a_tower_above_the_kernel_ceiling_falls_back_to_the_reference():
    # Reef() checks only the stacking, so a user can build a tower no game reaches
    board = Board.parse("S S L\n", name="row")
    start = Piece(StartLumino("pink", "green"), 0, 1, 1)
    tower = [Piece(Lumino("blue", 2), 1, 0, level) for level in range(2, kernel.MAX_HEIGHT + 3)]
    reef = Reef(board, (start, *tower))
    assert kernel.placements(reef, Lumino("blue", 1), 0) == reference.placements(
        reef, Lumino("blue", 1), 0)
    with pytest.raises(LumicoreError, match="levels high"):
        kernel.state(reef)


def test_state_methods_take_numpy_integers():
    reef = random_reef("A", 8, seed=2)
    s, want = kernel.state(reef), kernel.state(reef)
    s.load(*(np.array(v) for v in (reef.heights, reef.top_pieces, reef.cell_colors,
                                   reef.cell_numbers, reef.cell_animals)),
           np.int64(len(reef.pieces)))
    assert s.features() == want.features()
    assert [s.coral_score(np.int8(c)) for c in range(4)] == [want.coral_score(c) for c in range(4)]
    assert s.height(np.uint16(3)) == want.height(3)
    assert s.placements(np.int64(1), np.int64(2)) == want.placements(1, 2)
