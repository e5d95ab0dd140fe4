"""The notation of cards, cells, tech cards and moves (NOTATION.md), shared by every layer.

The rest of the notation (rules, states, observations, and every reader) is in `notation/`; these
writers sit in the core because the observation's feature names and the core's own rendering use
them too.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

from hatsuden_rules.core.cards import Card, Cell, Tech
from hatsuden_rules.core.errors import InvalidMoveError
from hatsuden_rules.core.moves import (
    BuildPylon,
    Construct,
    Deal,
    DealTech,
    DeclineTech,
    Discard,
    Downsize,
    DrawFromDeck,
    DrawFromDiscard,
    DrawTech,
    EndTurn,
    Flip,
    FlipSet,
    Improve,
    Move,
    Pass,
    PlaceAccumulator,
    PlaceSmart,
)

__all__ = ["TECH_CODES", "format_card", "format_cell", "format_move"]

#: The three-letter code of each tech card, in canonical order (R3).
TECH_CODES: Final = MappingProxyType(
    {Tech.ACCUMULATOR: "ACC", Tech.SECRET_BUILD: "SEC", Tech.SMART: "SMT", Tech.DOWN: "DWN"}
)
"""The three-letter code of each tech card, in canonical order (R3)."""


def format_card(card: Card) -> str:
    """The notation of a card: energy letter and value.

    Examples:
        >>> from hatsuden_rules import Card, Energy
        >>> format_card(Card(Energy.WIND, 3))
        'W3'
    """
    return f"{card.energy.letter}{card.value}"


def format_cell(cell: Cell) -> str:
    """The notation of a cell: row and energy letter.

    Examples:
        >>> from hatsuden_rules import Cell, Energy
        >>> format_cell(Cell(1, Energy.HYDRO))
        '1H'
    """
    return f"{cell.row}{cell.energy.letter}"


def format_move(move: Move) -> str:
    """The canonical notation of a move.

    Raises:
        InvalidMoveError: `move` is not a move.

    Examples:
        >>> from hatsuden_rules import Card, Cell, Construct, DealTech, DrawFromDeck, Energy, Tech
        >>> format_move(Construct(Card(Energy.SOLAR, 3), Cell(0, Energy.SOLAR), secret=True))
        'C* S3 0S'
        >>> format_move(DealTech(Tech.ACCUMULATOR)), format_move(DrawFromDeck())
        ('=ACC', 'DD')
    """
    if isinstance(move, Construct):
        verb = "C*" if move.secret else "C"
        return f"{verb} {format_card(move.card)} {format_cell(move.cell)}"
    if isinstance(move, Improve | Downsize | BuildPylon):
        return f"{_CELL_VERBS[type(move)]} {format_card(move.card)} {format_cell(move.cell)}"
    if isinstance(move, Discard):
        return f"X {format_card(move.card)}"
    if isinstance(move, DrawFromDiscard):
        return f"DX {format_card(move.card)}"
    if isinstance(move, Deal):
        return f"={format_card(move.card)}"
    if isinstance(move, DealTech):
        return f"={TECH_CODES[move.tech]}"
    if isinstance(move, Flip):
        return f"F {format_cell(move.cell)}"
    if isinstance(move, FlipSet):
        return "FS " + "+".join(format_cell(cell) for cell in move.cells)
    if isinstance(move, PlaceAccumulator):
        return f"A {move.row}"
    if isinstance(move, PlaceSmart):
        return f"M {move.energy.letter}"
    if isinstance(move, Pass | DrawTech | DeclineTech | DrawFromDeck | EndTurn):
        return _BARE_VERBS[type(move)]
    raise InvalidMoveError("move", f"expected a move, got {type(move).__name__} {move!r}")


_CELL_VERBS: Final[dict[type, str]] = {Improve: "I", Downsize: "D", BuildPylon: "P"}
_BARE_VERBS: Final[dict[type, str]] = {
    Pass: "PASS",
    DrawTech: "DT",
    DeclineTech: "NT",
    DrawFromDeck: "DD",
    EndTurn: "E",
}
