"""Symmetry reduction: a player's two rows (cities) are interchangeable.

Swapping a player's rows 0 and 1, together with whatever lies on their cities (the Accumulator)
and the cell played this turn, maps reachable states to reachable states, legal moves to legal
moves and scores to equal scores (R21, R27-R29 treat both cities alike). The canonical image of a
state picks, for each player independently, the smaller of the two orientations, so it is the
same for every state of an orbit. The checker then explores one state per orbit and maps its
counterexamples back to real move sequences.
"""

from __future__ import annotations

import attrs

from .. import (
    BuildPylon,
    Cell,
    Construct,
    Downsize,
    Flip,
    GameState,
    Improve,
    Move,
    PlaceAccumulator,
)

__all__ = ["canonical", "map_move", "swap_rows"]


_Key = tuple[tuple[tuple[int, ...], ...], int, int]


def _key(state: GameState, player: int, swapped: bool) -> _Key:
    """What a swap of `player`'s rows changes, in one orientation (raw grid first)."""
    board = state._boards[player]
    width = len(board) // 2
    accumulator = state._accumulator
    acc_row = accumulator[1] if accumulator is not None and accumulator[0] == player else -1
    played = state._played if state.current_player == player and state._played is not None else -1
    if swapped:
        board = board[width:] + board[:width]
        acc_row = 1 - acc_row if acc_row >= 0 else -1
        played = (played + width) % (2 * width) if played >= 0 else -1
    return (board, acc_row, played)


def swap_rows(state: GameState, player: int) -> GameState:
    """`state` with `player`'s rows 0 and 1 exchanged (with the Accumulator and played cell)."""
    board, acc_row, played = _key(state, player, swapped=True)
    boards = (board, state._boards[1]) if player == 0 else (state._boards[0], board)
    accumulator = (player, acc_row) if acc_row >= 0 else state._accumulator
    return attrs.evolve(
        state,
        boards=boards,
        accumulator=accumulator,
        played=played if played >= 0 else state._played,
    )


def canonical(state: GameState) -> tuple[GameState, int]:
    """The canonical image of `state` and the swaps that give it (bit p: player p swapped)."""
    mask = 0
    for player in (0, 1):
        if _key(state, player, swapped=True) < _key(state, player, swapped=False):
            state = swap_rows(state, player)
            mask |= 1 << player
    return state, mask


def map_move(move: Move, mover: int, mask: int) -> Move:
    """`move` by `mover` seen through the swaps `mask` (its own inverse)."""
    if not mask >> mover & 1:
        return move
    if isinstance(move, Construct | Improve | Downsize | BuildPylon):
        return attrs.evolve(move, cell=_other_row(move.cell))
    if isinstance(move, Flip):
        return Flip(_other_row(move.cell))
    if isinstance(move, PlaceAccumulator):
        return PlaceAccumulator(1 - move.row)
    return move


def _other_row(cell: Cell) -> Cell:
    return Cell(1 - cell.row, cell.energy)
