"""Lucia: the train, its notation and packed form, cards and decks, setup, rendering.

Searches live in :mod:`solvers.lucia` (``solve(train, cards, algorithm="astar")``).

>>> from lumicore.lucia import Train, load_deck
>>> train = Train.parse("L5 H T H S S")
>>> train.is_goal(), len(load_deck("default").kinds)
(True, 15)
"""

from __future__ import annotations

from lumicore.lucia.cards import Action, Card, Deck, load_deck
from lumicore.lucia.deal import Deal, deal  # binds the function over the submodule's name
from lumicore.lucia.start import Setup, load_setup, random_goal, random_train, scramble
from lumicore.lucia.train import DEFAULT_RULES, STANDARD_COUNTS, Choice, Play, Rules, Train

__all__ = ["Action", "Card", "Deck", "load_deck", "Train", "Play", "Choice", "Rules",
           "DEFAULT_RULES", "STANDARD_COUNTS", "Setup", "load_setup", "random_train",
           "random_goal", "scramble", "Deal", "deal"]
