"""Bots playing whole games of any registered game, and tournaments between them.

Everything here works on the :class:`lumicore.game.GameState` protocol and the registry
``lumicore.game.GAMES``, so a game gets bots, ``play`` and ``tournament`` by registering its
``new_game``. The generic bots (:mod:`solvers.bots`) are ``random``, ``greedy``, ``flatmc`` and
``mcts``; a game adds or overrides bots in ``solvers/<game>/bots.py`` with a dict
``BOTS: dict[str, Callable[..., Bot]]`` (each called as ``factory(seed=..., **options)``), which
:func:`make_bot` looks at first.

A game record is a JSON object ``{"game", "players", "seed", "options", "bots", "actions",
"returns"}``: ``actions`` lists every action in order, chance outcomes included, so
:func:`replay_record` replays it exactly.
"""

from __future__ import annotations

import importlib
import json
import math
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

from lumicore.checks import check_int, check_players, is_integer, parse_int, parse_real
from lumicore.data import OutputFile, plural, shorten
from lumicore.errors import IllegalMoveError, LumicoreError
from lumicore.game import (
    GAMES,
    GameState,
    check_state,
    is_cooperative,
    new_game,
    replay_arena_record,
)
from solvers.batch import check_workers, naming_job, run_batch
from solvers.bots import (
    GENERIC_BOTS,
    MAX_STEPS,
    Bot,
    FlatMCBot,
    GreedyBot,
    MCTSBot,
    RandomBot,
    check_seed,
    sample_outcome,
)
from solvers.ctrl_c import check, noting
from solvers.limits import DONE, INTERRUPTED
from solvers.progress import check_callback, check_progress
from solvers.progress import progress as progress_bar
from solvers.stats import plackett_luce, wilson

__all__ = ["Bot", "RandomBot", "GreedyBot", "FlatMCBot", "MCTSBot", "make_bot", "bot_names",
           "parse_bot_spec", "seat_bots", "play_game", "play_from",
           "replay_record",
           "tournament", "TournamentResult", "BotResult", "seat_lineups", "game_seed",
           "COOPERATIVE_NOTE", "MAX_GAMES", "LABEL_WIDTH"]

COOPERATIVE_NOTE = ("co-operative: bots are compared by the win rate of a table of their own on "
                    "the same deals")
"""Why a co-operative game's tournament rates no bot (its table and JSON say so)."""

def _game_bots(game: str) -> dict[str, Callable[..., Bot]]:
    """``solvers.<game>.bots.BOTS``, or nothing when the game has no such module."""
    if not game.replace("-", "_").isidentifier():
        return {}
    package = f"solvers.{game.replace('-', '_')}"
    module_name = f"{package}.bots"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name in (module_name, package):
            return {}
        raise
    return dict(getattr(module, "BOTS", {}))


def bot_names(game: str) -> list[str]:
    """The bot names ``game`` knows: its own and the generic ones, sorted."""
    if not isinstance(game, str):
        raise LumicoreError(f"game must be a game's name, got {shorten(game)}")
    return sorted(set(_game_bots(game)) | set(GENERIC_BOTS))


def make_bot(name: str, game: str, seed: int = 0, **options: Any) -> Bot:
    """The bot called ``name`` for ``game`` (the game's own ``BOTS`` first, then the generic
    ones), seeded with ``seed``; ``options`` go to its factory.

    >>> make_bot("mcts", "lucia", seed=1, iterations=10).iterations
    10
    >>> make_bot("foo", "lucia")
    Traceback (most recent call last):
    ...
    lumicore.errors.LumicoreError: unknown bot 'foo' (known: best, flatmc, greedy, mcts, random)
    """
    if not isinstance(name, str) or not isinstance(game, str):
        raise LumicoreError(f"bot and game names must be strings, got {name!r:.40}, {game!r:.40}")
    seed = check_seed(seed)
    factories = {**GENERIC_BOTS, **_game_bots(game)}
    if name not in factories:
        raise LumicoreError(f"unknown bot {name[:80]!r} (known: {', '.join(bot_names(game))})")
    try:
        return factories[name](seed=seed, **options)
    except TypeError as exc:
        raise LumicoreError(f"bot {name!r}: bad options {', '.join(map(shorten, sorted(options)))}"
                            f" ({str(exc)[:160]})") from exc


