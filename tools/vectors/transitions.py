"""The ``transitions`` group: a state and a move, and the next state or the illegal-move error.

The core rule sets' steps, then the variants' (R40, R41): their own plies, the moves they forbid,
and every FlipSet of an overflowing row, legal or not.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Hashable, Iterator, Sequence
from typing import Final

import attrs

from hatsuden_rules.conformance._vectors import Vector, make_vector
from hatsuden_rules.core.apply import apply
from hatsuden_rules.core.cards import Cell, Tech
from hatsuden_rules.core.errors import IllegalMoveError
from hatsuden_rules.core.legal import legal_moves
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
from hatsuden_rules.core.state import GameState, Phase
from hatsuden_rules.notation import TECH_CODES, NotationError, parse_state
from tools.vectors.common import (
    format_state,
    move_refs,
    move_text,
    pick,
    reason_shape,
    rules_flags,
    state_flags,
    state_refs,
    transition_refs_flags,
    turn_ended,
)
from tools.vectors.games import Ply
from tools.vectors.legal_moves import legal_moves_vector

__all__ = [
    "r40_order_vectors",
    "transition_vector",
    "transition_vectors",
    "variant_transition_vectors",
]


def _candidate_moves(state: GameState) -> list[Move]:
    """Well-formed moves to try in `state`: every kind, the mover's cards and one more card."""
    rules = state.rules
    hand = list(dict.fromkeys(state.hand(state.current_player)))
    others = [card for card in rules.cards if card not in hand]
    cards = hand + others[:1] + others[-1:]
    moves: list[Move] = []
    for card in cards:
        for cell in rules.cells:
            moves += [
                Construct(card, cell),
                Construct(card, cell, secret=True),
                Improve(card, cell),
                Downsize(card, cell),
                BuildPylon(card, cell),
            ]
        moves += [Discard(card), DrawFromDiscard(card), Deal(card)]
    moves += [Flip(cell) for cell in rules.cells]
    moves += [Pass(), DrawTech(), DeclineTech(), DrawFromDeck(), EndTurn()]
    moves += [PlaceAccumulator(0), PlaceAccumulator(1)]
    moves += [PlaceSmart(energy) for energy in rules.energies_in_play]
    moves += [DealTech(tech) for tech in Tech if tech in rules.techs]
    return moves


def transition_vector(before: GameState, move: Move) -> Vector:
    """The vector of one step: the next state, or the error and its rule."""
    text = format_state(before)
    try:
        after = apply(before, move)
    except IllegalMoveError as error:
        refs = state_refs(before) | move_refs(before, move) | {error.rule, "R35"}
        flags = state_flags(before) | {"Illegal"}
        if error.rule == "R9":
            flags.add("WrongPhase")
        return make_vector(
            "transitions",
            rules=before.rules,
            refs=refs,
            flags=flags,
            comment=str(error),
            input={"kind": "apply", "state": text, "move": move_text(move)},
            expected={"ok": False, "error": {"type": "illegal_move", "rule": error.rule}},
        )
    refs, flags = transition_refs_flags(before, move, after)
    return make_vector(
        "transitions",
        rules=before.rules,
        refs=refs,
        flags=flags,
        comment=f"{before.phase.name} -> {after.phase.name}: {type(move).__name__}",
        input={"kind": "apply", "state": text, "move": move_text(move)},
        expected={"ok": True, "state": format_state(after)},
    )


def _legal_key(ply: Ply) -> Hashable:
    before, move, after = ply.before, ply.move, ply.after
    secret = isinstance(move, Construct) and move.secret
    return (
        frozenset(rules_flags(before.rules)),
        before.is_seeded,
        before.phase,
        type(move).__name__,
        secret,
        before.pending_chance,
        after.phase,
        turn_ended(before, after),
        after.end_reason,
        after.end_triggered_by is not None,
    )


