"""A branch and bound on the builds that lowers the proven upper bound of a Lemuria year
(branch and price): each node fixes the build option (no build, or the Trend slot built from)
of some turns, and its bound is :func:`solvers.lemuria.bound.lagrangian_bound` of the years
that make those choices, by column generation.

The master LP of column generation mixes relaxed years: at the root of a default year it
weighs building plans that build from different slots in the same turn. A node splits on the
turn where its master's building plans disagree most, into one child for each option; the
children's masters cannot mix those plans any more, and their bounds fall. Every legal year
makes exactly one choice in each turn, so it lies in one child, and the largest bound of the
nodes still open (or the plan's VP, for nodes pruned as no better than it) bounds every year.
The search is best first: it always splits the node with the largest bound, so the proven
bound falls as fast as the nodes allow.

When the builds are settled the search splits on the facilities owned after a turn, then on
the number of residents the year houses in all, then on the number it houses by the end of a
festival turn (of up to two festivals), then on whether a character is housed, then on the
turn it is first housed in, and last on whether a district holds a chit after a turn. A node
whose master mixes none of these has nothing to split (its mix is in the cards held, or its
master holds one relaxed year of each side that no legal year matches); it stays open with
its bound, and the search stops when it reaches the top.

Children are bounded at their parent's multipliers first (one evaluation of the two programs,
a valid bound like any); a node's column generation runs only when it reaches the top, and
pauses once its bound falls under the next node's.

>>> from lumicore.lemuria import default_instance
>>> result = branch_bound(default_instance(2, turns=4), time_limit=20)
>>> result.bound >= 0 and result.root >= result.bound
True
"""

from __future__ import annotations

import heapq
import math
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from lumicore.checks import check_array, check_int, check_real
from lumicore.data import shorten
from lumicore.errors import LumicoreError
from lumicore.lemuria import CHITS, DISTRICTS, Instance
from lumicore.lemuria.instance import check_instance
from solvers.ctrl_c import noting
from solvers.lemuria.bound import (
    CONVERGED,
    BoundResult,
    _columns,
    _keep,
    _price,
    _Year,
    lagrangian_bound,
)
from solvers.lemuria.columns import EMPTY, Column, Master
from solvers.limits import Budget
from solvers.progress import check_callback

__all__ = ["BranchResult", "branch_bound"]

OPTIONS = range(6)
"""A turn's build options: 0 no build, 1..5 the slot built from."""


@dataclass
class BranchResult:
    """``bound``: no legal year scores more (rounded down when ``target`` is given: VP are
    whole); ``root``: the whole year's bound; ``status``: "proven" (the bound is at most
    ``target``: a plan of that VP is optimal), "exhausted" (the top node has nothing to
    split), "limit" (time or nodes ran out) or "interrupted" (Ctrl-C); ``nodes``: bounds
    computed; ``open``: nodes left; ``depth``: the most turns fixed in a node."""

    bound: float
    root: float
    status: str
    nodes: int
    open: int
    depth: int
    elapsed: float
    history: list[tuple[float, float]] = field(default_factory=list, repr=False)
    """(seconds, bound) each time the proven bound fell."""


@dataclass(frozen=True)
class _Choices:
    """What a node fixes: build options by turn, (lo, hi) facilities owned after a turn,
    character items (stream indices) housed or not, and (lo, hi) the turns a housed item is
    first housed in."""

    fixed: tuple = ()
    owned: tuple = ()
    housed: tuple = ()
    windows: tuple = ()
    residents: tuple = ()
    """() or (lo, hi): the residents the year houses in all."""
    festivals: tuple = ()
    """((F, lo, hi), ...): the residents the year houses by the end of festival turn F."""
    chits: tuple = ()
    """((t, d, has), ...): district d holds a chit after turn t (has) or none."""

    def year(self, instance: Instance, base: _Year | None = None) -> _Year:
        """The relaxation's data for these choices (``base``: the whole year's, shared)."""
        choices = (dict(self.fixed), dict(self.owned), dict(self.housed), dict(self.windows),
                   self.residents or None, self.festivals,
                   {(t, d): has for t, d, has in self.chits})
        return _Year(instance, *choices) if base is None else base.with_choices(*choices)

    @property
    def size(self) -> int:
        return (len(self.fixed) + len(self.owned) + len(self.housed) + len(self.windows)
                + bool(self.residents) + len(self.festivals) + len(self.chits))


