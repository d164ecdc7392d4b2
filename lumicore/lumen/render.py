"""Drawing Lumen: SVG of a command sheet, a map (with the units of a game) and a whole game
state, for notebooks (``Sheet._repr_svg_``, ``Map._repr_svg_``, ``GameState._repr_svg_``), and
a text view of the map for terminals.

>>> from lumicore.lumen.sheet import Sheet
>>> svg = sheet_svg(Sheet.parse("4 5 / . 9"))
>>> svg.startswith("<svg") and svg.count("<circle") == 4 and ">9<" in svg
True
>>> from lumicore.lumen.map import load_map
>>> map_svg(load_map("A")).count("<rect") >= 9
True
"""

from __future__ import annotations

from collections import Counter

from lumicore.data import shorten
from lumicore.errors import LumicoreError
from lumicore.lumen.game import GameState
from lumicore.lumen.map import Map
from lumicore.lumen.sheet import Sheet
from lumicore.svg import document, escape, text_width

__all__ = ["sheet_svg", "map_svg", "state_svg", "map_text", "SEASON_FILL", "PLAYER_FILL"]

SEASON_FILL = {"winter": "#cfe3f7", "autumn": "#f7d6b0", "summer": "#cdeac0", "spring": "#f6cde0"}
"""The SVG fill of a territory of each season."""
PLAYER_FILL = ("#2f6db5", "#c0392b")
"""The SVG colour of each player (0, 1): the outlines of the territories they hold and their units'
labels."""
_R, _GAP = 16, 6
_FONT = 'font-family="sans-serif"'


def _check(value: object, kind: type, what: str) -> None:
    if not isinstance(value, kind):
        raise LumicoreError(f"expected {what}, got {shorten(value)}")




def _sheet_body(sheet: Sheet, x0: float = 0, y0: float = 0, title: str = "") -> tuple[str, float,
                                                                                        float]:
    step = 2 * _R + _GAP
    rows, cols = sheet.layout.shape
    top = y0 + (18 if title else 0)
    parts = [f'<text x="{x0 + _GAP}" y="{y0 + 14}" font-size="13" {_FONT}>{escape(title)}</text>'
             if title else ""]
    centre = {c: (x0 + _GAP + _R + c[1] * step, top + _GAP + _R + c[0] * step)
              for c in sheet.layout.cells}
    for i, nbrs in enumerate(sheet.layout.neighbors):
        for j in nbrs:
            if i < j:
                (ax, ay), (bx, by) = centre[sheet.layout.cells[i]], centre[sheet.layout.cells[j]]
                parts.append(f'<line x1="{ax}" y1="{ay}" x2="{bx}" y2="{by}" stroke="#ccc"/>')
    threshold = sheet.layout.high_command.threshold
    for cell, value in zip(sheet.layout.cells, sheet.values, strict=True):
        cx, cy = centre[cell]
        fill = "#fff" if value is None else "#ffe9a8" if value >= threshold else "#fdf6dc"
        parts.append(f'<circle cx="{cx}" cy="{cy}" r="{_R}" fill="{fill}" stroke="#777"/>')
        if value is not None:
            parts.append(f'<text x="{cx}" y="{cy + 5}" text-anchor="middle" font-size="14" '
                         f'{_FONT}>{value}</text>')
    hy = top + _GAP + rows * step + 4
    hc, x = sheet.layout.high_command, x0 + _GAP
    crossed = sheet.crossed
    box = 0
    for s, size in enumerate(hc.sections):
        for _ in range(size):
            fill = "#555" if box < crossed else "#fff"
            stroke = "#b8860b" if s in hc.objectives else "#777"
            parts.append(f'<rect x="{x}" y="{hy}" width="12" height="12" fill="{fill}" '
                         f'stroke="{stroke}"/>')
            x += 14
            box += 1
        x += 6
    width = max(_GAP * 2 + cols * step, x - x0 + _GAP)
    return "".join(parts), width, hy + 18 - y0


def sheet_svg(sheet: Sheet, title: str = "") -> str:
    """The sheet as SVG: bubbles (values of the High Command threshold or more shaded) and the
    High Command row below (crossed boxes dark; objective sections framed in gold)."""
    _check(sheet, Sheet, "a Lumen Sheet")
    _check(title, str, "a title (text)")
    body, w, h = _sheet_body(sheet, 0, 0, title)
    return document(w, h, title or "Lumen command sheet", body)


