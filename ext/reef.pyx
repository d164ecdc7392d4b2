# cython: language_level=3
"""Bitboard kernel for Lumicora reefs. Private: use :mod:`lumicore.reef.kernel`, which validates
every input before it reaches this module.

A reef state (:class:`State`) keeps, over the board's cells (bit ``i`` = cell ``i``, at most 64):
per-level masks ``lvl[h]`` (cells whose height is ``h``; ``lvl[0]`` = bare spaces), the visible
colour masks ``vcol[c]``, visible-number masks ``vnum[n]`` and visible-animal masks ``vani[a]``,
plus per-cell arrays (height, top piece id, visible colour / number / animal). Placements are
applied in place with an undo record, so the hand search (:func:`search_hand`) walks the tree
without copying. The rules are those of ``reef.md`` (placement rules 1-4), stated plainly in
``lumicore/reef/reference.py``.
"""

from cpython.exc cimport PyErr_CheckSignals
from cpython.long cimport PyLong_AsLongAndOverflow
from cpython.ref cimport PyObject
from libc.limits cimport LONG_MAX
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport calloc, free
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from bits cimport ctz, popcount

from lumicore.checks import check_int
from lumicore.data import shorten
from lumicore.errors import LumicoreError

cdef enum:
    MAXCELLS = 64
    MAXLEVEL = 128        # heights 0 .. MAXLEVEL - 1
    MAXMOVES = 512        # >= 2 * edges of any 64-cell hex board (at most 2 * 3 * 64)
    MAXHAND = 3
    NFEATURES = 11
    POLL_MASK = 32767     # hand-search nodes between two polls for Ctrl-C (a few milliseconds)

# Python-visible limits (lumicore/reef/kernel.py validates against them)
MAX_CELLS = MAXCELLS
MAX_HEIGHT = MAXLEVEL - 2       # a cell this high cannot take another Lumino in the kernel
MAX_HAND = MAXHAND
N_FEATURES = NFEATURES
FEATURES = (
    "coral:pink", "coral:green", "coral:blue", "coral:yellow",
    "visible:pink", "visible:green", "visible:blue", "visible:yellow",
    "animals:dark", "animals:light", "remote",
)
"""Feature order of :func:`State.features` and of the weight vector of :func:`search_hand`."""

# dark score board: points for 0..4 visible animals of a species (codes as lumicore.reef.tiles)
cdef int DARK[4][5]
DARK[0][:] = [0, 0, 1, 4, 8]      # shellfish
DARK[1][:] = [0, 2, 4, 7, 10]     # crab
DARK[2][:] = [0, 1, 6, 7, 12]     # seahorse
DARK[3][:] = [0, 4, 8, 11, 14]    # starfish
# light score board per species: small and large points, neighbours the large scoring needs
cdef int LIGHT_SMALL[4]
LIGHT_SMALL[:] = [1, 1, 2, 2]
cdef int LIGHT_MAX[4]
LIGHT_MAX[:] = [2, 3, 7, 4]
cdef int LIGHT_NEED[4]
LIGHT_NEED[:] = [3, 4, 6, 5]


cdef struct RS:
    int n
    int npieces
    int maxh
    uint64_t allm
    uint64_t base
    uint64_t water
    uint64_t remote
    uint64_t nbr[MAXCELLS]
    int penalty[MAXCELLS]
    int height[MAXCELLS]
    int top[MAXCELLS]
    int col[MAXCELLS]
    int num[MAXCELLS]
    int ani[MAXCELLS]
    uint64_t lvl[MAXLEVEL]
    uint64_t vcol[4]
    uint64_t vnum[7]
    uint64_t vani[4]


cdef struct Undo:
    int a
    int b
    int h
    int maxh
    int top_a
    int top_b
    int col_a
    int col_b
    int num_a
    int num_b
    int ani_a
    int ani_b


cdef inline uint64_t bit(int i) noexcept nogil:
    return (<uint64_t>1) << i


cdef inline uint64_t adjacent(const RS* s, uint64_t m) noexcept nogil:
    """Cells next to any cell of ``m``."""
    cdef uint64_t out = 0
    while m:
        out |= s.nbr[ctz(m)]
        m &= m - 1
    return out


cdef inline void hide(RS* s, int x) noexcept nogil:
    cdef uint64_t m = ~bit(x)
    s.lvl[s.height[x]] &= m
    if s.col[x] >= 0:
        s.vcol[s.col[x]] &= m
    if s.num[x] > 0:
        s.vnum[s.num[x]] &= m
    if s.ani[x] >= 0:
        s.vani[s.ani[x]] &= m


cdef inline void show(RS* s, int x) noexcept nogil:
    cdef uint64_t m = bit(x)
    s.lvl[s.height[x]] |= m
    if s.col[x] >= 0:
        s.vcol[s.col[x]] |= m
    if s.num[x] > 0:
        s.vnum[s.num[x]] |= m
    if s.ani[x] >= 0:
        s.vani[s.ani[x]] |= m


cdef inline void set_cell(RS* s, int x, int h, int top, int c, int number,
                          int animal) noexcept nogil:
    hide(s, x)
    s.height[x] = h
    s.top[x] = top
    s.col[x] = c
    s.num[x] = number
    s.ani[x] = animal
    show(s, x)


cdef void clear(RS* s) noexcept nogil:
    """Every cell bare, no pieces (the board's own data are kept)."""
    cdef int i
    for i in range(MAXLEVEL):
        s.lvl[i] = 0
    for i in range(4):
        s.vcol[i] = 0
        s.vani[i] = 0
    for i in range(7):
        s.vnum[i] = 0
    for i in range(MAXCELLS):
        s.height[i] = 0
        s.top[i] = -1
        s.col[i] = -1
        s.num[i] = 0
        s.ani[i] = -1
    s.lvl[0] = s.allm
    s.npieces = 0
    s.maxh = 0


cdef void apply(RS* s, int a, int b, int ca, int cb, int number, int animal,
                Undo* u) noexcept nogil:
    """Put a piece on cells ``a`` (colour ``ca``, the number half) and ``b`` (colour ``cb``, the
    animal half), one level above them. The caller guarantees a legal placement."""
    cdef int h = s.height[a] + 1
    if u != NULL:
        u.a = a
        u.b = b
        u.h = h - 1
        u.maxh = s.maxh
        u.top_a = s.top[a]
        u.top_b = s.top[b]
        u.col_a = s.col[a]
        u.col_b = s.col[b]
        u.num_a = s.num[a]
        u.num_b = s.num[b]
        u.ani_a = s.ani[a]
        u.ani_b = s.ani[b]
    set_cell(s, a, h, s.npieces, ca, number, -1)
    set_cell(s, b, h, s.npieces, cb, 0, animal)
    s.npieces += 1
    if h > s.maxh:
        s.maxh = h


cdef void undo(RS* s, const Undo* u) noexcept nogil:
    set_cell(s, u.a, u.h, u.top_a, u.col_a, u.num_a, u.ani_a)
    set_cell(s, u.b, u.h, u.top_b, u.col_b, u.num_b, u.ani_b)
    s.npieces -= 1
    s.maxh = u.maxh


