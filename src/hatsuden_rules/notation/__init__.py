"""Text notation: one short canonical line per move, rule set and state (see NOTATION.md).

Cards are an energy letter and a value (``S3``), cells a row and an energy letter (``0S``), tech
cards a three-letter code (``ACC``, ``SEC``, ``SMT``, ``DWN``). A move is a verb and its operands:

==========================  ===============  ================================  =================
move                        notation         move                              notation
==========================  ===============  ================================  =================
Construct(S3, 0S)           ``C S3 0S``      Flip(1W)                          ``F 1W``
Construct(..., secret)      ``C* S3 0S``     FlipSet((0S, 0W))                 ``FS 0S+0W``
Improve(S3, 0S)             ``I S3 0S``      DrawFromDeck()                    ``DD``
Downsize(S3, 0S)            ``D S3 0S``      DrawFromDiscard(S3)               ``DX S3``
BuildPylon(S3, 1W)          ``P S3 1W``      EndTurn()                         ``E``
Discard(S3)                 ``X S3``         PlaceAccumulator(0)               ``A 0``
Pass()                      ``PASS``         PlaceSmart(WIND)                  ``M W``
DrawTech() / DeclineTech()  ``DT`` / ``NT``  Deal(S3) / DealTech(ACCUMULATOR)  ``=S3`` / ``=ACC``
==========================  ===============  ================================  =================

Parsing is strict: the canonical form is the only accepted spelling, so
``format_move(parse_move(text)) == text`` for every accepted text. Malformed text raises
`NotationError` (`MoveNotationError`, an `InvalidMoveError`, for moves) naming the character
position (0-based) of the problem.
"""

from __future__ import annotations

from hatsuden_rules.core import publish
from hatsuden_rules.notation._format import (
    TECH_CODES,
    format_card,
    format_cell,
    format_move,
    format_observation,
    format_rules,
    format_seen_move,
    format_state,
)
from hatsuden_rules.notation._scan import (
    MoveNotationError,
    NotationError,
    parse_card,
    parse_cell,
    parse_move,
    parse_rules,
)
from hatsuden_rules.notation._state import parse_observation, parse_state

__all__ = [
    "TECH_CODES",
    "MoveNotationError",
    "NotationError",
    "format_card",
    "format_cell",
    "format_move",
    "format_observation",
    "format_rules",
    "format_seen_move",
    "format_state",
    "parse_card",
    "parse_cell",
    "parse_move",
    "parse_observation",
    "parse_rules",
    "parse_state",
]

publish(__name__, __all__, globals())  # public names, not the private modules defining them
