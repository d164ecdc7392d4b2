"""A bounded fuzz of the public API: every public callable in the ``__all__`` of every module the
API reference lists (docs/api/*.rst) is called with valid arguments, then with one argument at a
time replaced by each of a fixed list of bad values. The contract: the call returns (the value was
acceptable) or raises a :class:`LumicoreError` whose message names the argument or quotes the
value; never another exception, never a hang (each call has a 5 s alarm).

A function is fuzzed when a valid call can be built: from its defaults (searches get tiny limits),
from ``values()`` (a valid value for a parameter of that name in that game) or from
``EXAMPLES``; a function with none is not fuzzed yet (their number may only fall: see
``UNFUZZED_AT_MOST``). Every call passes every argument by
name, so no TypeError can come from a wrong number of arguments: any TypeError is a breach.
What cannot be fuzzed this way is in ``SKIP`` with the reason; what is known to break the contract
and not fixed yet is in ``KNOWN`` (strict xfail: fixing one makes the suite say so). Two narrow
exceptions name what the user wrote instead of the argument: a loader's DataError about the data
of a file (``FILE_DATA``: a key of the file, a value as JSON writes it) and a replay's
IllegalMoveError about a plan that breaks a rule (``PLANS``: its turn).
"""

from __future__ import annotations

import copy
import functools
import importlib
import inspect
import json
import os
import re
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from lumicore.data import shorten
from lumicore.errors import DataError, IllegalMoveError, LumicoreError, NotationError

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 5.0  # seconds per call: a hang is a failure, not a stuck suite
TINY = {"time_limit": 0.05, "max_nodes": 200}  # any search gets these when it takes them


def modules() -> list[str]:
    """The modules of the API reference, as tests/test_docs.py walks them."""
    text = "\n".join(p.read_text() for p in sorted((ROOT / "docs" / "api").glob("*.rst")))
    return re.findall(r"^\.\. automodule:: ([\w.]+)", text, re.M)


# Whole modules left out, with the reason (their public names are still listed in the docs).
SKIP_MODULES = {
    "lumicore.lucia.reference": "the plain-Python rules the kernel is tested against: trusts input",
    "lumicore.lucia.pdb_reference": "plain-Python twin of the pattern databases: trusts input",
    "lumicore.lucia.deal_reference": "plain-Python twin of the deal search: trusts input",
    "lumicore.reef.reference": "the plain-Python rules the kernel is tested against: trusts input",
    "lumicore.lemuria.reference": "plain-Python twin of the Lemuria kernel: trusts input",
    "lumicore.lumen.reference": "the plain-Python rules the kernel is tested against: trusts input",
    "solvers.commands.reef": "argparse plumbing of the CLI (tested through the command line)",
    "solvers.commands.lemuria": "argparse plumbing of the CLI (tested through the command line)",
    "solvers.commands.lumen": "argparse plumbing of the CLI (tested through the command line)",
}

# Single functions left out, with the reason.
SKIP = {
    "lumicore.data.write_file": "writes a file",
    "lumicore.data.OutputFile": "opens a file for writing",
    "lumicore.data.lock_file": "takes an open file descriptor and a wait callback",
    "lumicore.reef.io.save": "writes a file",
    "lumicore.lemuria.instance.dump_instance": "writes a file",
    "solvers.batch.run_batch": "takes the function to run as a callback",
    "solvers.batch.ignore_ctrl_c": "changes this process's SIGINT handling",
    "solvers.batch.deliver_ctrl_c": "sends SIGINT to this process",
    "solvers.batch.ctrl_c_held": "changes this process's SIGINT handling",
    "solvers.batch.end_processes": "ends the processes it is given",
    "solvers.ctrl_c.forget": "changes this process's SIGINT state",
    "lumicore.game.GameState": "a typing Protocol: not instantiable",
    "solvers.bots.Bot": "a typing Protocol: not instantiable",
    "solvers.lemuria.search.Partner": "a typing Protocol: not instantiable",
    "solvers.lemuria.turn.best_turn": "needs a game at a player's main phase: no cheap example",
    "solvers.reef.turn.best_turn": "needs a game at a player's turn: no cheap example",
    "lumicore.lumen.kernel.random_game": "its game (kernel.setup(state)) cannot be copied",
    "lumicore.lumen.kernel.random_games": "its game (kernel.setup(state)) cannot be copied",
    "solvers.lemuria.turn.planner_instance":
        "needs a game at a player's main phase: no cheap example",
}

# Known breaches of the contract, not fixed yet: "function: parameter" -> reason.
KNOWN: dict[str, str] = {}

# Loaders of data read from a file, and the parameter that holds it: their DataError names what
# the user sees in the file (a key or field, a value as JSON writes it: NaN), not the argument.
FILE_DATA: dict[str, tuple[str, str]] = {
    "lumicore.checks.check_fields": ("data", "'x: field 'a' is missing', 'got NaN'"),
    "lumicore.game.check_record_game": ("record", "'not a x: field 'game' is missing'"),
    "lumicore.lemuria.altar.parse_altar": ("data", "'expected 12 [[memory]] tables, got 0'"),
    "lumicore.lemuria.instance.instance_from_dict": ("data", "'missing key 'turns''"),
    "lumicore.lucia.cards.read_card_kinds": ("items", "'field 'cards' must be ..., got NaN'"),
}

# Replays of a plan, and the parameter that holds it: a plan of the right kind that breaks a
# rule (an empty one: no material operation) is the IllegalMoveError naming its turn.
PLANS: dict[str, tuple[str, str]] = {
    "lumicore.lemuria.harvests.replay_harvests": ("schedule", "'turn 1: the material operation "
                                                  "is mandatory'"),
}


