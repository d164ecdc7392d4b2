"""Pattern databases: the kernel's build and ranks against the plain-Python twin, admissibility
and consistency of the combined heuristic against exact distances, unchanged optima, and the
disk cache (first use builds, next loads; corrupt or stale files are rebuilt)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_lucia_kernel import trains
from test_lucia_solve import SMALL, distances_to_goal

from lumicore.errors import LumicoreError
from lumicore.lucia import Action, Card, Train, load_deck, scramble
from lumicore.lucia import kernel as K
from lumicore.lucia import pdb as P
from lumicore.lucia.heuristic import INF, build_table
from lumicore.lucia.pdb_reference import abstract_distances, abstract_trains
from solvers.lucia import DEFAULT_PUZZLE, solve

DECK = load_deck().kinds
EXTRA = (Card((Action.wild(3),)), Card((Action.move("L", 1),)), Card((Action.move("HTG", 4),)),
         Card((Action.lucia(), Action.move("G", 2))), Card((Action.move("T", 2),)))


def _pdb_of(values: P.PatternDatabase, trains: list[tuple[int, ...]]) -> list[int]:
    arr = np.array([Train(t).packed for t in trains], dtype=np.uint64)
    ranks = K._k.pdb_ranks(arr, values.length, values.codes, values.counts)
    return values.values[ranks].tolist()


@st.composite
def shapes(draw):
    abstraction = draw(st.sampled_from(["LSG", "LSGT", "LS"]))
    kept = P.ABSTRACTIONS[abstraction]
    length = draw(st.integers(3, 7))
    counts = []
    room = length - 1
    for _ in kept:
        counts.append(draw(st.integers(0, min(2, room))))
        room -= counts[-1]
    cards = draw(st.lists(st.sampled_from(DECK + EXTRA), min_size=1, max_size=6, unique=True))
    return abstraction, length, tuple(counts), cards


@settings(max_examples=40)
@given(shapes())
def test_kernel_build_equals_reference_bfs(shape):
    abstraction, length, counts, cards = shape
    trains = abstract_trains(length, counts, abstraction)
    if not trains:
        return
    db = P.build_pdb(cards, Train(trains[0]), abstraction)
    assert db.counts == counts and db.values.size == K._k.pdb_size(length, db.codes, counts)
    want = abstract_distances(length, counts, cards, abstraction)
    got = _pdb_of(db, trains)
    assert got == [INF if want[t] == float("inf") else want[t] for t in trains]


@pytest.mark.parametrize("abstraction,length,counts", [("LSGT", 7, (2, 2, 1)),
                                                       ("LSG", 8, (2, 2)), ("LS", 5, (2,))])
def test_ranks_are_a_bijection_onto_the_table(abstraction, length, counts):
    trains = abstract_trains(length, counts, abstraction)
    db = P.build_pdb(DECK, Train(trains[0]), abstraction)
    ranks = K._k.pdb_ranks(np.array([Train(t).packed for t in trains], dtype=np.uint64), length,
                           db.codes, counts)
    assert len(set(ranks.tolist())) == len(trains)
    assert ranks.min() >= 0 and ranks.max() < db.values.size


@settings(max_examples=60)
@given(st.permutations([0, 0, 1, 1, 1, 2, 2, 3, 3, 3, 4, 4, 4, 5, 9, 0]))
def test_concrete_trains_rank_as_their_abstraction(codes):
    codes = [c if c != 9 else 1 for c in codes]
    codes = tuple(codes)
    try:
        train = Train(codes)
    except LumicoreError:
        return
    for abstraction in ("LSG", "LSGT"):
        kept = P.ABSTRACTIONS[abstraction]
        counts = tuple(train.count(r) for r in kept)
        codes_k = tuple(P._ROLE_CODE[r] for r in kept)
        pair = np.array([train.packed, Train(P.abstract_codes(codes, abstraction)).packed],
                        dtype=np.uint64)
        r = K._k.pdb_ranks(pair, 16, codes_k, counts)
        assert r[0] == r[1] < K._k.pdb_size(16, codes_k, counts)


def test_trains_of_another_shape_get_nothing_from_the_database():
    db = P.build_pdb(DECK, Train.parse("h L0 T S h G"), "LSGT")
    other = Train.parse("S h L0 T h G")         # fits
    odd = Train.parse("S h L0 h h G")           # no Tomten: does not fit
    assert db.fits(other) and not db.fits(odd)
    with pytest.raises(LumicoreError, match="does not fit"):
        db.estimate(odd)
    table = build_table(DECK, odd)
    assert K.heuristic([odd.packed], table, [db])[0] == K.heuristic([odd.packed], table)[0]


@pytest.mark.parametrize("text", SMALL[:5] + ["S h T G h L0", "G h T S h L0 h"])
@pytest.mark.parametrize("abstraction", ["LSG", "LSGT"])
def test_combined_heuristic_is_admissible_and_consistent(text, abstraction):
    train = Train.parse(text)
    table, db = build_table(DECK, train), P.build_pdb(DECK, train, abstraction)
    dist = distances_to_goal(train, DECK)
    states = np.array(list(dist), dtype=np.uint64)
    h = K.heuristic(states, table, [db]).astype(int)
    d = np.array([INF if v == float("inf") else v for v in dist.values()])
    assert (h <= d).all()
    assert ((h == 0) == (d == 0)).all()
    assert (h >= K.heuristic(states, table)).all()          # the max of the two
    succ, parent, _ = K.expand(states, K.card_table(DECK))
    h_succ = K.heuristic(succ, table, [db]).astype(int)
    assert (h[parent] <= 1 + h_succ).all()


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_hidden_optima_unchanged_against_bfs(seed):
    train = scramble(5, seed=seed)
    costs = {solve(train, heuristic=h, algorithm=a).cost
             for h in ("pdb", "covering") for a in ("astar", "idastar")}
    assert len(costs) == 1
    bfs = solve(train, algorithm="bfs", max_nodes=3_000_000)  # seed 0 stores 2,093,649 states
    assert bfs.status == "optimal" and costs == {bfs.cost}


@pytest.mark.parametrize("text", SMALL)
def test_hidden_optima_unchanged(text):
    costs = {solve(text, heuristic=h, algorithm=a).cost
             for h in ("pdb", "covering") for a in ("astar", "idastar", "bfs")}
    assert len(costs) == 1


@pytest.mark.slow
def test_default_puzzle_optimum_with_and_without_database():
    pdb, covering = solve(DEFAULT_PUZZLE), solve(DEFAULT_PUZZLE, heuristic="covering")
    assert pdb.status == covering.status == "optimal" and pdb.cost == covering.cost == 13
    assert pdb.first is not None and pdb.first >= pdb.cost


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LUMICORE_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


SHAPE = Train.parse("G h h S L0 T h S T")


def test_cache_first_builds_then_loads(cache, monkeypatch):
    db = P.load_pdb(DECK, SHAPE, "LSGT")
    files = list(cache.glob("lucia-pdb-LSGT-*.bin"))
    assert len(files) == 1 and files[0] == P.cache_path(DECK, SHAPE, "LSGT")

    def no_build(*_):
        raise AssertionError("rebuilt although cached")
    monkeypatch.setattr(P, "build_pdb", no_build)
    assert P.load_pdb(DECK, SHAPE, "LSGT") is db         # this process: kept in memory
    P._LOADED.clear()                                    # a new process: read from disk
    again = P.load_pdb(DECK, SHAPE, "LSGT")
    assert np.array_equal(again.values, db.values) and again.key == db.key


def test_another_deck_gets_its_own_database(cache):
    P.load_pdb(DECK, SHAPE, "LSGT")
    P.load_pdb(DECK[:5], SHAPE, "LSGT")
    assert len(list(cache.glob("*.bin"))) == 2
    # the same abstract moves in another order share the file
    P.load_pdb(DECK[::-1], SHAPE, "LSGT")
    assert len(list(cache.glob("*.bin"))) == 2


@pytest.mark.parametrize("damage", ["flip", "truncate", "magic", "header", "key", "empty",
                                    "deep"])
def test_corrupt_or_stale_cache_is_rebuilt(cache, damage):
    fresh = P.build_pdb(DECK, SHAPE, "LSGT")
    P.load_pdb(DECK, SHAPE, "LSGT")
    path = P.cache_path(DECK, SHAPE, "LSGT")
    blob = bytearray(path.read_bytes())
    if damage == "flip":
        blob[-7] ^= 0x01
    elif damage == "truncate":
        blob = blob[:-10]
    elif damage == "magic":
        blob[:4] = b"XXXX"
    elif damage == "header":
        blob[len(P._MAGIC) + 2] = ord("{")
    elif damage == "key":
        blob = blob.replace(fresh.key.encode(), b"0" * len(fresh.key))
    elif damage == "deep":      # a RecursionError of the JSON parser crashed every later solve
        blob = bytearray(P._MAGIC + b"[" * 100_000 + b"\n" + blob[blob.index(b"\n", 20) + 1:])
    else:
        blob = bytearray()
    path.write_bytes(bytes(blob))
    if damage != "flip":        # flip: the changed file alone must make the memory copy stale
        P._LOADED.clear()
    db = P.load_pdb(DECK, SHAPE, "LSGT")
    assert np.array_equal(db.values, fresh.values)
    assert P.load_pdb(DECK, SHAPE, "LSGT").values.tobytes() == fresh.values.tobytes()
    assert path.read_bytes() != bytes(blob)       # rewritten


def test_unwritable_cache_still_solves_and_warns_naming_the_file(tmp_path, monkeypatch):
    """Before: the failure to write the cache was silent."""
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("LUMICORE_CACHE", str(blocker / "cache"))
    P._LOADED.clear()
    with pytest.warns(RuntimeWarning, match=r"^cannot write '.*': Not a directory; the pattern"):
        assert solve("S h T h L0").cost == 6


def test_bad_abstraction():
    with pytest.raises(LumicoreError, match="abstraction"):
        P.build_pdb(DECK, SHAPE, "XYZ")


@settings(max_examples=30)
@given(trains(max_kids=7), st.sampled_from(["LSG", "LSGT"]))
def test_kernel_heuristic_is_the_max_of_table_and_reference_database(train, abstraction):
    from lumicore.lucia.heuristic import estimate
    table, db = build_table(DECK, train), P.build_pdb(DECK, train, abstraction)
    kept = P.ABSTRACTIONS[abstraction]
    ref = abstract_distances(len(train), tuple(train.count(r) for r in kept), DECK, abstraction)
    d = ref[P.abstract_codes(train.codes, abstraction)]
    cover = estimate(train, table)
    want = INF if cover == INF or d == float("inf") else max(cover, int(d))
    assert K.heuristic([train.packed], table, [db])[0] == want


def test_cli_says_when_it_builds_the_database(cache, capsys):
    from solvers.cli import main
    assert main(["lucia", "solve", "S h T h L0"]) == 0
    assert "building the LSGT pattern database" in capsys.readouterr().err
    assert main(["lucia", "solve", "S h T h L0"]) == 0
    assert capsys.readouterr().err == ""


def test_cli_says_a_timed_build_may_not_be_kept(cache, capsys):
    from solvers.cli import main
    assert main(["lucia", "solve", "S h T h L0", "--time-limit", "30"]) == 0
    assert "at most 15 s of --time-limit, or the search goes on without it and nothing is " \
        "cached" in " ".join(capsys.readouterr().err.split())


class _Clock:
    """A fake ``time`` for solvers.lucia.puzzle: seconds pass only when a test says so."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now


