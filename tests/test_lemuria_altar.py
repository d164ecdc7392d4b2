"""The Star-Carved Altar: card data, placement (one type per memory, empty blocks), harvest
shares, black cubes, rotation, the calendar."""

from __future__ import annotations

import pytest

from lumicore.data import parse_toml
from lumicore.errors import DataError, IllegalMoveError
from lumicore.lemuria.altar import (
    MEMORIES,
    AltarCard,
    AltarMemory,
    Calendar,
    Memory,
    add_black_cubes,
    can_place,
    harvest_shares,
    is_full,
    load_altar,
    parse_altar,
    place,
    turn_altar,
)

CARD = load_altar()


def test_default_altar_card_has_12_memories_of_2_or_3_blocks_with_plant_and_mineral_yields():
    assert len(CARD.memories) == MEMORIES == 12
    assert {m.blocks for m in CARD.memories} == {2, 3}
    assert {m.plant for m in CARD.memories} == {"food", "wood"}
    assert {m.mineral for m in CARD.memories} == {"gold", "stone"}


def test_rotation_moves_the_printed_resources_clockwise_not_the_blocks():
    card = AltarCard(tuple(AltarMemory(2 + i % 2, "food" if i == 0 else "wood",
                                       "gold" if i == 0 else "stone") for i in range(12)))
    assert card.yields(0, "plant", 0) == "food" and card.yields(1, "plant", 0) == "wood"
    assert card.yields(1, "plant", 1) == "food" and card.yields(1, "mineral", 1) == "gold"
    assert card.yields(11, "plant", -1) == "food"       # one memory back
    assert card.blocks(1) == 3                            # blocks do not move
    assert turn_altar(11, 1) == 0 and turn_altar(0, -1) == 11


def test_place_on_an_empty_block():
    m = place(CARD, Memory(), 1, 0, "mineral")           # memory 2 has 2 blocks
    m = place(CARD, m, 1, 1, "mineral")
    assert m.owners == (0, 1) and is_full(CARD, m, 1)
    with pytest.raises(IllegalMoveError, match="memory 2 is full"):
        place(CARD, m, 1, 2, "mineral")


def test_same_type_rule_for_any_players_material():
    mine = place(CARD, Memory(), 0, 0, "plant")
    with pytest.raises(IllegalMoveError, match="only plant may be placed there"):
        place(CARD, mine, 0, 0, "mineral")               # my own material
    with pytest.raises(IllegalMoveError, match="one type per memory"):
        place(CARD, mine, 0, 1, "mineral")               # another player's
    assert place(CARD, mine, 0, 1, "plant").owners == (0, 1)


def test_black_cubes_do_not_fix_a_type_but_fill_blocks():
    m = Memory("plant", (0,), 1)
    assert can_place(CARD, m, 0, "plant") is None       # 3 blocks: 2 filled
    assert "full" in can_place(CARD, Memory("plant", (0,), 2), 0, "plant")
    assert "unknown material" in can_place(CARD, Memory(), 0, "gem")


def test_harvest_shares_own_plus_all_black_for_the_harvester_half_rounded_down_for_others():
    memory = Memory("mineral", (0, 2), 1)                # memory 1: 3 blocks, mineral = stone
    assert harvest_shares(CARD, memory, 0, 0, 2, 4) == [(2, "stone", 2), (0, "stone", 1)]
    memory = Memory("plant", (1,), 2)
    assert harvest_shares(CARD, memory, 0, 0, 1, 3) == [(1, "food", 3)]
    three = AltarCard(tuple(AltarMemory(5, "wood", "gold") for _ in range(12)))
    memory = Memory("plant", (0, 1, 1), 2)               # 2 black cubes: half is 1 each
    assert harvest_shares(three, memory, 0, 0, 0, 3) == [(0, "wood", 3), (1, "wood", 3)]
    memory = Memory("plant", (0, 1), 3)                  # 3 black: others get 1 (rounded down)
    assert harvest_shares(three, memory, 0, 0, 0, 2) == [(0, "wood", 4), (1, "wood", 2)]


