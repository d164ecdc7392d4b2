"""The year with the altar: CP-SAT decides the material operations too; income is an output.

:class:`HarvestYearModel` extends :class:`solvers.lemuria.model.YearModel` through its
``income`` hook: each turn's income becomes the harvests of the player's material operations
(place a material on a memory or a pedestal, harvest a full memory for free once a turn and
again for 1 gold each), with the altar's rotation, the black cubes and the other players'
materials of an :class:`~lumicore.lemuria.harvests.AltarSetup` as data. Skills are left out
(declined). :func:`build_harvest_schedule` solves it (``build_schedule(..., harvests=True)``
calls it) and checks the plan with :func:`lumicore.lemuria.harvests.replay_harvests`.

The altar per turn t and memory i, at the moment the player acts: ``pm``/``nm`` the player's
plant/mineral materials there, ``op``/``on`` the other players', ``bl`` the black cubes. A
harvest (``hv`` free, ``hx`` paid) empties the memory and yields the player's materials plus
every black cube of the resource the memory shows at that turn's rotation; a placement needs an
empty block and no material of the other type; at the end of the turn a memory with a material
and an empty block takes a black cube; the other players' materials of the next turn follow.
The material operation is mandatory: with a material in front there is always a legal
placement (12 memories, a pedestal), so an operation is made; with none in front a full memory
holding the player's material must be harvested.

CP-SAT's bound is reported (and a plan called optimal) only where the model describes every
legal year: with characters, whose draws the altar's gold and food could pay for beyond the
deck, a plan is "feasible" with no bound.

>>> from lumicore.lemuria import default_instance
>>> plan = build_harvest_schedule(default_instance(seed=1, turns=3), time_limit=10)
>>> plan.status, plan.bound, plan.vp == replay_harvests(default_instance(1, 3), AltarSetup(),
...                                                     plan.turns).total
('feasible', None, True)
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ortools.sat.python import cp_model

from lumicore.checks import check_bool, check_type
from lumicore.data import shorten
from lumicore.errors import IllegalMoveError, LumicoreError
from lumicore.lemuria import Instance, Schedule, TurnPlan, simulate
from lumicore.lemuria.altar import MATERIALS, MEMORIES, MONTHS
from lumicore.lemuria.harvests import (
    ME,
    AltarSetup,
    AltarYear,
    Harvest,
    Pedestal,
    Place,
    replay_harvests,
)
from lumicore.lemuria.instance import check_instance
from lumicore.lemuria.schedule import RESOURCES
from solvers.ctrl_c import noting
from solvers.lemuria.greedy import check_max_builds, greedy_schedule
from solvers.lemuria.model import YearModel, character_draws_bound
from solvers.lemuria.search import Watch, branch_count, solve_watched
from solvers.limits import FEASIBLE, INTERRUPTED, REASON_INTERRUPTED, REASON_TIME, check_limits
from solvers.progress import check_progress

__all__ = ["HarvestYearModel", "greedy_materials", "greedy_harvest_schedule",
           "build_harvest_schedule", "PREFERRED"]

PREFERRED = {"plant": "wood", "mineral": "stone"}
"""The resource the greedy material plan aims each material type at."""
MEM = range(MEMORIES)
MINE = {"plant": "pm", "mineral": "nm"}


class HarvestYearModel(YearModel):
    """:class:`YearModel` whose income is decided by material operations (module docstring)."""

    def __init__(self, instance: Instance, setup: AltarSetup, max_builds: int | None = None
                 ) -> None:
        max_builds = check_max_builds(max_builds)
        self.setup = check_type(setup, AltarSetup, "setup", "a lemuria AltarSetup")
        self._altar_done = False
        super().__init__(instance)
        if max_builds is not None:  # facilities the player may still build (8 in all)
            self.m.add(sum(self.newb.values()) <= max_builds)

    def income_bound(self) -> int:
        # at most 4 memories hold the player's materials, each yields at most its blocks
        return 4 * max(self.setup.card.blocks(i) for i in MEM) * self.inst.turns

    def draws_bound(self) -> int | None:
        # the harvests are the income (the instance's is ignored) and could all be gold or
        # all food: income_bound() of each in the first turn bounds what draws can be paid with
        most = self.income_bound()
        return character_draws_bound(replace(self.inst, income={1: {"gold": most,
                                                                    "food": most}}))

    def income(self, t: int) -> dict:
        if not self._altar_done:
            self._altar()
            self._altar_done = True
        gains: dict[str, Any] = dict(self.gain[t])
        extras = sum(self.hx[t, i] for i in MEM)
        prev = self.level[t - 1]["gold"] if t > 1 else self.inst.start["gold"]
        # paid from the gold held when paying: the gold of the turn's start and of the free
        # harvest (and of the paid harvests before, each paying for itself when it yields
        # gold: those go first). So one gold is needed before the first, and the turn's gold
        # never falls below 0, which the resource levels keep.
        held = prev + self.bonus[t]["commerce"] + self.free_gold[t]
        self.m.add(extras <= MEMORIES * held)
        gains["gold"] = gains["gold"] - extras
        return gains

    # ------------------------------------------------------------------ the altar
    def _altar(self) -> None:
        m, v, setup = self.m, self.v, self.setup
        card = setup.card
        blocks = [card.blocks(i) for i in MEM]
        total = {k: setup.materials[k] + sum(
            mem.owners.count(ME) for mem in setup.start if mem.material == k)
            for k in MATERIALS}
        self.plc = {(t, i, k): v.bool(f"plc{t}_{i}_{k}") for t in self.turns for i in MEM
                    for k in MATERIALS}
        self.ped = {(t, k): v.bool(f"ped{t}_{k}") for t in self.turns for k in MATERIALS}
        self.hv = {(t, i): v.bool(f"hv{t}_{i}") for t in self.turns for i in MEM}
        self.hx = {(t, i): v.bool(f"hx{t}_{i}") for t in self.turns for i in MEM}
        # CP-SAT linear expressions (or 0)
        self.gain: dict[int, dict[str, Any]] = {}
        self.free_gold: dict[int, Any] = {}  # per turn: the gold the free harvest yields
        # (turn, memory): the gold a harvest there yields (plant or mineral)
        self.gold_of: dict[tuple[int, int], Any] = {}
        pre = self._start_cells(blocks)
        for t in self.turns:
            rotation = setup.rotation_at(t)
            gains: dict[str, Any] = {r: 0 for r in RESOURCES}
            ops = (sum(self.plc[t, i, k] for i in MEM for k in MATERIALS)
                   + sum(self.ped[t, k] for k in MATERIALS))
            free = sum(self.hv[t, i] for i in MEM)
            free_gold: Any = 0
            m.add(ops + free <= 1)
            front = {k: total[k] - sum(pre[i][MINE[k]] for i in MEM) for k in MATERIALS}
            for k in MATERIALS:
                m.add(sum(self.plc[t, i, k] for i in MEM) + self.ped[t, k] <= front[k])
            in_front = v.reify_ge(front["plant"] + front["mineral"], 1, f"front{t}")
            m.add(ops + free >= in_front)
            nxt = []
            for i in MEM:
                cell, b = pre[i], blocks[i]
                pm, nm, op, on, bl = (cell[x] for x in ("pm", "nm", "op", "on", "bl"))
                fill = pm + nm + op + on + bl
                m.add(fill <= b)
                m.add(self.hx[t, i] <= free)
                h = v.bool(f"h{t}_{i}")
                m.add(h == self.hv[t, i] + self.hx[t, i])
                hp, hn = v.bool(f"hp{t}_{i}"), v.bool(f"hn{t}_{i}")
                m.add(hp + hn == h)
                m.add(pm >= 1).only_enforce_if(hp)
                m.add(nm >= 1).only_enforce_if(hn)
                m.add(fill == b).only_enforce_if(h)
                pp, pn = self.plc[t, i, "plant"], self.plc[t, i, "mineral"]
                m.add(nm + on == 0).only_enforce_if(pp)
                m.add(pm + op == 0).only_enforce_if(pn)
                m.add(fill <= b - 1).only_enforce_if(pp)
                m.add(fill <= b - 1).only_enforce_if(pn)
                full = v.reify_ge(fill, b, f"full{t}_{i}")
                mine = v.reify_ge(pm + nm, 1, f"mine{t}_{i}")
                m.add(free >= full + mine - 1 - in_front)  # nothing in front: harvest if able
                for name, kind, hk in (("plant", pm, hp), ("mineral", nm, hn)):
                    g = v.int(0, b, f"g{t}_{i}_{name}")
                    m.add(g == kind + bl).only_enforce_if(hk)
                    m.add(g == 0).only_enforce_if(~hk)
                    resource = card.yields(i, name, rotation)
                    gains[resource] = gains[resource] + g
                    if resource == "gold":
                        fg = v.int(0, b, f"fg{t}_{i}_{name}")
                        m.add(fg == g).only_enforce_if(self.hv[t, i])
                        m.add(fg == 0).only_enforce_if(~self.hv[t, i])
                        free_gold = free_gold + fg
                        self.gold_of[t, i] = self.gold_of.get((t, i), 0) + g
                after = {}
                for x, expr in (("pm", pm + pp), ("nm", nm + pn), ("op", op), ("on", on),
                                ("bl", bl)):
                    a = v.int(0, b, f"a{x}{t}_{i}")
                    m.add(a == 0).only_enforce_if(h)
                    m.add(a == expr).only_enforce_if(~h)
                    after[x] = a
                nxt.append(after)
            self.gain[t] = gains
            self.free_gold[t] = free_gold
            if t < self.T:
                pre = self._next_cells(t, nxt, blocks)

    def _start_cells(self, blocks: list[int]) -> list[dict]:
        """The memories when the player first acts (the start plus turn 1's other materials)."""
        cells = []
        placed = self._others(1)
        for i, mem in enumerate(self.setup.start):
            mine = mem.owners.count(ME)
            others = len(mem.owners) - mine
            cell = {"pm": mine if mem.material == "plant" else 0,
                    "nm": mine if mem.material == "mineral" else 0,
                    "op": (others if mem.material == "plant" else 0) + placed[i]["plant"],
                    "on": (others if mem.material == "mineral" else 0) + placed[i]["mineral"],
                    "bl": mem.black}
            cells.append({k: self.m.new_constant(n) for k, n in cell.items()})
        return cells

    def _others(self, t: int) -> list[dict[str, int]]:
        counts = [{k: 0 for k in MATERIALS} for _ in MEM]
        for i, k in self.setup.others.get(t, ()):
            counts[i][k] += 1
        return counts

    def _next_cells(self, t: int, after: list[dict], blocks: list[int]) -> list[dict]:
        """End of turn t (black cubes, not after game turn 12), then turn t+1's other
        players' materials (which must stay legal)."""
        m, v = self.m, self.v
        placed = self._others(t + 1)
        cubes = self.setup.game_turn(t) < MONTHS
        cells = []
        for i in MEM:
            a, b = after[i], blocks[i]
            mats = a["pm"] + a["nm"] + a["op"] + a["on"]
            bl = a["bl"]
            if cubes:
                occupied = v.reify_ge(mats, 1, f"occ{t}_{i}_alt")
                room = v.reify_ge(b - 1 - mats - a["bl"], 0, f"room{t}_{i}")
                bl = a["bl"] + v.both(occupied, room, f"cube{t}_{i}")
            if placed[i]["plant"]:
                m.add(a["nm"] + a["on"] == 0)
            if placed[i]["mineral"]:
                m.add(a["pm"] + a["op"] == 0)
            cell = {"pm": a["pm"], "nm": a["nm"], "op": a["op"] + placed[i]["plant"],
                    "on": a["on"] + placed[i]["mineral"], "bl": bl}
            cells.append(cell)
        return cells

    # ------------------------------------------------------------------ plans
    def material_ops(self, sol: cp_model.CpSolver) -> dict[int, tuple]:
        """The material operations of a solved model, per turn (the free harvest first, then
        the paid harvests that yield gold, which pay for themselves)."""
        val = sol.value
        out = {}
        for t in self.turns:
            ops: list = [Place(i, k) for i in MEM for k in MATERIALS if val(self.plc[t, i, k])]
            ops += [Pedestal(k) for k in MATERIALS if val(self.ped[t, k])]
            ops += [Harvest(i) for i in MEM if val(self.hv[t, i])]
            paid = sorted((i for i in MEM if val(self.hx[t, i])),
                          key=lambda i: -val(self.gold_of.get((t, i), 0)))
            ops += [Harvest(i, paid=True) for i in paid]
            out[t] = tuple(ops)
        return out

    def hint_ops(self, ops: dict[int, tuple]) -> None:
        """Hint the material operations (e.g. of :func:`greedy_materials`)."""
        chosen = set()
        for t, turn_ops in ops.items():
            for op in turn_ops:
                if isinstance(op, Place):
                    chosen.add(self.plc[t, op.memory, op.material])
                elif isinstance(op, Pedestal):
                    chosen.add(self.ped[t, op.material])
                else:
                    chosen.add((self.hx if op.paid else self.hv)[t, op.memory])
        for table in (self.plc, self.ped, self.hv, self.hx):
            for x in table.values():
                self.m.add_hint(x, int(x in chosen))


AIMS = tuple({"plant": p, "mineral": n} for p in ("wood", "food") for n in ("stone", "gold"))
"""The resources :func:`greedy_harvest_schedule` tries to aim the materials at."""


def greedy_materials(instance: Instance, setup: AltarSetup,
                     aim: Mapping[str, str] = PREFERRED
                     ) -> tuple[dict[int, tuple], dict[int, dict[str, int]]]:
    """A simple material plan and the income it harvests: harvest the fullest memory holding
    a material of the player when there is one; else place the material type more of which is
    in front in an empty memory, the largest first, aiming at the resource ``aim`` gives for
    its type two turns on, never in a memory the other players place in later (``setup.
    others``: a material there could bar theirs); else on a pedestal (the operation is
    mandatory while a material is in front); else nothing. No paid harvests.
    :class:`IllegalMoveError` if the other players' materials cannot be placed as given."""
    check_instance(instance)
    if not isinstance(aim, Mapping) or any(not isinstance(aim.get(m), str) for m in MATERIALS):
        raise LumicoreError(f"aim must map plant and mineral to a resource, got {shorten(aim)}")
    altar = AltarYear(setup)
    ops: dict[int, tuple] = {}
    income: dict[int, dict[str, int]] = {}
    for t in range(1, instance.turns + 1):
        altar.start_turn(t)
        theirs = {m for u, placed in setup.others.items() if u > t for m, _ in placed}
        harvest = altar.harvestable()
        kind = max(MATERIALS, key=lambda k: altar.front[k])
        if harvest:
            best = max(harvest, key=lambda i: (altar.memories[i].filled, -i))
            op: Place | Pedestal | Harvest | None = Harvest(best)
        elif options := [p for p in altar.placements() if p.memory not in theirs]:
            options = [p for p in options if p.material == kind] or options
            op = max(options, key=lambda p: (
                altar.memories[p.memory].filled == 0, setup.card.blocks(p.memory),
                setup.card.yields(p.memory, p.material, setup.rotation_at(t + 2))
                == aim[p.material], -p.memory))
        else:
            op = Pedestal(kind) if altar.front[kind] else None
        income[t] = altar.apply(op) if op is not None else {}
        ops[t] = (op,) if op is not None else ()
        altar.end_turn()
    return ops, income


def greedy_harvest_schedule(instance: Instance, setup: AltarSetup,
                            max_builds: int | None = None) -> Schedule:
    """:func:`greedy_materials` (for each of the :data:`AIMS`) then the greedy year on its
    income, as one plan: the best of the four. ``max_builds`` caps the new facilities, as
    in :func:`build_harvest_schedule`."""
    max_builds = check_max_builds(max_builds)
    start = time.perf_counter()
    best = None
    for aim in AIMS:
        ops, income = greedy_materials(instance, setup, aim)
        build = greedy_schedule(replace(instance, income=income), max_builds)
        if best is None or build.vp > best[2].vp:
            best = (ops, income, build)
    assert best is not None
    ops, income, build = best
    return _combined(ops, income, build, time.perf_counter() - start)


def _combined(ops: dict[int, tuple], income: dict[int, dict[str, int]], build: Schedule,
              elapsed: float) -> Schedule:
    """A plan of material operations and a year planned on their income, as one plan."""
    turns = [TurnPlan(p.turn, ops[p.turn] + p.actions) for p in build.turns]
    schedule = Schedule(turns=turns, vp=build.vp, breakdown=build.breakdown, status=FEASIBLE,
                        bound=build.bound, elapsed=elapsed)
    schedule.building = build  # type: ignore[attr-defined]
    schedule.income = income  # type: ignore[attr-defined]
    schedule.ops = ops  # type: ignore[attr-defined]
    return schedule


def _hint(year: HarvestYearModel, instance: Instance, plan: Schedule) -> None:
    """Hint the model with a greedy combined plan (no remodel, no exchange)."""
    building = plan.building  # type: ignore[attr-defined]
    priced = replace(instance, income=plan.income)  # type: ignore[attr-defined]
    year.hint(building.turns, {tr.turn: tr.row for tr in simulate(priced, building).trace})
    year.hint_ops(plan.ops)  # type: ignore[attr-defined]


@noting()
def build_harvest_schedule(instance: Instance, setup: AltarSetup | None = None,
                           time_limit: float | None = 20.0, workers: int = 1, seed: int = 0,
                           hint: bool = True, log: bool = False,
                           max_builds: int | None = None,
                           show_progress: bool | None = False) -> Schedule:
    """The VP-maximal year with the material operations decided (see the module docstring).

    Returns a :class:`~lumicore.lemuria.Schedule` whose turns start with their material
    operations; ``schedule.income`` holds the resources harvested per turn. The greedy plan
    (:func:`greedy_harvest_schedule`) is the hint and the fallback, as in ``build_schedule``.
    Every plan is replayed by :func:`~lumicore.lemuria.harvests.replay_harvests` before it is
    returned (an AssertionError if the VP differ: a modelling bug). ``max_builds`` caps the
    new facilities (None or an integer >= 0; the rules' cap of 8 less the instance's present
    facilities holds anyway), in the greedy plan too. CP-SAT's bound, and so an "optimal"
    status, is reported only where its model describes every legal year
    (:attr:`~solvers.lemuria.model.YearModel.every_year`: no remodel turn, no character that
    can come back from the bottom of its deck); elsewhere the plan is "feasible" with no bound
    (the harvest planner has no bound of its own). Ctrl-C stops the solver: the best plan so
    far comes back with ``status`` ``"interrupted"`` (the greedy plan when Ctrl-C came while
    the model was built, before the solver started). ``time_limit`` covers the whole call but
    the model's build, which is not cut short: when that build has used the time up, the
    solver does not start and the greedy plan comes back ("feasible", ``reason`` "time").
    ``show_progress``: a progress line with the plan's VP while CP-SAT runs (None: only on a
    terminal), as ``build_schedule``'s.
    """
    from solvers.lemuria import _check_args, _solver

    check_limits(None, time_limit)
    workers, seed = _check_args(instance, workers, seed)
    max_builds = check_max_builds(max_builds)
    check_progress(show_progress, "show_progress")
    log = check_bool(log, "log")  # OR-Tools' log_search_progress takes a bool only
    hint = check_bool(hint, "hint")
    if setup is None:
        setup = AltarSetup(first_turn=instance.first_turn)
    check_type(setup, AltarSetup, "altar", "an AltarSetup (lumicore.lemuria.harvests) or None")
    setup.check_calendar(instance)
    start = time.perf_counter()
    try:
        greedy = greedy_harvest_schedule(instance, setup, max_builds)
    except IllegalMoveError as exc:  # the others' own placements fail: no year to start from
        raise LumicoreError(f"no plan: the other players' materials cannot be placed as given "
                            f"beside the greedy plan's ({exc})") from None
    try:
        year = HarvestYearModel(instance, setup, max_builds)
        if hint:
            _hint(year, instance, greedy)
    except KeyboardInterrupt:  # Ctrl-C before the solver started: the greedy plan
        schedule = Schedule(turns=greedy.turns, vp=greedy.vp, breakdown=greedy.breakdown,
                            status=INTERRUPTED, bound=None, elapsed=time.perf_counter() - start)
        schedule.reason = REASON_INTERRUPTED
        return _replayed(instance, setup, schedule, greedy, branches=0)
    left = None if time_limit is None else time_limit - (time.perf_counter() - start)
    if left is not None and left <= 0:  # the model's build used the time up: the greedy plan
        schedule = Schedule(turns=greedy.turns, vp=greedy.vp, breakdown=greedy.breakdown,
                            status=FEASIBLE, bound=None, elapsed=time.perf_counter() - start)
        schedule.reason = REASON_TIME
        return _replayed(instance, setup, schedule, greedy, branches=0)
    # CP-SAT's default search (the LP at level 2): on 12-turn years it completes the hint and
    # improves on it, where the interleaved max_lp/quick_restart pair of build_schedule found
    # no plan within 20 s
    solver = _solver(workers, seed, left, log, interleave=False)
    # in a thread, as build_schedule's runs: Ctrl-C stops it at once with the best plan so far
    # (a plain solver.solve held Ctrl-C until the time limit and then lost the plan)
    watch = Watch(show_progress, left, vp=greedy.vp)
    try:
        code = solve_watched(solver, year.m, watch, bounds=False)
    finally:
        watch.close()
    elapsed = time.perf_counter() - start
    if code == cp_model.INFEASIBLE:
        raise LumicoreError("no legal year: the other players' materials cannot all be placed "
                            "as given")
    found = code in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    # without a solution CP-SAT's bound may be its unset value (0), not a proof; and it bounds
    # only the years the model describes
    proves = found and year.every_year
    bound = float(solver.best_objective_bound) if proves else None
    if found and (code == cp_model.OPTIMAL or solver.objective_value > greedy.vp):
        ops = year.material_ops(solver)
        turns = [TurnPlan(p.turn, ops[p.turn] + p.actions) for p in year.schedule_turns(solver)]
        schedule = Schedule(turns=turns, vp=int(round(solver.objective_value)),
                            breakdown=year.breakdown(solver), status=FEASIBLE, bound=bound,
                            elapsed=elapsed)
        if code == cp_model.OPTIMAL and proves:
            schedule.mark_optimal()
    else:
        schedule = Schedule(turns=greedy.turns, vp=greedy.vp, breakdown=greedy.breakdown,
                            status=FEASIBLE, bound=bound, elapsed=elapsed)
    if watch.interrupted:
        schedule.status, schedule.reason = INTERRUPTED, REASON_INTERRUPTED
    elif schedule.status == FEASIBLE and time_limit is not None:
        schedule.reason = REASON_TIME
    return _replayed(instance, setup, schedule, greedy, branch_count(solver))


def _replayed(instance: Instance, setup: AltarSetup, schedule: Schedule, greedy: Schedule,
              branches: int) -> Schedule:
    """``schedule`` checked by :func:`replay_harvests` (an AssertionError if the VP differ),
    with its ``income``, ``greedy_vp`` and the solver's ``branches``."""
    replayed = replay_harvests(instance, setup, schedule.turns)
    if replayed.total != schedule.vp:  # pragma: no cover
        raise AssertionError(f"harvest plan replays to {replayed.total} VP, model says "
                             f"{schedule.vp}")
    schedule.income = replayed.income  # type: ignore[attr-defined]
    schedule.greedy_vp = greedy.vp  # type: ignore[attr-defined]
    schedule.branches = branches  # type: ignore[attr-defined]
    return schedule
