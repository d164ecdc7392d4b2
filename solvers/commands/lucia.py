"""``lumicore lucia``: solve a train puzzle, deal a random train, scramble a goal; deal,
solve, play and replay the card game, measure its win rate.

    lumicore lucia solve                      # the built-in default puzzle
    lumicore lucia solve "S h T h L0" --algorithm bfs
    lumicore lucia random --seed 3
    lumicore lucia scramble --depth 12 --seed 1
    lumicore lucia play --seed 7 --record game.json
    lumicore lucia replay game.json [--json]
    lumicore lucia tournament --bots greedy,random --games 20 --out games.jsonl
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable
from typing import Any

from lumicore.data import read_file, shorten, write_file
from lumicore.errors import LumicoreError
from lumicore.lucia import Rules, Train, load_deck, random_train, scramble
from lumicore.lucia.deal import Deal, deal
from lumicore.lucia.kernel import MAX_NODES, check_max_nodes
from lumicore.lucia.pdb import cache_dir, cache_path
from lumicore.lucia.start import MAX_SCRAMBLE_DEPTH
from solvers.batch import default_workers, worker_count
from solvers.commands import (
    add_game,
    add_tournament_command,
    check_output_path,
    count,
    integer,
    naming,
    seconds,
)
from solvers.console import say
from solvers.limits import (
    DONE,
    LIMIT,
    exit_code,
)
from solvers.lucia import ALGORITHMS, DEFAULT_MAX_NODES, DEFAULT_PUZZLE, solve
from solvers.lucia.deal import DEFAULT_DEAL_NODES, solve_deal
from solvers.lucia.play import DEFAULT_SAMPLES, SAMPLE_NODES, check_sampling, play_game
from solvers.lucia.puzzle import HEURISTICS, PDB_ABSTRACTION, PDB_SHARE, search_kinds
from solvers.lucia.winrate import DEFAULT_TIME_LIMIT as DEAL_TIME_LIMIT
from solvers.lucia.winrate import win_rate
from solvers.progress import progress


def register(subparsers: argparse._SubParsersAction) -> None:
    commands = add_game(subparsers, "lucia", "Lucia train puzzles (optimal search)",
                        __doc__)

    p = commands.add_parser("solve", help="fewest cards from a train to the goal")
    p.add_argument("train", nargs="?", default=None,
                   help=f"train notation, front first (default: the built-in puzzle "
                        f"{DEFAULT_PUZZLE!r})")
    p.add_argument("--deck", default="default",
                   help="deck TOML file or built-in name; its distinct cards may each be used "
                        "any number of times (default: the 33-card default deck)")
    p.add_argument("--algorithm", choices=ALGORITHMS, default="astar",
                   help="search algorithm (default astar)")
    p.add_argument("--max-nodes", type=count, default=DEFAULT_MAX_NODES,
                   help=f"cap on stored (BFS, A*: at most {MAX_NODES:,}) or visited (IDA*) "
                        f"states (default {DEFAULT_MAX_NODES:,})")
    p.add_argument("--max-memory", type=parse_bytes, default=None,
                   help="memory budget of BFS and A*, bytes or with a unit: 500M, 2G "
                        "(default: a quarter of the RAM available)")
    p.add_argument("--time-limit", type=seconds, default=None,
                   help="seconds (default: none)")
    p.add_argument("--weight", type=integer, default=1,
                   help="weighted A* (astar only, 1..8): plans at most WEIGHT times the "
                        "optimum, for trains too deep to solve optimally (default 1: optimal)")
    p.add_argument("--heuristic", choices=HEURISTICS, default=HEURISTICS[0],
                   help="lower bound for astar and idastar: pdb = covering table and pattern "
                        "database (astar then starts with weighted A* for an upper bound), "
                        f"covering = the table alone (default {HEURISTICS[0]})")
    p.add_argument("--lucia-partial", action="store_true",
                   help="the lucia action may stop inside the run of Handmaidens (default: "
                        "she passes the whole run)")
    p.add_argument("--svg", default=None, metavar="FILE",
                   help="also draw the plan as a strip of trains into FILE (default: none)")
    p.add_argument("--json", action="store_true",
                   help="print the result as JSON (default: text)")
    p.set_defaults(run=run_solve)

    p = commands.add_parser("random", help="a starting train dealt by the rulebook's setup")
    p.add_argument("--seed", type=integer, default=None,
                   help="0 .. 2**63-1 (default: a fresh random train)")
    p.add_argument("--setup", default="default",
                   help="setup TOML file or built-in name (default: default)")
    p.add_argument("--json", action="store_true",
                   help="print the train as JSON (default: its notation)")
    p.set_defaults(run=run_random)

    p = commands.add_parser("scramble", help="a puzzle: K random plays from a goal train (its "
                            "optimum may be shorter or longer)")
    p.add_argument("--depth", type=integer, required=True,
                   help=f"number of random plays, 0..{MAX_SCRAMBLE_DEPTH}")
    p.add_argument("--seed", type=integer, default=None,
                   help="0 .. 2**63-1 (default: a fresh random puzzle)")
    p.add_argument("--deck", default="default",
                   help="deck TOML file or built-in name (default: default)")
    p.add_argument("--json", action="store_true",
                   help="print the train as JSON (default: its notation)")
    p.set_defaults(run=run_scramble)
    register_game(commands)


def parse_bytes(text: str) -> int:
    """``"2G"`` -> 2 * 2**30 bytes; units K, M, G, T (powers of 1024, optional ``B``/``iB``).

    >>> parse_bytes("2G"), parse_bytes("512m"), parse_bytes("1000")
    (2147483648, 536870912, 1000)
    >>> parse_bytes("\u0662G")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: not a size in bytes (e.g. 2G, 500M): '٢G'
    """
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*", text,
                         re.IGNORECASE | re.ASCII)  # \d alone also takes '٢'
    if not match:
        raise argparse.ArgumentTypeError(f"not a size in bytes (e.g. 2G, 500M): {shorten(text)}")
    value = float(match.group(1)) * 1024 ** " kmgt".index(match.group(2).lower() or " ")
    if not 1 <= value < 2**63:
        raise argparse.ArgumentTypeError(f"size out of range: {shorten(text)}")
    return int(value)


def _progress_line(bar: Any) -> Callable[[int, int, int, float], None]:
    def show(nodes: int, expanded: int, bound: int, elapsed: float) -> None:
        bar.update(nodes - bar.n)
        bar.set_postfix_str(f"expanded {expanded:,}, bound f {bound}, {elapsed:.0f} s",
                            refresh=False)
    return show


def run_solve(args: argparse.Namespace) -> int:
    """Print the plan (one card and the resulting train per line) and the search figures.
    Exit status 0 when solved (optimal, or feasible with a weight) or proven unsolvable, 1 when a
    limit cut the search, 130 when interrupted (Ctrl-C)."""
    rules = Rules(lucia_partial=args.lucia_partial)
    text = DEFAULT_PUZZLE if args.train is None else args.train
    train = Train.parse(text, rules)
    deck = load_deck(args.deck)
    check_max_nodes(args.algorithm, args.max_nodes)
    svg = check_output_path(args.svg) if args.svg is not None else None
    if args.heuristic == "pdb" and args.algorithm != "bfs" and not args.json:
        path = cache_path(search_kinds(deck.kinds), train, PDB_ABSTRACTION)
        if path is None or not path.exists():
            limit = ("" if args.time_limit is None else
                     f"; at most {args.time_limit * PDB_SHARE:g} s of --time-limit, or the search "
                     "goes on without it and nothing is cached")
            where = "not cached: no cache folder" if path is None else \
                f"once; cached in {cache_dir()}"
            say(f"building the {PDB_ABSTRACTION} pattern database for this deck and train "
                f"shape ({where}{limit})")
    with progress(desc=f"lucia {args.algorithm}", unit=" nodes", delay=1.0,
                  enabled=False if args.json else None) as bar:
        result = solve(train, deck, algorithm=args.algorithm, max_nodes=args.max_nodes,
                       time_limit=args.time_limit, rules=rules, weight=args.weight,
                       max_memory=args.max_memory, heuristic=args.heuristic,
                       progress=_progress_line(bar))
    if svg is not None:
        write_file(svg, result._repr_svg_(), atomic=True)
    code = exit_code(result.status, bool(result.plan) or result.status != LIMIT)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
        return code
    label = " (built-in default puzzle)" if args.train is None else ""
    print(f"start: {train}{label}")
    print("\n".join([*result.plan_lines(), *result.report()]))
    if result.status == LIMIT and args.algorithm == "astar" and args.weight == 1:
        print("hint: --weight 2 (or 3) finds a plan at most 2 (3) times the optimum with far "
              "fewer nodes")
    return code


def _print_train(train: Train, args: argparse.Namespace, **extra: Any) -> int:
    if args.json:
        print(json.dumps({"train": str(train), "packed": train.packed, **extra}))
    else:
        print(train)
    return 0


def run_random(args: argparse.Namespace) -> int:
    return _print_train(random_train(args.seed, setup=args.setup), args, seed=args.seed)


def run_scramble(args: argparse.Namespace) -> int:
    train = scramble(args.depth, seed=args.seed, cards=load_deck(args.deck))
    return _print_train(train, args, seed=args.seed, depth=args.depth)


# ---------------------------------------------------------------------------------------------
# the game as it is played: deals, win rates, best play (solvers.lucia.deal / winrate / play)

DECK_HELP = ("deck TOML file or built-in name (default: 'default' = the game's deck, "
             "'calibrated'; 'reconstructed' is the puzzles' default deck)")


def register_game(commands: argparse._SubParsersAction) -> None:
    """The ``deal``, ``winrate``, ``play``, ``replay`` and ``tournament`` subcommands."""
    p = commands.add_parser("deal", help="deal a game: start train and shuffled deck")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--seed", type=integer,
                        help="the deal's seed (0 <= N < 2**63); this or --file (required)")
    source.add_argument("--file", default=None,
                        help="read a deal from a JSON file (Deal.to_json) instead; this or "
                             "--seed (required)")
    # None: not given (a deal --file holds its own players, deck and setup)
    p.add_argument("--players", type=integer, default=None, help="players, 1..4 (default 1)")
    p.add_argument("--deck", default=None, help=DECK_HELP)
    p.add_argument("--setup", default=None,
                   help="setup TOML file or built-in name (default: default)")
    p.add_argument("--solve", action="store_true", help="also solve it with the deck known")
    p.add_argument("--time-limit", type=seconds, default=DEAL_TIME_LIMIT,
                   help=f"seconds for --solve (default {DEAL_TIME_LIMIT:g})")
    p.add_argument("--json", action="store_true", help="print the deal as JSON (Deal.to_json)")
    p.set_defaults(run=run_deal)

    p = commands.add_parser("winrate", help="fraction of winnable deals (exact, deck known)")
    p.add_argument("--deals", type=integer, default=1000, help="number of deals (default 1000)")
    p.add_argument("--seed", type=integer, default=0, help="first deal's seed (default 0)")
    p.add_argument("--players", type=integer, default=1, help="players, 1..4 (default 1)")
    p.add_argument("--time-limit", type=seconds, default=DEAL_TIME_LIMIT,
                   help=f"seconds per deal (default {DEAL_TIME_LIMIT:g})")
    p.add_argument("--max-nodes", type=count, default=DEFAULT_DEAL_NODES,
                   help=f"positions per deal (default {DEFAULT_DEAL_NODES})")
    p.add_argument("--workers", type=integer, default=None,
                   help="worker processes (default: the machine's cores)")
    p.add_argument("--backend", choices=("process", "dask"), default="process",
                   help="process pool or Dask cluster (default process)")
    p.add_argument("--scheduler", default=None,
                   help="Dask scheduler address (default: a local cluster)")
    p.add_argument("--deck", default="default", help=DECK_HELP)
    p.add_argument("--setup", default="default", help="setup TOML file or built-in name")
    p.add_argument("--out", default=None,
                   help="append one JSON line per deal; a rerun resumes (default: none)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.set_defaults(run=run_winrate)

    p = commands.add_parser("play", help="play a dealt game with the hidden-deck best play")
    p.add_argument("--seed", type=integer, required=True, help="the deal's seed")
    p.add_argument("--players", type=integer, default=1, help="players, 1..4 (default 1)")
    p.add_argument("--samples", type=integer, default=DEFAULT_SAMPLES,
                   help=f"sampled deck orders per turn (default {DEFAULT_SAMPLES})")
    p.add_argument("--time-limit", type=seconds, default=None,
                   help="seconds per turn (default: none; each sample is capped in nodes)")
    p.add_argument("--max-nodes", type=count, default=SAMPLE_NODES,
                   help=f"positions searched per play and sample (default {SAMPLE_NODES})")
    p.add_argument("--policy", choices=("best", "greedy"), default="best",
                   help="best (Monte Carlo over deck orders) or greedy (default best)")
    p.add_argument("--workers", type=integer, default=None,
                   help="worker processes sharing each turn's samples (default: the machine's "
                        "cores; the plays are the same for any number without --time-limit)")
    p.add_argument("--deck", default="default", help=DECK_HELP)
    p.add_argument("--record", metavar="FILE", default=None,
                   help="also write the game record (the JSON --json prints, which 'lucia "
                        "replay' reads) to FILE (default: none)")
    p.add_argument("--json", action="store_true",
                   help="print the game as JSON: its record, which 'lucia replay' reads")
    p.set_defaults(run=run_play)

    p = commands.add_parser("replay", help="replay a game record, checking every play",
                            description="Replay a Lucia game record play by play (every play "
                                        "checked against the deal, the mover and their hand), "
                                        "check its result and print the game and the result.")
    p.add_argument("record", metavar="GAME.json",
                   help="a game record: what 'lucia play --json' prints, or an arena record of "
                        "Lucia (a line of a tournament's output); a JSON file, or its JSON text")
    p.add_argument("--json", action="store_true", help="print one JSON object (default: off)")
    p.set_defaults(run=run_replay)
    add_tournament_command(commands, "lucia", bots="greedy,random", players=2,
                           add_options=add_game_options, options=game_options, cooperative=True)


def add_game_options(p: argparse.ArgumentParser) -> None:
    """The game's options, ``--deck`` and ``--setup``, as ``tournament`` takes them
    (:func:`game_options` reads them)."""
    p.add_argument("--deck", default="default", help=DECK_HELP)
    p.add_argument("--setup", default="default",
                   help="setup TOML file or built-in name (default: default)")


def game_options(args: argparse.Namespace) -> dict[str, str]:
    """The ``new_game`` options (:meth:`lumicore.lucia.deal_game.DealState.new_game`) that
    :func:`add_game_options`'s arguments give."""
    return {"deck": args.deck, "setup": args.setup}


