"""`make bench` (benchmarks/bench.py --compare): the pieces, without timing anything.

A comparison exports a git revision's ``src/`` and runs each workload in a fresh process that
imports only the package it is given; these tests check that the worker really runs the package
it is pointed at, and that an exported revision's package runs the same workload.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.support.paths import ROOT_DIR

ROOT = ROOT_DIR
BENCH = ROOT / "benchmarks" / "bench.py"


def _worker(src: Path, kind: str, target: str, games: int) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, str(BENCH), "--worker", kind, target, "--games", str(games)],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(src)},
    ).stdout
    sample: dict[str, Any] = json.loads(out)
    return sample


def test_a_worker_runs_the_package_it_is_given() -> None:
    sample = _worker(ROOT / "src", "random", "small", 4)
    assert Path(sample["package"]) == (ROOT / "src" / "hatsuden_rules").resolve()
    assert sample["count"] > 4  # plies of 4 complete games
    assert sample["seconds"] > 0
    assert sample["cpu_seconds"] > 0


def test_an_exported_revision_runs_the_same_workload(tmp_path: Path) -> None:
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import bench; "
        "print(bench.export('HEAD', __import__('pathlib').Path(sys.argv[2])))"
    )
    short = subprocess.run(
        [sys.executable, "-c", code, str(BENCH.parent), str(tmp_path)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    assert short
    assert (tmp_path / "src" / "hatsuden_rules" / "__init__.py").is_file()
    sample = _worker(tmp_path / "src", "random", "small", 4)
    assert Path(sample["package"]) == (tmp_path / "src" / "hatsuden_rules").resolve()
    assert sample["count"] > 4


def test_an_unknown_revision_is_one_line() -> None:
    result = subprocess.run(
        [sys.executable, str(BENCH), "--compare", "no-such-revision-anywhere"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert result.stderr.strip().startswith("bench.py: cannot export 'no-such-revision-anywhere'")
    assert "Traceback" not in result.stderr
