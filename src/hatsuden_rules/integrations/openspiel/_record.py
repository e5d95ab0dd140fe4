"""What each player has seen so far: the perfect-recall record behind the information state.

`observe` keeps two turns (R36); OpenSpiel needs a player's whole history. The record of player
p is the sequence of every move of the game *as p saw it* (R37 "Moves as seen"): p's own moves
and the chance outcomes p received as they are, the opponent's moves as they are except a
BuildPylon, a secret Construct, a Deal and a DealTech, which p sees concealed. The setup deals
(R7) are in it too. Two histories that p cannot tell apart give the same record, and the record
with p's current observation determines everything p has observed.

Each seen move is also a *seen id* in ``[0, size)``, in four ranges: p's own moves by action id,
the opponent's open moves by action id, the opponent's concealed moves (BuildPylon by cell,
secret Construct by cell, Deal, DealTech), and the chance outcomes p received by chance id. The
information-state tensor counts them.
"""

from __future__ import annotations

from typing import Final

from hatsuden_rules.actions import chance_moves, player_moves
from hatsuden_rules.core.moves import BuildPylon, Construct, Deal, DealTech, Move
from hatsuden_rules.core.rules import Rules
from hatsuden_rules.notation import format_move, format_seen_move
from hatsuden_rules.observation import Concealed

__all__ = ["RECALL_SEGMENTS", "Codec"]

#: The names of the four ranges of seen ids, in order (tensor segments of the same names).
RECALL_SEGMENTS: Final = ("my_moves", "opponent_moves", "opponent_concealed", "my_chance")

#: A seen move: its text in the information-state string and its seen id.
Seen = tuple[str, int]


class Codec:
    """For every action and chance id of one `Rules`: how its mover and the other player see it.

    Built once per game; never mutated.
    """

    __slots__ = ("chance", "player", "segments", "size")

    def __init__(self, rules: Rules) -> None:
        moves = player_moves(rules)
        outcomes = chance_moves(rules)
        n, k, cells = len(moves), len(outcomes), len(rules.cells)
        cell_index = {cell: i for i, cell in enumerate(rules.cells)}
        hidden = 2 * n  # first id of the opponent's concealed moves
        received = hidden + 2 * cells + 2  # first id of the chance outcomes received
        self.segments: tuple[tuple[str, int], ...] = tuple(
            zip(RECALL_SEGMENTS, (n, n, 2 * cells + 2, k), strict=True)
        )
        self.size: int = received + k

        def other_view(move: Move, action: int) -> Seen:
            if isinstance(move, BuildPylon):
                seen = Concealed("BuildPylon", move.cell)
                return format_seen_move(seen), hidden + cell_index[move.cell]
            if isinstance(move, Construct) and move.secret:
                seen = Concealed("Construct", move.cell)
                return format_seen_move(seen), hidden + cells + cell_index[move.cell]
            return format_move(move), n + action

        #: ``player[a] == (as the mover sees it, as the other player sees it)``.
        self.player: tuple[tuple[Seen, Seen], ...] = tuple(
            ((format_move(move), a), other_view(move, a)) for a, move in enumerate(moves)
        )
        deal = (format_seen_move(Concealed("Deal")), hidden + 2 * cells)
        deal_tech = (format_seen_move(Concealed("DealTech")), hidden + 2 * cells + 1)
        #: ``chance[c] == (as the receiver sees it, as the other player sees it)``.
        self.chance: tuple[tuple[Seen, Seen], ...] = tuple(
            (
                (format_move(move), received + c),
                deal if isinstance(move, Deal) else deal_tech,
            )
            for c, move in enumerate(outcomes)
        )
        assert all(isinstance(move, Deal | DealTech) for move in outcomes)
