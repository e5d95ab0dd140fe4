"""The exhaustive check of the small configuration, against the golden numbers (R1-R35).

`make test` visits every reachable state of CONFIGS["small"], checking every invariant and
transition property of RULES.md on each, and compares the counts with tests/golden/. A change
of the rules changes these numbers: update the golden file deliberately, with RULES_VERSION.
`make verify` does the same for the medium configuration.
"""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache
from typing import Any

import pytest

from hatsuden_rules import Rules, Tech
from hatsuden_rules.modelcheck import (
    CONFIGS,
    CheckResult,
    check,
    game_value,
    perft,
    required_events,
)
from hatsuden_rules.modelcheck._report import golden_record, rules_json
from tests.support.paths import GOLDEN_DIR

_FILE = json.loads((GOLDEN_DIR / "modelcheck.json").read_text())
GOLDEN: dict[str, dict[str, Any]] = _FILE["configs"]
VALUES: dict[str, str] = _FILE["values"]


@cache
def small() -> CheckResult:
    return check(CONFIGS["small"])


def test_the_small_configuration_is_checked_completely_and_correct() -> None:
    result = small()
    assert result.result == "OK", result.violations
    assert result.violations == ()
    assert result.longest_game is not None  # the state graph is acyclic: every game ends (R25)


def test_the_small_check_reaches_everything_it_must_non_vacuity() -> None:
    result = small()
    assert result.unreached == ()
    reached = {name for name, count in result.events.items() if count > 0}
    assert required_events(CONFIGS["small"]) <= reached
    assert result.terminal_by_reason.keys() == {"FINAL_TURN", "STALL"}  # R24, R25
    assert result.coverage_required  # a named configuration


def test_the_small_configuration_matches_its_golden_numbers() -> None:
    expected = GOLDEN["small"]
    assert golden_record(small(), perft(CONFIGS["small"], len(expected["perft"]))) == expected


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_entries_describe_the_named_configurations(name: str) -> None:
    entry: dict[str, Any] = GOLDEN[name]
    assert entry["rules"] == rules_json(CONFIGS[name])


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_perft_matches_the_golden_file(name: str) -> None:
    expected = GOLDEN[name]["perft"]
    assert perft(CONFIGS[name], len(expected)) == expected


def test_required_events_follow_the_rules() -> None:
    """Non-vacuity asks only for what the rules make possible (no Flip with one column)."""
    assert "move Flip" not in required_events(CONFIGS["small"])
    assert "move Flip" in required_events(CONFIGS["medium"])
    no_techs = Rules(energies=2, max_value=1, copies=2, hand_size=1, city_demand=1, techs=())
    events = required_events(no_techs)
    assert not {"move Improve", "move DrawTech", "phase TECH"} & events
    assert "move Downsize" in required_events(Rules(techs={Tech.DOWN}))


def test_the_exact_value_of_the_small_game_is_golden() -> None:
    """Backward induction under perfect information: P(player 0 wins) with perfect play."""
    assert game_value(CONFIGS["small"]) == Fraction(VALUES["small"])


def test_game_value_of_a_forced_game() -> None:
    # One column (Solar), two Solar 1s, one each; demand 1, stall limit 1 (any turn without a
    # placement ends the game, R25). Whatever player 0 does, player 1 answers by building its
    # Solar 1 (or the game ends on a tie at once): generations and city points tie, and player 1
    # wins tie-break 2 (R29). So player 0 never wins: the value is exactly 0.
    tiny = Rules(
        energies=1, max_value=1, copies=2, hand_size=1, city_demand=1, techs=(), stall_limit=1
    )
    assert game_value(tiny) == 0
