"""The enum base of the library, and the enumerated options of `Rules` (R29, R40, R41)."""

from __future__ import annotations

import enum

__all__ = ["GameEnum", "Overflow", "TechTiming", "Tiebreak"]


class GameEnum(enum.Enum):
    """An `enum.Enum` whose repr evaluates back to the member, e.g. ``Energy.WIND``.

    So the repr of every move, card and cell is a constructor expression (python-chess style).

    Examples:
        >>> from hatsuden_rules import Energy
        >>> Energy.WIND, eval(repr(Energy.WIND)) is Energy.WIND
        (Energy.WIND, True)
    """

    # Members are singletons compared by identity, so the identity hash is consistent with
    # equality, and it is computed in C: enums sit in every state, card and cell that is hashed.
    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


class Tiebreak(GameEnum):
    """First tie-break when totals are equal (R29)."""

    #: Higher city points (+1/0/-1 per city): the publisher's text and the Japanese original.
    CITY_POINTS = "city_points"
    #: Higher total supply of both rows: the rulebook translation's reading.
    SUPPLY = "supply"


class TechTiming(GameEnum):
    """When a drawn Accumulator or Smart card is placed (R40)."""

    #: Every tech card may be kept and used later (R17, R18): the rulebook's "use them as soon as
    #: they are drawn, or ... reserve them".
    KEEP = "keep"
    #: Accumulator and Smart are placed as the drawer's very next moves; Secret Build and Down
    #: are kept (a reading of GOK's "some take effect immediately").
    PLACE_AT_ONCE = "place_at_once"


class Overflow(GameEnum):
    """How the plants an overflow turns into pylons are chosen (R21, R41)."""

    #: One Flip at a time; OVERFLOW ends as soon as the row is within tolerance (R21).
    ONE_AT_A_TIME = "one_at_a_time"
    #: One FlipSet: any set of the row's other plants whose flipping brings it within
    #: tolerance, chosen at once (the publisher's "flip one (or more)").
    ANY_SET = "any_set"
