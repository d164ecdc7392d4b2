"""Lumicora scoring: coral scorings during the game and the final scoring.

Final scoring per player (rulebook, "End of the Game" and "Variants"):

1. jellyfish: 2 VP per scoring tile turned to its jellyfish side;
2. limestone: 1 VP per pair of markers in storage (storage holds at most 10);
3. animals, dark score board: per species by the number visible, capped at 4
   (shellfish 0/1/4/8, crab 2/4/7/10, seahorse 1/6/7/12, starfish 4/8/11/14); light score board:
   each visible animal by its neighbours (see :func:`light_animal_points`);
4. colour majorities: per colour by visible spaces, most 4 VP, second 2; a tie for most gives 3
   each and no second place; a tie for second gives 1 each; no visible space of a colour, nothing;
5. B side only: minus the penalty of every visible remote limestone space.

>>> from lumicore.reef import Reef, load_board
>>> reef = Reef.build(load_board("A"), ("pink", "green"), [("pink 3 crab", (2, 5), (1, 4))])
>>> reef.coral_score("pink")
3
>>> [score] = final_scores([reef], jellyfish=[1], limestone=[5])
>>> score.jellyfish, score.limestone, score.animals, score.majorities, score.total
(2, 2, 2, 8, 14)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass

from lumicore.checks import check_type, is_integer
from lumicore.data import shorten
from lumicore.errors import LumicoreError
from lumicore.reef import reference
from lumicore.reef.reef import Reef
from lumicore.reef.values import ANIMALS, COLORS

__all__ = [
    "LIMESTONE_CAP",
    "DISCARD_VP",
    "VISIBLE_WEIGHT",
    "DARK_ANIMALS",
    "round_limestone",
    "gain_limestone",
    "dark_animal_points",
    "light_animal_points",
    "majority_points",
    "FinalScore",
    "final_scores",
    "winners",
]

LIMESTONE_CAP = 10
"""Storage spaces for limestone markers; markers beyond go back to the supply."""

DISCARD_VP = -1
"""VP for a Lumino returned to the bag because it cannot (or will not) be placed (rule 5)."""

VISIBLE_WEIGHT = 0.25
"""VP per visible coral space where one reef is valued alone (the placement objectives
``final:*``, a hand placed by :meth:`lumicore.reef.game.Game.estimate`): a stand-in for the
colour majorities, which depend on the other players' reefs (a majority is worth 2 to 4 VP and
is usually decided by a few spaces)."""

DARK_ANIMALS = reference.DARK_ANIMALS
"""Dark score board: VP for 0..4 visible animals of a species (more than 4 count as 4)."""


def round_limestone(round_number: int) -> int:
    """Limestone markers a coral scoring brings in round 1..10: 4 (rounds 1-4), 2 (5-7),
    1 (8-9), 0 (10).

    >>> [round_limestone(r) for r in range(1, 11)]
    [4, 4, 4, 4, 2, 2, 2, 1, 1, 0]
    """
    if not is_integer(round_number) or not 1 <= round_number <= 10:
        raise LumicoreError(f"bad round {shorten(round_number)} (expected 1..10)")
    return reference.round_limestone(int(round_number))


def gain_limestone(storage: int, amount: int) -> int:
    """Storage after gaining ``amount`` markers: at most :data:`LIMESTONE_CAP`, the excess is lost.

    >>> gain_limestone(7, 6)
    10
    """
    _check_count("limestone in storage", storage, LIMESTONE_CAP)
    if not is_integer(amount) or amount < 0:
        raise LumicoreError(f"bad limestone amount {shorten(amount)} (expected an integer >= 0)")
    return min(LIMESTONE_CAP, int(storage) + int(amount))


def dark_animal_points(reef: Reef) -> dict[str, int]:
    """Dark score board: VP per species for the visible animals (capped at 4 per species)."""
    counts = check_type(reef, Reef, "reef", "a Reef").visible_animals()
    return {animal: DARK_ANIMALS[animal][min(4, counts[animal])] for animal in ANIMALS}


def light_animal_points(reef: Reef) -> dict[str, int]:
    """Light score board: VP per species, each visible animal scored alone by its neighbours:
    shellfish 1 (>= 1 water neighbour) or 2 (>= 3); crab 1 (>= 1 coral neighbour in its level)
    or 3 (>= 4); seahorse 2 (>= 1 neighbour in a higher level) or 7 (6); starfish 2 (>= 1 coral
    neighbour in a lower level) or 4 (>= 5). Off-board and remote spaces are not water."""
    check_type(reef, Reef, "reef", "a Reef")
    points = dict.fromkeys(ANIMALS, 0)
    for _cell, animal, _count, vp in reference.light_animal_points(reef):
        points[animal] += vp
    return points


def majority_points(counts: Sequence[int]) -> list[int]:
    """Colour-majority VP for one colour given each player's visible spaces of it.

    >>> majority_points([6, 9, 6, 2])
    [1, 4, 1, 0]
    >>> majority_points([7, 7, 3])
    [3, 3, 0]
    >>> majority_points([0, 0])
    [0, 0]
    """
    counts = _sequence("counts", counts)
    for p, count in enumerate(counts):
        if not is_integer(count) or count < 0:
            raise LumicoreError(f"bad visible count of player {p + 1} {shorten(count)} (expected "
                                "an integer >= 0)")
    return reference.majority_points([int(count) for count in counts])


def _sequence(what: str, values: object) -> tuple:
    """``values`` as a tuple (any iterable but text); LumicoreError otherwise."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise LumicoreError(f"{what} must be a list (one per player), got {values!r:.80}")
    return tuple(values)


