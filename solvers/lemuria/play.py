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
from solvers.arena import bot_names, parse_bot_spec, seat_bots
from solvers.arena import play_game as arena_game
from solvers.progress import check_callback

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
    """Play a seeded game to its end: the arena's game of ``seed``
    (:func:`solvers.arena.play_game`: the deal ``Game.new(players, seed, impact=impact)``, chance
    outcomes drawn from a generator seeded ``game_seed(seed, 0)``, seat ``s``'s bot seeded
    ``game_seed(seed, 1 + s)``), so the same seed and bots give the same game here and in
    :func:`solvers.arena.play_game`; game ``i`` of a tournament seeded ``t`` is the game of the
    seed ``game_seed(t, i)``. ``time_limit`` is the planner's limit per turn (a bot's own
    ``planner:time_limit=...`` wins). ``on_turn(game, lines)`` is called after every turn with
    its lines."""
    names = parse_bots(bots, players)
    check_callback(on_turn, "on_turn")
    limit = {} if time_limit is None else {"time_limit": time_limit}
    bot_options = {spec: limit for spec in names if parse_bot_spec(spec)[0] == "planner"}
    log: list[str] = []
    lines: list[str] = ["setup"]
    turn: int | None = None
    done: tuple[str, str, int, list[dict[str, int]]] | None = None  # the decision just applied

    def flush(game: Game) -> None:
        lines.append("  VP " + ", ".join(f"player {p + 1} {v}"
                                         for p, v in enumerate(game.vp())))
        log.extend(lines)
        if on_turn is not None:
            on_turn(game, list(lines))
        lines.clear()

    def finish(game: Game) -> None:
        """The line of the decision just applied (``game`` is the state right after it): the
        harvest's gains, the altar when it turned."""
        nonlocal done
        if done is None:
            return
        text, kind, rotation, before = done
        done = None
        if kind == "harvest":
            text += ": " + ", ".join(
                f"player {p + 1} +{n} {r}" for p in range(players)
                for r, n in ((r, game.resources(p)[r] - before[p][r]) for r in before[p])
                if n > 0)
        lines.append("  " + text)
        if game.rotation != rotation or kind == "altar":
            lines.append("  " + game.altar_text())

    def show(game: Game, action: int) -> None:  # the arena calls it before every action
        nonlocal turn, done
        finish(game)
        if turn is None:
            turn = game.turn
        if game.is_chance_node():
            return
        if game.turn != turn:
            flush(game)
            turn = game.turn
            lines.append(f"turn {turn}: order {' '.join(str(p + 1) for p in game.order)}")
            lines.append("  " + game.altar_text())
        done = (game.action_to_string(action), game.moves()[action][0], game.rotation,
                [game.resources(p) for p in range(players)])

    _record, game = arena_game("lemuria", names, players, seed, options={"impact": impact},
                               bot_options=bot_options, on_action=show)
    assert isinstance(game, Game)
    finish(game)
    flush(game)
    winner = game.winner()
    assert winner is not None
    return GameResult(game, winner, game.vp(), names, log)
