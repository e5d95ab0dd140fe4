"""Components: energies, plant cards, tech cards, grids (R1-R4)."""

from __future__ import annotations

from collections import Counter

import pytest

from hatsuden_rules import (
    STANDARD,
    Card,
    Cell,
    Construct,
    Discard,
    Energy,
    Rules,
    Tech,
    apply,
    legal_moves,
    new_game,
)
from tests.support.scripting import (
    ENERGY_ORDER,
    TECH_ORDER,
    B,
    G,
    H,
    S,
    W,
    card,
    card_key,
    cards,
    cell,
    deal,
    full_deck,
    take_tech,
)


def test_r1_energies_are_in_column_order() -> None:
    assert list(Energy) == [S, G, W, H, B]
    assert [e.column for e in Energy] == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_r1_with_n_energies_the_first_n_are_in_play(n: int) -> None:
    rules = Rules(energies=n, max_value=4, copies=2, hand_size=2)
    assert rules.energies_in_play == ENERGY_ORDER[:n]
    state = new_game(rules=rules)
    assert {c.energy for c in state.deck} == set(ENERGY_ORDER[:n])
    assert len(state.board(0)) == 2 * n


def test_r2_standard_deck_is_40_cards_each_energy_value_twice() -> None:
    state = new_game()
    assert state.deck_size == 40
    assert Counter(state.deck) == full_deck(STANDARD)
    assert set(Counter(state.deck).values()) == {2}
    assert {c.value for c in state.deck} == {1, 2, 3, 4}


def test_r2_scaled_deck_follows_the_rules_parameters() -> None:
    rules = Rules(energies=2, max_value=3, copies=3, hand_size=2)
    state = new_game(rules=rules)
    # 2 energies x values 1..3 x 3 copies = 18 cards.
    assert state.deck_size == 18
    assert rules.deck_size == 18
    assert Counter(state.deck) == full_deck(rules)


def test_r2_deck_and_cards_are_listed_in_canonical_order() -> None:
    state = new_game()
    assert list(state.deck) == sorted(state.deck, key=card_key)
    assert list(STANDARD.cards) == sorted(set(state.deck), key=card_key)
    # Column first, then value: WIND 1 comes after every SOLAR and GEOTHERMAL card.
    assert sorted(cards("W1", "S4", "S2", "G1")) == cards("S2", "S4", "G1", "W1")


def test_r2_equal_cards_are_interchangeable() -> None:
    assert Card(S, 1) == Card(S, 1)
    assert hash(Card(S, 1)) == hash(Card(S, 1))
    state = deal(cards("S1", "S1", "G2", "W3", "H4"), cards("S2", "S2", "G3", "W4", "B1"))
    assert state.hand(0).count(Card(S, 1)) == 2
    # Two equal cards give one Discard move (R2, R34), which spends one copy.
    assert legal_moves(state).count(Discard(Card(S, 1))) == 1
    after = apply(state, Discard(Card(S, 1)))
    assert after.hand(0).count(Card(S, 1)) == 1
    assert after.discards == (Card(S, 1),)


def test_r3_tech_deck_holds_one_of_each_in_canonical_order() -> None:
    assert new_game().tech_deck == TECH_ORDER
    assert list(Tech) == list(TECH_ORDER)


def test_r3_techs_option_limits_the_tech_deck_keeping_canonical_order() -> None:
    rules = Rules(techs=frozenset({Tech.SMART, Tech.ACCUMULATOR}))
    assert new_game(rules=rules).tech_deck == (Tech.ACCUMULATOR, Tech.SMART)
    assert new_game(rules=Rules(techs=frozenset())).tech_deck == ()


def test_r3_a_drawn_tech_card_goes_to_the_tech_hand_not_the_plant_hand() -> None:
    state = deal(cards("S4", "G1", "G2", "W1", "W2"), cards("S1", "S2", "S3", "G3", "G4"))
    state = apply(state, Construct(card("S4"), cell(0, "S")))
    hand_before = state.hand(0)
    after = take_tech(state, Tech.SMART)
    assert after.hand(0) == hand_before
    assert after.hand_size(0) == 4
    assert after.tech_hand(0) == frozenset({Tech.SMART})
    assert after.tech_hand(1) == frozenset()
    assert after.tech_deck == (Tech.ACCUMULATOR, Tech.SECRET_BUILD, Tech.DOWN)


def test_r4_each_grid_has_two_rows_of_one_cell_per_energy() -> None:
    state = new_game()
    assert len(state.board(0)) == len(state.board(1)) == 10
    assert all(stack is None for stack in state.board(0) + state.board(1))
    assert STANDARD.cells == tuple(Cell(r, e) for r in (0, 1) for e in ENERGY_ORDER)
    assert state.occupied(0) == state.occupied(1) == 0