cdef int gen(const RS* s, int c, int limestone, int* out_a, int* out_b,
             int* out_cost) noexcept nogil:
    """Every legal placement of a one-colour Lumino of colour ``c`` with ``limestone`` markers:
    writes (number cell, other cell, cost) sorted by (number cell, other cell); returns the count.
    """
    cdef uint64_t free0 = s.lvl[0] & s.base
    cdef uint64_t touch1 = adjacent(s, s.lvl[1] & s.vcol[c])
    cdef uint64_t m, pair
    cdef int a, b, h, cost
    cdef int count = 0
    cdef bint fits = False
    # level 1: touch a level-1 space of colour c; if no pair of free adjacent base spaces can
    # (limestone ignored), touch any visible level-1 coral space instead
    m = free0 & touch1
    while m:
        if s.nbr[ctz(m)] & free0:
            fits = True
            break
        m &= m - 1
    if not fits:
        touch1 = adjacent(s, s.lvl[1])
    for a in range(s.n):
        h = s.height[a]
        if h == 0:
            if not (free0 >> a) & 1:
                continue
            m = s.nbr[a] & free0
        elif h < MAXLEVEL - 1:
            m = s.nbr[a] & s.lvl[h]
        else:
            continue
        while m:
            b = ctz(m)
            m &= m - 1
            pair = bit(a) | bit(b)
            if h == 0:
                if not (pair & touch1):
                    continue
                cost = popcount(pair & s.water)
                if cost > limestone:
                    continue
            else:
                if s.top[a] == s.top[b]:
                    continue
                if (s.col[a] != c and s.col[b] != c
                        and not ((s.nbr[a] | s.nbr[b]) & s.lvl[h + 1] & s.vcol[c])):
                    continue
                cost = 0
            out_a[count] = a
            out_b[count] = b
            out_cost[count] = cost
            count += 1
    return count


cdef int coral(const RS* s, int c) noexcept nogil:
    """Coral scoring of colour ``c``: per level the smallest visible ``c`` number, summed."""
    cdef int total = 0
    cdef int h, n
    cdef uint64_t m
    for h in range(1, s.maxh + 1):
        m = s.lvl[h] & s.vcol[c]
        if m:
            for n in range(1, 7):
                if m & s.vnum[n]:
                    total += n
                    break
    return total


cdef int dark_animals(const RS* s) noexcept nogil:
    cdef int total = 0
    cdef int a, k
    for a in range(4):
        k = popcount(s.vani[a])
        total += DARK[a][k if k < 4 else 4]
    return total


cdef inline int light_points(int a, int k) noexcept nogil:
    """Light-board points of an animal of species ``a`` with ``k`` qualifying neighbours."""
    return LIGHT_MAX[a] if k >= LIGHT_NEED[a] else (LIGHT_SMALL[a] if k >= 1 else 0)


cdef int light_animals(const RS* s, int changes, int* gain) noexcept nogil:
    """Light score board animal points.

    If ``gain`` is not NULL it receives a bound on what the visible animals can gain when at most
    ``changes`` cells change: an animal's score depends only on its neighbours, and each changed
    neighbour moves its count by at most one (shellfish never gain: water only gets covered).
    The bound is the smaller of the sum of these gains and, summed over the ``changes`` cells
    whose neighbouring animals could gain most, those cells' totals.
    """
    cdef uint64_t above[MAXLEVEL]     # above[h]: cells higher than h
    cdef int near[MAXCELLS]           # per cell: the gains of the animals next to it
    cdef uint64_t acc = 0
    cdef uint64_t m
    cdef int h, a, x, k, pts, g, r, best
    cdef int total = 0
    cdef int sum_gain = 0
    cdef int top = 0
    for h in range(s.maxh, -1, -1):
        above[h] = acc
        acc |= s.lvl[h]
    for x in range(MAXCELLS):
        near[x] = 0
    for a in range(4):
        m = s.vani[a]
        while m:
            x = ctz(m)
            m &= m - 1
            h = s.height[x]
            if a == 0:      # shellfish: bare water neighbours
                k = popcount(s.nbr[x] & s.water & s.lvl[0])
            elif a == 1:    # crab: coral neighbours in the same level
                k = popcount(s.nbr[x] & s.lvl[h])
            elif a == 2:    # seahorse: coral neighbours in a higher level
                k = popcount(s.nbr[x] & above[h])
            else:           # starfish: coral neighbours in a lower level (level >= 1)
                k = popcount(s.nbr[x] & s.allm & ~s.lvl[0] & ~s.lvl[h] & ~above[h])
            pts = light_points(a, k)
            total += pts
            if gain != NULL and a != 0:
                g = light_points(a, k + changes if k + changes < 6 else 6) - pts
                sum_gain += g
                acc = s.nbr[x]
                while acc:
                    near[ctz(acc)] += g
                    acc &= acc - 1
    if gain != NULL:
        for r in range(changes if changes < s.n else s.n):
            best = 0
            for x in range(1, s.n):
                if near[x] > near[best]:
                    best = x
            top += near[best]
            near[best] = 0
        gain[0] = sum_gain if sum_gain < top else top
    return total


cdef int remote_penalty(const RS* s) noexcept nogil:
    """Sum of the penalties of the remote spaces still visible (a positive number)."""
    cdef uint64_t m = s.remote & s.lvl[0]
    cdef int total = 0
    while m:
        total += s.penalty[ctz(m)]
        m &= m - 1
    return total


cdef void features(const RS* s, const double* w, double* out) noexcept nogil:
    """The features (order of FEATURES) whose weight is not 0; the others are left at 0."""
    cdef int c
    for c in range(NFEATURES):
        out[c] = 0.0
    for c in range(4):
        if w[c] != 0.0:
            out[c] = coral(s, c)
        if w[4 + c] != 0.0:
            out[4 + c] = popcount(s.vcol[c])
    if w[8] != 0.0:
        out[8] = dark_animals(s)
    if w[9] != 0.0:
        out[9] = light_animals(s, 0, NULL)
    if w[10] != 0.0:
        out[10] = -remote_penalty(s)


cdef double value(const RS* s, const double* w) noexcept nogil:
    cdef double f[NFEATURES]
    cdef double total = 0.0
    cdef int i
    features(s, w, f)
    for i in range(NFEATURES):
        total += w[i] * f[i]
    return total


cdef object _whole(object value, str name, object low, object high, str what=None):
    """``value`` as a Python int if it is an integer (numpy's too, a bool none) from ``low`` to
    ``high`` (None: unbounded); else a LumicoreError naming ``name`` and quoting the value
    (:func:`lumicore.checks.check_int`). For the Python-callable methods only: the kernel's
    loops take C ints that these checks let through."""
    if type(value) is int and (low is None or low <= value) and (high is None or value <= high):
        return value
    return check_int(value, name, low, high, what)


