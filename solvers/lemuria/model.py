"""The CP-SAT model of one Lemuria player's year (see docs/lemuria.md, "The CP-SAT model").

:class:`YearModel` builds the variables and constraints; ``solvers.lemuria.build_schedule`` solves
it and reads the plan back with :meth:`YearModel.schedule_turns`.

Building side (Trend row). The cards that ever enter the row form a *stream*: the opening row
(slot 5 first, as it was dealt), then the deck top first, then (only when the deck can run out)
the cards returned to the deck bottom, in the order they are returned (identities are
variables). Each slot of each turn holds a stream index (a sentinel when empty); the card in it
is ``stream[index]``. At the end of a turn the cards still in slots 1-4 slide right past every
vacated slot (slot 5 always empties: its card is built, taken or returned), and the free slots on
the left take the next stream items, the first drawn going to the rightmost free slot. So the row
follows from the builds alone; nothing about it is assumed.

Character side. The hand and the character deck are *items*; a deck item is drawn by a buy or an
exchange, in deck order. Within a turn the plan is played in a canonical order: the build (a
remodel comes after the plays housed in the facility it discards), the plays of cards held at the
start of the turn, then the draws in deck order, each drawn card played at once if it is played
this turn; an exchange gives back the card it drew or one held at the start of
the turn. The gold of a buy is then the hand size at that point, computed exactly. This order
loses nothing (playing earlier only makes buys cheaper; giving back a card drawn earlier in the
turn is the same as exchanging that card away when it was drawn) except one corner: a card drawn
in a turn cannot be housed in the facility a remodel discards in the same turn. Characters
returned to the deck bottom are not drawn again by the model (it draws each card of the initial
character deck at most once), so an instance whose character deck can run out may have better
plans than the model's optimum.

Present facilities and chits (``Instance.facilities``, ``chits``, an opponent's ``placed``,
``first_bonuses``). The chits already in the city are constants in each district's count;
turn 1's bonuses are constants too (:func:`lumicore.lemuria.rules.start_bonuses`); a present
empty facility is a home ``-1, -2, ...`` (a key of ``hz`` beside the build turns) of a known
colour; the present housed facilities are keys ``-(E + 1), ...`` after them (never homes). A
remodel may discard any present facility, as one built in the year (``disc[g, d]``): its known
card goes to the deck bottom, the remodel's reductions count its colour, a resident housed in
it must be played before (or, held at the start of the turn, in the remodel's turn), and it
counts at no festival after the discard; until then the present housed ones add to every
festival's count of their colour.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from lumicore.checks import check_int, check_type
from lumicore.data import shorten
from lumicore.errors import LumicoreError
from lumicore.lemuria import (
    CHITS,
    COLORS,
    DISTRICTS,
    RESOURCES,
    Action,
    Build,
    Buy,
    Exchange,
    Instance,
    Play,
    Remodel,
    Schedule,
    TurnPlan,
)
from lumicore.lemuria.instance import REMODEL_FROM, check_instance
from lumicore.lemuria.rules import bonuses_taken, initial_state, start_bonuses
from solvers.lemuria.search import check_model, solve_checked

__all__ = ["TREND_BONUS", "DISTRICT_SLOTS", "REMODEL_FROM", "YearModel", "max_draws",
           "character_draws_bound", "fix_variable", "hint_all"]

TREND_BONUS = (6, 3, 1, 0, 0)
"""VP for building from slot 1..5."""
DISTRICT_SLOTS = {"rural": 6, "commerce": 5, "administrative": 5, "church": 4}
"""Building slots per district of the city; a district whose slots are all taken accepts no more
chits."""
CHURCH_VP = 3
SLOTS = range(5)  # 0-based slots; slot index 0 is the rulebook's slot 1 (leftmost)
LOWER = (3, 4)


def max_draws(instance: Instance) -> int:
    """An upper bound on the building cards drawn from the deck over the year (for refills)."""
    check_instance(instance)
    initial = sum(1 for c in instance.trend if c)
    draws = 5 - initial
    for t in range(1, instance.turns):
        taken = sum(1 for o in instance.opponents if t in o.builds)
        draws += min(5, 2 + taken)
    return draws


def character_draws_bound(instance: Instance) -> int | None:
    """An upper bound on the characters a year can draw (buys and exchanges), or None if a
    character costs no food (plays and free buys could then alternate without end).

    A draw costs at least 1 gold unless it is a buy into an empty hand; the hand empties only
    by plays (each at least the least food of a character), so at most ``plays - hand + 1``
    draws are free. Gold and food come from the start, the income and one district bonus a
    turn from turn 2 (from turn 1 with chits present at the start whose bonuses are not
    taken before the year).

    >>> from lumicore.lemuria import default_instance
    >>> character_draws_bound(default_instance(0, turns=4))
    13
    """
    check_instance(instance)
    items = [instance.characters[c] for c in (*instance.hand, *instance.character_deck)]
    if not items:
        return 0
    least = min(c.food for c in items)
    if least == 0:
        return None
    bonus_turns = instance.turns - (0 if instance.chits and instance.first_bonuses is None else 1)
    gold, food = (instance.start[r] + bonus_turns
                  + sum(amounts.get(r, 0) for amounts in instance.income.values())
                  for r in ("gold", "food"))
    return gold + max(0, food // least - len(instance.hand) + 1)


@dataclass
class _Var:
    """Small helper bundle: a model and a counter for fresh names."""

    model: cp_model.CpModel

    def bool(self, name: str) -> cp_model.IntVar:
        return self.model.new_bool_var(name)

    def int(self, lo: int, hi: int, name: str) -> cp_model.IntVar:
        return self.model.new_int_var(lo, hi, name)

    def both(self, a: cp_model.IntVar, b: cp_model.IntVar, name: str) -> cp_model.IntVar:
        """A literal equal to ``a and b``."""
        x = self.model.new_bool_var(name)
        self.model.add(x <= a)
        self.model.add(x <= b)
        self.model.add(x >= a + b - 1)
        return x

    def both_expr(self, a, b: cp_model.IntVar, name: str) -> cp_model.IntVar:
        """A literal equal to ``a and b`` where ``a`` is a 0/1 linear expression."""
        x = self.model.new_bool_var(name)
        self.model.add(x <= a)
        self.model.add(x <= b)
        self.model.add(x >= a + b - 1)
        return x

    def reify_ge(self, expr, value: builtins.int, name: str) -> cp_model.IntVar:
        """A literal equal to ``expr >= value``."""
        if isinstance(expr, int):  # an empty sum: decide now
            return self.model.new_constant(int(expr >= value))
        x = self.model.new_bool_var(name)
        self.model.add(expr >= value).only_enforce_if(x)
        self.model.add(expr <= value - 1).only_enforce_if(x.Not())
        return x


class YearModel:
    """CP-SAT variables and constraints for ``instance``; maximises the year's VP."""

    def __init__(self, instance: Instance) -> None:
        self.inst = check_instance(instance)
        self.m = cp_model.CpModel()
        self.v = _Var(self.m)
        self.T = instance.turns
        self.turns = range(1, self.T + 1)
        self.cards = sorted(instance.buildings)
        self.card_index = {c: i for i, c in enumerate(self.cards)}
        self.NONE = len(self.cards)
        self.rem = {t: self.v.bool(f"rem{t}") if t >= instance.remodel_from else None
                    for t in self.turns}
        self.dcard = {t: self.v.int(0, self.NONE - 1, f"dcard{t}")
                      for t in self.turns if self.rem[t] is not None}
        self.adm_use: dict[int, cp_model.IntVar] = {}
        self.red: dict[int, dict] = {}
        # the facilities present at the start: the empty ones are homes -1, -2, ... (in the
        # order of instance.facilities), the housed ones -(E + 1), -(E + 2), ... after them
        # (E empty ones; never homes, they count at festivals per colour); a remodel may
        # discard any of them, as a facility built in the year
        present = instance.facilities
        empty = [b for b, r in present.items() if r is None]
        housed = [b for b, r in present.items() if r is not None]
        self.present = {-(j + 1): b for j, b in enumerate(empty)}
        self.present_housed = {-(len(empty) + j + 1): b for j, b in enumerate(housed)}
        self.present_all = {**self.present, **self.present_housed}
        self.homes = [*self.turns, *self.present]
        self._stream()
        self._row()
        self._builds()
        self._districts()
        self._resources_and_characters()
        self._festivals()
        self._cuts()
        self._objective()

    # ------------------------------------------------------------------ the Trend row
    def _stream(self) -> None:
        inst = self.inst
        initial = [c for c in reversed(inst.trend) if c]  # slot 5 first
        fixed = [self.card_index[c] for c in initial + list(inst.deck)]
        self.n_initial = len(initial)
        self.n_fixed = len(fixed)
        self.n_returns = max(0, max_draws(inst) - len(inst.deck))
        self.returned = [self.v.int(0, self.NONE - 1, f"ret{j}") for j in range(self.n_returns)]
        self.SENT = self.n_fixed + self.n_returns
        self.stream = [self.m.new_constant(c) for c in fixed] + self.returned + [
            self.m.new_constant(self.NONE)]
        self.stream_fixed = fixed

    def _row(self) -> None:
        """idx[t][s], card[t][s] for each turn start; player/opponent takes; refill dynamics."""
        m, v, T = self.m, self.v, self.T
        self.idx: dict[int, list] = {}
        self.card: dict[int, list] = {}
        self.occ: dict[int, list] = {}
        # turn 1: as dealt
        first = []
        pos = 0
        slot_items: list[int | None] = [None] * 5
        for s in (4, 3, 2, 1, 0):
            if self.inst.trend[s]:
                slot_items[s] = pos
                pos += 1
        for s in SLOTS:
            item = slot_items[s]
            first.append(m.new_constant(self.SENT if item is None else item))
        self.draw_ptr = {1: m.new_constant(self.n_initial)}
        self.bs = {t: [v.bool(f"bs{t}_{s}") for s in SLOTS] for t in self.turns}
        self.otk: dict[int, list] = {}
        self.kept: dict[int, list] = {}
        self.evict: dict[int, cp_model.IntVar] = {}
        self._set_slots(1, first)
        for t in range(1, T):
            self._refill(t)

    def _set_slots(self, t: int, idx: list) -> None:
        m, v = self.m, self.v
        self.idx[t] = idx
        cards, occ = [], []
        for s in SLOTS:
            c = v.int(0, self.NONE, f"card{t}_{s}")
            m.add_element(idx[s], self.stream, c)
            o = v.bool(f"occ{t}_{s}")
            m.add(idx[s] <= self.SENT - 1).only_enforce_if(o)
            m.add(idx[s] == self.SENT).only_enforce_if(o.Not())
            m.add(c <= self.NONE - 1).only_enforce_if(o)
            cards.append(c)
            occ.append(o)
        self.card[t], self.occ[t] = cards, occ
        if t >= 2:  # after a refill the row is right-aligned and ordered by age
            for s in range(4):
                m.add_implication(occ[s], occ[s + 1])
                m.add(idx[s] >= idx[s + 1] + 1).only_enforce_if(occ[s])
        # opponents take their cards first (if still in the row)
        takes: list[list[Any]] = [[] for _ in SLOTS]
        for k, opp in enumerate(self.inst.opponents):
            card = opp.builds.get(t)
            if card is None:
                continue
            ci = self.card_index[card]
            for s in SLOTS:
                x = v.bool(f"otk{t}_{k}_{s}")
                m.add(cards[s] == ci).only_enforce_if(x)
                m.add(cards[s] != ci).only_enforce_if(x.Not())
                takes[s].append(x)
        self.otk[t] = [sum(x) for x in takes]
        for s in SLOTS:
            # the player builds from an occupied slot the opponents left
            m.add(self.bs[t][s] + self.otk[t][s] <= occ[s])
        m.add(sum(self.bs[t]) <= 1)

    def _refill(self, t: int) -> None:
        """End of turn t: return slot 5, slide right, draw from the stream."""
        m, v = self.m, self.v
        occ, bs, otk = self.occ[t], self.bs[t], self.otk[t]
        kept = [v.bool(f"kept{t}_{s}") for s in range(4)]
        for s in range(4):
            m.add(kept[s] + bs[s] + otk[s] == occ[s])
        evict = v.bool(f"evict{t}")
        m.add(evict + bs[4] + otk[4] == occ[4])
        self.kept[t], self.evict[t] = kept, evict
        nkept = sum(kept)
        moves: dict[int, list] = {s2: [] for s2 in SLOTS}
        new_idx = [v.int(0, self.SENT, f"idx{t + 1}_{s}") for s in SLOTS]
        for s in range(4):
            right = sum(kept[s + 1:4])
            mine = []
            for s2 in range(s + 1, 5):
                # kept card at s moves to 4 - (#kept to its right) (0-based)
                mv = v.bool(f"mv{t}_{s}_{s2}")
                m.add_implication(mv, kept[s])
                m.add(right == 4 - s2).only_enforce_if(mv)
                moves[s2].append(mv)
                mine.append(mv)
                m.add(new_idx[s2] == self.idx[t][s]).only_enforce_if(mv)
            m.add(sum(mine) == kept[s])
        length = self._stream_length(t)
        ptr = self.draw_ptr[t]
        end = ptr + 5 - nkept  # stream position just past the last card wanted
        for s2 in SLOTS:
            from_row = sum(moves[s2])
            m.add(from_row <= 1)
            # slot s2 (0-based) is filled from the stream iff s2 < 5 - nkept; it gets item
            # end - (s2 + 1) when that item exists by now
            drawn = v.bool(f"drawn{t}_{s2}")
            m.add(drawn + from_row <= 1)
            m.add(new_idx[s2] == end - (s2 + 1)).only_enforce_if(drawn)
            m.add(end - (s2 + 1) <= length - 1).only_enforce_if(drawn)
            empty = v.bool(f"empty{t}_{s2}")
            m.add(drawn + from_row + empty == 1)
            m.add(new_idx[s2] == self.SENT).only_enforce_if(empty)
            # empty although wanted only when the stream is exhausted
            m.add(end - (s2 + 1) >= length).only_enforce_if([empty])
        m.add(nkept == sum(sum(moves[s2]) for s2 in SLOTS))
        nxt = v.int(0, self.SENT, f"ptr{t + 1}")
        m.add_min_equality(nxt, [end, length])
        self.draw_ptr[t + 1] = nxt
        self._set_slots(t + 1, new_idx)

    def _stream_length(self, t: int):
        """Stream items that exist when the row is refilled at the end of turn t."""
        if not self.n_returns:
            return self.n_fixed
        return self.n_fixed + sum(occ for (turn, occ, _card) in self._return_events()
                                  if turn <= t)

    def _return_events(self) -> list:
        """Returns to the deck bottom in order: per turn a remodel's discard, then the card left
        in slot 5 (from the end of turn 1 to the end of turn T-1)."""
        events = []
        for t in sorted(self.evict):
            if self.rem[t] is not None:
                events.append((t, self.rem[t], self.dcard[t]))
            events.append((t, self.evict[t], self.card[t][4]))
        return events

    def _link_returns(self) -> None:
        """The j-th returned card is the card of the j-th return event that occurs."""
        if not self.n_returns:
            return
        m, v, R = self.m, self.v, self.n_returns
        before = 0
        for e, (_t, occ, card) in enumerate(self._return_events()):
            links = []
            for j in range(min(e + 1, R)):
                a = v.bool(f"ret_is{e}_{j}")
                m.add(before == j).only_enforce_if(a)
                m.add(self.returned[j] == card).only_enforce_if(a)
                links.append(a)
            if e >= R:  # too late to be drawn again this year
                over = v.bool(f"ret_over{e}")
                m.add(before >= R).only_enforce_if(over)
                links.append(over)
            m.add(sum(links) == occ)
            before = before + occ

    # ------------------------------------------------------------------ builds and facilities
    def _builds(self) -> None:
        m, v, inst = self.m, self.v, self.inst
        nc = self.NONE + 1
        self.bc, self.bh, self.bld, self.newb = {}, {}, {}, {}
        self.fcol: dict[int, list] = {}
        self.cost: dict[int, dict] = {}
        self.vp_card, self.trend_vp = {}, {}
        for t in self.turns:
            bc = v.int(0, self.NONE, f"bc{t}")
            bh = [v.bool(f"bh{t}_{c}") for c in range(nc)]
            m.add_map_domain(bc, bh, 0)
            for s in SLOTS:
                m.add(bc == self.card[t][s]).only_enforce_if(self.bs[t][s])
            bld = sum(self.bs[t])
            m.add(bh[self.NONE] + bld == 1)
            self.bc[t], self.bh[t], self.bld[t] = bc, bh, bld
            rem = self.rem[t]
            if rem is not None:
                m.add(rem <= bld)
            self.newb[t] = bld - (rem if rem is not None else 0)
            b = [inst.buildings[c] for c in self.cards]
            self.cost[t] = {r: sum(bh[i] * b[i].cost.get(r, 0) for i in range(self.NONE)
                                   if b[i].cost.get(r, 0)) for r in RESOURCES}
            self.vp_card[t] = sum(bh[i] * b[i].vp for i in range(self.NONE) if b[i].vp)
            self.fcol[t] = [sum(bh[i] for i in range(self.NONE) if b[i].color == col)
                            for col in COLORS]
            self.trend_vp[t] = sum(self.bs[t][s] * TREND_BONUS[s] for s in SLOTS if TREND_BONUS[s])
        m.add(sum(self.newb.values()) <= CHITS - len(inst.facilities))
        # remodels: discard one earlier facility
        self.disc: dict[tuple[int, int], cp_model.IntVar] = {}
        self.same = {}
        for d in self.turns:
            rem = self.rem[d]
            if rem is None:
                continue
            options = []
            dcol = v.int(0, len(COLORS) - 1, f"dcol{d}")
            dcard = self.dcard[d]
            for f in range(1, d):
                x = v.bool(f"disc{f}_{d}")
                m.add(x <= self.bld[f])
                m.add(dcol == self._color_index(f)).only_enforce_if(x)
                m.add(dcard == self.bc[f]).only_enforce_if(x)
                self.disc[f, d] = x
                options.append(x)
            for g, building in self.present_all.items():  # its card and colour known
                x = v.bool(f"disc{g}_{d}")
                m.add(dcol == COLORS.index(inst.buildings[building].color)).only_enforce_if(x)
                m.add(dcard == self.card_index[building]).only_enforce_if(x)
                self.disc[g, d] = x
                options.append(x)
            m.add(sum(options) == rem)
            same = v.bool(f"same{d}")
            m.add_implication(same, rem)
            m.add(dcol == self._color_index(d)).only_enforce_if(same)
            self.same[d] = same
        for f in self.turns:
            m.add(sum(x for (ff, _d), x in self.disc.items() if ff == f) <= self.bld[f])
        for g in self.present_all:
            m.add(sum(x for (ff, _d), x in self.disc.items() if ff == g) <= 1)
        self._link_returns()

    def _color_index(self, t: int):
        return sum(i * x for i, x in enumerate(self.fcol[t]) if i)

    def dtime(self, f: int):
        """The turn facility ``f`` (a build turn or a present facility's key) is discarded
        by a remodel (T + 1: never)."""
        xs = [(d, x) for (ff, d), x in self.disc.items() if ff == f]
        return sum(d * x for d, x in xs) + (self.T + 1) * (1 - sum(x for _d, x in xs))

    # ------------------------------------------------------------------ districts
    def _districts(self) -> None:
        m, v, inst = self.m, self.v, self.inst
        self.chit = {t: {d: v.bool(f"chit{t}_{d}") for d in DISTRICTS} for t in self.turns}
        festivals = set(inst.festivals)
        self.bonus: dict[int, dict] = {}
        # opponents' chits, placed only while the district has a free slot
        opp_placed: dict[tuple[int, int], cp_model.IntVar] = {}
        for t in self.turns:
            for d in DISTRICTS:
                for k, opp in enumerate(inst.opponents):
                    if opp.chits.get(t) != d:
                        continue
                    already = self._count(d, t, opp_placed, upto_opp=k)
                    opp_placed[t, k] = v.reify_ge(DISTRICT_SLOTS[d] - already, 1, f"op{t}_{k}")
        self.opp_placed = opp_placed
        turn1 = start_bonuses(inst, initial_state(inst))  # from the chits present at the start
        for t in self.turns:
            # the player's chit of this turn (after the opponents' of this turn)
            placed_now = sum(self.chit[t].values())
            m.add(placed_now <= self.newb[t])
            full = []
            for d in DISTRICTS:
                total = self._count(d, t, opp_placed, upto_opp=len(inst.opponents))
                m.add(total <= DISTRICT_SLOTS[d] - 1).only_enforce_if(self.chit[t][d])
                if inst.opponents:
                    full.append(v.reify_ge(total, DISTRICT_SLOTS[d], f"full{t}_{d}"))
            if inst.opponents:
                no_chit = v.bool(f"nochit{t}")
                m.add(no_chit + placed_now == self.newb[t])
                for f in full:
                    m.add_implication(no_chit, f)
            else:
                m.add(placed_now == self.newb[t])
            # turn-start bonuses (turn 1's from the chits present at the start, or none but
            # the Administrative one when they were taken before the year)
            self.bonus[t] = {}
            for d in DISTRICTS:
                mine = inst.chits.get(d, 0) + sum(self.chit[u][d] for u in range(1, t))
                if t == 1:
                    taken = bonuses_taken(inst, 1) and d != "administrative"
                    self.bonus[t][d] = int(d in turn1 and not taken)
                    continue
                conds = [v.reify_ge(mine, 1, f"has{t}_{d}")]
                m.add(conds[0] <= mine)
                if t not in festivals:
                    for k, opp in enumerate(inst.opponents):
                        theirs = opp.placed.get(d, 0) + sum(
                            x for (u, kk), x in opp_placed.items()
                            if kk == k and u < t and inst.opponents[k].chits[u] == d)
                        conds.append(v.reify_ge(mine - theirs, 1, f"maj{t}_{d}_{k}"))
                if len(conds) == 1:
                    self.bonus[t][d] = conds[0]
                else:
                    b = v.bool(f"bonus{t}_{d}")
                    for c in conds:
                        m.add(b <= c)
                    m.add_bool_or([b] + [c.Not() for c in conds])
                    self.bonus[t][d] = b

    def _count(self, d: str, t: int, opp_placed: dict, upto_opp: int):
        """Chits in district d just before opponent ``upto_opp`` acts in turn t (with those
        present at the start)."""
        inst = self.inst
        mine = (inst.chits.get(d, 0) + sum(o.placed.get(d, 0) for o in inst.opponents)
                + sum(self.chit[u][d] for u in range(1, t)))
        theirs = sum(x for (u, k), x in opp_placed.items()
                     if inst.opponents[k].chits[u] == d and (u < t or (u == t and k < upto_opp)))
        return mine + theirs

    # ------------------------------------------------------------------ resources, characters
    def _resources_and_characters(self) -> None:
        m, v, inst, T = self.m, self.v, self.inst, self.T
        chars = inst.characters
        self.items = list(inst.hand) + list(inst.character_deck)
        H, K = len(inst.hand), len(inst.character_deck)
        self.H, self.K = H, K
        n = H + K
        turns = self.turns
        # draws of deck items
        self.dt = {(k, t): v.bool(f"dt{k}_{t}") for k in range(K) for t in turns}
        self.bk = {(k, t): v.bool(f"bk{k}_{t}") for k in range(K) for t in turns}
        self.xs = {(k, t): v.bool(f"xs{k}_{t}") for k in range(K) for t in turns}
        self.xo = {(k, t): v.bool(f"xo{k}_{t}") for k in range(K) for t in turns}
        self.pn = {(k, t): v.bool(f"pn{k}_{t}") for k in range(K) for t in turns}
        for k in range(K):
            m.add(sum(self.dt[k, t] for t in turns) <= 1)
            for t in turns:
                m.add(self.bk[k, t] + self.xs[k, t] + self.xo[k, t] == self.dt[k, t])
                m.add(self.pn[k, t] <= self.bk[k, t] + self.xo[k, t])
            if k + 1 < K:
                for t in turns:  # deck order
                    m.add(self.drawn_by(k + 1, t) <= self.drawn_by(k, t))
        # plays of items held at the start of a turn, and old cards given back in exchanges
        self.po = {(i, t): v.bool(f"po{i}_{t}") for i in range(n) for t in turns}
        self.go = {(i, t): v.bool(f"go{i}_{t}") for i in range(n) for t in turns}
        for i in range(H, n):
            k = i - H
            for t in turns:
                held = self.drawn_by(k, t - 1)
                m.add(self.po[i, t] <= held)
                m.add(self.go[i, t] <= held)
        for i in range(n):
            fates = [self.po[i, t] + self.go[i, t] for t in turns]
            if i >= H:
                fates += [self.pn[i - H, t] + self.xs[i - H, t] for t in turns]
            m.add(sum(fates) <= 1)
        for t in turns:
            m.add(sum(self.go[i, t] for i in range(n)) == sum(self.xo[k, t] for k in range(K)))
        # housing: item i lives in the facility built in turn f
        self.hz = {(i, f): v.bool(f"hz{i}_{f}") for i in range(n) for f in self.homes}
        self.match = {}
        ptime, pnow = {}, {}
        for i in range(n):
            played = [self.played(i, t) for t in turns]
            ptime[i] = sum(t * p for t, p in zip(turns, played, strict=True))
            pnow[i] = sum(self.pn[i - H, t] for t in turns) if i >= H else 0
            m.add(sum(self.hz[i, f] for f in self.homes) <= sum(played))
            col = COLORS.index(chars[self.items[i]].color)
            for g, building in self.present.items():  # its colour known
                same = inst.buildings[building].color == chars[self.items[i]].color
                self.match[i, g] = self.hz[i, g] if same else 0
                # housed before a remodel discards it (in that turn, by a card held at the
                # start of the turn), as a facility built in the year
                m.add(2 * self.dtime(g) >= 2 * ptime[i] + pnow[i]).only_enforce_if(self.hz[i, g])
            for f in turns:
                hz = self.hz[i, f]
                m.add(ptime[i] >= f).only_enforce_if(hz)
                m.add(2 * self.dtime(f) >= 2 * ptime[i] + pnow[i]).only_enforce_if(hz)
                mt = v.bool(f"mt{i}_{f}")
                m.add(mt <= hz)
                m.add(mt <= self.fcol[f][col])
                m.add(mt >= hz + self.fcol[f][col] - 1)
                self.match[i, f] = mt
        self.ptime = ptime
        for f in turns:
            m.add(sum(self.hz[i, f] for i in range(n)) <= self.bld[f])
        for g in self.present:
            m.add(sum(self.hz[i, g] for i in range(n)) <= 1)
        # hand size and gold of buys: hand[t] at the start of turn t, then a running count
        # along the deck items drawn this turn
        big = n
        self.buy_cost = {}
        hand = m.new_constant(H)
        for t in turns:
            old = sum(self.po[i, t] for i in range(n))
            running = v.int(0, big, f"run{t}_0")
            m.add(running == hand - old)
            for k in range(K):
                # when deck item k is bought the hand holds at most H + k cards (deck order)
                c = v.int(0, H + k, f"buy{k}_{t}")
                m.add(c >= running - big * (1 - self.bk[k, t]))
                m.add(c == running).only_enforce_if(self.bk[k, t])
                m.add(c == 0).only_enforce_if(~self.bk[k, t])
                self.buy_cost[k, t] = c
                if k + 1 < K:
                    nxt = v.int(0, big, f"run{t}_{k + 1}")
                    m.add(nxt == running + self.dt[k, t] - self.pn[k, t] - self.xs[k, t]
                          - self.xo[k, t])
                    running = nxt
            buys = sum(self.bk[k, t] for k in range(K))
            plays = sum(self.played(i, t) for i in range(n))
            nxt_hand = v.int(0, big, f"hand{t + 1}")
            m.add(nxt_hand == hand + buys - plays)
            hand = nxt_hand
        # resources
        self.level = {}
        prev: dict[str, Any] = dict(inst.start)  # ints, then each turn's level variables
        hi = sum(inst.start.values()) + self.income_bound() + 2 * T
        for t in turns:
            bonus = self.bonus[t]
            gains = self.income(t)
            self.red[t] = self._reductions(t)
            out = {}
            for r in RESOURCES:
                gain = gains.get(r, 0)
                if r == "food":
                    gain = gain + bonus["rural"]
                if r == "gold":
                    gain = gain + bonus["commerce"]
                spend = self.cost[t][r] - self.red[t][r]
                if r == "food":
                    spend = spend + sum(chars[self.items[i]].food * self.played(i, t)
                                        for i in range(n))
                if r == "gold":
                    spend = spend + sum(self.buy_cost[k, t] + 2 * (self.xs[k, t] + self.xo[k, t])
                                        for k in range(K))
                lvl = v.int(0, hi, f"{r}{t}")
                m.add(lvl == prev[r] + gain - spend)
                out[r] = lvl
            self.level[t] = out
            prev = out

    def income(self, t: int) -> dict:
        """The resources gained in turn ``t``, by resource: the instance's income here; a
        subclass may return CP-SAT expressions (``solvers.lemuria.harvest`` does)."""
        return dict(self.inst.income[t])

    def income_bound(self) -> int:
        """An upper bound on the resources gained over the year (for variable domains)."""
        return sum(sum(a.values()) for a in self.inst.income.values())

    @property
    def every_year(self) -> bool:
        """The model describes every legal year, so CP-SAT's bound bounds them all: no
        character can come back from the bottom of its deck (the model draws each card of the
        deck once: :func:`character_draws_bound`) and no remodel is allowed (a card drawn in a
        turn is not housed in the facility that turn's remodel discards)."""
        inst = self.inst
        draws = self.draws_bound()
        return (draws is not None and draws <= len(inst.character_deck)
                and inst.turns < inst.remodel_from)

    def draws_bound(self) -> int | None:
        """:func:`character_draws_bound` of the year (a subclass whose income is decided
        elsewhere bounds it with that income)."""
        return character_draws_bound(self.inst)

    def _reductions(self, t: int) -> dict:
        m, v = self.m, self.v
        bs = self.bs[t]
        lower = bs[3] + bs[4]
        upper = bs[0] + bs[1] + bs[2]
        adm = v.bool(f"adm{t}")
        m.add(adm <= upper)
        m.add(adm <= self.bonus[t]["administrative"])
        self.adm_use[t] = adm
        n = lower + adm
        rem = self.rem[t]
        if rem is not None:
            n = n + rem + self.same[t]
        red = {}
        for r in RESOURCES:
            x = v.int(0, 4, f"red{t}_{r}")
            m.add(x <= self.cost[t][r])
            red[r] = x
        m.add(sum(red.values()) <= n)
        return red

    def drawn_by(self, k: int, t: int):
        """1 if deck item k has been drawn by the end of turn t."""
        return sum(self.dt[k, u] for u in range(1, t + 1))

    def played(self, i: int, t: int):
        x: Any = self.po[i, t]
        if i >= self.H:
            x = x + self.pn[i - self.H, t]
        return x

    # ------------------------------------------------------------------ festivals, objective
    def _festivals(self) -> None:
        """Festival scoring. ``hf[f][p]``: facility f gets its resident in turn p; it is tied to
        the resident's play (exactly, per pair) and counted per turn (a redundant, LP-tight
        form), so a festival's count of housed facilities is linear in ``hf``."""
        m, v, inst = self.m, self.v, self.inst
        n = self.H + self.K
        hf = {(f, p): v.bool(f"hf{f}_{p}") for f in self.homes for p in self.turns if p >= f}
        hp = {(i, p): v.bool(f"hp{i}_{p}") for i in range(n) for p in self.turns}
        for f in self.homes:
            times = [(p, hf[f, p]) for p in self.turns if p >= f]
            has = sum(self.hz[i, f] for i in range(n))
            m.add(sum(x for _p, x in times) == has)
            when = sum(p * x for p, x in times)
            for i in range(n):
                m.add(when == self.ptime[i]).only_enforce_if(self.hz[i, f])
        for i in range(n):
            m.add(sum(hp[i, p] for p in self.turns) == sum(self.hz[i, f] for f in self.homes))
            for p in self.turns:
                m.add(hp[i, p] <= self.played(i, p))
        for p in self.turns:
            m.add(sum(hf[f, p] for f in [*range(1, p + 1), *self.present])
                  == sum(hp[i, p] for i in range(n)))
        self.fest_vp: dict[tuple[int, str | None], Any] = {}
        for F in inst.festivals:
            occupied = [(f, self._occupied(f, F, sum(hf[f, p] for p in range(f, F + 1))))
                        for f in range(1, F + 1)]
            # present facilities: the empty ones housed by then, the housed ones; either not
            # discarded by then
            present = {g: self._occupied(g, F, sum(hf[g, p] for p in range(1, F + 1)))
                       for g in self.present}
            present.update({g: self._occupied(g, F, 1) for g in self.present_housed})
            if not inst.opponents:  # alone, every housed facility is first in its colour
                self.fest_vp[F, None] = 3 * (sum(o for _f, o in occupied) + sum(present.values()))
                continue
            for ci, col in enumerate(COLORS):
                ncol = sum(v.both_expr(o, self._fc_lit(f, ci), f"oc{f}_{F}_{col}")
                           for f, o in occupied)
                ncol = ncol + sum(x for g, x in present.items()
                                  if inst.buildings[self.present_all[g]].color == col)
                most = max((o.residents.get(F, {}).get(col, 0) for o in inst.opponents),
                           default=0)
                big = v.reify_ge(ncol, most + 1, f"big{F}_{col}")
                y = v.int(0, CHITS, f"y{F}_{col}")
                m.add(y <= ncol)
                m.add(y <= CHITS * big)
                m.add(y >= ncol - CHITS * (1 - big))
                self.fest_vp[F, col] = ncol + 2 * y

    def _occupied(self, f: int, F: int, housed):
        """Whether facility ``f`` (a build turn or a present facility's key) is housed at the
        festival of turn ``F`` (``housed``: it has its resident by then) and not discarded by
        a remodel in turns up to ``F``."""
        gone = [x for (ff, d), x in self.disc.items() if ff == f and d <= F]
        if not gone:
            return housed
        if isinstance(housed, int):  # a present housed facility: there unless discarded
            return housed - sum(gone)
        o = self.v.bool(f"oc{f}_{F}")
        self.m.add(o <= housed)
        self.m.add(o <= 1 - sum(gone))
        self.m.add(o >= housed - sum(gone))
        return o

    def _fc_lit(self, f: int, ci: int):
        """A literal for 'facility f has colour ci'."""
        key = (f, ci)
        if not hasattr(self, "_fc"):
            self._fc: dict[tuple[int, int], cp_model.IntVar] = {}
        if key not in self._fc:
            x = self.v.bool(f"fc{f}_{ci}")
            self.m.add(x == self.fcol[f][ci])
            self._fc[key] = x
        return self._fc[key]

    # ------------------------------------------------------------------ redundant cuts
    CUTS: tuple[str, ...] = ("once", "window")
    """The redundant constraints :meth:`_cuts` adds (an empty tuple: none; for tests)."""

    def _cuts(self) -> None:
        """Valid redundant constraints (no plan is cut off). ``once``: when no card returned
        to the deck bottom can be drawn again (no returns in the stream), a card enters the row
        at most once, so it is built at most once over the year. ``window``: see
        :meth:`windows`."""
        if "once" in self.CUTS and not self.n_returns:
            for c in range(self.NONE):
                self.m.add(sum(self.bh[t][c] for t in self.turns) <= 1)
        windows = self.windows() if "window" in self.CUTS else None
        if windows:
            position = {c: p for p, c in enumerate(self.stream_fixed)}
            for t in self.turns:
                for s in SLOTS:
                    lo, hi = windows[t][s]
                    outside = [self.bh[t][c] for c in range(self.NONE)
                               if not lo <= position.get(c, -1) <= hi]
                    self.m.add(sum(outside) <= 1 - self.bs[t][s])

    def windows(self) -> dict[int, list[tuple[int, int]]] | None:
        """``windows[t][s]``: the stream positions (0-based) a card in slot ``s`` (0-based) can
        have in turn ``t``, when the opening row is full and the deck never runs out (else
        None). Each refill draws one card plus one per card removed from slots 1-4 (by the
        player, at most one a turn, or the opponents), so after turn ``t - 1`` the draw pointer
        lies in [t + 4, 5 + sum of the most draws per turn]; the card in slot ``s`` is the
        (s+1)-th newest card still in the row, and every removed card newer than it came with
        an extra draw, so its position lies in [t + 3 - s, most - 1 - s] (docs/lemuria.md)."""
        inst = self.inst
        if any(c is None for c in inst.trend) or self.n_returns:
            return None
        out, most = {}, 5
        for t in self.turns:
            out[t] = [(t + 3 - s, most - 1 - s) for s in SLOTS]
            taken = sum(1 for o in inst.opponents if t in o.builds)
            most += min(5, 2 + taken)
        return out

    def add_bound(self, limit: int) -> None:
        """The cut ``VP <= limit`` (from a proven upper bound on the year's VP)."""
        self.m.add(sum(self.parts.values()) <= int(limit))

    def _objective(self) -> None:
        chars = self.inst.characters
        n = self.H + self.K
        self.parts = {
            "buildings": sum(self.vp_card[t] for t in self.turns),
            "trend": sum(self.trend_vp[t] for t in self.turns),
            "residents": sum(chars[self.items[i]].vp * self.hz[i, f]
                             + (chars[self.items[i]].vp_match - chars[self.items[i]].vp)
                             * self.match[i, f] for i in range(n) for f in self.homes),
            "church": sum(CHURCH_VP * self.bonus[t]["church"] for t in self.turns),
            "festival": sum(self.fest_vp.values()),
        }
        self.m.maximize(sum(self.parts.values()))

    # ------------------------------------------------------------------ reading a solution
    def schedule_turns(self, sol: cp_model.CpSolver) -> list[TurnPlan]:
        """The plan of a solved model, in the canonical order of the module docstring."""
        val = sol.value
        H, K = self.H, self.K
        n = H + K
        facility = {f: self.cards[val(self.bc[f])] for f in self.turns if val(self.bld[f])}
        facility.update(self.present_all)
        home = {i: f for (i, f), x in self.hz.items() if val(x)}
        plans = []
        for t in self.turns:
            before: list[Play] = []
            after: list[Play] = []
            disc = [f for (f, d), x in self.disc.items() if d == t and val(x)]
            for i in range(n):
                if val(self.po[i, t]):
                    f = home.get(i)
                    play = Play(self.items[i], facility[f] if f is not None else None)
                    (before if disc and f == disc[0] else after).append(play)
            actions: list[Action] = list(before)
            if val(self.bld[t]):
                card = facility[t]
                reduce = tuple(r for r in RESOURCES for _ in range(val(self.red[t][r])))
                if disc:
                    actions.append(Remodel(discard=facility[disc[0]], card=card, reduce=reduce))
                else:
                    district = next((d for d in DISTRICTS if val(self.chit[t][d])), None)
                    actions.append(Build(card=card, district=district, reduce=reduce))
            actions += after
            give_old = [self.items[i] for i in range(n) if val(self.go[i, t])]
            for k in range(K):
                if not val(self.dt[k, t]):
                    continue
                item = self.items[H + k]
                if val(self.bk[k, t]):
                    actions.append(Buy())
                elif val(self.xs[k, t]):
                    actions.append(Exchange(give_back=item))
                else:
                    actions.append(Exchange(give_back=give_old.pop()))
                if val(self.pn[k, t]):
                    f = home.get(H + k)
                    actions.append(Play(item, facility[f] if f is not None else None))
            plans.append(TurnPlan(turn=t, actions=tuple(actions)))
        return plans

    def describes(self, turns: list[TurnPlan], rows: dict[int, tuple]) -> bool:
        """Whether the model describes the legal plan ``turns`` (see :meth:`hint`)."""
        return self._plan_values(turns, rows) is not None

    def hint(self, turns: list[TurnPlan], rows: dict[int, tuple]) -> bool:
        """Hint the solver with the decisions of a legal plan; ``rows[t]`` is the Trend row the
        player saw in turn t. Returns False (and hints nothing) when the plan does something
        the model does not describe: a draw past the character deck, or an exchange giving back
        a card drawn earlier in the same turn."""
        values = self._plan_values(turns, rows)
        if values is None:
            return False
        for group in (self.bs.values(), [d.values() for d in self.chit.values()]):
            for lits in group:
                for x in lits:
                    self.m.add_hint(x, values.get(x, 0))
        for x in [*(x for x in self.rem.values() if x is not None), *self.disc.values()]:
            self.m.add_hint(x, values.get(x, 0))
        for table in (self.dt, self.bk, self.xs, self.xo, self.pn, self.po, self.go, self.hz):
            for x in table.values():
                self.m.add_hint(x, values.get(x, 0))
        return True

    def _plan_values(self, turns: list[TurnPlan], rows: dict[int, tuple]) -> dict | None:
        """The decision literals a plan sets to 1 (None: see :meth:`hint`)."""
        H = self.H
        item = {c: i for i, c in enumerate(self.items[:H])}
        built_in: dict[str, int] = {b: g for g, b in self.present_all.items()}
        values: dict = {}
        drawn = 0
        for plan in turns:
            t = plan.turn
            new: set[int] = set()
            for a in plan.actions:
                if isinstance(a, (Build, Remodel)):
                    values[self.bs[t][rows[t].index(a.card)]] = 1
                    if isinstance(a, Build) and a.district:
                        values[self.chit[t][a.district]] = 1
                    if isinstance(a, Remodel):
                        values[self.rem[t]] = values[self.disc[built_in.pop(a.discard), t]] = 1
                    built_in[a.card] = t
                elif isinstance(a, (Buy, Exchange)):
                    if drawn >= self.K:
                        return None
                    k, i = drawn, H + drawn
                    item[self.items[i]] = i
                    drawn += 1
                    values[self.dt[k, t]] = 1
                    if isinstance(a, Buy):
                        values[self.bk[k, t]] = 1
                        new.add(i)
                    elif a.give_back == self.items[i]:
                        values[self.xs[k, t]] = 1
                    else:
                        back = item.get(a.give_back)
                        if back is None or back in new:
                            return None
                        values[self.xo[k, t]] = values[self.go[back, t]] = 1
                        new.add(i)
                elif isinstance(a, Play):
                    i = item[a.character]
                    values[self.pn[i - H, t] if i in new else self.po[i, t]] = 1
                    if a.house_in is not None:
                        values[self.hz[i, built_in[a.house_in]]] = 1
        return values

    def complete_hint(self, seconds: float = 10.0) -> list[int] | None:
        """Turn the hint (a whole plan's decision literals, see :meth:`hint`)
        into values of every variable by solving the model with those literals fixed, and hint
        all of them, so that the solver starts from a complete solution. Returns the values
        (by variable index), or None when that solve did not finish."""
        solver = self.solve_hinted(seconds)
        if solver is None:
            return None
        values = list(solver.response_proto.solution)
        self.hint_values(values)
        return values

    def solve_hinted(self, seconds: float = 10.0) -> cp_model.CpSolver | None:
        """The model solved with every decision literal fixed to its hint (a whole plan's, see
        :meth:`hint`; unhinted literals 0): the solver holding that plan's values of every
        variable, or None when that solve did not finish."""
        hints = dict(zip(self.m.proto.solution_hint.vars, self.m.proto.solution_hint.values,
                         strict=True))
        fixed = self.m.clone()
        for x in self.model_literals():
            _fix(fixed, x, hints.get(x.index, 0))
        fixed.clear_hints()
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.max_time_in_seconds = seconds
        solver.parameters.catch_sigint_signal = False  # Ctrl-C stays Python's
        if solve_checked(solver, fixed) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return None
        return solver

    def hint_values(self, values: list[int]) -> None:
        """Hint every variable with ``values`` (by variable index; a whole solution), replacing
        the hints the model had."""
        _hint_all(self.m, check_values(self.m, values))

    def model_literals(self) -> list[cp_model.IntVar]:
        """Every decision literal of the plan (builds, chits, remodels, character moves and
        homes): the variables a hint sets."""
        lits = [x for t in self.turns for x in self.bs[t]]
        lits += [x for d in self.chit.values() for x in d.values()]
        lits += [x for x in self.rem.values() if x is not None] + list(self.disc.values())
        for table in (self.dt, self.bk, self.xs, self.xo, self.pn, self.po, self.go, self.hz):
            lits += list(table.values())
        return lits

    def breakdown(self, sol: cp_model.CpSolver) -> dict[str, int]:
        return {name: int(sol.value(expr)) for name, expr in self.parts.items()}

    def schedule(self, sol: cp_model.CpSolver) -> Schedule:
        """The plan of a solved model (or of a copy of it) with its VP and breakdown."""
        return Schedule(turns=self.schedule_turns(sol), vp=int(round(sol.objective_value)),
                        breakdown=self.breakdown(sol))


