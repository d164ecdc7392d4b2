"""``lumicore lucia replay`` and ``DealState.replay``: the records of ``lucia play --json`` and
the arena's Lucia records played back, every play checked, bad records refused in one line."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from lumicore.errors import DataError, LumicoreError
from lumicore.lucia.deal_game import DealState
from solvers.cli import main

PLAY = ["lucia", "play", "--samples", "4", "--max-nodes", "300"]


def _play(capsys, *argv: str) -> tuple[dict, str]:
    """``lucia play ... --json``: the record and its text exactly as printed."""
    assert main([*PLAY, *argv, "--json"]) == 0
    text = capsys.readouterr().out
    return json.loads(text), text


def _fails(capsys, *argv: str) -> str:
    """Run ``lumicore ARGV``, expecting exit 2 and a one-line error; return it."""
    assert main(list(argv)) == 2
    err = capsys.readouterr().err
    assert err.startswith("lumicore: error: ") and err.count("\n") == 1
    return err


def test_play_json_replays_as_is_with_the_same_result(tmp_path, capsys):
    """``lucia play --json`` printed a record that nothing replayed (there was no ``replay``)."""
    record, text = _play(capsys, "--seed", "2", "--players", "2")
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    assert main(["lucia", "replay", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == f"{'won' if record['won'] else 'lost'} after {record['plays']} plays"
    assert lines[0].startswith("start: ") and len(lines) == record["plays"] + 2
    for line, turn in zip(lines[1:-1], record["turns"], strict=True):
        card, after = turn["play"].split(": ", 1)[0], turn["play"].rsplit(" => ", 1)[1]
        assert line == f"player {turn['player']}: {card} => {after}"
    assert main(["lucia", "replay", text, "--json"]) == 0  # the JSON text itself
    data = json.loads(capsys.readouterr().out)
    assert (data["won"], data["plays"], data["over"]) == (record["won"], record["plays"], True)
    assert data["train"] == record["turns"][-1]["play"].rsplit(" => ", 1)[1]


def test_play_record_writes_what_json_prints(tmp_path, capsys):
    _, text = _play(capsys, "--seed", "5", "--policy", "greedy")
    path = tmp_path / "game.json"
    assert main([*PLAY, "--seed", "5", "--policy", "greedy", "--record", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"record written to {path}"
    assert path.read_text(encoding="utf-8") == text
    assert "does not exist" in _fails(capsys, *PLAY, "--seed", "5", "--record",
                                      str(tmp_path / "no" / "game.json"))


def test_the_replay_deals_the_deck_the_game_was_played_with(capsys):
    record, _ = _play(capsys, "--seed", "3", "--policy", "greedy", "--deck", "reconstructed")
    assert record["deck"] == "reconstructed"
    state = DealState.replay(record)
    assert state.is_terminal() and state.won is record["won"] and record["plays"] > 0
    with pytest.raises(LumicoreError, match=r"turns\[0\]"):
        DealState.replay({**record, "deck": "calibrated"})  # another deal: other hands


def test_a_tampered_play_is_a_one_line_error_naming_it_and_its_index(tmp_path, capsys):
    record, _ = _play(capsys, "--seed", "2", "--policy", "greedy")
    assert record["plays"] >= 3
    turn = record["turns"][2]
    card, after = turn["play"].rsplit(" => ", 1)
    turn["play"] = f"{card} => {after[::-1]}"  # the same card, a train it does not make
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    err = _fails(capsys, "lucia", "replay", str(path))
    assert "turns[2].play" in err and after[::-1] in err and "is not a legal play" in err


def _tamper(record: dict, what: str) -> dict:
    record = json.loads(json.dumps(record))
    if what == "won":
        record["won"] = not record["won"]
    elif what == "plays":
        record["plays"] += 1
    elif what == "short":  # says lost, but the game goes on after its turns
        del record["turns"][-1]
        record["plays"] -= 1
    elif what == "player":
        record["turns"][1]["player"] = 2
    elif what == "hand":
        record["turns"][1]["hand"] = record["turns"][0]["hand"][:2]
    elif what == "after the end":
        record["turns"].append(record["turns"][-1])
        record["plays"] += 1
    return record


@pytest.fixture(scope="module")
def lost_game() -> dict:
    """``lucia play --seed 2 --policy greedy --json``'s record, played once for the cases below
    (each tampers with a copy)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main([*PLAY, "--seed", "2", "--policy", "greedy", "--json"]) == 0
    return json.loads(out.getvalue())


