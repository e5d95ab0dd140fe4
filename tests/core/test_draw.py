"""The draw (R22), the empty hand (R16) and the empty deck (Ruling B1)."""

from __future__ import annotations

import pytest

from hatsuden_rules import (
    Chance,
    Construct,
    Deal,
    Discard,
    DrawFromDeck,
    DrawFromDiscard,
    EndTurn,
    GameState,
    IllegalMoveError,
    Improve,
    Move,
    Pass,
    Phase,
    Rules,
    apply,
    legal_moves,
)
from tests.support.scripting import assert_conserved, card, cards, cell, deal, play

HAND0 = cards("S1", "S3", "G3", "W4", "H2")
HAND1 = cards("S1", "G1", "W1", "H1", "B1")

NO_RETAKE = Rules(allow_retake_discard=False)
#: 1 energy x values 1..2 x 2 copies = 4 cards = two hands of 2: the deck is empty after the deal.
TINY = Rules(energies=1, max_value=2, copies=2, hand_size=2, city_demand=3, techs=frozenset())
TINY_NO_RETAKE = Rules(
    energies=1,
    max_value=2,
    copies=2,
    hand_size=2,
    city_demand=3,
    techs=frozenset(),
    allow_retake_discard=False,
)
#: 2 energies x value 1 x 2 copies: again an empty deck after the deal, and 4 cells per grid.
PAIRS_NO_RETAKE = Rules(
    energies=2,
    max_value=1,
    copies=2,
    hand_size=2,
    city_demand=1,
    techs=frozenset(),
    allow_retake_discard=False,
)


def _rule_of(state: GameState, move: Move) -> str:
    with pytest.raises(IllegalMoveError) as info:
        apply(state, move)
    return info.value.rule


def test_r22_draw_from_deck_deals_a_card_then_the_turn_ends() -> None:
    state = play(deal(HAND0, HAND1), Discard(card("W4")))
    assert legal_moves(state)[0] == DrawFromDeck()
    state = apply(state, DrawFromDeck())
    assert state.phase is Phase.CHANCE
    assert state.pending_chance is Chance.DRAW
    assert state.current_player == 0
    state = apply(state, Deal(card("B4")))
    assert state.hand_size(0) == 5
    assert card("B4") in state.hand(0)
    assert state.current_player == 1
    assert state.phase is Phase.ACTION
    assert state.deck_size == 29


def test_r22_draw_from_discard_takes_any_discard_and_ends_the_turn() -> None:
    state = play(deal(HAND0, HAND1), Discard(card("W4")), DrawFromDeck(), Deal(card("B4")))
    state = apply(state, Discard(card("G1")))
    assert [m for m in legal_moves(state) if isinstance(m, DrawFromDiscard)] == [
        DrawFromDiscard(card("G1")),
        DrawFromDiscard(card("W4")),
    ]
    state = apply(state, DrawFromDiscard(card("W4")))
    assert card("W4") in state.hand(1)
    assert state.discards == (card("G1"),)
    assert state.current_player == 0
    assert state.phase is Phase.ACTION
    assert state.deck_size == 29  # exactly one draw: nothing from the deck


def test_r22_draw_from_discard_needs_the_card_in_the_discards() -> None:
    state = play(deal(HAND0, HAND1), Discard(card("W4")))
    assert _rule_of(state, DrawFromDiscard(card("B4"))) == "R22"


def test_r22_retaking_the_card_discarded_this_turn_is_allowed_by_default() -> None:
    state = deal(HAND0, HAND1)
    after = play(state, Discard(card("W4")))
    assert DrawFromDiscard(card("W4")) in legal_moves(after)
    after = apply(after, DrawFromDiscard(card("W4")))
    assert after.hand(0) == state.hand(0)
    assert after.discards == ()
    assert after.current_player == 1


def test_r22_retaking_the_card_discarded_this_turn_is_barred_when_the_option_is_off() -> None:
    state = play(deal(HAND0, HAND1, rules=NO_RETAKE), Discard(card("W4")))
    assert DrawFromDiscard(card("W4")) not in legal_moves(state)
    assert _rule_of(state, DrawFromDiscard(card("W4"))) == "R22"
    assert legal_moves(state) == (DrawFromDeck(),)


def test_r22_with_the_option_off_other_discards_stay_takeable() -> None:
    state = deal(HAND0, HAND1, rules=NO_RETAKE)
    state = play(state, Discard(card("W4")), DrawFromDeck(), Deal(card("B4")))
    state = apply(state, Discard(card("G1")))
    # Player 1 discarded G1 this turn: only W4 (player 0's discard) may be taken.
    takes = [m for m in legal_moves(state) if isinstance(m, DrawFromDiscard)]
    assert takes == [DrawFromDiscard(card("W4"))]
    assert _rule_of(state, DrawFromDiscard(card("G1"))) == "R22"


