"""``lumicore lucia``: solve a train puzzle, deal a random train, scramble a goal.

    lumicore lucia solve                      # the built-in default puzzle
    lumicore lucia solve "S h T h L0" --algorithm bfs
    lumicore lucia random --seed 3
    lumicore lucia scramble --depth 12 --seed 1
"""

from __future__ import annotations

import argparse
import json

from lumicore.lucia import Rules, Train, load_deck, random_train, scramble
from lumicore.lucia.train import describe
from solvers.commands import add_game
from solvers.lucia import ALGORITHMS, DEFAULT_MAX_NODES, DEFAULT_PUZZLE, solve


def register(subparsers: argparse._SubParsersAction) -> None:
    commands = add_game(subparsers, "lucia", "Lucia train puzzles (optimal search)",
                        __doc__.splitlines()[0])

    p = commands.add_parser("solve", help="fewest cards from a train to the goal")
    p.add_argument("train", nargs="?", default=None,
                   help=f"train notation, front first (default: the built-in puzzle "
                        f"{DEFAULT_PUZZLE!r})")
    p.add_argument("--deck", default="default",
                   help="deck TOML file or built-in name; its distinct cards may each be used "
                        "any number of times (default: the 33-card default deck)")
    p.add_argument("--algorithm", choices=ALGORITHMS, default="astar")
    p.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES,
                   help=f"cap on stored (BFS, A*) or visited (IDA*) states "
                        f"(default {DEFAULT_MAX_NODES})")
    p.add_argument("--time-limit", type=float, default=None, help="seconds")
    p.add_argument("--weight", type=int, default=1,
                   help="weighted A* (astar only, 1..8): plans at most WEIGHT times the "
                        "optimum, for trains too deep to solve optimally (default 1: optimal)")
    p.add_argument("--lucia-partial", action="store_true",
                   help="the lucia action may stop inside the run of Handmaidens")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(run=run_solve)

    p = commands.add_parser("random", help="a starting train dealt by the rulebook's setup")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--setup", default="default", help="setup TOML file or built-in name")
    p.set_defaults(run=run_random)

    p = commands.add_parser("scramble", help="a puzzle: K random plays away from a goal train")
    p.add_argument("--depth", type=int, required=True)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--deck", default="default", help="deck TOML file or built-in name")
    p.set_defaults(run=run_scramble)
    register_game(commands)


def run_solve(args: argparse.Namespace) -> int:
    """Print the plan (one card and the resulting train per line) and the search figures.
    Exit status 0 when solved (optimal, or feasible with a weight) or proven unsolvable, 1 when a
    limit cut the search."""
    rules = Rules(lucia_partial=args.lucia_partial)
    text = DEFAULT_PUZZLE if args.train is None else args.train
    train = Train.parse(text, rules)
    result = solve(train, load_deck(args.deck), algorithm=args.algorithm,
                   max_nodes=args.max_nodes, time_limit=args.time_limit, rules=rules,
                   weight=args.weight)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
        return 0 if result.status != "limit" else 1
    label = " (built-in default puzzle)" if args.train is None else ""
    print(f"start: {train}{label}")
    width = max((len(p.card.name) for p in result.plan), default=0)
    for i, play in enumerate(result.plan, 1):
        choices = ", ".join(map(describe, play.choices))
        print(f"{i:3d}. {play.card.name:<{width}}  {play.train}   ({choices})")
    cost = "-" if result.cost is None else result.cost
    print(f"status: {result.status}  cost: {cost}  nodes: {result.nodes}  "
          f"expanded: {result.expanded}  time: {result.elapsed:.2f} s  ({result.algorithm})")
    if result.note:
        print(f"note: {result.note}")
    return 0 if result.status != "limit" else 1


def run_random(args: argparse.Namespace) -> int:
    print(random_train(args.seed, setup=args.setup))
    return 0


def run_scramble(args: argparse.Namespace) -> int:
    print(scramble(args.depth, seed=args.seed, cards=load_deck(args.deck)))
    return 0


# ---------------------------------------------------------------------------------------------
# the game as it is played: deals, win rates, best play (solvers.lucia.deal / winrate / play)

