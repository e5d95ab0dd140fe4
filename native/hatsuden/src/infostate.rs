//! Learning: action ids, the information-state tensor, normalised features and one game
//! stepped by action id with chance resolved by the portable sampler.
//!
//! The same tensors as `hatsuden_rules` (`observation_tensor`, OpenSpiel's information-state
//! tensor, `observation_feature_names` with `normalize=True`) and the same episodes as its
//! learning environments (`hatsuden_rules.integrations._learning.Episode`):
//!
//! - [`Actions`]: every distinct player move of a rule set in the canonical order (R34), so
//!   that the legal moves mapped to ids ascend, and every chance outcome (`Deal`, then
//!   `DealTech`) in its own id space, as `hatsuden_rules.actions` numbers them.
//! - [`RecallCodec`]: how the mover and the other player see each move (R37 "Moves as seen"),
//!   as *seen ids* in four ranges: my moves by action id, the opponent's open moves by action
//!   id, the opponent's concealed moves (BuildPylon by cell, secret Construct by cell, Deal,
//!   DealTech), the chance outcomes received by chance id. The information-state tensor is the
//!   observation tensor (R39) followed by how many times the player saw each seen id.
//! - [`FeaturePlan`]: how each raw entry is normalised to [0, 1]: a count divided by its
//!   bound, a stack's `value` and `top` one-hot, a count without bound as `n / (n + 1)`.
//! - [`Episode`]: one game in explicit chance mode whose chance events are resolved as seeded
//!   mode resolves them (R8, R33: one `next()` per event, `value mod size` into the sorted
//!   deck or tech deck), so a reset with seed S plays the game `new_game(seed = S)`.

use std::collections::HashMap;

use crate::error::{IllegalMove, InvalidInput};
use crate::moves::Move;
use crate::observe::{
    observation_tensor, observe, observe_without_logs, write_observation_tensor, Observation, MAX_OBSERVATION_TENSOR,
};
use crate::rng::SplitMix64;
use crate::rules::{Card, Cell, Overflow, Rules, Tables, ACCUMULATOR, DOWN, MAX_KINDS, SECRET_BUILD, SMART};
use crate::score::score;
use crate::state::{Pending, Phase, State};

/// The canonical sort key of a move (R34): kind, then card, then cell, then the secret flag;
/// a FlipSet by its cells.
fn sort_key(m: &Move) -> Vec<u8> {
    let card = |c: &Card| [c.energy, c.value];
    let cell = |c: &Cell| [c.row, c.energy];
    let mut key = vec![m.kind_rank()];
    match m {
        Move::Construct { card: c, cell: x, secret } => {
            key.extend(card(c));
            key.extend(cell(x));
            key.push(*secret as u8);
        }
        Move::Improve { card: c, cell: x }
        | Move::Downsize { card: c, cell: x }
        | Move::BuildPylon { card: c, cell: x } => {
            key.extend(card(c));
            key.extend(cell(x));
        }
        Move::Discard { card: c } | Move::DrawFromDiscard { card: c } | Move::Deal { card: c } => key.extend(card(c)),
        Move::Flip { cell: x } => key.extend(cell(x)),
        Move::FlipSet { cells } => {
            for x in crate::moves::cells_of(*cells) {
                key.extend(cell(&x));
            }
        }
        Move::PlaceAccumulator { row } => key.push(*row),
        Move::PlaceSmart { energy } => key.push(*energy),
        Move::DealTech { tech } => key.push(*tech),
        _ => {}
    }
    key
}

/// The action ids of one rule set (as `hatsuden_rules.actions`).
#[derive(Debug, Clone)]
pub struct Actions {
    /// Every distinct player move, by action id (the canonical order, R34).
    pub player: Vec<Move>,
    /// Every distinct chance outcome (`Deal` then `DealTech`), by chance id.
    pub chance: Vec<Move>,
    /// Ids by [`dense`] key (`u32::MAX`: none): no hashing on the hot path.
    ids: Vec<u32>,
    chance_ids: HashMap<Move, u32>,
    t: &'static Tables,
}

/// Slots of the dense key: 17 kinds x card slots x 11 cell slots x 2, then 1,024 FlipSets. A card
/// slot is 0 (no card) or a card kind's index plus one, so there are `MAX_KINDS + 1` of them: every
/// kind of every valid rule set (R31: up to 5 energies of values 1..11) has its own.
const CARD_SLOTS: usize = MAX_KINDS + 1;
const CELL_SLOTS: usize = 11;
const FLIP_SETS: usize = 17 * CARD_SLOTS * CELL_SLOTS * 2;
const DENSE: usize = FLIP_SETS + 1024;

