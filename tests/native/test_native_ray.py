"""``hatsuden-check --core native --backend ray``: the distributed checker (issue 21 §3).

The fingerprint space is partitioned among 1, 2 and 4 Ray actors on a local Ray started here;
the results must be those of the single-process native run (and so of the Python checker):
the same states or positions (R36), transitions, terminal states by end reason (R24, R25),
events, longest game (R25), unreached events, verdict and counterexamples. A worker killed in
the middle of the search stops the run with one clear line; with a checkpoint, the run resumes
from the last completed layer to the right counts. ``make verify-native-ray`` does the same on
``choice``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hatsuden_rules.modelcheck._native import native_check, result_from_json

from .check_compare import FAST, SMALL, comparable
from .helpers import NOT_INSTALLED

ray = pytest.importorskip("ray", reason="the Ray backend needs the 'ray' extra (in dev)")
try:
    import hatsuden_native
except ImportError:  # pragma: no cover - the native package is built by `make native`
    pytest.skip(NOT_INSTALLED, allow_module_level=True)
if not hasattr(hatsuden_native, "CheckShard"):  # pragma: no cover - an older build
    pytest.skip(
        "hatsuden-native predates the Ray backend: run make native", allow_module_level=True
    )

from hatsuden_rules.modelcheck._ray import (  # noqa: E402
    CheckBackendError,
    RayStats,
    _cycle,
    ray_check,
)


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=4, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def distributed(name: str, workers: int, **options: Any) -> Any:
    rules, positions = FAST[name]
    document = ray_check(rules, positions=positions, workers=workers, **options)
    return result_from_json(document, rules)


@pytest.mark.parametrize("workers", [1, 2, 4])
def test_the_distributed_run_equals_the_single_process_run(local_ray: None, workers: int) -> None:
    single = native_check(SMALL, positions=True)
    stats = RayStats()
    found = distributed("small-positions", workers, stats=stats)
    assert comparable(found) == comparable(single)
    assert found.soundness_checked == single.soundness_checked > 0  # R36: the same sample
    assert found.workers == workers
    assert stats.bytes_successors > 0
    assert stats.states == single.states


@pytest.mark.parametrize("name", ["small", "small-place-at-once", "tiny-any-set"])
def test_the_variants_on_two_workers(local_ray: None, name: str) -> None:
    rules, positions = FAST[name]
    assert comparable(distributed(name, 2)) == comparable(native_check(rules, positions=positions))


def test_a_killed_worker_stops_the_run_and_the_checkpoint_resumes_it(
    local_ray: None, tmp_path: Path
) -> None:
    where = str(tmp_path / "run")

    def kill_one(depth: int, actors: list[Any]) -> None:
        if depth == 6:
            ray.kill(actors[1])

    with pytest.raises(
        CheckBackendError, match=r"a Ray worker died during layer \d+ \(\w+Error\)"
    ) as caught:
        distributed("small", 2, checkpoint=where, on_layer=kill_one)
    assert "--resume" in str(caught.value)
    assert "\n" not in str(caught.value)
    with pytest.raises(CheckBackendError, match="holds a checkpoint"):
        distributed("small", 2, checkpoint=where)
    with pytest.raises(CheckBackendError, match="another worker count"):
        distributed("small", 4, checkpoint=where, resume=True)
    resumed = distributed("small", 2, checkpoint=where, resume=True)
    assert comparable(resumed) == comparable(native_check(SMALL))


def test_a_limit_truncates(local_ray: None) -> None:
    found = distributed("small", 2, max_states=9000)
    assert found.result == "TRUNCATED"
    assert found.stopped_by == "the state limit"
    assert found.longest_game is None


def test_the_command_line() -> None:
    """One run of the command itself (it starts and stops its own local Ray)."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "hatsuden_rules.modelcheck",
            "--quiet",
            "--config",
            "small",
            "--core",
            "native",
            "--backend",
            "ray",
            "--workers",
            "2",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["states"] == native_check(SMALL).states
    assert data["result"] == "OK"
    assert data["workers"] == 2
    assert data["bytes_sent"] > 0


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--backend", "ray"], "--backend and --address need --core native"),
        (["--core", "native", "--address", "auto"], "--address needs --backend ray"),
        (["--core", "native", "--backend", "ray", "--max-memory", "1G"], "--max-memory does not"),
    ],
)
def test_misplaced_backend_options_are_refused_in_one_line(flags: list[str], message: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "hatsuden_rules.modelcheck", "--quiet", "--config", "small", *flags],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1
    assert message in done.stderr


class _Call:
    def __init__(self, function: Any) -> None:
        self.remote = function


class _FakeShard:
    """A shard of a made-up graph after peeling, answering as `CheckShard` does."""

    def __init__(self, states: dict[bytes, tuple[int, list[bytes], bool]]) -> None:
        self.lowest_left = _Call(
            lambda: min(((n, k) for k, (n, _, left) in states.items() if left), default=None)
        )
        self.left = _Call(lambda key: states[key][2])
        self.successors = _Call(lambda key: states[key][:2])


def test_a_cycle_is_walked_as_the_single_process_search_walks_it() -> None:
    """R25: from the lowest-numbered state left, along the first successor left, to a repeat;
    the path is the shortest path to the loop's first state, then the loop."""

    def key(number: int, shard: int) -> bytes:
        return ((shard << 64) | number).to_bytes(16, "little")

    a, b, c, d = key(0, 0), key(1, 1), key(2, 0), key(3, 1)
    graph = {a: (0, [b], False), b: (1, [d, c], True), c: (2, [b], True), d: (3, [], False)}
    shards = [
        _FakeShard({k: v for k, v in graph.items() if k in (a, c)}),
        _FakeShard({k: v for k, v in graph.items() if k in (b, d)}),
    ]

    class _Ray:
        @staticmethod
        def get(value: Any) -> Any:
            return value

    parents = {1: [0], 2: [0, 1]}  # the move ranks from the start to states 1 and 2
    assert _cycle(_Ray(), shards, lambda n: list(parents[n])) == ([0, 1, 0], 2)
