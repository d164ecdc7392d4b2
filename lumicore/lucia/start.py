"""Starting trains: the rulebook's setup (star groups, shuffled, then the fix-up rule), random
goal trains, and scrambles (a puzzle generator).

>>> str(random_train(seed=7)) == str(random_train(seed=7))
True
>>> from lumicore.lucia.notation import format_codes
>>> format_codes(fix_up(parse_codes("S S S G G h L0")))
'S S S h G G L0'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from math import factorial, prod
from numbers import Integral
from pathlib import Path
from typing import Any

import numpy as np

from lumicore.checks import SEED_LIMIT, check_int, check_known_keys
from lumicore.checks import check_seed as _check_int_seed
from lumicore.data import naming_source, read_toml, shorten
from lumicore.errors import DataError, LumicoreError
from lumicore.lucia import reference
from lumicore.lucia.cards import Card, Deck, load_deck
from lumicore.lucia.notation import (
    GINGER,
    H_LIT,
    H_UNLIT,
    LUCIA5,
    STARBOY,
    format_codes,
    is_lucia,
    parse_codes,
)
from lumicore.lucia.train import DEFAULT_RULES, Rules, Train, check_cards, check_rules

__all__ = ["Setup", "load_setup", "fix_up", "random_train", "random_goal", "scramble",
           "BUILTIN_SETUPS", "check_seed", "MAX_SEED", "MAX_SCRAMBLE_DEPTH"]

BUILTIN_SETUPS = {"default": "lucia_setup.toml"}
"""Built-in setups by name, as :func:`load_setup` takes them."""

Seed = int | np.random.Generator | None


MAX_SEED = SEED_LIMIT
"""Seeds are integers ``0 <= seed < MAX_SEED`` (or a numpy Generator, or None for fresh entropy)."""
MAX_SCRAMBLE_DEPTH = 10_000
"""The deepest scramble: each step costs a few milliseconds of reference-rule work, and far
shallower scrambles already give puzzles beyond optimal search."""


def check_seed(seed: Any) -> None:
    """Raise :class:`LumicoreError` unless ``seed`` is None, a numpy Generator or an integer
    in ``0 .. 2**63 - 1``."""
    if seed is not None and not isinstance(seed, np.random.Generator):
        _check_int_seed(seed)


def _rng(seed: Seed) -> np.random.Generator:
    check_seed(seed)
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


@dataclass(frozen=True)
class Setup:
    """The star groups, front to back; each is shuffled and laid out in turn."""

    groups: tuple[tuple[int, ...], ...]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Setup:
        """A setup from a parsed setup file: ``[[group]]`` tables of ``stars`` (an integer,
        optional; groups are laid out by increasing stars) and ``kids`` (train notation).

        >>> Setup.from_dict({"group": [{"stars": 2, "kids": "h"}, {"stars": 1, "kids": "L0"}]})
        Setup(groups=((5,), (0,)))
        >>> Setup.from_dict({"group": [{"stars": "x", "kids": "L0"}]})
        Traceback (most recent call last):
        ...
        lumicore.errors.DataError: group #1: 'stars' must be an integer, got 'x'
        """
        if not isinstance(data, Mapping):
            raise DataError(f"a setup is a table of [[group]] tables, got {shorten(data)}")
        check_known_keys(data, ("group",), "a setup file")
        tables = data.get("group")
        if not isinstance(tables, list) or not tables:
            raise DataError("a setup file needs [[group]] tables")
        stars = []
        for i, table in enumerate(tables):
            where = f"group #{i + 1}"
            if not isinstance(table, Mapping):
                raise DataError(f"{where}: expected a table, got {shorten(table)}")
            check_known_keys(table, ("kids", "stars"), where)
            star = table.get("stars", 0)
            if isinstance(star, bool) or not isinstance(star, int):
                raise DataError(f"{where}: 'stars' must be an integer, got {shorten(star)}")
            if not isinstance(table.get("kids"), str):
                raise DataError(f"{where}: 'kids' must be a train notation string")
            stars.append(star)
        groups = []
        for i in sorted(range(len(tables)), key=stars.__getitem__):
            try:
                groups.append(parse_codes(tables[i]["kids"]))
            except LumicoreError as exc:
                raise DataError(f"group #{i + 1}: {exc}") from exc
        kids = sum(groups, ())
        if sum(map(is_lucia, kids)) != 1 or not 1 <= len(kids) <= 16:
            raise DataError("the setup groups must hold 1..16 kids with exactly one Lucia")
        stuck = _stuck_deal(tuple(groups))
        if stuck is not None:
            raise DataError(f"the setup cannot separate Gingerbreads from Starboys when the "
                            f"groups are dealt as {format_codes(stuck)}")
        return cls(tuple(groups))


DEALS_CHECKED = 20_000
"""A setup with at most this many distinct deals has every deal checked by :func:`fix_up` when
it is loaded; one with more has this many random deals checked (seeded: the same each time)."""


@lru_cache(maxsize=64)
def _stuck_deal(groups: tuple[tuple[int, ...], ...]) -> tuple[int, ...] | None:
    """A deal of ``groups`` (each shuffled, in turn) that :func:`fix_up` cannot separate, if
    one is found."""
    count = prod(factorial(len(g)) // prod(map(factorial, Counter(g).values())) for g in groups)
    if count <= DEALS_CHECKED:
        deals: Iterable[tuple[int, ...]] = (
            sum(parts, ()) for parts in product(*map(_orders, groups)))
    else:
        rng = np.random.default_rng(0)
        deals = (sum((tuple(g[i] for i in rng.permutation(len(g))) for g in groups), ())
                 for _ in range(DEALS_CHECKED))
    for deal in deals:
        if _fix_up(deal) is None:
            return deal
    return None


def _orders(group: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every distinct order of the kids of ``group`` (twins are interchangeable)."""
    if not group:
        return [()]
    return [(first, *rest) for first in sorted(set(group))
            for rest in _orders(_without(group, first))]


