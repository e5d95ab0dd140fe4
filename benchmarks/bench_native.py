"""The native core against the Python engine, side by side in one run (issue 20).

``python benchmarks/bench_native.py [--games N] [--rounds K] [--json]`` needs the native core
(``make native``). Workloads, each run alternately on both cores for K rounds (best and median):

- random playouts on STANDARD: N complete seeded games (``new_game(seed=k)``, k < N), every
  choice drawn with the portable sampler (R32, R33) from ``SplitMix64(k)``; the Python engine
  plays exactly the games the native core plays (the plies must match, or the run fails). Also
  the Python engine with ``random.Random(k).choice`` (its fastest random play), the native core
  called once per game, and the native core stepped ply by ply from Python
  (``NativeState.apply_index``: the cost of crossing the boundary at every ply);
- perft on STANDARD from a dealt seeded state (``new_game(seed=2026)``), plain recursion;
- perft on the model checker's ``medium`` configuration from ``new_game(rules=medium)``
  (explicit chance), against plain recursion in Python and against
  ``hatsuden_rules.modelcheck.perft``, which merges transpositions layer by layer (less work).

Rates are per second of wall time on one core. Shared virtual machines are noisy: interleaving
the cores makes the ratios meaningful, the absolute figures less so.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable

from hatsuden_rules import (
    Deal,
    GameState,
    SplitMix64,
    apply,
    chance_outcomes,
    legal_moves,
    new_game,
    sample,
)
from hatsuden_rules import native as facade
from hatsuden_rules.modelcheck import CONFIGS
from hatsuden_rules.modelcheck import perft as merged_perft


def python_sampler_game(state: GameState, rng: SplitMix64) -> int:
    """A random game drawn as the native core draws it; returns its plies."""
    plies = 0
    while not state.is_over:
        if state.phase.name == "CHANCE":
            outcomes = chance_outcomes(state)
            total = state.deck_size if isinstance(outcomes[0][0], Deal) else len(outcomes)
            index, rng = sample([int(p * total) for _, p in outcomes], rng)
            move = outcomes[index][0]
        else:
            moves = legal_moves(state)
            index, rng = sample([1] * len(moves), rng)
            move = moves[index]
        state = apply(state, move)
        plies += 1
    return plies


def python_choice_game(state: GameState, rng: random.Random) -> int:
    plies = 0
    while not state.is_over:
        state = apply(state, rng.choice(legal_moves(state)))
        plies += 1
    return plies


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


def timed(work: Callable[[], int]) -> tuple[int, float]:
    start = time.perf_counter()
    units = work()
    return units, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_native", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games per playout run (300)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (3)")
    parser.add_argument("--standard-depth", type=int, default=5)
    parser.add_argument("--medium-depth", type=int, default=12)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    facade.load()  # the native core, checked to implement this RULES_VERSION
    import hatsuden_native as native
    from hatsuden_native import NativeState

    games = range(args.games)
    python_states = [new_game(seed=k) for k in games]
    native_states = [NativeState.new_game(None, k) for k in games]
    root = NativeState.new_game(None, 2026)
    medium = CONFIGS["medium"]
    medium_root = new_game(rules=medium)

    def py_sampler() -> int:
        return sum(
            python_sampler_game(s, SplitMix64.from_seed(k)) for k, s in enumerate(python_states)
        )

    def py_choice() -> int:
        return sum(python_choice_game(s, random.Random(k)) for k, s in enumerate(python_states))

    def nat_per_game() -> int:
        return sum(native.playouts(s, 1, k).plies for k, s in enumerate(native_states))

    def nat_one_call() -> int:
        return native.playouts(native_states[0], 20 * args.games, 1).plies

    def nat_stepped() -> int:
        plies = 0
        for k, start in enumerate(native_states):
            g, state = random.Random(k), start
            while not state.is_terminal:
                state = state.apply_index(g.randrange(state.legal_move_count()))
                plies += 1
        return plies

    def nodes(counts: list[int]) -> int:
        return sum(counts)

    standard = new_game(seed=2026)
    workloads: dict[str, dict[str, Callable[[], int]]] = {
        "random playouts, STANDARD (plies/s)": {
            "python (portable sampler)": py_sampler,
            "python (random.choice)": py_choice,
            "native, stepped from Python": nat_stepped,
            "native, one call per game": nat_per_game,
            "native, one call for all": nat_one_call,
        },
        f"perft STANDARD seeded, depth {args.standard_depth} (nodes/s)": {
            "python (recursion)": lambda: nodes(python_perft(standard, args.standard_depth)),
            "native": lambda: nodes(native.perft(root, args.standard_depth)),
        },
        f"perft medium, depth {args.medium_depth} (nodes/s)": {
            "python (recursion)": lambda: nodes(python_perft(medium_root, args.medium_depth)),
            "python (modelcheck.perft, merged)": lambda: nodes(
                merged_perft(medium, args.medium_depth)
            ),
            "native": lambda: nodes(facade.perft(medium_root, args.medium_depth)),
        },
    }
    # The same games on both cores (the sampler is portable), the same paths on both.
    assert py_sampler() == nat_per_game(), "the cores played different games"
    assert python_perft(standard, 3) == native.perft(root, 3)

    results: dict[str, dict[str, dict[str, float]]] = {}
    for workload, runs in workloads.items():
        rates: dict[str, list[float]] = {name: [] for name in runs}
        units_seen: dict[str, int] = {}
        for round_ in range(args.rounds):
            order = list(runs) if round_ % 2 == 0 else list(reversed(runs))
            for name in order:
                work = runs[name]
                units, seconds = timed(work)
                repeats = 1
                while seconds * repeats < 0.5 and name.startswith("native"):  # too short once
                    repeats *= 4
                    start = time.perf_counter()
                    for _ in range(repeats):
                        work()
                    seconds = (time.perf_counter() - start) / repeats
                units_seen[name] = units
                rates[name].append(units / seconds)
        base = max(statistics.median(v) for n, v in rates.items() if n.startswith("python"))
        results[workload] = {
            name: {
                "units": units_seen[name],
                "best": max(v),
                "median": statistics.median(v),
                "x_fastest_python": statistics.median(v) / base,
            }
            for name, v in rates.items()
        }

    if args.json:
        print(json.dumps(results, indent=1))
        return 0
    print(
        f"hatsuden-native {native.__version__} (state: {native.STATE_SIZE_BYTES} bytes) vs the "
        f"Python engine; {platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}; {args.rounds} alternating rounds, wall time, one core; "
        "shared machine"
    )
    for workload, by_name in results.items():
        print(f"\n{workload}")
        print(f"| {'core':34} | {'units':>9} | {'best':>13} | {'median':>13} | {'x python':>8} |")
        print(f"|{'-' * 36}|{'-' * 11}|{'-' * 15}|{'-' * 15}|{'-' * 10}|")
        for name, figures in by_name.items():
            print(
                f"| {name:34} | {figures['units']:>9,.0f} | {figures['best']:>13,.0f} | "
                f"{figures['median']:>13,.0f} | {figures['x_fastest_python']:>8.1f} |"
            )
    print("\n'x python': median rate / the fastest Python engine's median rate on that workload.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