/// A small integer that tells the moves of one rule set apart (None: not a move of it).
fn dense(t: &Tables, m: &Move) -> Option<usize> {
    let card = |c: &Card| t.index(*c).map(|i| i as usize + 1);
    let cell = |c: &Cell| t.cell_index(*c).map(|i| i as usize + 1);
    let (cd, cl, flag) = match m {
        Move::Construct { card: c, cell: x, secret } => (card(c)?, cell(x)?, *secret as usize),
        Move::Improve { card: c, cell: x }
        | Move::Downsize { card: c, cell: x }
        | Move::BuildPylon { card: c, cell: x } => (card(c)?, cell(x)?, 0),
        Move::Discard { card: c } | Move::DrawFromDiscard { card: c } | Move::Deal { card: c } => (card(c)?, 0, 0),
        Move::Flip { cell: x } => (0, cell(x)?, 0),
        Move::FlipSet { cells } => return ((*cells as usize) < 1024).then_some(FLIP_SETS + *cells as usize),
        // A row, energy or tech past its slots is no move of any rule set (not another one's).
        Move::PlaceAccumulator { row } => (0, Some(*row as usize).filter(|&r| r < CELL_SLOTS)?, 0),
        Move::PlaceSmart { energy } => (0, Some(*energy as usize).filter(|&e| e < CELL_SLOTS)?, 0),
        Move::DealTech { tech } => (Some(*tech as usize).filter(|&x| x < CARD_SLOTS)?, 0, 0),
        _ => (0, 0, 0),
    };
    Some(((m.kind_rank() as usize * CARD_SLOTS + cd) * CELL_SLOTS + cl) * 2 + flag)
}

impl Actions {
    /// The ids of `rules`' moves. A move that needs a tech card the rules leave out has none,
    /// and each overflow variant numbers only its own kind of move (R41).
    pub fn new(t: &'static Tables) -> Actions {
        let rules = &t.rules;
        let has = |tech: u8| rules.techs & (1 << tech) != 0;
        let mut player = Vec::new();
        for i in 0..t.kinds {
            let card = t.cards[i];
            for &cell in &t.cells[..t.ncells] {
                if cell.energy == card.energy {
                    player.push(Move::Construct { card, cell, secret: false });
                    if has(SECRET_BUILD) {
                        player.push(Move::Construct { card, cell, secret: true });
                    }
                    player.push(Move::Improve { card, cell });
                    if has(DOWN) {
                        player.push(Move::Downsize { card, cell });
                    }
                }
                player.push(Move::BuildPylon { card, cell });
            }
            player.push(Move::Discard { card });
            player.push(Move::DrawFromDiscard { card });
        }
        player.push(Move::Pass);
        if rules.techs != 0 {
            player.push(Move::DrawTech);
            player.push(Move::DeclineTech);
        }
        if rules.overflow == Overflow::AnySet {
            for row in 0..2u32 {
                for mask in 1..(1u32 << t.e) {
                    player.push(Move::FlipSet { cells: (mask << (row * 5)) as u16 });
                }
            }
        } else {
            player.extend(t.cells[..t.ncells].iter().map(|&cell| Move::Flip { cell }));
        }
        player.push(Move::DrawFromDeck);
        player.push(Move::EndTurn);
        if has(ACCUMULATOR) {
            player.extend((0..2).map(|row| Move::PlaceAccumulator { row }));
        }
        if has(SMART) {
            player.extend((0..t.e as u8).map(|energy| Move::PlaceSmart { energy }));
        }
        player.sort_by_cached_key(sort_key);
        let mut chance: Vec<Move> = (0..t.kinds).map(|i| Move::Deal { card: t.cards[i] }).collect();
        chance.extend((0..4u8).filter(|&x| has(x)).map(|tech| Move::DealTech { tech }));
        let mut ids = vec![u32::MAX; DENSE];
        for (a, m) in player.iter().enumerate() {
            if let Some(k) = dense(t, m) {
                ids[k] = a as u32;
            }
        }
        let chance_ids = chance.iter().enumerate().map(|(c, m)| (*m, c as u32)).collect();
        Actions { player, chance, ids, chance_ids, t }
    }

    /// The action id of a player move, if the rule set has it.
    #[inline]
    pub fn id(&self, m: &Move) -> Option<u32> {
        dense(self.t, m).and_then(|k| self.ids.get(k)).copied().filter(|&a| a != u32::MAX)
    }

