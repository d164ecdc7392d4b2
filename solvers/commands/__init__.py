"""One module per game, each with ``register(subparsers)`` adding that game's subcommands."""

from __future__ import annotations

import argparse


def add_game(subparsers: argparse._SubParsersAction, name: str, help: str,
             description: str) -> argparse._SubParsersAction:
    """Add the ``lumicore NAME`` parser and return its (required) subcommand group."""
    parser = subparsers.add_parser(name, help=help, description=description)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    return commands
