//! Observations (R30, R36, R37), the observation tensor (R39) and `sample_state` (R38).

use crate::error::{InvalidInput, NotationError};
use crate::moves::{Move, Seen};
use crate::notation::{
    push_accumulator, push_counts, push_flags, push_opt_card, push_opt_cell, push_opt_player, push_smart, push_techs,
    read_board, read_cards, read_digit, read_end_reason, read_log, read_pending, read_phase, read_techs, slash,
    space_key, Items, RawStack,
};
use crate::rng::SplitMix64;
use crate::rules::{
    read_rules, Card, Cell, Tables, TechTiming, ACCUMULATOR, DOWN, MAX_CELLS, MAX_KINDS, SECRET_BUILD, SMART,
};
use crate::scan::Scanner;
use crate::state::{
    EndReason, Log, Pending, Phase, Stack, State, DOWNSIZED, FACE_DOWN, FLIPPED, NONE, SECRET, STACK_CAP,
};

/// A card index not seen by the observer.
pub const UNSEEN: u8 = u8::MAX;

/// What player `player` knows of a game (R37). Cards of `boards` are card indices, or
/// [`UNSEEN`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Observation {
    /// The tables of the rule set.
    pub t: &'static Tables,
    /// The observer.
    pub player: usize,
    /// Phase.
    pub phase: Phase,
    /// Player to move.
    pub current_player: usize,
    /// Own hand, counts per card index.
    pub hand: [u8; MAX_KINDS],
    /// Own tech hand (bit set).
    pub tech_hand: u8,
    /// `known[p]`: the observer's cards the opponent knows (R36).
    pub known_to_opponent: [u8; MAX_KINDS],
    /// `known[q]`: the opponent's known cards (R36).
    pub opponent_known: [u8; MAX_KINDS],
    /// Counts.
    pub opponent_hand_size: u32,
    /// Counts.
    pub opponent_tech_hand_size: u32,
    /// Counts.
    pub deck_size: u32,
    /// Counts.
    pub tech_deck_size: u32,
    /// Every discard.
    pub discards: [u8; MAX_KINDS],
    /// Both grids as seen (seat order).
    pub boards: [[Stack; MAX_CELLS]; 2],
    /// NONE or player * 2 + row.
    pub accumulator: u8,
    /// NONE or an energy.
    pub smart: u8,
    /// NONE or a cell index.
    pub played: u8,
    /// NONE or a card index.
    pub turn_discard: u8,
    /// Pending chance.
    pub pending: Pending,
    /// Stall counter.
    pub stall_count: u64,
    /// NONE or a player.
    pub end_trigger: u8,
    /// End reason.
    pub end_reason: EndReason,
    /// The logs as seen.
    pub this_turn: Vec<Seen>,
    /// The logs as seen.
    pub last_turn: Vec<Seen>,
}

fn seen_log(log: &[Move], owner: usize, p: usize) -> Vec<Seen> {
    log.iter()
        .map(|&m| {
            if owner == p {
                return Seen::Move(m);
            }
            match m {
                Move::BuildPylon { cell, .. } => Seen::Pylon(cell),
                Move::Construct { cell, secret: true, .. } => Seen::Secret(cell),
                Move::Deal { .. } => Seen::Deal,
                Move::DealTech { .. } => Seen::DealTech,
                m => Seen::Move(m),
            }
        })
        .collect()
}

/// Player p's observation of the state (R37); `p` is 0 or 1 (taken mod 2).
pub fn observe(s: &State, p: usize) -> Observation {
    let mut o = observe_without_logs(s, p);
    let cur = s.current as usize;
    o.this_turn = seen_log(s.this_turn.moves(), cur, o.player);
    o.last_turn = seen_log(s.last_turn.moves(), 1 - cur, o.player);
    o
}

/// Player p's observation of the state (R37) with both turn logs left empty: all that the
/// observation tensor (R39) reads, without allocating (the learning environments' hot path).
pub fn observe_without_logs(s: &State, p: usize) -> Observation {
    let p = p & 1;
    let t = s.t;
    let q = 1 - p;
    let mut boards = s.boards;
    for st in boards[q].iter_mut().take(t.ncells) {
        if st.is_empty() {
            continue;
        }
        if st.flags & FACE_DOWN != 0 && st.flags & FLIPPED == 0 {
            st.cards[0] = UNSEEN; // R14: a pylon built from hand
        } else if st.flags & SECRET != 0 {
            let revealed = s.phase == Phase::GameOver && st.len == 1 && st.flags & FACE_DOWN == 0;
            if !revealed {
                st.cards[0] = UNSEEN; // R11, R26, R30
            }
        }
    }
    let cur = s.current as usize;
    Observation {
        t,
        player: p,
        phase: s.phase,
        current_player: cur,
        hand: s.hands[p],
        tech_hand: s.tech_hands[p],
        known_to_opponent: s.known[p],
        opponent_known: s.known[q],
        opponent_hand_size: s.hand_len[q] as u32,
        opponent_tech_hand_size: s.tech_hands[q].count_ones(),
        deck_size: s.deck_len as u32,
        tech_deck_size: s.tech_deck.count_ones(),
        discards: s.discards,
        boards,
        accumulator: s.accumulator,
        smart: s.smart,
        played: s.played,
        turn_discard: s.turn_discard,
        pending: s.pending,
        stall_count: s.stall as u64,
        end_trigger: s.end_trigger,
        end_reason: s.end_reason,
        this_turn: Vec::new(),
        last_turn: Vec::new(),
    }
}

fn push_seen_board(s: &mut String, t: &Tables, board: &[Stack]) {
    for (c, st) in board.iter().enumerate().take(t.ncells) {
        if c > 0 {
            s.push(if c == t.e { ';' } else { ',' });
        }
        if st.is_empty() {
            s.push('.');
        } else {
            push_flags(s, st.flags);
            for (k, &i) in st.cards().iter().enumerate() {
                if k > 0 {
                    s.push('+');
                }
                if i == UNSEEN {
                    s.push('?');
                } else {
                    crate::moves::push_card(s, t.card(i));
                }
            }
        }
    }
}

