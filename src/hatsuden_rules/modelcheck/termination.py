"""Whether a rule set admits a game that never ends (RULES.md R25, R31), from the command line.

``python -m hatsuden_rules.modelcheck.termination --config printed-small`` explores every
reachable state of a reduced rule set (see `_termination`) and prints the shortest game that
never ends: the moves from `new_game()` to the start of a cycle, and the cycle. ``--expect
endless`` or ``--expect terminates`` turns the answer into a check, and ``--golden FILE``
compares the figures with a file such as ``tests/golden/termination.json``.

Exit codes: 0 done (and as expected), 1 an unexpected answer or a golden mismatch, 2 a usage
error or an exploration stopped by ``--max-states``.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Sequence
from typing import Any

from hatsuden_rules import format_move, format_rules
from hatsuden_rules.modelcheck._report import rules_dict
from hatsuden_rules.modelcheck._termination import (
    TERMINATION_CONFIGS,
    TerminationResult,
    find_endless_game,
    project,
)

__all__ = [
    "TERMINATION_CONFIGS",
    "TerminationResult",
    "find_endless_game",
    "format_result",
    "golden_record",
    "main",
    "project",
]

PROG = "python -m hatsuden_rules.modelcheck.termination"


def golden_record(result: TerminationResult) -> dict[str, Any]:
    """The figures of `result` that a golden file pins (no timings)."""
    return {
        "rules": rules_dict(result.rules),
        "states": result.states,
        "transitions": result.transitions,
        "terminal_states": result.terminal_states,
        "cyclic_states": result.cyclic_states,
        "endless": result.endless,
        "prefix": [format_move(move) for move in result.prefix],
        "cycle": [format_move(move) for move in result.cycle],
        "longest_game": result.longest_game,
    }


def format_result(name: str, result: TerminationResult) -> str:
    """`result` for humans: the figures, the verdict and the shortest never-ending game."""
    limit = result.rules.stall_limit
    projected = " (stall counter set to 0: no stall limit)" if limit is None else ""
    lines = [
        f"{name}: rules {format_rules(result.rules)}",
        f"states {result.states:,}{projected}, transitions {result.transitions:,}, "
        f"game over in {result.terminal_states:,}, on a cycle {result.cyclic_states:,}; "
        f"{result.seconds:.1f} s",
    ]
    if not result.complete:
        lines.append("TRUNCATED: --max-states stopped the exploration; nothing is proven")
    elif result.endless:
        lines += [
            f"ENDLESS: a game can last forever. Shortest cycle: {len(result.cycle)} moves "
            f"({result.cycle_turns} turns), reached after {len(result.prefix)} moves:",
            "  to the cycle: " + (", ".join(map(format_move, result.prefix)) or "(none)"),
            "  the cycle:    " + ", ".join(map(format_move, result.cycle)),
        ]
    else:
        lines.append(f"TERMINATES: every game ends, after at most {result.longest_game} moves")
    return "\n".join(lines)


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
    """Run the command with `argv` (default: the process arguments); return the exit code."""
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


if __name__ == "__main__":
    sys.exit(main())
