"""Players (bots) for HATSUDEN: each sees only its own `Observation`, so none can cheat.

A `Player` has one method, ``choose(observation, legal_moves, rng) -> Move``. `RandomPlayer`
plays uniformly at random, `GreedyPlayer` looks one move ahead on the provisional score and
`ISMCTSPlayer` searches with information-set Monte Carlo tree search. `make_player` builds one
from a spec such as ``"ismcts:iterations=50"`` (the names of `PLAYERS`). With the ``native``
extra, `NativePlayer` makes a built-in player's decisions on the Rust core, and
``ISMCTSPlayer(core="native")`` runs its search there.

Examples:
    >>> from hatsuden_rules import SplitMix64, new_game, observe, legal_moves_from
    >>> seen = observe(new_game(seed=2), 0)
    >>> bot = make_player("greedy")
    >>> bot.choose(seen, legal_moves_from(seen), SplitMix64.from_seed(1)) in legal_moves_from(seen)
    True
"""

from hatsuden_rules.core import publish
from hatsuden_rules.players._greedy import GreedyPlayer
from hatsuden_rules.players._ismcts import ISMCTSPlayer
from hatsuden_rules.players._native import NativePlayer, native_spec
from hatsuden_rules.players._protocol import Player
from hatsuden_rules.players._random import RandomPlayer
from hatsuden_rules.players._registry import PLAYERS, PlayerClass, make_player

__all__ = [
    "PLAYERS",
    "GreedyPlayer",
    "ISMCTSPlayer",
    "NativePlayer",
    "Player",
    "PlayerClass",
    "RandomPlayer",
    "make_player",
    "native_spec",
]

publish(__name__, __all__, globals())  # public names, not the private modules defining them
