"""Fuzz every parser of user input: text, bytes (read from a file) and parsed data of the right
shape with wrong parts. Only :class:`LumicoreError` may escape; a parser with a printer also
round-trips, ``parse(str(x)) == x``.

The number of examples follows the hypothesis profile of conftest.py (HYPOTHESIS_PROFILE).
Cases that fail in modules this test does not own are marked ``xfail(strict=False)`` with the
reason, so that they pass once the owner fixes them.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from lumicore.data import data_dir, parse_toml, shorten
from lumicore.errors import DataError, LumicoreError
from lumicore.game import GAMES, new_game
from lumicore.lemuria import default_instance
from lumicore.lemuria.altar import load_altar, parse_altar
from lumicore.lemuria.cards import (
    cards_to_toml,
    load_buildings,
    load_characters,
    parse_buildings,
    parse_characters,
)
from lumicore.lemuria.instance import instance_from_dict, load_instance, parse_instance
from lumicore.lemuria.skills import load_impacts, parse_impacts, parse_skill
from lumicore.lucia import Train
from lumicore.lucia.cards import KINDS, Action, Card, Deck, load_deck
from lumicore.lucia.game import PuzzleState
from lumicore.lucia.start import Setup, load_setup
from lumicore.lumen import Sheet, load_layout, load_map
from lumicore.lumen import load_board as lumen_board
from lumicore.reef import Lumino, Reef, load_board, parse_hand
from lumicore.reef import io as reef_io
from lumicore.reef.board import Board
from lumicore.reef.tiles import format_hand, load_tiles
from solvers.arena import parse_bot_spec, replay_record

SCRATCH = Path(tempfile.mkdtemp(prefix="lumicore-fuzz-"))


def only_lumicore_errors(parse: Callable[..., Any], *args: Any) -> Any:
    """Call the parser; a LumicoreError is a fine answer to bad input, anything else fails."""
    try:
        return parse(*args)
    except LumicoreError as exc:
        assert len(str(exc)) < 600, f"error message too long: {str(exc)[:200]}..."
        return None


def as_file(content: str | bytes, suffix: str) -> Path:
    path = SCRATCH / f"fuzz{suffix}"
    if isinstance(content, str):
        content = content.encode("utf-8", "surrogatepass")
    path.write_bytes(content)
    return path


def builtin(name: str) -> str:
    return (data_dir() / name).read_text(encoding="utf-8")


# -- strategies ----------------------------------------------------------------------------------

junk = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=3),
    max_leaves=8,
)
"""Any parsed TOML/JSON-like value (and ``None``, which TOML lacks)."""


def table(fields: dict[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[dict[str, Any]]:
    """Tables of the schema's keys (each optional, sometimes of the wrong type), sometimes with an
    unknown key."""
    optional = {key: value | junk for key, value in fields.items()}
    extra = st.dictionaries(st.text(max_size=6), junk, max_size=1)
    return st.tuples(st.fixed_dictionaries({}, optional=optional), extra).map(
        lambda pair: {**pair[1], **pair[0]})


def mutations(text: str) -> st.SearchStrategy[str]:
    """A text with a few characters replaced, inserted or deleted (TOML/JSON punctuation,
    digits, letters and some non-ASCII)."""
    pieces = st.text(alphabet="[]{}=\"',.:#\n 0123456789-+eExabcLHTSG\u00b3\u0663\ufeff",
                     max_size=3)
    edit = st.tuples(st.integers(0, len(text)), st.integers(0, 3), pieces)

    def apply(edits: list[tuple[int, int, str]]) -> str:
        out = text
        for at, cut, new in edits:
            at = min(at, len(out))
            out = out[:at] + new + out[at + cut:]
        return out

    return st.lists(edit, min_size=1, max_size=4).map(apply)


any_text = st.text(max_size=200)
any_bytes = st.binary(max_size=200)


def text_and_bytes(notation_chars: str) -> st.SearchStrategy[str]:
    """Random text, biased toward the characters of a notation."""
    return any_text | st.text(alphabet=notation_chars, max_size=60)


# -- Lucia train notation ------------------------------------------------------------------------

@given(text_and_bytes("LHhTSG0123456789 \t\n\u00b3"))
def test_train_parse_text(text: str) -> None:
    train = only_lumicore_errors(Train.parse, text)
    if train is not None:
        assert Train.parse(str(train)) == train


@given(any_bytes | st.none() | st.integers() | st.lists(st.text(max_size=2)))
def test_train_parse_wrong_types(value: Any) -> None:
    with pytest.raises(LumicoreError):
        Train.parse(value)


@st.composite
def trains(draw: st.DrawFn) -> Train:
    others = draw(st.lists(st.integers(0, 4), max_size=15))
    at = draw(st.integers(0, len(others)))
    codes = (*others[:at], draw(st.integers(5, 10)), *others[at:])
    assume(all({a, b} != {3, 4} for a, b in zip(codes, codes[1:], strict=False)))
    return Train(codes)


@given(trains())
def test_train_round_trips(train: Train) -> None:
    assert Train.parse(str(train)) == train
    assert Train.from_packed(train.packed) == train


@given(st.integers(-(1 << 70), 1 << 70) | junk)
def test_train_from_packed_any_value(packed: Any) -> None:
    only_lumicore_errors(Train.from_packed, packed)


@given(st.lists(st.integers(-(1 << 70), 1 << 70) | junk, max_size=18))
def test_train_from_codes(codes: list[Any]) -> None:
    train = only_lumicore_errors(Train, codes)
    if train is not None:
        assert Train.parse(str(train)) == train


@pytest.mark.parametrize("value", ["x", None, "0x5", [1]])
def test_train_from_packed_rejects_other_types(value: Any) -> None:
    with pytest.raises(LumicoreError, match="unsigned 64-bit integer"):
        Train.from_packed(value)


def test_train_codes_error_survives_a_huge_integer() -> None:
    with pytest.raises(LumicoreError, match="bad kid code 'an integer of about 5000 digits'"):
        Train((10 ** 5000,))


# -- Lucia deck TOML -----------------------------------------------------------------------------

actions = table({"kind": st.sampled_from(KINDS), "roles": st.sampled_from(["S", "HS", "LHTSG"]),
                 "steps": st.integers(-1, 17), "source": st.sampled_from("HTx")})
cards = table({"name": st.text(max_size=5), "copies": st.integers(-2, 2000),
               "actions": st.lists(actions, max_size=3)})
decks = table({"card": st.lists(cards, max_size=3)})


@given(decks)
def test_deck_from_parsed_data(data: dict[str, Any]) -> None:
    deck = only_lumicore_errors(Deck.from_dict, data)
    if deck is not None:
        assert all(Card.from_dict(c.to_dict()) == c for c in deck.kinds)


@given(mutations(builtin("lucia_deck.toml")) | any_text)
def test_deck_file_text(text: str) -> None:
    only_lumicore_errors(load_deck, as_file(text, ".toml"))


@given(any_bytes)
def test_deck_file_bytes(raw: bytes) -> None:
    only_lumicore_errors(load_deck, as_file(raw, ".toml"))


@given(actions)
def test_action_round_trips(data: dict[str, Any]) -> None:
    action = only_lumicore_errors(Action.from_dict, data)
    if action is not None:
        assert Action.from_dict(action.to_dict()) == action


# -- Lucia setup TOML ----------------------------------------------------------------------------

groups = table({"stars": st.integers(-1, 5), "kids": st.text(alphabet="LHhTSG0 ", max_size=20)})
setups = table({"group": st.lists(groups, max_size=4)})


@given(setups)
def test_setup_from_parsed_data(data: dict[str, Any]) -> None:
    only_lumicore_errors(Setup.from_dict, data)


@given(mutations(builtin("lucia_setup.toml")) | any_text)
def test_setup_file_text(text: str) -> None:
    only_lumicore_errors(load_setup, as_file(text, ".toml"))


@given(any_bytes)
def test_setup_file_bytes(raw: bytes) -> None:
    only_lumicore_errors(load_setup, as_file(raw, ".toml"))


# -- reef board drawing, hand, tiles, JSON -------------------------------------------------------

@given(text_and_bytes("LWS123 \n#\ufeffX"))
def test_board_parse_text(drawing: str) -> None:
    board = only_lumicore_errors(Board.parse, drawing)
    if board is not None:
        assert Board.parse(str(board)) == board


@given(mutations(builtin("reef_a.txt")))
def test_board_drawing_mutated(drawing: str) -> None:
    only_lumicore_errors(Board.parse, drawing)


@given(any_bytes)
def test_board_file_bytes(raw: bytes) -> None:
    only_lumicore_errors(load_board, as_file(raw, ".txt"))


@given(text_and_bytes("pink blue yellow green purple orange crab seahorse 0123456789,"))
def test_parse_hand_text(text: str) -> None:
    hand = only_lumicore_errors(parse_hand, text)
    if hand is not None:
        assert parse_hand(format_hand(hand)) == hand
        assert all(Lumino.parse(str(lumino)) == lumino for lumino in hand)


@given(any_bytes | st.none() | st.integers() | st.lists(st.text(max_size=6), max_size=2))
def test_parse_hand_wrong_types(value: Any) -> None:
    with pytest.raises(LumicoreError):
        parse_hand(value)


@pytest.mark.parametrize("text", ["pink \u00b3", "pink \u0663", "pink \U0001d7d1 crab"])
def test_parse_hand_accepts_ascii_digits_only(text: str) -> None:
    with pytest.raises(LumicoreError):
        parse_hand(text)


@given(mutations(builtin("lumicora_tiles.toml")) | any_bytes)
def test_tile_file(content: str | bytes) -> None:
    only_lumicore_errors(load_tiles, as_file(content, ".toml"))


def _reef_json() -> str:
    reef = Reef.new(load_board("A"), ("pink", "green"))
    for lumino in ("pink 3 crab", "blue 5", "yellow 2 seahorse"):
        reef = reef.place(next(reef.placements(Lumino.parse(lumino), limestone=3)))
    return reef_io.dumps(reef)


REEF_JSON = _reef_json()


@given(st.sampled_from("AB"), st.lists(st.tuples(
    st.sampled_from(["pink", "green", "blue", "yellow"]), st.integers(1, 6),
    st.sampled_from(["", "crab", "seahorse", "shellfish", "starfish"]), st.integers(0, 99)),
    max_size=5))
def test_reef_json_round_trips(side: str, tiles: list[tuple[str, int, str, int]]) -> None:
    reef = Reef.new(load_board(side), ("pink", "green"))
    for color, number, animal, pick in tiles:
        lumino = Lumino.parse(f"{color} {animal}" if animal else f"{color} {number}")
        options = list(reef.placements(lumino, limestone=4))
        if options:
            reef = reef.place(options[pick % len(options)])
    assert reef_io.loads(reef_io.dumps(reef)) == reef


@given(mutations(REEF_JSON) | any_text)
def test_reef_json_text(text: str) -> None:
    only_lumicore_errors(reef_io.loads, text)


@given(junk)
def test_reef_json_parsed_data(data: Any) -> None:
    only_lumicore_errors(reef_io.from_json, data)


@given(any_bytes | any_text.map(lambda text: text.encode("utf-8")))
def test_reef_json_file_bytes(raw: bytes) -> None:
    only_lumicore_errors(reef_io.load, as_file(raw, ".json"))


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, "[" + "1" * 5001 + "]"])
def test_reef_json_deep_or_huge(text: str) -> None:
    with pytest.raises(LumicoreError):
        reef_io.loads(text)


# -- Lemuria card and instance TOML --------------------------------------------------------------

resource_tables = st.dictionaries(st.sampled_from(["gold", "food", "stone", "wood", "sand"]),
                                  st.integers(-1, 9), max_size=3)
buildings = table({"id": st.sampled_from(["B1", "B2", ""]),
                   "color": st.sampled_from(["red", "blue", "teal"]),
                   "vp": st.integers(-1, 9), "cost": resource_tables})
characters = table({"id": st.sampled_from(["C1", "C2"]), "color": st.sampled_from(["red", "x"]),
                    "food": st.integers(-1, 9), "vp": st.integers(0, 9),
                    "vp_match": st.integers(0, 9), "skill": st.text(max_size=5)})


@given(st.lists(buildings, max_size=3) | junk, st.lists(characters, max_size=3) | junk)
def test_lemuria_cards_parsed_data(building_data: Any, character_data: Any) -> None:
    found = only_lumicore_errors(parse_buildings, building_data)
    people = only_lumicore_errors(parse_characters, character_data)
    text = cards_to_toml(found, people)
    if found is not None:
        assert parse_buildings(parse_toml(text).get("building", [])) == found
    if people is not None:
        assert parse_characters(parse_toml(text).get("character", [])) == people


@given(mutations(builtin("lemuria_buildings.toml")) | any_bytes)
def test_lemuria_building_file(content: str | bytes) -> None:
    only_lumicore_errors(load_buildings, as_file(content, ".toml"))


@given(mutations(builtin("lemuria_characters.toml")) | any_bytes)
def test_lemuria_character_file(content: str | bytes) -> None:
    only_lumicore_errors(load_characters, as_file(content, ".toml"))


INSTANCE_TOML = default_instance(seed=1).to_toml()
INSTANCE_DATA = parse_toml(INSTANCE_TOML)


@given(st.dictionaries(st.sampled_from(sorted(INSTANCE_DATA) + ["opponent", "building", "x"]),
                       junk | resource_tables | st.integers(), max_size=2))
def test_instance_from_parsed_data(changes: dict[str, Any]) -> None:
    only_lumicore_errors(instance_from_dict, {**INSTANCE_DATA, **changes})


@given(st.integers(0, 1000))
def test_instance_round_trips(seed: int) -> None:
    instance = default_instance(seed=seed)
    assert parse_instance(instance.to_toml()) == instance


@given(mutations(INSTANCE_TOML) | any_text)
def test_instance_text(text: str) -> None:
    only_lumicore_errors(parse_instance, text)


@given(any_bytes)
def test_instance_file_bytes(raw: bytes) -> None:
    only_lumicore_errors(load_instance, as_file(raw, ".toml"))


# -- the parsers of the whole games (game states, Lumen data, Lemuria altar and skills, arena) --

FEW = settings(max_examples=max(20, settings.default.max_examples // 4))
"""A quarter of the profile's examples: these parsers were fuzzed more when they were written."""


