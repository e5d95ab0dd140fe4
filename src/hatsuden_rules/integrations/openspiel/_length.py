"""Bounds on the length of a game, derived from the rules (OpenSpiel's `max_game_length`).

OpenSpiel needs an upper bound on the number of player moves of any game, and one on the
number of chance events. Both follow from the rules; docs/frameworks.md gives the same
derivation. Write D for the deck size (`Rules.deck_size`), L for `stall_limit`, E for
`energies`, T for the number of tech cards in play.

- **Turns.** A turn is *productive* when a card goes into a cell (Construct, Improve, Downsize,
  BuildPylon: exactly one card, from the hand, for good, R23). There are at most D productive
  turns. The stall counter counts the turns in a row that are not productive and the game ends
  when it reaches L (R25), so at most L - 1 unproductive turns separate two productive ones, and
  at most L follow the last one. With P <= D productive turns, a game has at most
  P + P (L - 1) + L = L (P + 1) <= L (D + 1) turns.
- **Player moves per turn.** Every turn has exactly one ACTION move and one DRAW move (R9, R22):
  2 L (D + 1). A TECH decision (DrawTech or DeclineTech) follows a Construct or Improve only, so
  at most once per productive turn: D. Each Flip turns a plant into a pylon for good (R21), and
  there are 4 E cells: 4 E. Each free placement puts a tech card down for good (R18): at most 2
  (ACCUMULATOR and SMART, if in play).
- **Total:** ``max_game_length = 2 L (D + 1) + D + 4 E + placements``.
- **Chance events:** every `Deal` takes a card from the deck, every `DealTech` a tech card from
  the tech deck (R6), so at most D + T.

With no stall rule (``stall_limit=None``, parameter ``stall_limit=0``) a game may go on for ever
(R25: two players trading discards), so there is no bound and the OpenSpiel game refuses the rule
set rather than cap games silently.
"""

from __future__ import annotations

from hatsuden_rules._core.cards import Tech
from hatsuden_rules._core.errors import InvalidRulesError
from hatsuden_rules._core.rules import Rules

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
