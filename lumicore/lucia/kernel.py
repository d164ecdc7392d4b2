"""The typed, validated door to the Cython kernel ``lumicore._ext.lucia`` (used by solvers.lucia
and the benchmarks). Everything user-supplied is checked here before it reaches C.

Cards travel as a ``(k, 2)`` uint32 table, one row per card, one word per action: bits 0-1 kind
(1 move/wild, 2 light, 3 lucia, 0 no action), bits 4-14 the nibble codes that may move, bits
16-19 the steps (move) or the source code (light), bit 20 ``lucia_partial``.

>>> from lumicore.lucia import Train, load_deck
>>> table = card_table(load_deck().kinds)
>>> table.shape
(15, 2)
>>> train = Train.parse("h H L0 T")
>>> sorted(str(Train.from_packed(int(x))) for x in successors(train.packed, table, 8))
['L0 h H T']
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

import numpy as np

from lumicore._ext import lucia as _k
from lumicore.checks import (
    check_bool,
    check_index,
    check_int,
    check_real,
    check_time_limit,
    check_type,
    is_integer,
)
from lumicore.data import cached_by_identity, shorten
from lumicore.errors import LumicoreError, NotationError, SearchLimitError
from lumicore.lucia import pdb as _pdb
from lumicore.lucia.cards import Action, Card
from lumicore.lucia.heuristic import HeuristicTable, capacity, check_shape
from lumicore.lucia.notation import (
    EMPTY,
    GINGER,
    H_LIT,
    H_UNLIT,
    LUCIA0,
    LUCIA5,
    MAX_CANDLES,
    MAX_KIDS,
    STARBOY,
    TOMTEN,
)
from lumicore.lucia.train import DEFAULT_RULES, Rules, Train, check_cards, check_rules

__all__ = ["card_table", "encode_action", "check_states", "pack_trains", "successors", "expand",
           "count_successors", "goal_mask", "heuristic", "search", "STATUS", "REASON",
           "SearchOutcome", "check_max_nodes", "check_weight", "MAX_NODES", "MIN_MEMORY",
           "MAX_VISITS", "DEAL_NODES", "deal_node_limit"]

_KIND = {"move": 1, "wild": 1, "light": 2, "lucia": 3}
_CODES = {"H": (0, 1), "T": (2,), "S": (3,), "G": (4,), "L": tuple(range(LUCIA0, LUCIA5 + 1))}
MAX_NODES = (1 << 32) - 2
"""The most states BFS and A* can store (32-bit node indices)."""
MAX_VISITS = (1 << 63) - 1
"""The most node visits IDA* can count."""
MIN_MEMORY = 4 << 20
"""The least ``max_memory`` BFS and A* take: their first tables (65,536 states of node data,
hash slots for twice as many and A*'s heap) hold about 3.5 MB before the budget is checked."""
MAX_WEIGHT = 8
"""Largest weighted-A* weight: f values are kept in 8 bits."""
STATUS = {0: "optimal", 1: "unsolvable", 2: "limit", 3: "limit", 4: "limit", 5: "interrupted"}
"""Kernel status code -> result status (3 = out of memory, 4 = time, 5 = Ctrl-C)."""
REASON = {2: "nodes", 3: "memory", 4: "time", 5: "interrupted"}
"""Kernel status code -> the ``reason`` a search stopped (the words of solvers.limits)."""


def encode_action(action: Action, rules: Rules = DEFAULT_RULES) -> int:
    """The uint32 word of one action (layout in the module docstring)."""
    check_rules(rules)
    check_type(action, Action, "action", "a lumicore.lucia.Action")
    word = _KIND[action.kind]
    if action.kind in ("move", "wild"):
        mask = sum(1 << code for role in action.roles for code in _CODES[role])
        word |= mask << 4 | action.steps << 16
    elif action.kind == "light":
        word |= (H_LIT if action.source == "H" else TOMTEN) << 16
    elif rules.lucia_partial:
        word |= 1 << 20
    return word


def card_table(cards: Iterable[Card], rules: Rules = DEFAULT_RULES) -> np.ndarray:
    """The kernel's card table; raises :class:`LumicoreError` for anything but Cards."""
    rows = []
    for card in check_cards("cards", cards):
        words = [encode_action(a, rules) for a in card.actions]
        rows.append(words + [0] * (2 - len(words)))
    if not rows:
        raise LumicoreError("at least one card is needed")
    if len(rows) > 65535:
        raise LumicoreError("at most 65535 card kinds")
    return np.array(rows, dtype=np.uint32).reshape(-1, 2)


_PLAYS: dict[tuple, tuple[tuple, _k.CardPlays]] = {}


def card_plays(kinds: tuple[Card, ...], rules: Rules = DEFAULT_RULES) -> _k.CardPlays:
    """The kernel's :class:`CardPlays` of ``kinds`` (checked), kept by the tuple's identity: a
    game state and its clones share their tuple of kinds, and hashing the cards would cost more
    than the plays. Called with a packed train and a row, it gives the row's distinct
    successors in the order of their notation; the caller makes sure both are valid."""
    rules = check_rules(rules)
    return cached_by_identity(_PLAYS, kinds, (rules,),
                              lambda: _k.CardPlays(card_table(kinds, rules)))


def _nibbles(states: np.ndarray) -> np.ndarray:
    shifts = np.arange(0, 64, 4, dtype=np.uint64)
    return ((states[:, None] >> shifts) & np.uint64(15)).astype(np.int8)


def _python_words(items: np.ndarray, name: str = "packed trains") -> np.ndarray:
    """Python ints (any mix of sizes) as uint64; a :class:`NotationError` naming ``name`` for
    anything else."""
    words = items.reshape(-1).tolist()
    if not all(isinstance(w, numbers.Integral) and not isinstance(w, bool) and 0 <= int(w) < 1 << 64
               for w in words):
        raise NotationError(f"{name} must be non-negative 64-bit integers")
    return np.array(words, dtype=np.uint64)


def _words(states: object, name: str = "packed trains") -> np.ndarray:
    """``states`` (integers, numpy's or Python's) as a contiguous 1-dimensional uint64 array;
    a :class:`NotationError` naming ``name`` unless each is a non-negative 64-bit integer."""
    try:
        arr = np.asarray(states)
    except (ValueError, TypeError, OverflowError):  # ragged nesting, a value numpy refuses
        raise NotationError(f"{name} must be non-negative 64-bit integers") from None
    if arr.dtype == object or (arr.dtype.kind == "f" and not isinstance(states, np.ndarray)):
        # a list mixing words above and below 2**63 (short and full trains): numpy makes floats
        arr = _python_words(np.asarray(states, dtype=object), name)
    if arr.dtype != np.uint64:
        if arr.size and (arr.dtype.kind not in "iu" or arr.min() < 0):
            raise NotationError(f"{name} must be non-negative 64-bit integers")
        arr = arr.astype(np.uint64)
    return np.ascontiguousarray(arr.reshape(-1))


def check_states(states: Sequence[int] | np.ndarray) -> np.ndarray:
    """States as a contiguous uint64 array after checking each is a packed legal train (all
    nibbles valid codes, empties only at the end, one Lucia, no Gingerbread next to a Starboy);
    the first bad one is named in a :class:`NotationError`."""
    arr = _words(states, "states")
    nib = _nibbles(arr)
    empty = nib == EMPTY
    bad = ((nib > LUCIA5) & ~empty).any(1)
    bad |= (empty[:, :-1] & ~empty[:, 1:]).any(1) | empty[:, 0]
    bad |= ((nib >= LUCIA0) & (nib <= LUCIA5)).sum(1) != 1
    pair = ((nib[:, :-1] == STARBOY) & (nib[:, 1:] == GINGER)) | \
        ((nib[:, :-1] == GINGER) & (nib[:, 1:] == STARBOY))
    bad |= pair.any(1)
    if bad.any():
        i = int(np.argmax(bad))
        Train.from_packed(int(arr[i]))  # raises the precise error
        raise NotationError(f"state #{i} is not a legal packed train")  # pragma: no cover
    return arr


def pack_trains(trains: Iterable[Train]) -> np.ndarray:
    """The trains' packed forms as a ``uint64`` array, the kernel's input."""
    if isinstance(trains, (str, bytes)) or not isinstance(trains, Iterable):
        raise LumicoreError(f"trains must be a list of Trains, got {shorten(trains)}")
    trains = list(trains)
    if not all(isinstance(t, Train) for t in trains):
        raise LumicoreError(f"trains must be a list of Trains, got {shorten(trains)}")
    return np.array([t.packed for t in trains], dtype=np.uint64)


def _table(table: np.ndarray) -> np.ndarray:
    if not (isinstance(table, np.ndarray) and table.dtype == np.uint32 and table.ndim == 2
            and table.shape[1] == 2 and 1 <= len(table) <= 65535):
        raise LumicoreError("card table must come from card_table()")
    return np.ascontiguousarray(table)


# ---- the pattern-database primitives, for lumicore.lucia.pdb ---------------------------------

def _small_ints(values: object, name: str) -> tuple[object, ...]:
    """``values`` as a tuple if it is a sequence of at most three items (a pattern database
    keeps at most three roles); else a :class:`LumicoreError` naming ``name``."""
    if isinstance(values, (str, bytes)) or not isinstance(values, (Sequence, np.ndarray)) \
            or len(values) > 3:
        raise LumicoreError(f"{name} must be a sequence of at most three integers (one a role), "
                            f"got {shorten(values)}")
    return tuple(values)


def _pdb_spec(n: object, codes: object, counts: object
              ) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """``(n, codes, counts)`` of a pattern database if they are one: trains of ``n`` kids
    (1..16) keeping at most three distinct roles, ``codes`` kid codes (not Lucia's), with
    ``counts`` of each that leave Lucia a place; else a :class:`LumicoreError` naming the
    argument (C took any code, and read 1.0 as 1 and True as 1)."""
    n = check_int(n, "n", 1, MAX_KIDS, f"a train length from 1 to {MAX_KIDS}")
    codes_in, counts_in = _small_ints(codes, "codes"), _small_ints(counts, "counts")
    if len(counts_in) != len(codes_in):
        raise LumicoreError(f"counts must hold one count per role of codes, got "
                            f"{shorten(counts)} for {shorten(codes)}")
    codes_out = tuple(check_int(c, "codes", 0, LUCIA0 - 1, f"kid codes from 0 to {LUCIA0 - 1} "
                                "(not Lucia's)") for c in codes_in)
    if len(set(codes_out)) != len(codes_out):
        raise LumicoreError(f"codes must be distinct roles, got {shorten(codes)}")
    counts_out = tuple(check_int(c, "counts", 0, n - 1) for c in counts_in)
    if sum(counts_out) > n - 1:
        raise LumicoreError(f"counts must sum to at most n - 1 = {n - 1} (Lucia takes a place), "
                            f"got {shorten(counts)}")
    return n, codes_out, counts_out


def pdb_size(n: int, codes: Sequence[int], counts: Sequence[int]) -> int:
    """Entries of a pattern database for trains of ``n`` kids keeping the roles ``codes`` (kid
    codes) with ``counts`` of each; a :class:`LumicoreError` naming a bad argument.

    >>> pdb_size(4, (STARBOY,), (1,))
    12
    """
    return _k.pdb_size(*_pdb_spec(n, codes, counts))


def pdb_ranks(states: Sequence[int] | np.ndarray, n: int, codes: Sequence[int],
              counts: Sequence[int]) -> np.ndarray:
    """The database index (int64) of each packed train of ``states`` (any 64-bit words: one
    that does not fit the database gets :func:`pdb_size`)."""
    spec = _pdb_spec(n, codes, counts)
    return _k.pdb_ranks(_words(states, "states"), *spec)


def pdb_build(goals: Sequence[int] | np.ndarray, cards: np.ndarray, n: int,
              codes: Sequence[int], counts: Sequence[int],
              progress: Callable[[int, int], object] | None = None) -> np.ndarray:
    """The kernel's database (uint8 distances, 255: no goal reachable) of the abstract
    ``goals`` under the abstract card table ``cards`` (see ``pdb_build`` in ext/lucia.pyx and
    :func:`lumicore.lucia.pdb.build_pdb`, which calls it); ``progress(depth, states)`` after
    each layer."""
    spec = _pdb_spec(n, codes, counts)
    if progress is not None and not callable(progress):
        raise LumicoreError(f"progress must be callable or None, got {shorten(progress)}")
    return _k.pdb_build(_words(goals, "goals"), _table(cards), *spec, progress)


def successors(packed: int, table: np.ndarray, card: int) -> np.ndarray:
    """Distinct successors (uint64) of one packed train for row ``card`` of ``table``."""
    train = Train.from_packed(packed)   # one integer, a legal train
    table = _table(table)
    card = check_index(card, len(table), "card index", "a row of the card table")
    return _k.successors(train.packed, table, card)


def expand(states: Sequence[int] | np.ndarray, table: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every state for every card: ``(successors, parent index, card index)``, the successors
    distinct per (state, card)."""
    return _k.expand(check_states(states), _table(table))


def count_successors(states: np.ndarray, table: np.ndarray) -> int:
    """The number of successors :func:`expand` would produce (for benchmarks)."""
    return _k.count_successors(check_states(states), _table(table))


def goal_mask(states: Sequence[int] | np.ndarray) -> np.ndarray:
    """For packed trains (checked), a boolean array: which are goals (the kernel's test)."""
    return _k.goal_mask(check_states(states))


def heuristic(states: Sequence[int] | np.ndarray, htable: HeuristicTable,
              pdbs: Sequence[_pdb.PatternDatabase] = ()) -> np.ndarray:
    """Kernel heuristic values (uint8; 255 = unreachable) for trains of ``htable``'s shape
    (its length and its numbers of Starboys and Handmaidens; another is a
    :class:`LumicoreError` naming the first such train): the covering table, max-combined with
    the pattern databases ``pdbs`` when given (a state that does not fit a database gets
    nothing from it)."""
    arr = check_states(states)
    _check_shape(arr, _check_htable(htable))
    pdbs = _check_pdbs(pdbs)
    if not pdbs:
        return _k.heuristic(arr, htable.values, htable.target, htable.locked)
    return _heuristic_object(htable, pdbs)(arr)


def _heuristic_object(htable: HeuristicTable, pdbs: Sequence[_pdb.PatternDatabase]) -> Any:
    heur = _k.Heuristic(htable.values, htable.target, htable.locked)
    if len(pdbs) > 2:
        raise LumicoreError("at most two pattern databases")
    for db in pdbs:
        if not isinstance(db, _pdb.PatternDatabase) or db.length != htable.length:
            raise LumicoreError("pattern database does not fit the heuristic table's trains")
        heur.add_pdb(db.values, db.length, db.codes, db.counts)
    return heur


def _check_htable(htable: object) -> HeuristicTable:
    """``htable`` if it is a :class:`HeuristicTable` the kernel can read: its shape fields
    whole numbers of a train (1..16 kids), ``values`` a C-contiguous uint8 array of the sizes
    :func:`~lumicore.lucia.heuristic.build_table` gives that shape, ``target`` the shape's sum
    of Starboy goal positions and ``locked`` a bool; else a :class:`LumicoreError` naming
    ``htable`` (a table made by hand reached C, which raised ValueError or OverflowError, or
    read a target of no meaning)."""
    htable = check_type(htable, HeuristicTable, "htable",
                        "a HeuristicTable (heuristic.build_table)")
    n, m, h = htable.shape
    if not (is_integer(n) and is_integer(m) and is_integer(h) and 1 <= n <= 16
            and 0 <= m < n and 0 <= h < n):
        raise LumicoreError(f"htable must be for trains of 1 to 16 kids, got the shape "
                            f"{shorten(htable.shape)}")
    sizes = (MAX_CANDLES + 1, MAX_CANDLES + h + 1, m * (n - m) + 1, n)
    values = htable.values
    if not (isinstance(values, np.ndarray) and values.dtype == np.uint8
            and values.flags.c_contiguous and values.shape == sizes):
        got = (f"{values.dtype} {values.shape}" if isinstance(values, np.ndarray)
               else shorten(values))
        raise LumicoreError(f"htable.values must be a C-contiguous uint8 array {sizes} "
                            f"(heuristic.build_table), got {got}")
    target = sum(range(n - m, n))
    if not is_integer(htable.target) or htable.target != target:
        raise LumicoreError(f"htable.target must be {target} for its trains, "
                            f"got {shorten(htable.target)}")
    check_bool(htable.locked, "htable.locked")
    return htable


def _check_pdbs(pdbs: object) -> tuple[_pdb.PatternDatabase, ...]:
    if isinstance(pdbs, (str, bytes)) or not isinstance(pdbs, Iterable):
        raise LumicoreError(f"pdbs must be a sequence of PatternDatabase, got {shorten(pdbs)}")
    out = tuple(pdbs)
    if len(out) > 2:
        raise LumicoreError("at most two pattern databases")
    for db in out:
        if not isinstance(db, _pdb.PatternDatabase):
            raise LumicoreError(f"pdbs must be PatternDatabase objects (pdb.load_pdb), "
                                f"got {shorten(db)}")
    return out


def _deadline(time_limit: object) -> float:
    """The kernel clock's deadline ``time_limit`` seconds from now (None: 0.0, none); a
    :class:`SearchLimitError` unless it is a positive finite number (the kernel reads a
    deadline at or below 0 as none: ``-1e9`` seconds dropped the limit)."""
    seconds = check_time_limit(time_limit)
    return 0.0 if seconds is None else _k.monotonic() + seconds


def _check_shape(arr: np.ndarray, htable: HeuristicTable) -> None:
    """A :class:`LumicoreError` naming the first of the (checked) states ``arr`` that has not
    ``htable``'s length, Starboys and Handmaidens (:func:`lumicore.lucia.heuristic.
    check_shape`'s error): the table's values are for those only (the kernel would read
    another train's deficits in it, clamped, a number of no meaning)."""
    nib = _nibbles(arr)
    shapes = np.stack([(nib != EMPTY).sum(1), (nib == STARBOY).sum(1),
                       ((nib == H_UNLIT) | (nib == H_LIT)).sum(1)], axis=1)
    bad = (shapes != htable.shape).any(1)
    if bad.any():
        check_shape(Train.from_packed(int(arr[int(np.argmax(bad))])), htable)


class SearchOutcome(NamedTuple):
    """What a kernel search returns: ``status`` (a word of :mod:`solvers.limits`), ``reason``
    (why a limit or the user stopped it, else None), the path (``states`` from the start to a
    goal, ``cards`` the card row of each step) when found, the counts, and ``bound``: a lower
    bound on the optimum proven so far (BFS: depth reached; A*: highest f expanded; IDA*: the
    threshold of the last finished iteration; the cost when found)."""

    status: str
    reason: str | None
    states: list[int]
    cards: list[int]
    nodes: int
    expanded: int
    generated: int
    bound: int


def check_max_nodes(algorithm: str, max_nodes: int | None) -> int:
    """The node cap the kernel gets: ``max_nodes`` (None: the largest) after checking it fits."""
    cap = MAX_VISITS if algorithm == "idastar" else MAX_NODES
    if max_nodes is None:
        return cap
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, numbers.Integral) \
            or not 1 <= max_nodes <= cap:
        what = "visits (IDA*)" if algorithm == "idastar" else "stored states (32-bit indices)"
        raise SearchLimitError(f"max_nodes must be an integer from 1 to {cap:,} {what}, "
                               f"got {shorten(max_nodes)}")
    return int(max_nodes)


def check_weight(algorithm: str, weight: object) -> None:
    """:class:`LumicoreError` unless ``weight`` is an integer 1..MAX_WEIGHT, and 1 unless
    ``algorithm`` is ``"astar"``."""
    check_int(weight, "weight", 1, MAX_WEIGHT)
    if weight != 1 and algorithm != "astar":
        raise LumicoreError(f"weight is for astar only, not {algorithm!r}")


def search(algorithm: str, train: Train, table: np.ndarray, htable: HeuristicTable | None,
           max_nodes: int | None, time_limit: float | None, weight: int = 1,
           max_memory: int | None = None,
           progress: Callable[[int, int, int, float], object] | None = None,
           pdbs: Sequence[_pdb.PatternDatabase] = (), upper: int | None = None) -> SearchOutcome:
    """Run ``bfs``, ``astar`` or ``idastar`` in the kernel. ``weight`` (A* only,
    1..MAX_WEIGHT) orders the open list by ``g + weight * h``. ``max_memory`` (bytes, BFS and
    A*) caps the search's tables; ``progress(nodes, expanded, bound, elapsed)`` is called every
    few thousand expansions (Ctrl-C is checked then too: status ``"interrupted"``). ``pdbs``
    (A*, IDA*; at most two, each fitting ``train``) are max-combined with ``htable`` (A*,
    IDA*; built for ``train``'s shape: its length, Starboys and Handmaidens).
    ``upper`` (A* with weight 1): the length of a known plan; only shorter ones are looked for,
    and status ``"unsolvable"`` then means none is shorter."""
    check_type(train, Train, "train", "a lumicore.lucia.Train")
    table = _table(table)
    limit = check_max_nodes(algorithm, max_nodes)
    deadline = _deadline(time_limit)
    pdbs = _check_pdbs(pdbs)
    check_weight(algorithm, weight)
    if max_memory is None:
        max_bytes = (1 << 64) - 1
    elif isinstance(max_memory, bool) or not isinstance(max_memory, numbers.Integral) \
            or not 1 <= max_memory < 1 << 64:
        raise SearchLimitError(f"max_memory must be a positive number of bytes, "
                               f"got {shorten(max_memory)}")
    else:
        max_bytes = int(max_memory)
        if max_bytes < MIN_MEMORY and algorithm != "idastar":
            raise SearchLimitError(f"max_memory must be at least {MIN_MEMORY:,} bytes (4M): the "
                                   f"first tables of BFS and A* take that much, got {max_bytes:,}")
    if progress is not None and not callable(progress):
        raise LumicoreError(f"progress must be callable, got {shorten(progress)}")
    if algorithm == "bfs":
        out = _k.bfs(train.packed, table, limit, deadline, max_bytes, progress)
    elif algorithm in ("astar", "idastar"):
        if not isinstance(htable, HeuristicTable):
            raise LumicoreError(f"a heuristic table for this train is needed, got "
                                f"{shorten(htable)}")
        _check_shape(np.array([train.packed], dtype=np.uint64), _check_htable(htable))
        if not all(db.fits(train) for db in pdbs):
            raise LumicoreError(f"a pattern database does not fit the train {train}")
        heur = _heuristic_object(htable, pdbs)
        if algorithm == "astar":
            if upper is not None and (weight != 1 or not isinstance(upper, int)
                                      or not 0 <= upper <= 255):
                raise LumicoreError(f"upper must be a plan length 0..255 (weight 1), "
                                    f"got {shorten(upper)}")
            out = _k.astar(train.packed, table, heur, limit, deadline, weight, max_bytes,
                           progress, 255 if upper is None else upper)
        else:
            out = _k.idastar(train.packed, table, heur, limit, deadline, 20, progress)
    else:
        raise LumicoreError(f"unknown algorithm {algorithm!r}")
    code, states, cards, nodes, expanded, generated, bound = out
    if code == 0:  # found: the cost (BFS reports the depth being generated, 1 at a goal start)
        bound = len(states) - 1
    return SearchOutcome(STATUS[code], REASON.get(code), states, cards, int(nodes),
                         int(expanded), int(generated), int(bound))


# ---------------------------------------------------------------------------------------------
# deals: exact solving with a known deck order (ext/lucia_deal.pxi)

MAX_DEAL_KINDS = 30
"""Most distinct card kinds a deal search takes (5 bits per hand slot in its keys)."""
MAX_DEAL_DECK = 250
"""Most cards left in a deal's deck (after the hands are dealt)."""
MAX_DEAL_PLAYERS = 4
MAX_HAND = 3
DEAL_CODES = {0: "unwinnable", 1: "winnable", 2: "cut", 3: "limit"}
"""Kernel deal result code -> word ("cut": no win within the play bound, not a proof)."""
DEAL_REASONS = {0: None, 1: "nodes", 2: "time", 3: "interrupted", 4: "memory"}


def deal_search(train: Train, kinds: Sequence[Card], deck: Sequence[int],
                hands: Sequence[Sequence[int]], htable: HeuristicTable,
                rules: Rules = DEFAULT_RULES, tt_bits: int = 20) -> _k.DealSearch:
    """A kernel deal search from a position: ``train``, the card ``kinds`` (indices below refer to
    them), the deck still to draw (top first) and the hands in turn order from the player to
    move. Call ``.solve(train.packed, bound, max_nodes, deadline)`` or
    ``.children(train.packed, max_nodes, deadline)`` on it (see ext/lucia_deal.pxi)."""
    if not isinstance(train, Train):
        raise LumicoreError(f"train must be a lumicore.lucia.Train, got {train!r}")
    kinds = tuple(kinds)
    if not 1 <= len(kinds) <= MAX_DEAL_KINDS:
        raise LumicoreError(f"a deal search takes 1..{MAX_DEAL_KINDS} card kinds, "
                            f"got {len(kinds)}")
    table = card_table(kinds, rules)
    _check_deal_cards(len(kinds), deck, hands)
    _check_shape(np.array([train.packed], dtype=np.uint64), _check_htable(htable))
    if isinstance(tt_bits, bool) or not isinstance(tt_bits, (int, np.integer)):
        raise LumicoreError(f"tt_bits must be an integer (4..28 are used), got {tt_bits!r:.80}")
    handmaidens = train.count("H")
    caps = np.array([capacity(c, handmaidens) for c in kinds], dtype=np.intc).reshape(-1, 4)
    covers = np.array([sum(1 << j for j, b in enumerate(kinds) if j != i and a.covers(b))
                       for i, a in enumerate(kinds)], dtype=np.uint32)
    return _k.DealSearch(train.packed, table, np.array(deck, dtype=np.intc),
                         [[int(c) for c in h] for h in hands], caps, covers, htable.values,
                         htable.target, htable.locked, max(4, min(int(tt_bits), 28)))


def _check_deal_cards(kinds: int, deck: Sequence[int], hands: Sequence[Sequence[int]]) -> None:
    """A LumicoreError unless ``deck`` and ``hands`` fit a deal search over ``kinds`` card
    kinds (indices 0..kinds-1, 1..4 hands of at most 3 cards, at most 250 cards in the deck)."""
    if not 1 <= len(hands) <= MAX_DEAL_PLAYERS:
        raise LumicoreError(f"1..{MAX_DEAL_PLAYERS} players, got {len(hands)}")
    if len(deck) > MAX_DEAL_DECK:
        raise LumicoreError(f"at most {MAX_DEAL_DECK} cards left in the deck, got {len(deck)}")
    for what, cards in [("deck", deck), *((f"hand {i + 1}", h) for i, h in enumerate(hands))]:
        if what != "deck" and len(cards) > MAX_HAND:
            raise LumicoreError(f"{what} holds {len(cards)} cards, at most {MAX_HAND}")
        for c in cards:
            if isinstance(c, bool) or not isinstance(c, (int, np.integer)) \
                    or not 0 <= c < kinds:
                raise LumicoreError(f"{what}: card index {c!r} out of range 0..{kinds - 1}")


def redeal(search: _k.DealSearch, kinds: int, deck: Sequence[int],
           hands: Sequence[Sequence[int]]) -> None:
    """Give ``search`` (made by :func:`deal_search` for ``kinds`` card kinds) a new deal from
    the same train: ``deck`` and ``hands`` as :func:`deal_search` takes them. Its
    transposition table (tens of MB) is reused, not allocated again; what it held of earlier
    deals no longer matches."""
    _check_deal_cards(kinds, deck, hands)
    search.reset(np.array(deck, dtype=np.intc), [[int(c) for c in h] for h in hands])


DEAL_NODES = 1 << 62
"""The most node visits a deal search counts to: its limit where there is none (or a larger
one), which its 64-bit counters never reach."""


def deal_node_limit(max_nodes: int | None) -> int:
    """The node limit a deal search takes for ``max_nodes`` (checked by the caller: None or a
    positive whole number): at most :data:`DEAL_NODES`, so that any Python int fits the
    kernel's counter.

    >>> deal_node_limit(None) == deal_node_limit(10**30) == DEAL_NODES
    True
    """
    if max_nodes is None:
        return DEAL_NODES
    return min(int(check_real(max_nodes, "max_nodes", "None or a positive whole number",
                              at_least=1)), DEAL_NODES)


def deal_deadline(time_limit: float | None) -> float:
    """The kernel clock's deadline ``time_limit`` seconds from now (0: none), as a search
    takes it: a :class:`SearchLimitError` unless ``time_limit`` is None or a positive finite
    number of seconds."""
    return _deadline(time_limit)
