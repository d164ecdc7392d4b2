"""Random play-outs: every game registered in ``lumicore.game.GAMES``, and how often random
plays solve a short Lucia puzzle (with a 95% Wilson interval).

    python examples/random_play.py
    python examples/random_play.py --games 200 --seed 7
"""

from __future__ import annotations

import argparse

from lumicore.errors import LumicoreError
from lumicore.game import GAMES, new_game, play_randomly
from lumicore.lucia.game import PuzzleState
from solvers.stats import wilson


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50, help="random play-outs per game")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first play-out")
    args = parser.parse_args()

    for name in sorted(GAMES):
        for players in (2, 1):
            try:
                state = new_game(name, players=players, seed=args.seed)
            except LumicoreError:
                continue
            final = play_randomly(state, seed=args.seed)
            print(f"{name} ({players} player(s)): a random game ends with returns "
                  f"{final.returns()}")
            break
    if not GAMES:
        print("no game is registered in lumicore.game.GAMES yet")

    puzzle = PuzzleState.new("h H L3", max_plays=12)
    wins = sum(play_randomly(puzzle, seed=args.seed + k).returns()[0] == 1.0
               for k in range(args.games))
    low, high = wilson(wins, args.games)
    print(f"lucia 'h H L3' within 12 random plays: {wins}/{args.games} solved "
          f"(95% interval {low:.2f}..{high:.2f})")


if __name__ == "__main__":
    main()
