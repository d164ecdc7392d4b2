"""One state protocol for every game, in the style of OpenSpiel.

A :class:`GameState` is a position of a game with integer actions:
``legal_actions()`` lists them (empty exactly when ``is_terminal()``), ``apply_action(a)``
plays one in place, ``returns()`` gives each player's result once the game is over, ``clone()``
copies the state and ``serialize()`` writes it as JSON text that the state's
``deserialize`` class method reads back. Generic tools (random play-outs, tree searches, the
conformance test in ``tests/test_game_protocol.py``) work on any game that implements it:

- :class:`lumicore.lucia.game.PuzzleState`: a Lucia train puzzle, one card play per action;
- :class:`lumicore.reef.hand.HandState`: placing a hand of Luminos in a reef, one tile per action.

Games with dice, shuffled decks or a bag have *chance nodes*, as in OpenSpiel: there
``is_chance_node()`` is true, ``current_player()`` is :data:`CHANCE`, ``chance_outcomes()`` lists
``(action, probability)`` pairs and ``legal_actions()`` the same actions, and
``apply_action(outcome)`` plays the outcome. States without chance inherit
:class:`Deterministic`. :func:`new_game` makes a fresh state of any registered game by name, so
generic tools (the arena's bots and tournaments) need nothing game-specific; a game's options
are the keyword parameters of its factory, and :func:`new_game` refuses any other by name. Two
states are equal when they are the same position reached the same way (see
:class:`GameState`). A co-operative game, whose players win or lose together, says so with a
class attribute ``cooperative = True`` (:func:`is_cooperative`); a game without it is
competitive.

>>> from lumicore.lucia.game import PuzzleState
>>> state = PuzzleState.new("h L4 H T S", max_plays=4)
>>> isinstance(state, GameState), state.num_players()
(True, 1)
>>> play_randomly(state, seed=1).is_terminal()
True
"""

from __future__ import annotations

import importlib
import inspect
import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any, NamedTuple, Protocol, TypeVar, cast, runtime_checkable

import numpy as np

from lumicore.checks import (
    SEED_LIMIT,
    Int,
    ListOf,
    MapOf,
    Maybe,
    Spec,
    Text,
    check_fields,
    check_index,
    check_seed,
    check_type,
    field_error,
    read_record,
)
from lumicore.data import shorten
from lumicore.errors import DataError, IllegalMoveError, LumicoreError

__all__ = ["CHANCE", "TERMINAL", "GAMES", "GameState", "Deterministic", "OnePlayerState",
           "play_randomly", "check_action", "checked_load", "sample_chance", "new_game",
           "LOAD_ERRORS", "ARENA_FIELDS", "iter_arena_record", "replay_arena_record",
           "check_record_game", "check_record_returns", "NEW_GAME_DEFAULTS", "RecordRules",
           "RECORD_RULES", "record_rules", "is_cooperative", "check_state"]

TERMINAL = -1
"""``current_player()`` once the game is over."""
CHANCE = -2
"""``current_player()`` at a chance node (OpenSpiel's chance player)."""

GAMES: dict[str, str] = {
    # name -> "module:callable"; the callable takes (players: int, seed: int, **options) and
    # returns a fresh GameState (at a chance node or a decision). Each game adds its line. The
    # game's options are the callable's keyword parameters: new_game refuses others by name
    "reef": "lumicore.reef.game:new_game",
    "lumen": "lumicore.lumen.game:GameState.new_game",
    "lemuria": "lumicore.lemuria.game:Game.new",
    "lucia": "lumicore.lucia.deal_game:DealState.new_game",
}
"""The games :func:`new_game` knows, by name: where each one's factory is (``"module:callable"``,
imported on first use)."""