def _serialized(name: str) -> str:
    return new_game(name, players=2, seed=1).serialize()


@FEW
@given(st.data())
def test_game_state_deserialize(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(GAMES)))
    state_class = type(new_game(name, players=2, seed=1))
    text = data.draw(mutations(_serialized(name)) | any_text | st.none())
    only_lumicore_errors(state_class.deserialize, text)


@FEW
@given(mutations(PuzzleState.new("h H L3").serialize()) | any_text | st.none())
def test_lucia_puzzle_state_deserialize(text: Any) -> None:
    only_lumicore_errors(PuzzleState.deserialize, text)


SHEET_WORDS = st.lists(st.sampled_from([".", "-", "3", "36", "/", "\n", "links", "0,0-0,1",
                                         "0,1-1,1", "0,0-9,9", "high_command", "threshold=4",
                                         "sections=1,2", "objective_sections=none",
                                         "objective_sections=1", "sections=0"]),
                       max_size=20).map(" ".join)


@FEW
@given(any_text | st.none() | st.text(alphabet="0123456789 .|\n-#", max_size=80) | SHEET_WORDS)
def test_lumen_sheet_parse(text: Any) -> None:
    sheet = only_lumicore_errors(Sheet.parse, text)
    if sheet is not None:
        assert Sheet.parse(str(sheet)) == sheet


