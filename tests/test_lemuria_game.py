"""The whole game of Lemuria: one test (or more) per rule sentence of the rulebook."""

from __future__ import annotations

import json

import pytest
from damage_helpers import check_damage, states

from lumicore.errors import DataError, IllegalMoveError, LumicoreError
from lumicore.game import CHANCE, GAMES, TERMINAL, new_game
from lumicore.lemuria.altar import Memory
from lumicore.lemuria.game import Game, order_from_vp

ROW = ["B01", "B09", "B17", "B25", "B02"]            # drawn in this order: B01 ends in slot 5
HANDS = [["C01", "C07", "C13"], ["C02", "C08", "C14"], ["C03", "C09", "C15"],
         ["C04", "C10", "C16"]]


def deal(players: int = 3, row=ROW, hands=HANDS, **options) -> Game:
    """A game with the given Trend draws and hands, before the cards are passed."""
    game = Game.new(players=players, seed=0, **options)
    for card in row:
        game.apply_action(game.cards.building_ids.index(card))
    for p in range(players):
        for card in hands[p]:
            game.apply_action(game.cards.character_ids.index(card))
    while game.is_chance_node():
        game.resolve_chance()
    return game


def start(players: int = 3, **options) -> Game:
    """Turn 1, main phase: every player passed the first card of their hand."""
    game = deal(players, **options)
    for p in range(players):
        game.apply_move(("pass", HANDS[p][0]))
    return game


def touch(game: Game) -> Game:
    """After editing ``game.s`` in a test: drop the cached moves."""
    game._moves = None
    return game


def finish_turn(game: Game) -> None:
    """Every player still to act this turn: a material operation if one is due, then end."""
    turn = game.turn
    while game.turn == turn and not game.is_terminal():
        if game.is_chance_node():
            game.resolve_chance()
        elif game.phase == "altar":
            game.apply_move(("altar", 0))
        elif ("end",) in game.moves():
            game.apply_move(("end",))
        else:
            game.apply_action(0)


def kinds(game: Game) -> set[str]:
    return {m[0] for m in game.moves()}


# ---------------------------------------------------------------------------- setup
def test_trend_row_is_drawn_from_the_right():
    game = deal()
    assert game.row == ("B02", "B25", "B17", "B09", "B01")


def test_each_player_takes_3_gold_3_food_2_plant_2_mineral_and_8_chits():
    game = start(4)
    for p in range(4):
        assert game.resources(p) == {"gold": 3, "food": 3, "stone": 0, "wood": 0}
        assert game.materials(p) == {"plant": 2, "mineral": 2}
        view = game._view(p)
        assert view.chits_left() == 8


def test_three_cards_each_then_the_least_useful_is_passed_left():
    game = deal(3)
    assert game.phase == "pass" and [len(game.hand(p)) for p in range(3)] == [3, 3, 3]
    assert game.current_player() == 0
    game.apply_move(("pass", "C13"))
    game.apply_move(("pass", "C02"))
    assert game.hand(0) == ["C01", "C07", "C13"]       # nothing moves before everyone chose
    game.apply_move(("pass", "C15"))
    assert game.hand(0) == ["C01", "C07", "C15"]       # from the player on the right (3)
    assert game.hand(1) == ["C08", "C13", "C14"]       # from player 1
    assert game.hand(2) == ["C02", "C03", "C09"]
    assert game.turn == 1 and game.phase == "main"


def test_impact_setup_deals_one_per_player_face_up_in_number_order(tmp_path):
    path = tmp_path / "impact.toml"
    path.write_text("\n".join(f'[[impact]]\nnumber = {n}\neffect = "gain gold 1"\n'
                              for n in (5, 2, 7, 3)), encoding="utf-8")
    game = deal(3, impact=True, impacts=str(path))
    up = game.s["impacts_up"]
    assert len(up) == 3 and up == sorted(up) and set(up) <= {2, 3, 5, 7}
    assert deal(3, impact=True).s["impacts_up"] == [8]   # the default file holds card 8 only


# ---------------------------------------------------------------------------- turn start
def test_district_majority_bonuses_and_ties():
    game = start(3)
    finish_turn(game)                                   # to turn 2 (not a festival)
    s = game.s
    # rural: player 1 alone most; commerce: tie 1-1 -> nobody; church: player 3; admin: player 2
    s["pl"][0]["chits"] = [2, 1, 0, 0]
    s["pl"][1]["chits"] = [1, 1, 1, 0]
    s["pl"][2]["chits"] = [0, 0, 0, 1]
    before = [game.resources(p) for p in range(3)]
    vp = game.vp()
    s["turn"] = 2
    game._start_turn(3)
    assert game.resources(0)["food"] == before[0]["food"] + 1
    assert all(game.resources(p)["gold"] == before[p]["gold"] for p in range(3))
    assert game.vp(2) == vp[2] + 3
    assert s["admin"] == [False, True, False]


