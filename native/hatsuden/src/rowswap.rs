//! The row swap (issue 21, VERIFICATION.md "Symmetry reduction"): a player's two rows (cities)
//! are interchangeable. No rule names a row but through the cells, the Accumulator's city and
//! the moves that name them (R19, R21, R27-R29 treat both cities alike), so exchanging a
//! player's rows 0 and 1, together with the Accumulator on one of its cities, the cell played
//! this turn and the cells and rows named by that player's logged moves (R36), maps reachable
//! states to reachable states, legal moves to legal moves and scores to equal scores.
//!
//! Whose moves the logs hold: `this_turn` is the turn in progress, all by the current player
//! (empty before the first turn and at GAME_OVER); `last_turn` is the turn that ended last, by
//! the other player. The cell played this turn (R21, R23) is the current player's.

use crate::moves::Move;
use crate::rules::Cell;
use crate::state::{Log, State, NONE};

/// The cell in the other row, same energy column.
#[inline]
fn other_row(c: Cell) -> Cell {
    Cell { row: 1 - c.row, energy: c.energy }
}

impl Move {
    /// The move with every cell and row it names moved to the other row (R4: a `FlipSet`'s bit
    /// `row * 5 + energy`); the swap is its own inverse. Moves that name no row are unchanged.
    pub fn swap_rows(&self) -> Move {
        match *self {
            Move::Construct { card, cell, secret } => Move::Construct { card, cell: other_row(cell), secret },
            Move::Improve { card, cell } => Move::Improve { card, cell: other_row(cell) },
            Move::Downsize { card, cell } => Move::Downsize { card, cell: other_row(cell) },
            Move::BuildPylon { card, cell } => Move::BuildPylon { card, cell: other_row(cell) },
            Move::Flip { cell } => Move::Flip { cell: other_row(cell) },
            Move::FlipSet { cells } => Move::FlipSet { cells: (cells & 0x1f) << 5 | (cells >> 5) & 0x1f },
            Move::PlaceAccumulator { row } => Move::PlaceAccumulator { row: 1 - row },
            m => m,
        }
    }

    /// `self`, made by `mover`, seen through the row swaps `mask` (bit p: player p's rows
    /// exchanged); its own inverse.
    #[inline]
    pub fn map_rows(&self, mover: usize, mask: u8) -> Move {
        if mask >> mover & 1 == 1 {
            self.swap_rows()
        } else {
            *self
        }
    }
}

fn swap_log(log: &Log) -> Log {
    let mut out = *log;
    for m in out.moves[..out.len as usize].iter_mut() {
        *m = m.swap_rows();
    }
    out
}

fn log_fixed(log: &Log) -> bool {
    log.moves().iter().all(|m| m.swap_rows() == *m)
}

impl State {
    /// The state with `player`'s rows 0 and 1 exchanged, with the Accumulator on one of its
    /// cities, the cell it played this turn and the cells and rows its logged moves name (R36).
    /// Its own inverse; the swaps of the two players commute.
    pub fn swap_rows(&self, player: usize) -> State {
        let mut s = *self;
        s.swap_rows_mut(player);
        s
    }

    /// [`State::swap_rows`] in place.
    pub fn swap_rows_mut(&mut self, player: usize) {
        let e = self.t.e;
        let p = player & 1;
        let board = &mut self.boards[p];
        for c in 0..e {
            board.swap(c, c + e);
        }
        if self.accumulator != NONE && (self.accumulator >> 1) as usize == p {
            self.accumulator ^= 1;
        }
        if self.current as usize == p {
            if self.played != NONE {
                self.played = ((self.played as usize + e) % (2 * e)) as u8;
            }
            self.this_turn = swap_log(&self.this_turn);
        } else {
            self.last_turn = swap_log(&self.last_turn);
        }
    }

    /// Whether [`State::swap_rows`] of `player` leaves the state unchanged (`logs`: counting the
    /// turn logs; without them, whether it leaves the position unchanged, R36).
    pub fn swap_rows_fixed(&self, player: usize, logs: bool) -> bool {
        let e = self.t.e;
        let p = player & 1;
        let board = &self.boards[p];
        if board[..e] != board[e..2 * e] {
            return false;
        }
        if self.accumulator != NONE && (self.accumulator >> 1) as usize == p {
            return false;
        }
        let own = self.current as usize == p;
        if own && self.played != NONE {
            return false;
        }
        !logs || log_fixed(if own { &self.this_turn } else { &self.last_turn })
    }
}
