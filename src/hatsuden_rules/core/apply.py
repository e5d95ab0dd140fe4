"""Transitions: `new_game` and `apply` (R5-R26). Pure functions from values to new values.

Every check happens before anything is built, so a rejected move leaves nothing behind; each
rejection names the rule that forbids the move. Every new state comes from an updater of
`state` (speed notes: docs/architecture.md).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from typing import Any, Final

from hatsuden_rules.core.cards import Energy, Tech
from hatsuden_rules.core.checks import (
    blur,
    card_and_cell,
    card_index,
    cell_index,
    check_nothing_due,
    forget,
    illegal,
    insert,
    pair,
    plant_at,
    put,
    remove,
    same_energy,
    take_from_hand,
    wrong_phase,
)
from hatsuden_rules.core.encoding import (
    DOWNSIZED,
    FACE_DOWN,
    FLIPPED,
    SECRET,
    city_tolerance,
    row_supply,
)
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
)
from hatsuden_rules.core.rng import splitmix64
from hatsuden_rules.core.rules import STANDARD, Overflow, Rules, TechTiming
from hatsuden_rules.core.state import (
    Chance,
    EndReason,
    GameState,
    Phase,
    builder,
    takeable_discards,
    updater,
)

__all__ = ["apply", "new_game"]

_MASK = (1 << 64) - 1
_CHANCE, _ACTION, _TECH, _OVERFLOW, _DRAW, _OVER = (
    Phase.CHANCE,
    Phase.ACTION,
    Phase.TECH,
    Phase.OVERFLOW,
    Phase.DRAW,
    Phase.GAME_OVER,
)
_FREE_PHASES = frozenset({_ACTION, _OVERFLOW, _DRAW})  # R18
_PLACE_AT_ONCE = TechTiming.PLACE_AT_ONCE
_ANY_SET = Overflow.ANY_SET
# Enum members used on hot paths, read once: in Python 3.11 `Chance.DRAW` goes through the enum
# metaclass's __getattr__ hook and costs several times a module global (as `_ACTION` above).
_SETUP, _DRAW_CHANCE, _TECH_CHANCE = Chance.SETUP, Chance.DRAW, Chance.TECH
_FINAL_TURN, _STALL = EndReason.FINAL_TURN, EndReason.STALL
_ACCUMULATOR, _SECRET_BUILD, _SMART, _DOWN = (
    Tech.ACCUMULATOR,
    Tech.SECRET_BUILD,
    Tech.SMART,
    Tech.DOWN,
)

# The state updaters of the transitions, one per set of fields a transition changes (see
# `state.updater`): every other field of the new state is the very object of the old one.
_NO_TECH_HANDS: Final[tuple[frozenset[Tech], frozenset[Tech]]] = (frozenset(), frozenset())
_start: Final = builder(  # R5-R8: a new game, dealt (seeded) or waiting for the deal
    "rules",
    "phase",
    "hands",
    "deck",
    "boards",
    "tech_deck",
    "chance",
    "rng",
    cleared=("accumulator", "smart", "played", "discarded", "end_trigger", "end_reason"),
    fixed={
        "current_player": 0,
        "discards": (),
        "tech_hands": _NO_TECH_HANDS,
        "stall": 0,
        "known": ((), ()),
        "this_turn": (),
        "last_turn": (),
    },
)
_after_play: Final = updater(
    "phase",
    "hands",
    "boards",
    "tech_hands",
    "played",
    "known",
    "this_turn",
    cleared=("discarded", "chance", "end_reason"),
)
_after_plain_play: Final = updater(  # the tech hands and what the opponent knows unchanged
    "phase",
    "hands",
    "boards",
    "played",
    "this_turn",
    cleared=("discarded", "chance", "end_reason"),
)
_next_phase: Final = updater(
    "phase",
    "chance",
    "this_turn",
    cleared=("end_reason",),
)
_next_turn: Final = updater(
    "current_player",
    "hands",
    "deck",
    "discards",
    "stall",
    "rng",
    "known",
    "last_turn",
    cleared=("played", "discarded", "chance", "end_reason"),
    fixed={"phase": _ACTION, "this_turn": ()},
)
_next_turn_drawn: Final = updater(  # the discards and what the opponent knows unchanged
    "current_player",
    "hands",
    "deck",
    "stall",
    "rng",
    "last_turn",
    cleared=("played", "discarded", "chance", "end_reason"),
    fixed={"phase": _ACTION, "this_turn": ()},
)
_next_turn_ending: Final = updater(  # the end is triggered now, or the game is over (R24, R25)
    "phase",
    "current_player",
    "hands",
    "deck",
    "discards",
    "stall",
    "end_trigger",
    "end_reason",
    "rng",
    "known",
    "last_turn",
    cleared=("played", "discarded", "chance"),
    fixed={"this_turn": ()},
)
_next_turn_idle: Final = updater(  # _next_turn_ending when no card moved (EndTurn, R22)
    "phase",
    "current_player",
    "stall",
    "end_trigger",
    "end_reason",
    "last_turn",
    cleared=("played", "discarded", "chance"),
    fixed={"this_turn": ()},
)
_after_tech_draw: Final = updater(
    "phase",
    "tech_deck",
    "tech_hands",
    "rng",
    "this_turn",
    cleared=("discarded", "chance", "end_reason"),
)
_after_placement: Final = updater(
    "phase",
    "tech_hands",
    "accumulator",
    "smart",
    "this_turn",
    cleared=("chance", "end_reason"),
)
_after_discard: Final = updater(
    "hands",
    "discards",
    "discarded",
    "known",
    "this_turn",
    cleared=("played", "chance", "end_reason"),
    fixed={"phase": _DRAW},  # R15
)
_after_flip: Final = updater(
    "phase",
    "boards",
    "this_turn",
    cleared=("discarded", "chance", "end_reason"),
)
_after_deal: Final = updater(
    "phase",
    "current_player",
    "hands",
    "deck",
    "chance",
    "this_turn",
    "last_turn",
    cleared=("played", "discarded", "end_reason"),
)


def new_game(seed: int | None = None, rules: Rules = STANDARD) -> GameState:
    """The state before the deal (R5-R8).

    Args:
        seed: None for explicit chance mode: the game starts in CHANCE and the caller applies
            `Deal` outcomes. An int for seeded mode: every chance event is resolved at once by the
            portable SplitMix64 sampler (any int, taken mod 2**64).
        rules: The rule set; the printed game by default.

    Examples:
        >>> state = new_game(seed=42)
        >>> state.phase, state.current_player, state.deck_size
        (Phase.ACTION, 0, 30)
        >>> state.hand_size(0), state.hand_size(1)
        (5, 5)
        >>> new_game().phase
        Phase.CHANCE
    """
    if type(rules) is not Rules:
        raise InvalidInputError("rules", f"expected Rules, got {type(rules).__name__}")
    if seed is not None and type(seed) is not int:
        raise InvalidInputError("seed", f"must be an int or None, got {seed!r}")
    t = rules._tables
    empty_board = ((),) * len(t.cells)
    if seed is None:
        return _start(
            rules=rules,
            phase=_CHANCE,
            hands=((), ()),
            deck=t.full_deck,
            boards=(empty_board, empty_board),
            tech_deck=t.techs,
            chance=_SETUP,
            rng=None,
        )
    rng = seed & _MASK
    deck = t.full_deck
    hands: list[tuple[int, ...]] = [(), ()]
    for player in (0, 1):  # R7, R8: one next() per Deal, player 0's hand first
        for _ in range(rules.hand_size):
            rng, value = splitmix64(rng)
            r = value % len(deck)
            hands[player] = insert(hands[player], deck[r])
            deck = deck[:r] + deck[r + 1 :]
    return _start(
        rules=rules,
        phase=_ACTION,
        hands=(hands[0], hands[1]),
        deck=deck,
        boards=(empty_board, empty_board),
        tech_deck=t.techs,
        chance=None,
        rng=rng,
    )


def apply(state: GameState, move: Move) -> GameState:
    """The state after `move` (R9-R26). The input state is never changed.

    In seeded mode a chance event that the move causes (the card drawn, the tech card drawn) is
    resolved at once, so the result is never in CHANCE.

    Raises:
        IllegalMoveError: The move is well formed but not allowed now; the message names the rule.
        InvalidMoveError: `move` is not a move.

    Examples:
        >>> from hatsuden_rules import Discard, Phase, legal_moves
        >>> state = new_game(seed=7)
        >>> card = state.hand(0)[0]
        >>> after = apply(state, Discard(card))
        >>> after.phase, after.discards == (card,), state.discards
        (Phase.DRAW, True, ())
    """
    if type(state) is not GameState:
        raise InvalidInputError("state", f"expected a GameState, got {type(state).__name__}")
    handler = _HANDLERS.get(type(move))
    if handler is None:
        raise InvalidMoveError("move", f"expected a move, got {type(move).__name__} {move!r}")
    if state.phase is _OVER:
        illegal(state, move, "R26", "the game is over: no move is legal")
    if state.rules.tech_timing is _PLACE_AT_ONCE and state.phase in _FREE_PHASES:
        check_nothing_due(state, move)
    return handler(state, move)


# -- building the next state ---------------------------------------------------------------------


def _settle(
    state: GameState,
    board: tuple[tuple[int, ...], ...],
    played: int,
    accumulator: tuple[int, int] | None,
) -> Phase:
    """OVERFLOW while the played row of `board` exceeds its tolerance, else DRAW (R19, R21)."""
    t = state.rules._tables
    row = played // len(t.energies)
    supply = row_supply(board, row, t)
    return (
        _OVERFLOW if supply > city_tolerance(t, accumulator, state.current_player, row) else _DRAW
    )


def _placed(
    state: GameState,
    hand: tuple[int, ...],
    cell: int,
    raw: tuple[int, ...],
    tech_hands: tuple[frozenset[Tech], frozenset[Tech]],
    next_phase: Phase | None,
    move: Move,
    hidden: bool = False,
) -> GameState:
    """The state after an ACTION put a card on `cell` (R9).

    `next_phase` is TECH when the tech draw is triggered (R17), DRAW when the move cannot raise
    the row (a pylon or a Downsize, R21), and None to run the overflow check.
    """
    player = state.current_player
    boards = state._boards
    board = boards[player]
    board = board[:cell] + (raw,) + board[cell + 1 :]  # put and pair, inlined: the hot path
    if next_phase is _TECH and not state._tech_deck:  # R17: no tech card left to draw
        next_phase = None
    if next_phase is None:
        next_phase = _settle(state, board, cell, state._accumulator)  # R21
    known = state._known
    if known[player]:  # R36: what the opponent still knows of this hand
        mine = blur(known[player]) if hidden else forget(known[player], raw[-1])
        known = (mine, known[1]) if player == 0 else (known[0], mine)
    elif tech_hands is state._tech_hands:  # the common case: fewer arguments
        return _after_plain_play(
            state,
            phase=next_phase,
            hands=(hand, state._hands[1]) if player == 0 else (state._hands[0], hand),
            boards=(board, boards[1]) if player == 0 else (boards[0], board),
            played=cell,
            this_turn=state._this_turn + (move,),
        )
    return _after_play(
        state,
        phase=next_phase,
        hands=(hand, state._hands[1]) if player == 0 else (state._hands[0], hand),
        boards=(board, boards[1]) if player == 0 else (boards[0], board),
        tech_hands=tech_hands,
        played=cell,
        known=known,
        this_turn=state._this_turn + (move,),
    )


def _with_phase(
    state: GameState, move: Move, phase: Phase, chance: Chance | None = None
) -> GameState:
    return _next_phase(
        state,
        phase=phase,
        chance=chance,
        this_turn=state._this_turn + (move,),
    )


def _end_turn(
    state: GameState,
    hand: tuple[int, ...],
    deck: tuple[int, ...],
    discards: tuple[int, ...],
    rng: int | None,
    turn: tuple[Move, ...],
    known: tuple[tuple[int, ...], tuple[int, ...]],
) -> GameState:
    """End the turn (R23): stall counter, end trigger or game over, change of player.

    `turn` is the whole turn's log, its last move included (R36).
    """
    player = state.current_player
    stall = 0 if state._played is not None else state._stall + 1  # R23, R25
    trigger = state._end_trigger
    reason = None
    if trigger is not None:  # R24: the last turn has been played
        reason = _FINAL_TURN
    elif all(state._boards[player]):  # R24: a full grid triggers the end
        trigger = player
    limit = state.rules.stall_limit
    if reason is None and limit is not None and stall >= limit:  # R25
        reason = _STALL
    hands = state._hands
    if hand is not hands[player]:  # else the same object: a checker sees it unchanged by `is`
        hands = (hand, hands[1]) if player == 0 else (hands[0], hand)
    if reason is None and trigger is state._end_trigger:  # the common case: fewer arguments
        # A card from the deck (or none, EndTurn): the discards and the known cards change
        # together, only when DrawFromDiscard takes a card, which becomes known (R22, R36).
        if discards is state._discards:
            return _next_turn_drawn(
                state,
                current_player=1 - player,
                hands=hands,
                deck=deck,
                stall=stall,
                rng=rng,
                last_turn=turn,
            )
        return _next_turn(
            state,
            current_player=1 - player,
            hands=hands,
            deck=deck,
            discards=discards,
            stall=stall,
            rng=rng,
            known=known,
            last_turn=turn,
        )
    # EndTurn (R22): no card moved, the commonest end of a game in a model check. Every other
    # turn ends with its draw, which puts a card into the hand (R22, R23): the hand is then a new
    # object, and when it is not, nothing else moved either.
    if hands is state._hands:
        return _next_turn_idle(
            state,
            phase=_ACTION if reason is None else _OVER,
            current_player=1 - player,
            stall=stall,
            end_trigger=trigger,
            end_reason=reason,
            last_turn=turn,
        )
    return _next_turn_ending(
        state,
        phase=_ACTION if reason is None else _OVER,
        current_player=1 - player,
        hands=hands,
        deck=deck,
        discards=discards,
        stall=stall,
        end_trigger=trigger,
        end_reason=reason,
        rng=rng,
        known=known,
        last_turn=turn,
    )


def _receive_tech(
    state: GameState, tech: Tech, rng: int | None, turn: tuple[Move, ...]
) -> GameState:
    """The tech card reaches the tech hand; then the overflow check (R17, R21)."""
    player = state.current_player
    played = state._played
    assert played is not None  # TECH always follows a card played this turn
    return _after_tech_draw(
        state,
        phase=_settle(state, state._boards[player], played, state._accumulator),
        tech_deck=tuple(x for x in state._tech_deck if x is not tech),
        tech_hands=pair(state._tech_hands, player, state._tech_hands[player] | {tech}),
        rng=rng,
        this_turn=turn,
    )


def _place_tech(
    state: GameState,
    move: Move,
    tech: Tech,
    accumulator: tuple[int, int] | None,
    smart: Energy | None,
) -> GameState:
    """A free placement (R18): the tech card leaves the tech hand for the table."""
    phase = state.phase
    if phase not in _FREE_PHASES:
        illegal(
            state,
            move,
            "R18",
            f"tech cards are placed in ACTION, OVERFLOW or DRAW, not {phase.name}",
        )
    player = state.current_player
    held = state._tech_hands[player]
    if tech not in held:
        illegal(state, move, "R18", f"{tech.name} is not in the tech hand")
    if phase is _OVERFLOW:  # R19, R21: the Accumulator may absorb the overflow
        assert state._played is not None
        phase = _settle(state, state._boards[player], state._played, accumulator)
    return _after_placement(
        state,
        phase=phase,
        tech_hands=pair(state._tech_hands, player, held - {tech}),
        accumulator=accumulator,
        smart=smart,
        this_turn=state._this_turn + (move,),
    )


# -- ACTION (R10-R16) -----------------------------------------------------------------------------


def _construct(state: GameState, move: Construct) -> GameState:
    if state.phase is not _ACTION:
        wrong_phase(state, move, _ACTION)
    i, c = card_and_cell(state, move)
    t = state.rules._tables
    hand = take_from_hand(state, move, i, "R10")
    if t.card_col[i] != c % len(t.energies):
        illegal(
            state,
            move,
            "R10",
            f"a {move.card.energy.name} card is built only in the {move.card.energy.name} column, "
            f"not in {move.cell.energy.name}",
        )
    player = state.current_player
    if state._boards[player][c]:
        illegal(state, move, "R10", f"{move.cell} is occupied: Construct needs an empty cell")
    tech_hands = state._tech_hands
    if move.secret:
        held = tech_hands[player]
        if _SECRET_BUILD not in held:
            illegal(state, move, "R11", "a secret Construct needs Secret Build in the tech hand")
        tech_hands = pair(tech_hands, player, held - {_SECRET_BUILD})
        return _placed(state, hand, c, (SECRET, i), tech_hands, _TECH, move, hidden=True)  # R17 (b)
    top = t.card_value[i] == state.rules.max_value
    return _placed(state, hand, c, (0, i), tech_hands, _TECH if top else None, move)


def _improve(state: GameState, move: Improve) -> GameState:
    if state.phase is not _ACTION:
        wrong_phase(state, move, _ACTION)
    i, c = card_and_cell(state, move)
    hand = take_from_hand(state, move, i, "R12")
    raw = plant_at(state, move, c, "R12", "Improve")
    same_energy(state, move, i, c, "R12")
    value = state.rules._tables.card_value
    if value[i] <= value[raw[-1]]:
        illegal(
            state,
            move,
            "R12",
            f"Improve needs a strictly higher value than the top card "
            f"({value[i]} on {value[raw[-1]]})",
        )
    top = value[i] == state.rules.max_value
    next_phase = _TECH if top else None  # R17 (a)
    return _placed(state, hand, c, raw + (i,), state._tech_hands, next_phase, move)


def _downsize(state: GameState, move: Downsize) -> GameState:
    if state.phase is not _ACTION:
        wrong_phase(state, move, _ACTION)
    i, c = card_and_cell(state, move)
    player = state.current_player
    held = state._tech_hands[player]
    if _DOWN not in held:
        illegal(state, move, "R13", "Downsize needs Down in the tech hand")
    hand = take_from_hand(state, move, i, "R13")
    raw = plant_at(state, move, c, "R13", "Downsize")
    same_energy(state, move, i, c, "R13")
    value = state.rules._tables.card_value
    if value[i] >= value[raw[-1]]:
        illegal(
            state,
            move,
            "R13",
            f"Downsize needs a strictly lower value than the top card "
            f"({value[i]} on {value[raw[-1]]})",
        )
    tech_hands = pair(state._tech_hands, player, held - {_DOWN})
    # R21: a lower top never raises the row, so no overflow check.
    raw = (raw[0] | DOWNSIZED, *raw[1:], i)
    return _placed(state, hand, c, raw, tech_hands, _DRAW, move)


def _build_pylon(state: GameState, move: BuildPylon) -> GameState:
    if state.phase is not _ACTION:
        wrong_phase(state, move, _ACTION)
    i, c = card_and_cell(state, move)
    hand = take_from_hand(state, move, i, "R14")
    if state._boards[state.current_player][c]:
        illegal(state, move, "R14", f"{move.cell} is occupied: a pylon needs an empty cell")
    # R21: a pylon is worth 0 and never raises the row.
    return _placed(state, hand, c, (FACE_DOWN, i), state._tech_hands, _DRAW, move, hidden=True)


def _discard(state: GameState, move: Discard) -> GameState:
    if state.phase is not _ACTION:
        wrong_phase(state, move, _ACTION)
    i = card_index(state, move, move.card)
    hand = take_from_hand(state, move, i, "R15")
    player = state.current_player
    return _after_discard(
        state,
        hands=pair(state._hands, player, hand),
        discards=insert(state._discards, i),
        discarded=i,
        known=pair(state._known, player, forget(state._known[player], i)),  # R36
        this_turn=state._this_turn + (move,),
    )


def _pass(state: GameState, move: Pass) -> GameState:
    if state.phase is not _ACTION:
        wrong_phase(state, move, _ACTION)
    if state._hands[state.current_player]:
        illegal(state, move, "R16", "Pass is legal only with an empty hand")
    return _with_phase(state, move, _DRAW)


# -- TECH (R17) -----------------------------------------------------------------------------------


def _draw_tech(state: GameState, move: DrawTech) -> GameState:
    if state.phase is not _TECH:
        wrong_phase(state, move, _TECH)
    played = state._played
    assert played is not None  # TECH always follows a card played this turn
    raw = state._boards[state.current_player][played]
    if state.rules._tables.card_value[raw[-1]] != state.rules.max_value:
        illegal(
            state,
            move,
            "R17",
            f"a tech card is drawn only for a {state.rules.max_value}; "
            "after this secret Construct the only choice is DeclineTech",
        )
    rng = state._rng
    if rng is None:
        return _with_phase(state, move, _CHANCE, _TECH_CHANCE)
    rng, value = splitmix64(rng)  # R8, R33: one next() per chance event
    deck = state._tech_deck
    tech = deck[value % len(deck)]
    turn = state._this_turn + (move, state.rules._tables.deal_tech[tech])
    return _receive_tech(state, tech, rng, turn)


def _decline_tech(state: GameState, move: DeclineTech) -> GameState:
    if state.phase is not _TECH:
        wrong_phase(state, move, _TECH)
    played = state._played
    assert played is not None  # TECH always follows a card played this turn
    phase = _settle(state, state._boards[state.current_player], played, state._accumulator)
    return _with_phase(state, move, phase)


def _deal_tech(state: GameState, move: DealTech) -> GameState:
    if state._chance is not _TECH_CHANCE:
        illegal(state, move, "R6", "no tech card is being drawn now")
    if move.tech not in state._tech_deck:
        illegal(state, move, "R17", f"{move.tech.name} is not in the tech deck")
    return _receive_tech(state, move.tech, None, state._this_turn + (move,))


# -- OVERFLOW (R21) and free placements (R18) -----------------------------------------------------


def _flip(state: GameState, move: Flip) -> GameState:
    if state.phase is not _OVERFLOW:
        wrong_phase(state, move, _OVERFLOW)
    if state.rules.overflow is _ANY_SET:
        illegal(
            state,
            move,
            "R41",
            "with overflow=ANY_SET the plants to flip are chosen at once: play a FlipSet",
        )
    c = cell_index(state, move, move.cell)
    played = state._played
    assert played is not None  # OVERFLOW always follows a card played this turn
    width = len(state.rules._tables.energies)
    if c // width != played // width:
        illegal(state, move, "R21", f"only a plant in the overflowing row {played // width} flips")
    if c == played:
        illegal(state, move, "R21", "the plant just played can never be the one flipped")
    player = state.current_player
    raw = plant_at(state, move, c, "R21", "Flip")
    board = put(state._boards[player], c, (raw[0] | FACE_DOWN | FLIPPED, *raw[1:]))
    # R21: flip until within tolerance
    return _flipped(state, move, board, _settle(state, board, played, state._accumulator))


def _flipped(
    state: GameState, move: Flip | FlipSet, board: tuple[tuple[int, ...], ...], phase: Phase
) -> GameState:
    """The state after the mover's `board` got its flipped plants (Flip, FlipSet)."""
    player = state.current_player
    return _after_flip(
        state,
        phase=phase,
        boards=pair(state._boards, player, board),
        this_turn=state._this_turn + (move,),
    )


