"""The Cython steps of the bound's programs (a turn of the building program, an item of the
program by the cards held) against the plain-Python references on random arrays (hypothesis),
on the real arrays of default years, and their doors rejecting bad input."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lumicore.errors import LumicoreError
from lumicore.lemuria import default_instance, kernel, reference
from solvers.lemuria import bound


def _values(draw, rng: np.random.Generator, shape: tuple) -> np.ndarray:
    """Values after a step: whole or not, some states unreachable (NEG) or none."""
    out = rng.normal(scale=20, size=shape).round(draw(st.sampled_from([0, 3])))
    out[rng.random(shape) < draw(st.sampled_from([0.0, 0.3]))] = reference.NEG
    return out


def _rejects(step, args: list, position: int, value: object, match: str) -> None:
    """``step`` takes ``args`` and raises LumicoreError (``match``) with ``value`` at
    ``position`` instead."""
    step(*args)
    args[position] = value
    with pytest.raises(LumicoreError, match=match):
        step(*args)


def _agree(step: str, args: tuple) -> None:
    """The kernel's step and its twin give the same array."""
    fast, plain = getattr(kernel, step)(*args), getattr(reference, step)(*args)
    assert fast.shape == plain.shape
    assert np.array_equal(fast, plain)


@st.composite
def turns(draw) -> tuple:
    """A random turn: next-turn values (some states unreachable: NEG), successors (-1 where a
    slot is empty), gains, an option restriction, remodels or not, bonuses, the admin bit."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    rows, after, facilities = draw(st.integers(0, 6)), draw(st.integers(1, 6)), draw(
        st.integers(2, 9))
    nxt = _values(draw, rng, (after, facilities, 16))
    succ = rng.integers(-1, after, size=(rows, 6))
    succ[:, 0] = rng.integers(0, after, size=rows)
    gains = rng.normal(scale=10, size=(4, rows, 5)).round(1)
    only = draw(st.integers(-1, 5))
    return (nxt, succ, gains, only, draw(st.booleans()), rng.normal(size=16).round(2),
            draw(st.integers(0, 3)))


@settings(max_examples=300, deadline=None)
@given(turns())
def test_building_turn_equals_the_reference(turn):
    _agree("building_turn", turn)


@pytest.mark.parametrize("seed,turns_", [(0, 12), (3, 8)])
def test_building_turn_on_a_default_year_equals_the_reference(seed, turns_):
    """The arrays the bound hands the kernel (rows simulated, festival shares, owned masks,
    fixed options) give the reference's values, turn by turn."""
    year = bound._Year(default_instance(seed, turns=turns_))
    year = year.with_choices({2: 3, 5: 0}, {4: (1, 2)}, {})
    rng = np.random.default_rng(seed)
    mu = rng.random((4, year.T))
    lam, fest = rng.random((year.T, 4)), np.where(year.is_festival, 1.0, 0.0)
    P = bound._prices(mu)
    Lam = np.cumsum(lam[::-1], axis=0)[::-1]
    cost = bound._priced_costs(year, P)
    V = bound._building_dp(year, P, Lam, cost, fest)
    for t in range(year.T, 0, -1):
        nxt = bound._after_turn(V, t, fest)
        remodel = year.remodel and t >= year.remodel_from
        gains = bound._turn_gains(year, t, year.rows.card[t - 1], cost, Lam, remodel)
        only = year.fixed.get(t, -1)
        plain = reference.building_turn(nxt, year.rows.succ[t - 1], gains, only, remodel,
                                        bound._bonus(P, t), bound._ADMIN)
        if t - 1 in year.owned:  # the turn before masks these values afterwards
            lo, hi = year.owned[t - 1]
            plain[:, [n for n in range(plain.shape[1]) if not lo <= n <= hi]] = bound._NEG
        assert np.array_equal(V[t], plain), t


def _good():
    nxt = np.zeros((2, 9, 16))
    succ = np.array([[0, 1, -1, 0, 1, -1]])
    return [nxt, succ, np.zeros((4, 1, 5)), -1, False, np.zeros(16), 3]


