"""Observations (R30, R36, R37): what one player sees of a state, as a frozen value.

`observe` gives a player's `Observation`: their own hand and tech hand, the public board with the
cards they have seen, the counts of everything hidden, the cards known to be in the opponent's
hand, and the last two turns' moves as they saw them (opponents' hidden cards as `Concealed`).
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from hatsuden_rules.core import encoding as enc
from hatsuden_rules.core.cards import Card, Cell, Energy, Tech
from hatsuden_rules.core.encoding import DOWNSIZED, FACE_DOWN, FLIPPED, SECRET
from hatsuden_rules.core.errors import InvalidInputError
from hatsuden_rules.core.moves import BuildPylon, Construct, Deal, DealTech, Move
from hatsuden_rules.core.rules import Rules
from hatsuden_rules.core.state import Chance, EndReason, GameState, Phase

__all__ = ["Concealed", "Observation", "SeenMove", "SeenStack", "observe"]

_CONCEALED_KINDS = ("BuildPylon", "Construct", "Deal", "DealTech")


@attrs.frozen(slots=True)
class Concealed:
    """An opponent's move whose card the observer did not see (R36).

    Attributes:
        move: The kind of move: ``"BuildPylon"`` (the card of a pylon built from hand),
            ``"Construct"`` (a secret Construct: its cell is public, its card is not), ``"Deal"``
            (the card drawn from the deck) or ``"DealTech"`` (the tech card drawn).
        cell: The cell of a BuildPylon or secret Construct, in the mover's own grid; else None.

    Examples:
        >>> from hatsuden_rules import Cell, Energy
        >>> Concealed("BuildPylon", Cell(0, Energy.WIND))
        Concealed(move='BuildPylon', cell=Cell(row=0, energy=Energy.WIND))
    """

    move: str = attrs.field()
    cell: Cell | None = None

    @move.validator
    def _check_move(self, attribute: attrs.Attribute[str], value: object) -> None:
        if value not in _CONCEALED_KINDS:
            raise InvalidInputError("move", f"must be one of {_CONCEALED_KINDS}, got {value!r}")


#: A move as one player saw it: the move itself, or `Concealed` where its card was hidden.
SeenMove = Move | Concealed
"""A move as one player saw it: the move itself, or `Concealed` where its card was hidden."""


@attrs.frozen(slots=True)
class SeenStack:
    """A stack as one player sees it (R36): a card the player has not seen is None.

    Attributes:
        cards: Bottom to top; None for a card hidden from this player (the card of an opponent's
            pylon built from hand, or an opponent's secret card).
        face_down: A pylon, worth 0 (R14, R21).
        flipped: Face down because an overflow flipped it (its face-up cards stay known).
        secret: The bottom card was built with Secret Build (R11).
        downsized: Down was spent on this stack (R13).
    """

    cards: tuple[Card | None, ...]
    face_down: bool = False
    flipped: bool = False
    secret: bool = False
    downsized: bool = False

    @property
    def top(self) -> Card | None:
        """The top card, or None if this player has not seen it."""
        return self.cards[-1]

    @property
    def value(self) -> int | None:
        """What the stack generates (0 for a pylon), or None if hidden from this player."""
        if self.face_down:
            return 0
        top = self.cards[-1]
        return None if top is None else top.value


@attrs.frozen(slots=True, cache_hash=True)
class Observation:
    """What `player` knows of a game, with perfect recall of every card seen (R36, R37).

    Everything here is public or the player's own; nothing predicts a future chance outcome (no
    deck order, no generator state). Boards are indexed by seat, like `GameState.board`.

    Attributes:
        rules: The rule set.
        player: The observer's seat.
        phase: The phase of play.
        current_player: Whose move (or who receives the pending chance card) it is.
        hand: The observer's hand, in canonical order.
        tech_hand: The observer's tech cards.
        known_to_opponent: The observer's hand cards the opponent knows are there (taken from
            the discards and not played since).
        opponent_known: The cards known to be in the opponent's hand, by the same rule.
        opponent_hand_size: How many cards the opponent holds.
        opponent_tech_hand_size: How many tech cards the opponent holds.
        deck_size: Cards left in the deck.
        tech_deck_size: Tech cards left in the tech deck.
        discards: Every discard (all face up), in canonical order.
        boards: Both grids as seen, in the order of `Rules.cells` (None for an empty cell).
        accumulator: ``(player, row)`` of the placed Accumulator, or None.
        smart: The energy the placed Smart lies on, or None.
        played_cell: The mover's played cell this turn, if any (R17, R21).
        turn_discard: The card the mover discarded this turn, if any (R22).
        pending_chance: In CHANCE, which event is pending.
        stall_count: Turns ended in a row with no card added to a board (R25).
        end_triggered_by: Whose full grid triggered the end, or None (R24).
        end_reason: Why the game is over, or None.
        this_turn: The moves of the turn in progress, as seen.
        last_turn: The moves of the last completed turn, as seen.
    """

    rules: Rules
    player: int
    phase: Phase
    current_player: int
    hand: tuple[Card, ...]
    tech_hand: frozenset[Tech]
    known_to_opponent: tuple[Card, ...]
    opponent_known: tuple[Card, ...]
    opponent_hand_size: int
    opponent_tech_hand_size: int
    deck_size: int
    tech_deck_size: int
    discards: tuple[Card, ...]
    boards: tuple[tuple[SeenStack | None, ...], tuple[SeenStack | None, ...]]
    accumulator: tuple[int, int] | None
    smart: Energy | None
    played_cell: Cell | None
    turn_discard: Card | None
    pending_chance: Chance | None
    stall_count: int
    end_triggered_by: int | None
    end_reason: EndReason | None
    this_turn: tuple[SeenMove, ...]
    last_turn: tuple[SeenMove, ...]

    @property
    def opponent(self) -> int:
        """The other seat."""
        return 1 - self.player

    @property
    def is_over(self) -> bool:
        """True once the game is over."""
        return self.phase is Phase.GAME_OVER

    @property
    def is_my_turn(self) -> bool:
        """True when the observer has a decision to make (their move, outside CHANCE)."""
        return self.current_player == self.player and self.phase not in _NO_DECISION

    def stack(self, player: int, cell: Cell) -> SeenStack | None:
        """The stack on `player`'s `cell` as seen, or None if the cell is empty."""
        index = enc.tables(self.rules).cell_index.get(cell)
        if index is None:
            raise InvalidInputError("cell", f"{cell!r} is not in play under these rules")
        return self.boards[_seat(player)][index]

    def unseen_cards(self) -> tuple[Card, ...]:
        """The plant cards whose place the observer does not know, in canonical order (R38).

        They are, together, the deck, the unknown part of the opponent's hand and the hidden
        cards of the opponent's board.
        """
        counts = _unseen_counts(self)
        cards = self.rules.cards
        return tuple(cards[i] for i, n in enumerate(counts) for _ in range(n))

    def unseen_techs(self) -> tuple[Tech, ...]:
        """The tech cards in the tech deck or the opponent's tech hand, canonical order (R38)."""
        return _unseen_techs(self)

    def _repr_svg_(self) -> str:
        """What the player sees, as a picture, for Jupyter (see `hatsuden_rules.svg`)."""
        from hatsuden_rules.svg import board_svg

        return board_svg(self, size=760)


