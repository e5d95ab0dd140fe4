"""Every named rule set of the library, each defined once (RULES.md R31).

The printed game's options and the reduced games of the conformance suite, the model checker,
and the hidden-information and termination checks.

The tools pick their names from `NAMED` (the conformance suite: `VECTOR_SETS`, the model
checker: `CHECK_SETS`, ...); a name means the same rules everywhere.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

import attrs

from hatsuden_rules.core.cards import Tech
from hatsuden_rules.core.enums import Overflow, TechTiming, Tiebreak
from hatsuden_rules.core.rules import PRINTED, STANDARD, Rules

__all__ = [
    "CHECK_SETS",
    "INFORMATION_SETS",
    "NAMED",
    "TERMINATION_SETS",
    "VECTOR_SETS",
]

# One energy, cards 1-2 twice, the Accumulator; no overflow is possible with a single column.
_SMALL: Final = Rules(
    energies=1,
    max_value=2,
    copies=2,
    hand_size=1,
    city_demand=1,
    techs=frozenset({Tech.ACCUMULATOR}),
    allow_retake_discard=False,
    stall_limit=2,
)
# Two energies, cards 1-2 once, Smart; overflow and flips, tech draws, Improve, both end
# conditions, both tie-breaks.
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
# One energy, cards 1-2 three times, one-card hands: the smallest games with Secret Build.
_SECRET: Final = Rules(
    energies=1,
    max_value=2,
    copies=3,
    hand_size=1,
    city_demand=1,
    techs=frozenset({Tech.SECRET_BUILD, Tech.DOWN}),
    allow_retake_discard=True,
    stall_limit=1,
)
# `small` under the printed rules (no stall rule, the retake allowed).
_PRINTED_SMALL: Final = attrs.evolve(_SMALL, allow_retake_discard=True, stall_limit=None)

NAMED: Final = MappingProxyType(
    {
        "standard": STANDARD,
        "printed": PRINTED,
        # The printed game with one option changed at a time (the conformance suite).
        "supply": Rules(tiebreak=Tiebreak.SUPPLY),
        "noretake": Rules(allow_retake_discard=False),
        "stall5": Rules(stall_limit=5),
        "notech": Rules(techs=frozenset()),
        # Mid-sized games (the conformance suite).
        "mini": Rules(energies=3, max_value=3, copies=2, hand_size=3, city_demand=6, stall_limit=6),
        "quad": Rules(
            energies=4,
            max_value=4,
            copies=1,
            hand_size=4,
            city_demand=8,
            techs=frozenset({Tech.ACCUMULATOR, Tech.DOWN}),
            tiebreak=Tiebreak.SUPPLY,
            allow_retake_discard=False,
            stall_limit=8,
        ),
        "nostall": Rules(
            energies=2, max_value=3, copies=2, hand_size=2, city_demand=4, stall_limit=None
        ),
        # The model checker's reduced games. `make test`: small; `make verify`: medium.
        "small": _SMALL,
        "medium": _MEDIUM,
        "medium-alltech": attrs.evolve(_MEDIUM, techs=frozenset(Tech)),
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
        # checked by position with the fingerprint engine.
        "choice": _CHOICE,
        # `make verify-huge`: the choice game with two copies of each card (duplicates in hands,
        # deck and discards): of the order of 10^8 positions.
        "huge": attrs.evolve(_CHOICE, copies=2),
        # The hidden-information checks: Secret Build and Down on the smallest games.
        "small-secret": _SECRET,
        # R40: small-secret's cards with the Accumulator and Down, the Accumulator placed as soon
        # as drawn: an opponent's tech card is Down unless it was drawn this very move.
        "small-place-at-once": attrs.evolve(
            _SECRET,
            techs=frozenset({Tech.ACCUMULATOR, Tech.DOWN}),
            tech_timing=TechTiming.PLACE_AT_ONCE,
        ),
        # R41: two columns, Secret Build, demand 1: overflows are frequent and FlipSets bound or
        # flip a secret card (R38).
        "secret-any-set": Rules(
            energies=2,
            max_value=2,
            copies=1,
            hand_size=1,
            city_demand=1,
            techs=frozenset({Tech.SECRET_BUILD}),
            allow_retake_discard=False,
            stall_limit=2,
            overflow=Overflow.ANY_SET,
        ),
        # The termination question (R25). The ``printed-*`` games keep every option of
        # `PRINTED` (no stall rule; a player may take back the card they just discarded) and
        # scale the components down like ``small`` and ``medium``; ``printed-small-noretake``
        # asks whether forbidding the retake (a ruling, R22) alone makes every game end;
        # ``small-stall`` is the control with the stall rule, where every game ends.
        "printed-small": _PRINTED_SMALL,
        "printed-small-noretake": attrs.evolve(_PRINTED_SMALL, allow_retake_discard=False),
        "printed-medium": attrs.evolve(_MEDIUM, allow_retake_discard=True, stall_limit=None),
        "small-stall": attrs.evolve(_PRINTED_SMALL, stall_limit=2),
    }
)
"""Every named rule set, by name."""


def _pick(*names: str) -> MappingProxyType[str, Rules]:
    return MappingProxyType({name: NAMED[name] for name in names})


#: The rule sets the conformance suite plays: the printed game, one option changed at a time,
#: mid-sized games, and the model checker's small configurations.
VECTOR_SETS: Final = _pick(
    "standard",
    "supply",
    "noretake",
    "stall5",
    "notech",
    "mini",
    "quad",
    "nostall",
    "small",
    "medium",
    "medium-alltech",
)
#: The configurations of `hatsuden-check --config NAME`: the core ones smallest first, then the
#: rule variants' (R40, R41), then those checked by position.
CHECK_SETS: Final = _pick(
    "small",
    "medium",
    "large",
    "medium-place-at-once",
    "medium-any-set",
    "wide-any-set",
    "choice",
    "huge",
)
#: The configurations of the hidden-information checks.
INFORMATION_SETS: Final = _pick(
    "small", "small-secret", "medium", "large", "small-place-at-once", "secret-any-set"
)
#: The configurations of the termination check.
TERMINATION_SETS: Final = _pick(
    "printed-small", "printed-small-noretake", "printed-medium", "small-stall"
)
