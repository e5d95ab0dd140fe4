"""An independent reference for R32 (SplitMix64) and R33 (the sampler), written from RULES.md.

Nothing here imports the library's generator: the tests compare the library against it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final, TypeVar

MASK: Final = (1 << 64) - 1
GAMMA: Final = 0x9E3779B97F4A7C15

T = TypeVar("T")


class RefSplitMix64:
    """A mutable SplitMix64 exactly as printed in R32."""

    def __init__(self, seed: int) -> None:
        self.state = seed % (1 << 64)  # mathematical mod: negative seeds are valid (R32)
        self.calls = 0

    def next(self) -> int:
        self.state = (self.state + GAMMA) % (1 << 64)
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % (1 << 64)
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % (1 << 64)
        self.calls += 1
        return z ^ (z >> 31)


def state_after(seed: int, calls: int) -> int:
    """The R32 state after `calls` next(): each next() adds GAMMA once, so s = N + k*GAMMA."""
    return (seed + calls * GAMMA) % (1 << 64)


def ref_pick(outcomes: Sequence[tuple[T, int]], r: int) -> T:
    """R33: the first outcome whose cumulative weight exceeds r."""
    total = 0
    for outcome, weight in outcomes:
        total += weight
        if total > r:
            return outcome
    raise AssertionError(f"r={r} is not below the total weight {total}")


def ref_sample(outcomes: Sequence[tuple[T, int]], rng: RefSplitMix64) -> T:
    """R33: r = next() mod W, W the sum of the integer weights."""
    weight = sum(w for _, w in outcomes)
    return ref_pick(outcomes, rng.next() % weight)


def weighted_multiset(items: Sequence[T]) -> list[tuple[T, int]]:
    """Distinct items of a multiset listed in canonical order, with their counts (R33)."""
    counts = Counter(items)
    return [(item, counts[item]) for item in dict.fromkeys(items)]