def test_festival_turn_bonus_for_every_player_with_a_chit_in_the_district():
    game = start(2)
    s = game.s
    s["pl"][0]["chits"] = [3, 0, 0, 1]
    s["pl"][1]["chits"] = [1, 0, 0, 2]
    food = [game.resources(p)["food"] for p in range(2)]
    vp = game.vp()
    game._start_turn(4)
    assert [game.resources(p)["food"] for p in range(2)] == [food[0] + 1, food[1] + 1]
    assert game.vp() == [vp[0] + 3, vp[1] + 3]


def test_turn_1_order_is_clockwise_from_the_dealer():
    game = start(4)
    assert game.order == [0, 1, 2, 3] and game.current_player() == 0


def test_order_lowest_vp_first_ties_closer_clockwise_from_the_dealer():
    # lowest VP deals; the two players tied on 5 are ordered from the new dealer (player 2)
    assert order_from_vp([5, 0, 9, 5], previous_dealer=0, pedestals={}) == [1, 3, 0, 2]
    # several share the lowest VP: measured from the previous dealer (player 3 = index 2)
    assert order_from_vp([1, 1, 1, 7], previous_dealer=2, pedestals={}) == [0, 1, 2, 3]
    assert order_from_vp([1, 1, 1, 7], previous_dealer=0, pedestals={}) == [1, 2, 0, 3]


def test_all_tied_the_player_left_of_the_previous_dealer_deals():
    for prev in range(3):
        assert order_from_vp([4, 4, 4], previous_dealer=prev, pedestals={})[0] == (prev + 1) % 3


def test_pedestal_material_takes_that_pedestal_whatever_the_vp():
    # player 1 (most VP) chose pedestal 1: they deal; the others follow by VP
    assert order_from_vp([20, 3, 8], previous_dealer=2, pedestals={1: 0}) == [0, 1, 2]
    # player 2 (lowest VP) chose pedestal 3: the others take pedestals 1 and 2 by VP
    assert order_from_vp([20, 3, 8], previous_dealer=0, pedestals={3: 1}) == [2, 0, 1]
    assert order_from_vp([1, 2, 3, 4], previous_dealer=0, pedestals={2: 3, 4: 0}) == [1, 3, 2, 0]


def test_pedestal_in_play_returns_the_material_and_sets_the_order():
    game = start(3)
    game.apply_move(("place", 0, "plant"))
    game.apply_move(("end",))
    game.apply_move(("pedestal", 1, "mineral"))        # player 2 wants to deal next turn
    assert game.materials(1)["mineral"] == 1
    game.apply_move(("end",))
    assert ("pedestal", 1, "plant") not in game.moves()  # not an empty pedestal any more
    with pytest.raises(IllegalMoveError, match="not an empty pedestal"):
        game.apply_move(("pedestal", 1, "plant"))
    finish_turn(game)
    assert game.turn == 2 and game.order[0] == 1
    assert game.materials(1)["mineral"] == 2


def test_at_most_one_pedestal_per_player():
    game = start(3)
    touch(game).s["pl"][0]["pedestal"] = [2, "plant"]
    assert not any(m[0] == "pedestal" for m in touch(game).moves())
    with pytest.raises(IllegalMoveError, match="more than one pedestal"):
        game.apply_move(("pedestal", 3, "mineral"))


# ---------------------------------------------------------------------------- altar phase
def test_no_altar_phase_on_turns_1_to_3():
    game = start(2)
    for turn in (1, 2, 3):
        assert game.turn == turn and game.phase == "main" and game.rotation == 0
        finish_turn(game)
    assert game.turn == 4 and game.phase == "altar"
    assert game.rotation == 1                            # the automatic clockwise turn


@pytest.mark.parametrize("step, rotation, gold", [(0, 1, 0), (1, 2, 1), (-1, 0, 1)])
def test_dealer_may_pay_1_gold_to_turn_one_memory_either_way(step, rotation, gold):
    game = start(2)
    for _ in range(3):
        finish_turn(game)
    dealer = game.order[0]
    assert game.current_player() == dealer
    have = game.resources(dealer)["gold"]
    assert [m[1] for m in game.moves()] == [0, 1, -1]
    game.apply_move(("altar", step))
    assert game.rotation == rotation and game.resources(dealer)["gold"] == have - gold
    assert game.phase == "main"


def test_dealer_without_gold_can_only_leave_the_altar():
    game = start(2)
    for _ in range(3):
        finish_turn(game)
    touch(game).s["pl"][game.order[0]]["res"]["gold"] = 0
    assert touch(game).moves() == [("altar", 0)]


# ---------------------------------------------------------------------------- main phase
def test_players_act_in_turn_order():
    game = start(3)
    seen = []
    while game.turn == 1:
        if game.is_chance_node():
            game.resolve_chance()
            continue
        if not seen or seen[-1] != game.current_player():
            seen.append(game.current_player())
        finish_turn_one_player(game)
    assert seen == [0, 1, 2]


def finish_turn_one_player(game: Game) -> None:
    if ("end",) not in game.moves():
        game.apply_action(0)
    game.apply_move(("end",))


