"""``hatsuden-check --core native``: the native model checker against the Python one (issue 21).

Both cores check the same rule sets and must report the same states (or positions, R36),
transitions, terminal states by end reason (R24, R25), chance nodes, depth, longest game (R25),
non-vacuity events, unreached events and verdict. Here the rule sets whose Python check takes
seconds (``small``, by state and by position, and the variants R40 and R41 cut down to its size);
``make verify-native-check`` compares the named configurations.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from hatsuden_rules.modelcheck import game_value
from hatsuden_rules.modelcheck._native import native_check, native_game_value
from hatsuden_rules.notation import format_rules

from .check_compare import FAST, SMALL, both, comparable
from .helpers import NOT_INSTALLED

try:
    import hatsuden_native
except ImportError:  # pragma: no cover - the native package is built by `make native`
    pytest.skip(NOT_INSTALLED, allow_module_level=True)

if not hasattr(hatsuden_native._native, "model_check"):  # pragma: no cover - an older build
    pytest.skip(
        "hatsuden-native predates the model checker: run make native", allow_module_level=True
    )

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "modelcheck.json"


def run_cli(*args: str, prelude: str = "") -> subprocess.CompletedProcess[str]:
    code = f"{prelude}import sys; from hatsuden_rules.cli._check import main; sys.exit(main())"
    return subprocess.run(
        [sys.executable, "-c", code, "--quiet", "--core", "native", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.parametrize("name", list(FAST))
def test_both_cores_report_the_same_figures_and_verdict(name: str) -> None:
    """R24, R25, R36 and every invariant: the same counts, events and verdict on both cores."""
    rules, positions = FAST[name]
    python, native = both(rules, positions)
    assert native.engine == "native"
    assert native.fingerprint_bits == 84
    assert comparable(native) == comparable(python)
    assert native.result == "OK"
    if name == "tiny-any-set":  # not a named set: unreached events are a warning only
        assert native.unreached
        assert not native.coverage_required
        assert native.events["move FlipSet"] > 0  # R41 is exercised


def test_two_workers_give_the_same_result_as_one() -> None:
    one = native_check(SMALL, workers=1)
    two = native_check(SMALL, workers=2)
    assert comparable(two) == comparable(one)
    assert two.workers == 2


def test_the_command_line_prints_the_python_cores_json_keys_and_exit_code() -> None:
    """``--json`` has every key of the Python core's document, plus the native engine's own."""
    done = run_cli("--config", "small", "--json")
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    python = subprocess.run(
        [
            sys.executable,
            "-m",
            "hatsuden_rules.modelcheck",
            "--quiet",
            "--config",
            "small",
            "--json",
            "--max-states",
            "10",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert set(json.loads(python.stdout)) <= set(data)
    assert data["engine"] == "native"
    assert data["fingerprint_bits"] == 84
    assert sum(data["layer_sizes"]) == data["states"] == CONFIGS_SMALL_STATES
    assert data["result"] == "OK"
    assert data["violations"] == []


CONFIGS_SMALL_STATES = json.loads(GOLDEN.read_text(encoding="utf-8"))["configs"]["small"]["states"]


def test_the_summary_and_the_golden_comparison() -> None:
    done = run_cli("--config", "small", "--golden", str(GOLDEN))
    assert done.returncode == 0, done.stderr
    assert f"distinct states   {CONFIGS_SMALL_STATES:,}" in done.stdout
    assert "engine            native, 1 worker(s)" in done.stdout
    assert "fingerprints      84-bit" in done.stdout
    assert done.stdout.rstrip().endswith("result: OK")
    assert "matches the golden entry 'small'" in done.stderr


@pytest.mark.parametrize(
    ("flags", "named"),
    [
        (["--max-seconds", "5"], "--max-seconds"),
        (["--max-depth", "3"], "--max-depth"),
        (["--soundness"], "--soundness"),
        (["--exhaustive"], "--exhaustive"),
        (["--engine", "memory"], "--engine"),
        (["--progress-every", "2"], "--progress-every"),
    ],
)
def test_options_of_the_python_core_only_are_refused_in_one_line(
    flags: list[str], named: str
) -> None:
    done = run_cli("--config", "small", *flags)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"hatsuden-check: error: {named}")
    assert "does not apply to --core native" in lines[0]


def test_without_the_native_package_the_error_names_the_install_command() -> None:
    done = run_cli(
        "--config", "small", prelude="import sys; sys.modules['hatsuden_native'] = None; "
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "pip install 'hatsuden-rules[native]'" in lines[0]


def test_a_limit_truncates_and_the_checkpoint_resumes_to_the_same_result(tmp_path: Path) -> None:
    where = str(tmp_path / "run")
    stopped = run_cli("--config", "small", "--checkpoint", where, "--max-states", "9000", "--json")
    assert stopped.returncode == 2
    assert json.loads(stopped.stdout)["result"] == "TRUNCATED"
    assert f"--checkpoint {where} --resume" in stopped.stderr
    again = run_cli("--config", "small", "--checkpoint", where)
    assert again.returncode == 2
    assert "holds a checkpoint" in again.stderr
    assert len(again.stderr.strip().splitlines()) == 1
    resumed = run_cli("--config", "small", "--checkpoint", where, "--resume", "--json")
    assert resumed.returncode == 0, resumed.stderr
    data = json.loads(resumed.stdout)
    assert data["states"] == CONFIGS_SMALL_STATES
    assert data["result"] == "OK"
    missing = run_cli("--config", "small", "--resume")
    assert missing.returncode == 2
    assert "--resume needs --checkpoint DIR" in missing.stderr


def test_an_unreached_event_of_a_named_set_is_uncovered_exit_3() -> None:
    """``--require-coverage`` makes the unreached events of a rule set fail it (exit 3)."""
    rules, _ = FAST["tiny-any-set"]
    done = run_cli("--rules", format_rules(rules), "--require-coverage", "--json")
    assert done.returncode == 3, done.stderr
    data = json.loads(done.stdout)
    assert data["result"] == "UNCOVERED"
    assert data["unreached"]


def test_the_value_of_small_is_the_python_value() -> None:
    """``--value``: the exact perfect-information value, the same fraction on both cores."""
    assert native_game_value(SMALL) == game_value(SMALL)
    done = run_cli("--config", "small", "--value", "--json")
    assert done.returncode == 0, done.stderr
    assert Fraction(json.loads(done.stdout)["value"]) == game_value(SMALL)


def test_ctrl_c_stops_the_run_at_once_and_the_checkpoint_resumes(tmp_path: Path) -> None:
    """SIGINT reaches the command while Rust searches: exit 130, then --resume completes."""
    where = str(tmp_path / "run")
    command = [sys.executable, "-m", "hatsuden_rules.modelcheck", "--config", "medium"]
    command += ["--core", "native", "--checkpoint", where]
    # A pytest-xdist worker ignores SIGINT, and a child started with SIGINT ignored never gets
    # Python's KeyboardInterrupt handler. A handler (unlike an ignored signal) is reset to the
    # default at exec, so the child starts as from a shell.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        run = subprocess.Popen(command, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    finally:
        signal.signal(signal.SIGINT, previous)
    with run:
        assert run.stderr is not None
        first = run.stderr.readline()  # the first layer done: the search is under way
        run.send_signal(signal.SIGINT)
        _, rest = run.communicate(timeout=120)
    assert first.startswith("depth"), first
    assert run.returncode == 130
    assert f"--checkpoint {where} --resume" in rest
    resumed = run_cli("--config", "medium", "--checkpoint", where, "--resume", "--json")
    assert resumed.returncode == 0, resumed.stderr
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))["configs"]["medium"]
    data = json.loads(resumed.stdout)
    assert data["states"] == golden["states"]
    assert data["transitions"] == golden["transitions"]
    assert data["longest_game"] == golden["longest_game"]