def _family(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in {"lucia", "reef", "lemuria", "lumen"} else ""


@functools.cache
def values() -> dict[tuple[str, str], Any]:
    """A valid value per (game, parameter name); game "" for any."""
    from lumicore.game import new_game
    from lumicore.lemuria import default_instance
    from lumicore.lemuria.rules import initial_state
    from lumicore.lemuria.schedule import Schedule
    from lumicore.lucia import Train, load_deck
    from lumicore.lumen import Sheet, load_layout
    from lumicore.lumen import load_board as load_lumen_board
    from lumicore.lumen.game import GameState as LumenState
    from lumicore.reef import load_board, parse_hand
    from lumicore.reef.sample import random_reef
    from lumicore.reef.tiles import load_tiles

    deck = load_deck()
    instance = default_instance(turns=3)
    lumen = LumenState(seed=1)
    while lumen.is_chance_node():  # a position where a player decides
        lumen.apply_action(lumen.chance_outcomes()[0][0])
    reef = random_reef(seed=1, pieces=3)
    hand = parse_hand("green 1 shellfish,yellow 6")
    return {
        ("", "seed"): 0, ("", "players"): 2, ("", "name"): "x", ("", "text"): "x",
        ("", "rng"): np.random.default_rng(0), ("", "what"): "x", ("", "source"): "x",
        ("lucia", "train"): Train.parse("L0 h T"), ("lucia", "codes"): Train.parse("L0 h T").codes,
        ("lucia", "states"): [Train.parse("L0 h T").packed],
        ("reef", "color"): "blue", ("reef", "player"): 0, ("lumen", "player"): 0,
        ("lumen", "board"): load_lumen_board(), ("lumen", "game"): lumen,
        ("lucia", "cards"): deck.cards, ("lucia", "deck"): deck.cards,
        ("lucia", "card"): deck.cards[0], ("lucia", "players"): 1,
        ("lucia", "hand"): deck.cards[:3],
        ("reef", "reef"): reef, ("reef", "board"): load_board("A"), ("reef", "lumino"): hand[0],
        ("reef", "hand"): hand, ("reef", "limestone"): 2, ("reef", "tiles"): load_tiles(),
        ("reef", "game"): new_game("reef", players=2, seed=0),
        ("lemuria", "instance"): instance, ("lemuria", "schedule"): Schedule(turns=[]),
        ("lemuria", "game"): new_game("lemuria", players=2, seed=0),
        ("lemuria", "state"): initial_state(instance),
        ("lumen", "state"): lumen, ("lumen", "sheet"): Sheet(load_layout()),
    }


BAD_ANY: list[Any] = [-1, 2**70, float("nan"), float("inf"), "x", b"x", [], {}, object(),
                      np.int64(-1), np.float64("nan")]


# A huge limit is a valid order to search long, not a bad value: 2**70 is not tried for these.
LIMITS = {"time_limit", "max_nodes", "deadline", "samples", "min_samples", "iterations",
          "playouts", "max_states", "max_steps", "deals", "games", "seconds"}


def bad_values(param: inspect.Parameter) -> Iterator[Any]:
    """The bad values for ``param``: None unless its annotation allows it, True for an int."""
    note = str(param.annotation)
    if param.annotation is param.empty or ("None" not in note and "Any" not in note
                                           and note != "object"):
        yield None
    yield from (v for v in BAD_ANY if not (param.name in LIMITS and v is BAD_ANY[1]))
    if re.search(r"\bint\b", note):
        yield True


def targets() -> list[tuple[str, Callable[..., Any]]]:
    """Every public callable defined in a module of the reference (re-exports counted once)."""
    found = []
    for module in modules():
        if module in SKIP_MODULES:
            continue
        mod = importlib.import_module(module)
        for name in getattr(mod, "__all__", ()):
            obj = getattr(mod, name)
            if not callable(obj) or getattr(obj, "__module__", None) != module:
                continue
            if isinstance(obj, type) and issubclass(obj, BaseException):
                continue
            found.append((f"{module}.{name}", obj))
    return found


TARGETS = dict(targets())


class Hang(Exception):
    """The per-call alarm rang."""


def _ring(signum: int, frame: object) -> None:
    raise Hang


def call(fn: Callable[..., Any], kwargs: dict[str, Any]) -> Any:
    """``fn(**kwargs)`` under a TIMEOUT alarm."""
    old = signal.signal(signal.SIGALRM, _ring)
    signal.setitimer(signal.ITIMER_REAL, TIMEOUT)
    try:
        return fn(**kwargs)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _deck() -> Any:
    from lumicore.lucia import load_deck

    return load_deck().cards


# Valid calls where a parameter's name says too little (text to parse, a known name).
EXAMPLES: dict[str, Callable[[], dict[str, Any]]] = {
    "lumicore.checks.parse_int": lambda: {"text": "3"},
    "lumicore.data.process_exists": lambda: {"pid": os.getpid()},
    "lumicore.checks.parse_real": lambda: {"text": "2.5"},
    "lumicore.checks.read_json": lambda: {"text": "[]", "source": "x"},
    "solvers.lemuria.bots.least_useful": lambda: {"state": _lemuria_at_pass()},
    "lumicore.data.parse_toml": lambda: {"text": "a = 1"},
    "lumicore.game.new_game": lambda: {"name": "reef"},
    "lumicore.lemuria.instance.parse_instance": lambda: {
        "text": values()[("lemuria", "instance")].to_toml()},
    "lumicore.lemuria.skills.parse_skill": lambda: {"text": "rotate"},
    "lumicore.lucia.notation.parse_codes": lambda: {"text": "L0 h T"},
    "lumicore.lumen.dice.check_selection": lambda: {"name": "sum"},
    "lumicore.reef.tiles.parse_hand": lambda: {"text": "green 1 shellfish,yellow 6"},
    "lumicore.reef.io.loads": lambda: {"text": __import__("lumicore.reef.io").reef.io.dumps(
        values()[("reef", "reef")])},
    # a Lucia deal of 13 actions (a reef game: 0.8 s, and a bad progress plays it 11 times)
    "solvers.arena.tournament": lambda: {"game": "lucia", "bots": ["random"], "seed": 4,
                                         "games": 1, "workers": 1},
    "solvers.lucia.winrate.win_rate": lambda: {"deals": 1, "workers": 1, **TINY},
    "solvers.lucia.deal.solve_deal": lambda: {"train": values()[("lucia", "train")],
                                              "deck": _deck(), **TINY},
    "lumicore.lumen.kernel.setup": lambda: {"state": __import__(
        "lumicore.lumen.game").lumen.game.GameState(seed=1)},
    "solvers.lemuria.play.parse_bots": lambda: {"text": "greedy", "players": 2},
    "solvers.lumen.planner.exact_values": lambda: {"state": values()[("lumen", "state")],
                                                   "max_nodes": 200},
    # random play: a game in 0.01 s (the sheet bot's: 0.4 s, and a bad progress plays one)
    "solvers.lumen.odds.win_probability": lambda: {"state": values()[("lumen", "state")],
                                                   "samples": 4, "bot": "random",
                                                   "time_limit": 0.05},
    "solvers.lumen.bots.make_policy": lambda: {"name": "greedy"},
    "solvers.reef.bots.make_bot": lambda: {"name": "greedy"},
}


def _fields(obj: Any) -> dict[str, Any]:
    """The constructor's arguments that rebuild the dataclass ``obj`` (its init fields)."""
    import dataclasses

    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj) if f.init}


def _play() -> Any:
    """A Lucia play: the first of the deck's first card on the example train."""
    train = values()[("lucia", "train")]
    return next(p for c in _deck() for p in train.plays(c))


def _altar() -> Any:
    from lumicore.lemuria.altar import load_altar

    return load_altar()


def _reef_mod(module: str) -> Any:
    return importlib.import_module(f"lumicore.reef.{module}")


def _memory(*fields: Any) -> Any:
    from lumicore.lemuria.altar import Memory

    return Memory(*fields)


@functools.cache
def _record_cached() -> str:
    """An arena record of a short random Lumen game, as JSON text."""
    import json

    from solvers.arena import play_game

    return json.dumps(play_game("lumen", ["random", "random"], seed=0)[0])


def _record() -> dict[str, Any]:
    import json

    return json.loads(_record_cached())


def new_reef_game() -> Any:
    """A new Reef game (at a chance node: the deal)."""
    from lumicore.game import new_game

    return new_game("reef", players=2, seed=0)


def _lumen_map() -> Any:
    from lumicore.lumen.map import load_map

    return load_map()


def _n_terms() -> int:
    from solvers.reef.placement import OBJECTIVES

    return len(next(iter(OBJECTIVES.values())))


def _lemuria_cards() -> Any:
    game = values()[("lemuria", "game")]
    return game.cards


