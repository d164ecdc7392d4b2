"""``best_turn(game)``: the current player's turn of a whole game, planned with the year model.

The rest of the year is planned for the player to act with the CP-SAT harvest model
(:func:`solvers.lemuria.harvest.build_harvest_schedule`), then the plan's first turn is mapped to
the game's moves. What the model needs and the game does not say is assumed, and the result says
so (``TurnResult.assumptions``):

- the other players' future actions come from a bot (``others``, default the Lemuria
  ``greedy``): the rest of the game is played out on a copy with every seat run by that bot
  (chance drawn from the game's seed); the cards the others build, the districts of their chits
  and their residents at festivals become the model's opponents, and the building deck's order
  is the one drawn in that play-out;
- the altar: its current contents and rotation; from then on the automatic turn each turn, no
  dealer's step, and the others' materials stay where they are (they place and harvest no more);
- the planned year has ``min(horizon, turns left)`` turns from the current month (its
  festivals and remodel turns are the calendar's: ``Instance.first_turn``); it starts from the
  player's present facilities with their residents and chits and the others' chits
  (``Instance.facilities``, ``Instance.chits``, ``Opponent.placed``; this turn's district
  bonuses are already taken: ``Instance.first_bonuses``), and may remodel them from month 8
  as the rules allow; skills are declined, except "gain" and "draw" skills, which are always
  taken.

A model move that the game does not allow when its turn comes (a district that is full in the
game, a card drawn differently) is skipped; the rest of the turn is then played by the greedy
bot's rule. :class:`PlannerBot` (the ``planner`` of ``solvers.lemuria.bots``) calls
:func:`best_turn` once at the start of each of its turns.

>>> from lumicore.lemuria import Game
>>> game = Game.new(players=2, seed=1)
>>> while game.is_chance_node() or game.phase == "pass":
...     _ = game.resolve_chance() if game.is_chance_node() else game.apply_action(0)
>>> result = best_turn(game, time_limit=2, horizon=3)
>>> result.player, result.moves[-1], result.others
(0, ('end',), 'greedy')
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from lumicore.checks import check_index, check_int, check_seed
from lumicore.errors import LumicoreError
from lumicore.lemuria import Build, Buy, Exchange, Instance, Opponent, Play, Remodel, Schedule
from lumicore.lemuria.altar import FESTIVALS, MONTHS, Memory
from lumicore.lemuria.game import Game, describe_move
from lumicore.lemuria.harvests import ME, OTHERS, AltarSetup, Harvest, Pedestal, Place
from lumicore.lemuria.schedule import COLORS, DISTRICTS
from solvers.ctrl_c import check, noting, pressed
from solvers.lemuria.harvest import build_harvest_schedule
from solvers.limits import INTERRUPTED, REASON_INTERRUPTED, check_limits

__all__ = ["DEFAULT_TURN_LIMIT", "TurnResult", "best_turn", "PlannerBot", "planner_instance"]

DEFAULT_TURN_LIMIT = 10.0
"""Seconds per planned turn (the play-out of the others and CP-SAT)."""
PLAY_OUT_SHARE = 0.5
"""The most of :func:`best_turn`'s ``time_limit`` the play-out of the others may take before
the ``greedy`` bot finishes it."""
MIN_MODEL_TIME = 0.05
"""CP-SAT's seconds when the play-out left less (its greedy hint is then the plan)."""
TAKE = ("gain", "draw")
"""Skills the planner always uses (the model leaves skills out)."""


@dataclass
class TurnResult:
    """The planned turn: ``moves`` (game move tuples, ending with ``("end",)``), the year
    ``plan`` they come from, its ``status`` and planned ``vp`` (the model's VP for the planned
    turns), the bot ``others`` that stood for the other players, the ``assumptions`` made and
    the ``elapsed`` seconds. Status ``"interrupted"`` (Ctrl-C) before any year was planned, in
    the play-out of the others: no ``moves``, ``plan`` None, ``vp`` 0."""

    player: int
    moves: list[tuple]
    plan: Schedule | None
    vp: int
    status: str
    others: str
    assumptions: list[str] = field(default_factory=list)
    elapsed: float = 0.0

    def __str__(self) -> str:
        """The moves, the planned year (:class:`~lumicore.lemuria.Schedule`'s text) and the
        assumptions made, a line each (it printed as the dataclass repr, plan and all)."""
        moves = "; ".join(describe_move(m) for m in self.moves) or "none"
        lines = [f"player {self.player + 1}: {moves} ({self.status}, planned {self.vp} VP, "
                 f"{self.elapsed:.1f} s)"]
        if self.plan is not None:
            lines += ["planned year: " + str(self.plan).replace("\n", "\n  ")]
        return "\n".join(lines + [f"assumed: {a}" for a in self.assumptions])


