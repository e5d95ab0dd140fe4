"""Hidden information (R30, R36-R39): what one player sees, and full states consistent with it.

`observe` gives a player's `Observation`: their own hand and tech hand, the public board with the
cards they have seen, the counts of everything hidden, the cards known to be in the opponent's
hand, and the last two turns' moves as they saw them. `legal_moves_from` gives the mover's moves
from their observation alone; `sample_state` draws a complete state that the player cannot tell
apart from the real one (information-set sampling, for ISMCTS and other search).

Example:
    >>> from hatsuden_rules import new_game, legal_moves
    >>> state = new_game(seed=3)
    >>> seen = observe(state, 0)
    >>> seen.hand == state.hand(0), seen.opponent_hand_size, seen.deck_size
    (True, 5, 30)
    >>> legal_moves_from(seen) == legal_moves(state)
    True
    >>> observe(sample_state(seen, SplitMix64.from_seed(1)), 0) == seen
    True
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

import attrs

from ._cards import Card, Cell, Energy, Tech
from ._errors import InvalidInputError
from ._legal import legal_moves
from ._moves import (
    BuildPylon,
    Construct,
    Deal,
    DealTech,
    Downsize,
    DrawTech,
    Flip,
    Move,
    PlaceAccumulator,
    PlaceSmart,
)
from ._rng import SplitMix64, splitmix64
from ._rules import Rules
from ._state import (
    DOWNSIZED,
    FACE_DOWN,
    FLIPPED,
    SECRET,
    Chance,
    EndReason,
    GameState,
    Phase,
)

__all__ = [
    "Concealed",
    "Observation",
    "SeenMove",
    "SeenStack",
    "legal_moves_from",
    "observation_tensor",
    "observation_tensor_layout",
    "observe",
    "render_observation",
    "sample_state",
]

_MASK = (1 << 64) - 1
_CONCEALED_KINDS = ("BuildPylon", "Construct", "Deal", "DealTech")


@attrs.frozen(slots=True)
class Concealed:
    """An opponent's move whose card the observer did not see (R36).

    Attributes:
        move: The kind of move: ``"BuildPylon"`` (the card of a pylon built from hand),
            ``"Construct"`` (a secret Construct: its cell is public, its card is not), ``"Deal"``
            (the card drawn from the deck) or ``"DealTech"`` (the tech card drawn).
        cell: The cell of a BuildPylon or secret Construct, in the mover's own grid; else None.

    Example:
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
        index = self.rules._tables.cell_index.get(cell)
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
        from .svg import board_svg

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

    Example:
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
    t = rules._tables
    cards = t.cards
    over = state.phase is Phase.GAME_OVER
    boards = state._boards
    mine = tuple(_seen_stack(raw, cards, True, over) for raw in boards[p])
    theirs = tuple(_seen_stack(raw, cards, False, over) for raw in boards[q])
    mover = state.current_player
    return Observation(
        rules,
        p,
        state.phase,
        mover,
        tuple(cards[i] for i in state._hands[p]),
        state._tech_hands[p],
        tuple(cards[i] for i in state._known[p]),
        tuple(cards[i] for i in state._known[q]),
        len(state._hands[q]),
        len(state._tech_hands[q]),
        len(state._deck),
        len(state._tech_deck),
        tuple(cards[i] for i in state._discards),
        (mine, theirs) if p == 0 else (theirs, mine),
        state._accumulator,
        state._smart,
        state.played_cell,
        state.turn_discard,
        state._chance,
        state._stall,
        state._end_trigger,
        state._end_reason,
        _seen_moves(state._this_turn, mover == p),
        _seen_moves(state._last_turn, mover != p),
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


# -- legal moves and sampling -------------------------------------------------------------------


def legal_moves_from(observation: Observation) -> tuple[Move, ...]:
    """The observer's legal moves, computed from their observation alone (R37).

    Equal to `legal_moves(state)` whenever ``observation == observe(state,
    state.current_player)`` outside CHANCE: what a player may do never depends on what they
    cannot see. Empty when the observer has no decision to make (the opponent's move, a pending
    chance event, or the end of the game).

    Example:
        >>> from hatsuden_rules import new_game, legal_moves
        >>> state = new_game(seed=4)
        >>> legal_moves_from(observe(state, 0)) == legal_moves(state)
        True
        >>> legal_moves_from(observe(state, 1))  # player 0 is to move
        ()
    """
    if type(observation) is not Observation:
        raise InvalidInputError(
            "observation", f"expected an Observation, got {type(observation).__name__}"
        )
    if not observation.is_my_turn:
        return ()
    return legal_moves(_complete(observation, 0)[0])


def sample_state(observation: Observation, rng: SplitMix64 | int) -> GameState:
    """A complete state drawn uniformly among those consistent with `observation` (R38).

    ``observe(sample_state(o, rng), o.player) == o`` always holds. The unseen plant cards are
    dealt uniformly at random (every arrangement of the physical cards equally likely) to the
    deck, the unknown part of the opponent's hand and the opponent's hidden board cards, subject
    to what is public about an opponent's secret card (its energy, and the bounds that the
    cards on it, the row's tolerance, a logged tech draw and the logged flips put on its value,
    R38); the unseen tech cards likewise to the
    opponent's tech hand and the tech deck. The draw is reproducible in any language: R38 lists
    the exact order of the generator calls.

    Args:
        observation: What one player knows.
        rng: The portable generator, or an int seed for one. For several samples use several
            seeds, or continue from ``SplitMix64(sample.rng_state)``.

    Returns:
        A seeded state whose generator continues after the draws (so chance in a rollout is
        reproducible too); in the CHANCE phase, where seeded states never are, an explicit one.

    Example:
        >>> from hatsuden_rules import new_game
        >>> seen = observe(new_game(seed=8), 1)
        >>> guess = sample_state(seen, 2026)
        >>> observe(guess, 1) == seen, guess.hand(1) == seen.hand
        (True, True)
        >>> sample_state(seen, 2026) == guess  # reproducible
        True
    """
    if type(observation) is not Observation:
        raise InvalidInputError(
            "observation", f"expected an Observation, got {type(observation).__name__}"
        )
    if isinstance(rng, SplitMix64):
        state = rng.state
    elif type(rng) is int:
        state = rng & _MASK
    else:
        raise InvalidInputError("rng", f"expected a SplitMix64 or an int seed, got {rng!r}")
    sample, after = _complete(observation, state)
    if observation.phase is Phase.CHANCE:
        return sample
    return attrs.evolve(sample, rng=after)


def _unseen_counts(observation: Observation) -> list[int]:
    """Copies of each card (by index) whose place the observer does not know."""
    rules = observation.rules
    index = rules._tables.card_index
    counts = [rules.copies] * len(rules._tables.cards)

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
    return tuple(tech for tech in observation.rules._tables.techs if tech not in used)


def _shuffle(items: list[int], rng: int) -> int:
    """Fisher-Yates with the portable generator (R38): one next() per swap, from the end."""
    for i in range(len(items) - 1, 0, -1):
        rng, value = splitmix64(rng)
        j = value % (i + 1)
        items[i], items[j] = items[j], items[i]
    return rng


def _secret_fits(observation: Observation, seat: int, cell: int, stack: SeenStack) -> list[bool]:
    """Which cards (by index) the hidden secret card of `stack` may be (R38)."""
    rules = observation.rules
    t = rules._tables
    width = len(t.energies)
    column, row = cell % width, cell // width
    above = [card.value for card in stack.cards[1:] if card is not None]
    low, high = 1, rules.max_value
    if above:
        increasing = all(a < b for a, b in itertools.pairwise(above))
        if stack.downsized and increasing:
            low = above[0] + 1  # R13: the first card on it was the Downsize
        else:
            high = above[0] - 1  # R12: the first card on it was an Improve
    elif not stack.face_down:  # the secret card is the top: it counts in its row's supply
        rest = 0
        for other in observation.boards[seat][row * width : row * width + width]:
            if other is not None and other is not stack and not other.face_down:
                rest += other.value or 0
        tolerance = t.tolerance
        if observation.accumulator == (seat, row):
            tolerance = t.accumulator_tolerance
        played = observation.played_cell
        in_play = (
            seat == observation.current_player
            and played is not None
            and t.cell_index[played] // width == row
        )
        phase = observation.phase
        if in_play and phase is Phase.OVERFLOW:
            low = max(low, tolerance - rest + 1)  # R21: the played row is over its tolerance
        elif not (in_play and (phase is Phase.TECH or observation.pending_chance is Chance.TECH)):
            high = min(high, tolerance - rest)  # R9: every other row is within tolerance
    for log, mover in (
        (observation.this_turn, observation.current_player),
        (observation.last_turn, 1 - observation.current_player),
    ):
        if mover != seat:
            continue
        for before, after in itertools.pairwise(log):
            if (
                isinstance(before, Concealed)
                and before.move == "Construct"
                and before.cell == t.cells[cell]
                and isinstance(after, DrawTech)
            ):
                low = max(low, rules.max_value)  # R17: a tech card is drawn only for a 4
        if not above:
            low = max(low, _overflow_bound(observation, log, seat, cell))
    return [t.card_col[i] == column and low <= t.card_value[i] <= high for i in range(len(t.cards))]


def _overflow_bound(
    observation: Observation, log: tuple[SeenMove, ...], seat: int, cell: int
) -> int:
    """The lowest value of `seat`'s uncovered secret card at `cell`, from the flips in `log`.

    `log` is a turn log of `seat`. Before each logged Flip the row exceeded its tolerance (R21),
    and the secret card counted in it unless its stack was already face down.
    """
    rules = observation.rules
    t = rules._tables
    width = len(t.energies)
    row = cell // width
    board = observation.boards[seat]
    secret = board[cell]
    assert secret is not None
    low = 1
    for n, move in enumerate(log):
        if not isinstance(move, Flip) or move.cell.row != row:
            continue
        flipped_from_here = {
            t.cell_index[m.cell] for m in log[n:] if isinstance(m, Flip)
        }  # face up before this flip, face down now
        if secret.face_down and cell not in flipped_from_here:
            continue  # the secret stack was already a pylon: it did not count
        rest = 0
        for other in range(row * width, row * width + width):
            stack = board[other]
            if other == cell or stack is None:
                continue
            top = stack.cards[-1]
            if top is not None and (not stack.face_down or other in flipped_from_here):
                rest += top.value
        tolerance = t.tolerance
        placed_later = any(isinstance(m, PlaceAccumulator) and m.row == row for m in log[n + 1 :])
        if observation.accumulator == (seat, row) and not placed_later:
            tolerance = t.accumulator_tolerance
        low = max(low, tolerance - rest + 1)
    return low


def _complete(observation: Observation, rng: int) -> tuple[GameState, int]:
    """A full state consistent with `observation`, its unseen cards drawn with `rng` (R38)."""
    rules = observation.rules
    t = rules._tables
    p = observation.player
    counts = _unseen_counts(observation)
    hidden: list[tuple[int, int, int]] = []  # (seat, cell, position) of each hidden board card
    secret: tuple[int, int, int] | None = None
    for seat, board in enumerate(observation.boards):
        for cell, stack in enumerate(board):
            if stack is None:
                continue
            for position, card in enumerate(stack.cards):
                if card is None:
                    if seat == p:
                        raise InvalidInputError("boards", "a player sees all of their own cards")
                    if stack.secret and position == 0:
                        secret = (seat, cell, position)
                    else:
                        hidden.append((seat, cell, position))
    unknown_hand = observation.opponent_hand_size - len(observation.opponent_known)
    slots = unknown_hand + len(hidden) + (secret is not None) + observation.deck_size
    if unknown_hand < 0 or sum(counts) != slots:
        raise InvalidInputError(
            "observation",
            f"{sum(counts)} unseen cards cannot fill {slots} hidden places (R2: conservation)",
        )
    filled: dict[tuple[int, int, int], int] = {}
    if secret is not None:  # R38: the secret card first, among the cards that fit it
        seat, cell, _ = secret
        stack = observation.boards[seat][cell]
        assert stack is not None
        fits = _secret_fits(observation, seat, cell, stack)
        weights = [n if ok else 0 for n, ok in zip(counts, fits, strict=True)]
        total = sum(weights)
        if total == 0:
            raise InvalidInputError(
                "observation", f"no unseen card fits the secret plant at {t.cells[cell]}"
            )
        rng, value = splitmix64(rng)
        r = value % total
        for i, weight in enumerate(weights):
            if r < weight:
                filled[secret] = i
                counts[i] -= 1
                break
            r -= weight
    pool = [i for i, n in enumerate(counts) for _ in range(n)]
    rng = _shuffle(pool, rng)
    drawn_hand = pool[:unknown_hand]
    for k, place in enumerate(hidden):
        filled[place] = pool[unknown_hand + k]
    deck = tuple(sorted(pool[unknown_hand + len(hidden) :]))
    techs = list(_unseen_techs(observation))
    k = observation.opponent_tech_hand_size
    if len(techs) != k + observation.tech_deck_size:
        raise InvalidInputError(
            "observation",
            f"{len(techs)} unseen tech cards cannot fill the opponent's tech hand ({k}) and the "
            f"tech deck ({observation.tech_deck_size})",
        )
    order = list(range(len(techs)))
    rng = _shuffle(order, rng)
    their_techs = frozenset(techs[i] for i in order[:k])
    tech_deck = tuple(techs[i] for i in sorted(order[k:]))

    index = t.card_index
    boards: list[tuple[tuple[int, ...], ...]] = []
    for seat, board in enumerate(observation.boards):
        raws: list[tuple[int, ...]] = []
        for cell, stack in enumerate(board):
            if stack is None:
                raws.append(())
                continue
            flags = (
                (FACE_DOWN if stack.face_down else 0)
                | (FLIPPED if stack.flipped else 0)
                | (SECRET if stack.secret else 0)
                | (DOWNSIZED if stack.downsized else 0)
            )
            raws.append(
                (
                    flags,
                    *(
                        filled[(seat, cell, position)] if card is None else index[card]
                        for position, card in enumerate(stack.cards)
                    ),
                )
            )
        boards.append(tuple(raws))
    own_hand = tuple(index[card] for card in observation.hand)
    their_known = tuple(index[card] for card in observation.opponent_known)
    their_hand = tuple(sorted((*their_known, *drawn_hand)))
    known_mine = tuple(index[card] for card in observation.known_to_opponent)
    played = observation.played_cell
    discarded = observation.turn_discard
    mover = observation.current_player

    def unseal(log: tuple[SeenMove, ...], seat: int) -> tuple[Move, ...]:
        out: list[Move] = []
        for n, move in enumerate(log):
            if not isinstance(move, Concealed):
                out.append(move)
            elif move.move == "Deal":
                if not drawn_hand:
                    raise InvalidInputError("last_turn", "a card was dealt to an empty hand")
                out.append(t.deal[drawn_hand[0]])  # any unknown hand card will do: they are alike
            elif move.move == "DealTech":
                out.append(t.deal_tech[_dealt_tech(their_techs, log[n + 1 :])])
            else:
                assert move.cell is not None
                cell = t.cell_index[move.cell]
                raw = boards[seat][cell]
                if move.move == "BuildPylon":
                    out.append(t.pylon[raw[1]][cell])
                else:
                    out.append(t.construct_secret[raw[1]][cell // len(t.energies)])
        return tuple(out)

    sample = GameState(
        rules,
        observation.phase,
        mover,
        (own_hand, their_hand) if p == 0 else (their_hand, own_hand),
        deck,
        tuple(index[card] for card in observation.discards),
        (boards[0], boards[1]),
        tech_deck,
        (observation.tech_hand, their_techs) if p == 0 else (their_techs, observation.tech_hand),
        observation.accumulator,
        observation.smart,
        None if played is None else t.cell_index[played],
        None if discarded is None else index[discarded],
        observation.pending_chance,
        observation.stall_count,
        observation.end_triggered_by,
        observation.end_reason,
        None,
        (known_mine, their_known) if p == 0 else (their_known, known_mine),
        unseal(observation.this_turn, mover),
        unseal(observation.last_turn, 1 - mover),
    )
    return sample, rng


def _dealt_tech(held: frozenset[Tech], later: tuple[SeenMove, ...]) -> Tech:
    """A tech card the opponent may have drawn: one they hold, or the next one they used."""
    for tech in Tech:
        if tech in held:
            return tech
    for move in later:
        if isinstance(move, PlaceAccumulator):
            return Tech.ACCUMULATOR
        if isinstance(move, PlaceSmart):
            return Tech.SMART
        if isinstance(move, Downsize):
            return Tech.DOWN
        if isinstance(move, Concealed) and move.move == "Construct":
            return Tech.SECRET_BUILD
    raise InvalidInputError("this_turn", "a tech card was dealt that the opponent cannot hold")


# -- rendering and tensor -----------------------------------------------------------------------


def _render_stack(stack: SeenStack | None) -> str:
    if stack is None:
        return "."
    top = stack.top
    if stack.face_down:
        return "#" + ("" if top is None else str(top.value))
    mark = "v" if stack.downsized else ""
    if top is None:
        return "?" + mark  # an opponent's secret plant
    return f"{top.value}{'?' if stack.secret and len(stack.cards) == 1 else mark}"


def render_observation(observation: Observation) -> str:
    """A multi-line picture of what the observer sees; ``?`` marks a card they have not seen.

    Example:
        >>> from hatsuden_rules import new_game
        >>> print(render_observation(observe(new_game(seed=5), 1)).splitlines()[0])
        Player 1's view · player 0 to play · ACTION · deck 30 · tech deck 4 · stall 0/20
    """
    o = observation
    rules = o.rules
    width = len(rules.energies_in_play)
    limit = "off" if rules.stall_limit is None else str(rules.stall_limit)
    if o.end_reason is not None:
        head = f"game over ({o.end_reason.name.lower().replace('_', ' ')})"
    else:
        head = f"player {o.current_player} to play · {o.phase.name}"
    trigger = "" if o.end_triggered_by is None else f" · end triggered by {o.end_triggered_by}"
    lines = [
        f"Player {o.player}'s view · {head} · deck {o.deck_size} · tech deck {o.tech_deck_size}"
        f" · stall {o.stall_count}/{limit}{trigger}",
        "Discards: " + (" ".join(_card_text(c) for c in o.discards) or "-"),
    ]
    header = "        " + " ".join(f"{e.letter:>3}" for e in rules.energies_in_play)
    for seat in (o.opponent, o.player):
        if seat == o.player:
            hand = " ".join(_card_text(c) for c in o.hand) or "-"
            techs = ", ".join(t.name for t in Tech if t in o.tech_hand) or "-"
            exposed = " ".join(_card_text(c) for c in o.known_to_opponent)
            known = f" (opponent knows {exposed})" if exposed else ""
            lines.append(f"You (player {seat}): hand [{hand}]{known} tech [{techs}]")
        else:
            known = " ".join(_card_text(c) for c in o.opponent_known)
            lines.append(
                f"Opponent (player {seat}): {o.opponent_hand_size} cards"
                + (f" incl. [{known}]" if known else "")
                + f", {o.opponent_tech_hand_size} tech"
            )
        lines.append(header)
        board = o.boards[seat]
        for row in (0, 1):
            stacks = board[row * width : (row + 1) * width]
            cells = " ".join(f"{_render_stack(x):>3}" for x in stacks)
            values = [x.value for x in stacks if x is not None]
            supply = sum(v for v in values if v is not None)
            unknown = "+?" if None in values else ""
            tolerance = rules.city_demand + (2 if o.accumulator == (seat, row) else 1)
            acc = " +Acc" if o.accumulator == (seat, row) else ""
            lines.append(f"  city {row} {cells}   supply {supply}{unknown}/{tolerance}{acc}")
    if o.smart is not None:
        lines.append(f"Smart on {o.smart.name}")
    for label, log in (("Last turn", o.last_turn), ("This turn", o.this_turn)):
        if log:
            lines.append(f"{label}: " + ", ".join(_move_text(m) for m in log))
    return "\n".join(lines)


def _card_text(card: Card) -> str:
    return f"{card.energy.letter}{card.value}"


def _move_text(move: SeenMove) -> str:
    if isinstance(move, Concealed):
        where = "" if move.cell is None else f" {move.cell.row}{move.cell.energy.letter}"
        return f"{move.move}(?){where}"
    return repr(move)


_PHASES = tuple(Phase)
_CHANCES = tuple(Chance)
_REASONS = tuple(EndReason)
_CELL_FEATURES = (
    "occupied",
    "face_down",
    "flipped",
    "secret",
    "downsized",
    "value",
    "top",
    "height",
)


def observation_tensor_layout(rules: Rules) -> tuple[tuple[str, int], ...]:
    """The segments of `observation_tensor` for `rules`, in order: ``(name, length)`` (R39).

    Example:
        >>> from hatsuden_rules import STANDARD
        >>> layout = observation_tensor_layout(STANDARD)
        >>> layout[:3], sum(n for _, n in layout)
        ((('phase', 6), ('to_move', 1), ('seat', 1)), 323)
    """
    if type(rules) is not Rules:
        raise InvalidInputError("rules", f"expected Rules, got {type(rules).__name__}")
    c = len(rules._tables.cards)
    e = rules.energies
    cells = 2 * e
    return (
        ("phase", len(_PHASES)),
        ("to_move", 1),
        ("seat", 1),
        ("hand", c),
        ("tech_hand", len(Tech)),
        ("known_to_opponent", c),
        ("opponent_known", c),
        ("sizes", 4),
        ("discards", c),
        ("unseen", c),
        ("my_board", cells * len(_CELL_FEATURES)),
        ("opponent_board", cells * len(_CELL_FEATURES)),
        ("accumulator", 4),
        ("smart", e),
        ("played_cell", cells),
        ("turn_discard", c),
        ("pending_chance", len(_CHANCES)),
        ("stall", 1),
        ("end_trigger", 2),
        ("end_reason", len(_REASONS)),
    )


def observation_tensor(observation: Observation) -> tuple[int, ...]:
    """The observation as a flat tuple of ints, from the observer's side (R39).

    The layout is fixed for a `Rules` (see `observation_tensor_layout` and RULES.md R39): card
    segments count copies per card in `Rules.cards` order, cell segments follow `Rules.cells`,
    one-hot segments follow the enumerations' canonical order, and "my" comes before "the
    opponent's". The turn logs are not included.

    Example:
        >>> from hatsuden_rules import new_game, STANDARD
        >>> tensor = observation_tensor(observe(new_game(seed=5), 0))
        >>> len(tensor) == sum(n for _, n in observation_tensor_layout(STANDARD))
        True
    """
    o = observation
    if type(o) is not Observation:
        raise InvalidInputError("observation", f"expected an Observation, got {type(o).__name__}")
    t = o.rules._tables
    index = t.card_index
    c = len(t.cards)

    def counts(cards: Iterable[Card]) -> list[int]:
        out = [0] * c
        for card in cards:
            out[index[card]] += 1
        return out

    def one_hot(n: int, k: int | None) -> list[int]:
        out = [0] * n
        if k is not None:
            out[k] = 1
        return out

    def board(seat: int) -> list[int]:
        out: list[int] = []
        for stack in o.boards[seat]:
            if stack is None:
                out += [0] * len(_CELL_FEATURES)
                continue
            value = stack.value
            top = stack.top
            out += [
                1,
                int(stack.face_down),
                int(stack.flipped),
                int(stack.secret),
                int(stack.downsized),
                -1 if value is None else value,
                0 if top is None else index[top] + 1,
                len(stack.cards),
            ]
        return out

    me, them = o.player, o.opponent
    acc = o.accumulator
    tensor = [
        *one_hot(len(_PHASES), _PHASES.index(o.phase)),
        int(o.current_player == me),
        me,
        *counts(o.hand),
        *(int(tech in o.tech_hand) for tech in Tech),
        *counts(o.known_to_opponent),
        *counts(o.opponent_known),
        o.opponent_hand_size,
        o.opponent_tech_hand_size,
        o.deck_size,
        o.tech_deck_size,
        *counts(o.discards),
        *_unseen_counts(o),
        *board(me),
        *board(them),
        int(acc == (me, 0)),
        int(acc == (me, 1)),
        int(acc == (them, 0)),
        int(acc == (them, 1)),
        *one_hot(len(t.energies), None if o.smart is None else t.energy_index[o.smart]),
        *one_hot(len(t.cells), None if o.played_cell is None else t.cell_index[o.played_cell]),
        *one_hot(c, None if o.turn_discard is None else index[o.turn_discard]),
        *one_hot(
            len(_CHANCES), None if o.pending_chance is None else _CHANCES.index(o.pending_chance)
        ),
        o.stall_count,
        int(o.end_triggered_by == me),
        int(o.end_triggered_by == them),
        *one_hot(len(_REASONS), None if o.end_reason is None else _REASONS.index(o.end_reason)),
    ]
    return tuple(tensor)
