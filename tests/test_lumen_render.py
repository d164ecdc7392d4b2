"""SVG and text views of sheets, maps and games."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from lumicore.errors import LumicoreError
from lumicore.game import play_randomly
from lumicore.lumen import Sheet, load_map
from lumicore.lumen.game import GameState
from lumicore.lumen.render import PLAYER_FILL, map_svg, map_text, sheet_svg, state_svg
from lumicore.svg import text_width

NS = "{http://www.w3.org/2000/svg}"


def test_sheet_svg_draws_every_bubble_and_value():
    sheet = Sheet.parse("4 5 . . . / . 9 . . . / . . . . . / . . . . 12")
    root = ET.fromstring(sheet._repr_svg_())
    assert len(root.findall(f".//{NS}circle")) == 20
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert sorted(texts, key=str) == sorted(["4", "5", "9", "12"], key=str)
    boxes = root.findall(f".//{NS}rect")
    assert len(boxes) == 10 and sum(b.get("fill") == "#555" for b in boxes) == 2


def test_map_svg_draws_every_territory():
    root = ET.fromstring(load_map("A")._repr_svg_())
    labels = [t.text for t in root.iter(f"{NS}text") if t.text and "VP" in t.text]
    assert len(labels) == 9 and "b2 spring 7 VP" in labels


def test_game_svg_and_text_show_units_and_scores():
    state = play_randomly(GameState.new_game(seed=2), seed=2, max_steps=300)
    root = ET.fromstring(state._repr_svg_())
    texts = " ".join(t.text or "" for t in root.iter(f"{NS}text"))
    assert f"player 1: {state.score(0).total} VP" in texts
    lines = map_text(state).splitlines()
    assert len(lines) == 9 and all("VP" in line for line in lines)
    assert "[initiative]" in lines[state.map.initiative]


def test_the_pictures_of_something_else_are_one_line_errors():
    """map_svg(None), sheet_svg(5), state_svg('x'), map_text(a Sheet) were AttributeErrors."""
    sheet = Sheet.parse("3 .")
    for draw, bad in ((sheet_svg, 5), (sheet_svg, None), (map_svg, sheet), (map_svg, "A"),
                      (state_svg, "x"), (state_svg, sheet), (map_text, None), (map_text, sheet)):
        with pytest.raises(LumicoreError, match="expected a Lumen"):
            draw(bad)
    with pytest.raises(LumicoreError, match="expected a Lumen GameState"):
        map_svg(load_map("A"), state=5)
    with pytest.raises(LumicoreError, match="title"):
        sheet_svg(sheet, title=5)


SMALL_MAP = """name = "small"
initiative = "x1"
adjacency = [["x1", "x2"], ["x2", "x3"], ["x3", "x4"]]
[territories]
x1 = { season = "winter", at = [0, 0] }
x2 = { season = "spring", at = [0, 1], discovery = 2 }
x3 = { season = "summer", at = [0, 2] }
x4 = { season = "winter", at = [0, 3] }
[[start]]
player = 1
territory = "x1"
units = { shroomling = 2, mudshell = 1 }
[[start]]
player = 2
territory = "x4"
units = { shroomling = 2, mudshell = 1 }
"""


def test_a_state_drawn_on_another_map_is_a_one_line_error(tmp_path):
    """map_svg drew scenario A's units on a smaller map's territories, and the other way
    round failed with an IndexError."""
    path = tmp_path / "small.toml"
    path.write_text(SMALL_MAP, encoding="utf-8")
    small, big = GameState.new_game(seed=0, scenario=str(path)), GameState.new_game(seed=0)
    for game_map, state in ((load_map(str(path)), big), (load_map("A"), small)):
        with pytest.raises(LumicoreError, match=f"^state is a game on map '{state.map.name}', "
                           f"not on the map drawn \\('{game_map.name}'\\): draw state.map$"):
            map_svg(game_map, state)
    assert map_svg(load_map(str(path)), small) == map_svg(small.map, small)


def crowded_state() -> GameState:
    """Scenario A with every unit of both players (the bag, the starting units and the three
    Mercenaries) in the first territory, of each kind some active and some inactive: the
    longest unit lists a game can have."""
    fresh = GameState.new_game(seed=0)
    data = json.loads(fresh.serialize())
    kinds, pools = fresh.board.kinds, fresh._pools()
    data["units"] = [[[0] * (2 * len(kinds)) for _p in (0, 1)] for _t in data["units"]]
    for p, mercenaries in ((0, 2), (1, 1)):
        for i, kind in enumerate(kinds):
            total = mercenaries if kind == "mercenary" else pools[kind]
            data["units"][0][p][2 * i: 2 * i + 2] = [total - total // 2, total // 2]
        data["bag"][p] = [0] * len(kinds)
        data["supply"][p] = [0] * len(kinds)
    data["bonus_pool"][0] = 0  # every Mercenary token is on the map
    data["discovery"], data["collected"] = list(fresh.map.discovery), [[], []]
    return GameState.deserialize(json.dumps(data))


def test_the_longest_unit_lists_stay_whole_words_inside_their_territory():
    """A unit list was cut at 34 characters ("mercenary" drawn as "me", later units left out
    without a mark) and ran about 197 px into the next territory's 114 px box."""
    state = crowded_state()
    pools = GameState.new_game(seed=0)._pools()
    regular = sum(pools[kind] for kind in state.board.kinds if kind != "mercenary")
    assert [len(state.unit_list(0, p)) for p in (0, 1)] == [regular + 2, regular + 1]
    root = ET.fromstring(map_svg(state.map, state))
    drawn = list(root)
    boxes = [i for i, el in enumerate(drawn) if el.get("rx") == "10"]  # one per territory
    box = drawn[boxes[0]]
    left, top = float(box.get("x")), float(box.get("y"))
    right, bottom = left + float(box.get("width")), top + float(box.get("height"))
    words = {"…"}
    for p in (0, 1):
        words |= {f"P{p + 1}", f"{state.strengths()[0][p]}:"}
        for unit, n in Counter(state.unit_list(0, p)).items():
            short = unit[:3] + ("*" if unit.endswith("*") else "")
            words.add(short if n == 1 else f"{short}×{n}")
    lines = [t for t in drawn[boxes[0]:boxes[1]] if t.get("fill") in PLAYER_FILL]
    players = [next(p for p in (0, 1) if t.get("fill") == PLAYER_FILL[p]) for t in lines]
    assert players == sorted(players) and set(players) == {0, 1}
    for t in lines:
        x, y, size = float(t.get("x")), float(t.get("y")), float(t.get("font-size"))
        assert left <= x and x + text_width(t.text, size) <= right, t.text
        assert top < y - size and y <= bottom, t.text
        assert {w.rstrip(",") for w in t.text.split(" ")} <= words, t.text
    ys = [float(t.get("y")) for t in lines]
    assert len(set(ys)) == len(ys)  # no line drawn over another
    assert all(t.text.endswith(" …") for t in lines if t is lines[players.index(1) - 1]
               or t is lines[-1])  # both lists are too long for the box: the cut is marked


def test_every_picture_has_a_title():
    state = GameState.new_game(seed=0)
    for image, title in ((sheet_svg(Sheet.parse("3 .")), "Lumen command sheet"),
                         (sheet_svg(Sheet.parse("3 ."), "mine"), "mine"),
                         (load_map("A")._repr_svg_(), "Lumen map Primer Contacto"),
                         (state._repr_svg_(), str(state).splitlines()[0])):
        assert ET.fromstring(image).find(f"{NS}title").text == title
