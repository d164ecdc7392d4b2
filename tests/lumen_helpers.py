"""Helpers for the Lumen tests: set up positions of a game by hand and play moves by their
tuples (``GameState.moves()``)."""

from __future__ import annotations

from lumicore.lumen import load_map
from lumicore.lumen.game import GameState
from lumicore.lumen.units import load_board

KINDS = load_board().kinds


def find(state: GameState, *prefix) -> int:
    """The action of the first move starting with ``prefix``."""
    for a, move in enumerate(state.moves()):
        if move[:len(prefix)] == prefix:
            return a
    raise AssertionError(f"no move {prefix} among {state.moves()[:8]}...")


def has(state: GameState, *prefix) -> bool:
    return any(m[:len(prefix)] == prefix for m in state.moves())


def do(state: GameState, *prefix) -> None:
    state.apply_action(find(state, *prefix))


def k(name: str) -> int:
    return KINDS.index(name)


def t(name: str) -> int:
    return load_map("A").index(name)


def started(first: int = 0) -> GameState:
    """A game after the first-player draw and the supply draws (Shroomlings first)."""
    state = GameState.new_game(seed=0)
    do(state, "first", first)
    while state.phase == "draw":
        state.apply_action(0)
    return state


def clear(state: GameState) -> GameState:
    for sides in state.units:
        for side in sides:
            side[:] = [0] * len(side)
    state._moves = None
    return state


def put(state: GameState, where: str, player: int, kind: str, n: int = 1,
        inactive: bool = False) -> None:
    state.units[t(where)][player][2 * k(kind) + inactive] += n
    state._moves = None


def sequence_step(state: GameState, player: int = 0, left: int = 1) -> GameState:
    """Make ``state`` the second resolver's sequence step with ``left`` choices."""
    state.phase, state.actor, state.left, state.todo, state.resolving = \
        "sequence", player, left, [], 1
    state._moves = None
    return state