_NO_DECISION = frozenset({Phase.CHANCE, Phase.GAME_OVER})


def _seat(player: int) -> int:
    if type(player) is not int or player not in (0, 1):
        raise InvalidInputError("player", f"must be 0 or 1, got {player!r}")
    return player


# -- observe ---------------------------------------------------------------------------------


def observe(state: GameState, player: int) -> Observation:
    """What `player` sees of `state` (R36, R37): a frozen, hashable value.

    Args:
        state: Any state, in either chance mode.
        player: The observer, 0 or 1.

    Examples:
        >>> from hatsuden_rules import new_game, apply, BuildPylon, Cell, Energy
        >>> state = new_game(seed=11)
        >>> card = state.hand(0)[0]
        >>> state = apply(state, BuildPylon(card, Cell(0, Energy.SOLAR)))
        >>> observe(state, 0).stack(0, Cell(0, Energy.SOLAR)).top == card  # own pylon: known
        True
        >>> print(observe(state, 1).stack(0, Cell(0, Energy.SOLAR)).top)  # opponent's: hidden
        None
        >>> observe(state, 1).this_turn
        (Concealed(move='BuildPylon', cell=Cell(row=0, energy=Energy.SOLAR)),)
    """
    if type(state) is not GameState:
        raise InvalidInputError("state", f"expected a GameState, got {type(state).__name__}")
    p = _seat(player)
    q = 1 - p
    rules = state.rules
    t = enc.tables(rules)
    cards = t.cards
    over = state.phase is Phase.GAME_OVER
    boards = enc.boards(state)
    mine = tuple(_seen_stack(raw, cards, True, over) for raw in boards[p])
    theirs = tuple(_seen_stack(raw, cards, False, over) for raw in boards[q])
    mover = state.current_player
    return Observation(
        rules,
        p,
        state.phase,
        mover,
        tuple(cards[i] for i in enc.hands(state)[p]),
        enc.tech_hands(state)[p],
        tuple(cards[i] for i in enc.known(state)[p]),
        tuple(cards[i] for i in enc.known(state)[q]),
        len(enc.hands(state)[q]),
        len(enc.tech_hands(state)[q]),
        len(enc.deck(state)),
        len(state.tech_deck),
        tuple(cards[i] for i in enc.discards(state)),
        (mine, theirs) if p == 0 else (theirs, mine),
        state.accumulator,
        state.smart,
        state.played_cell,
        state.turn_discard,
        state.pending_chance,
        state.stall_count,
        state.end_triggered_by,
        state.end_reason,
        _seen_moves(state.this_turn, mover == p),
        _seen_moves(state.last_turn, mover != p),
    )


