"""R35: malformed input always raises a HatsudenError that is a ValueError, never another
exception, never a state, and never changes the state it was tried on."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hatsuden_rules import (
    Card,
    Cell,
    Construct,
    Deal,
    Discard,
    Energy,
    Flip,
    GameState,
    HatsudenError,
    PlaceAccumulator,
    PlaceSmart,
    Rules,
    Tech,
    apply,
    chance_outcomes,
    legal_moves,
    new_game,
    score,
)

from .games import draw_move
from .oracle import public_view
from .strategies import budget, valid_rules


@st.composite
def reached_states(draw: st.DrawFn) -> GameState:
    """A state some way into a random game, in either mode."""
    rules: Rules = draw(valid_rules(), label="rules")
    state = new_game(draw(st.none() | st.integers(), label="seed"), rules)
    data_moves = draw(st.integers(0, 40), label="plies")
    choices = draw(st.data(), label="moves")
    for _ in range(data_moves):
        if state.is_over:
            break
        state = apply(state, draw_move(choices, state, legal_moves(state)))
    return state


def not_a_move() -> st.SearchStrategy[Any]:
    """Values of the wrong type where a move is expected."""
    return st.one_of(
        st.none(),
        st.integers(),
        st.text(max_size=5),
        st.booleans(),
        st.sampled_from([Energy.SOLAR, Tech.DOWN, Card(Energy.WIND, 1), Cell(0, Energy.HYDRO)]),
        st.sampled_from([Construct, Discard, PlaceAccumulator]),  # classes, not moves
        st.tuples(st.integers(), st.integers()),
    )


def _raises_value_error(call: Any, *args: Any) -> None:
    with pytest.raises(HatsudenError) as error:
        call(*args)
    assert isinstance(error.value, ValueError), type(error.value)


@settings(max_examples=budget(0.5))
@given(state=reached_states(), junk=not_a_move())
def test_r35_apply_rejects_values_that_are_not_moves(state: GameState, junk: Any) -> None:
    """R35: `apply(state, x)` with a non-move raises HatsudenError + ValueError, state intact."""
    view, digest = public_view(state), hash(state)
    _raises_value_error(apply, state, junk)
    assert public_view(state) == view
    assert hash(state) == digest


@settings(max_examples=budget(0.5))
@given(junk=not_a_move())
def test_r35_functions_reject_values_that_are_not_states(junk: Any) -> None:
    """R35: the API functions taking a state reject anything else with a ValueError."""
    for call in (legal_moves, chance_outcomes, score):
        _raises_value_error(call, junk)
    _raises_value_error(apply, junk, Deal(Card(Energy.SOLAR, 1)))


bad_rows = st.integers().filter(lambda r: r not in (0, 1)) | st.sampled_from([True, 0.0, "0"])
bad_values = st.integers(max_value=0) | st.sampled_from([True, 1.0, "1", None])


@settings(max_examples=budget(0.5))
@given(row=bad_rows, value=bad_values, energy=st.sampled_from(Energy))
def test_r35_malformed_cards_cells_and_moves_raise_value_errors(
    row: Any, value: Any, energy: Energy
) -> None:
    """R2, R4, R35: a card value below 1, a row outside 0..1, a field of the wrong type are
    malformed whatever the state: constructing them raises a HatsudenError + ValueError."""
    card, cell = Card(energy, 1), Cell(0, energy)
    _raises_value_error(Card, energy, value)
    _raises_value_error(Cell, row, energy)
    _raises_value_error(PlaceAccumulator, row)
    _raises_value_error(Card, "wind", 1)
    _raises_value_error(Construct, card, cell, "yes")
    _raises_value_error(Construct, cell, card)
    _raises_value_error(Flip, card)
    _raises_value_error(PlaceSmart, Tech.SMART)


@settings(max_examples=budget(0.5))
@given(state=reached_states(), player=st.integers().filter(lambda p: p not in (0, 1)))
def test_r35_accessors_reject_players_and_rows_out_of_range(state: GameState, player: int) -> None:
    """R35: accessors taking a player or a row reject values other than 0 and 1 with a
    HatsudenError that is a ValueError."""
    for accessor in (state.hand, state.hand_size, state.tech_hand, state.board, state.occupied):
        _raises_value_error(accessor, player)
    _raises_value_error(state.row_supply, 0, player)
    _raises_value_error(state.tolerance, player, 0)
