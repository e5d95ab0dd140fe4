//! The sharded search primitives (crate `hatsuden-check`, module `shard`) for the Ray backend
//! of `hatsuden-check --core native --backend ray` (`hatsuden_rules.modelcheck._ray`): each
//! Ray worker holds one `CheckShard`; batches cross the boundary as `bytes`, and the long
//! loops release the GIL.

use std::collections::HashMap;
use std::path::PathBuf;

use hatsuden::parse_rules;
use hatsuden_check::report::result_json;
use hatsuden_check::search::Violation;
use hatsuden_check::shard::{replay, summarize, Found, Shard, Summary};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::{guard, input_error, notation_error};

fn rules_of(py: Python<'_>, rules: &str) -> PyResult<hatsuden::Rules> {
    parse_rules(rules).map_err(|e| notation_error(py, &e, rules, false))
}

fn to_bytes(py: Python<'_>, batches: Vec<Vec<u8>>) -> Vec<Py<PyBytes>> {
    batches.into_iter().map(|b| PyBytes::new(py, &b).unbind()).collect()
}

fn key_of(py: Python<'_>, key: &[u8]) -> PyResult<u128> {
    let bytes: [u8; 16] = key.try_into().map_err(|_| input_error(py, "key", "a fingerprint is 16 bytes"))?;
    Ok(u128::from_le_bytes(bytes))
}

/// One worker's part of the distributed search: the states whose fingerprint it owns.
#[pyclass(module = "hatsuden_native._native")]
pub struct CheckShard {
    shard: Shard,
}

#[pymethods]
impl CheckShard {
    #[new]
    fn new(py: Python<'_>, rules: &str, positions: bool, index: usize, shards: usize) -> PyResult<Self> {
        guard(py, || {
            let rules = rules_of(py, rules)?;
            let shard = Shard::new(&rules, positions, index, shards).map_err(|m| input_error(py, "shards", &m))?;
            Ok(CheckShard { shard })
        })
    }

    /// The numbers of the frontier's states.
    fn frontier(&self) -> Vec<u64> {
        self.shard.frontier().to_vec()
    }

    /// The states this shard owns.
    fn states(&self) -> u64 {
        self.shard.states()
    }

    /// Check and expand the frontier: one batch of successor records per shard.
    fn expand(&mut self, py: Python<'_>, paths: HashMap<u64, Vec<usize>>) -> PyResult<Vec<Py<PyBytes>>> {
        guard(py, || {
            let shard = &mut self.shard;
            let out = py.detach(|| shard.expand(&paths));
            Ok(to_bytes(py, out))
        })
    }

    /// The batches sent to this shard: the sorted codes (parent << 8 | rank, 8 bytes each) of
    /// its new states.
    fn receive(&mut self, py: Python<'_>, batches: Vec<Vec<u8>>) -> PyResult<Py<PyBytes>> {
        guard(py, || {
            let shard = &mut self.shard;
            let codes = py.detach(|| {
                let views: Vec<&[u8]> = batches.iter().map(|b| b.as_slice()).collect();
                shard.receive(&views)
            });
            Ok(PyBytes::new(py, &codes).unbind())
        })
    }

    /// The numbers of the new states, in the order of the codes.
    fn number(&mut self, py: Python<'_>, numbers: Vec<u64>) -> PyResult<()> {
        guard(py, || self.shard.number(&numbers).map_err(|m| input_error(py, "numbers", &m)))
    }

    /// The counters since the last call, and the problems: (rule, message, number, rank).
    fn take_counts(&mut self) -> (Vec<u64>, Vec<Found>) {
        self.shard.take_counts()
    }

    /// Termination: the target of every transition, by owner.
    fn edges_out(&self, py: Python<'_>) -> Vec<Py<PyBytes>> {
        to_bytes(py, self.shard.edges_out())
    }

    /// Termination: in-degrees; the size of level 0 on this shard.
    fn indegrees_in(&mut self, batches: Vec<Vec<u8>>) -> u64 {
        let views: Vec<&[u8]> = batches.iter().map(|b| b.as_slice()).collect();
        self.shard.indegrees_in(&views)
    }

