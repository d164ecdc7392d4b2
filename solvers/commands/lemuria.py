"""``lumicore lemuria``: plan a Lemuria year with the CP-SAT scheduler; play whole games
between bots, replay their records, run tournaments.

Commands::

    lumicore lemuria plan [INSTANCE.toml] [--time-limit S] [--workers N] [--seed N] [--deal N]
                          [--svg FILE] [--harvests] [--json]
    lumicore lemuria play --players 3 --bots planner,greedy,random --seed 1 [--record FILE]
    lumicore lemuria replay GAME.json [--json]
    lumicore lemuria tournament --bots greedy,random --games 20 [--players 3] [--impact]

Without an instance file it plans the default instance ``default_instance(--deal)`` (12 turns,
the default cards, no opponents). The plan is replayed through the rules simulator and printed
turn by turn (district bonuses, the Trend row seen, resources, actions, running VP), then the VP
breakdown, the solver's status, the proven bound and the gap. ``--json`` prints the same as one
JSON object. On a terminal a progress line shows the plan's VP, the bound and the gap while the
solver runs. Ctrl-C stops the solver and prints the best plan so far (exit status 130).

``replay`` plays a record back (:meth:`lumicore.lemuria.game.Game.replay`: its VP and winner are
checked) and prints the game where the record ends with ``play``'s end lines; a bad record is a
one-line error, exit status 2. ``tournament`` is :func:`solvers.arena.tournament` on Lemuria, as
for the other games.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from typing import Any

from lumicore.checks import check_seed
from lumicore.data import write_file
from lumicore.errors import LumicoreError
from lumicore.lemuria import (
    Build,
    Buy,
    Exchange,
    Play,
    Remodel,
    Schedule,
    default_instance,
    load_instance,
    simulate,
)
from lumicore.lemuria.harvests import AltarSetup, replay_harvests
from lumicore.lemuria.render import render_year
from solvers.commands import (
    add_game,
    add_tournament_command,
    check_output_path,
    integer,
    naming,
    seconds,
)
from solvers.lemuria import DEFAULT_TIME_LIMIT, build_schedule
from solvers.limits import exit_code

__all__ = ["register", "schedule_json", "action_json", "end_lines", "add_game_options",
           "game_options"]


def action_json(action: Build | Remodel | Play | Buy | Exchange) -> dict[str, Any]:
    """An action as a JSON object with a ``type`` key.

    >>> action_json(Build("B03", "rural", ("stone",)))
    {'type': 'build', 'card': 'B03', 'district': 'rural', 'reduce': ['stone']}
    """
    data = {"type": type(action).__name__.lower(), **asdict(action)}
    if "reduce" in data:
        data["reduce"] = list(data["reduce"])
    return data


def schedule_json(schedule: Schedule, source: str, simulated: int) -> dict[str, Any]:
    """The plan and how it was found, as plain JSON data."""
    stats = getattr(schedule, "stats", None)
    return {
        "instance": source,
        "vp": schedule.vp,
        "simulated_vp": simulated,
        "breakdown": schedule.breakdown,
        "status": schedule.status,
        "bound": schedule.bound,
        "gap": None if (gap := schedule.gap) is None else round(gap, 6),  # None: no bound
        "reason": schedule.reason,
        "elapsed": round(schedule.elapsed, 3),
        "model": asdict(stats) if stats is not None else None,
        "turns": [{"turn": p.turn, "actions": [action_json(a) for a in p.actions]}
                  for p in schedule.turns],
    }


def run_plan(args: argparse.Namespace) -> int:
    svg = check_output_path(args.svg) if args.svg is not None else None
    if args.instance is not None:
        if args.deal is not None:
            raise LumicoreError(f"--deal {args.deal} with an instance file: --deal deals the "
                                "default instance; give one or the other")
        instance, source = load_instance(args.instance), args.instance
    else:
        deal = 0 if args.deal is None else check_seed(args.deal, name="--deal")
        instance, source = default_instance(deal), f"default_instance({deal})"
    schedule = build_schedule(instance, time_limit=args.time_limit, workers=args.workers,
                              seed=args.seed, show_progress=False if args.json else None,
                              harvests=args.harvests)
    result = (replay_harvests(instance, AltarSetup(first_turn=instance.first_turn), schedule)
              if args.harvests
              else simulate(instance, schedule))
    if svg is not None:
        write_file(svg, render_year(instance, schedule, title=source, result=result),
                   atomic=True)
    code = exit_code(schedule.status, has_answer=True)
    if args.json:
        data = schedule_json(schedule, source, result.total)
        if args.harvests:
            income = schedule.income  # type: ignore[attr-defined]  # the harvest planner's
            data["income"] = {str(t): gains for t, gains in income.items()}
        print(json.dumps(data, indent=2))
        return code
    print(f"Lemuria year plan for {source}: {instance.turns} turns")
    print(result)
    stats = getattr(schedule, "stats", None)
    size = f"; model {stats.variables} variables, {stats.constraints} constraints" if stats else ""
    print(f"status: {schedule.status_text()}; {schedule.elapsed:.1f} s{size}")
    return code


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``lumicore lemuria plan|play|replay|tournament``."""
    commands = add_game(subparsers, "lemuria",
                        "Lemuria: plan a year (CP-SAT); play, replay, tournaments", __doc__)
    plan = commands.add_parser("plan", help="the VP-maximal year for an instance",
                               description="Plan the year with the CP-SAT scheduler and print it "
                                           "turn by turn with the VP breakdown.")
    plan.add_argument("instance", nargs="?", help="instance TOML (default: the default instance)")
    plan.add_argument("--time-limit", type=seconds, default=DEFAULT_TIME_LIMIT, metavar="S",
                      help=f"solver time limit in seconds (default {DEFAULT_TIME_LIMIT:g})")
    plan.add_argument("--workers", type=integer, default=None, metavar="N",
                      help="CP-SAT search workers (default 2 on a machine with 2 cores or more, "
                           "else 1)")
    plan.add_argument("--seed", type=integer, default=0, metavar="N",
                      help="the solver's random seed, 0 to 2147483647 (default 0)")
    plan.add_argument("--deal", type=integer, default=None, metavar="N",
                      help="seed of the default instance when no file is given, 0 to 2^63-1 "
                           "(default 0)")
    plan.add_argument("--svg", metavar="FILE", default=None,
                      help="also write the year as a turn-by-turn SVG chart to FILE "
                           "(default: none)")
    plan.add_argument("--harvests", action="store_true",
                      help="plan the material operations on the altar too (the instance's "
                           "income is ignored; default off)")
    plan.add_argument("--json", action="store_true", help="print the plan as JSON")
    plan.set_defaults(run=run_plan)
    add_play_command(commands)
    replay = commands.add_parser("replay", help="replay a game record and show where it ends",
                                 description="Replay a Lemuria game record action by action, "
                                             "check its VP and winner, and print the game where "
                                             "the record ends: the players' VP and the winner.")
    replay.add_argument("record", metavar="GAME.json",
                        help="a game record as 'lemuria play --record' writes it: a JSON file, "
                             "or its JSON text")
    replay.add_argument("--json", action="store_true",
                        help="print one JSON object (default: off)")
    replay.set_defaults(run=run_replay)
    add_tournament_command(commands, "lemuria", bots="greedy,random",
                           add_options=add_game_options, options=game_options)


