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


cdef inline double _max(double a, double b) noexcept nogil:
    return a if a > b else b


cdef void _most_from(const double *values, double *best_from, const double *after,
                     Py_ssize_t T, Py_ssize_t plane) noexcept nogil:
    """``best_from[d]`` = the most of ``values[d]`` and ``after[d + 1]``, planes of ``plane``
    values turn after turn; ``after`` = ``best_from``: the most of ``values[d']`` for d' >= d."""
    cdef Py_ssize_t d, x
    cdef const double *o
    cdef const double *a
    cdef double *b
    for d in range(T - 1, -1, -1):
        o = values + d * plane
        b = best_from + d * plane
        if d + 1 < T:
            a = after + (d + 1) * plane
            for x in range(plane):
                b[x] = o[x] if o[x] >= a[x] else a[x]
        else:
            for x in range(plane):
                b[x] = o[x]


cdef void _most_from_states(const double[:, :, :, ::1] values, double[:, :, :, ::1] best_from,
                            const int64_t[::1] reset) noexcept nogil:
    """:func:`_most_from` for every state q: from turn d on where ``reset[q]`` is q, else
    ``values[q, d]`` or the most of state ``reset[q]`` from turn d + 1 on (those first)."""
    cdef Py_ssize_t Q = values.shape[0], T = values.shape[1]
    cdef Py_ssize_t plane = values.shape[2] * values.shape[3], q, r, rounds
    for rounds in range(2):
        for q in range(Q):
            r = reset[q]
            if (r == q) != (rounds == 0):
                continue
            _most_from(&values[q, 0, 0, 0], &best_from[q, 0, 0, 0], &best_from[r, 0, 0, 0],
                       T, plane)


cdef inline Py_ssize_t _bits(Py_ssize_t w) noexcept nogil:
    cdef Py_ssize_t n = 0
    while w:
        n += w & 1
        w >>= 1
    return n


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
                    v = _max(v, nxt[j, n, b | (1 << d)])
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
                    out[i, n, b] = _max(out[i, n, b], g + chit[j, n + 1, b])
                if remodel:
                    g = gains[2 + k, i, s]
                    for n in range(1, F):
                        out[i, n, b] = _max(out[i, n, b], g + nxt[j, n, b])
        for n in range(F):
            for b in range(B):
                out[i, n, b] = out[i, n, b] + bonus[b]


cdef inline void _house_in(double *house, double value, const double *after,
                           Py_ssize_t Hh) noexcept nogil:
    """``house[h]`` = the most of itself and ``value`` + ``after[h]``."""
    cdef Py_ssize_t h
    for h in range(Hh):
        house[h] = _max(house[h], value + after[h])


