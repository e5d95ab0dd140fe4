"""The native core's tests: the Hypothesis profiles of property_tests (dev, ci, nightly)."""

from __future__ import annotations

import contextlib

# The profiles are registered and loaded by property_tests/conftest.py (CI=1 selects "ci",
# HYPOTHESIS_PROFILE=<name> any); importing it here makes them apply to these tests too, even
# when pytest runs tests/native alone.
with contextlib.suppress(ImportError):
    import property_tests.conftest  # noqa: F401
