"""Moves: frozen values, compared by value, one class per kind (R9-R22, R34).

Player moves name cells of the mover's own board. `Deal` and `DealTech` are chance outcomes (R6):
in explicit chance mode the caller (or a model checker) applies them in the CHANCE phase.

Moves cache their hash (``cache_hash=True``, the value's hash, computed once per object): the
engine's prebuilt moves sit in the turn logs of every state, so hashing a state hashes them.
"""

from __future__ import annotations

from functools import partial
from typing import Any, ClassVar, TypeAlias

import attrs

from hatsuden_rules.core.cards import ROWS, Card, Cell, Energy, Tech
from hatsuden_rules.core.errors import InvalidMoveError

__all__ = [
    "BuildPylon",
    "Construct",
    "Deal",
    "DealTech",
    "DeclineTech",
    "Discard",
    "Downsize",
    "DrawFromDeck",
    "DrawFromDiscard",
    "DrawTech",
    "EndTurn",
    "Flip",
    "FlipSet",
    "Improve",
    "Move",
    "Pass",
    "PlaceAccumulator",
    "PlaceSmart",
    "move_sort_key",
]


def _instance_of(kind: type, _: Any, attribute: attrs.Attribute[Any], value: object) -> None:
    """Validate a field holding exactly a `kind` (bound by `partial`: it runs at construction)."""
    if type(value) is not kind:
        raise InvalidMoveError(
            attribute.name, f"expected {kind.__name__}, got {type(value).__name__} {value!r}"
        )


_card = partial(_instance_of, Card)
_cell = partial(_instance_of, Cell)


def _row(_: Any, attribute: attrs.Attribute[int], value: object) -> None:
    if type(value) is not int or not 0 <= value < ROWS:
        raise InvalidMoveError(attribute.name, f"a row is 0 or 1, got {value!r}")


def _card_key(card: Card) -> tuple[int, int]:
    return (card.energy.column, card.value)


def _cell_key(cell: Cell) -> tuple[int, int]:
    return (cell.row, cell.energy.column)


@attrs.frozen(slots=True, cache_hash=True)
class Construct:
    """ACTION: build `card` from the hand into an empty own `cell` of its energy (R10, R11)."""

    kind: ClassVar[int] = 0
    card: Card = attrs.field(validator=_card)
    cell: Cell = attrs.field(validator=_cell)
    secret: bool = attrs.field(default=False, validator=partial(_instance_of, bool))


@attrs.frozen(slots=True, cache_hash=True)
class Improve:
    """ACTION: put `card` on an own plant of its energy with a strictly lower top value (R12)."""

    kind: ClassVar[int] = 1
    card: Card = attrs.field(validator=_card)
    cell: Cell = attrs.field(validator=_cell)


@attrs.frozen(slots=True, cache_hash=True)
class Downsize:
    """ACTION, spending Down: put `card` on an own plant of its energy with a higher top (R13)."""

    kind: ClassVar[int] = 2
    card: Card = attrs.field(validator=_card)
    cell: Cell = attrs.field(validator=_cell)


@attrs.frozen(slots=True, cache_hash=True)
class BuildPylon:
    """ACTION: put any `card` face down into an empty own `cell` (R14)."""

    kind: ClassVar[int] = 3
    card: Card = attrs.field(validator=_card)
    cell: Cell = attrs.field(validator=_cell)


@attrs.frozen(slots=True, cache_hash=True)
class Discard:
    """ACTION: put `card` face up into the discards (R15)."""

    kind: ClassVar[int] = 4
    card: Card = attrs.field(validator=_card)


@attrs.frozen(slots=True, cache_hash=True)
class Pass:
    """ACTION with an empty hand (R16)."""

    kind: ClassVar[int] = 5


@attrs.frozen(slots=True, cache_hash=True)
class DrawTech:
    """TECH: draw a technology card; a `DealTech` chance event follows (R17)."""

    kind: ClassVar[int] = 6


@attrs.frozen(slots=True, cache_hash=True)
class DeclineTech:
    """TECH: do not draw a technology card (R17)."""

    kind: ClassVar[int] = 7


@attrs.frozen(slots=True, cache_hash=True)
class Flip:
    """OVERFLOW: turn the plant on `cell` (not the one just played) into a pylon (R21)."""

    kind: ClassVar[int] = 8
    cell: Cell = attrs.field(validator=_cell)


def _to_cells(value: object) -> tuple[Cell, ...]:
    """The cells of a FlipSet in canonical order (row, then column); malformed input refused."""
    if isinstance(value, str | bytes) or not isinstance(value, tuple | list | frozenset | set):
        raise InvalidMoveError("cells", f"expected a tuple of Cell, got {value!r}")
    cells = tuple(value)
    for cell in cells:
        if type(cell) is not Cell:
            raise InvalidMoveError("cells", f"expected Cell values, got {type(cell).__name__}")
    if not cells:
        raise InvalidMoveError("cells", "a FlipSet flips at least one plant")
    if len(set(cells)) != len(cells):
        raise InvalidMoveError("cells", f"each cell appears once, got {cells!r}")
    return tuple(sorted(cells))  # Cell orders by row, then by column (R41's canonical order)