@dataclass(order=True)
class _Node:
    """An open node. ``done``: its bound is column generation's; otherwise it is the parent's
    multipliers' (one evaluation) and ``known`` holds the columns its column generation starts
    with, run when the node reaches the top."""

    key: float  # -bound, for the heap
    choices: _Choices = field(compare=False)
    result: BoundResult = field(compare=False, repr=False)
    done: bool = field(compare=False, default=True)
    known: list = field(compare=False, repr=False, default_factory=list)
    master: Master | None = field(compare=False, repr=False, default=None)
    """A paused node's master, kept to go on with (see ``KEPT``); its columns are the node's
    ``known`` once it is dropped."""

    @property
    def bound(self) -> float:
        return -self.key


Keep = Callable[[str, Column], bool]
"""Whether a parent's column (side, column) makes a child's choices."""


@noting()
def branch_bound(instance: Instance, time_limit: float | None = 30.0,
                 max_nodes: int | None = None, target: int | None = None,
                 root: BoundResult | None = None,
                 on_bound: Callable[[float], None] | None = None,
                 incumbent: Callable[[], int] | None = None,
                 stop: Callable[[], bool] | None = None) -> BranchResult:
    """Lower the proven upper bound of ``instance``'s year by branching on the builds (see the
    module docstring). ``target``: the VP of a known plan (nodes whose bound rounds down to at
    most it are pruned; the search stops when every node is: the plan is optimal); ``root``: a
    column-generation bound of the whole year already computed (its columns start the
    children, its multipliers price them: its bound and multipliers must be finite, else a
    :class:`LumicoreError` names the field); ``on_bound``: called with the proven bound each
    time it falls (a progress line); ``incumbent``: the VP of the best plan known, read
    between nodes, for a search that runs beside a planner whose plans improve
    (:mod:`solvers.lemuria.beside`): nodes are pruned against the larger of it and
    ``target``; ``stop``: read between nodes, True ends the search (status "limit"). Ctrl-C
    stops the search with the bound proven so far.

    Years the relaxation does not follow (see :func:`lagrangian_bound`'s fallback) are not
    branched: the bound is the whole year's."""
    check_instance(instance)
    for name, callback in (("on_bound", on_bound), ("incumbent", incumbent), ("stop", stop)):
        check_callback(callback, name)
    instance.check_nothing_present("branch_bound")
    if target is not None:
        target = check_int(target, "target", what="a whole number of VP")
    _check_root(instance, root)
    search = _Search(instance, time_limit, max_nodes, on_bound, stop, target,
                     incumbent)  # checks the limits
    try:
        if root is None or root.method != "columns" or not root.columns:
            root = lagrangian_bound(instance, time_limit=time_limit)
        search.budget.spend()
        search.last = root.value
        if not root.columns:  # the fallback bound: nothing to branch on
            return search.result(root.value, root.value, "exhausted")
        heap = [_Node(-root.value, _Choices(), root)]
        best = root.value
        while heap and heap[0].bound >= (floor := search.floor()):
            best = heap[0].bound
            if search.out_of_limits():
                return search.result(best, root.value, "limit", heap)
            node = heapq.heappop(heap)
            if not node.done:  # its column generation, now that it is the top
                node = search.settle(node, max(floor, heap[0].bound if heap else -math.inf))
                if node.bound >= floor:
                    heapq.heappush(heap, node)
                search.record(heap[0].bound if heap else -math.inf)
                continue
            split = _split(node, instance.festivals)
            if not split:
                heapq.heappush(heap, node)
                return search.result(best, root.value, "exhausted", heap)
            if not search.budget.room(len(split)):  # all the children or none: the node stays
                heapq.heappush(heap, node)
                return search.result(best, root.value, "limit", heap)
            for child in search.children(node, split):
                if child.bound >= floor:
                    heapq.heappush(heap, child)
            search.record(heap[0].bound if heap else -math.inf)
        return search.result(-math.inf if not heap else heap[0].bound, root.value,
                             "proven" if search.vp() is not None else "exhausted", heap)
    except KeyboardInterrupt:  # at the first step too: the root's bound, or none (inf)
        if root is not None and not math.isfinite(search.last):
            search.last = root.value
        return search.result(search.last, search.last if root is None else root.value,
                             "interrupted")


