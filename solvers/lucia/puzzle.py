"""Optimal Lucia puzzles: fewest cards from a train to the goal, each card kind reusable.

``solve(train, cards, algorithm)`` runs breadth-first search (``"bfs"``), A* (``"astar"``) or
IDA* (``"idastar"``); ``solve(..., weight=3)`` runs weighted A*, which finds plans for trains too
deep to solve optimally (status ``"feasible"``: at most ``weight`` times the optimum). The loops
run in the Cython kernel (``ext/lucia.pyx``); Python only validates, builds the card table and
turns the found path into :class:`~lumicore.lucia.Play` objects through the reference rules.
A* and IDA* use the admissible heuristic of :mod:`lumicore.lucia.heuristic`.

>>> from lumicore.lucia import Train
>>> result = solve(Train.parse("h L4 H T S"), algorithm="astar")
>>> result.status, result.cost, result.plan[-1].train.is_goal()
('optimal', 2, True)
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from lumicore.data import plural, shorten
from lumicore.errors import IllegalMoveError, LumicoreError
from lumicore.lucia import kernel
from lumicore.lucia.cards import Card, Deck, load_deck
from lumicore.lucia.heuristic import (
    INF,
    HeuristicTable,
    build_table,
    estimate,
    gingerbread_behind_starboy,
)
from lumicore.lucia.pdb import load_pdb
from lumicore.lucia.train import (
    DEFAULT_RULES,
    Play,
    Rules,
    Train,
    as_train,
    check_cards,
    describe,
)
from solvers.limits import (
    FEASIBLE,
    INTERRUPTED,
    LIMIT,
    OPTIMAL,
    REASON_INTERRUPTED,
    REASON_TIME,
    UNSOLVABLE,
    check_limits,
)

__all__ = ["solve", "bfs", "astar", "idastar", "SolveResult", "replay", "ALGORITHMS",
           "DEFAULT_MAX_NODES", "DEFAULT_PUZZLE", "card_kinds", "search_kinds",
           "default_max_memory"]

ALGORITHMS = ("bfs", "astar", "idastar")
"""``algorithm=`` choices of :func:`solve`: ``"bfs"`` breadth-first, ``"astar"`` A* (the default;
weighted with ``weight > 1``), ``"idastar"`` IDA* (iterative deepening, little memory)."""
HEURISTICS = ("pdb", "covering")
"""``heuristic=`` choices of :func:`solve` (A*, IDA*): ``"pdb"`` = the covering table
max-combined with the ``LSGT`` pattern database (built once per deck and train shape, then
loaded from the cache), ``"covering"`` = the table alone."""
PDB_ABSTRACTION = "LSGT"
WARM_WEIGHT = 2
"""A* (weight 1, ``heuristic="pdb"``) first runs weighted A* with this weight ..."""
WARM_NODES = 2_000_000
"""... and at most this many stored states (and a tenth of the time limit)."""
DEFAULT_MAX_NODES = 20_000_000
"""Default cap on stored states (BFS, A*: about 60-110 bytes each, see docs/lucia.md) or
visits (IDA*)."""
PDB_SHARE = 0.5
"""With a time limit, building the pattern database (when it is not cached yet) may take at
most this share of it (checked after each layer of its breadth-first search); a build not done
by then is dropped, and the search uses the covering table alone for the time left."""
MEMORY_SHARE = 4
"""The default memory budget of BFS and A* is 1/MEMORY_SHARE of the machine's available RAM."""


