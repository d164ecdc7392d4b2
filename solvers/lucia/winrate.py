"""How often is Lucia winnable? Solve many seeded deals exactly (Solvitaire-style win rates).

Deal ``k`` of a run with ``seed`` S is ``deal(S + k, players, setup, deck)`` (so ``lumicore lucia
deal --seed S+k`` shows it). Limits are their own bucket: the rate is winnable / (winnable +
unwinnable), with a 95% Wilson interval, and ``low_all_limits_lost`` / ``high_all_limits_won``
bound it as if every limit had been a loss or a win. The jobs run through
:func:`solvers.batch.run_batch` (a local process pool, or a Dask cluster).

>>> result = win_rate(deals=2, seed=4, workers=1, max_nodes=20_000)
>>> result.deals, result.winnable + result.unwinnable + result.limit
(2, 2)
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import statistics
import warnings
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from lumicore.checks import (
    SEED_LIMIT,
    Choice,
    Int,
    Maybe,
    Spec,
    Text,
    Where,
    check_fields,
    check_int,
    check_type,
)
from lumicore.data import OutputFile, read_file, shorten
from lumicore.errors import DataError, LumicoreError
from lumicore.lucia.cards import Deck
from lumicore.lucia.deal import check_players, check_seed, deal, game_deck
from lumicore.lucia.start import Setup, load_setup
from solvers.batch import check_workers, naming_job, run_batch
from solvers.ctrl_c import check, noting
from solvers.limits import (
    DONE,
    INTERRUPTED,
    LIMIT,
    REASON_INTERRUPTED,
    REASON_MEMORY,
    REASON_NODES,
    REASON_TIME,
    UNWINNABLE,
    WINNABLE,
    check_limits,
)
from solvers.lucia.deal import DEFAULT_DEAL_NODES, solve_deal
from solvers.stats import wilson

__all__ = ["win_rate", "WinRate", "DealOutcome", "DEFAULT_TIME_LIMIT", "MAX_DEALS",
           "read_outcomes"]

DEFAULT_TIME_LIMIT = 10.0
"""Seconds per deal."""


@dataclass(frozen=True)
class DealOutcome:
    """One solved deal: a line of ``--out`` files."""

    seed: int
    players: int
    status: str
    cost: int | None
    nodes: int
    elapsed: float
    reason: str | None = None
    game: str | None = None
    """The deck and setup dealt from (:func:`game_key`): a resumed run counts only the lines of
    its own; None in files written before it was recorded, which are solved again."""


def game_key(cards: Deck, setup: Setup) -> str:
    """A short fingerprint of a deck and a setup: the same cards (their names and actions) and
    groups, the same key."""
    text = json.dumps([[c.to_dict() for c in cards.cards], repr(setup.groups)], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class _Job:
    seed: int
    players: int
    deck: Deck
    setup: Setup
    time_limit: float | None
    max_nodes: int | None
    game: str


def _name(_index: int, job: _Job) -> str:
    """The deal of ``job`` as an error names it: ``"deal 17"`` (its seed)."""
    return f"deal {job.seed}"


def _solve(job: _Job) -> DealOutcome:
    """One deal (a top-level function, so worker processes can run it); an error names the deal
    by its seed (:func:`solvers.batch.naming_job`)."""
    with naming_job(_name(0, job)):
        d = deal(job.seed, job.players, job.setup, job.deck)
        r = solve_deal(d, max_nodes=job.max_nodes, time_limit=job.time_limit)
    return DealOutcome(job.seed, job.players, r.status, r.cost, r.nodes, round(r.elapsed, 4),
                       r.reason, job.game)


@dataclass
class WinRate:
    """Counts and rates of a win-rate run (``status`` ``"done"`` or ``"interrupted"``)."""

    deals: int
    players: int
    seed: int
    deck: str
    winnable: int = 0
    unwinnable: int = 0
    limit: int = 0
    times: list[float] = field(default_factory=list, repr=False)
    status: str = DONE

    @property
    def solved(self) -> int:
        return self.winnable + self.unwinnable + self.limit

    @property
    def rate(self) -> float:
        """winnable / (winnable + unwinnable); NaN before any deal was decided."""
        decided = self.winnable + self.unwinnable
        return self.winnable / decided if decided else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.winnable, self.winnable + self.unwinnable)

    @property
    def low(self) -> float:
        return self.interval[0]

    @property
    def high(self) -> float:
        return self.interval[1]

    @property
    def low_all_limits_lost(self) -> float:
        """The interval's low end if every limit were an unwinnable deal."""
        return wilson(self.winnable, self.solved)[0]

    @property
    def high_all_limits_won(self) -> float:
        """The interval's high end if every limit were a winnable deal."""
        return wilson(self.winnable + self.limit, self.solved)[1]

    @property
    def median_time(self) -> float:
        return statistics.median(self.times) if self.times else math.nan

    @property
    def worst_time(self) -> float:
        return max(self.times, default=math.nan)

    def add(self, outcome: DealOutcome) -> None:
        if outcome.status == "winnable":
            self.winnable += 1
        elif outcome.status == "unwinnable":
            self.unwinnable += 1
        else:
            self.limit += 1
        self.times.append(outcome.elapsed)

    def to_dict(self) -> dict[str, Any]:
        def num(x: float) -> float | None:
            return None if math.isnan(x) else round(x, 6)

        return {"winnable": self.winnable, "unwinnable": self.unwinnable, "limit": self.limit,
                "rate": num(self.rate), "low": num(self.low), "high": num(self.high),
                "low_all_limits_lost": num(self.low_all_limits_lost),
                "high_all_limits_won": num(self.high_all_limits_won),
                "median_time": num(self.median_time), "worst_time": num(self.worst_time),
                "deals": self.deals, "solved": self.solved, "players": self.players,
                "seed": self.seed, "deck": self.deck, "status": self.status}

    def __str__(self) -> str:
        d = self.to_dict()
        rate = "-" if d["rate"] is None else f"{d['rate']:.1%} [{d['low']:.1%}, {d['high']:.1%}]"
        return (f"deals: {self.solved}/{self.deals}  winnable: {self.winnable}  unwinnable: "
                f"{self.unwinnable}  limit: {self.limit}\nrate: {rate} (95% Wilson)  "
                f"all limits lost/won: [{self.low_all_limits_lost:.1%}, "
                f"{self.high_all_limits_won:.1%}]\nsolve time: median "
                f"{self.median_time:.3f} s, worst {self.worst_time:.3f} s  ({self.status})")


