//! The memo of the R29 check: `score()` reads only the grids and the Smart column, so a pair
//! checked once need not be checked again (the Python checker checks once per pair too).

use hatsuden::{same_stacks, Stack, State, Tables};

/// The grids and Smart columns whose score (R29) was checked and found right: a direct-mapped
/// cache of [`ScoreMemo::SLOTS`] entries, exact (an entry answers only for grids and a Smart
/// column equal to its own, under the same rules: every stack of both grids is compared, cards,
/// length and flags). `score()` reads nothing else of a state.
pub struct ScoreMemo {
    /// The rule set of the entries, by its interned tables (one per rule set: the same address
    /// iff the same rules).
    tables: Option<&'static Tables>,
    /// Stacks of one entry: both grids.
    cells: usize,
    /// Per slot: the hash of its grids and Smart column (`u64::MAX`: empty) and its Smart column.
    tags: Vec<(u64, Option<usize>)>,
    /// Per slot: its two grids, `cells` stacks.
    grids: Vec<Stack>,
    /// Whether the memo remembers (not [`ScoreMemo::none`]).
    on: bool,
    /// The hashes of the last two states [`ScoreMemo::prefetch`] was given, by address: the
    /// search prefetches the state it probes next, so the probe need not hash it again. An
    /// address only says where to look first: if the state there has changed since, the hash is
    /// wrong and the probe merely misses (an entry answers only for grids equal to its own,
    /// compared in full), then checks the score.
    ahead: [(usize, u64); 2],
}

/// Where a state's grids go in the memo: what [`ScoreMemo::probe`] found missing.
pub(crate) struct Miss {
    slot: usize,
    hash: u64,
}

impl ScoreMemo {
    /// Entries of a memo (2^16 entries of two grids: 13 MB for a worker on choice).
    pub const SLOTS: usize = 1 << 16;

    /// A memo that remembers nothing (every state is checked).
    pub fn none() -> ScoreMemo {
        ScoreMemo { tables: None, cells: 0, tags: Vec::new(), grids: Vec::new(), on: false, ahead: [(0, 0); 2] }
    }

    /// An empty memo.
    pub fn new() -> ScoreMemo {
        ScoreMemo { on: true, ..ScoreMemo::none() }
    }

    fn hash(s: &State) -> u64 {
        let mut h: u64 = s.smart().map_or(0x51, |c| c as u64 + 1);
        for pl in 0..2 {
            for st in s.board(pl) {
                // The first eight cards, and the last six with the flags and length.
                let [lo, _, hi] = st.words();
                h = (h.rotate_left(5) ^ lo ^ hi.rotate_left(13)).wrapping_mul(0x517cc1b727220a95);
            }
        }
        h ^ h >> 29
    }

    /// Start loading the entry [`ScoreMemo::probe`] will read for `s` into the cache (the
    /// search calls it one state ahead: an entry is read at random from 13 MB).
    #[inline]
    pub(crate) fn prefetch(&mut self, s: &State) {
        if self.tags.is_empty() {
            return;
        }
        let hash = Self::hash(s);
        self.ahead = [self.ahead[1], (s as *const State as usize, hash)];
        let slot = hash as usize % Self::SLOTS;
        prefetch(&self.tags[slot]);
        for cell in self.grids[slot * self.cells..(slot + 1) * self.cells].iter().step_by(2) {
            prefetch(cell);
        }
    }

    /// Whether the score of `s`'s grids and Smart column was checked under the rules of `tables`:
    /// `Ok` if so, else where to [`ScoreMemo::insert`] it once found right.
    pub(crate) fn probe(&mut self, tables: &'static Tables, s: &State) -> Result<(), Option<Miss>> {
        if !self.on {
            return Err(None);
        }
        let n = s.board(0).len();
        if !self.tables.is_some_and(|t| std::ptr::eq(t, tables)) {
            self.tables = Some(tables);
            self.cells = 2 * n;
            self.tags = vec![(u64::MAX, None); Self::SLOTS];
            self.grids = vec![Stack::default(); Self::SLOTS * 2 * n];
        }
        let address = s as *const State as usize;
        let hash = match self.ahead {
            [(a, h), _] | [_, (a, h)] if a == address => h,
            _ => Self::hash(s),
        };
        let slot = hash as usize % Self::SLOTS;
        let (h, smart) = self.tags[slot];
        let grids = &self.grids[slot * self.cells..(slot + 1) * self.cells];
        if h == hash
            && smart == s.smart()
            && same_stacks(&grids[..n], s.board(0))
            && same_stacks(&grids[n..], s.board(1))
        {
            Ok(())
        } else {
            Err(Some(Miss { slot, hash }))
        }
    }

    /// Remember that the score of `s` (the state of the [`ScoreMemo::probe`] that gave `miss`)
    /// is right.
    pub(crate) fn insert(&mut self, miss: Miss, s: &State) {
        let n = self.cells / 2;
        self.tags[miss.slot] = (miss.hash, s.smart());
        let grids = &mut self.grids[miss.slot * self.cells..(miss.slot + 1) * self.cells];
        grids[..n].copy_from_slice(s.board(0));
        grids[n..].copy_from_slice(s.board(1));
    }
}

/// Ask the processor to load the cache line of `x` (a hint: no effect on what the program does).
#[inline(always)]
fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` only hints the cache; it never faults, reads nothing into the
    // program and writes nothing, whatever the address (here a live reference's). Its
    // `target_feature` is SSE, part of every x86_64 target.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>((x as *const T).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

impl Default for ScoreMemo {
    fn default() -> Self {
        ScoreMemo::new()
    }
}
