# Lucia kernel: move generation, goal test, heuristic and the BFS / A* / IDA* loops on packed
# trains (uint64, 4 bits per position, position 0 lowest; codes in lumicore/lucia/notation.py).
#
# Private module lumicore._ext.lucia. Callers go through lumicore/lucia/kernel.py, which validates
# every argument. Even so, no input word can make this code read or write out of bounds: train
# length, Lucia's position and card fields are all clamped here too.
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, qsort, realloc
from libc.string cimport memset
from cpython.exc cimport PyErr_CheckSignals
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

import numpy as np

from lumicore.checks import check_int, check_real
from lumicore.data import shorten
from lumicore.errors import LumicoreError

from bits cimport ctz, popcount


cdef extern from *:
    """
    static inline void lc_prefetch(const void* p) { __builtin_prefetch(p); }
    static inline int lc_top64(unsigned long long x) { return x ? 63 - __builtin_clzll(x) : -1; }
    """
    void lc_prefetch(const void* p) noexcept nogil
    int lc_top64(unsigned long long x) noexcept nogil

ctypedef uint64_t u64

cdef enum:
    K_MOVE = 1
    K_LIGHT = 2
    K_LUCIA = 3
    H_UNLIT = 0
    H_LIT = 1
    STARBOY = 3
    GINGER = 4
    LUCIA0 = 5
    LUCIA5 = 10
    EMPTY = 15
    NO_BOUND = 1 << 20
    ACT_MAX = 32          # results of one action: 16 kids x 2 directions
    CARD_MAX = 2048       # results of one card: 2 orders x 32 x 32
    INF = 255

cdef u64 LOW = 0x1111111111111111ULL
cdef u64 ONES = 0xFFFFFFFFFFFFFFFFULL
cdef u64 SPREAD = 0x1111111111111111ULL

# a passing Gingerbread blows out: H -> h, Lucia loses one candle (not below 0)
cdef uint8_t BLOW[16]
# a light source's neighbour: h -> H, Lucia gains one candle (up to 5)
cdef uint8_t LIGHT[16]
for _c in range(16):
    BLOW[_c] = _c
    LIGHT[_c] = _c
BLOW[H_LIT] = H_UNLIT
LIGHT[H_UNLIT] = H_LIT
for _c in range(LUCIA0 + 1, LUCIA5 + 1):
    BLOW[_c] = _c - 1
    LIGHT[_c - 1] = _c


cdef struct Act:
    int kind
    uint32_t mask       # move: bit c set when a kid of code c may move
    int ncodes          # move: the codes of mask, listed
    int codes[11]
    int steps
    int source          # light: code of the source (1 lit H, 2 T)
    int partial         # lucia: may stop inside the run


cdef struct Card:
    Act act[2]
    int nact
    int twin            # both actions equal: one order only


# ---------------------------------------------------------------------------------------------
# nibble helpers

cdef inline u64 nib_eq(u64 x, u64 code) noexcept nogil:
    """Bit 4i set where nibble i equals code."""
    cdef u64 y = x ^ (code * SPREAD)
    y |= y >> 1
    y |= y >> 2
    return ~y & LOW


cdef u64 SPAN[17][17]    # SPAN[lo][hi + 1]: mask of nibbles lo..hi


cdef u64 span_slow(int lo, int hi) noexcept nogil:
    cdef int width = hi - lo + 1
    if width <= 0:
        return 0
    if width >= 16:
        return ONES
    return ((1ULL << (4 * width)) - 1) << (4 * lo)


for _lo in range(17):
    for _hi in range(17):
        SPAN[_lo][_hi] = span_slow(_lo, _hi - 1)


cdef inline u64 span(int lo, int hi) noexcept nogil:
    """Mask of nibbles lo..hi (empty when hi < lo); lo, hi within -1..16."""
    if lo < 0:
        lo = 0
    if hi > 15:
        hi = 15
    if hi < lo:
        return 0
    return SPAN[lo][hi + 1]


cdef inline int code_at(u64 x, int p) noexcept nogil:
    return <int>((x >> (4 * p)) & 15)


cdef inline int train_length(u64 x) noexcept nogil:
    cdef u64 e = nib_eq(x, EMPTY)
    if e == 0:
        return 16
    return ctz(e) >> 2


cdef inline u64 prefix(int n) noexcept nogil:
    """Mask of the first n nibbles (n clamped to 0..16)."""
    return SPAN[0][min(max(n, 0), 16)]


cdef inline int lucia_pos(u64 x, int n) noexcept nogil:
    """Position of the first Lucia among the first n kids, -1 if none. Codes 0..10 plus 3 stay
    below 16 (no carry) and have bit 3 set exactly for Lucia's codes 5..10."""
    cdef u64 valid = prefix(n)
    cdef u64 lucia = ((x & valid) + (0x3333333333333333ULL & valid)) & 0x8888888888888888ULL
    lucia &= valid
    if lucia == 0:
        return -1
    return ctz(lucia) >> 2


cdef inline bint legal(u64 y) noexcept nogil:
    cdef u64 s = nib_eq(y, STARBOY)
    return (((s << 4) | (s >> 4)) & nib_eq(y, GINGER)) == 0


cdef inline u64 recode(u64 y, int p, const uint8_t* table) noexcept nogil:
    cdef u64 c = (y >> (4 * p)) & 15
    return y ^ ((c ^ table[c]) << (4 * p))


cdef inline u64 move_kid(u64 x, int p, int q) noexcept nogil:
    """The kid at p moves to q (both in 0..15); the kids between shift one place towards p. A
    moving Gingerbread blows out every kid it passes."""
    cdef u64 kid = (x >> (4 * p)) & 15
    cdef u64 y
    cdef int lo, hi, i
    if q > p:
        y = (x & ~SPAN[p][q + 1]) | ((x >> 4) & SPAN[p][q]) | (kid << (4 * q))
        lo = p
        hi = q - 1
    else:
        y = (x & ~SPAN[q][p + 1]) | ((x << 4) & SPAN[q + 1][p + 1]) | (kid << (4 * q))
        lo = q + 1
        hi = p
    if kid == GINGER:
        for i in range(lo, hi + 1):
            y = recode(y, i, BLOW)
    return y


# ---------------------------------------------------------------------------------------------
# actions and cards

cdef inline bint apart(int lo, int hi, int zlo, int zhi) noexcept nogil:
    """Whether spans lo..hi and zlo..zhi have at least one position between them."""
    return hi + 1 < zlo or zhi + 1 < lo


