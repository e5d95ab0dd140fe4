"""Steps per second of the learning environments, side by side in one run (issue 22).

python benchmarks/bench_learning.py [--seconds S] [--repeats R] [--envs N]
                                    [--rules standard|tiny] [--clock cpu|wall]

Random play with the action mask on every environment: the PettingZoo environment (the AEC
loop: ``last()`` then ``step``, one decision per step), `VectorEnv` with ``core="python"`` (one
step moves N games: N decisions), and with ``core="native"`` when the native core is installed;
then OpenSpiel's ``apply_action`` per decision on each core. Each figure is the best of R runs
of S seconds of this process's CPU time (the median in brackets), so that other jobs on a
loaded machine do not count. Two rates per environment: steps per second of the environment's
own time (inside ``last``/``step``/``reset``), and of the whole loop with the random agent's
choices; the ratio columns compare with the PettingZoo environment of the same observation.
Prints Markdown tables.
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
#: Steps per second of the environment's own time (inside its calls), and of the whole loop
#: (the random agent's choices included).
Rates = tuple[float, float]


def pettingzoo_rate(rules: Rules, kind: str, normalize: bool, seconds: float) -> Rates:
    game = env(rules=rules, observation=kind, normalize=normalize)  # type: ignore[arg-type]
    rng = np.random.default_rng(0)
    game.reset(seed=0)
    steps = 0
    inside = 0.0
    intervals = 0
    start = _clock()
    while _clock() - start < seconds:
        for _agent in game.agent_iter():
            before = _clock()
            observation, _, termination, truncation, _ = game.last()
            inside += _clock() - before
            intervals += 2
            if termination or truncation:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
                steps += 1
            before = _clock()
            game.step(action)
            inside += _clock() - before
        before = _clock()
        game.reset()
        inside += _clock() - before
        intervals += 1
    inside -= intervals * _clock_cost()
    return steps / inside, steps / (_clock() - start)


def _clock_cost() -> float:
    """The cost of one reading of the clock, taken out of each timed interval (a CPU-time
    reading is a system call of a few microseconds, not negligible against a PettingZoo step)."""
    n = 2000
    start = _clock()
    for _ in range(n):
        _clock()
    return (_clock() - start) / n


def vector_rate(
    rules: Rules, kind: str, normalize: bool, core: str, envs: int, seconds: float
) -> Rates:
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
    inside = 0.0
    start = _clock()
    while _clock() - start < seconds:
        actions = random_legal(info["action_mask"], rng)
        before = _clock()
        _, _, _, _, info = vector.step(actions)
        inside += _clock() - before
        steps += envs
    inside -= steps // envs * _clock_cost()
    return steps / inside, steps / (_clock() - start)


def random_legal(mask: Array, rng: np.random.Generator) -> Array:
    """One legal action per row of `mask`, uniformly: the k-th legal id with k drawn per row.

    One random number per environment, from the flat positions of the legal actions (drawing one
    per action costs as much as the native step itself).
    """
    flat = np.flatnonzero(mask)  # row-major: each row's legal ids, ascending
    counts = np.count_nonzero(mask, axis=1)
    starts = np.cumsum(counts) - counts
    k = (rng.random(len(mask)) * counts).astype(np.int64)
    chosen: Array = flat[starts + k] - np.arange(len(mask)) * mask.shape[1]
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


def _twice(run: Callable[..., float], *args: object) -> Rates:
    rate = run(*args)
    return rate, rate


def native_available() -> bool:
    """Whether the native core is installed with the batch the environments step."""
    return native.is_available() and hasattr(native.load(), "VectorBatch")


def measure(run: Callable[[], Rates], repeats: int) -> tuple[Rates, Rates]:
    """The best and the median of `repeats` runs, for each of the two rates."""
    runs = [run() for _ in range(repeats)]
    env_rates = [r[0] for r in runs]
    loop_rates = [r[1] for r in runs]
    return (max(env_rates), statistics.median(env_rates)), (
        max(loop_rates),
        statistics.median(loop_rates),
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--envs", type=int, default=256)
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
    print(
        "| environment | observation | steps/s (environment time) | against PettingZoo "
        "| steps/s (with the random agent) | against PettingZoo |"
    )
    print("|---|---|---|---|---|---|")
    for kind, normalize in (
        ("observation", False),
        ("observation", True),
        ("information_state", False),
        ("information_state", True),
    ):
        label = kind + (", normalised" if normalize else "")
        (best, median), (loop, loop_median) = measure(
            functools.partial(pettingzoo_rate, rules, kind, normalize, args.seconds), args.repeats
        )
        base, loop_base = best, loop
        print(
            f"| PettingZoo `env()` | {label} | {best:,.0f} ({median:,.0f}) | 1 "
            f"| {loop:,.0f} ({loop_median:,.0f}) | 1 |"
        )
        cores = ["python", "native"] if has_native else ["python"]
        for core in cores:
            (best, median), (loop, loop_median) = measure(
                functools.partial(
                    vector_rate, rules, kind, normalize, core, args.envs, args.seconds
                ),
                args.repeats,
            )
            print(
                f"| `VectorEnv(core={core!r}, num_envs={args.envs})` | {label} | "
                f"{best:,.0f} ({median:,.0f}) | {best / base:.1f}x "
                f"| {loop:,.0f} ({loop_median:,.0f}) | {loop / loop_base:.1f}x |"
            )
        if not has_native:
            print(f"| `VectorEnv(core='native')` | {label} | not installed | | | |")
    print()
    print("| OpenSpiel game | decisions/s (apply_action) | against `core=python` |")
    print("|---|---|---|")
    base = 0.0
    for core in ["python", "native"] if has_native else ["python"]:
        (best, median), _ = measure(
            functools.partial(_twice, openspiel_rate, rules, core, args.seconds), args.repeats
        )
        base = base or best
        print(f"| `core={core}` | {best:,.0f} ({median:,.0f}) | {best / base:.1f}x |")
    if not has_native:
        print("| `core=native` | not installed | |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
