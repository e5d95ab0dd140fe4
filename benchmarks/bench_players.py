"""Time per decision of each player on the same positions (CPU time, one process).

The positions are every decision (two or more legal moves) of a few seeded Greedy vs Greedy
games; each player decides each of them once.

    python benchmarks/bench_players.py [--games N] [--players random,greedy,ismcts]
"""

from __future__ import annotations

import argparse
import time

from hatsuden_rules import GameState, Phase, SplitMix64, apply, legal_moves, new_game, observe
from hatsuden_rules.players import GreedyPlayer, make_player


def positions(games: int) -> list[GameState]:
    out: list[GameState] = []
    greedy = GreedyPlayer()
    for seed in range(games):
        state = new_game(seed=seed)
        k = 0
        while not state.is_over:
            moves = legal_moves(state)
            if len(moves) > 1:
                out.append(state)
            seen = observe(state, state.current_player)
            move = moves[0] if len(moves) == 1 else greedy.choose(seen, moves, SplitMix64(k))
            state = apply(state, move)
            k += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--players", default="random,greedy,ismcts")
    args = parser.parse_args()
    states = positions(args.games)
    actions = sum(1 for s in states if s.phase is Phase.ACTION)
    print(f"{len(states)} decisions ({actions} in ACTION) from {args.games} Greedy games")
    for spec in args.players.split(","):
        player = make_player(spec)
        start = time.process_time()
        for k, state in enumerate(states):
            seen = observe(state, state.current_player)
            player.choose(seen, legal_moves(state), SplitMix64(k))
        seconds = (time.process_time() - start) / len(states)
        print(f"{spec:<24} {1000 * seconds:8.2f} ms CPU per decision")


if __name__ == "__main__":
    main()
