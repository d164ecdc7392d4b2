"""The ``lumicore`` command as a whole: help for every command, exit codes, ``python -m``."""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from solvers import cli
from solvers.commands import HelpFormatter, plain

ROOT = Path(__file__).resolve().parents[1]


def commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[
        tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every parser of the command tree with its argument path, the root first."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from commands(sub, (*path, name))


ALL = list(commands(cli.build_parser()))


def test_every_game_has_commands() -> None:
    names = {path for path, _ in ALL}
    assert {("lucia", "solve"), ("reef", "best"), ("lemuria", "plan")} <= names


@pytest.mark.parametrize("path", [p for p, _ in ALL], ids=" ".join)
def test_help_runs_and_every_option_shows_its_default(
        path: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main([*path, "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: lumicore")
    for marker in ("``", ":func:`", ":class:`", ":mod:`", ":meth:`", ":data:`", "%%"):
        assert marker not in out, f"doc markup {marker!r} in the help of {path}"
    parser = dict(ALL)[path]
    formatter = parser._get_formatter()
    assert isinstance(formatter, HelpFormatter)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) or (action.required
                                                              and not action.option_strings):
            continue
        entry = formatter._format_action(action)
        is_help = isinstance(action, argparse._HelpAction | argparse._VersionAction)  # flags: off
        assert is_help or "default" in entry.lower() or "(required)" in entry, (path, entry)


@pytest.mark.parametrize("game", cli.games())
def test_a_games_help_describes_it_in_whole_sentences(
        game: str, capsys: pytest.CaptureFixture[str]) -> None:
    # the description was the docstring's first line: Lumen's stopped at "rank the choices of a"
    with pytest.raises(SystemExit):
        cli.main([game, "--help"])
    out = capsys.readouterr().out
    text = " ".join(out.split("\n\n")[1].split())
    assert text.startswith(f"lumicore {game}: ") and text.endswith("."), text


def test_plain_strips_markup() -> None:
    assert plain("the :class:`~lumicore.lucia.Train` of ``S h L0``") == "the lumicore.lucia.Train" \
        " of S h L0"
    assert plain("**exact**, seeds 0..2**31-1 or 2**63") == "exact, seeds 0..2**31-1 or 2**63"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)


def test_python_m_lumicore_is_the_lumicore_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["lucia", "random", "--seed", "3"]) == 0
    direct = capsys.readouterr().out
    via = run("-m", "lumicore", "lucia", "random", "--seed", "3")
    assert via.returncode == 0, via.stderr
    assert via.stdout == direct and len(via.stdout.split()) == 16
    bad = run("-m", "lumicore", "lucia", "solve", "S h X L0")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1, bad.stderr
    assert bad.stderr.startswith("lumicore: error: bad token 'X'")


@pytest.mark.parametrize("argv", [[], ["lucia"], ["lucia", "solve", "--max-nodes", "x"],
                                  ["nogame"], ["lucia", "solve", "--nope"]])
def test_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(argv)
    assert info.value.code == 2
    assert "usage: lumicore" in capsys.readouterr().err


