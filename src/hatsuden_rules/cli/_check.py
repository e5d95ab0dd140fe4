"""The command line: ``hatsuden-check`` (or ``python -m hatsuden_rules.modelcheck``).

Exit codes: 0 OK (or perft done), 1 VIOLATION, 2 TRUNCATED or a usage error, 3 UNCOVERED,
130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from collections.abc import Sequence
from typing import Any

from hatsuden_rules import STANDARD, InvalidInputError, InvalidRulesError, Rules, __version__
from hatsuden_rules.cli._flags import add_rule_flags
from hatsuden_rules.cli._flags import rules_from_args as shared_rules_from_args
from hatsuden_rules.modelcheck._configs import CONFIGS, POSITION_CONFIGS
from hatsuden_rules.modelcheck._explore import CheckResult, check, divide, perft
from hatsuden_rules.modelcheck._report import (
    format_divide,
    format_perft,
    format_summary,
    golden_record,
    result_dict,
    rules_json,
    rules_line,
)
from hatsuden_rules.modelcheck._result import EXIT_CODES
from hatsuden_rules.modelcheck._value import game_value
from hatsuden_rules.notation import format_move

__all__ = ["build_parser", "main", "rules_from_args"]

PROG = "hatsuden-check"


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be an int >= 1, got {text!r}")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a number > 0, got {text!r}")
    return value


_SIZES = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def _memory_size(text: str) -> int:
    """Parse ``--max-memory``: bytes, or a number with K, M, G or T (powers of 1024)."""
    key = text.strip().upper().removesuffix("B").removesuffix("I")
    unit = key[-1:] if key[-1:] in _SIZES else ""
    try:
        value = float(key[: len(key) - len(unit)])
    except ValueError:
        value = 0.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a size such as 20G or 512M, got {text!r}")
    return int(value * _SIZES[unit])


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``hatsuden-check``."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description=(
            "Exhaustive model check of the HATSUDEN rules: visit every state reachable from "
            "new_game() under the given Rules (explicit chance mode), check every invariant and "
            "transition property, and report the shortest counterexample of each violation."
        ),
        epilog=(
            "Rules fields not given come from --config, else from the printed game (STANDARD, "
            "far too large to check completely). Exit status: 0 OK, 1 VIOLATION (an invariant "
            "or transition property failed), 2 TRUNCATED (a limit stopped the search) or usage "
            "error, 3 UNCOVERED (complete and nothing failed, but a required event never "
            "occurred: every event is required of the named configurations, of other rule sets "
            "only with --require-coverage), 130 interrupted."
        ),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    add_rule_flags(
        parser,
        configs=CONFIGS,
        default="STANDARD (the printed game, far too large to check completely)",
    )
    run = parser.add_argument_group("what to run")
    run.add_argument(
        "--perft",
        type=_positive_int,
        metavar="N",
        help="count move paths of each depth 1..N from new_game() instead of checking",
    )
    run.add_argument(
        "--divide", action="store_true", help="with --perft: the depth-N count per first move"
    )
    run.add_argument("--max-states", type=_positive_int, metavar="N", help="stop after N states")
    run.add_argument("--max-depth", type=int, metavar="N", help="do not expand beyond depth N")
    run.add_argument(
        "--max-seconds", type=_positive_float, metavar="S", help="stop after S seconds"
    )
    run.add_argument(
        "--max-violations",
        type=_positive_int,
        default=10,
        metavar="N",
        help="violations to keep (default 10)",
    )
    run.add_argument(
        "--symmetry",
        action="store_true",
        help="explore one state per orbit of the row swaps (a player's two cities are"
        " interchangeable); counterexamples are still real move sequences; with --core native"
        " also by position, and the exact unreduced figures (by orbit sizes) are reported too",
    )
    run.add_argument(
        "--exhaustive",
        action="store_true",
        help="re-apply every transition (R35) and call score() on every state (R29); by default"
        " one transition in 16 and once per distinct grids and Smart card",
    )
    run.add_argument(
        "--require-coverage",
        action="store_true",
        help="fail a complete search (UNCOVERED, exit 3) if a move kind, phase, end reason or"
        " winner decision never occurs; the default for the named configurations only, other"
        " rule sets list unreached events as a warning",
    )
    run.add_argument(
        "--positions",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="identify states by position, without the turn logs and known cards the rules never"
        " read (soundness checked on a sample, the known-cards invariant step by step); the"
        " default of the choice and huge configurations",
    )
    run.add_argument(
        "--soundness",
        action="store_true",
        help="without --positions: check on every state that dropping its turn logs and known"
        " cards changes neither its legal moves nor the positions they lead to",
    )
    engine = parser.add_argument_group(
        "engine (the fingerprint engine needs the 'check' extra: numpy)"
    )
    engine.add_argument(
        "--core",
        choices=("python", "native"),
        default="python",
        help="python: the reference checker (default); native: the Rust checker of the 'native'"
        " extra, with the same properties, figures, verdicts and counterexamples (84-bit"
        " fingerprints, files on disk; --workers, --checkpoint, --resume, --max-memory apply),"
        " and with --perft the same counts from the Rust core",
    )
    engine.add_argument(
        "--backend",
        choices=("local", "ray"),
        help="with --core native: local (this machine, the default) or ray (the fingerprint space"
        " partitioned among --workers N Ray actors; the 'ray' extra)",
    )
    engine.add_argument(
        "--address",
        metavar="ADDR",
        help="with --backend ray: the Ray cluster to connect to (e.g. auto); default: start a"
        " local Ray instance",
    )
    engine.add_argument(
        "--engine",
        choices=("memory", "disk", "bfs", "ranked"),
        help="memory: exact state identity, everything in memory (the default); disk: 64-bit"
        " fingerprints in a compact table, frontier and parent records on disk, for 10^8 states"
        " and more (the default of choice and huge, and with any option below); with --core"
        " native: bfs (breadth-first, 84-bit fingerprints; the default but for huge) or ranked"
        " (external memory, exact storage, in the order of a ranking function; the default of"
        " huge)",
    )
    engine.add_argument(
        "--workers",
        type=_positive_int,
        metavar="N",
        help="disk engine: processes expanding states (default 1; 2 uses both cores of the"
        " project machine); --core native: threads, or Ray actors with --backend ray",
    )
    engine.add_argument(
        "--max-memory",
        type=_memory_size,
        metavar="SIZE",
        help="disk engine: memory all its processes may hold together (e.g. 20G); the run"
        " stops (TRUNCATED, resumable) before passing it",
    )
    engine.add_argument(
        "--checkpoint",
        metavar="DIR",
        help="disk engine: keep the run's files in DIR, with a checkpoint after every layer"
        " (default: a temporary directory, removed at the end)",
    )
    engine.add_argument(
        "--resume",
        action="store_true",
        help="disk engine: continue the run checkpointed in --checkpoint DIR (after an"
        " interruption or a limit)",
    )
    run.add_argument(
        "--value",
        action="store_true",
        help="instead of checking: the exact probability that player 0 wins under perfect play"
        " with perfect information (backward induction)",
    )
    run.add_argument(
        "--golden",
        metavar="FILE",
        help="with --config NAME: compare the counts (and perft 1..6) with FILE's entry for NAME;"
        " a difference exits 1",
    )
    output = parser.add_argument_group("output")
    output.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    output.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    output.add_argument(
        "--progress-every",
        type=_positive_float,
        metavar="S",
        help="seconds between progress lines (default 5)",
    )
    output.add_argument(
        "--no-tests",
        action="store_true",
        help="print counterexamples as move lists only, not also as pytest tests",
    )
    return parser


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The `Rules` the arguments describe: --rules or --config (or STANDARD), then each field.

    The rule flags are those of every command (`hatsuden_rules.cli._flags`).

    Raises:
        InvalidRulesError: The combination does not describe a playable game.
    """
    return shared_rules_from_args(args, default=STANDARD, configs=CONFIGS)


