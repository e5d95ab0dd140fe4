"""The game state: one frozen, hashable value holding everything, its accessors and updaters.

Its fields hold the int encoding of `encoding`; the accessors decode them into `Card`, `Cell`
and `Stack` values. `updater` is the one way the engine derives a new state (speed notes:
docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Final, Protocol, TypeAlias, TypeVar

import attrs

from hatsuden_rules.core.cards import ROWS, Card, Cell, Energy, Tech
from hatsuden_rules.core.encoding import (
    CARD_FIELDS,
    DOWNSIZED,
    FACE_DOWN,
    FLIPPED,
    SECRET,
    TABLE_FIELDS,
    city_tolerance,
    row_supply,
)
from hatsuden_rules.core.enums import GameEnum
from hatsuden_rules.core.errors import InvalidInputError
from hatsuden_rules.core.moves import Move
from hatsuden_rules.core.rules import Rules
from hatsuden_rules.core.trusted import (
    fast_init,
    trusted_assembler,
    trusted_builder,
    trusted_constructor,
    trusted_updater,
)

__all__ = ["Build", "EndReason", "GameState", "Phase", "Stack", "Update", "builder", "updater"]

_T = TypeVar("_T")


class Phase(GameEnum):
    """The phases of play (R9). CHANCE waits for a chance outcome; GAME_OVER has no moves."""

    CHANCE = "chance"
    ACTION = "action"
    TECH = "tech"
    OVERFLOW = "overflow"
    DRAW = "draw"
    GAME_OVER = "game_over"


# Read once: in Python 3.11 `Phase.GAME_OVER` goes through the enum metaclass's __getattr__ hook,
# and `is_over` is read on every state of a game or of a model check.
_GAME_OVER: Final = Phase.GAME_OVER


class EndReason(GameEnum):
    """Why a game is over (R24, R25)."""

    #: A grid was full and the opponent has played the last turn (R24).
    FINAL_TURN = "final_turn"
    #: `stall_limit` turns in a row ended with no card added to any board (R25).
    STALL = "stall"


class Chance(GameEnum):
    """Which chance event a CHANCE phase waits for (R6)."""

    SETUP = "setup"  # a Deal of the initial hands (R7)
    DRAW = "draw"  # the Deal answering DrawFromDeck (R22)
    TECH = "tech"  # the DealTech answering DrawTech (R17)


@attrs.frozen(slots=True)
class Stack:
    """The cards on one cell, bottom to top (R4), as seen by an all-knowing observer.

    Attributes:
        cards: Bottom to top; only the top card of a plant counts (R12).
        face_down: A pylon, worth 0 (R14, R21).
        flipped: Face down because an overflow flipped it (its cards were seen face up).
        secret: The bottom card was built with Secret Build (R11).
        downsized: Down was spent on this stack (R13).
    """

    cards: tuple[Card, ...]
    face_down: bool = False
    flipped: bool = False
    secret: bool = False
    downsized: bool = False

    @property
    def top(self) -> Card:
        """The top card."""
        return self.cards[-1]

    @property
    def is_plant(self) -> bool:
        """Not a pylon (R4)."""
        return not self.face_down

    @property
    def is_secret_plant(self) -> bool:
        """A plant whose top card is the hidden Secret Build card (R11)."""
        return self.secret and not self.face_down and len(self.cards) == 1

    @property
    def value(self) -> int:
        """What the stack generates: the top card's value for a plant, 0 for a pylon (R27)."""
        return 0 if self.face_down else self.cards[-1].value


