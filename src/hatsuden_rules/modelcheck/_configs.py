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

from hatsuden_rules import Overflow, Rules, Tech, TechTiming

__all__ = ["CONFIGS", "POSITION_CONFIGS"]

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

# Two energies, values 1-2, one copy, hand size 2, city demand 2, all four tech cards, no
# retaking one's own discard, stall limit 2 (issue 12).
_CHOICE: Final = attrs.evolve(_MEDIUM, hand_size=2, techs=frozenset(Tech))

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
        # `make test`: two-card hands and all four tech cards, so that every move kind comes with
        # real choices (which card to play, which discard to take back, which card to keep);
        # checked by position with the fingerprint engine (`POSITION_CONFIGS`).
        "choice": _CHOICE,
        # `make verify-huge`: the choice game with two copies of each card (duplicates in hands,
        # deck and discards): of the order of 10^8 positions.
        "huge": attrs.evolve(_CHOICE, copies=2),
    }
)
"""The configurations `hatsuden-check --config NAME` knows: the core ones smallest first, then the
rule variants' (R40, R41), then those checked by position (`POSITION_CONFIGS`)."""

POSITION_CONFIGS: Final = frozenset({"choice", "huge"})
"""The named configurations searched by position with the fingerprint engine by default
(``hatsuden-check --config choice`` means ``--positions --engine disk``)."""
