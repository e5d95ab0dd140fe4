//! The bots' judgement of full states: the outlook of a position and cheap move values.
//!
//! A mirror of `hatsuden_rules.players._heuristics` (the same weights, the same formulas, the
//! same order of every floating-point operation), so that a bot built on it makes the same
//! choices as its Python twin. The bots apply these only to states they built themselves from
//! their own observation (a `sample_state` determinization, R38), never to the real state.
//!
//! Scoring follows R27-R29: an energy goes to the strictly higher generation and counts double
//! under the Smart (R20, R27), a city scores +1 exactly on the demand and -1 at the demand minus
//! 2 or less (R28), equal totals go to tie-break 1 and then to player 1 (R29).

use hatsuden::{cells_of, Move, Phase, SplitMix64, State, Tables, Tiebreak, DOWN, FACE_DOWN, MAX_CELLS, SMART};

/// Weight of the outlook in an evaluation (the provisional margin is the stronger signal).
pub const OUTLOOK_WEIGHT: f64 = 0.35;
const TIEBREAK_WEIGHT: f64 = 0.4;
const SEAT_WEIGHT: f64 = 0.2;
const OVERFLOW_COST: f64 = 0.6;
const CARD_COST: f64 = 0.03;
const CELL_COST: f64 = 0.1;
const DISCARD_COST: f64 = 0.15;
/// Take a discard only if it beats a card from the deck by this much (R22).
pub const DISCARD_MARGIN: f64 = 0.1;
/// What a held tech card is worth (R3 order: ACCUMULATOR, SECRET_BUILD, SMART, DOWN).
const HELD: [f64; 4] = [0.15, 0.0, 0.6, 0.15];

#[inline]
fn sign(x: i64) -> i64 {
    (x > 0) as i64 - (x < 0) as i64
}

/// R28: +1 exactly on the demand, -1 at the demand minus 2 or less.
#[inline]
fn city_points(supply: i64, demand: i64) -> i64 {
    if supply == demand {
        1
    } else if supply <= demand - 2 {
        -1
    } else {
        0
    }
}

/// Expected city points of a row with `supply` and `free` empty cells (R28): a full row scores
/// exactly; an open row at the demand can be closed with pylons; below it, the fewer cards
/// needed to reach the demand, the better.
pub fn city_outlook(supply: i64, free: i64, demand: i64, max_value: i64) -> f64 {
    if free == 0 {
        return city_points(supply, demand) as f64;
    }
    if supply == demand {
        return 0.8;
    }
    if supply > demand {
        return 0.0;
    }
    let missing = demand - supply;
    let need = (missing + max_value - 1) / max_value;
    if need <= free {
        return 0.35 - 0.2 * (need - 1) as f64;
    }
    if (missing - 1 + max_value - 1) / max_value <= free {
        return -0.3; // 9 is within reach: no penalty
    }
    -0.9
}

/// The visible value of every cell of both grids (0 for an empty cell or a pylon, R4) and
/// which cells are empty.
struct Grid {
    value: [[i64; MAX_CELLS]; 2],
    free: [[bool; MAX_CELLS]; 2],
}

fn grid(s: &State) -> Grid {
    let t = s.tables();
    let mut g = Grid { value: [[0; MAX_CELLS]; 2], free: [[false; MAX_CELLS]; 2] };
    for p in 0..2 {
        for (c, st) in s.board(p).iter().enumerate() {
            g.free[p][c] = st.is_empty();
            if !st.is_empty() && st.flags & FACE_DOWN == 0 {
                g.value[p][c] = t.value[st.top() as usize] as i64;
            }
        }
    }
    g
}