def _play_out(game: Game, others: str, seed: int, deadline: float | None = None
              ) -> tuple[Game, list[str], dict[int, dict[int, dict[str, int]]], int | None]:
    """The rest of the game with every seat played by the bot ``others``; also returns the
    building cards in the order they entered the Trend row, every player's housed
    facilities per colour at each festival to come, and the month from which the greedy bot
    played every seat instead, once the clock passed ``deadline`` (None if it never did)."""
    from solvers.arena import make_bot
    from solvers.lemuria.bots import GreedyBot

    options = {}
    if others == "planner" and deadline is not None:  # each of its turns is a search: cap it
        options["time_limit"] = max(deadline - time.perf_counter(), MIN_MODEL_TIME)
    sim = game.clone()
    # the named bots, then (past the deadline) greedy ones, which choose on a lemuria Game
    bots: list[Any] = [make_bot(others, "lemuria", seed=(seed + i) % 2**63, **options)
            for i in range(game.players)]
    greedy_from: int | None = None
    drawn: list[str] = []
    festivals: dict[int, dict[int, dict[str, int]]] = {q: {} for q in range(game.players)}
    turn = sim.turn
    while True:
        check()  # a press whose KeyboardInterrupt Python dropped stops the play-out too
        if sim.turn != turn or sim.is_terminal():
            if turn in FESTIVALS:
                for q in range(game.players):
                    festivals[q][turn] = _festival_residents(sim, q)
            turn = sim.turn
        if sim.is_terminal():
            break
        if sim.is_chance_node():
            kind = sim.s["pending"][0][0]
            action = sim.resolve_chance()
            if kind == "row":
                drawn.append(sim.cards.building_ids[action])
            continue
        if greedy_from is None and deadline is not None and time.perf_counter() > deadline:
            greedy_from = sim.turn
            bots = [GreedyBot(seed=(seed + i) % 2**63) for i in range(game.players)]
        sim.apply_action(bots[sim.current_player()].choose(sim))
    return sim, drawn, festivals, greedy_from


def _opponents(game: Game, sim: Game, festivals: dict, player: int, turns: int
               ) -> tuple[Opponent, ...]:
    """What the others did in the play-out, per planned turn: their cards, chits and
    festival residents. The model's opponents act before the player in each turn, so a move
    made after the player's turn of its month counts in the next planned turn (the others'
    moves of this month come after the player's: in turn 2; a second build that lands on a
    turn already holding one is left out)."""
    t0 = game.turn
    per_player: list[dict[str, dict]] = []
    history_moves = _moves_by_turn(game, sim, player)
    for q in range(game.players):
        if q == player:
            continue
        builds, chits = {}, {}
        for turn, move, after in history_moves.get(q, []):
            rel = turn - t0 + 1 + after
            if not 2 <= rel <= turns:
                continue
            if move[0] in ("build", "remodel") and rel not in builds:
                builds[rel] = move[1] if move[0] == "build" else move[2]
                if move[0] == "build" and move[2] is not None:
                    chits[rel] = move[2]
        residents = {}
        for festival, housed in festivals[q].items():
            rel = festival - t0 + 1
            if 1 <= rel <= turns:
                residents[rel] = housed
        placed = dict(zip(DISTRICTS, game.s["pl"][q]["chits"], strict=True))
        per_player.append({"builds": builds, "chits": chits, "residents": residents,
                           "placed": placed})
    taken: set[str] = set()
    out = []
    for data in per_player[:3]:
        data["builds"] = {t: c for t, c in data["builds"].items() if c not in taken}
        taken |= set(data["builds"].values())
        out.append(Opponent(**data))
    return tuple(out)


