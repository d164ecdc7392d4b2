"""The door to the Cython kernel ``lumicore._ext.lumen``, with every argument checked before it
reaches C:

- a sheet's legal bubbles and chain gains on 64-bit masks (:func:`legal_cells`, :func:`gains`,
  :func:`gains_all`) and the map's strength sums (:func:`strength_sums`): the answers of
  :mod:`lumicore.lumen.reference`, which states the rules plainly;
- the whole game loop: :func:`setup` copies a fresh game into C, :func:`random_game` /
  :func:`random_games` play it with splitmix64 choices, :func:`random_game_from` and
  :func:`playouts` play on from any position. They give the same games as
  :func:`lumicore.lumen.reference.random_game` on the Python ``GameState``.

>>> from lumicore.lumen.sheet import Sheet
>>> sheet = Sheet.parse("4 . / . 4")
>>> legal_cells(sheet), gains(sheet, 1, 4)
([1, 2], (3, 0))
>>> table, cells = gains_all(sheet, [4, 5])
>>> cells.tolist(), table[0].tolist()
([1, 2], [[3, 0], [0, 3]])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from lumicore._ext import lumen as _k
from lumicore.checks import check_int
from lumicore.checks import check_seed as _seed
from lumicore.data import shorten
from lumicore.errors import LumicoreError
from lumicore.lumen.dice import MAX_VALUE
from lumicore.lumen.sheet import Layout, Sheet

__all__ = ["legal_cells", "gains", "gains_all", "strength_sums", "strength_table", "setup",
           "random_game", "random_games", "position", "random_game_from", "playouts"]


@lru_cache(maxsize=64)
def _masks(layout: Layout) -> np.ndarray:
    return np.array(layout.masks, dtype=np.uint64)


def _sheet(sheet: object) -> tuple[bytes, np.ndarray]:
    if not isinstance(sheet, Sheet):
        raise LumicoreError(f"expected a lumicore.lumen.Sheet, got {type(sheet).__name__}")
    return sheet.packed(), _masks(sheet.layout)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def legal_cells(sheet: Sheet) -> list[int]:
    """Indices of the bubbles of ``sheet`` a value may be written in (ascending)."""
    vals, nbr = _sheet(sheet)
    return _bits(_k.legal_mask(vals, nbr))


def _value(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
            or not 0 <= value <= MAX_VALUE:
        raise LumicoreError(f"value {value!r} is not a selection value 0..{MAX_VALUE}")
    return int(value)


def gains(sheet: Sheet, cell: int, value: int) -> tuple[int, int]:
    """``(identical, sequence)`` gains of writing ``value`` in the empty bubble index ``cell``
    (the legality of ``cell`` is not checked: :meth:`Sheet.gains` does that)."""
    vals, nbr = _sheet(sheet)
    if isinstance(cell, bool) or not isinstance(cell, (int, np.integer)) \
            or not 0 <= cell < len(vals) or vals[cell] != 255:
        raise LumicoreError(f"bubble index {cell!r} is not an empty bubble")
    return _k.gains(vals, nbr, int(cell), _value(value))


def gains_all(sheet: Sheet, values: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """The gains of every value of ``values`` in every legal bubble: an int32 array
    ``(bubbles, values, 2)`` (identical, sequence) and the legal bubble indices."""
    vals, nbr = _sheet(sheet)
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise LumicoreError(f"values must be a list of selection values, got {shorten(values)}")
    arr = np.array([_value(v) for v in values], dtype=np.int32)
    return _k.gains_all(vals, nbr, arr)


def strength_table(strengths: Sequence[int] | np.ndarray) -> np.ndarray:
    """Strengths as the kernel's int32 array (checked: non-negative, below 2**31)."""
    arr = np.asarray(strengths)
    if arr.ndim != 1 or arr.dtype.kind not in "iu" or (arr.size and not
                                                      (0 <= arr.min() and arr.max() < 2**31)):
        raise LumicoreError("strengths must be a list of non-negative integers")
    return np.ascontiguousarray(arr, dtype=np.int32)


def strength_sums(units: Sequence[Sequence[Sequence[int]]] | np.ndarray,
                  strengths: Sequence[int] | np.ndarray) -> list[list[int]]:
    """``result[t][p]``: player ``p``'s strength in territory ``t`` (``units[t][p][c]`` counts
    of each side of each kind, ``strengths[c]`` their strength), as
    :func:`lumicore.lumen.reference.strength_sums`. Counts and strengths are below 2**31 and
    every sum below 2**63 (the kernel adds in int64): a larger one is a :class:`LumicoreError`,
    not a wrapped number."""
    arr = np.asarray(units)
    if arr.ndim != 3 or arr.dtype.kind not in "iu" or (arr.size and arr.min() < 0) \
            or (arr.size and arr.max() >= 2**31):
        raise LumicoreError("units must be counts units[territory][player][kind side] >= 0")
    table = strength_table(strengths)
    if len(table) != arr.shape[2]:
        raise LumicoreError(f"{len(table)} strengths for {arr.shape[2]} unit counts")
    _check_sums(arr, table)
    return _k.strength_sums(np.ascontiguousarray(arr, dtype=np.int32), table).tolist()