def _check_root(instance: Instance, root: object) -> None:
    """A LumicoreError naming the field unless ``root`` is None or a :class:`BoundResult` whose
    bound is a finite number and whose multipliers (they price the children in the kernel,
    :mod:`lumicore.lemuria.kernel`) are finite numbers shaped for ``instance``'s year: ``mu``
    (4, T), ``lam`` (T, 4), ``fest`` (T,). A root that is not used (no columns, or another
    method: the root's bound is computed anew) is not looked into."""
    if root is None:
        return
    if not isinstance(root, BoundResult):
        raise LumicoreError(f"root must be a BoundResult (lagrangian_bound), got "
                            f"{shorten(root)}")
    if root.method != "columns" or not root.columns:
        return
    check_real(root.value, "root.value", "a finite bound")
    T = instance.turns
    for name, shape in (("mu", (4, T)), ("lam", (T, 4)), ("fest", (T,))):
        check_array(getattr(root, name), f"root.{name}", shape)


def _split(node: _Node, festivals: tuple[int, ...] = ()) -> list[tuple[_Choices, Keep]]:
    """The children of a node: one per option of the turn whose build options the master mixes
    most; else two, by the facilities owned after a turn, split at the master's mean, where
    the split is nearest to even; else two, by the residents housed in all, split at the
    master's mean; else two, by the residents housed by the end of a festival turn
    (``festivals``; a node counts by at most ``COUNTED`` of them), split at
    the master's mean where it is nearest to even; else two, by housing the character item
    the master houses most nearly half of the time; else by the turn an item is first housed
    in (:func:`_split_turns`); else two, by whether a district holds a chit after a turn
    (:func:`_split_chits`); else none (the master mixes nothing a choice can split)."""
    building = _weighted(node, "building")
    characters = _weighted(node, "characters")
    c = node.choices
    fixed, owned, housed = dict(c.fixed), dict(c.owned), dict(c.housed)
    options: dict[int, dict[int, float]] = {}
    for w, plan in building:
        for t, option in enumerate(plan.option, start=1):
            share = options.setdefault(t, defaultdict(float))
            share[int(option)] += w
    mixed = [(max(share.values()), t) for t, share in options.items()
             if t not in fixed and max(share.values()) < 1 - MIXED]
    if mixed:
        turn = min(mixed)[1]
        return [(replace(c, fixed=c.fixed + ((turn, o),)), _keeps_option(turn, o))
                for o in OPTIONS]
    below = [(even[0], t, even[1]) for t in options
             if (even := _even_cut([(w, plan.owned[t - 1]) for w, plan in building]))]
    if below:
        _, turn, cut = min(below)
        lo, hi = owned.get(turn, (0, CHITS))
        return [(replace(c, owned=_set(owned, turn, (lo, cut))), _keeps_owned(turn, lo, cut)),
                (replace(c, owned=_set(owned, turn, (cut + 1, hi))),
                 _keeps_owned(turn, cut + 1, hi))]
    total = _even_cut([(w, int(plan.housed.sum())) for w, plan in characters])
    if total:
        turns = characters[0][1].housed.shape[0]  # at most one housing a turn
        lo, hi = c.residents or (0, turns)
        cut = total[1]
        return [(replace(c, residents=(lo, cut)), _keeps_residents(lo, cut)),
                (replace(c, residents=(cut + 1, hi)), _keeps_residents(cut + 1, hi))]
    festival = _split_festival(c, characters, festivals)
    if festival:
        return festival
    share = defaultdict(float)
    for w, plan in characters:
        for item in plan.items:
            share[item] += w
    frac = [(abs(v - 0.5), i) for i, v in share.items()
            if i not in housed and MIXED < v < 1 - MIXED]
    if frac:
        item = min(frac)[1]
        return [(replace(c, housed=c.housed + ((item, must),)), _keeps_item(item, must))
                for must in (True, False)]
    return _split_turns(c, characters) or _split_chits(c, building)


