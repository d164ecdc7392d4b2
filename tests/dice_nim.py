"""Dice Nim: a tiny game with chance and multi-step turns, for the arena's tests.

A pile of stones (dealt from the seed: 10 to 20) lies between 2 to 4 players. The player to act
takes 1, 2 or 3 stones (action = stones taken); whoever takes the last stone wins. After every
take a die is rolled (chance actions 1..6): on a 6 the same player acts again (a multi-step
turn), otherwise the next player does. ``evaluate()`` knows Nim's rule of thumb (a pile that is a
multiple of 4 loses for the player to act), so a one-ply greedy bot plays well.

Co-operative Dice Nim (:class:`CoopDiceNim`, ``dice-nim-coop``) is the same game played by a
table that wins together when player 1 takes the last stone; it says so (``cooperative =
True``), and its ``evaluate()`` is player 1's, the same for every seat.
"""

from __future__ import annotations

import json

import numpy as np

from lumicore.errors import DataError, IllegalMoveError, LumicoreError
from lumicore.game import CHANCE, TERMINAL

NAME = "dice-nim"
ENTRY = "dice_nim:DiceNim.new_game"
COOP_NAME = "dice-nim-coop"
COOP_ENTRY = "dice_nim:CoopDiceNim.new_game"


class DiceNim:
    def __init__(self, players: int, pile: int, mover: int = 0, rolling: bool = False,
                 winner: int | None = None) -> None:
        self.players, self.pile, self.mover = players, pile, mover
        self.rolling, self.winner = rolling, winner

    @classmethod
    def new_game(cls, players: int = 2, seed: int = 0, pile: int | None = None) -> DiceNim:
        if isinstance(players, bool) or players not in (2, 3, 4):
            raise LumicoreError(f"dice nim has 2 to 4 players, got {players!r}")
        if pile is None:
            pile = int(np.random.default_rng(seed).integers(10, 21))
        return cls(players, pile)

    def num_players(self) -> int:
        return self.players

    def is_terminal(self) -> bool:
        return self.winner is not None

    def is_chance_node(self) -> bool:
        return self.rolling and not self.is_terminal()

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        return CHANCE if self.rolling else self.mover

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(d, 1 / 6) for d in range(1, 7)] if self.is_chance_node() else []

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        if self.rolling:
            return list(range(1, 7))
        return list(range(1, min(3, self.pile) + 1))

    def apply_action(self, action: int) -> None:
        if isinstance(action, bool) or action not in self.legal_actions():
            raise IllegalMoveError(f"action {action!r} is not legal here")
        if self.rolling:
            self.rolling = False
            if action != 6:
                self.mover = (self.mover + 1) % self.players
            return
        self.pile -= action
        if self.pile == 0:
            self.winner = self.mover
        else:
            self.rolling = True

    def action_to_string(self, action: int) -> str:
        return f"roll {action}" if self.rolling else f"take {action}"

    def returns(self) -> list[float]:
        return [float(p == self.winner) for p in range(self.players)]

    def evaluate(self) -> list[float]:
        if self.is_terminal():
            return self.returns()
        to_act = self.mover if not self.rolling else (self.mover + 1) % self.players
        good = self.pile % 4 != 0
        values = [(0.3 if good else 0.7) / (self.players - 1)] * self.players
        values[to_act] = 0.7 if good else 0.3
        return values

    def clone(self) -> DiceNim:
        return DiceNim(self.players, self.pile, self.mover, self.rolling, self.winner)

    def serialize(self) -> str:
        return json.dumps(vars(self))

    @classmethod
    def deserialize(cls, text: str) -> DiceNim:
        try:
            return cls(**json.loads(text))
        except (ValueError, TypeError) as exc:
            raise DataError(f"not a dice nim state: {exc}") from exc

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DiceNim) and vars(self) == vars(other)

    def __repr__(self) -> str:
        return f"DiceNim({self.pile} stones, player {self.mover} to act)"


class CoopDiceNim(DiceNim):
    """Dice Nim where every player wins when player 1 takes the last stone, and all lose else."""

    cooperative = True

    def returns(self) -> list[float]:
        return [float(self.winner == 0)] * self.players

    def evaluate(self) -> list[float]:
        if self.is_terminal():
            return self.returns()
        return [DiceNim.evaluate(self)[0]] * self.players

    def clone(self) -> CoopDiceNim:
        return CoopDiceNim(self.players, self.pile, self.mover, self.rolling, self.winner)