/// The totals of both players (R27-R29) and the winner, without the score sheet's vectors.
pub fn totals_and_winner(s: &State) -> ([i64; 2], usize) {
    let t = s.tables();
    let e = t.e;
    let demand = t.rules.city_demand as i64;
    let g = grid(s);
    let smart = s.smart();
    let mut totals = [0i64; 2];
    let mut cities = [0i64; 2];
    let mut supplies = [0i64; 2];
    for p in 0..2 {
        for row in 0..2 {
            let supply: i64 = g.value[p][row * e..row * e + e].iter().sum();
            cities[p] += city_points(supply, demand);
            supplies[p] += supply;
        }
        totals[p] = cities[p];
    }
    for col in 0..e {
        let a = g.value[0][col] + g.value[0][e + col];
        let b = g.value[1][col] + g.value[1][e + col];
        if a != b {
            totals[if a > b { 0 } else { 1 }] += if smart == Some(col) { 2 } else { 1 };
        }
    }
    let winner = if totals[0] != totals[1] {
        if totals[0] > totals[1] {
            0
        } else {
            1
        }
    } else {
        let (a, b) = match t.rules.tiebreak {
            Tiebreak::CityPoints => (cities[0], cities[1]),
            Tiebreak::Supply => (supplies[0], supplies[1]),
        };
        if a > b {
            0
        } else {
            1
        }
    };
    (totals, winner)
}

/// The provisional margin of `player`: their total minus the opponent's (R27-R29).
pub fn margin(s: &State, player: usize) -> i64 {
    let (totals, _) = totals_and_winner(s);
    totals[player] - totals[1 - player]
}

/// The provisional margin, the outlook, and who leads tie-break 1 (+1, -1 or 0; R29).
fn judge(s: &State, player: usize) -> (i64, f64, i64) {
    let t = s.tables();
    let rules = &t.rules;
    let width = t.e;
    let demand = rules.city_demand as i64;
    let top = rules.max_value as i64;
    let fin = s.phase() == Phase::GameOver;
    let g = grid(s);
    let (mine, theirs) = (&g.value[player], &g.value[1 - player]);
    let (my_free, their_free) = (&g.free[player], &g.free[1 - player]);
    let smart = s.smart();
    let mut total = 0.0f64;
    let mut margin = 0i64;
    let mut cities = 0i64;
    let mut supplies = 0i64;
    for e in 0..width {
        let diff = mine[e] + mine[width + e] - theirs[e] - theirs[width + e];
        if diff == 0 {
            continue;
        }
        let points = if smart == Some(e) { 2 } else { 1 };
        let won = if diff > 0 { points } else { -points };
        margin += won;
        if fin || !(my_free[e] || my_free[width + e] || their_free[e] || their_free[width + e]) {
            total += won as f64;
        } else {
            total += points as f64 * (diff as f64 / 4.0).clamp(-1.0, 1.0);
        }
    }
    for row in 0..2 {
        let cells = row * width..row * width + width;
        let my_supply: i64 = mine[cells.clone()].iter().sum();
        let their_supply: i64 = theirs[cells.clone()].iter().sum();
        let city = city_points(my_supply, demand) - city_points(their_supply, demand);
        margin += city;
        cities += city;
        supplies += my_supply - their_supply;
        let my_open = if fin { 0 } else { my_free[cells.clone()].iter().filter(|&&f| f).count() as i64 };
        let their_open = if fin { 0 } else { their_free[cells].iter().filter(|&&f| f).count() as i64 };
        total += city_outlook(my_supply, my_open, demand, top);
        total -= city_outlook(their_supply, their_open, demand, top);
    }
    if !fin {
        for tech in 0..4 {
            if s.tech_hand(player) & (1 << tech) != 0 {
                total += HELD[tech];
            }
        }
        for tech in 0..4 {
            if s.tech_hand(1 - player) & (1 << tech) != 0 {
                total -= HELD[tech];
            }
        }
    }
    let lead = if rules.tiebreak == Tiebreak::Supply { supplies } else { cities };
    (margin, total, sign(lead))
}

/// The estimated final margin of `player` (settled parts exactly, open ones weighted by how
/// likely they are to end well; the exact margin at GAME_OVER).
pub fn outlook(s: &State, player: usize) -> f64 {
    judge(s, player).1
}

/// How good `s` is for `player`, in points: the provisional margin plus some outlook, and a
/// small shift to whoever would win equal totals (tie-break 1, else player 1, R29).
pub fn evaluate(s: &State, player: usize) -> f64 {
    let (margin, ahead, tiebreak) = judge(s, player);
    let tie = if tiebreak != 0 {
        TIEBREAK_WEIGHT * tiebreak as f64
    } else if player == 1 {
        SEAT_WEIGHT
    } else {
        -SEAT_WEIGHT
    };
    margin as f64 + OUTLOOK_WEIGHT * ahead + tie
}

