"""Processes in tests on every system: whether one runs, and a child Python that watches its
parent as it would have to on Windows (there a process's parent id stays that of the process
that started it, alive or not, and there is no pidfd)."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

from lumicore.data import process_exists

WINDOWS_PARENT = """\
import os
if hasattr(os, "pidfd_open"):
    del os.pidfd_open
_real_getppid = os.getppid
_first = [_real_getppid()]
os.getppid = lambda: _first[0]
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=lambda: _first.__setitem__(0, _real_getppid()))
"""
"""A ``sitecustomize`` module that takes ``os.pidfd_open`` away and keeps ``os.getppid()`` at
the parent a process (a fresh interpreter or a fork) started with."""


def windows_parent(env: dict[str, str], folder: Path) -> dict[str, str]:
    """``env`` with :data:`WINDOWS_PARENT` in every Python started from it (written to
    ``folder``, put first on ``PYTHONPATH``)."""
    folder.mkdir(exist_ok=True)
    (folder / "sitecustomize.py").write_text(WINDOWS_PARENT)
    path = [str(folder), env.get("PYTHONPATH", "")]
    return {**env, "PYTHONPATH": os.pathsep.join(p for p in path if p)}


def running(pid: int) -> bool:
    """Whether the process ``pid`` runs (an exited one nobody reaped yet, a zombie, does not).
    ``os.kill(pid, 0)`` on Windows is no test: it sends a console Ctrl-C."""
    if sys.platform == "win32":
        import _winapi

        try:
            handle = _winapi.OpenProcess(0x00100000, False, pid)  # SYNCHRONIZE
        except OSError:
            return False
        try:
            return _winapi.WaitForSingleObject(handle, 0) != _winapi.WAIT_OBJECT_0
        finally:
            _winapi.CloseHandle(handle)
    if not process_exists(pid):
        return False
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):  # ended meanwhile (a read then fails: ESRCH)
        return not os.path.isdir("/proc/self")  # or no /proc: trust the signal
    except OSError:
        return True


def kill(pid: int) -> None:
    """End the process ``pid`` outright (SIGKILL; on Windows, which has none, TerminateProcess,
    which ``os.kill`` does for any other signal)."""
    os.kill(pid, getattr(signal, "SIGKILL", signal.SIGTERM))


PRESS_AS_STARTED = """\
import functools, os, signal, sys
if os.environ.get("LUMICORE_TEST_PRESS"):
    if "--multiprocessing-fork" in sys.argv:  # a worker in a fresh interpreter, as it starts
        os.killpg(0, signal.SIGINT)
    # a fork (a pool worker forked by this process, or by a fork server), at once: a builtin
    # hook, so that the press is handled after os.fork() returns, not inside the hook
    os.register_at_fork(after_in_child=functools.partial(os.killpg, 0, signal.SIGINT))
"""
"""A ``sitecustomize`` module that, with ``LUMICORE_TEST_PRESS`` set, sends SIGINT to the
process group (a Ctrl-C) from every worker process the moment it starts: right after the fork,
or as a fresh interpreter starts, before any of multiprocessing's code runs in it."""


def press_as_children_start(env: dict[str, str], folder: Path) -> dict[str, str]:
    """``env`` with :data:`PRESS_AS_STARTED` in every Python started from it (written to
    ``folder``, put first on ``PYTHONPATH``), and ``LUMICORE_TEST_PRESS`` set. Start the process
    in a session of its own: the presses go to its whole process group."""
    folder.mkdir(exist_ok=True)
    (folder / "sitecustomize.py").write_text(PRESS_AS_STARTED)
    path = [str(folder), env.get("PYTHONPATH", "")]
    return {**env, "PYTHONPATH": os.pathsep.join(p for p in path if p),
            "LUMICORE_TEST_PRESS": "1"}


def ctrl_c_state(pid: int | None = None) -> tuple[bool, bool]:
    """Whether SIGINT is ignored, and whether it is blocked, in the main thread of process
    ``pid`` (None: this one), read from ``/proc``."""
    pid = os.getpid() if pid is None else pid
    bit = 1 << (signal.SIGINT - 1)
    with open(f"/proc/{pid}/task/{pid}/status") as status:
        fields = dict(line.split(":", 1) for line in status)
    return bool(int(fields["SigIgn"], 16) & bit), bool(int(fields["SigBlk"], 16) & bit)
