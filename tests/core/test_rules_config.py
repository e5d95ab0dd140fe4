"""Scalable rules and their validation (R31)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from hatsuden_rules import (
    FORMAT_VERSION,
    PRINTED,
    STANDARD,
    Construct,
    DeclineTech,
    Discard,
    DrawFromDiscard,
    Flip,
    HatsudenError,
    InvalidDocumentError,
    InvalidRulesError,
    NotationError,
    Overflow,
    Phase,
    Rules,
    Tech,
    TechTiming,
    Tiebreak,
    apply,
    format_record,
    format_rules,
    from_dict,
    from_json,
    new_game,
    parse_record,
    parse_rules,
    record_game,
    to_dict,
    to_json,
)
from hatsuden_rules.modelcheck.termination import (
    TERMINATION_CONFIGS,
    TerminationResult,
    find_endless_game,
    golden_record,
    project,
)
from tests.support.paths import GOLDEN_DIR
from tests.support.scripting import card, cell, play, script


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


# -------------------------------------------------------------------------------------------------
# The variant options as `Rules` fields (R31, R40, R41), the PRINTED preset, and endless games.
#
# Each option is validated, written in rules notation and JSON only when it is not at its
# default (so every document of earlier versions reads and writes as before), and STANDARD
# stays the game it was.


TERMINATION_GOLDEN = json.loads((GOLDEN_DIR / "termination.json").read_text())["configs"]


@cache
def endless(name: str) -> TerminationResult:
    return find_endless_game(TERMINATION_CONFIGS[name])


BOTH = Rules(tech_timing=TechTiming.PLACE_AT_ONCE, overflow=Overflow.ANY_SET)


def test_r31_the_defaults_are_the_library_s_rulings() -> None:
    assert STANDARD.tech_timing is TechTiming.KEEP  # R40
    assert STANDARD.overflow is Overflow.ONE_AT_A_TIME  # R41
    assert [t.value for t in TechTiming] == ["keep", "place_at_once"]
    assert [o.value for o in Overflow] == ["one_at_a_time", "any_set"]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("tech_timing", "keep", "must be a TechTiming, got 'keep' (R31)"),
        ("tech_timing", None, "must be a TechTiming, got None (R31)"),
        ("overflow", Overflow.ANY_SET.value, "must be a Overflow, got 'any_set' (R31)"),
        ("overflow", TechTiming.KEEP, "must be a Overflow, got TechTiming.KEEP (R31)"),
    ],
)
def test_r31_each_variant_field_is_validated(field: str, value: object, message: str) -> None:
    with pytest.raises(InvalidRulesError) as info:
        Rules(**{field: value})  # type: ignore[arg-type]
    assert info.value.field == field
    assert str(info.value) == f"{field}: {message}"


def test_r31_printed_is_standard_without_the_stall_rule() -> None:
    # R25: the stall rule is a ruling; retaking one's own discard is printed (001 III: "you
    # may choose to draw one of these"), so PRINTED allows it like STANDARD.
    assert Rules(stall_limit=None) == PRINTED
    assert PRINTED.allow_retake_discard is True
    assert PRINTED.tech_timing is TechTiming.KEEP
    assert PRINTED.overflow is Overflow.ONE_AT_A_TIME
    assert format_rules(PRINTED) == "5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/off"


@pytest.mark.parametrize(
    ("rules", "text"),
    [
        (STANDARD, "5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20"),
        (
            Rules(tech_timing=TechTiming.PLACE_AT_ONCE),
            "5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20/place_at_once",
        ),
        (
            Rules(overflow=Overflow.ANY_SET),
            "5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20/any_set",
        ),
        (BOTH, "5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20/place_at_once/any_set"),
    ],
)
def test_r31_rules_notation_writes_a_variant_only_when_it_is_on(rules: Rules, text: str) -> None:
    assert format_rules(rules) == text
    assert parse_rules(text) == rules


@pytest.mark.parametrize(
    ("text", "position", "reason"),
    [
        ("5/4/2/5/10/-/city_points/retake/20/keep", 35, "keep is a default"),
        ("5/4/2/5/10/-/city_points/retake/20/one_at_a_time", 35, "one_at_a_time is a default"),
        ("5/4/2/5/10/-/city_points/retake/20/any_set/place_at_once", 43, "tech_timing first"),
        ("5/4/2/5/10/-/city_points/retake/20/any_set/any_set", 43, "once each"),
        ("5/4/2/5/10/-/city_points/retake/20/anyset", 34, "unexpected '/anyset'"),
        ("5/4/2/5/10/-/city_points/retake/20/", 34, "unexpected '/'"),
    ],
)
def test_r31_rules_notation_refuses_non_canonical_variants(
    text: str, position: int, reason: str
) -> None:
    with pytest.raises(NotationError) as info:
        parse_rules(text)
    assert info.value.position == position
    assert reason in str(info.value)


def test_r31_json_writes_a_variant_only_when_it_is_on() -> None:
    assert "tech_timing" not in to_dict(STANDARD)
    assert "overflow" not in to_dict(STANDARD)
    document = to_dict(BOTH)
    assert document["tech_timing"] == "place_at_once"
    assert document["overflow"] == "any_set"
    assert from_json(to_json(BOTH)) == BOTH
    assert FORMAT_VERSION == 1  # additive: optional keys, no new version (see NOTATION.md)


def test_r31_older_documents_still_load_with_the_defaults() -> None:
    # A rules document as version 0.2.0 wrote it (no variant keys).
    old = (
        '{"type":"rules","format_version":1,"energies":5,"max_value":4,"copies":2,'
        '"hand_size":5,"city_demand":10,"techs":["accumulator","secret_build","smart","down"],'
        '"tiebreak":"city_points","allow_retake_discard":true,"stall_limit":20}'
    )
    assert from_json(old) == STANDARD
    assert to_json(STANDARD) == old  # and STANDARD is still written byte for byte the same
    explicit = json.loads(old) | {"tech_timing": "keep", "overflow": "one_at_a_time"}
    assert from_dict(explicit) == STANDARD  # the defaults may also be spelled out


@pytest.mark.parametrize(
    ("key", "value", "path"),
    [
        ("tech_timing", "at_once", "$.tech_timing"),
        ("tech_timing", True, "$.tech_timing"),
        ("overflow", "any", "$.overflow"),
        ("overflows", "any_set", "$.overflows"),
    ],
)
def test_r31_a_bad_variant_in_json_names_its_path(key: str, value: object, path: str) -> None:
    document = to_dict(STANDARD) | {key: value}
    with pytest.raises(InvalidDocumentError) as info:
        from_dict(document)
    assert info.value.field == path


def test_r31_the_repr_shows_variants_only_when_on() -> None:
    import hatsuden_rules

    assert "tech_timing" not in repr(STANDARD)
    text = repr(BOTH)
    assert text.endswith(
        "stall_limit=20, tech_timing=TechTiming.PLACE_AT_ONCE, overflow=Overflow.ANY_SET)"
    )
    namespace = {name: getattr(hatsuden_rules, name) for name in hatsuden_rules.__all__}
    assert eval(text, namespace) == BOTH


def test_r31_records_carry_the_variants() -> None:
    state = new_game(seed=3, rules=BOTH)
    moves = []
    for _ in range(3):
        card = state.hand(state.current_player)[0]
        for move in (Discard(card), DrawFromDiscard(card)):
            moves.append(move)
            state = apply(state, move)
    record = record_game(moves, seed=3, rules=BOTH)
    text = format_record(record)
    assert (
        '[Rules "5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20/place_at_once/any_set"]' in text
    )
    assert parse_record(text) == record
    assert from_json(to_json(record)) == record


def test_r25_the_printed_game_admits_a_game_that_never_ends() -> None:
    # Under PRINTED (no stall rule) two players may discard a card and take it back forever:
    # after one round the state repeats, apart from the stall counter, which decides nothing.
    state = new_game(seed=2017, rules=PRINTED)
    states = []
    for _ in range(3):
        for _player in (0, 1):
            card = state.hand(state.current_player)[0]
            state = apply(apply(state, Discard(card)), DrawFromDiscard(card))
        states.append(state)
    assert states[1] != states[2]  # the counter grows: 4 and 6 turns without a placement
    assert (states[1].stall_count, states[2].stall_count) == (4, 6)
    assert project(states[1]) == project(states[2])  # the same position, again and again
    assert states[2].phase is Phase.ACTION
    with_stall = new_game(seed=2017, rules=STANDARD)
    for _ in range(20):  # R25: with the stall rule the same play ends after 20 turns
        card = with_stall.hand(with_stall.current_player)[0]
        with_stall = apply(apply(with_stall, Discard(card)), DrawFromDiscard(card))
    assert with_stall.is_over


def test_r25_the_model_checker_finds_the_shortest_endless_game() -> None:
    result = endless("printed-small")
    assert result.complete
    assert result.endless
    assert len(result.cycle) == 4  # two turns: each player discards a card and takes it back
    assert result.cycle_turns == 2
    state = new_game(rules=result.rules)
    for move in result.prefix:
        state = apply(state, move)
    start = state
    for move in result.cycle:
        state = apply(state, move)
    assert project(state) == project(start)  # back where it started
    assert state.stall_count == start.stall_count + 2


def test_r25_with_the_stall_rule_every_game_ends() -> None:
    result = endless("small-stall")
    assert result.complete
    assert not result.endless
    assert result.cyclic_states == 0
    assert result.longest_game is not None


@pytest.mark.parametrize("name", ["printed-small", "printed-small-noretake", "small-stall"])
def test_r25_termination_figures_match_the_golden_file(name: str) -> None:
    """`make verify-variants` compares every configuration, printed-medium too."""
    assert golden_record(endless(name)) == TERMINATION_GOLDEN[name]


def test_r22_r25_forbidding_the_retake_does_not_end_every_game() -> None:
    # With two copies, the other copy of the card just discarded may be taken (R22, A7).
    result = endless("printed-small-noretake")
    assert result.endless
    assert len(result.cycle) == 4
    assert {type(move).__name__ for move in result.cycle} == {"Discard", "DrawFromDiscard"}
