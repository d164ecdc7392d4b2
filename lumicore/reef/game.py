"""The whole game of Lumicora for 2 to 4 players, as a :class:`lumicore.game.GameState`.

:meth:`Game.new` sets the game up as the rulebook says: the bag sorted by the fish on the backs
(2 players 72 tiles; 3 players 88 and 4 players 104, 6 of them an emergency stack), a starting
Lumino dealt to each player (who orients it), 4 tiles in each display and 4 in the Atoll, the
octopus with the first player and the turtle on round 1. Then ten rounds of an action phase (each
player's turn: jellyfish swaps, steps 1-4) and a scoring phase (displays refilled, coral scoring
or skip, octopus, turtle), and the final scoring of the chosen reef side and score board.

Draws come from a generator owned by the game (splitmix64 seeded by ``seed``), so a seed and a
list of decisions reproduce a game exactly (:meth:`Game.record`, :meth:`Game.replay`). With
``auto_chance=False`` (the registry's ``lumicore.game.new_game("reef", ...)``) every draw is a
chance node instead, for tools that sample chance themselves.

Decisions (see :mod:`lumicore.reef.decisions`) are listed by :meth:`Game.decisions`; action id
``i`` is ``decisions()[i]``.

>>> game = Game.new(players=2, seed=1)
>>> game.current_player(), game.phase
(0, 'orient')
>>> print(game.decisions()[0])
orient the starting Lumino blue/yellow
>>> while not game.is_terminal():
...     game.play(game.decisions()[0])
>>> game.round, len(game.final_scores())
(10, 2)
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any, cast

from lumicore.checks import (
    BOOL,
    SEED_LIMIT,
    Choice,
    Int,
    ListOf,
    Load,
    Maybe,
    Spec,
    Table,
    Text,
    check_fields,
    check_int,
    check_players,
    check_seed,
    check_type,
    field_error,
    read_json,
    read_record,
)
from lumicore.data import plural, shorten
from lumicore.errors import DataError, IllegalMoveError, LumicoreError
from lumicore.game import (
    CHANCE,
    NEW_GAME_DEFAULTS,
    TERMINAL,
    RecordRules,
    check_action,
    checked_load,
    iter_arena_record,
)
from lumicore.reef import io, kernel
from lumicore.reef.board import load_board
from lumicore.reef.decisions import Orient, Pick, Place, Return, Score, Skip, Spend, SwapDone, Turn
from lumicore.reef.reef import HandPlacement, Reef
from lumicore.reef.render import side_by_side
from lumicore.reef.scoring import (
    DISCARD_VP,
    LIMESTONE_CAP,
    VISIBLE_WEIGHT,
    FinalScore,
    final_scores,
    round_limestone,
    winners,
)
from lumicore.reef.tiles import TileSet, load_tiles
from lumicore.reef.values import COLORS, Lumino, StartLumino, animal_code, color_code
from lumicore.svg import document, escape, text_width

__all__ = ["Game", "new_game", "ROUNDS", "DISPLAY", "ATOLL", "EMERGENCY", "SplitMix64",
           "check_seed", "read_records", "least_tiles"]

ROUNDS = 10
"""Rounds in a game (a bag that runs out ends it sooner)."""
DISPLAY = 4
"""Tiles in a full personal display."""
ATOLL = 4
"""The Atoll is refilled to this many tiles."""
EMERGENCY = 6
"""Tiles set aside as the emergency stack with 3 or 4 players."""
TAKE = 3
"""The most tiles a turn takes into the hand (action C)."""
CORAL_GROWTH = 0.7
"""VP a colour's coral scoring is expected to grow per scoring phase it waits (evaluation)."""
CORAL_WEIGHT = 0.5
"""Weight of a colour's coral score (while its scoring tile is unused) where tiles are placed
for the evaluation (:meth:`Game.placement_weights`): a stand-in for the scoring still to come,
which will count one level minimum each."""
LIMESTONE_VALUE = 0.5
"""VP per limestone marker kept where tiles are placed for the evaluation (the final scoring's
1 VP per pair)."""
FORMAT = "lumicore-reef-game"
RECORD_VERSION = 1
"""The version of the game records :meth:`Game.record` writes (one without it is read as it)."""
ARENA_RULES = RecordRules("reef game record", defaults=NEW_GAME_DEFAULTS)
"""How every replay of a reef arena record reads it (:meth:`Game.replay`, and the any-game
replay through :data:`lumicore.game.RECORD_RULES`): ``players`` and ``seed`` default to 2 and
0."""
_MASK = (1 << 64) - 1
_WHAT = "serialized reef game"
_PHASES = ("deal", "orient", "draw", "turn", "swap", "place", "score", "over")
"""The phases a game rests in between actions (the others pass within ``_advance``)."""
_THENS = ("start-round", "start-turn", "after-refill", "start-choices")
"""What may follow a run of draws (``then``)."""
_DECIDING = ("turn", "swap", "place", "score")
"""The phases in which the players act in turn from the octopus."""