_CELL = 120


def _map_body(game_map: Map, state: GameState | None, x0: float, y0: float
              ) -> tuple[str, float, float]:
    parts = []
    pos = {t: (x0 + _GAP + c * _CELL, y0 + _GAP + r * _CELL)
           for t, (r, c) in enumerate(game_map.at)}
    for t, nbrs in enumerate(game_map.neighbors):
        for u in nbrs:
            if t < u:
                (ax, ay), (bx, by) = pos[t], pos[u]
                h = (_CELL - _GAP) / 2
                parts.append(f'<line x1="{ax + h}" y1="{ay + h}" x2="{bx + h}" y2="{by + h}" '
                             'stroke="#999" stroke-width="6"/>')
    sums = state.strengths() if state is not None else None
    owners = state.controllers() if state is not None else None
    for t, name in enumerate(game_map.territories):
        x, y = pos[t]
        size = _CELL - _GAP
        stroke = "#333" if owners is None or owners[t] < 0 else PLAYER_FILL[owners[t]]
        parts.append(f'<rect x="{x}" y="{y}" width="{size}" height="{size}" rx="10" '
                     f'fill="{SEASON_FILL[game_map.seasons[t]]}" stroke="{stroke}" '
                     f'stroke-width="{1 if owners is None or owners[t] < 0 else 4}"/>')
        label = f"{name} {game_map.seasons[t]} {game_map.vp[t]} VP"
        parts.append(f'<text x="{x + 6}" y="{y + 15}" font-size="11" {_FONT}>{escape(label)}'
                     "</text>")
        if t == game_map.initiative:
            parts.append(f'<text x="{x + size - 16}" y="{y + size - 6}" font-size="16" '
                         f'{_FONT}>&#9733;</text>')
        token = game_map.discovery[t] if state is None else state.discovery[t]
        if token:
            parts.append(f'<circle cx="{x + size - 14}" cy="{y + 26}" r="9" fill="#8e44ad"/>'
                         f'<text x="{x + size - 14}" y="{y + 30}" text-anchor="middle" '
                         f'font-size="10" fill="#fff" {_FONT}>?</text>')
        if state is not None and sums is not None:
            lists = [_unit_lines(f"P{p + 1} {sums[t][p]}:", state.unit_list(t, p),
                                 size - 2 * _TEXT_MARGIN) for p in (0, 1)]
            top = y + _UNITS_TOP
            for p, lines in enumerate(_share_lines(*lists)):
                for line in lines:
                    parts.append(f'<text x="{x + _TEXT_MARGIN}" y="{top}" '
                                 f'font-size="{_UNIT_FONT}" fill="{PLAYER_FILL[p]}" {_FONT}>'
                                 f"{escape(line)}</text>")
                    top += _LINE
                top += _UNITS_GAP
    rows = max(r for r, _ in game_map.at) + 1
    cols = max(c for _, c in game_map.at) + 1
    return "".join(parts), _GAP + cols * _CELL, _GAP + rows * _CELL


def _short(unit: str) -> str:
    return unit[:3] + ("*" if unit.endswith("*") else "")


_TEXT_MARGIN, _UNIT_FONT, _LINE = 6, 10, 11
_UNITS_TOP, _UNITS_GAP, _UNIT_LINES = 46, 4, 6
"""A territory's unit lists: left margin, font size and line height (px); the first line's
baseline (px below the territory's top), the gap between the players' lists, and the lines
both lists share."""


def _unit_lines(head: str, units: list[str], width: float) -> list[str]:
    """``head`` and the units (``shr×2`` for two of a kind, ``*``: inactive), wrapped between
    units into lines of ``width`` px by :func:`text_width`.

    >>> _unit_lines("P1 9:", ["shroomling"] * 2 + ["mudshell", "pusher*"], 102)
    ['P1 9: shr×2, mud,', 'pus*']
    """
    counts = Counter(_short(u) for u in units)
    kinds = [f"{u}×{n}" if n > 1 else u for u, n in counts.items()]
    words = [head, *(k + "," for k in kinds[:-1]), *kinds[-1:]]
    lines: list[str] = []
    for word in words:
        if lines and text_width(f"{lines[-1]} {word}", _UNIT_FONT) <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines


