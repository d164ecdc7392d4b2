"""The pictures a notebook shows hold everything they draw: no box or line of text runs past the
right edge (a Lemuria player's fifth facility, a short year's footnote, a long Lucia caption,
the reef's line before the deal were cut off), and their captions say what the state is."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from lumicore.game import GAMES, GameState, new_game
from lumicore.lemuria import default_instance
from lumicore.lemuria.render import render_year
from lumicore.lucia import Train, load_deck
from lumicore.svg import text_width
from solvers.arena import play_game
from solvers.lemuria import build_schedule
from solvers.lucia import solve

SVG = "{http://www.w3.org/2000/svg}"


def _css(root: ET.Element) -> dict[str, dict[str, str]]:
    """The rules of the picture's ``<style>``: selector -> {property: value}."""
    css = "".join("".join(style.itertext()) for style in root.iter(SVG + "style"))
    return {selector: dict(item.split(":", 1) for item in body.split(";") if ":" in item)
            for selector, body in re.findall(r"([.\w]+)\{([^}]*)\}", css)}


def overflow(svg: str) -> list[tuple]:
    """What is drawn past the picture's left or right edge: boxes by their width, text by
    :func:`lumicore.svg.text_width` at its font size and anchor (attributes or the style's
    classes), through ``translate`` transforms."""
    root = ET.fromstring(svg)
    width, rules = float(root.get("width", 0)), _css(root)
    found: list[tuple] = []

    def walk(el: ET.Element, dx: float, size: float) -> None:
        move = re.fullmatch(r"translate\(([-\d.]+)[ ,]*[-\d.]*\)", el.get("transform", "").strip())
        dx += float(move.group(1)) if move else 0.0
        size = float(el.get("font-size", size))
        tag = el.tag.removeprefix(SVG)
        if tag == "rect" and re.fullmatch(r"[\d.]+", el.get("width", "")):
            x = dx + float(el.get("x", 0))
            if x + float(el.get("width", 0)) > width + 0.5:
                found.append(("box", x, el.get("width"), width))
        if tag == "text":
            style = rules.get("." + el.get("class", ""), {})
            px = float(style.get("font-size", "").removesuffix("px") or size)
            anchor = (el.get("text-anchor") or style.get("text-anchor")
                      or rules.get("text", {}).get("text-anchor", "start"))
            text, x = "".join(el.itertext()), dx + float(el.get("x", 0))
            w = text_width(text, px)
            lo = {"start": x, "middle": x - w / 2, "end": x - w}[anchor]
            if lo < -0.5 or lo + w > width + 0.5:
                found.append(("text", text, lo, lo + w, width))
        for child in el:
            walk(child, dx, size)

    walk(root, 0.0, 16.0)
    return found


def random_states(name: str, players: int, seed: int, steps: int = 300) -> list[GameState]:
    state, rng, seen = new_game(name, players=players, seed=seed), random.Random(seed), []
    while len(seen) < steps:
        seen.append(state.clone())
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return seen


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_state_of_random_games_fits_its_picture(name):
    counts = {"lucia": (1, 3), "lumen": (2,)}.get(name, (2, 4))
    for players in counts:
        for seed in (0, 1):
            for state in random_states(name, players, seed):
                assert overflow(state._repr_svg_()) == [], str(state).splitlines()[0]


def test_a_lemuria_player_with_many_facilities_fits_the_game_picture():
    _record, game = play_game("lemuria", ["greedy", "greedy"], seed=2)
    assert max(len(me["fac"]) for me in game.s["pl"]) >= 5
    assert overflow(game._repr_svg_()) == []


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_a_short_years_chart_holds_its_footnote(turns):
    instance = default_instance(seed=1, turns=turns)
    svg = render_year(instance, build_schedule(instance, time_limit=5, workers=1, seed=0))
    assert "festival turn" in svg
    assert overflow(svg) == []


def test_a_lucia_play_is_as_wide_as_its_caption():
    play = solve(Train.parse("S h T h L0"), load_deck("default")).plan[0]
    caption = "".join(ET.fromstring(play._repr_svg_()).itertext())
    assert len(caption) > 40  # wider than the train's five cards
    assert overflow(play._repr_svg_()) == []


def test_the_reef_before_the_deal_holds_its_line():
    assert overflow(new_game("reef", players=4, seed=1)._repr_svg_()) == []


def test_a_reef_chance_node_names_no_player_to_act():
    state = new_game("reef", players=2, seed=1)
    while not (state.is_chance_node() and state.phase == "draw"):
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node()
                           else state.legal_actions()[0])
    first = str(state).splitlines()[0]
    assert first.endswith("phase draw, a chance node")
    assert "to act" not in state._repr_svg_()
    state.apply_action(state.chance_outcomes()[0][0])
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    actor = state.current_player()
    assert str(state).splitlines()[0].endswith(f"player {actor + 1} to act")
    assert set(re.findall(r"player (\d): [^<]*\(to act\)", state._repr_svg_())) == {
        str(actor + 1)}


@pytest.mark.parametrize("seed", [0, 3])
def test_a_lost_lucia_game_says_lost(seed):
    state = new_game("lucia", players=2, seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()) if not state.is_chance_node()
                           else state.chance_outcomes()[0][0])
    assert state.returns() == [0.0, 0.0]
    assert str(state).endswith(" | lost")
    root = ET.fromstring(state._repr_svg_())
    assert "lost" in "".join(root.itertext())
    assert "holds" not in "".join(root.itertext())


def test_the_package_docstrings_name_every_game_and_where_to_start():
    import lumicore
    import solvers

    for name in GAMES:
        assert f"lumicore.{name}" in lumicore.__doc__
        assert f"solvers.{name}" in solvers.__doc__
    assert "lumicore.game" in lumicore.__doc__ and "README" in lumicore.__doc__
    assert "solvers.arena" in solvers.__doc__


def test_a_reef_picture_is_as_wide_as_its_caption():
    """A weighted objective's caption (86 characters, about 648 px) was centred in 560 px: both
    ends, the "(optimal)" with them, were cut off."""
    from lumicore.reef import Reef, load_board
    from solvers.reef.placement import best_placement, weighted

    result = best_placement(Reef.new(load_board("A"), ("pink", "green")), "pink 3 crab, blue 5",
                            2, weighted({"final:dark": 1, "coral:pink": 0.5, "coral:green": 0.25}),
                            time_limit=5)
    image = result._repr_svg_()
    assert "(optimal)" in image
    assert overflow(image) == []
