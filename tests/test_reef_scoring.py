"""Scoring: the rulebook's worked examples (built as legal reefs from their descriptions) and one
test per scoring rule of design/reef.md."""

import pytest

from lumicore.errors import LumicoreError
from lumicore.reef import Board, Lumino, Reef, load_board
from lumicore.reef import reference as ref
from lumicore.reef.scoring import (
    DARK_ANIMALS,
    DISCARD_VP,
    LIMESTONE_CAP,
    dark_animal_points,
    final_scores,
    gain_limestone,
    light_animal_points,
    majority_points,
    round_limestone,
    winners,
)

A = load_board("A")


def visible_numbers(reef, color):
    """{level: sorted visible numbers on ``color`` spaces}, read cell by cell from ``top``."""
    found = {}
    for cell in reef.board.cells:
        top = reef.top(cell)
        if top is not None and top.color == color and top.number is not None:
            found.setdefault(top.level, []).append(top.number)
    return {level: sorted(numbers) for level, numbers in found.items()}


# ---- Anni's coral scoring: 3 + 2 + 0 + 6 = 11 ----------------------------------------------------


def anni_reef():
    """Anni's reef of the coral-scoring example, four levels high."""
    return Reef.build(A, ("pink", "green"), [
        ("pink 3", (5, 6), (4, 7)),  # level 1, its 3 stays visible
        ("pink 1 shellfish", (3, 8), (4, 7)),  # level 2, covered later
        ("pink 1", (3, 4), (4, 5)),  # level 1, covered later
        ("pink 3 crab", (3, 2), (4, 3)),  # level 1, its 3 stays visible
        ("pink 5", (4, 3), (4, 5)),  # level 2, its 5 stays visible
        ("pink 4 seahorse", (4, 5), (4, 7)),  # level 3, only the seahorse stays visible
        ("pink 2", (3, 4), (3, 6)),  # level 2, its 2 stays visible
        ("pink 2 starfish", (3, 6), (3, 8)),  # level 3, only the starfish stays visible
        ("pink 6 crab", (3, 6), (4, 5)),  # level 4
        ("green 1", (5, 8), (5, 10)),  # a smaller number of another colour: ignored
    ])


def test_anni_pink_coral_scoring_is_11():
    reef = anni_reef()
    # the reef is as the rulebook describes it
    assert visible_numbers(reef, "pink") == {1: [3, 3], 2: [2, 5], 4: [6]}
    assert any(reef.top(c) and reef.top(c).color == "pink" and reef.top(c).level == 3
               for c in A.cells)  # level 3 shows pink, but no number
    # "3 + 2 + 0 + 6 = 11"
    assert reef.coral_score("pink") == 3 + 2 + 0 + 6 == 11
    assert reef.coral_score("pink") == 11
    assert reef.coral_score("green") == 1
    assert reef.coral_score("blue") == 0  # scoring a colour with nothing visible gives 0


def test_coral_scoring_ignores_covered_numbers():
    reef = anni_reef()
    # the pink 1s of moves 2 and 3 are covered: were they visible, level 1 and 2 would score 1
    covered = [p for p in reef.pieces[1:] if p.lumino.number == 1 and p.lumino.color == "pink"]
    assert len(covered) == 2
    assert all(reef.top_piece(p.number_cell) != reef.pieces.index(p) for p in covered)


def test_coral_scoring_takes_the_smallest_per_level():
    reef = Reef.build(A, ("pink", "green"), [("pink 5", (2, 5), (1, 4)),
                                             ("pink 2", (4, 5), (5, 4)),
                                             ("pink 4", (3, 4), (3, 2))])
    assert reef.coral_score("pink") == 2
    assert (reef.place(reef.placement_at(Lumino("pink", 6), (3, 6), (2, 5)))).coral_score(
                       "pink") == 2 + 6


def test_round_limestone_and_storage_cap():
    assert [round_limestone(r) for r in range(1, 11)] == [4, 4, 4, 4, 2, 2, 2, 1, 1, 0]
    for bad in (0, 11, 1.0):
        with pytest.raises(LumicoreError):
            round_limestone(bad)
    assert LIMESTONE_CAP == 10
    assert gain_limestone(3, 6) == 9
    assert gain_limestone(8, 6) == 10  # Anni's 6: storage holds only 10, the rest is lost
    assert gain_limestone(10, 4) == 10
    with pytest.raises(LumicoreError):
        gain_limestone(11, 0)
    with pytest.raises(LumicoreError):
        gain_limestone(3, -1)


# ---- Peter's final scoring (dark side) -----------------------------------------------------------


