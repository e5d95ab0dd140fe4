"""The wheel and the sdist stand on their own (issue 13).

`make dist` (run by `make test` before pytest) builds both into dist/ and runs `twine check`.
These tests read what was built: the wheel carries the license, the specification and the
conformance vectors; the sdist carries every document the README links and builds the wheel; and
the wheel, installed alone into a fresh virtualenv, runs its commands. When dist/ is missing or
older than the sources (pytest run on its own after an edit), the tests build afresh.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

import hatsuden_rules
from tests.support.paths import ROOT_DIR

ROOT = ROOT_DIR
NAME = f"hatsuden_rules-{hatsuden_rules.__version__}"
# The sources that go into the distributions (the sdist's include list in pyproject.toml).
INPUTS = ("src", "conformance", "docs", "pyproject.toml", "LICENSE", "README.md", "RULES.md")


def _newest_input() -> float:
    newest = 0.0
    for name in INPUTS:
        path = ROOT / name
        files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
        newest = max([newest, *(f.stat().st_mtime for f in files if "__pycache__" not in f.parts)])
    return newest


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The wheel and the sdist: dist/'s if up to date, else freshly built."""
    wheel = ROOT / "dist" / f"{NAME}-py3-none-any.whl"
    sdist = ROOT / "dist" / f"{NAME}.tar.gz"
    if (
        not (wheel.is_file() and sdist.is_file())
        or min(wheel.stat().st_mtime, sdist.stat().st_mtime) < _newest_input()
    ):
        out = tmp_path_factory.mktemp("dist")
        subprocess.run(
            [sys.executable, "-m", "build", "--quiet", "--outdir", str(out), str(ROOT)],
            check=True,
            capture_output=True,
        )
        wheel, sdist = out / wheel.name, out / sdist.name
    return wheel, sdist


def _readme_links() -> set[str]:
    """The relative file links of README.md (anchors dropped)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    links = {m.split("#")[0] for m in re.findall(r"\]\(([^)\s]+)\)", text)}
    return {link for link in links if link and "://" not in link}


def test_wheel_carries_license_specification_and_vectors(built: tuple[Path, Path]) -> None:
    wheel, _ = built
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        assert archive.read("hatsuden_rules/RULES.md") == (ROOT / "RULES.md").read_bytes()
        license_text = archive.read(f"{NAME}.dist-info/licenses/LICENSE").decode()
        metadata = archive.read(f"{NAME}.dist-info/METADATA").decode()
    assert license_text.startswith("MIT License")
    assert license_text == (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "License-File: LICENSE" in metadata
    assert "hatsuden_rules/py.typed" in names
    suite = ROOT / "conformance"  # the vectors and, in schema/, the JSON Schemas
    vectors = {p.relative_to(suite).as_posix() for p in suite.rglob("*") if p.is_file()}
    assert "schema/state.json" in vectors
    folder = "/conformance/vectors/"
    shipped = {n.split(folder, 1)[1] for n in names if folder in n}
    assert shipped == vectors
    schemas = {p.name for p in (ROOT / "src/hatsuden_rules/schema").glob("*.json")}
    assert {n.rsplit("/", 1)[1] for n in names if n.startswith("hatsuden_rules/schema/")} == schemas
    assert not [n for n in names if "__pycache__" in n or n.startswith(("tests/", "docs/"))]


def test_sdist_carries_every_document_the_readme_links(built: tuple[Path, Path]) -> None:
    _, sdist = built
    with tarfile.open(sdist) as archive:
        names = {name.removeprefix(f"{NAME}/") for name in archive.getnames()}
    links = _readme_links()
    assert {"LICENSE", "RULES.md", "NOTATION.md", "CHANGELOG.md", "PORTING.md"} <= links
    missing = sorted(link for link in links if link.rstrip("/") not in names)
    assert missing == [], f"README.md links files the sdist lacks: {missing}"
    for name in ("LICENSE", "mkdocs.yml", "docs/index.md", "docs/plugins/hooks.py", "Makefile"):
        assert name in names, name
    assert not [n for n in names if n.startswith((".venv", "site/", "dist/")) or ".pyc" in n]


def test_wheel_runs_in_a_fresh_virtualenv(
    built: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory
) -> None:
    """`pip install` of the wheel alone: attrs is its only dependency, and every command runs."""
    wheel, _ = built
    home = tmp_path_factory.mktemp("fresh")  # not the repository: nothing found by accident
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "venv"], cwd=home, check=True)
    bin_dir = home / "venv" / "bin"
    python = bin_dir / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", str(wheel)],
        check=True,
        capture_output=True,
    )

    def run(*command: str) -> str:
        result = subprocess.run(
            command, cwd=home, capture_output=True, text=True, timeout=300, check=False
        )
        assert result.returncode == 0, (command, result.stdout[-2000:], result.stderr[-2000:])
        return result.stdout

    installed = run(str(python), "-c", "import importlib.metadata as m; print(m.version('attrs'))")
    assert installed.strip()
    for command in ("hatsuden", "hatsuden-check", "hatsuden-replay", "hatsuden-conformance"):
        assert run(str(bin_dir / command), "--version") == (
            f"{command} {hatsuden_rules.__version__}\n"
        )
    demo = run(str(bin_dir / "hatsuden"), "demo", "--seed", "1")
    assert "Winner: player" in demo  # R29: a game always has a winner
    rules = run(
        str(python),
        "-c",
        "import importlib.resources as r; print(r.files('hatsuden_rules')"
        ".joinpath('RULES.md').read_text(encoding='utf-8'), end='')",
    )
    assert rules == (ROOT / "RULES.md").read_text(encoding="utf-8")
    # Two groups (whole seeded games, R8; the readers' errors) through the wheel's own runner,
    # vectors and adapter. Every vector runs through the checkout's adapter in
    # tests/conformance/test_conformance_runner.py, the shipped vectors equal the checkout's
    # (above), and `make native-check` runs them all from this wheel against the native adapter.
    adapter = f"{python} -m hatsuden_rules.conformance.adapter"
    groups = ["--group", "seeded_games", "--group", "invalid"]
    report = run(str(bin_dir / "hatsuden-conformance"), "--adapter", adapter, *groups)
    assert str(home / "venv") in report  # the vectors shipped in the wheel, not a checkout's
    assert "PASSED: all" in report
    assert "seeded_games" in report
    assert "transitions" not in report