def _emit(text: str) -> None:
    """Print `text` on stdout; a reader that went away (``| head``) is not an error."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def _progress(line: str) -> None:
    print(f"{PROG}: {line}", file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``hatsuden-check`` with `argv` (default: the process arguments); return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.divide and args.perft is None:
        parser.error("--divide needs --perft N")
    if args.golden is not None and args.config is None:
        parser.error("--golden needs --config NAME")
    if args.golden is not None and args.symmetry and args.core != "native":
        parser.error(
            "--golden counts the full state space: drop --symmetry (--core native compares the"
            " unreduced figures)"
        )
    if args.max_depth is not None and args.max_depth < 0:
        parser.error(f"--max-depth: must be an int >= 0, got {args.max_depth}")
    if args.core == "native" and args.perft is None:
        from hatsuden_rules.cli._check_native import run_native

        return run_native(args)
    if args.backend is not None or args.address is not None:
        print(f"{PROG}: error: --backend and --address need --core native", file=sys.stderr)
        return 2
    if args.positions is None:
        args.positions = args.config in POSITION_CONFIGS
    if args.soundness and args.positions:
        parser.error("--soundness checks full states: drop --positions (use --no-positions)")
    if args.positions and args.symmetry:
        parser.error("--symmetry works on full states: drop --positions (use --no-positions)")
    disk_options = [
        flag
        for flag, value in (
            ("--workers", args.workers),
            ("--max-memory", args.max_memory),
            ("--checkpoint", args.checkpoint),
            ("--resume", args.resume or None),
        )
        if value is not None
    ]
    if args.engine in ("bfs", "ranked"):
        parser.error(f"--engine {args.engine} needs --core native")
    if args.engine is None:
        args.engine = "disk" if disk_options or args.config in POSITION_CONFIGS else "memory"
    if args.engine == "memory" and disk_options:
        parser.error(f"{', '.join(disk_options)} need --engine disk")
    if args.resume and args.checkpoint is None:
        parser.error("--resume needs --checkpoint DIR")
    if args.engine == "disk" and (args.symmetry or args.soundness):
        parser.error("--symmetry and --soundness need --engine memory")
    try:
        rules = rules_from_args(args)
    except InvalidRulesError as error:
        print(f"{PROG}: error: invalid rules: {error}", file=sys.stderr)
        return 2
    try:
        if args.perft is not None:
            return _run_perft(rules, args)
        if args.value:
            value = game_value(rules)
            if args.json:
                _emit(json.dumps({"rules": rules_json(rules), "value": str(value)}))
            else:
                _emit(
                    f"rules {rules_line(rules)}\nvalue for player 0: {value} = {float(value):.6f}"
                )
            return 0
        expected = None
        if args.golden is not None and args.config is not None:
            expected = _golden_states(args.golden, args.config)
        if args.engine == "disk":
            signal.signal(signal.SIGTERM, _interrupt)
        result = check(
            rules,
            max_states=args.max_states,
            max_depth=args.max_depth,
            max_seconds=args.max_seconds,
            max_violations=args.max_violations,
            progress=None if args.quiet else _progress,
            progress_every=args.progress_every or 5.0,
            symmetry=args.symmetry,
            exhaustive=args.exhaustive,
            positions=args.positions,
            soundness=args.soundness,
            require_coverage=True if args.require_coverage else None,
            engine=args.engine,
            workers=args.workers or 1,
            max_memory=args.max_memory,
            checkpoint=args.checkpoint,
            resume=args.resume,
            expected_states=expected,
        )
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        if args.engine == "disk" and args.checkpoint is not None:
            print(
                f"{PROG}: resume from the last layer with --checkpoint {args.checkpoint} --resume",
                file=sys.stderr,
            )
        return 130
    except (ImportError, InvalidInputError) as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    if args.json:
        _emit(json.dumps(result_dict(result), indent=2))
    else:
        _emit(format_summary(result, tests=not args.no_tests))
    code = EXIT_CODES[result.result]
    if result.result == "TRUNCATED" and args.engine == "disk" and args.checkpoint is not None:
        print(
            f"{PROG}: stopped by {result.stopped_by}; continue with --checkpoint "
            f"{args.checkpoint} --resume",
            file=sys.stderr,
        )
    if args.golden is not None and code == 0:
        return _compare_golden(result, args.golden, args.config)
    return code


def _interrupt(signum: int, frame: object) -> None:
    """SIGTERM stops a disk-engine run as Ctrl-C does: its last checkpoint stays resumable."""
    raise KeyboardInterrupt


def _golden_states(path: str, name: str) -> int | None:
    """The state count the golden file `path` gives `name` (for the ETA), if any."""
    try:
        with open(path, encoding="utf-8") as file:
            entry = json.load(file)["configs"].get(name, {})
    except (OSError, ValueError, KeyError):
        return None
    states = entry.get("states")
    return states if isinstance(states, int) else None


def _compare_golden(result: CheckResult, path: str, name: str) -> int:
    """Compare `result` (and perft 1..6) with the golden entry `name` of the JSON file `path`."""
    with open(path, encoding="utf-8") as file:
        expected = json.load(file)["configs"].get(name)
    if expected is None:
        record = golden_record(result, perft(result.rules, 6))
        print(
            f"{PROG}: no golden entry {name!r} in {path}; once checked, add it under"
            f' "configs": {json.dumps({name: record})}',
            file=sys.stderr,
        )
        return 1
    actual = golden_record(result, perft(result.rules, len(expected.get("perft", []))))
    if expected.get("positions", False) != result.positions:
        kind = "positions" if expected.get("positions", False) else "full states"
        print(f"{PROG}: the golden entry {name!r} counts {kind}", file=sys.stderr)
        return 1
    differences = [
        f"{key}: golden {expected.get(key)!r}, now {actual.get(key)!r}"
        for key in sorted(set(expected) | set(actual))
        if expected.get(key) != actual.get(key)
    ]
    for line in differences:
        print(f"{PROG}: golden mismatch: {line}", file=sys.stderr)
    if differences:
        return 1
    print(f"{PROG}: matches the golden entry {name!r} of {path}", file=sys.stderr)
    return 0


def _run_perft(rules: Rules, args: argparse.Namespace) -> int:
    if args.core == "native":  # the same counts from the Rust core (R34)
        from hatsuden_rules import native, new_game

        root = native.to_native(new_game(rules=rules))
        counts = native.perft(root, args.perft)
        per_move = native.divide(root, args.perft) if args.divide else None
    else:
        counts = perft(rules, args.perft)
        per_move = divide(rules, args.perft) if args.divide else None
    if args.json:
        data: dict[str, Any] = {"rules": rules_json(rules), "perft": counts}
        if per_move is not None:
            data["divide"] = {format_move(move): count for move, count in per_move}
        _emit(json.dumps(data, indent=2))
        return 0
    lines = [f"rules {rules_line(rules)}", format_perft(counts)]
    if per_move is not None:
        lines += [f"divide at depth {args.perft}:", format_divide(per_move)]
    _emit("\n".join(lines))
    return 0
