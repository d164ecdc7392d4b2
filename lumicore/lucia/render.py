"""SVG drawing of a train for notebooks (``Train._repr_svg_``): one card per kid, front left;
and of a plan (``SolveResult._repr_svg_``): a strip of trains, one per play, the kids each play
moved outlined in magenta with an arrow from where they stood, a light's source dashed.

>>> from lumicore.lucia.train import Train
>>> svg = train_svg(Train.parse("L2 H h S T G"))
>>> svg.startswith("<svg") and svg.count("<rect") == 6 and "L2" in svg
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from lumicore.checks import check_type
from lumicore.data import plural, shorten
from lumicore.errors import LumicoreError
from lumicore.lucia.notation import H_LIT, TOKENS, candles_of, is_lucia, role_of
from lumicore.svg import document, escape, text_width

if TYPE_CHECKING:
    from lumicore.lucia.train import Play, Train

__all__ = ["train_svg", "plan_svg", "moved_kids"]

_FILL = {"L": "#fff7d6", "H": "#f4f1ea", "T": "#d9534f", "S": "#3d6fb6", "G": "#a8743f"}
_LIT = "#ffd84d"
_MARK = "#d6007a"
_W, _H, _GAP = 44, 64, 6
_ROW = 20 + _H + 2 * _GAP + 14 + 12     # caption, kid cards, position numbers, arrow


def _x(pos: int) -> float:
    return _GAP + pos * (_W + _GAP)


def _kid(pos: int, code: int, mark: str = "") -> str:
    x = _x(pos)
    role = role_of(code)
    fill = _LIT if code == H_LIT else _FILL[role]
    ink = "#fff" if role in "TSG" else "#222"
    stroke = {"moved": f'stroke="{_MARK}" stroke-width="4"',
              "source": f'stroke="{_MARK}" stroke-width="3" stroke-dasharray="5,3"'
              }.get(mark, 'stroke="#555"')
    parts = [
        f'<rect x="{x}" y="{_GAP}" width="{_W}" height="{_H}" rx="6" fill="{fill}" '
        f'{stroke}/>',
        f'<text x="{x + _W / 2}" y="{_GAP + 30}" text-anchor="middle" font-size="18" '
        f'font-family="sans-serif" fill="{ink}">{TOKENS[code]}</text>',
        f'<text x="{x + _W / 2}" y="{_GAP + _H + 14}" text-anchor="middle" font-size="11" '
        f'font-family="sans-serif" fill="#777">{pos}</text>',
    ]
    if is_lucia(code):
        for c in range(5):
            color = _LIT if c < candles_of(code) else "#ccc"
            parts.append(f'<circle cx="{x + 6 + c * 8}" cy="{_GAP + 50}" r="3" fill="{color}"/>')
    return "".join(parts)


def _row(train: Train, caption: str | None, marks: dict[int, str] | None = None,
         arrows: Sequence[tuple[int, int]] = ()) -> tuple[str, int]:
    """One train with its caption, marks and move arrows: SVG elements and their height."""
    marks = marks or {}
    top = 20 if caption else 0
    body = "".join(_kid(pos, code, marks.get(pos, "")) for pos, code in enumerate(train.codes))
    y = _GAP + _H + 22
    for start, end in arrows:
        x0, x1 = _x(start) + _W / 2, _x(end) + _W / 2
        body += (f'<line x1="{x0}" y1="{y}" x2="{x1}" y2="{y}" stroke="{_MARK}" '
                 f'stroke-width="2" marker-end="url(#lc-arrow)"/>'
                 f'<circle cx="{x0}" cy="{y}" r="3" fill="{_MARK}"/>')
    head = (f'<text x="{_GAP}" y="14" font-size="13" font-family="sans-serif">{escape(caption)}'
            "</text>" if caption else "")
    height = top + _H + 2 * _GAP + 14 + (12 if arrows else 0)
    return f'{head}<g transform="translate(0,{top})">{body}</g>', height


_DEFS = (f'<defs><marker id="lc-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" '
         f'markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{_MARK}"/>'
         "</marker></defs>")


def _check_train(train: object, name: str) -> None:
    from lumicore.lucia.train import Train  # the train module imports this one

    check_type(train, Train, name, "a lumicore.lucia.Train")


def _check_text(value: object, name: str) -> None:
    check_type(value, str, name, "text")


def train_svg(train: Train, caption: str | None = None) -> str:
    """The train as an SVG string; ``caption`` is written above it (e.g. the card played)."""
    _check_train(train, "train")
    if caption is not None:
        _check_text(caption, "caption")
    body, height = _row(train, caption)
    return document(_width(train, [caption or ""]), height, caption or f"Lucia train {train}",
                    body)


def _width(train: Train, captions: Sequence[str]) -> float:
    """Wide enough for the train's cards and for every caption (13 px text)."""
    return max(_GAP + len(train) * (_W + _GAP),
               max(2 * _GAP + text_width(c, 13) for c in captions))


