"""A seeded game of Lumen: The Lost World between two bots, replayed from its record, then the
planner's ranking of the last selection of the game and each player's chance to win from the
middle of it.

    python examples/lumen_game.py
    python examples/lumen_game.py --seed 7 --bots fastmc,sheet
"""

from __future__ import annotations

import argparse

from lumicore.lumen.game import GameState
from solvers.arena import play_game, replay_record
from solvers.lumen import best_choice, win_probability


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=0, help="seed of the game (default 0)")
    parser.add_argument("--bots", default="sheet,greedy", help="two bots (default sheet,greedy)")
    args = parser.parse_args()

    record, final = play_game("lumen", args.bots.split(","), 2, args.seed)
    scores = [final.score(p).total for p in (0, 1)]
    winner = final.winner()
    print(f"{record['bots']}: {scores[0]} VP to {scores[1]}, "
          + ("nobody won" if winner is None else f"player {winner + 1} won"))
    print(final.sheets[0], final.sheets[1], sep="\n\n")
    assert replay_record(record) == final
    print("the record replayed exactly")

    # the last selection of the game and a position half-way, through the record
    state = GameState.new_game(seed=args.seed)
    last_choice, middle = None, None
    for action in record["actions"]:
        if state.phase == "choose":
            last_choice = state.clone()
        if middle is None and state.round == 9 and state.phase == "choose":
            middle = state.clone()
        state.apply_action(action)
    if last_choice is not None:
        result = best_choice(last_choice, time_limit=1.0, seed=args.seed)
        print(f"last selection, {result.method}: best {result.plan[0]} ({result.value:.2f})")
    if middle is not None:
        odds = win_probability(middle, samples=6, bot="random", seed=args.seed)
        print(f"round 9, random play from there: {odds}")


if __name__ == "__main__":
    main()
