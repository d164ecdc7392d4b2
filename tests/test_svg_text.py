"""Text in the SVG pictures: a name holding a control character still makes well-formed XML."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from lumicore.reef import Reef
from lumicore.reef.board import Board
from lumicore.svg import escape


@pytest.mark.parametrize("char", [chr(c) for c in (*range(0, 9), 11, 12, *range(14, 32))]
                         + ["\ufffe", "\uffff"])
def test_characters_xml_forbids_are_dropped_and_markup_escaped(char):
    text = escape(f"a{char}<b> & 'c'")
    assert text == "a&lt;b&gt; &amp; &#x27;c&#x27;"
    ET.fromstring(f'<svg title="{text}">{text}</svg>')


def test_a_reef_board_named_with_a_control_character_draws_well_formed_svg():
    """html.escape left the BEL in: the picture did not parse (and reef show --svg wrote it)."""
    reef = Reef.new(Board.parse(" S S\nL W", name="my\x07board"), ("pink", "green"))
    root = ET.fromstring(reef._repr_svg_())
    assert "myboard" in "".join(root.itertext())
