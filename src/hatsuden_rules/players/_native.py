"""The built-in players on the native core (the ``native`` extra): specs and an adapter.

`native_spec` names the Rust twin of a built-in player; `NativePlayer` is a `Player` whose
decisions the native core makes (``hatsuden play --core native``). The random and greedy
players choose the same move on both cores for the same observation and generator; ISMCTS runs
the same search (see ``docs/native.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from hatsuden_rules.core.errors import InvalidInputError
from hatsuden_rules.core.moves import Move
from hatsuden_rules.core.rng import SplitMix64
from hatsuden_rules.observation import Observation
from hatsuden_rules.players._greedy import GreedyPlayer
from hatsuden_rules.players._ismcts import ISMCTSPlayer
from hatsuden_rules.players._protocol import check_decision
from hatsuden_rules.players._random import RandomPlayer

__all__ = ["NativePlayer", "native_spec"]


def native_spec(player: object) -> tuple[str, dict[str, int | float | None]]:
    """The native twin of a built-in player: its kind and options.

    Raises:
        InvalidInputError: `player` has no native implementation (field ``players``).

    Examples:
        >>> native_spec(ISMCTSPlayer(iterations=50))[1]["iterations"]
        50
        >>> native_spec(RandomPlayer())
        ('random', {})
    """
    if type(player) is RandomPlayer:
        return ("random", {})
    if type(player) is GreedyPlayer:
        return ("greedy", {})
    if type(player) is ISMCTSPlayer:
        fields = attrs.asdict(player)
        fields.pop("core")
        return ("ismcts", fields)
    raise InvalidInputError(
        "players", f"{player!r} has no native implementation: play it with the python core"
    )


@attrs.frozen
class NativePlayer:
    """A built-in player whose decisions the native core makes (the ``native`` extra).

    Attributes:
        player: The Python player it stands for (random, greedy or ISMCTS).
    """

    player: Any = attrs.field()

    @player.validator
    def _check(self, _: object, value: object) -> None:
        native_spec(value)

    def choose(
        self, observation: Observation, legal_moves: Sequence[Move], rng: SplitMix64 | int
    ) -> Move:
        """The native player's move, one of `legal_moves` (see `Player.choose`).

        Raises:
            NativeUnavailableError: The native core is not installed.
        """
        from hatsuden_rules.native import bot_choose

        observation, moves, rng = check_decision(observation, legal_moves, rng)
        move = bot_choose(native_spec(self.player), observation, rng)
        if move not in moves:
            raise InvalidInputError("legal_moves", f"the native player chose {move}, not listed")
        return move
