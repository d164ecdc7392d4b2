"""The Lemuria kernel's steps stated plainly, in Python: the twins the Cython kernel
(:mod:`lumicore.lemuria.kernel`) is tested against.

:func:`building_turn` is one turn of the building side's dynamic program of the bound
(``solvers.lemuria.bound``, the "upper bound" of docs/lemuria.md), read backwards from the end
of the year: what the best relaxed year is worth from the start of this turn, for each Trend
row state, number of facilities owned and set of districts holding a chit.

>>> import numpy as np
>>> nxt = np.zeros((1, 3, 16)); nxt[0, 1, 0b0001] = 5.0
>>> succ = np.array([[0, 0, -1, -1, -1, -1]])
>>> gains = np.full((4, 1, 5), 2.0)
>>> out = building_turn(nxt, succ, gains, only=-1, remodel=False, bonus=np.zeros(16), admin=3)
>>> float(out[0, 0, 0])  # build from slot 1 (2 VP), the chit in district 0 (5 VP after)
7.0
"""

from __future__ import annotations

import numpy as np

__all__ = ["NEG", "building_turn"]

NEG = -1e18
"""The value of a state no relaxed year reaches."""


def building_turn(nxt: np.ndarray, succ: np.ndarray, gains: np.ndarray, only: int,
                  remodel: bool, bonus: np.ndarray, admin: int) -> np.ndarray:
    """Values (R, F, B) from the start of a turn.

    ``nxt[j, n, b]``: the value from the end of the turn (the next turn's start, festival
    shares included) in next row state ``j`` owning ``n`` facilities with chit pattern ``b``.
    ``succ[i, 0]``: the next row state of row state ``i`` when nothing is built;
    ``succ[i, s + 1]``: when the card in slot ``s`` is built (-1: no card there).
    ``gains[k, i, s]``: what building that card earns (VP, trend bonus, housing value less its
    priced cost): ``k`` = 0 without and 1 with an Administrative chit (which makes a card of
    the first three slots cheaper), 2 and 3 the same for a remodel. ``only``: -1 any option,
    0 no build, 1..5 that slot only. ``remodel``: remodels are allowed this turn. ``bonus[b]``:
    the turn-start value of chit pattern ``b``. ``admin``: the Administrative district's bit.

    A state may build nothing (the state after), build a new facility (one more owned, and a
    chit placed in the district that is best afterwards; at most ``F - 1`` owned) or remodel
    (as many owned, no new chit; at least one owned).
    """
    R, F, B = succ.shape[0], nxt.shape[1], nxt.shape[2]
    out = np.empty((R, F, B))
    for i in range(R):
        for n in range(F):
            for b in range(B):
                best = NEG if only > 0 else nxt[succ[i, 0], n, b]
                for s in range(5):
                    j = succ[i, s + 1]
                    if j < 0 or (only >= 0 and only != s + 1):
                        continue
                    k = (b >> admin) & 1
                    if n < F - 1:
                        chit = max(nxt[j, n + 1, b | (1 << d)] for d in range(4))
                        best = max(best, gains[k, i, s] + chit)
                    if remodel and n >= 1:
                        best = max(best, gains[2 + k, i, s] + nxt[j, n, b])
                out[i, n, b] = best + bonus[b]
    return out
