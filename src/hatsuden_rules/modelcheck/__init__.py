"""Exhaustive model checking of HATSUDEN's rules over reduced `Rules` (see VERIFICATION.md).

`check(rules)` visits every state reachable from `new_game(rules=rules)` in explicit chance
mode, using the library's own `legal_moves`, `apply` and `chance_outcomes`, and checks the
invariants and transition properties of RULES.md on each; a violation comes with the shortest
move sequence that shows it. `perft` and `divide` count move paths (python-chess style);
`game_value` solves a reduced game exactly under perfect information. `check(...,
positions=True)` searches by position (`_positions`), and `check(..., engine="disk")` with the
fingerprint engine (`_disk`, the ``check`` extra) for 10^8 states and more.
The command line is `hatsuden-check` or `python -m hatsuden_rules.modelcheck`.
"""

from hatsuden_rules.modelcheck._configs import CONFIGS, POSITION_CONFIGS
from hatsuden_rules.modelcheck._explore import (
    CheckResult,
    Violation,
    check,
    divide,
    perft,
    required_events,
)
from hatsuden_rules.modelcheck._properties import Problem, Properties, replay_problems
from hatsuden_rules.modelcheck._result import coverage_required
from hatsuden_rules.modelcheck._value import game_value

__all__ = [
    "CONFIGS",
    "POSITION_CONFIGS",
    "CheckResult",
    "Problem",
    "Properties",
    "Violation",
    "check",
    "coverage_required",
    "divide",
    "game_value",
    "perft",
    "replay_problems",
    "required_events",
]
