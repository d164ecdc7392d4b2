"""The branch and bound on the builds (solvers.lemuria.branch): every choice it branches on
keeps the years that make it, so the bound never falls below the exhaustive optimum; on a
6-turn year it lowers the bound of column generation."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from lemuria_helpers import optimum
from test_lemuria_bound import _held_instance, remodel_year
from test_lemuria_model import tiny

from lumicore.errors import LumicoreError, SearchLimitError
from lumicore.lemuria import (
    CHITS,
    DISTRICTS,
    Build,
    Instance,
    Play,
    Remodel,
    default_instance,
    simulate,
)
from lumicore.lemuria.instance import small_instance
from lumicore.lemuria.schedule import Schedule
from solvers.lemuria import build_schedule
from solvers.lemuria.bound import CONVERGED, _Year, lagrangian_bound
from solvers.lemuria.branch import (
    EMPTY,
    _Choices,
    _first_bound,
    _node_bound,
    _node_columns,
    branch_bound,
)
from solvers.lemuria.greedy import greedy_schedule
from solvers.lemuria.model import YearModel

YEARS = {
    "tiny 0": lambda: tiny(0),
    "tiny 2": lambda: tiny(2),
    "opponent": lambda: small_instance(0, turns=4, buildings=3, characters=2, opponents=1),
    "remodels": lambda: remodel_year(3),
    "held 2": lambda: _held_instance(2),
    "held 4": lambda: _held_instance(4),
}


def choices_of(inst: Instance, schedule: Schedule) -> _Choices:
    """What a legal year chooses, in the branch's terms: the slot of each turn's build (0: no
    build), the facilities owned after each turn, and which characters (by their place in the
    hand and the deck) it houses, the turn each is first housed in, and how many residents
    it houses in all (a card housed again counts again) and by the end of two turns (the
    festivals before the last turn, then the turns just before the last), and which districts
    hold one of its chits after each turn."""
    trace = simulate(inst, schedule).trace
    plans = {p.turn: p for p in schedule.turns}
    stream = list(inst.hand) + list(inst.character_deck)
    fixed, owned, housed, n, residents, by_turn = [], [], {}, 0, 0, {}
    chits, held = [], set()
    for t in range(1, inst.turns + 1):
        build = plans[t].build_action() if t in plans else None
        fixed.append((t, 0 if build is None else trace[t - 1].row.index(build.card) + 1))
        n += build is not None and not isinstance(build, Remodel)
        owned.append((t, (n, n)))
        if isinstance(build, Build) and build.district is not None:
            held.add(DISTRICTS.index(build.district))
        chits += [(t, d, d in held) for d in range(len(DISTRICTS))]
        for action in plans[t].actions if t in plans else ():
            if isinstance(action, Play) and action.house_in is not None:
                housed.setdefault(stream.index(action.character), t)
                residents += 1
        by_turn[t] = residents
    counted = sorted({f for f in inst.festivals if f < inst.turns}
                     | {t for t in (inst.turns - 1, inst.turns - 2) if t >= 1})[:2]
    return _Choices(tuple(fixed), tuple(owned),
                    tuple((i, i in housed) for i in range(len(stream))),
                    tuple((i, (t, t)) for i, t in sorted(housed.items())),
                    (residents, residents), tuple((F, by_turn[F], by_turn[F]) for F in counted),
                    tuple(chits))


@pytest.mark.parametrize("name", sorted(YEARS))
def test_the_choices_of_the_optimal_year_keep_its_vp(name):
    """Fixing everything the branch can fix to what the optimal year does (together and each
    kind alone) leaves a bound at least its VP; fixing a wrong owned count lowers it or
    rules the year out."""
    inst = YEARS[name]()
    best = optimum(inst)
    assert best.status == "optimal"
    assert not _Year(inst).need_fallback()
    mine = choices_of(inst, best.schedule)
    kinds = [mine, _Choices(fixed=mine.fixed), _Choices(owned=mine.owned),
             _Choices(housed=mine.housed), _Choices(housed=mine.housed, windows=mine.windows),
             _Choices(residents=mine.residents), _Choices(festivals=mine.festivals),
             _Choices(residents=mine.residents, festivals=mine.festivals),
             _Choices(chits=mine.chits)]
    for choices in kinds:
        assert _node_bound(inst, choices, [], None).value >= best.vp - 1e-6


@pytest.mark.parametrize("name", sorted(YEARS))
def test_branch_bound_never_falls_below_the_optimum(name):
    inst = YEARS[name]()
    best = optimum(inst).vp
    free = branch_bound(inst, time_limit=None, max_nodes=40)
    assert best - 1e-6 <= free.bound <= free.root + 1e-9
    told = branch_bound(inst, time_limit=None, max_nodes=40, target=best)
    assert told.bound >= best and told.bound == math.floor(told.bound)
    if told.status == "proven":
        assert told.bound == best


def test_it_lowers_the_bound_of_a_6_turn_year():
    inst = default_instance(2, turns=6)
    # (60 nodes exhaust it at 86.0; 24 take it to 86.8, 12 only to 87.1)
    result = branch_bound(inst, time_limit=None, max_nodes=24)
    assert result.bound < result.root - 2  # 89.1 -> 86.8 when measured
    seconds = [s for s, _b in result.history]
    bounds = [b for _s, b in result.history]
    assert seconds == sorted(seconds) and bounds == sorted(bounds, reverse=True)
    assert result.bound >= greedy_schedule(inst).vp


def test_the_owned_limits_split_the_years():
    inst = remodel_year(3)
    best = optimum(inst)
    mine = choices_of(inst, best.schedule)
    turn, (n, _n) = mine.owned[1]
    low = _node_bound(inst, _Choices(owned=((turn, (0, n)),)), [], None).value
    high = _node_bound(inst, _Choices(owned=((turn, (n + 1, CHITS)),)), [], None).value
    assert low >= best.vp - 1e-6  # the optimal year owns n facilities after that turn
    assert max(low, high) <= _node_bound(inst, _Choices(), [], None).value + 1e-6


def test_the_chits_after_a_turn_split_the_years():
    """Whether a district holds a chit after a turn: the side the optimal year takes keeps its
    VP, the other is no larger than the whole year's, and a chit in every district after the
    first turn (one build) rules every year out."""
    inst = YEARS["remodels"]()
    best = optimum(inst)
    mine = choices_of(inst, best.schedule).chits
    whole = _node_bound(inst, _Choices(), [], None).value
    tried = 0
    for t, d, has in mine[::3]:
        kept = _node_bound(inst, _Choices(chits=((t, d, has),)), [], None).value
        other = _node_bound(inst, _Choices(chits=((t, d, not has),)), [], None).value
        # each bound is within CONVERGED of its relaxation's least
        assert kept >= best.vp - 1e-6 and max(kept, other) <= whole + CONVERGED
        tried += 1
    assert tried >= 3
    every = tuple((1, d, True) for d in range(len(DISTRICTS)))
    assert _node_bound(inst, _Choices(chits=every), [], None).value < 0


def test_a_node_splits_on_the_chits_its_building_plans_disagree_on():
    """Building plans that agree on every build but not on where their chits went: the
    children split them by the district and turn nearest to an even mix, and each keeps the
    plans that make its choice."""
    from types import SimpleNamespace

    from solvers.lemuria.branch import _split_chits

    def plan(*bits):
        return SimpleNamespace(chits=np.array(bits))

    building = [(0.4, plan(1, 3, 3)), (0.6, plan(3, 3, 3))]  # district 1 after turn 1?
    children = _split_chits(_Choices(), building)
    assert [c.chits for c, _keep in children] == [((1, 1, True),), ((1, 1, False),)]
    keeps = [[keep("building", SimpleNamespace(plan=p)) for _w, p in building]
             for _c, keep in children]
    assert keeps == [[False, True], [True, False]]
    assert all(keep("characters", None) for _c, keep in children)
    assert _split_chits(_Choices(), [(1.0, plan(1, 3, 3))]) == []


def test_bad_arguments():
    inst = default_instance(0, turns=2)
    with pytest.raises(LumicoreError):
        branch_bound("year")  # type: ignore[arg-type]
    with pytest.raises(LumicoreError, match="target"):
        branch_bound(inst, target=1.5)  # type: ignore[arg-type]
    with pytest.raises(SearchLimitError):
        branch_bound(inst, time_limit=0)
    with pytest.raises(SearchLimitError):
        branch_bound(inst, max_nodes=0)


def _spoilt(root, field: str):
    """``root`` with the last value of ``field`` (an array, or the bound) NaN."""
    if field == "value":
        return replace(root, value=math.nan)
    array = getattr(root, field).astype(float)
    array.reshape(-1)[-1] = math.nan
    return replace(root, **{field: array})


@pytest.mark.parametrize("field", ["mu", "lam", "fest", "value"])
def test_a_root_with_nan_is_named_before_it_prices_a_child(field):
    """The multipliers of ``root`` price the children in the Lemuria kernel: a NaN among them
    raised an IndexError from deep inside (a NaN bound came back as the bound). Each is now a
    LumicoreError naming the field; so are a root of another shape or type."""
    inst = default_instance(0, turns=4)
    root = lagrangian_bound(inst, time_limit=5.0)
    assert root.columns and branch_bound(inst, max_nodes=3, root=root).root == root.value
    with pytest.raises(LumicoreError, match=f"root.{field} must"):
        branch_bound(inst, max_nodes=3, root=_spoilt(root, field))
    with pytest.raises(LumicoreError, match=r"root.lam must be a \(4, 4\) array"):
        branch_bound(inst, max_nodes=3, root=replace(root, lam=np.zeros(4)))
    with pytest.raises(LumicoreError, match="root must be a BoundResult"):
        branch_bound(inst, max_nodes=3, root=root.value)  # type: ignore[arg-type]


def test_ctrl_c_keeps_the_bound_proven_so_far(monkeypatch):
    import solvers.lemuria.branch as branch

    calls = []
    real = branch._columns

    def interrupted_on_the_fourth_node(*args, **kwargs):
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(branch, "_columns", interrupted_on_the_fourth_node)
    inst = default_instance(2, turns=6)
    result = branch_bound(inst, time_limit=None)
    assert result.status == "interrupted"
    assert greedy_schedule(inst).vp <= result.bound <= result.root


def test_build_schedule_reports_the_branch_bound(monkeypatch):
    """The schedule's bound is the branch's, and the progress line shows it as it falls."""
    import solvers.lemuria as lemuria

    lines = []

    class Recorded(lemuria.Watch):
        def tick(self) -> None:
            lines.append(self.text())
            super().tick()

    heard = []  # the bounds the branch and bound gave the schedule
    real = lemuria._bounded

    def bounded(schedule, bound, watch):
        heard.append(bound)
        real(schedule, bound, watch)

    monkeypatch.setattr(lemuria, "Watch", Recorded)
    monkeypatch.setattr(lemuria, "_bounded", bounded)
    monkeypatch.setattr(lemuria, "_exhaust", lambda *args: None)  # it could prove the plan
    # CP-SAT's own bound, which counts on this short year, reaches the branch's (86): as on a
    # long year, only the fast bound (89) and the branch's are left
    monkeypatch.setattr(YearModel, "every_year", property(lambda self: False))
    inst = default_instance(2, turns=6)
    plan = build_schedule(inst, time_limit=6, workers=1)
    assert simulate(inst, plan).total == plan.vp
    root = branch_bound(inst, max_nodes=1).root
    # the schedule's bound is at most the branch's, whatever the nodes the machine's load let
    # it search (it had to fall under the root's in 12 s, which failed under load); the fast
    # bound (its 0.6 s of a 6 s limit) converges in about 0.6 s, and the branch beside sends
    # its first bound once it has settled the root
    finite = [b for b in heard if math.isfinite(b)]
    assert plan.status == "optimal" or (
        finite and plan.vp <= plan.bound <= math.floor(min(finite) + 1e-6)
        <= math.floor(root + 1e-6))
    bound = plan.vp if plan.status == "optimal" else int(plan.bound)
    assert lines[-1].startswith(f"VP {plan.vp} bound {bound} gap")


@pytest.mark.parametrize("max_nodes", [1, 2, 3, 5, 8])
def test_the_branch_and_bound_keeps_to_max_nodes(max_nodes):
    """A split made all its children at once, past max_nodes (by up to a split's size less
    one: 7 nodes for max_nodes=1 to 5 on this year)."""
    result = branch_bound(default_instance(1, turns=6), time_limit=None, max_nodes=max_nodes)
    assert result.status == "limit" and result.nodes <= max_nodes


def test_on_bound_hears_every_fall_of_the_bound():
    heard = []
    result = branch_bound(default_instance(1, turns=6), time_limit=None, max_nodes=10,
                          on_bound=heard.append)
    assert heard and heard == [b for _s, b in result.history]


@pytest.mark.parametrize("seed", [1, 2])
def test_a_node_does_not_mix_in_the_empty_year_its_choices_rule_out(seed):
    """The master starts with the empty year of each side; where a node's choices rule it
    out (a build fixed, a character that must be housed) it costs more than any year is
    worth, so the node's master ends without it and its value stays a floor of the node's
    years."""
    inst = default_instance(seed, turns=6)
    root = _node_bound(inst, _Choices(), [], None)
    split = [(2, o) for o in range(1, 6)]
    for choices in [_Choices(fixed=(pair,)) for pair in split] + [
            _Choices(owned=((4, (4, CHITS)),)), _Choices(housed=((0, True), (1, True)))]:
        result = _node_bound(inst, choices, [], None)
        if not math.isfinite(result.value):
            continue
        (side, column), weight = result.columns[0], result.weights[0]
        assert side == "building" and not column.plan.option.any()
        if choices.fixed or choices.owned:
            assert weight < 1e-9
        (side, column), weight = result.columns[1], result.weights[1]
        assert side == "characters" and not column.plan.items
        if choices.housed:
            assert weight < 1e-9
        assert result.value <= root.value + 1e-6 or result.value - result.floor < 0.01


@pytest.mark.parametrize("name", ["tiny 2", "remodels", "held 4"])
def test_a_child_bounded_at_its_parents_multipliers_keeps_the_optimum(name):
    """A child's first bound (one evaluation at its parent's multipliers) is a bound of its
    years: the child that makes the optimal year's choices keeps its VP, and column
    generation started from that bound only lowers it."""
    inst = YEARS[name]()
    best = optimum(inst)
    mine = choices_of(inst, best.schedule)
    parent = _node_bound(inst, _Choices(), [], None)
    for choices in (_Choices(fixed=mine.fixed[:2]), _Choices(owned=mine.owned[-1:]),
                    _Choices(housed=mine.housed[:2]), _Choices(residents=mine.residents),
                    _Choices(festivals=mine.festivals)):
        first, found = _first_bound(choices.year(inst), parent)
        assert first.value >= best.vp - 1e-6
        assert [side for side, _c in found] == ["building", "characters"]
        settled = _node_bound(inst, choices, found, None, start=first)
        assert best.vp - 1e-6 <= settled.value <= first.value


def test_a_paused_node_goes_on_to_the_same_bound():
    """Column generation paused at a bound it is told to stop under, then started again
    from the columns it had, or with the master it kept, ends where an unpaused run ends."""
    inst = default_instance(1, turns=6)
    choices = _Choices(fixed=((2, 1),))
    whole = _node_bound(inst, choices, [], None)
    paused, master = _node_columns(inst, choices, [], None, target=whole.value + 1.0)
    assert paused.value - paused.floor >= 0.01 and paused.value <= whole.value + 1.0 + 1e-6
    kept = len(master.added)
    resumed = _node_bound(inst, choices, list(paused.columns[EMPTY:]), None, start=paused)
    assert resumed.value == pytest.approx(whole.value, abs=0.02)
    assert resumed.steps < whole.steps
    again, same = _node_columns(inst, choices, [], None, start=paused, master=master)
    assert same is master and again.columns is master.added and len(master.added) > kept
    assert again.value == pytest.approx(whole.value, abs=0.02)
    assert again.steps < whole.steps


def test_many_children_never_need_their_column_generation(monkeypatch):
    """Children are bounded at their parent's multipliers; column generation runs only for
    the nodes that reach the top (some of them more than once: it pauses when a node's bound
    falls under the next one's)."""
    import solvers.lemuria.branch as branch

    settled = []
    real = branch._Search.settle

    def counted(self, node, below):
        settled.append(node.choices)
        return real(self, node, below)

    monkeypatch.setattr(branch._Search, "settle", counted)
    # (a 4-turn year: its whole search takes 27 nodes, the 6-turn year's 71, 53 settled)
    result = branch_bound(default_instance(3, turns=4), time_limit=None, max_nodes=100)
    assert result.status == "exhausted"  # the whole search, no split cut short by the limit
    assert 0 < len(set(settled)) < 0.8 * result.nodes  # 18 of 27 when measured


def test_paused_nodes_keep_at_most_kept_masters(monkeypatch):
    """A paused node goes on with the master it kept; past ``KEPT`` paused nodes the oldest
    drops its master and builds it anew from its columns, and the bound still holds."""
    import solvers.lemuria.branch as branch

    inst = YEARS["opponent"]()  # paused nodes come back before the search ends
    best = optimum(inst)
    monkeypatch.setattr(branch, "KEPT", 1)
    visits = []
    real = branch._Search.settle

    def counted(self, node, below):
        visits.append("kept" if node.master is not None
                      else "rebuilt" if math.isfinite(node.result.floor) else "new")
        settled = real(self, node, below)
        assert len(self.kept) <= 1
        return settled

    monkeypatch.setattr(branch._Search, "settle", counted)
    result = branch_bound(inst, time_limit=None, max_nodes=60)
    assert result.bound >= best.vp - 1e-6
    assert {"kept", "rebuilt", "new"} <= set(visits)


def test_the_turn_a_character_is_first_housed_in_splits_the_years(monkeypatch):
    """On this 6-turn year (its hand dealt into the deck: the relaxation lets hand cards wait
    for their turn, so on the year as dealt the split no longer matters) the builds, counts
    and housings are settled after a few nodes and the master mixes only when characters
    are housed: without splitting on that turn the search stops there ("exhausted", 90.5
    when measured, 15 nodes); with it the bound goes on falling (89.0 when measured, also
    "exhausted" after 62 nodes; 89.2 after the 45 nodes searched here, 89.5 after 35), never
    below the greedy year."""
    import solvers.lemuria.branch as branch

    dealt = default_instance(4, turns=6)
    inst = Instance(**{**dealt.__dict__, "hand": (),
                       "character_deck": dealt.hand + dealt.character_deck})
    windows = branch_bound(inst, time_limit=None, max_nodes=45)
    monkeypatch.setattr(branch, "_split_turns", lambda choices, characters: [])
    without = branch_bound(inst, time_limit=None, max_nodes=100)
    assert without.status == "exhausted" and without.nodes < 100
    assert greedy_schedule(inst).vp <= windows.bound < without.bound - 1


def test_the_residents_housed_in_all_split_the_years():
    """The optimal year houses J residents in all: the node of the years that house J keeps
    its VP, as does the side of each split at J that holds it; the other side's bound, and
    the bound of years housing none when the optimum houses some, are no larger than the
    whole year's."""
    inst = YEARS["held 4"]()
    best = optimum(inst)
    J = choices_of(inst, best.schedule).residents[0]
    assert J > 0
    whole = _node_bound(inst, _Choices(), [], None).value
    for lo, hi in [(J, J), (0, J), (J, 99), (J - 1, J + 1)]:
        assert _node_bound(inst, _Choices(residents=(lo, hi)), [], None).value >= best.vp - 1e-6
    for lo, hi in [(0, J - 1), (J + 1, 99), (0, 0)]:
        assert _node_bound(inst, _Choices(residents=(lo, hi)), [], None).value <= whole + 1e-6


def test_the_residents_housed_by_a_festival_split_the_years():
    """The same for the residents housed by the end of the first festival of a year with
    remodels: the side that holds the optimal year's count keeps its VP."""
    inst = YEARS["remodels"]()
    best = optimum(inst)
    F, n, _n = choices_of(inst, best.schedule).festivals[0]
    assert F in inst.festivals
    whole = _node_bound(inst, _Choices(), [], None).value
    for lo, hi in [(n, n), (0, n), (n, 99)]:
        bound = _node_bound(inst, _Choices(festivals=((F, lo, hi),)), [], None).value
        assert best.vp - 1e-6 <= bound <= whole + CONVERGED
    for lo, hi in [(0, n - 1), (n + 1, 99)]:
        if lo <= hi:
            bound = _node_bound(inst, _Choices(festivals=((F, lo, hi),)), [], None).value
            assert bound <= whole + CONVERGED


def test_the_residents_housed_by_two_turns_split_the_years():
    """A node counting the residents by the end of two turns: the optimal year's counts keep
    its VP (each alone and both together, and with ranges around them), counts it does not
    make give no more than the whole year's bound, and impossible counts (more by the first
    turn than by the second, more than a housing a turn) rule every year out."""
    inst = YEARS["remodels"]()
    best = optimum(inst)
    (F, n, _n), (G, m, _m) = choices_of(inst, best.schedule).festivals
    assert F < G < inst.turns and m > 0
    whole = _node_bound(inst, _Choices(), [], None).value

    def bound(*counts):
        return _node_bound(inst, _Choices(festivals=counts), [], None).value

    for counts in [((F, n, n), (G, m, m)), ((F, 0, n), (G, m, 99)), ((F, n, 99), (G, 0, m))]:
        assert best.vp - 1e-6 <= bound(*counts) <= whole + 1e-6
    for counts in [((F, n, n), (G, 0, m - 1)), ((F, n + 1, 99), (G, m, m))]:
        assert bound(*counts) <= whole + 1e-6
    assert bound((F, 2, 2), (G, 1, 1)) < 0 and bound((G, G + 1, 99),) < 0


def test_a_node_splits_on_a_second_festival():
    """Where the master's columns agree on the residents by the first festival counted but
    not by another, the node's children count both; a node counting ``COUNTED`` festivals
    only narrows those."""
    from types import SimpleNamespace

    from solvers.lemuria.branch import COUNTED, _split_festival

    def column(by_turn):
        return SimpleNamespace(housed=np.array(by_turn)[:, None])

    # residents housed per turn of a 12-turn year: both house 1 by turn 4; 2 and 4 by turn 8
    columns = [(0.5, column([1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0])),
               (0.5, column([0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 0, 0]))]
    node = _Choices(festivals=((4, 0, 1),))
    children = [c for c, _keep in _split_festival(node, columns, (4, 8, 12))]
    assert [c.festivals for c in children] == [((4, 0, 1), (8, 0, 2)), ((4, 0, 1), (8, 3, 12))]
    assert COUNTED == 2
    full = _Choices(festivals=((4, 0, 1), (6, 0, 9)))  # by 6: 1 and 3, by 8: 2 and 4
    children = [c for c, _keep in _split_festival(full, columns, (4, 8, 12))]
    assert [c.festivals for c in children] == [((4, 0, 1), (6, 0, 1)), ((4, 0, 1), (6, 2, 9))]