@pytest.mark.parametrize("position,value,match", [
    (0, np.zeros((2, 9, 8)), "nxt must be"),
    (0, np.zeros((2, 9)), "nxt must be a 3-dimensional"),
    (0, [[0.0]], "nxt must be a 3-dimensional"),
    (1, np.array([[0, 2, -1, 0, 1, -1]]), "outside"),
    (1, np.array([[-1, 1, -1, 0, 1, -1]]), "outside"),
    (1, np.array([[0, 1, -2, 0, 1, -1]]), "outside"),
    (1, np.array([[0, 1, -1, 0, 1]]), "succ must be an"),
    # a float, bool or object succ was cast to int64: 1.9 read as state 1, True as 1, 2**70
    # an OverflowError (the twin raises IndexError on floats; held_step refused them)
    (1, np.array([[0.0, 1.9, -1.0, 0.0, 1.0, -1.0]]), "succ must be a 2-dimensional array of "
                                                       "whole numbers, got shape \\(1, 6\\) "
                                                       "of float64"),
    (1, np.ones((1, 6), dtype=bool), "whole numbers"),
    (1, np.array([[2**70, 1, -1, 0, 1, -1]], dtype=object), "whole numbers"),
    (1, [[0, 1, -1, 0, 1, -1]], "whole numbers"),
    (2, np.zeros((4, 2, 5)), "gains must be"),
    (3, 6, "only must be"),
    (3, True, "only must be"),
    (5, np.zeros(15), "bonus"),
    (6, 4, "admin must be"),
])
def test_the_door_rejects_bad_arrays(position, value, match):
    _rejects(kernel.building_turn, _good(), position, value, match)


@st.composite
def draws(draw) -> tuple:
    """A random item of the program by the cards held: the values after it (some NEG), the
    housing value by turn, gold and food prices (some zero, some large), the item's food, the
    price of an unhoused play, the most residents, a branch's choice, the second kind of
    housing (or none) and the cards held besides those counted."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    T, J, H = draw(st.integers(1, 12)), draw(st.integers(1, 14)), draw(st.integers(1, 9))
    nxt = _values(draw, rng, (T, J, H))
    scale = draw(st.sampled_from([0.0, 1.0, 1e3]))
    pg, pf = (np.abs(rng.normal(scale=scale, size=T)).round(2) for _ in range(2))
    bf = rng.normal(scale=10, size=T).round(1)
    food = float(draw(st.integers(0, 4)))
    second = (None, None)
    if draw(st.booleans()):  # housings of two kinds (a branch counting by a festival)
        second = (_values(draw, rng, (T, J, H)), rng.normal(scale=10, size=T).round(1))
    return (nxt, bf, pg, pf, food, pf * draw(st.integers(1, 3)), draw(st.integers(0, J - 1)),
            draw(st.sampled_from([-1, 0, 1])), *second, draw(st.integers(0, 3)))


@settings(max_examples=200, deadline=None)
@given(draws())
def test_held_draw_equals_the_reference(item):
    _agree("held_draw", item)


@st.composite
def many_draws(draw) -> tuple:
    """A random item drawn from every state of a branch's festival counts: values after it in
    Q states, K + 1 parts of the year to house it in, the state each part before the last
    leads to (-1: closed), and the rest as in :func:`draws`."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    nxt, bf, pg, pf, food, discard, jm, must, *_second, _pending = draw(draws())
    Q, K = draw(st.integers(1, 5)), draw(st.integers(0, 3))
    values = rng.normal(scale=10, size=(K + 1, nxt.shape[0])).round(1)
    succ = rng.integers(-1, Q, size=(K, Q))
    least = rng.integers(0, nxt.shape[1] + 1, size=Q) * draw(st.sampled_from([0, 1]))
    pending = rng.integers(0, 4, size=Q) * draw(st.sampled_from([0, 1]))
    item = (_values(draw, rng, (Q, *nxt.shape)), values, succ, least, pg, pf, food, discard,
            jm, must, pending)
    if not draw(st.booleans()):
        return item
    M = draw(st.integers(0, 2))
    housings = rng.normal(scale=10, size=(M, *values.shape)).round(1)
    housings[rng.random(housings.shape) < 0.2] = reference.NEG
    free_swap = rng.random(Q) < draw(st.sampled_from([0.0, 0.5]))
    return (*item, housings, rng.integers(0, Q, size=(M, Q)), draw(resets(Q)), free_swap)


