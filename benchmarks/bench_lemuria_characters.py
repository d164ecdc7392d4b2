"""The character planner for fixed builds (``solvers.lemuria.characters``) on the builds of the
greedy year, against CP-SAT on the same question (the year model with those builds fixed).

    python benchmarks/bench_lemuria_characters.py            # writes the table into docs
    python benchmarks/bench_lemuria_characters.py --no-docs

For each default year (seeds, 6, 8 and 12 turns): the greedy year's VP; the planner with its
default ``max_states`` (exact unless the status says ``limit``) and as a beam of 1000 states:
VP, status, states expanded, the most states at a turn's end and seconds; CP-SAT (one worker,
seed 0) on the year model with the greedy year's builds, chits and remodels fixed: VP, status
and seconds. Every plan is replayed by ``simulate``. The table goes into docs/lemuria.md between
``<!-- bench:lemuria-characters -->`` and ``<!-- /bench -->`` unless ``--no-docs``.
"""

from __future__ import annotations

import argparse
import time

from bench_lemuria import command_line, write_docs  # benchmarks/ is the script's folder
from ortools.sat.python import cp_model

from lumicore.lemuria import Instance, Schedule, default_instance, simulate
from solvers.lemuria.characters import MAX_STATES, best_characters
from solvers.lemuria.greedy import greedy_schedule
from solvers.lemuria.model import YearModel

STATUS = {cp_model.OPTIMAL: "optimal", cp_model.FEASIBLE: "feasible"}


def cp_sat_same_builds(inst: Instance, plan: Schedule, seconds: float) -> tuple[int, str, float]:
    """CP-SAT's best year with the builds of ``plan`` fixed: VP, status and seconds."""
    began = time.perf_counter()
    year = YearModel(inst)
    year.hint(plan.turns, {t.turn: t.row for t in simulate(inst, plan).trace})
    hinted = dict(zip(year.m.proto.solution_hint.vars, year.m.proto.solution_hint.values,
                      strict=True))
    builds = [x for t in year.turns for x in year.bs[t]]
    builds += [x for d in year.chit.values() for x in d.values()]
    builds += [x for x in year.rem.values() if x is not None] + list(year.disc.values())
    for x in builds:
        year.m.add(x == hinted.get(x.index, 0))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers, solver.parameters.random_seed = 1, 0
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.linearization_level = 2  # as build_schedule runs it
    code = solver.solve(year.m)
    if code not in STATUS:
        return plan.vp, "unknown", time.perf_counter() - began
    vp = int(round(solver.objective_value))
    if simulate(inst, year.schedule_turns(solver)).total != vp:
        raise SystemExit("CP-SAT's plan does not replay at its VP")
    return vp, STATUS[code], time.perf_counter() - began


def run_planner(inst: Instance, plan: Schedule, states: int, seconds: float) -> str:
    began = time.perf_counter()
    found = best_characters(inst, plan, max_states=states, time_limit=seconds)
    if simulate(inst, found.schedule).total != found.vp:
        raise SystemExit("the planner's year does not replay at its VP")
    return (f"{found.vp} | {found.status} | {found.nodes} | {found.widest} | "
            f"{time.perf_counter() - began:.1f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=4, help="years per length (default 4)")
    parser.add_argument("--turns", default="6,8,12", help="year lengths (default 6,8,12)")
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="time limit of each run (default 60)")
    parser.add_argument("--no-docs", action="store_true", help="do not write docs/lemuria.md")
    args = parser.parse_args(argv)
    lines = ["| turns | seed | greedy | planner: VP | status | states | widest | s "
             "| beam 1000: VP | status | states | widest | s "
             "| CP-SAT, same builds: VP | status | s |",
             "|" + "---|" * 16]
    for turns in (int(t) for t in args.turns.split(",")):
        for seed in range(args.seeds):
            inst = default_instance(seed, turns=turns)
            greedy = greedy_schedule(inst)
            exact = run_planner(inst, greedy, MAX_STATES, args.seconds)
            beam = run_planner(inst, greedy, 1000, args.seconds)
            vp, status, seconds = cp_sat_same_builds(inst, greedy, args.seconds)
            line = (f"| {turns} | {seed} | {greedy.vp} | {exact} | {beam} | {vp} | {status} "
                    f"| {seconds:.1f} |")
            print(line, flush=True)
            lines.append(line)
    if not args.no_docs:
        write_docs(lines, command_line(__file__, argv), marker="lemuria-characters")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
