"""``lumicore lumen``: play a seeded game between bots, replay a record, rank the choices of a
position, run a tournament.

    lumicore lumen play --seed 3 --bots greedy,random [--record FILE] [--scenario A]
    lumicore lumen replay GAME.json
    lumicore lumen best STATE.json [--decisions N] [--time-limit 5|none] [--samples N]
    lumicore lumen odds STATE.json [--decisions N] [--samples 100] [--bot sheet] [--time-limit S]
    lumicore lumen tournament --bots sheet,greedy --games 20 [--scenario A] [--board default]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from lumicore.checks import read_record
from lumicore.data import shorten, write_file
from lumicore.errors import LumicoreError
from lumicore.game import iter_arena_record
from lumicore.lumen.game import GameState, check_seed, replay
from lumicore.lumen.render import map_text
from solvers.arena import seat_bots
from solvers.commands import (
    add_game,
    add_tournament_command,
    check_output_path,
    count,
    decision_after,
    integer,
    named,
    naming,
    seconds,
    seconds_or_none,
)
from solvers.limits import LIMIT, exit_code

__all__ = ["register", "load_state", "play", "parse_bots", "add_game_options", "game_options",
           "NO_LIMIT_SAMPLES"]

NO_LIMIT_SAMPLES = 1000
"""``lumen best --time-limit none``'s play-outs per choice when ``--samples`` is not given."""


def parse_bots(text: str) -> list[str]:
    """``"greedy,random"`` -> two bot names (player 1's first).

    >>> parse_bots("sheet, random")
    ['sheet', 'random']
    """
    return seat_bots(text, 2)


RECORD_KEYS = {"actions", "players", "bots", "returns"}  # only a game record has these;
# every serialized state has its "history"


def load_state(source: str, decisions: int | None = None) -> GameState:
    """A position from a file (or its JSON text, as :func:`lumicore.checks.read_record` reads
    it): a serialized state, or a game record (played to its end, or to the first decision at
    or after its first ``decisions`` actions: :func:`solvers.commands.decision_after`)."""
    if decisions is None:
        return _load(source)[0]
    with naming(source):
        data = read_record(source, "Lumen game record")
        if not _is_record(data):
            raise LumicoreError(f"--decisions {decisions} picks a position in a game record, "
                                "not in a serialized state")
    return decision_after(named(source, lambda _source: iter_arena_record(data, "lumen")),
                          decisions)[0]


def _is_record(data: Any) -> bool:
    return isinstance(data, dict) and "history" not in data and bool(RECORD_KEYS & data.keys())


def _load(source: str) -> tuple[GameState, Any]:
    """:func:`load_state` and the JSON it was read from."""
    with naming(source):
        data = read_record(source, "Lumen state or game record")
        if _is_record(data):
            return replay(data), data  # a record, even one without its actions: say so
        return GameState.from_dict(data), data  # parsed once: read_record's JSON


def _sheets(state: GameState) -> list[str]:
    rows = [str(s).splitlines()[:s.layout.shape[0]] for s in state.sheets]  # the grids
    width = max(len(r) for r in rows[0])
    head = ["player 1".ljust(width) + "    player 2"]
    return head + [a.ljust(width) + "    " + b for a, b in zip(*rows, strict=True)]


def play(seed: int, bots: list[str], scenario: str = "A", board: str = "default",
         out: Callable[[str], object] = print) -> tuple[GameState, list[dict[str, Any]]]:
    """Play one game between two bots, ``out`` (print) narrating it round by round; returns the
    final state and a per-round summary. The game is the arena's game of ``seed``
    (:func:`solvers.arena.play_game`: the same deal, dice, draws and bot seeds), so the same seed
    and bots give the same game here, in the arena and in a tournament."""
    from solvers.arena import play_game

    seed = check_seed(seed)
    rounds: list[dict[str, Any]] = []
    current, before = 0, None  # the round shown; the round of the action just applied

    def show(state: GameState, action: int) -> None:  # the arena calls it before every action
        nonlocal current, before
        if before is not None and state.round != before:
            rounds.append(_round_summary(state, before, out))
        before = state.round
        if state.phase == "roll" and state.round != current:
            current = state.round
            out(f"\n== round {state.round} (player {state.first + 1} first) ==")
        if not state.is_chance_node() or state.phase in ("roll", "bonus", "objective", "first"):
            out(f"  {state.action_to_string(action)}")

    _record, state = play_game("lumen", bots, 2, seed,
                               options={"scenario": scenario, "board": board}, on_action=show)
    assert isinstance(state, GameState)
    if before is not None:  # the last round, ended by the last action
        rounds.append(_round_summary(state, before, out))
    return state, rounds


