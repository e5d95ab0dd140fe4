"""``hatsuden rules``: the specification, offline (RULES.md, shipped in the package).

RULES.md is read with `importlib.resources` from the installed package
(``hatsuden_rules/RULES.md``); in a source checkout where the package does not hold it, from
the repository's RULES.md. A rule is the text under its heading ``### R12. Improve`` up to the
next heading; a ruling is the paragraph that starts ``**A1. Title.**`` in the Rulings section.
Anchors are dropped from what is printed: a line ``<a id="r12"></a>`` before a heading, and an
attribute anchor such as ``{#r12}`` at the end of one.
"""

from __future__ import annotations

import importlib.resources
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Final

import attrs

__all__ = ["Entry", "Rulebook", "UnknownRuleError", "load_rulebook", "read_rules_text"]

_HEADING: Final = re.compile(r"^(#{1,6})\s+(.*?)\s*(?:\{#[^}]*\})?\s*$")
_RULE: Final = re.compile(r"^([A-Z]\d+)\.\s+(.*?)\.?$")  # R12, or a ruling made a heading
_RULING: Final = re.compile(r"^\*\*([A-Z]\d+)\.\s+(.*?)\.?\*\*")
_ID: Final = re.compile(r"^([A-Z])(\d+)$")
_ANCHOR_LINE: Final = re.compile(r"^\s*<a\s+(?:id|name)=\"[^\"]*\"\s*>\s*</a>\s*$")


class UnknownRuleError(LookupError):
    """A rule id that RULES.md does not have; the message lists the valid ids."""


@attrs.frozen
class Entry:
    """One rule (``R12``) or ruling (``A1``) of RULES.md: its id, title and text."""

    id: str
    title: str
    text: str


def read_rules_text() -> str:
    """RULES.md: the copy in the package, else the repository's (a source checkout).

    Raises:
        FileNotFoundError: Neither exists (one line, naming both places).
    """
    shipped = importlib.resources.files("hatsuden_rules").joinpath("RULES.md")
    if shipped.is_file():
        return shipped.read_text(encoding="utf-8")
    package = Path(__file__).resolve().parent.parent  # .../hatsuden_rules
    for folder in (package.parent, package.parent.parent):  # src/, then the repository
        candidate = folder / "RULES.md"
        if candidate.is_file():
            return candidate.read_text(encoding="utf-8")
    raise FileNotFoundError(
        "RULES.md is neither in the installed package (hatsuden_rules/RULES.md) nor in a source "
        "checkout: reinstall hatsuden-rules"
    )


def _strip_anchor(line: str) -> str:
    match = _HEADING.match(line)
    if match is None:
        return line
    return f"{match.group(1)} {match.group(2)}"


@attrs.frozen
class Rulebook:
    """The rules and rulings of RULES.md, by id, in the order of the document."""

    document: str
    entries: tuple[Entry, ...]

    def lookup(self, text: str) -> Entry:
        """The entry `text` names: ``R12``, ``r12``, ``12`` (a rule), ``#r12`` or ``A5``.

        Raises:
            UnknownRuleError: No such rule or ruling.
        """
        key = text.strip().lstrip("#").upper()
        if key.isdigit():
            key = f"R{int(key)}"
        for entry in self.entries:
            if entry.id == key:
                return entry
        raise UnknownRuleError(f"unknown rule {text!r}: valid ids are {self.valid_ids()}")

    def valid_ids(self) -> str:
        """The ids as ranges per letter, e.g. ``R1-R41, A1-A11``."""
        numbers: dict[str, list[int]] = {}
        for entry in self.entries:
            match = _ID.match(entry.id)
            if match is not None:
                numbers.setdefault(match.group(1), []).append(int(match.group(2)))
        parts = []
        for letter, values in numbers.items():
            values.sort()
            runs: list[list[int]] = []
            for value in values:
                if runs and value == runs[-1][1] + 1:
                    runs[-1][1] = value
                else:
                    runs.append([value, value])
            parts += [f"{letter}{a}" if a == b else f"{letter}{a}-{letter}{b}" for a, b in runs]
        return ", ".join(parts)

    def listing(self) -> str:
        """One line per entry: the id and the title; rules by number, then the rulings."""
        rules = sorted(
            (e for e in self.entries if e.id.startswith("R")), key=lambda e: int(e.id[1:])
        )
        rulings = [e for e in self.entries if not e.id.startswith("R")]
        return "\n".join(f"{e.id:<5} {e.title}" for e in [*rules, *rulings])


def _parse(document: str) -> Rulebook:
    lines: list[str] = []
    for line in document.splitlines():
        if _ANCHOR_LINE.match(line):
            continue
        if not line.strip() and lines and not lines[-1].strip():
            continue  # the blank line after a dropped anchor line
        lines.append(line)
    entries: list[Entry] = []
    current: tuple[str, str, list[str]] | None = None
    fenced = False

    def close() -> None:
        if current is not None:
            body = current[2]
            while body and not body[-1].strip():
                body.pop()
            entries.append(Entry(current[0], current[1], "\n".join(body)))

    for line in lines:
        if line.lstrip().startswith("```"):
            fenced = not fenced
        heading = None if fenced else _HEADING.match(line)
        ruling = None if fenced else _RULING.match(line)
        if heading is not None:
            close()
            current = None
            rule = _RULE.match(heading.group(2))
            if rule is not None and len(heading.group(1)) <= 4:
                current = (rule.group(1), rule.group(2), [_strip_anchor(line)])
            continue
        if ruling is not None:
            close()
            current = (ruling.group(1), ruling.group(2), [line])
            continue
        if current is not None:
            current[2].append(line)
    close()
    document = "\n".join(_strip_anchor(line) for line in lines)
    return Rulebook(document, tuple(entries))


def load_rulebook(text: str | None = None) -> Rulebook:
    r"""The rulebook of `text` (default: RULES.md, see `read_rules_text`).

    Examples:
        >>> book = load_rulebook("## A\n### R2. Cards {#r2}\nTwo.\n\n### R1. Energies\nOne.\n"
        ...                      "## Rulings\n**A1. Tie-break.** *Ruling:* city points.\n")
        >>> print(book.lookup("r2").text)
        ### R2. Cards
        Two.
        >>> print(book.listing())
        R1    Energies
        R2    Cards
        A1    Tie-break
        >>> book.lookup("R9")
        Traceback (most recent call last):
        ...
        hatsuden_rules.cli._rulebook.UnknownRuleError: unknown rule 'R9': valid ids are R1-R2, A1
    """
    return _parse(read_rules_text() if text is None else text)


def show(book: Rulebook, ids: Sequence[str]) -> str:
    """The text of each rule in `ids`, separated by blank lines (all of RULES.md if none)."""
    if not ids:
        return book.document
    return "\n\n".join(book.lookup(text).text for text in ids)
