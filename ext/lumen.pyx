# Lumen kernel: command-sheet legal bubbles and chain gains on 64-bit masks, and the map's
# strength sums.
#
# Private module lumicore._ext.lumen. Callers go through lumicore/lumen/kernel.py, which checks
# every argument. Even so, no input can make this code read out of bounds: sheet sizes are
# clamped to the lengths of the arrays given, and bubble indices are checked here too.
#
# A sheet is `vals` (one byte per bubble, EMPTY = 255 for an empty one), `filled` (bit i set when
# bubble i holds a value) and `nbr` (nbr[i]: mask of the bubbles next to bubble i).
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t

import numpy as np

from bits cimport ctz, popcount

cdef enum:
    EMPTY = 255
    MAXB = 64


cdef inline int linked(int a, int b, int kind) noexcept nogil:
    # kind 0: identical, 1: sequence (values differ by exactly one)
    if kind == 0:
        return a == b
    return a - b == 1 or b - a == 1


cdef inline uint64_t linked_mask(const uint8_t* vals, uint64_t filled, const uint64_t* nbr,
                                 int i, int v, int kind) noexcept nogil:
    # the written neighbours of bubble i linked to the value v
    cdef uint64_t m = nbr[i] & filled, out = 0
    cdef int j
    while m:
        j = ctz(m)
        m &= m - 1
        if linked(v, vals[j], kind):
            out |= (<uint64_t>1) << j
    return out


cdef inline int gain(const uint8_t* vals, uint64_t filled, const uint64_t* nbr, int cell,
                     int v, int kind) noexcept nogil:
    # bubbles in a group of 2 or more after writing v in cell that were not before: the new
    # bubble if it links to anything, plus each linked neighbour that had no link before
    cdef uint64_t m = linked_mask(vals, filled, nbr, cell, v, kind)
    cdef int j, g = 0
    if not m:
        return 0
    g = 1
    while m:
        j = ctz(m)
        m &= m - 1
        if not linked_mask(vals, filled, nbr, j, vals[j], kind):
            g += 1
    return g


cdef inline uint64_t legal(uint64_t filled, const uint64_t* nbr, int n) noexcept nogil:
    cdef uint64_t all_ = (~(<uint64_t>0)) if n >= 64 else (((<uint64_t>1) << n) - 1)
    cdef uint64_t out = 0, m = filled
    cdef int j
    if not filled:
        return all_
    while m:
        j = ctz(m)
        m &= m - 1
        out |= nbr[j]
    return out & ~filled & all_


cdef int _size(const uint8_t[::1] vals, const uint64_t[::1] nbr) except -1:
    cdef int n = vals.shape[0]
    if n != nbr.shape[0] or n < 1 or n > MAXB:
        raise ValueError("vals and nbr must have the same length, 1 to 64")
    return n


cdef uint64_t _filled(const uint8_t[::1] vals, int n) noexcept nogil:
    cdef uint64_t f = 0
    cdef int i
    for i in range(n):
        if vals[i] != EMPTY:
            f |= (<uint64_t>1) << i
    return f


def legal_mask(const uint8_t[::1] vals, const uint64_t[::1] nbr):
    """Mask of the bubbles a value may be written in."""
    cdef int n = _size(vals, nbr)
    return legal(_filled(vals, n), &nbr[0], n)


def gains(const uint8_t[::1] vals, const uint64_t[::1] nbr, int cell, int value):
    """(identical, sequence) gains of writing value in the empty bubble cell."""
    cdef int n = _size(vals, nbr)
    if not 0 <= cell < n or vals[cell] != EMPTY or not 0 <= value < EMPTY:
        raise ValueError("cell must be an empty bubble and value 0..254")
    cdef uint64_t f = _filled(vals, n)
    return (gain(&vals[0], f, &nbr[0], cell, value, 0),
            gain(&vals[0], f, &nbr[0], cell, value, 1))


def gains_all(const uint8_t[::1] vals, const uint64_t[::1] nbr, const int32_t[::1] values):
    """For every legal bubble (ascending) and every value of `values`: an int32 array
    (cells, len(values), 2) of identical and sequence gains, and the legal bubbles."""
    cdef int n = _size(vals, nbr)
    cdef int nv = values.shape[0], i, j, c, v
    cdef uint64_t f = _filled(vals, n)
    cdef uint64_t m = legal(f, &nbr[0], n)
    cells = np.empty(popcount(m), dtype=np.int32)
    out = np.zeros((popcount(m), nv, 2), dtype=np.int32)
    cdef int32_t[::1] cv = cells
    cdef int32_t[:, :, ::1] o = out
    for j in range(nv):
        if not 0 <= values[j] < EMPTY:
            raise ValueError("values must be 0..254")
    i = 0
    with nogil:
        while m:
            c = ctz(m)
            m &= m - 1
            cv[i] = c
            for j in range(nv):
                v = values[j]
                o[i, j, 0] = gain(&vals[0], f, &nbr[0], c, v, 0)
                o[i, j, 1] = gain(&vals[0], f, &nbr[0], c, v, 1)
            i += 1
    return out, cells


def strength_sums(const int32_t[:, :, ::1] units, const int32_t[::1] strengths):
    """sums[t, p] = sum over c of units[t, p, c] * strengths[c] (int64)."""
    cdef Py_ssize_t nt = units.shape[0], npl = units.shape[1], nc = units.shape[2]
    if strengths.shape[0] != nc:
        raise ValueError("one strength per unit count")
    out = np.zeros((nt, npl), dtype=np.int64)
    cdef int64_t[:, ::1] o = out
    cdef Py_ssize_t t, p, c
    cdef int64_t s
    with nogil:
        for t in range(nt):
            for p in range(npl):
                s = 0
                for c in range(nc):
                    s += <int64_t>units[t, p, c] * strengths[c]
                o[t, p] = s
    return out