EXAMPLES.update({
    # lumicore.checks and lumicore.data: the shared helpers
    "lumicore.checks.check_bool": lambda: {"value": True, "name": "x"},
    "lumicore.checks.check_int": lambda: {"value": 3, "name": "x", "low": 0, "high": 10},
    "lumicore.checks.check_real": lambda: {"value": 2.5, "name": "x"},
    "lumicore.checks.check_index": lambda: {"value": 1, "size": 3, "name": "x"},
    "lumicore.checks.check_type": lambda: {"value": 3, "kind": int, "name": "x", "what": "x"},
    "lumicore.checks.check_players": lambda: {"players": 2, "low": 2, "high": 4, "game": "x"},
    "lumicore.checks.check_finite": lambda: {"array": np.zeros(3), "name": "x"},
    "lumicore.checks.is_integer": lambda: {"value": 3},
    "lumicore.checks.read_record": lambda: {"record": {"game": "reef"}},
    "lumicore.data.plural": lambda: {"n": 2, "noun": "card"},
    "lumicore.svg.document": lambda: {"width": 10.0, "height": 10.0, "title": "x", "body": ""},
    "lumicore.svg.text_width": lambda: {"text": "x", "size": 10.0},
    # lumicore.game: the shared game protocol
    "lumicore.game.check_action": lambda: {"state": values()[("lumen", "game")],
                                           "action": values()[("lumen", "game")]
                                           .legal_actions()[0]},
    "lumicore.game.check_state": lambda: {"state": values()[("lumen", "game")]},
    "lumicore.game.is_cooperative": lambda: {"state": values()[("lumen", "game")]},
    "lumicore.game.play_randomly": lambda: {"state": values()[("lumen", "game")], "seed": 0},
    "lumicore.game.sample_chance": lambda: {"state": new_reef_game(),
                                            "rng": np.random.default_rng(0)},
    "lumicore.game.replay_arena_record": lambda: {"record": _record()},
    "lumicore.game.iter_arena_record": lambda: {"record": _record()},
    # Lemuria
    "lumicore.lemuria.altar.AltarCard": lambda: _fields(_altar()),
    "lumicore.lemuria.altar.AltarMemory": lambda: _fields(_altar().memories[0]),
    "lumicore.lemuria.altar.parse_altar": lambda: {"data": {
        "memory": [_fields(m) for m in _altar().memories], "supply": _altar().supply}},
    "lumicore.lemuria.altar.memory_problem": lambda: {"card": _altar(), "memory": _memory(),
                                                      "index": 0},
    "lumicore.lemuria.altar.is_full": lambda: {"card": _altar(), "memory": _memory(), "index": 0},
    "lumicore.lemuria.altar.can_place": lambda: {"card": _altar(), "memory": _memory(),
                                                 "index": 0, "material": "plant"},
    "lumicore.lemuria.altar.place": lambda: {"card": _altar(), "memory": _memory(), "index": 0,
                                             "player": 0, "material": "plant"},
    "lumicore.lemuria.altar.harvest_shares": lambda: {
        "card": _altar(), "memory": _memory("mineral", (0, 2), 1), "index": 0, "rotation": 0,
        "harvester": 2, "players": 3},
    "lumicore.lemuria.altar.add_black_cubes": lambda: {"card": _altar(),
                                                       "memories": (_memory(),) * 12},
    "lumicore.lemuria.altar.turn_altar": lambda: {"rotation": 0, "step": 1},
    "lumicore.lemuria.cards.Building": lambda: _fields(_lemuria_cards().buildings["B01"]),
    "lumicore.lemuria.cards.Character": lambda: _fields(_lemuria_cards().characters["C01"]),
    "lumicore.lemuria.cards.check_building": lambda: {
        "card": _lemuria_cards().buildings["B01"], "where": "x"},
    "lumicore.lemuria.cards.check_character": lambda: {
        "card": _lemuria_cards().characters["C01"], "where": "x"},
    "lumicore.lemuria.game.Cards": lambda: {
        "buildings": _lemuria_cards().buildings, "characters": _lemuria_cards().characters,
        "altar": _altar(), "impacts": _lemuria_cards().impacts},
    "lumicore.lemuria.game.order_from_vp": lambda: {"vp": [3, 5], "previous_dealer": 0,
                                                    "pedestals": {}},
    "lumicore.lemuria.harvests.Harvest": lambda: {"memory": 0},
    "lumicore.lemuria.harvests.Pedestal": lambda: {"material": "plant"},
    "lumicore.lemuria.harvests.Place": lambda: {"memory": 0, "material": "plant"},
    "lumicore.lemuria.instance.default_income": lambda: {"turns": 3, "seed": 0},
    "lumicore.lemuria.instance.Instance": lambda: _fields(values()[("lemuria", "instance")]),
    "lumicore.lemuria.rules.State": lambda: _fields(values()[("lemuria", "state")]),
    "lumicore.lemuria.rules.age_row": lambda: {"row": values()[("lemuria", "state")].row,
                                               "deck": values()[("lemuria", "state")].deck},
    "lumicore.lemuria.rules.bonuses_taken": lambda: {"instance": values()[("lemuria", "instance")],
                                                     "turn": 1},
    "lumicore.lemuria.rules.district_bonuses": lambda: {"state": values()[("lemuria", "state")],
                                                        "festival": False},
    "lumicore.lemuria.rules.festival_vp": lambda: {"instance": values()[("lemuria", "instance")],
                                                   "state": values()[("lemuria", "state")],
                                                   "turn": 1},
    "lumicore.lemuria.rules.festival_points": lambda: {
        "instance": values()[("lemuria", "instance")], "housed": [], "turn": 1},
    "lumicore.lemuria.rules.allowed_reductions": lambda: {
        "state": values()[("lemuria", "state")], "slot": 0},
    "lumicore.lemuria.schedule.Build": lambda: {"card": "B01"},
    "lumicore.lemuria.schedule.Exchange": lambda: {"give_back": "C01"},
    "lumicore.lemuria.schedule.Play": lambda: {"character": "C01"},
    "lumicore.lemuria.schedule.Remodel": lambda: {"discard": "B01", "card": "B02"},
    "lumicore.lemuria.schedule.Schedule": lambda: {"turns": []},
    "lumicore.lemuria.schedule.TurnPlan": lambda: {"turn": 1},
    "lumicore.lemuria.skills.Skill": lambda: {"kind": "rotate"},
    "lumicore.lemuria.skills.ImpactCard": lambda: _fields(
        next(iter(_lemuria_cards().impacts.values()))),
    # Lucia
    "lumicore.lucia.cards.Action": lambda: _fields(_deck()[0].actions[0]),
    "lumicore.lucia.cards.Card": lambda: _fields(_deck()[0]),
    "lumicore.lucia.heuristic.capacity": lambda: {"card": _deck()[0], "handmaidens": 1},
    "lumicore.lucia.notation.candles_of": lambda: {"code": values()[("lucia", "codes")][0]},
    "lumicore.lucia.notation.is_lucia": lambda: {"code": values()[("lucia", "codes")][0]},
    "lumicore.lucia.notation.role_of": lambda: {"code": values()[("lucia", "codes")][0]},
    "lumicore.lucia.notation.unpack": lambda: {"packed": values()[("lucia", "train")].packed},
    "lumicore.lucia.pdb.abstract_goals": lambda: {"length": 3, "counts": (1, 1)},
    "lumicore.lucia.render.moved_kids": lambda: {"play": _play()},
    "lumicore.lucia.render.plan_svg": lambda: {"start": values()[("lucia", "train")],
                                               "plan": [_play()]},
    "lumicore.lucia.start.scramble": lambda: {"depth": 2},
    "lumicore.lucia.train.Play": lambda: _fields(_play()),
    "solvers.lucia.puzzle.replay": lambda: {"start": values()[("lucia", "train")],
                                           "plan": [_play()]},
    "solvers.lucia.puzzle.search_kinds": lambda: {"kinds": _deck()},
    "solvers.lucia.deal.DealStep": lambda: {"player": 0, "play": _play()},
    "solvers.lucia.play.PlayEstimate": lambda: {"play": _play(), "wins": 1, "trials": 2},
    "solvers.lucia.play.Ranking": lambda: {"plays": [], "samples": 2, "elapsed": 0.0},
    "solvers.lucia.play.GameRecord": lambda: {"won": False},
    "solvers.lucia.play.check_sampling": lambda: {"samples": 2, "max_nodes": 200,
                                                 "time_limit": None},
    # Lumen
    "lumicore.lumen.dice.check_die": lambda: {"d": 3},
    "lumicore.lumen.dice.selection_value": lambda: {"name": "sum", "d1": 2, "d2": 5},
    "lumicore.lumen.dice.selections": lambda: {"d1": 2, "d2": 5},
    "lumicore.lumen.kernel.gains": lambda: {"sheet": values()[("lumen", "sheet")], "cell": 0,
                                            "value": 3},
    "lumicore.lumen.kernel.gains_all": lambda: {"sheet": values()[("lumen", "sheet")],
                                                "values": [3] * 12},
    "lumicore.lumen.kernel.strength_table": lambda: {"strengths": [1, 2, 3]},
    "lumicore.lumen.map.Map": lambda: _fields(_lumen_map()),
    "lumicore.lumen.render.map_svg": lambda: {"game_map": _lumen_map()},
    "lumicore.lumen.rules.strengths": lambda: {"units": values()[("lumen", "game")].units,
                                               "board": values()[("lumen", "board")]},
    "lumicore.lumen.rules.controllers": lambda: {"units": values()[("lumen", "game")].units,
                                                 "board": values()[("lumen", "board")]},
    "lumicore.lumen.rules.Score": lambda: {"territories": 1, "discovery": 2, "secrets": 0,
                                           "objectives": 0},
    "lumicore.lumen.sheet.Gains": lambda: {"identical": 1, "sequence": 2},
    "lumicore.lumen.sheet.Layout": lambda: _fields(values()[("lumen", "sheet")].layout),
    "lumicore.lumen.sheet.Sheet": lambda: {"layout": values()[("lumen", "sheet")].layout},
    "lumicore.lumen.sheet.grid_layout": lambda: {
        "cells": values()[("lumen", "sheet")].layout.cells},
    "lumicore.lumen.units.Board": lambda: _fields(values()[("lumen", "board")]),
    "lumicore.lumen.units.UnitKind": lambda: _fields(values()[("lumen", "board")].units[0]),
    # Reef
    "lumicore.reef.board.Board": lambda: _fields(values()[("reef", "board")]),
    "lumicore.reef.decisions.Score": lambda: {"color": "blue", "vp": 2},
    "lumicore.reef.decisions.Spend": lambda: {"where": "x"},
    "lumicore.reef.decisions.Turn": lambda: {"put": None, "action": "x"},
    "lumicore.reef.decisions.Orient": lambda: {"start": values()[("reef", "tiles")].starts[0]},
    "lumicore.reef.game.SplitMix64": lambda: {"state": 1},
    "lumicore.reef.io.from_json": lambda: {"data": __import__("json").loads(
        _reef_mod("io").dumps(values()[("reef", "reef")]))},
    "lumicore.reef.reef.Reef": lambda: _fields(values()[("reef", "reef")]),
    "lumicore.reef.render.side_by_side": lambda: {"reefs": [values()[("reef", "reef")]],
                                                  "captions": ["x"]},
    "lumicore.reef.scoring.final_scores": lambda: {"reefs": [values()[("reef", "reef")]],
                                                   "jellyfish": [0], "limestone": [1]},
    "lumicore.reef.scoring.gain_limestone": lambda: {"storage": 1, "amount": 1},
    "lumicore.reef.scoring.majority_points": lambda: {"counts": [3, 1]},
    "lumicore.reef.scoring.round_limestone": lambda: {"round_number": 1},
    "lumicore.reef.tiles.TileSet": lambda: _fields(values()[("reef", "tiles")]),
    "lumicore.reef.values.Piece": lambda: _fields(values()[("reef", "reef")].pieces[0]),
    "lumicore.reef.values.StartLumino": lambda: {"color_a": "pink", "color_b": "blue"},
    "lumicore.reef.values.animal_code": lambda: {"animal": "shellfish"},
    "lumicore.reef.kernel.check_price": lambda: {"value": 1.0, "name": "x"},
    # the Lemuria kernel's arrays: the doctests' examples
    "lumicore.lemuria.kernel.held_draw": lambda: {
        "nxt": np.zeros((1, 2, 2)), "bf": 3 * np.ones(1), "pg": np.ones(1), "pf": np.ones(1),
        "food": 2.0, "discard": 0.5 * np.ones(1), "jm": 1, "must": -1},
    "lumicore.lemuria.kernel.held_draws": lambda: {
        "nxt": np.zeros((2, 1, 2, 1)), "values": np.array([[2.0], [3.0]]),
        "succ": np.array([[1, -1]]), "least": np.array([0, 1]), "pg": np.ones(1),
        "pf": np.ones(1), "food": 0.0, "discard": np.ones(1), "jm": 1, "must": 1},
    "lumicore.lemuria.kernel.held_step": lambda: {
        "nxt": np.zeros((1, 2, 1, 1)), "values": np.array([[1.0, 5.0]]),
        "succ": np.zeros((0, 1), dtype=int), "least": np.zeros(1, dtype=int),
        "pg": np.ones(2), "pf": np.ones(2), "food": 0.0, "discard": np.ones(2), "jm": 0,
        "must": -1},
    "lumicore.lemuria.kernel.waiting_release": lambda: {
        "drawn": np.zeros((2, 1, 2, 1)), "upto": np.array([[[3.0]]]),
        "succ": np.zeros((0, 2), dtype=int)},
    "lumicore.lemuria.kernel.building_turn": lambda: {
        "nxt": np.zeros((1, 2, _cls("lumicore.lemuria.kernel.PATTERNS"))),
        "succ": np.zeros((1, 6), dtype=int), "gains": np.zeros((4, 1, 5)), "only": -1,
        "remodel": False, "bonus": np.zeros(_cls("lumicore.lemuria.kernel.PATTERNS")),
        "admin": 0},
    "lumicore.reef.kernel.search_hand": lambda: {
        "s": _cls("lumicore.reef.kernel.state")(values()[("reef", "reef")]),
        "kinds": list(values()[("reef", "hand")]), "counts": [1] * len(values()[("reef", "hand")]),
        "limestone": 2, "weights": [1.0] * len(_cls("lumicore.reef.kernel.FEATURES")),
        "prune": True, "max_nodes": 200, "time_limit": 0.05},
    # solvers: the arena, the shared bot helpers and small result records
    "solvers.arena.bot_names": lambda: {"game": "reef"},
    "solvers.arena.game_seed": lambda: {"seed": 0, "index": 1},
    "solvers.arena.make_bot": lambda: {"name": "random", "game": "reef"},
    "solvers.arena.seat_lineups": lambda: {"n_bots": 2, "players": 2},
    "solvers.arena.play_game": lambda: {"game": "lumen", "bots": ["random", "random"]},
    "solvers.arena.replay_record": lambda: {"record": _record()},
    "solvers.batch.check_workers": lambda: {"workers": 1, "backend": "process"},
    "solvers.bots.decision_actions": lambda: {"state": values()[("lumen", "game")]},
    "solvers.bots.positive_int": lambda: {"value": 2, "name": "x"},
    "solvers.bots.sample_outcome": lambda: {"state": new_reef_game(),
                                            "rng": np.random.default_rng(0)},
    "solvers.bots.score": lambda: {"state": values()[("lumen", "game")]},
    "solvers.bots.value_after": lambda: {"state": values()[("lumen", "game")], "player": 0,
                                         "rng": np.random.default_rng(0), "samples": 1},
    "solvers.limits.exit_code": lambda: {"status": "done", "has_answer": True},
    "solvers.stats.wilson": lambda: {"successes": 1, "trials": 2},
    "solvers.stats.plackett_luce": lambda: {"ranking_games": [[("a", 1.0), ("b", 0.0)]]},
    "solvers.progress.check_callback": lambda: {"progress": print},
    "solvers.progress.check_progress": lambda: {"progress": None},
    "solvers.reef.placement.Objective": lambda: {"weights": (1.0,) * _n_terms()},
    "solvers.reef.placement.as_objective": lambda: {"objective": "final:dark"},
    "solvers.reef.placement.weighted": lambda: {"terms": {"final:dark": 1.0}},
    "solvers.lumen.planner.Choice": lambda: {"action": 0, "move": "x", "value": 0.5, "low": 0.0,
                                             "high": 1.0},
    "solvers.lumen.planner.ChoiceResult": lambda: {"player": 0, "method": "x", "status": "done"},
    "solvers.lumen.odds.WinProbability": lambda: {"wins": (1, 0), "nobody": 0, "samples": 1,
                                                  "bot": "random"},
})


