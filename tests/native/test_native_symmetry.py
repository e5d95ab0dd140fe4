"""``--symmetry`` on the native core: one state (or position) per orbit of the row swaps (issue 21).

A player's two rows (cities) are interchangeable (R4, R19, R21, R27-R29 treat them alike; the
swap carries the Accumulator, the played cell and the logged moves, R36). The native search
with symmetry must report what the Python ``--symmetry`` reports (orbits, transitions, terminal
states by end reason, chance nodes, depth, longest game, events, verdict), and, weighted by
orbit sizes, exactly the figures of the search without symmetry, by state and by position; its
counterexamples are real move sequences of the shortest length that replay. The larger
configurations are compared by ``make verify-native-check``
(native/hatsuden-check/tests/symmetry.rs, ignored in a plain ``cargo test``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hatsuden_rules import Rules, Tech
from hatsuden_rules.modelcheck import check, replay_problems
from hatsuden_rules.modelcheck._native import native_check_document, result_from_json
from hatsuden_rules.notation import format_rules, parse_move
from tests.modelcheck.faults import CARDS, ENDLESS, plant

from .check_compare import FAST, SMALL, comparable
from .helpers import NOT_INSTALLED
from .test_native_faults import MANY, faulty_checker

try:
    import hatsuden_native
except ImportError:  # pragma: no cover - the native package is built by `make native`
    pytest.skip(NOT_INSTALLED, allow_module_level=True)

if "symmetry" not in (getattr(hatsuden_native._native.model_check, "__text_signature__", "") or ""):
    pytest.skip(  # pragma: no cover - an older build
        "hatsuden-native predates --symmetry: run make native", allow_module_level=True
    )

__all__ = ["faulty_checker"]  # the fixture, shared with test_native_faults.py

#: Every Construct draws a tech card, so the Accumulator lands on a city and both players'
#: swaps act (orbits of 4), as in tests/modelcheck/test_modelcheck_symmetry.py.
TWO_COLUMNS = Rules(
    energies=2,
    max_value=1,
    copies=1,
    hand_size=1,
    city_demand=1,
    techs=frozenset({Tech.ACCUMULATOR}),
    allow_retake_discard=False,
    stall_limit=2,
)


def documents(rules: Rules, positions: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    """The native JSON documents of `rules` without and with symmetry."""
    full = native_check_document(rules, positions=positions)
    reduced = native_check_document(rules, positions=positions, symmetry=True)
    return full, reduced


def unreduced_of(document: dict[str, Any]) -> dict[str, Any]:
    return {
        "states": document["states"],
        "transitions": document["transitions"],
        "terminal_states": document["terminal_states"],
        "terminal_by_reason": document["terminal_by_reason"],
        "chance_nodes": document["chance_nodes"],
    }


@pytest.mark.parametrize("rules", [SMALL, TWO_COLUMNS], ids=["small", "two-columns"])
def test_native_symmetry_reports_the_python_symmetry_figures(rules: Rules) -> None:
    """The same orbits, transitions, terminal states (R24, R25), chance nodes, depth, longest
    game, events and verdict as ``check(symmetry=True)``: every figure is an orbit invariant,
    whichever member each core keeps."""
    python = check(rules, symmetry=True, exhaustive=True)
    document = native_check_document(rules, positions=False, symmetry=True)
    native = result_from_json(document, rules)
    assert comparable(native) == comparable(python)
    assert document["symmetry"] is True
    assert document["orbits"] == native.states == python.states
    if rules == SMALL:  # VERIFICATION.md "Symmetry reduction"
        assert (python.states, python.longest_game) == (12_142, 24)


@pytest.mark.parametrize("name", list(FAST))
def test_the_unreduced_figures_equal_the_search_without_symmetry(name: str) -> None:
    """By state and by position (R36), on small and the variants (R40, R41): weighted by orbit
    sizes, the reduced search gives the full search's states, transitions, terminal states by
    end reason and chance nodes; the depth, the longest game (R25) and the verdict are equal."""
    rules, positions = FAST[name]
    full, reduced = documents(rules, positions)
    assert reduced["unreduced"] == unreduced_of(full)
    assert full["unreduced"] is None
    assert full["symmetry"] is False
    for key in ("max_depth", "longest_game", "result", "unreached"):
        assert reduced[key] == full[key], key
    assert full["states"] / 4 <= reduced["states"] < full["states"]


def test_two_columns_by_position_too() -> None:
    full, reduced = documents(TWO_COLUMNS, True)
    assert reduced["unreduced"] == unreduced_of(full)
    assert 2 * reduced["states"] < full["states"]  # orbits of 4


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    code = "import sys; from hatsuden_rules.cli._check import main; sys.exit(main())"
    return subprocess.run(
        [sys.executable, "-c", code, "--quiet", "--core", "native", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_the_cli_reports_orbits_and_the_unreduced_search() -> None:
    done = run_cli("--config", "small", "--symmetry", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    full = native_check_document(SMALL, positions=False)
    assert (data["symmetry"], data["orbits"], data["states"]) == (True, 12_142, 12_142)
    assert data["unreduced"] == unreduced_of(full)
    text = run_cli("--config", "small", "--symmetry", "--positions")
    assert text.returncode == 0, text.stderr
    assert "orbits of the row swaps" in text.stdout
    assert f"  positions   {full['states']:,}" not in text.stdout  # those are states
    positions = native_check_document(SMALL, positions=True)
    assert f"  positions   {positions['states']:,}" in text.stdout
    assert text.stdout.rstrip().endswith("result: OK")


def test_symmetry_on_ray_is_refused_in_one_line() -> None:
    done = run_cli("--config", "small", "--symmetry", "--backend", "ray")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("hatsuden-check: error: --symmetry does not apply to --backend ray")


def native_run(binary: Path, rules: Rules, fault: str, *flags: str) -> dict[str, Any]:
    env = dict(os.environ, HATSUDEN_FAULT=fault)
    done = subprocess.run(
        [
            str(binary),
            "--rules",
            format_rules(rules),
            "--json",
            "--max-violations",
            str(MANY),
            *flags,
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    document: dict[str, Any] = json.loads(done.stdout)
    return document


@pytest.mark.parametrize(
    ("fault", "rules", "rule"),
    [
        ("stall-capped", ENDLESS, "R25"),
        ("discard-keeps-card", CARDS, "R4"),
        ("score-second-player", SMALL, "R29"),
        ("moves-reversed", SMALL, "R34"),
    ],
)
def test_a_planted_fault_gives_shortest_counterexamples_that_replay(
    faulty_checker: Path, monkeypatch: pytest.MonkeyPatch, fault: str, rules: Rules, rule: str
) -> None:
    """With a fault planted in the native rules, the search with symmetry finds the rules the
    search without it finds, each first with a path of the same (shortest) length; every path
    is a real move sequence that replays to the violation with the same fault in Python."""
    full = native_run(faulty_checker, rules, fault)
    reduced = native_run(faulty_checker, rules, fault, "--symmetry")
    assert reduced["result"] == full["result"] == "VIOLATION"

    def shortest(document: dict[str, Any]) -> dict[str, int]:
        lengths: dict[str, int] = {}
        for v in document["violations"]:
            lengths[v["rule"]] = min(lengths.get(v["rule"], 10**9), len(v["path"]))
        return lengths

    assert rule in shortest(reduced)
    # R25: the loop the search walks is some cycle, not a shortest one, and with symmetry it may
    # have to be walked twice to come back to the same real state; every other rule is found
    # first at the same, shortest, depth (breadth-first, and a swap keeps the depth).
    cycle_free = {k: n for k, n in shortest(full).items() if k != "R25"}
    assert {k: n for k, n in shortest(reduced).items() if k != "R25"} == cycle_free
    assert shortest(reduced).keys() == shortest(full).keys()
    assert reduced["states"] < full["states"]
    plant(monkeypatch, fault)
    for v in reduced["violations"]:
        moves = [parse_move(text, rules) for text in v["path"]]
        assert v["rule"] in {r for r, _ in replay_problems(rules, moves)}, v