def held_draws(const double[:, :, :, ::1] nxt, const double[:, ::1] values,
               const int64_t[:, ::1] succ, const int64_t[::1] least,
               const int64_t[::1] pending, const double[::1] pg, const double[::1] pf,
               double food, const double[::1] discard, int jm, int must,
               const double[:, :, ::1] housings, const int64_t[:, ::1] onto,
               const int64_t[::1] reset, const int64_t[::1] free_swap,
               double[:, :, :, ::1] out,
               double[:, :, :, ::1] best_from):
    """Write into ``out`` (Q, T, J, H) the value of drawing one deck item from each state
    (see :func:`lumicore.lemuria.reference.held_draws`; ``must``: -1 any way, 1 only the
    ways that house it, 0 only the others), and into ``best_from`` its most from turn d on
    (``reset``: see :func:`_most_from_states`); NEG for j below ``least[q]`` (no path reaches
    it); a buy from state q also pays for its ``pending[q]`` cards held besides the h counted.
    ``house[h]`` holds the value of housing it with h cards held after the draw: the best
    part of the year to house it in, then the state that part leads to, and the M more
    kinds of housing (``housings[m, k, d]``, then state ``onto[m, r]`` of that state r);
    where ``free_swap[q]``, an exchange may give back a card the state does not count."""
    cdef Py_ssize_t Q = nxt.shape[0], T = nxt.shape[1], J = nxt.shape[2], Hh = nxt.shape[3]
    cdef Py_ssize_t K = succ.shape[0], M = housings.shape[0]
    cdef Py_ssize_t q, d, j, h, k, r, m, up
    cdef double buy, swap, best, unhoused
    cdef bint house_ok = must != 0, other_ok = must != 1
    house_array = np.empty(Hh)
    cdef double[::1] house = house_array
    cdef const double *row
    cdef double *o
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
                    for h in range(Hh):
                        house[h] = NEG
                    if j < jm:
                        for k in range(K + 1):
                            r = q if k == K else succ[k, q]
                            if r < 0:
                                continue
                            _house_in(&house[0], values[k, d], &nxt[r, d, j + 1, 0], Hh)
                            for m in range(M):
                                _house_in(&house[0], housings[m, k, d],
                                          &nxt[onto[m, r], d, j + 1, 0], Hh)
                    unhoused = -food * pf[d]
                    for h in range(Hh):
                        up = h + 1 if h + 1 < Hh else Hh - 1
                        buy = -(<double>(h + pending[q])) * pg[d]
                        best = -INFINITY  # the ways' values, branch-free
                        if house_ok:
                            best = _max(buy + house[h], swap + house[h - 1] if h >= 1 else NEG)
                        if other_ok:
                            best = _max(best, _max(buy + row[up], _max(buy + unhoused + row[h],
                                                                       swap + row[h])))
                        if free_swap[q]:
                            if house_ok:
                                best = _max(best, swap + house[h])
                            if other_ok:
                                best = _max(best, swap + row[up])
                        if h >= 1:
                            best = _max(best, o[h - 1] - discard[d])
                        o[h] = best
        _most_from_states(out, best_from, reset)


def waiting_release(const double[:, :, :, ::1] drawn, const double[:, :, ::1] upto,
                    const int64_t[:, ::1] succ, const int64_t[::1] reset,
                    double[:, :, :, ::1] closed, double[:, :, :, ::1] best_from):
    """Write into ``closed`` (Q, T, J, H) the values of ``drawn`` once every state may first
    house any of its waiting cards, and into ``best_from`` their most from turn d on
    (``reset``: see :func:`_most_from_states`): see
    :func:`lumicore.lemuria.reference.waiting_release`."""
    cdef Py_ssize_t Q = drawn.shape[0], T = drawn.shape[1], J = drawn.shape[2]
    cdef Py_ssize_t Hh = drawn.shape[3], W = upto.shape[0], K = succ.shape[0]
    cdef Py_ssize_t S = (<Py_ssize_t>1) << W, plane = (J - 1) * Hh
    cdef Py_ssize_t q, d, j, h, k, b, c, w, r, size, bit, x
    cdef double v, g
    cdef double *o
    cdef const double *src
    cdef Py_ssize_t whole = J * Hh
    with nogil:
        for q in range(Q):
            for d in range(T):
                src = &drawn[q, d, 0, 0]
                o = &closed[q, d, 0, 0]
                for x in range(whole):
                    o[x] = src[x]
        for d in range(T):
            for size in range(1, W + 1):  # the smaller subsets first: final when read
                for w in range(S):
                    if _bits(w) != size:
                        continue
                    for c in range(Q // S):
                        q = c * S + w
                        o = &closed[q, d, 0, 0]
                        for b in range(W):
                            bit = (<Py_ssize_t>1) << b
                            if not w & bit:
                                continue
                            for k in range(K + 1):
                                if k < K:
                                    r = succ[k, q]
                                    if r < 0:
                                        continue
                                    r = r & ~bit
                                else:
                                    r = q & ~bit
                                g = upto[b, k, d]
                                src = &closed[r, d, 0, 0] + Hh  # j + 1
                                for x in range(plane):  # branch-free: a max
                                    v = g + src[x]
                                    o[x] = v if v > o[x] else o[x]
        _most_from_states(closed, best_from, reset)