@attrs.frozen(slots=True, cache_hash=True)
class FlipSet:
    """OVERFLOW with ``overflow=ANY_SET``: turn the plants on `cells` into pylons at once (R41).

    `cells` is stored in canonical order (row, then column), so equal sets are equal moves.

    Examples:
        >>> FlipSet((Cell(0, Energy.WIND), Cell(0, Energy.SOLAR))).cells[0]
        Cell(row=0, energy=Energy.SOLAR)
    """

    kind: ClassVar[int] = 16
    cells: tuple[Cell, ...] = attrs.field(converter=_to_cells)


@attrs.frozen(slots=True, cache_hash=True)
class DrawFromDeck:
    """DRAW: draw from the deck; a `Deal` chance event follows, then the turn ends (R22)."""

    kind: ClassVar[int] = 9


@attrs.frozen(slots=True, cache_hash=True)
class DrawFromDiscard:
    """DRAW: take `card` from the discards; the turn ends (R22)."""

    kind: ClassVar[int] = 10
    card: Card = attrs.field(validator=_card)


@attrs.frozen(slots=True, cache_hash=True)
class EndTurn:
    """DRAW, when neither the deck nor the discards offer a card (R22)."""

    kind: ClassVar[int] = 11


@attrs.frozen(slots=True, cache_hash=True)
class PlaceAccumulator:
    """Free placement: put the held Accumulator on own city `row` (R18, R19)."""

    kind: ClassVar[int] = 12
    row: int = attrs.field(validator=_row)


@attrs.frozen(slots=True, cache_hash=True)
class PlaceSmart:
    """Free placement: put the held Smart card on `energy` (R18, R20)."""

    kind: ClassVar[int] = 13
    energy: Energy = attrs.field(validator=partial(_instance_of, Energy))


@attrs.frozen(slots=True, cache_hash=True)
class Deal:
    """Chance outcome: `card` arrives from the deck in the receiver's hand (R6, R7, R22)."""

    kind: ClassVar[int] = 14
    card: Card = attrs.field(validator=_card)


@attrs.frozen(slots=True, cache_hash=True)
class DealTech:
    """Chance outcome: `tech` arrives from the tech deck in the receiver's tech hand (R6, R17)."""

    kind: ClassVar[int] = 15
    tech: Tech = attrs.field(validator=partial(_instance_of, Tech))


Move: TypeAlias = (
    Construct
    | Improve
    | Downsize
    | BuildPylon
    | Discard
    | Pass
    | DrawTech
    | DeclineTech
    | Flip
    | DrawFromDeck
    | DrawFromDiscard
    | EndTurn
    | PlaceAccumulator
    | PlaceSmart
    | Deal
    | DealTech
    | FlipSet
)
"""Any move: one of the 15 player moves or one of the 2 chance outcomes (`Deal`, `DealTech`)."""

MOVE_TYPES: tuple[type[Move], ...] = (
    Construct,
    Improve,
    Downsize,
    BuildPylon,
    Discard,
    Pass,
    DrawTech,
    DeclineTech,
    Flip,
    DrawFromDeck,
    DrawFromDiscard,
    EndTurn,
    PlaceAccumulator,
    PlaceSmart,
    Deal,
    DealTech,
    FlipSet,
)

#: The position of each kind (by `kind`) in the canonical order (R34): FlipSet, added last as a
#: class, sorts right after Flip.
_RANK: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 16, 9)


def move_sort_key(move: Move) -> tuple[int, ...]:
    """The canonical order of moves (R34): kind, then card, then cell, then the secret flag.

    `legal_moves` returns moves sorted by this key. A FlipSet sorts after Flip, by its cells.

    Examples:
        >>> moves = [Pass(), Discard(Card(Energy.WIND, 1)), Discard(Card(Energy.SOLAR, 2))]
        >>> sorted(moves, key=move_sort_key)[0]
        Discard(card=Card(energy=Energy.SOLAR, value=2))
    """
    key: tuple[int, ...] = (_RANK[move.kind],)
    if isinstance(move, Construct):
        return key + _card_key(move.card) + _cell_key(move.cell) + (int(move.secret),)
    if isinstance(move, Improve | Downsize | BuildPylon):
        return key + _card_key(move.card) + _cell_key(move.cell)
    if isinstance(move, Discard | DrawFromDiscard | Deal):
        return key + _card_key(move.card)
    if isinstance(move, Flip):
        return key + _cell_key(move.cell)
    if isinstance(move, FlipSet):
        return key + tuple(n for cell in move.cells for n in _cell_key(cell))
    if isinstance(move, PlaceAccumulator):
        return (*key, move.row)
    if isinstance(move, PlaceSmart):
        return (*key, move.energy.column)
    if isinstance(move, DealTech):
        return (*key, move.tech.index)
    return key
