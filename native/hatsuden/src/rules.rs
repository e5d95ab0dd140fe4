//! Components (R1-R4) and the rule set (R31), its notation and its precomputed tables.

use crate::error::{InvalidInput, NotationError};
use crate::scan::{Scanner, R};
use std::sync::{Mutex, OnceLock};

/// The version of RULES.md this crate implements.
pub const RULES_VERSION: u32 = 4;
/// The highest value of a plant card under any rule set (R2; R31: `max_value` ≤ 11).
pub const MAX_CARD_VALUE: u32 = 11;
/// Room for the distinct plant cards (`energies × max_value` ≤ 5 × 11 = 55, R1, R2, R31) in
/// the compact state's count arrays, rounded up to whole 8-byte words (the engine reads a count
/// array eight cards at a time): every valid rule set fits.
pub const MAX_KINDS: usize = (5 * MAX_CARD_VALUE as usize).div_ceil(8) * 8;
// A count array is read as whole words and its card set is one u64 bit mask.
const _: () = assert!(MAX_KINDS % 8 == 0 && MAX_KINDS <= 64);
/// Highest `max_value` the compact state holds: every valid one (R31).
pub const MAX_VALUE_CAP: u32 = MAX_CARD_VALUE;
/// Most copies of a card the compact state holds (a count is one byte); a valid rule set with
/// more (R31 sets no bound, NOTATION.md allows up to 4,096 plant cards) is refused by
/// [`Rules::tables`], naming `copies`.
pub const MAX_COPIES: u32 = 255;
/// Cells of a grid at most (2 rows × 5 energies, R4).
pub const MAX_CELLS: usize = 10;
/// The limit of NOTATION.md on untrusted input: plant cards a rule set may describe.
pub const MAX_CARDS: u64 = 4096;

/// Energy letters in column order (R1): SOLAR, GEOTHERMAL, WIND, HYDRO, BIOMASS.
pub const ENERGY_LETTERS: [char; 5] = ['S', 'G', 'W', 'H', 'B'];
/// Energy names in JSON.
pub const ENERGY_NAMES: [&str; 5] = ["solar", "geothermal", "wind", "hydro", "biomass"];
/// Tech codes in canonical order (R3): ACCUMULATOR, SECRET_BUILD, SMART, DOWN.
pub const TECH_CODES: [&str; 4] = ["ACC", "SEC", "SMT", "DWN"];
/// Tech names in JSON.
pub const TECH_NAMES: [&str; 4] = ["accumulator", "secret_build", "smart", "down"];

/// Tech card indices (R3), also bits of a tech mask (`1 << tech`).
pub const ACCUMULATOR: u8 = 0;
/// SECRET_BUILD (R11).
pub const SECRET_BUILD: u8 = 1;
/// SMART (R20).
pub const SMART: u8 = 2;
/// DOWN (R13).
pub const DOWN: u8 = 3;

/// A plant card (R2): energy column (0-4) and value (1..=max_value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Card {
    /// Column index of the energy (R1).
    pub energy: u8,
    /// Value, 1 to [`MAX_CARD_VALUE`] (R2).
    pub value: u8,
}

/// A cell of the mover's own grid (R4): row 0 or 1, energy column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Cell {
    /// Row (city) 0 or 1.
    pub row: u8,
    /// Column index of the energy (R1).
    pub energy: u8,
}

/// Tie-break 1 (R29).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tiebreak {
    /// City points (default, Ruling A1).
    CityPoints,
    /// Total supply.
    Supply,
}

/// When a drawn ACCUMULATOR or SMART is used (R40).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TechTiming {
    /// Kept in the tech hand (default).
    Keep,
    /// Placed at once.
    PlaceAtOnce,
}

/// How an overflow is resolved (R21, R41).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Overflow {
    /// One `Flip` per move (default, R21).
    OneAtATime,
    /// One `FlipSet` (R41).
    AnySet,
}

/// The rule set (R31). Build it by struct update from [`Rules::STANDARD`]
/// and check it with [`Rules::validate`], or read it with [`Rules::parse`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Energies in play, the first N (R1).
    pub energies: u32,
    /// Highest card value (R2).
    pub max_value: u32,
    /// Copies of each card (R2).
    pub copies: u32,
    /// Cards dealt to each hand (R7).
    pub hand_size: u32,
    /// Supply a city demands (R28).
    pub city_demand: u32,
    /// Tech cards in play, bit `1 << tech` (R3).
    pub techs: u8,
    /// Tie-break 1 (R29).
    pub tiebreak: Tiebreak,
    /// Whether the card discarded this turn may be taken back (R22).
    pub allow_retake_discard: bool,
    /// The stall limit (R25), or None.
    pub stall_limit: Option<u32>,
    /// R40.
    pub tech_timing: TechTiming,
    /// R41.
    pub overflow: Overflow,
}

