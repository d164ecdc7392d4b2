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
