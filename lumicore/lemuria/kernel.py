"""The door to the Cython kernel ``lumicore._ext.lemuria``, with every argument checked before
it reaches C: :func:`building_turn`, one turn of the building side's dynamic program of the
bound of ``solvers.lemuria.bound``, the answer of
:func:`lumicore.lemuria.reference.building_turn`, and :func:`held_draws`, one item of its
character side's program by the cards held from every state of a branch's festival counts,
the answer of :func:`lumicore.lemuria.reference.held_draws` (:func:`held_draw`: from one).
Every array of values must hold finite numbers: a NaN or an infinity is a
:class:`LumicoreError` naming the argument (the kernel and its twin would part ways on it).

>>> import numpy as np
>>> from lumicore.lemuria import reference
>>> rng = np.random.default_rng(0)
>>> nxt, succ = rng.normal(size=(3, 9, 16)), rng.integers(-1, 3, size=(4, 6))
>>> succ[:, 0] = 0
>>> gains, bonus = rng.normal(size=(4, 4, 5)), rng.normal(size=16)
>>> fast = building_turn(nxt, succ, gains, only=-1, remodel=True, bonus=bonus, admin=3)
>>> bool((fast == reference.building_turn(nxt, succ, gains, -1, True, bonus, 3)).all())
True
"""

from __future__ import annotations

import numpy as np

from lumicore._ext import lemuria as _k
from lumicore.checks import check_finite, check_real
from lumicore.data import shorten
from lumicore.errors import LumicoreError

__all__ = ["building_turn", "held_draw", "held_draws", "held_step", "waiting_release"]

PATTERNS = 16
"""Chit patterns: a bit for each of the four districts."""


def building_turn(nxt: np.ndarray, succ: np.ndarray, gains: np.ndarray, only: int,
                  remodel: bool, bonus: np.ndarray, admin: int) -> np.ndarray:
    """:func:`lumicore.lemuria.reference.building_turn` in C (the arguments are described
    there); :class:`LumicoreError` for arrays of the wrong shape or holding a NaN or an
    infinity, or a successor, option or district out of range."""
    nxt = _floats(nxt, "nxt", 3)
    gains = _floats(gains, "gains", 3)
    bonus = _floats(bonus, "bonus", 1)
    # whole numbers only: the cast to int64 truncated 1.9 to 1 and read True as state 1
    if not isinstance(succ, np.ndarray) or succ.ndim != 2 or succ.dtype.kind not in "iu":
        what = f"{_shape(succ)} of {succ.dtype}" if isinstance(succ, np.ndarray) \
            else _shape(succ)
        raise LumicoreError(f"succ must be a 2-dimensional array of whole numbers, got {what}")
    if succ.shape[1] != 6:
        raise LumicoreError(f"succ must be an (R, 6) array, got {_shape(succ)}")
    succ = np.ascontiguousarray(succ, dtype=np.int64)
    R, (Rn, F, B) = succ.shape[0], nxt.shape
    if B != PATTERNS or F < 2 or Rn < 1:
        raise LumicoreError(f"nxt must be (R', F >= 2, {PATTERNS}), got {nxt.shape}")
    if gains.shape != (4, R, 5) or bonus.shape != (PATTERNS,):
        raise LumicoreError(f"gains must be (4, {R}, 5) and bonus ({PATTERNS},), got "
                            f"{gains.shape} and {bonus.shape}")
    if R and (succ.min() < -1 or succ.max() >= Rn or succ[:, 0].min() < 0):
        raise LumicoreError(f"succ holds a row state outside -1..{Rn - 1} (or -1 for no build)")
    if isinstance(only, bool) or not isinstance(only, (int, np.integer)) or not -1 <= only <= 5:
        raise LumicoreError(f"only must be -1 (any), 0 (no build) or a slot 1..5, got {only!r}")
    if isinstance(admin, bool) or not isinstance(admin, (int, np.integer)) or not 0 <= admin < 4:
        raise LumicoreError(f"admin must be a district bit 0..3, got {admin!r}")
    if not isinstance(remodel, (bool, np.bool_)):
        raise LumicoreError(f"remodel must be True or False, got {shorten(remodel)}")
    out = np.empty((R, F, B))
    _k.building_turn(nxt, succ, gains, int(only), bool(remodel), bonus, int(admin), out)
    return out