def _flip_set(state: GameState, move: FlipSet) -> GameState:
    """R41: turn every plant of the set into a pylon at once; the row is then within tolerance."""
    if state.phase is not _OVERFLOW:
        wrong_phase(state, move, _OVERFLOW)
    if state.rules.overflow is not _ANY_SET:
        illegal(
            state,
            move,
            "R41",
            "a FlipSet is the overflow move of overflow=ANY_SET; flip one plant at a time (Flip)",
        )
    played = state._played
    assert played is not None  # OVERFLOW always follows a card played this turn
    width = len(state.rules._tables.energies)
    player = state.current_player
    board = state._boards[player]
    for cell in move.cells:
        c = cell_index(state, move, cell)
        if c // width != played // width:
            illegal(
                state, move, "R41", f"only plants of the overflowing row {played // width} flip"
            )
        if c == played:
            illegal(state, move, "R41", "the plant just played can never be one of those flipped")
        raw = plant_at(state, move, c, "R41", "FlipSet")
        board = put(board, c, (raw[0] | FACE_DOWN | FLIPPED, *raw[1:]))
    if _settle(state, board, played, state._accumulator) is _OVERFLOW:
        row = played // width
        left = row_supply(board, row, state.rules._tables)
        illegal(
            state,
            move,
            "R41",
            f"flipping these plants leaves row {row} at {left}, over its tolerance "
            f"{state.tolerance(player, row)}",
        )
    return _flipped(state, move, board, _DRAW)