impl Rules {
    /// `STANDARD`: the printed game with the stall rule (R31).
    pub const STANDARD: Rules = Rules {
        energies: 5,
        max_value: 4,
        copies: 2,
        hand_size: 5,
        city_demand: 10,
        techs: 0b1111,
        tiebreak: Tiebreak::CityPoints,
        allow_retake_discard: true,
        stall_limit: Some(20),
        tech_timing: TechTiming::Keep,
        overflow: Overflow::OneAtATime,
    };
    /// `PRINTED`: STANDARD without the stall rule (R25, R31).
    pub const PRINTED: Rules = Rules { stall_limit: None, ..Rules::STANDARD };

    /// R31: `Err((field, message))` naming the field a rule set is refused for: the first
    /// condition of R31's order that fails (field ranges, `energies` ≤ 5, `max_value` ≤
    /// `city_demand + 1`, `max_value` ≤ 11, a deck for two hands).
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        if self.techs > 0b1111 {
            return Err(("techs", "unknown tech card".into()));
        }
        for (name, v) in [
            ("energies", self.energies),
            ("max_value", self.max_value),
            ("copies", self.copies),
            ("hand_size", self.hand_size),
            ("city_demand", self.city_demand),
        ] {
            if v < 1 {
                return Err((name, format!("must be an int >= 1, got {v} (R31)")));
            }
        }
        if self.stall_limit == Some(0) {
            return Err(("stall_limit", "must be None or an int >= 1, got 0 (R31)".into()));
        }
        if self.energies > 5 {
            return Err(("energies", format!("must be between 1 and 5, got {} (R31)", self.energies)));
        }
        if self.max_value as u64 > self.city_demand as u64 + 1 {
            return Err((
                "max_value",
                format!(
                    "must be <= city_demand + 1 = {}, got {}, or an overflow could not be resolved (R21, R31)",
                    self.city_demand as u64 + 1,
                    self.max_value
                ),
            ));
        }
        if self.max_value > MAX_CARD_VALUE {
            return Err((
                "max_value",
                format!("must be <= {MAX_CARD_VALUE}, got {}: no card has a higher value (R2, R31)", self.max_value),
            ));
        }
        let cards = self.energies as u64 * self.max_value as u64 * self.copies as u64;
        if cards < 2 * self.hand_size as u64 {
            return Err((
                "hand_size",
                format!("the deck of {cards} cards cannot deal two hands of {} (R31)", self.hand_size),
            ));
        }
        Ok(())
    }

    /// Number of plant cards the rule set describes.
    pub fn card_count(&self) -> u64 {
        self.energies as u64 * self.max_value as u64 * self.copies as u64
    }

    /// The rule-set notation (`5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20`).
    pub fn format(&self) -> String {
        let mut s =
            format!("{}/{}/{}/{}/{}/", self.energies, self.max_value, self.copies, self.hand_size, self.city_demand);
        if self.techs == 0 {
            s.push('-');
        } else {
            let mut first = true;
            for (t, code) in TECH_CODES.iter().enumerate() {
                if self.techs & (1 << t) != 0 {
                    if !first {
                        s.push('+');
                    }
                    s.push_str(code);
                    first = false;
                }
            }
        }
        s.push_str(match self.tiebreak {
            Tiebreak::CityPoints => "/city_points",
            Tiebreak::Supply => "/supply",
        });
        s.push_str(if self.allow_retake_discard { "/retake/" } else { "/noretake/" });
        match self.stall_limit {
            Some(n) => s.push_str(&n.to_string()),
            None => s.push_str("off"),
        }
        if self.tech_timing == TechTiming::PlaceAtOnce {
            s.push_str("/place_at_once");
        }
        if self.overflow == Overflow::AnySet {
            s.push_str("/any_set");
        }
        s
    }

    /// Read a rule set in notation, alone on its line.
    pub fn parse(text: &str) -> Result<Rules, NotationError> {
        let chars: Vec<char> = text.chars().collect();
        let mut sc = Scanner::new(&chars, "rules");
        let r = read_rules(&mut sc)?;
        sc.end()?;
        Ok(r)
    }

    /// The precomputed tables of this rule set, shared by every state (interned once).
    pub fn tables(&self) -> Result<&'static Tables, InvalidInput> {
        tables_for(self)
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::STANDARD
    }
}

