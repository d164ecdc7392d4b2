"""``lumicore lemuria play``: a whole game from the CLI, its record, bad input."""

from __future__ import annotations

import json

from lumicore.lemuria import Game
from solvers.cli import main


def test_play_prints_turns_vp_and_winner_and_writes_a_replayable_record(tmp_path, capsys):
    path = tmp_path / "game.json"
    assert main(["lemuria", "play", "--players", "3", "--bots", "greedy,random,greedy",
                 "--seed", "1", "--record", str(path)]) == 0
    out = capsys.readouterr().out
    for turn in range(1, 13):
        assert f"\nturn {turn}: order " in out
    assert "altar r0 | 1:" in out and "winner: player " in out
    record = json.loads(path.read_text(encoding="utf-8"))
    game = Game.replay(path)
    assert game.is_terminal() and game.vp() == record["vp"]
    assert f"winner: player {record['winner'] + 1} " in out
    assert f"final VP: player 1 (greedy) {record['vp'][0]}," in out


def test_play_json_is_the_record(capsys):
    assert main(["lemuria", "play", "--players", "2", "--bots", "random", "--seed", "4",
                 "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["bots"] == ["random", "random"]
    assert Game.replay(record).winner() == record["winner"]


def test_play_bad_input_is_one_line_exit_2(tmp_path, capsys):
    for argv, message in [
        (["--players", "5"], "2 to 4 players, got 5"),
        (["--players", "3", "--bots", "greedy,random"], "2 bots for 3 players"),
        (["--bots", "nobody"], "unknown bot 'nobody'"),
        (["--seed", "-1", "--bots", "random"], "seed"),
        (["--bots", "random", "--record", str(tmp_path / "no" / "x.json")], "does not exist"),
    ]:
        assert main(["lemuria", "play", *argv]) == 2
        err = capsys.readouterr().err.strip()
        assert message in err and "\n" not in err
