"""Large neighbourhood search around a Lemuria plan: fix the decisions of most turns to the
incumbent's and let CP-SAT re-solve a window of a few consecutive turns from the incumbent (its
complete hint, a solution of the neighbourhood), keeping a strictly better year; repeat over
windows until the time is up.

The decisions of a turn are the build literals (slot, chit district, remodel, discarded
facility), the character draws, plays and give-backs of that turn, and where the characters
played outside the window live. Everything else (the Trend rows, resources, festivals) follows
from them in the model, so a neighbourhood is the incumbent's year with the window left open.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from ortools.sat.python import cp_model

from lumicore.checks import check_int, check_real, check_seed, check_type
from solvers.lemuria.model import VP_RANGE, YearModel, _fix, _hint_all, check_values, check_year
from solvers.lemuria.search import Watch, check_maker, check_watch, make_checked, solve_watched

__all__ = ["turn_literals", "neighbourhood", "improve", "WINDOWS", "SECONDS_PER_TURN"]

WINDOWS = (4, 6, 8)
"""Turns re-solved at once: the first size, then wider ones after a round without gain."""
SECONDS_PER_TURN = 1.0
"""Time limit of one neighbourhood's solve per turn of its window."""


def turn_literals(year: YearModel, t: int) -> list[cp_model.IntVar]:
    """The decision literals of turn ``t`` (without the housing literals).

    >>> from lumicore.lemuria import default_instance
    >>> year = YearModel(default_instance(0, turns=2))
    >>> len(turn_literals(year, 1)) > 0
    True
    >>> turn_literals(year, 3)
    Traceback (most recent call last):
    ...
    lumicore.errors.LumicoreError: t must be a turn of the year, from 1 to 2, got '3'
    """
    check_int(t, "t", 1, check_year(year).T, what=f"a turn of the year, from 1 to {year.T}")
    return _turn_literals(year, t)


def _turn_literals(year: YearModel, t: int) -> list[cp_model.IntVar]:
    lits = list(year.bs[t]) + list(year.chit[t].values())
    rem = year.rem[t]
    if rem is not None:
        lits.append(rem)
    lits += [x for (_f, d), x in year.disc.items() if d == t]
    for table in (year.dt, year.bk, year.xs, year.xo, year.pn, year.po, year.go):
        lits += [x for (_i, u), x in table.items() if u == t]
    return lits


def neighbourhood(year: YearModel, values: list[int], window: range, floor: int
                  ) -> cp_model.CpModel:
    """A copy of the model with every turn outside ``window`` fixed to ``values`` (the
    incumbent, by variable index: a whole solution of ``year``), the homes of characters
    played outside the window kept, the cut ``VP >= floor`` and ``values`` as its complete
    hint. :func:`improve` asks for ``floor`` = the incumbent's VP, so the hint is a solution of
    the neighbourhood: a hint that its own model excludes is what sets off OR-Tools 9.15's
    presolve fault google/or-tools#5288 (a hinted value outside its domain)."""
    values = check_values(check_year(year).m, values)
    check_type(window, range, "window", "a range of turns")
    return _neighbourhood(year, values, window, check_int(floor, "floor", *VP_RANGE))


def _neighbourhood(year: YearModel, values: list[int], window: range, floor: int
                   ) -> cp_model.CpModel:
    model = year.m.clone()
    fixed = [x for t in year.turns if t not in window for x in _turn_literals(year, t)]
    play_turn = {}
    for i in range(year.H + year.K):
        turns = [t for t in year.turns if any(
            values[x.index] for x in _plays(year, i, t))]
        play_turn[i] = turns[0] if turns else None
    fixed += [x for (i, f), x in year.hz.items()
              if f not in window and play_turn[i] is not None and play_turn[i] not in window]
    for x in fixed:
        _fix(model, x, values[x.index])
    model.add(sum(year.parts.values()) >= floor)
    _hint_all(model, values)
    return model


def _plays(year: YearModel, i: int, t: int) -> list[cp_model.IntVar]:
    out = [year.po[i, t]]
    if i >= year.H:
        out.append(year.pn[i - year.H, t])
    return out


def improve(year: YearModel, values: list[int], vp: int, watch: Watch, deadline: float,
            make_solver: Callable[[float], cp_model.CpSolver], seed: int = 0,
            windows: tuple[int, ...] = WINDOWS) -> cp_model.CpSolver | None:
    """Improve the plan given by ``values`` (of every variable of ``year``, scoring ``vp``) by
    re-solving windows of turns in a seeded random order until ``deadline``
    (``time.perf_counter()``) or Ctrl-C; returns the solver holding the best plan found, or
    None. Windows have ``windows[0]`` turns; after a whole round of them without a better plan
    the next size is tried (a better plan goes back to the first size), and when the widest
    size has had a round without a better plan the search stops. ``make_solver(seconds)``
    builds the solver of one neighbourhood."""
    values = check_values(check_year(year).m, values)
    vp = check_int(vp, "vp", *VP_RANGE)
    check_watch(watch)
    deadline = check_real(deadline, "deadline", "a finite time.perf_counter() reading")
    check_maker(make_solver)
    check_type(windows, tuple, "windows", "a tuple of window widths")
    for k, width in enumerate(windows):
        check_int(width, f"windows[{k}]", 1, what="a width of at least 1 turn")
    rng = random.Random(check_seed(seed))
    best = None
    level = 0
    while not watch.over and level < len(windows):
        width = min(windows[level], year.T)
        starts = list(range(1, year.T - width + 2))
        rng.shuffle(starts)
        improved = False
        for a in starts:
            left = deadline - time.perf_counter()
            if left < 0.5 or watch.over:
                return best
            model = _neighbourhood(year, values, range(a, a + width), vp)
            sub = make_checked(make_solver, min(left, SECONDS_PER_TURN * width))
            code = solve_watched(sub, model, watch, bounds=False)
            if code in (cp_model.OPTIMAL, cp_model.FEASIBLE) and sub.objective_value > vp:
                best, vp = sub, int(round(sub.objective_value))
                values = list(sub.response_proto.solution)
                improved = True
        level = 0 if improved else level + 1
    return best
