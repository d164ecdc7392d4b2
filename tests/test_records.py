"""Every replay reads a game record the same way (lumicore.checks.read_record): a dict, a
pathlib.Path, a str that is the JSON text when it starts with ``{`` and a file's path
otherwise. Lemuria's and the reef's replays took any str for a path (JSON text: "not a file"),
Lumen's and the arena's for JSON text (a path: "not JSON")."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from lumicore.checks import read_record
from lumicore.errors import DataError, IllegalMoveError
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


def test_read_record_takes_one_record_and_tells_json_lines_from_broken_json():
    one = json.dumps({"game": "lumen"})
    with pytest.raises(DataError, match=r"^game record holds 2 records: replay one$"):
        read_record(one + "\n" + one)  # was "not JSON (Extra data ...)"
    assert read_record(one + "\n\n") == {"game": "lumen"}
    # a broken record over several lines is no JSON lines: the error is the whole text's (past
    # line 1; Python 3.13's json names the trailing comma, line 2, older ones the "}", line 3)
    with pytest.raises(DataError, match=r"^game record: not JSON \(.*: line [23] column"):
        read_record('{\n "game": "lumen",\n}')


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


# ---- one replay of arena records for every game (lumicore.game.iter_arena_record) -----------

ARENA_GAMES = {  # game -> (players, what its errors call a record, the Python replay)
    "reef": (2, "reef game record", ReefGame.replay),
    "lemuria": (2, "Lemuria game record", LemuriaGame.replay),
    "lumen": (2, "Lumen game record", replay),
    "lucia": (1, "Lucia game record", DealState.replay),
}
_PLAYED: dict[str, dict] = {}


def _arena_record(game: str) -> dict:
    """A tournament line of ``game``: random bots, seed 3 (played once per session)."""
    if game not in _PLAYED:
        players = ARENA_GAMES[game][0]
        _PLAYED[game] = json.loads(json.dumps(play_game(game, ["random"] * players, players,
                                                        seed=3)[0]))
    return dict(_PLAYED[game])


def _bad_record(game: str, how: str, monkeypatch, tmp_path) -> tuple[str, str]:
    """The file of a bad record of ``game`` and the message every replay gives for it."""
    monkeypatch.chdir(tmp_path)
    record, what = _arena_record(game), ARENA_GAMES[game][1]
    if how == "illegal action":
        record["actions"] = [*record["actions"][:5], 9999, *record["actions"][6:]]
        text = json.dumps(record)
        message = f"{what}: actions[5]: action 9999 is not legal here (legal: "
    elif how == "altered returns":  # the result edited after the game: every game refuses it
        returns = record["returns"]
        record["returns"] = [returns[0] + 1.0, *returns[1:]]
        text = json.dumps(record)
        message = (f"{what}: field 'returns' must be {json.dumps(returns)} (the replayed "
                   f"returns), got {json.dumps(record['returns'])}")
    elif how == "cut short":  # the result of the whole game, the actions of its start
        record["actions"] = record["actions"][:5]
        text = json.dumps(record)
        message = (f"{what}: field 'returns' is the result of a whole game, but the record's "
                   "actions end before the game does")
    elif how == "another game":
        other = "lumen" if game == "lucia" else "lucia"
        text = json.dumps(_arena_record(other))
        message = f"not a {what}: field 'game' must be \"{game}\", got \"{other}\""
    else:  # a tournament's --out of two games
        text = json.dumps(record) + "\n" + json.dumps(record) + "\n"
        message = "'games.jsonl' holds 2 records: replay one"
    Path("games.jsonl").write_text(text, encoding="utf-8")
    return "games.jsonl", message


@pytest.mark.parametrize("how", ["illegal action", "altered returns", "cut short",
                                 "another game", "two records"])
@pytest.mark.parametrize("game", ARENA_GAMES)
def test_every_replay_command_names_a_bad_arena_record_the_same_way(game, how, monkeypatch,
                                                                      tmp_path, capsys):
    # JSON lines were "not JSON (Extra data ...)" in lucia, lemuria and lumen replay; the index of
    # an illegal action was counted from 1 in reef and lemuria ("action 6"), from 0 elsewhere;
    # altered returns replayed silently but in lucia
    path, message = _bad_record(game, how, monkeypatch, tmp_path)
    assert main([game, "replay", path]) == 2
    out, err = capsys.readouterr()
    named = message if message.startswith(repr(path)) else f"{path!r}: {message}"  # the file
    assert out == "" and err.startswith(f"lumicore: error: {named}") and err.count("\n") == 1


@pytest.mark.parametrize("how, error", [("illegal action", IllegalMoveError),
                                        ("altered returns", DataError),
                                        ("cut short", DataError),
                                        ("another game", DataError), ("two records", DataError)])
@pytest.mark.parametrize("game", ARENA_GAMES)
def test_every_python_replay_names_a_bad_arena_record_the_same_way(game, how, error,
                                                                     monkeypatch, tmp_path):
    path, message = _bad_record(game, how, monkeypatch, tmp_path)
    with pytest.raises(error) as caught:
        ARENA_GAMES[game][2](path)
    assert str(caught.value).startswith(message)


def test_the_arena_replays_a_record_of_any_game_the_same_way(monkeypatch, tmp_path):
    # by the game's own rules: the message is its replay's (it said "game record" before)
    path, message = _bad_record("lumen", "illegal action", monkeypatch, tmp_path)
    with pytest.raises(IllegalMoveError) as caught:
        replay_record(path)
    assert str(caught.value).startswith(message) and message.startswith("Lumen game record")
    assert replay_record(_arena_record("lemuria")).is_terminal()


@pytest.mark.parametrize("game", ARENA_GAMES)
def test_the_arena_and_the_games_replay_read_a_record_without_options_alike(game):
    """``replay_record`` (any game) read a Lucia record without ``options`` as one with none and
    played the default deck, while ``lucia replay`` refused it; both read it by Lucia's rules
    now. The other games have no rule for ``options``: left out, they are none in both."""
    record = {key: value for key, value in _arena_record(game).items() if key != "options"}
    replay_ = ARENA_GAMES[game][2]
    if game == "lucia":
        message = "^Lucia game record: field 'options' is missing$"
        with pytest.raises(DataError, match=message):
            replay_(record)
        with pytest.raises(DataError, match=message):
            replay_record(record)
    else:
        assert replay_record(record).serialize() == replay_(record).serialize()
        assert replay_record(record).returns() == record["returns"]


@pytest.mark.parametrize("left_out", ["players", "seed"])
@pytest.mark.parametrize("game", ARENA_GAMES)
def test_the_arena_and_the_games_replay_read_a_record_without_a_field_alike(game, left_out):
    """The reef's and Lumen's replays read a record without ``players`` or ``seed`` as 2
    players and seed 0, which ``replay_record`` (any game) refused; Lucia's and Lemuria's
    require them. Every game's replay and the arena's read a record by the game's rules now."""
    record = {key: value for key, value in _arena_record(game).items() if key != left_out}
    replay_ = ARENA_GAMES[game][2]
    try:
        own = replay_(record)
    except DataError as exc:
        assert f"field '{left_out}' is missing" in str(exc)
        with pytest.raises(DataError) as caught:
            replay_record(record)
        assert str(caught.value) == str(exc)
    else:
        assert game in ("reef", "lumen")
        assert replay_record(record).serialize() == own.serialize()


