"""The portable generator (R32) and sampler (R33): seeded games replay bit for bit anywhere."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate
from typing import Final

import attrs

from hatsuden_rules.core.errors import InvalidInputError

__all__ = ["SplitMix64", "sample"]

_MASK: Final = (1 << 64) - 1
_GAMMA: Final = 0x9E3779B97F4A7C15
_MIX1: Final = 0xBF58476D1CE4E5B9
_MIX2: Final = 0x94D049BB133111EB


def splitmix64(state: int) -> tuple[int, int]:
    """One SplitMix64 step (R32): ``(next_state, output)`` for a 64-bit ``state``."""
    state = (state + _GAMMA) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK
    return state, z ^ (z >> 31)


@attrs.frozen(slots=True)
class SplitMix64:
    """An immutable SplitMix64 generator (R32): `next` gives the output and the next generator.

    Examples:
        >>> value, rng = SplitMix64.from_seed(0).next()
        >>> hex(value)
        '0xe220a8397b1dcdaf'
        >>> hex(rng.next()[0])
        '0x6e789e6aa1b965f4'
    """

    state: int = attrs.field()

    @state.validator
    def _check_state(self, attribute: attrs.Attribute[int], value: object) -> None:
        if type(value) is not int or not 0 <= value <= _MASK:
            raise InvalidInputError("state", f"must be an int in [0, 2**64), got {value!r}")

    @classmethod
    def from_seed(cls, seed: int) -> SplitMix64:
        """The generator for any int `seed`, taken mod 2**64 (negative seeds included)."""
        if type(seed) is not int:
            raise InvalidInputError("seed", f"must be an int, got {seed!r}")
        return cls(seed & _MASK)

    def next(self) -> tuple[int, SplitMix64]:
        """The next 64-bit output and the generator that follows it."""
        state, value = splitmix64(self.state)
        return value, SplitMix64(state)


def pick(weights: Sequence[int], r: int) -> int:
    """Index of the first outcome whose cumulative weight exceeds ``r`` (R33).

    ``r`` is below the total weight (`sample` draws it so), so some outcome's does.
    """
    return bisect_right(list(accumulate(weights)), r)


def sample(weights: Sequence[int], rng: SplitMix64) -> tuple[int, SplitMix64]:
    """Draw an outcome index with probability proportional to its integer weight (R33).

    ``r = next() % W``; the result is the first outcome whose cumulative weight exceeds ``r``.

    Examples:
        >>> sample([1, 3], SplitMix64.from_seed(0))[0]  # 0xE220A8397B1DCDAF % 4 == 3
        1
    """
    if not weights or any(type(w) is not int or w < 0 for w in weights) or sum(weights) == 0:
        raise InvalidInputError(
            "weights", f"must be non-negative ints with a positive sum: {weights}"
        )
    value, rng = rng.next()
    return pick(weights, value % sum(weights)), rng
