"""``lumicore reef``: draw a reef, place a hand best, play and analyse whole games.

Commands::

    lumicore reef show [--board A|B|PATH] [--start pink,green] [--svg OUT.svg] [REEF.json]
    lumicore reef best --hand "pink 3 crab, blue 5" --limestone 4 [REEF.json]
                       [--objective final:dark] [--max-nodes N] [--time-limit S] [--save OUT.json]
    lumicore reef play --players 3 --bots greedy,mcts,random --seed 1 [--record GAME.json]
    lumicore reef tournament --bots random,greedy,flatmc,mcts --games 200 [--players 2]
                             [--side A|B] [--scoreboard dark|light] [--out GAMES.jsonl]
    lumicore reef best-turn GAME.json [--top 10]
    lumicore reef replay GAME.json

Without a reef file both start from a new reef on ``--board`` (default A) with the starting
Lumino ``--start`` (default pink,green).
"""

from __future__ import annotations

import argparse
import json
import math
import re
from typing import Any

from lumicore.checks import parse_real
from lumicore.data import shorten, write_file
from lumicore.errors import LumicoreError
from lumicore.reef import COLORS, Reef, kernel, load_board, parse_hand
from lumicore.reef import io as reef_io
from lumicore.reef.render import svg, text
from lumicore.reef.scoring import LIMESTONE_CAP
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
)
from solvers.limits import EXIT_ANSWER, EXIT_INTERRUPTED, exit_code
from solvers.progress import progress

__all__ = ["register", "parse_start", "parse_objective", "add_game_options", "game_options"]


def parse_start(value: str) -> tuple[str, str]:
    """``"pink,green"`` (or ``pink/green``, ``pink green``) as the starting Lumino's colours.

    >>> parse_start("blue/yellow")
    ('blue', 'yellow')
    """
    if not isinstance(value, str):
        raise LumicoreError(f"--start {shorten(value)}: expected two colours, e.g. pink,green")
    colors = [c for c in re.split(r"[,/\s]+", value.strip().lower()) if c]
    if len(colors) != 2:
        raise LumicoreError(f"--start {shorten(value)}: expected two colours, e.g. pink,green")
    return colors[0], colors[1]


def parse_objective(value: str) -> str | dict[str, float]:
    """An objective name, or weighted names ``"coral:pink=1,final:dark=0.5"`` as a dict.

    >>> parse_objective("coral:pink=1, final:dark=0.5")
    {'coral:pink': 1.0, 'final:dark': 0.5}
    """
    if "=" not in value:
        return value.strip()
    where = f"--objective {shorten(value)}"
    weights = {}
    for term in value.split(","):
        name, sep, weight = (part.strip() for part in term.partition("="))
        if not term.strip():
            raise LumicoreError(f"{where}: an empty term (a comma too many?)")
        if not sep:
            raise LumicoreError(f"{where}: {shorten(term.strip())} needs name=weight")
        if not name:
            raise LumicoreError(f"{where}: {shorten(term.strip())} names no objective")
        if name in weights:
            raise LumicoreError(f"{where}: {shorten(name)} is given twice")
        try:
            weights[name] = parse_real(weight)  # ASCII digits only: float() reads '٣' as 3
        except ValueError:
            weights[name] = math.nan
        if not math.isfinite(weights[name]):
            raise LumicoreError(f"{where}: bad weight in {shorten(term.strip())}")
    return weights


def _reef(args: argparse.Namespace) -> Reef:
    if args.reef is not None:
        if args.board is not None or args.start is not None:
            raise LumicoreError("give a reef file or --board/--start, not both")
        with naming(args.reef):
            reef = reef_io.load(args.reef)
            kernel.check_height(reef)  # refused here, naming the file
        return reef
    board = "A" if args.board is None else args.board
    start = "pink,green" if args.start is None else args.start
    if not board.strip():
        raise LumicoreError("--board '': expected A, B or a board drawing file")
    return Reef.new(load_board(board), parse_start(start))


def _summary_data(reef: Reef) -> dict:
    return {
        "visible": {c: reef.visible_count(c) for c in COLORS},
        "coral_scoring": {c: reef.coral_score(c) for c in COLORS},
        "animals": reef.visible_animals(),
        "dark_animal_vp": reef.animal_points("dark"),
    }


