"""The tables derived from a `Rules`: the int encoding of its cards and cells, prebuilt moves.

Built once per `Rules` (its private ``_tables``); read through `encoding`, which documents the
encoding.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hatsuden_rules.core.cards import ROWS, Card, Cell, Energy, Tech
from hatsuden_rules.core.enums import Overflow
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
    Pass,
    PlaceAccumulator,
    PlaceSmart,
)

if TYPE_CHECKING:
    from hatsuden_rules.core.rules import Rules

__all__ = ["_Tables"]


class _Tables:
    """Everything derived from a `Rules` that the hot paths look up, built once per `Rules`.

    Cards and cells are small ints inside states: card ``i = column * max_value + value - 1``,
    cell ``c = row * energies + column``. Moves are prebuilt here so that `legal_moves` never
    constructs one; `targets` lists, per card, the moves onto the cells of its energy (one pass
    in `legal_moves`), and `move_args` gives `apply` the indices of a prebuilt move by its id.
    Nothing here is mutated after construction (plain dicts are used for speed).
    """

    __slots__ = (
        "accumulator_tolerance",
        "card_col",
        "card_index",
        "card_value",
        "cards",
        "cell_index",
        "cells",
        "construct",
        "construct_secret",
        "deal",
        "deal_tech",
        "decline_tech",
        "discard",
        "downsize",
        "draw_deck",
        "draw_only",
        "draw_tech",
        "end_only",
        "end_turn",
        "energies",
        "energy_index",
        "flip",
        "flip_sets",
        "full_deck",
        "improve",
        "move_args",
        "pass_",
        "place_accumulator",
        "place_smart",
        "pylon",
        "take",
        "targets",
        "techs",
        "tolerance",
    )

    def __init__(self, rules: Rules) -> None:
        n_energies, top = rules.energies, rules.max_value
        self.energies: tuple[Energy, ...] = tuple(Energy)[:n_energies]
        self.energy_index = {e: i for i, e in enumerate(self.energies)}
        self.cards = tuple(Card(e, v) for e in self.energies for v in range(1, top + 1))
        self.card_index = {card: i for i, card in enumerate(self.cards)}
        self.card_value = tuple(card.value for card in self.cards)
        self.card_col = tuple(self.energy_index[card.energy] for card in self.cards)
        self.cells = tuple(Cell(row, e) for row in range(ROWS) for e in self.energies)
        self.cell_index = {cell: c for c, cell in enumerate(self.cells)}
        self.full_deck = tuple(i for i in range(len(self.cards)) for _ in range(rules.copies))
        self.techs = tuple(t for t in Tech if t in rules.techs)
        self.tolerance = rules.city_demand + 1
        self.accumulator_tolerance = rules.city_demand + 2

        def cell_of(card: Card, row: int) -> Cell:
            return self.cells[row * n_energies + self.energy_index[card.energy]]

        rows = range(ROWS)
        self.construct = tuple(tuple(Construct(k, cell_of(k, r)) for r in rows) for k in self.cards)
        self.construct_secret = tuple(
            tuple(Construct(k, cell_of(k, r), secret=True) for r in rows) for k in self.cards
        )
        self.improve = tuple(tuple(Improve(k, cell_of(k, r)) for r in rows) for k in self.cards)
        self.downsize = tuple(tuple(Downsize(k, cell_of(k, r)) for r in rows) for k in self.cards)
        self.pylon = tuple(tuple(BuildPylon(k, cell) for cell in self.cells) for k in self.cards)
        self.discard = tuple(Discard(k) for k in self.cards)
        self.take = tuple(DrawFromDiscard(k) for k in self.cards)
        self.deal = tuple(Deal(k) for k in self.cards)
        self.flip = tuple(Flip(cell) for cell in self.cells)
        self.flip_sets = (
            _flip_sets(self.cells, n_energies) if rules.overflow is Overflow.ANY_SET else ()
        )
        self.place_accumulator = tuple(PlaceAccumulator(r) for r in rows)
        self.place_smart = tuple(PlaceSmart(e) for e in self.energies)
        self.deal_tech = {t: DealTech(t) for t in Tech}
        self.pass_ = Pass()
        self.draw_tech = DrawTech()
        self.decline_tech = DeclineTech()
        self.draw_deck = DrawFromDeck()
        self.end_turn = EndTurn()
        self.draw_only = (self.draw_deck,)
        self.end_only = (self.end_turn,)
        # For each card, per row: the cell of its energy and the prebuilt Construct, secret
        # Construct, Improve and Downsize onto it, so `legal_moves` finds them in one pass.
        self.targets = tuple(
            tuple(
                (
                    r * n_energies + self.card_col[i],
                    self.construct[i][r],
                    self.construct_secret[i][r],
                    self.improve[i][r],
                    self.downsize[i][r],
                )
                for r in rows
            )
            for i in range(len(self.cards))
        )
        # The card and cell indices (-1: no cell) of each prebuilt move with a card, keyed by the
        # move object's id: `apply` finds them without hashing the move's Card and Cell (Python
        # __hash__ calls). These moves live as long as these tables, so while a state of these
        # rules exists no other object can have one of these ids; a move built by the user is
        # not in here and is looked up by value. Not mutated: `apply` falls back on the lookup by
        # value for any move not in here (MUTATION.md, "Excluded at the source").
        self.move_args: dict[int, tuple[int, int]] = {}
        args = self.move_args
        per_card = zip(self.targets, self.pylon, strict=True)  # pragma: no mutate
        for i, (targets, pylons) in enumerate(per_card):
            for c, *moves in targets:
                args.update(dict.fromkeys(map(id, moves), (i, c)))  # pragma: no mutate
            for c, pylon in enumerate(pylons):
                args[id(pylon)] = (i, c)  # pragma: no mutate
            for move in (self.discard[i], self.take[i], self.deal[i]):
                args[id(move)] = (i, -1)  # pragma: no mutate


def _flip_sets(
    cells: tuple[Cell, ...], width: int
) -> tuple[tuple[tuple[int, tuple[int, ...], FlipSet], ...], ...]:
    """Per row, every FlipSet of the row as (column mask, columns, move), in canonical order (R34).

    The order is lexicographic on the cells (row, then column), as `move_sort_key` sorts them.
    """
    rows = []
    for row in range(ROWS):
        entries = []
        for mask in range(1, 1 << width):
            columns = tuple(c for c in range(width) if mask >> c & 1)
            entries.append((mask, columns, FlipSet(tuple(cells[row * width + c] for c in columns))))
        entries.sort(key=lambda entry: entry[1])
        rows.append(tuple(entries))
    return tuple(rows)
