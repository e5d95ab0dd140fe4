"""Random complete games, in explicit chance mode and in seeded mode (issue 2 section 5).

Each example plays a whole game under a drawn `Rules` (small ones, STANDARD and its variants) and
checks, on every visited state and move, the invariants of RULES.md: see `games.py` and
`oracle.py` for the list (R2-R4 conservation, R6 chance, R9 supply within tolerance, R17-R26
transitions, R22 hand size, R26 over iff no move, R27-R29 score, R34 order, R35 purity and
rejection of illegal moves).
"""

from __future__ import annotations

from collections import Counter

from hypothesis import event, given, settings
from hypothesis import strategies as st

from hatsuden_rules import (
    DrawTech,
    EndReason,
    GameState,
    Move,
    Phase,
    Rules,
    apply,
    legal_moves,
    new_game,
)

from .games import GameLog, draw_move, play_checked_game, ply_bound
from .oracle import MASK, PLAYERS, public_view, resolve_with_sampler, splitmix64
from .strategies import budget, valid_rules

seeds = st.integers() | st.integers(-(2**70), 2**70)


def _events(log: GameLog) -> None:
    """Statistics (``--hypothesis-show-statistics``): how games end, what they reach."""
    final = log.states[-1]
    event("end", f"{final.end_reason} triggered_by={final.end_triggered_by}")
    event("overflow", str(any(s.phase is Phase.OVERFLOW for s in log.states)))
    event("tech drawn", str(any(isinstance(m, DrawTech) for m in log.moves)))


@settings(max_examples=budget(0.4))
@given(data=st.data(), rules=valid_rules())
def test_r6_r35_explicit_chance_games_keep_every_invariant(
    data: st.DataObject, rules: Rules
) -> None:
    """Explicit chance mode (R6): outcomes drawn from `chance_outcomes`; every rule checked."""
    log = play_checked_game(data, rules, None)
    _events(log)
    final = log.states[-1]
    assert final.is_over
    assert final.end_reason in (EndReason.FINAL_TURN, EndReason.STALL)
    assert any(s.phase is Phase.CHANCE for s in log.states), "R7 the deal is chance"


@settings(max_examples=budget(0.4))
@given(data=st.data(), rules=valid_rules(), seed=seeds)
def test_r8_seeded_games_keep_every_invariant(data: st.DataObject, rules: Rules, seed: int) -> None:
    """Seeded mode (R8): chance resolved inside `apply`; every rule checked, never CHANCE."""
    log = play_checked_game(data, rules, seed)
    _events(log)
    assert log.states[-1].is_over
    assert all(s.is_seeded and s.phase is not Phase.CHANCE for s in log.states), "R8"


def _play_choices(data: st.DataObject, state: GameState, limit: int) -> list[Move]:
    """Draw the moves of one game from `state` (at most `limit` plies), without checks."""
    moves: list[Move] = []
    while not state.is_over and len(moves) < limit:
        move = draw_move(data, state, legal_moves(state))
        moves.append(move)
        state = apply(state, move)
    return moves


def _replay(state: GameState, moves: list[Move]) -> list[GameState]:
    states = [state]
    for move in moves:
        states.append(apply(states[-1], move))
    return states


@settings(max_examples=budget(0.5))
@given(data=st.data(), rules=valid_rules(), seed=seeds, wraps=st.integers(-3, 3))
def test_r8_r32_seeded_games_are_reproducible(
    data: st.DataObject, rules: Rules, seed: int, wraps: int
) -> None:
    """R8: the same seed (taken mod 2**64, R32) and the same moves give the same states."""
    assert rules.stall_limit is not None
    moves = _play_choices(data, new_game(seed, rules), ply_bound(rules))
    first = _replay(new_game(seed, rules), moves)
    again = _replay(new_game(seed + wraps * 2**64, rules), moves)
    assert first == again
    assert [hash(s) for s in first] == [hash(s) for s in again]
    assert first[-1].is_over


@settings(max_examples=budget(0.5))
@given(data=st.data(), rules=valid_rules(), seed=seeds)
def test_r8_r33_seeded_game_is_the_explicit_game_fed_the_sampler(
    data: st.DataObject, rules: Rules, seed: int
) -> None:
    """R8, R32, R33: a seeded game equals, move for move, the explicit game whose chance events
    are resolved by the portable sampler (re-implemented here from R32 and R33), one ``next()``
    per chance event, in the order they happen."""
    explicit, rng = resolve_with_sampler(new_game(None, rules), seed & MASK)
    seeded = new_game(seed, rules)
    dealt = Counter(seeded.hand(0)) + Counter(seeded.hand(1))
    assert sum(dealt.values()) == 2 * rules.hand_size, "R7"
    while True:
        assert public_view(seeded) == public_view(explicit), "R8 seeded == explicit + sampler"
        assert seeded.rng_state == rng, "R8 exactly one next() per chance event"
        if seeded.is_over:
            break
        move = draw_move(data, seeded, legal_moves(seeded))
        seeded = apply(seeded, move)
        explicit, rng = resolve_with_sampler(apply(explicit, move), rng)


def test_r33_documented_example_deal() -> None:
    """R33's worked example: ``new_game(seed=0)`` deals these hands (first draw W=40, r=15)."""
    from hatsuden_rules import STANDARD, Card, Energy

    _, value = splitmix64(0)
    assert value == 0xE220A8397B1DCDAF
    assert value % 40 == 15
    state = new_game(0, STANDARD)
    g, sol, w, b = Energy.GEOTHERMAL, Energy.SOLAR, Energy.WIND, Energy.BIOMASS
    hands = {
        0: [Card(g, 4), Card(sol, 1), Card(w, 3), Card(w, 2), Card(b, 2)],
        1: [Card(b, 2), Card(g, 2), Card(sol, 4), Card(sol, 3), Card(g, 2)],
    }
    for p in PLAYERS:
        assert Counter(state.hand(p)) == Counter(hands[p])
