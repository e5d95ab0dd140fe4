"""Positions, not histories: the search by position is the full search's quotient (R36).

The turn logs and the known cards (R36) are kept for the observations; the rules (R1-R35) never
read them. These tests prove on the small configuration that the positions explored are exactly
the positions of the full states, that the soundness and knowledge checks hold on every state,
and that both checks catch an engine whose rules do read the history.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from functools import cache

import attrs
import pytest

from hatsuden_rules import (
    Discard,
    DrawFromDiscard,
    GameState,
    Move,
    Phase,
    PlaceAccumulator,
    PlaceSmart,
    Tech,
    TechTiming,
    apply,
    legal_moves,
    new_game,
)
from hatsuden_rules.modelcheck import CONFIGS, CheckResult, check
from hatsuden_rules.modelcheck import _positions as positions_module
from hatsuden_rules.modelcheck._positions import (
    knowledge_problems,
    position,
    soundness_problems,
    sub_multisets,
)

SMALL = CONFIGS["small"]


@cache
def full_run() -> tuple[CheckResult, tuple[GameState, ...]]:
    seen: list[GameState] = []
    return check(SMALL, soundness=True, on_state=seen.append), tuple(seen)


@cache
def position_run() -> tuple[CheckResult, tuple[GameState, ...]]:
    seen: list[GameState] = []
    return check(SMALL, positions=True, on_state=seen.append), tuple(seen)


def test_positions_are_exactly_the_positions_of_the_full_states() -> None:
    full, states = full_run()
    reduced, positions = position_run()
    assert (full.result, reduced.result) == ("OK", "OK")
    assert set(positions) == {position(state) for state in states}
    assert len(positions) == len(set(positions)) == reduced.states < full.states
    assert all(p.this_turn == p.last_turn == () for p in positions)
    assert all(p.known_cards(0) == p.known_cards(1) == () for p in positions)
    # Every required event and both end reasons occur by position too (R24, R25).
    assert reduced.unreached == ()
    assert reduced.terminal_by_reason.keys() == {"FINAL_TURN", "STALL"}
    assert reduced.positions
    assert not full.positions
    assert reduced.longest_game == full.longest_game  # paths are the same, state by state


def test_soundness_is_checked_on_every_full_state_and_a_sample_of_positions() -> None:
    full, _ = full_run()
    reduced, _ = position_run()
    assert full.soundness_checked == full.states
    assert 0 < reduced.soundness_checked < reduced.states


def test_knowledge_steps_of_every_position_hold() -> None:
    """R36: with any known cards of the mover, a step leads to the same position."""
    _, positions = position_run()
    steps = 0
    for state in positions[::7]:
        for move in legal_moves(state):
            assert knowledge_problems(state, move, apply(state, move)) == []
            steps += 1
    assert steps > 1000


def test_sub_multisets() -> None:
    assert sub_multisets(()) == ()
    assert sorted(sub_multisets((1, 1, 2))) == [(1,), (1, 1), (1, 1, 2), (1, 2), (2,)]


def test_a_rule_that_reads_the_turn_log_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real = legal_moves

    def forgetful(state: GameState) -> tuple[Move, ...]:
        moves = real(state)
        return moves[:1] if state.this_turn and len(moves) > 1 else moves

    state = next(s for s in random_walk() if s.this_turn and len(real(s)) > 1)
    monkeypatch.setattr(positions_module, "legal_moves", forgetful)
    problems = soundness_problems(state, forgetful(state))
    assert [rule for rule, _ in problems] == ["R36"]
    assert "legal moves depend" in problems[0][1]


def test_a_transition_that_reads_the_known_cards_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def peeking(state: GameState, move: Move) -> GameState:
        after = apply(state, move)
        if any(state._known):  # the stall counter now depends on what is known
            return attrs.evolve(after, stall=after.stall_count + 1)
        return after

    state = next(
        s
        for s in random_walk()
        if s.phase is Phase.ACTION and s.hand_size(s.current_player) and not any(s._known)
    )
    move = legal_moves(state)[0]
    monkeypatch.setattr(positions_module, "apply", peeking)
    assert {rule for rule, _ in knowledge_problems(state, move, apply(state, move))} == {"R36"}
    full = attrs.evolve(state, known=(state._hands[0], state._hands[1]))
    assert "R36" in {rule for rule, _ in soundness_problems(full, legal_moves(full))}


@pytest.mark.parametrize(
    ("kind", "broken", "message"),
    [
        (Discard, lambda known, hand: hand, "made cards known"),
        (DrawFromDiscard, lambda known, hand: (), "did not make it known"),
    ],
)
def test_a_wrong_known_cards_update_is_caught(
    monkeypatch: pytest.MonkeyPatch,
    kind: type,
    broken: Callable[[tuple[int, ...], tuple[int, ...]], tuple[int, ...]],
    message: str,
) -> None:
    """R36: a discard makes nothing known; a card taken from the discards becomes known."""

    def wrong(state: GameState, move: Move) -> GameState:
        after = apply(state, move)
        mover = state.current_player
        mine = broken(after._known[mover], after._hands[mover])
        known = (mine, after._known[1]) if mover == 0 else (after._known[0], mine)
        return attrs.evolve(after, known=known)

    state, move = next(
        (s, m)
        for s in random_walk(CONFIGS["choice"], 4000)
        for m in legal_moves(s)
        if type(m) is kind and s.hand_size(s.current_player) == 2 - (kind is DrawFromDiscard)
    )
    bare = position(state)
    monkeypatch.setattr(positions_module, "apply", wrong)
    problems = knowledge_problems(bare, move, apply(bare, move))
    assert any(message in text for _, text in problems), problems


def random_walk(rules: object = SMALL, plies: int = 600) -> list[GameState]:
    assert isinstance(rules, type(SMALL))
    out, state = [], new_game(rules=rules)
    for ply in range(plies):
        if state.is_over:
            state = new_game(rules=rules)
        out.append(state)
        moves = legal_moves(state)
        state = apply(state, moves[(ply * 5) % len(moves)])
    return out


SMALL_POSITIONS = ["--quiet", "--json", "--config", "small", "--positions"]


def test_the_command_line_searches_by_position() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "hatsuden_rules.modelcheck", *SMALL_POSITIONS],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["rules"]["type"] == "rules"
    assert (data["result"], data["positions"], data["states"]) == (
        "OK",
        True,
        position_run()[0].states,
    )
    assert data["soundness_checked"] > 0


# -- the tech-timing variant by position (R40, R36) -----------------------------------------------
#
# R40's state invariant says a held Accumulator or Smart was drawn by the very last move, which the
# turn log shows and a position does not: by position the checker keeps the position's part on
# the state (the mover holds it, in OVERFLOW or DRAW, and its placements are the legal moves) and
# checks the log's part on every step into the position (the step is the card's DealTech).

#: `small` with both placeable tech cards placed at once (tests/native/check_compare.py's
#: ``small-place-at-once``): seconds by position.
SMALL_AT_ONCE = attrs.evolve(
    SMALL,
    techs=frozenset({Tech.ACCUMULATOR, Tech.SMART}),
    tech_timing=TechTiming.PLACE_AT_ONCE,
)


def test_medium_place_at_once_by_position_is_ok_with_the_r40_events() -> None:
    """No false R40 alarm by position: every held card is found right after its DealTech."""
    result = check(CONFIGS["medium-place-at-once"], positions=True, require_coverage=True)
    assert result.result == "OK", result.violations[:3]
    assert result.positions
    assert result.unreached == ()
    for event in ("move DealTech", "move PlaceAccumulator", "move PlaceSmart", "phase OVERFLOW"):
        assert result.events[event] > 0, event
    # The figures the native checker must give too (native/hatsuden-check/tests/golden.rs).
    assert (result.states, result.transitions) == (991_061, 1_188_144)


def _placement_does_nothing(state: GameState, move: Move) -> GameState:
    """R40 broken: a placement is logged but leaves the card in the tech hand, unplaced."""
    after = apply(state, move)
    if not isinstance(move, PlaceAccumulator | PlaceSmart):
        return after
    return attrs.evolve(state, this_turn=after.this_turn)


def test_a_card_held_after_its_placement_is_caught_by_position(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A placement that keeps the card breaks R40 on the step, where the log would have shown it.

    The position after the placement is the one before it (the mover holds the card in DRAW and
    may only place it): nothing on the state is wrong, only the step into it.
    """
    for name, module in list(sys.modules.items()):
        if name.startswith("hatsuden_rules.modelcheck") and getattr(module, "apply", None) is apply:
            monkeypatch.setattr(module, "apply", _placement_does_nothing)
    # Truncated: the search stops before the cycle search (each faulty placement is a self-loop).
    result = check(SMALL_AT_ONCE, positions=True, max_states=5_000)
    assert result.result == "VIOLATION"
    r40 = [v for v in result.violations if v.rule == "R40"]
    assert r40, result.violations
    assert all(isinstance(v.path[-1], PlaceAccumulator | PlaceSmart) for v in r40), r40
    assert "not its DealTech" in r40[0].message
    # The whole search also finds the self-loop (R25) and shows it: by position the loop's
    # states are compared as positions, since the faulty placement still grows the turn log.
    whole = check(SMALL_AT_ONCE, positions=True, max_violations=100_000)
    cycles = [v for v in whole.violations if v.rule == "R25"]
    assert (whole.result, whole.longest_game, len(cycles)) == ("VIOLATION", None, 1)
    loop = int(cycles[0].message.split()[3])
    states = [new_game(rules=SMALL_AT_ONCE)]
    for move in cycles[0].path:
        states.append(_placement_does_nothing(states[-1], move))
    assert loop > 0
    assert position(states[-1]) == position(states[-1 - loop])


def test_small_place_at_once_by_position_is_ok() -> None:
    """The same rule set without the fault: OK by position, as by state."""
    assert check(SMALL_AT_ONCE, positions=True).result == "OK"
    assert check(SMALL_AT_ONCE).result == "OK"
