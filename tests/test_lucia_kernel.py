"""The Cython kernel against the reference rules (hypothesis differential tests)."""

from __future__ import annotations

import functools
import re

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from lumicore._ext import lucia as _k
from lumicore.errors import DataError, LumicoreError, NotationError, SearchLimitError
from lumicore.lucia import Action, Card, Rules, Train, load_deck, random_train
from lumicore.lucia import kernel as K
from lumicore.lucia import reference as R
from lumicore.lucia.deal_game import DealState
from lumicore.lucia.deal_reference import plays
from lumicore.lucia.game import PuzzleState
from lumicore.lucia.heuristic import build_table, estimate
from lumicore.lucia.start import fix_up

DECK = load_deck().kinds
EXTRA = (
    Card((Action.wild(3),)), Card((Action.move("L", 1),)), Card((Action.move("HTG", 4),)),
    Card((Action.light("T"), Action.light("T"))), Card((Action.wild(1), Action.wild(2))),
    Card((Action.lucia(), Action.move("G", 2))), Card((Action.move("S", 15),)),
)
CARDS = DECK + EXTRA
TABLE = K.card_table(CARDS)
PARTIAL = Rules(lucia_partial=True)
TABLE_PARTIAL = K.card_table(CARDS, PARTIAL)


def _separated(codes) -> tuple[int, ...]:
    """Apply the setup's fix-up so that no Gingerbread stands next to a Starboy."""
    try:
        return fix_up(codes)
    except DataError:
        assume(False)


@st.composite
def trains(draw, max_kids=16):
    others = draw(st.lists(st.sampled_from([0, 0, 1, 1, 2, 3, 4]), max_size=max_kids - 1))
    where = draw(st.integers(0, len(others)))
    codes = tuple(others[:where]) + (5 + draw(st.integers(0, 5)),) + tuple(others[where:])
    return Train(_separated(codes))


@st.composite
def standard_trains(draw):
    codes = draw(st.permutations([0] * 7 + [2, 2, 3, 3, 3, 4, 4, 4, 5]))
    lit = draw(st.lists(st.booleans(), min_size=16, max_size=16))
    codes = [1 if c == 0 and on else c for c, on in zip(codes, lit, strict=True)]
    codes = [5 + draw(st.integers(0, 5)) if c == 5 else c for c in codes]
    return Train(_separated(codes))


def kernel_set(train: Train, table: np.ndarray, i: int) -> set[int]:
    out = K.successors(train.packed, table, i)
    assert len(out) == len(set(out.tolist())), "kernel repeats a successor"
    return set(out.tolist())


def check_all_cards(train: Train) -> None:
    for i, card in enumerate(CARDS):
        want = {Train(k).packed for k in R.successors(train.codes, card)}
        assert kernel_set(train, TABLE, i) == want, (str(train), card)
        want = {Train(k).packed for k in R.successors(train.codes, card, lucia_partial=True)}
        assert kernel_set(train, TABLE_PARTIAL, i) == want, (str(train), card, "partial")


@given(trains())
def test_kernel_successors_equal_reference(train):
    check_all_cards(train)


@settings(max_examples=60)
@given(standard_trains())
def test_kernel_successors_equal_reference_full_trains(train):
    check_all_cards(train)


@pytest.mark.parametrize("seed", range(5))
def test_kernel_on_setup_trains(seed):
    check_all_cards(random_train(seed))


PLAYS = _k.CardPlays(TABLE)  # one object for every example: its scratch space is reused


@given(st.lists(st.tuples(trains(), st.integers(0, len(CARDS) - 1)), min_size=1, max_size=8))
def test_card_plays_answer_as_the_reference_call_after_call(calls):
    for train, i in calls:
        got = PLAYS(train.packed, i)
        assert len(got) == len(set(got)), "a repeated successor"
        assert set(got) == {Train(k).packed for k in R.successors(train.codes, CARDS[i])}


