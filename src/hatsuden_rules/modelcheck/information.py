"""Exhaustive checks of hidden information (issue 4; RULES.md R30, R36-R39).

`check_information(rules)` explores every reachable state of a reduced `Rules` with the model
checker (`check`, explicit chance mode), then proves on every state, for both players:

- **Non-interference** (R30, R37). Every perturbation of what a player cannot know leaves
  ``observe(state, player)`` unchanged. The perturbations (`perturbations`) exchange two hidden
  cards between two of the opponent's hidden places, keeping the whole state consistent
  (`consistency_problems`), including the hidden cards recorded in the turn logs (R36).
- **Information sets** (R37). The states outside CHANCE and GAME_OVER, grouped by
  ``observe(state, state.current_player)``: within a group `legal_moves` is the same, and
  `legal_moves_from` of the group's observation returns exactly it.
- **Sampling** (R38). For every distinct observation and a few seeds,
  ``observe(sample_state(o, seed), o.player) == o``, the sample is a consistent state, and
  (reported) a reachable one.

The perturbations, for observer p and opponent q (q's "hidden places" are: the unknown part of
q's hand, i.e. the hand minus the cards p knows are there, R36; the deck; the card of each pylon
q built from hand, R14; q's secret card while it is hidden, R11, R26):

=================  ================================================================================
kind               what changes
=================  ================================================================================
hand-deck          an unknown card X of q's hand and a card Y != X of the deck change places
pylon-deck         the card X of a pylon q built from hand and a deck card Y != X change places
pylon-hand         ... and an unknown card Y != X of q's hand
pylon-pylon        the cards of two of q's pylons built from hand
secret-deck        q's hidden secret card X and a deck card Y != X of the same energy (R11)
secret-hand        ... and an unknown hand card; secret-pylon: ... and the card of a pylon
tech               a tech card of q's tech hand and one of the tech deck change places (R30, B6)
deal-record        the card of q's logged `Deal` names another unknown card of q's hand
dealtech-record    q's logged `DealTech` names another tech card q holds or placed after it
generator          the SplitMix64 state (R8): explicit <-> seeded, or another seeded state
=================  ================================================================================

Turn logs follow the cards they name: q's `BuildPylon` and secret `Construct` name the card now
in their cell; a logged ``Deal(X)`` whose X leaves q's hand becomes ``Deal(Y)`` (the dealt copy
was the one that moved), and when another unknown X stays in the hand a second variant keeps
``Deal(X)``; a ``DealTech(T)`` whose T leaves q's tech hand names the tech card that replaced
it. A perturbation of the secret card is checked only if the new state is consistent (its
energy, the Improve/Downsize bounds of the cards on it, the row's tolerance where the phase
requires it, a DrawTech after it only for a `max_value`, the overflows that the logged flips
show); the others are counted as skipped. Every checked perturbation is itself a consistent
state: it is reachable (every reachable state passes `consistency_problems`), or
`consistency_problems` accepts it. Exchanges of two cards generate every arrangement of the
hidden cards: a chain of them joins any two arrangements.

What this does not claim: an `Observation` is not the whole history. It keeps the last two turns
(R36), and a hidden play blurs the cards known to be in a hand (R36), so states with equal
observations may come from histories that a player with a perfect memory could tell apart (a
card taken from the discards and then built as a pylon may, in a sample, be in the deck). The
information sets here are those of `observe`.

The command line: ``python -m hatsuden_rules.modelcheck.information --config medium`` (exit
code 0 when everything holds, 1 on a problem or a golden mismatch, 2 on a usage error).

Examples:
    >>> from hatsuden_rules import Rules, Tech
    >>> tiny = Rules(energies=1, max_value=2, copies=2, hand_size=1, city_demand=1,
    ...              techs=(), stall_limit=1)
    >>> report = check_information(tiny, seeds=(0,))
    >>> report.ok, report.states, report.information_sets
    (True, 2145, (408, 872))
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from hatsuden_rules import observe
from hatsuden_rules.modelcheck._consistency import consistency_problems
from hatsuden_rules.modelcheck._information_checks import (
    InformationSets,
    NonInterference,
    Observer,
    Sampling,
    information_sets,
    non_interference,
    sampling,
)
from hatsuden_rules.modelcheck._information_report import (
    INFORMATION_CONFIGS,
    InformationReport,
    check_information,
    explore,
)
from hatsuden_rules.modelcheck._perturbations import KINDS, perturbations

__all__ = [
    "INFORMATION_CONFIGS",
    "KINDS",
    "InformationReport",
    "InformationSets",
    "NonInterference",
    "Observer",
    "Sampling",
    "check_information",
    "consistency_problems",
    "explore",
    "format_report",
    "information_sets",
    "main",
    "non_interference",
    "observe",
    "perturbations",
    "sampling",
]


def format_report(name: str, report: InformationReport) -> str:
    """A human-readable summary of `report`."""
    checked = sum(report.perturbations.values())
    lines = [
        f"information check of {name}: {'OK' if report.ok else 'PROBLEM'} "
        f"(model check {report.model_check}, {report.seconds['total']:.1f} s)",
        f"  reachable states        {report.states:,} "
        f"(inconsistent: {report.inconsistent_reachable})",
        f"  information sets        player 0: {report.information_sets[0]:,} from "
        f"{report.decision_states[0]:,} states (largest {report.largest_information_set[0]}); "
        f"player 1: {report.information_sets[1]:,} from {report.decision_states[1]:,} states "
        f"(largest {report.largest_information_set[1]})",
        f"  distinct observations   player 0: {report.observations[0]:,}; "
        f"player 1: {report.observations[1]:,}",
        f"  non-interference        {checked:,} perturbed states over {report.states:,} states x "
        f"2 players, {report.reachable_perturbations:,} of them reachable "
        f"",
    ]
    for kind, n in report.perturbations.items():
        lines.append(f"    {kind:<18} {n:>12,}")
    for kind, n in report.skipped_perturbations.items():
        why = "the new secret card" if kind.startswith("secret") else "R40: the tech hand or log"
        lines.append(f"    skipped {kind:<10} {n:>12,} ({why} would be inconsistent)")
    lines.append(
        f"  sampling                {report.samples:,} samples, "
        f"{report.unreachable_samples:,} not reachable"
    )
    lines.extend(f"  PROBLEM: {text}" for text in report.problems)
    if report.problem_count > len(report.problems):
        lines.append(f"  ... {report.problem_count - len(report.problems)} more problems")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m hatsuden_rules.modelcheck.information``: the command (`hatsuden_rules.cli`)."""
    from hatsuden_rules.cli._information import main as command

    return command(argv)


if __name__ == "__main__":
    sys.exit(main())