def run_deal(args: argparse.Namespace) -> int:
    if args.file is not None:
        given = [f"--{name}" for name in ("players", "deck", "setup")
                 if getattr(args, name) is not None]
        if given:
            raise LumicoreError(f"{', '.join(given)} with --file: the deal file holds its "
                                "players, deck and start; give them with --seed instead")
        with naming(args.file):
            d = Deal.from_json(read_file(args.file))
    else:
        d = deal(args.seed, 1 if args.players is None else args.players,
                 "default" if args.setup is None else args.setup,
                 "default" if args.deck is None else args.deck)
    if not args.json:
        print(d, flush=True)  # before the search, which may take all of --time-limit
    result = None
    if args.solve:
        with progress(desc="lucia deal", unit=" nodes", delay=1.0,
                      enabled=False if args.json else None) as bar:
            result = solve_deal(d, time_limit=args.time_limit,
                                progress=lambda nodes, _elapsed: bar.update(nodes - bar.n))
    if args.json:
        data = d.to_dict()
        if result is not None:
            data["solve"] = result.to_dict()
        print(json.dumps(data))
    else:
        if result is not None:
            for step in result.plan:
                print(f"  {step}")
            print(f"status: {result.status}  plays: {result.cost}  nodes: {result.nodes}  "
                  f"time: {result.elapsed:.2f} s")
    return 0 if result is None else exit_code(result.status, result.status != "limit")


