"""An admissible heuristic for the Lucia puzzle: a lower bound on the cards still needed.

A train's *deficits* are four numbers that must all reach zero at the goal:

- ``a``: candles Lucia still lacks (``5 - candles``);
- ``u``: ``a`` plus the unlit Handmaidens (every one of these needs a lighting);
- ``d``: how far the Starboys are from the back: the sum of the last ``m`` positions minus the
  sum of the Starboys' positions (``m`` Starboys);
- ``l``: Lucia's position (she must reach 0).

Each card has a *capacity* per deficit, an upper bound on how much one play can reduce it:

- ``light``: one lighting lights the two neighbours of one source, so Lucia gains at most one
  candle (``a``: 1) and at most two of the ``u`` items change (``u``: 2);
- ``move``/``wild`` of ``k`` steps: the moved kid changes position by ``k`` and each of the at
  most ``k`` kids it passes by one, the other way; so the Starboys' position sum grows by at most
  ``k`` (``d``: k) and Lucia moves front by ``k`` if the action may move her, else by at most one
  (a kid passing her from front to back; ``l``: k or 1);
- ``lucia``: she passes at most all Handmaidens of the train (``l``: their count); nobody else
  changes place relative to the Starboys (``d``: 0).

A multi card's capacity is the sum of its actions'. Moving Gingerbreads only *add* work (they blow
out lights), so they never help. Therefore any real sequence of ``N`` plays reaching the goal is
also a solution of the relaxed covering problem "pick ``N`` cards whose summed capacities cover
the deficits", and the fewest cards of the relaxed problem (computed exactly by dynamic
programming over all deficit vectors, :func:`build_table`) never exceeds the true distance: the
heuristic is admissible. It is also consistent: one play lowers each deficit by at most the
card's capacity and the table is monotone in every deficit. ``INF`` (255) marks deficits no cards
can cover: such a train cannot reach the goal at all.

One more proof of unreachability (``locked``): a Starboy and a Gingerbread can only change their
order when one of them moves past the other, and then the mover must pass at least one kid
after the other one (else they stand side by side before or after the move), so it needs at
least 3 steps. If no card moves a Starboy or Gingerbread 3 or more steps, a Gingerbread behind a
Starboy stays behind it forever and the goal (all Starboys at the back) is unreachable: ``INF``.
With the default deck (at most 2 steps) this holds for every train the setup deals, since the
Starboys start in front of the Gingerbreads (see docs/lucia.md).

>>> from lumicore.lucia import Train, load_deck
>>> train = Train.parse("h L3 T S H")
>>> deficits(train)
(2, 3, 1, 1)
>>> table = build_table(load_deck().kinds, train)
>>> estimate(train, table)
2
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from lumicore.checks import check_type
from lumicore.errors import LumicoreError
from lumicore.lucia.cards import Action, Card
from lumicore.lucia.notation import GINGER, H_LIT, H_UNLIT, MAX_CANDLES, STARBOY
from lumicore.lucia.train import Train, check_card, check_cards

__all__ = ["INF", "HeuristicTable", "deficits", "capacity", "build_table", "estimate",
           "gingerbread_behind_starboy", "shape", "check_shape"]

INF = 255
"""The estimate of a train that cannot reach the goal at all (the largest table value)."""


@dataclass(frozen=True, eq=False)
class HeuristicTable:
    """``values[a, u, d, l]``: fewest cards covering the deficits (uint8, INF = impossible)
    of trains of ``length`` kids, ``starboys`` of them Starboys and ``handmaidens``
    Handmaidens (lit or not; the other roles do not change the table); ``target`` is the sum
    of the Starboys' goal positions."""

    values: np.ndarray
    target: int
    length: int
    starboys: int
    handmaidens: int
    locked: bool = False
    """No card can move a Starboy past a Gingerbread or back (see the module docstring)."""

    @property
    def shape(self) -> tuple[int, int, int]:
        """``(length, starboys, handmaidens)``: the :func:`shape` of the trains it is for."""
        return self.length, self.starboys, self.handmaidens


def shape(train: Train) -> tuple[int, int, int]:
    """``(kids, Starboys, Handmaidens lit or not)`` of ``train``: what a table is built for."""
    codes = check_type(train, Train, "train", "a lumicore.lucia.Train").codes
    return len(codes), codes.count(STARBOY), codes.count(H_UNLIT) + codes.count(H_LIT)