cdef object _per_cell(object values, str name, int n):
    """``values`` as a list or tuple of ``n`` items (one per cell); else a LumicoreError naming
    ``name``."""
    if (type(values) is tuple or type(values) is list) and len(values) == n:
        return values
    try:
        size = len(values)
    except TypeError:
        size = None
    if size != n or isinstance(values, (str, bytes)):
        raise LumicoreError(f"{name} must be a sequence of {n} values, one per cell, got "
                            f"{shorten(values)}")
    return list(values)


cdef int _color(object color) except -1:
    """``color`` as a colour code 0..3 (pink, green, blue, yellow); else a LumicoreError."""
    if type(color) is int and 0 <= color < 4:
        return color
    return _whole(color, "color", 0, 3, "a colour code from 0 to 3")


cdef int _limestone(object limestone) except -1:
    """``limestone`` as a count of markers (capped where it no longer matters, as
    lumicore.reef.kernel.check_limestone); else a LumicoreError."""
    return min(_whole(limestone, "limestone", 0, None, "an integer >= 0"), 2**31 - 1)


cdef tuple _cell_values(int i, h, top, color, number, animal, int pieces):
    """The five values of cell ``i`` of :meth:`State.load` as ints (numpy's taken too); a
    LumicoreError naming the first bad one."""
    return (_whole(h, f"heights[{i}]", 0, MAXLEVEL - 2),
            _whole(top, f"tops[{i}]", -1, pieces - 1,
                   f"a piece index from -1 (none) to {pieces - 1} (below npieces)"),
            _whole(color, f"colors[{i}]", -1, 3, "a colour code from -1 (bare) to 3"),
            _whole(number, f"numbers[{i}]", 0, 6),
            _whole(animal, f"animals[{i}]", -1, 3, "an animal code from -1 (none) to 3"))


cdef inline bint _c_long(object value, long low, long high, long* out) noexcept:
    """Whether ``value`` is a Python int from ``low`` to ``high``, then written to ``out``: the
    fast check of the Python-callable methods (anything else goes to :func:`_whole`, which
    takes numpy's ints too and names a bad value)."""
    cdef int overflow = 0
    cdef long v
    if type(value) is not int:
        return False
    v = PyLong_AsLongAndOverflow(value, &overflow)
    if overflow or not low <= v <= high:
        return False
    out[0] = v
    return True


cdef inline bint _c_int(object value, long low, long high, int* out) noexcept:
    cdef long v
    if not _c_long(value, low, high, &v):
        return False
    out[0] = <int>v
    return True


cdef inline bint _c_mask(object value, uint64_t* out) noexcept:
    """Whether ``value`` is a Python int from 0 to 2**63 - 1 (a mask of bit 63 goes to
    :func:`_whole`), then written to ``out``."""
    cdef long v
    if not _c_long(value, 0, LONG_MAX, &v):
        return False
    out[0] = <uint64_t>v
    return True


