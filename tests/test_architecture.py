"""The two import rules of docs/architecture.md, checked on the source (no import is run):

1. ``lumicore`` never imports ``solvers`` (``lumicore/__main__.py``, which starts the command
   line, is the one exception and reaches it through importlib);
2. only a game's kernel door, ``lumicore/<game>/kernel.py``, imports ``lumicore._ext``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAIN = Path("lumicore/__main__.py")


def module_name(path: Path) -> str:
    """``lumicore/reef/io.py`` -> ``lumicore.reef.io`` (a package's ``__init__`` is the package)."""
    parts = path.with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(source: str, module: str, is_package: bool = False) -> set[str]:
    """Every module name ``source`` (the text of ``module``) imports: ``import x``, ``from x import
    y`` (as ``x`` and ``x.y``), relative imports resolved, and ``importlib.import_module`` /
    ``__import__`` calls with a literal name.

    >>> sorted(imports_of("from .. import _ext\\nimport solvers.cli", "lumicore.reef.kernel"))
    ['lumicore', 'lumicore._ext', 'solvers.cli']
    """
    package = module.split(".") if is_package else module.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package[:len(package) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
        elif (isinstance(node, ast.Call) and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and getattr(node.func, "attr", getattr(node.func, "id", None))
              in ("import_module", "__import__")):
            found.add(node.args[0].value)
    return found


def sources(top: str) -> list[Path]:
    return sorted(p.relative_to(ROOT) for p in (ROOT / top).rglob("*.py"))


def imports(path: Path) -> set[str]:
    return imports_of((ROOT / path).read_text(encoding="utf-8"), module_name(path),
                      path.name == "__init__.py")


def reaches(names: set[str], target: str) -> bool:
    return any(n == target or n.startswith(target + ".") for n in names)


def test_lumicore_never_imports_solvers() -> None:
    offenders = [str(p) for p in sources("lumicore") if p != MAIN and reaches(imports(p),
                                                                              "solvers")]
    assert offenders == [], f"lumicore modules importing solvers: {offenders}"


def test_main_is_the_one_exception_and_uses_importlib() -> None:
    assert reaches(imports(MAIN), "solvers")
    assert "importlib" in imports(MAIN)


def is_kernel_door(path: Path) -> bool:
    return path.name == "kernel.py" and len(path.parts) == 3 and path.parts[0] == "lumicore"


@pytest.mark.parametrize("top", ["lumicore", "solvers", "examples", "benchmarks"])
def test_only_kernel_doors_import_ext(top: str) -> None:
    offenders = [str(p) for p in sources(top)
                 if not is_kernel_door(p) and p.parts[:2] != ("lumicore", "_ext")
                 and reaches(imports(p), "lumicore._ext")]
    assert offenders == [], f"modules importing lumicore._ext outside a kernel door: {offenders}"


def test_the_scan_sees_every_form_of_import() -> None:
    """The rules can fail: each form of import of a forbidden module is caught."""
    forms = {
        "import solvers": "lumicore.x",
        "import solvers.lucia as s": "lumicore.x",
        "from solvers.limits import OPTIMAL": "lumicore.x",
        "import importlib\nimportlib.import_module('solvers.cli')": "lumicore.x",
        "__import__('solvers')": "lumicore.x",
        "def f():\n    from solvers import batch": "lumicore.lucia.game",
    }
    for source, module in forms.items():
        assert reaches(imports_of(source, module), "solvers"), source
    ext_forms = ["from lumicore._ext import reef", "import lumicore._ext.lucia",
                 "from .._ext import lucia", "from lumicore import _ext"]
    for source in ext_forms:
        assert reaches(imports_of(source, "lumicore.lucia.train"), "lumicore._ext"), source
    assert not reaches(imports_of("from lumicore.lucia import kernel", "solvers.x"),
                       "lumicore._ext")
    assert is_kernel_door(Path("lumicore/lumen/kernel.py"))
    assert not is_kernel_door(Path("lumicore/lucia/train.py"))
    assert not is_kernel_door(Path("solvers/lucia/kernel.py"))