def check_shape(train: Train, table: HeuristicTable) -> None:
    """A :class:`LumicoreError` naming ``train`` and both shapes unless ``train`` has the
    :func:`shape` ``table`` is for (its deficits would be read in a table of other sizes: a
    value of no meaning, or an IndexError).

    >>> from lumicore.lucia import load_deck
    >>> table = build_table(load_deck().kinds, Train.parse("h L3 T S H"))
    >>> table.shape, shape(Train.parse("H T L4"))
    ((5, 1, 2), (3, 0, 1))
    """
    got = shape(train)
    check_type(table, HeuristicTable, "table", "a lumicore.lucia HeuristicTable (see build_table)")
    if got != table.shape:
        raise LumicoreError(f"heuristic table is for trains of {_shape_text(*table.shape)}, got "
                            f"{train} ({_shape_text(*got)})")


def _shape_text(kids: int, starboys: int, handmaidens: int) -> str:
    return f"{kids} kids, {starboys} S and {handmaidens} H"


def deficits(train: Train) -> tuple[int, int, int, int]:
    """The deficits ``(a, u, d, l)`` of the module docstring."""
    codes = check_type(train, Train, "train", "a lumicore.lucia.Train").codes
    starboys = [p for p, c in enumerate(codes) if c == STARBOY]
    n, m = len(codes), len(starboys)
    a = MAX_CANDLES - train.candles
    target = sum(range(n - m, n))
    return a, a + codes.count(H_UNLIT), target - sum(starboys), train.lucia_position


def _action_capacity(action: Action, handmaidens: int) -> np.ndarray:
    if action.kind == "light":
        return np.array([1, 2, 0, 0])
    if action.kind == "lucia":
        return np.array([0, 0, 0, handmaidens])
    return np.array([0, 0, action.steps, action.steps if "L" in action.roles else 1])


def capacity(card: Card, handmaidens: int) -> np.ndarray:
    """Upper bounds on how much one play of ``card`` lowers each deficit ``(a, u, d, l)``."""
    check_card(card)
    return sum((_action_capacity(a, handmaidens) for a in card.actions), np.zeros(4, int))


def _shifted(values: np.ndarray, cap: Sequence[int]) -> np.ndarray:
    """``out[i] = values[max(i - cap, 0)]`` on every axis (what is left after one play)."""
    out = values
    for axis, c in enumerate(cap):
        size = values.shape[axis]
        if c == 0 or size == 1:
            continue
        c = min(int(c), size)
        moved = np.empty_like(out)
        lead = [slice(None)] * axis
        # tuple([...]): mypy takes x[(*a, b)] for 3.11's x[*a, b], which 3.10 lacks
        moved[tuple([*lead, slice(c, None)])] = out[tuple([*lead, slice(0, size - c)])]
        moved[tuple([*lead, slice(0, c)])] = out[tuple([*lead, slice(0, 1)])]
        out = moved
    return out


def build_table(cards: Sequence[Card], train: Train) -> HeuristicTable:
    """The exact relaxed distances for every deficit vector a train of this shape can have
    (the length, Starboys and Handmaidens of ``train``: the table is for such trains only)."""
    cards = check_cards("cards", cards)
    n, m, handmaidens = shape(train)
    sizes = (MAX_CANDLES + 1, MAX_CANDLES + handmaidens + 1, m * (n - m) + 1, n)
    values = np.full(sizes, INF, dtype=np.int16)
    values[0, 0, 0, 0] = 0
    distinct = {tuple(capacity(c, handmaidens)) for c in cards}
    caps = [c for c in distinct if any(c)]
    while True:
        best = values.copy()
        for cap in caps:
            np.minimum(best, _shifted(values, cap) + 1, out=best)
        np.minimum(best, INF, out=best)
        if np.array_equal(best, values):
            break
        values = best
    target = sum(range(n - m, n))
    return HeuristicTable(np.ascontiguousarray(values, dtype=np.uint8), target, n, m, handmaidens,
                          locked=not any(_passes(a) for c in cards for a in c.actions))


def _passes(action: Action) -> bool:
    """Whether the action can move a Starboy or Gingerbread past the other role."""
    return action.kind in ("move", "wild") and action.steps >= 3 and bool(
        set(action.roles) & {"S", "G"})


def gingerbread_behind_starboy(train: Train) -> bool:
    """Whether some Gingerbread stands behind some Starboy."""
    codes = check_type(train, Train, "train", "a lumicore.lucia.Train").codes
    return STARBOY in codes and GINGER in codes[codes.index(STARBOY):]


def estimate(train: Train, table: HeuristicTable) -> int:
    """The heuristic value of ``train`` (INF: the goal is unreachable), which must have the
    shape ``table`` is for (:func:`check_shape`), as the kernel's ``heuristic`` checks."""
    check_shape(train, table)
    if table.locked and gingerbread_behind_starboy(train):
        return INF
    return int(table.values[deficits(train)])
