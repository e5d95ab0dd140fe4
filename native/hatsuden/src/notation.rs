//! The state notation (NOTATION.md "States"): `format_state` and the strict `parse_state`,
//! which reads the whole line, then checks the 27 consistency conditions in order.
//!
//! Split by concept: this file writes; `notation/read.rs` reads a line by the grammar;
//! `notation/check.rs` applies the consistency conditions.

use crate::error::NotationError;
use crate::moves::{push_card, push_cell, Move};
use crate::rules::{Tables, ENERGY_LETTERS, TECH_CODES};
use crate::state::{Stack, State, DOWNSIZED, FACE_DOWN, FLIPPED, NONE, SECRET};

pub(crate) fn push_counts(s: &mut String, t: &Tables, counts: &[u8]) {
    let mut first = true;
    for (i, &n) in counts.iter().enumerate().take(t.kinds) {
        for _ in 0..n {
            if !first {
                s.push(',');
            }
            push_card(s, t.card(i as u8));
            first = false;
        }
    }
    if first {
        s.push('-');
    }
}

pub(crate) fn push_techs(s: &mut String, mask: u8) {
    if mask == 0 {
        s.push('-');
        return;
    }
    let mut first = true;
    for (t, code) in TECH_CODES.iter().enumerate() {
        if mask & (1 << t) != 0 {
            if !first {
                s.push(',');
            }
            s.push_str(code);
            first = false;
        }
    }
}

pub(crate) fn push_flags(s: &mut String, flags: u8) {
    if flags & FACE_DOWN != 0 {
        s.push('#');
        if flags & FLIPPED != 0 {
            s.push('~');
        }
    }
    if flags & SECRET != 0 {
        s.push('*');
    }
    if flags & DOWNSIZED != 0 {
        s.push('v');
    }
}

fn push_board(s: &mut String, t: &Tables, board: &[Stack]) {
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
                push_card(s, t.card(i));
            }
        }
    }
}

pub(crate) fn push_log(s: &mut String, moves: &[Move]) {
    s.push('[');
    for (k, m) in moves.iter().enumerate() {
        if k > 0 {
            s.push_str(", ");
        }
        m.write(s);
    }
    s.push(']');
}

/// The state in notation, one line (NOTATION.md "States").
pub fn format_state(st: &State) -> String {
    let t = st.t;
    let mut s = String::with_capacity(512);
    s.push_str("rules=");
    s.push_str(&t.rules.format());
    s.push_str(" phase=");
    s.push_str(st.phase.name());
    s.push_str(" current_player=");
    s.push((b'0' + st.current) as char);
    s.push_str(" hands=");
    push_counts(&mut s, t, &st.hands[0]);
    s.push('/');
    push_counts(&mut s, t, &st.hands[1]);
    s.push_str(" deck=");
    push_counts(&mut s, t, &st.deck);
    s.push_str(" discards=");
    push_counts(&mut s, t, &st.discards);
    s.push_str(" boards=");
    push_board(&mut s, t, &st.boards[0]);
    s.push('/');
    push_board(&mut s, t, &st.boards[1]);
    s.push_str(" tech_deck=");
    push_techs(&mut s, st.tech_deck);
    s.push_str(" tech_hands=");
    push_techs(&mut s, st.tech_hands[0]);
    s.push('/');
    push_techs(&mut s, st.tech_hands[1]);
    s.push_str(" accumulator=");
    push_accumulator(&mut s, st.accumulator);
    s.push_str(" smart=");
    push_smart(&mut s, st.smart);
    s.push_str(" played_cell=");
    push_opt_cell(&mut s, t, st.played);
    s.push_str(" turn_discard=");
    push_opt_card(&mut s, t, st.turn_discard);
    s.push_str(" pending_chance=");
    s.push_str(st.pending.name());
    s.push_str(" stall_count=");
    s.push_str(&st.stall.to_string());
    s.push_str(" end_triggered_by=");
    push_opt_player(&mut s, st.end_trigger);
    s.push_str(" end_reason=");
    s.push_str(st.end_reason.name());
    s.push_str(" rng_state=");
    match st.rng {
        Some(g) => s.push_str(&g.to_string()),
        None => s.push('-'),
    }
    s.push_str(" known_cards=");
    push_counts(&mut s, t, &st.known[0]);
    s.push('/');
    push_counts(&mut s, t, &st.known[1]);
    s.push_str(" this_turn=");
    push_log(&mut s, st.this_turn.moves());
    s.push_str(" last_turn=");
    push_log(&mut s, st.last_turn.moves());
    s
}

pub(crate) fn push_accumulator(s: &mut String, acc: u8) {
    if acc == NONE {
        s.push('-');
    } else {
        s.push((b'0' + (acc >> 1)) as char);
        s.push(':');
        s.push((b'0' + (acc & 1)) as char);
    }
}
pub(crate) fn push_smart(s: &mut String, smart: u8) {
    if smart == NONE {
        s.push('-');
    } else {
        s.push(ENERGY_LETTERS[smart as usize]);
    }
}
pub(crate) fn push_opt_cell(s: &mut String, t: &Tables, c: u8) {
    if c == NONE {
        s.push('-');
    } else {
        push_cell(s, t.cell(c));
    }
}
pub(crate) fn push_opt_card(s: &mut String, t: &Tables, i: u8) {
    if i == NONE {
        s.push('-');
    } else {
        push_card(s, t.card(i));
    }
}
pub(crate) fn push_opt_player(s: &mut String, p: u8) {
    if p == NONE {
        s.push('-');
    } else {
        s.push((b'0' + p) as char);
    }
}

mod check;
mod read;

pub(crate) use check::{check_state, seen_in_play};
pub(crate) use read::{
    read_board, read_cards, read_digit, read_end_reason, read_log, read_pending, read_phase, read_state_line,
    read_techs, slash, space_key, Items, RawStack, RawState,
};

/// Read a state in notation and check it (NOTATION.md "Consistency conditions of a state").
pub fn parse_state(text: &str) -> Result<State, NotationError> {
    let raw = read_state_line(text)?;
    check_state(&raw).map_err(|p| p.at(&raw))
}
