"""The `Player` protocol: a bot sees its own `Observation`, the legal moves and a generator."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from hatsuden_rules.core.errors import InvalidInputError
from hatsuden_rules.core.moves import Move
from hatsuden_rules.core.rng import SplitMix64
from hatsuden_rules.observation import Observation

__all__ = ["Player", "check_decision"]


@runtime_checkable
class Player(Protocol):
    """Anything that picks a move from what one player knows.

    A player never sees the `GameState`: only its own `Observation` (so no bot can cheat), the
    legal moves (``legal_moves_from(observation)``, canonical order) and `rng`, the
    decision's randomness. A player MUST return the same move for the same three arguments
    (reproducible games) and MUST return one of `legal_moves`.

    The `rng` argument: a referee (`hatsuden_rules.simulation.play_game`, ``hatsuden play``)
    passes a `SplitMix64`, a fresh one for every decision. Generators are immutable values
    (``value, rng = rng.next()``), so `choose` returns only the move: a player draws all the
    randomness of one decision from the generator it is given. The built-in players also accept
    a plain int seed, meaning ``SplitMix64.from_seed(seed)`` (handy in a notebook or a test);
    a bot of your own can do the same with
    ``rng = SplitMix64.from_seed(rng) if isinstance(rng, int) else rng``. The protocol itself
    only requires a `SplitMix64`, so a bot that accepts nothing else is still a `Player`.

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
        >>> player.choose(seen, moves, 7) == player.choose(seen, moves, SplitMix64.from_seed(7))
        True
    """

    def choose(
        self, observation: Observation, legal_moves: Sequence[Move], rng: SplitMix64
    ) -> Move:
        """The move to play, one of `legal_moves`.

        Args:
            observation: What the player to move knows (``observe(state, player)``).
            legal_moves: The legal moves, in canonical order (``legal_moves_from``).
            rng: This decision's generator (a `SplitMix64`; see the class docstring).
        """
        ...


def check_decision(
    observation: object, legal_moves: object, rng: object
) -> tuple[Observation, tuple[Move, ...], SplitMix64]:
    """Validate the arguments of `Player.choose` eagerly; return them with the moves as a tuple.

    An int `rng` is a seed: it becomes ``SplitMix64.from_seed(rng)``.
    """
    if type(rng) is int:
        rng = SplitMix64.from_seed(rng)
    if type(observation) is not Observation:
        raise InvalidInputError(
            "observation", f"expected an Observation, got {type(observation).__name__}"
        )
    if type(rng) is not SplitMix64:
        raise InvalidInputError(
            "rng", f"expected a SplitMix64 or an int seed, got {type(rng).__name__}"
        )
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
