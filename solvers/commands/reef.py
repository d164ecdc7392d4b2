"""``lumicore reef``: draw a reef, find the best placement of a hand.

    lumicore reef show [--board A|B|PATH] [--start pink,green] [--svg OUT.svg] [REEF.json]
    lumicore reef best --hand "pink 3 crab, blue 5" --limestone 4 [REEF.json]
                       [--objective final:dark] [--max-nodes N] [--time-limit S] [--save OUT.json]

Without a reef file both start from a new reef on ``--board`` (default A) with the starting
Lumino ``--start`` (default pink,green).
"""

from __future__ import annotations

import argparse
import re

from lumicore.errors import LumicoreError
from lumicore.reef import COLORS, Reef, load_board, parse_hand
from lumicore.reef import io as reef_io
from lumicore.reef.render import svg, text
from lumicore.reef.scoring import LIMESTONE_CAP, coral_score, dark_animal_points
from solvers.commands import add_game

__all__ = ["register", "parse_start", "parse_objective"]


def parse_start(value: str) -> tuple[str, str]:
    """``"pink,green"`` (or ``pink/green``, ``pink green``) as the starting Lumino's colours.

    >>> parse_start("blue/yellow")
    ('blue', 'yellow')
    """
    colors = [c for c in re.split(r"[,/\s]+", value.strip().lower()) if c]
    if len(colors) != 2:
        raise LumicoreError(f"--start {value!r}: expected two colours, e.g. pink,green")
    return colors[0], colors[1]


def parse_objective(value: str) -> str | dict[str, float]:
    """An objective name, or weighted names ``"coral:pink=1,final:dark=0.5"`` as a dict.

    >>> parse_objective("coral:pink=1, final:dark=0.5")
    {'coral:pink': 1.0, 'final:dark': 0.5}
    """
    if "=" not in value:
        return value.strip()
    weights = {}
    for term in value.split(","):
        name, sep, weight = term.partition("=")
        try:
            weights[name.strip()] = float(weight)
        except ValueError:
            raise LumicoreError(f"--objective: bad weight in {term.strip()!r}") from None
        if not sep:
            raise LumicoreError(f"--objective: {term.strip()!r} needs name=weight")
    return weights


def _reef(args: argparse.Namespace) -> Reef:
    if args.reef:
        if args.board is not None or args.start is not None:
            raise LumicoreError("give a reef file or --board/--start, not both")
        return reef_io.load(args.reef)
    return Reef.new(load_board(args.board or "A"), parse_start(args.start or "pink,green"))


def _summary(reef: Reef) -> str:
    visible = ", ".join(f"{c} {reef.visible_count(c)}" for c in COLORS)
    coral = ", ".join(f"{c} {coral_score(reef, c)}" for c in COLORS)
    animals = ", ".join(f"{a} {n}" for a, n in reef.visible_animals().items())
    dark = sum(dark_animal_points(reef).values())
    return (f"visible spaces: {visible}\ncoral scoring now: {coral}\n"
            f"visible animals: {animals} ({dark} VP on the dark score board)")


def run_show(args: argparse.Namespace) -> int:
    reef = _reef(args)
    print(text(reef))
    print(_summary(reef))
    if args.svg:
        with open(args.svg, "w", encoding="utf-8") as fh:
            fh.write(svg(reef))
        print(f"SVG written to {args.svg}")
    return 0


def run_best(args: argparse.Namespace) -> int:
    from solvers.reef import best_placement

    reef = _reef(args)
    hand = parse_hand(args.hand)
    if not 1 <= len(hand) <= 3:
        raise LumicoreError(f"--hand {args.hand!r}: a hand has 1 to 3 Luminos")
    if not 0 <= args.limestone <= LIMESTONE_CAP:
        raise LumicoreError(f"--limestone {args.limestone}: storage holds 0..{LIMESTONE_CAP}")
    result = best_placement(reef, hand, args.limestone, parse_objective(args.objective),
                            max_nodes=args.max_nodes, time_limit=args.time_limit)
    print(result)
    print(text(result.reef))
    if args.save:
        reef_io.save(result.reef, args.save)
        print(f"reef after the placements saved to {args.save}")
    return 0


def _reef_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("reef", nargs="?", metavar="REEF.json", help="a saved reef (JSON)")
    parser.add_argument("--board", help="board side A or B, or a drawing file (default A)")
    parser.add_argument("--start", help="starting Lumino colours, e.g. pink,green (default)")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``lumicore reef show`` and ``lumicore reef best``."""
    commands = add_game(subparsers, "reef", "Lumicora reefs: draw one, place a hand best",
                        __doc__.splitlines()[0])

    show = commands.add_parser("show", help="draw a reef as text (and SVG)")
    _reef_arguments(show)
    show.add_argument("--svg", metavar="OUT.svg", help="also write the reef as an SVG image")
    show.set_defaults(run=run_show)

    best = commands.add_parser("best", help="the best placement of a hand of 1 to 3 Luminos")
    _reef_arguments(best)
    best.add_argument("--hand", required=True, help='e.g. "pink 3 crab, blue 5"')
    best.add_argument("--limestone", type=int, required=True, help="markers in storage")
    best.add_argument("--objective", default="final:dark",
                      help="coral:<colour>, visible:<colour>, animals:dark|light, remote, "
                           "final:dark|light, or weighted: coral:pink=1,final:dark=0.5 "
                           "(default final:dark)")
    best.add_argument("--max-nodes", type=int, default=None)
    best.add_argument("--time-limit", type=float, default=None, help="seconds")
    best.add_argument("--save", metavar="OUT.json", help="save the reef after the placements")
    best.set_defaults(run=run_best)
