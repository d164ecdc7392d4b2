"""The door to the Cython kernel ``lumicore._ext.lemuria``, with every argument checked before
it reaches C: :func:`building_turn`, one turn of the building side's dynamic program of the
bound of ``solvers.lemuria.bound``, the answer of
:func:`lumicore.lemuria.reference.building_turn`, and :func:`held_draw`, one item of its
character side's program by the cards held, the answer of
:func:`lumicore.lemuria.reference.held_draw`.

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
from lumicore.errors import LumicoreError

__all__ = ["building_turn", "held_draw"]

PATTERNS = 16
"""Chit patterns: a bit for each of the four districts."""


def building_turn(nxt: np.ndarray, succ: np.ndarray, gains: np.ndarray, only: int,
                  remodel: bool, bonus: np.ndarray, admin: int) -> np.ndarray:
    """:func:`lumicore.lemuria.reference.building_turn` in C (the arguments are described
    there); :class:`LumicoreError` for arrays of the wrong shape, or a successor, option or
    district out of range."""
    nxt = _floats(nxt, "nxt", 3)
    gains = _floats(gains, "gains", 3)
    bonus = _floats(bonus, "bonus", 1)
    if not isinstance(succ, np.ndarray) or succ.ndim != 2 or succ.shape[1] != 6:
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
    out = np.empty((R, F, B))
    _k.building_turn(nxt, succ, gains, int(only), bool(remodel), bonus, int(admin), out)
    return out


def held_draw(nxt: np.ndarray, bf: np.ndarray, pg: np.ndarray, pf: np.ndarray, food: float,
              discard: np.ndarray, jm: int, must: int, nxt2: np.ndarray | None = None,
              bf2: np.ndarray | None = None) -> np.ndarray:
    """:func:`lumicore.lemuria.reference.held_draw` in C (the arguments are described there);
    :class:`LumicoreError` for arrays of the wrong shape (``nxt2`` as ``nxt``, ``bf2`` as
    ``bf``, both or neither), ``jm`` outside 0..J - 1 or ``must`` not -1, 0 or 1.

    >>> import numpy as np
    >>> one = np.ones(1)
    >>> held_draw(np.zeros((1, 2, 2)), 3 * one, one, one, 2.0, 0.5 * one, 1, -1)[0].tolist()
    [[3.0, 2.5], [0.0, -0.5]]
    """
    nxt = _floats(nxt, "nxt", 3)
    T, J, Hh = nxt.shape
    by_turn = [_floats(a, name, 1) for a, name in ((bf, "bf"), (pg, "pg"), (pf, "pf"),
                                                   (discard, "discard"))]
    if T < 1 or J < 1 or Hh < 1:
        raise LumicoreError(f"nxt must be (T, J, H) with each at least 1, got {nxt.shape}")
    for array, name in zip(by_turn, ("bf", "pg", "pf", "discard"), strict=True):
        if array.shape != (T,):
            raise LumicoreError(f"{name} must be ({T},), one value a turn, got {array.shape}")
    if isinstance(jm, bool) or not isinstance(jm, (int, np.integer)) or not 0 <= jm < J:
        raise LumicoreError(f"jm must be 0..{J - 1} (residents, below nxt's J), got {jm!r}")
    if isinstance(must, bool) or must not in (-1, 0, 1):
        raise LumicoreError(f"must must be -1 (any way), 0 (not housed) or 1 (housed), "
                            f"got {must!r}")
    if isinstance(food, bool) or not isinstance(food, (int, float, np.number)):
        raise LumicoreError(f"food must be a number, got {type(food).__name__}")
    if (nxt2 is None) != (bf2 is None):
        raise LumicoreError("nxt2 and bf2 go together: give both or neither")
    two = nxt2 is not None
    if two:
        nxt2, bf2 = _floats(nxt2, "nxt2", 3), _floats(bf2, "bf2", 1)
        if nxt2.shape != nxt.shape or bf2.shape != (T,):
            raise LumicoreError(f"nxt2 and bf2 must be shaped as nxt {nxt.shape} and bf "
                                f"({T},), got {nxt2.shape} and {bf2.shape}")
    else:
        nxt2, bf2 = nxt, by_turn[0]
    out = np.empty((T, J, Hh))
    _k.held_draw(nxt, *by_turn[:3], float(food), by_turn[3], int(jm), int(must), nxt2, bf2,
                 two, out)
    return out


def _floats(array: object, name: str, ndim: int) -> np.ndarray:
    if not isinstance(array, np.ndarray) or array.ndim != ndim:
        raise LumicoreError(f"{name} must be a {ndim}-dimensional array, got {_shape(array)}")
    return np.ascontiguousarray(array, dtype=np.float64)


def _shape(value: object) -> str:
    return f"shape {value.shape}" if isinstance(value, np.ndarray) else type(value).__name__