def parse_bot_spec(text: str) -> tuple[str, dict[str, Any]]:
    """A bot name with options, ``"mcts:iterations=400:policy=greedy"`` ->
    ``("mcts", {"iterations": 400, "policy": "greedy"})`` (numbers become int or float).

    >>> parse_bot_spec("flatmc:playouts=8:policy=greedy")
    ('flatmc', {'playouts': 8, 'policy': 'greedy'})
    """
    if not isinstance(text, str):
        raise LumicoreError(f"a bot is named by a string, got {text!r:.80}")
    if not text.strip():
        raise LumicoreError("empty bot name")
    name, *parts = text.strip().split(":")
    options: dict[str, Any] = {}
    for part in parts:
        key, eq, value = part.partition("=")
        if not eq or not key.isidentifier():
            raise LumicoreError(f"bot option {part[:80]!r} in {text[:80]!r} is not KEY=VALUE")
        if key == "seed":  # each game seeds its bots from the run's seed
            raise LumicoreError(f"bot option seed in {text[:80]!r}: a bot's seed comes from "
                                "the game's (--seed)")
        if key in options:
            raise LumicoreError(f"bot option {key} is given twice in {text[:80]!r}")
        options[key] = _number(value, f"bot option {key} in {text[:80]!r}")
    return name, options


def seat_bots(text: str | Sequence[str], players: int | None = None) -> list[str]:
    """Bot names from ``"greedy,mcts,random"`` (or a sequence), one per seat. With ``players``
    given, one name fills every seat and any other count is an error naming both.

    >>> seat_bots("greedy", 3), seat_bots("sheet, random")
    (['greedy', 'greedy', 'greedy'], ['sheet', 'random'])
    """
    if not isinstance(text, str) and not (isinstance(text, (list, tuple))
                                          and all(isinstance(n, str) for n in text)):
        raise LumicoreError(f"bots must be a comma-separated text or a list of bot names, got "
                            f"{shorten(text)}")
    names = [n.strip() for n in (text.split(",") if isinstance(text, str) else text)]
    if not names or any(not n for n in names):
        raise LumicoreError(f"--bots {shorten(text)}: an empty bot name")
    if players is None:
        return names
    players = _check_players(players)  # before one name is copied to every seat
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise LumicoreError(f"--bots names {len(names)} bots for {players} players (name one per "
                            "seat, or one for every seat)")
    return names


