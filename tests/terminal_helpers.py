"""The ``lumicore`` command run on a pseudo-terminal, where its progress lines show (they stay
quiet when standard error is not a terminal). Windows has no pseudo-terminals: the tests that
use one are skipped there."""

from __future__ import annotations

import os
import struct
import sys
import time
from pathlib import Path

import pytest

try:
    import fcntl
    import pty
    import termios
except ImportError:  # Windows
    pty = None

ROOT = Path(__file__).resolve().parents[1]


def run_on_terminal(*argv: str, env: dict[str, str] | None = None) -> str:
    """Run ``lumicore ARGV`` on a pseudo-terminal of 120 columns (``env``: variables to set);
    everything it wrote (standard output and error both go to the terminal)."""
    if pty is None:
        pytest.skip("no pseudo-terminal on this system")
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        time.sleep(0.3)   # the parent sizes the terminal first
        os.chdir(ROOT)
        os.environ["PYTHONPATH"] = str(ROOT)
        os.environ.update(env or {})
        os.execvp(sys.executable, [sys.executable, "-m", "solvers.cli", *argv])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    out = b""
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.waitpid(pid, 0)
    return out.decode(errors="replace")
