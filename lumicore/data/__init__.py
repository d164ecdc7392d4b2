"""Default data files (decks, boards, tile sets, card lists) and the loader they share.

Every loader in lumicore takes either the name of a built-in file or a path to the user's own.
``tomllib`` is the TOML reader they use: the standard library's (the ``tomli`` package before
Python 3.11), under one name on every Python lumicore supports.

>>> data_dir().name
'data'
"""

from __future__ import annotations

import numbers
import os
import re
import secrets
import stat
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from lumicore.errors import DataError, LumicoreError, OutputError

__all__ = ["data_dir", "resolve", "file_version", "read_toml", "read_text", "read_file",
           "parse_toml", "tomllib", "shorten", "plural", "naming_source", "writing", "write_file",
           "OutputFile", "lock_file", "process_exists"]


MAX_TOML_CHARS = 200_000
"""The longest TOML data file read (the built-in ones are a few kilobytes)."""
MAX_TOML_DOTS = 100
"""The most ``.`` on one line of a TOML data file: deeply dotted keys cost memory quadratic in
their depth while parsing."""


_V = TypeVar("_V")


def cached_by_identity(cache: dict[tuple, tuple[tuple, _V]], held: tuple, key: tuple,
                       make: Callable[[], _V], most: int = 64) -> _V:
    """``make()``, kept in ``cache`` for the tuple ``held`` (by its identity) and ``key``: a
    game state and its clones share one tuple, where hashing what it holds (cards) would cost
    more than the value. The entry keeps ``held`` alive, so its ``id`` cannot be reused for
    another tuple while it is there; the cache is emptied when it reaches ``most`` entries.
    Not in ``__all__``: the Lucia states' helper, with no checks of its own."""
    full = (id(held), *key)
    entry = cache.get(full)  # kept in hand: another thread may clear the cache meanwhile
    if entry is not None and entry[0] is held:
        return entry[1]
    value = make()
    if len(cache) >= most:
        cache.clear()
    cache[full] = (held, value)
    return value


def shorten(text: object, limit: int = 80) -> str:
    """``repr`` of user input cut to about ``limit`` characters, for error messages.

    >>> shorten("x" * 100)[-5:], shorten(10 ** 5000)
    ("x...'", "'an integer of about 5000 digits'")
    """
    try:
        s = str(text)
    except ValueError:  # an int beyond Python's digit limit for str(), or a value holding one
        if not isinstance(text, int):
            return repr("a value holding an integer too long to show")
        return repr(f"an integer of about {round(abs(text).bit_length() * 0.30103)} digits")
    try:
        return repr(s if len(s) <= limit else s[:limit] + "...")
    except TypeError:  # a caller's limit, checked only when Python fails on it
        if not isinstance(limit, int):
            raise LumicoreError(f"limit must be an integer, got {shorten(limit)}") from None
        raise


def plural(n: int, noun: str) -> str:
    """``n`` and ``noun``, with an ``s`` unless ``n`` is 1.

    >>> plural(1, "card"), plural(0, "player"), plural(3, "deal")
    ('1 card', '0 players', '3 deals')
    """
    return f"{n} {noun}" + "s" * bool(n != 1)


def data_dir() -> Path:
    """The folder that holds the built-in data files."""
    return Path(__file__).resolve().parent


def resolve(name_or_path: str | os.PathLike[str], builtin: dict[str, str]) -> Path:
    """Map a built-in name (a key of ``builtin``) to its file, or take the argument as a path.

    Raises :class:`DataError` naming the argument when neither exists.
    """
    if not isinstance(name_or_path, (str, os.PathLike)):
        raise DataError(f"{shorten(name_or_path)} is not a name or a path: expected text")
    if not isinstance(builtin, dict):
        raise LumicoreError(f"builtin must be a dict of built-in names, got {shorten(builtin)}")
    key = str(name_or_path)
    if isinstance(name_or_path, str) and key in builtin:  # a Path is always a file
        return data_dir() / builtin[key]
    known = ", ".join(repr(k) for k in builtin)
    try:
        path = Path(name_or_path)
        if key and path.is_file():
            return path
        is_dir = key != "" and path.is_dir()
    except (OSError, ValueError) as exc:  # a name too long, a NUL byte
        raise DataError(f"{shorten(key)} is not a usable path: {exc.__class__.__name__}") from exc
    if is_dir:
        what = "a folder, not a file"
    else:
        what = "neither a built-in name ({known}) nor a file" if builtin else "not a file"
    raise DataError(f"{shorten(key)} is {what.format(known=known)}")


