"""One state protocol for every game, in the style of OpenSpiel.

A :class:`GameState` is a position of a game with integer actions:
``legal_actions()`` lists them (empty exactly when ``is_terminal()``), ``apply_action(a)``
plays one in place, ``returns()`` gives each player's result once the game is over, ``clone()``
copies the state and ``serialize()`` writes it as JSON text that the state's
``deserialize`` class method reads back. Generic tools (random play-outs, tree searches, the
conformance test in ``tests/test_game_protocol.py``) work on any game that implements it:

- :class:`lumicore.lucia.game.PuzzleState`: a Lucia train puzzle, one card play per action;
- :class:`lumicore.reef.game.HandState`: placing a hand of Luminos in a reef, one tile per action.

>>> from lumicore.lucia.game import PuzzleState
>>> state = PuzzleState.new("h L4 H T S", max_plays=4)
>>> isinstance(state, GameState), state.num_players()
(True, 1)
>>> play_randomly(state, seed=1).is_terminal()
True
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from lumicore.errors import IllegalMoveError

__all__ = ["GameState", "OnePlayerState", "play_randomly", "check_action"]


@runtime_checkable
class GameState(Protocol):
    """What every game state offers (the names follow OpenSpiel's ``pyspiel.State``)."""

    def num_players(self) -> int:
        """How many players the game has."""
        ...

    def current_player(self) -> int:
        """The player to act (0-based); -1 once the game is over."""
        ...

    def legal_actions(self) -> list[int]:
        """The actions the player to act may take, ascending; empty when terminal."""
        ...

    def apply_action(self, action: int) -> None:
        """Play ``action`` in place; an action not in ``legal_actions()`` raises
        :class:`~lumicore.errors.IllegalMoveError`."""
        ...

    def action_to_string(self, action: int) -> str:
        """A readable name of a legal action."""
        ...

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        ...

    def returns(self) -> list[float]:
        """Each player's result (0 for everyone until the game is over)."""
        ...

    def clone(self) -> GameState:
        """An independent copy."""
        ...

    def serialize(self) -> str:
        """JSON text that the class's ``deserialize`` reads back into an equal state."""
        ...


class OnePlayerState:
    """The parts every one-player state shares: its actions index the list ``_legal()`` of
    moves, and two states are equal when their ``_key()`` tuples are."""

    def _legal(self) -> list:
        raise NotImplementedError

    def _key(self) -> tuple:
        raise NotImplementedError

    def is_terminal(self) -> bool:
        raise NotImplementedError

    def num_players(self) -> int:
        return 1

    def current_player(self) -> int:
        return -1 if self.is_terminal() else 0

    def legal_actions(self) -> list[int]:
        return list(range(len(self._legal())))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


def check_action(state: GameState, action: int) -> None:
    """Raise :class:`IllegalMoveError` naming ``action`` unless it is legal in ``state``."""
    if state.is_terminal():
        raise IllegalMoveError(f"action {action!r}: the game is over")
    legal = state.legal_actions()
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or action not in legal:
        raise IllegalMoveError(f"action {action!r} is not legal here (legal: 0..{len(legal) - 1})")


def play_randomly(state: GameState, seed: int | np.random.Generator | None = None,
                  max_steps: int = 10_000) -> GameState:
    """Play uniformly random legal actions on a clone of ``state`` until the game is over (or
    ``max_steps`` actions were played) and return that clone."""
    rng = np.random.default_rng(seed)
    state = state.clone()
    for _ in range(max_steps):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        state.apply_action(int(actions[rng.integers(len(actions))]))
    return state
