"""The plain-Python statement of the rules the Cython kernel (``ext/lumen.pyx``) computes fast.

A command sheet here is a list ``values`` (``None`` for an empty bubble, else the written value)
and ``neighbors`` (for each bubble, the indices of the bubbles next to it). Two written
neighbours are *linked* as identical when their values are equal and as a sequence when they
differ by exactly 1. A bubble "is in a group of 2 or more" when it has a linked neighbour.

>>> values = [4, None, 4]
>>> neighbors = [(1,), (0, 2), (1,)]
>>> gains(values, neighbors, 1, 4)
(3, 0)
>>> gains(values, neighbors, 1, 5)
(0, 3)
>>> legal_cells(values, neighbors)
[1]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["linked", "gains", "legal_cells", "strength_sums"]


def linked(a: int, b: int, kind: str) -> bool:
    """Whether two written values are linked as ``"identical"`` or ``"sequence"``."""
    return a == b if kind == "identical" else abs(a - b) == 1


def _in_group(values: Sequence[int | None], neighbors: Sequence[Sequence[int]], i: int,
              kind: str) -> bool:
    v = values[i]
    return v is not None and any((w := values[j]) is not None and linked(v, w, kind)
                                 for j in neighbors[i])


def gains(values: Sequence[int | None], neighbors: Sequence[Sequence[int]], cell: int,
          value: int) -> tuple[int, int]:
    """``(identical, sequence)``: for each kind, how many bubbles are in a group of 2 or more
    after ``value`` is written in the empty bubble ``cell`` and were not before (the new bubble
    included)."""
    after = list(values)
    after[cell] = value
    result = []
    for kind in ("identical", "sequence"):
        result.append(sum(1 for i in range(len(values))
                          if _in_group(after, neighbors, i, kind)
                          and not _in_group(values, neighbors, i, kind)))
    return result[0], result[1]


def legal_cells(values: Sequence[int | None], neighbors: Sequence[Sequence[int]]) -> list[int]:
    """The empty bubbles a value may be written in: any on an empty sheet, otherwise those next
    to a written one."""
    if all(v is None for v in values):
        return list(range(len(values)))
    return [i for i, v in enumerate(values)
            if v is None and any(values[j] is not None for j in neighbors[i])]


def strength_sums(units: Sequence[Sequence[Sequence[int]]],
                  strengths: Sequence[int]) -> list[list[int]]:
    """Each player's strength in each territory: ``units[t][p][k]`` counts player ``p``'s units
    of kind ``k`` in territory ``t`` (both sides together), ``strengths[k]`` is the kind's
    strength. Returns ``sums[t][p]``.

    >>> strength_sums([[[2, 1], [0, 0]], [[0, 0], [1, 1]]], [2, 3])
    [[7, 0], [0, 5]]
    """
    return [[sum(n * s for n, s in zip(side, strengths, strict=True)) for side in territory]
            for territory in units]


_MASK = (1 << 64) - 1


def splitmix64(state: int) -> tuple[int, int]:
    """One step of the splitmix64 generator: ``(new state, output)``.

    >>> splitmix64(0)[1]
    16294208416658607535
    """
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def _chance_weights(state: Any) -> list[int]:
    """Integer weights of the outcomes of a chance node (probability times its denominator)."""
    denominator = {"first": 2, "roll": 36, "draw": sum(state.bag[state.actor]),
                   "bonus": sum(state.bonus_pool), "objective": len(state.objective_pool)}
    return [round(p * denominator[state.phase]) for _, p in state.chance_outcomes()]


def random_game(state: Any, seed: int) -> tuple[list[int], int, int, int, int]:
    """Play a clone of the Lumen ``GameState`` ``state`` to its end with splitmix64 choices
    from ``seed``: at a decision, action ``r % n``; at a chance node, outcome ``i`` where
    ``r % total`` falls in the cumulative integer weights. Returns the actions, the winner (-1
    for nobody), both scores and the last round: what the kernel's ``random_game`` must give."""
    state = state.clone()
    rng = seed & _MASK
    while not state.is_terminal():
        rng, r = splitmix64(rng)
        if state.is_chance_node():
            weights = _chance_weights(state)
            x = r % sum(weights)
            action = 0
            while x >= weights[action]:
                x -= weights[action]
                action += 1
        else:
            action = r % len(state.legal_actions())
        state.apply_action(action)
    w = state.winner()
    return (state.history, -1 if w is None else w, state.score(0).total, state.score(1).total,
            state.round)
