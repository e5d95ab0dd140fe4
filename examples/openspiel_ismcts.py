"""OpenSpiel's ISMCTS bot against the library's `ISMCTSPlayer` on the printed game.

OpenSpiel's Python ISMCTS (`open_spiel.python.algorithms.ismcts`) searches ``python_hatsuden``
through the OpenSpiel API: it resamples the hidden cards with the game's
``resample_from_infostate``, which is the library's `sample_state` (R38), and evaluates leaves
with random rollouts. `ISMCTSPlayer` searches with the library directly. The two play a short
match, swapping seats every game. (OpenSpiel's C++ MCTS and ISMCTS bots cannot run games written
in Python; see docs/frameworks.md.)

    python examples/openspiel_ismcts.py [--games N] [--simulations N] [--iterations N] [--seed S]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import hatsuden_rules.openspiel  # noqa: F401 (registers python_hatsuden)
from hatsuden_rules import SplitMix64, legal_moves_from, move_to_action, observe
from hatsuden_rules.players import ISMCTSPlayer
from hatsuden_rules.simulation import wilson_interval


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games (seats alternate)")
    parser.add_argument("--simulations", type=int, default=8, help="OpenSpiel ISMCTS budget")
    parser.add_argument("--iterations", type=int, default=20, help="ISMCTSPlayer budget")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)

    game = pyspiel.load_game("python_hatsuden")
    rules = game.rules
    ours = ISMCTSPlayer(iterations=args.iterations)
    wins = 0  # games won by OpenSpiel's bot
    start = time.perf_counter()
    for number in range(args.games):
        seed = args.seed + number
        random_state = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
        theirs = ismcts.ISMCTSBot(
            game,
            evaluator,
            uct_c=2.0,
            max_simulations=args.simulations,
            random_state=random_state,
        )
        openspiel_seat = number % 2
        rng = SplitMix64.from_seed(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probabilities = zip(*state.chance_outcomes(), strict=True)
                action = int(random_state.choice(actions, p=probabilities))
            elif len(state.legal_actions()) == 1:
                action = state.legal_actions()[0]
            elif state.current_player() == openspiel_seat:
                action = int(theirs.step(state))
            else:
                seen = observe(state.game_state, state.current_player())
                _, rng = rng.next()
                move = ours.choose(seen, legal_moves_from(seen), rng)
                action = move_to_action(rules, move)
            state.apply_action(action)
        won = state.returns()[openspiel_seat] > 0
        wins += won
        winner = "OpenSpiel ISMCTS" if won else "ISMCTSPlayer"
        print(f"game {number + 1}: OpenSpiel ISMCTS as player {openspiel_seat}: {winner} wins")
    low, high = wilson_interval(wins, args.games)
    print(
        f"OpenSpiel ISMCTS ({args.simulations} simulations) won {wins} of {args.games} against "
        f"ISMCTSPlayer ({args.iterations} iterations); 95% interval {low:.2f}-{high:.2f} "
        f"({time.perf_counter() - start:.1f} s)"
    )


if __name__ == "__main__":
    main()
