"""Pattern databases for the Lucia puzzle: exact distances in an abstraction of the train.

An *abstraction* keeps Lucia's place and the places of some roles (``"LSG"``: the Starboys and
Gingerbreads; ``"LSGT"``: the Tomtens too) and turns every other kid into a blank; candles and
lights are forgotten. Each card becomes an abstract card that can do at least what the card can
(:func:`abstract_card`): a move of a role that became a blank moves any blank, Lucia's run
passes any blanks and may stop after any of them, lights change nothing abstract and are
dropped. So every real play maps to an abstract play (or to no change), and the number of
abstract plays from a train's abstraction to an abstract goal (Lucia in front, the Starboys at
the back) is a lower bound on the real distance: the database is admissible, and consistent
(a real play changes the abstraction by at most one abstract play).

Every abstract move can be undone by the same card (a kid moved ``k`` places moves back ``k``;
Lucia runs back through the blanks she passed; the two actions of a multi card in the other
order), so the database is filled by a breadth-first search outwards from all abstract goals
in the kernel (``pdb_build``); one byte per abstract train, indexed by a mixed-radix rank of
Lucia's position and the colex ranks of the kept roles' position sets (``pdb_size``: 1.6 M
entries for ``"LSG"`` on the full train).

Databases are cached on disk (:func:`cache_dir`; ``LUMICORE_CACHE`` moves it), keyed by the
abstract cards, the train's length and role counts and the abstraction. A file whose header,
key, size or checksum does not match is rebuilt, never trusted. A cache that cannot be written
(a read-only folder, a full disk) is a ``RuntimeWarning`` naming the file; the database built
is used all the same. With no cache folder at all (no home directory and no
``LUMICORE_CACHE``/``XDG_CACHE_HOME``) a database is built once per process, kept in memory,
and a ``RuntimeWarning`` says that it is not cached. Processes that would build the same file
take turns on a sibling lock file (``<file>.lock``, ``fcntl.flock``; left in place; no lock on
Windows): the first builds, the others wait and then read what it wrote.

>>> from lumicore.lucia import Train, load_deck
>>> train = Train.parse("h L3 T S H")
>>> db = build_pdb(load_deck().kinds, train)
>>> db.estimate(train), db.estimate(Train.parse("L3 h T H S"))   # no card moves L and S
(2, 0)
"""

from __future__ import annotations

import hashlib
import json
import os
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from lumicore.checks import check_int, check_type, is_integer, read_json
from lumicore.data import lock_file, shorten, write_file, writing
from lumicore.errors import LumicoreError, OutputError
from lumicore.lucia import kernel as _k
from lumicore.lucia.cards import Action, Card
from lumicore.lucia.notation import (
    GINGER,
    H_UNLIT,
    LUCIA0,
    MAX_KIDS,
    STARBOY,
    TOMTEN,
    is_lucia,
)
from lumicore.lucia.train import Rules, Train, check_card, check_cards

__all__ = ["ABSTRACTIONS", "DEFAULT_ABSTRACTION", "PatternDatabase", "abstract_card",
           "abstract_codes", "abstract_goals", "build_pdb", "load_pdb", "cache_dir",
           "FORMAT_VERSION"]

ABSTRACTIONS = {"LSG": "SG", "LSGT": "SGT", "LS": "S", "LG": "G"}
"""Abstraction name -> the roles kept besides Lucia (ranked in this order)."""
DEFAULT_ABSTRACTION = "LSG"
"""The abstraction a pattern database keeps unless told otherwise: Lucia, the Starboys and the
Gingerbreads."""
FORMAT_VERSION = 1
"""Version of the cached database files and of their keys: a file written under another version is
rebuilt, never read."""
_MAGIC = b"LUMICORE-LUCIA-PDB\n"
LOCK_POLL = 0.05
"""Seconds between two tries for the lock of a database another process is building."""
_ROLE_CODE = {"S": STARBOY, "G": GINGER, "T": TOMTEN}
BLANK = H_UNLIT
"""Code of a blank kid in an abstract train (it moves as a Handmaiden: role ``H``)."""
ABSTRACT_RULES = Rules(lucia_partial=True)
"""Abstract Lucia runs may stop after any blank (a blank may hide a Tomten ending the run)."""


def _check_abstraction(abstraction: str) -> str:
    if not isinstance(abstraction, str) or abstraction not in ABSTRACTIONS:
        raise LumicoreError(f"abstraction must be one of {', '.join(ABSTRACTIONS)}, "
                            f"got {shorten(abstraction)}")
    return ABSTRACTIONS[abstraction]


