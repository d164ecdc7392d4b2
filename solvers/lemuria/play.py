"""Play a whole game of Lemuria between bots: what ``lumicore lemuria play`` runs.

>>> result = play_game(players=2, bots=["greedy", "random"], seed=3)
>>> result.game.is_terminal(), result.winner == result.game.winner()
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from lumicore.errors import LumicoreError
from lumicore.lemuria.game import Game
from solvers.arena import bot_names, make_bot, parse_bot_spec, seat_bots

__all__ = ["GameResult", "play_game", "parse_bots"]


@dataclass
class GameResult:
    """The finished ``game``, its ``winner`` (0-based), VP per player, the bots by seat and one
    text line per turn event in ``log``."""

    game: Game
    winner: int
    vp: list[int]
    bots: list[str]
    log: list[str] = field(default_factory=list)


def parse_bots(text: str | Sequence[str], players: int) -> list[str]:
    """Bots by seat from ``"planner,greedy,random"`` (one name: every seat), each a name with
    options as in :func:`solvers.arena.parse_bot_spec` (``planner:horizon=4``).

    >>> parse_bots("greedy", 3), parse_bots("planner:horizon=4,random", 2)
    (['greedy', 'greedy', 'greedy'], ['planner:horizon=4', 'random'])
    """
    names = seat_bots(text, players)
    known = bot_names("lemuria")
    for spec in names:
        name, _options = parse_bot_spec(spec)
        if name not in known:
            raise LumicoreError(f"--bots: unknown bot {name[:40]!r} (one of {', '.join(known)})")
    return names


def play_game(players: int = 3, bots: str | Sequence[str] = "greedy", seed: int = 0,
              time_limit: float | None = None, impact: bool = False,
              on_turn: Callable[[Game, list[str]], Any] | None = None) -> GameResult:
    """Play a seeded game to its end. Chance nodes are drawn with :meth:`Game.resolve_chance`
    (from ``seed``); seat i's bot is seeded ``seed * 10 + i``; ``time_limit`` is the planner's
    limit per turn (a bot's own ``planner:time_limit=...`` wins). ``on_turn(game, lines)`` is
    called after every turn with its lines."""
    names = parse_bots(bots, players)
    game = Game.new(players=players, seed=seed, impact=impact)
    options = {} if time_limit is None else {"time_limit": time_limit}
    seats = []
    for i, spec in enumerate(names):
        name, opts = parse_bot_spec(spec)
        opts = {**(options if name == "planner" else {}), **opts}
        seats.append(make_bot(name, "lemuria", seed=seed * 10 + i, **opts))
    log: list[str] = []
    lines: list[str] = ["setup"]
    turn = game.turn

    def flush() -> None:
        lines.append("  VP " + ", ".join(f"player {p + 1} {v}"
                                         for p, v in enumerate(game.vp())))
        log.extend(lines)
        if on_turn is not None:
            on_turn(game, list(lines))
        lines.clear()

    while not game.is_terminal():
        if game.is_chance_node():
            game.resolve_chance()
            continue
        if game.turn != turn:
            flush()
            turn = game.turn
            lines.append(f"turn {turn}: order {' '.join(str(p + 1) for p in game.order)}")
            lines.append("  " + game.altar_text())
        action = seats[game.current_player()].choose(game)
        move = game.moves()[action]
        text = game.action_to_string(action)
        rotation, before = game.rotation, [game.resources(p) for p in range(players)]
        game.apply_action(action)
        if move[0] == "harvest":
            text += ": " + ", ".join(
                f"player {p + 1} +{n} {r}" for p in range(players)
                for r, n in ((r, game.resources(p)[r] - before[p][r]) for r in before[p])
                if n > 0)
        lines.append("  " + text)
        if game.rotation != rotation and move[0] != "altar" or move[0] == "altar":
            lines.append("  " + game.altar_text())
    flush()
    winner = game.winner()
    assert winner is not None
    return GameResult(game, winner, game.vp(), names, log)
