"""Benchmark of the Lemuria scheduler on seeded default 12-turn years: plan VP, proven bound, gap,
proven or not, time; "before" (CP-SAT alone, its own bound) and "after" (with the fast
Lagrangian bound as a cut and in the reported bound, the window cut, and the large
neighbourhood search). Every plan is replayed through ``simulate`` and must score its VP.

    python benchmarks/bench_lemuria.py                      # 20 years, after, 60 s, 2 workers
    python benchmarks/bench_lemuria.py --configs before,after --before-instances 10
    python benchmarks/bench_lemuria.py --configs before:10,after,after@300:6   # 300 s runs too
    python benchmarks/bench_lemuria.py --instances 3 --time-limit 10 --no-docs   # a quick look
    python benchmarks/bench_lemuria.py --configs dives#2,nodives#2 --no-docs   # second runs
    python benchmarks/bench_lemuria.py --configs hinted \
        --from-log benchmarks/logs/lemuria_plan.log \
        --spread 'hinted,hinted #2,arrays' --longer 'arrays 300 s'   # best of k runs vs one long

The table (and the command that made it, the machine's load) is written into docs/lemuria.md
between ``<!-- bench:lemuria-plan -->`` and ``<!-- /bench -->`` unless ``--no-docs``.
Targets: median gap under 3% within 60 s on 2 workers; at least 10 of 20 proven within 300 s.
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import shlex
import statistics
import sys
from pathlib import Path

import solvers.lemuria as lemuria
from lumicore.lemuria import default_instance, simulate
from lumicore.lemuria.instance import MAX_TURNS
from solvers.lemuria import build_schedule
from solvers.lemuria.bound import METHODS, lagrangian_bound
from solvers.lemuria.greedy import greedy_schedule
from solvers.lemuria.model import YearModel
from solvers.limits import INTERRUPTED

DOCS = Path(__file__).resolve().parent.parent / "docs" / "lemuria.md"
END = "<!-- /bench -->"


CONFIGS = {
    # name: build_schedule arguments (and the cuts of the model)
    "before": {"lns": False, "restarts": False, "fast_bound": False, "characters": False},
    "lns": {"restarts": False, "characters": False, "bound_method": "subgradient"},
    "restarts": {"lns": False, "characters": False, "bound_method": "subgradient"},
    "cuts": {"lns": False, "restarts": False, "characters": False,
             "bound_method": "subgradient"},
    "after": {"characters": False, "bound_method": "subgradient"},
    "polish": {"bound_method": "subgradient"},
    "columns": {"branch": False},
    "branch": {"beside": False},
    "lazy": {"beside": False},
    "beside": {},
    "kernel": {},
    "longpolish": {},
    "dives": {},
    "nodives": {"dives": False},
    "valid": {},
    "held": {},
    "residents": {},
    "festival": {},
    "counts": {},
    "kept": {},
    "spare": {},
    "waiting": {},
    "turnheld": {},
    "hinted": {},
    "arrays": {},
    "late": {},
    "undived": {"dives": False},
    "vls": {},
}
"""``before``: CP-SAT alone, its own bound (its logged years are from before that bound was
limited to years the model describes whole, which 12-turn years, with their remodels, are not:
run now it has no bound and stops); ``lns``: the fast bound, the window cut and the
neighbourhood search; ``restarts``: the same with hinted restarts instead of the neighbourhood
search; ``cuts``: the fast bound and the window cut, CP-SAT alone for the whole time;
``after``: neighbourhoods, then a hinted restart with the time they leave; ``polish``:
``after`` and, in the last 5% of the time, the character moves of the best plan planned anew
by ``solvers.lemuria.characters``; ``columns``: ``polish`` with the fast bound's multipliers
found by column generation instead of subgradient steps; ``branch``: ``columns`` and, in the
last quarter of the time, the branch and bound of
``solvers.lemuria.branch`` lowering the proven bound; ``lazy``: the same arguments, run after
column generation was smoothed and the branch and bound bounded children at their parent's
multipliers, running column generation only on nodes that reach the top (the log's ``branch``
rows are from before); ``beside``: everything (the default since): the branch and bound in a
process of its own beside CP-SAT for the whole time (``solvers.lemuria.beside``) instead of
after it; ``kernel``: the same arguments, run after the building program became a Cython kernel,
the master's columns kept their coefficients and the search beside got the time the polish
leaves (the log's ``beside`` rows are from before); ``longpolish``: the same arguments, run
after the polish got the last quarter of the time instead of 5% (the neighbourhood search the
less) and started from the plan's reductions moved onto food and gold
(``solvers.lemuria.characters.freer_reductions``); ``dives``: the same arguments (the polish
back at 5%), run after the first fifth of the time went to the building plans of the fast
bound's master, each solved with its builds fixed (``solvers.lemuria.dives``), the best year
they give starting the search; ``nodives``: the same without the dives (as "kernel");
``valid``: the same arguments as "dives", run after ``build_schedule`` stopped counting CP-SAT's
own bound on years its model does not describe whole (every 12-turn year: remodels), so its
bounds are the fast bound's and the branch and bound's, which hold for every legal year (the
set-ups above could report CP-SAT's bound where it was the lower one); ``held``: the same
arguments, run after the program by the cards held became a Cython kernel
(``lumicore.lemuria.kernel.held_draw``) and the relaxation by the deepest item was vectorised
(the branch and bound reaches 1.3-1.5 times the nodes in the same time); ``residents``: the
same arguments, run after the branch and bound got its split on the number of residents a
year houses in all; ``festival``: the same arguments, run after it got its split on the
number housed by the end of a festival turn (a second count in the program by the cards
held); ``counts``: the same arguments, run after a node could count by two festivals, each
count capped at its turn, with the kernel's step over every state at once; ``kept``: the same
arguments, run after a paused node kept its master LP and the kernel's step read its rows
through pointers; ``spare``: the same arguments, run after CP-SAT's neighbourhoods and
restarts, after its first run, left the branch and bound beside it a core of its own (one
worker of two on this machine); ``waiting``: the same arguments, run after the hand cards a
relaxed year houses wait in its hand (and make its buys dearer) until they are housed (a
relaxation that missed the cards a year gives back and buys again: its bounds are not among the
valid ones); ``turnheld``: the same arguments, run after the ways for cards that come back made
that relaxation hold for every legal year again, and the deck cards housed after their draw
turn count as held till that turn ends; ``hinted``: the same arguments, run after each
neighbourhood of the neighbourhood search was hinted with the incumbent whole (every variable)
and asked for a year at least as good, so that its hint is one of its solutions (it asked for a
better year before, which its hint was not); ``arrays``: the same arguments, run after the
bound's program of the cards held wrote into arrays it keeps between evaluations
(``solvers.lemuria.scratch``: 1.2-1.3 times faster nodes in a new process, as the branch and
bound's beside CP-SAT is); ``late``: the same code with ``solvers.lemuria.PARTNER_LATE`` on:
the branch and bound beside CP-SAT starts only once CP-SAT's first run ends, so that the dives
and the first run have both cores; ``undived``: "arrays" without the dives (``dives=False``),
their fifth of the minute going to CP-SAT's first run; ``vls``: the same code with
``solvers.lemuria.VIOLATION_LS`` at 1, a violation local search among CP-SAT's neighbourhood
searches."""

VALID = ("valid", "held", "residents", "festival", "counts", "kept", "spare", "turnheld",
         "hinted", "arrays", "late", "undived", "vls")
"""The set-ups whose bounds hold for every legal year (:func:`known` takes the least of them)."""


def parse_config(spec: str, time_limit: float, years: int) -> tuple[str, float, int, int]:
    """``name[@seconds][:years][#run]`` -> (name, seconds, years, run): ``#2`` is a second run
    of the same set-up (the plans of two runs differ: CP-SAT's search depends on timing)."""
    spec, _, run = spec.partition("#")
    name, _, count = spec.partition(":")
    name, _, seconds = name.partition("@")
    if name not in CONFIGS:
        raise ValueError(f"unknown config {name!r} (one of {', '.join(CONFIGS)})")
    return (name, float(seconds) if seconds else time_limit, int(count) if count else years,
            int(run) if run else 1)


def solve(seed: int, config: str, time_limit: float, workers: int | None,
          turns: int = MAX_TURNS) -> dict:
    """One year (the default year of ``seed``, ``turns`` long) under ``config``; the plan is
    replayed through the simulator. ``workers``: None for ``build_schedule``'s default."""
    inst = default_instance(seed, turns=turns)
    saved = YearModel.CUTS
    try:
        if config == "before":
            YearModel.CUTS = ("once",)
        lemuria.PARTNER_LATE = config == "late"
        lemuria.VIOLATION_LS = int(config == "vls")
        plan = build_schedule(inst, time_limit=time_limit, workers=workers, seed=0,
                              **CONFIGS[config])
    finally:
        YearModel.CUTS = saved
        lemuria.PARTNER_LATE = False
        lemuria.VIOLATION_LS = 0
    if plan.status == INTERRUPTED:  # Ctrl-C: build_schedule kept its plan, not a measurement
        raise KeyboardInterrupt
    replay = simulate(inst, plan).total
    if replay != plan.vp:
        raise SystemExit(f"seed {seed}: the simulator scores {replay}, the plan {plan.vp}")
    bound = plan.vp if plan.status == "optimal" else plan.bound
    if bound is None:  # "before" since CP-SAT's own bound counts only where it holds
        raise SystemExit(f"seed {seed}: the plan has no proven bound (CP-SAT's own bound holds "
                         "only for years its model describes whole: docs/lemuria.md)")
    return {"vp": plan.vp, "bound": bound, "gap": plan.gap, "proven": plan.status == "optimal",
            "time": plan.elapsed}


def _cell(r: dict | None) -> str:
    if r is None:
        return " | | | | |"
    return (f" {r['vp']} | {r['bound']:g} | {r['gap']:.1%} | {'yes' if r['proven'] else 'no'} | "
            f"{r['time']:.0f} s |")


def table(rows: dict[int, dict], configs: list[str], extra: dict[int, dict],
          shown: list[str] | None = None) -> list[str]:
    """The per-year table of the set-ups ``shown`` (None: all of ``configs``) and a summary
    line for each of ``configs``."""
    shown = configs if shown is None else shown
    head = "| seed | greedy | fast bound: steps (s) | columns (s) |" + "".join(
        f" {c}: plan | bound | gap | proven | time |" for c in shown)
    lines = [head, "|" + "---|" * (4 + 5 * len(shown))]
    for seed in sorted(extra):
        e = extra[seed]
        cells = "".join(_cell(rows.get(seed, {}).get(c)) for c in shown)
        fast = "".join(f" {b.value:.1f} ({b.elapsed:.1f}) |" for b in e["fast"])
        lines.append(f"| {seed} | {e['greedy']} |{fast}" + cells)
    lines += ["", _fast_summary(extra)]
    for c in configs:
        done = [r[c] for r in rows.values() if c in r]
        if not done:
            continue
        proven = sum(r["proven"] for r in done)
        to_best = [gap(r[c]["bound"], _best(r)) for r in rows.values() if c in r]
        lines.append("")
        lines.append(f"{c}: {len(done)} years, median gap "
                     f"{statistics.median(r['gap'] for r in done):.1%}, proven {proven}/"
                     f"{len(done)}, mean plan {statistics.mean(r['vp'] for r in done):.1f} VP, "
                     f"mean bound {statistics.mean(r['bound'] for r in done):.1f}, median time "
                     f"{statistics.median(r['time'] for r in done):.0f} s; median gap of its "
                     f"bound to the year's best plan of any set-up "
                     f"{statistics.median(to_best):.1%}")
    return lines


def known(rows: dict[int, dict]) -> list[str]:
    """What is known of each year: the best plan any set-up found (every plan is replayed) and
    the least bound of the :data:`VALID` set-ups, with the gap between them: the gap a search
    that found the best of every plan and every bound would report."""
    lines = ["| seed | best plan | found by | least bound | by | gap |", "|---" * 6 + "|"]
    gaps = []
    for seed in sorted(rows):
        runs = rows[seed]
        valid = {c: r for c, r in runs.items() if c.split(" ")[0] in VALID}
        if not valid:
            continue
        best = _best(runs)
        bound = min(r["bound"] for r in valid.values())
        gaps.append(gap(bound, best))
        lines.append(f"| {seed} | {best} | {_first(runs, 'vp', best)} | {bound:g} | "
                     f"{_first(valid, 'bound', bound)} | {gaps[-1]:.1%} |")
    if gaps:
        under = sum(g < 0.03 for g in gaps)
        proven = sum(g == 0 for g in gaps)
        lines += ["", f"{len(gaps)} years: median gap {statistics.median(gaps):.1%}, "
                  f"{under} under 3%, {proven} proven"]
    return lines


def spread(rows: dict[int, dict], runs: list[str], longer: list[str]) -> list[str]:
    """Independent runs against a longer one: for k of the set-ups ``runs`` (runs of the same
    length), the best plan and the least bound of k runs on each year, averaged over every
    choice of k of them; then each set-up of ``longer`` on its own, on the same years."""
    seeds = [s for s in sorted(rows) if all(label in rows[s] for label in runs + longer)]
    lines = ["| set-up | years | mean plan | mean bound | median gap | under 3% |",
             "|---" * 6 + "|"]
    for k in range(1, len(runs) + 1):
        picks = list(itertools.combinations(runs, k))
        stats = [_portfolio(rows, seeds, pick) for pick in picks]
        name = f"best of {k} of {', '.join(runs)}" if k > 1 else f"one of {', '.join(runs)}"
        lines.append(_spread_row(name, len(seeds), stats))
    for label in longer:
        lines.append(_spread_row(label, len(seeds), [_portfolio(rows, seeds, (label,))]))
    return lines


def _portfolio(rows: dict[int, dict], seeds: list[int], pick: tuple[str, ...]
               ) -> tuple[float, float, float, int]:
    """Mean plan, mean bound, median gap and years under 3% of the best plan and the least
    bound of the set-ups ``pick`` on each year."""
    plans = [max(rows[s][label]["vp"] for label in pick) for s in seeds]
    bounds = [min(rows[s][label]["bound"] for label in pick) for s in seeds]
    gaps = [gap(b, v) for b, v in zip(bounds, plans, strict=True)]
    return (statistics.mean(plans), statistics.mean(bounds), statistics.median(gaps),
            sum(g < 0.03 for g in gaps))


def _spread_row(name: str, years: int, stats: list[tuple[float, float, float, int]]) -> str:
    """A row of :func:`spread`: each figure averaged over the choices of runs."""
    plan, bound, median, under = (statistics.mean(column) for column in zip(*stats, strict=True))
    return f"| {name} | {years} | {plan:.1f} | {bound:.1f} | {median:.1%} | {under:.1f} |"


def gap(bound: float, vp: int) -> float:
    """``(bound - vp) / bound``, as ``Schedule.gap`` works it out."""
    return max(0.0, (bound - vp) / bound) if bound > 0 else 0.0


def _first(runs: dict[str, dict], key: str, value: float) -> str:
    """The first set-up (in the log's order) whose ``key`` is ``value``."""
    return next(c for c, r in runs.items() if r[key] == value)


def _best(runs: dict[str, dict]) -> int:
    """The best plan any set-up found for a year (every plan is replayed: a lower bound on its
    optimum)."""
    return max(r["vp"] for r in runs.values())


def _fast_summary(extra: dict[int, dict]) -> str:
    """How far column generation lowers the fast bound against the subgradient steps."""
    less = [e["fast"][0].value - e["fast"][1].value for e in extra.values()]
    seconds = [[e["fast"][k].elapsed for e in extra.values()] for k in (0, 1)]
    return (f"fast bound: columns lower than steps by {min(less):.1f} to {max(less):.1f} VP "
            f"(median {statistics.median(less):.1f}) on {len(less)} years; mean time "
            f"{statistics.mean(seconds[1]):.1f} s against {statistics.mean(seconds[0]):.1f} s")


def command_line(script: str, argv: list[str] | None) -> str:
    """How the docs show a run of the benchmark ``script`` (its ``__file__``) with ``argv``
    (None: this process's arguments)."""
    args = sys.argv[1:] if argv is None else argv
    return f"python benchmarks/{Path(script).name} {shlex.join(args)}".strip()


def write_docs(lines: list[str], command: str, marker: str = "lemuria-plan",
               measured: bool = True) -> None:
    """Replace the block between ``<!-- bench:MARKER -->`` and ``<!-- /bench -->`` in
    docs/lemuria.md by the command, the machine's load and ``lines``; ``measured`` False: every
    row came from an earlier run's log, so the load is the rebuild's, and the docs say so."""
    begin = f"<!-- bench:{marker} -->"
    text = DOCS.read_text(encoding="utf-8")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    where = (f"load average {load:.1f} on {os.cpu_count()} cores" if measured else
             f"every set-up's columns from its log; the greedy and fast-bound columns measured "
             f"again at the rebuild, load average {load:.1f} on {os.cpu_count()} cores")
    body = "\n".join([begin, "", f"`{command}` ({where}):", "", *lines, "", END])
    pattern = re.compile(re.escape(begin) + ".*?" + re.escape(END), re.S)
    if not pattern.search(text):
        raise SystemExit(f"{DOCS} has no {begin} ... {END} markers")
    DOCS.write_text(pattern.sub(lambda _m: body, text), encoding="utf-8")


LOG_LINE = re.compile(r"^(?P<label>.+?)\s+seed\s+(?P<seed>\d+): plan (?P<vp>\d+) bound "
                      r"(?P<bound>\S+) gap (?P<gap>[\d.]+)% proven (?P<proven>True|False) "
                      r"\((?P<time>\d+) s\)$")


def log_line(label: str, seed: int, r: dict) -> str:
    """One year's line of the output (what :func:`read_log` reads back)."""
    return (f"{label:12s} seed {seed:3d}: plan {r['vp']} bound {r['bound']:g} gap "
            f"{r['gap']:.1%} proven {r['proven']} ({r['time']:.0f} s)")


def read_log(path: Path) -> dict[int, dict]:
    """The years of an earlier run's output (its per-year lines; the gap is worked out again
    from the plan and the bound, as ``Schedule.gap`` does)."""
    rows: dict[int, dict] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        m = LOG_LINE.match(line.strip())
        if not m:
            continue
        vp, bound = int(m["vp"]), float(m["bound"])
        rows.setdefault(int(m["seed"]), {})[m["label"]] = {
            "vp": vp, "bound": bound, "gap": gap(bound, vp),
            "proven": m["proven"] == "True", "time": float(m["time"])}
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=20, help="years (default 20)")
    parser.add_argument("--first", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--configs", default="after",
                        help="comma-separated name[@seconds][:years], names: "
                        + ", ".join(CONFIGS) + " (default after)")
    parser.add_argument("--before-instances", type=int, default=None,
                        help="years for 'before' (default: all)")
    parser.add_argument("--workers", type=int, default=2, help="CP-SAT workers (default 2)")
    parser.add_argument("--time-limit", type=float, default=60.0,
                        help="seconds per year (default 60)")
    parser.add_argument("--table", metavar="LABELS",
                        help="comma-separated set-up labels (as in the log: 'dives #2', "
                        "'after 300 s') the per-year table shows (default: all; every set-up "
                        "still has its summary line)")
    parser.add_argument("--spread", metavar="LABELS",
                        help="comma-separated labels of runs of the same length: the best of k "
                        "of them against --longer (written under bench:lemuria-spread)")
    parser.add_argument("--longer", metavar="LABELS", default="",
                        help="comma-separated labels of longer runs for --spread")
    parser.add_argument("--no-docs", action="store_true", help="do not write docs/lemuria.md")
    parser.add_argument("--from-log", metavar="FILE",
                        help="take the years an earlier run's output holds from it and run "
                        "only the others (a run that was stopped goes on)")
    args = parser.parse_args(argv)
    if args.from_log and not Path(args.from_log).is_file():
        parser.error(f"--from-log: no file {args.from_log}")
    seeds = list(range(args.first, args.first + args.instances))
    configs = []
    for spec in args.configs.split(","):
        try:
            name, seconds, years, run = parse_config(spec, args.time_limit, len(seeds))
        except ValueError as exc:  # a bad name, seconds or count
            parser.error(f"--configs {spec!r}: {exc}")
        if name == "before" and args.before_instances and ":" not in spec:
            years = args.before_instances
        label = name if seconds == args.time_limit else f"{name} {seconds:g} s"
        if run > 1:
            label += f" #{run}"
        configs.append((label, name, seconds, years))
    extra = {}
    for seed in seeds:
        inst = default_instance(seed)
        extra[seed] = {"greedy": greedy_schedule(inst).vp,
                       "fast": [lagrangian_bound(inst, method=m) for m in METHODS[::-1]]}
    rows: dict[int, dict] = {}
    labels = [label for label, *_ in configs]
    if args.from_log:
        earlier = read_log(Path(args.from_log))
        for seed, found in earlier.items():
            rows.setdefault(seed, {}).update(found)
        labels = list(dict.fromkeys(labels + [k for r in earlier.values() for k in r]))
    measured = False
    try:
        for label, name, seconds, years in configs:
            for seed in seeds[:years]:
                r = rows.get(seed, {}).get(label)  # from the earlier run's log
                if r is None:
                    r = rows.setdefault(seed, {})[label] = solve(seed, name, seconds,
                                                                 args.workers)
                    measured = True
                print(log_line(label, seed, r), flush=True)
    except KeyboardInterrupt:
        print("interrupted: the years printed so far are done (go on with --from-log)",
              file=sys.stderr)
        return 130
    run = {label for label, *_ in configs}
    for seed in sorted(rows):  # the log's other years, so that this output is a whole log
        for label, r in rows[seed].items():
            if label not in run:
                print(log_line(label, seed, r))
    shown = _labels(args.table, labels) if args.table else None
    lines = table(rows, labels, extra, shown)
    best = known(rows)
    print("\n".join(lines + [""] + best))
    portfolio = []
    if args.spread:
        runs, longer = (_labels(text, labels) for text in (args.spread, args.longer))
        portfolio = spread(rows, runs, longer)
        print("\n".join(["", *portfolio]))
    if not args.no_docs:
        command = command_line(__file__, argv)
        write_docs(lines, command, measured=measured)
        if len(best) > 2:  # a set-up of VALID ran: else the known table keeps its rows
            write_docs(best, command, marker="lemuria-known", measured=measured)
        if portfolio:
            write_docs(portfolio, command, marker="lemuria-spread", measured=measured)
    return 0


def _labels(text: str, labels: list[str]) -> list[str]:
    """The comma-separated set-up labels of ``text``, each one of ``labels``."""
    chosen = [label.strip() for label in text.split(",") if label.strip()]
    unknown = [label for label in chosen if label not in labels]
    if unknown:
        raise SystemExit(f"no set-up {unknown[0]!r} in this run or its log")
    return chosen


if __name__ == "__main__":
    sys.exit(main())
