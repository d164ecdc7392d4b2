"""Concurrent first loads of a pattern database: processes that would build the same cache file
take turns on its lock file, so one builds and the others wait (within their time limit, and
Ctrl-C stops the wait) and then read what it wrote."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lumicore.lucia import Train, load_deck
from lumicore.lucia import kernel as K
from lumicore.lucia import pdb as P
from solvers.lucia import solve
from solvers.lucia.puzzle import PDB_ABSTRACTION, search_kinds

fcntl = pytest.importorskip("fcntl")     # no lock on Windows (every process builds)

ROOT = Path(__file__).resolve().parents[1]
DECK = load_deck().kinds
SHAPE = Train.parse("G h h S L0 T h S T")
SMALL = "h L4 H T S"

# one of two processes loading the same database: it waits until both have started, and a
# build (marked in BUILDS) then waits long enough that the other one reaches the cache too
CHILD = """
import sys, time
from pathlib import Path
from lumicore.lucia import Train, load_deck
from lumicore.lucia import pdb as P

name, folder = sys.argv[1], Path(sys.argv[2])
real = P.build_pdb

def build_pdb(*args, **kwargs):
    with open(folder / "BUILDS", "a") as f:
        f.write(name + "\\n")
    t = time.monotonic()
    while len(list(folder.glob("started-*"))) < 2 and time.monotonic() - t < 60:
        time.sleep(0.02)
    time.sleep(1.0)
    return real(*args, **kwargs)

P.build_pdb = build_pdb
shape = Train.parse("G h h S L0 T h S T")
(folder / ("started-" + name)).touch()
db = P.load_pdb(load_deck().kinds, shape, "LSGT")
print(db.key)
"""


def lock_of(path: Path) -> Path:
    """The lock file of a cache file (as documented: ``<file>.lock`` beside it)."""
    return path.with_name(path.name + ".lock")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LUMICORE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(P, "_LOADED", {})
    return tmp_path / "cache"


def hold_lock(path: Path):
    """Take the lock of the cache file ``path`` as another process building it would: returns
    the open file (closing it releases the lock)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    f = open(lock_of(path), "a+b")   # noqa: SIM115 - held across the test
    fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    return f


