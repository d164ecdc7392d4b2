"""Lumen benchmarks: whole random games per second, and the kernel against its pure-Python twin.

    python benchmarks/bench_lumen.py            # about a minute
    python benchmarks/bench_lumen.py --quick    # a few seconds
    python benchmarks/bench_lumen.py --write    # also write the table into docs/lumen.md
    python benchmarks/bench_lumen.py --strength --games 16 --write   # bots against greedy
    python benchmarks/bench_lumen.py --strength --fast --games 40 --write   # fastmc

Games (Scenario A, default board, one core): the kernel's game loop ``kernel.random_games``
against its twin ``reference.random_game`` (the same games, splitmix64 choices, played on the
Python ``GameState``); and ``lumicore.game.play_randomly`` on ``GameState.new_game(seed=i)``
(numpy choices) with the engine's sheet calls through the kernel, then through the
reference.
Kernel vs reference: mid-game sheets (the default 4 x 5 sheet with 8 random values written by
legal moves), the gains of every value 0..36 in every legal bubble (``kernel.gains_all`` vs a
loop over ``reference.gains``); legal bubbles; the strength sums of a 9-territory map.
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

import numpy as np

from lumicore.game import play_randomly
from lumicore.lumen import game as game_module
from lumicore.lumen import kernel, reference
from lumicore.lumen.game import GameState
from lumicore.lumen.sheet import Sheet

DOCS = Path(__file__).resolve().parent.parent / "docs" / "lumen.md"
START, END = "<!-- bench:lumen -->", "<!-- /bench -->"
STRENGTH = "<!-- bench:lumen-strength -->"
CHALLENGERS = ("flatmc", "mcts", "sheet")
"""Bots measured against the arena's ``greedy`` (their default settings)."""
FAST = "<!-- bench:lumen-strength-fast -->"
FAST_CHALLENGERS = ("fastmc",)
"""Lumen's kernel-play-out bot, measured with ``--fast`` (cheap enough for more games)."""


def best_rate(run, count: int, tries: int = 3) -> float:
    """Items per second of ``run()``, best of ``tries`` (the machine is shared)."""
    best = 0.0
    for _ in range(tries):
        start = time.perf_counter()
        run()
        best = max(best, count / max(time.perf_counter() - start, 1e-9))
    return best


class _Reference:
    """The reference rules behind the engine's kernel calls (same answers, plain Python)."""

    @staticmethod
    def legal_cells(sheet):
        return reference.legal_cells(sheet.values, sheet.layout.neighbors)

    @staticmethod
    def gains(sheet, cell, value):
        return reference.gains(sheet.values, sheet.layout.neighbors, cell, value)


def bench_games(n: int) -> list[tuple[str, float, float]]:
    """(label, games per second, ratio to the plain-Python engine) per way of playing."""
    def run():
        for seed in range(n):
            play_randomly(GameState.new_game(seed=seed), seed=seed)

    fresh = GameState.new_game()
    setup = kernel.setup(fresh)
    loop = best_rate(lambda: kernel.random_games(setup, 100 * n, seed=0), 100 * n)
    twin = best_rate(lambda: [reference.random_game(fresh, s) for s in range(n)], n, tries=2)
    engine = best_rate(run, n, tries=2)
    saved = game_module.kernel
    game_module.kernel = _Reference  # type: ignore[assignment]
    try:
        plain = best_rate(run, n, tries=2)
    finally:
        game_module.kernel = saved
    return [("kernel game loop (`kernel.random_games`)", loop, loop / twin),
            ("its Python twin (`reference.random_game`, same games)", twin, 1.0),
            ("`GameState` + `play_randomly`, sheet calls in the kernel", engine,
             engine / plain),
            ("`GameState` + `play_randomly`, all plain Python", plain, 1.0)]


def mid_game_sheets(n: int, written: int = 8) -> list[Sheet]:
    rng = np.random.default_rng(0)
    out = []
    for _ in range(n):
        sheet = Sheet.new()
        for _ in range(written):
            cells = sheet.legal_cells()
            sheet = sheet.place(cells[rng.integers(len(cells))], int(rng.integers(0, 13)))
        out.append(sheet)
    return out


