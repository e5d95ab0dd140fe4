"""Differential tests: the native core and the reference stepped in lock step (issue 20).

Hypothesis draws a rule set (every option and variant: tie-breaks, retake, stall limit, tech
cards, R40 timing, R41 overflow), a chance mode (explicit, or seeded with any int), and a random
walk. After every step both cores agree on the legal moves in order (as notation), the chance
outcomes and their probabilities, the player to move, the score sheet, both observation
tensors, the next state (compared through the notation), and the error for a random move that
is not legal (the same rule) and for corrupted move and state notation (the same field and
position). Example counts scale with the loaded Hypothesis profile (property_tests/conftest.py).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hatsuden_rules import (
    STANDARD,
    GameState,
    Overflow,
    PhaseError,
    Rules,
    Tech,
    TechTiming,
    Tiebreak,
    apply,
    chance_outcomes,
    format_move,
    format_rules,
    format_state,
    from_json,
    is_legal,
    legal_moves,
    new_game,
    observation_tensor,
    observe,
    parse_move,
    parse_state,
    score,
)
from hatsuden_rules.actions import chance_moves, player_moves

from .helpers import NOT_INSTALLED, outcome, same_outcome

try:
    from hatsuden_native import NativeState
except ImportError:  # pragma: no cover - the lead's `make test` installs it
    pytest.skip(NOT_INSTALLED, allow_module_level=True)


def _budget(fraction: float, at_least: int = 5) -> int:
    """A share of the loaded profile's ``max_examples``."""
    return max(at_least, int(settings().max_examples * fraction))


@st.composite
def small_rules(draw: st.DrawFn) -> Rules:
    """Small valid rule sets (R31) with every option, so that games are short."""
    energies = draw(st.integers(1, 5))
    # Mostly short games; now and then the largest values R31 allows (R2: up to 11), which the
    # native state holds too.
    max_value = draw(st.sampled_from((1, 2, 3, 4) * 3 + (7, 11)))
    copies = draw(st.integers(1, 2)) if energies * max_value > 1 else 2
    hand_size = draw(st.integers(1, min(3, energies * max_value * copies // 2)))
    lowest_demand = max(1, max_value - 1)
    return Rules(
        energies=energies,
        max_value=max_value,
        copies=copies,
        hand_size=hand_size,
        city_demand=draw(st.integers(lowest_demand, lowest_demand + 2 * max_value)),
        techs=draw(st.frozensets(st.sampled_from(Tech))),
        tiebreak=draw(st.sampled_from(Tiebreak)),
        allow_retake_discard=draw(st.booleans()),
        stall_limit=draw(st.none() | st.integers(1, 6)),
        tech_timing=draw(st.sampled_from(TechTiming)),  # R40
        overflow=draw(st.sampled_from(Overflow)),  # R41
    )


@st.composite
def printed_variants(draw: st.DrawFn) -> Rules:
    """The printed sizes with the options varied."""
    return Rules(
        techs=draw(st.frozensets(st.sampled_from(Tech))),
        tiebreak=draw(st.sampled_from(Tiebreak)),
        allow_retake_discard=draw(st.booleans()),
        stall_limit=draw(st.integers(1, 25)),
        tech_timing=draw(st.sampled_from(TechTiming)),
        overflow=draw(st.sampled_from(Overflow)),
    )


RULES = st.one_of(
    small_rules(), small_rules(), small_rules(), st.just(STANDARD) | printed_variants()
)
SEEDS = st.none() | st.integers(0, 2**64 - 1) | st.integers(-(2**80), 2**80)


def _compare(state: GameState, native: NativeState) -> None:
    """Both cores agree on everything observable about `state`."""
    assert native.notation() == format_state(state)
    assert native.legal_moves() == [format_move(m) for m in legal_moves(state)]
    assert native.current_player == state.current_player
    assert native.is_terminal == state.is_over
    if state.phase.name == "CHANCE":
        expected = [(format_move(m), p.numerator, p.denominator) for m, p in chance_outcomes(state)]
        assert native.chance_outcomes() == expected
    else:
        with pytest.raises(PhaseError):
            native.chance_outcomes()
    assert from_json(native.score_json(), "score") == score(state)
    for player in (0, 1):
        assert native.observation_tensor(player) == list(observation_tensor(observe(state, player)))


def _corrupt(data: st.DataObject, text: str) -> str:
    """`text` with one character replaced, inserted or removed, or cut short."""
    at = data.draw(st.integers(0, max(0, len(text) - 1)), label="at")
    char = data.draw(st.sampled_from(" =,;/.-+#*[]?0123456789SGWHBx"), label="char")
    how = data.draw(st.sampled_from(["replace", "insert", "remove", "cut"]), label="how")
    if how == "replace":
        return text[:at] + char + text[at + 1 :]
    if how == "insert":
        return text[:at] + char + text[at:]
    if how == "remove":
        return text[:at] + text[at + 1 :]
    return text[:at]


def _text_of_state(text: str) -> str:
    return format_state(parse_state(text))


def _native_text_of_state(text: str) -> str:
    return NativeState.from_notation(text).notation()


def _apply_text(state: GameState, text: str) -> str:
    return format_state(apply(state, parse_move(text, state.rules)))


def _native_apply_text(native: NativeState, text: str) -> str:
    return native.apply(text).notation()


@given(data=st.data(), rules=RULES, seed=SEEDS)
@settings(max_examples=_budget(0.15))
def test_both_cores_agree_along_a_random_game(
    data: st.DataObject, rules: Rules, seed: int | None
) -> None:
    state = new_game(rules=rules, seed=seed)
    native = NativeState.new_game(format_rules(rules), seed)
    every_move = (*player_moves(rules), *chance_moves(rules))
    for _ in range(data.draw(st.integers(0, 150), label="plies")):
        _compare(state, native)
        if state.is_over:
            break
        # A move that is not legal now: the same refusal, naming the same rule.
        wrong = data.draw(st.sampled_from(every_move), label="wrong")
        if not is_legal(state, wrong):
            expected = outcome(apply, state, wrong)
            assert expected[0] == "IllegalMoveError"
            assert outcome(native.apply, format_move(wrong)) == expected
        moves = legal_moves(state)
        move = moves[data.draw(st.integers(0, len(moves) - 1), label="move")]
        if data.draw(st.integers(0, 9), label="corrupt?") == 0:
            # Malformed (or accidentally well-formed) move and state notation.
            text = _corrupt(data, format_move(move))
            expected = outcome(_apply_text, state, text)
            got = outcome(_native_apply_text, native, text)
            assert same_outcome(expected, got), (text, expected, got)
            text = _corrupt(data, format_state(state))
            expected = outcome(_text_of_state, text)
            got = outcome(_native_text_of_state, text)
            assert same_outcome(expected, got), (text, expected, got)
        state = apply(state, move)
        native = native.apply(format_move(move))
    _compare(state, native)
