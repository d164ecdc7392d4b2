"""How long a Lemuria year ``build_schedule`` proves: default years of 6 to 12 turns (the same
cards as the 12-turn benchmark's years, cut short), each solved as a user would
(``build_schedule(default_instance(seed, turns=T), time_limit=...)``, default workers and
set-up), with the plan, the proven bound, the gap, whether it is proven and the time. Every
plan is replayed by ``simulate``. The table shows where proofs stop and how the gap grows
with the length of the year.

    python benchmarks/bench_lemuria_horizon.py                        # writes the table into docs
    python benchmarks/bench_lemuria_horizon.py --turns 6,8 --seeds 0-1 --seconds 10 --no-docs
    python benchmarks/bench_lemuria_horizon.py --from-log OUT         # go on with a stopped run

Each year prints one line as it ends (the lines ``--from-log`` reads back). Ctrl-C tables the
years done so far (docs untouched, exit 130); ``--json`` prints the years as JSON instead. The
table goes into docs/lemuria.md between ``<!-- bench:lemuria-horizon -->`` and
``<!-- /bench -->`` unless ``--no-docs``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from bench_lemuria import command_line, log_line, read_log, solve, write_docs
from bench_lemuria_floor import parse_seeds  # benchmarks/ is the scripts' folder


def label(turns: int) -> str:
    """The label of a year's log line: its length."""
    return f"{turns} turns"


DEFAULTS = "turnheld"
"""The set-up of :data:`bench_lemuria.CONFIGS` that is ``build_schedule``'s defaults."""


def run(turns: int, seed: int, seconds: float) -> dict:
    """One year, solved with ``build_schedule``'s defaults (workers too) within ``seconds``."""
    return solve(seed, DEFAULTS, seconds, None, turns=turns)


def cell(r: dict | None) -> str:
    if r is None:
        return ""
    if r["proven"]:
        took = "under 1 s" if r["time"] < 0.5 else f"{r['time']:.0f} s"
        return f"**{r['vp']}** proven ({took})"
    return f"{r['vp']} / {r['bound']:g} ({r['gap']:.1%})"


def table(rows: dict[int, dict], turns: list[int], seeds: list[int]) -> list[str]:
    """One line a year length: each seed's plan and bound (or "proven" and the time), how many
    are proven, the median gap."""
    lines = ["| turns | " + " | ".join(f"seed {s}" for s in seeds) + " | proven | median gap |",
             "|---" * (len(seeds) + 3) + "|"]
    for t in turns:
        done = [rows[s][label(t)] for s in seeds if label(t) in rows.get(s, {})]
        if not done:
            continue
        cells = [cell(rows.get(s, {}).get(label(t))) for s in seeds]
        proven = sum(r["proven"] for r in done)
        median = statistics.median(r["gap"] for r in done)
        lines.append(f"| {t} | " + " | ".join(cells) + f" | {proven} of {len(done)} | "
                     f"{median:.1%} |")
    return lines + ["", "A cell: the plan's VP / the proven bound (the gap), or the plan in "
                        "bold when it is proven optimal, with the time that took."]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", default="6-12", help="year lengths, as 6-12 or 6,8,10")
    parser.add_argument("--seeds", default="0-4", help="seeds, as 0-4 or 0,2")
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="build_schedule's time limit per year (default 60)")
    parser.add_argument("--from-log", type=Path, help="an earlier run's output: its years are "
                                                      "not run again")
    parser.add_argument("--no-docs", action="store_true", help="do not write docs/lemuria.md")
    parser.add_argument("--json", action="store_true",
                        help="print the years as JSON (one object a year) instead of the table")
    args = parser.parse_args(argv)
    try:
        turns, seeds = parse_seeds(args.turns), parse_seeds(args.seeds)
    except ValueError as exc:
        parser.error(f"--turns and --seeds take 6-12 or 6,8,10: {exc}")
    if not all(1 <= t <= 12 for t in turns):
        parser.error(f"--turns: a year has 1 to 12 turns, got {args.turns}")
    if not 0 < args.seconds < 1e6:
        parser.error(f"--seconds must be a positive number of seconds, got {args.seconds}")
    if args.from_log and not args.from_log.is_file():
        parser.error(f"--from-log: no file {args.from_log}")
    rows = read_log(args.from_log) if args.from_log else {}
    measured = stopped = False
    try:
        for t in turns:
            for s in seeds:
                if label(t) in rows.get(s, {}):
                    continue
                r = run(t, s, args.seconds)
                rows.setdefault(s, {})[label(t)] = r
                measured = True
                print(log_line(label(t), s, r), flush=True)
    except KeyboardInterrupt:
        print("interrupted: the years done so far", file=sys.stderr)
        stopped = True
    lines = table(rows, turns, seeds)
    if args.json:
        print(json.dumps([{"turns": int(k.split()[0]), "seed": s, **r}
                          for s in sorted(rows) for k, r in rows[s].items()]))
    else:
        print("\n".join(lines))
    if not (args.no_docs or stopped):
        write_docs(lines, command_line(__file__, argv), marker="lemuria-horizon",
                   measured=measured)
    return 130 if stopped else 0


if __name__ == "__main__":
    sys.exit(main())