def _plain(cls: type, **given: Any) -> dict[str, Any]:
    """Arguments for the record class ``cls``: ``given``, and for every other field without a
    default a plain value of its annotation (0, 0.0, "x", False, None, an empty container)."""
    import dataclasses

    out = {}
    for f in dataclasses.fields(cls):
        if not f.init or f.name in given or f.default is not dataclasses.MISSING \
                or f.default_factory is not dataclasses.MISSING:
            continue
        note = str(f.type)
        out[f.name] = (None if "None" in note else 0.0 if note == "float"
                       else False if note == "bool" else 0 if note == "int"
                       else "done" if note == "str" else [] if note.startswith("list")
                       else {} if note.startswith("dict") else () if note.startswith("tuple")
                       else None)
    return {**out, **given}


def _written(name: str, text: str) -> str:
    """``text`` written to the file ``name`` in the scratch folder; its name."""
    Path(name).write_text(text, encoding="utf-8")
    return name


def _cls(path: str) -> Any:
    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(module), name)


def _schedule() -> Any:
    return values()[("lemuria", "schedule")]


def _reef_placement() -> Any:
    """A placement of the example hand's first lumino on the example reef."""
    return next(values()[("reef", "reef")].placements(values()[("reef", "lumino")], 2))


# Records the searches return (the fields of each given a plain value): they are built by users
# too (tests, notebooks), so a constructor that checks must check by name.
EXAMPLES.update({name: functools.partial(lambda n, **kw: _plain(_cls(n), **kw), name) for name in (
    "solvers.lucia.puzzle.SolveResult", "solvers.lucia.deal.DealResult",
    "solvers.lucia.winrate.DealOutcome", "solvers.lucia.winrate.WinRate",
    "solvers.lemuria.exhaustive.ExhaustiveResult", "solvers.lemuria.branch.BranchResult",
    "solvers.lemuria.bound.BoundResult", "solvers.lemuria.ModelStats",
    "solvers.lemuria.turn.TurnResult", "solvers.reef.turn.TurnResult",
    "solvers.reef.turn.RankedTurn", "lumicore.lemuria.simulate.SimResult",
    "lumicore.lemuria.harvests.HarvestResult", "lumicore.reef.scoring.FinalScore",
    "lumicore.reef.values.Space", "solvers.lemuria.columns.Column",
)})
EXAMPLES.update({
    "solvers.lucia.puzzle.SolveResult": lambda: _plain(
        _cls("solvers.lucia.puzzle.SolveResult"), start=values()[("lucia", "train")],
        cards=tuple(_deck()[:1])),
    "solvers.lemuria.characters.CharacterPlan": lambda: {"schedule": _schedule(),
                                                         "status": "done"},
    "solvers.lemuria.exhaustive.ExhaustiveResult": lambda: {"vp": 0, "schedule": _schedule(),
                                                            "status": "done"},
    "solvers.lemuria.play.GameResult": lambda: {"game": values()[("lemuria", "game")],
                                                "winner": 0, "vp": [0, 0], "bots": ["x", "x"]},
    "lumicore.lemuria.simulate.TurnTrace": lambda: _plain(_cls("lumicore.lemuria.simulate."
                                                               "TurnTrace"), turn=1),
    "solvers.arena.TournamentResult": lambda: _plain(_cls("solvers.arena.TournamentResult"),
                                                     game="reef", players=2),
    "solvers.reef.placement.PlacementResult": lambda: _plain(
        _cls("solvers.reef.placement.PlacementResult"), reef=values()[("reef", "reef")]),
    "lumicore.reef.values.Placement": lambda: _fields(_reef_placement()),
    "lumicore.reef.decisions.Place": lambda: {"placement": _reef_placement()},
    "lumicore.reef.reef.HandPlacement": lambda: {"reef": values()[("reef", "reef")],
                                                 "limestone": 0, "placements": (),
                                                 "returned": ()},
    # files and the loaders that read them (written in the scratch folder)
    "lumicore.data.read_file": lambda: {"path": _written("x.txt", "x")},
    "lumicore.reef.io.load": lambda: {"path": _written("r.json", _reef_mod("io").dumps(
        values()[("reef", "reef")]))},
    "lumicore.lemuria.instance.load_instance": lambda: {"path": _written(
        "i.toml", values()[("lemuria", "instance")].to_toml())},
    "lumicore.lemuria.instance.instance_from_dict": lambda: {"data": __import__(
        "lumicore.data").data.parse_toml(values()[("lemuria", "instance")].to_toml())},
    "solvers.lucia.winrate.read_outcomes": lambda: {"path": _written("o.jsonl", "")},
    "lumicore.reef.game.read_records": lambda: {"records": _record_cached()},
    "lumicore.lumen.game.replay": lambda: {"record": _record()},
    # Lucia: deals, plays and the heuristic
    "solvers.lucia.deal.replay_deal": lambda: {"train": values()[("lucia", "train")],
                                               "deck": _deck(), "players": 1, "plan": []},
    "solvers.lucia.deal.solve_position": lambda: {
        "train": values()[("lucia", "train")], "hands": [_deck()[:3]], "deck": _deck()[3:],
        **TINY},
    "solvers.lucia.play.best_play": lambda: {"train": values()[("lucia", "train")],
                                             "hand": _deck()[:3], "unseen": _deck()[3:],
                                             "samples": 2, **TINY},
    "lumicore.lucia.deal.heuristic_table": lambda: {"kinds": tuple(_deck()[:3]),
                                                    "train": values()[("lucia", "train")]},
    "lumicore.lucia.heuristic.check_shape": lambda: {"train": values()[("lucia", "train")],
                                                     "table": _htable()},
    "lumicore.lucia.heuristic.estimate": lambda: {"train": values()[("lucia", "train")],
                                                  "table": _htable()},
    "lumicore.lucia.kernel.pack_trains": lambda: {"trains": [values()[("lucia", "train")]]},
    "lumicore.lucia.kernel.encode_action": lambda: {"action": _deck()[0].actions[0]},
    "lumicore.lucia.kernel.check_max_nodes": lambda: {"algorithm": "astar", "max_nodes": 200},
    "lumicore.lucia.kernel.check_weight": lambda: {"algorithm": "astar", "weight": 1},
    "lumicore.lucia.start.Setup": lambda: _fields(__import__(
        "lumicore.lucia.start").lucia.start.load_setup()),
    "lumicore.lucia.cards.read_card_kinds": lambda: {"items": [], "source": "x"},
    # Lemuria
    "lumicore.lemuria.game.describe_move": lambda: {"move": ("place", 2, "plant")},
    "lumicore.lemuria.harvests.replay_harvests": lambda: {
        "instance": values()[("lemuria", "instance")], "setup": _altar_setup(),
        "schedule": _harvest_schedule()},
    "lumicore.lemuria.harvests.AltarYear": lambda: {"setup": _altar_setup()},
    "solvers.lemuria.harvest.greedy_harvest_schedule": lambda: {
        "instance": values()[("lemuria", "instance")], "setup": _altar_setup()},
    "solvers.lemuria.harvest.greedy_materials": lambda: {
        "instance": values()[("lemuria", "instance")], "setup": _altar_setup()},
    "lumicore.lemuria.rules.place_chit": lambda: {"state": values()[("lemuria", "state")],
                                                  "district": "rural"},
    "lumicore.lemuria.rules.build_card": lambda: {
        "instance": values()[("lemuria", "instance")], "state": values()[("lemuria", "state")],
        "card": values()[("lemuria", "state")].row[0]},
    "lumicore.lemuria.rules.apply": lambda: {
        "instance": values()[("lemuria", "instance")], "state": values()[("lemuria", "state")],
        "action": _cls("lumicore.lemuria.schedule.Build")(
            values()[("lemuria", "state")].row[0], "rural")},
    "solvers.lumen.solitaire.sheet_value": lambda: {
        "sheet": _cls("lumicore.lumen.Sheet").parse("3 ."), "uses": (0, 0, 0, 0, 0),
        "limits": (1, 1, 1, 1, 1), "rounds": 1},
    # Lumen and Reef
    "lumicore.lumen.kernel.strength_sums": lambda: {"units": values()[("lumen", "game")].units,
                                                    "strengths": _side_strengths()},
    "lumicore.lumen.kernel.playouts": lambda: {"state": values()[("lumen", "game")], "n": 1},
    "lumicore.lumen.rules.score": lambda: {
        "player": 0, "units": values()[("lumen", "game")].units,
        "board": values()[("lumen", "board")], "game_map": _lumen_map(),
        "discovery": values()[("lumen", "game")].discovery, "secrets": 0,
        "objectives": []},
    "lumicore.reef.scoring.winners": lambda: {"scores": [_final_score()], "limestone": [1]},
    "solvers.bots.rollout": lambda: {"state": values()[("lumen", "game")],
                                     "rng": np.random.default_rng(0), "cutoff": 2},
    "solvers.arena.play_from": lambda: {"state": values()[("lumen", "game")],
                                        "bots": [_cls("solvers.bots.RandomBot")(seed=0)] * 2,
                                        "rng": 0},
    "solvers.console.say": lambda: {"line": "x"},
})


