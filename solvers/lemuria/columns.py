"""The restricted master problem of :mod:`solvers.lemuria.bound`'s Lagrangian relaxation,
solved by column generation (Dantzig-Wolfe): the exact minimum over the multipliers, where the
subgradient steps only approach it.

A *column* is one relaxed year of one side, as the dynamic programs return it for some
multipliers: its VP without the multiplier terms (``raw``) and what it does (``plan``:
resources spent and gained per turn, facilities built, residents housed, facilities owned).
The master chooses a convex combination of the building side's columns and one of the character
side's columns that satisfies the coupled constraints on average (resources never negative,
residents housed at most facilities built, festival VP at most 3 per housed facility); its
duals are the next multipliers. The master's value is never more than the least bound any
multipliers give (linear programming duality), so when the bound found meets it, no
multipliers can do better.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from ortools.linear_solver import pywraplp

from lumicore.checks import check_array, check_int, check_type
from lumicore.data import shorten
from lumicore.errors import LumicoreError

__all__ = ["Column", "Master", "BARRED", "EMPTY"]

BARRED = 1e4
"""The VP an empty year costs the master where it is not a relaxed year (a year scores at most
a few hundred VP, so a mix with a feasible year never uses it)."""

EMPTY = 2
"""Every master starts with the empty year of each side (its own, priced for its choices):
the first ``EMPTY`` of its columns."""


@dataclass
class Column:
    """One side's relaxed year: ``raw`` VP (without multiplier terms) and its ``plan`` (an
    object with ``spend``, ``gain`` (4, T), ``built``, ``housed`` (T, 4) and ``owned`` (T,)
    arrays)."""

    raw: float
    plan: Any
    entries: tuple[list[int], list[float]] | None = field(default=None, repr=False,
                                                          compare=False)
    """Its nonzero coefficients in a master's rows, (row numbers, values), worked out once
    (branch and bound nodes start their masters with their parent's columns)."""


class Master:
    """The restricted master LP (GLOP). ``start[r, t]``: resource r the instance gives by the
    end of turn t (0-based); ``festivals``: the 0-based festival turns; ``empty``: the plan of
    the empty year (nothing built, nobody housed), a column of each side, so the master is
    always feasible. ``barred``: the sides whose empty year is not among the relaxed years (a
    branch fixed a build or a housing): their empty column costs ``BARRED`` VP, more than any
    year is worth, so the master uses it only while nothing else is feasible and its value
    stays a floor of the relaxed years it may mix."""

    SIDES = ("building", "characters")
    """The two sides of the relaxation, each with its convex row."""

    def __init__(self, start: np.ndarray, festivals: list[int], empty: Any,
                 barred: tuple[str, ...] = ()) -> None:
        check_array(start, "start", (4, None))
        T = start.shape[1]
        check_type(festivals, (list, tuple), "festivals", "a list of 0-based festival turns")
        festivals = [check_int(f, f"festivals[{k}]", 0, T - 1) for k, f in enumerate(festivals)]
        check_plan(empty, T, "empty")
        check_type(barred, tuple, "barred", f"a tuple of sides {self.SIDES}")
        for side in barred:
            if side not in self.SIDES:
                raise LumicoreError(f"barred must name sides of {self.SIDES}, got "
                                    f"{shorten(side)}")
        self.start, self.festivals = start, festivals
        self.added: list[tuple[str, Column]] = []
        self.weights: list[float] = []
        """The weight of each column in the last solution (``added``'s order; updated in
        place)."""
        self._build()
        for side in self.convex:
            self.add(side, Column(-BARRED if side in barred else 0.0, empty))

    def _build(self) -> None:
        """A new LP with the rows and no columns."""
        start, T = self.start, self.start.shape[1]
        self.T = T
        self.solver = s = pywraplp.Solver.CreateSolver("GLOP")
        inf = s.infinity()
        self.resources = [[s.Constraint(-inf, float(start[r, t])) for t in range(T)]
                          for r in range(start.shape[0])]
        self.housing = [[s.Constraint(-inf, 0.0) for _ in range(T)] for _ in range(4)]
        self.objective = s.Objective()
        self.objective.SetMaximization()
        self.by_facilities: dict[int, Any] = {}
        self.by_residents: dict[int, Any] = {}
        for f in self.festivals:  # h_F <= facilities owned, h_F <= residents housed; 3 VP each
            h = s.NumVar(0.0, inf, f"festival{f}")
            self.objective.SetCoefficient(h, 3.0)
            for table in (self.by_facilities, self.by_residents):
                table[f] = s.Constraint(-inf, 0.0)
                table[f].SetCoefficient(h, 1.0)
        self.convex = {side: s.Constraint(1.0, 1.0) for side in self.SIDES}
        self.variables: list[Any] = []
        self.rows = ([c for row in self.resources for c in row]
                     + [c for row in self.housing for c in row]
                     + list(self.by_facilities.values()) + list(self.by_residents.values()))
        """Every coupling row, in the order of :attr:`Column.entries`."""

    def add(self, side: str, column: Column) -> None:
        """Add a column of ``side`` ("building" or "characters")."""
        self.added.append((side, column))
        self.variables.append(self._column(side, column))

    def _column(self, side: str, column: Column) -> Any:
        var = self.solver.NumVar(0.0, self.solver.infinity(), f"{side}{len(self.added)}")
        self.objective.SetCoefficient(var, float(column.raw))
        self.convex[side].SetCoefficient(var, 1.0)
        if column.entries is None:
            column.entries = self._entries(side, column.plan)
        rows = self.rows
        for k, value in zip(*column.entries, strict=True):
            rows[k].SetCoefficient(var, value)
        return var

    def _entries(self, side: str, p: Any) -> tuple[list[int], list[float]]:
        """A plan's coefficients in :attr:`rows`: resources used by the end of each turn,
        residents housed less facilities built by each turn, and the facilities owned (the
        building side) or residents housed at each festival."""
        F = len(self.festivals)
        if side == "building":
            use = -np.cumsum(p.gain - p.spend, axis=1)
            filled, count = -np.cumsum(p.built, axis=0), p.owned
            festival = np.concatenate([-count[self.festivals], np.zeros(F)])
        else:
            use = np.cumsum(p.spend, axis=1)
            filled, count = np.cumsum(p.housed, axis=0), p.housed.sum(axis=1).cumsum()
            festival = np.concatenate([np.zeros(F), -count[self.festivals]])
        values = np.concatenate([use.ravel(), filled.T.ravel(), festival]).astype(float)
        rows = np.flatnonzero(values)
        return rows.tolist(), values[rows].tolist()

    def solve(self) -> tuple[float, np.ndarray, np.ndarray, np.ndarray] | None:
        """The master's value and its duals as multipliers ``(mu (4, T), lam (T, 4), fest
        (T,))``; None if GLOP does not solve it (the caller keeps the bound it has). GLOP's
        warm start from the last basis can end abnormally on a small LP that it solves from
        scratch: then the LP is built anew once."""
        if self.solver.Solve() != pywraplp.Solver.OPTIMAL:
            self._build()
            self.variables = [self._column(side, column) for side, column in self.added]
            if self.solver.Solve() != pywraplp.Solver.OPTIMAL:
                return None
        self.weights[:] = [var.solution_value() for var in self.variables]
        mu = np.array([[max(0.0, c.dual_value()) for c in row] for row in self.resources])
        lam = np.array([[max(0.0, c.dual_value()) for c in row] for row in self.housing]).T
        fest = np.zeros(self.T)
        for f, row in self.by_facilities.items():
            fest[f] = min(3.0, max(0.0, row.dual_value()))
        return self.objective.Value(), mu, lam, fest


PLAN_SHAPES = {"spend": (4, None), "gain": (4, None), "built": (None, 4), "housed": (None, 4),
               "owned": (None,)}
"""The arrays of a column's plan and their shapes (None: the year's turns)."""


def check_plan(plan: object, turns: int, name: str = "plan") -> None:
    """:class:`LumicoreError` naming ``name`` and the field unless ``plan`` has the arrays of
    :data:`PLAN_SHAPES`, shaped for ``turns`` turns, of finite numbers."""
    for field_name, shape in PLAN_SHAPES.items():
        array = getattr(plan, field_name, None)
        check_array(array, f"{name}.{field_name}",
                    tuple(turns if n is None else n for n in shape))