@pytest.mark.parametrize("what, message", [
    ("won", "field 'won' must be false: the replay is lost after"),
    ("plays", "field 'plays' must be"),
    ("short", "field 'won' must be left out: the replay is not over after"),
    ("player", "field 'turns[1].player' must be 1 (player 1 plays there), got 2"),
    ("hand", "field 'turns[1].hand' must be the cards player 1 holds there"),
    ("after the end", "is lost before it"),
])
def test_a_record_whose_result_or_turns_the_replay_does_not_reach_is_refused(what, message,
                                                                             lost_game, capsys):
    record = lost_game
    assert record["won"] is False and record["plays"] >= 3  # seed 2: lost after some plays
    err = _fails(capsys, "lucia", "replay", json.dumps(_tamper(record, what)))
    assert message in err


@pytest.mark.parametrize("content, message", [
    (None, "is not a file"),
    ("not json at all", "not JSON"),
    ('{"game": "lemuria", "players": 2, "seed": 0, "actions": []}',
     'not a Lucia game record: field \'game\' must be "lucia", got "lemuria"'),
    ('{"format": "lumicora-reef-game", "players": 2, "seed": 0, "decisions": []}',
     'not a Lucia game record: no "game": "lucia"'),
    ('{"game": "lucia", "seed": -1, "players": 1, "turns": []}', "field 'seed' must be a seed"),
    ('{"game": "lucia", "seed": 1, "players": 1, "turns": [3]}',
     "turns[0] must be an object with the play as text"),
])
def test_a_missing_file_text_that_is_not_json_or_another_game_is_a_one_line_error(
        content, message, tmp_path, capsys):
    path = tmp_path / "game.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert message in _fails(capsys, "lucia", "replay", str(path))


def test_arena_records_and_tournament_lines_replay(tmp_path, capsys):
    from solvers.arena import play_game, tournament

    record, final = play_game("lucia", ["greedy", "random"], players=2, seed=0)  # 26 actions
    path = tmp_path / "arena.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["lucia", "replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["over"] and data["won"] is (final.returns()[0] == 1.0)
    assert DealState.replay(path) == final
    out = tmp_path / "games.jsonl"
    tournament("lucia", ["greedy", "random"], players=2, games=1, seed=4, workers=1,
               progress=False, record=out)  # seed 4: short games, a record of each bot
    for line in out.read_text(encoding="utf-8").splitlines():
        assert main(["lucia", "replay", line]) == 0
        assert capsys.readouterr().out.splitlines()[-1].split()[0] in ("won", "lost")
    bad = {**record, "actions": [*record["actions"][:4], 99, *record["actions"][5:]]}
    err = _fails(capsys, "lucia", "replay", json.dumps(bad))
    assert "actions[4]: action 99 is not legal here" in err
    wrong = {**record, "returns": [1.0 - r for r in record["returns"]]}
    assert "field 'returns' must be" in _fails(capsys, "lucia", "replay", json.dumps(wrong))
    with pytest.raises(DataError, match="options"):
        DealState.replay({**record, "options": {"board": "A"}})


@pytest.mark.parametrize("key", ["options", "players", "seed"])
def test_an_arena_record_without_a_field_it_needs_names_the_field_missing(key, tmp_path,
                                                                          capsys):
    """An arena record of Lucia without ``options`` said ``field 'options' must be an object of
    deck and setup, got null``, as if it were written null (the replay filled in the null). The
    any-game replay (solvers.arena.replay_record) accepted it and played the default deck; it
    reads Lucia's records by the same rules now, with the same message."""
    from solvers.arena import replay_record

    record = {"game": "lucia", "players": 1, "seed": 0, "actions": [],
              "options": {"deck": "default", "setup": "default"}}
    DealState.replay(record)  # whole, it replays
    del record[key]
    path = tmp_path / "arena.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    message = f"Lucia game record: field '{key}' is missing"
    assert (_fails(capsys, "lucia", "replay", str(path))
            == f"lumicore: error: {str(path)!r}: {message}\n")  # the command names the file
    with pytest.raises(DataError, match=f"^{message}$"):
        DealState.replay(path)
    with pytest.raises(DataError, match=f"^{message}$"):
        replay_record(path)
    if key == "options":  # written null, they are refused as null
        with pytest.raises(DataError, match="field 'options' must be an object of deck and "
                                            "setup, got null"):
            DealState.replay({**record, "options": None})