def _share_lines(first: list[str], second: list[str]) -> tuple[list[str], list[str]]:
    """The two players' unit lines in the ``_UNIT_LINES`` a territory has room for: each keeps
    up to half, a longer list also what the other leaves; a cut list ends in an ellipsis
    (in place of the last unit on its line, so the line is no wider).

    >>> _share_lines(["a", "b", "c", "d", "e"], ["x"])
    (['a', 'b', 'c', 'd', 'e'], ['x'])
    >>> _share_lines(["P1 9: shr×2,", "mud, pus,", "dea, fea,", "mer"], ["P2 3: a,", "b, c,", "d"])
    (['P1 9: shr×2,', 'mud, pus,', 'dea, …'], ['P2 3: a,', 'b, c,', 'd'])
    """
    half = _UNIT_LINES // 2
    room = [max(half, _UNIT_LINES - min(len(other), half)) for other in (second, first)]
    return _cut(first, room[0]), _cut(second, room[1])


def _cut(lines: list[str], room: int) -> list[str]:
    """``lines`` if there are ``room`` or fewer; else the first ``room``, the last of them ending
    in `` …`` in place of its last unit (the ellipsis is narrower than any unit)."""
    if len(lines) <= room:
        return lines
    kept = lines[:room]
    words = kept[-1].split(" ")
    kept[-1] = " ".join(words[:-1] if len(words) > 1 else words) + " …"
    return kept


def map_svg(game_map: Map, state: GameState | None = None) -> str:
    """The map as SVG: territories coloured by season with their VP, discovery tokens (purple),
    the initiative territory (star); with a game ``state`` also each player's strength and
    units per territory (``*``: inactive) and the controller's colour on the border."""
    _check(game_map, Map, "a Lumen Map")
    if state is not None:
        _check(state, GameState, "a Lumen GameState")
        if state.map != game_map:  # its units are counted by the territories of its own map
            raise LumicoreError(f"state is a game on map {shorten(state.map.name)}, not on the "
                                f"map drawn ({shorten(game_map.name)}): draw state.map")
    body, w, h = _map_body(game_map, state, 0, 0)
    title = f"Lumen map {game_map.name}" + ("" if state is None else
                                            f": {str(state).splitlines()[0]}")
    return document(w, h, title, body)


def state_svg(state: GameState) -> str:
    """A whole game: the map with units, then both players' sheets."""
    _check(state, GameState, "a Lumen GameState")
    body, w, h = _map_body(state.map, state, 0, 0)
    parts, x, height = [body], w + 10, h
    for p in (0, 1):
        sheet, sw, sh = _sheet_body(state.sheets[p], x, 0, f"player {p + 1}: "
                                    f"{state.score(p).total} VP")
        parts.append(sheet)
        x += sw + 10
        height = max(height, sh)
    return document(x, height, str(state).splitlines()[0], "".join(parts))


def map_text(state: GameState) -> str:
    """One line per territory: season, VP, each player's strength and units, the controller.

    >>> from lumicore.lumen.game import GameState
    >>> print(map_text(GameState.new_game()).splitlines()[0])
    a1  winter  1 VP  P1  7 shroomling shroomling mudshell | P2  0 -  -> player 1
    """
    _check(state, GameState, "a Lumen GameState")
    sums, owners = state.strengths(), state.controllers()
    lines = []
    m = state.map
    for t, name in enumerate(m.territories):
        sides = []
        for p in (0, 1):
            units = " ".join(state.unit_list(t, p)) or "-"
            sides.append(f"P{p + 1} {sums[t][p]:2d} {units}")
        who = "nobody" if owners[t] < 0 else f"player {owners[t] + 1}"
        extra = (" [initiative]" if t == m.initiative else "") + \
            (f" [token {state.discovery[t]} VP]" if state.discovery[t] else "")
        lines.append(f"{name:3s} {m.seasons[t]:6s} {m.vp[t]:2d} VP  {' | '.join(sides)}  -> "
                     f"{who}{extra}")
    return "\n".join(lines)
