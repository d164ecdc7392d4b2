"""The code the README and docs/ show works as shown: every Python block runs (with its limits
shrunk, in a fresh process and an empty directory), and every ``lumicore`` command line of a
shell block is accepted by the command line's parser (each flag exists and takes its value)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from solvers.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)
SHRINK = [  # (pattern, replacement): minutes of searching become seconds
    (r"time_limit=\d+(\.\d+)?", "time_limit=1"),
    (r"\bgames=\d+", "games=4"),
    (r"\bdeals=\d+", "deals=4"),
    (r"\bsamples=\d+", "samples=5"),
    (r"\biterations=\d+", "iterations=2"),
    # a reef MCTS game takes seconds a decision (make_bot takes its options as arguments); one
    # iteration still expands the root and plays out from it, 40% less than two
    (r'(?<!make_bot\()"mcts"', '"mcts:iterations=1:cutoff=1"'),
    # the reef's flatmc plays 8 play-outs for each of 4 candidates a decision: 45 s of a
    # 4-game tournament
    (r'(?<!make_bot\()"flatmc"', '"flatmc:playouts=1:candidates=2"'),
]


def blocks(language: tuple[str, ...]) -> list[tuple[str, str]]:
    """``(file:line, code)`` of every fenced block in one of ``language``."""
    found = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for match in BLOCK.finditer(text):
            if match.group(1) in language:
                line = text.count("\n", 0, match.start()) + 1
                found.append((f"{path.relative_to(ROOT)}:{line}", match.group(2)))
    return found


def shrunk(code: str) -> str:
    for pattern, replacement in SHRINK:
        code = re.sub(pattern, replacement, code)
    return code


PYTHON = blocks(("python",))


def test_the_docs_have_python_blocks() -> None:
    assert len(PYTHON) >= 10


@pytest.mark.parametrize("code", [code for _where, code in PYTHON],
                         ids=[where for where, _code in PYTHON])
def test_python_block_runs(code: str, tmp_path: Path) -> None:
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    env = dict(os.environ, PYTHONPATH=path)
    done = subprocess.run([sys.executable, "-c", shrunk(code)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]


def command_lines() -> list[tuple[str, list[str]]]:
    """``(file:line, argv)`` of every ``lumicore ...`` line of the shell blocks: continuation
    lines joined, comments dropped, ``$(...)`` (a train a command prints) replaced by a train
    and the brackets of ``[optional]`` parts taken away."""
    found = []
    for where, code in blocks(("bash", "sh", "console")):
        for line in code.replace("\\\n", " ").splitlines():
            line = re.sub(r"\$\([^)]*\)", "S h T h L0", line.strip())
            if not line.startswith("lumicore "):
                continue
            argv = shlex.split(line.replace("[", " ").replace("]", " "), comments=True)
            found.append((f"{where}: {line[:60]}", argv))
    return found


COMMANDS = command_lines()


def test_the_docs_have_commands() -> None:
    assert len(COMMANDS) >= 40


@pytest.mark.parametrize("argv", [argv for _where, argv in COMMANDS],
                         ids=[where for where, _argv in COMMANDS])
def test_documented_command_parses(argv: list[str], capsys: pytest.CaptureFixture) -> None:
    try:
        build_parser().parse_args(argv[1:])
    except SystemExit:
        pytest.fail(f"the parser refuses {shlex.join(argv)}: {capsys.readouterr().err}")
