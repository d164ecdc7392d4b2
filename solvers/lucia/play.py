"""Which card should I play? Best play with a hidden deck (perfect-information Monte Carlo).

The player knows the train, their hand and the multiset of cards not yet seen (the deck and,
with several players, the others' hands), not where they are. :func:`best_play` samples orders of
the unseen cards, solves each sampled game exactly from every legal play (the kernel's deal
search, one search per sample shared by all plays), and ranks the plays by the share of samples
they win, with a 95% Wilson interval. :func:`play_game` plays a whole deal with a policy
(:func:`best_play` or :func:`greedy_play`, the play with the best heuristic value).

>>> from lumicore.lucia import Action, Card, Train
>>> light, lucia = Card((Action.light("T"),)), Card((Action.lucia(),))
>>> ranking = best_play(Train.parse("H L4 T"), [light, lucia], [light], samples=4)
>>> str(ranking.best.play), ranking.best.wins, ranking.best.trials
('light from T: T 2 lights => H L5 T', 4, 4)
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from lumicore.checks import SEED_LIMIT, check_int, is_integer
from lumicore.errors import LumicoreError
from lumicore.lucia import kernel
from lumicore.lucia.cards import Card
from lumicore.lucia.deal import Deal, check_players, check_seed, heuristic_table
from lumicore.lucia.deal_reference import after_play, plays
from lumicore.lucia.heuristic import deficits, estimate
from lumicore.lucia.train import DEFAULT_RULES, Play, Rules, Train, as_train, check_cards
from solvers.batch import default_workers, run_batch, worker_count
from solvers.limits import REASON_INTERRUPTED, check_limits
from solvers.progress import check_callback
from solvers.stats import wilson

__all__ = ["best_play", "check_sampling", "greedy_play", "play_game", "PlayEstimate", "Ranking",
           "GameRecord", "DEFAULT_SAMPLES", "SAMPLE_NODES"]

DEFAULT_SAMPLES = 200
"""Default number of sampled orders of the unseen cards :func:`best_play` and :func:`play_game`
weigh each play on (``lumicore lucia play --samples``)."""
SAMPLE_NODES = 20_000
"""Default cap on the positions searched for one play in one sampled game; a play whose search
runs out counts as not won in that sample (``undecided``), so an estimate is the share of
samples in which a win was found: a lower bound on the perfect-information win rate."""


@dataclass(frozen=True)
class PlayEstimate:
    """One legal play and its estimated win probability: ``wins`` of ``trials`` samples (of
    which ``undecided`` were cut by the node limit and count as not won), with the 95% Wilson
    interval ``low``..``high``."""

    play: Play
    wins: int
    trials: int
    undecided: int = 0

    @property
    def card(self) -> Card:
        return self.play.card

    @property
    def rate(self) -> float:
        return self.wins / self.trials if self.trials else 0.0

    @property
    def low(self) -> float:
        return wilson(self.wins, self.trials)[0]

    @property
    def high(self) -> float:
        return wilson(self.wins, self.trials)[1]

    def __str__(self) -> str:
        return (f"{self.play}  {self.rate:.0%} [{self.low:.0%}, {self.high:.0%}] "
                f"({self.wins}/{self.trials})")


@dataclass(frozen=True)
class Ranking:
    """The legal plays, best first (by estimated win rate, then by the interval's low end)."""

    plays: list[PlayEstimate]
    samples: int
    elapsed: float

    @property
    def best(self) -> PlayEstimate:
        if not self.plays:
            raise LumicoreError("no card of the hand can be played")
        return self.plays[0]


def _others(unseen: list[Card], players: int, hand_sizes: Sequence[int] | None) -> list[int]:
    if hand_sizes is None:
        sizes, left = [], len(unseen)
        for _ in range(players - 1):
            sizes.append(min(3, left))
            left -= sizes[-1]
        return sizes
    sizes = list(hand_sizes) if isinstance(hand_sizes, (list, tuple)) else []
    if len(sizes) != players - 1 or any(not is_integer(s) or not 0 <= s <= 3 for s in sizes) \
            or sum(sizes) > len(unseen):
        raise LumicoreError(f"hand_sizes must give the {players - 1} other players' hand sizes "
                            f"(0..3, at most the unseen cards), got {hand_sizes!r}")
    return sizes


def best_play(train: Train | str, hand: Sequence[Card], unseen: Iterable[Card] | Counter,
              players: int = 1, samples: int = DEFAULT_SAMPLES, seed: int = 0,
              time_limit: float | None = None, max_nodes: int | None = SAMPLE_NODES,
              hand_sizes: Sequence[int] | None = None,
              rules: Rules = DEFAULT_RULES,
              progress: Callable[[int, int], object] | None = None,
              workers: int | None = 1) -> Ranking:
    """Rank the mover's plays by the estimated probability that the players can still win.

    ``unseen``: the cards not yet seen (a sequence or a Counter; their order does not matter, the
    samples are drawn from them in one order of their own). With ``players > 1`` the other
    players' hands come first from each sampled order, in turn order after the mover (sizes
    ``hand_sizes``, default 3 each or as many as there are unseen cards), then the deck.
    ``time_limit`` (seconds) caps the whole call: samples not started by then are skipped, and
    the sample it cuts short is dropped (``Ranking.samples`` counts the whole ones);
    ``max_nodes`` caps the search of each play in each sample (see :data:`SAMPLE_NODES`).
    Ctrl-C raises ``KeyboardInterrupt`` (the kernel search stops on it at once).
    ``progress(done, samples)`` is called after each sample (a progress line).
    ``workers`` processes share the samples (None: the machine's cores); the samples are drawn
    here, so the ranking is the same for any number of workers (without a time limit). They are
    drawn as they are searched (in waves of runs with workers), so ``samples`` has no upper
    bound: memory does not grow with it and the time limit stops the drawing too.
    """
    train = as_train(train, rules)
    hand, players, seed = list(check_cards("hand", hand)), check_players(players), check_seed(seed)
    pool = list(unseen.elements()) if isinstance(unseen, Counter) else list(
        check_cards("unseen", unseen))
    if not all(isinstance(c, Card) for c in [*hand, *pool]):
        raise LumicoreError("hand and unseen must hold lumicore.lucia.Card objects")
    # The samples are drawn from the pool's order: in a canonical order they depend on which
    # cards are unseen, not on how they were listed (lucia play lists the deck in its order).
    pool.sort(key=lambda card: sorted(map(str, card.actions)))
    if len(hand) > 3:
        raise LumicoreError(f"a hand holds at most 3 cards, got {len(hand)}")
    samples = check_sampling(samples, max_nodes, time_limit)
    check_callback(progress)
    workers = worker_count(workers, default_workers)
    sizes = _others(pool, players, hand_sizes)
    clock = time.perf_counter()
    options = plays(train, hand, rules)
    kinds = tuple(dict.fromkeys([*hand, *pool]))
    index = {c: i for i, c in enumerate(kinds)}
    # drawn one at a time as the searches take them: a large ``samples`` costs neither memory
    # nor time before the limit is looked at (drawing them all first took 32 s for 10**6)
    deals = _draw_samples(np.random.default_rng(seed), [index[c] for c in pool],
                          [index[c] for c in hand], sizes, samples if options else 0)
    limit = kernel.deal_node_limit(max_nodes)
    if workers == 1 or samples <= 1:
        def left() -> float | None:
            return None if time_limit is None else time_limit - (time.perf_counter() - clock)
        outcomes = _search_samples(train, kinds, rules, limit, left, deals)
    else:
        end = None if time_limit is None else time.time() + time_limit - (
            time.perf_counter() - clock)
        outcomes = _search_in_workers(train, kinds, rules, limit, end, deals, samples, workers)
    wins: Counter[tuple[Card, Train]] = Counter()
    trials: Counter[tuple[Card, Train]] = Counter()
    undecided: Counter[tuple[Card, Train]] = Counter()
    done = 0
    for found in outcomes:
        for kind, packed, code in found:
            key = (kinds[kind], Train.from_packed(packed))
            trials[key] += 1
            wins[key] += code == 1
            undecided[key] += code in (2, 3)
        done += 1
        if progress is not None:
            progress(done, samples)
    estimates = [PlayEstimate(_play(train, card, after, rules), wins[(card, after)],
                              trials[(card, after)], undecided[(card, after)])
                 for card, after in options]
    estimates.sort(key=lambda e: (-e.rate, -e.low, progress_score(e.play.train)))
    return Ranking(estimates, done, time.perf_counter() - clock)


SampledDeal = tuple[list[int], list[list[int]]]
"""One sampled game: the deck (card kinds, top first) and every hand, the mover's first."""
Found = list[tuple[int, int, int]]
"""One sample's outcome: (card kind, packed train after the play, result code) for each play."""


def _sampled_deal(rng: np.random.Generator, pool: list[int], hand: list[int],
                  sizes: list[int]) -> SampledDeal:
    """An order of the unseen cards ``pool`` dealt into the other hands (``sizes``) and the
    deck behind them."""
    order = [pool[i] for i in rng.permutation(len(pool))]
    hands, start = [hand], 0
    for size in sizes:
        hands.append(order[start:start + size])
        start += size
    return order[start:], hands


def _draw_samples(rng: np.random.Generator, pool: list[int], hand: list[int],
                  sizes: list[int], count: int) -> Iterator[SampledDeal]:
    """``count`` samples (:func:`_sampled_deal`), drawn from ``rng`` only as they are taken."""
    for _ in range(count):
        yield _sampled_deal(rng, pool, hand, sizes)


def _search_samples(train: Train, kinds: tuple[Card, ...], rules: Rules, limit: int,
                    left: Callable[[], float | None], deals: Iterable[SampledDeal]
                    ) -> Iterator[Found]:
    """Each sampled game's outcome, in order, until ``left()`` (seconds, None: no limit) runs
    out: the sample it cuts short is dropped (its plays after the cut would count as lost)."""
    search = None
    for deck, hands in deals:
        # one search (its transposition table, 24 MB) for all the samples, dealt each anew
        if search is None:
            search = kernel.deal_search(train, kinds, deck, hands, heuristic_table(kinds, train),
                                        rules)
        else:
            kernel.redeal(search, len(kinds), deck, hands)
        seconds = left()
        if seconds is not None and seconds <= 0:  # the set-up took the time: no sample starts
            return
        found, why = search.children(train.packed, limit, kernel.deal_deadline(seconds))
        if kernel.DEAL_REASONS[why] == REASON_INTERRUPTED:
            raise KeyboardInterrupt  # the kernel took Ctrl-C (and cleared it) to stop
        if kernel.DEAL_REASONS[why] == "time":
            return
        yield found


def _sample_job(job: tuple[Train, tuple[Card, ...], Rules, int, float | None, list[SampledDeal]]
                ) -> list[Found]:
    """A worker's share of the samples; ``end`` is a :func:`time.time` deadline (a clock every
    process reads alike)."""
    train, kinds, rules, limit, end, deals = job
    return list(_search_samples(train, kinds, rules, limit,
                                lambda: None if end is None else end - time.time(), deals))


def _search_in_workers(train: Train, kinds: tuple[Card, ...], rules: Rules, limit: int,
                       end: float | None, deals: Iterator[SampledDeal], samples: int,
                       workers: int) -> Iterator[Found]:
    """:func:`_search_samples` spread over ``workers`` processes, in runs of consecutive
    samples (a few per worker, for the progress line and an even load); the outcomes come in
    the order the runs end, and a run cut by the time limit ends with the last sample it
    finished. ``deals`` holds ``samples`` samples, drawn a wave of runs at a time
    (:func:`_waves`); no wave is drawn or started once ``end`` has passed."""
    size = _run_size(samples, workers)
    first = 0
    for wave in _waves(deals, samples, workers, end):
        jobs = [(train, kinds, rules, limit, end, run) for run in wave]

        def name(i: int, _job: object, at: int = first) -> str:
            return f"samples {at + i * size + 1}.."

        for _, found in run_batch(_sample_job, jobs, workers=workers, name=name):
            yield from found
        first += sum(map(len, wave))


SHARES = 8
"""With several workers, each takes about this many runs of consecutive samples..."""
SHORTEST_RUN = 4
"""... of at least this many samples (a run builds its own search: a 24 MB table)..."""
LONGEST_RUN = 256
"""... and at most this many: at most ``workers * SHARES`` runs (a wave) are drawn and sent at a
time, so memory does not grow with ``samples`` (a sample is about 0.6 kB)."""


def _run_size(samples: int, workers: int) -> int:
    """The samples of one run of :func:`_search_in_workers`."""
    return max(SHORTEST_RUN, min(-(-samples // (workers * SHARES)), LONGEST_RUN))


def _waves(deals: Iterator[SampledDeal], samples: int, workers: int, end: float | None
           ) -> Iterator[list[list[SampledDeal]]]:
    """The runs of ``samples`` samples taken from ``deals``, ``workers * SHARES`` runs a wave
    (all of them in one wave up to ``workers * SHARES * LONGEST_RUN`` samples). Drawing stops
    as soon as the :func:`time.time` deadline ``end`` has passed (checked between draws): the
    wave under way is then dropped, as its runs would start after the deadline."""
    size = _run_size(samples, workers)
    wave: list[list[SampledDeal]] = []
    run: list[SampledDeal] = []
    for deal in deals:
        if end is not None and time.time() >= end:
            return
        run.append(deal)
        if len(run) == size:
            wave.append(run)
            run = []
            if len(wave) == workers * SHARES:
                yield wave
                wave = []
    if run:
        wave.append(run)
    if wave:
        yield wave


def check_sampling(samples: object, max_nodes: int | None, time_limit: float | None) -> int:
    """``samples`` as an int; :class:`LumicoreError` for a bad sample count or search limit (of
    :func:`best_play` and the policies built on it)."""
    samples = check_int(samples, "samples", 1, what="a positive integer")
    check_limits(max_nodes, time_limit)
    return samples


def progress_score(train: Train) -> int:
    """``8a + 2u + d + l`` over the deficits of :mod:`lumicore.lucia.heuristic` (lower is
    closer to the goal): the deal search's order of plays, and the tie-break of rankings."""
    a, u, d, l_ = deficits(train)
    return 8 * a + 2 * u + d + l_


def _play(train: Train, card: Card, after: Train, rules: Rules) -> Play:
    return next(p for p in train.plays(card, rules) if p.train == after)


def greedy_play(train: Train | str, hand: Sequence[Card], kinds: Sequence[Card] | None = None,
                rules: Rules = DEFAULT_RULES) -> Play | None:
    """The play with the best (lowest) puzzle heuristic value after it (a goal first), ties
    broken by :func:`progress_score`, then hand order; None when no card can be played.
    ``kinds``: the cards the heuristic may count on (default: the hand's)."""
    train = as_train(train, rules)
    hand = check_cards("hand", hand)
    kinds = None if kinds is None else check_cards("kinds", kinds)
    options = plays(train, hand, rules)
    if not options:
        return None
    table = heuristic_table(tuple(dict.fromkeys(kinds or hand)), train)
    card, after = min(options, key=lambda o: (estimate(o[1], table), progress_score(o[1])))
    return _play(train, card, after, rules)


@dataclass
class GameRecord:
    """A played game: ``won``, and per turn (player 1-based, hand, play, estimate or None)."""

    won: bool
    turns: list[tuple[int, tuple[Card, ...], Play, PlayEstimate | None]] = field(
        default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"won": self.won, "plays": len(self.turns), "turns": [
            {"player": p, "hand": [c.name for c in h], "play": str(play),
             "estimate": None if e is None else
             {"rate": e.rate, "low": e.low, "high": e.high, "wins": e.wins, "trials": e.trials}}
            for p, h, play, e in self.turns]}


def play_game(game: Deal, policy: str = "best", samples: int = DEFAULT_SAMPLES, seed: int = 0,
              time_limit: float | None = None, max_nodes: int | None = SAMPLE_NODES,
              on_turn: Callable[[int, tuple[Card, ...], Play, PlayEstimate | None], Any]
              | None = None, rules: Rules = DEFAULT_RULES,
              progress: Callable[[int, int], object] | None = None,
              workers: int | None = 1) -> GameRecord:
    """Play the deal to its end: each mover chooses with ``policy`` (``"best"``:
    :func:`best_play` knowing only their hand and the unseen cards, ``time_limit`` per turn;
    ``"greedy"``: :func:`greedy_play`). ``on_turn`` is called after every play;
    ``progress(done, samples)`` after each sample of the turn being thought over (as
    :func:`best_play` calls it); ``workers``: the processes each turn's samples are spread
    over (as :func:`best_play` takes them)."""
    if policy not in ("best", "greedy"):
        raise LumicoreError(f"policy must be 'best' or 'greedy', got {policy!r:.80}")
    if not isinstance(game, Deal):
        raise LumicoreError(f"game must be a lumicore.lucia.deal.Deal, got {game!r:.80}")
    seed = check_seed(seed)
    # checked for "greedy" too, which reads none of them: a bad value is not ignored
    samples = check_sampling(samples, max_nodes, time_limit)
    check_callback(on_turn, "on_turn")
    check_callback(progress)
    workers = worker_count(workers, default_workers)
    hands = tuple(tuple(h) for h in game.hands())
    stock, mover, train = game.stock(), 0, game.train
    record = GameRecord(train.is_goal())
    turn = 0
    while not record.won:
        hand = hands[mover]
        estimate_ = None
        if not hand:
            break
        if policy == "greedy":
            play = greedy_play(train, hand, game.kinds, rules)
        else:
            unseen = [*stock, *(c for i, h in enumerate(hands) if i != mover for c in h)]
            others = [len(hands[(mover + i) % game.players]) for i in range(1, game.players)]
            ranking = best_play(train, hand, unseen, game.players, samples,
                                (seed + turn) % SEED_LIMIT,
                                time_limit, max_nodes, others, rules, progress, workers)
            estimate_ = ranking.plays[0] if ranking.plays else None
            play = None if estimate_ is None else estimate_.play
        if play is None:
            break
        record.turns.append((mover + 1, hand, play, estimate_))
        if on_turn is not None:
            on_turn(mover + 1, hand, play, estimate_)
        train = play.train
        record.won = train.is_goal()
        hands, mover, stock = after_play(hands, mover, play.card, stock)
        turn += 1
    return record
