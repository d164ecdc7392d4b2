"""Lucia searches a person can stop and that stay within limits: Ctrl-C (a real SIGINT),
memory, node and time limits with their reasons, progress calls, the plan picture and the
state graph."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import networkx as nx
import pytest
from terminal_helpers import run_on_terminal

from lumicore.errors import LumicoreError, SearchLimitError
from lumicore.lucia import Action, Card, Train, load_deck, random_train, scramble
from lumicore.lucia import reference as R
from lumicore.lucia.deal import deal
from lumicore.lucia.kernel import MAX_NODES, MIN_MEMORY
from solvers.cli import main
from solvers.lucia import DEFAULT_PUZZLE, play_game, replay, solve, solve_deal, state_graph
from solvers.progress import DELAY_VARIABLE, progress

ROOT = Path(__file__).resolve().parents[1]
DEEP = str(random_train(1))     # a dealt train: far beyond BFS


def ctrl_c_cli(args: list[str], timeout: float) -> tuple[int, str, str]:
    """Run ``lumicore ARGS`` in a new process, press Ctrl-C (a SIGINT) after 3 s, while it still
    runs, and return its exit code, stdout and stderr; a failure if it runs on for ``timeout``
    seconds after the Ctrl-C."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "solvers.cli", *args],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    time.sleep(3.0)
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"lumicore {' '.join(args[:2])} ran on after Ctrl-C")
    return proc.returncode, out, err


def test_sigint_stops_the_cli_with_exit_130():
    code, out, err = ctrl_c_cli(["lucia", "solve", DEEP, "--algorithm", "bfs", "--max-nodes",
                                 "4000000000"], timeout=30)
    assert code == 130, (out, err)
    assert "status: interrupted" in out and "Traceback" not in err
    assert int(out.split("nodes: ")[1].split()[0]) > 0


@pytest.mark.parametrize("workers", ["1", "2"])
def test_sigint_stops_lucia_play_with_exit_130(workers):
    """best_play's kernel search takes Ctrl-C (and clears it) to stop a sample; the game must
    stop too, not go on to the next sample and turn. With workers, the run ends them."""
    code, out, err = ctrl_c_cli(["lucia", "play", "--seed", "1", "--samples", "40",
                                 "--max-nodes", "200000", "--workers", workers], timeout=15)
    assert code == 130, (out, err)
    assert "interrupted" in err and "Traceback" not in err


@pytest.mark.parametrize("algorithm", ["bfs", "astar", "idastar"])
def test_sigint_in_process_returns_interrupted(algorithm):
    # Ctrl-C from another thread, as a timer: IDA* holds the GIL and must let it go to hear it
    pressed = threading.Event()

    def press() -> None:
        pressed.set()
        signal.raise_signal(signal.SIGINT)

    after = []  # progress calls after the press: the search polls Ctrl-C with each of them

    def progress(*args) -> None:
        if pressed.is_set():
            after.append(args)

    timer = threading.Timer(0.7, press)
    timer.start()
    try:
        # A* and IDA* on a dealt train with a weak start; a generous time limit as a safety net
        result = solve(DEEP, algorithm=algorithm, max_nodes=None if algorithm != "astar"
                       else MAX_NODES, time_limit=60, heuristic="covering", progress=progress)
    finally:
        timer.cancel()
    assert pressed.is_set()
    assert result.status == "interrupted" and result.reason == "interrupted"
    assert result.plan == [] and result.cost is None and result.nodes > 0
    assert len(after) <= 1  # stopped at the first poll after the press, not searching on


def test_limits_give_their_reason():
    train = Train.parse(DEEP)
    assert solve(train, max_nodes=50).reason == "nodes"
    assert solve(train, algorithm="bfs", time_limit=0.05).reason == "time"
    small = 32 << 20
    mem = solve(train, algorithm="astar", max_memory=small, heuristic="covering")
    assert (mem.status, mem.reason) == ("limit", "memory")
    # the budget counts every table: at least 40 bytes a stored state
    assert 40 * mem.nodes <= small
    assert solve("h L4 H T S").reason is None


