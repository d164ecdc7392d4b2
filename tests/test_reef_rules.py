"""Placement rules 1-5 of design/reef.md, each with a case that fails if the rule is broken.

Board A cells used below (row, column): the start is (3, 6) and (3, 8); its neighbours
(3, 4), (2, 5), (2, 7), (2, 9), (3, 10), (4, 5), (4, 7), (4, 9) are limestone; the rim is water.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lumicore.errors import IllegalMoveError, LumicoreError
from lumicore.reef import Board, Lumino, Placement, Reef, StartLumino, load_board
from lumicore.reef import reference as ref
from lumicore.reef.sample import random_reef

A = load_board("A")
PINK = Lumino("pink", 2)
GREEN = Lumino("green", 4)
BLUE = Lumino("blue", 3, "crab")
YELLOW = Lumino("yellow", 5)


def pairs(placements):
    return {(p.number_cell, p.other_cell) for p in placements}


def legal(reef, lumino, a, b, limestone=10):
    return (a, b) in pairs(reef.placements(lumino, limestone))


def start_pg():
    return Reef.new(A, ("pink", "green"))


# ---- the starting Lumino -----------------------------------------------------------------------


def test_start_orientation():
    reef = start_pg()
    assert (reef.top((3, 6)).color, reef.top((3, 8)).color) == ("pink", "green")
    other = Reef.new(A, ("green", "pink"))
    assert (other.top((3, 6)).color, other.top((3, 8)).color) == ("green", "pink")
    assert other != reef
    assert reef.pieces[0].lumino == StartLumino("pink", "green")
    assert reef.top((3, 6)).number is None and reef.top((3, 8)).animal is None
    assert reef.height((3, 6)) == reef.height((3, 8)) == 1
    assert sum(reef.heights) == 2


@pytest.mark.parametrize("start", [("pink", "pink"), ("pink",), ("pink", "red"), "pg"])
def test_bad_start_rejected(start):
    with pytest.raises(LumicoreError):
        Reef.new(A, start)


# ---- rule 1: touch the same colour ---------------------------------------------------------------


def test_level1_must_touch_own_colour():
    reef = start_pg()
    # pink next to the pink half: legal; next to the green half only: not
    assert legal(reef, PINK, (2, 5), (1, 4))
    assert not legal(reef, PINK, (2, 9), (2, 11))
    with pytest.raises(IllegalMoveError, match="must touch a visible level-1 pink space"):
        reef.placement_at(PINK, (2, 9), (2, 11))
    # every pink placement touches (3, 6), and every free pair touching it is listed
    pink_half = A.index[(3, 6)]
    expected = {
        (A.cells[a], A.cells[b]) for a, b in A.edges
        if reef.heights[a] == reef.heights[b] == 0
        and (A.neighbors[a] | A.neighbors[b]) >> pink_half & 1
    }
    assert pairs(reef.placements(PINK, 10)) == expected
    # hand count: 5 free cells touch (3, 6); 4 edges among them, 3 more edges out of each
    assert len(expected) == 2 * (4 + 5 * 3)


def test_level1_exception_no_own_colour_visible():
    reef = start_pg()
    # no blue anywhere: blue may touch any level-1 Lumino, e.g. the green half
    assert legal(reef, BLUE, (2, 9), (2, 11))
    assert len(list(reef.placements(BLUE, 0))) == 60  # 30 free L-L edges touch the start
    # ... but it must still touch a Lumino in level 1
    assert not legal(reef, BLUE, (1, 4), (1, 6))
    with pytest.raises(IllegalMoveError, match="must touch a Lumino in level 1"):
        reef.placement_at(BLUE, (1, 4), (1, 6))


def boxed_in_pink():
    """The pink half (3, 6) surrounded by green Luminos: no free pair touches pink."""
    return Reef.build(A, ("pink", "green"), [
        ("green 1", (2, 7), (2, 5)),
        ("green 2", (4, 7), (4, 5)),
        ("green 3", (3, 4), (3, 2)),
    ])


def test_level1_exception_no_room_next_to_own_colour():
    reef = boxed_in_pink()
    assert reef.top((3, 6)).color == "pink" and reef.height((3, 6)) == 1
    # pink may now touch any level-1 Lumino (here green (2, 5) and (2, 7))
    assert legal(reef, PINK, (1, 6), (1, 4))
    assert ref.level1_exception(reef, "pink")
    # one step earlier (3, 4) is free next to pink: the exception does not apply
    earlier = Reef.build(A, ("pink", "green"), [
        ("green 1", (2, 7), (2, 5)),
        ("green 2", (4, 7), (4, 5)),
    ])
    assert not ref.level1_exception(earlier, "pink")
    assert not legal(earlier, PINK, (1, 6), (1, 4))
    assert all(A.index[(3, 4)] in (A.index[p.number_cell], A.index[p.other_cell])
               for p in earlier.placements(PINK, 10) if p.level == 1)


# A tiny board: the pink half (0, 2) is surrounded by water only.
#   W S S L
#    W W L
WATER_BOARD = Board.parse("W S S L\n W W L\n", name="water")


def test_level1_exception_ignores_cost():
    reef = Reef.new(WATER_BOARD, ("pink", "green"))
    # a pink Lumino touching pink needs water: (1,3)-(1,5) costs 1. With no limestone the pink
    # Lumino cannot go next to pink, but the exception does not apply (cost is ignored), so it
    # cannot go next to green on (0,6)-(1,5) either.
    assert not ref.level1_exception(reef, "pink")
    assert list(reef.placements(PINK, 0)) == []
    with pytest.raises(IllegalMoveError, match="pink"):
        reef.placement_at(PINK, (0, 6), (1, 5))
    assert pairs(reef.placements(PINK, 1)) == {((1, 3), (1, 5)), ((1, 5), (1, 3))}


def test_level2_contact_does_not_count_in_level_1():
    # a pink Lumino in level 2 covers the only level-1 pink space
    reef = Reef.build(A, ("pink", "green"), [
        ("green 1", (2, 7), (2, 5)),
        ("pink 5", (3, 6), (2, 5)),
    ])
    assert reef.height((3, 6)) == 2 and reef.top((3, 6)).color == "pink"
    # no level-1 pink visible: the exception applies, touch any level-1 Lumino
    assert legal(reef, PINK, (1, 6), (1, 8))  # touches green (2, 7) in level 1
    # (1, 4)-(1, 2) touches only the level-2 pink at (2, 5): not a level-1 Lumino
    assert not legal(reef, PINK, (1, 4), (1, 2))


def level2_reef():
    """Start pink (3,6) / green (3,8); green (2,7)-(2,9); pink (4,5)-(4,7), all in level 1."""
    return Reef.build(A, ("pink", "green"), [
        ("green 1", (2, 7), (2, 9)),
        ("pink 2", (4, 5), (4, 7)),
    ])


def test_higher_level_covering_own_colour_is_legal():
    reef = level2_reef()
    assert legal(reef, GREEN, (3, 8), (4, 7))  # covers green (3, 8)
    assert legal(reef, GREEN, (4, 7), (3, 8))
    assert legal(reef, PINK, (3, 6), (2, 7))  # covers pink (3, 6)
    assert legal(reef, GREEN, (3, 6), (2, 7))  # covers green (2, 7)


def test_higher_level_without_own_colour_is_illegal():
    reef = level2_reef()
    with pytest.raises(IllegalMoveError, match="in level 2 it must cover a yellow space"):
        reef.placement_at(YELLOW, (3, 6), (2, 7))
    # no blue, no yellow anywhere: they can only go to level 1 (no exception above level 1)
    for lumino in (BLUE, YELLOW):
        assert {p.level for p in reef.placements(lumino, 10)} == {1}
    # green touching green only in the level below does not count
    assert not legal(reef, GREEN, (3, 6), (4, 5))


def test_higher_level_touching_own_colour_in_its_level_is_legal():
    reef = level2_reef().place(level2_reef().placement_at(GREEN, (3, 8), (4, 7)))
    assert reef.height((3, 8)) == 2
    # (3, 6)-(4, 5) covers pink and pink but now touches green in level 2
    assert legal(reef, GREEN, (3, 6), (4, 5))
    placement = reef.placement_at(GREEN, (3, 6), (4, 5))
    assert placement.level == 2 and placement.cost == 0


# ---- rule 2: not exactly overlapping -------------------------------------------------------------


def test_no_exact_overlap():
    reef = level2_reef()
    for a, b in [((4, 5), (4, 7)), ((4, 7), (4, 5)), ((3, 6), (3, 8))]:
        assert not legal(reef, PINK, a, b)
    with pytest.raises(IllegalMoveError, match="exactly cover"):
        reef.placement_at(PINK, (4, 5), (4, 7))
    with pytest.raises(IllegalMoveError, match="exactly cover"):
        reef.placement_at(PINK, (3, 6), (3, 8))  # the starting Lumino counts as a Lumino
    assert legal(reef, PINK, (3, 6), (4, 5))  # two different Luminos below


# ---- rule 3: one level, no tilting ---------------------------------------------------------------


def test_no_tilting():
    reef = level2_reef()
    with pytest.raises(IllegalMoveError, match="tilted"):
        reef.placement_at(PINK, (4, 5), (5, 4))  # level 1 and a bare space
    for p in reef.placements(PINK, 10):
        assert reef.height(p.number_cell) == reef.height(p.other_cell) == p.level - 1


def test_cells_must_be_adjacent():
    with pytest.raises(IllegalMoveError, match="not adjacent"):
        start_pg().placement_at(PINK, (2, 5), (2, 9))
    with pytest.raises(LumicoreError, match=r"\(0, 0\)"):
        start_pg().placement_at(PINK, (0, 0), (2, 5))


# ---- rule 4: limestone for water -----------------------------------------------------------------


def test_water_costs_one_marker_each():
    reef = Reef.new(WATER_BOARD, ("pink", "green"))
    costs = {(p.number_cell, p.other_cell): p.cost for p in reef.placements(BLUE, 10)}
    assert costs == {
        ((0, 6), (1, 5)): 0, ((1, 5), (0, 6)): 0,  # limestone + limestone
        ((1, 3), (1, 5)): 1, ((1, 5), (1, 3)): 1,  # water + limestone
        ((1, 1), (1, 3)): 2, ((1, 3), (1, 1)): 2,  # water + water
        ((0, 0), (1, 1)): 2, ((1, 1), (0, 0)): 2,
    }
    assert len(list(reef.placements(BLUE, 0))) == 2
    assert len(list(reef.placements(BLUE, 1))) == 4
    assert len(list(reef.placements(BLUE, 2))) == 8


def test_remote_limestone_spaces_are_free():
    board = Board.parse("1 S S 2\n W 3 L\n")
    reef = Reef.new(board, ("pink", "green"))
    costs = {(p.number_cell, p.other_cell): p.cost for p in reef.placements(BLUE, 10)}
    assert costs[((1, 3), (1, 5))] == 0  # remote + limestone
    assert costs[((0, 6), (1, 5))] == 0
    assert costs[((0, 0), (1, 1))] == 1  # remote + water
    assert costs[((1, 1), (1, 3))] == 1


def test_no_cost_above_level_1():
    reef = level2_reef()
    assert {p.cost for p in reef.placements(GREEN, 0) if p.level == 2} == {0}


def test_place_checks_limestone_level_and_cost():
    reef = Reef.new(WATER_BOARD, ("pink", "green"))
    placement = reef.placement_at(BLUE, (1, 1), (1, 3))
    assert placement.cost == 2
    with pytest.raises(IllegalMoveError, match="costs 2"):
        reef.place(placement, limestone=1)
    assert reef.place(placement, limestone=2).height((1, 1)) == 1
    for level, cost in [(2, 2), (1, 0), (1, 1)]:
        with pytest.raises(IllegalMoveError, match="placement says"):
            reef.place(Placement(BLUE, (1, 1), (1, 3), level, cost))
    with pytest.raises(IllegalMoveError):
        reef.place(Placement(BLUE, (0, 6), (0, 0), 1, 0))
    with pytest.raises(IllegalMoveError):
        reef.place((BLUE, (0, 6), (1, 5)))
    with pytest.raises(IllegalMoveError):
        reef.placement_at(StartLumino("blue", "yellow"), (0, 6), (1, 5))


# ---- rule 5: a Lumino that cannot be placed ------------------------------------------------------


def test_no_legal_placement_gives_an_empty_list():
    # the water board with no limestone: pink has nowhere to go (it goes back to the bag, -1 VP,
    # which best_placement and the scoring of a discard account for)
    reef = Reef.new(WATER_BOARD, ("pink", "green"))
    assert list(reef.placements(PINK, 0)) == []


# ---- placements and reefs as values --------------------------------------------------------------


def test_orientation_puts_number_and_animal_on_their_halves():
    reef = start_pg()
    one = reef.place(reef.placement_at(Lumino("pink", 3, "crab"), (2, 5), (1, 4)))
    two = reef.place(reef.placement_at(Lumino("pink", 3, "crab"), (1, 4), (2, 5)))
    assert one.top((2, 5)).number == 3 and one.top((1, 4)).animal == "crab"
    assert one.top((2, 5)).animal is None and one.top((1, 4)).number is None
    assert two.top((1, 4)).number == 3 and two.top((2, 5)).animal == "crab"
    assert one != two


def test_reefs_are_immutable_hashable_values():
    reef = start_pg()
    placement = reef.placement_at(PINK, (2, 5), (1, 4))
    after = reef.place(placement)
    assert reef.height((2, 5)) == 0 and len(reef.pieces) == 1
    assert after.height((2, 5)) == 1 and len(after.pieces) == 2
    again = start_pg().place(placement)
    assert after == again and hash(after) == hash(again)
    assert len({after, again, reef}) == 2
    assert Reef(A, after.pieces) == after
    with pytest.raises(AttributeError):
        after.pieces = ()


def test_placements_sorted_and_distinct():
    reef = level2_reef()
    found = list(reef.placements(GREEN, 2))
    keys = [(p.number_cell, p.other_cell) for p in found]
    assert keys == sorted(set(keys))
    assert all(p.lumino == GREEN for p in found)


def test_index_views_match_cell_views():
    reef = level2_reef()
    for i, cell in enumerate(A.cells):
        top = reef.top(cell)
        assert reef.height_index(i) == reef.height(cell)
        if top is None:
            assert (reef.cell_color(i), reef.top_piece(i)) == (-1, -1)
            continue
        assert reef.cell_color(i) == ["pink", "green", "blue", "yellow"].index(top.color)
        assert reef.cell_number(i) == (top.number or 0)
        assert reef.top_piece(i) == top.piece


def test_constructor_checks_stacking():
    reef = level2_reef()
    bad = reef.pieces[1]
    with pytest.raises(LumicoreError):
        Reef(A, reef.pieces[1:])  # no starting Lumino first
    with pytest.raises(LumicoreError, match="level"):
        Reef(A, reef.pieces + (type(bad)(GREEN, bad.number_cell, bad.other_cell, 1),))
    with pytest.raises(LumicoreError, match="adjacent"):
        Reef(A, reef.pieces + (type(bad)(GREEN, 0, 40, 1),))


@settings(max_examples=25)
@given(st.integers(0, 10_000), st.sampled_from("AB"), st.integers(0, 3))
def test_random_play_invariants(seed, side, limestone):
    reef = random_reef(side, pieces=10, seed=seed, limestone=2)
    for lumino in (PINK, GREEN, BLUE, YELLOW):
        cheap = pairs(reef.placements(lumino, limestone))
        rich = list(reef.placements(lumino, limestone + 1))
        assert cheap <= pairs(rich)
        for p in rich:
            assert p.cost <= limestone + 1
            assert p.level == reef.height(p.number_cell) + 1
            after = reef.place(p)
            assert after.height(p.number_cell) == after.height(p.other_cell) == p.level
            assert after.top(p.number_cell).number == lumino.number


@pytest.mark.parametrize("lumino, limestone", [(StartLumino("blue", "pink"), 0), ("pink 3", 0),
                                               (PINK, -1), (PINK, 1.5), (PINK, True)])
def test_placements_validates_its_arguments(lumino, limestone):
    with pytest.raises(LumicoreError):
        start_pg().placements(lumino, limestone)


def test_random_reefs_are_reproducible_and_stack_up():
    one = random_reef("A", pieces=15, seed=7)
    assert one == random_reef("A", pieces=15, seed=7)
    assert len(one.pieces) == 16
    assert max(max(random_reef("B", 15, seed=s).heights) for s in range(5)) >= 3
    with pytest.raises(LumicoreError):
        random_reef("A", pieces=-1)
