//! The properties checked on every reachable state and every transition: the invariants of
//! RULES.md, as the Python checker (`modelcheck/_properties.py` with the variants' checks,
//! `_positions.py`) states them, written against the public API of the rules crate and derived
//! independently of its logic (a card count from the zones, a score from the stacks, ...).
//!
//! Every failure names its rule. [`PROPERTIES`] lists them all by rule and name.

pub use crate::memo::ScoreMemo;
use hatsuden::{same_stacks, Pending, DOWNSIZED, SECRET};
use hatsuden::{
    score, Decision, Move, Overflow, Phase, Rules, State, Tables, TechTiming, Tiebreak, ACCUMULATOR, DOWN, MAX_KINDS,
    SECRET_BUILD, SMART,
};

/// A broken property: its rule and a message.
pub type Problem = (&'static str, String);

/// Every property the checker proves: (rule, name). The rules are those the Python checker
/// names in its problems; `tests/properties.rs` compares the two lists.
pub const PROPERTIES: &[(&str, &str)] = &[
    ("R3", "tech cards are conserved"),
    ("R4", "plant cards are conserved"),
    ("R6", "chance outcomes sum to 1 and are the legal moves"),
    ("R9", "a move changes only the zones it names"),
    ("R9", "the player does not change in the middle of a turn"),
    ("R21", "in ACTION and DRAW every row is within its tolerance"),
    ("R22", "a hand holds at most hand_size cards, and its size is its length"),
    ("R23", "the end of a turn passes it to the other player"),
    ("R23", "the stall counter counts the turns without a card played"),
    ("R24", "the end is triggered by the mover, with a full grid, once"),
    ("R25", "the stall limit ends the game"),
    ("R25", "the state graph has no cycle: every game ends"),
    ("R26", "legal moves exist iff the game is not over"),
    ("R29", "score() is the oracle's score"),
    ("R34", "legal moves are sorted and duplicate-free"),
    ("R35", "apply is deterministic"),
    ("R35", "every legal move is accepted"),
    ("R36", "known cards are in the hand"),
    ("R36", "the turn logs record the turn's moves"),
    ("R36", "only a card taken from the discards becomes known"),
    ("R36", "by position: the same step with any known cards leads to the same position"),
    ("R36", "by position: the position alone gives the legal moves and the successors (sampled)"),
    ("R40", "a drawn Accumulator or Smart is placed at once"),
    ("R40", "by position: a step into a state where such a card is held is its DealTech"),
    ("R41", "the overflow moves are exactly the sufficient FlipSets"),
];

/// The rule set's derived constants the checks use.
#[derive(Clone, Debug)]
pub struct Props {
    /// The rule set.
    pub rules: Rules,
    /// Its tables, interned: one per rule set for the whole process, so that two rule sets are
    /// equal iff their tables are the same (the key of the R29 memo, compared as an address).
    tables: &'static Tables,
    /// Identify states by position.
    pub positions: bool,
    kinds: usize,
    e: usize,
    variants: bool,
    /// R40 by position (R36): whether a held card was just drawn is checked on the steps.
    fresh_by_step: bool,
    /// The sub-multisets of every possible hand, by hand code (when there are few hands).
    subsets: Vec<Vec<[u8; MAX_KINDS]>>,
    /// The value of every card index (R2: `index % max_value + 1`), looked up (no division).
    values: [u8; 256],
    /// The tech cards the rule set holds, one byte a tech card ([`tech_bytes`]): R3's count.
    techs_held: u64,
}

fn value_of(p: &Props, card: u8) -> u64 {
    p.values[card as usize] as u64
}

/// The bits 0..3 of a tech card set as the bytes 0..3 of a word (byte k = 1 iff tech k is in the
/// set): the four shifted copies of the four bits land at bits 0..3, 7..10, 14..17, 21..24 (no
/// overlap, so no carry), and bit k of copy k is bit 8k. Sets so spread add up to a count of
/// each tech card a byte (R3 counts at most 24 of one: no byte overflows).
#[inline]
fn tech_bytes(bits: u8) -> u64 {
    ((bits as u64 & 0xF) * 0x0020_4081) & 0x0101_0101
}

/// The canonical sort key of a move (R34): kind, card, cell, secret; a FlipSet by its cells.
pub fn sort_key(m: &Move) -> ([u8; 24], usize) {
    let mut k = [0u8; 24];
    let mut n = 1;
    k[0] = m.kind_rank();
    let mut push = |v: u8| {
        k[n] = v;
        n += 1;
    };
    match *m {
        Move::Construct { card, cell, secret } => {
            push(card.energy);
            push(card.value);
            push(cell.row);
            push(cell.energy);
            push(secret as u8);
        }
        Move::Improve { card, cell } | Move::Downsize { card, cell } | Move::BuildPylon { card, cell } => {
            push(card.energy);
            push(card.value);
            push(cell.row);
            push(cell.energy);
        }
        Move::Discard { card } | Move::DrawFromDiscard { card } | Move::Deal { card } => {
            push(card.energy);
            push(card.value);
        }
        Move::Flip { cell } => {
            push(cell.row);
            push(cell.energy);
        }
        Move::FlipSet { cells } => {
            for c in hatsuden::cells_of(cells) {
                push(c.row);
                push(c.energy);
            }
        }
        Move::PlaceAccumulator { row } => push(row),
        Move::PlaceSmart { energy } => push(energy),
        Move::DealTech { tech } => push(tech),
        _ => {}
    }
    (k, n)
}

/// [`sort_key`] as one word that orders moves the same way, for every move but a FlipSet (whose
/// key can be longer than a word): the key's bytes plus one, big-endian, zero-padded. Every byte
/// of these keys is below 255, and a shorter key is a prefix padded with zeros, so comparing the
/// words compares the keys lexicographically, as `sort_key`'s slices compare.
#[inline]
pub fn key_word(m: &Move) -> Option<u64> {
    let b = |v: u8| v as u64 + 1;
    let fields = match *m {
        Move::Construct { card, cell, secret } => {
            b(card.energy) << 40 | b(card.value) << 32 | b(cell.row) << 24 | b(cell.energy) << 16 | b(secret as u8) << 8
        }
        Move::Improve { card, cell } | Move::Downsize { card, cell } | Move::BuildPylon { card, cell } => {
            b(card.energy) << 40 | b(card.value) << 32 | b(cell.row) << 24 | b(cell.energy) << 16
        }
        Move::Discard { card } | Move::DrawFromDiscard { card } | Move::Deal { card } => {
            b(card.energy) << 40 | b(card.value) << 32
        }
        Move::Flip { cell } => b(cell.row) << 40 | b(cell.energy) << 32,
        Move::FlipSet { .. } => return None,
        Move::PlaceAccumulator { row } => b(row) << 40,
        Move::PlaceSmart { energy } => b(energy) << 40,
        Move::DealTech { tech } => b(tech) << 40,
        _ => 0,
    };
    Some(b(m.kind_rank()) << 48 | fields)
}

/// The kind of a move as the Python class name (the event names).
pub fn kind_name(m: &Move) -> &'static str {
    KIND_NAMES[m.kind_rank() as usize]
}