def _moves_by_turn(game: Game, sim: Game, player: int
                   ) -> dict[int, list[tuple[int, tuple, bool]]]:
    """Replay the play-out's new actions to list each player's moves with their turn and
    whether ``player`` had ended their turn of that month before."""
    replay = game.clone()
    out: dict[int, list[tuple[int, tuple, bool]]] = {}
    ended: set[int] = set()  # the months whose turn ``player`` has ended
    for action in sim.s["history"][len(game.s["history"]):]:
        if not replay.is_chance_node():
            move, mover = replay.moves()[action], replay.current_player()
            out.setdefault(mover, []).append((replay.turn, move, replay.turn in ended))
            if mover == player and move == ("end",):
                ended.add(replay.turn)
        replay.apply_action(action)
    return out


def planner_instance(game: Game, player: int, horizon: int, others: str = "greedy",
                     seed: int = 0, time_limit: float | None = None
                     ) -> tuple[Instance, AltarSetup, list[str]]:
    """The year model's instance and altar for ``player`` from now (see the module docstring),
    and the list of assumptions made. ``time_limit`` (seconds) caps the play-out by
    ``others``: once it is spent, checked between two decisions, the ``greedy`` bot plays the
    rest of the game (an assumption says from which month)."""
    if not isinstance(game, Game):
        raise LumicoreError(f"planner_instance needs a lumicore.lemuria.Game, got "
                            f"{type(game).__name__}")
    player = check_index(player, game.players, "player", "a player index")
    seed = check_seed(seed)
    check_limits(None, time_limit)
    turns = max(1, min(horizon, MONTHS - game.turn + 1))
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    sim, drawn, festivals, greedy_from = _play_out(game, others, seed, deadline)
    s = game.s
    known = [c for c in drawn if c in s["bdeck"]]
    rest = sorted(set(s["bdeck"]) - set(known))
    rng = np.random.default_rng(seed)
    deck = known + [str(c) for c in rng.permutation(rest)] + list(s["bbottom"])
    chars = [str(c) for c in rng.permutation(sorted(s["cdeck"]))] + list(s["cbottom"])
    me = s["pl"][player]
    instance = Instance(
        turns=turns, buildings=game.cards.buildings, characters=game.cards.characters,
        trend=tuple(s["row"]), deck=tuple(deck), start=dict(me["res"]),
        hand=tuple(sorted(me["hand"])), character_deck=tuple(chars),
        opponents=_opponents(game, sim, festivals, player, turns), first_turn=game.turn,
        facilities=dict(me["fac"]), chits=dict(zip(DISTRICTS, me["chits"], strict=True)),
        first_bonuses=("administrative",) if s["admin"][player] else ())
    start = []
    for material, owners, black in s["altar"]:
        mapped = tuple(sorted(ME if o == player else OTHERS for o in owners))
        start.append(Memory(material if owners else None, mapped, black))
    setup = AltarSetup(card=game.cards.altar, start=tuple(start), rotation=game.rotation,
                       materials=dict(me["mat"]), first_turn=game.turn)
    played = f"the other players play as the {others!r} bot"
    if greedy_from is not None:
        played += (f" until the play-out's {time_limit:g} s ran out in month {greedy_from}, "
                   "then as the 'greedy' bot")
    assumptions = [played,
                   "no dealer's optional altar step; the others' materials stay",
                   f"{turns} turns planned from month {game.turn}, from the present "
                   "facilities, residents and chits"]
    return instance, setup, assumptions