/// Read a rule set at the scanner's place (field `rules`), R31 applied once it is read.
pub(crate) fn read_rules(sc: &mut Scanner) -> R<Rules> {
    let saved = sc.field;
    sc.field = "rules";
    let mut starts = [0usize; 10];
    let mut nums = [0u64; 5];
    for i in 0..5 {
        starts[i] = sc.pos;
        nums[i] = sc.number(9)?;
        sc.expect('/')?;
    }
    starts[5] = sc.pos;
    let mut techs = 0u8;
    if sc.eat('-') {
    } else {
        let mut last: i32 = -1;
        loop {
            let p = sc.pos;
            let code: String = sc.chars[p..].iter().take(3).collect();
            let Some(t) = TECH_CODES.iter().position(|c| *c == code) else {
                return sc.err(p, format!("expected a tech code (ACC, SEC, SMT, DWN), found '{code}'"));
            };
            if t as i32 <= last {
                return sc.err(p, "tech cards are listed once each, in canonical order (R3)");
            }
            last = t as i32;
            techs |= 1 << t;
            sc.pos += 3;
            if !sc.eat('+') {
                break;
            }
        }
    }
    sc.expect('/')?;
    let (p, w) = sc.word();
    let tiebreak = match w.as_str() {
        "city_points" => Tiebreak::CityPoints,
        "supply" => Tiebreak::Supply,
        _ => return sc.err(p, format!("expected a tie-break (city_points, supply), found '{w}'")),
    };
    sc.expect('/')?;
    let (p, w) = sc.word();
    let retake = match w.as_str() {
        "retake" => true,
        "noretake" => false,
        _ => return sc.err(p, format!("expected retake or noretake, found '{w}'")),
    };
    sc.expect('/')?;
    starts[6] = sc.pos;
    let stall = if sc.starts_with("off") {
        sc.pos += 3;
        None
    } else {
        Some(sc.number(9)?)
    };
    let mut tech_timing = TechTiming::Keep;
    let mut overflow = Overflow::OneAtATime;
    let mut seen = 0; // 1: place_at_once read, 2: any_set read
                      // A variant follows iff `/` and one of the option words ([a-z_]) come next; the word is then
                      // read as a token ([a-z_-]).
    while sc.peek() == Some('/') {
        let look: String = sc.chars[sc.pos + 1..].iter().take_while(|c| c.is_ascii_lowercase() || **c == '_').collect();
        if !["place_at_once", "any_set", "keep", "one_at_a_time"].contains(&look.as_str()) {
            break;
        }
        sc.pos += 1;
        let (p, w) = sc.word();
        match w.as_str() {
            "keep" | "one_at_a_time" => return sc.err(p, format!("{w} is a default: it is not written")),
            "place_at_once" if seen == 0 => {
                tech_timing = TechTiming::PlaceAtOnce;
                seen = 1;
            }
            "any_set" if seen < 2 => {
                overflow = Overflow::AnySet;
                seen = 2;
            }
            "place_at_once" | "any_set" => {
                return sc.err(p, "variant options are written once each, tech_timing first")
            }
            _ => return sc.err(p, format!("expected a rule variant, found '{w}'")),
        }
    }
    let rules = Rules {
        energies: nums[0].min(u32::MAX as u64) as u32,
        max_value: nums[1] as u32,
        copies: nums[2] as u32,
        hand_size: nums[3] as u32,
        city_demand: nums[4] as u32,
        techs,
        tiebreak,
        allow_retake_discard: retake,
        stall_limit: stall.map(|s| s as u32),
        tech_timing,
        overflow,
    };
    if let Err((field, msg)) = rules.validate() {
        let at = match field {
            "energies" => starts[0],
            "max_value" => starts[1],
            "copies" => starts[2],
            "hand_size" => starts[3],
            "city_demand" => starts[4],
            "techs" => starts[5],
            _ => starts[6],
        };
        return sc.err(at, format!("{field}: {msg}"));
    }
    if rules.card_count() > MAX_CARDS {
        return sc.err(starts[2], "more plant cards than notation may describe (4096)");
    }
    sc.field = saved;
    Ok(rules)
}