def test_material_operation_is_mandatory():
    game = start(2)
    assert ("end",) not in game.moves()
    with pytest.raises(IllegalMoveError, match="material operation is mandatory"):
        game.apply_move(("end",))
    game.apply_move(("place", 4, "mineral"))
    assert ("end",) in game.moves()


def test_only_one_of_place_or_harvest_a_turn():
    game = start(2)
    game.apply_move(("place", 4, "mineral"))
    assert not kinds(game) & {"place", "pedestal", "harvest"}
    with pytest.raises(IllegalMoveError, match="only one material operation"):
        game.apply_move(("place", 5, "plant"))


def test_no_materials_in_front_must_harvest_or_pass():
    game = start(2)
    s = touch(game).s
    s["pl"][0]["mat"] = {"plant": 0, "mineral": 0}
    s["altar"][1] = ["plant", [0, 1], 0]                 # memory 2 (2 blocks) full
    assert kinds(touch(game)) >= {"harvest"} and ("end",) not in game.moves()
    s["altar"][1] = ["plant", [0], 0]                    # not full: nothing to do -> pass
    assert ("end",) in touch(game).moves()
    assert "harvest" not in kinds(game) and "place" not in kinds(game)


def test_placing_a_material_on_a_full_memory_names_the_rule():
    game = start(2)
    touch(game).s["altar"][1] = ["mineral", [1, 1], 0]
    with pytest.raises(IllegalMoveError, match="memory 2 is full"):
        touch(game).apply_move(("place", 1, "mineral"))


@pytest.mark.parametrize("move", [("place", 0, ["plant"]), ("pedestal", 1, {"plant": 1})])
def test_a_material_that_is_not_text_is_not_a_move(move):
    """A list or dict for the material was a TypeError (unhashable type) from the check."""
    with pytest.raises(IllegalMoveError, match="not a Lemuria move"):
        start(2).apply_move(move)


def test_same_type_rule_in_the_game():
    game = start(2)
    game.apply_move(("place", 0, "plant"))
    game.apply_move(("end",))
    assert ("place", 0, "plant") in game.moves()
    assert ("place", 0, "mineral") not in game.moves()
    with pytest.raises(IllegalMoveError, match="only plant may be placed there"):
        game.apply_move(("place", 0, "mineral"))


def test_harvest_of_a_memory_that_is_not_full_names_the_rule():
    game = start(2)
    touch(game).s["altar"][0] = ["plant", [0], 1]       # 2 of 3 blocks
    with pytest.raises(IllegalMoveError, match="is not full"):
        touch(game).apply_move(("harvest", 0, 0))


@pytest.mark.parametrize("move, message", [
    (("build", "B02", "rural", ()), "building B02 needs"),
    (("build", "B09", "rural", ()), r"the most reductions allowed \(1 here: -gold\)"),
    (("build", "B99", "rural", ()), "B99 is not in the Trend row"),
    (("play", "C07", "B01", "decline"), "B01 is not one of the player's facilities"),
    (("play", "C09", None, "decline"), "C09 is not in the hand"),
    (("play", "C07", None, "maybe"), "the skill's choice is one of"),
    (("remodel", "B01", "B09", ("gold",)), "remodelling is allowed from turn 8"),
    (("give", "C07"), "only after an exchange"),
])
def test_an_illegal_build_play_or_hand_move_names_the_rule(move, message):
    """Every build, remodel, play and give-back was refused with "... is not legal here"."""
    with pytest.raises(IllegalMoveError, match=message):
        start(2).apply_move(move)


def test_a_second_build_or_a_draw_without_the_gold_names_the_rule():
    game = start(2)
    game.apply_move(("build", "B25", "rural", ()))
    with pytest.raises(IllegalMoveError, match="only one build or remodel per turn"):
        game.apply_move(("build", "B09", "rural", ("gold",)))
    touch(game).s["pl"][game.current_player()]["res"]["gold"] = 1
    with pytest.raises(IllegalMoveError, match="costs 3 gold, player 1 has 1"):
        touch(game).apply_move(("buy",))


def test_harvest_gives_shares_returns_materials_and_black_cubes():
    game = start(3)
    s = touch(game).s
    # memory 1: 3 blocks, mineral (stone at rotation 0): players 1 and 3, one black cube
    s["altar"][0] = ["mineral", [0, 2], 1]
    s["pl"][0]["mat"]["mineral"] = 1
    s["pl"][2]["mat"]["mineral"] = 1
    supply = dict(s["supply"])
    touch(game).apply_move(("harvest", 0, 0))
    assert game.resources(0)["stone"] == 2             # 1 own + 1 black
    assert game.resources(2)["stone"] == 1             # 1 own + 1 // 2
    assert game.resources(1)["stone"] == 0
    assert game.memory(0) == Memory()
    assert game.materials(0)["mineral"] == 2 and game.materials(2)["mineral"] == 2
    assert s["supply"]["stone"] == supply["stone"] - 3


