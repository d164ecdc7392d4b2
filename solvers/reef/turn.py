"""The best turn of a Lumicora game for the player to move.

:func:`best_turn` weighs every decision open to the player to move:

- at the start of a turn, every combination of the tile put into the Atoll, the action (A, B or
  C) and its choices; the tiles taken are placed exactly (:func:`solvers.reef.best_placement`
  over every order, placement and return to the bag, for a placement objective built from the
  evaluation below);
- while placing a hand, every next step (a placement or a return to the bag), the tiles left
  after it placed exactly as above;
- in the scoring phase, each coral scoring and the skip.

Each resulting position is valued by the game's evaluation (:meth:`lumicore.reef.game.Game.
estimate`: VP so far, jellyfish, limestone pairs, animals, colour majorities against the current
opponents, B-side penalties, and the best coral scorings still to come): ``objective="score"``
is the mover's own estimate, ``"margin"`` (default) that minus the best opponent's. Jellyfish
swaps are not weighed (they trade 2 VP for a redraw of unknown tiles).

>>> from lumicore.reef.game import Game
>>> game = Game.new(players=2, seed=3)
>>> game.play(game.decisions()[0]); game.play(game.decisions()[0])
>>> result = best_turn(game)
>>> result.status, str(result.best.decision).startswith("put ")
('optimal', True)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from lumicore.checks import check_index, check_type
from lumicore.errors import LumicoreError
from lumicore.reef.decisions import Place, Return, Score, Skip, Turn
from lumicore.reef.game import LIMESTONE_VALUE, Game
from lumicore.reef.scoring import LIMESTONE_CAP, round_limestone
from solvers.ctrl_c import check, noting
from solvers.limits import (
    INTERRUPTED,
    LIMIT,
    OPTIMAL,
    REASON_INTERRUPTED,
    REASON_NODES,
    REASON_TIME,
    check_limits,
)
from solvers.progress import check_callback
from solvers.reef.placement import Objective, PlacementResult, best_placement

__all__ = ["OBJECTIVES", "PHASES", "RankedTurn", "TurnResult", "best_turn",
           "placement_objective", "turn_value"]

OBJECTIVES = ("margin", "score")
"""``objective=`` choices of :func:`best_turn`: ``"margin"`` (default) the mover's estimate minus
the best opponent's, ``"score"`` the mover's own."""
PHASES = ("turn", "place", "score")
"""The phases whose decisions :func:`best_turn` weighs: turns, placements, coral scorings."""


@dataclass(frozen=True)
class RankedTurn:
    """One decision with its value; ``placement`` is the hand's best placement (B and C turns,
    and the placing phase), whose placements the player makes in order."""

    decision: object
    value: float
    placement: PlacementResult | None = None

    def __str__(self) -> str:
        text = f"{self.value:+7.2f}  {self.decision}"
        if self.placement is not None:
            for p in self.placement.placements:
                if Place(p) == self.decision:
                    continue
                text += (f"\n           then place {p.lumino}: number on {p.number_cell}, other "
                         f"half on {p.other_cell} (level {p.level}, {p.cost} limestone)")
            text += "".join(f"\n           then return {t} to the bag (-1 VP)"
                            for t in self.placement.discarded)
        return text


@dataclass(frozen=True)
class TurnResult:
    """The ranked decisions (best first), the objective, status (``"optimal"``: every decision
    but the jellyfish swaps weighed, each placement search exact, so the first is the best for
    the objective, the game's evaluation one turn ahead, not a proven best move of the game;
    ``"limit"``: the time limit or a placement search's node limit stopped it;
    ``"interrupted"``: Ctrl-C; ``reason`` says which: ``"time"``, ``"nodes"`` or
    ``"interrupted"``), counts and time."""

    ranked: tuple[RankedTurn, ...]
    objective: str
    player: int
    phase: str
    status: str
    reason: str | None
    elapsed: float
    nodes: int = field(default=0)

    @property
    def best(self) -> RankedTurn:
        if not self.ranked:
            raise LumicoreError("no decision was weighed")
        return self.ranked[0]

    def text(self, top: int | None = None) -> str:
        """The ranking as text, the ``top`` best only if given."""
        head = (f"best decisions of player {self.player + 1} ({self.phase}, objective "
                f"{self.objective}): {len(self.ranked)} weighed, {self.status}"
                + (f" ({self.reason})" if self.reason else "") + f", {self.elapsed:.2f} s")
        return "\n".join([head] + [f"{k:3d}. {r}" for k, r in enumerate(self.ranked[:top], 1)])

    def __str__(self) -> str:
        return self.text()

    def as_dict(self, top: int | None = None) -> dict:
        """Plain JSON data (``weighed``: how many decisions were ranked, ``ranked`` the
        ``top`` best of them)."""
        return {
            "player": self.player, "phase": self.phase, "objective": self.objective,
            "status": self.status, "reason": self.reason, "elapsed": self.elapsed,
            "nodes": self.nodes, "weighed": len(self.ranked),
            "ranked": [{"decision": str(r.decision), "value": r.value,
                        "placements": [str(Place(p)) for p in r.placement.placements]
                        if r.placement else [],
                        "returned": [str(t) for t in r.placement.discarded]
                        if r.placement else []}
                       for r in self.ranked[:top]],
        }


def _check_player(game: Game, player: object) -> int:
    """``player`` as an int if ``game`` is a reef :class:`Game` and ``player`` one of its seats;
    else :class:`LumicoreError` naming the argument."""
    check_type(game, Game, "game", "a reef Game")
    return check_index(player, game.n, "player", "a player index")


def placement_objective(game: Game, player: int) -> Objective:
    """The objective for placing ``player``'s tiles, the game's own
    (:meth:`Game.placement_weights`, by which :meth:`Game.estimate` places a hand): animals of
    the game's score board, B-side penalties, :data:`solvers.reef.VISIBLE_WEIGHT` per visible
    space (majorities) and :data:`lumicore.reef.game.CORAL_WEIGHT` times the coral score of each
    colour still to be scored."""
    player = _check_player(game, player)
    return Objective(game.placement_weights(player), name=f"turn objective of player {player + 1}")


def turn_value(game: Game, player: int, objective: str = "margin",
               spent: tuple[int, ...] = ()) -> float:
    """``player``'s value of ``game`` as :func:`best_turn` ranks it: the estimate
    (:meth:`Game.estimate`, ``spent``: players whose turn is used up), minus the best
    opponent's with ``objective="margin"``."""
    player = _check_player(game, player)
    est = game.estimate(spent)
    if objective == "score" or game.n == 1:
        return est[player]
    return est[player] - max(e for p, e in enumerate(est) if p != player)