/// Precomputed per-rule-set tables, shared by reference by every state of the rule set.
#[derive(Debug)]
pub struct Tables {
    /// The rule set.
    pub rules: Rules,
    /// Energies in play.
    pub e: usize,
    /// max_value.
    pub mv: u8,
    /// Distinct cards.
    pub kinds: usize,
    /// Cells per grid (2 × e).
    pub ncells: usize,
    /// Copies of each card.
    pub copies: u8,
    /// Plant cards in all.
    pub total_cards: u16,
    /// Row tolerance without / with the Accumulator (R19, R21).
    pub tolerance: u64,
    /// With the Accumulator.
    pub acc_tolerance: u64,
    /// Value of each card index.
    pub value: [u8; MAX_KINDS],
    /// Column of each card index.
    pub col: [u8; MAX_KINDS],
    /// Subsets of a row's columns (bit masks), in the canonical FlipSet order (R34).
    pub flip_set_order: Vec<u16>,
    /// The card of each card index.
    pub cards: [Card; MAX_KINDS],
    /// The cell of each cell index.
    pub cells: [Cell; MAX_CELLS],
}

impl PartialEq for Tables {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        // Tables are interned (one per rule set): the same address is the common case.
        std::ptr::eq(self, other) || self.rules == other.rules
    }
}
impl Eq for Tables {}

impl Tables {
    /// Card index of a card (`energy * max_value + value - 1`), if in play.
    #[inline]
    pub fn index(&self, card: Card) -> Option<u8> {
        if (card.energy as usize) < self.e && card.value >= 1 && card.value <= self.mv {
            Some(card.energy * self.mv + card.value - 1)
        } else {
            None
        }
    }
    /// The card of an index.
    #[inline]
    pub fn card(&self, i: u8) -> Card {
        self.cards[i as usize % MAX_KINDS]
    }
    /// Cell index (`row * e + energy`), if in play.
    #[inline]
    pub fn cell_index(&self, cell: Cell) -> Option<u8> {
        if cell.row < 2 && (cell.energy as usize) < self.e {
            Some(cell.row * self.e as u8 + cell.energy)
        } else {
            None
        }
    }
    /// The cell of an index.
    #[inline]
    pub fn cell(&self, c: u8) -> Cell {
        self.cells[c as usize % MAX_CELLS]
    }
}

fn tables_for(rules: &Rules) -> Result<&'static Tables, InvalidInput> {
    static CACHE: OnceLock<Mutex<Vec<&'static Tables>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
    let mut list = cache.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(t) = list.iter().find(|t| t.rules == *rules) {
        return Ok(t);
    }
    if let Err((field, msg)) = rules.validate() {
        return Err(InvalidInput::new(field, msg));
    }
    // A valid rule set has at most 5 × 11 distinct cards (R1, R31), all held; only `copies`
    // has no bound in R31.
    let kinds = rules.energies as u64 * rules.max_value as u64;
    debug_assert!(kinds <= MAX_KINDS as u64 && rules.max_value <= MAX_VALUE_CAP);
    if rules.copies > MAX_COPIES {
        return Err(InvalidInput::new(
            "copies",
            format!(
                "beyond the native engine's capacity: at most {MAX_COPIES} copies of a card (a count is one byte), got {}",
                rules.copies
            ),
        ));
    }
    let e = rules.energies as usize;
    let mv = rules.max_value as u8;
    let mut value = [0u8; MAX_KINDS];
    let mut col = [0u8; MAX_KINDS];
    for i in 0..kinds as usize {
        value[i] = (i % mv as usize) as u8 + 1;
        col[i] = (i / mv as usize) as u8;
    }
    // Canonical order of FlipSets: by their cells in cell order, compared one by one, a prefix
    // first (R34).
    let mut order: Vec<Vec<u16>> = Vec::new();
    for mask in 1u16..(1 << e) {
        order.push((0..e as u16).filter(|c| mask & (1 << c) != 0).collect());
    }
    order.sort();
    let flip_set_order = order.iter().map(|cols| cols.iter().fold(0u16, |m, c| m | (1 << c))).collect();
    let mut cards = [Card::default(); MAX_KINDS];
    for (i, c) in cards.iter_mut().enumerate().take(kinds as usize) {
        *c = Card { energy: (i / mv as usize) as u8, value: (i % mv as usize) as u8 + 1 };
    }
    let mut cells = [Cell::default(); MAX_CELLS];
    for (c, x) in cells.iter_mut().enumerate().take(2 * e) {
        *x = Cell { row: (c / e) as u8, energy: (c % e) as u8 };
    }
    let t = Tables {
        cards,
        cells,
        rules: *rules,
        e,
        mv,
        kinds: kinds as usize,
        ncells: 2 * e,
        copies: rules.copies as u8,
        total_cards: (kinds * rules.copies as u64) as u16,
        tolerance: rules.city_demand as u64 + 1,
        acc_tolerance: rules.city_demand as u64 + 2,
        value,
        col,
        flip_set_order,
    };
    let leaked: &'static Tables = Box::leak(Box::new(t));
    list.push(leaked);
    Ok(leaked)
}