@FEW
@pytest.mark.parametrize("load, name", [(load_layout, "lumen_sheet.toml"),
                                        (lumen_board, "lumen_board.toml"),
                                        (load_map, "lumen_scenario_a.toml"),
                                        (load_altar, "lemuria_altar.toml"),
                                        (load_impacts, "lemuria_impact.toml")],
                         ids=["lumen-layout", "lumen-board", "lumen-map", "altar", "impacts"])
@given(data=st.data())
def test_game_data_files(load: Callable[[Path], Any], name: str, data: st.DataObject) -> None:
    content = data.draw(mutations(builtin(name)) | any_bytes)
    only_lumicore_errors(load, as_file(content, ".toml"))


@FEW
@given(any_text | junk | st.text(alphabet="gain trend bonus extra build wood 0123456789",
                                 max_size=30))
def test_lemuria_skill(text: Any) -> None:
    skill = only_lumicore_errors(parse_skill, text)
    if skill is not None:
        assert parse_skill(str(skill)) == skill


@FEW
@given(junk)
def test_lemuria_altar_and_impact_data(data: Any) -> None:
    only_lumicore_errors(parse_altar, data)
    only_lumicore_errors(parse_impacts, data)


@FEW
@given(any_text | st.none() | st.text(alphabet="mcts:iterations=400policy.e-", max_size=30))
def test_arena_bot_spec(text: Any) -> None:
    only_lumicore_errors(parse_bot_spec, text)


