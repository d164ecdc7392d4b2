"""The reachable state graph of a Lucia puzzle as a networkx ``DiGraph`` (for analysis).

Nodes are trains in their notation (attributes ``goal`` and ``packed``), an edge ``a -> b``
means one play leads from ``a`` to ``b`` (attribute ``card``: the name of the first card of the
deck that makes it; plays that leave the train unchanged are left out).

>>> import networkx as nx
>>> from lumicore.lucia import Action, Card
>>> graph = state_graph("S h T h L0", [Card((Action.wild(1),)), Card((Action.light("T"),))])
>>> goal = next(n for n, goal in graph.nodes(data="goal") if goal)
>>> nx.shortest_path_length(graph, "S h T h L0", goal)
12
"""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx
import numpy as np

from lumicore.errors import SearchLimitError
from lumicore.lucia import kernel
from lumicore.lucia.cards import Card, Deck
from lumicore.lucia.train import DEFAULT_RULES, Rules, Train, as_train
from solvers.limits import check_limits
from solvers.lucia.puzzle import card_kinds

__all__ = ["state_graph", "DEFAULT_GRAPH_NODES"]

DEFAULT_GRAPH_NODES = 200_000
"""Default cap on the states of :func:`state_graph` (a networkx graph takes about 1 kB per
state with its edges)."""


def state_graph(train: Train | str, cards: Deck | Sequence[Card] | None = None,
                max_nodes: int = DEFAULT_GRAPH_NODES, rules: Rules = DEFAULT_RULES
                ) -> nx.DiGraph:
    """Every train reachable from ``train`` with ``cards`` (default: the default deck's kinds),
    found breadth-first by the kernel. Raises :class:`SearchLimitError` when more than
    ``max_nodes`` states are reachable (no partial graph: distances in it would be wrong)."""
    start = as_train(train, rules)
    if max_nodes is None:  # the graph is built whole or not at all: it needs a cap
        raise SearchLimitError("max_nodes must be a positive integer, got None")
    check_limits(max_nodes, None)
    max_nodes = int(max_nodes)  # a numpy integer or whole float, as the searches take them
    kinds = card_kinds(cards)
    table = kernel.card_table(kinds, rules)
    index = {start.packed: 0}
    layer = [start.packed]
    edges: list[tuple[int, int, int]] = []
    while layer:
        succ, parent, which = kernel.expand(np.array(layer, dtype=np.uint64), table)
        nxt = []
        for s, p, c in zip(succ.tolist(), parent.tolist(), which.tolist(), strict=True):
            if s == layer[p]:
                continue
            if s not in index:
                if len(index) >= max_nodes:
                    raise SearchLimitError(f"more than {max_nodes:,} states are reachable from "
                                           f"{start}; raise max_nodes")
                index[s] = len(index)
                nxt.append(s)
            edges.append((layer[p], s, c))
        layer = nxt
    goals = kernel.goal_mask(np.array(list(index), dtype=np.uint64)).tolist()
    graph = nx.DiGraph(start=str(start))
    names = {}
    for (packed, _), goal in zip(index.items(), goals, strict=True):
        names[packed] = str(Train.from_packed(packed))
        graph.add_node(names[packed], packed=packed, goal=bool(goal))
    for a, b, c in edges:
        if not graph.has_edge(names[a], names[b]):
            graph.add_edge(names[a], names[b], card=kinds[c].name)
    return graph
