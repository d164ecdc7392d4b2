# cython: language_level=3
"""One turn of the building side's dynamic program of the Lemuria bound
(``solvers.lemuria.bound``). Private: use :mod:`lumicore.lemuria.kernel`, which checks every
array before it reaches this module; :func:`lumicore.lemuria.reference.building_turn` states
the same step plainly.

Row states of the turn are indexed ``i``, those of the next turn ``j``; a value array holds,
per row state, the facilities owned (0 .. F-1) and the chit pattern (bit d: district d holds a
chit). The numpy version walked the five slots with whole-array operations on arrays of a few
dozen rows, where the interpreter's overhead outweighed the work.
"""

from libc.math cimport INFINITY
from libc.stdint cimport int64_t

import numpy as np

cdef double NEG = -1e18


def building_turn(const double[:, :, ::1] nxt, const int64_t[:, ::1] succ,
                  const double[:, :, ::1] gains, int only, bint remodel,
                  const double[::1] bonus, int admin, double[:, :, ::1] out):
    """Write into ``out`` (R, F, B) the values from the start of the turn: see
    :func:`lumicore.lemuria.reference.building_turn`."""
    cdef Py_ssize_t R = succ.shape[0], Rn = nxt.shape[0]
    cdef Py_ssize_t F = nxt.shape[1], B = nxt.shape[2]
    cdef Py_ssize_t i, j, s, n, b, d, k
    cdef double g, v
    chit_array = np.empty((Rn, F, B))
    cdef double[:, :, ::1] chit = chit_array
    for j in range(Rn):  # the best district for a new chit
        for n in range(F):
            for b in range(B):
                v = nxt[j, n, b | 1]
                for d in range(1, 4):
                    if nxt[j, n, b | (1 << d)] > v:
                        v = nxt[j, n, b | (1 << d)]
                chit[j, n, b] = v
    for i in range(R):
        j = succ[i, 0]
        for n in range(F):
            for b in range(B):
                out[i, n, b] = NEG if only > 0 else nxt[j, n, b]
        for s in range(5):
            j = succ[i, s + 1]
            if j < 0 or (only >= 0 and only != s + 1):
                continue
            for b in range(B):
                k = (b >> admin) & 1
                g = gains[k, i, s]
                for n in range(F - 1):
                    v = g + chit[j, n + 1, b]
                    if v > out[i, n, b]:
                        out[i, n, b] = v
                if remodel:
                    g = gains[2 + k, i, s]
                    for n in range(1, F):
                        v = g + nxt[j, n, b]
                        if v > out[i, n, b]:
                            out[i, n, b] = v
        for n in range(F):
            for b in range(B):
                out[i, n, b] = out[i, n, b] + bonus[b]


cdef inline double housing(const double[:, :, ::1] nxt, const double[::1] bf,
                           const double[:, :, ::1] nxt2, const double[::1] bf2, bint two,
                           Py_ssize_t d, Py_ssize_t j, Py_ssize_t hh, int jm) noexcept nogil:
    """The value of housing the item drawn in turn d (j residents housed before it, hh cards
    held after it): the better of the two kinds where there are two."""
    cdef double v, w
    if j >= jm:
        return NEG
    v = bf[d] + nxt[d, j + 1, hh]
    if two:
        w = bf2[d] + nxt2[d, j + 1, hh]
        if w > v:
            v = w
    return v


def held_draw(const double[:, :, ::1] nxt, const double[::1] bf, const double[::1] pg,
              const double[::1] pf, double food, const double[::1] discard, int jm, int must,
              const double[:, :, ::1] nxt2, const double[::1] bf2, bint two,
              double[:, :, ::1] out):
    """Write into ``out`` (T, J, H) the value of drawing one deck item: see
    :func:`lumicore.lemuria.reference.held_draw` (``must``: -1 any way, 1 only the ways that
    house it, 0 only the others; ``two``: housings of two kinds, the second ``nxt2`` and
    ``bf2``)."""
    cdef Py_ssize_t T = nxt.shape[0], J = nxt.shape[1], Hh = nxt.shape[2]
    cdef Py_ssize_t d, j, h, up, down
    cdef double buy, swap, best, v, housed
    cdef bint house_ok = must != 0, other_ok = must != 1
    for d in range(T):
        swap = -2.0 * pg[d]
        for j in range(J):
            for h in range(Hh):
                up = h + 1 if h + 1 < Hh else Hh - 1
                down = h - 1 if h >= 1 else 0
                buy = -(<double>h) * pg[d]
                best = -INFINITY
                if house_ok:
                    housed = housing(nxt, bf, nxt2, bf2, two, d, j, h, jm)
                    v = buy + housed
                    if v > best:
                        best = v
                    v = NEG
                    if h >= 1:
                        housed = housing(nxt, bf, nxt2, bf2, two, d, j, down, jm)
                        v = swap + housed
                    if v > best:
                        best = v
                if other_ok:
                    v = buy + nxt[d, j, up]
                    if v > best:
                        best = v
                    v = buy - food * pf[d] + nxt[d, j, h]
                    if v > best:
                        best = v
                    v = swap + nxt[d, j, h]
                    if v > best:
                        best = v
                out[d, j, h] = best
            for h in range(1, Hh):
                v = out[d, j, h - 1] - discard[d]
                if v > out[d, j, h]:
                    out[d, j, h] = v
