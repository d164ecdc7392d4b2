"""solvers.arena and solvers.bots on a toy game with chance (Dice Nim, tests/dice_nim.py) and on
the one-player states: legal and seeded bots, strength ordering, seat rotation, ratings, records
and the tournament command."""

from __future__ import annotations

import argparse
import json
import sys
import types
from collections import Counter

import numpy as np
import pytest
from dice_nim import COOP_ENTRY, COOP_NAME, ENTRY, NAME, DiceNim

from lumicore.errors import IllegalMoveError, LumicoreError
from lumicore.game import GAMES, new_game, play_randomly
from lumicore.lucia.game import PuzzleState
from lumicore.reef import load_tiles
from lumicore.reef.hand import HandState
from lumicore.reef.sample import random_reef
from solvers.arena import (
    COOPERATIVE_NOTE,
    LABEL_WIDTH,
    bot_names,
    game_seed,
    make_bot,
    parse_bot_spec,
    play_from,
    play_game,
    replay_record,
    seat_lineups,
    tournament,
)
from solvers.bots import GENERIC_BOTS
from solvers.commands import add_game, add_play_command, add_tournament_command

FAST = {"flatmc": {"playouts": 2}, "mcts": {"iterations": 30}}


@pytest.fixture(autouse=True)
def dice_nim_registered(monkeypatch):
    monkeypatch.setitem(GAMES, NAME, ENTRY)
    monkeypatch.setitem(GAMES, COOP_NAME, COOP_ENTRY)


def reef_hand(seed: int) -> HandState:
    rng = np.random.default_rng(seed)
    tiles = load_tiles("default").luminos
    hand = [tiles[i] for i in rng.choice(len(tiles), 2, replace=False)]
    return HandState(random_reef("A", pieces=6, seed=seed), hand, limestone=1)


STATES = {
    "dice-nim": lambda: DiceNim.new_game(players=3, seed=5),
    "lucia": lambda: PuzzleState.new("h S T h L2 H", max_plays=4),
    "reef-hand": lambda: reef_hand(2),
}


def decisions(state, bot, rng):
    """Every action a bot chooses while playing ``state`` to the end (chance from ``rng``)."""
    chosen = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            state.apply_action(outcomes[int(rng.integers(len(outcomes)))])
            continue
        before = state.clone()
        action = bot.choose(state)
        assert action in state.legal_actions()
        assert state.serialize() == before.serialize(), "choose() changed the state"
        chosen.append(action)
        state.apply_action(action)
    return chosen


@pytest.mark.parametrize("game", sorted(STATES))
@pytest.mark.parametrize("name", sorted(GENERIC_BOTS))
def test_bots_play_legal_actions_and_repeat_for_a_seed(game, name):
    def run(seed):
        bot = make_bot(name, "dice-nim", seed=seed, **FAST.get(name, {}))
        return decisions(STATES[game](), bot, np.random.default_rng(0))

    first = run(7)
    assert first and run(7) == first


def test_random_bots_with_different_seeds_differ():
    runs = {tuple(decisions(DiceNim(2, 40), make_bot("random", NAME, seed=s),
                            np.random.default_rng(0))) for s in range(5)}
    assert len(runs) > 1


def test_greedy_takes_the_nim_move_and_the_last_stones():
    bot = make_bot("greedy", NAME, seed=0)
    assert bot.choose(DiceNim(2, pile=3)) == 3  # take the last stones and win
    assert bot.choose(DiceNim(2, pile=6)) == 2  # leave a multiple of 4


@pytest.mark.parametrize("name", ["greedy", "flatmc", "mcts"])
def test_an_evaluate_option_replaces_the_states_own(name):
    def more_stones_is_better(state):  # player 0 wants the pile to stay large
        return [state.pile, 0]

    options = {"flatmc": {"playouts": 8, "cutoff": 1}, "mcts": {"iterations": 60, "cutoff": 1}}
    bot = make_bot(name, NAME, seed=0, evaluate=more_stones_is_better, **options.get(name, {}))
    assert bot.choose(DiceNim(2, pile=10)) == 1
    with pytest.raises(LumicoreError, match="evaluate must be"):
        make_bot(name, NAME, evaluate=3)


def test_mcts_finds_the_winning_take():
    assert make_bot("mcts", NAME, seed=1, iterations=60).choose(DiceNim(2, pile=2)) == 2
    assert make_bot("flatmc", NAME, seed=1, playouts=4).choose(DiceNim(2, pile=3)) == 3