def register_game(commands: argparse._SubParsersAction) -> None:
    """The ``deal``, ``winrate`` and ``play`` subcommands."""
    from solvers.lucia.deal import DEFAULT_DEAL_NODES
    from solvers.lucia.play import DEFAULT_SAMPLES, SAMPLE_NODES
    from solvers.lucia.winrate import DEFAULT_TIME_LIMIT

    deck_help = ("deck TOML file or built-in name (default: 'default' = the game's deck, "
                 "'calibrated'; 'reconstructed' is the puzzles' default deck)")
    p = commands.add_parser("deal", help="deal a game: start train and shuffled deck")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--seed", type=int, help="the deal's seed (0 <= N < 2**63)")
    source.add_argument("--file", default=None,
                        help="read a deal from a JSON file (Deal.to_json) instead")
    p.add_argument("--players", type=int, default=1, help="players, 1..4 (default 1)")
    p.add_argument("--deck", default="default", help=deck_help)
    p.add_argument("--setup", default="default", help="setup TOML file or built-in name")
    p.add_argument("--solve", action="store_true", help="also solve it with the deck known")
    p.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT,
                   help=f"seconds for --solve (default {DEFAULT_TIME_LIMIT:g})")
    p.add_argument("--json", action="store_true", help="print the deal as JSON (Deal.to_json)")
    p.set_defaults(run=run_deal)

    p = commands.add_parser("winrate", help="fraction of winnable deals (exact, deck known)")
    p.add_argument("--deals", type=int, default=1000, help="number of deals (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="first deal's seed (default 0)")
    p.add_argument("--players", type=int, default=1, help="players, 1..4 (default 1)")
    p.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT,
                   help=f"seconds per deal (default {DEFAULT_TIME_LIMIT:g})")
    p.add_argument("--max-nodes", type=int, default=DEFAULT_DEAL_NODES,
                   help=f"positions per deal (default {DEFAULT_DEAL_NODES})")
    p.add_argument("--workers", type=int, default=None,
                   help="worker processes (default: the machine's cores)")
    p.add_argument("--backend", choices=("process", "dask"), default="process",
                   help="process pool or Dask cluster (default process)")
    p.add_argument("--scheduler", default=None,
                   help="Dask scheduler address (default: a local cluster)")
    p.add_argument("--deck", default="default", help=deck_help)
    p.add_argument("--setup", default="default", help="setup TOML file or built-in name")
    p.add_argument("--out", default=None,
                   help="append one JSON line per deal; a rerun resumes (default: none)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.set_defaults(run=run_winrate)

    p = commands.add_parser("play", help="play a dealt game with the hidden-deck best play")
    p.add_argument("--seed", type=int, required=True, help="the deal's seed")
    p.add_argument("--players", type=int, default=1, help="players, 1..4 (default 1)")
    p.add_argument("--samples", type=int, default=DEFAULT_SAMPLES,
                   help=f"sampled deck orders per turn (default {DEFAULT_SAMPLES})")
    p.add_argument("--time-limit", type=float, default=None,
                   help="seconds per turn (default: none; each sample is capped in nodes)")
    p.add_argument("--max-nodes", type=int, default=SAMPLE_NODES,
                   help=f"positions searched per play and sample (default {SAMPLE_NODES})")
    p.add_argument("--policy", choices=("best", "greedy"), default="best",
                   help="best (Monte Carlo over deck orders) or greedy (default best)")
    p.add_argument("--deck", default="default", help=deck_help)
    p.add_argument("--json", action="store_true", help="print the game as JSON")
    p.set_defaults(run=run_play)


def run_deal(args: argparse.Namespace) -> int:
    from lumicore.lucia.deal import deal
    from solvers.limits import exit_code
    from solvers.lucia.deal import solve_deal

    if args.file is not None:
        from lumicore.data import read_file
        from lumicore.lucia.deal import Deal

        d = Deal.from_json(read_file(args.file))
    else:
        d = deal(args.seed, args.players, args.setup, args.deck)
    result = solve_deal(d, time_limit=args.time_limit) if args.solve else None
    if args.json:
        data = d.to_dict()
        if result is not None:
            data["solve"] = result.to_dict()
        print(json.dumps(data))
    else:
        print(d)
        if result is not None:
            for step in result.plan:
                print(f"  {step}")
            print(f"status: {result.status}  plays: {result.cost}  nodes: {result.nodes}  "
                  f"time: {result.elapsed:.2f} s")
    return 0 if result is None else exit_code(result.status, result.status != "limit")


def run_winrate(args: argparse.Namespace) -> int:
    from solvers.commands import check_output_path
    from solvers.limits import EXIT_INTERRUPTED
    from solvers.lucia.winrate import win_rate
    from solvers.progress import progress

    if args.out is not None:
        check_output_path(args.out)
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
    return EXIT_INTERRUPTED if result.status == "interrupted" else 0


def run_play(args: argparse.Namespace) -> int:
    from lumicore.lucia.deal import deal
    from solvers.lucia.play import play_game

    d = deal(args.seed, args.players, deck=args.deck)
    if not args.json:
        print(f"start: {d.train}")

    def show(player, hand, play, estimate) -> None:
        if args.json:
            return
        est = "" if estimate is None else (f"  est {estimate.rate:.0%} [{estimate.low:.0%}, "
                                           f"{estimate.high:.0%}]")
        print(f"player {player}  hand: {', '.join(c.name for c in hand)}  ->  {play}{est}")

    record = play_game(d, args.policy, args.samples, args.seed, args.time_limit, args.max_nodes,
                       on_turn=show)
    if args.json:
        print(json.dumps({"seed": args.seed, "players": args.players, **record.to_dict()}))
    else:
        print(f"{'won' if record.won else 'lost'} after {len(record.turns)} plays")
    return 0
