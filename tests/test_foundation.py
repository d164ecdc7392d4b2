"""Packaging, errors, limits and the CLI skeleton shared by every game."""

import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

import lumicore
from lumicore.data import OutputFile, read_toml, resolve, write_file
from lumicore.errors import DataError, LumicoreError, NotationError, OutputError, SearchLimitError
from solvers.cli import games, main
from solvers.limits import Budget, check_limits


def test_errors_are_value_errors():
    for cls in (NotationError, DataError, SearchLimitError, OutputError):
        assert issubclass(cls, LumicoreError)
        assert issubclass(cls, ValueError)


def test_version_exported():
    assert lumicore.__version__.count(".") == 2


@pytest.mark.parametrize("max_nodes,time_limit", [(0, None), (-3, None), (1.5, None), (True, None),
                                                  (None, 0), (None, -1.0), (None, float("inf")),
                                                  (None, float("nan")), (None, True)])
def test_bad_limits_rejected(max_nodes, time_limit):
    with pytest.raises(SearchLimitError):
        check_limits(max_nodes, time_limit)


@pytest.mark.parametrize("max_nodes, time_limit", [
    ("abc", None), ([1], None), (float("nan"), None), (float("inf"), None), (1 + 0j, None),
    (None, "1"), (None, [1]), (None, 1 + 2j), (None, 10**400), (None, float("nan")),
])
def test_limits_of_a_wrong_type_are_search_limit_errors(max_nodes, time_limit):
    with pytest.raises(SearchLimitError):
        check_limits(max_nodes, time_limit)


def test_whole_and_huge_limits_still_pass():
    check_limits(10**400, None)
    check_limits(2.0, 0.5)
    check_limits(5, 3)


def test_budget_counts_nodes():
    budget = Budget(max_nodes=10, time_limit=None)
    assert all(budget.spend() for _ in range(10))
    assert not budget.spend()
    assert budget.exhausted and budget.nodes == 10  # the node refused is not counted


def test_budget_time_limit_stops():
    budget = Budget(max_nodes=None, time_limit=1e-9, check_every=1)
    spent = [budget.spend() for _ in range(1000)]
    assert spent[-1] is False and budget.exhausted


def test_resolve_unknown_name_names_it(tmp_path):
    with pytest.raises(DataError, match="nope"):
        resolve("nope", {"default": "x.toml"})
    bad = tmp_path / "bad.toml"
    bad.write_text("this is = = not toml")
    with pytest.raises(DataError, match="bad.toml"):
        read_toml(bad, {})


def test_cli_lists_games_and_version(capsys):
    assert "lucia" in games()
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert lumicore.__version__ in capsys.readouterr().out


def test_console_script_installed():
    out = subprocess.run([sys.executable, "-m", "solvers.cli", "--help"], capture_output=True,
                         text=True, check=True).stdout
    for game in games():
        assert game in out


def test_a_missing_user_file_is_named_without_an_empty_list_of_built_ins(tmp_path):
    from lumicore.data import read_file
    from lumicore.errors import DataError

    with pytest.raises(DataError, match=r"'.*nope\.json' is not a file$"):
        read_file(tmp_path / "nope.json")


def _append(path: Path, text: str) -> None:
    with OutputFile(path, "a") as out:
        out.write(text)


FULL = Path("/dev/full")
"""Writes there fail with ENOSPC (no space left on device), as on a full disk."""
needs_full = pytest.mark.skipif(not FULL.exists(), reason="no /dev/full on this platform")


@needs_full
@pytest.mark.parametrize("write", [
    lambda path: write_file(path, "some text"),
    lambda path: write_file(path, b"some bytes"),
    lambda path: _append(path, "one line\n"),
])
def test_a_write_that_fails_partway_names_the_file(write):
    with pytest.raises(OutputError, match=r"^cannot write '/dev/full': No space left on device$"):
        write(FULL)


def test_a_folder_in_place_of_the_file_is_named(tmp_path):
    with pytest.raises(OutputError) as info:
        write_file(tmp_path, "text")
    message = str(info.value)         # the path, cut to 80 characters by shorten
    assert message.startswith(f"cannot write '{str(tmp_path)[:40]}")
    assert message.endswith("': Is a directory")
    with pytest.raises(OutputError, match="cannot write .*missing.*: No such file"):
        write_file(tmp_path / "missing" / "file.json", "text", atomic=True)
    with pytest.raises(LumicoreError, match="file name"):
        write_file("", "text")


def test_an_atomic_write_leaves_no_temporary_file(tmp_path):
    path = tmp_path / "cache.bin"
    write_file(path, b"old")
    write_file(path, b"new", atomic=True)
    assert path.read_bytes() == b"new" and [p.name for p in tmp_path.iterdir()] == ["cache.bin"]
    with OutputFile(tmp_path / "lines.jsonl") as out:
        out.write("1\n")
        out.write("2\n")
    out.close()                       # closing twice does nothing
    assert (tmp_path / "lines.jsonl").read_text() == "1\n2\n"


