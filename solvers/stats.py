"""Small statistics shared by win rates, tournaments and win probabilities.

>>> low, high = wilson(50, 100)
>>> round(low, 3), round(high, 3)
(0.404, 0.596)
>>> wilson(0, 0)
(0.0, 1.0)
"""

from __future__ import annotations

import math

__all__ = ["wilson"]


def wilson(successes: int, trials: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a success rate; (0, 1) with no trials."""
    if trials <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= trials:
        raise ValueError(f"successes {successes} not in 0..{trials}")
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)