def _split_chits(c: _Choices, building: list[tuple[float, Any]]
                 ) -> list[tuple[_Choices, Keep]]:
    """Two children by whether a district holds a chit after a turn, where the master's
    building plans are nearest to evenly split; none if they agree on every chit."""
    chosen = {(t, d) for t, d, _has in c.chits}
    turns = building[0][1].chits.shape[0] if building else 0
    splits = []
    for t in range(1, turns + 1):
        for d in range(len(DISTRICTS)):
            share = sum(w for w, plan in building if plan.chits[t - 1] >> d & 1)
            if (t, d) not in chosen and MIXED < share < 1 - MIXED:
                splits.append((abs(share - 0.5), t, d))
    if not splits:
        return []
    _, t, d = min(splits)
    return [(replace(c, chits=c.chits + ((t, d, has),)), _keeps_chit(t, d, has))
            for has in (True, False)]


def _split_festival(c: _Choices, characters: list[tuple[float, Any]],
                    festivals: tuple[int, ...]) -> list[tuple[_Choices, Keep]]:
    """Two children by the residents housed by the end of a festival turn (not the last
    turn: that is the residents housed in all; a node counts by at most ``COUNTED``
    festivals), split at the master's mean where it is nearest to even; none if the master
    does not mix such a count."""
    if not characters:
        return []
    turns = characters[0][1].housed.shape[0]
    counted = {f: (lo, hi) for f, lo, hi in c.festivals}
    allowed = (list(counted) if len(counted) >= COUNTED
               else [f for f in festivals if f < turns])
    splits = [(even[0], f, even[1]) for f in allowed
              if (even := _even_cut([(w, int(plan.housed[:f].sum())) for w, plan in characters]))]
    if not splits:
        return []
    _, f, cut = min(splits)
    lo, hi = counted.get(f, (0, turns))
    return [(replace(c, festivals=_counting(counted, f, lo, cut)), _keeps_festival(f, lo, cut)),
            (replace(c, festivals=_counting(counted, f, cut + 1, hi)),
             _keeps_festival(f, cut + 1, hi))]


def _counting(counted: dict[int, tuple[int, int]], f: int, lo: int, hi: int) -> tuple:
    """The festival counts of a child: ``counted`` with lo..hi residents by the end of f."""
    return tuple((turn, a, b) for turn, (a, b) in sorted({**counted, f: (lo, hi)}.items()))


def _keeps_festival(turn: int, lo: int, hi: int) -> Keep:
    return (lambda side, column: side != "characters"
            or lo <= column.plan.housed[:turn].sum() <= hi)


def _split_turns(c: _Choices, characters: list[tuple[float, Any]]
                 ) -> list[tuple[_Choices, Keep]]:
    """Two children by the turn a character item the master always houses is first housed
    in, split where the weights are nearest to even (three where the node does not yet fix
    that the item is housed: the years that do not house it are the third); none if no
    item's turn is mixed."""
    if not characters:
        return []
    housed, windows = dict(c.housed), dict(c.windows)
    always = set.intersection(*(set(plan.turns) for _w, plan in characters))
    splits = [(even[0], item, even[1]) for item in always if housed.get(item) is not False
              and (even := _even_cut([(w, plan.turns[item]) for w, plan in characters]))]
    if not splits:
        return []
    _, item, cut = min(splits)
    lo, hi = windows.get(item, (1, characters[0][1].housed.shape[0]))
    must = c if housed.get(item) else replace(c, housed=c.housed + ((item, True),))
    out = [(replace(must, windows=_set(windows, item, (lo, cut))), _keeps_turns(item, lo, cut)),
           (replace(must, windows=_set(windows, item, (cut + 1, hi))),
            _keeps_turns(item, cut + 1, hi))]
    if item not in housed:
        out.append((replace(c, housed=c.housed + ((item, False),)), _keeps_item(item, False)))
    return out


