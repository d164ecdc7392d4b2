"""Small statistics shared by win rates, tournaments and win probabilities.

>>> low, high = wilson(50, 100)
>>> round(low, 3), round(high, 3)
(0.404, 0.596)
>>> wilson(0, 0)
(0.0, 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, TypeGuard

from lumicore.checks import check_int, check_real
from lumicore.data import shorten
from lumicore.errors import LumicoreError

__all__ = ["wilson", "plackett_luce"]


def wilson(successes: float, trials: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a success rate; (0, 1) with no trials.

    >>> wilson(0, 30)[0], wilson(30, 30)[1]
    (0.0, 1.0)
    """
    trials = check_int(trials, "trials")
    successes = check_real(successes, "successes")
    z = check_real(z, "z", "a finite number >= 0", at_least=0)
    if trials <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= trials:
        raise LumicoreError(f"successes must be a number from 0 to {trials}, "
                            f"got {shorten(successes)}")
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    # exact at the ends: the interval holds its own estimate (rounding left 1.7e-18 above 0)
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def plackett_luce(ranking_games: list[list[tuple[str, float]]], names: list[str] | None = None
                  ) -> dict[str, dict[str, float]]:
    """openskill Plackett-Luce ratings from games given as ``[(player, result), ...]`` (higher
    result is better; equal results tie), rated in the order given. Returns per player its
    ``mu``, ``sigma`` and ``ordinal`` (mu - 3 sigma, the conservative skill). A player holding
    several seats of one game is rated from each seat, each from its rating before the game,
    and the updates averaged (each seat is its own copy of that rating: openskill rates one
    object given for several seats once, for all of them together).

    >>> r = plackett_luce([[("a", 1.0), ("b", 0.0)]] * 3)
    >>> r["a"]["mu"] > 25 > r["b"]["mu"]
    True
    """
    from openskill.models import PlackettLuce

    _check_rankings(ranking_games, names)

    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in names or []}
    for game in ranking_games:
        for name, _ in game:
            ratings.setdefault(name, model.rating(name=name))
        results = [result for _, result in game]
        ranks: list[float] = [sum(other > r for other in results) for r in results]
        rated = model.rate([[model.rating(mu=ratings[name].mu, sigma=ratings[name].sigma,
                                          name=name)] for name, _ in game], ranks=ranks)
        updates: dict[str, list] = {}
        for (name, _), (new,) in zip(game, rated, strict=True):
            updates.setdefault(name, []).append(new)
        for name, news in updates.items():
            ratings[name] = model.rating(mu=sum(n.mu for n in news) / len(news),
                                         sigma=sum(n.sigma for n in news) / len(news), name=name)
    return {name: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()}
            for name, r in ratings.items()}


def _is_list(value: object) -> TypeGuard[Sequence[Any]]:
    """Whether ``value`` is a list or tuple (a string is none here)."""
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


def _check_rankings(ranking_games: object, names: object) -> None:
    """:class:`LumicoreError` naming the argument unless ``ranking_games`` is a list of games,
    each a list of ``(name, result)`` pairs (a string and a finite number), and ``names`` is
    None or a list of strings."""
    if not _is_list(ranking_games):
        raise LumicoreError(f"ranking_games must be a list of games, got {shorten(ranking_games)}")
    for game in ranking_games:
        if not _is_list(game) or not all(
                _is_list(pair) and len(pair) == 2 and isinstance(pair[0], str)
                and not isinstance(pair[1], bool) and isinstance(pair[1], (int, float))
                and math.isfinite(pair[1]) for pair in game):
            raise LumicoreError("ranking_games must hold lists of (name, result) pairs, got "
                                f"{shorten(game)}")
    if names is not None and (not _is_list(names) or not all(isinstance(n, str) for n in names)):
        raise LumicoreError(f"names must be None or a list of names, got {shorten(names)}")