def moved_kids(play: Play) -> tuple[dict[int, str], list[tuple[int, int]]]:
    """Where, in the train after ``play``, the kids it moved stand (``"moved"``) and the light
    sources it used (``"source"``), and an arrow (from, to) per moved kid: positions are
    followed through the card's later actions.

    >>> from lumicore.lucia.train import Train
    >>> from lumicore.lucia.cards import Action, Card
    >>> play = next(Train.parse("S h T h L0").plays(Card((Action.move("S", 2),))))
    >>> moved_kids(play)
    ({2: 'moved'}, [(0, 2)])
    """
    from lumicore.lucia.train import Play

    check_type(play, Play, "play", "a lumicore.lucia.Play (see Train.plays)")
    marks: dict[int, str] = {}
    arrows: list[tuple[int, int]] = []
    for choice in play.choices:
        a, b = choice.start, choice.end
        if a != b:
            def shift(p: int, a: int = a, b: int = b) -> int:
                if p == a:
                    return b
                if a < p <= b:
                    return p - 1
                return p + 1 if b <= p < a else p
            marks = {shift(p): kind for p, kind in marks.items()}
            arrows = [(x, shift(y)) for x, y in arrows]
            marks[b] = "moved"
            arrows.append((a, b))
        else:
            marks[a] = "source"
    return marks, arrows


def plan_svg(start: Train, plan: Sequence[Play], title: str = "") -> str:
    """A plan as a vertical strip of trains: the start, then the train after each play with its
    number, card and choices above it and the kids it moved marked.

    >>> from lumicore.lucia.train import Train
    >>> from lumicore.lucia.cards import Action, Card
    >>> play = next(Train.parse("S h T h L0").plays(Card((Action.move("S", 2),))))
    >>> svg = plan_svg(play.before, [play])
    >>> svg.count("<rect") - 1, svg.count('stroke-width="4"'), "1. move S 2" in svg
    (10, 1, True)
    """
    from lumicore.lucia.train import Play, describe

    _check_train(start, "start")
    if isinstance(plan, (str, bytes)) or not isinstance(plan, Sequence):
        raise LumicoreError(f"plan must be a list of plays, got {shorten(plan)}")
    for i, play in enumerate(plan):
        check_type(play, Play, f"plan[{i}]", "a lumicore.lucia.Play")
    _check_text(title, "title")
    rows: list[str] = []
    y = 0
    first = f"{title}. start: {start}" if title else f"start: {start}"
    captions = [first] + [f"{i}. {p.card.name}: {', '.join(map(describe, p.choices))}"
                          for i, p in enumerate(plan, 1)]
    head, h = _row(start, first)
    rows.append(f'<g transform="translate(0,{y})">{head}</g>')
    y += h + 8
    for i, play in enumerate(plan, 1):
        marks, arrows = moved_kids(play)
        body, h = _row(play.train, captions[i], marks, arrows)
        rows.append(f'<g transform="translate(0,{y})">{body}</g>')
        y += h + 8
    width = _width(start, captions)
    name = f"{title}: " if title else ""
    return document(width, y, f"{name}Lucia plan of {plural(len(plan), 'play')} from {start}",
                    f'<rect width="{width}" height="{y}" fill="#fff"/>{_DEFS}' + "".join(rows))
