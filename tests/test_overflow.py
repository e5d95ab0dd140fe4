"""Overflow and flips (R21), and a flipped stack keeping its cards (R4, C4)."""

from __future__ import annotations

import pytest

from hatsuden_rules import (
    BuildPylon,
    Construct,
    DealTech,
    DeclineTech,
    DrawTech,
    Flip,
    GameState,
    IllegalMoveError,
    Improve,
    Move,
    Phase,
    PlaceSmart,
    Tech,
    apply,
    legal_moves,
)

from .scripting import S, assert_conserved, card, cards, cell, play, script


def _rule_of(state: GameState, move: Move) -> str:
    with pytest.raises(IllegalMoveError) as info:
        apply(state, move)
    return info.value.rule


def _row0(*turns: list[Move], hold: tuple[str, ...] = ()) -> GameState:
    """Player 0 plays `turns` (player 1 idles between them); player 0 to move."""
    return script(list(turns), [[] for _ in turns], hold0=cards(*hold))


def _c(code: str, row: int = 0) -> list[Move]:
    return [Construct(card(code), cell(row, code[0]))]


def _flips(state: GameState) -> list[Move]:
    return [m for m in legal_moves(state) if isinstance(m, Flip)]


def _two_flip_overflow() -> GameState:
    # Row 0: S3 G3 W3 H2 = 11 (within tolerance); B4 makes 15; TECH declined; OVERFLOW.
    state = _row0(_c("S3"), _c("G3"), _c("W3"), _c("H2"), hold=("B4",))
    assert state.phase is Phase.ACTION
    assert state.row_supply(0, 0) == 11
    state = play(state, Construct(card("B4"), cell(0, "B")), DeclineTech())
    assert state.phase is Phase.OVERFLOW
    assert state.row_supply(0, 0) == 15
    return state


def test_r21_overflow_needing_two_flips() -> None:
    state = _two_flip_overflow()
    # The played B4 is never a candidate; each flip is one move.
    assert _flips(state) == [Flip(cell(0, e)) for e in "SGWH"]
    state = apply(state, Flip(cell(0, "S")))
    assert state.row_supply(0, 0) == 12
    assert state.phase is Phase.OVERFLOW  # one flip of a 3 is not enough
    assert _flips(state) == [Flip(cell(0, e)) for e in "GWH"]
    state = apply(state, Flip(cell(0, "G")))
    assert state.row_supply(0, 0) == 9
    assert state.phase is Phase.DRAW
    assert_conserved(state)


def test_r21_the_owner_chooses_which_plant_to_flip() -> None:
    state = _two_flip_overflow()
    state = apply(state, Flip(cell(0, "H")))  # flipping the 2 leaves 13
    assert state.phase is Phase.OVERFLOW
    assert state.row_supply(0, 0) == 13
    state = apply(state, Flip(cell(0, "W")))  # then a 3 leaves 10
    assert state.phase is Phase.DRAW
    assert state.row_supply(0, 0) == 10


def test_r21_the_phase_ends_as_soon_as_the_row_is_within_tolerance() -> None:
    # Row 0: S3 G3 W3 = 9; H3 makes 12; one flip suffices and no further flip is legal.
    state = _row0(_c("S3"), _c("G3"), _c("W3"), hold=("H3",))
    state = apply(state, Construct(card("H3"), cell(0, "H")))
    assert state.phase is Phase.OVERFLOW
    state = apply(state, Flip(cell(0, "W")))
    assert state.phase is Phase.DRAW
    assert _flips(state) == []
    assert _rule_of(state, Flip(cell(0, "S"))) in {"R9", "R21"}


def test_r21_a_row_at_exactly_its_tolerance_does_not_overflow() -> None:
    state = _row0(_c("S3"), _c("G3"), _c("W3"), hold=("H2",))
    state = apply(state, Construct(card("H2"), cell(0, "H")))
    assert state.row_supply(0, 0) == 11
    assert state.phase is Phase.DRAW