@pytest.fixture
def timed_solve(cache, monkeypatch):
    """solve() on a fake clock, with an empty database cache, recording the ``pdbs`` and the
    time limit each kernel search gets."""
    import solvers.lucia.puzzle as puzzle

    clock = _Clock()
    monkeypatch.setattr(puzzle, "time", clock)
    monkeypatch.setattr(P, "_LOADED", {})
    searches = []
    real = K.search

    def search(algorithm, train, table, htable, max_nodes, time_limit, *args):
        searches.append((time_limit, list(args[3]) if len(args) > 3 else []))
        return real(algorithm, train, table, htable, max_nodes, time_limit, *args)

    monkeypatch.setattr(K, "search", search)
    return clock, searches


@pytest.mark.parametrize("algorithm", ["astar", "idastar"])
def test_database_build_counts_against_the_time_limit(timed_solve, monkeypatch, algorithm):
    """Building the database took 3 of the 10 s: the search gets at most the 7 left (it got
    all 10 again)."""
    import solvers.lucia.puzzle as puzzle

    clock, searches = timed_solve
    real = puzzle.load_pdb

    def slow_load(*args, **kwargs):
        clock.now += 3.0
        return real(*args, **kwargs)

    monkeypatch.setattr(puzzle, "load_pdb", slow_load)
    result = solve("h L4 H T S", algorithm=algorithm, time_limit=10)
    assert result.status == "optimal" and result.cost == 2
    assert searches and all(limit <= 7.0 for limit, _pdbs in searches)


