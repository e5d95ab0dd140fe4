//! The compact game state (RULES.md "Game state"): fixed-size arrays, `Copy`, no heap.

use crate::moves::Move;
use crate::rules::{Rules, Tables, MAX_CARD_VALUE, MAX_CELLS, MAX_KINDS};

/// Stack flag: face down, a pylon (R4, R14).
pub const FACE_DOWN: u8 = 1;
/// Stack flag: face down because an overflow flipped it (R21).
pub const FLIPPED: u8 = 2;
/// Stack flag: the bottom card was built secret (R11).
pub const SECRET: u8 = 4;
/// Stack flag: DOWN was spent on it (R13).
pub const DOWNSIZED: u8 = 8;
/// Most cards in a stack: `2 × max_value` ≤ 22. A stack is built by one card and improved by
/// strictly higher ones (R10, R12), downsized at most once, since there is one DOWN card, which
/// stays on the stack (R3, R13), and improved again; a pylon is one card (R14).
pub const STACK_CAP: usize = 2 * MAX_CARD_VALUE as usize;
/// Most moves in a turn log (R36).
pub const LOG_CAP: usize = 16;
/// "None" of the one-byte optional fields.
pub const NONE: u8 = u8::MAX;

/// The phase (RULES.md "Phases and transitions").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Phase {
    /// A chance event is pending (R6).
    Chance,
    /// The action (R10-R16).
    Action,
    /// The tech draw (R17).
    Tech,
    /// An overflow (R21).
    Overflow,
    /// The draw (R22).
    Draw,
    /// Over (R26).
    GameOver,
}

impl Phase {
    /// All phases in order.
    pub const ALL: [Phase; 6] =
        [Phase::Chance, Phase::Action, Phase::Tech, Phase::Overflow, Phase::Draw, Phase::GameOver];
    /// Lower-case name (notation).
    pub fn name(self) -> &'static str {
        ["chance", "action", "tech", "overflow", "draw", "game_over"][self as usize]
    }
}

/// The pending chance event (R6, R7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Pending {
    /// None.
    None,
    /// A setup deal (R7).
    Setup,
    /// The card drawn by DrawFromDeck (R22).
    Draw,
    /// The tech card drawn by DrawTech (R17).
    Tech,
}

impl Pending {
    /// Notation word.
    pub fn name(self) -> &'static str {
        ["-", "setup", "draw", "tech"][self as usize]
    }
}

/// Why the game ended (R24, R25).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum EndReason {
    /// Not over.
    None,
    /// After the final turn (R24).
    FinalTurn,
    /// Stall rule (R25).
    Stall,
}

impl EndReason {
    /// Notation word.
    pub fn name(self) -> &'static str {
        ["-", "final_turn", "stall"][self as usize]
    }
}

/// A stack in a cell (R4): card indices bottom to top and flags. `len == 0` is an empty cell.
/// Laid out as three words (the cards, then the flags and length, [`Stack::words`]), so that a
/// checker compares stacks a word at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(C, align(8))]
pub struct Stack {
    /// Card indices, bottom to top; unused slots are 0.
    pub cards: [u8; STACK_CAP],
    /// FACE_DOWN | FLIPPED | SECRET | DOWNSIZED.
    pub flags: u8,
    /// Number of cards.
    pub len: u8,
}

impl Stack {
    /// Whether the cell is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// A plant: occupied and face up (R4).
    #[inline]
    pub fn is_plant(&self) -> bool {
        self.len > 0 && self.flags & FACE_DOWN == 0
    }
    /// The top card index.
    #[inline]
    pub fn top(&self) -> u8 {
        self.cards[self.len as usize - 1]
    }
    /// Cards bottom to top.
    pub fn cards(&self) -> &[u8] {
        &self.cards[..self.len as usize]
    }
    pub(crate) fn push(&mut self, card: u8) {
        self.cards[self.len as usize] = card;
        self.len += 1;
    }
    /// The whole stack (flags, length, every card slot) as three words: two stacks are equal iff
    /// their words are (a comparison without a call, for checkers).
    #[inline(always)]
    pub fn words(&self) -> [u64; 3] {
        let c = &self.cards;
        let lo = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        let mid = u64::from_le_bytes([c[8], c[9], c[10], c[11], c[12], c[13], c[14], c[15]]);
        let hi = u64::from_le_bytes([c[16], c[17], c[18], c[19], c[20], c[21], self.flags, self.len]);
        [lo, mid, hi]
    }
}

const _: () = assert!(STACK_CAP == 22, "Stack::words reads 22 card slots");

/// Whether two grids (or any runs of stacks) are equal, compared a word at a time.
#[inline]
pub fn same_stacks(a: &[Stack], b: &[Stack]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).fold(0u64, |d, (x, y)| {
            let (x, y) = (x.words(), y.words());
            d | (x[0] ^ y[0]) | (x[1] ^ y[1]) | (x[2] ^ y[2])
        }) == 0
}