@runtime_checkable
class GameState(Protocol):
    """What every game state offers (the names follow OpenSpiel's ``pyspiel.State``).

    Equality is one thing in every game: two states are equal when ``serialize()`` writes the
    same data for them (key order aside, and parts the game itself compares loosely, such as a
    Lucia card's display name, aside), the seed and the actions that led to the position
    included. So ``state.clone() == state`` and ``deserialize(state.serialize()) == state``,
    and a state after one more action differs from it. Equal states hash alike: a state may be
    a dict key or a set member. States are mutable and their hash follows the position, so a
    state must not be played on while it is a key (keep a clone there); the library keys no
    table by a state (Lumen's planner keys the positions it meets again by immutable tuples).
    """

    def num_players(self) -> int:
        """How many players the game has."""
        ...

    def current_player(self) -> int:
        """The player to act (0-based); :data:`CHANCE` at a chance node; :data:`TERMINAL` (-1)
        once the game is over."""
        ...

    def is_chance_node(self) -> bool:
        """Whether chance (a die, a draw) acts next rather than a player."""
        ...

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node, the ``(action, probability)`` pairs (probabilities sum to 1);
        elsewhere empty."""
        ...

    def legal_actions(self) -> list[int]:
        """The actions the player to act may take, ascending; empty when terminal."""
        ...

    def apply_action(self, action: int) -> None:
        """Play ``action`` in place; an action not in ``legal_actions()`` raises
        :class:`~lumicore.errors.IllegalMoveError`."""
        ...

    def action_to_string(self, action: int) -> str:
        """A readable name of a legal action."""
        ...

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        ...

    def returns(self) -> list[float]:
        """Each player's result (0 for everyone until the game is over)."""
        ...

    def clone(self) -> GameState:
        """An independent copy."""
        ...

    def serialize(self) -> str:
        """JSON text that the class's ``deserialize`` reads back into an equal state."""
        ...


class Deterministic:
    """The chance API of a game without chance nodes."""

    def is_chance_node(self) -> bool:
        return False

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []


class OnePlayerState(Deterministic):
    """The parts every one-player state shares: its actions index the list ``_legal()`` of
    moves, and two states are equal when their ``_key()`` tuples are."""

    def _legal(self) -> list:
        raise NotImplementedError

    def _key(self) -> tuple:
        raise NotImplementedError

    def is_terminal(self) -> bool:
        raise NotImplementedError

    def num_players(self) -> int:
        return 1

    def current_player(self) -> int:
        return -1 if self.is_terminal() else 0

    def legal_actions(self) -> list[int]:
        return list(range(len(self._legal())))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


def check_state(state: object, name: str = "state") -> GameState:
    """``state`` if it is a game state (it has the methods of :class:`GameState`); else
    :class:`LumicoreError` naming ``name`` and quoting the value.

    >>> check_state(None)
    Traceback (most recent call last):
    ...
    lumicore.errors.LumicoreError: state must be a game state, got 'None'
    """
    if not isinstance(state, GameState):
        raise LumicoreError(f"{name} must be a game state, got {shorten(state)}")
    return state


def check_action(state: GameState, action: int) -> int:
    """``action`` as a plain int (numpy integers too) if it is legal in ``state``, else
    :class:`IllegalMoveError` naming it (:class:`LumicoreError` when ``state`` is no game
    state)."""
    try:
        over = state.is_terminal()
    except AttributeError:  # checked only here: every move of every game passes this door
        check_state(state)
        raise
    if over:
        raise IllegalMoveError(f"action {action!r}: the game is over")
    legal = state.legal_actions()
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or action not in legal:
        shown = (f"0..{len(legal) - 1}" if legal == list(range(len(legal)))  # else outcomes
                 else " ".join(map(str, legal[:20])) + (" ..." if len(legal) > 20 else ""))
        raise IllegalMoveError(f"action {action!r} is not legal here (legal: {shown})")
    return int(action)


LOAD_ERRORS = (KeyError, TypeError, AttributeError, IndexError, ValueError, OverflowError)
"""What malformed data raises in a loader that reads it as if it were well formed."""


def checked_load(load: Callable[[], Any], what: str) -> Any:
    """A clone of the state ``load()`` builds from serialized data, tried: its moves or chance
    outcomes (or its returns once over), its text and its serialization; then each move played
    on a clone of it, and the state that leads to tried the same way. Data that got past the
    loader's own checks but cannot be played is a :class:`DataError` naming ``what`` now, not
    a stray exception later; a :class:`LumicoreError` passes through. (A clone, because the
    moves were tried on clones, whose fields are their own.) Damage that only a later move
    reaches can still surface then.

    >>> checked_load(lambda: [][0], "list")
    Traceback (most recent call last):
    ...
    lumicore.errors.DataError: not a valid list: IndexError: list index out of range
    """
    if not callable(load):
        raise LumicoreError(f"load must be callable, got {shorten(load)}")
    try:
        state = load().clone()  # as the probes below are: a clone's fields are its own
        for action in _exercise(state):
            after = state.clone()
            after.apply_action(action)
            _exercise(after)
    except LumicoreError:
        raise
    except LOAD_ERRORS as exc:
        raise DataError(f"not a valid {what}: {type(exc).__name__}: {str(exc)[:80]}") from None
    return state


def _actions(state: GameState) -> list[int]:
    if state.is_chance_node():
        return [a for a, _p in state.chance_outcomes()]
    return list(state.legal_actions())


