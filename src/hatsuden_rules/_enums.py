"""The base of every enumeration in the library: its repr is the expression that names it."""

from __future__ import annotations

import enum

__all__ = ["GameEnum"]


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
