"""A random policy through the PettingZoo environment: the AEC loop with action masks.

python examples/pettingzoo_random.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence

import numpy as np

from hatsuden_rules.pettingzoo import env


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)

    game = env()  # the printed game
    rng = np.random.default_rng(args.seed)
    wins: Counter[str] = Counter()
    steps = 0
    for number in range(args.games):
        game.reset(seed=args.seed + number)
        for agent in game.agent_iter():
            observation, reward, termination, truncation, _info = game.last()
            if termination or truncation:
                if reward > 0:
                    wins[agent] += 1
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(rng.choice(legal))
                steps += 1
            game.step(action)
    game.close()
    print(f"{args.games} random games, {steps} steps: wins {dict(sorted(wins.items()))}")


if __name__ == "__main__":
    main()
