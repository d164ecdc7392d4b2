"""lumicore: rules, notations and fast kernels for Lucia, Lumicora, Lemuria and Lumen.

The games live in subpackages (``lumicore.lucia``, ``lumicore.reef``, ``lumicore.lemuria``);
searches and optimisers live in the sibling package ``solvers`` (``solvers.lucia.solve``,
``solvers.reef.best_placement``, ``solvers.lemuria.build_schedule``).

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
