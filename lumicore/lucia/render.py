"""SVG drawing of a train for notebooks (``Train._repr_svg_``): one card per kid, front left.

>>> from lumicore.lucia.train import Train
>>> svg = train_svg(Train.parse("L2 H h S T G"))
>>> svg.startswith("<svg") and svg.count("<rect") == 6 and "L2" in svg
True
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from lumicore.lucia.notation import H_LIT, TOKENS, candles_of, is_lucia, role_of

if TYPE_CHECKING:
    from lumicore.lucia.train import Train

__all__ = ["train_svg"]

_FILL = {"L": "#fff7d6", "H": "#f4f1ea", "T": "#d9534f", "S": "#3d6fb6", "G": "#a8743f"}
_LIT = "#ffd84d"
_W, _H, _GAP = 44, 64, 6


def _kid(pos: int, code: int) -> str:
    x = _GAP + pos * (_W + _GAP)
    role = role_of(code)
    fill = _LIT if code == H_LIT else _FILL[role]
    ink = "#fff" if role in "TSG" else "#222"
    parts = [
        f'<rect x="{x}" y="{_GAP}" width="{_W}" height="{_H}" rx="6" fill="{fill}" '
        f'stroke="#555"/>',
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


def train_svg(train: Train, caption: str | None = None) -> str:
    """The train as an SVG string; ``caption`` is written above it (e.g. the card played)."""
    top = 20 if caption else 0
    width = _GAP + len(train) * (_W + _GAP)
    height = top + _H + 2 * _GAP + 14
    body = "".join(_kid(pos, code) for pos, code in enumerate(train.codes))
    head = (f'<text x="{_GAP}" y="14" font-size="13" font-family="sans-serif">{escape(caption)}'
            "</text>" if caption else "")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">{head}<g transform="translate(0,{top})">{body}</g>'
            "</svg>")