    /// The chance id of a chance outcome, if the rule set has it.
    #[inline]
    pub fn chance_id(&self, m: &Move) -> Option<u32> {
        self.chance_ids.get(m).copied()
    }
}

/// How the mover and the other player see each move: `(mine, theirs)` seen ids.
#[derive(Debug, Clone)]
pub struct RecallCodec {
    /// By action id: the mover's seen id, the other player's.
    pub player: Vec<(u32, u32)>,
    /// By chance id: the receiver's seen id, the other player's.
    pub chance: Vec<(u32, u32)>,
    /// The four ranges, in order: `(name, size)`.
    pub segments: [(&'static str, usize); 4],
    /// Seen ids in all.
    pub size: usize,
}

impl RecallCodec {
    /// The seen ids of `actions` (R37 "Moves as seen": a BuildPylon, a secret Construct, a Deal
    /// and a DealTech of the opponent are concealed).
    pub fn new(t: &Tables, actions: &Actions) -> RecallCodec {
        let n = actions.player.len() as u32;
        let k = actions.chance.len();
        let cells = t.ncells as u32;
        let hidden = 2 * n;
        let received = hidden + 2 * cells + 2;
        let cell_of = |c: &Cell| t.cell_index(*c).map(u32::from).unwrap_or(0);
        let player = actions
            .player
            .iter()
            .enumerate()
            .map(|(a, m)| {
                let a = a as u32;
                let other = match m {
                    Move::BuildPylon { cell, .. } => hidden + cell_of(cell),
                    Move::Construct { cell, secret: true, .. } => hidden + cells + cell_of(cell),
                    _ => n + a,
                };
                (a, other)
            })
            .collect();
        let chance = actions
            .chance
            .iter()
            .enumerate()
            .map(|(c, m)| {
                let other = if matches!(m, Move::Deal { .. }) { hidden + 2 * cells } else { hidden + 2 * cells + 1 };
                (received + c as u32, other)
            })
            .collect();
        RecallCodec {
            player,
            chance,
            segments: [
                ("my_moves", n as usize),
                ("opponent_moves", n as usize),
                ("opponent_concealed", 2 * cells as usize + 2),
                ("my_chance", k),
            ],
            size: received as usize + k,
        }
    }
}

/// The information-state tensor: the observation tensor (R39) of `o` followed by `counts`, how
/// many times the observer saw each seen id of [`RecallCodec`] (1,213 ints in STANDARD).
pub fn information_state_tensor(o: &Observation, counts: &[u32]) -> Vec<i64> {
    let mut v = observation_tensor(o);
    v.extend(counts.iter().map(|&n| n as i64));
    v
}

/// How one raw entry becomes features in [0, 1].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Norm {
    /// A count times `1 / bound` (float32), 0 when the bound is 0.
    Scale(f32),
    /// A count without bound: `n / (n + 1)`.
    Saturate,
    /// One-hot over the consecutive raw values `first .. first + len`: one feature each.
    OneHot {
        /// The raw value of the first feature.
        first: i64,
        /// How many features.
        len: usize,
    },
}

/// The normalisation of every raw entry of one tensor kind (`observation_feature_names` with
/// `normalize=True` names the features; docs/features.md lists them).
#[derive(Debug, Clone)]
pub struct FeaturePlan {
    /// One per raw entry.
    pub norms: Vec<Norm>,
    /// Features in all.
    pub size: usize,
    /// The norms compiled into runs over the raw tensor (what `write` executes).
    ops: Vec<Op>,
    /// Per raw entry, its factor (0 where the entry is not scaled).
    muls: Vec<f32>,
}

/// A compiled step of [`FeaturePlan::write`].
#[derive(Debug, Clone, Copy)]
enum Op {
    /// Raw entries `src..src + len` scaled into features `dst..dst + len`.
    Scale { src: usize, dst: usize, len: usize },
    /// Raw entry `src` as `n / (n + 1)` into feature `dst`.
    Saturate { src: usize, dst: usize },
    /// Raw entry `src` one-hot into features `dst..dst + len` (values `first..`).
    OneHot { src: usize, dst: usize, first: i64, len: usize },
}

/// The bound OpenSpiel uses on a game's player moves (None without the stall rule, R25).
pub fn max_game_length(t: &Tables) -> Option<u64> {
    let rules = &t.rules;
    let limit = rules.stall_limit? as u64;
    let deck = t.total_cards as u64;
    let placements = [ACCUMULATOR, SMART].iter().filter(|&&x| rules.techs & (1 << x) != 0).count() as u64;
    Some(2 * limit * (deck + 1) + deck + 4 * rules.energies as u64 + placements)
}

fn scale(bound: Option<u64>) -> Norm {
    match bound {
        None => Norm::Saturate,
        Some(0) => Norm::Scale(0.0),
        Some(b) => Norm::Scale((1.0f64 / b as f64) as f32),
    }
}

impl FeaturePlan {
    /// The plan of the observation tensor, or of the information-state tensor with `recall`.
    pub fn new(t: &Tables, actions: &Actions, recall: bool) -> FeaturePlan {
        let r = &t.rules;
        let k = t.kinds;
        let techs = r.techs.count_ones() as u64;
        let hand_copies = (r.copies.min(r.hand_size)) as u64;
        let copies = r.copies as u64;
        let deck = t.total_cards as u64;
        let one = || scale(Some(1));
        let mut norms: Vec<Norm> = Vec::with_capacity(2048);
        let push = |norms: &mut Vec<Norm>, n: usize, norm: Norm| norms.extend(std::iter::repeat(norm).take(n));
        push(&mut norms, 6 + 2, one()); // phase, to_move, seat
        push(&mut norms, k, scale(Some(hand_copies))); // hand
        push(&mut norms, 4, one()); // tech_hand
        push(&mut norms, 2 * k, scale(Some(hand_copies))); // known_to_opponent, opponent_known
        norms.push(scale(Some(r.hand_size as u64)));
        norms.push(scale(Some(techs)));
        norms.push(scale(Some(deck)));
        norms.push(scale(Some(techs)));
        push(&mut norms, 2 * k, scale(Some(copies))); // discards, unseen
                                                      // A stack's value: hidden (-1), 0 .. max_value.
        let values = Norm::OneHot { first: -1, len: r.max_value as usize + 2 };
        let down = r.techs & (1 << DOWN) != 0;
        let height = r.max_value as u64 * if down { copies.min(2) } else { 1 };
        for side in 0..2 {
            for c in 0..t.ncells {
                push(&mut norms, 5, one());
                norms.push(values);
                // The top card's index + 1. My pylons may hold any card (R14); the other
                // player sees the top card of a plant only, which has the cell's energy (R10):
                // the cards of one energy are consecutive (R2).
                let tops = if side == 0 {
                    Norm::OneHot { first: 1, len: k }
                } else {
                    let mv = t.mv as i64;
                    Norm::OneHot { first: t.cells[c].energy as i64 * mv + 1, len: mv as usize }
                };
                norms.push(tops);
                norms.push(scale(Some(height)));
            }
        }
        push(&mut norms, 4 + t.e + t.ncells + k + 3, one()); // accumulator .. pending_chance
        norms.push(scale(r.stall_limit.map(u64::from)));
        push(&mut norms, 2 + 2, one()); // end_trigger, end_reason
        if recall {
            let length = max_game_length(t);
            let on_cell = |m: &Move| {
                matches!(
                    m,
                    Move::Construct { .. } | Move::Improve { .. } | Move::Downsize { .. } | Move::BuildPylon { .. }
                )
            };
            for _ in 0..2 {
                for m in &actions.player {
                    norms.push(scale(if on_cell(m) { Some(copies) } else { length }));
                }
            }
            push(&mut norms, 2 * t.ncells + 1, scale(Some(deck)));
            norms.push(scale(Some(techs)));
            for m in &actions.chance {
                norms.push(scale(Some(if matches!(m, Move::Deal { .. }) { copies } else { 1 })));
            }
        }
        let size = norms.iter().map(|n| if let Norm::OneHot { len, .. } = n { *len } else { 1 }).sum();
        let mut ops: Vec<Op> = Vec::new();
        let mut muls = vec![0.0f32; norms.len()];
        let mut dst = 0;
        for (src, norm) in norms.iter().enumerate() {
            match *norm {
                Norm::Scale(mul) => {
                    muls[src] = mul;
                    match ops.last_mut() {
                        Some(Op::Scale { len, .. }) => *len += 1,
                        _ => ops.push(Op::Scale { src, dst, len: 1 }),
                    }
                    dst += 1;
                }
                Norm::Saturate => {
                    ops.push(Op::Saturate { src, dst });
                    dst += 1;
                }
                Norm::OneHot { first, len } => {
                    ops.push(Op::OneHot { src, dst, first, len });
                    dst += len;
                }
            }
        }
        FeaturePlan { norms, size, ops, muls }
    }