@given(trains(), st.lists(st.integers(0, len(CARDS) - 1), min_size=1, max_size=6))
def test_a_dealt_states_plays_are_the_references_in_the_actions_order(train, hand):
    assume(not train.is_goal())
    state = DealState(train, CARDS, [hand], order=[])
    want = sorted(plays(train, [CARDS[k] for k in hand]),
                  key=lambda o: (CARDS.index(o[0]), str(o[1])))
    assert [state.action_to_string(a) for a in state.legal_actions()] == \
        [f"player 1: {card.name} => {after}" for card, after in want]


@settings(max_examples=60)
@given(trains(max_kids=10), st.booleans())
def test_a_puzzle_states_actions_are_the_references_in_their_order(train, partial):
    rules = PARTIAL if partial else Rules()
    state = PuzzleState(train, CARDS, rules=rules)
    first: dict[tuple[int, Train], str] = {}
    if not train.is_goal():
        for i, card in enumerate(CARDS):
            for play in train.plays(card, rules):
                first.setdefault((i, play.train), str(play))
    want = [first[k] for k in sorted(first, key=lambda k: (k[0], str(k[1])))]
    assert [state.action_to_string(a) for a in state.legal_actions()] == want
    for a in state.legal_actions()[:3]:
        child = state.clone()
        child.apply_action(a)
        assert str(child.train) == want[a].rsplit("=> ", 1)[1]


@given(st.lists(trains(max_kids=8), min_size=1, max_size=6))
def test_expand_matches_per_card_successors(batch):
    succ, parent, card = K.expand(K.pack_trains(batch), TABLE)
    for p, train in enumerate(batch):
        for c in range(len(CARDS)):
            got = succ[(parent == p) & (card == c)].tolist()
            assert sorted(got) == sorted(kernel_set(train, TABLE, c))
    assert K.count_successors(K.pack_trains(batch), TABLE) == len(succ)


@given(st.lists(trains(), min_size=1, max_size=20))
def test_goal_mask_equals_reference(batch):
    mask = K.goal_mask(K.pack_trains(batch))
    assert mask.tolist() == [t.is_goal() for t in batch]


def test_a_list_mixing_short_and_full_trains_is_read():
    """numpy made floats of a list holding words both above and below 2**63 (a short train and
    a full one), which the door refused as "not 64-bit integers"."""
    full, short = Train.parse("L5 H H H H H H H H H H H H H H H"), Train.parse("L5 H S")
    assert full.packed < 1 << 63 <= short.packed
    assert K.goal_mask([full.packed, short.packed]).tolist() == [True, True]
    assert len(K.expand([full.packed, short.packed], TABLE)[0]) == len(
        K.expand(K.pack_trains([full, short]), TABLE)[0])
    with pytest.raises(NotationError, match="non-negative 64-bit integers"):
        K.goal_mask([full.packed, 1.5])


def test_goal_mask_on_goals():
    goals = [Train.parse(t) for t in ("L5", "L5 S", "L5 H T G H S S S", "L5 T G")]
    assert K.goal_mask(K.pack_trains(goals)).all()


@given(st.lists(standard_trains(), min_size=1, max_size=10))
def test_kernel_heuristic_equals_python(batch):
    table = build_table(DECK, batch[0])
    got = K.heuristic(K.pack_trains(batch), table).tolist()
    assert got == [estimate(t, table) for t in batch]


def _shape(train: Train) -> tuple[int, int, int]:
    return len(train), train.count("S"), train.count("H")


