"""Exceptions: one root, and the split between malformed (invalid) and not allowed (illegal)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - imports for annotations only
    from ._moves import Move
    from ._state import GameState

__all__ = [
    "HatsudenError",
    "IllegalMoveError",
    "InvalidInputError",
    "InvalidMoveError",
    "InvalidRulesError",
    "PhaseError",
]


class HatsudenError(Exception):
    """Root of every exception this library raises on purpose."""


class InvalidInputError(HatsudenError, ValueError):
    """A malformed value: wrong type or out of range, whatever the game state.

    Attributes:
        field: The name of the offending field or argument.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


class InvalidRulesError(InvalidInputError):
    """A `Rules` value that does not describe a playable game (R31)."""


class InvalidMoveError(InvalidInputError):
    """A malformed move, card or cell: not a move at all, whatever the state."""


class IllegalMoveError(HatsudenError, ValueError):
    """A well-formed move that the rules do not allow in this state.

    The message starts with the number of the RULES.md rule that forbids the move.

    Attributes:
        state: The state the move was tried in (unchanged: states are immutable).
        move: The rejected move.
        rule: The RULES.md rule number, e.g. ``"R12"``.
    """

    def __init__(self, state: GameState, move: Move, rule: str, reason: str) -> None:
        super().__init__(f"{rule}: {reason}")
        self.state = state
        self.move = move
        self.rule = rule
        self.reason = reason


class PhaseError(HatsudenError, ValueError):
    """An operation that the current phase does not offer (e.g. chance outcomes outside CHANCE)."""
