"""The `Player` protocol: a bot sees its own `Observation`, the legal moves and a generator."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from .._errors import InvalidInputError
from .._moves import Move
from .._rng import SplitMix64
from ..observation import Observation

__all__ = ["Player", "check_decision"]


@runtime_checkable
class Player(Protocol):
    """Anything that picks a move from what one player knows.

    A player never sees the `GameState`: only its own `Observation` (so no bot can cheat), the
    legal moves (``legal_moves_from(observation)``, canonical order) and a `SplitMix64`
    generator. Generators are immutable values, so `choose` returns only the move: a player
    draws all the randomness of one decision from the generator it is given, and the caller
    passes a fresh generator for every decision. A player MUST return the same move for the same
    three arguments (reproducible games) and MUST return one of `legal_moves`.

    Examples:
        >>> from hatsuden_rules import SplitMix64, new_game, observe, legal_moves_from
        >>> from hatsuden_rules.players import Player, RandomPlayer
        >>> seen = observe(new_game(seed=1), 0)
        >>> player: Player = RandomPlayer()
        >>> isinstance(player, Player)
        True
        >>> moves = legal_moves_from(seen)
        >>> player.choose(seen, moves, SplitMix64.from_seed(7)) in moves
        True
    """

    def choose(
        self, observation: Observation, legal_moves: Sequence[Move], rng: SplitMix64
    ) -> Move:
        """The move to play, one of `legal_moves`."""
        ...


def check_decision(
    observation: object, legal_moves: object, rng: object
) -> tuple[Observation, tuple[Move, ...], SplitMix64]:
    """Validate the arguments of `Player.choose` eagerly; return them with the moves as a tuple."""
    if type(observation) is not Observation:
        raise InvalidInputError(
            "observation", f"expected an Observation, got {type(observation).__name__}"
        )
    if type(rng) is not SplitMix64:
        raise InvalidInputError("rng", f"expected a SplitMix64, got {type(rng).__name__}")
    if isinstance(legal_moves, str | bytes) or not isinstance(legal_moves, Sequence):
        raise InvalidInputError(
            "legal_moves", f"expected a sequence of moves, got {type(legal_moves).__name__}"
        )
    moves = tuple(legal_moves)
    if not moves:
        raise InvalidInputError("legal_moves", "there is no move to choose from")
    if not observation.is_my_turn:
        raise InvalidInputError(
            "observation", f"player {observation.player} has no decision to make now"
        )
    return observation, moves, rng
