"""The kernel's puzzle searches (BFS, A*, IDA*) against a plain breadth-first search over the
reference rules: the same status and the same optimal cost. The other search tests compare the
kernel's searches with each other, so an "unsolvable" or a cost they all got wrong would pass."""

from __future__ import annotations

from collections import deque

from hypothesis import given, settings
from hypothesis import strategies as st
from test_lucia_kernel import CARDS, trains

from lumicore.lucia import Card, Rules, Train
from lumicore.lucia import reference as R
from solvers.lucia import solve


def fewest_plays(start: Train, cards: list[Card], lucia_partial: bool) -> int | None:
    """The fewest plays from ``start`` to the goal by :func:`reference.successors` (None: the
    goal cannot be reached)."""
    if R.is_goal(start.codes):
        return 0
    seen, todo = {start.codes: 0}, deque([start.codes])
    while todo:
        kids = todo.popleft()
        for card in cards:
            for after in R.successors(kids, card, lucia_partial=lucia_partial):
                if after not in seen:
                    seen[after] = seen[kids] + 1
                    if R.is_goal(after):
                        return seen[after]
                    todo.append(after)
    return None


@settings(max_examples=80, deadline=None)
@given(trains(max_kids=7), st.lists(st.sampled_from(CARDS), min_size=1, max_size=5, unique=True),
       st.booleans(), st.sampled_from(["bfs", "astar", "idastar"]),
       st.sampled_from(["covering", "pdb"]))
def test_kernel_searches_equal_a_python_breadth_first_search(train, cards, partial, algorithm,
                                                               heuristic):
    want = fewest_plays(train, cards, partial)
    result = solve(train, cards, algorithm=algorithm, rules=Rules(lucia_partial=partial),
                   heuristic=heuristic)
    case = (str(train), [str(c) for c in cards], partial, algorithm, heuristic)
    if want is None:
        assert result.status == "unsolvable", case
    else:
        assert result.status == "optimal" and result.cost == want, case
