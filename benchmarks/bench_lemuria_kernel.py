"""The Cython steps of the Lemuria bound's programs (``lumicore.lemuria.kernel``: a turn of the
building program, an item of the program by the cards held, the housing of the hand cards
waiting in it) against their plain-Python twins
(``lumicore.lemuria.reference``), measured in the same run on default 12-turn years: the
building program alone and the program by the cards held alone (milliseconds per evaluation),
one evaluation of both sides of the relaxation (``solvers.lemuria.bound._price``, the unit of
column generation), each with the kernels and with the twins in their place, the nodes the
branch and bound of ``solvers.lemuria.branch`` reaches in ``--seconds`` with the kernels, and
the seconds it takes for its first ``--nodes`` nodes (a fixed amount of work, each run in a
new process) with the arrays the bound keeps between evaluations
(``solvers.lemuria.scratch``) and with fresh arrays for every step, and their ratio.

    python benchmarks/bench_lemuria_kernel.py            # writes the table into docs/lemuria.md
    python benchmarks/bench_lemuria_kernel.py --no-docs

The table goes into docs/lemuria.md between ``<!-- bench:lemuria-kernel -->`` and
``<!-- /bench -->`` unless ``--no-docs``.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import multiprocessing
import sys
import time
from collections.abc import Iterator

import numpy as np
from bench_lemuria import command_line, write_docs  # benchmarks/ is the script's folder

from lumicore.lemuria import default_instance, reference
from solvers.lemuria import bound
from solvers.lemuria.branch import branch_bound


def _per_call(fn, repeat: int) -> float:
    """Seconds per call of ``fn`` (the best of three rounds of ``repeat`` calls)."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(repeat):
            fn()
        best = min(best, (time.perf_counter() - start) / repeat)
    return best


def _inputs(seed: int) -> tuple:
    year = bound._Year(default_instance(seed))
    rng = np.random.default_rng(seed)
    mu, lam, fest = rng.random((4, year.T)) * 0.3, rng.random((year.T, 4)) * 0.3, np.where(
        year.is_festival, 1.0, 0.0)
    return year, mu, lam, fest


@contextlib.contextmanager
def _twins() -> Iterator[None]:
    """The bound with the plain-Python twins in the kernels' place."""
    names = ("building_turn", "held_step", "waiting_release")
    kernels = [getattr(bound, name) for name in names]
    for name in names:
        setattr(bound, name, getattr(reference, name))
    try:
        yield
    finally:
        for name, kernel in zip(names, kernels, strict=True):
            setattr(bound, name, kernel)


@contextlib.contextmanager
def _fresh_arrays() -> Iterator[None]:
    """The bound with fresh arrays for every kernel step instead of the ones it keeps."""
    kept = bound._pair
    bound._pair = lambda year, shape: None
    try:
        yield
    finally:
        bound._pair = kept


def _branch_seconds(seed: int, nodes: int, fresh: bool) -> float:
    with _fresh_arrays() if fresh else contextlib.nullcontext():
        start = time.perf_counter()
        branch_bound(default_instance(seed), time_limit=None, max_nodes=nodes)
        return time.perf_counter() - start


def _in_new_process(seed: int, nodes: int, fresh: bool) -> float:
    """:func:`_branch_seconds` in an interpreter of its own: how much fresh arrays cost
    depends on what the process allocated and freed before (the C allocator's thresholds
    move), so each measurement starts from a new one, as the process the branch and bound
    runs in beside CP-SAT does. The best of two."""
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as pool:
        first = pool.submit(_branch_seconds, seed, nodes, fresh).result()
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as pool:
        return min(first, pool.submit(_branch_seconds, seed, nodes, fresh).result())


def measure(seed: int, seconds: float, nodes: int) -> list[str]:
    year, mu, lam, fest = _inputs(seed)
    P = bound._prices(mu)
    Lam = np.cumsum(lam[::-1], axis=0)[::-1]
    cost = bound._priced_costs(year, P)
    val = bound._resident_values(year, P, Lam, fest)
    rows = sum(c.shape[0] for c in year.rows.card)

    def program() -> None:
        bound._building_dp(year, P, Lam, cost, fest)

    def held() -> None:
        with year.scratch.lease():  # as the bound evaluates it: in the arrays it keeps
            bound._held_value(year, P, val)

    def price() -> None:
        bound._price(year, mu, lam, fest)

    fast = [_per_call(program, 50), _per_call(held, 50), _per_call(price, 20)]
    with _twins():
        plain = [_per_call(fn, 1) for fn in (program, held, price)]
    found = branch_bound(default_instance(seed), time_limit=seconds)
    kept, fresh = (_in_new_process(seed, nodes, f) for f in (False, True))
    cells = [f"{f * 1e3:.2f} | {p * 1e3:.0f} | {p / f:.0f}x" for f, p in zip(fast, plain,
                                                                              strict=True)]
    return [f"| {seed} | {rows} | {' | '.join(cells)} | {found.nodes} ({found.bound:.2f}) | "
            f"{kept:.2f} | {fresh:.2f} | {fresh / kept:.2f}x |"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="0,1,2", help="default years (default 0,1,2)")
    parser.add_argument("--seconds", type=float, default=15.0,
                        help="seconds of branch and bound per year (default 15)")
    parser.add_argument("--nodes", type=int, default=30,
                        help="nodes of branch and bound timed with kept and fresh arrays "
                             "(default 30)")
    parser.add_argument("--no-docs", action="store_true", help="do not write docs/lemuria.md")
    args = parser.parse_args(argv)
    lines = ["| seed | row states | building program: kernel (ms) | twin (ms) | ratio | "
             "cards held: kernel (ms) | twin (ms) | ratio | "
             "evaluation: kernel (ms) | twin (ms) | ratio | branch and bound: nodes (bound) | "
             f"{args.nodes} nodes: kept arrays (s) | fresh arrays (s) | ratio |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for seed in (int(s) for s in args.seeds.split(",")):
        lines += measure(seed, args.seconds, args.nodes)
        print(lines[-1], flush=True)
    print("\n".join(lines))
    if not args.no_docs:
        write_docs(lines, command_line(__file__, argv), marker="lemuria-kernel")
    return 0


if __name__ == "__main__":
    sys.exit(main())