cdef int do_action(u64 x, int n, const Act* a, u64* out, uint16_t* zone, int zlo,
                   int zhi) noexcept nogil:
    """All results of one action on x (at most ACT_MAX, possibly repeated); the restriction
    is checked on each. When ``zone`` is given it receives each result's span (lo | hi << 8:
    the positions a move or lucia action changed, a light's source). Choices whose span is
    apart from zlo..zhi are skipped (zlo, zhi = -99, 99 skips nothing); see play_card."""
    cdef int cnt = 0, p, q, run, j, c, d
    cdef u64 y, src
    if a.kind == K_MOVE:
        src = 0
        for c in range(a.ncodes):
            src |= nib_eq(x, <u64>a.codes[c])
        src &= prefix(n)
        while src:
            p = ctz(src) >> 2
            src &= src - 1
            c = code_at(x, p)
            q = p + a.steps
            if q < n and not apart(p, q, zlo, zhi):
                y = move_kid(x, p, q)
                if legal(y):
                    if zone != NULL:
                        zone[cnt] = <uint16_t>(p | q << 8)
                    out[cnt] = y
                    cnt += 1
            q = p - a.steps
            if q < 0 or apart(q, p, zlo, zhi):
                continue
            if a.steps == 1 and c != GINGER and code_at(x, q) != GINGER and \
                    (a.mask >> code_at(x, q)) & 1:
                continue    # the same swap as the kid in front moving back (already made)
            y = move_kid(x, p, q)
            if legal(y):
                if zone != NULL:
                    zone[cnt] = <uint16_t>(q | p << 8)
                out[cnt] = y
                cnt += 1
    elif a.kind == K_LIGHT:
        src = nib_eq(x, <u64>a.source) & prefix(n)
        while src:
            p = ctz(src) >> 2
            src &= src - 1
            if apart(p, p, zlo, zhi):
                continue
            y = x
            if p > 0:
                y = recode(y, p - 1, LIGHT)
            if p + 1 < n:
                y = recode(y, p + 1, LIGHT)
            if zone != NULL:
                zone[cnt] = <uint16_t>(p | p << 8)
            out[cnt] = y
            cnt += 1
    elif a.kind == K_LUCIA:
        p = lucia_pos(x, n)
        if p < 0:
            return 0
        for d in range(-1, 2, 2):
            run = 0
            while 0 <= p + d * (run + 1) < n and code_at(x, p + d * (run + 1)) <= H_LIT:
                run += 1
            if run == 0:
                continue
            for j in range(1 if a.partial else run, run + 1):
                q = p + d * j
                if apart(min(p, q), max(p, q), zlo, zhi):
                    continue
                y = move_kid(x, p, q)
                if legal(y):
                    if zone != NULL:
                        zone[cnt] = <uint16_t>(min(p, q) | max(p, q) << 8)
                    out[cnt] = y
                    cnt += 1
    return cnt


cdef int play_card(u64 x, int n, const Card* card, u64* out) noexcept nogil:
    """All results of one card (at most CARD_MAX, possibly repeated): each order of its
    actions, every choice of each.

    Two actions whose spans are apart (a kid between them; a light's span is its source, and
    what it changes is next to it) commute: either order gives the same train, and each order
    is legal after its first action exactly when the other is (for a legal x: the pairs that
    differ from x's lie around one span, untouched by the other action). Two lights do not
    commute (the first may light the second's source). So the second order only tries the
    choices of its second action that are not apart from its first action's span: the others
    were made by the first order."""
    cdef u64 first[ACT_MAX]
    cdef uint16_t zone[ACT_MAX]
    cdef int cnt = 0, k, i
    if card.nact == 1:
        return do_action(x, n, &card.act[0], out, NULL, -99, 99)
    k = do_action(x, n, &card.act[0], first, NULL, -99, 99)
    for i in range(k):
        cnt += do_action(first[i], n, &card.act[1], out + cnt, NULL, -99, 99)
    if card.twin:
        return cnt
    k = do_action(x, n, &card.act[1], first, zone, -99, 99)
    for i in range(k):
        if card.act[0].kind == K_LIGHT and card.act[1].kind == K_LIGHT:
            cnt += do_action(first[i], n, &card.act[0], out + cnt, NULL, -99, 99)
        else:
            cnt += do_action(first[i], n, &card.act[0], out + cnt, NULL, zone[i] & 255,
                             zone[i] >> 8)
    return cnt


cdef int unique(u64* buf, uint16_t* tags, int cnt, u64* keys, uint32_t* stamps,
                uint32_t stamp) noexcept nogil:
    """Drop repeats from buf[:cnt] in place (and from tags, when given), first occurrence kept,
    with a stamped hash set on the first power of two >= 2 * cnt slots of keys/stamps (small,
    so it stays in cache; the caller provides at least that many); returns the new count."""
    cdef int i, j, m = 0, bits = 4
    cdef uint32_t slot, mask
    if cnt <= 16:       # small: compare with the kept ones, no hashing
        for i in range(cnt):
            for j in range(m):
                if buf[j] == buf[i]:
                    break
            else:
                buf[m] = buf[i]
                if tags != NULL:
                    tags[m] = tags[i]
                m += 1
        return m
    while (1 << bits) < 2 * cnt:
        bits += 1
    mask = (1U << bits) - 1
    for i in range(cnt):
        slot = <uint32_t>((buf[i] * 0x9E3779B97F4A7C15ULL) >> (64 - bits))
        while stamps[slot] == stamp and keys[slot] != buf[i]:
            slot = (slot + 1) & mask
        if stamps[slot] != stamp:
            stamps[slot] = stamp
            keys[slot] = buf[i]
            buf[m] = buf[i]
            if tags != NULL:
                tags[m] = tags[i]
            m += 1
    return m


# scratch space for the distinct successors of one state over a set of cards
cdef struct Gen:
    u64* out            # ncards * CARD_MAX successors
    uint16_t* card      # the card of each
    u64* keys           # hash slots: a power of two >= 2 * ncards * CARD_MAX (unique's need)
    uint32_t* stamps
    size_t slots
    uint32_t stamp


cdef int gen_init(Gen* g, int ncards) noexcept nogil:
    cdef size_t cap = <size_t>max(ncards, 1) * CARD_MAX
    g.slots = 16
    while g.slots < 2 * cap:
        g.slots *= 2
    g.out = <u64*>malloc(cap * sizeof(u64))
    g.card = <uint16_t*>malloc(cap * sizeof(uint16_t))
    g.keys = <u64*>malloc(g.slots * sizeof(u64))
    g.stamps = <uint32_t*>malloc(g.slots * sizeof(uint32_t))
    g.stamp = 0
    if g.out == NULL or g.card == NULL or g.keys == NULL or g.stamps == NULL:
        return -1
    memset(g.stamps, 0, g.slots * sizeof(uint32_t))
    return 0


cdef void gen_free(Gen* g) noexcept nogil:
    free(g.out)
    free(g.card)
    free(g.keys)
    free(g.stamps)


cdef inline uint32_t next_stamp(Gen* g) noexcept nogil:
    g.stamp += 1
    if g.stamp == 0:
        memset(g.stamps, 0, g.slots * sizeof(uint32_t))
        g.stamp = 1
    return g.stamp


cdef inline int play_unique(u64 x, int n, const Card* card, Gen* g) noexcept nogil:
    """Distinct results of one card, into g.out."""
    cdef int cnt = play_card(x, n, card, g.out)
    return unique(g.out, NULL, cnt, g.keys, g.stamps, next_stamp(g))


cdef inline int expand_raw(u64 x, int n, const Card* cs, int ncards, Gen* g) noexcept nogil:
    """All successors of x over all cards into g.out (repeats kept: BFS and A* look each up in
    their big table anyway, with prefetching, which measured faster than a local dedupe), each
    with its card in g.card; returns their number."""
    cdef int c, j, k, total = 0
    for c in range(ncards):
        k = play_card(x, n, &cs[c], g.out + total)
        for j in range(total, total + k):
            g.card[j] = <uint16_t>c
        total += k
    return total


cdef int expand_state(u64 x, int n, const Card* cs, int ncards, Gen* g) noexcept nogil:
    """Distinct successors of x over all cards into g.out, each with the first card giving it
    in g.card (:func:`expand_raw`'s, repeats dropped); returns their number."""
    cdef int total = expand_raw(x, n, cs, ncards, g)
    return unique(g.out, g.card, total, g.keys, g.stamps, next_stamp(g))


