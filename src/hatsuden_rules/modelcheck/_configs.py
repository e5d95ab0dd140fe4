"""Named reduced rule sets for exhaustive checking (RULES.md, "Reduced configurations")."""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

from .._cards import Tech
from .._rules import Rules

__all__ = ["CONFIGS"]

#: The configurations `hatsuden-check --config NAME` knows, smallest first.
CONFIGS: Final = MappingProxyType(
    {
        # make test: every state, in seconds.
        "small": Rules(
            energies=2,
            max_value=2,
            copies=1,
            hand_size=1,
            city_demand=2,
            techs=frozenset(),
            stall_limit=2,
        ),
        # make verify: overflow, a tech draw with the Accumulator, Improve, both end conditions.
        "medium": Rules(
            energies=2,
            max_value=2,
            copies=1,
            hand_size=1,
            city_demand=2,
            techs=frozenset({Tech.ACCUMULATOR}),
            stall_limit=2,
        ),
        # make verify-big: all four tech cards.
        "large": Rules(
            energies=2,
            max_value=2,
            copies=1,
            hand_size=1,
            city_demand=2,
            stall_limit=2,
        ),
    }
)
