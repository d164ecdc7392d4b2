"""A year's plan for one Lemuria player: what the CP-SAT scheduler returns, the simulator replays.

This module is the contract between ``solvers.lemuria.build_schedule`` (which writes schedules)
and ``lumicore.lemuria.simulate`` (which checks them). Actions of a turn are performed in the order
listed, after the turn-start bonuses, the opponents' actions and the turn's income.

>>> plan = TurnPlan(turn=1, actions=(Build(card="B03", district="rural", reduce=("stone",)),
...                                  Play(character="C11", house_in="B03")))
>>> plan.build_action().card
'B03'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lumicore.checks import is_integer

__all__ = [
    "RESOURCES",
    "RESOURCE_LIMIT",
    "COLORS",
    "DISTRICTS",
    "Build",
    "Remodel",
    "Play",
    "Buy",
    "Exchange",
    "Action",
    "TurnPlan",
    "Schedule",
]

RESOURCES = ("gold", "food", "stone", "wood")
"""The four resources (of costs, stocks and income)."""
RESOURCE_LIMIT = 525
"""The most of one resource the game can hold: 105 resource chits of at most 5 each. Every amount
in card, altar and instance files (costs, food, start, income, the altar's supply, a skill's
gain) must lie in 0..RESOURCE_LIMIT."""
COLORS = ("red", "blue", "green", "yellow")
"""The card colours of buildings and characters."""
DISTRICTS = ("rural", "commerce", "administrative", "church")
"""The four districts of the city a building chit may go to."""


@dataclass(frozen=True)
class Build:
    """Build the Trend card ``card``; place the new chit in ``district`` (None: no free slot or no
    chit left). ``reduce`` lists the resources lowered by one each (Lower Trend, Administrative)."""

    card: str
    district: str | None = None
    reduce: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _reduce_as_tuple(self)

    def __str__(self) -> str:
        """``build B03 (rural, -stone)``"""
        chit = str(self.district or "no chit")
        return f"build {self.card} ({', '.join([chit, *_lowered(self)])})"


@dataclass(frozen=True)
class Remodel:
    """From turn 8, instead of a build: discard own facility ``discard`` (its resident goes to the
    bottom of the character deck) and build Trend card ``card``; no new chit."""

    discard: str
    card: str
    reduce: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _reduce_as_tuple(self)

    def __str__(self) -> str:
        """``remodel B07 -> B01 (-stone, -stone)``"""
        lowered = _lowered(self)
        return f"remodel {self.discard} -> {self.card}" + (f" ({', '.join(lowered)})"
                                                            if lowered else "")


@dataclass(frozen=True)
class Play:
    """Pay the character's food and play it; house it in own facility ``house_in`` (a facility
    without resident) or, with None, send it to the bottom of the character deck."""

    character: str
    house_in: str | None = None

    def __str__(self) -> str:
        """``play C11 in B03``, or ``play C11 (not housed)``"""
        return f"play {self.character}" + (f" in {self.house_in}" if self.house_in
                                           else " (not housed)")


@dataclass(frozen=True)
class Buy:
    """Pay gold equal to the hand size (free with an empty hand); draw the top character."""

    def __str__(self) -> str:
        return "buy"


@dataclass(frozen=True)
class Exchange:
    """Pay 2 gold, draw the top character, then return ``give_back`` (a hand card, possibly the
    one just drawn) to the bottom of the character deck."""

    give_back: str

    def __str__(self) -> str:
        """``exchange (give back C24)``"""
        return f"exchange (give back {self.give_back})"


Action = Build | Remodel | Play | Buy | Exchange
"""Any action of a turn plan: a build, a remodel, a character played, a buy or an exchange."""


def _reduce_as_tuple(action: Build | Remodel) -> None:
    """Store a list ``reduce`` as a tuple, so that the action hashes and equals its tuple form
    (anything else stays as given, for :func:`lumicore.lemuria.simulate` to refuse)."""
    if isinstance(action.reduce, list):
        object.__setattr__(action, "reduce", tuple(action.reduce))


def _lowered(action: Build | Remodel) -> list[str]:
    reduce = action.reduce  # any value a user passed: printing it must not fail
    return [f"-{r}" for r in reduce] if isinstance(reduce, (tuple, list)) else [f"-{reduce!r}"]


@dataclass(frozen=True)
class TurnPlan:
    """What the player does in one turn (1-based), in order."""

    turn: int
    actions: tuple[Action, ...] = ()

    def __post_init__(self) -> None:
        if is_integer(self.turn):  # a numpy integer is stored as an int (no check: simulate's)
            object.__setattr__(self, "turn", int(self.turn))

    def __str__(self) -> str:
        """``turn 1: build B03 (rural, -stone); play C11 in B03`` (``pass`` for no action)."""
        if not isinstance(self.actions, (tuple, list)):  # a user's mistake prints as it is
            return f"turn {self.turn}: {self.actions!r}"
        return f"turn {self.turn}: " + ("; ".join(map(str, self.actions)) or "pass")

    def build_action(self) -> Build | Remodel | None:
        """The turn's build or remodel, if any."""
        for action in self.actions:
            if isinstance(action, (Build, Remodel)):
                return action
        return None