cdef Card* decode_cards(const uint32_t[:, ::1] table) except NULL:
    """Cards from the (k, 2) uint32 table built by lumicore/lucia/kernel.py:
    bits 0-1 kind (0 none), 4-14 role mask over codes, 16-19 steps or light source, 20 partial."""
    cdef Py_ssize_t i, j, k = table.shape[0]
    cdef int c
    cdef Card* cards = <Card*>malloc(max(k, 1) * sizeof(Card))
    cdef uint32_t w
    if cards == NULL:
        raise MemoryError()
    if table.shape[1] != 2:
        free(cards)
        raise ValueError("card table must have 2 columns")
    for i in range(k):
        cards[i].nact = 0
        for j in range(2):
            w = table[i, j]
            if w & 3 == 0:
                continue
            cards[i].act[cards[i].nact].kind = w & 3
            cards[i].act[cards[i].nact].mask = (w >> 4) & 0x7FF
            cards[i].act[cards[i].nact].steps = max(1, (w >> 16) & 15)
            cards[i].act[cards[i].nact].source = (w >> 16) & 15
            cards[i].act[cards[i].nact].partial = (w >> 20) & 1
            cards[i].act[cards[i].nact].ncodes = 0
            for c in range(11):
                if (w >> (4 + c)) & 1:
                    cards[i].act[cards[i].nact].codes[cards[i].act[cards[i].nact].ncodes] = c
                    cards[i].act[cards[i].nact].ncodes += 1
            cards[i].nact += 1
        cards[i].twin = cards[i].nact == 2 and table[i, 0] == table[i, 1]
    return cards


# ---------------------------------------------------------------------------------------------
# goal and heuristic

cdef inline bint is_goal_c(u64 x, int n) noexcept nogil:
    cdef u64 valid = prefix(n) & LOW
    cdef u64 s
    cdef int m
    if (x & 15) != LUCIA5 or (nib_eq(x, H_UNLIT) & valid):
        return False
    s = nib_eq(x, STARBOY) & valid
    m = popcount(s)
    return s == (span(n - m, n - 1) & LOW)


# ---------------------------------------------------------------------------------------------
# pattern databases: the exact distance of an abstract train (Lucia's place, the places of the
# kept roles, everyone else a blank) to the abstract goal, one uint8 per abstract train, indexed
# by a mixed-radix rank: Lucia's position, then for each kept role the colex rank of its set of
# positions among the positions not taken by Lucia and the earlier roles

cdef uint32_t BINOM[17][17]
for _n in range(17):
    for _k in range(17):
        BINOM[_n][_k] = 0
    BINOM[_n][0] = 1
    for _k in range(1, _n + 1):
        BINOM[_n][_k] = BINOM[_n - 1][_k - 1] + (BINOM[_n - 1][_k] if _k < _n else 0)


cdef struct PSpec:
    int n               # train length the database is for (0: no database)
    int nroles
    int code[3]         # kept role codes (S, G, T), ranked in this order after Lucia
    int count[3]
    size_t size         # entries: n * prod C(free, count)


cdef int pspec_init(PSpec* p, int n, const int* codes, const int* counts, int nroles) noexcept:
    cdef int i, free = n - 1
    if n < 1 or n > 16 or nroles < 0 or nroles > 3:
        return -1
    p.n = n
    p.nroles = nroles
    p.size = n
    for i in range(nroles):
        if counts[i] < 0 or counts[i] > free:
            return -1
        p.code[i] = codes[i]
        p.count[i] = counts[i]
        p.size *= BINOM[free][counts[i]]
        free -= counts[i]
    return 0


cdef inline size_t pdb_rank(u64 x, int n, const PSpec* p) noexcept nogil:
    """The rank of x's abstract train; p.size when x does not fit the database (other length
    or role counts), so a lookup can tell."""
    cdef u64 valid = prefix(n) & LOW, m
    cdef uint32_t taken, mine
    cdef int pl = lucia_pos(x, n), i, j, q, f, free = n - 1
    cdef size_t r, sub
    if n != p.n or pl < 0:
        return p.size
    taken = 1U << pl
    r = <size_t>pl
    for i in range(p.nroles):
        m = nib_eq(x, <u64>p.code[i]) & valid
        if popcount(m) != p.count[i]:
            return p.size
        sub = 0
        j = 0
        mine = 0
        while m:
            q = ctz(m) >> 2
            m &= m - 1
            f = q - popcount(taken & ((1U << q) - 1))
            j += 1
            sub += BINOM[f][j]
            mine |= 1U << q
        taken |= mine
        r = r * BINOM[free][p.count[i]] + sub
        free -= p.count[i]
    return r


cdef struct HTab:
    const uint8_t* values
    int A, U, D, L
    int target
    int locked          # no card moves a Starboy past a Gingerbread: order inversions are dead
    const uint8_t* pdb[2]   # up to two pattern databases (NULL: none), max-combined
    PSpec pspec[2]


cdef inline int heuristic_c(u64 x, int n, const HTab* t) noexcept nogil:
    """max(covering table, pattern databases)."""
    cdef int h = covering_c(x, n, t), i
    cdef size_t r
    for i in range(2):
        if t.pdb[i] != NULL and h < INF:
            r = pdb_rank(x, n, &t.pspec[i])
            if r < t.pspec[i].size and t.pdb[i][r] > h:
                h = t.pdb[i][r]
    return h


cdef inline int covering_c(u64 x, int n, const HTab* t) noexcept nogil:
    cdef u64 valid = prefix(n) & LOW
    cdef u64 s = nib_eq(x, STARBOY) & valid
    cdef int p = lucia_pos(x, n), a, u, d = t.target
    if p < 0:
        return INF
    if t.locked and s and lc_top64(nib_eq(x, GINGER) & valid) > ctz(s):
        return INF      # a Gingerbread behind a Starboy stays there
    a = LUCIA5 - code_at(x, p)
    u = a + popcount(nib_eq(x, H_UNLIT) & valid)
    while s:
        d -= ctz(s) >> 2
        s &= s - 1
    a = min(max(a, 0), t.A - 1)
    u = min(max(u, 0), t.U - 1)
    d = min(max(d, 0), t.D - 1)
    p = min(p, t.L - 1)
    return t.values[((a * t.U + u) * t.D + d) * t.L + p]


cdef HTab make_htab(const uint8_t[:, :, :, ::1] values, int target, bint locked) except *:
    cdef HTab t
    if values.shape[0] < 1 or values.shape[1] < 1 or values.shape[2] < 1 or values.shape[3] < 1:
        raise ValueError("empty heuristic table")
    t.values = &values[0, 0, 0, 0]
    t.A = values.shape[0]
    t.U = values.shape[1]
    t.D = values.shape[2]
    t.L = values.shape[3]
    t.target = target
    t.locked = locked
    t.pdb[0] = NULL
    t.pdb[1] = NULL
    return t


cdef class Heuristic:
    """The searches' heuristic: the covering table (``values``, ``target``, ``locked``; see
    lumicore/lucia/heuristic.py), kept alive with the C view of it."""
    cdef HTab t
    cdef object values

    cdef list pdbs

    def __cinit__(self, const uint8_t[:, :, :, ::1] values, int target, bint locked):
        self.t = make_htab(values, target, locked)
        self.values = values
        self.pdbs = []

    def add_pdb(self, const uint8_t[::1] table, int n, codes, counts):
        """Max-combine a pattern database (from :func:`pdb_build` with the same ``n``, role
        ``codes`` and ``counts``); at most two."""
        cdef int i = len(self.pdbs)
        cdef PSpec spec = make_pspec(n, codes, counts)
        if i >= 2:
            raise ValueError("at most two databases")
        if <size_t>table.shape[0] != spec.size:
            raise ValueError("database size does not match its spec")
        self.t.pspec[i] = spec
        self.t.pdb[i] = &table[0]
        self.pdbs.append(table)

    def __call__(self, const u64[::1] states):
        """Heuristic values (uint8, 255 = goal unreachable) of packed states."""
        out = np.empty(states.shape[0], dtype=np.uint8)
        cdef uint8_t[::1] ov = out
        cdef Py_ssize_t i
        for i in range(states.shape[0]):
            ov[i] = heuristic_c(states[i], train_length(states[i]), &self.t)
        return out


