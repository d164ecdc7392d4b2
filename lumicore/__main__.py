"""``python -m lumicore``: the ``lumicore`` command.

This is the one module of ``lumicore`` that reaches ``solvers`` (which holds the command line);
it does so at run time through importlib, and the import-rule test exempts it by name.
"""

from __future__ import annotations

import importlib
import sys


def main() -> int:
    """Run the ``lumicore`` command on ``sys.argv`` and return its exit status."""
    return importlib.import_module("solvers.cli").main()


if __name__ == "__main__":
    sys.exit(main())
