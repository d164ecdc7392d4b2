"""Where the Lemuria proof gap is: the fast Lagrangian bound against optima CP-SAT proves, on
default years and on variants of them that switch one part of the character side off; the
bound when the first turn's build is fixed (the first level of a branch and bound); the
bound after more subgradient steps and by column generation (with and without smoothing); and
the branch and bound of ``solvers.lemuria.branch`` on 6-turn years against their best plans
(with and without its split on the turn a character is first housed in); and, on 12-turn
years, the gap left once the builds are settled: the building plan the root master weighs
most, fixed, under the bound, CP-SAT and the character planner, and the character years the
bound of those builds mixes.

    python benchmarks/bench_lemuria_gap.py            # writes the tables into docs/lemuria.md
    python benchmarks/bench_lemuria_gap.py --no-docs
    python benchmarks/bench_lemuria_gap.py --tables builds   # only the settled-builds table
    python benchmarks/bench_lemuria_gap.py --tables mix      # what their master mixes

Variants: ``base`` (the default year), ``no characters`` (hand and character deck empty),
``all in hand`` (every character in the hand: nothing to draw), ``gold +40`` and ``food +40``
(40 more at the start), ``no colours`` (every character scores ``vp_match`` in any facility).
The tables go into docs/lemuria.md between ``<!-- bench:lemuria-gap -->`` (the settled
builds: ``<!-- bench:lemuria-builds -->``, their mix: ``<!-- bench:lemuria-mix -->``) and
``<!-- /bench -->`` unless ``--no-docs``.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import sys

import numpy as np
from bench_lemuria import command_line, write_docs  # benchmarks/ is the script's folder
from ortools.sat.python import cp_model

from lumicore.lemuria import RESOURCES, Instance, Schedule, default_instance, simulate
from solvers.lemuria import _solver, bound, branch, build_schedule
from solvers.lemuria.bound import lagrangian_bound
from solvers.lemuria.characters import best_characters, freer_reductions
from solvers.lemuria.dives import column_options, fixed_builds
from solvers.lemuria.model import YearModel


def variant(inst: Instance, kind: str) -> Instance:
    chars = inst.characters
    if kind == "base":
        return inst
    if kind == "no characters":
        return dataclasses.replace(inst, hand=(), character_deck=())
    if kind == "all in hand":
        return dataclasses.replace(inst, hand=inst.hand + inst.character_deck, character_deck=())
    if kind in ("gold +40", "food +40"):
        r = kind.split()[0]
        return dataclasses.replace(inst, start={**inst.start, r: inst.start[r] + 40})
    if kind == "no colours":
        return dataclasses.replace(inst, characters={
            k: dataclasses.replace(c, vp=c.vp_match) for k, c in chars.items()})
    raise ValueError(kind)


KINDS = ("base", "no characters", "all in hand", "gold +40", "food +40", "no colours")


def against_optima(years: list[tuple[int, int]], kinds: tuple[str, ...], time_limit: float,
                   workers: int) -> list[str]:
    lines = ["| turns | seed | variant | fast bound | CP-SAT plan | proven | bound - plan |",
             "|---|---|---|---|---|---|---|"]
    for turns, seed in years:
        for kind in kinds:
            inst = variant(default_instance(seed, turns=turns), kind)
            fast = lagrangian_bound(inst).value
            plan = build_schedule(inst, time_limit=time_limit, workers=workers, seed=0)
            assert simulate(inst, plan).total == plan.vp
            proven = plan.status == "optimal"
            lines.append(f"| {turns} | {seed} | {kind} | {fast:.1f} | {plan.vp} | "
                         f"{'yes' if proven else 'no'} | {fast - plan.vp:.1f} |")
            print(lines[-1], flush=True)
    return lines


def branching(years: list[tuple[int, int]]) -> list[str]:
    lines = ["| turns | seed | whole year | best turn-1 option | its bound | next options |",
             "|---|---|---|---|---|---|"]
    for turns, seed in years:
        inst = default_instance(seed, turns=turns)
        whole = lagrangian_bound(inst).value
        kids = sorted(((lagrangian_bound(inst, fixed={1: o}).value, o) for o in range(6)),
                      reverse=True)
        rest = ", ".join(f"{v:.1f}" for v, _o in kids[1:4])
        name = "no build" if kids[0][1] == 0 else f"slot {kids[0][1]}"
        lines.append(f"| {turns} | {seed} | {whole:.1f} | {name} | {kids[0][0]:.1f} | {rest} |")
        print(lines[-1], flush=True)
    return lines


def steps(seeds: list[int]) -> list[str]:
    """The default subgradient steps against slower ones (the step size halved after 40 steps
    without a better bound instead of 6, up to 3000 steps) and against column generation (its
    bound and the master's value, below which no multipliers go)."""
    lines = ["| seed | default steps | bound | patient steps | bound | column generation: steps "
             "| bound | floor | unsmoothed steps |", "|---|---|---|---|---|---|---|---|---|"]
    for seed in seeds:
        inst = default_instance(seed)
        short = bound.lagrangian_bound(inst, time_limit=None, method="subgradient")
        saved, bound.STALL = bound.STALL, 40
        try:
            long = bound.lagrangian_bound(inst, time_limit=None, max_steps=3000,
                                          method="subgradient")
        finally:
            bound.STALL = saved
        cols = bound.lagrangian_bound(inst, time_limit=None, max_steps=3000)
        saved, bound.SMOOTHING = bound.SMOOTHING, 0.0
        try:
            plain = bound.lagrangian_bound(inst, time_limit=None, max_steps=3000)
        finally:
            bound.SMOOTHING = saved
        lines.append(f"| {seed} | {short.steps} | {short.value:.2f} | {long.steps} | "
                     f"{long.value:.2f} | {cols.steps} | {cols.value:.2f} | {cols.floor:.2f} | "
                     f"{plain.steps} |")
        print(lines[-1], flush=True)
    return lines


def branched(seeds: list[int], time_limit: float, workers: int) -> list[str]:
    """``branch_bound`` without a target (``BRANCH_TIME`` seconds), with and without the split
    on housing turns, against the best plan of ``build_schedule`` without the branch and
    bound (CP-SAT's own proof)."""
    lines = ["| seed | fast bound | branch bound | status | nodes | without the turn split | "
             "nodes | CP-SAT plan | proven |", "|---|---|---|---|---|---|---|---|---|"]
    for seed in seeds:
        inst = default_instance(seed, turns=6)
        found = branch.branch_bound(inst, time_limit=BRANCH_TIME)
        saved, branch._split_turns = branch._split_turns, lambda choices, characters: []
        try:
            less = branch.branch_bound(inst, time_limit=BRANCH_TIME)
        finally:
            branch._split_turns = saved
        plan = build_schedule(inst, time_limit=time_limit, workers=workers, seed=0,
                              branch=False)
        assert simulate(inst, plan).total == plan.vp
        lines.append(f"| {seed} | {found.root:.1f} | {found.bound:.2f} | {found.status} | "
                     f"{found.nodes} | {less.bound:.2f} ({less.status}) | {less.nodes} | "
                     f"{plan.vp} | {'yes' if plan.status == 'optimal' else 'no'} |")
        print(lines[-1], flush=True)
    return lines


BRANCH_TIME = 60.0
"""Seconds of :func:`branched`'s branch and bound per year."""


@functools.cache  # the builds and mix tables share it under --tables all
def settled_node(seed: int) -> tuple[Instance, bound.BoundResult, list[int], bound.BoundResult]:
    """The 12-turn default year of ``seed``, its bound, the building plan its root master
    weighs most (the option of each turn) and the bound with those builds fixed."""
    inst = default_instance(seed)
    whole = lagrangian_bound(inst, time_limit=None)
    options = column_options(whole, 1)[0]
    fixed = lagrangian_bound(inst, time_limit=None,
                             fixed={t: o for t, o in enumerate(options, start=1)})
    return inst, whole, options, fixed


def _short(need: np.ndarray, have: np.ndarray) -> tuple[float, int]:
    """How far ``need`` (by turn) exceeds ``have`` at most, and in which turn (1-based)."""
    over = need - have
    turn = int(np.argmax(over))
    return float(over[turn]), turn + 1


def mixed(seeds: list[int]) -> list[str]:
    """What the master mixes once the builds are settled: the character columns (relaxed
    character years) with weight at the bound of the fixed builds, the residents each houses,
    and how many of them spend more food or gold by some turn than the building columns
    leave by then (the instance's start and income, plus the bonuses, less the builds' costs):
    a column that does cannot be paid on its own, only on average with the others."""
    lines = ["| seed | builds fixed: bound | character columns mixed | residents each | "
             "short of food | most food short (turn) | short of gold | "
             "most gold short (turn) |", "|---|---|---|---|---|---|---|---|"]
    for seed in seeds:
        inst, _whole, _options, fixed = settled_node(seed)
        given = bound.given_by_turn(inst)
        used = [(side, c, w) for (side, c), w in zip(fixed.columns, fixed.weights, strict=True)
                if w > 1e-6]
        have = sum(w * (given + np.cumsum(c.plan.gain - c.plan.spend, axis=1))
                   for side, c, w in used if side == "building")
        chars = [c.plan for side, c, _w in used if side == "characters" and c.plan.housed.any()]
        cells = []
        for k in (RESOURCES.index("food"), RESOURCES.index("gold")):
            shorts = [_short(np.cumsum(p.spend[k]), have[k]) for p in chars]
            worst = max(shorts, default=(0.0, 0))
            cells += [f"{sum(x > 1e-9 for x, _t in shorts)} of {len(chars)}",
                      f"{worst[0]:.1f} ({worst[1]})"]
        housed = [int(p.housed.sum()) for p in chars]
        lines.append(f"| {seed} | {fixed.value:.1f} | {len(chars)} | "
                     f"{min(housed, default=0)}-{max(housed, default=0)} | " + " | ".join(cells)
                     + " |")
        print(lines[-1], flush=True)
    return lines


def settled(seeds: list[int], time_limit: float, workers: int) -> list[str]:
    """The builds of the root master's heaviest building plan fixed, on 12-turn years: the
    bound of the years that build so (column generation with every turn's option fixed), the
    best such year CP-SAT finds in ``time_limit`` seconds and CP-SAT's bound for them, and
    that year's character moves chosen anew by the character planner (beams of 3000 and 10000
    states): how much of the gap is left once the builds are settled."""
    lines = ["| seed | builds (slot by turn, 0: none) | whole year | builds fixed: bound | "
             "CP-SAT plan | CP-SAT bound | planner 3000 | planner 10000 | bound - best plan |",
             "|---|---|---|---|---|---|---|---|---|"]
    for seed in seeds:
        inst, whole, options, fixed = settled_node(seed)
        year = YearModel(inst)
        solver = _solver(workers, 0, time_limit, False, interleave=workers <= 2)
        assert solver.solve(fixed_builds(year, options)) in (cp_model.OPTIMAL,
                                                              cp_model.FEASIBLE)
        plan = year.schedule(solver)
        assert simulate(inst, plan).total == plan.vp
        start = Schedule(freer_reductions(inst, plan), vp=plan.vp)
        beams = [best_characters(inst, start, max_states=n).vp for n in (3000, 10000)]
        best = max([plan.vp, *beams])
        lines.append(f"| {seed} | {''.join(map(str, options))} | {whole.value:.1f} | "
                     f"{fixed.value:.1f} | {plan.vp} | {solver.best_objective_bound:g} | "
                     f"{beams[0]} | {beams[1]} | {fixed.value - best:.1f} |")
        print(lines[-1], flush=True)
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=60.0,
                        help="CP-SAT seconds per solve (default 60)")
    parser.add_argument("--workers", type=int, default=2, help="CP-SAT workers (default 2)")
    parser.add_argument("--no-docs", action="store_true", help="do not write docs/lemuria.md")
    parser.add_argument("--tables", choices=("all", "gap", "builds", "mix"), default="all",
                        help="which tables to measure (default all)")
    args = parser.parse_args(argv)
    command = command_line(__file__, argv)
    if args.tables in ("all", "gap"):
        short = [(6, 1), (6, 2)]
        blocks = [
            against_optima(short, KINDS, args.time_limit, args.workers)
            + against_optima([(12, s) for s in range(3)], ("no characters",), args.time_limit,
                             args.workers)[2:],
            branching(short + [(12, s) for s in range(3)]),
            steps([0, 1, 2]),
            branched([1, 2, 3, 4], args.time_limit, args.workers),
        ]
        if not args.no_docs:
            lines = [line for block in blocks for line in ["", *block]][1:]
            write_docs(lines, command, marker="lemuria-gap")
    if args.tables in ("all", "builds"):
        lines = settled([0, 1, 2], args.time_limit, args.workers)
        if not args.no_docs:
            write_docs(lines, command, marker="lemuria-builds")
    if args.tables in ("all", "mix"):
        lines = mixed([0, 1, 2])
        if not args.no_docs:
            write_docs(lines, command, marker="lemuria-mix")
    return 0


if __name__ == "__main__":
    sys.exit(main())
