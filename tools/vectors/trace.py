"""Traceability: which vectors and which tests exercise each numbered rule of RULES.md.

Rules are the ``### R<n>. Title`` headings of RULES.md. A vector exercises the rules in its
``rule_refs``. A test exercises the rules it cites: ``R12`` in its name, docstring, comments or
body (a test function's whole source, decorators included), or ``r12`` as a word of its name;
a test module's docstring counts for the file. Only ``test_*.py`` files under ``tests/`` and
``property_tests/`` count (in subfolders too), and not the conformance tests themselves (they run
the vectors, which are counted already) nor those of the native core (``tests/native/``).
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Final

import attrs

from hatsuden_rules.conformance._vectors import GROUPS, Vector

__all__ = ["Trace", "cited_by_tests", "rule_titles", "trace"]

_HEADING: Final = re.compile(r"^### (R\d+)\. (.+?)\s*$", re.MULTILINE)
_CITE: Final = re.compile(r"\bR(\d+)\b")
_NAME_CITE: Final = re.compile(r"(?:^|_)r(\d+)(?=_|$)")
TEST_DIRS: Final = ("tests", "property_tests")


def rule_titles(rules_md: str) -> dict[str, str]:
    r"""The numbered rules of RULES.md, in document order, with their titles.

    Examples:
        >>> rule_titles("### R1. Energies\ntext\n### R2. Plant cards\n")
        {'R1': 'Energies', 'R2': 'Plant cards'}
    """
    return dict(_HEADING.findall(rules_md))


def _refs(text: str) -> set[str]:
    return {f"R{n}" for n in _CITE.findall(text)}


def cited_by_tests(root: Path) -> dict[str, dict[str, set[str]]]:
    """For each rule, the test functions citing it, by file (``tests/test_x.py``).

    A file whose module docstring cites the rule is listed with the pseudo-test ``<module>``.
    """
    cited: dict[str, dict[str, set[str]]] = {}
    for folder in TEST_DIRS:
        for path in sorted((root / folder).rglob("test_*.py")):
            inside = path.relative_to(root / folder).parts
            if path.name.startswith("test_conformance") or inside[0] == "native":
                continue  # the vectors' own tests; the native core's tests (tests/native)
            name = f"{folder}/{path.name}"
            source = path.read_text(encoding="utf-8")
            tree = ast.parse(source)
            lines = source.splitlines()
            found: list[tuple[str, set[str]]] = [("<module>", _refs(ast.get_docstring(tree) or ""))]
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                    body = "\n".join(lines[first - 1 : node.end_lineno])
                    refs = _refs(body) | {f"R{n}" for n in _NAME_CITE.findall(node.name)}
                    found.append((node.name, refs))
            for test, refs in found:
                for ref in refs:
                    cited.setdefault(ref, {}).setdefault(name, set()).add(test)
    return cited


@attrs.frozen
class Trace:
    """The traceability of every rule: vectors per group and citing tests.

    Attributes:
        titles: Rule number to title, in RULES.md order.
        vectors: Rule number to the count of vectors per group.
        tests: Rule number to the citing test functions, by file.
        unknown_refs: Rule numbers cited by vectors that RULES.md does not define.
    """

    titles: dict[str, str]
    vectors: dict[str, Counter[str]]
    tests: dict[str, dict[str, set[str]]]
    unknown_refs: tuple[str, ...]

    def gaps(self) -> list[str]:
        """One line per rule without a vector or without a test (empty when all is traced)."""
        lines = []
        for ref in self.titles:
            if not self.vectors.get(ref):
                lines.append(f"{ref} has no vector")
            if not self.tests.get(ref):
                lines.append(f"{ref} has no test")
        return lines

    def vector_rows(self) -> list[str]:
        """The rule and vector columns of the table (what `make vectors` decides)."""
        rows = []
        for ref, title in self.titles.items():
            counts = self.vectors.get(ref, Counter())
            groups = ", ".join(f"{g} {counts[g]}" for g in GROUPS if counts[g])
            rows.append(f"| {ref} | {title} | {sum(counts.values())} | {groups or '—'} |")
        return rows

    def table(self) -> str:
        """The Markdown table of CONFORMANCE.md: one row per rule."""
        lines = [
            "| rule | title | vectors | vectors by group | tests | test files |",
            "|---|---|---:|---|---:|---|",
        ]
        for row, ref in zip(self.vector_rows(), self.titles, strict=True):
            files = self.tests.get(ref, {})
            count = sum(len(tests - {"<module>"}) for tests in files.values())
            names = ", ".join(f"`{Path(f).name}`" for f in sorted(files)) or "—"
            lines.append(f"{row} {count} | {names} |")
        return "\n".join(lines)


def trace(rules_md: str, vectors: Iterable[Vector], root: Path) -> Trace:
    """The traceability of the rules in `rules_md` by `vectors` and the tests under `root`."""
    titles = rule_titles(rules_md)
    counts: dict[str, Counter[str]] = {}
    unknown = set()
    for vector in vectors:
        for ref in vector.rule_refs:
            counts.setdefault(ref, Counter())[vector.group] += 1
            if ref not in titles:
                unknown.add(ref)
    return Trace(titles, counts, cited_by_tests(root), tuple(sorted(unknown)))


def table_vector_rows(markdown: str) -> list[str]:
    """The rule and vector columns of the traceability table found in `markdown`."""
    rows = []
    for line in markdown.splitlines():
        if re.match(r"^\| R\d+ \|", line):
            cells = line.split(" | ")
            rows.append(" | ".join(cells[:4]) + " |")
    return rows


def gaps_text(gaps: Sequence[str]) -> str:
    """A sentence for the document: no gaps, or the list."""
    if not gaps:
        return "Every rule has at least one vector and at least one test."
    return "Gaps: " + "; ".join(gaps) + "."
