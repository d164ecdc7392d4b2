"""The command sheet alone as a solitaire under dice: how many chain gains (identical +
sequence: reinforcements plus move / activate / glow choices) a selection and bubble are worth
over the rest of the game.

Each round two dice are rolled (21 outcomes) and the player writes one selection's value in a
legal bubble, within the selection limits. The opponent is left out: in later rounds every
selection with uses left may be taken (in the current round, the one the first player took is
excluded as in the game). Two methods:

- ``"exact"``: when at most ``depth`` rounds are left (the current one included), an
  expectimax over every roll of the later rounds and every choice, if it ends within half of
  ``time_limit`` (else Monte Carlo answers in the time left);
- ``"monte carlo"``: before that, play-outs of the remaining rounds after each choice, every
  later round taking the largest immediate gain (ties at random), until ``time_limit`` (even
  within the first round of play-outs: a choice not reached has none; with none at all the
  status is ``limit``); the value is the mean total gain with a 95% normal interval.

>>> from lumicore.lumen.game import GameState
>>> state = GameState.new_game()
>>> state.apply_action(0)
>>> while state.is_chance_node(): state.apply_action(0)
>>> state.round = 17
>>> result = solitaire_choice(state)
>>> result.method, result.status, result.best.value >= 0
('exact', 'optimal', True)
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence

import numpy as np
from tqdm import tqdm

from lumicore.checks import check_int, check_real, check_type
from lumicore.data import shorten
from lumicore.errors import LumicoreError, SearchLimitError
from lumicore.lumen import kernel
from lumicore.lumen.dice import ROLLS, SELECTIONS, selections
from lumicore.lumen.game import GameState, check_seed
from lumicore.lumen.sheet import Sheet
from lumicore.lumen.units import MAX_ROUNDS
from solvers.ctrl_c import check, noting
from solvers.limits import (
    FEASIBLE,
    INTERRUPTED,
    LIMIT,
    OPTIMAL,
    REASON_INTERRUPTED,
    REASON_TIME,
    check_limits,
)
from solvers.lumen.planner import Choice, ChoiceResult, search_bar
from solvers.progress import check_progress

__all__ = ["solitaire_choice", "sheet_value", "DEFAULT_DEPTH"]

DEFAULT_DEPTH = 2
"""Rounds left (the current one included) up to which the answer is exact."""
_Z95 = 1.959963984540054


class _OutOfTime(Exception):
    pass


def _options(sheet: Sheet, uses: tuple[int, ...], limits: tuple[int, ...], dice: tuple[int, int],
             taken: int = -1) -> list[tuple[int, int, int, tuple[int, ...]]]:
    """Every (selection, bubble, gain, new uses as a tuple) for one roll."""
    values = selections(*dice)
    free = [s for s in range(len(SELECTIONS)) if s != taken and uses[s] < limits[s]]
    if not free:
        return []
    wanted = sorted({values[SELECTIONS[s]] for s in free})
    table, cells = kernel.gains_all(sheet, wanted)
    out = []
    for s in free:
        column = wanted.index(values[SELECTIONS[s]])
        new_uses = uses[:s] + (uses[s] + 1,) + uses[s + 1:]
        for row, cell in enumerate(cells.tolist()):
            out.append((s, cell, int(table[row, column].sum()), new_uses))
    return out


def sheet_value(sheet: Sheet, uses: tuple[int, ...], limits: tuple[int, ...], rounds: int,
                memo: dict | None = None, deadline: float | None = None) -> float:
    """The expected chain gains of ``rounds`` more rounds played best (an exact expectimax
    over the 21 rolls of each). As in the game, a value must be written whenever a selection
    with uses left gives one for a legal bubble: a round is passed only when none does.
    ``uses`` and ``limits``: the uses so far and the limit of each selection (five counts).
    ``memo`` (a dict) keeps the values found for another call with the same ``limits``;
    ``deadline`` (a ``time.perf_counter()`` time): a :class:`SearchLimitError` once it has
    passed.

    >>> round(sheet_value(Sheet.parse("3 ."), (0, 0, 0, 0, 0), (1, 1, 1, 1, 1), 1), 4)
    1.6667
    """
    check_type(sheet, Sheet, "sheet", "a Lumen Sheet")
    uses, limits = _counts(uses, "uses"), _counts(limits, "limits")
    rounds = check_int(rounds, "rounds", 0, MAX_ROUNDS)
    memo = {} if memo is None else check_type(memo, dict, "memo", "a dict or None")
    if deadline is not None:
        check_real(deadline, "deadline", "a time.perf_counter() time or None")
    try:
        return _sheet_value(sheet, uses, limits, rounds, memo, deadline)
    except _OutOfTime:
        raise SearchLimitError(f"the deadline {deadline} passed before the value was found "
                               "(the values found are in memo)") from None


def _counts(values: object, name: str) -> tuple[int, ...]:
    """A count per selection, each from 0 to the most bubbles a sheet has."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) \
            or len(values) != len(SELECTIONS):
        raise LumicoreError(f"{name} must be {len(SELECTIONS)} counts, one a selection, "
                            f"got {shorten(values)}")
    return tuple(check_int(v, name, 0, MAX_ROUNDS) for v in values)