/// The zones R9 watches on a step, as its messages name them, by the player who is not moving;
/// the move's own zone is one of `DECK`, `DISCARDS`, `TECH_DECK`, `PLACED_ACCUMULATOR` and
/// `PLACED_SMART`.
const ZONES: [[&str; 9]; 2] = [
    ["hand0", "known0", "deck", "discards", "board0", "tech_hand0", "tech_deck", "accumulator", "smart"],
    ["hand1", "known1", "deck", "discards", "board1", "tech_hand1", "tech_deck", "accumulator", "smart"],
];
const DECK: usize = 2;
const DISCARDS: usize = 3;
const TECH_DECK: usize = 6;
const PLACED_ACCUMULATOR: usize = 7;
const PLACED_SMART: usize = 8;

/// Move kinds by `kind_rank`.
pub const KIND_NAMES: [&str; 17] = [
    "Construct",
    "Improve",
    "Downsize",
    "BuildPylon",
    "Discard",
    "Pass",
    "DrawTech",
    "DeclineTech",
    "Flip",
    "FlipSet",
    "DrawFromDeck",
    "DrawFromDiscard",
    "EndTurn",
    "PlaceAccumulator",
    "PlaceSmart",
    "Deal",
    "DealTech",
];

/// Phase names as in Python (upper case).
pub fn phase_name(p: Phase) -> &'static str {
    ["CHANCE", "ACTION", "TECH", "OVERFLOW", "DRAW", "GAME_OVER"][p as usize]
}

/// Decision names as in Python.
pub fn decision_name(d: Decision) -> &'static str {
    match d {
        Decision::Total => "TOTAL",
        Decision::CityPoints => "CITY_POINTS",
        Decision::Supply => "SUPPLY",
        Decision::SecondPlayer => "SECOND_PLAYER",
    }
}

/// The oracle's score (R27-R29) from the public stacks: totals, winner, decision.
pub fn oracle(p: &Props, s: &State) -> ([i64; 2], usize, Decision) {
    let e = p.e;
    let mut gen = [[0u64; 5]; 2];
    let mut supply = [[0u64; 2]; 2];
    for (pl, (g, sup)) in gen.iter_mut().zip(supply.iter_mut()).enumerate() {
        // Row by row: a cell's energy and row without a division.
        for (row, cells) in s.board(pl).chunks(e).enumerate() {
            for (col, st) in cells.iter().enumerate() {
                if st.is_plant() {
                    let v = value_of(p, st.top());
                    g[col] += v;
                    sup[row] += v;
                }
            }
        }
    }
    let smart = s.smart();
    let mut energy = [0i64; 2];
    for c in 0..e {
        let (a, b) = (gen[0][c], gen[1][c]);
        if a != b {
            energy[if a > b { 0 } else { 1 }] += if smart == Some(c) { 2 } else { 1 };
        }
    }
    let demand = p.rules.city_demand as u64;
    let mut city = [0i64; 2];
    for pl in 0..2 {
        for &total in &supply[pl] {
            if total == demand {
                city[pl] += 1;
            } else if total + 2 <= demand {
                city[pl] -= 1;
            }
        }
    }
    let totals = [energy[0] + city[0], energy[1] + city[1]];
    if totals[0] != totals[1] {
        return (totals, if totals[0] > totals[1] { 0 } else { 1 }, Decision::Total);
    }
    let (a, b, d) = match p.rules.tiebreak {
        Tiebreak::Supply => {
            ((supply[0][0] + supply[0][1]) as i64, (supply[1][0] + supply[1][1]) as i64, Decision::Supply)
        }
        Tiebreak::CityPoints => (city[0], city[1], Decision::CityPoints),
    };
    if a != b {
        (totals, if a > b { 0 } else { 1 }, d)
    } else {
        (totals, 1, Decision::SecondPlayer)
    }
}

