"""Text inside the SVG pictures: escaped for XML, with the characters XML 1.0 forbids dropped.

``html.escape`` escapes markup only: a control character in a user's name (a reef board, a
Lucia card, a Lemuria card id; TOML and JSON files may hold them) made the picture one that no
XML parser reads, so a notebook showed nothing.

>>> escape('my\\x07 <board> & "reef"')
'my &lt;board&gt; &amp; &quot;reef&quot;'
"""

from __future__ import annotations

import html
import re

__all__ = ["escape", "text_width"]

_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def escape(text: str, quote: bool = True) -> str:
    """``text`` escaped for XML text and attributes (as :func:`html.escape`), without the
    characters XML 1.0 does not allow (C0 controls but tab, newline and carriage return; lone
    surrogates; U+FFFE, U+FFFF)."""
    return html.escape(_FORBIDDEN.sub("", text), quote=quote)


def text_width(text: str, size: float) -> float:
    """About how wide ``text`` is in pixels, in a sans-serif font of ``size`` pixels (0.58 em
    a character, a little over the average, so that a picture sized by it holds its text).

    >>> text_width("turn 12", 13)
    52.78
    """
    return round(0.58 * size * len(text), 2)
