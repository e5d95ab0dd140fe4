"""The whole suite: the core vectors, then the variants' vectors, group by group."""

from __future__ import annotations

from collections import Counter

from hatsuden_rules.conformance._vectors import GROUPS, Vector
from tools.vectors.core import core_vectors
from tools.vectors.variants import variant_vectors

__all__ = ["generate"]


def generate() -> list[Vector]:
    """Every vector of the suite, group by group, in a fixed order.

    Within a group the core vectors (`_groups`) come first, then those of the rule variants
    (`_variants`): the variants were added without changing any earlier vector.

    Examples:
        >>> vectors = generate()  # doctest: +SKIP
    """
    vectors = core_vectors() + variant_vectors()
    ids = Counter(v.id for v in vectors)
    duplicates = [i for i, n in ids.items() if n > 1]
    assert not duplicates, duplicates
    assert {v.group for v in vectors} == set(GROUPS)
    return sorted(vectors, key=lambda v: GROUPS.index(v.group))
