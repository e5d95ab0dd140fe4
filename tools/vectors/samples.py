"""The games and states the groups' vectors are built from, played with fixed seeds.

One sample for the core rule sets (`RULE_SETS`), one for the variants (`VARIANT_RULE_SETS`),
each shuffled with fixed seeds, so that `make vectors` rebuilds the same suite.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

import attrs

from hatsuden_rules.core.rules import Rules, TechTiming
from hatsuden_rules.core.state import GameState, Phase
from tools.vectors.common import game_seeds, pick, rules_flags, shuffled
from tools.vectors.games import RULE_SETS, VARIANT_RULE_SETS, Ply, play_game

__all__ = ["CoreSample", "VariantSample", "core_sample", "variant_sample"]

Game = tuple[str, int | None, list[Ply]]


@attrs.frozen
class CoreSample:
    """The core rule sets' games and states."""

    seeded: list[Game]  # six seeded games per rule set: the seeded_games group
    plies: list[Ply]  # every ply of every game, shuffled
    states: list[GameState]  # distinct states: the first 5,000 plies' and every game's last
    mid: list[GameState]  # one state per (options, phase, mode), not over: perft


@attrs.frozen
class VariantSample:
    """The variants' games and states (R40, R41, and the printed rules alone)."""

    seeded: list[Game]
    explicit: list[Game]  # in explicit chance mode (R6)
    plies: list[Ply]
    states: list[GameState]
    owing: list[GameState]  # the states under PLACE_AT_ONCE: a tech card may be owed (R38)
    overflows: list[GameState]  # OVERFLOW states under either overflow option (R41)


def core_sample() -> CoreSample:
    """The core rule sets' sample."""
    seeded = list(_games(6, seeded=True, policy_offset=1))
    explicit = list(_games(10, seeded=False, policy_offset=2))
    extra = list(_games(10, seeded=True, policy_offset=3))
    seeded_plies = [ply for _, _, plies in seeded + extra for ply in plies]
    explicit_plies = [ply for _, _, plies in explicit for ply in plies]
    plies = shuffled(seeded_plies + explicit_plies, 5)
    finals = [game[-1].after for _, _, game in seeded + explicit + extra]
    states = list(dict.fromkeys(shuffled([ply.before for ply in plies[:5000]] + finals, 6)))
    mid = [
        s
        for s in pick(
            states,
            lambda s: (frozenset(rules_flags(s.rules)), s.phase, s.is_seeded),
            1,
        )
        if not s.is_over
    ]
    return CoreSample(seeded, plies, states, mid)


def variant_sample() -> VariantSample:
    """The variants' sample."""
    seeded = list(_variant_games(2, seeded=True, offset=41))
    explicit = list(_variant_games(2, seeded=False, offset=42))
    plies = shuffled([ply for _, _, game in seeded + explicit for ply in game], 7)
    finals = [game[-1].after for _, _, game in seeded + explicit]
    states = list(dict.fromkeys(shuffled([ply.before for ply in plies[:2000]] + finals, 8)))
    owing = [s for s in states if s.rules.tech_timing is TechTiming.PLACE_AT_ONCE]
    overflows = _overflow_states(VARIANT_RULE_SETS["mini-any-set"], 3)
    overflows += _overflow_states(VARIANT_RULE_SETS["any-set"], 1)
    overflows += _overflow_states(_MINI_ONE_AT_A_TIME, 1)
    return VariantSample(seeded, explicit, plies, states, owing, overflows)


#: The reduced any-set game with the default overflow: FlipSet is illegal there (R41).
_MINI_ONE_AT_A_TIME: Final = Rules(
    energies=3, max_value=3, copies=2, hand_size=3, city_demand=4, stall_limit=6
)


def _games(
    count: int, seeded: bool, policy_offset: int
) -> Iterator[tuple[str, int | None, list[Ply]]]:
    """`count` games per rule set, seeded or in explicit chance mode."""
    for name, rules in RULE_SETS.items():
        seeds = game_seeds(name, count)
        for k in range(count):
            seed = seeds[k] if seeded else None
            plies = list(play_game(rules, seed, policy_seed=policy_offset + 1000 * k + len(name)))
            yield name, seed, plies


def _variant_games(
    count: int, seeded: bool, offset: int
) -> Iterator[tuple[str, int | None, list[Ply]]]:
    for name, rules in VARIANT_RULE_SETS.items():
        seeds = game_seeds(name, count)
        for k in range(count):
            seed = seeds[k] if seeded else None
            yield name, seed, list(play_game(rules, seed, policy_seed=offset + 1000 * k))


def _overflow_states(rules: Rules, count: int) -> list[GameState]:
    """The first OVERFLOW state of each of the first `count` seeded games that reach one."""
    found: list[GameState] = []
    for seed in range(10_000):
        if len(found) >= count:
            break
        for ply in play_game(rules, seed, policy_seed=seed):
            if ply.before.phase is Phase.OVERFLOW:
                found.append(ply.before)
                break
    return found
