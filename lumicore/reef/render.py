"""Drawing reefs: a plain-text view for terminals and SVG for notebooks (``Reef._repr_svg_``).

Text view: every space is a three-character token at the drawing position of its cell (doubled
column ``x`` at character ``2 * x``). A covered space shows the colour letter (``P`` pink, ``G``
green, ``B`` blue, ``Y`` yellow), its level, and its number or animal letter (``s`` shellfish,
``c`` crab, ``h`` seahorse, ``*`` starfish; ``-`` for neither). A bare space shows ``" . "``
(limestone), ``" ~ "`` (water) or ``"-n "`` (remote limestone, n VP penalty).

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
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from lumicore.data import plural, shorten
from lumicore.errors import LumicoreError
from lumicore.reef.board import Board
from lumicore.reef.values import ANIMALS, COLORS
from lumicore.svg import document, escape, text_width

if TYPE_CHECKING:
    from lumicore.reef.reef import Reef

__all__ = ["text", "svg", "side_by_side", "ANIMAL_LETTERS", "FILL"]

ANIMAL_LETTERS = {"shellfish": "s", "crab": "c", "seahorse": "h", "starfish": "*"}
"""The letter standing for each animal in the text drawing of a reef."""
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


def _check_reef(reef: object) -> None:
    # duck-typed: the reef module imports this one, not the other way round
    if not isinstance(getattr(reef, "board", None), Board) or not hasattr(reef, "cell_animals"):
        raise LumicoreError(f"expected a Reef, got {shorten(reef)}")


def text(reef: Reef, legend: bool = True) -> str:
    """The reef as text, one line per board row (see the module docstring)."""
    _check_reef(reef)
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
                        f"{plural(placed, 'Lumino')} placed, "
                        f"{plural(reef.levels(), 'level')}")
        lines.append(LEGEND)
    return "\n".join(lines)


# ---- SVG ------------------------------------------------------------------------------------

FILL = {"pink": "#e8559a", "green": "#3fa34d", "blue": "#2f7fd6", "yellow": "#f2c230"}
"""The SVG fill of each Lumino colour (a level shades it)."""
BARE_FILL = {"L": "#e9e2cf", "W": "#bfe3f2"}
REMOTE_FILL = "#d8c9a6"
RADIUS = 30.0
HIGHLIGHT = "#ff6a00"
STYLE = ("<style>text{font-family:sans-serif;text-anchor:middle}"
         ".num{font-size:18px;font-weight:bold;fill:#fff;stroke:#222;stroke-width:0.6}"
         ".ani{font-size:9.5px;fill:#111}"
         ".lvl{font-size:9px;fill:#fff}.pen{font-size:13px;fill:#7a2020}"
         ".leg{font-size:12px;text-anchor:start;fill:#222}.cap{font-size:13px;fill:#222}"
         ".ord{font-size:10px;font-weight:bold;fill:#fff}</style>")


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


def _space(reef: Reef, i: int, marked: bool) -> list[str]:
    cx, cy = _center(reef.board.cells[i])
    kind = reef.board.kinds[i]
    color = reef.cell_colors[i]
    out = []
    if color < 0:
        fill = BARE_FILL.get(kind, REMOTE_FILL)
        out.append(f'<polygon points="{_hexagon(cx, cy, RADIUS * 0.97)}" fill="{fill}" '
                   'stroke="#8a8a8a" stroke-width="1"/>')
        if kind in "123":
            out.append(f'<text x="{cx:.1f}" y="{cy + 5:.1f}" class="pen">-{kind} VP</text>')
        return out
    level = reef.heights[i]
    fill = _shade(FILL[COLORS[color]], level)
    stroke = (f'stroke="{HIGHLIGHT}" stroke-width="3.5"' if marked
              else f'stroke="#222" stroke-width="{0.8 + 0.6 * level:.1f}"')
    out.append(f'<polygon points="{_hexagon(cx, cy, RADIUS * 0.93)}" fill="{fill}" {stroke}/>')
    number, animal = reef.cell_numbers[i], reef.cell_animals[i]
    if number:
        out.append(f'<text x="{cx:.1f}" y="{cy + 7:.1f}" class="num">{number}</text>')
    elif animal >= 0:
        name = ANIMALS[animal]
        w = 5.2 * len(name) + 4
        out.append(f'<rect x="{cx - w / 2:.1f}" y="{cy + 4.5:.1f}" width="{w:.1f}" height="12" '
                   f'rx="3" fill="#fff" fill-opacity="0.85"/>'
                   f'<text x="{cx:.1f}" y="{cy + 14:.1f}" class="ani">{name}</text>')
    out.append(f'<text x="{cx:.1f}" y="{cy - RADIUS * 0.5:.1f}" class="lvl">L{level}</text>')
    return out


def _links(reef: Reef) -> list[str]:
    """A short bar across the shared edge of every Lumino whose halves are both visible (kept
    clear of the numbers and names in the middle of each space)."""
    out = []
    for k, piece in enumerate(reef.pieces):
        a, b = piece.number_cell, piece.other_cell
        if reef.top_pieces[a] == k == reef.top_pieces[b]:
            (x1, y1), (x2, y2) = _center(reef.board.cells[a]), _center(reef.board.cells[b])
            p, q = (x1 + 0.38 * (x2 - x1), y1 + 0.38 * (y2 - y1)), \
                (x1 + 0.62 * (x2 - x1), y1 + 0.62 * (y2 - y1))
            out.append(f'<line x1="{p[0]:.1f}" y1="{p[1]:.1f}" x2="{q[0]:.1f}" y2="{q[1]:.1f}" '
                       'stroke="#222" stroke-opacity="0.55" stroke-width="5" '
                       'stroke-linecap="round"/>')
    return out


_SLOTS = ((-0.45, -0.42), (0.45, -0.42), (0.62, 0.12), (-0.62, 0.12))
"""Where the order dots go in a space (in radii from its centre): the first for the piece on
top, the others for pieces covered there, clear of the number and the animal's name."""