fn push_seen_log(s: &mut String, log: &[Seen]) {
    s.push('[');
    for (k, m) in log.iter().enumerate() {
        if k > 0 {
            s.push_str(", ");
        }
        m.write(s);
    }
    s.push(']');
}

/// The observation in notation (NOTATION.md "Observations").
pub fn format_observation(o: &Observation) -> String {
    let t = o.t;
    let mut s = String::with_capacity(512);
    s.push_str("rules=");
    s.push_str(&t.rules.format());
    s.push_str(&format!(" player={} phase={} current_player={}", o.player, o.phase.name(), o.current_player));
    s.push_str(" hand=");
    push_counts(&mut s, t, &o.hand);
    s.push_str(" tech_hand=");
    push_techs(&mut s, o.tech_hand);
    s.push_str(" known_to_opponent=");
    push_counts(&mut s, t, &o.known_to_opponent);
    s.push_str(" opponent_known=");
    push_counts(&mut s, t, &o.opponent_known);
    s.push_str(&format!(
        " opponent_hand_size={} opponent_tech_hand_size={} deck_size={} tech_deck_size={}",
        o.opponent_hand_size, o.opponent_tech_hand_size, o.deck_size, o.tech_deck_size
    ));
    s.push_str(" discards=");
    push_counts(&mut s, t, &o.discards);
    s.push_str(" boards=");
    push_seen_board(&mut s, t, &o.boards[0]);
    s.push('/');
    push_seen_board(&mut s, t, &o.boards[1]);
    s.push_str(" accumulator=");
    push_accumulator(&mut s, o.accumulator);
    s.push_str(" smart=");
    push_smart(&mut s, o.smart);
    s.push_str(" played_cell=");
    push_opt_cell(&mut s, t, o.played);
    s.push_str(" turn_discard=");
    push_opt_card(&mut s, t, o.turn_discard);
    s.push_str(" pending_chance=");
    s.push_str(o.pending.name());
    s.push_str(&format!(" stall_count={}", o.stall_count));
    s.push_str(" end_triggered_by=");
    push_opt_player(&mut s, o.end_trigger);
    s.push_str(" end_reason=");
    s.push_str(o.end_reason.name());
    s.push_str(" this_turn=");
    push_seen_log(&mut s, &o.this_turn);
    s.push_str(" last_turn=");
    push_seen_log(&mut s, &o.last_turn);
    s
}

/// Copies of each card index whose place the observer does not know (R38).
pub fn unseen_counts(o: &Observation) -> Result<[u8; MAX_KINDS], InvalidInput> {
    let t = o.t;
    let mut counts = [0i32; MAX_KINDS];
    for c in counts.iter_mut().take(t.kinds) {
        *c = t.copies as i32;
    }
    let mut take = |i: usize, n: i32, field: &str| -> Result<(), InvalidInput> {
        counts[i] -= n;
        if counts[i] < 0 {
            return Err(InvalidInput::new(field, "more copies are seen than exist (R2)"));
        }
        Ok(())
    };
    for i in 0..t.kinds {
        take(i, o.hand[i] as i32, "hand")?;
    }
    for i in 0..t.kinds {
        take(i, o.discards[i] as i32, "discards")?;
    }
    for i in 0..t.kinds {
        take(i, o.opponent_known[i] as i32, "opponent_known")?;
    }
    for b in &o.boards {
        for st in b.iter().take(t.ncells) {
            for &i in st.cards() {
                if i != UNSEEN {
                    take(i as usize, 1, "boards")?;
                }
            }
        }
    }
    let mut out = [0u8; MAX_KINDS];
    for i in 0..t.kinds {
        out[i] = counts[i] as u8;
    }
    Ok(out)
}

fn unseen_techs(o: &Observation) -> Vec<u8> {
    let mut used = o.tech_hand;
    if o.accumulator != NONE {
        used |= 1 << ACCUMULATOR;
    }
    if o.smart != NONE {
        used |= 1 << SMART;
    }
    for b in &o.boards {
        for st in b.iter().take(o.t.ncells) {
            if st.len > 0 && st.flags & SECRET != 0 {
                used |= 1 << SECRET_BUILD;
            }
            if st.len > 0 && st.flags & DOWNSIZED != 0 {
                used |= 1 << DOWN;
            }
        }
    }
    (0..4u8).filter(|x| o.t.rules.techs & (1 << x) != 0 && used & (1 << x) == 0).collect()
}

/// The segments of the observation tensor (R39) under `rules`, in order: `(name, size)`.
pub fn observation_tensor_layout(t: &Tables) -> Vec<(&'static str, usize)> {
    let (k, c) = (t.kinds, t.ncells);
    vec![
        ("phase", 6),
        ("to_move", 1),
        ("seat", 1),
        ("hand", k),
        ("tech_hand", 4),
        ("known_to_opponent", k),
        ("opponent_known", k),
        ("sizes", 4),
        ("discards", k),
        ("unseen", k),
        ("my_board", 8 * c),
        ("opponent_board", 8 * c),
        ("accumulator", 4),
        ("smart", t.e),
        ("played_cell", c),
        ("turn_discard", k),
        ("pending_chance", 3),
        ("stall", 1),
        ("end_trigger", 2),
        ("end_reason", 2),
    ]
}

/// Entries of the observation tensor (R39) at most, under any rule set: 28 fixed, 6 per card
/// kind, 17 per cell and one per energy ([`observation_tensor_layout`]).
pub const MAX_OBSERVATION_TENSOR: usize = 28 + 6 * MAX_KINDS + 17 * MAX_CELLS + MAX_CELLS / 2;

/// The observation tensor (R39): a flat list of ints, layout as R39 lists it (323 in STANDARD).
pub fn observation_tensor(o: &Observation) -> Vec<i64> {
    let mut v = vec![0; MAX_OBSERVATION_TENSOR];
    let n = write_observation_tensor(o, &mut v, |x| x);
    v.truncate(n);
    v
}

