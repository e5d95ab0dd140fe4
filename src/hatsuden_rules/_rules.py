"""The rule set (R31): `Rules`, its validation, and the move tables derived from it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

import attrs

from ._cards import ROWS, Card, Cell, Energy, Tech
from ._enums import GameEnum
from ._errors import InvalidRulesError
from ._moves import (
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

__all__ = ["PRINTED", "STANDARD", "Overflow", "Rules", "TechTiming", "Tiebreak"]

RULES_VERSION: Final = 3
"""Bumped whenever game behaviour changes (a seeded game may then play differently)."""


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


def _int_at_least(minimum: int) -> Any:
    def check(_: Any, attribute: attrs.Attribute[int], value: object) -> None:
        if type(value) is not int or value < minimum:
            raise InvalidRulesError(
                attribute.name, f"must be an int >= {minimum}, got {value!r} (R31)"
            )

    return check


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


def _check_enum(kind: type[GameEnum]) -> Any:
    def check(_: Any, attribute: attrs.Attribute[Any], value: object) -> None:
        if not isinstance(value, kind):
            raise InvalidRulesError(
                attribute.name, f"must be a {kind.__name__}, got {value!r} (R31)"
            )

    return check


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
        hatsuden_rules._errors.InvalidRulesError: max_value: must be <= city_demand + 1 = 11, ...
    """

    energies: int = attrs.field(default=5, validator=_int_at_least(1))
    max_value: int = attrs.field(default=4, validator=_int_at_least(1))
    copies: int = attrs.field(default=2, validator=_int_at_least(1))
    hand_size: int = attrs.field(default=5, validator=_int_at_least(1))
    city_demand: int = attrs.field(default=10, validator=_int_at_least(1))
    techs: frozenset[Tech] = attrs.field(default=frozenset(Tech), converter=_to_techs)
    tiebreak: Tiebreak = attrs.field(default=Tiebreak.CITY_POINTS, validator=_check_tiebreak)
    allow_retake_discard: bool = attrs.field(default=True, validator=_check_retake)
    stall_limit: int | None = attrs.field(default=20, validator=_check_stall)
    tech_timing: TechTiming = attrs.field(
        default=TechTiming.KEEP, validator=_check_enum(TechTiming)
    )
    overflow: Overflow = attrs.field(
        default=Overflow.ONE_AT_A_TIME, validator=_check_enum(Overflow)
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
        out = ""
        if self.tech_timing is not TechTiming.KEEP:
            out += f", tech_timing={self.tech_timing!r}"
        if self.overflow is not Overflow.ONE_AT_A_TIME:
            out += f", overflow={self.overflow!r}"
        return out

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
        # not in here and is looked up by value.
        self.move_args: dict[int, tuple[int, int]] = {}
        for i, (targets, pylons) in enumerate(zip(self.targets, self.pylon, strict=True)):
            for c, *moves in targets:
                self.move_args.update(dict.fromkeys(map(id, moves), (i, c)))
            for c, pylon in enumerate(pylons):
                self.move_args[id(pylon)] = (i, c)
            for move in (self.discard[i], self.take[i], self.deal[i]):
                self.move_args[id(move)] = (i, -1)


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


STANDARD: Final = Rules()
"""The printed game with the stall rule (R25), the library's default: 5 energies, values 1-4,
2 copies, hands of 5, demand 10, all four techs."""

PRINTED: Final = Rules(stall_limit=None)
"""The printed rules alone (R31): `STANDARD` without the stall rule, which no printed text has.
Termination is then not guaranteed (R25)."""