@pytest.mark.parametrize("limit", [1_000, 30_000, 100_000])
def test_max_nodes_counts_the_warm_start(limit):
    """A*'s weighted warm start had a budget of its own on top of max_nodes: the default
    puzzle with max_nodes=30000 stored 51,351 states and reported them. Both searches now share
    the budget, and the bound stays a true one (the optimum is 13 cards)."""
    result = solve(DEFAULT_PUZZLE, max_nodes=limit)
    assert result.status in ("limit", "feasible") and result.reason == "nodes"
    assert limit * 0.9 <= result.nodes <= limit
    assert result.bound is not None and result.bound <= 13
    if result.plan:
        assert replay(DEFAULT_PUZZLE, result.plan).is_goal() and len(result.plan) == result.cost


def test_ctrl_c_in_the_warm_start_reports_a_true_lower_bound():
    """Stopped during A*'s weighted warm start, the result's bound was that search's highest
    g + 2h: 28 for random_train(5), whose optimum is 19 (docs/lucia.md, dealt trains), and the
    CLI printed 'the optimum is at least 28 cards'. It is now the start's heuristic value."""
    def stop(nodes, expanded, bound, elapsed):
        raise KeyboardInterrupt

    result = solve(random_train(5), progress=stop)
    assert (result.status, result.first) == ("interrupted", None)  # stopped in the warm start
    assert 0 < result.bound <= 19
    covering = solve(random_train(5), heuristic="covering", max_nodes=10)
    assert result.bound >= covering.bound  # the database's bound at least, as A* starts from


def test_ctrl_c_between_the_warm_start_and_the_search_keeps_the_warm_plan(monkeypatch):
    """A press just after the warm start returned (outside both kernel searches) escaped solve
    as KeyboardInterrupt: the CLI printed only 'interrupted' and the plan was lost."""
    from ctrl_c_helpers import ctrl_c_on_call

    from solvers.lucia import puzzle

    calls = ctrl_c_on_call(monkeypatch, puzzle.kernel, "heuristic")  # right after the warm start
    result = solve(DEFAULT_PUZZLE)
    assert calls and (result.status, result.reason) == ("interrupted", "interrupted")
    assert result.plan and replay(DEFAULT_PUZZLE, result.plan).is_goal()
    assert result.bound is not None and result.bound <= 13 <= result.cost  # a true bound


@pytest.mark.parametrize("algorithm", ["astar", "bfs"])
def test_a_budget_below_the_first_tables_is_an_error(algorithm):
    """max_memory=1 was not checked until a table grew: A* on the default puzzle stored 58,829
    states (its first tables, about 3.5 MB) and its weighted warm start found a 14-card plan
    within the 1-byte budget."""
    with pytest.raises(SearchLimitError, match="max_memory must be at least"):
        solve(DEFAULT_PUZZLE, algorithm=algorithm, max_memory=1)
    with pytest.raises(SearchLimitError, match="max_memory"):
        solve(DEFAULT_PUZZLE, algorithm=algorithm, max_memory=MIN_MEMORY - 1)
    tight = solve(DEFAULT_PUZZLE, algorithm=algorithm, max_memory=MIN_MEMORY,
                  heuristic="covering")
    assert (tight.status, tight.reason) == ("limit", "memory")
    assert 15 * tight.nodes <= MIN_MEMORY
    assert solve("h L4 H T S", algorithm="idastar", max_memory=1).status == "optimal"


def test_node_cap_is_not_silently_lowered():
    with pytest.raises(SearchLimitError, match="4,294,967,294"):
        solve("h L4 H T S", max_nodes=10**30)
    # just past the cap too: A*'s warm start spends a few nodes of the budget first, and what
    # it left (under the cap) was accepted
    for just_past in (MAX_NODES + 1, MAX_NODES + 50):
        with pytest.raises(SearchLimitError, match="4,294,967,294"):
            solve("h L4 H T S", max_nodes=just_past)
    assert solve("h L4 H T S", algorithm="idastar", max_nodes=10**15).status == "optimal"
    with pytest.raises(LumicoreError, match="max_memory"):
        solve("h L4 H T S", max_memory=-5)


