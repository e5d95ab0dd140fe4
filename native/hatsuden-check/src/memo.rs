//! The memo of the R29 check: `score()` reads only the grids and the Smart column, so a pair
//! checked once need not be checked again (the Python checker checks once per pair too).

use hatsuden::{Rules, Stack, State, MAX_CELLS};

/// The grids and Smart columns whose score (R29) was checked and found right: a direct-mapped
/// cache of [`ScoreMemo::SLOTS`] entries, exact (an entry answers only for grids and a Smart
/// column equal to its own, under the same rules). `score()` reads nothing else of a state.
pub struct ScoreMemo {
    rules: Option<Rules>,
    slots: Vec<(u64, Option<usize>, [Stack; 2 * MAX_CELLS])>,
}

impl ScoreMemo {
    /// Entries of a memo.
    pub const SLOTS: usize = 4096;

    /// A memo that remembers nothing (every state is checked).
    pub fn none() -> ScoreMemo {
        ScoreMemo { rules: None, slots: Vec::new() }
    }

    /// An empty memo.
    pub fn new() -> ScoreMemo {
        ScoreMemo { rules: None, slots: vec![(u64::MAX, None, [Stack::default(); 2 * MAX_CELLS]); Self::SLOTS] }
    }

    fn key(s: &State) -> (u64, [Stack; 2 * MAX_CELLS]) {
        let mut grids = [Stack::default(); 2 * MAX_CELLS];
        let mut h: u64 = s.smart().map_or(0x51, |c| c as u64 + 1);
        let n = s.board(0).len();
        for pl in 0..2 {
            for (i, st) in s.board(pl).iter().enumerate() {
                grids[pl * n + i] = *st;
                let mut cards = [0u8; 8];
                let k = st.cards.len().min(8);
                cards[..k].copy_from_slice(&st.cards[..k]);
                let word = u64::from_le_bytes(cards) ^ ((st.flags as u64) << 48 | (st.len as u64) << 56);
                h = (h.rotate_left(5) ^ word).wrapping_mul(0x517cc1b727220a95);
            }
        }
        (h ^ h >> 29, grids)
    }

    /// Whether the score of `s`'s grids and Smart column was checked under `rules`.
    pub(crate) fn checked(&mut self, rules: &Rules, s: &State) -> bool {
        if self.slots.is_empty() {
            return false;
        }
        if self.rules != Some(*rules) {
            self.rules = Some(*rules);
            self.slots.iter_mut().for_each(|e| e.0 = u64::MAX);
            return false;
        }
        let (h, grids) = Self::key(s);
        let e = &self.slots[h as usize % Self::SLOTS];
        e.0 == h && e.1 == s.smart() && e.2 == grids
    }

    /// Remember that `s`'s score is right.
    pub(crate) fn insert(&mut self, s: &State) {
        if self.slots.is_empty() {
            return;
        }
        let (h, grids) = Self::key(s);
        self.slots[h as usize % Self::SLOTS] = (h, s.smart(), grids);
    }
}

impl Default for ScoreMemo {
    fn default() -> Self {
        ScoreMemo::new()
    }
}
