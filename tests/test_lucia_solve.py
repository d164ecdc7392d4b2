"""solvers.lucia: BFS, A* and IDA* agree, plans replay through the reference rules, the
heuristic never overestimates, limits and bad input are handled."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_lucia_kernel import CARDS, trains

from lumicore.errors import LumicoreError, SearchLimitError
from lumicore.lucia import Action, Card, Train, load_deck, random_goal, random_train, scramble
from lumicore.lucia import kernel as K
from lumicore.lucia import reference as R
from lumicore.lucia.heuristic import INF, build_table, estimate
from solvers.lucia import DEFAULT_PUZZLE, replay, search_kinds, solve

DECK = load_deck()
SMALL = ["h L2 T S H", "G h S h L0 T", "h h L0 S T H", "S h T h L0", "T h S h L0",
         "L0 h T h S", "h T L1 S"]
UNSOLVABLE = ["S h G T h L0", "T S h L3 h G", "S L1 H G h", "L0 h h h S"]
# unsolvable with a finite heuristic (no Tomten, no lit Handmaiden: Lucia never gains a
# candle): only a search proves them, over a state graph full of cycles; IDA* stopped at its
# node limit on both (the second also has two states sharing a transposition-table slot)
CYCLIC = ["G h h h L0 h S h S", "G h h h L0 h S h h S"]


def replay_to_goal(start: Train, plan) -> None:
    """Replay every play with the reference rules only (independent of the kernel)."""
    kids = start.codes
    for play in plan:
        assert play.train.codes in R.successors(kids, play.card), play
        kids = play.train.codes
    assert R.is_goal(kids)


@pytest.mark.parametrize("text", SMALL)
def test_three_algorithms_agree_and_plans_replay(text):
    train = Train.parse(text)
    results = [solve(train, DECK, algorithm=a) for a in ("bfs", "astar", "idastar")]
    assert {r.status for r in results} == {"optimal"}
    assert len({r.cost for r in results}) == 1
    for r in results:
        assert r.cost == len(r.plan) and r.nodes > 0 and r.elapsed >= 0
        # every stored (BFS, A*) or visited (IDA*) state but the start was generated
        assert r.generated >= r.nodes - (r.algorithm != "idastar")
        assert r.plan[0].before == train
        replay_to_goal(train, r.plan)
        assert replay(train, r.plan).is_goal()


@pytest.mark.parametrize("seed", range(4))
def test_scrambles_of_full_trains(seed):
    train = scramble(5, seed=seed)
    bfs = solve(train, algorithm="bfs", max_nodes=3_000_000)
    astar = solve(train, algorithm="astar")
    ida = solve(train, algorithm="idastar")
    assert astar.status == ida.status == "optimal"
    assert astar.cost == ida.cost
    assert bfs.status == "optimal" and bfs.cost == astar.cost  # BFS needs at most 2.1M nodes
    replay_to_goal(train, astar.plan)
    replay_to_goal(train, ida.plan)


def distances_to_goal(start: Train, cards) -> dict[int, float]:
    """Exact distances to the goal of every state reachable from ``start`` (forward graph by the
    kernel, which the differential tests tie to the reference; backward BFS from the goals)."""
    table = K.card_table(cards)
    seen = {start.packed}
    layer = [start.packed]
    edges: dict[int, set[int]] = {}
    while layer:
        succ, parent, _ = K.expand(np.array(layer, dtype=np.uint64), table)
        nxt = []
        for s, p in zip(succ.tolist(), parent.tolist(), strict=True):
            edges.setdefault(s, set()).add(layer[p])
            if s not in seen:
                seen.add(s)
                nxt.append(s)
        layer = nxt
    dist = {s: float("inf") for s in seen}
    queue = deque(s for s in seen if Train.from_packed(s).is_goal())
    for s in queue:
        dist[s] = 0
    while queue:
        s = queue.popleft()
        for p in edges.get(s, ()):
            if dist[p] == float("inf"):
                dist[p] = dist[s] + 1
                queue.append(p)
    return dist


@pytest.mark.parametrize("text", UNSOLVABLE)
def test_unsolvable_proved_by_every_algorithm(text):
    for algorithm in ("bfs", "astar", "idastar"):
        result = solve(text, algorithm=algorithm)
        assert result.status == "unsolvable" and result.cost is None and result.plan == []


@pytest.mark.parametrize("text", CYCLIC)
@pytest.mark.parametrize("heuristic", ["pdb", "covering"])
def test_idastar_proves_unsolvable_on_cycles(text, heuristic):
    train = Train.parse(text)
    assert estimate(train, build_table(search_kinds(DECK.kinds), train)) < INF
    bfs = solve(train, algorithm="bfs")
    assert bfs.status == "unsolvable" and bfs.nodes < 1000
    ida = solve(train, algorithm="idastar", heuristic=heuristic)
    assert (ida.status, ida.reason, ida.cost, ida.plan, ida.note) == (
        "unsolvable", None, None, [], "")
    assert 0 < ida.expanded < ida.nodes < 1_000_000     # was 20,000,000 visits: "limit"


# (train, cards) that IDA* left at its node limit although BFS proves them unsolvable
CYCLIC_DECKS = [
    ("h G H L5 T", ["wild 1 + wild 2", "move S or H 2", "lucia", "light from H + move S 1"]),
    ("H G L3 T H", ["wild 1", "wild 2", "lucia", "light from H + move S 1"]),
    ("h T H h L0 S", ["move S or H 2", "light from T + move H 1"]),
]


@pytest.mark.parametrize("text,names", CYCLIC_DECKS)
@pytest.mark.parametrize("heuristic", ["pdb", "covering"])
def test_idastar_agrees_with_bfs_on_unsolvable_card_sets(text, names, heuristic):
    cards = [next(c for c in CARDS if str(c) == name) for name in names]
    assert solve(text, cards, algorithm="bfs").status == "unsolvable"
    for algorithm in ("astar", "idastar"):
        result = solve(text, cards, algorithm=algorithm, heuristic=heuristic,
                       max_nodes=5_000_000)
        assert result.status == "unsolvable", algorithm


def _agree_with_bfs(train: Train, cards) -> None:
    bfs = solve(train, cards, algorithm="bfs")
    assert bfs.status in ("optimal", "unsolvable")
    for algorithm in ("idastar", "astar"):
        r = solve(train, cards, algorithm=algorithm, heuristic="covering")
        assert (r.status, r.cost) == (bfs.status, bfs.cost), (algorithm, str(train), cards)
        if r.plan:
            replay_to_goal(train, r.plan)


@settings(max_examples=300)
@given(trains(max_kids=6), st.lists(st.sampled_from(CARDS), min_size=1, max_size=5,
                                    unique=True))
def test_idastar_and_astar_agree_with_bfs_on_random_puzzles(train, cards):
    """Random small trains and card sets, many of them unsolvable: the same status and cost as
    BFS, which exhausts the reachable states (IDA* may take a few million visits)."""
    _agree_with_bfs(train, cards)


def test_idastar_proof_caps_only_delay_the_proof():
    """The kernel's proof of unsolvability gives up (status 2, node limit) when its record of
    the iteration's states may not grow past 2^10 slots (the train reaches 588 states) or when
    it may not wait for a single cut state to be expanded; the defaults prove it (status 1)."""
    train = Train.parse(CYCLIC[1])
    needed = search_kinds(DECK.kinds)
    table, heur = K.card_table(needed), K._heuristic_object(build_table(needed, train), [])

    def run(**kwargs):
        return K._k.idastar(train.packed, table, heur, 2_000_000, 0.0, **kwargs)[0]

    assert run() == 1
    assert run(proof_bits=10) == run(pending_max=0) == run(proof_bits=0) == 2
    assert run(proof_bits=11) == 1      # 1,024 states fit at load 1/2


def test_starboy_passes_gingerbread_only_with_three_steps():
    train = Train.parse("S h G T h L0")
    assert estimate(train, build_table(DECK.kinds, train)) == INF
    cards = DECK.kinds + (Card((Action.move("S", 3),)),)
    assert estimate(train, build_table(cards, train)) < INF
    # S 0->3 passes h, G, T: "h G T S h L0" keeps a kid between G and S
    assert "h G T S h L0" in {str(t) for t in train.successors(cards[-1])}
    bfs, astar = solve(train, cards, algorithm="bfs"), solve(train, cards)
    assert bfs.status == astar.status == "optimal" and bfs.cost == astar.cost
    replay_to_goal(train, astar.plan)


@pytest.mark.parametrize("text", SMALL[:4] + UNSOLVABLE[:2] + ["S h T G h L0"])
def test_heuristic_never_overestimates(text):
    train = Train.parse(text)
    table = build_table(DECK.kinds, train)
    dist = distances_to_goal(train, DECK.kinds)
    assert len(dist) > 100
    values = K.heuristic(np.array(list(dist), dtype=np.uint64), table)
    for (state, d), h in zip(dist.items(), values.tolist(), strict=True):
        assert h <= d, (str(Train.from_packed(state)), h, d)
        if h == INF:
            assert d == float("inf")
    # zero exactly on the goals
    assert all((h == 0) == (d == 0) for d, h in zip(dist.values(), values.tolist(), strict=True))


@pytest.mark.parametrize("text", SMALL[:3])
def test_heuristic_is_consistent(text):
    train = Train.parse(text)
    table, cards = build_table(DECK.kinds, train), K.card_table(DECK.kinds)
    states = np.array(list(distances_to_goal(train, DECK.kinds)), dtype=np.uint64)
    succ, parent, _ = K.expand(states, cards)
    h_parent = K.heuristic(states, table).astype(int)[parent]
    h_succ = K.heuristic(succ, table).astype(int)
    assert (h_parent <= 1 + h_succ).all()


def test_heuristic_with_few_cards_and_unreachable_goal():
    cards = [Card((Action.move("S", 1),))]
    train = Train.parse("H L5 S")  # only Starboys move: Lucia never reaches the front
    table = build_table(cards, train)
    assert estimate(train, table) == 1
    for algorithm in ("bfs", "astar", "idastar"):
        result = solve(train, cards, algorithm=algorithm)
        assert result.status == "unsolvable" and result.cost is None and result.plan == []
    no_light = Train.parse("L0 h")  # no card lights: the heuristic proves it at once
    assert estimate(no_light, build_table(cards, no_light)) == INF
    assert solve(no_light, cards).status == "unsolvable"


def test_goal_start_costs_nothing():
    for algorithm in ("bfs", "astar", "idastar"):
        result = solve("L5 H T S", algorithm=algorithm)
        assert (result.status, result.cost, result.plan) == ("optimal", 0, [])
        assert result.bound == 0    # the cost when optimal (BFS said 1)
    assert solve("h L4 H T S", algorithm="bfs").bound == 2


def test_limits_cut_the_search():
    train = Train.parse(DEFAULT_PUZZLE)
    for algorithm in ("bfs", "astar", "idastar"):
        result = solve(train, algorithm=algorithm, max_nodes=50)
        assert result.status == "limit" and result.cost is None and result.plan == []
    assert solve(train, algorithm="bfs", time_limit=1e-6).status == "limit"
    with pytest.raises(SearchLimitError):
        solve(train, max_nodes=0)


def test_default_puzzle_is_the_documented_scramble_and_solves():
    assert str(scramble(20, seed=2026)) == DEFAULT_PUZZLE
    result = solve(DEFAULT_PUZZLE)
    assert result.status == "optimal" and result.cost == len(result.plan)
    replay_to_goal(Train.parse(DEFAULT_PUZZLE), result.plan)


def test_default_puzzle_idastar_agrees():
    ida = solve(DEFAULT_PUZZLE, algorithm="idastar", max_nodes=50_000_000)
    assert ida.status == "optimal" and ida.cost == solve(DEFAULT_PUZZLE).cost
    replay_to_goal(Train.parse(DEFAULT_PUZZLE), ida.plan)


def test_algorithm_shortcuts():
    from solvers.lucia import astar, bfs, idastar
    results = [f("h L2 T S H", DECK, max_nodes=10_000) for f in (bfs, astar, idastar)]
    assert [r.algorithm for r in results] == ["bfs", "astar", "idastar"]
    # Lucia lacks 3 candles and no card lights her twice: 3 is a lower bound, and it is met
    assert {r.cost for r in results} == {3}
    for r in results:
        replay_to_goal(Train.parse("h L2 T S H"), r.plan)


def test_cards_as_deck_list_or_default():
    train = Train.parse("h L2 T S H")
    costs = {solve(train, c).cost for c in (None, DECK, list(DECK.kinds), list(DECK))}
    assert len(costs) == 1


def test_lucia_partial_rule_reaches_the_kernel():
    from lumicore.lucia import Rules
    cards = [Card((Action.lucia(),))]
    # whole runs only: Lucia is at 2, 0 or 4; stopping anywhere: all 5 places
    full = solve("h h L5 h h", cards, algorithm="bfs")
    partial = solve("h h L5 h h", cards, algorithm="bfs", rules=Rules(lucia_partial=True))
    assert (full.status, full.nodes) == ("unsolvable", 3)
    assert (partial.status, partial.nodes) == ("unsolvable", 5)


@pytest.mark.parametrize("kwargs,error", [
    ({"algorithm": "dfs"}, LumicoreError), ({"cards": []}, LumicoreError),
    ({"cards": ["wild 1"]}, LumicoreError), ({"time_limit": -1}, SearchLimitError),
    # an array reached numpy's "truth value of an array is ambiguous" ValueError
    ({"algorithm": np.array(["bfs", "astar"])}, LumicoreError),
    ({"heuristic": np.array(["pdb", "covering"])}, LumicoreError),
    ({"algorithm": ["bfs"]}, LumicoreError),
])
def test_bad_arguments(kwargs, error):
    with pytest.raises(error):
        solve("L0 h T", **kwargs)


def test_result_serializes():
    import json
    data = json.loads(json.dumps(solve("h L4 H T S").to_dict()))
    assert data["status"] == "optimal" and len(data["plan"]) == data["cost"]


@pytest.mark.parametrize("seed", range(6))
def test_covered_cards_add_no_successor(seed):
    kinds = DECK.kinds + (Card((Action.wild(1), Action.light("H"))),)
    kept = search_kinds(kinds)
    assert Card((Action.move("S", 1),)) not in kept and Card((Action.wild(1),)) in kept
    # light H + move S 1 is covered by the extra wild 1 + light H card
    assert Card((Action.light("H"), Action.move("S", 1))) not in kept
    for train in (random_goal(seed), scramble(3, seed=seed), Train.parse("S h G T h L0")):
        for card in kinds:
            for other in kinds:
                if other.covers(card):
                    assert train.successors(card) <= train.successors(other), (card, other)


def test_weighted_astar_is_bounded_by_weight_times_optimum():
    optimum = solve(DEFAULT_PUZZLE).cost
    for weight in (2, 3):
        result = solve(DEFAULT_PUZZLE, weight=weight)
        assert result.status == "feasible"
        assert optimum <= result.cost <= weight * optimum and result.cost == len(result.plan)
        replay_to_goal(Train.parse(DEFAULT_PUZZLE), result.plan)


@pytest.mark.parametrize("seed", range(4))
def test_dealt_trains_are_winnable(seed):
    # the default setup (docs/lucia.md, decision 8) deals trains that weighted A* solves
    train = random_train(seed)
    result = solve(train, weight=3, max_nodes=5_000_000)
    assert result.status == "feasible"
    replay_to_goal(train, result.plan)


@pytest.mark.parametrize("weight", [2, 8])
def test_a_large_weighted_f_keeps_its_order(weight):
    """With a three-card deck the heuristic values run high; g + 8h passed the kernel's old
    8-bit cap of 255 and the capped states went deepest first: weight 8 ran into the limit
    (7.4 million states) where weight 2 needed about a thousand."""
    cards = [Card((Action.wild(1),)), Card((Action.light("T"),)), Card((Action.light("H"),))]
    train = Train.parse("S S S h h h h h T h h T h h h L0")
    result = solve(train, cards, weight=weight, max_nodes=50_000)
    assert result.status == "feasible" and result.cost == len(result.plan)
    replay_to_goal(train, result.plan)


def test_weighted_astar_still_proves_unsolvable():
    assert solve("S h G T h L0", weight=3).status == "unsolvable"


@pytest.mark.parametrize("kwargs", [{"weight": 0}, {"weight": 9}, {"weight": 1.5},
                                    {"weight": True}, {"weight": 2, "algorithm": "bfs"},
                                    {"weight": 2, "algorithm": "idastar"}])
def test_bad_weights(kwargs):
    with pytest.raises(LumicoreError, match="weight"):
        solve("L0 h T", **kwargs)


def test_a_bad_weight_is_refused_before_a_pattern_database_is_read(monkeypatch):
    """idastar with weight=2 loaded (or built) the pattern database before it said no."""
    import solvers.lucia.puzzle as puzzle

    def no_pdb(*args, **kwargs):
        raise AssertionError("a pattern database was read")

    monkeypatch.setattr(puzzle, "load_pdb", no_pdb)
    for algorithm in ("idastar", "bfs"):
        with pytest.raises(LumicoreError, match="weight is for astar only"):
            solve("L0 h T", algorithm=algorithm, weight=2)
