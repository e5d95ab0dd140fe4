"""The language-neutral conformance suite: its vectors, the runner and an adapter.

A port of HATSUDEN proves it plays this library's game by passing the vectors in
``conformance/`` (JSON Lines, one vector a line) through its own adapter program:
``hatsuden-conformance --adapter "CMD"``. See CONFORMANCE.md for the format and the protocol and
PORTING.md for the way there.

- ``make vectors`` rebuilds the suite deterministically (the generator lives in the
  repository's ``tools/vectors/``, not in the package);
- `run` / ``hatsuden-conformance`` drive an adapter subprocess over JSON lines;
- ``python -m hatsuden_rules.conformance.adapter`` is this library's own adapter (`handle`).

Examples:
    >>> from hatsuden_rules.conformance import GROUPS, handle
    >>> GROUPS[:3]
    ('rng', 'seeded_games', 'transitions')
    >>> handle({"id": 1, "kind": "legal_moves", "state": "x"})["ok"]
    False
"""

from hatsuden_rules.conformance._adapter import handle
from hatsuden_rules.conformance._runner import (
    Adapter,
    AdapterError,
    check_response,
    default_vectors_dir,
    main,
    run,
)
from hatsuden_rules.conformance._vectors import (
    FORMAT_VERSION,
    GROUPS,
    NOTES,
    Vector,
    load_vectors,
    make_vector,
)

__all__ = [
    "FORMAT_VERSION",
    "GROUPS",
    "NOTES",
    "Adapter",
    "AdapterError",
    "Vector",
    "check_response",
    "default_vectors_dir",
    "handle",
    "load_vectors",
    "main",
    "make_vector",
    "run",
]
