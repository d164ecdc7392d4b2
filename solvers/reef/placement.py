"""Optimal placement of a hand of Luminos in a Lumicora reef.

:func:`best_placement` tries every way to place a hand of 1 to 3 Luminos: every order, every legal
placement of each tile (paying limestone as it goes), and returning any tile to the bag instead
(-1 VP each, rule 5). It returns the plan that maximises::

    value = objective(final reef) - (number of tiles returned to the bag)
            + limestone_value * (limestone markers left)

(``limestone_value`` is 0 unless given: 0.5 prices a marker as the final scoring does, 1 VP per
pair) and among plans of equal value the one that keeps the most limestone (then the first
found).

Objectives (``objective=``):

====================== ========================================================================
``"coral:<colour>"``   what a coral scoring of that colour would give now
``"visible:<colour>"`` visible spaces of that colour
``"animals:dark"``     animal VP on the dark score board (visible counts, capped at 4)
``"animals:light"``    animal VP on the light score board (each animal by its neighbours)
``"remote"``           minus the VP lost for visible remote spaces (B side; 0 on side A)
``"final:dark"``       this reef's own final-scoring value: ``animals:dark + remote`` plus
                       :data:`VISIBLE_WEIGHT` (0.25 VP) per visible coral space of any colour
``"final:light"``      the same with ``animals:light``
a ``dict``             a weighted sum: ``{"coral:pink": 1, "final:dark": 0.5}``; see
                       :func:`weighted`
an :class:`Objective`  e.g. ``weighted({...})``; evaluates ``reef -> float`` too
any callable           ``Reef -> float``: searched in Python (no pruning, slower)
====================== ========================================================================

The visible-space weight stands in for the colour majorities, which depend on the other players'
reefs: 0.25 VP per space (a majority is worth 2 to 4 VP and is usually decided by a few spaces).
Jellyfish do not depend on where tiles go, so no objective includes them; limestone is not part
of a reef, so it enters through ``limestone_value`` and the tie-break.

How the search is exhaustive and still fast (all in the Cython kernel, ``lumicore.reef.kernel``):

- *Merging.* Every node is keyed by the multiset of actions taken so far (tile, cells, level, or
  "returned"); two orders that build the same reef with the same tiles left meet at the same key
  and the second is not searched again (a 64-bit Zobrist-style sum; a collision, odds about
  ``nodes**2 / 2**64``, could hide a node). This covers duplicate final reefs too.
- *Bounds* (only when every weight is >= 0). At each inner node the search computes a value
  that no plan below can beat and cuts the node when the best plan found is at least as good
  (equal value and no less limestone). The bound is the weighted sum of per-feature bounds that
  hold whatever subset of the tiles left is placed, minus the tiles returned so far:

  - coral of ``c``: for every existing level its *largest* visible ``c`` number (the minimum can
    only rise to one of them, or drop), plus the number of every ``c`` tile left (a new tile
    sets the minimum of at most the one level it lies in);
  - visible spaces of ``c``: +2 per ``c`` tile left (other tiles only cover spaces);
  - dark animals: the table at (visible count + tiles left with that animal), capped at 4;
  - light animals: current points, plus what the visible animals can gain when the tiles left
    change ``2 * tiles left`` cells (an animal's score depends only on its neighbours, each
    changed neighbour moves its count by one, shellfish never gain: water only gets covered;
    the smaller of all those gains and the gains next to the best ``2 * tiles left`` cells),
    plus the best score of the species of every animal left (shellfish 2, crab 3, seahorse 7,
    starfish 4);
  - remote: minus the visible penalties left after the largest ``2 * tiles left`` are covered.

  Since each is a true upper bound, pruning never loses the optimum (``prune=False`` turns it
  off; the tests check both give the same value and limestone).

>>> from lumicore.reef import Reef, load_board
>>> reef = Reef.new(load_board("A"), start=("pink", "green"))
>>> result = best_placement(reef, "pink 3 crab, pink 1", limestone=2, objective="coral:pink")
>>> result.value, result.status, len(result.placements), result.discarded
(4.0, 'optimal', 2, ())
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from lumicore.checks import check_bool, check_real
from lumicore.data import shorten
from lumicore.errors import LumicoreError
from lumicore.reef import kernel
from lumicore.reef.reef import HandPlacement, Placement, Reef
from lumicore.reef.scoring import DISCARD_VP, LIMESTONE_CAP, VISIBLE_WEIGHT
from lumicore.reef.tiles import COLORS, Lumino, parse_hand
from solvers.ctrl_c import check, noting, pressed
from solvers.limits import INTERRUPTED, LIMIT, OPTIMAL, Budget, check_limits
from solvers.progress import check_callback

__all__ = [
    "VISIBLE_WEIGHT",
    "OBJECTIVES",
    "Objective",
    "weighted",
    "as_objective",
    "PlacementResult",
    "best_placement",
]

DISCARD_COST = float(-DISCARD_VP)
"""VP lost per Lumino returned to the bag (rule 5)."""


def _unit(name: str) -> tuple[float, ...]:
    return tuple(1.0 if f == name else 0.0 for f in kernel.FEATURES)


def _final(board: str) -> tuple[float, ...]:
    w = dict.fromkeys(kernel.FEATURES, 0.0)
    w[f"animals:{board}"] = 1.0
    w["remote"] = 1.0
    for color in COLORS:
        w[f"visible:{color}"] = VISIBLE_WEIGHT
    return tuple(w.values())


OBJECTIVES: dict[str, tuple[float, ...]] = {
    **{name: _unit(name) for name in kernel.FEATURES},
    "final:dark": _final("dark"),
    "final:light": _final("light"),
}
"""The built-in objectives: name -> weights over ``lumicore.reef.kernel.FEATURES``."""


@dataclass(frozen=True)
class Objective:
    """A weighted sum of the reef features ``lumicore.reef.kernel.FEATURES``; call it on a reef.

    >>> from lumicore.reef import Reef, load_board
    >>> reef = Reef.new(load_board("B"), start=("pink", "green"))
    >>> as_objective("final:dark")(reef)   # 2 visible spaces * 0.25, 12 VP of remote penalties
    -11.5
    """

    weights: tuple[float, ...]
    name: str = "custom"

    def __post_init__(self) -> None:
        weights = self.weights
        if not isinstance(weights, Sequence) or len(weights) != len(kernel.FEATURES) or not all(
            _is_finite(w) and abs(w) <= kernel.MAX_PRICE for w in weights
        ):
            raise LumicoreError(f"an objective has {len(kernel.FEATURES)} finite weights from "
                                "-1e9 to 1e9")
        object.__setattr__(self, "weights", tuple(float(w) for w in weights))

    def __call__(self, reef: Reef) -> float:
        return _dot(self.weights, kernel.state(reef).features())

    @property
    def prunable(self) -> bool:
        """Whether the search bounds apply (every weight >= 0)."""
        return all(w >= 0 for w in self.weights)

    def __str__(self) -> str:
        return self.name


def _is_finite(value: object) -> bool:
    """Whether ``value`` is a finite real number (numpy's too; bool is none here)."""
    try:
        check_real(value, "weight")
    except LumicoreError:
        return False
    return True


def _dot(weights: Sequence[float], values: Sequence[float]) -> float:
    return float(sum(w * v for w, v in zip(weights, values, strict=True)))


def weighted(terms: Mapping[str | Objective, float], name: str | None = None) -> Objective:
    """The weighted sum of built-in objectives (names or :class:`Objective` s).

    >>> weighted({"coral:pink": 1, "final:dark": 0.5}).weights[:5]
    (1.0, 0.0, 0.0, 0.0, 0.125)
    """
    if not isinstance(terms, Mapping):
        raise LumicoreError(f"weighted() takes a {{objective: weight}} dict, got {terms!r:.80}")
    total = [0.0] * len(kernel.FEATURES)
    for term, factor in terms.items():
        if not _is_finite(factor):
            raise LumicoreError(f"bad weight {shorten(factor)} for {shorten(term)}")
        for i, w in enumerate(as_objective(term).weights):
            total[i] += factor * w
    label = name or " + ".join(f"{factor:g}*{term}" for term, factor in terms.items())
    for feature, w in zip(kernel.FEATURES, total, strict=True):
        if not math.isfinite(w):
            raise LumicoreError(f"objective {shorten(label)}: its weights add up to {w} for "
                                f"{feature}, beyond the floating-point range")
    for feature, w in zip(kernel.FEATURES, total, strict=True):
        if abs(w) > kernel.MAX_PRICE:  # finite, but its product with a feature may not be
            raise LumicoreError(f"objective {shorten(label)}: its weights add up to {w:g} for "
                                f"{feature}; a weight is {kernel.PRICE_RANGE}")
    return Objective(tuple(total), label)


def as_objective(objective: str | Mapping | Objective) -> Objective:
    """A built-in name, a ``{name: weight}`` dict or an :class:`Objective`, as an Objective."""
    if isinstance(objective, Objective):
        return objective
    if isinstance(objective, Mapping):
        return weighted(objective)
    if isinstance(objective, str) and objective in OBJECTIVES:
        return Objective(OBJECTIVES[objective], objective)
    raise LumicoreError(
        f"unknown objective {shorten(objective)}: expected one of {', '.join(OBJECTIVES)}, a "
        "dict of them with weights, or a callable Reef -> float"
    )


@dataclass(frozen=True)
class PlacementResult:
    """What :func:`best_placement` found.

    - ``placements``: the placements to make, in this order (each legal on the reef the previous
      ones leave, paid from the limestone left);
    - ``discarded``: the Luminos returned to the bag (-1 VP each);
    - ``value``: ``objective(reef) - len(discarded) + limestone_value * limestone``;
    - ``limestone``: markers left after paying;
    - ``reef``: the reef after the placements;
    - ``status``: ``"optimal"`` (proven best: the search was exhaustive), ``"limit"`` (a node or
      time limit stopped it) or ``"interrupted"`` (Ctrl-C stopped it); when stopped, the plan is
      the best found so far, still legal (every tile returned if none was complete);
    - ``nodes`` (placements and returns tried), ``merged`` (nodes skipped as transpositions),
      ``pruned`` (subtrees cut by the bound), ``elapsed`` (seconds), ``objective`` (its name).
    """

    placements: tuple[Placement, ...]
    discarded: tuple[Lumino, ...]
    value: float
    limestone: int
    reef: Reef = field(repr=False)
    status: str
    nodes: int
    merged: int
    pruned: int
    elapsed: float
    objective: str

    @property
    def optimal(self) -> bool:
        return self.status == OPTIMAL

    def _repr_svg_(self) -> str:
        from lumicore.reef.render import svg

        n = len(self.reef.pieces)
        placed = range(n - len(self.placements), n)
        returned = f", {len(self.discarded)} returned to the bag" if self.discarded else ""
        return svg(self.reef, placed=placed,
                   caption=f"best placement for {self.objective}: value {self.value:g} "
                           f"({self.status}){returned}")

    def as_dict(self) -> dict:
        """Plain JSON data: the plan, value, status and counts (the reef as a reef file)."""
        from lumicore.reef import io

        return {
            "objective": self.objective, "value": self.value, "status": self.status,
            "limestone": self.limestone,
            "placements": [{"lumino": str(p.lumino), "number_cell": list(p.number_cell),
                            "other_cell": list(p.other_cell), "level": p.level, "cost": p.cost}
                           for p in self.placements],
            "discarded": [str(t) for t in self.discarded],
            "nodes": self.nodes, "merged": self.merged, "pruned": self.pruned,
            "elapsed": self.elapsed, "reef": io.to_json(self.reef),
        }

    def __str__(self) -> str:
        lines = [f"best placement for {self.objective}: value {self.value:g} ({self.status}), "
                 f"limestone left {self.limestone}"]
        for k, p in enumerate(self.placements, start=1):
            lines.append(f"  {k}. {p.lumino}: number on {p.number_cell}, other half on "
                         f"{p.other_cell}, level {p.level}, cost {p.cost}")
        lines.extend(f"  return {lumino} to the bag (-1 VP)" for lumino in self.discarded)
        lines.append(f"  {self.nodes} nodes, {self.merged} merged, {self.pruned} pruned, "
                     f"{self.elapsed * 1000:.1f} ms")
        return "\n".join(lines)


def best_placement(
    reef: Reef,
    hand: Sequence[Lumino] | str,
    limestone: int,
    objective: str | Mapping | Objective | Callable[[Reef], float] = "final:dark",
    *,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    prune: bool = True,
    limestone_value: float = 0.0,
    progress: Callable[[int, float], object] | None = None,
) -> PlacementResult:
    """The best way to place ``hand`` (1 to 3 Luminos, or their notation ``"pink 3 crab, blue
    5"``) into ``reef`` with ``limestone`` markers (0 to 10, what storage holds), for
    ``objective`` (see the module doc).

    Exhaustive: tries every order, every legal placement and every return to the bag, merging
    transpositions and (for built-in objectives with weights >= 0, unless ``prune=False``)
    pruning by the bounds of the module doc. ``max_nodes`` / ``time_limit`` (seconds) stop it
    early with status ``"limit"``, Ctrl-C with ``"interrupted"`` (the kernel looks for it every
    few milliseconds); either way the result holds the best plan found so far.
    ``limestone_value``: VP per limestone marker left (default 0; limestone left always breaks
    ties). ``progress(nodes, elapsed)`` is called every 32,768 nodes (a progress line; for a
    callable ``objective``, whose search walks the tree in Python, every 256); should it
    raise, the search stops (``KeyboardInterrupt``: status ``"interrupted"``; anything else is
    raised). Returns a :class:`PlacementResult`.

    >>> from lumicore.reef import Reef, load_board
    >>> reef = Reef.new(load_board("A"), start=("blue", "yellow"))
    >>> r = best_placement(reef, "blue 2 seahorse, blue 5 seahorse", 0, "animals:dark")
    >>> r.value, [str(p.lumino) for p in r.placements]   # two seahorses: 6 VP
    (6.0, ['blue 2 seahorse', 'blue 5 seahorse'])
    """
    check_limits(max_nodes, time_limit)
    if not isinstance(reef, Reef):
        raise LumicoreError(f"expected a Reef, got {reef!r}")
    if not isinstance(hand, (str, Sequence)) or isinstance(hand, (bytes, bytearray)):
        raise LumicoreError(f"hand must be Luminos or their notation, got {shorten(hand)}")
    tiles = parse_hand(hand) if isinstance(hand, str) else tuple(hand)
    if not 1 <= len(tiles) <= 3:
        raise LumicoreError(f"a hand has 1 to 3 Luminos, got {len(tiles)}")
    for lumino in tiles:
        kernel.tile_codes(lumino)
    limestone = kernel.check_limestone(limestone)
    if limestone > LIMESTONE_CAP:  # no storage holds more: the CLI refused it, this did not
        raise LumicoreError(f"limestone {limestone}: storage holds 0..{LIMESTONE_CAP}")
    limestone_value = kernel.check_price(limestone_value, "limestone_value")
    prune = check_bool(prune, "prune")
    check_callback(progress)
    if max(reef.heights) + len(tiles) > kernel.MAX_HEIGHT + 1:
        raise LumicoreError(f"reef is {max(reef.heights)} levels high: the search takes reefs up "
                            f"to {kernel.MAX_HEIGHT + 1 - len(tiles)} levels (a game reaches 105)")
    kinds = list(dict.fromkeys(tiles))
    counts = [tiles.count(k) for k in kinds]
    if callable(objective) and not isinstance(objective, Objective):
        return _search_python(reef, kinds, counts, limestone, objective, max_nodes, time_limit,
                              limestone_value, progress)
    goal = as_objective(objective)
    poll = pressed if progress is None else _reporting(progress)
    # Ctrl-C from here to the result is noted, not raised: the kernel reads it (poll), and a
    # press just before or after the kernel's search, while its plan is replayed, still gives
    # the result, "interrupted" (it escaped as KeyboardInterrupt there)
    with noting(raising=False):
        start = kernel.state(reef)
        found = kernel.search_hand(
            start, kinds, counts, limestone, goal.weights, limestone_value=limestone_value,
            prune=prune and goal.prunable and limestone_value >= 0,
            # check_limits takes a whole float (100.0); the kernel door takes integers only
            max_nodes=None if max_nodes is None else int(max_nodes),
            time_limit=time_limit, poll=poll,
        )
        if found["found"]:
            actions = [(kinds[k], a, b) for k, a, b in found["plan"]]
        else:  # stopped before the first complete plan: return everything
            actions = [(lumino, -1, -1) for lumino in tiles]
        status = OPTIMAL if found["complete"] else LIMIT
        result = _result(reef, actions, limestone, goal, str(goal), limestone_value,
                         found["nodes"], found["merged"], found["pruned"], status,
                         found["elapsed"])
        if found["interrupted"] or pressed():
            result = replace(result, status=INTERRUPTED)
        return result


def _reporting(progress: Callable[[int, float], object]) -> Callable[[], bool]:
    """The kernel search's poll (called every :data:`lumicore.reef.kernel.POLL_NODES` nodes) that
    calls ``progress(nodes, elapsed)``, then says whether Ctrl-C was pressed."""
    clock, polls = time.perf_counter(), [0]

    def poll() -> bool:
        polls[0] += 1
        progress(polls[0] * kernel.POLL_NODES, time.perf_counter() - clock)
        return pressed()
    return poll


def _score(goal: Callable[[Reef], float], reef: Reef) -> float:
    """``goal(reef)`` as a float; a LumicoreError when it is not a finite number (a user's
    objective that returns NaN would make every comparison of the search false)."""
    value = goal(reef)
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = math.nan
    if not math.isfinite(number):
        raise LumicoreError(f"the objective must return a finite number for every reef, "
                            f"got {shorten(value)}")
    return number


def _result(reef: Reef, actions, limestone: int, goal: Callable[[Reef], float], name: str,
            limestone_value: float, nodes: int, merged: int, pruned: int, status: str,
            elapsed: float) -> PlacementResult:
    """Replay ``actions`` ((lumino, number cell, other cell), cell -1 = returned) through
    ``Reef.place`` (so every plan is checked by the rules) and build the result."""
    placed = HandPlacement(reef, limestone, (), ()).then(actions)
    value = (_score(goal, placed.reef) - DISCARD_COST * len(placed.returned)
             + limestone_value * placed.limestone)
    return PlacementResult(placed.placements, placed.returned, value, placed.limestone,
                           placed.reef, status, nodes, merged, pruned, elapsed, name)


def _search_python(reef: Reef, kinds: list[Lumino], counts: list[int], limestone: int,
                   goal: Callable[[Reef], float], max_nodes: int | None,
                   time_limit: float | None, limestone_value: float,
                   progress: Callable[[int, float], object] | None = None) -> PlacementResult:
    """The same search for any callable objective: kernel move generation, Python tree walk,
    merging by the multiset of actions, no bounds (nothing is known about the callable).
    Ctrl-C (``KeyboardInterrupt``) stops it with the best plan so far; a press while that plan
    is replayed and scored is noted, not raised, and makes the result "interrupted"."""
    # the clock at every node: each replays a placement in Python and may call a slow objective
    budget = Budget(max_nodes, time_limit, check_every=1)
    seen: set[tuple] = set()
    best: list = [None]      # (value, limestone, actions)
    merged = 0
    index = reef.board.index

    def visit(node: Reef, left: list[int], ls: int, actions: list, done: tuple) -> None:
        nonlocal merged
        check()  # a press whose KeyboardInterrupt Python dropped
        if sum(left) == 0:
            value = (_score(goal, node) - DISCARD_COST * sum(a < 0 for _, a, _ in actions)
                     + limestone_value * ls)
            top = best[0]
            if top is None or value > top[0] + 1e-9 or (value >= top[0] - 1e-9 and ls > top[1]):
                best[0] = (value, ls, list(actions))
            return
        for k, lumino in enumerate(kinds):
            if not left[k]:
                continue
            left[k] -= 1
            options = [(p, index[p.number_cell], index[p.other_cell])
                       for p in kernel.placements(node, lumino, ls)]
            for p, a, b in options + [(None, -1, -1)]:
                key = tuple(sorted(done + ((k, a, b, p.level if p else 0),)))
                if key in seen:
                    merged += 1
                    continue
                seen.add(key)
                if not budget.spend(1):
                    break
                if progress is not None and budget.nodes % 256 == 0:
                    progress(budget.nodes, budget.elapsed)
                actions.append((lumino, a, b))
                child = node if p is None else node.place(p)
                visit(child, left, ls - (p.cost if p else 0), actions, key)
                actions.pop()
            left[k] += 1
            if budget.exhausted:
                return

    with noting():
        try:
            visit(reef, list(counts), limestone, [], ())
            status = LIMIT if budget.exhausted else OPTIMAL
        except KeyboardInterrupt:
            status = INTERRUPTED
        # from here to the result a press is noted, not raised (it escaped as
        # KeyboardInterrupt there): the result is "interrupted", with the best plan found
        with noting(raising=False):
            if best[0] is None:
                actions = [(lumino, -1, -1) for lumino, n in zip(kinds, counts, strict=True)
                           for _ in range(n)]
            else:
                actions = best[0][2]
            name = getattr(goal, "__name__", type(goal).__name__)
            result = _result(reef, actions, limestone, goal, name, limestone_value,
                             budget.nodes, merged, 0, status, budget.elapsed)
            if pressed():
                result = replace(result, status=INTERRUPTED)
            return result
