"""Pattern databases in plain Python: the executable spec the kernel's ``pdb_build`` and
``pdb_ranks`` are tested against (small trains only).

Every abstract train of the shape is listed, its abstract plays are made with the reference rules
(:mod:`lumicore.lucia.reference`) on abstract cards, and a breadth-first search *backwards*
along those plays from the abstract goals gives each one's distance. (The kernel searches
forwards from the goals instead, relying on every abstract play being undoable; this twin does
not assume it.)

>>> from lumicore.lucia import load_deck
>>> dist = abstract_distances(4, (1, 0, 1), load_deck().kinds, "LSGT")
>>> dist[(5, 0, 2, 3)], dist[(3, 0, 2, 5)]
(0, 3)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from itertools import permutations

from lumicore.lucia import reference
from lumicore.lucia.cards import Card
from lumicore.lucia.notation import GINGER, LUCIA0, STARBOY, TOMTEN
from lumicore.lucia.pdb import ABSTRACTIONS, BLANK, abstract_card

__all__ = ["abstract_trains", "is_abstract_goal", "abstract_distances"]

_CODE = {"S": STARBOY, "G": GINGER, "T": TOMTEN}


def abstract_trains(length: int, counts: Sequence[int], abstraction: str
                    ) -> list[tuple[int, ...]]:
    """Every legal abstract train: one Lucia (``L0``), the kept roles' kids, blanks."""
    kids = [LUCIA0]
    for role, count in zip(ABSTRACTIONS[abstraction], counts, strict=True):
        kids += [_CODE[role]] * count
    kids += [BLANK] * (length - len(kids))
    return sorted(t for t in set(permutations(kids)) if reference.restriction_ok(t))


def is_abstract_goal(kids: tuple[int, ...]) -> bool:
    """Lucia in front and every Starboy behind every other kid (lights are not tracked)."""
    m = kids.count(STARBOY)
    return kids[0] == LUCIA0 and all(c == STARBOY for c in kids[len(kids) - m:])


def abstract_distances(length: int, counts: Sequence[int], cards: Sequence[Card],
                       abstraction: str) -> dict[tuple[int, ...], float]:
    """Fewest abstract plays from each abstract train to an abstract goal (inf: none)."""
    trains = abstract_trains(length, counts, abstraction)
    kinds = [a for a in (abstract_card(c, abstraction) for c in cards) if a is not None]
    into: dict[tuple[int, ...], set[tuple[int, ...]]] = {t: set() for t in trains}
    for t in trains:
        for card in kinds:
            for after in reference.successors(t, card, lucia_partial=True):
                into[after].add(t)
    dist = {t: float("inf") for t in trains}
    queue = deque(t for t in trains if is_abstract_goal(t))
    for t in queue:
        dist[t] = 0
    while queue:
        t = queue.popleft()
        for before in into[t]:
            if dist[before] == float("inf"):
                dist[before] = dist[t] + 1
                queue.append(before)
    return dist