def held_draw(nxt: np.ndarray, bf: np.ndarray, pg: np.ndarray, pf: np.ndarray, food: float,
              discard: np.ndarray, jm: int, must: int, nxt2: np.ndarray | None = None,
              bf2: np.ndarray | None = None, pending: int = 0) -> np.ndarray:
    """:func:`lumicore.lemuria.reference.held_draw` in C (the arguments are described there):
    :func:`held_draws` from one state (two where there is a second kind of housing, ``nxt2``
    the state it leads to); :class:`LumicoreError` for arrays of the wrong shape (``nxt2`` as
    ``nxt``, ``bf2`` as ``bf``, both or neither), ``jm`` outside 0..J - 1 or ``must`` not -1,
    0 or 1.

    >>> import numpy as np
    >>> one = np.ones(1)
    >>> held_draw(np.zeros((1, 2, 2)), 3 * one, one, one, 2.0, 0.5 * one, 1, -1)[0].tolist()
    [[3.0, 2.5], [0.0, -0.5]]
    """
    nxt = _floats(nxt, "nxt", 3)
    if min(nxt.shape) < 1:
        raise LumicoreError(f"nxt must be (T, J, H) with each at least 1, got {nxt.shape}")
    bf = _floats(bf, "bf", 1)
    if bf.shape != nxt.shape[:1]:
        raise LumicoreError(f"bf must be ({nxt.shape[0]},), one value a turn, got {bf.shape}")
    if (nxt2 is None) != (bf2 is None):
        raise LumicoreError("nxt2 and bf2 go together: give both or neither")
    if nxt2 is None or bf2 is None:
        return held_draws(nxt[None], bf[None], np.zeros((0, 1), dtype=np.int64),
                          np.zeros(1, dtype=np.int64), pg, pf, food, discard, jm, must,
                          _pending(pending, 1))[0]
    nxt2, bf2 = _floats(nxt2, "nxt2", 3), _floats(bf2, "bf2", 1)
    if nxt2.shape != nxt.shape or bf2.shape != bf.shape:
        raise LumicoreError(f"nxt2 and bf2 must be shaped as nxt {nxt.shape} and bf "
                            f"{bf.shape}, got {nxt2.shape} and {bf2.shape}")
    return held_draws(np.stack([nxt, nxt2]), np.stack([bf2, bf]),
                      np.array([[1, -1]], dtype=np.int64), np.zeros(2, dtype=np.int64), pg, pf,
                      food, discard, jm, must, _pending(pending, 2))[0]


def held_draws(nxt: np.ndarray, values: np.ndarray, succ: np.ndarray, least: np.ndarray,
               pg: np.ndarray, pf: np.ndarray, food: float, discard: np.ndarray, jm: int,
               must: int, pending: np.ndarray | None = None,
               housings: np.ndarray | None = None, onto: np.ndarray | None = None,
               free_swap: np.ndarray | None = None) -> np.ndarray:
    """:func:`lumicore.lemuria.reference.held_draws` in C: the first array of
    :func:`held_step`.

    >>> import numpy as np
    >>> one = np.ones(1)
    >>> nxt = np.zeros((2, 1, 2, 1)); nxt[1, 0, 1, 0] = 4.0
    >>> draws = held_draws(nxt, np.array([[2.0], [3.0]]), np.array([[1, -1]]),
    ...                    np.array([0, 1]), one, one, 0.0, one, 1, 1)
    >>> draws[:, 0, 0, 0].tolist()  # state 0 houses it in the first part; none in 1 has j = 0
    [6.0, -1e+18]
    """
    return held_step(nxt, values, succ, least, pg, pf, food, discard, jm, must, pending,
                     housings, onto, None, free_swap)[0]


