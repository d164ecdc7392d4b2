"""The reef rules in plain Python: placement legality and the reef's scores.

This is the specification the Cython kernel (``lumicore.reef.kernel``) is tested against; it favours
reading like the rulebook over speed. Cells are cell indices of ``reef.board``.

A placement of a Lumino of colour ``c`` with its halves on adjacent cells ``a`` and ``b`` is legal
when (the rulebook's "Establishing Corals", read as docs/reef.md says):

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

from collections.abc import Sequence
from typing import Protocol

from lumicore.reef.board import Board
from lumicore.reef.decisions import Orient, Place, Return, Score, Skip, Turn
from lumicore.reef.values import ANIMALS, COLORS, Lumino, Placement, StartLumino, color_code

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


class ReefView(Protocol):
    """What the rules here read of a reef: a :class:`lumicore.reef.Reef`, or the mutable stack
    a turn is replayed on."""

    @property
    def board(self) -> Board: ...
    @property
    def heights(self) -> Sequence[int]: ...
    @property
    def top_pieces(self) -> Sequence[int]: ...
    @property
    def cell_colors(self) -> Sequence[int]: ...
    @property
    def cell_numbers(self) -> Sequence[int]: ...
    @property
    def cell_animals(self) -> Sequence[int]: ...


def _touched(reef: ReefView, a: int, b: int) -> list[int]:
    """The cells adjacent to ``a`` or ``b`` (not ``a`` and ``b`` themselves)."""
    return [j for j in range(len(reef.board.cells))
            if (reef.board.neighbors[a] | reef.board.neighbors[b]) >> j & 1 and j not in (a, b)]


def _shows(reef: ReefView, cell: int, color: int, level: int) -> bool:
    """Whether ``cell`` shows a coral space of colour code ``color`` in ``level``."""
    return reef.heights[cell] == level and reef.cell_colors[cell] == color


def _touches(reef: ReefView, a: int, b: int, color: int | None, level: int) -> bool:
    """Whether the pair touches a visible space in ``level`` (of ``color``; None = any colour)."""
    return any(reef.heights[j] == level and (color is None or reef.cell_colors[j] == color)
               for j in _touched(reef, a, b))


def _free_pair(reef: ReefView, a: int, b: int) -> bool:
    base = reef.board.base_mask
    return reef.heights[a] == reef.heights[b] == 0 and bool(base >> a & 1) and bool(base >> b & 1)


def _own_colour_fits_in_level_1(reef: ReefView, color: int) -> bool:
    """Whether some Lumino of ``color`` could touch a visible level-1 space of its colour on two
    free adjacent base spaces (limestone ignored)."""
    return any(_free_pair(reef, a, b) and _touches(reef, a, b, color, 1)
               for a, b in reef.board.edges)


def level1_exception(reef: ReefView, color: str) -> bool:
    """Whether a Lumino of ``color`` may touch *any* visible level-1 space (rule 1's exception):
    no visible level-1 space of its colour, or none that a Lumino could touch on two free adjacent
    base spaces (limestone ignored)."""
    code = color_code(color)
    own_exists = any(_shows(reef, j, code, 1) for j in range(len(reef.board.cells)))
    return not own_exists or not _own_colour_fits_in_level_1(reef, code)


def illegal_reason(
    reef: ReefView, lumino: Lumino, a: int, b: int, exception: bool | None = None
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


def cost(reef: ReefView, a: int, b: int) -> int:
    """Limestone markers to pay: one per water space covered (only on bare base spaces)."""
    if reef.heights[a] or reef.heights[b]:
        return 0
    return sum(reef.board.kinds[cell] == "W" for cell in (a, b))


def placements(reef: ReefView, lumino: Lumino, limestone: int) -> list[Placement]:
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


def visible_counts(reef: ReefView) -> dict[str, int]:
    """Visible coral spaces per colour (every colour a key)."""
    return {name: reef.cell_colors.count(code) for code, name in enumerate(COLORS)}


def visible_animals(reef: ReefView) -> dict[str, int]:
    """Visible animals per species (every species a key)."""
    return {name: reef.cell_animals.count(code) for code, name in enumerate(ANIMALS)}


def coral_score(reef: ReefView, color: str) -> int:
    """Coral scoring of ``color``: for each level the smallest visible number on a ``color``
    space in that level (0 if none), summed over the levels."""
    code = color_code(color)
    smallest: dict[int, int] = {}
    for cell, number in enumerate(reef.cell_numbers):
        if number and reef.cell_colors[cell] == code:
            level = reef.heights[cell]
            smallest[level] = min(number, smallest.get(level, number))
    return sum(smallest.values())


def remote_penalty(reef: ReefView) -> int:
    """The VP lost for visible (uncovered) remote limestone spaces, as a number >= 0."""
    return sum(p for cell, p in enumerate(reef.board.penalty) if reef.heights[cell] == 0)


# Light side: (small VP, large VP, how many neighbours the large scoring needs) per species.
LIGHT_ANIMALS = {
    "shellfish": (1, 2, 3),
    "crab": (1, 3, 4),
    "seahorse": (2, 7, 6),
    "starfish": (2, 4, 5),
}


def _light_neighbours(reef: ReefView, cell: int, animal: str) -> int:
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


def light_animal_points(reef: ReefView) -> list[tuple[int, str, int, int]]:
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


# ---- whole random games (the twin of the kernel's play-out loop) ------------------------------

DARK_ANIMALS: dict[str, tuple[int, int, int, int, int]] = {
    "shellfish": (0, 0, 1, 4, 8),
    "crab": (0, 2, 4, 7, 10),
    "seahorse": (0, 1, 6, 7, 12),
    "starfish": (0, 4, 8, 11, 14),
}
"""Dark score board: VP for 0..4 visible animals of a species (more than 4 count as 4)."""
MASK64 = (1 << 64) - 1
POLICY_SALT = 0x5DEECE66D
"""The play-out policy's generator is seeded with ``seed ^ POLICY_SALT`` (draws use ``seed``)."""


def splitmix64(state: int) -> tuple[int, int]:
    """One step of splitmix64: ``(new state, output)``."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


class _Rng:
    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def below(self, n: int) -> int:
        self.state, out = splitmix64(self.state)
        return out % n


class _Stack:
    """A mutable reef with the attributes the rules above read (board and per-cell lists)."""

    def __init__(self, board: Board, start: StartLumino) -> None:
        n = len(board.cells)
        self.board = board
        self.heights, self.top_pieces = [0] * n, [-1] * n
        self.cell_colors, self.cell_numbers, self.cell_animals = [-1] * n, [0] * n, [-1] * n
        self.pieces = 0
        a, b = board.start_cells
        self.put(a, b, start.color_a, start.color_b, 0, None)

    def put(self, a: int, b: int, color_a: str, color_b: str, number: int,
            animal: str | None) -> None:
        level = self.heights[a] + 1
        for cell, color in ((a, color_a), (b, color_b)):
            self.heights[cell], self.top_pieces[cell] = level, self.pieces
            self.cell_colors[cell], self.cell_numbers[cell] = color_code(color), 0
            self.cell_animals[cell] = -1
        self.cell_numbers[a] = number
        self.cell_animals[b] = ANIMALS.index(animal) if animal else -1
        self.pieces += 1


def majority_points(counts: Sequence[int]) -> list[int]:
    """Colour-majority VP for one colour from each player's visible spaces of it: most 4,
    second 2; a tie for most 3 each and no second; a tie for second 1 each; none, nothing."""
    present = sorted({c for c in counts if c > 0}, reverse=True)
    if not present:
        return [0] * len(counts)
    first = [c == present[0] for c in counts]
    if sum(first) > 1:
        return [3 if f else 0 for f in first]
    if len(present) == 1:
        return [4 if f else 0 for f in first]
    second = [c == present[1] for c in counts]
    vp_second = 1 if sum(second) > 1 else 2
    return [4 if f else vp_second if s else 0 for f, s in zip(first, second, strict=True)]


def round_limestone(round_number: int) -> int:
    """Limestone a coral scoring brings in round 1..10: 4 (1-4), 2 (5-7), 1 (8-9), 0 (10)."""
    return 4 if round_number <= 4 else 2 if round_number <= 7 else 1 if round_number <= 9 else 0


def playout(players: int, seed: int, board: Board, luminos: Sequence[Lumino],
            starts: Sequence[StartLumino], emergency: int, light: bool = False,
            penalties: bool = False) -> dict:
    """A whole game played by the random play-out policy, stated plainly (the kernel's
    ``playout`` must give the same game for the same arguments).

    Draws are the game's: splitmix64 from ``seed``, a tile from those returned to the bag or,
    uniformly, from the never-drawn ones (the emergency stack is the last ``emergency`` of
    those); ``luminos`` is the bag's contents. The policy (its own generator, ``seed ^
    POLICY_SALT``): orient the start at random; put a random display tile; action A, B or C at
    random (B takes a random display tile; C a random other colour in the Atoll and 1 to 3 of its
    tiles one by one at random; an impossible B or C becomes A); place each tile of the hand in
    order on a random legal placement, or return it when there is none; in each scoring phase
    score a random coral tile or skip (one chance in tiles left + 1); never spend jellyfish.

    Returns ``totals``, ``vp``, ``limestone``, ``jellyfish`` per player, ``rounds`` and the
    ``decisions`` as the game prints them (a record :class:`lumicore.reef.game.Game` replays).
    """
    chance, policy = _Rng(seed), _Rng(seed ^ POLICY_SALT)
    kinds = sorted(set(luminos), key=lambda t: (color_code(t.color), t.number or 0,
                                                  ANIMALS.index(t.animal) if t.animal else -1))
    unseen = [sum(1 for t in luminos if t == k) for k in kinds]
    returned = [0] * len(kinds)
    bag = {"left": len(luminos) - emergency, "emergency": emergency}
    state = {"round": 1, "ending": False, "extra": False}
    decisions: list[str] = []

    def draw() -> Lumino | None:
        if bag["left"] == 0:
            bag["left"], bag["emergency"] = bag["emergency"], 0
            if state["round"] < 10 and not state["extra"]:
                state["ending"] = True
        if bag["left"] == 0:
            return None
        r, counts = chance.below(bag["left"]), returned
        if r >= sum(returned):
            r, counts = chance.below(sum(unseen)), unseen
        k = 0
        while r >= counts[k]:
            r -= counts[k]
            k += 1
        (returned if returned[k] else unseen)[k] -= 1
        bag["left"] -= 1
        return kinds[k]

    def fill(place: list[Lumino], count: int) -> bool:
        for _ in range(count):
            tile = draw()
            if tile is None:
                return False
            place.append(tile)
        return True

    pool = list(starts)
    dealt = []
    for _ in range(players):
        dealt.append(pool.pop(chance.below(len(pool))))
    reefs = []
    for start in dealt:
        if policy.below(2):
            start = StartLumino(start.color_b, start.color_a)
        decisions.append(str(Orient(start)))
        reefs.append(_Stack(board, start))
    displays: list[list[Lumino]] = [[] for _ in range(players)]
    atoll: list[Lumino] = []
    for p in range(players):
        fill(displays[p], 4)
    fill(atoll, 4)
    limestone, vp, jellyfish = [0] * players, [0] * players, [0] * players
    coral = [list(COLORS) for _ in range(players)]
    octopus = 0
    while True:
        if not state["extra"]:
            for k in range(players):
                p = (octopus + k) % players
                hand = _policy_turn(policy, displays[p], atoll, limestone, p, decisions)
                fill(atoll, max(0, 4 - len(atoll)))
                for tile in hand:
                    options = placements(reefs[p], tile, limestone[p])
                    if options:
                        chosen = options[policy.below(len(options))]
                        decisions.append(str(Place(chosen)))
                        a = board.index[chosen.number_cell]
                        b = board.index[chosen.other_cell]
                        reefs[p].put(a, b, tile.color, tile.color, tile.number or 0, tile.animal)
                        limestone[p] -= chosen.cost
                    else:
                        decisions.append(str(Return(tile)))
                        vp[p] -= 1
                        returned[kinds.index(tile)] += 1
                        bag["left"] += 1
        order = [(octopus + k) % players for k in range(players)]
        for p in order:
            if not fill(displays[p], 4 - len(displays[p])):
                break
        last = None
        for p in order:
            r = policy.below(len(coral[p]) + 1)
            if r < len(coral[p]):
                color = coral[p].pop(r)
                gained = coral_score(reefs[p], color)
                decisions.append(str(Score(color, gained)))
                vp[p] += gained
                jellyfish[p] += 1
                limestone[p] = min(10, limestone[p] + round_limestone(state["round"]))
                last = p
            else:
                decisions.append(str(Skip()))
        if last is not None:
            octopus = last
        if state["extra"] or (state["round"] >= 10 and not state["ending"]):
            break
        state["round"] += 1
        if state["ending"]:
            state["extra"] = True
    visible = [visible_counts(r) for r in reefs]
    majorities = [0] * players
    for color in COLORS:
        for p, points in enumerate(majority_points([v[color] for v in visible])):
            majorities[p] += points
    totals = []
    for p, reef in enumerate(reefs):
        if light:
            animals = sum(points for *_, points in light_animal_points(reef))
        else:
            animals = sum(DARK_ANIMALS[a][min(4, n)] for a, n in visible_animals(reef).items())
        total = 2 * jellyfish[p] + limestone[p] // 2 + animals + majorities[p]
        totals.append(vp[p] + total - (remote_penalty(reef) if penalties else 0))
    return {"totals": totals, "vp": vp, "limestone": limestone, "jellyfish": jellyfish,
            "rounds": state["round"], "decisions": decisions}


def _policy_turn(policy: _Rng, display: list[Lumino], atoll: list[Lumino], limestone: list[int],
                 p: int, decisions: list[str]) -> list[Lumino]:
    """Steps 1 and 2 of a play-out turn; returns the hand."""
    put = display.pop(policy.below(len(display))) if display else None
    if put is not None:
        atoll.append(put)
    action = policy.below(3)
    colors = [c for c in COLORS if (put is None or c != put.color)
              and any(t.color == c for t in atoll)]
    if (action == 1 and not display) or (action == 2 and not colors):
        action = 0
    hand: list[Lumino] = []
    if action == 0:
        number = (put.number or 0) if put else 0
        limestone[p] = min(10, limestone[p] + number)
    elif action == 1:
        hand.append(display.pop(policy.below(len(display))))
    else:
        color = colors[policy.below(len(colors))]
        count = sum(t.color == color for t in atoll)
        for _ in range(1 + policy.below(min(3, count))):
            same = [i for i, t in enumerate(atoll) if t.color == color]
            hand.append(atoll.pop(same[policy.below(len(same))]))
    decisions.append(str(Turn(put, "ABC"[action], _sorted(hand),
                              (put.number or 0) if put and action == 0 else 0)))
    return hand


def _sorted(tiles: list[Lumino]) -> tuple[Lumino, ...]:
    return tuple(sorted(tiles, key=lambda t: (color_code(t.color), t.number or 0,
                                              ANIMALS.index(t.animal) if t.animal else -1)))