INT64 = (-2**63, 2**63 - 1)
"""The values a CP-SAT variable can take."""
VP_RANGE = (-2**31, 2**31 - 1)
"""The VP a floor or an incumbent may name (a C int; a year makes a few hundred)."""


def check_year(year: object) -> YearModel:
    """``year`` if it is a :class:`YearModel`; else :class:`LumicoreError` naming it."""
    return check_type(year, YearModel, "year", "a YearModel (solvers.lemuria.model)")


def check_values(model: cp_model.CpModel, values: object, name: str = "values") -> list[int]:
    """``values`` as a list of ints if it is a list or tuple of one integer per variable of
    ``model`` (a whole solution, by variable index); else :class:`LumicoreError` naming
    ``name`` (and the first bad entry).

    >>> model = cp_model.CpModel()
    >>> x = model.new_int_var(0, 5, "x")
    >>> check_values(model, (4,))
    [4]
    >>> check_values(model, [4, 5])
    Traceback (most recent call last):
    ...
    lumicore.errors.LumicoreError: values must hold 1 value (one per variable of the model), got 2
    """
    given: list | tuple = check_type(values, (list, tuple), name,
                                     "a list of integers, one per variable of the model")
    count = len(model.proto.variables)
    if len(given) != count:
        raise LumicoreError(f"{name} must hold {count} value{'' if count == 1 else 's'} (one "
                            f"per variable of the model), got {len(given)}")
    return [check_int(value, f"{name}[{k}]", *INT64) for k, value in enumerate(given)]