def transition_vectors(plies: list[Ply]) -> Iterator[Vector]:
    """Steps of a varied pick of `plies`, illegal moves of every kind, moves after the end."""
    for ply in pick(plies, _legal_key, 3):
        yield transition_vector(ply.before, ply.move)
    # Illegal moves: every kind in every phase, bucketed by the rule and the kind of reason.
    states = list(dict.fromkeys(ply.before for ply in plies))[:160]
    tried: list[tuple[Hashable, GameState, Move]] = []
    for state in states:
        legal = set(legal_moves(state))
        for move in _candidate_moves(state):
            if move in legal:
                continue
            try:
                apply(state, move)
            except IllegalMoveError as error:
                key = (
                    state.phase,
                    state.is_seeded,
                    type(move).__name__,
                    error.rule,
                    reason_shape(error.reason),
                )
                tried.append((key, state, move))
            else:  # pragma: no cover - legal_moves and apply disagree
                raise AssertionError(f"{move} is not in legal_moves but apply accepts it")
    for _, state, move in pick(tried, lambda item: item[0], 2):
        yield transition_vector(state, move)
    # A move in a finished game.
    over = [ply.after for ply in plies if ply.after.is_over][:6]
    for state in over:
        yield transition_vector(state, Discard(state.rules.cards[0]))


# -- the variants (R40, R41) ---------------------------------------------------------------------


def _row_cells(state: GameState) -> list[Cell]:
    played = state.played_cell
    assert played is not None
    return [cell for cell in state.rules.cells if cell.row == played.row]


def _flip_set_vectors(states: Sequence[GameState]) -> Iterator[Vector]:
    """Every FlipSet of the overflowing row, in OVERFLOW states of either option (R21, R41)."""
    for state in states:
        cells = _row_cells(state)
        for size in range(1, len(cells) + 1):
            for combo in itertools.combinations(cells, size):
                yield transition_vector(state, FlipSet(combo))


def _illegal_vectors(states: Sequence[GameState]) -> Iterator[Vector]:
    """Moves the variants forbid, two per phase, kind and reason (R40, R41).

    Anything but an owed placement (R40), Flip under ANY_SET, FlipSet under ONE_AT_A_TIME and
    a FlipSet that does not suffice (R41).
    """
    tried: list[tuple[Hashable, GameState, Move]] = []
    for state in states[:400]:
        if state.phase is Phase.OVERFLOW:
            candidates: list[Move] = [Flip(cell) for cell in _row_cells(state)]
            candidates += [FlipSet((cell,)) for cell in _row_cells(state)]
        elif state.phase in (Phase.ACTION, Phase.DRAW):
            hand = state.hand(state.current_player)
            candidates = [DrawFromDeck(), EndTurn(), *(Discard(card) for card in hand[:1])]
        else:
            continue
        legal = set(legal_moves(state))
        for move in candidates:
            if move in legal:
                continue
            try:
                apply(state, move)
            except IllegalMoveError as error:
                if error.rule in ("R40", "R41"):
                    key = (
                        state.phase,
                        type(move).__name__,
                        error.rule,
                        reason_shape(error.reason),
                    )
                    tried.append((key, state, move))
    for _, state, move in pick(tried, lambda item: item[0], 2):
        yield transition_vector(state, move)


def variant_transition_vectors(
    plies: Sequence[Ply], states: Sequence[GameState], overflows: Sequence[GameState]
) -> list[Vector]:
    """The variants' steps (R21, R40, R41).

    Three plies per kind of step, the moves the variants forbid, and every FlipSet of the
    overflowing row of `overflows`.
    """
    vectors = [transition_vector(p.before, p.move) for p in pick(plies, _legal_key, 3)]
    vectors += _illegal_vectors(states)
    vectors += _flip_set_vectors(overflows)
    return vectors


# -- R40's place in the order of checks (R35), phase by phase (issue 23 §4.1) ------------------


def _holding(state: GameState, tech: Tech) -> GameState:
    """`state` with `tech` moved from the tech deck into the mover's tech hand (hand-written)."""
    text = format_state(state)
    deck = re.search(r" tech_deck=(\S+)", text)
    hands = re.search(r" tech_hands=(\S+)", text)
    assert deck is not None
    assert hands is not None
    code = TECH_CODES[tech]
    left = [c for c in deck[1].split(",") if c != code]
    assert len(left) < len(deck[1].split(",")), f"{code} is not in the tech deck"
    seats = [[c for c in h.split(",") if c != "-"] for h in hands[1].split("/")]
    seats[state.current_player] = sorted(
        [*seats[state.current_player], code], key=list(TECH_CODES.values()).index
    )
    text = text.replace(deck[0], f" tech_deck={','.join(left) or '-'}", 1)
    text = text.replace(hands[0], " tech_hands=" + "/".join(",".join(h) or "-" for h in seats), 1)
    return parse_state(text)


