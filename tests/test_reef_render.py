"""Text and SVG views of a reef."""

import xml.dom.minidom
import xml.etree.ElementTree as ET

import pytest

from lumicore.reef import Lumino, Reef, load_board
from lumicore.reef.render import FILL, svg, text

A = load_board("A")
NS = "{http://www.w3.org/2000/svg}"


def two_levels():
    return Reef.build(A, ("pink", "green"), [
        ("pink 3 crab", (2, 5), (2, 3)),
        ("green 5 starfish", (2, 7), (2, 9)),
        ("pink 6 seahorse", (3, 6), (2, 5)),
    ])


def test_text_of_a_new_reef_is_the_drawing_with_the_start():
    # hand-drawn: board A with every column doubled, the start in row 3
    expected = "\n".join([
        "       ~   ~   ~   ~   ~",
        "     ~   .   .   .   .   ~",
        "   ~   .   .   .   .   .   ~",
        " ~   .   .  P1- G1-  .   .   ~",
        "   ~   .   .   .   .   .   ~",
        "     ~   .   .   .   .   ~",
        "       ~   ~   ~   ~   ~",
    ])
    assert text(Reef.new(A, ("pink", "green")), legend=False) == expected


def test_text_shows_level_number_and_animal():
    rows = text(two_levels(), legend=False).splitlines()
    assert rows[2] == "   ~  P1c P2h G15 G1*  .   ~"  # the pink 3 is covered by the seahorse
    assert rows[3] == " ~   .   .  P26 G1-  .   .   ~"


def test_text_shows_remote_penalties_and_legend():
    view = text(Reef.new(load_board("B"), ("blue", "yellow")))
    lines = view.splitlines()
    assert lines[0] == "reef on board B, start blue/yellow, 0 Luminos placed, 1 level"
    assert lines[1] == "      -1   ~   ~   ~  -2"
    assert "s shellfish" in view and "* starfish" in view
    assert str(Reef.new(load_board("B"), ("blue", "yellow"))) == view


def test_svg_is_well_formed_with_one_hexagon_per_space():
    reef = two_levels()
    image = svg(reef)
    root = ET.fromstring(image)
    assert root.tag == f"{NS}svg"
    assert len(list(root.iter(f"{NS}polygon"))) == len(A.cells)
    labels = [t.text for t in root.iter(f"{NS}text")]
    assert {"5", "6", "crab", "starfish", "seahorse"} <= set(labels)
    assert "3" not in labels  # covered
    assert reef._repr_svg_() == image


def test_svg_shades_levels():
    image = svg(two_levels())
    fills = {p.get("fill") for p in ET.fromstring(image).iter(f"{NS}polygon")}
    assert FILL["pink"] in fills  # pink in level 1
    assert any(f not in FILL.values() and f.startswith("#") and f != FILL["pink"]
               for f in fills)  # a darker pink in level 2
    # the level is written on each coral space
    assert sum(t.text == "L2" for t in ET.fromstring(image).iter(f"{NS}text")) == 2


def test_svg_links_halves_of_fully_visible_luminos():
    reef = two_levels()
    lines = list(ET.fromstring(svg(reef)).iter(f"{NS}line"))
    # the green Lumino and the level-2 pink one show both halves; the start and the first pink
    # Lumino are partly covered
    assert len(lines) == 2
    reef = reef.place(reef.placement_at(Lumino("pink", 1), (1, 4), (1, 6)))
    assert len(list(ET.fromstring(svg(reef)).iter(f"{NS}line"))) == 3


def test_repr_is_short():
    assert repr(two_levels()) == "<Reef board='A' start=pink/green placements=3>"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_whole_game_renders_every_reef_side_by_side(players):
    from lumicore.game import play_randomly
    from lumicore.reef.game import Game

    game = play_randomly(Game.new(players=players, seed=players), seed=1, max_steps=60)
    image = game._repr_svg_()
    root = xml.dom.minidom.parseString(image).documentElement
    inner = root.getElementsByTagName("svg")
    assert len(inner) == players
    assert [float(s.getAttribute("x")) for s in inner] == sorted(
        {float(s.getAttribute("x")) for s in inner})  # left to right, none on another
    for p in range(players):
        assert f"player {p + 1}: {game.vp[p]} VP, {game.limestone[p]} limestone" in image
    assert float(root.getAttribute("width")) >= sum(float(s.getAttribute("width")) for s in inner)
