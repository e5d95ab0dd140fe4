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

#: The longest files, longest first: the seconds of each in one process on the shared machine
#: (2026-12-02, load 10 to 17; about a third of that on a quiet one), every file above 40 s.
LONGEST_FIRST = (
    "tests/modelcheck/test_observation_information.py",  # 139
    "property_tests/test_stateful.py",  # 133
    "tests/cli/test_cli.py",  # 122
    "property_tests/test_games.py",  # 120
    "tests/native/test_native_ray.py",  # 117
    "tests/integrations/test_pettingzoo_options.py",  # 82
    "tests/native/test_native_check.py",  # 80
    "tests/cli/test_cli_vocabulary.py",  # 76
    "tests/integrations/test_openspiel.py",  # 75
    "tests/modelcheck/test_modelcheck_disk.py",  # 75
    "tests/integrations/test_openspiel_native.py",  # 67
    "tests/conformance/test_conformance.py",  # 64
    "tests/modelcheck/test_modelcheck_cli.py",  # 63
    "tests/modelcheck/test_information_place_at_once.py",  # 60
    "tests/integrations/test_openspiel_suites.py",  # 56
    "tests/integrations/test_vector.py",  # 53
    "tests/integrations/test_pettingzoo.py",  # 51
    "tests/conformance/test_conformance_runner.py",  # 50
    "tests/native/test_native_faults.py",  # 47
    "tests/simulation/test_simulation_ray.py",  # 46
    "tests/repo/test_docs.py",  # 45
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Move the items of `LONGEST_FIRST`'s files to the front, in its order (a stable sort)."""
    # A stale name fails; a folder absent from a partial copy (mutmut copies tests/) does not.
    missing = [
        name
        for name in LONGEST_FIRST
        if (ROOT / name).parent.is_dir() and not (ROOT / name).is_file()
    ]
    if missing:
        raise pytest.UsageError(f"tests/conftest.py: LONGEST_FIRST names no file: {missing}")
    rank = {ROOT / name: index for index, name in enumerate(LONGEST_FIRST)}
    last = len(LONGEST_FIRST)
    items.sort(key=lambda item: rank.get(Path(item.path), last))
