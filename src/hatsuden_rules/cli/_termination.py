"""``python -m hatsuden_rules.modelcheck.termination``: the termination check's command."""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Sequence
from typing import Any

from hatsuden_rules.modelcheck.termination import (
    TERMINATION_CONFIGS,
    find_endless_game,
    format_result,
    golden_record,
)

__all__ = ["build_parser", "main"]

PROG = "python -m hatsuden_rules.modelcheck.termination"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the command."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description=(
            "Whether a reduced rule set admits a game that never ends (no stall rule, as in the "
            "printed rules), with the shortest such game as the counterexample."
        ),
    )
    parser.add_argument(
        "--config",
        action="append",
        choices=list(TERMINATION_CONFIGS),
        help="a named reduced rule set (repeatable; default: all)",
    )
    parser.add_argument("--max-states", type=int, metavar="N", help="stop after N states")
    parser.add_argument(
        "--expect",
        choices=("endless", "terminates"),
        help="exit 1 unless every configuration gives this answer",
    )
    parser.add_argument(
        "--golden", metavar="FILE", help="compare the figures with FILE's entry for each name"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command with `argv` (default: the process arguments); return the exit code.

    Exit codes: 0 done (and as expected), 1 an unexpected answer or a golden mismatch, 2 a usage
    error or an exploration stopped by ``--max-states``.
    """
    args = build_parser().parse_args(argv)
    if args.max_states is not None and args.max_states < 1:
        print(f"{PROG}: error: --max-states must be >= 1", file=sys.stderr)
        return 2
    names = args.config or list(TERMINATION_CONFIGS)
    golden: dict[str, Any] = {}
    if args.golden is not None:
        with open(args.golden, encoding="utf-8") as file:
            golden = json.load(file)["configs"]
    code = 0
    records: dict[str, Any] = {}
    for name in names:
        result = find_endless_game(
            TERMINATION_CONFIGS[name],
            max_states=args.max_states,
            progress=None if args.quiet else functools.partial(_progress, name),
        )
        records[name] = golden_record(result) | {"complete": result.complete}
        if not args.json:
            print(format_result(name, result), flush=True)
        if not result.complete:
            code = max(code, 2)
            continue
        answer = "endless" if result.endless else "terminates"
        if args.expect is not None and answer != args.expect:
            print(f"{PROG}: {name}: {answer}, expected {args.expect}", file=sys.stderr)
            code = max(code, 1)
        if args.golden is not None:
            code = max(code, _compare(name, golden_record(result), golden.get(name)))
    if args.json:
        print(json.dumps(records, indent=2))
    return code


def _progress(name: str, line: str) -> None:
    print(f"{PROG}: {name}: {line}", file=sys.stderr, flush=True)


def _compare(name: str, actual: dict[str, Any], expected: dict[str, Any] | None) -> int:
    if expected is None:
        print(f"{PROG}: no golden entry for {name!r}", file=sys.stderr)
        return 1
    differences = [
        key for key in sorted(set(expected) | set(actual)) if expected.get(key) != actual.get(key)
    ]
    for key in differences:
        print(
            f"{PROG}: {name}: golden mismatch: {key}: golden {expected.get(key)!r}, "
            f"now {actual.get(key)!r}",
            file=sys.stderr,
        )
    return 1 if differences else 0
