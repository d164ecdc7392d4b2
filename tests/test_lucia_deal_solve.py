"""Exact deal solving (kernel) against a plain exhaustive search in Python, on small deals."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lumicore.errors import IllegalMoveError, LumicoreError
from lumicore.lucia import Action, Card, Rules, Train
from lumicore.lucia import kernel as K
from lumicore.lucia.deal import Deal, heuristic_table
from lumicore.lucia.deal_reference import after_play, fewest_plays, plays, winnable
from lumicore.lucia.start import fix_up
from solvers.lucia import DealStep, replay_deal, solve_deal, solve_position

KINDS = (
    Card((Action.light("T"),)), Card((Action.light("H"),)), Card((Action.lucia(),)),
    Card((Action.wild(1),)), Card((Action.move("S", 1),)), Card((Action.move("HS", 2),)),
    Card((Action.light("T"), Action.move("H", 1))), Card((Action.wild(2),)),
    Card((Action.move("G", 1),)),
)


@st.composite
def small_deals(draw, min_cards=6, max_cards=14, max_others=4):
    """A train (Lucia L0..L5), a deck, 1 to 4 players (3 cards each as far as the deck goes:
    a hand may be short or empty) and the rules, with or without ``lucia_partial``."""
    others = draw(st.lists(st.sampled_from([0, 1, 2, 3, 4]), min_size=2, max_size=max_others))
    where = draw(st.integers(0, len(others)))
    codes = [*others[:where], 5 + draw(st.integers(0, 5)), *others[where:]]
    try:
        train = Train(fix_up(codes))
    except LumicoreError:
        train = Train.parse("h T L3 S")
    deck = draw(st.lists(st.sampled_from(KINDS), min_size=min_cards, max_size=max_cards))
    players = draw(st.integers(1, 4))
    return train, tuple(deck), players, Rules(lucia_partial=draw(st.booleans()))


def reference_hands(deck, players):
    return tuple(tuple(deck[3 * i:3 * i + 3]) for i in range(players)), deck[3 * players:]


@settings(max_examples=80)
@given(small_deals())
def test_solve_deal_agrees_with_exhaustive_search(case):
    train, deck, players, rules = case
    hands, stock = reference_hands(deck, players)
    want = winnable(train, hands, stock, rules=rules)
    result = solve_deal(train, deck, players, rules=rules)
    assert result.status == ("winnable" if want else "unwinnable"), \
        (str(train), deck, players, rules)
    if want:
        assert replay_deal(train, deck, players, result.plan, rules).is_goal()
        assert result.cost == len(result.plan)
    else:
        assert result.plan == [] and result.cost is None


@settings(max_examples=40)
@given(small_deals(max_cards=11))
def test_shortest_plan_has_the_fewest_plays(case):
    train, deck, players, rules = case
    hands, stock = reference_hands(deck, players)
    want = fewest_plays(train, hands, stock, rules=rules)
    result = solve_deal(train, deck, players, shortest=True, rules=rules)
    if want is None:
        assert result.status == "unwinnable"
    else:
        assert result.status == "winnable" and result.shortest_proven
        assert result.cost == want
        assert replay_deal(train, deck, players, result.plan, rules).is_goal()


@settings(max_examples=40)
@given(small_deals(max_cards=9, max_others=3))
def test_kernel_children_values_equal_reference(case):
    """The kernel's value of every play from a position (its primitive for best play) equals the
    reference's exhaustive answer for the position after that play."""
    train, deck, players, rules = case
    hands, stock = reference_hands(deck, players)
    kinds = tuple(dict.fromkeys(deck))
    index = [[kinds.index(c) for c in h] for h in hands]
    search = K.deal_search(train, kinds, [kinds.index(c) for c in stock], index,
                           heuristic_table(kinds, train), rules)
    found, reason = search.children(train.packed, 10**9, 0.0)
    assert reason == 0
    got = {(kinds[k], Train.from_packed(y)): code for k, y, code in found}
    assert set(got) == set(plays(train, hands[0], rules))
    for (card, after), code in got.items():
        if after.is_goal():
            assert code == 1
            continue
        nxt_hands, mover, nxt_stock = after_play(hands, 0, card, stock)
        assert code == int(winnable(after, nxt_hands, nxt_stock, mover, rules)), \
            (card, str(after), rules)


# a fixed pair: the same train, one deck wins and one loses (so both outcomes are covered)
LIGHT_T, LUCIA, LIGHT_H = KINDS[0], KINDS[2], KINDS[1]


