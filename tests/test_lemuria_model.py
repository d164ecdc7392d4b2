"""The CP-SAT year model (solvers.lemuria) against the rules simulator and the exhaustive oracle.

Every plan the solver returns is replayed through ``lumicore.lemuria.simulate`` (it must score the
same VP). Tiny instances are checked against ``solvers.lemuria.exhaustive.exhaustive_best``. Each
rule of docs/lemuria.md has a hand-made instance whose optimum (worked out by hand in the test's
comment) would change if the model broke that rule.
"""

from __future__ import annotations

import random

import pytest
from lemuria_helpers import optimum, random_cards

from lumicore.errors import LumicoreError, SearchLimitError
from lumicore.lemuria import (
    Build,
    Building,
    Character,
    Instance,
    Opponent,
    Remodel,
    default_instance,
    simulate,
)
from solvers.lemuria import build_schedule, model_stats
from solvers.lemuria.bound import lagrangian_bound
from solvers.lemuria.model import YearModel

FAST = {"time_limit": 30.0, "workers": 1, "seed": 0}


def solve(inst: Instance, **kw):
    """Solve, replay through the simulator, and check that both agree on VP and breakdown."""
    schedule = build_schedule(inst, **{**FAST, **kw})
    result = simulate(inst, schedule)
    assert result.total == schedule.vp
    assert result.breakdown == schedule.breakdown
    return schedule


def cards(*specs: tuple[str, str, int, dict[str, int]]) -> dict[str, Building]:
    return {c: Building(c, color, vp, cost) for c, color, vp, cost in specs}


def people(*specs: tuple[str, str, int, int, int]) -> dict[str, Character]:
    return {c: Character(c, color, food, vp, vpm) for c, color, food, vp, vpm in specs}


def builds(schedule) -> list[tuple[int, str]]:
    return [(p.turn, a.card) for p in schedule.turns for a in p.actions
            if isinstance(a, (Build, Remodel))]


def tiny(seed: int, turns: int = 3, opponents: bool = False) -> Instance:
    """A random tiny instance: 6 two-colour buildings (deck of 1), 3 characters (at most one to
    draw), little gold, so that the exhaustive oracle finishes in seconds."""
    rng = random.Random(seed)
    buildings, characters = random_cards(rng, 6, 3,
                                         ("stone", "wood", "stone", "wood", "gold", "food"))
    ids = list(buildings)
    rng.shuffle(ids)
    cids = list(characters)
    rng.shuffle(cids)
    n_hand = rng.randint(0, 2)
    income = {t: {r: rng.randint(0, 2) for r in rng.sample(("stone", "wood", "food"), 2)}
              for t in range(1, turns + 1)}
    opps: tuple[Opponent, ...] = ()
    if opponents:
        opps = (Opponent(builds={rng.randint(1, turns): rng.choice(ids)},
                         chits={1: rng.choice(("church", "rural")), 2: "church"},
                         residents={4: {"red": 1}} if turns >= 4 else {}),)
    return Instance(turns=turns, buildings=buildings, characters=characters,
                    trend=tuple(ids[:5]), deck=tuple(ids[5:]),
                    start={"gold": rng.randint(0, 1), "food": rng.randint(0, 3),
                           "stone": rng.randint(0, 2)},
                    hand=tuple(cids[:n_hand]), character_deck=tuple(cids[n_hand:n_hand + 1]),
                    income=income, opponents=opps)


# ---------------------------------------------------------------- exhaustive oracle
@pytest.mark.parametrize("seed", [0, 1, 2, 5, 6])
def test_tiny_instances_match_exhaustive_search(seed):
    inst = tiny(seed)
    oracle = optimum(inst)
    assert oracle.status == "optimal"
    plan = solve(inst)
    assert plan.status == "optimal"
    assert plan.vp == oracle.vp