def _check_sums(units: np.ndarray, table: np.ndarray) -> None:
    """A :class:`LumicoreError` if a strength sum of ``units`` (checked counts) by ``table``
    reaches 2**63. The largest count times the sum of strengths bounds every sum; only past
    that bound are the sums counted exactly, in Python ints."""
    if not units.size or int(units.max()) * int(table.sum(dtype=np.int64)) < 2**63:
        return
    exact = (units.astype(object) * table.astype(object)).sum(axis=2)
    if exact.max() >= 2**63:
        t, p = np.unravel_index(int(np.argmax(exact >= 2**63)), exact.shape)
        raise LumicoreError(f"units times strengths must sum below 2**63 (int64), got "
                            f"{shorten(exact[t, p])} for player {p} in territory {t}")


_ABILITY = {"none": 0, "restore": 1, "push": 2, "kill": 3, "fly": 4}
MAX_TERRITORIES, MAX_KINDS = 32, 16
"""The random-game kernel takes maps up to 32 territories and boards up to 16 unit kinds."""


def setup(state: object) -> Any:
    """The kernel's copy of a fresh game (a Lumen ``GameState`` before its first action), for
    :func:`random_game` and :func:`random_games`."""
    from lumicore.lumen.game import GameState

    if not isinstance(state, GameState) or state.history:
        raise LumicoreError("setup needs a fresh Lumen GameState (GameState.new_game(...))")
    board, m, layout = state.board, state.map, state.sheets[0].layout
    if len(m.territories) > MAX_TERRITORIES or len(board.kinds) > MAX_KINDS:
        raise LumicoreError(f"the random-game kernel takes up to {MAX_TERRITORIES} territories "
                            f"and {MAX_KINDS} unit kinds")
    hc = layout.high_command
    ends = [sum(hc.sections[:i + 1]) for i in range(len(hc.sections))]
    values = sorted(set(state.objective_pool))
    if len(hc.sections) > 16 or len(values) > 16:
        raise LumicoreError("the random-game kernel takes up to 16 High Command sections "
                            "and 16 distinct objective values")
    numbers = [*state.bag[0], *state.bag[1], *board.limits.values(), board.supply, board.rounds,
               board.secret_vp, *ends, *values, *state.bonus_pool,
               *(u.strength for u in board.units), *state.discovery, *m.vp,
               *(n for sides in state.units for side in sides for n in side)]
    if any(not 0 <= x < 2**20 for x in numbers):
        raise LumicoreError("a board or scenario number is out of the kernel's range (0..2**20)")
    data: dict[str, Any] = {
        "nk": len(board.kinds), "nt": len(m.territories), "nb": len(layout.cells),
        "rounds": board.rounds, "supply": board.supply, "initiative": m.initiative,
        "merc": board.kinds.index("mercenary") if "mercenary" in board.kinds else -1,
        "secret_vp": board.secret_vp,
        # any threshold a layout may have (nine digits either way): values are 0..36, so every
        # one at or below 0 crosses as 0 does, and every one above 36 as 37
        "threshold": min(max(hc.threshold, 0), MAX_VALUE + 1),
        "limits": list(board.limits.values()),
        "strength": [u.strength for u in board.units],
        "ability": [_ABILITY[u.ability] for u in board.units],
        "moves": [int(u.moves) for u in board.units],
        "protected": [int(u.protected) for u in board.units],
        "special": [int(u.special) for u in board.units],
        "vp": list(m.vp), "tnbr": [sum(1 << u for u in n) for n in m.neighbors],
        "bnbr": list(layout.masks), "sec_end": ends,
        "sec_obj": [int(i in hc.objectives) for i in range(len(ends))],
        "obj_val": values, "obj_cnt": [state.objective_pool.count(v) for v in values],
        "bag": state.bag, "disc": state.discovery, "units": state.units,
        "pool": state.bonus_pool,
    }
    if data["merc"] < 0 and state.bonus_pool[0]:
        raise LumicoreError("mercenary bonus tokens need a mercenary unit kind")
    return _k.Setup(data)


def _game(game: object) -> Any:
    """``game`` if it is a kernel setup (the C methods would read any other object as one)."""
    if not isinstance(game, _k.Setup):
        raise LumicoreError(f"expected the kernel's copy of a game (kernel.setup(state)), got "
                            f"{type(game).__name__}")
    return game


def random_game(game: Any, seed: int) -> tuple[list[int], int, int, int, int]:
    """One game played in the kernel with splitmix64 choices (see
    :func:`lumicore.lumen.reference.random_game`, which gives the same answer):
    ``(actions, winner or -1, score 1, score 2, last round)``."""
    return _k.Setup.random_game(_game(game), _seed(seed))


