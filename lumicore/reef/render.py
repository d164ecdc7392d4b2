"""Drawing reefs: a plain-text view for terminals and SVG for notebooks (``Reef._repr_svg_``).

Text view: every space is a three-character token at the drawing position of its cell (doubled
column ``x`` at character ``2 * x``). A covered space shows the colour letter (``P`` pink, ``G``
green, ``B`` blue, ``Y`` yellow), its level, and its number or animal letter (``s`` shellfish,
``c`` crab, ``h`` seahorse, ``*`` starfish; ``-`` for neither). A bare space shows `` . ``
(limestone), `` ~ `` (water) or ``-n `` (remote limestone, n VP penalty).

>>> from lumicore.reef import Lumino, Reef, load_board
>>> reef = Reef.new(load_board("A"), ("pink", "green"))
>>> reef = reef.place(reef.placement_at(Lumino("pink", 3, "crab"), (2, 5), (2, 3)))
>>> print(text(reef, legend=False))
       ~   ~   ~   ~   ~
     ~   .   .   .   .   ~
   ~  P1c P13  .   .   .   ~
 ~   .   .  P1- G1-  .   .   ~
   ~   .   .   .   .   .   ~
     ~   .   .   .   .   ~
       ~   ~   ~   ~   ~
>>> svg(reef).startswith("<svg")
True
"""

from __future__ import annotations

import math
from html import escape

from lumicore.reef.reef import Reef
from lumicore.reef.tiles import ANIMALS, COLORS

__all__ = ["text", "svg", "ANIMAL_LETTERS", "FILL"]

ANIMAL_LETTERS = {"shellfish": "s", "crab": "c", "seahorse": "h", "starfish": "*"}
BARE = {"L": " . ", "W": " ~ "}
LEGEND = ("P/G/B/Y colour, digit = level, then the number or the animal\n"
          "(s shellfish, c crab, h seahorse, * starfish); bare: . limestone, ~ water, -n remote")


def _token(reef: Reef, i: int) -> str:
    kind = reef.board.kinds[i]
    color = reef.cell_colors[i]
    if color < 0:
        return BARE.get(kind, f"-{kind} ")
    number, animal = reef.cell_numbers[i], reef.cell_animals[i]
    mark = str(number) if number else ANIMAL_LETTERS[ANIMALS[animal]] if animal >= 0 else "-"
    return f"{COLORS[color][0].upper()}{reef.heights[i]}{mark}"


def text(reef: Reef, legend: bool = True) -> str:
    """The reef as text, one line per board row (see the module docstring)."""
    rows: dict[int, list[tuple[int, str]]] = {}
    for i, (r, x) in enumerate(reef.board.cells):
        rows.setdefault(r, []).append((x, _token(reef, i)))
    lines = []
    for r in range(min(rows), max(rows) + 1):
        line = ""
        for x, token in sorted(rows.get(r, [])):
            line = line.ljust(2 * x) + token
        lines.append(line.rstrip())
    if legend:
        placed = len(reef.pieces) - 1
        lines.insert(0, f"reef on board {reef.board.name}, start {'/'.join(reef.start)}, "
                        f"{placed} Lumino{'s' * (placed != 1)} placed, "
                        f"{reef.levels()} level{'s' * (reef.levels() != 1)}")
        lines.append(LEGEND)
    return "\n".join(lines)


# ---- SVG ------------------------------------------------------------------------------------

FILL = {"pink": "#e8559a", "green": "#3fa34d", "blue": "#2f7fd6", "yellow": "#f2c230"}
BARE_FILL = {"L": "#e9e2cf", "W": "#bfe3f2"}
REMOTE_FILL = "#d8c9a6"
RADIUS = 22.0


def _center(cell: tuple[int, int]) -> tuple[float, float]:
    r, x = cell
    return (RADIUS * (1 + x * math.sqrt(3) / 2), RADIUS * (1.2 + 1.5 * r))


def _hexagon(cx: float, cy: float, radius: float) -> str:
    points = (
        f"{cx + radius * math.cos(math.radians(60 * k + 30)):.1f},"
        f"{cy + radius * math.sin(math.radians(60 * k + 30)):.1f}"
        for k in range(6)
    )
    return " ".join(points)


def _shade(color: str, level: int) -> str:
    """The colour darkened a little per level above 1."""
    rgb = [int(color[k:k + 2], 16) for k in (1, 3, 5)]
    factor = max(0.45, 1 - 0.15 * (level - 1))
    return "#" + "".join(f"{int(c * factor):02x}" for c in rgb)


def _space(reef: Reef, i: int) -> list[str]:
    cx, cy = _center(reef.board.cells[i])
    kind = reef.board.kinds[i]
    color = reef.cell_colors[i]
    out = []
    if color < 0:
        fill = BARE_FILL.get(kind, REMOTE_FILL)
        out.append(f'<polygon points="{_hexagon(cx, cy, RADIUS * 0.97)}" fill="{fill}" '
                   'stroke="#8a8a8a" stroke-width="1"/>')
        if kind in "123":
            out.append(f'<text x="{cx:.1f}" y="{cy + 4:.1f}" class="pen">-{kind}</text>')
        return out
    level = reef.heights[i]
    fill = _shade(FILL[COLORS[color]], level)
    out.append(f'<polygon points="{_hexagon(cx, cy, RADIUS * 0.97)}" fill="{fill}" '
               f'stroke="#222" stroke-width="{0.8 + 0.6 * level:.1f}"/>')
    number, animal = reef.cell_numbers[i], reef.cell_animals[i]
    label = str(number) if number else ANIMALS[animal][:3] if animal >= 0 else ""
    if label:
        size = "num" if number else "ani"
        out.append(f'<text x="{cx:.1f}" y="{cy + 4:.1f}" class="{size}">{escape(label)}</text>')
    out.append(f'<text x="{cx + RADIUS * 0.45:.1f}" y="{cy - RADIUS * 0.35:.1f}" '
               f'class="lvl">{level}</text>')
    return out


def _links(reef: Reef) -> list[str]:
    """A bar joining the two halves of every Lumino whose halves are both visible."""
    out = []
    for k, piece in enumerate(reef.pieces):
        a, b = piece.number_cell, piece.other_cell
        if reef.top_pieces[a] == k == reef.top_pieces[b]:
            (x1, y1), (x2, y2) = _center(reef.board.cells[a]), _center(reef.board.cells[b])
            out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                       'stroke="#222" stroke-opacity="0.35" stroke-width="4"/>')
    return out


def svg(reef: Reef) -> str:
    """The reef as an SVG image: spaces as hexagons, coral shaded darker per level, the level in
    the corner, numbers and animals written on their halves, bars joining each visible Lumino."""
    centers = [_center(cell) for cell in reef.board.cells]
    width = max(x for x, _ in centers) + RADIUS * 1.2
    height = max(y for _, y in centers) + RADIUS * 1.2
    body = []
    for i in range(len(reef.board.cells)):
        body.extend(_space(reef, i))
    body.extend(_links(reef))
    title = escape(f"reef on board {reef.board.name}, start {'/'.join(reef.start)}")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.1f} {height:.1f}">'
        f"<title>{title}</title>"
        "<style>text{font-family:sans-serif;text-anchor:middle}"
        ".num{font-size:14px;font-weight:bold;fill:#fff}.ani{font-size:10px;fill:#fff}"
        ".lvl{font-size:8px;fill:#fff}.pen{font-size:11px;fill:#7a2020}</style>"
        + "".join(body) + "</svg>"
    )
