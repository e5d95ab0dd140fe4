"""The command line: ``hatsuden-check`` (or ``python -m hatsuden_rules.modelcheck``).

Exit codes: 0 OK (or perft done), 1 VIOLATION, 2 TRUNCATED or a usage error, 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from .. import STANDARD, InvalidRulesError, Rules, Tech, Tiebreak
from ._configs import CONFIGS
from ._explore import CheckResult, check, divide, perft
from ._report import (
    format_divide,
    format_perft,
    format_summary,
    golden_record,
    result_dict,
    rules_dict,
    rules_line,
)
from ._value import game_value

__all__ = ["build_parser", "main", "rules_from_args"]

PROG = "hatsuden-check"
EXIT_CODES = {"OK": 0, "VIOLATION": 1, "TRUNCATED": 2}
_TIEBREAKS = {"city-points": Tiebreak.CITY_POINTS, "supply": Tiebreak.SUPPLY}


def _techs(text: str) -> frozenset[Tech]:
    """Parse ``--techs``: comma-separated Tech names (any case, - or _) or ``none``."""
    words = [word.strip() for word in text.split(",") if word.strip()]
    if [word.lower() for word in words] in ([], ["none"]):
        return frozenset()
    techs = set()
    for word in words:
        key = word.upper().replace("-", "_")
        if key not in Tech.__members__:
            known = ", ".join(Tech.__members__)
            raise argparse.ArgumentTypeError(f"unknown tech {word!r} (known: {known}, or none)")
        techs.add(Tech[key])
    return frozenset(techs)


def _tiebreak(text: str) -> Tiebreak:
    """Parse ``--tiebreak``: city-points or supply (any case, - or _)."""
    key = text.strip().lower().replace("_", "-")
    if key not in _TIEBREAKS:
        raise argparse.ArgumentTypeError(f"must be city-points or supply, got {text!r}")
    return _TIEBREAKS[key]


def _stall_limit(text: str) -> int | None:
    """Parse ``--stall-limit``: an int or ``none`` (no stall end)."""
    if text.strip().lower() == "none":
        return None
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an int or none, got {text!r}") from None


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
            "far too large to check completely). Exit status: 0 OK, 1 VIOLATION, 2 TRUNCATED "
            "or usage error."
        ),
    )
    rules = parser.add_argument_group("rules (every Rules field; each overrides --config)")
    rules.add_argument("--config", choices=list(CONFIGS), help="a named reduced configuration")
    rules.add_argument("--energies", type=int, metavar="N", help="energies in play (1-5)")
    rules.add_argument("--max-value", type=int, metavar="N", help="highest card value")
    rules.add_argument("--copies", type=int, metavar="N", help="copies of each card")
    rules.add_argument("--hand-size", type=int, metavar="N", help="cards in a hand")
    rules.add_argument("--city-demand", type=int, metavar="N", help="a city's demand")
    rules.add_argument(
        "--techs",
        type=_techs,
        metavar="A,B,...|none",
        help="tech cards in play: comma-separated names (e.g. ACCUMULATOR,SMART) or none",
    )
    rules.add_argument(
        "--tiebreak", type=_tiebreak, metavar="city-points|supply", help="first tie-break (R29)"
    )
    rules.add_argument(
        "--retake",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="whether a player may take back the card they just discarded (--no-retake forbids)",
    )
    rules.add_argument(
        "--stall-limit",
        type=_stall_limit,
        metavar="N|none",
        default=argparse.SUPPRESS,
        help="turns without a placement that end the game, or none",
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
        " interchangeable); counterexamples are still real move sequences",
    )
    run.add_argument(
        "--exhaustive",
        action="store_true",
        help="re-apply every transition (R35) and call score() on every state (R29); by default"
        " one transition in 16 and once per distinct grids and Smart card",
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
        default=5.0,
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
    """The `Rules` the arguments describe: --config (or STANDARD), then each field given.

    Raises:
        InvalidRulesError: The combination does not describe a playable game.
    """
    base = CONFIGS[args.config] if args.config is not None else STANDARD
    fields: dict[str, Any] = rules_dict(base)
    fields["techs"] = base.techs
    fields["tiebreak"] = base.tiebreak
    fields["tech_timing"] = base.tech_timing  # R40, R41: the variants of a named configuration
    fields["overflow"] = base.overflow
    given = {
        "energies": args.energies,
        "max_value": args.max_value,
        "copies": args.copies,
        "hand_size": args.hand_size,
        "city_demand": args.city_demand,
        "techs": args.techs,
        "tiebreak": args.tiebreak,
        "allow_retake_discard": args.retake,
    }
    fields.update({name: value for name, value in given.items() if value is not None})
    if hasattr(args, "stall_limit"):  # None is a value here: no stall end
        fields["stall_limit"] = args.stall_limit
    return Rules(**fields)


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
    if args.golden is not None and args.symmetry:
        parser.error("--golden counts the full state space: drop --symmetry")
    if args.max_depth is not None and args.max_depth < 0:
        parser.error(f"--max-depth: must be an int >= 0, got {args.max_depth}")
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
                _emit(json.dumps({"rules": rules_dict(rules), "value": str(value)}))
            else:
                _emit(
                    f"rules {rules_line(rules)}\nvalue for player 0: {value} = {float(value):.6f}"
                )
            return 0
        result = check(
            rules,
            max_states=args.max_states,
            max_depth=args.max_depth,
            max_seconds=args.max_seconds,
            max_violations=args.max_violations,
            progress=None if args.quiet else _progress,
            progress_every=args.progress_every,
            symmetry=args.symmetry,
            exhaustive=args.exhaustive,
        )
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    if args.json:
        _emit(json.dumps(result_dict(result), indent=2))
    else:
        _emit(format_summary(result, tests=not args.no_tests))
    code = EXIT_CODES.get(result.result, 1)
    if args.golden is not None and code == 0:
        return _compare_golden(result, args.golden, args.config)
    return code


def _compare_golden(result: CheckResult, path: str, name: str) -> int:
    """Compare `result` (and perft 1..6) with the golden entry `name` of the JSON file `path`."""
    with open(path, encoding="utf-8") as file:
        expected = json.load(file)["configs"][name]
    actual = golden_record(result, perft(result.rules, len(expected.get("perft", []))))
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
    counts = perft(rules, args.perft)
    per_move = divide(rules, args.perft) if args.divide else None
    if args.json:
        data: dict[str, Any] = {"rules": rules_dict(rules), "perft": counts}
        if per_move is not None:
            data["divide"] = {repr(move): count for move, count in per_move}
        _emit(json.dumps(data, indent=2))
        return 0
    lines = [f"rules {rules_line(rules)}", format_perft(counts)]
    if per_move is not None:
        lines += [f"divide at depth {args.perft}:", format_divide(per_move)]
    _emit("\n".join(lines))
    return 0
