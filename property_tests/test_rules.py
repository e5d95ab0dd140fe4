"""R31: `Rules` validation, and the strategy of valid rule sets the other properties use."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from hatsuden_rules import STANDARD, InvalidRulesError, Rules, Tech, Tiebreak, new_game

from .oracle import cells_of, distinct_cards, energies_in_play, full_deck
from .strategies import budget, valid_rules


def r31_violations(
    energies: int, max_value: int, copies: int, hand_size: int, city_demand: int, stall: int | None
) -> set[str]:
    """The fields R31 names as invalid for these values (empty: a valid rule set).

    When several conditions fail, any of the fields involved may be the one named.
    """
    bad = set()
    if not 1 <= energies <= 5:
        bad.add("energies")
    for name, value in (
        ("max_value", max_value),
        ("copies", copies),
        ("hand_size", hand_size),
        ("city_demand", city_demand),  # Ruling C10
    ):
        if value < 1:
            bad.add(name)
    if not bad and energies * max_value * copies < 2 * hand_size:
        bad |= {"energies", "max_value", "copies", "hand_size"}
    if max_value > city_demand + 1:
        bad |= {"max_value", "city_demand"}
    if max_value > 11:  # no card has a higher value (R2; RULES_VERSION 4)
        bad.add("max_value")
    if stall is not None and stall < 1:
        bad.add("stall_limit")
    return bad


small_ints = st.integers(-2, 12)


@settings(max_examples=budget(2.0, at_least=50))
@given(
    energies=st.integers(-1, 7),
    max_value=small_ints,
    copies=st.integers(-1, 3),
    hand_size=st.integers(-1, 8),
    city_demand=small_ints,
    stall=st.none() | st.integers(-2, 30),
)
# Found by the ci profile when R31 gained max_value <= 11: a rule set version 3 accepted.
@example(energies=1, max_value=12, copies=1, hand_size=1, city_demand=11, stall=None)
def test_r31_rules_validate_exactly_the_listed_conditions(
    energies: int, max_value: int, copies: int, hand_size: int, city_demand: int, stall: int | None
) -> None:
    """R31, C10: `Rules(...)` is accepted iff every listed condition holds; else a ValueError
    (InvalidRulesError) that names an offending field."""
    bad = r31_violations(energies, max_value, copies, hand_size, city_demand, stall)

    def make() -> Rules:
        return Rules(
            energies=energies,
            max_value=max_value,
            copies=copies,
            hand_size=hand_size,
            city_demand=city_demand,
            stall_limit=stall,
        )

    if bad:
        with pytest.raises(InvalidRulesError) as error:
            make()
        assert isinstance(error.value, ValueError)
        named = str(error.value).split(":", 1)[0]
        assert named == error.value.field
        assert named in bad, (named, bad)
    else:
        _check_derived(make())


def _check_derived(rules: Rules) -> None:
    """R31 derived values, recomputed."""
    assert rules.energies_in_play == energies_in_play(rules), "R1 the first N energies"
    assert rules.cards == distinct_cards(rules), "R2 distinct cards, canonical order"
    assert rules.deck_size == sum(full_deck(rules).values())
    assert rules.cells == cells_of(rules), "R4 cells, row 0 first"
    assert rules.tolerance == rules.city_demand + 1, "R21"
    assert rules.accumulator_tolerance == rules.city_demand + 2, "R19"
    assert rules.penalty_threshold == rules.city_demand - 2, "R28"


@settings(max_examples=budget(1.0))
@given(rules=valid_rules(stall=False))
def test_r31_strategy_draws_valid_rules_and_r7_new_games(rules: Rules) -> None:
    """The strategy only draws rule sets R31 accepts; both modes start as R7 and R8 say."""
    assert not r31_violations(
        rules.energies,
        rules.max_value,
        rules.copies,
        rules.hand_size,
        rules.city_demand,
        rules.stall_limit,
    )
    assert isinstance(rules.tiebreak, Tiebreak)
    assert rules.techs <= set(Tech)
    _check_derived(rules)
    assert (
        Rules(
            energies=rules.energies,
            max_value=rules.max_value,
            copies=rules.copies,
            hand_size=rules.hand_size,
            city_demand=rules.city_demand,
            techs=rules.techs,
            tiebreak=rules.tiebreak,
            allow_retake_discard=rules.allow_retake_discard,
            stall_limit=rules.stall_limit,
            tech_timing=rules.tech_timing,  # R40
            overflow=rules.overflow,  # R41
        )
        == rules
    ), "Rules compare by value"
    explicit = new_game(None, rules)
    assert Counter(explicit.deck) == full_deck(rules), "R7 full deck"
    in_play = tuple(t for t in Tech if t in rules.techs)
    assert explicit.tech_deck == in_play, "R3, R7 full tech deck, canonical order"
    seeded = new_game(7, rules)
    assert seeded.hand_size(0) == seeded.hand_size(1) == rules.hand_size, "R7"
    assert seeded.deck_size == rules.deck_size - 2 * rules.hand_size, "R7"


def test_r31_standard_is_the_printed_game() -> None:
    """R31: STANDARD == Rules(), the printed numbers."""
    assert Rules() == STANDARD
    assert (STANDARD.energies, STANDARD.max_value, STANDARD.copies) == (5, 4, 2)
    assert (STANDARD.hand_size, STANDARD.city_demand, STANDARD.stall_limit) == (5, 10, 20)
    assert STANDARD.techs == frozenset(Tech)
    assert STANDARD.allow_retake_discard
    assert STANDARD.tiebreak is Tiebreak.CITY_POINTS
    assert STANDARD.deck_size == 40
