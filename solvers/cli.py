"""The ``lumicore`` console command.

Each game adds its subcommands from ``solvers/commands/<game>.py``, which defines
``register(subparsers)``; this module only assembles them.

    lumicore lucia solve "S h S h S h h G h G T h T G h L0"
    lumicore reef best --hand "pink 3 crab, blue 5" --limestone 4
    lumicore lemuria plan
"""

from __future__ import annotations

import argparse
import codecs
import errno
import importlib
import os
import pkgutil
import sys
import warnings
from collections.abc import Sequence
from typing import TextIO

from lumicore import __version__
from lumicore.data import shorten
from lumicore.errors import LumicoreError, WorkerDiedError
from solvers.console import say
from solvers.ctrl_c import check, noting
from solvers.limits import EXIT_BAD_INPUT, EXIT_BROKEN_PIPE, EXIT_INTERRUPTED, EXIT_WORKER_DIED

ORDER = ("lucia", "reef", "lemuria", "lumen")


def games() -> list[str]:
    """The games that have a command module, in the order of ``ORDER`` then by name."""
    import solvers.commands

    found = [m.name for m in pkgutil.iter_modules(solvers.commands.__path__)]
    return sorted(found, key=lambda g: (ORDER.index(g) if g in ORDER else len(ORDER), g))


def build_parser() -> argparse.ArgumentParser:
    """The ``lumicore`` parser with every game's commands (all of them
    :class:`solvers.commands.Parser`)."""
    from solvers.commands import Parser

    parser = Parser(prog="lumicore", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"lumicore {__version__}")
    subparsers = parser.add_subparsers(dest="game", metavar="GAME")
    subparsers.required = True
    for game in games():
        importlib.import_module(f"solvers.commands.{game}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: parse ``argv`` and run the chosen command. Bad input (argparse's usage
    errors, a :class:`LumicoreError`, an ``OSError`` such as an unwritable output) exits with
    status 2 after a one-line message; a worker process of a batch run that died (killed for
    lack of memory) exits with 3 after one; Ctrl-C exits with 130; a closed output pipe
    (``lumicore ... | head``) exits quietly with 141. A warning (a cache that cannot be
    written, a fault of CP-SAT) is one line ``lumicore: warning: ...`` and the command goes
    on."""
    with warnings.catch_warnings():
        warnings.showwarning = _warning_line
        return _run(argv)


def _escape_what_output_cannot_encode() -> None:
    """Characters the standard output's or error's encoding lacks are written as ``\\u``
    escapes, not a ``UnicodeEncodeError`` traceback: Windows gives output redirected to a file
    its ANSI code page (cp1252 has no ``→``, which plan lines show)."""
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None) or "utf-8"
        if codecs.lookup(encoding).name != "utf-8" and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")


def _warning_line(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: TextIO | None = None, line: str | None = None) -> None:
    say(f"lumicore: warning: {message}")


def _run(argv: Sequence[str] | None) -> int:
    if sys.stdout is None:  # started with standard output closed (``>&-``)
        return _fail("standard output is closed: nothing could be printed")
    _escape_what_output_cannot_encode()
    try:
        args = _parse(argv)
        _check_outputs(args)
        status = int(args.run(args) or 0)
        sys.stdout.flush()  # a closed pipe or a full disk breaks here, not at exit
        return status
    except BrokenPipeError:
        return _reader_gone()
    except WorkerDiedError as exc:  # not bad input: a status of its own
        return _fail(str(exc), EXIT_WORKER_DIED)
    except LumicoreError as exc:
        return _fail(str(exc))
    except OSError as exc:
        if exc.filename is None and (_drop_broken_output() or exc.errno in FULL_ERRNOS):
            return _fail(f"cannot write standard output: {exc.strerror or exc}")
        where = f"{shorten(exc.filename)}: " if exc.filename is not None else ""
        return _fail(f"{where}{exc.strerror or exc}")
    except KeyboardInterrupt:
        say("lumicore: interrupted")
        return EXIT_INTERRUPTED


OUTPUTS = ("out", "svg", "record", "save")
"""The options that name a file a command writes."""


def _check_outputs(args: argparse.Namespace) -> None:
    """:class:`LumicoreError` if a file the command writes is one it reads (or writes twice):
    ``--out deck.toml`` beside ``--deck deck.toml`` emptied the deck before it was read."""
    values = {k: v for k, v in vars(args).items() if isinstance(v, str) and v}
    for name in OUTPUTS:
        out = values.get(name)
        if out is None or not os.path.isfile(out):
            continue
        for other, value in values.items():
            if other == name or value == "-":
                continue
            try:
                same = os.path.isfile(value) and os.path.samefile(out, value)
            except (OSError, ValueError):  # no such path, a name too long, a NUL byte
                same = False
            if same:
                raise LumicoreError(f"--{name} {shorten(out)} is also an input "
                                    f"({other.replace('_', '-')}): the output would overwrite "
                                    "it; write to another file")


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    """The parsed arguments. The commands' modules are imported here, not at the top, so that
    a Ctrl-C while they load (a second or more: CP-SAT, pandas, networkx) is an interruption
    like any other: it raises ``KeyboardInterrupt`` even where the ``KeyboardInterrupt`` was
    lost, i.e. turned into an ``ImportError`` by a compiled module's initialisation, or taken
    by a library's ``except ImportError`` fallback (:func:`solvers.ctrl_c.noting`)."""
    with noting():
        try:
            parser = build_parser()
        except ImportError:
            check()  # the ImportError of a module whose loading the press cut short
            raise
        check()  # a press that a library took for a missing module
    return parser.parse_args(argv)


FULL_ERRNOS = frozenset(getattr(errno, name) for name in ("ENOSPC", "EDQUOT", "EFBIG")
                        if hasattr(errno, name))  # no EDQUOT on some platforms
"""A write that found no room: with no file named, the output is standard output (every file
lumicore writes is named in its errors), also unbuffered (``PYTHONUNBUFFERED``), where the
failed write leaves nothing for :func:`_drop_broken_output` to find."""


def _drop_broken_output() -> bool:
    """Whether standard output cannot take what it holds (a full disk); if so it is pointed at
    /dev/null, so that Python's own flush at exit does not fail again (``Exception ignored``
    and exit status 120). Unbuffered (``PYTHONUNBUFFERED``), a failed write holds nothing
    (:data:`FULL_ERRNOS` names the output then)."""
    try:
        sys.stdout.flush()
    except OSError:
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):  # a stream without a file (as under test capture)
            pass
        return True
    return False


def _reader_gone() -> int:
    # Python flushes stdout again at exit; pointing it at /dev/null keeps that flush quiet.
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return EXIT_BROKEN_PIPE


def _fail(message: str, status: int = EXIT_BAD_INPUT) -> int:
    say(f"lumicore: error: {message}")
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
