"""Bad input to the reef API and CLI: one LumicoreError (CLI: one line, exit 2), never a
traceback; pictures of results; the board as a graph."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lumicore.errors import DataError, LumicoreError
from lumicore.reef import Board, Lumino, Reef, format_hand, load_board, parse_hand
from lumicore.reef import io as reef_io
from lumicore.reef.render import svg
from solvers.cli import main
from solvers.reef import best_placement

NS = "{http://www.w3.org/2000/svg}"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("text", ["[" * 100_000, '{"version": ' + "1" * 5001 + "}"])
def test_deep_or_huge_json_is_a_data_error(text):
    with pytest.raises(DataError, match="not JSON"):
        reef_io.loads(text)


def test_deep_json_file_on_the_cli_is_one_line(capsys, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000)
    code, _, err = run(capsys, "reef", "show", str(path))
    assert code == 2 and err.count("\n") == 1 and "nested too deeply" in err


@pytest.mark.parametrize("hand", ["pink ³", "pink ٣", "pink ３"])
def test_only_ascii_digits_are_numbers(hand):
    with pytest.raises(LumicoreError, match="bad token"):
        parse_hand(hand)


@pytest.mark.parametrize("value", [None, 3, ["pink 3"]])
def test_parse_hand_of_a_non_string(value):
    with pytest.raises(LumicoreError):
        parse_hand(value)


def test_error_quotes_at_most_about_80_characters():
    with pytest.raises(LumicoreError) as info:
        parse_hand("pink " + "x" * 500)
    assert len(str(info.value)) < 250


def test_board_file_with_a_byte_order_mark(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes("\ufeff S S\nL W\n".encode())
    assert load_board(path).cells == ((0, 1), (0, 3), (1, 0), (1, 2))
    assert Board.parse("\ufeff S S\nL W\n") == load_board(path)


def test_reef_file_with_a_byte_order_mark(tmp_path):
    reef = Reef.build(load_board("A"), ("pink", "green"), [("pink 3 crab", (2, 5), (1, 4))])
    path = tmp_path / "reef.json"
    path.write_bytes(b"\xef\xbb\xbf" + reef_io.dumps(reef).encode())
    assert reef_io.load(path) == reef


@pytest.mark.parametrize("option", ["--board", "--start"])
def test_empty_board_or_start_is_an_error(capsys, option):
    code, _, err = run(capsys, "reef", "show", option, "")
    assert code == 2 and err.startswith("lumicore: error:")


@pytest.mark.parametrize("board", ["A", None, 3])
def test_reef_new_needs_a_board(board):
    with pytest.raises(LumicoreError, match="load_board"):
        Reef.new(board, ("pink", "green"))


def test_cell_views_reject_bad_indices_and_colours():
    reef = Reef.new(load_board("A"), ("pink", "green"))
    with pytest.raises(LumicoreError):
        reef.visible_count("red")
    for bad in (999, -1, 44, "3", 1.0, True):
        for view in (reef.height_index, reef.top_piece, reef.cell_color, reef.cell_number,
                     reef.cell_animal):
            with pytest.raises(LumicoreError):
                view(bad)
    assert reef.height_index(43) == 0


@pytest.mark.parametrize("command", [
    ["reef", "show", "--svg"],
    ["reef", "best", "--hand", "pink 3", "--limestone", "1", "--save"],
    ["reef", "best", "--hand", "pink 3", "--limestone", "1", "--svg"],
])
def test_output_paths_checked_before_work(capsys, tmp_path, command):
    code, out, err = run(capsys, *command, str(tmp_path))
    assert code == 2 and "folder" in err and out == ""
    code, out, err = run(capsys, *command, str(tmp_path / "missing" / "out.x"))
    assert code == 2 and "does not exist" in err and out == ""


def test_json_on_show_and_best(capsys):
    code, out, _ = run(capsys, "reef", "show", "--start", "blue,yellow", "--json")
    data = json.loads(out)
    assert code == 0 and data["visible"]["blue"] == 1 and data["reef"]["start"] == ["blue",
                                                                                     "yellow"]
    code, out, _ = run(capsys, "reef", "best", "--hand", "pink 3 crab", "--limestone", "0",
                       "--objective", "animals:dark", "--json")
    data = json.loads(out)
    assert code == 0 and data["status"] == "optimal" and data["value"] == 2.0
    assert reef_io.from_json(data["reef"]).visible_animals()["crab"] == 1


def test_best_stopped_by_a_limit_still_has_an_answer(capsys):
    code, out, _ = run(capsys, "reef", "best", "--hand", "pink 3, pink 4, blue 2",
                       "--limestone", "3", "--max-nodes", "2", "--json")
    assert json.loads(out)["status"] == "limit" and code == 0


def test_board_graph():
    board = load_board("B")
    graph = board.graph()
    assert isinstance(graph, nx.Graph) and nx.is_connected(graph)
    assert graph.number_of_nodes() == len(board.cells)
    assert all(graph.degree(i) == bin(board.neighbors[i]).count("1") for i in graph)
    assert {graph.nodes[i]["kind"] for i in graph} == {"L", "W", "S", "1", "2", "3"}


def test_placement_result_svg_outlines_the_new_tiles_in_order(tmp_path, capsys):
    reef = Reef.new(load_board("A"), ("pink", "green"))
    result = best_placement(reef, "pink 3 crab, pink 4", 2, "coral:pink")
    root = ET.fromstring(result._repr_svg_())
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert "1" in texts and "2" in texts
    assert any("best placement for coral:pink" in (t or "") for t in texts)
    image = tmp_path / "best.svg"
    code, _, _ = run(capsys, "reef", "best", "--hand", "pink 3 crab", "--limestone", "0",
                     "--svg", str(image))
    assert code == 0 and ET.parse(image).getroot().tag == f"{NS}svg"


def test_reef_picture_has_a_legend_and_full_animal_names():
    reef = Reef.build(load_board("B"), ("pink", "green"), [("pink 3 seahorse", (2, 7), (2, 5))])
    root = ET.fromstring(svg(reef))
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert "seahorse" in texts and "water (costs 1 limestone)" in texts
    assert all(name in texts for name in ("pink", "green", "blue", "yellow"))
    assert float(root.get("width")) >= 500


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_fuzz_hand_parser(text):
    try:
        hand = parse_hand(text)
    except LumicoreError:
        return
    assert all(isinstance(t, Lumino) for t in hand)


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.text(max_size=80), st.binary(max_size=80).map(
    lambda b: b.decode("utf-8", "replace"))))
def test_fuzz_reef_json_and_board_parsers(text):
    for parse in (reef_io.loads, Board.parse):
        try:
            parse(text)
        except LumicoreError:
            pass


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=40))
def test_fuzz_cli_start_and_objective_parsers(text):
    from solvers.commands.reef import parse_objective, parse_start

    for parse in (parse_start, parse_objective):
        try:
            parse(text)
        except LumicoreError:
            pass


RECORD_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 2**64), st.text(max_size=8),
                          st.lists(st.text(max_size=30), max_size=3))


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(["format", "version", "players", "seed", "side",
                                        "scoreboard", "tiles", "decisions", "actions",
                                        "totals"]), RECORD_VALUES, max_size=8))
def test_fuzz_game_records(record):
    from lumicore.reef.game import Game

    record.setdefault("format", "lumicore-reef-game")
    try:
        Game.replay(record)
    except LumicoreError:
        pass


@settings(max_examples=100, deadline=None)
@given(st.one_of(st.text(max_size=60), st.binary(max_size=60).map(
    lambda b: b.decode("utf-8", "replace"))))
def test_fuzz_serialized_games(text):
    from lumicore.reef.game import Game

    try:
        Game.deserialize(text)
    except LumicoreError:
        pass


@pytest.mark.parametrize("text", ["[]", "5", '"x"', "null", "[1, 2]"])
def test_game_record_file_holding_no_object_is_one_line(capsys, tmp_path, text):
    from lumicore.reef.game import Game, read_records

    path = tmp_path / "game.json"
    path.write_text(text)
    with pytest.raises(DataError, match="every record is a JSON object"):
        read_records(path)
    with pytest.raises(DataError):
        Game.replay(path)
    for command in ("replay", "best-turn"):
        code, _, err = run(capsys, "reef", command, str(path))
        assert code == 2 and err.count("\n") == 1 and "JSON object" in err


@pytest.mark.parametrize("value", [None, 5, 2.5, True, ["A"]])
def test_board_and_tile_names_of_a_wrong_type_are_data_errors(capsys, tmp_path, value):
    from lumicore.reef import load_tiles
    from lumicore.reef.game import Game

    with pytest.raises(DataError, match="not a name or a path"):
        load_board(value)
    with pytest.raises(DataError, match="not a name or a path"):
        load_tiles(value)
    with pytest.raises(DataError):
        Game.new(2, 1, tiles=value)
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"format": "lumicore-reef-game", "players": 2, "seed": 1,
                                "decisions": [], "tiles": value}))
    code, _, err = run(capsys, "reef", "replay", str(path))
    assert code == 2 and err.count("\n") == 1


def test_hand_state_rejects_a_non_hand_and_deep_json():
    from lumicore.reef.hand import HandState

    reef = Reef.new(load_board("A"), ("pink", "green"))
    for hand in (None, 5, Lumino("pink", 3)):
        with pytest.raises(LumicoreError, match="hand must be"):
            HandState(reef, hand, 1)
    with pytest.raises(DataError, match="nested too deeply"):
        HandState.deserialize("[" * 100_000)
    state = HandState(reef, "pink 3 crab", 1)
    assert HandState.deserialize(state.serialize())._key() == state._key()


def test_solver_inputs_of_a_wrong_type_are_lumicore_errors():
    from solvers.reef.placement import Objective, weighted

    reef = Reef.new(load_board("A"), ("pink", "green"))
    for hand in (None, 5, Lumino("pink", 3)):
        with pytest.raises(LumicoreError, match="hand must be"):
            best_placement(reef, hand, 2)
    for terms in (None, [("coral:pink", 1.0)]):
        with pytest.raises(LumicoreError, match="dict"):
            weighted(terms)
    for weights in (None, 5):
        with pytest.raises(LumicoreError, match="finite weights"):
            Objective(weights)
    assert best_placement(reef, [Lumino("pink", 3)], 2).status == "optimal"


def test_reef_and_pictures_of_wrong_types_are_lumicore_errors():
    from lumicore.reef.render import text

    board = load_board("A")
    reef = Reef.new(board, ("pink", "green"))
    start = reef.pieces[0]
    for make in (lambda: Reef(board, ("x",)), lambda: Reef(board, None),
                 lambda: Reef("A", (start,)), lambda: Reef(board, (start, "y")),
                 lambda: Reef(board, "pieces")):
        with pytest.raises(LumicoreError):
            make()
    for bad in ("x", None, board):
        with pytest.raises(LumicoreError, match="expected a Reef"):
            text(bad)
        with pytest.raises(LumicoreError, match="expected a Reef"):
            svg(bad)
    for placed in ([(99, 99)], "abc", 5, [1], [-1], [True]):
        with pytest.raises(LumicoreError, match="placed must be"):
            svg(reef, placed=placed)
    with pytest.raises(LumicoreError, match="caption must be text"):
        svg(reef, caption=5)
    assert svg(reef, placed=[0], caption="start") and svg(reef, placed=range(1))


def test_scoring_of_wrong_types_is_a_lumicore_error():
    from lumicore.reef.scoring import final_scores, majority_points, winners

    reef = Reef.new(load_board("A"), ("pink", "green"))
    scores = final_scores(iter([reef, reef]), iter([0, 1]), (x for x in [2, 3]))
    assert scores == final_scores([reef, reef], [0, 1], [2, 3])
    for args in (([], [], []), (scores, [1], [0, 0]), (scores, [1, 2], [0]),
                 (["x", "y"], [1, 2], [0, 0]), (scores, ["a", 2], None), (scores, 5, None),
                 (None, [1], None)):
        with pytest.raises(LumicoreError):
            winners(*args)
    assert winners(scores, [4, 4], [0, 0]) == [1]
    for counts in ([-1, "x"], [1.5, 2], None, "12", [True, 2]):
        with pytest.raises(LumicoreError):
            majority_points(counts)
    with pytest.raises(LumicoreError, match="must be a list"):
        final_scores(reef, [0], [0])


def test_random_reef_seed_and_why_illegal_of_wrong_types():
    from lumicore.reef.game import Game
    from lumicore.reef.sample import random_reef

    for seed in (-1, "x", 2.5, True, 2**64):
        with pytest.raises(LumicoreError, match="seed"):
            random_reef("A", 3, seed)
    assert random_reef("A", 3, 7) == random_reef("A", 3, 7)
    game = Game.new(2, 1)
    for text in (None, 5):
        assert "written as text" in game.why_illegal(text)


BUILD_START = ("pink", "green")


@pytest.mark.parametrize("call, named", [
    (lambda b, r, p: Reef.build(b, BUILD_START, None), "moves"),
    (lambda b, r, p: Reef.build(b, BUILD_START, [5]), "move 1"),
    (lambda b, r, p: Reef.build(b, BUILD_START, [("pink 3", (2, 5))]), "move 1"),
    (lambda b, r, p: Reef.build(b, BUILD_START, ["pink 3 (2, 5) (1, 4)"]), "move 1"),
    (lambda b, r, p: r.place(p, limestone="x"), "limestone"),
    (lambda b, r, p: r.place(p, limestone=-1), "limestone"),
    (lambda b, r, p: b.neighbor_cells(999), "no cell index"),
    (lambda b, r, p: b.neighbor_cells(-1), "no cell index"),
    (lambda b, r, p: b.neighbor_cells("x"), "no cell index"),
    (lambda b, r, p: reef_io.save(r, None), "file name"),
    (lambda b, r, p: format_hand(None), "sequence of Luminos"),
    (lambda b, r, p: format_hand("pink 3"), "parse_hand"),
    (lambda b, r, p: format_hand([1, 2]), "Luminos"),
])
def test_more_wrong_arguments_are_lumicore_errors(call, named):
    """These were TypeError / ValueError / IndexError tracebacks, or wrong answers:
    neighbor_cells(-1) gave the neighbours of the last cell, format_hand("pink 3") the text
    'p, i, n, k,  , 3' that parse_hand cannot read, place(limestone=-1) said 'only -1 in
    storage'."""
    board = load_board("A")
    reef = Reef.new(board, BUILD_START)
    placement = reef.placement_at(Lumino("pink", 3), (2, 5), (1, 4))
    with pytest.raises(LumicoreError, match=named):
        call(board, reef, placement)
    assert Reef.build(board, BUILD_START, [["pink 3", [2, 5], [1, 4]]]) == reef.place(placement)
    assert reef.place(placement, limestone=0) == reef.place(placement)
    assert board.neighbor_cells(43) == tuple(sorted(board.neighbor_cells(43)))


def test_a_board_name_must_be_text():
    """Board.parse(drawing, name=5) was accepted; the name is printed and saved as text."""
    with pytest.raises(LumicoreError, match="name must be text"):
        Board.parse(" S S\nL W\n", name=5)
    assert Board.parse(" S S\nL W\n", name="mine").name == "mine"