def _summary(reef: Reef) -> str:
    data = _summary_data(reef)
    visible = ", ".join(f"{c} {n}" for c, n in data["visible"].items())
    coral = ", ".join(f"{c} {n}" for c, n in data["coral_scoring"].items())
    animals = ", ".join(f"{a} {n}" for a, n in data["animals"].items())
    return (f"visible spaces: {visible}\ncoral scoring now: {coral}\n"
            f"visible animals: {animals} ({data['dark_animal_vp']} VP on the dark score board)")


def run_show(args: argparse.Namespace) -> int:
    if args.svg is not None:
        check_output_path(args.svg)
    reef = _reef(args)
    if args.svg is not None:
        write_file(args.svg, svg(reef), atomic=True)
    if args.json:
        print(json.dumps({"reef": reef_io.to_json(reef), **_summary_data(reef),
                          "svg": args.svg}))
        return EXIT_ANSWER
    print(text(reef))
    print(_summary(reef))
    if args.svg is not None:
        print(f"SVG written to {args.svg}")
    return EXIT_ANSWER


def run_best(args: argparse.Namespace) -> int:
    from solvers.reef import best_placement

    outputs = [check_output_path(path) for path in (args.save, args.svg) if path is not None]
    if len(outputs) == 2 and outputs[0].resolve() == outputs[1].resolve():
        raise LumicoreError(f"--save and --svg name the same file {shorten(args.save)}: the SVG "
                            "would overwrite the saved reef")
    reef = _reef(args)
    hand = parse_hand(args.hand)
    if not 1 <= len(hand) <= 3:
        raise LumicoreError(f"--hand {shorten(args.hand)}: a hand has 1 to 3 Luminos")
    if not 0 <= args.limestone <= LIMESTONE_CAP:
        raise LumicoreError(f"--limestone {args.limestone}: storage holds 0..{LIMESTONE_CAP}")
    with progress(desc="reef best", unit=" nodes", delay=1.0,
                  enabled=False if args.json else None) as bar:
        result = best_placement(reef, hand, args.limestone, parse_objective(args.objective),
                                max_nodes=args.max_nodes, time_limit=args.time_limit,
                                progress=lambda nodes, _elapsed: bar.update(nodes - bar.n))
    if args.save is not None:
        reef_io.save(result.reef, args.save)
    if args.svg is not None:
        write_file(args.svg, result._repr_svg_(), atomic=True)
    if args.json:
        print(json.dumps(result.as_dict()))
    else:
        print(result)
        print(text(result.reef))
        if args.save is not None:
            print(f"reef after the placements saved to {args.save}")
        if args.svg is not None:
            print(f"SVG written to {args.svg}")
    return exit_code(result.status, has_answer=True)


def _load_game(path: str, decisions: int | None = None):
    """The recorded game at its end, or at the first decision after its first ``decisions``
    recorded steps (draws are no decisions)."""
    return _load_step(path, decisions)[0]


def _load_step(path: str, decisions: int | None = None):
    """:func:`_load_game` and how many recorded steps lead to the position it gives (more than
    ``decisions`` when draws follow them: the position is the decision after the draws)."""
    from lumicore.reef.game import Game

    return decision_after(named(path, Game.iter_replay), decisions)


def run_replay(args: argparse.Namespace) -> int:
    game = _load_game(args.record)
    if args.json:
        print(json.dumps({"phase": game.phase, "round": game.round, "totals": game.totals(),
                          "winners": game.winners() if game.is_terminal() else None,
                          "state": json.loads(game.serialize())}))
    else:
        print(game)
    return EXIT_ANSWER


