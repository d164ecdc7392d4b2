"""``lumicore reef``: draw a reef, find the best placement of a hand.

    lumicore reef show [--board A|B|PATH] [--start pink,green] [--svg OUT.svg] [REEF.json]
    lumicore reef best --hand "pink 3 crab, blue 5" --limestone 4 [REEF.json]
                       [--objective final:dark] [--max-nodes N] [--time-limit S] [--save OUT.json]

Without a reef file both start from a new reef on ``--board`` (default A) with the starting
Lumino ``--start`` (default pink,green).
"""

from __future__ import annotations

import argparse
import json
import re

from lumicore.data import shorten
from lumicore.errors import LumicoreError
from lumicore.reef import COLORS, Reef, load_board, parse_hand
from lumicore.reef import io as reef_io
from lumicore.reef.render import svg, text
from lumicore.reef.scoring import LIMESTONE_CAP
from solvers.commands import add_game, check_output_path
from solvers.limits import EXIT_ANSWER, exit_code

__all__ = ["register", "parse_start", "parse_objective"]


def parse_start(value: str) -> tuple[str, str]:
    """``"pink,green"`` (or ``pink/green``, ``pink green``) as the starting Lumino's colours.

    >>> parse_start("blue/yellow")
    ('blue', 'yellow')
    """
    if not isinstance(value, str):
        raise LumicoreError(f"--start {shorten(value)}: expected two colours, e.g. pink,green")
    colors = [c for c in re.split(r"[,/\s]+", value.strip().lower()) if c]
    if len(colors) != 2:
        raise LumicoreError(f"--start {shorten(value)}: expected two colours, e.g. pink,green")
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
    board = "A" if args.board is None else args.board
    start = "pink,green" if args.start is None else args.start
    if not board.strip():
        raise LumicoreError("--board '': expected A, B or a board drawing file")
    return Reef.new(load_board(board), parse_start(start))


def _summary_data(reef: Reef) -> dict:
    return {
        "visible": {c: reef.visible_count(c) for c in COLORS},
        "coral_scoring": {c: reef.coral_score(c) for c in COLORS},
        "animals": reef.visible_animals(),
        "dark_animal_vp": reef.animal_points("dark"),
    }


def _summary(reef: Reef) -> str:
    data = _summary_data(reef)
    visible = ", ".join(f"{c} {n}" for c, n in data["visible"].items())
    coral = ", ".join(f"{c} {n}" for c, n in data["coral_scoring"].items())
    animals = ", ".join(f"{a} {n}" for a, n in data["animals"].items())
    return (f"visible spaces: {visible}\ncoral scoring now: {coral}\n"
            f"visible animals: {animals} ({data['dark_animal_vp']} VP on the dark score board)")


def _write(path: str, content: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(content)
    except OSError as exc:
        raise LumicoreError(f"cannot write {path[:80]!r}: {exc.strerror or exc}") from None


def run_show(args: argparse.Namespace) -> int:
    if args.svg:
        check_output_path(args.svg)
    reef = _reef(args)
    if args.svg:
        _write(args.svg, svg(reef))
    if args.json:
        print(json.dumps({"reef": reef_io.to_json(reef), **_summary_data(reef),
                          "svg": args.svg}))
        return EXIT_ANSWER
    print(text(reef))
    print(_summary(reef))
    if args.svg:
        print(f"SVG written to {args.svg}")
    return EXIT_ANSWER


def run_best(args: argparse.Namespace) -> int:
    from solvers.reef import best_placement

    for path in (args.save, args.svg):
        if path:
            check_output_path(path)
    reef = _reef(args)
    hand = parse_hand(args.hand)
    if not 1 <= len(hand) <= 3:
        raise LumicoreError(f"--hand {shorten(args.hand)}: a hand has 1 to 3 Luminos")
    if not 0 <= args.limestone <= LIMESTONE_CAP:
        raise LumicoreError(f"--limestone {args.limestone}: storage holds 0..{LIMESTONE_CAP}")
    result = best_placement(reef, hand, args.limestone, parse_objective(args.objective),
                            max_nodes=args.max_nodes, time_limit=args.time_limit)
    if args.save:
        reef_io.save(result.reef, args.save)
    if args.svg:
        _write(args.svg, result._repr_svg_())
    if args.json:
        print(json.dumps(result.as_dict()))
    else:
        print(result)
        print(text(result.reef))
        if args.save:
            print(f"reef after the placements saved to {args.save}")
        if args.svg:
            print(f"SVG written to {args.svg}")
    return exit_code(result.status, has_answer=True)


def _reef_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("reef", nargs="?", metavar="REEF.json",
                        help="a saved reef (JSON); default: a new reef from --board and --start")
    parser.add_argument("--board", help="board side A or B, or a drawing file (default: A)")
    parser.add_argument("--start",
                        help="starting Lumino colours, e.g. blue,yellow (default: pink,green)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object instead of text (default: off)")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``lumicore reef show`` and ``lumicore reef best``."""
    commands = add_game(subparsers, "reef", "Lumicora reefs: draw one, place a hand best",
                        __doc__.splitlines()[0])

    show = commands.add_parser("show", help="draw a reef as text (and SVG)")
    _reef_arguments(show)
    show.add_argument("--svg", metavar="OUT.svg",
                      help="also write the reef as an SVG image (default: none)")
    show.set_defaults(run=run_show)

    best = commands.add_parser("best", help="the best placement of a hand of 1 to 3 Luminos")
    _reef_arguments(best)
    best.add_argument("--hand", required=True,
                      help='1 to 3 Luminos, e.g. "pink 3 crab, blue 5" (required)')
    best.add_argument("--limestone", type=int, required=True,
                      help="limestone markers in storage, 0..10 (required)")
    best.add_argument("--objective", default="final:dark",
                      help="coral:<colour>, visible:<colour>, animals:dark|light, remote, "
                           "final:dark|light, or weighted: coral:pink=1,final:dark=0.5 "
                           "(default final:dark)")
    best.add_argument("--max-nodes", type=int, default=None,
                      help="stop after this many search nodes (default: no limit)")
    best.add_argument("--time-limit", type=float, default=None,
                      help="stop after this many seconds (default: no limit)")
    best.add_argument("--save", metavar="OUT.json",
                      help="save the reef after the placements (default: none)")
    best.add_argument("--svg", metavar="OUT.svg",
                      help="draw the result as an SVG image (default: none)")
    best.set_defaults(run=run_best)
