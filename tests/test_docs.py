"""The README and docs/ are self-contained: no paths outside the repository, no references to
issue numbers, and every relative link points to a file in the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md"), *(ROOT / "docs").rglob("*.rst")])
OUTSIDE = re.compile(r"\.\./shared|\bshared/(?:seeds|design)\b|/work/|\bissue\s*#?\d+",
                     re.IGNORECASE)
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_docs_point_only_inside_the_repository(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    found = [f"line {text.count(chr(10), 0, m.start()) + 1}: {m.group()!r}"
             for m in OUTSIDE.finditer(text)]
    assert found == [], f"{path.name} refers outside the repository: {found}"
    for target in LINK.findall(text):
        if "://" not in target and not target.startswith("mailto:"):
            assert (path.parent / target).exists(), f"{path.name}: broken link {target}"


def test_the_pattern_catches_what_it_should() -> None:
    for bad in ("see ../shared/design/lucia.md", "rulebook: `shared/seeds/002.txt`",
                "/work/main/x", "schema of issue 2", "(Issue #11)"):
        assert OUTSIDE.search(bad), bad
    for fine in ("shared with opponents", "on the shared 2-core machine", "an issue with it"):
        assert not OUTSIDE.search(fine), fine
