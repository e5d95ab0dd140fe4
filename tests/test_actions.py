"""A turn and its actions: Construct, Improve, Downsize, BuildPylon, Discard, Pass (R9-R16)."""

from __future__ import annotations

import pytest

from hatsuden_rules import (
    BuildPylon,
    Construct,
    Deal,
    DealTech,
    DeclineTech,
    Discard,
    Downsize,
    DrawFromDeck,
    DrawTech,
    Flip,
    GameState,
    IllegalMoveError,
    Improve,
    Move,
    Pass,
    Phase,
    Stack,
    Tech,
    apply,
    legal_moves,
)
from tests.support.scripting import (
    assert_conserved,
    card,
    cards,
    cell,
    deal,
    play,
    script,
)

HAND0 = cards("S1", "S3", "G3", "W4", "H2")
HAND1 = cards("S2", "G1", "W1", "H1", "B1")


def _start() -> GameState:
    return deal(HAND0, HAND1)


def _rule_of(state: GameState, move: Move) -> str:
    with pytest.raises(IllegalMoveError) as info:
        apply(state, move)
    return info.value.rule


def _one_plant(code: str, row: int = 0, *hold: str) -> GameState:
    """Player 0 has built `code` on its column in `row`, player 1 idled; player 0 holds `hold`."""
    letter = code[0]
    return script([[Construct(card(code), cell(row, letter))]], [[]], hold0=cards(*hold))


# -- R9 -------------------------------------------------------------------------------------------


def test_r9_phase_sequence_of_a_turn_action_tech_chance_overflow_draw_chance() -> None:
    # Row 0 holds S3 G3 W2 (8); a face-up H4 makes 12 > 11.
    state = script(
        [
            [Construct(card("S3"), cell(0, "S"))],
            [Construct(card("G3"), cell(0, "G"))],
            [Construct(card("W2"), cell(0, "W"))],
        ],
        [[], [], []],
        hold0=cards("H4"),
    )
    phases = [state.phase]
    players = [state.current_player]
    dealt = state.deck[0]
    for move in (
        Construct(card("H4"), cell(0, "H")),
        DrawTech(),
        DealTech(Tech.SMART),
        Flip(cell(0, "S")),
        DrawFromDeck(),
        Deal(dealt),
    ):
        state = apply(state, move)
        phases.append(state.phase)
        players.append(state.current_player)
    assert phases == [
        Phase.ACTION,
        Phase.TECH,
        Phase.CHANCE,
        Phase.OVERFLOW,
        Phase.DRAW,
        Phase.CHANCE,
        Phase.ACTION,
    ]
    assert players == [0, 0, 0, 0, 0, 0, 1]
    assert dealt in state.hand(0)
    assert Tech.SMART in state.tech_hand(0)
    assert_conserved(state)


@pytest.mark.parametrize(
    "move",
    [
        Discard(card("G3")),
        BuildPylon(card("G3"), cell(1, "B")),
        Improve(card("S3"), cell(0, "S")),
    ],
)
def test_r9_actions_that_cannot_overflow_go_straight_to_draw(move: Move) -> None:
    state = _one_plant("S1", 0, "S3", "G3")
    assert apply(state, move).phase is Phase.DRAW


def test_r9_exactly_one_action_per_turn() -> None:
    state = apply(_start(), Construct(card("S3"), cell(0, "S")))
    assert state.phase is Phase.DRAW
    assert _rule_of(state, Construct(card("G3"), cell(0, "G"))) in {"R9", "R10"}
    assert _rule_of(state, Discard(card("G3"))) in {"R9", "R15"}
    assert not any(isinstance(m, Construct | Discard | Improve) for m in legal_moves(state))


# -- R10 ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("row", [0, 1])
def test_r10_construct_puts_the_card_face_up_into_an_empty_cell_of_its_column(row: int) -> None:
    after = apply(_start(), Construct(card("S3"), cell(row, "S")))
    assert after.stack(0, cell(row, "S")) == Stack(cards=(card("S3"),))
    assert after.played_cell == cell(row, "S")
    assert after.row_supply(0, row) == 3
    assert after.row_supply(0, 1 - row) == 0
    assert after.hand(0) == tuple(cards("S1", "G3", "W4", "H2"))
    assert after.phase is Phase.DRAW  # a 3 within tolerance: no TECH, no OVERFLOW
    assert after.stack(1, cell(row, "S")) is None  # a cell of the mover's own grid


def test_r10_construct_needs_an_empty_cell() -> None:
    state = _one_plant("S1", 0, "S3")
    assert _rule_of(state, Construct(card("S3"), cell(0, "S"))) == "R10"
    assert Construct(card("S3"), cell(0, "S")) not in legal_moves(state)
    assert Construct(card("S3"), cell(1, "S")) in legal_moves(state)


