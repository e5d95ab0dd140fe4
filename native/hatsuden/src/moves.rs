//! Moves (RULES.md "Moves", R34) and their notation (NOTATION.md "Moves").

use crate::error::NotationError;
use crate::rules::{Card, Cell, Rules, ENERGY_LETTERS, MAX_CARD_VALUE, TECH_CODES};
use crate::scan::{Scanner, R};

/// A move: a small `Copy` value. Cards and cells are given by energy column and value / row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Move {
    /// R10, R11.
    Construct {
        /// The card from the hand.
        card: Card,
        /// An empty cell of its column.
        cell: Cell,
        /// Built with SECRET_BUILD (R11).
        secret: bool,
    },
    /// R12.
    Improve {
        /// The card.
        card: Card,
        /// The plant.
        cell: Cell,
    },
    /// R13.
    Downsize {
        /// The card.
        card: Card,
        /// The plant.
        cell: Cell,
    },
    /// R14.
    BuildPylon {
        /// The card.
        card: Card,
        /// An empty cell.
        cell: Cell,
    },
    /// R15.
    Discard {
        /// The card.
        card: Card,
    },
    /// R16.
    #[default]
    Pass,
    /// R17.
    DrawTech,
    /// R17.
    DeclineTech,
    /// R21.
    Flip {
        /// The plant to flip.
        cell: Cell,
    },
    /// R41: the cells as a bit set, bit `row * 5 + energy` (cell order).
    FlipSet {
        /// Bit set of cells.
        cells: u16,
    },
    /// R22.
    DrawFromDeck,
    /// R22.
    DrawFromDiscard {
        /// The card.
        card: Card,
    },
    /// R22.
    EndTurn,
    /// R18, R19.
    PlaceAccumulator {
        /// Own city.
        row: u8,
    },
    /// R18, R20.
    PlaceSmart {
        /// Energy column.
        energy: u8,
    },
    /// R6: the plant card dealt.
    Deal {
        /// The card.
        card: Card,
    },
    /// R6: the tech card dealt.
    DealTech {
        /// Tech index (R3).
        tech: u8,
    },
}

/// The bit of a cell in a `FlipSet`.
#[inline]
pub fn cell_bit(cell: Cell) -> u16 {
    1 << (cell.row as u16 * 5 + cell.energy as u16)
}

/// The cells of a `FlipSet` bit set, in cell order.
pub fn cells_of(mask: u16) -> impl Iterator<Item = Cell> {
    (0..10u16).filter(move |b| mask & (1 << b) != 0).map(|b| Cell { row: (b / 5) as u8, energy: (b % 5) as u8 })
}

fn letter(e: u8) -> char {
    ENERGY_LETTERS.get(e as usize).copied().unwrap_or('?')
}

pub(crate) fn push_card(s: &mut String, c: Card) {
    s.push(letter(c.energy));
    s.push_str(&c.value.to_string());
}

pub(crate) fn push_cell(s: &mut String, c: Cell) {
    s.push_str(&c.row.to_string());
    s.push(letter(c.energy));
}

impl Move {
    /// Append the notation of the move.
    pub fn write(&self, s: &mut String) {
        match *self {
            Move::Construct { card, cell, secret } => {
                s.push_str(if secret { "C* " } else { "C " });
                push_card(s, card);
                s.push(' ');
                push_cell(s, cell);
            }
            Move::Improve { card, cell } | Move::Downsize { card, cell } | Move::BuildPylon { card, cell } => {
                s.push_str(match self {
                    Move::Improve { .. } => "I ",
                    Move::Downsize { .. } => "D ",
                    _ => "P ",
                });
                push_card(s, card);
                s.push(' ');
                push_cell(s, cell);
            }
            Move::Discard { card } => {
                s.push_str("X ");
                push_card(s, card);
            }
            Move::Pass => s.push_str("PASS"),
            Move::DrawTech => s.push_str("DT"),
            Move::DeclineTech => s.push_str("NT"),
            Move::Flip { cell } => {
                s.push_str("F ");
                push_cell(s, cell);
            }
            Move::FlipSet { cells } => {
                s.push_str("FS ");
                for (i, c) in cells_of(cells).enumerate() {
                    if i > 0 {
                        s.push('+');
                    }
                    push_cell(s, c);
                }
            }
            Move::DrawFromDeck => s.push_str("DD"),
            Move::DrawFromDiscard { card } => {
                s.push_str("DX ");
                push_card(s, card);
            }
            Move::EndTurn => s.push('E'),
            Move::PlaceAccumulator { row } => {
                s.push_str("A ");
                s.push_str(&row.to_string());
            }
            Move::PlaceSmart { energy } => {
                s.push_str("M ");
                s.push(letter(energy));
            }
            Move::Deal { card } => {
                s.push('=');
                push_card(s, card);
            }
            Move::DealTech { tech } => {
                s.push('=');
                s.push_str(TECH_CODES.get(tech as usize).copied().unwrap_or("???"));
            }
        }
    }