@pytest.mark.parametrize("seed", [0, 10])  # 10: 368 nodes of the exhaustive planner (1: 13,620)
def test_tiny_instances_with_an_opponent_match_exhaustive_search(seed):
    inst = tiny(seed, turns=4, opponents=True)
    oracle = optimum(inst)
    assert oracle.status == "optimal"
    plan = solve(inst)
    assert plan.vp == oracle.vp


@pytest.mark.parametrize("seed", [10, 11, 12])
def test_tiny_instances_with_an_opponent_three_turns(seed):
    inst = tiny(seed, turns=3, opponents=True)
    oracle = optimum(inst)
    assert oracle.status == "optimal"
    assert solve(inst).vp == oracle.vp


def long_deck(seed: int) -> Instance:
    """``tiny(seed)`` with 3 more cards in the deck: the refills never reach the cards returned
    to the deck bottom, so the model's redundant ``once`` cut (a card built at most once) is on."""
    base = tiny(seed, turns=3)
    rng = random.Random(100 + seed)
    extra = {f"B{i}": Building(f"B{i}", rng.choice(("red", "blue")), rng.randint(1, 5),
                               {"stone": rng.randint(1, 2), "wood": rng.randint(0, 1)})
             for i in range(6, 9)}
    row = [c for c in base.trend if c] + list(base.deck)
    return Instance(turns=3, buildings={**base.buildings, **extra},
                    characters=base.characters, trend=tuple(row[:5]),
                    deck=tuple(row[5:]) + tuple(extra), start=base.start, hand=base.hand,
                    character_deck=base.character_deck, income=base.income)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_redundant_cuts_keep_the_optimum(seed, monkeypatch):
    inst = long_deck(seed)
    year = YearModel(inst)
    assert year.n_returns == 0  # the cut applies
    oracle = optimum(inst)
    assert oracle.status == "optimal"
    plan = solve(inst)
    assert plan.status == "optimal" and plan.vp == oracle.vp
    monkeypatch.setattr(YearModel, "CUTS", ())
    assert model_stats(inst).constraints < len(year.m.proto.constraints)
    assert solve(inst).vp == oracle.vp


# ---------------------------------------------------------------- simulator agreement
@pytest.mark.parametrize("seed", range(4))
def test_short_default_years_replay_to_the_same_vp(seed):
    solve(default_instance(seed, turns=3), time_limit=10)


def test_a_time_limit_the_set_up_used_up_starts_no_solver(monkeypatch):
    """The fast bound, the model and its hint are built before CP-SAT and not cut short; when
    they used the time up no solver starts (CP-SAT got at least 0.01 s more and took several
    times that: 0.17 s at time_limit=0.05 on default_instance(0)) and the greedy year comes
    back, "feasible" for the reason "time", as the harvest planner does."""
    import solvers.lemuria as lemuria
    from solvers.lemuria.greedy import greedy_schedule

    def no_solver(*args, **kwargs):
        raise AssertionError("the solver started past the deadline")

    monkeypatch.setattr(lemuria, "solve_watched", no_solver)
    inst = default_instance(0)
    plan = build_schedule(inst, time_limit=1e-9, workers=1)
    assert (plan.status, plan.reason, plan.vp) == ("feasible", "time", greedy_schedule(inst).vp)
    assert simulate(inst, plan).total == plan.vp


def test_time_limited_plans_still_replay_exactly():
    plan = solve(default_instance(7, turns=6), time_limit=2)
    assert plan.status in ("optimal", "feasible")
    if plan.status == "feasible":
        assert plan.bound is not None and plan.bound >= plan.vp


def test_default_year_with_opponents_replays_exactly():
    base = default_instance(3, turns=5)
    row = [c for c in base.trend if c]
    opps = (Opponent(builds={1: row[0], 3: base.deck[0]}, chits={1: "church", 2: "rural"},
                     residents={4: {"red": 1, "blue": 2}}),
            Opponent(builds={2: row[2]}, chits={1: "commerce", 3: "church"}))
    inst = Instance(**{**base.__dict__, "opponents": opps})
    solve(inst, time_limit=5)


