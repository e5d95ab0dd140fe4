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

from hatsuden_rules.conformance._adapter import handle, main

__all__ = ["handle", "main"]

if __name__ == "__main__":
    sys.exit(main())