def _checks() -> Any:
    return importlib.import_module("lumicore.checks")


def _toml(module: str, table: str, key: str) -> Any:
    """The entries of the built-in data file ``table`` of ``module`` (its ``key`` tables)."""
    from lumicore.data import read_toml

    return read_toml("default", getattr(importlib.import_module(module), table))[key]


def _replayed() -> Any:
    from lumicore.game import replay_arena_record

    return replay_arena_record(_record())


EXAMPLES.update({
    # the field rules of saved data and the readers of data files
    "lumicore.checks.Maybe": lambda: {"spec": _checks().Text()},
    "lumicore.checks.ListOf": lambda: {"item": _checks().Text()},
    "lumicore.checks.MapOf": lambda: {"keys": _checks().Text(), "values": _checks().Text()},
    "lumicore.checks.Table": lambda: {"fields": {"a": _checks().Text()}},
    "lumicore.checks.Where": lambda: {"spec": _checks().Text(), "test": bool, "what": "x"},
    "lumicore.checks.Load": lambda: {"spec": _checks().Text(), "load": str, "what": "x"},
    "lumicore.checks.check_fields": lambda: {"data": {"a": 1}, "fields": {"a": _checks().Int()},
                                             "source": "x"},
    "lumicore.checks.check_known_keys": lambda: {"table": {"a": 1}, "known": ["a"],
                                                 "where": "x"},
    "lumicore.checks.field_error": lambda: {"source": "x", "path": "a", "what": "x", "value": 1},
    "lumicore.checks.read_key": lambda: {"table": {"a": 1}, "key": "a", "default": 0,
                                         "spec": _checks().Int(), "path": "a", "source": "x"},
    # a file of the scratch folder: with no built-in names given it is still read
    "lumicore.data.read_text": lambda: {"name_or_path": _written("x.toml", "a = 1"),
                                        "builtin": {"default": "lucia_deck.toml"}},
    "lumicore.data.read_toml": lambda: {"name_or_path": _written("x.toml", "a = 1"),
                                        "builtin": {"default": "lucia_deck.toml"}},
    "lumicore.data.resolve": lambda: {"name_or_path": _written("x.toml", "a = 1"),
                                      "builtin": {"default": "lucia_deck.toml"}},
    "lumicore.data.file_version": lambda: {"name_or_path": _written("x.txt", "x")},
    "lumicore.game.check_record_game": lambda: {"record": _record(), "game": "lumen",
                                                "what": "x"},
    "lumicore.game.check_record_returns": lambda: {"record": _record(), "state": _replayed(),
                                                   "what": "x"},
    "lumicore.lemuria.cards.parse_buildings": lambda: {"entries": _toml(
        "lumicore.lemuria.cards", "BUILTIN_BUILDINGS", "building")},
    "lumicore.lemuria.cards.parse_characters": lambda: {"entries": _toml(
        "lumicore.lemuria.cards", "BUILTIN_CHARACTERS", "character")},
    "lumicore.lemuria.skills.parse_impacts": lambda: {"entries": _toml(
        "lumicore.lemuria.skills", "BUILTIN_IMPACTS", "impact")},
    "lumicore.lemuria.game.Game": lambda: {
        "players": 2, "seed": 0, "options": values()[("lemuria", "game")].options,
        "state": values()[("lemuria", "game")].s, "cards": _lemuria_cards()},
    # Lucia's kernel doors on the example train
    "lumicore.lucia.heuristic.HeuristicTable": lambda: _fields(_htable()),
    "lumicore.lucia.kernel.count_successors": lambda: {"states": _packed(), "table": _ctable()},
    "lumicore.lucia.kernel.expand": lambda: {"states": _packed(), "table": _ctable()},
    "lumicore.lucia.kernel.successors": lambda: {
        "packed": values()[("lucia", "train")].packed, "table": _ctable(), "card": 0},
    "lumicore.lucia.kernel.heuristic": lambda: {"states": _packed(), "htable": _htable()},
    "solvers.lucia.play.play_game": lambda: {
        "game": importlib.import_module("lumicore.lucia.deal").deal(0), "policy": "greedy",
        "samples": 2, **TINY},
    "solvers.batch.worker_count": lambda: {"workers": 1, "default": os.cpu_count},
    "solvers.batch.parent_ended": lambda: {"parent": os.getppid()},
    "lumicore.reef.kernel.playout": lambda: {
        "players": 2, "seed": 0, "board": values()[("reef", "board")],
        "luminos": values()[("reef", "tiles")].luminos,
        "starts": values()[("reef", "tiles")].starts, "emergency": 0},
})