def _round_summary(state: GameState, number: int, out: Callable[[str], object]
                   ) -> dict[str, Any]:
    for line in _sheets(state):
        out("  " + line)
    for line in map_text(state).splitlines():
        out("  " + line)
    scores = [state.score(p).total for p in (0, 1)]
    out(f"  score if it ended now: player 1 {scores[0]}, player 2 {scores[1]}")
    return {"round": number, "dice": list(state.dice), "sheets": [str(s) for s in state.sheets],
            "strength": state.strengths(), "score": scores}


def _winner_line(state: GameState, bots: list[str]) -> str:
    w = state.winner()
    scores = [state.score(p).total for p in (0, 1)]
    if state.loser >= 0 and w is not None:  # the other player won
        return f"winner: player {w + 1} ({bots[w]}): player {state.loser + 1} has no units left"
    if w is None:
        return f"nobody won: {scores[0]} VP each and nobody controls the initiative territory"
    tie = " (tie broken by the initiative territory)" if scores[0] == scores[1] else ""
    return (f"winner: player {w + 1} ({bots[w]}) with {scores[w]} VP to "
            f"{scores[1 - w]}{tie}")


def run_play(args: argparse.Namespace) -> int:
    bots = parse_bots(args.bots)
    if args.record is not None:
        check_output_path(args.record)
    quiet = args.json
    state, rounds = play(args.seed, bots, **game_options(args),
                         out=(lambda *_: None) if quiet else print)
    record = {**state.record(), "bots": bots, "returns": state.returns()}
    if args.record is not None:
        write_file(args.record, json.dumps(record), atomic=True)
    line = _winner_line(state, bots)
    if args.json:
        print(json.dumps({"winner": None if (w := state.winner()) is None else w + 1,
                          "result": line, "rounds": rounds, "record": record}))
    else:
        if args.record is not None:
            print(f"\nrecord written to {args.record}")
        print(line)
    return 0


def run_replay(args: argparse.Namespace) -> int:
    state, record = _load(args.record)
    if args.json:
        print(json.dumps({"round": state.round, "over": state.is_terminal(),
                          "winner": None if (w := state.winner()) is None else w + 1,
                          "scores": [state.score(p).total for p in (0, 1)],
                          "state": json.loads(state.serialize())}))
        return 0
    for line in _sheets(state) + map_text(state).splitlines():
        print(line)
    try:
        bots = parse_bots(",".join(record.get("bots", [])))
    except (LumicoreError, AttributeError, TypeError):
        bots = ["player 1", "player 2"]
    print(_winner_line(state, bots) if state.is_terminal() else repr(state))
    return 0


def run_best(args: argparse.Namespace) -> int:
    from solvers.lumen import best_choice

    check_seed(args.seed)
    if args.top < 0:
        raise LumicoreError(f"--top must be 0 (all) or a positive count, got {args.top}")
    state = load_state(args.state, args.decisions)
    if state.is_terminal() or state.is_chance_node():
        where = "the game is over" if state.is_terminal() else "a die roll or draw is due"
        raise LumicoreError(f"{shorten(args.state)} ends where {where}; best ranks the choices of "
                            "a player to move (--decisions N picks the position after a record's "
                            "first N actions)")
    samples = args.samples or (NO_LIMIT_SAMPLES if args.time_limit is None else 1)
    result = best_choice(state, time_limit=args.time_limit, max_nodes=args.max_nodes,
                         seed=args.seed, playout=args.playout, min_samples=samples,
                         objective=args.objective, progress=False if args.json else None)
    if args.top:
        result = type(result)(**{**result.__dict__, "choices": result.choices[:args.top]})
    print(json.dumps(result.to_dict()) if args.json else result)
    return exit_code(result.status, bool(result.choices) and result.status != LIMIT)


