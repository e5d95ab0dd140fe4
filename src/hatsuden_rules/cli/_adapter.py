"""``python -m hatsuden_rules.conformance.adapter``: the bundled adapter's command."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from hatsuden_rules.conformance._adapter import handle

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Serve requests from standard input until it ends; the exit status is 0."""
    del argv
    stdout = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except ValueError as error:
            response: dict[str, Any] = {
                "id": None,
                "ok": False,
                "error": {"type": "bad_request", "message": f"not JSON: {error}"},
            }
        else:
            response = handle(request)
        stdout.write(json.dumps(response, separators=(",", ":"), ensure_ascii=False) + "\n")
        stdout.flush()
    return 0