/// Whether two card-count arrays are equal, compared eight counts at a time (no call).
#[inline(always)]
pub fn same_counts(a: &[u8; MAX_KINDS], b: &[u8; MAX_KINDS]) -> bool {
    #[inline(always)]
    fn word(x: &[u8; MAX_KINDS], i: usize) -> u64 {
        u64::from_le_bytes([x[i], x[i + 1], x[i + 2], x[i + 3], x[i + 4], x[i + 5], x[i + 6], x[i + 7]])
    }
    let mut d = 0u64;
    let mut i = 0;
    while i < MAX_KINDS {
        d |= word(a, i) ^ word(b, i);
        i += 8;
    }
    d == 0
}

/// A turn log (R36): at most [`LOG_CAP`] moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Log {
    pub(crate) len: u8,
    pub(crate) moves: [Move; LOG_CAP],
}

impl Log {
    /// The empty log (`Log::default()` as a constant: assigned as one copy of its bytes).
    pub const EMPTY: Log = Log { len: 0, moves: [Move::Pass; LOG_CAP] };
    /// The moves in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }
    #[inline]
    pub(crate) fn push(&mut self, m: Move) {
        // A turn has at most 11 moves (2 placements, the action, DrawTech and its DealTech,
        // 4 flips, the draw and its Deal); a longer log only comes from a parser, which checks.
        if (self.len as usize) < LOG_CAP {
            self.moves[self.len as usize] = m;
            self.len += 1;
        }
    }
    pub(crate) fn clear(&mut self) {
        *self = Log::EMPTY;
    }
}

/// A complete game state (god view). `Copy`, fixed size, no heap; the rule set is shared by
/// reference to its interned [`Tables`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct State {
    pub(crate) t: &'static Tables,
    pub(crate) phase: Phase,
    pub(crate) current: u8,
    pub(crate) pending: Pending,
    pub(crate) end_reason: EndReason,
    pub(crate) hand_len: [u16; 2],
    pub(crate) deck_len: u16,
    pub(crate) discard_len: u16,
    pub(crate) hands: [[u8; MAX_KINDS]; 2],
    pub(crate) deck: [u8; MAX_KINDS],
    pub(crate) discards: [u8; MAX_KINDS],
    pub(crate) known: [[u8; MAX_KINDS]; 2],
    pub(crate) boards: [[Stack; MAX_CELLS]; 2],
    pub(crate) tech_deck: u8,
    pub(crate) tech_hands: [u8; 2],
    /// NONE, or player * 2 + row.
    pub(crate) accumulator: u8,
    /// NONE, or an energy column.
    pub(crate) smart: u8,
    /// NONE, or a cell index of the mover's grid.
    pub(crate) played: u8,
    /// NONE, or a card index.
    pub(crate) turn_discard: u8,
    /// NONE, or a player.
    pub(crate) end_trigger: u8,
    pub(crate) stall: u32,
    pub(crate) rng: Option<u64>,
    pub(crate) this_turn: Log,
    pub(crate) last_turn: Log,
}

impl std::hash::Hash for Tables {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.rules.hash(h)
    }
}

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::notation::format_state(self))
    }
}

impl State {
    /// An empty state of the rule set (before the deal, full deck).
    pub(crate) fn empty(t: &'static Tables) -> State {
        let mut deck = [0u8; MAX_KINDS];
        for d in deck.iter_mut().take(t.kinds) {
            *d = t.copies;
        }
        State {
            t,
            phase: Phase::Chance,
            current: 0,
            pending: Pending::Setup,
            end_reason: EndReason::None,
            hand_len: [0, 0],
            deck_len: t.total_cards,
            discard_len: 0,
            hands: [[0; MAX_KINDS]; 2],
            deck,
            discards: [0; MAX_KINDS],
            known: [[0; MAX_KINDS]; 2],
            boards: [[Stack::default(); MAX_CELLS]; 2],
            tech_deck: t.rules.techs,
            tech_hands: [0, 0],
            accumulator: NONE,
            smart: NONE,
            played: NONE,
            turn_discard: NONE,
            end_trigger: NONE,
            stall: 0,
            rng: None,
            this_turn: Log::default(),
            last_turn: Log::default(),
        }
    }