def default_max_memory() -> int:
    """A safe default memory budget in bytes: a quarter of the RAM available now (Linux
    ``MemAvailable``; elsewhere a quarter of physical memory, or 2 GiB if unknown)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024 // MEMORY_SHARE
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // MEMORY_SHARE
    except (AttributeError, ValueError, OSError):
        return 2 << 30

DEFAULT_PUZZLE = "L3 G h G h G T S S h H S H T H H"
"""The CLI's built-in puzzle: ``scramble(20, seed=2026)`` with the default deck. Its optimum is
13 cards; A* proves it in about a second (see docs/lucia.md)."""


@dataclass(frozen=True)
class SolveResult:
    """What a search found.

    ``status``: ``"optimal"`` (``plan`` is a shortest solution, ``cost`` its length),
    ``"feasible"`` (weighted A*: a solution at most ``weight`` times longer than the shortest),
    ``"unsolvable"`` (the reachable space holds no goal), ``"limit"`` (cut off by
    ``max_nodes``/``time_limit``/``max_memory``; ``plan`` empty, ``cost`` None) or
    ``"interrupted"`` (Ctrl-C). ``reason``: what stopped it (``"nodes"``, ``"time"``,
    ``"memory"``, ``"interrupted"``; None when it finished). ``bound``: the best lower bound on
    the optimum proven (the cost when optimal; None for weighted A*). ``nodes``: states stored
    (BFS, A*) or visited over all iterations (IDA*); ``expanded``: states expanded.
    """

    status: str
    cost: int | None
    plan: list[Play]
    nodes: int
    elapsed: float
    algorithm: str
    expanded: int
    start: Train
    cards: tuple[Card, ...] = field(repr=False)
    note: str = ""
    """Why the start is hopeless, when the heuristic proves it before any search."""
    generated: int = 0
    """Successors made, repeats included (IDA*: distinct per expansion)."""
    reason: str | None = None
    bound: int | None = None
    first: int | None = None
    """The length of the plan the weighted A* warm start found (A*: it bounds the search); the
    optimum is ``cost`` when proven."""

    def __str__(self) -> str:
        """The start, a line per play (the card, the train after it, what each action did) and
        :meth:`report`'s lines, as ``lumicore lucia solve`` prints them.

        >>> print(solve("L4 H S"))  # doctest: +ELLIPSIS
        start: L4 H S
          1. light from H  L5 H S   (H 1 lights)
        status: optimal  cost: 1  nodes: ...  expanded: ...  time: ... s  (astar)
        weighted A* (w=2) found 1 card first: already optimal
        """
        return "\n".join([f"start: {self.start}", *self.plan_lines(), *self.report()])

    def plan_lines(self) -> list[str]:
        """A line per play: its number, the card, the train after it and what each action did."""
        width = max((len(p.card.name) for p in self.plan), default=0)
        return [f"{i:3d}. {play.card.name:<{width}}  {play.train}   "
                f"({', '.join(map(describe, play.choices))})"
                for i, play in enumerate(self.plan, 1)]

    def report(self) -> list[str]:
        """The search's figures: status, cost, nodes, time; the note on a hopeless start; what
        the weighted A* warm start found, or the lower bound a cut search proved."""
        cost = "-" if self.cost is None else self.cost
        stopped = f" ({self.reason})" if self.reason and self.status != INTERRUPTED else ""
        lines = [f"status: {self.status}{stopped}  cost: {cost}  nodes: {self.nodes}  "
                 f"expanded: {self.expanded}  time: {self.elapsed:.2f} s  ({self.algorithm})"]
        if self.note:
            lines.append(f"note: {self.note}")
        if self.first is not None and self.status == OPTIMAL:
            gap = self.first - (self.cost or 0)
            lines.append(f"weighted A* (w={WARM_WEIGHT}) found {plural(self.first, 'card')} "
                         "first: "
                         + ("already optimal" if gap == 0
                            else f"{gap} more than the optimum {self.cost}"))
        elif self.first is not None and self.bound is not None:
            lines.append(f"weighted A* (w={WARM_WEIGHT}) found {plural(self.first, 'card')}; "
                         f"the optimum is {self.bound}..{self.first}")
        elif self.status in (LIMIT, INTERRUPTED) and self.bound:
            lines.append(f"lower bound: the optimum is at least {plural(self.bound, 'card')}")
        return lines

    def _repr_svg_(self) -> str:
        """The plan as a strip of trains, one per play, the moved kids marked (a start without
        a plan draws the start and the status)."""
        from lumicore.lucia.render import plan_svg

        cost = "" if self.cost is None else f", {self.cost} cards"
        return plan_svg(self.start, self.plan, title=f"{self.status}{cost}")

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready)."""
        return {"status": self.status, "cost": self.cost, "algorithm": self.algorithm,
                "nodes": self.nodes, "expanded": self.expanded, "generated": self.generated,
                "elapsed": self.elapsed, "reason": self.reason, "bound": self.bound,
                "first": self.first,
                "start": str(self.start), "note": self.note,
                "plan": [{"card": p.card.name, "play": str(p), "train": str(p.train)}
                         for p in self.plan]}