_OUTCOME_FIELDS = {
    "seed": Int(0, SEED_LIMIT - 1), "players": Int(1, 4),
    "status": Choice(WINNABLE, UNWINNABLE, LIMIT, INTERRUPTED), "cost": Maybe(Int(0)),
    "nodes": Int(0),
    "elapsed": Where(Spec(), lambda v: type(v) in (int, float) and 0 <= v < math.inf,
                     "a number of seconds >= 0"),
    "reason": Maybe(Choice(REASON_NODES, REASON_TIME, REASON_MEMORY, REASON_INTERRUPTED)),
    "game": Maybe(Text(limit=100)),
}
"""What each field of an ``--out`` line must be (read by :func:`read_outcomes`)."""


def read_outcomes(path: str | Path) -> list[DealOutcome]:
    """The outcomes already in an ``--out`` file (for resuming); a bad line raises DataError
    naming it."""
    return _read_outcomes(path, False)[0]


_LINE_START = '{"seed": '
"""How every line :func:`win_rate` writes starts (``json.dumps`` of a :class:`DealOutcome`)."""


def _read_outcomes(path: str | Path, resuming: bool) -> tuple[list[DealOutcome], int | None]:
    """The outcomes of an ``--out`` file and, with ``resuming``, where to cut it: the offset
    (in bytes) of a last line cut short, else None. Such a line has no newline, starts as
    :func:`win_rate` starts its lines but is not whole JSON: a run killed, or a disk filled,
    while writing it. Any other bad line raises DataError naming it."""
    check_type(path, (str, os.PathLike), "path", "a file path")
    if not Path(path).exists():
        return [], None
    text = read_file(path)
    lines = text.splitlines()
    out = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            if isinstance(data, dict):  # lines written before 'reason' and 'game' lack them
                data = {"reason": None, "game": None, **data}
            out.append(DealOutcome(**check_fields(data, _OUTCOME_FIELDS, "deal outcome")))
        except (TypeError, ValueError, RecursionError) as exc:
            if (resuming and isinstance(exc, json.JSONDecodeError) and number == len(lines)
                    and not text.endswith(("\n", "\r")) and line.startswith(_LINE_START)):
                return out, Path(path).stat().st_size - len(line.encode("utf-8"))
            # a RecursionError as lumicore.checks.read_json names it
            why = (" (nested too deeply)" if isinstance(exc, RecursionError)
                   else f" ({str(exc)[:120]})" if isinstance(exc, DataError) else "")
            raise DataError(f"{shorten(path)} line {number} is not a deal outcome: "
                            f"{shorten(line, 40)}{why}") from exc
    return out, None