def _order_marks(reef: Reef, order: dict[int, int]) -> list[str]:
    """A numbered dot for each piece in ``order`` (piece -> 1, 2, ...): filled on a half of it
    that is still on top (the number half if it is), hollow on its number half when later
    pieces cover both halves (beside the dot of the piece on top there, so that none hides
    another)."""
    spots: dict[int, list[int]] = {}  # space -> the pieces whose dots are in it
    covered = []
    for k in order:
        piece = reef.pieces[k]
        top = [c for c in (piece.number_cell, piece.other_cell) if reef.top_pieces[c] == k]
        if top:
            spots.setdefault(top[0], []).insert(0, k)
        else:
            covered.append(k)
    for k in covered:
        spots.setdefault(reef.pieces[k].number_cell, []).append(k)
    out = []
    for cell, pieces in spots.items():
        cx, cy = _center(reef.board.cells[cell])
        for slot, k in enumerate(pieces):
            dx, dy = _SLOTS[slot % len(_SLOTS)]
            x, y = cx + RADIUS * dx, cy + RADIUS * (dy + 0.3 * (slot // len(_SLOTS)))
            on_top = reef.top_pieces[cell] == k
            fill = (f'fill="{HIGHLIGHT}"' if on_top
                    else f'fill="#fff" stroke="{HIGHLIGHT}" stroke-width="2.5"')
            ink = "" if on_top else f' style="fill:{HIGHLIGHT}"'
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="7" {fill}/>'
                       f'<text x="{x:.1f}" y="{y + 3.5:.1f}" class="ord"{ink}>{order[k]}</text>')
    return out


def _legend(top: float, board_kinds: set[str], placed: bool) -> tuple[list[str], float]:
    """Colour swatches and the bare-space kinds, below the board; returns (elements, height)."""
    out = []
    y = top + 16
    x = 8.0
    for name, fill in FILL.items():
        out.append(f'<rect x="{x:.0f}" y="{y - 11:.0f}" width="14" height="14" fill="{fill}" '
                   f'stroke="#222"/><text x="{x + 18:.0f}" y="{y:.0f}" class="leg">{name}</text>')
        x += 72
    y += 20
    x = 8.0
    bare = [("limestone", BARE_FILL["L"]), ("water (costs 1 limestone)", BARE_FILL["W"])]
    if board_kinds & set("123"):
        bare.append(("remote limestone (-n VP if visible)", REMOTE_FILL))
    for name, fill in bare:
        out.append(f'<rect x="{x:.0f}" y="{y - 11:.0f}" width="14" height="14" fill="{fill}" '
                   f'stroke="#8a8a8a"/>'
                   f'<text x="{x + 18:.0f}" y="{y:.0f}" class="leg">{name}</text>')
        x += 24 + 6.5 * len(name)
    y += 20
    note = "Ln = level (darker = higher); a bar joins the two visible halves of a Lumino"
    out.append(f'<text x="8" y="{y:.0f}" class="leg">{note}</text>')
    if placed:
        y += 20
        out.append(f'<circle cx="15" cy="{y - 4:.0f}" r="7" fill="{HIGHLIGHT}"/>'
                   f'<text x="28" y="{y:.0f}" class="leg">newly placed, in this order '
                   f'(orange outline; a hollow dot: now covered)</text>')
    return out, y - top + 10


def svg(reef: Reef, *, legend: bool = True, placed: Sequence[int] = (),
        caption: str | None = None) -> str:
    """The reef as an SVG image: spaces as hexagons, coral shaded darker per level with the level
    at the top, numbers and full animal names on their halves, a bar across the shared edge of
    each visible Lumino, and (``legend=True``) a legend below. ``placed``: piece indices to
    outline and number 1, 2, ... (a placement result); ``caption``: a line above the board."""
    return _sized_svg(reef, legend, placed, caption)[0]


def _sized_svg(reef: Reef, legend: bool, placed: Sequence[int], caption: str | None
               ) -> tuple[str, float, float]:
    """:func:`svg` with its width and height."""
    _check_reef(reef)
    if isinstance(placed, (str, bytes)) or not isinstance(placed, Iterable):
        raise LumicoreError(f"placed must be piece indices, got {shorten(placed)}")
    placed = tuple(placed)
    if not all(isinstance(k, int) and not isinstance(k, bool) and 0 <= k < len(reef.pieces)
               for k in placed):
        raise LumicoreError(f"placed must be piece indices 0..{len(reef.pieces) - 1}, got "
                            f"{shorten(placed)}")
    if caption is not None and not isinstance(caption, str):
        raise LumicoreError(f"caption must be text, got {shorten(caption)}")
    order = {k: n for n, k in enumerate(placed, start=1)}
    marked = {c for k in order for c in (reef.pieces[k].number_cell, reef.pieces[k].other_cell)
              if reef.top_pieces[c] == k}
    shift = 22.0 if caption else 0.0
    centers = [_center(cell) for cell in reef.board.cells]
    width = max(max(x for x, _ in centers) + RADIUS * 1.2, 560.0 if legend else 0.0,
                16 + text_width(caption or "", 13))
    board_height = max(y for _, y in centers) + RADIUS * 1.2
    body = []
    for i in range(len(reef.board.cells)):
        body.extend(_space(reef, i, i in marked))
    body.extend(_links(reef))
    body.extend(_order_marks(reef, order))
    extra: list[str] = []
    legend_height = 0.0
    if legend:
        extra, legend_height = _legend(board_height + shift, set(reef.board.kinds), bool(order))
    if caption:
        extra.append(f'<text x="{width / 2:.1f}" y="16" class="cap">{escape(caption)}</text>')
    height = board_height + shift + legend_height
    title = caption or f"reef on board {reef.board.name}, start {'/'.join(reef.start)}"
    body_svg = (STYLE + '<rect width="100%" height="100%" fill="#fff"/>'
                f'<g transform="translate(0,{shift:.0f})">' + "".join(body) + "</g>"
                + "".join(extra))
    return document(width, height, title, body_svg), width, height


def side_by_side(reefs: Sequence[Reef], captions: Sequence[str], title: str = "") -> str:
    """Several reefs in one SVG image, left to right, each with its caption above it and one
    legend under the first (a whole game's reefs: :meth:`lumicore.reef.game.Game._repr_svg_`).

    >>> from lumicore.reef import Reef, load_board
    >>> two = [Reef.new(load_board("A"), ("pink", "green"))] * 2
    >>> side_by_side(two, ["player 1", "player 2"]).count("<svg")
    3
    """
    for name, value in (("reefs", reefs), ("captions", captions)):
        if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
            raise LumicoreError(f"{name} must be a list, got {shorten(value)}")
    if not isinstance(title, str):
        raise LumicoreError(f"title must be text, got {shorten(title)}")
    if len(reefs) != len(captions) or not reefs:
        raise LumicoreError(f"one caption for each of one or more reefs, got {len(reefs)} reefs "
                            f"and {len(captions)} captions")
    parts = [_sized_svg(reef, k == 0, (), caption)
             for k, (reef, caption) in enumerate(zip(reefs, captions, strict=True))]
    x, placed = 0.0, []
    for part, width, _height in parts:
        placed.append(part.replace("<svg ", f'<svg x="{x:.0f}" ', 1))
        x += width + 20
    width, height = x - 20, max(h for _p, _w, h in parts)
    return document(width, height, title, "".join(placed))
