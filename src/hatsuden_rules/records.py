"""Game records (our PGN): the rules, the seed or the chance outcomes, the moves and the result.

A `GameRecord` holds everything needed to replay a game: the `Rules`, the seed (seeded mode, R8)
or None (explicit chance mode: the `Deal` and `DealTech` outcomes are among the moves), the moves
in order, optional player names and the stated result. `replay` plays it again with `apply`,
checking every move and the result. Records have a text form (`format_record`,
`parse_record`) and a JSON document (`hatsuden_rules.serialization`).

Text form (NOTATION.md has the grammar)::

    [Hatsuden "1"]
    [Rules "5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20"]
    [Seed "2017"]
    [Result "winner=0 decided_by=total totals=5:3 end_reason=final_turn"]

    1. C G3 0G, DD
    2. X S1, DX S1
    ...

One line per turn, numbered from 1 (player 0 plays the odd turns); in explicit chance mode the
initial deal comes first as line ``0.``. A line ends exactly where its turn ends (after ``DX``,
``E``, or the draw: ``DD`` in seeded mode, the ``Deal`` after it in explicit mode).

Examples:
    >>> import random
    >>> from hatsuden_rules import apply, legal_moves, new_game
    >>> state, rng, moves = new_game(seed=5), random.Random(1), []
    >>> while not state.is_over:
    ...     moves.append(rng.choice(legal_moves(state)))
    ...     state = apply(state, moves[-1])
    >>> record = record_game(moves, seed=5, players=("Ann", "Bo"))
    >>> record.result.end_reason
    EndReason.FINAL_TURN
    >>> parse_record(format_record(record)) == record
    True
    >>> replay(record) == state
    True
"""

from hatsuden_rules.core import publish
from hatsuden_rules.serialization._records import (
    GameRecord,
    GameResult,
    ReplayError,
    format_record,
    parse_record,
    record_game,
    replay,
)

__all__ = [
    "GameRecord",
    "GameResult",
    "ReplayError",
    "format_record",
    "parse_record",
    "record_game",
    "replay",
]

publish(__name__, __all__, globals())  # public names, not the private modules defining them
