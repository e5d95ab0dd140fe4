//! # hatsuden-check
//!
//! The native model checker of HATSUDEN: the engine of `hatsuden-check --core native`
//! (issue 21). It explores every state (or position, R36) reachable from `new_game()` in
//! explicit chance mode, breadth-first by layers, checks every invariant of the Python checker
//! on every state and transition ([`props::PROPERTIES`]), tracks the same non-vacuity events,
//! proves termination (R25) and measures the longest game, and reports the same figures and
//! verdicts (OK, VIOLATION, TRUNCATED, UNCOVERED) with shortest counterexamples. The ranked
//! engine ([`ranked`], `Options::ranked`) explores the same graph in the order of a ranking
//! function, with exact storage on disk, for configurations too big for the visited set.

// Loops over card, cell and shard indices read parallel arrays; an index is the clearer form.
#![allow(clippy::needless_range_loop)]

pub mod configs;
mod expand;
mod memo;
pub mod props;
pub mod ranked;
pub mod report;
pub mod search;
pub mod shard;
mod store;
pub mod symmetry;
mod table;
mod termination;
pub mod value;

pub use search::{check, CheckResult, Options, Unreduced, Violation};
