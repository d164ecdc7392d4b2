"""A whole game of Lumen: The Lost World for two players as a :class:`~lumicore.game.GameState`.

Each round: chance rolls two dice; the first player chooses a selection and a bubble, then the
second player a different selection and a bubble (or passes when nothing is left to choose);
then the first player, and after them the second, writes the value, crosses High Command (bonus
and objective tokens are chance draws, a Mercenary is placed by its owner), and resolves the
chains: when both an identical and a sequence gain are earned the player picks which comes
first; reinforcements are placed one at a time (or the player stops), then the supply refills
from the bag (chance, one unit per draw); sequence choices (move, activate, glow) one at a time
(or stop). After 17 rounds the game is scored; a player with no units on the map loses at once.

Actions index the list of moves of the node (``action_to_string`` names them); chance nodes are
the first player (round 1), bag draws, dice rolls and token draws.

>>> from lumicore.game import play_randomly
>>> state = GameState.new_game(seed=1)
>>> state.is_chance_node(), state.action_to_string(0)
(True, 'player 1 starts')
>>> end = play_randomly(state, seed=4)
>>> end.is_terminal(), sorted(end.returns()) in ([0.0, 1.0], [0.0, 0.0])
(True, True)
>>> GameState.replay(end.record()) == end
True
"""

from __future__ import annotations

import json
import math
from operator import mul
from pathlib import Path
from typing import Any, cast

from lumicore.checks import (
    SEED_LIMIT,
    Choice,
    Int,
    Items,
    ListOf,
    Maybe,
    Spec,
    Table,
    Text,
    Where,
    check_fields,
    check_index,
    check_players,
    check_seed,
    field_error,
    read_json,
)
from lumicore.data import shorten
from lumicore.errors import DataError, LumicoreError
from lumicore.game import (
    CHANCE,
    NEW_GAME_DEFAULTS,
    TERMINAL,
    RecordRules,
    check_action,
    checked_load,
    replay_arena_record,
)
from lumicore.lumen import kernel
from lumicore.lumen.dice import ROLLS, SELECTIONS, selections
from lumicore.lumen.map import Map, load_map
from lumicore.lumen.rules import Score, score, side_strengths
from lumicore.lumen.sheet import Layout, Sheet, load_layout
from lumicore.lumen.units import BONUS_KINDS, Board, load_board

__all__ = ["GameState", "replay", "check_seed"]

PHASES = ("first", "draw", "roll", "choose", "bonus", "objective", "mercenary", "order",
          "reinforce", "sequence", "over")
CHANCE_PHASES = frozenset({"first", "draw", "roll", "bonus", "objective"})
MERCENARY, SECRET, GLOW = (BONUS_KINDS.index(b) for b in ("mercenary", "secret", "glow"))
STEPS = ("bonus", "objective", "order", "reinforce", "sequence")
"""The steps a resolving player may have left (``todo``)."""
RESOLVING = frozenset({*STEPS, "mercenary"})
"""The phases of a player's resolution."""
SOURCE = "serialized lumen game"
HEADER = {"game": Choice("lumen", what='"lumen"'),
          "options": Table({"scenario": Text("a scenario name or path"),
                            "board": Text("a board name or path")}),
          "seed": Int(0, SEED_LIMIT - 1, "a seed from 0 to 2**63 - 1")}
"""The fields read first: they say which game, board and map the other fields describe."""




def _option(value: object, what: str) -> str:
    if not isinstance(value, (str, Path)):
        raise LumicoreError(f"{what} must be a name or a path, got {shorten(value)}")
    return str(value)


