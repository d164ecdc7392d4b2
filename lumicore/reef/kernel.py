"""The kernel door: the Cython reef kernel ``lumicore._ext.reef`` behind a checked, typed
interface. Only this module imports ``lumicore._ext``.

Everything that reaches the kernel passes through here and is validated first (cell indices,
colour / number / animal codes, limestone as a non-negative int, heights below the kernel's
ceiling), so the kernel never reads out of bounds.

- :func:`placements` is :func:`lumicore.reef.reference.placements` computed on bitboards: the same
  placements in the same order (``Reef.placements`` routes through it).
- :func:`state` gives the kernel state itself (:class:`State`: coral scores, visible counts,
  animals, penalties, features), which ``Reef``'s score methods read and searches use to walk
  placements without building a ``Reef`` per node; :func:`search_hand` is the exhaustive hand
  search used by :func:`solvers.reef.best_placement`.

>>> from lumicore.reef import Lumino, Reef, load_board, reference
>>> reef = Reef.new(load_board("A"), start=("pink", "green"))
>>> placements(reef, Lumino("blue", 2), 0) == reference.placements(reef, Lumino("blue", 2), 0)
True
>>> s = state(reef.place(reef.placement_at(Lumino("pink", 3, "crab"), (2, 5), (2, 7))))
>>> s.coral_score(0), s.visible_count(0), s.animal_counts()
(3, 3, (0, 1, 0, 0))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from lumicore._ext import reef as _kernel
from lumicore.checks import (
    check_bool,
    check_int,
    check_players,
    check_real,
    check_seed,
    check_time_limit,
    is_integer,
)
from lumicore.data import shorten
from lumicore.errors import LumicoreError, SearchLimitError
from lumicore.reef import reference
from lumicore.reef.board import Board
from lumicore.reef.values import Lumino, Placement, StartLumino, animal_code, color_code

if TYPE_CHECKING:
    from lumicore.reef.reef import Reef

__all__ = [
    "State",
    "FEATURES",
    "MAX_HEIGHT",
    "state",
    "check_height",
    "tile_codes",
    "check_limestone",
    "placements",
    "features",
    "search_hand",
    "MAX_PRICE",
    "check_price",
    "POLL_NODES",
    "playout",
    "POLICY_SALT",
]

State = _kernel.State
FEATURES: tuple[str, ...] = _kernel.FEATURES
"""Names of the kernel's features, in the order of :func:`features` and of search weights."""
MAX_HEIGHT: int = _kernel.MAX_HEIGHT
"""The kernel takes reefs up to this height (far above anything a game can build)."""
_INT_MAX = 2**31 - 1
MAX_PRICE = 1e9
"""The largest size of a search's prices: each feature weight, ``discard_cost`` and
``limestone_value``. A finite price times up to 10 markers or a feature's value could still
overflow (``limestone_value=1e308`` made every plan worth inf, "optimal" among ties); at 1e9
every plan's value is finite and keeps the 0.25 VP steps of the features."""
PRICE_RANGE = "a number from -1e9 to 1e9"


def check_price(value: object, name: str) -> float:
    """``value`` as a float if it is a real number of size at most :data:`MAX_PRICE`; else
    :class:`LumicoreError` naming ``name`` and quoting the value.

    >>> check_price(0.5, "limestone_value")
    0.5
    >>> check_price(1e308, "limestone_value")
    Traceback (most recent call last):
    ...
    lumicore.errors.LumicoreError: limestone_value must be a number from -1e9 to 1e9, got '1e+308'
    """
    number = check_real(value, name, PRICE_RANGE)
    if abs(number) > MAX_PRICE:
        raise LumicoreError(f"{name} must be {PRICE_RANGE}, got {shorten(value)}")
    return number
POLL_NODES = 32768
"""The hand search calls its ``poll`` every this many nodes (ext/reef.pyx: ``POLL_MASK + 1``), so
the calls count its nodes."""


@lru_cache(maxsize=64)
def _empty(board: Board) -> State:
    if not 1 <= len(board.cells) <= _kernel.MAX_CELLS:
        raise LumicoreError(f"board {board.name!r} has {len(board.cells)} cells, the kernel takes "
                            f"1 to {_kernel.MAX_CELLS}")
    return State(len(board.cells), board.neighbors, board.base_mask, board.water_mask,
                 board.remote_mask, board.penalty)


