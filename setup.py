"""Build the Cython core: every ext/<name>.pyx becomes the private module lumicore._ext.<name>.

Set LUMICORE_DEBUG=1 for a debug build: bounds and wraparound checks on, no optimisation, so that
an index bug raises IndexError instead of corrupting memory.
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
compile_args = ["-O0", "-g"] if DEBUG else ["-O3"]

extensions = [
    Extension(
        f"lumicore._ext.{Path(pyx).stem}",
        [pyx],
        include_dirs=[numpy.get_include(), "ext"],
        extra_compile_args=compile_args,
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    )
    for pyx in sorted(glob("ext/*.pyx"))
    if not ONLY or Path(pyx).stem in ONLY
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives=directives,
        include_path=["ext"],
        # a debug build must not reuse C files generated without checks
        force=DEBUG,
    )
)
