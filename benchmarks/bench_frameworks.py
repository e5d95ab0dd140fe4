"""The framework adapters against the library, side by side in one run: `make bench-frameworks`.

On the printed game (STANDARD), single process, one core:

- **direct**: random games with the library alone (`new_game` in explicit chance mode, chance
  outcomes drawn by their probabilities, `legal_moves` and `apply`);
- **adapter**: the same random play through OpenSpiel's API (``legal_actions``,
  ``chance_outcomes``, ``apply_action`` on ``python_hatsuden``);
- **random_sim_test**: `pyspiel.random_sim_test`, which also checks every state (clones,
  information states and observations of both players, masks; ``--serialize`` adds OpenSpiel's
  serialisation round trips);
- **pettingzoo**: random games through the PettingZoo environment (observation tensor and
  action mask every step);
- per-call costs: ``state.clone()``, ``apply_action``, the information-state string and tensor.

Every figure is the best and the median of several repetitions (noisy shared machines: the best
is the speed on an idle core). Ratios are taken between figures of the same run.

    python benchmarks/bench_frameworks.py [--games N] [--repeat R] [--serialize] [--json]
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
from typing import Any

import numpy as np
import pyspiel

import hatsuden_rules.openspiel  # noqa: F401 (registers python_hatsuden)
from hatsuden_rules import (
    STANDARD,
    Phase,
    apply,
    chance_outcomes,
    legal_moves,
    new_game,
    observation_tensor,
    observe,
)
from hatsuden_rules.pettingzoo import env


def direct(games: int, seed: int) -> tuple[int, int]:
    """Random games with the library alone; (player moves, chance outcomes)."""
    rng = random.Random(seed)
    moves = outcomes = 0
    for _ in range(games):
        state = new_game(rules=STANDARD)
        while not state.is_over:
            if state.phase is Phase.CHANCE:
                choices, weights = zip(*chance_outcomes(state), strict=True)
                state = apply(state, rng.choices(choices, weights)[0])
                outcomes += 1
            else:
                state = apply(state, rng.choice(legal_moves(state)))
                moves += 1
    return moves, outcomes


def adapter(game: Any, games: int, seed: int) -> tuple[int, int]:
    """Random games through the OpenSpiel API; (player moves, chance outcomes)."""
    rng = random.Random(seed)
    moves = outcomes = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                choices, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(choices, weights)[0])
                outcomes += 1
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                moves += 1
    return moves, outcomes


def pettingzoo(games: int, seed: int) -> tuple[int, int]:
    """Random games through the PettingZoo environment (seeded chance); (steps, 0)."""
    rng = np.random.default_rng(seed)
    game = env()
    steps = 0
    for number in range(games):
        game.reset(seed=seed + number)
        for _ in game.agent_iter():
            observation, _, termination, truncation, _ = game.last()
            if termination or truncation:
                game.step(None)
            else:
                game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
                steps += 1
    return steps, 0


def timed(run: Callable[[], object], repeat: int) -> tuple[float, float, object]:
    """(best seconds, median seconds, last result) over `repeat` runs."""
    times = []
    result: object = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times), result


def per_call(run: Callable[[], object], calls: int, repeat: int) -> tuple[float, float]:
    """(best, median) microseconds per call."""
    best, median, _ = timed(lambda: [run() for _ in range(calls)], repeat)
    return best / calls * 1e6, median / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per repetition")
    parser.add_argument("--sim-games", type=int, default=10, help="random_sim_test games")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--serialize", action="store_true", help="random_sim_test serialize=True")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    game = pyspiel.load_game("python_hatsuden")
    figures: dict[str, Any] = {
        "python": sys.version.split()[0],
        "machine": platform.machine(),
        "open_spiel": _version("open_spiel"),
        "pettingzoo": _version("pettingzoo"),
    }

    rows = [
        ("direct", lambda: direct(args.games, 1), args.games),
        ("adapter", lambda: adapter(game, args.games, 1), args.games),
        ("pettingzoo", lambda: pettingzoo(args.games, 1), args.games),
        (
            "random_sim_test",
            lambda: pyspiel.random_sim_test(
                game, num_sims=args.sim_games, serialize=args.serialize, verbose=False
            ),
            args.sim_games,
        ),
    ]
    for name, run, games in rows:
        best, median, result = timed(run, args.repeat)
        entry: dict[str, Any] = {
            "games_per_s_best": games / best,
            "games_per_s_median": games / median,
        }
        if isinstance(result, tuple):
            entry["moves_per_game"] = result[0] / games
            entry["moves_per_s_best"] = result[0] / best
        figures[name] = entry
    base = figures["direct"]["games_per_s_best"]
    for name in ("adapter", "pettingzoo", "random_sim_test"):
        figures[name]["slowdown_vs_direct"] = base / figures[name]["games_per_s_best"]
    figures["adapter"]["moves_slowdown_vs_direct"] = (
        figures["direct"]["moves_per_s_best"] / figures["adapter"]["moves_per_s_best"]
    )

    # Per-call costs on a mid-game decision state.
    state = game.new_initial_state()
    rng = random.Random(7)
    while state.is_chance_node() or len(state.history()) < 60:
        if state.is_chance_node():
            choices, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(choices, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    library = state.game_state
    action = state.legal_actions()[0]
    move = legal_moves(library)[0]
    calls = 2000
    figures["per_call_us"] = {
        "clone": per_call(state.clone, calls, args.repeat),
        "clone_then_apply_action": per_call(
            lambda: state.clone().apply_action(action), calls, args.repeat
        ),
        "library_apply": per_call(lambda: apply(library, move), calls, args.repeat),
        "legal_actions": per_call(state.legal_actions, calls, args.repeat),
        "library_legal_moves": per_call(lambda: legal_moves(library), calls, args.repeat),
        "information_state_string": per_call(
            lambda: state.information_state_string(0), calls, args.repeat
        ),
        "information_state_tensor": per_call(
            lambda: state.information_state_tensor(0), calls, args.repeat
        ),
        "observation_tensor": per_call(lambda: state.observation_tensor(0), calls, args.repeat),
        "library_observation_tensor": per_call(
            lambda: observation_tensor(observe(library, 0)), calls, args.repeat
        ),
    }
    figures["clone_shares_game_state"] = state.clone().game_state is library

    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"STANDARD, best (median) of {args.repeat}; Python {figures['python']}")
    for name in ("direct", "adapter", "pettingzoo", "random_sim_test"):
        entry = figures[name]
        line = (
            f"  {name:<16} {entry['games_per_s_best']:8.1f} games/s "
            f"({entry['games_per_s_median']:.1f})"
        )
        if "slowdown_vs_direct" in entry:
            line += f"  {entry['slowdown_vs_direct']:.1f}x slower than direct"
        print(line)
    print("  per call, microseconds:")
    for name, (best, median) in figures["per_call_us"].items():
        print(f"    {name:<26} {best:8.1f} ({median:.1f})")
    print(f"  a clone shares the GameState: {figures['clone_shares_game_state']}")


def _version(name: str) -> str:
    from importlib.metadata import version

    return version(name.replace("_", "-"))


if __name__ == "__main__":
    main()