def _number(text: str, where: str) -> Any:
    """A bot option's value: an int or a float written in ASCII digits, None for ``none``, else
    the text itself; a number in other digits (which ``int()`` and ``float()`` would read:
    '٤٠٠', ``1_000``) is a :class:`LumicoreError` naming ``where``."""
    for parse in (parse_int, parse_real):
        try:
            return parse(text)
        except ValueError:
            pass
    try:
        float(text)
    except ValueError:
        return None if text == "none" else text
    raise LumicoreError(f"{where}: a number is written in ASCII digits 0-9 (no '_'), got "
                        f"{shorten(text)}")


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded with ``seed`` (below 2**63)."""
    seed, index = check_seed(seed), check_seed(index, name="index")
    state = np.random.SeedSequence([seed, index]).generate_state(2, dtype=np.uint64)
    return int(state[0] >> np.uint64(1))


def _new_game(game: str, players: int, seed: int, options: dict[str, Any]) -> GameState:
    """``new_game`` (an option the game does not have is its :class:`LumicoreError`), refusing
    ``auto_chance``."""
    if not isinstance(game, str):
        raise LumicoreError(f"a game is named by a string, got {game!r:.80}")
    if options.get("auto_chance"):  # the game would draw for itself, and its copies alike
        raise LumicoreError(f"game {game[:40]!r}: option auto_chance: the arena plays the draws "
                            "as chance nodes (a game that draws for itself shows the bots that "
                            "copy it the draws to come)")
    return new_game(game, players=players, seed=seed, **options)


def _check_players(players: object) -> int:
    """``players`` as an int from 1 to 8, the most any game seats (each game's own range is
    checked as it starts)."""
    return check_players(players, 1, 8, "the arena")


def _check_options(options: object, name: str = "options") -> dict[str, Any]:
    """``options`` (None, or keyword options in a dict keyed by their names) as a new dict; else
    :class:`LumicoreError` naming ``name``."""
    if options is None:
        return {}
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise LumicoreError(f"{name} must be a dict of options by name, got {shorten(options)}")
    return dict(options)


def _check_bot_options(bot_options: object) -> dict[str, dict[str, Any]]:
    """``bot_options`` (None, or a dict from bot labels to their option dicts) as a new dict;
    else :class:`LumicoreError` naming it (or the entry of the bot at fault)."""
    if bot_options is None:
        return {}
    if not isinstance(bot_options, Mapping) or not all(isinstance(k, str) for k in bot_options):
        raise LumicoreError(f"bot_options must be a dict from bot names to dicts of options, "
                            f"got {shorten(bot_options)}")
    return {label: _check_options(opts, f"bot_options[{shorten(label)}]")
            for label, opts in bot_options.items()}


def play_game(game: str, bots: Sequence[str | Bot], players: int | None = None, seed: int = 0,
              options: dict[str, Any] | None = None,
              bot_options: dict[str, dict[str, Any]] | None = None,
              on_action: Callable[[Any, int], object] | None = None,
              ) -> tuple[dict[str, Any], GameState]:
    """Play one seeded game of ``game`` with one bot per seat (names, bot specs as in
    :func:`parse_bot_spec`, or bot objects); return the record and the final state.

    The deal is ``new_game(game, players, seed, **options)``; chance outcomes and bots are
    seeded from ``seed`` too, so the same arguments give the same game. ``on_action(state,
    action)`` is called before each action is applied (for printing a game as it goes).
    """
    seed = check_seed(seed)
    if isinstance(bots, (str, bytes)) or not isinstance(bots, Sequence) or not bots:
        raise LumicoreError(f"bots must be a list, one bot per seat, got {shorten(bots)}")
    check_callback(on_action, "on_action")
    players = _check_players(len(bots) if players is None else players)
    if len(bots) != players:
        raise LumicoreError(f"{players} players need {players} bots, got {len(bots)}")
    options = _check_options(options)
    bot_options = _check_bot_options(bot_options)
    state = _new_game(game, players, seed, options)
    labels, seat_bots = [], []
    for seat, bot in enumerate(bots):
        if isinstance(bot, str):
            name, opts = parse_bot_spec(bot)
            opts = {**bot_options.get(bot, {}), **opts}
            bot_seed = game_seed(seed, 1 + seat)
            labels.append(bot)
            seat_bots.append(make_bot(name, game, seed=bot_seed, **opts))
        elif callable(getattr(bot, "choose", None)):
            labels.append(getattr(bot, "name", type(bot).__name__))
            seat_bots.append(bot)
        else:
            raise LumicoreError(f"seat {seat}: not a bot name or bot: {bot!r:.80}")
    actions = play_from(state, seat_bots, np.random.default_rng(game_seed(seed, 0)), on_action,
                        labels)
    record = {"game": game, "players": players, "seed": seed, "options": options,
              "bots": labels, "actions": actions, "returns": [float(r) for r in state.returns()]}
    return record, state


@noting()
def play_from(state: GameState, bots: Sequence[Bot], rng: np.random.Generator | int,
              on_action: Callable[[Any, int], object] | None = None,
              labels: Sequence[str] | None = None) -> list[int]:
    """Play ``state`` in place to the end, ``bots[p]`` choosing for player ``p`` and chance drawn
    from ``rng`` (a generator or a seed); return the actions played, chance outcomes included.
    For play-outs from a given position (win probabilities, analysis); a bot's illegal action
    raises :class:`IllegalMoveError` naming it (by ``labels[p]`` if given).

    >>> from lumicore.lucia.game import PuzzleState
    >>> state = PuzzleState.new("h L4 H T S", max_plays=4)
    >>> actions = play_from(state, [make_bot("greedy", "lucia", seed=1)], rng=0)
    >>> state.is_terminal() and len(actions) <= 4
    True
    """
    rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(check_seed(rng))
    check_callback(on_action, "on_action")
    check_state(state)
    if isinstance(bots, (str, bytes)) or not isinstance(bots, Sequence) or not all(
            callable(getattr(bot, "choose", None)) for bot in bots):
        raise LumicoreError(f"bots must be a list of bots (objects with choose), one per player, "
                            f"got {shorten(bots)}")
    actions: list[int] = []
    while not state.is_terminal():
        check()  # a bot's search may have taken the Ctrl-C: the game stops here
        if len(actions) >= MAX_STEPS:
            raise LumicoreError(f"a game did not end within {MAX_STEPS} actions")
        if state.is_chance_node():
            action = sample_outcome(state, rng)
        else:
            player = state.current_player()
            if not 0 <= player < len(bots):
                raise LumicoreError(f"bots must hold a bot for each player, got {len(bots)} for "
                                    f"player {player + 1}")
            action = bots[player].choose(state)
            if not is_integer(action) or action not in state.legal_actions():
                name = labels[player] if labels else type(bots[player]).__name__
                raise IllegalMoveError(f"bot {name!r} (seat {player}) chose {action!r:.40}, "
                                       "not a legal action")
            action = int(action)
        if on_action is not None:
            on_action(state, action)
        state.apply_action(action)
        actions.append(action)
    return actions


def replay_record(record: dict[str, Any] | str | Path) -> GameState:
    """Replay a game record (the dict, its JSON text or the path of its JSON file, read by
    :func:`lumicore.checks.read_record`: a ``str`` starting with ``{`` is the text, any other
    the path) through ``new_game`` and ``apply_action``; return the final state. It is
    :func:`lumicore.game.replay_arena_record` for a record of any registered game, read by the
    game's own rules when it has some (:func:`lumicore.game.record_rules`: a Lucia record
    without ``options`` is refused here as in ``lucia replay``): an illegal action raises
    :class:`IllegalMoveError` naming its index in ``actions`` (from 0), a bad field is a
    :class:`DataError`."""
    return replay_arena_record(record)


_MAX_LINEUPS = 10**6  # seatings in one cycle: more is a list no tournament could play through


def seat_lineups(n_bots: int, players: int) -> list[tuple[int, ...]]:
    """One cycle of seatings (bot indices per seat) in which every bot sits in every seat equally
    often: every combination of ``players`` bots, each rotated through the seats; with fewer
    bots than seats, the bots are dealt round the seats and rotated.

    >>> seat_lineups(2, 2)
    [(0, 1), (1, 0)]
    >>> len(seat_lineups(4, 3)), seat_lineups(2, 3)
    (12, [(0, 1, 0), (1, 0, 1)])
    """
    n_bots = check_int(n_bots, "n_bots", 1, what="a positive integer")
    players = _check_players(players)
    if n_bots >= players and math.comb(n_bots, players) * players > _MAX_LINEUPS:
        raise LumicoreError(f"n_bots: {n_bots} bots at {players} seats make more than "
                            f"{_MAX_LINEUPS:,} seatings, got {shorten(n_bots)}")
    if n_bots < players:
        return [tuple((s + r) % n_bots for s in range(players)) for r in range(n_bots)]
    return [combo[r:] + combo[:r] for combo in combinations(range(n_bots), players)
            for r in range(players)]


@dataclass
class BotResult:
    """One bot's tally: ``games`` is the seats it played (one per game unless it held several
    seats), ``wins`` the sum of its returns (1 a win, 1/k a win shared by k), ``shared`` the
    seats at which it tied for first (by seat, as ``games``). In a co-operative game, where a
    bot holds every seat of its games, ``games`` counts its games, ``wins`` those won,
    ``shared`` is 0 and ``rating`` is empty."""

    games: int = 0
    wins: float = 0.0
    shared: int = 0
    rating: dict[str, float] = field(default_factory=dict)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    def to_dict(self) -> dict[str, Any]:
        low, high = self.interval
        return {"games": self.games, "wins": self.wins, "shared": self.shared,
                "win_rate": self.win_rate, "low": low, "high": high, "rating": self.rating}


@dataclass
class TournamentResult:
    """What :func:`tournament` returns: per bot its :class:`BotResult` (by the label given in
    ``bots``), the games of the run (``games``) and those played, the status (``"done"`` or
    ``"interrupted"``) and the records (in game order). ``cooperative``: the game is
    co-operative, so each bot played the same ``deals`` at a table of its own (``games`` is
    ``deals`` times the bots) and no bot is rated; else ``deals`` is ``games``."""

    game: str
    players: int
    seed: int
    options: dict[str, Any]
    bots: dict[str, BotResult]
    games: int
    played: int
    status: str
    elapsed: float
    records: list[dict[str, Any]] = field(default_factory=list, repr=False)
    cooperative: bool = False
    deals: int = 0

    @property
    def note(self) -> str | None:
        """Why no bot is rated (:data:`COOPERATIVE_NOTE`), or None when they are."""
        return COOPERATIVE_NOTE if self.cooperative else None

    @property
    def seat_wins(self) -> list[float]:
        """Each seat's share of the wins (seat ``s`` is player ``s``): its advantage."""
        totals = [sum(min(1.0, max(0.0, r["returns"][s])) for r in self.records)
                  for s in range(self.players)]
        return [t / self.played if self.played else 0.0 for t in totals]

    @property
    def interrupted(self) -> bool:
        return self.status == INTERRUPTED

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "players": self.players, "seed": self.seed,
                "options": self.options, "games": self.games, "played": self.played,
                "status": self.status, "elapsed": self.elapsed, "seat_wins": self.seat_wins,
                "cooperative": self.cooperative, "deals": self.deals, "note": self.note,
                "bots": {name: r.to_dict() for name, r in self.bots.items()}}

    def __str__(self) -> str:
        """:meth:`table` (a tournament prints as its table)."""
        return self.table()

    def table(self) -> str:
        """A text table, best rating first; in a co-operative game, best win rate first, without
        ratings, and a last line saying why (:attr:`note`)."""
        width = min(LABEL_WIDTH, max([24, *map(len, self.bots)]))  # labels whole, up to a cap
        head = f"{'bot':<{width}} {'games':>6} {'wins':>8} {'win rate':>9} {'95% interval':>15}"
        # a bot that played no game (fewer games than one round of the seating) comes last
        if self.cooperative:
            rows = [head]
            ranked = sorted(self.bots.items(), key=lambda kv: (not kv[1].games, -kv[1].win_rate))
        else:
            rows = [f"{head} {'mu':>6} {'sigma':>6} {'ordinal':>8}"]
            ranked = sorted(self.bots.items(), key=lambda kv: (
                not kv[1].games, -kv[1].rating.get("ordinal", 0.0)))
        for name, r in ranked:
            if not r.games:
                rows.append(f"{name[:width]:<{width}} {0:>6} {'-':>8} {'-':>9} {'-':>15}")
                continue
            low, high = r.interval
            row = (f"{name[:width]:<{width}} {r.games:>6} {r.wins:>8.1f} {r.win_rate:>9.3f} "
                   f"{f'{low:.3f}-{high:.3f}':>15}")
            if not self.cooperative:
                row += (f" {r.rating.get('mu', 0):>6.2f} {r.rating.get('sigma', 0):>6.2f} "
                        f"{r.rating.get('ordinal', 0):>8.2f}")
            rows.append(row)
        if self.cooperative:
            rows.append(f"no ratings ({self.note})")
        idle = [name for name, r in self.bots.items() if not r.games]
        if idle and self.status == INTERRUPTED:
            rows.append(f"not played: {', '.join(idle)} (interrupted before any of their "
                        "games finished)")
        elif idle:
            rows.append(f"not played: {', '.join(idle)} (the {plural(self.played, 'game')} "
                        "played seated other bots: play a multiple of the seating's round, "
                        "docs/arena.md)")
        return "\n".join(rows)


