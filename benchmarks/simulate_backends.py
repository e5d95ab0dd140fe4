"""Local processes against Ray for `hatsuden simulate`, side by side in one run.

    python benchmarks/simulate_backends.py [--games 1000] [--ismcts-games 20] [--cpus 2]

For each match it plays the same games on the local backend (one process, then `--cpus`
processes) and on a local Ray instance with `--cpus` CPUs (once including Ray's start, what one
``hatsuden simulate --backend ray`` pays, and once with Ray already running, what a long-lived
cluster pays), and reports the wall time and the CPU time of every process involved (the
driver, its worker processes, and Ray's own processes: GCS, raylet, workers). Every run must
give the same games; the script checks it.

On a machine shared with other work, wall times say little: the kernel's group scheduling gives
a session a fair share of the cores however many processes it runs. The CPU seconds per game
still say what each backend costs.
"""

from __future__ import annotations

import argparse
import logging
import os
import resource
import time
from collections.abc import Callable

import ray

from hatsuden_rules.simulation import GameSummary, ray_session, run_match

_TICKS = os.sysconf("SC_CLK_TCK")
Row = tuple[float, float, tuple[GameSummary, ...]]


def _descendants_cpu(root: int) -> float:
    """CPU seconds used so far by the living descendants of `root` (from /proc)."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
        # utime, stime, and the children it has reaped (cutime, cstime)
        times[int(entry)] = sum(int(x) for x in fields[11:15]) / _TICKS
    total = 0.0
    for pid, cpu in times.items():
        ancestor = parents.get(pid)
        while ancestor is not None and ancestor not in (root, 0, 1):
            ancestor = parents.get(ancestor)
        if ancestor == root and pid != root:
            total += cpu
    return total


def _own_cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def measure(play: Callable[[], tuple[GameSummary, ...]]) -> Row:
    """Wall seconds, CPU seconds (this process, its reaped children, living descendants)."""
    pid = os.getpid()
    wall, cpu, alive = time.perf_counter(), _own_cpu(), _descendants_cpu(pid)
    games = play()
    cpu = _own_cpu() - cpu + _descendants_cpu(pid) - alive
    return time.perf_counter() - wall, cpu, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="greedy vs random games")
    parser.add_argument("--ismcts-games", type=int, default=20, help="ismcts vs greedy games")
    parser.add_argument("--cpus", type=int, default=2, help="processes / Ray CPUs")
    args = parser.parse_args()
    cpus = args.cpus
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

        def local(jobs: int, match: Callable[..., tuple[GameSummary, ...]] = match) -> Row:
            return measure(lambda: match(jobs=jobs))

        def ray_with_start(match: Callable[..., tuple[GameSummary, ...]] = match) -> Row:
            # Ray's processes are sampled before the shutdown ends them; the driver counts
            # only its own time (it reaps Ray's processes at the shutdown).
            pid = os.getpid()
            wall = time.perf_counter()
            me = resource.getrusage(resource.RUSAGE_SELF)
            with ray_session(jobs=cpus):
                result = match(backend="ray")
                ray_cpu = _descendants_cpu(pid)
            after = resource.getrusage(resource.RUSAGE_SELF)
            own = after.ru_utime + after.ru_stime - me.ru_utime - me.ru_stime
            return time.perf_counter() - wall, own + ray_cpu, result

        rows = [
            ("local, 1 process", *local(1)),
            (f"local, {cpus} processes", *local(cpus)),
            (f"ray, {cpus} CPUs, with its start", *ray_with_start()),
        ]
        ray.init(
            num_cpus=cpus, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR
        )
        try:
            match(backend="ray")  # warm the workers up, as on a long-lived cluster
            running = measure(lambda: match(backend="ray"))
            rows.append((f"ray, {cpus} CPUs, already running", *running))
        finally:
            ray.shutdown()
        reference = rows[0][3]
        print(f"\n{players[0]} vs {players[1]}, {games} games")
        print(f"  {'':<32} {'wall s':>8} {'games/s':>8} {'CPU s':>8} {'CPU ms/game':>12}")
        for label, wall, cpu, result in rows:
            assert result == reference, f"{label}: other games than the local backend"
            print(
                f"  {label:<32} {wall:8.2f} {games / wall:8.1f} {cpu:8.2f} "
                f"{1000 * cpu / games:12.1f}"
            )


if __name__ == "__main__":
    main()
