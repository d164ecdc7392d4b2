"""Lucia solvers: optimal puzzles (:mod:`solvers.lucia.puzzle`: BFS, A*, IDA*, weighted A*)
and the reachable state graph as a networkx graph (:mod:`solvers.lucia.graph`); deals with a
known deck (:mod:`solvers.lucia.deal`), win rates (:mod:`solvers.lucia.winrate`) and play with a
hidden deck (:mod:`solvers.lucia.play`).

>>> from lumicore.lucia import Train
>>> result = solve(Train.parse("h L4 H T S"), algorithm="astar")
>>> result.status, result.cost
('optimal', 2)
"""

from __future__ import annotations

from solvers.lucia.deal import DealResult, DealStep, replay_deal, solve_deal, solve_position
from solvers.lucia.graph import state_graph
from solvers.lucia.play import best_play, greedy_play, play_game
from solvers.lucia.puzzle import (
    ALGORITHMS,
    DEFAULT_MAX_NODES,
    DEFAULT_PUZZLE,
    SolveResult,
    astar,
    bfs,
    card_kinds,
    idastar,
    replay,
    search_kinds,
    solve,
)
from solvers.lucia.winrate import WinRate, win_rate

__all__ = ["solve", "bfs", "astar", "idastar", "SolveResult", "replay", "ALGORITHMS",
           "DEFAULT_MAX_NODES", "DEFAULT_PUZZLE", "card_kinds", "search_kinds", "state_graph",
           "solve_deal", "solve_position", "DealResult", "DealStep", "replay_deal", "best_play",
           "greedy_play", "play_game", "win_rate", "WinRate"]