@settings(max_examples=200)
@given(st.lists(trains(max_kids=8), min_size=2, max_size=6))
def test_kernel_heuristic_takes_only_trains_of_its_tables_shape(batch):
    """The door checked the trains' length only: a train with another number of Starboys or
    Handmaidens reached the kernel, which read its deficits in the table clamped (a value
    the Python estimate does not give, or an IndexError there). Such a train is now named;
    trains of the table's shape still get the estimate."""
    table = build_table(DECK, batch[0])
    fits = [t for t in batch if _shape(t) == _shape(batch[0])]
    assert K.heuristic(K.pack_trains(fits), table).tolist() == [estimate(t, table) for t in fits]
    other = next((t for t in batch if _shape(t) != _shape(batch[0])), None)
    assume(other is not None)
    with pytest.raises(LumicoreError, match=f"heuristic table is for trains of .*, got {other} "):
        K.heuristic(K.pack_trains(batch), table)
    with pytest.raises(LumicoreError, match=f"heuristic table is for trains of .*, got {other} "):
        estimate(other, table)  # the Python twin, the same way


@pytest.mark.parametrize("other", ["S L3 T S H", "h L3 T H H", "h L3 T G H", "h L3 T S H h"])
def test_the_searches_take_only_a_table_of_the_trains_shape(other):
    """``search`` and ``deal_search`` checked the table's length only, as ``heuristic`` did."""
    train = Train.parse("h L3 T S H")
    table, name = build_table(DECK, train), "trains of 5 kids, 1 S and 2 H"
    assert K.heuristic([Train.parse("H L3 G h S").packed], table).tolist() == [
        estimate(Train.parse("H L3 G h S"), table)]  # Tomten or Gingerbread: the same table
    for search in (lambda t: K.search("astar", t, TABLE, table, 100, None),
                   lambda t: K.deal_search(t, DECK[:3], [0, 1], [[0], [2]], table)):
        search(train)
        with pytest.raises(LumicoreError, match=f"{name}, got {other} "):
            search(Train.parse(other))


@pytest.mark.parametrize("other", ["H T L4", "S S S L0 T", "h h h h L0 S S", "S L3 T S H",
                                   "h L3 T H H", "h L3 T S H h"])
def test_the_python_estimate_takes_only_trains_of_its_tables_shape(other):
    """The twin of the kernel heuristic read any train's deficits in the table: "H T L4" got 1
    from the table of "h L3 T S H" (2 from its own), "S S S L0 T" and "h h h h L0 S S" an
    IndexError. Now it raises the kernel door's error, naming the train and both shapes."""
    table = build_table(DECK, Train.parse("h L3 T S H"))
    train = Train.parse(other)
    with pytest.raises(LumicoreError) as door:
        K.heuristic([train.packed], table)
    with pytest.raises(LumicoreError) as twin:
        estimate(train, table)
    assert str(twin.value) == str(door.value)
    assert str(twin.value).startswith("heuristic table is for trains of 5 kids, 1 S and 2 H, "
                                      f"got {other} (")
    assert estimate(train, build_table(DECK, train)) == K.heuristic(
        [train.packed], build_table(DECK, train)).tolist()[0]


@pytest.mark.parametrize("bad,message", [
    ([0], "exactly one Lucia"),
    ([0xFFFF_FFFF_FFFF_F0F5], "position 2"),
    ([0xFFFF_FFFF_FFFF_FFC5], "code 12"),
    ([0xFFFF_FFFF_FFFF_F435], "Gingerbread"),
    ([-1], "non-negative"),
])
def test_bad_states_never_reach_the_kernel(bad, message):
    with pytest.raises(NotationError, match=message):
        K.expand(np.array(bad), TABLE)


def test_bad_card_tables_rejected():
    with pytest.raises(LumicoreError):
        K.card_table([])
    with pytest.raises(LumicoreError, match="cards card #2 is not a lumicore.lucia.Card"):
        K.card_table([DECK[0], "wild 1"])  # counted from 1, as check_cards counts (was #1)
    with pytest.raises(LumicoreError):
        K.expand(K.pack_trains([Train.parse("L0 h")]), np.zeros((3, 3), dtype=np.uint32))
    with pytest.raises(LumicoreError):
        K.successors(Train.parse("L0 h").packed, TABLE, len(CARDS))


