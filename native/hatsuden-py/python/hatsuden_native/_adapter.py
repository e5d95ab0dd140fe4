"""``hatsuden-native-adapter``: the conformance adapter, served by the Rust loop."""

from __future__ import annotations

import sys

from ._native import serve_stdio


def main() -> None:
    """Answer conformance requests on stdin/stdout until stdin ends (CONFORMANCE.md)."""
    sys.stdout.flush()
    sys.exit(serve_stdio())