/// The mover's view of a determinized state, for pricing many moves at little cost.
pub struct Context {
    t: &'static Tables,
    width: usize,
    demand: i64,
    top: i64,
    mine: [i64; MAX_CELLS],
    free: [bool; MAX_CELLS],
    diff: [i64; 5],
    column_free: [i64; 5],
    points: [i64; 5],
    supply: [i64; 2],
    row_free: [i64; 2],
    tolerance: [i64; 2],
    city_now: [f64; 2],
    energy_now: [f64; 5],
    points_now: [i64; 6],
}

impl Context {
    /// The view of the player to move in `s`.
    pub fn new(s: &State) -> Context {
        let t = s.tables();
        let width = t.e;
        let demand = t.rules.city_demand as i64;
        let top = t.rules.max_value as i64;
        let p = s.current_player();
        let g = grid(s);
        let mine = g.value[p];
        let free = g.free[p];
        let theirs = g.value[1 - p];
        let their_free = g.free[1 - p];
        let mut diff = [0i64; 5];
        let mut column_free = [0i64; 5];
        let mut points = [0i64; 5];
        let smart = s.smart();
        for e in 0..width {
            diff[e] = mine[e] + mine[width + e] - theirs[e] - theirs[width + e];
            column_free[e] =
                free[e] as i64 + free[width + e] as i64 + their_free[e] as i64 + their_free[width + e] as i64;
            points[e] = if smart == Some(e) { 2 } else { 1 };
        }
        let supply = [mine[..width].iter().sum(), mine[width..2 * width].iter().sum()];
        let row_free = [
            free[..width].iter().filter(|&&f| f).count() as i64,
            free[width..2 * width].iter().filter(|&&f| f).count() as i64,
        ];
        let tolerance = [s.tolerance(p, 0) as i64, s.tolerance(p, 1) as i64];
        let mut ctx = Context {
            t,
            width,
            demand,
            top,
            mine,
            free,
            diff,
            column_free,
            points,
            supply,
            row_free,
            tolerance,
            city_now: [0.0; 2],
            energy_now: [0.0; 5],
            points_now: [0; 6],
        };
        for r in 0..2 {
            ctx.city_now[r] = city_outlook(supply[r], row_free[r], demand, top);
        }
        for e in 0..width {
            ctx.energy_now[e] = ctx.energy(e, diff[e], column_free[e]);
        }
        ctx.points_now[0] = city_points(supply[0], demand) + city_points(supply[1], demand);
        for e in 0..width {
            ctx.points_now[1 + e] = points[e] * sign(diff[e]);
        }
        ctx
    }

    /// The supply of the mover's row `row` (R21).
    pub fn supply(&self, row: usize) -> i64 {
        self.supply[row]
    }

    /// The outlook term of energy `e` at generation difference `diff` (R27).
    fn energy(&self, e: usize, diff: i64, column_free: i64) -> f64 {
        if diff == 0 {
            return 0.0;
        }
        let points = self.points[e];
        if column_free == 0 {
            return if diff > 0 { points as f64 } else { -points as f64 };
        }
        let x = diff as f64 / 4.0;
        points as f64 * x.clamp(-1.0, 1.0)
    }

    /// The gain of `value` on `cell` (a card on a plant or in an empty cell; 0 for a pylon or
    /// a flip): margin change plus the weighted outlook change; over the tolerance costs a flip
    /// (R21).
    pub fn put(&self, cell: usize, value: i64) -> f64 {
        let (row, e) = (cell / self.width, cell % self.width);
        let old = self.mine[cell];
        let empty = self.free[cell] as i64;
        let supply = self.supply[row] - old + value;
        let diff = self.diff[e] - old + value;
        let points = self.points[e];
        let demand = self.demand;
        let gain = city_outlook(supply, self.row_free[row] - empty, demand, self.top) - self.city_now[row]
            + self.energy(e, diff, self.column_free[e] - empty)
            - self.energy_now[e];
        let other = self.supply[1 - row];
        let mut margin = (city_points(supply, demand) + city_points(other, demand) - self.points_now[0]
            + points * sign(diff)
            - self.points_now[1 + e]) as f64;
        if supply > self.tolerance[row] {
            margin -= OVERFLOW_COST;
        }
        margin + OUTLOOK_WEIGHT * gain
    }