KEPT = 64
"""The most paused nodes that keep their master LP between visits (warm, with its columns);
the others build it anew from their columns when they are the top again."""

PAUSE = 0.01
"""A node's column generation pauses once its bound is this far under the next node's (each
pause lowers it by at least this, so the search never returns to a node without progress)."""

MIXED = 1e-6
"""Weights within this of 0 or 1 count as whole."""

COUNTED = 2
"""The most festivals a node counts the residents housed by (the program of the cards held
has a state for each combination of the counts: two festivals square the count's)."""


def _even_cut(values: list[tuple[float, float]]) -> tuple[float, int] | None:
    """Where to split weighted ``values`` (weights summing to 1) in two, ``<= cut`` and
    ``> cut``, with the cut at their mean: (how far the weight below is from half, cut), or
    None if all of it lies on one side."""
    cut = math.floor(sum(w * v for w, v in values) - MIXED)
    left = sum(w for w, v in values if v <= cut)
    return (abs(left - 0.5), cut) if MIXED < left < 1 - MIXED else None


def _weighted(node: _Node, side: str) -> list[tuple[float, Any]]:
    return [(w, column.plan) for (s, column), w in
            zip(node.result.columns, node.result.weights, strict=False) if s == side and w > MIXED]


def _set(pairs: dict, key: int, value: tuple) -> tuple:
    return tuple(sorted({**pairs, key: value}.items()))


def _keeps_option(turn: int, option: int) -> Keep:
    return lambda side, column: side != "building" or column.plan.option[turn - 1] == option


def _keeps_owned(turn: int, lo: int, hi: int) -> Keep:
    return lambda side, column: side != "building" or lo <= column.plan.owned[turn - 1] <= hi


def _keeps_chit(turn: int, district: int, has: bool) -> Keep:
    return (lambda side, column: side != "building"
            or bool(column.plan.chits[turn - 1] >> district & 1) == has)


def _keeps_item(item: int, must: bool) -> Keep:
    return lambda side, column: side != "characters" or (item in column.plan.items) == must


def _keeps_residents(lo: int, hi: int) -> Keep:
    return lambda side, column: side != "characters" or lo <= column.plan.housed.sum() <= hi


def _keeps_turns(item: int, lo: int, hi: int) -> Keep:
    return lambda side, column: side != "characters" or lo <= column.plan.turns.get(item, 0) <= hi


def _node_bound(instance: Instance, choices: _Choices, known: list,
                time_limit: float | None, base: _Year | None = None,
                start: BoundResult | None = None, target: float = -math.inf) -> BoundResult:
    """The bound of the years that make ``choices``, by column generation started with
    ``known`` columns (which must make them) and, if given, the bound ``start`` of some
    multipliers (column generation smooths towards them); it stops early once the bound is at
    most ``target``."""
    return _node_columns(instance, choices, known, time_limit, base, start, target)[0]


def _node_columns(instance: Instance, choices: _Choices, known: list,
                  time_limit: float | None, base: _Year | None = None,
                  start: BoundResult | None = None, target: float = -math.inf,
                  master: Master | None = None) -> tuple[BoundResult, Master]:
    """:func:`_node_bound` and its master; given a ``master`` of these choices, column
    generation goes on with it instead of a master built from ``known``."""
    result = BoundResult(math.inf, math.inf, 0, 0.0)
    if start is not None:
        result.value, result.mu, result.lam, result.fest = (start.value, start.mu, start.lam,
                                                            start.fest)
    master = _columns(choices.year(instance, base), target, time_limit, 300,
                      time.perf_counter(), result, known, master)
    return result, master


def _first_bound(year: _Year, parent: BoundResult) -> tuple[BoundResult, list]:
    """The bound of ``year``'s years at the parent's multipliers (one evaluation) and the two
    relaxed years it finds, as columns."""
    value, build, chars = _price(year, parent.mu, parent.lam, parent.fest)
    result = BoundResult(math.inf, math.inf, 0, 0.0)
    _keep(result, value, parent.mu, parent.lam, parent.fest)  # -inf: a choice no year makes
    return result, [("building", build), ("characters", chars)]