def test_cli_node_cap_and_memory_sizes(capsys):
    assert main(["lucia", "solve", "h L4 H T S", "--max-nodes", str(10**30)]) == 2
    assert "4,294,967,294" in capsys.readouterr().err
    assert main(["lucia", "solve", "h L4 H T S", "--max-memory", "1G"]) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit) as exc:
        main(["lucia", "solve", "h L4 H T S", "--max-memory", "lots"])
    assert exc.value.code == 2 and "lots" in capsys.readouterr().err


def test_cli_limit_suggests_weight_and_shows_the_bound(capsys):
    code = main(["lucia", "solve", DEEP, "--max-nodes", "2000", "--heuristic", "covering"])
    out = capsys.readouterr().out
    assert code == 1 and "status: limit (nodes)" in out and "--weight" in out
    assert "at least" in out


def test_progress_is_called_with_growing_counts():
    calls = []
    result = solve(DEEP, algorithm="bfs", max_nodes=1_000_000,
                   progress=lambda *a: calls.append(a))
    assert result.reason == "nodes" and len(calls) >= 2
    nodes = [c[0] for c in calls]
    assert nodes == sorted(nodes) and nodes[-1] <= result.nodes
    assert all(c[3] >= 0 for c in calls)


def test_progress_errors_are_raised_not_swallowed():
    def boom(*_):
        raise RuntimeError("boom")
    with pytest.raises(RuntimeError, match="boom"):
        solve(DEEP, algorithm="bfs", max_nodes=3_000_000, progress=boom)


