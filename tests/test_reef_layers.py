"""The layers of lumicore.reef: value types import nothing of the package, only the kernel door
imports the compiled extension, and no module imports another inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

import lumicore.reef

PACKAGE = Path(lumicore.reef.__file__).parent


def imports(path: Path) -> list[tuple[str, bool]]:
    """(module imported, whether at module level) for every import in ``path``."""
    tree = ast.parse(path.read_text())
    top = {id(node) for node in tree.body}
    for node in tree.body:  # `if TYPE_CHECKING:` imports are for type hints only
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            top |= {id(inner) for inner in node.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            found += [(name, id(node) in top) for name in names]
        elif isinstance(node, ast.Import):
            found += [(a.name, id(node) in top) for a in node.names]
    return found


def test_values_import_nothing_of_the_package():
    assert not [m for m, _ in imports(PACKAGE / "values.py") if m.startswith("lumicore.reef")]


def test_only_the_kernel_door_imports_the_extension():
    users = {p.name for p in PACKAGE.glob("*.py")
             if any(m.startswith("lumicore._ext") for m, _ in imports(p))}
    assert users == {"kernel.py"}
    assert not (PACKAGE / "fast.py").exists()


def test_no_import_inside_functions_between_reef_modules():
    late = {(p.name, m) for p in PACKAGE.glob("*.py") for m, top in imports(p)
            if m.startswith("lumicore.reef") and not top}
    assert late == set()
