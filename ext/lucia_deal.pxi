# Lucia deals (included at the end of lucia.pyx, so it shares the move generation): exact
# solving of a game with a known deck order, hands of up to 3 cards and 1..4 co-operative players.
#
# A search state is the packed train, the deck position and the hands (multisets of card kinds,
# each kept sorted); plays made = cards dealt - cards held, so the state fixes its depth and the
# search graph has no cycles. Depth-first search with:
#   - a lossy transposition table of states known not to win (the key lists the hands from the
#     mover's on, so states that differ only in who sits where fold together);
#   - a cut of every child whose deficits (heuristic.py: a, u, d, l) exceed the summed capacity
#     of the cards still left anywhere (hands and deck), or whose puzzle lower bound exceeds the
#     number of those cards: each card is played at most once and lowers each deficit by at most
#     its capacity, and each play uses one card;
#   - with a play bound D (shortest plans, iterative deepening): a cut of every child with
#     plays + 1 + h > D. Results cut by D alone are stored with tag D + 1, exact ones with
#     DL_EXACT.
# Children are tried in the order of a weighted sum of their deficits (order()).

cdef extern from *:
    """
    #include <Python.h>
    static inline int lc_check_signals(void) {
        if (PyErr_CheckSignals() != 0) { PyErr_Clear(); return 1; }
        return 0;
    }
    """
    int lc_check_signals() noexcept

cdef enum:
    DL_LOSS = 0         # proven: no order of plays wins from here
    DL_WIN = 1
    DL_CUT = 2          # no win within the play bound (not a proof)
    DL_ABORT = 3        # a limit or Ctrl-C stopped the search
    DL_MAXP = 4
    DL_HAND = 3
    DL_KINDS = 31       # kind 31 marks an empty hand slot in the key
    DL_DECK = 250
    DL_EXACT = 0xFFFF
    DL_UNBOUNDED = 1 << 20
    # abort reasons
    DR_NODES = 1
    DR_TIME = 2
    DR_SIGNAL = 3
    DR_MEMORY = 4
    DL_PROGRESS_MASK = 65535    # nodes between two calls of solve's progress (about 50 ms)


cdef struct DealTT:
    u64 train
    u64 hands
    uint16_t pos
    uint16_t tag        # 0 = empty slot, else DL_EXACT or 1 + the play bound
    uint32_t work       # nodes the search of this position took (the costlier entry stays)


cdef struct DealFrame:
    u64* child
    uint8_t* kind
    uint16_t* h         # order key (see order())
    int cap


cdef inline void deal_deficits(u64 x, int n, int target, int* out) noexcept nogil:
    """The deficits (a, u, d, l) of heuristic.deficits on a packed train."""
    cdef u64 valid = prefix(n) & LOW
    cdef u64 s = nib_eq(x, STARBOY) & valid
    cdef int p = lucia_pos(x, n), a, d = target
    if p < 0:
        p = 0
    a = LUCIA5 - code_at(x, p)
    out[0] = a
    out[1] = a + popcount(nib_eq(x, H_UNLIT) & valid)
    while s:
        d -= ctz(s) >> 2
        s &= s - 1
    out[2] = d
    out[3] = p


cdef long long _node_limit(object max_nodes) except? -1:
    """A deal search's node limit: a whole number 0..2**62 (lumicore.lucia.kernel.DEAL_NODES,
    which its counters never pass); else a LumicoreError naming max_nodes."""
    return check_int(max_nodes, "max_nodes", 0, 1 << 62)


cdef double _deadline(object deadline) except? -1:
    """A deadline on the kernel's clock (lumicore.lucia.kernel.deal_deadline), 0 for none;
    else a LumicoreError naming deadline (NaN was no deadline at all)."""
    cdef double clock = check_real(deadline, "deadline")
    if clock < 0:
        raise LumicoreError(f"deadline must be 0 (none) or a time of the kernel's clock, got "
                            f"{shorten(deadline)}")
    return clock