fn counts(v: &[u8]) -> [u8; MAX_KINDS] {
    let mut out = [0u8; MAX_KINDS];
    out[..v.len()].copy_from_slice(v);
    out
}

/// Whether a count array (every count, up to [`MAX_KINDS`]) is all zeros, a word at a time.
#[inline]
fn no_cards(counts: &[u8; MAX_KINDS]) -> bool {
    counts.chunks_exact(8).fold(0u64, |any, w| any | u64::from_le_bytes(w.try_into().expect("8 counts"))) == 0
}

/// Whether two count arrays are equal in their first `groups` groups of eight counts, a group
/// at a time: the whole arrays when `groups` is the rule set's (`kinds.div_ceil(8)`; the
/// counts past the rule set's cards are 0 in every state).
#[inline(always)]
fn same_groups(a: &[u8; MAX_KINDS], b: &[u8; MAX_KINDS], groups: usize) -> bool {
    let word = |x: &[u8]| u64::from_le_bytes(x.try_into().expect("8 counts"));
    a.chunks_exact(8).zip(b.chunks_exact(8)).take(groups).fold(0u64, |d, (x, y)| d | (word(x) ^ word(y))) == 0
}

/// Whether two states are the same: the same position (R36), the same known cards and the same
/// turn logs. `==` without its calls (the derived comparison compares the logs' moves one call
/// at a time, and also their unused slots and the cells and counts past the rule set's, which
/// no rule writes).
#[inline]
fn same_state(a: &State, b: &State, groups: usize) -> bool {
    a.same_position(b)
        && same_groups(a.known_array(0), b.known_array(0), groups)
        && same_groups(a.known_array(1), b.known_array(1), groups)
        && a.this_turn() == b.this_turn()
        && a.last_turn() == b.last_turn()
}

fn within(part: &[u8], whole: &[u8]) -> bool {
    part.iter().zip(whole).all(|(a, b)| a <= b)
}

impl Props {
    /// The checks for `rules`; `positions`: states are positions (R36 by `knowledge_problems`).
    pub fn new(rules: &Rules, positions: bool) -> Props {
        let t = rules.tables().expect("a valid rule set");
        let mut values = [0u8; 256];
        for (card, v) in values.iter_mut().enumerate() {
            *v = (card as u8 % t.mv) + 1;
        }
        Props {
            rules: *rules,
            tables: t,
            positions,
            kinds: t.kinds,
            e: t.e,
            variants: rules.tech_timing != TechTiming::Keep || rules.overflow != Overflow::OneAtATime,
            fresh_by_step: positions && rules.tech_timing == TechTiming::PlaceAtOnce,
            subsets: Self::subset_table(t.kinds, t.copies),
            values,
            techs_held: tech_bytes(rules.techs),
        }
    }

    /// `sub_multisets` of every hand of at most `copies` of each of `kinds` cards, indexed by
    /// [`Props::hand_code`], when there are at most 4,096 such hands (else empty).
    fn subset_table(kinds: usize, copies: u8) -> Vec<Vec<[u8; MAX_KINDS]>> {
        let base = copies as usize + 1;
        let Some(total) = (0..kinds).try_fold(1usize, |acc, _| acc.checked_mul(base).filter(|&x| x <= 4096)) else {
            return Vec::new();
        };
        (0..total)
            .map(|mut code| {
                let mut hand = [0u8; MAX_KINDS];
                for h in hand.iter_mut().take(kinds) {
                    *h = (code % base) as u8;
                    code /= base;
                }
                sub_multisets(&hand, kinds)
            })
            .collect()
    }

    #[inline]
    fn hand_code(&self, hand: &[u8]) -> usize {
        let base = self.rules.copies as usize + 1;
        hand.iter().rev().fold(0usize, |acc, &n| acc * base + n as usize)
    }

    /// Every invariant `s` (with its legal `moves`) breaks.
    #[inline(never)]
    pub fn state_violations(&self, s: &State, moves: &[Move], out: &mut Vec<Problem>) {
        self.state_violations_memo(s, moves, &mut ScoreMemo::none(), out);
    }

