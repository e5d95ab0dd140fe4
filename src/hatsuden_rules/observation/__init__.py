"""Hidden information (R30, R36-R39): what one player sees, and full states consistent with it.

`observe` gives a player's `Observation`: their own hand and tech hand, the public board with the
cards they have seen, the counts of everything hidden, the cards known to be in the opponent's
hand, and the last two turns' moves as they saw them. `legal_moves_from` gives the mover's moves
from their observation alone; `sample_state` draws a complete state that the player cannot tell
apart from the real one (information-set sampling, for ISMCTS and other search).

Examples:
    >>> from hatsuden_rules import SplitMix64, legal_moves, new_game
    >>> state = new_game(seed=3)
    >>> seen = observe(state, 0)
    >>> seen.hand == state.hand(0), seen.opponent_hand_size, seen.deck_size
    (True, 5, 30)
    >>> legal_moves_from(seen) == legal_moves(state)
    True
    >>> observe(sample_state(seen, SplitMix64.from_seed(1)), 0) == seen
    True
"""

from __future__ import annotations

from hatsuden_rules.observation._features import observation_feature_names
from hatsuden_rules.observation._observe import Concealed, Observation, SeenMove, SeenStack, observe
from hatsuden_rules.observation._render import render_observation
from hatsuden_rules.observation._sampling import legal_moves_from, sample_state
from hatsuden_rules.observation._tensor import observation_tensor, observation_tensor_layout

__all__ = [
    "Concealed",
    "Observation",
    "SeenMove",
    "SeenStack",
    "legal_moves_from",
    "observation_feature_names",
    "observation_tensor",
    "observation_tensor_layout",
    "observe",
    "render_observation",
    "sample_state",
]
