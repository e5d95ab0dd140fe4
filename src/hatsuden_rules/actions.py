"""Action ids: a fixed integer for every distinct move under a `Rules` (for game-AI frameworks).

Frameworks such as OpenSpiel and PettingZoo name moves by small integers. This module numbers
every distinct **player move** of a rule set ``0 .. num_distinct_actions(rules) - 1`` in the
canonical move order (`move_sort_key`, R34), so that `legal_moves` mapped to ids is strictly
ascending, and every **chance outcome** (``Deal(card)``, then ``DealTech(tech)``) in a separate id
space ``0 .. num_chance_outcomes(rules) - 1``, as OpenSpiel requires. The hatsuden_rules
adapters for OpenSpiel (`hatsuden_rules.openspiel`) and PettingZoo (`hatsuden_rules.pettingzoo`)
use these ids; other frameworks can reuse them. docs/frameworks.md lists the ranges.

A move that needs a tech card the rules leave out (a secret Construct without SECRET_BUILD,
Downsize without DOWN, DrawTech and DeclineTech without any tech card, the placements without
ACCUMULATOR or SMART) can never be legal, so it has no id. Likewise an overflow is resolved by
`Flip` under ``overflow=ONE_AT_A_TIME`` and by `FlipSet` under ``ANY_SET`` (R41): each rule set
numbers only its own kind (a FlipSet for every non-empty set of one row's cells).

Examples:
    >>> from hatsuden_rules import STANDARD, Card, Cell, Energy, Construct, Deal, Pass
    >>> num_distinct_actions(STANDARD), num_chance_outcomes(STANDARD)
    (422, 24)
    >>> move_to_action(STANDARD, Construct(Card(Energy.SOLAR, 1), Cell(0, Energy.SOLAR)))
    0
    >>> action_to_move(STANDARD, move_to_action(STANDARD, Pass()))
    Pass()
    >>> move_to_action(STANDARD, Deal(Card(Energy.SOLAR, 2)))  # a chance id
    1
    >>> action_to_move(STANDARD, 1, chance=True)
    Deal(card=Card(energy=Energy.SOLAR, value=2))
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterator
from types import MappingProxyType
from typing import Final, SupportsIndex

from hatsuden_rules.core.cards import ROWS, Tech
from hatsuden_rules.core.errors import InvalidInputError, InvalidMoveError
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
    move_sort_key,
)
from hatsuden_rules.core.rules import Overflow, Rules

__all__ = [
    "action_to_move",
    "chance_moves",
    "move_to_action",
    "num_chance_outcomes",
    "num_distinct_actions",
    "player_moves",
]

_CHANCE_KINDS: Final = (Deal, DealTech)


def _every_player_move(rules: Rules) -> Iterator[Move]:
    """Every distinct player move under `rules`, in no particular order.

    This is the one place that knows the move kinds: a new kind of move is one more ``yield``
    here (and its place in `move_sort_key`).
    """
    techs = rules.techs
    for card in rules.cards:
        for cell in rules.cells:
            if cell.energy is card.energy:
                yield Construct(card, cell)
                if Tech.SECRET_BUILD in techs:
                    yield Construct(card, cell, secret=True)
                yield Improve(card, cell)
                if Tech.DOWN in techs:
                    yield Downsize(card, cell)
            yield BuildPylon(card, cell)
        yield Discard(card)
        yield DrawFromDiscard(card)
    yield Pass()
    if techs:
        yield DrawTech()
        yield DeclineTech()
    if rules.overflow is Overflow.ANY_SET:  # R41: a set of a row's cells, never a single Flip
        width = rules.energies
        for row in range(ROWS):
            cells = rules.cells[row * width : (row + 1) * width]
            for mask in range(1, 1 << width):
                yield FlipSet(tuple(cell for c, cell in enumerate(cells) if mask >> c & 1))
    else:
        yield from (Flip(cell) for cell in rules.cells)
    yield DrawFromDeck()
    yield EndTurn()
    if Tech.ACCUMULATOR in techs:
        yield from (PlaceAccumulator(row) for row in range(ROWS))
    if Tech.SMART in techs:
        yield from (PlaceSmart(energy) for energy in rules.energies_in_play)


def _every_chance_move(rules: Rules) -> Iterator[Move]:
    """Every distinct chance outcome under `rules` (R6), in no particular order."""
    yield from (Deal(card) for card in rules.cards)
    yield from (DealTech(tech) for tech in rules.techs)


class _Table:
    """The two id tables of one `Rules`: moves by id and ids by move. Never mutated."""

    __slots__ = ("chance", "chance_ids", "player", "player_ids")

    def __init__(self, rules: Rules) -> None:
        self.player: tuple[Move, ...] = tuple(sorted(_every_player_move(rules), key=move_sort_key))
        self.chance: tuple[Move, ...] = tuple(sorted(_every_chance_move(rules), key=move_sort_key))
        self.player_ids = MappingProxyType({move: i for i, move in enumerate(self.player)})
        self.chance_ids = MappingProxyType({move: i for i, move in enumerate(self.chance)})


# A memo of a pure function of an immutable value (a `Rules` is frozen and hashable): results
# are the same with or without it, and it is bounded. It spares the adapters' hot paths the
# rebuild of a few hundred moves per call; nothing else is kept between calls.
@functools.lru_cache(maxsize=64)
def _table(rules: Rules) -> _Table:
    return _Table(rules)


def _checked(rules: object) -> _Table:
    if type(rules) is not Rules:
        raise InvalidInputError("rules", f"expected Rules, got {type(rules).__name__}")
    return _table(rules)


def player_moves(rules: Rules) -> tuple[Move, ...]:
    """Every distinct player move under `rules`, in id order (the canonical order, R34).

    Examples:
        >>> from hatsuden_rules import Rules
        >>> moves = player_moves(Rules(energies=1, max_value=2, copies=2, hand_size=1, techs=()))
        >>> len(moves), moves[0].card, moves[-1]
        (21, Card(energy=Energy.SOLAR, value=1), EndTurn())
    """
    return _checked(rules).player


def chance_moves(rules: Rules) -> tuple[Move, ...]:
    """Every distinct chance outcome under `rules` (``Deal`` then ``DealTech``), in id order.

    Examples:
        >>> from hatsuden_rules import Rules, Tech
        >>> chance_moves(Rules(energies=1, max_value=1, copies=2, hand_size=1,
        ...                    techs={Tech.SMART}))
        (Deal(card=Card(energy=Energy.SOLAR, value=1)), DealTech(tech=Tech.SMART))
    """
    return _checked(rules).chance


def num_distinct_actions(rules: Rules) -> int:
    """How many player moves `rules` has: player action ids are ``0 .. n - 1``.

    Examples:
        >>> from hatsuden_rules import STANDARD
        >>> num_distinct_actions(STANDARD)
        422
    """
    return len(_checked(rules).player)


def num_chance_outcomes(rules: Rules) -> int:
    """How many distinct chance outcomes `rules` has: chance ids are ``0 .. n - 1``.

    Examples:
        >>> from hatsuden_rules import STANDARD
        >>> num_chance_outcomes(STANDARD)  # 20 distinct cards and 4 tech cards
        24
    """
    return len(_checked(rules).chance)


def move_to_action(rules: Rules, move: Move) -> int:
    """The id of `move` under `rules`: a player action id, or a chance id for `Deal`/`DealTech`.

    Raises:
        InvalidMoveError: `move` is not a move, or is not a move of these rules (a card, cell or
            energy not in play, or a move needing a tech card the rules leave out).

    Examples:
        >>> from hatsuden_rules import STANDARD, DrawFromDeck
        >>> move_to_action(STANDARD, DrawFromDeck())
        393
    """
    table = _checked(rules)
    ids = table.chance_ids if isinstance(move, _CHANCE_KINDS) else table.player_ids
    try:
        return ids[move]
    except (KeyError, TypeError):
        raise InvalidMoveError(
            "move", f"{move!r} is not a move of these rules, so it has no action id"
        ) from None


def action_to_move(rules: Rules, action: SupportsIndex, *, chance: bool = False) -> Move:
    """The move with id `action` under `rules`: a player move, or with ``chance=True`` an outcome.

    Raises:
        InvalidInputError: `action` is not an integer in range (numpy integers are accepted).

    Examples:
        >>> from hatsuden_rules import STANDARD
        >>> action_to_move(STANDARD, 393)
        DrawFromDeck()
        >>> action_to_move(STANDARD, 23, chance=True)
        DealTech(tech=Tech.DOWN)
    """
    table = _checked(rules)
    moves = table.chance if chance else table.player
    index = _index(action)
    if index is None or not 0 <= index < len(moves):
        kind = "chance outcome" if chance else "action"
        raise InvalidInputError(
            "action", f"a {kind} id is an int in [0, {len(moves)}), got {action!r}"
        )
    return moves[index]


def _index(action: object) -> int | None:
    """`action` as an int if it is an integer (numpy integers included, bools not), else None."""
    if isinstance(action, bool):
        return None
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        return None
