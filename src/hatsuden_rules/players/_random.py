"""`RandomPlayer`: a uniformly random legal move."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from hatsuden_rules.core.moves import Move
from hatsuden_rules.core.rng import SplitMix64
from hatsuden_rules.observation import Observation
from hatsuden_rules.players._protocol import check_decision

__all__ = ["RandomPlayer"]


@attrs.frozen
class RandomPlayer:
    """Plays a uniformly random legal move: the baseline every bot must beat.

    Examples:
        >>> from hatsuden_rules import SplitMix64, new_game, observe, legal_moves_from
        >>> seen = observe(new_game(seed=1), 0)
        >>> moves = legal_moves_from(seen)
        >>> RandomPlayer().choose(seen, moves, SplitMix64.from_seed(3)) == moves[
        ...     SplitMix64.from_seed(3).next()[0] % len(moves)]
        True
    """

    def choose(
        self, observation: Observation, legal_moves: Sequence[Move], rng: SplitMix64 | int
    ) -> Move:
        """One of `legal_moves`, uniformly at random (one ``rng.next()``).

        `rng` is a `SplitMix64`, or an int seed (``SplitMix64.from_seed``).
        """
        _, moves, rng = check_decision(observation, legal_moves, rng)
        value, _ = rng.next()
        return moves[value % len(moves)]
