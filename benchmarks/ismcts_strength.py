"""Native ISMCTS against Python ISMCTS at equal CPU time per move (issue 20).

``python benchmarks/ismcts_strength.py [--games 200] [--ms 50] [--jobs 2]`` needs the native core
(``make native``). Equal time per move is set by iteration budgets, not by wall-clock limits
(which a loaded machine makes unfair and irreproducible): both searches are first timed in CPU
seconds on the same positions (iterations per CPU second), then each gets the iterations that
fill ``--ms`` milliseconds of CPU a decision. The match is ``hatsuden simulate`` (seats swapped
in every pair of games, deals shared by pairs), so it is reproducible from its seed; the result is
the native player's win rate with its 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from hatsuden_rules import Observation, SplitMix64, legal_moves_from, observe
from hatsuden_rules import native as facade
from hatsuden_rules.players import ISMCTSPlayer
from hatsuden_rules.simulation import run_match, summarize

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from bench_bots import positions


def rate(core: str, iterations: int, searched: list[tuple[int, Observation]]) -> float:
    """Iterations per CPU second of `core`'s search on `searched`."""
    player = ISMCTSPlayer(iterations=iterations, core=core)
    start = time.process_time()
    for k, seen in searched:
        player.choose(seen, legal_moves_from(seen), SplitMix64(k))
    return iterations * len(searched) / (time.process_time() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ismcts_strength", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--ms", type=float, default=50.0, help="CPU ms per decision (50)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    facade.load()
    searched = []
    for k, state in enumerate(positions(10)):
        seen = observe(state, state.current_player)
        if facade.ismcts_search(seen, SplitMix64(k).next()[0], {"iterations": 20})[1] == 20:
            searched.append((k, seen))
    python_rate = rate("python", 100, searched)
    native_rate = rate("native", 3000, searched)
    python_iterations = max(1, round(python_rate * args.ms / 1000))
    native_iterations = max(1, round(native_rate * args.ms / 1000))
    players = (
        f"ismcts:core=native:iterations={native_iterations}",
        f"ismcts:iterations={python_iterations}",
    )
    start = time.time()
    games = run_match(players, games=args.games, seed=args.seed, jobs=args.jobs)
    summary = summarize(games)
    low, high = summary.win_interval(0)
    load = os.getloadavg()
    print(
        json.dumps(
            {
                "cpu_ms_per_decision": args.ms,
                "iterations_per_cpu_second": {"python": python_rate, "native": native_rate},
                "players": list(players),
                "games": summary.games,
                "native_wins": summary.wins[0],
                "native_win_rate": summary.wins[0] / summary.games,
                "native_win_rate_ci95": [low, high],
                "seconds_per_decision": list(summary.seconds_per_decision),
                "wall_seconds": time.time() - start,
                "load_average": load,
            },
            indent=1,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