def run_odds(args: argparse.Namespace) -> int:
    from solvers.lumen import win_probability

    state = load_state(args.state, args.decisions)
    result = win_probability(state, samples=args.samples, bot=args.bot, seed=args.seed,
                             progress=False if args.json else None, time_limit=args.time_limit)
    print(json.dumps(result.to_dict()) if args.json else result)
    return exit_code(result.status, result.samples > 0)


def add_game_options(p: argparse.ArgumentParser) -> None:
    """The game's options, ``--scenario`` and ``--board``, as ``play`` and ``tournament`` take
    them (:func:`game_options` reads them)."""
    p.add_argument("--scenario", default="A", help="scenario name or file (default A)")
    p.add_argument("--board", default="default", help="player board file (default default)")


def game_options(args: argparse.Namespace) -> dict[str, str]:
    """The ``new_game`` options that :func:`add_game_options`'s arguments give."""
    return {"scenario": args.scenario, "board": args.board}


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``lumicore lumen play|replay|best|odds|tournament``."""
    commands = add_game(subparsers, "lumen", "Lumen: The Lost World: play, plan, tournaments",
                        __doc__)

    p = commands.add_parser("play", help="play a seeded game between two bots, round by round")
    p.add_argument("--seed", type=integer, default=0, help="the game's seed as the arena takes "
                   "it: dice, draws and the bots' seeds (default 0)")
    p.add_argument("--bots", default="sheet,greedy",
                   help="player 1's and player 2's bots (default sheet,greedy)")
    p.add_argument("--record", metavar="FILE", help="write the game record (JSON) here")
    add_game_options(p)
    p.add_argument("--json", action="store_true", help="print the rounds and record as JSON")
    p.set_defaults(run=run_play)

    r = commands.add_parser("replay", help="replay a game record and show its end")
    r.add_argument("record", metavar="GAME.json",
                   help="a record written by play --record (a file, or its JSON text)")
    r.add_argument("--json", action="store_true", help="print the final state as JSON")
    r.set_defaults(run=run_replay)

    b = commands.add_parser("best", help="rank the choices of the player to move")
    b.add_argument("state", metavar="STATE.json", help="a serialized state or a game record")
    b.add_argument("--decisions", type=integer, default=None, metavar="N",
                   help="in a game record: the position at the first decision after its first N "
                        "actions (default: where the record ends)")
    b.add_argument("--time-limit", type=seconds_or_none, default=5.0, metavar="SECONDS",
                   help="seconds, or none: no time limit, so that --seed makes the ranking "
                        "repeatable (default 5)")
    b.add_argument("--samples", type=count, default=None, metavar="N",
                   help="Monte Carlo play-outs per choice: exactly N with --time-limit none "
                        f"(default {NO_LIMIT_SAMPLES}), else N first if the time allows "
                        "(default 1)")
    b.add_argument("--max-nodes", type=count, default=20_000,
                   help="positions the exact search may visit (default 20000)")
    b.add_argument("--playout", default="kernel",
                   help="Monte Carlo play-outs: kernel (random games in C) or a bot name "
                        "(default kernel)")
    b.add_argument("--seed", type=integer, default=0, help="play-out seed (default 0)")
    b.add_argument("--objective", choices=("win", "sheet"), default="win",
                   help="chance to win, or the sheet's expected chain gains (default win)")
    b.add_argument("--top", type=integer, default=0, help="show only the best N (default 0: all)")
    b.add_argument("--json", action="store_true", help="print the ranking as JSON")
    b.set_defaults(run=run_best)

    o = commands.add_parser("odds", help="each player's chance to win with a bot for both")
    o.add_argument("state", metavar="STATE.json", help="a serialized state or a game record")
    o.add_argument("--decisions", type=integer, default=None, metavar="N",
                   help="in a game record: the position at the first decision after its first N "
                        "actions (default: where the record ends)")
    o.add_argument("--samples", type=integer, default=100, help="games to play (default 100)")
    o.add_argument("--bot", default="sheet", help="bot for both players (default sheet)")
    o.add_argument("--seed", type=integer, default=0, help="seed (default 0)")
    o.add_argument("--time-limit", type=seconds, default=None,
                   help="seconds: stop after the game under way, with the games played so far "
                        "(default none)")
    o.add_argument("--json", action="store_true", help="print the result as JSON")
    o.set_defaults(run=run_odds)

    add_tournament_command(commands, "lumen", bots="sheet,greedy", add_options=add_game_options,
                           options=game_options)
