//! Reading a state line (NOTATION.md "States", step 1 of "The order of the checks"): the
//! grammar only; values are checked in `check.rs`.

use crate::error::NotationError;
use crate::moves::{read_card, read_cell, read_move, read_tech, Seen};
use crate::rules::{read_rules, Card, Cell, Rules};
use crate::scan::{Scanner, R};
use crate::state::{EndReason, Pending, Phase, DOWNSIZED, FACE_DOWN, FLIPPED, SECRET};

pub(crate) type Items<T> = Vec<(T, usize)>;

pub(crate) fn read_cards(sc: &mut Scanner) -> R<Items<Card>> {
    let mut v = Vec::new();
    if sc.eat('-') {
        return Ok(v);
    }
    loop {
        let p = sc.pos;
        v.push((read_card(sc, None)?, p));
        if !sc.eat(',') {
            break;
        }
    }
    Ok(v)
}

pub(crate) fn read_techs(sc: &mut Scanner) -> R<Items<u8>> {
    let mut v = Vec::new();
    if sc.eat('-') {
        return Ok(v);
    }
    loop {
        let p = sc.pos;
        v.push((read_tech(sc, None)?, p));
        if !sc.eat(',') {
            break;
        }
    }
    Ok(v)
}

/// A stack as read: flags, cards with positions (None for `?`), and the cell's position.
#[derive(Clone, Debug)]
pub(crate) struct RawStack {
    pub pos: usize,
    pub flags: u8,
    pub cards: Vec<(Option<Card>, usize)>,
}

pub(crate) fn read_board(sc: &mut Scanner, e: usize, seen: bool) -> R<Vec<Option<RawStack>>> {
    let mut cells = Vec::with_capacity(2 * e);
    for row in 0..2 {
        for col in 0..e {
            if col > 0 {
                if sc.peek() != Some(',') {
                    return sc.err(sc.pos, format!("expected ',' ({e} cells a row), found {}", sc.found()));
                }
                sc.pos += 1;
            }
            let pos = sc.pos;
            if sc.eat('.') {
                cells.push(None);
                continue;
            }
            let mut flags = 0;
            if sc.eat('#') {
                flags |= FACE_DOWN;
                if sc.eat('~') {
                    flags |= FLIPPED;
                }
            }
            if sc.eat('*') {
                flags |= SECRET;
            }
            if sc.eat('v') {
                flags |= DOWNSIZED;
            }
            let mut cards = Vec::new();
            loop {
                let p = sc.pos;
                if seen && sc.peek() == Some('?') {
                    sc.pos += 1;
                    cards.push((None, p));
                } else {
                    cards.push((Some(read_card(sc, None)?), p));
                }
                if !sc.eat('+') {
                    break;
                }
            }
            cells.push(Some(RawStack { pos, flags, cards }));
        }
        if row == 0 {
            if sc.peek() != Some(';') {
                let msg = if sc.peek() == Some(',') {
                    "expected ';' between the two rows, found ','".to_string()
                } else {
                    format!("expected ';' between the two rows, found {}", sc.found())
                };
                return sc.err(sc.pos, msg);
            }
            sc.pos += 1;
        }
    }
    Ok(cells)
}

pub(crate) fn read_log(sc: &mut Scanner, seen: bool) -> R<Items<Seen>> {
    let mut v = Vec::new();
    sc.expect('[')?;
    if sc.eat(']') {
        return Ok(v);
    }
    loop {
        let p = sc.pos;
        v.push((read_move(sc, None, seen)?, p));
        if sc.starts_with(", ") {
            sc.pos += 2;
        } else if sc.eat(']') {
            break;
        } else {
            return sc.err(sc.pos, format!("expected ', ' or ']', found {}", sc.found()));
        }
    }
    Ok(v)
}

pub(crate) fn slash(sc: &mut Scanner) -> R<()> {
    if sc.eat('/') {
        Ok(())
    } else {
        sc.err(sc.pos, format!("expected '/' between the two players, found {}", sc.found()))
    }
}