def _deal_state() -> Any:
    """A Lucia deal game with its hands dealt (its chance nodes played)."""
    from lumicore.lucia.deal_game import DealState

    state = DealState.new_game(players=2)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


EXAMPLES.update({
    "lumicore.data.writing": lambda: {"path": "x.out"},
    "lumicore.game.checked_load": lambda: {"load": _replayed, "what": "x"},
    "lumicore.lucia.kernel.search": lambda: {
        "algorithm": "astar", "train": values()[("lucia", "train")], "table": _ctable(),
        "htable": _htable(), **TINY},
    "lumicore.lucia.kernel.SearchOutcome": lambda: {
        "status": "done", "reason": None, "states": [], "cards": [], "nodes": 0, "expanded": 0,
        "generated": 0, "bound": 0},
    "lumicore.lucia.pdb.PatternDatabase": lambda: {
        "abstraction": "LSG", "length": 3, "counts": (1, 1), "values": np.zeros(1, np.uint8),
        "key": "x"},
    "lumicore.lucia.deal_game.DealState": lambda: {
        "train": _deal_state().train, "kinds": _deal_state().kinds,
        "hands": _deal_state().hands},
    "solvers.lemuria.harvest.HarvestYearModel": lambda: {
        "instance": values()[("lemuria", "instance")], "setup": _altar_setup()},
})