LABEL_WIDTH = 80
"""The widest bot label a tournament's table shows whole (a label is the bot's name with its
options, ``mcts:iterations=400:policy=greedy``); longer ones are cut there."""

MAX_GAMES = 1_000_000
"""The most games a tournament plays: each game's job is made before the first game starts, and
each game's record is kept (10**30 games filled the memory before any game was played)."""


def _job_name(_index: int, job: tuple) -> str:
    """A tournament game as an error names it: ``"game 3 (seed 123, bots 'greedy,random')"``."""
    _, _, index, labels, _, seed, _, _ = job
    return f"game {index} (seed {seed}, bots {shorten(','.join(labels))})"


def _play_job(job: tuple) -> dict[str, Any]:
    """One tournament game (top level, so process pools and Dask can pickle it); an error names
    the game, its seed and its bots (:func:`solvers.batch.naming_job`)."""
    game, entry, index, labels, players, seed, options, bot_options = job
    if game not in GAMES:  # a worker that did not see a registration made at run time
        GAMES[game] = entry
    with naming_job(_job_name(0, job)):
        record, _ = play_game(game, labels, players, seed, options, bot_options)
    return record


def _tally(results: dict[str, BotResult], record: dict[str, Any], cooperative: bool) -> None:
    if cooperative:  # one bot at every seat: one game, won or lost by the table together
        r = results[record["bots"][0]]
        r.games += 1
        r.wins += min(1.0, max(0.0, record["returns"][0]))
        return
    best = max(record["returns"])
    for label, ret in zip(record["bots"], record["returns"], strict=True):
        r = results[label]
        r.games += 1
        r.wins += min(1.0, max(0.0, ret))
        if ret == best and record["returns"].count(best) > 1 and ret > 0:
            r.shared += 1


