"""Model checker throughput in distinct states per second, checked and bare.

Usage: ``.venv/bin/python benchmarks/bench_check.py --config medium --runs 5 --bare``.

Runs `hatsuden_rules.modelcheck.check` on a configuration (whole, or its first N states) a few
times and prints the best and median rates, by wall clock and by CPU time of this process (the
machine is shared: CPU time is steadier). For comparison it also times the bare exploration the
checker cannot avoid: `legal_moves` and `apply` on every state and a dict of the states seen.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time

from hatsuden_rules import GameState, apply, legal_moves, new_game
from hatsuden_rules.modelcheck import CONFIGS, check


def bare(name: str, limit: int | None) -> int:
    """Breadth-first exploration without any check; returns the number of states found."""
    root = new_game(rules=CONFIGS[name])
    index: dict[GameState, int] = {root: 0}
    states = [root]
    i = 0
    gc.disable()
    try:
        while i < len(states) and (limit is None or len(states) <= limit):
            state = states[i]
            for move in legal_moves(state):
                after = apply(state, move)
                if after not in index:
                    index[after] = len(states)
                    states.append(after)
            i += 1
    finally:
        gc.enable()
    return len(states)


def main() -> None:
    """Time the checker (and the bare exploration) and print states/s."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--config", default="medium", choices=list(CONFIGS))
    parser.add_argument("--states", type=int, default=None, help="stop after N states")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--bare", action="store_true", help="also time the bare exploration")
    args = parser.parse_args()
    runs: dict[str, list[tuple[float, float]]] = {"check": [], "bare": []}
    for _ in range(args.runs):
        wall, cpu = time.perf_counter(), time.process_time()
        result = check(CONFIGS[args.config], max_states=args.states)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        runs["check"].append((result.states / wall, result.states / cpu))
        if args.bare:
            wall, cpu = time.perf_counter(), time.process_time()
            states = bare(args.config, args.states)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            runs["bare"].append((states / wall, states / cpu))
    for name, rates in runs.items():
        if rates:
            walls = [w for w, _ in rates]
            cpus = [c for _, c in rates]
            print(
                f"{name:<6} {args.config} {len(rates)} runs: states/s best {max(walls):,.0f} "
                f"median {statistics.median(walls):,.0f} (wall); best {max(cpus):,.0f} "
                f"median {statistics.median(cpus):,.0f} (CPU)"
            )


if __name__ == "__main__":
    main()
