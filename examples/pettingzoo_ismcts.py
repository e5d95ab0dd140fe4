"""The library's `ISMCTSPlayer` through the PettingZoo environment, against a random policy.

The bot sees only its own `Observation` (``env.unwrapped.game_observation(agent)``) and answers
with a move, turned into the environment's action id by `move_to_action`; the random policy
uses the action mask.

    python examples/pettingzoo_ismcts.py [--games N] [--iterations N] [--seed S]
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import numpy as np

from hatsuden_rules import SplitMix64, legal_moves_from, move_to_action
from hatsuden_rules.pettingzoo import env
from hatsuden_rules.players import ISMCTSPlayer


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games (seats alternate)")
    parser.add_argument("--iterations", type=int, default=30, help="ISMCTSPlayer budget")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)

    game = env()
    raw = game.unwrapped
    bot = ISMCTSPlayer(iterations=args.iterations)
    rng = np.random.default_rng(args.seed)
    decisions = SplitMix64.from_seed(args.seed)
    bot_wins = 0
    for number in range(args.games):
        bot_agent = f"player_{number % 2}"
        game.reset(seed=args.seed + number)
        for agent in game.agent_iter():
            observation, reward, termination, truncation, _info = game.last()
            if termination or truncation:
                bot_wins += agent == bot_agent and reward > 0
                game.step(None)
            elif agent == bot_agent:
                seen = raw.game_observation(agent)
                _, decisions = decisions.next()
                move = bot.choose(seen, legal_moves_from(seen), decisions)
                game.step(move_to_action(raw.rules, move))
            else:
                game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    game.close()
    print(
        f"ISMCTSPlayer ({args.iterations} iterations) won {bot_wins} of {args.games} games "
        "against a random policy"
    )


if __name__ == "__main__":
    main()
