//! Transitions: `new_game`, `legal_moves`, `chance_outcomes`, `apply` (R5-R26, R34, R35, R40,
//! R41), perft and random playouts.

use crate::error::{IllegalMove, InvalidInput};
use crate::moves::Move;
use crate::rng::SplitMix64;
use crate::rules::{
    Card, Cell, Overflow, Rules, TechTiming, ACCUMULATOR, DOWN, MAX_CELLS, MAX_KINDS, SECRET_BUILD, SMART,
};
use crate::state::{EndReason, Pending, Phase, State, DOWNSIZED, FACE_DOWN, FLIPPED, NONE, SECRET};

const AT_ONCE: u8 = (1 << ACCUMULATOR) | (1 << SMART);

/// The state before the deal (R7), or with a seed the seeded game after it (R8).
pub fn new_game(rules: &Rules, seed: Option<u64>) -> Result<State, InvalidInput> {
    let t = rules.tables()?;
    let mut s = State::empty(t);
    if let Some(seed) = seed {
        let mut g = SplitMix64::new(seed);
        for p in 0..2 {
            for _ in 0..rules.hand_size {
                // R7, R8, R33: one next() per Deal, player 0's hand first.
                let i = pick_card(&s.deck, s.deck_len, g.next());
                s.deck[i] -= 1;
                s.deck_len -= 1;
                s.hands[p][i] += 1;
                s.hand_len[p] += 1;
            }
        }
        s.phase = Phase::Action;
        s.pending = Pending::None;
        s.rng = Some(g.state);
    }
    Ok(s)
}

/// The card index at position `value mod size` of the sorted deck (R33: cumulative weights).
#[inline]
fn pick_card(deck: &[u8], size: u16, value: u64) -> usize {
    let mut r = (value % size as u64) as u32;
    for (i, &n) in deck.iter().enumerate() {
        if (n as u32) > r {
            return i;
        }
        r -= n as u32;
    }
    0
}

#[inline]
fn pick_tech(deck: u8, value: u64) -> u8 {
    let n = deck.count_ones() as u64;
    let mut r = value % n;
    for t in 0..4u8 {
        if deck & (1 << t) != 0 {
            if r == 0 {
                return t;
            }
            r -= 1;
        }
    }
    0
}

impl State {
    #[inline]
    fn card_of(&self, i: usize) -> Card {
        self.t.card(i as u8)
    }
    #[inline]
    fn cell_of(&self, c: usize) -> Cell {
        self.t.cell(c as u8)
    }

