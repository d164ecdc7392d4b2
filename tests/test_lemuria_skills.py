"""The skill vocabulary, character effects (optional, backward compatible) and Impact cards."""

from __future__ import annotations

import pytest

from lumicore.errors import DataError
from lumicore.lemuria import load_characters
from lumicore.lemuria.cards import cards_to_toml, parse_characters
from lumicore.lemuria.skills import DECLINE, load_impacts, parse_impacts, parse_skill

C = {"id": "C1", "color": "red", "food": 1, "vp": 1, "vp_match": 3}


@pytest.mark.parametrize("text", ["gain stone 1", "gain gold 12", "rotate", "extra build",
                                  "discount", "draw", "trend bonus 6 6 6 6 6",
                                  "trend bonus 0 1 2 3 4"])
def test_notation_round_trips(text):
    assert str(parse_skill(text)) == text
    assert parse_skill(text).choices()[0] == DECLINE


@pytest.mark.parametrize("text", ["fly", "gain stone", "gain gems 1", "gain stone 0",
                                  "trend bonus 6 6", "trend bonus a b c d e", "rotate twice",
                                  "gain gold \u00b2", "trend bonus \u00b2 1 1 1 1",
                                  "gain gold " + "1" * 5000, "trend bonus 1 1 1 1 " + "1" * 5000,
                                  "gain gold 1234567890", "gain gold 526"])
def test_bad_effects_name_the_effect(text):
    with pytest.raises(DataError, match="effect"):
        parse_skill(text)


def test_card_files_without_effect_stay_valid_and_effects_round_trip():
    plain = parse_characters([{**C, "skill": "printed text only"}])
    assert plain["C1"].effect == "" and plain["C1"].skill_effect is None
    cards = parse_characters([{**C, "effect": "gain wood 2"}])
    assert cards["C1"].skill_effect.resource == "wood"
    text = cards_to_toml(characters=cards)
    assert 'effect = "gain wood 2"' in text
    with pytest.raises(DataError, match="character C1.effect"):
        parse_characters([{**C, "effect": "teleport"}])


def test_default_characters_all_have_an_effect():
    kinds = {c.skill_effect.kind for c in load_characters().values()}
    assert kinds == {"gain", "rotate", "extra build", "discount", "draw"}


def test_impact_8_is_the_default_and_others_load_from_a_file(tmp_path):
    impacts = load_impacts()
    assert list(impacts) == [8] and impacts[8].effect.bonus == (6, 6, 6, 6, 6)
    path = tmp_path / "impacts.toml"
    path.write_text('[[impact]]\nnumber = 3\nname = "x"\neffect = "draw"\n', encoding="utf-8")
    assert load_impacts(path)[3].effect.kind == "draw"
    for bad, message in [([{"number": 9, "effect": "draw"}], "number"),
                         ([{"number": 1}], "missing"),
                         ([{"number": 1, "effect": "draw"}] * 2, "duplicate"),
                         ([{"number": 1, "effect": "draw", "cost": 1}], "unknown key")]:
        with pytest.raises(DataError, match=message):
            parse_impacts(bad)


def test_a_character_with_an_impact_card_s_trend_bonus_is_refused():
    """It was taken, and the whole game played it, though only Impact cards carry it."""
    with pytest.raises(DataError, match="C1.effect: 'trend bonus' is an Impact card's effect"):
        parse_characters([{**C, "effect": "trend bonus 1 1 1 1 1"}])


@pytest.mark.parametrize("loader", ["load_buildings", "load_characters"])
def test_a_card_file_without_cards_is_refused(loader, tmp_path):
    """An empty buildings file played a whole game with an empty Trend row."""
    from lumicore.lemuria import cards

    path = tmp_path / "none.toml"
    path.write_text("# no cards\n")
    with pytest.raises(DataError, match=r"none.toml'?: no \[\[(building|character)\]\] tables"):
        getattr(cards, loader)(path)
