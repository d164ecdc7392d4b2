"""Arena figures on Dice Nim (the small two-player game with dice of tests/dice_nim.py): each
generic bot's decisions per second, its strength against random and greedy over seeded games
(win rate with its 95% Wilson interval, seats rotated), and the batch runner's throughput on
tiny jobs, process pool against a Dask LocalCluster.

    python benchmarks/bench_arena.py              # 200 games a pairing, writes docs/arena.md
    python benchmarks/bench_arena.py --games 40 --no-write     # a quick look

The table goes into docs/arena.md between the ``<!-- bench:arena -->`` markers.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import dice_nim  # noqa: E402

from lumicore.game import GAMES  # noqa: E402
from solvers.arena import make_bot, tournament  # noqa: E402
from solvers.batch import run_batch  # noqa: E402

BOTS = ["random", "greedy", "flatmc", "mcts"]


def decision_rate(name: str, seconds: float = 2.0) -> float:
    """Decisions a second of bot ``name`` (default options) over seeded Dice Nim positions."""
    bot = make_bot(name, dice_nim.NAME, seed=1)
    done, start, pile = 0, time.perf_counter(), 20
    while time.perf_counter() - start < seconds:
        bot.choose(dice_nim.DiceNim(2, pile=pile))
        pile = 5 + (pile * 7) % 16
        done += 1
    return done / (time.perf_counter() - start)


def strength(bot: str, against: str, games: int, workers: int) -> str:
    result = tournament(dice_nim.NAME, [bot, against], games=games, seed=1, workers=workers,
                        progress=False).bots[bot]
    low, high = result.interval
    return f"{result.win_rate:.2f} ({low:.2f}-{high:.2f})"


def batch_rate(backend: str, jobs: int, workers: int) -> float:
    start = time.perf_counter()
    for _ in run_batch(abs, range(-jobs, 0), workers=workers, backend=backend):
        pass
    return jobs / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games a pairing (default: 200)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default: 2)")
    parser.add_argument("--no-write", action="store_true", help="do not update docs/arena.md")
    args = parser.parse_args()
    GAMES[dice_nim.NAME] = dice_nim.ENTRY
    lines = [f"Dice Nim, 2 players, {args.games} seeded games a pairing (seats rotated), "
             f"{args.workers} workers, default bot options.", "",
             "| bot | decisions/s | win rate vs random (95%) | win rate vs greedy (95%) |",
             "|---|---:|---:|---:|"]
    for name in BOTS:
        vs_random = "-" if name == "random" else strength(name, "random", args.games, args.workers)
        vs_greedy = "-" if name == "greedy" else strength(name, "greedy", args.games, args.workers)
        lines.append(f"| {name} | {decision_rate(name):,.0f} | {vs_random} | {vs_greedy} |")
        print(lines[-1], flush=True)
    jobs = 20_000
    lines += ["", f"Batch runner, {jobs:,} tiny jobs (`abs`), {args.workers} workers:", "",
              "| backend | jobs/s (incl. start-up) |", "|---|---:|"]
    for backend in ("process", "dask"):
        lines.append(f"| {backend} | {batch_rate(backend, jobs, args.workers):,.0f} |")
        print(lines[-1], flush=True)
    table = "\n".join(lines)
    print(table)
    if not args.no_write:
        doc = ROOT / "docs" / "arena.md"
        text = doc.read_text(encoding="utf-8")
        text = re.sub(r"<!-- bench:arena -->.*?<!-- /bench -->",
                      lambda _: f"<!-- bench:arena -->\n{table}\n<!-- /bench -->", text,
                      flags=re.S)
        doc.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