@attrs.frozen(slots=True, cache_hash=True, repr=False)
class GameState:
    """A complete game state (god view): frozen, hashable, compared by value.

    Build states with `new_game` and `apply`; read them with the properties and methods here.
    """

    rules: Rules
    phase: Phase
    current_player: int
    _hands: tuple[tuple[int, ...], tuple[int, ...]]
    _deck: tuple[int, ...]
    _discards: tuple[int, ...]
    _boards: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
    _tech_deck: tuple[Tech, ...]
    _tech_hands: tuple[frozenset[Tech], frozenset[Tech]]
    _accumulator: tuple[int, int] | None
    _smart: Energy | None
    _played: int | None
    _discarded: int | None
    _chance: Chance | None
    _stall: int
    _end_trigger: int | None
    _end_reason: EndReason | None
    _rng: int | None
    _known: tuple[tuple[int, ...], tuple[int, ...]]
    _this_turn: tuple[Move, ...]
    _last_turn: tuple[Move, ...]

    # -- status ---------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """True once the game is over (R26)."""
        return self.phase is _GAME_OVER

    @property
    def is_seeded(self) -> bool:
        """True in seeded mode, where chance is resolved by the portable generator (R8)."""
        return self._rng is not None

    @property
    def rng_state(self) -> int | None:
        """The SplitMix64 state of a seeded game (R32), None in explicit chance mode."""
        return self._rng

    @property
    def end_reason(self) -> EndReason | None:
        """Why the game is over, or None while it goes on."""
        return self._end_reason

    @property
    def end_triggered_by(self) -> int | None:
        """The player whose full grid triggered the end (R24), or None."""
        return self._end_trigger

    @property
    def stall_count(self) -> int:
        """Consecutive turns ended with no card added to any board (R23, R25)."""
        return self._stall

    @property
    def played_cell(self) -> Cell | None:
        """The cell the current player put a card on this turn, if any (R17, R21)."""
        return None if self._played is None else self.rules.cells[self._played]

    @property
    def turn_discard(self) -> Card | None:
        """The card the current player discarded this turn, if any (R22)."""
        return None if self._discarded is None else self.rules.cards[self._discarded]

    @property
    def pending_chance(self) -> Chance | None:
        """In CHANCE: which event is pending (setup deal, draw, tech draw); else None."""
        return self._chance

    @property
    def this_turn(self) -> tuple[Move, ...]:
        """The moves of the turn in progress, chance outcomes included (R36)."""
        return self._this_turn

    @property
    def last_turn(self) -> tuple[Move, ...]:
        """The moves of the last completed turn, chance outcomes included (R36)."""
        return self._last_turn

    # -- cards ----------------------------------------------------------------------------------

    def hand(self, player: int) -> tuple[Card, ...]:
        """The cards in `player`'s hand, in canonical order (private to the owner, R30)."""
        cards = self.rules.cards
        return tuple([cards[i] for i in self._hands[_player(player)]])

    def hand_size(self, player: int) -> int:
        """How many cards `player` holds (public, R30)."""
        return len(self._hands[_player(player)])

    def known_cards(self, player: int) -> tuple[Card, ...]:
        """The cards of `player`'s hand that the opponent knows are there (R36), canonical order.

        A card taken from the discards is known until it is played face up; a hidden play (a
        pylon or a secret Construct) could have used any card, so it leaves one copy fewer of each
        known card known.
        """
        cards = self.rules.cards
        return tuple([cards[i] for i in self._known[_player(player)]])

    def tech_hand(self, player: int) -> frozenset[Tech]:
        """The tech cards `player` holds and has not placed or spent (R17)."""
        return self._tech_hands[_player(player)]

    @property
    def deck(self) -> tuple[Card, ...]:
        """The cards left in the deck, in canonical order (hidden from both players, R30)."""
        cards = self.rules.cards
        return tuple([cards[i] for i in self._deck])

    @property
    def deck_size(self) -> int:
        """How many cards are left in the deck (public)."""
        return len(self._deck)

    @property
    def discards(self) -> tuple[Card, ...]:
        """The discards, all face up, in canonical order (R15)."""
        cards = self.rules.cards
        return tuple([cards[i] for i in self._discards])

    @property
    def tech_deck(self) -> tuple[Tech, ...]:
        """The tech cards not yet drawn, in canonical order (hidden from both players, R30)."""
        return self._tech_deck

    @property
    def accumulator(self) -> tuple[int, int] | None:
        """``(player, row)`` of the city holding the placed Accumulator, or None (R19)."""
        return self._accumulator

    @property
    def smart(self) -> Energy | None:
        """The energy the placed Smart card lies on, or None (R20)."""
        return self._smart

    # -- boards ---------------------------------------------------------------------------------

    def stack(self, player: int, cell: Cell) -> Stack | None:
        """The stack on `player`'s `cell`, or None if the cell is empty."""
        index = self.rules._tables.cell_index.get(cell)
        if index is None:
            raise InvalidInputError("cell", f"{cell!r} is not in play under these rules")
        return _decode(self.rules, self._boards[_player(player)][index])

    def board(self, player: int) -> tuple[Stack | None, ...]:
        """`player`'s stacks in the order of `Rules.cells` (None for an empty cell)."""
        rules = self.rules
        return tuple([_decode(rules, raw) for raw in self._boards[_player(player)]])

    def occupied(self, player: int) -> int:
        """How many of `player`'s cells hold a plant or a pylon (R24)."""
        return sum(1 for raw in self._boards[_player(player)] if raw)

    def row_supply(self, player: int, row: int) -> int:
        """What `player`'s row `row` supplies to its city: the sum of its plants' values (R21)."""
        return supply(self, _player(player), _row(row))

    def tolerance(self, player: int, row: int) -> int:
        """How much `player`'s city `row` tolerates: 11, or 12 with the Accumulator (R19, R21)."""
        return tolerance(self, _player(player), _row(row))

    def __repr__(self) -> str:
        return (
            f"<GameState {self.phase.name} player={self.current_player} "
            f"hands={len(self._hands[0])}/{len(self._hands[1])} deck={len(self._deck)} "
            f"discards={len(self._discards)} cells={self.occupied(0)}/{self.occupied(1)} "
            f"stall={self._stall}{' seeded' if self._rng is not None else ''}>"
        )

    def _repr_svg_(self) -> str:
        """The board as a picture, for Jupyter (see `hatsuden_rules.svg.board_svg`)."""
        from hatsuden_rules.svg import board_svg

        return board_svg(self, size=760)


