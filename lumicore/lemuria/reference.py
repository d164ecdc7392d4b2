"""The Lemuria kernel's steps stated plainly, in Python: the twins the Cython kernel
(:mod:`lumicore.lemuria.kernel`) is tested against.

:func:`held_draw` is one step of the character side's program "by the cards held" (the same
docs): what drawing one deck item is worth, for each turn it can be drawn in, number of
residents housed so far and number of cards passed over and still held.

:func:`building_turn` is one turn of the building side's dynamic program of the bound
(``solvers.lemuria.bound``, the "upper bound" of docs/lemuria.md), read backwards from the end
of the year: what the best relaxed year is worth from the start of this turn, for each Trend
row state, number of facilities owned and set of districts holding a chit.

>>> import numpy as np
>>> nxt = np.zeros((1, 3, 16)); nxt[0, 1, 0b0001] = 5.0
>>> succ = np.array([[0, 0, -1, -1, -1, -1]])
>>> gains = np.full((4, 1, 5), 2.0)
>>> out = building_turn(nxt, succ, gains, only=-1, remodel=False, bonus=np.zeros(16), admin=3)
>>> float(out[0, 0, 0])  # build from slot 1 (2 VP), the chit in district 0 (5 VP after)
7.0
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["NEG", "building_turn", "draw_ways", "held_draw", "held_draws", "held_step", "open_ways",
           "waiting_release"]

NEG = -1e18
"""The value of a state no relaxed year reaches."""


def building_turn(nxt: np.ndarray, succ: np.ndarray, gains: np.ndarray, only: int,
                  remodel: bool, bonus: np.ndarray, admin: int) -> np.ndarray:
    """Values (R, F, B) from the start of a turn.

    ``nxt[j, n, b]``: the value from the end of the turn (the next turn's start, festival
    shares included) in next row state ``j`` owning ``n`` facilities with chit pattern ``b``.
    ``succ[i, 0]``: the next row state of row state ``i`` when nothing is built;
    ``succ[i, s + 1]``: when the card in slot ``s`` is built (-1: no card there).
    ``gains[k, i, s]``: what building that card earns (VP, trend bonus, housing value less its
    priced cost): ``k`` = 0 without and 1 with an Administrative chit (which makes a card of
    the first three slots cheaper), 2 and 3 the same for a remodel. ``only``: -1 any option,
    0 no build, 1..5 that slot only. ``remodel``: remodels are allowed this turn. ``bonus[b]``:
    the turn-start value of chit pattern ``b``. ``admin``: the Administrative district's bit.

    A state may build nothing (the state after), build a new facility (one more owned, and a
    chit placed in the district that is best afterwards; at most ``F - 1`` owned) or remodel
    (as many owned, no new chit; at least one owned).
    """
    R, F, B = succ.shape[0], nxt.shape[1], nxt.shape[2]
    out = np.empty((R, F, B))
    for i in range(R):
        for n in range(F):
            for b in range(B):
                best = NEG if only > 0 else nxt[succ[i, 0], n, b]
                for s in range(5):
                    j = succ[i, s + 1]
                    if j < 0 or (only >= 0 and only != s + 1):
                        continue
                    k = (b >> admin) & 1
                    if n < F - 1:
                        chit = max(nxt[j, n + 1, b | (1 << d)] for d in range(4))
                        best = max(best, gains[k, i, s] + chit)
                    if remodel and n >= 1:
                        best = max(best, gains[2 + k, i, s] + nxt[j, n, b])
                out[i, n, b] = best + bonus[b]
    return out


def draw_ways(nxt: np.ndarray, bf: np.ndarray, pg: np.ndarray, pf: np.ndarray, food: float,
              jm: int, d: int, j: int, h: int, nxt2: np.ndarray | None = None,
              bf2: np.ndarray | None = None, pending: int = 0,
              housings: Sequence[tuple[np.ndarray, np.ndarray]] = (),
              free_swap: bool = False) -> dict[str, float]:
    """What each way to draw an item in turn ``d``, with ``j`` residents housed and ``h``
    cards held, is worth: its price and the value after it, ``nxt[d, j', h']`` (NEG where the
    way is closed). ``bf[d]``: housing the item (at its best turn from d on); ``pg``, ``pf``:
    the prices of gold and food by turn; ``food``: the item's food, paid if it is played
    unhoused; ``jm``: the most residents. A buy costs the cards held in gold and the card
    bought is housed, kept (one more held, at most the last index) or played unhoused; an
    exchange (2 gold) gives the card back, or houses it and gives back a held card. With
    ``nxt2`` and ``bf2`` a housing is of one of two kinds, the better of ``bf[d]`` followed by
    ``nxt`` and ``bf2[d]`` followed by ``nxt2`` (the bound's branches count the residents
    housed by a festival: housed by then, or after). ``pending``: cards held besides the h
    counted (hand cards waiting for their turn to be housed): a buy pays for them too, and
    no way plays or gives them back. ``housings``: more kinds of housing, (values by turn,
    values after), each as ``bf2`` and ``nxt2``. ``free_swap``: an exchange may also give back
    a card not counted, and house or keep the card it draws.

    >>> nxt = np.zeros((1, 2, 2)); nxt[0, 1, 0] = 4.0
    >>> ways = draw_ways(nxt, np.array([3.0]), np.array([1.0]), np.array([1.0]), 2.0, 1, 0, 0, 0)
    >>> float(ways["buy house"]), float(ways["buy unhoused"]), ways["exchange house"] == NEG
    (7.0, -2.0, True)
    """
    held = nxt.shape[2] - 1
    up, down = min(h + 1, held), max(h - 1, 0)

    kinds = [(bf, nxt)] + ([] if nxt2 is None or bf2 is None else [(bf2, nxt2)])
    kinds += list(housings)

    def housed(hh: int) -> float:
        if j >= jm:
            return NEG
        return max(values[d] + after[d, j + 1, hh] for values, after in kinds)

    buy, swap = -(h + pending) * pg[d], -2.0 * pg[d]
    free = ({"exchange free house": swap + housed(h), "exchange keep": swap + nxt[d, j, up]}
            if free_swap else {})
    return {
        "buy house": buy + housed(h),
        "buy keep": buy + nxt[d, j, up],
        "buy unhoused": buy - food * pf[d] + nxt[d, j, h],
        "exchange back": swap + nxt[d, j, h],
        "exchange house": swap + housed(down) if h >= 1 else NEG,
    } | free


def open_ways(ways: dict[str, float], must: int) -> dict[str, float]:
    """The ways a branch leaves: ``must`` 1 only those that house the item, 0 only those
    that do not, -1 all."""
    if must < 0:
        return ways
    return {k: v for k, v in ways.items() if k.endswith("house") == bool(must)}


def held_draw(nxt: np.ndarray, bf: np.ndarray, pg: np.ndarray, pf: np.ndarray, food: float,
              discard: np.ndarray, jm: int, must: int, nxt2: np.ndarray | None = None,
              bf2: np.ndarray | None = None, pending: int = 0,
              housings: Sequence[tuple[np.ndarray, np.ndarray]] = (),
              free_swap: bool = False) -> np.ndarray:
    """The value (T, J, HELD + 1) of drawing an item in turn d with j residents housed and h
    cards held: the best open way (:func:`draw_ways`, :func:`open_ways`; ``nxt2``, ``bf2``:
    the second kind of housing there; ``housings``: more kinds; ``free_swap``: the exchanges
    that give back a card not counted), after playing any number of the held cards unhoused
    first (``discard[d]`` each).

    >>> nxt = np.zeros((1, 2, 2))
    >>> one = np.ones(1)
    >>> held_draw(nxt, 3 * one, one, one, 2.0, 0.5 * one, 1, -1)[0].tolist()
    [[3.0, 2.5], [0.0, -0.5]]
    """
    T, J, Hh = nxt.shape
    out = np.empty((T, J, Hh))
    for d in range(T):
        for j in range(J):
            for h in range(Hh):
                ways = open_ways(draw_ways(nxt, bf, pg, pf, food, jm, d, j, h, nxt2, bf2,
                                           pending, housings, free_swap), must)
                out[d, j, h] = max(ways.values())
            for h in range(1, Hh):
                out[d, j, h] = max(out[d, j, h], out[d, j, h - 1] - discard[d])
    return out


def held_draws(nxt: np.ndarray, values: np.ndarray, succ: np.ndarray, least: np.ndarray,
               pg: np.ndarray, pf: np.ndarray, food: float, discard: np.ndarray, jm: int,
               must: int, pending: np.ndarray | None = None,
               housings: np.ndarray | None = None, onto: np.ndarray | None = None,
               free_swap: np.ndarray | None = None) -> np.ndarray:
    """:func:`held_draw` from each state q of a branch's festival counts (``nxt`` (Q, T, J,
    H): the values after the item in each state). The item is housed in one of K + 1 parts of
    the year: part k < K (``values[k, d]`` if drawn in turn d) leads to state ``succ[k, q]``
    (-1: closed from q), the last part (``values[K]``) stays in q. Each state's second kind
    of housing is the best of the parts before the last. No path reaches fewer residents in
    all than ``least[q]`` (the count by the last festival counted): NEG there. A buy from q
    also pays for its ``pending[q]`` cards (none given: 0). ``housings`` (M, K + 1, T) and
    ``onto`` (M, Q): M more kinds of housing, kind m worth ``housings[m, k, d]`` in part k,
    leading on to state ``onto[m, r]`` of the state r part k leads to (the bound's: housed in
    a later turn than d, one more card held till the turn ends; or at its best turn, the deck
    to be drawn through). Where ``free_swap[q]`` (Q,), an exchange may give back a card the
    state does not count (:func:`draw_ways`).

    >>> nxt = np.zeros((2, 1, 2, 1)); nxt[1, 0, 1, 0] = 4.0
    >>> one = np.ones(1)
    >>> held_draws(nxt, np.array([[2.0], [3.0]]), np.array([[1, -1]]), np.array([0, 0]), one,
    ...            one, 0.0, one, 1, 1)[:, 0, 0, 0].tolist()
    [6.0, 7.0]
    """
    K = succ.shape[0]
    out = np.empty(nxt.shape)
    for q in range(nxt.shape[0]):
        leads = [(k, int(succ[k, q])) for k in range(K) if succ[k, q] >= 0]
        earlier = [values[k][:, None, None] + nxt[r] for k, r in leads]
        second: tuple[np.ndarray | None, np.ndarray | None] = (
            (np.maximum.reduce(earlier), np.zeros(nxt.shape[1])) if earlier else (None, None))
        more = [] if housings is None or onto is None else [
            (values_m[k], nxt[onto_m[r]]) for values_m, onto_m in zip(housings, onto, strict=True)
            for k, r in [(K, q), *leads]]
        waiting = 0 if pending is None else int(pending[q])
        out[q] = held_draw(nxt[q], values[K], pg, pf, food, discard, jm, must, *second,
                           pending=waiting, housings=more,
                           free_swap=free_swap is not None and bool(free_swap[q]))
        out[q, :, :least[q]] = NEG
    return out


def held_step(nxt: np.ndarray, values: np.ndarray, succ: np.ndarray, least: np.ndarray,
              pg: np.ndarray, pf: np.ndarray, food: float, discard: np.ndarray, jm: int,
              must: int, pending: np.ndarray | None = None,
              housings: np.ndarray | None = None, onto: np.ndarray | None = None,
              reset: np.ndarray | None = None, free_swap: np.ndarray | None = None,
              out: tuple[np.ndarray, np.ndarray] | None = None
              ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`held_draws`, and for each state, j and h its most over the turns from d on
    (the values before the item, drawn in turn d or later); with ``reset`` (Q,), a state q
    whose ``reset[q]`` is another draws in turn d or passes to that state's most from d + 1
    on (the cards held till the turn ends are no longer held then). ``out``: two arrays to
    write them into (the kernel's argument; here a copy).

    >>> one = np.ones(2)
    >>> drawn, best = held_step(np.zeros((1, 2, 1, 1)), np.array([[1.0, 5.0]]),
    ...                         np.zeros((0, 1), dtype=int), np.zeros(1, dtype=int), one, one,
    ...                         0.0, one, 0, -1)
    >>> drawn.ravel().tolist(), best.ravel().tolist()
    ([0.0, 0.0], [0.0, 0.0])
    """
    drawn = held_draws(nxt, values, succ, least, pg, pf, food, discard, jm, must, pending,
                       housings, onto, free_swap)
    return _into((drawn, _most_from(drawn, reset)), out)


