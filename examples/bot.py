"""Write your own bot: any object with ``choose(observation, legal_moves, rng) -> Move``.

The bot below builds its highest card that keeps the city within its demand, and otherwise
plays like `GreedyPlayer`. It sees only its own `Observation` (never the game state), so it
cannot cheat. `play_game` referees one game; `run_match` would need the bot registered by name,
so this example plays a few games directly.

    python examples/bot.py [--games N]
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from hatsuden_rules import Construct, Improve, Move, Observation, SplitMix64
from hatsuden_rules.players import GreedyPlayer, Player, RandomPlayer
from hatsuden_rules.simulation import play_game


class HighCardPlayer:
    """Builds or improves with its highest card when the city stays within its demand."""

    def __init__(self) -> None:
        self.fallback = GreedyPlayer()

    def choose(
        self, observation: Observation, legal_moves: Sequence[Move], rng: SplitMix64
    ) -> Move:
        demand = observation.rules.city_demand
        width = observation.rules.energies
        me = observation.player

        def supply(row: int) -> int:
            stacks = observation.boards[me][row * width : (row + 1) * width]
            return sum(s.value or 0 for s in stacks if s is not None)

        def fits(move: Construct | Improve) -> bool:
            stack = observation.stack(me, move.cell)
            old = 0 if stack is None else stack.value or 0
            return supply(move.cell.row) - old + move.card.value <= demand

        builds = [
            m
            for m in legal_moves
            if isinstance(m, Construct | Improve) and not getattr(m, "secret", False) and fits(m)
        ]
        if builds:
            return max(builds, key=lambda m: m.card.value)
        return self.fallback.choose(observation, legal_moves, rng)


def main(games: int) -> None:
    bot: Player = HighCardPlayer()
    for name, opponent in (("random", RandomPlayer()), ("greedy", GreedyPlayer())):
        wins = 0
        for seed in range(games):
            seats = (bot, opponent) if seed % 2 == 0 else (opponent, bot)
            game = play_game(seats, seed=seed)
            wins += game.result.winner == seed % 2
        print(f"HighCardPlayer vs {name}: {wins}/{games} wins")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Play your own bot against the built-in ones.")
    parser.add_argument("--games", type=int, default=4)
    main(parser.parse_args().games)
