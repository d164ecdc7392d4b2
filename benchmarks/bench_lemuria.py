"""Benchmark of the Lemuria CP-SAT scheduler on seeded default instances.

For each instance ``default_instance(seed, turns)``: the model size, the greedy baseline's VP
(``solvers.lemuria.greedy``, replayed through ``simulate``), and for each worker count the
scheduler's status, VP, upper bound and wall time (every plan is replayed through ``simulate``
and must score its VP). Then a summary: instances proven optimal, median time to the answer,
mean VP over the greedy baseline.

    python benchmarks/bench_lemuria.py                       # 20 instances, 1 and 2 workers
    python benchmarks/bench_lemuria.py --instances 3 --time-limit 10      # a quick look
    python benchmarks/bench_lemuria.py --turns 6 --workers 1

Targets (issue 4): every 12-turn instance proven, median under 10 s with 1 worker.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from lumicore.lemuria import default_instance, simulate
from solvers.lemuria import build_schedule, model_stats
from solvers.lemuria.greedy import greedy_schedule


def run(seeds: list[int], turns: int, workers: list[int], time_limit: float) -> list[dict]:
    rows = []
    for seed in seeds:
        inst = default_instance(seed, turns=turns)
        stats = model_stats(inst)
        start = time.perf_counter()
        greedy = greedy_schedule(inst)
        greedy_time = time.perf_counter() - start
        assert simulate(inst, greedy).total == greedy.vp
        row = {"seed": seed, "stats": stats, "greedy": greedy.vp, "greedy_time": greedy_time}
        for w in workers:
            plan = build_schedule(inst, time_limit=time_limit, workers=w, seed=0)
            replay = simulate(inst, plan).total
            if replay != plan.vp:
                raise SystemExit(f"seed {seed}: the simulator scores {replay}, the plan {plan.vp}")
            row[w] = plan
        rows.append(row)
        _print_row(row, workers)
    return rows


def _cell(plan) -> str:
    bound = "" if plan.bound is None else f"<={plan.bound:g}"
    mark = "opt" if plan.status == "optimal" else "feas"
    return f"{mark:>4} {plan.vp:4d}{bound:>7} {plan.elapsed:6.1f}s"


def _print_row(row: dict, workers: list[int]) -> None:
    s = row["stats"]
    cells = " | ".join(_cell(row[w]) for w in workers)
    print(f"{row['seed']:4d} | {s.variables:5d} {s.booleans:5d} {s.constraints:5d} | "
          f"{row['greedy']:6d} | {cells}", flush=True)


def summary(rows: list[dict], workers: list[int]) -> None:
    print()
    for w in workers:
        plans = [r[w] for r in rows]
        proven = sum(p.status == "optimal" for p in plans)
        med = statistics.median(p.elapsed for p in plans)
        gain = statistics.mean(p.vp / r["greedy"] for p, r in zip(plans, rows, strict=True))
        print(f"{w} worker(s): proven {proven}/{len(plans)}, median time {med:.1f} s, "
              f"mean VP {statistics.mean(p.vp for p in plans):.1f} "
              f"(greedy {statistics.mean(r['greedy'] for r in rows):.1f}, ratio {gain:.3f}), "
              f"mean gap to bound "
              f"{statistics.mean((p.bound or p.vp) - p.vp for p in plans):.1f} VP")
    sizes = [r["stats"] for r in rows]
    print(f"model size: {statistics.mean(s.variables for s in sizes):.0f} variables "
          f"({statistics.mean(s.booleans for s in sizes):.0f} Boolean), "
          f"{statistics.mean(s.constraints for s in sizes):.0f} constraints (mean, before "
          f"presolve)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=20, help="number of seeds (default 20)")
    parser.add_argument("--first", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--workers", default="1,2", help="comma-separated (default 1,2)")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per solve")
    args = parser.parse_args(argv)
    workers = [int(w) for w in args.workers.split(",")]
    seeds = list(range(args.first, args.first + args.instances))
    head = " | ".join(f"{w} worker(s): status VP bound time".ljust(30) for w in workers)
    print(f"default_instance(seed, turns={args.turns}), time limit {args.time_limit:g} s")
    print(f"seed |  vars  bool  cons | greedy | {head}")
    rows = run(seeds, args.turns, workers, args.time_limit)
    summary(rows, workers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