def test_two_processes_on_an_empty_cache_build_once(cache, tmp_path):
    """Before: both read no file and both built (two lines in BUILDS)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), LUMICORE_CACHE=str(cache))
    procs = [subprocess.Popen([sys.executable, "-c", CHILD, name, str(tmp_path)], cwd=ROOT,
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for name in ("a", "b")]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    key = P.pdb_key(DECK, SHAPE, "LSGT")
    assert [out.strip() for out, _err in outs] == [key, key]
    assert len((tmp_path / "BUILDS").read_text().split()) == 1
    path = P.cache_path(DECK, SHAPE, "LSGT")
    assert path.exists() and lock_of(path).exists()    # the lock file is left in place


def test_a_wait_past_its_share_of_the_time_limit_goes_on_without_the_database(cache,
                                                                             monkeypatch):
    """Another process holds the lock (it is building): a solve with a 0.6 s limit waits at
    most its 0.3 s share, then searches with the covering table alone and writes nothing.
    Before: it built the database itself at once."""
    searches = []
    real = K.search

    def search(*args):
        searches.append(list(args[9]) if len(args) > 9 else [])
        return real(*args)

    monkeypatch.setattr(K, "search", search)
    path = P.cache_path(search_kinds(DECK), Train.parse(SMALL), PDB_ABSTRACTION)
    with hold_lock(path):
        t = time.perf_counter()
        result = solve(SMALL, time_limit=0.6)
        took = time.perf_counter() - t
    assert result.status == "optimal" and result.cost == 2
    assert 0.3 <= took < 0.6 + 2.0                         # waited its share, not for ever
    assert searches and not any(searches)                   # no database in any search
    assert not path.exists()


def test_the_wait_ends_when_the_other_process_has_written_the_file(cache, monkeypatch):
    """The lock is released once the file is there: the waiting load reads it, builds
    nothing (and its progress was called while it waited)."""
    import threading

    path = P.cache_path(DECK, SHAPE, "LSGT")
    built = P.build_pdb(DECK, SHAPE, "LSGT")
    held = hold_lock(path)

    def other_process_finishes() -> None:
        time.sleep(0.3)
        P._write(path, built.key, built.values)
        held.close()

    def no_build(*_args, **_kwargs):
        raise AssertionError("built although another process wrote the file")

    monkeypatch.setattr(P, "build_pdb", no_build)
    waits = []
    thread = threading.Thread(target=other_process_finishes)
    thread.start()
    try:
        db = P.load_pdb(DECK, SHAPE, "LSGT", progress=lambda *a: waits.append(a))
    finally:
        thread.join()
        held.close()
    assert db.key == built.key and (db.values == built.values).all()
    assert waits and set(waits) == {(0, 0)}


def test_ctrl_c_while_waiting_for_another_build_returns_interrupted(cache, monkeypatch):
    """Ctrl-C (a real SIGINT) during the wait stops it like a build it stops: status
    "interrupted". Before: no wait, the solve built the database and finished."""
    from ctrl_c_helpers import ctrl_c_on_call

    path = P.cache_path(search_kinds(DECK), Train.parse(SMALL), PDB_ABSTRACTION)
    with hold_lock(path):
        calls = ctrl_c_on_call(monkeypatch, fcntl, "flock", call=2)   # after a first refusal
        result = solve(SMALL, algorithm="astar", time_limit=10)
    assert len(calls) == 2
    assert result.status == "interrupted" and result.reason == "interrupted"
    assert result.plan == [] and result.cost is None
    assert not path.exists()


def test_no_lock_without_cache(cache):
    """``cache=False`` never waits for a lock (nor creates one)."""
    path = P.cache_path(DECK, SHAPE, "LSGT")
    with hold_lock(path):
        t = time.perf_counter()
        db = P.load_pdb(DECK, SHAPE, "LSGT", cache=False, progress=lambda *_: None)
        assert time.perf_counter() - t < 5.0
    assert db.key == P.pdb_key(DECK, SHAPE, "LSGT") and not path.exists()


def test_a_lock_file_that_cannot_be_opened_builds_without_a_lock(cache):
    """No lock to be had (here the lock's name is taken by a folder): build and cache as
    before, no error."""
    path = P.cache_path(DECK, SHAPE, "LSGT")
    lock_of(path).mkdir(parents=True)
    db = P.load_pdb(DECK, SHAPE, "LSGT")
    assert path.exists() and db.key == P.pdb_key(DECK, SHAPE, "LSGT")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_a_read_only_cache_still_warns_and_solves(tmp_path, monkeypatch):
    """A read-only cache folder: no lock file can be created either, so the database is built
    without a lock and not cached (the RuntimeWarning naming the file), as before."""
    folder = tmp_path / "cache"
    folder.mkdir()
    folder.chmod(0o555)
    monkeypatch.setenv("LUMICORE_CACHE", str(folder))
    monkeypatch.setattr(P, "_LOADED", {})
    try:
        with pytest.warns(RuntimeWarning, match=r"^cannot write '.*'.*; the pattern database"):
            assert solve("S h T h L0").cost == 6
    finally:
        folder.chmod(0o755)
    assert list(folder.iterdir()) == []


def test_a_cache_under_a_file_still_warns_and_solves(tmp_path, monkeypatch):
    """The cache folder cannot be made (a file is in the way): no lock, the warning, a plan."""
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("LUMICORE_CACHE", str(blocker / "cache"))
    monkeypatch.setattr(P, "_LOADED", {})
    with pytest.warns(RuntimeWarning, match=r"^cannot write '.*': Not a directory; the pattern"):
        assert solve("S h T h L0").cost == 6