def test_tournament_command_plays_the_arenas_games_and_its_out_lines_replay(tmp_path, capsys):
    """``lumicore lucia tournament`` was an invalid choice, while reef, lemuria and lumen had
    one (solvers.commands.add_tournament_command, which Lucia's commands now call too)."""
    from solvers.arena import tournament

    out = tmp_path / "games.jsonl"
    assert main(["lucia", "tournament", "--bots", "greedy,random", "--games", "2", "--seed", "4",
                 "--workers", "1", "--deck", "reconstructed", "--json", "--out", str(out)]) == 0
    result = json.loads(capsys.readouterr().out)
    options = {"deck": "reconstructed", "setup": "default"}
    assert (result["game"], result["players"], result["played"]) == ("lucia", 2, 4)  # 2 a bot
    assert result["options"] == options and sorted(result["bots"]) == ["greedy", "random"]
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    arena = tournament("lucia", ["greedy", "random"], players=2, games=2, seed=4, workers=1,
                       progress=False, **options)
    assert records == json.loads(json.dumps(arena.records))  # the arena's games, as JSON
    for record in records:
        assert record["options"] == options
        assert main(["lucia", "replay", "--json", json.dumps(record)]) == 0
        replayed = json.loads(capsys.readouterr().out)
        assert replayed["over"] and replayed["won"] is (record["returns"] == [1.0, 1.0])
    # the defaults of seed, players and deck (random alone: greedy's games of seed 0 take seconds)
    assert main(["lucia", "tournament", "--bots", "random", "--games", "2", "--workers", "1"]) == 0
    assert capsys.readouterr().out.startswith("lucia: 2 of 2 games (each bot on the same 2 "
                                              "deals), 2 players, seed 0 (done)\n"
                                              "options: deck default, setup default\n")


def test_a_tournament_plays_each_bot_at_a_table_of_its_own_on_the_same_deals(tmp_path):
    """Lucia is co-operative (every seat gets the same return), yet its tournament seated
    greedy and random at one table and ranked them by openskill ratings of those games, draws
    between the seats. Each bot now plays every seat of its own games, game i of every bot is
    the same deal, and no bot is rated."""
    from lumicore.game import is_cooperative
    from lumicore.lucia.deal import HAND_SIZE
    from solvers.arena import COOPERATIVE_NOTE, game_seed, replay_record, tournament

    assert is_cooperative(DealState.new_game(players=2))
    out = tmp_path / "games.jsonl"
    result = tournament("lucia", ["random", "greedy"], players=2, games=2, seed=4, workers=1,
                        progress=False, record=out)  # seed 4: short games
    by_bot = {name: [r for r in result.records if r["bots"] == [name, name]]
              for name in ("random", "greedy")}
    assert all(len(records) == 2 for records in by_bot.values())  # every record: one bot
    assert (result.games, result.played, result.deals) == (4, 4, 2)
    for i in range(2):
        random_game, greedy_game = by_bot["random"][i], by_bot["greedy"][i]
        assert random_game["seed"] == greedy_game["seed"] == game_seed(4, i)
        hands = 2 * HAND_SIZE  # the hands are the first chance outcomes: the same deal
        assert random_game["actions"][:hands] == greedy_game["actions"][:hands]
    for name, tally in result.bots.items():
        assert tally.rating == {} and tally.games == 2
        assert tally.wins == sum(r["returns"][0] for r in by_bot[name])
    assert result.to_dict()["note"] == COOPERATIVE_NOTE
    for line in out.read_text(encoding="utf-8").splitlines():
        assert main(["lucia", "replay", line]) == 0
        assert DealState.replay(line).returns() == replay_record(line).returns()


@pytest.mark.parametrize("argv, message", [
    (["--bots", "greedy,nobody"],
     "unknown bot 'nobody' (known: best, flatmc, greedy, mcts, random)"),
    (["--deck", "nowhere.toml"], "'nowhere.toml' is neither a built-in name"),
    (["--players", "5"], "players must be an integer from 1 to 4 for a tournament, got '5'"),
    (["--out", ""], "output '': an empty name"),
])
def test_tournament_command_bad_input_is_one_line_exit_2(argv, message, capsys):
    err = _fails(capsys, "lucia", "tournament", "--games", "1", "--workers", "1", *argv)
    assert message in err
