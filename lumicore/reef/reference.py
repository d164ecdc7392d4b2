"""The reef rules in plain Python: placement legality and the reef's scores.

This is the specification the Cython kernel (``lumicore.reef.kernel``) is tested against; it favours
reading like the rulebook over speed. Cells are cell indices of ``reef.board``.

A placement of a Lumino of colour ``c`` with its halves on adjacent cells ``a`` and ``b`` is legal
when (design/reef.md, "Placement rules"):

1. both cells have the same height ``h`` (no tilting); the Lumino is then in level ``h + 1``;
2. if ``h >= 1``, the two cells below belong to two different Luminos (no exact overlap);
3. if ``h == 0``, both cells are base spaces; each water space costs one limestone marker, and
   storage must hold enough;
4. colour: in level 1 the Lumino touches a visible level-1 ``c`` space; if there is none, or no
   placement touching one fits on two free adjacent base spaces (cost ignored), it touches any
   visible level-1 space instead. In a level ``>= 2`` it covers a visible ``c`` space or touches a
   visible ``c`` space in its own level.

>>> from lumicore.reef import Lumino, Reef, load_board
>>> reef = Reef.new(load_board("A"), start=("pink", "green"))
>>> len(placements(reef, Lumino("blue", 2), limestone=0))  # no blue yet: touch any Lumino
60
>>> illegal_reason(reef, Lumino("pink", 2), reef.board.index[(3, 10)], reef.board.index[(3, 12)])
'it must touch a visible level-1 pink space'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lumicore.reef.values import ANIMALS, COLORS, Lumino, Placement, color_code

if TYPE_CHECKING:
    from lumicore.reef.reef import Reef

__all__ = [
    "placements",
    "illegal_reason",
    "level1_exception",
    "cost",
    "visible_counts",
    "visible_animals",
    "coral_score",
    "remote_penalty",
    "light_animal_points",
]


def _touched(reef: Reef, a: int, b: int) -> list[int]:
    """The cells adjacent to ``a`` or ``b`` (not ``a`` and ``b`` themselves)."""
    return [j for j in range(len(reef.board.cells))
            if (reef.board.neighbors[a] | reef.board.neighbors[b]) >> j & 1 and j not in (a, b)]


def _shows(reef: Reef, cell: int, color: int, level: int) -> bool:
    """Whether ``cell`` shows a coral space of colour code ``color`` in ``level``."""
    return reef.heights[cell] == level and reef.cell_colors[cell] == color


def _touches(reef: Reef, a: int, b: int, color: int | None, level: int) -> bool:
    """Whether the pair touches a visible space in ``level`` (of ``color``; None = any colour)."""
    return any(reef.heights[j] == level and (color is None or reef.cell_colors[j] == color)
               for j in _touched(reef, a, b))


def _free_pair(reef: Reef, a: int, b: int) -> bool:
    base = reef.board.base_mask
    return reef.heights[a] == reef.heights[b] == 0 and base >> a & 1 and base >> b & 1


def _own_colour_fits_in_level_1(reef: Reef, color: int) -> bool:
    """Whether some Lumino of ``color`` could touch a visible level-1 space of its colour on two
    free adjacent base spaces (limestone ignored)."""
    return any(_free_pair(reef, a, b) and _touches(reef, a, b, color, 1)
               for a, b in reef.board.edges)


def level1_exception(reef: Reef, color: str) -> bool:
    """Whether a Lumino of ``color`` may touch *any* visible level-1 space (rule 1's exception):
    no visible level-1 space of its colour, or none that a Lumino could touch on two free adjacent
    base spaces (limestone ignored)."""
    code = color_code(color)
    own_exists = any(_shows(reef, j, code, 1) for j in range(len(reef.board.cells)))
    return not own_exists or not _own_colour_fits_in_level_1(reef, code)


def illegal_reason(
    reef: Reef, lumino: Lumino, a: int, b: int, exception: bool | None = None
) -> str | None:
    """Why placing ``lumino`` (number half on cell ``a``, other half on ``b``) breaks a rule, or
    None if it is legal (limestone aside: see :func:`cost`). ``exception`` may pass in
    :func:`level1_exception` when it is already known."""
    board = reef.board
    if not board.neighbors[a] >> b & 1:
        return "the two cells are not adjacent"
    h = reef.heights[a]
    if reef.heights[b] != h:
        return f"it would be tilted (levels {h} and {reef.heights[b]} below)"
    if h >= 1 and reef.top_pieces[a] == reef.top_pieces[b]:
        return "it would exactly cover one Lumino"
    if h == 0 and not _free_pair(reef, a, b):
        return "level-1 Luminos lie on base spaces"
    color = color_code(lumino.color)
    level = h + 1
    if level == 1:
        if _touches(reef, a, b, color, 1):
            return None
        if exception is None:
            exception = level1_exception(reef, lumino.color)
        if not exception:
            return f"it must touch a visible level-1 {lumino.color} space"
        if _touches(reef, a, b, None, 1):
            return None
        return "it must touch a Lumino in level 1"
    if reef.cell_colors[a] == color or reef.cell_colors[b] == color:
        return None
    if _touches(reef, a, b, color, level):
        return None
    return (f"in level {level} it must cover a {lumino.color} space or touch a {lumino.color} "
            f"space in level {level}")


def cost(reef: Reef, a: int, b: int) -> int:
    """Limestone markers to pay: one per water space covered (only on bare base spaces)."""
    if reef.heights[a] or reef.heights[b]:
        return 0
    return sum(reef.board.kinds[cell] == "W" for cell in (a, b))


def placements(reef: Reef, lumino: Lumino, limestone: int) -> list[Placement]:
    """Every legal placement of ``lumino`` with ``limestone`` markers in storage, sorted by
    (number cell, other cell); both orientations of an edge are listed separately."""
    cells = reef.board.cells
    exception = level1_exception(reef, lumino.color)
    found = []
    for a, b in reef.board.edges:
        if (illegal_reason(reef, lumino, a, b, exception) is None
                and cost(reef, a, b) <= limestone):
            found.append(Placement(lumino, cells[a], cells[b], reef.heights[a] + 1,
                                   cost(reef, a, b)))
    found.sort(key=lambda p: (p.number_cell, p.other_cell))
    return found


# ---- the reef's scores ------------------------------------------------------------------------


def visible_counts(reef: Reef) -> dict[str, int]:
    """Visible coral spaces per colour (every colour a key)."""
    return {name: reef.cell_colors.count(code) for code, name in enumerate(COLORS)}


def visible_animals(reef: Reef) -> dict[str, int]:
    """Visible animals per species (every species a key)."""
    return {name: reef.cell_animals.count(code) for code, name in enumerate(ANIMALS)}


def coral_score(reef: Reef, color: str) -> int:
    """Coral scoring of ``color``: for each level the smallest visible number on a ``color``
    space in that level (0 if none), summed over the levels."""
    code = color_code(color)
    smallest: dict[int, int] = {}
    for cell, number in enumerate(reef.cell_numbers):
        if number and reef.cell_colors[cell] == code:
            level = reef.heights[cell]
            smallest[level] = min(number, smallest.get(level, number))
    return sum(smallest.values())


def remote_penalty(reef: Reef) -> int:
    """The VP lost for visible (uncovered) remote limestone spaces, as a number >= 0."""
    return sum(p for cell, p in enumerate(reef.board.penalty) if reef.heights[cell] == 0)


# Light side: (small VP, large VP, how many neighbours the large scoring needs) per species.
LIGHT_ANIMALS = {
    "shellfish": (1, 2, 3),
    "crab": (1, 3, 4),
    "seahorse": (2, 7, 6),
    "starfish": (2, 4, 5),
}


def _light_neighbours(reef: Reef, cell: int, animal: str) -> int:
    """How many neighbours of ``cell`` meet the light-side requirement of ``animal``."""
    level = reef.heights[cell]
    board = reef.board
    count = 0
    for j in board.neighbor_cells(cell):
        h = reef.heights[j]
        if animal == "shellfish":
            count += h == 0 and board.kinds[j] == "W"
        elif animal == "crab":
            count += h == level
        elif animal == "seahorse":
            count += h > level
        else:  # starfish: coral spaces in lower levels (bare base spaces are not coral)
            count += 1 <= h < level
    return count


def light_animal_points(reef: Reef) -> list[tuple[int, str, int, int]]:
    """Light score board: every visible animal as ``(cell, species, qualifying neighbours, VP)``;
    the large scoring replaces the small one."""
    scored = []
    for cell, code in enumerate(reef.cell_animals):
        if code < 0:
            continue
        animal = ANIMALS[code]
        small, large, needed = LIGHT_ANIMALS[animal]
        count = _light_neighbours(reef, cell, animal)
        points = large if count >= needed else small if count >= 1 else 0
        scored.append((cell, animal, count, points))
    return scored
