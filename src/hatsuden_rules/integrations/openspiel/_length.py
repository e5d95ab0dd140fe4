"""Bounds on the length of a game, derived from the rules (OpenSpiel's `max_game_length`).

OpenSpiel needs an upper bound on the number of player moves of any game, and one on the number
of chance events; docs/frameworks.md (`max_game_length`) derives both from the rules. With no
stall rule there is no bound, and the OpenSpiel game refuses the rule set.
"""

from __future__ import annotations

from hatsuden_rules.core.cards import Tech
from hatsuden_rules.core.errors import InvalidRulesError
from hatsuden_rules.core.rules import Rules

__all__ = ["max_chance_nodes", "max_game_length"]

_PLACEABLE = (Tech.ACCUMULATOR, Tech.SMART)


def max_game_length(rules: Rules) -> int:
    """An upper bound on the player moves of any game under `rules` (see the module docstring).

    Raises:
        InvalidRulesError: ``rules.stall_limit`` is None: with no stall rule (R25) no bound
            exists.

    Examples:
        >>> from hatsuden_rules import STANDARD
        >>> max_game_length(STANDARD)  # 2*20*41 + 40 + 4*5 + 2
        1702
    """
    if type(rules) is not Rules:
        raise InvalidRulesError("rules", f"expected Rules, got {type(rules).__name__}")
    limit = rules.stall_limit
    if limit is None:
        raise InvalidRulesError(
            "stall_limit",
            "OpenSpiel needs a bound on the length of a game, and without the stall rule (R25) "
            "a game may never end: set stall_limit >= 1",
        )
    deck = rules.deck_size
    placements = sum(1 for tech in _PLACEABLE if tech in rules.techs)
    return 2 * limit * (deck + 1) + deck + 4 * rules.energies + placements


def max_chance_nodes(rules: Rules) -> int:
    """An upper bound on the chance events of any game: every card and tech card dealt once.

    Examples:
        >>> from hatsuden_rules import STANDARD
        >>> max_chance_nodes(STANDARD)
        44
    """
    if type(rules) is not Rules:
        raise InvalidRulesError("rules", f"expected Rules, got {type(rules).__name__}")
    return rules.deck_size + len(rules.techs)
