"""Solve the smallest HATSUDEN with hidden information: CFR+ and MCCFR through OpenSpiel.

The game ``python_hatsuden`` with one energy, the cards 1, 2 and 3 once each, hands of one card
(the third card is the deck), no tech cards and a stall limit of 1. OpenSpiel's CFR+ solves it;
external-sampling Monte Carlo CFR approaches the same equilibrium by sampling. Both print the
NashConv of their average policy (the sum of what each player could gain by deviating: 0 at an
equilibrium) as it falls, and the equilibrium value for player 0, next to the value of the
perfect-information relaxation (`hatsuden_rules.modelcheck.game_value`).

    python examples/openspiel_cfr.py [--cfr-iterations N] [--mccfr-iterations N] [--seed S]
                                     [--game GAME_STRING]

``--game`` solves another small variant, e.g. the cards 1-2 twice: ``python_hatsuden(energies=1,
max_value=2,copies=2,hand_size=1,city_demand=1,techs=none,stall_limit=1)``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

import numpy as np
import pyspiel
from open_spiel.python.algorithms import (
    cfr,
    expected_game_score,
    exploitability,
    external_sampling_mccfr,
)

import hatsuden_rules.openspiel  # registers python_hatsuden
from hatsuden_rules import Rules
from hatsuden_rules.modelcheck import game_value

SMALLEST = Rules(
    energies=1, max_value=3, copies=1, hand_size=1, city_demand=2, techs=(), stall_limit=1
)


def _report_points(last: int) -> list[int]:
    points = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000]
    return [n for n in points if n < last] + [last]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cfr-iterations", type=int, default=30)
    parser.add_argument("--mccfr-iterations", type=int, default=500)
    parser.add_argument("--seed", type=int, default=2026, help="seeds MCCFR's sampling")
    parser.add_argument("--game", default=hatsuden_rules.openspiel.game_string(SMALLEST))
    args = parser.parse_args(argv)

    game = pyspiel.load_game(args.game)
    print(f"game: {game}")
    start = time.perf_counter()

    print("CFR+ (exact, full traversals):")
    solver = cfr.CFRPlusSolver(game)
    points = set(_report_points(args.cfr_iterations))
    policy = solver.average_policy()
    for i in range(1, args.cfr_iterations + 1):
        solver.evaluate_and_update_policy()
        if i in points:
            policy = solver.average_policy()
            nash_conv = exploitability.nash_conv(game, policy)
            print(f"  iteration {i:>6}  NashConv {nash_conv:.6f}")
    value = expected_game_score.policy_value(game.new_initial_state(), [policy, policy])[0]
    print(
        f"  equilibrium value for player 0: {value:+.6f} (P(player 0 wins) = {(value + 1) / 2:.6f})"
    )

    print("External-sampling MCCFR:")
    np.random.seed(args.seed)  # OpenSpiel's MCCFR samples with numpy's global generator
    sampler = external_sampling_mccfr.ExternalSamplingSolver(
        game, external_sampling_mccfr.AverageType.SIMPLE
    )
    points = set(_report_points(args.mccfr_iterations))
    for i in range(1, args.mccfr_iterations + 1):
        sampler.iteration()
        if i in points:
            nash_conv = exploitability.nash_conv(game, sampler.average_policy())
            print(f"  iteration {i:>6}  NashConv {nash_conv:.6f}")
    average = sampler.average_policy()
    sampled = expected_game_score.policy_value(game.new_initial_state(), [average, average])[0]
    print(f"  value for player 0 of its average policy: {sampled:+.6f}")

    perfect = game_value(game.rules)
    print(f"perfect-information value: P(player 0 wins) = {perfect} = {float(perfect):.4f}")
    print(f"({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
