//! Support for explicit-state model checking (the `hatsuden-check` crate): a state packed into a
//! few 64-bit words and back, the *position* of a state (R36: without its turn logs and known
//! cards), and the few fields a checker needs that the public accessors do not give.
//!
//! The packing is exact: `unpack(pack(s)) == s` for every state in explicit chance mode (R6). Field widths follow the rule set (a card count
//! takes the bits of `copies`, a card index those of the distinct cards, ...), so the packed
//! form of a state of `CONFIGS["huge"]` by position is 3 words.

use crate::moves::Move;
use crate::rules::{Card, Cell, Rules, Tables, MAX_KINDS};
use crate::state::{EndReason, Log, Pending, Phase, Stack, State, LOG_CAP, NONE, STACK_CAP};

fn bits(max: u64) -> u32 {
    64 - max.leading_zeros()
}

/// Writes fields of given widths into consecutive bits, low bits first, a word at a time.
struct Writer<'a> {
    out: &'a mut [u64],
    /// The word being filled.
    idx: usize,
    /// Its bits so far.
    acc: u64,
    /// How many of them (< 64).
    used: u32,
}

impl Writer<'_> {
    #[inline(always)]
    fn put(&mut self, value: u64, width: u32) {
        if width == 0 {
            return;
        }
        debug_assert!(width == 64 || value < (1u64 << width));
        self.acc |= value << self.used;
        let total = self.used + width;
        if total >= 64 {
            self.out[self.idx] = self.acc;
            self.idx += 1;
            // The bits of `value` that did not fit (none when the word was empty).
            self.acc = if self.used == 0 { 0 } else { value >> (64 - self.used) };
            self.used = total - 64;
        } else {
            self.used = total;
        }
    }

    /// Store the last, partial word and clear the words after it.
    fn finish(self) {
        let mut idx = self.idx;
        if self.used > 0 {
            self.out[idx] = self.acc;
            idx += 1;
        }
        self.out[idx..].fill(0);
    }
}

/// Reads the fields of a [`Writer`] back.
struct Reader<'a> {
    words: &'a [u64],
    /// The next word to load.
    idx: usize,
    /// The unread bits of the last word loaded, low-aligned.
    acc: u64,
    /// How many.
    avail: u32,
}

#[inline(always)]
fn mask(width: u32) -> u64 {
    if width == 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

impl Reader<'_> {
    #[inline(always)]
    fn get(&mut self, width: u32) -> u64 {
        if width == 0 {
            return 0;
        }
        if width <= self.avail {
            let v = self.acc & mask(width);
            self.acc = if width == 64 { 0 } else { self.acc >> width };
            self.avail -= width;
            v
        } else {
            // avail < width <= 64: the rest comes from the next word.
            let next = self.words[self.idx];
            self.idx += 1;
            let v = (self.acc | next << self.avail) & mask(width);
            let taken = width - self.avail;
            self.acc = if taken == 64 { 0 } else { next >> taken };
            self.avail = 64 - taken;
            v
        }
    }
}

/// Packs states of one rule set into a fixed number of 64-bit words, exactly.
#[derive(Clone, Debug)]
pub struct Packer {
    t: &'static Tables,
    full: bool,
    words: usize,
    count_bits: u32,
    len_bits: u32,
    card_bits: u32,
    stall_bits: u32,
    stack_cap: u32,
}

impl Packer {
    /// A packer for `rules`; `full` keeps the turn logs and known cards (R36), otherwise they
    /// are left out: the state's [`State::position`] is packed.
    pub fn new(rules: &Rules, full: bool) -> Result<Packer, crate::InvalidInput> {
        let t = rules.tables()?;
        let count_bits = bits(t.copies as u64);
        let len_bits = bits(t.total_cards as u64);
        let card_bits = bits(t.kinds as u64 - 1).max(1);
        let stall_bits = match t.rules.stall_limit {
            Some(limit) => bits(limit as u64 + 1),
            None => 32,
        };
        // A stack is built by one card, improved by strictly higher ones, and downsized at most
        // once (one DOWN card, R3, R13) before it is improved again: at most 2 * max_value cards.
        let stack_cap = (2 * t.mv as u32).min(STACK_CAP as u32);
        let mut p = Packer { t, full, words: 0, count_bits, len_bits, card_bits, stall_bits, stack_cap };
        p.words = p.max_bits().div_ceil(64) as usize;
        Ok(p)
    }