@st.composite
def resets(draw, Q: int) -> np.ndarray:
    """The states a draw in a later turn passes to: each its own, or one of those that are
    their own (the cards held till a turn ends, given back)."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    own = rng.random(Q) < draw(st.sampled_from([0.3, 1.0]))
    own[0] = True
    reset = np.arange(Q)
    reset[~own] = rng.choice(np.flatnonzero(own), size=int((~own).sum()))
    return reset


@settings(max_examples=200, deadline=None)
@given(many_draws())
def test_held_step_equals_the_reference(item):
    """The draws from every state, and their most from each turn on."""
    fast, plain = kernel.held_step(*item), reference.held_step(*item)
    assert all(np.array_equal(a, b) for a, b in zip(fast, plain, strict=True))
    assert np.array_equal(kernel.held_draws(*item[:13]), reference.held_draws(*item[:13]))


def _held_items_agree(seed: int, turns_: int, every: bool) -> None:
    """The deck items of the program by the cards held of a default year (a branch's choices:
    items housed, not housed, in a window, the residents housed in all and by the end of two
    turns) give the reference's values in every state of the counts: every item, or the two
    the branch chooses for, the deck's last and the first second housing."""
    year = bound._Year(default_instance(seed, turns=turns_))
    counted = ((year.inst.festivals[0], 1, 3), (turns_ - 2, 2, 6))
    year = year.with_choices({}, {}, {year.H: True, year.H + 2: False}, {year.H: (2, 5)},
                             (2, 7), counted)
    rng = np.random.default_rng(seed)
    P = bound._prices(rng.random((4, year.T)))
    Lam = np.cumsum(rng.random((year.T, 4))[::-1], axis=0)[::-1]
    val = bound._resident_values(year, P, Lam, np.where(year.is_festival, 1.0, 0.0))
    _value, (items, tables, counts, _stop, upto) = bound._held_value(year, P, val)
    assert counts.succ.shape == (2, len(counts.states)) and len(counts.states) > 10
    discard = year.food_min * P[bound._FOOD]
    deck = range(year.H, len(items))
    chosen = deck if every else sorted({year.H, year.H + 2, year.n_items - 1,
                                        min(year.n_items, len(items) - 1)})
    for i in chosen:
        (_item, values, now), (table, closed, (nxt, food, later)) = items[i], tables[i]
        plain = reference.held_draws(nxt, now, counts.succ, counts.least, P[bound._GOLD],
                                     P[bound._FOOD], food, discard, year.j_max,
                                     bound._must(year.housed.get(i)), counts.pending,
                                     np.stack([later, values]),
                                     np.stack([counts.bump, counts.through]),
                                     counts.owes_deck)
        assert np.array_equal(table, plain), i
        released = reference.waiting_release(plain, upto, counts.succ, counts.reset)[0]
        assert np.array_equal(closed, released), i
    assert len(chosen) >= 4 and counts.waiting  # the hand cards wait: released too


@pytest.mark.parametrize("seed,turns_", [  # a 12-turn year: 23 s of the reference's loops
    pytest.param(0, 12, marks=pytest.mark.slow), (3, 8)])
def test_held_draws_on_a_default_year_equals_the_reference(seed, turns_):
    _held_items_agree(seed, turns_, every=False)


@pytest.mark.slow
@pytest.mark.parametrize("seed,turns_", [(0, 12), (3, 8)])
def test_every_held_draw_on_a_default_year_equals_the_reference(seed, turns_):
    _held_items_agree(seed, turns_, every=True)


def _good_draw():
    one = np.ones(2)
    return [np.zeros((2, 3, 4)), one, one, one, 1.0, one, 2, -1]