#: Per phase, the moves tried with an ACCUMULATOR held under PLACE_AT_ONCE, and why each
#: (RULES.md R35: R26, then R40 in ACTION, OVERFLOW and DRAW only, then the phase, then the
#: move's own conditions).
_R40_WHY: Final = {
    Phase.ACTION: "R40 applies in ACTION, before the phase check",
    Phase.OVERFLOW: "R40 applies in OVERFLOW, before the phase check",
    Phase.DRAW: "R40 applies in DRAW, before the phase check",
    Phase.TECH: "R40 is not checked in TECH: the phase check decides",
    Phase.CHANCE: "R40 is not checked in CHANCE: the phase check decides",
    Phase.GAME_OVER: "R26 comes before R40",
}


def _r40_moves(state: GameState) -> list[Move]:
    """A move of every other phase, a chance outcome, the owed placement and the one not held."""
    rules = state.rules
    hand = state.hand(state.current_player)
    card = hand[0] if hand else rules.cards[0]
    # A cell of the overflowing row that holds a plant (a Flip R21 allows there), if any.
    board = state.board(state.current_player)
    row = state.played_cell.row if state.played_cell is not None else 0
    plants = [
        c
        for c, stack in zip(rules.cells, board, strict=True)
        if c.row == row and stack is not None and not stack.face_down
    ]
    cell = plants[0] if plants else rules.cells[0]
    return [
        DrawFromDeck(),  # a DRAW move
        Discard(card),  # a DRAW move
        Flip(cell),  # an OVERFLOW move
        DrawTech(),  # a TECH move
        Construct(card, cell),  # an ACTION move
        Pass(),  # an ACTION move
        EndTurn(),  # a DRAW move
        Deal(card),  # a chance outcome
        DealTech(Tech.SMART),  # a chance outcome
        PlaceAccumulator(0),  # the owed placement: never refused by R40 (R18 decides)
        PlaceSmart(rules.energies_in_play[0]),  # not held: R18
    ]


def r40_order_vectors(games: Sequence[tuple[str, int | None, list[Ply]]]) -> Iterator[Vector]:
    """R40 in R35's order of checks, in every phase: ACCUMULATOR held under PLACE_AT_ONCE.

    In OVERFLOW and DRAW the card is held after a real DealTech; in ACTION, TECH, CHANCE and
    GAME_OVER only a hand-written state holds it (the card moved from the tech deck). Each state
    is asked a move of every phase and both placements, and its legal moves.
    """
    wanted = [Phase.ACTION, Phase.OVERFLOW, Phase.DRAW, Phase.TECH, Phase.CHANCE, Phase.GAME_OVER]
    natural: dict[tuple[Phase, bool], GameState] = {}
    written: dict[tuple[Phase, bool], GameState] = {}
    for name, seed, game in games:
        if name not in {"mini-place-at-once", "place-at-once"}:
            continue
        for ply in game:
            for state in (ply.before, ply.after):
                key = (state.phase, seed is None)
                if Tech.ACCUMULATOR in state.tech_hand(state.current_player):
                    if state.phase in (Phase.OVERFLOW, Phase.DRAW):
                        natural.setdefault(key, state)
                elif key not in written and Tech.ACCUMULATOR in state.tech_deck:
                    try:  # the consistency conditions refuse some (a tech card in the deal)
                        written[key] = _holding(state, Tech.ACCUMULATOR)
                    except NotationError:
                        continue
    for phase in wanted:
        for explicit in (False, True):
            # OVERFLOW and DRAW hold it after a real DealTech where the games met one.
            chosen = natural.get((phase, explicit)) or written.get((phase, explicit))
            if chosen is None or (phase is Phase.GAME_OVER and explicit):
                continue
            state = chosen
            moves = _r40_moves(state)
            if phase is Phase.GAME_OVER:
                moves = [moves[0], moves[7], moves[9]]  # a draw, a deal, the placement: R26
            for move in moves:
                vector = transition_vector(state, move)
                yield attrs.evolve(vector, comment=f"{_R40_WHY[phase]}: {vector.comment}")
            if phase is not Phase.GAME_OVER:
                yield legal_moves_vector(state)