def _packed() -> Any:
    return np.array([values()[("lucia", "train")].packed], dtype=np.uint64)


def _ctable() -> Any:
    from lumicore.lucia.kernel import card_table

    return card_table(_deck()[:3])


def _htable() -> Any:
    from lumicore.lucia.heuristic import build_table

    return build_table(_deck()[:3], values()[("lucia", "train")])


@functools.cache
def _harvest_schedule() -> Any:
    """The greedy year of the example instance with the default altar (a valid schedule of
    material operations)."""
    from solvers.lemuria.harvest import greedy_harvest_schedule

    return greedy_harvest_schedule(values()[("lemuria", "instance")], _altar_setup())


def _altar_setup() -> Any:
    from lumicore.lemuria.harvests import AltarSetup

    return AltarSetup()


def _side_strengths() -> Any:
    from lumicore.lumen.rules import side_strengths

    return side_strengths(values()[("lumen", "board")])


def _final_score() -> Any:
    from lumicore.reef.scoring import final_scores

    return final_scores([values()[("reef", "reef")]], [0], [1])[0]


# The Lemuria solvers' CP-SAT internals, on a 2-turn year. Their examples hold objects that
# deepcopy cannot copy (a CP-SAT solver, a year model and its variables), so each call builds
# its example anew (REBUILT).
def _year() -> Any:
    from lumicore.lemuria import default_instance
    from solvers.lemuria.model import YearModel

    return YearModel(default_instance(0, turns=2))


def _solved_year() -> dict[str, Any]:
    """A year model and the values of every variable of one of its years (the empty year)."""
    year = _year()
    return {"year": year, "values": year.complete_hint()}


def _tiny_model() -> dict[str, Any]:
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    x = model.new_int_var(0, 3, "x")
    model.maximize(x)
    return {"model": model, "x": x}


def _make_solver(seconds: float) -> Any:
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = seconds
    return solver


def _watch() -> Any:
    from solvers.lemuria.search import Watch

    return Watch(show=False)


@functools.cache
def _fast_bound(turns: int) -> Any:
    """The column-generation bound of the default year of seed 2 with ``turns`` turns."""
    from lumicore.lemuria import default_instance
    from solvers.lemuria.bound import lagrangian_bound

    return lagrangian_bound(default_instance(2, turns=turns))


def _empty_plan(turns: int) -> Any:
    from types import SimpleNamespace

    return SimpleNamespace(spend=np.zeros((4, turns)), gain=np.zeros((4, turns)),
                           built=np.zeros((turns, 4)), housed=np.zeros((turns, 4)),
                           owned=np.zeros(turns))


EXAMPLES.update({
    "lumicore.checks.check_array": lambda: {"array": np.zeros((4, 3)), "name": "x",
                                           "shape": (4, None)},
    "solvers.lemuria.lns.turn_literals": lambda: {"year": _year(), "t": 1},
    "solvers.lemuria.lns.neighbourhood": lambda: {**_solved_year(), "window": range(1, 2),
                                                  "floor": 0},
    "solvers.lemuria.lns.improve": lambda: {
        **_solved_year(), "vp": 0, "watch": _watch(), "make_solver": _make_solver,
        "deadline": __import__("time").perf_counter() + 0.6, "seed": 0, "windows": (1,)},
    "solvers.lemuria.dives.fixed_builds": lambda: {"year": _year(), "options": (0, 0)},
    "solvers.lemuria.dives.dive": lambda: {"year": _year(), "options": (0, 0),
                                           "watch": _watch(), "make_solver": _make_solver,
                                           "seconds": 0.1},
    "solvers.lemuria.dives.column_options": lambda: {"fast": _fast_bound(3), "limit": 3},
    "solvers.lemuria.columns.Master": lambda: {"start": np.zeros((4, 3)), "festivals": [2],
                                               "empty": _empty_plan(3), "barred": ()},
    "solvers.lemuria.model.fix_variable": lambda: {**_tiny_model(), "value": 2},
    "solvers.lemuria.model.hint_all": lambda: {"model": _tiny_model()["model"],
                                               "values": [2]},
    "solvers.lemuria.search.branch_count": lambda: {"solver": _make_solver(0.1)},
    "solvers.lemuria.search.solve_checked": lambda: {"solver": _make_solver(0.1),
                                                     "model": _tiny_model()["model"]},
    "solvers.lemuria.search.solve_watched": lambda: {
        "solver": _make_solver(0.1), "model": _tiny_model()["model"], "watch": _watch(),
        "bounds": True},
    "solvers.lemuria.search.wait_watched": lambda: {"watch": _watch(), "seconds": 0.01},
    # a process beside, for at most a tenth of a second
    "solvers.lemuria.beside.BranchBeside": lambda: {
        "instance": __import__("lumicore.lemuria").lemuria.default_instance(2, turns=2),
        "root": _fast_bound(2), "seconds": 0.1, "vp": 0},
})
REBUILT = {name for name in EXAMPLES if name.startswith(("solvers.lemuria.lns.",
                                                          "solvers.lemuria.search.",
                                                          "solvers.lemuria.dives.",
                                                          "solvers.lemuria.model."))}
"""Examples built anew for each call, not deep-copied (see above)."""


def example(name: str, fn: Callable[..., Any]) -> dict[str, Any] | None:
    """Valid keyword arguments for ``fn`` (None: none can be built)."""
    if name in EXAMPLES:
        return EXAMPLES[name]()
    table = values()
    family = _family(name)
    kwargs = {}
    for p in inspect.signature(fn).parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if p.name in TINY and p.kind != p.POSITIONAL_ONLY:
            kwargs[p.name] = TINY[p.name]
        elif p.default is p.empty:
            for key in ((family, p.name), ("", p.name)):
                if key in table:
                    kwargs[p.name] = table[key]
                    break
            else:
                return None
    return kwargs


