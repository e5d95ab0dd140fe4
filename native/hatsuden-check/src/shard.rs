//! The sharded search of the distributed checker (`hatsuden-check --core native --backend
//! ray`, issue 21 §3): one [`Shard`] per worker owns the states whose fingerprint it is given
//! ([`owner`]), its part of the visited set, its part of the frontier and the transitions out of
//! its states. A driver (Python, `hatsuden_rules.modelcheck._ray`) runs it layer by layer:
//!
//! 1. [`Shard::expand`]: every frontier state is checked (the properties of [`Props`], as in
//!    [`crate::search`]) and expanded; each successor goes, as a record (fingerprint, parent
//!    number and move rank, packed words), into the batch of its owner.
//! 2. [`Shard::receive`]: the owner keeps, of the records of each fingerprint not yet visited,
//!    the one of the smallest parent number and rank (a shortest path, as the single-process
//!    search keeps), and returns the codes `parent << 8 | rank` of its new states, sorted.
//! 3. The driver merges the codes of all shards: their order is the numbering of a sequential
//!    breadth-first search, so state numbers, the R35 and R36 samples, the counterexamples and
//!    every figure are those of the single-process run. [`Shard::number`] takes the numbers.
//!
//! Termination (R25) and the longest game: the in-degrees are sent to the owners
//! ([`Shard::edges_out`], [`Shard::indegrees_in`]), then the graph is peeled from the start a
//! level at a time ([`Shard::peel_out`], [`Shard::peel_in`], Kahn): everything peeled means no
//! cycle, and the levels less one are the longest game.
//!
//! Batches are little-endian bytes: a record is 16 bytes of fingerprint, 8 of code and 8 per
//! packed word; a fingerprint alone is 16 bytes.

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::io::{Read, Write};
use std::path::Path;

use hatsuden::packed::Packer;
use hatsuden::{new_game, Decision, Move, Phase, Rules, State};

use crate::props::{decision_name, phase_name, Problem, Props, KIND_NAMES};
use crate::search::{fingerprint, CheckResult, Violation, DETERMINISM_EVERY, FINGERPRINT_BITS, SOUNDNESS_EVERY};

/// The number of counters of a shard (phases 6, end reasons 3, decisions 4, move kinds 17,
/// then expanded states, transitions and soundness checks), summed by the driver.
pub const COUNTERS: usize = 33;

/// A problem found by a shard: rule, message, state number, move rank (-1: the state itself).
pub type Found = (String, String, u64, i64);

/// The shard that owns the state of fingerprint `key` among `shards`.
pub fn owner(key: u128, shards: usize) -> usize {
    ((key >> 64) as u64 % shards as u64) as usize
}

/// One worker's part of the search.
pub struct Shard {
    rules: Rules,
    props: Props,
    packer: Packer,
    positions: bool,
    index: usize,
    shards: usize,
    /// Every state of this shard: fingerprint -> number.
    visited: HashMap<u128, u64>,
    /// The frontier: numbers, fingerprints and packed words, in number order.
    numbers: Vec<u64>,
    keys: Vec<u128>,
    words: Vec<u64>,
    /// The new states of the layer (after `receive`, before `number`), in code order.
    new_keys: Vec<u128>,
    new_words: Vec<u64>,
    /// The transitions out of each expanded state: fingerprint -> successor fingerprints.
    edges: HashMap<u128, Vec<u128>>,
    /// Termination: in-degrees left, and the level being peeled.
    indegree: HashMap<u128, u32>,
    level: Vec<u128>,
    peeled: u64,
    counters: [u64; COUNTERS],
    found: Vec<Found>,
}

fn put_u64(out: &mut Vec<u8>, x: u64) {
    out.extend_from_slice(&x.to_le_bytes());
}