cdef class State:
    """A reef as bitboards. Build it with :func:`lumicore.reef.kernel.state` (which validates).

    ``State(n, neighbors, base, water, remote, penalties)`` is an empty board of ``n`` cells;
    :meth:`apply` adds pieces in placement order (the first one is the starting Lumino). Every
    method called from Python checks its arguments: a bad one is a LumicoreError naming it.
    """

    cdef RS s

    def __reduce__(self):
        raise TypeError("a lumicore.reef.kernel.State cannot be pickled: pickle the Reef and "
                        "build its State again with lumicore.reef.kernel.state(reef)")

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __cinit__(self, n, neighbors, base, water, remote, penalties):
        cdef int i, cells, pen
        cdef uint64_t mask
        cdef uint64_t masks[3]
        if not _c_int(n, 1, MAXCELLS, &cells):
            cells = _whole(n, "n", 1, MAXCELLS, f"a cell count from 1 to {MAXCELLS}")
        nbrs = _per_cell(neighbors, "neighbors", cells)
        pens = _per_cell(penalties, "penalties", cells)
        if not (_c_mask(base, &masks[0]) and _c_mask(water, &masks[1])
                and _c_mask(remote, &masks[2])):
            for i, (value, name) in enumerate(((base, "base"), (water, "water"),
                                               (remote, "remote"))):
                masks[i] = _whole(value, name, 0, 2**64 - 1, "a 64-bit cell mask")
        self.s.n = cells
        self.s.allm = (~(<uint64_t>0)) if cells == 64 else (bit(cells) - 1)
        self.s.base = masks[0] & self.s.allm
        self.s.water = masks[1] & self.s.allm
        self.s.remote = masks[2] & self.s.allm
        for i in range(MAXCELLS):
            self.s.nbr[i] = 0
            self.s.penalty[i] = 0
        for i in range(cells):
            if not _c_mask(nbrs[i], &mask):
                mask = _whole(nbrs[i], f"neighbors[{i}]", 0, 2**64 - 1, "a 64-bit cell mask")
            if not _c_int(pens[i], 0, 1 << 20, &pen):
                pen = _whole(pens[i], f"penalties[{i}]", 0, 1 << 20)
            self.s.nbr[i] = mask & self.s.allm & ~bit(i)
            self.s.penalty[i] = pen
        clear(&self.s)

    def load(self, heights, tops, colors, numbers, animals, npieces) -> None:
        """Set every cell at once from per-cell sequences (as ``Reef.heights``, ``top_pieces``,
        ``cell_colors``, ``cell_numbers``, ``cell_animals``); a LumicoreError naming the first
        value out of range (the state is then left empty)."""
        cdef int i, n = self.s.n
        cdef int pieces
        cdef int v[5]
        if not _c_int(npieces, 0, (1 << 30) - 1, &pieces):
            pieces = _whole(npieces, "npieces", 0, (1 << 30) - 1)
        hs, ts, cs = _per_cell(heights, "heights", n), _per_cell(tops, "tops", n), \
            _per_cell(colors, "colors", n)
        ns, ans = _per_cell(numbers, "numbers", n), _per_cell(animals, "animals", n)
        clear(&self.s)
        self.s.npieces = pieces
        try:
            for i in range(n):
                # a cell's five values are converted and checked before any is written: a
                # value that failed to convert used to leave the cell half written (a height
                # of -2**31 that a later call read out of bounds)
                if not (_c_int(hs[i], 0, MAXLEVEL - 2, &v[0])
                        and _c_int(ts[i], -1, pieces - 1, &v[1])
                        and _c_int(cs[i], -1, 3, &v[2]) and _c_int(ns[i], 0, 6, &v[3])
                        and _c_int(ans[i], -1, 3, &v[4])):
                    v[0], v[1], v[2], v[3], v[4] = _cell_values(
                        i, hs[i], ts[i], cs[i], ns[i], ans[i], pieces)
                if (v[0] == 0) != (v[1] < 0) or (v[0] == 0) != (v[2] < 0):
                    raise LumicoreError(
                        f"cell {i}: a bare cell (height 0) has no top piece and no colour, a "
                        f"built one has both; got height {v[0]}, top {v[1]}, colour {v[2]}")
                hide(&self.s, i)
                self.s.height[i] = v[0]
                self.s.top[i] = v[1]
                self.s.col[i] = v[2]
                self.s.num[i] = v[3]
                self.s.ani[i] = v[4]
                show(&self.s, i)
                if v[0] > self.s.maxh:
                    self.s.maxh = v[0]
        except BaseException:
            clear(&self.s)
            raise

    def copy(self) -> State:
        cdef State other = State.__new__(State, 1, (0,), 0, 0, 0, (0,))
        other.s = self.s
        return other

    def apply(self, a, b, ca, cb, number, animal) -> None:
        """Place a piece on cells ``a`` (colour ``ca``, number 0..6) and ``b`` (colour ``cb``,
        animal -1..3) one level above them. Raises LumicoreError unless both cells exist, are
        adjacent and of the same height below the kernel's ceiling (legality by the placement
        rules is the caller's job: lumicore/reef/kernel.py only applies placements that passed
        them)."""
        cdef int x = self._cell(a, "a"), y = self._cell(b, "b")
        cdef int c1 = _whole(ca, "ca", 0, 3, "a colour code from 0 to 3")
        cdef int c2 = _whole(cb, "cb", 0, 3, "a colour code from 0 to 3")
        cdef int k = _whole(number, "number", 0, 6)
        cdef int z = _whole(animal, "animal", -1, 3, "an animal code from -1 (none) to 3")
        if not (self.s.nbr[x] >> y) & 1:
            raise LumicoreError(f"cells a={x} and b={y} are not adjacent")
        if self.s.height[x] != self.s.height[y] or self.s.height[x] >= MAXLEVEL - 2:
            raise LumicoreError(f"cells a={x} and b={y} are not at one height below the "
                                f"ceiling")
        apply(&self.s, x, y, c1, c2, k, z, NULL)

    def placements(self, color, limestone) -> list:
        """Legal placements of a one-colour Lumino of ``color``: a list of (number cell, other
        cell, level, cost), sorted by (number cell, other cell)."""
        cdef int buf[3 * MAXMOVES]
        cdef int k, count
        cdef int c = _color(color)
        cdef int ls = _limestone(limestone)
        count = gen(&self.s, c, ls, buf, buf + MAXMOVES, buf + 2 * MAXMOVES)
        return [(buf[k], buf[MAXMOVES + k], self.s.height[buf[k]] + 1, buf[2 * MAXMOVES + k])
                for k in range(count)]

    def count_placements(self, color, limestone) -> int:
        """How many placements :meth:`placements` would list (no Python objects built)."""
        cdef int buf[3 * MAXMOVES]
        cdef int c = _color(color)
        cdef int ls = _limestone(limestone)
        return gen(&self.s, c, ls, buf, buf + MAXMOVES, buf + 2 * MAXMOVES)

    def count_many(self, color, limestone, repeat) -> int:
        """Enumerate ``repeat`` times (for benchmarks: no Python call per enumeration)."""
        cdef int buf[3 * MAXMOVES]
        cdef int r
        cdef int64_t total = 0
        cdef int c = _color(color)
        cdef int ls = _limestone(limestone)
        cdef int times = _whole(repeat, "repeat", 0, 2**31 - 1)
        with nogil:
            for r in range(times):
                total += gen(&self.s, c, ls, buf, buf + MAXMOVES, buf + 2 * MAXMOVES)
        return total

    # --- views (arguments are checked: these are not hot) ---

    cdef int _cell(self, object x, str name) except -1:
        if type(x) is int and 0 <= x < self.s.n:
            return x
        return _whole(x, name, 0, self.s.n - 1, f"a cell index from 0 to {self.s.n - 1}")

    def height(self, cell) -> int:
        return self.s.height[self._cell(cell, "cell")]

    def top(self, cell) -> int:
        return self.s.top[self._cell(cell, "cell")]

    def color(self, cell) -> int:
        return self.s.col[self._cell(cell, "cell")]

    def number(self, cell) -> int:
        return self.s.num[self._cell(cell, "cell")]

    def animal(self, cell) -> int:
        return self.s.ani[self._cell(cell, "cell")]

    @property
    def n(self) -> int:
        return self.s.n

    @property
    def npieces(self) -> int:
        return self.s.npieces

    @property
    def max_height(self) -> int:
        return self.s.maxh

    def level_mask(self, level) -> int:
        """Cells whose height is ``level`` (0 = bare)."""
        return self.s.lvl[<int>_whole(level, "level", 0, MAXLEVEL - 1)]

    def color_mask(self, color) -> int:
        return self.s.vcol[_color(color)]

    def number_mask(self, number) -> int:
        return self.s.vnum[<int>_whole(number, "number", 1, 6)]

    def animal_mask(self, animal) -> int:
        return self.s.vani[<int>_whole(animal, "animal", 0, 3, "an animal code from 0 to 3")]

    def visible_count(self, color) -> int:
        return popcount(self.s.vcol[_color(color)])

    def coral_score(self, color) -> int:
        return coral(&self.s, _color(color))

    def animal_counts(self) -> tuple:
        return tuple(popcount(self.s.vani[a]) for a in range(4))

    def dark_animal_points(self) -> int:
        return dark_animals(&self.s)

    def light_animal_points(self) -> int:
        return light_animals(&self.s, 0, NULL)

    def remote_penalty(self) -> int:
        return remote_penalty(&self.s)

    def features(self) -> tuple:
        """All features, in the order of FEATURES."""
        cdef double w[NFEATURES]
        cdef double f[NFEATURES]
        cdef int i
        for i in range(NFEATURES):
            w[i] = 1.0
        features(&self.s, w, f)
        return tuple(f[i] for i in range(NFEATURES))


# ------------------------------------------------------------------------------------------------
# exhaustive hand search


cdef struct Ctx:
    RS* s
    int nkinds
    int kc[MAXHAND]
    int kn[MAXHAND]
    int ka[MAXHAND]
    int left[MAXHAND]
    double w[NFEATURES]
    double discard_cost
    double limestone_value
    bint prune
    int ndiscard
    int depth_path_k[MAXHAND + 1]
    int depth_path_a[MAXHAND + 1]
    int depth_path_b[MAXHAND + 1]
    bint have_best
    double best_v
    int best_ls
    int best_k[MAXHAND]
    int best_a[MAXHAND]
    int best_b[MAXHAND]
    int64_t nodes
    int64_t max_nodes
    double deadline
    bint stopped
    uint64_t* tt
    uint64_t tt_mask
    int64_t tt_used
    int64_t merged
    int64_t pruned
    int* moves
    PyObject* poll        # a callable (or NULL): asked every POLL_MASK + 1 nodes whether to stop
    PyObject* errors      # a list: what a poll raised, other than KeyboardInterrupt
    bint interrupted      # Ctrl-C or the poll stopped the search


cdef inline uint64_t mix(uint64_t z) noexcept nogil:
    """splitmix64 finaliser: a fixed pseudo-random 64-bit key for each action."""
    z += 0x9E3779B97F4A7C15ULL
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t action_key(int kind, int a, int b, int h) noexcept nogil:
    # a = -1: discard. Keys are added (mod 2**64), so a multiset of actions has one key
    # whatever their order: two orders reaching the same reef with the same tiles left merge.
    return mix(((<uint64_t>(kind + 1)) << 32) | ((<uint64_t>(a + 1)) << 20)
               | ((<uint64_t>(b + 1)) << 10) | (<uint64_t>h))


