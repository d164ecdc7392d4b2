"""Build the Cython core: every ext/<name>.pyx becomes the private module lumicore._ext.<name>.

Set LUMICORE_DEBUG=1 for a debug build: no optimisation, Cython's bounds and wraparound checks on
(an index out of a memoryview raises IndexError) and the C compiler's bounds sanitizer on (an
index out of a fixed-size C array, where most kernel state lives, stops the process with a
"runtime error: index ... out of bounds" report instead of corrupting memory).
"""

import os
from glob import glob
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("LUMICORE_DEBUG", "") not in ("", "0")
# LUMICORE_EXT=lucia,reef builds only those kernels (handy while another one is being edited)
ONLY = {name for name in os.environ.get("LUMICORE_EXT", "").split(",") if name}

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": not DEBUG,
    "embedsignature": True,
}
SANITIZE = ["-fsanitize=bounds", "-fno-sanitize-recover=bounds"]
compile_args = ["-O0", "-g", *SANITIZE] if DEBUG else ["-O3"]

extensions = [
    Extension(
        f"lumicore._ext.{Path(pyx).stem}",
        [pyx],
        include_dirs=[numpy.get_include(), "ext"],
        extra_compile_args=compile_args,
        extra_link_args=SANITIZE if DEBUG else [],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    )
    for pyx in sorted(glob("ext/*.pyx"))
    if not ONLY or Path(pyx).stem in ONLY
]

# The generated C files stay beside the sources, and cythonize regenerates them only when a .pyx
# is newer: after a switch between debug and optimised builds every file must be regenerated,
# or the other build's C (with or without its checks) is silently compiled again.
MODE = "debug" if DEBUG else "optimised"
stamps = [Path("ext") / f".{Path(ext.sources[0]).stem}.mode" for ext in extensions]
switched = any(not p.exists() or p.read_text(encoding="utf-8").strip() != MODE for p in stamps)

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives=directives,
        include_path=["ext"],
        force=DEBUG or switched,
    )
)
for stamp in stamps:
    stamp.write_text(MODE + "\n", encoding="utf-8")