# ---------------------------------------------------------------- one instance per rule
def test_trend_bonus_decides():
    # One build affordable. Slot 1 card: 1 VP + 6 trend = 7; slot 5 card: 5 VP + 0 = 5.
    inst = Instance(turns=1, buildings=cards(("A", "red", 1, {"stone": 1}),
                                             ("B", "red", 5, {"stone": 1})),
                    characters={}, trend=("A", None, None, None, "B"), start={"stone": 1})
    plan = solve(inst)
    assert plan.vp == 7 and builds(plan) == [(1, "A")]


def test_lower_trend_reduction_makes_a_build_affordable():
    # B costs 2 stone, the player has 1: only the Lower Trend reduction (slot 4) allows it.
    inst = Instance(turns=1, buildings=cards(("B", "red", 4, {"stone": 2})), characters={},
                    trend=(None, None, None, "B", None), start={"stone": 1})
    plan = solve(inst)
    assert plan.vp == 4
    assert plan.turns[0].build_action().reduce == ("stone",)


def test_admin_bonus_does_not_reduce_a_lower_trend_card_twice():
    # Turn 1: build A (free, slot 5). U (slot 1) is then the only card: it slides to slot 5
    # (Lower Trend). U costs 2 stone, the player has 1: the Lower Trend reduction suffices, so
    # the Administrative chit is worth nothing and the Church chit (+3 at turn 2) is best:
    # 0 + 3 + 5 = 8.
    inst = Instance(turns=2, buildings=cards(("A", "red", 0, {}), ("U", "blue", 5, {"stone": 2})),
                    characters={}, trend=("U", None, None, None, "A"),
                    income={2: {"stone": 1}})
    plan = solve(inst)
    assert plan.vp == 8
    assert builds(plan) == [(1, "A"), (2, "U")]
    assert plan.turns[0].build_action().district == "church"


def test_administrative_reduction_on_an_upper_card():
    # Row U B1 B2 B3 A. Turn 1: build A (slot 5, free); the others slide right by one and D
    # (the deck) enters slot 1: turn 2 row = D U B1 B2 B3, U in slot 2 (Upper, +3). U costs 2
    # stone, the player has 1: it needs the Administrative reduction, i.e. A's chit in
    # Administrative. VP: 0 + 5 + 3 = 8; with the chit in Church only 3.
    filler = {"stone": 9}
    inst = Instance(turns=2,
                    buildings=cards(("A", "red", 0, {}), ("U", "blue", 5, {"stone": 2}),
                                    ("B1", "red", 0, filler), ("B2", "red", 0, filler),
                                    ("B3", "red", 0, filler), ("D", "red", 0, filler)),
                    characters={}, trend=("U", "B1", "B2", "B3", "A"), deck=("D",),
                    income={2: {"stone": 1}})
    plan = solve(inst)
    assert plan.vp == 8
    assert plan.turns[0].build_action().district == "administrative"
    assert builds(plan) == [(1, "A"), (2, "U")]


def test_majority_tie_gives_no_bonus():
    # The opponent places a Church chit in turn 1. The player builds once (turn 1); a Church
    # chit ties (1-1): no bonus in turns 2-3, so Church is worth 0. Turn 3 is not a festival.
    # With the tie rule broken it would be worth 6.
    inst = Instance(turns=3, buildings=cards(("A", "red", 2, {"stone": 1})), characters={},
                    trend=(None, None, None, None, "A"), start={"stone": 1},
                    opponents=(Opponent(chits={1: "church"}),))
    plan = solve(inst)
    assert plan.breakdown["church"] == 0 and plan.vp == 2
    alone = Instance(**{**inst.__dict__, "opponents": ()})
    assert solve(alone).breakdown["church"] == 6


