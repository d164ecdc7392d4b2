"""Shared test settings: hypothesis runs derandomized (reproducible) with no deadline, since
the machines are shared and noisy. Set HYPOTHESIS_PROFILE=thorough for a longer random run.

The Ctrl-C tests send SIGINT to this process or to a child. A shell starts a background job
(``pytest &`` in a script) with SIGINT ignored, and Python then installs no handler of its own,
so those signals would be lost: Python's own handler is put back (a child started by exec
then gets the default action again)."""

import os
import signal

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    derandomize=True,
    deadline=None,
    max_examples=100,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough", deadline=None, max_examples=2000, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