def test_extra_harvests_cost_1_gold_each():
    game = start(2)
    s = touch(game).s
    s["altar"][1] = ["plant", [0, 0], 0]
    s["altar"][3] = ["plant", [0, 1], 0]
    s["pl"][0]["mat"]["plant"] = 0
    game = touch(game)
    assert ("harvest", 1, 1) not in game.moves()       # the first harvest is free
    game.apply_move(("harvest", 1, 0))
    assert ("harvest", 3, 1) in game.moves() and ("harvest", 3, 0) not in game.moves()
    with pytest.raises(IllegalMoveError, match="costs 1 gold"):
        game.apply_move(("harvest", 3, 0))
    game.apply_move(("harvest", 3, 1))
    assert game.resources(0)["gold"] == 2
    s["pl"][0]["res"]["gold"] = 0
    s["altar"][5] = ["plant", [0, 1], 0]
    assert "harvest" not in kinds(touch(game))


def test_resources_run_out_harvester_first_then_clockwise():
    game = start(3)
    s = touch(game).s
    s["altar"][0] = ["mineral", [1, 2, 0], 0]           # harvester player 2 (index 1)
    s["supply"]["stone"] = 2
    finish_turn_one_player(game)                         # player 1 places and ends
    game.apply_move(("harvest", 0, 0))
    assert [game.resources(p)["stone"] for p in range(3)] == [0, 1, 1]
    assert s["supply"]["stone"] == 0


def test_build_once_a_turn_with_trend_bonus_and_chit():
    game = start(2)
    s = touch(game).s
    s["pl"][0]["res"].update(stone=5, wood=5, gold=5)
    game = touch(game)
    game.apply_move(("build", "B02", "church", ()))     # slot 1: 2 VP + 6
    assert game.vp(0) == 8 and game.chits(0)["church"] == 1
    assert "build" not in kinds(game)
    assert game.row[0] is None


def test_lower_trend_build_reduces_one_resource():
    game = start(2)
    touch(game).s["pl"][0]["res"].update(stone=1)
    moves = touch(game).moves()
    assert ("build", "B01", "rural", ("stone",)) in moves  # slot 5: stone 2 -> 1
    game.apply_move(("build", "B01", "rural", ("stone",)))
    assert game.resources(0)["stone"] == 0 and game.vp(0) == 1


def test_extra_build_skill_allows_a_second_build():
    game = start(2)
    s = touch(game).s
    s["pl"][0]["hand"] = ["C04"]                         # extra build, 2 food
    s["pl"][0]["res"].update(stone=9, wood=9, gold=9)
    game = touch(game)
    game.apply_move(("build", "B02", "rural", ()))
    assert "build" not in kinds(game)
    game.apply_move(("play", "C04", "B02", "use"))
    assert "build" in kinds(game)
    game.apply_move(("build", "B09", "rural", ("gold",)))
    assert len(game.facilities(0)) == 2


@pytest.mark.parametrize("skill_first", [True, False])
def test_an_extra_build_after_a_remodel_is_a_build_never_a_second_remodel(skill_first):
    """The rulebook: "you may not remodel twice"; a second remodel was offered after an extra
    build skill (and could discard the facility the first one had just built)."""
    game = start(2)
    s = touch(game).s
    s["turn"] = 8
    s["pl"][0]["hand"] = ["C04"]                         # extra build, 2 food
    s["pl"][0]["fac"] = [["B03", None], ["B05", None]]
    s["pl"][0]["res"].update(stone=9, wood=9, gold=9, food=9)
    game = touch(game)
    if skill_first:
        game.apply_move(("play", "C04", None, "use"))
    game.apply_move(next(m for m in game.moves() if m[0] == "remodel"))
    if not skill_first:
        assert not kinds(game) & {"build", "remodel"}
        game.apply_move(("play", "C04", None, "use"))
    assert "build" in kinds(game) and "remodel" not in kinds(game)
    assert json.loads(game.serialize())["state"]["remodeled"] is True
    finish_turn(game)
    while game.is_chance_node():
        game.resolve_chance()
    assert not s["remodeled"]


def test_a_state_saved_before_the_remodel_flag_still_loads():
    game = start(2)
    data = json.loads(game.serialize())
    del data["state"]["remodeled"]
    assert Game.deserialize(json.dumps(data)) == game


def test_a_lower_trend_build_leaves_the_administrative_bonus_for_an_upper_trend_card():
    # the Administrative bonus reduces one Upper Trend card: building B09 from the Lower Trend
    # first (its own reduction) does not use it up for the extra build of B02 (slot 1)
    game = start(2)
    s = touch(game).s
    s["pl"][0]["hand"] = ["C04"]                         # extra build, 2 food
    s["pl"][0]["res"].update(stone=0, wood=1, gold=1, food=2)
    s["admin"][0] = True
    game = touch(game)
    game.apply_move(("build", "B09", "rural", ("gold",)))
    game.apply_move(("play", "C04", "B09", "use"))
    assert ("build", "B02", "rural", ("stone",)) in game.moves()   # stone 1 -> 0
    game.apply_move(("build", "B02", "rural", ("stone",)))
    assert game.resources(0)["wood"] == 0 and len(game.facilities(0)) == 2


