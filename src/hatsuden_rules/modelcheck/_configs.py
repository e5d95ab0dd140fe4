"""Named reduced rule sets for exhaustive checking (RULES.md R31, "Reduced configurations").

Each is small enough to visit every reachable state, and large enough that every move kind its
tech cards allow, every phase, both end conditions and every step of the winner decision occur
(the checker fails a run that misses one). Retaking one's own discard is off: with so few cards
a full grid, and so the final-turn end, is otherwise out of reach.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

import attrs

from .. import Overflow, Rules, Tech, TechTiming

__all__ = ["CONFIGS"]

_MEDIUM: Final = Rules(
    energies=2,
    max_value=2,
    copies=1,
    hand_size=1,
    city_demand=2,
    techs=frozenset({Tech.SMART}),
    allow_retake_discard=False,
    stall_limit=2,
)

#: The configurations `hatsuden-check --config NAME` knows, smallest first.
CONFIGS: Final = MappingProxyType(
    {
        # `make test`: one energy, cards 1-2 twice, the Accumulator; no overflow is possible with
        # a single column.
        "small": Rules(
            energies=1,
            max_value=2,
            copies=2,
            hand_size=1,
            city_demand=1,
            techs=frozenset({Tech.ACCUMULATOR}),
            allow_retake_discard=False,
            stall_limit=2,
        ),
        # `make verify`: two energies, cards 1-2 once, Smart; overflow and flips, tech draws,
        # Improve, both end conditions, both tie-breaks.
        "medium": _MEDIUM,
        # `make verify-big`: the medium game with all four tech cards and a stall limit of 4:
        # over 10^7 states, which the compact state store keeps in a few GB.
        "large": attrs.evolve(_MEDIUM, techs=frozenset(Tech), stall_limit=4),
        # The rule variants (R40, R41), each on a game where it decides something.
        # `make verify-variants`: the medium game with the Accumulator and Smart, both placed
        # as soon as drawn (R40), also in OVERFLOW, where the Accumulator may absorb it.
        "medium-place-at-once": attrs.evolve(
            _MEDIUM,
            techs=frozenset({Tech.ACCUMULATOR, Tech.SMART}),
            tech_timing=TechTiming.PLACE_AT_ONCE,
        ),
        # `make verify-variants`: the medium game with FlipSet (R41); its rows have one other
        # cell, so each set is one plant.
        "medium-any-set": attrs.evolve(_MEDIUM, overflow=Overflow.ANY_SET),
        # `make verify-variants-big`: three columns, all cards worth 1, demand 1: a third plant
        # in a row overflows it, and either other plant or both may be flipped (R41). A stall
        # limit of 2 lets a discard be taken and a grid be filled (with 1, neither happens).
        "wide-any-set": Rules(
            energies=3,
            max_value=1,
            copies=2,
            hand_size=1,
            city_demand=1,
            techs=frozenset(),
            allow_retake_discard=False,
            stall_limit=2,
            overflow=Overflow.ANY_SET,
        ),
    }
)
