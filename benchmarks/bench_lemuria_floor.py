"""How far the branch and bound can take the Lemuria bound: ``branch_bound`` alone on each
seeded default 12-turn year, told the best plan any set-up of ``benchmarks/logs/
lemuria_plan.log`` found for it (its ``target``), until it proves that plan optimal, stops at a
node it cannot split ("exhausted": the floor of its relaxation for that year) or runs out of
time.

    python benchmarks/bench_lemuria_floor.py                 # 20 years, writes docs/lemuria.md
    python benchmarks/bench_lemuria_floor.py --seeds 0,4 --no-docs
    python benchmarks/bench_lemuria_floor.py --from-log benchmarks/logs/lemuria_floor.log
    python benchmarks/bench_lemuria_floor.py --seeds 4 --no-docs --json   # [{seed, bound, ...}]
    python benchmarks/bench_lemuria_floor.py --seeds 0-9 --marker lemuria-floor-waiting
    python benchmarks/bench_lemuria_floor.py --from-log benchmarks/logs/lemuria_floor_held.log \
        --against first=benchmarks/logs/lemuria_floor.log --marker lemuria-floor-held

Each year runs on one core (``--workers`` years at once). The per-year lines it prints are what
``--from-log`` reads back (years already there are not run again); the table goes into
docs/lemuria.md between ``<!-- bench:lemuria-floor -->`` and ``<!-- /bench -->`` unless
``--no-docs``. Ctrl-C stops the run: the years done so far are tabled, not written into the
docs.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from pathlib import Path

from bench_lemuria import DOCS, _best, command_line, gap, read_log, write_docs

from lumicore.lemuria import default_instance
from solvers.batch import run_batch
from solvers.lemuria.branch import branch_bound

PLANS = Path(__file__).parent / "logs" / "lemuria_plan.log"
LINE = re.compile(r"^floor seed\s+(?P<seed>\d+): best (?P<best>\d+) bound (?P<bound>\S+) "
                  r"status (?P<status>\w+) nodes (?P<nodes>\d+) \((?P<time>\d+) s\)$")


def run(job: tuple[int, int, float]) -> dict:
    """The branch and bound on year ``seed`` with the best plan known as its target, for
    ``time_limit`` seconds (``job``: the three)."""
    seed, best, time_limit = job
    r = branch_bound(default_instance(seed), time_limit=time_limit, target=best)
    return {"seed": seed, "best": best, "bound": r.bound, "status": r.status,
            "nodes": r.nodes, "time": r.elapsed}


def line(r: dict) -> str:
    """A year's output line (what :func:`read_lines` reads back)."""
    return (f"floor seed {r['seed']:3d}: best {r['best']} bound {r['bound']:g} status "
            f"{r['status']} nodes {r['nodes']} ({r['time']:.0f} s)")


def read_lines(paths: list[Path]) -> dict[int, dict]:
    rows = {}
    for path in paths:
        for text in path.read_text(encoding="utf-8").splitlines():
            if m := LINE.match(text.strip()):
                rows[int(m["seed"])] = {"seed": int(m["seed"]), "best": int(m["best"]),
                                        "bound": float(m["bound"]), "status": m["status"],
                                        "nodes": int(m["nodes"]), "time": float(m["time"])}
    return rows


def parse_seeds(text: str) -> list[int]:
    """``"0-19"`` or ``"0,4,5"``: the seeds (ValueError on anything else)."""
    lo, dash, hi = text.partition("-")
    seeds = (list(range(int(lo), int(hi) + 1)) if dash
             else [int(s) for s in text.split(",")])
    if not seeds or min(seeds) < 0:
        raise ValueError(text)
    return seeds


