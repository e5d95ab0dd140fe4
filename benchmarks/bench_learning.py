"""Steps per second of the learning environments, side by side in one run (issue 22).

python benchmarks/bench_learning.py [--seconds S] [--repeats R] [--envs N] [--rules standard|tiny]

Random play with the action mask on every environment: the PettingZoo environment (the AEC
loop: ``last()`` then ``step``, one decision per step), `VectorEnv` with ``core="python"`` (one
step moves N games: N decisions), and with ``core="native"`` when the native core is installed;
then OpenSpiel's ``apply_action`` per decision on each core. Each figure is the best of R runs
of S seconds (the median in brackets); the ratio column compares with the PettingZoo
environment of the same observation. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import time
from collections.abc import Callable, Sequence

import numpy as np

from hatsuden_rules import STANDARD, Rules, native
from hatsuden_rules.pettingzoo import env
from hatsuden_rules.vector import VectorEnv

TINY = Rules(energies=2, max_value=2, hand_size=2, techs=())


def pettingzoo_rate(rules: Rules, kind: str, normalize: bool, seconds: float) -> float:
    game = env(rules=rules, observation=kind, normalize=normalize)  # type: ignore[arg-type]
    rng = np.random.default_rng(0)
    game.reset(seed=0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _agent in game.agent_iter():
            observation, _, termination, truncation, _ = game.last()
            if termination or truncation:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
                steps += 1
            game.step(action)
        game.reset()
    return steps / (time.perf_counter() - start)


def vector_rate(
    rules: Rules, kind: str, normalize: bool, core: str, envs: int, seconds: float
) -> float:
    vector = VectorEnv(
        rules,
        num_envs=envs,
        seed=0,
        observation=kind,  # type: ignore[arg-type]
        normalize=normalize,
        core=core,  # type: ignore[arg-type]
    )
    rng = np.random.default_rng(0)
    _, info = vector.reset()
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        mask = info["action_mask"]
        _, _, _, _, info = vector.step((rng.random(mask.shape) * mask).argmax(axis=1))
        steps += envs
    return steps / (time.perf_counter() - start)


def openspiel_rate(rules: Rules, core: str, seconds: float) -> float:
    import pyspiel

    import hatsuden_rules.openspiel as hos

    game = (
        hos.load_game(rules)
        if core == "python"
        else pyspiel.load_game(
            "python_hatsuden", {**hos.parameters_from_rules(rules), "core": core}
        )
    )
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
                steps += 1
    return steps / (time.perf_counter() - start)


def native_available() -> bool:
    """Whether the native core is installed with the batch the environments step."""
    return native.is_available() and hasattr(native.load(), "VectorBatch")


def measure(run: Callable[[], float], repeats: int) -> tuple[float, float]:
    """The best and the median of `repeats` runs."""
    rates = [run() for _ in range(repeats)]
    return max(rates), statistics.median(rates)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--rules", choices=("standard", "tiny"), default="standard")
    args = parser.parse_args(argv)
    rules = STANDARD if args.rules == "standard" else TINY
    has_native = native_available()
    print(f"rules: {args.rules}; best of {args.repeats} runs of {args.seconds:g} s (median)")
    print()
    print("| environment | observation | steps/s | against PettingZoo |")
    print("|---|---|---|---|")
    for kind, normalize in (
        ("observation", False),
        ("observation", True),
        ("information_state", False),
    ):
        label = kind + (", normalised" if normalize else "")
        best, median = measure(
            functools.partial(pettingzoo_rate, rules, kind, normalize, args.seconds), args.repeats
        )
        base = best
        print(f"| PettingZoo `env()` | {label} | {best:,.0f} ({median:,.0f}) | 1 |")
        cores = ["python", "native"] if has_native else ["python"]
        for core in cores:
            best, median = measure(
                functools.partial(
                    vector_rate, rules, kind, normalize, core, args.envs, args.seconds
                ),
                args.repeats,
            )
            print(
                f"| `VectorEnv(core={core!r}, num_envs={args.envs})` | {label} | "
                f"{best:,.0f} ({median:,.0f}) | {best / base:.2f}x |"
            )
        if not has_native:
            print(f"| `VectorEnv(core='native')` | {label} | not installed | |")
    print()
    print("| OpenSpiel game | decisions/s (apply_action) |")
    print("|---|---|")
    for core in ["python", "native"] if has_native else ["python"]:
        best, median = measure(
            functools.partial(openspiel_rate, rules, core, args.seconds), args.repeats
        )
        print(f"| `core={core}` | {best:,.0f} ({median:,.0f}) |")
    if not has_native:
        print("| `core=native` | not installed |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