def read_file(path: str | os.PathLike[str]) -> str:
    """The text of a user's file: UTF-8 (a leading byte-order mark is dropped). A missing file,
    a folder, an unreadable or non-UTF-8 file raises :class:`DataError` naming it."""
    path = resolve(path, {})
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DataError(f"cannot read {shorten(path)}: {exc.strerror or exc}") from exc
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataError(f"{shorten(path)} is not UTF-8 text (byte {exc.start})") from exc


@contextmanager
def writing(path: str | os.PathLike) -> Iterator[None]:
    """Name ``path`` in any failure to write it: an ``OSError`` raised inside the block (a
    missing or read-only folder, a folder in place of the file, a full disk partway through)
    becomes an :class:`~lumicore.errors.OutputError` ``cannot write '<path>': <reason>``. A
    closed pipe (``BrokenPipeError``: the reader has gone) passes through as it is.

    >>> with writing("/dev/full"):
    ...     raise OSError(28, "No space left on device")
    Traceback (most recent call last):
    ...
    lumicore.errors.OutputError: cannot write '/dev/full': No space left on device
    """
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(f"cannot write {shorten(os.fspath(path))}: "
                          f"{exc.strerror or exc}") from exc


def _output_path(path: object) -> Path:
    if not isinstance(path, (str, os.PathLike)) or os.fspath(path) == "":
        raise LumicoreError(f"a file is written to a file name, got {shorten(path)}")
    return Path(path)


def write_file(path: str | os.PathLike, content: str | bytes, atomic: bool = False) -> None:
    """Write ``content`` (text as UTF-8, or bytes) to the file ``path``; a failure raises
    :class:`~lumicore.errors.OutputError` naming it (:func:`writing`). With ``atomic`` the
    content goes to a temporary file in the same folder that then replaces ``path`` in one
    step, so that a reader (a cache) never sees half a file; a failed write removes it (a
    symbolic link or a special file such as ``/dev/stdout`` is written in place). The file gets
    the mode a plain write gives: an existing file keeps its own, a new one the umask's.
    Temporary files of ``path`` that a killed process left behind are removed
    (:func:`_remove_stale_temporaries`)."""
    path = _output_path(path)
    text = isinstance(content, str)
    mode, encoding = ("w", "utf-8") if text else ("wb", None)
    atomic = atomic and replaced_whole(path)
    with writing(path):
        if not atomic:
            with open(path, mode, encoding=encoding) as handle:
                handle.write(content)
            return
        _remove_stale_temporaries(path)
        fd, temporary = _temporary_file(path)
        try:
            with os.fdopen(fd, mode, encoding=encoding) as handle:
                handle.write(content)
            if path.exists():  # the file replaced keeps its mode, as a write in place would
                os.chmod(temporary, stat.S_IMODE(path.stat().st_mode))
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise


def replaced_whole(path: str | os.PathLike) -> bool:
    """Whether an atomic :func:`write_file` of ``path`` goes through a temporary file in its
    folder (so needs that folder writable): a regular file or a new one. A symbolic link stays
    a link and ``/dev/stdout`` a device: those are written in place."""
    path = Path(path)
    return not path.is_symlink() and (path.is_file() or not path.exists())


STALE_TEMPORARY = 60.0
"""Seconds a temporary file of an atomic write must have been left untouched, its process
gone, before a later write of the same file removes it (a live writer keeps touching its own)."""
ABANDONED_TEMPORARY = 86_400.0
"""Seconds after which any temporary file of the same target is removed (its process id may
have been reused, or it came from another machine sharing the folder)."""