def hint_all(model: cp_model.CpModel, values: list[int]) -> None:
    """Hint every variable of ``model`` with ``values`` (by variable index; a whole solution),
    replacing the hints it had."""
    _hint_all(check_model(model), check_values(model, values))


def _hint_all(model: cp_model.CpModel, values: list[int]) -> None:
    model.clear_hints()
    for i, value in enumerate(values):
        model.add_hint(model.get_int_var_from_proto_index(i), value)


def fix_variable(model: cp_model.CpModel, x: cp_model.IntVar, value: int) -> None:
    """Fix ``x`` (a variable of the model ``model`` was cloned from) to ``value`` in
    ``model``.

    >>> model = cp_model.CpModel()
    >>> x = model.new_int_var(0, 5, "x")
    >>> fix_variable(model, x, 3)
    >>> list(model.proto.variables[0].domain)
    [3, 3]
    """
    check_model(model)
    check_type(x, cp_model.IntVar, "x", "a CP-SAT IntVar")
    if not 0 <= x.index < len(model.proto.variables):
        raise LumicoreError(f"x must be a variable of the model, got {shorten(x)} (variable "
                            f"{x.index} of {len(model.proto.variables)})")
    _fix(model, x, check_int(value, "value", *INT64))


def _fix(model: cp_model.CpModel, x: cp_model.IntVar, value: int) -> None:
    domain = model.proto.variables[x.index].domain
    domain.clear()  # a domain with holes has more than two bounds
    domain.extend((value, value))