@pytest.mark.parametrize("algorithm", ["astar", "idastar"])
def test_a_database_load_that_takes_the_time_limit_starts_no_search(timed_solve, monkeypatch,
                                                                    algorithm):
    """Reading a cached database is not cut short, but it counts in the time limit: when it
    took all of it no search starts (it got a millisecond more: a first solve at 0.01 s
    searched 32,234 states after 0.3 s of loading) and the result is a cut-off one."""
    import solvers.lucia.puzzle as puzzle

    clock, searches = timed_solve
    real = puzzle.load_pdb

    def slow_load(*args, **kwargs):
        db = real(*args, **kwargs)
        clock.now += 10.0                 # a cache file read in 10 of the 10 s
        return db

    monkeypatch.setattr(puzzle, "load_pdb", slow_load)
    result = solve("h L4 H T S", algorithm=algorithm, time_limit=10)
    assert (result.status, result.reason, result.nodes, result.plan) == ("limit", "time", 0, [])
    assert searches == []


@pytest.mark.parametrize("algorithm", ["astar", "idastar"])
def test_database_build_past_its_share_is_dropped(timed_solve, monkeypatch, algorithm):
    """A build still running after PDB_SHARE of the time limit stops (at the end of a layer of
    its search), nothing is cached, and the covering table alone answers in the time left (the
    build was given no clock and ran to its end, however long)."""
    clock, searches = timed_solve

    def pdb_build(goals, table, n, codes, counts, progress=None):
        assert progress is not None, "the build is not timed"
        clock.now += 6.0                  # the first layers took 6 of the 10 s
        progress(1, 100)
        raise AssertionError("the build went on past its share of the time limit")

    monkeypatch.setattr(K, "pdb_build", pdb_build)
    result = solve("h L4 H T S", algorithm=algorithm, time_limit=10)
    assert result.status == "optimal" and result.cost == 2
    assert searches and all(limit <= 4.0 and not pdbs for limit, pdbs in searches)
    assert not P.cache_path(DECK, Train.parse("h L4 H T S"), "LSGT").exists()


