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

from hatsuden_rules._core.apply import apply, new_game
from hatsuden_rules._core.cards import Tech
from hatsuden_rules._core.legal import legal_moves
from hatsuden_rules._core.moves import Deal, DealTech, Move
from hatsuden_rules._core.rng import SplitMix64, sample
from hatsuden_rules._core.rules import STANDARD, Rules, Tiebreak
from hatsuden_rules._core.state import GameState, Phase

__all__ = ["RULE_SETS", "Ply", "play_game", "rule_set_name"]

_MEDIUM: Final = Rules(
    energies=2,
    max_value=2,
    copies=1,
    hand_size=1,
    city_demand=2,
    techs=frozenset({Tech.SMART}),
    allow_retake_discard=False,
    stall_limit=2,
)

#: The rule sets the suite plays, by name: the printed game, one option changed at a time, and
#: reduced games (the model checker's small configurations and three mid-sized ones).
RULE_SETS: Final = MappingProxyType(
    {
        "standard": STANDARD,
        "supply": Rules(tiebreak=Tiebreak.SUPPLY),
        "noretake": Rules(allow_retake_discard=False),
        "stall5": Rules(stall_limit=5),
        "notech": Rules(techs=frozenset()),
        "mini": Rules(energies=3, max_value=3, copies=2, hand_size=3, city_demand=6, stall_limit=6),
        "quad": Rules(
            energies=4,
            max_value=4,
            copies=1,
            hand_size=4,
            city_demand=8,
            techs=frozenset({Tech.ACCUMULATOR, Tech.DOWN}),
            tiebreak=Tiebreak.SUPPLY,
            allow_retake_discard=False,
            stall_limit=8,
        ),
        "nostall": Rules(
            energies=2, max_value=3, copies=2, hand_size=2, city_demand=4, stall_limit=None
        ),
        # The model checker's reduced configurations (RULES.md R31), pinned here so that the
        # suite changes only when the rules do.
        "small": Rules(
            energies=1,
            max_value=2,
            copies=2,
            hand_size=1,
            city_demand=1,
            techs=frozenset({Tech.ACCUMULATOR}),
            allow_retake_discard=False,
            stall_limit=2,
        ),
        "medium": _MEDIUM,
        "medium-alltech": attrs.evolve(_MEDIUM, techs=frozenset(Tech)),
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