/// Write the observation tensor (R39) of `o` into the start of `out` (at least
/// [`MAX_OBSERVATION_TENSOR`] entries, or the rule set's size), each entry converted by
/// `entry`, and give its length: the entries of [`observation_tensor`] (`entry` the identity),
/// or their float32 values straight into a learning environment's row (`|x| x as f32`),
/// without allocating.
pub fn write_observation_tensor<T>(o: &Observation, out: &mut [T], entry: impl Fn(i64) -> T) -> usize {
    let t = o.t;
    let k = t.kinds;
    let me = o.player & 1;
    let them = 1 - me;
    let mut n = 0usize;
    let mut push = |x: i64| {
        out[n] = entry(x);
        n += 1;
    };
    fn one_hot(push: &mut impl FnMut(i64), len: usize, at: Option<usize>) {
        for i in 0..len {
            push((Some(i) == at) as i64);
        }
    }
    one_hot(&mut push, 6, Some(o.phase as usize));
    push((o.current_player == me) as i64);
    push(me as i64);
    o.hand[..k].iter().for_each(|&c| push(i64::from(c)));
    for x in 0..4 {
        push((o.tech_hand & (1 << x) != 0) as i64);
    }
    o.known_to_opponent[..k].iter().for_each(|&c| push(i64::from(c)));
    o.opponent_known[..k].iter().for_each(|&c| push(i64::from(c)));
    push(o.opponent_hand_size as i64);
    push(o.opponent_tech_hand_size as i64);
    push(o.deck_size as i64);
    push(o.tech_deck_size as i64);
    o.discards[..k].iter().for_each(|&c| push(i64::from(c)));
    let unseen = unseen_counts(o).unwrap_or([0; MAX_KINDS]);
    unseen[..k].iter().for_each(|&c| push(i64::from(c)));
    for seat in [me, them] {
        for st in o.boards[seat].iter().take(t.ncells) {
            if st.is_empty() {
                (0..8).for_each(|_| push(0));
                continue;
            }
            let top = st.top();
            let value = if st.flags & FACE_DOWN != 0 {
                0
            } else if top == UNSEEN {
                -1
            } else {
                i64::from(t.value[top as usize])
            };
            push(1);
            push((st.flags & FACE_DOWN != 0) as i64);
            push((st.flags & FLIPPED != 0) as i64);
            push((st.flags & SECRET != 0) as i64);
            push((st.flags & DOWNSIZED != 0) as i64);
            push(value);
            push(if top == UNSEEN { 0 } else { i64::from(top) + 1 });
            push(i64::from(st.len));
        }
    }
    let acc = o.accumulator;
    for (pl, row) in [(me, 0), (me, 1), (them, 0), (them, 1)] {
        push((acc != NONE && acc == (pl as u8) * 2 + row) as i64);
    }
    one_hot(&mut push, t.e, (o.smart != NONE).then_some(o.smart as usize));
    one_hot(&mut push, t.ncells, (o.played != NONE).then_some(o.played as usize));
    one_hot(&mut push, k, (o.turn_discard != NONE).then_some(o.turn_discard as usize));
    one_hot(&mut push, 3, (o.pending as usize).checked_sub(1));
    push(o.stall_count as i64);
    push((o.end_trigger != NONE && o.end_trigger as usize == me) as i64);
    push((o.end_trigger != NONE && o.end_trigger as usize == them) as i64);
    one_hot(&mut push, 2, (o.end_reason as usize).checked_sub(1));
    n
}