def _without(group: tuple[int, ...], kid: int) -> tuple[int, ...]:
    i = group.index(kid)
    return group[:i] + group[i + 1:]


def load_setup(name_or_path: str | Path = "default") -> Setup:
    """The built-in setup (``"default"``, from lucia_setup.toml) or a user's TOML file."""
    data = read_toml(name_or_path, BUILTIN_SETUPS)
    with naming_source(name_or_path):
        return Setup.from_dict(data)


def _first_conflict(row: Sequence[int]) -> int | None:
    for i in range(len(row) - 1):
        if {row[i], row[i + 1]} == {GINGER, STARBOY}:
            return i
    return None


def _kid_codes(codes: object) -> tuple[int, ...]:
    """``codes`` as a tuple of kid codes (0..LUCIA5, see :mod:`lumicore.lucia.reference`), else a
    LumicoreError naming the first bad one."""
    if isinstance(codes, (str, bytes)) or not isinstance(codes, Iterable):
        raise LumicoreError(f"kids are kid codes 0..{LUCIA5} (Train.parse(text).codes), got "
                            f"{shorten(codes)}")
    row = tuple(codes)
    for pos, code in enumerate(row):
        if isinstance(code, bool) or not isinstance(code, Integral) or not 0 <= int(code) <= LUCIA5:
            raise LumicoreError(f"kid {pos}: {shorten(code)} is not a kid code 0..{LUCIA5}")
    return tuple(int(c) for c in row)


def fix_up(codes: Sequence[int]) -> tuple[int, ...]:
    """The setup's fix: while a Gingerbread stands next to a Starboy, the back kid of the first
    such pair steps one place back (or, when it is last, the front kid steps one place front).

    A step that would swap two kids of the same code changes nothing (the rulebook's cards are
    interchangeable), so the step is taken by the last twin of the run: ``S G G h`` becomes
    ``S G h G`` (docs/lucia.md, "Setup").
    """
    row = _kid_codes(codes)
    if not row:
        raise LumicoreError("codes must hold a train's kid codes, got none")
    fixed = _fix_up(row)
    if fixed is None:
        raise DataError(f"the setup cannot separate Gingerbreads from Starboys in "
                        f"{format_codes(row)}")
    return fixed