# The stacks the accessors decode: `Stack(...)` without attrs' __init__ (see `trusted`).
if TYPE_CHECKING:
    new_stack = Stack
else:
    new_stack = trusted_constructor(Stack)

# `GameState(...)` stores its fields without attrs' slow frozen __init__ (same signature and
# behaviour: it never validated); see `trusted`.
GameState.__init__ = fast_init(GameState)  # type: ignore[method-assign]

# The constructor of a state from all its fields, by keyword: `GameState(...)` without attrs'
# __init__, for the same value. mypy checks its calls against `GameState` itself.
if TYPE_CHECKING:
    new_state = GameState
else:
    new_state = trusted_constructor(GameState)

# The state whose zones (see `encoding`) are these: ``from_zones(rules, card_zone, boards,
# table_zone + turn_logs)``, the model checker's way back from its stored zones.
from_zones: Final[Callable[..., GameState]] = trusted_assembler(
    GameState, (("rules",), CARD_FIELDS, ("boards",), (*TABLE_FIELDS, "this_turn", "last_turn"))
)

_Pair: TypeAlias = tuple[_T, _T]


class Update(Protocol):
    """A state updater (see `updater`): `state` with the fields given by keyword replaced."""

    def __call__(
        self,
        state: GameState,
        /,
        *,
        rules: Rules = ...,
        phase: Phase = ...,
        current_player: int = ...,
        hands: _Pair[tuple[int, ...]] = ...,
        deck: tuple[int, ...] = ...,
        discards: tuple[int, ...] = ...,
        boards: _Pair[tuple[tuple[int, ...], ...]] = ...,
        tech_deck: tuple[Tech, ...] = ...,
        tech_hands: _Pair[frozenset[Tech]] = ...,
        accumulator: tuple[int, int] | None = ...,
        smart: Energy | None = ...,
        played: int | None = ...,
        discarded: int | None = ...,
        chance: Chance | None = ...,
        stall: int = ...,
        end_trigger: int | None = ...,
        end_reason: EndReason | None = ...,
        rng: int | None = ...,
        known: _Pair[tuple[int, ...]] = ...,
        this_turn: tuple[Move, ...] = ...,
        last_turn: tuple[Move, ...] = ...,
    ) -> GameState:
        """`state` with the given fields replaced; the others are the same objects."""
        ...


def updater(
    *fields: str, cleared: tuple[str, ...] = (), fixed: Mapping[str, object] | None = None
) -> Update:
    """The one way to derive a state: ``update(state, field=value, ...)`` for these `fields`.

    The result is `state` with the given `fields` (named as `GameState`'s parameters, by
    keyword only, all of them required) replaced, the `cleared` ones set to None and the `fixed`
    ones to their constant value, built without attrs' ``__init__`` (see
    `trusted.trusted_updater`, generated once per set of fields, at import; each keyword
    argument costs a scan of the parameter names, so `cleared` and `fixed` keep the calls short:
    docs/architecture.md, "Speed notes").

    The identity contract, which the model checker relies on for its speed
    (`Properties.zones` and the R9 check compare fields with ``is`` before they compare them by
    value): every field not in `fields` is the very object `state` holds, and `apply` passes a
    field only when it may change it, and the old object itself when its value did not change
    (all but `known` and the turn logs, which are recomputed). tests/core/test_state.py checks
    both on random games.

    Examples:
        >>> from hatsuden_rules import new_game
        >>> state = new_game(seed=1)
        >>> to_stall = updater("stall")
        >>> after = to_stall(state, stall=1)
        >>> after.stall_count, after.deck == state.deck, after._deck is state._deck
        (1, True, True)
    """
    update: Update = trusted_updater(GameState, fields, cleared, fixed)
    return update


