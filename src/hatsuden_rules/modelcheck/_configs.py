"""Named reduced rule sets for exhaustive checking (RULES.md R31, "Reduced configurations").

They are defined in `hatsuden_rules.core.rulesets`, with every other named rule set. Each is
small enough to visit every reachable state, and large enough that every move kind its
tech cards allow, every phase, both end conditions and every step of the winner decision occur
(the checker fails a run that misses one). Retaking one's own discard is off: with so few cards
a full grid, and so the final-turn end, is otherwise out of reach.
"""

from __future__ import annotations

from typing import Final

from hatsuden_rules.core.rulesets import CHECK_SETS

__all__ = ["CONFIGS", "POSITION_CONFIGS"]

CONFIGS: Final = CHECK_SETS
"""The configurations `hatsuden-check --config NAME` knows: the core ones smallest first, then the
rule variants' (R40, R41), then those checked by position (`POSITION_CONFIGS`)."""

POSITION_CONFIGS: Final = frozenset({"choice", "huge"})
"""The named configurations searched by position with the fingerprint engine by default
(``hatsuden-check --config choice`` means ``--positions --engine disk``)."""