    /// Write the features of `raw` (one entry per norm, as float32: the raw ints converted)
    /// into `out` (`size` entries), exactly as `hatsuden_rules` computes them in float32.
    pub fn write(&self, raw: &[f32], out: &mut [f32]) {
        // Every one-hot is zero but for its one feature: one fill, then one store each.
        zero(out);
        for op in &self.ops {
            match *op {
                Op::Scale { src, dst, len } => {
                    let (x, m, o) = (&raw[src..src + len], &self.muls[src..src + len], &mut out[dst..dst + len]);
                    for ((o, &x), &m) in o.iter_mut().zip(x).zip(m) {
                        *o = x * m;
                    }
                }
                Op::Saturate { src, dst } => {
                    let x = raw[src];
                    out[dst] = x / (x + 1.0);
                }
                Op::OneHot { src, dst, first, len } => {
                    // The raw entries of a one-hot are small ints (a stack's value or top
                    // card, R39), exact in float32; a value outside the range is all zeros.
                    let at = raw[src] - first as f32;
                    if at >= 0.0 && at < len as f32 {
                        out[dst + at as usize] = 1.0;
                    }
                }
            }
        }
    }

    /// The features of `raw` as a new vector.
    pub fn normalize(&self, raw: &[i64]) -> Vec<f32> {
        let raw: Vec<f32> = raw.iter().map(|&x| x as f32).collect();
        let mut out = vec![0.0; self.size];
        self.write(&raw, &mut out);
        out
    }
}

/// Zero `out` in runs of 1 KB: `memset` stores them with vector instructions (from 2 KB up it
/// switches to `rep stosb`, no faster here, and which `valgrind --tool=callgrind` counts as one
/// instruction per byte, hiding the instruction counts of the learning path).
fn zero(out: &mut [f32]) {
    for run in out.chunks_mut(256) {
        run.fill(0.0);
    }
}

/// Everything the learning environments share for one rule set: ids, codec, feature plans.
#[derive(Debug)]
pub struct Learning {
    /// The interned tables of the rule set.
    pub t: &'static Tables,
    /// The action ids.
    pub actions: Actions,
    /// The seen ids.
    pub codec: RecallCodec,
    /// Raw entries of the observation tensor.
    pub observation_size: usize,
    /// The normalisation of the observation tensor.
    pub observation_plan: FeaturePlan,
    /// The normalisation of the information-state tensor.
    pub information_state_plan: FeaturePlan,
}

impl Learning {
    /// The tables of `rules` (refused with the field when the rule set is invalid, R31).
    pub fn new(rules: &Rules) -> Result<Learning, InvalidInput> {
        let t = rules.tables()?;
        let actions = Actions::new(t);
        let codec = RecallCodec::new(t, &actions);
        let observation_size = crate::observe::observation_tensor_layout(t).iter().map(|x| x.1).sum();
        let observation_plan = FeaturePlan::new(t, &actions, false);
        let information_state_plan = FeaturePlan::new(t, &actions, true);
        Ok(Learning { t, actions, codec, observation_size, observation_plan, information_state_plan })
    }