def card_kinds(cards: Deck | Sequence[Card] | None) -> tuple[Card, ...]:
    """The distinct cards of a deck, a list of cards, or the default deck (``None``)."""
    if cards is None:
        return load_deck().kinds
    if isinstance(cards, Deck):
        return cards.kinds
    if isinstance(cards, Card):
        return (cards,)
    kinds = tuple(dict.fromkeys(check_cards("cards", cards, "a Deck, a Card or a list of "
                                            "Cards (see load_deck)")))
    if not kinds:
        raise LumicoreError("at least one card is needed")
    return kinds


def search_kinds(kinds: Sequence[Card]) -> tuple[Card, ...]:
    """The cards a search needs: a card whose plays another card also offers (``move S 1``
    under ``wild 1``) adds no successor, so it is left out. Of cards that cover each other
    (``wild 1`` and ``move LHTSG 1``: the same plays) exactly the first is kept. The plan names
    the first card of ``kinds`` that makes each step.

    >>> from lumicore.lucia import Action, Card
    >>> search_kinds([Card((Action.wild(1),)), Card((Action.move("LHTSG", 1),)),
    ...               Card((Action.move("S", 1),))])
    (Card('wild 1'),)
    """
    kinds = tuple(dict.fromkeys(check_cards("kinds", kinds)))

    def dropped(i: int, card: Card) -> bool:
        return any(o.covers(card) and (j < i or not card.covers(o))
                   for j, o in enumerate(kinds) if j != i)

    return tuple(c for i, c in enumerate(kinds) if not dropped(i, c))


def _play_between(before: Train, after: Train, kinds: Sequence[Card], rules: Rules) -> Play:
    for card in kinds:
        for play in before.plays(card, rules):
            if play.train == after:
                return play
    raise IllegalMoveError(f"no card leads from {before} to {after}")


