"""The exact contract of an illegal move (R35): rule, reason, message, state and move."""

from __future__ import annotations

import pytest

from hatsuden_rules import GameState, IllegalMoveError, Move, apply


def refused(state: GameState, move: Move, rule: str, reason: str) -> None:
    """`move` is refused with exactly this rule and reason, naming the state and the move."""
    with pytest.raises(IllegalMoveError) as caught:
        apply(state, move)
    error = caught.value
    assert (error.rule, error.reason) == (rule, reason)
    assert str(error) == f"{rule}: {reason}"
    assert error.state is state
    assert error.move is move