@pytest.mark.skipif(os.name != "posix", reason="process ids are told alive by os.kill(pid, 0)")
def test_an_atomic_write_removes_the_temporary_files_a_killed_writer_left(tmp_path):
    """A kill -9 during an atomic write (the 57 MB database cache) left ``<name>...tmp`` beside
    it for good. Now a later write of the same file removes those of a process that is gone
    (untouched for a minute) or untouched for a day, and leaves a live writer's alone."""
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    dead, alive = int(gone.stdout), os.getpid()
    path = tmp_path / "cache.bin"
    names = {"stale": f"cache.bin.{dead}.0badf00d.tmp",
             "fresh": f"cache.bin.{dead}.00c0ffee.tmp",
             "live": f"cache.bin.{alive}.0000beef.tmp",
             "ancient": f"cache.bin.{alive}.ba5eba11.tmp",
             "other": f"other.bin.{dead}.0badf00d.tmp"}
    hour, week = 3600, 7 * 86400
    ages = {"stale": hour, "fresh": 0, "live": hour, "ancient": week, "other": hour}
    for key, name in names.items():
        (tmp_path / name).write_bytes(b"half a file")
        then = time.time() - ages[key]
        os.utime(tmp_path / name, (then, then))
    write_file(path, b"new", atomic=True)
    assert path.read_bytes() == b"new"
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted(["cache.bin", names["fresh"], names["live"], names["other"]])


def test_a_locked_output_file_is_refused_at_once_and_left_as_it_was(tmp_path):
    """Two writers of one file each kept their own offset: the second emptied the file and the
    first then wrote past its end, leaving NUL bytes (two tournaments on one --out)."""
    path = tmp_path / "games.jsonl"
    with OutputFile(path, "w", lock=True) as first:
        first.write('{"run": "A"}\n')
        for mode in ("w", "a"):
            with pytest.raises(OutputError, match=r"^cannot write '.*games\.jsonl': another "
                                                   r"run is writing it$"):
                OutputFile(path, mode, lock=True)
        first.write('{"run": "A"}\n')
    assert path.read_bytes() == b'{"run": "A"}\n' * 2
    with OutputFile(path, "w", lock=True) as again:     # closed: the lock is free again
        again.write("1\n")
    assert path.read_text() == "1\n"
    with OutputFile(os.devnull, "w", lock=True), OutputFile(os.devnull, "w", lock=True):
        pass                                             # a device is shared, not locked


@pytest.mark.skipif(os.name != "posix", reason="file modes and the umask are POSIX")
@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_an_atomic_write_gives_the_mode_a_plain_write_gives(tmp_path, umask):
    """The temporary file of an atomic write came from tempfile.mkstemp: every SVG, record and
    cache was 0600, and an existing 0644 file turned 0600 when it was written again."""
    old = os.umask(umask)
    try:
        write_file(tmp_path / "plain.svg", "<svg/>")
        write_file(tmp_path / "new.svg", "<svg/>", atomic=True)
        shared = tmp_path / "shared.json"
        write_file(shared, "{}")
        os.chmod(shared, 0o664)
        write_file(shared, "[]", atomic=True)
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.svg").stat().st_mode) == 0o666 & ~umask
    assert (stat.S_IMODE((tmp_path / "new.svg").stat().st_mode)
            == stat.S_IMODE((tmp_path / "plain.svg").stat().st_mode))
    assert stat.S_IMODE(shared.stat().st_mode) == 0o664 and shared.read_text() == "[]"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.svg", "plain.svg", "shared.json"]



def test_the_source_archive_takes_every_cython_source():
    """MANIFEST.in took ext/*.pyx and *.pxd, not lucia_deal.pxi, which lucia.pyx includes: an
    install from the source archive failed ("'lucia_deal.pxi' not found")."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    patterns = [word for line in (root / "MANIFEST.in").read_text().splitlines()
                if line.startswith("include ") for word in line.split()[1:]]
    taken = {path for pattern in patterns for path in root.glob(pattern)}
    sources = {p for p in (root / "ext").iterdir() if p.suffix in (".pyx", ".pxd", ".pxi")}
    assert sources and sources <= taken


def test_the_license_file_is_declared_and_shipped():
    """pyproject.toml said MIT in the deprecated table form and the repository had no license
    text: the package now names LICENSE in SPDX form (setuptools 77 reads it) and the source
    archive takes it."""
    from lumicore.data import tomllib

    root = Path(__file__).resolve().parents[1]
    text = (root / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n") and "Copyright (c) 2026 the lumicore developers" in text
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["license"] == "MIT"
    assert project["project"]["license-files"] == ["LICENSE"]
    assert "setuptools>=77" in project["build-system"]["requires"]
    manifest = (root / "MANIFEST.in").read_text(encoding="utf-8").splitlines()
    assert any(line.startswith("include ") and "LICENSE" in line.split()[1:] for line in manifest)
    assert "MIT license" in (root / "README.md").read_text(encoding="utf-8").splitlines()[-1]
