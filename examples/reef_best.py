"""The best placement of a hand of Luminos in a new Lumicora reef, under two objectives.

    python examples/reef_best.py
    python examples/reef_best.py --hand "green 2 seahorse, yellow 4" --limestone 2 --board B
"""

from __future__ import annotations

import argparse

from lumicore.reef import COLORS, Reef, load_board
from lumicore.reef.render import text
from solvers.reef import best_placement


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hand", default="pink 3 crab, blue 5", help="1 to 3 Luminos")
    parser.add_argument("--limestone", type=int, default=3, help="markers in storage")
    parser.add_argument("--board", default="A", help="board side A or B")
    args = parser.parse_args()

    reef = Reef.new(load_board(args.board), ("pink", "green"))
    for objective in ("final:dark", "coral:pink"):
        result = best_placement(reef, args.hand, args.limestone, objective)
        print(f"objective {objective}: value {result.value:g} ({result.status})")
        for placement in result.placements:
            print(f"  place {placement}")
        if result.discarded:
            print(f"  return to the bag: {result.discarded}")
        visible = ", ".join(f"{c} {result.reef.visible_count(c)}" for c in COLORS)
        print(f"  visible spaces after: {visible}")
    print(text(result.reef))


if __name__ == "__main__":
    main()