def solve(train: Train | str, cards: Deck | Sequence[Card] | None = None,
          algorithm: str = "astar", max_nodes: int | None = DEFAULT_MAX_NODES,
          time_limit: float | None = None, rules: Rules = DEFAULT_RULES,
          weight: int = 1, max_memory: int | None = None, heuristic: str = "pdb",
          progress: Callable[[int, int, int, float], object] | None = None) -> SolveResult:
    """Fewest plays from ``train`` to the goal, each card of ``cards`` usable any number of
    times (a Deck counts by its kinds; default: the default deck).

    ``weight`` (``"astar"`` only, 1..8): with ``weight > 1`` the search orders states by
    ``g + weight * h``; a plan it finds is at most ``weight`` times the optimum and is reported
    as ``"feasible"``, not ``"optimal"`` ("unsolvable" is still a proof). Plain A* (weight 1)
    starts from a weighted A* plan, whose cost bounds the search: when a limit stops the
    search before it proves an optimum, that plan comes back as ``"feasible"`` (with the
    proven lower bound), where other searches stopped by a limit give ``"limit"``.

    ``max_memory`` (bytes; BFS and A*; default :func:`default_max_memory`) stops the search with
    status ``"limit"``, reason ``"memory"`` before its tables outgrow it. ``progress(nodes,
    expanded, bound, elapsed)`` is called every few thousand expansions. Ctrl-C stops the
    search with status ``"interrupted"`` (the counts so far, no plan). ``time_limit`` covers
    the whole call: building the pattern database (when it is not cached), or waiting for
    another process that builds it, takes at most :data:`PDB_SHARE` of it, else the covering
    table alone is used; when the tables (a
    database read from the cache included) took all of it, no search starts (status
    ``"limit"``, reason ``"time"``, no nodes)."""
    start = as_train(train, rules)
    if not isinstance(algorithm, str) or algorithm not in ALGORITHMS:
        raise LumicoreError(f"algorithm must be one of {', '.join(ALGORITHMS)}, "
                            f"got {shorten(algorithm)}")
    check_limits(max_nodes, time_limit)
    if max_nodes is not None:  # a whole float (1000.0) as the other searches take it
        max_nodes = int(max_nodes)
    # here, not only in the kernel's search: A*'s warm start spends part of the budget first,
    # and what it leaves may fit under the cap that the whole does not
    kernel.check_max_nodes(algorithm, max_nodes)
    kernel.check_weight(algorithm, weight)  # before a pattern database is loaded or built
    if not isinstance(heuristic, str) or heuristic not in HEURISTICS:
        raise LumicoreError(f"heuristic must be one of {', '.join(HEURISTICS)}, "
                            f"got {shorten(heuristic)}")
    kinds = card_kinds(cards)
    clock = time.perf_counter()

    def left() -> float | None:  # seconds of the time limit not spent yet
        if time_limit is None:
            return None
        return max(time_limit - (time.perf_counter() - clock), 1e-3)

    needed = search_kinds(kinds)
    table = kernel.card_table(needed, rules)
    htable = build_table(needed, start) if algorithm != "bfs" else None
    pdbs = []
    if algorithm != "bfs" and heuristic == "pdb":
        try:
            pdbs = [load_pdb(needed, start, PDB_ABSTRACTION,
                             progress=_build_clock(clock, time_limit))]
        except _BuildTimeUp:    # not built within its share: the covering table alone
            pass
        except KeyboardInterrupt:
            stopped = kernel.SearchOutcome(INTERRUPTED, REASON_INTERRUPTED, [], [], 0, 0, 0, 0)
            return _result(stopped, start, kinds, rules, algorithm, clock, htable, weight)
    if time_limit is not None and time.perf_counter() - clock >= time_limit:
        # the tables took the whole time (a pattern database read from the cache, which
        # its build's share does not bound): no search starts
        spent = kernel.SearchOutcome(LIMIT, REASON_TIME, [], [], 0, 0, 0, 0)
        return _result(spent, start, kinds, rules, algorithm, clock, htable, weight)
    if max_memory is None:
        max_memory = default_max_memory()
    first: list[int] = []
    upper = warm = None
    try:
        if algorithm == "astar" and weight == 1 and pdbs and htable is not None:
            # weighted A* first: a plan in a fraction of the budget bounds the optimal search
            # the warm start's bound is a weighted f (g + 2h), no lower bound: 0 until the
            # start's h replaces it
            rest = left()  # None exactly when time_limit is
            warm = kernel.search("astar", start, table, htable, min(max_nodes or WARM_NODES,
                                 WARM_NODES), None if time_limit is None or rest is None
                                 else min(time_limit / 10, rest),
                                 WARM_WEIGHT, max_memory, progress, pdbs)._replace(bound=0)
            warm = warm._replace(bound=int(kernel.heuristic([start.packed], htable, pdbs)[0]))
            if warm.status == OPTIMAL:
                first, upper = warm.states, len(warm.states) - 1
            elif warm.status in (INTERRUPTED, UNSOLVABLE):
                return _result(warm, start, kinds, rules, algorithm, clock, htable, weight)
            if max_nodes is not None and warm.nodes >= max_nodes:  # it spent the whole budget
                return _result(warm._replace(status=LIMIT, reason="nodes"), start, kinds, rules,
                               algorithm, clock, htable, weight, upper)
            if max_nodes is not None:
                max_nodes -= warm.nodes
        # what the heuristic's tables (a pattern database built, not loaded) and the warm
        # start left of the time limit
        out = kernel.search(algorithm, start, table, htable, max_nodes, left(), weight,
                            max_memory, progress, pdbs, upper)
    except KeyboardInterrupt:  # a press between the kernel's searches (each catches its own)
        done = warm or kernel.SearchOutcome(INTERRUPTED, REASON_INTERRUPTED, [], [], 0, 0, 0, 0)
        if done.status == OPTIMAL:  # the warm start's plan, not proven the shortest
            first, upper = done.states, len(done.states) - 1
        out = done._replace(status=INTERRUPTED, reason=REASON_INTERRUPTED, states=[])
        warm = None
    if warm is not None:
        out = out._replace(nodes=out.nodes + warm.nodes, expanded=out.expanded + warm.expanded,
                           generated=out.generated + warm.generated)
    if first and upper is not None and out.status == UNSOLVABLE:  # none shorter than warm's
        out = out._replace(status=OPTIMAL, states=first, bound=upper)
    elif first and out.status in (LIMIT, INTERRUPTED):
        out = out._replace(states=first)
    return _result(out, start, kinds, rules, algorithm, clock, htable, weight, upper)