def bench_kernel(n: int) -> list[tuple[str, float, float, float]]:
    sheets = mid_game_sheets(n)
    values = list(range(37))

    def ref_gains():
        for s in sheets:
            for c in reference.legal_cells(s.values, s.layout.neighbors):
                for v in values:
                    reference.gains(s.values, s.layout.neighbors, c, v)

    def ker_gains():
        for s in sheets:
            kernel.gains_all(s, values)

    def ref_legal():
        for s in sheets:
            reference.legal_cells(s.values, s.layout.neighbors)

    def ker_legal():
        for _ in range(10):
            for s in sheets:
                kernel.legal_cells(s)

    state = play_randomly(GameState.new_game(seed=1), seed=1, max_steps=600)
    units, strengths = state.units, state._strength

    def ref_strength():
        for _ in range(n):
            reference.strength_sums(units, strengths)

    def ker_strength():
        for _ in range(n):
            kernel.strength_sums(units, strengths)

    rows = []
    for label, ref, ker, per_ker in (
            ("gains of 37 values in every legal bubble (sheets / s)", ref_gains, ker_gains, 1),
            ("legal bubbles (sheets / s)", ref_legal, ker_legal, 10),
            ("strength sums of a 9-territory map (maps / s)", ref_strength, ker_strength, 1)):
        r = best_rate(ref, n)
        k = best_rate(ker, n * per_ker)
        rows.append((label, k, r, k / r))
    return rows


def table(games: list[tuple[str, float, float]],
          kern: list[tuple[str, float, float, float]]) -> str:
    lines = ["| whole random games, Scenario A, one core | games / s | ratio to its twin |",
             "|---|---:|---:|"]
    for label, rate, ratio in games:
        lines.append(f"| {label} | {rate:,.0f} | {ratio:.1f}x |")
    lines += ["", "| kernel call | kernel | reference | ratio |", "|---|---:|---:|---:|"]
    for label, k, r, ratio in kern:
        lines.append(f"| {label} | {k:,.0f} | {r:,.0f} | {ratio:.0f}x |")
    return "\n".join(lines)


def bench_strength(games: int, bots: tuple[str, ...] = CHALLENGERS) -> str:
    """Each bot against greedy over ``games`` seeded games (seats rotated), one worker."""
    from solvers.arena import tournament

    lines = ["| bot vs greedy | games | wins | nobody | win rate | 95% interval | s / game |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for bot in bots:
        start = time.perf_counter()
        result = tournament("lumen", [bot, "greedy"], games=games, seed=0, workers=1,
                            progress=False)
        per_game = (time.perf_counter() - start) / max(result.played, 1)
        row, other = result.to_dict()["bots"][bot], result.to_dict()["bots"]["greedy"]
        lines.append(f"| {bot} | {row['games']} | {row['wins']:g} | "
                     f"{row['games'] - row['wins'] - other['wins']:g} | "
                     f"{row['win_rate']:.3f} | {row['low']:.3f}-{row['high']:.3f} | "
                     f"{per_game:.1f} |")
        print(lines[-1], flush=True)
    return "\n".join(lines)


def write_docs(text: str, start: str = START) -> None:
    doc = DOCS.read_text(encoding="utf-8")
    if start not in doc:
        raise SystemExit(f"{DOCS} has no {start} ... {END} markers")
    body = f"{start}\n{text}\n{END}"
    DOCS.write_text(re.sub(re.escape(start) + r".*?" + re.escape(END), lambda _: body, doc,
                           count=1, flags=re.S), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and sheets")
    parser.add_argument("--write", action="store_true", help="write the table into docs/lumen.md")
    parser.add_argument("--strength", action="store_true",
                        help="measure flatmc, mcts and sheet against greedy instead")
    parser.add_argument("--fast", action="store_true",
                        help="with --strength: measure fastmc instead")
    parser.add_argument("--games", type=int, default=16,
                        help="games per bot for --strength (default 16)")
    args = parser.parse_args()
    if args.strength:
        text = bench_strength(args.games, FAST_CHALLENGERS if args.fast else CHALLENGERS)
        if args.write:
            write_docs(text, FAST if args.fast else STRENGTH)
            print(f"written into {DOCS}")
        return
    games = bench_games(40 if args.quick else 300)
    kern = bench_kernel(50 if args.quick else 400)
    text = table(games, kern)
    print(text)
    if args.write:
        write_docs(text)
        print(f"written into {DOCS}")


if __name__ == "__main__":
    main()
