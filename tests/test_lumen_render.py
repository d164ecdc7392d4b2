"""SVG and text views of sheets, maps and games."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from lumicore.errors import LumicoreError
from lumicore.game import play_randomly
from lumicore.lumen import Sheet, load_map
from lumicore.lumen.game import GameState
from lumicore.lumen.render import map_svg, map_text, sheet_svg, state_svg

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
