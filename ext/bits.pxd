# Bit helpers shared by the kernels. Every helper is noexcept and guards the zero case where the
# builtin is undefined.
from libc.stdint cimport uint64_t

cdef extern from *:
    """
    static inline int lc_popcount64(unsigned long long x) { return __builtin_popcountll(x); }
    static inline int lc_ctz64(unsigned long long x) { return x ? __builtin_ctzll(x) : 64; }
    """
    int lc_popcount64(unsigned long long x) nogil
    int lc_ctz64(unsigned long long x) nogil


cdef inline int popcount(uint64_t x) noexcept nogil:
    return lc_popcount64(x)


cdef inline int ctz(uint64_t x) noexcept nogil:
    """Index of the lowest set bit; 64 for x == 0 (the builtin is undefined there)."""
    return lc_ctz64(x)


cdef inline uint64_t lowbit(uint64_t x) noexcept nogil:
    return x & (~x + 1)