def test_an_os_error_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    def unwritable(args: argparse.Namespace) -> int:
        raise PermissionError(errno.EACCES, "Permission denied", "/root/" + "x" * 300)

    import solvers.commands.lucia as lucia_commands

    monkeypatch.setattr(lucia_commands, "run_random", unwritable)
    assert cli.main(["lucia", "random"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("lumicore: error: ") and err.count("\n") == 1
    assert "Permission denied" in err and len(err) < 200


def test_writing_into_a_missing_folder_exits_2(tmp_path: Path) -> None:
    out = tmp_path / "missing" / "reef.svg"
    done = run("-m", "lumicore", "reef", "show", "--svg", str(out))
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("lumicore: error: ") and done.stderr.count("\n") == 1


FULL = "/dev/full"
"""Writes there fail with ENOSPC (no space left on device), as on a full disk."""


@pytest.mark.skipif(not Path(FULL).exists(), reason="no /dev/full on this platform")
@pytest.mark.parametrize("argv", [
    ["reef", "play", "--bots", "random", "--players", "2", "--record", FULL],
    ["reef", "tournament", "--bots", "random,greedy", "--games", "1", "--workers", "1",
     "--out", FULL],
    ["reef", "best", "--hand", "pink 3 crab", "--limestone", "0", "--save", FULL],
    ["reef", "show", "--svg", FULL],
    ["lumen", "play", "--bots", "random", "--record", FULL],
    ["lemuria", "play", "--players", "2", "--bots", "random", "--record", FULL],
    ["lucia", "solve", "S h T h L0", "--svg", FULL],
], ids=lambda argv: " ".join(argv[:2]))
def test_a_write_that_fails_partway_is_a_one_line_error_naming_the_file(
        argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A full disk: before, the error was 'No space left on device', naming no file (only
    ``reef show --svg`` named it, with its own try/except)."""
    monkeypatch.setenv("LUMICORE_CACHE", str(tmp_path))
    assert cli.main(argv) == 2
    lines = capsys.readouterr().err.splitlines()  # lucia solve first notes a database build
    assert lines[-1] == f"lumicore: error: cannot write '{FULL}': No space left on device"
    assert sum("error" in line for line in lines) == 1


@pytest.mark.skipif(not Path(FULL).exists(), reason="no /dev/full on this platform")
def test_a_full_disk_behind_standard_output_is_named(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """``lumicore ... > file`` on a full disk: before, 'No space left on device', naming
    nothing."""
    full = open(FULL, "w")  # noqa: SIM115 - closing it flushes again, and fails
    monkeypatch.setattr(sys, "stdout", full)
    try:
        assert cli.main(["lucia", "random", "--seed", "3"]) == 2
    finally:
        monkeypatch.undo()
        with contextlib.suppress(OSError):
            full.close()
    assert capsys.readouterr().err == ("lumicore: error: cannot write standard output: No "
                                       "space left on device\n")


def test_a_cache_that_cannot_be_written_is_a_one_line_warning_and_the_answer_comes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Before: the Lucia pattern database's cache failed silently."""
    from lumicore.lucia import pdb

    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("LUMICORE_CACHE", str(blocker / "cache"))
    monkeypatch.setattr(pdb, "_LOADED", {})
    assert cli.main(["lucia", "solve", "S h T h L0"]) == 0
    out, err = capsys.readouterr()
    assert "status: optimal  cost: 6" in out
    warned = [line for line in err.splitlines() if line.startswith("lumicore: warning: ")]
    assert len(warned) == 1 and len(err.splitlines()) == 2   # and the note of the build
    assert warned[0].startswith("lumicore: warning: cannot write '")
    assert warned[0].endswith(": Not a directory; the pattern database is not cached (built "
                              "again next time)")


@pytest.mark.skipif(not Path(FULL).exists(), reason="no /dev/full on this platform")
@pytest.mark.parametrize("buffered", [True, False])
def test_a_full_disk_behind_the_shells_redirection_is_one_line_and_exit_2(buffered: bool) -> None:
    """``lumicore ... > file`` on a full disk, in a real process: buffered (the usual case),
    Python flushed standard output again at exit, failed again, printed ``Exception ignored
    ... OSError`` and exited with 120; unbuffered, the error named nothing (the reason alone)."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    env["PYTHONPATH"] = str(ROOT)
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"
    with open(FULL, "wb") as full:
        done = subprocess.run([sys.executable, "-m", "lumicore", "lucia", "random", "--seed",
                               "3"], cwd=ROOT, env=env, stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=120)
    reason = "No space left on device\n"
    assert done.returncode == 2, done.stderr
    assert done.stderr == "lumicore: error: cannot write standard output: " + reason


def test_a_closed_output_pipe_exits_quietly() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "lumicore", "lucia", "random", "--seed", "3"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before the first line: `lumicore ... | head -0`
    with proc.stderr:
        err = proc.stderr.read()
    assert proc.wait(timeout=120) == 141, err
    assert err == b""


@pytest.mark.parametrize("argv", [
    ["reef", "show", "--svg", ""], ["reef", "show", ""],
    ["reef", "best", "--hand", "blue 5", "--limestone", "2", "--save", ""],
    ["reef", "play", "--record", ""], ["reef", "tournament", "--out", ""],
    ["lucia", "solve", "--svg", ""], ["lucia", "winrate", "--out", ""],
    ["lucia", "play", "--seed", "1", "--record", ""],
    ["lemuria", "plan", "--svg", ""], ["lemuria", "play", "--record", ""],
    ["lemuria", "plan", "", "--time-limit", "1"],  # planned the default instance
    ["lemuria", "tournament", "--out", ""],
    ["lumen", "play", "--record", ""], ["lumen", "tournament", "--out", ""],
], ids=" ".join)
def test_an_empty_file_name_is_an_error_not_ignored(argv: list[str],
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("lumicore: error: ") and err.count("\n") == 1 and "''" in err, err


def test_ctrl_c_while_the_commands_load_is_an_interruption(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def pressed() -> list[str]:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "games", pressed)
    assert cli.main(["lucia", "random"]) == 130
    assert capsys.readouterr().err == "lumicore: interrupted\n"
    # the console script imports solvers.cli before main runs: it must stay light
    done = run("-c", "import sys, solvers.cli; print(sorted(m for m in sys.modules "
                     "if m.startswith('solvers.')))")
    assert done.returncode == 0 and "solvers.commands" not in done.stdout, done.stdout


def _press_while_loading(monkeypatch: pytest.MonkeyPatch, then: str) -> None:
    """Ctrl-C while the commands' modules load, and the ``KeyboardInterrupt`` lost on the way:
    ``then`` is "import-error" (a compiled module's initialisation turns it into
    ``ImportError: initialization failed``, as CP-SAT's does) or "swallowed" (a library's
    ``except ImportError`` fallback takes that error; the commands load all the same)."""
    build = cli.build_parser

    def loading() -> argparse.ArgumentParser:
        try:
            signal.raise_signal(signal.SIGINT)
            time.sleep(0.01)  # the handler runs here at the latest
        except KeyboardInterrupt:
            if then == "import-error":
                raise ImportError("initialization failed") from None
        return build()

    monkeypatch.setattr(cli, "build_parser", loading)


@pytest.mark.parametrize("then", ["import-error", "swallowed"])
def test_ctrl_c_lost_while_the_commands_load_is_an_interruption(
        then: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Before: 'reef play' interrupted in its first second or two ended in an ImportError
    traceback (exit 1), or ran on as if Ctrl-C had not been pressed (a whole tournament,
    exit 0)."""
    _press_while_loading(monkeypatch, then)
    assert cli.main(["reef", "show"]) == 130
    out, err = capsys.readouterr()
    assert out == "" and err == "lumicore: interrupted\n"


@pytest.mark.parametrize("players", ["-1", "0", "100000000", str(10**30)])
def test_a_bad_player_count_for_one_bot_is_a_one_line_error(
        players: str, capsys: pytest.CaptureFixture[str]) -> None:
    # one bot name fills every seat: the count is checked before the name is copied (10**30
    # raised OverflowError, 10**8 built a list of 10**8 names)
    assert cli.main(["reef", "play", "--bots", "random", "--players", players]) == 2
    err = capsys.readouterr().err
    assert err == (f"lumicore: error: players must be an integer from 1 to 8 for the arena, got "
                   f"'{players}'\n")


@pytest.mark.parametrize("argv", [["lucia", "winrate", "--deals", "9" * 5000],
                                  ["reef", "tournament", "--backend", "x" * 3000]])
def test_a_usage_error_quotes_a_long_value_shortened(argv: list[str],
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """argparse quoted the whole value: a line of 5,000 characters for a 5,000-digit number."""
    with pytest.raises(SystemExit) as exited:
        cli.main(argv)
    assert exited.value.code == 2
    last = capsys.readouterr().err.splitlines()[-1]
    problem = "has too many digits" if argv[2] == "--deals" else "invalid choice"
    assert last.startswith(f"lumicore {argv[0]} {argv[1]}: error: argument {argv[2]}: {problem}")
    assert f"'{argv[3][:80]}...'" in last and len(last) < 250


NUMBER_TYPES = (int, float)
"""Python's own number types: they read any script's digits ('٣' is 3) and underscores."""


def test_no_option_reads_numbers_with_python_s_own_types() -> None:
    """Every whole-number option was ``type=int``: ``--seed ٣`` was seed 3 (issue 11: ASCII
    digits only, as --hand and the notations take them)."""
    found = [(path, action.dest) for path, parser in ALL for action in parser._actions
             if action.type in NUMBER_TYPES]
    assert found == []


@pytest.mark.parametrize("argv", [
    ["lucia", "random", "--seed", "\u0663"],
    ["lucia", "random", "--seed", "1_000"],
    ["lucia", "winrate", "--deals", "\uff13"],
    ["lucia", "solve", "--max-nodes", "\u0661\u0660\u0660"],
    ["lucia", "solve", "--time-limit", "\u0662"],
    ["lucia", "solve", "--max-memory", "\u0662G"],
    ["reef", "best", "--hand", "pink 3", "--limestone", "\u0663"],
    ["reef", "tournament", "--workers", "1", "--games", "\u0662"],
    ["reef", "best-turn", "{}", "--top", "\u0663"],
    ["lemuria", "plan", "--deal", "\u0663"],
    ["lemuria", "play", "--players", "\u0663"],
    ["lumen", "best", "state.json", "--top", "\u0661"],
    ["lumen", "odds", "state.json", "--samples", "\u0661\u0660"],
])
def test_numbers_take_ascii_digits_only(argv: list[str],
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """``lucia random --seed ٣`` dealt seed 3's train, ``reef tournament --games ٢`` played 2
    games: int() and float() read any script's digits."""
    with pytest.raises(SystemExit) as exited:
        cli.main(argv)
    assert exited.value.code == 2
    last = capsys.readouterr().err.splitlines()[-1]
    option, value = argv[-2], argv[-1]
    assert last.startswith(f"lumicore {argv[0]} {argv[1]}: error: argument {option}: ")
    assert "ASCII digits" in last or "not a size" in last
    assert last.endswith(f"'{value}'")


def test_an_unknown_long_argument_is_named_shortened(capsys: pytest.CaptureFixture[str]) -> None:
    """argparse names unknown arguments unquoted: the 200 characters were printed whole."""
    with pytest.raises(SystemExit) as exited:
        cli.main(["lucia", "solve", "L0 h", "--" + "y" * 200])
    assert exited.value.code == 2
    last = capsys.readouterr().err.splitlines()[-1]
    assert last.startswith("lumicore: error: unrecognized arguments: '--yyy") and len(last) < 140


@pytest.mark.parametrize("game", ["lucia", "reef", "lemuria", "lumen"])
def test_tournament_help_says_how_the_game_s_tournament_runs(
        game: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Lucia's help promised rotated seats and openskill ratings, which a co-operative game's
    tournament never gives (a table of its own for each bot, --games games each)."""
    from lumicore.game import is_cooperative, new_game

    with pytest.raises(SystemExit):
        cli.main([game, "tournament", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    cooperative = is_cooperative(new_game(game))
    assert ("a table of its own" in text) == cooperative
    assert ("openskill rating" in text) == (not cooperative)


@pytest.mark.parametrize("exists", [False, True])
def test_an_output_this_user_may_not_write_is_refused_before_any_work(
        exists: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A read-only folder or file passed the check, so the game was played and then not saved.
    (Permissions are faked: the tests may run as root, who may write anything.)"""
    out = tmp_path / "game.json"
    if exists:
        out.write_text("")
    denied = out if exists else tmp_path
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: Path(p) != denied and real(p, mode))
    assert cli.main(["reef", "play", "--bots", "random,random", "--record", str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"lumicore: error: output '{out}': permission denied (")


def _with_option(option: str) -> list[tuple[str, ...]]:
    return [path for path, parser in ALL
            if any(option in action.option_strings for action in parser._actions)]


@pytest.mark.parametrize("option", ["--time-limit", "--max-nodes"])
def test_every_command_with_a_limit_refuses_a_bad_one_naming_the_option(
        option: str, capsys: pytest.CaptureFixture[str]) -> None:
    paths = _with_option(option)
    assert len(paths) >= (9 if option == "--time-limit" else 5)
    values = ["0", "-1", "x", "nan"] + (["inf", "1e309", "-0"] if option == "--time-limit"
                                         else ["1e3", "2.5"])
    for path in paths:
        for value in values:
            with pytest.raises(SystemExit) as info:
                cli.main([*path, option, value])
            assert info.value.code == 2, (path, value)
            err = capsys.readouterr().err
            assert f"argument {option}: must be " in err and repr(value) in err, (path, err)
            assert err.startswith("usage: ")


# An arena record whose seed is bad: every game's replay reads one, and refuses this one.
BAD_SEED = '{{"game": "{game}", "players": 2, "seed": "q", "options": {{}}, "actions": []}}'


@pytest.mark.parametrize("argv", [["lucia", "replay"], ["reef", "replay"],
                                  ["reef", "best-turn"], ["lemuria", "replay"],
                                  ["lumen", "replay"], ["lumen", "best"], ["lumen", "odds"]],
                         ids=" ".join)
def test_an_error_in_a_record_names_its_file(argv: list[str], tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    text = BAD_SEED.format(game=argv[0])
    path = tmp_path / "rec.json"
    path.write_text(text)
    assert cli.main([*argv, str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"lumicore: error: {str(path)!r}: ") and "'seed'" in err, err
    assert err.count(str(path)) == 1
    assert cli.main([*argv, text]) == 2  # JSON text given in place of a file has no name
    err = capsys.readouterr().err
    assert err.startswith("lumicore: error: ") and "'seed'" in err and "rec.json" not in err


def test_an_error_in_a_deal_file_names_it(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deal.json"
    path.write_text('{"players": "two"}')
    assert cli.main(["lucia", "deal", "--file", str(path)]) == 2
    assert capsys.readouterr().err.startswith(f"lumicore: error: {str(path)!r}: ")


@pytest.mark.parametrize("command", [
    ["lucia", "tournament", "--games", "1", "--deck", "{file}", "--out", "{file}"],
    ["lucia", "solve", "h T L4", "--deck", "{file}", "--svg", "{file}"],
    ["lucia", "play", "--seed", "1", "--policy", "greedy", "--deck", "{file}",
     "--record", "{file}"],
])
def test_an_output_that_is_an_input_is_refused_before_it_is_written(command, tmp_path,
                                                                   monkeypatch, capsys):
    """--out deck.toml beside --deck deck.toml emptied the deck (then called it invalid);
    --svg and --record replaced it silently."""
    from lumicore.data import data_dir

    monkeypatch.chdir(tmp_path)
    deck = tmp_path / "deck.toml"
    text = (data_dir() / "lucia_deck.toml").read_text()
    deck.write_text(text)
    assert cli.main([part.replace("{file}", "deck.toml") for part in command]) == 2
    err = capsys.readouterr().err
    assert err.startswith("lumicore: error: --") and "is also an input (deck)" in err
    assert err.count("\n") == 1 and deck.read_text() == text


@pytest.mark.skipif(sys.platform == "win32", reason="preexec_fn is POSIX only")
def test_a_closed_standard_output_is_a_one_line_error():
    """sys.stdout is None under `>&-`: the flush after the command was an AttributeError."""
    result = subprocess.run([sys.executable, "-m", "lumicore", "lucia", "random", "--seed", "1"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT, close_fds=True, preexec_fn=lambda: os.close(1))
    assert result.returncode == 2
    assert result.stderr == "lumicore: error: standard output is closed: nothing could be printed\n"


def test_a_failed_output_write_leaves_the_old_file(tmp_path, monkeypatch, capsys):
    """The outputs were written in place: a write that failed half way left half a file."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plan.svg").write_text("the old plan")

    def full(*args):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", full)  # the last step of a whole-file write
    assert cli.main(["lucia", "solve", "h T L4", "--svg", "plan.svg"]) == 2
    assert "No space left on device" in capsys.readouterr().err
    assert (tmp_path / "plan.svg").read_text() == "the old plan"
    assert [p.name for p in tmp_path.iterdir()] == ["plan.svg"]


@pytest.mark.parametrize("command, content", [
    (["lemuria", "plan", "{file}", "--time-limit", "1"], "turns = true\n"),
    (["reef", "show", "--board", "{file}"], "S S\nL\n"),
])
def test_a_file_name_with_a_newline_stays_on_the_error_line(command, content, tmp_path,
                                                           monkeypatch, capsys):
    """The Lemuria instance and reef board loaders put the name in the message as it was:
    a newline in it split the error over two lines (an escape reached the terminal)."""
    monkeypatch.chdir(tmp_path)
    name = "odd\nname.txt"
    (tmp_path / name).write_text(content)
    assert cli.main([part.replace("{file}", name) for part in command]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'odd\\nname.txt'" in err


def test_lucia_play_checks_its_samples_before_it_shows_the_start(capsys):
    assert cli.main(["lucia", "play", "--seed", "1", "--policy", "greedy", "--samples", "0"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "samples must be a positive integer" in err


def test_output_in_an_encoding_without_the_arrow_escapes_it():
    """Windows gives output redirected to a file its ANSI code page: the → of plan lines was a
    UnicodeEncodeError traceback (exit 1) there."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONIOENCODING="cp1252")
    done = subprocess.run([sys.executable, "-m", "lumicore", "lucia", "solve", "S h T h L0"],
                          cwd=ROOT, env=env, capture_output=True)  # 6 plan lines in 0.02 s
    assert done.returncode == 0, done.stderr.decode("cp1252")
    out = done.stdout.decode("cp1252")
    assert "\\u2192" in out and "status: optimal" in out


def run_without_stderr(*args: str, env: dict[str, str] | None = None
                       ) -> subprocess.CompletedProcess[str]:
    """``lumicore ARGS 2>&-``: the child starts with descriptor 2 closed (Python then sets
    ``sys.stderr`` to None); ``stderr=DEVNULL`` alone would leave it open."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run([sys.executable, "-m", "lumicore", *args], cwd=ROOT, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                          close_fds=True, preexec_fn=lambda: os.close(2), timeout=120)


CLOSED_STDERR = [
    ("reef", "best", "--hand", "pink 3 crab, blue 5", "--limestone", "4"),
    ("reef", "tournament", "--bots", "random,greedy", "--games", "4", "--workers", "2"),
    ("lucia", "solve", "S h T h L0", "--heuristic", "covering"),
    ("lucia", "random", "--seed", "3"),
]


@pytest.mark.skipif(sys.platform == "win32", reason="preexec_fn is POSIX only")
@pytest.mark.parametrize("argv", CLOSED_STDERR, ids=" ".join)
def test_a_closed_standard_error_still_gives_the_answer(argv: tuple[str, ...]) -> None:
    """``lumicore ... 2>&-`` exited 1 with nothing printed: the progress line asked the missing
    standard error whether it was a terminal (AttributeError on None)."""
    done = run_without_stderr(*argv)
    assert done.returncode == 0
    assert untimed(done.stdout) == untimed(run("-m", "lumicore", *argv).stdout) != ""


def untimed(text: str) -> str:
    """``text`` with the times it reports (``0.01 s``, ``0.3 ms``) taken out."""
    return re.sub(r"\b\d+\.\d+ m?s\b", "<time>", text)


@pytest.mark.skipif(sys.platform == "win32", reason="preexec_fn is POSIX only")
def test_a_closed_standard_error_drops_notes_and_warnings_not_onto_standard_output(
        tmp_path: Path) -> None:
    """The note of a pattern database build and the warning of a cache that cannot be written
    went to standard output (``print(file=None)`` writes there) among the plan."""
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    done = run_without_stderr("lucia", "solve", "S h T h L0",
                              env={"LUMICORE_CACHE": str(blocker / "cache")})
    assert done.returncode == 0
    assert done.stdout.startswith("start: S h T h L0\n")
    assert "status: optimal  cost: 6" in done.stdout
    assert "pattern database" not in done.stdout and "lumicore:" not in done.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="preexec_fn is POSIX only")
def test_a_closed_standard_error_keeps_the_exit_status_of_a_usage_error() -> None:
    done = run_without_stderr("lucia", "solve", "--max-nodes", "x")
    assert done.returncode == 2
    assert done.stdout == ""  # argparse's print_usage fell back to standard output


def test_a_missing_standard_error_shows_no_progress_line_and_prints_the_answer(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``sys.stderr`` is None under ``pythonw`` too; a progress line asked for (``enabled=True``)
    is not shown, and an error line goes nowhere (not to standard output)."""
    from solvers.progress import progress

    monkeypatch.setattr(sys, "stderr", None)
    with progress(total=2, enabled=True) as bar:
        bar.update(2)
    assert bar.disable
    assert cli.main(["reef", "best", "--hand", "pink 3 crab, blue 5", "--limestone", "4"]) == 0
    assert cli.main(["lucia", "solve", "S h X L0"]) == 2
    out = capsys.readouterr().out
    assert out.startswith("best placement for final:dark: value 3.5 (optimal)")
    assert "lumicore: error" not in out and "bad token" not in out


@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["lucia", "solve", "--help"]],
                         ids=" ".join)
def test_help_and_version_into_a_closed_pipe_exit_141(argv: list[str]) -> None:
    """argparse dropped the failed write of help and version, and the command exited 0."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "lumicore", *argv], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before the first line
    with proc.stderr:
        err = proc.stderr.read()
    assert proc.wait(timeout=120) == 141, err
    assert err == b""


def test_help_and_version_still_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.startswith("lumicore ")


@pytest.mark.skipif(not hasattr(os, "statvfs"), reason="no statvfs (Windows)")
@pytest.mark.parametrize("exists", [False, True])
def test_an_output_on_a_read_only_file_system_says_so(
        exists: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """EROFS was reported as "permission denied (folder '.' is not writable by this user)".
    (The mount is faked: ``os.access`` refuses and ``os.statvfs`` reports ST_RDONLY.)"""
    out = tmp_path / "game.json"
    if exists:
        out.write_text("")
    denied = out if exists else tmp_path
    real_access, real_statvfs = os.access, os.statvfs

    class ReadOnly:
        f_flag = os.ST_RDONLY

    monkeypatch.setattr(os, "access", lambda p, mode: Path(p) != denied and real_access(p, mode))
    monkeypatch.setattr(os, "statvfs", lambda p: ReadOnly() if Path(p) == denied
                        else real_statvfs(p))
    assert cli.main(["reef", "play", "--bots", "random,random", "--record", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"lumicore: error: output '{out}': read-only file system"), err
    assert "permission" not in err and err.count("\n") == 1


def test_a_write_refused_by_a_read_only_file_system_names_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The write itself (past the check, as when the mount changes under the run) names the
    file and the reason EROFS gives."""
    from lumicore.data import write_file
    from lumicore.errors import OutputError

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr("builtins.open", refuse)
    with pytest.raises(OutputError, match=r"^cannot write '.*out\.svg': Read-only file system$"):
        write_file(tmp_path / "out.svg", "<svg/>")


@pytest.mark.parametrize("argv", [
    ["reef", "play", "--bots", "random,random", "--record"],
    ["lucia", "solve", "S h T h L0", "--svg"],
    ["reef", "best", "--hand", "pink 3 crab", "--limestone", "0", "--save"],
], ids=lambda argv: " ".join(argv[:2]))
def test_a_file_replaced_whole_needs_its_folder_writable_before_any_work(
        argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A writable file in a folder this user may not write passed the check, but the atomic
    write makes a new file in that folder: the game was played (43 s) and then not saved.
    (Permissions are faked: the tests may run as root, who may write anything.)"""
    out = tmp_path / "out.json"
    out.write_text("old\n")
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: Path(p) != tmp_path and real(p, mode))
    import solvers.arena as arena
    import solvers.commands.lucia as lucia_commands
    import solvers.commands.reef as reef_commands

    def no_work(*args: object, **kwargs: object) -> None:
        raise AssertionError("the work started")

    monkeypatch.setattr(arena, "play_game", no_work)
    monkeypatch.setattr(lucia_commands, "solve", no_work, raising=False)
    monkeypatch.setattr(reef_commands, "_reef", no_work)
    assert cli.main([*argv, str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"lumicore: error: output '{out}': permission denied (folder "), err
    assert "replaced through a new one there" in err and err.count("\n") == 1
    assert out.read_text() == "old\n"


def test_an_out_file_written_in_place_needs_no_writable_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """--out appends or rewrites the file itself: a folder this user may not write is no
    reason to refuse a file this user may write."""
    out = tmp_path / "games.jsonl"
    out.write_text("")
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: Path(p) != tmp_path and real(p, mode))
    assert cli.main(["reef", "tournament", "--bots", "random,greedy", "--games", "2",
                     "--workers", "1", "--json", "--out", str(out)]) == 0
    assert len(out.read_text().splitlines()) == 2


def test_an_output_under_a_file_says_the_folder_is_a_file(tmp_path: Path) -> None:
    """--out a.jsonl/x with a.jsonl a file said "folder 'a.jsonl' does not exist"."""
    (tmp_path / "a.jsonl").write_text("")
    done = subprocess.run([sys.executable, "-m", "lumicore", "reef", "show", "--svg",
                           "a.jsonl/x.svg"], cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ("lumicore: error: output 'a.jsonl/x.svg': 'a.jsonl' is a file, not "
                           "a folder\n")