/// The space and key of the next field. A character other than the space right after a value
/// is text after that value: the error names the field being read (NOTATION.md "Where an error
/// points").
pub(crate) fn space_key(sc: &mut Scanner, key: &'static str) -> R<usize> {
    if sc.peek() != Some(' ') {
        return sc.err(sc.pos, format!("unexpected {} after the value", sc.found()));
    }
    sc.field = key;
    sc.pos += 1;
    sc.key(key)
}

/// One digit (a player or a row as the grammar reads them: the range is a consistency check).
pub(crate) fn read_digit(sc: &mut Scanner) -> R<u64> {
    sc.number(1)
}

pub(crate) fn read_phase(sc: &mut Scanner) -> R<Phase> {
    let (p, w) = sc.word();
    match Phase::ALL.iter().find(|ph| ph.name() == w) {
        Some(ph) => Ok(*ph),
        None => sc.err(p, format!("expected a phase (chance, action, tech, overflow, draw, game_over), found '{w}'")),
    }
}

pub(crate) fn read_pending(sc: &mut Scanner) -> R<Pending> {
    if sc.eat('-') {
        return Ok(Pending::None);
    }
    let (p, w) = sc.word();
    match w.as_str() {
        "-" => Ok(Pending::None),
        "setup" => Ok(Pending::Setup),
        "draw" => Ok(Pending::Draw),
        "tech" => Ok(Pending::Tech),
        _ => sc.err(p, format!("expected a pending chance (-, setup, draw, tech), found '{w}'")),
    }
}

pub(crate) fn read_end_reason(sc: &mut Scanner) -> R<EndReason> {
    if sc.eat('-') {
        return Ok(EndReason::None);
    }
    let (p, w) = sc.word();
    match w.as_str() {
        "-" => Ok(EndReason::None),
        "final_turn" => Ok(EndReason::FinalTurn),
        "stall" => Ok(EndReason::Stall),
        _ => sc.err(p, format!("expected an end reason (-, final_turn, stall), found '{w}'")),
    }
}

