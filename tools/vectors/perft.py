"""The ``perft`` group: move-path counts per depth from a state, and the divide by first move.

From mid-game states of the core rule sets, and from states where a variant decides the next
moves (R40, R41).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Final

from hatsuden_rules.conformance._vectors import Vector, make_vector
from hatsuden_rules.core.apply import apply, new_game
from hatsuden_rules.core.legal import legal_moves
from hatsuden_rules.core.moves import (
    PlaceAccumulator,
    PlaceSmart,
)
from hatsuden_rules.core.rules import Overflow, TechTiming
from hatsuden_rules.core.state import GameState, Phase
from tools.vectors.common import KIND_RULES, format_state, move_text, state_flags, state_refs
from tools.vectors.games import RULE_SETS

__all__ = ["perft_vectors", "variant_perft_vectors"]

#: JSON numbers are exact only below 2**53 in many languages; perft counts must stay below.
_MAX_EXACT: Final = 1 << 53


def _path_counts(root: GameState, depth: int) -> tuple[list[int], list[set[type]]]:
    """Move paths of each length 1..depth from `root`, and the move kinds met at each length."""
    counts: list[int] = []
    kinds: list[set[type]] = []
    layer: dict[GameState, int] = {root: 1}
    for _ in range(depth):
        following: dict[GameState, int] = {}
        paths = 0
        met: set[type] = set()
        for state, n in layer.items():
            for move in legal_moves(state):
                met.add(type(move))
                child = apply(state, move)
                following[child] = following.get(child, 0) + n
                paths += n
        counts.append(paths)
        kinds.append(met)
        layer = following
    assert all(count < _MAX_EXACT for count in counts)
    return counts, kinds


def _perft_vector(
    root: GameState,
    counted: tuple[list[int], list[set[type]]],
    divide: bool,
    label: str,
) -> Vector:
    counts, kinds = counted
    depth = len(counts)
    expected: dict[str, Any] = {"ok": True, "counts": counts}
    if divide:
        expected["divide"] = [
            [
                move_text(move),
                _path_counts(apply(root, move), depth - 1)[0][-1] if depth > 1 else 1,
            ]
            for move in legal_moves(root)
        ]
        assert sum(n for _, n in expected["divide"]) == counts[-1]
    refs = state_refs(root) | {"R9", "R34"}
    for met in kinds:
        for kind in met:
            refs.update(KIND_RULES[kind])
    flags = state_flags(root) | ({"Divide"} if divide else set())
    return make_vector(
        "perft",
        rules=root.rules,
        refs=refs,
        flags=flags,
        comment=f"{label}: move paths of length 1..{depth}" + (", divided" if divide else ""),
        input={"kind": "perft", "state": format_state(root), "depth": depth, "divide": divide},
        expected=expected,
    )


#: Deepest perft from the start of each rule set's game (explicit chance mode), and the depth
#: divided there: a fraction of a second each.


#: Deepest perft from the start of each rule set's game (explicit chance mode), and the depth
#: divided there: a fraction of a second each.
_PERFT_DEPTHS: Final = {
    "small": (11, 10),
    "medium": (8, 7),
    "medium-alltech": (8, 7),
    "mini": (4, 4),
    "quad": (4, 3),
    "nostall": (5, 4),
    "standard": (3, 2),
}


def perft_vectors(mid_states: list[GameState]) -> Iterator[Vector]:
    """Perft from the start of every rule set, and from `mid_states`."""
    for name, (deepest, divided) in _PERFT_DEPTHS.items():
        root = new_game(None, RULE_SETS[name])
        counts, kinds = _path_counts(root, deepest)
        for depth in range(1, deepest + 1):
            counted = (counts[:depth], kinds[:depth])
            yield _perft_vector(root, counted, depth == divided, f"{name} start")
    for state in mid_states:
        depth = 2 if state.rules.energies * state.rules.copies > 8 else 3
        yield _perft_vector(state, _path_counts(state, depth), True, f"{state.phase.name} state")


# -- the variants (R40, R41) ---------------------------------------------------------------------


def variant_perft_vectors(states: Sequence[GameState]) -> Iterator[Vector]:
    """Move paths from states where a variant decides the next moves (R40, R41)."""
    owed = [
        s
        for s in states
        if s.phase in (Phase.OVERFLOW, Phase.DRAW)
        and s.rules.tech_timing is TechTiming.PLACE_AT_ONCE
        and legal_moves(s)
        and all(isinstance(m, PlaceAccumulator | PlaceSmart) for m in legal_moves(s))
    ][:2]
    sets = [
        s for s in states if s.phase is Phase.OVERFLOW and s.rules.overflow is Overflow.ANY_SET
    ][:2]
    for state in owed + sets:
        depth = 2 if state.rules.energies * state.rules.copies > 8 else 3
        yield _perft_vector(state, _path_counts(state, depth), True, f"{state.phase.name} state")
