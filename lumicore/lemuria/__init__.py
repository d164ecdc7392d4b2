"""Lemuria: card data, planning instances, the year simulator (see docs/lemuria.md).

The CP-SAT scheduler lives in ``solvers.lemuria`` (``build_schedule``), the exhaustive oracle for
tiny instances in ``solvers.lemuria.exhaustive``.

>>> from lumicore.lemuria import default_instance
>>> default_instance(seed=3).turns
12
"""

from lumicore.lemuria.cards import Building, Character, load_buildings, load_characters
from lumicore.lemuria.game import Game
from lumicore.lemuria.instance import (
    CHITS,
    FESTIVALS,
    Instance,
    Opponent,
    default_income,
    default_instance,
    dump_instance,
    load_instance,
    parse_instance,
)
from lumicore.lemuria.rules import SOURCES, State
from lumicore.lemuria.schedule import (
    COLORS,
    DISTRICTS,
    RESOURCES,
    Action,
    Build,
    Buy,
    Exchange,
    Play,
    Remodel,
    Schedule,
    TurnPlan,
)
from lumicore.lemuria.simulate import SimResult, TurnTrace, simulate

__all__ = [
    "Building",
    "Character",
    "load_buildings",
    "load_characters",
    "Instance",
    "Opponent",
    "CHITS",
    "FESTIVALS",
    "default_income",
    "default_instance",
    "dump_instance",
    "load_instance",
    "parse_instance",
    "COLORS",
    "DISTRICTS",
    "RESOURCES",
    "Action",
    "Build",
    "Buy",
    "Exchange",
    "Play",
    "Remodel",
    "Schedule",
    "TurnPlan",
    "SOURCES",
    "State",
    "SimResult",
    "TurnTrace",
    "simulate",
    "Game",
]
