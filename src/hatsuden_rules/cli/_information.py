"""``python -m hatsuden_rules.modelcheck.information``: the hidden-information checks' command."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hatsuden_rules import InvalidRulesError, Rules
from hatsuden_rules.cli._flags import add_rule_flags, apply_overrides, overrides
from hatsuden_rules.modelcheck.information import (
    INFORMATION_CONFIGS,
    check_information,
    format_report,
)
from hatsuden_rules.notation import format_rules

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m hatsuden_rules.modelcheck.information --config NAME [--golden FILE]``.

    Exit code 0 when every check holds (and the figures match the golden file, if given), 1 on
    a problem or a mismatch, 2 on a usage error.
    """
    parser = argparse.ArgumentParser(
        prog="python -m hatsuden_rules.modelcheck.information",
        description="Exhaustive hidden-information checks: non-interference, information sets "
        "and sampling over every reachable state of a reduced configuration (RULES.md R30, "
        "R36-R38).",
    )
    add_rule_flags(
        parser,
        configs=dict(sorted(INFORMATION_CONFIGS.items())),
        repeat_config=True,
        default="small (with --config, each configuration is checked, the field flags applied "
        "to each)",
    )
    parser.add_argument(
        "--seeds",
        type=int,
        help="sample every distinct observation with seeds 0..N-1 (default: as in the golden "
        "file, else 1)",
    )
    parser.add_argument("--golden", type=Path, help="compare the figures with this golden file")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--progress", action="store_true", help="progress lines on stderr")
    args = parser.parse_args(argv)
    if args.seeds is not None and args.seeds < 1:
        parser.error("--seeds must be at least 1")
    try:
        runs = _rule_sets(args)
    except InvalidRulesError as error:
        parser.exit(2, f"{parser.prog}: error: invalid rules: {error}\n")
    if args.golden is not None and (args.base_rules is not None or overrides(args)):
        parser.exit(
            2,
            f"{parser.prog}: error: --golden compares named configurations as they "
            "are: drop --rules and the field flags\n",
        )
    goldens: dict[str, Any] = {}
    if args.golden is not None:
        goldens = json.loads(args.golden.read_text())["configs"]

    def progress(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    status = 0
    for name, rules in runs:
        golden = goldens.get(name)
        if args.seeds is not None:
            seeds: tuple[int, ...] = tuple(range(args.seeds))
        elif golden is not None:
            seeds = tuple(golden["seeds"])
        else:
            seeds = (0,)
        report = check_information(
            rules,
            seeds=seeds,
            progress=progress if args.progress else None,
        )
        record = report.golden()
        if args.json:
            print(json.dumps({**record, "seconds": report.seconds, "ok": report.ok}, indent=2))
        else:
            print(format_report(name, report))
        if not report.ok:
            status = 1
        if args.golden is None:
            continue
        if golden is None:
            print(f"no golden figures for {name} in {args.golden}", file=sys.stderr)
            status = 1
        elif golden != record:
            print(f"{name}: MISMATCH with {args.golden}:", file=sys.stderr)
            for key in sorted(set(golden) | set(record)):
                if golden.get(key) != record.get(key):
                    print(
                        f"  {key}: golden {golden.get(key)} != {record.get(key)}", file=sys.stderr
                    )
            status = 1
        else:
            print(f"{name}: matches {args.golden}")
    return status


def _rule_sets(args: argparse.Namespace) -> list[tuple[str, Rules]]:
    """The (name, rules) to check: --rules, or each --config (default small), flags applied.

    A named configuration keeps its name unless a field flag changes it; any other rule set is
    named by its notation.
    """
    if args.base_rules is not None:
        rules = apply_overrides(args.base_rules, args)
        return [(format_rules(rules), rules)]
    runs = []
    for name in args.config or ["small"]:
        rules = apply_overrides(INFORMATION_CONFIGS[name], args)
        runs.append((name if rules == INFORMATION_CONFIGS[name] else format_rules(rules), rules))
    return runs
