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
from libc.string cimport memset

import numpy as np

from lumicore.checks import check_int, check_seed
from lumicore.data import shorten
from lumicore.errors import LumicoreError

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


# ---------------------------------------------------------------------------------------------
# Whole random games. The state machine of lumicore/lumen/game.py, step for step, with the moves
# of every node generated in the same order, so that a game played here with the splitmix64
# choices of lumicore.lumen.reference.random_game gives the same actions.

cdef enum:
    T_MAX = 32
    K_MAX = 16
    SEC_MAX = 16
    OBJ_MAX = 16
    # phases
    P_FIRST = 0
    P_DRAW = 1
    P_ROLL = 2
    P_CHOOSE = 3
    P_BONUS = 4
    P_OBJECTIVE = 5
    P_MERC = 6
    P_ORDER = 7
    P_REINFORCE = 8
    P_SEQUENCE = 9
    P_OVER = 10
    # steps of a resolution
    S_BONUS = 1
    S_OBJECTIVE = 2
    S_ORDER = 3
    S_REINFORCE = 4
    S_SEQUENCE = 5
    # abilities
    A_NONE = 0
    A_RESTORE = 1
    A_PUSH = 2
    A_KILL = 3
    A_FLY = 4
    # move kinds
    M_PASS = 0
    M_CHOOSE = 1
    M_MERC = 2
    M_ORDER = 3
    M_PLACE = 4
    M_STOP = 5
    M_MOVE = 6
    M_ACT = 7
    M_GLOW = 8


cdef struct Config:
    int nk, nt, nb, rounds, supply, initiative, merc, secret_vp, threshold, boxes, nsec
    int limits[5]
    int strength[K_MAX]
    int ability[K_MAX]
    int moves[K_MAX]
    int protect[K_MAX]
    int special[K_MAX]
    int vp[T_MAX]
    uint64_t tnbr[T_MAX]
    uint64_t bnbr[MAXB]
    int sec_end[SEC_MAX]       # boxes crossed when section s is complete
    int sec_obj[SEC_MAX]
    int nobj
    int obj_val[OBJ_MAX]


cdef struct Game:
    int round, phase, first, actor, resolving, loser
    int d1, d2
    int pick_sel[2]
    int pick_cell[2]
    int uses[2][5]
    uint8_t vals[2][MAXB]
    uint64_t filled[2]
    int bag[2][K_MAX]
    int sup[2][K_MAX]
    int units[T_MAX][2][2 * K_MAX]
    int disc[T_MAX]
    int collected[2]
    int pool[3]
    int obj_cnt[OBJ_MAX]
    int secrets[2]
    int glows[2]
    int objectives[2]
    int todo[8]
    int ntodo
    int left, gi, gs
    int refill[2]
    int nrefill
    int after_round


cdef struct Move:
    int kind, a, b, c, d, e, f