class SplitMix64:
    """The game's generator: splitmix64 (the same sequence in the Cython play-out loop).

    >>> rng = SplitMix64(0)
    >>> rng.next(), rng.state
    (16294208416658607535, 11400714819323198485)
    """

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = check_int(state, "state") & _MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A number in 0..n-1."""
        return self.next() % n

    def __reduce__(self) -> tuple:  # slots: pickle protocols 0 and 1 need it spelt out
        return (SplitMix64, (self.state,))


def _kind_key(t: Lumino) -> tuple[int, int, int]:
    return (color_code(t.color), t.number or 0, animal_code(t.animal))


def _without(tiles: list[Lumino], taken: tuple[Lumino, ...]) -> list[Lumino] | None:
    """``tiles`` less one instance of each of ``taken`` (None if one is missing)."""
    rest = list(tiles)
    for t in taken:
        if t not in rest:
            return None
        rest.remove(t)
    return rest


def _sub_multisets(tiles: list[Lumino], sizes: range) -> list[tuple[Lumino, ...]]:
    """Distinct sub-multisets of ``tiles`` of the given sizes, each sorted, in a fixed order."""
    ordered = sorted(tiles, key=_kind_key)
    found = dict.fromkeys(c for k in sizes for c in combinations(ordered, k))
    return list(found)


class Game:
    """A Lumicora game in progress (see the module docstring). Build it with :meth:`new`."""

    setup: dict[str, Any]
    """``players``, ``seed``, ``side``, ``scoreboard`` and ``tiles`` of :meth:`new`."""
    auto_chance: bool
    """Whether the game makes its own draws (:meth:`new`)."""

    # ---- setup ------------------------------------------------------------------------------

    @classmethod
    def new(cls, players: int = 2, seed: int = 0, side: str = "A", scoreboard: str = "dark",
            tiles: str | Path = "default", auto_chance: bool = True) -> Game:
        """A new game of ``players`` (2-4) on reef side ``"A"``/``"B"`` with the ``"dark"`` or
        ``"light"`` score board; ``tiles`` a tile set (name or TOML path). With ``auto_chance``
        the game draws from its own generator and stops only at decisions."""
        players, seed = _check_setup(players, seed, side, scoreboard)
        tile_set = load_tiles(tiles)
        self = cls.__new__(cls)
        self.setup = {"players": players, "seed": seed, "side": side, "scoreboard": scoreboard,
                      "tiles": str(tiles)}
        self.auto_chance = check_type(auto_chance, bool, "auto_chance", "True or False")
        self._init(tile_set)
        self._advance()
        return self

    def _init(self, tile_set: TileSet) -> None:
        n = self.setup["players"]
        self.n = n
        self.board = load_board(self.setup["side"])
        pool = tile_set.for_players(n)
        self.kinds = tuple(sorted(set(pool), key=_kind_key))
        index = {k: i for i, k in enumerate(self.kinds)}
        self.unseen = [0] * len(self.kinds)     # never drawn (the emergency stack among them)
        for t in pool:
            self.unseen[index[t]] += 1
        self.returned = [0] * len(self.kinds)   # back in the bag after being drawn
        _check_tile_count(tile_set, pool, n, self.setup["tiles"])
        self.emergency = EMERGENCY if n >= 3 else 0
        self.bag_left = len(pool) - self.emergency
        self.starts = tile_set.starts
        self.start_pool = list(range(len(tile_set.starts)))
        self.rng = SplitMix64(self.setup["seed"])
        self.dealt: list[StartLumino | None] = [None] * n
        self.reefs: list[Reef | None] = [None] * n
        self.limestone = [0] * n
        self.vp = [0] * n
        self.coral = [list(COLORS) for _ in range(n)]
        self.jellyfish = [0] * n
        self.displays: list[list[Lumino]] = [[] for _ in range(n)]
        self.atoll: list[Lumino] = []
        self.hand: list[Lumino] = []
        self.picked: list[Lumino] = []  # tiles chosen for a jellyfish swap
        self.swap_from = -1             # their place: -1 the Atoll, p player p's display
        self.octopus = 0
        self.round = 1
        self.player = 0
        self.turn_pos = 0
        self.phase = "deal"
        self.queue: list[int] = []      # draw destinations: player p's display, or -1 the Atoll
        self.then = ""                  # what follows when the draws are done
        self.ending = False             # the bag ran out before round 10
        self.extra = False              # the extra scoring phase of a premature end
        self.last_scorer: int | None = None
        self.log: list[str] = []        # every action applied, as text
        self.chance_from_outside = False
        self._moves: list | None = None
        self._final: list[FinalScore] | None = None

    # ---- flow -------------------------------------------------------------------------------

    def _draw_then(self, destinations: list[int], then: str) -> None:
        self.queue = destinations
        self.then = then

    def _advance(self) -> None:
        """Run the rules' automatic steps up to the next decision or chance node."""
        while True:
            if self.phase == "deal" and self.player >= self.n:
                self.player, self.phase = 0, "orient"
            if self.phase == "orient" and self.player >= self.n:
                self.phase = "setup-draws"
                self._draw_then([p for p in range(self.n) for _ in range(DISPLAY)]
                                + [-1] * ATOLL, "start-round")
            if self.queue:
                if self.bag_left == 0:
                    self._bag_empty()
                if self.bag_left == 0:
                    self.queue = []     # nothing left to draw: the rest is not replenished
                    continue
                self.phase = "draw"
                break
            if self.then:
                then, self.then = self.then, ""
                getattr(self, "_" + then.replace("-", "_"))()
                continue
            break
        self._moves = None
        if self.auto_chance:
            while self.is_chance_node():
                self._apply_chance(self._sample())

    def _bag_empty(self) -> None:
        """No tile in the bag when one must be drawn: the emergency stack goes in; before round
        10 the game then ends after this round's scoring phase and one more."""
        self.bag_left += self.emergency
        self.emergency = 0
        if self.round < ROUNDS and not self.extra:
            self.ending = True

    def _start_round(self) -> None:
        self.turn_pos = 0
        self.player = self.octopus
        self.phase = "turn"

    def _start_turn(self) -> None:
        self.phase = "turn"

    def _after_refill(self) -> None:
        if self.hand:
            self.phase = "place"
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        self.turn_pos += 1
        if self.turn_pos < self.n:
            self.player = (self.octopus + self.turn_pos) % self.n
            self.phase = "turn"
            return
        self._start_scoring()

    def _start_scoring(self) -> None:
        self.phase = "refill"
        order = [(self.octopus + k) % self.n for k in range(self.n)]
        self._draw_then([p for p in order for _ in range(DISPLAY - len(self.displays[p]))],
                        "start-choices")

    def _start_choices(self) -> None:
        self.turn_pos = 0
        self.last_scorer = None
        self.player = self.octopus
        self.phase = "score"

    def _end_scoring(self) -> None:
        if self.last_scorer is not None:
            self.octopus = self.last_scorer
        if self.extra or (self.round >= ROUNDS and not self.ending):
            self._finish()
            return
        self.round += 1
        if self.ending:
            self.extra = True
            self._start_scoring()
        else:
            self._start_round()

    def _reef(self, p: int) -> Reef:
        """Player ``p``'s reef, which every player has once the starting Luminos are placed."""
        reef = self.reefs[p]
        assert reef is not None
        return reef

    def _finish(self) -> None:
        self.phase = "over"
        self.player = TERMINAL
        self._final = final_scores([self._reef(p) for p in range(self.n)], self.jellyfish,
                                   self.limestone,
                                   self.setup["scoreboard"], self.setup["side"])

    # ---- the protocol -----------------------------------------------------------------------

    def num_players(self) -> int:
        return self.n

    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.is_chance_node():
            return CHANCE
        return self.player

    def is_chance_node(self) -> bool:
        return self.phase in ("deal", "draw")

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == "deal":
            return [(i, 1 / len(self.start_pool)) for i in self.start_pool]
        if self.phase == "draw":
            unseen = sum(self.unseen)
            share = (unseen - self.emergency) / unseen / self.bag_left if unseen else 0.0
            return [(k, r / self.bag_left + u * share)
                    for k, (r, u) in enumerate(zip(self.returned, self.unseen, strict=True))
                    if r or (u and share)]
        return []

    def legal_actions(self) -> list[int]:
        if self.is_chance_node():
            return [a for a, _ in self.chance_outcomes()]
        if self.phase == "over":
            return []
        return list(range(len(self._decisions())))

    def apply_action(self, action: int) -> None:
        action = check_action(self, action)
        if self.is_chance_node():
            self.chance_from_outside = True
            self._apply_chance(action)
            if self.auto_chance:
                self._advance()
            return
        self._apply_decision(self._decisions()[action])

    def action_to_string(self, action: int) -> str:
        action = check_action(self, action)
        if self.phase == "deal":
            return f"deal starting Lumino {self.starts[action]} to player {self.player + 1}"
        if self.phase == "draw":
            where = "the Atoll" if self.queue[0] < 0 else f"player {self.queue[0] + 1}'s display"
            return f"draw {self.kinds[action]} into {where}"
        return str(self._decisions()[action])

    def returns(self) -> list[float]:
        if self.phase != "over":
            return [0.0] * self.n
        won = self.winners()
        return [1.0 / len(won) if p in won else 0.0 for p in range(self.n)]

    def clone(self) -> Game:
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        for name in ("unseen", "returned", "start_pool", "dealt", "reefs", "limestone", "vp",
                     "jellyfish", "atoll", "hand", "picked", "queue", "log"):
            setattr(other, name, list(getattr(self, name)))
        other.coral = [list(c) for c in self.coral]
        other.displays = [list(d) for d in self.displays]
        other.setup = dict(self.setup)
        other.rng = SplitMix64(self.rng.state)
        return other

    __copy__ = clone  # copy.copy: the lists play changes in place are not shared either

    # ---- chance -----------------------------------------------------------------------------

    def _sample(self) -> int:
        if self.phase == "deal":
            return self.start_pool[self.rng.below(len(self.start_pool))]
        # the emergency stack is a random part of the never-drawn tiles: a tile comes from those
        # returned to the bag or, uniformly, from the never-drawn ones outside the stack
        r = self.rng.below(self.bag_left)
        counts = self.returned
        if r >= sum(self.returned):
            counts = self.unseen
            r = self.rng.below(sum(self.unseen))
        for k, count in enumerate(counts):
            if r < count:
                return k
            r -= count
        raise AssertionError("unreachable: the bag is not empty at a draw")

    def _apply_chance(self, action: int) -> None:
        if self.phase == "deal":
            self.log.append(f"deal {self.starts[action]}")
            self.start_pool.remove(action)
            self.dealt[self.player] = self.starts[action]
            self.player += 1
        else:
            tile = self.kinds[action]
            self.log.append(f"draw {tile}")
            if self.returned[action]:
                self.returned[action] -= 1
            else:
                self.unseen[action] -= 1
            self.bag_left -= 1
            where = self.queue.pop(0)
            (self.atoll if where < 0 else self.displays[where]).append(tile)
        self._moves = None
        self._advance_after_chance()

    def _advance_after_chance(self) -> None:
        auto, self.auto_chance = self.auto_chance, False
        try:
            self._advance()
        finally:
            self.auto_chance = auto

    def resolve_chance(self) -> None:
        """Draw from the game's own generator until a decision (or the end)."""
        while self.is_chance_node():
            self._apply_chance(self._sample())

    # ---- decisions --------------------------------------------------------------------------

    def decisions(self) -> list:
        """The legal decisions of the player to move, in action-id order (empty at chance nodes
        and at the end)."""
        return list(self._decisions())

    def _decisions(self) -> list:
        """The cached decision list itself (callers inside the class do not change it)."""
        if self._moves is None:
            self._moves = self._list_decisions()
        return self._moves

    def _list_decisions(self) -> list:
        p = self.player
        if self.phase == "orient":
            start = self.dealt[p]
            assert start is not None  # dealt before the orient phase
            return [Orient(start), Orient(StartLumino(start.color_b, start.color_a))]
        if self.phase == "turn":
            return self._spends() + self._turns()
        if self.phase == "swap":
            return self._picks()
        if self.phase == "place":
            moves: list = []
            for i, tile in enumerate(self.hand):
                if tile in self.hand[:i]:
                    continue
                moves += [Place(pl) for pl in self._reef(p).placements(tile, self.limestone[p])]
                moves.append(Return(tile))
            return moves
        if self.phase == "score":
            reef = self._reef(p)
            return [Score(c, reef.coral_score(c)) for c in self.coral[p]] + [Skip()]
        return []

    def _spends(self) -> list[Spend]:
        if not self.jellyfish[self.player]:
            return []
        return [Spend(where) for where, tiles in (("atoll", self.atoll),
                                                  ("display", self.displays[self.player]))
                if tiles]

    def _picks(self) -> list:
        last = _kind_key(self.picked[-1]) if self.picked else (-1, -1, -1)
        options = sorted({t for t in self._swap_source() if _kind_key(t) >= last},
                         key=_kind_key)
        return [Pick(t) for t in options] + ([SwapDone()] if self.picked else [])

    def _swap_source(self) -> list[Lumino]:
        return self.atoll if self.swap_from < 0 else self.displays[self.swap_from]

    def _turns(self) -> list[Turn]:
        display = self.displays[self.player]
        ordered = sorted(display, key=_kind_key)
        puts: list[Lumino | None] = list(dict.fromkeys(ordered)) or [None]
        turns = []
        for put in puts:
            rest = list(display)
            if put is not None:
                rest.remove(put)
            turns.append(Turn(put, "A", (), (put.number or 0) if put else 0))
            turns += [Turn(put, "B", (t,)) for t in dict.fromkeys(sorted(rest, key=_kind_key))]
            atoll = self.atoll + ([put] if put else [])
            for color in COLORS:
                if put is not None and color == put.color:
                    continue
                same = [t for t in atoll if t.color == color]
                turns += [Turn(put, "C", take) for take in _sub_multisets(same, range(1, TAKE + 1))]
        return turns

    def _apply_decision(self, move) -> None:
        p = self.player
        self.log.append(str(move))
        if isinstance(move, Orient):
            self.reefs[p] = Reef.new(self.board, move.start.colors)
            self.player += 1
        elif isinstance(move, Spend):
            self.jellyfish[p] -= 1
            self.swap_from = -1 if move.where == "atoll" else p
            self.phase = "swap"
        elif isinstance(move, Pick):
            self._swap_source().remove(move.lumino)
            self.picked.append(move.lumino)
        elif isinstance(move, SwapDone):
            for t in self.picked:
                self.returned[self.kinds.index(t)] += 1
                self.bag_left += 1
            self._draw_then([self.swap_from] * len(self.picked), "start-turn")
            self.picked = []
        elif isinstance(move, Turn):
            self._apply_turn(move)
        elif isinstance(move, Place):
            self.reefs[p] = self._reef(p).place(move.placement, self.limestone[p])
            self.limestone[p] -= move.placement.cost
            self.hand.remove(move.placement.lumino)
            if not self.hand:
                self._end_turn()
        elif isinstance(move, Return):
            self.vp[p] -= 1
            self.hand.remove(move.lumino)
            self.returned[self.kinds.index(move.lumino)] += 1
            self.bag_left += 1
            if not self.hand:
                self._end_turn()
        elif isinstance(move, Score):
            self.vp[p] += self._reef(p).coral_score(move.color)
            self.coral[p].remove(move.color)
            self.jellyfish[p] += 1
            self.limestone[p] = min(LIMESTONE_CAP,
                                    self.limestone[p] + round_limestone(self.round))
            self.last_scorer = p
            self._next_scorer()
        else:
            self._next_scorer()
        self._moves = None
        self._advance()

    def _apply_turn(self, move: Turn) -> None:
        p = self.player
        if move.put is not None:
            self.displays[p].remove(move.put)
            self.atoll.append(move.put)
        if move.action == "A":
            self.limestone[p] = min(LIMESTONE_CAP, self.limestone[p] + move.limestone)
        elif move.action == "B":
            self.displays[p].remove(move.take[0])
        else:
            for t in move.take:
                self.atoll.remove(t)
        self.hand = list(move.take)
        self._draw_then([-1] * max(0, ATOLL - len(self.atoll)), "after-refill")

    def _next_scorer(self) -> None:
        self.turn_pos += 1
        if self.turn_pos < self.n:
            self.player = (self.octopus + self.turn_pos) % self.n
        else:
            self._end_scoring()

    def play(self, decision) -> None:
        """Apply a decision (a decision object or its text) of the player to move; with
        ``auto_chance`` the draws that follow are made too. IllegalMoveError says why not."""
        text = str(decision)
        for k, move in enumerate(self._decisions()):
            if str(move) == text:
                self.apply_action(k)
                return
        raise IllegalMoveError(f"{shorten(text)} is not legal: {self.why_illegal(text)}")

    def why_illegal(self, text: str) -> str:
        """A reason why the decision written ``text`` is not legal now."""
        if not isinstance(text, str):
            return f"a decision is written as text, got {shorten(text)}"
        if self.phase == "over":
            return "the game is over"
        if self.is_chance_node():
            return "a draw comes first"
        expected = {"orient": "orient the starting Lumino", "turn": "put / spend a jellyfish",
                    "swap": "swap <tile> / back to the bag",
                    "place": "place / return", "score": "coral scoring / skip"}[self.phase]
        legal = self._decisions()
        first = str(legal[0]).split(" ")[0]
        if not any(text.startswith(str(m).split(" ")[0]) for m in legal):
            return f"player {self.player + 1} must decide '{expected}' now, e.g. {str(legal[0])!r}"
        if text.startswith("spend") and not self.jellyfish[self.player]:
            return f"player {self.player + 1} has no jellyfish to spend"
        if text.startswith("put "):
            put = text[4:].split(" into")[0]
            if put not in {str(t) for t in self.displays[self.player]}:
                return f"{put} is not in player {self.player + 1}'s display"
            if "; C: take " in text and text.split("; C: take ")[1].startswith(put.split()[0]):
                return "action C may not take the colour just put into the Atoll"
            return "that action's tiles are not there (or not 1-3 of one colour)"
        if text.startswith("place "):
            return "that placement breaks a placement rule or costs more limestone than stored"
        if text.startswith("coral scoring"):
            return "that scoring tile is already on its jellyfish side (or the VP shown are wrong)"
        return f"not among the {len(legal)} legal decisions (e.g. {str(legal[0])!r}; {first})"

    # ---- results ----------------------------------------------------------------------------

    def final_scores(self) -> list[FinalScore]:
        """The final scoring per player (only once the game is over)."""
        if self._final is None:
            raise LumicoreError("the game is not over yet: no final scoring")
        return self._final

    def totals(self) -> list[int]:
        """VP per player: during the game those on the score track, at the end including the
        final scoring."""
        if self._final is None:
            return list(self.vp)
        return [v + s.total for v, s in zip(self.vp, self._final, strict=True)]

    def winners(self) -> list[int]:
        """The winning players (most VP, then most limestone; still tied, all of them)."""
        return winners(self.final_scores(), self.limestone, self.vp)

    def evaluate(self) -> list[float]:
        """A heuristic chance of winning per player (softmax of :meth:`estimate` over 4 VP),
        on the scale of :meth:`returns`; the returns themselves once the game is over."""
        if self.phase == "over":
            return self.returns()
        est = self.estimate()
        top = max(est)
        weights = [2.718281828 ** ((e - top) / 4.0) for e in est]
        total = sum(weights)
        return [w / total for w in weights]

    def estimate(self, spent: Sequence[int] = ()) -> list[float]:
        """Expected final VP per player: VP so far plus the final scoring if the game ended now
        (jellyfish, limestone pairs, animals, majorities against the current opponents,
        penalties) plus the coral scorings still to come: each unused scoring tile's colour
        as it scores now plus :data:`CORAL_GROWTH` per later scoring phase, and 2 VP for its
        jellyfish, for as many tiles as the player has scoring phases left (``spent``: players
        whose scoring of the current phase is already decided). Tiles in the hand of the
        player to move count as placed where :meth:`hand_placement` puts them, each at its
        best placement now (paying its limestone, -1 VP for each returned to the bag): they
        are placed in this very turn."""
        if self.phase == "over":
            return [float(t) for t in self.totals()]
        if any(r is None for r in self.reefs):
            return [0.0] * self.n
        reefs = [self._reef(p) for p in range(self.n)]
        limestone, vp = list(self.limestone), list(self.vp)
        if self.hand:
            placed = self.hand_placement()
            reefs[self.player], limestone[self.player] = placed.reef, placed.limestone
            vp[self.player] += DISCARD_VP * len(placed.returned)
        scores = final_scores(reefs, self.jellyfish, limestone,
                              self.setup["scoreboard"], self.setup["side"])
        done = set(spent)
        if self.phase == "score":
            done |= {(self.octopus + k) % self.n for k in range(self.turn_pos)}
        out = []
        for p in range(self.n):
            phases = self._scoring_phases_left(p in done)
            later = CORAL_GROWTH * max(0, phases - 1)
            potential = sorted((reefs[p].coral_score(c) + later + 2 for c in self.coral[p]),
                               reverse=True)[:phases]
            out.append(vp[p] + scores[p].total + sum(potential))
        return [float(v) for v in out]

    def placement_weights(self, player: int) -> tuple[float, ...]:
        """Weights over :data:`lumicore.reef.kernel.FEATURES` that value ``player``'s reef
        alone, in VP: the animals of the game's score board, the remote penalties,
        :data:`~lumicore.reef.scoring.VISIBLE_WEIGHT` per visible coral space (for the
        majorities) and :data:`CORAL_WEIGHT` times the coral score of each colour whose scoring
        tile is unused. :meth:`hand_placement` and ``solvers.reef.best_turn`` place tiles by
        them."""
        player = check_int(player, "player", 0, self.n - 1, f"an index 0..{self.n - 1}")
        weights = dict.fromkeys(kernel.FEATURES, 0.0)
        weights[f"animals:{self.setup['scoreboard']}"] = 1.0
        weights["remote"] = 1.0
        for color in COLORS:
            weights[f"visible:{color}"] = VISIBLE_WEIGHT
        for color in self.coral[player]:
            weights[f"coral:{color}"] += CORAL_WEIGHT
        return tuple(weights.values())

    def hand_placement(self) -> HandPlacement:
        """Where the tiles in the hand of the player to move would go now, one at a time: the
        tile whose best single placement (or return to the bag, -1 VP) is worth most for
        :meth:`placement_weights` plus :data:`LIMESTONE_VALUE` per marker left goes there
        first, then the best of the others on the reef it leaves, and so on. Each step is a
        one-tile search of the kernel (a few hundred placements at most), not a search of
        every order of the hand: cheap enough for :meth:`estimate` inside play-outs. An empty
        hand leaves the reef as it is."""
        p = self.player
        # before the starting Lumino is placed there is no reef: returned as it is
        placed = HandPlacement(self.reefs[p], self.limestone[p], (), ())  # type: ignore[arg-type]
        if placed.reef is None:
            return placed
        weights, left = self.placement_weights(p), list(self.hand)
        while left:
            state = kernel.state(placed.reef)
            best = None
            for tile in dict.fromkeys(left):
                found = kernel.search_hand(state, [tile], [1], placed.limestone, weights,
                                           prune=True, max_nodes=None, time_limit=None,
                                           discard_cost=float(-DISCARD_VP),
                                           limestone_value=LIMESTONE_VALUE)
                if found["interrupted"]:  # Ctrl-C inside the search: not to be lost
                    raise KeyboardInterrupt
                if best is None or found["value"] > best[0]:
                    best = (found["value"], tile, found["plan"][0][1:])
            assert best is not None  # left holds a tile
            _, tile, cells = best
            left.remove(tile)
            placed = placed.then([(tile, *cells)])
        return placed

    def _scoring_phases_left(self, done: bool) -> int:
        """The scoring phases in which a player can still score (``done``: her choice in the
        current scoring phase is made). A premature end leaves this round's phase and one more
        (``ending``), or only the extra one (``extra``), whatever the round."""
        now = 0 if done else 1
        if self.extra:
            return now
        if self.ending:
            return now + 1
        return max(0, ROUNDS - self.round + now)

    # ---- records ----------------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """The game as a record: its setup and its decisions (or, if some draws were applied
        from outside, every action), plus the VP totals when it is over."""
        data: dict[str, Any] = {"game": "reef", "format": FORMAT, "version": RECORD_VERSION,
                                **self.setup}
        if self.chance_from_outside:
            data["actions"] = list(self.log)
        else:
            data["decisions"] = [a for a in self.log if not a.startswith(("deal ", "draw "))]
        if self.phase == "over":
            data["totals"] = self.totals()
        return data

    @classmethod
    def replay(cls, record: dict | str | Path) -> Game:
        """Replay a record (a dict, its JSON text or the path of a JSON file holding one, read
        by :func:`lumicore.checks.read_record`: a file of several records is a DataError; the
        reef's own record, or a line of a tournament's ``--out``, the arena's) and return the
        final state. IllegalMoveError names the decision, its turn and why it is not legal (in
        an arena record, the action and its index in ``actions``, from 0); a record whose
        totals differ from the replay's, or a record of another game, is a DataError."""
        return list(cls.iter_replay(record))[-1]

    @classmethod
    def iter_replay(cls, record: dict | str | Path) -> Iterator[Game]:
        """Every state of a recorded game (given as to :meth:`replay`), from the first decision
        to the last, as copies."""
        record = read_record(record, "game record")
        if not isinstance(record, dict):
            raise DataError(f"game record: expected a JSON object, got {shorten(record)}")
        if "format" not in record and "game" in record:
            yield from cls._iter_arena(record)
            return
        game = cls._from_setup(record)
        yield game.clone()
        key = "actions" if "actions" in record else "decisions"
        steps = record.get(key)
        if not isinstance(steps, list):
            raise DataError(f"game record: {key!r} must be a list of decision texts, got "
                            f"{shorten(steps)}")
        for k, step in enumerate(steps, start=1):
            if not isinstance(step, str):
                raise DataError(f"game record: {key!r} entry {k} must be a decision text, got "
                                f"{shorten(step)}")
        for k, text in enumerate(steps, start=1):
            where = (f"decision {k} (round {game.round}, player {game.player + 1}, "
                     f"phase {game.phase})")
            try:
                if game.is_chance_node():
                    game._apply_text_chance(text)
                else:
                    game.play(text)
            except IllegalMoveError as exc:
                raise IllegalMoveError(f"{where}: {exc}") from None
            yield game.clone()
        if "totals" in record and game.phase != "over":  # written only once a game is over
            raise DataError(f"game record: totals {shorten(record['totals'])} recorded, but the "
                            f"replay ends before the game does ({game.phase}, round "
                            f"{game.round})")
        if "totals" in record and record["totals"] != game.totals():
            raise DataError(f"game record: totals {record['totals']} recorded, the replay gives "
                            f"{game.totals()}")

    @classmethod
    def _iter_arena(cls, record: dict) -> Iterator[Game]:
        """The states of an arena record (a line of ``tournament --out``: ``"game": "reef"``,
        its ``options``, the actions as the indices of ``legal_actions``), as copies, replayed
        as every game replays one (:func:`lumicore.game.iter_arena_record`)."""
        for game in iter_arena_record(record, "reef"):
            yield cast(Game, game).clone()

    def _apply_text_chance(self, text: str) -> None:
        for a in self.legal_actions():
            label = (f"deal {self.starts[a]}" if self.phase == "deal"
                     else f"draw {self.kinds[a]}")
            if label == text:
                self.apply_action(a)
                return
        raise IllegalMoveError(f"{shorten(text)} is not a possible draw here")

    @classmethod
    def _from_setup(cls, record: dict) -> Game:
        if record.get("format") != FORMAT:
            raise DataError(f"not a game record: expected \"format\": \"{FORMAT}\"")
        if "game" in record:  # written since records name their game, as the other games' do
            check_fields(record, {"game": _GAME}, "not a reef game record", exact=False)
        version = record.get("version", RECORD_VERSION)
        if type(version) is not int or version != RECORD_VERSION:  # true is not 1
            raise DataError(f"game record version {shorten(version)} (this lumicore reads "
                            f"version {RECORD_VERSION})")
        try:
            return cls.new(record["players"], record["seed"], record.get("side", "A"),
                           record.get("scoreboard", "dark"), record.get("tiles", "default"),
                           auto_chance="actions" not in record)
        except KeyError as exc:
            raise DataError(f"game record: missing {exc.args[0]!r}") from None

    def serialize(self) -> str:
        """The state as JSON text (:meth:`deserialize` reads it back)."""
        data = {
            "game": "reef", "setup": self.setup, "auto_chance": self.auto_chance,
            "rng": self.rng.state, "unseen": self.unseen, "returned": self.returned,
            "bag_left": self.bag_left,
            "emergency": self.emergency, "start_pool": self.start_pool,
            "dealt": [list(d.colors) if d else None for d in self.dealt],
            "reefs": [io.to_json(r) if r else None for r in self.reefs],
            "limestone": self.limestone, "vp": self.vp, "coral": self.coral,
            "jellyfish": self.jellyfish,
            "displays": [[str(t) for t in d] for d in self.displays],
            "atoll": [str(t) for t in self.atoll], "hand": [str(t) for t in self.hand],
            "picked": [str(t) for t in self.picked], "swap_from": self.swap_from,
            "octopus": self.octopus, "round": self.round, "player": self.player,
            "turn_pos": self.turn_pos, "phase": self.phase, "queue": self.queue,
            "then": self.then, "ending": self.ending, "extra": self.extra,
            "last_scorer": self.last_scorer, "log": self.log,
            "chance_from_outside": self.chance_from_outside,
        }
        return json.dumps(data)

    @classmethod
    def deserialize(cls, text: str) -> Game:
        return checked_load(lambda: cls._deserialize(text), "serialized reef game")

    @classmethod
    def _deserialize(cls, text: str) -> Game:
        """Every field is checked (type, range) by the table :meth:`_schema`, then the fields
        against each other (:meth:`_check_loaded`): a DataError names the field."""
        data = read_json(text, _WHAT)
        if isinstance(data, dict):  # written before states named their game: a reef game
            data = {"game": "reef", **data}
        self = cls.__new__(cls)
        self.setup = check_fields(data, {"game": _GAME, "setup": _SETUP}, _WHAT,
                                  exact=False)["setup"]
        self._init(load_tiles(self.setup["tiles"]))
        full = list(self.unseen)
        fields = check_fields(data, self._schema(), _WHAT)
        del fields["game"]  # a field of the text, not of the state
        self.__dict__.update(fields)
        self._check_loaded(full, data)
        if self.phase == "over":
            self._finish()
        return self

    def _schema(self) -> dict[str, Spec]:
        """The rule of each serialized field, for this game's players and tile set (the
        :class:`~lumicore.checks.Load` rules turn notations into tiles, starts and reefs)."""
        n = self.n
        seat = Int(0, n - 1)
        tiles = sum(self.unseen)  # called on a fresh game: every tile of the set is unseen
        counts = ListOf(Int(0, tiles), length=len(self.kinds))

        def each(spec: Spec) -> ListOf:
            return ListOf(spec, length=n)

        return {
            "game": _GAME, "setup": _SETUP, "auto_chance": BOOL, "rng": _RNG, "unseen": counts,
            "returned": counts, "bag_left": Int(0, tiles),
            "emergency": Choice(0, EMERGENCY) if n >= 3 else Choice(0),
            "start_pool": ListOf(Int(0, len(self.starts) - 1), unique=True),
            "dealt": each(Maybe(_START)),
            "limestone": each(Int(0, LIMESTONE_CAP)), "vp": each(Int(None)),
            "coral": each(ListOf(Choice(*COLORS), unique=True)),
            "jellyfish": each(Int(0, len(COLORS))),
            "displays": each(ListOf(_LUMINO, high=DISPLAY)), "atoll": ListOf(_LUMINO),
            "hand": ListOf(_LUMINO, high=TAKE), "picked": ListOf(_LUMINO),
            "swap_from": Int(-1, n - 1), "octopus": seat, "round": Int(1, ROUNDS),
            "player": Int(TERMINAL, n), "turn_pos": Int(0, n), "phase": Choice(*_PHASES),
            "queue": ListOf(Int(-1, n - 1)), "then": Choice("", *_THENS), "ending": BOOL,
            "extra": BOOL, "last_scorer": Maybe(seat), "log": ListOf(Text()),
            "chance_from_outside": BOOL,
            "reefs": each(Maybe(io.REEF)),  # last: loading a reef replays its placements
        }

    def _check_loaded(self, full: list[int], data: dict) -> None:
        """The loaded fields against each other (``full``: the tile set's count of each kind;
        ``data``: the fields as saved, quoted in a message): the tiles and starting Luminos add
        up, and the phase agrees with the player to act, the dealt Luminos, the reefs, the
        draws pending, the hand and the tiles picked."""
        n, phase, player = self.n, self.phase, self.player

        def need(ok: bool, name: str, rule: str) -> None:
            if not ok:
                verb, _, what = rule.partition(" ")
                raise field_error(_WHAT, name, what, data[name], verb)

        bag = sum(self.unseen) + sum(self.returned) - self.emergency
        need(self.bag_left == bag, "bag_left", f"be unseen + returned - emergency = {bag}")
        need(self.emergency <= sum(self.unseen), "emergency", "be among the 'unseen' tiles")
        out: dict[str, Sequence[Lumino | StartLumino]]  # pieces[1:]: no starting Lumino
        out = {"displays": [t for d in self.displays for t in d], "atoll": self.atoll,
               "hand": self.hand, "picked": self.picked,
               "reefs": [pc.lumino for r in self.reefs if r for pc in r.pieces[1:]]}
        for name, tiles in out.items():
            need(set(self.kinds).issuperset(tiles), name, "hold only tiles of the tile set")
        drawn = Counter(t for tiles in out.values() for t in tiles)
        for k, kind in enumerate(self.kinds):
            held = self.unseen[k] + self.returned[k] + drawn[kind]
            need(held == full[k], "unseen", f"add up with 'returned' and the tiles out of the "
                 f"bag to the tile set's {full[k]} {kind}, not {held}")
        need(self.start_pool == sorted(self.start_pool), "start_pool", "be ascending")
        dealt = Counter(d for d in self.dealt if d)
        need(dealt == Counter(s for i, s in enumerate(self.starts) if i not in self.start_pool),
             "dealt", "hold the starting Luminos missing from 'start_pool'")
        low, high = {"deal": (0, n - 1), "orient": (0, n - 1), "draw": (0, n),
                     "over": (TERMINAL, TERMINAL)}.get(phase, (0, n - 1))
        need(low <= player <= high, "player", f"be from {low} to {high} in phase {phase!r}")
        has_start = player if phase == "deal" else n
        has_reef = 0 if phase == "deal" else player if phase == "orient" else n
        need([d is not None for d in self.dealt] == [p < has_start for p in range(n)], "dealt",
             f"hold a starting Lumino for the first {has_start} players in phase {phase!r}")
        need([r is not None for r in self.reefs] == [p < has_reef for p in range(n)], "reefs",
             f"hold a reef for the first {has_reef} players in phase {phase!r}")
        need(all(r is None or (d is not None and r.board == self.board
                               and r.start in (d.colors, d.colors[::-1]))
                 for r, d in zip(self.reefs, self.dealt, strict=True)), "reefs",
             f"be on reef side {self.setup['side']!r}, each from its player's starting Lumino")
        if phase in _DECIDING:
            need(self.turn_pos < n, "turn_pos", f"be below {n} in phase {phase!r}")
            need(player == (self.octopus + self.turn_pos) % n, "player",
                 "be the seat 'turn_pos' places after the octopus")
        need(bool(self.queue) == (phase == "draw"), "queue", "be non-empty exactly in phase "
             "'draw'")
        need(bool(self.then) == (phase == "draw"), "then", "be set exactly in phase 'draw'")
        need(phase != "draw" or self.bag_left > 0, "bag_left", "be positive in phase 'draw'")
        need(not self.auto_chance or not self.is_chance_node(), "auto_chance",
             f"be false in phase {phase!r} (a game that draws for itself rests at decisions)")
        refill = phase == "draw" and self.then == "after-refill"  # the hand waits for the Atoll
        need(bool(self.hand) if phase == "place" else refill or not self.hand, "hand",
             "be non-empty in phase 'place' and empty outside a turn")
        need(not self.picked or phase == "swap", "picked", "be empty outside phase 'swap'")
        need(phase != "swap" or self.swap_from in (-1, player), "swap_from",
             "be -1 (the Atoll) or the player to act in phase 'swap'")
        need(self.ending or not self.extra, "extra", "be false unless 'ending' is true")
        need(not self.ending or not self.emergency, "ending", "be false while the emergency "
             "stack is aside")
        need(all(j <= len(COLORS) - len(c) for j, c in zip(self.jellyfish, self.coral,
                                                           strict=True)),
             "jellyfish", "be at most the coral scoring tiles each player has turned")

    def _key(self) -> str:
        return self.serialize()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    # ---- display ----------------------------------------------------------------------------

    def __str__(self) -> str:
        lines = [f"Lumicora, {self.n} players, side {self.setup['side']}, "
                 f"{self.setup['scoreboard']} score board, round {self.round}, phase "
                 f"{self.phase}" + self._to_act()]
        lines.append(f"Atoll: {', '.join(map(str, self.atoll)) or '-'}; bag {self.bag_left}"
                     + (f" (+{self.emergency} emergency)" if self.emergency else ""))
        for p in range(self.n):
            mark = " (octopus)" if p == self.octopus else ""
            lines.append(f"player {p + 1}{mark}: {self.vp[p]} VP, {self.limestone[p]} limestone,"
                         f" {self.jellyfish[p]} jellyfish, coral tiles "
                         f"{'/'.join(self.coral[p]) or '-'}; display "
                         f"{', '.join(map(str, self.displays[p])) or '-'}")
        if self.hand:
            lines.append(f"hand: {', '.join(map(str, self.hand))}")
        if self.phase == "over":
            lines.append("final: " + ", ".join(f"player {p + 1} {t} VP"
                                               for p, t in enumerate(self.totals()))
                         + f"; winner {', '.join(str(w + 1) for w in self.winners())}")
        return "\n".join(lines)

    def _to_act(self) -> str:
        """Who acts, for the first line of the text: a player, chance (the bag or the deal), or
        nobody when the game is over."""
        actor = self.current_player()
        if actor == CHANCE:
            return ", a chance node"
        return f", player {actor + 1} to act" if actor >= 0 else ""

    def _repr_svg_(self) -> str:
        """Every player's reef, left to right, captioned with VP and limestone (notebooks)."""
        title = str(self).splitlines()[0]
        shown = [(reef, f"player {p + 1}: {self.vp[p]} VP, {self.limestone[p]} limestone"
                  + (" (to act)" if p == self.current_player() else ""))
                 for p, reef in enumerate(self.reefs) if reef is not None]
        if not shown:  # before the starting Luminos are dealt
            width = max(640, 16 + text_width(title, 16))
            return document(width, 30, title, f'<text x="8" y="20" font-family="sans-serif">'
                                              f"{escape(title)}</text>")
        return side_by_side([r for r, _ in shown], [c for _, c in shown], title)

    def __repr__(self) -> str:
        return (f"<reef Game players={self.n} seed={self.setup['seed']} round={self.round} "
                f"phase={self.phase}>")

    @classmethod
    def new_game(cls, players: int = 2, seed: int = 0, side: str = "A", scoreboard: str = "dark",
                 tiles: str | Path = "default", auto_chance: bool = False) -> Game:
        """The registry's factory (``lumicore.game.new_game("reef", ...)``), :meth:`new` with
        the same options: every draw is a chance node unless ``auto_chance=True`` is passed."""
        return cls.new(players, seed, side, scoreboard, tiles, auto_chance)


new_game = Game.new_game


def _check_setup(players: object, seed: object, side: object,
                 scoreboard: object) -> tuple[int, int]:
    """``players`` and ``seed`` as ints (numpy integers too), or LumicoreError unless the
    arguments make a game (Game.new; the loader reads the same rules from the table
    ``_SETUP``)."""
    players = check_players(players, 2, 4, "Lumicora")
    seed = check_seed(seed)
    if side not in ("A", "B"):
        raise LumicoreError(f"side must be 'A' or 'B', got {shorten(side)}")
    if scoreboard not in ("dark", "light"):
        raise LumicoreError(f"scoreboard must be 'dark' or 'light', got {shorten(scoreboard)}")
    return players, seed


def least_tiles(players: int) -> int:
    """The fewest tiles a tile set must put in the bag for ``players``: the emergency stack (3
    and 4 players) and a full display for each player and a full Atoll, as the setup draws them
    from the bag without the stack (the hands are taken from the displays and the Atoll).

    >>> [least_tiles(n) for n in (2, 3, 4)]
    [12, 22, 26]
    """
    players = check_players(players, 2, 4, "Lumicora")
    return (EMERGENCY if players >= 3 else 0) + DISPLAY * players + ATOLL


def _check_tile_count(tile_set: TileSet, pool: Sequence[Lumino], players: int,
                      source: str) -> None:
    """A :class:`DataError` naming the tile file ``source`` when its set lacks starting Luminos
    or bag tiles (``pool``) for ``players`` (a smaller bag ran dry during the setup, and one
    smaller than the emergency stack failed at the first draw)."""
    if len(tile_set.starts) < players:
        raise DataError(f"{shorten(source)}: the tile set has "
                        f"{plural(len(tile_set.starts), 'starting Lumino')} (starts), "
                        f"{players} players need {players}")
    need = least_tiles(players)
    if len(pool) < need:
        stack = f"the emergency stack of {EMERGENCY}, " if players >= 3 else ""
        fish = {2: "without fish on the back", 3: "with at most 3 fish on the back",
                4: "of any fish"}[players]
        raise DataError(f"{shorten(source)}: the tile set puts {plural(len(pool), 'tile')} "
                        f"({fish}) in the bag for {players} players, a game needs at least "
                        f"{need}: {stack}{DISPLAY} in each of the {players} displays and "
                        f"{ATOLL} in the Atoll")


def _tile_set_name(name: str) -> str:
    load_tiles(name)  # a name or file that is no tile set is this field's fault
    return name


_GAME = Choice("reef", what='"reef"')
_SETUP = Table({"players": Int(2, 4, "a number of players from 2 to 4"),
                "seed": Int(0, SEED_LIMIT - 1, "a seed from 0 to 2**63 - 1"),
                "side": Choice("A", "B"), "scoreboard": Choice("dark", "light"),
                "tiles": Load(Text(), _tile_set_name, "a tile set (a name or path)")},
               "an object of players (2-4), seed, side, scoreboard and tiles (a name or path)")
_RNG = Load(Int(0, _MASK), SplitMix64, "an integer from 0 to 2**64 - 1")
_LUMINO = Load(Text(), Lumino.parse, "a Lumino notation")
_START = Load(ListOf(Choice(*COLORS), length=2, unique=True, what="two different colours"),
              lambda pair: StartLumino(*pair), "two different colours")


def read_records(records: dict | str | Path) -> list[dict]:
    """The game records in a file: one JSON object, or JSON lines (one object per line). A
    ``str`` starting with ``{`` or ``[`` is that JSON text itself, any other ``str`` (and a
    :class:`~pathlib.Path`) the file's path; a dict is one record
    (:func:`lumicore.checks.read_record`)."""
    return read_record(records, "game record", many=True)
