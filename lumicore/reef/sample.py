"""Random reefs grown by legal play, for tests, differential checks and benchmarks.

>>> reef = random_reef("A", pieces=12, seed=1)
>>> len(reef.pieces)
13
>>> random_reef("A", pieces=12, seed=1) == reef
True
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from lumicore.checks import check_real, check_seed, is_integer
from lumicore.data import shorten
from lumicore.errors import LumicoreError
from lumicore.reef.board import Board, load_board
from lumicore.reef.reef import Reef
from lumicore.reef.tiles import load_tiles

__all__ = ["random_reef", "random_start"]


def _rng(seed: int | np.random.Generator | None) -> np.random.Generator:
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(None if seed is None else check_seed(seed))


def random_start(board: Board, seed: int | np.random.Generator | None = None) -> Reef:
    """A new reef with a random starting Lumino in a random orientation."""
    rng = _rng(seed)
    start = load_tiles("default").starts[int(rng.integers(6))]
    colors = start.colors if rng.integers(2) else start.colors[::-1]
    return Reef.new(board, colors)


def random_reef(
    board: Board | str | Path = "A",
    pieces: int = 15,
    seed: int | np.random.Generator | None = None,
    limestone: int = 2,
    climb: float = 0.5,
) -> Reef:
    """Grow a reef by drawing Luminos from a shuffled default bag and placing each on a uniformly
    chosen legal placement affordable with ``limestone`` markers (a fresh budget for every
    Lumino); with probability ``climb`` the choice is among the highest-level placements only,
    which grows several levels. A Lumino that cannot be placed is skipped. Stops after ``pieces``
    placements or when the bag is empty."""
    if not is_integer(pieces) or pieces < 0:
        raise LumicoreError(f"bad piece count {shorten(pieces)} (expected an integer >= 0)")
    pieces = int(pieces)
    climb = check_real(climb, "climb", "a probability from 0 to 1", at_least=0)
    if climb > 1:
        raise LumicoreError(f"climb must be a probability from 0 to 1, got {shorten(climb)}")
    if not isinstance(board, Board):
        board = load_board(board)
    rng = _rng(seed)
    reef = random_start(board, rng)
    bag = list(load_tiles("default").luminos)
    for k in rng.permutation(len(bag)):
        if len(reef.pieces) > pieces:
            break
        options = list(reef.placements(bag[k], limestone))
        if options and rng.random() < climb:
            top = max(p.level for p in options)
            options = [p for p in options if p.level == top]
        if options:
            reef = reef.place(options[int(rng.integers(len(options)))])
    return reef
