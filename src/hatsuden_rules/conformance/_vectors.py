"""The vector format: one JSON object per line, its fields, the groups and the notes table.

A vector is ``{"id", "group", "format_version", "rules", "rule_refs", "flags", "comment",
"input", "expected"}`` in that key order (see CONFORMANCE.md and ``vector.schema.json``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

import attrs

from hatsuden_rules.core.rules import Rules
from hatsuden_rules.notation import format_rules

__all__ = [
    "FORMAT_VERSION",
    "GROUPS",
    "NOTES",
    "Vector",
    "load_vectors",
    "make_vector",
    "refs_sorted",
]

FORMAT_VERSION: Final = 1
"""The version of the vector file format (fields, request and response shapes)."""

GROUPS: Final = (
    "rng",
    "seeded_games",
    "transitions",
    "legal_moves",
    "scores",
    "observations",
    "perft",
    "invalid",
)
"""The groups, in the order the suite lists and runs them; each is one file ``GROUP.jsonl``."""

NOTES: Final = MappingProxyType(
    {
        "Accumulator": "The Accumulator lies on a city (R19): that city tolerates one more.",
        "AnySet": "Rules with overflow = ANY_SET: the plants to flip are chosen at once (R41).",
        "Chance": "The state is in CHANCE: its moves are chance outcomes (R6).",
        "Control": "A well-formed input that MUST be accepted: a control for the malformed ones.",
        "DecidedByCityPoints": "Equal totals; tie-break 1 on city points decided (R29).",
        "DecidedBySecondPlayer": "Equal totals and tie-break 1; player 1 wins (R29, R5).",
        "DecidedBySupply": "Equal totals; tie-break 1 on total supply decided (R29).",
        "DecidedByTotal": "The higher total won (R29).",
        "Divide": "The expected answer also splits the deepest count by first move.",
        "Downsized": "A stack on the board had Down spent on it (R13).",
        "EmptyDeck": "The deck is empty: no DrawFromDeck, maybe EndTurn (R22).",
        "EmptyHand": "The mover's hand is empty in ACTION: Pass is the only action (R16).",
        "EndsGame": "The move ends the game (R23-R26).",
        "EndsTurn": "The move ends the turn: stall counter, end checks, next player (R23).",
        "EntersOverflow": "The move leaves a row above its tolerance: OVERFLOW follows (R21).",
        "EntersTech": "The move triggers the TECH phase (R17).",
        "Explicit": "Explicit chance mode: chance outcomes are moves (R6).",
        "FinalTurn": "The end is triggered: this is the opponent's last turn (R24).",
        "FinalTurnEnd": "The game ends after the final turn (R24).",
        "FlippedStack": "A stack on the board was flipped by an overflow (R21).",
        "GameOver": "The state is GAME_OVER (R26).",
        "Illegal": "A well-formed move that the rules forbid: the expected error names the rule.",
        "JSON": "The input is a JSON document (NOTATION.md, the schemas in hatsuden_rules/schema).",
        "KnownCards": "The move changes which hand cards the opponent knows (R36).",
        "LargeSeed": "A seed of 2**64 or more: taken mod 2**64 (R8, R32).",
        "LargeWeight": "Sampler weights summing to 2**32 or more: arithmetic must not overflow.",
        "NegativeSeed": "A negative seed: taken mod 2**64 with a mathematical modulo (R8, R32).",
        "NoMoves": "There is no legal move (GAME_OVER).",
        "Notation": "The input is text notation (NOTATION.md).",
        "OpponentPylon": "The opponent has a pylon built from hand: its card is hidden (R14, R37).",
        "OpponentSecret": "The opponent has a secret card on the board (R11, R37).",
        "PlaceAtOnce": (
            "tech_timing = PLACE_AT_ONCE: a drawn Accumulator or Smart is placed first (R40)."
        ),
        "Reduced": "Reduced rules: fewer energies, values, copies or cards in hand (R31).",
        "ResolvesOverflow": "The move brings the overflowing row within tolerance: DRAW (R21).",
        "SampleState": "sample_state: a reproducible state consistent with an observation (R38).",
        "SecretPlant": "A secret plant is on the board (R11).",
        "Seeded": "Seeded mode: the SplitMix64 sampler resolves chance inside apply (R8).",
        "SeededChance": "The move draws a card in seeded mode: the sampler picks it (R8, R33).",
        "Semantic": "Well-formed syntax describing an impossible value (R31, conservation, ...).",
        "Smart": "The Smart card lies on an energy (R20): it doubles that majority.",
        "Standard": "The printed game: STANDARD rules.",
        "StallEnd": "The game ends by the stall rule (R25).",
        "Syntax": "Text or JSON that breaks the grammar or the schema.",
        "Tensor": "The observation tensor (R39).",
        "TiebreakSupply": "Rules with tiebreak = SUPPLY (R29).",
        "TriggersEnd": "The move ends a turn with the mover's grid full: the end triggers (R24).",
        "Unfinished": "The game is not over: the score is as if it ended now.",
        "Variant": (
            "The printed game with an option changed (tie-break, retake, stall, techs, R40, R41)."
        ),
        "WrongPhase": "The move is not a move of the current phase (R9).",
        "ZeroWeight": "A weight list containing zeros: those outcomes are never picked (R33).",
    }
)
"""What each flag means (Wycheproof's "notes"): every flag a vector carries is listed here."""


@attrs.frozen
class Vector:
    """One conformance vector (see the module docstring for the fields)."""

    id: str
    group: str
    rules: str | None
    rule_refs: tuple[str, ...]
    flags: tuple[str, ...]
    comment: str
    input: Mapping[str, Any]
    expected: Mapping[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """The vector as a JSON object, keys in the documented order."""
        return {
            "id": self.id,
            "group": self.group,
            "format_version": FORMAT_VERSION,
            "rules": self.rules,
            "rule_refs": list(self.rule_refs),
            "flags": list(self.flags),
            "comment": self.comment,
            "input": dict(self.input),
            "expected": dict(self.expected),
        }

    def to_line(self) -> str:
        """The vector as one line of JSON (compact, UTF-8, no trailing newline)."""
        return json.dumps(self.to_dict(), separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Vector:
        """The vector read back from its JSON object (trusted input: the suite's own files)."""
        return cls(
            id=data["id"],
            group=data["group"],
            rules=data["rules"],
            rule_refs=tuple(data["rule_refs"]),
            flags=tuple(data["flags"]),
            comment=data["comment"],
            input=data["input"],
            expected=data["expected"],
        )


def refs_sorted(refs: Iterable[str]) -> tuple[str, ...]:
    """Rule numbers without duplicates, in numeric order.

    Examples:
        >>> refs_sorted({"R12", "R2", "R35", "R2"})
        ('R2', 'R12', 'R35')
    """
    return tuple(sorted(set(refs), key=lambda ref: int(ref[1:])))


def make_vector(
    group: str,
    *,
    rules: Rules | None,
    refs: Iterable[str],
    flags: Iterable[str],
    comment: str,
    input: Mapping[str, Any],
    expected: Mapping[str, Any],
) -> Vector:
    """A vector whose id is its group and a hash of its input (stable across regenerations).

    Examples:
        >>> v = make_vector("rng", rules=None, refs={"R32"}, flags=(), comment="",
        ...                 input={"kind": "rng", "seed": "0", "count": 1}, expected={})
        >>> v.id
        'rng-fcb4850ef19b'
    """
    if group not in GROUPS:
        raise ValueError(f"unknown group {group!r}")
    unknown = set(flags) - set(NOTES)
    if unknown:
        raise ValueError(f"flags without a note: {sorted(unknown)}")
    canonical = json.dumps(dict(input), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    digest = hashlib.sha256(canonical.encode()).hexdigest()[:12]
    return Vector(
        id=f"{group}-{digest}",
        group=group,
        rules=None if rules is None else format_rules(rules),
        rule_refs=refs_sorted(refs),
        flags=tuple(sorted(set(flags))),
        comment=comment,
        input=input,
        expected=expected,
    )


def load_vectors(directory: Path, groups: Iterable[str] = GROUPS) -> list[Vector]:
    """The vectors of `groups` read from ``DIRECTORY/GROUP.jsonl``, in file order."""
    vectors = []
    for group in groups:
        with (directory / f"{group}.jsonl").open(encoding="utf-8") as lines:
            vectors += [Vector.from_dict(json.loads(line)) for line in lines if line.strip()]
    return vectors
