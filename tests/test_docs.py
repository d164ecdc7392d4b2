"""The README and docs/ are self-contained: no paths outside the repository, no references to
issue numbers, every relative link points to a file in the repository, and every module, object
or file they name in backticks exists. The API reference lists every module and shows a
documentation of every name in the modules' ``__all__``."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
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


def reference_text() -> str:
    """The directives of the API reference: docs/api/*.rst."""
    return "\n".join(p.read_text(encoding="utf-8")
                     for p in sorted((ROOT / "docs" / "api").glob("*.rst")))


def reference_entries(text: str) -> dict[str, dict[str, str]]:
    """The modules of the reference ``text``, each with its ``automodule`` directive's options."""
    return {m.group(1): dict(re.findall(r":([\w-]+):[ \t]*(.*)", m.group(2)))
            for m in re.finditer(r"^\.\. automodule:: ([\w.]+)\n((?:[ \t]+:.*\n)*)", text, re.M)}


def shown(text: str, module: str, name: str) -> bool:
    """Whether the reference ``text`` shows ``module.name``: an ``autodata`` directive of its own,
    or the module's ``automodule`` without ``:no-members:`` nor the name among its excluded."""
    if re.search(rf"^\.\. autodata:: {re.escape(f'{module}.{name}')}$", text, re.M):
        return True
    entry = reference_entries(text).get(module)
    if entry is None or "no-members" in entry:
        return False
    return name not in re.split(r"[\s,]+", entry.get("exclude-members", ""))


def defined_in(module: str, name: str) -> str | None:
    """The module whose source assigns the module-level ``name`` that ``module`` has, following
    ``from ... import`` re-exports; None when no top-level statement binds it."""
    mod = importlib.import_module(module)
    body = list(ast.parse(inspect.getsource(mod)).body)
    imported = None
    while body:  # top-level statements, including those under if / try (not in functions)
        node = body.pop(0)
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(n, ast.Name) and n.id == name
                   for t in targets for n in ast.walk(t)):
                return module
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if (alias.asname or alias.name) == name:
                    base = node.module if not node.level else importlib.util.resolve_name(
                        "." * node.level + (node.module or ""), mod.__package__)
                    imported = (base, alias.name)
        elif isinstance(node, (ast.If, ast.Try)):
            body += [*node.body, *node.orelse, *getattr(node, "finalbody", []),
                     *(s for h in getattr(node, "handlers", []) for s in h.body)]
    return None if imported is None else defined_in(*imported)


def test_every_public_name_is_documented() -> None:
    # autodoc leaves out, without a warning, a constant or type alias that has no docstring
    # (``X = 1`` then a string literal, or a ``#:`` comment above it): 74 of the names in the
    # modules' __all__ were missing from the reference
    pycode = pytest.importorskip("sphinx.pycode")
    text = reference_text()
    missing = []
    for module in reference_entries(text):
        mod = importlib.import_module(module)
        for name in getattr(mod, "__all__", ()):
            obj = getattr(mod, name)
            if inspect.ismodule(obj):  # documented in the docstring of the module exporting it
                if f"``{name}``" not in (mod.__doc__ or ""):
                    missing.append(f"{module}.{name} (a module the docstring does not name)")
            elif inspect.isclass(obj) or inspect.isroutine(obj):
                doc = (obj.__doc__ or "").strip()
                # a dataclass or NamedTuple without a docstring gets its signature as one
                if not doc or (inspect.isclass(obj) and "\n" not in doc
                               and doc.startswith(f"{obj.__name__}(") and doc.endswith(")")):
                    missing.append(f"{module}.{name} (no docstring)")
            else:
                home = defined_in(module, name)
                if home is None:
                    missing.append(f"{module}.{name} (not assigned at the top of any module)")
                elif ("", name) not in pycode.ModuleAnalyzer.for_module(home).find_attr_docs():
                    missing.append(f"{module}.{name} (no docstring where {home} assigns it)")
                elif not shown(text, home, name):
                    missing.append(f"{module}.{name} ({home} does not show it in docs/api)")
    assert missing == []


def test_every_constant_in_the_reference_shows_its_value() -> None:
    """The reference shows a constant's value by its ``repr``: the field rules of
    ``lumicore.checks`` (``BOOL``, ``lumicore.game.ARENA_FIELDS``, ``lumicore.reef.io.REEF``)
    showed as ``<lumicore.checks.Choice object>``."""
    text = reference_text()
    opaque = []
    for module in reference_entries(text):
        mod = importlib.import_module(module)
        for name in getattr(mod, "__all__", ()):
            obj = getattr(mod, name)
            if not (inspect.ismodule(obj) or inspect.isclass(obj) or inspect.isroutine(obj)) \
                    and re.search(r" object at 0x[0-9a-f]+>", repr(obj)):
                opaque.append(f"{module}.{name}")
    assert opaque == []


def test_a_field_rule_shows_as_the_call_that_makes_it() -> None:
    from lumicore.checks import BOOL, Choice, Int, ListOf, MapOf, Maybe, Spec, Text
    from lumicore.reef.io import REEF

    assert repr(BOOL) == "Choice(True, False, what='true or false')"
    assert repr(REEF) == "Load(Spec(), from_json, what='a reef (lumicore-reef JSON)')"
    rules = [Int(1, 6), Maybe(MapOf(Text(), Spec(), "options")), Text("a name", 40),
             ListOf(Choice("a", 1), length=2, unique=True), ListOf(Int(None, 3), low=1, high=4)]
    names = {"Choice": Choice, "Int": Int, "ListOf": ListOf, "Maybe": Maybe, "MapOf": MapOf,
             "Spec": Spec, "Text": Text}
    for rule in rules:  # the call shown makes the same rule
        again = eval(repr(rule), names)
        assert repr(again) == repr(rule) and again.what == rule.what


def test_the_documentation_check_sees_what_autodoc_sees() -> None:
    assert defined_in("lumicore.reef.tiles", "COLORS") == "lumicore.reef.values"
    assert defined_in("lumicore.data", "tomllib") is None  # an import of a module, not a value
    assert defined_in("lumicore.lemuria.game", "MAX_PLAYERS") == "lumicore.lemuria.game"
    text = (".. automodule:: a\n   :no-members:\n\n.. autodata:: a.V\n\n.. automodule:: b\n\n"
            ".. automodule:: c\n   :exclude-members: Lumino, StartLumino\n")
    assert shown(text, "a", "V") and not shown(text, "a", "W") and not shown(text, "z", "V")
    assert shown(text, "b", "X") and shown(text, "c", "X") and not shown(text, "c", "StartLumino")
