"""Which CP-SAT workers find the best Lemuria 12-turn plans: CP-SAT alone on two workers, from
the greedy year as a complete hint and with the fast bound as a cut (as ``build_schedule``
starts it), with each set-up of ``SETUPS``; the best VP each reaches within the time, on seeded
default years, every plan replayed by ``simulate``.

On a 12-turn year CP-SAT's own bound does not count (``YearModel.every_year`` is False), so its
workers are worth only the plans they find. With two workers and the subsolvers ``max_lp`` and
``quick_restart`` (``build_schedule``'s set-up), CP-SAT runs one full subsolver (``max_lp``) and
gives the other thread to its neighbourhood searches; this table says what that LP thread is
worth to them against the alternatives.

    python benchmarks/bench_lemuria_workers.py --runs 2        # writes the table into docs
    python benchmarks/bench_lemuria_workers.py --seeds 4 --seconds 10 --no-docs
    python benchmarks/bench_lemuria_workers.py --seeds 2 --no-docs --json   # {setup: [VP]}

A line per year goes to stderr as it ends; Ctrl-C prints the years done (docs untouched).

The table goes into docs/lemuria.md between ``<!-- bench:lemuria-workers -->`` and
``<!-- /bench -->`` unless ``--no-docs``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from bench_lemuria import command_line, write_docs  # benchmarks/ is the script's folder
from ortools.sat.python import cp_model

from lumicore.lemuria import default_instance, simulate
from solvers.lemuria import _prepare, _solver
from solvers.lemuria.greedy import greedy_schedule

SETUPS = {
    "max_lp + LNS": "build_schedule's set-up (subsolvers max_lp and quick_restart): max_lp "
                    "in one thread, the neighbourhoods in the other",
    "quick_restart + LNS": "quick_restart in one thread, the neighbourhoods in the other",
    "default + LNS": "CP-SAT's own choice for two workers: default_lp in one thread, the "
                     "neighbourhoods in the other",
    "LNS only": "use_lns_only: both threads on the neighbourhoods (no rins/rens: no LP)",
    "max_lp + LNS + violation LS": "build_schedule's set-up with num_violation_ls = 1: a "
                                   "violation local search among the neighbourhoods",
    "interleaved": "build_schedule's subsolvers with interleave_search on both threads: "
                   "max_lp, quick_restart and the neighbourhoods take turns in each",
}


def solver(setup: str, seconds: float, random_seed: int = 0) -> cp_model.CpSolver:
    """A two-worker solver for ``setup`` (one of :data:`SETUPS`)."""
    if setup.startswith("max_lp + LNS"):
        made = _solver(2, random_seed, seconds, False, interleave=True)
        made.parameters.num_violation_ls = int(setup.endswith("violation LS"))
        return made
    if setup == "interleaved":
        made = _solver(2, random_seed, seconds, False, interleave=True)
        made.parameters.interleave_search = True
        return made
    made = _solver(2, random_seed, seconds, False, interleave=False)
    if setup == "quick_restart + LNS":
        made.parameters.subsolvers.append("quick_restart")
    elif setup == "LNS only":
        made.parameters.use_lns_only = True
    elif setup != "default + LNS":
        raise ValueError(setup)
    return made


def run(seed: int, seconds: float, runs: int = 1) -> list[float]:
    """The VP of the best plan each set-up of :data:`SETUPS` finds for default year ``seed``
    within ``seconds`` (each plan replayed; the greedy year's where a run finds none better),
    the mean of ``runs`` runs with CP-SAT's random seeds 0, 1, ..."""
    instance = default_instance(seed)
    greedy = greedy_schedule(instance)
    year, _limit, _values, _fast = _prepare(instance, greedy, seconds, True, "columns",
                                            time.perf_counter())
    found = []
    for setup in SETUPS:
        vps = []
        for random_seed in range(runs):
            sat = solver(setup, seconds, random_seed)
            if sat.solve(year.m) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                vps.append(greedy.vp)
                continue
            plan = year.schedule(sat)
            replayed = simulate(instance, plan).total
            if replayed != plan.vp:
                raise SystemExit(f"seed {seed}, {setup}: plan says {plan.vp} VP, replay "
                                 f"{replayed}")
            vps.append(max(plan.vp, greedy.vp))
        found.append(statistics.mean(vps))
    return found


def table(rows: list[list[float]]) -> list[str]:
    """The markdown table of ``rows`` (a row of VP per year, a column per set-up), with the
    mean and how often each set-up found the row's best, and the set-ups described under it."""
    columns = list(zip(*rows, strict=True))
    lines = ["| seed | " + " | ".join(SETUPS) + " |", "|---" * (len(SETUPS) + 1) + "|"]
    lines += [f"| {seed} | " + " | ".join(f"{v:g}" for v in row) + " |"
              for seed, row in enumerate(rows)]
    lines.append("| mean | " + " | ".join(f"{statistics.mean(c):.1f}" for c in columns) + " |")
    lines.append("| best of the row | " + " | ".join(
        str(sum(v == max(row) for v, row in zip(c, rows, strict=True))) for c in columns) + " |")
    return lines + ["", *(f"- {name}: {what}" for name, what in SETUPS.items())]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=8, help="years: default_instance(0..N-1)")
    parser.add_argument("--seconds", type=float, default=20.0, help="CP-SAT time per run")
    parser.add_argument("--runs", type=int, default=1,
                        help="runs per year and set-up (CP-SAT's random seeds 0..N-1); a cell "
                             "is their mean VP")
    parser.add_argument("--no-docs", action="store_true", help="do not write docs/lemuria.md")
    parser.add_argument("--json", action="store_true",
                        help="print {setup: [VP per year]} as JSON instead of the table")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error(f"--runs must be at least 1, got {args.runs}")
    if args.seeds < 1:
        parser.error(f"--seeds must be at least 1, got {args.seeds}")
    if not 0 < args.seconds < 1e6:
        parser.error(f"--seconds must be a positive number of seconds, got {args.seconds}")
    rows: list[list[float]] = []
    try:
        for seed in range(args.seeds):
            rows.append(run(seed, args.seconds, args.runs))
            print(f"seed {seed}: " + ", ".join(f"{name} {vp:g}" for name, vp in
                                               zip(SETUPS, rows[-1], strict=True)),
                  file=sys.stderr, flush=True)
    except KeyboardInterrupt:  # the years done so far; the docs keep their table
        print(f"interrupted after {len(rows)} of {args.seeds} years", file=sys.stderr)
        args.no_docs = True
    if args.json:
        print(json.dumps({name: [row[i] for row in rows] for i, name in enumerate(SETUPS)}))
    elif rows:
        print("\n".join(table(rows)))
    if rows and not args.no_docs:
        write_docs(table(rows), command_line(__file__, argv), marker="lemuria-workers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
