"""How far the branch and bound can take the Lemuria bound: ``branch_bound`` alone on each
seeded default 12-turn year, told the best plan any set-up of ``benchmarks/logs/
lemuria_plan.log`` found for it (its ``target``), until it proves that plan optimal, stops at a
node it cannot split ("exhausted": the floor of its relaxation for that year) or runs out of
time.

    python benchmarks/bench_lemuria_floor.py                 # 20 years, writes docs/lemuria.md
    python benchmarks/bench_lemuria_floor.py --seeds 0,4 --no-docs
    python benchmarks/bench_lemuria_floor.py --from-log benchmarks/logs/lemuria_floor.log

Each year runs on one core (``--workers`` years at once). The per-year lines it prints are what
``--from-log`` reads back (years already there are not run again); the table goes into
docs/lemuria.md between ``<!-- bench:lemuria-floor -->`` and ``<!-- /bench -->`` unless
``--no-docs``.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bench_lemuria import _best, command_line, gap, read_log, write_docs

from lumicore.lemuria import default_instance
from solvers.lemuria.branch import branch_bound

PLANS = Path(__file__).parent / "logs" / "lemuria_plan.log"
LINE = re.compile(r"^floor seed\s+(?P<seed>\d+): best (?P<best>\d+) bound (?P<bound>\S+) "
                  r"status (?P<status>\w+) nodes (?P<nodes>\d+) \((?P<time>\d+) s\)$")


def run(seed: int, best: int, time_limit: float) -> dict:
    """The branch and bound on year ``seed`` with the best plan known as its target."""
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


def table(rows: dict[int, dict]) -> list[str]:
    out = ["| seed | best plan known | bound | status | nodes | time | gap |", "|---" * 7 + "|"]
    for seed in sorted(rows):
        r = rows[seed]
        out.append(f"| {seed} | {r['best']} | {r['bound']:g} | {r['status']} | {r['nodes']} | "
                   f"{r['time']:.0f} s | {gap(r['bound'], r['best']):.1%} |")
    gaps = [gap(r["bound"], r["best"]) for r in rows.values()]
    status = [r["status"] for r in rows.values()]
    out += ["", f"{len(rows)} years: median gap {statistics.median(gaps):.1%}, "
            f"{sum(g < 0.03 for g in gaps)} under 3%, {status.count('exhausted')} exhausted, "
            f"{status.count('proven')} proven, {status.count('limit')} out of time"]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="0-19", help="seeds, as 0-19 or 0,4,5")
    parser.add_argument("--time-limit", type=float, default=600.0,
                        help="seconds per year (default 600)")
    parser.add_argument("--workers", type=int, default=2, help="years at once (default 2)")
    parser.add_argument("--from-log", type=Path, action="append", default=[],
                        help="an earlier run's output: its years are not run again")
    parser.add_argument("--no-docs", action="store_true", help="do not write docs/lemuria.md")
    args = parser.parse_args(argv)
    lo, _, hi = args.seeds.partition("-")
    seeds = (list(range(int(lo), int(hi) + 1)) if hi
             else [int(s) for s in args.seeds.split(",")])
    plans = read_log(PLANS)
    rows = {s: r for s, r in read_lines(args.from_log).items() if s in seeds}
    todo = [s for s in seeds if s not in rows]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        jobs = [pool.submit(run, s, _best(plans[s]), args.time_limit) for s in todo]
        for job in jobs:
            r = job.result()
            rows[r["seed"]] = r
            print(line(r), flush=True)
    lines = table(rows)
    print("\n".join(lines))
    if not args.no_docs:
        write_docs(lines, command_line(__file__, argv), marker="lemuria-floor")
    return 0


if __name__ == "__main__":
    sys.exit(main())
