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

fn swap_log(log: &mut Log) {
    for m in log.moves[..log.len as usize].iter_mut() {
        *m = m.swap_rows();
    }
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
        self.swap_rows_in(player, true);
    }

    /// [`State::swap_rows_mut`], the turn logs left as they are unless `logs`: what a search by
    /// position (R36), which drops them, needs, for less work.
    pub fn swap_rows_in(&mut self, player: usize, logs: bool) {
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
            if logs {
                swap_log(&mut self.this_turn);
            }
        } else if logs {
            swap_log(&mut self.last_turn);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Card, Rules};
    use crate::{cell_bit, new_game};

    #[test]
    fn a_move_names_the_other_row_and_back() {
        // R4 cells, R18-R19 the Accumulator's city, R21/R41 the flipped cells.
        let card = Card { energy: 1, value: 2 };
        let cell = Cell { row: 0, energy: 1 };
        let other = Cell { row: 1, energy: 1 };
        let cases = [
            (Move::Construct { card, cell, secret: true }, Move::Construct { card, cell: other, secret: true }),
            (Move::Improve { card, cell }, Move::Improve { card, cell: other }),
            (Move::Downsize { card, cell }, Move::Downsize { card, cell: other }),
            (Move::BuildPylon { card, cell }, Move::BuildPylon { card, cell: other }),
            (Move::Flip { cell }, Move::Flip { cell: other }),
            (
                Move::FlipSet { cells: cell_bit(cell) | cell_bit(Cell { row: 1, energy: 4 }) },
                Move::FlipSet { cells: cell_bit(other) | cell_bit(Cell { row: 0, energy: 4 }) },
            ),
            (Move::PlaceAccumulator { row: 1 }, Move::PlaceAccumulator { row: 0 }),
            (Move::Discard { card }, Move::Discard { card }),
            (Move::PlaceSmart { energy: 2 }, Move::PlaceSmart { energy: 2 }),
            (Move::Pass, Move::Pass),
        ];
        for (m, swapped) in cases {
            assert_eq!(m.swap_rows(), swapped);
            assert_eq!(swapped.swap_rows(), m);
            assert_eq!(m.map_rows(0, 0b10), m);
            assert_eq!(m.map_rows(1, 0b10), swapped);
        }
    }

    #[test]
    fn the_start_is_fixed_and_a_played_cell_moves() {
        let s = new_game(&Rules::STANDARD, None).unwrap();
        for p in 0..2 {
            assert!(s.swap_rows_fixed(p, true));
            assert_eq!(s.swap_rows(p), s);
        }
        let mut t = s;
        t.played = 2; // row 0, energy 2 of the mover (player 0)
        t.accumulator = 1; // player 0, row 1
        let u = t.swap_rows(0);
        assert_eq!((u.played, u.accumulator), (2 + t.t.e as u8, 0));
        assert!(!t.swap_rows_fixed(0, false) && t.swap_rows_fixed(1, true));
        assert_eq!(t.swap_rows(1), t);
    }
}