@pytest.mark.parametrize("position,value,match", [
    (0, np.zeros((2, 3)), "nxt must be a 3-dimensional"),
    (0, np.zeros((0, 3, 4)), "each at least 1"),
    (1, np.ones(3), "bf must be"),
    (2, np.ones((2, 1)), "pg must be a 1-dimensional"),
    (3, [1.0, 1.0], "pf must be a 1-dimensional"),
    (4, "2", "food must be a finite number"),
    (5, np.ones(1), "discard must be"),
    (6, 3, "jm must be"),
    (6, -1, "jm must be"),
    (6, True, "jm must be"),
    (7, 2, "must must be"),
    (7, True, "must must be"),
])
def test_the_held_door_rejects_bad_arrays(position, value, match):
    _rejects(kernel.held_draw, _good_draw(), position, value, match)


def test_the_held_door_checks_the_second_kind():
    args = _good_draw()
    kernel.held_draw(*args, np.zeros((2, 3, 4)), np.ones(2))
    with pytest.raises(LumicoreError, match="go together"):
        kernel.held_draw(*args, np.zeros((2, 3, 4)))
    with pytest.raises(LumicoreError, match="shaped as nxt"):
        kernel.held_draw(*args, np.zeros((2, 3, 3)), np.ones(2))
    with pytest.raises(LumicoreError, match="shaped as nxt"):
        kernel.held_draw(*args, np.zeros((2, 3, 4)), np.ones(3))


def _good_draws():
    one = np.ones(2)
    return [np.zeros((3, 2, 3, 4)), np.ones((2, 2)), np.array([[1, -1, 2]]), np.array([0, 1, 3]),
            one, one, 1.0, one, 2, -1, np.array([0, 2, 1])]


@pytest.mark.parametrize("position,value,match", [
    (0, np.zeros((2, 3, 4)), "nxt must be a 4-dimensional"),
    (0, np.zeros((0, 2, 3, 4)), "each at least 1"),
    (1, np.ones((1, 2)), "values must be"),
    (1, np.ones((2, 3)), "values must be"),
    (2, np.array([[1, -1]]), "succ must be"),
    (2, np.array([[1, -2, 0]]), "states -1..2"),
    (2, np.array([[1, 3, 0]]), "states -1..2"),
    (2, np.array([[1.0, 0.0, 0.0]]), "whole numbers"),
    (2, [[1, 0, 0]], "whole numbers"),
    (3, np.array([0, 1]), "least must be"),
    (3, np.array([0, 1, 4]), "least must be"),
    (3, np.array([0, -1, 0]), "least must be"),
    (3, np.zeros(3), "least must be"),
    (4, np.ones(3), "pg must be"),
    (8, 3, "jm must be"),
    (9, 2, "must must be"),
    (10, np.array([0, 1]), "pending must be"),
    (10, np.array([0, -1, 0]), "pending must be"),
    (10, np.zeros(3), "pending must be"),
    (10, -1, "pending must be"),
    (10, True, "pending must be"),
    (11, np.ones((1, 2, 3)), "housings must be"),
    (11, np.ones((2, 2)), "housings must be a 3-dimensional"),
    (12, np.array([[0, 1, 3]]), "onto must be"),
    (12, np.array([[0, 1]]), "onto must be"),
    (12, np.array([[0, 1, -1]]), "onto must be"),
    (12, np.array([[0.0, 1.0, 2.0]]), "onto must be"),
    (13, np.array([0, 1, -1]), "reset must be"),
    (13, np.array([0, 1]), "reset must be"),
    (13, np.array([1, 2, 2]), "their own reset"),
    (14, np.array([0, 2, 1]), "free_swap must be"),
    (14, np.array([0, 1]), "free_swap must be"),
    (14, np.array([0.0, 1.0, 1.0]), "free_swap must be"),
])
def test_the_held_step_door_rejects_bad_arrays(position, value, match):
    args = [*_good_draws(), np.ones((1, 2, 2)), np.array([[1, 2, 2]]), np.array([0, 0, 2]),
            np.array([True, False, True])]
    _rejects(kernel.held_step, args, position, value, match)


def test_housings_and_onto_go_together():
    with pytest.raises(LumicoreError, match="go together"):
        kernel.held_step(*_good_draws(), np.ones((1, 2, 2)))
    with pytest.raises(LumicoreError, match="go together"):
        kernel.held_step(*_good_draws(), None, np.array([[1, 2, 2]]))