def _to_moves(game: Game, player: int, actions: tuple) -> list[tuple]:
    """The plan's first-turn actions as game moves, checked on a copy of the game (moves the
    game does not allow are skipped)."""
    sim = game.clone()
    out: list[tuple] = []

    def try_move(candidates: list[tuple]) -> None:
        legal = sim.moves()
        for move in candidates:
            if move in legal:
                out.append(move)
                sim.apply_move(move)
                while sim.is_chance_node():
                    sim.resolve_chance()
                return

    for action in actions:
        if sim.is_terminal() or sim.current_player() != player:
            break
        legal = sim.moves()
        if isinstance(action, Place):
            try_move([("place", action.memory, action.material)])
        elif isinstance(action, Pedestal):
            try_move([m for m in legal if m[0] == "pedestal" and m[2] == action.material])
        elif isinstance(action, Harvest):
            try_move([("harvest", action.memory, int(action.paid))])
        elif isinstance(action, Build):  # the plan's district and reductions first
            same = [m for m in legal if m[0] == "build" and m[1] == action.card]
            try_move(sorted(same, key=lambda m: (m[2] != action.district,
                                                 sorted(m[3]) != sorted(action.reduce))))
        elif isinstance(action, Remodel):
            same = [m for m in legal if m[:3] == ("remodel", action.discard, action.card)]
            try_move(sorted(same, key=lambda m: sorted(m[3]) != sorted(action.reduce)))
        elif isinstance(action, Play):
            skill = game.cards.skills[action.character]
            plays = [m for m in legal if m[:3] == ("play", action.character, action.house_in)]
            take = skill is not None and skill.kind in TAKE
            try_move(sorted(plays, key=lambda m: (m[3] == "decline") == take))
        elif isinstance(action, Buy):
            try_move([("buy",)])
        elif isinstance(action, Exchange):
            try_move([("exchange",)])
            if sim.s["give_back"]:
                hand = sim.hand(player)
                give = action.give_back if action.give_back in hand else hand[0]
                try_move([("give", give)])
    out.append(("end",))
    return out


@noting()
def best_turn(game: Game, time_limit: float | None = DEFAULT_TURN_LIMIT, others: str = "greedy",
              horizon: int = MONTHS, seed: int = 0, workers: int = 1) -> TurnResult:
    """Plan the current player's turn (see the module docstring). ``game`` must be at a
    decision of the main phase; ``time_limit`` (seconds) covers the whole call: the others'
    play-out takes at most half of it (then the ``greedy`` bot finishes the play-out: one
    decision of a searching bot, or the greedy play-out itself, may overrun that share),
    CP-SAT the rest; building the year model (about half a second on a whole year on the
    2-core machine of docs/lemuria.md) is not cut short, so a limit under about a second is
    overrun by it, and when the build used the time up the plan is the greedy one.
    ``horizon`` is the most turns planned ahead.

    Ctrl-C returns status ``"interrupted"``: while CP-SAT runs, with its best plan so far;
    while the model is built, with the greedy plan (the solver's hint); while the others'
    play-out runs, with nothing planned (no moves, ``plan`` None)."""
    if not isinstance(game, Game):
        raise LumicoreError(f"best_turn needs a lumicore.lemuria.Game, got {type(game).__name__}")
    if game.is_terminal() or game.is_chance_node() or game.phase != "main":
        raise LumicoreError(f"best_turn plans a player's main phase; the game is at {game.phase}")
    if game.s["give_back"]:  # the turn cannot end here: a card is owed to the deck
        raise LumicoreError("best_turn plans from a decision where the turn may end; the player "
                            "gives a card back first (the exchange's second half)")
    spent = _spent_this_turn(game)
    if spent:
        raise LumicoreError(f"best_turn plans a turn from its start; this turn has had {spent} "
                            "(the year model would plan them again)")
    horizon = check_int(horizon, "horizon", 1, what="a positive integer")
    check_limits(None, time_limit)
    start = time.perf_counter()
    player = game.current_player()
    share = None if time_limit is None else time_limit * PLAY_OUT_SHARE
    assumptions: list[str] = []
    plan = None
    try:
        instance, setup, assumptions = planner_instance(game, player, horizon, others, seed,
                                                        share)
        if time_limit is not None:
            time_limit = max(time_limit - (time.perf_counter() - start), MIN_MODEL_TIME)
        plan = build_harvest_schedule(instance, setup, time_limit=time_limit, workers=workers,
                                      seed=seed % 2**31)
        return _planned_turn(game, player, plan, others, assumptions, start)
    except KeyboardInterrupt:  # in the others' play-out (or between the steps)
        if plan is None:  # no year yet
            note = "Ctrl-C stopped the call before a year was planned"
            return TurnResult(player, [], None, 0, INTERRUPTED, others, [*assumptions, note],
                              time.perf_counter() - start)
        plan.status, plan.reason = INTERRUPTED, REASON_INTERRUPTED  # just after the year
        return _planned_turn(game, player, plan, others, assumptions, start)