def _writer(record: str | Path | Callable[[dict], None] | None
            ) -> tuple[Callable[[dict], None] | None, Callable[[], None]]:
    """The function that takes each finished game's record (None: none wanted) and the one that
    closes the file. A file is checked and locked at once (:class:`OutputFile` with ``lock``: a
    second run writing the same file is refused before it plays, as two runs writing one file
    at their own offsets left NUL bytes and broken lines) but emptied at the first record only,
    so a run that fails before any game ends (a scheduler that cannot be reached, no dask) or is
    interrupted then leaves an existing file as it was, and no new empty file."""
    if record is None or callable(record):
        return record, lambda: None
    if not isinstance(record, (str, os.PathLike)):
        raise LumicoreError(f"record must be a file path, a callable or None, got "
                            f"{shorten(record)}")
    from solvers.commands import check_output_path

    path = check_output_path(record, atomic=False)
    existed = path.exists()
    handle = OutputFile(path, "a", lock=True)
    written = False

    def write(rec: dict) -> None:
        nonlocal written
        if not written:
            handle.truncate()
            written = True
        handle.write(json.dumps(rec) + "\n")

    def close() -> None:
        if handle.closed:
            return
        if not written and not existed:
            handle.path.unlink(missing_ok=True)  # still locked: no other run writes it
        handle.close()

    return write, close


