//! # hatsuden
//!
//! A native rules engine for the two-player card game **HATSUDEN** (itten, 2017), written from
//! the specification of the reference implementation `hatsuden-rules` (RULES.md, NOTATION.md,
//! PORTING.md, RULES_VERSION 4) and held to it by the project's conformance suite: all 4,223
//! vectors pass through the `hatsuden-native-adapter` binary, and `cargo test` runs them
//! directly.
//!
//! - Every rule R1-R41 and every [`Rules`] option: the tie-breaks (R29), the retake option and
//!   the stall rule (R22, R25), the tech-card timing (R40) and the overflow variant (R41), the
//!   `STANDARD` and `PRINTED` presets (R31).
//! - Explicit chance with exact probabilities ([`State::chance_outcomes`], R6) and the portable
//!   seeded mode ([`SplitMix64`], R8, R32, R33).
//! - A compact [`State`]: `Copy`, fixed-size arrays, no heap; [`Move`] is a small `Copy` enum;
//!   [`State::legal_moves`] fills a caller's buffer; [`State::apply_mut`] allocates nothing.
//! - Scoring (R27-R29), observations (R37), the observation tensor (R39), `sample_state` (R38).
//! - The notation and JSON documents of NOTATION.md with strict readers: an illegal move names
//!   its rule ([`IllegalMove`]), malformed notation its field and position ([`NotationError`]),
//!   a malformed document its JSON path ([`JsonError`]).
//!
//! ```
//! use hatsuden::{new_game, Rules};
//! let state = new_game(&Rules::STANDARD, Some(0)).unwrap();
//! let mut moves = Vec::new();
//! state.legal_moves(&mut moves);
//! let next = state.apply(moves[0]).unwrap();
//! assert_eq!(next.this_turn().len(), 1);
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]
// Index loops over card, cell and player indices read like the rules they implement.
#![allow(clippy::needless_range_loop)]

pub mod adapter;
pub mod docs;
mod engine;
pub mod error;
#[cfg(feature = "fault-injection")]
pub mod fault;
pub mod infostate;
pub mod json;
mod moves;
pub mod notation;
pub mod observe;
pub mod packed;
pub mod printable;
pub mod records;
mod rng;
mod rowswap;
mod rules;
mod scan;
mod score;
mod state;

pub use docs::{from_json, to_json, Document};
pub use engine::{gcd, new_game};
pub use error::{Error, IllegalMove, InvalidInput, JsonError, NotationError};
pub use moves::{cell_bit, cells_of, Move, Seen};
pub use notation::{format_state, parse_state};
pub use observe::{
    format_observation, legal_moves_from, observation_tensor, observation_tensor_layout, observe, observe_without_logs,
    parse_observation, sample_state, unseen_counts, write_observation_tensor, Observation, MAX_OBSERVATION_TENSOR,
    UNSEEN,
};
pub use records::{format_record, parse_record, record_game, replay, GameRecord, GameResult, ReplayError};
pub use rng::{seed_from_decimal, SplitMix64};
pub use rules::{
    Card, Cell, Overflow, Rules, Tables, TechTiming, Tiebreak, ACCUMULATOR, DOWN, ENERGY_LETTERS, ENERGY_NAMES,
    MAX_CARDS, MAX_CARD_VALUE, MAX_CELLS, MAX_COPIES, MAX_KINDS, MAX_VALUE_CAP, RULES_VERSION, SECRET_BUILD, SMART,
    TECH_CODES, TECH_NAMES,
};
pub use score::{score, Decision, PlayerScore, Score};
pub use state::{
    same_counts, same_stacks, EndReason, Log, Pending, Phase, Stack, State, DOWNSIZED, FACE_DOWN, FLIPPED, LOG_CAP,
    NONE, SECRET, STACK_CAP,
};

/// Format a move in notation (`C S3 0S`).
pub fn format_move(m: &Move) -> String {
    m.format()
}

/// Read a move in notation; with `rules`, its cards, energies and tech cards must be in play.
pub fn parse_move(text: &str, rules: Option<&Rules>) -> Result<Move, NotationError> {
    Move::parse(text, rules)
}

/// Format a rule set in notation.
pub fn format_rules(r: &Rules) -> String {
    r.format()
}

/// Read a rule set in notation (R31 applied).
pub fn parse_rules(text: &str) -> Result<Rules, NotationError> {
    Rules::parse(text)
}
