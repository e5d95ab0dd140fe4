"""Faults planted in both rules engines: both checkers catch them alike (issue 21).

The native checker is built once with the rules crate's test-only feature ``fault-injection``
(into native/target/fault-injection, apart from the release build, by ``make native-check``:
tests/native/fault_build.py) and run with
``HATSUDEN_FAULT=<name>``; the Python checker runs with the same fault planted by
tests/modelcheck/faults.py. Both must come to the same verdict with the same violations, each
under its rule and with the same shortest move sequence from `new_game()`. A check without the
fault (``HATSUDEN_FAULT`` unset) is OK: the feature changes nothing until a fault is named.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from hatsuden_rules import Rules
from hatsuden_rules.modelcheck import CONFIGS, CheckResult, check
from hatsuden_rules.modelcheck._native import result_from_json
from hatsuden_rules.modelcheck._report import format_summary, pytest_text
from hatsuden_rules.notation import format_move, format_rules
from tests.modelcheck.faults import CARDS, ENDLESS, plant
from tests.native import fault_build

SMALL = CONFIGS["small"]
MANY = 10_000  # every violation: the cycle (R25) comes after those of the states


@pytest.fixture(scope="module")
def faulty_checker() -> Path:
    """``hatsuden-native-check`` built with ``--features fault-injection`` (tests/native/
    fault_build.py: ``make native-check`` builds it before pytest, and cargo finds it up to
    date here)."""
    if fault_build.cargo() is None:  # pragma: no cover - make test needs cargo (native-check)
        pytest.skip("cargo is not installed: the native checker cannot be built")
    return fault_build.build()


def native_run(binary: Path, rules: Rules, fault: str | None) -> tuple[int, dict[str, Any]]:
    env = {k: v for k, v in os.environ.items() if k != "HATSUDEN_FAULT"}
    if fault is not None:
        env["HATSUDEN_FAULT"] = fault
    done = subprocess.run(
        [str(binary), "--rules", format_rules(rules), "--json", "--max-violations", str(MANY)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    return done.returncode, json.loads(done.stdout)


def violations(result: CheckResult) -> list[tuple[str, list[str]]]:
    return [(v.rule, [format_move(m) for m in v.path]) for v in result.violations]


@pytest.mark.parametrize(
    ("fault", "rules", "rule"),
    [
        ("stall-capped", ENDLESS, "R25"),
        ("discard-keeps-card", CARDS, "R4"),
        ("score-second-player", SMALL, "R29"),
        ("moves-reversed", SMALL, "R34"),
    ],
)
def test_a_planted_fault_gives_the_same_counterexamples_on_both_cores(
    faulty_checker: Path, monkeypatch: pytest.MonkeyPatch, fault: str, rules: Rules, rule: str
) -> None:
    code, native = native_run(faulty_checker, rules, fault)
    plant(monkeypatch, fault)
    python = check(rules, exhaustive=True, max_violations=MANY)
    assert python.result == native["result"] == "VIOLATION"
    assert code == 1
    assert rule in {v.rule for v in python.violations}
    found = [(v["rule"], v["path"]) for v in native["violations"]]
    assert found == violations(python)
    assert native["states"] == python.states


def test_without_a_fault_named_the_feature_changes_nothing(faulty_checker: Path) -> None:
    code, native = native_run(faulty_checker, SMALL, None)
    assert (code, native["result"]) == (0, "OK")
    assert native["states"] == check(SMALL).states


def test_the_native_counterexample_is_printed_as_a_ready_to_paste_test(
    faulty_checker: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R4: the native result, read back, prints each violation as a pytest test that replays
    the shortest path and fails while the fault is there (and passes on the correct engine)."""
    _, native = native_run(faulty_checker, CARDS, "discard-keeps-card")
    result = result_from_json(native, CARDS)
    text = format_summary(result)
    assert "as a pytest test:" in text
    first = pytest_text(result.violations[0], CARDS)
    namespace: dict[str, Any] = {}
    exec(compile(first, "<generated>", "exec"), namespace)
    test = namespace["test_modelcheck_counterexample_r4"]
    test()  # the correct engine: the replay finds nothing
    plant(monkeypatch, "discard-keeps-card")
    with pytest.raises(AssertionError, match="R4 is still broken"):
        test()


@pytest.mark.parametrize(
    ("fault", "rules"),
    [
        ("stall-capped", ENDLESS),
        ("discard-keeps-card", CARDS),
        ("score-second-player", SMALL),
        ("moves-reversed", SMALL),
    ],
)
def test_the_sharded_search_finds_the_same_counterexamples(
    faulty_checker: Path, fault: str, rules: Rules
) -> None:
    """The primitives of the Ray backend (3 shards, native/hatsuden-check/tests/shard_faults.rs)
    find the violations of the single-process search, in order, with the same paths; the cycle
    (R25) too, walked the same way."""
    done = fault_build.shard_faults(fault, format_rules(rules))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout
