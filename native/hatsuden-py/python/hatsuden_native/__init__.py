"""hatsuden-native: the native (Rust) core of hatsuden-rules.

The same rules of HATSUDEN as the pure-Python reference, held to it by the conformance suite
(``hatsuden-conformance --adapter hatsuden-native-adapter``) and by differential tests. States
are compact Rust values; moves, rules and states cross the boundary as notation (NOTATION.md).
Errors are hatsuden-rules' own exceptions (``IllegalMoveError`` with ``.rule``,
``NotationError`` with ``.field`` and ``.position``, ...).

Most users reach it through ``hatsuden_rules.native`` (``pip install 'hatsuden-rules[native]'``).

Examples:
    >>> from hatsuden_native import NativeState, perft
    >>> state = NativeState.new_game()
    >>> perft(state, 2)
    [20, 400]
"""

from ._native import (
    RULES_VERSION,
    STATE_SIZE_BYTES,
    CheckShard,
    Episode,
    NativeState,
    PlayoutStats,
    SpielState,
    VectorBatch,
    __version__,
    bot_choose,
    canonical,
    divide,
    game_value,
    ismcts_search,
    model_check,
    perft,
    play_match,
    playouts,
    replay_ranks,
    shard_result,
)

__all__ = [
    "RULES_VERSION",
    "STATE_SIZE_BYTES",
    "CheckShard",
    "Episode",
    "NativeState",
    "PlayoutStats",
    "SpielState",
    "VectorBatch",
    "__version__",
    "bot_choose",
    "canonical",
    "divide",
    "game_value",
    "ismcts_search",
    "model_check",
    "perft",
    "play_match",
    "playouts",
    "replay_ranks",
    "shard_result",
]