RECORD = json.dumps({"game": "reef", "players": 2, "seed": 1, "options": {}, "actions": [0, 1]})


@FEW
@given(mutations(RECORD) | junk)
def test_arena_replay_record(record: Any) -> None:
    only_lumicore_errors(replay_record, record)


# -- the regressions the fuzzing is about (each failed before its fix) ---------------------------

def test_setup_stars_must_be_an_integer() -> None:
    text = '[[group]]\nstars = "x"\nkids = "L0 h"\n[[group]]\nstars = 2\nkids = "h"\n'
    with pytest.raises(DataError, match="group #1: 'stars' must be an integer, got 'x'"):
        load_setup(as_file(text, ".toml"))


@pytest.mark.parametrize("text, key", [
    ('colour = 1\n[[group]]\nkids = "L0"\n', "colour"),
    ('[[group]]\nkids = "L0"\nstar = 1\n', "star"),
    ('[[group]]\n"kids" = "L0"\n[group.more]\n', "more"),
])
def test_setup_unknown_keys_are_named(text: str, key: str) -> None:
    with pytest.raises(DataError, match=f"unknown key '{key}'"):
        load_setup(as_file(text, ".toml"))


@pytest.mark.parametrize("text, key", [
    ('title = "mine"\n[[card]]\nactions = [{ kind = "lucia" }]\n', "title"),
    ('[[card]]\ncopy = 2\nactions = [{ kind = "lucia" }]\n', "copy"),
    ('[[card]]\nactions = [{ kind = "light", source = "H", steps = 1 }]\n', "steps"),
])
def test_deck_unknown_keys_are_named(text: str, key: str) -> None:
    with pytest.raises(DataError, match=f"'{key}'"):
        load_deck(as_file(text, ".toml"))