def test_known_winnable_and_unwinnable_deals():
    train = Train.parse("H L3 T")
    win = solve_deal(train, [LIGHT_T, LUCIA, LIGHT_T, LIGHT_T])
    assert win.status == "winnable" and win.cost == 3
    # no Handmaiden is lit, so no card of the hand can be played: lost before the lucia card
    lose = solve_deal(Train.parse("h L3 T"), [LIGHT_H, LIGHT_H, LIGHT_H, LUCIA])
    assert lose.status == "unwinnable" and lose.plan == []


def test_two_players_take_turns_in_the_plan():
    train = Train.parse("H L3 T")
    deck = [LIGHT_T, LIGHT_T, LIGHT_H, LUCIA, LIGHT_T, LIGHT_T]
    result = solve_deal(train, deck, players=2)
    assert result.status == "winnable"
    assert [s.player for s in result.plan] == [1, 2, 1, 2][:len(result.plan)]
    assert replay_deal(train, deck, 2, result.plan).is_goal()


def test_a_plan_of_a_deal_with_smaller_hands_replays():
    """replay_deal dealt 3 cards a player whatever the deal's hand_size: the winning plan of
    Deal('T L4', [wild 1, light from T], players=2, hand_size=1) (player 1 wild 1, player 2
    light from T) was refused with 'step 2: player 2 does not hold light from T'."""
    wild = Card((Action.wild(1),))
    d = Deal(Train.parse("T L4"), (wild, LIGHT_T), players=2, hand_size=1)
    result = solve_deal(d)
    assert result.status == "winnable" and [s.player for s in result.plan] == [1, 2]
    assert replay_deal(d.train, d.deck, d.players, result.plan, hand_size=1).is_goal()
    with pytest.raises(IllegalMoveError, match="player 2 does not hold"):
        replay_deal(d.train, d.deck, d.players, result.plan)  # dealt 3 each: player 1 holds both
    with pytest.raises(LumicoreError, match="hand_size"):
        replay_deal(d.train, d.deck, d.players, result.plan, hand_size=0)


def test_replay_rejects_a_card_the_player_does_not_hold():
    train = Train.parse("H L3 T")
    play = next(iter(train.plays(LUCIA)))
    with pytest.raises(IllegalMoveError, match="does not hold"):
        replay_deal(train, [LIGHT_T] * 4, 1, [DealStep(1, play)])


def test_goal_start_is_won_with_no_play():
    result = solve_deal(Train.parse("L5 H T S"), [LIGHT_H] * 3)
    assert result.status == "winnable" and result.cost == 0 and result.shortest_proven


def test_empty_hand_loses():
    result = solve_deal(Train.parse("h L3 T"), [])
    assert result.status == "unwinnable"


def test_node_limit_reports_limit():
    from lumicore.lucia.deal import deal

    result = solve_deal(deal(0, deck="reconstructed"), max_nodes=1000)
    assert result.status == "limit" and result.reason == "nodes" and result.plan == []


def test_a_node_limit_past_the_kernels_counter_means_no_limit():
    """Any positive Python int is a limit (the kernel's counter is 64 bits): past what it can
    count, the search runs as without one."""
    d = Deal(Train.parse("H L3 T"), (LIGHT_T, LUCIA, LIGHT_T, LIGHT_T))
    huge, free = solve_deal(d, max_nodes=10**30), solve_deal(d, max_nodes=None)
    assert huge.status == free.status == "winnable" and huge.nodes == free.nodes
    assert huge.plan == free.plan


def test_solve_deal_accepts_a_deal_and_positions():
    d = Deal(Train.parse("H L3 T"), (LIGHT_T, LUCIA, LIGHT_T, LIGHT_T))
    assert solve_deal(d).status == "winnable"
    result = solve_position(Train.parse("H L4 T"), [[LUCIA], [LIGHT_T]], [], mover=1)
    assert result.status == "winnable" and result.plan[0].player == 2


@pytest.mark.parametrize("bad, match", [
    (dict(players=0), "players"), (dict(players=9), "players"),
    (dict(time_limit=-1.0), "time_limit"), (dict(max_nodes=0), "max_nodes"),
    (dict(deck=["light"]), "not a lumicore.lucia.Card"), (dict(deck="light T"), "sequence"),
])
def test_bad_input_is_one_line_error(bad, match):
    args = dict(train=Train.parse("H L3 T"), deck=[LIGHT_T] * 4)
    args.update(bad)
    with pytest.raises(LumicoreError, match=match) as err:
        solve_deal(**args)
    assert "\n" not in str(err.value)