@dataclass
class Schedule:
    """A whole year: one :class:`TurnPlan` per turn, the VP it scores and how it was found.

    ``status`` is ``"optimal"`` (proven: ``bound`` equals ``vp``), ``"feasible"`` (then ``bound``
    is a proven upper bound on the VP, or None where the method gives none; ``reason``
    ``"time"`` when a time limit cut the search short) or
    ``"interrupted"`` (Ctrl-C: the best plan found so far, with ``reason`` ``"interrupted"``).
    ``breakdown`` maps a source (``"buildings"``, ``"trend"``, ``"residents"``, ``"church"``,
    ``"festival"``) to its VP. ``gap`` is ``(bound - vp) / bound``.
    """

    turns: list[TurnPlan]
    vp: int = 0
    breakdown: dict[str, int] = field(default_factory=dict)
    status: str = "feasible"
    bound: float | None = None
    elapsed: float = 0.0
    reason: str | None = None

    def __str__(self) -> str:
        """The VP, :meth:`status_text`, the time and a line per turn (:class:`TurnPlan`).

        >>> print(Schedule([TurnPlan(1, (Build("B03", "rural"),)), TurnPlan(2)], vp=6,
        ...                breakdown={"buildings": 4, "trend": 2}, bound=8.0, elapsed=0.5))
        6 VP (buildings 4, trend 2): feasible; upper bound 8 VP, gap 25.0%; 0.5 s
        turn 1: build B03 (rural)
        turn 2: pass
        """
        sources = ", ".join(f"{k} {v}" for k, v in self.breakdown.items())
        head = f"{self.vp} VP" + (f" ({sources})" if sources else "")
        return "\n".join([f"{head}: {self.status_text()}; {self.elapsed:.1f} s",
                          *map(str, self.turns)])

    def status_text(self) -> str:
        """The status with the bound and gap where they say more, as ``lumicore lemuria plan``
        prints it: ``optimal``, ``feasible; upper bound 236 VP, gap 24.6%``, ``feasible; no
        proven upper bound``, ``interrupted (the best plan found before Ctrl-C); ...``."""
        text = self.status
        if self.status == "interrupted":
            text = "interrupted (the best plan found before Ctrl-C)"
        if self.bound is not None and self.status != "optimal":
            text += f"; upper bound {self.bound:g} VP, gap {self.gap:.1%}"
        elif self.bound is None:  # e.g. a 12-turn year under way: nothing bounds the best year
            text += "; no proven upper bound"
        return text

    @property
    def gap(self) -> float | None:
        """The relative gap to the bound, ``(bound - vp) / bound``: 0.0 when proven optimal;
        None without a proven bound (then nothing says how far the plan is from the best).

        >>> Schedule([], vp=90, bound=100.0).gap
        0.1
        >>> Schedule([], vp=90).gap is None
        True
        """
        if self.bound is None:
            return None
        if self.bound <= 0:
            return 0.0
        return max(0.0, (self.bound - self.vp) / self.bound)

    def mark_optimal(self) -> None:
        """Record that no year scores more than this plan: ``status`` "optimal", ``bound`` its VP.

        >>> plan = Schedule([], vp=90, bound=95.0)
        >>> plan.mark_optimal()
        >>> plan.status, plan.bound, plan.gap
        ('optimal', 90.0, 0.0)
        """
        self.status, self.bound = "optimal", float(self.vp)
