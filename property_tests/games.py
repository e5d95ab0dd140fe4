"""Playing random complete games under Hypothesis, checking every state and every move."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

import attrs
from hypothesis import strategies as st

from hatsuden_rules import GameState, Move, Phase, Rules, chance_outcomes, new_game

from .oracle import (
    CARD_INTO_CELL,
    KIND_ORDER,
    Referee,
    check_apply,
    check_malformed,
    check_rejected,
    check_state,
    move_universe,
    out_of_play_moves,
    public_view,
)
from .strategies import choose_move


def ply_bound(rules: Rules) -> int:
    """A generous upper bound on the plies of any game when the stall rule is on (R25, B3).

    Every turn that resets the stall counter puts a card on a board for good, so there are at
    most N of them (N = cards in the game), separated by fewer than `stall_limit` other turns.
    A turn has at most: one action, DrawTech + DealTech, `energies - 1` flips, a draw and its Deal;
    the two placeable tech cards add two plies per game; the setup deals 2 x `hand_size`.
    """
    assert rules.stall_limit is not None
    cards = rules.energies * rules.max_value * rules.copies
    turns = cards + (cards + 1) * rules.stall_limit
    return 2 * rules.hand_size + turns * (rules.energies + 5) + 2


@attrs.frozen
class GameLog:
    """The states and moves of one game, in order (``states[i+1] = apply(states[i], moves[i])``)."""

    states: tuple[GameState, ...]
    moves: tuple[Move, ...]


#: How a game's player moves are drawn. "any": a kind, then a move of that kind. "builder":
#: put a card into a cell whenever possible until the end is triggered, then never (this
#: reaches full grids, the final turn, and a final turn that also hits the stall limit, R23).
POLICIES = ("any", "builder")


def draw_move(
    data: st.DataObject, state: GameState, moves: Sequence[Move], policy: str = "any"
) -> Move:
    """R6: a chance outcome drawn from `chance_outcomes`; otherwise a player's move."""
    if state.phase is Phase.CHANCE:
        outcomes = [move for move, _ in chance_outcomes(state)]
        return data.draw(st.sampled_from(outcomes), label="chance outcome")
    if policy == "builder":
        building = state.end_triggered_by is None
        preferred = [m for m in moves if isinstance(m, CARD_INTO_CELL) == building]
        return choose_move(data, preferred or moves)
    return choose_move(data, moves)


@lru_cache(maxsize=256)
def universe_by_kind(rules: Rules) -> tuple[tuple[Move, ...], ...]:
    """`move_universe(rules)` split by kind (R34 order); an empty tuple for a kind not in play."""
    return tuple(
        tuple(move for move in move_universe(rules) if type(move) is kind) for kind in KIND_ORDER
    )


def sample_illegal(
    rng: random.Random, rules: Rules, legal: Sequence[Move], count: int
) -> list[Move]:
    """Up to `count` well-formed moves that are not legal now, each of a different kind.

    Candidates are all the moves constructible under `rules` (every kind, card, cell, row,
    energy and tech), so wrong-phase, wrong-card, wrong-cell and not-your-tech moves all occur.
    """
    legal_set = set(legal)
    pools = universe_by_kind(rules)
    kinds = list(range(len(pools)))
    rng.shuffle(kinds)
    chosen: list[Move] = []
    for kind in kinds:
        pool = pools[kind]
        for _ in range(4 if pool else 0):
            move = rng.choice(pool)
            if move not in legal_set:
                chosen.append(move)
                break
        if len(chosen) == count:
            break
    return chosen


def play_checked_game(
    data: st.DataObject, rules: Rules, seed: int | None, *, illegal_per_state: int = 3
) -> GameLog:
    """Play one complete game, drawing every move, and check everything on the way.

    On every state: all invariants (`check_state`), every legal move applies, a sample of
    illegal and malformed moves is rejected with the state unchanged (R35). On every chosen
    move: `apply` is deterministic and pure, and the transition follows the rules (`Referee`).
    The game must end within `ply_bound` plies (R25).
    """
    state, twin = new_game(seed, rules), new_game(seed, rules)
    assert state == twin, "R8, R35 new_game is deterministic"
    assert hash(state) == hash(twin)
    referee = Referee(state)
    rng = data.draw(st.randoms(use_true_random=True), label="illegal-move sampler")
    policy = data.draw(st.sampled_from(POLICIES), label="policy")
    malformed = out_of_play_moves(rules)
    bound = ply_bound(rules)
    states: list[GameState] = [state]
    moves: list[Move] = []
    while True:
        legal = check_state(state)
        view = public_view(state)
        for move in sample_illegal(rng, rules, legal, illegal_per_state):
            check_rejected(state, move, twin)
        if malformed:
            check_malformed(state, rng.choice(malformed), twin)
        assert public_view(state) == view, "R35 rejected moves change nothing"
        if state.is_over:
            return GameLog(tuple(states), tuple(moves))
        assert len(moves) < bound, ("R25 every game ends", bound)
        move = draw_move(data, state, legal, policy)
        after, twin = check_apply(state, move, twin)
        referee.step(state, move, after)
        state = after
        states.append(state)
        moves.append(move)