def peter_reef():
    """Peter's reef: 5 visible shellfish, 1 crab, 3 seahorses, no starfish; 6 green, no pink,
    9 blue and 7 yellow visible spaces."""
    return Reef.build(A, ("blue", "yellow"), [
        ("blue 3 shellfish", (2, 5), (2, 3)),
        ("blue 2 shellfish", (3, 4), (3, 2)),
        ("blue 4 shellfish", (4, 5), (4, 3)),
        ("blue 5 seahorse", (1, 4), (1, 6)),
        ("yellow 1 shellfish", (2, 9), (2, 11)),
        ("yellow 3 shellfish", (3, 10), (3, 12)),
        ("yellow 4 crab", (4, 9), (4, 11)),
        ("green 2 seahorse", (2, 7), (1, 8)),  # no green yet: may touch any Lumino
        ("green 3 seahorse", (1, 10), (0, 9)),
        ("green 6", (0, 7), (0, 5)),
    ])


def anni_final_reef():
    """Anni: 6 green spaces (sharing second place with Peter), 1 pink, 1 blue."""
    return Reef.build(A, ("pink", "blue"), [
        ("green 2", (2, 7), (2, 9)),
        ("green 3", (1, 8), (1, 10)),
        ("green 4", (2, 11), (3, 12)),
    ])


def moritz_reef():
    """Moritz: 7 yellow spaces (tied first with Peter) and 7 green (the most green)."""
    return Reef.build(A, ("green", "yellow"), [
        ("green 2", (2, 5), (2, 3)),
        ("green 3", (3, 4), (3, 2)),
        ("green 4", (4, 5), (4, 3)),
        ("yellow 2", (2, 9), (2, 11)),
        ("yellow 3", (3, 10), (3, 12)),
        ("yellow 4", (4, 9), (4, 11)),
    ])


def test_peter_final_scoring_example():
    peter, anni, moritz = peter_reef(), anni_final_reef(), moritz_reef()
    # the reefs are as the rulebook describes them
    assert peter.visible_animals() == {"shellfish": 5, "crab": 1, "seahorse": 3, "starfish": 0}
    assert {c: peter.visible_count(c) for c in ("green", "pink", "blue", "yellow")} == {
        "green": 6, "pink": 0, "blue": 9, "yellow": 7}
    assert anni.visible_count("green") == 6 and moritz.visible_count("yellow") == 7
    assert moritz.visible_count("green") > 6
    assert max(anni.visible_count("blue"), moritz.visible_count("blue")) < 9

    scores = final_scores([peter, anni, moritz], jellyfish=[2, 0, 1], limestone=[5, 0, 3])
    s = scores[0]
    assert s.jellyfish == 4  # 2 jellyfish: 4 VP
    assert s.limestone == 2  # 5 limestone markers: 2 VP
    assert s.animal_points == {"shellfish": 8, "crab": 2, "seahorse": 7, "starfish": 0}
    assert s.animals == 17
    assert s.majority_points == {"green": 1, "pink": 0, "blue": 4, "yellow": 3}
    assert s.majorities == 8
    assert s.remote_penalties == 0
    assert s.total == 4 + 2 + 17 + 8
    # the others' majorities follow the same rules
    assert scores[1].majority_points == {"pink": 4, "green": 1, "blue": 2, "yellow": 0}
    assert scores[2].majority_points == {"pink": 0, "green": 4, "blue": 0, "yellow": 3}
    assert scores[1].as_dict()["total"] == scores[1].total


def test_dark_animal_table_and_cap():
    assert DARK_ANIMALS == {
        "shellfish": (0, 0, 1, 4, 8),
        "crab": (0, 2, 4, 7, 10),
        "seahorse": (0, 1, 6, 7, 12),
        "starfish": (0, 4, 8, 11, 14),
    }
    reef = Reef.new(A, ("pink", "green"))
    moves = [((2, 5), (1, 4)), ((3, 4), (3, 2)), ((4, 5), (5, 4)), ((2, 3), (1, 2)),
             ((4, 3), (5, 2))]
    points = []
    for (a, b) in moves:
        reef = reef.place(reef.placement_at(Lumino("pink", 3, "starfish"), a, b))
        points.append(dark_animal_points(reef)["starfish"])
    assert points == [4, 8, 11, 14, 14]  # a fifth starfish is ignored


def test_covered_animals_do_not_count():
    reef = Reef.build(A, ("pink", "green"), [("pink 3 crab", (2, 5), (2, 7))])  # crab on (2, 7)
    assert reef.visible_animals()["crab"] == 1
    over_number = reef.place(reef.placement_at(Lumino("pink", 2), (3, 6), (2, 5)))
    assert over_number.visible_animals()["crab"] == 1
    over_crab = reef.place(reef.placement_at(Lumino("pink", 2), (3, 6), (2, 7)))
    assert over_crab.visible_animals()["crab"] == 0
    assert dark_animal_points(over_crab)["crab"] == 0


