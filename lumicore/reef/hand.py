"""Placing a hand of Luminos in a reef as a :class:`~lumicore.game.GameState` (one player).

Each action places one tile of the hand or returns it to the bag (-1 VP, rule 5). The actions
are, for every distinct tile left in the hand (in hand order), its legal placements (as
``reef.placements`` lists them, paying limestone) and then "return it". The game ends when the
hand is empty; its return is ``objective(reef) - tiles returned`` (default objective: the reef's
animal VP on the dark score board). ``solvers.reef.best_placement`` finds the best line.

>>> from lumicore.reef import Reef, load_board
>>> state = HandState(Reef.new(load_board("A"), ("pink", "green")), "pink 3 crab", limestone=1)
>>> state.action_to_string(state.legal_actions()[-1])
'return pink 3 crab to the bag'
>>> state.apply_action(state.legal_actions()[-1]); state.is_terminal(), state.returns()
(True, [-1.0])
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from lumicore.checks import Choice, Int, Load, Text, check_fields, check_int, read_json
from lumicore.data import shorten
from lumicore.errors import LumicoreError
from lumicore.game import OnePlayerState, check_action, checked_load
from lumicore.reef import io
from lumicore.reef.reef import Placement, Reef
from lumicore.reef.render import svg
from lumicore.reef.scoring import DISCARD_VP, dark_animal_points
from lumicore.reef.tiles import Lumino, format_hand, parse_hand

__all__ = ["HandState", "dark_animal_vp"]

_FIELDS = {"game": Choice("reef-hand"), "reef": io.REEF,
           "hand": Load(Text(), parse_hand, "a hand notation"),
           "limestone": Int(0), "returned": Int(0)}
"""What each field of a serialized hand state must be."""


def dark_animal_vp(reef: Reef) -> float:
    """The reef's animal VP on the dark score board (the default objective)."""
    return float(sum(dark_animal_points(reef).values()))


class HandState(OnePlayerState):
    """Reef, tiles left in hand, limestone in storage and tiles returned so far."""

    def __init__(self, reef: Reef, hand: str | Sequence[Lumino], limestone: int,
                 returned: int = 0, objective: Callable[[Reef], float] | None = None) -> None:
        if not isinstance(reef, Reef):
            raise LumicoreError(f"reef must be a lumicore.reef.Reef, got {reef!r}")
        if not isinstance(hand, (str, Sequence)):
            raise LumicoreError(f"hand must be Luminos or their notation, got {shorten(hand)}")
        self.hand = parse_hand(hand) if isinstance(hand, str) else tuple(hand)
        if not all(isinstance(t, Lumino) for t in self.hand):
            raise LumicoreError("hand must be Luminos or their notation")
        limestone = check_int(limestone, "limestone", 0, what="a non-negative integer")
        self.reef, self.limestone, self.returned = reef, limestone, returned
        self.objective = objective or dark_animal_vp
        self._moves: list[tuple[int, Placement | None]] | None = None

    def _legal(self) -> list[tuple[int, Placement | None]]:
        if self._moves is None:
            moves: list[tuple[int, Placement | None]] = []
            for i, tile in enumerate(self.hand):
                if tile in self.hand[:i]:
                    continue
                moves += [(i, p) for p in self.reef.placements(tile, self.limestone)]
                moves.append((i, None))
            self._moves = moves
        return self._moves


    def apply_action(self, action: int) -> None:
        action = check_action(self, action)
        i, placement = self._legal()[action]
        if placement is None:
            self.returned += 1
        else:
            self.reef = self.reef.place(placement, self.limestone)
            self.limestone -= placement.cost
        self.hand = self.hand[:i] + self.hand[i + 1:]
        self._moves = None

    def action_to_string(self, action: int) -> str:
        action = check_action(self, action)
        i, p = self._legal()[action]
        if p is None:
            return f"return {self.hand[i]} to the bag"
        return (f"{p.lumino}: number on {p.number_cell}, other half on {p.other_cell}, "
                f"level {p.level}, cost {p.cost}")

    def is_terminal(self) -> bool:
        return not self.hand

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0]
        return [self.objective(self.reef) + DISCARD_VP * self.returned]

    def clone(self) -> HandState:
        return HandState(self.reef, self.hand, self.limestone, self.returned, self.objective)

    def serialize(self) -> str:
        """JSON of the reef, hand, limestone and returns so far (not a custom objective)."""
        return json.dumps({"game": "reef-hand", "reef": io.to_json(self.reef),
                           "hand": format_hand(self.hand), "limestone": self.limestone,
                           "returned": self.returned})

    @classmethod
    def deserialize(cls, text: str,
                    objective: Callable[[Reef], float] | None = None) -> HandState:
        def load() -> HandState:
            what = "serialized reef hand state"
            fields = check_fields(read_json(text, what), _FIELDS, what)
            return cls(fields["reef"], fields["hand"], fields["limestone"], fields["returned"],
                       objective)

        return checked_load(load, "serialized reef hand state")


    def _key(self) -> tuple:
        return (self.reef, self.hand, self.limestone, self.returned)

    def __repr__(self) -> str:
        return (f"HandState({len(self.reef.pieces)} pieces, hand {format_hand(self.hand)!r}, "
                f"limestone {self.limestone})")

    def _repr_svg_(self) -> str:
        """The reef, captioned with the hand left and the limestone (notebooks)."""
        hand = format_hand(self.hand) or "empty"
        return svg(self.reef, caption=f"hand {hand}, limestone {self.limestone}, "
                                      f"{self.returned} returned")
