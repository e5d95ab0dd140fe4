"""Hypothesis profiles for the property tests.

Profiles (all with ``deadline=None``: a whole game is one example, its run time varies a lot):

- ``dev`` (default): a quick run, about half a minute for the whole directory.
- ``ci``: loaded when the ``CI`` environment variable is set; derandomized (the same examples on
  every run, no example database) and about three times as many examples as ``dev``.
- ``nightly``: many more examples and longer stateful runs.

``HYPOTHESIS_PROFILE=<name>`` overrides the choice, and so does pytest's
``--hypothesis-profile=<name>`` option (applied after this file is imported).
Test modules scale their example counts from the loaded profile with `budget`.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_SLOW_IS_FINE = [HealthCheck.too_slow, HealthCheck.data_too_large]

settings.register_profile(
    "dev",
    deadline=None,
    max_examples=100,
    stateful_step_count=60,
    print_blob=True,
    suppress_health_check=_SLOW_IS_FINE,
)
settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    database=None,
    max_examples=300,
    stateful_step_count=80,
    print_blob=True,
    suppress_health_check=_SLOW_IS_FINE,
)
settings.register_profile(
    "nightly",
    deadline=None,
    max_examples=5000,
    stateful_step_count=200,
    print_blob=True,
    suppress_health_check=_SLOW_IS_FINE,
)

settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
)


def pytest_report_header() -> str:
    """Say which profile runs, and how many examples it asks for."""
    current = settings()
    return (
        f"hypothesis profile: {settings.get_current_profile_name()} "
        f"(max_examples={current.max_examples}, stateful_step_count={current.stateful_step_count})"
    )