def test_r22_with_the_option_off_an_equal_card_already_discarded_may_be_taken() -> None:
    state = deal(HAND0, HAND1, rules=NO_RETAKE)
    # Player 0 discards S1 and draws; player 1 then discards its own S1.
    state = play(state, Discard(card("S1")), DrawFromDeck(), Deal(card("B4")))
    state = apply(state, Discard(card("S1")))
    assert state.discards == tuple(cards("S1", "S1"))
    # One copy (this turn's) is barred, the other one was already there.
    assert DrawFromDiscard(card("S1")) in legal_moves(state)
    state = apply(state, DrawFromDiscard(card("S1")))
    assert state.discards == (card("S1"),)
    assert card("S1") in state.hand(1)
    assert_conserved(state)


def test_r22_empty_deck_draw_from_deck_is_illegal_and_a_discard_may_be_taken() -> None:
    state = deal(cards("S1", "S2"), cards("S1", "S2"), rules=TINY)
    assert state.deck_size == 0
    state = apply(state, Discard(card("S1")))
    assert legal_moves(state) == (DrawFromDiscard(card("S1")),)
    assert _rule_of(state, DrawFromDeck()) == "R22"
    assert _rule_of(state, EndTurn()) == "R22"  # a card can still be drawn


def test_r22_end_turn_only_when_nothing_can_be_drawn_and_the_hand_shrinks() -> None:
    state = deal(cards("S1", "S2"), cards("S1", "S2"), rules=TINY_NO_RETAKE)
    state = apply(state, Discard(card("S1")))
    # Empty deck, and the only discard is barred: EndTurn is the only move.
    assert legal_moves(state) == (EndTurn(),)
    state = apply(state, EndTurn())
    assert state.hand(0) == (card("S2"),)
    assert state.current_player == 1
    assert state.phase is Phase.ACTION
    assert state.discards == (card("S1"),)  # no reshuffle: discards stay discards
    assert state.deck_size == 0
    assert_conserved(state)


def test_r22_end_turn_is_illegal_while_the_deck_has_cards() -> None:
    state = play(deal(HAND0, HAND1), Discard(card("W4")))
    assert _rule_of(state, EndTurn()) == "R22"
    assert EndTurn() not in legal_moves(state)


def test_r16_empty_hand_pass_then_end_turn() -> None:
    state = deal(cards("S1", "S2"), cards("S1", "S2"), rules=TINY)
    for _ in range(2):  # each player: Construct S1 in row 0, EndTurn
        state = play(state, Construct(card("S1"), cell(0, "S")))
        assert legal_moves(state) == (EndTurn(),)
        state = apply(state, EndTurn())
    for _ in range(2):  # each player: Improve with S2, EndTurn
        state = play(state, Improve(card("S2"), cell(0, "S")), EndTurn())
    assert state.hand(0) == state.hand(1) == ()
    assert state.current_player == 0
    assert state.stall_count == 0
    assert legal_moves(state) == (Pass(),)
    state = apply(state, Pass())
    assert state.phase is Phase.DRAW
    assert legal_moves(state) == (EndTurn(),)
    state = apply(state, EndTurn())
    assert state.current_player == 1
    assert state.stall_count == 1
    assert state.phase is Phase.ACTION
    assert_conserved(state)


def test_r16_empty_hand_pass_then_draw_from_the_discards() -> None:
    state = deal(cards("S1", "G1"), cards("S1", "G1"), rules=PAIRS_NO_RETAKE)
    state = play(state, Construct(card("S1"), cell(0, "S")), EndTurn())  # player 0
    state = play(state, Construct(card("S1"), cell(0, "S")), EndTurn())  # player 1
    state = play(state, Construct(card("G1"), cell(0, "G")), EndTurn())  # player 0: hand empty
    state = play(state, Discard(card("G1")), EndTurn())  # player 1: its discard is barred
    assert state.hand(0) == ()
    assert state.discards == (card("G1"),)
    assert legal_moves(state) == (Pass(),)
    state = apply(state, Pass())
    assert state.phase is Phase.DRAW
    assert legal_moves(state) == (DrawFromDiscard(card("G1")),)
    state = apply(state, DrawFromDiscard(card("G1")))
    assert state.hand(0) == (card("G1"),)
    assert state.discards == ()
    assert state.current_player == 1