def test_plan_svg_marks_each_moved_kid(tmp_path, capsys):
    result = solve("S h T h L0")
    svg = result._repr_svg_()
    assert svg.startswith("<svg") and svg.count("start: S h T h L0") == 1
    for i, play in enumerate(result.plan, 1):
        assert f"{i}. {play.card.name}" in svg
    moves = sum(c.start != c.end for p in result.plan for c in p.choices)
    assert svg.count('stroke-width="4"') == moves and svg.count("marker-end") == moves
    path = tmp_path / "plan.svg"
    assert main(["lucia", "solve", "S h T h L0", "--svg", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == svg


def test_svg_path_is_checked_before_solving(tmp_path, capsys, monkeypatch):
    import solvers.commands.lucia as command

    searches = []  # a search of DEEP would run on to its limit before a bad --svg was noticed
    monkeypatch.setattr(command, "solve", lambda *args, **kwargs: searches.append(args))
    assert main(["lucia", "solve", DEEP, "--algorithm", "bfs", "--svg",
                 str(tmp_path / "missing" / "x.svg")]) == 2
    assert main(["lucia", "solve", DEEP, "--svg", str(tmp_path)]) == 2
    assert searches == []
    assert "folder" in capsys.readouterr().err


@pytest.mark.parametrize("text", ["S h T h L0", "h L2 T S H", "G h S h L0 T", "h T L1 S"])
def test_state_graph_distances_equal_the_optimum(text):
    graph = state_graph(text)
    goals = [n for n, goal in graph.nodes(data="goal") if goal]
    assert goals and all(Train.parse(g).is_goal() for g in goals)
    dist = nx.single_source_shortest_path_length(graph, text)
    assert len(dist) == graph.number_of_nodes()
    assert min(dist[g] for g in goals) == solve(text).cost == solve(text, algorithm="bfs").cost
    kinds = {c.name: c for c in load_deck().kinds}
    for a, b, card in list(graph.edges(data="card"))[:300]:
        assert Train.parse(b).codes in R.successors(Train.parse(a).codes, kinds[card])


def test_state_graph_limit_and_unsolvable():
    with pytest.raises(SearchLimitError, match="100"):
        state_graph(scramble(6, seed=1), max_nodes=100)
    graph = state_graph("L0 h T", [Card((Action.wild(1),))])
    assert not any(goal for _, goal in graph.nodes(data="goal"))
    assert json.dumps(graph.graph) == '{"start": "L0 h T"}'


def test_a_graph_over_the_cap_is_refused_early_and_small(monkeypatch):
    """The edges were Python tuples, and a whole layer was expanded at once, before the cap was
    checked: a refused graph took 1.5 GB at the default cap. Now a layer is expanded a chunk at
    a time and the edges are kept as numpy arrays: at most the cap's states are expanded, and
    the memory held (tracemalloc, not the clock) stays under 2.5 kB per capped state (it was
    5.3 kB; 1.6 kB now)."""
    import tracemalloc

    import solvers.lucia.graph as G

    expanded, real = [0], G.kernel.expand

    def counted(states, table):
        expanded[0] += len(states)
        return real(states, table)

    monkeypatch.setattr(G.kernel, "expand", counted)
    cap = 20_000
    tracemalloc.start()
    try:
        with pytest.raises(SearchLimitError, match=f"^more than {cap:,} states are reachable"):
            state_graph("L0 h T G h S H T", max_nodes=cap)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert 0 < expanded[0] <= cap
    assert peak < 2_500 * cap


def test_state_graph_is_the_reference_breadth_first_graph(monkeypatch):
    """The graph built from numpy edge arrays a chunk at a time: the reference successors give
    the same states and edges, each edge named by the first card of the deck that makes it."""
    import solvers.lucia.graph as G

    kinds = list(dict.fromkeys(load_deck().kinds))
    start = Train.parse("h L2 T S H")
    seen, layer, edges = {start.codes}, [start.codes], {}
    while layer:
        nxt = []
        for codes in layer:
            for card in kinds:
                for after in R.successors(codes, card):
                    if after == codes:
                        continue
                    edges.setdefault((codes, after), card.name)
                    if after not in seen:
                        seen.add(after)
                        nxt.append(after)
        layer = nxt
    monkeypatch.setattr(G, "EXPAND_CHUNK", 7, raising=False)  # many chunks a layer
    graph = state_graph(start)
    assert {Train.parse(n).codes for n in graph.nodes} == seen
    assert {(Train.parse(a).codes, Train.parse(b).codes): card
            for a, b, card in graph.edges(data="card")} == edges
    assert list(graph.nodes)[0] == str(start)


def test_progress_line_on_a_terminal_only():
    # the line at once (not after its second): 0.8 s of it, a progress call every 0.05 s
    args = ("solve", DEEP, "--heuristic", "covering", "--time-limit", "0.8")
    shown = run_on_terminal("lucia", *args, env={DELAY_VARIABLE: "0"})
    assert "lucia astar:" in shown and "bound f" in shown and "nodes/s" in shown
    assert "status: limit (time)" in shown
    quiet = run_on_terminal("lucia", *args, "--json", env={DELAY_VARIABLE: "0"})
    assert "lucia astar:" not in quiet and json.loads(quiet)["reason"] == "time"


def test_deal_search_progress_is_called_with_growing_counts():
    """solve_deal had no progress: `lucia deal --solve` was silent for its 10 s."""
    calls = []
    result = solve_deal(deal(7), max_nodes=300_000, progress=lambda *a: calls.append(a))
    assert result.status == "limit" and result.reason == "nodes"
    assert [c[0] for c in calls] == [65536 * k for k in range(1, len(calls) + 1)]
    assert len(calls) == 4 and all(c[1] >= 0 for c in calls)


def test_deal_search_progress_errors_stop_it():
    def boom(*_):
        raise RuntimeError("boom")

    def press(*_):
        raise KeyboardInterrupt
    with pytest.raises(RuntimeError, match="boom"):
        solve_deal(deal(7), max_nodes=300_000, progress=boom)
    stopped = solve_deal(deal(7), max_nodes=300_000, progress=press)
    assert stopped.status == "interrupted" and stopped.nodes == 65536
    with pytest.raises(LumicoreError, match="progress must be callable"):
        solve_deal(deal(7), progress=3)


def test_a_deal_search_stopped_by_its_progress_lets_go_of_its_table():
    """The search kept the exception its progress raised, whose traceback holds the search:
    each stopped search held its 24 MB table until the cyclic garbage collector ran (200
    calls on hard deals grew the process by 600 MB)."""
    import gc

    def alive() -> int:
        return sum(type(o).__name__ == "DealSearch" for o in gc.get_objects())

    def boom(*_):
        raise RuntimeError("boom")
    gc.collect()
    before = alive()
    gc.disable()
    try:
        for _ in range(3):
            try:
                solve_deal(deal(7), max_nodes=300_000, progress=boom)
            except RuntimeError:
                pass
        assert alive() == before
    finally:
        gc.enable()


def test_deal_solve_shows_the_deal_then_a_progress_line_on_a_terminal_only():
    # the line at once (not after its second): 0.8 s of it, a progress call every 0.02 s
    args = ("deal", "--seed", "7", "--solve", "--time-limit", "0.8")
    shown = run_on_terminal("lucia", *args, env={DELAY_VARIABLE: "0"})
    assert "lucia deal:" in shown and "nodes/s" in shown
    assert shown.index("train: ") < shown.index("lucia deal:") < shown.index("status: limit")
    quiet = run_on_terminal("lucia", *args, "--json", env={DELAY_VARIABLE: "0"})
    assert "lucia deal:" not in quiet and json.loads(quiet)["solve"]["reason"] == "time"


def test_play_shows_the_samples_of_each_play_on_a_terminal_only():
    """`lucia play` printed nothing while a play was chosen (45 s and more with 200 samples)."""
    calls = []
    record = play_game(deal(3), samples=4, max_nodes=1000, progress=lambda *a: calls.append(a))
    assert len(calls) == 4 * len(record.turns)
    assert calls[:5] == [(1, 4), (2, 4), (3, 4), (4, 4), (1, 4)]
    args = ("play", "--seed", "3", "--samples", "4", "--max-nodes", "1000")
    # the line waits a second; a quiet machine plays this game in less
    shown = run_on_terminal("lucia", *args, env={DELAY_VARIABLE: "0"})
    # which samples the line shows depends on the clock (tqdm redraws every 0.1 s): with one
    # search table per call instead of one per sample, 8/8 was missing from about 1 run in 7
    assert "lucia play:" in shown and "samples/s" in shown
    assert re.search(r"play \d+: sample [1-4]/4", shown)
    plays = int(re.search(r"(?:won|lost) after (\d+) plays", shown).group(1))
    quiet = run_on_terminal("lucia", *args, "--json")
    assert "lucia play:" not in quiet and json.loads(quiet)["plays"] == plays


def test_interrupted_astar_keeps_the_warm_start_plan():
    calls = []

    def stop(*args):
        calls.append(args)
        if len(calls) == 2:     # the warm start (a few thousand expansions) is long done
            raise KeyboardInterrupt
    train = random_train(3)
    result = solve(train, progress=stop)
    assert result.status == "interrupted" and result.reason == "interrupted"
    assert result.first is not None
    assert result.plan and result.cost == len(result.plan) == result.first
    assert result.bound is not None and result.bound <= result.cost
    assert R.is_goal(result.plan[-1].train.codes)


@pytest.mark.parametrize("value", ["soon", "-1", "nan", "inf"])
def test_a_bad_progress_delay_variable_is_named(value, monkeypatch):
    monkeypatch.setenv(DELAY_VARIABLE, value)
    with pytest.raises(LumicoreError, match=DELAY_VARIABLE):
        progress(desc="x", delay=1.0, enabled=False)
    import solvers.progress

    monkeypatch.setattr(solvers.progress, "_Bar", lambda **kwargs: kwargs)
    monkeypatch.setenv(DELAY_VARIABLE, "0.25")
    assert progress(desc="x", delay=1.0, enabled=False)["delay"] == 0.25
