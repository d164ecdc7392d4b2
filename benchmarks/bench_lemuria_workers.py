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

The table goes into docs/lemuria.md between ``<!-- bench:lemuria-workers -->`` and
``<!-- /bench -->`` unless ``--no-docs``.
"""

from __future__ import annotations

import argparse
import statistics
import sys

from bench_lemuria import write_docs  # benchmarks/ is the script's folder
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


def run(seed: int, setup: str, seconds: float) -> int:
    """The VP of the best plan ``setup`` finds for default year ``seed`` (replayed)."""
    instance = default_instance(seed)
    greedy = greedy_schedule(instance)
    year, _limit, _values, _fast = _prepare(instance, greedy, seconds, True, "columns")
    sat = solver(setup, seconds)
    code = sat.solve(year.m)
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return greedy.vp
    plan = year.schedule(sat)
    replayed = simulate(instance, plan).total
    if replayed != plan.vp:
        raise SystemExit(f"seed {seed}, {setup}: plan says {plan.vp} VP, replay {replayed}")
    return max(plan.vp, greedy.vp)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=8, help="years: default_instance(0..N-1)")
    parser.add_argument("--seconds", type=float, default=20.0, help="CP-SAT time per run")
    parser.add_argument("--no-docs", action="store_true")
    args = parser.parse_args(argv)
    vps: dict[str, list[int]] = {setup: [] for setup in SETUPS}
    lines = ["| seed | " + " | ".join(SETUPS) + " |", "|---" * (len(SETUPS) + 1) + "|"]
    for seed in range(args.seeds):
        row = []
        for setup in SETUPS:
            vps[setup].append(run(seed, setup, args.seconds))
            row.append(str(vps[setup][-1]))
        lines.append(f"| {seed} | " + " | ".join(row) + " |")
        print(lines[-1], flush=True)
    best = [max(vp[s] for vp in vps.values()) for s in range(args.seeds)]
    lines.append("| mean | " + " | ".join(f"{statistics.mean(v):.1f}" for v in vps.values())
                 + " |")
    lines.append("| best of the row | " + " | ".join(
        str(sum(v == b for v, b in zip(vp, best, strict=True))) for vp in vps.values()) + " |")
    lines += ["", *(f"- {name}: {what}" for name, what in SETUPS.items())]
    print("\n".join(lines[-len(SETUPS) - 3:]))
    if not args.no_docs:
        command = "python benchmarks/bench_lemuria_workers.py " + " ".join(
            a for a in (argv if argv is not None else sys.argv[1:]) if a != "--no-docs")
        write_docs(lines, command.strip(), marker="lemuria-workers")


if __name__ == "__main__":
    main()
