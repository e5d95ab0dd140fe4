//! Test-only fault injection (the cargo feature `fault-injection`, never in a release wheel):
//! wrong rules planted in the engine so that the native model checker can be shown to catch
//! them with the same verdict and the same shortest counterexample as the Python checker with
//! the same fault (`tests/modelcheck/faults.py` plants them in Python; issue 21).
//!
//! The fault is chosen by the environment variable `HATSUDEN_FAULT`, read once. Without the
//! feature this module is not compiled and the engine has no hook at all (`#[cfg]`): the hot
//! path costs nothing.

use std::sync::OnceLock;

/// A planted fault, by the rule it breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// `stall-capped`: the stall counter stops at 1 (R23; without a stall limit the state graph
    /// gains a cycle, R25).
    StallCapped,
    /// `discard-keeps-card`: a Discard puts the card on the discards but leaves it in the hand
    /// (a card is created: R4, conservation).
    DiscardKeepsCard,
    /// `score-second-player`: a tie decided for the second player goes to player 0 (R29).
    ScoreSecondPlayer,
    /// `moves-reversed`: in DRAW, the legal moves come in reverse canonical order (R34).
    MovesReversed,
}

/// Every fault, with its name in `HATSUDEN_FAULT`.
pub const FAULTS: &[(&str, Fault)] = &[
    ("stall-capped", Fault::StallCapped),
    ("discard-keeps-card", Fault::DiscardKeepsCard),
    ("score-second-player", Fault::ScoreSecondPlayer),
    ("moves-reversed", Fault::MovesReversed),
];

/// The fault named by `HATSUDEN_FAULT`, if any (an unknown name plants none).
pub fn active() -> Option<Fault> {
    static ACTIVE: OnceLock<Option<Fault>> = OnceLock::new();
    *ACTIVE.get_or_init(|| {
        let name = std::env::var("HATSUDEN_FAULT").ok()?;
        FAULTS.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
    })
}

/// Whether `fault` is the planted one.
#[inline]
pub fn is(fault: Fault) -> bool {
    active() == Some(fault)
}
