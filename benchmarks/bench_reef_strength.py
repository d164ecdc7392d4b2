"""Lumicora bot strength: seeded 2-player tournaments between the reef bots, as a table.

    python benchmarks/bench_reef_strength.py --games 200 --workers 2 --write-docs
    python benchmarks/bench_reef_strength.py --from a.json b.json --write-docs

Each pairing (``greedy`` vs ``random``, ``flatmc`` vs ``greedy``, ``mcts`` vs ``greedy`` by
default) is ``lumicore reef tournament --bots X,Y --games N --seed 0`` (seats rotated); the table
lists each bot's win rate with its 95% Wilson interval and its openskill (Plackett-Luce) rating.
``--from`` reads the ``--json`` outputs of such tournaments instead of playing them.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent / "docs" / "reef.md"
MARKERS = ("<!-- strength:reef -->", "<!-- /strength -->")
PAIRINGS = ("greedy,random", "flatmc,greedy", "mcts,greedy")


def rows(result: dict) -> list[str]:
    """Table rows of one tournament result (the ``--json`` object)."""
    bots = list(result["bots"])
    out = []
    for name, bot in result["bots"].items():
        other = next(b for b in bots if b != name)
        rating = bot["rating"]
        out.append(f"| {name} vs {other} | {result['played']} | {bot['wins']:g} | "
                   f"{bot['win_rate']:.3f} [{bot['low']:.3f}, {bot['high']:.3f}] | "
                   f"{rating['mu']:.1f} ± {rating['sigma']:.1f} | {result['elapsed']:.0f} s |")
    return out


def table(results: list[dict]) -> list[str]:
    head = ["| bot | games | wins | win rate [95% interval] | rating (mu ± sigma) | "
            "tournament time |", "|---|---|---|---|---|---|"]
    return head + [row for result in results for row in rows(result)]


def write_docs(lines: list[str], results: list[dict], workers: int | None) -> None:
    text = DOCS.read_text(encoding="utf-8")
    start, end = MARKERS
    commands = "; ".join(f"`lumicore reef tournament --bots {','.join(r['bots'])} --games "
                         f"{r['games']} --players 2 --seed 0"
                         + (f" --workers {workers}" if workers else "") + " --json`"
                         for r in results)
    body = (f"{start}\n" + "\n".join(lines) + f"\n\nMeasured on {time.strftime('%Y-%m-%d')} "
            f"by {commands} (2 shared cores, under load; seats rotated), tabled by "
            f"`python benchmarks/bench_reef_strength.py`.\n{end}")
    text = re.sub(re.escape(start) + ".*?" + re.escape(end), lambda _: body, text, flags=re.S)
    DOCS.write_text(text, encoding="utf-8")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing (200)")
    parser.add_argument("--workers", type=int, default=None,
                        help="worker processes (with --from: those the tournaments used)")
    parser.add_argument("--pairings", default=";".join(PAIRINGS),
                        help="pairings separated by ';' (default: greedy,random;flatmc,greedy;"
                             "mcts,greedy)")
    parser.add_argument("--from", dest="files", nargs="*", default=None,
                        help="read tournament results (--json output) instead of playing")
    parser.add_argument("--write-docs", action="store_true", help="write the table into docs")
    args = parser.parse_args(argv)
    if args.files:
        results = [json.loads(Path(f).read_text()) for f in args.files]
    else:
        from solvers.arena import tournament

        results = [tournament("reef", pair.split(","), players=2, games=args.games, seed=0,
                              workers=args.workers).to_dict()
                   for pair in args.pairings.split(";")]
    lines = table(results)
    print("\n".join(lines))
    if args.write_docs:
        write_docs(lines, results, args.workers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