def _spent_this_turn(game: Game) -> str:
    """What the current player's turn has used up that a year model starts afresh: its
    material operation, build or remodel, or a skill's discount, extra build or Trend bonus
    ('' at the start of a turn, where characters played and bought change only the state)."""
    s = game.s
    spent = [what for what, used in (
        ("its material operation", s["op"] is not None), ("its build", s["builds"] < 1),
        ("an extra build", s["builds"] > 1), ("a remodel", s["remodeled"]),
        ("a skill's discount", s["discount"] > 0), ("an Impact's Trend bonus", bool(s["bonus"])))
        if used]
    return " and ".join(spent)


def _planned_turn(game: Game, player: int, plan: Schedule, others: str,
                  assumptions: list[str], start: float) -> TurnResult:
    """The :class:`TurnResult` of ``plan``: its first turn as moves (:func:`_to_moves`). A
    Ctrl-C pressed in :func:`best_turn` until then or while the moves are mapped is noted,
    not raised: the moves are kept and the status is ``"interrupted"``."""
    with noting(raising=False):
        moves = _to_moves(game, player, plan.turns[0].actions)
        if pressed() and plan.status != INTERRUPTED:
            plan.status, plan.reason = INTERRUPTED, REASON_INTERRUPTED
        return TurnResult(player, moves, plan, plan.vp, plan.status, others, assumptions,
                          time.perf_counter() - start)


class PlannerBot:
    """Plays :func:`best_turn`'s moves, then lets the greedy bot finish the turn (the moves
    the game did not allow, and ending the turn when nothing more helps); passes the setup
    card scoring least (``vp_match``) and leaves the altar as it is."""

    def __init__(self, seed: int = 0, time_limit: float | None = DEFAULT_TURN_LIMIT,
                 horizon: int = MONTHS, others: str = "greedy") -> None:
        from solvers.arena import make_bot
        from solvers.lemuria.bots import GreedyBot

        seed = check_seed(seed)
        check_limits(None, time_limit)
        make_bot(others, "lemuria")  # an unknown bot fails now, not at the first turn
        horizon = check_int(horizon, "horizon", 1, what="a positive integer")
        self.seed, self.time_limit, self.horizon, self.others = seed, time_limit, horizon, others
        self.greedy = GreedyBot(seed=seed)
        self._key: tuple[int, int] | None = None
        self._queue: list[tuple] = []
        self.last: TurnResult | None = None

    def choose(self, state: Game) -> int:
        moves = state.moves()
        player = state.current_player()
        if state.phase == "pass":
            from solvers.lemuria.bots import least_useful

            return least_useful(state)
        if state.phase == "altar":
            return 0
        key = (state.turn, player)
        if key != self._key and (state.s["give_back"] or _spent_this_turn(state)):
            self._key, self._queue = key, []  # a turn met halfway (a game resumed): greedy
        if key != self._key:
            self._key = key
            self.last = best_turn(state, self.time_limit, self.others, self.horizon,
                                  seed=(self.seed + state.turn) % 2**63)
            if self.last.status == INTERRUPTED:  # Ctrl-C stopped the plan: stop the game too
                raise KeyboardInterrupt
            self._queue = [m for m in self.last.moves if m != ("end",)]
        while self._queue:
            move = self._queue.pop(0)
            if move in moves:
                return moves.index(move)
        return self.greedy.choose(state)


def _festival_residents(game: Game, player: int) -> dict[str, int]:
    """Housed facilities per colour (for the festival log of a play-out)."""
    counts = {c: 0 for c in COLORS}
    for b, r in game.s["pl"][player]["fac"]:
        if r is not None:
            counts[game.cards.buildings[b].color] += 1
    return {c: n for c, n in counts.items() if n}

