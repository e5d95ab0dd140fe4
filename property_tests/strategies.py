"""Hypothesis strategies: valid `Rules` (R31) and the choice of moves in a random game."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import settings
from hypothesis import strategies as st

from hatsuden_rules import STANDARD, Move, Overflow, Rules, Tech, TechTiming, Tiebreak

from .oracle import KIND_INDEX


def budget(fraction: float, *, at_least: int = 5) -> int:
    """A share of the loaded profile's ``max_examples`` (see conftest.py)."""
    return max(at_least, int(settings().max_examples * fraction))


@st.composite
def small_rules(draw: st.DrawFn, *, stall: bool = True) -> Rules:
    """Small valid rule sets (R31), with every option (R40, R41 too); ``stall`` keeps R25 on.

    Sizes stay small so that games are short. `city_demand` ranges from the smallest valid value
    (`max_value - 1`, at least 1, C10: one top card fills a city, so overflows are frequent) to
    `2 * max_value` above it (cities that rarely overflow).
    """
    energies = draw(st.integers(1, 5))
    max_value = draw(st.integers(1, 4))
    copies = draw(st.integers(1, 2)) if energies * max_value > 1 else 2
    deck = energies * max_value * copies
    hand_size = draw(st.integers(1, min(3, deck // 2)))  # R31: both hands can be dealt
    lowest_demand = max(1, max_value - 1)
    city_demand = draw(st.integers(lowest_demand, lowest_demand + 2 * max_value))
    if stall:
        stall_limit: int | None = draw(st.integers(1, 6))
    else:
        stall_limit = draw(st.none() | st.integers(1, 6))
    return Rules(
        energies=energies,
        max_value=max_value,
        copies=copies,
        hand_size=hand_size,
        city_demand=city_demand,
        techs=draw(st.frozensets(st.sampled_from(Tech))),
        tiebreak=draw(st.sampled_from(Tiebreak)),
        allow_retake_discard=draw(st.booleans()),
        stall_limit=stall_limit,
        tech_timing=draw(st.sampled_from(TechTiming)),  # R40
        overflow=draw(st.sampled_from(Overflow)),  # R41
    )


@st.composite
def standard_variants(draw: st.DrawFn) -> Rules:
    """The printed sizes (R31 defaults) with the options varied."""
    return Rules(
        techs=draw(st.frozensets(st.sampled_from(Tech)) | st.just(frozenset(Tech))),
        tiebreak=draw(st.sampled_from(Tiebreak)),
        allow_retake_discard=draw(st.booleans()),
        stall_limit=draw(st.integers(1, 25)),
        tech_timing=draw(st.sampled_from(TechTiming)),  # R40
        overflow=draw(st.sampled_from(Overflow)),  # R41
    )


@st.composite
def overflow_rules(draw: st.DrawFn) -> Rules:
    """Small rule sets whose rows overflow often, under both overflow options (R21, R41).

    Two to four columns and the lowest valid city demand (`max_value - 1`): two or three plants
    fill a city, so builds overflow it and flips, or flip sets of several plants, are common.
    """
    energies = draw(st.integers(2, 4))
    max_value = draw(st.integers(2, 4))
    return Rules(
        energies=energies,
        max_value=max_value,
        copies=2,
        hand_size=draw(st.integers(1, 3)),
        city_demand=max(1, max_value - 1),
        techs=draw(st.frozensets(st.sampled_from(Tech))),
        allow_retake_discard=draw(st.booleans()),
        stall_limit=draw(st.integers(2, 6)),
        tech_timing=draw(st.sampled_from(TechTiming)),
        overflow=draw(st.sampled_from(Overflow)),
    )


def valid_rules(*, stall: bool = True) -> st.SearchStrategy[Rules]:
    """Small rule sets (three in four; shrinking goes there), else the printed game or a variant.

    Small games are fast and reach the corners (empty deck, empty hands, stall ends, frequent
    overflows); printed-size games check the real thing.
    """
    small = small_rules(stall=stall)
    return st.one_of(small, small, small, st.just(STANDARD) | standard_variants())


def choose_move(data: st.DataObject, moves: Sequence[Move]) -> Move:
    """Draw one of `moves`: first a kind, then a move of that kind.

    Choosing the kind first keeps rare kinds (Improve, Flip, placements) from being drowned by
    the many BuildPylon moves; it shrinks towards the first kind in canonical order (R34).
    """
    by_kind: dict[type[Move], list[Move]] = {}
    for move in moves:
        by_kind.setdefault(type(move), []).append(move)
    kinds = sorted(by_kind, key=KIND_INDEX.__getitem__)
    kind = kinds[0] if len(kinds) == 1 else data.draw(st.sampled_from(kinds), label="kind")
    options = by_kind[kind]
    return options[0] if len(options) == 1 else data.draw(st.sampled_from(options), label="move")
