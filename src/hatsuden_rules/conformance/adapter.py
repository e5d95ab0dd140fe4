"""This library's own adapter: ``python -m hatsuden_rules.conformance.adapter``.

It answers the conformance protocol on standard input and output (CONFORMANCE.md, "Protocol"):
one JSON request per line in, one JSON response per line out, until standard input ends.

Examples:
    >>> from hatsuden_rules import RULES_VERSION
    >>> from hatsuden_rules.conformance.adapter import handle
    >>> handle({"id": 7, "kind": "hello"})["rules_version"] == RULES_VERSION
    True
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from hatsuden_rules.conformance._adapter import handle

__all__ = ["handle", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Serve requests from standard input until it ends (`hatsuden_rules.cli`); exit status 0."""
    from hatsuden_rules.cli._adapter import main as command

    return command(argv)


if __name__ == "__main__":
    sys.exit(main())
