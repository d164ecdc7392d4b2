"""Compiled kernels (built from ext/*.pyx by setup.py). Private: import through lumicore.<game>."""