def _resume(out: str | Path, sink: OutputFile) -> list[DealOutcome]:
    """The outcomes in ``out`` (open and locked as ``sink``), its end made ready for more: a
    last line cut short (:func:`_read_outcomes`) is cut off with a RuntimeWarning, and a last
    line without its newline gets one, so that the next outcome starts a line of its own."""
    outcomes, cut = _read_outcomes(out, True)
    if cut is not None:
        sink.truncate(cut)
        warnings.warn(f"{shorten(out)}: its last line was cut short (a run stopped while "
                      "writing it) and is dropped; that deal is solved again", RuntimeWarning,
                      stacklevel=3)
    elif _last_byte(out) not in (b"", b"\n", b"\r"):
        sink.write("\n")
    return outcomes


def _last_byte(path: str | Path) -> bytes:
    """The last byte of the file ``path`` (b"" when it is empty or cannot be read)."""
    try:
        with open(path, "rb") as handle:
            if handle.seek(0, 2) == 0:
                return b""
            handle.seek(-1, 2)
            return handle.read(1)
    except OSError:
        return b""


MAX_DEALS = 1_000_000
"""The most deals one :func:`win_rate` solves: each deal's job is made before the first is
solved (2**63 deals filled the memory before any deal was solved, as a tournament of 10**30
games did)."""


@noting()
def win_rate(deals: int = 1000, seed: int = 0, players: int = 1,
             time_limit: float | None = DEFAULT_TIME_LIMIT, workers: int | None = None,
             backend: str = "process", scheduler: str | None = None,
             deck: str | Path | Deck = "default", setup: str | Path | Setup = "default",
             max_nodes: int | None = DEFAULT_DEAL_NODES, out: str | Path | None = None,
             on_outcome: Callable[[WinRate], Any] | None = None) -> WinRate:
    """Solve the seeded deals ``seed .. seed + deals - 1`` and count them.

    ``time_limit`` is per deal (seconds); ``workers`` defaults to the machine's cores. With
    ``out``, each outcome is appended to that file as one JSON line, and outcomes already in it
    (same seeds, players, deck and setup) are counted instead of solved again, so an
    interrupted run resumes (a last line cut short by a run that stopped while writing it is
    dropped with a RuntimeWarning). The file is locked for the run: a second run writing it is
    refused at once with an OutputError (no lock on Windows).
    ``on_outcome(result)`` is called after each deal (progress bars). Ctrl-C returns the partial
    result with ``status == "interrupted"``.
    """
    deals = check_int(deals, "deals", 1, MAX_DEALS, f"an integer from 1 to {MAX_DEALS:,}")
    players = check_players(players)
    seed = check_seed(seed, SEED_LIMIT - deals + 1,
                      f"seed (of {deals} deals: seed + {deals - 1} is a seed too)")
    check_limits(max_nodes, time_limit)
    check_workers(workers, backend)
    if out is not None and not isinstance(out, (str, Path)):
        raise LumicoreError(f"out must be a file name, got {shorten(out)}")
    if on_outcome is not None and not callable(on_outcome):
        raise LumicoreError(f"on_outcome must be callable, got {shorten(on_outcome)}")
    cards = game_deck(deck)
    groups = setup if isinstance(setup, Setup) else load_setup(setup)
    name = str(deck) if not isinstance(deck, Deck) else "custom"
    result = WinRate(deals, players, seed, name)
    wanted = set(range(seed, seed + deals))
    done: set[int] = set()
    game = game_key(cards, groups)
    # locked before it is read: a second run on the file is refused, not solving the same deals
    sink = None if out is None else OutputFile(out, "a", lock=True)
    batch: Iterable = ()
    try:
        for o in _resume(out, sink) if out is not None and sink is not None else ():
            if o.seed in wanted and o.players == players and o.game == game \
                    and o.seed not in done and o.status != "interrupted":
                done.add(o.seed)
                result.add(o)
        jobs = [_Job(s, players, cards, groups, time_limit, max_nodes, game)
                for s in range(seed, seed + deals) if s not in done]
        batch = run_batch(_solve, jobs, workers=workers, backend=backend, scheduler=scheduler,
                          name=_name)
        for _, outcome in batch:
            check()
            if outcome.status == "interrupted":
                result.status = "interrupted"
                break
            result.add(outcome)
            if sink is not None:
                sink.write(json.dumps(asdict(outcome)) + "\n")
            if on_outcome is not None:
                on_outcome(result)
    except KeyboardInterrupt:
        result.status = "interrupted"
    finally:
        close = getattr(batch, "close", None)
        if close is not None:
            close()
        if sink is not None:
            sink.close()
    if result.solved < deals and result.status == DONE:
        result.status = "interrupted"
    return result
