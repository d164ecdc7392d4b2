"""Lumen benchmarks: whole random games per second, and the kernel against its pure-Python twin.

    python benchmarks/bench_lumen.py            # about a minute
    python benchmarks/bench_lumen.py --quick    # a few seconds
    python benchmarks/bench_lumen.py --write    # also write the table into docs/lumen.md

Games: ``lumicore.game.play_randomly`` on ``GameState.new_game(seed=i)`` (Scenario A, default
board), uniformly random decisions and chance outcomes by their probabilities, one core; once
with the engine's sheet and map calls going through the kernel and once through the reference.
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
from lumicore.lumen import kernel, reference
from lumicore.lumen import game as game_module
from lumicore.lumen.game import GameState
from lumicore.lumen.sheet import Sheet

DOCS = Path(__file__).resolve().parent.parent / "docs" / "lumen.md"
START, END = "<!-- bench:lumen -->", "<!-- /bench -->"


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

    strength_sums = staticmethod(reference.strength_sums)


def bench_games(n: int) -> list[tuple[str, float]]:
    def run():
        for seed in range(n):
            play_randomly(GameState.new_game(seed=seed), seed=seed)

    rows = [("whole random games / s (kernel)", best_rate(run, n, tries=2))]
    saved = game_module.kernel
    game_module.kernel = _Reference  # type: ignore[assignment]
    try:
        rows.append(("whole random games / s (reference)", best_rate(run, n, tries=2)))
    finally:
        game_module.kernel = saved
    return rows


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


def table(games: list[tuple[str, float]], kern: list[tuple[str, float, float, float]]) -> str:
    lines = ["| measure | kernel | reference | ratio |", "|---|---:|---:|---:|"]
    (_, gk), (_, gr) = games
    lines.append(f"| whole random games per second, one core | {gk:,.0f} | {gr:,.0f} | "
                 f"{gk / gr:.1f}x |")
    for label, k, r, ratio in kern:
        lines.append(f"| {label} | {k:,.0f} | {r:,.0f} | {ratio:.0f}x |")
    return "\n".join(lines)


def write_docs(text: str) -> None:
    doc = DOCS.read_text(encoding="utf-8")
    if START not in doc or END not in doc:
        raise SystemExit(f"{DOCS} has no {START} ... {END} markers")
    body = f"{START}\n{text}\n{END}"
    DOCS.write_text(re.sub(re.escape(START) + r".*?" + re.escape(END), lambda _: body, doc,
                           flags=re.S), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and sheets")
    parser.add_argument("--write", action="store_true", help="write the table into docs/lumen.md")
    args = parser.parse_args()
    games = bench_games(40 if args.quick else 300)
    kern = bench_kernel(50 if args.quick else 400)
    text = table(games, kern)
    print(text)
    if args.write:
        write_docs(text)
        print(f"written into {DOCS}")


if __name__ == "__main__":
    main()
