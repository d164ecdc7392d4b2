"""A fast, proven upper bound on the VP of a Lemuria year: a Lagrangian relaxation solved by two
dynamic programs (numpy around the Cython steps of :mod:`lumicore.lemuria.kernel`), its
multipliers found by column generation
(:mod:`solvers.lemuria.columns`) or subgradient steps. docs/lemuria.md ("The upper bound")
proves it valid; here is what it computes.

Every legal year satisfies, for each resource r and turn t, ``L[r, t] = start + income so far
+ bonuses so far - spending so far >= 0`` and, for each colour and turn, "residents housed so far
<= facilities built so far" (a facility houses one resident in its life). For multipliers
``mu >= 0`` (resources) and ``lam >= 0`` (housing), VP <= VP + sum mu*L + sum lam*(built -
housed); the right side is maximised over a *relaxed* year, which splits into

* the **building side** (:func:`_building_dp`): a dynamic program over the Trend rows the year
  can reach (simulated exactly, opponents included), the number of facilities (0..8) and which
  districts hold a chit. A build scores the card's VP and trend bonus, pays its cost after the
  reductions at the turn's resource prices ``P[t] = sum of mu[u] for u >= t``, and earns
  ``Lam[t, colour] = sum of lam[u] for u >= t``; district chits pay Church VP and Rural/Commerce
  resources at the prices (majorities relaxed to presence);
* the **character side** (:func:`_character_value`): the hand and the character deck as a stream;
  a housed character scores its VP (matching or not), 3 VP at every festival from then on, pays
  its food at the prices and ``Lam``; digging to the deepest housed deck card costs at least one
  unit of gold or food (at the price of its turn) for every card passed over before it
  (the proof counts free buys into an empty hand), and recycled cards lie past the whole deck;
  a second relaxation (:func:`_held_value`) prices each buy at the cards passed over and still
  held, and the character side is worth the smaller of the two.

Any ``mu, lam >= 0`` give a valid bound; the search for multipliers only makes it smaller.

>>> from lumicore.lemuria.instance import small_instance
>>> from solvers.lemuria.exhaustive import exhaustive_best
>>> inst = small_instance(seed=0, turns=3)
>>> upper_bound(inst, time_limit=0.5) >= exhaustive_best(inst).vp
True
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

import numpy as np

from lumicore.checks import check_int, check_real, is_integer
from lumicore.data import shorten
from lumicore.errors import LumicoreError
from lumicore.lemuria import CHITS, COLORS, DISTRICTS, RESOURCES, Instance
from lumicore.lemuria.instance import check_instance
from lumicore.lemuria.kernel import building_turn, held_step, waiting_release
from lumicore.lemuria.reference import draw_ways, open_ways
from lumicore.lemuria.rules import TREND_BONUS, age_row
from solvers.ctrl_c import check, noting
from solvers.lemuria.columns import EMPTY, Column, Master
from solvers.lemuria.model import max_draws
from solvers.lemuria.scratch import Scratch
from solvers.limits import check_limits

__all__ = ["upper_bound", "lagrangian_bound", "BoundResult", "DEFAULT_BOUND_TIME", "METHODS"]

DEFAULT_BOUND_TIME = 2.0
"""Seconds :func:`upper_bound` spends on the multipliers by default (column generation
usually meets the master's value in about half a second on a 12-turn year)."""
_NEG = -1e18
STALL = 6
"""Subgradient steps without a better bound after which the step size is halved."""
THETA = 1.0
"""The first step's size, as a share of the Polyak step."""
_R = {r: i for i, r in enumerate(RESOURCES)}
_GOLD, _FOOD = _R["gold"], _R["food"]
_CHURCH, _RURAL, _COMMERCE, _ADMIN = (DISTRICTS.index(d) for d in
                                      ("church", "rural", "commerce", "administrative"))
_BITS = np.arange(16)
_HAS = {d: ((_BITS >> d) & 1).astype(bool) for d in range(4)}


@dataclass
class BoundResult:
    """The least bound found (``value``), the bound of the first step, the number of steps
    (evaluations of both dynamic programs), the seconds spent, the multipliers that gave
    ``value``, whether Ctrl-C cut the steps short, the ``method`` ("columns" or "subgradient")
    and, for column generation, ``floor``: the master's value, below which no multipliers
    bring the relaxation by the cards held (``value - floor`` is what better multipliers
    could still gain; -inf when unknown)."""

    value: float
    first: float
    steps: int
    elapsed: float
    mu: np.ndarray = field(repr=False, default_factory=lambda: np.zeros(0))
    lam: np.ndarray = field(repr=False, default_factory=lambda: np.zeros(0))
    fest: np.ndarray = field(repr=False, default_factory=lambda: np.zeros(0))
    interrupted: bool = False
    method: str = "columns"
    floor: float = -math.inf
    columns: list = field(repr=False, default_factory=list)
    weights: list = field(repr=False, default_factory=list)


METHODS = ("columns", "subgradient")
"""How :func:`lagrangian_bound` searches the multipliers."""

CONVERGED = 0.01
"""Column generation stops when the bound is within this of the master's value."""

SMOOTHING = 0.5
"""Column generation prices the point this share of the way from the master's duals towards
the best multipliers found so far (Wentges smoothing): the duals of a master with few columns
swing far, and the smoothed points reach the master's value in about half the evaluations
(92-105 -> 47-53 on 12-turn default years 0-2). A smoothed point whose years the master already
mixes still lowers the bound by at least ``1 - SMOOTHING`` of the gap (docs/lemuria.md), so
the search cannot stall."""


@dataclass
class _Rows:
    """The Trend rows the year can reach: per turn, per state, the card in each slot after the
    opponents' takes (-1: empty) and the next state for "no build" and for a build from each
    slot (-1: impossible)."""

    card: list[np.ndarray]
    succ: list[np.ndarray]


MAX_ROWS = 20_000
"""Reachable Trend row states per turn past which :func:`lagrangian_bound` falls back to the
exhaustive planner's simple bound (only decks that run out, where returned cards come back in
many orders, get near it)."""


class _TooManyRows(Exception):
    pass


def _rows(instance: Instance, cards: dict[str, int]) -> _Rows:
    """Simulate every reachable row: the refill of the rules (``age_row``); cards sent to the
    deck bottom are kept only when the deck can run out (otherwise they are never drawn)."""
    keep_returns = max_draws(instance) > len(instance.deck)
    states = {(instance.trend, instance.deck): 0}
    out_card, out_succ = [], []
    for t in range(1, instance.turns + 1):
        if len(states) > MAX_ROWS:
            raise _TooManyRows
        takes = {o.builds[t] for o in instance.opponents if t in o.builds}
        nxt: dict = {}
        card = np.full((len(states), 5), -1, dtype=np.int64)
        succ = np.full((len(states), 6), -1, dtype=np.int64)
        for (row, deck), i in states.items():
            seen = tuple(None if c in takes else c for c in row)
            for option in range(6):
                if option and seen[option - 1] is None:
                    continue
                after = seen if not option else (
                    seen[:option - 1] + (None,) + seen[option:])
                if t == instance.turns:
                    key = None
                else:
                    new_row, new_deck = age_row(after, deck)
                    if not keep_returns:
                        new_deck = new_deck[:len(new_deck) - (after[-1] is not None)]
                    key = (new_row, new_deck)
                succ[i, option] = nxt.setdefault(key, len(nxt))
            card[i] = [cards[c] if c is not None else -1 for c in seen]
        out_card.append(card)
        out_succ.append(succ)
        states = nxt
    return _Rows(out_card, out_succ)


def given_by_turn(instance: Instance) -> np.ndarray:
    """The resources the instance gives by the end of each turn, ``A[r, t]`` (``RESOURCES``
    order, t 0-based): its start and its income so far."""
    income = np.array([[instance.income[t].get(r, 0) for t in range(1, instance.turns + 1)]
                       for r in RESOURCES], dtype=float)
    return np.array([instance.start[r] for r in RESOURCES], dtype=float)[:, None] + \
        np.cumsum(income, axis=1)


class _Year:
    """The fixed data of the relaxation, built once per instance."""

    def __init__(self, instance: Instance, fixed: dict[int, int] | None = None,
                 owned: dict[int, tuple[int, int]] | None = None,
                 housed: dict[int, bool] | None = None,
                 windows: dict[int, tuple[int, int]] | None = None,
                 residents: tuple[int, int] | None = None,
                 festivals: tuple[tuple[int, int, int], ...] = (),
                 chits: dict[tuple[int, int], bool] | None = None) -> None:
        self.inst = instance
        self.scratch = Scratch()  # shared by the copies with other choices
        self._choose(fixed or {}, owned or {}, housed or {}, windows or {}, residents,
                     festivals, chits)
        self.T = T = instance.turns
        ids = sorted(instance.buildings)
        self.index = {c: i for i, c in enumerate(ids)}
        b = [instance.buildings[c] for c in ids]
        self.vp = np.array([x.vp for x in b], dtype=float)
        self.color = np.array([COLORS.index(x.color) for x in b])
        units = [[_R[r] for r, n in sorted(x.cost.items()) for _ in range(n)] for x in b]
        width = max([len(u) for u in units] + [1])
        self.units = np.array([u + [-1] * (width - len(u)) for u in units])  # (C, width)
        self.remodel_from = instance.remodel_from
        self.remodel = T >= self.remodel_from
        if self.need_fallback():
            return
        self.rows = _rows(instance, self.index)
        self.A = given_by_turn(instance)
        self.is_festival = np.array([t in instance.festivals for t in range(1, T + 1)])
        self._characters()

    def _characters(self) -> None:
        inst = self.inst
        items = list(inst.hand) + list(inst.character_deck)
        self.H, self.K = len(inst.hand), len(inst.character_deck)
        chars = [inst.characters[c] for c in items]
        n = len(chars)
        # resident VP of item i in a facility of colour col: (n, 4)
        self.res_vp = np.array([[c.vp_match if COLORS[k] == c.color else c.vp
                                 for k in range(4)] for c in chars], dtype=float).reshape(n, 4)
        self.food = np.array([c.food for c in chars], dtype=float)
        self.food_min = float(self.food.min()) if n else 0.0
        self.n_items = n
        # facility instances a year can have: one build a turn, at most 8 new facilities
        self.remodels = max(0, self.T - self.remodel_from + 1)
        self.j_max = min(self.T, CHITS + self.remodels)
        # a recycled card housed again is one passed over (an item of its own) or a resident
        # a remodel discarded (worth at most the best item)
        self.comebacks = min(self.j_max, self.remodels)

    def with_choices(self, fixed: dict[int, int], owned: dict[int, tuple[int, int]],
                     housed: dict[int, bool],
                     windows: dict[int, tuple[int, int]] | None = None,
                     residents: tuple[int, int] | None = None,
                     festivals: tuple[tuple[int, int, int], ...] = (),
                     chits: dict[tuple[int, int], bool] | None = None) -> _Year:
        """The same year with other branching choices (the rows and the stream are shared)."""
        year = copy.copy(self)
        year._choose(fixed, owned, housed, windows or {}, residents, festivals, chits)
        return year

    def _choose(self, fixed: dict[int, int], owned: dict[int, tuple[int, int]],
                housed: dict[int, bool], windows: dict[int, tuple[int, int]],
                residents: tuple[int, int] | None = None,
                festivals: tuple[tuple[int, int, int], ...] = (),
                chits: dict[tuple[int, int], bool] | None = None) -> None:
        # branching (solvers.lemuria.branch): the build option of turn t; facilities owned
        # after turn t in [lo, hi]; character item i housed (True) or not (False), and first
        # housed in turns lo..hi (``windows``)
        self.fixed, self.owned, self.housed = dict(fixed), dict(owned), dict(housed)
        self.chits = dict(chits or {})
        """{(t, d): has}: only years in which district d holds a chit after turn t (has) or
        holds none (not has)."""
        self.barred_chits = _barred_patterns(self.chits)
        self.windows = dict(windows)
        self.residents = residents
        """(lo, hi): only years that house lo..hi residents in all (second housings count),
        or None."""
        self.festivals = tuple(sorted(festivals))
        """((F, lo, hi), ...), by turn: only years that house lo..hi residents by the end of
        turn F, for each."""
        self.last_housed = max((i for i, must in self.housed.items() if must), default=-1)

    def barred(self) -> tuple[str, ...]:
        """The sides whose empty year (no build, nobody housed) breaks a fixed choice."""
        sides = []
        if (any(self.fixed.values()) or any(lo > 0 for lo, _hi in self.owned.values())
                or any(self.chits.values())):
            sides.append("building")
        if (any(self.housed.values()) or (self.residents is not None and self.residents[0] > 0)
                or any(lo > 0 for _F, lo, _hi in self.festivals)):
            sides.append("characters")
        return tuple(sides)

    def need_fallback(self) -> bool:
        """A remodelled card can come back from the deck bottom (the rows do not track it)."""
        return self.remodel and max_draws(self.inst) > len(self.inst.deck)


def _prices(mu: np.ndarray) -> np.ndarray:
    """P[r, t] = sum of mu[r, u] for u >= t."""
    return np.cumsum(mu[:, ::-1], axis=1)[:, ::-1]


def _priced_costs(year: _Year, P: np.ndarray) -> np.ndarray:
    """cost[t, c, k]: card c's cost at turn t's prices with its k (0..3) dearest units
    reduced."""
    T = year.T
    units = year.units
    unit_price = np.where(units[None] >= 0, P.T[:, np.maximum(units, 0)], 0.0)  # (T, C, w)
    unit_price = -np.sort(-unit_price, axis=2)
    total = unit_price.sum(axis=2)
    out = np.empty((T, units.shape[0], 4))
    out[:, :, 0] = total
    cum = np.cumsum(unit_price, axis=2)
    for k in range(1, 4):
        j = min(k, units.shape[1]) - 1
        out[:, :, k] = total - cum[:, :, j]
    return out


def _bonus(P: np.ndarray, t: int) -> np.ndarray:
    """Turn-start bonus value of each chit pattern (16,) at turn t (1-based)."""
    if t == 1:
        return np.zeros(16)
    return (3.0 * _HAS[_CHURCH] + P[_FOOD, t - 1] * _HAS[_RURAL]
            + P[_GOLD, t - 1] * _HAS[_COMMERCE])


_NFAC = np.arange(CHITS + 1, dtype=float)


def _after_turn(V: list[np.ndarray], t: int, fest: np.ndarray) -> np.ndarray:
    """V[t + 1] plus the festival share ``fest[t - 1]`` per facility owned after turn t."""
    nxt = V[t + 1]
    if fest[t - 1]:
        nxt = nxt + fest[t - 1] * _NFAC[None, :, None]
    return nxt


def _building_dp(year: _Year, P: np.ndarray, Lam: np.ndarray, cost: np.ndarray,
                 fest: np.ndarray) -> list[np.ndarray]:
    """Values V[t] (R_t, 9, 16) of the building side from the start of turn t (1-based),
    by row state, facilities and chit pattern; V[T + 1] is zero. ``fest[t - 1]``: VP per
    facility owned at the end of festival turn t. Each turn is a step of the Cython kernel
    (:func:`lumicore.lemuria.kernel.building_turn`, stated plainly in
    :func:`lumicore.lemuria.reference.building_turn`)."""
    T = year.T
    V: list[np.ndarray] = [np.zeros(0)] * (T + 2)
    V[T + 1] = np.zeros((1, CHITS + 1, 16))
    for t in range(T, 0, -1):
        if t in year.owned:  # only years owning lo..hi facilities after turn t
            lo, hi = year.owned[t]
            V[t + 1] = np.where(((_NFAC < lo) | (_NFAC > hi))[None, :, None], _NEG, V[t + 1])
        if t in year.barred_chits:  # only years whose chits after turn t are as chosen
            V[t + 1] = np.where(year.barred_chits[t][None, None, :], _NEG, V[t + 1])
        remodel = year.remodel and t >= year.remodel_from
        only = year.fixed.get(t)
        V[t] = building_turn(_after_turn(V, t, fest), year.rows.succ[t - 1],
                             _turn_gains(year, t, year.rows.card[t - 1], cost, Lam, remodel),
                             -1 if only is None else only, remodel, _bonus(P, t), _ADMIN)
    return V


def _barred_patterns(chits: dict[tuple[int, int], bool]) -> dict[int, np.ndarray]:
    """For each turn ``_Year.chits`` names, the chit patterns (16,) a year may not have
    after it."""
    barred: dict[int, np.ndarray] = {}
    for (t, d), has in chits.items():
        barred[t] = barred.get(t, np.zeros(16, dtype=bool)) | (_HAS[d] != has)
    return barred


_LOWER = np.array([1 if s >= 3 else 0 for s in range(5)])
"""Reductions a card of each slot gets (the last two slots are cheaper by one unit)."""
_BY_ADMIN = np.array([1 if s < 3 else 0 for s in range(5)])
"""Reductions an Administrative chit adds to a card of each slot (the first three)."""
_TREND_BONUS = np.array(TREND_BONUS[:5], dtype=float)


def _turn_gains(year: _Year, t: int, card: np.ndarray, cost: np.ndarray, Lam: np.ndarray,
                remodel: bool) -> np.ndarray:
    """gains[k, i, s] of building row state i's slot-s card at turn t, for the kernel: k = 0
    without, 1 with an Administrative chit; 2 and 3 the same for a remodel (two more
    reductions; zeros where remodels are not allowed)."""
    c = np.maximum(card, 0)
    base = year.vp[c] + _TREND_BONUS[None, :] + Lam[t - 1, year.color[c]]
    out = np.zeros((4, card.shape[0], 5))
    for k, extra in enumerate((0, 2) if remodel else (0,)):
        out[2 * k] = base - cost[t - 1, c, np.minimum(3, _LOWER + extra)]
        out[2 * k + 1] = base - cost[t - 1, c, np.minimum(3, _LOWER + extra + _BY_ADMIN)]
    return out


@dataclass
class _Plan:
    """What the relaxed year does: resources spent and gained per turn (4, T), facilities
    built and residents housed per turn and colour (T, 4), facilities owned after each turn and
    the building side's option in each turn (0: no build, 1..5: the slot; see ``fixed``)."""

    spend: np.ndarray
    gain: np.ndarray
    built: np.ndarray
    housed: np.ndarray
    owned: np.ndarray
    option: np.ndarray
    chits: np.ndarray
    """The building side's chit pattern after each turn (bit d: district d holds one)."""
    items: set[int] = field(default_factory=set)
    """The character items (stream indices) housed at their first draw."""
    turns: dict[int, int] = field(default_factory=dict)
    """The turn (1-based) each of ``items`` is housed in."""


def _follow(year: _Year, V: list[np.ndarray], P: np.ndarray, Lam: np.ndarray,
            cost: np.ndarray, fest: np.ndarray, plan: _Plan) -> None:
    """Walk the building side's best path forward, recording it into ``plan``."""
    state, n, bits = 0, 0, 0
    for t in range(1, year.T + 1):
        if t > 1:
            plan.gain[_FOOD, t - 1] += bits >> _RURAL & 1
            plan.gain[_GOLD, t - 1] += bits >> _COMMERCE & 1
        nxt = _after_turn(V, t, fest)
        card, succ = year.rows.card[t - 1][state], year.rows.succ[t - 1][state]
        only = year.fixed.get(t)
        remodel = year.remodel and t >= year.remodel_from
        gains = _turn_gains(year, t, card[None, :], cost, Lam, remodel)[:, 0]
        admin = bits >> _ADMIN & 1
        choice, value = (0, 0, bits, n), nxt[succ[0], n, bits] if not only else _NEG
        for s in range(5):
            if succ[s + 1] < 0 or only not in (None, s + 1):
                continue
            options = []
            if n < CHITS:
                g = gains[admin, s]
                for d in range(4):
                    nb = bits | (1 << d)
                    options.append((g + nxt[succ[s + 1], n + 1, nb], (s + 1, 0, nb, n + 1)))
            if remodel and n >= 1:
                g = gains[2 + admin, s]
                options.append((g + nxt[succ[s + 1], n, bits], (s + 1, 2, bits, n)))
            for v, ch in options:
                if v > value + 1e-9:
                    value, choice = v, ch
        option, extra, new_bits, new_n = choice
        if option:
            s = option - 1
            c = card[s]
            k = min(3, _LOWER[s] + _BY_ADMIN[s] * admin + extra)
            units = sorted((u for u in year.units[c] if u >= 0), key=lambda u: -P[u, t - 1])
            for u in units[k:]:
                plan.spend[u, t - 1] += 1
            plan.built[t - 1, year.color[c]] += 1
        state, n, bits = succ[option], new_n, new_bits
        plan.owned[t - 1] = n
        plan.option[t - 1] = option
        plan.chits[t - 1] = bits


def _resident_values(year: _Year, P: np.ndarray, Lam: np.ndarray, fest: np.ndarray
                     ) -> np.ndarray:
    """The value (n, T, 4) of housing item i in turn p in a facility of colour col: its VP,
    ``3 - fest[F]`` at each festival F >= p, less its food and ``Lam`` at the turn's prices."""
    share = np.where(year.is_festival, 3.0 - fest, 0.0)
    from_p = np.cumsum(share[::-1])[::-1]  # (T,)
    return (year.res_vp[:, None, :] + from_p[None, :, None]
            - P[_FOOD][None, :, None] * year.food[:, None, None] - Lam[None, :, :])


def _character_value(year: _Year, P: np.ndarray, Lam: np.ndarray, fest: np.ndarray,
                     plan: _Plan | None) -> float:
    """The character side's best value (and, with ``plan``, its housings and spending): the
    smaller of two relaxations of it, each an upper bound on its own, by the deepest item
    housed (:func:`_deepest_value`) and by the cards held (:func:`_held_value`). A resident
    housed in turn p earns ``3 - fest[F]`` at each festival F >= p."""
    if year.n_items == 0:
        return 0.0
    val = _resident_values(year, P, Lam, fest)
    deepest, case = _deepest_value(year, P, val)
    with year.scratch.lease():
        held, walk = _held_value(year, P, val)
        if plan is not None and held < deepest:
            _record_held(year, P, val, walk, plan)
    if plan is not None and held >= deepest:
        _record_characters(year, P, val, case, plan)
    return min(deepest, held)


def _unit(year: _Year, P: np.ndarray) -> np.ndarray:
    """The least a card passed over costs in turn t: a unit of gold or an unhoused play."""
    return np.minimum(P[_GOLD], year.food_min * P[_FOOD])


def _deepest_value(year: _Year, P: np.ndarray, val: np.ndarray) -> tuple[float, tuple]:
    """The relaxation by the deepest item housed (docs/lemuria.md): the value and the case
    (``("hand", None)`` or (deepest item k, its turn p), k == K: recycled)."""
    T, H, K, n = year.T, year.H, year.K, year.n_items
    at_turn = val.max(axis=2)  # (n, T)
    opt = at_turn.max(axis=1)  # (n,)
    wild = float(opt.max())
    unit = _unit(year, P)
    jm = year.j_max
    best = float(np.sort(np.maximum(opt[:H], 0.0))[::-1][:jm].sum()) if H else 0.0
    best_case: tuple = ("hand", None)
    for k in range(K):
        gains = opt[None, :H + k] + unit[:, None]
        values = at_turn[H + k] - unit * (H + k) + _top_sums(gains, jm - 1)
        p = int(np.argmax(values))
        if values[p] > best:
            best, best_case = float(values[p]), (k, p)
    # the deepest housed card is a recycled one: the whole deck was drawn (an empty deck too:
    # a resident a remodel discards is its only card, and a free buy draws it straight back)
    gains = np.concatenate([opt[None, :] + unit[:, None],
                            np.full((T, year.comebacks), wild)], axis=1)
    values = _top_sums(gains, jm) - unit * n
    p = int(np.argmax(values))
    if values[p] > best:
        best, best_case = float(values[p]), (K, p)
    return best, best_case


def _top_sums(gains: np.ndarray, most: int) -> np.ndarray:
    """For each turn p (a row of ``gains``, (T, m)): the sum of its ``most`` largest positive
    entries."""
    top = -np.sort(-gains, axis=1)[:, :most]
    return np.where(top > 0, top, 0.0).sum(axis=1)


HELD = 8
"""Cards passed over and kept in hand that :func:`_held_value` counts (more count as this
many: a buy's price is only underestimated)."""


WAITING = 3
"""Hand cards :func:`_held_value` follows until they are housed (held, a buy pays for them):
the first this many that a branch does not keep out of the residents. Its states grow by a
factor 2**WAITING (the subsets still waiting); the hand's other cards are housed at once."""


TURN_HELD = 1
"""Deck cards housed in a later turn than the one they are drawn in that :func:`_held_value`
counts as held till that turn ends (a buy later in the turn pays for them; more count as this
many). Its states grow by a factor TURN_HELD + 1."""


class _Counts:
    """The states of :func:`_held_value` besides turn, residents and cards held: the residents
    a branch counts by the end of its festival turns F_1 < ... < F_m (``year.festivals``: the
    counts c_1 <= ... <= c_m, each at most its branch's ``hi``, ``j_max`` and F_i; one count,
    (), where it counts none), times the subsets of the hand cards still waiting to be housed
    (``waiting``, bit b for ``waiting[b]``): state ``c * 2**len(waiting) + subset``. Also the
    parts of the year (part k: the turns from F_k to F_{k+1}, 0-based ``F_k <= p < F_{k+1}``,
    with F_0 = 0 and the last part running to the end), and the state a housing in part k leads
    to (one more in each count from the (k+1)-th on, the same subset; -1 where that passes a
    ``hi``). A housing in the last part counts by no festival: the state stays. All this
    times the deck cards held till the turn ends (0..``turn_held``, outermost: state
    ``t * base + q``), which a housing in a later turn than the draw raises by one
    (``bump``) and a draw in a later turn clears (``reset``)."""

    def __init__(self, year: _Year, waiting: Sequence[int] = (),
                 turn_held: int | None = None) -> None:
        festivals = year.festivals
        counted: list[tuple[int, ...]] = [()]
        for F, _lo, hi in festivals:  # at most F: a housing a turn (the proof's note)
            counted = [s + (c,) for s in counted
                       for c in range(s[-1] if s else 0, min(hi, F, year.j_max) + 1)]
        index = {s: q for q, s in enumerate(counted)}
        self.waiting = list(waiting)
        S = self.subsets = 1 << len(self.waiting)
        # (counts, waiting) per state; _held_till_turn_ends adds (held, owes the deck)
        self.states: list[tuple[Any, ...]] = [(c, w) for c in counted for w in range(S)]
        m = len(festivals)
        succ = np.array([[index.get(tuple(c + (i >= k) for i, c in enumerate(s)), -1)
                          for s in counted] for k in range(m)],
                        dtype=np.int64).reshape(m, len(counted))
        spread = np.where(succ >= 0, succ * S, -1)
        self.succ = (spread[:, :, None] + np.where(spread >= 0, 1, 0)[:, :, None]
                     * np.arange(S)).reshape(m, len(self.states))
        self.least = np.repeat([s[-1] if s else 0 for s in counted], S).astype(np.int64)
        """The fewest residents in all a path in each state has housed."""
        self.pending = np.tile([w.bit_count() for w in range(S)], len(counted)).astype(np.int64)
        """The hand cards each state holds while they wait."""
        must = [b for b, i in enumerate(self.waiting) if year.housed.get(i)]
        self.allowed = np.repeat([all(lo <= c <= hi for c, (_F, lo, hi) in
                                      zip(s, festivals, strict=True)) for s in counted], S)
        self.allowed &= np.tile([not any(w >> b & 1 for b in must) for w in range(S)],
                                len(counted))
        """States where the year may end: the counts in their branch's ranges, and no hand
        card that must be housed still waiting."""
        self.parts = _parts(year)
        self._held_till_turn_ends(TURN_HELD if turn_held is None else turn_held)

    def _held_till_turn_ends(self, turn_held: int) -> None:
        """Every state above times the deck cards held till the turn ends (t: 0..turn_held),
        state ``t * base + q``, and once more for a path that owes the deck (a card the year
        passes over and houses when it comes back, housed at its first draw: the deck must be
        drawn through), state ``(turn_held + 1) * base + q``, which counts no card held till
        the turn ends (a path that owes the deck is rare; counting fewer only lowers costs)."""
        base = self.base = len(self.states)
        levels = turn_held + 1
        self.states = ([(*state, t, False) for t in range(levels) for state in self.states]
                       + [(*state, 0, True) for state in self.states])
        blocks = levels + 1
        self.succ = np.concatenate([np.where(self.succ >= 0, self.succ + b * base, -1)
                                    for b in range(blocks)], axis=1)
        self.least = np.tile(self.least, blocks)
        self.allowed = np.tile(self.allowed, blocks)
        q = np.arange(len(self.states), dtype=np.int64)
        block, q0 = q // base, q % base
        self.owes_deck = block == levels
        """States that may stop drawing only once the deck is drawn through."""
        t = np.where(self.owes_deck, 0, block)
        self.pending = np.tile(self.pending, blocks) + t
        self.bump = np.where(self.owes_deck, q, np.minimum(t + 1, turn_held) * base + q0)
        """The state a housing in a later turn than the draw leads on to: one more held."""
        self.reset = np.where(self.owes_deck, q, q0)
        """The state a draw in a later turn starts from: none held till the turn ends."""
        self.through = levels * base + q0
        """The state a card housed when it comes back leads on to: the deck owed."""

    def moves(self, q: int) -> list[tuple[int, int]]:
        """(part, the state a housing in it leads to) for each part open from state q, the
        last part (the state stays) first."""
        return [(len(self.succ), q)] + [(k, int(succ[q])) for k, succ in enumerate(self.succ)
                                        if succ[q] >= 0]

    def housings(self, q: int, kinds: Sequence[tuple[np.ndarray, str, np.ndarray | None]]
                 ) -> list[tuple[np.ndarray, int, int, str]]:
        """(value by draw turn, part, the state it leads to, when) for each housing open from
        state q, of each kind (values (parts, T), when: "now" in the turn of the draw, "later"
        in a later turn, "any" at its best turn from the draw on; the state map it leads on
        through, None: none), kind after kind."""
        return [(values[k], k, r if onto is None else int(onto[r]), when)
                for values, when, onto in kinds for k, r in self.moves(q)]

    def deck_kinds(self, values: np.ndarray, now: np.ndarray, later: np.ndarray) -> list:
        """The kinds of housing a deck item has (:meth:`housings`): in the turn of its draw, in
        a later turn (one more card held till the turn ends), or at its best turn from the
        draw on when it comes back after the deck is drawn through."""
        return [(now, "now", None), (later, "later", self.bump), (values, "any", self.through)]


def _parts(year: _Year) -> list[np.ndarray]:
    """The parts of the year a branch's festival counts make, as masks of the turns (see
    :class:`_Counts`)."""
    edges = [0] + [F for F, _lo, _hi in year.festivals] + [year.T]
    turns = np.arange(year.T)
    return [(turns >= lo) & (turns < hi) for lo, hi in pairwise(edges)]


def _held_items(year: _Year, at_turn: np.ndarray, windowed: np.ndarray, counts: _Counts
                ) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """The stream of :func:`_held_value`: (item, its value (parts, T) of housing it when
    drawn in turn d, in each part of the year ``counts`` makes, and its value of housing it
    in turn d itself) for the hand, the deck and the second housings (item -1: the best of
    any); ``at_turn``: each item's best value by turn, ``windowed``: the same without the
    turns outside its window."""
    parts = np.array(counts.parts)[:, None, :]
    now = np.where(parts, windowed, _NEG).transpose(1, 0, 2)  # (n, parts, T)
    back = np.where(parts[:, 0], at_turn.max(axis=0), _NEG)
    return ([(i, _best_from(now[i]), now[i]) for i in range(year.n_items)]
            + [(-1, _best_from(back), back)] * year.comebacks)


def _best_from(at_turn: np.ndarray) -> np.ndarray:
    """[i, d]: the most of ``at_turn[i, p]`` for p >= d."""
    return np.maximum.accumulate(at_turn[:, ::-1], axis=1)[:, ::-1]


def _windowed(year: _Year, at_turn: np.ndarray) -> np.ndarray:
    """``at_turn`` (n, T) without the turns outside an item's housing window. A second housing
    (a comeback) keeps every turn: the window is the item's first housing's."""
    if not year.windows:
        return at_turn
    out = at_turn.copy()
    turns = np.arange(1, year.T + 1)
    for i, (lo, hi) in year.windows.items():
        out[i, (turns < lo) | (turns > hi)] = _NEG
    return out


def _held_value(year: _Year, P: np.ndarray, val: np.ndarray) -> tuple[float, tuple]:
    """The relaxation by the cards held (docs/lemuria.md): items in stream order, each deck
    item drawn in a turn no earlier than the one before it, by a buy that costs the number of
    cards passed over and still held (at least), or by an exchange (2 gold); a housed item
    is housed in the turn of its draw, or later and then held till that turn ends (a buy
    later in the turn pays for it); a held card can be played unhoused before any draw.
    The hand's cards housed (the first ``WAITING``) wait in the hand, and a buy pays for them,
    until they are housed before a draw (at their best turn up to it) or at the end. A card
    housed when it comes back after the deck is drawn through is housed at once at its best
    turn from its draw on, and the path owes the deck (it may not stop drawing before the
    deck's end; an exchange may give back a card it does not count).
    A dynamic program over (the residents housed by the end of each festival a branch counts,
    the hand cards waiting, the deck cards held till the turn ends and whether the deck is
    owed: a state of :class:`_Counts`, draw turn, residents housed, cards held), item by item
    from the last, each deck item a step of the kernel
    (:func:`lumicore.lemuria.kernel.held_step`) over the states of the counts. Returns the
    value and what :func:`_record_held` walks."""
    T, H, jm = year.T, year.H, year.j_max
    at_turn = val.max(axis=2)
    windowed = _windowed(year, at_turn)
    counts, upto = _waiting(year, windowed)
    items = _held_items(year, at_turn, windowed, counts)
    end = _stop(year, counts)
    stop = end  # drawing no more: the waiting cards housed at their best turns
    if counts.waiting:
        stop = waiting_release(end, upto[:, :, -1:], counts.succ)[0]
    in_deck = stop.copy()  # drawing no more before the deck's end: not if the deck is owed
    in_deck[counts.owes_deck] = _NEG
    V = np.broadcast_to(stop, (stop.shape[0], T, jm + 1, HELD + 1)).copy()  # V[q, d, j, h]
    tables: list[tuple] = []
    gold, food_price = np.ascontiguousarray(P[_GOLD]), np.ascontiguousarray(P[_FOOD])
    discard = year.food_min * food_price
    for i in range(len(items) - 1, -1, -1):
        item, values, now = items[i]
        must = year.housed.get(i)
        if i < H:  # in hand from the start
            tables.append((V, None, None))  # hand items: the value after them
            before = _hand_item(year, counts, V[:, 0], values, i)
            V = np.broadcast_to(before[:, None], V.shape).copy()
            continue
        food = float(year.food[item] if item >= 0 else year.food_min)
        later = _later(values)
        (first, _when, _onto), *more = counts.deck_kinds(values, now, later)
        drawn, best_from = held_step(V, first, counts.succ, counts.least, gold, food_price,
                                     food, discard, jm, _must(must), counts.pending,
                                     np.stack([kind for kind, _when, _onto in more]),
                                     np.stack([onto for _kind, _when, onto in more]),
                                     counts.reset, counts.owes_deck, out=_pair(year, V.shape))
        closed = drawn
        if counts.waiting:  # the waiting cards housed before the draw
            closed, best_from = waiting_release(drawn, upto, counts.succ, counts.reset,
                                                out=_pair(year, V.shape))
        tables.append((drawn, closed, (V, food, later)))
        V = best_from  # drawn in turn d or later
        if i > year.last_housed:  # or draw no more (not before an item that must be housed)
            np.maximum(V, stop if i >= year.n_items else in_deck, out=V)
    tables.reverse()
    return float(V[0, 0, 0, 0]), (items, tables, counts, (stop, end, in_deck), upto)


def _pair(year: _Year, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Two arrays of the year's scratch for a kernel step to write (kept while its lease
    lasts: the walk reads them)."""
    return year.scratch.take(shape), year.scratch.take(shape)


def _later(values: np.ndarray) -> np.ndarray:
    """``values`` (parts, T) of housing an item at its best turn from d on, as from d + 1 on
    (NEG from the last turn: housed in a later turn than the draw)."""
    later = np.full_like(values, _NEG)
    later[:, :-1] = values[:, 1:]
    return later


def _hand_item(year: _Year, counts: _Counts, after: np.ndarray, values: np.ndarray, i: int
               ) -> np.ndarray:
    """The values (states, J, H) before hand item i, from those after it: kept (one more
    held), waiting to be housed (one of ``counts.waiting``) or housed at once at its best
    turn (the others), or housed when it comes back after the deck is drawn through (at once,
    the deck owed), as the branch allows."""
    must = year.housed.get(i)
    ways = []
    if must is not True:
        ways.append(after[:, :, np.minimum(np.arange(HELD + 1) + 1, HELD)])
    if must is not False and i in counts.waiting:
        bit = 1 << counts.waiting.index(i)
        ways.append(after[np.arange(after.shape[0]) | bit])
    elif must is not False:
        ways.append(_housed_at_once(counts, after, values))
    if must is not False:  # housed when it comes back: at once, the deck owed
        ways.append(_housed_at_once(counts, after[counts.through], values))
    return np.maximum.reduce(ways)


def _housed_at_once(counts: _Counts, after: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The values (states, J, H) of housing a hand item at its best turn in a part of the year
    (``values[k, 0]``), from the values ``after`` it."""
    housed = np.full_like(after, _NEG)
    housed[:, :-1] = values[-1, 0] + after[:, 1:]
    for k, succ in enumerate(counts.succ):
        open_ = succ >= 0
        housed[open_, :-1] = np.maximum(housed[open_, :-1],
                                        values[k, 0] + after[succ[open_], 1:])
    return housed


def _waiting(year: _Year, windowed: np.ndarray) -> tuple[_Counts, np.ndarray]:
    """The states of :func:`_held_value` and the housing values of its waiting cards
    (``upto[b, k, d]``: the b-th waiting card housed in part k of the year at its best turn up
    to d), from ``windowed`` (each item's best value by turn, inside its window). The cards
    that wait: the first ``WAITING`` hand cards a branch allows to be housed,
    but those at their best in the first turn (waiting would not lower their value: housed at
    once, the relaxation is only looser)."""
    allowed = [i for i in range(year.H) if year.housed.get(i) is not False][:WAITING]
    parts = _parts(year)
    upto = np.array([[np.maximum.accumulate(np.where(mask, windowed[i], _NEG)) for mask in parts]
                     for i in allowed]).reshape(len(allowed), len(parts), year.T)
    later = upto[:, :, 0].max(axis=1) < upto[:, :, -1].max(axis=1) - 1e-9
    return _Counts(year, [i for i, w in zip(allowed, later, strict=True) if w]), upto[later]


def _stop(year: _Year, counts: _Counts) -> np.ndarray:
    """The value (states, 1, j_max + 1, 1) of ending in each state of ``counts`` with j
    residents housed in all: 0, or NEG where a branch allows no year to end there."""
    J = year.j_max + 1
    stop = np.zeros((len(counts.states), 1, J, 1))
    j = np.arange(J)
    if year.residents is not None:
        lo, hi = year.residents
        stop[:, 0, (j < lo) | (j > hi), 0] = _NEG
    stop[~counts.allowed] = _NEG
    return stop


def _must(must: bool | None) -> int:
    """A branch's choice for an item as the kernel takes it: -1 none, 1 housed, 0 not."""
    return -1 if must is None else int(must)


def _record_held(year: _Year, P: np.ndarray, val: np.ndarray, walk: tuple,
                 plan: _Plan) -> None:
    """Walk :func:`_held_value`'s program forward (``walk``: its stream; per item the value
    after a hand item, or a deck item's draw table before and after the waiting cards are
    housed, with the values after it and its food; the counts; the values of ending, after
    and before the waiting cards are housed; their housing values), recording its housings
    and spending; the way an item is drawn is the best of
    :func:`lumicore.lemuria.reference.draw_ways` at the state the walk reaches."""
    H, jm, T = year.H, year.j_max, year.T
    items, tables, counts, (stop, end, in_deck), upto = walk
    discard = year.food_min * P[_FOOD]
    q = d = j = h = 0
    at_turn = _windowed(year, val.max(axis=2))
    turns = np.arange(T)

    def house(item: int, allowed: np.ndarray) -> None:
        """House ``item`` at its best turn among ``allowed``."""
        if item < 0:  # a second housing: the best of any item
            item = int(np.argmax(np.where(allowed, val.max(axis=2), _NEG).max(axis=1)))
            p = int(np.argmax(np.where(allowed, val[item].max(axis=1), _NEG)))
        else:
            p = int(np.argmax(np.where(allowed, at_turn[item], _NEG)))
            plan.items.add(item)
            plan.turns[item] = p + 1
        plan.housed[p, int(np.argmax(val[item, p]))] += 1
        plan.spend[_FOOD, p] += year.food[item]

    def part(kinds: list, nxt: np.ndarray, d: int, hh: int) -> tuple[float, int, int, str]:
        """The best housing from (q, d, j) with hh cards held, of the ``kinds`` of
        :meth:`_Counts.housings`: its value, part, the state it leads to and when (the first
        on a tie)."""
        return max(((value[d] + nxt[r, d, j + 1, hh], k, r, when)
                    for value, k, r, when in counts.housings(q, kinds)),
                   key=lambda way: way[0])

    def housing(item: int, d: int, way: tuple[float, int, int, str]) -> None:
        nonlocal j, q
        _value, kind, q, when = way
        house(item, {"now": turns == d, "later": turns > d, "any": turns >= d}[when]
              & counts.parts[kind])
        j += 1

    def settle(after: np.ndarray, before: np.ndarray, dd: int, hh: int, by: int) -> None:
        """House waiting hand cards (at their best turns up to ``by``) while the values
        ``after`` it beat those ``before`` at (q, dd, j, hh)."""
        nonlocal j, q
        while j < jm and after[q, dd, j, hh] > before[q, dd, j, hh] + 1e-9:
            w = q % counts.subsets
            ways = [(upto[b, k, by] + after[r & ~(1 << b), dd, j + 1, hh], b, k, r & ~(1 << b))
                    for b in range(len(counts.waiting)) if w >> b & 1
                    for k, r in counts.moves(q)]
            _value, b, k, q = max(ways, key=lambda way: way[0])
            house(counts.waiting[b], (turns <= by) & counts.parts[k])
            j += 1

    for i, ((item, values, now), (table, closed, then)) in enumerate(zip(items, tables,
                                                                           strict=True)):
        must = year.housed.get(i)
        if i < H:  # house it, let it wait or keep it
            keep = table[q, 0, j, min(h + 1, HELD)] if must is not True else _NEG
            waits = must is not False and i in counts.waiting
            way: tuple[float] | tuple[float, int, int, str] = (_NEG,)
            if must is not False and j < jm:  # at once, or when it comes back (the deck owed)
                kinds = [] if waits else [(values, "any", None)]
                way = part([*kinds, (values, "any", counts.through)], table, 0, h)
            if waits:
                waiting = q | 1 << counts.waiting.index(i)
                if table[waiting, 0, j, h] >= max(keep, way[0]):
                    q = waiting
                    continue
            if len(way) > 1 and way[0] >= keep:  # (_NEG,): no housing (a node no year makes)
                housing(item, 0, way)
                continue
            h = min(h + 1, HELD)
            continue
        r = int(counts.reset[q])  # in a later turn: no card held till turn d ends
        onwards = np.concatenate([closed[q, d:d + 1, j, h], closed[r, d + 1:, j, h]])
        ending = stop if i >= year.n_items else in_deck
        if i > year.last_housed and onwards.max() <= ending[q, 0, j, 0]:
            break  # nothing more is drawn
        if (step := int(np.argmax(onwards))) > 0:
            q, d = r, d + step
        settle(closed, table, d, h, d)
        while h and table[q, d, j, h] <= table[q, d, j, h - 1] - discard[d] + 1e-9:
            plan.spend[_FOOD, d] += year.food_min  # a held card played unhoused
            h -= 1
        nxt, food, later = then
        pending = int(counts.pending[q])
        kinds = counts.deck_kinds(values, now, later)
        (first, _k, _r, _w), *others = counts.housings(q, kinds)
        ways = open_ways(draw_ways(nxt[q], first, P[_GOLD], P[_FOOD], food, jm, d, j, h,
                                   pending=pending,
                                   housings=[(v, nxt[r]) for v, _k, r, _w in others],
                                   free_swap=bool(counts.owes_deck[q])),
                         _must(must))
        chosen = max(ways, key=ways.__getitem__)
        plan.spend[_GOLD, d] += h + pending if chosen.startswith("buy") else 2
        if chosen == "exchange house":
            h -= 1
        if chosen.endswith("house"):
            housing(item, d, part(kinds, nxt, d, h))
        if chosen in ("buy keep", "exchange keep"):
            h = min(h + 1, HELD)
        elif chosen == "buy unhoused":
            plan.spend[_FOOD, d] += year.food[item] if item >= 0 else year.food_min
    settle(stop, end, 0, 0, T - 1)


def _record_characters(year: _Year, P: np.ndarray, val: np.ndarray, case: tuple,
                       plan: _Plan) -> None:
    """Record :func:`_deepest_value`'s choice (approximately: the subgradient only needs a
    direction) into ``plan``."""
    H, K, jm = year.H, year.K, year.j_max
    opt = val.max(axis=2).max(axis=1)
    unit = _unit(year, P)
    k, p = case
    if k == "hand":
        chosen = [i for i in np.argsort(-opt[:H]) if opt[i] > 0][:jm]
    else:  # the items before the deepest housed one (all of them when it is recycled)
        head = H + k if k < K else None
        count = H + k
        chosen = [i for i in np.argsort(-opt[:count]) if opt[i] > -unit[p]]
        chosen = chosen[:jm - (head is not None)]
        if head is not None:
            plan.housed[p, int(np.argmax(val[head, p]))] += 1
            plan.spend[_FOOD, p] += year.food[head]
        skipped = count - len(chosen)
        resource = _GOLD if unit[p] >= P[_GOLD, p] else _FOOD
        plan.spend[resource, p] += skipped * (1 if resource == _GOLD else year.food_min)
    for i in chosen:
        pp, col = np.unravel_index(int(np.argmax(val[i])), val[i].shape)
        plan.housed[pp, col] += 1
        plan.spend[_FOOD, pp] += year.food[i]


def _empty_plan(T: int) -> _Plan:
    return _Plan(np.zeros((4, T)), np.zeros((4, T)), np.zeros((T, 4)), np.zeros((T, 4)),
                 np.zeros(T), np.zeros(T, dtype=int), np.zeros(T, dtype=int))


def _multiplier_terms(year: _Year, mu: np.ndarray, lam: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Prices ``P`` (4, T), housing values ``Lam`` (T, 4) and the priced build costs."""
    P = _prices(mu)
    Lam = np.cumsum(lam[::-1], axis=0)[::-1]
    return P, Lam, _priced_costs(year, P)


def _evaluate(year: _Year, mu: np.ndarray, lam: np.ndarray, fest: np.ndarray,
              want_plan: bool) -> tuple[float, _Plan | None]:
    """The Lagrangian bound for ``mu`` (4, T), ``lam`` (T, 4) and the festival split ``fest``
    (T,), and the relaxed year."""
    P, Lam, cost = _multiplier_terms(year, mu, lam)
    V = _building_dp(year, P, Lam, cost, fest)
    plan = None
    if want_plan:
        plan = _empty_plan(year.T)
        _follow(year, V, P, Lam, cost, fest, plan)
    chars = _character_value(year, P, Lam, fest, plan)
    value = float((mu * year.A).sum()) + float(V[1][0, 0, 0]) + chars
    return value, plan


def _price(year: _Year, mu: np.ndarray, lam: np.ndarray, fest: np.ndarray
           ) -> tuple[float, Column, Column]:
    """The Lagrangian bound for the multipliers and the two sides' relaxed years as columns
    of the master (:mod:`solvers.lemuria.columns`): the building side's best path and the
    character side's by the cards held, each with its VP without the multiplier terms."""
    P, Lam, cost = _multiplier_terms(year, mu, lam)
    V = _building_dp(year, P, Lam, cost, fest)
    build, chars = _empty_plan(year.T), _empty_plan(year.T)
    _follow(year, V, P, Lam, cost, fest, build)
    built_value = float(V[1][0, 0, 0])
    held = deepest = 0.0
    if year.n_items:
        val = _resident_values(year, P, Lam, fest)
        deepest, _case = _deepest_value(year, P, val)
        with year.scratch.lease():
            held, walk = _held_value(year, P, val)
            _record_held(year, P, val, walk, chars)
    on_festivals = np.where(year.is_festival, 1.0, 0.0)
    build_raw = built_value - float(((build.gain - build.spend) * P).sum()
                                    + (build.built * Lam).sum() + (fest * build.owned).sum())
    residents = chars.housed.sum(axis=1).cumsum()
    chars_raw = held + float((chars.spend * P).sum() + (chars.housed * Lam).sum()
                             - (on_festivals * (3.0 - fest) * residents).sum())
    value = float((mu * year.A).sum()) + built_value + min(deepest, held)
    return value, Column(build_raw, build), Column(chars_raw, chars)


def _simple_bound(instance: Instance) -> float:
    from lumicore.lemuria.rules import initial_state
    from solvers.lemuria.exhaustive import upper_bound as simple

    return float(simple(instance, initial_state(instance)))


@noting()
def lagrangian_bound(instance: Instance, time_limit: float | None = DEFAULT_BOUND_TIME,
                     target: float | None = None, max_steps: int = 300,
                     fixed: Mapping[int, int] | None = None,
                     method: str = "columns") -> BoundResult:
    """The bound with its details (see the module docstring). ``method="columns"`` (the
    default) takes the multipliers from the duals of a master LP over the relaxed years found
    so far (column generation, :mod:`solvers.lemuria.columns`) until the bound meets the
    master's value (``CONVERGED``: then no multipliers do better); ``"subgradient"`` takes
    projected subgradient steps on ``mu``, ``lam`` and the festival split with Polyak step
    sizes towards ``target``. Both stop at a bound of ``target`` (a VP some plan reaches; None:
    the greedy year's), after ``time_limit`` seconds or ``max_steps`` steps. Ctrl-C ends the
    steps early (``interrupted``: the bound found so far stays valid).

    It falls back to the exhaustive planner's simple bound where the relaxation does not track
    the year: a remodelled card that can come back from the deck bottom, or more than
    ``MAX_ROWS`` reachable Trend rows in a turn.

    ``fixed`` (for branching): ``{turn: option}`` bounds only the years whose build in that turn
    is the given one: 0 no build, 1..5 a build or remodel from that slot (after the
    opponents' takes). A choice the relaxation cannot make (a slot that is empty) gives
    ``-inf``; one only legal years cannot make (a card the turn's resources never pay for)
    gives a hugely negative bound, which bounds that empty set of years as well. The fallback
    bound is the whole year's, so it holds for fixed choices too."""
    check_instance(instance)
    instance.check_nothing_present("the upper bound")
    check_limits(None, time_limit)
    if not isinstance(method, str) or method not in METHODS:
        raise LumicoreError(f"method: {shorten(method)} is not one of {', '.join(METHODS)}")
    max_steps = check_int(max_steps, "max_steps", 1, what="a whole number >= 1")
    target = None if target is None else check_real(target, "target",
                                                    "a finite number of VP")
    fixed = _check_fixed(instance, fixed)
    start = time.perf_counter()
    try:
        year = _Year(instance, fixed)
        fallback = year.need_fallback()
    except _TooManyRows:
        fallback = True
    except KeyboardInterrupt:
        value = _simple_bound(instance)
        return BoundResult(value, value, 0, time.perf_counter() - start, interrupted=True,
                           method=method)
    if fallback:
        value = _simple_bound(instance)
        return BoundResult(value, value, 0, time.perf_counter() - start, method=method)
    if target is None:
        from solvers.lemuria.greedy import greedy_schedule

        target = float(greedy_schedule(instance).vp)
    result = BoundResult(math.inf, math.inf, 0, 0.0, method=method)
    steps = _columns if method == "columns" else _subgradient
    try:
        steps(year, float(target), time_limit, max_steps, start, result)
    except KeyboardInterrupt:
        result.interrupted = True
        if not math.isfinite(result.value):
            result.value = result.first = _simple_bound(instance)
    result.elapsed = time.perf_counter() - start
    return result


def _check_fixed(instance: Instance, fixed: Mapping[int, int] | None) -> dict[int, int]:
    if fixed is not None and not isinstance(fixed, Mapping):
        raise LumicoreError(f"fixed must be a {{turn: option}} mapping, got {shorten(fixed)}")
    out = {}
    for turn, option in (fixed or {}).items():
        if not is_integer(turn) or not 1 <= turn <= instance.turns:
            raise LumicoreError(f"fixed: turn {shorten(turn)} is not in 1..{instance.turns}")
        if not is_integer(option) or not 0 <= option <= 5:
            raise LumicoreError(f"fixed: turn {turn}: option {shorten(option)} is not 0..5 "
                                "(0: no build, 1..5: the slot built from)")
        out[int(turn)] = int(option)
    return out


def _first_multipliers(year: _Year) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    mu = np.zeros((4, year.T))
    mu[:, -1] = 1.5
    return mu, np.zeros((year.T, 4)), np.where(year.is_festival, 1.5, 0.0)


def _keep(result: BoundResult, value: float, mu: np.ndarray, lam: np.ndarray,
          fest: np.ndarray) -> bool:
    """Count a step into ``result``, keeping its multipliers if its bound is the least yet;
    False if the bound is -inf (a fixed choice no year can make)."""
    result.steps += 1
    if value < _NEG / 2:
        result.value = result.first = -math.inf
        return False
    if result.steps == 1:
        result.first = value
    if value < result.value - 1e-9:
        result.value = value
        result.mu, result.lam, result.fest = mu.copy(), lam.copy(), fest.copy()
    return True


def _out_of_time(time_limit: float | None, start: float) -> bool:
    """The time is up. A Ctrl-C whose exception Python dropped raises here
    (:mod:`solvers.ctrl_c`)."""
    check()
    return time_limit is not None and time.perf_counter() - start > time_limit


def _columns(year: _Year, target: float, time_limit: float | None, max_steps: int,
             start: float, result: BoundResult, known: Sequence[tuple[str, Column]] = (),
             master: Master | None = None) -> Master:
    """Column generation: price the master's duals, add the two relaxed years, repeat.
    ``known``: columns to start the master with (relaxed years of this ``year``'s fixed
    choices; :mod:`solvers.lemuria.branch` passes a parent node's); ``master``: instead, a
    master of this ``year`` to go on with (a paused node's, its LP warm). ``result`` holds the
    master's columns and their last weights (the master's own lists); the master is
    returned."""
    if master is None:
        master = Master(year.A, [int(f) for f in np.flatnonzero(year.is_festival)],
                        _empty_plan(year.T), year.barred())
        for side, column in known:
            master.add(side, column)
    result.columns, result.weights = master.added, master.weights
    duals: Sequence[np.ndarray] = _first_multipliers(year)
    solved = master.solve() if len(master.added) > EMPTY else None
    if solved is not None:
        result.floor, *duals = solved
    smooth = True
    while result.steps < max_steps:
        multipliers = _smoothed(result, duals) if smooth else tuple(duals)
        least = result.value
        value, build, chars = _price(year, *multipliers)
        if not _keep(result, value, *multipliers):
            return master
        if (result.value - result.floor < CONVERGED or result.value - target < 1e-6
                or _out_of_time(time_limit, start)):
            return master
        master.add("building", build)
        master.add("characters", chars)
        floor = result.floor
        solved = master.solve()
        if solved is None:
            return master
        result.floor, *duals = solved
        # neither the bound nor the master moved (the bound by the deepest item can sit below
        # the one the argument of docs/lemuria.md follows): price the duals themselves
        smooth = result.value < least or result.floor > floor + 1e-9
    return master


def _smoothed(result: BoundResult, duals: Sequence[np.ndarray]) -> tuple[np.ndarray, ...]:
    """The point between the master's ``duals`` and the best multipliers yet (``SMOOTHING``)."""
    if not math.isfinite(result.value):
        return tuple(duals)
    best = (result.mu, result.lam, result.fest)
    return tuple(SMOOTHING * b + (1.0 - SMOOTHING) * d for b, d in zip(best, duals, strict=True))


def _subgradient(year: _Year, target: float, time_limit: float | None, max_steps: int,
                 start: float, result: BoundResult) -> None:
    """The steps, recording the best multipliers into ``result`` as they are found."""
    mu, lam, fest = _first_multipliers(year)
    theta, stall = THETA, 0
    while result.steps < max_steps:
        value, plan = _evaluate(year, mu, lam, fest, want_plan=True)
        best = result.value
        if not _keep(result, value, mu, lam, fest):
            return
        if value < best - 1e-9:
            stall = 0
        else:
            stall += 1
            if stall >= STALL:
                theta, stall = theta / 2, 0
        if _out_of_time(time_limit, start):
            return
        if result.value - target < 1e-6 or theta < 1e-4:
            return
        assert plan is not None
        g_mu = year.A + np.cumsum(plan.gain - plan.spend, axis=1)
        g_lam = np.cumsum(plan.built - plan.housed, axis=0)
        g_fest = np.where(year.is_festival, plan.owned - plan.housed.sum(axis=1).cumsum(), 0.0)
        norm = float((g_mu ** 2).sum() + (g_lam ** 2).sum() + (g_fest ** 2).sum())
        if norm < 1e-12:
            return
        step = theta * (value - target) / norm
        mu = np.maximum(0.0, mu - step * g_mu)
        lam = np.maximum(0.0, lam - step * g_lam)
        fest = np.where(year.is_festival, np.clip(fest - step * g_fest, 0.0, 3.0), 0.0)


def upper_bound(instance: Instance, time_limit: float | None = DEFAULT_BOUND_TIME) -> float:
    """A proven upper bound on the VP of every legal year of ``instance`` (see the module
    docstring and docs/lemuria.md); ``time_limit``: seconds of search for the multipliers."""
    return float(lagrangian_bound(instance, time_limit).value)