@pytest.mark.parametrize("spec", ["flatmc", "flatmc:policy=greedy", "mcts",
                                  "mcts:policy=greedy"])
def test_a_time_limit_holds_from_the_first_play_out(monkeypatch, spec):
    """A fake clock that an action applied to a Dice Nim state moves on by one second: with
    ``time_limit=20`` the bots stop a few actions past 20 (the play-outs read the clock at every
    decision, the greedy policy between the actions it weighs) and still choose a legal action.
    Before, flat Monte Carlo's first round (a whole play-out per action) and MCTS's first
    descent ran whatever the limit: on a pile of 600 stones, thousands of actions."""
    import solvers.bots as bots

    clock = [0.0]
    real_apply = DiceNim.apply_action

    def apply_action(self, action):
        clock[0] += 1
        real_apply(self, action)

    monkeypatch.setattr(DiceNim, "apply_action", apply_action)
    monkeypatch.setattr(bots, "time", types.SimpleNamespace(perf_counter=lambda: clock[0]))
    name, options = parse_bot_spec(spec)
    bot = make_bot(name, NAME, seed=0, time_limit=20, **options)
    state = DiceNim(2, pile=600)
    action = bot.choose(state)
    assert action in state.legal_actions()
    assert clock[0] <= 20 + 20, f"{clock[0]:g} fake seconds for a limit of 20"


def test_greedy_respects_a_multi_step_turn():
    state = DiceNim(2, pile=9)
    state.apply_action(2)
    state.apply_action(6)  # a six: player 0 acts again with 7 stones
    assert state.current_player() == 0
    assert make_bot("greedy", NAME, seed=0).choose(state) == 3


@pytest.mark.parametrize("strong", ["greedy", "mcts:iterations=60", "flatmc:playouts=6"])
def test_searching_bots_beat_random(strong):
    result = tournament(NAME, ["random", strong], games=60, seed=11, workers=1, progress=False)
    assert result.bots[strong].interval[0] > 0.55
    assert result.bots[strong].rating["mu"] > result.bots["random"].rating["mu"]
    assert result.bots[strong].wins + result.bots["random"].wins == 60


@pytest.mark.parametrize(("bots", "players"), [(2, 2), (3, 2), (4, 3), (3, 4), (2, 3), (4, 4)])
def test_seat_lineups_put_every_bot_in_every_seat_equally(bots, players):
    lineups = seat_lineups(bots, players)
    seats = Counter((b, s) for lineup in lineups for s, b in enumerate(lineup))
    assert set(seats) == {(b, s) for b in range(bots) for s in range(players)}
    assert len(set(seats.values())) == 1


def test_tournament_rotates_seats_and_records_replay():
    bots = ["random", "greedy", "mcts:iterations=20"]
    records = []
    result = tournament(NAME, bots, players=2, games=12, seed=3, workers=1, progress=False,
                        record=records.append)
    assert result.status == "done" and result.played == 12 and len(records) == 12
    seats = Counter((bot, seat) for r in result.records for seat, bot in enumerate(r["bots"]))
    assert seats == {(b, s): 4 for b in bots for s in range(2)}  # 12 games x 2 seats / 6
    assert [r["seed"] for r in result.records] == [game_seed(3, i) for i in range(12)]
    for record in records:
        final = replay_record(json.loads(json.dumps(record)))
        assert final.is_terminal() and final.returns() == record["returns"]
    assert {name: r.games for name, r in result.bots.items()} == dict.fromkeys(bots, 8)


def test_tournament_four_players_and_fractional_counts():
    result = tournament(NAME, ["random", "greedy"], players=4, games=8, seed=2, workers=1,
                        progress=True)
    assert len(result.seat_wins) == 4 and sum(result.seat_wins) == pytest.approx(1)
    assert sum(r.games for r in result.bots.values()) == 32  # each bot holds 2 seats a game
    assert sum(r.wins for r in result.bots.values()) == pytest.approx(8)


def test_tournament_same_counts_with_two_worker_processes():
    args = dict(game=NAME, bots=["random", "greedy"], games=16, seed=5, progress=False)
    one, two = tournament(workers=1, **args), tournament(workers=2, **args)
    assert one.to_dict()["bots"] == two.to_dict()["bots"]
    assert one.records == two.records


def test_interrupted_tournament_returns_what_it_played():
    def stop_after_three(record, seen=[]):  # noqa: B006 - a counter local to the test
        seen.append(record)
        if len(seen) == 3:
            raise KeyboardInterrupt

    result = tournament(NAME, ["random", "greedy"], games=10, workers=1, progress=False,
                        record=stop_after_three)
    assert result.interrupted and result.played == 3
    assert sum(r.games for r in result.bots.values()) == 6


