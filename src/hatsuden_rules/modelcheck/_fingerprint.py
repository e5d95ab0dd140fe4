"""64-bit fingerprints of states, the same in every process, and what a collision can cost.

The checker splits a state into three groups of fields (`Properties.zones`: the cards, the two
grids, the turn). Each distinct group gets a 64-bit hash, BLAKE2b of a canonical text of its
fields (enum members by name, sets sorted, moves in notation), so that every process computes
the same value; a state's fingerprint is the sum of its three group hashes modulo 2**64. For
two different states, at least one group differs, and that group's hash is (as far as BLAKE2b
is a random function) uniform and independent of the others: the two fingerprints are equal
with probability 2**-64. The hash is computed once per distinct group, and a fingerprint costs
two additions per state.

A fingerprint table can then mistake a new state for a visited one only through such a
collision. `collision_probability` gives TLC's estimate of the chance that one did, and
`collision_bound` the birthday bound over all the states found.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, Final

from hatsuden_rules import Move
from hatsuden_rules.notation import format_move

__all__ = [
    "CARDS",
    "GRIDS",
    "MASK",
    "TURN",
    "collision_bound",
    "collision_probability",
    "group_hash",
]

MASK: Final = (1 << 64) - 1
#: The three kinds of group, in the order of `Zones`.
CARDS, GRIDS, TURN = 0, 1, 2
_PERSON: Final = (b"hatsuden-cards", b"hatsuden-grids", b"hatsuden-turn")


def _name(value: Any) -> Any:
    return None if value is None else value.name


def _moves(log: Sequence[Move]) -> list[str]:
    return [format_move(move) for move in log]


def _canonical(kind: int, content: Any) -> str:
    """A text of a group's fields that is the same in every process (no hash-ordered sets)."""
    if kind != TURN:  # tuples of ints: their repr is canonical
        return repr(content)
    (
        phase,
        player,
        tech_deck,
        tech_hands,
        accumulator,
        smart,
        played,
        discarded,
        chance,
        stall,
        trigger,
        reason,
        rng,
        this_turn,
        last_turn,
    ) = content
    return repr(
        (
            phase.name,
            player,
            [tech.name for tech in tech_deck],
            [sorted(tech.name for tech in hand) for hand in tech_hands],
            accumulator,
            _name(smart),
            played,
            discarded,
            _name(chance),
            stall,
            trigger,
            _name(reason),
            rng,
            _moves(this_turn),
            _moves(last_turn),
        )
    )


def group_hash(kind: int, content: Any) -> int:
    """The 64-bit hash of a group (`kind` is CARDS, GRIDS or TURN) from its stored fields.

    Examples:
        >>> group_hash(CARDS, ((0,), (1,), (), (), ((), ()))) == group_hash(
        ...     CARDS, ((0,), (1,), (), (), ((), ())))
        True
        >>> group_hash(CARDS, ((), ())) != group_hash(GRIDS, ((), ()))
        True
    """
    text = _canonical(kind, content).encode()
    digest = hashlib.blake2b(text, digest_size=8, person=_PERSON[kind]).digest()
    return int.from_bytes(digest, "little")


def collision_probability(states: int, generated: int) -> float:
    """TLC's estimate that a fingerprint collision hid a state: n * (m - n) / 2**64.

    `states` (n) is the number of distinct fingerprints stored, `generated` (m) the number of
    successor states looked up; each of the m - n lookups that found its fingerprint already
    stored could have met another state's fingerprint.

    Examples:
        >>> collision_probability(10**8, 14 * 10**7) < 10**-3
        True
    """
    return states * max(generated - states, 0) / 2.0**64


def collision_bound(states: int) -> float:
    """The birthday bound: the chance that any two of `states` states share a fingerprint.

    Examples:
        >>> round(collision_bound(10**9), 3)
        0.027
    """
    return states * (states - 1) / 2.0**65
