"""The commands on both cores, side by side in one run: simulate, perft, ISMCTS (issue 20).

``python benchmarks/bench_bots.py [--games N] [--rounds K] [--json]`` needs the native core
(``make native``). Each workload runs on both cores alternately for K rounds; rates are per
second of CPU time of this process (``time.process_time``: the native core runs in this thread),
so a machine shared with other jobs slows both cores alike and the ratios stay meaningful.

- ``hatsuden simulate --players random,random --jobs 1`` and ``greedy,random``: `run_match`
  and `summarize` with ``core="python"`` and ``core="native"`` (the same games: checked);
- ``hatsuden-check --perft N``: what ``--core python`` runs (``modelcheck.perft``, which merges
  transpositions layer by layer), plain recursion in Python, and ``--core native``, on STANDARD
  (depth 5) and on ``medium`` (depth 14), from ``new_game(rules)`` (explicit chance);
- ISMCTS: iterations per CPU second of one search from positions of seeded greedy games, the
  Python search and the native one (``ismcts:core=native``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable

from hatsuden_rules import (
    STANDARD,
    GameState,
    Rules,
    SplitMix64,
    apply,
    legal_moves,
    legal_moves_from,
    new_game,
    observe,
)
from hatsuden_rules import native as facade
from hatsuden_rules.modelcheck import CONFIGS
from hatsuden_rules.modelcheck import perft as merged_perft
from hatsuden_rules.players import GreedyPlayer, ISMCTSPlayer
from hatsuden_rules.simulation import run_match, summarize


def python_perft(state: GameState, depth: int) -> list[int]:
    counts = [0] * depth

    def walk(s: GameState, level: int) -> None:
        moves = legal_moves(s)
        counts[level] += len(moves)
        if level + 1 < depth:
            for move in moves:
                walk(apply(s, move), level + 1)

    walk(state, 0)
    return counts


def match_plies(players: tuple[str, str], games: int, core: str) -> int:
    played = run_match(players, games=games, seed=2026, jobs=1, core=core)
    summarize(played)
    return sum(game.plies for game in played)


def positions(count: int) -> list[GameState]:
    """Decisions of seeded greedy self-play games (ACTION and DRAW decisions)."""
    out: list[GameState] = []
    seed = 0
    while len(out) < count:
        state = new_game(seed=seed)
        rng = SplitMix64.from_seed(seed)
        ply = 0
        while not state.is_over:
            moves = legal_moves(state)
            value, rng = rng.next()
            if len(moves) > 2 and ply % 9 == 0 and len(out) < count:
                out.append(state)
            seen = observe(state, state.current_player)
            move = moves[0] if len(moves) == 1 else GreedyPlayer().choose(seen, moves, value)
            state = apply(state, move)
            ply += 1
        seed += 1
    return out


def cpu(work: Callable[[], int]) -> tuple[int, float]:
    start = time.process_time()
    units = work()
    return units, time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_bots", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40, help="python games per match (40)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (3)")
    parser.add_argument("--standard-depth", type=int, default=5)
    parser.add_argument("--medium-depth", type=int, default=14)
    parser.add_argument("--positions", type=int, default=12, help="ISMCTS positions (12)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    module = facade.load()
    n = args.games
    medium: Rules = CONFIGS["medium"]
    standard_root, medium_root = new_game(rules=STANDARD), new_game(rules=medium)
    native_standard, native_medium = facade.to_native(standard_root), facade.to_native(medium_root)
    # Positions where the search really searches (its pruned root keeps two moves or more).
    searched = [
        (k, seen)
        for k, state in enumerate(positions(args.positions))
        if facade.ismcts_search(
            seen := observe(state, state.current_player),
            SplitMix64(k).next()[0],
            {"iterations": 20},
        )[1]
        == 20
    ]

    # The same games and the same counts on both cores.
    for pair in (("random", "random"), ("greedy", "random")):
        assert run_match(pair, games=6, seed=2026, jobs=1) == run_match(
            pair, games=6, seed=2026, jobs=1, core="native"
        ), pair
    assert merged_perft(STANDARD, 4) == facade.perft(native_standard, 4)

    def ismcts(core: str, iterations: int) -> Callable[[], int]:
        player = ISMCTSPlayer(iterations=iterations, core=core)

        def run() -> int:
            for k, seen in searched:
                player.choose(seen, legal_moves_from(seen), SplitMix64(k))
            return iterations * len(searched)

        return run

    depth_s, depth_m = args.standard_depth, args.medium_depth
    workloads: dict[str, dict[str, Callable[[], int]]] = {
        "simulate random,random (plies/s)": {
            "python": lambda: match_plies(("random", "random"), n, "python"),
            "native": lambda: match_plies(("random", "random"), 50 * n, "native"),
        },
        "simulate greedy,random (plies/s)": {
            "python": lambda: match_plies(("greedy", "random"), max(2, n // 4), "python"),
            "native": lambda: match_plies(("greedy", "random"), 5 * n, "native"),
        },
        f"perft STANDARD 1-{depth_s} from new_game() (nodes/s)": {
            "python (check --perft: merged)": lambda: sum(merged_perft(STANDARD, depth_s)),
            "python (plain recursion)": lambda: sum(python_perft(standard_root, depth_s)),
            "native (check --perft --core native)": lambda: sum(
                facade.perft(native_standard, depth_s)
            ),
        },
        f"perft medium 1-{depth_m} from new_game() (nodes/s)": {
            "python (check --perft: merged)": lambda: sum(merged_perft(medium, depth_m)),
            "python (plain recursion)": lambda: sum(python_perft(medium_root, depth_m)),
            "native (check --perft --core native)": lambda: sum(
                facade.perft(native_medium, depth_m)
            ),
        },
        "ISMCTS search, STANDARD (iterations/s)": {
            "python": ismcts("python", 100),
            "native": ismcts("native", 3000),
        },
    }
    results: dict[str, dict[str, dict[str, float]]] = {}
    for workload, runs in workloads.items():
        rates: dict[str, list[float]] = {name: [] for name in runs}
        units_seen: dict[str, int] = {}
        for round_ in range(args.rounds):
            order = list(runs) if round_ % 2 == 0 else list(reversed(runs))
            for name in order:
                units, seconds = cpu(runs[name])
                units_seen[name] = units
                rates[name].append(units / max(seconds, 1e-9))
        base = statistics.median(rates[next(iter(runs))])
        results[workload] = {
            name: {
                "units": units_seen[name],
                "median": statistics.median(v),
                "best": max(v),
                "x_python": statistics.median(v) / base,
            }
            for name, v in rates.items()
        }
    load = os.getloadavg() if hasattr(os, "getloadavg") else "?"
    if args.json:
        print(json.dumps({"load": load, "results": results}, indent=1))
        return 0
    print(
        f"hatsuden-native {module.__version__} (state: {module.STATE_SIZE_BYTES} bytes); "
        f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}; "
        f"{args.rounds} alternating rounds, CPU time of this process; load average {load}"
    )
    for workload, by_name in results.items():
        print(f"\n{workload}")
        print(f"| {'core':38} | {'units':>11} | {'median':>13} | {'x first':>8} |")
        print(f"|{'-' * 40}|{'-' * 13}|{'-' * 15}|{'-' * 10}|")
        for name, figures in by_name.items():
            print(
                f"| {name:38} | {figures['units']:>11,.0f} | {figures['median']:>13,.0f} | "
                f"{figures['x_python']:>8.1f} |"
            )
    print("\n'x first': median rate / the median rate of the workload's first (Python) line.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