fn shuffle(items: &mut [u8], g: &mut SplitMix64) {
    for i in (1..items.len()).rev() {
        let j = (g.next() % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

fn flipped_cells(m: &Seen, t: &Tables) -> Vec<u8> {
    match m {
        Seen::Move(Move::Flip { cell }) => t.cell_index(*cell).into_iter().collect(),
        Seen::Move(Move::FlipSet { cells }) => crate::moves::cells_of(*cells).filter_map(|c| t.cell_index(c)).collect(),
        _ => Vec::new(),
    }
}

fn stack_value(t: &Tables, st: &Stack) -> Option<u64> {
    if st.flags & FACE_DOWN != 0 {
        return Some(0);
    }
    let top = st.top();
    (top != UNSEEN).then(|| t.value[top as usize] as u64)
}

fn overflow_bound(o: &Observation, log: &[Seen], seat: usize, cell: usize) -> u64 {
    let t = o.t;
    let e = t.e;
    let row = cell / e;
    let board = &o.boards[seat];
    let secret = &board[cell];
    let mut low = 1u64;
    for (n, m) in log.iter().enumerate() {
        let cells = flipped_cells(m, t);
        if cells.is_empty() || cells[0] as usize / e != row {
            continue;
        }
        let from_here: Vec<u8> = log[n..].iter().flat_map(|m| flipped_cells(m, t)).collect();
        if secret.flags & FACE_DOWN != 0 && !from_here.contains(&(cell as u8)) {
            continue;
        }
        let mut rest = 0u64;
        for other in row * e..row * e + e {
            let st = &board[other];
            if other == cell || st.is_empty() {
                continue;
            }
            let top = st.top();
            if top != UNSEEN && (st.flags & FACE_DOWN == 0 || from_here.contains(&(other as u8))) {
                rest += t.value[top as usize] as u64;
            }
        }
        let placed_later = log[n + 1..]
            .iter()
            .any(|m| matches!(m, Seen::Move(Move::PlaceAccumulator { row: r }) if *r as usize == row));
        let tol =
            if o.accumulator == (seat as u8) * 2 + row as u8 && !placed_later { t.acc_tolerance } else { t.tolerance };
        low = low.max((tol + 1).saturating_sub(rest));
    }
    low
}

fn secret_fits(o: &Observation, seat: usize, cell: usize) -> Vec<bool> {
    let t = o.t;
    let e = t.e;
    let (column, row) = (cell % e, cell / e);
    let st = &o.boards[seat][cell];
    let above: Vec<u64> =
        st.cards()[1..].iter().filter(|&&i| i != UNSEEN).map(|&i| t.value[i as usize] as u64).collect();
    let mut low = 1u64;
    let mut high = t.mv as u64;
    if !above.is_empty() {
        let increasing = above.windows(2).all(|w| w[0] < w[1]);
        if st.flags & DOWNSIZED != 0 && increasing {
            low = above[0] + 1;
        } else {
            high = above[0].saturating_sub(1);
        }
    } else if st.flags & FACE_DOWN == 0 {
        let mut rest = 0u64;
        for other in row * e..row * e + e {
            let os = &o.boards[seat][other];
            if other != cell && !os.is_empty() && os.flags & FACE_DOWN == 0 {
                rest += stack_value(t, os).unwrap_or(0);
            }
        }
        let tol = if o.accumulator == (seat as u8) * 2 + row as u8 { t.acc_tolerance } else { t.tolerance };
        let in_play = seat == o.current_player && o.played != NONE && o.played as usize / e == row;
        if in_play && o.phase == Phase::Overflow {
            low = low.max((tol + 1).saturating_sub(rest));
        } else if !(in_play && (o.phase == Phase::Tech || o.pending == Pending::Tech)) {
            high = high.min(tol.saturating_sub(rest));
        }
    }
    for (log, mover) in [(&o.this_turn, o.current_player), (&o.last_turn, 1 - o.current_player)] {
        if mover != seat {
            continue;
        }
        for w in log.windows(2) {
            if let (Seen::Secret(c), Seen::Move(Move::DrawTech)) = (&w[0], &w[1]) {
                if t.cell_index(*c) == Some(cell as u8) {
                    low = low.max(t.mv as u64);
                }
            }
        }
        if above.is_empty() {
            low = low.max(overflow_bound(o, log, seat, cell));
        }
    }
    (0..t.kinds).map(|i| t.col[i] as usize == column && low <= t.value[i] as u64 && t.value[i] as u64 <= high).collect()
}

/// A state drawn uniformly among those consistent with `o`, by the exact procedure of R38;
/// `g` goes on after the draws. The result is seeded with `g` (explicit in CHANCE).
pub fn sample_state(o: &Observation, g: &mut SplitMix64) -> Result<State, InvalidInput> {
    let t = o.t;
    if o.player > 1 || o.current_player > 1 {
        return Err(InvalidInput::new("player", "players are 0 and 1"));
    }
    let p = o.player;
    let q = 1 - p;
    let mut counts = unseen_counts(o)?;
    let mut hidden: Vec<(usize, usize, usize)> = Vec::new();
    let mut secret: Option<(usize, usize)> = None;
    for (seat, b) in o.boards.iter().enumerate() {
        for (cell, st) in b.iter().enumerate().take(t.ncells) {
            for (pos, &i) in st.cards().iter().enumerate() {
                if i == UNSEEN {
                    if seat == p {
                        return Err(InvalidInput::new("boards", "a player sees all of their own cards"));
                    }
                    if st.flags & SECRET != 0 && pos == 0 {
                        secret = Some((seat, cell));
                    } else {
                        hidden.push((seat, cell, pos));
                    }
                }
            }
        }
    }
    let known_q: u32 = o.opponent_known[..t.kinds].iter().map(|&n| n as u32).sum();
    if o.opponent_hand_size < known_q {
        return Err(InvalidInput::new("observation", "more known cards than the hand holds"));
    }
    let unknown_hand = (o.opponent_hand_size - known_q) as usize;
    let slots = unknown_hand + hidden.len() + secret.is_some() as usize + o.deck_size as usize;
    let total: usize = counts[..t.kinds].iter().map(|&n| n as usize).sum();
    if total != slots {
        return Err(InvalidInput::new("observation", "the unseen cards cannot fill the hidden places (R2)"));
    }
    let mut boards = o.boards;
    if let Some((seat, cell)) = secret {
        let fits = secret_fits(o, seat, cell);
        let weights: Vec<u64> = (0..t.kinds).map(|i| if fits[i] { counts[i] as u64 } else { 0 }).collect();
        let Some(i) = g.sample(&weights) else {
            return Err(InvalidInput::new("observation", "no unseen card fits the secret plant"));
        };
        boards[seat][cell].cards[0] = i as u8;
        counts[i] -= 1;
    }
    let mut pool: Vec<u8> = Vec::with_capacity(total);
    for i in 0..t.kinds {
        for _ in 0..counts[i] {
            pool.push(i as u8);
        }
    }
    shuffle(&mut pool, g);
    let drawn_hand = &pool[..unknown_hand];
    for (k, &(seat, cell, pos)) in hidden.iter().enumerate() {
        boards[seat][cell].cards[pos] = pool[unknown_hand + k];
    }
    let mut deck = [0u8; MAX_KINDS];
    for &i in &pool[unknown_hand + hidden.len()..] {
        deck[i as usize] += 1;
    }
    let techs = unseen_techs(o);
    let k = o.opponent_tech_hand_size as usize;
    if techs.len() != k + o.tech_deck_size as usize {
        return Err(InvalidInput::new("observation", "the unseen tech cards cannot fill the tech hand and deck"));
    }
    let at_once = |x: u8| x == ACCUMULATOR || x == SMART;
    let limit = if t.rules.tech_timing == TechTiming::PlaceAtOnce {
        let drawing = o.current_player != o.player
            && matches!(o.phase, Phase::Overflow | Phase::Draw)
            && matches!(o.this_turn.last(), Some(Seen::DealTech));
        Some(if drawing { 1 } else { 0 })
    } else {
        None
    };
    if let Some(l) = limit {
        if k > l + techs.iter().filter(|&&x| !at_once(x)).count() {
            return Err(InvalidInput::new("observation", "the opponent's tech hand cannot be filled (R40)"));
        }
    }
    let order = loop {
        let mut order: Vec<u8> = (0..techs.len() as u8).collect();
        shuffle(&mut order, g);
        match limit {
            Some(l) if order[..k].iter().filter(|&&i| at_once(techs[i as usize])).count() > l => continue,
            _ => break order,
        }
    };
    let their_techs: u8 = order[..k].iter().fold(0, |m, &i| m | (1 << techs[i as usize]));
    let tech_deck: u8 = order[k..].iter().fold(0, |m, &i| m | (1 << techs[i as usize]));
    let mut their_hand = o.opponent_known;
    for &i in drawn_hand {
        their_hand[i as usize] += 1;
    }
    let mut s = State::empty(t);
    s.phase = o.phase;
    s.current = o.current_player as u8;
    s.pending = o.pending;
    s.end_reason = o.end_reason;
    s.hands[p] = o.hand;
    s.hands[q] = their_hand;
    s.hand_len[p] = o.hand[..t.kinds].iter().map(|&n| n as u16).sum();
    s.hand_len[q] = o.opponent_hand_size as u16;
    s.deck = deck;
    s.deck_len = o.deck_size as u16;
    s.discards = o.discards;
    s.discard_len = o.discards[..t.kinds].iter().map(|&n| n as u16).sum();
    s.known[p] = o.known_to_opponent;
    s.known[q] = o.opponent_known;
    s.boards = boards;
    s.tech_deck = tech_deck;
    s.tech_hands[p] = o.tech_hand;
    s.tech_hands[q] = their_techs;
    s.accumulator = o.accumulator;
    s.smart = o.smart;
    s.played = o.played;
    s.turn_discard = o.turn_discard;
    s.stall = o.stall_count as u32;
    s.end_trigger = o.end_trigger;
    let first_drawn = drawn_hand.first().copied();
    let unseal = |log: &[Seen], seat: usize| -> Result<Log, InvalidInput> {
        let mut out = Log::default();
        for (n, m) in log.iter().enumerate() {
            let mv = match *m {
                Seen::Move(m) => m,
                Seen::Deal => match first_drawn {
                    Some(i) => Move::Deal { card: t.card(i) },
                    None => return Err(InvalidInput::new("last_turn", "a card was dealt to an empty hand")),
                },
                Seen::DealTech => Move::DealTech { tech: dealt_tech(their_techs, &log[n + 1..], limit.is_some())? },
                Seen::Pylon(cell) | Seen::Secret(cell) => {
                    let c = t.cell_index(cell).ok_or_else(|| InvalidInput::new("this_turn", "cell not in play"))?;
                    let st = &boards[seat][c as usize];
                    if st.is_empty() {
                        return Err(InvalidInput::new("this_turn", "a concealed move on an empty cell"));
                    }
                    let card = t.card(st.cards[0]);
                    if matches!(m, Seen::Pylon(_)) {
                        Move::BuildPylon { card, cell }
                    } else {
                        Move::Construct { card, cell: Cell { row: cell.row, energy: card.energy }, secret: true }
                    }
                }
            };
            out.push(mv);
        }
        Ok(out)
    };
    // What the engine relies on (NOTATION.md conditions 15 and 18), for observations built by
    // hand rather than read: a played cell is a cell of the grid, and TECH, OVERFLOW and a
    // pending tech draw have a played plant.
    if o.played != NONE && o.played as usize >= t.ncells {
        return Err(InvalidInput::new("played_cell", "not a cell in play"));
    }
    // The messages are the reference's (`build_state`), which `read_observation` reports at
    // `played_cell`, as the reference does.
    let needs_plant = matches!(o.phase, Phase::Tech | Phase::Overflow) || o.pending == Pending::Tech;
    if needs_plant {
        if o.played == NONE {
            let phase = o.phase.name().to_ascii_uppercase();
            return Err(InvalidInput::new("played_cell", format!("{phase} follows a card played this turn")));
        }
        let st = &s.boards[o.current_player][o.played as usize];
        if st.is_empty() {
            return Err(InvalidInput::new("played_cell", "the played cell is empty"));
        }
        if !st.is_plant() {
            return Err(InvalidInput::new("played_cell", "the played cell holds a pylon (R17, R21)"));
        }
    }
    s.this_turn = unseal(&o.this_turn, o.current_player)?;
    s.last_turn = unseal(&o.last_turn, 1 - o.current_player)?;
    if o.phase != Phase::Chance {
        s.rng = Some(g.state);
    }
    Ok(s)
}

fn dealt_tech(held: u8, later: &[Seen], at_once: bool) -> Result<u8, InvalidInput> {
    if at_once {
        match later.first() {
            Some(Seen::Move(Move::PlaceAccumulator { .. })) => return Ok(ACCUMULATOR),
            Some(Seen::Move(Move::PlaceSmart { .. })) => return Ok(SMART),
            _ => {}
        }
        for x in [ACCUMULATOR, SMART] {
            if held & (1 << x) != 0 {
                return Ok(x);
            }
        }
    }
    for x in 0..4 {
        if held & (1 << x) != 0 {
            return Ok(x);
        }
    }
    for m in later {
        match m {
            Seen::Move(Move::PlaceAccumulator { .. }) => return Ok(ACCUMULATOR),
            Seen::Move(Move::PlaceSmart { .. }) => return Ok(SMART),
            Seen::Move(Move::Downsize { .. }) => return Ok(DOWN),
            Seen::Secret(_) => return Ok(SECRET_BUILD),
            _ => {}
        }
    }
    Err(InvalidInput::new("this_turn", "a tech card was dealt that the opponent cannot hold"))
}

// -- reading an observation -------------------------------------------------------------------

/// An observation reading error: the notation error and the JSON path of the same problem.
pub(crate) struct ObsErr {
    pub e: NotationError,
    pub path: String,
}

impl From<NotationError> for ObsErr {
    fn from(e: NotationError) -> Self {
        let path = format!("$.{}", e.field);
        ObsErr { e, path }
    }
}

fn nerr<T>(path: impl Into<String>, field: &str, pos: usize, msg: impl Into<String>) -> Result<T, ObsErr> {
    Err(ObsErr { e: NotationError::new(field, pos, msg), path: path.into() })
}

fn counts_of(t: &Tables, field: &str, items: &Items<Card>) -> Result<[u8; MAX_KINDS], ObsErr> {
    let mut counts = [0u8; MAX_KINDS];
    let mut last = -1i32;
    for (k, &(c, p)) in items.iter().enumerate() {
        if t.index(c).is_none() {
            return nerr(format!("$.{field}[{k}]"), field, p, "not a card in play (R2)");
        }
    }
    for (k, &(c, p)) in items.iter().enumerate() {
        let i = t.index(c).unwrap_or(0);
        if (i as i32) < last {
            return nerr(format!("$.{field}[{k}]"), field, p, "cards are listed in canonical order (R2)");
        }
        last = i as i32;
        counts[i as usize] = counts[i as usize].saturating_add(1);
    }
    Ok(counts)
}

/// Read an observation in notation. The line is read completely and its own structure is
/// checked (see PORT_NOTES.md: the completion check of NOTATION.md is partly implemented).
pub fn parse_observation(text: &str) -> Result<Observation, NotationError> {
    read_observation(text).map_err(|e| e.e)
}

pub(crate) fn read_observation(text: &str) -> Result<Observation, ObsErr> {
    let chars: Vec<char> = text.chars().collect();
    let mut sc = Scanner::new(&chars, "rules");
    let mut keys: Vec<(&'static str, usize)> = Vec::new();
    keys.push(("rules", sc.key("rules")?));
    let rules = read_rules(&mut sc)?;
    let t = rules.tables().map_err(|e| ObsErr {
        e: NotationError::new("rules", 0, format!("{}: {}", e.field, e.message)),
        path: "$.rules".into(),
    })?;
    keys.push(("player", space_key(&mut sc, "player")?));
    let player = read_digit(&mut sc)?;
    keys.push(("phase", space_key(&mut sc, "phase")?));
    let phase = read_phase(&mut sc)?;
    keys.push(("current_player", space_key(&mut sc, "current_player")?));
    let current = read_digit(&mut sc)?;
    keys.push(("hand", space_key(&mut sc, "hand")?));
    let hand = read_cards(&mut sc)?;
    keys.push(("tech_hand", space_key(&mut sc, "tech_hand")?));
    let tech_start = sc.pos;
    let tech_hand = read_techs(&mut sc)?;
    keys.push(("known_to_opponent", space_key(&mut sc, "known_to_opponent")?));
    let kto = read_cards(&mut sc)?;
    keys.push(("opponent_known", space_key(&mut sc, "opponent_known")?));
    let ok = read_cards(&mut sc)?;
    let mut nums = [0u64; 4];
    for (k, key) in
        ["opponent_hand_size", "opponent_tech_hand_size", "deck_size", "tech_deck_size"].into_iter().enumerate()
    {
        keys.push((key, space_key(&mut sc, key)?));
        nums[k] = sc.number(9)?;
    }
    keys.push(("discards", space_key(&mut sc, "discards")?));
    let discards = read_cards(&mut sc)?;
    keys.push(("boards", space_key(&mut sc, "boards")?));
    let b0 = read_board(&mut sc, t.e, true)?;
    slash(&mut sc)?;
    let b1 = read_board(&mut sc, t.e, true)?;
    keys.push(("accumulator", space_key(&mut sc, "accumulator")?));
    let accumulator = if sc.eat('-') {
        None
    } else {
        let a = read_digit(&mut sc)?;
        sc.expect(':')?;
        Some((a, read_digit(&mut sc)?))
    };
    keys.push(("smart", space_key(&mut sc, "smart")?));
    let smart = if sc.eat('-') { None } else { Some(crate::moves::read_energy(&mut sc, None)?) };
    keys.push(("played_cell", space_key(&mut sc, "played_cell")?));
    let played = if sc.eat('-') { None } else { Some(crate::moves::read_cell(&mut sc, None)?) };
    keys.push(("turn_discard", space_key(&mut sc, "turn_discard")?));
    let turn_discard = if sc.eat('-') { None } else { Some(crate::moves::read_card(&mut sc, None)?) };
    keys.push(("pending_chance", space_key(&mut sc, "pending_chance")?));
    let pending = read_pending(&mut sc)?;
    keys.push(("stall_count", space_key(&mut sc, "stall_count")?));
    let stall = sc.number(9)?;
    keys.push(("end_triggered_by", space_key(&mut sc, "end_triggered_by")?));
    let end_trigger = if sc.eat('-') { None } else { Some(read_digit(&mut sc)?) };
    keys.push(("end_reason", space_key(&mut sc, "end_reason")?));
    let end_reason = read_end_reason(&mut sc)?;
    keys.push(("this_turn", space_key(&mut sc, "this_turn")?));
    let this_turn = read_log(&mut sc, true)?;
    keys.push(("last_turn", space_key(&mut sc, "last_turn")?));
    let last_turn = read_log(&mut sc, true)?;
    sc.end()?;
    let key = |name: &str| keys.iter().find(|(k, _)| *k == name).map(|(_, p)| *p).unwrap_or(0);
    let this_pos: Vec<usize> = this_turn.iter().map(|(_, p)| *p).collect();
    let last_pos: Vec<usize> = last_turn.iter().map(|(_, p)| *p).collect();
    // Structure, in field order.
    if player > 1 {
        return nerr("$.player", "player", key("player"), "must be 0 or 1");
    }
    if current > 1 {
        return nerr("$.current_player", "current_player", key("current_player"), "must be 0 or 1");
    }
    let hand_c = counts_of(t, "hand", &hand)?;
    if hand.len() as u64 > t.rules.hand_size as u64 {
        return nerr("$.hand", "hand", key("hand"), "at most hand_size cards");
    }
    let mut tech_mask = 0u8;
    let mut last = -1i32;
    for &(x, _) in &tech_hand {
        if t.rules.techs & (1 << x) == 0 || x as i32 <= last {
            return nerr("$.tech_hand", "tech_hand", tech_start, "tech cards in play, canonical order, each once");
        }
        last = x as i32;
        tech_mask |= 1 << x;
    }
    let kto_c = counts_of(t, "known_to_opponent", &kto)?;
    let mut left = hand_c;
    for (k, &(c, pos)) in kto.iter().enumerate() {
        let i = t.index(c).unwrap_or(0) as usize;
        if left[i] == 0 {
            return nerr(format!("$.known_to_opponent[{k}]"), "known_to_opponent", pos, "not in the hand (R36)");
        }
        left[i] -= 1;
    }
    let ok_c = counts_of(t, "opponent_known", &ok)?;
    let ntech = t.rules.techs.count_ones() as u64;
    if nums[0] > t.rules.hand_size as u64 {
        return nerr("$.opponent_hand_size", "opponent_hand_size", key("opponent_hand_size"), "at most hand_size");
    }
    if nums[1] > ntech {
        return nerr(
            "$.opponent_tech_hand_size",
            "opponent_tech_hand_size",
            key("opponent_tech_hand_size"),
            "at most the tech cards in play",
        );
    }
    if nums[2] > t.total_cards as u64 {
        return nerr("$.deck_size", "deck_size", key("deck_size"), "at most the full deck");
    }
    if nums[3] > ntech {
        return nerr("$.tech_deck_size", "tech_deck_size", key("tech_deck_size"), "at most the tech cards in play");
    }
    if stall > 1_000_000_000 {
        return nerr("$.stall_count", "stall_count", key("stall_count"), "at most 10^9");
    }
    if ok.len() as u64 > nums[0] {
        return nerr(
            "$.opponent_known",
            "opponent_known",
            key("opponent_known"),
            "more known cards than the opponent holds",
        );
    }
    let discards_c = counts_of(t, "discards", &discards)?;
    let mut boards = [[Stack::default(); MAX_CELLS]; 2];
    let raw_boards = [b0, b1];
    for (seat, b) in raw_boards.iter().enumerate() {
        for (c, cell) in b.iter().enumerate() {
            if let Some(rs) = cell {
                let mut st = Stack { flags: rs.flags, len: 0, cards: [0; STACK_CAP] };
                if rs.cards.len() > STACK_CAP {
                    return nerr(
                        format!("$.boards[{seat}][{c}]"),
                        "boards",
                        rs.pos,
                        "a stack too high for this engine",
                    );
                }
                for (k, &(card, cp)) in rs.cards.iter().enumerate() {
                    match card {
                        None => {
                            let pylon = rs.flags & FACE_DOWN != 0 && rs.flags & FLIPPED == 0;
                            let hidden_place = k == 0 && (rs.flags & SECRET != 0 || pylon);
                            if seat == player as usize || !hidden_place {
                                return nerr(
                                    format!("$.boards[{seat}][{c}].cards[{k}]"),
                                    "boards",
                                    cp,
                                    "only an opponent's built pylon card or secret card is hidden (R30)",
                                );
                            }
                            st.push(UNSEEN);
                        }
                        Some(card) => match t.index(card) {
                            Some(i) => st.push(i),
                            None => {
                                return nerr(
                                    format!("$.boards[{seat}][{c}].cards[{k}]"),
                                    "boards",
                                    cp,
                                    "not a card in play (R2)",
                                )
                            }
                        },
                    }
                }
                if rs.flags & FLIPPED != 0 && rs.flags & FACE_DOWN == 0 {
                    return nerr(
                        format!("$.boards[{seat}][{c}].flipped"),
                        "boards",
                        rs.pos,
                        "a flipped stack is face down (R21)",
                    );
                }
                boards[seat][c] = st;
            }
        }
    }
    let mut acc = NONE;
    if let Some((a, r)) = accumulator {
        if a > 1 || r > 1 {
            return nerr("$.accumulator", "accumulator", key("accumulator"), "player and row are 0 or 1");
        }
        acc = (a * 2 + r) as u8;
    }
    let mut sm = NONE;
    if let Some(e) = smart {
        if e as usize >= t.e {
            return nerr("$.smart", "smart", key("smart"), "not an energy in play");
        }
        sm = e;
    }
    let mut pl = NONE;
    if let Some(c) = played {
        pl = t.cell_index(c).ok_or_else(|| NotationError::new("played_cell", key("played_cell"), "not in play"))?;
    }
    let mut td = NONE;
    if let Some(c) = turn_discard {
        td = t.index(c).ok_or_else(|| NotationError::new("turn_discard", key("turn_discard"), "not in play"))?;
    }
    let mut et = NONE;
    if let Some(x) = end_trigger {
        if x > 1 {
            return nerr("$.end_triggered_by", "end_triggered_by", key("end_triggered_by"), "must be 0 or 1");
        }
        et = x as u8;
    }
    // The turn logs: moves in play; a concealed move only in the opponent's log (this_turn is
    // the mover's, last_turn the other player's), naming a cell whose bottom card is hidden.
    for (field, log, owner) in
        [("this_turn", &this_turn, current as usize), ("last_turn", &last_turn, 1 - current as usize)]
    {
        for (k, (m, pos)) in log.iter().enumerate() {
            let path = format!("$.{field}[{k}]");
            if !crate::notation::seen_in_play(t, m) {
                return nerr(path, field, *pos, "a move with a card, cell, energy or tech card not in play");
            }
            match m {
                Seen::Move(_) => {}
                _ if owner == player as usize => {
                    return nerr(path, field, *pos, "a concealed move only in the opponent's log");
                }
                Seen::Pylon(c) | Seen::Secret(c) => {
                    let ci = t.cell_index(*c).unwrap_or(0) as usize;
                    let st = &boards[owner][ci];
                    if st.is_empty() || st.cards[0] != UNSEEN {
                        return nerr(path, field, *pos, "the cell of a concealed move holds a hidden card (R30)");
                    }
                }
                _ => {}
            }
        }
    }
    let o = Observation {
        t,
        player: player as usize,
        phase,
        current_player: current as usize,
        hand: hand_c,
        tech_hand: tech_mask,
        known_to_opponent: kto_c,
        opponent_known: ok_c,
        opponent_hand_size: nums[0] as u32,
        opponent_tech_hand_size: nums[1] as u32,
        deck_size: nums[2] as u32,
        tech_deck_size: nums[3] as u32,
        discards: discards_c,
        boards,
        accumulator: acc,
        smart: sm,
        played: pl,
        turn_discard: td,
        pending,
        stall_count: stall,
        end_trigger: et,
        end_reason,
        this_turn: this_turn.iter().map(|(m, _)| *m).collect(),
        last_turn: last_turn.iter().map(|(m, _)| *m).collect(),
    };
    // Complete a state (R38), check it like a state (positions of the fields the two share are
    // those of this text; any other condition is reported as the whole observation), and
    // observe it again: the first field that differs is the error.
    let mut g = SplitMix64::new(0);
    let whole = |msg: String| ObsErr { e: NotationError::new("last_turn", 0, msg), path: "$".into() };
    // A played cell that TECH, OVERFLOW or a pending tech draw cannot follow is a condition of
    // `played_cell`, a shared field: at its key, as the reference reports it.
    let sample = sample_state(&o, &mut g).map_err(|e| {
        if e.field == "played_cell" {
            let reason = format!("no game state gives this observation: {}", e.message);
            ObsErr { e: NotationError::new("played_cell", key("played_cell"), reason), path: "$.played_cell".into() }
        } else {
            whole(e.message)
        }
    })?;
    let raw = raw_of(&sample, &o, &raw_boards, &discards, &this_pos, &last_pos, &keys);
    if let Err(problem) = crate::notation::check_state(&raw) {
        let e = problem.at(&raw);
        const SHARED: [&str; 14] = [
            "phase",
            "current_player",
            "discards",
            "boards",
            "accumulator",
            "smart",
            "played_cell",
            "turn_discard",
            "pending_chance",
            "stall_count",
            "end_triggered_by",
            "end_reason",
            "this_turn",
            "last_turn",
        ];
        return Err(if SHARED.contains(&e.field.as_str()) {
            ObsErr { e, path: problem.json_path() }
        } else {
            whole(e.message)
        });
    }
    let again = format_observation(&observe(&sample, o.player));
    let mine = format_observation(&o);
    if again != mine {
        let (a, b) = (split_fields(&again), split_fields(&mine));
        for ((name, x), (_, y)) in a.iter().zip(b.iter()) {
            if x != y {
                return nerr(
                    format!("$.{name}"),
                    name,
                    key(name),
                    "no game state gives this observation (R36): this field differs",
                );
            }
        }
        return nerr("$", "last_turn", 0, "no game state gives this observation");
    }
    Ok(o)
}

const OBS_FIELDS: [&str; 24] = [
    "rules",
    "player",
    "phase",
    "current_player",
    "hand",
    "tech_hand",
    "known_to_opponent",
    "opponent_known",
    "opponent_hand_size",
    "opponent_tech_hand_size",
    "deck_size",
    "tech_deck_size",
    "discards",
    "boards",
    "accumulator",
    "smart",
    "played_cell",
    "turn_discard",
    "pending_chance",
    "stall_count",
    "end_triggered_by",
    "end_reason",
    "this_turn",
    "last_turn",
];

/// The `key=value` fields of a formatted observation, in order.
fn split_fields(text: &str) -> Vec<(&'static str, &str)> {
    let mut out = Vec::new();
    let mut starts = Vec::new();
    let mut from = 0;
    for (k, name) in OBS_FIELDS.iter().enumerate() {
        let pat = if k == 0 { format!("{name}=") } else { format!(" {name}=") };
        match text[from..].find(&pat) {
            Some(i) => {
                starts.push((name, from + i + pat.len()));
                from += i + pat.len();
            }
            None => return out,
        }
    }
    for (k, (name, start)) in starts.iter().enumerate() {
        let end = if k + 1 < starts.len() { starts[k + 1].1 - OBS_FIELDS[k + 1].len() - 2 } else { text.len() };
        out.push((**name, &text[*start..end]));
    }
    out
}

/// The completed state as a state line's fields, with the positions of this observation's text
/// for the fields the two share.
fn raw_of(
    s: &State,
    o: &Observation,
    boards: &[Vec<Option<RawStack>>; 2],
    discards: &Items<Card>,
    this_pos: &[usize],
    last_pos: &[usize],
    keys: &[(&'static str, usize)],
) -> crate::notation::RawState {
    let t = s.t;
    let items = |counts: &[u8]| -> Items<Card> {
        let mut v = Vec::new();
        for i in 0..t.kinds {
            for _ in 0..counts[i] {
                v.push((t.card(i as u8), 0));
            }
        }
        v
    };
    let techs = |mask: u8| -> Items<u8> { (0..4u8).filter(|x| mask & (1 << x) != 0).map(|x| (x, 0)).collect() };
    let mut raw_boards: [Vec<Option<RawStack>>; 2] = [Vec::new(), Vec::new()];
    for p in 0..2 {
        for (c, cell) in boards[p].iter().enumerate() {
            raw_boards[p].push(cell.as_ref().map(|rs| {
                RawStack {
                    pos: rs.pos,
                    flags: rs.flags,
                    cards: rs
                        .cards
                        .iter()
                        .enumerate()
                        .map(|(k, (_, pos))| (Some(t.card(s.boards[p][c].cards[k])), *pos))
                        .collect(),
                }
            }));
        }
    }
    let log = |moves: &[Move], pos: &[usize]| -> Items<Seen> {
        moves.iter().enumerate().map(|(k, m)| (Seen::Move(*m), pos.get(k).copied().unwrap_or(0))).collect()
    };
    let opt_cell = |c: u8| (c != NONE).then(|| t.cell(c));
    crate::notation::RawState {
        rules: t.rules,
        phase: s.phase,
        current: s.current as u64,
        hands: [items(&s.hands[0]), items(&s.hands[1])],
        deck: items(&s.deck),
        discards: discards.clone(),
        boards: raw_boards,
        tech_deck: techs(s.tech_deck),
        tech_hands: [techs(s.tech_hands[0]), techs(s.tech_hands[1])],
        accumulator: (s.accumulator != NONE).then_some(((s.accumulator >> 1) as u64, (s.accumulator & 1) as u64)),
        smart: (s.smart != NONE).then_some(s.smart),
        played: opt_cell(s.played),
        turn_discard: (s.turn_discard != NONE).then(|| t.card(s.turn_discard)),
        pending: s.pending,
        stall: o.stall_count,
        end_trigger: (s.end_trigger != NONE).then_some(s.end_trigger as u64),
        end_reason: s.end_reason,
        rng: None,
        known: [items(&s.known[0]), items(&s.known[1])],
        this_turn: log(s.this_turn.moves(), this_pos),
        last_turn: log(s.last_turn.moves(), last_pos),
        keys: keys.to_vec(),
    }
}

/// The observer's legal moves computed from the observation alone (R37): when the observer is
/// to move in ACTION, TECH, OVERFLOW or DRAW, `legal_moves(state)` for every state that gives
/// this observation; otherwise none.
pub fn legal_moves_from(o: &Observation) -> Result<Vec<Move>, InvalidInput> {
    if o.player != o.current_player || !matches!(o.phase, Phase::Action | Phase::Tech | Phase::Overflow | Phase::Draw) {
        return Ok(Vec::new());
    }
    let s = sample_state(o, &mut SplitMix64::new(0))?;
    Ok(s.legal_moves_vec())
}