    /// [`Props::state_violations`], with R29 checked once per pair of grids and Smart column (the
    /// only inputs of the score, as the Python checker does): `memo` holds those already checked.
    pub fn state_violations_memo(&self, s: &State, moves: &[Move], memo: &mut ScoreMemo, out: &mut Vec<Problem>) {
        // The memo is probed first (its answer is used last): a probe usually misses the cache
        // (13 MB of entries read at random), and the checks below run while it loads.
        let probe = memo.probe(self.tables, s);
        let r = &self.rules;
        let e = self.e;
        // R2-R4: every plant card is in exactly one place; a flipped stack keeps its cards. The
        // four zones in one pass over the cards, with the hands' sizes (R22). A count is at most
        // 4 × 255 in the zones and 2 × 10 × 22 on the grids: a u16 holds it.
        let hands = [s.hand_counts(0), s.hand_counts(1)];
        let n = hands[0].len();
        let (h0, h1, deck, discards) = (hands[0], &hands[1][..n], &s.deck_counts()[..n], &s.discard_counts()[..n]);
        let mut cards = [0u16; MAX_KINDS];
        let mut held = [0usize; 2];
        for (i, count) in cards[..n].iter_mut().enumerate() {
            *count = h0[i] as u16 + h1[i] as u16 + deck[i] as u16 + discards[i] as u16;
            held[0] += h0[i] as usize;
            held[1] += h1[i] as usize;
        }
        // R3: every tech card once: tech deck, tech hands, placed, or spent on a stack (a count
        // a byte, `tech_bytes`).
        let mut techs = tech_bytes(s.tech_deck())
            + tech_bytes(s.tech_hand(0))
            + tech_bytes(s.tech_hand(1))
            + ((s.accumulator().is_some() as u64) << (8 * ACCUMULATOR))
            + ((s.smart().is_some() as u64) << (8 * SMART));
        // One pass over the grids: the cards (R4), the spent tech cards (R3), whether each grid
        // is full (R24) and the supply of each row (R21).
        let mut full = [true, true];
        let mut supply = [[0u64; 2]; 2];
        let (mut secret, mut down) = (0u64, 0u64);
        for pl in 0..2 {
            for (row, cells) in s.board(pl).chunks(e).enumerate() {
                for st in cells {
                    if st.is_empty() {
                        full[pl] = false;
                        continue;
                    }
                    for &c in st.cards() {
                        cards[c as usize] += 1;
                    }
                    secret += (st.flags & SECRET != 0) as u64;
                    down += (st.flags & DOWNSIZED != 0) as u64;
                    if st.is_plant() {
                        supply[pl][row] += value_of(self, st.top());
                    }
                }
            }
        }
        techs += (secret << (8 * SECRET_BUILD)) + (down << (8 * DOWN));
        if cards[..self.kinds].iter().any(|&n| n as u32 != r.copies) {
            out.push(("R4", format!("plant cards are not conserved: {:?}", &cards[..self.kinds])));
        }
        if techs != self.techs_held {
            out.push(("R3", "tech cards are not conserved".into()));
        }
        for (pl, &len) in held.iter().enumerate() {
            if len > r.hand_size as usize || s.hand_size(pl) != len {
                out.push(("R22", format!("player {pl} holds {len} cards (hand_size {})", r.hand_size)));
            }
            if !self.positions && !within(s.known_counts(pl), s.hand_counts(pl)) {
                out.push(("R36", format!("player {pl}'s known cards are not in the hand")));
            }
        }
        if let Some(limit) = r.stall_limit {
            if s.stall_count() >= limit && !s.is_over() {
                out.push(("R25", format!("stall counter {} reached the limit, the game goes on", s.stall_count())));
            }
        }
        // R19, R21: tolerance city_demand + 1, one more on the Accumulator's city (so a row within
        // city_demand + 1 is within its tolerance, as most are).
        let least = r.city_demand as u64 + 1;
        if matches!(s.phase(), Phase::Action | Phase::Draw) && supply.iter().flatten().any(|&sup| sup > least) {
            for (pl, rows) in supply.iter().enumerate() {
                for (row, &sup) in rows.iter().enumerate() {
                    let tol = least + (s.accumulator() == Some((pl, row))) as u64;
                    if sup > tol {
                        out.push((
                            "R21",
                            format!(
                                "player {pl} row {row} supplies {sup}, over its tolerance {tol}, in {}",
                                phase_name(s.phase())
                            ),
                        ));
                    }
                }
            }
        }
        if s.is_over() != moves.is_empty() {
            if s.is_over() {
                out.push(("R26", format!("zombie: the game is over but {} moves are legal", moves.len())));
            } else {
                out.push(("R26", "deadlock: the game is not over but no move is legal".into()));
            }
        }
        // Each move's key once, compared with the previous one (as one word, but for FlipSets).
        let mut ordered = true;
        if let Some(first) = moves.first() {
            let mut prev = key_word(first);
            for pair in moves.windows(2) {
                let next = key_word(&pair[1]);
                let less = match (prev, next) {
                    (Some(a), Some(b)) => a < b,
                    _ => {
                        let (a, b) = (sort_key(&pair[0]), sort_key(&pair[1]));
                        a.0[..a.1] < b.0[..b.1]
                    }
                };
                if !less {
                    ordered = false;
                    break;
                }
                prev = next;
            }
        }
        if !ordered {
            out.push(("R34", "legal moves are not sorted and duplicate-free".into()));
        }
        if s.phase() == Phase::Chance {
            let ok = match s.chance_outcomes() {
                Ok(outcomes) => {
                    // The exact sum of the fractions p/q.
                    let (mut num, mut den) = (0u128, 1u128);
                    for &(_, p, q) in &outcomes {
                        num = num * q as u128 + p as u128 * den;
                        den *= q as u128;
                        let g = gcd(num, den);
                        num /= g;
                        den /= g;
                    }
                    num == den && outcomes.iter().map(|o| o.0).eq(moves.iter().copied())
                }
                Err(_) => false,
            };
            if !ok {
                out.push(("R6", "chance outcomes do not sum to 1 or differ from the legal moves".into()));
            }
        }
        if let Err(miss) = probe {
            let start = out.len();
            self.score_problems(s, out);
            if let (Some(miss), true) = (miss, out.len() == start) {
                memo.insert(miss, s);
            }
        }
        if self.variants {
            self.variant_problems(s, moves, out);
        }
        if let Some(trigger) = s.end_triggered_by() {
            if !full[trigger] {
                out.push(("R24", format!("player {trigger} triggered the end without a full grid")));
            }
        }
    }

    /// R29: `score()` against the oracle.
    fn score_problems(&self, s: &State, out: &mut Vec<Problem>) {
        let (totals, winner, decision) = oracle(self, s);
        let sheet = score(s);
        if [sheet.players[0].total, sheet.players[1].total] != totals
            || sheet.winner != winner
            || sheet.decided_by != decision
        {
            out.push((
                "R29",
                format!(
                    "score() gives {:?}; the rules give {totals:?} {decision:?}",
                    (sheet.players[0].total, sheet.players[1].total, sheet.winner, sheet.decided_by)
                ),
            ));
        }
    }

