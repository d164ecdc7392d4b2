"""The type stubs of the compiled kernels (``lumicore/_ext/*.pyi``): every name a kernel door
uses is typed there, every stubbed function has the compiled one's parameters, and the stubs
are shipped with the package (its ``py.typed`` promises users' type checkers the hints; CI
checks the rest with ``python -m mypy``)."""

from __future__ import annotations

import ast
import importlib
import inspect
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("lucia", "lemuria", "lumen", "reef")


def stub_names(game: str) -> dict[str, ast.AST]:
    """The top-level names of the stub of ``lumicore._ext.<game>``, with their definitions."""
    tree = ast.parse((ROOT / "lumicore" / "_ext" / f"{game}.pyi").read_text(encoding="utf-8"))
    out: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out[node.name] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out[node.target.id] = node
    return out


def door_uses(game: str) -> set[str]:
    """The names the kernel door ``lumicore/<game>/kernel.py`` reads from ``lumicore._ext``."""
    tree = ast.parse((ROOT / "lumicore" / game / "kernel.py").read_text(encoding="utf-8"))
    aliases = {a.asname or a.name for node in ast.walk(tree)
               if isinstance(node, ast.ImportFrom) and node.module == "lumicore._ext"
               for a in node.names}
    return {node.attr for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and node.value.id in aliases}


def params(node: ast.FunctionDef) -> list[tuple[str, bool]]:
    """A stubbed function's parameters: (name, has a default), ``self`` left out."""
    args = node.args.args
    defaults = [False] * (len(args) - len(node.args.defaults)) + [True] * len(node.args.defaults)
    return [(a.arg, d) for a, d in zip(args, defaults, strict=True) if a.arg not in ("self", "cls")]


def runtime_params(fn: object) -> list[tuple[str, bool]]:
    return [(p.name, p.default is not inspect.Parameter.empty)
            for p in inspect.signature(fn).parameters.values() if p.name != "self"]


@pytest.mark.parametrize("game", GAMES)
def test_stub_types_every_name_the_kernel_door_uses(game: str) -> None:
    missing = door_uses(game) - set(stub_names(game))
    assert not missing, f"lumicore/_ext/{game}.pyi lacks {sorted(missing)}"


@pytest.mark.parametrize("game", GAMES)
def test_stub_matches_the_compiled_module(game: str) -> None:
    module = importlib.import_module(f"lumicore._ext.{game}")
    for name, node in stub_names(game).items():
        assert hasattr(module, name), f"{game}.pyi names {name}, which the kernel lacks"
        if isinstance(node, ast.FunctionDef):
            assert params(node) == runtime_params(getattr(module, name)), f"{game}.{name}"
        if isinstance(node, ast.ClassDef):
            cls = getattr(module, name)
            for item in node.body:
                if not isinstance(item, ast.FunctionDef) or item.name == "__new__":
                    continue
                assert hasattr(cls, item.name), f"{game}.{name}.{item.name}"
                # a cdef class's special methods (its constructor too) hide their signatures
                decorators = {d.id for d in item.decorator_list if isinstance(d, ast.Name)}
                if not item.name.startswith("__") and "property" not in decorators:
                    method = getattr(cls, item.name)
                    assert params(item) == runtime_params(method), f"{name}.{item.name}"


def test_stubs_and_marker_are_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    data = config["tool"]["setuptools"]["package-data"]
    assert "_ext/*.pyi" in data["lumicore"] and "py.typed" in data["lumicore"]
    assert "py.typed" in data["solvers"]
    assert "mypy" in config["tool"], "the settings python -m mypy runs with"
