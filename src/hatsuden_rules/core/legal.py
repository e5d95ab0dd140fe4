"""Legal moves (R9-R22) and chance outcomes (R6), in canonical order (R34).

Moves come from the prebuilt tables of the `Rules`, so listing them builds no new move values.

Speed, without changing a single result (see `benchmarks/README.md`): ACTION moves are found in
one pass over the (card, cell of its energy) pairs, one list per kind so the order stays
canonical; a hand or discard pile of one card is not merged for duplicates; the few items here
are collected with plain loops rather than comprehensions (a comprehension is a function call in
Python 3.11); enum members are module constants (reading ``Phase.ACTION`` goes through the enum
metaclass's ``__getattr__`` hook in Python 3.11).
"""

from __future__ import annotations

from fractions import Fraction
from operator import itemgetter

from hatsuden_rules.core.cards import Tech
from hatsuden_rules.core.encoding import FACE_DOWN
from hatsuden_rules.core.errors import InvalidInputError, PhaseError
from hatsuden_rules.core.moves import Move
from hatsuden_rules.core.rules import Overflow, TechTiming
from hatsuden_rules.core.state import Chance, GameState, Phase, takeable_discards, tolerance

__all__ = ["chance_outcomes", "is_legal", "legal_moves"]

_ACCUMULATOR = Tech.ACCUMULATOR
_SECRET_BUILD = Tech.SECRET_BUILD
_SMART = Tech.SMART
_DOWN = Tech.DOWN
_PLACE_AT_ONCE = TechTiming.PLACE_AT_ONCE
_ANY_SET = Overflow.ANY_SET
# Read once: in Python 3.11 `Phase.ACTION` goes through the enum metaclass's __getattr__ hook.
_ACTION, _DRAW, _CHANCE, _TECH, _OVERFLOW = (
    Phase.ACTION,
    Phase.DRAW,
    Phase.CHANCE,
    Phase.TECH,
    Phase.OVERFLOW,
)
_TECH_CHANCE = Chance.TECH
_FREE_PHASES = frozenset({_ACTION, _OVERFLOW, _DRAW})  # R18
_OUTCOME = itemgetter(0)  # the move of a (move, weight) pair, without a generator's frames


def legal_moves(state: GameState) -> tuple[Move, ...]:
    """Every move allowed now, without duplicates, in canonical order (R34).

    In CHANCE these are the distinct chance outcomes; at GAME_OVER there are none.

    Examples:
        >>> from hatsuden_rules import new_game, Phase
        >>> state = new_game(seed=1)
        >>> state.phase, len(legal_moves(state)) > 0
        (Phase.ACTION, True)
    """
    if type(state) is not GameState:
        raise InvalidInputError("state", f"expected a GameState, got {type(state).__name__}")
    phase = state.phase
    if state.rules.tech_timing is _PLACE_AT_ONCE and phase in _FREE_PHASES:
        due = due_placements(state)
        if due:  # R40: a drawn Accumulator or Smart is placed before anything else
            return due
    if phase is _ACTION:
        return _action_moves(state)
    if phase is _DRAW:
        return _draw_moves(state)
    if phase is _CHANCE:
        return tuple(map(_OUTCOME, _chance_weights(state)))
    if phase is _TECH:
        return _tech_moves(state)
    if phase is _OVERFLOW:
        return _overflow_moves(state)
    return ()


def is_legal(state: GameState, move: Move) -> bool:
    """Whether `move` is among `legal_moves(state)`.

    Examples:
        >>> from hatsuden_rules import new_game, Pass
        >>> is_legal(new_game(seed=1), Pass())  # R16: Pass needs an empty hand
        False
    """
    return move in legal_moves(state)


