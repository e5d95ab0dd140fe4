"""Details of the contract that coarser tests let slip (found by mutation testing, R20-R35)."""

from __future__ import annotations

import attrs
import pytest

from hatsuden_rules import (
    Construct,
    Decision,
    Discard,
    Downsize,
    DrawFromDiscard,
    Improve,
    InvalidInputError,
    Pass,
    Rules,
    SplitMix64,
    Tech,
    is_legal,
    legal_moves,
    new_game,
    sample,
    score,
)

from .reference import RefSplitMix64, ref_sample
from .scripting import card, cell, deal, draw, play, take_tech

ONE = Rules(energies=1, max_value=4, copies=2, hand_size=2, city_demand=4, techs=())


@pytest.mark.parametrize(
    "weights", [[1, 3], [3, 1], [2, 1, 1], [1, 1, 1, 1, 1], [5], [0, 2, 0, 1], [1, 0, 4]]
)
def test_r33_sample_agrees_with_the_reference_for_every_remainder(weights: list[int]) -> None:
    for seed in range(120):  # 120 seeds cover every remainder r of small totals
        index, _ = sample(weights, SplitMix64.from_seed(seed))
        outcomes = list(enumerate(weights))
        assert index == ref_sample(outcomes, RefSplitMix64(seed)), (seed, weights)


@pytest.mark.parametrize("weights", [[], [1, -1], [2, True], [0]])
def test_r33_sample_rejects_weights_that_are_no_distribution(weights: list[int]) -> None:
    with pytest.raises(InvalidInputError) as caught:
        sample(weights, SplitMix64(0))
    assert caught.value.field == "weights"


def test_r33_a_single_outcome_is_drawn_and_still_consumes_one_output() -> None:
    index, rng = sample([1], SplitMix64(7))
    assert index == 0
    assert rng == SplitMix64(7).next()[1]


def test_r28_both_cities_on_demand_score_two_city_points() -> None:
    state = deal([card("S2"), card("S2")], [card("S1"), card("S1")], ONE)
    # Demand 4 with one column: a row of a single 4 is on demand; build one per row.
    state = play(state, Construct(card("S2"), cell(0, "S")))
    state = draw(state, card("S4"))
    state = play(state, Discard(card("S1")), DrawFromDiscard(card("S1")))
    state = play(state, Improve(card("S4"), cell(0, "S")))
    assert state.phase.name == "DRAW"  # no tech cards in play: no TECH phase
    state = draw(state, card("S4"))
    state = play(state, Discard(card("S1")), DrawFromDiscard(card("S1")))
    state = play(state, Construct(card("S4"), cell(1, "S")))
    sheet = score(state)
    assert sheet.players[0].row_supply == (4, 4)
    assert sheet.players[0].city_points == 2  # +1 for each city at exactly 4 (R28)
    assert sheet.players[1].city_points == -2  # two empty cities, each at most demand - 2


def test_r29_a_higher_total_of_player_one_wins_by_total() -> None:
    state = deal([card("S1"), card("S1")], [card("S4"), card("S3")], ONE)
    state = play(state, Discard(card("S1")), DrawFromDiscard(card("S1")))
    state = play(state, Construct(card("S4"), cell(0, "S")))
    sheet = score(state)
    assert sheet.players[1].total > sheet.players[0].total
    assert (sheet.winner, sheet.decided_by) == (1, Decision.TOTAL)


def test_is_legal_says_yes_and_no() -> None:
    state = new_game(seed=4)
    assert all(is_legal(state, move) for move in legal_moves(state))
    assert not is_legal(state, Pass())


def test_r13_downsize_is_offered_against_the_top_card_of_an_improved_plant() -> None:
    rules = Rules(energies=2, max_value=4, copies=2, hand_size=2, city_demand=10, techs={Tech.DOWN})
    state = deal([card("S4"), card("G1")], [card("G1"), card("G2")], rules)
    state = take_tech(play(state, Construct(card("S4"), cell(0, "S"))), Tech.DOWN)
    state = draw(state, card("G3"))
    idle = (Discard(card("G1")), DrawFromDiscard(card("G1")))
    state = draw(play(play(state, *idle), Construct(card("G1"), cell(1, "G"))), card("G4"))
    state = draw(play(play(state, *idle), Improve(card("G3"), cell(1, "G"))), card("G2"))
    state = play(state, *idle)
    assert Downsize(card("G2"), cell(1, "G")) in legal_moves(state)  # 2 under 3, above 1


def test_the_repr_of_a_state_summarises_it() -> None:
    seeded = new_game(seed=1)
    assert repr(seeded) == (
        "<GameState ACTION player=0 hands=5/5 deck=30 discards=0 cells=0/0 stall=0 seeded>"
    )
    explicit = new_game(rules=attrs.evolve(ONE, stall_limit=None))
    assert repr(explicit) == (
        "<GameState CHANCE player=0 hands=0/0 deck=8 discards=0 cells=0/0 stall=0>"
    )
    state = play(deal([card("S1"), card("S2")], [card("S3"), card("S4")], ONE), Discard(card("S1")))
    state = play(state, DrawFromDiscard(card("S1")), Construct(card("S3"), cell(1, "S")))
    assert repr(state) == "<GameState DRAW player=1 hands=2/1 deck=4 discards=0 cells=0/1 stall=1>"