cdef PSpec make_pspec(int n, codes, counts) except *:
    """The spec of a database for trains of ``n`` kids keeping role ``codes`` with ``counts``."""
    cdef int c[3]
    cdef int m[3]
    cdef PSpec spec
    if len(codes) != len(counts) or len(codes) > 3:
        raise ValueError("at most three roles, one count each")
    for j in range(len(codes)):
        c[j] = codes[j]
        m[j] = counts[j]
    if pspec_init(&spec, n, c, m, len(codes)) != 0:
        raise ValueError("bad database spec")
    return spec


def pdb_size(int n, codes, counts):
    """Entries of a pattern database for trains of ``n`` kids keeping ``codes`` with ``counts``."""
    return make_pspec(n, codes, counts).size


def pdb_ranks(const u64[::1] states, int n, codes, counts):
    """Database index of each state (``pdb_size`` when a state does not fit)."""
    cdef PSpec spec = make_pspec(n, codes, counts)
    cdef Py_ssize_t i
    out = np.empty(states.shape[0], dtype=np.int64)
    cdef long long[::1] ov = out
    for i in range(states.shape[0]):
        ov[i] = <long long>pdb_rank(states[i], n, &spec)
    return out


def pdb_build(const u64[::1] goals, const uint32_t[:, ::1] cards, int n, codes, counts,
              object progress=None):
    """Exact distances to ``goals`` (abstract trains: blanks coded 0, Lucia 5) in the abstract
    graph whose moves are the card table ``cards`` (already abstracted: blank moves, no lights,
    Lucia's run through blanks stopping anywhere, so every move can be undone by the same card
    and a breadth-first search outwards from the goals gives the distances to them). Returns a
    uint8 array of ``pdb_size`` entries, 255 where no goal is reachable."""
    cdef PSpec spec = make_pspec(n, codes, counts)
    cdef Work w = Work(cards)
    cdef Py_ssize_t i
    cdef size_t r, cur_n = 0, next_n = 0, cap
    cdef int k, j, depth = 0, oom = 0
    cdef u64* cur
    cdef u64* nxt
    cdef u64* tmp
    cdef u64 x, y
    out = np.full(spec.size, INF, dtype=np.uint8)
    cdef uint8_t[::1] dist = out
    cap = max(<size_t>goals.shape[0], <size_t>1024)
    cur = <u64*>malloc(cap * sizeof(u64))
    nxt = <u64*>malloc(cap * sizeof(u64))
    try:
        if cur == NULL or nxt == NULL:
            raise MemoryError()
        for i in range(goals.shape[0]):
            r = pdb_rank(goals[i], n, &spec)
            if r < spec.size and dist[r] == INF:
                dist[r] = 0
                cur[cur_n] = goals[i]
                cur_n += 1
        while cur_n and depth < INF - 1:
            depth += 1
            next_n = 0
            with nogil:
                for i in range(<Py_ssize_t>cur_n):
                    x = cur[i]
                    k = expand_state(x, n, w.cs, w.ncards, &w.g)
                    for j in range(k):
                        y = w.g.out[j]
                        r = pdb_rank(y, n, &spec)
                        if r >= spec.size or dist[r] != INF:
                            continue
                        dist[r] = <uint8_t>depth
                        if next_n == cap:
                            if regrow(<void**>&nxt, 2 * cap * sizeof(u64)) or \
                                    regrow(<void**>&cur, 2 * cap * sizeof(u64)):
                                oom = 1
                                break
                            cap *= 2
                        nxt[next_n] = y
                        next_n += 1
                    if oom:
                        break
            if oom:
                raise MemoryError()
            PyErr_CheckSignals()
            if progress is not None:
                progress(depth, next_n)
            tmp = cur
            cur = nxt
            nxt = tmp
            cur_n = next_n
        return out
    finally:
        free(cur)
        free(nxt)


# ---------------------------------------------------------------------------------------------
# Python entry points: move generation

cdef class Work:
    """Decoded cards and scratch space, freed with the object (so no path leaks memory)."""
    cdef Card* cs
    cdef int ncards
    cdef Gen g

    def __cinit__(self, const uint32_t[:, ::1] cards, bint one_card=False):
        """``one_card``: scratch space for one card's successors at a time (play_unique), not
        every card's (expand_state): 16 KB of hash stamps to clear instead of 256 KB a card."""
        memset(&self.g, 0, sizeof(Gen))
        self.cs = NULL
        self.ncards = cards.shape[0]
        if self.ncards < 1 or self.ncards > 65535:
            raise ValueError("1..65535 cards")
        self.cs = decode_cards(cards)
        if gen_init(&self.g, 1 if one_card else self.ncards) != 0:
            raise MemoryError()

    def __dealloc__(self):
        free(self.cs)
        gen_free(&self.g)


def successors(u64 state, const uint32_t[:, ::1] cards, int card):
    """Distinct successors of one state for one card (row ``card`` of the card table)."""
    return np.array(CardPlays(cards)(state, card), dtype=np.uint64)


cdef inline u64 notation_key(u64 x) noexcept nogil:
    """A key whose order is that of the trains' notation (text): kid 0 in the top nibble, each
    kid's token rank + 1, empty positions 0 (a train before any longer one it begins)."""
    # 1 + the rank of each code's token in the text order G H L0..L5 S T h, a nibble a code:
    # h 11, H 2, T 10, S 9, G 1, L0..L5 3..8
    cdef u64 ranks = 0x87654319A2BULL, key = 0, code
    cdef int pos
    for pos in range(16):
        code = (x >> (4 * pos)) & 15
        if code == 15:
            break
        key |= ((ranks >> (4 * code)) & 15) << (60 - 4 * pos)
    return key


cdef struct Keyed:
    u64 key
    u64 state


cdef int by_key(const void* a, const void* b) noexcept nogil:
    cdef u64 x = (<const Keyed*>a).key, y = (<const Keyed*>b).key
    return (x > y) - (x < y)


cdef class CardPlays:
    """:func:`successors` for one card table, called again and again: the cards are decoded and
    the scratch space allocated once (a dealt game asks for each hand's plays)."""
    cdef Work w
    cdef Keyed* keyed

    def __cinit__(self, const uint32_t[:, ::1] cards):
        self.keyed = NULL
        self.w = Work(cards, True)
        self.keyed = <Keyed*>malloc(CARD_MAX * sizeof(Keyed))
        if self.keyed == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.keyed)

    def __call__(self, u64 state, int card):
        """The distinct successors (a list of ints) of one state for row ``card``, in the order
        of their notation (the trains' text)."""
        if not 0 <= card < self.w.ncards:
            raise IndexError(f"card {card} out of range")
        cdef int i, cnt = play_unique(state, train_length(state), &self.w.cs[card], &self.w.g)
        for i in range(cnt):
            self.keyed[i].state = self.w.g.out[i]
            self.keyed[i].key = notation_key(self.w.g.out[i])
        qsort(self.keyed, cnt, sizeof(Keyed), by_key)
        return [self.keyed[i].state for i in range(cnt)]