def test_harvest_order_is_the_harvester_then_clockwise():
    three = AltarCard(tuple(AltarMemory(4, "wood", "gold") for _ in range(12)))
    memory = Memory("mineral", (0, 1, 2, 3), 0)
    assert [p for p, _r, _n in harvest_shares(three, memory, 0, 0, 2, 4)] == [2, 3, 0, 1]


def test_harvest_needs_a_full_memory_with_a_material_of_yours():
    with pytest.raises(IllegalMoveError, match="is not full"):
        harvest_shares(CARD, Memory("plant", (0,), 1), 0, 0, 0, 2)
    with pytest.raises(IllegalMoveError, match="no material of player 2"):
        harvest_shares(CARD, Memory("plant", (0, 0), 1), 0, 0, 1, 2)


def test_harvest_yield_follows_the_altar_rotation():
    memory = Memory("plant", (0, 0), 1)
    assert harvest_shares(CARD, memory, 1, 0, 0, 2)[0][1] == CARD.memories[1].plant
    assert harvest_shares(CARD, memory, 1, 1, 0, 2)[0][1] == CARD.memories[0].plant


def test_black_cubes_only_where_a_player_has_material_and_a_block_is_empty():
    memories = [Memory()] * 12
    memories[0] = Memory("plant", (0,), 0)              # 3 blocks: gets a cube
    memories[1] = Memory("plant", (0, 1), 0)            # 2 blocks, full: none
    memories[2] = Memory("plant", (0,), 1)              # 3 blocks, one empty: gets one
    after = add_black_cubes(CARD, tuple(memories))
    assert [m.black for m in after[:4]] == [1, 0, 2, 0]
    again = add_black_cubes(CARD, after)
    assert again[2].black == 2 and again[0].black == 2  # full memories take no more


def test_calendar():
    assert [t for t in range(1, 13) if Calendar(t).festival] == [4, 8, 12]
    assert [t for t in range(1, 13) if not Calendar(t).altar_phase] == [1, 2, 3]
    assert Calendar(12).last and not Calendar(11).last


def _altar_toml(**change):
    memories = "\n".join('[[memory]]\nblocks = 2\nplant = "food"\nmineral = "gold"\n'
                         for _ in range(12))
    return parse_toml(memories)


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d["memory"].pop(), "expected 12 \\[\\[memory\\]\\]"),
    (lambda d: d["memory"][3].update(blocks=0), "memory 4.blocks"),
    (lambda d: d["memory"][0].update(plant="gold"), "memory 1.plant"),
    (lambda d: d["memory"][0].update(mineral="wood"), "memory 1.mineral"),
    (lambda d: d.update(extra=1), "unknown key 'extra'"),
    (lambda d: d.update(supply={"gems": 1}), "supply"),
    (lambda d: d.update(supply={"gold": -1}), "supply.gold"),
    # unbounded before: a player could hold more than the planner takes
    (lambda d: d.update(supply={"gold": 526}), r"supply.gold: expected an integer 0..525"),
    # the bad key was not named
    (lambda d: d.update(supply={"iron": 40}), "supply: unknown resource 'iron'"),
    (lambda d: d["memory"][0].update(block=3), "memory 1: unknown key 'block'"),
    (lambda d: d["memory"][0].pop("plant"), "memory 1: missing key 'plant'"),
])
def test_bad_altar_files_name_the_entry(mutate, message):
    data = _altar_toml()
    mutate(data)
    with pytest.raises(DataError, match=message):
        parse_altar(data)


def test_altar_file_by_path(tmp_path):
    path = tmp_path / "altar.toml"
    path.write_text('supply = { gold = 5 }\n' + "\n".join(
        '[[memory]]\nblocks = 3\nplant = "wood"\nmineral = "stone"\n' for _ in range(12)),
        encoding="utf-8")
    card = load_altar(path)
    assert card.supply["gold"] == 5 and card.supply["food"] == 40
    assert card.yields(4, "mineral", 3) == "stone"