    /// What decides the winner of `s` if the game ends there (R29), by the oracle.
    pub fn decision(&self, s: &State) -> Decision {
        oracle(self, s).2
    }

    /// R40, R41: the variants' own invariants (`_properties.py`).
    ///
    /// "Right after the DealTech" is read from the turn log (R36), which a position does not
    /// hold: by position the state check keeps what the position determines (the mover, in
    /// OVERFLOW or DRAW) and the log's part moves to the transitions ([`Props::fresh_problems`]):
    /// every step into a state where a card is held must be that card's DealTech. Every
    /// reachable position is entered by a checked step, so the two halves together are the
    /// by-state check, no weaker.
    fn variant_problems(&self, s: &State, moves: &[Move], out: &mut Vec<Problem>) {
        let r = &self.rules;
        let mut owed: Vec<Move> = Vec::new();
        if r.tech_timing == TechTiming::PlaceAtOnce {
            let mover = s.current_player();
            for seat in 0..2 {
                for tech in [ACCUMULATOR, SMART] {
                    if s.tech_hand(seat) & (1 << tech) == 0 {
                        continue;
                    }
                    let log = s.this_turn();
                    let fresh = seat == mover
                        && matches!(s.phase(), Phase::Overflow | Phase::Draw)
                        && (self.positions || log.last() == Some(&Move::DealTech { tech }));
                    if !fresh {
                        out.push((
                            "R40",
                            format!("player {seat} holds {} after drawing it", hatsuden::TECH_NAMES[tech as usize]),
                        ));
                    }
                    if tech == ACCUMULATOR {
                        owed.extend([Move::PlaceAccumulator { row: 0 }, Move::PlaceAccumulator { row: 1 }]);
                    } else {
                        owed.extend((0..self.e as u8).map(|energy| Move::PlaceSmart { energy }));
                    }
                }
            }
            if !owed.is_empty() {
                let same = moves.iter().all(|m| owed.contains(m)) && owed.iter().all(|m| moves.contains(m));
                if !same {
                    out.push(("R40", format!("the legal moves are {moves:?}, not the owed placements")));
                }
            }
        }
        if r.overflow == Overflow::AnySet && s.phase() == Phase::Overflow && owed.is_empty() {
            if moves.iter().any(|m| matches!(m, Move::Flip { .. })) {
                out.push(("R41", "a Flip is legal with overflow=ANY_SET".into()));
            }
            let mut expected: Vec<u16> = Vec::new();
            if let Some(played) = s.played_cell_index() {
                let player = s.current_player();
                let row = played / self.e;
                let mut plants: Vec<(u16, u64)> = Vec::new();
                for (c, st) in s.board(player).iter().enumerate() {
                    if c / self.e == row && c != played && st.is_plant() {
                        let bit = 1u16 << (row * 5 + c % self.e);
                        plants.push((bit, value_of(self, st.cards()[st.cards().len() - 1])));
                    }
                }
                let tol = r.city_demand as u64 + 1 + (s.accumulator() == Some((player, row))) as u64;
                let sup: u64 = s.board(player)[row * self.e..row * self.e + self.e]
                    .iter()
                    .filter(|st| st.is_plant())
                    .map(|st| value_of(self, st.cards()[st.cards().len() - 1]))
                    .sum();
                let excess = sup as i64 - tol as i64;
                for subset in 1u32..(1 << plants.len()) {
                    let (mut mask, mut total) = (0u16, 0i64);
                    for (k, &(bit, v)) in plants.iter().enumerate() {
                        if subset >> k & 1 == 1 {
                            mask |= bit;
                            total += v as i64;
                        }
                    }
                    if total >= excess {
                        expected.push(mask);
                    }
                }
            } else {
                out.push(("R41", "OVERFLOW without a card played this turn".into()));
            }
            let mut actual: Vec<u16> = moves
                .iter()
                .filter_map(|m| if let Move::FlipSet { cells } = m { Some(*cells) } else { None })
                .collect();
            expected.sort_unstable();
            actual.sort_unstable();
            actual.dedup();
            if actual != expected {
                out.push(("R41", format!("FlipSets {actual:?}, the rules give {}", expected.len())));
            }
        }
    }