def names_it(message: str, param: str, value: object) -> bool:
    """Whether the error ``message`` names the parameter (its type's name counts: "expected a
    lemuria Instance"; "a card" for ``cards``) or quotes the value."""
    lower = message.lower()
    return (param.lower() in lower or param.lower().rstrip("s") in lower
            or shorten(value) in message or repr(value) in message)


def names_file_content(message: str, valid: object, bad: object) -> bool:
    """Whether the error ``message`` about data read from a file names one of its keys (a key
    of the ``valid`` example's data, quoted: 'turns', [[memory]]) or quotes the ``bad`` value
    as JSON writes it (NaN, Infinity)."""
    keys = [k for k in valid if isinstance(k, str)] if isinstance(valid, dict) else []
    if any(f"'{k}'" in message or f"[[{k}]]" in message for k in keys):
        return True
    try:
        return f"got {json.dumps(bad)}" in message
    except (TypeError, ValueError):  # no JSON value
        return False


def excused(name: str, param: str, exc: LumicoreError, valid: object, bad: object) -> bool:
    """Whether ``exc`` is right for the file data (:data:`FILE_DATA`) or the plan
    (:data:`PLANS`) ``param`` of ``name`` holds, though it does not name the argument."""
    if isinstance(exc, DataError) and FILE_DATA.get(name, ("",))[0] == param:
        return names_file_content(str(exc), valid, bad)
    if isinstance(exc, IllegalMoveError) and PLANS.get(name, ("",))[0] == param:
        return re.match(r"turn \d+\b", str(exc)) is not None
    return False


def fuzz(name: str) -> list[str]:
    """The contract breaches of ``name``: one line each."""
    fn = TARGETS[name]
    kwargs = example(name, fn)
    if kwargs is None:
        return [f"{name}: no valid example"]
    def fresh() -> dict[str, Any]:  # copies: a call may change a state it is given
        return example(name, fn) if name in REBUILT else copy.deepcopy(kwargs)

    try:
        call(fn, fresh())
    except Exception as exc:  # the example itself must be valid
        return [f"{name}: the valid example raised {type(exc).__name__}: {exc}"]
    breaches = []
    for p in inspect.signature(fn).parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD, p.POSITIONAL_ONLY):
            continue
        for bad in bad_values(p):
            try:
                # a fresh [] or {}: a valid {} (a memo) is filled by the call
                bad_value = type(bad)() if isinstance(bad, (dict, list)) else bad
                call(fn, {**fresh(), p.name: bad_value})
            except LumicoreError as exc:
                # a parser's error about the text it reads names the token, not the argument
                content = isinstance(exc, (DataError, NotationError)) and isinstance(
                    bad, (str, bytes))
                fits = content or names_it(str(exc), p.name, bad) or excused(
                    name, p.name, exc, kwargs[p.name], bad)
                if not fits or "\n" in str(exc).strip():
                    breaches.append(f"{name}({p.name}={shorten(bad)}): message does not name "
                                    f"it: {str(exc)[:120]}")
            except Hang:
                breaches.append(f"{name}({p.name}={shorten(bad)}): no answer in {TIMEOUT} s")
            except Exception as exc:
                breaches.append(f"{name}({p.name}={shorten(bad)}): {type(exc).__name__}: "
                                f"{str(exc)[:120]}")
    return breaches


@pytest.fixture(autouse=True)
def _scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run in a scratch folder: "x" given as an output path (``record``, ``out``) writes there."""
    monkeypatch.chdir(tmp_path)


def _lemuria_at_pass() -> Any:
    """A Lemuria game played from the deal to the setup's pass (its first chance outcomes)."""
    game = copy.deepcopy(values()[("lemuria", "game")])
    while game.phase != "pass" and game.is_chance_node():
        game.apply_action(game.chance_outcomes()[0][0])
    return game


def _case(name: str) -> Any:
    """``name`` as a test case, a strict xfail when it is in KNOWN."""
    if name in KNOWN:
        return pytest.param(name, marks=pytest.mark.xfail(reason=KNOWN[name], strict=True))
    return name


FUZZED = [n for n in sorted(set(TARGETS) - set(SKIP))
          if n in EXAMPLES or example(n, TARGETS[n]) is not None]
"""The targets with a valid example call; the others are not fuzzed yet (counted below). An
``EXAMPLES`` entry is not called here, as the tests are collected: some write their files, in
the scratch folder of the test that calls them, not in the folder pytest runs in."""
UNFUZZED_AT_MOST = 0
"""How many public callables have no valid example yet (none): a new function without one fails
:func:`test_functions_without_an_example_do_not_grow`."""


@pytest.mark.parametrize("name", [_case(n) for n in FUZZED])
def test_bad_arguments_are_lumicore_errors(name: str) -> None:
    breaches = fuzz(name)
    assert not breaches, "\n".join(breaches)


def test_functions_without_an_example_do_not_grow() -> None:
    unfuzzed = sorted(set(TARGETS) - set(SKIP) - set(FUZZED))
    assert len(unfuzzed) <= UNFUZZED_AT_MOST, (
        "public callables without a valid example (add one to EXAMPLES or values()): "
        + ", ".join(unfuzzed[:20]))


def test_the_lists_name_only_what_exists() -> None:
    """SKIP, SKIP_MODULES and KNOWN must not rot: each entry is a target (or module) still."""
    found = dict(targets())
    assert set(SKIP_MODULES) <= set(modules())
    assert not set(SKIP) - set(found), set(SKIP) - set(found)
    assert not set(KNOWN) - set(found), set(KNOWN) - set(found)
    assert not set(KNOWN) & set(SKIP)
    for name, (param, _) in {**FILE_DATA, **PLANS}.items():
        assert param in inspect.signature(found[name]).parameters, (name, param)


def test_file_data_and_plans_excuse_only_what_the_user_wrote() -> None:
    """The exceptions are narrow: another parameter, another error or a message naming neither
    a key of the file nor the value, nor a turn, is still a breach."""
    loader = "lumicore.lemuria.instance.instance_from_dict"
    plan = "lumicore.lemuria.harvests.replay_harvests"
    assert excused(loader, "data", DataError("missing key 'turns'"), {"turns": 3}, {})
    assert excused(loader, "data", DataError("x: got NaN"), {"turns": 3}, float("nan"))
    assert not excused(loader, "data", DataError("missing key 'turns'"), {"trend": 3}, {})
    assert not excused(loader, "data", LumicoreError("missing key 'turns'"), {"turns": 3}, {})
    assert not excused(loader, "base", DataError("missing key 'turns'"), {"turns": 3}, {})
    assert not excused("lumicore.data.read_text", "data", DataError("'turns'"), {"turns": 3}, {})
    assert excused(plan, "schedule", IllegalMoveError("turn 1: x"), [], [])
    assert not excused(plan, "schedule", IllegalMoveError("action 1: x"), [], [])
    assert not excused(plan, "schedule", DataError("turn 1: x"), [], [])


def test_collecting_the_fuzz_writes_nothing_where_pytest_runs(tmp_path: Path) -> None:
    """Building the list of fuzzed functions called the examples, and those that read a file
    wrote it in the folder pytest ran in (files of the repository's root were committed)."""
    import subprocess
    import sys

    path = os.pathsep.join([str(ROOT / "tests"), str(ROOT), os.environ.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, "-B", "-c", "import test_api_fuzz"], cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": path}, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert sorted(p.name for p in tmp_path.iterdir()) == []