    /// The rule set.
    pub fn rules(&self) -> &'static Rules {
        &self.t.rules
    }
    /// The tables of the rule set.
    pub fn tables(&self) -> &'static Tables {
        self.t
    }
    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The player to move (in CHANCE: the receiver, R6).
    pub fn current_player(&self) -> usize {
        self.current as usize
    }
    /// The pending chance event.
    pub fn pending(&self) -> Pending {
        self.pending
    }
    /// Whether the game is over (R26).
    pub fn is_over(&self) -> bool {
        self.phase == Phase::GameOver
    }
    /// The end reason.
    pub fn end_reason(&self) -> EndReason {
        self.end_reason
    }
    /// Copies per card index in player p's hand.
    pub fn hand_counts(&self, p: usize) -> &[u8] {
        &self.hands[p][..self.t.kinds]
    }
    /// Size of player p's hand.
    pub fn hand_size(&self, p: usize) -> usize {
        self.hand_len[p] as usize
    }
    /// Copies per card index in the deck.
    pub fn deck_counts(&self) -> &[u8] {
        &self.deck[..self.t.kinds]
    }
    /// Cards left in the deck.
    pub fn deck_size(&self) -> usize {
        self.deck_len as usize
    }
    /// Copies per card index in the discards.
    pub fn discard_counts(&self) -> &[u8] {
        &self.discards[..self.t.kinds]
    }
    /// Known cards of player p (R36).
    pub fn known_counts(&self, p: usize) -> &[u8] {
        &self.known[p][..self.t.kinds]
    }
    /// Player p's grid, cells in cell order (row 0 then row 1).
    pub fn board(&self, p: usize) -> &[Stack] {
        &self.boards[p][..self.t.ncells]
    }
    /// Tech deck as a bit set.
    pub fn tech_deck(&self) -> u8 {
        self.tech_deck
    }
    /// Tech hand of p as a bit set.
    pub fn tech_hand(&self, p: usize) -> u8 {
        self.tech_hands[p]
    }
    /// The placed Accumulator: (player, row).
    pub fn accumulator(&self) -> Option<(usize, usize)> {
        (self.accumulator != NONE).then_some(((self.accumulator >> 1) as usize, (self.accumulator & 1) as usize))
    }
    /// The energy the Smart lies on.
    pub fn smart(&self) -> Option<usize> {
        (self.smart != NONE).then_some(self.smart as usize)
    }
    /// The stall counter (R23).
    pub fn stall_count(&self) -> u32 {
        self.stall
    }
    /// Who triggered the end (R24).
    pub fn end_triggered_by(&self) -> Option<usize> {
        (self.end_trigger != NONE).then_some(self.end_trigger as usize)
    }
    /// The generator state in seeded mode (R8).
    pub fn rng_state(&self) -> Option<u64> {
        self.rng
    }
    /// Moves of the turn in progress (R36).
    pub fn this_turn(&self) -> &[Move] {
        self.this_turn.moves()
    }
    /// Moves of the last completed turn (R36).
    pub fn last_turn(&self) -> &[Move] {
        self.last_turn.moves()
    }

    fn expand(&self, counts: &[u8; MAX_KINDS]) -> Vec<crate::rules::Card> {
        let mut v = Vec::new();
        for i in 0..self.t.kinds {
            for _ in 0..counts[i] {
                v.push(self.t.card(i as u8));
            }
        }
        v
    }
    /// Player p's hand, in canonical order (R2).
    pub fn hand(&self, p: usize) -> Vec<crate::rules::Card> {
        self.expand(&self.hands[p & 1])
    }
    /// The deck, in canonical order.
    pub fn deck(&self) -> Vec<crate::rules::Card> {
        self.expand(&self.deck)
    }
    /// The discards, in canonical order.
    pub fn discards(&self) -> Vec<crate::rules::Card> {
        self.expand(&self.discards)
    }
    /// `known[p]` (R36), in canonical order.
    pub fn known_cards(&self, p: usize) -> Vec<crate::rules::Card> {
        self.expand(&self.known[p & 1])
    }
    /// The played cell of this turn, if any.
    pub fn played_cell(&self) -> Option<crate::rules::Cell> {
        (self.played != NONE).then(|| self.t.cell(self.played))
    }
    /// The card discarded this turn, if any.
    pub fn turn_discard(&self) -> Option<crate::rules::Card> {
        (self.turn_discard != NONE).then(|| self.t.card(self.turn_discard))
    }

    /// Supply of row `row` of player p (R21): the top values of its plants.
    #[inline]
    pub fn row_supply(&self, p: usize, row: usize) -> u64 {
        let e = self.t.e;
        let mut s = 0u64;
        for st in &self.boards[p][row * e..row * e + e] {
            if st.is_plant() {
                s += self.t.value[st.top() as usize] as u64;
            }
        }
        s
    }

    /// Tolerance of row `row` of player p (R19, R21).
    #[inline]
    pub fn tolerance(&self, p: usize, row: usize) -> u64 {
        if self.accumulator == (p as u8) * 2 + row as u8 {
            self.t.acc_tolerance
        } else {
            self.t.tolerance
        }
    }

    /// The takeable discards (R22): counts per card index.
    pub(crate) fn takeable(&self, i: usize) -> u8 {
        let n = self.discards[i];
        if !self.t.rules.allow_retake_discard && self.turn_discard as usize == i && n > 0 {
            n - 1
        } else {
            n
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A log holds at most `LOG_CAP` moves (R36): a push past it is dropped, never written out
    /// of bounds (a turn has at most 11 moves; a longer log only comes from a parser, which
    /// refuses it first).
    #[test]
    fn r36_a_full_log_drops_a_further_move() {
        let mut log = Log::EMPTY;
        for _ in 0..=LOG_CAP {
            log.push(Move::Pass);
        }
        assert_eq!(log.moves().len(), LOG_CAP);
    }
}