def random_games(game: Any, n: int, seed: int = 0) -> tuple[int, int, int, int]:
    """``n`` kernel games (game ``i`` from ``seed + i``): ``(wins of player 1, wins of player
    2, games nobody won, actions played)``."""
    n = check_int(n, "n", 0, 2**31 - 1, "a game count 0..2**31-1")
    return _batches(_game(game), n, _seed(seed))


BATCH = 2048
"""Games the kernel plays per call of its loop: between two calls Python sees a Ctrl-C (the
loop itself runs without the GIL and cannot), so a long run still stops within a fraction of a
second. Game ``i`` is seeded ``seed + i`` however the games are split, so the counts are the
same."""


def _batches(game: Any, n: int, seed: int, position: dict[str, Any] | None = None
             ) -> tuple[int, int, int, int]:
    totals = [0, 0, 0, 0]
    for start in range(0, n, BATCH):
        part = _k.Setup.random_games(game, min(BATCH, n - start), seed + start, position)
        totals = [a + b for a, b in zip(totals, part, strict=True)]
    return totals[0], totals[1], totals[2], totals[3]


_PHASES = {"first": 0, "draw": 1, "roll": 2, "choose": 3, "bonus": 4, "objective": 5,
           "mercenary": 6, "order": 7, "reinforce": 8, "sequence": 9, "over": 10}
_STEPS = {"bonus": 1, "objective": 2, "order": 3, "reinforce": 4, "sequence": 5}


@lru_cache(maxsize=16)
def _setup_for(game_map: Any, board: Any, layout: Layout) -> Any:
    """The kernel's setup of a game, kept by its map, board and layout: the objects a state
    holds, not their file names (a file edited since, or a relative path read after a change
    of folder, gives other objects, and another setup)."""
    from lumicore.lumen.game import GameState

    return setup(GameState._of(board, game_map, layout))


def position(state: Any) -> tuple[Any, dict[str, Any]]:
    """The kernel's setup for ``state``'s scenario and board, and ``state`` (any position of a
    Lumen ``GameState``) as the kernel's fields, checked."""
    from lumicore.lumen.game import GameState

    if not isinstance(state, GameState):
        raise LumicoreError(f"expected a Lumen GameState, got {type(state).__name__}")
    game = _setup_for(state.map, state.board, state.sheets[0].layout)
    values = sorted(set(state.board.objectives))
    picks = [(-1, 0) if p is None else p for p in state.picks]
    d: dict[str, Any]
    d = {"round": state.round, "phase": _PHASES[state.phase], "first": state.first,
         "actor": state.actor, "resolving": state.resolving, "loser": state.loser,
         "d1": state.dice[0] or 1, "d2": state.dice[1] or 1,
         "pick_sel": [p[0] for p in picks], "pick_cell": [p[1] for p in picks],
         "vals": [s.packed() for s in state.sheets], "uses": state.uses, "bag": state.bag,
         "supply": state.supply, "collected": [sum(c) for c in state.collected],
         "secrets": state.secrets, "glows": state.glows,
         "objectives": [sum(o) for o in state.objectives], "disc": state.discovery,
         "units": state.units, "pool": state.bonus_pool,
         "obj_cnt": [state.objective_pool.count(v) for v in values],
         "todo": [_STEPS[t] for t in state.todo], "refill": state.refill,
         "left": state.left, "gi": state.gains[0], "gs": state.gains[1],
         "after_round": int(state.after_draw == "round")}
    numbers = [d["round"], d["left"], d["gi"], d["gs"], *d["collected"], *d["secrets"],
               *d["glows"], *d["objectives"], *d["disc"], *d["pool"], *d["obj_cnt"],
               *(n for rows in (state.uses, state.bag, state.supply) for row in rows
                 for n in row),
               *(n for sides in state.units for side in sides for n in side)]
    if any(not isinstance(n, int) or not 0 <= n < 2**20 for n in numbers) \
            or len(set(state.objective_pool) - set(values)):
        raise LumicoreError("a count of this position is out of the kernel's range (0..2**20)")
    return game, d


def random_game_from(state: Any, seed: int) -> tuple[list[int], int, int, int, int]:
    """Play ``state`` (any position) to its end in the kernel with splitmix64 choices, as
    :func:`lumicore.lumen.reference.random_game` does on the Python state."""
    game, d = position(state)
    return _k.Setup.random_game(game, _seed(seed), 100000, d)


def playouts(state: Any, n: int, seed: int = 0) -> tuple[int, int, int]:
    """``n`` random play-outs of ``state`` to the end in the kernel (play-out ``i`` from
    ``seed + i``): ``(wins of player 1, wins of player 2, games nobody won)``."""
    n = check_int(n, "n", 0, 2**31 - 1, "a game count 0..2**31-1")
    seed = _seed(seed)
    game, d = position(state)
    return _batches(game, n, seed, d)[:3]
