"""Reef boards: the default drawings, the doubled-coordinate geometry, and malformed drawings."""

from collections import Counter

import pytest

from lumicore.errors import DataError, LumicoreError, NotationError
from lumicore.reef.board import Board, load_board


def test_side_a_has_42_base_spaces_and_a_two_space_start():
    board = load_board("A")
    kinds = Counter(board.kinds)
    # rulebook: 42 base spaces (limestone or water) plus the starting Lumino's 2 spaces
    assert kinds["L"] + kinds["W"] == 42
    assert kinds == {"L": 22, "W": 20, "S": 2}
    assert board.remote_mask == 0 and set(board.penalty) == {0}


def test_side_b_has_six_remote_spaces_with_penalties_1_to_3():
    board = load_board("B")
    remote = {board.cells[i]: p for i, p in enumerate(board.penalty) if p}
    assert remote == {(0, 3): 1, (0, 11): 2, (3, 0): 3, (3, 14): 1, (6, 3): 2, (6, 11): 3}
    assert bin(board.remote_mask).count("1") == 6
    # B side: fewer limestone spaces next to the starting area than side A
    a = load_board("A")

    def limestone_by_start(b):
        near = 0
        for s in b.start_cells:
            near |= b.neighbors[s]
        return sum(1 for j in range(len(b.cells)) if near >> j & 1 and b.kinds[j] == "L")

    assert limestone_by_start(board) < limestone_by_start(a)


def test_cells_sorted_and_indexed():
    board = load_board("A")
    assert list(board.cells) == sorted(board.cells)
    assert all(board.index[c] == i for i, c in enumerate(board.cells))
    assert board.all_mask == (1 << 44) - 1


def test_masks_match_kinds():
    board = load_board("B")
    for i, kind in enumerate(board.kinds):
        assert bool(board.water_mask >> i & 1) == (kind == "W")
        assert bool(board.base_mask >> i & 1) == (kind != "S")
        assert bool(board.remote_mask >> i & 1) == (kind in "123")


def test_neighbours_are_doubled_coordinates():
    board = load_board("A")
    for i, (r, x) in enumerate(board.cells):
        expected = {(r, x - 2), (r, x + 2), (r - 1, x - 1), (r - 1, x + 1), (r + 1, x - 1),
                    (r + 1, x + 1)} & set(board.cells)
        assert {board.cells[j] for j in board.neighbor_cells(i)} == expected
        for j in board.neighbor_cells(i):
            assert board.neighbors[j] >> i & 1  # symmetric
    # corner (0, 3) has 3 neighbours on the board; an inner space has 6
    assert len(board.neighbor_cells(board.index[(0, 3)])) == 3
    assert len(board.neighbor_cells(board.index[(3, 6)])) == 6
    assert set(board.edges) == {(i, j) for i in range(44) for j in board.neighbor_cells(i)}


def test_start_cells_lower_column_first():
    board = Board.parse("L L L\n L S L\nL S L\n")  # starting spaces on two rows
    assert [board.cells[i] for i in board.start_cells] == [(2, 2), (1, 3)]


def test_drawing_round_trips():
    for side in "AB":
        board = load_board(side)
        again = Board.parse(board.drawing(), name="copy")
        assert again == board and hash(again) == hash(board)
        assert again.name == "copy"


def test_load_board_from_path(tmp_path):
    path = tmp_path / "mine.txt"
    path.write_text("# my board\n L S S L\nW W W W W\n")
    board = load_board(path)
    assert board.name == "mine"
    assert board.kinds.count("W") == 5
    assert board.cells[0] == (0, 1)  # the comment line is not a row


def test_unknown_board_name():
    with pytest.raises(DataError, match="'C'"):
        load_board("C")


@pytest.mark.parametrize(
    "drawing, where",
    [
        ("L S S X", "unknown token 'X' at row 0, column 6"),
        ("L S S\n L L Q", "unknown token 'Q' at row 1, column 5"),
        ("L S S\nL L", "misaligned space at row 1, column 0"),
        ("L S S  L", "misaligned space at row 0, column 7"),
        ("LS S", "misaligned space at row 0, column 1"),
        ("L S L S", r"do not touch"),
        ("L S L L\n L", r"found 1 \(only row 0, column 2\)"),
        ("S S S", r"found 3 \(the third at row 0, column 4\)"),
        ("L L L", "found 0"),
        ("S S\tL", r"unknown token '\\t' at row 0, column 3"),
        # at the end of a line these were dropped, and a form feed or U+2028 broke the row
        (" S S\t\nL W", r"unknown token '\\t' at row 0, column 4"),
        (" S S\u00a0\nL W", r"unknown token '\\xa0' at row 0, column 4"),
        (" S S\x0cL W", r"unknown token '\\x0c' at row 0, column 4"),
        (" S S\u2028L W", r"unknown token '\\u2028' at row 0, column 4"),
    ],
)
def test_malformed_drawings_name_row_and_column(drawing, where):
    with pytest.raises(NotationError, match=where):
        Board.parse(drawing)


def test_more_than_64_cells_rejected_naming_the_65th():
    rows = [" ".join("L" * 9) if r % 2 == 0 else " " + " ".join("L" * 9) for r in range(8)]
    rows[0] = "S S " + rows[0][4:]
    assert Board.parse("\n".join(rows[:7])).cells  # 63 spaces are fine
    rows.append(" ".join("L" * 2))  # 74 spaces: the 65th is the 2nd of row 7
    with pytest.raises(NotationError, match=r"space 65 at row 7, column 3"):
        Board.parse("\n".join(rows))


def test_exactly_64_cells_accepted():
    rows = [" ".join("L" * 8) if r % 2 == 0 else " " + " ".join("L" * 8) for r in range(8)]
    rows[0] = "S S " + rows[0][4:]
    assert len(Board.parse("\n".join(rows)).cells) == 64


def test_file_error_names_file_row_and_column(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("# comment\nL S S\n L Z\n")
    with pytest.raises(NotationError, match=r"bad.txt': unknown token 'Z' at row 1, column 3"):
        load_board(path)


def test_cell_index_rejects_missing_space():
    with pytest.raises(LumicoreError, match=r"\(0, 0\)"):
        load_board("A").cell_index((0, 0))


@pytest.mark.parametrize("cells", [((1, 2), (3, 4, 5)), ((0, "a"), (0, 2)), ((-1, 1), (0, 2)),
                                   (5, 6)])
def test_bad_cells_in_constructor(cells):
    with pytest.raises(NotationError):
        Board("x", cells, ("S", "S")[: len(cells)])


def test_a_users_drawing_named_like_a_side_is_not_the_built_in_board(tmp_path):
    """A drawing A.txt with a bad token was reported as "built-in board 'A'" (its name is its
    stem, A, which the loader took for the built-in side)."""
    path = tmp_path / "A.txt"
    path.write_text("L S S\n L X\n")
    with pytest.raises(NotationError) as info:
        load_board(path)
    assert "built-in" not in str(info.value)
    assert str(info.value).startswith(repr(str(path))) and "unknown token 'X'" in str(info.value)
    path.write_text("L S S\n")
    assert load_board(path).name == "A" and not load_board(path).is_builtin("A")
