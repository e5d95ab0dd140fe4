//! The native model checker (crate `hatsuden-check`) for `hatsuden-check --core native`
//! (issue 21): the whole search runs in Rust with the GIL released, and its result crosses the
//! boundary as the JSON document of `hatsuden-native-check --json` (the keys of
//! `hatsuden_rules.modelcheck._report.result_dict`), which `hatsuden_rules.modelcheck._native`
//! reads back into a `CheckResult`.
//!
//! Why the binding rather than shipping the `hatsuden-native-check` binary in the wheel: one
//! abi3 extension per platform, nothing to find on `PATH`, no second process to start, watch
//! and stop; errors arrive as the library's own exceptions; and the distributed (Ray) search
//! needs the checker's primitives in the worker processes anyway.

use std::path::PathBuf;

use hatsuden::parse_rules;
use hatsuden_check::report::result_json;
use hatsuden_check::{check, Options};
use pyo3::prelude::*;

use crate::{guard, input_error, notation_error};

/// Run the native model checker on the rule set `rules` (notation) and return its result as
/// the JSON text of `hatsuden-native-check --json`.
///
/// `symmetry`: store one state (or position) per orbit of the row swaps; the document then
/// adds `orbits` (= `states`) and the `unreduced` figures weighted by orbit sizes.
///
/// `ranked`: the ranked engine (issue 21 §2: external memory, exact storage, in the order of a
/// ranking function that grows on every transition) instead of the breadth-first one.
///
/// Raises `NotationError` for malformed rules and `InvalidInputError` for an option the run
/// refuses (a directory that already holds a checkpoint, a checkpoint of other rules, ...).
#[pyfunction]
#[pyo3(signature = (
    rules, *, positions, workers=1, max_states=None, max_memory=None, checkpoint=None,
    resume=false, max_violations=10, progress=false, require_coverage=None, symmetry=false,
    ranked=false,
))]
#[allow(clippy::too_many_arguments, clippy::needless_update)]
pub fn model_check(
    py: Python<'_>,
    rules: &str,
    positions: bool,
    workers: usize,
    max_states: Option<u64>,
    max_memory: Option<u64>,
    checkpoint: Option<PathBuf>,
    resume: bool,
    max_violations: usize,
    progress: bool,
    require_coverage: Option<bool>,
    symmetry: bool,
    ranked: bool,
) -> PyResult<String> {
    guard(py, || {
        let rules = parse_rules(rules).map_err(|e| notation_error(py, &e, rules, false))?;
        if workers == 0 {
            return Err(input_error(py, "workers", "must be at least 1, got 0"));
        }
        if resume && checkpoint.is_none() {
            return Err(input_error(py, "resume", "--resume needs --checkpoint DIR"));
        }
        let opts = Options {
            positions,
            workers,
            max_states,
            max_memory,
            checkpoint,
            resume,
            max_violations,
            progress,
            require_coverage,
            symmetry,
            ranked,
            // Options added to the engine later keep their defaults here.
            ..Options::default()
        };
        match py.detach(move || check(&rules, &opts)) {
            Ok(result) => Ok(result_json(&result)),
            Err(message) => Err(input_error(py, "checkpoint", &message)),
        }
    })
}

/// The exact probability that player 0 wins `rules` (notation) under perfect play with
/// perfect information, as a fraction's text, and the number of positions solved.
#[pyfunction]
pub fn game_value(py: Python<'_>, rules: &str) -> PyResult<(String, usize)> {
    guard(py, || {
        let rules = parse_rules(rules).map_err(|e| notation_error(py, &e, rules, false))?;
        match py.detach(move || hatsuden_check::value::game_value(&rules)) {
            Ok((value, positions)) => Ok((value.to_string(), positions)),
            Err(message) => Err(input_error(py, "rules", &message)),
        }
    })
}
