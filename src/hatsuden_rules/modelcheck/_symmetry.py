"""Symmetry reduction: a player's two rows (cities) are interchangeable.

Swapping a player's rows 0 and 1, together with whatever lies on their cities (the Accumulator),
the cell played this turn and the cells and rows named by that player's logged moves (R36),
maps reachable states to reachable states, legal moves to legal moves and scores to equal scores
(R21, R27-R29 treat both cities alike). The canonical image of a state picks, for each player
independently, the smaller of the two orientations, so it is the same for every state of an
orbit. The checker then explores one state per orbit and maps its counterexamples back to real
move sequences.

Whose moves the logs hold: `this_turn` is the turn in progress, all by the current player (empty
before the first turn and at GAME_OVER); `last_turn` is the turn that ended last, by the other
player (empty before the first turn ends). `apply` ends a turn by handing it to the opponent,
GAME_OVER included, so this holds in every state.
"""

from __future__ import annotations

from functools import lru_cache

import attrs

from hatsuden_rules import (
    BuildPylon,
    Cell,
    Construct,
    Downsize,
    Flip,
    FlipSet,
    GameState,
    Improve,
    Move,
    PlaceAccumulator,
    move_sort_key,
)
from hatsuden_rules.core import encoding as enc

__all__ = ["canonical", "map_move", "swap_rows"]


_Log = tuple[Move, ...]
_Key = tuple[tuple[tuple[int, ...], ...], int, int, tuple[tuple[int, ...], ...]]


def _log(state: GameState, player: int) -> _Log:
    """The logged moves made by `player`: this turn's if it is to move, else the last turn's."""
    return state.this_turn if state.current_player == player else state.last_turn


@lru_cache(maxsize=1 << 16)
def _mapped_log(log: _Log) -> _Log:
    """`log` with every row exchanged."""
    return tuple(map_move(move, 0, 1) for move in log)


@lru_cache(maxsize=1 << 16)
def _log_key(log: _Log) -> tuple[tuple[int, ...], ...]:
    return tuple(move_sort_key(move) for move in log)


def _key(state: GameState, player: int, swapped: bool) -> tuple[_Key, _Log]:
    """What a swap of `player`'s rows changes, in one orientation, and that player's log."""
    board = enc.boards(state)[player]
    width = len(board) // 2
    accumulator = state.accumulator
    acc_row = accumulator[1] if accumulator is not None and accumulator[0] == player else -1
    cell = enc.played(state)
    played = cell if state.current_player == player and cell is not None else -1
    log = _log(state, player)
    if swapped:
        board = board[width:] + board[:width]
        acc_row = 1 - acc_row if acc_row >= 0 else -1
        played = (played + width) % (2 * width) if played >= 0 else -1
        log = _mapped_log(log)
    return (board, acc_row, played, _log_key(log)), log


def swap_rows(state: GameState, player: int) -> GameState:
    """`state` with `player`'s rows 0 and 1 exchanged (with the Accumulator, played cell, log)."""
    (board, acc_row, played, _), log = _key(state, player, swapped=True)
    boards = (board, enc.boards(state)[1]) if player == 0 else (enc.boards(state)[0], board)
    accumulator = (player, acc_row) if acc_row >= 0 else state.accumulator
    own_turn = state.current_player == player
    return attrs.evolve(
        state,
        boards=boards,
        accumulator=accumulator,
        played=played if played >= 0 else enc.played(state),
        this_turn=log if own_turn else state.this_turn,
        last_turn=state.last_turn if own_turn else log,
    )


def canonical(state: GameState) -> tuple[GameState, int]:
    """The canonical image of `state` and the swaps that give it (bit p: player p swapped)."""
    mask = 0
    for player in (0, 1):
        if _key(state, player, swapped=True)[0] < _key(state, player, swapped=False)[0]:
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
    if isinstance(move, FlipSet):
        return FlipSet(tuple(_other_row(cell) for cell in move.cells))
    if isinstance(move, PlaceAccumulator):
        return PlaceAccumulator(1 - move.row)
    return move


def _other_row(cell: Cell) -> Cell:
    return Cell(1 - cell.row, cell.energy)