def expand(const u64[::1] states, const uint32_t[:, ::1] cards):
    """Successors of every state for every card, distinct per (state, card).

    Returns ``(succ, parent, card)``: uint64 successors, int64 index into ``states``, int32
    card row, in state-major, card-minor order."""
    cdef Work w = Work(cards)
    cdef Py_ssize_t i, cap = max(1024, states.shape[0] * w.ncards * 16), total = 0
    cdef int c, k, j, n
    succ = np.empty(cap, dtype=np.uint64)
    parent = np.empty(cap, dtype=np.int64)
    which = np.empty(cap, dtype=np.int32)
    cdef u64[::1] sv = succ
    cdef long long[::1] pv = parent
    cdef int[::1] wv = which
    for i in range(states.shape[0]):
        n = train_length(states[i])
        for c in range(w.ncards):
            k = play_unique(states[i], n, &w.cs[c], &w.g)
            if total + k > cap:
                cap = 2 * cap + k
                succ = np.resize(succ, cap)
                parent = np.resize(parent, cap)
                which = np.resize(which, cap)
                sv = succ
                pv = parent
                wv = which
            for j in range(k):
                sv[total + j] = w.g.out[j]
                pv[total + j] = i
                wv[total + j] = c
            total += k
    return succ[:total].copy(), parent[:total].copy(), which[:total].copy()


def count_successors(const u64[::1] states, const uint32_t[:, ::1] cards, bint per_card=True):
    """How many successors ``expand`` would return (distinct per (state, card)), or with
    ``per_card=False`` distinct per state over all cards; no output arrays (benchmarks)."""
    cdef Work w = Work(cards)
    cdef Py_ssize_t i, total = 0
    cdef int c, n
    with nogil:
        for i in range(states.shape[0]):
            n = train_length(states[i])
            if per_card:
                for c in range(w.ncards):
                    total += play_unique(states[i], n, &w.cs[c], &w.g)
            else:
                total += expand_state(states[i], n, w.cs, w.ncards, &w.g)
    return total


def goal_mask(const u64[::1] states):
    """Boolean array: which states are goals."""
    out = np.zeros(states.shape[0], dtype=np.bool_)
    cdef uint8_t[::1] ov = out.view(np.uint8)
    cdef Py_ssize_t i
    for i in range(states.shape[0]):
        ov[i] = is_goal_c(states[i], train_length(states[i]))
    return out


def heuristic(const u64[::1] states, const uint8_t[:, :, :, ::1] values, int target,
              bint locked):
    """Heuristic values (uint8, 255 = goal unreachable) of states for a table from
    lumicore/lucia/heuristic.py."""
    cdef HTab t = make_htab(values, target, locked)
    out = np.empty(states.shape[0], dtype=np.uint8)
    cdef uint8_t[::1] ov = out
    cdef Py_ssize_t i
    for i in range(states.shape[0]):
        ov[i] = heuristic_c(states[i], train_length(states[i]), &t)
    return out


# ---------------------------------------------------------------------------------------------
# search storage: nodes (state, parent, card, g) and an open-addressing hash set state -> node

# a hash slot: key 0 = empty (no valid train packs to 0: it would have no Lucia); g copies the
# node's g so that A* can reject a known state without a second cache miss
cdef struct Entry:
    u64 key
    uint32_t idx
    uint8_t g


cdef struct Store:
    u64* state
    uint32_t* parent
    uint16_t* card
    uint8_t* g
    size_t count, cap
    Entry* table        # open addressing, load <= 1/2
    size_t mask
    int shift           # 64 - log2(slots): the hash takes the product's top bits
    size_t limit        # memory budget in bytes for the store and the caller's extra
    size_t extra        # bytes the caller holds besides the store (A*'s heap)


cdef int store_init(Store* s, size_t cap) noexcept nogil:
    cdef size_t slots = 1024
    s.shift = 54
    while slots < 2 * cap:
        slots *= 2
        s.shift -= 1
    s.count = 0
    s.cap = cap
    s.limit = <size_t>-1
    s.extra = 0
    s.state = <u64*>malloc(cap * sizeof(u64))
    s.parent = <uint32_t*>malloc(cap * sizeof(uint32_t))
    s.card = <uint16_t*>malloc(cap * sizeof(uint16_t))
    s.g = <uint8_t*>malloc(cap * sizeof(uint8_t))
    s.table = <Entry*>malloc(slots * sizeof(Entry))
    s.mask = slots - 1
    if not (s.state and s.parent and s.card and s.g and s.table):
        return -1
    memset(s.table, 0, slots * sizeof(Entry))
    return 0


cdef void store_free(Store* s) noexcept nogil:
    free(s.state)
    free(s.parent)
    free(s.card)
    free(s.g)
    free(s.table)


cdef inline size_t home_of(const Store* s, u64 key) noexcept nogil:
    return <size_t>((key * 0x9E3779B97F4A7C15ULL) >> s.shift)


cdef inline void prefetch_all(const Store* s, const u64* keys, int k) noexcept nogil:
    """Start loading the home slots of keys: the probes that follow overlap their misses."""
    cdef int j
    for j in range(k):
        lc_prefetch(&s.table[home_of(s, keys[j])])


cdef inline size_t slot_of(const Store* s, u64 key) noexcept nogil:
    cdef size_t slot = home_of(s, key)
    while s.table[slot].key != 0 and s.table[slot].key != key:
        slot = (slot + 1) & s.mask
    return slot


cdef int regrow(void** block, size_t size) noexcept nogil:
    """realloc in place: 0 on success, -1 (block untouched, still owned) when out of memory."""
    cdef void* p = realloc(block[0], size)
    if p == NULL:
        return -1
    block[0] = p
    return 0


cdef enum:
    NODE_BYTES = sizeof(u64) + sizeof(uint32_t) + sizeof(uint16_t) + sizeof(uint8_t)


cdef inline size_t store_bytes(const Store* s) noexcept nogil:
    """Bytes the store holds: node arrays, hash table, plus the caller's ``extra``."""
    return s.cap * NODE_BYTES + (s.mask + 1) * sizeof(Entry) + s.extra


cdef int store_grow(Store* s) noexcept nogil:
    """Double node arrays and hash table (rehashing); -2 when that would pass ``s.limit``
    (the old and new tables are both held while rehashing)."""
    cdef size_t cap = 2 * s.cap, old_slots = s.mask + 1, i
    cdef Entry* old = s.table
    if store_bytes(s) + s.cap * NODE_BYTES + 2 * old_slots * sizeof(Entry) > s.limit:
        return -2
    if (regrow(<void**>&s.state, cap * sizeof(u64)) or
            regrow(<void**>&s.parent, cap * sizeof(uint32_t)) or
            regrow(<void**>&s.card, cap * sizeof(uint16_t)) or
            regrow(<void**>&s.g, cap * sizeof(uint8_t))):
        return -1
    s.cap = cap
    s.table = <Entry*>malloc(2 * old_slots * sizeof(Entry))
    if s.table == NULL:
        s.table = old
        return -1
    memset(s.table, 0, 2 * old_slots * sizeof(Entry))
    s.mask = 2 * old_slots - 1
    s.shift -= 1
    for i in range(old_slots):
        if old[i].key != 0:
            s.table[slot_of(s, old[i].key)] = old[i]
    free(old)
    return 0


cdef inline long add_node(Store* s, size_t slot, u64 key, uint32_t parent, uint16_t card,
                          uint8_t g) noexcept nogil:
    """Insert key at its (free) slot; returns the node index, -1 when out of memory (the
    budget ``s.limit`` or the machine's)."""
    cdef size_t idx = s.count
    if idx >= s.cap or 2 * (idx + 1) > s.mask:
        if store_grow(s) != 0:
            return -1
        slot = slot_of(s, key)
    s.table[slot].key = key
    s.table[slot].idx = <uint32_t>idx
    s.table[slot].g = g
    s.state[idx] = key
    s.parent[idx] = parent
    s.card[idx] = card
    s.g[idx] = g
    s.count += 1
    return <long>idx


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + 1e-9 * ts.tv_nsec