def chance_outcomes(state: GameState) -> tuple[tuple[Move, Fraction], ...]:
    """The chance outcomes of a CHANCE state with their exact probabilities, summing to 1 (R6).

    Raises:
        PhaseError: If the state is not in the CHANCE phase.

    Examples:
        >>> from hatsuden_rules import new_game
        >>> outcomes = chance_outcomes(new_game())
        >>> len(outcomes), outcomes[0][1], sum(p for _, p in outcomes)
        (20, Fraction(1, 20), Fraction(1, 1))
    """
    if type(state) is not GameState:
        raise InvalidInputError("state", f"expected a GameState, got {type(state).__name__}")
    if state.phase is not _CHANCE:
        raise PhaseError(
            f"R6: chance outcomes exist only in the CHANCE phase, not {state.phase.name}"
        )
    weighted = _chance_weights(state)
    total = sum(weight for _, weight in weighted)
    return tuple((move, Fraction(weight, total)) for move, weight in weighted)


def _chance_weights(state: GameState) -> list[tuple[Move, int]]:
    """Distinct outcomes with integer weights (counts left), in canonical order (R6, R33)."""
    t = state.rules._tables
    if state._chance is _TECH_CHANCE:
        deal_tech = t.deal_tech
        # One of each tech card (R6): equal weights, so their common value is not observable
        # (probabilities are weight / total) and is not mutated.
        return [(deal_tech[tech], 1) for tech in state._tech_deck]  # pragma: no mutate
    deal = t.deal
    weighted: list[tuple[Move, int]] = []
    previous = -1  # pragma: no mutate (a sentinel: any value that is not a card index)
    for i in state._deck:  # sorted, so equal cards are adjacent
        if i == previous:
            move, weight = weighted[-1]
            weighted[-1] = (move, weight + 1)
        else:
            weighted.append((deal[i], 1))
            previous = i
    return weighted


def due_placements(state: GameState) -> tuple[Move, ...]:
    """With ``tech_timing=PLACE_AT_ONCE``: the placements the mover owes now, else () (R40).

    The mover owes the placement of every Accumulator or Smart card in their tech hand: these
    are placed as soon as they are drawn, so they are held only until the next move.
    """
    techs = state._tech_hands[state.current_player]
    if _ACCUMULATOR not in techs and _SMART not in techs:
        return ()
    return _free_placements(state, [])


def _free_placements(state: GameState, out: list[Move]) -> tuple[Move, ...]:
    """Append the free placements of the held Accumulator and Smart (R18)."""
    techs = state._tech_hands[state.current_player]
    if techs:
        t = state.rules._tables
        if _ACCUMULATOR in techs:
            out.extend(t.place_accumulator)
        if _SMART in techs:
            out.extend(t.place_smart)
    return tuple(out)


def _action_moves(state: GameState) -> tuple[Move, ...]:
    t = state.rules._tables
    player = state.current_player
    hand = state._hands[player]
    board = state._boards[player]
    techs = state._tech_hands[player]
    value = t.card_value
    # The distinct cards in canonical order (R34), iterated three times below: the hand is sorted,
    # so equal cards are adjacent, and a hand of one card has nothing to merge (hands in model
    # checking are that small). A plain loop: ``dict.fromkeys(hand)`` costs more for a few cards.
    distinct: tuple[int, ...] | list[int] = hand
    if len(hand) > 1:
        distinct = []
        previous = -1  # pragma: no mutate (a sentinel: any value that is not a card index)
        for i in hand:
            if i != previous:
                distinct.append(i)
                previous = i

    # One pass over the (card, cell of its energy) pairs finds the Constructs, Improves and
    # Downsizes together; each kind keeps its own list, so the result is still in canonical order.
    builds: list[Move] = []
    improves: list[Move] = []
    downsizes: list[Move] = []
    secret = _SECRET_BUILD in techs
    down = _DOWN in techs
    targets = t.targets
    for i in distinct:
        v = value[i]
        for c, construct, construct_secret, improve, downsize in targets[i]:
            raw = board[c]
            if not raw:  # R10, R11
                builds.append(construct)
                if secret:
                    builds.append(construct_secret)
            elif not raw[0] & FACE_DOWN:
                top = value[raw[-1]]
                if top < v:  # R12
                    improves.append(improve)
                elif down and top > v:  # R13
                    downsizes.append(downsize)
    builds.extend(improves)
    builds.extend(downsizes)
    out = builds

    # Plain loops rather than comprehensions: a comprehension is a function call in Python 3.11,
    # which costs more than the few items these loops see.
    empty = []
    c = 0
    for raw in board:  # a counter costs less than enumerate's tuples
        if not raw:
            empty.append(c)
        c += 1  # noqa: SIM113
    pylon = t.pylon
    if len(empty) > 1:  # R14; itemgetter picks the prebuilt moves for the empty cells at C speed
        pick = itemgetter(*empty)
        for i in distinct:
            out.extend(pick(pylon[i]))
    elif empty:
        c = empty[0]
        for i in distinct:
            out.append(pylon[i][c])

    discard = t.discard
    for i in distinct:  # R15
        out.append(discard[i])
    if not hand:
        out.append(t.pass_)  # R16
    return _free_placements(state, out) if techs else tuple(out)  # no call when none is held


