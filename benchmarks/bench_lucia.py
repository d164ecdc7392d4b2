"""Lucia speed: kernel vs reference move generation, BFS / A* / IDA* rates and a depth table.

    python benchmarks/bench_lucia.py            # full run (a few minutes)
    python benchmarks/bench_lucia.py --quick    # short run

Everything is measured in this one run, on fixed seeds. Rates are given per wall second and per
CPU second of this process (the machine is shared, so the CPU figure is the steadier one).
Targets (issue 2): move generation >= 30 M successors/s and >= 100x the reference; BFS >= 3 M
distinct states/s; A* >= 1 M expansions/s.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from lumicore.errors import DataError
from lumicore.lucia import Train, load_deck, random_train, scramble
from lumicore.lucia import kernel as K
from lumicore.lucia import reference as R
from lumicore.lucia.notation import GINGER, H_LIT, H_UNLIT, LUCIA0, STARBOY
from lumicore.lucia.start import fix_up
from solvers.lucia import solve

DECK = load_deck().kinds
FULL = [H_UNLIT] * 7 + [2, 2] + [STARBOY] * 3 + [GINGER] * 3 + [LUCIA0]


def timed(fn: Callable[[], object], repeat: int = 1) -> tuple[object, float, float]:
    """Result, best wall time and matching CPU time over ``repeat`` runs."""
    best = (None, float("inf"), float("inf"))
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        out = fn()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        if wall < best[1]:
            best = (out, wall, cpu)
    return best


def random_full_trains(count: int, seed: int) -> list[Train]:
    """Full 16-kid trains: shuffled kids, random lights and candles, setup fix-up applied."""
    rng = np.random.default_rng(seed)
    out: list[Train] = []
    while len(out) < count:
        codes = [FULL[i] for i in rng.permutation(16)]
        codes = [H_LIT if c == H_UNLIT and rng.random() < 0.5 else c for c in codes]
        codes = [c + int(rng.integers(6)) if c == LUCIA0 else c for c in codes]
        try:
            out.append(Train(fix_up(codes)))
        except DataError:  # some shuffles cannot be separated by the fix-up; draw again
            continue
    return out


def ordered_full_train(seed: int) -> Train:
    """A full unlit start whose Gingerbreads all stand ahead of the Starboys, anywhere in the
    train (the default setup keeps them in the first five places)."""
    rng = np.random.default_rng(seed)
    while True:
        codes = [FULL[i] for i in rng.permutation(16)]
        last_g = max(i for i, c in enumerate(codes) if c == GINGER)
        if last_g < min(i for i, c in enumerate(codes) if c == STARBOY):
            try:
                return Train(fix_up(codes))
            except DataError:
                continue


def bench_movegen(quick: bool) -> list[tuple[str, str]]:
    trains = random_full_trains(400 if quick else 2000, seed=1)
    states = K.pack_trains(trains)
    table = K.card_table(DECK)
    repeat = 5 if quick else 25
    n_kernel, wall, cpu = timed(lambda: K.count_successors(states, table), repeat)
    (succ, _, _), e_wall, _ = timed(lambda: K.expand(states, table), repeat)
    ref_trains = trains[: 40 if quick else 200]
    n_ref, r_wall, r_cpu = timed(
        lambda: sum(len(R.successors(t.codes, c)) for t in ref_trains for c in DECK))
    same = K.count_successors(K.pack_trains(ref_trains), table) == n_ref
    k_rate, r_rate = n_kernel / wall, n_ref / r_wall
    return [
        ("states x card kinds", f"{len(states)} x {len(DECK)} (reference: {len(ref_trains)})"),
        ("kernel successors/s (count)", f"{k_rate / 1e6:.1f} M wall, "
                                        f"{n_kernel / cpu / 1e6:.1f} M cpu"),
        ("kernel successors/s (expand, arrays)", f"{len(succ) / e_wall / 1e6:.1f} M wall"),
        ("reference successors/s", f"{r_rate / 1e3:.1f} k wall, {n_ref / r_cpu / 1e3:.1f} k cpu"),
        ("kernel / reference", f"{k_rate / r_rate:.0f}x"),
        ("same successor counts", str(same)),
    ]


def run(train: Train, algorithm: str, max_nodes: int, time_limit: float, weight: int = 1):
    cpu = time.process_time()
    result = solve(train, DECK, algorithm=algorithm, max_nodes=max_nodes, time_limit=time_limit,
                   weight=weight)
    return result, time.process_time() - cpu


def bench_rates(quick: bool) -> list[tuple[str, str]]:
    puzzles = [scramble(8, seed=s) for s in range(2 if quick else 5)]
    limit = 500_000 if quick else 3_000_000
    rows = []
    nodes = made = wall = cpu = 0.0
    for p in puzzles:
        r, c = run(p, "bfs", limit, 60)
        nodes, made, wall, cpu = nodes + r.nodes, made + r.generated, wall + r.elapsed, cpu + c
    rows.append(("BFS puzzles", f"scramble(8, seed=0..{len(puzzles) - 1}), max_nodes {limit}"))
    rows.append(("BFS distinct states/s", f"{nodes / wall / 1e6:.2f} M wall, "
                                          f"{nodes / cpu / 1e6:.2f} M cpu"))
    rows.append(("BFS successors generated and looked up/s", f"{made / wall / 1e6:.1f} M wall "
                                                             f"({made / nodes:.0f} per new state)"))
    exp = nodes = wall = cpu = 0.0
    for s in range(2 if quick else 4):
        r, c = run(scramble(20, seed=2026 + s), "astar", 2 * limit, 60)
        exp, nodes, wall, cpu = exp + r.expanded, nodes + r.nodes, wall + r.elapsed, cpu + c
    rows.append(("A* puzzles", f"scramble(20, seed=2026..{2026 + (1 if quick else 3)})"))
    rows.append(("A* expansions/s", f"{exp / wall / 1e3:.0f} k wall, {exp / cpu / 1e3:.0f} k cpu"))
    rows.append(("A* generated states/s", f"{nodes / wall / 1e6:.2f} M wall"))
    return rows


def bench_depths(quick: bool) -> list[str]:
    max_nodes, time_limit = (1_000_000, 1.0) if quick else (8_000_000, 8.0)
    cases = [(f"scramble {d}", scramble(d, seed=2026)) for d in (4, 8, 12, 16, 20)]
    cases += [(f"setup seed {s}", random_train(s)) for s in (1, 2)]
    cases += [(f"G-ahead full seed {s}", ordered_full_train(s)) for s in (1, 2)]
    lines = [f"limits per run: max_nodes {max_nodes:,} (IDA*: {10 * max_nodes:,} visits, which "
             f"are cheaper), time_limit {time_limit} s; '*' = cut off (status limit)", "",
             "| puzzle | train | algorithm | status | cost | nodes | expanded | time s |",
             "|---|---|---|---|---|---|---|---|"]
    for name, train in cases:
        for algorithm, weight in (("bfs", 1), ("astar", 1), ("idastar", 1), ("astar", 3)):
            budget = 10 * max_nodes if algorithm == "idastar" else max_nodes
            r, _ = run(train, algorithm, budget, time_limit, weight)
            if weight > 1:
                algorithm = f"astar w={weight}"
            mark = "*" if r.status == "limit" else ""
            cost = "-" if r.cost is None else r.cost
            lines.append(f"| {name} | `{train}` | {algorithm} | {r.status}{mark} | {cost} | "
                         f"{r.nodes:,} | {r.expanded:,} | {r.elapsed:.2f} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sets and low limits")
    args = parser.parse_args()
    print("## Lucia benchmark" + (" (quick)" if args.quick else ""))
    print()
    print("| measure | value |")
    print("|---|---|")
    for key, value in bench_movegen(args.quick) + bench_rates(args.quick):
        print(f"| {key} | {value} |", flush=True)
    print()
    for line in bench_depths(args.quick):
        print(line, flush=True)


if __name__ == "__main__":
    main()