def test_a_card_housed_later_makes_the_same_turns_buys_dearer():
    """State 1 holds one card till the turn ends: a buy from it costs one more gold than from
    state 0 in the same turn, and a draw in the next turn starts from state 0 again."""
    nxt = np.zeros((2, 2, 2, 1))
    values, later = np.array([[0.0, 0.0]]), np.array([[[5.0, reference.NEG]]])
    args = (nxt, values, np.zeros((0, 2), dtype=np.int64), np.zeros(2, dtype=np.int64),
            np.array([1.0, 1.0]), np.ones(2), 0.0, np.ones(2), 1, 1)
    bump, reset = np.array([[1, 1]]), np.array([0, 0])
    drawn, best = kernel.held_step(*args, np.array([0, 1]), later, bump, reset)
    assert drawn[0, 0, 0, 0] == 5.0 and drawn[1, 0, 0, 0] == 4.0  # housed in turn 2: +5
    assert drawn[0, 1, 0, 0] == 0.0 and drawn[1, 1, 0, 0] == -1.0  # in turn 2 itself: 0
    assert best[1, 0, 0, 0] == 4.0 and best[1, 1, 0, 0] == -1.0
    assert best[0, 0, 0, 0] == 5.0
    plain = reference.held_step(*args, np.array([0, 1]), later, bump, reset)
    assert all(np.array_equal(a, b) for a, b in zip((drawn, best), plain, strict=True))


@st.composite
def releases(draw) -> tuple:
    """A random item's draws from every state of a branch's counts times the subsets of W
    waiting cards: the values of the draws (some NEG), the cards' housing values by part and
    turn, and the state each part before the last leads to (the same subset, -1: closed)."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    W, C, K = draw(st.integers(0, 3)), draw(st.integers(1, 3)), draw(st.integers(0, 2))
    T, J, H = draw(st.integers(1, 6)), draw(st.integers(1, 6)), draw(st.integers(1, 4))
    S = 1 << W
    drawn = _values(draw, rng, (C * S, T, J, H))
    upto = rng.normal(scale=10, size=(W, K + 1, T)).round(1)
    counts = rng.integers(-1, C, size=(K, C))
    succ = np.where(counts[:, :, None] >= 0, counts[:, :, None] * S + np.arange(S), -1)
    return drawn, upto, succ.reshape(K, C * S), draw(resets(C * S))


@settings(max_examples=200, deadline=None)
@given(releases())
def test_waiting_release_equals_the_reference(item):
    fast, plain = kernel.waiting_release(*item), reference.waiting_release(*item)
    assert all(np.array_equal(a, b) for a, b in zip(fast, plain, strict=True))


def _stale(shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Two arrays full of what a kernel must overwrite (a caller's kept arrays)."""
    return np.full(shape, np.nan), np.full(shape, 7.0)


@settings(max_examples=100, deadline=None)
@given(many_draws())
def test_held_step_writes_every_value_into_the_arrays_given(item):
    """With ``out`` (a caller's kept arrays, :mod:`solvers.lemuria.scratch`), the same values
    as fresh arrays, written over whatever the arrays held, and those arrays returned."""
    out = _stale(item[0].shape)
    fast = kernel.held_step(*item, out=out)
    assert fast[0] is out[0] and fast[1] is out[1]
    plain = reference.held_step(*item)
    assert all(np.array_equal(a, b) for a, b in zip(fast, plain, strict=True))
    twin = reference.held_step(*item, out=_stale(item[0].shape))  # the twin takes out too
    assert all(np.array_equal(a, b) for a, b in zip(twin, plain, strict=True))


@settings(max_examples=100, deadline=None)
@given(releases())
def test_waiting_release_writes_every_value_into_the_arrays_given(item):
    out = _stale(item[0].shape)
    fast = kernel.waiting_release(*item, out=out)
    assert fast[0] is out[0] and fast[1] is out[1]
    plain = reference.waiting_release(*item)
    assert all(np.array_equal(a, b) for a, b in zip(fast, plain, strict=True))
    twin = reference.waiting_release(*item, out=_stale(item[0].shape))
    assert all(np.array_equal(a, b) for a, b in zip(twin, plain, strict=True))


