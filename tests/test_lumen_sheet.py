"""The command sheet: selections, notation, legal bubbles, chain gains as the rules count them,
High Command, and one-line errors for bad input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lumicore.errors import DataError, IllegalMoveError, LumicoreError, NotationError
from lumicore.lumen import Sheet, load_layout, selections
from lumicore.lumen.dice import ROLLS, check_selection, selection_value
from lumicore.lumen.sheet import (
    LAYOUTS,
    MAX_BUBBLES,
    MAX_THRESHOLD,
    HighCommand,
    Layout,
    grid_layout,
    layout_from_dict,
)
from lumicore.lumen.units import load_board

EMPTY_ROW = ". . . . ."


def row_sheet(first: str) -> Sheet:
    """A default 4 x 5 sheet whose top row is ``first``."""
    return Sheet.parse("\n".join([first] + [EMPTY_ROW] * 3))


# --- selections: "Dado más bajo / más alto / Suma / Multiplicación / Resta"

def test_selections_of_each_kind():
    assert selections(5, 2) == {"low": 2, "high": 5, "sum": 7, "product": 10, "difference": 3}


def test_difference_is_high_minus_low_so_never_negative():
    assert all(selections(a, b)["difference"] >= 0 for (a, b), _ in ROLLS)
    assert selections(1, 6)["difference"] == selections(6, 1)["difference"] == 5


def test_doubles_give_difference_zero_and_product_up_to_36():
    assert selections(6, 6)["difference"] == 0 and selections(6, 6)["product"] == 36


def test_rolls_cover_all_36_outcomes():
    assert len(ROLLS) == 21
    assert sum(p for _, p in ROLLS) == pytest.approx(1.0)
    probs = dict(ROLLS)
    assert probs[(3, 3)] == pytest.approx(1 / 36) and probs[(2, 5)] == pytest.approx(2 / 36)


@pytest.mark.parametrize("bad", ["quotient", "", 3, None])
def test_unknown_selection_is_named(bad):
    with pytest.raises(LumicoreError, match="unknown selection") as err:
        check_selection(bad)
    assert "\n" not in str(err.value)
    with pytest.raises(LumicoreError):
        selection_value(bad, 1, 2)


@pytest.mark.parametrize("die", [0, 7, -1, 2.5, True])
def test_bad_die(die):
    with pytest.raises(LumicoreError, match="die"):
        selections(die, 3)


def test_each_selection_has_a_use_limit_on_the_board():
    limits = load_board().limits
    assert set(limits) == {"low", "high", "sum", "product", "difference"}
    assert sum(limits.values()) == 17


# --- notation

def test_default_sheet_is_4_by_5():
    sheet = Sheet.new()
    assert sheet.layout.shape == (4, 5) and len(sheet.values) == 20
    assert str(sheet) == "\n".join([EMPTY_ROW] * 4)


@pytest.mark.parametrize("text", ["4 . . . . / 4 5 . . . / . . . . . / 0 . . . 36",
                                  ". 1\n2 .", "- 3 -\n4 . 5"])
def test_notation_round_trips(text):
    sheet = Sheet.parse(text)
    assert Sheet.parse(str(sheet)) == sheet
    assert Sheet.parse(str(sheet)).values == sheet.values


def test_slash_and_newline_rows_are_the_same():
    assert Sheet.parse("1 . / . 2") == Sheet.parse("1 .\n. 2")


def test_value_37_is_rejected_naming_it():
    with pytest.raises(NotationError, match="37") as err:
        Sheet.parse("37 . . . . / . . . . . / . . . . . / . . . . .")
    assert "\n" not in str(err.value)
    with pytest.raises(IllegalMoveError, match="37"):
        Sheet.new().place((0, 0), 37)


@pytest.mark.parametrize("bad", ["x . / . .", "1 . / . -3", "", 7])
def test_bad_notation(bad):
    with pytest.raises(LumicoreError):
        Sheet.parse(bad)


@pytest.mark.parametrize("text", ["1 2\n3", "1 2 / 3", ". . .\n. .\n. . ."])
def test_ragged_rows_are_refused_not_read_as_holes(text):
    """Before, a short row was read as a hole at its end: another layout, silently."""
    with pytest.raises(NotationError, match=r"row 2 has \d cells? where row 1 has"):
        Sheet.parse(text)
    assert Sheet.parse("1 2 / 3 -") == Sheet.parse(str(Sheet.parse("1 2 / 3 -")))


def test_sheet_is_immutable_and_place_returns_a_new_one():
    sheet = Sheet.new()
    after = sheet.place((1, 1), 4)
    assert sheet[(1, 1)] is None and after[(1, 1)] == 4
    with pytest.raises(AttributeError):
        sheet.values = ()


# --- legal bubbles: "Todas las nuevas posiciones deben ser adyacentes a selecciones previas"

def test_first_value_may_go_anywhere():
    assert len(Sheet.new().legal_cells()) == 20


def test_later_values_must_be_next_to_a_written_one():
    sheet = Sheet.new().place((1, 1), 4)
    assert sorted(sheet.legal_cells()) == [(0, 1), (1, 0), (1, 2), (2, 1)]


def test_a_bubble_not_next_to_a_written_one_is_rejected_naming_it():
    sheet = Sheet.new().place((0, 0), 4)
    with pytest.raises(IllegalMoveError, match=r"\(3, 3\).*not next to") as err:
        sheet.place((3, 3), 5)
    assert "\n" not in str(err.value)
    with pytest.raises(IllegalMoveError, match="already holds"):
        sheet.place((0, 0), 5)
    with pytest.raises(LumicoreError, match="no bubble"):
        sheet.place((9, 9), 5)


# --- chains: "Idéntico" and "Secuencia" gains, counted as the rules say

def test_first_identical_pair_gives_two():
    assert row_sheet("4 . . . .").gains((0, 1), 4) == (2, 0)


def test_growing_a_pair_to_three_gives_one():
    assert row_sheet("4 4 . . .").gains((0, 2), 4).identical == 1


def test_joining_two_lone_equal_values_gives_three():
    assert row_sheet("4 . 4 . .").gains((0, 1), 4).identical == 3


def test_joining_two_pairs_gives_one():
    assert row_sheet("4 4 . 4 4").gains((0, 2), 4).identical == 1


def test_sequence_456():
    sheet = row_sheet("4 5 . . .")
    assert sheet.gains((0, 2), 6) == (0, 1)
    assert row_sheet("4 . . . .").gains((0, 1), 5) == (0, 2)


def test_zero_one_is_a_sequence():
    assert row_sheet("0 . . . .").gains((0, 1), 1).sequence == 2


def test_a_bent_sequence_454_counts():
    assert row_sheet("4 . 4 . .").gains((0, 1), 5).sequence == 3


def test_a_value_may_make_both_kinds_at_once():
    sheet = Sheet.parse("4 . 3 / . . . / . . .")
    assert sheet.gains((0, 1), 4) == (2, 2)


def test_no_link_no_gain():
    assert row_sheet("4 . . . .").gains((0, 1), 6) == (0, 0)
    assert row_sheet("4 . . . .").gains((1, 0), 4) == (2, 0)  # columns link too


def test_diagonal_bubbles_are_not_neighbours():
    sheet = Sheet.parse("4 . / . .").place((0, 1), 9)
    assert sheet.gains((1, 1), 4) == (0, 0)


# --- High Command: "Si el valor fue 7 o superior, también tachas una casilla"

def test_values_of_seven_or_more_cross_high_command():
    sheet = Sheet.new().place((0, 0), 6).place((0, 1), 7).place((0, 2), 30)
    assert sheet.crossed == 2 and sheet.sections_completed == 1


def test_completing_a_section_is_reported():
    sheet = row_sheet("7 . . . .")
    assert sheet.new_sections(7) == (0,) and sheet.new_sections(6) == ()
    assert Sheet.new().new_sections(12) == ()


def test_last_two_sections_give_objectives():
    hc = load_layout().high_command
    assert hc.boxes == 10 and len(hc.sections) == 5 and hc.objective_sections == (3, 4)
    assert HighCommand().completed(10) == 5 and HighCommand().completed(9) == 4


# --- layout files: any grid or graph of bubbles

def test_a_layout_file_without_objective_sections_gives_objectives_for_the_last_two(tmp_path):
    # "+ una ficha de Objetivo para las 2 áreas finales": a [high_command] table that leaves
    # objective_sections out follows the rulebook (the old loader gave no objective at all,
    # while a layout without the whole table got the last two)
    from pathlib import Path

    from lumen_helpers import do

    import lumicore.data
    from lumicore.lumen.game import GameState

    path = tmp_path / "row.toml"
    path.write_text("rows = 4\ncols = 5\n[high_command]\nsections = [1, 1, 1, 1]\n")
    assert load_layout(path).high_command.objective_sections == (2, 3)
    board = tmp_path / "board.toml"
    text = (Path(lumicore.data.__file__).parent / "lumen_board.toml").read_text()
    board.write_text(text.replace('layout = "default"', f'layout = "{path.as_posix()}"'))
    state = GameState.new_game(board=str(board))
    do(state, "first", 0)
    while state.phase == "draw":
        state.apply_action(0)
    state.sheets[0] = Sheet.parse("8 9 . . . / . . . . . / . . . . . / . . . . .", path)
    do(state, "roll", 4, 5)
    do(state, "choose", 2, 2)    # sum 9 crosses the third box: section 2 is complete
    do(state, "choose", 0, 0)
    assert state.phase == "bonus" and state.todo[:1] == ["objective"]


def test_layout_graph_with_links():
    layout = layout_from_dict({"bubbles": [[0, 0], [0, 2], [1, 1]],
                               "links": [[[0, 0], [1, 1]], [[0, 2], [1, 1]]]})
    sheet = Sheet(layout).place((0, 0), 3)
    assert sheet.legal_cells() == [(1, 1)]
    assert sheet.place((1, 1), 3).gains((0, 2), 3).identical == 1
    assert Sheet.parse(str(sheet), layout) == sheet


def test_layout_file(tmp_path):
    path = tmp_path / "board.toml"
    path.write_text("rows = 2\ncols = 3\n[high_command]\nsections = [1, 1]\n"
                    "objective_sections = [1]\n")
    sheet = Sheet.new(str(path))
    assert sheet.layout.shape == (2, 3) and sheet.layout.high_command.boxes == 2
    assert Sheet.new(path).place((0, 0), 8).sections_completed == 1


@pytest.mark.parametrize("data, match", [
    ({"bubbles": [[0, 0]], "links": [[[0, 0], [5, 5]]]}, "not a bubble"),
    ({"rows": 9, "cols": 9}, "not 1 to 64"),
    ({}, "rows and cols"),
    ({"rows": 1, "cols": 2, "high_command": {"sections": [2], "objective_sections": [3]}},
     "objective section 3"),
    # int() took these quietly: a threshold of 2.9 became 2, "7" became 7
    ({"rows": 1, "cols": 2, "high_command": {"threshold": 2.9, "sections": [2]}}, "threshold"),
    ({"rows": 1, "cols": 2, "high_command": {"threshold": "7", "sections": [2]}}, "threshold"),
    ({"rows": 1, "cols": 2, "high_command": {"sections": [1.5, 1]}}, "sections"),
    ({"rows": 1, "cols": 2, "high_command": {"sections": 3}}, "high_command"),
])
def test_bad_layouts(data, match):
    with pytest.raises(DataError, match=match):
        layout_from_dict(data)


_LAYOUT = "name = \"mine\"\nrows = 4\ncols = 5\n[high_command]\nthreshold = 7\nsections = [2, 2]\n"


@pytest.mark.parametrize("old, new, match", [
    # the layout loader read its keys with get() and int(): a misspelt key was left out
    # silently (a threshold of 7 instead of 9) and rows = 2.7 cut a 4 x 5 sheet to 2 x 5
    ("threshold = 7", "treshold = 9", r"unknown key 'treshold' in \[high_command\] \(known: "
                                      r"threshold, sections, objective_sections\)"),
    ("cols = 5", "cols = 5\ncolumns = 6", r"unknown key 'columns' in the layout file"),
    ("rows = 4", "rows = 2.7", r"rows must be an integer from 1 to 64, not '2.7'"),
    ("rows = 4", 'rows = "3"', r"rows must be an integer from 1 to 64, not '3'"),
    ("rows = 4", "rows = true", r"rows must be an integer from 1 to 64, not 'True'"),
    ("cols = 5", "cols = 0", r"cols must be an integer from 1 to 64, not '0'"),
    ('name = "mine"', "name = 5", r"name must be text, not '5'"),
    # bubbles won over rows and cols, and links without bubbles were left out
    ("cols = 5", "cols = 5\nbubbles = [[0, 0]]", r"give rows and cols, or bubbles, not both"),
    ("cols = 5", "cols = 5\nlinks = []", r"links join bubbles: give bubbles too"),
    ("rows = 4\ncols = 5", "bubbles = 5", r"bubbles must be a list of \[row, col\], not '5'"),
    # named no file
    ("rows = 4\ncols = 5", "bubbles = []", r"a command area has 1 to 64 bubbles, not 0$"),
    ("rows = 4\ncols = 5", "bubbles = [[0, 0]]\nlinks = 5", r"links must be a list of pairs"),
    ("sections = [2, 2]", "sections = 3", r"high_command.sections must be a list of integers"),
    ("sections = [2, 2]", "", r"\[high_command\] leaves out sections"),
])
def test_a_layout_file_names_a_bad_key(old, new, match, tmp_path):
    assert old in _LAYOUT
    path = tmp_path / "layout.toml"
    path.write_text(_LAYOUT.replace(old, new, 1))
    with pytest.raises(DataError, match="^'.*layout.toml': " + match):
        load_layout(path)
    path.write_text(_LAYOUT)
    assert load_layout(path).shape == (4, 5)


@pytest.mark.parametrize("cells", [5, "ab", [(0, 0), (0, "a")], [(0, 0, 0)], [(-1, 0)],
                                   [(0, 0), (0, 0)]])
def test_grid_layout_rejects_cells_that_are_not_pairs(cells):
    # a number or text raised TypeError; a bubble listed twice made a layout whose notation
    # does not read back
    from lumicore.lumen.sheet import grid_layout

    with pytest.raises(DataError):
        grid_layout(cells)


@pytest.mark.parametrize("cells, neighbors, match", [
    ((), (), "tuple of 1 to 64"), ([(0, 0)], ((),), "tuple of 1 to 64"),
    (tuple((0, c) for c in range(65)), ((),) * 65, "tuple of 1 to 64"),
    (((0, 64),), ((),), "bad bubble"), (((0, True),), ((),), "bad bubble"),
    (((0, 0), (0, 0)), ((), ()), r"bubble \(0, 0\) is listed twice"),
    (((0, 0),), (), "for each of its 1"),
    (((0, 0), (0, 1)), ((1,), (0, 2)), "indices of other bubbles"),
    (((0, 0),), ((0,),), "indices of other bubbles"),
    (((0, 0), (0, 1)), ((1,), ()), "not the other way round"),
])
def test_a_layout_built_in_python_is_checked(cells, neighbors, match):
    """Layout((), ()) was accepted (its shape raised ValueError from max()); a neighbour index
    past the bubbles made a mask the kernel reads as bubbles the sheet does not have."""
    from lumicore.lumen.sheet import Layout

    with pytest.raises(LumicoreError, match=match):
        Layout(cells, neighbors)


def test_a_bubble_listed_twice_is_named():
    with pytest.raises(DataError, match=r"^bubble \(1, 2\) is listed twice$"):
        grid_layout([(1, 2), (0, 0), (1, 2)])
    with pytest.raises(DataError, match=r"^'x.toml': bubble \(0, 3\) is listed twice$"):
        layout_from_dict({"bubbles": [[0, 3], [0, 1], [0, 3]]}, "x.toml")


@pytest.mark.parametrize("values", [5, 3.5, "a" * 20])
def test_a_sheet_of_values_that_are_not_a_tuple_is_an_error(values):
    with pytest.raises(LumicoreError):
        Sheet(load_layout(), values)


def test_unknown_layout_name():
    with pytest.raises(DataError, match="nope"):
        Sheet.new("nope")


def test_high_command_checks_itself_and_defaults_objectives_to_the_last_two_sections():
    # the rulebook: "+ una ficha de Objetivo para las 2 áreas finales"; a row of 2 sections
    # kept the default (3, 4), sections that do not exist, and no objective was ever drawn
    assert HighCommand().objective_sections == (3, 4)
    assert HighCommand(sections=(3, 3)).objective_sections == (0, 1)
    assert HighCommand(sections=(4,)).objective_sections == (0,)
    for bad in (dict(sections=(0, 2)), dict(sections=(2, 2), objective_sections=(3,)),
                dict(threshold="7"), dict(sections="22"), dict(sections=(2.0,))):
        with pytest.raises(LumicoreError):
            HighCommand(**bad)


@pytest.mark.parametrize("bad", [dict(sections=(999_999_999,)), dict(sections=(40, 25)),
                                 dict(threshold=10**9), dict(threshold=-10**9),
                                 dict(threshold=10**5000)])
def test_high_command_row_is_bounded(bad):
    # a threshold of ten digits or more printed a notation that did not read back (and one too
    # long for str() made str() raise); a row of 999999999 boxes, read from a one-line
    # notation, hung _repr_svg_ (one rect per box)
    with pytest.raises(LumicoreError):
        HighCommand(**bad)
    assert HighCommand(-MAX_THRESHOLD, (MAX_BUBBLES,)).boxes == MAX_BUBBLES


def test_a_layout_built_in_python_reads_back_from_its_sheets_notation():
    # neighbours given in another order printed no links line and read back in ascending
    # order, a different layout; bubbles out of reading order read back reordered, values too
    layout = Layout(((0, 0), (0, 1), (1, 0)), ((2, 1), (0,), (0,)))
    assert layout.neighbors == ((1, 2), (0,), (0,))
    sheet = Sheet(layout, (1, None, 3))
    assert Sheet.parse(str(sheet)) == sheet
    with pytest.raises(LumicoreError, match="reading order"):
        Layout(((1, 0), (0, 0)), ((1,), (0,)))


@pytest.mark.parametrize("line", ["sections=999999999", "sections=40,25", "threshold=-999999999 "
                                  "sections=65"])
def test_a_notation_with_too_many_high_command_boxes_is_refused(line):
    with pytest.raises(NotationError, match="at most 64 boxes"):
        Sheet.parse(". .\nhigh_command " + line)


# --- the notation reads back: Sheet.parse(str(s)) == s for every layout

@st.composite
def high_commands(draw) -> HighCommand:
    if draw(st.booleans()):
        return HighCommand()
    sections = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=6)))
    objectives = draw(st.one_of(st.none(), st.sets(st.integers(0, len(sections) - 1))))
    return HighCommand(draw(st.integers(-2, 40)), sections,
                       None if objectives is None else tuple(sorted(objectives)))


@st.composite
def layouts(draw):
    """A built-in layout, a grid with holes, or a graph with any links, each with any High
    Command row."""
    kind = draw(st.sampled_from(["built-in", "grid", "graph"]))
    if kind == "built-in":
        return load_layout(draw(st.sampled_from(sorted(LAYOUTS))))
    spots = st.tuples(st.integers(0, 9), st.integers(0, 9))
    cells = sorted(draw(st.sets(spots, min_size=1, max_size=30)))
    if kind == "grid":
        return grid_layout(cells, draw(high_commands()))
    links = draw(st.lists(st.tuples(st.sampled_from(cells), st.sampled_from(cells))
                          .filter(lambda link: link[0] != link[1]), max_size=40))
    return layout_from_dict({"bubbles": [list(c) for c in cells],
                             "links": [[list(a), list(b)] for a, b in links],
                             "high_command": _table(draw(high_commands()))})


def _table(hc: HighCommand) -> dict:
    return {"threshold": hc.threshold, "sections": list(hc.sections),
            "objective_sections": list(hc.objective_sections or ())}


@st.composite
def sheets(draw) -> Sheet:
    layout = draw(layouts())
    values = draw(st.lists(st.one_of(st.none(), st.integers(0, 36)), min_size=len(layout.cells),
                           max_size=len(layout.cells)))
    return Sheet(layout, tuple(values))


@given(sheets())
def test_the_notation_reads_back_without_the_layout(sheet):
    # a graph layout's notation read back as a grid (orthogonal neighbours) and any layout's
    # High Command row as the default one, unless parse was given the layout
    text = str(sheet)
    assert Sheet.parse(text) == sheet
    assert Sheet.parse(text, sheet.layout) == sheet
    assert Sheet.parse(" / ".join(text.splitlines())) == sheet   # the one-line form (repr)
    assert eval(repr(sheet)) == sheet


def test_a_plain_grid_needs_no_layout_lines():
    assert str(Sheet.new()) == "\n".join([EMPTY_ROW] * 4)
    assert str(Sheet.parse("4 5 / . 9")) == "4 5\n. 9"


def test_a_graph_layout_writes_its_links_and_high_command_row():
    layout = layout_from_dict({"bubbles": [[0, 0], [0, 2], [1, 1]],
                               "links": [[[0, 0], [1, 1]], [[0, 2], [1, 1]]],
                               "high_command": {"threshold": 5, "sections": [1, 2]}})
    sheet = Sheet(layout).place((0, 0), 3)
    assert str(sheet) == ("3 - .\n- . -\nlinks 0,0-1,1 0,2-1,1\n"
                          "high_command threshold=5 sections=1,2 objective_sections=0,1")
    assert Sheet.parse(str(sheet)).legal_cells() == [(1, 1)]


@pytest.mark.parametrize("text, match", [
    ("3 . / links 0,0-0,5", "does not join two bubbles"),
    ("3 . / links 0,0-0,0", "does not join two bubbles"),
    ("3 . / links 0,0:0,1", "bad link"),
    ("3 . / links / links", "given twice"),
    ("3 . / links 0,0-0,1 / . .", "a row after the links line"),
    ("3 . / high_command threshold=x", "bad high_command entry"),
    ("3 . / high_command colour=1", "bad high_command entry"),
    ("3 . / high_command sections=0", "bad high_command line: every High Command section"),
    ("3 . / high_command sections=2 objective_sections=4", "bad high_command line"),
    ("links 0,0-0,1", "empty sheet notation"),
    ("- - / links", "1 to 64 bubbles, not 0"),
    ("- / high_command threshold=3", "1 to 64 bubbles, not 0"),
    ("\n".join([". " * 9] * 8) + "\nlinks", "1 to 64 bubbles, not 72"),
    ("\n".join([". " * 9] * 8) + "\nhigh_command threshold=3", "1 to 64 bubbles, not 72"),
])
def test_bad_layout_lines_are_named(text, match):
    with pytest.raises(NotationError, match=match):
        Sheet.parse(text)


def test_layout_lines_must_describe_the_layout_given():
    with pytest.raises(NotationError, match="do not describe the default layout"):
        Sheet.parse("\n".join([EMPTY_ROW] * 4 + ["high_command threshold=5 sections=2"]),
                    "default")


@pytest.mark.parametrize("text", ["\u0663 . / . .", "3 . / . . / links 0,0-0,\u0661"])
def test_the_sheet_notation_takes_ascii_digits_only(text):
    """Arabic-Indic digits were read as numbers (the reef and Lemuria notations refuse them)."""
    with pytest.raises(NotationError):
        Sheet.parse(text)


def test_grid_layout_names_its_empty_cells():
    # it was "a command area has 1 to 64 bubbles, not 0": which argument?
    from lumicore.lumen.sheet import grid_layout

    with pytest.raises(DataError, match=r"^cells: a command area has 1 to 64 bubbles, not 0$"):
        grid_layout([])
