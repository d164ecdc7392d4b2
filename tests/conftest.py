"""Shared test settings: hypothesis runs derandomized (reproducible) with no deadline, since
the machines are shared and noisy. Set HYPOTHESIS_PROFILE=thorough for a longer random run."""

import os

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
