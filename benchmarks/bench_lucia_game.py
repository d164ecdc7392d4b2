"""Lucia's game states as the arena's bots play them: the states' plays from the Cython kernel
against the same plays from the plain-Python rules, in the same run.

    python benchmarks/bench_lucia_game.py            # about a minute
    python benchmarks/bench_lucia_game.py --no-docs  # print only

Two measures on ``DealState.new_game`` (the deck hidden), 1 and 3 players: random play-outs to
the end of the game (:func:`lumicore.game.play_randomly`) and the arena's ``greedy`` bot's first
decisions of each game; and the ``greedy`` bot on ``PuzzleState`` puzzles (scrambled default
trains, the default deck). Each is timed with the states' own plays (the kernel's
``CardPlays``) and again with ``Train.successors`` (the reference rules) in their place, sorted
into the actions' order; the games must come out the same. The table is written into
docs/lucia.md between the markers ``<!-- bench:lucia-game -->`` and ``<!-- /bench -->``.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from unittest import mock

import numpy as np
from bench_lucia_deal import write_block

from lumicore.game import play_randomly, sample_chance
from lumicore.lucia import deal_game, game
from lumicore.lucia.cards import Card
from lumicore.lucia.deal_game import DealState
from lumicore.lucia.game import PuzzleState
from lumicore.lucia.start import scramble
from lumicore.lucia.train import DEFAULT_RULES, Rules, Train
from solvers.arena import make_bot

MARK = ("<!-- bench:lucia-game -->", "<!-- /bench -->")


def reference_card_plays(kinds: tuple[Card, ...], rules: Rules = DEFAULT_RULES
                         ) -> Callable[[int, int], list[int]]:
    """``card_plays`` by the plain-Python rules: a card's distinct successors of a packed train,
    in the order of their notation."""
    def plays(packed: int, k: int) -> list[int]:
        after = Train.from_packed(packed, rules).successors(kinds[k], rules)
        return [t.packed for t in sorted(after, key=str)]
    return plays


def playouts(players: int, games: int) -> tuple[int, list[str]]:
    """Random games to the end: how many, and each game's end."""
    return games, [play_randomly(DealState.new_game(players=players, seed=seed),
                                 seed=seed).serialize() for seed in range(games)]


def greedy(players: int, games: int, decisions: int) -> tuple[int, list[int]]:
    """The greedy bot's first ``decisions`` choices of each game: how many, and which."""
    chosen = []
    for seed in range(games):
        state, rng = DealState.new_game(players=players, seed=seed), np.random.default_rng(seed)
        bot = make_bot("greedy", "lucia", seed=seed)
        made = 0
        while made < decisions and not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            chosen.append(bot.choose(state))
            state.apply_action(chosen[-1])
            made += 1
    return len(chosen), chosen


def puzzles(count: int, decisions: int) -> tuple[int, list[int]]:
    """The greedy bot's first ``decisions`` choices on ``count`` scrambled default trains."""
    chosen = []
    for seed in range(count):
        state = PuzzleState.new(scramble(12, seed=seed))
        bot = make_bot("greedy", "lucia", seed=seed)
        for _ in range(decisions):
            if state.is_terminal():
                break
            chosen.append(bot.choose(state))
            state.apply_action(chosen[-1])
    return len(chosen), chosen


def both(run: Callable[[], tuple[int, list]]) -> tuple[float, float, int]:
    """Seconds of ``run`` with the kernel's plays and with the reference's, and its count
    (after a run untimed: the heuristic's tables of the greedy bot are built once, then
    cached)."""
    run()
    start = time.perf_counter()
    count, kernel = run()
    fast = time.perf_counter() - start
    with mock.patch.object(deal_game, "card_plays", reference_card_plays), \
            mock.patch.object(game, "card_plays", reference_card_plays):
        start = time.perf_counter()
        _, reference = run()
        slow = time.perf_counter() - start
    assert kernel == reference, "the kernel's plays changed a game"
    return fast, slow, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="random games a row (default 40)")
    parser.add_argument("--greedy-games", type=int, default=4,
                        help="games of the greedy bot a row (default 4)")
    parser.add_argument("--decisions", type=int, default=8,
                        help="greedy decisions a game (default 8)")
    parser.add_argument("--no-docs", action="store_true", help="do not write docs/lucia.md")
    args = parser.parse_args()
    head = ["measure", "players", "count", "kernel plays (s)", "reference plays (s)", "ratio"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    rows: list[tuple[str, int, Callable[[], tuple[int, list]]]] = []
    for players in (1, 3):
        rows += [(f"random play-outs ({args.games} games)", players,
                  lambda p=players: playouts(p, args.games)),
                 (f"greedy decisions ({args.greedy_games} games, first {args.decisions})",
                  players, lambda p=players: greedy(p, args.greedy_games, args.decisions))]
    rows.append((f"greedy decisions on puzzles ({args.greedy_games} trains, first "
                 f"{args.decisions})", 1, lambda: puzzles(args.greedy_games, args.decisions)))
    for label, players, run in rows:
        fast, slow, count = both(run)
        lines.append(f"| {label} | {players} | {count} | {fast:.2f} | {slow:.2f} | "
                     f"{slow / fast:.1f}x |")
        print(lines[-1], flush=True)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    table = "\n".join([f"`python benchmarks/bench_lucia_game.py` (load average {load:.1f} "
                       "when the run ended):", "", *lines])
    print(table)
    if not args.no_docs:
        write_block(MARK, table)


if __name__ == "__main__":
    main()