class _BuildTimeUp(Exception):
    """The pattern database's build ran past its share of the time limit."""


def _build_clock(clock: float, time_limit: float | None) -> Callable[[int, int], None] | None:
    """The progress callback of a pattern database's build: it ends the build once
    :data:`PDB_SHARE` of ``time_limit`` (from ``clock``) has passed (None: no limit)."""
    if time_limit is None:
        return None
    deadline = clock + time_limit * PDB_SHARE

    def check(_depth: int, _states: int) -> None:
        if time.perf_counter() > deadline:
            raise _BuildTimeUp
    return check


def _result(out: kernel.SearchOutcome, start: Train, kinds: tuple[Card, ...], rules: Rules,
            algorithm: str, clock: float, htable: HeuristicTable | None, weight: int,
            first: int | None = None) -> SolveResult:
    status = out.status
    plan: list[Play] = []
    note = _hopeless(start, htable) if status == UNSOLVABLE and htable is not None else ""
    if out.states:
        trains = [Train.from_packed(s) for s in out.states]
        plan = [_play_between(a, b, kinds, rules) for a, b in zip(trains[:-1], trains[1:],
                                                                  strict=True)]
    if status == LIMIT and plan:
        status = FEASIBLE   # the warm start's plan, not proven shortest
    cost = len(plan) if plan or status == OPTIMAL else None
    if status == OPTIMAL and weight > 1:
        status = FEASIBLE
    bound = out.bound if weight == 1 and status != UNSOLVABLE else None
    return SolveResult(status=status, cost=cost, plan=plan, nodes=out.nodes,
                       elapsed=time.perf_counter() - clock, algorithm=algorithm,
                       expanded=out.expanded, start=start, cards=kinds, note=note,
                       generated=out.generated, reason=out.reason, bound=bound, first=first)


def _hopeless(start: Train, htable: HeuristicTable) -> str:
    if estimate(start, htable) < INF:
        return ""
    if htable.locked and gingerbread_behind_starboy(start):
        return ("a Gingerbread stands behind a Starboy, and no card moves a Starboy or "
                "Gingerbread 3 or more steps, the least that lets one pass the other")
    return "no combination of these cards can cover what the train lacks (heuristic = infinity)"


def replay(start: Train | str, plan: Sequence[Play], rules: Rules = DEFAULT_RULES) -> Train:
    """Re-play a plan through the reference rules (each play must be legal from the train the
    previous one left); returns the final train."""
    train = as_train(start, rules, "start")
    if isinstance(plan, (str, bytes)) or not isinstance(plan, Iterable):
        raise LumicoreError(f"plan must be a sequence of Plays, got {shorten(plan)}")
    for i, play in enumerate(plan):
        if not isinstance(play, Play):
            raise LumicoreError(f"play {i + 1} is not a lumicore.lucia.Play: {play!r:.80}")
        if play.train not in train.successors(play.card, rules):
            raise IllegalMoveError(f"play {i + 1} ({play}) is not legal from {train}")
        train = play.train
    return train



def bfs(train: Train | str, cards: Deck | Sequence[Card] | None = None,
        **limits: Any) -> SolveResult:
    """``solve(train, cards, algorithm="bfs", ...)``."""
    return solve(train, cards, algorithm="bfs", **limits)


def astar(train: Train | str, cards: Deck | Sequence[Card] | None = None,
          **limits: Any) -> SolveResult:
    """``solve(train, cards, algorithm="astar", ...)``."""
    return solve(train, cards, algorithm="astar", **limits)


def idastar(train: Train | str, cards: Deck | Sequence[Card] | None = None,
            **limits: Any) -> SolveResult:
    """``solve(train, cards, algorithm="idastar", ...)``."""
    return solve(train, cards, algorithm="idastar", **limits)