@pytest.mark.parametrize("game", ARENA_GAMES)
def test_every_replay_of_an_arena_record_checks_its_returns_exactly(game, capsys):
    record = _arena_record(game)
    replay_ = ARENA_GAMES[game][2]
    assert record["returns"] == replay_(record).returns() == replay_record(record).returns()
    assert main([game, "replay", json.dumps(record)]) == 0
    capsys.readouterr()
    returns, what = record["returns"], ARENA_GAMES[game][1]
    for wrong in ([returns[0] + 1e-12, *returns[1:]],  # no tolerance: the floats JSON wrote
                  [bool(r) for r in returns],  # true is no 1.0
                  returns[:-1], "won"):
        with pytest.raises(DataError, match=rf"^{what}: field 'returns' must be "):
            replay_({**record, "returns": wrong})
    # a record without returns (hand-cut, or an older one) replays to where it ends
    unchecked = {key: value for key, value in record.items() if key != "returns"}
    assert replay_(unchecked).serialize() == replay_(record).serialize()


def test_a_reef_record_with_totals_cut_short_is_refused():
    """The totals were checked only when the replay reached the end: a finished game's record
    cut short (or with no decisions at all) replayed without a word."""
    game = ReefGame.new(players=2, seed=1)
    while not game.is_terminal():
        game.play(game.decisions()[0])
    record = game.record()
    assert ReefGame.replay(record).totals() == record["totals"]
    for cut in (record["decisions"][:-5], []):
        with pytest.raises(DataError, match="recorded, but the replay ends before the game"):
            ReefGame.replay({**record, "decisions": cut})


def test_an_illegal_chance_outcome_names_the_outcomes_there():
    """The message said "legal: 0..N-1" at a chance node too, whose outcomes are card kinds."""
    state = DealState.new_game(players=2, seed=1)
    state.counts[0] = 0  # the first card kind is all drawn
    state._moves = None
    legal = state.legal_actions()
    assert legal[0] != 0
    with pytest.raises(IllegalMoveError, match=f"legal: {' '.join(map(str, legal))}\\)"):
        state.apply_action(0)