    /// The plan of one tensor kind.
    pub fn plan(&self, recall: bool) -> &FeaturePlan {
        if recall {
            &self.information_state_plan
        } else {
            &self.observation_plan
        }
    }

    /// Raw entries of one tensor kind.
    pub fn raw_size(&self, recall: bool) -> usize {
        self.observation_size + if recall { self.codec.size } else { 0 }
    }

    /// Features of one tensor kind.
    pub fn feature_size(&self, recall: bool, normalize: bool) -> usize {
        if normalize {
            self.plan(recall).size
        } else {
            self.raw_size(recall)
        }
    }
}

/// Why [`Episode::step`] refused an action: out of range, or illegal here (with the rule).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepError {
    /// Not an action id of the rule set.
    OutOfRange,
    /// Not legal in this state (R35).
    Illegal(Move, IllegalMove),
}

/// One game stepped by action id, chance resolved by the portable sampler (R8, R33).
#[derive(Debug, Clone)]
pub struct Episode {
    /// The state (explicit chance mode; never in CHANCE after `reset` or `step`).
    pub state: State,
    /// The generator of the chance events.
    pub rng: SplitMix64,
    /// Per player, how many times they saw each seen id (empty without recall).
    pub counts: [Vec<u32>; 2],
    /// Per player, the seen ids whose count is not 0, in the order first seen: a feature row's
    /// tail is zeros but for these (a zero count is 0 raw and normalised), so writing it reads
    /// only them.
    seen: [Vec<u32>; 2],
}