    /// Every rule that the step `before --m--> after` breaks (`after == before.apply(m)`).
    /// `determinism`: also re-apply the move (R35; the caller samples, as the Python checker
    /// does one transition in 16).
    #[inline(never)]
    pub fn transition_violations(
        &self,
        before: &State,
        m: &Move,
        after: &State,
        determinism: bool,
        out: &mut Vec<Problem>,
    ) {
        // The groups of eight counts holding the rule set's cards (the rest are 0 in every state).
        let groups = self.kinds.div_ceil(8);
        // R35: apply is a function of the state and the move.
        if determinism {
            match before.apply(*m) {
                Ok(again) if same_state(&again, after, groups) => {}
                _ => out.push(("R35", "apply is not deterministic".into())),
            }
        }
        let mover = before.current_player();
        let other = 1 - mover;
        // R9: only the zones the move names change (besides the mover's own): a bit per zone of
        // `ZONES` (the names are read only for the message). The zones by their groups of eight
        // counts holding the rule set's cards.
        let changed = [
            !same_groups(before.hand_array(other), after.hand_array(other), groups)
                || before.hand_size(other) != after.hand_size(other),
            !same_groups(before.known_array(other), after.known_array(other), groups),
            !same_groups(before.deck_array(), after.deck_array(), groups) || before.deck_size() != after.deck_size(),
            !same_groups(before.discard_array(), after.discard_array(), groups),
            !same_stacks(before.board(other), after.board(other)),
            before.tech_hand(other) != after.tech_hand(other),
            before.tech_deck() != after.tech_deck(),
            before.accumulator() != after.accumulator(),
            before.smart() != after.smart(),
        ]
        .iter()
        .enumerate()
        .fold(0u16, |bits, (zone, &c)| bits | (c as u16) << zone);
        let may = match m {
            Move::Discard { .. } | Move::DrawFromDiscard { .. } => 1 << DISCARDS,
            Move::PlaceAccumulator { .. } => 1 << PLACED_ACCUMULATOR,
            Move::PlaceSmart { .. } => 1 << PLACED_SMART,
            Move::Deal { .. } => 1 << DECK,
            Move::DealTech { .. } => 1 << TECH_DECK,
            _ => 0u16,
        };
        let left = changed & !may;
        if left != 0 {
            let left: Vec<&str> =
                (0..ZONES[other].len()).filter(|z| left >> z & 1 == 1).map(|z| ZONES[other][z]).collect();
            out.push(("R9", format!("{} changed zones it does not name: {left:?}", kind_name(m))));
        }
        let chance = before.pending();
        let ends_turn = matches!(m, Move::DrawFromDiscard { .. } | Move::EndTurn)
            || (matches!(m, Move::Deal { .. }) && chance == Pending::Draw);
        // The turn's log with the move appended, compared without building it.
        let was = before.this_turn();
        let is_logged = |log: &[Move]| log.len() == was.len() + 1 && log[..was.len()] == *was && log[was.len()] == *m;
        if ends_turn {
            if after.current_player() != other {
                out.push(("R23", "the turn ended but the other player is not to move".into()));
            }
            let expected = if before.played_cell_index().is_some() { 0 } else { before.stall_count() + 1 };
            if after.stall_count() != expected {
                out.push(("R23", format!("stall counter {}, expected {expected}", after.stall_count())));
            }
            if before.end_triggered_by().is_none() && after.end_triggered_by().is_some_and(|p| p != mover) {
                out.push(("R24", "the end was triggered by the player who did not move".into()));
            }
            if !after.this_turn().is_empty() || !is_logged(after.last_turn()) {
                out.push(("R36", "at the end of a turn its moves are not the last turn's log".into()));
            }
        } else if chance == Pending::Setup {
            if !after.this_turn().is_empty() || !after.last_turn().is_empty() {
                out.push(("R36", "a setup deal was logged in a turn".into()));
            }
        } else {
            if after.current_player() != mover {
                out.push(("R9", "the player changed in the middle of a turn".into()));
            }
            if after.stall_count() != before.stall_count() {
                out.push(("R23", "the stall counter changed in the middle of a turn".into()));
            }
            if !is_logged(after.this_turn()) || after.last_turn() != before.last_turn() {
                out.push(("R36", format!("the turn's log did not grow by exactly {}", kind_name(m))));
            }
        }
        if before.end_triggered_by().is_some() && after.end_triggered_by() != before.end_triggered_by() {
            out.push(("R24", "the end trigger changed once set".into()));
        }
        if self.fresh_by_step {
            self.fresh_problems(m, after, out);
        }
        // R36: only a card taken from the discards becomes known; plays only forget.
        let (was, now) = (before.known_counts(mover), after.known_counts(mover));
        if !same_groups(before.known_array(mover), after.known_array(mover), groups)
            || matches!(m, Move::DrawFromDiscard { .. })
        {
            if let Move::DrawFromDiscard { card } = m {
                let i = before.tables().index(*card).map(|i| i as usize);
                let ok = (0..self.kinds).all(|k| now[k] as u32 == was[k] as u32 + (Some(k) == i) as u32);
                if !ok {
                    out.push(("R36", "taking a card from the discards did not make it known".into()));
                }
            } else if !within(now, was) {
                out.push(("R36", format!("{} made cards known", kind_name(m))));
            }
        }
    }

    /// R40 by position (R36): a card is held after a step only if the step was its DealTech
    /// (`_properties._fresh_problems`). The by-state check reads this from the turn log (its
    /// last move is the card's DealTech); a position has no log, so it is checked on every step
    /// into the position instead.
    fn fresh_problems(&self, m: &Move, after: &State, out: &mut Vec<Problem>) {
        for seat in 0..2 {
            for tech in [ACCUMULATOR, SMART] {
                if after.tech_hand(seat) & (1 << tech) != 0 && *m != (Move::DealTech { tech }) {
                    out.push((
                        "R40",
                        format!(
                            "player {seat} holds {} after {}, not its DealTech",
                            hatsuden::TECH_NAMES[tech as usize],
                            kind_name(m)
                        ),
                    ));
                }
            }
        }
    }

    /// By position (`_positions.knowledge_problems`): the step `before --m--> after` replayed
    /// with the mover known to hold each non-empty sub-multiset of their hand (and the other
    /// player a sub-multiset of theirs) must lead to the same position, keep the known cards in
    /// the hand and change them only as R36 says.
    ///
    /// With no card in the mover's hand and none taken, no card can be known: nothing to replay.
    /// Most steps are such, so that test is inlined into the caller and the replays are not.
    #[inline]
    pub fn knowledge_problems(&self, before: &State, m: &Move, after: &State, out: &mut Vec<Problem>) {
        let taking = matches!(m, Move::DrawFromDiscard { .. });
        if taking || !no_cards(before.hand_array(before.current_player())) {
            self.knowledge_replays(before, m, after, out);
        }
    }

