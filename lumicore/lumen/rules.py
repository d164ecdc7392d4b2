"""Strength, control and final scoring on a map of units.

Units on the map are ``units[t][p]``: for territory ``t`` and player ``p`` a list of ``2 * K``
counts, ``[2 * k]`` the active units of kind ``k`` and ``[2 * k + 1]`` the inactive ones (both
sides have the same chevrons, so the same strength).

>>> from lumicore.lumen.units import load_board
>>> board = load_board()
>>> units = [[[0] * 14, [0] * 14] for _ in range(2)]
>>> units[0][0][0] = 2; units[0][1][2] = 1; units[1][1][2] = 1
>>> strengths(units, board), controllers(units, board)
([[4, 3], [0, 3]], [0, 1])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lumicore.checks import check_int, check_type, is_integer
from lumicore.data import shorten
from lumicore.errors import LumicoreError
from lumicore.lumen import reference
from lumicore.lumen.map import Map
from lumicore.lumen.units import Board

__all__ = ["side_strengths", "strengths", "controllers", "Score", "score"]

Units = Sequence[Sequence[Sequence[int]]]


def side_strengths(board: Board) -> tuple[int, ...]:
    """The strength of each of the ``2 * K`` counts (active and inactive of each kind)."""
    check_type(board, Board, "board", "a lumicore.lumen.Board (see load_board)")
    return tuple(u.strength for u in board.units for _ in (0, 1))


def strengths(units: Units, board: Board) -> list[list[int]]:
    """Each player's total strength in each territory: ``result[t][p]``."""
    per_count = side_strengths(board)
    try:
        return reference.strength_sums(units, per_count)
    except (TypeError, ValueError):  # checked when the sums fail: the game calls this each turn
        raise LumicoreError(f"units must be units[t][p] lists of {len(per_count)} unit counts, "
                            f"got {shorten(units)}") from None


def controllers(units: Units, board: Board) -> list[int]:
    """Who controls each territory: the player with the higher strength, -1 on a tie (and when
    the territory is empty)."""
    return [0 if a > b else 1 if b > a else -1 for a, b in strengths(units, board)]


@dataclass(frozen=True)
class Score:
    """One player's VP by source; ``total`` is their sum."""

    territories: int
    discovery: int
    secrets: int
    objectives: int

    @property
    def total(self) -> int:
        return self.territories + self.discovery + self.secrets + self.objectives


def score(player: int, units: Units, board: Board, game_map: Map,
          discovery: Sequence[int], secrets: int, objectives: Sequence[int],
          owners: Sequence[int] | None = None) -> Score:
    """``player``'s VP if the game ended now: the territories they control (by season),
    discovery tokens they took, Secrets and objective tokens. ``owners`` (the controller of
    each territory, -1 for nobody) is computed from ``units`` when not given.

    >>> from lumicore.lumen.map import load_map
    >>> from lumicore.lumen.units import load_board
    >>> m = load_map("A")
    >>> units = [[[0] * 14, [0] * 14] for _ in m.territories]
    >>> units[4][0][0] = 1  # a Shroomling of player 1 alone in the spring centre
    >>> score(0, units, load_board(), m, [3], 1, [5]).total
    17
    """
    check_type(game_map, Map, "game_map", "a lumicore.lumen Map (see load_map)")
    if owners is None and (not hasattr(units, "__len__") or len(units) != len(game_map.vp)):
        raise LumicoreError(f"units must give the units of each of the {len(game_map.vp)} "
                            f"territories, got {shorten(units)}")
    owned = controllers(units, board) if owners is None else owners
    for name, counts in (("discovery", discovery), ("objectives", objectives), ("owners", owned)):
        if isinstance(counts, (str, bytes)) or not isinstance(counts, Sequence) \
                or not all(is_integer(n) for n in counts):
            raise LumicoreError(f"{name} must be a list of integers, got {shorten(counts)}")
    if len(owned) != len(game_map.vp):
        raise LumicoreError(f"owners must give the controller of each of the "
                            f"{len(game_map.vp)} territories, got {shorten(owned)}")
    check_int(secrets, "secrets", 0)
    land = sum(vp for vp, who in zip(game_map.vp, owned, strict=True) if who == player)
    return Score(land, sum(discovery), secrets * board.secret_vp, sum(objectives))
