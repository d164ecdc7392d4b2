"""Text inside the SVG pictures: escaped for XML, with the characters XML 1.0 forbids dropped.

``html.escape`` escapes markup only: a control character in a user's name (a reef board, a
Lucia card, a Lemuria card id; TOML and JSON files may hold them) made the picture one that no
XML parser reads, so a notebook showed nothing.

>>> escape('my\\x07 <board> & "reef"')
'my &lt;board&gt; &amp; &quot;reef&quot;'

Every picture is one :func:`document`: its size, a viewBox that agrees with it, and a
``<title>`` (what the picture shows, for screen readers and as a tooltip).
"""

from __future__ import annotations

import html
import re

from lumicore.checks import check_real, check_type

__all__ = ["escape", "text_width", "document"]

_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def escape(text: str, quote: bool = True) -> str:
    """``text`` escaped for XML text and attributes (as :func:`html.escape`), without the
    characters XML 1.0 does not allow (C0 controls but tab, newline and carriage return; lone
    surrogates; U+FFFE, U+FFFF)."""
    check_type(text, str, "text", "a str")
    return html.escape(_FORBIDDEN.sub("", text), quote=quote)


def text_width(text: str, size: float) -> float:
    """About how wide ``text`` is in pixels, in a sans-serif font of ``size`` pixels (0.58 em
    a character, a little over the average, so that a picture sized by it holds its text).

    >>> text_width("turn 12", 13)
    52.78
    """
    text = check_type(text, str, "text", "a string")
    return round(0.58 * check_real(size, "size") * len(text), 2)


def _number(value: float) -> str:
    """A size as SVG writes it: at most two decimals, no trailing zeros."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def document(width: float, height: float, title: str, body: str, attributes: str = "") -> str:
    """A whole SVG picture: ``width`` by ``height`` pixels with the same viewBox, ``title`` (text,
    escaped here) as its ``<title>``, then ``body`` (SVG markup); ``attributes``: more markup
    for the ``<svg>`` tag (e.g. ``' font-family="sans-serif"'``).

    >>> document(80.5, 20, "a <b>", "<g/>").split('svg" ')[1]
    'width="80.5" height="20" viewBox="0 0 80.5 20"><title>a &lt;b&gt;</title><g/></svg>'
    """
    w, h = (_number(check_real(value, name, "a finite number >= 0", at_least=0))
            for name, value in (("width", width), ("height", height)))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
            f'viewBox="0 0 {w} {h}"{attributes}><title>{escape(title)}</title>{body}</svg>')
