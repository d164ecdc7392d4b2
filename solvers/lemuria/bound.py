"""A fast upper bound on the VP of a Lemuria year (placeholder: the exhaustive planner's bound)."""

from __future__ import annotations

from lumicore.lemuria import Instance
from lumicore.lemuria.rules import initial_state

__all__ = ["upper_bound"]


def upper_bound(instance: Instance, time_limit: float | None = 1.0) -> float:
    """An upper bound on the VP of every legal year of ``instance``."""
    from solvers.lemuria.exhaustive import upper_bound as simple

    return float(simple(instance, initial_state(instance)))