@noting()
def tournament(game: str = "reef", bots: Sequence[str] = ("random", "greedy"), players: int = 2,
               games: int = 100, seed: int = 0, workers: int | None = None,
               backend: str = "process", scheduler: str | None = None,
               progress: bool | None = None,
               record: str | Path | Callable[[dict], None] | None = None,
               bot_options: dict[str, dict[str, Any]] | None = None,
               **game_options: Any) -> TournamentResult:
    """Play ``games`` seeded games of ``game`` between ``bots`` (names or specs such as
    ``"mcts:iterations=400"``; 2 or more, or 1 or more in a co-operative game) with ``players``
    seats (2 to 4, or 1 to 4 in a co-operative game: a solo deal of Lucia), seats rotated so
    that every bot sits in every seat equally often over each cycle of :func:`seat_lineups`;
    the bots are rated (openskill's Plackett-Luce model).

    A co-operative game (:func:`lumicore.game.is_cooperative`), where the seats of a game win or
    lose together, cannot rank bots seated together: there each bot plays every seat itself, at a
    table of its own, ``games`` games, game ``i`` of every bot on the same deal (seed
    ``game_seed(seed, i)``), so ``games * len(bots)`` games in all; the bots are compared by their
    win rates on the same deals and not rated (:data:`COOPERATIVE_NOTE`).

    Game ``i`` is :func:`play_game` with seed ``game_seed(seed, i)``, run through
    :func:`solvers.batch.run_batch` (``workers``, ``backend``, ``scheduler``), so the counts are
    the same on either backend and any number of workers. A progress bar shows the running win
    rates (``progress``: None = on a terminal). ``record`` is a file path (one JSON record per
    line, in the order games finish) or a callable taking each record. Ctrl-C stops the run and
    returns the games finished so far with status ``"interrupted"``.
    """
    started = time.perf_counter()
    seed = check_seed(seed)
    games = check_int(games, "games", 1, MAX_GAMES, f"an integer from 1 to {MAX_GAMES:,}")
    if isinstance(bots, str) or not isinstance(bots, Iterable):
        raise LumicoreError(f"bots must be a list of bot names, got {bots!r:.80}")
    bots = list(bots)
    players = check_players(players, 1, 4, "a tournament")
    bot_options = _check_bot_options(bot_options)
    check_progress(progress)
    for label in bots:
        name, opts = parse_bot_spec(label)
        make_bot(name, game, seed=0, **{**bot_options.get(label, {}), **opts})
    first = _new_game(game, players, seed, game_options)  # bad player counts and options fail
    cooperative = is_cooperative(first)
    if players < 2 and not cooperative:  # one seat has no opponent to be rated against
        raise LumicoreError(f"a tournament of {game} has 2 to 4 players, got {players}")
    least = 1 if cooperative else 2  # a co-operative table of one bot is a measure of its own
    if len(bots) < least or len(set(bots)) != len(bots):
        raise LumicoreError(f"a tournament of {game} needs {least} or more different bots, got "
                            f"{bots!r:.80}")
    if cooperative and games * len(bots) > MAX_GAMES:  # every bot plays every deal
        raise LumicoreError(f"games: {games:,} games for each of {len(bots)} bots are "
                            f"{games * len(bots):,} games, more than a tournament plays "
                            f"({MAX_GAMES:,})")
    check_workers(workers, backend)
    if scheduler is not None and backend != "dask":
        raise LumicoreError("a scheduler address needs backend='dask'")
    if cooperative:  # deal by deal, each bot at a table of its own
        tables = [(i, [label] * players) for i in range(games) for label in bots]
    else:
        lineups = seat_lineups(len(bots), players)
        tables = [(i, [bots[b] for b in lineups[i % len(lineups)]]) for i in range(games)]
    jobs = [(game, GAMES[game], i, labels, players, game_seed(seed, i), game_options, bot_options)
            for i, labels in tables]
    write, close = _writer(record)
    results = {label: BotResult() for label in bots}
    records: dict[int, dict[str, Any]] = {}
    status = DONE
    try:
        bar = progress_bar(total=len(jobs), desc="games", unit="game", enabled=progress)
        batch = run_batch(_play_job, jobs, workers=workers, backend=backend,
                          scheduler=scheduler, name=_job_name)
    except BaseException:
        close()  # the file was locked (and maybe made) for a run that does not start
        raise
    try:
        for index, rec in batch:
            check()
            records[index] = rec
            _tally(results, rec, cooperative)
            if write is not None:
                write(rec)
            bar.update(1)
            bar.set_postfix_str(", ".join(f"{k[:12]} {r.win_rate:.2f}"
                                          for k, r in results.items()), refresh=False)
    except KeyboardInterrupt:
        status = INTERRUPTED
    finally:
        batch.close()
        bar.close()
        close()
    ordered = [records[i] for i in sorted(records)]
    if not cooperative:
        ratings = plackett_luce(
            [list(zip(r["bots"], r["returns"], strict=True)) for r in ordered], bots)
        for label, r in results.items():
            r.rating = ratings[label]
    return TournamentResult(game, players, seed, dict(game_options), results, len(jobs),
                            len(ordered), status, time.perf_counter() - started, ordered,
                            cooperative, games)