    /// Termination: the targets of the transitions out of the current level, by owner.
    fn peel_out(&mut self, py: Python<'_>) -> Vec<Py<PyBytes>> {
        to_bytes(py, self.shard.peel_out())
    }

    /// Termination: the size of the next level on this shard.
    fn peel_in(&mut self, batches: Vec<Vec<u8>>) -> u64 {
        let views: Vec<&[u8]> = batches.iter().map(|b| b.as_slice()).collect();
        self.shard.peel_in(&views)
    }

    /// The states peeled so far.
    fn peeled(&self) -> u64 {
        self.shard.peeled()
    }

    /// After peeling: the lowest-numbered state left with an in-degree, and its fingerprint
    /// (16 bytes, little-endian), if any.
    fn lowest_left(&self, py: Python<'_>) -> Option<(u64, Py<PyBytes>)> {
        self.shard.lowest_left().map(|(n, k)| (n, PyBytes::new(py, &k.to_le_bytes()).unbind()))
    }

    /// Whether the state of fingerprint `key` was left with an in-degree after peeling.
    fn left(&self, py: Python<'_>, key: Vec<u8>) -> PyResult<bool> {
        Ok(self.shard.left(key_of(py, &key)?))
    }

    /// The number of the state of fingerprint `key` and its successors' fingerprints, in move
    /// order (None: not a state of this shard).
    fn successors(&self, py: Python<'_>, key: Vec<u8>) -> PyResult<Option<(u64, Vec<Py<PyBytes>>)>> {
        let found = self.shard.successors(key_of(py, &key)?);
        Ok(found.map(|(n, v)| (n, v.iter().map(|k| PyBytes::new(py, &k.to_le_bytes()).unbind()).collect())))
    }

    /// Write this shard's state to `path` (a checkpoint at the end of a layer).
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        guard(py, || self.shard.save(&path).map_err(|m| input_error(py, "checkpoint", &m)))
    }

    /// Restore the state `save` wrote.
    fn load(&mut self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        guard(py, || self.shard.load(&path).map_err(|m| input_error(py, "checkpoint", &m)))
    }
}

/// The moves (notation) of the move ranks `ranks` from the start of `rules`.
#[pyfunction]
pub fn replay_ranks(py: Python<'_>, rules: &str, positions: bool, ranks: Vec<usize>) -> PyResult<Vec<String>> {
    guard(py, || {
        let rules = rules_of(py, rules)?;
        Ok(replay(&rules, positions, &ranks).0.iter().map(|m| m.format()).collect())
    })
}

/// The JSON result of a distributed run (as `model_check`'s) from what the driver gathered;
/// `violations` are (rule, message, path in notation).
#[pyfunction]
#[pyo3(signature = (
    rules, *, positions, workers, counters, states, max_depth, longest_game, violations,
    layer_sizes, seconds, peak_memory_mb, require_coverage, stopped_by, table_bytes,
))]
#[allow(clippy::too_many_arguments)]
pub fn shard_result(
    py: Python<'_>,
    rules: &str,
    positions: bool,
    workers: usize,
    counters: Vec<u64>,
    states: u64,
    max_depth: u64,
    longest_game: Option<u64>,
    violations: Vec<(String, String, Vec<String>)>,
    layer_sizes: Vec<u64>,
    seconds: f64,
    peak_memory_mb: f64,
    require_coverage: Option<bool>,
    stopped_by: Option<String>,
    table_bytes: u64,
) -> PyResult<String> {
    guard(py, || {
        let rules = rules_of(py, rules)?;
        if counters.len() != hatsuden_check::shard::COUNTERS {
            return Err(input_error(py, "counters", "wrong length"));
        }
        let violations =
            violations.into_iter().map(|(rule, message, path)| Violation { rule, message, path }).collect();
        Ok(result_json(&summarize(Summary {
            rules,
            positions,
            workers,
            counters,
            states,
            max_depth,
            longest_game,
            violations,
            layer_sizes,
            seconds,
            peak_memory_mb,
            require_coverage,
            stopped_by,
            table_bytes,
        })))
    })
}
