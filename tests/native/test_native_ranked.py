"""The native ranked engine (issue 21 §2): ``--engine ranked``.

It processes states in the order of a ranking function that grows on every transition (R9,
R23, R25) and stores them exactly. Its figures equal the breadth-first engine's (the Rust tests
in native/hatsuden-check/tests/ranked.rs compare them on small, medium, variants and choice);
here: planted faults give the same shortest counterexample on both native engines (the ranked
engine reruns the breadth-first one up to the depth of the shallowest violating state), a fault
that breaks the ranking (R23: the stall counter stops) stops the run with a one-line error
instead of a result, and the CLI accepts ``--engine bfs|ranked`` with ``--core native`` only.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hatsuden_rules import Rules
from hatsuden_rules.notation import format_rules
from tests.modelcheck.faults import CARDS
from tests.native.test_native_faults import SMALL, faulty_checker

__all__ = ["faulty_checker"]  # the fixture, shared with test_native_faults


def run(binary: Path, rules: Rules, fault: str | None, engine: str) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if k != "HATSUDEN_FAULT"}
    if fault is not None:
        env["HATSUDEN_FAULT"] = fault
    done = subprocess.run(
        [str(binary), "--rules", format_rules(rules), "--json", "--engine", engine],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize(
    ("fault", "rules", "rule"),
    [
        ("discard-keeps-card", CARDS, "R4"),
        ("score-second-player", SMALL, "R29"),
        ("moves-reversed", SMALL, "R34"),
    ],
)
def test_a_planted_fault_gives_the_same_shortest_counterexample_on_both_engines(
    faulty_checker: Path, fault: str, rules: Rules, rule: str
) -> None:
    code_bfs, out_bfs, _ = run(faulty_checker, rules, fault, "bfs")
    code_ranked, out_ranked, _ = run(faulty_checker, rules, fault, "ranked")
    bfs: dict[str, Any] = json.loads(out_bfs)
    ranked: dict[str, Any] = json.loads(out_ranked)
    assert code_bfs == code_ranked == 1
    assert bfs["result"] == ranked["result"] == "VIOLATION"
    first_bfs, first_ranked = bfs["violations"][0], ranked["violations"][0]
    assert first_ranked["rule"] == first_bfs["rule"] == rule
    assert first_ranked["path"] == first_bfs["path"]


def test_a_fault_that_breaks_the_ranking_stops_the_run(faulty_checker: Path) -> None:
    # R23 broken: the stall counter stops at 1, so with stall_limit 2 turns repeat forever (R25)
    # and the rank does not grow at the end of a stall turn: a failure of the method, reported.
    code, out, err = run(faulty_checker, SMALL, "stall-capped", "ranked")
    assert code == 2
    assert out == ""
    assert "does not increase" in err
    assert len(err.strip().splitlines()) == 1


def test_without_a_fault_both_engines_agree(faulty_checker: Path) -> None:
    code_bfs, out_bfs, _ = run(faulty_checker, SMALL, None, "bfs")
    code_ranked, out_ranked, _ = run(faulty_checker, SMALL, None, "ranked")
    bfs, ranked = json.loads(out_bfs), json.loads(out_ranked)
    assert code_bfs == code_ranked == 0
    for key in ("result", "states", "transitions", "terminal_by_reason", "chance_nodes"):
        assert ranked[key] == bfs[key], key
    for key in ("max_depth", "longest_game", "events", "unreached", "layer_sizes"):
        assert ranked[key] == bfs[key], key
    assert ranked["collision_probability"] == 0.0


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    code = "import sys; from hatsuden_rules.cli._check import main; sys.exit(main())"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_the_python_core_refuses_the_native_engines_in_one_line() -> None:
    done = cli("--config", "small", "--engine", "ranked")
    assert done.returncode == 2
    assert "--engine ranked needs --core native" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_native_core_refuses_the_python_engines_in_one_line() -> None:
    pytest.importorskip("hatsuden_native")
    done = cli("--core", "native", "--config", "small", "--engine", "disk")
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0
    assert "--engine disk does not apply to --core native" in done.stderr


def test_hatsuden_check_core_native_engine_ranked_gives_the_bfs_figures() -> None:
    pytest.importorskip("hatsuden_native")
    figures = []
    for engine in ("bfs", "ranked"):
        done = cli("--core", "native", "--config", "small", "--engine", engine, "--json")
        assert done.returncode == 0, done.stderr
        data = json.loads(done.stdout)
        figures.append(
            {k: data[k] for k in ("states", "transitions", "terminal_by_reason", "longest_game")}
        )
    assert figures[0] == figures[1]