def _place_accumulator(state: GameState, move: PlaceAccumulator) -> GameState:
    accumulator = (state.current_player, move.row)
    return _place_tech(state, move, _ACCUMULATOR, accumulator, state._smart)


def _place_smart(state: GameState, move: PlaceSmart) -> GameState:
    if move.energy not in state.rules._tables.energy_index:
        illegal(state, move, "R1", f"{move.energy.name} is not in play under these rules")
    return _place_tech(state, move, _SMART, state._accumulator, move.energy)


# -- DRAW (R22) and chance (R6-R8) ----------------------------------------------------------------


def _draw_from_deck(state: GameState, move: DrawFromDeck) -> GameState:
    if state.phase is not _DRAW:
        wrong_phase(state, move, _DRAW)
    deck = state._deck
    if not deck:
        illegal(state, move, "R22", "the deck is empty (there is no reshuffle)")
    rng = state._rng
    if rng is None:
        return _with_phase(state, move, _CHANCE, _DRAW_CHANCE)
    rng, value = splitmix64(rng)  # R8, R33: the sorted deck lists outcomes by cumulative weight
    r = value % len(deck)
    card = deck[r]
    hand = state._hands[state.current_player]
    k = bisect_right(hand, card)  # insert, inlined: the commonest end of a turn
    hand = hand[:k] + (card,) + hand[k:]
    turn = state._this_turn + (move, state.rules._tables.deal[card])
    rest = deck[:r] + deck[r + 1 :]
    return _end_turn(state, hand, rest, state._discards, rng, turn, state._known)


