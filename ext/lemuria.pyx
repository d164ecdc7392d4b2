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


def held_draws(const double[:, :, :, ::1] nxt, const double[:, ::1] values,
               const int64_t[:, ::1] succ, const int64_t[::1] least,
               const double[::1] pg, const double[::1] pf,
               double food, const double[::1] discard, int jm, int must,
               double[:, :, :, ::1] out, double[:, :, :, ::1] best_from):
    """Write into ``out`` (Q, T, J, H) the value of drawing one deck item from each state
    (see :func:`lumicore.lemuria.reference.held_draws`; ``must``: -1 any way, 1 only the
    ways that house it, 0 only the others), and into ``best_from`` its most from turn d on;
    NEG for j below ``least[q]`` (no path reaches it).
    ``house[h]`` holds the value of housing it with h cards held after the draw: the best
    part of the year to house it in, then the state that part leads to."""
    cdef Py_ssize_t Q = nxt.shape[0], T = nxt.shape[1], J = nxt.shape[2], Hh = nxt.shape[3]
    cdef Py_ssize_t K = succ.shape[0], plane = J * Hh
    cdef Py_ssize_t q, d, j, h, k, r, up
    cdef double buy, swap, best, v, unhoused
    cdef bint house_ok = must != 0, other_ok = must != 1
    house_array = np.empty(Hh)
    cdef double[::1] house = house_array
    cdef const double *row
    cdef const double *up_row
    cdef double *o
    cdef double *b
    cdef const double *after
    with nogil:
        for q in range(Q):
            for d in range(T):
                swap = -2.0 * pg[d]
                for j in range(J):
                    o = &out[q, d, j, 0]
                    if j < least[q]:
                        for h in range(Hh):
                            o[h] = NEG
                        continue
                    row = &nxt[q, d, j, 0]
                    if j >= jm:
                        for h in range(Hh):
                            house[h] = NEG
                    else:
                        up_row = &nxt[q, d, j + 1, 0]
                        for h in range(Hh):
                            house[h] = values[K, d] + up_row[h]
                        for k in range(K):
                            r = succ[k, q]
                            if r < 0:
                                continue
                            up_row = &nxt[r, d, j + 1, 0]
                            for h in range(Hh):
                                v = values[k, d] + up_row[h]
                                if v > house[h]:
                                    house[h] = v
                    unhoused = -food * pf[d]
                    for h in range(Hh):
                        up = h + 1 if h + 1 < Hh else Hh - 1
                        buy = -(<double>h) * pg[d]
                        best = -INFINITY
                        if house_ok:
                            v = buy + house[h]
                            if v > best:
                                best = v
                            v = swap + house[h - 1] if h >= 1 else NEG
                            if v > best:
                                best = v
                        if other_ok:
                            v = buy + row[up]
                            if v > best:
                                best = v
                            v = buy + unhoused + row[h]
                            if v > best:
                                best = v
                            v = swap + row[h]
                            if v > best:
                                best = v
                        if h >= 1 and o[h - 1] - discard[d] > best:
                            best = o[h - 1] - discard[d]
                        o[h] = best
            for d in range(T - 1, -1, -1):
                o = &out[q, d, 0, 0]
                b = &best_from[q, d, 0, 0]
                if d + 1 < T:
                    after = &best_from[q, d + 1, 0, 0]
                    for j in range(plane):
                        b[j] = o[j] if o[j] >= after[j] else after[j]
                else:
                    for j in range(plane):
                        b[j] = o[j]
