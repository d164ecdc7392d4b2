"""The errors lumicore raises. All are ``ValueError`` subclasses, so ``except ValueError`` works.

>>> from lumicore.errors import NotationError, LumicoreError
>>> issubclass(NotationError, LumicoreError) and issubclass(LumicoreError, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "LumicoreError",
    "NotationError",
    "IllegalMoveError",
    "DataError",
    "SearchLimitError",
    "OutputError",
    "WorkerDiedError",
]


class LumicoreError(ValueError):
    """Base class of every error lumicore raises on bad input."""


class NotationError(LumicoreError):
    """A text notation (train, board drawing, hand) has a bad token or shape."""


class IllegalMoveError(LumicoreError):
    """A move, play or placement breaks a rule of the game."""


class DataError(LumicoreError):
    """A data file (deck, tile set, card list, instance) is malformed or inconsistent."""


class SearchLimitError(LumicoreError):
    """A search limit argument is out of range (e.g. ``max_nodes <= 0``)."""


class OutputError(LumicoreError):
    """A file could not be written (a missing or read-only folder, a full disk partway
    through); the message names the file (see :func:`lumicore.data.writing`)."""


class WorkerDiedError(LumicoreError):
    """A worker process of a batch run (:func:`solvers.batch.run_batch`) died without a word:
    killed by a signal, most often by the system's out-of-memory killer. Not bad input, but a
    :class:`LumicoreError` as every error lumicore raises, so that one ``except`` takes them all;
    the ``lumicore`` command exits with its own status for it (``EXIT_WORKER_DIED``)."""