    /// The gain of placing Smart on energy `e` (R20): its majority scores double.
    pub fn smart(&self, e: usize) -> f64 {
        let diff = self.diff[e];
        let gain = self.energy(e, diff, self.column_free[e]) - HELD[SMART as usize];
        sign(diff) as f64 + OUTLOOK_WEIGHT * gain
    }

    /// The outlook gain of flipping the plant on `cell` (R21).
    pub fn flip(&self, cell: usize) -> f64 {
        self.put(cell, 0)
    }

    /// The outlook gain of flipping the plants of a `FlipSet` bit set, one row, at once (R41).
    pub fn flip_set(&self, mask: u16) -> f64 {
        let cells = || cells_of(mask).map(|c| c.row as usize * self.width + c.energy as usize);
        let row = cells().next().unwrap_or(0) / self.width;
        let supply = self.supply[row] - cells().map(|c| self.mine[c]).sum::<i64>();
        let demand = self.demand;
        let mut gain = city_outlook(supply, self.row_free[row], demand, self.top) - self.city_now[row];
        let mut margin =
            (city_points(supply, demand) + city_points(self.supply[1 - row], demand) - self.points_now[0]) as f64;
        for cell in cells() {
            let e = cell % self.width;
            let diff = self.diff[e] - self.mine[cell];
            gain += self.energy(e, diff, self.column_free[e]) - self.energy_now[e];
            margin += (self.points[e] * sign(diff) - self.points_now[1 + e]) as f64;
        }
        if supply > self.tolerance[row] {
            margin -= OVERFLOW_COST;
        }
        margin + OUTLOOK_WEIGHT * gain
    }

    /// The mean `best_placement` of a multiset of cards (copies per card index).
    pub fn mean_placement(&self, counts: &[u8]) -> f64 {
        let mut total = 0.0f64;
        let mut n = 0u64;
        for (card, &copies) in counts.iter().enumerate() {
            if copies > 0 {
                total += copies as f64 * self.best_placement(card);
                n += copies as u64;
            }
        }
        total / n as f64
    }

    /// The best gain of building or improving with card index `card` now (0 if it has no use).
    pub fn best_placement(&self, card: usize) -> f64 {
        let value = self.t.value[card] as i64;
        let e = self.t.col[card] as usize;
        let mut best = 0.0f64;
        for cell in [e, self.width + e] {
            if self.free[cell] || (0 < self.mine[cell] && self.mine[cell] < value) {
                let gain = self.put(cell, value);
                if gain > best {
                    best = gain;
                }
            }
        }
        best
    }

    fn cell(&self, c: hatsuden::Cell) -> usize {
        c.row as usize * self.width + c.energy as usize
    }

    fn card(&self, c: hatsuden::Card) -> usize {
        self.t.index(c).unwrap_or(0) as usize
    }

    /// The outlook gain of one of the mover's moves, priced without applying it: a
    /// `DrawFromDiscard` by the best use of its card, a draw, a single flip or a tech decision
    /// 0, a `FlipSet` by its effect (R41).
    pub fn price(&self, m: &Move) -> f64 {
        match *m {
            Move::DrawFromDiscard { card } => self.best_placement(self.card(card)),
            Move::Construct { card, cell, .. } | Move::Improve { card, cell } | Move::Downsize { card, cell } => {
                self.put(self.cell(cell), card.value as i64)
            }
            Move::BuildPylon { card, cell } => {
                let cost = CELL_COST + CARD_COST * card.value as f64;
                self.put(self.cell(cell), 0) - OUTLOOK_WEIGHT * cost
            }
            Move::Discard { card } => -OUTLOOK_WEIGHT * (DISCARD_COST + CARD_COST * card.value as f64),
            Move::PlaceSmart { energy } => self.smart(energy as usize),
            Move::PlaceAccumulator { .. } => -OUTLOOK_WEIGHT * HELD[0],
            Move::FlipSet { cells } => self.flip_set(cells),
            _ => 0.0,
        }
    }
}