def abstract_card(card: Card, abstraction: str = DEFAULT_ABSTRACTION) -> Card | None:
    """The abstract card: moves keep their roles, plus the blank (role ``H``) when they could
    move a role that became a blank; lights are dropped; ``lucia`` stays. None when nothing is
    left (a card of lights only changes no abstract train).

    >>> abstract_card(Card((Action.light("T"), Action.move("T", 1))))
    Card('move H or T 1')
    >>> abstract_card(Card((Action.light("H"),))) is None
    True
    """
    check_card(card)
    kept = _check_abstraction(abstraction)
    actions = []
    for action in card.actions:
        if action.kind == "light":
            continue
        if action.kind in ("move", "wild"):
            roles = set(action.roles)
            if roles - set(kept) - {"L"}:
                roles.add("H")
            actions.append(Action.move("".join(roles), action.steps))
        else:
            actions.append(action)
    return Card(tuple(actions)) if actions else None


def abstract_codes(codes: Sequence[int], abstraction: str = DEFAULT_ABSTRACTION
                   ) -> tuple[int, ...]:
    """The abstract train of a train's codes: Lucia as ``L0``, kept roles as they are, the rest
    blank."""
    kept = {_ROLE_CODE[r] for r in _check_abstraction(abstraction)}
    if isinstance(codes, (str, bytes)) or not isinstance(codes, Sequence):
        raise LumicoreError(f"codes must be a train's kid codes, got {shorten(codes)}")
    return tuple(LUCIA0 if is_lucia(c) else c if c in kept else BLANK for c in codes)


def _counts(train: Train, kept: str) -> tuple[int, ...]:
    return tuple(train.count(r) for r in kept)


def abstract_goals(length: int, counts: Sequence[int], abstraction: str = DEFAULT_ABSTRACTION
                   ) -> list[tuple[int, ...]]:
    """Every abstract goal: Lucia in front, the Starboys on the last places, the other kept
    kids anywhere else, no Gingerbread next to a Starboy."""
    from itertools import combinations

    from lumicore.lucia.reference import restriction_ok

    kept = _check_abstraction(abstraction)
    length = check_int(length, "length", 1, MAX_KIDS)
    if (isinstance(counts, (str, bytes)) or not isinstance(counts, Sequence)
            or len(counts) != len(kept) or not all(is_integer(n) and n >= 0 for n in counts)):
        raise LumicoreError(f"counts must be {len(kept)} integers >= 0 (kids of "
                            f"{', '.join(kept)}), got {shorten(counts)}")
    m = dict(zip(kept, counts, strict=True)).get("S", 0)
    out: list[tuple[int, ...]] = []

    def place(row: list[int], roles: str) -> None:
        if not roles:
            if restriction_ok(tuple(row)):
                out.append(tuple(row))
            return
        free = [p for p in range(1, length - m) if row[p] == BLANK]
        for chosen in combinations(free, dict(zip(kept, counts, strict=True))[roles[0]]):
            nxt = list(row)
            for p in chosen:
                nxt[p] = _ROLE_CODE[roles[0]]
            place(nxt, roles[1:])

    base = [LUCIA0] + [BLANK] * (length - 1)
    if m:
        if m >= length:
            return []
        for p in range(length - m, length):
            base[p] = STARBOY
    place(base, "".join(r for r in kept if r != "S"))
    return out


@dataclass(frozen=True, eq=False)
class PatternDatabase:
    """Distances (uint8, 255 = no abstract goal reachable) of every abstract train of trains
    with ``length`` kids and ``counts`` of the kept roles (``abstraction``)."""

    abstraction: str
    length: int
    counts: tuple[int, ...]
    values: np.ndarray
    key: str

    @property
    def codes(self) -> tuple[int, ...]:
        return tuple(_ROLE_CODE[r] for r in ABSTRACTIONS[self.abstraction])

    def fits(self, train: Train) -> bool:
        return len(train) == self.length and \
            _counts(train, ABSTRACTIONS[self.abstraction]) == self.counts

    def estimate(self, train: Train) -> int:
        """The database's lower bound for ``train`` (which must fit it)."""
        if not self.fits(train):
            raise LumicoreError(f"train {train} does not fit this {self.abstraction} database")
        rank = _k.pdb_ranks(np.array([train.packed], dtype=np.uint64), self.length,
                            self.codes, self.counts)
        return int(self.values[int(rank[0])])


def _abstract_table(cards: Sequence[Card], abstraction: str) -> np.ndarray:
    from lumicore.lucia.kernel import card_table

    kinds = [a for a in dict.fromkeys(abstract_card(c, abstraction) for c in cards)
             if a is not None]
    if not kinds:
        return np.zeros((0, 2), dtype=np.uint32)
    table = card_table(kinds, ABSTRACT_RULES)
    return table[np.lexsort(table.T[::-1])]       # canonical order for the cache key