    fn max_bits(&self) -> u32 {
        let t = self.t;
        let k = t.kinds as u32;
        let mut n = 3 + 1 + 2 + 2; // phase, player, pending, end reason
        n += 4 * self.len_bits; // hand lengths, deck and discard sizes
        n += 4 * k * self.count_bits; // hands, deck, discards
        n += 2 * t.ncells as u32 * (4 + bits(self.stack_cap as u64) + self.stack_cap * self.card_bits);
        n += 4 + 8 + 3 + 3 + 4 + bits(t.kinds as u64 + 1) + 2 + self.stall_bits + 1;
        if self.full {
            n += 2 * k * self.count_bits;
            n += 2 * (5 + LOG_CAP as u32 * 16);
        }
        n
    }

    /// Words per packed state.
    pub fn words(&self) -> usize {
        self.words
    }

    /// Whether the logs and known cards are kept.
    pub fn full(&self) -> bool {
        self.full
    }

    /// Pack `s` into `out` (`out.len() == self.words()`; overwritten).
    ///
    /// # Panics
    ///
    /// On a seeded state (the packing is for explicit chance, R6) or a stack longer than
    /// `2 * max_value` cards (impossible by R11-R13).
    pub fn pack(&self, s: &State, out: &mut [u64]) {
        let t = self.t;
        let mut w = Writer { out, idx: 0, acc: 0, used: 0 };
        w.put(s.phase as u64, 3);
        w.put(s.current as u64, 1);
        w.put(s.pending as u64, 2);
        w.put(s.end_reason as u64, 2);
        w.put(s.hand_len[0] as u64, self.len_bits);
        w.put(s.hand_len[1] as u64, self.len_bits);
        w.put(s.deck_len as u64, self.len_bits);
        w.put(s.discard_len as u64, self.len_bits);
        for zone in [&s.hands[0], &s.hands[1], &s.deck, &s.discards] {
            for &n in &zone[..t.kinds] {
                w.put(n as u64, self.count_bits);
            }
        }
        for board in &s.boards {
            for st in &board[..t.ncells] {
                assert!(
                    st.len as u32 <= self.stack_cap,
                    "a stack of {} cards (at most {} by R11-R13)",
                    st.len,
                    self.stack_cap
                );
                w.put(st.flags as u64, 4);
                w.put(st.len as u64, bits(self.stack_cap as u64));
                for &c in st.cards() {
                    w.put(c as u64, self.card_bits);
                }
            }
        }
        w.put(s.tech_deck as u64, 4);
        w.put(s.tech_hands[0] as u64, 4);
        w.put(s.tech_hands[1] as u64, 4);
        w.put(opt(s.accumulator), 3);
        w.put(opt(s.smart), 3);
        w.put(opt(s.played), 4);
        w.put(opt(s.turn_discard), bits(t.kinds as u64 + 1));
        w.put(opt(s.end_trigger), 2);
        w.put(s.stall as u64, self.stall_bits);
        assert!(s.rng.is_none(), "a seeded state is not packed (explicit chance only, R6)");
        w.put(0, 1);
        if self.full {
            for known in &s.known {
                for &n in &known[..t.kinds] {
                    w.put(n as u64, self.count_bits);
                }
            }
            for log in [&s.this_turn, &s.last_turn] {
                w.put(log.len as u64, 5);
                for m in log.moves() {
                    w.put(encode_move(t, m) as u64, 16);
                }
            }
        }
        w.finish();
    }

