"""One command-line vocabulary (issue 13 §3): every command that takes a rule set takes the same
rule flags, parsed by one shared parser, with the same errors. Run for real in subprocesses."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from hatsuden_rules import Rules, Tech, Tiebreak
from hatsuden_rules.notation import format_rules
from hatsuden_rules.records import format_record, record_game
from hatsuden_rules.serialization import to_dict
from hatsuden_rules.simulation import play_game
from tests.support.paths import ROOT_DIR

ROOT = ROOT_DIR
BASE = "1/1/2/1/1/-/city_points/retake/1"  # 85 states: every command runs in a moment on it
FLAGS = ["--rules", BASE, "--tiebreak", "SUPPLY", "--techs", "down", "--no-retake"]
FLAGS += ["--stall-limit", "2"]
SIMULATE = ["-m", "hatsuden_rules", "simulate", "--quiet"]
BALANCE = ["--games", "2", "--ismcts-games", "0", "--quiet", "--jobs", "1", "--json"]
TWO_GAMES = [*SIMULATE, "--players", "random,random", "--games", "2", "--jobs", "1", "--json"]
EXPECTED = Rules(
    energies=1,
    max_value=1,
    copies=2,
    hand_size=1,
    city_demand=1,
    techs=frozenset({Tech.DOWN}),
    tiebreak=Tiebreak.SUPPLY,
    allow_retake_discard=False,
    stall_limit=2,
)


def run(
    argv: list[str], stdin: str = "", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *argv],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        check=False,
    )


def a_record(tmp: Path) -> Path:
    from hatsuden_rules.players import RandomPlayer

    game = play_game((RandomPlayer(), RandomPlayer()), seed=3, rules=EXPECTED)
    path = tmp / "game.txt"
    path.write_text(format_record(record_game(game.moves, seed=3, rules=EXPECTED)))
    return path


def rules_line(out: str) -> str:
    return next(line for line in out.splitlines() if line.startswith("Rules "))


# Each command: its argv before the rule flags, its stdin, and how to read the rules it used.
Reader = Callable[[subprocess.CompletedProcess[str]], object]
COMMANDS: dict[str, tuple[list[str], str, Reader, object]] = {
    "play": (
        ["-m", "hatsuden_rules", "play", "--opponent", "random", "--seed", "1", "--no-record"],
        "quit\n",
        lambda r: rules_line(r.stdout),
        f"Rules {format_rules(EXPECTED)}",
    ),
    "simulate": (
        [*SIMULATE, "--players", "random,greedy", "--games", "2", "--jobs", "1", "--json"],
        "",
        lambda r: json.loads(r.stdout)["rules_notation"],
        format_rules(EXPECTED),
    ),
    "demo": (
        ["-m", "hatsuden_rules", "demo", "--players", "random,random", "--seed", "1"],
        "",
        lambda r: rules_line(r.stdout),
        f"Rules {format_rules(EXPECTED)}",
    ),
    "check": (
        ["-m", "hatsuden_rules", "check", "--perft", "1", "--json", "--quiet"],
        "",
        lambda r: json.loads(r.stdout)["rules"],
        to_dict(EXPECTED),  # the library's JSON spellings
    ),
    "hatsuden-check": (
        ["-m", "hatsuden_rules.modelcheck", "--perft", "1", "--json", "--quiet"],
        "",
        lambda r: json.loads(r.stdout)["rules"],
        to_dict(EXPECTED),  # the library's JSON spellings
    ),
    "information": (
        ["-m", "hatsuden_rules.modelcheck.information", "--json"],
        "",
        lambda r: json.loads(r.stdout)["rules"],
        to_dict(EXPECTED),
    ),
    "balance": (
        [str(ROOT / "examples" / "balance.py"), *BALANCE],
        "",
        lambda r: json.loads(r.stdout)["rules_notation"],
        format_rules(EXPECTED),
    ),
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_takes_the_same_rule_flags(command: str, tmp_path: Path) -> None:
    argv, stdin, read, expected = COMMANDS[command]
    result = run([*argv, *FLAGS], stdin=stdin, cwd=tmp_path)
    assert "Traceback" not in result.stderr, result.stderr
    assert read(result) == expected, result.stderr


def test_replay_checks_the_record_against_the_rule_flags(tmp_path: Path) -> None:
    record = str(a_record(tmp_path))
    same = run(["-m", "hatsuden_rules", "replay", record, "--moves-only", *FLAGS])
    assert same.returncode == 0, same.stderr
    assert "Game over" in same.stdout
    # The base is the record's own rules: one flag alone states one field.
    assert run(["-m", "hatsuden_rules", "replay", record, "--tiebreak", "supply"]).returncode == 0
    other = run(["-m", "hatsuden_rules.cli._replay", record, "--tiebreak", "city-points"])
    assert other.returncode == 1
    assert other.stderr.count("\n") == 1
    assert f"played under rules {format_rules(EXPECTED)}, not 1/1/2/1/1/DWN/city_points/" in (
        other.stderr
    )
    assert run(["-m", "hatsuden_rules.cli._replay", record, "--config", "small"]).returncode == 1


ALL = [
    *sorted(COMMANDS),
    "replay",
]


def argv_of(command: str, tmp_path: Path) -> list[str]:
    if command == "replay":
        return ["-m", "hatsuden_rules", "replay", str(a_record(tmp_path))]
    return COMMANDS[command][0]


@pytest.mark.parametrize("command", ALL)
@pytest.mark.parametrize(
    ("flags", "needle"),
    [
        (["--tiebreak", "coin"], "expected city_points or supply (any case, - or _)"),
        (["--techs", "DOWN,nuclear"], "expected accumulator, secret_build, smart, down (or ACC"),
    ],
)
def test_every_command_rejects_a_bad_spelling_in_one_line(
    command: str, flags: list[str], needle: str, tmp_path: Path
) -> None:
    result = run([*argv_of(command, tmp_path), *flags], cwd=tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1
    assert needle in errors[0]


@pytest.mark.parametrize("command", ["simulate", "hatsuden-check", "information", "replay"])
def test_rules_with_config_is_an_error(command: str, tmp_path: Path) -> None:
    result = run([*argv_of(command, tmp_path), "--rules", BASE, "--config", "small"])
    assert result.returncode == 2
    assert "argument --config: not allowed with argument --rules" in result.stderr


@pytest.mark.parametrize("command", ["play", "simulate", "check", "information", "balance"])
def test_an_impossible_rule_set_is_one_line_naming_the_field(command: str, tmp_path: Path) -> None:
    result = run([*argv_of(command, tmp_path), "--max-value", "12"], cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert "error: invalid rules: max_value: must be <= city_demand + 1 = " in result.stderr
    assert ", got 12" in result.stderr


def test_config_names_and_rules_presets_are_accepted_by_hatsuden() -> None:
    result = run([*TWO_GAMES, "--config", "MEDIUM", "--stall-limit", "3"])
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["rules_notation"] == "2/2/1/1/2/SMT/city_points/noretake/3"
    result = run([*TWO_GAMES, "--rules", "Standard"])
    assert json.loads(result.stdout)["rules_notation"] == (
        "5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20"
    )
    # "off" is the notation's spelling of no stall limit, "none" the flags': both are accepted.
    perft = ["-m", "hatsuden_rules", "check", "--perft", "1", "--json", "--quiet"]
    result = run([*perft, "--config", "medium", "--stall-limit", "off"])
    assert json.loads(result.stdout)["rules"]["stall_limit"] is None


def test_balance_prints_no_progress_lines_into_a_log() -> None:
    """Issue 23: `make test`'s examples run carried `progress: 1/20 games` lines."""
    args = [a for a in BALANCE if a != "--quiet"]
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "balance.py"), *args],
        capture_output=True,  # not a terminal
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "progress" not in result.stderr