cdef double now() noexcept nogil:
    cdef timespec t
    clock_gettime(CLOCK_MONOTONIC, &t)
    return t.tv_sec + 1e-9 * t.tv_nsec


cdef bint tt_insert(Ctx* x, uint64_t key) noexcept nogil:
    """Add ``key`` to the set of visited nodes; False if it was there already."""
    cdef uint64_t* old
    cdef uint64_t old_mask, i, j, k
    if key == 0:
        key = 1
    if (x.tt_used + 1) * 2 > <int64_t>(x.tt_mask + 1):
        old = x.tt
        old_mask = x.tt_mask
        x.tt = <uint64_t*>calloc(2 * (old_mask + 1), sizeof(uint64_t))
        if x.tt == NULL:        # out of memory: keep the old table (no merging is still correct)
            x.tt = old
        else:
            x.tt_mask = 2 * old_mask + 1
            for i in range(old_mask + 1):
                k = old[i]
                if k:
                    j = k & x.tt_mask
                    while x.tt[j]:
                        j = (j + 1) & x.tt_mask
                    x.tt[j] = k
            free(old)
    i = key & x.tt_mask  # keys are sums of mixed values: already uniform
    while x.tt[i]:
        if x.tt[i] == key:
            return False
        i = (i + 1) & x.tt_mask
    if (x.tt_used + 1) * 4 > <int64_t>(x.tt_mask + 1) * 3:   # full even after growing: no merging
        return True
    x.tt[i] = key
    x.tt_used += 1
    return True


cdef double upper_bound(const Ctx* x, int ls) noexcept nogil:
    """A value no leaf below this node can exceed, when every weight is >= 0.

    Per feature, a bound that holds whatever subset of the tiles left gets placed (and the
    returned ones only lose): coral of ``c``: per existing level its largest visible ``c``
    number, plus the number of every ``c`` tile left (each new tile can set the minimum of one
    level only); visible ``c``: +2 per ``c`` tile left; dark animals: the table at the count
    plus one per tile left with that animal; light animals: the current points, plus the gain
    bound of :func:`light_animals` for 2 changed cells per tile left, plus the best score of
    each animal left;
    remote: minus the visible penalties that 2 cells per tile left cannot cover.
    """
    cdef double f[NFEATURES]
    cdef double total
    cdef int c, h, n, k, slack, cells, best
    cdef int added[4]
    cdef int pens[MAXCELLS]
    cdef int npen = 0
    cdef uint64_t m
    for c in range(NFEATURES):
        f[c] = 0.0
    for c in range(4):
        added[c] = 0
    for c in range(4):
        if x.w[c] > 0.0:
            total = 0.0
            for h in range(1, x.s.maxh + 1):
                m = x.s.lvl[h] & x.s.vcol[c]
                if m:
                    for n in range(6, 0, -1):
                        if m & x.s.vnum[n]:
                            total += n
                            break
            for k in range(x.nkinds):
                if x.kc[k] == c:
                    total += x.left[k] * x.kn[k]
            f[c] = total
        if x.w[4 + c] > 0.0:
            n = 0
            for k in range(x.nkinds):
                if x.kc[k] == c:
                    n += x.left[k]
            f[4 + c] = popcount(x.s.vcol[c]) + 2 * n
    if x.w[8] > 0.0 or x.w[9] > 0.0:
        for k in range(x.nkinds):
            if x.ka[k] >= 0:
                added[x.ka[k]] += x.left[k]
    if x.w[8] > 0.0:
        for c in range(4):
            n = popcount(x.s.vani[c]) + added[c]
            f[8] += DARK[c][n if n < 4 else 4]
    if x.w[9] > 0.0:
        cells = 0
        for k in range(x.nkinds):
            cells += 2 * x.left[k]
        f[9] = light_animals(x.s, cells, &slack) + slack
        for c in range(4):
            f[9] += added[c] * LIGHT_MAX[c]
    if x.w[10] > 0.0:
        cells = 0
        for k in range(x.nkinds):
            cells += 2 * x.left[k]
        m = x.s.remote & x.s.lvl[0]
        while m:
            pens[npen] = x.s.penalty[ctz(m)]
            npen += 1
            m &= m - 1
        total = 0.0
        for k in range(npen):          # the penalties left after covering the largest ones
            total += pens[k]
        for n in range(cells if cells < npen else npen):
            best = 0
            for k in range(npen):
                if pens[k] > pens[best]:
                    best = k
            total -= pens[best]
            pens[best] = 0
        f[10] = -total
    total = x.limestone_value * ls - x.discard_cost * x.ndiscard   # limestone only drops
    for c in range(NFEATURES):
        total += x.w[c] * f[c]
    return total


cdef bint poll(Ctx* x) noexcept with gil:
    """Deliver pending signals and ask ``x.poll``; True to stop: Ctrl-C (KeyboardInterrupt),
    the poll said so, or it raised (kept in ``x.errors`` for the caller to raise once the
    search's memory is freed). Signals reach Python only on the main thread; the poll is how a
    press recorded elsewhere (``solvers.ctrl_c.pressed``) stops the search."""
    try:
        PyErr_CheckSignals()
        return x.poll != NULL and bool((<object>x.poll)())
    except KeyboardInterrupt:
        return True
    except BaseException as exc:
        (<list>x.errors).append(exc)
        return True


cdef bint spend(Ctx* x) noexcept nogil:
    # a node past max_nodes is refused before it is counted: nodes never exceeds the cap
    if x.max_nodes > 0 and x.nodes >= x.max_nodes:
        x.stopped = True
        return False
    x.nodes += 1
    if (x.nodes & 1023) == 0:
        if x.deadline > 0 and now() > x.deadline:
            x.stopped = True
        elif (x.nodes & POLL_MASK) == 0 and poll(x):
            x.stopped = True
            x.interrupted = True
    return not x.stopped


cdef void leaf(Ctx* x, int ls) noexcept nogil:
    cdef double v = value(x.s, x.w) - x.discard_cost * x.ndiscard + x.limestone_value * ls
    cdef int i
    if x.have_best and (v < x.best_v - 1e-9 or (v <= x.best_v + 1e-9 and ls <= x.best_ls)):
        return
    x.have_best = True
    x.best_v = v
    x.best_ls = ls
    for i in range(MAXHAND):
        x.best_k[i] = x.depth_path_k[i]
        x.best_a[i] = x.depth_path_a[i]
        x.best_b[i] = x.depth_path_b[i]