@given(st.integers(0, (1 << 64) - 1))
def test_kernel_survives_any_word(word):
    # the private kernel never crashes, even on words the public layer would reject
    for i in range(len(CARDS)):
        _k.successors(word, TABLE_PARTIAL, i)
        PLAYS(word, i)
    _k.goal_mask(np.array([word], dtype=np.uint64))


def test_astar_that_leaves_a_state_unexpanded_at_its_depth_cap_proves_nothing():
    """States at the 8-bit depth (254 cards) are not expanded; a search that skipped one
    reported "exhausted" (unsolvable) before. A lower cap shows it on a 6-card puzzle."""
    from lumicore._ext import lucia as _k
    from solvers.lucia.puzzle import card_kinds, search_kinds

    train = Train.parse("H L5 T H H H G G h G T S S S H H")
    needed = search_kinds(card_kinds(None))
    table = K.card_table(needed, Rules())
    heur = K._heuristic_object(build_table(needed, train), [])
    found = _k.astar(train.packed, table, heur, 10**7, 0.0)
    assert found[0] == 0 and found[6] == len(found[1]) - 1 <= 6  # FOUND, its plan's length
    for cap in range(found[6]):
        status = _k.astar(train.packed, table, heur, 10**7, 0.0, max_depth=cap)[0]
        assert status == 2, (cap, status)  # CUT, never EXHAUSTED (1)
    with pytest.raises(ValueError, match="max_depth must be 0..254, got 255"):
        _k.astar(train.packed, table, heur, 10**7, 0.0, max_depth=255)


def test_astar_that_drops_a_state_past_the_8_bit_depth_proves_nothing():
    """With no ``upper``, a state whose f reaches 255 is dropped (f is kept in 8 bits); a
    search that dropped one reported "exhausted" (unsolvable). Heuristic values raised to near
    255 (a stand-in for a plan of that length) show it on a solvable puzzle."""
    import dataclasses

    from lumicore._ext import lucia as _k
    from solvers.lucia.puzzle import card_kinds, search_kinds

    train = Train.parse("H L5 T H H H G G h G T S S S H H")
    needed = search_kinds(card_kinds(None))
    table = K.card_table(needed, Rules())
    honest = build_table(needed, train)
    high = np.where(honest.values == 0, 0, np.minimum(honest.values.astype(int) + 250, 254))
    heur = K._heuristic_object(dataclasses.replace(honest, values=high.astype(np.uint8)), [])
    assert _k.astar(train.packed, table, heur, 10**7, 0.0)[0] == 2  # CUT, not EXHAUSTED (1)
    # below a given upper, dropping such states is the proof asked for
    assert _k.astar(train.packed, table, heur, 10**7, 0.0, upper=200)[0] == 1


def test_the_door_names_arguments_of_the_wrong_kind():
    """``successors`` of an empty list hit numpy's IndexError and took a float or bool card
    index as a row (0.5 -> 0); a train of another type than int, a table of heuristic values
    that is no HeuristicTable, pdbs that are no sequence of databases and a time limit of
    text or past a float's range raised Python's TypeError, AttributeError, ValueError or
    OverflowError. Each is now a LumicoreError naming it."""
    train = Train.parse("h L4 H T S")
    htable = build_table(DECK, train)
    for packed in ([], [train.packed], np.array([train.packed]), None, 2.0**63):
        with pytest.raises(LumicoreError, match="packed train"):
            K.successors(packed, TABLE, 0)
    for card in (0.5, True, "0", None, len(CARDS), -1, np.float64(1.0)):
        with pytest.raises(LumicoreError, match="card index"):
            K.successors(train.packed, TABLE, card)
    assert K.successors(np.uint64(train.packed), TABLE, np.int64(0)).dtype == np.uint64
    for bad in (None, "table", np.zeros((6, 6, 5, 5), dtype=np.uint8)):
        with pytest.raises(LumicoreError, match="htable"):
            K.heuristic([train.packed], bad)
        with pytest.raises(LumicoreError, match="heuristic table"):
            K.search("astar", train, TABLE, bad, 100, None)
    for pdbs in (None, 3, "pdb", [htable]):
        with pytest.raises(LumicoreError, match="pdbs"):
            K.heuristic([train.packed], htable, pdbs)
        with pytest.raises(LumicoreError, match="pdbs"):
            K.search("astar", train, TABLE, htable, 100, None, pdbs=pdbs)
    for time_limit in ("1", 10**400, float("nan"), np.zeros(2), True):
        with pytest.raises(LumicoreError, match="time"):
            K.search("bfs", train, TABLE, None, 100, time_limit)


