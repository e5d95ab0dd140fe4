"""Simulations on Ray (issue 12 §4): the same games as the local backend, in order.

One local Ray instance with two CPUs serves the whole module (it takes seconds to start); the
command-line test connects to it with ``--address``, as a user would to a cluster. It is always a
new instance of this process (``address="local"``), never a cluster started elsewhere on the
machine (``ray start``, another pytest-xdist worker): Ray picks free ports for each.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import ray

import hatsuden_rules
from hatsuden_rules import InvalidInputError, Rules, Tech
from hatsuden_rules.records import parse_record, replay
from hatsuden_rules.simulation import BackendError, game_file_name, run_match

SMALL = Rules(
    energies=3,
    max_value=3,
    copies=2,
    hand_size=3,
    city_demand=5,
    techs=frozenset({Tech.SMART, Tech.DOWN}),
    stall_limit=10,
)


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[str]:
    """A local Ray with two CPUs for the module; yields its address."""
    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        logging_level=logging.ERROR,
    )
    try:
        yield str(ray.get_runtime_context().gcs_address)
    finally:
        ray.shutdown()


def test_ray_plays_the_games_of_the_local_backend_in_order() -> None:
    done: list[tuple[int, int]] = []
    local = run_match(("greedy", "random"), games=14, seed=9, jobs=1)
    remote = run_match(
        ("greedy", "random"),
        games=14,
        seed=9,
        backend="ray",
        progress=lambda d, n: done.append((d, n)),
    )
    assert remote == local
    assert [g.index for g in remote] == list(range(14))
    assert done[-1] == (14, 14)
    assert [d for d, _ in done] == sorted(d for d, _ in done)
    assert len(done) > 1  # batched, but progress is reported as batches finish


def test_ray_slices_and_other_rules_match_too() -> None:
    local = run_match(("ismcts:iterations=8", "greedy"), games=5, seed=3, rules=SMALL, jobs=1)
    first = run_match(
        ("ismcts:iterations=8", "greedy"), games=2, seed=3, rules=SMALL, backend="ray"
    )
    rest = run_match(
        ("ismcts:iterations=8", "greedy"), games=3, seed=3, rules=SMALL, backend="ray", first=2
    )
    assert first + rest == local


def test_saved_games_are_the_same_whatever_the_backend(tmp_path: Path) -> None:
    run_match(("greedy", "random"), games=6, seed=4, jobs=2, save_games=tmp_path / "local")
    games = run_match(
        ("greedy", "random"), games=6, seed=4, backend="ray", save_games=tmp_path / "ray"
    )
    for game in games:
        name = game_file_name(4, game.index)
        text = (tmp_path / "ray" / name).read_text(encoding="utf-8")
        assert text == (tmp_path / "local" / name).read_text(encoding="utf-8")
        record = parse_record(text)
        assert record.players == game.names
        assert record.seed == game.deal_seed
        assert replay(record).is_over
        assert record.result is not None
        assert record.result.winner == game.winner


def test_workers_of_another_version_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # The driver pretends to be another release: the workers' games could differ.
    monkeypatch.setattr(hatsuden_rules, "__version__", "0.0.0")
    with pytest.raises(BackendError, match="the Ray workers run hatsuden-rules"):
        run_match(("random", "random"), games=2, backend="ray")


def test_the_command_line_on_a_cluster_address(local_ray: str, tmp_path: Path) -> None:
    def simulate(*extra: str) -> dict[str, object]:
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "hatsuden_rules",
                "simulate",
                "--players",
                "greedy,random",
                "--games",
                "8",
                "--seed",
                "21",
                "--json",
                "--quiet",
                *extra,
            ],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        document = json.loads(result.stdout)
        assert isinstance(document, dict)
        for timing in ("seconds", "games_per_second", "seconds_per_decision", "jobs", "backend"):
            document.pop(timing)
        return document

    saved = tmp_path / "games"
    on_ray = simulate("--backend", "ray", "--address", local_ray, "--save-games", str(saved))
    assert on_ray.pop("save_games") == str(saved)
    assert on_ray == simulate("--jobs", "1")
    assert sorted(path.name for path in saved.iterdir()) == [
        game_file_name(21, i) for i in range(8)
    ]


def test_a_failing_task_raises_the_workers_library_error() -> None:
    from hatsuden_rules.simulation import _Match, _match_game
    from hatsuden_rules.simulation._ray import ray_results

    # A player spec no worker can build (run_match refuses it before any task; this calls the
    # backend directly). The library's errors pickle, so the worker's error comes back as itself.
    match = _Match(("nobody", "random"), 0, Rules(), False)
    with pytest.raises(InvalidInputError) as error:
        list(ray_results(_match_game, match, 0, 2))
    assert error.value.field == "player"
    assert str(error.value).startswith("player: unknown player 'nobody'")
