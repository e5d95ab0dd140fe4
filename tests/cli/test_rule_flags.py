"""The shared rule-flag parser (issue 13 §3): one vocabulary for every command."""

from __future__ import annotations

import argparse

import attrs
import pytest

from hatsuden_rules import (
    PRINTED,
    STANDARD,
    InvalidRulesError,
    Overflow,
    Rules,
    Tech,
    TechTiming,
    Tiebreak,
)
from hatsuden_rules.cli._flags import (
    PRESETS,
    RULE_FLAGS,
    add_rule_flags,
    enum_parser,
    overrides,
    parse_rules_text,
    parse_techs,
    rules_from_args,
)
from hatsuden_rules.modelcheck import CONFIGS
from hatsuden_rules.notation import format_rules


def parser(**kwargs: object) -> argparse.ArgumentParser:
    result = argparse.ArgumentParser(prog="test", exit_on_error=False)
    add_rule_flags(result, **kwargs)  # type: ignore[arg-type]
    return result


def rules(*argv: str, configs: bool = True) -> Rules:
    p = parser(configs=CONFIGS) if configs else parser()
    return rules_from_args(p.parse_args(argv), default=STANDARD, configs=CONFIGS)


def test_every_rules_field_has_exactly_one_flag() -> None:
    fields = [field.name for field in attrs.fields(Rules) if field.init]
    assert [flag.field for flag in RULE_FLAGS] == fields
    options = [flag.option for flag in RULE_FLAGS]
    assert options == [
        "--energies",
        "--max-value",
        "--copies",
        "--hand-size",
        "--city-demand",
        "--techs",
        "--tiebreak",
        "--retake",
        "--stall-limit",
        "--tech-timing",
        "--overflow",
    ]


def test_no_flag_is_the_default_and_each_flag_replaces_one_field() -> None:
    assert rules() == STANDARD
    assert rules("--energies", "3") == attrs.evolve(STANDARD, energies=3)
    assert rules("--max-value=3", "--copies", "1") == attrs.evolve(STANDARD, max_value=3, copies=1)
    assert rules("--hand-size", "4", "--city-demand", "9") == attrs.evolve(
        STANDARD, hand_size=4, city_demand=9
    )
    assert rules("--no-retake").allow_retake_discard is False
    assert rules("--retake").allow_retake_discard is True
    assert rules("--stall-limit", "none").stall_limit is None
    assert rules("--stall-limit", "OFF").stall_limit is None
    assert rules("--stall-limit", "7").stall_limit == 7
    assert rules("--techs", "none").techs == frozenset()


@pytest.mark.parametrize("spelling", ["supply", "SUPPLY", "Supply", " supply "])
def test_tiebreak_spellings(spelling: str) -> None:
    assert rules("--tiebreak", spelling).tiebreak is Tiebreak.SUPPLY


@pytest.mark.parametrize("spelling", ["city_points", "CITY_POINTS", "city-points", "City-Points"])
def test_city_points_spellings(spelling: str) -> None:
    base = rules("--tiebreak", "supply")
    assert base.tiebreak is Tiebreak.SUPPLY
    assert rules("--tiebreak", "supply", "--tiebreak", spelling).tiebreak is Tiebreak.CITY_POINTS


@pytest.mark.parametrize(
    "spelling",
    [
        "DOWN,ACCUMULATOR",
        "down,accumulator",
        "accumulator, down",
        "Down+Accumulator",
        "DWN,ACC",
        "acc+dwn",
        "down,down,accumulator",
    ],
)
def test_tech_spellings(spelling: str) -> None:
    assert parse_techs(spelling) == frozenset({Tech.DOWN, Tech.ACCUMULATOR})


def test_every_tech_by_value_name_and_code() -> None:
    for tech in Tech:
        for text in (tech.value, tech.name, tech.value.replace("_", "-"), tech.name.lower()):
            assert parse_techs(text) == frozenset({tech})
    assert parse_techs("secret_build,SMART,sec") == frozenset({Tech.SECRET_BUILD, Tech.SMART})


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--tiebreak", "coin"], "expected city_points or supply"),
        (["--techs", "nuclear"], "expected accumulator, secret_build, smart, down"),
        (["--techs", "down,,smart"], "or none"),
        (["--techs", ""], "or none"),
        (["--stall-limit", "x"], "expected an int >= 1 or none"),
        (["--energies", "many"], "expected an int"),
        (["--rules", "5/4/2"], "expected rules notation"),
        (["--rules", "5/4/2/5/10/ACC/coin/retake/20"], "city_points, supply"),
        (["--config", "giant"], "expected small, medium, large"),
        (["--rules", "Medium"], "'Medium' is a named configuration: use --config medium"),
    ],
)
def test_errors_are_one_line_naming_the_accepted_spellings(argv: list[str], needle: str) -> None:
    with pytest.raises(argparse.ArgumentError) as error:
        parser(configs=CONFIGS).parse_args(argv)
    message = str(error.value)
    assert needle in message
    assert "\n" not in message


