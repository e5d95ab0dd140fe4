"""Scalable rules and their validation (R31)."""

from __future__ import annotations

from typing import Any

import pytest

from hatsuden_rules import (
    STANDARD,
    Construct,
    DeclineTech,
    Flip,
    HatsudenError,
    InvalidRulesError,
    Phase,
    Rules,
    Tech,
    Tiebreak,
    apply,
    new_game,
)

from .scripting import card, cell, play, script


def test_r31_standard_is_the_printed_game() -> None:
    assert Rules() == STANDARD
    assert hash(Rules()) == hash(STANDARD)
    assert STANDARD.energies == 5
    assert STANDARD.max_value == 4
    assert STANDARD.copies == 2
    assert STANDARD.hand_size == 5
    assert STANDARD.city_demand == 10
    assert STANDARD.techs == frozenset(Tech)
    assert STANDARD.tiebreak is Tiebreak.CITY_POINTS
    assert STANDARD.allow_retake_discard is True
    assert STANDARD.stall_limit == 20


def test_r31_derived_values() -> None:
    rules = Rules(city_demand=7, max_value=3)
    assert rules.tolerance == 8
    assert rules.accumulator_tolerance == 9
    assert rules.penalty_threshold == 5
    assert Rules(max_value=3) != STANDARD


@pytest.mark.parametrize(
    ("kwargs", "fields"),
    [
        ({"energies": 0}, {"energies"}),
        ({"energies": 6}, {"energies"}),
        ({"energies": "2"}, {"energies"}),
        ({"energies": True}, {"energies"}),
        ({"energies": 2.0}, {"energies"}),
        ({"max_value": 0}, {"max_value"}),
        ({"max_value": "4"}, {"max_value"}),
        ({"copies": 0}, {"copies"}),
        ({"copies": None}, {"copies"}),
        ({"hand_size": 0}, {"hand_size"}),
        ({"hand_size": 3.5}, {"hand_size"}),
        # 5 x 4 x 2 = 40 cards cannot deal two hands of 21.
        ({"hand_size": 21}, {"hand_size", "energies", "max_value", "copies"}),
        (
            {"energies": 1, "max_value": 2, "copies": 1, "hand_size": 2},
            {"hand_size", "energies", "max_value", "copies"},
        ),
        ({"city_demand": "10"}, {"city_demand"}),
        ({"city_demand": 2.5}, {"city_demand"}),
        # max_value must be at most city_demand + 1.
        ({"max_value": 12}, {"max_value", "city_demand"}),
        ({"max_value": 5, "city_demand": 3}, {"max_value", "city_demand"}),
        ({"stall_limit": 0}, {"stall_limit"}),
        ({"stall_limit": -3}, {"stall_limit"}),
        ({"stall_limit": "20"}, {"stall_limit"}),
        ({"stall_limit": 2.0}, {"stall_limit"}),
        ({"techs": "ACCUMULATOR"}, {"techs"}),
        ({"techs": frozenset({"accumulator"})}, {"techs"}),
        ({"techs": 4}, {"techs"}),
        ({"tiebreak": "supply"}, {"tiebreak"}),
        ({"tiebreak": None}, {"tiebreak"}),
        ({"allow_retake_discard": 1}, {"allow_retake_discard"}),
        ({"allow_retake_discard": None}, {"allow_retake_discard"}),
    ],
)
def test_r31_invalid_rules_raise_invalid_rules_error_naming_the_field(
    kwargs: dict[str, Any], fields: set[str]
) -> None:
    with pytest.raises(InvalidRulesError) as info:
        Rules(**kwargs)
    error = info.value
    assert isinstance(error, ValueError)
    assert isinstance(error, HatsudenError)
    assert error.field in fields
    assert error.field in str(error)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"energies": 1, "max_value": 2, "copies": 1, "hand_size": 1},  # deck 2 = 2 x 1
        {"energies": 5, "max_value": 1, "copies": 2, "hand_size": 5},  # deck 10 = 2 x 5
        {"max_value": 11},  # = city_demand + 1
        {"max_value": 4, "city_demand": 3},  # = city_demand + 1
        {"stall_limit": 1},
        {"stall_limit": None},
        {"techs": frozenset()},
        {"techs": frozenset({Tech.DOWN})},
        {"tiebreak": Tiebreak.SUPPLY},
        {"allow_retake_discard": False},
    ],
)
def test_r31_valid_edge_cases_are_accepted(kwargs: dict[str, Any]) -> None:
    rules = Rules(**kwargs)
    state = new_game(rules=rules)
    assert state.deck_size == rules.energies * rules.max_value * rules.copies


def test_r31_city_demand_must_be_at_least_one() -> None:
    # Ruling C10: a city that demands nothing is not a game, so R31 requires city_demand >= 1,
    # even where max_value <= city_demand + 1 would allow 0.
    with pytest.raises(InvalidRulesError) as error:
        Rules(max_value=1, city_demand=0)
    assert error.value.field == "city_demand"
    rules = Rules(max_value=1, city_demand=1)
    assert rules.tolerance == 2
    assert new_game(rules=rules).deck_size == 10


def test_r31_the_tech_trigger_value_is_max_value() -> None:
    rules = Rules(max_value=3)
    state = script([], [], rules=rules, hold0=[card("S3")])
    assert apply(state, Construct(card("S3"), cell(0, "S"))).phase is Phase.TECH


def test_r31_tolerance_follows_city_demand() -> None:
    # city_demand 4: tolerance 5. Row 0: S2, then G4 makes 6 > 5.
    rules = Rules(energies=2, max_value=4, copies=4, hand_size=3, city_demand=4)
    state = script([[Construct(card("S2"), cell(0, "S"))]], [[]], rules=rules, hold0=[card("G4")])
    state = play(state, Construct(card("G4"), cell(0, "G")), DeclineTech())
    assert state.phase is Phase.OVERFLOW
    assert state.tolerance(0, 0) == 5
    state = apply(state, Flip(cell(0, "S")))
    assert state.phase is Phase.DRAW
    assert state.row_supply(0, 0) == 4


@pytest.mark.parametrize(
    "rules",
    [
        STANDARD,
        Rules(techs=()),
        Rules(techs={Tech.DOWN, Tech.ACCUMULATOR}, tiebreak=Tiebreak.SUPPLY, stall_limit=None),
        Rules(energies=2, max_value=2, copies=1, hand_size=1, city_demand=2),
    ],
)
def test_r31_repr_is_canonical_and_evaluates_back(rules: Rules) -> None:
    import hatsuden_rules

    namespace = {name: getattr(hatsuden_rules, name) for name in hatsuden_rules.__all__}
    text = repr(rules)
    assert eval(text, namespace) == rules
    listed = [t for t in Tech if t in rules.techs]
    assert text.count("Tech.") == len(listed)
    positions = [text.index(repr(t)) for t in listed]
    assert positions == sorted(positions)  # canonical tech order (R3), whatever the hashes