def _seen_stack(
    raw: tuple[int, ...], cards: tuple[Card, ...], own: bool, over: bool
) -> SeenStack | None:
    if not raw:
        return None
    flags = raw[0]
    seen: tuple[Card | None, ...] = tuple(cards[i] for i in raw[1:])
    if not own:
        if flags & FACE_DOWN and not flags & FLIPPED:
            seen = (None,)  # R14: the card of a pylon built from hand stays with its owner
        elif flags & SECRET and not (over and not flags & FACE_DOWN and len(seen) == 1):
            seen = (None, *seen[1:])  # R11, R26: revealed only on top of a plant at the end
    return SeenStack(
        seen,
        bool(flags & FACE_DOWN),
        bool(flags & FLIPPED),
        bool(flags & SECRET),
        bool(flags & DOWNSIZED),
    )


def _seen_moves(moves: tuple[Move, ...], own: bool) -> tuple[SeenMove, ...]:
    if own:
        return moves
    return tuple(_seen_move(move) for move in moves)


def _seen_move(move: Move) -> SeenMove:
    if isinstance(move, BuildPylon):
        return Concealed("BuildPylon", move.cell)  # R14: the card is the owner's secret
    if isinstance(move, Construct) and move.secret:
        return Concealed("Construct", move.cell)  # R11: the cell is public, the card is not
    if isinstance(move, Deal):
        return Concealed("Deal")  # R30: a drawn card is seen by its receiver only
    if isinstance(move, DealTech):
        return Concealed("DealTech")
    return move


def _unseen_counts(observation: Observation) -> list[int]:
    """Copies of each card (by index) whose place the observer does not know."""
    rules = observation.rules
    index = enc.tables(rules).card_index
    counts = [rules.copies] * len(enc.tables(rules).cards)

    def take(cards: Iterable[Card | None], where: str) -> None:
        for card in cards:
            if card is None:
                continue
            i = index.get(card)
            if i is None:
                raise InvalidInputError(where, f"{card!r} is not a card under these rules")
            counts[i] -= 1
            if counts[i] < 0:
                raise InvalidInputError(where, f"more copies of {card} are seen than exist (R2)")

    take(observation.hand, "hand")
    take(observation.discards, "discards")
    take(observation.opponent_known, "opponent_known")
    for board in observation.boards:
        for seen in board:
            if seen is not None:
                take(seen.cards, "boards")
    return counts


def _unseen_techs(observation: Observation) -> tuple[Tech, ...]:
    used = set(observation.tech_hand)
    if observation.accumulator is not None:
        used.add(Tech.ACCUMULATOR)
    if observation.smart is not None:
        used.add(Tech.SMART)
    for board in observation.boards:
        for seen in board:
            if seen is not None:
                if seen.secret:
                    used.add(Tech.SECRET_BUILD)
                if seen.downsized:
                    used.add(Tech.DOWN)
    return tuple(tech for tech in enc.tables(observation.rules).techs if tech not in used)


# The public classes are documented (and pickled) under the module users import them from.
Concealed.__module__ = SeenStack.__module__ = Observation.__module__ = "hatsuden_rules.observation"
