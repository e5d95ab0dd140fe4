"""Components (R1-R4): energies, technology cards, plant cards and cells."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Final

import attrs

from hatsuden_rules.core.enums import GameEnum
from hatsuden_rules.core.errors import InvalidMoveError

__all__ = ["MAX_CARD_VALUE", "ROWS", "Card", "Cell", "Energy", "Tech"]

#: Each player has two cities, so two rows (R4).
ROWS: Final = 2
#: The highest value a plant card can have under any rule set (R2, R31: `max_value` <= 11).
MAX_CARD_VALUE: Final = 11


class Energy(GameEnum):
    """The five energies, in column order (R1). With ``energies=N`` the first N are in play."""

    SOLAR = "solar"
    GEOTHERMAL = "geothermal"
    WIND = "wind"
    HYDRO = "hydro"
    BIOMASS = "biomass"

    @property
    def column(self) -> int:
        """The 0-based column of this energy on every grid (R1)."""
        return _COLUMN[self]

    @property
    def letter(self) -> str:
        """One-letter code used by renderings: S, G, W, H or B."""
        return _LETTER[self]


class Tech(GameEnum):
    """The four special technology cards, in canonical order (R3)."""

    ACCUMULATOR = "accumulator"
    SECRET_BUILD = "secret_build"
    SMART = "smart"
    DOWN = "down"

    @property
    def index(self) -> int:
        """The 0-based canonical position of this tech card (R3, R33)."""
        return _TECH_INDEX[self]


_COLUMN: Final = MappingProxyType({energy: i for i, energy in enumerate(Energy)})
_LETTER: Final = MappingProxyType({energy: energy.name[0] for energy in Energy})
_TECH_INDEX: Final = MappingProxyType({tech: i for i, tech in enumerate(Tech)})


def _check_energy(_: Any, attribute: attrs.Attribute[Energy], value: object) -> None:
    if not isinstance(value, Energy):
        raise InvalidMoveError(attribute.name, f"expected an Energy, got {value!r}")


def _column_key(energy: Energy) -> int:
    return _COLUMN[energy]


@attrs.frozen(slots=True, cache_hash=True, order=True)
class Card:
    """A power-plant card (R2): an energy and a value. Equal cards are interchangeable.

    Cards sort in canonical order: by energy column, then by value. A value outside 1..11
    (`MAX_CARD_VALUE`) is no card under any rule set: it is refused here, naming `value` (R2).

    Examples:
        >>> Card(Energy.WIND, 3)
        Card(energy=Energy.WIND, value=3)
        >>> sorted([Card(Energy.WIND, 1), Card(Energy.SOLAR, 4)])[0].energy
        Energy.SOLAR
    """

    energy: Energy = attrs.field(validator=_check_energy, order=_column_key)
    value: int = attrs.field()

    @value.validator
    def _check_value(self, attribute: attrs.Attribute[int], value: object) -> None:
        if type(value) is not int or not 1 <= value <= MAX_CARD_VALUE:
            raise InvalidMoveError(
                "value", f"a card value is an int from 1 to {MAX_CARD_VALUE} (R2), got {value!r}"
            )


@attrs.frozen(slots=True, cache_hash=True, order=True)
class Cell:
    """A cell of a player's grid (R4): a row (0 or 1, the player's two cities) and a column.

    Cells sort by row, then by energy column.

    Examples:
        >>> Cell(1, Energy.HYDRO)
        Cell(row=1, energy=Energy.HYDRO)
    """

    row: int = attrs.field()
    energy: Energy = attrs.field(validator=_check_energy, order=_column_key)

    @row.validator
    def _check_row(self, attribute: attrs.Attribute[int], value: object) -> None:
        if type(value) is not int or not 0 <= value < ROWS:
            raise InvalidMoveError("row", f"a row is 0 or 1, got {value!r}")
