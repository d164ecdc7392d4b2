"""``lumicore lucia``: solve / random / scramble through solvers.cli.main."""

from __future__ import annotations

import json
import re

from lumicore.lucia import Train
from lumicore.lucia import reference as R
from solvers.cli import games, main
from solvers.lucia import DEFAULT_PUZZLE


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["lucia", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def check_plan_lines(out: str, start: str) -> list[str]:
    """Each plan line ends with the resulting train; consecutive trains follow the rules."""
    lines = out.strip().splitlines()
    assert lines[0].startswith(f"start: {start}")
    plan = [line for line in lines if line[:4].strip().rstrip(".").isdigit()]
    kids = Train.parse(start).codes
    kinds = {c.name: c for c in _deck_kinds()}
    for line in plan:
        card, train = re.split(r"\s{2,}", line.split(". ", 1)[1].strip())[:2]
        after = Train.parse(train).codes
        assert after in R.successors(kids, kinds[card]), line
        kids = after
    assert R.is_goal(kids)
    return lines


def status_line(lines: list[str]) -> str:
    return next(line for line in lines if line.startswith("status: "))


def _deck_kinds():
    from lumicore.lucia import load_deck
    return load_deck().kinds


def test_lucia_is_a_cli_game():
    assert "lucia" in games()


def test_solve_prints_plan_and_figures(capsys):
    code, out, _ = run(capsys, "solve", "h L4 H T S")
    assert code == 0
    lines = check_plan_lines(out, "h L4 H T S")
    status = status_line(lines)
    assert status.startswith("status: optimal  cost: 2  nodes: ")
    assert "time: " in status and "(astar)" in status
    # the weighted A* warm start's plan, compared with the optimum
    assert lines[-1].startswith("weighted A* (w=2) found 2 cards first: already optimal")


def test_a_solve_result_prints_as_the_command_shows_it(capsys):
    """A SolveResult printed as its dataclass repr (one line of nested Play(...) fields)."""
    from solvers.lucia import solve

    result = solve("S h T h L0")
    code, out, _ = run(capsys, "solve", "S h T h L0")
    assert code == 0

    def timeless(text: str) -> str:
        return re.sub(r"time: \S+ s", "time: - s", text).strip()

    assert timeless(str(result)) == timeless(out)
    check_plan_lines(str(result), "S h T h L0")
    assert len(result.plan_lines()) == result.cost == 6


def test_one_card_is_singular(capsys):
    code, out, _ = run(capsys, "solve", "L4 H S")
    assert code == 0 and out.strip().endswith("found 1 card first: already optimal")


def test_solve_default_puzzle(capsys):
    code, out, _ = run(capsys, "solve")
    assert code == 0 and "(built-in default puzzle)" in out
    lines = check_plan_lines(out, DEFAULT_PUZZLE)
    assert "status: optimal" in status_line(lines)
    first = int(lines[-1].split("found ")[1].split()[0])
    cost = int(status_line(lines).split("cost: ")[1].split()[0])
    assert first >= cost and (f"{first - cost} more than the optimum {cost}" in lines[-1]
                              or (first == cost and "already optimal" in lines[-1]))


def test_solve_options_and_json(capsys):
    code, out, _ = run(capsys, "solve", "S h T h L0", "--algorithm", "idastar", "--json",
                       "--max-nodes", "100000", "--time-limit", "30")
    data = json.loads(out)
    assert code == 0 and data["algorithm"] == "idastar" and data["status"] == "optimal"
    assert len(data["plan"]) == data["cost"]


def test_solve_unsolvable_and_limit(capsys):
    code, out, _ = run(capsys, "solve", "S h G T h L0")
    assert code == 0 and "status: unsolvable" in out and "Gingerbread stands behind" in out
    code, out, _ = run(capsys, "solve", DEFAULT_PUZZLE, "--algorithm", "bfs", "--max-nodes", "10")
    assert code == 1 and "status: limit (nodes)  cost: -" in out


def test_idastar_proves_unsolvable_like_bfs(capsys):
    # no light source: Lucia never gains a candle, though the heuristic is finite (5); IDA*
    # stopped at its node limit (exit 1, "status: limit (nodes)") before it could prove this
    for algorithm in ("bfs", "idastar"):
        code, out, _ = run(capsys, "solve", "G h h h L0 h S h S", "--algorithm", algorithm)
        assert code == 0 and f"({algorithm})" in out and "status: unsolvable  cost: -" in out, out
        assert "lower bound" not in out


def test_solve_with_deck_file(capsys, tmp_path):
    deck = tmp_path / "deck.toml"
    deck.write_text('[[card]]\nactions = [{ kind = "lucia" }]\n'
                    '[[card]]\nactions = [{ kind = "light", source = "T" }]\n')
    code, out, _ = run(capsys, "solve", "h L3 T", "--deck", str(deck), "--algorithm", "bfs")
    # T lights L3 twice, Lucia passes the h, T lights the h
    assert code == 0 and "status: optimal  cost: 4" in out


def test_bad_input_exits_2(capsys):
    code, _, err = run(capsys, "solve", "L0 X")
    assert code == 2 and "'X'" in err
    code, _, err = run(capsys, "solve", "L0 h", "--deck", "no-such-deck")
    assert code == 2 and "no-such-deck" in err
    code, _, err = run(capsys, "scramble", "--depth", "-1")
    assert code == 2 and "depth" in err


def test_random_and_scramble(capsys):
    code, out, _ = run(capsys, "random", "--seed", "4")
    train = Train.parse(out.strip())
    assert code == 0 and train.is_standard and train.candles == 0
    assert run(capsys, "random", "--seed", "4")[1] == out
    code, out, _ = run(capsys, "scramble", "--depth", "5", "--seed", "9")
    assert code == 0 and Train.parse(out.strip()).is_standard


def test_solve_dealt_train_with_weight(capsys):
    code, train, _ = run(capsys, "random", "--seed", "1")
    code, out, _ = run(capsys, "solve", train.strip(), "--weight", "3")
    lines = out.splitlines()
    assert code == 0 and "status: feasible" in lines[-1]
    cost = int(lines[-1].split("cost: ")[1].split()[0])
    assert cost == len(lines) - 2 and Train.parse(lines[-2].split("  ")[-2]).is_goal()