def _fix_up(codes: tuple[int, ...]) -> tuple[int, ...] | None:
    """:func:`fix_up` of valid kid codes; None where the steps go round in a cycle."""
    row = list(codes)
    for _ in range(4 * len(row) ** 2):
        i = _first_conflict(row)
        if i is None:
            return tuple(row)
        back = i + 1
        while back + 1 < len(row) and row[back + 1] == row[back]:
            back += 1
        if back + 1 < len(row):
            row[back], row[back + 1] = row[back + 1], row[back]
            continue
        front = i
        while front > 0 and row[front - 1] == row[front]:
            front -= 1
        if front == 0:
            break
        row[front - 1], row[front] = row[front], row[front - 1]
    return None


def random_train(seed: Seed = None, setup: str | Path | Setup = "default") -> Train:
    """A starting train as the rulebook deals it: each star group shuffled, then :func:`fix_up`.

    >>> train = random_train(seed=1)
    >>> len(train), train.lucia_position, train.candles, train.is_standard
    (16, 15, 0, True)
    """
    groups = (setup if isinstance(setup, Setup) else load_setup(setup)).groups
    rng = _rng(seed)
    codes: list[int] = []
    for group in groups:
        codes += [group[i] for i in rng.permutation(len(group))]
    return Train(fix_up(codes))


def random_goal(seed: Seed = None, kids: Sequence[int] | None = None) -> Train:
    """A random goal train with the kids of the default setup (or of ``kids``): Lucia in front
    with 5 candles, Starboys at the back, the others shuffled in between, everything lit."""
    rng = _rng(seed)
    kids = _kid_codes(kids) if kids is not None else sum(load_setup().groups, ())
    middle = [H_LIT if c == H_UNLIT else c for c in kids if not is_lucia(c) and c != STARBOY]
    starboys = [STARBOY] * sum(c == STARBOY for c in kids)
    for _ in range(1000):
        order = [middle[i] for i in rng.permutation(len(middle))]
        codes = (LUCIA5, *order, *starboys)
        if reference.restriction_ok(codes):
            return Train(codes)
    raise DataError("no goal train without a Gingerbread next to a Starboy exists for these kids")


def scramble(depth: int, seed: Seed = None, cards: Sequence[Card] | Deck | None = None,
             start: Train | str | None = None, rules: Rules = DEFAULT_RULES) -> Train:
    """A puzzle: ``depth`` random plays from a goal train (``start``, default a random goal).

    Plays that only reshuffle the middle of the train change nothing that matters, so each step
    picks at random among the successors that are new to the walk (neither visited nor one play
    from a visited train) and have the largest heuristic estimate (:mod:`lumicore.lucia.heuristic`)
    short of "goal out of reach" (a walk where every play leads out of reach stops early).
    The optimal solution is often close to ``depth`` but may be shorter or longer.

    >>> scramble(0, seed=3).is_goal()
    True
    """
    from lumicore.lucia.heuristic import INF, build_table, estimate

    depth = check_int(depth, "depth", 0, MAX_SCRAMBLE_DEPTH)
    check_rules(rules)
    if isinstance(start, str):
        start = Train.parse(start, rules)
    elif start is not None and not isinstance(start, Train):
        raise LumicoreError(f"start must be a Train or its notation, got {shorten(start)}")
    rng = _rng(seed)
    if cards is None:
        kinds = load_deck().kinds
    elif isinstance(cards, Deck):
        kinds = cards.kinds
    elif isinstance(cards, Card):
        kinds = (cards,)
    else:
        kinds = tuple(dict.fromkeys(check_cards("cards", cards, "lumicore.lucia.Card objects")))
    if not kinds:
        raise LumicoreError("scramble needs at least one card (cards=None: the default deck)")
    if not all(isinstance(c, Card) for c in kinds):
        raise LumicoreError(f"cards must be lumicore.lucia.Card objects, got {shorten(kinds)}")
    train = start if start is not None else random_goal(rng)
    table = build_table(kinds, train)
    near = {train}
    for _ in range(depth):
        options = {t for card in kinds for t in train.successors(card, rules)}
        fresh = sorted(options - near, key=lambda t: t.codes) or sorted(options,
                                                                        key=lambda t: t.codes)
        if not fresh:
            break
        scored = [(t, h) for t in fresh if (h := estimate(t, table)) < INF]
        if not scored:  # every play leads where the goal is out of reach: stay solvable
            break
        top = max(h for _, h in scored)  # INF, "proven dead", was the largest before
        best = [t for t, h in scored if h == top]
        near |= options
        train = best[int(rng.integers(len(best)))]
    return train
