"""The rule set (R31): `Rules` and its validation; the named rule sets `STANDARD` and `PRINTED`."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import Any, Final

import attrs

from hatsuden_rules.core.cards import MAX_CARD_VALUE, ROWS, Card, Cell, Energy, Tech
from hatsuden_rules.core.enums import GameEnum, Overflow, TechTiming, Tiebreak
from hatsuden_rules.core.errors import InvalidRulesError
from hatsuden_rules.core.tables import _Tables

__all__ = ["PRINTED", "STANDARD", "Overflow", "Rules", "TechTiming", "Tiebreak"]

RULES_VERSION: Final = 4
"""Bumped whenever game behaviour changes (a seeded game may then play differently)."""


def _int_at_least(minimum: int, _: Any, attribute: attrs.Attribute[int], value: object) -> None:
    """Validate an int field (bound by `partial`: it runs at construction)."""
    if type(value) is not int or value < minimum:
        raise InvalidRulesError(attribute.name, f"must be an int >= {minimum}, got {value!r} (R31)")


def _to_techs(value: object) -> frozenset[Tech]:
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise InvalidRulesError("techs", f"must be a set of Tech, got {value!r} (R31)")
    techs = frozenset(value)
    for tech in techs:
        if not isinstance(tech, Tech):
            raise InvalidRulesError("techs", f"must hold Tech members only, got {tech!r} (R31)")
    return techs


def _check_tiebreak(_: Any, attribute: attrs.Attribute[Tiebreak], value: object) -> None:
    if not isinstance(value, Tiebreak):
        raise InvalidRulesError("tiebreak", f"must be a Tiebreak, got {value!r} (R31)")


def _check_retake(_: Any, attribute: attrs.Attribute[bool], value: object) -> None:
    if type(value) is not bool:
        raise InvalidRulesError("allow_retake_discard", f"must be a bool, got {value!r} (R31)")


def _check_enum(
    kind: type[GameEnum], _: Any, attribute: attrs.Attribute[Any], value: object
) -> None:
    """Validate a variant field (bound by `partial`: it runs at construction)."""
    if not isinstance(value, kind):
        raise InvalidRulesError(attribute.name, f"must be a {kind.__name__}, got {value!r} (R31)")


def _check_stall(_: Any, attribute: Any, value: object) -> None:
    if value is not None and (type(value) is not int or value < 1):
        raise InvalidRulesError("stall_limit", f"must be None or an int >= 1, got {value!r} (R31)")


@attrs.frozen(slots=True, cache_hash=True, repr=False)
class Rules:
    """A rule set: the printed game (`STANDARD`, `PRINTED`), a variant, or a scaled-down game (R31).

    `tech_timing` (R40) and `overflow` (R41) choose between readings of the sources; their
    defaults are the library's rulings. Every field is validated at construction; an
    impossible combination raises `InvalidRulesError` (a ValueError) naming the field.

    Examples:
        >>> Rules() == STANDARD
        True
        >>> small = Rules(energies=2, max_value=2, copies=1, hand_size=1, city_demand=3)
        >>> small.tolerance, small.accumulator_tolerance, len(small.cards)
        (4, 5, 4)
        >>> Rules(max_value=12).tolerance
        Traceback (most recent call last):
        ...
        hatsuden_rules.InvalidRulesError: max_value: must be <= city_demand + 1 = 11, \