def _bad_outputs(nxt: np.ndarray) -> list:
    shape = nxt.shape
    one = np.empty(shape)
    read_only = np.empty(shape)
    read_only.flags.writeable = False
    return [np.empty(shape), [one, np.empty(shape)], (one,), (one, np.empty(shape[1:])),
            (one, np.empty(shape, dtype=np.float32)),
            (one, np.empty((*shape[:-1], 2 * shape[-1]))[..., ::2]), (one, read_only),
            (one, one), (one, nxt)]


def test_the_arrays_given_to_write_are_checked():
    """``out`` must be two writeable C-contiguous float64 arrays of the input's shape that
    share no memory with each other or an input the kernel reads while it writes."""
    args = [*_good_draws(), np.ones((1, 2, 2)), np.array([[1, 2, 2]])]
    for bad in _bad_outputs(args[0]):
        with pytest.raises(LumicoreError, match="out"):
            kernel.held_step(*args, out=bad)
    drawn, upto = np.zeros((4, 1, 3, 1)), np.zeros((2, 1, 1))
    for bad in _bad_outputs(drawn):
        with pytest.raises(LumicoreError, match="out"):
            kernel.waiting_release(drawn, upto, np.zeros((0, 4), dtype=np.int64), out=bad)


def test_out_may_not_share_memory_with_any_array_the_kernel_reads():
    """The per-turn prices (``pg``, ``pf``, ``discard``) and the int arrays are read while
    ``out`` is written too: a price that is a view of ``out`` changed under the kernel and gave
    other values than the reference on the same prices (it was let through)."""
    args = [*_good_draws(), np.ones((1, 2, 2)), np.array([[1, 2, 2]])]
    for position in (4, 5, 7):      # pg, pf, discard: (T,) = (2,) views into out[0]
        out = (np.zeros(args[0].shape), np.zeros(args[0].shape))
        bad = list(args)
        bad[position] = out[0].reshape(-1)[5:7]
        bad[position][:] = [1.0, 2.0]
        with pytest.raises(LumicoreError, match="share memory"):
            kernel.held_step(*bad, out=out)
    for position in (3, 10):        # least, pending: int64 views of out's memory
        out = (np.zeros(args[0].shape), np.zeros(args[0].shape))
        bad = list(args)
        bad[position] = out[1].reshape(-1).view(np.int64)[:3]
        bad[position][:] = args[position]
        with pytest.raises(LumicoreError, match="share memory"):
            kernel.held_step(*bad, out=out)
    drawn, upto = np.zeros((4, 1, 3, 1)), np.zeros((2, 1, 1))
    out = (np.zeros(drawn.shape), np.zeros(drawn.shape))
    reset = out[0].reshape(-1).view(np.int64)[:4]
    reset[:] = np.arange(4)
    with pytest.raises(LumicoreError, match="share memory"):
        kernel.waiting_release(drawn, upto, np.zeros((0, 4), dtype=np.int64), reset, out=out)


def test_the_doors_name_arguments_of_the_wrong_kind():
    """Text or complex arrays, a food beyond a float, an array for ``must`` or ``remodel``
    reached numpy (its ValueError, OverflowError or a silently dropped imaginary part); each
    is now a LumicoreError naming the argument."""
    args = [*_good_draws(), np.ones((1, 2, 2)), np.array([[1, 2, 2]])]
    for position, value, match in [(4, np.array(["a", "b"]), "pg must be"),
                                   (1, np.ones((2, 2), dtype=complex), "values must be"),
                                   (0, np.zeros((3, 2, 3, 4), dtype=object), "nxt must be"),
                                   (6, 10**400, "food must be"), (6, "1", "food must be"),
                                   (9, np.array([1, 1]), "must must be"),
                                   (9, 1.0, "must must be")]:
        bad = list(args)
        bad[position] = value
        with pytest.raises(LumicoreError, match=match):
            kernel.held_step(*bad)
    rng = np.random.default_rng(0)
    nxt, succ = rng.normal(size=(3, 9, 16)), np.zeros((4, 6), dtype=np.int64)
    gains, bonus = rng.normal(size=(4, 4, 5)), rng.normal(size=16)
    for remodel in (np.array([True, False]), "yes", 1):
        with pytest.raises(LumicoreError, match="remodel must be"):
            kernel.building_turn(nxt, succ, gains, -1, remodel, bonus, 3)
    assert kernel.building_turn(nxt, succ, gains, -1, np.bool_(True), bonus, 3).shape == (4, 9, 16)


