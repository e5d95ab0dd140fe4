"""Exceptions: one root, and the split between malformed (invalid) and not allowed (illegal)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover - imports for annotations only
    from hatsuden_rules.core.moves import Move
    from hatsuden_rules.core.state import GameState

__all__ = [
    "HatsudenError",
    "IllegalMoveError",
    "InvalidInputError",
    "InvalidMoveError",
    "InvalidRulesError",
    "PhaseError",
]


def _rebuild(cls: type[HatsudenError], args: tuple[Any, ...], attributes: dict[str, Any]) -> Any:
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(attributes)
    return error


class HatsudenError(Exception):
    """Root of every exception this library raises on purpose.

    Every subclass pickles with its message and attributes (a worker process or a Ray task can
    send one back), although its constructor takes other arguments than its message.
    """

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self.args, self.__dict__))


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
