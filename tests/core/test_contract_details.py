"""Details of the contract that coarser tests let slip (found by mutation testing, R20-R35)."""

from __future__ import annotations

import random

import attrs
import pytest

from hatsuden_rules import (
    STANDARD,
    BuildPylon,
    Cell,
    Construct,
    Deal,
    Decision,
    Discard,
    Downsize,
    DrawFromDeck,
    DrawFromDiscard,
    Energy,
    Flip,
    IllegalMoveError,
    Improve,
    InvalidInputError,
    InvalidRulesError,
    Pass,
    Phase,
    PlaceSmart,
    Rules,
    SplitMix64,
    Tech,
    apply,
    is_legal,
    legal_moves,
    new_game,
    sample,
    score,
)
from tests.support.reference import RefSplitMix64, ref_sample
from tests.support.scripting import card, cell, deal, draw, play, take_tech

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


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"energies": 6}, "energies", "must be between 1 and 5, got 6 (R31)"),
        ({"energies": 0}, "energies", "must be an int >= 1, got 0 (R31)"),
        ({"max_value": True}, "max_value", "must be an int >= 1, got True (R31)"),
        (
            {"max_value": 12},
            "max_value",
            "must be <= city_demand + 1 = 11, got 12, or an overflow could not be resolved"
            " (R21, R31)",
        ),
        (
            {"energies": 1, "max_value": 1, "copies": 1},
            "hand_size",
            "the deck of 1 cards cannot deal two hands of 5 (R31)",
        ),
        ({"techs": "SMART"}, "techs", "must be a set of Tech, got 'SMART' (R31)"),
        ({"techs": ["SMART"]}, "techs", "must hold Tech members only, got 'SMART' (R31)"),
        ({"tiebreak": "supply"}, "tiebreak", "must be a Tiebreak, got 'supply' (R31)"),
        ({"allow_retake_discard": 1}, "allow_retake_discard", "must be a bool, got 1 (R31)"),
        ({"stall_limit": 0}, "stall_limit", "must be None or an int >= 1, got 0 (R31)"),
    ],
)
def test_r31_every_invalid_field_is_named_with_its_reason(
    fields: dict[str, object], field: str, message: str
) -> None:
    with pytest.raises(InvalidRulesError) as caught:
        Rules(**fields)  # type: ignore[arg-type]
    assert caught.value.field == field
    assert str(caught.value) == f"{field}: {message}"


def test_r31_the_repr_of_rules_without_tech_cards() -> None:
    assert repr(Rules(techs=())) == (
        "Rules(energies=5, max_value=4, copies=2, hand_size=5, city_demand=10, techs=frozenset(),"
        " tiebreak=Tiebreak.CITY_POINTS, allow_retake_discard=True, stall_limit=20)"
    )


TECHY = Rules(energies=2, max_value=1, copies=3, hand_size=2, city_demand=1)  # every build is a 4


@pytest.mark.parametrize("rules", [STANDARD, TECHY])
def test_r34_rules_built_now_offer_the_same_moves_as_rules_built_at_import(rules: Rules) -> None:
    """Each `Rules` builds its own move tables; two equal rule sets must play identically."""
    fresh = attrs.evolve(rules)  # an equal Rules, with move tables of its own
    assert fresh == rules
    assert fresh is not rules
    choose = random.Random(3)
    kinds: set[str] = set()
    for game in range(12):
        seed = game if game % 2 else None  # seeded and explicit chance mode
        a, b = new_game(seed=seed, rules=rules), new_game(seed=seed, rules=fresh)
        while not a.is_over:
            moves = legal_moves(a)
            assert legal_moves(b) == moves
            move = choose.choice(moves)
            kinds.add(type(move).__name__)
            a, b = apply(a, move), apply(b, move)
        assert score(a) == score(b)
    if rules is TECHY:  # the tables of tech moves were exercised too
        assert {"DealTech", "PlaceAccumulator", "DrawTech"} <= kinds


def test_r21_a_flip_in_a_seeded_game_keeps_the_generator() -> None:
    choose = random.Random(5)
    flips = 0
    for seed in range(40):
        state = new_game(seed=seed)
        while not state.is_over:
            move = choose.choice(legal_moves(state))
            state = apply(state, move)
            if isinstance(move, Flip):
                flips += 1
                assert state.is_seeded
                assert state.phase in (Phase.OVERFLOW, Phase.DRAW)
    assert flips > 0


def test_r21_flip_needs_a_plant_of_the_overflowing_row() -> None:
    small = Rules(energies=3, max_value=4, copies=2, hand_size=2, city_demand=3, techs=())
    state = deal([card("S4"), card("W4")], [card("G1"), card("G2")], small)
    state = draw(play(state, BuildPylon(card("S4"), cell(0, "S"))), card("G4"))
    state = play(state, Discard(card("G1")), DrawFromDiscard(card("G1")))
    state = draw(play(state, Construct(card("G4"), cell(0, "G"))), card("S1"))  # row 0: 4
    state = play(state, Discard(card("G1")), DrawFromDiscard(card("G1")))
    over = apply(state, Construct(card("W4"), cell(0, "W")))  # 8 > 4
    for target, reason in (
        (cell(0, "S"), "Flip needs a plant, and Cell(row=0, energy=Energy.SOLAR) is a pylon"),
    ):
        move = Flip(target)
        with pytest.raises(IllegalMoveError) as caught:
            apply(over, move)
        assert (caught.value.rule, caught.value.reason, caught.value.move) == ("R21", reason, move)
    bad = Flip(Cell(0, Energy.HYDRO))
    with pytest.raises(IllegalMoveError) as caught:
        apply(over, bad)
    assert caught.value.move is bad
    assert caught.value.rule == "R1"


def test_r22_a_placement_keeps_the_card_discarded_this_turn_barred() -> None:
    rules = Rules(
        energies=2,
        max_value=4,
        copies=2,
        hand_size=2,
        city_demand=10,
        techs={Tech.SMART},
        allow_retake_discard=False,
    )
    state = deal([card("S4"), card("S1")], [card("G1"), card("G2")], rules)
    state = take_tech(play(state, Construct(card("S4"), cell(0, "S"))), Tech.SMART)
    state = draw(state, card("S2"))
    state = play(state, Discard(card("G1")), DrawFromDeck(), Deal(card("G3")))
    state = play(state, Discard(card("S1")), PlaceSmart(Energy.SOLAR))
    assert DrawFromDiscard(card("S1")) not in legal_moves(state)
    assert DrawFromDiscard(card("G1")) in legal_moves(state)


def test_r13_downsize_on_the_row_zero_plant_judges_its_top_card() -> None:
    rules = Rules(energies=2, max_value=4, copies=2, hand_size=2, city_demand=10, techs={Tech.DOWN})
    state = deal([card("S4"), card("G1")], [card("G1"), card("G2")], rules)
    state = take_tech(play(state, Construct(card("S4"), cell(1, "S"))), Tech.DOWN)
    state = draw(state, card("G3"))
    idle = (Discard(card("G1")), DrawFromDiscard(card("G1")))
    state = draw(play(play(state, *idle), Construct(card("G1"), cell(0, "G"))), card("G4"))
    state = draw(play(play(state, *idle), Improve(card("G3"), cell(0, "G"))), card("G2"))
    state = play(state, *idle)
    assert Downsize(card("G2"), cell(0, "G")) in legal_moves(state)
    move = Downsize(card("G4"), cell(0, "G"))
    with pytest.raises(IllegalMoveError) as caught:
        apply(state, move)
    assert caught.value.reason == "Downsize needs a strictly lower value than the top card (4 on 3)"