/// Whether `m` is the placement of a drawn Accumulator or Smart card (R18).
fn is_placement(m: &Move) -> bool {
    matches!(m, Move::PlaceAccumulator { .. } | Move::PlaceSmart { .. })
}

/// A cheap, sensible move for the mover of `s` in a rollout, randomised by `noise` (any
/// 64-bit value): the policy of `hatsuden_rules.players._heuristics.rollout_move`. `buf` is a
/// scratch buffer for the legal moves.
pub fn rollout_move(s: &State, noise: u64, explore: u64, buf: &mut Vec<Move>) -> Move {
    let t = s.tables();
    let phase = s.phase();
    let at_once = t.rules.tech_timing == hatsuden::TechTiming::PlaceAtOnce;
    if at_once && s.tech_hand(s.current_player()) & ((1 << hatsuden::ACCUMULATOR) | (1 << SMART)) != 0 {
        return owed_placement(s); // R40: a drawn Accumulator or Smart card is placed at once
    }
    if phase == Phase::Action {
        return rollout_action(s, noise, explore);
    }
    s.legal_moves(buf);
    if buf.len() == 1 || phase == Phase::Tech {
        return buf[0]; // DrawTech when legal (R34 order), else the only move
    }
    let ctx = Context::new(s);
    if phase == Phase::Overflow {
        let played = s.played_cell().map(|c| ctx.cell(c)).unwrap_or(0);
        let row = played / ctx.width;
        let acc = Move::PlaceAccumulator { row: row as u8 };
        if buf.contains(&acc) && ctx.supply[row] <= t.acc_tolerance as i64 {
            return acc;
        }
        let mut best: Option<(Move, f64)> = None;
        for &m in buf.iter() {
            if let Move::FlipSet { cells } = m {
                let v = ctx.flip_set(cells);
                if best.map_or(true, |(_, b)| v > b) {
                    best = Some((m, v));
                }
            }
        }
        if let Some((m, _)) = best {
            return m; // R41
        }
        for &m in buf.iter() {
            if let Move::Flip { cell } = m {
                let v = ctx.flip(ctx.cell(cell));
                if best.map_or(true, |(_, b)| v > b) {
                    best = Some((m, v));
                }
            }
        }
        return best.map(|(m, _)| m).unwrap_or(buf[0]);
    }
    let mut best: Option<Move> = None;
    let mut best_gain = 0.0f64;
    for &m in buf.iter() {
        match m {
            Move::DrawFromDiscard { card } => {
                let gain = ctx.best_placement(ctx.card(card));
                if best.is_none() || gain > best_gain {
                    best = Some(m);
                    best_gain = gain;
                }
            }
            Move::PlaceSmart { .. } if ctx.price(&m) > 0.0 => return m,
            _ => {}
        }
    }
    let Some(best) = best else {
        return buf[0]; // DrawFromDeck, or EndTurn
    };
    if s.deck_size() > 0 && best_gain <= DISCARD_MARGIN + ctx.mean_placement(s.deck_counts()) {
        return buf[0]; // DrawFromDeck comes first (R34)
    }
    best
}

/// The placement owed of a drawn Accumulator or Smart card (R40): Smart on the energy where it
/// pays most; the Accumulator on the overflowing city in OVERFLOW, else on the city with the
/// higher supply.
fn owed_placement(s: &State) -> Move {
    let ctx = Context::new(s);
    let held = s.tech_hand(s.current_player());
    if held & (1 << SMART) != 0 {
        let mut best = 0;
        let mut best_value = f64::NEG_INFINITY;
        for e in 0..ctx.width {
            let v = ctx.smart(e);
            if e == 0 || v > best_value {
                best = e;
                best_value = v;
            }
        }
        return Move::PlaceSmart { energy: best as u8 };
    }
    if let (Phase::Overflow, Some(cell)) = (s.phase(), s.played_cell()) {
        return Move::PlaceAccumulator { row: cell.row };
    }
    Move::PlaceAccumulator { row: if ctx.supply[0] >= ctx.supply[1] { 0 } else { 1 } }
}

