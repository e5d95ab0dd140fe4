"""What a picture of the game shows: one model for a god view and for a player's view.

`board_svg` draws a `GameState` (everything) and an `Observation` (what one player knows) with
the same code, from a `View` built here. Building the view is the only place that reads the
subject, so a picture of an observation can show nothing the observation does not hold (R30,
R37): a card the observer has not seen is None, and every number that depends on one (a row's
supply, a column's generation, the points) is None too, drawn as ``?``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Final, TypeVar

import attrs

from hatsuden_rules.core.cards import Card, Cell, Energy, Tech
from hatsuden_rules.core.errors import InvalidInputError
from hatsuden_rules.core.render import render
from hatsuden_rules.core.rules import Rules, Tiebreak
from hatsuden_rules.core.scoring import Decision
from hatsuden_rules.core.state import Chance, EndReason, GameState, Phase
from hatsuden_rules.notation import format_move, format_seen_move
from hatsuden_rules.observation import Observation, render_observation

__all__ = ["CellView", "SeatView", "Sheet", "View", "sheet_of", "view_of"]

_T = TypeVar("_T")


@attrs.frozen(slots=True)
class CellView:
    """One occupied cell as the viewer sees it.

    Attributes:
        cards: Bottom to top; None for a card the viewer has not seen.
        face_down: A pylon (R14, R21).
        flipped: A plant flipped by an overflow (its face-up cards were seen by both players).
        secret: The bottom card was built secret (R11).
        downsized: Down was spent on the stack (R13).
    """

    cards: tuple[Card | None, ...]
    face_down: bool
    flipped: bool
    secret: bool
    downsized: bool

    @property
    def value(self) -> int | None:
        """What the cell generates: 0 for a pylon, None when the top card is hidden."""
        if self.face_down:
            return 0
        top = self.cards[-1]
        return None if top is None else top.value

    @property
    def secret_on_top(self) -> bool:
        """A secret plant: the secret card is the only card and the stack is face up (R4)."""
        return self.secret and not self.face_down and len(self.cards) == 1


@attrs.frozen(slots=True)
class SeatView:
    """One player's side as the viewer sees it.

    Attributes:
        hand: The hand in canonical order; None for a card the viewer cannot see (a back).
        known: How many copies of each card of the hand the opponent knows (R36), as cards.
        techs: The tech hand in canonical order; None for a tech card the viewer cannot see.
        board: The cells in `Rules.cells` order (None when empty).
        private_seen: The viewer sees this seat's private cards (god view, or the observer).
    """

    hand: tuple[Card | None, ...]
    known: tuple[Card, ...]
    techs: tuple[Tech | None, ...]
    board: tuple[CellView | None, ...]
    private_seen: bool


@attrs.frozen(slots=True)
class View:
    """Everything a picture shows (see the module docstring).

    Attributes:
        rules: The rule set.
        observer: The observing player, or None for the god view.
        phase: The phase of play.
        current_player: Whose move it is (or who receives the pending chance card).
        pending_chance: In CHANCE, which event is pending.
        seats: Player 0's side, then player 1's.
        deck_size: Plant cards left in the deck.
        tech_deck_size: Tech cards left in the tech deck.
        discards: The discards in canonical order.
        accumulator: ``(player, row)`` of the placed Accumulator, or None.
        smart: The energy Smart lies on, or None.
        played_cell: The mover's played cell this turn, if any.
        stall_count: The stall counter (R25).
        end_triggered_by: Whose full grid triggered the end, or None.
        end_reason: Why the game is over, or None.
        text: The text rendering (`render` or `render_observation`), for ``<desc>``.
        this_turn: The moves of the turn in progress, in notation, as the viewer saw them.
        last_turn: The moves of the last completed turn, likewise (R36).
    """

    rules: Rules
    observer: int | None
    phase: Phase
    current_player: int
    pending_chance: Chance | None
    seats: tuple[SeatView, SeatView]
    deck_size: int
    tech_deck_size: int
    discards: tuple[Card, ...]
    accumulator: tuple[int, int] | None
    smart: Energy | None
    played_cell: Cell | None
    stall_count: int
    end_triggered_by: int | None
    end_reason: EndReason | None
    text: str
    this_turn: tuple[str, ...]
    last_turn: tuple[str, ...]

    @property
    def is_over(self) -> bool:
        """True once the game is over."""
        return self.phase is Phase.GAME_OVER


def _techs(techs: frozenset[Tech]) -> tuple[Tech, ...]:
    return tuple(tech for tech in Tech if tech in techs)


def view_of(subject: GameState | Observation) -> View:
    """The `View` of a state (god view) or of an observation (its player's view).

    Raises:
        InvalidInputError: `subject` is neither.
    """
    if type(subject) is GameState:
        return _state_view(subject)
    if type(subject) is Observation:
        return _observation_view(subject)
    raise InvalidInputError(
        "state_or_observation",
        f"expected a GameState or an Observation, got {type(subject).__name__}",
    )


def _state_view(state: GameState) -> View:
    seats = tuple(
        SeatView(
            hand=state.hand(p),
            known=state.known_cards(p),
            techs=_techs(state.tech_hand(p)),
            board=tuple(
                None
                if stack is None
                else CellView(
                    stack.cards, stack.face_down, stack.flipped, stack.secret, stack.downsized
                )
                for stack in state.board(p)
            ),
            private_seen=True,
        )
        for p in (0, 1)
    )
    return View(
        rules=state.rules,
        observer=None,
        phase=state.phase,
        current_player=state.current_player,
        pending_chance=state.pending_chance,
        seats=(seats[0], seats[1]),
        deck_size=state.deck_size,
        tech_deck_size=len(state.tech_deck),
        discards=state.discards,
        accumulator=state.accumulator,
        smart=state.smart,
        played_cell=state.played_cell,
        stall_count=state.stall_count,
        end_triggered_by=state.end_triggered_by,
        end_reason=state.end_reason,
        text=render(state),
        this_turn=tuple(format_move(m) for m in state.this_turn),
        last_turn=tuple(format_move(m) for m in state.last_turn),
    )


def _observation_view(o: Observation) -> View:
    def seat(p: int) -> SeatView:
        board = tuple(
            None
            if stack is None
            else CellView(
                stack.cards, stack.face_down, stack.flipped, stack.secret, stack.downsized
            )
            for stack in o.boards[p]
        )
        if p == o.player:
            return SeatView(o.hand, o.known_to_opponent, _techs(o.tech_hand), board, True)
        unknown = o.opponent_hand_size - len(o.opponent_known)
        return SeatView(
            (*o.opponent_known, *(None,) * unknown),
            o.opponent_known,
            (None,) * o.opponent_tech_hand_size,
            board,
            False,
        )

    return View(
        rules=o.rules,
        observer=o.player,
        phase=o.phase,
        current_player=o.current_player,
        pending_chance=o.pending_chance,
        seats=(seat(0), seat(1)),
        deck_size=o.deck_size,
        tech_deck_size=o.tech_deck_size,
        discards=o.discards,
        accumulator=o.accumulator,
        smart=o.smart,
        played_cell=o.played_cell,
        stall_count=o.stall_count,
        end_triggered_by=o.end_triggered_by,
        end_reason=o.end_reason,
        text=render_observation(o),
        this_turn=tuple(format_seen_move(m) for m in o.this_turn),
        last_turn=tuple(format_seen_move(m) for m in o.last_turn),
    )


# -- the score sheet as far as the viewer can tell (R27-R29) --------------------------------------


@attrs.frozen(slots=True)
class Sheet:
    """The score as if the game ended now, as far as the viewer can tell (None: unknown).

    Attributes:
        row_supply: Per seat, the supply of row 0 and row 1 (R21).
        generation: Per seat, the column sums per energy in play (R27).
        energy_winners: Per energy, the seat with the strictly higher generation, None on a tie,
            or -1 when a hidden card makes it unknown.
        energy_points: Per seat (R27, R20).
        city_points: Per seat (R28), and per row in `row_points`.
        row_points: Per seat, the city points of row 0 and row 1.
        total: Per seat (R29).
        winner: The winner if the game ended now, or None when unknown.
        decided_by: What decides it, or None when unknown.
    """

    row_supply: tuple[tuple[int | None, int | None], tuple[int | None, int | None]]
    generation: tuple[tuple[int | None, ...], tuple[int | None, ...]]
    energy_winners: tuple[int | None, ...]
    energy_points: tuple[int | None, int | None]
    city_points: tuple[int | None, int | None]
    row_points: tuple[tuple[int | None, int | None], tuple[int | None, int | None]]
    total: tuple[int | None, int | None]
    winner: int | None
    decided_by: Decision | None


def _city_points(supply: int, demand: int) -> int:
    """R28: +1 for exactly `demand`, -1 for `demand` - 2 or less, else 0."""
    if supply == demand:
        return 1
    return -1 if supply <= demand - 2 else 0


def sheet_of(view: View) -> Sheet:
    """The score sheet of `view` (R27-R29), with None for what the viewer cannot tell.

    Equal to `score` when no card that counts is hidden. A hidden top card (an opponent's
    secret plant: at most one, since there is one Secret Build card) can have any value from 1
    to `max_value` (R2): the sheet is worked out for each, and a number the viewer is shown is
    one that comes out the same whatever the hidden value is (e.g. a row of 1 plus a secret
    card supplies at most 1 + 4, so it scores -1 for sure). Nothing else is inferred.
    """
    rules = view.rules
    values = [[0 if cell is None else cell.value for cell in seat.board] for seat in view.seats]
    hidden = [(p, i) for p in (0, 1) for i, v in enumerate(values[p]) if v is None]
    if len(hidden) > _MAX_HIDDEN:
        hidden = []  # not a position of the game (one secret card at most): infer nothing
    sheets = []
    for guess in itertools.product(range(1, rules.max_value + 1), repeat=len(hidden)):
        known = [list(row) for row in values]
        for (p, i), v in zip(hidden, guess, strict=True):
            known[p][i] = v
        sheets.append(_exact(view, known))
    return _agree(sheets)


_MAX_HIDDEN: Final = 2


def _exact(view: View, values: list[list[int | None]]) -> Sheet:
    """The sheet when every value is known (None only where more than `_MAX_HIDDEN` hide)."""
    rules = view.rules
    width = len(rules.energies_in_play)
    if any(v is None for row in values for v in row):
        return Sheet(
            row_supply=((None, None), (None, None)),
            generation=((None,) * width, (None,) * width),
            energy_winners=(-1,) * width,
            energy_points=(None, None),
            city_points=(None, None),
            row_points=((None, None), (None, None)),
            total=(None, None),
            winner=None,
            decided_by=None,
        )
    ints = [[v or 0 for v in row] for row in values]
    supplies = [(sum(row[:width]), sum(row[width:])) for row in ints]
    generations = [tuple(row[e] + row[width + e] for e in range(width)) for row in ints]
    winners: list[int | None] = []
    points = [0, 0]
    for e, energy in enumerate(rules.energies_in_play):
        a, b = generations[0][e], generations[1][e]
        winner = None if a == b else (0 if a > b else 1)
        winners.append(winner)
        if winner is not None:
            points[winner] += 2 if view.smart is energy else 1
    demand = rules.city_demand
    row_points = [(_city_points(s[0], demand), _city_points(s[1], demand)) for s in supplies]
    cities = [a + b for a, b in row_points]
    totals = [points[p] + cities[p] for p in (0, 1)]
    if totals[0] != totals[1]:
        winner, decided = (0 if totals[0] > totals[1] else 1), Decision.TOTAL
    else:
        if rules.tiebreak is Tiebreak.CITY_POINTS:
            first, decided = cities, Decision.CITY_POINTS
        else:
            first, decided = [sum(s) for s in supplies], Decision.SUPPLY
        if first[0] != first[1]:
            winner = 0 if first[0] > first[1] else 1
        else:
            winner, decided = 1, Decision.SECOND_PLAYER
    return Sheet(
        row_supply=(supplies[0], supplies[1]),
        generation=(generations[0], generations[1]),
        energy_winners=tuple(winners),
        energy_points=(points[0], points[1]),
        city_points=(cities[0], cities[1]),
        row_points=(row_points[0], row_points[1]),
        total=(totals[0], totals[1]),
        winner=winner,
        decided_by=decided,
    )


def _same(values: Sequence[_T]) -> _T | None:
    return values[0] if all(v == values[0] for v in values) else None


def _pairs(values: Sequence[tuple[_T, _T]]) -> tuple[_T | None, _T | None]:
    return (_same([v[0] for v in values]), _same([v[1] for v in values]))


def _agree(sheets: list[Sheet]) -> Sheet:
    """What all the sheets agree on; None (-1 for an energy's winner) where they differ."""
    if len(sheets) == 1:
        return sheets[0]
    width = len(sheets[0].generation[0])

    def column(seat: int) -> tuple[int | None, ...]:
        return tuple(_same([s.generation[seat][e] for s in sheets]) for e in range(width))

    winners = tuple(
        w if all(s.energy_winners[e] == (w := sheets[0].energy_winners[e]) for s in sheets) else -1
        for e in range(width)
    )
    winner = _same([s.winner for s in sheets])
    return Sheet(
        row_supply=(
            _pairs([s.row_supply[0] for s in sheets]),
            _pairs([s.row_supply[1] for s in sheets]),
        ),
        generation=(column(0), column(1)),
        energy_winners=winners,
        energy_points=_pairs([s.energy_points for s in sheets]),
        city_points=_pairs([s.city_points for s in sheets]),
        row_points=(
            _pairs([s.row_points[0] for s in sheets]),
            _pairs([s.row_points[1] for s in sheets]),
        ),
        total=_pairs([s.total for s in sheets]),
        winner=winner,
        decided_by=None if winner is None else _same([s.decided_by for s in sheets]),
    )