def held_step(nxt: np.ndarray, values: np.ndarray, succ: np.ndarray, least: np.ndarray,
              pg: np.ndarray, pf: np.ndarray, food: float, discard: np.ndarray, jm: int,
              must: int, pending: np.ndarray | None = None,
              housings: np.ndarray | None = None, onto: np.ndarray | None = None,
              reset: np.ndarray | None = None, free_swap: np.ndarray | None = None,
              out: tuple[np.ndarray, np.ndarray] | None = None
              ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`lumicore.lemuria.reference.held_step` in C (the arguments are described there):
    the values of drawing an item from every state, and their most from each turn on, written
    into ``out`` when given (two arrays shaped as ``nxt``, see :func:`_outputs`);
    :class:`LumicoreError` for arrays of the wrong shape (``nxt`` (Q, T, J, H), ``values``
    (K + 1, T), ``housings`` (M, K + 1, T), ``succ`` (K, Q) of whole numbers -1..Q - 1,
    ``least`` (Q,) of whole numbers 0..J, ``pending`` (Q,) of whole numbers 0..2**31 - 1,
    none given: zeros, ``onto`` (M, Q) and ``reset`` (Q,) of states 0..Q - 1, ``reset`` a
    state's own where it is another's, ``free_swap`` (Q,) of 0 or 1, none given: zeros),
    ``housings`` without ``onto`` or the other way round, ``jm`` outside 0..J - 1 or ``must``
    not -1, 0 or 1.

    >>> import numpy as np
    >>> one = np.ones(2)
    >>> drawn, best = held_step(np.zeros((1, 2, 1, 1)), np.array([[1.0, 5.0]]),
    ...                         np.zeros((0, 1), dtype=int), np.zeros(1, dtype=int), one, one,
    ...                         0.0, one, 0, -1)
    >>> drawn.ravel().tolist(), best.ravel().tolist()  # no room to house: kept, 0 gold
    ([0.0, 0.0], [0.0, 0.0])
    """
    nxt = _floats(nxt, "nxt", 4)
    Q, T, J, Hh = nxt.shape
    if min(nxt.shape) < 1:
        raise LumicoreError(f"nxt must be (Q, T, J, H) with each at least 1, got {nxt.shape}")
    values = _floats(values, "values", 2)
    if not isinstance(succ, np.ndarray) or succ.ndim != 2 or succ.dtype.kind not in "iu":
        raise LumicoreError(f"succ must be a 2-dimensional array of whole numbers, got "
                            f"{_shape(succ)}")
    K = succ.shape[0]
    if succ.shape != (K, Q):
        raise LumicoreError(f"succ must be (K, {Q}), a state for each, got {succ.shape}")
    if values.shape != (K + 1, T):
        raise LumicoreError(f"values must be ({K + 1}, {T}), a row for each part of the year, "
                            f"got {values.shape}")
    if succ.size and not (-1 <= succ.min() and succ.max() < Q):
        raise LumicoreError(f"succ must hold states -1..{Q - 1} (-1: closed), got "
                            f"{int(succ.min())}..{int(succ.max())}")
    if (not isinstance(least, np.ndarray) or least.shape != (Q,) or least.dtype.kind not in "iu"
            or not (0 <= least.min() and least.max() <= J)):
        raise LumicoreError(f"least must be ({Q},) whole numbers 0..{J}, got {_shape(least)}")
    pending = _pending(pending, Q)
    by_turn = [_floats(a, name, 1) for a, name in ((pg, "pg"), (pf, "pf"),
                                                   (discard, "discard"))]
    for array, name in zip(by_turn, ("pg", "pf", "discard"), strict=True):
        if array.shape != (T,):
            raise LumicoreError(f"{name} must be ({T},), one value a turn, got {array.shape}")
    if isinstance(jm, bool) or not isinstance(jm, (int, np.integer)) or not 0 <= jm < J:
        raise LumicoreError(f"jm must be 0..{J - 1} (residents, below nxt's J), got {jm!r}")
    if isinstance(must, bool) or not isinstance(must, (int, np.integer)) or must not in (-1, 0, 1):
        raise LumicoreError(f"must must be -1 (any way), 0 (not housed) or 1 (housed), "
                            f"got {shorten(must)}")
    food = check_real(food, "food")
    housings, onto = _more_housings(housings, onto, values.shape, Q)
    succ = np.ascontiguousarray(succ, dtype=np.int64)
    least = np.ascontiguousarray(least, dtype=np.int64)
    reset, free_swap = _reset(reset, Q), _flags(free_swap, "free_swap", Q)
    drawn, best_from = _outputs(out, nxt.shape, (nxt, values, housings, succ, least, pending,
                                                 *by_turn, onto, reset, free_swap))
    _k.held_draws(nxt, values, succ, least, pending, by_turn[0], by_turn[1], food,
                  by_turn[2], int(jm), int(must), housings, onto, reset, free_swap, drawn,
                  best_from)
    return drawn, best_from


def _outputs(out: object, shape: tuple[int, ...], inputs: tuple[np.ndarray, ...]
             ) -> tuple[np.ndarray, np.ndarray]:
    """The two arrays a kernel writes: fresh ones (``out`` None) or ``out``'s, which must be
    writeable C-contiguous float64 arrays of ``shape`` that share no memory with each other
    or with the ``inputs`` (every array the kernel reads: it reads them while it writes). A
    caller that steps many times keeps its arrays: fresh ones of this size cost page faults,
    more than the kernel's work on them."""
    if out is None:
        return np.empty(shape), np.empty(shape)
    if not isinstance(out, tuple) or len(out) != 2:
        raise LumicoreError(f"out must be a pair of arrays, got {type(out).__name__}")
    for array in out:
        if (not isinstance(array, np.ndarray) or array.shape != shape
                or array.dtype != np.float64 or not array.flags.c_contiguous
                or not array.flags.writeable):
            raise LumicoreError(f"out must hold writeable C-contiguous float64 arrays of "
                                f"shape {shape}, got {_shape(array)}")
    if any(np.may_share_memory(out[0], other) for other in (out[1], *inputs)) \
            or any(np.may_share_memory(out[1], other) for other in inputs):
        raise LumicoreError("out's arrays must not share memory with each other or the inputs")
    return out[0], out[1]


def _more_housings(housings: object, onto: object, shape: tuple, Q: int
                   ) -> tuple[np.ndarray, np.ndarray]:
    """``housings`` (M, *shape) and ``onto`` (M, Q) of states 0..Q - 1, checked (both None:
    none, M = 0)."""
    if (housings is None) != (onto is None):
        raise LumicoreError("housings and onto go together: give both or neither")
    if housings is None:
        return np.zeros((0, *shape)), np.zeros((0, Q), dtype=np.int64)
    housings = _floats(housings, "housings", 3)
    M = housings.shape[0]
    if housings.shape[1:] != shape:
        raise LumicoreError(f"housings must be (M, {shape[0]}, {shape[1]}), shaped as values "
                            f"for each kind, got {housings.shape}")
    if (not isinstance(onto, np.ndarray) or onto.shape != (M, Q) or onto.dtype.kind not in "iu"
            or (onto.size and not (0 <= onto.min() and onto.max() < Q))):
        raise LumicoreError(f"onto must be ({M}, {Q}) states 0..{Q - 1}, got {_shape(onto)}")
    return housings, np.ascontiguousarray(onto, dtype=np.int64)


WAITING_MOST = 8
"""The most waiting cards :func:`waiting_release` takes (2**8 subsets)."""


def waiting_release(drawn: np.ndarray, upto: np.ndarray, succ: np.ndarray,
                    reset: np.ndarray | None = None,
                    out: tuple[np.ndarray, np.ndarray] | None = None
                    ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`lumicore.lemuria.reference.waiting_release` in C (the arguments are described
    there), written into ``out`` when given (two arrays shaped as ``drawn``, see
    :func:`_outputs`); :class:`LumicoreError` for arrays of the wrong shape (``drawn`` (Q, T, J, H),
    ``upto`` (W, K + 1, T) with W at most ``WAITING_MOST`` and 2**W dividing Q, ``succ`` (K,
    Q) of whole numbers -1..Q - 1 that keep each state's subset, ``reset`` as for
    :func:`held_step`).

    >>> import numpy as np
    >>> drawn = np.zeros((2, 1, 2, 1)); drawn[1, 0, 1, 0] = -5.0
    >>> closed, best = waiting_release(drawn, np.array([[[3.0]]]), np.zeros((0, 2), dtype=int))
    >>> closed[:, 0, :, 0].tolist()  # state 1 (the card waiting) houses it: 3 + 0
    [[0.0, 0.0], [3.0, -5.0]]
    """
    drawn = _floats(drawn, "drawn", 4)
    Q, T, J, Hh = drawn.shape
    if min(drawn.shape) < 1:
        raise LumicoreError(f"drawn must be (Q, T, J, H) with each at least 1, got {drawn.shape}")
    upto = _floats(upto, "upto", 3)
    W = upto.shape[0]
    if W > WAITING_MOST or Q % (1 << W) or upto.shape[2] != T:
        raise LumicoreError(f"upto must be (W, K + 1, {T}) with W at most {WAITING_MOST} and "
                            f"2**W dividing {Q}, got {upto.shape}")
    if not isinstance(succ, np.ndarray) or succ.ndim != 2 or succ.dtype.kind not in "iu":
        raise LumicoreError(f"succ must be a 2-dimensional array of whole numbers, got "
                            f"{_shape(succ)}")
    if succ.shape != (upto.shape[1] - 1, Q):
        raise LumicoreError(f"succ must be ({upto.shape[1] - 1}, {Q}), a state for each part "
                            f"but the last of upto, got {succ.shape}")
    S = 1 << W
    if succ.size and not (-1 <= succ.min() and succ.max() < Q):
        raise LumicoreError(f"succ must hold states -1..{Q - 1} (-1: closed), got "
                            f"{int(succ.min())}..{int(succ.max())}")
    if ((succ >= 0) & (succ % S != np.arange(Q) % S)).any():
        raise LumicoreError(f"succ must keep each state's subset (the state modulo {S})")
    succ, reset = np.ascontiguousarray(succ, dtype=np.int64), _reset(reset, Q)
    closed, best_from = _outputs(out, drawn.shape, (drawn, upto, succ, reset))
    _k.waiting_release(drawn, upto, succ, reset, closed, best_from)
    return closed, best_from


def _flags(flags: object, name: str, Q: int) -> np.ndarray:
    """``flags`` as (Q,) whole numbers 0 or 1, booleans too (None: zeros)."""
    if flags is None:
        return np.zeros(Q, dtype=np.int64)
    if (not isinstance(flags, np.ndarray) or flags.shape != (Q,)
            or flags.dtype.kind not in "iub" or (Q and not (0 <= flags.min()
                                                           and flags.max() <= 1))):
        raise LumicoreError(f"{name} must be ({Q},) flags 0 or 1, got {_shape(flags)}")
    return np.ascontiguousarray(flags, dtype=np.int64)


def _reset(reset: object, Q: int) -> np.ndarray:
    """``reset`` as (Q,) states 0..Q - 1 (None: each state its own), a state's own wherever it
    is another's (the kernel reads those states' values first)."""
    if reset is None:
        return np.arange(Q, dtype=np.int64)
    if (not isinstance(reset, np.ndarray) or reset.shape != (Q,)
            or reset.dtype.kind not in "iu" or (Q and not (0 <= reset.min()
                                                           and reset.max() < Q))):
        raise LumicoreError(f"reset must be ({Q},) states 0..{Q - 1}, got {_shape(reset)}")
    reset = np.ascontiguousarray(reset, dtype=np.int64)
    if (reset[reset] != reset).any():
        raise LumicoreError("reset must lead to states that are their own reset")
    return reset


def _pending(pending: object, Q: int) -> np.ndarray:
    """``pending`` as (Q,) whole numbers 0..2**31 - 1 (a number: that many in every state;
    None: 0)."""
    if pending is None:
        pending = 0
    if isinstance(pending, (int, np.integer)) and not isinstance(pending, bool):
        pending = np.full(Q, int(pending), dtype=np.int64) if 0 <= pending < 2**31 else None
    if (not isinstance(pending, np.ndarray) or pending.shape != (Q,)
            or pending.dtype.kind not in "iu"
            or (Q and not (0 <= pending.min() and pending.max() < 2**31))):
        raise LumicoreError(f"pending must be ({Q},) whole numbers 0..2**31 - 1, got "
                            f"{_shape(pending)}")
    return np.ascontiguousarray(pending, dtype=np.int64)


def _floats(array: object, name: str, ndim: int) -> np.ndarray:
    """``array`` as C-contiguous float64: an array of ``ndim`` dimensions of finite real
    numbers (not text, objects or complex numbers, which numpy would refuse or cut to their
    real part, and no NaN or infinity, on which the kernel and its twin part ways: C's
    comparisons are false with a NaN where numpy's max keeps it)."""
    if not isinstance(array, np.ndarray) or array.ndim != ndim \
            or array.dtype.kind not in "biuf":
        what = f"{_shape(array)} of {array.dtype}" if isinstance(array, np.ndarray) \
            else _shape(array)
        raise LumicoreError(f"{name} must be a {ndim}-dimensional array of real numbers, "
                            f"got {what}")
    return check_finite(np.ascontiguousarray(array, dtype=np.float64), name)


def _shape(value: object) -> str:
    return f"shape {value.shape}" if isinstance(value, np.ndarray) else type(value).__name__
