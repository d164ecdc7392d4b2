"""Lucia rules: one test per rule sentence of docs/lucia.md (and the design doc it follows).

Expected trains are worked out by hand from the rule text, not copied from the code's output.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lumicore.errors import DataError, LumicoreError, NotationError
from lumicore.lucia import (
    DEFAULT_RULES,
    Action,
    Card,
    Rules,
    Train,
    load_deck,
    random_train,
    scramble,
)
from lumicore.lucia.notation import format_codes, parse_codes
from lumicore.lucia.render import plan_svg, train_svg
from lumicore.lucia.start import fix_up, load_setup, random_goal

MOVE_S1 = Card((Action.move("S", 1),))
MOVE_S2 = Card((Action.move("S", 2),))
MOVE_SH2 = Card((Action.move("SH", 2),))
MOVE_G1 = Card((Action.move("G", 1),))
MOVE_G3 = Card((Action.move("G", 3),))
MOVE_H2 = Card((Action.move("H", 2),))
WILD2 = Card((Action.wild(2),))
LIGHT_H = Card((Action.light("H"),))
LIGHT_T = Card((Action.light("T"),))
LUCIA = Card((Action.lucia(),))
START = "S h S h S h h G h G T h T G h L0"


def succ(text: str, card: Card, rules: Rules = DEFAULT_RULES) -> set[str]:
    return {str(t) for t in Train.parse(text).successors(card, rules)}


# --- train, notation, packed form -------------------------------------------------------------

def test_design_example_start_parses_as_standard_train():
    train = Train.parse(START, Rules(custom_trains=False))
    assert str(train) == START and len(train) == 16 and train.is_standard
    assert train.lucia_position == 15 and train.candles == 0


def test_whitespace_is_ignored():
    assert Train.parse("L0Hh  T\tS") == Train.parse("L0 H h T S")


def test_packed_layout_matches_design():
    # codes front to back 3 0 3 0 3 0 0 4 0 4 2 0 2 4 0 5; position 0 is the lowest nibble
    assert Train.parse(START).packed == 0x5042_0240_4003_0303
    assert Train.parse("L5 H").packed == 0xFFFF_FFFF_FFFF_FF1A  # empty positions are 15
    assert Train.from_packed(0x5042_0240_4003_0303) == Train.parse(START)


@pytest.mark.parametrize("packed,where", [
    (0xFFFF_FFFF_FFFF_F0F5, "position 2"),   # a kid after the empty position 1
    (0xFFFF_FFFF_FFFF_FFB5, "code 11"),       # 11 is no kid
    (-1, "64-bit"), (1 << 64, "64-bit"),
])
def test_from_packed_rejects_bad_words(packed, where):
    with pytest.raises(NotationError, match=where):
        Train.from_packed(packed)


@pytest.mark.parametrize("text,message", [
    ("L0 X h", "'X' at character 3"),
    ("h L6", "'L6' at character 2"),
    ("h L", "'L' at character 2"),
    ("", "1..16 kids"),
    ("L0 " + "h " * 16, "1..16 kids"),
    ("h h T", "exactly one Lucia, got 0"),
    ("L0 h L1", "exactly one Lucia, got 2 \\(at positions 0, 2\\)"),
    ("L0 S G", "Gingerbread at position 2 stands next to the Starboy at position 1"),
    ("L0 G S", "Gingerbread at position 1 stands next to the Starboy at position 2"),
])
def test_bad_notation_names_token_or_position(text, message):
    with pytest.raises(NotationError, match=message):
        Train.parse(text)


def test_custom_trains_allowed_unless_rules_forbid():
    assert len(Train.parse("L0")) == 1
    with pytest.raises(NotationError, match="role H"):
        Train.parse("L0 h T", Rules(custom_trains=False))


codes_strategy = st.lists(st.sampled_from([0, 1, 2, 3, 4]), min_size=0, max_size=15)


@given(codes_strategy, st.integers(0, 15), st.integers(0, 5))
def test_notation_and_packed_round_trip(others, where, candles):
    codes = list(others)
    codes.insert(min(where, len(codes)), 5 + candles)
    try:
        train = Train(tuple(codes))
    except NotationError:
        assert any({a, b} == {3, 4} for a, b in zip(codes, codes[1:], strict=False))
        return
    assert Train.parse(str(train)) == train
    assert Train.from_packed(train.packed) == train
    assert hash(Train.parse(str(train))) == hash(train)


def test_train_is_immutable():
    train = Train.parse("L0 h")
    with pytest.raises(AttributeError):
        train.codes = (5,)


# --- moving -----------------------------------------------------------------------------------

def test_move_exactly_k_steps_within_the_train():
    # S at 0 can only go back 2; the kids it passes shift one place front
    assert succ("S h h h L0", MOVE_S2) == {"h h S h L0"}
    # neither direction fits in a 3-kid train for a 2-step move of the middle kid
    assert succ("h S L0", MOVE_S2) == set()


def test_move_both_directions_and_only_named_roles():
    # H at 2 may go to 0 or 4; h at 3 to 1 (5 is outside); S at 4 to 2; the Tomten stays
    assert succ("T L0 H h S", MOVE_SH2) == {"H T L0 h S", "T L0 h S H", "T h L0 H S",
                                           "T L0 S H h"}


def test_wild_moves_lucia():
    assert "h h L3" in succ("L3 h h", WILD2)
    assert succ("L3 h h", Card((Action.move("H", 2),))) == {"h L3 h"}


def test_restriction_makes_a_move_illegal():
    # G 0->1 would stand next to S; G 0->... nowhere else
    assert succ("G h S T L0", MOVE_G1) == set()


# --- gingerbread ------------------------------------------------------------------------------

def test_gingerbread_blows_out_what_it_passes_but_not_tomten():
    # G passes H (goes out), L3 (loses one candle) and T (lantern stays lit)
    assert succ("G H L3 T h H", MOVE_G3) == {"h L2 T G h H"}


def test_gingerbread_moved_by_a_wild_card_blows_out_too():
    assert "h L1 G" in succ("G H L2", WILD2)


def test_gingerbread_moved_inside_a_multi_card_blows_out():
    card = Card((Action.move("G", 1), Action.move("S", 1)))
    # G 1->0 passes T (lantern stays), then S 4->3 or 4->5; G 1->2 blows out H, then only
    # S 4->5 is legal (4->3 would stand next to G); S first gives nothing new
    assert succ("T G H h S L0", card) == {"G T H S h L0", "G T H h L0 S", "T h G h L0 S"}


def test_lucia_never_below_zero_candles():
    assert succ("G L0 h", MOVE_G1) == {"L0 G h"}


def test_kid_moving_past_a_gingerbread_keeps_its_light():
    # H at 2 moves front 2: passes G and L2 which shift back; nobody loses light
    assert "H L2 G T" in succ("L2 G H T", MOVE_H2)
    # the moving kid L2 passes the G: still 2 candles (wild moves Lucia)
    assert "G H L2 T" in succ("L2 G H T", WILD2)


# --- lighting ---------------------------------------------------------------------------------

def test_light_from_lit_handmaiden_lights_both_neighbours():
    assert succ("h H L0", LIGHT_H) == {"H H L1"}


def test_unlit_handmaiden_is_no_source():
    assert succ("h L0 h", LIGHT_H) == set()


def test_tomten_always_lit_even_after_gingerbread():
    after = succ("G T h L0", Card((Action.move("G", 2),)))
    assert after == {"T h G L0"}
    assert succ("T h G L0", LIGHT_T) == {"T H G L0"}


def test_light_changing_nothing_is_still_performed():
    assert succ("S T G L0", LIGHT_T) == {"S T G L0"}


def test_each_light_adds_one_candle_up_to_five():
    assert succ("T L4 T", LIGHT_T) == {"T L5 T"}
    assert succ("T L5 T", LIGHT_T) == {"T L5 T"}


def test_lighting_other_roles_changes_nothing():
    # T0 lights only T1 (a lantern: unchanged); T1 lights T0 and L0
    assert succ("T T L0", LIGHT_T) == {"T T L0", "T T L1"}


# --- the lucia action ------------------------------------------------------------------------

def test_lucia_passes_the_whole_run_in_either_direction():
    # front: run h H (2 kids) -> she ends at 0; back: run H h (2 kids) -> she ends at 4
    assert succ("h H L1 H h T H", LUCIA) == {"L1 h H H h T H", "h H H h L1 T H"}


def test_lucia_needs_a_handmaiden_next_to_her_and_lights_nothing():
    assert succ("T L0 S", LUCIA) == set()
    assert succ("T L0 H", LUCIA) == {"T H L0"}


def test_lucia_partial_option_stops_anywhere_in_the_run():
    assert succ("T h H L1", LUCIA, Rules(lucia_partial=True)) == {"T h L1 H", "T L1 h H"}
    assert succ("T h H L1", LUCIA) == {"T L1 h H"}


# --- multi cards ------------------------------------------------------------------------------

def test_multi_card_both_orders():
    card = Card((Action.light("H"), Action.move("S", 1)))
    # light first: H2 lights h1 and L0 -> "S H H L1", then S 0->1 -> "H S H L1"
    # move first: "h S H L0", then H2 lights S and L0 -> "h S H L1"
    assert succ("S h H L0", card) == {"H S H L1", "h S H L1"}
    assert succ("S h H L0", Card(card.actions[::-1])) == {"H S H L1", "h S H L1"}


def test_multi_card_restriction_after_each_action():
    card = Card((Action.wild(1), Action.move("S", 1)))
    # wild first: only h/G 0<->1 is legal ("G h L2 S"), then S 3->2 gives "G h S L2".
    # S first: "h G S L2" breaks the restriction, so the legal-looking end "h G L2 S" (wild
    # L2 back to 2) is not reachable
    assert succ("h G L2 S", card) == {"G h S L2"}
    # every first action breaks the restriction, although the second would repair it
    assert succ("S L2 G", card) == set()


def test_multi_card_may_act_on_the_same_kid():
    card = Card((Action.wild(1), Action.move("S", 1)))
    assert "h h S L0" in succ("S h h L0", card)


def test_multi_card_needs_every_action():
    # light from H is possible, but Lucia has no Handmaiden next to her
    card = Card((Action.lucia(), Action.light("H")))
    assert succ("H h T L0", card) == set()
    assert succ("H h T L0", LIGHT_H) == {"H H T L0"}


def test_plays_name_the_choices_and_know_their_train():
    train = Train.parse("S h H L0")
    card = Card((Action.light("H"), Action.move("S", 1)))
    plays = list(train.plays(card))
    assert {p.train for p in plays} == train.successors(card)
    texts = sorted(map(str, plays))
    assert texts == ["light from H + move S 1: H 2 lights, S 0→1 => H S H L1",
                     "light from H + move S 1: S 0→1, H 2 lights => h S H L1"]
    assert all(p.before == train for p in plays)


# --- goal -------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,goal", [
    ("L5 H T G H G T H H H H S S S", True),
    ("L4 H T G H G T H H H H S S S", False),   # 4 candles
    ("L5 H T G H G T H h H H S S S", False),   # an unlit Handmaiden
    ("L5 H T G H G T H H H S H S S", False),   # a Starboy not at the back
    ("H L5 T G H G T H H H H S S S", False),   # Lucia not in front
    ("L5", True), ("L5 S", True), ("L5 T G", True),  # custom trains
])
def test_goal(text, goal):
    assert Train.parse(text).is_goal() is goal


# --- deck -------------------------------------------------------------------------------------

def test_default_deck_matches_design_table():
    deck = load_deck("default")
    assert len(deck) == 33 and len(deck.kinds) == 15
    expected = {
        (Action.move("SH", 2),): 3, (Action.move("S", 1),): 2, (Action.move("G", 1),): 2,
        (Action.move("T", 1),): 2, (Action.move("H", 1),): 2, (Action.move("SG", 2),): 2,
        (Action.light("H"),): 4, (Action.light("T"),): 3, (Action.lucia(),): 4,
        (Action.wild(1),): 2, (Action.wild(2),): 1,
        (Action.light("H"), Action.move("S", 1)): 2, (Action.light("T"), Action.move("H", 1)): 2,
        (Action.lucia(), Action.light("H")): 1, (Action.move("G", 1), Action.move("S", 1)): 1,
    }
    assert {Card(a): n for a, n in expected.items()} == {k: deck.copies(k) for k in deck.kinds}


@pytest.mark.parametrize("table,message", [
    ({"actions": [{"kind": "jump"}]}, "jump"),
    ({"actions": [{"kind": "light", "source": "S"}]}, "source"),
    ({"actions": [{"kind": "move", "roles": "S", "steps": 0}]}, "steps"),
    ({"actions": [{"kind": "move", "roles": "X", "steps": 1}]}, "roles"),
    ({"actions": [{"kind": "lucia", "steps": 1}]}, "unknown keys \\['steps'\\]"),
    ({"actions": []}, "one or two"),
    ({"actions": [{"kind": "lucia"}] * 3}, "one or two"),
    ({"actions": [{"kind": "lucia"}], "colour": "red"}, "colour"),
    *[({"actions": [{"kind": "lucia"}], "copies": c}, "copies must be an integer")
      for c in (-1, "x", 0, 2.5, True, 1001)],
])
def test_bad_cards_raise_data_error(table, message):
    with pytest.raises(DataError, match=message):
        Card.from_dict(table)


def test_user_deck_file(tmp_path):
    path = tmp_path / "deck.toml"
    path.write_text('[[card]]\ncopies = 2\nactions = [{ kind = "wild", steps = 3 }]\n')
    deck = load_deck(path)
    assert len(deck) == 2 and deck.kinds == (Card((Action.wild(3),)),)
    bad = tmp_path / "bad.toml"
    bad.write_text('[[card]]\ncopies = 0\nactions = [{ kind = "lucia" }]\n')
    with pytest.raises(DataError, match="copies"):
        load_deck(bad)



@pytest.mark.parametrize("name", [None, 5, b"default", ["default"]])
def test_deck_or_setup_that_is_no_name_nor_path_is_a_data_error(name):
    with pytest.raises(DataError, match="not a name or a path"):
        load_deck(name)
    with pytest.raises(DataError, match="not a name or a path"):
        load_setup(name)
    with pytest.raises(DataError, match="not a name or a path"):
        random_train(1, setup=name)


# --- setup ------------------------------------------------------------------------------------

@pytest.mark.parametrize("before,after", [
    ("h S G h L0", "h S h G L0"),       # the back kid of the pair steps back
    ("L0 h S G", "L0 S h G"),           # already last: the front kid steps front
    ("S G G h L0", "S h G G L0"),       # a swap of twins changes nothing: the last twin steps
    ("S G h S L0", "S h G L0 S"),       # repeated until no pair is left
])
def test_setup_fix_up(before, after):
    assert format_codes(fix_up(parse_codes(before))) == after


def test_default_setup_swaps_starboys_and_gingerbreads_of_the_design():
    # the design's example start, with Starboys and Gingerbreads exchanged, is laid out by the
    # default setup's star groups (docs/lucia.md, decision 8)
    swapped = START.translate(str.maketrans("SG", "GS")).split()
    groups = [sorted(swapped[a:b]) for a, b in ((0, 5), (5, 10), (10, 15), (15, 16))]
    assert groups == [sorted("G G G h h".split()), sorted("h h h S S".split()),
                      sorted("h h T T S".split()), ["L0"]]
    assert [sorted(format_codes(g).split()) for g in load_setup("default").groups] == groups


@pytest.mark.parametrize("seed", range(40))
def test_default_setup_deals_every_gingerbread_ahead_of_every_starboy(seed):
    tokens = random_train(seed).tokens
    last_g = max(i for i, t in enumerate(tokens) if t == "G")
    assert all(i > last_g for i, t in enumerate(tokens) if t == "S")


@pytest.mark.parametrize("seed", range(40))
def test_random_train_is_a_legal_unlit_standard_start(seed):
    train = random_train(seed)
    assert train.is_standard and train.lucia_position == 15 and train.candles == 0
    assert sorted(train.tokens) == sorted("S S S h h h h h G G h h T T G L0".split())


def test_setup_file_groups_in_star_order_then_fix_up(tmp_path):
    path = tmp_path / "setup.toml"
    path.write_text('[[group]]\nstars = 2\nkids = "G"\n[[group]]\nstars = 1\nkids = "S"\n'
                    '[[group]]\nstars = 3\nkids = "h"\n[[group]]\nstars = 4\nkids = "L0"\n')
    # laid out S G h L0; the G steps back past the h
    assert str(random_train(0, setup=path)) == "S h G L0"


@pytest.mark.parametrize("kids, stuck", [
    ("G S L0 G", "G S L0 G"),                        # every deal tried (12 of them)
    ("G G G G G G G G S S S S S S S L0", None),      # 102,960 deals: 20,000 random ones
])
def test_a_setup_with_a_deal_the_fix_up_cannot_separate_is_refused_at_load(tmp_path, kids,
                                                                           stuck):
    """It loaded and failed on 13 of 50 seeds (a tournament after writing some records), the
    train given in internal codes and the file not named."""
    path = tmp_path / "stuck.toml"
    path.write_text(f'[[group]]\nkids = "{kids}"\n')
    with pytest.raises(DataError, match="stuck.toml.*cannot separate Gingerbreads from "
                                        "Starboys when the groups are dealt as "
                                        + (stuck or "")) as info:
        load_setup(path)
    dealt = str(info.value).rsplit("dealt as ", 1)[1].split()
    assert sorted(dealt) == sorted(kids.split())
    assert fix_up_cycles(parse_codes(" ".join(dealt)))


def fix_up_cycles(codes) -> bool:
    try:
        fix_up(codes)
    except DataError:
        return True
    return False


def test_random_train_is_reproducible_and_varied():
    assert random_train(5) == random_train(5)
    assert len({random_train(s) for s in range(20)}) > 10


def test_random_goal_and_scramble():
    assert random_goal(1).is_goal() and random_goal(1).is_standard
    assert scramble(0, seed=2).is_goal()
    puzzle = scramble(6, seed=2)
    assert puzzle == scramble(6, seed=2) and not puzzle.is_goal() and puzzle.is_standard


def test_svg_and_text_views():
    train = Train.parse("L2 H h S T G")
    svg = train._repr_svg_()
    assert svg.startswith("<svg") and svg.count("<rect") == 6
    assert train.text().splitlines()[1].split() == list(train.tokens)


def test_train_and_plan_pictures_have_a_title():
    """Neither picture had a <title> (the reef pictures and Lemuria's game have one)."""
    import xml.etree.ElementTree as ET

    train = Train.parse("S h T h L0")
    play = next(train.plays(Card((Action.move("S", 2),))))
    for image, title in ((train._repr_svg_(), "Lucia train S h T h L0"),
                         (play._repr_svg_(), "move S 2: S 0→2"),
                         (plan_svg(train, [play], title="optimal"),
                          "optimal: Lucia plan of 1 play from S h T h L0")):
        assert ET.fromstring(image).find("{http://www.w3.org/2000/svg}title").text == title


@pytest.mark.parametrize(("call", "message"), [
    (lambda t, p: train_svg("S h T h L0"),
     "train must be a lumicore.lucia.Train, got 'S h T h L0'"),
    (lambda t, p: train_svg(t, caption=5), "caption must be text, got '5'"),
    (lambda t, p: plan_svg(None, [p]), "start must be a lumicore.lucia.Train, got 'None'"),
    (lambda t, p: plan_svg(t, None), "plan must be a list of plays, got 'None'"),
    (lambda t, p: plan_svg(t, "x"), "plan must be a list of plays, got 'x'"),
    (lambda t, p: plan_svg(t, [p, "x"]), "plan[1] must be a lumicore.lucia.Play, got 'x'"),
    (lambda t, p: plan_svg(t, [p], title=5), "title must be text, got '5'"),
])
def test_pictures_of_bad_arguments_are_one_line_errors(call, message):
    """These were AttributeErrors and TypeErrors (title=5 was drawn as "5")."""
    train = Train.parse("S h T h L0")
    play = next(train.plays(Card((Action.move("S", 2),))))
    with pytest.raises(LumicoreError, match=f"^{re.escape(message)}$"):
        call(train, play)


def test_scramble_checks_start_and_rules():
    assert scramble(2, seed=1, start="L5 H T H S").count("S") == 1
    with pytest.raises(LumicoreError, match="start"):
        scramble(2, seed=1, start=5)
    with pytest.raises(LumicoreError, match="rules"):
        scramble(2, seed=1, rules="partial")


@pytest.mark.parametrize("seed", range(3))
def test_scramble_never_walks_where_the_goal_is_out_of_reach(seed):
    """The largest estimate won, and "out of reach" (INF) is the largest: with a deck that
    cannot relight a candle, every seed picked a dead train among solvable ones."""
    from lumicore.lucia import Action, Card
    from lumicore.lucia.heuristic import INF, build_table, estimate
    from solvers.lucia import solve

    wild = (Card((Action.wild(1),)),)
    start = Train.parse("L5 H G H T H S S")
    puzzle = scramble(1, seed=seed, cards=wild, start=start)
    assert estimate(puzzle, build_table(wild, start)) < INF
    assert solve(puzzle, wild, algorithm="bfs").status == "optimal"