def test_r21_an_improve_can_overflow() -> None:
    # Row 0: S1 G3 W3 H3 = 10; improving S1 to S3 makes 12.
    state = _row0(_c("S1"), _c("G3"), _c("W3"), _c("H3"), hold=("S3",))
    state = apply(state, Improve(card("S3"), cell(0, "S")))
    assert state.phase is Phase.OVERFLOW
    assert Flip(cell(0, "S")) not in legal_moves(state)  # the improved plant is the played one
    assert _rule_of(state, Flip(cell(0, "S"))) == "R21"
    state = apply(state, Flip(cell(0, "G")))
    assert state.phase is Phase.DRAW
    assert state.row_supply(0, 0) == 9


def test_r21_the_just_played_plant_a_pylon_another_row_or_an_empty_cell_never_flip() -> None:
    # Row 0: S3 G3 W3 and a pylon on HYDRO; row 1: S2. B4 in row 0 makes 13.
    state = _row0(
        _c("S3"),
        _c("G3"),
        _c("W3"),
        [BuildPylon(card("B1"), cell(0, "H"))],
        _c("S2", row=1),
        hold=("B4",),
    )
    state = play(state, Construct(card("B4"), cell(0, "B")), DeclineTech())
    assert state.phase is Phase.OVERFLOW
    assert _rule_of(state, Flip(cell(0, "B"))) == "R21"  # the card just played
    assert _rule_of(state, Flip(cell(0, "H"))) == "R21"  # a pylon
    assert _rule_of(state, Flip(cell(1, "S"))) == "R21"  # a plant of the other row
    assert _flips(state) == [Flip(cell(0, e)) for e in "SGW"]
    empty = _row0(_c("S3"), _c("G3"), _c("W3"), hold=("H3",))
    empty = apply(empty, Construct(card("H3"), cell(0, "H")))
    assert _rule_of(empty, Flip(cell(0, "B"))) == "R21"  # an empty cell


def test_r21_flip_is_illegal_outside_overflow() -> None:
    state = _row0(_c("S3"))
    assert _rule_of(state, Flip(cell(0, "S"))) in {"R9", "R21"}


def test_r4_a_flipped_stack_keeps_all_its_cards() -> None:
    # Row 0: S1 improved to S3, G3, W3 = 9; H3 makes 12; the SOLAR stack is flipped.
    state = _row0(_c("S1"), [Improve(card("S3"), cell(0, "S"))], _c("G3"), _c("W3"), hold=("H3",))
    state = play(state, Construct(card("H3"), cell(0, "H")), Flip(cell(0, "S")))
    stack = state.stack(0, cell(0, "S"))
    assert stack is not None
    assert stack.cards == (card("S1"), card("S3"))
    assert stack.face_down
    assert stack.flipped
    assert stack.value == 0
    assert not stack.is_plant
    assert state.occupied(0) == 4
    assert_conserved(state)


def test_r21_a_secret_plant_can_be_flipped_and_keeps_secret_build() -> None:
    state = _row0(
        [Construct(card("B4"), cell(1, "B")), DrawTech(), DealTech(Tech.SECRET_BUILD)],
        [Construct(card("W3"), cell(0, "W"), secret=True)],  # then DeclineTech
        _c("S3"),
        _c("G3"),
        hold=("H3",),
    )
    state = apply(state, Construct(card("H3"), cell(0, "H")))
    assert state.phase is Phase.OVERFLOW
    assert Flip(cell(0, "W")) in legal_moves(state)
    state = apply(state, Flip(cell(0, "W")))
    assert state.phase is Phase.DRAW
    stack = state.stack(0, cell(0, "W"))
    assert stack is not None
    assert stack.face_down
    assert stack.secret
    assert stack.cards == (card("W3"),)
    assert not stack.is_secret_plant
    assert_conserved(state)


def test_r21_free_placements_are_legal_in_overflow_and_keep_it() -> None:
    state = _row0(
        [Construct(card("B4"), cell(1, "B")), DrawTech(), DealTech(Tech.SMART)],
        _c("S3"),
        _c("G3"),
        _c("W3"),
        hold=("H3",),
    )
    state = apply(state, Construct(card("H3"), cell(0, "H")))
    assert state.phase is Phase.OVERFLOW
    assert PlaceSmart(S) in legal_moves(state)
    state = apply(state, PlaceSmart(S))
    assert state.phase is Phase.OVERFLOW
    assert state.smart is S