def _check_reef(reef: Reef) -> None:
    # duck-typed: the reef module imports this one, not the other way round
    if not isinstance(getattr(reef, "board", None), Board) or not hasattr(reef, "cell_animals"):
        raise LumicoreError(f"expected a Reef, got {shorten(reef)}")


def check_height(reef: Reef) -> None:
    """LumicoreError if ``reef`` is stacked higher than the kernel's :data:`MAX_HEIGHT` levels
    (no game reaches it; a reef built by hand may)."""
    _check_reef(reef)
    if max(reef.heights) > MAX_HEIGHT:
        raise LumicoreError(f"reef is {max(reef.heights)} levels high; the kernel takes at most "
                            f"{MAX_HEIGHT}")


def state(reef: Reef) -> State:
    """The kernel state of ``reef`` (a fresh object: the caller may change it).

    >>> from lumicore.reef import Reef, load_board
    >>> s = state(Reef.new(load_board("B"), start=("blue", "yellow")))
    >>> s.max_height, s.visible_count(2), s.remote_penalty()
    (1, 1, 12)
    """
    _check_reef(reef)
    check_height(reef)
    result = _empty(reef.board).copy()
    try:
        result.load(reef.heights, reef.top_pieces, reef.cell_colors, reef.cell_numbers,
                    reef.cell_animals, len(reef.pieces))
    except (ValueError, TypeError, OverflowError) as exc:
        raise LumicoreError(f"reef cannot be read by the kernel: {exc}") from None
    return result


def tile_codes(lumino: Lumino) -> tuple[int, int, int]:
    """``(colour code, number or 0, animal code or -1)`` of a one-colour Lumino.

    >>> tile_codes(Lumino("blue", 5, "crab"))
    (2, 5, 1)
    """
    if not isinstance(lumino, Lumino):
        raise LumicoreError(f"only a one-colour Lumino can be placed, not {lumino!r}")
    return color_code(lumino.color), lumino.number or 0, animal_code(lumino.animal)


def check_limestone(limestone: int) -> int:
    """``limestone`` as a non-negative int (capped where it no longer matters); LumicoreError for
    anything else."""
    return min(check_int(limestone, "limestone", 0), _INT_MAX)


def placements(reef: Reef, lumino: Lumino, limestone: int) -> list[Placement]:
    """Every legal placement of ``lumino`` with ``limestone`` markers: the same list as
    :func:`lumicore.reef.reference.placements`, computed on bitboards (a reef higher than
    :data:`MAX_HEIGHT` levels, which no game reaches, is handed to the reference)."""
    color, _, _ = tile_codes(lumino)
    limestone = check_limestone(limestone)
    _check_reef(reef)
    if max(reef.heights) > MAX_HEIGHT:  # beyond any real game
        return reference.placements(reef, lumino, limestone)
    found = state(reef).placements(color, limestone)
    cells = reef.board.cells
    return [Placement(lumino, cells[a], cells[b], level, cost) for a, b, level, cost in found]


def features(reef: Reef) -> dict[str, float]:
    """Every feature of :data:`FEATURES` (``remote`` is minus the penalty)."""
    return dict(zip(FEATURES, state(reef).features(), strict=True))


def search_hand(
    s: State,
    kinds: Sequence[Lumino],
    counts: Sequence[int],
    limestone: int,
    weights: Sequence[float],
    *,
    prune: bool,
    max_nodes: int | None,
    time_limit: float | None,
    discard_cost: float = 1.0,
    limestone_value: float = 0.0,
    poll: Callable[[], object] | None = None,
) -> dict[str, Any]:
    """Run the kernel's exhaustive hand search (see :func:`solvers.reef.best_placement`, which
    is the public entry point). ``kinds`` are distinct Luminos, ``counts`` how many of each.

    Every few milliseconds (:data:`POLL_NODES` nodes) the search delivers pending signals and calls
    ``poll()`` if given: a ``KeyboardInterrupt`` (Ctrl-C) or a true answer stops it with
    ``interrupted`` (and not ``complete``) and the best plan so far; an exception of the poll
    stops it and is raised."""
    if poll is not None and not callable(poll):
        raise LumicoreError(f"poll must be callable or None, got {shorten(poll)}")
    if not isinstance(s, State):
        raise LumicoreError(f"s must be a kernel State, got {shorten(s)}")
    if not _sequence(kinds) or not 1 <= len(kinds) <= _kernel.MAX_HAND:
        raise LumicoreError(f"kinds must be 1 to {_kernel.MAX_HAND} Luminos, got {shorten(kinds)}")
    if not _sequence(counts) or len(counts) != len(kinds):
        raise LumicoreError(f"counts must be one count a kind, got {shorten(counts)}")
    for c in counts:  # int() made 1.5 one tile and 0.5 none
        if not is_integer(c) or c < 0:
            raise LumicoreError(f"counts must be whole numbers >= 0, got {shorten(c)}")
    if not 1 <= sum(counts) <= _kernel.MAX_HAND:
        raise LumicoreError(f"a hand has 1 to {_kernel.MAX_HAND} Luminos: counts "
                            f"{shorten(counts)}")
    if not _sequence(weights) or len(weights) != len(FEATURES):
        raise LumicoreError(f"weights must be one weight a feature ({len(FEATURES)}), got "
                            f"{shorten(weights)}")
    weights = [check_price(w, f"the weight of {f}") for f, w in zip(FEATURES, weights, strict=True)]
    discard_cost = check_price(discard_cost, "discard_cost")
    limestone_value = check_price(limestone_value, "limestone_value")
    if prune and (any(w < 0 for w in weights) or limestone_value < 0):
        raise LumicoreError(f"the search bounds need weights >= 0 and limestone_value >= 0 (got "
                            f"{shorten(weights)} and {limestone_value}): search with prune=False")
    # the kernel reads a limit <= 0 as none: such a limit must not reach it
    if max_nodes is not None:
        max_nodes = check_int(max_nodes, "max_nodes", 1, what="a positive integer",
                              error=SearchLimitError)
    if max_nodes is not None and max_nodes >= 2**62:
        max_nodes = None
    seconds = check_time_limit(time_limit)
    return _kernel.search_hand(
        s, [tile_codes(t) for t in kinds], [int(c) for c in counts], check_limestone(limestone),
        weights, discard_cost, limestone_value, bool(prune),
        0 if max_nodes is None else int(max_nodes), 0.0 if seconds is None else seconds,
        poll,
    )


# ---- whole games -------------------------------------------------------------------------------

def _sequence(value: object) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


POLICY_SALT: int = _kernel.POLICY_SALT
"""The play-out policy's generator is seeded with ``seed ^ POLICY_SALT`` (the draws use ``seed``),
as in the reference play-outs."""


@lru_cache(maxsize=32)
def _playout(board: Board, luminos: tuple[Lumino, ...], starts: tuple[StartLumino, ...],
             players: int, emergency: int, light: bool, penalties: bool) -> Any:
    kinds = sorted(set(luminos), key=lambda t: (color_code(t.color), t.number or 0,
                                                 animal_code(t.animal)))
    counts = [sum(1 for t in luminos if t == k) for k in kinds]
    return _kernel.Playout(_empty(board), [tile_codes(k) for k in kinds], counts,
                           [(color_code(s.color_a), color_code(s.color_b)) for s in starts],
                           players, emergency, light, penalties, *board.start_cells)


def playout(players: int, seed: int, board: Board, luminos: Sequence[Lumino],
            starts: Sequence[StartLumino], emergency: int, light: bool = False,
            penalties: bool = False, count: int | None = None) -> dict | list[float]:
    """:func:`lumicore.reef.reference.playout` in the kernel (same arguments, same game; the
    ``decisions`` there are a count here). With ``count``: that many games with seeds ``seed,
    seed + 1, ...``, returning the wins per player (ties shared)."""
    players = check_players(players, 2, 4, "Lumicora")
    seed = check_seed(seed)
    if not isinstance(board, Board) or not _sequence(luminos) or not _sequence(starts) \
            or not all(isinstance(t, Lumino) for t in luminos) \
            or not all(isinstance(s, StartLumino) for s in starts):
        raise LumicoreError("a play-out needs a Board, Luminos and StartLuminos")
    # int() and bool() took 6.9 as 6 and "no" as True
    if not luminos:
        raise LumicoreError("luminos must hold the tiles to draw, got none")
    emergency = check_int(emergency, "emergency", 0, len(luminos),
                          f"an integer from 0 to the {len(luminos)} luminos")
    light, penalties = check_bool(light, "light"), check_bool(penalties, "penalties")
    try:
        games = _playout(board, tuple(luminos), tuple(starts), players, emergency, light,
                         penalties)
    except (ValueError, TypeError, OverflowError) as exc:
        raise LumicoreError(f"play-out setup refused: {exc}") from None
    if count is None:
        return games.play(seed)
    count = check_int(count, "count", 0, 2**31 - 1, "an integer in 0..2**31-1")
    return games.play_many(seed, count)
