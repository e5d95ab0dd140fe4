//! The consistency conditions 1-27 of a state (NOTATION.md "Consistency conditions of a
//! state"), in order, each reported at the part at fault.

use super::read::{Items, RawState};
use crate::error::NotationError;
use crate::moves::{Move, Seen};
use crate::rules::{Card, Cell, Tables, MAX_KINDS, TECH_CODES};
use crate::state::{
    EndReason, Log, Pending, Phase, Stack, State, DOWNSIZED, FACE_DOWN, FLIPPED, LOG_CAP, NONE, SECRET, STACK_CAP,
};

/// One step of a path to the part of a state at fault (`("hands", 1, 3)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Seg {
    K(&'static str),
    I(usize),
}

/// A consistency problem: the path of the part at fault and why.
#[derive(Clone, Debug)]
pub(crate) struct Problem {
    pub path: Vec<Seg>,
    pub message: String,
}

impl Problem {
    /// The field (first key of the path).
    pub fn field(&self) -> &'static str {
        match self.path.first() {
            Some(Seg::K(k)) => k,
            _ => "state",
        }
    }

    /// The JSON path (`$.hands[1][3]`).
    pub fn json_path(&self) -> String {
        let mut s = String::from("$");
        for seg in &self.path {
            match seg {
                Seg::K(k) => {
                    s.push('.');
                    s.push_str(k);
                }
                Seg::I(i) => s.push_str(&format!("[{i}]")),
            }
        }
        s
    }

    /// The notation error: at the most specific part of the path the line spells out, else at
    /// the field's key.
    pub fn at(&self, raw: &RawState) -> NotationError {
        use Seg::{I, K};
        let key = raw.key(self.field());
        let pos = match self.path.as_slice() {
            [K("hands" | "known_cards"), I(p), I(k), ..] => {
                let items = if self.field() == "hands" { &raw.hands } else { &raw.known };
                items.get(*p).and_then(|v| v.get(*k)).map(|x| x.1)
            }
            [K("deck"), I(k), ..] => raw.deck.get(*k).map(|x| x.1),
            [K("discards"), I(k), ..] => raw.discards.get(*k).map(|x| x.1),
            [K("tech_deck"), I(k), ..] => raw.tech_deck.get(*k).map(|x| x.1),
            [K("tech_hands"), I(p), I(k), ..] => raw.tech_hands.get(*p).and_then(|v| v.get(*k)).map(|x| x.1),
            [K("this_turn"), I(k), ..] => raw.this_turn.get(*k).map(|x| x.1),
            [K("last_turn"), I(k), ..] => raw.last_turn.get(*k).map(|x| x.1),
            [K("boards"), I(p), I(c), rest @ ..] => {
                let cell = raw.boards.get(*p).and_then(|b| b.get(*c)).and_then(|x| x.as_ref());
                match (cell, rest) {
                    (Some(rs), [K("cards"), I(k), ..]) => rs.cards.get(*k).map(|x| x.1).or(Some(rs.pos)),
                    (Some(rs), _) => Some(rs.pos),
                    (None, _) => None,
                }
            }
            _ => None,
        };
        NotationError::new(self.field(), pos.unwrap_or(key), self.message.clone())
    }
}

fn prob<T>(path: &[Seg], msg: impl Into<String>) -> Result<T, Problem> {
    Err(Problem { path: path.to_vec(), message: msg.into() })
}

fn with(path: &[Seg], more: &[Seg]) -> Vec<Seg> {
    let mut v = path.to_vec();
    v.extend_from_slice(more);
    v
}