class Build(Protocol):
    """A state builder (see `builder`): a new state from the fields given by keyword."""

    def __call__(
        self,
        *,
        rules: Rules = ...,
        phase: Phase = ...,
        current_player: int = ...,
        hands: _Pair[tuple[int, ...]] = ...,
        deck: tuple[int, ...] = ...,
        discards: tuple[int, ...] = ...,
        boards: _Pair[tuple[tuple[int, ...], ...]] = ...,
        tech_deck: tuple[Tech, ...] = ...,
        tech_hands: _Pair[frozenset[Tech]] = ...,
        accumulator: tuple[int, int] | None = ...,
        smart: Energy | None = ...,
        played: int | None = ...,
        discarded: int | None = ...,
        chance: Chance | None = ...,
        stall: int = ...,
        end_trigger: int | None = ...,
        end_reason: EndReason | None = ...,
        rng: int | None = ...,
        known: _Pair[tuple[int, ...]] = ...,
        this_turn: tuple[Move, ...] = ...,
        last_turn: tuple[Move, ...] = ...,
    ) -> GameState:
        """A new state with the given fields (the builder's own are required)."""
        ...


def builder(
    *fields: str, cleared: tuple[str, ...] = (), fixed: Mapping[str, object] | None = None
) -> Build:
    """A new state from a few fields, the rest constant: ``build(field=value, ...)``.

    `fields` (by keyword only, all of them required), `cleared` (None) and `fixed` (its value,
    the very object in every state built) name every field of `GameState` exactly once; built
    like an `updater`'s results (`trusted.trusted_builder`), so a state with many constant
    fields (a new game's) costs few keyword arguments.

    Examples:
        >>> from hatsuden_rules import new_game
        >>> from hatsuden_rules.core.encoding import fields
        >>> state = new_game(seed=1)
        >>> given = dict(zip([f.alias for f in attrs.fields(GameState)], fields(state)))
        >>> rest = {name: given.pop(name) for name in ("stall", "this_turn", "last_turn")}
        >>> build = builder(*given, fixed=rest)
        >>> build(**given) == state, build(**given)._last_turn is rest["last_turn"]
        (True, True)
    """
    build: Build = trusted_builder(GameState, fields, cleared, fixed)
    return build


def _player(player: int) -> int:
    if type(player) is not int or not 0 <= player < ROWS:
        raise InvalidInputError("player", f"must be 0 or 1, got {player!r}")
    return player


def _row(row: int) -> int:
    if type(row) is not int or not 0 <= row < ROWS:
        raise InvalidInputError("row", f"must be 0 or 1, got {row!r}")
    return row


def _decode(rules: Rules, raw: tuple[int, ...]) -> Stack | None:
    if not raw:
        return None
    cards = rules.cards
    flags = raw[0]
    return new_stack(
        cards=tuple([cards[i] for i in raw[1:]]),
        face_down=bool(flags & FACE_DOWN),
        flipped=bool(flags & FLIPPED),
        secret=bool(flags & SECRET),
        downsized=bool(flags & DOWNSIZED),
    )


def supply(state: GameState, player: int, row: int) -> int:
    """Row supply of `player`'s row `row` (R21, R28)."""
    return row_supply(state._boards[player], row, state.rules._tables)


def tolerance(state: GameState, player: int, row: int) -> int:
    """Tolerance of `player`'s city `row` (R19, R21)."""
    t = state.rules._tables
    return city_tolerance(t, state._accumulator, player, row)


def takeable_discards(state: GameState) -> tuple[int, ...]:
    """Distinct discards the current player may take in DRAW, canonical order (R22).

    With ``allow_retake_discard=False`` only the very card discarded this turn is barred: an equal
    card that was already in the discards may still be taken.
    """
    discards = state._discards
    # Sorted, so equal cards are adjacent; one card or none has no duplicate (the common case).
    # A plain loop: ``tuple(dict.fromkeys(discards))`` costs more for the few cards seen here.
    distinct = discards
    if len(discards) > 1:
        kept = []
        previous = -1  # pragma: no mutate (a sentinel: any value that is not a card index)
        for card in discards:
            if card != previous:
                kept.append(card)
                previous = card
        distinct = tuple(kept)
    discarded = state._discarded
    retake = state.rules.allow_retake_discard
    if discarded is None or retake or discards.count(discarded) != 1:
        return distinct
    k = distinct.index(discarded)  # the only copy: barred
    return distinct[:k] + distinct[k + 1 :]