def test_festival_presence_suffices_despite_a_tie():
    # Same, but turn 4 is a festival: any chit in Church gives +3 at its start, tie or not.
    inst = Instance(turns=4, buildings=cards(("A", "red", 2, {"stone": 1})), characters={},
                    trend=(None, None, None, None, "A"), start={"stone": 1},
                    opponents=(Opponent(chits={1: "church"}),))
    plan = solve(inst)
    assert plan.breakdown["church"] == 3 and plan.vp == 5


def test_festival_scores_three_times_only_when_strictly_first():
    # One red facility with one resident at festival 4. The opponent has 1 red resident: a tie
    # gives 1 VP. Alone (or against a blue opponent) it gives 3 VP.
    def inst(opp_residents):
        return Instance(turns=4, buildings=cards(("A", "red", 0, {"stone": 1})),
                        characters=people(("K", "red", 1, 0, 0)),
                        trend=(None, None, None, None, "A"), start={"stone": 1, "food": 1},
                        hand=("K",), opponents=(Opponent(chits={1: "rural"},
                                                         residents={4: opp_residents}),))
    assert solve(inst({"red": 1})).breakdown["festival"] == 1
    assert solve(inst({"blue": 1})).breakdown["festival"] == 3
    assert solve(inst({"red": 0})).breakdown["festival"] == 3


def test_resident_matching_colour_and_one_resident_per_facility():
    # One red facility, two characters: red K (plain 1, match 2) and blue L (plain 1, match 5).
    # Only one may live there: K scores 2 (match) and L only 1 there, so K. Breaking "one
    # resident per facility" would give 3.
    inst = Instance(turns=1, buildings=cards(("A", "red", 0, {})),
                    characters=people(("K", "red", 1, 1, 2), ("L", "blue", 1, 1, 5)),
                    trend=(None, None, None, None, "A"), start={"food": 2}, hand=("K", "L"))
    plan = solve(inst)
    assert plan.breakdown["residents"] == 2


def test_remodel_same_colour_reduction():
    # A (free, red) built in turn 1 with its chit in Church (+3 in turns 2..8 = 21). R (red,
    # 3 stone, 5 VP) cycles in slot 5 (the deck is empty, the returned card comes back). The
    # player never has stone: R needs 3 reductions = Lower Trend + remodel + same colour, only
    # from turn 8. 0 + 21 + 5 = 26. If A were blue R stays out of reach: 0 + 21 = 21.
    def inst(color):
        return Instance(turns=8, buildings=cards(("A", color, 0, {}),
                                                 ("R", "red", 5, {"stone": 3})),
                        characters={}, trend=("R", None, None, None, "A"))
    plan = solve(inst("red"))
    assert plan.vp == 26
    assert any(isinstance(a, Remodel) for p in plan.turns for a in p.actions)
    assert solve(inst("blue")).vp == 21


def test_no_remodel_before_turn_eight():
    inst = Instance(turns=7, buildings=cards(("A", "red", 0, {}), ("R", "red", 5, {"stone": 3})),
                    characters={}, trend=("R", None, None, None, "A"))
    assert solve(inst).vp == 18


def test_refill_draws_first_card_into_the_rightmost_empty_slot():
    # Turn 1: X (slot 1, 1 VP) or Y (slot 5, 2 VP, 2 stone reduced to 1). After a build from
    # slots 1-4 two cards are drawn: V (the deck top) goes to slot 2, W to slot 1; after no
    # build or a slot-5 build only V is drawn, into slot 1.
    # X then V@2: 1+6 + 3 (church) + 5+3 = 18. Y then V@1: 2 + 3 + 5+6 = 16. Nothing, V@1: 11.
    # A model drawing into the leftmost slot first would give X then V@1 = 21.
    inst = Instance(turns=2,
                    buildings=cards(("X", "red", 1, {"stone": 1}), ("Y", "red", 2, {"stone": 2}),
                                    ("V", "blue", 5, {"stone": 1}), ("W", "blue", 0, {"stone": 1}),
                                    ("F1", "red", 0, {"gold": 9}), ("F2", "red", 0, {"gold": 9}),
                                    ("F3", "red", 0, {"gold": 9})),
                    characters={}, trend=("X", "F1", "F2", "F3", "Y"), deck=("V", "W"),
                    start={"stone": 1}, income={2: {"stone": 1}})
    plan = solve(inst)
    assert plan.vp == 18
    assert builds(plan) == [(1, "X"), (2, "V")]
    assert plan.breakdown["trend"] == 9