def run_best_turn(args: argparse.Namespace) -> int:
    from solvers.reef.turn import PHASES, best_turn

    if args.top < 1:
        raise LumicoreError(f"--top {args.top}: expected a positive number")
    game, step = _load_step(args.record, args.decisions)
    if game.phase not in PHASES:
        record = "the record" if args.record.lstrip().startswith("{") else shorten(args.record)
        where = ("the game is over" if game.is_terminal() else f"the game is at phase "
                 f"{game.phase!r}") + "; best-turn weighs turns, placements and coral scorings"
        if args.decisions is None:
            raise LumicoreError(f"{record} ends where {where} (--decisions N picks the position "
                                "after its first N steps)")
        raise LumicoreError(f"--decisions {args.decisions}: at the position it picks in "
                            f"{record} {where}")
    with progress(desc="reef best-turn", unit=" nodes", delay=1.0,
                  enabled=False if args.json else None) as bar:
        def show(weighed: int, decisions: int, nodes: int, _elapsed: float) -> None:
            bar.set_postfix_str(f"{weighed}/{decisions} decisions weighed", refresh=False)
            bar.update(nodes - bar.n)

        result = best_turn(game, args.objective, time_limit=args.time_limit, progress=show)
    if args.json:
        print(json.dumps({**result.as_dict(args.top), "step": step}))
    else:
        if args.decisions is not None and step > args.decisions:
            print(f"--decisions {args.decisions}: draws follow step {args.decisions}; the "
                  f"position is the decision after them, after step {step}")
        print(game)
        print()
        print(result.text(args.top))
    return exit_code(result.status, has_answer=bool(result.ranked))


def run_play(args: argparse.Namespace) -> int:
    from lumicore.reef.game import Game
    from solvers.arena import play_game

    if args.record is not None:
        check_output_path(args.record)
    bots = seat_bots(args.bots, args.players)
    players = len(bots)
    if args.players is None and not 2 <= players <= 4:
        some = "one bot" if players == 1 else f"{players} bots"
        raise LumicoreError(f"--bots {shorten(args.bots)} names {some} and no --players: "
                            "Lumicora is for 2 to 4 players (name one bot per seat, or give "
                            "--players for one bot to take every seat)")
    printed = {"round": 0}
    played: list[int] = []  # every action, draws included, as it is about to be applied

    def show(game, action):
        played.append(action)
        if args.json or game.is_chance_node():
            return
        if game.phase in ("turn", "place", "swap") and game.round != printed["round"]:
            printed["round"] = game.round
            scores = ", ".join(f"player {p + 1} {v} VP" for p, v in enumerate(game.vp))
            print(f"round {game.round} (octopus: player {game.octopus + 1}; {scores})")
        who = f"player {game.current_player() + 1} ({bots[game.current_player()]})"
        step = "scoring phase, " if game.phase == "score" else ""
        print(f"  {step}{who}: {game.action_to_string(action)}")

    try:
        record, final = play_game("reef", bots, players, args.seed, options=game_options(args),
                                  on_action=show)
    except KeyboardInterrupt:
        if args.record is None and not args.json:
            raise  # the rounds printed so far are the game so far
        # the game so far, replayed: a press inside an action may have left the live state
        # half changed, and every action in the list was legal when it was chosen
        so_far = Game.new_game(players=players, seed=args.seed, **game_options(args))
        for action in played:
            so_far.apply_action(action)
        game_record = {**so_far.record(), "bots": bots}
        if args.record is not None:
            write_file(args.record, json.dumps(game_record) + "\n", atomic=True)
        if args.json:
            print(json.dumps(game_record))
        else:
            print(f"interrupted after {len(played)} actions; record of the game so far written "
                  f"to {args.record}")
        return EXIT_INTERRUPTED
    assert isinstance(final, Game)
    game_record = {**final.record(), "bots": bots}
    if args.record is not None:
        write_file(args.record, json.dumps(game_record) + "\n", atomic=True)
    if args.json:
        print(json.dumps(game_record))
        return EXIT_ANSWER
    print("final scoring:")
    for p, (score, total) in enumerate(zip(final.final_scores(), final.totals(), strict=True)):
        print(f"  player {p + 1} ({bots[p]}): {final.vp[p]} VP in play + jellyfish "
              f"{score.jellyfish} + limestone {score.limestone} + animals {score.animals} + "
              f"majorities {score.majorities} + penalties {score.remote_penalties} = {total} VP")
    print("winner: " + ", ".join(f"player {p + 1} ({bots[p]})" for p in final.winners()))
    if args.record is not None:
        print(f"record written to {args.record}")
    return EXIT_ANSWER


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """The game's options, ``--side`` and ``--scoreboard``, as ``play`` and ``tournament`` take
    them (:func:`game_options` reads them)."""
    parser.add_argument("--side", choices=("A", "B"), default="A",
                        help="reef board side (default: A)")
    parser.add_argument("--scoreboard", choices=("dark", "light"), default="dark",
                        help="score board side (default: dark)")