class GameState:
    """A position of a two-player game (mutable; :meth:`clone` copies it)."""

    def __init__(self, scenario: str = "A", board: str = "default", seed: int = 0) -> None:
        self.options = {"scenario": _option(scenario, "scenario"),
                        "board": _option(board, "board")}
        self.seed = check_seed(seed)
        board_file, scenario_file = (shorten(self.options[k]) for k in ("board", "scenario"))
        self.board: Board = load_board(self.options["board"])
        self.map: Map = load_map(self.options["scenario"])
        for p in (0, 1):
            for _, kind, _ in self.map.start[p]:
                if kind not in self.board.kinds:
                    raise DataError(f"{scenario_file}: start unit {shorten(kind)} is not a unit "
                                    f"of the board {board_file} (known: "
                                    f"{', '.join(self.board.kinds)})")
        try:
            layout = load_layout(self.board.layout)
        except DataError as exc:
            raise DataError(f"{board_file}: layout: {exc}") from None
        self._start(layout)

    @classmethod
    def _of(cls, board: Board, game_map: Map, layout: Layout) -> GameState:
        """A fresh game of a board, map and layout already loaded (its options name them but
        are not read: the kernel's setup of a state's own objects, whatever their files say
        now)."""
        new = object.__new__(cls)
        new.options, new.seed = {"scenario": game_map.name, "board": board.name}, 0
        new.board, new.map = board, game_map
        new._start(layout)
        return new

    def _start(self, layout: Layout) -> None:
        """Every field of a fresh game of this state's board and map, on sheets of ``layout``."""
        k = len(self.board.kinds)
        self._strength = side_strengths(self.board)
        self.round = 1
        self.phase = "first"
        self.first = 0
        self.actor = 0           # the player to decide, or whose chance event this is
        self.resolving = 0       # 0: the first player resolves, 1: the second
        self.dice: tuple[int, int] = (0, 0)
        self.picks: list[tuple[int, int] | None] = [None, None]   # (selection, bubble) or None
        self.uses = [[0] * len(SELECTIONS) for _ in (0, 1)]
        self.sheets = [Sheet(layout), Sheet(layout)]
        self.bag = [[self.board.bag[name] for name in self.board.kinds] for _ in (0, 1)]
        self.supply = [[0] * k for _ in (0, 1)]
        self.units = [[[0] * (2 * k) for _ in (0, 1)] for _ in self.map.territories]
        for p in (0, 1):
            for t, kind, n in self.map.start[p]:
                i = self.board.kind_index(kind)
                self.units[t][p][2 * i] += n
                self.bag[p][i] = max(0, self.bag[p][i] - n)
        self.discovery = list(self.map.discovery)
        self.collected: list[list[int]] = [[], []]
        self.bonus_pool = [(self.board.bonus or {}).get(b, 0) for b in BONUS_KINDS]
        self.objective_pool = sorted(self.board.objectives)
        self.secrets = [0, 0]
        self.glows = [0, 0]
        self.objectives: list[list[int]] = [[], []]
        self.todo: list[str] = []   # the steps left for the resolving player
        self.left = 0               # reinforcements or sequence choices left in this step
        self.gains = (0, 0)
        self.refill: list[int] = []  # players whose supply refills (one draw per node)
        self.after_draw = "round"    # what follows the refills: "round" starts, or "continue"
        self.loser = -1              # a player left with no units on the map
        self.history: list[int] = []
        self._moves: list[tuple] | None = None

    # ----------------------------------------------------------------------------------------
    # construction, copies, records

    @classmethod
    def new_game(cls, players: int = 2, seed: int = 0, scenario: str = "A",
                 board: str = "default") -> GameState:
        """A fresh game (at the chance node that picks the first player)."""
        check_players(players, 2, 2, "Lumen")
        return cls(scenario, board, seed)

    def clone(self) -> GameState:
        new = object.__new__(GameState)
        new.__dict__.update(self.__dict__)
        new.options = dict(self.options)
        new.picks = list(self.picks)
        new.uses = [list(u) for u in self.uses]
        new.sheets = list(self.sheets)
        new.bag = [list(b) for b in self.bag]
        new.supply = [list(s) for s in self.supply]
        new.units = [[list(side) for side in t] for t in self.units]
        new.discovery = list(self.discovery)
        new.collected = [list(c) for c in self.collected]
        new.bonus_pool = list(self.bonus_pool)
        new.objective_pool = list(self.objective_pool)
        new.secrets = list(self.secrets)
        new.glows = list(self.glows)
        new.objectives = [list(o) for o in self.objectives]
        new.todo = list(self.todo)
        new.refill = list(self.refill)
        new.history = list(self.history)
        new._moves = self._moves
        return new

    __copy__ = clone  # copy.copy: the lists play changes in place are not shared either

    _FIELDS = ("round", "phase", "first", "actor", "resolving", "dice", "picks", "uses", "bag",
               "supply", "units", "discovery", "collected", "bonus_pool", "objective_pool",
               "secrets", "glows", "objectives", "todo", "left", "gains", "refill", "after_draw",
               "loser")

    def _key(self) -> tuple:
        """The position as play goes on from it (the seed and history left out): what the
        planner's table of positions met again is keyed by."""
        def freeze(x: Any) -> Any:
            return tuple(freeze(y) for y in x) if isinstance(x, (list, tuple)) else x
        return (tuple(sorted(self.options.items())),
                tuple(s.values for s in self.sheets),
                tuple(freeze(getattr(self, f)) for f in self._FIELDS))

    def _full_key(self) -> tuple:
        """Every field :meth:`serialize` writes: equal states (the protocol's ``==``) have
        equal ones."""
        return self._key(), self.seed, tuple(self.history)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self._full_key() == other._full_key()

    def __hash__(self) -> int:
        return hash(self._full_key())

    def serialize(self) -> str:
        """JSON of the whole position (with the actions that led to it)."""
        data = {f: getattr(self, f) for f in self._FIELDS}
        data.update(game="lumen", options=self.options, seed=self.seed, history=self.history,
                    sheets=[str(s) for s in self.sheets])
        return json.dumps(data)

    @classmethod
    def deserialize(cls, text: str) -> GameState:
        """The state :meth:`serialize` wrote; :class:`DataError` naming the first bad field
        (its type, length, range, or its agreement with the other fields) for anything else."""
        return checked_load(lambda: cls._from_dict(read_json(text, SOURCE)), SOURCE)

    @classmethod
    def from_dict(cls, data: object) -> GameState:
        """:meth:`deserialize` of JSON already parsed (``json.loads(state.serialize())``), with
        the same checks and errors (for JSON read once, as a command reads a file)."""
        return checked_load(lambda: cls._from_dict(data), SOURCE)

    @classmethod
    def _from_dict(cls, data: Any) -> GameState:
        check_fields(data, HEADER, SOURCE, exact=False)
        try:
            state = cls(data["options"]["scenario"], data["options"]["board"], data["seed"])
        except LumicoreError as exc:
            raise DataError(f"{SOURCE}: field 'options': {exc}") from None
        check_fields(data, {**HEADER, **state._schema()}, SOURCE)
        for f in cls._FIELDS:
            value = data[f]
            setattr(state, f, tuple(value) if f in ("dice", "gains") else value)
        # a loaded pick is a pair once the checks below pass
        state.picks = [None if p is None else cast("tuple[int, int]", tuple(p))
                       for p in state.picks]
        layout = state.sheets[0].layout
        for p, notation in enumerate(data["sheets"]):
            try:
                state.sheets[p] = Sheet.parse(notation, layout)
            except LumicoreError as exc:
                raise field_error(SOURCE, f"sheets[{p}]", f"a sheet of the {layout.name} layout "
                                  f"({exc})", notation) from None
        state.history = data["history"]
        state._check_consistency()
        return state

    def _schema(self) -> dict[str, Spec]:
        """The rule of each serialized field for a game of this board and map (this state is
        a fresh one)."""
        board, kinds, cells = self.board, self.board.kinds, len(self.sheets[0].layout.cells)
        pools = self._pools()
        player = Int(0, 1, "a player index from 0 to 1")
        count = [Int(0, pools[kind], f"a number of {kind} units from 0 to {pools[kind]}")
                 for kind in kinds]
        side = Items(*(count[c // 2] for c in range(2 * len(kinds))),
                     what=f"a list of {2 * len(kinds)} unit counts (active and inactive of each "
                          "kind)")
        tokens = [d for d in self.map.discovery if d]
        token = Choice(*tokens, what="the value of a discovery token of the map "
                       f"({', '.join(map(str, sorted(set(tokens))))})")
        objective = Choice(*board.objectives, what="the value of an objective token "
                           f"({', '.join(map(str, sorted(set(board.objectives))))})")
        bubble = Int(0, cells - 1, f"a bubble index from 0 to {cells - 1}")
        gain = Int(0, cells, f"a gain from 0 to {cells}")
        kinds_list = f"{len(kinds)} counts (one per unit kind)"

        def both(spec: Spec) -> Items:
            return Items(spec, spec, what="a list of 2 items (one per player)")

        return {
            "round": Int(1, board.rounds, f"a round from 1 to {board.rounds}"),
            "phase": Choice(*PHASES, what=f"a phase ({', '.join(PHASES)})"),
            "first": player, "actor": player,
            "resolving": Int(0, 1, "0 (the first player resolves) or 1 (the second)"),
            "dice": Where(Items(Int(0, 6), Int(0, 6)),
                          lambda d: d == [0, 0] or 1 <= d[0] <= d[1],
                          "[0, 0] before the first roll, else a roll [low, high] with "
                          "1 <= low <= high <= 6"),
            "picks": both(Maybe(Items(Int(0, len(SELECTIONS) - 1, "a selection index from 0 "
                                          f"to {len(SELECTIONS) - 1}"), bubble))),
            "uses": both(Items(*(Int(0, board.limits[s], f"a number of uses of {s} from 0 to "
                                 f"{board.limits[s]}") for s in SELECTIONS),
                         what=f"a list of {len(SELECTIONS)} counts (one per selection)")),
            "sheets": both(Text("a sheet in its notation")),
            "bag": both(Items(*count, what=f"a list of {kinds_list}")),
            "supply": both(Items(*(Int(0, board.supply, f"a number of units from 0 to "
                                   f"{board.supply}") for _ in kinds),
                           what=f"a list of {kinds_list}")),
            "units": ListOf(both(side), length=len(self.map.territories),
                            what=f"a list of {len(self.map.territories)} items (one per "
                            "territory)"),
            "discovery": Items(*(Choice(0, d, what=f"0 or {d}") for d in self.map.discovery),
                               what=f"a list of {len(self.map.discovery)} token values (one "
                               "per territory)"),
            "collected": both(ListOf(token, high=len(tokens))),
            "bonus_pool": Items(*(Int(0, n, f"a number of {b} tokens from 0 to {n}")
                                  for b, n in zip(BONUS_KINDS, self.bonus_pool, strict=True)),
                                what=f"a list of {len(BONUS_KINDS)} counts ("
                                f"{', '.join(BONUS_KINDS)})"),
            "objective_pool": ListOf(objective, high=len(board.objectives)),
            "objectives": both(ListOf(objective, high=len(board.objectives))),
            "secrets": both(Int(0, self.bonus_pool[SECRET], "a number of Secrets from 0 to "
                                f"{self.bonus_pool[SECRET]}")),
            "glows": both(Int(0, self.bonus_pool[GLOW], "a number of Glow tokens from 0 to "
                              f"{self.bonus_pool[GLOW]}")),
            "todo": ListOf(Choice(*STEPS, what=f"a step ({', '.join(STEPS)})"), high=3),
            "left": gain, "gains": Items(gain, gain),
            "refill": ListOf(player, high=2, unique=True),
            "after_draw": Choice("round", "continue"),
            "loser": Int(-1, 1, "-1 (nobody) or a player index from 0 to 1"),
            "history": ListOf(Int(0, None, "an action index >= 0")),
        }

    def _pools(self) -> dict[str, int]:
        """The most units of each kind one player can have (this state is a fresh one): their
        bag and starting units, plus the Mercenary tokens for a special kind."""
        mercenaries = (self.board.bonus or {}).get("mercenary", 0)
        return {kind: max(self.bag[p][i] + sum(t[p][2 * i] for t in self.units) for p in (0, 1))
                + (mercenaries if self.board.units[i].special else 0)
                for i, kind in enumerate(self.board.kinds)}

    def _check_consistency(self) -> None:
        """What the fields must agree on (each field alone is already checked): a state that
        breaks it could not arise in play and would mislead or fail later."""
        fresh = GameState(self.options["scenario"], self.options["board"], self.seed)
        board, kinds, phase, p0 = self.board, self.board.kinds, self.phase, self.first

        def need(ok: bool, path: str, what: str, value: object) -> None:
            if not ok:
                raise field_error(SOURCE, path, what, value)

        for p in (0, 1):
            written = self.sheets[p].written
            need(sum(self.uses[p]) == written and written <= self.round, f"uses[{p}]",
                 f"one use per value on sheet {p + 1} ({written}), at most one a round",
                 self.uses[p])
            need(sum(self.supply[p]) <= board.supply, f"supply[{p}]",
                 f"at most {board.supply} units in all", self.supply[p])
            for i, kind in enumerate(kinds):
                if board.units[i].special:  # never back in a bag (removed when killed)
                    need(self.bag[p][i] + self.supply[p][i] <= fresh.bag[p][i], f"bag[{p}][{i}]",
                         f"with the supply at most the {fresh.bag[p][i]} {kind} units of the "
                         "bag at the start", self.bag[p][i])
                    continue
                total = fresh.bag[p][i] + sum(t[p][2 * i] for t in fresh.units)
                elsewhere = self.supply[p][i] + sum(t[p][2 * i] + t[p][2 * i + 1]
                                                    for t in self.units)
                need(self.bag[p][i] + elsewhere == total, f"bag[{p}][{i}]",
                     f"{total - elsewhere}: player {p + 1} has {total} {kind} units, "
                     f"{elsewhere} of them in the supply and on the map", self.bag[p][i])
            alive = self.units_on_map(p) > 0
            need(alive != (self.loser == p), "loser",
                 f"{p} when player {p + 1} has no unit on the map" if alive
                 else f"not {p}: player {p + 1} has units on the map", self.loser)
        need(self.loser < 0 or phase == "over", "phase",
             "over once a player lost all their units", phase)
        taken = sorted(d for d, now in zip(fresh.discovery, self.discovery, strict=True)
                       if d and not now)
        need(sorted(self.collected[0] + self.collected[1]) == taken, "collected",
             f"the discovery tokens no longer on the map ({taken})", self.collected)
        need(sorted(self.objective_pool + self.objectives[0] + self.objectives[1])
             == sorted(fresh.objective_pool), "objectives",
             "the objective tokens not in the pool", self.objectives)
        for b, held in ((SECRET, self.secrets), (GLOW, self.glows)):
            need(self.bonus_pool[b] + sum(held) == fresh.bonus_pool[b], f"bonus_pool[{b}]",
                 f"the {fresh.bonus_pool[b]} {BONUS_KINDS[b]} tokens less those the players "
                 f"hold ({sum(held)})", self.bonus_pool[b])
        if "mercenary" in kinds:  # some drawn may have been removed since
            k = 2 * kinds.index("mercenary")
            placed = sum(t[p][k] + t[p][k + 1] for t in self.units for p in (0, 1))
            most = fresh.bonus_pool[MERCENARY] - placed
            need(self.bonus_pool[MERCENARY] <= most, f"bonus_pool[{MERCENARY}]",
                 f"at most {most}: {placed} Mercenaries are on the map",
                 self.bonus_pool[MERCENARY])
        for step, gain in (("reinforce", 0), ("sequence", 1), ("order", 0), ("order", 1)):
            need(step not in self.todo or self.gains[gain] > 0, "todo",
                 f"steps earned by the gains {list(self.gains)}", self.todo)
        if phase == "order":  # the order is chosen last, once both gains are earned
            need(not self.todo, "todo", "[] while the order of the two gains is chosen (it is "
                 "the last step of a chain)", self.todo)
            need(min(self.gains) > 0, "gains", "two positive gains while their order is chosen",
                 self.gains)
        busy = {"reinforce": 0, "sequence": 1}
        if phase in busy:
            need(1 <= self.left <= self.gains[busy[phase]], "left",
                 f"from 1 to the {phase} gain {self.gains[busy[phase]]}", self.left)
        else:  # a removal that ends the game ends it in the middle of a chain
            need(self.left == 0 or (phase == "over" and self.loser >= 0), "left",
                 "0 outside a chain", self.left)
        resolver = p0 if self.resolving == 0 else 1 - p0
        resolving = phase in RESOLVING or (phase == "draw" and self.after_draw == "continue")
        if resolving:
            need(self.actor == resolver, "actor", f"the resolving player ({resolver})",
                 self.actor)
        if phase == "draw":
            p = self.actor
            need(bool(self.refill) and self.refill[0] == p and sum(self.bag[p]) > 0
                 and sum(self.supply[p]) < board.supply, "refill",
                 f"a list starting with player {p} whose supply is short and bag not empty",
                 self.refill)
        need(phase != "bonus" or sum(self.bonus_pool) > 0, "bonus_pool",
             "not empty when a bonus token is drawn", self.bonus_pool)
        need(phase != "objective" or bool(self.objective_pool), "objective_pool",
             "not empty when an objective token is drawn", self.objective_pool)
        need(list(self.dice) != [0, 0] or (self.round == 1 and phase in ("first", "draw", "roll")),
             "dice", "a roll once the first roll is made", list(self.dice))
        if phase == "choose":  # the choices made this round
            chosen = [] if self.actor == p0 else [p0]
            need(self.picks[self.actor] is None and (bool(chosen) or self.picks[1 - p0] is None),
                 "picks", "null for the players still to choose", self.picks)
        else:
            chosen = [p0, 1 - p0] if resolving else []
        for p in chosen:
            first_pick = self.picks[p0]
            taken_pick = first_pick[0] if p != p0 and first_pick else -1
            free = [s for s, name in enumerate(SELECTIONS)
                    if s != taken_pick and self.uses[p][s] < board.limits[name]]
            cells = kernel.legal_cells(self.sheets[p])
            pick = self.picks[p]
            if pick is None:
                need(not free or not cells, f"picks[{p}]", "a choice: a player passes only "
                     "with no selection or bubble left", None)
            elif phase == "choose" or (p != p0 and self.resolving == 0):  # not written yet
                need(pick[0] in free and pick[1] in cells, f"picks[{p}]",
                     "a selection with uses left (not the first player's) and a legal bubble "
                     f"of sheet {p + 1}", self.picks[p])
        self._moves = None

    def record(self) -> dict[str, Any]:
        """The game record: ``{"game", "players", "seed", "options", "actions"}`` (chance
        outcomes included), which :meth:`replay` plays back."""
        return {"game": "lumen", "players": 2, "seed": self.seed, "options": dict(self.options),
                "actions": list(self.history)}

    @classmethod
    def replay(cls, record: dict[str, Any] | str | Path) -> GameState:
        """Play a record (as :func:`replay` takes it) from the start; an illegal action raises
        :class:`IllegalMoveError` naming its index in the record."""
        return replay(record)

    # ----------------------------------------------------------------------------------------
    # the protocol

    def num_players(self) -> int:
        return 2

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def is_chance_node(self) -> bool:
        return self.phase in CHANCE_PHASES

    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        return CHANCE if self.phase in CHANCE_PHASES else self.actor

    def _legal(self) -> list[tuple]:
        if self._moves is None:
            self._moves = getattr(self, f"_moves_{self.phase}")()
        return self._moves

    def legal_actions(self) -> list[int]:
        return list(range(len(self._legal())))

    def moves(self) -> list[tuple]:
        """The moves of this node as tuples, in action order (action ``a`` is ``moves()[a]``):
        ``("choose", selection, bubble)``, ``("pass",)``, ``("place", kind, territory)``,
        ``("move", kind, inactive, from, to)``, ``("activate", kind, territory, ...)``,
        ``("glow",)``, ``("stop",)``, ``("order", chain)``, ``("mercenary", territory)``; chance
        moves (``first``, ``draw``, ``roll``, ``bonus``, ``objective``) end with their
        probability."""
        return list(self._legal())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            return []
        return [(a, move[-1]) for a, move in enumerate(self._legal())]

    def apply_action(self, action: int) -> None:
        action = check_action(self, action)
        move = self._legal()[action]
        self.history.append(int(action))
        self._moves = None
        getattr(self, f"_apply_{move[0]}")(move)

    def action_to_string(self, action: int) -> str:
        action = check_action(self, action)
        return self.describe(self._legal()[action])

    def returns(self) -> list[float]:
        """1 for the winner and 0 for the loser; 0 for both when nobody wins (a tie in VP with
        the initiative territory uncontrolled); 0 for both before the end."""
        if self.phase != "over":
            return [0.0, 0.0]
        w = self.winner()
        return [0.0, 0.0] if w is None else [float(w == 0), float(w == 1)]

    def evaluate(self) -> list[float]:
        """A heuristic chance to win for each player, from the VP lead if the game ended now
        (plus a tenth of the strength lead), squashed to 0..1; the returns at the end."""
        if self.phase == "over":
            return self.returns()
        sums = self.strengths()
        owners = [0 if a > b else 1 if b > a else -1 for a, b in sums]
        lead = sum(a - b for a, b in sums) * 0.1
        lead += self.score(0, owners).total - self.score(1, owners).total
        x = max(-30.0, min(30.0, lead / 4))
        p0 = 1 / (1 + math.exp(-x))
        return [p0, 1 - p0]

    # ----------------------------------------------------------------------------------------
    # readable views

    def strengths(self) -> list[list[int]]:
        """Each player's strength in each territory: ``result[t][p]`` (plain Python: for a map
        this small the kernel's array conversion costs more than the sums)."""
        weights = self._strength
        return [[sum(map(mul, side, weights)) for side in sides] for sides in self.units]

    @staticmethod
    def _player(player: object) -> int:
        """``player`` if it is 0 or 1, else a LumicoreError naming it."""
        return check_index(player, 2, "player", "a player index")

    def strength_total(self, player: int) -> int:
        player = self._player(player)
        return sum(row[player] for row in self.strengths())

    def controllers(self) -> list[int]:
        """Who controls each territory (-1: nobody)."""
        return [0 if a > b else 1 if b > a else -1 for a, b in self.strengths()]

    def score(self, player: int, owners: list[int] | None = None) -> Score:
        """``player``'s VP if the game ended now (``owners``: :meth:`controllers`, when known)."""
        player = self._player(player)
        return score(player, self.units, self.board, self.map, self.collected[player],
                     self.secrets[player], self.objectives[player], owners)

    def winner(self) -> int | None:
        """The winner of a finished game (0 or 1), or None when nobody wins (or not over)."""
        if self.phase != "over":
            return None
        if self.loser >= 0:
            return 1 - self.loser
        owners = self.controllers()
        vp = [self.score(p, owners).total for p in (0, 1)]
        if vp[0] != vp[1]:
            return 0 if vp[0] > vp[1] else 1
        holder = owners[self.map.initiative]
        return None if holder < 0 else holder

    def units_on_map(self, player: int) -> int:
        player = self._player(player)
        return sum(sum(t[player]) for t in self.units)

    def unit_list(self, t: int, player: int) -> list[str]:
        """The units of ``player`` in territory ``t`` as names (``*`` marks an inactive one)."""
        player = self._player(player)
        t = check_index(t, len(self.units), "territory", "an index")
        out = []
        for i, name in enumerate(self.board.kinds):
            out += [name] * self.units[t][player][2 * i]
            out += [name + "*"] * self.units[t][player][2 * i + 1]
        return out

    def describe(self, move: tuple) -> str:
        """A readable name of a move tuple of :meth:`_legal`."""
        kind, names, terr = move[0], self.board.kinds, self.map.territories
        p = self.actor + 1
        if kind == "first":
            return f"player {move[1] + 1} starts"
        if kind == "draw":
            return f"player {p} draws a {names[move[1]]} from the bag"
        if kind == "roll":
            return f"dice {move[1]} and {move[2]}"
        if kind == "choose":
            sheet = self.sheets[self.actor]
            sel, cell = SELECTIONS[move[1]], sheet.layout.cells[move[2]]
            value = selections(*self.dice)[sel]
            same, run = kernel.gains(sheet, move[2], value)
            return (f"player {p}: {sel} ({value}) in bubble {cell} "
                    f"(identical +{same}, sequence +{run})")
        if kind == "pass":
            return f"player {p} passes"
        if kind == "bonus":
            return f"player {p} draws a {BONUS_KINDS[move[1]]} bonus token"
        if kind == "objective":
            return f"player {p} draws an objective token"
        if kind == "mercenary":
            return f"player {p} places the Mercenary in {terr[move[1]]}"
        if kind == "order":
            return f"player {p} resolves the {move[1]} chain first"
        if kind == "place":
            return f"player {p} reinforces {terr[move[2]]} with a {names[move[1]]}"
        if kind == "stop":
            return f"player {p} stops"
        if kind == "move":
            return f"player {p} moves a {names[move[1]]} from {terr[move[3]]} to {terr[move[4]]}"
        if kind == "glow":
            return f"player {p} uses a Glow token: every unit of theirs turns active"
        who, t = names[move[1]], terr[move[2]]
        ability = self.board.units[move[1]].ability
        if ability == "restore":
            return f"player {p} activates the {who} in {t}: allies around turn active"
        if ability == "fly":
            return f"player {p} activates the {who} in {t}: it flies to {terr[move[3]]}"
        if ability == "push":
            owner, k = move[3], names[move[4]]
            return (f"player {p} activates the {who} in {t}: pushes player {owner + 1}'s {k} "
                    f"to {terr[move[6]]}")
        return f"player {p} activates the {who} in {t}: removes player {3 - p}'s {names[move[3]]}"

    def __repr__(self) -> str:
        return (f"<Lumen round {self.round}/{self.board.rounds}, phase {self.phase}, "
                f"player {self.actor + 1}>")

    def __str__(self) -> str:
        """The whole state as text: who is to move, the map (:func:`lumicore.lumen.render.
        map_text`), then each player's VP, units off the map, tokens and sheet.

        >>> print(str(GameState.new_game()).splitlines()[0])
        Lumen round 1/17, phase first: chance (player 1) | first player 1
        """
        from lumicore.lumen.render import map_text

        return "\n".join([self._headline(), map_text(self)]
                         + [line for p in (0, 1) for line in self._player_text(p)])

    def _headline(self) -> str:
        head = f"Lumen round {self.round}/{self.board.rounds}, phase {self.phase}"
        if self.phase == "over":
            w = self.winner()
            return f"{head}: {'nobody wins' if w is None else f'player {w + 1} wins'}"
        who = "chance" if self.is_chance_node() else "to move"
        head += f": {who} (player {self.actor + 1})"
        if self.dice != (0, 0):
            head += f" | dice {self.dice[0]} {self.dice[1]}"
        return head + f" | first player {self.first + 1}"

    def _player_text(self, p: int) -> list[str]:
        def counts(ns: list[int]) -> str:
            named = zip(self.board.kinds, ns, strict=True)
            return ", ".join(f"{n} {k}" for k, n in named if n) or "-"

        s = self.score(p)
        line = (f"player {p + 1}: {s.total} VP (territories {s.territories}, discovery "
                f"{s.discovery}, secrets {s.secrets}, objectives {s.objectives}) | bag "
                f"{counts(self.bag[p])} | supply {counts(self.supply[p])} | glow {self.glows[p]}")
        pick = self.picks[p]
        if pick is not None and self.phase != "over":
            cell = self.sheets[p].layout.cells[pick[1]]
            line += f" | picked {SELECTIONS[pick[0]]} in bubble {cell}"
        return [line] + ["  " + row for row in str(self.sheets[p]).splitlines()]

    def _repr_svg_(self) -> str:
        from lumicore.lumen.render import state_svg

        return state_svg(self)

    # ----------------------------------------------------------------------------------------
    # moves of each phase (chance moves end with their probability)

    def _moves_first(self) -> list[tuple]:
        return [("first", 0, 0.5), ("first", 1, 0.5)]

    def _moves_draw(self) -> list[tuple]:
        bag = self.bag[self.actor]
        total = sum(bag)
        return [("draw", k, n / total) for k, n in enumerate(bag) if n]

    def _moves_roll(self) -> list[tuple]:
        return [("roll", lo, hi, prob) for (lo, hi), prob in ROLLS]

    def _moves_choose(self) -> list[tuple]:
        p = self.actor
        first_pick = self.picks[self.first]
        taken = first_pick[0] if p != self.first and first_pick else -1
        cells = kernel.legal_cells(self.sheets[p])
        moves = [("choose", s, c) for s, name in enumerate(SELECTIONS)
                 if s != taken and self.uses[p][s] < self.board.limits[name] for c in cells]
        return moves or [("pass",)]

    def _moves_bonus(self) -> list[tuple]:
        total = sum(self.bonus_pool)
        return [("bonus", b, n / total) for b, n in enumerate(self.bonus_pool) if n]

    def _moves_objective(self) -> list[tuple]:
        pool = self.objective_pool
        return [("objective", v, pool.count(v) / len(pool)) for v in sorted(set(pool))]

    def _own_territories(self, p: int) -> list[int]:
        return [t for t, sides in enumerate(self.units) if any(sides[p])]

    def _moves_mercenary(self) -> list[tuple]:
        return [("mercenary", t) for t in self._own_territories(self.actor)]

    def _moves_order(self) -> list[tuple]:
        return [("order", "identical"), ("order", "sequence")]

    def _moves_reinforce(self) -> list[tuple]:
        p = self.actor
        own = self._own_territories(p)
        return [("place", k, t) for k, n in enumerate(self.supply[p]) if n for t in own] + \
            [("stop",)]

    def _moves_sequence(self) -> list[tuple]:
        p, units, kinds = self.actor, self.units, self.board.units
        nbrs = self.map.neighbors
        moves: list[tuple] = []
        for t, sides in enumerate(units):
            mine = sides[p]
            for c, n in enumerate(mine):
                if n and kinds[c // 2].moves:
                    moves += [("move", c // 2, c % 2, t, u) for u in nbrs[t]]
        for t, sides in enumerate(units):
            for k, unit in enumerate(kinds):
                if not sides[p][2 * k] or unit.ability == "none":
                    continue
                if unit.ability == "restore":
                    moves.append(("activate", k, t))
                elif unit.ability == "fly":
                    moves += [("activate", k, t, u) for u in range(len(units)) if u != t]
                elif unit.ability == "kill":
                    moves += [("activate", k, t, c // 2, c % 2)
                              for c, n in enumerate(sides[1 - p])
                              if n and not kinds[c // 2].protected]
                else:  # push: any other unit in the territory that can move
                    for owner in (0, 1):
                        for c, n in enumerate(sides[owner]):
                            if owner == p and c == 2 * k:
                                n -= 1  # the Pusher itself
                            if n > 0 and kinds[c // 2].moves:
                                moves += [("activate", k, t, owner, c // 2, c % 2, u)
                                          for u in nbrs[t]]
        if self.glows[p]:
            moves.append(("glow",))
        return moves + [("stop",)]

    def _moves_over(self) -> list[tuple]:
        return []

    # ----------------------------------------------------------------------------------------
    # applying moves

    def _apply_first(self, move: tuple) -> None:
        self.first = move[1]
        self.refill, self.after_draw = [self.first, 1 - self.first], "round"
        self._next_draw()

    def _next_draw(self) -> None:
        """Refill supplies one draw at a time; when none is due, go on."""
        while self.refill:
            p = self.refill[0]
            if sum(self.supply[p]) < self.board.supply and sum(self.bag[p]) != 0:
                self.phase, self.actor = "draw", p
                return
            self.refill.pop(0)
        if self.after_draw == "round":
            self._start_round()
        else:
            self._continue()

    def _apply_draw(self, move: tuple) -> None:
        p, k = self.actor, move[1]
        self.bag[p][k] -= 1
        self.supply[p][k] += 1
        self._next_draw()

    def _start_round(self) -> None:
        self.phase, self.actor = "roll", self.first
        self.picks = [None, None]

    def _apply_roll(self, move: tuple) -> None:
        self.dice = (move[1], move[2])
        self.phase, self.actor = "choose", self.first

    def _apply_choose(self, move: tuple) -> None:
        self.picks[self.actor] = (move[1], move[2])
        self._after_choice()

    def _apply_pass(self, move: tuple) -> None:
        self.picks[self.actor] = None
        self._after_choice()

    def _after_choice(self) -> None:
        if self.actor == self.first:
            self.actor = 1 - self.first
            return
        self.resolving = 0
        self._resolve(self.first)

    def _resolve(self, p: int) -> None:
        """Write player ``p``'s value and queue their High Command draws and chains."""
        self.actor, pick = p, self.picks[p]
        self.todo, self.left, self.gains = [], 0, (0, 0)
        if pick is not None:
            sel, cell = pick
            value = selections(*self.dice)[SELECTIONS[sel]]
            sheet = self.sheets[p]
            self.uses[p][sel] += 1
            self.gains = kernel.gains(sheet, cell, value)
            hc = sheet.layout.high_command
            for section in sheet.new_sections(value):
                self.todo.append("bonus")
                if section in hc.objectives:
                    self.todo.append("objective")
            # the bubble is one of the legal moves of this player's choice
            values = sheet.values[:cell] + (value,) + sheet.values[cell + 1:]
            self.sheets[p] = Sheet._checked(sheet.layout, values)
            identical, sequence = self.gains
            if identical and sequence:
                self.todo.append("order")
            elif identical:
                self.todo.append("reinforce")
            elif sequence:
                self.todo.append("sequence")
        self._continue()

    def _continue(self) -> None:
        """Go to the next step of the resolving player, the next player, or the next round."""
        while self.todo:
            step = self.todo.pop(0)
            if step == "bonus" and not sum(self.bonus_pool):
                continue
            if step == "objective" and not self.objective_pool:
                continue
            if step == "reinforce":
                self.left = self.gains[0]
                if not sum(self.supply[self.actor]):
                    # nothing to place: all the reinforcements allowed are deployed, so the
                    # supply refills from the bag now (a kill may have put units back in it)
                    self._refill_then_continue()
                    return
            elif step == "sequence":
                self.left = self.gains[1]
            self.phase = step
            return
        if self.resolving == 0:
            self.resolving = 1
            self._resolve(1 - self.first)
            return
        self._end_round()

    def _end_round(self) -> None:
        holder = self.controllers()[self.map.initiative]
        if holder >= 0:
            self.first = holder
        if self.round >= self.board.rounds:
            self.phase = "over"
            return
        self.round += 1
        self._start_round()

    def _apply_bonus(self, move: tuple) -> None:
        p, b = self.actor, move[1]
        self.bonus_pool[b] -= 1
        if BONUS_KINDS[b] == "mercenary":
            self.phase = "mercenary"
            return
        if BONUS_KINDS[b] == "secret":
            self.secrets[p] += 1
        else:
            self.glows[p] += 1
        self._continue()

    def _apply_objective(self, move: tuple) -> None:
        self.objective_pool.remove(move[1])
        self.objectives[self.actor].append(move[1])
        self._continue()

    def _apply_mercenary(self, move: tuple) -> None:
        k = self.board.kind_index("mercenary")
        self.units[move[1]][self.actor][2 * k] += 1
        self._continue()

    def _apply_order(self, move: tuple) -> None:
        first = move[1]
        second = "sequence" if first == "identical" else "identical"
        self.todo[:0] = ["reinforce" if first == "identical" else "sequence",
                         "reinforce" if second == "identical" else "sequence"]
        self._continue()

    def _apply_place(self, move: tuple) -> None:
        p, k, t = self.actor, move[1], move[2]
        self.supply[p][k] -= 1
        self.units[t][p][2 * k] += 1
        self.left -= 1
        if self.left and sum(self.supply[p]):
            self._moves = None
            return
        self._refill_then_continue()

    def _refill_then_continue(self) -> None:
        self.left = 0
        self.refill, self.after_draw = [self.actor], "continue"
        self._next_draw()

    def _apply_stop(self, move: tuple) -> None:
        if self.phase == "reinforce":
            self._refill_then_continue()
        else:
            self.left = 0
            self._continue()

    def _enter(self, owner: int, t: int) -> None:
        """A unit of ``owner`` enters ``t``: the first takes its discovery token."""
        if self.discovery[t]:
            self.collected[owner].append(self.discovery[t])
            self.discovery[t] = 0

    def _shift(self, owner: int, c: int, src: int, dst: int) -> None:
        self.units[src][owner][c] -= 1
        self.units[dst][owner][c] += 1
        self._enter(owner, dst)

    def _apply_move(self, move: tuple) -> None:
        _, k, side, src, dst = move
        self._shift(self.actor, 2 * k + side, src, dst)
        self._sequence_step()

    def _apply_glow(self, move: tuple) -> None:
        p = self.actor
        self.glows[p] -= 1
        self.bonus_pool[BONUS_KINDS.index("glow")] += 1
        for sides in self.units:
            mine = sides[p]
            for k in range(0, len(mine), 2):
                mine[k] += mine[k + 1]
                mine[k + 1] = 0
        self._sequence_step()

    def _apply_activate(self, move: tuple) -> None:
        p, k, t = self.actor, move[1], move[2]
        mine = self.units[t][p]
        mine[2 * k] -= 1
        mine[2 * k + 1] += 1
        ability = self.board.units[k].ability
        if ability == "restore":
            for u in (t, *self.map.neighbors[t]):
                side = self.units[u][p]
                for c in range(0, len(side), 2):
                    side[c] += side[c + 1]
                    side[c + 1] = 0
            mine[2 * k] -= 1  # the Restorer itself stays spent
            mine[2 * k + 1] += 1
        elif ability == "fly":
            self._shift(p, 2 * k + 1, t, move[3])
        elif ability == "push":
            _, _, _, owner, k2, side2, dst = move
            self._shift(owner, 2 * k2 + side2, t, dst)
        else:  # kill
            k2, side2 = move[3], move[4]
            self.units[t][1 - p][2 * k2 + side2] -= 1
            if not self.board.units[k2].special:
                self.bag[1 - p][k2] += 1
            if not self.units_on_map(1 - p):  # only a removal can empty a player's map
                self.loser, self.phase = 1 - p, "over"
                return
        self._sequence_step()

    def _sequence_step(self) -> None:
        self.left -= 1
        if self.left <= 0:
            self._continue()


ARENA_RULES = RecordRules("Lumen game record", defaults=NEW_GAME_DEFAULTS)
"""How every replay of a Lumen arena record reads it (:func:`replay`, and the any-game replay
through :data:`lumicore.game.RECORD_RULES`): ``players`` and ``seed`` default to 2 and 0."""


def replay(record: dict[str, Any] | str | Path) -> GameState:
    """Play a game record (:meth:`GameState.record`, or the arena's generic record) from the
    start and return the final state. The record is the dict, its JSON text or the path of its
    JSON file (:func:`lumicore.checks.read_record`: a ``str`` starting with ``{`` is the text,
    any other the path), replayed as every game replays an arena record
    (:func:`lumicore.game.iter_arena_record`: an illegal action is an :class:`IllegalMoveError`
    naming its index in ``actions``, from 0); ``players`` and ``seed`` default to 2 and 0."""
    return cast(GameState, replay_arena_record(record, "lumen"))
