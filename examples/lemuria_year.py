"""Plan a short Lemuria year with the CP-SAT scheduler and check it with the rules simulator.

    python examples/lemuria_year.py                       # 3 turns, 1 s
    python examples/lemuria_year.py --turns 12 --time-limit 20
"""

from __future__ import annotations

import argparse

from lumicore.lemuria import default_instance, simulate
from solvers.lemuria import build_schedule


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=3, help="months to plan (1..12)")
    parser.add_argument("--deal", type=int, default=1, help="seed of the default instance")
    parser.add_argument("--time-limit", type=float, default=1.0, help="CP-SAT seconds")
    args = parser.parse_args()

    instance = default_instance(seed=args.deal, turns=args.turns)
    schedule = build_schedule(instance, time_limit=args.time_limit, workers=1)
    for turn in schedule.turns:
        print(f"turn {turn.turn:2d}: " + "; ".join(map(str, turn.actions)))
    print(f"{schedule.status}: {schedule.vp} VP {schedule.breakdown}")
    replayed = simulate(instance, schedule)
    print(f"the rules simulator replays the plan to {replayed.total} VP")
    assert replayed.total == schedule.vp


if __name__ == "__main__":
    main()
