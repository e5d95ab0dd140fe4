"""Random-play throughput of the rules engine: `make bench`.

Plays complete seeded games with uniformly random legal moves and reports, for STANDARD and for
a small rule set: complete games per second, plies (player moves) per second, and the mean cost
of one `legal_moves` and one `apply` call in microseconds. Single process, one core.

Shared virtual machines are noisy (other tenants steal CPU time), so every figure is measured
over several short repetitions: the best repetition is the engine's speed on an idle core, the
median is what a typical run sees. Both are printed.

    python benchmarks/bench.py [--games N] [--repeat R] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable

from hatsuden_rules import STANDARD, GameState, Move, Rules, apply, legal_moves, new_game

SMALL = Rules(energies=3, max_value=3, copies=2, hand_size=3, city_demand=6)


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=400, help="games per repetition")
    parser.add_argument("--repeat", type=int, default=15, help="repetitions (best and median)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    results = [
        measure("STANDARD", STANDARD, args.games, args.repeat),
        measure(
            "small (energies=3, max_value=3, copies=2, hand_size=3, city_demand=6)",
            SMALL,
            args.games,
            args.repeat,
        ),
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