@pytest.mark.parametrize("time_limit", [0, -1.0, -1e9, -1e300, float("-inf")])
def test_a_time_limit_that_is_not_positive_is_refused(time_limit):
    """The kernel reads a deadline <= 0 as none: ``monotonic() + time_limit`` was that for
    -1e9, so such a search ran to the end while -1.0 stopped at once. Every limit that is not
    positive is now a SearchLimitError, in the deal searches' deadline too."""
    train = Train.parse("h L4 H T S")
    with pytest.raises(SearchLimitError, match="time_limit must be a positive number"):
        K.search("bfs", train, TABLE, None, 100, time_limit)
    with pytest.raises(SearchLimitError, match="time_limit must be a positive number"):
        K.deal_deadline(time_limit)


def test_the_deal_deadline_checks_its_time_limit():
    for bad in ("1", True, float("nan"), [1]):
        with pytest.raises(SearchLimitError, match="time_limit"):
            K.deal_deadline(bad)
    assert K.deal_deadline(None) == 0.0
    assert K.deal_deadline(5) - K._k.monotonic() == pytest.approx(5, abs=1)


def _hand_made_tables() -> list:
    """Tables of the right type and the wrong contents, each as ``(table, what it gets wrong)``:
    they reached C, which raised ValueError, OverflowError or TypeError (or read a target of
    no meaning)."""
    import dataclasses

    good = build_table(DECK, Train.parse("h L3 T S H"))
    change = functools.partial(dataclasses.replace, good)
    return [
        (change(values=good.values.astype(float)), "htable.values"),
        (change(values=np.asfortranarray(good.values)), "htable.values"),
        (change(values=good.values.tolist()), "htable.values"),
        (change(values=good.values[:, :, :, :4].copy()), "htable.values"),
        (change(target=2**40), "htable.target"),
        (change(target=3), "htable.target"),
        (change(target=4.0), "htable.target"),
        (change(locked="no"), "htable.locked"),
        (change(length=17), "htable must be for trains of 1 to 16 kids"),
        (change(starboys=1.0), "htable must be for trains"),
    ]


HAND_MADE = _hand_made_tables()


@pytest.mark.parametrize("htable,what", HAND_MADE, ids=[f"{i}-{w.split()[0]}"
                                                        for i, (_, w) in enumerate(HAND_MADE)])
def test_a_hand_made_heuristic_table_is_checked_before_c(htable, what):
    train = Train.parse("h L3 T S H")
    with pytest.raises(LumicoreError, match=re.escape(what)):
        K.heuristic([train.packed], htable)
    for algorithm in ("astar", "idastar"):
        with pytest.raises(LumicoreError, match=re.escape(what)):
            K.search(algorithm, train, TABLE, htable, 100, None)
    with pytest.raises(LumicoreError, match=re.escape(what)):
        K.deal_search(train, DECK[:3], [0, 1], [[0], [2]], htable)


def test_a_built_table_still_passes():
    train = Train.parse("h L3 T S H")
    htable = build_table(DECK, train)
    assert K.heuristic([train.packed], htable).tolist() == [estimate(train, htable)]
    assert K.search("astar", train, TABLE, htable, 10**6, None).status == "optimal"