def run_winrate(args: argparse.Namespace) -> int:
    if args.out is not None:
        check_output_path(args.out, atomic=False)
    with progress(total=args.deals, desc="deals", unit="deal",
                  enabled=False if args.json else None) as bar:
        def show(result) -> None:
            bar.n = result.solved
            bar.set_postfix(rate=f"{result.rate:.1%}" if result.rate == result.rate else "-",
                            limit=result.limit)

        result = win_rate(args.deals, args.seed, args.players, args.time_limit, args.workers,
                          args.backend, args.scheduler, args.deck, args.setup, args.max_nodes,
                          args.out, on_outcome=show)
    print(json.dumps(result.to_dict()) if args.json else result)
    decided = result.winnable + result.unwinnable
    # every deal stopped by its limit: no rate, as a search stopped by a limit has no answer
    status = LIMIT if result.status == DONE and not decided else result.status
    return exit_code(status, has_answer=decided > 0)


def run_play(args: argparse.Namespace) -> int:
    record_path = check_output_path(args.record) if args.record is not None else None
    check_sampling(args.samples, args.max_nodes, args.time_limit)  # before the start is shown
    workers = worker_count(args.workers, default_workers)
    d = deal(args.seed, args.players, deck=args.deck)
    if not args.json:
        print(f"start: {d.train}")

    plays = [0]
    with progress(desc="lucia play", unit=" samples", delay=1.0,
                  enabled=False if args.json else None) as bar:
        def show(player, hand, play, estimate) -> None:
            plays[0] += 1
            if args.json:
                return
            est = "" if estimate is None else (f"  est {estimate.rate:.0%} "
                                               f"[{estimate.low:.0%}, {estimate.high:.0%}]")
            bar.clear()
            print(f"player {player}  hand: {', '.join(c.name for c in hand)}  ->  {play}{est}",
                  flush=True)

        def thinking(done: int, samples: int) -> None:  # the samples of the play being chosen
            bar.set_postfix_str(f"play {plays[0] + 1}: sample {done}/{samples}", refresh=False)
            bar.update()

        record = play_game(d, args.policy, args.samples, args.seed, args.time_limit,
                           args.max_nodes, on_turn=show, progress=thinking, workers=workers)
    text = json.dumps({"game": "lucia", "seed": args.seed, "players": args.players,
                       "deck": args.deck, **record.to_dict()})
    if record_path is not None:
        write_file(record_path, text + "\n", atomic=True)
    if args.json:
        print(text)
    else:
        print(_result_line(record.won, True, len(record.turns)))
        if record_path is not None:
            print(f"record written to {args.record}")
    return 0


