"""The ``scores`` group: the score sheet, winner and deciding step of a state (R27-R29).

Scoring is the same under every option: the variants add no score vectors.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator

from hatsuden_rules.conformance._vectors import Vector, make_vector
from hatsuden_rules.core.rules import Tiebreak
from hatsuden_rules.core.scoring import Decision, score
from hatsuden_rules.core.state import GameState
from hatsuden_rules.serialization import to_dict
from tools.vectors.common import (
    DECISION_FLAGS,
    format_state,
    pick,
    rules_flags,
    state_flags,
    state_refs,
)

__all__ = ["score_vectors"]


def score_vectors(states: list[GameState]) -> Iterator[Vector]:
    """Score vectors of a varied pick of `states` (every decision step)."""

    def key(state: GameState) -> Hashable:
        sheet = score(state)
        totals = tuple(p.total for p in sheet.players)
        return (
            state.rules.tiebreak,
            sheet.decided_by,
            state.is_over,
            state.smart is not None,
            state.accumulator is not None,
            "SecretPlant" in state_flags(state),
            totals[0] == totals[1],
            frozenset(rules_flags(state.rules)),
        )

    for state in pick(states, key, 4):
        sheet = score(state)
        refs = state_refs(state, scoring=True) | {"R27", "R28", "R29"}
        flags = state_flags(state) | {DECISION_FLAGS[sheet.decided_by]}
        if state.rules.tiebreak is Tiebreak.SUPPLY:
            flags.add("TiebreakSupply")
        if sheet.decided_by is Decision.SECOND_PLAYER:
            refs.add("R5")
        if state.is_over:
            refs.add("R26")
        if "SecretPlant" in flags:
            refs.add("R11")
        if not state.is_over:
            flags.add("Unfinished")
        yield make_vector(
            "scores",
            rules=state.rules,
            refs=refs,
            flags=flags,
            comment=(
                f"totals {sheet.players[0].total}:{sheet.players[1].total}, player "
                f"{sheet.winner} wins ({sheet.decided_by.value})"
            ),
            input={"kind": "score", "state": format_state(state)},
            expected={"ok": True, "score": to_dict(sheet)},
        )