def _after_hand(game: Game, player: int, result: PlacementResult | None, limestone: int,
                objective: str) -> float:
    """The value once ``player`` holds ``limestone`` and has made ``result``'s placements
    (the hand is then empty: the estimate would count its tiles again)."""
    probe = game.clone()
    probe.limestone[player] = limestone
    probe.hand = []
    if result is not None:
        probe.reefs[player] = result.reef
        probe.limestone[player] = result.limestone
        probe.vp[player] -= len(result.discarded)
    return turn_value(probe, player, objective)


@noting()
def best_turn(game: Game, objective: str = "margin", time_limit: float | None = None,
              max_nodes: int | None = None,
              progress: Callable[[int, int, int, float], object] | None = None) -> TurnResult:
    """Rank the decisions of the player to move (see the module docstring); each placement
    search gets at most ``max_nodes`` nodes. ``progress(weighed, decisions, nodes, elapsed)``
    is called after each decision and every few milliseconds of a placement search (a progress
    line: decisions weighed of all open, placement nodes so far, seconds). Returns a
    :class:`TurnResult`."""
    if not isinstance(game, Game):
        raise LumicoreError(f"best_turn needs a lumicore.reef.game.Game, got {type(game).__name__}")
    if objective not in OBJECTIVES:
        raise LumicoreError(f"unknown objective {objective!r:.80} (expected margin or score)")
    check_limits(max_nodes, time_limit)
    check_callback(progress)
    if game.phase not in PHASES:
        raise LumicoreError(f"best_turn weighs turns, placements and coral scorings; the game "
                            f"is at phase {game.phase!r}")
    start = time.monotonic()
    deadline = None if time_limit is None else start + time_limit
    player = game.current_player()
    goal = placement_objective(game, player)
    ranked: list[RankedTurn] = []
    stopped = False
    cache: dict[tuple, PlacementResult] = {}
    nodes = weighed = 0
    decisions = game.decisions()

    def searching(more: int, _elapsed: float) -> None:  # a placement search under way
        if progress is not None:
            progress(weighed, len(decisions), nodes + more, time.monotonic() - start)

    def place(hand: tuple, limestone: int, reef=None) -> PlacementResult:
        nonlocal nodes
        reef = game.reefs[player] if reef is None else reef
        key = (reef, tuple(sorted(map(str, hand))), limestone)
        if key not in cache:
            left = None if deadline is None else max(1e-3, deadline - time.monotonic())
            result = best_placement(reef, hand, limestone, goal,
                                    limestone_value=LIMESTONE_VALUE, time_limit=left,
                                    max_nodes=max_nodes,
                                    progress=None if progress is None else searching)
            nodes += result.nodes
            if result.status == INTERRUPTED:  # Ctrl-C inside the search: this decision unweighed
                raise KeyboardInterrupt
            cache[key] = result
        return cache[key]

    interrupted = False
    try:
        for decision in decisions:
            check()
            if deadline is not None and time.monotonic() > deadline and ranked:
                stopped = True
                break
            ranked.extend(_weigh(game, player, decision, objective, place))
            weighed += 1
            if progress is not None:
                progress(weighed, len(decisions), nodes, time.monotonic() - start)
    except KeyboardInterrupt:
        interrupted = True
    ranked.sort(key=lambda r: -r.value)
    if interrupted:
        status, reason = INTERRUPTED, REASON_INTERRUPTED
    elif stopped or any(r.placement and r.placement.status != OPTIMAL for r in ranked):
        # a placement search that spent all of max_nodes was stopped by the node limit
        by_nodes = not stopped and max_nodes is not None and any(
            r.placement and r.placement.status != OPTIMAL and r.placement.nodes >= max_nodes
            for r in ranked)
        status, reason = LIMIT, REASON_NODES if by_nodes else REASON_TIME
    else:
        status, reason = OPTIMAL, None
    return TurnResult(tuple(ranked), objective, player, game.phase, status, reason,
                      time.monotonic() - start, nodes)


