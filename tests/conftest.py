"""The order in which pytest-xdist hands out the test files: the longest first.

`make pytest` runs ``-n auto --dist loadfile --no-loadscope-reorder``: each file goes whole to one
worker, in collection order. Started last, a long file would leave the other core idle at the
end, so the files below (the slowest, measured with ``--durations=0``: tests/README.md) are
moved to the front, longest first; every other file keeps its place. A file's own tests keep
their order. A path listed here that no longer exists fails the run, so the list cannot rot.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: The longest files, longest first (seconds of one process, quiet machine, in tests/README.md).
LONGEST_FIRST = (
    "tests/modelcheck/test_observation_information.py",
    "tests/integrations/test_pettingzoo_options.py",
    "tests/native/test_native_faults.py",
    "tests/modelcheck/test_information_place_at_once.py",
    "property_tests/test_games.py",
    "property_tests/test_stateful.py",
    "tests/repo/test_dist.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Move the items of `LONGEST_FIRST`'s files to the front, in its order (a stable sort)."""
    missing = [name for name in LONGEST_FIRST if not (ROOT / name).is_file()]
    if missing:
        raise pytest.UsageError(f"tests/conftest.py: LONGEST_FIRST names no file: {missing}")
    rank = {ROOT / name: index for index, name in enumerate(LONGEST_FIRST)}
    last = len(LONGEST_FIRST)
    items.sort(key=lambda item: rank.get(Path(item.path), last))
