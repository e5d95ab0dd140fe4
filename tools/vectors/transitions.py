"""The ``transitions`` group: a state and a move, and the next state or the illegal-move error.

The core rule sets' steps, then the variants' (R40, R41): their own plies, the moves they forbid,
and every FlipSet of an overflowing row, legal or not.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterator, Sequence

from hatsuden_rules._core.apply import apply
from hatsuden_rules._core.cards import Cell, Tech
from hatsuden_rules._core.errors import IllegalMoveError
from hatsuden_rules._core.legal import legal_moves
from hatsuden_rules._core.moves import (
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
from hatsuden_rules._core.state import GameState, Phase
from hatsuden_rules.conformance._vectors import Vector, make_vector
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

__all__ = ["transition_vector", "transition_vectors", "variant_transition_vectors"]


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
