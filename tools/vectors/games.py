"""Deterministic games for the generator: the rule sets, a seeded policy and the states it visits.

Nothing here is part of the conformance contract: a port never needs the policy, because every
vector states the moves it plays. The policy only has to be deterministic, so that `make
vectors` rebuilds the same suite, and varied, so that the games reach every phase, move kind and
ending. It draws from the portable generator (R32, R33): first a move kind, uniformly among the
kinds that are legal, then a move of that kind, uniformly. Chance outcomes in explicit mode are
drawn with their true weights, as the seeded sampler would.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from types import MappingProxyType
from typing import Final

import attrs

from hatsuden_rules.core.apply import apply, new_game
from hatsuden_rules.core.legal import legal_moves
from hatsuden_rules.core.moves import Deal, DealTech, Move
from hatsuden_rules.core.rng import SplitMix64, sample
from hatsuden_rules.core.rules import PRINTED, Overflow, Rules, TechTiming
from hatsuden_rules.core.rulesets import VECTOR_SETS
from hatsuden_rules.core.state import GameState, Phase

__all__ = ["RULE_SETS", "VARIANT_RULE_SETS", "Ply", "play_game", "rule_set_name"]

#: The rule sets the suite plays, by name (`hatsuden_rules.core.rulesets.VECTOR_SETS`).
RULE_SETS: Final = VECTOR_SETS

#: The rule sets of the variant vectors: each option on the printed game, the printed rules
#: alone, and reduced games where overflows and tech draws come often.
VARIANT_RULE_SETS: Final = MappingProxyType(
    {
        "place-at-once": Rules(tech_timing=TechTiming.PLACE_AT_ONCE),
        "any-set": Rules(overflow=Overflow.ANY_SET),
        "printed": PRINTED,
        "mini-any-set": Rules(
            energies=3,
            max_value=3,
            copies=2,
            hand_size=3,
            city_demand=4,
            stall_limit=6,
            overflow=Overflow.ANY_SET,
        ),
        "mini-place-at-once": Rules(
            energies=3,
            max_value=2,
            copies=2,
            hand_size=2,
            city_demand=3,
            stall_limit=6,
            tech_timing=TechTiming.PLACE_AT_ONCE,
        ),
    }
)

#: A game longer than this is abandoned (only possible with ``stall_limit=None``).
MAX_PLIES: Final = 2000


def rule_set_name(rules: Rules) -> str:
    """The name of `rules` in `RULE_SETS`, or ``"custom"``.

    Examples:
        >>> from hatsuden_rules import STANDARD
        >>> rule_set_name(STANDARD)
        'standard'
    """
    for name, known in RULE_SETS.items():
        if known == rules:
            return name
    return "custom"


@attrs.frozen
class Ply:
    """One applied move: the state before it, the move and the state after it."""

    before: GameState
    move: Move
    after: GameState


def choose(state: GameState, rng: SplitMix64) -> tuple[Move, SplitMix64]:
    """The policy's move in `state` (not GAME_OVER), and the generator after it.

    Examples:
        >>> from hatsuden_rules import new_game
        >>> move, _ = choose(new_game(seed=1), SplitMix64.from_seed(1))
        >>> type(move).__name__ in {"Construct", "BuildPylon", "Discard", "Improve"}
        True
    """
    moves = legal_moves(state)
    if state.phase is Phase.CHANCE:
        counts = Counter(state.deck)
        weights = [
            counts[move.card] if isinstance(move, Deal) else 1
            for move in moves
            if isinstance(move, Deal | DealTech)
        ]
        index, rng = sample(weights, rng)
        return moves[index], rng
    kinds = list(dict.fromkeys(type(move) for move in moves))
    k, rng = sample([1] * len(kinds), rng)
    of_kind = [move for move in moves if type(move) is kinds[k]]
    index, rng = sample([1] * len(of_kind), rng)
    return of_kind[index], rng


def play_game(rules: Rules, seed: int | None, policy_seed: int) -> Iterator[Ply]:
    """The plies of one game under `rules`, from `new_game(seed, rules)` to GAME_OVER.

    With `seed` None the game is in explicit chance mode and the policy also picks the chance
    outcomes (from the first `Deal` of the setup on); otherwise the game is seeded (R8).

    Examples:
        >>> from hatsuden_rules import STANDARD
        >>> plies = list(play_game(STANDARD, 7, policy_seed=1))
        >>> plies[-1].after.is_over, plies[0].before.phase.name
        (True, 'ACTION')
    """
    state = new_game(seed, rules)
    rng = SplitMix64.from_seed(policy_seed)
    for _ in range(MAX_PLIES):
        if state.is_over:
            return
        move, rng = choose(state, rng)
        after = apply(state, move)
        yield Ply(state, move, after)
        state = after