def pdb_key(cards: Sequence[Card], train: Train, abstraction: str = DEFAULT_ABSTRACTION) -> str:
    """The cache key: a hash of the abstract card table, the train's length and role counts,
    the abstraction and the file format version."""
    kept = _check_abstraction(abstraction)
    table = _abstract_table(cards, abstraction)
    data = json.dumps({"v": FORMAT_VERSION, "abstraction": abstraction, "length": len(train),
                       "counts": _counts(train, kept), "cards": table.tolist()})
    return hashlib.sha256(data.encode()).hexdigest()[:32]


def build_pdb(cards: Sequence[Card], train: Train, abstraction: str = DEFAULT_ABSTRACTION,
              progress: Callable[[int, int], object] | None = None) -> PatternDatabase:
    """Build the database for trains shaped like ``train`` (its length and role counts) and
    the card kinds ``cards``, in the kernel (no cache). ``progress(depth, states)`` is called
    after each layer of the breadth-first search; an exception it raises ends the build."""
    cards = check_cards("cards", cards)
    check_type(train, Train, "train", "a lumicore.lucia.Train")
    kept = _check_abstraction(abstraction)
    counts = _counts(train, kept)
    codes = tuple(_ROLE_CODE[r] for r in kept)
    table = _abstract_table(cards, abstraction)
    goals = np.array([Train(g).packed for g in abstract_goals(len(train), counts, abstraction)],
                     dtype=np.uint64)
    size = _k.pdb_size(len(train), codes, counts)
    if len(table) == 0 or len(goals) == 0:
        values = np.full(size, 255, dtype=np.uint8)
        values[_k.pdb_ranks(goals, len(train), codes, counts)] = 0
    else:
        values = _k.pdb_build(goals, table, len(train), codes, counts, progress)
    return PatternDatabase(abstraction, len(train), counts, values,
                           pdb_key(cards, train, abstraction))


def cache_dir() -> Path | None:
    """Where databases are cached: ``$LUMICORE_CACHE``, else ``$XDG_CACHE_HOME/lumicore`` (an
    absolute path: a relative one is ignored, as the XDG spec says), else
    ``~/.cache/lumicore``; None (nothing is cached) when none of these can be had: no home
    directory (``HOME`` unset and no passwd entry, or ``HOME`` empty or relative)."""
    if os.environ.get("LUMICORE_CACHE"):
        return Path(os.environ["LUMICORE_CACHE"])
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / "lumicore"
    home = _home()
    return None if home is None else home / ".cache" / "lumicore"


def _home() -> Path | None:
    """The user's home directory, or None when there is no usable one."""
    if os.environ.get("HOME") == "":  # Path.home() would say "/": not this user's folder
        return None
    try:
        home = Path.home()
    except (RuntimeError, KeyError):  # HOME unset and no passwd entry (a container's uid)
        return None
    return home if home.is_absolute() else None


NO_CACHE = ("no cache folder (no home directory, and neither LUMICORE_CACHE nor an absolute "
            "XDG_CACHE_HOME is set); the pattern database is not cached (built again in each "
            "process)")
"""The ``RuntimeWarning`` of :func:`load_pdb` when :func:`cache_dir` is None."""


def _read(path: Path, key: str, size: int) -> np.ndarray | None:
    """The values of a cache file, or None unless magic, key, size and checksum all match."""
    try:
        blob = path.read_bytes()
    except OSError:
        return None
    if not blob.startswith(_MAGIC):
        return None
    head_end = blob.find(b"\n", len(_MAGIC))
    try:  # read_json: a header nested too deeply is a DataError too, not a RecursionError
        head = read_json(blob[len(_MAGIC):head_end], "pattern database cache")
    except ValueError:
        return None
    data = blob[head_end + 1:]
    if not isinstance(head, dict) or head.get("key") != key or head.get("size") != size \
            or len(data) != size or head.get("sha256") != hashlib.sha256(data).hexdigest():
        return None
    return np.frombuffer(data, dtype=np.uint8).copy()


def _write(path: Path, key: str, values: np.ndarray) -> None:
    data = values.tobytes()
    head = json.dumps({"key": key, "size": len(data),
                       "sha256": hashlib.sha256(data).hexdigest()}).encode()
    with writing(path):
        path.parent.mkdir(parents=True, exist_ok=True)
    write_file(path, _MAGIC + head + b"\n" + data, atomic=True)