def _weigh(game: Game, player: int, decision, objective: str, place) -> list[RankedTurn]:
    """The decision's ranked entry (none for decisions that are not weighed)."""
    stone = game.limestone[player]
    if isinstance(decision, Turn):
        if decision.action == "A":
            gained = min(LIMESTONE_CAP, stone + decision.limestone)
            return [RankedTurn(decision, _after_hand(game, player, None, gained, objective))]
        result = place(decision.take, stone)
        return [RankedTurn(decision, _after_hand(game, player, result, stone, objective),
                           result)]
    if isinstance(decision, (Place, Return)):
        # every step is weighed: made, then the tiles left placed exactly; the best first step
        # of one placement plan alone would rank by the placement objective, not the value
        probe = game.clone()
        probe.play(decision)
        left = probe.hand if probe.phase == "place" and probe.player == player else []
        stone = probe.limestone[player]
        rest = place(tuple(left), stone, probe.reefs[player]) if left else None
        return [RankedTurn(decision, _after_hand(probe, player, rest, stone, objective), rest)]
    if isinstance(decision, (Score, Skip)):
        probe = game.clone()
        if isinstance(decision, Score):
            probe.vp[player] += decision.vp
            probe.coral[player].remove(decision.color)
            probe.jellyfish[player] += 1
            probe.limestone[player] = min(LIMESTONE_CAP, stone + round_limestone(game.round))
        return [RankedTurn(decision, turn_value(probe, player, objective, (player,)))]
    return []

