"""The language-neutral conformance suite: vectors, their generator, the runner and an adapter.

A port of HATSUDEN proves it plays this library's game by passing the vectors in
``conformance/`` (JSON Lines, one vector a line) through its own adapter program:
``hatsuden-conformance --adapter "CMD"``. See CONFORMANCE.md for the format and the protocol and
PORTING.md for the way there.

- `generate` rebuilds the suite deterministically (``make vectors``);
- `run` / ``hatsuden-conformance`` drive an adapter subprocess over JSON lines;
- ``python -m hatsuden_rules.conformance.adapter`` is this library's own adapter (`handle`).

Examples:
    >>> from hatsuden_rules.conformance import GROUPS, handle
    >>> GROUPS[:3]
    ('rng', 'seeded_games', 'transitions')
    >>> handle({"id": 1, "kind": "legal_moves", "state": "x"})["ok"]
    False
"""

from ._adapter import handle
from ._runner import Adapter, AdapterError, check_response, default_vectors_dir, main, run
from ._suite import generate
from ._trace import Trace, cited_by_tests, rule_titles, trace
from ._vectors import FORMAT_VERSION, GROUPS, NOTES, Vector, load_vectors, make_vector

__all__ = [
    "FORMAT_VERSION",
    "GROUPS",
    "NOTES",
    "Adapter",
    "AdapterError",
    "Trace",
    "Vector",
    "check_response",
    "cited_by_tests",
    "default_vectors_dir",
    "generate",
    "handle",
    "load_vectors",
    "main",
    "make_vector",
    "rule_titles",
    "run",
    "trace",
]