def run_play(args: argparse.Namespace) -> int:
    """``lumicore lemuria play``: a whole game between bots, turn by turn."""
    from lumicore.lemuria.game import check_players, check_seed
    from solvers.commands import check_output_path
    from solvers.lemuria.play import parse_bots, play_game
    from solvers.progress import progress

    players = check_players(args.players)
    seed = check_seed(args.seed)
    bots = parse_bots(args.bots, players)
    record_path = check_output_path(args.record) if args.record is not None else None
    with progress(total=13, desc="lemuria play", unit="turn",
                  enabled=False if args.json else None) as bar:
        def show(_game: Any, lines: list[str]) -> None:
            bar.update(1)
            if not args.json:
                bar.clear()
                print("\n".join(lines), flush=True)

        result = play_game(players, bots, seed=seed, time_limit=args.time_limit,
                           on_turn=show, **game_options(args))
    record = result.game.record()
    record["bots"] = result.bots
    if record_path is not None:
        write_file(record_path, json.dumps(record) + "\n", atomic=True)
    if args.json:
        print(json.dumps(record))
        return 0
    print("\n".join(end_lines(result.vp, result.winner, result.bots)))
    return 0


def end_lines(vp: list[int], winner: int | None, bots: list[str] | None = None) -> list[str]:
    """The lines ``lemuria play`` and ``lemuria replay`` end with: each player's VP and the
    winner (0-based ``winner``; None: the game is not over), players named by their bots if
    given.

    >>> end_lines([90, 42], 0, ["greedy", "random"])
    ['final VP: player 1 (greedy) 90, player 2 (random) 42', 'winner: player 1 (greedy)']
    >>> end_lines([6, 0], None)
    ['VP so far: player 1 6, player 2 0', 'winner: none yet (the game is not over)']
    """
    def who(p: int) -> str:
        return f"player {p + 1} ({bots[p]})" if bots else f"player {p + 1}"

    scores = ", ".join(f"{who(p)} {v}" for p, v in enumerate(vp))
    if winner is None:
        return [f"VP so far: {scores}", "winner: none yet (the game is not over)"]
    return [f"final VP: {scores}", f"winner: {who(winner)}"]