def test_r10_construct_needs_the_column_of_the_cards_energy() -> None:
    assert _rule_of(_start(), Construct(card("S3"), cell(0, "G"))) == "R10"


def test_r10_construct_needs_the_card_in_hand() -> None:
    assert _rule_of(_start(), Construct(card("B4"), cell(0, "B"))) == "R10"


# -- R12 ------------------------------------------------------------------------------------------


def test_r12_improve_puts_a_strictly_higher_card_on_top_and_only_the_top_counts() -> None:
    after = apply(_one_plant("S1", 0, "S3"), Improve(card("S3"), cell(0, "S")))
    stack = after.stack(0, cell(0, "S"))
    assert stack is not None
    assert stack.cards == (card("S1"), card("S3"))
    assert stack.value == 3  # not 1 + 3
    assert after.row_supply(0, 0) == 3
    assert after.played_cell == cell(0, "S")
    assert after.phase is Phase.DRAW


def test_r12_improve_with_an_equal_value_is_illegal_with_the_documented_message() -> None:
    state = _one_plant("S3", 0, "S3")
    with pytest.raises(IllegalMoveError) as info:
        apply(state, Improve(card("S3"), cell(0, "S")))
    assert str(info.value) == (
        "R12: Improve needs a strictly higher value than the top card (3 on 3)"
    )
    assert info.value.rule == "R12"


def test_r12_improve_with_a_lower_value_is_illegal() -> None:
    state = _one_plant("S3", 0, "S1")
    assert _rule_of(state, Improve(card("S1"), cell(0, "S"))) == "R12"


def test_r12_a_plant_topped_by_a_4_cannot_be_improved() -> None:
    state = _one_plant("S4", 0, "S4")
    assert _rule_of(state, Improve(card("S4"), cell(0, "S"))) == "R12"
    assert not any(isinstance(m, Improve) for m in legal_moves(state))


def test_r12_improve_needs_a_plant_not_an_empty_cell_or_a_pylon() -> None:
    state = script([[BuildPylon(card("B1"), cell(0, "S"))]], [[]], hold0=cards("S3"))
    assert _rule_of(state, Improve(card("S3"), cell(0, "S"))) in {"R12", "R14"}
    assert _rule_of(state, Improve(card("S3"), cell(1, "S"))) == "R12"
    assert not any(isinstance(m, Improve) for m in legal_moves(state))


def test_r12_improve_needs_the_column_of_the_cards_energy() -> None:
    state = _one_plant("S1", 0, "G3")
    assert _rule_of(state, Improve(card("G3"), cell(0, "S"))) == "R12"


def test_r12_improve_needs_the_card_in_hand() -> None:
    state = _one_plant("S1", 0)
    assert card("S2") not in state.hand(0)
    assert _rule_of(state, Improve(card("S2"), cell(0, "S"))) == "R12"


def test_r12_improve_to_a_4_enters_tech() -> None:
    state = _one_plant("W1", 1, "W4")
    after = apply(state, Improve(card("W4"), cell(1, "W")))
    assert after.phase is Phase.TECH
    assert legal_moves(after) == (DrawTech(), DeclineTech())


# -- R13 ------------------------------------------------------------------------------------------


def _holding_down(*hold: str) -> GameState:
    """Player 0 holds DOWN, has S3 on (0, SOLAR) and the cards `hold`; player 0 to move."""
    state = script(
        [
            [Construct(card("S3"), cell(0, "S"))],
            [Construct(card("H4"), cell(1, "H")), DrawTech(), DealTech(Tech.DOWN)],
        ],
        [[], []],
        hold0=cards(*hold),
    )
    assert state.tech_hand(0) == frozenset({Tech.DOWN})
    return state


def test_r13_downsize_puts_a_strictly_lower_card_on_top_spending_down() -> None:
    state = _holding_down("S1")
    after = apply(state, Downsize(card("S1"), cell(0, "S")))
    stack = after.stack(0, cell(0, "S"))
    assert stack is not None
    assert stack.cards == (card("S3"), card("S1"))
    assert stack.downsized
    assert stack.value == 1
    assert after.row_supply(0, 0) == 1
    assert Tech.DOWN not in after.tech_hand(0)
    assert Tech.DOWN not in after.tech_deck
    assert after.phase is Phase.DRAW  # never TECH, never OVERFLOW
    assert_conserved(after)


def test_r13_downsize_needs_down_in_the_tech_hand() -> None:
    state = _one_plant("S3", 0, "S1")
    assert _rule_of(state, Downsize(card("S1"), cell(0, "S"))) == "R13"
    assert not any(isinstance(m, Downsize) for m in legal_moves(state))