def _exercise(state: GameState) -> list[int]:
    """Try ``state``'s returns (once over) or moves, its text and serialization; its moves."""
    actions = [] if state.is_terminal() else _actions(state)
    if state.is_terminal():
        state.returns()
    elif not actions:
        raise DataError("a position that is not over offers no move")
    str(state)
    state.serialize()
    return actions


S = TypeVar("S", bound=GameState)


def sample_chance(state: GameState, rng: np.random.Generator) -> int:
    """One outcome of the chance node ``state``, drawn with its probability."""
    check_type(rng, np.random.Generator, "rng", "a numpy random Generator")
    try:
        chance = state.is_chance_node()
    except AttributeError:  # checked only here: the Monte Carlo play-outs draw through this
        check_state(state)
        raise
    if not chance:
        raise LumicoreError("not a chance node: the player to move decides here")
    outcomes = state.chance_outcomes()
    actions = [a for a, _ in outcomes]
    probs = np.fromiter((p for _, p in outcomes), dtype=float, count=len(outcomes))
    return int(actions[int(rng.choice(len(actions), p=probs / probs.sum()))])


def play_randomly(state: S, seed: int | np.random.Generator | None = None,
                  max_steps: int = 10_000) -> S:
    """Play uniformly random legal actions (and chance outcomes with their probabilities) on a
    clone of ``state`` until the game is over (or ``max_steps`` actions were played) and return
    that clone."""
    check_state(state)
    max_steps = check_index(max_steps, 2**63, "max_steps")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(
        None if seed is None else check_seed(seed))
    state = cast(S, state.clone())
    for _ in range(max_steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        actions = state.legal_actions()
        state.apply_action(int(actions[rng.integers(len(actions))]))
    return state


def is_cooperative(state: GameState) -> bool:
    """Whether ``state``'s game is co-operative, its players winning or losing together (every
    player gets the same return): its class says so with ``cooperative = True``. A game that
    does not say so is competitive.

    >>> from lumicore.lucia.deal_game import DealState
    >>> is_cooperative(DealState.new_game(players=2)), is_cooperative(object())
    (True, False)
    """
    return getattr(state, "cooperative", False) is True


def _load(entry: str) -> Any:
    """The object a registry entry ``"module:attr.attr"`` names (its module imported)."""
    module, _, attr = entry.partition(":")
    found: Any = importlib.import_module(module)
    for part in attr.split("."):
        found = getattr(found, part)
    return found


def new_game(name: str, players: int = 2, seed: int = 0, **options: Any) -> GameState:
    """A fresh state of the registered game ``name`` (a key of :data:`GAMES`); ``options`` are
    the game's own (the keyword parameters of its factory besides ``players`` and ``seed``). An
    option the game does not have is a :class:`LumicoreError` naming it and listing the game's:

    >>> new_game("lucia", dek="default")
    Traceback (most recent call last):
    ...
    lumicore.errors.LumicoreError: game 'lucia' has no option 'dek' (its options: deck, setup)
    """
    if not isinstance(name, str) or name not in GAMES:
        known = ", ".join(sorted(GAMES)) or "none"
        raise LumicoreError(f"unknown game {shorten(name)} (known: {known})")
    factory: Callable[..., GameState] = _load(GAMES[name])
    _check_options(name, factory, options)
    return factory(players=players, seed=seed, **options)


def _check_options(name: str, factory: Callable[..., GameState],
                   options: Mapping[str, Any]) -> None:
    """:class:`LumicoreError` naming the ``options`` that the factory of game ``name`` has no
    keyword parameter for (a factory that takes ``**options`` checks them itself)."""
    try:
        params = list(inspect.signature(factory).parameters.values())
    except (TypeError, ValueError):  # a callable whose signature Python cannot read
        return
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return
    known = [p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
             and p.name not in ("players", "seed")]
    unknown = [key for key in options if key not in known]
    if unknown:
        raise LumicoreError(f"game {shorten(name)} has no option{'s' if len(unknown) > 1 else ''} "
                            f"{', '.join(map(shorten, unknown))} (its options: "
                            f"{', '.join(known) or 'none'})")


NEW_GAME_DEFAULTS: dict[str, int] = {"players": 2, "seed": 0}
"""The players and seed :func:`new_game` takes when none are given (what a record that leaves
them out means, for the games whose replay allows it)."""

ARENA_FIELDS: dict[str, Spec] = {
    "players": Int(1, None, "a number of players"),
    "seed": Int(0, SEED_LIMIT - 1, "a seed from 0 to 2**63 - 1"),
    "options": Maybe(MapOf(Text(), Spec(), "an object of options")),
    "actions": ListOf(Spec(), what="a list of actions"),
}
"""The fields of an arena record (``solvers.arena.play_game``'s, a line of a tournament's
output) that :func:`iter_arena_record` reads, besides ``game``; ``options`` may be null."""


class RecordRules(NamedTuple):
    """A game's own rules for its arena records, as :func:`iter_arena_record` takes them: what
    errors call a record, the rules of fields that replace those of :data:`ARENA_FIELDS` and the
    values of fields a record may leave out. A game registers them in :data:`RECORD_RULES`."""

    what: str
    fields: Mapping[str, Spec] | None = None
    defaults: Mapping[str, Any] | None = None


RECORD_RULES: dict[str, str] = {
    # name -> "module:attr" of a RecordRules, for a game whose arena records have rules of their
    # own: its replay and the any-game replay both read its records by them
    "lucia": "lumicore.lucia.deal_game:ARENA_RULES",
    "reef": "lumicore.reef.game:ARENA_RULES",
    "lemuria": "lumicore.lemuria.game:ARENA_RULES",
    "lumen": "lumicore.lumen.game:ARENA_RULES",
}
"""The games whose arena records have rules of their own, by name: where each one's
:class:`RecordRules` is (``"module:attr"``); :func:`record_rules` loads them."""


def record_rules(name: str) -> RecordRules | None:
    """The :class:`RecordRules` the game ``name`` registered in :data:`RECORD_RULES`; None for
    a game that has none (its records are read by :data:`ARENA_FIELDS`).

    >>> record_rules("lumen").what, record_rules("lumen").defaults
    ('Lumen game record', {'players': 2, 'seed': 0})
    """
    entry = RECORD_RULES.get(name) if isinstance(name, str) else None
    return None if entry is None else _load(entry)


def _rules(name: object, what: str, fields: Mapping[str, Spec] | None,
           defaults: Mapping[str, Any] | None) -> RecordRules:
    """The rules to read a record of game ``name`` by: those given, or the game's registered
    ones when none are given."""
    if what == "game record" and fields is None and defaults is None and isinstance(name, str):
        registered = record_rules(name)
        if registered is not None:
            return registered
    return RecordRules(what, fields, defaults)


def _check_replay_arguments(game: object, fields: object, on_action: object,
                            defaults: object) -> None:
    """:class:`LumicoreError` naming the first of a replay's arguments of the wrong kind."""
    if game is not None and not isinstance(game, str):
        raise LumicoreError(f"game must be a game's name or None, got {shorten(game)}")
    if fields is not None and not (isinstance(fields, Mapping)
                                   and all(isinstance(v, Spec) for v in fields.values())):
        raise LumicoreError(f"fields must be None or a dict of field rules (lumicore.checks.Spec)"
                            f", got {shorten(fields)}")
    if on_action is not None and not callable(on_action):
        raise LumicoreError(f"on_action must be callable or None, got {shorten(on_action)}")
    if defaults is not None and not isinstance(defaults, Mapping):
        raise LumicoreError(f"defaults must be None or a dict of field values, got "
                            f"{shorten(defaults)}")


def iter_arena_record(record: object, game: str | None = None, what: str = "game record",
                      fields: Mapping[str, Spec] | None = None,
                      on_action: Callable[[Any, int], Any] | None = None,
                      defaults: Mapping[str, Any] | None = None) -> Iterator[GameState]:
    """Replay an arena record, the one way every game does: its ``game``, ``players``, ``seed``
    and ``options`` make the state (:func:`new_game`), then its ``actions`` (indices of
    ``legal_actions()``, chance outcomes included) are played in order. Yields the fresh state
    and then the same state after each action (copy it to keep it); ``on_action(state,
    action)`` is called before each action is played.

    ``record`` is read by :func:`lumicore.checks.read_record` (the dict, its JSON text or the
    path of its file; a file of several records is refused). ``game``: the record must be of
    that game; None: of any registered game. Unless ``what``, ``fields`` or ``defaults`` are
    given, the record is read by its game's :func:`record_rules` (every game has some, and its
    own replay reads its records by them), so a record is refused or read the same way whether
    its game is named or not. ``what`` names the record in errors, ``fields``
    are rules for fields of this game (they replace those of :data:`ARENA_FIELDS`), ``defaults``
    values of fields the record may leave out (``options`` is ``{}`` when left out, unless
    ``fields`` has a rule for ``options``: then only ``defaults`` lets them be left out). A
    field the record needs and leaves out is named: ``Lucia game record: field 'options' is
    missing``. Errors:

    - a record of another game: ``not a Lumen game record: field 'game' must be "lumen", got
      "reef"`` (:class:`DataError`; a bad field or option is one too);
    - an action that is not legal where it stands, named by its index in ``actions`` (from 0):
      ``Lumen game record: actions[4]: action 99 is not legal here (legal: 0..5)``
      (:class:`IllegalMoveError`);
    - ``returns`` (when the record has them) that are not the replayed game's, once every action
      is played (:func:`check_record_returns`, a :class:`DataError`).
    """
    _check_replay_arguments(game, fields, on_action, defaults)
    given = (what, fields, defaults)
    if game is not None:
        what, fields, defaults = _rules(game, *given)
    record = read_record(record, what)
    if not isinstance(record, Mapping):
        raise DataError(f"{what}: expected a JSON object, got {shorten(record)}")
    if game is not None:
        check_record_game(record, game, what)
    name = record.get("game")
    if not isinstance(name, str) or name not in GAMES:
        raise field_error(what, "game", f"a known game ({', '.join(sorted(GAMES))})", name)
    if game is None:  # any game: its records are read as its own replay reads them
        what, fields, defaults = _rules(name, *given)
    # left out, options are null ({}) unless the game has a rule of its own for them: a record
    # without the options that rule requires is "field 'options' is missing", not "got null"
    implied = {} if fields is not None and "options" in fields else {"options": None}
    checked = check_fields({**implied, **(defaults or {}), **record},
                           {**ARENA_FIELDS, **(fields or {})}, what, exact=False)
    options = checked["options"] or {}
    try:
        state = new_game(name, checked["players"], checked["seed"], **options)
    except LumicoreError as exc:  # an option the game does not have among them
        raise DataError(f"{what}: {str(exc)[:160]}") from None
    yield state
    for i, action in enumerate(checked["actions"]):
        try:
            check_action(state, action)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"{what}: actions[{i}]: {exc}") from None
        if on_action is not None:
            on_action(state, action)
        state.apply_action(action)
        yield state
    check_record_returns(record, state, what)


