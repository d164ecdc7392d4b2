"""The Cython step of the bound's building program against the plain-Python reference on random
arrays (hypothesis), on the real arrays of default years, and its door rejecting bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lumicore.errors import LumicoreError
from lumicore.lemuria import default_instance, kernel, reference
from solvers.lemuria import bound


@st.composite
def turns(draw) -> tuple:
    """A random turn: next-turn values (some states unreachable: NEG), successors (-1 where a
    slot is empty), gains, an option restriction, remodels or not, bonuses, the admin bit."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    rows, after, facilities = draw(st.integers(0, 6)), draw(st.integers(1, 6)), draw(
        st.integers(2, 9))
    nxt = rng.normal(scale=20, size=(after, facilities, 16)).round(draw(st.sampled_from([0, 3])))
    nxt[rng.random(nxt.shape) < draw(st.sampled_from([0.0, 0.3]))] = reference.NEG
    succ = rng.integers(-1, after, size=(rows, 6))
    succ[:, 0] = rng.integers(0, after, size=rows)
    gains = rng.normal(scale=10, size=(4, rows, 5)).round(1)
    only = draw(st.integers(-1, 5))
    return (nxt, succ, gains, only, draw(st.booleans()), rng.normal(size=16).round(2),
            draw(st.integers(0, 3)))


@settings(max_examples=300, deadline=None)
@given(turns())
def test_building_turn_equals_the_reference(turn):
    fast = kernel.building_turn(*turn)
    plain = reference.building_turn(*turn)
    assert fast.shape == plain.shape
    assert np.array_equal(fast, plain)


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
    (2, np.zeros((4, 2, 5)), "gains must be"),
    (3, 6, "only must be"),
    (3, True, "only must be"),
    (5, np.zeros(15), "bonus"),
    (6, 4, "admin must be"),
])
def test_the_door_rejects_bad_arrays(position, value, match):
    args = _good()
    kernel.building_turn(*args)
    args[position] = value
    with pytest.raises(LumicoreError, match=match):
        kernel.building_turn(*args)