@dataclass(frozen=True)
class FinalScore:
    """One player's final scoring by category; ``remote_penalties`` is <= 0 (VP lost).

    ``animal_points`` and ``majority_points`` break categories 3 and 4 down by species and by
    colour; ``visible`` holds the visible spaces per colour that decided the majorities.
    """

    jellyfish: int
    limestone: int
    animals: int
    majorities: int
    remote_penalties: int
    total: int
    animal_points: dict[str, int]
    majority_points: dict[str, int]
    visible: dict[str, int]

    def as_dict(self) -> dict:
        """Plain data (for JSON)."""
        return asdict(self)


def _check_count(what: str, value: object, most: int) -> None:
    if not is_integer(value) or not 0 <= value <= most:
        raise LumicoreError(f"bad {what} {shorten(value)} (expected an integer 0..{most})")


def final_scores(
    reefs: Sequence[Reef],
    jellyfish: Sequence[int],
    limestone: Sequence[int],
    score_board: str = "dark",
    reef_side: str = "A",
) -> list[FinalScore]:
    """The final scoring of 1 to 4 players, one :class:`FinalScore` per reef, in order.

    ``jellyfish[p]``: scoring tiles player ``p`` has turned (0..4); ``limestone[p]``: markers in
    storage (0..10). ``score_board`` ``"dark"`` or ``"light"`` picks the animal scoring;
    ``reef_side="B"`` adds category 5 (the penalties drawn on each board's remote spaces).
    A single player has the most of every colour she shows (4 VP each).
    """
    reefs, jellyfish = _sequence("reefs", reefs), _sequence("jellyfish", jellyfish)
    limestone = _sequence("limestone", limestone)
    n = len(reefs)
    if not 1 <= n <= 4:
        raise LumicoreError(f"final scoring is for 1 to 4 players, got {n} reefs")
    if len(jellyfish) != n or len(limestone) != n:
        raise LumicoreError(f"{n} reefs need {n} jellyfish and limestone counts, got "
                            f"{len(jellyfish)} and {len(limestone)}")
    if score_board not in ("dark", "light"):
        raise LumicoreError(f"bad score_board {score_board!r} (expected 'dark' or 'light')")
    if reef_side not in ("A", "B"):
        raise LumicoreError(f"bad reef_side {reef_side!r} (expected 'A' or 'B')")
    for p in range(n):
        if not isinstance(reefs[p], Reef):
            raise LumicoreError(f"player {p + 1}: {reefs[p]!r} is not a Reef")
        _check_count(f"jellyfish count of player {p + 1}", jellyfish[p], len(COLORS))
        _check_count(f"limestone of player {p + 1}", limestone[p], LIMESTONE_CAP)
    jellyfish, limestone = [int(j) for j in jellyfish], [int(v) for v in limestone]
    visible = [reef.visible_counts() for reef in reefs]
    majorities = [dict.fromkeys(COLORS, 0) for _ in reefs]
    for color in COLORS:
        for p, vp in enumerate(majority_points([v[color] for v in visible])):
            majorities[p][color] = vp
    animal_points = dark_animal_points if score_board == "dark" else light_animal_points
    scores = []
    for p, reef in enumerate(reefs):
        animals = animal_points(reef)
        remote = -reef.remote_penalty() if reef_side == "B" else 0
        parts = (2 * jellyfish[p], limestone[p] // 2, sum(animals.values()),
                 sum(majorities[p].values()), remote)
        scores.append(FinalScore(*parts, sum(parts), animals, majorities[p], visible[p]))
    return scores


def winners(scores: Sequence[FinalScore], limestone: Sequence[int],
            points_before: Sequence[int] | None = None) -> list[int]:
    """The winning players' indices: the most VP (``points_before`` from the game plus the final
    scoring), ties broken by the most limestone in storage; still tied, all of them share.

    >>> from lumicore.reef import load_board
    >>> reefs = [Reef.new(load_board("A"), ("pink", "green"))] * 2
    >>> scores = final_scores(reefs, jellyfish=[1, 1], limestone=[4, 5])
    >>> scores[0].total == scores[1].total
    True
    >>> winners(scores, limestone=[4, 5], points_before=[10, 10])
    [1]
    """
    scores, limestone = _sequence("scores", scores), _sequence("limestone", limestone)
    before = (_sequence("points_before", points_before) if points_before is not None
              else (0,) * len(scores))
    if not scores or not len(scores) == len(limestone) == len(before):
        raise LumicoreError(f"winners needs one score, limestone count and points_before per "
                            f"player, got {len(scores)}, {len(limestone)} and {len(before)}")
    if not all(isinstance(s, FinalScore) for s in scores):
        raise LumicoreError("winners needs the FinalScore of each player (see final_scores)")
    if not all(is_integer(v) for v in limestone + before):
        raise LumicoreError("limestone and points_before must be integers")
    keys = [(s.total + int(b), int(stone))
            for s, b, stone in zip(scores, before, limestone, strict=True)]
    best = max(keys)
    return [p for p, key in enumerate(keys) if key == best]
