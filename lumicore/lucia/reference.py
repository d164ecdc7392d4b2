"""The Lucia rules in plain Python: the executable spec that ``ext/lucia.pyx`` is tested against.

A train is a tuple of nibble codes (see :mod:`lumicore.lucia.notation`), front first. Nothing here
is optimised; every function states one rule of docs/lucia.md.

>>> from lumicore.lucia.notation import parse_codes, format_codes
>>> from lumicore.lucia.cards import Action, Card
>>> kids = parse_codes("T h G H L2 T S")
>>> sorted(format_codes(k) for k in successors(kids, Card((Action.move("G", 2),))))
['G T h H L2 T S', 'T h h L1 G T S']
"""

from __future__ import annotations

from typing import NamedTuple

from lumicore.lucia.cards import Action, Card
from lumicore.lucia.notation import (
    GINGER,
    H_LIT,
    H_UNLIT,
    LUCIA0,
    LUCIA5,
    STARBOY,
    TOMTEN,
    is_lucia,
    role_of,
)

__all__ = ["Choice", "restriction_ok", "blow_out", "light_up", "move_kid", "action_outcomes",
           "card_outcomes", "successors", "is_goal"]

Kids = tuple[int, ...]


class Choice(NamedTuple):
    """How one action was performed: the kid (its code before the action) at ``start`` ended at
    ``end`` (for ``light``, ``start == end`` is the source kid)."""

    action: Action
    code: int
    start: int
    end: int


def restriction_ok(kids: Kids) -> bool:
    """No Gingerbread stands next to a Starboy."""
    return not any((a == GINGER and b == STARBOY) or (a == STARBOY and b == GINGER)
                   for a, b in zip(kids, kids[1:], strict=False))


def blow_out(code: int) -> int:
    """A kid passed by a moving Gingerbread: a lit Handmaiden goes out, Lucia loses one candle
    (not below 0); Tomten lanterns never go out; others have no light."""
    if code == H_LIT:
        return H_UNLIT
    if is_lucia(code) and code > LUCIA0:
        return code - 1
    return code


def light_up(code: int) -> int:
    """A kid next to a light source: an unlit Handmaiden lights, Lucia gains a candle (max 5)."""
    if code == H_UNLIT:
        return H_LIT
    if is_lucia(code) and code < LUCIA5:
        return code + 1
    return code


def move_kid(kids: Kids, start: int, end: int) -> Kids:
    """The kid at ``start`` moves to ``end``; the kids it passes shift one place towards
    ``start``. A moving Gingerbread blows out every kid it passes."""
    row = list(kids)
    kid = row.pop(start)
    row.insert(end, kid)
    if kid == GINGER:
        passed = range(start, end) if end > start else range(end + 1, start + 1)
        for pos in passed:
            row[pos] = blow_out(row[pos])
    return tuple(row)


def _moves(kids: Kids, action: Action) -> list[tuple[Choice, Kids]]:
    out = []
    for start, code in enumerate(kids):
        if not action.moves(role_of(code)):
            continue
        for end in (start - action.steps, start + action.steps):
            if 0 <= end < len(kids):
                out.append((Choice(action, code, start, end), move_kid(kids, start, end)))
    return out


def _lights(kids: Kids, action: Action) -> list[tuple[Choice, Kids]]:
    source = H_LIT if action.source == "H" else TOMTEN
    out = []
    for pos, code in enumerate(kids):
        if code == source:
            row = list(kids)
            for nb in (pos - 1, pos + 1):
                if 0 <= nb < len(kids):
                    row[nb] = light_up(row[nb])
            out.append((Choice(action, code, pos, pos), tuple(row)))
    return out


def _lucia_runs(kids: Kids, action: Action, partial: bool) -> list[tuple[Choice, Kids]]:
    start = next(p for p, c in enumerate(kids) if is_lucia(c))
    out = []
    for step in (-1, 1):
        run = 0
        while 0 <= start + step * (run + 1) < len(kids) and \
                role_of(kids[start + step * (run + 1)]) == "H":
            run += 1
        for length in (range(1, run + 1) if partial else ([run] if run else [])):
            end = start + step * length
            out.append((Choice(action, kids[start], start, end), move_kid(kids, start, end)))
    return out


def action_outcomes(kids: Kids, action: Action, lucia_partial: bool = False
                    ) -> list[tuple[Choice, Kids]]:
    """Every way to perform one action and its result; results breaking the restriction are
    dropped. An empty list means the action cannot be performed."""
    if action.kind in ("move", "wild"):
        outcomes = _moves(kids, action)
    elif action.kind == "light":
        outcomes = _lights(kids, action)
    else:
        outcomes = _lucia_runs(kids, action, lucia_partial)
    return [(choice, after) for choice, after in outcomes if restriction_ok(after)]


def card_outcomes(kids: Kids, card: Card, lucia_partial: bool = False
                  ) -> list[tuple[tuple[Choice, ...], Kids]]:
    """Every way to play a card: its actions in either order, each one legal in turn."""
    plays: list[tuple[tuple[Choice, ...], Kids]] = [((), kids)]
    results = []
    for order in card.orders:
        partial = plays
        for action in order:
            partial = [(done + (choice,), after)
                       for done, state in partial
                       for choice, after in action_outcomes(state, action, lucia_partial)]
        results += partial
    return results


def successors(kids: Kids, card: Card, lucia_partial: bool = False) -> set[Kids]:
    """The distinct trains one play of ``card`` can lead to."""
    return {after for _, after in card_outcomes(kids, card, lucia_partial)}


def is_goal(kids: Kids) -> bool:
    """Lucia in front with 5 candles, every Starboy behind every other kid, every Handmaiden lit."""
    starboys = kids.count(STARBOY)
    return (kids[0] == LUCIA5 and all(c == STARBOY for c in kids[len(kids) - starboys:])
            and H_UNLIT not in kids)
