//! Support for explicit-state model checking (the `hatsuden-check` crate): a state packed into a
//! few 64-bit words and back, the *position* of a state (R36: without its turn logs and known
//! cards), and the few fields a checker needs that the public accessors do not give.
//!
//! The packing is exact: `unpack(pack(s)) == s` for every state in explicit chance mode (R6). Field widths follow the rule set (a card count
//! takes the bits of `copies`, a card index those of the distinct cards, ...), so the packed
//! form of a state of `CONFIGS["huge"]` by position is 3 words.

use crate::moves::Move;
use crate::rules::{Card, Cell, Rules, Tables, MAX_CELLS, MAX_KINDS};
use crate::state::{same_stacks, EndReason, Log, Pending, Phase, Stack, State, LOG_CAP, NONE, STACK_CAP};

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
    /// Append the low `width` bits of `value` (`1 <= width <= 64`; the bits above are 0).
    #[inline(always)]
    fn put(&mut self, value: u64, width: u32) {
        debug_assert!((1..=64).contains(&width) && (width == 64 || value < (1u64 << width)));
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

/// The low `width` bits set (`1 <= width <= 64`).
#[inline(always)]
fn mask(width: u32) -> u64 {
    debug_assert!((1..=64).contains(&width));
    u64::MAX >> (64 - width)
}

/// Eight byte-sized fields of `w` bits each (1 <= w <= 8) moved together into `8 * w`
/// consecutive bits (field `i` at bit `i * w`) and back, in three steps of pairs (a branch-free
/// form of one write per field: the same bits, low fields first).
#[derive(Clone, Copy, Debug)]
struct Lanes {
    w: u32,
    /// Per step (16-, 32-, 64-bit lanes): the low half's mask, the high half's mask.
    masks: [(u64, u64); 3],
}

impl Lanes {
    fn new(w: u32) -> Lanes {
        assert!((1..=8).contains(&w));
        let rep16 = 0x0001_0001_0001_0001u64;
        let rep32 = 0x0000_0001_0000_0001u64;
        Lanes {
            w,
            masks: [
                (mask(w) * rep16, (mask(w) << w) * rep16),
                (mask(2 * w) * rep32, (mask(2 * w) << (2 * w)) * rep32),
                (mask(4 * w), mask(4 * w) << (4 * w)),
            ],
        }
    }

    /// Byte `i` of `x` (below `2^w`) to bits `i * w ..`.
    #[inline(always)]
    fn squeeze(&self, x: u64) -> u64 {
        let w = self.w;
        let [a, b, c] = self.masks;
        let x = (x & a.0) | (x >> (8 - w) & a.1);
        let x = (x & b.0) | (x >> (16 - 2 * w) & b.1);
        (x & c.0) | (x >> (32 - 4 * w) & c.1)
    }

    /// The inverse of [`Lanes::squeeze`].
    #[inline(always)]
    fn spread(&self, v: u64) -> u64 {
        let w = self.w;
        let [a, b, c] = self.masks;
        let x = (v & c.0) | ((v & c.1) << (32 - 4 * w));
        let x = (x & b.0) | ((x & b.1) << (16 - 2 * w));
        (x & a.0) | ((x & a.1) << (8 - w))
    }
}

/// The low `n` bytes of a word (`n <= 8`).
#[inline(always)]
fn low_bytes(x: u64, n: usize) -> u64 {
    if n >= 8 {
        x
    } else {
        x & ((1u64 << (8 * n)) - 1)
    }
}

/// Counts `8 * g .. 8 * g + 8` of a zone as the bytes of a word (one eight-byte load:
/// [`MAX_KINDS`] is a multiple of 8).
#[inline(always)]
fn group8(b: &[u8; MAX_KINDS], g: usize) -> u64 {
    u64::from_le_bytes(b[8 * g..8 * g + 8].try_into().unwrap())
}

/// Whether two zones have the same counts of the first `kinds` cards, compared eight at a time
/// (the counts past them are 0 in every state).
#[inline(always)]
fn same_groups(a: &[u8; MAX_KINDS], b: &[u8; MAX_KINDS], kinds: usize) -> bool {
    (0..kinds.div_ceil(8)).fold(0u64, |d, g| d | (group8(a, g) ^ group8(b, g))) == 0
}

/// Writes the eight bytes of `x` to counts `8 * g ..` of a zone.
#[inline(always)]
fn set_group8(b: &mut [u8; MAX_KINDS], g: usize, x: u64) {
    b[8 * g..8 * g + 8].copy_from_slice(&x.to_le_bytes());
}

impl Reader<'_> {
    /// The next `width` bits (`1 <= width <= 64`).
    #[inline(always)]
    fn get(&mut self, width: u32) -> u64 {
        debug_assert!((1..=64).contains(&width));
        if width <= self.avail {
            let v = self.acc & mask(width);
            // Two shifts: a shift by 64 (the whole word read) is not one instruction.
            self.acc = self.acc >> (width - 1) >> 1;
            self.avail -= width;
            v
        } else {
            // avail < width <= 64: the rest comes from the next word.
            let next = self.words[self.idx];
            self.idx += 1;
            let v = (self.acc | next << self.avail) & mask(width);
            let taken = width - self.avail;
            self.acc = next >> (taken - 1) >> 1;
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
    /// Whether a whole stack (flags, length, cards) fits in one write.
    stack_word: bool,
    /// Eight counts at a time.
    counts8: Lanes,
    /// Per group of eight counts of a zone (the last one may hold fewer): the mask of its
    /// counts' bytes and the bits they take packed, computed once for the rule set (a call
    /// of `pack` or `unpack_into` reads them instead of deriving them from `kinds`).
    groups: [(u64, u32); MAX_KINDS / 8],
    /// How many groups a zone has.
    ngroups: usize,
    /// The index in [`Packer::pack`]'s list of the field widths with code of their own
    /// ([`Fixed`]), if they are one of them.
    shape: Option<u8>,
}

/// The widths of a packer's fields, and the sizes they follow from: read from the packer for
/// any rule set ([`AnyWidths`]), or constants ([`Fixed`]) for the few rule sets the model
/// checker searches most, so that the compiler folds them into `pack` and `unpack_into` (the
/// same code, the same layout; only the widths are known in advance).
trait Widths: Copy {
    /// Distinct cards.
    fn kinds(self, p: &Packer) -> usize;
    /// Cells per grid.
    fn ncells(self, p: &Packer) -> usize;
    /// Bits of a length (hands, deck, discards).
    fn len_bits(self, p: &Packer) -> u32;
    /// Bits of a card index.
    fn card_bits(self, p: &Packer) -> u32;
    /// Most cards in a stack.
    fn stack_cap(self, p: &Packer) -> u32;
    /// Bits of the stall counter.
    fn stall_bits(self, p: &Packer) -> u32;
    /// Whether a whole stack fits in one write.
    fn stack_word(self, p: &Packer) -> bool;
    /// Eight counts at a time.
    fn counts8(self, p: &Packer) -> Lanes;
    /// Group `g` of a zone's counts: the mask of its bytes and the bits they take packed.
    fn group(self, p: &Packer, g: usize) -> (u64, u32);
}

/// The widths of any rule set, read from the packer.
#[derive(Clone, Copy)]
struct AnyWidths;

impl Widths for AnyWidths {
    #[inline(always)]
    fn kinds(self, p: &Packer) -> usize {
        p.t.kinds
    }
    #[inline(always)]
    fn ncells(self, p: &Packer) -> usize {
        p.t.ncells
    }
    #[inline(always)]
    fn len_bits(self, p: &Packer) -> u32 {
        p.len_bits
    }
    #[inline(always)]
    fn card_bits(self, p: &Packer) -> u32 {
        p.card_bits
    }
    #[inline(always)]
    fn stack_cap(self, p: &Packer) -> u32 {
        p.stack_cap
    }
    #[inline(always)]
    fn stall_bits(self, p: &Packer) -> u32 {
        p.stall_bits
    }
    #[inline(always)]
    fn stack_word(self, p: &Packer) -> bool {
        p.stack_word
    }
    #[inline(always)]
    fn counts8(self, p: &Packer) -> Lanes {
        p.counts8
    }
    #[inline(always)]
    fn group(self, p: &Packer, g: usize) -> (u64, u32) {
        p.groups[g]
    }
}

/// Widths known in advance: `K` cards, `C` cells, counts of `CNT` bits, lengths of `LB`, card
/// indices of `CB`, stacks of at most `CAP` cards, a stall counter of `STALL` bits. Used only
/// for a packer whose widths are these ([`Fixed::fits`]).
#[derive(Clone, Copy)]
struct Fixed<
    const K: usize,
    const C: usize,
    const CNT: u32,
    const LB: u32,
    const CB: u32,
    const CAP: u32,
    const STALL: u32,
>;

impl<
        const K: usize,
        const C: usize,
        const CNT: u32,
        const LB: u32,
        const CB: u32,
        const CAP: u32,
        const STALL: u32,
    > Fixed<K, C, CNT, LB, CB, CAP, STALL>
{
    /// Whether `p`'s widths are these.
    fn fits(p: &Packer) -> bool {
        (p.t.kinds, p.t.ncells, p.count_bits, p.len_bits, p.card_bits, p.stack_cap, p.stall_bits)
            == (K, C, CNT, LB, CB, CAP, STALL)
    }
}

impl<
        const K: usize,
        const C: usize,
        const CNT: u32,
        const LB: u32,
        const CB: u32,
        const CAP: u32,
        const STALL: u32,
    > Widths for Fixed<K, C, CNT, LB, CB, CAP, STALL>
{
    #[inline(always)]
    fn kinds(self, _: &Packer) -> usize {
        K
    }
    #[inline(always)]
    fn ncells(self, _: &Packer) -> usize {
        C
    }
    #[inline(always)]
    fn len_bits(self, _: &Packer) -> u32 {
        LB
    }
    #[inline(always)]
    fn card_bits(self, _: &Packer) -> u32 {
        CB
    }
    #[inline(always)]
    fn stack_cap(self, _: &Packer) -> u32 {
        CAP
    }
    #[inline(always)]
    fn stall_bits(self, _: &Packer) -> u32 {
        STALL
    }
    #[inline(always)]
    fn stack_word(self, _: &Packer) -> bool {
        4 + bits(CAP as u64) + CAP * CB <= 64
    }
    #[inline(always)]
    fn counts8(self, _: &Packer) -> Lanes {
        Lanes::new(CNT)
    }
    #[inline(always)]
    fn group(self, _: &Packer, g: usize) -> (u64, u32) {
        let n = (K - 8 * g).min(8);
        (low_bytes(u64::MAX, n), n as u32 * CNT)
    }
}

/// The widths of `medium`, `choice` and the variants of `medium` (hatsuden-check's `CONFIGS`).
type MediumWidths = Fixed<4, 4, 1, 3, 2, 4, 2>;
/// The widths of `huge` (two copies of each card).
type HugeWidths = Fixed<4, 4, 2, 4, 2, 4, 2>;
/// The widths of `large` (stall limit 4).
type LargeWidths = Fixed<4, 4, 1, 3, 2, 4, 3>;

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
        let stack_word = 4 + bits(stack_cap as u64) + stack_cap * card_bits <= 64;
        let mut p = Packer {
            t,
            full,
            words: 0,
            count_bits,
            len_bits,
            card_bits,
            stall_bits,
            stack_cap,
            stack_word,
            counts8: Lanes::new(count_bits),
            groups: [(0, 0); MAX_KINDS / 8],
            ngroups: t.kinds.div_ceil(8),
            shape: None,
        };
        for g in 0..p.ngroups {
            let n = (t.kinds - 8 * g).min(8);
            p.groups[g] = (low_bytes(u64::MAX, n), n as u32 * count_bits);
        }
        p.words = p.max_bits().div_ceil(64) as usize;
        // In the order of the dispatch in `pack` and `unpack_into`.
        p.shape = [MediumWidths::fits(&p), HugeWidths::fits(&p), LargeWidths::fits(&p)]
            .iter()
            .position(|&f| f)
            .map(|i| i as u8);
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
    /// Adjacent fields are combined into one write of up to 64 bits (the layout is that of one
    /// write per field, low bits first: `pack_fields` in the tests writes it field by field).
    ///
    /// # Panics
    ///
    /// On a seeded state (the packing is for explicit chance, R6) or a stack longer than
    /// `2 * max_value` cards (impossible by R11-R13).
    pub fn pack(&self, s: &State, out: &mut [u64]) {
        match self.shape {
            Some(0) => self.pack_as(MediumWidths {}, s, out),
            Some(1) => self.pack_as(HugeWidths {}, s, out),
            Some(2) => self.pack_as(LargeWidths {}, s, out),
            _ => self.pack_as(AnyWidths, s, out),
        }
    }

    /// [`Packer::pack`] with the widths of `sh`.
    #[inline(always)]
    fn pack_as<W: Widths>(&self, sh: W, s: &State, out: &mut [u64]) {
        let t = self.t;
        let mut w = Writer { out, idx: 0, acc: 0, used: 0 };
        // phase (3), player (1), pending (2), end reason (2).
        w.put(s.phase as u64 | (s.current as u64) << 3 | (s.pending as u64) << 4 | (s.end_reason as u64) << 6, 8);
        let lb = sh.len_bits(self); // at most 14 (55 cards x 255 copies): four fit in a word
        w.put(
            s.hand_len[0] as u64
                | (s.hand_len[1] as u64) << lb
                | (s.deck_len as u64) << (2 * lb)
                | (s.discard_len as u64) << (3 * lb),
            4 * lb,
        );
        for zone in [&s.hands[0], &s.hands[1], &s.deck, &s.discards] {
            self.put_counts(sh, &mut w, zone);
        }
        let cap = sh.stack_cap(self);
        let sl = bits(cap as u64);
        let cb = sh.card_bits(self);
        for board in &s.boards {
            for st in &board[..sh.ncells(self)] {
                assert!(st.len as u32 <= cap, "a stack of {} cards (at most {cap} by R11-R13)", st.len);
                if sh.stack_word(self) {
                    // flags (4), length, the cards: one write.
                    let mut v = st.flags as u64 | (st.len as u64) << 4;
                    let mut at = 4 + sl;
                    for &c in st.cards() {
                        v |= (c as u64) << at;
                        at += cb;
                    }
                    w.put(v, at);
                } else {
                    w.put(st.flags as u64, 4);
                    w.put(st.len as u64, sl);
                    for &c in st.cards() {
                        w.put(c as u64, cb);
                    }
                }
            }
        }
        let tdb = bits(sh.kinds(self) as u64 + 1);
        // tech deck, tech hands (4 each), Accumulator (3), Smart (3), played (4), the turn's
        // discard, the end trigger (2): at most 30 bits.
        w.put(
            s.tech_deck as u64
                | (s.tech_hands[0] as u64) << 4
                | (s.tech_hands[1] as u64) << 8
                | opt(s.accumulator) << 12
                | opt(s.smart) << 15
                | opt(s.played) << 18
                | opt(s.turn_discard) << 22
                | opt(s.end_trigger) << (22 + tdb),
            24 + tdb,
        );
        assert!(s.rng.is_none(), "a seeded state is not packed (explicit chance only, R6)");
        // The stall counter (at most 32 bits), then the seeded flag (0).
        w.put(s.stall as u64, sh.stall_bits(self) + 1);
        if self.full {
            for known in &s.known {
                self.put_counts(sh, &mut w, known);
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

    /// The counts of a zone, `count_bits` each, eight a write.
    #[inline(always)]
    fn put_counts<W: Widths>(&self, sh: W, w: &mut Writer, counts: &[u8; MAX_KINDS]) {
        let lanes = sh.counts8(self);
        for g in 0..sh.kinds(self).div_ceil(8) {
            let (bytes, width) = sh.group(self, g);
            w.put(lanes.squeeze(group8(counts, g) & bytes), width);
        }
    }

    /// The `kinds` counts of a zone written by [`Packer::put_counts`], into `out` (the rest of
    /// `out` zeroed).
    #[inline(always)]
    fn get_counts<W: Widths>(&self, sh: W, r: &mut Reader, out: &mut [u8; MAX_KINDS]) {
        *out = [0u8; MAX_KINDS];
        let lanes = sh.counts8(self);
        for g in 0..sh.kinds(self).div_ceil(8) {
            set_group8(out, g, lanes.spread(r.get(sh.group(self, g).1)));
        }
    }

    /// The state packed in `words`.
    pub fn unpack(&self, words: &[u64]) -> State {
        let mut s = State::empty(self.t);
        self.unpack_into(words, &mut s);
        s
    }

    /// `*s = self.unpack(words)`, without building a new state: every field of `s` is
    /// overwritten (a checker unpacks into one state per worker instead of copying a new one).
    pub fn unpack_into(&self, words: &[u64], s: &mut State) {
        match self.shape {
            Some(0) => self.unpack_as(MediumWidths {}, words, s),
            Some(1) => self.unpack_as(HugeWidths {}, words, s),
            Some(2) => self.unpack_as(LargeWidths {}, words, s),
            _ => self.unpack_as(AnyWidths, words, s),
        }
    }

    /// [`Packer::unpack_into`] with the widths of `sh`.
    #[inline(always)]
    fn unpack_as<W: Widths>(&self, sh: W, words: &[u64], s: &mut State) {
        let t = self.t;
        s.t = t;
        let mut r = Reader { words, idx: 0, acc: 0, avail: 0 };
        let head = r.get(8);
        s.phase = Phase::ALL[(head & 7) as usize];
        s.current = (head >> 3 & 1) as u8;
        s.pending = [Pending::None, Pending::Setup, Pending::Draw, Pending::Tech][(head >> 4 & 3) as usize];
        s.end_reason = [EndReason::None, EndReason::FinalTurn, EndReason::Stall][(head >> 6) as usize];
        let lb = sh.len_bits(self);
        let lens = r.get(4 * lb);
        let lm = mask(lb);
        s.hand_len = [(lens & lm) as u16, (lens >> lb & lm) as u16];
        s.deck_len = (lens >> (2 * lb) & lm) as u16;
        s.discard_len = (lens >> (3 * lb) & lm) as u16;
        self.get_counts(sh, &mut r, &mut s.hands[0]);
        self.get_counts(sh, &mut r, &mut s.hands[1]);
        self.get_counts(sh, &mut r, &mut s.deck);
        self.get_counts(sh, &mut r, &mut s.discards);
        let sl = bits(sh.stack_cap(self) as u64);
        let cb = sh.card_bits(self);
        let cm = mask(cb);
        for board in s.boards.iter_mut() {
            // Every stack cleared (the cells past the rule set's stay empty), then filled.
            *board = [Stack::default(); MAX_CELLS];
            for st in board[..sh.ncells(self)].iter_mut() {
                if sh.stack_word(self) {
                    let head = r.get(4 + sl);
                    st.flags = (head & 15) as u8;
                    st.len = (head >> 4) as u8;
                    let len = (st.len as usize).min(STACK_CAP);
                    if len > 0 {
                        let cards = r.get(len as u32 * cb);
                        for (k, c) in st.cards[..len].iter_mut().enumerate() {
                            *c = (cards >> (k as u32 * cb) & cm) as u8;
                        }
                    }
                } else {
                    st.flags = r.get(4) as u8;
                    let len = r.get(sl);
                    for _ in 0..len {
                        st.push(r.get(cb) as u8);
                    }
                }
            }
        }
        let tdb = bits(sh.kinds(self) as u64 + 1);
        let tail = r.get(24 + tdb);
        s.tech_deck = (tail & 15) as u8;
        s.tech_hands = [(tail >> 4 & 15) as u8, (tail >> 8 & 15) as u8];
        s.accumulator = unopt(tail >> 12 & 7);
        s.smart = unopt(tail >> 15 & 7);
        s.played = unopt(tail >> 18 & 15);
        s.turn_discard = unopt(tail >> 22 & mask(tdb));
        s.end_trigger = unopt(tail >> (22 + tdb) & 3);
        s.stall = r.get(sh.stall_bits(self)) as u32;
        s.rng = if r.get(1) == 1 { Some(r.get(64)) } else { None };
        s.this_turn = Log::EMPTY;
        s.last_turn = Log::EMPTY;
        if self.full {
            self.get_counts(sh, &mut r, &mut s.known[0]);
            self.get_counts(sh, &mut r, &mut s.known[1]);
            for log in [&mut s.this_turn, &mut s.last_turn] {
                let len = r.get(5) as usize;
                for _ in 0..len {
                    log.push(decode_move(t, r.get(16) as u16));
                }
            }
        } else {
            s.known = [[0; MAX_KINDS]; 2];
        }
    }
}

/// An optional one-byte field as `0` for [`NONE`] (255), else `v + 1` (without a branch:
/// `NONE + 1` wraps to 0 in the byte).
#[inline]
fn opt(v: u8) -> u64 {
    v.wrapping_add(1) as u64
}

const _: () = assert!(NONE == u8::MAX, "opt and unopt wrap NONE to 0 and back");

/// The inverse of [`opt`] (`v` at most 255).
#[inline]
fn unopt(v: u64) -> u8 {
    (v as u8).wrapping_sub(1)
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
        s.forget_history();
        s
    }

    /// `*self = self.position()` in place, without a copy of the state: the turn logs and the
    /// known cards (R36) cleared.
    pub fn forget_history(&mut self) {
        self.known = [[0; MAX_KINDS]; 2];
        self.this_turn = Log::EMPTY;
        self.last_turn = Log::EMPTY;
    }

    /// Whether two states have the same position (every field but the turn logs and the known
    /// cards, R36): `a.position() == b.position()` without the copies. The grids are compared
    /// over the rule set's cells (the cells past them are empty in every state: nothing writes
    /// them, `State::empty` and `unpack_into` clear them), the card counts over the groups of
    /// eight holding the rule set's cards (the counts past them are 0 in every state).
    pub fn same_position(&self, other: &State) -> bool {
        debug_assert!([self, other]
            .iter()
            .all(|s| s.boards.iter().all(|b| b[s.t.ncells..].iter().all(|st| *st == Stack::default()))));
        self.t == other.t
            && self.phase == other.phase
            && self.current == other.current
            && self.pending == other.pending
            && self.end_reason == other.end_reason
            && self.hand_len == other.hand_len
            && self.deck_len == other.deck_len
            && self.discard_len == other.discard_len
            && same_groups(&self.hands[0], &other.hands[0], self.t.kinds)
            && same_groups(&self.hands[1], &other.hands[1], self.t.kinds)
            && same_groups(&self.deck, &other.deck, self.t.kinds)
            && same_groups(&self.discards, &other.discards, self.t.kinds)
            && same_stacks(self.board(0), other.board(0))
            && same_stacks(self.board(1), other.board(1))
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

    /// Player p's hand as counts of every card index up to [`MAX_KINDS`] (those past the rule
    /// set's cards are 0 in every state): [`State::hand_counts`] as a fixed-size array, which
    /// compares without a call.
    #[inline]
    pub fn hand_array(&self, p: usize) -> &[u8; MAX_KINDS] {
        &self.hands[p]
    }

    /// Player p's known cards (R36) as a fixed-size array, like [`State::hand_array`].
    #[inline]
    pub fn known_array(&self, p: usize) -> &[u8; MAX_KINDS] {
        &self.known[p]
    }

    /// The deck as a fixed-size array, like [`State::hand_array`].
    #[inline]
    pub fn deck_array(&self) -> &[u8; MAX_KINDS] {
        &self.deck
    }

    /// The discards as a fixed-size array, like [`State::hand_array`].
    #[inline]
    pub fn discard_array(&self) -> &[u8; MAX_KINDS] {
        &self.discards
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

    /// The layout written one field at a time (the packer before fields were combined): the
    /// reference `pack` must match bit for bit, so that checkpoints and fingerprints stay valid.
    fn pack_fields(p: &Packer, s: &State, out: &mut [u64]) {
        let t = p.t;
        let mut w = Writer { out, idx: 0, acc: 0, used: 0 };
        w.put(s.phase as u64, 3);
        w.put(s.current as u64, 1);
        w.put(s.pending as u64, 2);
        w.put(s.end_reason as u64, 2);
        for n in [s.hand_len[0], s.hand_len[1], s.deck_len, s.discard_len] {
            w.put(n as u64, p.len_bits);
        }
        for zone in [&s.hands[0], &s.hands[1], &s.deck, &s.discards] {
            for &n in &zone[..t.kinds] {
                w.put(n as u64, p.count_bits);
            }
        }
        for board in &s.boards {
            for st in &board[..t.ncells] {
                w.put(st.flags as u64, 4);
                w.put(st.len as u64, bits(p.stack_cap as u64));
                for &c in st.cards() {
                    w.put(c as u64, p.card_bits);
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
        w.put(s.stall as u64, p.stall_bits);
        w.put(0, 1);
        if p.full {
            for known in &s.known {
                for &n in &known[..t.kinds] {
                    w.put(n as u64, p.count_bits);
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

    #[test]
    fn combined_writes_keep_the_field_by_field_layout() {
        // Rule sets whose fields combine differently: one copy (1-bit counts), 2 to 200 copies
        // (counts of 2 to 8 bits), long stacks that do not fit a word, no stall limit (32-bit
        // counter); random games, full states and positions (R36).
        let mut big = Rules::STANDARD;
        big.copies = 200;
        big.max_value = 11;
        let one = Rules { energies: 2, max_value: 2, copies: 1, hand_size: 2, city_demand: 2, ..Rules::STANDARD };
        let mut rule_sets = vec![Rules::STANDARD, Rules::PRINTED, big, one];
        // The rule sets with widths of their own (`Fixed`: the checker's medium and choice, huge,
        // large).
        rule_sets.extend(checker_rule_sets());
        // Counts of 3 to 7 bits.
        rule_sets.extend([5, 9, 17, 40, 100].map(|copies| Rules { copies, ..Rules::STANDARD }));
        let mut g = SplitMix64::new(11);
        let mut moves = Vec::new();
        for rules in rule_sets {
            for full in [true, false] {
                let packer = Packer::new(&rules, full).unwrap();
                let (mut a, mut b) = (vec![0u64; packer.words()], vec![0u64; packer.words()]);
                let mut into = new_game(&Rules::STANDARD, None).unwrap();
                for _ in 0..10 {
                    let mut s = new_game(&rules, None).unwrap();
                    for _ in 0..300 {
                        packer.pack(&s, &mut a);
                        pack_fields(&packer, &s, &mut b);
                        assert_eq!(a, b);
                        // unpack_into overwrites a state of other rules and other histories.
                        packer.unpack_into(&a, &mut into);
                        assert_eq!(into, if full { s } else { s.position() });
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

    /// The checker's `choice` (whose widths `medium` shares), `huge` and `large`, with all four
    /// tech cards (hatsuden-check's `CONFIGS`).
    fn checker_rule_sets() -> [Rules; 3] {
        let choice = Rules {
            energies: 2,
            max_value: 2,
            copies: 1,
            hand_size: 2,
            city_demand: 2,
            allow_retake_discard: false,
            stall_limit: Some(2),
            ..Rules::STANDARD
        };
        [choice, Rules { copies: 2, ..choice }, Rules { stall_limit: Some(4), ..choice }]
    }

    /// The checker's rule sets get the code of their widths (`Fixed`), in the order of the
    /// dispatch in `pack` and `unpack_into`; rule sets of other widths, close to them, the code
    /// of any widths (a rule set of the same widths shares the code: three copies of each card
    /// take the bits of two, for instance).
    #[test]
    fn the_checkers_rule_sets_have_code_of_their_own() {
        for (i, rules) in checker_rule_sets().iter().enumerate() {
            for full in [true, false] {
                assert_eq!(Packer::new(rules, full).unwrap().shape, Some(i as u8), "{rules:?}");
            }
        }
        let [choice, ..] = checker_rule_sets();
        let others = [
            Rules::STANDARD,
            Rules { stall_limit: Some(20), ..choice },
            Rules { copies: 4, ..choice },
            Rules { energies: 3, ..choice },
            Rules { energies: 1, max_value: 4, city_demand: 3, ..choice },
            Rules { max_value: 3, city_demand: 3, ..choice },
        ];
        for rules in others {
            assert_eq!(Packer::new(&rules, false).unwrap().shape, None, "{rules:?}");
        }
    }

    /// Stacks of every length up to `2 * max_value` (R11-R13), up to 16 cards in one write:
    /// the one-write packing of a stack keeps the field-by-field layout and round-trips.
    #[test]
    fn long_stacks_keep_the_layout() {
        let mut g = SplitMix64::new(3);
        for max_value in [4, 6, 8] {
            let rules = Rules { energies: 1, max_value, city_demand: max_value - 1, hand_size: 2, ..Rules::STANDARD };
            let packer = Packer::new(&rules, false).unwrap();
            assert!(packer.stack_word);
            let (mut a, mut b) = (vec![0u64; packer.words()], vec![0u64; packer.words()]);
            let mut s = new_game(&rules, None).unwrap().position();
            for len in 0..=packer.stack_cap as usize {
                for cell in 0..s.t.ncells {
                    let mut st = Stack { flags: (g.next() % 16) as u8, ..Stack::default() };
                    for _ in 0..len {
                        st.push((g.next() % s.t.kinds as u64) as u8);
                    }
                    s.boards[cell % 2][cell] = st;
                }
                packer.pack(&s, &mut a);
                pack_fields(&packer, &s, &mut b);
                assert_eq!(a, b, "stacks of {len} cards");
                assert_eq!(packer.unpack(&a), s, "stacks of {len} cards");
            }
        }
    }

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