def _temporary_file(path: Path) -> tuple[int, str]:
    """A new file beside ``path`` (``<name>.<pid>.<random>.tmp``: the process id tells a later
    write whether its writer is gone), open for writing: its descriptor and name. Created with
    mode 0o666 less the umask, as ``open()`` creates a file (``tempfile.mkstemp`` makes it
    0o600: a record or an SVG was then readable by its owner alone)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        temporary = path.parent / f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
        try:
            return os.open(temporary, flags, 0o666), str(temporary)
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {path}")


def _remove_stale_temporaries(path: Path) -> None:
    """Remove the temporary files of ``path`` (:func:`_temporary_file`) that a process killed
    during an atomic write left (a kill -9 runs no cleanup; a database cache's is 57 MB): those
    of a process that no longer runs, untouched for :data:`STALE_TEMPORARY` seconds, and any
    untouched for :data:`ABANDONED_TEMPORARY`. A concurrent writer's file is recent, so left
    alone. Failures are ignored: this is housekeeping."""
    pattern = re.compile(re.escape(path.name) + r"\.(\d+)\.[0-9a-f]{8}\.tmp")
    try:
        names = [(entry, pattern.fullmatch(entry.name)) for entry in os.scandir(path.parent)]
    except OSError:
        return
    now = time.time()
    for entry, match in names:
        if match is None:
            continue
        try:
            age = now - entry.stat(follow_symlinks=False).st_mtime
            pid = int(match.group(1))
            if age > ABANDONED_TEMPORARY or (age > STALE_TEMPORARY and not process_exists(pid)):
                os.unlink(entry.path)
        except OSError:
            continue


def process_exists(pid: int) -> bool:
    """Whether process ``pid`` exists on this machine (another user's too); True where that
    cannot be told (not POSIX: ``os.kill`` there would end the process).

    >>> process_exists(os.getpid())
    True
    """
    if isinstance(pid, bool) or not isinstance(pid, numbers.Integral) or not 0 < int(pid) < 2**31:
        raise LumicoreError(f"pid must be a process id (a positive int), got {shorten(pid)}")
    if os.name != "posix":
        return True
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process (EPERM)
        return True
    return True


def lock_file(fd: int, wait: Callable[[], object] | None = None, poll: float = 0.05
              ) -> bool | None:
    """Take the exclusive advisory lock (``fcntl.flock``) of the open file ``fd``; closing it
    releases the lock. True once held. When another process holds it: False at once without
    ``wait``; with ``wait``, ``wait()`` is called and the lock tried again every ``poll``
    seconds (an exception ``wait`` raises, a time limit or Ctrl-C, ends the wait). None where
    no lock can be had: no ``fcntl`` (Windows) or a file system without locks."""
    try:
        import fcntl
    except ImportError:
        return None
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if wait is None:
                return False
            wait()
            time.sleep(poll)
        except OSError:  # a file system without locks
            return None


class OutputFile:
    """A text file (UTF-8) written piece by piece, e.g. one JSON line per game as games end.
    Opening (``mode`` ``"w"`` or ``"a"``), each :meth:`write` (flushed at once: what is written
    is on disk) and :meth:`close` raise :class:`~lumicore.errors.OutputError` naming the file
    when they fail (:func:`writing`). Use it in a ``with`` block or close it.

    With ``lock`` the file is locked for as long as it is open (:func:`lock_file`): a second
    writer with ``lock`` is refused at once, before it empties or writes anything, with an
    :class:`~lumicore.errors.OutputError` ``cannot write '<path>': another run is writing it``
    (no lock where none can be had: Windows; a device or a pipe is not locked)."""

    def __init__(self, path: str | os.PathLike, mode: str = "w", lock: bool = False) -> None:
        if mode not in ("w", "a"):
            raise LumicoreError(f"an output file is opened with mode 'w' or 'a', got "
                                f"{shorten(mode)}")
        self.path = _output_path(path)
        with writing(self.path):
            # opened for appending, so that a file another run holds is not emptied unlocked
            self._handle = open(self.path, "a" if lock else mode, encoding="utf-8")  # noqa: SIM115
        # a device or a pipe (/dev/null, /dev/stdout) is shared by design: not locked
        if not lock or not stat.S_ISREG(os.fstat(self._handle.fileno()).st_mode):
            return
        if lock_file(self._handle.fileno()) is False:
            self._handle.close()
            raise OutputError(f"cannot write {shorten(os.fspath(self.path))}: another run is "
                              "writing it")
        if mode == "w":
            self.truncate()

    def truncate(self, size: int = 0) -> None:
        """Cut the file to its first ``size`` bytes (empty it): what is written next follows.
        A device or a pipe (``/dev/full``, ``/dev/stdout``) has nothing to cut: nothing is done."""
        with writing(self.path):
            if not stat.S_ISREG(os.fstat(self._handle.fileno()).st_mode):
                return
            self._handle.truncate(size)
            self._handle.seek(0, os.SEEK_END)

    def write(self, text: str) -> None:
        """Write ``text`` and flush it to the file."""
        with writing(self.path):
            self._handle.write(text)
            self._handle.flush()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._handle.closed

    def close(self) -> None:
        """Close the file (once; later calls do nothing)."""
        if not self._handle.closed:
            with writing(self.path):
                self._handle.close()

    def __enter__(self) -> OutputFile:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def parse_toml(text: str, source: object = "TOML") -> dict[str, Any]:
    """Parse TOML text; a syntax error, text that is not a ``str``, or input too large or too
    deeply nested for a data file becomes a :class:`DataError` naming ``source``.

    >>> parse_toml("a = " + "[" * 5000, "deep.toml")
    Traceback (most recent call last):
    ...
    lumicore.errors.DataError: 'deep.toml': nested too deeply for a data file
    """
    if not isinstance(text, str):
        raise DataError(f"{shorten(source)}: TOML is read from text, got {type(text).__name__}")
    if len(text) > MAX_TOML_CHARS:
        raise DataError(f"{shorten(source)}: {len(text)} characters, more than a data file may "
                        f"hold ({MAX_TOML_CHARS})")
    for number, line in enumerate(text.splitlines(), 1):
        if line.count(".") > MAX_TOML_DOTS:
            raise DataError(f"{shorten(source)}: line {number} has more than {MAX_TOML_DOTS} "
                            "dots (keys nested too deeply for a data file)")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{shorten(source)}: {exc}") from exc
    except RecursionError:
        raise DataError(f"{shorten(source)}: nested too deeply for a data file") from None
    except ValueError as exc:  # an integer beyond Python's digit limit
        raise DataError(f"{shorten(source)}: {exc}") from None


def file_version(name_or_path: str | Path) -> tuple:
    """What tells one version of a data file from another, for the caches of loaded data: an
    existing file's resolved path, modification time and size (a file edited while the process
    runs is read again, a relative path means the file of the working directory), and whether
    it came as a ``Path`` (always a file) or as text (a built-in name first); for anything else
    (a built-in name) the name.

    >>> file_version("default")
    ('default',)
    """
    try:
        path = Path(name_or_path)
        if str(name_or_path) and path.is_file():
            stat = path.stat()
            given = "path" if isinstance(name_or_path, os.PathLike) else "text"
            return (given, str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    except (OSError, ValueError, TypeError):  # a name too long, a NUL byte: not a file
        pass
    return (str(name_or_path),)


def read_toml(name_or_path: str | Path, builtin: dict[str, str]) -> dict[str, Any]:
    """Parse a TOML data file; a syntax error becomes a :class:`DataError` naming the file."""
    path = resolve(name_or_path, builtin)
    return parse_toml(read_file(path), path)


def read_text(name_or_path: str | Path, builtin: dict[str, str]) -> str:
    """Read a text data file (e.g. a board drawing), as :func:`read_file` does."""
    return read_file(resolve(name_or_path, builtin))


@contextmanager
def naming_source(source: object) -> Iterator[None]:
    """Prefix a :class:`DataError` raised inside with the (shortened) name of its file.

    >>> with naming_source("my_deck.toml"):
    ...     raise DataError("card #2: copies must be an integer")
    Traceback (most recent call last):
    ...
    lumicore.errors.DataError: 'my_deck.toml': card #2: copies must be an integer
    """
    try:
        yield
    except DataError as exc:
        raise DataError(f"{shorten(source)}: {exc}") from exc