cdef inline uint64_t splitmix(uint64_t* s) noexcept nogil:
    s[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = s[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline int sum_k(const int* a, int n) noexcept nogil:
    cdef int i, s = 0
    for i in range(n):
        s += a[i]
    return s


cdef int on_map(const Config* c, const Game* g, int p) noexcept nogil:
    cdef int t, s = 0
    for t in range(c.nt):
        s += sum_k(g.units[t][p], 2 * c.nk)
    return s


cdef int strength(const Config* c, const Game* g, int t, int p) noexcept nogil:
    cdef int k, s = 0
    for k in range(c.nk):
        s += (g.units[t][p][2 * k] + g.units[t][p][2 * k + 1]) * c.strength[k]
    return s


cdef int controller(const Config* c, const Game* g, int t) noexcept nogil:
    cdef int a = strength(c, g, t, 0), b = strength(c, g, t, 1)
    return 0 if a > b else (1 if b > a else -1)


cdef int total_score(const Config* c, const Game* g, int p) noexcept nogil:
    cdef int t, s = 0
    for t in range(c.nt):
        if controller(c, g, t) == p:
            s += c.vp[t]
    return s + g.collected[p] + g.secrets[p] * c.secret_vp + g.objectives[p]


cdef int winner(const Config* c, const Game* g) noexcept nogil:
    if g.loser >= 0:
        return 1 - g.loser
    cdef int a = total_score(c, g, 0), b = total_score(c, g, 1)
    if a != b:
        return 0 if a > b else 1
    return controller(c, g, c.initiative)


cdef int completed(const Config* c, int crossed) noexcept nogil:
    cdef int s, done = 0
    for s in range(c.nsec):
        if crossed < c.sec_end[s]:
            break
        done += 1
    return done


cdef void start_round(Game* g) noexcept nogil:
    g.phase = P_ROLL
    g.actor = g.first
    g.pick_sel[0] = g.pick_sel[1] = -1


cdef void next_draw(const Config* c, Game* g) noexcept nogil:
    cdef int p, i
    while g.nrefill:
        p = g.refill[0]
        if sum_k(g.sup[p], c.nk) < c.supply and sum_k(g.bag[p], c.nk):
            g.phase = P_DRAW
            g.actor = p
            return
        for i in range(g.nrefill - 1):
            g.refill[i] = g.refill[i + 1]
        g.nrefill -= 1
    if g.after_round:
        start_round(g)
    else:
        cont(c, g)


cdef void end_round(const Config* c, Game* g) noexcept nogil:
    cdef int holder = controller(c, g, c.initiative)
    if holder >= 0:
        g.first = holder
    if g.round >= c.rounds:
        g.phase = P_OVER
        return
    g.round += 1
    start_round(g)


cdef void resolve(const Config* c, Game* g, int p) noexcept nogil:
    cdef int value, crossed, before, after, s, i
    cdef int lo = g.d1, hi = g.d2
    g.actor = p
    g.ntodo = 0
    g.left = g.gi = g.gs = 0
    if g.pick_sel[p] >= 0:
        s = g.pick_sel[p]
        value = lo if s == 0 else hi if s == 1 else lo + hi if s == 2 else lo * hi if s == 3 \
            else hi - lo
        g.uses[p][s] += 1
        g.gi = gain(g.vals[p], g.filled[p], c.bnbr, g.pick_cell[p], value, 0)
        g.gs = gain(g.vals[p], g.filled[p], c.bnbr, g.pick_cell[p], value, 1)
        if value >= c.threshold:
            crossed = 0
            for i in range(c.nb):
                if (g.filled[p] >> i) & 1 and g.vals[p][i] >= c.threshold:
                    crossed += 1
            if crossed > c.boxes:
                crossed = c.boxes
            before = completed(c, crossed)
            after = completed(c, crossed + 1 if crossed < c.boxes else c.boxes)
            for s in range(before, after):
                g.todo[g.ntodo] = S_BONUS
                g.ntodo += 1
                if c.sec_obj[s]:
                    g.todo[g.ntodo] = S_OBJECTIVE
                    g.ntodo += 1
        g.vals[p][g.pick_cell[p]] = value
        g.filled[p] |= (<uint64_t>1) << g.pick_cell[p]
        if g.gi and g.gs:
            g.todo[g.ntodo] = S_ORDER
            g.ntodo += 1
        elif g.gi:
            g.todo[g.ntodo] = S_REINFORCE
            g.ntodo += 1
        elif g.gs:
            g.todo[g.ntodo] = S_SEQUENCE
            g.ntodo += 1
    cont(c, g)


cdef void cont(const Config* c, Game* g) noexcept nogil:
    cdef int step, i
    while g.ntodo:
        step = g.todo[0]
        for i in range(g.ntodo - 1):
            g.todo[i] = g.todo[i + 1]
        g.ntodo -= 1
        if step == S_BONUS and not (g.pool[0] + g.pool[1] + g.pool[2]):
            continue
        if step == S_OBJECTIVE and not sum_k(g.obj_cnt, c.nobj):
            continue
        if step == S_REINFORCE:
            g.left = g.gi
            if not sum_k(g.sup[g.actor], c.nk):
                # nothing to place: the supply refills from the bag all the same
                refill_then_continue(c, g)
                return
        elif step == S_SEQUENCE:
            g.left = g.gs
        g.phase = (P_BONUS if step == S_BONUS else P_OBJECTIVE if step == S_OBJECTIVE
                   else P_ORDER if step == S_ORDER else P_REINFORCE if step == S_REINFORCE
                   else P_SEQUENCE)
        return
    if g.resolving == 0:
        g.resolving = 1
        resolve(c, g, 1 - g.first)
        return
    end_round(c, g)


cdef inline int owns(const Config* c, const Game* g, int t, int p) noexcept nogil:
    return sum_k(g.units[t][p], 2 * c.nk) > 0


cdef inline void setm(Move* m, int kind, int a, int b, int cc, int d, int e, int f) noexcept nogil:
    m.kind = kind
    m.a = a
    m.b = b
    m.c = cc
    m.d = d
    m.e = e
    m.f = f


cdef int gen(const Config* c, const Game* g, int want, Move* out) noexcept nogil:
    # the decision moves of g in the order of GameState.moves(); with want >= 0, write move
    # number `want` to out; returns how many moves there are (up to want + 1)
    cdef int n = 0, p = g.actor, s, t, u, k, cc, owner, cnt, taken
    cdef uint64_t m
    if g.phase == P_CHOOSE:
        taken = g.pick_sel[g.first] if p != g.first else -1
        m = legal(g.filled[p], c.bnbr, c.nb)
        for s in range(5):
            if s == taken or g.uses[p][s] >= c.limits[s]:
                continue
            for cc in range(c.nb):
                if (m >> cc) & 1:
                    if n == want:
                        setm(out, M_CHOOSE, s, cc, 0, 0, 0, 0)
                        return n + 1
                    n += 1
        if n == 0:
            if want == 0:
                setm(out, M_PASS, 0, 0, 0, 0, 0, 0)
            return 1
        return n
    if g.phase == P_MERC:
        for t in range(c.nt):
            if owns(c, g, t, p):
                if n == want:
                    setm(out, M_MERC, t, 0, 0, 0, 0, 0)
                    return n + 1
                n += 1
        return n
    if g.phase == P_ORDER:
        if want >= 0:
            setm(out, M_ORDER, want, 0, 0, 0, 0, 0)
        return 2
    if g.phase == P_REINFORCE:
        for k in range(c.nk):
            if not g.sup[p][k]:
                continue
            for t in range(c.nt):
                if owns(c, g, t, p):
                    if n == want:
                        setm(out, M_PLACE, k, t, 0, 0, 0, 0)
                        return n + 1
                    n += 1
        if n == want:
            setm(out, M_STOP, 0, 0, 0, 0, 0, 0)
        return n + 1
    # sequence
    for t in range(c.nt):
        for cc in range(2 * c.nk):
            if g.units[t][p][cc] and c.moves[cc // 2]:
                m = c.tnbr[t]
                while m:
                    u = ctz(m)
                    m &= m - 1
                    if n == want:
                        setm(out, M_MOVE, cc // 2, cc % 2, t, u, 0, 0)
                        return n + 1
                    n += 1
    for t in range(c.nt):
        for k in range(c.nk):
            if not g.units[t][p][2 * k] or c.ability[k] == A_NONE:
                continue
            if c.ability[k] == A_RESTORE:
                if n == want:
                    setm(out, M_ACT, k, t, 0, 0, 0, 0)
                    return n + 1
                n += 1
            elif c.ability[k] == A_FLY:
                for u in range(c.nt):
                    if u != t:
                        if n == want:
                            setm(out, M_ACT, k, t, u, 0, 0, 0)
                            return n + 1
                        n += 1
            elif c.ability[k] == A_KILL:
                for cc in range(2 * c.nk):
                    if g.units[t][1 - p][cc] and not c.protect[cc // 2]:
                        if n == want:
                            setm(out, M_ACT, k, t, cc // 2, cc % 2, 0, 0)
                            return n + 1
                        n += 1
            else:
                for owner in range(2):
                    for cc in range(2 * c.nk):
                        cnt = g.units[t][owner][cc]
                        if owner == p and cc == 2 * k:
                            cnt -= 1
                        if cnt > 0 and c.moves[cc // 2]:
                            m = c.tnbr[t]
                            while m:
                                u = ctz(m)
                                m &= m - 1
                                if n == want:
                                    setm(out, M_ACT, k, t, owner, cc // 2, cc % 2, u)
                                    return n + 1
                                n += 1
    if g.glows[p]:
        if n == want:
            setm(out, M_GLOW, 0, 0, 0, 0, 0, 0)
            return n + 1
        n += 1
    if n == want:
        setm(out, M_STOP, 0, 0, 0, 0, 0, 0)
    return n + 1


cdef inline void enter(Game* g, int owner, int t) noexcept nogil:
    if g.disc[t]:
        g.collected[owner] += g.disc[t]
        g.disc[t] = 0


cdef inline void shift(Game* g, int owner, int cc, int src, int dst) noexcept nogil:
    g.units[src][owner][cc] -= 1
    g.units[dst][owner][cc] += 1
    enter(g, owner, dst)


cdef inline void all_active(const Config* c, Game* g, int t, int p) noexcept nogil:
    cdef int k
    for k in range(c.nk):
        g.units[t][p][2 * k] += g.units[t][p][2 * k + 1]
        g.units[t][p][2 * k + 1] = 0


cdef void seq_step(const Config* c, Game* g) noexcept nogil:
    g.left -= 1
    if g.left <= 0:
        cont(c, g)


cdef void refill_then_continue(const Config* c, Game* g) noexcept nogil:
    g.left = 0
    g.refill[0] = g.actor
    g.nrefill = 1
    g.after_round = 0
    next_draw(c, g)


cdef void apply_decision(const Config* c, Game* g, const Move* mv) noexcept nogil:
    cdef int p = g.actor, t, u
    cdef uint64_t m
    if mv.kind == M_CHOOSE or mv.kind == M_PASS:
        g.pick_sel[p] = mv.a if mv.kind == M_CHOOSE else -1
        g.pick_cell[p] = mv.b
        if p == g.first:
            g.actor = 1 - g.first
            return
        g.resolving = 0
        resolve(c, g, g.first)
    elif mv.kind == M_MERC:
        g.units[mv.a][p][2 * c.merc] += 1
        cont(c, g)
    elif mv.kind == M_ORDER:
        # resolve the chosen chain first: the todo list is empty here
        g.todo[0] = S_REINFORCE if mv.a == 0 else S_SEQUENCE
        g.todo[1] = S_SEQUENCE if mv.a == 0 else S_REINFORCE
        g.ntodo = 2
        cont(c, g)
    elif mv.kind == M_PLACE:
        g.sup[p][mv.a] -= 1
        g.units[mv.b][p][2 * mv.a] += 1
        g.left -= 1
        if g.left and sum_k(g.sup[p], c.nk):
            return
        refill_then_continue(c, g)
    elif mv.kind == M_STOP:
        if g.phase == P_REINFORCE:
            refill_then_continue(c, g)
        else:
            g.left = 0
            cont(c, g)
    elif mv.kind == M_MOVE:
        shift(g, p, 2 * mv.a + mv.b, mv.c, mv.d)
        seq_step(c, g)
    elif mv.kind == M_GLOW:
        g.glows[p] -= 1
        g.pool[2] += 1
        for t in range(c.nt):
            all_active(c, g, t, p)
        seq_step(c, g)
    else:
        t = mv.b
        g.units[t][p][2 * mv.a] -= 1
        g.units[t][p][2 * mv.a + 1] += 1
        if c.ability[mv.a] == A_RESTORE:
            all_active(c, g, t, p)
            m = c.tnbr[t]
            while m:
                u = ctz(m)
                m &= m - 1
                all_active(c, g, u, p)
            g.units[t][p][2 * mv.a] -= 1
            g.units[t][p][2 * mv.a + 1] += 1
        elif c.ability[mv.a] == A_FLY:
            shift(g, p, 2 * mv.a + 1, t, mv.c)
        elif c.ability[mv.a] == A_PUSH:
            shift(g, mv.c, 2 * mv.d + mv.e, t, mv.f)
        else:
            g.units[t][1 - p][2 * mv.c + mv.d] -= 1
            if not c.special[mv.c]:
                g.bag[1 - p][mv.c] += 1
            if not on_map(c, g, 1 - p):
                g.loser = 1 - p
                g.phase = P_OVER
                return
        seq_step(c, g)


cdef int pick_weighted(const int* w, int n, uint64_t r) noexcept nogil:
    # index i with probability w[i] / sum(w), by r modulo the total
    cdef int i, total = sum_k(w, n)
    cdef int64_t x
    if total <= 0:
        return -1
    x = <int64_t>(r % <uint64_t>total)
    for i in range(n):
        x -= w[i]
        if x < 0:
            return i
    return n - 1


cdef int pick_present(const int* w, int n, uint64_t r, int* position) noexcept nogil:
    # pick_weighted, and the pick's position among the entries with a non-zero weight (the
    # action index of the outcome: GameState lists only the outcomes that can happen)
    cdef int j, i = pick_weighted(w, n, r)
    position[0] = 0
    for j in range(i):
        position[0] += w[j] > 0
    return i


cdef int ROLL_W[21]
cdef int ROLL_LO[21]
cdef int ROLL_HI[21]
_i = 0
for _a in range(1, 7):
    for _b in range(_a, 7):
        ROLL_W[_i] = 1 if _a == _b else 2
        ROLL_LO[_i] = _a
        ROLL_HI[_i] = _b
        _i += 1


cdef int chance_step(const Config* c, Game* g, uint64_t r) noexcept nogil:
    # play one chance node; returns the action index (position among its outcomes)
    cdef int i, idx = 0, p = g.actor
    if g.phase == P_FIRST:
        idx = <int>(r % 2)
        g.first = idx
        g.refill[0] = idx
        g.refill[1] = 1 - idx
        g.nrefill = 2
        g.after_round = 1
        next_draw(c, g)
        return idx
    if g.phase == P_ROLL:
        i = pick_weighted(ROLL_W, 21, r)
        g.d1 = ROLL_LO[i]
        g.d2 = ROLL_HI[i]
        g.phase = P_CHOOSE
        g.actor = g.first
        return i
    if g.phase == P_DRAW:
        i = pick_present(g.bag[p], c.nk, r, &idx)
        if i < 0:
            g.phase = P_OVER
            return 0
        g.bag[p][i] -= 1
        g.sup[p][i] += 1
        next_draw(c, g)
        return idx
    if g.phase == P_BONUS:
        i = pick_present(g.pool, 3, r, &idx)
        if i < 0:
            g.phase = P_OVER
            return 0
        g.pool[i] -= 1
        if i == 0:
            g.phase = P_MERC
        else:
            if i == 1:
                g.secrets[p] += 1
            else:
                g.glows[p] += 1
            cont(c, g)
        return idx
    # objective
    i = pick_present(g.obj_cnt, c.nobj, r, &idx)
    if i < 0:
        g.phase = P_OVER
        return 0
    g.obj_cnt[i] -= 1
    g.objectives[p] += c.obj_val[i]
    cont(c, g)
    return idx


cdef int play_one(const Config* c, Game* g, uint64_t* rng, int* hist, int cap) noexcept nogil:
    # play g to its end with splitmix64 choices; record up to cap actions in hist; returns
    # the number of actions played
    cdef int n = 0, count, idx
    cdef Move mv
    while g.phase != P_OVER:
        if g.phase == P_FIRST or g.phase == P_ROLL or g.phase == P_DRAW \
                or g.phase == P_BONUS or g.phase == P_OBJECTIVE:
            idx = chance_step(c, g, splitmix(rng))
        else:
            count = gen(c, g, -1, &mv)
            idx = <int>(splitmix(rng) % <uint64_t>count)
            gen(c, g, idx, &mv)
            apply_decision(c, g, &mv)
        if n < cap:
            hist[n] = idx
        n += 1
    return n


cdef void load_pieces(const Config* c, Game* g, object d) except *:
    # the bags, discovery tokens, units on the map and token pools of a dict of Game fields
    cdef int i, p, t, cc
    for p in range(2):
        for i in range(c.nk):
            g.bag[p][i] = d["bag"][p][i]
    for t in range(c.nt):
        g.disc[t] = d["disc"][t]
        for p in range(2):
            for cc in range(2 * c.nk):
                g.units[t][p][cc] = d["units"][t][p][cc]
    for i in range(3):
        g.pool[i] = d["pool"][i]
    for i in range(c.nobj):
        g.obj_cnt[i] = d["obj_cnt"][i]


cdef enum:
    COUNT_LIMIT = 1 << 20   # every count of a position is below it (lumen/kernel.py's range too)


cdef inline bint below_limit(const int* a, int n) noexcept nogil:
    cdef int i
    for i in range(n):
        if not 0 <= a[i] < COUNT_LIMIT:
            return False
    return True


cdef bint config_in_range(const Config* c) noexcept nogil:
    """Whether the numbers of ``c`` are those lumicore.lumen.kernel.setup makes: counts
    0..2**20 - 1, abilities 0..4, flags 0 or 1, neighbour masks within the map (a number of
    rounds near 2**31 made random_games run for ever, past Ctrl-C)."""
    cdef int i
    cdef int single[4]
    single[0], single[1], single[2], single[3] = c.rounds, c.supply, c.secret_vp, c.threshold
    if not (below_limit(single, 4) and below_limit(c.limits, 5)
            and below_limit(c.strength, c.nk) and below_limit(c.vp, c.nt)
            and below_limit(c.sec_end, c.nsec) and below_limit(c.obj_val, c.nobj)):
        return False
    for i in range(c.nk):
        if not (0 <= c.ability[i] <= 4 and 0 <= c.moves[i] <= 1 and 0 <= c.protect[i] <= 1
                and 0 <= c.special[i] <= 1):
            return False
    for i in range(c.nsec):
        if not 0 <= c.sec_obj[i] <= 1:
            return False
    for i in range(c.nt):
        if c.tnbr[i] >> c.nt:
            return False
    for i in range(c.nb):
        if c.nb < 64 and c.bnbr[i] >> c.nb:
            return False
    return True


cdef bint counts_in_range(const Config* c, const Game* g) noexcept nogil:
    """Whether every count of ``g`` (rounds, tokens, bags, supplies, units, ...) is 0..2**20 - 1:
    a count below 0 or near 2**31 made the game loop divide by zero or pick outside its
    arrays."""
    cdef int p, t
    cdef int single[4]
    single[0], single[1], single[2], single[3] = g.round, g.left, g.gi, g.gs
    if not (below_limit(single, 4) and below_limit(g.collected, 2)
            and below_limit(g.secrets, 2) and below_limit(g.glows, 2)
            and below_limit(g.objectives, 2) and below_limit(g.pool, 3)
            and below_limit(g.disc, c.nt) and below_limit(g.obj_cnt, c.nobj)):
        return False
    for p in range(2):
        if not (below_limit(g.uses[p], 5) and below_limit(g.bag[p], c.nk)
                and below_limit(g.sup[p], c.nk)):
            return False
        for t in range(c.nt):
            if not below_limit(g.units[t][p], 2 * c.nk):
                return False
    return True


CAP_LIMIT = 1 << 20
"""The most actions :meth:`Setup.random_game` records (``cap``)."""


cdef class Setup:
    """A game's fixed data and starting position for the random-game loop (built by
    lumicore.lumen.kernel.setup, which checks every field)."""

    cdef Config cfg
    cdef Game start

    def __reduce__(self):
        raise TypeError("a lumicore.lumen.kernel Setup cannot be pickled: pickle the GameState "
                        "and build its Setup again with lumicore.lumen.kernel.setup(state)")

    def __init__(self, d):
        # read into locals first: a Setup whose __init__ is called again keeps its game when
        # the new data are refused
        cdef Config cfg
        cdef Game g
        try:
            self._read(d, &cfg, &g)
        except (KeyError, TypeError, IndexError, OverflowError, ValueError) as exc:
            detail = f"{type(exc).__name__}: {exc}" if isinstance(exc, KeyError) else str(exc)
            raise LumicoreError(f"d must be a game's data as lumicore.lumen.kernel.setup(state) "
                                f"makes them; {detail[:200]}") from None
        self.cfg = cfg
        self.start = g

    cdef int _read(self, object d, Config* c, Game* g) except -1:
        cdef int i, j, t, p, cc
        if not isinstance(d, dict):
            raise TypeError(f"expected a dict, got {type(d).__name__}")
        memset_config(c)
        c.nk, c.nt, c.nb = d["nk"], d["nt"], d["nb"]
        if not (1 <= c.nk <= K_MAX and 1 <= c.nt <= T_MAX and 1 <= c.nb <= MAXB):
            raise ValueError("sizes out of range")
        c.rounds, c.supply, c.initiative = d["rounds"], d["supply"], d["initiative"]
        c.merc, c.secret_vp, c.threshold = d["merc"], d["secret_vp"], d["threshold"]
        if not (0 <= c.initiative < c.nt and -1 <= c.merc < c.nk):
            raise ValueError("initiative or mercenary index out of range")
        for i in range(5):
            c.limits[i] = d["limits"][i]
        for i in range(c.nk):
            c.strength[i] = d["strength"][i]
            c.ability[i] = d["ability"][i]
            c.moves[i] = d["moves"][i]
            c.protect[i] = d["protected"][i]
            c.special[i] = d["special"][i]
        for t in range(c.nt):
            c.vp[t] = d["vp"][t]
            c.tnbr[t] = d["tnbr"][t]
        for i in range(c.nb):
            c.bnbr[i] = d["bnbr"][i]
        c.nsec = len(d["sec_end"])
        if not 1 <= c.nsec <= SEC_MAX:
            raise ValueError("1 to 16 High Command sections")
        for i in range(c.nsec):
            c.sec_end[i] = d["sec_end"][i]
            c.sec_obj[i] = d["sec_obj"][i]
        c.boxes = c.sec_end[c.nsec - 1]
        c.nobj = len(d["obj_val"])
        if c.nobj > OBJ_MAX:
            raise ValueError("at most 16 distinct objective values")
        for i in range(c.nobj):
            c.obj_val[i] = d["obj_val"][i]
        memset_game(g)
        g.round = 1
        g.phase = P_FIRST
        g.loser = -1
        g.pick_sel[0] = g.pick_sel[1] = -1
        load_pieces(c, g, d)
        if not (config_in_range(c) and counts_in_range(c, g)):
            raise ValueError("a number is out of the kernel's range (counts 0..2**20 - 1, "
                             "abilities 0..4, flags 0 or 1, neighbours within the map)")
        return 0

    cdef Game _position(self, object d) except *:
        # the start, or a position given as a dict of Game fields; a LumicoreError naming
        # position unless it is one (a count below 0 or near 2**31 made the game loop divide
        # by zero or pick outside its arrays: the process died)
        cdef Game g
        if d is None:
            return self.start
        try:
            g = self._fields(d)
        except (KeyError, TypeError, IndexError, OverflowError, ValueError) as exc:
            detail = f"{type(exc).__name__}: {exc}" if isinstance(exc, KeyError) else str(exc)
            raise LumicoreError(f"position must be the kernel's fields of a Lumen position "
                                f"(lumicore.lumen.kernel.position(state)); {detail[:200]}"
                                ) from None
        return g

    cdef Game _fields(self, object d) except *:
        cdef Game g
        cdef Config* c = &self.cfg
        cdef int i, p
        g = self.start
        g.round, g.phase, g.first, g.actor = d["round"], d["phase"], d["first"], d["actor"]
        g.resolving, g.loser, g.d1, g.d2 = d["resolving"], d["loser"], d["d1"], d["d2"]
        if not (0 <= g.phase <= P_OVER and 0 <= g.first <= 1 and 0 <= g.actor <= 1
                and 0 <= g.resolving <= 1 and -1 <= g.loser <= 1
                and 1 <= g.d1 <= 6 and 1 <= g.d2 <= 6 and g.d1 <= g.d2):
            raise ValueError("bad phase, player or dice")
        for p in range(2):
            g.pick_sel[p], g.pick_cell[p] = d["pick_sel"][p], d["pick_cell"][p]
            if not (-1 <= g.pick_sel[p] < 5 and 0 <= g.pick_cell[p] < c.nb):
                raise ValueError("bad pick")
            g.filled[p] = 0
            for i in range(c.nb):
                g.vals[p][i] = d["vals"][p][i]
                if g.vals[p][i] != EMPTY:
                    g.filled[p] |= (<uint64_t>1) << i
            for i in range(5):
                g.uses[p][i] = d["uses"][p][i]
            for i in range(c.nk):
                g.sup[p][i] = d["supply"][p][i]
            g.collected[p] = d["collected"][p]
            g.secrets[p] = d["secrets"][p]
            g.glows[p] = d["glows"][p]
            g.objectives[p] = d["objectives"][p]
        load_pieces(c, &g, d)
        g.ntodo = len(d["todo"])
        g.nrefill = len(d["refill"])
        if g.ntodo > 8 or g.nrefill > 2:
            raise ValueError("at most 8 steps and 2 refills pending")
        for i in range(g.ntodo):
            g.todo[i] = d["todo"][i]
            if not S_BONUS <= g.todo[i] <= S_SEQUENCE:
                raise ValueError("bad step")
        for i in range(g.nrefill):
            g.refill[i] = d["refill"][i]
            if not 0 <= g.refill[i] <= 1:
                raise ValueError("bad refill")
        g.left, g.gi, g.gs, g.after_round = d["left"], d["gi"], d["gs"], d["after_round"]
        if not 0 <= g.after_round <= 1:
            raise ValueError("after_round must be 0 or 1")
        if not counts_in_range(c, &g):
            raise ValueError("a count is out of the kernel's range (0..2**20 - 1)")
        return g

    def random_game(self, seed, cap=100000, position=None):
        """The actions of one game played with splitmix64 choices from seed (from the start,
        or from position: a dict of the game's fields), at most ``cap`` of them recorded, and
        the result (winner or -1, player 1's score, player 2's score, rounds played)."""
        cdef uint64_t rng = check_seed(seed, 2**64)  # the kernel takes any 64-bit seed
        cap = check_int(cap, "cap", 0, CAP_LIMIT)
        cdef Game g = self._position(position)
        hist = np.zeros(max(cap, 1), dtype=np.int32)
        cdef int[::1] h = hist
        cdef int n = play_one(&self.cfg, &g, &rng, &h[0], cap)
        return (hist[:min(n, cap)].tolist(), winner(&self.cfg, &g),
                total_score(&self.cfg, &g, 0), total_score(&self.cfg, &g, 1), g.round)

    def random_games(self, n, seed, position=None):
        """Play n games (game i from seed + i) from the start or from position; returns
        (wins of player 1, of player 2, games nobody won, actions played)."""
        cdef Game g
        cdef int games = check_int(n, "n", 0, 2**31 - 1, "a game count 0..2**31-1")
        cdef uint64_t start = check_seed(seed, 2**64)
        cdef Game first = self._position(position)
        cdef uint64_t rng
        cdef int i, w, wins0 = 0, wins1 = 0, none = 0
        cdef int64_t actions = 0
        cdef int dummy[1]
        with nogil:
            for i in range(games):
                g = first
                rng = start + <uint64_t>i
                actions += play_one(&self.cfg, &g, &rng, dummy, 0)
                w = winner(&self.cfg, &g)
                if w == 0:
                    wins0 += 1
                elif w == 1:
                    wins1 += 1
                else:
                    none += 1
        return wins0, wins1, none, actions


cdef void memset_config(Config* c) noexcept nogil:
    memset(c, 0, sizeof(Config))


cdef void memset_game(Game* g) noexcept nogil:
    memset(g, 0, sizeof(Game))
