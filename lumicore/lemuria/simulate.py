"""Play a year's :class:`~lumicore.lemuria.schedule.Schedule` through the rules and score it.

This is the independent check of every plan ``solvers.lemuria.build_schedule`` returns: it knows
nothing of the CP-SAT model, only the rules in :mod:`lumicore.lemuria.rules`.

>>> from lumicore.lemuria import Instance, Building, Character, TurnPlan, Build, Play
>>> inst = Instance(turns=1, buildings={"A": Building("A", "red", 2, {"stone": 1})},
...                 characters={"K": Character("K", "red", 1, 1, 3)},
...                 trend=("A", None, None, None, None), start={"stone": 1, "food": 1},
...                 hand=("K",))
>>> result = simulate(inst, [TurnPlan(1, (Build("A", "church"), Play("K", house_in="A")))])
>>> result.total, result.breakdown["trend"], result.breakdown["residents"]
(11, 6, 3)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from lumicore.checks import is_integer
from lumicore.data import shorten
from lumicore.errors import IllegalMoveError
from lumicore.lemuria.instance import Instance
from lumicore.lemuria.rules import (
    State,
    apply,
    begin_turn,
    end_turn,
    initial_state,
    start_bonuses,
)
from lumicore.lemuria.schedule import (
    Action,
    Build,
    Exchange,
    Play,
    Remodel,
    Schedule,
    TurnPlan,
)

__all__ = ["TurnTrace", "SimResult", "simulate", "plans_by_turn"]


@dataclass(frozen=True)
class TurnTrace:
    """One turn as played: the district bonuses taken, the Trend row the player saw (after the
    opponents acted), resources after income and at the end of the turn, the actions, and the
    running VP total after the turn's festival scoring (``breakdown``: that total by source)."""

    turn: int
    bonuses: tuple[str, ...]
    row: tuple[str | None, ...]
    resources_start: dict[str, int]
    actions: tuple[Action, ...]
    resources_end: dict[str, int]
    facilities: dict[str, str | None]
    vp: int
    breakdown: dict[str, int] = field(default_factory=dict, compare=False)

    def __str__(self) -> str:
        row = " ".join(c or "-" for c in self.row)
        acts = "; ".join(map(str, self.actions)) or "pass"
        res = " ".join(f"{k[0]}{v}" for k, v in self.resources_start.items())
        bonus = f" bonus {','.join(self.bonuses)}" if self.bonuses else ""
        return f"turn {self.turn:2d}{bonus} | row {row} | {res} | {acts} | VP {self.vp}"


@dataclass(frozen=True)
class SimResult:
    """``total`` VP, ``breakdown`` by source (always the five keys of ``rules.SOURCES``), the
    per-turn ``trace`` and the ``final`` state."""

    total: int
    breakdown: dict[str, int]
    trace: tuple[TurnTrace, ...] = field(default=())
    final: State | None = None

    def __str__(self) -> str:
        lines = [str(t) for t in self.trace]
        lines.append("VP " + ", ".join(f"{k} {v}" for k, v in self.breakdown.items())
                     + f"; total {self.total}")
        return "\n".join(lines)


_FIELDS = {Build: ("card", "district"), Remodel: ("discard", "card"),
           Play: ("character", "house_in"), Exchange: ("give_back",)}
"""The card and district fields of each action: strings (None passes to the rules, which
refuse it where a card is needed)."""


def _check_fields(action: object, where: str) -> None:
    """An :class:`IllegalMoveError` for an action whose fields have the wrong types (a list
    for a card id, a bare string for ``reduce``), before the rules look them up."""
    for name in _FIELDS.get(type(action), ()):
        value = getattr(action, name)
        if not (value is None or isinstance(value, str)):
            raise IllegalMoveError(f"{where}: {type(action).__name__}.{name} must be a "
                                   f"string, got {shorten(value)}")
    if isinstance(action, (Build, Remodel)) and (
            not isinstance(action.reduce, (tuple, list))
            or not all(isinstance(r, str) for r in action.reduce)):
        raise IllegalMoveError(f"{where}: {type(action).__name__}.reduce must be a sequence of "
                               f"resource names, got {shorten(action.reduce)}")


def plans_by_turn(instance: Instance, schedule: Schedule | Iterable[TurnPlan]
                  ) -> dict[int, TurnPlan]:
    """The schedule's turn plans keyed by turn; a turn outside 1..turns or given twice is an
    :class:`IllegalMoveError`. Turns without a plan do nothing."""
    plans = schedule.turns if isinstance(schedule, Schedule) else schedule
    if isinstance(plans, (str, bytes)) or not isinstance(plans, Iterable):
        raise IllegalMoveError(f"not a schedule (a Schedule or turn plans): {shorten(plans)}")
    out: dict[int, TurnPlan] = {}
    for plan in plans:
        if not isinstance(plan, TurnPlan):
            raise IllegalMoveError(f"schedule: not a TurnPlan: {shorten(plan)}")
        if not is_integer(plan.turn):
            raise IllegalMoveError(f"turn {shorten(plan.turn)}: not a turn number")
        if not isinstance(plan.actions, (tuple, list)):
            raise IllegalMoveError(f"turn {plan.turn}: actions must be a sequence of actions, "
                                   f"got {shorten(plan.actions)}")
        for i, action in enumerate(plan.actions, 1):
            _check_fields(action, f"turn {plan.turn}, action {i}")
        if not 1 <= plan.turn <= instance.turns:
            raise IllegalMoveError(f"turn {plan.turn}: outside 1..{instance.turns}")
        if plan.turn in out:
            raise IllegalMoveError(f"turn {plan.turn}: planned twice")
        out[plan.turn] = plan
    return out


def simulate(instance: Instance, schedule: Schedule | Iterable[TurnPlan]) -> SimResult:
    """Play ``schedule`` (a :class:`Schedule` or turn plans) through the year of ``instance``.

    Raises :class:`IllegalMoveError` at the first step that breaks a rule, naming the turn, the
    action's position in that turn (1-based) and the action.
    """
    plans = plans_by_turn(instance, schedule)
    state = initial_state(instance)
    trace = []
    for turn in range(1, instance.turns + 1):
        bonuses = start_bonuses(instance, state)
        state = begin_turn(instance, state)
        row, start = state.row, state.resource_dict()
        actions = plans[turn].actions if turn in plans else ()
        for i, action in enumerate(actions, 1):
            try:
                state = apply(instance, state, action)
            except IllegalMoveError as exc:
                raise IllegalMoveError(f"turn {turn}, action {i} ({action}): {exc}"
                                       ) from None
        end = state.resource_dict()
        state = end_turn(instance, state)
        trace.append(TurnTrace(turn, bonuses, row, start, tuple(actions), end,
                               state.residents(), state.total, state.breakdown()))
    return SimResult(state.total, state.breakdown(), tuple(trace), state)