impl Episode {
    /// A game before its first reset (the state before the deal), counting seen ids with
    /// `recall`.
    pub fn new(learning: &Learning, recall: bool) -> Episode {
        let size = if recall { learning.codec.size } else { 0 };
        Episode {
            state: State::empty(learning.t),
            rng: SplitMix64::new(0),
            counts: [vec![0; size], vec![0; size]],
            seen: [Vec::with_capacity(if recall { 256 } else { 0 }), Vec::with_capacity(if recall { 256 } else { 0 })],
        }
    }

    /// Whether the seen ids are counted.
    pub fn recall(&self) -> bool {
        !self.counts[0].is_empty()
    }

    /// A new game whose chance events follow `seed`: the game `new_game(seed)` (R7, R8).
    pub fn reset(&mut self, learning: &Learning, seed: u64) {
        self.state = State::empty(learning.t);
        self.rng = SplitMix64::new(seed);
        for (counts, seen) in self.counts.iter_mut().zip(&mut self.seen) {
            for &id in seen.iter() {
                counts[id as usize] = 0;
            }
            seen.clear();
        }
        self.resolve(learning);
    }

    fn see(&mut self, actor: usize, (mine, theirs): (u32, u32)) {
        if self.recall() {
            for (p, id) in [(actor, mine), (1 - actor, theirs)] {
                let n = &mut self.counts[p][id as usize];
                if *n == 0 {
                    self.seen[p].push(id);
                }
                *n += 1;
            }
        }
    }

    /// Resolve every pending chance event: one `next()` each, `value mod size` into the sorted
    /// deck (by copies) or the tech deck (R33).
    fn resolve(&mut self, learning: &Learning) {
        let t = learning.t;
        while self.state.phase == Phase::Chance {
            let value = self.rng.next();
            let m = if self.state.pending == Pending::Tech {
                let deck = self.state.tech_deck;
                let mut r = value % deck.count_ones().max(1) as u64;
                let mut tech = 0;
                for x in 0..4u8 {
                    if deck & (1 << x) != 0 {
                        if r == 0 {
                            tech = x;
                            break;
                        }
                        r -= 1;
                    }
                }
                Move::DealTech { tech }
            } else {
                let mut r = value % (self.state.deck_len.max(1) as u64);
                let mut card = 0;
                for (i, &n) in self.state.deck[..t.kinds].iter().enumerate() {
                    if n as u64 > r {
                        card = i;
                        break;
                    }
                    r -= n as u64;
                }
                Move::Deal { card: t.cards[card] }
            };
            let receiver = self.state.current_player();
            if let Some(c) = learning.actions.chance_id(&m) {
                let seen = learning.codec.chance[c as usize];
                self.see(receiver, seen);
            }
            if self.state.apply_mut(m).is_err() {
                // Cannot happen: the outcome was drawn among the legal ones (R6). Stop rather
                // than loop.
                break;
            }
        }
    }

    /// Check action id `action` and give the state after it (before chance is resolved),
    /// changing nothing: [`Episode::commit`] then makes it the episode's state.
    pub fn probe(&self, learning: &Learning, action: i64) -> Result<State, StepError> {
        let Some(&m) = usize::try_from(action).ok().and_then(|a| learning.actions.player.get(a)) else {
            return Err(StepError::OutOfRange);
        };
        let mut after = self.state;
        after.apply_mut(m).map_err(|e| StepError::Illegal(m, e))?;
        Ok(after)
    }

    /// Make `after` (from [`Episode::probe`] with the same `action`) the state, count what each
    /// player saw of the move, and resolve chance.
    pub fn commit(&mut self, learning: &Learning, action: i64, after: State) {
        let actor = self.state.current_player();
        self.state = after;
        if let Some(&seen) = usize::try_from(action).ok().and_then(|a| learning.codec.player.get(a)) {
            self.see(actor, seen);
        }
        self.resolve(learning);
    }

    /// Apply action id `action` and resolve chance; a refused action changes nothing.
    pub fn step(&mut self, learning: &Learning, action: i64) -> Result<(), StepError> {
        let Some(&m) = usize::try_from(action).ok().and_then(|a| learning.actions.player.get(a)) else {
            return Err(StepError::OutOfRange);
        };
        let actor = self.state.current_player();
        self.state.apply_mut(m).map_err(|e| StepError::Illegal(m, e))?;
        self.see(actor, learning.codec.player[action as usize]);
        self.resolve(learning);
        Ok(())
    }

