"""A Lemuria year as an SVG chart, turn by turn: the build, the residents housed and the VP by
source (stacked, running totals), with a legend.

>>> from lumicore.lemuria import Instance, Building, Character, TurnPlan, Build, Play
>>> inst = Instance(turns=1, buildings={"A": Building("A", "red", 2, {"stone": 1})},
...                 characters={"K": Character("K", "red", 1, 1, 3)},
...                 trend=("A", None, None, None, None), start={"stone": 1, "food": 1},
...                 hand=("K",))
>>> svg = render_year(inst, [TurnPlan(1, (Build("A", "church"), Play("K", house_in="A")))])
>>> svg.startswith("<svg") and "VP 11" in svg
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from lumicore.checks import check_type
from lumicore.data import shorten
from lumicore.errors import LumicoreError
from lumicore.lemuria.game import Game
from lumicore.lemuria.instance import Instance
from lumicore.lemuria.rules import RESOURCES, SOURCES
from lumicore.lemuria.schedule import Build, Play, Remodel, Schedule, TurnPlan
from lumicore.lemuria.simulate import SimResult, simulate
from lumicore.svg import document, escape, text_width

__all__ = ["render_year", "render_game", "CARD_COLORS", "SOURCE_COLORS"]

CARD_COLORS = {"red": "#d9534f", "blue": "#3f7fbf", "green": "#4a9a4a", "yellow": "#e0b020"}
"""The SVG fill of each card colour."""
SOURCE_COLORS = {"buildings": "#6d4c41", "trend": "#ff8f00", "residents": "#8e24aa",
                 "church": "#546e7a", "festival": "#26a69a"}
"""The SVG fill of each VP source in the stacked chart."""
_COL = 74  # width of one turn's column
_LEFT = 70
_TOP = 40
_ROW = 22  # height of a card box


def _year(result: SimResult) -> list[dict]:
    """Per turn: the build or remodel, the plays housed, and the VP by source after the turn."""
    return [{"build": next((a for a in t.actions if isinstance(a, (Build, Remodel))), None),
             "housed": [a for a in t.actions if isinstance(a, Play) and a.house_in],
             "vp": t.breakdown} for t in result.trace]


def _box(x: float, y: float, w: float, text: str, fill: str, dashed: bool = False) -> str:
    dash = ' stroke-dasharray="4 2"' if dashed else ""
    return (f'<rect x="{x:.0f}" y="{y:.0f}" width="{w:.0f}" height="{_ROW - 4}" rx="3" '
            f'fill="{fill}" stroke="#333"{dash}/>'
            f'<text x="{x + w / 2:.0f}" y="{y + _ROW - 9:.0f}" font-size="11" fill="white" '
            f'text-anchor="middle" font-weight="bold">{escape(text)}</text>')


_FOOTNOTE = ("* festival turn; boxes: card colour; dashed: remodel (discarded>built); "
             "resident>facility")


def render_year(instance: Instance, schedule: Schedule | Iterable[TurnPlan],
                title: str | None = None, result: SimResult | None = None) -> str:
    """The chart of ``schedule`` played through ``instance`` (it must be legal: the year is
    replayed through the rules). Top: per turn the card built (its colour; a dashed box for a
    remodel, with the discarded card), then each resident housed (the character's colour; with
    the facility it moved into). Bottom: the running VP, stacked by source, festivals marked.
    ``result``: the year's replay when it is not plain :func:`simulate`'s (a harvest plan's
    :func:`~lumicore.lemuria.harvests.replay_harvests`). A :class:`Schedule` also puts its
    status in the heading: ``optimal`` (proven) or ``feasible`` with its upper bound and gap."""
    check_type(instance, Instance, "instance", "a lumicore.lemuria.Instance")
    if title is not None:
        check_type(title, str, "title", "text")
    if result is not None:
        check_type(result, SimResult, "result", "a lumicore.lemuria.SimResult")
    year = _year(simulate(instance, schedule) if result is None else result)
    turns = len(year)
    most_housed = max([len(y["housed"]) for y in year] + [1])
    chart_top = _TOP + _ROW * (2 + most_housed) + 30
    chart_h = 220
    total = max(sum(year[-1]["vp"].values()), 1) if year else 1
    vp = sum(year[-1]["vp"].values()) if year else 0
    status = f" ({schedule.status_text()})" if isinstance(schedule, Schedule) else ""
    heading = f"{title + ' - ' if title else ''}Lemuria year, {turns} turns: VP {vp}{status}"
    width = max(_LEFT + _COL * turns + 150, _LEFT + text_width(_FOOTNOTE, 11) + 10,
                20 + text_width(heading, 15))
    height = chart_top + chart_h + 50
    out = [f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="10" y="22" font-size="15" font-weight="bold">{escape(heading)}</text>']
    out.append(f'<text x="10" y="{_TOP + 14}" font-size="12">build</text>')
    out.append(f'<text x="10" y="{_TOP + _ROW + 14}" font-size="12">residents</text>')
    festivals = set(instance.festivals)
    for i, turn in enumerate(year):
        x = _LEFT + _COL * i
        t = i + 1
        label = f"turn {t}" + (" *" if t in festivals else "")
        out.append(f'<text x="{x + _COL / 2:.0f}" y="{_TOP - 6}" font-size="11" '
                   f'text-anchor="middle">{label}</text>')
        build = turn["build"]
        if build is not None:
            color = CARD_COLORS[instance.buildings[build.card].color]
            text = build.card if isinstance(build, Build) else f"{build.discard}>{build.card}"
            out.append(_box(x + 3, _TOP, _COL - 6, text, color, isinstance(build, Remodel)))
        for j, play in enumerate(turn["housed"]):
            color = CARD_COLORS[instance.characters[play.character].color]
            out.append(_box(x + 3, _TOP + _ROW * (1 + j), _COL - 6,
                            f"{play.character}>{play.house_in}", color))
        # stacked running VP
        y = chart_top + chart_h
        for source in SOURCES:
            h = chart_h * turn["vp"][source] / total
            if h > 0:
                out.append(f'<rect x="{x + 12}" y="{y - h:.1f}" width="{_COL - 24}" '
                           f'height="{h:.1f}" fill="{SOURCE_COLORS[source]}"/>')
            y -= h
        out.append(f'<text x="{x + _COL / 2:.0f}" y="{y - 4:.1f}" font-size="11" '
                   f'text-anchor="middle">{sum(turn["vp"].values())}</text>')
    base = chart_top + chart_h
    out.append(f'<line x1="{_LEFT}" y1="{base}" x2="{_LEFT + _COL * turns}" y2="{base}" '
               f'stroke="#333"/>')
    out.append(f'<text x="10" y="{chart_top + 12}" font-size="12">VP</text>')
    out.append(f'<text x="{_LEFT}" y="{base + 18}" font-size="11">{escape(_FOOTNOTE)}</text>')
    legend_x = _LEFT + _COL * turns + 16
    for k, source in enumerate(reversed(SOURCES)):
        y = chart_top + 18 * k
        value = year[-1]["vp"][source] if year else 0
        out.append(f'<rect x="{legend_x}" y="{y}" width="12" height="12" '
                   f'fill="{SOURCE_COLORS[source]}"/>'
                   f'<text x="{legend_x + 18}" y="{y + 11}" font-size="12">{source} '
                   f'{value}</text>')
    for k, (color, fill) in enumerate(CARD_COLORS.items()):
        y = _TOP + 18 * k
        out.append(f'<rect x="{legend_x}" y="{y}" width="12" height="12" fill="{fill}"/>'
                   f'<text x="{legend_x + 18}" y="{y + 11}" font-size="12">{color}</text>')
    return document(width, height, heading, "\n".join(["", *out, ""]),
                    ' font-family="sans-serif"')


def render_game(game: Any) -> str:
    """A whole game (:class:`lumicore.lemuria.game.Game`) at a glance: the turn and phase, the
    Trend row's cards in their colours, then one line per player: VP, resources, hand and the
    facilities (a resident's card beside the facility that houses it).

    >>> from lumicore.lemuria.game import Game
    >>> render_game(Game.new(players=2, seed=1)).count("player ")
    2
    """
    if not isinstance(game, Game):
        raise LumicoreError(f"expected a lumicore.lemuria.Game, got {shorten(game)}")
    cards = game.cards
    facilities_x = _LEFT + 5 * _COL + 150
    width = max(_LEFT + 5 * _COL + 420,
                *(facilities_x + _row_width(me["fac"]) + 10 for me in game.s["pl"]))
    height = _TOP + _ROW * (3 + game.players) + 10
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
           f"<title>{escape(str(game).splitlines()[0])}</title>",
           '<rect width="100%" height="100%" fill="white"/>',
           f'<text x="10" y="20" font-size="14" font-weight="bold">Lemuria, turn {game.turn} '
           f"({escape(game.phase)})</text>",
           f'<text x="10" y="{_TOP + _ROW - 9}" font-size="12">Trend</text>']
    def color(card: Any) -> str:
        return CARD_COLORS.get(card.color, "#777")

    for slot, card in enumerate(game.s["row"]):
        if card:
            out.append(_box(_LEFT + slot * _COL, _TOP, _COL - 6, card,
                            color(cards.buildings[card])))
    for p in range(game.players):
        me = game.s["pl"][p]
        y = _TOP + _ROW * (2 + p)
        res = " ".join(f"{r[0]}{me['res'][r]}" for r in RESOURCES)
        out.append(f'<text x="10" y="{y + _ROW - 9}" font-size="12">player {p + 1}: VP '
                   f"{sum(me['vp'])} | {res} | hand {len(me['hand'])}</text>")
        x = facilities_x
        for building, resident in me["fac"]:
            out.append(_box(x, y, 40, building, color(cards.buildings[building])))
            x += 42
            if resident:
                out.append(_box(x, y, 40, resident, color(cards.characters[resident]),
                                dashed=True))
                x += 42
            x += 6
    out.append("</svg>")
    return "".join(out)


def _row_width(facilities: Iterable[tuple[str, str | None]]) -> int:
    """How wide :func:`render_game` draws a player's facilities: 42 px a card, 6 between pairs."""
    return sum(42 * (2 if resident else 1) + 6 for _building, resident in facilities)
