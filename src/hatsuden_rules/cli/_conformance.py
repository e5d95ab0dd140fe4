"""``hatsuden-conformance``: run the conformance vectors against an adapter (CONFORMANCE.md)."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from hatsuden_rules import __version__
from hatsuden_rules.conformance._runner import (
    AdapterError,
    Outcome,
    default_vectors_dir,
    run,
)
from hatsuden_rules.conformance._vectors import GROUPS, load_vectors

__all__ = ["build_parser", "main", "reference_adapter"]


def reference_adapter() -> str:
    """The command of the bundled reference adapter (``--adapter``'s default), this Python's."""
    return f"{shlex.quote(sys.executable)} -m hatsuden_rules.conformance.adapter"


def _report(outcomes: Sequence[Outcome], groups: Sequence[str], show: int, out: IO[str]) -> None:
    for group in groups:
        mine = [o for o in outcomes if o.vector.group == group]
        failed = [o for o in mine if o.failure is not None]
        seconds = sum(o.seconds for o in mine)
        status = "ok" if not failed else "FAIL"
        print(
            f"  {group:<13} {len(mine) - len(failed):>5} passed {len(failed):>5} failed"
            f"  {seconds:7.2f} s  {status}",
            file=out,
        )
    failures = [o for o in outcomes if o.failure is not None]
    for group in groups:
        mine = [o for o in failures if o.vector.group == group]
        for outcome in mine[:show]:
            print(f"FAIL {outcome.vector.id} [{group}] {outcome.vector.comment}", file=out)
            print(f"     {outcome.failure}", file=out)
        if len(mine) > show:
            print(f"     ... and {len(mine) - show} more failures in {group}", file=out)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``hatsuden-conformance``."""
    parser = argparse.ArgumentParser(
        prog="hatsuden-conformance",
        description="Run the HATSUDEN conformance vectors against an adapter (CONFORMANCE.md). "
        "Without --adapter, against the bundled reference adapter (this library), which passes "
        "every vector: a quick look at what a port's run looks like.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument(
        "--adapter",
        default=None,
        metavar="CMD",
        help='the adapter command, split like a shell would (e.g. "./target/release/adapter"); '
        "default: the bundled reference adapter, python -m hatsuden_rules.conformance.adapter",
    )
    parser.add_argument(
        "--group",
        action="append",
        choices=GROUPS,
        help="run only this group (repeatable; default: every group)",
    )
    parser.add_argument(
        "--vectors",
        type=Path,
        default=None,
        metavar="DIR",
        help="the directory holding manifest.json and the GROUP.jsonl files (default: the suite "
        "installed with the package)",
    )
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per response")
    parser.add_argument(
        "--ignore-positions",
        action="store_true",
        help="do not compare the character position of notation errors",
    )
    parser.add_argument(
        "--show", type=int, default=10, metavar="N", help="failures shown per group (10)"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The ``hatsuden-conformance`` command: 0 all passed, 1 a vector failed, 2 a setup error."""
    args = build_parser().parse_args(argv)
    directory = args.vectors or default_vectors_dir()
    try:
        manifest = json.loads((directory / "manifest.json").read_text(encoding="utf-8"))
        groups = [g for g in GROUPS if args.group is None or g in args.group]
        vectors = load_vectors(directory, groups)
    except (OSError, ValueError, KeyError) as error:
        print(
            f"hatsuden-conformance: cannot read the vectors in {directory}: {error}",
            file=sys.stderr,
        )
        return 2
    rules_version = manifest["rules_version"]
    adapter = args.adapter if args.adapter is not None else reference_adapter()
    shown = args.adapter if args.adapter is not None else f"{adapter} (the bundled reference)"
    print(
        f"hatsuden-conformance: {len(vectors)} vectors (rules version {rules_version}, "
        f"format {manifest['format_version']}) from {directory}\n  adapter: {shown}"
    )
    start = time.perf_counter()
    try:
        outcomes = run(adapter, vectors, rules_version, args.timeout, args.ignore_positions)
    except AdapterError as error:
        print(f"hatsuden-conformance: {error}", file=sys.stderr)
        return 2
    _report(outcomes, groups, args.show, sys.stdout)
    failed = sum(1 for o in outcomes if o.failure is not None)
    elapsed = time.perf_counter() - start
    if failed:
        print(f"FAILED: {failed} of {len(outcomes)} vectors ({elapsed:.1f} s)")
        return 1
    print(f"PASSED: all {len(outcomes)} vectors ({elapsed:.1f} s)")
    return 0