/// The fields of a state as read, with the positions consistency errors point at.
#[derive(Clone, Debug)]
pub(crate) struct RawState {
    pub rules: Rules,
    pub phase: Phase,
    pub current: u64,
    pub hands: [Items<Card>; 2],
    pub deck: Items<Card>,
    pub discards: Items<Card>,
    pub boards: [Vec<Option<RawStack>>; 2],
    pub tech_deck: Items<u8>,
    pub tech_hands: [Items<u8>; 2],
    pub accumulator: Option<(u64, u64)>,
    pub smart: Option<u8>,
    pub played: Option<Cell>,
    pub turn_discard: Option<Card>,
    pub pending: Pending,
    pub stall: u64,
    pub end_trigger: Option<u64>,
    pub end_reason: EndReason,
    pub rng: Option<u128>,
    pub known: [Items<Card>; 2],
    pub this_turn: Items<Seen>,
    pub last_turn: Items<Seen>,
    /// Positions of the keys (`name=`), by field name.
    pub keys: Vec<(&'static str, usize)>,
}

impl RawState {
    pub fn key(&self, name: &str) -> usize {
        self.keys.iter().find(|(k, _)| *k == name).map(|(_, p)| *p).unwrap_or(0)
    }
}

fn opt<T>(sc: &mut Scanner, f: impl FnOnce(&mut Scanner) -> R<T>) -> R<Option<T>> {
    if sc.peek() == Some('-') {
        sc.pos += 1;
        Ok(None)
    } else {
        f(sc).map(Some)
    }
}

/// Read a state line completely (step 1 of NOTATION.md "The order of the checks").
pub(crate) fn read_state_line(text: &str) -> Result<RawState, NotationError> {
    let chars: Vec<char> = text.chars().collect();
    let mut sc = Scanner::new(&chars, "rules");
    let mut keys = Vec::new();
    keys.push(("rules", sc.key("rules")?));
    let rules = read_rules(&mut sc)?;
    let t =
        rules.tables().map_err(|e| NotationError::new("rules", keys[0].1, format!("{}: {}", e.field, e.message)))?;
    keys.push(("phase", space_key(&mut sc, "phase")?));
    let phase = read_phase(&mut sc)?;
    keys.push(("current_player", space_key(&mut sc, "current_player")?));
    let current = read_digit(&mut sc)?;
    keys.push(("hands", space_key(&mut sc, "hands")?));
    let h0 = read_cards(&mut sc)?;
    slash(&mut sc)?;
    let h1 = read_cards(&mut sc)?;
    keys.push(("deck", space_key(&mut sc, "deck")?));
    let deck = read_cards(&mut sc)?;
    keys.push(("discards", space_key(&mut sc, "discards")?));
    let discards = read_cards(&mut sc)?;
    keys.push(("boards", space_key(&mut sc, "boards")?));
    let b0 = read_board(&mut sc, t.e, false)?;
    slash(&mut sc)?;
    let b1 = read_board(&mut sc, t.e, false)?;
    keys.push(("tech_deck", space_key(&mut sc, "tech_deck")?));
    let tech_deck = read_techs(&mut sc)?;
    keys.push(("tech_hands", space_key(&mut sc, "tech_hands")?));
    let th0 = read_techs(&mut sc)?;
    slash(&mut sc)?;
    let th1 = read_techs(&mut sc)?;
    keys.push(("accumulator", space_key(&mut sc, "accumulator")?));
    let accumulator = opt(&mut sc, |sc| {
        let p = read_digit(sc)?;
        sc.expect(':')?;
        let r = read_digit(sc)?;
        Ok((p, r))
    })?;
    keys.push(("smart", space_key(&mut sc, "smart")?));
    let smart = opt(&mut sc, |sc| crate::moves::read_energy(sc, None))?;
    keys.push(("played_cell", space_key(&mut sc, "played_cell")?));
    let played = opt(&mut sc, |sc| read_cell(sc, None))?;
    keys.push(("turn_discard", space_key(&mut sc, "turn_discard")?));
    let turn_discard = opt(&mut sc, |sc| read_card(sc, None))?;
    keys.push(("pending_chance", space_key(&mut sc, "pending_chance")?));
    let pending = read_pending(&mut sc)?;
    keys.push(("stall_count", space_key(&mut sc, "stall_count")?));
    let stall = sc.number(9)?;
    keys.push(("end_triggered_by", space_key(&mut sc, "end_triggered_by")?));
    let end_trigger = opt(&mut sc, read_digit)?;
    keys.push(("end_reason", space_key(&mut sc, "end_reason")?));
    let end_reason = read_end_reason(&mut sc)?;
    keys.push(("rng_state", space_key(&mut sc, "rng_state")?));
    let rng = opt(&mut sc, |sc| sc.big_number())?;
    keys.push(("known_cards", space_key(&mut sc, "known_cards")?));
    let k0 = read_cards(&mut sc)?;
    slash(&mut sc)?;
    let k1 = read_cards(&mut sc)?;
    keys.push(("this_turn", space_key(&mut sc, "this_turn")?));
    let this_turn = read_log(&mut sc, false)?;
    keys.push(("last_turn", space_key(&mut sc, "last_turn")?));
    let last_turn = read_log(&mut sc, false)?;
    sc.end()?;
    Ok(RawState {
        rules,
        phase,
        current,
        hands: [h0, h1],
        deck,
        discards,
        boards: [b0, b1],
        tech_deck,
        tech_hands: [th0, th1],
        accumulator,
        smart,
        played,
        turn_discard,
        pending,
        stall,
        end_trigger,
        end_reason,
        rng,
        known: [k0, k1],
        this_turn,
        last_turn,
        keys,
    })
}
