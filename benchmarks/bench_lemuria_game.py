"""Benchmark of the whole game of Lemuria: the planner bot against greedy, and the VP of plans
with harvests decided against plans with the income given.

Part 1 (strength): ``--games`` seeded 3-player games, one ``planner`` seat (rotated through the
seats) against two Lemuria ``greedy`` seats, through ``solvers.arena.play_game``; the planner's
win rate with its 95% Wilson interval (a seat-blind bot wins 1/3) and its mean VP margin over the
greedy seats' mean.

Part 2 (harvests): for ``default_instance(seed)`` (12 turns): ``build_schedule`` with the
default income, ``build_schedule(..., harvests=True)`` (the altar decides the income) and the
greedy harvest plan, each replayed (``simulate`` / ``replay_harvests``) to its VP.

The tables are printed and written into docs/lemuria.md between ``<!-- bench:lemuria-game -->``
(part 1) or ``<!-- bench:lemuria-harvests -->`` (part 2) and ``<!-- /bench -->``.

    python benchmarks/bench_lemuria_game.py --games 6 --years 2 --no-doc   # a quick look
    python benchmarks/bench_lemuria_game.py --games 0                      # part 2 only
    python benchmarks/bench_lemuria_game.py --games 50 --turn-limit 0.5 --horizon 4
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from lumicore.data import plural
from lumicore.lemuria import default_instance, simulate
from lumicore.lemuria.harvests import AltarSetup, replay_harvests
from solvers.arena import play_game
from solvers.batch import run_batch
from solvers.lemuria import build_schedule, default_workers
from solvers.lemuria.harvest import greedy_harvest_schedule
from solvers.stats import wilson

DOC = Path(__file__).resolve().parent.parent / "docs" / "lemuria.md"
END = "<!-- /bench -->"


def one_game(job: tuple[int, str]) -> dict:
    """Game ``seed``: the planner in seat ``seed % 3``, greedy elsewhere."""
    seed, planner = job
    seat = seed % 3
    bots = ["greedy"] * 3
    bots[seat] = planner
    start = time.perf_counter()
    record, state = play_game("lemuria", bots, players=3, seed=seed)
    vp = state.vp()
    others = [v for p, v in enumerate(vp) if p != seat]
    return {"seed": seed, "seat": seat, "win": state.winner() == seat, "vp": vp[seat],
            "margin": vp[seat] - statistics.mean(others),
            "elapsed": time.perf_counter() - start}


def strength(games: int, planner: str, workers: int) -> list[str]:
    rows = [r for _i, r in run_batch(one_game, [(s, planner) for s in range(games)],
                                     workers=workers)]
    wins = sum(r["win"] for r in rows)
    low, high = wilson(wins, len(rows))
    margins = [r["margin"] for r in rows]
    sd = statistics.stdev(margins) if len(margins) > 1 else 0.0
    half = 1.96 * sd / len(margins) ** 0.5
    return [
        f"Planner `{planner}` against 2 `greedy` seats, {len(rows)} seeded 3-player games "
        "(seat rotated):",
        "",
        "| games | planner wins | win rate | 95% interval | mean VP | VP margin over greedy "
        "(95%) | s per game |",
        "|---|---|---|---|---|---|---|",
        f"| {len(rows)} | {wins} | {wins / len(rows):.2f} | {low:.2f}-{high:.2f} | "
        f"{statistics.mean(r['vp'] for r in rows):.1f} | {statistics.mean(margins):+.1f} "
        f"± {half:.1f} | {statistics.mean(r['elapsed'] for r in rows):.1f} |",
    ]


def harvests(years: int, time_limit: float, lengths: list[int]) -> list[str]:
    workers = default_workers()
    lines = [f"Plans of `default_instance(seed, turns)`, {time_limit:g} s each, "
             f"{plural(workers, 'CP-SAT worker')} (the default income is 3 resources a turn):",
             "",
             "| turns | seed | income given: VP (status) | harvests=True: VP (status) | greedy "
             "harvest plan VP | harvested resources |", "|---|---|---|---|---|---|"]
    setup = AltarSetup()
    for turns, seed in ((t, s) for t in lengths for s in range(years)):
        inst = default_instance(seed, turns=turns)
        given = build_schedule(inst, time_limit=time_limit, workers=workers)
        assert simulate(inst, given).total == given.vp
        planned = build_schedule(inst, time_limit=time_limit, harvests=True, workers=workers)
        assert replay_harvests(inst, setup, planned.turns).total == planned.vp
        greedy = greedy_harvest_schedule(inst, setup)
        income = sum(sum(g.values()) for g in planned.income.values())
        lines.append(f"| {turns} | {seed} | {given.vp} ({given.status}) | {planned.vp} "
                     f"({planned.status})"
                     f" | {greedy.vp} | {income} |")
    return lines


def write_doc(name: str, lines: list[str]) -> None:
    """Replace the table between ``<!-- bench:NAME -->`` and the next ``<!-- /bench -->``."""
    BEGIN = f"<!-- bench:{name} -->"
    text = DOC.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text[text.index(BEGIN):]:
        print(f"no {BEGIN} marker in {DOC}; table not written", file=sys.stderr)
        return
    head, rest = text.split(BEGIN, 1)
    tail = rest[rest.index(END):]
    DOC.write_text(head + BEGIN + "\n" + "\n".join(lines) + "\n" + tail, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="strength games (default 50)")
    parser.add_argument("--turn-limit", type=float, default=0.5,
                        help="planner's CP-SAT seconds per turn (default 0.5)")
    parser.add_argument("--horizon", type=int, default=4,
                        help="turns the planner plans ahead (default 4)")
    parser.add_argument("--years", type=int, default=3, help="harvest years (default 3)")
    parser.add_argument("--turns", default="6,12",
                        help="year lengths of part 2, comma-separated (default 6,12)")
    parser.add_argument("--time-limit", type=float, default=20.0,
                        help="seconds per year plan in part 2 (default 20)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--no-doc", "--no-docs", action="store_true",
                        help="do not write docs/lemuria.md")
    args = parser.parse_args(argv)
    planner = f"planner:time_limit={args.turn_limit:g}:horizon={args.horizon}"
    for name, part, wanted in (("lemuria-game", lambda: strength(args.games, planner,
                                                                  args.workers), args.games),
                               ("lemuria-harvests", lambda: harvests(
                                   args.years, args.time_limit,
                                   [int(n) for n in args.turns.split(",")]), args.years)):
        if not wanted:
            continue
        start = time.perf_counter()
        lines = part() + ["", "Measured on the shared 2-core machine under load "
                          f"({time.perf_counter() - start:.0f} s)."]
        print("\n".join(lines) + "\n")
        if not args.no_doc:
            write_doc(name, lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
