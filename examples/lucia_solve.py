"""Solve a Lucia train puzzle and print the plan, card by card.

    python examples/lucia_solve.py                         # a short built-in example
    python examples/lucia_solve.py "S h T h L0" --algorithm bfs
    python examples/lucia_solve.py --scramble 8 --seed 2   # a generated puzzle 8 plays deep
"""

from __future__ import annotations

import argparse

from lumicore.lucia import Train, load_deck, scramble
from lumicore.lucia.train import describe
from solvers.lucia import ALGORITHMS, solve


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("train", nargs="?", default="S h T h L0", help="train notation")
    parser.add_argument("--algorithm", choices=ALGORITHMS, default="astar")
    parser.add_argument("--scramble", type=int, metavar="DEPTH",
                        help="solve a puzzle this many random plays from a goal instead")
    parser.add_argument("--seed", type=int, default=0, help="seed of --scramble")
    args = parser.parse_args()

    deck = load_deck("default")
    train = (scramble(args.scramble, seed=args.seed, cards=deck) if args.scramble is not None
             else Train.parse(args.train))
    result = solve(train, deck, algorithm=args.algorithm, time_limit=10)
    print(f"start: {train}")
    for i, play in enumerate(result.plan, 1):
        moves = ", ".join(describe(c) for c in play.choices)
        print(f"{i:2d}. {play.card.name:<28} -> {play.train}   ({moves})")
    cost = "" if result.cost is None else f" {result.cost} cards,"
    print(f"{result.status}:{cost} {result.nodes} states stored, "
          f"{result.elapsed:.2f} s ({result.algorithm})")
    if result.plan:
        assert result.plan[-1].train.is_goal()


if __name__ == "__main__":
    main()