def _check_record(record: object) -> None:
    """:class:`LumicoreError` naming ``record`` unless it is a read record (a mapping)."""
    if not isinstance(record, Mapping):
        raise LumicoreError(f"record must be a read game record (a dict), got {shorten(record)}")


def check_record_returns(record: Mapping[str, Any], state: GameState, what: str) -> None:
    """:class:`DataError` if ``record`` has ``returns`` that are not ``state.returns()``: the
    one check of a record's result for every replay (``what`` names the record), worded
    ``Lumen game record: field 'returns' must be [1.0, 0.0] (the replayed returns), got [0.0,
    1.0]``. The replayed returns are compared as the arena writes them, floats in JSON (which
    read back as exactly the floats written), with no tolerance; a return must be a number
    (``true`` is none). A record with ``returns`` whose actions end before the game does is a
    :class:`DataError` too (its zeros are the returns of any unfinished game)."""
    _check_record(record)
    if "returns" not in record:
        return
    if not check_state(state).is_terminal():  # returns are written only once a game is over
        raise DataError(f"{what}: field 'returns' is the result of a whole game, but the "
                        f"record's actions end before the game does")
    replayed = [float(r) for r in state.returns()]  # as written: JSON reads them back exactly
    given = record["returns"]
    if (not isinstance(given, list) or len(given) != len(replayed)
            or any(isinstance(r, bool) or not isinstance(r, int | float) or r != want
                   for r, want in zip(given, replayed, strict=False))):
        raise field_error(what, "returns", f"{json.dumps(replayed)} (the replayed returns)",
                          given)


def check_record_game(record: Mapping[str, Any], game: str, what: str) -> None:
    """:class:`DataError` unless ``record["game"]`` is ``game``: the one wording of a record of
    another game for every replay (``what`` names the record).

    >>> check_record_game({"game": "reef"}, "lumen", "Lumen game record")
    Traceback (most recent call last):
    ...
    lumicore.errors.DataError: not a Lumen game record: field 'game' must be "lumen", got "reef"
    """
    _check_record(record)
    if not isinstance(game, str):
        raise LumicoreError(f"game must be a game's name, got {shorten(game)}")
    if "game" not in record:
        raise DataError(f"not a {what}: field 'game' is missing")
    if record["game"] != game:
        raise field_error(f"not a {what}", "game", json.dumps(game), record["game"])


def replay_arena_record(record: object, game: str | None = None, what: str = "game record",
                        fields: Mapping[str, Spec] | None = None,
                        on_action: Callable[[Any, int], Any] | None = None,
                        defaults: Mapping[str, Any] | None = None) -> GameState:
    """The state where an arena record ends: :func:`iter_arena_record`'s last."""
    *_, last = iter_arena_record(record, game, what, fields, on_action, defaults)
    return last