    /// [`Props::knowledge_problems`] of a step that holds or takes a card.
    #[inline(never)]
    fn knowledge_replays(&self, before: &State, m: &Move, after: &State, out: &mut Vec<Problem>) {
        let mover = before.current_player();
        // The hand as its fixed-size array (the counts past the rule set's cards are 0).
        let mine = *before.hand_array(mover);
        let taking = matches!(m, Move::DrawFromDiscard { .. });
        let (mut ours_buf, mut theirs_buf);
        let (ours, theirs): (&[[u8; MAX_KINDS]], &[[u8; MAX_KINDS]]) = if self.subsets.is_empty() {
            ours_buf = [[0u8; MAX_KINDS]; 32];
            theirs_buf = [[0u8; MAX_KINDS]; 32];
            (
                sub_multisets_into(&mine, self.kinds, &mut ours_buf),
                sub_multisets_into(&counts(before.hand_counts(1 - mover)), self.kinds, &mut theirs_buf),
            )
        } else {
            (
                &self.subsets[self.hand_code(before.hand_counts(mover))],
                &self.subsets[self.hand_code(before.hand_counts(1 - mover))],
            )
        };

        let name = kind_name(m);
        let start = out.len();
        for k in 0..ours.len().max(theirs.len()) {
            let known_mover = ours[k.min(ours.len() - 1)];
            let known_other = theirs[k.min(theirs.len() - 1)];
            let mut known = [[0u8; MAX_KINDS]; 2];
            known[mover] = known_mover;
            known[1 - mover] = known_other;
            let mut end = before.with_known(known);
            match end.apply_mut(*m) {
                Ok(()) => {}
                Err(e) => {
                    out.push(("R36", format!("{name} is refused with known cards: {e}")));
                    return;
                }
            };
            if !end.same_position(after) {
                out.push(("R36", format!("{name} leads elsewhere when cards are known")));
            }
            let now = end.known_counts(mover);
            let hand_after = end.hand_counts(mover);
            if taking {
                let ok = (0..self.kinds)
                    .all(|i| now[i] as i32 == known_mover[i] as i32 + (hand_after[i] as i32 - mine[i] as i32).max(0));
                if !ok {
                    out.push(("R36", format!("taking {m} from the discards did not make it known")));
                }
            } else if !within(now, &known_mover[..self.kinds]) {
                out.push(("R36", format!("{name} made cards known")));
            }
            if !within(now, hand_after) {
                out.push(("R36", "a known card is no longer in the hand".into()));
            }
            if end.known_counts(1 - mover) != &known_other[..self.kinds] {
                out.push(("R36", format!("{name} changed what the mover knows")));
            }
            if out.len() > start {
                break;
            }
        }
    }
}

/// Every non-empty sub-multiset of a hand (count vectors), in the order of
/// `_positions.sub_multisets` (the first card varies slowest); `[nothing]` for an empty hand.
pub fn sub_multisets(hand: &[u8; MAX_KINDS], kinds: usize) -> Vec<[u8; MAX_KINDS]> {
    let mut out = vec![[0u8; MAX_KINDS]];
    for i in 0..kinds {
        if hand[i] == 0 {
            continue;
        }
        let mut next = Vec::with_capacity(out.len() * (hand[i] as usize + 1));
        for base in &out {
            for n in 0..=hand[i] {
                let mut v = *base;
                v[i] = n;
                next.push(v);
            }
        }
        out = next;
    }
    if out.len() > 1 {
        out.remove(0); // the empty one comes first
    }
    out
}

