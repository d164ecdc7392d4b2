"""Reefs saved to and loaded from JSON."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lumicore.checks import read_json
from lumicore.errors import DataError, IllegalMoveError
from lumicore.reef import Board, Reef, load_board
from lumicore.reef.game import Game
from lumicore.reef.hand import HandState
from lumicore.reef.io import dumps, from_json, load, loads, save, to_json
from lumicore.reef.sample import random_reef

A = load_board("A")


def small_reef():
    return Reef.build(A, ("pink", "green"), [
        ("pink 3 crab", (2, 5), (1, 4)),
        ("green 2", (2, 7), (2, 9)),
        ("pink 6", (3, 6), (2, 5)),
    ])


def test_file_layout():
    data = to_json(small_reef())
    assert data["format"] == "lumicore-reef" and data["version"] == 1
    assert data["board"] == "A"
    assert data["start"] == ["pink", "green"]
    assert data["placements"][0] == {"lumino": "pink 3 crab", "number_cell": [2, 5],
                                     "other_cell": [1, 4], "level": 1}
    assert [p["level"] for p in data["placements"]] == [1, 1, 2]
    json.dumps(data)  # plain JSON data


def test_round_trip_file(tmp_path):
    reef = small_reef()
    path = tmp_path / "reef.json"
    save(reef, path)
    again = load(path)
    assert again == reef and again.board.name == "A"


@settings(max_examples=20)
@given(st.integers(0, 10_000), st.sampled_from("AB"))
def test_round_trip_random_reefs(seed, side):
    reef = random_reef(side, pieces=12, seed=seed)
    assert loads(dumps(reef)) == reef


def test_custom_board_saved_as_drawing():
    board = Board.parse(" L S S L\nW L L L W\n", name="tiny")
    reef = Reef.build(board, ("blue", "yellow"), [("blue 4 starfish", (1, 2), (1, 4))])
    data = to_json(reef)
    assert data["board"] == {"name": "tiny", "drawing": board.drawing()}
    again = from_json(data)
    assert again == reef and again.board.name == "tiny"


def test_builtin_board_loaded_from_path_saved_by_name(tmp_path):
    path = tmp_path / "side_a.txt"
    path.write_text(A.drawing())
    reef = Reef.new(load_board(path), ("pink", "blue"))
    assert to_json(reef)["board"] == "A"


def test_illegal_placement_named():
    data = to_json(small_reef())
    data["placements"][1]["number_cell"] = [0, 11]  # far from everything
    data["placements"][1]["other_cell"] = [0, 9]
    with pytest.raises(IllegalMoveError, match="placement 2"):
        from_json(data)


def test_wrong_level_or_cost_rejected():
    data = to_json(small_reef())
    data["placements"][2]["level"] = 1
    with pytest.raises(IllegalMoveError, match="placement 3: level"):
        from_json(data)
    data = to_json(small_reef())
    data["placements"][0]["cost"] = 1
    with pytest.raises(IllegalMoveError, match="placement 1: cost"):
        from_json(data)


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(format="other"), "not a reef file"),
    (lambda d: d.update(version=2), "version 2"),
    (lambda d: d.pop("start"), "missing 'start'"),
    (lambda d: d.update(board="C"), "board 'C'"),
    (lambda d: d.update(start=["pink"]), "start"),
    (lambda d: d["placements"][0].update(lumino="pink 9"), r"placement 1: .*'9'"),
    (lambda d: d["placements"][0].update(number_cell=[2]), r"placement 1: expected \[row"),
    (lambda d: d["placements"][0].update(number_cell=[0, 0]), r"placement 1: no space"),
    (lambda d: d.update(placements={}), "placements"),
])
def test_malformed_files_rejected(change, message):
    data = to_json(small_reef())
    change(data)
    with pytest.raises((DataError, IllegalMoveError), match=message):
        from_json(data)


@pytest.mark.parametrize("text", ["{", "", "[" * 100_000, '{"v": ' + "1" * 5001 + "}", 3])
@pytest.mark.parametrize("read, source", [(loads, "reef file"),
                                          (Game.deserialize, "serialized reef game"),
                                          (HandState.deserialize, "serialized reef hand state")])
def test_text_that_is_not_json_is_read_as_every_game_reads_it(read, source, text):
    """The reef read JSON with a twin of lumicore.checks.read_json worded its own way ("reef
    file is not JSON: nested too deeply"); now it is read_json's error, naming the source."""
    with pytest.raises(DataError) as expected:
        read_json(text, source)
    with pytest.raises(DataError) as raised:
        read(text)
    assert str(raised.value) == str(expected.value)
    assert str(raised.value).startswith(f"{source}: ")


def test_bad_json_and_missing_file(tmp_path):
    with pytest.raises(DataError, match="not JSON"):
        loads("{")
    with pytest.raises(DataError, match="missing.json"):
        load(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "lumicore-reef", "version": 1}')
    with pytest.raises(DataError, match="bad.json': reef file: missing 'board'"):
        load(bad)


def test_a_board_whose_first_row_is_not_row_0_saves_and_loads():
    """The drawing renumbers the rows from 0 while the placements kept the board's rows:
    loading said "placement 1: no space at (3, 0)"."""
    board = Board("mine", ((2, 1), (2, 3), (3, 0), (3, 2), (3, 4)), ("S", "S", "L", "L", "L"))
    reef = Reef.build(board, ("pink", "green"), [("pink 3", (3, 0), (3, 2))])
    data = to_json(reef)
    assert data["board"]["first_row"] == 2
    assert loads(dumps(reef)) == reef and loads(dumps(reef)).board.cells == board.cells
    assert "first_row" not in to_json(Reef.build(Board.parse(board.drawing()), ("pink", "green"),
                                                 []))["board"]
    data["board"]["first_row"] = -1
    with pytest.raises(DataError, match="first_row"):
        from_json(data)


def test_save_replaces_the_file_whole(tmp_path, monkeypatch):
    """save (reef best --save) wrote in place, unlike --svg and --record: a write that failed
    partway left half a reef where the old one was. It now writes a new file and puts it in
    place in one step: a write that fails leaves the old file as it was."""
    import os

    from lumicore.errors import OutputError

    path = tmp_path / "reef.json"
    save(small_reef(), path)
    old = path.read_text()

    def fail(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OutputError, match="reef.json': No space left on device$"):
        save(Reef.build(A, ("pink", "green"), []), path)
    assert path.read_text() == old and [p.name for p in tmp_path.iterdir()] == ["reef.json"]