def test_ratings_order_follows_strength():
    result = tournament(NAME, ["random", "greedy", "mcts:iterations=40"], games=30, seed=4,
                        workers=1, progress=False)
    ordinal = {name: r.rating["ordinal"] for name, r in result.bots.items()}
    assert ordinal["random"] < min(ordinal["greedy"], ordinal["mcts:iterations=40"])


def test_a_competitive_tournament_still_seats_bots_together_and_rates_them():
    result = tournament(NAME, ["random", "greedy"], games=6, seed=4, workers=1, progress=False)
    assert not result.cooperative and result.note is None
    assert (result.games, result.played, result.deals) == (6, 6, 6)
    assert all(sorted(r["bots"]) == ["greedy", "random"] for r in result.records)
    data = result.to_dict()
    assert (data["cooperative"], data["deals"], data["note"]) == (False, 6, None)
    for name in ("random", "greedy"):
        assert set(data["bots"][name]["rating"]) == {"mu", "sigma", "ordinal"}
    assert result.table().splitlines()[0].split()[-3:] == ["mu", "sigma", "ordinal"]


def test_a_cooperative_tournament_gives_each_bot_a_table_of_its_own_on_the_same_deals():
    """A co-operative game's seats win or lose together, yet its tournament seated different
    bots at one table (seat_lineups) and ranked them by openskill ratings of games that were
    draws between the seats. Now each bot holds every seat of its games, game i of every bot is
    dealt from the same seed, and the bots are compared by win rate, unrated."""
    bots = ["random", "greedy"]  # the weaker first: the table puts the better one first
    records = []
    result = tournament(COOP_NAME, bots, players=3, games=20, seed=2, workers=1,
                        progress=False, record=records.append)
    assert all(r["bots"] in (["random"] * 3, ["greedy"] * 3) for r in result.records)
    assert result.cooperative and result.status == "done"
    assert (result.games, result.played, result.deals) == (40, 40, 20)
    for name in bots:
        own = [r for r in result.records if r["bots"][0] == name]
        assert [r["seed"] for r in own] == [game_seed(2, i) for i in range(20)]
        tally = result.bots[name]
        assert tally.games == 20 and tally.shared == 0 and tally.rating == {}
        assert tally.wins == sum(r["returns"][0] for r in own)
    assert result.bots["greedy"].win_rate > result.bots["random"].win_rate
    lines = result.table().splitlines()
    assert [line.split()[0] for line in lines[1:3]] == ["greedy", "random"]
    assert "mu" not in lines[0] and lines[-1] == f"no ratings ({COOPERATIVE_NOTE})"
    data = json.loads(json.dumps(result.to_dict()))
    assert (data["cooperative"], data["deals"], data["note"]) == (True, 20, COOPERATIVE_NOTE)
    assert all(data["bots"][name]["rating"] == {} for name in bots)
    assert sorted(map(json.dumps, records)) == sorted(map(json.dumps, result.records))
    for record in records:
        assert replay_record(json.loads(json.dumps(record))).returns() == record["returns"]


def test_a_cooperative_tournament_takes_one_bot_and_a_competitive_one_two():
    """A table of one bot on seeded deals measures that bot in a co-operative game (before,
    every tournament needed two bots); a competitive game still needs two to play."""
    result = tournament(COOP_NAME, ["greedy"], players=2, games=5, workers=1, progress=False)
    assert (result.games, result.deals, result.bots["greedy"].games) == (5, 5, 5)
    assert all(r["bots"] == ["greedy", "greedy"] for r in result.records)
    with pytest.raises(LumicoreError, match=rf"^a tournament of {NAME} needs 2 or more "):
        tournament(NAME, ["greedy"], games=2, workers=1, progress=False)
    with pytest.raises(LumicoreError, match=rf"^a tournament of {COOP_NAME} needs 1 or more "):
        tournament(COOP_NAME, ["greedy", "greedy"], games=2, workers=1, progress=False)