fn put_key(out: &mut Vec<u8>, k: u128) {
    out.extend_from_slice(&k.to_le_bytes());
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

fn key_at(b: &[u8], at: usize) -> u128 {
    u128::from_le_bytes(b[at..at + 16].try_into().expect("16 bytes"))
}

impl Shard {
    /// Shard `index` of `shards` for `rules` (by position with `positions`); the shard that owns
    /// the start state holds it as state 0.
    pub fn new(rules: &Rules, positions: bool, index: usize, shards: usize) -> Result<Shard, String> {
        rules.validate().map_err(|(f, m)| format!("{f}: {m}"))?;
        if shards == 0 || index >= shards {
            return Err(format!("shard {index} of {shards}"));
        }
        let packer = Packer::new(rules, !positions).map_err(|e| e.to_string())?;
        let start = new_game(rules, None).map_err(|e| e.to_string())?;
        let root = if positions { start.position() } else { start };
        let mut shard = Shard {
            rules: *rules,
            props: Props::new(rules, positions),
            packer,
            positions,
            index,
            shards,
            visited: HashMap::new(),
            numbers: Vec::new(),
            keys: Vec::new(),
            words: Vec::new(),
            new_keys: Vec::new(),
            new_words: Vec::new(),
            edges: HashMap::new(),
            indegree: HashMap::new(),
            level: Vec::new(),
            peeled: 0,
            counters: [0; COUNTERS],
            found: Vec::new(),
        };
        let mut packed = vec![0u64; shard.packer.words()];
        shard.packer.pack(&root, &mut packed);
        let key = fingerprint(&packed);
        if owner(key, shards) == index {
            shard.visited.insert(key, 0);
            shard.numbers.push(0);
            shard.keys.push(key);
            shard.words = packed;
        }
        Ok(shard)
    }

    /// The packed words of a state.
    pub fn packed_words(&self) -> usize {
        self.packer.words()
    }

    /// The states of the frontier.
    pub fn frontier(&self) -> &[u64] {
        &self.numbers
    }

    /// The states this shard owns.
    pub fn states(&self) -> u64 {
        self.visited.len() as u64
    }

    /// Check and expand the frontier. `paths` gives the moves (ranks) from the start of the
    /// states sampled for soundness (R36, by position: number % 256 == 0). Returns one batch of
    /// successor records per shard; the counters and problems are kept ([`Shard::take_counts`]).
    pub fn expand(&mut self, paths: &HashMap<u64, Vec<usize>>) -> Vec<Vec<u8>> {
        let w = self.packer.words();
        let mut out: Vec<Vec<u8>> = vec![Vec::new(); self.shards];
        let mut moves = Vec::with_capacity(64);
        let mut problems: Vec<Problem> = Vec::new();
        let mut packed = vec![0u64; w];
        let numbers = std::mem::take(&mut self.numbers);
        let keys = std::mem::take(&mut self.keys);
        let words = std::mem::take(&mut self.words);
        for (k, &number) in numbers.iter().enumerate() {
            let s = self.packer.unpack(&words[k * w..k * w + w]);
            s.legal_moves(&mut moves);
            let c = &mut self.counters;
            c[30] += 1;
            c[s.phase() as usize] += 1;
            if s.is_over() {
                c[6 + s.end_reason() as usize] += 1;
                c[9 + self.props.decision(&s) as usize] += 1;
            }
            for m in &moves {
                c[13 + m.kind_rank() as usize] += 1;
            }
            problems.clear();
            self.props.state_violations(&s, &moves, &mut problems);
            if self.positions && number % SOUNDNESS_EVERY == 0 {
                self.counters[32] += 1;
                match paths.get(&number) {
                    Some(ranks) => self.soundness(ranks, &s, &moves, &mut problems),
                    None => problems.push(("R36", "internal error: no path given for the soundness check".into())),
                }
            }
            for (rule, msg) in problems.drain(..) {
                self.found.push((rule.to_string(), msg, number, -1));
            }
            let mut successors = Vec::with_capacity(moves.len());
            for (rank, m) in moves.iter().enumerate() {
                let after = match s.apply(*m) {
                    Ok(a) => a,
                    Err(e) => {
                        self.found.push(("R35".into(), format!("a legal move was refused: {e}"), number, rank as i64));
                        continue;
                    }
                };
                let determinism = (number + rank as u64) % DETERMINISM_EVERY == 0;
                self.props.transition_violations(&s, m, &after, determinism, &mut problems);
                if self.positions {
                    self.props.knowledge_problems(&s, m, &after, &mut problems);
                }
                for (rule, msg) in problems.drain(..) {
                    self.found.push((rule.to_string(), msg, number, rank as i64));
                }
                self.packer.pack(&after, &mut packed);
                let key = fingerprint(&packed);
                let batch = &mut out[owner(key, self.shards)];
                put_key(batch, key);
                put_u64(batch, number << 8 | rank as u64);
                for x in &packed {
                    put_u64(batch, *x);
                }
                successors.push(key);
            }
            self.counters[31] += successors.len() as u64;
            self.edges.insert(keys[k], successors);
        }
        out
    }

    /// Soundness of a position (R36): its shortest path replayed with full states.
    fn soundness(&self, ranks: &[usize], s: &State, moves: &[Move], out: &mut Vec<Problem>) {
        let (_, stored, full) = replay(&self.rules, self.positions, ranks);
        crate::expand::soundness_problems(&stored, &full, s, moves, out);
    }

    /// Take the batches sent to this shard: of each fingerprint not visited, the record of the
    /// smallest code. Returns the codes of the new states, sorted (8 bytes each).
    pub fn receive(&mut self, batches: &[&[u8]]) -> Vec<u8> {
        let w = self.packer.words();
        let size = 24 + 8 * w;
        let mut records: Vec<(u128, u64, usize, usize)> = Vec::new();
        for (b, batch) in batches.iter().enumerate() {
            for at in (0..batch.len()).step_by(size) {
                let key = key_at(batch, at);
                if !self.visited.contains_key(&key) {
                    records.push((key, u64_at(batch, at + 16), b, at + 24));
                }
            }
        }
        records.sort_unstable_by_key(|r| (r.0, r.1));
        records.dedup_by_key(|r| r.0);
        records.sort_unstable_by_key(|r| r.1);
        self.new_keys = records.iter().map(|r| r.0).collect();
        self.new_words = Vec::with_capacity(records.len() * w);
        let mut codes = Vec::with_capacity(records.len() * 8);
        for &(_, code, b, at) in &records {
            for i in 0..w {
                self.new_words.push(u64_at(batches[b], at + 8 * i));
            }
            put_u64(&mut codes, code);
        }
        codes
    }

    /// The numbers of the new states (in the order of the codes `receive` returned): they
    /// become visited and the next frontier.
    pub fn number(&mut self, numbers: &[u64]) -> Result<(), String> {
        if numbers.len() != self.new_keys.len() {
            return Err(format!("{} numbers for {} new states", numbers.len(), self.new_keys.len()));
        }
        for (key, n) in self.new_keys.iter().zip(numbers) {
            self.visited.insert(*key, *n);
        }
        self.numbers = numbers.to_vec();
        self.keys = std::mem::take(&mut self.new_keys);
        self.words = std::mem::take(&mut self.new_words);
        Ok(())
    }

    /// The counters and problems since the last call.
    pub fn take_counts(&mut self) -> (Vec<u64>, Vec<Found>) {
        let counts = self.counters.to_vec();
        self.counters = [0; COUNTERS];
        (counts, std::mem::take(&mut self.found))
    }

    /// Termination, step 1: the fingerprint of every transition's target, by owner.
    pub fn edges_out(&self) -> Vec<Vec<u8>> {
        let mut out: Vec<Vec<u8>> = vec![Vec::new(); self.shards];
        for successors in self.edges.values() {
            for &k in successors {
                put_key(&mut out[owner(k, self.shards)], k);
            }
        }
        out
    }

    /// Termination, step 2: the in-degrees of this shard's states; the start is level 0.
    pub fn indegrees_in(&mut self, batches: &[&[u8]]) -> u64 {
        self.indegree.clear();
        for batch in batches {
            for at in (0..batch.len()).step_by(16) {
                *self.indegree.entry(key_at(batch, at)).or_insert(0) += 1;
            }
        }
        self.level = self.visited.iter().filter(|(_, &n)| n == 0).map(|(k, _)| *k).collect();
        self.peeled = self.level.len() as u64;
        self.level.len() as u64
    }

    /// Termination, step 3: the targets of the transitions out of the current level, by owner.
    pub fn peel_out(&mut self) -> Vec<Vec<u8>> {
        let mut out: Vec<Vec<u8>> = vec![Vec::new(); self.shards];
        for k in std::mem::take(&mut self.level) {
            for &t in self.edges.get(&k).map(|v| v.as_slice()).unwrap_or(&[]) {
                put_key(&mut out[owner(t, self.shards)], t);
            }
        }
        out
    }

    /// Termination, step 4: one in-degree less per transition received; the states left
    /// without one are the next level. Returns its size.
    pub fn peel_in(&mut self, batches: &[&[u8]]) -> u64 {
        for batch in batches {
            for at in (0..batch.len()).step_by(16) {
                let k = key_at(batch, at);
                if let Some(d) = self.indegree.get_mut(&k) {
                    *d -= 1;
                    if *d == 0 {
                        self.level.push(k);
                    }
                }
            }
        }
        self.peeled += self.level.len() as u64;
        self.level.len() as u64
    }

    /// The states peeled so far (all of them: the graph has no cycle).
    pub fn peeled(&self) -> u64 {
        self.peeled
    }

    /// After peeling: the lowest-numbered state of this shard left with an in-degree (on a
    /// cycle, or after one), with its fingerprint. The walk that shows a cycle starts at the
    /// lowest of all shards, as the single-process search's does.
    pub fn lowest_left(&self) -> Option<(u64, u128)> {
        self.indegree.iter().filter(|(_, &d)| d > 0).map(|(k, _)| (self.visited[k], *k)).min()
    }

    /// Whether the state `key` (of this shard) was left with an in-degree after peeling.
    pub fn left(&self, key: u128) -> bool {
        self.indegree.get(&key).is_some_and(|&d| d > 0)
    }

    /// The number of the state `key` of this shard, and its successors in move order.
    pub fn successors(&self, key: u128) -> Option<(u64, Vec<u128>)> {
        Some((*self.visited.get(&key)?, self.edges.get(&key)?.clone()))
    }

    /// This shard's state, for a checkpoint at the end of a layer (the frontier, the visited
    /// set and the transitions; the counters are the driver's).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let w = self.packer.words();
        let mut b = Vec::new();
        put_u64(&mut b, self.index as u64);
        put_u64(&mut b, self.shards as u64);
        put_u64(&mut b, w as u64);
        put_u64(&mut b, self.visited.len() as u64);
        for (k, n) in &self.visited {
            put_key(&mut b, *k);
            put_u64(&mut b, *n);
        }
        put_u64(&mut b, self.numbers.len() as u64);
        for i in 0..self.numbers.len() {
            put_u64(&mut b, self.numbers[i]);
            put_key(&mut b, self.keys[i]);
            for x in &self.words[i * w..i * w + w] {
                put_u64(&mut b, *x);
            }
        }
        put_u64(&mut b, self.edges.len() as u64);
        for (k, v) in &self.edges {
            put_key(&mut b, *k);
            put_u64(&mut b, v.len() as u64);
            for t in v {
                put_key(&mut b, *t);
            }
        }
        let tmp = path.with_extension("tmp");
        let mut f = fs::File::create(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
        f.write_all(&b).and_then(|_| f.sync_all()).map_err(|e| format!("{}: {e}", tmp.display()))?;
        fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Restore the state `save` wrote.
    pub fn load(&mut self, path: &Path) -> Result<(), String> {
        let mut b = Vec::new();
        fs::File::open(path).and_then(|mut f| f.read_to_end(&mut b)).map_err(|e| format!("{}: {e}", path.display()))?;
        let bad = || format!("{}: not a checkpoint of this shard", path.display());
        let w = self.packer.words();
        if b.len() < 32
            || u64_at(&b, 0) != self.index as u64
            || u64_at(&b, 8) != self.shards as u64
            || u64_at(&b, 16) != w as u64
        {
            return Err(bad());
        }
        let mut at = 24;
        let mut next = |n: usize| -> Result<usize, String> {
            let here = at;
            at += n;
            if at > b.len() {
                return Err(bad());
            }
            Ok(here)
        };
        let count = u64_at(&b, next(8)?) as usize;
        self.visited = HashMap::with_capacity(count);
        for _ in 0..count {
            let i = next(24)?;
            self.visited.insert(key_at(&b, i), u64_at(&b, i + 16));
        }
        let count = u64_at(&b, next(8)?) as usize;
        self.numbers.clear();
        self.keys.clear();
        self.words.clear();
        for _ in 0..count {
            let i = next(24 + 8 * w)?;
            self.numbers.push(u64_at(&b, i));
            self.keys.push(key_at(&b, i + 8));
            for j in 0..w {
                self.words.push(u64_at(&b, i + 24 + 8 * j));
            }
        }
        let count = u64_at(&b, next(8)?) as usize;
        self.edges = HashMap::with_capacity(count);
        for _ in 0..count {
            let i = next(24)?;
            let (k, n) = (key_at(&b, i), u64_at(&b, i + 16) as usize);
            let j = next(16 * n)?;
            self.edges.insert(k, (0..n).map(|x| key_at(&b, j + 16 * x)).collect());
        }
        Ok(())
    }
}

/// The moves of `ranks` from the start (stopping at a rank out of range or a refused move),
/// the stored state they reach and the full state.
pub fn replay(rules: &Rules, positions: bool, ranks: &[usize]) -> (Vec<Move>, State, State) {
    let start = new_game(rules, None).expect("validated rules");
    let mut full = start;
    let mut stored = if positions { start.position() } else { start };
    let mut moves = Vec::new();
    let mut buf = Vec::new();
    for &r in ranks {
        stored.legal_moves(&mut buf);
        let Some(&m) = buf.get(r) else { break };
        moves.push(m);
        match (full.apply(m), stored.apply(m)) {
            (Ok(f), Ok(s)) => {
                full = f;
                stored = if positions { s.position() } else { s };
            }
            _ => break,
        }
    }
    (moves, stored, full)
}

/// What the driver gathered, as the [`CheckResult`] of the single-process search.
pub struct Summary {
    /// The rule set.
    pub rules: Rules,
    /// By position.
    pub positions: bool,
    /// Worker shards.
    pub workers: usize,
    /// The counters of every shard, summed.
    pub counters: Vec<u64>,
    /// Distinct states.
    pub states: u64,
    /// The deepest layer expanded.
    pub max_depth: u64,
    /// The longest game, when the graph was peeled completely.
    pub longest_game: Option<u64>,
    /// The violations, with their paths in notation.
    pub violations: Vec<Violation>,
    /// The states of each layer.
    pub layer_sizes: Vec<u64>,
    /// Wall time.
    pub seconds: f64,
    /// The largest resident memory of a worker.
    pub peak_memory_mb: f64,
    /// `--require-coverage`.
    pub require_coverage: Option<bool>,
    /// Why the run stopped early.
    pub stopped_by: Option<String>,
    /// Bytes of the visited sets.
    pub table_bytes: u64,
}

/// The result of a distributed run: events, end reasons, unreached events and verdict derived
/// as in [`crate::search::check`].
pub fn summarize(s: Summary) -> CheckResult {
    let c = &s.counters;
    let mut events = BTreeMap::new();
    let mut terminal = BTreeMap::new();
    for (p, &n) in c[0..6].iter().enumerate() {
        if n > 0 {
            events.insert(format!("phase {}", phase_name(Phase::ALL[p])), n);
        }
    }
    for (k, name) in [(1usize, "FINAL_TURN"), (2, "STALL")] {
        if c[6 + k] > 0 {
            events.insert(format!("end {name}"), c[6 + k]);
            terminal.insert(name.to_string(), c[6 + k]);
        }
    }
    for (k, d) in [Decision::Total, Decision::CityPoints, Decision::Supply, Decision::SecondPlayer].iter().enumerate() {
        if c[9 + k] > 0 {
            events.insert(format!("decided {}", decision_name(*d)), c[9 + k]);
        }
    }
    for (k, name) in KIND_NAMES.iter().enumerate() {
        if c[13 + k] > 0 {
            events.insert(format!("move {name}"), c[13 + k]);
        }
    }
    let truncated = s.stopped_by.is_some();
    let unreached: Vec<String> = if truncated {
        Vec::new()
    } else {
        crate::props::required_events(&s.rules).into_iter().filter(|e| !events.contains_key(e)).collect()
    };
    let required = s.require_coverage.unwrap_or_else(|| crate::configs::is_named(&s.rules));
    let result = if !s.violations.is_empty() {
        "VIOLATION"
    } else if truncated {
        "TRUNCATED"
    } else if required && !unreached.is_empty() {
        "UNCOVERED"
    } else {
        "OK"
    };
    let n = s.states as f64;
    let m = c[31] as f64 + 1.0;
    CheckResult {
        rules: s.rules,
        result: result.into(),
        states: s.states,
        transitions: c[31],
        terminal_by_reason: terminal,
        chance_nodes: c[0],
        max_depth: s.max_depth,
        longest_game: s.longest_game,
        seconds: s.seconds,
        peak_memory_mb: s.peak_memory_mb,
        violations: s.violations,
        unreached,
        events,
        coverage_required: required,
        positions: s.positions,
        workers: s.workers,
        soundness_checked: c[32],
        collision_probability: n * (m - n).max(0.0) / 2f64.powi(FINGERPRINT_BITS as i32),
        collision_bound: n * (n - 1.0) / 2f64.powi(FINGERPRINT_BITS as i32 + 1),
        table_bytes: s.table_bytes,
        stopped_by: s.stopped_by,
        layer_sizes: s.layer_sizes,
        packed_words: Packer::new(&s.rules, !s.positions).map(|p| p.words()).unwrap_or(0),
        symmetry: false,
        unreduced: None,
        ranked: false,
        layered: false,
    }
}