...
    """

    energies: int = attrs.field(default=5, validator=partial(_int_at_least, 1))
    max_value: int = attrs.field(default=4, validator=partial(_int_at_least, 1))
    copies: int = attrs.field(default=2, validator=partial(_int_at_least, 1))
    hand_size: int = attrs.field(default=5, validator=partial(_int_at_least, 1))
    city_demand: int = attrs.field(default=10, validator=partial(_int_at_least, 1))
    techs: frozenset[Tech] = attrs.field(default=frozenset(Tech), converter=_to_techs)
    tiebreak: Tiebreak = attrs.field(default=Tiebreak.CITY_POINTS, validator=_check_tiebreak)
    allow_retake_discard: bool = attrs.field(default=True, validator=_check_retake)
    stall_limit: int | None = attrs.field(default=20, validator=_check_stall)
    tech_timing: TechTiming = attrs.field(
        default=TechTiming.KEEP, validator=partial(_check_enum, TechTiming)
    )
    overflow: Overflow = attrs.field(
        default=Overflow.ONE_AT_A_TIME, validator=partial(_check_enum, Overflow)
    )
    _tables: _Tables = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.energies > len(Energy):
            raise InvalidRulesError(
                "energies", f"must be between 1 and {len(Energy)}, got {self.energies} (R31)"
            )
        if self.max_value > self.city_demand + 1:
            raise InvalidRulesError(
                "max_value",
                f"must be <= city_demand + 1 = {self.city_demand + 1}, got {self.max_value}, "
                "or an overflow could not be resolved (R21, R31)",
            )
        if self.max_value > MAX_CARD_VALUE:
            raise InvalidRulesError(
                "max_value",
                f"must be <= {MAX_CARD_VALUE}, got {self.max_value}: no card has a higher "
                "value (R2, R31)",
            )
        deck = self.energies * self.max_value * self.copies
        if deck < ROWS * self.hand_size:
            raise InvalidRulesError(
                "hand_size",
                f"the deck of {deck} cards cannot deal two hands of {self.hand_size} (R31)",
            )
        object.__setattr__(self, "_tables", _Tables(self))

    def __repr__(self) -> str:
        # Techs in canonical order (R3), so the repr is the same in every process.
        listed = ", ".join(repr(t) for t in self._tables.techs)
        techs = f"frozenset({{{listed}}})" if listed else "frozenset()"
        return (
            f"Rules(energies={self.energies!r}, max_value={self.max_value!r}, "
            f"copies={self.copies!r}, hand_size={self.hand_size!r}, "
            f"city_demand={self.city_demand!r}, techs={techs}, "
            f"tiebreak={self.tiebreak!r}, allow_retake_discard={self.allow_retake_discard!r}, "
            f"stall_limit={self.stall_limit!r}{self._variants_repr()})"
        )

    def _variants_repr(self) -> str:
        """The variant options (R40, R41) that are not at their default, as keyword arguments.

        Left out at their defaults, so that every rule set of earlier versions keeps its repr.
        """
        timing = self.tech_timing
        overflow = self.overflow
        return (f", tech_timing={timing!r}" if timing is not TechTiming.KEEP else "") + (
            f", overflow={overflow!r}" if overflow is not Overflow.ONE_AT_A_TIME else ""
        )

    @property
    def energies_in_play(self) -> tuple[Energy, ...]:
        """The energies in play: the first `energies` in column order (R1)."""
        return self._tables.energies

    @property
    def cards(self) -> tuple[Card, ...]:
        """The distinct plant cards in play, in canonical order (R2)."""
        return self._tables.cards

    @property
    def deck_size(self) -> int:
        """The number of plant cards in the game (40 in STANDARD)."""
        return len(self._tables.full_deck)

    @property
    def cells(self) -> tuple[Cell, ...]:
        """The cells of one grid, row 0 first, in column order (R4)."""
        return self._tables.cells

    @property
    def tolerance(self) -> int:
        """A city's tolerance without the Accumulator: city_demand + 1 (R21)."""
        return self.city_demand + 1

    @property
    def accumulator_tolerance(self) -> int:
        """A city's tolerance with the Accumulator: city_demand + 2 (R19)."""
        return self.city_demand + 2

    @property
    def penalty_threshold(self) -> int:
        """A city supplied this much or less costs a point: city_demand - 2 (R28)."""
        return self.city_demand - 2


STANDARD: Final = Rules()
"""The printed game with the stall rule (R25), the library's default: 5 energies, values 1-4,
2 copies, hands of 5, demand 10, all four techs."""

PRINTED: Final = Rules(stall_limit=None)
"""The printed rules alone (R31): `STANDARD` without the stall rule, which no printed text has.
Termination is then not guaranteed (R25)."""
