"""The base of every enumeration in the library: its repr is the expression that names it."""

from __future__ import annotations

import enum

__all__ = ["GameEnum"]


class GameEnum(enum.Enum):
    """An `enum.Enum` whose repr evaluates back to the member, e.g. ``Energy.WIND``.

    So the repr of every move, card and cell is a constructor expression (python-chess style).
    """

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"