def test_discount_skill_reduces_one_more_resource():
    game = start(2)
    s = touch(game).s
    s["pl"][0]["hand"] = ["C02"]                         # discount, 1 food
    s["pl"][0]["res"].update(food=3)
    game = touch(game)                                   # B25 (slot 2) costs 2 food
    assert ("build", "B25", "rural", ()) in game.moves()
    assert not any(m[:2] == ("build", "B25") and m[3] for m in game.moves())
    game.apply_move(("play", "C02", None, "use"))       # 1 food: 2 left
    assert ("build", "B25", "rural", ("food",)) in game.moves()
    game.apply_move(("build", "B25", "rural", ("food",)))
    assert game.resources(0)["food"] == 1 and game.s["discount"] == 0


def test_gain_rotate_and_draw_skills_are_mays():
    game = start(2)
    s = touch(game).s
    s["pl"][0]["hand"] = ["C01", "C10", "C08"]
    s["pl"][0]["res"]["food"] = 9
    game = touch(game)
    assert {m[3] for m in game.moves() if m[:2] == ("play", "C10")} == {
        "decline", "clockwise", "back"}
    game.apply_move(("play", "C01", None, "decline"))
    assert game.resources(0)["stone"] == 0
    game.apply_move(("play", "C10", None, "back"))
    assert game.rotation == 11
    game.apply_move(("play", "C08", None, "use"))
    assert game.is_chance_node() and game.current_player() == CHANCE
    game.resolve_chance()
    assert len(game.hand(0)) == 1


def test_played_character_is_housed_for_its_vp_or_goes_to_the_bottom():
    game = start(2)
    s = touch(game).s
    s["pl"][0]["fac"] = [["B10", None], ["B03", None]]
    s["pl"][0]["hand"] = ["C07", "C13"]
    game = touch(game)
    game.apply_move(("play", "C07", "B10", "decline"))  # blue in blue: vp_match 2
    assert ("play", "C13", "B10", "decline") not in game.moves()  # occupied
    game.apply_move(("play", "C13", "B03", "decline"))  # green in red: vp 1
    assert game.breakdown(0)["residents"] == 3 and game.resources(0)["food"] == 1
    s["pl"][0]["hand"] = ["C14"]
    touch(game).apply_move(("play", "C14", None, "decline"))
    assert s["cbottom"][-1] == "C14"


def test_buy_costs_the_hand_size_free_with_an_empty_hand_exchange_costs_2():
    game = start(2)
    s = touch(game).s
    s["pl"][0]["res"]["gold"] = 3
    game = touch(game)                                   # 3 cards after the pass
    game.apply_move(("buy",))
    game.resolve_chance()
    assert game.resources(0)["gold"] == 0 and len(game.hand(0)) == 4
    s["pl"][0]["hand"] = []
    s["pl"][0]["res"]["gold"] = 0
    touch(game).apply_move(("buy",))
    game.resolve_chance()
    assert len(game.hand(0)) == 1
    s["pl"][0]["res"]["gold"] = 2
    touch(game).apply_move(("exchange",))
    game.resolve_chance()
    assert [m[0] for m in game.moves()] == ["give", "give"]
    give = game.moves()[0][1]
    game.apply_move(("give", give))
    assert game.resources(0)["gold"] == 0 and s["cbottom"][-1] == give


def test_remodel_from_turn_8_only_and_instead_of_a_build():
    game = start(2)
    s = touch(game).s
    s["pl"][0]["fac"] = [["B03", None]]
    s["pl"][0]["res"].update(stone=9, wood=9, gold=9, food=9)
    assert "remodel" not in kinds(touch(game))
    s["turn"] = 8
    game = touch(game)
    assert "remodel" in kinds(game)
    move = next(m for m in game.moves() if m[0] == "remodel")
    game.apply_move(move)
    assert not kinds(game) & {"build", "remodel"}
    assert s["bbottom"][-1] == "B03" and len(game.facilities(0)) == 1


# ---------------------------------------------------------------------------- end of turn
def test_black_cubes_at_the_end_of_a_turn_but_not_the_last():
    game = start(2)
    game.apply_move(("place", 0, "plant"))
    game.apply_move(("end",))
    game.apply_move(("place", 2, "mineral"))
    game.apply_move(("end",))
    while game.is_chance_node():
        game.resolve_chance()
    assert game.memory(0).black == 1 and game.memory(2).black == 1
    assert all(game.memory(i).black == 0 for i in range(12) if i not in (0, 2))
    s = touch(game).s
    s["turn"] = 12
    s["altar"][5] = ["plant", [0], 0]
    finish_turn(touch(game))
    assert game.is_terminal() and game.memory(5).black == 0


def test_trend_refill_slot_5_to_the_bottom_slide_right_refill_from_the_right():
    game = start(2)
    s = touch(game).s
    s["pl"][0]["res"].update(gold=5)
    touch(game).apply_move(("build", "B09", "rural", ("gold",)))   # slot 4 (Lower Trend)
    row = game.row
    assert row == ("B02", "B25", "B17", None, "B01")
    finish_turn(game)
    assert s["bbottom"] == ["B01"]
    new = game.row
    assert new[2:] == ("B02", "B25", "B17") and None not in new