def test_a_cooperative_tournament_command_says_why_it_rates_no_bot(capsys):
    parser = argparse.ArgumentParser()
    commands = add_game(parser.add_subparsers(), COOP_NAME, help="toy", description="toy")
    add_tournament_command(commands, COOP_NAME)
    args = parser.parse_args([COOP_NAME, "tournament", "--games", "3", "--workers", "1"])
    assert args.run(args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (f"{COOP_NAME}: 6 of 6 games (each bot on the same 3 deals), 2 players, "
                        "seed 0 (done)")
    assert lines[-1] == f"no ratings ({COOPERATIVE_NOTE})"
    assert not any(line.startswith("wins by seat") for line in lines)


def test_play_game_is_seeded():
    one, final = play_game(NAME, ["mcts:iterations=20", "random"], seed=9)
    two, _ = play_game(NAME, ["mcts:iterations=20", "random"], seed=9)
    assert one == two and final.is_terminal() and one["returns"] == final.returns()
    assert set(one) == {"game", "players", "seed", "options", "bots", "actions", "returns"}


def test_play_from_a_position_is_seeded_and_replays():
    start = DiceNim(3, pile=9, mover=1)
    bots = [make_bot("greedy", NAME, seed=s) for s in range(3)]
    one, two = start.clone(), start.clone()
    actions = play_from(one, bots, rng=5)
    bots = [make_bot("greedy", NAME, seed=s) for s in range(3)]
    assert play_from(two, bots, rng=np.random.default_rng(5)) == actions
    assert one.is_terminal() and one == two
    for action in actions:
        start.apply_action(action)
    assert start == one


def test_replay_names_the_illegal_action():
    record, _ = play_game(NAME, ["random", "random"], seed=1)
    record["actions"][2] = 99
    with pytest.raises(IllegalMoveError, match=r"^game record: actions\[2\]: action 99 is not"):
        replay_record(record)
    with pytest.raises(LumicoreError, match="field 'actions' is missing"):
        replay_record({"game": NAME, "players": 2, "seed": 1})
    with pytest.raises(LumicoreError):
        replay_record("not json")


def test_a_bot_playing_an_illegal_action_is_named():
    class Cheat:
        def choose(self, state):
            return 7

    with pytest.raises(IllegalMoveError, match="bot 'Cheat' .seat 1. chose 7"):
        play_game(NAME, ["random", Cheat()], seed=0)


def test_unknown_bot_names_the_known_ones():
    with pytest.raises(LumicoreError, match=r"unknown bot 'foo' \(known: flatmc, greedy, mcts"):
        make_bot("foo", NAME)
    with pytest.raises(LumicoreError, match="unknown bot"):
        tournament(NAME, ["random", "foo"], games=2, workers=1)
    with pytest.raises(LumicoreError, match="unknown bot 'foo'"):
        tournament(NAME, ["foo"], games=2, workers=1)


def test_a_bots_bad_option_is_named_shortened():
    """An unknown option of 10,000 characters was quoted whole, twice."""
    with pytest.raises(LumicoreError) as caught:
        make_bot("mcts", NAME, **{"x" * 10_000: 1})
    message = str(caught.value)
    assert message.startswith(f"bot 'mcts': bad options '{'x' * 80}...' (") and len(message) < 300


@pytest.mark.parametrize("kwargs", [
    {"players": 5}, {"players": 1}, {"games": 0}, {"seed": -1}, {"bots": ["random"]},
    {"bots": ["random", "random"]}, {"bots": "random,greedy"}, {"workers": 0},
    {"backend": "threads"}, {"bots": ["random", "mcts:iterations=0"]},
    {"bots": ["random", "mcts:depth"]}, {"bots": ["random", "mcts:color=red"]},
    {"colour": "red"}, {"scheduler": "tcp://127.0.0.1:1"}, {"game": "no-such-game"},
    {"game": 3}, {"bots": ["random", 3]}, {"progress": "yes"}, {"progress": -1},
])
def test_tournament_rejects_bad_arguments(kwargs, tmp_path):
    out = tmp_path / "games.jsonl"
    args = {"game": NAME, "bots": ["random", "greedy"], "games": 2, "workers": 1, **kwargs}
    with pytest.raises(LumicoreError):
        tournament(record=out, **args)
    assert not out.exists()


def test_a_game_module_adds_and_overrides_bots(monkeypatch):
    class Always1:
        def __init__(self, seed=0):
            self.seed = seed

        def choose(self, state):
            return 1

    package = types.ModuleType("solvers.dice_nim")
    bots = types.ModuleType("solvers.dice_nim.bots")
    bots.BOTS = {"always1": Always1, "greedy": Always1}
    monkeypatch.setitem(sys.modules, "solvers.dice_nim", package)
    monkeypatch.setitem(sys.modules, "solvers.dice_nim.bots", bots)
    assert "always1" in bot_names(NAME)
    assert isinstance(make_bot("greedy", NAME, seed=3), Always1)
    assert make_bot("always1", NAME, seed=3).seed == 3


def test_parse_bot_spec():
    assert parse_bot_spec("mcts:iterations=5:exploration=0.5:cutoff=none") == (
        "mcts", {"iterations": 5, "exploration": 0.5, "cutoff": None})
    with pytest.raises(LumicoreError, match="KEY=VALUE"):
        parse_bot_spec("mcts:5")
    # a seed option gave make_bot two seeds (a TypeError traceback from 'reef play --bots
    # greedy:seed=1,random'); an option given twice kept the last
    with pytest.raises(LumicoreError, match="seed comes from the game"):
        parse_bot_spec("greedy:seed=1")
    with pytest.raises(LumicoreError, match="iterations is given twice"):
        parse_bot_spec("mcts:iterations=5:iterations=6")


@pytest.mark.parametrize("spec, value", [
    ("mcts:iterations=\u0664\u0660\u0660", "'\u0664\u0660\u0660'"),  # Arabic-Indic 400
    ("mcts:iterations=\uff14\uff10\uff10", "'\uff14\uff10\uff10'"),  # full-width 400
    ("mcts:exploration=\u0661.\u0665", "'\u0661.\u0665'"),
    ("mcts:iterations=1_000", "'1_000'"),
])
def test_bot_option_numbers_take_ascii_digits_only(spec, value):
    """int() and float() read any script's digits and underscores: mcts:iterations=٤٠٠ was 400."""
    key = spec.split(":")[1].split("=")[0]
    with pytest.raises(LumicoreError, match=f"^bot option {key} in .*ASCII digits.*got {value}$"):
        parse_bot_spec(spec)
    assert parse_bot_spec("mcts:iterations=400:exploration=-1.5e-1:policy=greedy") == (
        "mcts", {"iterations": 400, "exploration": -0.15, "policy": "greedy"})


@pytest.mark.parametrize("call, name", [
    (lambda: tournament(NAME, games=1, workers=1, bot_options=3), "bot_options"),
    (lambda: tournament(NAME, games=1, workers=1, bot_options={"random": 3}),
     r"bot_options\['random'\]"),
    (lambda: tournament(NAME, games=1, workers=1, bot_options={3: {}}), "bot_options"),
    (lambda: play_game(NAME, ["random", "random"], options=3), "options"),
    (lambda: play_game(NAME, ["random", "random"], options=["x"]), "options"),
    (lambda: play_game(NAME, ["random", "random"], bot_options={"random": [1]}),
     r"bot_options\['random'\]"),
])
def test_options_that_are_no_dicts_are_named(call, name):
    """bot_options=3 was an AttributeError ('int' object has no attribute 'get'), {"random": 3}
    a TypeError ('int' object is not a mapping), options=3 a TypeError (not iterable)."""
    with pytest.raises(LumicoreError, match=f"^{name} must be a dict"):
        call()


def run_command(argv, capsys):
    parser = argparse.ArgumentParser()
    commands = add_game(parser.add_subparsers(), NAME, help="toy", description="toy")
    add_tournament_command(commands, NAME)
    add_play_command(commands, NAME)
    args = parser.parse_args([NAME, *argv])
    code = args.run(args)
    return code, capsys.readouterr().out


def test_tournament_command_prints_json_and_writes_records(tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    code, text = run_command(["tournament", "--bots", "random,greedy", "--games", "6",
                              "--workers", "1", "--json", "--out", str(out)], capsys)
    data = json.loads(text)
    assert code == 0 and data["played"] == 6 and data["status"] == "done"
    assert set(data["bots"]["greedy"]) >= {"games", "wins", "win_rate", "low", "high", "rating"}
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 6 and all(replay_record(r).is_terminal() for r in lines)


def test_tournament_command_table_and_errors(tmp_path, capsys):
    code, text = run_command(["tournament", "--games", "4", "--workers", "1"], capsys)
    assert code == 0 and "greedy" in text and "win rate" in text
    with pytest.raises(LumicoreError, match="unknown bot 'foo'"):
        run_command(["tournament", "--bots", "random,foo"], capsys)
    with pytest.raises(LumicoreError, match="does not exist"):
        run_command(["tournament", "--out", str(tmp_path / "no" / "x.jsonl")], capsys)


def test_tournament_command_takes_the_game_options_of_its_hook(tmp_path, capsys):
    """``add_options``/``options`` of add_tournament_command: the option reaches every game and
    every record (before, the command had no way to pass a game option)."""
    parser = argparse.ArgumentParser()
    commands = add_game(parser.add_subparsers(), NAME, help="toy", description="toy")
    add_tournament_command(
        commands, NAME,
        add_options=lambda p: p.add_argument("--pile", type=int, default=None),
        options=lambda args: {} if args.pile is None else {"pile": args.pile})
    out = tmp_path / "games.jsonl"
    args = parser.parse_args([NAME, "tournament", "--games", "2", "--workers", "1", "--pile",
                              "3", "--json", "--out", str(out)])
    assert args.run(args) == 0
    assert json.loads(capsys.readouterr().out)["options"] == {"pile": 3}
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["options"] for r in lines] == [{"pile": 3}] * 2
    assert all(replay_record(r).is_terminal() for r in lines)
    with pytest.raises(TypeError, match="give both or neither"):
        add_tournament_command(commands, NAME, add_options=lambda p: None)


def test_play_command_prints_the_game_and_writes_its_record(tmp_path, capsys):
    out = tmp_path / "game.json"
    code, text = run_command(["play", "--bots", "greedy,mcts:iterations=20,random", "--seed",
                              "4", "--record", str(out)], capsys)
    record = json.loads(out.read_text())
    lines = text.splitlines()
    assert code == 0 and record["players"] == 3 and record["seed"] == 4
    assert len(lines) == len(record["actions"]) + 2
    assert lines[0].startswith("player 0: take") and lines[1].startswith("chance: roll")
    winner = record["returns"].index(1.0)
    assert lines[-1] == f"winner: player {winner} ({record['bots'][winner]})"
    code, text = run_command(["play", "--bots", "random", "--players", "4", "--json"], capsys)
    assert json.loads(text)["bots"] == ["random"] * 4
    with pytest.raises(LumicoreError, match="2 bots for 3 players"):
        run_command(["play", "--players", "3"], capsys)
    with pytest.raises(LumicoreError, match="2 to 4 players"):
        run_command(["play", "--bots", "random", "--players", "5"], capsys)


@pytest.mark.parametrize("call", [
    lambda: new_game(None),
    lambda: new_game(5),
    lambda: play_randomly(None),
    lambda: game_seed("x", 1),
    lambda: game_seed(-1, 1),
    lambda: game_seed(1, 2**64),
])
def test_shared_helpers_name_bad_arguments(call):
    """new_game(None) and play_randomly(None) were TypeError / AttributeError, game_seed('x', 1)
    numpy's ValueError; each is a LumicoreError now."""
    with pytest.raises(LumicoreError):
        call()


@pytest.mark.parametrize("name", [NAME, COOP_NAME])
def test_the_table_shows_labels_whole_so_that_two_bots_are_told_apart(name):
    """The table cut every label at 24 characters: two bots whose options differ past that
    (``flatmc:playouts=2:policy=random`` and ``...=greedy``) read the same."""
    bots = ["flatmc:playouts=2:policy=random", "flatmc:playouts=2:policy=greedy"]
    result = tournament(name, bots, players=2, games=2, seed=1, workers=1, progress=False)
    lines = result.table().splitlines()
    assert sorted(line.split()[0] for line in lines[1:3]) == sorted(bots)
    assert len({len(line) for line in lines[:3]}) == 1  # the columns still line up
    long = "flatmc:playouts=2:policy=random:cutoff=" + "1" * 100
    result.bots = {long: result.bots[bots[0]]}
    assert result.table().splitlines()[1].split()[0] == long[:LABEL_WIDTH]


def test_a_tournament_prints_as_its_table():
    """A TournamentResult printed as its dataclass repr (nested BotResult(...) and ratings)."""
    result = tournament(NAME, ["random", "greedy"], players=2, games=2, seed=1, workers=1,
                        progress=False)
    assert str(result) == result.table() and str(result).startswith("bot ")


def test_a_bot_that_played_no_game_comes_last_and_is_named():
    """With fewer games than the seating cycle a bot may not play: it was listed with a win
    rate of 0.000 and its untouched rating, which ranked it above bots that had played."""
    result = tournament("lumen", ["random", "greedy", "sheet"], games=2, workers=1)
    idle = [name for name, r in result.bots.items() if not r.games]
    assert idle
    lines = str(result).splitlines()
    assert lines[-1].startswith(f"not played: {', '.join(idle)}")
    assert [line.split()[0] for line in lines[-1 - len(idle):-1]] == idle
    assert all(line.split()[1:4] == ["0", "-", "-"] for line in lines[-1 - len(idle):-1])
    assert "seating" in lines[-1]
    result.status = "interrupted"  # then the seating is not why (it advised more games)
    assert str(result).splitlines()[-1] == (f"not played: {', '.join(idle)} (interrupted before "
                                            "any of their games finished)")


def test_the_arena_refuses_a_reef_that_draws_for_itself():
    """auto_chance=True made the reef draw from its own generator, which its copies share: the
    generic bots, copying the game, saw the draws to come."""
    with pytest.raises(LumicoreError, match="option auto_chance"):
        tournament("reef", ["random", "greedy"], games=1, workers=1, auto_chance=True)
    with pytest.raises(LumicoreError, match="option auto_chance"):
        play_game("reef", ["random", "random"], 2, seed=0, options={"auto_chance": True})


def test_a_bot_holding_several_seats_is_rated_from_each_seat_and_the_updates_averaged():
    """openskill rates one rating object given for several seats once, for all of them together
    (and applies its tau twice to it): a bot holding seats 0 and 2 of a game got one compound
    update, mu 26.48 / sigma 7.94 here, where each seat rated from the same prior and the two
    updates averaged give 25.72 / 8.13."""
    from openskill.models import PlackettLuce

    from solvers.stats import plackett_luce

    model = PlackettLuce()
    seats = [model.rating(name="a"), model.rating(name="b"), model.rating(name="a")]
    first, second, third = (team[0] for team in model.rate([[s] for s in seats],
                                                           ranks=[0, 1, 1]))
    ratings = plackett_luce([[("a", 1.0), ("b", 0.0), ("a", 0.0)]])
    assert ratings["a"]["mu"] == pytest.approx((first.mu + third.mu) / 2)
    assert ratings["a"]["sigma"] == pytest.approx((first.sigma + third.sigma) / 2)
    assert (ratings["b"]["mu"], ratings["b"]["sigma"]) == pytest.approx((second.mu, second.sigma))
    assert (ratings["a"]["mu"], ratings["a"]["sigma"]) == pytest.approx((25.717, 8.132), abs=1e-3)


def test_a_cooperative_tournament_keeps_to_the_cap_on_games_in_all():
    """A co-operative tournament plays ``games`` games for every bot: only ``games`` was held to
    MAX_GAMES, and 600,000 games for each of 2 bots made 1,200,000 jobs and started them."""
    from solvers.arena import MAX_GAMES

    def started(record):
        raise AssertionError("a game was played")

    games = MAX_GAMES // 2 + 1
    with pytest.raises(LumicoreError, match=rf"^games: {games:,} games for each of 2 bots are "
                                            rf"{2 * games:,} games, more than a tournament plays"):
        tournament(COOP_NAME, ["random", "greedy"], games=games, workers=1, progress=False,
                   record=started)


class _Fault:
    """A bot that raises ``error`` at its first decision."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    def choose(self, state):
        raise self.error


def test_an_error_in_a_game_names_the_game_its_seed_and_its_bots(monkeypatch):
    """An exception in a tournament's game reached the caller without saying which game of the
    run failed, so it could not be replayed alone."""
    import pickle

    package = types.ModuleType("solvers.dice_nim")
    bots = types.ModuleType("solvers.dice_nim.bots")
    bots.BOTS = {"faulty": lambda seed=0: _Fault(ZeroDivisionError("division by zero")),
                 "refused": lambda seed=0: _Fault(LumicoreError("no move"))}
    monkeypatch.setitem(sys.modules, "solvers.dice_nim", package)
    monkeypatch.setitem(sys.modules, "solvers.dice_nim.bots", bots)
    seed0 = game_seed(3, 0)
    with pytest.raises(LumicoreError) as caught:
        tournament(NAME, ["random", "refused"], games=4, seed=3, workers=1, progress=False)
    assert str(caught.value) == f"game 0 (seed {seed0}, bots 'random,refused'): no move"
    again = pickle.loads(pickle.dumps(caught.value))  # as a worker process sends it back
    assert type(again) is LumicoreError and str(again) == str(caught.value)
    with pytest.raises(ZeroDivisionError) as caught:
        tournament(NAME, ["random", "faulty"], games=4, seed=3, workers=1, progress=False)
    assert str(caught.value) == "division by zero"  # its own message, as it was
    if sys.version_info >= (3, 11):  # a note below the traceback
        note = f"(in game 0 (seed {seed0}, bots 'random,faulty'))"
        assert caught.value.__notes__ == [note]
        assert pickle.loads(pickle.dumps(caught.value)).__notes__ == [note]


def test_the_out_file_is_written_from_the_first_finished_game_only(tmp_path, monkeypatch,
                                                                   capsys):
    """``--out`` was emptied before the run started: a run that then failed at once (no dask,
    a scheduler that cannot be reached) or was interrupted before a game ended left the
    previous results file empty."""
    from solvers import arena
    from solvers.cli import main

    out = tmp_path / "games.jsonl"
    old = '{"game": "reef", "seed": 1}\n' * 3
    out.write_text(old)
    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # as if dask were not installed
    monkeypatch.setitem(sys.modules, "distributed", None)
    assert main(["reef", "tournament", "--games", "2", "--backend", "dask", "--out",
                 str(out)]) == 2
    assert capsys.readouterr().err == ('lumicore: error: the dask backend needs '
                                       'dask.distributed: pip install -e ".[cluster]"\n')
    assert out.read_text() == old

    def interrupted_at_once(*args, **kwargs):
        raise KeyboardInterrupt
        yield

    with monkeypatch.context() as patch:
        patch.setattr(arena, "run_batch", interrupted_at_once)
        result = tournament(NAME, ["random", "greedy"], games=2, workers=1, progress=False,
                            record=out)
    assert result.interrupted and result.played == 0 and out.read_text() == old
    tournament(NAME, ["random", "greedy"], games=2, workers=1, progress=False, record=out)
    assert [json.loads(line)["game"] for line in out.read_text().splitlines()] == [NAME] * 2


REGISTERED = sorted(g for g in GAMES if g in ("lucia", "reef", "lemuria", "lumen"))


@pytest.mark.parametrize("game", REGISTERED)
def test_every_bot_refuses_a_finished_game_and_a_chance_node_by_name(game):
    """The generic bots failed on a finished game (IndexError, ``max() arg is an empty
    sequence``) and chose a chance outcome at a chance node; Lemuria's greedy said "player must
    be a player index from 0 to 1, got '-1'". Every bot says where it chooses."""
    over = play_randomly(new_game(game, seed=1), seed=1)
    chance = new_game(game, seed=1)
    while not chance.is_chance_node():
        chance.apply_action(chance.legal_actions()[0])
    for name in bot_names(game):
        for state in (over, chance):
            with pytest.raises(LumicoreError, match="decision|decides|main phase"):
                make_bot(name, game, seed=0).choose(state.clone())


def _hold_lock(path):
    """Lock ``path`` as a run writing it does (the open file: closing it frees the lock)."""
    fcntl = pytest.importorskip("fcntl")      # no lock on Windows
    handle = open(path, "a")  # noqa: SIM115 - held across the test
    fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    return handle


def test_a_tournament_writing_a_file_another_run_writes_is_refused_at_once(tmp_path):
    """Two tournaments on one --out each wrote at their own offset: the second emptied the
    file, the first then left NUL bytes and broken lines, and both exited 0."""
    import os
    import subprocess
    from pathlib import Path

    out = tmp_path / "games.jsonl"
    out.write_text('{"a record": 1}\n')
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root)}
    with _hold_lock(out):
        done = subprocess.run([sys.executable, "-m", "lumicore", "lemuria", "tournament",
                               "--bots", "random,greedy", "--games", "2", "--workers", "1",
                               "--json", "--out", str(out)], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=120)
        with pytest.raises(LumicoreError, match="another run is writing it$"):
            tournament(NAME, ["random", "greedy"], games=2, workers=1, record=out)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr == f"lumicore: error: cannot write '{out}': another run is writing it\n"
    assert out.read_text() == '{"a record": 1}\n'
    tournament(NAME, ["random", "greedy"], games=2, workers=1, record=out)   # free again
    assert len(out.read_text().splitlines()) == 2


def test_a_tournament_that_does_not_start_leaves_no_new_file(tmp_path, monkeypatch):
    """The file is locked (so made) before the games start: a run that fails to start removes
    the empty file it made, and leaves an existing one as it was."""
    import solvers.arena as arena

    def unreachable(*args, **kwargs):
        raise LumicoreError("no scheduler there")

    monkeypatch.setattr(arena, "run_batch", unreachable)
    out, kept = tmp_path / "new.jsonl", tmp_path / "old.jsonl"
    kept.write_text("old\n")
    for path in (out, kept):
        with pytest.raises(LumicoreError, match="no scheduler"):
            tournament(NAME, ["random", "greedy"], games=2, workers=1, record=path)
    assert not out.exists() and kept.read_text() == "old\n"
