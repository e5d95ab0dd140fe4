"""The model checker's engines side by side: full states and positions, one core and two.

Usage: ``.venv/bin/python benchmarks/bench_engines.py --config medium [--runs ...]``.

For one configuration it runs, one after the other in this process's machine conditions:

- ``memory``: the exact in-memory engine on full states (`check(rules)`);
- ``memory-positions``: the same by position (`check(rules, positions=True)`);
- ``disk-1``: the fingerprint engine by position, one process;
- ``disk-2``: the fingerprint engine by position, two worker processes;

and prints, for each: states, wall time, states/s (wall), the CPU time of this process and of
its worker processes, the speed-up of two workers over one, peak memory (all processes), bytes
per state of the state store (the fingerprint table for the disk engine), and the
fingerprint-collision probability. Absolute figures depend on what else the machine runs;
compare the rows of one run. On a busy machine the wall-clock speed-up of two workers says
little (the cores are shared with others): the CPU times show the work each process did, and
two workers can at best finish in the time of the busier of them.
"""

from __future__ import annotations

import argparse
import json
import resource
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
        cpu = time.process_time()
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        result = check(CONFIGS[args.config], **RUNS[name])
        wall = time.perf_counter() - start
        cpu = time.process_time() - cpu
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        workers_cpu = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
        rows[name] = {
            "result": result.result,
            "states": result.states,
            "wall_seconds": round(wall, 2),
            "cpu_seconds": round(cpu, 2),
            "workers_cpu_seconds": round(workers_cpu, 2),
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
            f"CPU {row['cpu_seconds']:,.1f} s + workers {row['workers_cpu_seconds']:,.1f} s "
            f"{row['peak_memory_mb']:>7,} MB  table {row['table_bytes_per_state']} B/state  "
            f"P(collision) {row['collision_probability']}",
            flush=True,
        )
    if "disk-1" in rows and "disk-2" in rows:
        speedup = rows["disk-1"]["wall_seconds"] / rows["disk-2"]["wall_seconds"]
        one = rows["disk-1"]["cpu_seconds"]
        two = rows["disk-2"]
        # On two cores, three busy processes finish no sooner than half their CPU time.
        total = two["workers_cpu_seconds"] + two["cpu_seconds"]
        bound = one / max(total / 2, two["cpu_seconds"])
        print(
            f"{args.config}: two workers over one: {speedup:.2f}x wall; CPU {one:.1f} s for one,"
            f" {two['workers_cpu_seconds']:.1f} s in two workers + {two['cpu_seconds']:.1f} s"
            f" coordinating: at most {bound:.2f}x on two idle cores"
        )
    if "memory" in rows and "memory-positions" in rows:
        factor = rows["memory"]["states"] / rows["memory-positions"]["states"]
        print(f"{args.config}: full states / positions: {factor:.2f}")
    if args.json:
        print(json.dumps({"config": args.config, "runs": rows}))


if __name__ == "__main__":
    main()