cdef void dfs(Ctx* x, int depth, int remaining, uint64_t key, int ls) noexcept nogil:
    cdef int k, i, count, h
    cdef int* ma
    cdef int* mb
    cdef int* mc
    cdef uint64_t child
    cdef Undo u
    cdef double ub
    if remaining == 0 or depth >= MAXHAND:
        leaf(x, ls)
        return
    if x.prune and x.have_best:
        ub = upper_bound(x, ls)
        if ub < x.best_v - 1e-9 or (ub <= x.best_v + 1e-9 and ls <= x.best_ls):
            x.pruned += 1
            return
    ma = x.moves + depth * 3 * MAXMOVES
    mb = ma + MAXMOVES
    mc = mb + MAXMOVES
    for k in range(x.nkinds):
        if x.left[k] == 0:
            continue
        x.left[k] -= 1
        x.depth_path_k[depth] = k
        count = gen(x.s, x.kc[k], ls, ma, mb, mc)
        for i in range(count):
            if x.stopped:
                break
            h = x.s.height[ma[i]] + 1
            child = key + action_key(k, ma[i], mb[i], h)
            if not tt_insert(x, child):
                x.merged += 1
                continue
            if not spend(x):
                break
            x.depth_path_k[depth] = k
            x.depth_path_a[depth] = ma[i]
            x.depth_path_b[depth] = mb[i]
            apply(x.s, ma[i], mb[i], x.kc[k], x.kc[k], x.kn[k], x.ka[k], &u)
            dfs(x, depth + 1, remaining - 1, child, ls - mc[i])
            undo(x.s, &u)
        if not x.stopped:
            child = key + action_key(k, -1, -1, 0)
            if not tt_insert(x, child):
                x.merged += 1
            elif spend(x):
                x.depth_path_k[depth] = k
                x.depth_path_a[depth] = -1
                x.depth_path_b[depth] = -1
                x.ndiscard += 1
                dfs(x, depth + 1, remaining - 1, child, ls)
                x.ndiscard -= 1
        x.left[k] += 1
        if x.stopped:
            return


def search_hand(State state, kinds, counts, int limestone, weights, double discard_cost,
                double limestone_value, bint prune, int64_t max_nodes, double time_limit,
                object poll=None):
    """Exhaustive search for the best way to place a hand (validated by solvers/reef.py).

    ``kinds``: distinct tiles as (colour, number 0..6, animal -1..3); ``counts``: how many of
    each (total 1..3); ``weights``: one per FEATURES entry; the value of a leaf is the weighted
    features - ``discard_cost`` per tile returned + ``limestone_value`` per marker left;
    ``prune`` cuts by
    :func:`upper_bound` (valid only when every weight is >= 0). ``max_nodes`` <= 0 and
    ``time_limit`` <= 0 mean no limit. Returns a dict: value, limestone, plan (list of
    (kind, number cell, other cell), cell -1 = returned to the bag), nodes, merged, pruned,
    complete (False when a limit stopped the search), found (False if no leaf was reached),
    bound (:func:`upper_bound` at the root; meaningful only when every weight is >= 0),
    interrupted (Ctrl-C or ``poll`` stopped it; complete is then False too).

    Every ``POLL_MASK + 1`` nodes the search takes the GIL, delivers pending signals (a
    ``KeyboardInterrupt`` stops it) and calls ``poll()`` if given (a true answer stops it; an
    exception stops it and is raised here).
    """
    cdef Ctx x
    cdef RS s = state.s          # a private copy: the caller's state is not changed
    cdef int i, total = 0
    cdef double start = now()
    nk = len(kinds)
    if not 1 <= nk <= MAXHAND or len(counts) != nk or len(weights) != NFEATURES:
        raise ValueError("bad hand or weights")
    x.s = &s
    x.nkinds = nk
    for i in range(nk):
        x.kc[i], x.kn[i], x.ka[i] = kinds[i]
        if not (0 <= x.kc[i] < 4 and 0 <= x.kn[i] <= 6 and -1 <= x.ka[i] < 4):
            raise ValueError("bad tile codes")
        x.left[i] = counts[i]
        if x.left[i] < 0:
            raise ValueError("bad counts")
        total += x.left[i]
    if not 1 <= total <= MAXHAND:
        raise ValueError("a hand has 1 to 3 tiles")
    for i in range(NFEATURES):
        x.w[i] = weights[i]
    x.discard_cost = discard_cost
    x.limestone_value = limestone_value
    x.prune = prune
    x.ndiscard = 0
    for i in range(MAXHAND):
        x.depth_path_k[i] = x.depth_path_a[i] = x.depth_path_b[i] = -1
        x.best_k[i] = x.best_a[i] = x.best_b[i] = -1
    x.have_best = False
    x.best_v = 0.0
    x.best_ls = 0
    x.nodes = x.merged = x.pruned = 0
    x.max_nodes = max_nodes
    x.deadline = start + time_limit if time_limit > 0 else 0.0
    x.stopped = False
    x.interrupted = False
    errors = []
    x.poll = NULL if poll is None else <PyObject*>poll
    x.errors = <PyObject*>errors
    x.tt_mask = (1 << 12) - 1
    x.tt_used = 0
    x.tt = <uint64_t*>calloc(x.tt_mask + 1, sizeof(uint64_t))
    x.moves = <int*>calloc(MAXHAND * 3 * MAXMOVES, sizeof(int))
    if x.tt == NULL or x.moves == NULL:
        free(x.tt)
        free(x.moves)
        raise MemoryError()
    root_bound = upper_bound(&x, limestone)
    try:
        with nogil:
            dfs(&x, 0, total, 0, limestone)
    finally:
        free(x.tt)
        free(x.moves)
    if errors:
        raise errors[0]
    plan = [(x.best_k[i], x.best_a[i], x.best_b[i]) for i in range(total)]
    return {
        "value": x.best_v, "limestone": x.best_ls, "plan": plan, "nodes": x.nodes,
        "merged": x.merged, "pruned": x.pruned, "complete": not x.stopped,
        "found": bool(x.have_best), "elapsed": now() - start, "bound": root_bound,
        "interrupted": bool(x.interrupted),
    }


# ------------------------------------------------------------------------------------------------
# whole games by the random play-out policy (the twin of lumicore.reef.reference.playout)

cdef enum:
    MAXKINDS = 128
    MAXTILES = 128        # a display or the Atoll never holds more than every tile of a game
    MAXPLAYERS = 4
    MAXSTARTS = 16

POLICY_SALT = 0x5DEECE66D
cdef uint64_t C_POLICY_SALT = 0x5DEECE66D


cdef struct Rng:
    uint64_t s


cdef inline uint64_t rng_next(Rng* r) noexcept nogil:
    cdef uint64_t z
    r.s += 0x9E3779B97F4A7C15ULL
    z = r.s
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline int below(Rng* r, int n) noexcept nogil:
    return <int>(rng_next(r) % <uint64_t>n)


cdef struct Play:
    int n
    int nkinds
    int kc[MAXKINDS]
    int kn[MAXKINDS]
    int ka[MAXKINDS]
    int unseen[MAXKINDS]
    int returned[MAXKINDS]
    int sum_unseen
    int sum_returned
    int bag_left
    int emergency
    int round
    int ending
    int extra
    Rng chance
    Rng policy
    int disp[MAXPLAYERS][MAXTILES]
    int ndisp[MAXPLAYERS]
    int atoll[MAXTILES]
    int natoll
    int lime[MAXPLAYERS]
    int vp[MAXPLAYERS]
    int jelly[MAXPLAYERS]
    int coral_list[MAXPLAYERS][4]
    int ncoral[MAXPLAYERS]
    int decisions
    RS reef[MAXPLAYERS]