    /// The legal action ids, ascending (none at the end), into `ids`; `buf` is scratch.
    pub fn legal_ids(&self, learning: &Learning, buf: &mut Vec<Move>, ids: &mut Vec<u32>) {
        ids.clear();
        if self.state.is_over() {
            return;
        }
        self.state.legal_moves(buf);
        ids.extend(buf.iter().filter_map(|m| learning.actions.id(m)));
    }

    /// `player`'s raw tensor: the observation tensor, then the seen counts if kept.
    pub fn raw(&self, player: usize) -> Vec<i64> {
        let o = observe(&self.state, player);
        if self.recall() {
            information_state_tensor(&o, &self.counts[player & 1])
        } else {
            observation_tensor(&o)
        }
    }

    /// `player`'s features (raw as floats, or normalised) into `out`.
    pub fn write_features(&self, learning: &Learning, player: usize, normalize: bool, out: &mut [f32]) {
        let mut scratch = vec![0.0; MAX_OBSERVATION_TENSOR];
        self.write_features_with(learning, player, normalize, out, &mut scratch);
    }

    /// [`Episode::write_features`] with `scratch` (at least [`MAX_OBSERVATION_TENSOR`] entries,
    /// or the rule set's observation size) to hold the raw observation tensor when normalising:
    /// no allocation, one pass over `out` (the learning environments' hot path).
    pub fn write_features_with(
        &self,
        learning: &Learning,
        player: usize,
        normalize: bool,
        out: &mut [f32],
        scratch: &mut [f32],
    ) {
        let o = observe_without_logs(&self.state, player);
        let (counts, seen) = (&self.counts[player & 1], &self.seen[player & 1]);
        let plan = &learning.information_state_plan;
        // The recall counts follow the observation's features (their plan entries follow the
        // observation's too): zeros but for the seen ids.
        if normalize {
            let n = write_observation_tensor(&o, scratch, |x| x as f32);
            let (head, tail) = out.split_at_mut(learning.observation_plan.size);
            learning.observation_plan.write(&scratch[..n], head);
            zero(tail);
            for &id in seen {
                let x = counts[id as usize] as f32;
                tail[id as usize] = match plan.norms[n + id as usize] {
                    Norm::Scale(mul) => x * mul,
                    _ => x / (x + 1.0),
                };
            }
        } else {
            // The raw ints as float32, straight into the row.
            let n = write_observation_tensor(&o, out, |x| x as f32);
            let tail = &mut out[n..];
            zero(tail);
            for &id in seen {
                tail[id as usize] = counts[id as usize] as f32;
            }
        }
    }

    /// The state as seeded mode holds it: the same game, with the generator's state (R8).
    pub fn seeded_state(&self) -> State {
        let mut s = self.state;
        s.rng = Some(self.rng.state);
        s
    }

