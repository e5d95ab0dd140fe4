"""The runner and the protocol, end to end: adapters run as subprocesses over JSON lines.

The bundled adapter passes every vector; deliberately broken adapters show that wrong answers,
crashes and a wrong rules version are detected and reported.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from hatsuden_rules.conformance import GROUPS
from tests.support.paths import ROOT_DIR

ROOT = ROOT_DIR
SUITE = ROOT / "conformance"
PYTHON = shlex.quote(sys.executable)


def run_conformance(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hatsuden_rules.conformance", *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def subset(tmp_path: Path, per_group: int) -> Path:
    """A copy of the suite with `per_group` vectors of each group, spread over its file."""
    directory = tmp_path / "vectors"
    directory.mkdir()
    (directory / "manifest.json").write_text((SUITE / "manifest.json").read_text())
    for group in GROUPS:
        lines = (SUITE / f"{group}.jsonl").read_text().splitlines(keepends=True)
        step = max(1, len(lines) // per_group)
        (directory / f"{group}.jsonl").write_text("".join(lines[::step][:per_group]))
    return directory


def broken_adapter(tmp_path: Path, body: str) -> str:
    """An adapter command wrapping the bundled `handle`, with `body` altering its responses."""
    script = tmp_path / "adapter.py"
    script.write_text(
        textwrap.dedent(
            """
            import json, sys
            from hatsuden_rules.conformance import handle

            def alter(request, response):
            {body}
                return response

            for line in sys.stdin:
                request = json.loads(line)
                response = alter(request, handle(request))
                print(json.dumps(response), flush=True)
            """
        ).format(body=textwrap.indent(textwrap.dedent(body), "    "))
    )
    return f"{PYTHON} {shlex.quote(str(script))}"


def test_the_bundled_adapter_passes_every_vector_through_the_subprocess_protocol() -> None:
    result = run_conformance(
        "--adapter", f"{PYTHON} -m hatsuden_rules.conformance.adapter", "--vectors", str(SUITE)
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "PASSED: all" in result.stdout
    for group in GROUPS:
        assert f"  {group} " in result.stdout
    assert "FAIL" not in result.stdout
    assert "RuntimeWarning" not in result.stderr


def test_wrong_answers_are_detected_and_reported_per_group(tmp_path: Path) -> None:
    command = broken_adapter(
        tmp_path,
        """
        kind = request.get("kind")
        if kind == "legal_moves" and response.get("moves"):
            response["moves"] = response["moves"][::-1] if len(response["moves"]) > 1 else []
        if kind == "perft":
            response["counts"][-1] += 1
        if kind == "apply" and response.get("ok") is False:
            response["error"]["rule"] = "R99"
        if kind == "apply" and request["id"].endswith("#3"):
            response["state"] = response["state"].replace("stall_count=", "stall_count=1")
        if kind == "rng":
            response["outputs"][0] = "0"
        """,
    )
    result = run_conformance("--adapter", command, "--vectors", str(subset(tmp_path, 40)))
    assert result.returncode == 1, result.stdout + result.stderr
    out = result.stdout
    assert "FAILED:" in out
    for group in ("rng", "seeded_games", "transitions", "legal_moves", "perft"):
        line = next(x for x in out.splitlines() if x.startswith(f"  {group} "))
        assert line.endswith("FAIL"), line
    for group in ("scores", "observations", "invalid"):
        line = next(x for x in out.splitlines() if x.startswith(f"  {group} "))
        assert line.endswith("ok"), line
    assert "error.rule: expected" in out
    assert "step 3 (move" in out
    assert "counts: expected" in out


def test_a_crashing_adapter_fails_that_vector_and_the_run_goes_on(tmp_path: Path) -> None:
    vectors = subset(tmp_path, 5)
    victim = json.loads((vectors / "scores.jsonl").read_text().splitlines()[2])["id"]
    command = broken_adapter(tmp_path, f"if request.get('id') == {victim!r}: sys.exit(3)")
    result = run_conformance("--adapter", command, "--vectors", str(vectors), "--group", "scores")
    assert result.returncode == 1
    assert f"FAIL {victim}" in result.stdout
    assert "adapter failure: the adapter exited (status 3)" in result.stdout
    assert "4 passed     1 failed" in result.stdout


def test_an_adapter_that_never_answers_times_out(tmp_path: Path) -> None:
    command = broken_adapter(
        tmp_path, "if request.get('kind') == 'rng':\n    import time; time.sleep(30)"
    )
    result = run_conformance(
        "--adapter",
        command,
        "--vectors",
        str(subset(tmp_path, 1)),
        "--group",
        "rng",
        "--timeout",
        "1",
    )
    assert result.returncode == 1
    assert "no response within 1 s" in result.stdout


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("response['rules_version'] = -1", "hello: expected ok and rules_version"),
        ("print('not json', flush=True)", "is not JSON"),
    ],
)
def test_a_bad_hello_is_a_setup_error(tmp_path: Path, body: str, message: str) -> None:
    command = broken_adapter(tmp_path, f"if request.get('kind') == 'hello':\n    {body}")
    result = run_conformance("--adapter", command, "--vectors", str(subset(tmp_path, 1)))
    assert result.returncode == 2
    assert message in result.stderr


def test_missing_vectors_or_adapter_are_setup_errors(tmp_path: Path) -> None:
    result = run_conformance("--adapter", "true", "--vectors", str(tmp_path))
    assert result.returncode == 2
    assert "cannot read the vectors" in result.stderr
    result = run_conformance(
        "--adapter", str(tmp_path / "no-such-adapter"), "--vectors", str(SUITE), "--group", "rng"
    )
    assert result.returncode == 2
    assert "cannot start" in result.stderr


def test_group_selection_runs_only_those_groups(tmp_path: Path) -> None:
    result = run_conformance(
        "--adapter",
        f"{PYTHON} -m hatsuden_rules.conformance.adapter",
        "--vectors",
        str(subset(tmp_path, 3)),
        "--group",
        "rng",
        "--group",
        "perft",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "PASSED: all 6 vectors" in result.stdout
    assert "  scores " not in result.stdout


def test_without_an_adapter_the_bundled_reference_runs(tmp_path: Path) -> None:
    """Issue 23: no "the following arguments are required: --adapter"."""
    result = run_conformance("--vectors", str(subset(tmp_path, 2)))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "(the bundled reference)" in result.stdout
    assert f"PASSED: all {2 * len(GROUPS)} vectors" in result.stdout
