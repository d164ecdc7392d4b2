"""Text and SVG views of a reef."""

import re
import xml.dom.minidom
import xml.etree.ElementTree as ET

import pytest

from lumicore.errors import LumicoreError
from lumicore.reef import Lumino, Reef, load_board
from lumicore.reef.render import FILL, _center, side_by_side, svg, text

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


def order_dots(image: str) -> dict[int, tuple[float, float, bool]]:
    """The order dots of a placement picture: number -> (x, y, filled), inside the board's
    ``translate``."""
    root = ET.fromstring(image)
    dots = {(c.get("cx"), c.get("cy")): c.get("fill") != "#fff" for c in root.iter(f"{NS}circle")
            if c.get("r") == "7" and c.get("cx") != "15"}  # not the legend's
    found = {}
    for t in root.iter(f"{NS}text"):
        if t.get("class") == "ord":
            for (cx, cy), filled in dots.items():
                if cx == t.get("x") and abs(float(cy) + 3.5 - float(t.get("y"))) < 0.11:
                    assert int(t.text) not in found
                    found[int(t.text)] = (float(cx), float(cy), filled)
    return found


def check_order_marks(reef, placed) -> None:
    """Every placed piece's number is drawn once, no two at one spot, filled on a half of it
    still on top, hollow on its number half only when later pieces cover both halves."""
    dots = order_dots(svg(reef, placed=placed))
    assert sorted(dots) == list(range(1, len(placed) + 1))
    assert len({(x, y) for x, y, _ in dots.values()}) == len(dots)
    centers = [_center(cell) for cell in reef.board.cells]
    for n, (x, y, filled) in dots.items():
        k = placed[n - 1]
        piece = reef.pieces[k]
        cell = min(range(len(centers)),
                   key=lambda i: (centers[i][0] - x) ** 2 + (centers[i][1] - y) ** 2)
        visible = [c for c in (piece.number_cell, piece.other_cell) if reef.top_pieces[c] == k]
        if visible:
            assert filled and cell in visible, (n, k)
        else:
            assert not filled and cell == piece.number_cell, (n, k)


@pytest.mark.parametrize(("hand", "objective"), [
    ("pink 3, pink 4, pink 5", "coral:pink"),  # the first pink's number half is covered
    ("yellow 6, yellow 5, yellow 4", "coral:yellow"),
    ("green 2, green 3 crab, pink 4", "coral:green"),
    ("pink 1 starfish, pink 2, blue 3", "final:dark"),
])
def test_every_order_number_of_a_placement_stays_visible(hand, objective):
    """The dot of a Lumino whose number half a later one covered was drawn under the later
    one's dot, at the same spot: the order of play could not be read."""
    from solvers.reef.placement import best_placement

    result = best_placement(Reef.new(A, ("pink", "green")), hand, 3, objective, time_limit=5)
    n = len(result.reef.pieces)
    placed = list(range(n - len(result.placements), n))
    check_order_marks(result.reef, placed)
    assert order_dots(result._repr_svg_()).keys() == set(range(1, len(placed) + 1))


def test_the_order_of_luminos_covered_on_both_halves_is_still_shown():
    from lumicore.game import play_randomly
    from lumicore.reef.game import Game

    reef = play_randomly(Game.new(players=2, seed=0), seed=0, max_steps=400).reefs[0]
    hidden = [k for k, p in enumerate(reef.pieces)
              if k not in (reef.top_pieces[p.number_cell], reef.top_pieces[p.other_cell])]
    assert len(hidden) >= 2
    check_order_marks(reef, list(range(len(reef.pieces))))


def test_a_game_before_the_deal_has_a_view_box_and_a_title():
    """The line drawn before the deal had neither (the dealt game's picture has both)."""
    from lumicore.game import new_game

    state = new_game("reef", players=2, seed=0)
    root = ET.fromstring(state._repr_svg_())
    width, height = root.get("width"), root.get("height")
    assert root.get("viewBox") == f"0 0 {width} {height}"
    assert root.find(f"{NS}title").text == str(state).splitlines()[0]


@pytest.mark.parametrize(("reefs", "captions", "title", "message"), [
    (None, ["a"], "", "reefs must be a list, got 'None'"),
    ("reef", ["a"], "", "reefs must be a list, got 'reef'"),
    ([Reef.new(A, ("pink", "green"))], "a", "", "captions must be a list, got 'a'"),
    ([Reef.new(A, ("pink", "green"))], ["a"], 5, "title must be text, got '5'"),
])
def test_side_by_side_of_bad_arguments_is_a_one_line_error(reefs, captions, title, message):
    """side_by_side(None, ...) and title=5 were TypeErrors; captions "a" drew a reef."""
    with pytest.raises(LumicoreError, match=f"^{re.escape(message)}$"):
        side_by_side(reefs, captions, title)