def test_rules_notation_and_presets() -> None:
    assert rules("--rules", "standard") == STANDARD
    assert rules("--rules", "STANDARD") == STANDARD
    assert set(PRESETS) == {"standard", "printed"}
    assert rules("--rules", "printed") == PRINTED  # R31: no stall rule
    assert rules("--rules", "printed", "--stall-limit", "20") == STANDARD
    text = "2/2/1/1/2/SMT/city_points/noretake/2"
    assert rules("--rules", text) == CONFIGS["medium"]
    assert parse_rules_text(f"  {text} ") == CONFIGS["medium"]
    assert format_rules(rules("--rules", format_rules(CONFIGS["large"]))) == format_rules(
        CONFIGS["large"]
    )


def test_individual_flags_override_the_base_of_rules_or_config() -> None:
    medium = CONFIGS["medium"]
    assert rules("--config", "medium") == medium
    assert rules("--config", "Medium", "--stall-limit", "3") == attrs.evolve(medium, stall_limit=3)
    notation = format_rules(medium)
    assert rules("--rules", notation, "--tiebreak", "supply", "--retake") == attrs.evolve(
        medium, tiebreak=Tiebreak.SUPPLY, allow_retake_discard=True
    )
    # The order on the command line does not matter: flags always apply on top of the base.
    assert rules("--techs", "down", "--config", "large") == attrs.evolve(
        CONFIGS["large"], techs=frozenset({Tech.DOWN})
    )


def test_rules_and_config_together_is_an_error() -> None:
    with pytest.raises(argparse.ArgumentError, match="not allowed with argument"):
        parser(configs=CONFIGS).parse_args(["--rules", "standard", "--config", "small"])


def test_without_configs_there_is_no_config_flag() -> None:
    _, rest = parser().parse_known_args(["--config", "small"])
    assert rest == ["--config", "small"]


def test_a_repeatable_config() -> None:
    args = parser(configs=CONFIGS, repeat_config=True).parse_args(
        ["--config", "small", "--config", "medium", "--copies", "2"]
    )
    assert args.config == ["small", "medium"]
    assert overrides(args) == {"copies": 2}


def test_overrides_tell_none_from_absent() -> None:
    args = parser().parse_args(["--stall-limit", "none"])
    assert overrides(args) == {"stall_limit": None}
    assert overrides(parser().parse_args([])) == {}


def test_an_impossible_combination_names_the_field() -> None:
    with pytest.raises(InvalidRulesError) as error:
        rules("--max-value", "12")
    assert error.value.field == "max_value"
    with pytest.raises(InvalidRulesError) as error:
        rules("--config", "small", "--hand-size", "9")
    assert error.value.field == "hand_size"


def test_enum_parser_works_for_any_enumeration() -> None:
    # A new Rules enumeration field (issue 15) is one `enum_flag` entry: its parser is generic.
    parse = enum_parser(Tech, "tech card")
    assert parse("Secret-Build") is Tech.SECRET_BUILD
    assert parse("SMART") is Tech.SMART
    with pytest.raises(argparse.ArgumentTypeError, match="expected accumulator, secret_build"):
        parse("x")


def test_rule_variant_flags() -> None:
    """R40 and R41 have flags of their own, in every spelling of an enumeration."""
    for spelling in ("place-at-once", "PLACE_AT_ONCE", "place_at_once"):
        assert rules("--tech-timing", spelling).tech_timing is TechTiming.PLACE_AT_ONCE
    assert rules("--overflow", "any-set").overflow is Overflow.ANY_SET
    assert rules("--overflow", "ONE_AT_A_TIME") == STANDARD
    variant = rules("--rules", "printed", "--tech-timing", "place_at_once", "--overflow", "any_set")
    assert variant == Rules(
        stall_limit=None, tech_timing=TechTiming.PLACE_AT_ONCE, overflow=Overflow.ANY_SET
    )
    with pytest.raises(argparse.ArgumentError) as error:
        rules("--overflow", "all")
    assert "one_at_a_time" in str(error.value)
    assert "any_set" in str(error.value)


@pytest.mark.parametrize(
    "text",
    [
        "standard",
        "1/2/2/1/1/ACC/city_points/noretake/2",
        "5/4/2/5/10/-/supply/noretake/off/place_at_once/any_set",
    ],
)
def test_the_checkers_rules_line_is_spelled_as_a_user_writes_rules(text: str) -> None:
    """Issue 23: not ``techs=ACCUMULATOR tiebreak=CITY_POINTS retake=False``."""
    from hatsuden_rules.modelcheck._report import rules_line

    expected = parse_rules_text(text)
    line = rules_line(expected)
    notation, _, flags = line.partition(" (")
    assert notation == format_rules(expected)
    assert rules(*flags.rstrip(")").split(), configs=False) == expected  # the flags read back
    for python_spelling in ("ACCUMULATOR", "CITY_POINTS", "=True", "=False", "allow_retake"):
        assert python_spelling not in flags
