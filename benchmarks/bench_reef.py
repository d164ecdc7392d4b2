"""Lumicora benchmarks: whole random games (kernel vs reference), placement enumeration (kernel
vs reference) and best_placement.

    python benchmarks/bench_reef.py            # about a minute
    python benchmarks/bench_reef.py --quick    # a few seconds
    python benchmarks/bench_reef.py --games-only --write-docs   # the table in docs/reef.md

Whole games: the random play-out policy of ``lumicore.reef.reference.playout`` (side A, dark score
board) played by the kernel (``lumicore.reef.kernel.playout``, one core, games in a C loop) and by
the pure-Python twin, and random decisions through the ``Game`` engine; games per second, best of
3 runs (the machine is shared).

Mid-game reefs: ``solvers.reef.random_reef(side, pieces=15, seed, climb=0.5)`` on sides A and B
alternately (15 Luminos besides the start, several levels). Enumeration: every legal placement of
one tile (colour cycling, 2 limestone), counted per reef position. best_placement: a random
3-tile hand from the tile set, 0..4 limestone, exact search (status optimal), wall time per call.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
from pathlib import Path

from lumicore.reef import Lumino, kernel, load_board, load_tiles, reference
from lumicore.reef.sample import random_reef
from lumicore.reef.tiles import COLORS
from solvers.reef import best_placement

DOCS = Path(__file__).resolve().parent.parent / "docs" / "reef.md"
MARKERS = ("<!-- bench:reef-game -->", "<!-- /bench -->")


def game_rates(players: int, kernel_games: int, reference_games: int) -> tuple[float, ...]:
    """Games per second of the kernel, the reference and the Game engine for ``players``."""
    from lumicore.reef.game import Game

    tiles = load_tiles("default")
    args = (load_board("A"), tiles.for_players(players), tiles.starts, 0 if players == 2 else 6)
    fast, _ = best_rate(lambda: kernel.playout(players, 0, *args, count=kernel_games),
                        kernel_games)
    ref, _ = best_rate(lambda: [reference.playout(players, s, *args)
                                for s in range(reference_games)], reference_games, tries=1)

    def engine():
        for seed in range(reference_games):
            game = Game.new(players=players, seed=seed)
            rng = random.Random(seed)
            while not game.is_terminal():
                game.apply_action(rng.randrange(len(game.decisions())))

    eng, _ = best_rate(engine, reference_games, tries=1)
    return fast, ref, eng


def bench_games(kernel_games: int, reference_games: int) -> list[str]:
    """Rows of the whole-game table: per player count, kernel, reference and engine rates."""
    rows = []
    for players in (2, 3, 4):
        fast, ref, eng = game_rates(players, kernel_games, reference_games)
        rows.append(f"| {players} | {fast:,.0f} | {ref:,.1f} | {fast / ref:,.0f} | {eng:,.1f} |")
    return ["| players | kernel games/s | reference games/s | kernel / reference "
            "| Game engine games/s (random decisions) |", "|---|---|---|---|---|"] + rows


def write_docs(table: list[str], quick: bool = False) -> None:
    text = DOCS.read_text(encoding="utf-8")
    start, end = MARKERS
    command = "--quick --games-only --write-docs" if quick else "--games-only --write-docs"
    body = (f"{start}\n" + "\n".join(table) + f"\n\nMeasured by `python "
            f"benchmarks/bench_reef.py {command}` on "
            f"{time.strftime('%Y-%m-%d')} (2 shared cores, under load).\n{end}")
    text = re.sub(re.escape(start) + ".*?" + re.escape(end), lambda _: body, text, flags=re.S)
    DOCS.write_text(text, encoding="utf-8")


def mid_game_reefs(n: int):
    return [random_reef("AB"[i % 2], pieces=15, seed=i, climb=0.5) for i in range(n)]


def best_rate(run, positions: int, tries: int = 3) -> tuple[float, int]:
    """Positions per second of ``run()`` (which returns the placements it found), the best of
    ``tries`` runs (the machine is shared: the best run is the least disturbed one)."""
    rate, found = 0.0, 0
    for _ in range(tries):
        start = time.perf_counter()
        found = run()
        rate = max(rate, positions / max(time.perf_counter() - start, 1e-9))
    return rate, found


def bench_enumeration(reefs, repeat: int) -> list[tuple[str, float, float]]:
    """(label, positions per second, placements per position) per method."""
    tiles = [Lumino(COLORS[i % 4], 3, "crab") for i in range(len(reefs))]
    states = [kernel.state(r) for r in reefs]
    pairs = list(zip(reefs, tiles, strict=True))
    n = len(reefs)
    methods = [
        ("kernel (C loop, State.count_many)", repeat,
         lambda: sum(s.count_many(i % 4, 2, repeat) for i, s in enumerate(states))),
        ("kernel (State.placements, one call)", repeat // 100,
         lambda: sum(len(s.placements(i % 4, 2)) for _ in range(repeat // 100)
                     for i, s in enumerate(states))),
        ("kernel.placements(Reef) -> Placement list", repeat // 1000,
         lambda: sum(len(kernel.placements(r, t, 2)) for _ in range(repeat // 1000)
                     for r, t in pairs)),
        ("reference.placements (pure Python)", 1,
         lambda: sum(len(reference.placements(r, t, 2)) for r, t in pairs)),
    ]
    rows = []
    for label, rounds, run in methods:
        rate, found = best_rate(run, rounds * n)
        rows.append((label, rate, found / (rounds * n)))
    return rows


def bench_best(reefs, objective: str | None, prune: bool = True):
    """Wall times (s) and node counts of best_placement with a 3-tile hand on every reef."""
    tiles = load_tiles("default").luminos
    times, nodes = [], []
    for i, reef in enumerate(reefs):
        rng = random.Random(1000 + i)
        hand = rng.sample(tiles, 3)
        goal = objective or f"coral:{hand[0].color}"
        start = time.perf_counter()
        result = best_placement(reef, hand, rng.randint(0, 4), goal, prune=prune)
        times.append(time.perf_counter() - start)
        nodes.append(result.nodes)
        assert result.status == "optimal"
    return times, nodes


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer reefs, games and repeats")
    parser.add_argument("--games-only", action="store_true", help="only the whole-game table")
    parser.add_argument("--write-docs", action="store_true",
                        help="write the whole-game table into docs/reef.md")
    args = parser.parse_args(argv)
    table = bench_games(500 if args.quick else 5000, 3 if args.quick else 10)
    print("whole random games (side A, dark score board), one core")
    print("\n".join(table))
    print()
    if args.write_docs:
        write_docs(table, args.quick)
    if args.games_only:
        return 0
    n, repeat = (20, 2000) if args.quick else (100, 20000)
    reefs = mid_game_reefs(n)
    heights = [max(r.heights) for r in reefs]
    luminos = statistics.mean(len(r.pieces) - 1 for r in reefs)
    print(f"{n} mid-game reefs (A/B alternating): {luminos:.0f} Luminos each, top level mean "
          f"{statistics.mean(heights):.1f}, max {max(heights)}")
    print()
    rows = bench_enumeration(reefs, repeat)
    ref = rows[-1][1]
    print("placement enumeration (all legal placements of one tile, 2 limestone)")
    print(f"{'method':44s} {'positions/s':>14s} {'x reference':>12s} {'placements':>11s}")
    for label, rate, per in rows:
        print(f"{label:44s} {rate:14,.0f} {rate / ref:12,.0f} {per:11.1f}")
    print()
    print("best_placement, 3-tile hand, exact (status optimal on every reef)")
    print(f"{'objective':28s} {'median ms':>10s} {'worst ms':>10s} {'median nodes':>13s} "
          f"{'worst nodes':>12s}")
    runs = [("final:dark", "final:dark", True), ("final:light", "final:light", True),
            ("coral:<first tile colour>", None, True),
            ("final:dark, prune=False", "final:dark", False)]
    for label, objective, prune in runs:
        times, nodes = bench_best(reefs, objective, prune)
        print(f"{label:28s} {statistics.median(times) * 1e3:10.2f} {max(times) * 1e3:10.2f} "
              f"{statistics.median(nodes):13,.0f} {max(nodes):12,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
