"""lumicore: rules, notations and fast kernels for Lucia, Lumicora, Lemuria and Lumen.

The games live in subpackages (``lumicore.lucia``, ``lumicore.reef``, ``lumicore.lemuria``,
``lumicore.lumen``), each with its notation, data files and rules; ``lumicore.game`` is the one
state protocol every whole game follows (``new_game("reef", players=2)``, ``legal_actions``,
``apply_action``, ``returns``, ``serialize``). Searches, optimisers, bots and tournaments live
in the sibling package ``solvers`` (``solvers.lucia.solve``, ``solvers.reef.best_placement``,
``solvers.lemuria.build_schedule``, ``solvers.lumen.best_choice``, ``solvers.arena``).

Where to start: the ``lumicore`` command (``lumicore --help``, ``lumicore lucia solve``), the
project's README.md, and one page per game in its docs (docs/lucia.md, docs/reef.md,
docs/lemuria.md, docs/lumen.md, docs/arena.md for bots and tournaments).

>>> import lumicore
>>> lumicore.__version__
'0.1.0'
"""

from __future__ import annotations

from lumicore.errors import (
    DataError,
    IllegalMoveError,
    LumicoreError,
    NotationError,
    SearchLimitError,
)

__version__ = "0.1.0"
"""The version of lumicore, as ``lumicore --version`` prints it."""

__all__ = [
    "__version__",
    "LumicoreError",
    "NotationError",
    "IllegalMoveError",
    "DataError",
    "SearchLimitError",
]