def _draw_from_discard(state: GameState, move: DrawFromDiscard) -> GameState:
    if state.phase is not _DRAW:
        wrong_phase(state, move, _DRAW)
    i = card_index(state, move, move.card)
    discards = state._discards
    if i not in discards:
        illegal(state, move, "R22", f"{move.card} is not in the discards")
    if not state.rules.allow_retake_discard and state._discarded == i and discards.count(i) == 1:
        illegal(
            state,
            move,
            "R22",
            "the card discarded this turn cannot be taken back (allow_retake_discard=False)",
        )
    player = state.current_player
    hand = insert(state._hands[player], i)
    known = pair(state._known, player, insert(state._known[player], i))  # R36: seen taken
    turn = state._this_turn + (move,)
    return _end_turn(state, hand, state._deck, remove(discards, i), state._rng, turn, known)


def _end_turn_move(state: GameState, move: EndTurn) -> GameState:
    if state.phase is not _DRAW:
        wrong_phase(state, move, _DRAW)
    if state._deck or takeable_discards(state):
        illegal(state, move, "R22", "EndTurn only when no card can be drawn; draw one")
    hand = state._hands[state.current_player]
    turn = state._this_turn + (move,)
    return _end_turn(state, hand, state._deck, state._discards, state._rng, turn, state._known)