/// [`sub_multisets`] into `buf` without allocating (hands of at most 31 sub-multisets).
fn sub_multisets_into<'a>(
    hand: &[u8; MAX_KINDS],
    kinds: usize,
    buf: &'a mut [[u8; MAX_KINDS]; 32],
) -> &'a [[u8; MAX_KINDS]] {
    let total: usize = hand[..kinds].iter().map(|&n| n as usize + 1).product();
    if total > 32 {
        let v = sub_multisets(hand, kinds);
        let k = v.len().min(32);
        buf[..k].copy_from_slice(&v[..k]);
        return &buf[..k];
    }
    buf[0] = [0u8; MAX_KINDS];
    let mut len = 1;
    for i in 0..kinds {
        if hand[i] == 0 {
            continue;
        }
        // Expand in place from the back so that the first card varies slowest.
        let reps = hand[i] as usize + 1;
        for b in (0..len).rev() {
            let base = buf[b];
            for n in (0..reps).rev() {
                let mut v = base;
                v[i] = n as u8;
                buf[b * reps + n] = v;
            }
        }
        len *= reps;
    }
    if len > 1 {
        &buf[1..len]
    } else {
        &buf[..1]
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

/// What a complete check of `rules` can be asked to reach (`_result.required_events`).
pub fn required_events(rules: &Rules) -> Vec<String> {
    let mut kinds: Vec<&str> = vec!["Construct", "BuildPylon", "Discard", "Pass", "DrawFromDiscard", "EndTurn", "Deal"];
    let cards = rules.energies * rules.max_value;
    if cards * rules.copies > 2 * rules.hand_size {
        kinds.push("DrawFromDeck");
    }
    let techs = rules.techs;
    if techs != 0 {
        kinds.extend(["DrawTech", "DeclineTech", "DealTech"]);
    }
    if rules.max_value >= 2 {
        kinds.push("Improve");
        if techs & (1 << DOWN) != 0 {
            kinds.push("Downsize");
        }
    }
    if techs & (1 << ACCUMULATOR) != 0 {
        kinds.push("PlaceAccumulator");
    }
    if techs & (1 << SMART) != 0 {
        kinds.push("PlaceSmart");
    }
    let tolerance = rules.city_demand + 1;
    if rules.energies >= 2 && rules.energies * rules.max_value > tolerance {
        kinds.push(if rules.overflow == Overflow::AnySet { "FlipSet" } else { "Flip" });
    }
    let mut out: Vec<String> = kinds.iter().map(|k| format!("move {k}")).collect();
    for p in Phase::ALL {
        let name = phase_name(p);
        if name == "OVERFLOW" && !kinds.contains(&"Flip") && !kinds.contains(&"FlipSet") {
            continue;
        }
        if name == "TECH" && techs == 0 {
            continue;
        }
        out.push(format!("phase {name}"));
    }
    out.push("end FINAL_TURN".into());
    if rules.stall_limit.is_some() {
        out.push("end STALL".into());
    }
    let first = if rules.tiebreak == Tiebreak::Supply { "SUPPLY" } else { "CITY_POINTS" };
    for d in ["TOTAL", first, "SECOND_PLAYER"] {
        out.push(format!("decided {d}"));
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use hatsuden::{new_game, SplitMix64};

    /// R3: `tech_bytes` puts tech k of a set in byte k, and sums of spread sets (with counts
    /// added a byte each, as the state check does) count each tech card in its byte.
    #[test]
    fn tech_bytes_count_each_tech_in_its_byte() {
        for bits in 0..=255u8 {
            let w = tech_bytes(bits);
            for k in 0..8 {
                assert_eq!(w >> (8 * k) & 0xFF, if k < 4 { (bits >> k & 1) as u64 } else { 0 }, "{bits:#x}");
            }
        }
        let mut g = SplitMix64::new(7);
        for _ in 0..10_000 {
            let sets = [g.next() as u8, g.next() as u8, g.next() as u8];
            let extra = [g.next() % 21, g.next() % 21];
            let mut word = sets.iter().map(|&b| tech_bytes(b)).sum::<u64>();
            word += (extra[0] << (8 * SECRET_BUILD)) + (extra[1] << (8 * DOWN));
            for k in 0..4u8 {
                let mut count = sets.iter().map(|&b| (b >> k & 1) as u64).sum::<u64>();
                count += if k == SECRET_BUILD {
                    extra[0]
                } else if k == DOWN {
                    extra[1]
                } else {
                    0
                };
                assert_eq!(word >> (8 * k) & 0xFF, count);
            }
            assert_eq!(word >> 32, 0);
        }
    }

    /// R35: `same_state` is `==` on states of random games (the standard rules, more than eight
    /// kinds of card, and choice): each against itself, its successor, itself with other known
    /// cards, its position (no turn logs or known cards, R36) and earlier states of the games.
    #[test]
    fn r35_same_state_is_equality() {
        let mut g = SplitMix64::new(5);
        let mut moves = Vec::new();
        let (mut equal, mut unequal) = (0, 0);
        for rules in [Rules::STANDARD, crate::configs::config("choice").unwrap()] {
            let kinds = rules.tables().unwrap().kinds;
            let groups = kinds.div_ceil(8);
            let mut seen: Vec<State> = Vec::new();
            for _ in 0..20 {
                let mut s = new_game(&rules, None).unwrap();
                while !s.is_over() {
                    s.legal_moves(&mut moves);
                    let next = s.apply(moves[(g.next() % moves.len() as u64) as usize]).unwrap();
                    let mut known = [[0u8; MAX_KINDS]; 2];
                    known[1][g.next() as usize % kinds] = 1;
                    let mut others = vec![s, next, s.with_known(known), s.position()];
                    others.extend(seen.iter().rev().take(3));
                    for o in &others {
                        assert_eq!(same_state(&s, o, groups), s == *o, "{s:?} {o:?}");
                        equal += (s == *o) as u32;
                        unequal += (s != *o) as u32;
                    }
                    seen.push(s);
                    s = next;
                }
            }
        }
        assert!(equal > 100 && unequal > 100, "{equal} equal, {unequal} unequal");
    }

    /// R34: the one-word key orders every move (but a FlipSet) as the canonical sort key does.
    #[test]
    fn key_word_orders_moves_as_sort_key() {
        let mut all = std::collections::HashSet::new();
        let mut g = SplitMix64::new(3);
        let mut moves = Vec::new();
        for rules in [Rules::STANDARD, crate::configs::config("choice").unwrap()] {
            for _ in 0..200 {
                let mut s = new_game(&rules, None).unwrap();
                while !s.is_over() {
                    s.legal_moves(&mut moves);
                    all.extend(moves.iter().filter(|m| !matches!(m, Move::FlipSet { .. })));
                    s = s.apply(moves[(g.next() % moves.len() as u64) as usize]).unwrap();
                }
            }
        }
        let all: Vec<Move> = all.into_iter().collect();
        assert!(all.len() > 100);
        for (i, a) in all.iter().enumerate() {
            for b in &all[i..] {
                let (ka, kb) = (sort_key(a), sort_key(b));
                assert_eq!(key_word(a).cmp(&key_word(b)), ka.0[..ka.1].cmp(&kb.0[..kb.1]), "{a:?} {b:?}");
            }
        }
    }
}
