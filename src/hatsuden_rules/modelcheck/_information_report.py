"""`check_information`: the three information checks on every reachable state of a `Rules`."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, Final

import attrs

from hatsuden_rules import GameState, Rules, to_dict
from hatsuden_rules.core.rulesets import INFORMATION_SETS
from hatsuden_rules.modelcheck._consistency import consistency_problems
from hatsuden_rules.modelcheck._explore import check
from hatsuden_rules.modelcheck._information_checks import MAX_PROBLEMS, _Checks

__all__ = ["INFORMATION_CONFIGS", "InformationReport", "check_information", "explore"]

#: The reduced rule sets this module knows: the model checker's, plus "small-secret". No secret
#: card exists in small or medium (their one tech card is the Accumulator or Smart), and none
#: can be permuted; small-secret has Secret Build and Down and three copies of each card, so that
#: an opponent's secret card can be one of several unseen cards (with two copies the other
#: cards give it away), Downsize bounds occur, and tech cards change places.
INFORMATION_CONFIGS: Final = INFORMATION_SETS


@attrs.frozen
class InformationReport:
    """The result of `check_information` on one `Rules`."""

    rules: Rules
    seeds: tuple[int, ...]
    model_check: str
    states: int
    inconsistent_reachable: int
    observations: tuple[int, int]
    decision_states: tuple[int, int]
    information_sets: tuple[int, int]
    largest_information_set: tuple[int, int]
    perturbations: dict[str, int]
    skipped_perturbations: dict[str, int]
    reachable_perturbations: int
    samples: int
    unreachable_samples: int
    problems: tuple[str, ...]
    problem_count: int
    seconds: dict[str, float]

    @property
    def ok(self) -> bool:
        """True when the model check completed and no information property failed."""
        return self.model_check == "OK" and self.problem_count == 0

    def golden(self) -> dict[str, Any]:
        """The deterministic figures, as stored in tests/golden/information.json."""
        return {
            "rules": to_dict(self.rules),  # the library's rules document
            "seeds": list(self.seeds),
            "states": self.states,
            "decision_states": list(self.decision_states),
            "information_sets": list(self.information_sets),
            "largest_information_set": list(self.largest_information_set),
            "observations": list(self.observations),
            "perturbations": self.perturbations,
            "skipped_perturbations": self.skipped_perturbations,
            "reachable_perturbations": self.reachable_perturbations,
            "samples": self.samples,
            "unreachable_samples": self.unreachable_samples,
        }


def explore(
    rules: Rules, progress: Callable[[str], None] | None = None
) -> tuple[str, list[GameState]]:
    """Every reachable state of `rules` (explicit chance mode), with the model check's verdict."""
    states: list[GameState] = []
    result = check(rules, on_state=states.append, progress=progress)
    return result.result, states


def check_information(
    rules: Rules,
    *,
    seeds: Sequence[int] = (0, 1),
    states: Sequence[GameState] | None = None,
    verdict: str = "OK",
    progress: Callable[[str], None] | None = None,
) -> InformationReport:
    """Run the three information checks on every reachable state of `rules`.

    Args:
        rules: The rule set.
        seeds: The seeds `sample_state` is called with, for each distinct observation.
        states: Every reachable state, if already explored (with the model check's `verdict`);
            else `rules` is explored now with `check`.
        verdict: The model check's result for `states`.
        progress: Called with a line after each stage.
    """
    seconds: dict[str, float] = {}
    start = time.perf_counter()
    if states is None:
        verdict, states = explore(rules, progress)
    reachable = frozenset(states)
    inconsistent = [state for state in states if consistency_problems(state)]
    seconds["explore"] = time.perf_counter() - start
    if progress is not None:
        progress(f"{len(states):,} states, {len(inconsistent)} inconsistent")
    lap = time.perf_counter()
    checks = _Checks(None, reachable, seeds, None)
    for state in inconsistent[:MAX_PROBLEMS]:
        checks.problem(f"a reachable state fails consistency: {consistency_problems(state)}")
    checks.problem_count += max(0, len(inconsistent) - MAX_PROBLEMS)
    checks.run(states, perturb=True, group=True, sample=True)
    seconds["checks"] = time.perf_counter() - lap
    seconds["total"] = time.perf_counter() - start
    ni, sets, samples = checks.non_interference(), checks.information_sets(), checks.sampling()
    return InformationReport(
        rules=rules,
        seeds=tuple(seeds),
        model_check=verdict,
        states=len(states),
        inconsistent_reachable=len(inconsistent),
        observations=samples.observations,
        decision_states=sets.states,
        information_sets=sets.sets,
        largest_information_set=sets.largest,
        perturbations=ni.checked,
        skipped_perturbations=ni.skipped,
        reachable_perturbations=ni.reachable,
        samples=samples.samples,
        unreachable_samples=samples.unreachable,
        problems=tuple(checks.problems),
        problem_count=checks.problem_count,
        seconds={name: round(value, 2) for name, value in seconds.items()},
    )