    /// Every legal move, in canonical order (R34), appended to `out` (cleared first).
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        let p = self.current as usize;
        let t = self.t;
        let free = matches!(self.phase, Phase::Action | Phase::Overflow | Phase::Draw);
        if free && t.rules.tech_timing == TechTiming::PlaceAtOnce && self.tech_hands[p] & AT_ONCE != 0 {
            self.placements(out); // R40
            return;
        }
        match self.phase {
            Phase::Action => self.action_moves(out),
            Phase::Tech => {
                let top = self.boards[p][self.played as usize].top();
                if t.value[top as usize] == t.mv {
                    out.push(Move::DrawTech);
                }
                out.push(Move::DeclineTech);
            }
            Phase::Overflow => self.overflow_moves(out),
            Phase::Draw => {
                if self.deck_len > 0 {
                    out.push(Move::DrawFromDeck);
                }
                if self.discard_len > 0 {
                    for i in 0..t.kinds {
                        if self.takeable(i) > 0 {
                            out.push(Move::DrawFromDiscard { card: self.card_of(i) });
                        }
                    }
                }
                if out.is_empty() {
                    out.push(Move::EndTurn);
                }
                self.placements(out);
            }
            Phase::Chance => {
                if self.pending == Pending::Tech {
                    for tech in 0..4 {
                        if self.tech_deck & (1 << tech) != 0 {
                            out.push(Move::DealTech { tech });
                        }
                    }
                } else {
                    for i in 0..t.kinds {
                        if self.deck[i] > 0 {
                            out.push(Move::Deal { card: self.card_of(i) });
                        }
                    }
                }
            }
            Phase::GameOver => {}
        }
        #[cfg(feature = "fault-injection")]
        if self.phase == Phase::Draw && crate::fault::is(crate::fault::Fault::MovesReversed) {
            out.reverse();
        }
    }

    /// Whether `m` is among the legal moves.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves_vec().contains(&m)
    }

    /// The legal moves as a new vector.
    pub fn legal_moves_vec(&self) -> Vec<Move> {
        let mut v = Vec::with_capacity(64);
        self.legal_moves(&mut v);
        v
    }

    fn placements(&self, out: &mut Vec<Move>) {
        let held = self.tech_hands[self.current as usize];
        if held & (1 << ACCUMULATOR) != 0 {
            out.push(Move::PlaceAccumulator { row: 0 });
            out.push(Move::PlaceAccumulator { row: 1 });
        }
        if held & (1 << SMART) != 0 {
            for e in 0..self.t.e as u8 {
                out.push(Move::PlaceSmart { energy: e });
            }
        }
    }

    fn action_moves(&self, out: &mut Vec<Move>) {
        let t = self.t;
        let p = self.current as usize;
        let hand = &self.hands[p];
        let board = &self.boards[p];
        let e = t.e;
        let secret = self.tech_hands[p] & (1 << SECRET_BUILD) != 0;
        let down = self.tech_hands[p] & (1 << DOWN) != 0;
        // The distinct cards of the hand and the empty cells, once (canonical order, R34).
        let mut distinct = [0u8; MAX_KINDS];
        let nd = distinct_cards(hand, &mut distinct);
        let distinct = &distinct[..nd];
        let mut empty = [0u8; MAX_CELLS];
        let mut ne = 0;
        for c in 0..t.ncells {
            empty[ne] = c as u8;
            ne += board[c].is_empty() as usize;
        }
        let empty = &empty[..ne];
        out.reserve(nd * (ne + 8) + 16);
        // R10, R11: Constructs by card, cell, secret.
        for &i in distinct {
            let col = t.col[i as usize] as usize;
            let card = t.cards[i as usize];
            for c in [col, e + col] {
                if board[c].is_empty() {
                    let cell = t.cells[c];
                    out.push(Move::Construct { card, cell, secret: false });
                    if secret {
                        out.push(Move::Construct { card, cell, secret: true });
                    }
                }
            }
        }
        // R12, R13: Improves, then Downsizes.
        for pass in 0..1 + down as usize {
            for &i in distinct {
                let col = t.col[i as usize] as usize;
                let v = t.value[i as usize];
                for c in [col, e + col] {
                    let st = &board[c];
                    if st.is_plant() {
                        let top = t.value[st.top() as usize];
                        if pass == 0 && top < v {
                            out.push(Move::Improve { card: t.cards[i as usize], cell: t.cells[c] });
                        } else if pass == 1 && top > v {
                            out.push(Move::Downsize { card: t.cards[i as usize], cell: t.cells[c] });
                        }
                    }
                }
            }
        }
        // R14: pylons.
        for &i in distinct {
            let card = t.cards[i as usize];
            out.extend(empty.iter().map(|&c| Move::BuildPylon { card, cell: t.cells[c as usize] }));
        }
        // R15, R16.
        for &i in distinct {
            out.push(Move::Discard { card: t.cards[i as usize] });
        }
        if self.hand_len[p] == 0 {
            out.push(Move::Pass);
        }
        self.placements(out);
    }

    /// `legal_moves[r mod n]` in ACTION without listing the moves (the same move: the kinds
    /// are counted in canonical order, R34). None outside ACTION or with a placement due (R40).
    pub fn pick_action(&self, r: u64) -> Option<Move> {
        let t = self.t;
        let p = self.current as usize;
        if self.phase != Phase::Action
            || (t.rules.tech_timing == TechTiming::PlaceAtOnce && self.tech_hands[p] & AT_ONCE != 0)
        {
            return None;
        }
        let hand = &self.hands[p];
        let board = &self.boards[p];
        let e = t.e;
        let held = self.tech_hands[p];
        let secret = held & (1 << SECRET_BUILD) != 0;
        let down = held & (1 << DOWN) != 0;
        let mut distinct = [0u8; MAX_KINDS];
        let nd = distinct_cards(hand, &mut distinct);
        let distinct = &distinct[..nd];
        let mut empty = [0u8; MAX_CELLS];
        let mut ne = 0;
        for c in 0..t.ncells {
            empty[ne] = c as u8;
            ne += board[c].is_empty() as usize;
        }
        let empty = &empty[..ne];
        // Counts per kind, in canonical order.
        let per_build = 1 + secret as usize;
        let mut builds = 0;
        let mut improves = 0;
        let mut downsizes = 0;
        for &i in distinct {
            let col = t.col[i as usize] as usize;
            let v = t.value[i as usize];
            for c in [col, e + col] {
                let st = &board[c];
                if st.is_empty() {
                    builds += per_build;
                } else if st.flags & FACE_DOWN == 0 {
                    let top = t.value[st.top() as usize];
                    improves += (top < v) as usize;
                    downsizes += (down && top > v) as usize;
                }
            }
        }
        let pylons = nd * ne;
        let pass = (self.hand_len[p] == 0) as usize;
        let acc = if held & (1 << ACCUMULATOR) != 0 { 2 } else { 0 };
        let smart = if held & (1 << SMART) != 0 { e } else { 0 };
        let n = builds + improves + downsizes + pylons + nd + pass + acc + smart;
        let mut k = (r % n as u64) as usize;
        if k < builds {
            for &i in distinct {
                let col = t.col[i as usize] as usize;
                for c in [col, e + col] {
                    if board[c].is_empty() {
                        if k < per_build {
                            return Some(Move::Construct {
                                card: t.cards[i as usize],
                                cell: t.cells[c],
                                secret: k == 1,
                            });
                        }
                        k -= per_build;
                    }
                }
            }
        }
        k -= builds;
        for (count, lower) in [(improves, false), (downsizes, true)] {
            if k < count {
                for &i in distinct {
                    let col = t.col[i as usize] as usize;
                    let v = t.value[i as usize];
                    for c in [col, e + col] {
                        let st = &board[c];
                        if st.is_plant() {
                            let top = t.value[st.top() as usize];
                            if (!lower && top < v) || (lower && top > v) {
                                if k == 0 {
                                    let (card, cell) = (t.cards[i as usize], t.cells[c]);
                                    return Some(if lower {
                                        Move::Downsize { card, cell }
                                    } else {
                                        Move::Improve { card, cell }
                                    });
                                }
                                k -= 1;
                            }
                        }
                    }
                }
            }
            k -= count;
        }
        if k < pylons {
            let (i, c) = (distinct[k / ne], empty[k % ne]);
            return Some(Move::BuildPylon { card: t.cards[i as usize], cell: t.cells[c as usize] });
        }
        k -= pylons;
        if k < nd {
            return Some(Move::Discard { card: t.cards[distinct[k] as usize] });
        }
        k -= nd;
        if k < pass {
            return Some(Move::Pass);
        }
        k -= pass;
        if k < acc {
            return Some(Move::PlaceAccumulator { row: k as u8 });
        }
        k -= acc;
        Some(Move::PlaceSmart { energy: k as u8 })
    }

    fn overflow_moves(&self, out: &mut Vec<Move>) {
        let t = self.t;
        let p = self.current as usize;
        let e = t.e;
        let played = self.played as usize;
        let row = played / e;
        let start = row * e;
        let board = &self.boards[p];
        if t.rules.overflow == Overflow::AnySet {
            // R41: every set of the row's other plants that suffices.
            let mut plants = 0u16;
            let mut values = [0u64; 5];
            let mut supply = 0u64;
            for col in 0..e {
                let st = &board[start + col];
                if st.is_plant() {
                    values[col] = t.value[st.top() as usize] as u64;
                    supply += values[col];
                    if start + col != played {
                        plants |= 1 << col;
                    }
                }
            }
            let excess = supply.saturating_sub(self.tolerance(p, row));
            for &mask in &t.flip_set_order {
                if mask & !plants == 0 {
                    let sum: u64 = (0..e).filter(|c| mask & (1 << c) != 0).map(|c| values[c]).sum();
                    if sum >= excess {
                        let cells = (mask as u32) << (row * 5);
                        out.push(Move::FlipSet { cells: cells as u16 });
                    }
                }
            }
        } else {
            for c in start..start + e {
                if c != played && board[c].is_plant() {
                    out.push(Move::Flip { cell: self.cell_of(c) });
                }
            }
        }
        self.placements(out);
    }

    /// The chance outcomes with integer weights (copies left, 1 per tech), canonical order
    /// (R6, R33). Err outside CHANCE.
    pub fn chance_weights(&self) -> Result<Vec<(Move, u64)>, InvalidInput> {
        if self.phase != Phase::Chance {
            return Err(InvalidInput::new(
                "state",
                format!("R6: chance outcomes exist only in the CHANCE phase, not {}", self.phase.name()),
            ));
        }
        let mut v = Vec::new();
        if self.pending == Pending::Tech {
            for tech in 0..4 {
                if self.tech_deck & (1 << tech) != 0 {
                    v.push((Move::DealTech { tech }, 1));
                }
            }
        } else {
            for i in 0..self.t.kinds {
                if self.deck[i] > 0 {
                    v.push((Move::Deal { card: self.card_of(i) }, self.deck[i] as u64));
                }
            }
        }
        Ok(v)
    }

    /// The chance outcomes with exact probabilities `(p, q)` in lowest terms, summing to 1 (R6).
    pub fn chance_outcomes(&self) -> Result<Vec<(Move, u64, u64)>, InvalidInput> {
        let w = self.chance_weights()?;
        let total: u64 = w.iter().map(|x| x.1).sum();
        Ok(w.into_iter()
            .map(|(m, n)| {
                let g = gcd(n, total);
                (m, n / g, total / g)
            })
            .collect())
    }

    /// The state after `m` (R9-R26); the input is unchanged. In seeded mode a chance event the
    /// move causes is resolved at once (R8).
    pub fn apply(&self, m: Move) -> Result<State, IllegalMove> {
        let mut s = *self;
        s.apply_mut(m)?;
        Ok(s)
    }

    /// `apply` in place: on error the state is left unchanged (every check comes first).
    pub fn apply_mut(&mut self, m: Move) -> Result<(), IllegalMove> {
        if self.phase == Phase::GameOver {
            return Err(IllegalMove::new("R26", "the game is over: no move is legal"));
        }
        let p = self.current as usize;
        let t = self.t;
        if t.rules.tech_timing == TechTiming::PlaceAtOnce
            && matches!(self.phase, Phase::Action | Phase::Overflow | Phase::Draw)
            && !matches!(m, Move::PlaceAccumulator { .. } | Move::PlaceSmart { .. })
            && self.tech_hands[p] & AT_ONCE != 0
        {
            return Err(IllegalMove::new("R40", "a drawn Accumulator or Smart must be placed first (PLACE_AT_ONCE)"));
        }
        match m {
            Move::Construct { card, cell, secret } => {
                self.need_phase(Phase::Action, "ACTION")?;
                let (i, c) = self.card_cell(card, cell)?;
                if self.hands[p][i] == 0 {
                    return Err(IllegalMove::new("R10", format!("{} is not in the hand", m_card(card))));
                }
                if t.col[i] as usize != c % t.e {
                    return Err(IllegalMove::new("R10", "a card is built only in its energy's column"));
                }
                if !self.boards[p][c].is_empty() {
                    return Err(IllegalMove::new("R10", "the cell is occupied: Construct needs an empty cell"));
                }
                if secret && self.tech_hands[p] & (1 << SECRET_BUILD) == 0 {
                    return Err(IllegalMove::new("R11", "a secret Construct needs Secret Build in the tech hand"));
                }
                self.take_from_hand(p, i);
                let st = &mut self.boards[p][c];
                st.push(i as u8);
                if secret {
                    st.flags |= SECRET;
                    self.tech_hands[p] &= !(1 << SECRET_BUILD);
                }
                let tech = secret || t.value[i] == t.mv; // R17 (a), (b)
                self.placed(p, c, i, m, secret, if tech { Some(Phase::Tech) } else { None });
            }
            Move::Improve { card, cell } => {
                self.need_phase(Phase::Action, "ACTION")?;
                let (i, c) = self.card_cell(card, cell)?;
                if self.hands[p][i] == 0 {
                    return Err(IllegalMove::new("R12", format!("{} is not in the hand", m_card(card))));
                }
                self.plant_at(p, c, "R12", "Improve")?;
                if t.col[i] as usize != c % t.e {
                    return Err(IllegalMove::new("R12", "Improve needs a card of the plant's energy"));
                }
                let top = self.boards[p][c].top() as usize;
                if t.value[i] <= t.value[top] {
                    return Err(IllegalMove::new(
                        "R12",
                        format!(
                            "Improve needs a strictly higher value than the top card ({} on {})",
                            t.value[i], t.value[top]
                        ),
                    ));
                }
                self.take_from_hand(p, i);
                self.boards[p][c].push(i as u8);
                let tech = t.value[i] == t.mv;
                self.placed(p, c, i, m, false, if tech { Some(Phase::Tech) } else { None });
            }
            Move::Downsize { card, cell } => {
                self.need_phase(Phase::Action, "ACTION")?;
                let (i, c) = self.card_cell(card, cell)?;
                if self.tech_hands[p] & (1 << DOWN) == 0 {
                    return Err(IllegalMove::new("R13", "Downsize needs Down in the tech hand"));
                }
                if self.hands[p][i] == 0 {
                    return Err(IllegalMove::new("R13", format!("{} is not in the hand", m_card(card))));
                }
                self.plant_at(p, c, "R13", "Downsize")?;
                if t.col[i] as usize != c % t.e {
                    return Err(IllegalMove::new("R13", "Downsize needs a card of the plant's energy"));
                }
                let top = self.boards[p][c].top() as usize;
                if t.value[i] >= t.value[top] {
                    return Err(IllegalMove::new(
                        "R13",
                        format!(
                            "Downsize needs a strictly lower value than the top card ({} on {})",
                            t.value[i], t.value[top]
                        ),
                    ));
                }
                self.take_from_hand(p, i);
                self.tech_hands[p] &= !(1 << DOWN);
                let st = &mut self.boards[p][c];
                st.flags |= DOWNSIZED;
                st.push(i as u8);
                self.placed(p, c, i, m, false, Some(Phase::Draw)); // R13: never raises the row
            }
            Move::BuildPylon { card, cell } => {
                self.need_phase(Phase::Action, "ACTION")?;
                let (i, c) = self.card_cell(card, cell)?;
                if self.hands[p][i] == 0 {
                    return Err(IllegalMove::new("R14", format!("{} is not in the hand", m_card(card))));
                }
                if !self.boards[p][c].is_empty() {
                    return Err(IllegalMove::new("R14", "the cell is occupied: a pylon needs an empty cell"));
                }
                self.take_from_hand(p, i);
                let st = &mut self.boards[p][c];
                st.flags = FACE_DOWN;
                st.push(i as u8);
                self.placed(p, c, i, m, true, Some(Phase::Draw));
            }
            Move::Discard { card } => {
                self.need_phase(Phase::Action, "ACTION")?;
                let i = self.card_index(card)?;
                if self.hands[p][i] == 0 {
                    return Err(IllegalMove::new("R15", format!("{} is not in the hand", m_card(card))));
                }
                #[cfg(feature = "fault-injection")]
                let keep = crate::fault::is(crate::fault::Fault::DiscardKeepsCard);
                #[cfg(not(feature = "fault-injection"))]
                let keep = false;
                if !keep {
                    self.take_from_hand(p, i);
                }
                self.discards[i] += 1;
                self.discard_len += 1;
                self.turn_discard = i as u8;
                if self.known[p][i] > 0 {
                    self.known[p][i] -= 1; // R36
                }
                self.phase = Phase::Draw;
                self.this_turn.push(m);
            }
            Move::Pass => {
                self.need_phase(Phase::Action, "ACTION")?;
                if self.hand_len[p] > 0 {
                    return Err(IllegalMove::new("R16", "Pass is legal only with an empty hand"));
                }
                self.phase = Phase::Draw;
                self.this_turn.push(m);
            }
            Move::DrawTech => {
                self.need_phase(Phase::Tech, "TECH")?;
                let top = self.boards[p][self.played as usize].top() as usize;
                if t.value[top] != t.mv {
                    return Err(IllegalMove::new(
                        "R17",
                        format!("a tech card is drawn only for a {}; the only choice is DeclineTech", t.mv),
                    ));
                }
                self.this_turn.push(m);
                match self.rng {
                    None => {
                        self.phase = Phase::Chance;
                        self.pending = Pending::Tech;
                    }
                    Some(state) => {
                        let mut g = SplitMix64::new(state);
                        let tech = pick_tech(self.tech_deck, g.next()); // R8, R33
                        self.rng = Some(g.state);
                        self.this_turn.push(Move::DealTech { tech });
                        self.receive_tech(p, tech);
                    }
                }
            }
            Move::DeclineTech => {
                self.need_phase(Phase::Tech, "TECH")?;
                self.this_turn.push(m);
                self.phase = self.settle(p);
            }
            Move::DealTech { tech } => {
                if self.pending != Pending::Tech {
                    return Err(IllegalMove::new("R6", "no tech card is being drawn now"));
                }
                if tech > 3 || self.tech_deck & (1 << tech) == 0 {
                    return Err(IllegalMove::new("R17", "that tech card is not in the tech deck"));
                }
                self.this_turn.push(m);
                self.pending = Pending::None;
                self.receive_tech(p, tech);
            }
            Move::Flip { cell } => {
                self.need_phase(Phase::Overflow, "OVERFLOW")?;
                if t.rules.overflow == Overflow::AnySet {
                    return Err(IllegalMove::new(
                        "R41",
                        "with overflow=ANY_SET the plants to flip are chosen at once: play a FlipSet",
                    ));
                }
                let c = self.cell_index(cell)?;
                let played = self.played as usize;
                if c / t.e != played / t.e {
                    return Err(IllegalMove::new("R21", "only a plant in the overflowing row flips"));
                }
                if c == played {
                    return Err(IllegalMove::new("R21", "the plant just played can never be the one flipped"));
                }
                self.plant_at(p, c, "R21", "Flip")?;
                self.boards[p][c].flags |= FACE_DOWN | FLIPPED;
                self.phase = self.settle(p);
                self.this_turn.push(m);
            }
            Move::FlipSet { cells } => {
                self.need_phase(Phase::Overflow, "OVERFLOW")?;
                if t.rules.overflow != Overflow::AnySet {
                    return Err(IllegalMove::new(
                        "R41",
                        "a FlipSet is the overflow move of overflow=ANY_SET; flip one plant at a time",
                    ));
                }
                let played = self.played as usize;
                let mut idx = [0usize; 10];
                let mut n = 0;
                let mut flipped_value = 0u64;
                for cell in crate::moves::cells_of(cells) {
                    let c = self.cell_index(cell)?;
                    if c / t.e != played / t.e {
                        return Err(IllegalMove::new("R41", "only plants of the overflowing row flip"));
                    }
                    if c == played {
                        return Err(IllegalMove::new("R41", "the plant just played can never be one of those flipped"));
                    }
                    self.plant_at(p, c, "R41", "FlipSet")?;
                    flipped_value += t.value[self.boards[p][c].top() as usize] as u64;
                    idx[n] = c;
                    n += 1;
                }
                let row = played / t.e;
                let left = self.row_supply(p, row) - flipped_value;
                if left > self.tolerance(p, row) {
                    return Err(IllegalMove::new(
                        "R41",
                        format!(
                            "flipping these plants leaves row {row} at {left}, over its tolerance {}",
                            self.tolerance(p, row)
                        ),
                    ));
                }
                for &c in &idx[..n] {
                    self.boards[p][c].flags |= FACE_DOWN | FLIPPED;
                }
                self.phase = Phase::Draw;
                self.this_turn.push(m);
            }
            Move::PlaceAccumulator { row } => {
                if row > 1 {
                    return Err(IllegalMove::new("R18", "a row is 0 or 1"));
                }
                self.free_phase(p, ACCUMULATOR, "ACCUMULATOR")?;
                self.tech_hands[p] &= !(1 << ACCUMULATOR);
                self.accumulator = (p as u8) * 2 + row;
                if self.phase == Phase::Overflow {
                    self.phase = self.settle(p); // R19, R21
                }
                self.this_turn.push(m);
            }
            Move::PlaceSmart { energy } => {
                if energy as usize >= t.e {
                    return Err(IllegalMove::new("R1", "that energy is not in play under these rules"));
                }
                self.free_phase(p, SMART, "SMART")?;
                self.tech_hands[p] &= !(1 << SMART);
                self.smart = energy;
                self.this_turn.push(m);
            }
            Move::DrawFromDeck => {
                self.need_phase(Phase::Draw, "DRAW")?;
                if self.deck_len == 0 {
                    return Err(IllegalMove::new("R22", "the deck is empty (there is no reshuffle)"));
                }
                self.this_turn.push(m);
                match self.rng {
                    None => {
                        self.phase = Phase::Chance;
                        self.pending = Pending::Draw;
                    }
                    Some(state) => {
                        let mut g = SplitMix64::new(state);
                        let i = pick_card(&self.deck[..t.kinds], self.deck_len, g.next()); // R8, R33
                        self.rng = Some(g.state);
                        self.deck[i] -= 1;
                        self.deck_len -= 1;
                        self.hands[p][i] += 1;
                        self.hand_len[p] += 1;
                        self.this_turn.push(Move::Deal { card: self.card_of(i) });
                        self.end_turn(p);
                    }
                }
            }
            Move::DrawFromDiscard { card } => {
                self.need_phase(Phase::Draw, "DRAW")?;
                let i = self.card_index(card)?;
                if self.discards[i] == 0 {
                    return Err(IllegalMove::new("R22", format!("{} is not in the discards", m_card(card))));
                }
                if self.takeable(i) == 0 {
                    return Err(IllegalMove::new(
                        "R22",
                        "the card discarded this turn cannot be taken back (allow_retake_discard=False)",
                    ));
                }
                self.discards[i] -= 1;
                self.discard_len -= 1;
                self.hands[p][i] += 1;
                self.hand_len[p] += 1;
                self.known[p][i] += 1; // R36: seen taken
                self.this_turn.push(m);
                self.end_turn(p);
            }
            Move::EndTurn => {
                self.need_phase(Phase::Draw, "DRAW")?;
                if self.deck_len > 0 || (0..t.kinds).any(|i| self.takeable(i) > 0) {
                    return Err(IllegalMove::new("R22", "EndTurn only when no card can be drawn; draw one"));
                }
                self.this_turn.push(m);
                self.end_turn(p);
            }
            Move::Deal { card } => {
                if !matches!(self.pending, Pending::Setup | Pending::Draw) {
                    return Err(IllegalMove::new("R6", "no plant card is being dealt now"));
                }
                let i = self.card_index(card)?;
                if self.deck[i] == 0 {
                    return Err(IllegalMove::new("R6", format!("no {} is left in the deck", m_card(card))));
                }
                self.deck[i] -= 1;
                self.deck_len -= 1;
                self.hands[p][i] += 1;
                self.hand_len[p] += 1;
                if self.pending == Pending::Draw {
                    self.pending = Pending::None;
                    self.this_turn.push(m);
                    self.end_turn(p);
                } else if (self.hand_len[p] as u32) < t.rules.hand_size {
                    // R7: the receiver's hand is not complete yet
                } else if p == 0 {
                    self.current = 1;
                } else {
                    self.current = 0;
                    self.phase = Phase::Action;
                    self.pending = Pending::None;
                }
            }
        }
        Ok(())
    }

    fn need_phase(&self, phase: Phase, name: &str) -> Result<(), IllegalMove> {
        if self.phase == phase {
            Ok(())
        } else {
            Err(IllegalMove::new("R9", format!("a {name} move, but the phase is {}", self.phase.name())))
        }
    }

    fn free_phase(&self, p: usize, tech: u8, name: &str) -> Result<(), IllegalMove> {
        if !matches!(self.phase, Phase::Action | Phase::Overflow | Phase::Draw) {
            return Err(IllegalMove::new(
                "R18",
                format!("tech cards are placed in ACTION, OVERFLOW or DRAW, not {}", self.phase.name()),
            ));
        }
        if self.tech_hands[p] & (1 << tech) == 0 {
            return Err(IllegalMove::new("R18", format!("{name} is not in the tech hand")));
        }
        Ok(())
    }

    fn card_index(&self, card: Card) -> Result<usize, IllegalMove> {
        self.t
            .index(card)
            .map(|i| i as usize)
            .ok_or_else(|| IllegalMove::new("R2", format!("{} is not a card in play under these rules", m_card(card))))
    }

    fn cell_index(&self, cell: Cell) -> Result<usize, IllegalMove> {
        self.t
            .cell_index(cell)
            .map(|c| c as usize)
            .ok_or_else(|| IllegalMove::new("R1", "the cell is in a column of an energy not in play"))
    }

    fn card_cell(&self, card: Card, cell: Cell) -> Result<(usize, usize), IllegalMove> {
        Ok((self.card_index(card)?, self.cell_index(cell)?))
    }

    fn plant_at(&self, p: usize, c: usize, rule: &'static str, verb: &str) -> Result<(), IllegalMove> {
        let st = &self.boards[p][c];
        if st.is_empty() {
            return Err(IllegalMove::new(rule, format!("{verb} needs a plant, and the cell is empty")));
        }
        if st.flags & FACE_DOWN != 0 {
            return Err(IllegalMove::new(rule, format!("{verb} needs a plant, and the cell is a pylon")));
        }
        Ok(())
    }

    #[inline]
    fn take_from_hand(&mut self, p: usize, i: usize) {
        self.hands[p][i] -= 1;
        self.hand_len[p] -= 1;
    }

    /// OVERFLOW while the played row exceeds its tolerance, else DRAW (R19, R21).
    #[inline]
    fn settle(&self, p: usize) -> Phase {
        let row = self.played as usize / self.t.e;
        if self.row_supply(p, row) > self.tolerance(p, row) {
            Phase::Overflow
        } else {
            Phase::Draw
        }
    }

    /// After an action put card `i` on cell `c` (R9): tech check (R17), overflow check (R21),
    /// known cards (R36), log.
    fn placed(&mut self, p: usize, c: usize, i: usize, m: Move, hidden: bool, next: Option<Phase>) {
        self.played = c as u8;
        let known = &mut self.known[p];
        if hidden {
            for k in known.iter_mut() {
                *k = k.saturating_sub(1); // R36: one copy fewer of each distinct known card
            }
        } else if known[i] > 0 {
            known[i] -= 1;
        }
        self.this_turn.push(m);
        self.phase = match next {
            Some(Phase::Tech) if self.tech_deck != 0 => Phase::Tech,
            Some(Phase::Draw) => Phase::Draw,
            _ => self.settle(p),
        };
    }

    fn receive_tech(&mut self, p: usize, tech: u8) {
        self.tech_deck &= !(1 << tech);
        self.tech_hands[p] |= 1 << tech;
        self.phase = self.settle(p);
    }

    /// End of turn (R23-R26).
    fn end_turn(&mut self, p: usize) {
        let t = self.t;
        self.stall = if self.played != NONE { 0 } else { self.stall.saturating_add(1) };
        #[cfg(feature = "fault-injection")]
        if crate::fault::is(crate::fault::Fault::StallCapped) && self.stall > 1 {
            self.stall = 1;
        }
        let mut over = EndReason::None;
        if self.end_trigger != NONE {
            over = EndReason::FinalTurn; // R24
        } else if self.boards[p][..t.ncells].iter().all(|s| !s.is_empty()) {
            self.end_trigger = p as u8;
        }
        if over == EndReason::None {
            if let Some(limit) = t.rules.stall_limit {
                if self.stall >= limit {
                    over = EndReason::Stall; // R25
                }
            }
        }
        self.current = 1 - p as u8;
        self.end_reason = over;
        self.phase = if over == EndReason::None { Phase::Action } else { Phase::GameOver };
        self.pending = Pending::None;
        self.played = NONE;
        self.turn_discard = NONE;
        self.last_turn = self.this_turn;
        self.this_turn.clear();
    }

    /// Perft (R34): the number of move paths of each length 1..=depth (chance outcomes count
    /// as moves).
    pub fn perft(&self, depth: usize) -> Vec<u64> {
        let mut counts = vec![0u64; depth];
        let mut bufs: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
        perft_rec(self, 0, depth, &mut counts, &mut bufs);
        counts
    }

    /// Perft divided by first move: `(move, paths of length depth starting with it)`.
    pub fn perft_divide(&self, depth: usize) -> Vec<(Move, u64)> {
        let moves = self.legal_moves_vec();
        moves
            .into_iter()
            .map(|m| {
                let n = if depth <= 1 {
                    1
                } else {
                    match self.apply(m) {
                        Ok(next) => *next.perft(depth - 1).last().unwrap_or(&0),
                        Err(_) => 0,
                    }
                };
                (m, n)
            })
            .collect()
    }

    /// A random playout to the end (or `max_plies`), every choice drawn with the portable
    /// sampler (R33) from `g`: a uniform pick among the legal moves, chance outcomes by their
    /// weights. Returns the final state and the number of plies.
    pub fn playout(&self, g: &mut SplitMix64, max_plies: usize, buf: &mut Vec<Move>) -> (State, usize) {
        let mut s = *self;
        let mut plies = 0;
        while s.phase != Phase::GameOver && plies < max_plies {
            let m = if s.phase == Phase::Chance {
                let idx = if s.pending == Pending::Tech {
                    pick_tech(s.tech_deck, g.next())
                } else {
                    pick_card(&s.deck[..s.t.kinds], s.deck_len, g.next()) as u8
                };
                if s.pending == Pending::Tech {
                    Move::DealTech { tech: idx }
                } else {
                    Move::Deal { card: s.t.card(idx) }
                }
            } else {
                let r = g.next();
                match s.pick_action(r) {
                    Some(m) => m,
                    None => {
                        s.legal_moves(buf);
                        buf[(r % buf.len() as u64) as usize]
                    }
                }
            };
            if s.apply_mut(m).is_err() {
                break;
            }
            plies += 1;
        }
        (s, plies)
    }
}

