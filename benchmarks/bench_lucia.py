"""Lucia speed: kernel vs reference move generation, BFS / A* / IDA* rates, a depth table
(covering heuristic alone vs with the pattern database), the database build, and the dealt-train
table; each table is written into docs/lucia.md between its marker comments.

    python benchmarks/bench_lucia.py            # full run (a few minutes)
    python benchmarks/bench_lucia.py --quick    # short run (docs untouched)
    python benchmarks/bench_lucia.py --dealt 20 --time-limit 45 --baseline-time-limit 10

Everything is measured in this one run, on fixed seeds. Rates are given per wall second and per
CPU second of this process (the machine is shared, so the CPU figure is the steadier one).
Targets (issue 2): move generation >= 30 M successors/s and >= 100x the reference; BFS >= 3 M
distinct states/s; A* >= 1 M expansions/s.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from lumicore.errors import DataError
from lumicore.lucia import Train, load_deck, random_train, scramble
from lumicore.lucia import kernel as K
from lumicore.lucia import pdb as pdb_module
from lumicore.lucia import reference as R
from lumicore.lucia.notation import GINGER, H_LIT, H_UNLIT, LUCIA0, STARBOY
from lumicore.lucia.pdb import build_pdb, load_pdb
from lumicore.lucia.start import fix_up
from solvers.lucia import solve
from solvers.lucia.puzzle import PDB_ABSTRACTION, card_kinds, search_kinds

DECK = load_deck().kinds
NEEDED = search_kinds(card_kinds(DECK))
"""The card kinds ``solve`` searches with, whose pattern database it loads (the deck's own
database is another cache file, which no solve reads)."""
DOCS = Path(__file__).resolve().parents[1] / "docs" / "lucia.md"


def write_docs(name: str, lines: list[str]) -> None:
    """Replace the text between ``<!-- bench:NAME -->`` and the next ``<!-- /bench -->``."""
    text = DOCS.read_text(encoding="utf-8")
    start, end = f"<!-- bench:{name} -->", "<!-- /bench -->"
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.S)
    if not pattern.search(text):
        raise SystemExit(f"docs/lucia.md has no {start} marker")
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    body = "\n".join([start, f"_Written by benchmarks/bench_lucia.py, {stamp}, on a shared "
                       f"2-core machine under load._", "", *lines, end])
    DOCS.write_text(pattern.sub(lambda _: body, text), encoding="utf-8")
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


def run(train: Train, algorithm: str, max_nodes: int, time_limit: float, weight: int = 1,
        heuristic: str = "pdb"):
    cpu = time.process_time()
    result = solve(train, DECK, algorithm=algorithm, max_nodes=max_nodes, time_limit=time_limit,
                   weight=weight, heuristic=heuristic)
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
        r, c = run(scramble(20, seed=2026 + s), "astar", 2 * limit, 60, heuristic="covering")
        exp, nodes, wall, cpu = exp + r.expanded, nodes + r.nodes, wall + r.elapsed, cpu + c
    rows.append(("A* puzzles (covering heuristic)",
                 f"scramble(20, seed=2026..{2026 + (1 if quick else 3)})"))
    rows.append(("A* expansions/s", f"{exp / wall / 1e3:.0f} k wall, {exp / cpu / 1e3:.0f} k cpu"))
    rows.append(("A* generated states/s", f"{nodes / wall / 1e6:.2f} M wall"))
    return rows


def bench_pdb() -> list[str]:
    """The database build on its own (no cache), for each abstraction, and a cached load."""
    lines = ["| abstraction | entries | reachable | max distance | build s | "
             "h(random_train(1..6)) |", "|---|---|---|---|---|---|"]
    trains = [random_train(s) for s in range(1, 7)]
    for abstraction in ("LS", "LG", "LSG", "LSGT"):
        db, wall, _ = timed(lambda a=abstraction: build_pdb(NEEDED, trains[0], a))
        reach = db.values[db.values < 255]
        lines.append(f"| {abstraction} | {db.values.size:,} | {reach.size:,} | {reach.max()} | "
                     f"{wall:.1f} | {' '.join(str(db.estimate(t)) for t in trains)} |")
    from lumicore.lucia.heuristic import build_table, estimate
    cover = " ".join(str(estimate(t, build_table(NEEDED, t))) for t in trains)
    lines.append(f"| covering table | | | | | {cover} |")
    saved = os.environ.get("LUMICORE_CACHE")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["LUMICORE_CACHE"] = tmp
        _, first, _ = timed(lambda: load_pdb(NEEDED, trains[0], PDB_ABSTRACTION))
        pdb_module._LOADED.clear()      # as in a new process
        _, again, _ = timed(lambda: load_pdb(NEEDED, trains[0], PDB_ABSTRACTION))
        _, memo, _ = timed(lambda: load_pdb(NEEDED, trains[0], PDB_ABSTRACTION))
    if saved is None:
        del os.environ["LUMICORE_CACHE"]
    else:
        os.environ["LUMICORE_CACHE"] = saved
    load_pdb(NEEDED, trains[0], PDB_ABSTRACTION)     # the depth table below starts cached
    lines += ["", f"{PDB_ABSTRACTION} through the cache: the first solve builds and writes it in "
              f"{first:.1f} s, the first solve of a new process loads and checks it in "
              f"{1000 * again:.0f} ms, later solves in that process reuse it in "
              f"{1000 * memo:.2f} ms."]
    return lines


def bench_depths(quick: bool) -> list[str]:
    max_nodes, time_limit = (1_000_000, 1.0) if quick else (8_000_000, 5.0)
    cases = [(f"scramble {d}", scramble(d, seed=2026)) for d in (4, 8, 12, 16, 20)]
    cases += [(f"G-ahead full seed {s}", ordered_full_train(s)) for s in (1,)]
    lines = [f"limits per run: max_nodes {max_nodes:,} (IDA*: {10 * max_nodes:,} visits, which "
             f"are cheaper), time_limit {time_limit} s; '*' = cut off (status limit, or feasible "
             f"with the warm start's plan). `scramble 20` is the default puzzle. A* with the "
             f"database starts with weighted A* (w=2): its plan bounds the search.", "",
             "| puzzle | algorithm | heuristic | status | cost | nodes | expanded | time s |",
             "|---|---|---|---|---|---|---|---|"]
    runs = [("bfs", 1, "covering"), ("astar", 1, "covering"), ("astar", 1, "pdb"),
            ("idastar", 1, "covering"), ("idastar", 1, "pdb"), ("astar", 3, "pdb")]
    for name, train in cases:
        for algorithm, weight, heuristic in runs:
            if algorithm == "bfs" and name not in ("scramble 4", "scramble 8"):
                continue    # BFS only reaches the shallow ones within the limits
            budget = 10 * max_nodes if algorithm == "idastar" else max_nodes
            r, _ = run(train, algorithm, budget, time_limit, weight, heuristic)
            if weight > 1:
                algorithm = f"astar w={weight}"
            mark = "*" if r.reason else ""
            cost = "-" if r.cost is None else r.cost
            heur = "-" if algorithm == "bfs" else heuristic
            lines.append(f"| {name} | {algorithm} | {heur} | {r.status}{mark} | {cost} | "
                         f"{r.nodes:,} | {r.expanded:,} | {r.elapsed:.2f} |")
    return lines


def _dealt_one(job: tuple[int, str, float]) -> dict:
    """One dealt train in a fresh process (so its peak memory is its own)."""
    seed, heuristic, time_limit = job
    train = random_train(seed)
    r = solve(train, DECK, time_limit=time_limit, heuristic=heuristic)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return {"seed": seed, "train": str(train), "status": r.status, "reason": r.reason,
            "cost": r.cost, "bound": r.bound, "first": r.first, "nodes": r.nodes,
            "expanded": r.expanded, "elapsed": r.elapsed, "peak": peak}


def bench_dealt(seeds: int, time_limit: float, baseline: float) -> list[str]:
    load_pdb(NEEDED, random_train(1), PDB_ABSTRACTION)    # cached before the clock starts
    lines = [f"`random_train(seed)`, default deck, `solve(train, deck, time_limit=...)` with the "
             f"default algorithm (A* with the covering table max the {PDB_ABSTRACTION} database, "
             f"warm-started by weighted A*, w=2) at {time_limit:g} s, and A* with the covering "
             f"table alone (`heuristic=\"covering\"`) at {baseline:g} s. `lower` = the proven "
             f"lower bound on the optimum, `first` = the warm start's plan; peak memory is the "
             f"process's peak RSS (Python, numpy and the database included).", "",
             "| seed | train | status | optimum | lower | first | nodes | time s | peak MB | "
             "covering: status | lower | nodes | time s |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    proven, times = 0, []
    with ProcessPoolExecutor(max_workers=1, max_tasks_per_child=1) as pool:
        for seed in range(1, seeds + 1):
            a = pool.submit(_dealt_one, (seed, "pdb", time_limit)).result()
            b = pool.submit(_dealt_one, (seed, "covering", baseline)).result()
            proven += a["status"] == "optimal"
            times.append(a["elapsed"])
            opt = a["cost"] if a["status"] == "optimal" else "-"
            lines.append(f"| {seed} | `{a['train']}` | {a['status']} | {opt} | {a['bound']} | "
                         f"{a['first']} | {a['nodes']:,} | {a['elapsed']:.1f} | "
                         f"{a['peak'] / 2**20:.0f} | {b['status']} | {b['bound']} | "
                         f"{b['nodes']:,} | {b['elapsed']:.1f} |")
            print(lines[-1], flush=True)
    times.sort()
    lines += ["", f"Proven optimal: {proven} of {seeds}; median time "
              f"{times[len(times) // 2]:.1f} s (limit {time_limit:g} s)."]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="small sets and low limits; docs are not rewritten")
    parser.add_argument("--dealt", type=int, default=0,
                        help="only the dealt-train table, for seeds 1..DEALT (default: skip it)")
    parser.add_argument("--time-limit", type=float, default=60.0,
                        help="dealt table: seconds per train, default algorithm (default 60)")
    parser.add_argument("--baseline-time-limit", type=float, default=20.0,
                        help="dealt table: seconds per train, covering heuristic alone "
                             "(default 20)")
    args = parser.parse_args()
    if args.dealt:
        lines = bench_dealt(args.dealt, args.time_limit, args.baseline_time_limit)
        print("\n".join(lines))
        if not args.quick:
            write_docs("lucia-dealt", lines)
        return
    rates = ["| measure | value |", "|---|---|"]
    for key, value in bench_movegen(args.quick) + bench_rates(args.quick):
        rates.append(f"| {key} | {value} |")
        print(rates[-1], flush=True)
    pdb = bench_pdb()
    print("\n".join(pdb), flush=True)
    depths = bench_depths(args.quick)
    print("\n".join(depths))
    if not args.quick:
        write_docs("lucia-rates", rates)
        write_docs("lucia-pdb", pdb)
        write_docs("lucia-depths", depths)


if __name__ == "__main__":
    main()
