"""``make verify-native-ray``: the distributed checker on a named configuration (default
``choice``), with 1, 2 and 4 Ray workers on a local Ray, against the single-process native run;
prints the wall time, the bytes sent, bytes and microseconds per state (VERIFICATION.md).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from hatsuden_rules.modelcheck import CONFIGS, POSITION_CONFIGS
from hatsuden_rules.modelcheck._native import native_check, result_from_json
from hatsuden_rules.modelcheck._ray import RayStats, ray_check

from .check_compare import comparable


def main(argv: Sequence[str] | None = None) -> int:
    """Run the comparison; exit 1 if any distributed run differs."""
    parser = argparse.ArgumentParser(prog="python -m tests.native.verify_ray")
    parser.add_argument("config", nargs="?", default="choice")
    parser.add_argument("--workers", type=int, nargs="*", default=[1, 2, 4])
    args = parser.parse_args(argv)
    import ray

    rules, positions = CONFIGS[args.config], args.config in POSITION_CONFIGS
    import resource

    started = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_SELF)
    single = native_check(rules, positions=positions, workers=1)
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    print(
        f"{args.config}: single process, 1 thread: {single.states:,} states,"
        f" {single.transitions:,} transitions, {time.monotonic() - started:.1f} s,"
        f" CPU {1e6 * cpu / single.states:.1f} us per state, {single.result}",
        flush=True,
    )
    ray.init(num_cpus=max(args.workers), include_dashboard=False, log_to_driver=False)
    failed = 0
    try:
        for workers in args.workers:
            stats = RayStats()
            document = ray_check(rules, positions=positions, workers=workers, stats=stats)
            found = result_from_json(document, rules)
            same = comparable(found) == comparable(single)
            failed += not same
            figures = stats.as_dict()
            print(
                f"{args.config}: ray, {workers} worker(s): {'same' if same else 'DIFFERENT'};"
                f" {figures['seconds']:.1f} s, {stats.bytes_sent:,} bytes sent"
                f" ({figures['bytes_per_state']:.1f} per state: successors"
                f" {stats.bytes_successors / max(stats.states, 1):.1f}, codes"
                f" {stats.bytes_codes / max(stats.states, 1):.1f}, termination"
                f" {stats.bytes_termination / max(stats.states, 1):.1f}),"
                f" {figures['microseconds_per_state']:.1f} us per state, workers' CPU"
                f" {figures['cpu_microseconds_per_state']:.1f} us per state (driver"
                f" {stats.seconds_driver:.1f} s, termination {stats.seconds_termination:.1f} s),"
                f" peak {document['peak_memory_mb']:.0f} MB per worker",
                flush=True,
            )
    finally:
        ray.shutdown()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
