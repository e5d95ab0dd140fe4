"""The ``rng`` group: SplitMix64 outputs from seeds (R32) and sampler picks from weights (R33)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from hatsuden_rules.conformance._vectors import Vector, make_vector
from hatsuden_rules.core.rng import SplitMix64, sample
from tools.vectors.common import MASK64, seed_flags

__all__ = ["rng_vectors"]

#: JSON numbers are exact only below 2**53 in many languages; perft counts must stay below.


_RNG_SEEDS: Final = (
    0,
    1,
    2,
    -1,
    -2,
    42,
    2017,
    2026,
    (1 << 32) - 1,
    1 << 32,
    (1 << 63) - 1,
    1 << 63,
    -(1 << 63),
    MASK64,
    1 << 64,
    (1 << 64) + 5,
    -(1 << 64),
    -((1 << 64) + 3),
    (1 << 100) + 12345,
    -(10**30),
    0x9E3779B97F4A7C15,
    0x0123456789ABCDEF,
)


def rng_vectors() -> Iterator[Vector]:
    """The generator's outputs from chosen seeds, and sampler picks from weight lists."""
    stream = SplitMix64.from_seed(20170)
    seeds = list(_RNG_SEEDS)
    for _ in range(28):
        value, stream = stream.next()
        seeds.append(value)
    for n, seed in enumerate(seeds):
        count = 1 + n % 12
        rng = SplitMix64.from_seed(seed)
        outputs = []
        for _ in range(count):
            value, rng = rng.next()
            outputs.append(str(value))
        yield make_vector(
            "rng",
            rules=None,
            refs={"R32"} | ({"R8"} if seed_flags(seed) else set()),
            flags=seed_flags(seed),
            comment=f"SplitMix64 seeded with {seed}: the first {count} outputs",
            input={"kind": "rng", "seed": str(seed), "count": count},
            expected={"ok": True, "outputs": outputs, "state": str(rng.state)},
        )
    weight_lists: list[list[int]] = [
        [1],
        [1, 1],
        [1, 3],
        [2, 3, 5],
        [0, 4, 0, 1],
        [5, 0],
        [0, 0, 7],
        [1] * 20,
        [2] * 20,
        [1, 2, 1, 2, 2, 1, 1, 2, 2, 2],
        [1, 1, 1, 1],
        [3, 2, 2, 1, 1, 1],
        [1 << 40, 1],
        [1, (1 << 62) - 1],
        [40],
    ]
    stream = SplitMix64.from_seed(33)
    for n in range(60):
        value, stream = stream.next()
        seed = _RNG_SEEDS[n % len(_RNG_SEEDS)] if n % 3 == 0 else value
        chosen = [weight_lists[(n * 7 + k * 3) % len(weight_lists)] for k in range(1 + n % 6)]
        rng = SplitMix64.from_seed(seed)
        picks = []
        for weights in chosen:
            index, rng = sample(weights, rng)
            picks.append(index)
        flags = seed_flags(seed)
        if any(0 in weights for weights in chosen):
            flags.add("ZeroWeight")
        if any(sum(weights) >= 1 << 32 for weights in chosen):
            flags.add("LargeWeight")
        yield make_vector(
            "rng",
            rules=None,
            refs={"R32", "R33"} | ({"R8"} if seed_flags(seed) else set()),
            flags=flags,
            comment=f"sampler (R33) from seed {seed}: {len(chosen)} draws, one next() each",
            input={"kind": "sample", "seed": str(seed), "weights": chosen},
            expected={"ok": True, "picks": picks, "state": str(rng.state)},
        )