def _into(arrays: tuple[np.ndarray, np.ndarray], out: tuple[np.ndarray, np.ndarray] | None
          ) -> tuple[np.ndarray, np.ndarray]:
    """``arrays``, copied into ``out`` when it is given."""
    if out is None:
        return arrays
    for target, array in zip(out, arrays, strict=True):
        np.copyto(target, array)
    return out


def waiting_release(drawn: np.ndarray, upto: np.ndarray, succ: np.ndarray,
                    reset: np.ndarray | None = None,
                    out: tuple[np.ndarray, np.ndarray] | None = None
                    ) -> tuple[np.ndarray, np.ndarray]:
    """The values of an item's draws (``drawn`` (Q, T, J, H), from each state in turn d with
    j residents housed and h cards held) once each state may first house any of its waiting
    cards, one after another, and their most from each turn on (``reset`` and ``out``: as in
    :func:`held_step`). State q holds the subset
    ``q % 2**W`` of the W waiting cards (bit b: card b waits). Housing card b in part k of
    the year (``upto[b, k, d]``: its value at its best turn up to d) adds a resident and
    leads to ``succ[k, q]`` (-1: closed; k = K, the last part: q itself), card b's bit
    cleared.

    >>> drawn = np.zeros((2, 1, 2, 1)); drawn[1, 0, 1, 0] = -5.0
    >>> closed, best = waiting_release(drawn, np.array([[[3.0]]]), np.zeros((0, 2), dtype=int))
    >>> closed[:, 0, :, 0].tolist()
    [[0.0, 0.0], [3.0, -5.0]]
    """
    Q = drawn.shape[0]
    W, K = upto.shape[0], succ.shape[0]
    S = 1 << W
    closed = drawn.copy()
    for w in sorted(range(S), key=int.bit_count):  # the smaller subsets first
        for q in range(w, Q, S):
            for b in (b for b in range(W) if w >> b & 1):
                leads = [(k, int(succ[k, q])) for k in range(K) if succ[k, q] >= 0] + [(K, q)]
                for k, r in leads:  # in every turn d, j residents -> j + 1, h held
                    r &= ~(1 << b)
                    closed[q, :, :-1] = np.maximum(closed[q, :, :-1],
                                                   upto[b, k][:, None, None] + closed[r, :, 1:])
    return _into((closed, _most_from(closed, reset)), out)


def _most_from(values: np.ndarray, reset: np.ndarray | None = None) -> np.ndarray:
    """``[q, d, ...]``: the most of ``values[q, d', ...]`` for d' >= d; where ``reset[q]`` is
    another state r, the most of ``values[q, d, ...]`` and r's from d + 1 on."""
    out = np.maximum.accumulate(values[:, ::-1], axis=1)[:, ::-1]
    if reset is not None:
        for q in np.flatnonzero(np.asarray(reset) != np.arange(len(values))):
            out[q] = values[q]
            out[q, :-1] = np.maximum(values[q, :-1], out[reset[q], 1:])
    return out