    /// The winner as if the game ended now (R29).
    pub fn winner(&self) -> usize {
        score(&self.state).winner
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::new_game;

    /// R39: 323 + 890 entries in STANDARD; 643 normalised observation features; 422 actions.
    #[test]
    fn sizes_match_the_reference() {
        let l = Learning::new(&Rules::STANDARD).unwrap();
        assert_eq!(l.actions.player.len(), 422);
        assert_eq!(l.actions.chance.len(), 24);
        assert_eq!(l.observation_size, 323);
        assert_eq!(l.raw_size(true), 1213);
        assert_eq!(l.observation_plan.size, 643);
    }

    /// Every player move has its own id and every chance outcome its own chance id (R34), under
    /// each tech card set and overflow variant (R3, R41), up to the widest deck R31 allows (5
    /// energies of values 1..11: 55 card kinds; a 3 x 11 deck once gave `X W11` the id of `Pass`).
    #[test]
    fn ids_are_a_bijection() {
        let shapes = [(5, 5, 10), (3, 11, 10), (5, 11, 10)];
        for (techs, overflow, (energies, max_value, city_demand)) in [0u8, 0b0101, 0b1111]
            .into_iter()
            .flat_map(|t| [Overflow::OneAtATime, Overflow::AnySet].map(|o| (t, o)))
            .flat_map(|(t, o)| shapes.map(|shape| (t, o, shape)))
        {
            {
                let rules = Rules { techs, overflow, energies, max_value, city_demand, ..Rules::STANDARD };
                let l = Learning::new(&rules).unwrap();
                for (a, m) in l.actions.player.iter().enumerate() {
                    assert_eq!(l.actions.id(m), Some(a as u32), "{m}");
                }
                for (c, m) in l.actions.chance.iter().enumerate() {
                    assert_eq!(l.actions.chance_id(m), Some(c as u32), "{m}");
                }
                assert_eq!(l.actions.id(&Move::Deal { card: l.t.cards[0] }), None);
            }
        }
    }

    /// R34: legal moves map to ascending ids, and a reset with seed S is `new_game(S)` (R8).
    #[test]
    fn episodes_follow_seeded_mode() {
        let l = Learning::new(&Rules::STANDARD).unwrap();
        let mut e = Episode::new(&l, true);
        let (mut buf, mut ids) = (Vec::new(), Vec::new());
        for seed in 0..20u64 {
            e.reset(&l, seed);
            let mut seeded = new_game(&Rules::STANDARD, Some(seed)).unwrap();
            assert_eq!(e.seeded_state(), seeded);
            for ply in 0..60 {
                if e.state.is_over() {
                    break;
                }
                e.legal_ids(&l, &mut buf, &mut ids);
                assert!(ids.windows(2).all(|w| w[0] < w[1]));
                let a = ids[(seed as usize + ply) % ids.len()];
                seeded = seeded.apply(l.actions.player[a as usize]).unwrap();
                e.step(&l, a as i64).unwrap();
                assert_eq!(e.seeded_state(), seeded);
            }
            // Every seen id counted once per player per move: the two rows sum alike.
            let sums: Vec<u32> = e.counts.iter().map(|c| c.iter().sum()).collect();
            assert_eq!(sums[0], sums[1]);
        }
        assert_eq!(e.step(&l, 9999), Err(StepError::OutOfRange));
        assert_eq!(e.step(&l, -1), Err(StepError::OutOfRange));
    }

    /// The hot path (`write_features_with`: the tensor written as floats, the plan run over it,
    /// the kept float counts) gives exactly the raw tensor (R39, then the seen counts of R37)
    /// and its normalisation as the plain path computes them, for both kinds, both seats, with
    /// and without the tech cards and the stall rule (R3, R25).
    #[test]
    fn the_hot_path_writes_the_reference_features() {
        let variants = [Rules::STANDARD, Rules { techs: 0, stall_limit: None, ..Rules::STANDARD }];
        for rules in variants {
            let l = Learning::new(&rules).unwrap();
            for recall in [false, true] {
                let mut e = Episode::new(&l, recall);
                let (mut buf, mut ids) = (Vec::new(), Vec::new());
                let mut scratch = vec![0.0; MAX_OBSERVATION_TENSOR];
                for ply in 0..600 {
                    if ply % 300 == 0 {
                        // A second game in the same episode counts as a fresh one: only the
                        // deal's cards so far (R7).
                        e.reset(&l, 11 + ply as u64);
                        let mut fresh = Episode::new(&l, recall);
                        fresh.reset(&l, 11 + ply as u64);
                        assert_eq!(e.counts, fresh.counts);
                    }
                    if e.state.is_over() {
                        continue;
                    }
                    for p in 0..2 {
                        let raw = e.raw(p);
                        for normalize in [false, true] {
                            let want: Vec<f32> = if normalize {
                                l.plan(recall).normalize(&raw)
                            } else {
                                raw.iter().map(|&x| x as f32).collect()
                            };
                            let mut got = vec![f32::NAN; l.feature_size(recall, normalize)];
                            e.write_features_with(&l, p, normalize, &mut got, &mut scratch);
                            assert_eq!(got, want, "ply {ply} seat {p} normalize {normalize} recall {recall}");
                        }
                    }
                    e.legal_ids(&l, &mut buf, &mut ids);
                    e.step(&l, ids[(ply * 7) % ids.len()] as i64).unwrap();
                }
            }
        }
    }

    /// Normalised features lie in [0, 1] (R39 bounds).
    #[test]
    fn features_are_in_the_unit_interval() {
        let l = Learning::new(&Rules::STANDARD).unwrap();
        let mut e = Episode::new(&l, true);
        let mut out = vec![0.0; l.information_state_plan.size];
        let (mut buf, mut ids) = (Vec::new(), Vec::new());
        e.reset(&l, 3);
        for ply in 0..200 {
            if e.state.is_over() {
                break;
            }
            e.write_features(&l, ply % 2, true, &mut out);
            assert!(out.iter().all(|x| (0.0..=1.0).contains(x)));
            e.legal_ids(&l, &mut buf, &mut ids);
            e.step(&l, ids[ply % ids.len()] as i64).unwrap();
        }
    }
}
