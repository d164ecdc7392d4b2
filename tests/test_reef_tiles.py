"""Luminos, their notation, the hand parser and the default tile set."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lumicore.errors import DataError, LumicoreError, NotationError
from lumicore.reef.tiles import (
    ANIMALS,
    COLORS,
    Lumino,
    StartLumino,
    format_hand,
    load_tiles,
    parse_hand,
)

RULEBOOK_NUMBERS = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6]


def test_codes_are_fixed():
    assert COLORS == ("pink", "green", "blue", "yellow")
    assert ANIMALS == ("shellfish", "crab", "seahorse", "starfish")


def test_default_set_has_26_tiles_per_colour_with_the_rulebook_numbers():
    tiles = load_tiles("default")
    assert len(tiles.luminos) == 104
    for color in COLORS:
        numbers = sorted(t.number for t in tiles.luminos if t.color == color)
        assert numbers == RULEBOOK_NUMBERS


def test_default_animals_follow_the_design_rule():
    tiles = load_tiles("default")
    pink = [t for t in tiles.luminos if t.color == "pink"]
    cycle = ["shellfish", "crab", "seahorse", "starfish", None]
    assert [t.animal for t in pink] == [cycle[i % 5] for i in range(26)]


def test_fish_backs_sort_by_player_count():
    tiles = load_tiles("default")
    assert Counter(t.fish for t in tiles.luminos) == {0: 72, 3: 16, 4: 16}
    # rulebook: 2 players use the 72 without fish, 3 players drop the 4-fish tiles (88 left)
    assert len(tiles.for_players(2)) == 72 and all(t.fish == 0 for t in tiles.for_players(2))
    three = tiles.for_players(3)
    assert len(three) == 88 and {t.fish for t in three} == {0, 3}
    assert len(tiles.for_players(4)) == 104
    assert tiles.for_players(1) == tiles.for_players(2)
    for bad in (0, 5, 2.0, True):
        with pytest.raises(LumicoreError):
            tiles.for_players(bad)


def test_six_starting_luminos_are_the_colour_pairs():
    starts = load_tiles("default").starts
    assert len(starts) == 6
    assert {frozenset(s.colors) for s in starts} == {
        frozenset((a, b)) for i, a in enumerate(COLORS) for b in COLORS[i + 1:]
    }
    assert all(s.number is None and s.animal is None for s in starts)


def test_fish_not_part_of_equality():
    assert Lumino("pink", 3, "crab", fish=3) == Lumino("pink", 3, "crab")
    assert hash(Lumino("pink", 3, "crab", fish=3)) == hash(Lumino("pink", 3, "crab"))
    assert Lumino("pink", 3, "crab") != Lumino("pink", 3)
    assert Lumino("pink", 3) != Lumino("blue", 3)


def test_start_lumino_needs_two_colours_and_keeps_order():
    assert StartLumino("pink", "green") != StartLumino("green", "pink")
    with pytest.raises(LumicoreError):
        StartLumino("pink", "pink")
    with pytest.raises(NotationError):
        StartLumino("pink", "purple")


@pytest.mark.parametrize("kwargs", [
    {"color": "red"}, {"color": "pink", "number": 0}, {"color": "pink", "number": 7},
    {"color": "pink", "number": True}, {"color": "pink", "animal": "octopus"},
    {"color": "pink", "fish": -1},
])
def test_bad_lumino_rejected(kwargs):
    with pytest.raises(NotationError):
        Lumino(**kwargs)


def test_parse_hand_example_from_the_issue():
    assert parse_hand("pink 3 crab, blue 5") == (Lumino("pink", 3, "crab"), Lumino("blue", 5))
    assert parse_hand("  PINK 3 Crab ,blue 5 ") == parse_hand("pink 3 crab, blue 5")
    assert parse_hand("") == ()
    assert parse_hand("green seahorse") == (Lumino("green", None, "seahorse"),)


@pytest.mark.parametrize("text, token", [
    ("pnk 3 crab", "'pnk'"),
    ("pink 3 crab, blue 9", "'9'"),
    ("pink 3 crabs", "'crabs'"),
    ("pink 3 crab seahorse", "'seahorse'"),
    ("pink crab 3", "'3'"),
    ("pink 3,,blue 5", "position 2"),
    ("pink 1" + "0" * 5000, r"'1000.*numbers are 1\.\.6"),  # int() raised ValueError
])
def test_parse_hand_errors_name_the_bad_token(text, token):
    with pytest.raises(NotationError, match=token):
        parse_hand(text)


luminos = st.builds(
    Lumino,
    st.sampled_from(COLORS),
    st.one_of(st.none(), st.integers(1, 6)),
    st.one_of(st.none(), st.sampled_from(ANIMALS)),
)


@given(st.lists(luminos, max_size=4))
def test_hand_notation_round_trips(hand):
    assert parse_hand(format_hand(hand)) == tuple(hand)
    for lumino in hand:
        assert Lumino.parse(str(lumino)) == lumino


def test_all_default_tiles_round_trip():
    for lumino in load_tiles("default").luminos:
        assert Lumino.parse(str(lumino)) == lumino


def test_tile_file_errors(tmp_path):
    path = tmp_path / "tiles.toml"
    path.write_text('colors = ["pink"]\nstarts = []\ntiles = [{ number = 9 }]\n')
    with pytest.raises(DataError, match="tile 0"):
        load_tiles(path)
    path.write_text('colors = ["pink"]\ntiles = []\n')
    with pytest.raises(DataError, match="starts"):
        load_tiles(path)
    path.write_text('colors = ["pink", "blue"]\ntiles = [{ number = 2, animal = "crab" }]\n'
                    'starts = [["pink", "blue"]]\n')
    tiles = load_tiles(path)
    assert tiles.luminos == (Lumino("pink", 2, "crab"), Lumino("blue", 2, "crab"))