def test_r13_downsize_needs_a_strictly_lower_value() -> None:
    state = _holding_down("S3", "S4", "S1")
    assert _rule_of(state, Downsize(card("S3"), cell(0, "S"))) == "R13"
    assert _rule_of(state, Downsize(card("S4"), cell(0, "S"))) == "R13"
    downsizes = [m for m in legal_moves(state) if isinstance(m, Downsize)]
    assert downsizes == [Downsize(card("S1"), cell(0, "S"))]


def test_r13_downsize_needs_a_plant_of_the_cards_column() -> None:
    state = _holding_down("S1", "G1")
    assert _rule_of(state, Downsize(card("S1"), cell(1, "S"))) == "R13"  # empty cell
    assert _rule_of(state, Downsize(card("G1"), cell(0, "S"))) == "R13"  # other column


def test_r13_downsize_onto_a_pylon_is_illegal() -> None:
    state = script(
        [
            [BuildPylon(card("B4"), cell(0, "G"))],
            [Construct(card("H4"), cell(1, "H")), DrawTech(), DealTech(Tech.DOWN)],
        ],
        [[], []],
        hold0=cards("G1"),
    )
    assert _rule_of(state, Downsize(card("G1"), cell(0, "G"))) == "R13"


def test_r13_after_a_downsize_an_improve_must_beat_the_new_top() -> None:
    state = script(
        [
            [Construct(card("S3"), cell(0, "S"))],
            [Construct(card("H4"), cell(1, "H")), DrawTech(), DealTech(Tech.DOWN)],
            [Downsize(card("S1"), cell(0, "S"))],
        ],
        [[], [], []],
        hold0=cards("S2"),
    )
    # The new top is 1, so a 2 (lower than the covered 3) may now improve it.
    after = apply(state, Improve(card("S2"), cell(0, "S")))
    stack = after.stack(0, cell(0, "S"))
    assert stack is not None
    assert stack.cards == (card("S3"), card("S1"), card("S2"))
    assert stack.value == 2


# -- R14 ------------------------------------------------------------------------------------------


def test_r14_build_pylon_puts_any_card_face_down_worth_zero() -> None:
    state = _start()
    after = apply(state, BuildPylon(card("G3"), cell(1, "B")))
    stack = after.stack(0, cell(1, "B"))
    assert stack is not None
    assert stack.face_down
    assert not stack.flipped
    assert stack.cards == (card("G3"),)
    assert stack.value == 0
    assert after.row_supply(0, 1) == 0
    assert after.occupied(0) == 1
    assert after.phase is Phase.DRAW


def test_r14_build_pylon_with_a_4_does_not_enter_tech() -> None:
    state = _start()
    after = apply(state, BuildPylon(card("W4"), cell(0, "W")))
    assert after.phase is Phase.DRAW
    assert after.tech_deck == state.tech_deck
    assert DrawTech() not in legal_moves(after)


def test_r14_build_pylon_needs_an_empty_cell() -> None:
    state = _one_plant("S1", 0, "G3")
    assert _rule_of(state, BuildPylon(card("G3"), cell(0, "S"))) == "R14"
    assert BuildPylon(card("G3"), cell(0, "S")) not in legal_moves(state)


def test_r14_build_pylon_needs_the_card_in_hand() -> None:
    assert _rule_of(_start(), BuildPylon(card("B4"), cell(0, "B"))) == "R14"


# -- R15 ------------------------------------------------------------------------------------------


def test_r15_discard_puts_the_card_face_up_into_the_discards() -> None:
    state = _start()
    after = apply(state, Discard(card("W4")))
    assert after.discards == (card("W4"),)
    assert after.turn_discard == card("W4")
    assert card("W4") not in after.hand(0)
    assert after.phase is Phase.DRAW


def test_r15_discards_are_a_multiset_in_canonical_order() -> None:
    state = play(_start(), Discard(card("W4")), DrawFromDeck(), Deal(card("S4")))
    state = play(state, Discard(card("G1")), DrawFromDeck(), Deal(card("S4")))
    state = play(state, Discard(card("S1")))
    assert state.discards == tuple(cards("S1", "G1", "W4"))


def test_r15_discard_needs_the_card_in_hand() -> None:
    assert _rule_of(_start(), Discard(card("B4"))) == "R15"


# -- R16 ------------------------------------------------------------------------------------------


def test_r16_pass_is_illegal_with_cards_in_hand() -> None:
    state = _start()
    assert _rule_of(state, Pass()) == "R16"
    assert Pass() not in legal_moves(state)
