"""The checks `apply` makes before it builds anything, and its operations on card tuples.

Each check raises `IllegalMoveError` naming the rule that forbids the move.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import NoReturn, TypeVar

from hatsuden_rules.core.cards import Card, Cell, Tech
from hatsuden_rules.core.encoding import FACE_DOWN
from hatsuden_rules.core.errors import IllegalMoveError
from hatsuden_rules.core.moves import (
    BuildPylon,
    Construct,
    Downsize,
    Improve,
    Move,
    PlaceAccumulator,
    PlaceSmart,
)
from hatsuden_rules.core.state import GameState, Phase

__all__ = [
    "blur",
    "card_and_cell",
    "card_index",
    "cell_index",
    "check_nothing_due",
    "forget",
    "illegal",
    "insert",
    "pair",
    "plant_at",
    "put",
    "remove",
    "same_energy",
    "take_from_hand",
    "wrong_phase",
]

_T = TypeVar("_T")
_AT_ONCE = (Tech.ACCUMULATOR, Tech.SMART)  # R40: placed as soon as drawn with PLACE_AT_ONCE


def check_nothing_due(state: GameState, move: Move) -> None:
    """R40: with PLACE_AT_ONCE a drawn Accumulator or Smart is placed before any other move."""
    if isinstance(move, PlaceAccumulator | PlaceSmart):
        return
    held = state._tech_hands[state.current_player]
    due = [tech.name for tech in _AT_ONCE if tech in held]
    if due:
        illegal(
            state,
            move,
            "R40",
            f"{' and '.join(due)} must be placed before any other move (tech_timing=PLACE_AT_ONCE)",
        )


def illegal(state: GameState, move: Move, rule: str, reason: str) -> NoReturn:
    """Refuse `move` in `state`, naming the `rule` it breaks and why."""
    raise IllegalMoveError(state, move, rule, reason)


def wrong_phase(state: GameState, move: Move, phase: Phase) -> NoReturn:
    """Refuse `move`, which belongs to `phase`, not to the current one (R9)."""
    illegal(
        state,
        move,
        "R9",
        f"{type(move).__name__} is a {phase.name} move, but the phase is {state.phase.name}",
    )


def not_in_play(state: GameState, card: Card) -> str:
    """Why `card` is refused: no such card exists under the game's rules (not "not in the hand")."""
    rules = state.rules
    energies = " ".join(energy.letter for energy in rules.energies_in_play)
    return (
        f"{card} is not a card in play under these rules: there is no "
        f"{card.energy.letter}{card.value} (values 1 to {rules.max_value}, energies {energies})"
    )


def card_index(state: GameState, move: Move, card: Card) -> int:
    """The index of `card`, the card `move` names (R2)."""
    t = state.rules._tables
    # A prebuilt move: no hashing (see `_Tables.move_args`); not mutated, as in `card_and_cell`.
    args = t.move_args.get(id(move))  # pragma: no mutate
    if args is not None:
        return args[0]
    index = t.card_index.get(card)
    if index is None:
        illegal(state, move, "R2", not_in_play(state, card))
    return index


def cell_index(state: GameState, move: Move, cell: Cell) -> int:
    """The index of `cell` in the rules' cells; refuses a column not in play (R1)."""
    index = state.rules._tables.cell_index.get(cell)
    if index is None:
        illegal(state, move, "R1", f"{cell} is in a column of an energy not in play")
    return index


def card_and_cell(
    state: GameState, move: Construct | Improve | Downsize | BuildPylon
) -> tuple[int, int]:
    """The card and cell indices a move names (a prebuilt move costs one lookup)."""
    t = state.rules._tables
    # A prebuilt move: no hashing (see `_Tables.move_args`). The lookup only saves work, so it
    # is not mutated (MUTATION.md, "Excluded at the source").
    args = t.move_args.get(id(move))  # pragma: no mutate
    if args is not None:
        return args
    return card_index(state, move, move.card), cell_index(state, move, move.cell)


def take_from_hand(state: GameState, move: Move, card: int, rule: str) -> tuple[int, ...]:
    """The current player's hand without `card`; refuses a card not in it (`rule`)."""
    hand = state._hands[state.current_player]
    try:
        k = hand.index(card)
    except ValueError:
        illegal(state, move, rule, f"{state.rules.cards[card]} is not in the hand")
    return hand[:k] + hand[k + 1 :]


def plant_at(state: GameState, move: Move, cell: int, rule: str, verb: str) -> tuple[int, ...]:
    """The stack at `cell`; refuses an empty cell or a pylon (`rule`)."""
    raw = state._boards[state.current_player][cell]
    if not raw:
        illegal(state, move, rule, f"{verb} needs a plant, and {state.rules.cells[cell]} is empty")
    if raw[0] & FACE_DOWN:
        illegal(
            state, move, rule, f"{verb} needs a plant, and {state.rules.cells[cell]} is a pylon"
        )
    return raw


def same_energy(state: GameState, move: Move, card: int, cell: int, rule: str) -> None:
    """Refuse a card whose energy is not the column's (`rule`)."""
    t = state.rules._tables
    if t.card_col[card] != cell % len(t.energies):
        illegal(
            state,
            move,
            rule,
            f"{type(move).__name__} needs a card of the plant's energy: "
            f"a {t.cards[card].energy.name} card on a {t.cells[cell].energy.name} plant",
        )


def insert(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    """`cards` (sorted) with `card` added in order."""
    k = bisect_right(cards, card)
    return cards[:k] + (card,) + cards[k:]


def remove(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    """`cards` without one copy of `card`."""
    k = cards.index(card)
    return cards[:k] + cards[k + 1 :]


def forget(known: tuple[int, ...], card: int) -> tuple[int, ...]:
    """Known cards after `card` was played face up from the hand (R36)."""
    return remove(known, card) if card in known else known


def blur(known: tuple[int, ...]) -> tuple[int, ...]:
    """Known cards after a hidden play from the hand: any of them may be the card (R36).

    Only what is certain remains: one copy fewer of each distinct known card. This depends on the
    known cards alone, never on the hidden card, so it cannot leak it.
    """
    out: list[int] = []
    previous = -1  # pragma: no mutate (a sentinel: any value that is not a card index)
    for card in known:
        if card == previous:
            out.append(card)
        previous = card
    return tuple(out)


def pair(pair: tuple[_T, _T], player: int, value: _T) -> tuple[_T, _T]:
    """`pair` with `player`'s entry replaced by `value`."""
    return (value, pair[1]) if player == 0 else (pair[0], value)


def put(
    board: tuple[tuple[int, ...], ...], cell: int, raw: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    """`board` with the stack at `cell` replaced by `raw`."""
    return board[:cell] + (raw,) + board[cell + 1 :]