def test_trend_slots_stay_empty_without_cards_and_no_refill_on_the_last_turn():
    game = start(2)
    s = touch(game).s
    s["bdeck"], s["bbottom"] = [], []
    s["row"] = ["B02", None, "B17", "B25", None]
    finish_turn(touch(game))
    assert game.row == (None, None, "B02", "B17", "B25") and s["bbottom"] == []
    s["row"] = ["B02", None, "B17", "B25", "B01"]
    finish_turn(touch(game))                             # B01 goes under, comes straight back
    assert game.row == (None, "B01", "B02", "B17", "B25")
    s["turn"], s["row"] = 12, ["B02", None, "B17", "B25", "B01"]
    finish_turn(touch(game))
    assert game.is_terminal() and game.row == ("B02", None, "B17", "B25", "B01")


def test_festival_scoring_most_3_each_others_1_tie_1():
    game = start(3)
    s = touch(game).s
    s["pl"][0]["fac"] = [["B01", "C01"], ["B02", "C02"]]   # 2 red housed
    s["pl"][1]["fac"] = [["B03", "C03"], ["B09", "C07"]]   # 1 red, 1 blue
    s["pl"][2]["fac"] = [["B10", "C08"], ["B17", None]]    # 1 blue, green unhoused
    s["turn"] = 4
    game._festival()
    assert [game.breakdown(p)["festival"] for p in range(3)] == [6, 1 + 1, 1]


def test_game_ends_after_turn_12_most_vp_wins_tie_earlier_in_the_final_turn():
    game = start(3)
    s = touch(game).s
    s["turn"] = 12
    s["order"] = [2, 0, 1]
    s["orders"]["12"] = [2, 0, 1]
    s["pl"][0]["vp"][0] = 30
    s["pl"][1]["vp"][0] = 30
    finish_turn(touch(game))
    assert game.is_terminal() and game.current_player() == TERMINAL
    assert game.winner() == 0 and game.returns() == [1.0, 0.0, 0.0]
    s["orders"]["12"] = [1, 2, 0]
    assert game.winner() == 1


# ---------------------------------------------------------------------------- Impact
def test_impact_8_every_trend_slot_scores_6_for_the_rest_of_the_turn_once_per_game():
    game = start(2, impact=True)
    s = touch(game).s
    s["pl"][0]["res"].update(stone=9, wood=9)
    game = touch(game)
    game.apply_move(("impact", "use"))
    assert game.s["pl"][0]["impact"] == 8 and not game.s["impacts_up"]
    game.apply_move(("build", "B01", "rural", ("stone",)))  # slot 5: 1 VP + 6
    assert game.vp(0) == 7 and game.breakdown(0)["trend"] == 6
    assert "impact" not in kinds(game)
    game.apply_move(("place", 0, "plant"))
    game.apply_move(("end",))
    assert game.s["bonus"] is None                           # only for that turn


# ---------------------------------------------------------------------------- API, records
def test_five_players_is_a_one_line_error():
    with pytest.raises(LumicoreError,
                       match="^players must be an integer from 2 to 4 for Lemuria, got '5'$"):
        Game.new(players=5)
    with pytest.raises(LumicoreError, match="from 2 to 4 for Lemuria"):
        Game.new(players="3")
    with pytest.raises(LumicoreError, match="seed"):
        Game.new(players=3, seed=-1)


def test_registered_in_games():
    assert "lemuria" in GAMES
    game = new_game("lemuria", players=4, seed=2)
    assert isinstance(game, Game) and game.num_players() == 4


def test_record_replays_exactly_from_dict_and_path(tmp_path):
    from solvers.lemuria.play import play_game

    result = play_game(3, "greedy,random,greedy", seed=5)
    record = result.game.record()
    again = Game.replay(record)
    assert again == result.game and again.winner() == result.winner
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert Game.replay(path) == result.game
    assert Game.replay(str(path)).vp() == result.vp
    record["vp"] = [v + 1 for v in record["vp"]]
    with pytest.raises(DataError, match="vp"):
        Game.replay(record)


@pytest.mark.parametrize("text, match", [("[" * 100_000, "nested too deeply"),
                                         ("{", "not JSON"), ("", "not JSON")])
def test_a_record_file_that_is_not_json_is_a_data_error(text, match, tmp_path):
    """A record file nested too deeply raised json's RecursionError (a traceback)."""
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError, match=match):
        Game.replay(path)


@pytest.mark.parametrize("record", [{}, {"game": "reef"}, {"game": "lemuria", "actions": "x"},
                                    {"game": "lemuria", "players": 3, "seed": 0,
                                     "actions": [999]}])
def test_bad_records(record):
    with pytest.raises(LumicoreError):
        Game.replay(record)


def test_serialize_round_trip_and_clone_independence():
    game = start(3)
    text = game.serialize()
    copy = Game.deserialize(text)
    assert copy == game and copy.legal_actions() == game.legal_actions()
    clone = game.clone()
    clone.apply_action(0)
    assert clone != game
    with pytest.raises(DataError):
        Game.deserialize('{"game": "lemuria"}')