cdef inline void remove_at(int* arr, int* count, int i) noexcept nogil:
    cdef int j
    for j in range(i, count[0] - 1):
        arr[j] = arr[j + 1]
    count[0] -= 1


cdef int draw(Play* g) noexcept nogil:
    """A tile kind from the bag, or -1 when even the emergency stack is gone."""
    cdef int r, k
    cdef int* counts
    if g.bag_left == 0:
        g.bag_left = g.emergency
        g.emergency = 0
        if g.round < 10 and not g.extra:
            g.ending = 1
    if g.bag_left == 0:
        return -1
    r = below(&g.chance, g.bag_left)
    counts = g.returned
    if r >= g.sum_returned:
        r = below(&g.chance, g.sum_unseen)
        counts = g.unseen
    k = 0
    while r >= counts[k]:
        r -= counts[k]
        k += 1
    if g.returned[k] > 0:
        g.returned[k] -= 1
        g.sum_returned -= 1
    else:
        g.unseen[k] -= 1
        g.sum_unseen -= 1
    g.bag_left -= 1
    return k


cdef bint fill(Play* g, int* place, int* count, int wanted) noexcept nogil:
    cdef int i, k
    for i in range(wanted):
        k = draw(g)
        if k < 0:
            return False
        place[count[0]] = k
        count[0] += 1
    return True


cdef inline int round_lime(int r) noexcept nogil:
    return 4 if r <= 4 else (2 if r <= 7 else (1 if r <= 9 else 0))


cdef void play_turn(Play* g, int p, int* moves) noexcept nogil:
    """Steps 1-4 of one play-out turn of player ``p`` (``moves``: 3 * MAXMOVES ints)."""
    cdef int put = -1
    cdef int action, i, c, count, m, t, nsame, k, ncols, nh = 0
    cdef int cols[4]
    cdef int same[MAXTILES]
    cdef int hand[MAXHAND]
    cdef RS* s = &g.reef[p]
    if g.ndisp[p] > 0:
        i = below(&g.policy, g.ndisp[p])
        put = g.disp[p][i]
        remove_at(g.disp[p], &g.ndisp[p], i)
        g.atoll[g.natoll] = put
        g.natoll += 1
    action = below(&g.policy, 3)
    ncols = 0
    for c in range(4):
        if put >= 0 and c == g.kc[put]:
            continue
        for i in range(g.natoll):
            if g.kc[g.atoll[i]] == c:
                cols[ncols] = c
                ncols += 1
                break
    if (action == 1 and g.ndisp[p] == 0) or (action == 2 and ncols == 0):
        action = 0
    if action == 0:
        if put >= 0:
            g.lime[p] = g.lime[p] + g.kn[put]
            if g.lime[p] > 10:
                g.lime[p] = 10
    elif action == 1:
        i = below(&g.policy, g.ndisp[p])
        hand[nh] = g.disp[p][i]
        nh += 1
        remove_at(g.disp[p], &g.ndisp[p], i)
    else:
        c = cols[below(&g.policy, ncols)]
        count = 0
        for i in range(g.natoll):
            if g.kc[g.atoll[i]] == c:
                count += 1
        m = 1 + below(&g.policy, count if count < 3 else 3)
        for t in range(m):
            nsame = 0
            for i in range(g.natoll):
                if g.kc[g.atoll[i]] == c:
                    same[nsame] = i
                    nsame += 1
            i = same[below(&g.policy, nsame)]
            hand[nh] = g.atoll[i]
            nh += 1
            remove_at(g.atoll, &g.natoll, i)
    g.decisions += 1
    if g.natoll < ATOLL_SIZE:
        fill(g, g.atoll, &g.natoll, ATOLL_SIZE - g.natoll)
    for t in range(nh):
        k = hand[t]
        count = gen(s, g.kc[k], g.lime[p], moves, moves + MAXMOVES, moves + 2 * MAXMOVES)
        g.decisions += 1
        if count > 0:
            i = below(&g.policy, count)
            apply(s, moves[i], moves[MAXMOVES + i], g.kc[k], g.kc[k], g.kn[k], g.ka[k], NULL)
            g.lime[p] -= moves[2 * MAXMOVES + i]
        else:
            g.vp[p] -= 1
            g.returned[k] += 1
            g.sum_returned += 1
            g.bag_left += 1


cdef enum:
    ATOLL_SIZE = 4
    DISPLAY_SIZE = 4


cdef void scoring_phase(Play* g, int* octopus) noexcept nogil:
    cdef int k, p, r, c, j, last = -1
    for k in range(g.n):
        p = (octopus[0] + k) % g.n
        if not fill(g, g.disp[p], &g.ndisp[p], DISPLAY_SIZE - g.ndisp[p]):
            break
    for k in range(g.n):
        p = (octopus[0] + k) % g.n
        r = below(&g.policy, g.ncoral[p] + 1)
        g.decisions += 1
        if r < g.ncoral[p]:
            c = g.coral_list[p][r]
            for j in range(r, g.ncoral[p] - 1):
                g.coral_list[p][j] = g.coral_list[p][j + 1]
            g.ncoral[p] -= 1
            g.vp[p] += coral(&g.reef[p], c)
            g.jelly[p] += 1
            g.lime[p] += round_lime(g.round)
            if g.lime[p] > 10:
                g.lime[p] = 10
            last = p
    if last >= 0:
        octopus[0] = last


cdef void final_totals(Play* g, bint light, bint penalties, int* totals) noexcept nogil:
    cdef int p, c, best, second, nbest, nsecond, v, pts
    cdef int vis[MAXPLAYERS]
    for p in range(g.n):
        totals[p] = g.vp[p] + 2 * g.jelly[p] + g.lime[p] // 2
        totals[p] += light_animals(&g.reef[p], 0, NULL) if light else dark_animals(&g.reef[p])
        if penalties:
            totals[p] -= remote_penalty(&g.reef[p])
    for c in range(4):
        best = 0
        second = 0
        for p in range(g.n):
            vis[p] = popcount(g.reef[p].vcol[c])
            if vis[p] > best:
                best = vis[p]
        for p in range(g.n):
            if second < vis[p] < best:
                second = vis[p]
        nbest = 0
        nsecond = 0
        for p in range(g.n):
            nbest += vis[p] == best
            nsecond += vis[p] == second
        if best == 0:
            continue
        for p in range(g.n):
            v = vis[p]
            pts = 0
            if v == best:
                pts = 3 if nbest > 1 else 4
            elif nbest == 1 and second > 0 and v == second:
                pts = 1 if nsecond > 1 else 2
            totals[p] += pts


