"""``lumicore lucia``: solve a train puzzle, deal a random train, scramble a goal.

    lumicore lucia solve                      # the built-in default puzzle
    lumicore lucia solve "S h T h L0" --algorithm bfs
    lumicore lucia random --seed 3
    lumicore lucia scramble --depth 12 --seed 1
"""

from __future__ import annotations

import argparse
import json

from lumicore.lucia import Rules, Train, load_deck, random_train, scramble
from lumicore.lucia.train import describe
from solvers.commands import add_game
from solvers.lucia import ALGORITHMS, DEFAULT_MAX_NODES, DEFAULT_PUZZLE, solve


def register(subparsers: argparse._SubParsersAction) -> None:
    commands = add_game(subparsers, "lucia", "Lucia train puzzles (optimal search)",
                        __doc__.splitlines()[0])

    p = commands.add_parser("solve", help="fewest cards from a train to the goal")
    p.add_argument("train", nargs="?", default=None,
                   help=f"train notation, front first (default: the built-in puzzle "
                        f"{DEFAULT_PUZZLE!r})")
    p.add_argument("--deck", default="default",
                   help="deck TOML file or built-in name; its distinct cards may each be used "
                        "any number of times (default: the 33-card default deck)")
    p.add_argument("--algorithm", choices=ALGORITHMS, default="astar")
    p.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES,
                   help=f"cap on stored (BFS, A*) or visited (IDA*) states "
                        f"(default {DEFAULT_MAX_NODES})")
    p.add_argument("--time-limit", type=float, default=None, help="seconds")
    p.add_argument("--weight", type=int, default=1,
                   help="weighted A* (astar only, 1..8): plans at most WEIGHT times the "
                        "optimum, for trains too deep to solve optimally (default 1: optimal)")
    p.add_argument("--lucia-partial", action="store_true",
                   help="the lucia action may stop inside the run of Handmaidens")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(run=run_solve)

    p = commands.add_parser("random", help="a starting train dealt by the rulebook's setup")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--setup", default="default", help="setup TOML file or built-in name")
    p.set_defaults(run=run_random)

    p = commands.add_parser("scramble", help="a puzzle: K random plays away from a goal train")
    p.add_argument("--depth", type=int, required=True)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--deck", default="default", help="deck TOML file or built-in name")
    p.set_defaults(run=run_scramble)


def run_solve(args: argparse.Namespace) -> int:
    """Print the plan (one card and the resulting train per line) and the search figures.
    Exit status 0 when solved (optimal, or feasible with a weight) or proven unsolvable, 1 when a
    limit cut the search."""
    rules = Rules(lucia_partial=args.lucia_partial)
    text = DEFAULT_PUZZLE if args.train is None else args.train
    train = Train.parse(text, rules)
    result = solve(train, load_deck(args.deck), algorithm=args.algorithm,
                   max_nodes=args.max_nodes, time_limit=args.time_limit, rules=rules,
                   weight=args.weight)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
        return 0 if result.status != "limit" else 1
    label = " (built-in default puzzle)" if args.train is None else ""
    print(f"start: {train}{label}")
    width = max((len(p.card.name) for p in result.plan), default=0)
    for i, play in enumerate(result.plan, 1):
        choices = ", ".join(map(describe, play.choices))
        print(f"{i:3d}. {play.card.name:<{width}}  {play.train}   ({choices})")
    cost = "-" if result.cost is None else result.cost
    print(f"status: {result.status}  cost: {cost}  nodes: {result.nodes}  "
          f"expanded: {result.expanded}  time: {result.elapsed:.2f} s  ({result.algorithm})")
    if result.note:
        print(f"note: {result.note}")
    return 0 if result.status != "limit" else 1


def run_random(args: argparse.Namespace) -> int:
    print(random_train(args.seed, setup=args.setup))
    return 0


def run_scramble(args: argparse.Namespace) -> int:
    print(scramble(args.depth, seed=args.seed, cards=load_deck(args.deck)))
    return 0
