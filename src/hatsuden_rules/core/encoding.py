"""The int encoding of a state: the one internal interface to it, for this package and for ports.

A `GameState` stores cards and cells as small ints, indices into the tables of its `Rules`
(`tables`, built once per `Rules`):

- card ``i = column * max_value + value - 1`` (`Rules.cards` order), cell
  ``c = row * energies + column`` (`Rules.cells` order);
- hands, deck, discards and known cards: sorted tuples of card indices (multisets, R2);
- a board: one entry per cell, ``()`` when empty, else a stack ``(flags, bottom, ..., top)``
  whose flags are the bits `FACE_DOWN`, `FLIPPED`, `SECRET`, `DOWNSIZED` (R4, R11, R13, R21);
- `played` and `discarded`: the cell and the card of this turn, or None.

Code above the core reads these fields through the accessors here, never through a state's
private slots (`fields` reads them all at once; the one exception, the model checker's R9
check, is in docs/architecture.md). The model checker splits a state into three
zones: the cards (`CARD_FIELDS`), the boards, and the turn (`TABLE_FIELDS` and the two turn
logs); `state.from_zones` rebuilds a state from them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from hatsuden_rules.core.cards import Energy, Tech
    from hatsuden_rules.core.moves import Move
    from hatsuden_rules.core.rules import Rules
    from hatsuden_rules.core.state import Chance, EndReason, GameState, Phase
    from hatsuden_rules.core.tables import _Tables

__all__ = [
    "CARD_FIELDS",
    "DOWNSIZED",
    "FACE_DOWN",
    "FLIPPED",
    "SECRET",
    "TABLE_FIELDS",
    "boards",
    "card_zone",
    "city_tolerance",
    "deck",
    "discarded",
    "discards",
    "fields",
    "hands",
    "known",
    "played",
    "row_supply",
    "tables",
    "tech_hands",
    "turn_logs",
    "zone_keys",
]

# Stack flag bits (R4).
FACE_DOWN: Final = 1  # a pylon: built face down (R14) or flipped (R21)
FLIPPED: Final = 2  # face down because an overflow flipped it; its cards were seen face up
SECRET: Final = 4  # the bottom card was built with Secret Build, which stays on the stack (R11)
DOWNSIZED: Final = 8  # Down was spent on this stack and stays on it (R13)

#: The fields of the card zone, as `GameState` names its parameters.
CARD_FIELDS: Final = ("hands", "deck", "discards", "known")
#: The fields of the table zone (everything but the cards, the boards and the two turn logs).
TABLE_FIELDS: Final = (
    "phase",
    "current_player",
    "tech_deck",
    "tech_hands",
    "accumulator",
    "smart",
    "played",
    "discarded",
    "chance",
    "stall",
    "end_trigger",
    "end_reason",
    "rng",
)

Pair = tuple[tuple[int, ...], tuple[int, ...]]
Board = tuple[tuple[int, ...], ...]
Cards = tuple[Pair, tuple[int, ...], tuple[int, ...], Pair]
Table = tuple[
    "Phase",
    int,
    "tuple[Tech, ...]",
    "tuple[frozenset[Tech], frozenset[Tech]]",
    "tuple[int, int] | None",
    "Energy | None",
    "int | None",
    "int | None",
    "Chance | None",
    int,
    "int | None",
    "EndReason | None",
    "int | None",
]
TurnKey = tuple[object, ...]
Fields = tuple[
    "Rules",
    "Phase",
    int,
    Pair,
    tuple[int, ...],
    tuple[int, ...],
    tuple[Board, Board],
    "tuple[Tech, ...]",
    "tuple[frozenset[Tech], frozenset[Tech]]",
    "tuple[int, int] | None",
    "Energy | None",
    "int | None",
    "int | None",
    "Chance | None",
    int,
    "int | None",
    "EndReason | None",
    "int | None",
    Pair,
    "tuple[Move, ...]",
    "tuple[Move, ...]",
]


def tables(rules: Rules) -> _Tables:
    """The tables of `rules`: cards, cells and prebuilt moves by index (see `tables`)."""
    return rules._tables


def row_supply(board: Board, row: int, t: _Tables) -> int:
    """What row `row` of a raw `board` supplies: the sum of its plants' values (R21, R28)."""
    width = len(t.energies)
    value = t.card_value
    supply = 0
    for raw in board[row * width : row * width + width]:
        if raw and not raw[0] & FACE_DOWN:
            supply += value[raw[-1]]
    return supply