def cache_path(cards: Sequence[Card], train: Train, abstraction: str = DEFAULT_ABSTRACTION
               ) -> Path | None:
    """The cache file of the database, or None when there is no cache folder
    (:func:`cache_dir`)."""
    folder = cache_dir()
    if folder is None:
        return None
    return folder / f"lucia-pdb-{abstraction}-{pdb_key(cards, train, abstraction)}.bin"


def lock_path(path: Path) -> Path:
    """The lock file of the cache file ``path``: ``<file>.lock`` beside it."""
    return path.with_name(path.name + ".lock")


@contextmanager
def _build_lock(path: Path, progress: Callable[[int, int], object] | None) -> Iterator[bool]:
    """Hold the exclusive lock of the cache file ``path`` (True), waiting while another process
    holds it and calling ``progress(0, 0)`` every :data:`LOCK_POLL` seconds of the wait (so
    that a time limit or Ctrl-C ends the wait as it ends a build). False, at once, where no lock
    can be had (no ``fcntl``: Windows; a lock file that cannot be created: a read-only cache;
    a file system without locks)."""
    try:
        import fcntl  # noqa: F401 - whether locks exist, before a lock file is made
    except ImportError:  # Windows: every process builds, as before
        yield False
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(lock_path(path), os.O_RDWR | os.O_CREAT, 0o666)
    except OSError:  # the cache cannot be written either: build, and warn when writing
        yield False
        return
    try:
        wait = (lambda: None) if progress is None else (lambda: progress(0, 0))
        yield lock_file(fd, wait, LOCK_POLL) is True
    finally:
        os.close(fd)  # releases the lock; the file stays (removing it races a waiter)


def load_pdb(cards: Sequence[Card], train: Train, abstraction: str = DEFAULT_ABSTRACTION,
             cache: bool = True, progress: Callable[[int, int], object] | None = None
             ) -> PatternDatabase:
    """The database for ``cards`` and trains shaped like ``train``: read from the cache when a
    valid file is there, else built and (with ``cache``) written. A cache file that cannot be
    written is a ``RuntimeWarning`` naming it and only costs the rebuild next time.
    ``progress``: see :func:`build_pdb` (a build it ends writes nothing). With ``cache``, a
    process that would build a file another process is building waits for it (its lock file)
    and reads it; ``progress(0, 0)`` is called while it waits, and an exception it raises ends
    the wait (and the load) as it ends a build."""
    cards = check_cards("cards", cards)
    check_type(train, Train, "train", "a lumicore.lucia.Train")
    kept = _check_abstraction(abstraction)
    if not cache:
        return build_pdb(cards, train, abstraction, progress)
    key = pdb_key(cards, train, abstraction)
    path = cache_path(cards, train, abstraction)
    if path is None:  # no cache folder: built once per process, kept in memory
        memo = f"<not cached>/{abstraction}-{key}"
        if memo not in _LOADED:
            db = build_pdb(cards, train, abstraction, progress)
            warnings.warn(NO_CACHE, RuntimeWarning, stacklevel=2)
            for old in list(_LOADED)[:len(_LOADED) - 1]:
                _LOADED.pop(old, None)
            _LOADED[memo] = (None, db)
        return _LOADED[memo][1]
    seen = _LOADED.get(str(path))
    if seen is not None and seen[0] == _stamp(path):
        return seen[1]
    counts = _counts(train, kept)
    size = _k.pdb_size(len(train), tuple(_ROLE_CODE[r] for r in kept), counts)
    values = _read(path, key, size)
    if values is not None:
        db = PatternDatabase(abstraction, len(train), counts, values, key)
    else:
        with _build_lock(path, progress) as locked:
            # another process may have written the file while this one waited for the lock
            values = _read(path, key, size) if locked else None
            if values is not None:
                db = PatternDatabase(abstraction, len(train), counts, values, key)
            else:
                db = build_pdb(cards, train, abstraction, progress)
                try:
                    _write(path, key, db.values)
                except OutputError as exc:
                    warnings.warn(f"{exc}; the pattern database is not cached (built again "
                                  "next time)", RuntimeWarning, stacklevel=2)
    for old in list(_LOADED)[:len(_LOADED) - 1]:  # keep two (thread-safe: list(), pop(k, None))
        _LOADED.pop(old, None)
    _LOADED[str(path)] = (_stamp(path), db)
    return db


_LOADED: dict[str, tuple[tuple[int, int] | None, PatternDatabase]] = {}
"""The last databases loaded in this process, with their file's (mtime, size) when read: a
later solve reuses them (no disk read, no checksum) unless the file changed since."""


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size