def test_row_closes_gaps_when_sliding():
    # A card right of an empty slot slides past it: G in slot 3 with slots 4-5 empty reaches
    # slot 5 after one turn (Lower Trend reduction: 2 stone -> 1), not slot 4.
    inst = Instance(turns=2, buildings=cards(("G", "red", 3, {"stone": 2})), characters={},
                    trend=(None, None, "G", None, None), income={2: {"stone": 1}})
    plan = solve(inst)
    assert plan.vp == 3 and builds(plan) == [(2, "G")]


def test_eight_facility_cap():
    # Free 0-VP red cards; twelve 0-food red characters worth 0 VP. A build each turn is worth
    # the 6 trend bonus (72), Church pays 3 from turn 2 (33), and each housed facility 3 VP per
    # festival. Facilities: 4 at festival 4 (12), 8 at festival 8 (24); from turn 9 only
    # remodels are possible (the cap), so still 8 at festival 12 (24): 72 + 33 + 60 = 165.
    # Without the cap festival 12 would score 36 (177).
    ids = [f"F{i:02d}" for i in range(24)]
    chars = people(*[(f"K{i:02d}", "red", 0, 0, 0) for i in range(12)])
    inst = Instance(turns=12, buildings=cards(*[(c, "red", 0, {}) for c in ids]),
                    characters=chars, trend=tuple(ids[:5]), deck=tuple(ids[5:]),
                    hand=tuple(chars))
    plan = solve(inst)
    assert plan.vp == 165 and plan.breakdown["festival"] == 60
    assert sum(isinstance(a, Build) for p in plan.turns for a in p.actions) == 8


def test_model_stats_and_limits():
    stats = model_stats(default_instance(0, turns=2))
    assert stats.variables >= stats.booleans > 0 and stats.constraints > 0
    with pytest.raises(SearchLimitError):
        build_schedule(default_instance(0, turns=2), time_limit=0)
    for workers in (0, 10**23):  # CP-SAT's parameter is 32 bits: the edge checks the size
        with pytest.raises(SearchLimitError, match="workers must be an integer from 1 to"):
            build_schedule(default_instance(0, turns=2), workers=workers)
    with pytest.raises(LumicoreError, match="'newton'"):
        build_schedule(default_instance(0, turns=2), bound_method="newton")


@pytest.mark.parametrize("flag", ["hint", "harvests", "lns", "fast_bound", "restarts",
                                  "characters", "branch", "beside", "dives"])
def test_build_schedule_names_a_flag_that_is_no_bool(flag):
    """Any value was taken for these switches, by its truth ("no" switched one on)."""
    with pytest.raises(LumicoreError, match=f"^{flag} must be"):
        build_schedule(default_instance(0, turns=2), time_limit=1, **{flag: "no"})



@pytest.mark.parametrize("method", ["columns", "subgradient"])
def test_either_bound_method_proves_a_short_year(method):
    # 3 turns: about 2 s here, so the 30-s limit holds on a slow machine (4 turns took 14 s)
    inst = default_instance(1, turns=3)
    plan = build_schedule(inst, bound_method=method, **FAST)
    assert plan.status == "optimal" and simulate(inst, plan).total == plan.vp
    assert lagrangian_bound(inst, time_limit=10, method=method).value >= plan.vp


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_full_default_year_replays_exactly(seed):
    solve(default_instance(seed), time_limit=60)
