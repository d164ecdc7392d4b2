"""The benchmark scripts are not run by the tests (minutes each), but they import the solvers'
internals, which change: every script must still import, and those that take arguments must
still parse ``--help`` (bench_lemuria_workers once called ``_prepare`` without an argument it
had gained; a call's arguments are not checked here, only the names it imports)."""

import importlib
import inspect
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
SCRIPTS = sorted(p.stem for p in BENCHMARKS.glob("bench_*.py"))


@pytest.fixture
def on_path(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # the scripts import each other


def test_there_are_scripts():
    assert "bench_lemuria" in SCRIPTS and "bench_lucia" in SCRIPTS


@pytest.mark.parametrize("name", SCRIPTS)
def test_a_benchmark_imports_and_parses_its_help(name, on_path, capsys):
    module = importlib.import_module(name)
    assert callable(module.main)
    if inspect.signature(module.main).parameters:
        with pytest.raises(SystemExit) as ended:
            module.main(["--help"])
        assert ended.value.code == 0
        assert "usage:" in capsys.readouterr().out
    assert module.__file__ is not None and Path(module.__file__).parent == BENCHMARKS
    sys.modules.pop(name, None)