def monotonic():
    """The clock the searches' ``deadline`` refers to."""
    return now()



# search status codes (mapped to words and reasons in lumicore/lucia/kernel.py)
cdef enum:
    FOUND = 0
    EXHAUSTED = 1       # also "still running" inside the loops
    CUT = 2             # node limit (or the 8-bit depth)
    NOMEM = 3           # memory budget or malloc failure
    TIMEUP = 4
    STOPPED = 5         # a signal (Ctrl-C) or the progress callback raised

    POLL_MASK = 8191    # A*/BFS expansions between signal checks and progress calls


cdef int poll(object progress, long long nodes, long long expanded, int bound, double t0,
              list errors) noexcept:
    """With the GIL: deliver pending signals (Ctrl-C -> STOPPED) and call ``progress(nodes,
    expanded, bound, elapsed)``; an exception other than KeyboardInterrupt is kept in
    ``errors`` for the caller to raise once its memory is freed. The GIL is let go for a
    moment first, so that other Python threads (a timer raising SIGINT, a progress display) run
    even while a search that holds it (IDA*) is busy."""
    with nogil:
        pass
    try:
        PyErr_CheckSignals()
        if progress is not None:
            progress(nodes, expanded, bound, now() - t0)
    except KeyboardInterrupt:
        return STOPPED
    except BaseException as exc:
        errors.append(exc)
        return STOPPED
    return EXHAUSTED


cdef inline int checkpoint(long long expanded, double deadline, object progress,
                           long long nodes, int bound, double t0, list errors) noexcept nogil:
    """Every 1024 expansions: TIMEUP past the deadline; every POLL_MASK + 1 also :func:`poll`
    (with the GIL). EXHAUSTED means go on."""
    cdef int status = EXHAUSTED
    if (expanded & 1023) == 0:
        if deadline > 0 and now() > deadline:
            return TIMEUP
        if (expanded & POLL_MASK) == 0:
            with gil:
                status = poll(progress, nodes, expanded, bound, t0, errors)
    return status


cdef tuple path_of(const Store* s, size_t node):
    states, cards = [], []
    while True:
        states.append(s.state[node])
        if node == 0:
            break
        cards.append(s.card[node])
        node = s.parent[node]
    return states[::-1], cards[::-1]


cdef tuple finish(int status, const Store* s, size_t found, long long nodes, long long expanded,
                  long long generated, int bound, list errors):
    if errors:
        raise errors[0]
    if status == FOUND:
        return (status,) + path_of(s, found) + (nodes, expanded, generated, bound)
    return status, [], [], nodes, expanded, generated, bound


def bfs(u64 start, const uint32_t[:, ::1] cards, long long max_nodes, double deadline,
        size_t max_bytes=<size_t>-1, object progress=None):
    """Breadth-first search with a C hash set; goal tested when a state is first generated.

    Returns ``(status, states, cards, nodes, expanded, generated, bound)``: status 0 found,
    1 exhausted, 2 node limit, 3 out of memory (``max_bytes`` or the machine's), 4 time limit,
    5 interrupted; ``states``/``cards`` the path (start first) when found; ``generated`` counts
    successors made, repeats included (IDA*: distinct per expansion); ``bound`` a lower bound on
    the optimum (BFS: the depth being generated; A*: the highest f popped; IDA*: the last
    completed threshold). ``progress(nodes, expanded, bound, elapsed)`` is called every few
    thousand expansions, when Ctrl-C is also checked."""
    cdef Work w = Work(cards)
    cdef Store s
    cdef int n = train_length(start), k, j, status = EXHAUSTED
    cdef size_t head = 0, slot, found = 0
    cdef long idx
    cdef long long generated = 0, expanded = 0
    cdef u64 x, y
    cdef uint8_t gx = 0
    cdef double t0 = now()
    cdef list errors = []
    if store_init(&s, 1 << 16) != 0:
        store_free(&s)
        raise MemoryError()
    s.limit = max_bytes
    try:
        with nogil:
            add_node(&s, slot_of(&s, start), start, 0, 0, 0)
            if is_goal_c(start, n):
                status = FOUND
            while status == EXHAUSTED and head < s.count:
                x = s.state[head]
                gx = s.g[head]
                expanded += 1
                status = checkpoint(expanded, deadline, progress, s.count, gx + 1, t0, errors)
                if status != EXHAUSTED:
                    break
                k = expand_raw(x, n, w.cs, w.ncards, &w.g)
                generated += k
                prefetch_all(&s, w.g.out, k)
                for j in range(k):
                    y = w.g.out[j]
                    if y == x:
                        continue
                    slot = slot_of(&s, y)
                    if s.table[slot].key != 0:
                        continue
                    if <long long>s.count >= max_nodes or gx == 254:
                        status = CUT
                        break
                    idx = add_node(&s, slot, y, <uint32_t>head, w.g.card[j], gx + 1)
                    if idx < 0:
                        status = NOMEM
                        break
                    if is_goal_c(y, n):
                        status = FOUND
                        found = <size_t>idx
                        break
                head += 1
        return finish(status, &s, found, s.count, expanded, generated, gx + 1, errors)
    finally:
        store_free(&s)


# ---------------------------------------------------------------------------------------------
# A*: binary min-heap of u64 keys f << 48 | (255 - g) << 40 | node (ties: deeper first); f has
# 16 bits, so a weighted f (g + weight * h, up to 254 + 8 * 254) keeps its order

cdef struct Heap:
    u64* data
    size_t count, cap


cdef int heap_push(Heap* h, u64 key, Store* s) noexcept nogil:
    """Push; -1 when growing would pass the store's memory budget or malloc fails (the heap's
    bytes count as the store's ``extra``)."""
    cdef size_t i, parent
    if h.count == h.cap:
        if store_bytes(s) + h.cap * sizeof(u64) > s.limit:
            return -1
        if regrow(<void**>&h.data, 2 * h.cap * sizeof(u64)):
            return -1
        h.cap *= 2
        s.extra = h.cap * sizeof(u64)
    i = h.count
    h.count += 1
    while i > 0:
        parent = (i - 1) >> 1
        if h.data[parent] <= key:
            break
        h.data[i] = h.data[parent]
        i = parent
    h.data[i] = key
    return 0


cdef u64 heap_pop(Heap* h) noexcept nogil:
    cdef u64 top = h.data[0], last
    cdef size_t i = 0, child
    h.count -= 1
    last = h.data[h.count]
    while True:
        child = 2 * i + 1
        if child >= h.count:
            break
        if child + 1 < h.count and h.data[child + 1] < h.data[child]:
            child += 1
        if h.data[child] >= last:
            break
        h.data[i] = h.data[child]
        i = child
    h.data[i] = last
    return top


cdef inline u64 heap_key(int f, int g, size_t node) noexcept nogil:
    return (<u64>f << 48) | (<u64>(255 - g) << 40) | <u64>node