def _sheet_value(sheet: Sheet, uses: tuple[int, ...], limits: tuple[int, ...], rounds: int,
                 memo: dict, deadline: float | None) -> float:
    """:func:`sheet_value` on checked arguments."""
    if rounds <= 0:
        return 0.0
    key = (sheet.values, uses, rounds)
    if key in memo:
        return memo[key]
    if deadline is not None and time.perf_counter() > deadline:
        raise _OutOfTime
    total = 0.0
    for dice, p in ROLLS:
        options = _options(sheet, uses, limits, dice)
        if not options:  # a player passes only when nothing may be written
            total += p * _sheet_value(sheet, uses, limits, rounds - 1, memo, deadline)
            continue
        best = -1.0
        for s, cell, gain, new_uses in options:
            after = _sheet_value(_write(sheet, cell, dice, s), new_uses, limits, rounds - 1,
                                 memo, deadline) if rounds > 1 else 0.0
            best = max(best, gain + after)
        total += p * best
    memo[key] = total
    return total


def _write(sheet: Sheet, cell: int, dice: tuple[int, int], s: int) -> Sheet:
    value = selections(*dice)[SELECTIONS[s]]
    return Sheet(sheet.layout, sheet.values[:cell] + (value,) + sheet.values[cell + 1:])


def _greedy_rest(sheet: Sheet, uses: tuple[int, ...], limits: tuple[int, ...], rounds: int,
                 rng: np.random.Generator) -> int:
    total = 0
    for _ in range(rounds):
        a, b = int(rng.integers(1, 7)), int(rng.integers(1, 7))
        options = _options(sheet, uses, limits, (min(a, b), max(a, b)))
        if not options:
            continue
        top = max(o[2] for o in options)
        best = [o for o in options if o[2] == top]
        s, cell, gain, uses = best[int(rng.integers(len(best)))]
        sheet = _write(sheet, cell, (min(a, b), max(a, b)), s)
        total += gain
    return total


PASS = (None, None)
"""The (selection, bubble) of a round passed: nothing written."""


@noting()
def solitaire_choice(state: GameState, time_limit: float | None = 2.0, seed: int = 0,
                     depth: int = DEFAULT_DEPTH, min_samples: int = 1,
                     progress: bool | None = False) -> ChoiceResult:
    """Rank the selections and bubbles of the player choosing in ``state`` by expected chain
    gains over the rest of the game (module docstring). ``progress`` shows a progress line
    (None: on a terminal only)."""
    check_type(state, GameState, "state", "a Lumen GameState")
    if state.phase != "choose":
        raise LumicoreError("the sheet objective needs a position where a player chooses a "
                            "selection and a bubble")
    check_limits(None, time_limit)
    seed = check_seed(seed)
    depth = check_int(depth, "depth", 1, what="a positive integer")
    min_samples = check_int(min_samples, "min_samples", 1, what="a positive integer")
    check_progress(progress)
    with search_bar(progress) as bar:
        return _rank(state, time_limit, seed, depth, min_samples, bar)