# ---- colour majorities ---------------------------------------------------------------------------


@pytest.mark.parametrize("counts, vp", [
    ([9, 5, 2], [4, 2, 0]),  # most 4, second 2, third nothing
    ([9, 5, 2, 1], [4, 2, 0, 0]),  # fourth nothing
    ([7, 7, 3], [3, 3, 0]),  # tie for most: 3 each, no second place
    ([7, 7, 7, 2], [3, 3, 3, 0]),
    ([9, 6, 6, 2], [4, 1, 1, 0]),  # tie for second: 1 each
    ([9, 0, 0], [4, 0, 0]),  # no visible space: nothing (not even second)
    ([0, 0, 0, 0], [0, 0, 0, 0]),
    ([3], [4]),  # a single player has the most
    ([0], [0]),
])
def test_majority_points(counts, vp):
    assert majority_points(counts) == vp


def test_majorities_count_spaces_on_every_level():
    # a pink Lumino in level 2 covers pink and green: the visible counts change, the level does not
    reef = Reef.build(A, ("pink", "green"), [("green 1", (2, 7), (2, 9)),
                                             ("pink 2", (3, 6), (2, 7))])
    assert ref.visible_counts(reef) == {"pink": 2, "green": 2, "blue": 0, "yellow": 0}


# ---- category 1, 2 and 5; validation -------------------------------------------------------------


