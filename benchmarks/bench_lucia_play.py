"""Lucia hidden-deck best play: one turn's samples in one process and spread over workers.

    python benchmarks/bench_lucia_play.py            # about 2 minutes on 2 cores
    python benchmarks/bench_lucia_play.py --no-docs  # print only

For the first turn of a few default deals, :func:`solvers.lucia.best_play` with the default
sample count and node cap is timed in this process (``workers=1``) and over ``--workers``
processes, in the same run, and the two rankings are checked to be equal. The table is written
into docs/lucia.md between the markers ``<!-- bench:lucia-play -->`` and ``<!-- /bench -->``.
"""

from __future__ import annotations

import argparse
import os
import time

from bench_lucia_deal import write_block

from lumicore.lucia.deal import deal
from solvers.batch import cores
from solvers.lucia import best_play
from solvers.lucia.play import DEFAULT_SAMPLES

MARK = ("<!-- bench:lucia-play -->", "<!-- /bench -->")


def timed(seed: int, samples: int, workers: int) -> tuple[float, list]:
    game = deal(seed)
    start = time.perf_counter()
    ranking = best_play(game.train, game.hands()[0], game.stock(), samples=samples,
                        workers=workers)
    counts = [(str(e.play), e.wins, e.trials, e.undecided) for e in ranking.plays]
    return time.perf_counter() - start, counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=4, help="deals 0..N-1 (default 4)")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES,
                        help=f"samples a turn (default {DEFAULT_SAMPLES})")
    parser.add_argument("--workers", type=int, default=cores(),
                        help="worker processes (default: the cores)")
    parser.add_argument("--no-docs", action="store_true", help="do not write docs/lucia.md")
    args = parser.parse_args()
    head = ["deal", "samples", "1 process (s)", f"{args.workers} workers (s)", "speed-up"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    total = [0.0, 0.0]
    for seed in range(args.seeds):
        alone, one = timed(seed, args.samples, 1)
        spread, many = timed(seed, args.samples, args.workers)
        assert one == many, f"deal {seed}: the workers ranked the plays otherwise"
        total[0] += alone
        total[1] += spread
        lines.append(f"| {seed} | {args.samples} | {alone:.2f} | {spread:.2f} | "
                     f"{alone / spread:.2f}x |")
        print(lines[-1], flush=True)
    lines.append(f"| all | | {total[0]:.2f} | {total[1]:.2f} | {total[0] / total[1]:.2f}x |")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    table = "\n".join([f"`python benchmarks/bench_lucia_play.py` (the first turn of default "
                       f"deals 0-{args.seeds - 1}, {cores()} cores, load average {load:.1f} "
                       "before the run ended):", "", *lines])
    print(table)
    if not args.no_docs:
        write_block(MARK, table)


if __name__ == "__main__":
    main()
