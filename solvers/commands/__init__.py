"""One module per game, each with ``register(subparsers)`` adding that game's subcommands."""

from __future__ import annotations

import argparse
from pathlib import Path

from lumicore.data import shorten
from lumicore.errors import LumicoreError


def add_game(subparsers: argparse._SubParsersAction, name: str, help: str,
             description: str) -> argparse._SubParsersAction:
    """Add the ``lumicore NAME`` parser and return its (required) subcommand group."""
    parser = subparsers.add_parser(name, help=help, description=description)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    return commands


def check_output_path(path: str | Path) -> Path:
    """Check, before any work is done, that ``path`` can be written: its folder exists and it is
    not itself a folder. Raises :class:`LumicoreError` naming the path."""
    path = Path(path)
    try:
        if str(path) == "" or path.is_dir():
            raise LumicoreError(f"output {shorten(path)} is a folder, not a file")
        if not path.parent.is_dir():
            folder = shorten(path.parent)
            raise LumicoreError(f"output {shorten(path)}: folder {folder} does not exist")
    except OSError as exc:
        raise LumicoreError(f"output {shorten(path)} is not a usable path") from exc
    return path


def _bot_list(text: str) -> list[str]:
    bots = [b.strip() for b in text.split(",")]
    if any(not b for b in bots):
        raise LumicoreError(f"--bots {shorten(text)}: an empty bot name")
    return bots


def add_tournament_command(commands: argparse._SubParsersAction, game: str,
                           bots: str = "random,greedy", players: int = 2
                           ) -> argparse.ArgumentParser:
    """Add ``lumicore GAME tournament`` (bots of :mod:`solvers.arena` playing seeded games with
    rotated seats) to a game's subcommand group; one line in a game's ``register``::

        add_tournament_command(commands, "reef")
    """
    parser = commands.add_parser(
        "tournament", help="play bots against each other; win rates and ratings",
        description=f"Play seeded games of {game} between bots, seats rotated; print each bot's "
                    "games, wins, win rate with its 95%% interval and openskill rating.")
    parser.add_argument("--bots", default=bots,
                        help=f"comma-separated bot names, options as name:key=value "
                             f"(e.g. mcts:iterations=400) (default: {bots})")
    parser.add_argument("--games", type=int, default=100, help="games to play (default: 100)")
    parser.add_argument("--players", type=int, default=players,
                        help=f"players per game (default: {players})")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals (default: 0)")
    parser.add_argument("--workers", type=int, default=None,
                        help="worker processes (default: the machine's cores)")
    parser.add_argument("--backend", choices=("process", "dask"), default="process",
                        help="local process pool or Dask cluster (default: process)")
    parser.add_argument("--scheduler", default=None,
                        help="Dask scheduler address, e.g. tcp://host:8786 (default: a local "
                             "cluster)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--out", default=None,
                        help="write every game's record to FILE, one JSON line each (default: "
                             "none)")
    parser.set_defaults(run=lambda args: _run_tournament(args, game))
    return parser


def _run_tournament(args: argparse.Namespace, game: str) -> int:
    import json

    from solvers.arena import tournament
    from solvers.limits import exit_code

    if args.out is not None:
        check_output_path(args.out)
    result = tournament(game, _bot_list(args.bots), players=args.players, games=args.games,
                        seed=args.seed, workers=args.workers, backend=args.backend,
                        scheduler=args.scheduler, progress=False if args.json else None,
                        record=args.out)
    if args.json:
        print(json.dumps(result.to_dict()))
    else:
        print(f"{game}: {result.played} of {result.games} games, {result.players} players, "
              f"seed {result.seed} ({result.status})")
        print(result.table())
        print("wins by seat: " + ", ".join(f"{w:.3f}" for w in result.seat_wins))
    return exit_code(result.status, has_answer=True)