def _deal(state: GameState, move: Deal) -> GameState:
    chance = state._chance
    if chance is None or chance is _TECH_CHANCE:
        illegal(state, move, "R6", "no plant card is being dealt now")
    i = card_index(state, move, move.card)
    if i not in state._deck:
        illegal(state, move, "R6", f"no {move.card} is left in the deck")
    deck = remove(state._deck, i)
    player = state.current_player
    hand = insert(state._hands[player], i)
    if chance is _DRAW_CHANCE:
        turn = state._this_turn + (move,)
        return _end_turn(state, hand, deck, state._discards, None, turn, state._known)
    size = state.rules.hand_size
    if len(hand) < size:  # R7: the receiver's hand is not complete yet
        phase, receiver, pending = _CHANCE, player, _SETUP
    elif player == 0:
        phase, receiver, pending = _CHANCE, 1, _SETUP
    else:
        phase, receiver, pending = _ACTION, 0, None
    return _after_deal(
        state,
        phase=phase,
        current_player=receiver,
        hands=pair(state._hands, player, hand),
        deck=deck,
        chance=pending,
        this_turn=(),  # R7: the deal before the first turn is not part of any turn
        last_turn=(),
    )


_HANDLERS: dict[type, Callable[[GameState, Any], GameState]] = {
    Construct: _construct,
    Improve: _improve,
    Downsize: _downsize,
    BuildPylon: _build_pylon,
    Discard: _discard,
    Pass: _pass,
    DrawTech: _draw_tech,
    DeclineTech: _decline_tech,
    DealTech: _deal_tech,
    Flip: _flip,
    FlipSet: _flip_set,
    PlaceAccumulator: _place_accumulator,
    PlaceSmart: _place_smart,
    DrawFromDeck: _draw_from_deck,
    DrawFromDiscard: _draw_from_discard,
    EndTurn: _end_turn_move,
    Deal: _deal,
}