    /// The state packed in `words`.
    pub fn unpack(&self, words: &[u64]) -> State {
        let t = self.t;
        let mut s = State::empty(t);
        let mut r = Reader { words, idx: 0, acc: 0, avail: 0 };
        s.phase = Phase::ALL[r.get(3) as usize];
        s.current = r.get(1) as u8;
        s.pending = [Pending::None, Pending::Setup, Pending::Draw, Pending::Tech][r.get(2) as usize];
        s.end_reason = [EndReason::None, EndReason::FinalTurn, EndReason::Stall][r.get(2) as usize];
        s.hand_len[0] = r.get(self.len_bits) as u16;
        s.hand_len[1] = r.get(self.len_bits) as u16;
        s.deck_len = r.get(self.len_bits) as u16;
        s.discard_len = r.get(self.len_bits) as u16;
        let mut zones = [[0u8; MAX_KINDS]; 4];
        for zone in zones.iter_mut() {
            for n in zone[..t.kinds].iter_mut() {
                *n = r.get(self.count_bits) as u8;
            }
        }
        s.hands = [zones[0], zones[1]];
        s.deck = zones[2];
        s.discards = zones[3];
        for board in s.boards.iter_mut() {
            for st in board[..t.ncells].iter_mut() {
                let flags = r.get(4) as u8;
                let len = r.get(bits(self.stack_cap as u64)) as usize;
                let mut stack = Stack { flags, ..Stack::default() };
                for _ in 0..len {
                    stack.push(r.get(self.card_bits) as u8);
                }
                *st = stack;
            }
        }
        s.tech_deck = r.get(4) as u8;
        s.tech_hands = [r.get(4) as u8, r.get(4) as u8];
        s.accumulator = unopt(r.get(3));
        s.smart = unopt(r.get(3));
        s.played = unopt(r.get(4));
        s.turn_discard = unopt(r.get(bits(t.kinds as u64 + 1)));
        s.end_trigger = unopt(r.get(2));
        s.stall = r.get(self.stall_bits) as u32;
        s.rng = if r.get(1) == 1 { Some(r.get(64)) } else { None };
        if self.full {
            for known in s.known.iter_mut() {
                for n in known[..t.kinds].iter_mut() {
                    *n = r.get(self.count_bits) as u8;
                }
            }
            for log in [&mut s.this_turn, &mut s.last_turn] {
                let len = r.get(5) as usize;
                for _ in 0..len {
                    log.push(decode_move(t, r.get(16) as u16));
                }
            }
        }
        s
    }
}

#[inline]
fn opt(v: u8) -> u64 {
    if v == NONE {
        0
    } else {
        v as u64 + 1
    }
}

#[inline]
fn unopt(v: u64) -> u8 {
    if v == 0 {
        NONE
    } else {
        (v - 1) as u8
    }
}

fn card_code(t: &Tables, c: Card) -> u16 {
    t.index(c).unwrap_or(63) as u16
}

fn cell_code(t: &Tables, c: Cell) -> u16 {
    t.cell_index(c).unwrap_or(15) as u16
}

/// A move as 16 bits: its kind rank (R34) in the top 5 bits, its fields below (a card index in
/// 6 bits, up to 5 × 11 cards, then a cell index in 4, then the secret flag).
pub fn encode_move(t: &Tables, m: &Move) -> u16 {
    let payload = match *m {
        Move::Construct { card, cell, secret } => card_code(t, card) | cell_code(t, cell) << 6 | (secret as u16) << 10,
        Move::Improve { card, cell } | Move::Downsize { card, cell } | Move::BuildPylon { card, cell } => {
            card_code(t, card) | cell_code(t, cell) << 6
        }
        Move::Discard { card } | Move::DrawFromDiscard { card } | Move::Deal { card } => card_code(t, card),
        Move::Flip { cell } => cell_code(t, cell),
        Move::FlipSet { cells } => cells,
        Move::PlaceAccumulator { row } => row as u16,
        Move::PlaceSmart { energy } => energy as u16,
        Move::DealTech { tech } => tech as u16,
        _ => 0,
    };
    (m.kind_rank() as u16) << 11 | payload
}