def _result_line(won: bool, over: bool, plays: int) -> str:
    """The line ``play`` and ``replay`` end with.

    >>> _result_line(False, True, 7), _result_line(False, False, 2)
    ('lost after 7 plays', 'not over after 2 plays (the record ends here)')
    """
    if not over:
        return f"not over after {plays} plays (the record ends here)"
    return f"{'won' if won else 'lost'} after {plays} plays"


def run_replay(args: argparse.Namespace) -> int:
    """``lumicore lucia replay``: a game record played back and checked
    (:meth:`lumicore.lucia.deal_game.DealState.replay`), printed play by play with its result."""
    from lumicore.checks import read_record
    from lumicore.lucia.deal_game import RECORD, DealState

    record = read_record(args.record, RECORD)
    start: list[str] = []
    plays: list[str] = []

    def show(state: DealState, action: int) -> None:
        if not start:
            start.append(f"start: {state.train}")
        if not state.is_chance_node():
            plays.append(state.action_to_string(action))

    with naming(args.record):
        state = DealState.replay(record, on_action=show)
    if args.json:
        print(json.dumps({"game": "lucia", "players": state.num_players(),
                          "seed": record.get("seed"), "plays": len(plays), "won": state.won,
                          "over": state.is_terminal(), "train": str(state.train),
                          "state": json.loads(state.serialize())}))
        return 0
    for line in [*(start or [f"start: {state.train}"]), *plays,
                 _result_line(state.won, state.is_terminal(), len(plays))]:
        print(line)
    return 0
