"""Round trips (issue 5): every move, state and observation of random games and of the small
exhaustive configuration survives the notation and JSON exactly."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hatsuden_rules import (
    GameState,
    Move,
    Rules,
    apply,
    format_move,
    format_observation,
    format_record,
    format_state,
    from_json,
    legal_moves,
    new_game,
    observe,
    parse_move,
    parse_observation,
    parse_record,
    parse_state,
    record_game,
    replay,
    score,
    to_json,
)
from hatsuden_rules.modelcheck import CONFIGS, check

from .games import draw_move
from .strategies import budget, valid_rules


def _round_trip_state(state: GameState) -> None:
    line = format_state(state)
    assert parse_state(line) == state
    assert format_state(parse_state(line)) == line
    assert from_json(to_json(state)) == state
    sheet = score(state)
    assert from_json(to_json(sheet)) == sheet


def _round_trip_move(move: Move, rules: Rules) -> None:
    text = format_move(move)
    assert parse_move(text, rules) == move
    assert from_json(to_json(move)) == move


def _round_trip_observations(state: GameState) -> None:
    for player in (0, 1):
        seen = observe(state, player)
        assert parse_observation(format_observation(seen)) == seen
        assert from_json(to_json(seen)) == seen


def _play(data: st.DataObject, rules: Rules, seed: int | None) -> None:
    state = new_game(seed, rules)
    moves: list[Move] = []
    while True:
        _round_trip_state(state)
        if len(moves) % 3 == 0 or state.is_over:
            _round_trip_observations(state)
        legal = legal_moves(state)
        for move in legal:
            _round_trip_move(move, rules)
        if state.is_over:
            break
        move = draw_move(data, state, legal)
        moves.append(move)
        state = apply(state, move)
    record = record_game(moves, seed=seed, rules=rules, players=("P0", "P1"))
    assert parse_record(format_record(record)) == record
    assert from_json(to_json(record)) == record
    assert replay(record) == state


@settings(max_examples=budget(0.05))
@given(data=st.data(), rules=valid_rules())
def test_explicit_games_round_trip(data: st.DataObject, rules: Rules) -> None:
    _play(data, rules, None)


@settings(max_examples=budget(0.05))
@given(data=st.data(), rules=valid_rules(), seed=st.integers(0, 2**64 - 1))
def test_seeded_games_round_trip(data: st.DataObject, rules: Rules, seed: int) -> None:
    _play(data, rules, seed)


#: How many states of the small configuration are round-tripped (of its 44,513: all of them
#: take minutes), scaled from the Hypothesis profile: 400 (dev), 1,200 (ci), 20,000 (nightly).
#: They are spread evenly over the breadth-first order, so over every depth; the random games
#: above and the conformance vectors round-trip many more.
SMALL_SAMPLE = budget(4)


def test_states_of_the_small_configuration_round_trip() -> None:
    rules = CONFIGS["small"]
    seen: list[GameState] = []
    result = check(rules, on_state=seen.append)
    assert result.result == "OK"
    assert len(seen) == result.states > SMALL_SAMPLE
    stride = len(seen) // SMALL_SAMPLE
    moves: set[Move] = set()
    for state in seen[::stride]:
        _round_trip_state(state)
        _round_trip_observations(state)
    for state in seen:  # every move reachable in the configuration
        moves.update(legal_moves(state))
    for move in moves:
        _round_trip_move(move, rules)
