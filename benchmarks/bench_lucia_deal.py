"""Lucia deals: exact solving speed, win rates of both decks, hidden-deck play vs greedy play.

    python benchmarks/bench_lucia_deal.py            # about 10 minutes on 2 cores
    python benchmarks/bench_lucia_deal.py --quick    # a short run
    python benchmarks/bench_lucia_deal.py --no-docs  # print only

Everything is measured in this one run on fixed seeds; the table is written into docs/lucia.md
between the markers ``<!-- bench:lucia-deal -->`` and ``<!-- /bench -->``.
"""

from __future__ import annotations

import argparse
import re
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

from lumicore.lucia import Action, Card, Train, load_deck
from lumicore.lucia.deal import deal
from lumicore.lucia.deal_reference import plays, winnable
from solvers.batch import run_batch
from solvers.lucia import play_game, solve, solve_deal, win_rate
from solvers.lucia.winrate import WinRate, read_outcomes
from solvers.stats import wilson

DOCS = Path(__file__).resolve().parent.parent / "docs" / "lucia.md"
MARK = ("<!-- bench:lucia-deal -->", "<!-- /bench -->")
SMALL_KINDS = (Card((Action.light("T"),)), Card((Action.light("H"),)), Card((Action.lucia(),)),
               Card((Action.wild(1),)), Card((Action.move("HS", 2),)))


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def rate_row(label: str, deals: int, players: int, deck: str, time_limit: float,
             workers: int, out: Path | None = None) -> list[str]:
    return rate_measure(label, deals, players, deck, time_limit, workers, out)[0]


def rate_measure(label: str, deals: int, players: int, deck: str, time_limit: float,
                 workers: int, out: Path | None = None) -> tuple[list[str], WinRate, float]:
    """The table row of a win-rate run, the run's result and its wall time."""
    clock = time.perf_counter()
    r = win_rate(deals=deals, seed=0, players=players, time_limit=time_limit, workers=workers,
                 deck=deck, out=out)
    wall = time.perf_counter() - clock
    rate = "-" if r.rate != r.rate else f"{pct(r.rate)} [{pct(r.low)}, {pct(r.high)}]"
    mean = statistics.fmean(r.times)
    row = [label, f"{deals} deals, {players} player{'s' * (players > 1)}, {time_limit:g} s",
           f"{r.winnable} / {r.unwinnable} / {r.limit}", rate,
           f"[{pct(r.low_all_limits_lost)}, {pct(r.high_all_limits_won)}]",
           f"{r.median_time:.3f} / {r.worst_time:.2f} s", f"{deals / wall:.1f}",
           f"{10_000 * mean / workers / 60:.0f} min"]
    return row, r, wall


def _solve_longer(job: tuple[int, float]) -> tuple[str, float]:
    seed, time_limit = job
    r = solve_deal(deal(seed), time_limit=time_limit)
    return r.status, r.elapsed


def goal_notes(r: WinRate, outcomes: dict[int, str], limit: float, probe: int,
               workers: int) -> list[str]:
    """What the issue's goal (the 1-player rate within +-1% at 95% on 10,000 deals in under an
    hour on 2 cores) takes: the Wilson half-width 10,000 decided deals give at the measured
    rate, and how many of the deals the short limit left undecided a ten times longer limit
    decides (the first ``probe`` of them), with the hour that would cost."""
    rate = r.rate if r.rate == r.rate else 0.5
    lo, hi = wilson(round(rate * 10_000), 10_000)
    half = (hi - lo) / 2
    needed = 1.96 ** 2 * rate * (1 - rate) / 0.01 ** 2
    undecided = [s for s in sorted(outcomes) if outcomes[s] == "limit"][:probe]
    longer = 10 * limit
    done = list(run_batch(_solve_longer, [(s, longer) for s in undecided], workers=workers))
    decided = sum(status != "limit" for _, (status, _) in done)
    spent = sum(t for _, (_, t) in done)
    share = r.limit / max(r.deals, 1)
    hours = 10_000 * (statistics.fmean(r.times) + share * spent / max(len(undecided), 1)) \
        / workers / 3600
    return [
        f"goal (+-1% at 95% on 10,000 deals, 1 player, under an hour on 2 cores): at the "
        f"measured rate {pct(rate)}, 10,000 decided deals give +-{pct(half)} "
        f"({needed:,.0f} decided deals give +-1.0%); but {pct(share)} of the deals end at the "
        f"{limit:g}-s limit, and counted as lost or won they leave the rate within "
        f"[{pct(r.low_all_limits_lost)}, {pct(r.high_all_limits_won)}]",
        f"goal: a {longer:g}-s limit decides {decided} of the first {len(undecided)} deals "
        f"the {limit:g}-s limit left undecided; 10,000 deals with the longer limit on those "
        f"deals would take about {hours:.1f} h on {workers} workers"]


def small_deals(count: int, seed: int) -> list[tuple[Train, tuple[Card, ...]]]:
    rng = np.random.default_rng(seed)
    trains = ["h T H L2 h", "H h T L1 h", "T h L3 H h", "h H L0 T h"]
    return [(Train.parse(trains[i % len(trains)]),
             tuple(SMALL_KINDS[j] for j in rng.integers(len(SMALL_KINDS), size=12)))
            for i in range(count)]


def best_time(run, repeats: int) -> tuple[float, object]:
    """The least wall time of ``repeats`` calls of ``run`` and its (last) result: the least is
    the run the shared machine disturbed least (a single kernel pass of a few milliseconds a
    deal moved the ratio from 86x to 228x between two runs of the same code)."""
    times, result = [], None
    for _ in range(repeats):
        t = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - t)
    return min(times), result


