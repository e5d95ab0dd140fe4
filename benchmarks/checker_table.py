"""The native checker's figures for issue 21, in one run: the table VERIFICATION.md quotes.

Usage: ``.venv/bin/python benchmarks/checker_table.py [--configs small medium large choice]
[--rounds 2] [--python-rounds 1] [--huge RESULT.json] [--json]`` (needs ``make native``).

For each configuration, ``hatsuden-check --config NAME --core native --workers W --json`` with
one and two workers, `--rounds` times each, alternating: positions (or states), transitions,
the search's own seconds (the JSON's ``seconds``, as for the Python checker) and the process's
wall and CPU time, the rate on one and two workers, peak memory and bytes per position, the
collision probability. On ``choice`` (or the last configuration given) the Python fingerprint
engine runs in between (``--workers 2``): the ratio of the rates, side by side, is the issue's
"30x" figure. ``--huge FILE`` adds a row read from the JSON of a ``make verify-huge`` run
(``hatsuden-native-check ... --json > FILE``), which takes about an hour.

The machine is shared: say its load (printed) and compare only figures of one run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

CHECK = str(Path(sys.executable).with_name("hatsuden-check"))


def _run(arguments: list[str]) -> dict[str, Any]:
    """One checker run: its JSON, plus the process's wall and CPU seconds and peak RSS."""
    start = time.perf_counter()
    process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert process.stdout is not None
    out = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    if process.returncode != 0:
        raise SystemExit(f"checker_table: {' '.join(arguments)} exited {process.returncode}")
    figures: dict[str, Any] = json.loads(out)
    figures["wall"] = wall
    figures["cpu"] = usage.ru_utime + usage.ru_stime
    figures["rss_mb"] = usage.ru_maxrss / 1024
    return figures


def _native(config: str, workers: int) -> dict[str, Any]:
    command = [CHECK, "--config", config, "--core", "native", "--workers", str(workers), "--json"]
    return _run(command)


def _python(config: str) -> dict[str, Any]:
    return _run([CHECK, "--config", config, "--workers", "2", "--json"])


def _count(figures: dict[str, Any]) -> int:
    return int(figures["states"])


def _row(config: str, one: list[dict[str, Any]], two: list[dict[str, Any]]) -> dict[str, Any]:
    first = two[0]
    count = _count(first)
    best_one = min(run["seconds"] for run in one)
    best_two = min(run["seconds"] for run in two)
    rss = max(run["rss_mb"] for run in one + two)
    return {
        "config": config,
        "kind": "positions" if first["positions"] else "states",
        "count": count,
        "transitions": first["transitions"],
        "seconds_1": best_one,
        "seconds_2": best_two,
        "rate_1": count / best_one,
        "rate_2": count / best_two,
        "wall_2": min(run["wall"] for run in two),
        "cpu_2": statistics.median(run["cpu"] for run in two),
        "peak_mb": rss,
        "bytes_per": rss * 2**20 / count,
        "collision": first["collision_probability"],
        "result": first["result"],
    }


def _huge(path: Path) -> dict[str, Any]:
    figures = json.loads(path.read_text(encoding="utf-8"))
    unreduced = figures.get("unreduced") or {}
    count = int(unreduced.get("states", figures["states"]))
    seconds = float(figures["seconds"])
    peak = float(figures["peak_memory_mb"])
    return {
        "config": "huge",
        "kind": "positions",
        "count": count,
        "transitions": unreduced.get("transitions", figures["transitions"]),
        "seconds_1": None,
        "seconds_2": seconds,
        "rate_1": None,
        "rate_2": count / seconds,
        "wall_2": seconds,
        "cpu_2": None,
        "peak_mb": peak,
        "bytes_per": peak * 2**20 / count,
        "collision": figures["collision_probability"],
        "result": figures["result"],
    }


def _cell(value: float | None, form: str) -> str:
    return "" if value is None else format(value, form)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the configurations and print the table (or ``--json``)."""
    parser = argparse.ArgumentParser(prog="benchmarks/checker_table.py")
    parser.add_argument("--configs", nargs="+", default=["small", "medium", "large", "choice"])
    parser.add_argument("--rounds", type=int, default=2, help="native runs per worker count")
    parser.add_argument("--python-rounds", type=int, default=1, help="Python runs on choice")
    parser.add_argument("--huge", type=Path, help="the JSON of a make verify-huge run")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    compared = "choice" if "choice" in args.configs else args.configs[-1]
    rows: list[dict[str, Any]] = []
    python_runs: list[dict[str, Any]] = []
    native_compared: list[dict[str, Any]] = []
    for config in args.configs:
        one: list[dict[str, Any]] = []
        two: list[dict[str, Any]] = []
        for _ in range(args.rounds):
            one.append(_native(config, 1))
            two.append(_native(config, 2))
            if config == compared and len(python_runs) < args.python_rounds:
                python_runs.append(_python(config))
                two.append(_native(config, 2))
        rows.append(_row(config, one, two))
        if config == compared:
            native_compared = two
    if args.huge:
        rows.append(_huge(args.huge))
    ratio = None
    if python_runs:
        python_rate = max(_count(run) / run["seconds"] for run in python_runs)
        native_rate = max(_count(run) / run["seconds"] for run in native_compared)
        cpu = statistics.median(run["cpu"] for run in python_runs) / statistics.median(
            run["cpu"] for run in native_compared
        )
        ratio = {
            "config": compared,
            "python_rate": python_rate,
            "native_rate": native_rate,
            "ratio": native_rate / python_rate,
            "cpu_ratio": cpu,
        }
    load_after = os.getloadavg()[0]
    if args.json:
        print(json.dumps({"load": [load, load_after], "rows": rows, "python": ratio}, indent=2))
        return 0
    print(f"load average {load:.2f} at the start, {load_after:.2f} at the end", end="")
    print(f"; best of {args.rounds}")
    print(
        "| config | positions / states | transitions | rate 1 worker | rate 2 workers | "
        "search s (2 w) | wall s (2 w) | CPU s (2 w) | peak MB | bytes each | P(collision) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        print(
            f"| {row['config']} | {row['count']:,} {row['kind']} | {row['transitions']:,} "
            f"| {_cell(row['rate_1'], ',.0f')}/s | {row['rate_2']:,.0f}/s "
            f"| {row['seconds_2']:.2f} | {row['wall_2']:.2f} | {_cell(row['cpu_2'], '.2f')} "
            f"| {row['peak_mb']:,.0f} | {row['bytes_per']:.0f} | {_cell(row['collision'], '.1e')} |"
        )
    if ratio:
        print(
            f"\n{ratio['config']}, side by side (2 workers each): native "
            f"{ratio['native_rate']:,.0f}/s, Python {ratio['python_rate']:,.0f}/s: "
            f"{ratio['ratio']:.1f}x by rate, {ratio['cpu_ratio']:.1f}x by CPU seconds"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