/// Cards in play (all), then canonical order; the counts.
fn card_list(t: &Tables, path: &[Seg], items: &Items<Card>) -> Result<[u8; MAX_KINDS], Problem> {
    let mut idx = Vec::with_capacity(items.len());
    for (k, &(c, _)) in items.iter().enumerate() {
        match t.index(c) {
            Some(i) => idx.push(i),
            None => return prob(&with(path, &[Seg::I(k)]), "not a card in play under these rules (R2)"),
        }
    }
    let mut counts = [0u8; MAX_KINDS];
    for k in 0..idx.len() {
        if k > 0 && idx[k] < idx[k - 1] {
            return prob(&with(path, &[Seg::I(k)]), "cards are listed in canonical order (R2)");
        }
        counts[idx[k] as usize] = counts[idx[k] as usize].saturating_add(1);
    }
    Ok(counts)
}

fn tech_list(t: &Tables, path: &[Seg], items: &Items<u8>) -> Result<u8, Problem> {
    let mut mask = 0u8;
    let mut last: i32 = -1;
    for (k, &(x, _)) in items.iter().enumerate() {
        if t.rules.techs & (1 << x) == 0 {
            return prob(
                &with(path, &[Seg::I(k)]),
                format!("{} is not a tech card in play (R3)", TECH_CODES[x as usize]),
            );
        }
        if x as i32 <= last {
            return prob(&with(path, &[Seg::I(k)]), "tech cards are listed once each, in canonical order (R3)");
        }
        last = x as i32;
        mask |= 1 << x;
    }
    Ok(mask)
}

/// Whether a (seen) move names only cards, cells, energies and tech cards in play.
pub(crate) fn seen_in_play(t: &Tables, m: &Seen) -> bool {
    let card_ok = |c: Card| t.index(c).is_some();
    let cell_ok = |c: Cell| t.cell_index(c).is_some();
    match *m {
        Seen::Pylon(c) | Seen::Secret(c) => cell_ok(c),
        Seen::Deal | Seen::DealTech => true,
        Seen::Move(m) => match m {
            Move::Construct { card, cell, .. }
            | Move::Improve { card, cell }
            | Move::Downsize { card, cell }
            | Move::BuildPylon { card, cell } => card_ok(card) && cell_ok(cell),
            Move::Discard { card } | Move::DrawFromDiscard { card } | Move::Deal { card } => card_ok(card),
            Move::Flip { cell } => cell_ok(cell),
            Move::FlipSet { cells } => crate::moves::cells_of(cells).all(cell_ok),
            Move::PlaceSmart { energy } => (energy as usize) < t.e,
            Move::DealTech { tech } => t.rules.techs & (1 << tech) != 0,
            _ => true,
        },
    }
}

