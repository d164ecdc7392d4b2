"""Sphinx configuration of the lumicore API reference (built from the docstrings).

Build: ``python -m sphinx -W --keep-going -b html docs/api build/api`` (``build/`` is ignored by
git). The modules are listed by name in ``lumicore.rst`` and ``solvers.rst``; a new module
appears once it is added there (``tests/test_docs.py`` checks that every module is).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import lumicore  # noqa: E402

project = "lumicore"
author = "the lumicore developers"
release = version = lumicore.__version__
extensions = ["sphinx.ext.autodoc", "sphinx.ext.viewcode"]
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
# the solvers need ortools; a docs-only machine may still build the pages without it
autodoc_mock_imports = ["ortools"]
exclude_patterns = ["_build"]
# a short type name in a signature (``Play``) that two games define is linked to neither rather
# than failing the build; Sphinx's "more than one target found" is this warning type only
suppress_warnings = ["ref.python"]
html_theme = "alabaster"
html_title = f"lumicore {release} API"
