"""What a model check found, and the verdict it comes to (shared by both search engines)."""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from hatsuden_rules import Decision, EndReason, Move, Overflow, Phase, Rules, Tech, Tiebreak
from hatsuden_rules.modelcheck._configs import CONFIGS

__all__ = [
    "EXIT_CODES",
    "RESULTS",
    "CheckResult",
    "Violation",
    "coverage_required",
    "required_events",
    "verdict",
]

#: Every result a check can come to, with its exit code on the command line.
EXIT_CODES = {"OK": 0, "VIOLATION": 1, "TRUNCATED": 2, "UNCOVERED": 3}
RESULTS = tuple(EXIT_CODES)


@attrs.frozen
class Violation:
    """A broken property, with the shortest move sequence from `new_game()` that shows it."""

    rule: str
    message: str
    path: tuple[Move, ...]


@attrs.frozen
class CheckResult:
    """What an exhaustive check found.

    `result` is one of:

    - ``OK``: the search completed, nothing failed, and every required event occurred;
    - ``VIOLATION``: an invariant or a transition property failed (`violations`);
    - ``TRUNCATED``: a limit (states, depth, time, memory) stopped the search: nothing is proven;
    - ``UNCOVERED``: the search completed and nothing failed, but an event that
      `coverage_required` makes mandatory never occurred (`unreached`).

    `unreached` lists the events of `required_events` that never occurred in a complete search,
    required or not (not required, they are a warning). The fields from `positions` on describe
    how the search was run; `collision_probability` and `collision_bound` are set by the
    fingerprint engine only (the in-memory engine's state identity is exact), whose fingerprints
    have `fingerprint_bits` bits (64 in Python, 84 in the native engine).
    """

    rules: Rules
    result: str
    states: int
    transitions: int
    terminal_states: int
    terminal_by_reason: dict[str, int]
    chance_nodes: int
    max_depth: int
    longest_game: int | None
    seconds: float
    peak_memory_mb: float
    violations: tuple[Violation, ...]
    unreached: tuple[str, ...]
    events: dict[str, int]
    exhaustive: bool = False
    coverage_required: bool = True
    positions: bool = False
    engine: str = "memory"
    workers: int = 1
    soundness_checked: int = 0
    collision_probability: float | None = None
    collision_bound: float | None = None
    table_bytes: int = 0
    stopped_by: str | None = None
    fingerprint_bits: int = 64

    @property
    def states_per_second(self) -> float:
        """Distinct states explored per second."""
        return self.states / self.seconds if self.seconds else 0.0


def required_events(rules: Rules) -> set[str]:
    """What a complete check of `rules` can be asked to reach at least once (non-vacuity).

    Every move kind the rules make possible (no DrawFromDeck when the deal empties the deck, as in
    `CONFIGS["choice"]`), every possible phase, both end conditions, and each step of the winner
    decision (R29): a higher total, tie-break 1 and tie-break 2. Some rule
    sets cannot reach all of them (a grid that can never be filled, say): see
    `coverage_required`.
    """
    kinds = {"Construct", "BuildPylon", "Discard", "Pass", "DrawFromDiscard", "EndTurn", "Deal"}
    if len(rules.cards) * rules.copies > 2 * rules.hand_size:  # R7: a deck is left to draw from
        kinds.add("DrawFromDeck")
    techs = rules.techs
    if techs:
        kinds |= {"DrawTech", "DeclineTech", "DealTech"}
    if rules.max_value >= 2:  # a strictly higher (or, with Down, lower) card exists
        kinds.add("Improve")
        if Tech.DOWN in techs:
            kinds.add("Downsize")
    for tech, kind in (
        (Tech.ACCUMULATOR, "PlaceAccumulator"),
        (Tech.SMART, "PlaceSmart"),
    ):
        if tech in techs:
            kinds.add(kind)
    if rules.energies >= 2 and rules.energies * rules.max_value > rules.tolerance:
        kinds.add("FlipSet" if rules.overflow is Overflow.ANY_SET else "Flip")  # R41
    phases = {f"phase {p.name}" for p in Phase}
    if not {"Flip", "FlipSet"} & kinds:
        phases.discard("phase OVERFLOW")
    if not techs:
        phases.discard("phase TECH")
    ends = {f"end {r.name}" for r in EndReason}
    if rules.stall_limit is None:
        ends.discard("end STALL")
    first = Decision.SUPPLY if rules.tiebreak is Tiebreak.SUPPLY else Decision.CITY_POINTS
    decisions = {f"decided {d.name}" for d in (Decision.TOTAL, first, Decision.SECOND_PLAYER)}
    return {f"move {k}" for k in kinds} | phases | ends | decisions


def coverage_required(rules: Rules, require: bool | None = None) -> bool:
    """Whether an unreached required event fails a complete check of `rules` (UNCOVERED).

    `require` decides when given (``hatsuden-check --require-coverage``); by default coverage
    is required of the named configurations (`CONFIGS`), chosen so that every event occurs,
    and only reported as a warning for any other rule set, some of which cannot reach them all.

    Examples:
        >>> from hatsuden_rules import Rules
        >>> coverage_required(CONFIGS["small"]), coverage_required(Rules())
        (True, False)
        >>> coverage_required(Rules(), require=True)
        True
    """
    if require is not None:
        return require
    return any(rules == named for named in CONFIGS.values())


def verdict(
    violations: Iterable[Violation], truncated: bool, unreached: Iterable[str], required: bool
) -> str:
    """The result of a check: VIOLATION before TRUNCATED before UNCOVERED before OK."""
    if any(True for _ in violations):
        return "VIOLATION"
    if truncated:
        return "TRUNCATED"
    if required and any(True for _ in unreached):
        return "UNCOVERED"
    return "OK"