def _rank(state: GameState, time_limit: float | None, seed: int, depth: int, min_samples: int,
          bar: tqdm) -> ChoiceResult:
    """:func:`solitaire_choice` on checked arguments, counting its nodes on ``bar``."""
    start = time.perf_counter()
    p = state.current_player()
    limits = tuple(state.board.limits[s] for s in SELECTIONS)
    uses = tuple(state.uses[p])
    first_pick = state.picks[state.first]
    taken = first_pick[0] if p != state.first and first_pick else -1
    sheet, rest = state.sheets[p], state.board.rounds - state.round
    index = {m[1:]: a for a, m in enumerate(state.moves()) if m[0] == "choose"}
    # an option: (selection, bubble, gain, uses after), the pass's selection and bubble None
    options: Sequence[tuple[int | None, int | None, int, tuple[int, ...]]]
    options = _options(sheet, uses, limits, state.dice, taken)
    if not options:  # nothing to write: the pass (its only action), the rounds after it stay
        index[PASS] = 0
        options = [(*PASS, 0, uses)]
    names = {o[:2]: state.action_to_string(index[o[:2]]) for o in options}

    def after(s: int | None, cell: int | None) -> Sheet:
        return sheet if s is None or cell is None else _write(sheet, cell, state.dice, s)

    if rest + 1 <= depth:
        memo: dict = {}
        choices = []
        half = None if time_limit is None else start + time_limit / 2
        try:
            for s, cell, gain, new_uses in options:
                v = gain + _sheet_value(after(s, cell), new_uses, limits, rest, memo, half)
                choices.append(Choice(index[(s, cell)], names[(s, cell)], v, v, v))
                bar.update(len(memo) - bar.n)  # the positions valued so far
        except _OutOfTime:
            choices = []  # Monte Carlo answers in the time left
        except KeyboardInterrupt:
            return ChoiceResult(p, "exact", INTERRUPTED, [], REASON_INTERRUPTED, len(memo),
                                time.perf_counter() - start)
        if choices:
            choices.sort(key=lambda c: -c.value)
            return ChoiceResult(p, "exact", OPTIMAL, choices, None, len(memo),
                                time.perf_counter() - start)
    sums = [[0.0, 0.0] for _ in options]
    counts = [0] * len(options)
    n, status, reason = 0, FEASIBLE, None
    deadline = None if time_limit is None else start + time_limit
    try:
        # without a limit exactly min_samples rounds; with one, rounds until it passes, even
        # in the middle of the first round (a first round of a whole game's play-outs took
        # several times a short limit): a choice not reached yet has no play-out
        while deadline is not None or n < min_samples:
            check()
            for j, (s, cell, gain, new_uses) in enumerate(options):
                if deadline is not None and time.perf_counter() > deadline:
                    raise _OutOfTime
                rng = np.random.default_rng([seed, n])
                v = gain + _greedy_rest(after(s, cell), new_uses, limits, rest, rng)
                sums[j][0] += v
                sums[j][1] += v * v
                counts[j] += 1
                bar.update(1)  # play-outs, after the exact search's positions if any
            n += 1
    except _OutOfTime:
        reason = REASON_TIME
    except KeyboardInterrupt:
        status, reason = INTERRUPTED, REASON_INTERRUPTED
    if not any(counts) and status != INTERRUPTED:  # the set-up or the exact search took it all
        status = LIMIT
    choices = []
    for (s, cell, _, _), (total, squares), k in zip(options, sums, counts, strict=True):
        mean = total / max(k, 1)
        if k >= 2:  # the sample deviation; one play-out says nothing of the spread
            sd = math.sqrt(max((squares - k * mean * mean) / (k - 1), 0.0))
            low, high = mean - _Z95 * sd / math.sqrt(k), mean + _Z95 * sd / math.sqrt(k)
        else:
            low, high = -math.inf, math.inf
        choices.append(Choice(index[(s, cell)], names[(s, cell)], mean, low, high, k))
    choices.sort(key=lambda c: (-c.value, -c.samples))
    return ChoiceResult(p, "monte carlo", status, choices, reason, sum(counts),
                        time.perf_counter() - start)