@pytest.mark.parametrize("text", [
    '[[card]]\nactions = [{ kind = ["move"] }]\n',           # unhashable kind: TypeError before
    "[[card]]\ncopies = 1000000000000\nactions = [{ kind = \"lucia\" }]\n",   # MemoryError
    "card = 1\n",
])
def test_deck_bad_values(text: str) -> None:
    with pytest.raises(DataError):
        load_deck(as_file(text, ".toml"))


HOSTILE = {
    "not-utf8": b"\xff\xfe[[card]]",
    "huge-int": b"a = " + b"1" * 5000,                   # past Python's int-to-str limit
    "deep-array": b"a = " + b"[" * 100_000,              # RecursionError in tomllib
    "deep-dotted-key": b"a" + b".a" * 20_000 + b" = 1",  # memory quadratic in depth in tomllib
}


@pytest.mark.parametrize("load", [load_deck, load_setup, load_buildings, load_characters,
                                  load_tiles, load_instance])
@pytest.mark.parametrize("content", HOSTILE.values(), ids=HOSTILE.keys())
def test_data_files_reject_hostile_content(load: Callable[[Path], Any], content: bytes) -> None:
    with pytest.raises(DataError):
        load(as_file(content, ".toml"))


@pytest.mark.parametrize("name", ["huge-int", "deep-array"])
def test_parse_instance_rejects_hostile_text(name: str) -> None:
    with pytest.raises(DataError):
        parse_instance(HOSTILE[name].decode())


def test_error_messages_quote_at_most_about_80_characters() -> None:
    long = "x" * 5000
    cases = [
        (load_setup, f'[[group]]\nkids = "L0"\nstars = "{long}"\n'),
        (load_setup, f'[[group]]\nkids = "L0"\n{long} = 1\n'),
        (load_deck, f'[[card]]\nname = "{long}"\nactions = [{{ kind = "{long}" }}]\n'),
        (load_deck, f'[[card]]\ncopies = {"9" * 5000}\nactions = [{{ kind = "lucia" }}]\n'),
        (load_buildings, f'[[building]]\nid = "{long}"\ncolor = "{long}"\nvp = 1\n'),
        (load_characters, f'[[character]]\nid = "C"\ncolor = "red"\nfood = "{long}"\n'
                          'vp = 1\nvp_match = 2\n'),
    ]
    for load, text in cases:
        with pytest.raises(DataError) as info:
            load(as_file(text, ".toml"))
        assert len(str(info.value)) < 300, (load.__name__, str(info.value)[:300])


def test_shorten_survives_huge_integers() -> None:
    assert "5000 digits" in shorten(10 ** 5000)
    assert shorten("y" * 1000) == repr("y" * 80 + "...")