def test_a_waiting_card_is_housed_at_most_once_and_then_counts():
    """Two waiting cards (states 0-3: the subset): housing both from state 3 adds both values
    and two residents; state 0 has none to house."""
    drawn = np.full((4, 1, 3, 1), -100.0)
    drawn[0, 0, 2, 0] = 0.0
    upto = np.array([[[5.0]], [[7.0]]])
    closed, best = kernel.waiting_release(drawn, upto, np.zeros((0, 4), dtype=np.int64))
    assert closed[3, 0, 0, 0] == 12.0 and closed[1, 0, 1, 0] == 5.0
    assert closed[2, 0, 1, 0] == 7.0 and closed[0, 0, 0, 0] == -100.0
    assert np.array_equal(best, closed)


def _good_release():
    """Two counts times the subsets of one waiting card (state = count * 2 + subset)."""
    return [np.zeros((4, 2, 3, 2)), np.zeros((1, 2, 2)), np.array([[2, -1, 2, 3]]),
            np.array([0, 1, 0, 1])]


@pytest.mark.parametrize("position,value,match", [
    (0, np.zeros((4, 2, 3)), "drawn must be a 4-dimensional"),
    (0, np.zeros((4, 0, 3, 2)), "each at least 1"),
    (0, np.zeros((3, 2, 3, 2)), "upto must be"),
    (1, np.zeros((1, 2, 3)), "upto must be"),
    (1, np.zeros((9, 2, 2)), "upto must be"),
    (2, np.array([[2, -1, 2]]), "succ must be"),
    (2, np.array([[2, -2, 2, 3]]), "states -1..3"),
    (2, np.array([[2, -1, 4, 3]]), "states -1..3"),
    (2, np.array([[1, -1, 2, 3]]), "keep each state's subset"),
    (2, np.array([[2.0, -1, 2, 3]]), "whole numbers"),
    (3, np.array([0, 1, 4, 3]), "reset must be"),
    (3, np.array([1, 2, 2, 3]), "their own reset"),
])
def test_the_waiting_release_door_rejects_bad_arrays(position, value, match):
    _rejects(kernel.waiting_release, _good_release(), position, value, match)


DOORS = {  # door -> its good arguments, and where each array of values among them stands
    "building_turn": (_good, {"nxt": 0, "gains": 2, "bonus": 5}),
    "held_draw": (lambda: [*_good_draw(), np.zeros((2, 3, 4)), np.ones(2)],
                  {"nxt": 0, "bf": 1, "pg": 2, "pf": 3, "discard": 5, "nxt2": 8, "bf2": 9}),
    "held_step": (lambda: [*_good_draws(), np.ones((1, 2, 2)), np.array([[1, 2, 2]])],
                  {"nxt": 0, "values": 1, "pg": 4, "pf": 5, "discard": 7, "housings": 11}),
    "waiting_release": (_good_release, {"drawn": 0, "upto": 1}),
}


@pytest.mark.parametrize("door,name", [(door, name) for door, (_, where) in DOORS.items()
                                       for name in where])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_the_doors_reject_nan_and_infinity_naming_the_array(door, name, bad):
    """A NaN or an infinity reached C, where the kernel's comparisons and its twin's numpy
    parted ways (a NaN among the values: other results, or none in the same place). Each is now
    a LumicoreError naming the array, the value and where it stands."""
    make, where = DOORS[door]
    args = make()
    array = np.array(args[where[name]], dtype=float)
    array.reshape(-1)[-1] = bad
    last = tuple(int(i) - 1 for i in array.shape)
    message = f"{name} must hold finite numbers, got {bad} at {last if len(last) > 1 else last[0]}"
    _rejects(getattr(kernel, door), args, where[name], array, re.escape(message))
