"""Luminos, their notation, the hand parser and the default tile set."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lumicore.data import data_dir
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


DEFAULT_TILE_FILE = (data_dir() / "lumicora_tiles.toml").read_text(encoding="utf-8")
FIRST_TILE = '{ number = 1, animal = "shellfish", fish = 0 }'
FIRST_START = '["pink", "green"], ["pink", "blue"]'


@pytest.mark.parametrize("old, new, message", [
    # wrong types: were TypeErrors, or "pink, green" was read one character at a time
    ('colors = ["pink", "green", "blue", "yellow"]', "colors = 4",
     "colors must be a list of colours (pink, green, blue, yellow), got '4'"),
    ('colors = ["pink", "green", "blue", "yellow"]', 'colors = "pink, green"',
     "colors must be a list of colours (pink, green, blue, yellow), got 'pink, green'"),
    ('colors = ["pink", "green", "blue", "yellow"]', "colors = []", "colors must be a list"),
    (None, 'colors = ["pink"]\nstarts = [["pink", "green"]]\ntiles = 5\n',
     "tiles must be a list of tables"),
    (None, 'colors = ["pink"]\nstarts = 5\ntiles = [{ number = 1 }]\n',
     "starts must be a list of colour pairs"),
    (FIRST_TILE, "5", "tile 0: expected a table such as"),
    (FIRST_TILE, '{ number = "1" }', "tile 0: number must be an integer 1..6 (or left out), "
                                     "got '1'"),
    (FIRST_TILE, "{ number = 1, fish = true }", "tile 0: fish must be an integer >= 0, got "
                                                "'True'"),
    (FIRST_TILE, "{ number = 1, fish = -3 }", "tile 0: fish must be an integer >= 0"),
    (FIRST_TILE, '{ number = 1, animal = "octopus" }', "tile 0: animal must be one of"),
    (FIRST_START, '["pink", "green", "blue"], ["pink", "blue"]',
     "starts[0]: a starting Lumino is two different colours"),
    (FIRST_START, '["pink", 3], ["pink", "blue"]', "starts[0]: a starting Lumino is two"),
    # unknown keys, at every level: a misspelt fish added its tile to the 2-player bag
    (FIRST_TILE, '{ number = 1, animal = "shellfish", fsh = 4 }',
     "unknown key 'fsh' in tile 0 (known: number, animal, fish)"),
    ("colors =", "colours = 4\ncolors =",
     "unknown key 'colours' in the tile file (known: colors, tiles, starts)"),
    # duplicates: a colour twice had every tile twice; a starting Lumino twice (either way
    # round: the player orients it) was dealt twice
    ('colors = ["pink", "green", "blue", "yellow"]', 'colors = ["pink", "green", "pink"]',
     "colors[2]: pink is listed twice"),
    (FIRST_START, '["pink", "green"], ["green", "pink"]', "starts[1]: green/pink is listed twice"),
    (FIRST_START, '["pink", "green"], ["pink", "green"]', "starts[1]: pink/green is listed twice"),
])
def test_a_bad_tile_file_is_a_data_error_naming_the_file_and_key(tmp_path, old, new, message):
    """The default file with ``old`` replaced by ``new`` (no ``old``: ``new`` is the file)."""
    assert old is None or old in DEFAULT_TILE_FILE
    path = tmp_path / "tiles.toml"
    path.write_text(new if old is None else DEFAULT_TILE_FILE.replace(old, new, 1),
                    encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_tiles(path)
    text = str(info.value)
    assert text.startswith(repr(str(path)) + ": ") and message in text and "\n" not in text


def test_a_long_value_in_a_tile_file_is_quoted_short(tmp_path):
    """A 3000-character animal was quoted whole (twice: the tile and the reason)."""
    path = tmp_path / "tiles.toml"
    path.write_text(DEFAULT_TILE_FILE.replace(FIRST_TILE, '{ animal = "' + "x" * 3000 + '" }'),
                    encoding="utf-8")
    with pytest.raises(DataError, match="tile 0: animal must be one of") as info:
        load_tiles(path)
    assert len(str(info.value)) < 250
    with pytest.raises(NotationError) as info:
        Lumino("pink", 3, "x" * 3000)
    assert len(str(info.value)) < 200