def test_kernel_door_validates():
    train = Train.parse("H L3 T")
    table = heuristic_table((LIGHT_T,), train)
    with pytest.raises(LumicoreError, match="out of range"):
        K.deal_search(train, (LIGHT_T,), [3], [[0]], table)
    with pytest.raises(LumicoreError, match="at most 3"):
        K.deal_search(train, (LIGHT_T,), [], [[0, 0, 0, 0]], table)
    with pytest.raises(LumicoreError, match="players"):
        K.deal_search(train, (LIGHT_T,), [], [[0]] * 5, table)


def test_ctrl_c_stops_the_kernel_search_as_interrupted():
    import os
    import subprocess

    from lumicore.lucia.deal import deal

    hard = deal(0, deck="reconstructed")     # a search that runs for minutes unless stopped
    # the signal comes from another process, as Ctrl-C does (the kernel holds the GIL)
    killer = subprocess.Popen(["sh", "-c", f"sleep 0.5; kill -INT {os.getpid()}"])
    try:
        result = solve_deal(hard, time_limit=30)
    finally:
        killer.wait()
    # the kernel polls Ctrl-C with its deadline, every 4096 nodes: a press it did not hear would
    # end the search on "time" (or "nodes"), so the reason is the check, not the clock
    assert result.status == "interrupted" and result.reason == "interrupted"
    assert result.plan == []


# ---- the kernel's own DealSearch (what kernel.deal_search returns) checks its arguments: its
# methods took C ints (a plain OverflowError, TypeError or ValueError; NaN was no deadline, a
# train of another length was searched as one of the search's and answered wrongly)

def _deal_search():
    train = Train.parse("h T L3 S")
    kinds = KINDS[:4]
    return train, K.deal_search(train, kinds, [0, 1, 2, 3, 2, 1], [[0, 1, 2], [3, 2, 1]],
                                heuristic_table(kinds, train), tt_bits=8)


_TRAIN_BAD = (-1, 2**64, "x", 1.5, None, True, Train.parse("h T L3 S h").packed, 0,
              2**64 - 1)
_DEAL_CALLS = [  # (method, argument, call with the value, bad values)
    ("solve", "train", lambda s, t, v: s.solve(v, -1, 1000, 0.0), _TRAIN_BAD),
    ("solve", "bound", lambda s, t, v: s.solve(t, v, 1000, 0.0), (-2, 2**31, 2**70, "1", 1.0,
                                                                   None)),
    ("solve", "max_nodes", lambda s, t, v: s.solve(t, -1, v, 0.0), (-1, 2**62 + 1, 2**70,
                                                                     np.int64(-5), "9", 9.0)),
    ("solve", "deadline", lambda s, t, v: s.solve(t, -1, 1000, v), (float("nan"), float("inf"),
                                                                     -1.0, "soon", None)),
    ("solve", "progress", lambda s, t, v: s.solve(t, -1, 1000, 0.0, v), (5, "print")),
    ("children", "train", lambda s, t, v: s.children(v, 1000, 0.0), _TRAIN_BAD),
    ("children", "max_nodes", lambda s, t, v: s.children(t, v, 0.0), (-1, 2**70, "9", 9.5)),
    ("children", "deadline", lambda s, t, v: s.children(t, 1000, v), (float("nan"), -5.0, "x")),
    ("reset", "deck", lambda s, t, v: s.reset(v, [[0]]), ([9], [-1], [2**70], ["a"], [1.0],
                                                          [0] * 251, 5, "0")),
    ("reset", "hands", lambda s, t, v: s.reset([0], v), ([], [[9]], [[0, 0, 0, 0]], [[-1]],
                                                         [[0]] * 5, [["a"]], None, [5])),
]


@pytest.mark.parametrize("call, name, bad", [
    pytest.param(call, name, bad, id=f"{method}-{name}={bad!r}"[:90])
    for method, name, call, bads in _DEAL_CALLS for bad in bads])
def test_kernel_deal_search_methods_name_a_bad_argument(call, name, bad):
    train, search = _deal_search()
    with pytest.raises(LumicoreError, match=rf"^{name}(\[\d+\])* must be"):
        call(search, train.packed, bad)


def test_a_bad_reset_leaves_the_deal_as_it_was():
    train, search = _deal_search()
    before = search.children(train.packed, 10**6, 0.0)
    train, search = _deal_search()
    with pytest.raises(LumicoreError, match=r"hands\[1\]\[0\]"):
        search.reset([3, 3, 3], [[0, 1, 2], [9]])
    assert search.children(train.packed, 10**6, 0.0) == before
