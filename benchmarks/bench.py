"""Throughput of the rules engine: `make bench`.

Two modes.

``python benchmarks/bench.py [--games N] [--repeat R] [--json]`` plays complete seeded games with
uniformly random legal moves with the installed package and reports, for STANDARD and for a small
rule set: complete games per second, plies (moves) per second, and the mean cost of one
`legal_moves` and one `apply` call in microseconds. Single process, one core. Shared virtual
machines are noisy (other tenants steal CPU time), so every figure is measured over several short
repetitions: the best repetition is the engine's speed on an idle core, the median is what a
typical run sees.

``python benchmarks/bench.py --compare REV [--medium] [--rounds K] [--json]`` (what `make bench`
runs, against the previous release) measures the engine of this tree against the one of the git
revision REV, side by side, on the same machine, in one run. REV's ``src/`` is exported with
``git archive`` into a temporary directory; each workload then runs alternately with the old and
the new package, each in a fresh process that imports only that package (``PYTHONPATH``) and
runs the workload three times (``medium`` once; the best run counts), for K rounds, the order of
the two swapped every round. Workloads: random play on STANDARD and on
the small rule set (plies/s, the same seeded games for both), and the model checker on the named
configuration ``small`` (states/s), plus ``medium`` with ``--medium`` (about 30 s a run). Both
engines must play the same number of plies and find the same number of states, or the run fails.

Absolute figures on a busy machine say little; interleaving makes the ratio meaningful: both
engines see the same load, drifting or not, and the swapped order cancels a trend. The report
gives, per workload, the best and the median rate of each engine and their ratios (new / old),
and the spread of the per-round ratios.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hatsuden_rules import STANDARD, GameState, Move, Rules, apply, legal_moves, new_game

SMALL = Rules(energies=3, max_value=3, copies=2, hand_size=3, city_demand=6)
SMALL_NAME = "small (energies=3, max_value=3, copies=2, hand_size=3, city_demand=6)"
ROOT = Path(__file__).resolve().parent.parent  # the repository (or worktree) of this script


def play(rules: Rules, games: int, seed: int) -> tuple[float, int]:
    """Play `games` seeded random games; return (seconds, plies)."""
    choose = random.Random(seed).randrange
    plies = 0
    start = time.perf_counter()
    for game in range(games):
        state = new_game(seed=seed + game, rules=rules)
        while not state.is_over:
            moves = legal_moves(state)
            state = apply(state, moves[choose(len(moves))])
            plies += 1
    return time.perf_counter() - start, plies


def record(rules: Rules, games: int, seed: int) -> list[tuple[GameState, Move]]:
    """The (state, move) pairs of `games` random games, to time the two calls apart."""
    choose = random.Random(seed).randrange
    pairs = []
    for game in range(games):
        state = new_game(seed=seed + game, rules=rules)
        while not state.is_over:
            moves = legal_moves(state)
            move = moves[choose(len(moves))]
            pairs.append((state, move))
            state = apply(state, move)
    return pairs


def best_of(repeat: int, run: Callable[[], float]) -> float:
    return min(run() for _ in range(repeat))


def measure(name: str, rules: Rules, games: int, repeat: int) -> dict[str, float | str]:
    runs = sorted(play(rules, games, seed=1000 * r) for r in range(repeat))
    seconds, plies = runs[0]
    median_seconds, _ = runs[len(runs) // 2]
    pairs = record(rules, min(games, 300), seed=7)
    states = [state for state, _ in pairs]

    def time_legal() -> float:
        start = time.perf_counter()
        for state in states:
            legal_moves(state)
        return time.perf_counter() - start

    def time_apply() -> float:
        start = time.perf_counter()
        for state, move in pairs:
            apply(state, move)
        return time.perf_counter() - start

    return {
        "rules": name,
        "games_per_s": games / seconds,
        "games_per_s_median": games / median_seconds,
        "plies_per_s": plies / seconds,
        "plies_per_game": plies / games,
        "legal_moves_us": best_of(repeat, time_legal) / len(states) * 1e6,
        "apply_us": best_of(repeat, time_apply) / len(pairs) * 1e6,
    }


# -- side by side with another revision ---------------------------------------------------------


def worker(kind: str, target: str, games: int, runs: int) -> dict[str, Any]:
    """`runs` timed runs of a workload, with whatever `hatsuden_rules` this process imports.

    The workload uses only the public API of release 0.2.0, so both engines run the same code.
    Returns the work done and the best (shortest) run, by wall-clock and by CPU time.
    """
    import hatsuden_rules

    walls, cpus = [], []
    count = 0
    if kind == "random":
        rules = STANDARD if target == "STANDARD" else SMALL
        play(rules, max(1, games // 20), seed=99)  # warm up
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        if kind == "random":
            _, count = play(rules, games, seed=2017)
        else:
            from hatsuden_rules.modelcheck import CONFIGS, check

            result = check(CONFIGS[target])
            if result.result != "OK":
                raise SystemExit(f"model check {target}: {result.result}")
            count = result.states
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return {
        "package": str(Path(hatsuden_rules.__file__).resolve().parent),
        "seconds": min(walls),
        "cpu_seconds": min(cpus),
        "count": count,
    }


def export(revision: str, into: Path) -> str:
    """Extract `revision`'s ``src/`` into `into` (``git archive``); return its short hash."""
    git = ["git", "-C", str(ROOT)]
    try:
        short = subprocess.run(
            [*git, "rev-parse", "--short", f"{revision}^{{commit}}"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        archive = subprocess.run(
            [*git, "archive", "--format=tar", short, "src"], check=True, capture_output=True
        ).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        detail = getattr(error, "stderr", None) or error
        if isinstance(detail, bytes):
            detail = detail.decode(errors="replace")
        message = f"bench.py: cannot export {revision!r} with git: {str(detail).strip()}"
        raise SystemExit(message) from None
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return short


def this_tree() -> str:
    """This tree's label: its commit, and whether ``src/`` has uncommitted changes."""
    git = ["git", "-C", str(ROOT)]
    head = subprocess.run(
        [*git, "rev-parse", "--short", "HEAD"], check=False, capture_output=True, text=True
    ).stdout.strip()
    dirty = subprocess.run(
        [*git, "status", "--porcelain", "--", "src"], check=False, capture_output=True, text=True
    ).stdout.strip()
    return f"{head or 'this tree'}{' + uncommitted changes' if dirty else ''}"


def run_worker(src: Path, kind: str, target: str, games: int, runs: int) -> dict[str, Any]:
    """Run one workload in a fresh process importing the package from `src` only."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", kind, target]
    command += ["--games", str(games), "--runs", str(runs)]
    out = subprocess.run(command, check=True, capture_output=True, text=True, env=env).stdout
    sample: dict[str, Any] = json.loads(out)
    package = Path(sample["package"])
    if not package.is_relative_to(src.resolve()):
        raise SystemExit(f"the worker imported {package}, not the package in {src}")
    return sample


# (kind, target, name, unit, runs in each process: the best one counts)
WORKLOADS = [
    ("random", "STANDARD", "random play, STANDARD", "plies/s", 3),
    ("random", "small", "random play, small rules", "plies/s", 3),
    ("check", "small", "model check, small", "states/s", 3),
]
MEDIUM = ("check", "medium", "model check, medium", "states/s", 1)


def compare(revision: str, medium: bool, rounds: int, games: int, clock: str) -> dict[str, Any]:
    """Every workload, `rounds` times with each engine, interleaved; the samples and ratios."""
    workloads = [*WORKLOADS, MEDIUM] if medium else WORKLOADS
    load_before = os.getloadavg()
    results = []
    with tempfile.TemporaryDirectory(prefix="hatsuden-bench-") as tmp:
        old_label = export(revision, Path(tmp))
        sides = {"old": Path(tmp) / "src", "new": ROOT / "src"}
        for kind, target, name, unit, runs in workloads:
            rates: dict[str, dict[str, list[float]]] = {
                side: {"cpu": [], "wall": []} for side in sides
            }
            counts: set[int] = set()
            for r in range(rounds):
                for side in ("old", "new") if r % 2 == 0 else ("new", "old"):
                    sample = run_worker(sides[side], kind, target, games, runs)
                    rates[side]["cpu"].append(sample["count"] / sample["cpu_seconds"])
                    rates[side]["wall"].append(sample["count"] / sample["seconds"])
                    counts.add(sample["count"])
                print(f"  {name}: round {r + 1}/{rounds} done", file=sys.stderr)
            if len(counts) != 1:
                raise SystemExit(f"{name}: the two engines disagree on the work done: {counts}")
            old, new = rates["old"][clock], rates["new"][clock]
            results.append(
                {
                    "workload": name,
                    "unit": unit,
                    "count": counts.pop(),
                    "old": old,
                    "new": new,
                    "ratio_best": max(new) / max(old),
                    "ratio_median": statistics.median(new) / statistics.median(old),
                    "paired_ratios": [n / o for o, n in zip(old, new, strict=True)],
                    "rates": rates,
                }
            )
    return {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "old": revision if revision == old_label else f"{revision} ({old_label})",
        "new": this_tree(),
        "rounds": rounds,
        "games": games,
        "clock": clock,
        "load_average_before": load_before,
        "load_average_after": os.getloadavg(),
        "results": results,
    }


def print_comparison(report: dict[str, Any]) -> None:
    before, after = report["load_average_before"], report["load_average_after"]
    clock = "CPU time" if report["clock"] == "cpu" else "wall-clock time"
    print(
        f"Engine speed, side by side: old = {report['old']}, new = {report['new']}\n"
        f"Python {report['python']} on {report['machine']}, {report['cpus']} CPUs; "
        f"load average {before[0]:.2f} before, {after[0]:.2f} after.\n"
        f"{report['rounds']} interleaved rounds: every round runs each workload with each engine, "
        "each in a fresh process (best of 3 runs;\nmedium: 1), the order swapped every round, so "
        f"both engines see the same load; rates by the {clock} of each run.\nThe ratios "
        "(new / old) are meaningful even on a busy machine; the absolute rates are not.\n"
    )
    print(
        f"{'workload':<26} {'unit':<9} {'old best':>10} {'new best':>10} {'ratio':>6}   "
        f"{'old median':>10} {'new median':>10} {'ratio':>6}   per-round ratios"
    )
    for r in report["results"]:
        old, new, paired = r["old"], r["new"], r["paired_ratios"]
        print(
            f"{r['workload']:<26} {r['unit']:<9} {max(old):>10,.0f} {max(new):>10,.0f} "
            f"{r['ratio_best']:>5.2f}x   {statistics.median(old):>10,.0f} "
            f"{statistics.median(new):>10,.0f} {r['ratio_median']:>5.2f}x   "
            f"{min(paired):.2f}x-{max(paired):.2f}x"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=None, help="games per repetition or run")
    parser.add_argument("--repeat", type=int, default=15, help="repetitions (best and median)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--compare", metavar="REV", help="measure side by side with the engine of git revision REV"
    )
    parser.add_argument("--medium", action="store_true", help="--compare: also model-check medium")
    parser.add_argument("--rounds", type=int, default=7, help="--compare: interleaved rounds")
    parser.add_argument(
        "--clock",
        choices=("cpu", "wall"),
        default="cpu",
        help="--compare: rates by the CPU time of each run (default) or by wall-clock time",
    )
    parser.add_argument("--worker", nargs=2, metavar=("KIND", "TARGET"), help=argparse.SUPPRESS)
    parser.add_argument("--runs", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        kind, target = args.worker
        print(json.dumps(worker(kind, target, args.games or 400, args.runs)))
        return 0
    if args.compare:
        report = compare(args.compare, args.medium, args.rounds, args.games or 400, args.clock)
        if args.json:
            print(json.dumps(report, indent=2))
        else:
            print_comparison(report)
        return 0
    games = args.games or 400
    results = [
        measure("STANDARD", STANDARD, games, args.repeat),
        measure(SMALL_NAME, SMALL, games, args.repeat),
    ]
    if args.json:
        print(json.dumps({"python": platform.python_version(), "results": results}, indent=2))
        return 0
    print(f"Python {platform.python_version()} on {platform.machine()}, one process")
    for r in results:
        print(
            f"{r['rules']}\n"
            f"  {r['games_per_s']:8.0f} games/s   {r['plies_per_s']:9.0f} plies/s"
            f"   ({r['plies_per_game']:.1f} plies/game; median run {r['games_per_s_median']:.0f}"
            " games/s)\n"
            f"  legal_moves {r['legal_moves_us']:6.2f} us   apply {r['apply_us']:6.2f} us"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