def twin_ratio(count: int) -> list[str]:
    """Kernel vs the plain exhaustive Python search on the same small deals, each the best of
    several passes (:func:`best_time`)."""
    cases = small_deals(count, 1)
    t_kernel, kernel = best_time(
        lambda: [solve_deal(train, deck).status == "winnable" for train, deck in cases], 7)
    t_ref, ref = best_time(
        lambda: [winnable(train, (deck[:3],), deck[3:]) for train, deck in cases], 3)
    assert kernel == ref
    return ["kernel vs plain Python search",
            f"{count} small deals (5 kids, 12 cards), best of 7 / 3 passes",
            f"{sum(kernel)} winnable", "-", "-",
            f"{1000 * t_kernel / count:.2f} / {1000 * t_ref / count:.1f} ms",
            f"{t_ref / t_kernel:.0f}x", "-"]


def kinds_that_run_out(deck_name: str, trains: int) -> str:
    """Weighted A* plans (each card kind reusable) for dealt trains: the kinds they use more
    often than the deck holds."""
    deck = load_deck(deck_name)
    short: Counter[str] = Counter()
    lengths = []
    for s in range(trains):
        r = solve(deal(s, deck=deck).train, deck, weight=3, time_limit=5)
        lengths.append(r.cost or 0)
        for card, uses in Counter(p.card for p in r.plan).items():
            if uses > deck.copies(card):
                short[card.name] += 1
    top = ", ".join(f"{name} ({n}/{trains})" for name, n in short.most_common(3))
    return (f"{deck_name}: weighted-A* plans of {min(lengths)}-{max(lengths)} plays; plans "
            f"needing more copies than the deck has: {top or 'none'}")


def dead_first_hands(deck_name: str, deals: int) -> str:
    """How often player 1's dealt hand holds no card that can be played (lost at once)."""
    dead = sum(not plays(d.train, d.hands()[0])
               for d in (deal(s, deck=deck_name) for s in range(deals)))
    return f"{deck_name}: the first hand has no playable card in {pct(dead / deals)} of " \
           f"{deals} deals"


def _both_players(job: tuple[int, int]) -> tuple[bool, bool]:
    seed, samples = job
    d = deal(seed)
    return (play_game(d, "best", samples=samples, seed=seed, max_nodes=2_000).won,
            play_game(d, "greedy").won)


def players_rows(deals: int, samples: int, outcomes: dict[int, str],
                 workers: int) -> list[list[str]]:
    clock = time.perf_counter()
    won = [r for _, r in run_batch(_both_players, [(s, samples) for s in range(deals)],
                                   workers=workers)]
    best, greedy = sum(b for b, _ in won), sum(g for _, g in won)
    wall = time.perf_counter() - clock
    known = sum(outcomes.get(s) == "winnable" for s in range(deals))
    limits = sum(outcomes.get(s) == "limit" for s in range(deals))

    def row(label: str, wins: int, note: str) -> list[str]:
        lo, hi = wilson(wins, deals)
        return [label, f"{deals} deals (seeds 0..{deals - 1}), 1 player", f"{wins} won",
                f"{pct(wins / deals)} [{pct(lo)}, {pct(hi)}]", note, "-", "-", "-"]

    return [row("deck known (exact solver)", known, f"{limits} limits"),
            row(f"hidden deck, best_play ({samples} samples, 2,000 nodes a play)", best,
                f"{wall:.0f} s both"),
            row("greedy (best heuristic value)", greedy, "-")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run")
    parser.add_argument("--no-docs", action="store_true", help="do not write docs/lucia.md")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    args = parser.parse_args()
    q = args.quick
    # the sizes: 1,000 deals of 1 player, 200 of 2, 200 for the hidden-deck players
    n1, n2, n3, n4, limit = (40, 20, 20, 10, 0.3) if q else (1000, 200, 80, 200, 0.5)
    rows, notes = [], []
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "deals.jsonl"
        row, first, _ = rate_measure("calibrated deck", n1, 1, "calibrated", limit,
                                     args.workers, out)
        rows.append(row)
        outcomes = {o.seed: o.status for o in read_outcomes(out)}
    rows.append(rate_row("calibrated deck", n2, 2, "calibrated", limit, args.workers))
    rows.append(rate_row("reconstructed deck", n3, 1, "reconstructed", 2 * limit, args.workers))
    rows.append(twin_ratio(10 if q else 30))
    rows += players_rows(n4, 8, outcomes, args.workers)
    notes += goal_notes(first, outcomes, limit, 4 if q else 40, args.workers)
    for name in ("reconstructed", "calibrated"):
        notes.append(kinds_that_run_out(name, 4 if q else 10))
        notes.append(dead_first_hands(name, 200 if q else 2000))
    head = ["run", "deals", "winnable / unwinnable / limit", "rate [95% Wilson]",
            "if limits lost / won", "median / worst time", "deals/s", "10,000 deals"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    stamp = time.strftime("%Y-%m-%d", time.gmtime())
    table = "\n".join(lines + [""] + [f"- {n}" for n in notes] + [
        "", f"Measured {stamp} on the shared 2-core machine under load ({args.workers} workers"
            f"{', --quick' if q else ''}); `10,000 deals` extrapolates the mean solve time."])
    print(table)
    if not args.no_docs:
        write_block(MARK, table)


def write_block(mark: tuple[str, str], table: str) -> None:
    """Put ``table`` between the markers ``mark`` in docs/lucia.md (they must be there)."""
    text = DOCS.read_text()
    pattern = re.compile(re.escape(mark[0]) + ".*?" + re.escape(mark[1]), re.S)
    if not pattern.search(text):
        raise SystemExit(f"markers {mark} not found in {DOCS}")
    DOCS.write_text(pattern.sub(lambda _: f"{mark[0]}\n{table}\n{mark[1]}", text))


if __name__ == "__main__":
    main()
