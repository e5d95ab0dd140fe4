"""Local processes against Ray for `hatsuden simulate`, side by side in one run.

    python benchmarks/simulate_backends.py [--games 2000] [--ismcts-games 40] [--cpus 2]

For each match it times the local backend on one process and on `--cpus` processes, then Ray on
a local instance with `--cpus` CPUs: once including Ray's start and shutdown (what one
``hatsuden simulate --backend ray`` pays) and once with Ray already running (what a cluster, or
several matches in one session, pays). Every run must give the same games; the script checks it.
"""

from __future__ import annotations

import argparse
import logging
import time
from collections.abc import Callable

import ray

from hatsuden_rules.simulation import GameSummary, run_match


def timed(
    label: str, play: Callable[[], tuple[GameSummary, ...]]
) -> tuple[str, float, tuple[GameSummary, ...]]:
    start = time.perf_counter()
    games = play()
    return label, time.perf_counter() - start, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="greedy vs random games")
    parser.add_argument("--ismcts-games", type=int, default=40, help="ismcts vs greedy games")
    parser.add_argument("--cpus", type=int, default=2, help="processes / Ray CPUs")
    args = parser.parse_args()
    for players, games in (
        (("greedy", "random"), args.games),
        (("ismcts", "greedy"), args.ismcts_games),
    ):

        def match(
            backend: str = "local",
            jobs: int | None = None,
            players: tuple[str, str] = players,
            games: int = games,
        ) -> tuple[GameSummary, ...]:
            return run_match(players, games=games, seed=12, jobs=jobs, backend=backend)

        rows = [
            timed("local, 1 process", lambda: match(jobs=1)),
            timed(f"local, {args.cpus} processes", lambda: match(jobs=args.cpus)),
            timed(
                f"ray, {args.cpus} CPUs, with start/stop",
                lambda: match(backend="ray", jobs=args.cpus),
            ),
        ]
        ray.init(
            num_cpus=args.cpus,
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.ERROR,
        )
        try:
            match(backend="ray", jobs=None)  # warm the workers up, as a long-lived cluster is
            rows.append(
                timed(f"ray, {args.cpus} CPUs, already running", lambda: match(backend="ray"))
            )
        finally:
            ray.shutdown()
        reference = rows[0][2]
        print(f"\n{players[0]} vs {players[1]}, {games} games")
        for label, seconds, result in rows:
            assert result == reference, f"{label}: other games than the local backend"
            print(
                f"  {label:<34} {seconds:8.2f} s  {games / seconds:8.1f} games/s  "
                f"{rows[0][1] / seconds:5.2f}x one process"
            )


if __name__ == "__main__":
    main()