def _record_bots(record: Any, players: int) -> list[str] | None:
    """The record's ``bots`` (as ``play --record`` and ``tournament --out`` write them) if they
    name one bot per seat; None otherwise (a record of :meth:`Game.record` has none)."""
    bots = record.get("bots") if isinstance(record, dict) else None
    if isinstance(bots, list) and len(bots) == players and all(isinstance(b, str)
                                                               for b in bots):
        return bots
    return None


def run_replay(args: argparse.Namespace) -> int:
    """``lumicore lemuria replay``: a game record played back, checked and shown where it ends."""
    from lumicore.checks import read_record
    from lumicore.lemuria.game import RECORD, Game

    with naming(args.record):
        record = read_record(args.record, RECORD)
        game = Game.replay(record)
        bots = _record_bots(record, game.players)
    if args.json:
        print(json.dumps({"players": game.players, "seed": game.seed, "options": game.options,
                          "bots": bots, "turn": game.turn, "phase": game.phase,
                          "over": game.is_terminal(), "vp": game.vp(),
                          "breakdown": [game.breakdown(p) for p in range(game.players)],
                          "winner": game.winner(), "actions": len(record["actions"]),
                          "state": json.loads(game.serialize())}))
        return 0
    print(game)
    print("\n".join(end_lines(game.vp(), game.winner(), bots)))
    return 0


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """The game's options, ``--impact``, as ``play`` and ``tournament`` take them
    (:func:`game_options` reads them)."""
    parser.add_argument("--impact", action="store_true",
                        help="play with the Lemuria Impact append rules (default off)")


def game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The ``Game.new`` options that :func:`add_game_options`'s arguments give."""
    return {"impact": args.impact}


def add_play_command(commands: argparse._SubParsersAction) -> None:
    play = commands.add_parser("play", help="a whole game between bots, turn by turn",
                               description="Play a whole seeded game of Lemuria between bots "
                                           "and print it turn by turn (altar, actions, VP) and "
                                           "the winner.")
    play.add_argument("--players", type=integer, default=3, metavar="N",
                      help="number of players, 2 to 4 (default 3)")
    play.add_argument("--bots", default="planner,greedy,random", metavar="LIST",
                      help="bots by seat, comma-separated: planner, greedy, random, flatmc, mcts; "
                           "one name for every seat; options as name:key=value, e.g. "
                           "planner:horizon=4 (default planner,greedy,random)")
    play.add_argument("--seed", type=integer, default=0, metavar="N",
                      help="the game's seed as the arena takes it: the deal, the deck draws "
                           "and the bots' seeds (default 0)")
    play.add_argument("--record", metavar="FILE",
                      help="write the game record (JSON) to FILE (default: none)")
    play.add_argument("--time-limit", type=seconds, default=None, metavar="SECONDS",
                      help="planner time limit per turn in seconds (default 10)")
    add_game_options(play)
    play.add_argument("--json", action="store_true", help="print the game record as JSON")
    play.set_defaults(run=run_play)