    /// The notation of the move (`C S3 0S`).
    pub fn format(&self) -> String {
        let mut s = String::new();
        self.write(&mut s);
        s
    }

    /// Read a move, alone on its line; with `rules`, cards, energies and tech cards must be in
    /// play.
    pub fn parse(text: &str, rules: Option<&Rules>) -> Result<Move, NotationError> {
        let chars: Vec<char> = text.chars().collect();
        let mut sc = Scanner::new(&chars, "move");
        let m = read_move(&mut sc, rules, false)?;
        sc.end()?;
        match m {
            Seen::Move(m) => Ok(m),
            _ => unreachable_seen(&sc),
        }
    }

    /// Rank of the move's kind in the canonical order (R34).
    pub fn kind_rank(&self) -> u8 {
        match self {
            Move::Construct { .. } => 0,
            Move::Improve { .. } => 1,
            Move::Downsize { .. } => 2,
            Move::BuildPylon { .. } => 3,
            Move::Discard { .. } => 4,
            Move::Pass => 5,
            Move::DrawTech => 6,
            Move::DeclineTech => 7,
            Move::Flip { .. } => 8,
            Move::FlipSet { .. } => 9,
            Move::DrawFromDeck => 10,
            Move::DrawFromDiscard { .. } => 11,
            Move::EndTurn => 12,
            Move::PlaceAccumulator { .. } => 13,
            Move::PlaceSmart { .. } => 14,
            Move::Deal { .. } => 15,
            Move::DealTech { .. } => 16,
        }
    }
}

fn unreachable_seen<T>(sc: &Scanner) -> R<T> {
    sc.err(0, "a concealed move is not a move")
}

impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.format())
    }
}

/// A move as a player saw it (R37): the move, or one of the four concealed moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Seen {
    /// Seen as it is.
    Move(Move),
    /// `P ? cell`.
    Pylon(Cell),
    /// `C* ? cell`.
    Secret(Cell),
    /// `=?`.
    Deal,
    /// `=???`.
    DealTech,
}

impl Seen {
    /// Append the notation.
    pub fn write(&self, s: &mut String) {
        match self {
            Seen::Move(m) => m.write(s),
            Seen::Pylon(c) => {
                s.push_str("P ? ");
                push_cell(s, *c);
            }
            Seen::Secret(c) => {
                s.push_str("C* ? ");
                push_cell(s, *c);
            }
            Seen::Deal => s.push_str("=?"),
            Seen::DealTech => s.push_str("=???"),
        }
    }
}

/// Read an energy letter (in play under `rules`).
pub(crate) fn read_energy(sc: &mut Scanner, rules: Option<&Rules>) -> R<u8> {
    let p = sc.pos;
    match sc.peek().and_then(|c| ENERGY_LETTERS.iter().position(|l| *l == c)) {
        Some(e) => {
            if let Some(r) = rules {
                if e as u32 >= r.energies {
                    return sc.err(p, format!("{} is not an energy in play (R1)", ENERGY_LETTERS[e]));
                }
            }
            sc.pos += 1;
            Ok(e as u8)
        }
        None => sc.err(p, format!("expected an energy letter (S, G, W, H, B), found {}", sc.found())),
    }
}

/// Read a card; with `rules`, it must be in play (error at its first character).
pub(crate) fn read_card(sc: &mut Scanner, rules: Option<&Rules>) -> R<Card> {
    let p = sc.pos;
    let energy = read_energy(sc, None)?;
    let vp = sc.pos;
    if sc.peek() == Some('0') {
        return sc.err(vp, "a card value is at least 1");
    }
    let v = sc.number(9)?;
    if v > MAX_CARD_VALUE as u64 {
        return sc.err(vp, format!("a card value is at most {MAX_CARD_VALUE} (R2)"));
    }
    if let Some(r) = rules {
        if energy as u32 >= r.energies || v > r.max_value as u64 {
            return sc.err(p, "not a card in play under these rules (R2)");
        }
    }
    Ok(Card { energy, value: v as u8 })
}

pub(crate) fn read_row(sc: &mut Scanner) -> R<u8> {
    match sc.peek() {
        Some('0') => {
            sc.pos += 1;
            Ok(0)
        }
        Some('1') => {
            sc.pos += 1;
            Ok(1)
        }
        _ => sc.err(sc.pos, format!("expected a row (0 or 1), found {}", sc.found())),
    }
}

