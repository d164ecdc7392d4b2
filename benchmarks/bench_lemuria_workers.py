"""Which CP-SAT workers find the best Lemuria 12-turn plans: CP-SAT alone on two workers, from
the greedy year as a complete hint and with the fast bound as a cut (as ``build_schedule``
starts it), with each set-up of ``SETUPS``; the best VP each reaches within the time, on seeded
default years, every plan replayed by ``simulate``.

On a 12-turn year CP-SAT's own bound does not count (``YearModel.every_year`` is False), so its
workers are worth only the plans they find. With two workers and the subsolvers ``max_lp`` and
``quick_restart`` (``build_schedule``'s set-up), CP-SAT runs one full subsolver (``max_lp``) and
gives the other thread to its neighbourhood searches; this table says what that LP thread is
worth to them against the alternatives.

    python benchmarks/bench_lemuria_workers.py                 # writes the table into docs
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
}


def solver(setup: str, seconds: float) -> cp_model.CpSolver:
    """A two-worker solver for ``setup`` (one of :data:`SETUPS`)."""
    if setup == "max_lp + LNS":
        return _solver(2, 0, seconds, False, interleave=True)
    made = _solver(2, 0, seconds, False, interleave=False)
    if setup == "quick_restart + LNS":
        made.parameters.subsolvers.append("quick_restart")
    elif setup == "LNS only":
        made.parameters.use_lns_only = True
    elif setup != "default + LNS":
        raise ValueError(setup)
    return made


def run(seed: int, seconds: float) -> list[int]:
    """The VP of the best plan each set-up of :data:`SETUPS` finds for default year ``seed``
    within ``seconds`` (each plan replayed; the greedy year's where a run finds none better)."""
    instance = default_instance(seed)
    greedy = greedy_schedule(instance)
    year, _limit, _values, _fast = _prepare(instance, greedy, seconds, True, "columns")
    found = []
    for setup in SETUPS:
        sat = solver(setup, seconds)
        if sat.solve(year.m) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            found.append(greedy.vp)
            continue
        plan = year.schedule(sat)
        replayed = simulate(instance, plan).total
        if replayed != plan.vp:
            raise SystemExit(f"seed {seed}, {setup}: plan says {plan.vp} VP, replay {replayed}")
        found.append(max(plan.vp, greedy.vp))
    return found


def table(rows: list[list[int]]) -> list[str]:
    """The markdown table of ``rows`` (a row of VP per year, a column per set-up), with the
    mean and how often each set-up found the row's best, and the set-ups described under it."""
    columns = list(zip(*rows, strict=True))
    lines = ["| seed | " + " | ".join(SETUPS) + " |", "|---" * (len(SETUPS) + 1) + "|"]
    lines += [f"| {seed} | " + " | ".join(map(str, row)) + " |" for seed, row in enumerate(rows)]
    lines.append("| mean | " + " | ".join(f"{statistics.mean(c):.1f}" for c in columns) + " |")
    lines.append("| best of the row | " + " | ".join(
        str(sum(v == max(row) for v, row in zip(c, rows, strict=True))) for c in columns) + " |")
    return lines + ["", *(f"- {name}: {what}" for name, what in SETUPS.items())]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=8, help="years: default_instance(0..N-1)")
    parser.add_argument("--seconds", type=float, default=20.0, help="CP-SAT time per run")
    parser.add_argument("--no-docs", action="store_true", help="do not write docs/lemuria.md")
    parser.add_argument("--json", action="store_true",
                        help="print {setup: [VP per year]} as JSON instead of the table")
    args = parser.parse_args(argv)
    if args.seeds < 1:
        parser.error(f"--seeds must be at least 1, got {args.seeds}")
    if not 0 < args.seconds < 1e6:
        parser.error(f"--seconds must be a positive number of seconds, got {args.seconds}")
    rows: list[list[int]] = []
    try:
        for seed in range(args.seeds):
            rows.append(run(seed, args.seconds))
            print(f"seed {seed}: " + ", ".join(f"{name} {vp}" for name, vp in
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