/// The move of [`encode_move`].
pub fn decode_move(t: &Tables, code: u16) -> Move {
    let p = code & 0x7ff;
    let card = t.card((p & 63) as u8);
    let cell = t.cell(((p >> 6) & 15) as u8);
    match code >> 11 {
        0 => Move::Construct { card, cell, secret: p >> 10 & 1 == 1 },
        1 => Move::Improve { card, cell },
        2 => Move::Downsize { card, cell },
        3 => Move::BuildPylon { card, cell },
        4 => Move::Discard { card },
        5 => Move::Pass,
        6 => Move::DrawTech,
        7 => Move::DeclineTech,
        8 => Move::Flip { cell: t.cell((p & 15) as u8) },
        9 => Move::FlipSet { cells: p },
        10 => Move::DrawFromDeck,
        11 => Move::DrawFromDiscard { card },
        12 => Move::EndTurn,
        13 => Move::PlaceAccumulator { row: p as u8 },
        14 => Move::PlaceSmart { energy: p as u8 },
        15 => Move::Deal { card },
        _ => Move::DealTech { tech: p as u8 },
    }
}

impl State {
    /// The position of the state (R36): the same state without its turn logs and known cards,
    /// which no rule of R1-R35 reads.
    pub fn position(&self) -> State {
        let mut s = *self;
        s.known = [[0; MAX_KINDS]; 2];
        s.this_turn = Log::default();
        s.last_turn = Log::default();
        s
    }

    /// Whether two states have the same position (every field but the turn logs and the known
    /// cards, R36): `a.position() == b.position()` without the copies.
    pub fn same_position(&self, other: &State) -> bool {
        self.t == other.t
            && self.phase == other.phase
            && self.current == other.current
            && self.pending == other.pending
            && self.end_reason == other.end_reason
            && self.hand_len == other.hand_len
            && self.deck_len == other.deck_len
            && self.discard_len == other.discard_len
            && self.hands == other.hands
            && self.deck == other.deck
            && self.discards == other.discards
            && self.boards == other.boards
            && self.tech_deck == other.tech_deck
            && self.tech_hands == other.tech_hands
            && self.accumulator == other.accumulator
            && self.smart == other.smart
            && self.played == other.played
            && self.turn_discard == other.turn_discard
            && self.end_trigger == other.end_trigger
            && self.stall == other.stall
            && self.rng == other.rng
    }

    /// The state with the known cards (R36) replaced by `known` (counts per card index).
    pub fn with_known(&self, known: [[u8; MAX_KINDS]; 2]) -> State {
        let mut s = *self;
        s.known = known;
        s
    }

    /// The cell index (`row * energies + energy`) of the card played this turn (R21, R23).
    pub fn played_cell_index(&self) -> Option<usize> {
        (self.played != NONE).then_some(self.played as usize)
    }

    /// The card index discarded this turn (R22).
    pub fn turn_discard_index(&self) -> Option<usize> {
        (self.turn_discard != NONE).then_some(self.turn_discard as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{new_game, SplitMix64};

    #[test]
    fn pack_round_trips_full_states_and_positions() {
        let rules = Rules::STANDARD;
        for full in [true, false] {
            let packer = Packer::new(&rules, full).unwrap();
            let mut words = vec![0u64; packer.words()];
            let mut g = SplitMix64::new(7);
            let mut moves = Vec::new();
            for _ in 0..20 {
                let mut s = new_game(&rules, None).unwrap();
                for _ in 0..400 {
                    let stored = if full { s } else { s.position() };
                    packer.pack(&s, &mut words);
                    assert_eq!(packer.unpack(&words), stored);
                    assert!(s.same_position(&stored) && stored.same_position(&s));
                    s.legal_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[(g.next() % moves.len() as u64) as usize];
                    s = s.apply(m).unwrap();
                }
            }
        }
    }
}