def _drop_master(node: _Node) -> None:
    """Free a paused node's master: the node keeps its columns, to build it anew from."""
    master = node.master
    assert master is not None  # a paused node has its master
    node.known, node.master = list(master.added[EMPTY:]), None


class _Search:
    """The counters and limits of one search, and the children of a node."""

    def __init__(self, instance: Instance, time_limit: float | None,
                 max_nodes: int | None, on_bound: Callable[[float], None] | None = None,
                 stop: Callable[[], bool] | None = None, known: int | None = None,
                 incumbent: Callable[[], int] | None = None) -> None:
        self.instance = instance
        self.on_bound = on_bound
        self.stop = stop
        self.known = known
        self.incumbent = incumbent
        self.base: _Year | None = None
        self.kept: dict[int, _Node] = {}
        """Paused nodes holding their masters, oldest first (at most ``KEPT``)."""
        self.budget = Budget(max_nodes, time_limit, check_every=1)
        self.depth = 0
        self.last = math.inf
        self.history: list[tuple[float, float]] = []

    def out_of_limits(self) -> bool:
        return (self.budget.exhausted or self.budget.out_of_time()
                or (self.stop is not None and self.stop()))

    def vp(self) -> int | None:
        """The best plan's VP known (the target's or the incumbent's), None if neither."""
        known = [v for v in (self.known, self.incumbent and self.incumbent()) if v is not None]
        return max(known) if known else None

    def floor(self) -> float:
        """Nodes whose bound is below this are no better than the best plan: pruned."""
        vp = self.vp()
        return -math.inf if vp is None else vp + 1 - 1e-6

    def children(self, node: _Node, split: list[tuple[_Choices, Keep]]) -> list[_Node]:
        """A node for each choice, bounded at the parent's multipliers; its column generation
        waits until it reaches the top (most children never do), its master started with the
        parent's columns that make it."""
        if self.base is None:
            self.base = _Year(self.instance)
        out = []
        for choices, keep in split:
            known = [(side, column) for side, column in node.result.columns[EMPTY:]
                     if keep(side, column)]
            result, found = _first_bound(choices.year(self.instance, self.base), node.result)
            self.budget.spend()
            if math.isfinite(result.value):  # its years are among the parent's
                out.append(_Node(-min(result.value, node.bound), choices, result, False,
                                 known + found))
        self.depth = max(self.depth, node.choices.size + 1)
        return out

    def settle(self, node: _Node, below: float) -> _Node:
        """The node with its bound by column generation (capped by the bound it had). Once
        the bound is under ``below`` (the next node's, or the target's) the node is no longer
        the top: column generation pauses there, and the node keeps its columns to go on
        from when it is the top again."""
        limit = self.budget.time_limit
        left = None if limit is None else max(0.0, limit - self.budget.elapsed)
        self.kept.pop(id(node), None)
        result, master = _node_columns(self.instance, node.choices, node.known, left,
                                       self.base, node.result, below - PAUSE, node.master)
        paused = result.value < below - PAUSE + 1e-6 and result.value - result.floor >= CONVERGED
        settled = _Node(-min(result.value, node.bound), node.choices, result, not paused,
                        master=master if paused else None)
        if paused:
            self.kept[id(settled)] = settled
            if len(self.kept) > KEPT:
                _drop_master(self.kept.pop(next(iter(self.kept))))
        return settled

    def record(self, top: float) -> None:
        if top < self.last:
            self.last = top
            self.history.append((self.budget.elapsed, top))
            if self.on_bound is not None and math.isfinite(top):
                self.on_bound(top)

    def result(self, bound: float, root: float, status: str,
               heap: list[_Node] | None = None) -> BranchResult:
        target = self.vp()
        if target is not None and bound < math.inf:  # inf: no bound yet (Ctrl-C at once)
            bound = float(target) if bound <= target else float(math.floor(bound + 1e-6))
        return BranchResult(bound, root, status, self.budget.nodes, len(heap or []),
                            self.depth, self.budget.elapsed, self.history)
