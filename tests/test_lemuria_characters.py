"""The character planner for fixed builds (solvers.lemuria.characters) against a naive search
through the rules that keeps the same builds and tries every character move."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lemuria_helpers import naive_best, random_schedule

from lumicore.errors import IllegalMoveError, LumicoreError, SearchLimitError
from lumicore.lemuria import Building, Character, Instance, default_instance, simulate
from lumicore.lemuria.instance import small_instance
from lumicore.lemuria.schedule import Build, Play, Remodel, TurnPlan
from solvers.lemuria.characters import CHARACTER_RESOURCES, best_characters, freer_reductions
from solvers.lemuria.greedy import greedy_schedule


def builds_of(plans) -> dict:
    return {p.turn: p.build_action() for p in plans}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), turns=st.integers(1, 5), opponents=st.integers(0, 2),
       characters=st.integers(1, 5))
def test_equals_a_naive_search_over_every_character_move(seed, turns, opponents, characters):
    inst = small_instance(seed, turns=turns, buildings=5, characters=characters,
                          opponents=opponents)
    plans = random_schedule(inst, random.Random(seed))
    plan = best_characters(inst, plans)
    assert plan.status == "optimal"
    assert plan.vp == naive_best(inst, plans)
    assert simulate(inst, plan.schedule).total == plan.vp
    assert builds_of(plan.schedule.turns) == builds_of(plans)


@pytest.mark.parametrize("seed", range(4))
def test_remodels_send_residents_back_and_stay_exact(seed):
    """Eight-turn years whose random plans remodel (in turn 8): the discarded resident goes
    to the bottom of a short character deck, where it can be drawn again."""
    inst = small_instance(seed, turns=8, buildings=5, characters=2)
    rng = random.Random(seed)
    for _ in range(200):
        plans = random_schedule(inst, rng)
        if any(isinstance(p.build_action(), Remodel) for p in plans):
            break
    else:
        pytest.skip("no random plan remodels")
    plan = best_characters(inst, plans)
    assert plan.status == "optimal"
    assert plan.vp == naive_best(inst, plans)
    assert simulate(inst, plan.schedule).total == plan.vp


def test_improves_the_greedy_year_and_keeps_its_builds():
    inst = default_instance(1, turns=6)
    greedy = greedy_schedule(inst)
    plan = best_characters(inst, greedy)
    assert plan.status == "optimal"
    assert plan.vp > greedy.vp
    assert simulate(inst, plan.schedule).total == plan.vp
    assert builds_of(plan.schedule.turns) == builds_of(greedy.turns)
    lines = str(plan).splitlines()  # it printed as the dataclass repr, the schedule and all
    assert lines[0].startswith(f"{plan.vp} VP, optimal: {plan.nodes} states expanded, ")
    assert lines[1:] == [str(t) for t in plan.schedule.turns]


def test_a_beam_says_limit_and_never_returns_less_than_it_was_given():
    inst = default_instance(2, turns=8)
    greedy = greedy_schedule(inst)
    plan = best_characters(inst, greedy, max_states=5)
    assert plan.status == "limit"
    assert plan.vp >= greedy.vp
    assert simulate(inst, plan.schedule).total == plan.vp


def test_limits_stop_it_with_the_given_year():
    inst = default_instance(2)
    greedy = greedy_schedule(inst)
    plan = best_characters(inst, greedy, max_nodes=2000)
    assert (plan.status, plan.reason) == ("limit", "nodes")
    assert plan.vp >= greedy.vp


@pytest.mark.parametrize("bad", [0, -3, 2.5, True])
def test_bad_max_states_is_a_lumicore_error(bad):
    inst = default_instance(0, turns=2)
    with pytest.raises(LumicoreError, match="max_states"):
        best_characters(inst, greedy_schedule(inst), max_states=bad)


def test_bad_limits_and_illegal_plans_are_refused():
    inst = default_instance(0, turns=2)
    with pytest.raises(SearchLimitError):
        best_characters(inst, greedy_schedule(inst), time_limit=0)
    with pytest.raises(IllegalMoveError, match="turn 1"):
        best_characters(inst, [TurnPlan(1, (Play("C99"),))])


def test_a_discarded_resident_comes_back_from_the_bottom_of_the_deck():
    """The only character lives in A; the turn-8 remodel of A sends it to the bottom of the
    empty character deck, from where a free buy draws it back into the new facility."""
    inst = Instance(
        turns=8, trend=("A", "B", None, None, None), start={"stone": 2, "food": 4},
        buildings={"A": Building("A", "red", 1, {"stone": 1}),
                   "B": Building("B", "red", 1, {"stone": 1})},
        characters={"K": Character("K", "red", 1, 1, 3)}, hand=("K",))
    plans = [TurnPlan(1, (Build("A", "rural"),)), TurnPlan(8, (Remodel("A", "B"),))]
    plan = best_characters(inst, plans)
    assert plan.vp == naive_best(inst, plans) == simulate(inst, plan.schedule).total
    played = [a for p in plan.schedule.turns for a in p.actions if isinstance(a, Play)]
    assert played == [Play("K", "A"), Play("K", "B")]


def polished(inst, bound):
    from lumicore.lemuria import Schedule
    from solvers.lemuria import _polish

    greedy = greedy_schedule(inst)
    schedule = Schedule(greedy.turns, vp=greedy.vp, breakdown=greedy.breakdown,
                        status="feasible", bound=bound)
    _polish(inst, schedule, seconds=30)
    assert simulate(inst, schedule).total == schedule.vp
    return greedy, schedule


def test_the_scheduler_polish_keeps_the_better_year_and_its_bound():
    inst = default_instance(1, turns=6)
    greedy, schedule = polished(inst, bound=200.0)
    assert schedule.vp == best_characters(inst, greedy).vp > greedy.vp
    assert (schedule.status, schedule.bound) == ("feasible", 200.0)


def test_the_scheduler_polish_reaching_the_bound_is_optimal():
    inst = default_instance(1, turns=6)
    best = best_characters(inst, greedy_schedule(inst)).vp
    _greedy, schedule = polished(inst, bound=float(best))
    assert (schedule.status, schedule.bound, schedule.vp) == ("optimal", best, best)
    _greedy, schedule = polished(inst, bound=float(best - 1))  # a bound the plan beats
    assert (schedule.status, schedule.bound, schedule.vp) == ("feasible", None, best)


def spared(plans) -> list[int]:
    return [sum(p.build_action().reduce.count(x) for x in CHARACTER_RESOURCES)
            for p in plans if p.build_action() is not None]


def cards_of(plans) -> dict:
    return {t: None if a is None else (type(a), a.card, getattr(a, "district", None),
                                       getattr(a, "discard", None))
            for t, a in builds_of(plans).items()}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), turns=st.integers(1, 8), characters=st.integers(1, 4))
def test_freer_reductions_keep_the_year_and_never_cost_the_characters(seed, turns, characters):
    inst = small_instance(seed, turns=turns, buildings=5, characters=characters)
    plans = random_schedule(inst, random.Random(seed))
    freer = freer_reductions(inst, plans)
    assert simulate(inst, freer).total == simulate(inst, plans).total
    assert cards_of(freer) == cards_of(plans)
    assert all(a >= b for a, b in zip(spared(freer), spared(plans), strict=True))
    assert [p.actions for p in freer if p.build_action() is None] == [
        p.actions for p in plans if p.build_action() is None]
    before, after = best_characters(inst, plans), best_characters(inst, freer)
    assert before.status == after.status == "optimal" and after.vp >= before.vp


def test_freer_reductions_give_back_what_a_solved_plan_lost():
    """The model, solving the greedy year with its decisions fixed, is free to drop reductions
    (they change nothing of that year's VP); moved back onto food and gold they let the
    character planner find the greedy year's best character moves again."""
    from solvers.lemuria.model import YearModel

    inst = default_instance(1, turns=6)
    greedy = greedy_schedule(inst)
    year = YearModel(inst)
    assert year.hint(greedy.turns, {r.turn: r.row for r in simulate(inst, greedy).trace})
    solved = year.schedule_turns(year.solve_hinted())
    best = best_characters(inst, greedy).vp
    assert best_characters(inst, solved).vp < best
    freer = freer_reductions(inst, solved)
    assert sum(spared(freer)) > sum(spared(solved))
    assert best_characters(inst, freer).vp == best


@pytest.mark.parametrize("limit", [1, 5])
def test_max_nodes_stops_at_the_node_it_names(limit):
    """The limit was read every 1024 states only: max_nodes=1 expanded 330."""
    inst = default_instance(seed=0)
    plan = best_characters(inst, greedy_schedule(inst), max_nodes=limit)
    assert (plan.status, plan.reason, plan.nodes) == ("limit", "nodes", limit)
