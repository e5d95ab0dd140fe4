"""Counts the documents state are taken from the code, so they cannot go stale (issue 23).

- A range of rules from the first that reaches past the 36th is a claim about all the rules: it
  must end at the last rule of RULES.md (smaller ranges name a part: the components, or the
  model checker's invariants).
- "the N player moves" counts `MOVE_TYPES` less the two chance outcomes.
- ``"rules_version":N`` in an example equals `RULES_VERSION`.
"""

from __future__ import annotations

import json
import re
import subprocess

from hatsuden_rules import RULES_VERSION
from hatsuden_rules.core.moves import MOVE_TYPES, Deal, DealTech
from tests.support.paths import ROOT_DIR

_RANGE = re.compile(r"\bR1\s?[-\u2013]\s?R(\d+)\b")  # a hyphen or an en dash
_MOVES = re.compile(r"\b(?:of the|the) (\d+) player moves\b")  # a count of the move kinds
_VERSION = re.compile(r'"rules_version"\s*:\s*(\d+)')


def _texts() -> dict[str, str]:
    listed = subprocess.run(
        ["git", "ls-files", "*.md", "*.py", "*.txt"],
        cwd=ROOT_DIR,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    texts = {}
    for name in listed:
        if name.startswith(("tests/golden/", "CHANGELOG.md")) or name.endswith("test_counts.py"):
            continue  # the changelog tells history; golden files are data
        path = ROOT_DIR / name
        if path.is_file():
            texts[name] = path.read_text(encoding="utf-8")
    return texts


def last_rule() -> int:
    rules = (ROOT_DIR / "RULES.md").read_text(encoding="utf-8")
    return max(int(n) for n in re.findall(r"^### R(\d+)\.", rules, flags=re.MULTILINE))


def test_the_last_rule_is_the_rulebooks() -> None:
    from hatsuden_rules.cli._rulebook import load_rulebook

    assert last_rule() >= 41
    assert f"R{last_rule()}" in load_rulebook().listing()


def test_rule_ranges_reach_the_last_rule() -> None:
    stale = [
        f"{name}: {match.group(0)}"
        for name, text in _texts().items()
        for match in _RANGE.finditer(text)
        if int(match.group(1)) > 36 and int(match.group(1)) != last_rule()
    ]
    assert stale == [], f"the rules run to R{last_rule()}"


def test_move_counts_are_the_move_classes() -> None:
    player_moves = len([m for m in MOVE_TYPES if m not in (Deal, DealTech)])
    assert player_moves == 15
    stale = [
        f"{name}: {match.group(0)}"
        for name, text in _texts().items()
        for match in _MOVES.finditer(text)
        if int(match.group(1)) != player_moves
    ]
    assert stale == []
    found = [name for name, text in _texts().items() if _MOVES.search(text)]
    assert "src/hatsuden_rules/core/moves.py" in found


def test_rules_version_in_examples_is_the_codes() -> None:
    stale = [
        f"{name}: {match.group(0)}"
        for name, text in _texts().items()
        for match in _VERSION.finditer(text)
        if int(match.group(1)) != RULES_VERSION
    ]
    assert stale == []
    assert any(_VERSION.search(text) for text in _texts().values())


# "all 4,223 vectors", "every one of the 4,223 vectors", "the 4,223 vectors": the suite's size
# (a sentence about an earlier suite says "then": "All 4,063 vectors of the suite then passed").
_VECTORS = re.compile(
    r"\b(?:[Aa]ll|every one of the|[Tt]he) (\d{1,3}(?:,\d{3})+|\d{4,}) vectors\b"
    r"(?! of the suite then)"
)


def test_vector_counts_are_the_manifests() -> None:
    """Issue 23: the suite's size, wherever a document states it, is the manifest's."""
    manifest = json.loads((ROOT_DIR / "conformance" / "manifest.json").read_text("utf-8"))
    count = manifest["vector_count"]
    stale = [
        f"{name}: {match.group(0)}"
        for name, text in _texts().items()
        for match in _VECTORS.finditer(" ".join(text.split()))
        if int(match.group(1).replace(",", "")) != count
    ]
    assert stale == [], f"the suite has {count:,} vectors"
    assert sum(len(_VECTORS.findall(" ".join(t.split()))) for t in _texts().values()) >= 2
