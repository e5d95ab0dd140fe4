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
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from hatsuden_rules import STANDARD, Rules, native
from hatsuden_rules.pettingzoo import env
from hatsuden_rules.vector import VectorEnv

Array = np.ndarray[Any, Any]
TINY = Rules(energies=2, max_value=2, hand_size=2, techs=())
#: The clock of every rate: this process's CPU time (``--clock cpu``, the default: other
#: processes on a loaded machine do not count) or the wall clock (``--clock wall``).
CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}
_clock: Callable[[], float] = time.process_time


def pettingzoo_rate(rules: Rules, kind: str, normalize: bool, seconds: float) -> float:
    game = env(rules=rules, observation=kind, normalize=normalize)  # type: ignore[arg-type]
    rng = np.random.default_rng(0)
    game.reset(seed=0)
    steps = 0
    start = _clock()
    while _clock() - start < seconds:
        for _agent in game.agent_iter():
            observation, _, termination, truncation, _ = game.last()
            if termination or truncation:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
                steps += 1
            game.step(action)
        game.reset()
    return steps / (_clock() - start)


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
    start = _clock()
    while _clock() - start < seconds:
        _, _, _, _, info = vector.step(random_legal(info["action_mask"], rng))
        steps += envs
    return steps / (_clock() - start)


def random_legal(mask: Array, rng: np.random.Generator) -> Array:
    """One legal action per row of `mask`, uniformly: the k-th legal id with k drawn per row.

    One random number per environment (drawing one per action costs as much as the native
    step itself).
    """
    counts = mask.sum(axis=1)
    k = (rng.random(len(mask)) * counts).astype(np.int16)
    chosen: Array = (mask.cumsum(axis=1, dtype=np.int16) > k[:, None]).argmax(axis=1)
    return chosen


def openspiel_rate(rules: Rules, core: str, seconds: float) -> float:
    """Decisions per second through OpenSpiel's ``State`` API: ``legal_actions`` then
    ``apply_action``, chance outcomes drawn with their probabilities. The agent is Python's own
    `random.Random` (a numpy draw per decision would cost more than the native game's step)."""
    import pyspiel

    import hatsuden_rules.openspiel as hos

    game = pyspiel.load_game("python_hatsuden", {**hos.parameters_from_rules(rules), "core": core})
    rng = random.Random(0)
    steps = 0
    start = _clock()
    while _clock() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
    return steps / (_clock() - start)


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
    parser.add_argument("--clock", choices=tuple(CLOCKS), default="cpu")
    args = parser.parse_args(argv)
    global _clock  # noqa: PLW0603 - the clock of this run, chosen once
    _clock = CLOCKS[args.clock]
    rules = STANDARD if args.rules == "standard" else TINY
    has_native = native_available()
    print(
        f"rules: {args.rules}; best of {args.repeats} runs of {args.seconds:g} s of {args.clock} "
        "time (median)"
    )
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
