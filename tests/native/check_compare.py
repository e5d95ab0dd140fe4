"""Both model checkers on one rule set, and the figures they must agree on (issue 21).

Shared by tests/native/test_native_check.py (the rule sets that take seconds, in ``make test``)
and ``python -m tests.native.check_compare`` (``make verify-native-check``: the named
configurations, minutes each in Python).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from hatsuden_rules import Overflow, Rules, Tech, TechTiming
from hatsuden_rules.modelcheck import CONFIGS, POSITION_CONFIGS, CheckResult, check
from hatsuden_rules.modelcheck._native import native_check
from hatsuden_rules.notation import format_move

SMALL = CONFIGS["small"]

#: Rule sets whose Python check takes seconds: the variants (R40, R41) cut down to ``small``'s
#: size. ``tiny-any-set`` also leaves three events unreached (a warning: not a named set).
FAST: dict[str, tuple[Rules, bool]] = {
    "small": (SMALL, False),
    "small-positions": (SMALL, True),
    "small-place-at-once": (
        Rules(
            energies=1,
            max_value=2,
            copies=2,
            hand_size=1,
            city_demand=1,
            techs=frozenset({Tech.ACCUMULATOR, Tech.SMART}),
            allow_retake_discard=False,
            stall_limit=2,
            tech_timing=TechTiming.PLACE_AT_ONCE,
        ),
        False,
    ),
    "tiny-any-set": (
        Rules(
            energies=2,
            max_value=2,
            copies=1,
            hand_size=1,
            city_demand=2,
            techs=frozenset(),
            allow_retake_discard=False,
            stall_limit=1,
            overflow=Overflow.ANY_SET,
        ),
        False,
    ),
}


def comparable(result: CheckResult) -> dict[str, object]:
    """What both checkers must report alike: the figures, the events, the verdict, and each
    violation's rule and shortest move sequence (not its wording, nor how the search ran)."""
    return {
        "result": result.result,
        "states": result.states,
        "transitions": result.transitions,
        "terminal_states": result.terminal_states,
        "terminal_by_reason": dict(sorted(result.terminal_by_reason.items())),
        "chance_nodes": result.chance_nodes,
        "max_depth": result.max_depth,
        "longest_game": result.longest_game,
        "unreached": sorted(result.unreached),
        "events": dict(sorted(result.events.items())),
        "coverage_required": result.coverage_required,
        "positions": result.positions,
        "violations": [(v.rule, [format_move(move) for move in v.path]) for v in result.violations],
    }


def both(rules: Rules, positions: bool, **options: object) -> tuple[CheckResult, CheckResult]:
    """`rules` checked by the Python core (every check on every state) and the native core."""
    python = check(rules, positions=positions, exhaustive=True, **options)  # type: ignore[arg-type]
    native = native_check(rules, positions=positions, **options)  # type: ignore[arg-type]
    return python, native


def main(argv: Sequence[str] | None = None) -> int:
    """``make verify-native-check``: each named configuration on both cores, compared."""
    parser = argparse.ArgumentParser(prog="python -m tests.native.check_compare")
    parser.add_argument("configs", nargs="*", default=["medium", "medium-place-at-once"])
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    failed = 0
    for name in args.configs:
        rules, positions = CONFIGS[name], name in POSITION_CONFIGS
        started = time.monotonic()
        native = native_check(rules, positions=positions, workers=args.workers)
        native_seconds = time.monotonic() - started
        python = check(rules, positions=positions, engine="disk", workers=args.workers)
        python_seconds = time.monotonic() - started - native_seconds
        a, b = comparable(python), comparable(native)
        same = a == b
        failed += not same
        print(
            f"{name}: {'same' if same else 'DIFFERENT'}: {native.result}, {native.states:,}"
            f" {'positions' if positions else 'states'}, {native.transitions:,} transitions;"
            f" native {native_seconds:.1f} s, Python {python_seconds:.1f} s",
            flush=True,
        )
        if not same:
            for key in a:
                if a[key] != b[key]:
                    print(f"  {key}: Python {a[key]!r}, native {b[key]!r}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