def test_jellyfish_and_limestone_pairs():
    reef = Reef.new(A, ("pink", "green"))
    for jelly, stone, expected in [(0, 0, 0), (1, 1, 2), (3, 4, 8), (4, 10, 13)]:
        [s] = final_scores([reef], [jelly], [stone])
        assert (s.jellyfish, s.limestone) == (2 * jelly, stone // 2)
        assert s.jellyfish + s.limestone == expected


@pytest.mark.parametrize("jellyfish, limestone", [([5], [0]), ([-1], [0]), ([0], [11]),
                                                  ([0], [-2]), ([0.5], [0]), ([0, 0], [0])])
def test_bad_counts_rejected(jellyfish, limestone):
    with pytest.raises(LumicoreError):
        final_scores([Reef.new(A, ("pink", "green"))], jellyfish, limestone)


def test_player_count_and_options_checked():
    reef = Reef.new(A, ("pink", "green"))
    for n in (1, 2, 3, 4):
        assert len(final_scores([reef] * n, [0] * n, [0] * n)) == n
    with pytest.raises(LumicoreError, match="1 to 4"):
        final_scores([reef] * 5, [0] * 5, [0] * 5)
    with pytest.raises(LumicoreError):
        final_scores([], [], [])
    with pytest.raises(LumicoreError, match="score_board"):
        final_scores([reef], [0], [0], score_board="grey")
    with pytest.raises(LumicoreError, match="reef_side"):
        final_scores([reef], [0], [0], reef_side="C")


def test_b_side_remote_penalties():
    board = load_board("B")
    reef = Reef.new(board, ("pink", "green"))
    [s] = final_scores([reef], [0], [0], reef_side="B")
    assert s.remote_penalties == -(1 + 2 + 3 + 1 + 2 + 3)
    # cover the -3 remote space at (3, 0): (3, 2) is next to the pink half's neighbour (3, 4)
    reef = Reef.build(board, ("pink", "green"), [
        ("pink 2", (3, 4), (3, 2)),
        ("pink 3", (3, 0), (2, 1)),
    ])
    [s] = final_scores([reef], [0], [0], reef_side="B")
    assert s.remote_penalties == -(1 + 2 + 1 + 2 + 3)
    assert s.total == s.majorities + s.remote_penalties
    # side A rules: no category 5
    [s] = final_scores([reef], [0], [0], reef_side="A")
    assert s.remote_penalties == 0


def test_winner_tie_break_by_limestone():
    reef = Reef.new(A, ("pink", "green"))
    scores = final_scores([reef, reef, reef], [1, 1, 1], [4, 5, 5])
    assert winners(scores, [4, 5, 5], points_before=[20, 20, 19]) == [1]
    assert winners(scores, [4, 5, 5], points_before=[20, 20, 20]) == [1, 2]  # shared
    assert winners(scores, [4, 5, 5], points_before=[21, 20, 20]) == [0]


def test_discard_costs_one_vp():
    assert DISCARD_VP == -1


# ---- light score board: the rulebook's examples --------------------------------------------------


def light(reef, animal):
    """(qualifying neighbours, VP) of every visible ``animal``, sorted."""
    return sorted((count, vp) for _, a, count, vp in ref.light_animal_points(reef) if a == animal)


def test_light_shellfish_example():
    # 2 shellfish with 1 adjacent water space and 1 with 3: 1 + 1 + 2 = 4 VP
    reef = Reef.build(A, ("pink", "green"), [
        ("pink 3 shellfish", (2, 5), (1, 4)),  # (1, 4): water (0, 3), (0, 5), (1, 2)
        ("pink 2 shellfish", (3, 4), (2, 3)),  # (2, 3): water (1, 2); (2, 1) gets covered
        ("pink 1", (3, 2), (2, 1)),
        ("pink 4 shellfish", (2, 7), (1, 6)),  # (1, 6): water (0, 5); (0, 7) gets covered
        ("pink 5", (0, 7), (0, 9)),
    ])
    assert light(reef, "shellfish") == [(1, 1), (1, 1), (3, 2)]
    assert light_animal_points(reef)["shellfish"] == 4
    [s] = final_scores([reef], [0], [0], score_board="light")
    assert s.animals == 4


def test_light_crab_example():
    # 1 crab with 3 adjacent coral spaces in the same level: 1 VP
    reef = Reef.build(A, ("pink", "green"), [
        ("pink 3 crab", (2, 7), (2, 5)),  # crab (2, 5): (2, 7) and the start's (3, 6) ...
        ("pink 1", (3, 4), (4, 5)),  # ... and (3, 4)
    ])
    assert light(reef, "crab") == [(3, 1)]
    assert light_animal_points(reef)["crab"] == 1
    more = reef.place(reef.placement_at(Lumino("pink", 2), (2, 3), (1, 2)))  # 4 neighbours
    assert light(more, "crab") == [(4, 3)]


def test_light_seahorse_example():
    # 1 seahorse with 2 adjacent coral spaces in higher levels and 1 with none: 2 + 0 = 2 VP
    reef = Reef.build(A, ("pink", "green"), [
        ("pink 1", (2, 5), (2, 7)),
        ("pink 2 seahorse", (4, 7), (4, 5)),  # seahorse (4, 5) in level 1
        ("pink 3 seahorse", (2, 5), (3, 6)),  # level 2 over (3, 6): seahorse on top
        ("pink 4", (4, 7), (3, 8)),  # level 2 over (4, 7)
    ])
    assert light(reef, "seahorse") == [(0, 0), (2, 2)]
    assert light_animal_points(reef)["seahorse"] == 2


def test_light_starfish_example():
    # 1 starfish with 3 adjacent coral spaces in lower levels and 1 with 5: 2 + 4 = 6 VP
    reef = Reef.build(A, ("pink", "green"), [
        ("pink 1", (2, 5), (2, 7)),
        ("pink 2", (4, 5), (4, 7)),
        ("pink 3", (3, 4), (3, 2)),
        ("pink 4", (4, 3), (5, 4)),
        ("pink 5 starfish", (2, 5), (3, 6)),  # level 2; all 5 other neighbours in level 1
        ("pink 6 starfish", (3, 2), (4, 3)),  # level 2; (3, 4), (4, 5), (5, 4) below
    ])
    assert light(reef, "starfish") == [(3, 2), (5, 4)]
    assert light_animal_points(reef)["starfish"] == 6


def test_light_seahorse_large_needs_all_six_neighbours_higher():
    moves = [
        ("pink 2 seahorse", (3, 4), (2, 5)),  # the seahorse on (2, 5), level 1
        ("pink 1", (2, 3), (1, 4)),
        ("pink 1", (1, 6), (2, 7)),
        ("pink 3", (3, 4), (2, 3)),  # level 2 around the seahorse ...
        ("pink 3", (1, 4), (1, 6)),
        ("pink 3", (2, 7), (3, 6)),  # ... the sixth neighbour
    ]
    four = Reef.build(A, ("pink", "green"), moves[:-1])
    assert light(four, "seahorse") == [(4, 2)]  # small scoring only
    six = Reef.build(A, ("pink", "green"), moves)
    assert light(six, "seahorse") == [(6, 7)]


def test_light_shellfish_off_board_and_remote_are_not_water():
    # (0, 0) remote, (0, 2) (0, 4) start, (0, 6) water; (1, 1) water, (1, 3) (1, 5) limestone
    board = Board.parse("1 S S W\n W L L\n")
    reef = Reef.build(board, ("pink", "green"), [("pink 2 shellfish", (1, 5), (1, 3))])
    # the shellfish on (1, 3) sees water (1, 1) only: off-board spaces are not water
    assert light(reef, "shellfish") == [(1, 1)]
    covered = reef.place(reef.placement_at(Lumino("pink", 4), (0, 0), (1, 1)))
    assert light(covered, "shellfish") == [(0, 0)]  # covered water is not water
    # a shellfish on (1, 1): the bare remote space (0, 0) next to it is not water
    reef = Reef.build(board, ("pink", "green"), [("pink 2 shellfish", (1, 3), (1, 1))])
    assert light(reef, "shellfish") == [(0, 0)]
