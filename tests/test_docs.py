"""The README and docs/ are self-contained: no paths outside the repository, no references to
issue numbers, every relative link points to a file in the repository, and every module, object
or file they name in backticks exists."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md"), *(ROOT / "docs").rglob("*.rst")])
OUTSIDE = re.compile(r"\.\./shared|\b(?:seeds|design)/\w|(?-i:ARCHITECTURE\.md)|/work/"
                     r"|\bissue\s*#?\d+", re.IGNORECASE)
NAME = re.compile(r"`((?:lumicore|solvers)(?:\.[A-Za-z_]\w*)+)")
PATH = re.compile(r"`((?:lumicore|solvers|ext|benchmarks|tests|examples|docs)/[\w/.-]+"
                  r"\.(?:py|pyx|pxd|toml|txt|md|ipynb))`")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_docs_point_only_inside_the_repository(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    found = [f"line {text.count(chr(10), 0, m.start()) + 1}: {m.group()!r}"
             for m in OUTSIDE.finditer(text)]
    assert found == [], f"{path.name} refers outside the repository: {found}"
    for target in LINK.findall(re.sub(r"`[^`]*`", "", text)):  # not inside code spans
        if "://" not in target and not target.startswith("mailto:"):
            assert (path.parent / target).exists(), f"{path.name}: broken link {target}"


def resolves(dotted: str) -> bool:
    """Whether ``lumicore.x.y`` names a module, or an attribute of the longest module prefix."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for name in parts[cut:]:
                obj = getattr(obj, name)
        except AttributeError:
            return False
        return True
    return False


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_names_and_paths_in_docs_exist(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    stale = [name for name in NAME.findall(text) if not resolves(name)]
    stale += [file for file in PATH.findall(text) if not (ROOT / file).exists()]
    assert stale == [], f"{path.name} names what the code no longer has: {stale}"


def test_the_pattern_catches_what_it_should() -> None:
    for bad in ("see ../shared/design/lucia.md", "rulebook: `shared/seeds/002.txt`",
                "/work/main/x", "schema of issue 2", "(Issue #11)", "as design/reef.md rule 5",
                "see ARCHITECTURE.md"):
        assert OUTSIDE.search(bad), bad
    for fine in ("shared with opponents", "on the shared 2-core machine", "an issue with it",
                 "[docs/architecture.md](docs/architecture.md)", "the design's rules"):
        assert not OUTSIDE.search(fine), fine
    assert resolves("lumicore.lucia.Train.parse") and resolves("solvers.limits")
    assert not resolves("lumicore.reef.fast") and not resolves("lumicore.lucia.Train.nothing")


def test_the_api_reference_lists_every_module() -> None:
    # a module missing from docs/api/*.rst is missing from the reference without any warning
    # (the Lucia deal modules, the reef's best_turn and bots and Lemuria's best_turn were, and
    # three kernel doors whose calls the game pages name)
    listed = set(re.findall(r"^\.\. automodule:: ([\w.]+)", "\n".join(
        p.read_text(encoding="utf-8") for p in (ROOT / "docs" / "api").glob("*.rst")), re.M))
    modules = set()
    for package in ("lumicore", "solvers"):
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            parts = parts[:-1] if parts[-1] == "__init__" else parts
            if not any(p.startswith("_") for p in parts[1:]):
                modules.add(".".join(parts))
    assert sorted(modules - listed) == []
    assert sorted(listed - modules) == []
