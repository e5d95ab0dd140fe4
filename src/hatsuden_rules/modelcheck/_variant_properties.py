"""The invariants of the rule variants (R40, R41), checked on every state when an option is on.

Written from RULES.md against the public API, like `_properties`, of which they are a part:
`Properties.state_violations` runs them for rule sets whose `tech_timing` or `overflow` is not
the default.

- R40 (``tech_timing=PLACE_AT_ONCE``): a player holds an Accumulator or Smart card only as the
  mover, in OVERFLOW or DRAW, right after the DealTech that brought it; and then the legal
  moves are exactly its placements (each own city, each energy in play).
- R41 (``overflow=ANY_SET``): in OVERFLOW (nothing owed), the legal overflow moves are exactly
  the FlipSets of the sets of the row's other plants whose values sum to at least the excess of
  the row over its tolerance, and no Flip is legal.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from hatsuden_rules import (
    DealTech,
    Flip,
    FlipSet,
    GameState,
    Move,
    Overflow,
    Phase,
    PlaceAccumulator,
    PlaceSmart,
    Tech,
    TechTiming,
)

__all__ = ["variant_problems"]

_AT_ONCE = (Tech.ACCUMULATOR, Tech.SMART)


def variant_problems(state: GameState, moves: Sequence[Move]) -> list[tuple[str, str]]:
    """Every invariant of R40 and R41 that `state` (with its legal `moves`) breaks."""
    problems: list[tuple[str, str]] = []
    rules = state.rules
    owed: list[Move] = []
    if rules.tech_timing is TechTiming.PLACE_AT_ONCE:
        mover = state.current_player
        for seat in (0, 1):
            for tech in _AT_ONCE:
                if tech not in state.tech_hand(seat):
                    continue
                log = state.this_turn
                if not (
                    seat == mover
                    and state.phase in (Phase.OVERFLOW, Phase.DRAW)
                    and log
                    and log[-1] == DealTech(tech)
                ):
                    problems.append(("R40", f"player {seat} holds {tech.name} after drawing it"))
                if tech is Tech.ACCUMULATOR:
                    owed += [PlaceAccumulator(0), PlaceAccumulator(1)]
                else:
                    owed += [PlaceSmart(energy) for energy in rules.energies_in_play]
        if owed and set(moves) != set(owed):
            problems.append(("R40", f"the legal moves are {list(moves)}, not the owed placements"))
    if rules.overflow is Overflow.ANY_SET and state.phase is Phase.OVERFLOW and not owed:
        if any(isinstance(move, Flip) for move in moves):
            problems.append(("R41", "a Flip is legal with overflow=ANY_SET"))
        expected = _sufficient_sets(state)
        actual = {move for move in moves if isinstance(move, FlipSet)}
        if actual != expected:
            problems.append(
                ("R41", f"FlipSets {sorted(map(repr, actual))}, the rules give {len(expected)}")
            )
    return problems


def _sufficient_sets(state: GameState) -> set[Move]:
    played = state.played_cell
    assert played is not None  # OVERFLOW follows a card played this turn (R21)
    player, row = state.current_player, played.row
    plants = []
    for cell in state.rules.cells:
        stack = state.stack(player, cell)
        if cell.row == row and cell != played and stack is not None and not stack.face_down:
            plants.append((cell, stack.value))
    excess = state.row_supply(player, row) - state.tolerance(player, row)
    return {
        FlipSet(tuple(cell for cell, _ in combo))
        for size in range(1, len(plants) + 1)
        for combo in itertools.combinations(plants, size)
        if sum(value for _, value in combo) >= excess
    }