/// The card indices present in a multiset, in canonical order; returns how many.
#[inline]
fn distinct_cards(counts: &[u8; MAX_KINDS], out: &mut [u8; MAX_KINDS]) -> usize {
    // A bit per card, eight counts at a time (unused slots are 0): a byte's top bit is set iff
    // it is not 0 (the low seven bits plus 0x7f carry into it, or it was set), and the product
    // gathers bit 8i+7 of the word into bit 56+i, each pair of bits landing apart (no carries).
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let mut mask = 0u64;
    for (k, chunk) in counts.chunks_exact(8).enumerate() {
        let x = u64::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3], chunk[4], chunk[5], chunk[6], chunk[7]]);
        let nonzero = (((x & LOW7) + LOW7) | x) & !LOW7;
        mask |= ((nonzero >> 7).wrapping_mul(GATHER) >> 56) << (8 * k);
    }
    let mut nd = 0;
    while mask != 0 {
        out[nd] = mask.trailing_zeros() as u8;
        mask &= mask - 1;
        nd += 1;
    }
    nd
}

fn perft_rec(s: &State, level: usize, depth: usize, counts: &mut [u64], bufs: &mut [Vec<Move>]) {
    let mut buf = std::mem::take(&mut bufs[level]);
    s.legal_moves(&mut buf);
    counts[level] += buf.len() as u64;
    if level + 1 < depth {
        for &m in &buf {
            let mut next = *s;
            if next.apply_mut(m).is_ok() {
                perft_rec(&next, level + 1, depth, counts, bufs);
            }
        }
    }
    bufs[level] = buf;
}

fn m_card(c: Card) -> String {
    let mut s = String::new();
    crate::moves::push_card(&mut s, c);
    s
}

/// Greatest common divisor.
pub fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_cards_finds_every_nonzero_count() {
        // Counts of every byte value at every slot, one slot at a time and mixed (R2 multisets).
        let mut g = SplitMix64::new(20);
        for case in 0..4000 {
            let mut counts = [0u8; MAX_KINDS];
            if case < 256 * 2 {
                counts[(case * 7) % MAX_KINDS] = (case % 256) as u8;
            } else {
                for c in counts.iter_mut() {
                    *c = match g.next() % 4 {
                        0 => 0,
                        1 => 1,
                        2 => 0x80,
                        _ => g.next() as u8,
                    };
                }
            }
            let mut out = [0u8; MAX_KINDS];
            let n = distinct_cards(&counts, &mut out);
            let expected: Vec<u8> = (0..MAX_KINDS as u8).filter(|&i| counts[i as usize] != 0).collect();
            assert_eq!(&out[..n], &expected[..], "{counts:?}");
        }
    }
}
