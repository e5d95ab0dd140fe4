"""The table of printable characters (player names, NOTATION.md "Game records") in both cores.

``tools/printable.py`` writes it twice, ``src/hatsuden_rules/core/printable.py`` and
``native/hatsuden/src/printable.rs``; the two must hold the same ranges, and under the Python
whose Unicode version the table states, exactly what the generator writes.
"""

from __future__ import annotations

import re
import unicodedata
from itertools import pairwise

from tools import printable as generator

from hatsuden_rules.core import printable


def _ranges(text: str) -> list[tuple[int, int]]:
    return [
        (int(a, 16), int(b, 16)) for a, b in re.findall(r"\(0x([0-9A-F]+), 0x([0-9A-F]+)\)", text)
    ]


def test_both_cores_hold_the_same_table() -> None:
    python = _ranges(generator.PYTHON_FILE.read_text(encoding="utf-8"))
    rust = _ranges(generator.RUST_FILE.read_text(encoding="utf-8"))
    assert python == rust
    assert len(python) == len(printable._NOT_PRINTABLE)
    assert (
        f'UNICODE_VERSION: &str = "{printable.UNICODE_VERSION}"'
        in generator.RUST_FILE.read_text(encoding="utf-8")
    )
    # Ascending, disjoint and not touching (the generator merges neighbours).
    assert all(a <= b < c - 1 for (a, b), (c, _) in pairwise(python))


def test_the_committed_table_is_what_the_generator_writes() -> None:
    if unicodedata.unidata_version != printable.UNICODE_VERSION:
        # Another interpreter's Unicode: its table would differ; the committed one stays.
        assert printable.UNICODE_VERSION == "14.0.0"
        return
    assert generator.main(["--check"]) == 0
