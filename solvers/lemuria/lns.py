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

from solvers.lemuria.model import YearModel, fix_variable, hint_all
from solvers.lemuria.search import Watch, solve_watched

__all__ = ["turn_literals", "neighbourhood", "improve", "WINDOWS", "SECONDS_PER_TURN"]

WINDOWS = (4, 6, 8)
"""Turns re-solved at once: the first size, then wider ones after a round without gain."""
SECONDS_PER_TURN = 1.0
"""Time limit of one neighbourhood's solve per turn of its window."""


def turn_literals(year: YearModel, t: int) -> list[cp_model.IntVar]:
    """The decision literals of turn ``t`` (without the housing literals)."""
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
    model = year.m.clone()
    fixed = [x for t in year.turns if t not in window for x in turn_literals(year, t)]
    play_turn = {}
    for i in range(year.H + year.K):
        turns = [t for t in year.turns if any(
            values[x.index] for x in _plays(year, i, t))]
        play_turn[i] = turns[0] if turns else None
    fixed += [x for (i, f), x in year.hz.items()
              if f not in window and play_turn[i] is not None and play_turn[i] not in window]
    for x in fixed:
        fix_variable(model, x, values[x.index])
    model.add(sum(year.parts.values()) >= floor)
    hint_all(model, values)
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
    rng = random.Random(seed)
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
            model = neighbourhood(year, values, range(a, a + width), vp)
            sub = make_solver(min(left, SECONDS_PER_TURN * width))
            code = solve_watched(sub, model, watch, bounds=False)
            if code in (cp_model.OPTIMAL, cp_model.FEASIBLE) and sub.objective_value > vp:
                best, vp = sub, int(round(sub.objective_value))
                values = list(sub.response_proto.solution)
                improved = True
        level = 0 if improved else level + 1
    return best