cdef class DealSearch:
    """One deal's search: cards, deck order, hands, heuristic, transposition table, frames."""
    cdef Card* cs
    cdef int ncards, n, players, decklen, pos, mover, left
    cdef int deck[DL_DECK]
    cdef int hand[DL_MAXP][DL_HAND]
    cdef int hsize[DL_MAXP]
    cdef int capk[DL_KINDS][4]
    cdef uint32_t covers[DL_KINDS]     # bit b of covers[a]: every play of kind b is one of a
    cdef int capleft[4]
    cdef HTab t
    cdef object values_ref
    cdef Gen g
    cdef DealTT* tt
    cdef size_t tt_mask
    cdef int epoch          # the deal's number since the table was cleared (see reset())
    cdef DealFrame frames[DL_DECK + DL_MAXP * DL_HAND + 2]
    cdef long long nodes, max_nodes
    cdef double deadline
    cdef int bound, reason
    cdef int path_player[DL_DECK + DL_MAXP * DL_HAND + 2]
    cdef int path_kind[DL_DECK + DL_MAXP * DL_HAND + 2]
    cdef u64 path_train[DL_DECK + DL_MAXP * DL_HAND + 2]
    cdef int path_len
    cdef object progress    # solve's progress callable, or None
    cdef list errors        # what it raised, other than KeyboardInterrupt: solve raises it

    def __cinit__(self, u64 train, const uint32_t[:, ::1] cards, const int[::1] deck,
                  list hands, const int[:, ::1] caps, const uint32_t[::1] covers,
                  const uint8_t[:, :, :, ::1] values, int target, bint locked, int tt_bits):
        cdef int i, j, k
        memset(&self.g, 0, sizeof(Gen))
        memset(self.frames, 0, sizeof(self.frames))
        self.cs = NULL
        self.tt = NULL
        self.ncards = cards.shape[0]
        if not 1 <= self.ncards <= DL_KINDS - 1 or caps.shape[0] != self.ncards \
                or caps.shape[1] != 4:
            raise ValueError("1..30 card kinds with 4 capacities each")
        if not 1 <= len(hands) <= DL_MAXP or deck.shape[0] > DL_DECK:
            raise ValueError("1..4 players, a deck of at most 250 cards")
        self.cs = decode_cards(cards)
        if gen_init(&self.g, 1) != 0:
            raise MemoryError()
        self.values_ref = values
        self.t = make_htab(values, target, locked)
        self.n = train_length(train)
        if covers.shape[0] != self.ncards:
            raise ValueError("one covers mask per card kind")
        for k in range(self.ncards):
            self.covers[k] = covers[k] & ((1U << self.ncards) - 1)
            for i in range(4):
                self.capk[k][i] = caps[k, i]
        self.deal(deck, hands)
        self.epoch = 0
        tt_bits = max(4, min(tt_bits, 28))
        self.tt = <DealTT*>malloc((<size_t>1 << tt_bits) * sizeof(DealTT))
        if self.tt == NULL:
            raise MemoryError()
        memset(self.tt, 0, (<size_t>1 << tt_bits) * sizeof(DealTT))
        self.tt_mask = (<size_t>1 << tt_bits) - 1

    def __dealloc__(self):
        cdef int i
        free(self.cs)
        free(self.tt)
        gen_free(&self.g)
        for i in range(DL_DECK + DL_MAXP * DL_HAND + 2):
            free(self.frames[i].child)
            free(self.frames[i].kind)
            free(self.frames[i].h)

    cdef int deal(self, const int[::1] deck, list hands) except -1:
        """Take ``deck`` (top first) and ``hands`` (from the mover's on) as the position."""
        cdef int i, j, k
        if not 1 <= len(hands) <= DL_MAXP or deck.shape[0] > DL_DECK:
            raise ValueError("1..4 players, a deck of at most 250 cards")
        self.players = len(hands)
        self.decklen = deck.shape[0]
        self.left = self.decklen
        for i in range(4):
            self.capleft[i] = 0
        for j in range(self.decklen):
            if not 0 <= deck[j] < self.ncards:
                raise ValueError("deck card out of range")
            self.deck[j] = deck[j]
            for i in range(4):
                self.capleft[i] += self.capk[deck[j]][i]
        for i in range(self.players):
            self.hsize[i] = 0
            if len(hands[i]) > DL_HAND:
                raise ValueError("at most 3 cards in a hand")
            for k in hands[i]:
                if not 0 <= k < self.ncards:
                    raise ValueError("hand card out of range")
                self.hand_add(i, k)
                self.left += 1
                for j in range(4):
                    self.capleft[j] += self.capk[k][j]
        self.pos = 0
        self.mover = 0
        return 0

    def reset(self, deck, hands):
        """A new deal from the same train and card kinds: ``deck`` and ``hands`` as for the
        constructor, the node count back to 0 (a LumicoreError naming either, checked before
        anything changes, unless it is a deal of this search's card kinds). The transposition
        table (its memory) is kept: its entries carry the deal's number in the high byte of
        ``pos``, so an entry of an earlier deal matches none of this one; every 256th deal
        clears the table."""
        cdef int[::1] cards = self._check_deck(deck)
        self.deal(cards, self._check_hands(hands))
        self.nodes = 0
        self.epoch = (self.epoch + 1) & 0xFF
        if self.epoch == 0:
            memset(self.tt, 0, (self.tt_mask + 1) * sizeof(DealTT))

    cdef object _check_deck(self, object deck):
        """``deck`` as an int array of card kinds 0..ncards-1, at most DL_DECK of them."""
        if isinstance(deck, (str, bytes)) or not hasattr(deck, "__len__") \
                or len(deck) > DL_DECK:
            raise LumicoreError(f"deck must be a sequence of at most {DL_DECK} card kinds, got "
                                f"{shorten(deck)}")
        return np.array([check_int(k, f"deck[{i}]", 0, self.ncards - 1,
                                   f"a card kind from 0 to {self.ncards - 1}")
                         for i, k in enumerate(deck)], dtype=np.intc)

    cdef list _check_hands(self, object hands):
        """``hands`` as a list of 1..DL_MAXP lists of at most DL_HAND card kinds."""
        if isinstance(hands, (str, bytes)) or not hasattr(hands, "__len__") \
                or not 1 <= len(hands) <= DL_MAXP:
            raise LumicoreError(f"hands must be a sequence of 1 to {DL_MAXP} hands, got "
                                f"{shorten(hands)}")
        out = []
        for p, hand in enumerate(hands):
            if isinstance(hand, (str, bytes)) or not hasattr(hand, "__len__") \
                    or len(hand) > DL_HAND:
                raise LumicoreError(f"hands[{p}] must be a sequence of at most {DL_HAND} card "
                                    f"kinds, got {shorten(hand)}")
            out.append([check_int(k, f"hands[{p}][{j}]", 0, self.ncards - 1,
                                  f"a card kind from 0 to {self.ncards - 1}")
                        for j, k in enumerate(hand)])
        return out

    cdef u64 _check_train(self, object train) except? 0:
        """``train`` as a packed train of this search's length (another length was searched
        with this one's, a wrong answer)."""
        cdef u64 x
        check_int(train, "train", 0, 2**64 - 1, "a packed train (a 64-bit integer)")
        x = <u64>int(train)
        if train_length(x) != self.n or lucia_pos(x, self.n) < 0:
            raise LumicoreError(f"train must be a packed train of {self.n} kids with Lucia "
                                f"(the search's), got {shorten(train)}")
        return x

    cdef inline uint16_t pos_key(self) noexcept:
        """The deck position as the table stores it: the deal's number in the high byte (a
        deck holds at most 250 cards)."""
        return <uint16_t>(self.pos | (self.epoch << 8))

    cdef inline bint live(self, const DealTT* e) noexcept:
        """Whether the entry holds a position of this deal (not empty, not an earlier deal's)."""
        return e.tag != 0 and (e.pos >> 8) == self.epoch

    # -- hands ------------------------------------------------------------------------------

    cdef inline void hand_add(self, int p, int k) noexcept:
        cdef int i = self.hsize[p]
        while i > 0 and self.hand[p][i - 1] > k:
            self.hand[p][i] = self.hand[p][i - 1]
            i -= 1
        self.hand[p][i] = k
        self.hsize[p] += 1

    cdef inline void hand_remove(self, int p, int k) noexcept:
        cdef int i = 0
        while i < self.hsize[p] and self.hand[p][i] != k:
            i += 1
        if i == self.hsize[p]:
            return
        self.hsize[p] -= 1
        while i < self.hsize[p]:
            self.hand[p][i] = self.hand[p][i + 1]
            i += 1

    cdef inline int play(self, int k) noexcept:
        """The mover plays a card of kind k and draws; returns the drawn kind or -1."""
        cdef int p = self.mover, drawn = -1, i
        self.hand_remove(p, k)
        if self.pos < self.decklen:
            drawn = self.deck[self.pos]
            self.pos += 1
            self.hand_add(p, drawn)
        self.mover = (p + 1) % self.players
        self.left -= 1
        for i in range(4):
            self.capleft[i] -= self.capk[k][i]
        return drawn

    cdef inline void unplay(self, int k, int drawn) noexcept:
        cdef int i, p = (self.mover + self.players - 1) % self.players
        self.mover = p
        if drawn >= 0:
            self.pos -= 1
            self.hand_remove(p, drawn)
        self.hand_add(p, k)
        self.left += 1
        for i in range(4):
            self.capleft[i] += self.capk[k][i]

    cdef inline u64 hands_key(self) noexcept:
        cdef u64 key = 0
        cdef int i, s, p
        for i in range(self.players):
            p = (self.mover + i) % self.players
            for s in range(DL_HAND):
                key = (key << 5) | <u64>(self.hand[p][s] if s < self.hsize[p] else DL_KINDS)
        return key

    # -- transposition table -----------------------------------------------------------------

    cdef inline size_t tt_slot(self, u64 x, u64 hk) noexcept:
        cdef u64 mix = x * 0x9E3779B97F4A7C15ULL ^ (hk + <u64>self.pos * 0xD6E8FEB86659FD93ULL) \
            * 0xC2B2AE3D27D4EB4FULL
        return <size_t>((mix ^ (mix >> 29)) & self.tt_mask)

    # -- children ----------------------------------------------------------------------------

    cdef int fill(self, u64 x, int depth, int* goal_kind, u64* goal) noexcept:
        """The mover's distinct plays (kind, train) into frame ``depth``; returns their number,
        -1 when out of memory. A play reaching the goal is returned at once through goal_kind
        (the count is then 0). Dominated plays are left out (see dominated())."""
        cdef DealFrame* f = &self.frames[depth]
        cdef int p = self.mover, s, k, m, j, cnt = 0, nk = 0
        cdef int block[DL_HAND + 1]
        cdef int kinds[DL_HAND]
        goal_kind[0] = -1
        for s in range(self.hsize[p]):
            k = self.hand[p][s]
            if s > 0 and self.hand[p][s - 1] == k:
                continue
            m = play_unique(x, self.n, &self.cs[k], &self.g)
            if cnt + m > f.cap:
                if (regrow(<void**>&f.child, 2 * (cnt + m) * sizeof(u64)) or
                        regrow(<void**>&f.kind, 2 * (cnt + m) * sizeof(uint8_t)) or
                        regrow(<void**>&f.h, 2 * (cnt + m) * sizeof(uint16_t))):
                    return -1
                f.cap = 2 * (cnt + m)
            block[nk] = cnt
            kinds[nk] = k
            nk += 1
            for j in range(m):
                if is_goal_c(self.g.out[j], self.n):
                    goal_kind[0] = k
                    goal[0] = self.g.out[j]
                    return 0
                f.child[cnt] = self.g.out[j]
                f.kind[cnt] = <uint8_t>k
                cnt += 1
        block[nk] = cnt
        return self.dominated(f, block, kinds, nk)

    cdef int dominated(self, DealFrame* f, const int* block, const int* kinds, int nk) noexcept:
        """Drop the plays of a card A that another card B of the hand also makes, when A covers
        B (every play of B is one of A: wild 2 and move S or H 2): after either play the train,
        the deck and the hand are the same but for holding A instead of B, and whatever B
        could do later A can do too, so keeping A is never worse. (Of two cards that cover each
        other, the later kind is dropped.) Returns the number of plays kept."""
        cdef int a, b, j, i, m = 0, cnt = block[nk], any_cover = 0
        cdef int ka, kb
        for a in range(nk):
            for b in range(nk):
                if a != b and (self.covers[kinds[a]] >> kinds[b]) & 1:
                    any_cover = 1
        if not any_cover:
            return cnt
        for j in range(cnt):
            f.h[j] = 0
        for a in range(nk):
            ka = kinds[a]
            for b in range(nk):
                kb = kinds[b]
                if a == b or not (self.covers[ka] >> kb) & 1:
                    continue
                if (self.covers[kb] >> ka) & 1 and ka < kb:
                    continue
                for j in range(block[a], block[a + 1]):
                    for i in range(block[b], block[b + 1]):
                        if f.child[i] == f.child[j]:
                            f.h[j] = 1
                            break
        for j in range(cnt):
            if not f.h[j]:
                f.child[m] = f.child[j]
                f.kind[m] = f.kind[j]
                m += 1
        return m

    cdef inline int hopeless(self, u64 y, int k, int h, int* dfc) noexcept:
        """Whether the cards left after playing kind k cannot cover y's deficits (dfc) or its
        lower bound h."""
        cdef int i
        if h >= INF or h > self.left - 1:
            return 1
        for i in range(4):
            if dfc[i] > self.capleft[i] - self.capk[k][i]:
                return 1
        return 0

    cdef int order(self, u64 x, int depth, int cnt, int* cut) noexcept:
        """Drop hopeless children (and, under a bound, those beyond it: sets cut), sort the
        rest by their order key; returns how many remain."""
        cdef DealFrame* f = &self.frames[depth]
        cdef int j, i, m = 0, h, key
        cdef int dfc[4]
        cdef u64 y
        cdef uint8_t k
        for j in range(cnt):
            y = f.child[j]
            k = f.kind[j]
            h = heuristic_c(y, self.n, &self.t)
            deal_deficits(y, self.n, self.t.target, dfc)
            if self.hopeless(y, k, h, dfc):
                continue
            if depth + 1 + h > self.bound:
                cut[0] = 1
                continue
            # most promising first: a weighted sum of the deficits, candles heaviest (a
            # tuned ordering, not a bound; it found several times more wins within a time
            # limit than ordering by h)
            key = min(65535, 8 * dfc[0] + 2 * dfc[1] + dfc[2] + dfc[3])
            i = m
            while i > 0 and f.h[i - 1] > key:
                f.child[i] = f.child[i - 1]
                f.kind[i] = f.kind[i - 1]
                f.h[i] = f.h[i - 1]
                i -= 1
            f.child[i] = y
            f.kind[i] = k
            f.h[i] = <uint16_t>key
            m += 1
        return m

    cdef int tick(self) noexcept:
        # a node past max_nodes is refused before it is counted: nodes never exceeds the cap
        if self.nodes >= self.max_nodes:
            self.reason = DR_NODES
            return 1
        self.nodes += 1
        if (self.nodes & 1023) == 0:  # the clock every 0.5 ms or so
            if (self.nodes & 0xFFFF) == 0:
                # the GIL to a thread waiting for it: its own search, a timer, the main thread's
                # Ctrl-C. Every 10 ms or so, longer than Python's switch interval (5 ms): a
                # waiting thread asks for the GIL only after that long, and a search that let
                # go of it more often took it back each time before the waiting thread could
                with nogil:
                    pass
            if self.deadline > 0 and now() > self.deadline:
                self.reason = DR_TIME
                return 1
            if lc_check_signals():
                self.reason = DR_SIGNAL
                return 1
            if (self.progress is not None and (self.nodes & DL_PROGRESS_MASK) == 0
                    and self.report()):
                self.reason = DR_SIGNAL
                return 1
        return 0

    cdef int report(self) noexcept:
        """Call ``progress(nodes)``, other Python threads let run a moment first (a progress
        display, a timer raising SIGINT: this search holds the GIL). 1 to stop: it raised
        (KeyboardInterrupt is Ctrl-C; anything else is kept in ``errors``)."""
        with nogil:
            pass
        try:
            self.progress(self.nodes)
        except KeyboardInterrupt:
            return 1
        except BaseException as exc:
            self.errors.append(exc)
            return 1
        return 0

    cdef int dfs(self, u64 x, int depth) noexcept:
        """Whether the players can win from x (with ``depth`` plays made): DL_WIN (the plan from
        here is in path_*[depth:]), DL_LOSS, DL_CUT or DL_ABORT."""
        cdef u64 hk, goal
        cdef size_t slot
        cdef long long start
        cdef DealTT* e
        cdef DealTT* e2
        cdef int cnt, j, r, cut = 0, drawn, gk, player
        cdef uint8_t k
        cdef DealFrame* f
        if self.tick():
            return DL_ABORT
        hk = self.hands_key()
        slot = self.tt_slot(x, hk) & ~(<size_t>1)     # a bucket of two entries
        for j in range(2):
            e = &self.tt[slot + j]
            if e.tag and e.train == x and e.hands == hk and e.pos == self.pos_key():
                if e.tag == DL_EXACT:
                    return DL_LOSS
                if <int>e.tag - 1 >= self.bound:
                    return DL_CUT
        start = self.nodes
        player = self.mover
        cnt = self.fill(x, depth, &gk, &goal)
        if cnt < 0:
            self.reason = DR_MEMORY
            return DL_ABORT
        if gk >= 0:
            self.path_player[depth] = player
            self.path_kind[depth] = gk
            self.path_train[depth] = goal
            self.path_len = depth + 1
            return DL_WIN
        cnt = self.order(x, depth, cnt, &cut)
        f = &self.frames[depth]
        for j in range(cnt):
            k = f.kind[j]
            drawn = self.play(k)
            r = self.dfs(f.child[j], depth + 1)
            self.unplay(k, drawn)
            if r == DL_WIN:
                self.path_player[depth] = player
                self.path_kind[depth] = k
                self.path_train[depth] = f.child[j]
                return DL_WIN
            if r == DL_ABORT:
                return DL_ABORT
            if r == DL_CUT:
                cut = 1
        # keep what this position is known to be: in a free or matching entry of the bucket,
        # else in place of the entry whose search was cheaper (an entry of an earlier deal is
        # free: the table fills as a new one would)
        e = &self.tt[slot]
        if self.live(e) and not (e.train == x and e.hands == hk and e.pos == self.pos_key()):
            e2 = &self.tt[slot + 1]
            if not self.live(e2) or (e2.train == x and e2.hands == hk) or e2.work < e.work:
                e = e2
        e.train = x
        e.hands = hk
        e.pos = self.pos_key()
        e.tag = (1 + self.bound) if cut else DL_EXACT
        e.work = <uint32_t>min(self.nodes - start, 0xFFFFFFFF)
        return DL_CUT if cut else DL_LOSS

    cdef list plan(self):
        return [(self.path_player[i], self.path_kind[i], self.path_train[i])
                for i in range(self.path_len)]

    def solve(self, train, bound, max_nodes, deadline, object progress=None):
        """Search from ``train`` with at most ``bound`` plays in all (-1: no bound). Returns
        ``(code, reason, plan, nodes)``: code 0 loss, 1 win, 2 cut by the bound, 3 aborted;
        reason 1 nodes, 2 time, 3 Ctrl-C, 4 memory; plan a list of (player, kind, train).
        ``progress(nodes)`` (nodes visited by this search object so far) is called every
        DL_PROGRESS_MASK + 1 nodes; should it raise, the search stops: KeyboardInterrupt as
        Ctrl-C (reason 3), anything else is raised here."""
        cdef int r
        cdef u64 x = self._check_train(train)
        cdef int most = check_int(bound, "bound", -1, 2**31 - 1)
        cdef long long limit = _node_limit(max_nodes)
        cdef double clock = _deadline(deadline)
        if progress is not None and not callable(progress):
            raise LumicoreError(f"progress must be callable or None, got {shorten(progress)}")
        self.bound = DL_UNBOUNDED if most < 0 else most
        self.max_nodes = limit
        self.deadline = clock
        self.reason = 0
        self.path_len = 0
        if is_goal_c(x, self.n):
            return DL_WIN, 0, [], self.nodes
        self.progress = progress
        self.errors = []
        try:
            r = self.dfs(x, 0)
        finally:
            self.progress = None
        if self.errors:  # let go of it first: kept, it would hold this search (its 24 MB
            error, self.errors = self.errors[0], []  # table) through its traceback till a gc
            raise error
        return r, self.reason, (self.plan() if r == DL_WIN else []), self.nodes

    def children(self, train, max_nodes, deadline):
        """Every distinct play of the mover from ``train`` with its exact value: a list of
        ``(kind, train after, code)`` (codes as :meth:`solve`; 3 when a limit struck) and the
        abort reason (0 if none). ``max_nodes`` is per play (a play that runs out is code 3 and
        the next play starts afresh); the deadline and Ctrl-C stop all. The transposition table
        is shared by the plays."""
        cdef int m, i, j, r, drawn, k
        cdef int dfc[4]
        cdef u64 y
        cdef list out = []
        cdef u64 x = self._check_train(train)
        cdef long long limit = _node_limit(max_nodes)
        cdef double clock = _deadline(deadline)
        self.bound = DL_UNBOUNDED
        self.deadline = clock
        self.reason = 0
        plays = []
        seen = set()
        for j in range(self.hsize[self.mover]):
            k = self.hand[self.mover][j]
            if k in seen:
                continue
            seen.add(k)
            m = play_unique(x, self.n, &self.cs[k], &self.g)
            plays += [(k, self.g.out[i]) for i in range(m)]
        for k, y in plays:
            deal_deficits(y, self.n, self.t.target, dfc)
            if is_goal_c(y, self.n):
                r = DL_WIN
            elif self.reason:
                r = DL_ABORT
            elif self.hopeless(y, k, heuristic_c(y, self.n, &self.t), dfc):
                r = DL_LOSS
            else:
                self.max_nodes = self.nodes + limit
                drawn = self.play(k)
                r = self.dfs(y, 1)
                self.unplay(k, drawn)
                if self.reason == DR_NODES:
                    self.reason = 0
            out.append((k, y, r))
        return out, self.reason
