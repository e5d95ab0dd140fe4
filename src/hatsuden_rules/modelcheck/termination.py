"""Whether a rule set admits a game that never ends (RULES.md R25, R31): the check and its report.

``python -m hatsuden_rules.modelcheck.termination --config printed-small`` explores every
reachable state of a reduced rule set (see `_termination`) and prints the shortest game that
never ends: the moves from `new_game()` to the start of a cycle, and the cycle. ``--expect
endless`` or ``--expect terminates`` turns the answer into a check, and ``--golden FILE``
compares the figures with a file such as ``tests/golden/termination.json``.

The command lives in `hatsuden_rules.cli._termination`.
"""

from __future__ import annotations

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


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m hatsuden_rules.modelcheck.termination``: the command (`hatsuden_rules.cli`)."""
    from hatsuden_rules.cli._termination import main as command

    return command(argv)


if __name__ == "__main__":
    sys.exit(main())