@pytest.mark.parametrize("players, impact, seed", [(2, False, 0), (3, True, 1), (4, False, 2),
                                                    (4, True, 3)])
def test_every_saved_state_of_a_random_game_loads_back(players, impact, seed):
    # the checks of a loaded game reject no state that play reaches (every third one here)
    for state in states(Game.new(players=players, seed=seed, impact=impact), seed, every=3):
        copy = Game.deserialize(state.serialize())
        assert copy == state and copy.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("players, impact, seed", [(2, True, 4), (3, False, 5), (4, True, 6)])
def test_a_damaged_saved_game_is_a_data_error_or_plays_on(players, impact, seed):
    # one field (top-level, or one of 40 nested ones) replaced by junk: a value of the wrong
    # type is a LumicoreError, and whatever loads plays to the end without a stray exception
    # (before, anything under "state" loaded as it was, and "options": {} as the defaults)
    game = Game.new(players=players, seed=seed, impact=impact)
    for i, state in enumerate(states(game, seed, every=150)):
        check_damage(state, Game.deserialize, nullable=NULLABLE, seed=i)


NULLABLE = (r"^state\.(row\[\d\]|altar\[\d+\]\[0\]|op|bonus|pl\[\d\]\.(pedestal|impact|passing"
            r"|fac\[\d+\]\[1\]))$")
"""The fields of a saved game that may be null."""


@pytest.mark.parametrize("path, value, message", [
    (("options",), {}, "field 'options.impact' is missing"),
    (("options", "impact"), 1, "field 'options.impact' must be true or false, got 1"),
    (("players",), 5, "field 'players' must be a number of players from 2 to 4, got 5"),
    (("state", "turn"), 13, "field 'state.turn' must be a turn from 0 \\(setup\\) to 12"),
    (("state", "pl", 1, "res", "gold"), -1, "field 'state.pl\\[1\\].res.gold' must be an "
     "amount of gold from 0 to"),
    (("state", "pl", 0, "hand", 0), "C99", "field 'state.pl\\[0\\].hand\\[0\\]' must be a "
     "character card id, got \"C99\""),
    (("state", "altar", 0), ["plant", [], 1], "field 'state.altar\\[0\\]' must be \\[material, "
     "owners, black cubes\\]"),
    (("state", "pending"), [["char", 7]], "field 'state.pending\\[0\\]' must be a draw"),
    (("state", "orders", "1"), [0, 0, 1], "field 'state.orders.1' must be an order of the 3 "
     "players"),
    (("state", "bdeck"), [], "field 'state.bdeck' must be where the buildings .* are: each once "
     "in all \\(B\\d+ is nowhere\\)"),
    (("state", "supply", "food"), 0, "field 'state.supply.food' must be \\d+: 40 food in all"),
    (("state", "pl", 2, "mat", "plant"), 1, "field 'state.pl\\[2\\].mat.plant' must be 2: each "
     "player has 2 plant materials"),
    (("state", "phase"), "over", "field 'state.phase' must be a phase of turn 1"),
    (("state", "colour"), "red", "unknown field 'state.colour'"),
])
def test_a_bad_field_is_named(path, value, message):
    data = json.loads(start(3).serialize())
    spot = data
    for key in path[:-1]:
        spot = spot[key]
    spot[path[-1]] = value
    with pytest.raises(DataError, match="^serialized lemuria game: " + message):
        Game.deserialize(json.dumps(data))


def test_state_prints_its_notation():
    text = str(start(2))
    assert text.startswith("Lemuria turn 1 (main)") and "altar r0" in text
    assert "player 2: VP 0" in text


@pytest.mark.parametrize("bad", [None, 5, "game"])
def test_render_game_of_something_else_is_a_one_line_error(bad):
    """render_game(None) was an AttributeError ('NoneType' object has no attribute 'cards')."""
    from lumicore.lemuria.render import render_game

    assert render_game(start(2)).startswith("<svg")
    with pytest.raises(LumicoreError, match="expected a lumicore.lemuria.Game"):
        render_game(bad)


@pytest.mark.parametrize("player", [2, -1, "0", True, None])
def test_a_player_outside_the_game_is_a_one_line_error(player):
    """hand(5), potential(9) were IndexErrors, hand(-1) the last player's hand, hand('0') a
    TypeError."""
    game = start(2)
    views = [game.resources, game.hand, game.facilities, game.materials, game.chits,
             game.breakdown, game.potential, game.player_text]
    for view in views + ([game.vp] if player is not None else []):  # vp(None): everyone's
        with pytest.raises(LumicoreError, match="player must be a player index from 0 to 1"):
            view(player)
    for index in (12, -1, "0", None):
        with pytest.raises(LumicoreError, match="memory must be a memory from 0 to 11"):
            game.memory(index)


def test_evaluate_is_on_the_returns_scale():
    game = start(3)
    values = game.evaluate()
    assert len(values) == 3 and abs(sum(values) - 1) < 1e-9
    touch(game).s["pl"][1]["vp"][0] = 20
    assert max(range(3), key=game.evaluate().__getitem__) == 1