def _tech_moves(state: GameState) -> tuple[Move, ...]:
    t = state.rules._tables
    played = state._played
    assert played is not None  # TECH always follows a card played this turn (R17)
    raw = state._boards[state.current_player][played]
    if t.card_value[raw[-1]] == state.rules.max_value:  # R17: a secret non-4 may only decline
        return (t.draw_tech, t.decline_tech)
    return (t.decline_tech,)


def _overflow_moves(state: GameState) -> tuple[Move, ...]:
    if state.rules.overflow is _ANY_SET:
        return _flip_set_moves(state)
    t = state.rules._tables
    width = len(t.energies)
    played = state._played
    assert played is not None  # OVERFLOW always follows a card played this turn (R21)
    board = state._boards[state.current_player]
    start = played - played % width
    flip = t.flip
    out: list[Move] = [
        flip[c]
        for c in range(start, start + width)
        if c != played and board[c] and not board[c][0] & FACE_DOWN
    ]
    return _free_placements(state, out)


def _flip_set_moves(state: GameState) -> tuple[Move, ...]:
    """OVERFLOW with ``overflow=ANY_SET``: every set of the row's other plants that suffices (R41).

    A set suffices when flipping it brings the row within its tolerance; sets that flip more
    than needed are legal too. There are at most 2**(energies - 1) - 1 of them.
    """
    t = state.rules._tables
    width = len(t.energies)
    played = state._played
    assert played is not None  # OVERFLOW always follows a card played this turn (R21)
    player = state.current_player
    board = state._boards[player]
    row, start = played // width, played - played % width
    value = t.card_value
    plants = 0  # columns of the other plants of the row
    values = [0] * width
    supply = 0
    for column in range(width):
        raw = board[start + column]
        if raw and not raw[0] & FACE_DOWN:
            values[column] = value[raw[-1]]
            supply += values[column]
            if start + column != played:
                plants |= 1 << column
    excess = supply - tolerance(state, player, row)
    out: list[Move] = [
        move
        for mask, columns, move in t.flip_sets[row]
        if not mask & ~plants and sum(values[c] for c in columns) >= excess
    ]
    return _free_placements(state, out)


def _draw_moves(state: GameState) -> tuple[Move, ...]:
    t = state.rules._tables
    if not state._discards and not state._tech_hands[state.current_player]:
        return t.draw_only if state._deck else t.end_only  # the common case, prebuilt
    out: list[Move] = []
    if state._deck:
        out.append(t.draw_deck)
    if state._discards:
        take = t.take
        for i in takeable_discards(state):
            out.append(take[i])
    if not out:
        out.append(t.end_turn)
    return _free_placements(state, out) if state._tech_hands[state.current_player] else tuple(out)
