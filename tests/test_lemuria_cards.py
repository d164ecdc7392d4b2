"""Card files: the default reconstruction and the validation of user card files."""

from __future__ import annotations

import pytest

from lumicore.data import data_dir
from lumicore.errors import DataError, LumicoreError
from lumicore.lemuria import COLORS, RESOURCES, load_buildings, load_characters
from lumicore.lemuria.cards import cards_to_toml, parse_buildings, parse_characters


def test_default_buildings_as_the_design_doc_describes():
    cards = load_buildings()
    assert len(cards) == 32
    for color in COLORS:
        assert sum(c.color == color for c in cards.values()) == 8
    assert {c.total_cost for c in cards.values()} == {2, 3, 4, 5, 6}
    assert {c.vp for c in cards.values()} <= set(range(1, 9))
    assert all(set(c.cost) <= set(RESOURCES) for c in cards.values())
    # VP rises with cost: a dearer card never scores less than a cheaper one
    for a in cards.values():
        for b in cards.values():
            if a.total_cost < b.total_cost:
                assert a.vp <= b.vp, (a, b)


def test_default_characters():
    cards = load_characters()
    assert len(cards) == 24
    assert all(c.vp_match > c.vp >= 0 and c.food >= 1 for c in cards.values())
    assert {c.color for c in cards.values()} == set(COLORS)


@pytest.mark.parametrize("name", ["lemuria_buildings.toml", "lemuria_characters.toml"])
def test_default_files_say_they_are_a_reconstruction(name):
    head = (data_dir() / name).read_text().splitlines()[0]
    assert "RECONSTRUCTION" in head


def test_cards_round_trip(tmp_path):
    buildings, characters = load_buildings(), load_characters()
    path = tmp_path / "cards.toml"
    path.write_text(cards_to_toml(buildings, None))
    assert load_buildings(path) == buildings
    path.write_text(cards_to_toml(None, characters))
    assert load_characters(path) == characters


def test_building_hashable():
    card = load_buildings()["B01"]
    assert {card: 1}[card] == 1


B = {"id": "B1", "color": "red", "vp": 2, "cost": {"stone": 1}}
C = {"id": "C1", "color": "red", "food": 1, "vp": 1, "vp_match": 3, "skill": "x"}


@pytest.mark.parametrize("entry,message", [
    ({**B, "color": "purple"}, "building B1.color: unknown colour 'purple'"),
    ({**B, "vp": -1}, "building B1.vp: expected a non-negative integer"),
    ({**B, "vp": True}, "building B1.vp"),
    ({**B, "cost": {"marble": 1}}, "building B1.cost: unknown resource 'marble'"),
    ({**B, "cost": {"stone": -2}}, "building B1.cost.stone"),
    ({**B, "cost": {"stone": 1.5}}, "building B1.cost.stone"),
    ({**B, "size": 3}, r"building\[0\]: unknown key 'size'"),
    ({"id": "B1", "color": "red"}, r"building\[0\]: missing key 'vp'"),
    ({**B, "id": ""}, r"building\[0\].id"),
])
def test_bad_building_named(entry, message):
    with pytest.raises(DataError, match=message):
        parse_buildings([entry])


def test_duplicate_building_id():
    with pytest.raises(DataError, match="building B1: duplicate id"):
        parse_buildings([B, B])


@pytest.mark.parametrize("entry,message", [
    ({**C, "food": -1}, "character C1.food"),
    ({**C, "vp_match": "3"}, "character C1.vp_match"),
    ({**C, "color": "black"}, "character C1.color"),
    ({**C, "skill": 3}, "character C1.skill"),
])
def test_bad_character_named(entry, message):
    with pytest.raises(DataError, match=message):
        parse_characters([entry])


def test_card_file_with_unknown_table(tmp_path):
    path = tmp_path / "x.toml"
    path.write_text('[[card]]\nid = "B1"\n')
    with pytest.raises(LumicoreError, match="unknown key 'card'"):
        load_buildings(path)
    with pytest.raises(DataError, match="neither a built-in name"):
        load_characters(tmp_path / "missing.toml")


def test_one_card_file_holds_both_kinds_as_issue_4_shows_them(tmp_path):
    """The issue's card example has [[building]] and [[character]] tables in one block; such a
    file (what cards_to_toml writes) was refused by each loader for the other kind's tables."""
    buildings, characters = load_buildings(), load_characters()
    path = tmp_path / "cards.toml"
    path.write_text(cards_to_toml(buildings, characters))
    assert load_buildings(path) == buildings and load_characters(path) == characters
    path.write_text(cards_to_toml(buildings, characters) + '\n[[charactr]]\nid = "C1"\n')
    with pytest.raises(DataError, match="unknown key 'charactr'"):
        load_characters(path)
