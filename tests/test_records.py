"""Every replay reads a game record the same way (lumicore.checks.read_record): a dict, a
pathlib.Path, a str that is the JSON text when it starts with ``{`` and a file's path
otherwise. Lemuria's and the reef's replays took any str for a path (JSON text: "not a file"),
Lumen's and the arena's for JSON text (a path: "not JSON")."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from lumicore.checks import read_record
from lumicore.errors import DataError
from lumicore.game import play_randomly
from lumicore.lemuria import Game as LemuriaGame
from lumicore.lucia.deal_game import DealState
from lumicore.lumen.game import GameState, replay
from lumicore.reef.game import Game as ReefGame
from lumicore.reef.game import read_records
from solvers.arena import play_game, replay_record
from solvers.cli import main


def _few_steps(game: Any, steps: int) -> Any:
    """``game`` after its first legal action ``steps`` times (chance included)."""
    for _ in range(steps):
        game.apply_action(game.legal_actions()[0])
    return game


def _lemuria() -> tuple[dict, Any]:
    game = _few_steps(LemuriaGame.new(3, seed=4), 12)
    return game.record(), game


def _reef() -> tuple[dict, Any]:
    game = _few_steps(ReefGame.new(players=2, seed=5), 12)
    return game.record(), game


def _lumen() -> tuple[dict, Any]:
    end = play_randomly(GameState.new_game(seed=2), seed=2)
    return end.record(), end


def _arena() -> tuple[dict, Any]:
    record, final = play_game("lucia", ["random"], 1, seed=3)
    return record, final


REPLAYS: dict[str, tuple[Callable[[], tuple[dict, Any]], Callable[[Any], Any]]] = {
    "lemuria Game.replay": (_lemuria, LemuriaGame.replay),
    "reef Game.replay": (_reef, ReefGame.replay),
    "reef Game.iter_replay": (_reef, lambda record: list(ReefGame.iter_replay(record))[-1]),
    "lumen replay": (_lumen, replay),
    "lumen GameState.replay": (_lumen, GameState.replay),
    "arena replay_record": (_arena, replay_record),
    "lucia DealState.replay": (_arena, DealState.replay),
}


@pytest.mark.parametrize("name", REPLAYS)
def test_every_replay_takes_a_dict_a_path_a_path_text_and_json_text(name, tmp_path):
    make, replay_ = REPLAYS[name]
    record, end = make()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    text = json.dumps(record, indent=1)
    for given in (record, path, str(path), text, "\n  " + text):
        assert replay_(given).serialize() == end.serialize(), type(given)


@pytest.mark.parametrize("name", REPLAYS)
def test_every_replay_names_a_missing_file_and_text_that_is_no_json(name, tmp_path):
    replay_ = REPLAYS[name][1]
    with pytest.raises(DataError, match="is not a file"):
        replay_(str(tmp_path / "missing.json"))
    with pytest.raises(DataError, match="is not a file"):
        replay_(tmp_path / "missing.json")
    with pytest.raises(DataError, match="not JSON"):
        replay_('{"game": ')


def test_read_records_takes_json_lines_text_and_names_what_is_wrong(tmp_path):
    one, two = _reef()[0], ReefGame.new(players=3, seed=1).record()
    lines = json.dumps(one) + "\n\n" + json.dumps(two) + "\n"
    path = tmp_path / "games.jsonl"
    path.write_text(lines, encoding="utf-8")
    assert read_records(lines) == read_records(path) == read_records(str(path)) == [one, two]
    assert read_records(one) == [one]
    with pytest.raises(DataError, match="every record is a JSON object"):
        read_records(" [1, 2]")  # JSON text: a list is no record
    with pytest.raises(DataError, match="line 2: not JSON"):
        read_records(json.dumps(one) + "\n{")
    path.write_text(" \n", encoding="utf-8")
    with pytest.raises(DataError, match="holds no game record"):
        read_records(path)


def test_read_record_gives_dicts_and_other_values_back_for_the_caller_to_check():
    record = {"game": "lumen"}
    assert read_record(record) is record and read_record(5) == 5


@pytest.mark.parametrize("make, game", [(_reef, "reef"), (_lumen, "lumen"), (_arena, "lucia")])
def test_the_replay_commands_take_a_file_or_json_text(make, game, tmp_path, capsys):
    record = make()[0]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main([game, "replay", "--json", str(path)]) == 0
    from_file = json.loads(capsys.readouterr().out)
    assert main([game, "replay", "--json", json.dumps(record)]) == 0
    assert json.loads(capsys.readouterr().out) == from_file