def astar(u64 start, const uint32_t[:, ::1] cards, Heuristic heur, long long max_nodes,
          double deadline, int weight=1, size_t max_bytes=<size_t>-1, object progress=None,
          int upper=INF, int max_depth=254):
    """A* with the admissible, consistent heuristic ``heur``; goal tested when a node is popped.
    ``max_nodes`` caps the stored (generated) states, ``max_bytes`` the memory of the store and
    the heap. Returns like :func:`bfs`. ``weight`` > 1 orders by ``g + weight * h`` (weighted A*:
    a plan at most ``weight`` times longer than the shortest, found with far fewer
    expansions). ``upper`` (with weight 1): a known plan's length; states whose f reaches it are
    neither stored nor expanded, so an exhausted search proves that plan optimal.
    ``max_depth`` (at most 254, the 8-bit depth): states this many cards deep are not expanded,
    and a search that left one unexpanded ends CUT, never EXHAUSTED (no proof); so does one that
    dropped a state whose f reached 255 when no ``upper`` below it was given."""
    cdef const HTab* t = &heur.t
    cdef Work w = Work(cards)
    cdef Store s
    cdef Heap heap
    cdef int n = train_length(start), k, j, h, g, f, status = EXHAUSTED, best = 0
    cdef bint deep = False
    if not 0 <= max_depth <= 254:
        raise ValueError(f"max_depth must be 0..254, got {max_depth}")
    if not 1 <= weight <= 64:  # f = g + weight * h fits the key's 16 bits
        raise ValueError(f"weight must be 1..64, got {weight}")
    cdef size_t slot, node, found = 0
    cdef long idx
    cdef long long generated = 0, expanded = 0
    cdef u64 key, x, y
    cdef double t0 = now()
    cdef list errors = []
    heap.count = 0
    heap.cap = 1 << 16
    heap.data = <u64*>malloc(heap.cap * sizeof(u64))
    if store_init(&s, 1 << 16) != 0 or heap.data == NULL:
        store_free(&s)
        free(heap.data)
        raise MemoryError()
    s.limit = max_bytes
    s.extra = heap.cap * sizeof(u64)
    try:
        with nogil:
            h = heuristic_c(start, n, t)
            add_node(&s, slot_of(&s, start), start, 0, 0, 0)
            if h < INF and (weight > 1 or h < upper):
                heap_push(&heap, heap_key(weight * h, 0, 0), &s)
            while heap.count:
                key = heap_pop(&heap)
                node = key & 0xFFFFFFFFFFULL
                g = 255 - <int>((key >> 40) & 255)
                if g != s.g[node]:
                    continue        # a stale entry: the node was reached more cheaply since
                f = <int>(key >> 48)
                if f > best:
                    best = f
                x = s.state[node]
                if is_goal_c(x, n):
                    status = FOUND
                    found = node
                    break
                expanded += 1
                status = checkpoint(expanded, deadline, progress, s.count, best, t0, errors)
                if status != EXHAUSTED:
                    break
                if g >= max_depth:  # a state left unexpanded: no proof of unsolvability
                    deep = True
                    continue
                k = expand_raw(x, n, w.cs, w.ncards, &w.g)
                generated += k
                prefetch_all(&s, w.g.out, k)
                for j in range(k):
                    y = w.g.out[j]
                    if y == x:
                        continue
                    slot = slot_of(&s, y)
                    if s.table[slot].key != 0:
                        if s.table[slot].g <= g + 1:
                            continue
                        h = heuristic_c(y, n, t)
                        if g + 1 + h >= upper:
                            deep |= upper >= INF
                            continue
                        s.table[slot].g = g + 1
                        idx = s.table[slot].idx
                        s.g[idx] = g + 1
                        s.parent[idx] = <uint32_t>node
                        s.card[idx] = w.g.card[j]
                    else:
                        h = heuristic_c(y, n, t)
                        if h >= INF:
                            continue
                        if g + 1 + h >= upper:
                            deep |= upper >= INF    # f beyond the 8-bit depth: no proof
                            continue
                        if <long long>s.count >= max_nodes:
                            status = CUT
                            break
                        idx = add_node(&s, slot, y, <uint32_t>node, w.g.card[j], g + 1)
                        if idx < 0:
                            status = NOMEM
                            break
                    if heap_push(&heap, heap_key(g + 1 + weight * h, g + 1, idx), &s) != 0:
                        status = NOMEM
                        break
                if status != EXHAUSTED:
                    break
            if status == EXHAUSTED and deep:
                status = CUT
        return finish(status, &s, found, s.count, expanded, generated, best, errors)
    finally:
        store_free(&s)
        free(heap.data)


# ---------------------------------------------------------------------------------------------
# IDA*: depth-first iterations with a growing f bound, a lossy transposition table per iteration
# (a state reached again at a depth not smaller than before has nothing new to offer), and an
# exact record of what one iteration expanded and cut, while it stays small, from which an
# iteration proves the puzzle unsolvable (see ``idastar`` and docs/lucia.md)

cdef struct Frame:
    u64* child
    uint16_t* card
    uint8_t* h
    int count, next, cap
    int made            # distinct successors before x, its parent and hopeless ones are dropped


cdef int frame_fill(Frame* f, u64 x, u64 parent, int n, Work w, const HTab* t) noexcept:
    """Children of x over all cards, distinct, without x, its parent and hopeless children
    (h = INF), sorted by heuristic value: the promising ones are tried first, and once one is
    beyond the bound so are all after it."""
    cdef int k = expand_state(x, n, w.cs, w.ncards, &w.g), j, i, h
    cdef u64 y
    cdef uint16_t c
    f.count = 0
    f.next = 0
    f.made = k
    if k > f.cap:
        if (regrow(<void**>&f.child, 2 * k * sizeof(u64)) or
                regrow(<void**>&f.card, 2 * k * sizeof(uint16_t)) or
                regrow(<void**>&f.h, 2 * k * sizeof(uint8_t))):
            return -1
        f.cap = 2 * k
    for j in range(k):
        y = w.g.out[j]
        if y == x or y == parent:
            continue
        h = heuristic_c(y, n, t)
        if h >= INF:
            continue
        c = w.g.card[j]
        i = f.count     # insertion sort: children are few
        while i > 0 and f.h[i - 1] > h:
            f.child[i] = f.child[i - 1]
            f.card[i] = f.card[i - 1]
            f.h[i] = f.h[i - 1]
            i -= 1
        f.child[i] = y
        f.card[i] = c
        f.h[i] = <uint8_t>h
        f.count += 1
    return 0


cdef enum:
    SEEN_EXPANDED = 1   # expanded in this iteration
    SEEN_CUT = 2        # cut at the bound in this iteration, not expanded (yet)
    PROOF_BITS = 21     # the record's most slots (2^21: a million states at load 1/2, 18 MB)
    PENDING_MAX = 1 << 12   # cut states not expanded yet, at most, before a proof is given up


# an exact hash set (open addressing, never lossy) of the states one IDA* iteration expanded
# or cut, each with SEEN_EXPANDED or SEEN_CUT
cdef struct Seen:
    u64* key            # 0 = empty (no train packs to 0: every train holds a Lucia)
    uint8_t* what
    size_t size, count, max_size
    int shift           # 64 - log2(size): the hash's top bits pick the first slot


cdef inline size_t seen_slot(const Seen* r, u64 y) noexcept nogil:
    cdef size_t mask = r.size - 1, slot = <size_t>((y * 0x9E3779B97F4A7C15ULL) >> r.shift)
    while r.key[slot] != 0 and r.key[slot] != y:
        slot = (slot + 1) & mask
    return slot