def test_a_skill_may_turn_the_altar_between_two_harvests():
    game = start(2)
    s = touch(game).s
    s["altar"][1] = ["plant", [0, 0], 0]                  # memory 2 (2 blocks), full
    s["altar"][3] = ["plant", [0, 1], 0]                  # memory 4 (2 blocks), full
    s["pl"][0]["mat"]["plant"] = 0
    s["pl"][0]["hand"] = ["C19"]                          # rotate, 1 food
    game = touch(game)
    game.apply_move(("harvest", 1, 0))
    before = game.resources(0)
    game.apply_move(("play", "C19", None, "clockwise"))
    assert game.rotation == 1
    game.apply_move(("harvest", 3, 1))
    # at rotation 1 memory 4 shows what memory 3 prints
    resource = game.cards.altar.memories[2].plant
    assert game.resources(0)[resource] == before[resource] + 1
    assert game.resources(0)["gold"] == before["gold"] - 1


def test_build_without_a_chit_when_every_slot_is_full():
    game = start(2)
    s = touch(game).s
    s["pl"][1]["chits"] = [6, 5, 5, 4]                    # the city is full
    s["pl"][0]["res"].update(stone=5, wood=5)
    game = touch(game)
    assert ("build", "B02", None, ()) in game.moves()
    assert not any(m[0] == "build" and m[2] is not None for m in game.moves())
    game.apply_move(("build", "B02", None, ()))
    assert game.vp(0) == 8 and sum(game.chits(0).values()) == 0


def test_at_most_eight_facilities():
    game = start(2)
    s = touch(game).s
    s["pl"][0]["fac"] = [[f"B{n:02d}", None] for n in range(10, 18)]
    s["pl"][0]["res"].update(stone=9, wood=9, gold=9, food=9)
    assert "build" not in kinds(touch(game))


def test_one_material_operation_even_with_materials_left():
    # "You may place as many materials as you have, in as many turns as you wish": one a turn
    game = start(2)
    placed = 0
    while game.turn <= 3:
        if game.is_chance_node():
            game.resolve_chance()
        elif game.current_player() == 0:
            game.apply_move(("place", 2 * placed, "plant" if placed < 2 else "mineral"))
            placed += 1
            assert not kinds(game) & {"place", "pedestal"}
            game.apply_move(("end",))
        else:
            finish_turn_one_player(game)
    assert placed == 3 and game.materials(0) == {"plant": 0, "mineral": 1}


def _altar_file(path, gold: int):
    from lumicore.data import data_dir

    text = (data_dir() / "lemuria_altar.toml").read_text()
    path.write_text(text.replace("gold = 40,", f"gold = {gold},"))
    return str(path)


def test_an_altar_supply_smaller_than_the_starting_resources_is_refused(tmp_path):
    """The supply went below 0 (6 gold dealt from 2) and the game refused its own state."""
    altar = _altar_file(tmp_path / "small.toml", 5)
    with pytest.raises(DataError, match="small.toml'?: a supply of 5 gold cannot give 2 "
                                        "players 3 gold each"):
        Game.new(players=2, altar=altar)
    game = Game.new(players=2, altar=_altar_file(tmp_path / "six.toml", 6))
    assert game.s["supply"]["gold"] == 0
    assert Game.deserialize(game.serialize()) == game


def test_a_card_file_edited_while_the_process_runs_is_read_again(tmp_path):
    """The cards were cached by file name: the edited file kept its old contents."""
    import os

    altar = _altar_file(tmp_path / "altar.toml", 40)
    assert Game.new(players=2, altar=altar).s["supply"]["gold"] == 34
    _altar_file(tmp_path / "altar.toml", 30)
    stat = os.stat(altar)
    os.utime(altar, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert Game.new(players=2, altar=altar).s["supply"]["gold"] == 24


def test_the_cards_kept_loaded_are_bounded(tmp_path):
    """Each version of an edited card file stayed loaded (36 KB each) for the process's life."""
    import os

    from lumicore.lemuria.game import _CARDS_KEPT, Cards

    altar = _altar_file(tmp_path / "altar.toml", 40)
    stat = os.stat(altar)
    for k in range(_CARDS_KEPT + 3):
        os.utime(altar, ns=(stat.st_atime_ns, stat.st_mtime_ns + k * 10**9))
        assert Game.new(players=2, altar=altar).s["supply"]["gold"] == 34
    assert len(Cards._cache) <= _CARDS_KEPT


def test_a_character_file_too_small_to_deal_is_named(tmp_path):
    from lumicore.data import data_dir

    text = (data_dir() / "lemuria_characters.toml").read_text()
    path = tmp_path / "few.toml"
    path.write_text("[[character]]".join(text.split("[[character]]")[:9]))  # 8 cards
    with pytest.raises(DataError, match="few.toml'?: 8 character cards cannot deal 3 to 3"):
        Game.new(players=3, characters=str(path))
    assert Game.new(players=2, characters=str(path)).players == 2