fn rollout_action(s: &State, noise: u64, explore: u64) -> Move {
    let ctx = Context::new(s);
    let t = ctx.t;
    let p = s.current_player();
    let hand = s.hand_counts(p);
    let Some(first) = hand.iter().position(|&n| n > 0) else {
        return Move::Pass;
    };
    let width = ctx.width;
    let techs = s.tech_hand(p);
    let down = techs & (1 << DOWN) != 0;
    // At most 2 moves per distinct card, 10 pylons, a discard and Smart: no allocation.
    let mut moves = [Move::Pass; 2 * hatsuden::MAX_KINDS + MAX_CELLS + 2];
    let mut gains = [0.0f64; 2 * hatsuden::MAX_KINDS + MAX_CELLS + 2];
    let mut n = 0;
    let mut weakest = first;
    for (i, &copies) in hand.iter().enumerate() {
        if copies == 0 {
            continue;
        }
        let v = t.value[i] as i64;
        if v < t.value[weakest] as i64 {
            weakest = i;
        }
        let e = t.col[i] as usize;
        let card = t.cards[i];
        for row in 0..2 {
            let cell = row * width + e;
            let c = t.cells[cell];
            moves[n] = if ctx.free[cell] {
                Move::Construct { card, cell: c, secret: false }
            } else if 0 < ctx.mine[cell] && ctx.mine[cell] < v {
                Move::Improve { card, cell: c }
            } else if down && ctx.mine[cell] > v {
                Move::Downsize { card, cell: c }
            } else {
                continue;
            };
            gains[n] = ctx.put(cell, v);
            n += 1;
        }
    }
    let v = t.value[weakest] as f64;
    let card = t.cards[weakest];
    let pylon_cost = OUTLOOK_WEIGHT * (CELL_COST + CARD_COST * v);
    for cell in 0..2 * width {
        if ctx.free[cell] {
            moves[n] = Move::BuildPylon { card, cell: t.cells[cell] };
            gains[n] = ctx.put(cell, 0) - pylon_cost;
            n += 1;
        }
    }
    moves[n] = Move::Discard { card };
    gains[n] = -OUTLOOK_WEIGHT * (DISCARD_COST + CARD_COST * v);
    n += 1;
    if techs & (1 << SMART) != 0 {
        let mut smart = 0;
        let mut best = f64::NEG_INFINITY;
        for e in 0..width {
            let g = ctx.smart(e);
            if e == 0 || g > best {
                smart = e;
                best = g;
            }
        }
        moves[n] = Move::PlaceSmart { energy: smart as u8 };
        gains[n] = best;
        n += 1;
    }
    let draw = SplitMix64::new(noise).next();
    if explore != 0 && draw % explore == 0 {
        return moves[((draw >> 3) % n as u64) as usize];
    }
    let top = gains[..n].iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let count = gains[..n].iter().filter(|&&g| g >= top - 1e-9).count();
    let k = ((draw >> 3) % count as u64) as usize;
    let mut seen = 0;
    for i in 0..n {
        if gains[i] >= top - 1e-9 {
            if seen == k {
                return moves[i];
            }
            seen += 1;
        }
    }
    moves[0]
}

/// Whether every move of `moves` is a placement of a drawn tech card (R18, R40).
pub fn all_placements(moves: &[Move]) -> bool {
    moves.iter().all(is_placement)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hatsuden::{new_game, score, Rules};

    /// The light totals agree with the score sheet (R27-R29) on random games.
    #[test]
    fn totals_match_score() {
        let mut buf = Vec::new();
        for seed in 0..40u64 {
            let mut g = SplitMix64::new(seed);
            let mut s = new_game(&Rules::STANDARD, Some(seed)).unwrap();
            while !s.is_over() {
                let sheet = score(&s);
                let (totals, winner) = totals_and_winner(&s);
                assert_eq!(totals, [sheet.players[0].total, sheet.players[1].total]);
                assert_eq!(winner, sheet.winner);
                s.legal_moves(&mut buf);
                let m = buf[(g.next() % buf.len() as u64) as usize];
                s.apply_mut(m).unwrap();
            }
        }
    }

    #[test]
    fn city_outlook_examples() {
        assert_eq!(city_outlook(10, 0, 10, 4), 1.0);
        assert_eq!(city_outlook(8, 0, 10, 4), -1.0);
        assert_eq!(city_outlook(7, 1, 10, 4), 0.35);
    }
}
