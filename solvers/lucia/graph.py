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

EXPAND_CHUNK = 4096
"""States of a layer expanded at a time by :func:`state_graph` (the cap is checked after each)."""
DEFAULT_GRAPH_NODES = 200_000
"""Default cap on the states of :func:`state_graph`. A networkx graph takes about 6.5 kB per
state with its edges (about 25 a state on the default deck): 60,480 states and 1.5 M edges hold
387 MB (tracemalloc after the build; peak RSS 440 MB over the interpreter's), so a graph near
the cap takes about 1.3 GB. A graph over the cap is refused holding under 1 kB per state (RSS:
150 MB at this cap)."""


def state_graph(train: Train | str, cards: Deck | Sequence[Card] | None = None,
                max_nodes: int = DEFAULT_GRAPH_NODES, rules: Rules = DEFAULT_RULES
                ) -> nx.DiGraph:
    """Every train reachable from ``train`` with ``cards`` (default: the default deck's kinds),
    found breadth-first by the kernel. Raises :class:`SearchLimitError` when more than
    ``max_nodes`` states are reachable (no partial graph: distances in it would be wrong), as
    soon as the states found pass the cap (checked every :data:`EXPAND_CHUNK` states expanded),
    before the graph is built. Memory: see :data:`DEFAULT_GRAPH_NODES`."""
    start = as_train(train, rules)
    if max_nodes is None:  # the graph is built whole or not at all: it needs a cap
        raise SearchLimitError("max_nodes must be a positive integer, got None")
    check_limits(max_nodes, None)
    max_nodes = int(max_nodes)  # a numpy integer or whole float, as the searches take them
    kinds = card_kinds(cards)
    table = kernel.card_table(kinds, rules)
    index = {start.packed: 0}
    layer = np.array([start.packed], dtype=np.uint64)
    # the edges a chunk of states at a time, as numpy arrays (source index, target packed,
    # card): Python tuples took several times the memory, and a whole layer's successors at
    # once up to 1.5 GB, before the cap was checked
    edges: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    first = 0  # the index of the first state of ``layer``
    source = np.uint32 if max_nodes < 2**32 else np.int64
    card = np.uint8 if len(kinds) < 2**8 else np.int32
    while len(layer):
        nxt: list[int] = []
        for at in range(0, len(layer), EXPAND_CHUNK):
            chunk = layer[at:at + EXPAND_CHUNK]
            succ, parent, which = kernel.expand(chunk, table)
            moved = succ != chunk[parent]  # plays that leave the train unchanged are no edges
            succ, parent, which = succ[moved], parent[moved], which[moved]
            found, where = np.unique(succ, return_index=True)
            new = [s for s in found[np.argsort(where)].tolist() if s not in index]  # in order
            if len(index) + len(new) > max_nodes:
                raise SearchLimitError(f"more than {max_nodes:,} states are reachable from "
                                       f"{start}; raise max_nodes")
            index.update(zip(new, range(len(index), len(index) + len(new)), strict=True))
            nxt += new
            edges.append(((parent + (first + at)).astype(source), succ, which.astype(card)))
        first += len(layer)
        layer = np.array(nxt, dtype=np.uint64)
    packed = list(index)
    goals = kernel.goal_mask(np.array(packed, dtype=np.uint64)).tolist()
    graph = nx.DiGraph(start=str(start))
    names = [str(Train.from_packed(s)) for s in packed]
    for name, s, goal in zip(names, packed, goals, strict=True):
        graph.add_node(name, packed=s, goal=bool(goal))
    for sources, targets, cards_ in edges:
        for a, b, c in zip(sources.tolist(), targets.tolist(), cards_.tolist(), strict=True):
            if not graph.has_edge(names[a], names[index[b]]):
                graph.add_edge(names[a], names[index[b]], card=kinds[c].name)
    return graph
