"""Rebuild the conformance suite (`make vectors`).

Run it as ``python -m tools.vectors.generate``.

Writes ``GROUP.jsonl`` for every group, the package's JSON Schemas under ``schema/`` (the
documents' and the vector's, byte for byte) and ``manifest.json`` into the output directory,
and, with ``--doc``, refreshes the generated sections of CONFORMANCE.md (vector counts, the notes
table and the rule traceability table). Generation is deterministic: the same library gives
byte-identical files, which a test checks against the checked-in suite.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections import Counter
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Final

from hatsuden_rules.conformance._vectors import FORMAT_VERSION, GROUPS, NOTES, Vector
from hatsuden_rules.core.rules import RULES_VERSION
from hatsuden_rules.serialization import FORMAT_VERSION as DOCUMENT_FORMAT_VERSION
from tools.vectors.suite import generate
from tools.vectors.trace import gaps_text, trace

__all__ = ["GROUP_SUMMARIES", "main", "render_doc", "schema_files", "suite_files", "write_suite"]

GROUP_SUMMARIES: Final = {
    "rng": "seed → first SplitMix64 outputs (R32); seed + weight lists → sampler picks (R33)",
    "seeded_games": "rules + seed + moves → the state after every move and the final score",
    "transitions": "state + move → the next state, or the illegal-move error and its rule",
    "legal_moves": "state → every legal move in canonical order; chance outcomes with p/q",
    "scores": "state → score sheet, winner and the step that decided it (R27-R29)",
    "observations": "state + player → observation (R37); its tensor (R39); sample_state (R38)",
    "perft": "state + depth → move-path counts per depth, and the divide by first move",
    "invalid": "malformed notation and JSON → the error every port must raise; controls",
}
"""One line per group: what its vectors ask."""


def schema_files() -> dict[str, str]:
    """The JSON Schemas a port needs, by path in the suite: ``schema/NAME.json``.

    The documents' schemas (``hatsuden_rules/schema/*.json``, NOTATION.md "JSON Schemas") and
    the vector's (``hatsuden_rules/conformance/vector.schema.json``), copied byte for byte.
    """
    folder = resources.files("hatsuden_rules").joinpath("schema")
    files = {
        f"schema/{item.name}": item.read_text(encoding="utf-8")
        for item in sorted(folder.iterdir(), key=lambda item: item.name)
        if item.name.endswith(".json")
    }
    vector = resources.files("hatsuden_rules.conformance").joinpath("vector.schema.json")
    files["schema/vector.schema.json"] = vector.read_text(encoding="utf-8")
    return files


def manifest(vectors: Sequence[Vector], files: dict[str, str]) -> dict[str, Any]:
    """The manifest: versions, counts, file hashes, the schemas and the notes table."""
    counts = Counter(v.group for v in vectors)
    return {
        "suite": "hatsuden-conformance",
        "rules_version": RULES_VERSION,
        "format_version": FORMAT_VERSION,
        "document_format_version": DOCUMENT_FORMAT_VERSION,
        "vector_count": len(vectors),
        "groups": {
            group: {
                "file": f"{group}.jsonl",
                "count": counts[group],
                "sha256": hashlib.sha256(files[f"{group}.jsonl"].encode()).hexdigest(),
                "summary": GROUP_SUMMARIES[group],
            }
            for group in GROUPS
        },
        "schemas": {
            name: {
                "id": json.loads(text).get("$id"),
                "sha256": hashlib.sha256(text.encode()).hexdigest(),
            }
            for name, text in files.items()
            if name.startswith("schema/")
        },
        "notes": dict(NOTES),
    }


def suite_files(vectors: Sequence[Vector]) -> dict[str, str]:
    """The contents of every file of the suite, by file name."""
    files = {
        f"{group}.jsonl": "".join(v.to_line() + "\n" for v in vectors if v.group == group)
        for group in GROUPS
    }
    files |= schema_files()
    files["manifest.json"] = (
        json.dumps(manifest(vectors, files), indent=2, ensure_ascii=False) + "\n"
    )
    return files


def write_suite(directory: Path, vectors: Sequence[Vector]) -> None:
    """Write the suite's files into `directory` (created if needed)."""
    directory.mkdir(parents=True, exist_ok=True)
    for name, content in suite_files(vectors).items():
        (directory / name).parent.mkdir(parents=True, exist_ok=True)
        (directory / name).write_text(content, encoding="utf-8")


def _section(doc: str, name: str, body: str) -> str:
    begin, end = f"<!-- BEGIN GENERATED: {name} -->", f"<!-- END GENERATED: {name} -->"
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.DOTALL)
    if not pattern.search(doc):
        raise ValueError(f"the document has no section {begin} ... {end}")
    return pattern.sub(lambda _: f"{begin}\n{body}\n{end}", doc, count=1)


def render_doc(doc: str, vectors: Sequence[Vector], rules_md: str, root: Path) -> str:
    """`doc` (CONFORMANCE.md) with its generated sections rebuilt."""
    counts = Counter(v.group for v in vectors)
    rows = ["| group | vectors | what a vector asks |", "|---|---:|---|"]
    rows += [f"| `{g}` | {counts[g]} | {GROUP_SUMMARIES[g]} |" for g in GROUPS]
    rows.append(f"| **total** | **{len(vectors)}** | rules version {RULES_VERSION} |")
    notes = ["| flag | meaning |", "|---|---|"]
    notes += [f"| `{flag}` | {meaning} |" for flag, meaning in NOTES.items()]
    traced = trace(rules_md, vectors, root)
    table = traced.table() + "\n\n" + gaps_text(traced.gaps())
    doc = _section(doc, "counts", "\n".join(rows))
    doc = _section(doc, "notes", "\n".join(notes))
    return _section(doc, "traceability", table)


def main(argv: Sequence[str] | None = None) -> int:
    """Generate the suite; 0 on success, 1 if ``--check`` finds the files out of date."""
    parser = argparse.ArgumentParser(
        prog="python -m tools.vectors.generate",
        description="Rebuild the conformance vectors (and CONFORMANCE.md's generated sections).",
    )
    parser.add_argument("--out", type=Path, default=Path("conformance"), help="output directory")
    parser.add_argument("--doc", type=Path, default=None, help="CONFORMANCE.md to refresh")
    parser.add_argument(
        "--root", type=Path, default=Path("."), help="the checkout (RULES.md, tests/)"
    )
    parser.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if a file is out of date"
    )
    args = parser.parse_args(argv)
    vectors = generate()
    files = suite_files(vectors)
    outputs: dict[Path, str] = {args.out / name: content for name, content in files.items()}
    if args.doc is not None:
        rules_md = (args.root / "RULES.md").read_text(encoding="utf-8")
        doc = args.doc.read_text(encoding="utf-8")
        outputs[args.doc] = render_doc(doc, vectors, rules_md, args.root)
    stale = [
        path
        for path, content in outputs.items()
        if not path.is_file() or path.read_text(encoding="utf-8") != content
    ]
    if args.check:
        for path in stale:
            print(f"out of date: {path}", file=sys.stderr)
        return 1 if stale else 0
    for path in stale:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(outputs[path], encoding="utf-8")
    counts = Counter(v.group for v in vectors)
    summary = ", ".join(f"{g} {counts[g]}" for g in GROUPS)
    print(f"{len(vectors)} vectors ({summary}); {len(stale)} files written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