def city_tolerance(t: _Tables, accumulator: tuple[int, int] | None, player: int, row: int) -> int:
    """What `player`'s city `row` tolerates, the Accumulator lying at `accumulator` (R19, R21)."""
    return t.accumulator_tolerance if accumulator == (player, row) else t.tolerance


# The raw fields. Plain functions: a call and a specialized slot read, where an
# `operator.attrgetter` would look each name up generically.


def hands(state: GameState, /) -> Pair:
    """Both hands: sorted card indices."""
    return state._hands


def deck(state: GameState, /) -> tuple[int, ...]:
    """The deck: sorted card indices."""
    return state._deck


def discards(state: GameState, /) -> tuple[int, ...]:
    """The discards: sorted card indices."""
    return state._discards


def known(state: GameState, /) -> Pair:
    """The cards of each hand the opponent knows (R36): sorted card indices."""
    return state._known


def boards(state: GameState, /) -> tuple[Board, Board]:
    """Both boards: one raw stack per cell (`Rules.cells` order)."""
    return state._boards


def tech_hands(state: GameState, /) -> tuple[frozenset[Tech], frozenset[Tech]]:
    """Both tech hands."""
    return state._tech_hands


def played(state: GameState, /) -> int | None:
    """The cell the current player put a card on this turn, or None."""
    return state._played


def discarded(state: GameState, /) -> int | None:
    """The card the current player discarded this turn, or None."""
    return state._discarded


def card_zone(state: GameState, /) -> Cards:
    """``(hands, deck, discards, known)``: the fields of `CARD_FIELDS`."""
    return (state._hands, state._deck, state._discards, state._known)


def turn_logs(state: GameState, /) -> tuple[tuple[Move, ...], tuple[Move, ...]]:
    """``(this_turn, last_turn)``: the two turn logs (R36)."""
    return (state._this_turn, state._last_turn)


def fields(state: GameState, /) -> Fields:
    """Every field of `state`, as stored, in the order of `GameState`'s parameters."""
    return (
        state.rules,
        state.phase,
        state.current_player,
        state._hands,
        state._deck,
        state._discards,
        state._boards,
        state._tech_deck,
        state._tech_hands,
        state._accumulator,
        state._smart,
        state._played,
        state._discarded,
        state._chance,
        state._stall,
        state._end_trigger,
        state._end_reason,
        state._rng,
        state._known,
        state._this_turn,
        state._last_turn,
    )


_NO_KNOWN: Final[Pair] = ((), ())


def zone_keys(
    state: GameState, parent: GameState | None, positions: bool
) -> tuple[Cards | None, tuple[Board, Board] | None, TurnKey]:
    """The zones of `state` as the model checker keys them: ``(cards, boards, table)``.

    ``cards`` is `card_zone` (the known cards left out, as ``((), ())``, for `positions`) and
    ``boards`` the boards, each None when its fields are the very objects of `parent`'s (equal,
    by the identity contract of `state.updater`); ``turn`` holds the `TABLE_FIELDS`, then the
    two turn logs as the ids of their moves (``()`` for `positions`).
    """
    hands = state._hands
    deck = state._deck
    discards = state._discards
    known = state._known
    grids: tuple[Board, Board] | None = state._boards
    cards: Cards | None
    if (
        parent is not None
        and hands is parent._hands
        and deck is parent._deck
        and discards is parent._discards
        and (positions or known is parent._known)
    ):
        cards = None
    else:
        cards = (hands, deck, discards, _NO_KNOWN if positions else known)
    if parent is not None and grids is parent._boards:
        grids = None
    if positions:
        this_turn: tuple[int, ...] = ()
        last_turn: tuple[int, ...] = ()
    else:
        this_turn = tuple(map(id, state._this_turn))
        last_turn = tuple(map(id, state._last_turn))
    turn = (
        state.phase,
        state.current_player,
        state._tech_deck,
        state._tech_hands,
        state._accumulator,
        state._smart,
        state._played,
        state._discarded,
        state._chance,
        state._stall,
        state._end_trigger,
        state._end_reason,
        state._rng,
        this_turn,
        last_turn,
    )
    return cards, grids, turn