/// The consistency conditions 1-27 of NOTATION.md, in order; then the compact state.
pub(crate) fn check_state(raw: &RawState) -> Result<State, Problem> {
    use Seg::{I, K};
    let t = match raw.rules.tables() {
        Ok(t) => t,
        Err(e) => return prob(&[K("rules")], format!("{}: {}", e.field, e.message)),
    };
    let e = t.e;
    // 2
    if raw.current > 1 {
        return prob(&[K("current_player")], format!("must be 0 or 1, got {}", raw.current));
    }
    let cur = raw.current as usize;
    // 3
    let hands = [card_list(t, &[K("hands"), I(0)], &raw.hands[0])?, card_list(t, &[K("hands"), I(1)], &raw.hands[1])?];
    for p in 0..2 {
        if raw.hands[p].len() as u64 > t.rules.hand_size as u64 {
            return prob(&[K("hands"), I(p)], format!("more than hand_size={} cards", t.rules.hand_size));
        }
    }
    // 4
    let deck = card_list(t, &[K("deck")], &raw.deck)?;
    let discards = card_list(t, &[K("discards")], &raw.discards)?;
    // 5
    let mut boards = [[Stack::default(); crate::rules::MAX_CELLS]; 2];
    for p in 0..2 {
        if raw.boards[p].len() != t.ncells {
            return prob(&[K("boards"), I(p)], format!("a grid has {} cells (R4)", t.ncells));
        }
        for (c, cell) in raw.boards[p].iter().enumerate() {
            let Some(rs) = cell else { continue };
            let path = [K("boards"), I(p), I(c)];
            let col = c % e;
            if rs.cards.is_empty() {
                return prob(&with(&path, &[K("cards")]), "a stack holds at least one card (R4)");
            }
            let mut idx = Vec::with_capacity(rs.cards.len());
            for (k, &(card, _)) in rs.cards.iter().enumerate() {
                match card.and_then(|c| t.index(c)) {
                    Some(i) => idx.push(i),
                    None => {
                        return prob(&with(&path, &[K("cards"), I(k)]), "not a card in play under these rules (R2)")
                    }
                }
            }
            if rs.flags & FLIPPED != 0 && rs.flags & FACE_DOWN == 0 {
                return prob(&with(&path, &[K("flipped")]), "a flipped stack is face down (R21)");
            }
            if rs.flags & FACE_DOWN != 0 && rs.flags & FLIPPED == 0 {
                if idx.len() != 1 || rs.flags & (SECRET | DOWNSIZED) != 0 {
                    return prob(&path, "a pylon built from hand is one card, not secret or downsized (R14)");
                }
            } else {
                for (k, &i) in idx.iter().enumerate() {
                    if t.col[i as usize] as usize != col {
                        return prob(
                            &with(&path, &[K("cards"), I(k)]),
                            "a plant holds only its column's energy (R10-R13)",
                        );
                    }
                }
                let mut drops = 0;
                for k in 1..idx.len() {
                    let (below, v) = (t.value[idx[k - 1] as usize], t.value[idx[k] as usize]);
                    if v == below {
                        return prob(
                            &with(&path, &[K("cards"), I(k)]),
                            "a card never goes on an equal value (R12, R13)",
                        );
                    }
                    if v < below {
                        drops += 1;
                    }
                }
                if drops != (rs.flags & DOWNSIZED != 0) as usize {
                    return prob(
                        &with(&path, &[K("downsized")]),
                        "a downsized stack has exactly one lower card, others none (R13)",
                    );
                }
            }
            if idx.len() > STACK_CAP {
                return prob(&path, "a stack too high for this engine");
            }
            let mut st = Stack { flags: rs.flags, len: 0, cards: [0; STACK_CAP] };
            for i in idx {
                st.push(i);
            }
            boards[p][c] = st;
        }
    }
    // 6: conservation (R2)
    let mut count = [0u32; MAX_KINDS];
    let copies = t.copies as u32;
    let mut places: Vec<(Vec<Seg>, u8)> = Vec::new();
    for p in 0..2 {
        for (k, &(c, _)) in raw.hands[p].iter().enumerate() {
            places.push((vec![K("hands"), I(p), I(k)], t.index(c).unwrap_or(0)));
        }
    }
    for (k, &(c, _)) in raw.deck.iter().enumerate() {
        places.push((vec![K("deck"), I(k)], t.index(c).unwrap_or(0)));
    }
    for (k, &(c, _)) in raw.discards.iter().enumerate() {
        places.push((vec![K("discards"), I(k)], t.index(c).unwrap_or(0)));
    }
    for p in 0..2 {
        for c in 0..t.ncells {
            for (k, &i) in boards[p][c].cards().iter().enumerate() {
                places.push((vec![K("boards"), I(p), I(c), K("cards"), I(k)], i));
            }
        }
    }
    for (path, i) in places {
        count[i as usize] += 1;
        if count[i as usize] > copies {
            return prob(&path, format!("a copy too many: {copies} in the game (R2)"));
        }
    }
    if (0..t.kinds).any(|i| count[i] < copies) {
        return prob(&[K("deck")], "a card missing from deck, hands, discards and grids (R2)");
    }
    // 7
    let tech_deck = tech_list(t, &[K("tech_deck")], &raw.tech_deck)?;
    let th = [
        tech_list(t, &[K("tech_hands"), I(0)], &raw.tech_hands[0])?,
        tech_list(t, &[K("tech_hands"), I(1)], &raw.tech_hands[1])?,
    ];
    // 8, 9
    let mut accumulator = NONE;
    if let Some((p, r)) = raw.accumulator {
        if p > 1 || r > 1 {
            return prob(&[K("accumulator")], "player and row are 0 or 1");
        }
        accumulator = (p * 2 + r) as u8;
    }
    let mut smart = NONE;
    if let Some(x) = raw.smart {
        if x as usize >= e {
            return prob(&[K("smart")], "not an energy in play (R1, R20)");
        }
        smart = x;
    }
    // 10: tech conservation (R3)
    let mut places: Vec<(Vec<Seg>, u8)> = Vec::new();
    for (k, &(x, _)) in raw.tech_deck.iter().enumerate() {
        places.push((vec![K("tech_deck"), I(k)], x));
    }
    for p in 0..2 {
        for (k, &(x, _)) in raw.tech_hands[p].iter().enumerate() {
            places.push((vec![K("tech_hands"), I(p), I(k)], x));
        }
    }
    if accumulator != NONE {
        places.push((vec![K("accumulator")], crate::rules::ACCUMULATOR));
    }
    if smart != NONE {
        places.push((vec![K("smart")], crate::rules::SMART));
    }
    for p in 0..2 {
        for c in 0..t.ncells {
            let st = &boards[p][c];
            if st.len > 0 && st.flags & SECRET != 0 {
                places.push((vec![K("boards"), I(p), I(c), K("secret")], crate::rules::SECRET_BUILD));
            }
            if st.len > 0 && st.flags & DOWNSIZED != 0 {
                places.push((vec![K("boards"), I(p), I(c), K("downsized")], crate::rules::DOWN));
            }
        }
    }
    let mut placed = 0u8;
    for (path, x) in places {
        if t.rules.techs & (1 << x) == 0 {
            return prob(&path, "a tech card not in play (R3)");
        }
        if placed & (1 << x) != 0 {
            return prob(&path, "a tech card in two places; there is one (R3)");
        }
        placed |= 1 << x;
    }
    if placed != t.rules.techs {
        return prob(&[K("tech_deck")], "a tech card is nowhere (R3)");
    }
    // 11
    let mut known = [[0u8; MAX_KINDS]; 2];
    for p in 0..2 {
        known[p] = card_list(t, &[K("known_cards"), I(p)], &raw.known[p])?;
        let mut left = hands[p];
        for (k, &(c, _)) in raw.known[p].iter().enumerate() {
            let i = t.index(c).unwrap_or(0) as usize;
            if left[i] == 0 {
                return prob(&[K("known_cards"), I(p), I(k)], "not in the hand (R36)");
            }
            left[i] -= 1;
        }
    }
    // 12
    let mut played = NONE;
    if let Some(c) = raw.played {
        match t.cell_index(c) {
            Some(ci) => played = ci,
            None => return prob(&[K("played_cell")], "not an energy in play (R1)"),
        }
    }
    let mut turn_discard = NONE;
    if let Some(c) = raw.turn_discard {
        match t.index(c) {
            Some(i) => turn_discard = i,
            None => return prob(&[K("turn_discard")], "not a card in play (R2)"),
        }
    }
    let mut logs = [Log::default(), Log::default()];
    for (n, (field, items)) in [("this_turn", &raw.this_turn), ("last_turn", &raw.last_turn)].into_iter().enumerate() {
        for (k, (m, _)) in items.iter().enumerate() {
            if !seen_in_play(t, m) {
                return prob(&[K(field), I(k)], "a move with a card, cell, energy or tech card not in play");
            }
            let Seen::Move(m) = m else {
                return prob(&[K(field), I(k)], "a concealed move in a state");
            };
            if logs[n].len as usize >= LOG_CAP {
                return prob(&[K(field), I(k)], "a turn log too long for this engine");
            }
            logs[n].push(*m);
        }
    }
    // 13
    let mut rng = None;
    if let Some(g) = raw.rng {
        if g >= 1u128 << 64 {
            return prob(&[K("rng_state")], "the generator state is in [0, 2**64) (R32)");
        }
        rng = Some(g as u64);
    }
    if raw.stall > u32::MAX as u64 {
        return prob(&[K("stall_count")], "a stall counter beyond this engine's range");
    }
    let mut end_trigger = NONE;
    if let Some(p) = raw.end_trigger {
        if p > 1 {
            return prob(&[K("end_triggered_by")], "must be 0 or 1");
        }
        end_trigger = p as u8;
    }
    let phase = raw.phase;
    let pending = raw.pending;
    // 14
    if (pending != Pending::None) != (phase == Phase::Chance) {
        return prob(&[K("pending_chance")], "a chance event is pending iff the phase is CHANCE");
    }
    if rng.is_some() && pending != Pending::None {
        return prob(&[K("pending_chance")], "a seeded state is never in CHANCE (R8)");
    }
    let mover = &boards[cur];
    // 15
    if played != NONE {
        if !matches!(phase, Phase::Tech | Phase::Overflow | Phase::Draw | Phase::Chance) {
            return prob(&[K("played_cell")], format!("no card is played this turn in {}", phase.name()));
        }
        if pending == Pending::Setup {
            return prob(&[K("played_cell")], "no card is played during the deal (R7)");
        }
        if mover[played as usize].is_empty() {
            return prob(&[K("played_cell")], "the played cell is empty");
        }
    }
    // 16
    if turn_discard != NONE {
        if phase != Phase::Draw && pending != Pending::Draw {
            return prob(&[K("turn_discard")], format!("no card is discarded this turn in {}", phase.name()));
        }
        if played != NONE {
            return prob(&[K("turn_discard")], "a turn has one action: a card played or discarded");
        }
        if discards[turn_discard as usize] == 0 {
            return prob(&[K("turn_discard")], "the card discarded this turn is in the discards");
        }
    }
    // 17
    let after_action = matches!(phase, Phase::Tech | Phase::Overflow | Phase::Draw)
        || matches!(pending, Pending::Draw | Pending::Tech);
    if after_action && raw.hands[cur].len() as u64 >= t.rules.hand_size as u64 {
        return prob(&[K("hands"), I(cur)], "after the action the mover holds fewer than hand_size cards (R9, R22)");
    }
    // 18
    if matches!(phase, Phase::Tech | Phase::Overflow) || pending == Pending::Tech {
        if played == NONE {
            return prob(&[K("played_cell")], "a card is played this turn before TECH and OVERFLOW");
        }
        if mover[played as usize].flags & FACE_DOWN != 0 {
            return prob(&[K("played_cell")], "the played cell holds a pylon (R17, R21)");
        }
        if phase == Phase::Tech && tech_deck == 0 {
            return prob(&[K("tech_deck")], "TECH needs a tech card to draw (R17)");
        }
    }
    // 19
    if pending == Pending::Tech {
        if tech_deck == 0 {
            return prob(&[K("tech_deck")], "a tech card is dealt from an empty tech deck (R6)");
        }
        if t.value[mover[played as usize].top() as usize] != t.mv {
            return prob(&[K("played_cell")], format!("a tech card is drawn for a {}", t.mv));
        }
    }
    // 20
    let deck_len: u32 = deck.iter().map(|&n| n as u32).sum();
    if matches!(pending, Pending::Draw | Pending::Setup) && deck_len == 0 {
        return prob(&[K("deck")], "a card is dealt from an empty deck (R6)");
    }
    // 21
    if pending == Pending::Setup {
        let hs = t.rules.hand_size as usize;
        let (n0, n1) = (raw.hands[0].len(), raw.hands[1].len());
        let receiver = if n0 < hs { 0 } else { 1 };
        if n1 > 0 && n0 < hs {
            return prob(&[K("hands"), I(1)], "player 1 is dealt to after player 0's hand is full (R7)");
        }
        if n1 >= hs {
            return prob(&[K("pending_chance")], "both hands are complete: the deal is over (R7)");
        }
        if cur != receiver {
            return prob(&[K("current_player")], format!("player {receiver} receives the next Deal (R7)"));
        }
        let grids_empty = boards.iter().all(|b| b.iter().all(|s| s.is_empty()));
        if !raw.discards.is_empty() || !grids_empty {
            return prob(&[K("pending_chance")], "nothing is played during the deal (R7)");
        }
        if th[0] | th[1] != 0 || accumulator != NONE || smart != NONE {
            return prob(&[K("pending_chance")], "no tech card is drawn during the deal (R7)");
        }
        if raw.stall != 0 || end_trigger != NONE || !raw.known[0].is_empty() || !raw.known[1].is_empty() {
            return prob(&[K("pending_chance")], "the deal comes before any turn (R7)");
        }
        if !raw.this_turn.is_empty() || !raw.last_turn.is_empty() {
            return prob(&[K("this_turn")], "the deal is not part of any turn (R7)");
        }
    }
    // 22
    if phase == Phase::GameOver && !raw.this_turn.is_empty() {
        return prob(&[K("this_turn")], "no turn is in progress once the game is over");
    }
    let mut st = State::empty(t);
    st.phase = phase;
    st.current = cur as u8;
    st.pending = pending;
    st.end_reason = raw.end_reason;
    st.hands = hands;
    st.hand_len = [raw.hands[0].len() as u16, raw.hands[1].len() as u16];
    st.deck = deck;
    st.deck_len = deck_len as u16;
    st.discards = discards;
    st.discard_len = raw.discards.len() as u16;
    st.known = known;
    st.boards = boards;
    st.tech_deck = tech_deck;
    st.tech_hands = th;
    st.accumulator = accumulator;
    st.smart = smart;
    st.played = played;
    st.turn_discard = turn_discard;
    st.end_trigger = end_trigger;
    st.stall = raw.stall as u32;
    st.rng = rng;
    st.this_turn = logs[0];
    st.last_turn = logs[1];
    // 23
    let exceeding = matches!(phase, Phase::Tech | Phase::Overflow) || pending == Pending::Tech;
    for p in 0..2 {
        for row in 0..2 {
            let over = st.row_supply(p, row) > st.tolerance(p, row);
            let mine = exceeding && p == cur && played != NONE && played as usize / e == row;
            if over && !mine {
                return prob(&[K("boards"), I(p)], format!("row {row} supplies more than its tolerance (R21)"));
            }
            if phase == Phase::Overflow && mine && !over {
                return prob(&[K("phase")], "OVERFLOW needs the played row over tolerance (R21)");
            }
        }
    }
    // 24
    let over = phase == Phase::GameOver;
    if (raw.end_reason != EndReason::None) != over {
        return prob(&[K("end_reason")], "the game has an end reason iff it is over (R26)");
    }
    // 25
    if end_trigger != NONE {
        if boards[end_trigger as usize][..t.ncells].iter().any(|s| s.is_empty()) {
            return prob(&[K("end_triggered_by")], "only a full grid triggers the end (R24)");
        }
        if !over && end_trigger as usize == cur {
            return prob(&[K("end_triggered_by")], "the opponent plays the last turn (R24)");
        }
    }
    // 26
    if raw.end_reason == EndReason::FinalTurn && (end_trigger == NONE || end_trigger as usize != cur) {
        return prob(&[K("end_reason")], "a final turn follows the other player's trigger (R24)");
    }
    // 27
    match t.rules.stall_limit {
        None => {
            if raw.end_reason == EndReason::Stall {
                return prob(&[K("end_reason")], "no stall end without a stall limit (R25)");
            }
        }
        Some(limit) => {
            let limit = limit as u64;
            if raw.stall > limit || (!over && raw.stall == limit) {
                return prob(&[K("stall_count")], format!("the game ends when the counter reaches {limit} (R25)"));
            }
            if raw.end_reason == EndReason::Stall && raw.stall != limit {
                return prob(&[K("stall_count")], format!("a stall end comes at {limit} (R25)"));
            }
        }
    }
    Ok(st)
}
