"""One module per game, each with ``register(subparsers)`` adding that game's subcommands.

Every parser of the ``lumicore`` command is a :class:`Parser`, so every option's help shows its
default (or says it is required) and carries no docstring markup, without each command having
to say so:

>>> parser = Parser(prog="demo", description="Run ``demo``.")
>>> _ = parser.add_argument("--seed", type=integer, default=3, help="the :func:`seed` to use")
>>> _ = parser.add_argument("--json", action="store_true", help="print JSON")
>>> print(parser.format_help())  # doctest: +NORMALIZE_WHITESPACE
usage: demo [-h] [--seed SEED] [--json]
Run demo.
options:
  -h, --help   show this help message and exit
  --seed SEED  the seed to use (default: 3)
  --json       print JSON (default: off)
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

from lumicore.checks import parse_int, parse_real
from lumicore.data import plural, replaced_whole, shorten, write_file
from lumicore.errors import LumicoreError
from solvers.arena import seat_bots
from solvers.console import say
from solvers.limits import check_limits

_MARKUP = re.compile(r":[a-z:]+:`~?([^`]*)`|``([^`]*)``|(?<![\w*])\*\*(\S[^*]*?)\*\*(?![\w*])")
_DEFAULT = re.compile(r"\bdefault\b|\(required\)", re.IGNORECASE)
_FLAGS = (argparse._StoreConstAction, argparse._CountAction, argparse._HelpAction,
          argparse._VersionAction, argparse._SubParsersAction)


def plain(text: str) -> str:
    """Text without reStructuredText markup (roles, literals, bold), for terminal help.

    >>> plain("see :func:`solvers.lucia.solve` and ``--deck`` (**exact**)")
    'see solvers.lucia.solve and --deck (exact)'
    """
    return _MARKUP.sub(lambda m: next(g for g in m.groups() if g is not None), text)


class HelpFormatter(argparse.HelpFormatter):
    """Help without doc markup, with ``(default: ...)`` after every option that takes a value
    and does not name its default already (``(required)`` for required options)."""

    def _format_text(self, text: str) -> str:
        return super()._format_text(plain(text))

    def _expand_help(self, action: argparse.Action) -> str:
        return plain(super()._expand_help(action))

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        note = _default_note(action)
        return f"{text} {note}" if note and text else text or note


def _default_note(action: argparse.Action) -> str:
    """``(default: ...)`` or ``(required)`` for an option that takes a value and whose help does
    not name its default, ``(default: off)`` for such an on/off flag; ``""`` for ``--help``,
    sub-commands and required positionals."""
    if isinstance(action, argparse._StoreTrueAction):
        return "" if _DEFAULT.search(action.help or "") else "(default: off)"
    if (not isinstance(action, argparse._StoreAction | argparse._AppendAction)
            or action.nargs == 0 or action.help == argparse.SUPPRESS
            or _DEFAULT.search(action.help or "")
            or (action.required and not action.option_strings)):
        return ""
    if action.required:
        return "(required)"
    return "(default: none)" if action.default is None else "(default: %(default)s)"


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` with :class:`HelpFormatter`; its subparsers are Parsers too (argparse
    makes subparsers of the parent's class), so every command of the CLI gets the formatter.
    An option added without help still shows its default."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        action = super().add_argument(*args, **kwargs)
        if action.help is None:  # argparse prints nothing for an action without help
            action.help = _default_note(action) or None
        return action

    def error(self, message: str) -> NoReturn:
        """argparse's usage error, with the values it quotes shortened (a 5,000-digit
        ``--deals`` made a line of 5,000 characters). The usage goes to standard error, or
        nowhere if it is closed (argparse's ``print_usage`` moved it to standard output)."""
        message = re.sub(r"'[^']{81,}'", lambda m: shorten(m.group(0)[1:-1]), message)
        # argparse names unknown arguments unquoted ("unrecognized arguments: ...")
        message = re.sub(r"(?<=: )[^'\n]{81,}$", lambda m: shorten(m.group(0)), message)
        say(self.format_usage(), end="")
        self.exit(2, f"{self.prog}: error: {message}\n")

    def _print_message(self, message: str, file: Any = None) -> None:
        """argparse's printing of help, usage and errors. Help and ``--version`` on standard
        output are flushed there and a failed write is raised, as for any other output
        (argparse dropped it: ``lumicore --help | true`` exited 0, not 141); usage errors go to
        standard error through :func:`solvers.console.say` (dropped if it is closed)."""
        if not message:
            return
        if file is None or file is sys.stderr:
            say(message, end="")
            return
        file.write(message)
        file.flush()


def add_game(subparsers: argparse._SubParsersAction, name: str, help: str,
             description: str) -> argparse._SubParsersAction:
    """Add the ``lumicore NAME`` parser and return its (required) subcommand group.
    ``description`` is its help's text: the first paragraph of it (a command module passes its
    docstring), however many lines that takes."""
    first = " ".join(description.strip().split("\n\n")[0].split())
    parser = subparsers.add_parser(name, help=help, description=first)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    return commands


def seconds(text: str) -> float:
    """The argparse type of every ``--time-limit``: a positive, finite number of seconds, so
    that a bad value is a usage error naming the option and the text given (``1e309`` is
    infinite once read).

    >>> seconds("2.5")
    2.5
    >>> seconds("1e309")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be a positive number of seconds (ASCII digits), got '1e309'
    """
    try:
        value = parse_real(text)  # ASCII digits only: float() reads '٣' as 3
        check_limits(None, value)  # the library's rule for a time limit
    except ValueError:  # not a number, or a SearchLimitError (a ValueError)
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds (ASCII "
                                         f"digits), got {shorten(text)}") from None
    return value


NO_LIMIT = "none"
"""How an option whose default is a limit (``lumen best --time-limit``) is told to set none: the
word every option's help shows for a default of None."""


def seconds_or_none(text: str) -> float | None:
    """The argparse type of a ``--time-limit`` whose default is a limit: :func:`seconds`, or
    :data:`NO_LIMIT` (``none``, any case) for no time limit.

    >>> seconds_or_none("None") is None, seconds_or_none("2")
    (True, 2.0)
    >>> seconds_or_none("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be a positive number of seconds (ASCII digits) or none, got '0'
    """
    if isinstance(text, str) and text.strip().lower() == NO_LIMIT:
        return None
    try:
        return seconds(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds (ASCII digits) "
                                         f"or {NO_LIMIT}, got {shorten(text)}") from None


def integer(text: str) -> int:
    """The argparse type of every whole-number option (``--seed``, ``--players``, ``--games``,
    ...): ASCII digits only, as in every notation of the games (``int()`` reads '٣' as 3 and
    takes ``1_000``); a bad value is a usage error naming the option. Each command checks the
    range.

    >>> integer("12"), integer("-1")
    (12, -1)
    >>> integer("\u0663")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be a whole number in ASCII digits, got '٣'
    """
    try:
        return parse_int(text, name="")
    except LumicoreError as exc:  # argparse puts the option's name before the message
        raise argparse.ArgumentTypeError(str(exc).lstrip()) from None


def count(text: str) -> int:
    """The argparse type of counts that must be 1 or more (``--max-nodes``): a bad value is a
    usage error naming the option. The upper limits are the library's, which names them.

    >>> count("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be a whole number of 1 or more (ASCII digits), got '0'
    """
    try:
        value = parse_int(text)
        check_limits(value, None)  # the library's rule for a node cap
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number of 1 or more (ASCII "
                                         f"digits), got {shorten(text)}") from None
    return value


@contextmanager
def naming(source: str) -> Iterator[None]:
    """Errors raised while a command reads ``source`` (the path of a record, a state or a deal
    given on its command line) name the file, as the errors of data files do:
    ``'game.json': Lemuria game record: field 'seed' ...``. Messages that begin with its name
    already, and JSON text given in place of a file, pass unchanged.

    >>> with naming("game.json"):
    ...     raise LumicoreError("field 'seed' must be a seed")
    Traceback (most recent call last):
    ...
    lumicore.errors.LumicoreError: 'game.json': field 'seed' must be a seed
    """
    try:
        yield
    except LumicoreError as exc:
        name = shorten(source)
        if source.lstrip().startswith(("{", "[")) or str(exc).startswith(name):
            raise
        raise type(exc)(f"{name}: {exc}") from None


def named(source: str, replay: Callable[[str], Iterable[Any]]) -> Iterator[Any]:
    """The states ``replay(source)`` yields, its errors naming ``source`` (:func:`naming`)."""
    with naming(source):
        yield from replay(source)


def decision_after(states: Iterable[Any], decisions: int | None) -> tuple[Any, int]:
    """The position a command analyses in a replayed record (``states``: the start, then the
    state after each recorded step) and how many steps lead to it: the end of the record
    (``decisions`` None), or the first decision at or after its first ``decisions`` steps
    (chance steps, draws and rolls, are no decisions). Every state is read all the same: a bad
    later step of the record is an error.

    >>> from lumicore.game import new_game
    >>> start = new_game("lumen", seed=1)
    >>> decision_after([start], None)[1]
    0
    >>> try:
    ...     decision_after([start], 3)
    ... except LumicoreError as exc:
    ...     print(exc)
    --decisions 3: the record holds no decision after 3 steps (0 in all)
    """
    if decisions is not None and (isinstance(decisions, bool) or decisions < 0):
        raise LumicoreError(f"--decisions {decisions}: expected 0 or more")
    chosen, done, state = None, -1, None
    for done, state in enumerate(states):
        if (decisions is not None and chosen is None and done >= decisions
                and not state.is_chance_node() and not state.is_terminal()):
            chosen = state.clone(), done
    if decisions is None:
        return state, done
    if chosen is None:
        raise LumicoreError(f"--decisions {decisions}: the record holds no decision after "
                            f"{decisions} steps ({max(done, 0)} in all)")
    return chosen


def check_output_path(path: str | Path, atomic: bool = True) -> Path:
    """Check, before any work is done, that ``path`` can be written: its folder exists and it is
    not itself a folder, and this process may write it (the file, or a new file in its folder).
    ``atomic``: the file will be written whole (``write_file(atomic=True)``: ``--svg``,
    ``--record``, ``--save``), through a temporary file in its folder, so the folder must be
    writable even when the file exists (:func:`lumicore.data.replaced_whole`); without it the
    file is written in place (``--out``). Raises :class:`LumicoreError` naming the path."""
    if str(path) == "":
        raise LumicoreError("output '': an empty name; name a file")
    path = Path(path)
    try:
        if path.is_dir():
            raise LumicoreError(f"output {shorten(path)} is a folder, not a file")
        if not path.parent.is_dir():
            folder = shorten(path.parent)
            if path.parent.exists():
                raise LumicoreError(f"output {shorten(path)}: {folder} is a file, not a folder")
            raise LumicoreError(f"output {shorten(path)}: folder {folder} does not exist")
        if path.exists() and not os.access(path, os.W_OK):
            if _read_only(path):
                raise LumicoreError(f"output {shorten(path)}: read-only file system")
            raise LumicoreError(f"output {shorten(path)}: permission denied (a file this user "
                                "may not write)")
        new_file = not path.exists() or (atomic and replaced_whole(path))
        if new_file and not os.access(path.parent, os.W_OK | os.X_OK):
            if _read_only(path.parent):
                raise LumicoreError(f"output {shorten(path)}: read-only file system (folder "
                                    f"{shorten(path.parent)} is on one)")
            why = "" if not path.exists() else ", and the file is replaced through a new one there"
            raise LumicoreError(f"output {shorten(path)}: permission denied (folder "
                                f"{shorten(path.parent)} is not writable by this user{why})")
    except OSError as exc:
        raise LumicoreError(f"output {shorten(path)} is not a usable path") from exc
    return path


def _read_only(path: Path) -> bool:
    """Whether ``path`` is on a file system mounted read-only: ``os.access`` says a write is
    refused but not why (errno EROFS), and "permission denied" sent users to the permissions.
    False where ``os.statvfs`` is missing (Windows) or fails."""
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except (AttributeError, OSError):
        return False


def add_tournament_command(commands: argparse._SubParsersAction, game: str,
                           bots: str = "random,greedy", players: int = 2,
                           add_options: Callable[[argparse.ArgumentParser], None] | None = None,
                           options: Callable[[argparse.Namespace], dict[str, Any]] | None = None,
                           cooperative: bool = False) -> argparse.ArgumentParser:
    """Add ``lumicore GAME tournament`` (bots of :mod:`solvers.arena` playing seeded games with
    rotated seats) to a game's subcommand group; one line in a game's ``register``::

        add_tournament_command(commands, "reef")

    A game with options (a board side, an expansion) passes the function that adds its option
    arguments to a parser (``add_options(parser)``, the one its ``play`` uses too) and the one
    that turns the parsed arguments into ``new_game``'s keyword options (``options(args)``);
    every game of the tournament is dealt with them, and each record of ``--out`` holds them.
    ``cooperative``: the game's players win or lose together (:func:`lumicore.game.is_cooperative`),
    and the help says how such a tournament runs: each bot at a table of its own, no ratings.
    """
    if (add_options is None) != (options is None):
        raise TypeError("add_options and options go together: give both or neither")
    if cooperative:
        summary = "play each bot at a table of its own on the same deals; win rates"
        description = (f"Play seeded games of {game}, a co-operative game: each bot plays every "
                       "seat of a table of its own, --games games, game i of every bot on the "
                       "same deal; print each bot's games, wins and win rate with its 95% "
                       "interval (no ratings: bots seated together would win or lose together).")
    else:
        summary = "play bots against each other; win rates and ratings"
        description = (f"Play seeded games of {game} between bots, seats rotated; print each "
                       "bot's games, wins, win rate with its 95% interval and openskill rating.")
    parser = commands.add_parser("tournament", help=summary, description=description)
    parser.add_argument("--bots", default=bots,
                        help=f"comma-separated bot names, options as name:key=value "
                             f"(e.g. mcts:iterations=400) (default: {bots})")
    parser.add_argument("--games", type=integer, default=100,
                        help=("games for each bot" if cooperative else "games to play")
                        + " (default: 100)")
    parser.add_argument("--players", type=integer, default=players,
                        help=f"players per game (default: {players})")
    parser.add_argument("--seed", type=integer, default=0, help="seed of the deals (default: 0)")
    if add_options is not None:
        add_options(parser)
    parser.add_argument("--workers", type=integer, default=None,
                        help="worker processes (default: the machine's cores)")
    parser.add_argument("--backend", choices=("process", "dask"), default="process",
                        help="local process pool or Dask cluster (default: process)")
    parser.add_argument("--scheduler", default=None,
                        help="Dask scheduler address, e.g. tcp://host:8786 (default: a local "
                             "cluster)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--out", default=None, metavar="FILE",
                        help="write every game's record to FILE, one JSON line each (default: "
                             "none)")
    parser.set_defaults(run=lambda args: _run_tournament(args, game, options))
    return parser


def _run_tournament(args: argparse.Namespace, game: str,
                    options: Callable[[argparse.Namespace], dict[str, Any]] | None = None
                    ) -> int:
    import json

    from solvers.arena import tournament
    from solvers.limits import exit_code

    if args.out is not None:
        check_output_path(args.out, atomic=False)
    result = tournament(game, seat_bots(args.bots), players=args.players, games=args.games,
                        seed=args.seed, workers=args.workers, backend=args.backend,
                        scheduler=args.scheduler, progress=False if args.json else None,
                        record=args.out, **(options(args) if options is not None else {}))
    if args.json:
        print(json.dumps(result.to_dict()))
    else:
        deals = (f" (each bot on the same {plural(result.deals, 'deal')})"
                 if result.cooperative else "")
        seats = plural(result.players, "player")
        print(f"{game}: {result.played} of {result.games} games{deals}, {seats}, seed "
              f"{result.seed} ({result.status})")
        if result.options:
            print("options: " + ", ".join(f"{k} {v}" for k, v in result.options.items()))
        print(result.table())
        if not result.cooperative:  # a co-operative game's seats win or lose together
            print("wins by seat: " + ", ".join(f"{w:.3f}" for w in result.seat_wins))
    return exit_code(result.status, has_answer=True)


def add_play_command(commands: argparse._SubParsersAction, game: str,
                     bots: str = "greedy,random",
                     describe: Callable[[Any, int], str] | None = None) -> argparse.ArgumentParser:
    """Add a generic ``lumicore GAME play`` (one seeded game between bots, printed action by
    action, then each player's return) to a game's subcommand group. ``describe(state, action)``
    is the line printed before each action (default: the acting player and
    ``state.action_to_string(action)``). A game with its own round-by-round printout writes its
    own ``play`` instead, with :func:`solvers.arena.play_game` and its ``on_action`` hook."""
    parser = commands.add_parser(
        "play", help="play one seeded game between bots",
        description=f"Play one seeded game of {game} between bots, one per seat, and print it.")
    parser.add_argument("--bots", default=bots,
                        help=f"comma-separated bot names, one per seat, or one for every seat; "
                             f"options as name:key=value (default: {bots})")
    parser.add_argument("--players", type=integer, default=None,
                        help="players (default: one per bot named)")
    parser.add_argument("--seed", type=integer, default=0, help="seed of the deal (default: 0)")
    parser.add_argument("--record", default=None,
                        help="write the game's record (JSON) to FILE (default: none)")
    parser.add_argument("--json", action="store_true",
                        help="print the record as JSON instead of the game")
    parser.set_defaults(run=lambda args: _run_play(args, game, describe))
    return parser


def _default_describe(state: Any, action: int) -> str:
    player = state.current_player()
    who = "chance" if player < 0 else f"player {player}"
    return f"{who}: {state.action_to_string(action)}"


def _run_play(args: argparse.Namespace, game: str,
              describe: Callable[[Any, int], str] | None) -> int:
    import json

    from solvers.arena import play_game

    if args.record is not None:
        check_output_path(args.record)
    bots = seat_bots(args.bots, args.players)
    players = len(bots)
    show = describe or _default_describe
    printer = None if args.json else (lambda state, action: print(show(state, action)))
    record, final = play_game(game, bots, players, args.seed, on_action=printer)
    if args.record is not None:
        write_file(args.record, json.dumps(record) + "\n", atomic=True)
    if args.json:
        print(json.dumps(record))
        return 0
    returns = final.returns()
    best = max(returns)
    winners = [p for p, r in enumerate(returns) if r == best and r > 0]
    print("returns: " + ", ".join(f"player {p} ({record['bots'][p]}) {r:g}"
                                  for p, r in enumerate(returns)))
    print("winner: " + (", ".join(f"player {p} ({record['bots'][p]})" for p in winners)
                        if winners else "nobody"))
    return 0