cdef void run_game(Play* g, const RS* empty, int nstarts, const int* start_a,
                   const int* start_b, int sa, int sb, bint light, bint penalties,
                   int* totals, int* moves) noexcept nogil:
    cdef int pool[MAXSTARTS]
    cdef int dealt[MAXPLAYERS]
    cdef int npool = nstarts
    cdef int p, i, ca, cb, k
    cdef int octopus = 0
    for i in range(nstarts):
        pool[i] = i
    for p in range(g.n):
        i = below(&g.chance, npool)
        dealt[p] = pool[i]
        remove_at(pool, &npool, i)
    for p in range(g.n):
        g.reef[p] = empty[0]
        ca = start_a[dealt[p]]
        cb = start_b[dealt[p]]
        if below(&g.policy, 2):
            ca, cb = cb, ca
        apply(&g.reef[p], sa, sb, ca, cb, 0, -1, NULL)
        g.decisions += 1
    for p in range(g.n):
        fill(g, g.disp[p], &g.ndisp[p], DISPLAY_SIZE)
    fill(g, g.atoll, &g.natoll, ATOLL_SIZE)
    while True:
        if not g.extra:
            for k in range(g.n):
                play_turn(g, (octopus + k) % g.n, moves)
        scoring_phase(g, &octopus)
        if g.extra or (g.round >= 10 and not g.ending):
            break
        g.round += 1
        if g.ending:
            g.extra = 1
    final_totals(g, light, penalties, totals)


cdef class Playout:
    """Whole random games on one board with one tile pool (validated by lumicore.reef.kernel).

    ``Playout(board_state, kinds, counts, starts, players, emergency, light, penalties)``:
    ``kinds`` (colour, number, animal) per tile kind, ``counts`` how many of each are in the bag,
    ``starts`` (colour a, colour b) per starting Lumino; ``board_state`` an empty board's State.
    """

    cdef Play proto
    cdef RS empty
    cdef int nstarts
    cdef int start_a[MAXSTARTS]
    cdef int start_b[MAXSTARTS]
    cdef int sa, sb
    cdef bint light, penalties

    def __init__(self, State board, kinds, counts, starts, int players, int emergency,
                 bint light, bint penalties, int start_cell_a, int start_cell_b):
        cdef int i, total = 0
        if not 2 <= players <= MAXPLAYERS or not 1 <= len(kinds) <= MAXKINDS:
            raise ValueError("bad players or kinds")
        if len(counts) != len(kinds) or not players <= len(starts) <= MAXSTARTS:
            raise ValueError("bad counts or starts")
        if not (0 <= start_cell_a < board.s.n and 0 <= start_cell_b < board.s.n
                and (board.s.nbr[start_cell_a] >> start_cell_b) & 1):
            raise ValueError("bad starting cells")
        self.empty = board.s
        self.proto.n = players
        self.proto.nkinds = len(kinds)
        for i in range(len(kinds)):
            self.proto.kc[i], self.proto.kn[i], self.proto.ka[i] = kinds[i]
            if not (0 <= self.proto.kc[i] < 4 and 0 <= self.proto.kn[i] <= 6
                    and -1 <= self.proto.ka[i] < 4 and 0 <= counts[i] <= 1000):
                raise ValueError("bad tile kind")
            self.proto.unseen[i] = counts[i]
            self.proto.returned[i] = 0
            total += counts[i]
        for i in range(len(kinds), MAXKINDS):
            self.proto.unseen[i] = 0
            self.proto.returned[i] = 0
        if not 0 <= emergency <= total or total > MAXTILES - 8:
            raise ValueError("bad emergency stack or too many tiles")
        self.proto.sum_unseen = total
        self.proto.sum_returned = 0
        self.proto.bag_left = total - emergency
        self.proto.emergency = emergency
        self.nstarts = len(starts)
        for i in range(self.nstarts):
            self.start_a[i], self.start_b[i] = starts[i]
            if not (0 <= self.start_a[i] < 4 and 0 <= self.start_b[i] < 4):
                raise ValueError("bad start colours")
        self.sa = start_cell_a
        self.sb = start_cell_b
        self.light = light
        self.penalties = penalties

    cdef void _game(self, Play* g, uint64_t seed, int* totals, int* moves) noexcept nogil:
        cdef int p
        g[0] = self.proto
        g.chance.s = seed
        g.policy.s = seed ^ C_POLICY_SALT
        g.round = 1
        g.ending = 0
        g.extra = 0
        g.natoll = 0
        g.decisions = 0
        for p in range(MAXPLAYERS):
            g.ndisp[p] = 0
            g.lime[p] = 0
            g.vp[p] = 0
            g.jelly[p] = 0
            g.ncoral[p] = 4
            g.coral_list[p][0] = 0
            g.coral_list[p][1] = 1
            g.coral_list[p][2] = 2
            g.coral_list[p][3] = 3
        run_game(g, &self.empty, self.nstarts, self.start_a, self.start_b, self.sa, self.sb,
                 self.light, self.penalties, totals, moves)

    def play(self, uint64_t seed) -> dict:
        """One game: totals, vp, limestone, jellyfish per player, rounds, decisions."""
        cdef Play* g = <Play*>calloc(1, sizeof(Play))
        cdef int* moves = <int*>calloc(3 * MAXMOVES, sizeof(int))
        cdef int totals[MAXPLAYERS]
        cdef int n = self.proto.n
        if g == NULL or moves == NULL:
            free(g)
            free(moves)
            raise MemoryError()
        try:
            with nogil:
                self._game(g, seed, totals, moves)
            return {"totals": [totals[p] for p in range(n)], "vp": [g.vp[p] for p in range(n)],
                    "limestone": [g.lime[p] for p in range(n)],
                    "jellyfish": [g.jelly[p] for p in range(n)], "rounds": g.round,
                    "decisions": g.decisions}
        finally:
            free(g)
            free(moves)

    def play_many(self, uint64_t first_seed, int count) -> list:
        """``count`` games with seeds ``first_seed, first_seed + 1, ...``: the wins per player
        (a tie shares the win; tie-break by limestone as the rulebook) as floats."""
        cdef Play* g = <Play*>calloc(1, sizeof(Play))
        cdef int* moves = <int*>calloc(3 * MAXMOVES, sizeof(int))
        cdef int totals[MAXPLAYERS]
        cdef double wins[MAXPLAYERS]
        cdef int n = self.proto.n
        cdef int r, p, best, bestl, k
        if g == NULL or moves == NULL:
            free(g)
            free(moves)
            raise MemoryError()
        for p in range(MAXPLAYERS):
            wins[p] = 0.0
        try:
            with nogil:
                for r in range(count):
                    self._game(g, first_seed + <uint64_t>r, totals, moves)
                    best = totals[0]
                    bestl = g.lime[0]
                    for p in range(1, n):
                        if totals[p] > best or (totals[p] == best and g.lime[p] > bestl):
                            best = totals[p]
                            bestl = g.lime[p]
                    k = 0
                    for p in range(n):
                        k += totals[p] == best and g.lime[p] == bestl
                    for p in range(n):
                        if totals[p] == best and g.lime[p] == bestl:
                            wins[p] += 1.0 / k
            return [wins[p] for p in range(n)]
        finally:
            free(g)
            free(moves)