def game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The ``new_game`` options that :func:`add_game_options`'s arguments give."""
    return {"side": args.side, "scoreboard": args.scoreboard}


def _reef_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("reef", nargs="?", metavar="REEF.json",
                        help="a saved reef (JSON); default: a new reef from --board and --start")
    parser.add_argument("--board", help="board side A or B, or a drawing file (default: A)")
    parser.add_argument("--start",
                        help="starting Lumino colours, e.g. blue,yellow (default: pink,green)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object instead of text (default: off)")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``lumicore reef show``, ``best``, ``play``, ``tournament``, ``best-turn`` and
    ``replay``."""
    commands = add_game(subparsers, "reef", "Lumicora: reefs, best placements, whole games",
                        __doc__)

    show = commands.add_parser("show", help="draw a reef as text (and SVG)")
    _reef_arguments(show)
    show.add_argument("--svg", metavar="OUT.svg",
                      help="also write the reef as an SVG image (default: none)")
    show.set_defaults(run=run_show)

    best = commands.add_parser("best", help="the best placement of a hand of 1 to 3 Luminos")
    _reef_arguments(best)
    best.add_argument("--hand", required=True,
                      help='1 to 3 Luminos, e.g. "pink 3 crab, blue 5" (required)')
    best.add_argument("--limestone", type=integer, required=True,
                      help="limestone markers in storage, 0..10 (required)")
    best.add_argument("--objective", default="final:dark",
                      help="coral:<colour>, visible:<colour>, animals:dark|light, remote, "
                           "final:dark|light, or weighted: coral:pink=1,final:dark=0.5 "
                           "(default final:dark)")
    best.add_argument("--max-nodes", type=count, default=None,
                      help="stop after this many search nodes (default: no limit)")
    best.add_argument("--time-limit", type=seconds, default=None,
                      help="stop after this many seconds (default: no limit)")
    best.add_argument("--save", metavar="OUT.json",
                      help="save the reef after the placements (default: none)")
    best.add_argument("--svg", metavar="OUT.svg",
                      help="draw the result as an SVG image (default: none)")
    best.set_defaults(run=run_best)

    play = commands.add_parser("play", help="play one seeded game between bots, round by round")
    play.add_argument("--bots", default="greedy,random",
                      help="comma-separated bots, one per seat or one for all: random, greedy, "
                           "flatmc, mcts; options as name:key=value (default: greedy,random)")
    play.add_argument("--players", type=integer, default=None,
                      help="2 to 4 players (default: one per bot named)")
    play.add_argument("--seed", type=integer, default=0, help="seed of the deal (default: 0)")
    add_game_options(play)
    play.add_argument("--record", metavar="GAME.json", default=None,
                      help="write the game record (JSON) that 'reef replay' and 'reef "
                           "best-turn' read (default: none)")
    play.add_argument("--json", action="store_true",
                      help="print the game record as JSON instead of the game (default: off)")
    play.set_defaults(run=run_play)

    add_tournament_command(commands, "reef", bots="random,greedy", add_options=add_game_options,
                           options=game_options)

    turn = commands.add_parser("best-turn", help="rank the decisions of the player to move")
    turn.add_argument("record", metavar="GAME.json",
                      help="a game record (as 'reef play --record' writes; a file, or its "
                           "JSON text): the game so far")
    turn.add_argument("--decisions", type=integer, default=None, metavar="N",
                      help="analyse the position after the record's first N steps (default: "
                           "where the record ends)")
    turn.add_argument("--objective", choices=("margin", "score"), default="margin",
                      help="value: estimated final VP minus the best opponent's (margin) or "
                           "own estimated final VP (score) (default: margin)")
    turn.add_argument("--top", type=integer, default=10,
                      help="how many decisions to print (default: 10)")
    turn.add_argument("--time-limit", type=seconds, default=None,
                      help="stop weighing after this many seconds (default: no limit)")
    turn.add_argument("--json", action="store_true",
                      help="print one JSON object (default: off)")
    turn.set_defaults(run=run_best_turn)

    replay = commands.add_parser("replay", help="replay a game record and show where it ends")
    replay.add_argument("record", metavar="GAME.json",
                        help="a game record: a JSON file, or its JSON text")
    replay.add_argument("--json", action="store_true",
                        help="print one JSON object (default: off)")
    replay.set_defaults(run=run_replay)
