"""The ``legal_moves`` group: every legal move in canonical order (R34), chance outcomes with p/q.

Used for the core rule sets' states and for the variants' states alike.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from fractions import Fraction
from typing import Any

from hatsuden_rules.conformance._codec import fraction_text
from hatsuden_rules.conformance._vectors import Vector, make_vector
from hatsuden_rules.core.cards import Tech
from hatsuden_rules.core.legal import chance_outcomes, legal_moves
from hatsuden_rules.core.moves import (
    PlaceAccumulator,
    PlaceSmart,
)
from hatsuden_rules.core.state import Chance, GameState, Phase
from tools.vectors.common import (
    KIND_RULES,
    PHASE_RULES,
    format_state,
    move_text,
    pick,
    rules_flags,
    state_flags,
    state_refs,
)

__all__ = ["legal_moves_vector", "legal_moves_vectors"]


def legal_moves_vector(state: GameState) -> Vector:
    """The legal moves of `state` in canonical order (R34); chance outcomes with p/q (R6)."""
    moves = legal_moves(state)
    expected: dict[str, Any] = {"ok": True, "moves": [move_text(m) for m in moves]}
    refs = state_refs(state) | set(PHASE_RULES[state.phase]) | {"R34"}
    flags = state_flags(state)
    if state.phase is Phase.CHANCE:
        outcomes = chance_outcomes(state)
        assert sum(p for _, p in outcomes) == Fraction(1)
        expected["probabilities"] = [fraction_text(p) for _, p in outcomes]
        refs.add("R2" if state.pending_chance is not Chance.TECH else "R3")
        if state.pending_chance is Chance.SETUP:
            refs.add("R7")
    for move in moves:
        refs.update(KIND_RULES[type(move)])
    if state.phase is Phase.ACTION:
        refs |= {"R10", "R12", "R14", "R15", "R16"}  # present or absent, each is decided
        if Tech.SECRET_BUILD in state.tech_hand(state.current_player):
            refs.add("R11")
        if Tech.DOWN in state.tech_hand(state.current_player):
            refs.add("R13")
    if any(isinstance(m, PlaceAccumulator | PlaceSmart) for m in moves):
        refs.add("R18")
    if not moves:
        flags.add("NoMoves")
    return make_vector(
        "legal_moves",
        rules=state.rules,
        refs=refs,
        flags=flags,
        comment=f"{state.phase.name}: {len(moves)} legal moves",
        input={"kind": "legal_moves", "state": format_state(state)},
        expected=expected,
    )


def legal_moves_vectors(states: list[GameState]) -> Iterator[Vector]:
    """Legal-move vectors of a varied pick of `states`."""

    def key(state: GameState) -> Hashable:
        mover = state.current_player
        return (
            frozenset(rules_flags(state.rules)),
            state.is_seeded,
            state.phase,
            state.pending_chance,
            frozenset(state.tech_hand(mover)),
            state.deck_size == 0,
            state.hand_size(mover) == 0,
        )

    for state in pick(states, key, 3):
        yield legal_moves_vector(state)