def test_ctrl_c_while_the_database_is_built_returns_interrupted(cache, monkeypatch):
    """The kernel's build raises KeyboardInterrupt between layers: solve returns status
    "interrupted" like a search stopped by Ctrl-C (it raised KeyboardInterrupt)."""
    monkeypatch.setattr(P, "_LOADED", {})

    def pdb_build(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(K, "pdb_build", pdb_build)
    result = solve("h L4 H T S", algorithm="astar", time_limit=10)
    assert result.status == "interrupted" and result.reason == "interrupted"
    assert result.plan == [] and result.cost is None


# ---- lucia.kernel.pdb_* check their arguments: they were the kernel's own functions, which
# raised a plain ValueError, OverflowError or TypeError, and took 1.0 and True for 1 and any
# code (99 and -1 made a database of nothing)

_GOALS = np.array([Train.parse("h H L0 T").packed], dtype=np.uint64)
_CARDS = K.card_table([Card((Action.wild(1),))])
_SPEC = {"n": 4, "codes": (3,), "counts": (1,)}
_PDB_CALLS = {
    "pdb_size": lambda a: K.pdb_size(a["n"], a["codes"], a["counts"]),
    "pdb_ranks": lambda a: K.pdb_ranks(a["states"], a["n"], a["codes"], a["counts"]),
    "pdb_build": lambda a: K.pdb_build(a["goals"], a["cards"], a["n"], a["codes"], a["counts"],
                                       a["progress"]),
}
_PDB_BAD = [  # (argument, bad value, what the message names)
    *[("n", bad, "n") for bad in (0, 17, -1, 2**70, np.int64(2**40), np.int8(-3), "4", 4.0,
                                  None, True)],
    *[("codes", bad, "codes") for bad in ((99,), (-1,), (5,), (2**70,), (np.int64(2**40),),
                                          ("3",), (3.0,), (True,), 3, None, "3",
                                          (0, 1, 2, 3))],
    *[("counts", bad, "counts") for bad in ((4,), (-1,), (2**70,), (np.int64(-1),), ("1",),
                                            (1.0,), (True,), (1, 1), 1, None)],
    *[("states", bad, "states") for bad in ([-1], [2**64], ["1"], [1.5], np.array([-1]),
                                            [[1], [1, 2]])],
    *[("goals", bad, "goals") for bad in ([-1], [2**70], ["x"], np.array([-5], dtype=np.int8))],
    *[("cards", bad, "card table") for bad in (np.zeros((0, 2), np.uint32), np.zeros((2, 3),
                                                                                       np.uint32),
                                               _CARDS.astype(np.int64), [[1, 0]], None)],
    ("progress", 1, "progress"),
]


_TAKES = {"pdb_size": ("n", "codes", "counts"), "pdb_ranks": ("states", "n", "codes", "counts"),
          "pdb_build": ("goals", "cards", "n", "codes", "counts", "progress")}


@pytest.mark.parametrize("function, argument, bad, name", [
    pytest.param(f, a, b, name, id=f"{f}-{a}={b!r}")
    for f in _PDB_CALLS for a, b, name in _PDB_BAD if a in _TAKES[f]])
def test_pdb_primitives_name_a_bad_argument(function, argument, bad, name):
    args = {**_SPEC, "states": _GOALS, "goals": _GOALS, "cards": _CARDS, "progress": None}
    with pytest.raises(LumicoreError, match=f"^{name} must"):
        _PDB_CALLS[function]({**args, argument: bad})


def test_pdb_primitives_refuse_a_role_twice():
    for function in _PDB_CALLS.values():
        with pytest.raises(LumicoreError, match="^codes must be distinct roles"):
            function({**_SPEC, "codes": (3, 3), "counts": (1, 1), "states": _GOALS,
                      "goals": _GOALS, "cards": _CARDS, "progress": None})


def test_checked_pdb_primitives_answer_as_the_kernel():
    assert K.pdb_size(4, [np.int64(3)], np.array([1])) == K._k.pdb_size(4, (3,), (1,)) == 12
    assert K.pdb_ranks([int(_GOALS[0])], 4, (3,), (1,)).tolist() == \
        K._k.pdb_ranks(_GOALS, 4, (3,), (1,)).tolist()
    assert K.pdb_build(_GOALS, _CARDS, 4, (), ()).tolist() == \
        K._k.pdb_build(_GOALS, _CARDS, 4, (), ()).tolist()


def _no_home(how: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """No usable home directory, ``how``: HOME unset and Path.home() failing as it does with no
    passwd entry (RuntimeError on Python 3.12+, KeyError before), or HOME empty or relative."""
    from pathlib import Path

    for name in ("LUMICORE_CACHE", "XDG_CACHE_HOME", "HOME"):
        monkeypatch.delenv(name, raising=False)
    if how in ("RuntimeError", "KeyError"):
        def home() -> Path:
            raise RuntimeError("Could not determine home directory.") if how == "RuntimeError" \
                else KeyError("getpwuid(): uid not found: 12345")
        monkeypatch.setattr(Path, "home", staticmethod(home))
    else:
        monkeypatch.setenv("HOME", how)


@pytest.mark.parametrize("how", ["RuntimeError", "KeyError", "", "relative/home"])
def test_no_home_builds_uncached_with_one_warning(how, monkeypatch):
    """Path.home() raised RuntimeError out of solve() and `lumicore lucia solve` (a traceback);
    an empty HOME cached in /.cache. Now there is no cache folder: the database is built, used
    and kept in memory, with one RuntimeWarning saying it is not cached."""
    import warnings

    _no_home(how, monkeypatch)
    monkeypatch.setattr(P, "_LOADED", {})
    assert P.cache_dir() is None and P.cache_path(DECK, SHAPE, "LSGT") is None
    with pytest.warns(RuntimeWarning, match="^no cache folder .*not cached") as caught:
        db = P.load_pdb(DECK, SHAPE, "LSGT")
        assert solve("S h T h L0").cost == 6
    assert len(caught) == 2  # one a database: SHAPE's and the puzzle's
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the same database again: no warning, no rebuild
        assert P.load_pdb(DECK, SHAPE, "LSGT") is db


def test_cli_without_a_home_solves_and_warns_in_one_line(monkeypatch, capsys):
    from solvers.cli import main

    _no_home("RuntimeError", monkeypatch)
    monkeypatch.setattr(P, "_LOADED", {})
    assert main(["lucia", "solve", "S h T h L0"]) == 0
    out, err = capsys.readouterr()
    assert "cost: 6" in out and "Traceback" not in err
    assert "(not cached: no cache folder)" in err
    assert "lumicore: warning: no cache folder (no home directory" in err


def test_a_relative_xdg_cache_home_is_ignored(tmp_path, monkeypatch):
    """The XDG spec: a relative XDG_CACHE_HOME is invalid and ignored (it was taken relative to
    the working directory)."""
    monkeypatch.delenv("LUMICORE_CACHE", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    assert P.cache_dir() == tmp_path / ".cache" / "lumicore"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert P.cache_dir() == tmp_path / "xdg" / "lumicore"
    _no_home("", monkeypatch)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))  # no home needed then
    assert P.cache_dir() == tmp_path / "xdg" / "lumicore"
