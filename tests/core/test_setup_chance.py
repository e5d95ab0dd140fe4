"""Seats, explicit chance and the setup deal (R5-R7)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from hatsuden_rules import (
    STANDARD,
    Chance,
    Construct,
    Deal,
    DealTech,
    DeclineTech,
    Discard,
    DrawFromDeck,
    DrawTech,
    GameState,
    HatsudenError,
    IllegalMoveError,
    Phase,
    PhaseError,
    Rules,
    apply,
    chance_outcomes,
    legal_moves,
    new_game,
)
from tests.support.scripting import (
    TECH_ORDER,
    card,
    card_key,
    cards,
    cell,
    deal,
    full_deck,
    idle,
    play,
    script,
)

HAND0 = cards("S1", "G2", "W3", "H4", "B1")
HAND1 = cards("S2", "G3", "W4", "H1", "B2")


def test_r7_new_game_without_seed_waits_for_the_first_deal() -> None:
    state = new_game()
    assert state.phase is Phase.CHANCE
    assert state.pending_chance is Chance.SETUP
    assert state.current_player == 0
    assert Counter(state.deck) == full_deck(STANDARD)
    assert state.tech_deck == TECH_ORDER
    assert state.hand(0) == state.hand(1) == ()
    assert state.discards == ()
    assert state.occupied(0) == state.occupied(1) == 0
    assert state.stall_count == 0
    assert state.end_triggered_by is None
    assert state.end_reason is None
    assert not state.is_seeded
    assert state.rng_state is None


def test_r7_setup_deals_hand_size_to_player0_then_to_player1() -> None:
    state = new_game()
    receivers = []
    for c in [*HAND0, *HAND1]:
        assert state.phase is Phase.CHANCE
        receivers.append(state.current_player)
        state = apply(state, Deal(c))
    assert receivers == [0] * 5 + [1] * 5
    assert state.phase is Phase.ACTION
    assert state.current_player == 0
    assert Counter(state.hand(0)) == Counter(HAND0)
    assert Counter(state.hand(1)) == Counter(HAND1)
    assert state.deck_size == 30
    # The deals are not a turn (R23): the stall counter is untouched.
    assert state.stall_count == 0


def test_r5_player0_moves_first_and_player1_second() -> None:
    state = deal(HAND0, HAND1)
    assert state.current_player == 0
    state = idle(state)
    assert state.current_player == 1
    state = idle(state)
    assert state.current_player == 0


def test_r6_first_deal_outcomes_are_each_card_with_probability_2_in_40() -> None:
    outcomes = chance_outcomes(new_game())
    assert len(outcomes) == 20
    assert all(p == Fraction(2, 40) for _, p in outcomes)
    assert sum(p for _, p in outcomes) == 1
    assert all(type(p) is Fraction for _, p in outcomes)


def test_r6_probabilities_are_count_over_deck_size_in_canonical_order() -> None:
    state = play(new_game(), Deal(card("S1")), Deal(card("G2")), Deal(card("G2")))
    outcomes = dict(chance_outcomes(state))
    # 37 cards left: one S1, no G2, two of every other card.
    assert outcomes[Deal(card("S1"))] == Fraction(1, 37)
    assert Deal(card("G2")) not in outcomes
    assert outcomes[Deal(card("W4"))] == Fraction(2, 37)
    assert sum(outcomes.values()) == 1
    listed = [move for move, _ in chance_outcomes(state)]
    assert listed == list(legal_moves(state))
    dealt = [move.card for move in listed if isinstance(move, Deal)]
    assert dealt == sorted(dealt, key=card_key)
    assert len(dealt) == 19


def test_r6_probabilities_sum_to_exactly_one_for_an_odd_deck() -> None:
    rules = Rules(energies=3, max_value=1, copies=3, hand_size=1, city_demand=1)
    state = apply(new_game(rules=rules), Deal(card("S1")))
    # 8 cards left: S1 x2, G1 x3, W1 x3.
    assert chance_outcomes(state) == (
        (Deal(card("S1")), Fraction(2, 8)),
        (Deal(card("G1")), Fraction(3, 8)),
        (Deal(card("W1")), Fraction(3, 8)),
    )


def _after_draw_tech() -> GameState:
    state = deal(HAND0, HAND1)
    return play(state, Construct(card("H4"), cell(0, "H")), DrawTech())


def test_r6_tech_outcomes_are_uniform_over_the_tech_deck_in_canonical_order() -> None:
    state = _after_draw_tech()
    assert state.phase is Phase.CHANCE
    assert state.pending_chance is Chance.TECH
    assert state.current_player == 0
    assert chance_outcomes(state) == tuple((DealTech(t), Fraction(1, 4)) for t in TECH_ORDER)
    assert legal_moves(state) == tuple(DealTech(t) for t in TECH_ORDER)


def test_r6_applying_an_outcome_moves_one_copy_to_the_receiver() -> None:
    state = deal(HAND0, HAND1)
    state = play(state, Discard(card("S1")), DrawFromDeck())
    assert state.phase is Phase.CHANCE
    assert state.pending_chance is Chance.DRAW
    before = Counter(state.deck)
    after = apply(state, Deal(card("S3")))
    assert before - Counter(after.deck) == Counter({card("S3"): 1})
    assert Counter(after.hand(0)) == Counter(state.hand(0)) + Counter({card("S3"): 1})


def test_r6_in_chance_the_current_player_is_the_receiver() -> None:
    state = idle(deal(HAND0, HAND1))
    assert state.current_player == 1
    state = play(state, Discard(card("S2")), DrawFromDeck())
    assert state.phase is Phase.CHANCE
    assert state.current_player == 1
    state = apply(state, Deal(card("S4")))
    assert card("S4") in state.hand(1)
    assert state.current_player == 0
    assert state.phase is Phase.ACTION


def test_r6_a_deal_of_a_card_not_left_in_the_deck_is_illegal() -> None:
    rules = Rules(energies=2, max_value=2, copies=1, hand_size=2, city_demand=3)
    state = apply(new_game(rules=rules), Deal(card("S1")))
    with pytest.raises(IllegalMoveError) as info:
        apply(state, Deal(card("S1")))
    assert info.value.rule == "R6"
    assert legal_moves(state) == (Deal(card("S2")), Deal(card("G1")), Deal(card("G2")))


def _states_in_every_non_chance_phase() -> list[GameState]:
    action = deal(HAND0, HAND1)
    tech = apply(action, Construct(card("H4"), cell(0, "H")))
    draw = apply(tech, DeclineTech())
    # Row 0: 3 + 3 + 3, then a 3 makes 12 > 11.
    overflow = script(
        [
            [Construct(card("S3"), cell(0, "S"))],
            [Construct(card("G3"), cell(0, "G"))],
            [Construct(card("W3"), cell(0, "W"))],
        ],
        [[], [], []],
        then=[Construct(card("H3"), cell(0, "H"))],
    )
    over = script([[]], rules=Rules(stall_limit=1))
    return [action, tech, draw, overflow, over]


def test_r6_chance_outcomes_outside_chance_raise_phase_error() -> None:
    states = _states_in_every_non_chance_phase()
    assert [s.phase for s in states] == [
        Phase.ACTION,
        Phase.TECH,
        Phase.DRAW,
        Phase.OVERFLOW,
        Phase.GAME_OVER,
    ]
    for state in states:
        with pytest.raises(PhaseError) as info:
            chance_outcomes(state)
        assert isinstance(info.value, ValueError)
        assert isinstance(info.value, HatsudenError)
