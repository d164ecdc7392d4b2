"""Every script in examples/ runs (with small arguments) and every notebook's code cells run in
order in one namespace, as a reader would run them."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"

# small arguments per script, and a line its output must hold
RUNS = {
    "lucia_solve.py": (["S h T h L0"], "optimal: 6 cards"),
    "reef_best.py": (["--hand", "pink 3 crab, blue 5", "--limestone", "2"], "objective final:dark"),
    "lemuria_year.py": (["--turns", "2", "--time-limit", "1"], "the rules simulator replays"),
    "random_play.py": (["--games", "10"], "within 12 random plays"),
    "lumen_game.py": (["--seed", "3"], "the record replayed exactly"),
}


def test_every_script_has_a_run() -> None:
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted(RUNS)


@pytest.mark.parametrize("name", sorted(RUNS))
def test_script_runs(name: str) -> None:
    args, expected = RUNS[name]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, str(EXAMPLES / name), *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert expected in done.stdout, done.stdout[-2000:]


def code_cells(notebook: Path) -> list[str]:
    data = json.loads(notebook.read_text(encoding="utf-8"))
    assert data["nbformat"] == 4
    return ["".join(cell["source"]) for cell in data["cells"] if cell["cell_type"] == "code"]


@pytest.mark.parametrize("notebook", sorted(EXAMPLES.glob("*.ipynb")), ids=lambda p: p.name)
def test_notebook_runs(notebook: Path) -> None:
    cells = code_cells(notebook)
    assert cells, f"{notebook.name} has no code cell"
    namespace: dict[str, object] = {"__name__": "__main__"}
    for i, source in enumerate(cells):
        try:
            exec(compile(source, f"{notebook.name}[cell {i}]", "exec"), namespace)
        except Exception as exc:  # name the failing cell
            raise AssertionError(f"{notebook.name} cell {i} failed: {exc!r}") from exc
    assert namespace["result"].status == "optimal"


@pytest.mark.parametrize("name", sorted(RUNS))
def test_script_help_shows_its_whole_docstring(name: str) -> None:
    """--help showed the docstring's first line only: half a sentence."""
    doc = ast.get_docstring(ast.parse((EXAMPLES / name).read_text(encoding="utf-8")))
    done = subprocess.run([sys.executable, str(EXAMPLES / name), "--help"], cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    first = doc.split("\n\n")[0]
    assert " ".join(first.split()) in " ".join(done.stdout.split())


def test_lucia_solve_without_a_plan_prints_no_cost() -> None:
    done = subprocess.run([sys.executable, str(EXAMPLES / "lucia_solve.py"),
                           "h h h h h h h h h h h h L0 S S S"], cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "unsolvable: " in done.stdout and "None" not in done.stdout
