"""The model checker's engines side by side: full states and positions, one core and two.

Usage: ``.venv/bin/python benchmarks/bench_engines.py --config medium [--runs ...]``.

For one configuration it runs, one after the other in this process's machine conditions:

- ``memory``: the exact in-memory engine on full states (`check(rules)`);
- ``memory-positions``: the same by position (`check(rules, positions=True)`);
- ``disk-1``: the fingerprint engine by position, one process;
- ``disk-2``: the fingerprint engine by position, two worker processes;

and prints, for each: states, wall time, states/s (wall), the speed-up of two workers over
one, peak memory (all processes), bytes per state of the state store (the fingerprint table
for the disk engine), and the fingerprint-collision probability. Absolute figures depend on
what else the machine runs; compare the rows of one run.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from hatsuden_rules.modelcheck import CONFIGS, check

RUNS: dict[str, dict[str, Any]] = {
    "memory": {"positions": False},
    "memory-positions": {"positions": True},
    "disk-1": {"positions": True, "engine": "disk", "workers": 1},
    "disk-2": {"positions": True, "engine": "disk", "workers": 2},
}


def main() -> None:
    """Run the engines on one configuration and print a row each (and JSON with --json)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--config", default="medium", choices=list(CONFIGS))
    parser.add_argument("--runs", default=",".join(RUNS), help=", ".join(RUNS))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows: dict[str, dict[str, Any]] = {}
    for name in args.runs.split(","):
        start = time.perf_counter()
        result = check(CONFIGS[args.config], **RUNS[name])
        wall = time.perf_counter() - start
        rows[name] = {
            "result": result.result,
            "states": result.states,
            "wall_seconds": round(wall, 2),
            "states_per_second": round(result.states / wall),
            "peak_memory_mb": round(result.peak_memory_mb),
            "table_bytes_per_state": round(result.table_bytes / result.states, 1)
            if result.table_bytes
            else None,
            "collision_probability": result.collision_probability,
        }
        row = rows[name]
        print(
            f"{args.config:<7} {name:<17} {row['result']:<10} {row['states']:>12,} states "
            f"{row['wall_seconds']:>9,.1f} s {row['states_per_second']:>8,} states/s "
            f"{row['peak_memory_mb']:>7,} MB  table {row['table_bytes_per_state']} B/state  "
            f"P(collision) {row['collision_probability']}",
            flush=True,
        )
    if "disk-1" in rows and "disk-2" in rows:
        speedup = rows["disk-1"]["wall_seconds"] / rows["disk-2"]["wall_seconds"]
        print(f"{args.config}: two workers over one: {speedup:.2f}x")
    if "memory" in rows and "memory-positions" in rows:
        factor = rows["memory"]["states"] / rows["memory-positions"]["states"]
        print(f"{args.config}: full states / positions: {factor:.2f}")
    if args.json:
        print(json.dumps({"config": args.config, "runs": rows}))


if __name__ == "__main__":
    main()