pub(crate) fn read_cell(sc: &mut Scanner, rules: Option<&Rules>) -> R<Cell> {
    let row = read_row(sc)?;
    let energy = read_energy(sc, rules)?;
    Ok(Cell { row, energy })
}

/// Read a tech code (three characters) at the scanner, in play under `rules`.
pub(crate) fn read_tech(sc: &mut Scanner, rules: Option<&Rules>) -> R<u8> {
    let p = sc.pos;
    let code: String = sc.chars[p..].iter().take(3).collect();
    match TECH_CODES.iter().position(|c| *c == code) {
        Some(t) => {
            if let Some(r) = rules {
                if r.techs & (1 << t) == 0 {
                    return sc.err(p, format!("{code} is not a tech card in play (R3)"));
                }
            }
            sc.pos += 3;
            Ok(t as u8)
        }
        None => sc.err(p, format!("expected a tech code (ACC, SEC, SMT, DWN), found '{code}'")),
    }
}

fn space(sc: &mut Scanner) -> R<()> {
    if sc.peek() == Some(' ') {
        sc.pos += 1;
        Ok(())
    } else {
        sc.err(sc.pos, format!("expected ' ', found {}", sc.found()))
    }
}

/// Read one move (or, with `seen`, a concealed move too) at the scanner's place.
pub(crate) fn read_move(sc: &mut Scanner, rules: Option<&Rules>, seen: bool) -> R<Seen> {
    let start = sc.pos;
    if sc.peek() == Some('=') {
        sc.pos += 1;
        if seen && sc.starts_with("???") {
            sc.pos += 3;
            return Ok(Seen::DealTech);
        }
        if seen && sc.peek() == Some('?') {
            sc.pos += 1;
            return Ok(Seen::Deal);
        }
        let code: String = sc.chars[sc.pos..].iter().take(3).collect();
        if TECH_CODES.contains(&code.as_str()) {
            let t = read_tech(sc, rules)?;
            return Ok(Seen::Move(Move::DealTech { tech: t }));
        }
        let card = read_card(sc, rules)?;
        return Ok(Seen::Move(Move::Deal { card }));
    }
    let (p, kw) = sc.token(|c| c.is_ascii_uppercase() || c == '*');
    let m = match kw.as_str() {
        "C" | "C*" | "I" | "D" | "P" => {
            space(sc)?;
            if seen && (kw == "P" || kw == "C*") && sc.starts_with("? ") {
                sc.pos += 2;
                let cell = read_cell(sc, rules)?;
                return Ok(if kw == "P" { Seen::Pylon(cell) } else { Seen::Secret(cell) });
            }
            let card = read_card(sc, rules)?;
            space(sc)?;
            let cell = read_cell(sc, rules)?;
            match kw.as_str() {
                "C" => Move::Construct { card, cell, secret: false },
                "C*" => Move::Construct { card, cell, secret: true },
                "I" => Move::Improve { card, cell },
                "D" => Move::Downsize { card, cell },
                _ => Move::BuildPylon { card, cell },
            }
        }
        "X" | "DX" => {
            space(sc)?;
            let card = read_card(sc, rules)?;
            if kw == "X" {
                Move::Discard { card }
            } else {
                Move::DrawFromDiscard { card }
            }
        }
        "PASS" => Move::Pass,
        "DT" => Move::DrawTech,
        "NT" => Move::DeclineTech,
        "DD" => Move::DrawFromDeck,
        "E" => Move::EndTurn,
        "F" => {
            space(sc)?;
            Move::Flip { cell: read_cell(sc, rules)? }
        }
        "FS" => {
            space(sc)?;
            let mut mask = 0u16;
            let mut last: i32 = -1;
            loop {
                let cp = sc.pos;
                let cell = read_cell(sc, rules)?;
                let b = (cell.row as i32) * 5 + cell.energy as i32;
                if b <= last {
                    return sc.err(cp, "a FlipSet lists its cells in cell order, each once (R41)");
                }
                last = b;
                mask |= cell_bit(cell);
                if !sc.eat('+') {
                    break;
                }
            }
            Move::FlipSet { cells: mask }
        }
        "A" => {
            space(sc)?;
            Move::PlaceAccumulator { row: read_row(sc)? }
        }
        "M" => {
            space(sc)?;
            Move::PlaceSmart { energy: read_energy(sc, rules)? }
        }
        _ => {
            let _ = start;
            return sc.err(
                p,
                format!("expected a move (C, C*, I, D, P, X, PASS, DT, NT, F, FS, DD, DX, E, A, M, =), found '{kw}'"),
            );
        }
    };
    Ok(Seen::Move(m))
}