def table(rows: dict[int, dict], against: dict[str, dict[int, dict]] | None = None
          ) -> list[str]:
    """The per-year table and its summary; ``against``: earlier runs (label: their years), a
    column of their bound each and a line comparing this run's bounds with theirs."""
    against = against or {}
    head = ["seed", "best plan known", "bound", "status", "nodes", "time", "gap",
            *(f"bound: {label}" for label in against)]
    out = ["| " + " | ".join(head) + " |", "|---" * len(head) + "|"]
    for seed in sorted(rows):
        r = rows[seed]
        earlier = [f"{runs[seed]['bound']:g}" if seed in runs else "" for runs in against.values()]
        out.append("| " + " | ".join([
            str(seed), str(r["best"]), f"{r['bound']:g}", r["status"], str(r["nodes"]),
            f"{r['time']:.0f} s", f"{gap(r['bound'], r['best']):.1%}", *earlier]) + " |")
    gaps = [gap(r["bound"], r["best"]) for r in rows.values()]
    status = [r["status"] for r in rows.values()]
    out += ["", f"{len(rows)} years: median gap {statistics.median(gaps):.1%}, "
            f"{sum(g < 0.03 for g in gaps)} under 3%, {status.count('exhausted')} exhausted, "
            f"{status.count('proven')} proven, {status.count('limit')} out of time"]
    for label, runs in against.items():
        out += ["", compare(rows, label, runs)]
    return out


def compare(rows: dict[int, dict], label: str, runs: dict[int, dict]) -> str:
    """A line: on how many of the years both runs hold this run's bound is lower, the same or
    higher than ``runs``'s (``label``)."""
    diffs = [rows[s]["bound"] - runs[s]["bound"] for s in sorted(rows) if s in runs]
    if not diffs:
        return f"against {label}: no year in common"
    return (f"against {label} ({len(diffs)} years in common): lower on "
            f"{sum(d < 0 for d in diffs)}, the same on {sum(d == 0 for d in diffs)}, higher on "
            f"{sum(d > 0 for d in diffs)}; mean change {statistics.mean(diffs):+.2f} VP")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="0-19", help="seeds, as 0-19 or 0,4,5")
    parser.add_argument("--time-limit", type=float, default=600.0,
                        help="seconds per year (default 600)")
    parser.add_argument("--workers", type=int, default=2, help="years at once (default 2)")
    parser.add_argument("--from-log", type=Path, action="append", default=[],
                        help="an earlier run's output: its years are not run again")
    parser.add_argument("--no-docs", action="store_true", help="do not write docs/lemuria.md")
    parser.add_argument("--json", action="store_true", help="print the years as JSON")
    parser.add_argument("--against", action="append", default=[], metavar="LABEL=FILE",
                        help="an earlier run's output to compare with: a column of its bounds "
                        "headed LABEL and a summary line (repeatable)")
    parser.add_argument("--marker", default="lemuria-floor",
                        help="the docs block the table goes into (default lemuria-floor)")
    args = parser.parse_args(argv)
    try:
        seeds = parse_seeds(args.seeds)
    except ValueError:
        parser.error(f"--seeds must be like 0-19 or 0,4,5, got {args.seeds!r}")
    if args.time_limit <= 0 or args.workers < 1:
        parser.error("--time-limit must be positive and --workers at least 1")
    plans = read_log(PLANS)
    if unknown := [s for s in seeds if s not in plans]:
        parser.error(f"no plan known for seed {unknown[0]} in {PLANS.name}")
    if not args.no_docs and f"<!-- bench:{args.marker} -->" not in DOCS.read_text("utf-8"):
        parser.error(f"--marker: {DOCS.name} has no block {args.marker!r}")
    missing = [p for p in args.from_log if not p.is_file()]
    if missing:
        parser.error(f"--from-log: no file {missing[0]}")
    against = {}
    for spec in args.against:
        label, eq, path = spec.partition("=")
        if not eq or not label or not Path(path).is_file():
            parser.error(f"--against must be LABEL=FILE with an existing file, got {spec!r}")
        against[label] = read_lines([Path(path)])
    rows = {s: r for s, r in read_lines(args.from_log).items() if s in seeds}
    todo = [s for s in seeds if s not in rows]
    stopped = False
    try:
        jobs = [(s, _best(plans[s]), args.time_limit) for s in todo]
        for _i, r in run_batch(run, jobs, workers=args.workers):
            rows[r["seed"]] = r
            print(line(r), flush=True)
    except KeyboardInterrupt:
        stopped = True
        print(f"interrupted: {len(rows)} of {len(seeds)} years done", file=sys.stderr)
    if args.json:
        print(json.dumps([rows[s] for s in sorted(rows)]))
    elif rows:
        print("\n".join(table(rows, against)))
    if rows and not (args.no_docs or stopped):
        write_docs(table(rows, against), command_line(__file__, argv), marker=args.marker,
                   measured=bool(todo))
    return 130 if stopped else 0


if __name__ == "__main__":
    sys.exit(main())