cdef int seen_mark(Seen* r, u64 y, int what) noexcept nogil:
    """Record y as ``what`` (SEEN_EXPANDED overrides SEEN_CUT, never the reverse); returns what
    y was before (0: not recorded), or -1 when the record would pass ``max_size`` slots or
    malloc fails."""
    cdef size_t slot = seen_slot(r, y), i, old_size
    cdef int before
    cdef u64* old_key
    cdef uint8_t* old_what
    if r.key[slot] == y:
        before = r.what[slot]
        if what == SEEN_EXPANDED:
            r.what[slot] = SEEN_EXPANDED
        return before
    if 2 * (r.count + 1) > r.size:     # grow: at most half full
        if 2 * r.size > r.max_size:
            return -1
        old_key, old_what, old_size = r.key, r.what, r.size
        r.key = <u64*>calloc(2 * old_size, sizeof(u64))
        r.what = <uint8_t*>malloc(2 * old_size * sizeof(uint8_t))
        if r.key == NULL or r.what == NULL:
            free(r.key)
            free(r.what)
            r.key, r.what = old_key, old_what
            return -1
        r.size = 2 * old_size
        r.shift -= 1
        for i in range(old_size):
            if old_key[i] != 0:
                slot = seen_slot(r, old_key[i])
                r.key[slot] = old_key[i]
                r.what[slot] = old_what[i]
        free(old_key)
        free(old_what)
        slot = seen_slot(r, y)
    r.key[slot] = y
    r.what[slot] = <uint8_t>what
    r.count += 1
    return 0


def idastar(u64 start, const uint32_t[:, ::1] cards, Heuristic heur, long long max_nodes,
            double deadline, int tt_bits=20, object progress=None, int proof_bits=PROOF_BITS,
            int pending_max=PENDING_MAX):
    """IDA* with the heuristic ``heur``. ``max_nodes`` caps the nodes visited over all
    iterations. Returns like :func:`bfs` (``nodes`` = visits, ``expanded`` = expansions).

    Unsolvable (status 1) is proven by an iteration that ends with no goal found and every child
    it cut at the bound expanded in that same iteration: then every reachable state was expanded
    (docs/lucia.md, "IDA* proves unsolvable"). An exact record (``Seen``) of the states the
    iteration expanded and cut checks this. The iteration gives the proof up (and skips the
    rest of a frame after a cut, sorted by h, as it always did before) once more than
    ``pending_max`` cut states wait to be expanded; the search gives it up for good once the
    record would need more than 2^``proof_bits`` slots (at least 2^10; a larger reachable space
    in one iteration, and the next iterations only reach more). ``proof_bits=0`` keeps no
    record: only an iteration that cut nothing proves, as before."""
    cdef const HTab* t = &heur.t
    cdef Work w = Work(cards)
    cdef int n = train_length(start), depth = 0, f, bound, next_bound, proven = 0
    cdef int status = EXHAUSTED, i, before
    cdef int tt_shift = 64 - max(4, min(tt_bits, 26))
    cdef size_t tt_size = (<size_t>1) << (64 - tt_shift), slot
    cdef Frame* frames = <Frame*>malloc(256 * sizeof(Frame))
    cdef u64* path = <u64*>malloc(256 * sizeof(u64))
    cdef uint16_t* path_card = <uint16_t*>malloc(256 * sizeof(uint16_t))
    cdef u64* tt_key = <u64*>malloc(tt_size * sizeof(u64))
    cdef uint8_t* tt_g = <uint8_t*>malloc(tt_size * sizeof(uint8_t))
    cdef Seen seen
    cdef bint provable = proof_bits > 0   # the record still fits (else no iteration proves)
    cdef bint proving                     # this iteration may still prove unsolvability
    cdef long long pending = 0            # states cut and not expanded yet, this iteration
    cdef long long visits = 0, expanded = 0, generated = 0
    cdef u64 y
    cdef double t0 = now()
    cdef list errors = []
    seen.size = 1 << 10
    seen.shift = 64 - 10
    seen.max_size = (<size_t>1) << max(10, min(proof_bits, 30))
    seen.count = 0
    seen.key = <u64*>calloc(seen.size, sizeof(u64))
    seen.what = <uint8_t*>malloc(seen.size * sizeof(uint8_t))
    if frames != NULL:
        memset(frames, 0, 256 * sizeof(Frame))
    try:
        if (frames == NULL or path == NULL or path_card == NULL or tt_key == NULL or tt_g == NULL
                or seen.key == NULL or seen.what == NULL):
            raise MemoryError()
        bound = heuristic_c(start, n, t)
        proven = bound if bound < INF else 0
        path[0] = start
        while bound < INF and status == EXHAUSTED:
            memset(tt_key, 0, tt_size * sizeof(u64))
            next_bound = NO_BOUND
            depth = 0
            if is_goal_c(start, n):
                status = FOUND
                break
            if frame_fill(&frames[0], start, start, n, w, t) != 0:
                status = NOMEM
                break
            proving = provable
            pending = 0
            if proving:
                memset(seen.key, 0, seen.size * sizeof(u64))
                seen.count = 0
                seen_mark(&seen, start, SEEN_EXPANDED)
            expanded += 1
            generated += frames[0].made
            while depth >= 0:
                if frames[depth].next == frames[depth].count:
                    depth -= 1
                    continue
                i = frames[depth].next
                frames[depth].next += 1
                y = frames[depth].child[i]
                visits += 1
                if visits >= max_nodes:
                    status = CUT
                    break
                if (visits & 4095) == 0:
                    if deadline > 0 and now() > deadline:
                        status = TIMEUP
                        break
                    if (visits & 65535) == 0:
                        status = poll(progress, visits, expanded, bound, t0, errors)
                        if status != EXHAUSTED:
                            break
                f = depth + 1 + frames[depth].h[i]
                if f > bound:
                    if f < next_bound:
                        next_bound = f
                    if proving:
                        # a proof needs y expanded in this iteration, already or later; the
                        # frame's next children (sorted by h: beyond the bound too) are
                        # looked at in turn
                        before = seen_mark(&seen, y, SEEN_CUT)
                        if before == 0:
                            pending += 1
                        if before >= 0 and pending <= pending_max:
                            continue
                        proving = False
                        if before < 0:
                            provable = False
                    frames[depth].next = frames[depth].count   # the rest are sorted after
                    continue
                path[depth + 1] = y
                path_card[depth + 1] = frames[depth].card[i]
                if is_goal_c(y, n):
                    status = FOUND
                    depth += 1
                    break
                slot = <size_t>((y * 0x9E3779B97F4A7C15ULL) >> tt_shift)
                if tt_key[slot] == y and tt_g[slot] <= depth + 1:
                    continue        # expanded earlier in this iteration, at most this deep
                tt_key[slot] = y
                tt_g[slot] = depth + 1
                depth += 1      # f <= bound < 255 keeps depth below 255
                if frame_fill(&frames[depth], y, path[depth - 1], n, w, t) != 0:
                    status = NOMEM
                    break
                expanded += 1
                generated += frames[depth].made
                if proving:
                    before = seen_mark(&seen, y, SEEN_EXPANDED)
                    if before == SEEN_CUT:
                        pending -= 1
                    elif before < 0:
                        proving = provable = False
            if status == EXHAUSTED:
                # nothing cut at the bound, or every child cut was expanded in this iteration
                # too: every reachable state was (docs/lucia.md), and none is a goal, a proof.
                # Else the next bound, unless the path would outgrow the 8-bit depth
                if next_bound == NO_BOUND or (proving and pending == 0):
                    break
                if next_bound >= INF:
                    status = CUT
                bound = next_bound
                proven = bound
        if errors:
            raise errors[0]
        if status == FOUND:
            return (status, [path[i] for i in range(depth + 1)],
                    [path_card[i] for i in range(1, depth + 1)], visits, expanded, generated,
                    depth)
        return status, [], [], visits, expanded, generated, proven
    finally:
        if frames != NULL:
            for i in range(256):
                free(frames[i].child)
                free(frames[i].card)
                free(frames[i].h)
        free(frames)
        free(path)
        free(path_card)
        free(tt_key)
        free(tt_g)
        free(seen.key)
        free(seen.what)
include "lucia_deal.pxi"
