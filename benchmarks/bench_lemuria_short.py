"""Short Lemuria years that CP-SAT alone cannot prove: random small planning years (0-2
opponents, starting anywhere in the calendar, so remodels and sent-back cards occur), each
solved by ``build_schedule`` within a time limit and compared with the exhaustive planner's
optimum (the years it proves within its own limit). On such years CP-SAT's bound does not
count and the fast bound can be loose; ``build_schedule`` hands what time is left to the
exhaustive planner. The table says how many it proves, how many plans fall short of the
optimum and the time taken; every plan is replayed by ``simulate``, and a plan called optimal
below the optimum stops the run.

    python benchmarks/bench_lemuria_short.py                   # writes the table into docs
    python benchmarks/bench_lemuria_short.py --years 5 --seconds 3 --no-docs
    python benchmarks/bench_lemuria_short.py --years 2 --no-docs --json   # one object a year

Ctrl-C prints the years done (docs untouched). The table goes into docs/lemuria.md between
``<!-- bench:lemuria-short -->`` and ``<!-- /bench -->`` unless ``--no-docs``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from bench_lemuria import command_line, write_docs  # benchmarks/ is the script's folder

from lumicore.lemuria import simulate
from lumicore.lemuria.instance import small_instance
from solvers.lemuria import build_schedule
from solvers.lemuria.exhaustive import exhaustive_best


def years(seed: int):
    """Random small years (and their shape) whose optimum the exhaustive planner proves."""
    rng = random.Random(seed)
    while True:
        turns = rng.choice([2, 3, 3, 4])
        shape = (turns, rng.randint(3, 7), rng.randint(1, 3), rng.randint(0, 2),
                 rng.randint(1, 13 - turns))
        instance = small_instance(rng.randrange(10**6), *shape[:4], first_turn=shape[4])
        best = exhaustive_best(instance, max_nodes=200_000, time_limit=15)
        if best.status == "optimal":
            yield instance, shape, best.vp


def run(instance, optimum: int, seconds: float) -> dict:
    """One year: build_schedule's plan against the optimum."""
    start = time.perf_counter()
    plan = build_schedule(instance, time_limit=seconds, workers=1, seed=0)
    elapsed = time.perf_counter() - start
    if simulate(instance, plan).total != plan.vp:
        raise SystemExit(f"a plan of {plan.vp} VP does not replay to its VP")
    if plan.status == "optimal" and plan.vp != optimum:
        raise SystemExit(f"a plan of {plan.vp} VP called optimal; the optimum is {optimum}")
    return {"vp": plan.vp, "optimum": optimum, "status": plan.status, "bound": plan.bound,
            "time": elapsed}


def table(rows: list[tuple[tuple, dict]]) -> list[str]:
    lines = ["| year | turns, cards, characters, opponents, first turn | optimum | plan | "
             "status | bound | time (s) |", "|---|---|---|---|---|---|---|"]
    lines += [f"| {k} | {', '.join(map(str, shape))} | {r['optimum']} | {r['vp']} | "
              f"{r['status']} | {r['bound'] if r['bound'] is not None else '-'} | "
              f"{r['time']:.2f} |" for k, (shape, r) in enumerate(rows)]
    results = [r for _, r in rows]
    proven = sum(r["status"] == "optimal" for r in results)
    short = sum(r["vp"] < r["optimum"] for r in results)
    return lines + ["", f"{len(results)} years: {proven} proven optimal, {short} plans below the "
                        f"optimum, mean time {statistics.mean(r['time'] for r in results):.2f} s"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--years", type=int, default=20, help="how many years")
    parser.add_argument("--seed", type=int, default=7, help="seed of the years drawn")
    parser.add_argument("--seconds", type=float, default=6.0, help="build_schedule's limit")
    parser.add_argument("--no-docs", action="store_true", help="do not write docs/lemuria.md")
    parser.add_argument("--json", action="store_true",
                        help="print a JSON list of the years instead of the table")
    args = parser.parse_args(argv)
    if args.years < 1:
        parser.error(f"--years must be at least 1, got {args.years}")
    if not 0 < args.seconds < 1e6:
        parser.error(f"--seconds must be a positive number of seconds, got {args.seconds}")
    rows: list[tuple[tuple, dict]] = []
    try:
        for instance, shape, optimum in years(args.seed):
            rows.append((shape, run(instance, optimum, args.seconds)))
            r = rows[-1][1]
            print(f"year {len(rows) - 1}: optimum {optimum}, plan {r['vp']} {r['status']} "
                  f"({r['time']:.2f} s)", file=sys.stderr, flush=True)
            if len(rows) == args.years:
                break
    except KeyboardInterrupt:
        print(f"interrupted after {len(rows)} of {args.years} years", file=sys.stderr)
        args.no_docs = True
    if args.json:
        print(json.dumps([{"shape": list(shape), **r} for shape, r in rows]))
    elif rows:
        print("\n".join(table(rows)))
    if rows and not args.no_docs:
        write_docs(table(rows), command_line(__file__, argv), marker="lemuria-short")
    return 0


if __name__ == "__main__":
    sys.exit(main())
