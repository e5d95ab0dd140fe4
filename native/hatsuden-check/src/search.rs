//! The search: breadth-first by layers over packed states, 84-bit fingerprints, delayed
//! duplicate detection per layer, parallel expansion, termination (R25) and the longest game.
//!
//! Each layer is done in two passes over its frontier (packed states, in number order):
//!
//! 1. *Check*: every state is unpacked, checked ([`Props::state_violations`]) and expanded; every
//!    transition is checked, and its successor packed and fingerprinted into a successor record
//!    (fingerprint, parent number, move rank). The transitions (out-degree, successor
//!    fingerprints) are kept for the termination pass. Violations are kept as (rule, message,
//!    state number, move rank).
//! 2. *Emit*: the records are sorted, deduplicated and the visited ones dropped (Korf's delayed
//!    duplicate detection, in memory: [`compact_parts`] by partition, or [`compact`] as a large
//!    layer's records grow): the rest are exactly the next layer. Each
//!    new state is packed into the next frontier, in the order of its parent and move rank, with
//!    its parent record (the shortest path to it): copied from the successors pass 1 kept, or,
//!    past their budget, rebuilt from the parents.
//!
//! The visited set is 2^20 shards of sorted 64-bit words: a state's fingerprint is 128 bits of
//! a hash of its packed form, of which the top 20 choose the shard and the low 64 are stored:
//! 84 bits of identity for 8 bytes a state. Memory at the peak is about 8 bytes per visited
//! state plus 16 bytes per successor record of the layer being searched; everything else (the
//! frontier, parent records, keys and transitions: `src/store.rs`) is on disk, or in memory
//! when no checkpoint is kept and it fits in [`Options::store_budget`].
//!
//! *Termination.* Duplicate detection counts the records dropped as visited: transitions back to
//! a state of the same layer or an earlier one. When there are none in the whole search the
//! graph is *layered*: every transition leads exactly one layer deeper, so no path returns to a
//! state (no cycle, R25) and every game of n moves ends in layer n: the longest game is the
//! last layer's depth ([`CheckResult::layered`]; `choice` by position is such a graph). Otherwise
//! the termination pass (`src/termination.rs`) peels the graph of the kept transitions.

use crate::expand::{
    compact, compact_parts, emit_kept, record_key, record_link, Counts, Engine, Found, Parts, Pass1, Record, MAX_NUMBER,
};
use crate::props::{decision_name, phase_name, Props, KIND_NAMES};
use crate::store::{peak_rss_bytes, rss_bytes, Layer, Parents, Sink, Store, NO_PARENT};
pub use crate::table::{fingerprint, FINGERPRINT_BITS, SHARD_BITS};
use crate::table::{key_bytes, key_from, Visited, KEY_BYTES};
use crate::termination::{cycle_violation, termination, Graph};
use hatsuden::packed::Packer;
use hatsuden::{new_game, Rules};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// One expanded position in this many (by number) is checked for soundness (R36).
pub const SOUNDNESS_EVERY: u64 = 256;
/// R35 determinism re-applies one transition in this many (`_properties.DETERMINISM_EVERY`).
pub const DETERMINISM_EVERY: u64 = 16;
const CHUNK: usize = 2048;
const BATCH: usize = 1 << 18;

/// How to run a check.
#[derive(Clone, Debug)]
pub struct Options {
    /// Identify states by position (R36).
    pub positions: bool,
    /// Threads expanding states.
    pub workers: usize,
    /// Stop (TRUNCATED) once this many states are known.
    pub max_states: Option<u64>,
    /// Stop (TRUNCATED) before the resident memory passes this many bytes.
    pub max_memory: Option<u64>,
    /// The run's directory (kept, with a checkpoint per layer); None: a temporary one.
    pub checkpoint: Option<PathBuf>,
    /// Continue the run checkpointed in `checkpoint`.
    pub resume: bool,
    /// Keep at most this many violations.
    pub max_violations: usize,
    /// Print a line per layer (and progress) on stderr.
    pub progress: bool,
    /// Whether unreached required events fail the check (None: for the named configurations).
    pub require_coverage: Option<bool>,
    /// Use the ranked engine ([`crate::ranked`]): external memory, exact storage, in the order
    /// of a ranking function (issue 21 §2).
    pub ranked: bool,
    /// Stop (TRUNCATED) after the layer of this depth (the breadth-first engine only; the
    /// ranked engine uses it to find its shortest counterexamples).
    pub max_depth: Option<u64>,
    /// Store one state (or position) per orbit of the row swaps ([`crate::symmetry`]): `states`
    /// then counts orbits, and [`CheckResult::unreduced`] gives the figures of the full search.
    pub symmetry: bool,
    /// Bytes of a layer's packed successors that pass 1 may keep for pass 2 to copy (default:
    /// an eighth of `max_memory`, else 1 GiB); beyond them pass 2 rebuilds each new state from
    /// its parent. `Some(0)` always rebuilds.
    pub successor_budget: Option<u64>,
    /// Successor records a layer gathers before duplicate detection compacts them as they grow
    /// (default 2^22; beyond it, or near `max_memory`, they are compacted each time they double).
    /// Tests set a small one to run that path on small graphs.
    pub dedup_budget: Option<u64>,
    /// Run the termination pass (R25) even when the graph is layered, where the layers alone
    /// prove termination and give the longest game (tests compare the two).
    pub peel: bool,
    /// Bytes of the run's data (frontier layer, parent records, keys, transitions) kept in
    /// memory when no `checkpoint` is given (default: an eighth of `max_memory`, else 256
    /// MiB); past them the data goes to files in the run's directory. `Some(0)`: files always.
    pub store_budget: Option<u64>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            positions: false,
            workers: 1,
            max_states: None,
            max_memory: None,
            checkpoint: None,
            resume: false,
            max_violations: 10,
            progress: false,
            require_coverage: None,
            ranked: false,
            max_depth: None,
            symmetry: false,
            successor_budget: None,
            dedup_budget: None,
            store_budget: None,
            peel: false,
        }
    }
}

/// A broken property with the shortest move sequence from `new_game()` that shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The rule.
    pub rule: String,
    /// What broke.
    pub message: String,
    /// The moves, in notation.
    pub path: Vec<String>,
}

/// The figures of the unreduced search, from a search with symmetry: each stored state counted
/// as many times as its orbit has members (they share their phase, end reason and out-degree).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreduced {
    /// States (or positions).
    pub states: u64,
    /// Transitions.
    pub transitions: u64,
    /// Terminal states by end reason (Python names).
    pub terminal_by_reason: BTreeMap<String, u64>,
    /// States in CHANCE.
    pub chance_nodes: u64,
}

/// What a check found (the fields of the Python `CheckResult`).
#[derive(Clone, Debug)]
pub struct CheckResult {
    /// The rule set.
    pub rules: Rules,
    /// OK, VIOLATION, TRUNCATED or UNCOVERED.
    pub result: String,
    /// Distinct states (or positions).
    pub states: u64,
    /// Transitions.
    pub transitions: u64,
    /// Terminal states by end reason (Python names).
    pub terminal_by_reason: BTreeMap<String, u64>,
    /// States in CHANCE.
    pub chance_nodes: u64,
    /// The depth of the deepest state.
    pub max_depth: u64,
    /// The longest game (None if cut short or cyclic).
    pub longest_game: Option<u64>,
    /// Wall time.
    pub seconds: f64,
    /// Peak resident memory.
    pub peak_memory_mb: f64,
    /// Violations found.
    pub violations: Vec<Violation>,
    /// Required events never reached.
    pub unreached: Vec<String>,
    /// Event counts.
    pub events: BTreeMap<String, u64>,
    /// Whether unreached events fail the check.
    pub coverage_required: bool,
    /// By position.
    pub positions: bool,
    /// Threads.
    pub workers: usize,
    /// Positions checked for soundness.
    pub soundness_checked: u64,
    /// TLC's estimate n (m - n) / 2^bits.
    pub collision_probability: f64,
    /// The birthday bound n^2 / 2^(bits + 1).
    pub collision_bound: f64,
    /// Bytes of the visited set.
    pub table_bytes: u64,
    /// Which limit stopped the run.
    pub stopped_by: Option<String>,
    /// States per layer.
    pub layer_sizes: Vec<u64>,
    /// Words per packed state.
    pub packed_words: usize,
    /// One state per orbit of the row swaps was stored: `states` counts orbits.
    pub symmetry: bool,
    /// With symmetry: the figures of the unreduced search.
    pub unreduced: Option<Unreduced>,
    /// Whether the ranked engine ran ([`crate::ranked`]): exact storage, no fingerprints.
    pub ranked: bool,
    /// Whether termination (R25) and the longest game followed from the layers alone: every
    /// transition led one layer deeper (the breadth-first engine, a search run to its end).
    pub layered: bool,
}

impl CheckResult {
    /// States per second of wall time.
    pub fn states_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.states as f64 / self.seconds
        } else {
            0.0
        }
    }
}

/// Explore every state (or position) reachable from `new_game(rules)` and check it.
pub fn check(rules: &Rules, opts: &Options) -> Result<CheckResult, String> {
    if opts.ranked {
        return crate::ranked::check_ranked(rules, opts, crate::ranked::rank);
    }
    let start = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(opts.workers.max(1)).build().map_err(|e| e.to_string())?;
    pool.install(|| run(rules, opts, start))
}

fn run(rules: &Rules, opts: &Options, start: Instant) -> Result<CheckResult, String> {
    rules.validate().map_err(|(f, m)| format!("{f}: {m}"))?;
    let props = Props::new(rules, opts.positions);
    let packer = Packer::new(rules, !opts.positions).map_err(|e| e.to_string())?;
    let w = packer.words();
    let root0 = new_game(rules, None).map_err(|e| e.to_string())?;
    let mut engine = Engine {
        rules: *rules,
        props,
        packer,
        positions: opts.positions,
        symmetry: opts.symmetry,
        root: root0,
        root_mask: 0,
    };
    let mut root_packed = vec![0u64; w];
    let (_, root_mask) = engine.pack_stored(&root0, &mut root_packed);
    engine.root = engine.stored(crate::symmetry::apply_mask(&root0, root_mask));
    engine.root_mask = root_mask;
    let engine = engine;
    let (dir, owned) = match &opts.checkpoint {
        Some(d) => (d.clone(), false),
        None => (fresh_run_dir("hatsuden-native-check")?, true),
    };
    let meta_path = dir.join("meta.txt");
    let mut identity = format!("format 1 rules {} positions {} words {w}", rules.format(), opts.positions);
    if opts.symmetry {
        identity += " symmetry";
    }
    if meta_path.exists() && !opts.resume {
        return Err(format!("{} holds a checkpoint: resume it, or use another directory", dir.display()));
    }
    if opts.resume && !meta_path.exists() {
        return Err(format!("no checkpoint to resume in {}", dir.display()));
    }
    fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let open = |name: &str, truncate_to: Option<u64>| -> File {
        let f = OpenOptions::new().create(true).read(true).append(true).open(dir.join(name)).expect("run file");
        f.set_len(truncate_to.unwrap_or(0)).expect("truncate");
        f
    };
    let mut visited = Visited::new();
    let mut counts = Counts::default();
    let mut found: Vec<Found> = Vec::new();
    let mut depth: u64;
    let mut states: u64;
    let mut layer_sizes: Vec<u64>;
    let mut elapsed_before = 0.0f64;
    // Transitions (distinct successors of a layer) back to a state of the same layer or an
    // earlier one; none: the graph is layered (u64::MAX: unknown, a checkpoint of an older run).
    let mut back_edges: u64 = 0;
    let mut store;
    let mut frontier: Layer;
    let store_budget = opts.store_budget.unwrap_or_else(|| opts.max_memory.map_or(256 << 20, |m| m / 8));
    if opts.resume {
        let meta = fs::read_to_string(&meta_path).map_err(|e| e.to_string())?;
        let mut lines = meta.lines();
        if lines.next() != Some(identity.as_str()) {
            return Err(format!("{} holds a run of other rules or another identity", dir.display()));
        }
        let nums = |l: Option<&str>| -> Vec<u64> {
            l.unwrap_or("").split_whitespace().filter_map(|x| x.parse().ok()).collect()
        };
        let head = nums(lines.next());
        depth = head[0];
        states = head[1];
        let edges_src = head[2];
        let edges_dst = head[3];
        elapsed_before = f64::from_bits(head[4]);
        back_edges = head.get(5).copied().unwrap_or(u64::MAX);
        counts = Counts::from_vec(&nums(lines.next()));
        layer_sizes = nums(lines.next());
        for l in lines {
            let parts: Vec<&str> = l.splitn(4, '\t').collect();
            if parts.len() == 4 {
                found.push((
                    parts[0].into(),
                    parts[3].into(),
                    parts[1].parse().unwrap_or(0),
                    parts[2].parse().unwrap_or(-1),
                ));
            }
        }
        store = Store {
            dir: dir.clone(),
            owned,
            parents: Parents::File(open("parents.u64", Some(states * 8))),
            parents_len: states,
            out: Sink::file(open("edges_src.bin", Some(edges_src))),
            dst: Sink::file(open("edges_dst.bin", Some(edges_dst))),
            keys: Sink::file(open("keys.bin", Some(states * KEY_BYTES as u64))),
        };
        frontier = Layer::File(store.layer(depth));
        // Rebuild the visited set from the keys of every state, 2^26 keys (1 GB) at a time.
        let mut f = BufReader::with_capacity(1 << 22, File::open(dir.join("keys.bin")).map_err(|e| e.to_string())?);
        let step = 1u64 << 26;
        let mut done = 0u64;
        let mut bytes = vec![0u8; step as usize * KEY_BYTES];
        while done < states {
            let count = (states - done).min(step) as usize;
            f.read_exact(&mut bytes[..count * KEY_BYTES]).map_err(|e| e.to_string())?;
            let mut part: Vec<u128> = bytes[..count * KEY_BYTES].par_chunks(KEY_BYTES).map(key_from).collect();
            part.par_sort_unstable();
            visited.merge(&part);
            done += count as u64;
        }
    } else {
        let packed = root_packed;
        let key = fingerprint(&packed);
        visited.merge(&[key]);
        store = if opts.checkpoint.is_none() && store_budget > 0 {
            // No checkpoint: the run's data stays in memory while it fits in the budget.
            Store::in_memory(dir.clone(), owned)
        } else {
            Store {
                dir: dir.clone(),
                owned,
                parents: Parents::File(open("parents.u64", None)),
                parents_len: 0,
                out: Sink::file(open("edges_src.bin", None)),
                dst: Sink::file(open("edges_dst.bin", None)),
                keys: Sink::file(open("keys.bin", None)),
            }
        };
        store.push_parents(&NO_PARENT.to_le_bytes()).map_err(|e| e.to_string())?;
        store.keys.write_all(&key_bytes(key)).map_err(|e| e.to_string())?;
        let mut first = store.layer_writer(0).map_err(|e| e.to_string())?;
        first.write(&packed);
        frontier = first.finish().map_err(|e| e.to_string())?;
        depth = 0;
        states = 1;
        layer_sizes = Vec::new();
    }
    let mut stopped_by: Option<String> = None;
    let mut peak = peak_rss_bytes();
    let mut max_depth = depth;
    // Seconds spent in pass 1, duplicate detection, the visited set's merge, pass 2, the
    // checkpoints, the termination pass and the gathering of pass 1's results (shown with
    // --progress).
    let mut clock = [0f64; 7];
    let mut lap = Instant::now();
    let mut tick = |slot: usize, clock: &mut [f64; 7]| {
        clock[slot] += lap.elapsed().as_secs_f64();
        lap = Instant::now();
    };
    // The successor records of the layer being searched.
    let mut candidates: Vec<Record> = Vec::new();
    loop {
        let size = frontier.words() / w as u64;
        if size == 0 {
            break;
        }
        if states > MAX_NUMBER {
            return Err(format!("more than {MAX_NUMBER} states: the successor records cannot name them"));
        }
        max_depth = depth;
        let layer_start = states - size;
        let layer_clock = Instant::now();
        // Pass 1: check and expand; collect the candidates of the next layer.
        candidates.clear();
        // The layer's packed successors in transition order and where each state's begin, kept
        // while they fit in a budget (an eighth of --max-memory, else 1 GiB).
        let budget = opts.successor_budget.unwrap_or_else(|| opts.max_memory.map_or(1 << 30, |m| m / 8)) / 8;
        let mut keep = w as u64 * size * 2 <= budget;
        // The workers' vectors of successors, as they are; `succ_first[p]`: the first transition
        // of part `p` (and the layer's transitions so far, last).
        let mut succ: Vec<Vec<u64>> = Vec::new();
        let mut succ_first: Vec<usize> = vec![0];
        let mut succ_words = 0u64;
        let mut first_edge: Vec<u64> = vec![0];
        let dedup_min = opts.dedup_budget.map_or(1 << 22, |b| b as usize);
        let mut dedup_at = dedup_min;
        let mut compacted = 0usize;
        // The workers' records, each chunk's ordered by partition, while they are few
        // (`dedup_at`) and no memory limit is near: duplicate detection then gathers each
        // partition from them in parallel (`compact_parts`). Past that they go into
        // `candidates`, compacted as they grow.
        let mut pending: Vec<(Vec<Record>, Parts)> = Vec::new();
        let mut pending_len = 0usize;
        let mut reader = frontier.reader().map_err(|e| e.to_string())?;
        let mut done = 0u64;
        while done < size {
            let count = (size - done).min(BATCH as u64) as usize;
            let words = reader.batch(count, w);
            let first = layer_start + done;
            let results: Vec<Pass1> = words
                .par_chunks(CHUNK * w)
                .enumerate()
                .map(|(k, part)| engine.pass1(part, first + (k * CHUNK) as u64, &store, keep))
                .collect();
            tick(0, &mut clock);
            for mut r in results {
                if keep && r.dense && succ_words + r.succ.len() as u64 <= budget {
                    succ_words += r.succ.len() as u64;
                    let mut at = *first_edge.last().unwrap();
                    for &d in &r.src {
                        at += d as u64;
                        first_edge.push(at);
                    }
                    succ_first.push(at as usize);
                    succ.push(std::mem::take(&mut r.succ));
                } else if keep {
                    keep = false;
                    succ = Vec::new();
                    succ_first = Vec::new();
                    first_edge = Vec::new();
                }
                counts.add(&r.counts);
                if candidates.is_empty() && pending_len + r.candidates.len() <= dedup_at {
                    pending_len += r.candidates.len();
                    pending.push((std::mem::take(&mut r.candidates), r.parts));
                } else {
                    for (records, _) in pending.drain(..) {
                        candidates.extend_from_slice(&records);
                    }
                    pending_len = 0;
                    candidates.extend_from_slice(&r.candidates);
                }
                store.out.push(r.src).map_err(|e| e.to_string())?;
                store.dst.push(r.dst).map_err(|e| e.to_string())?;
                for f in r.found {
                    if found.len() < opts.max_violations {
                        found.push(f);
                    }
                }
            }
            tick(6, &mut clock);
            // Compact when the records doubled since the last time, or earlier when the memory
            // limit comes near (they have grown by a tenth at least).
            let near_limit = opts.max_memory.is_some_and(|limit| rss_bytes() as f64 > 0.75 * limit as f64);
            if near_limit {
                for (records, _) in pending.drain(..) {
                    candidates.extend_from_slice(&records);
                }
                pending_len = 0;
            }
            if candidates.len() > dedup_at || (near_limit && candidates.len() * 10 > compacted * 11) {
                tick(0, &mut clock);
                back_edges = back_edges.saturating_add(compact(&mut candidates, &visited) as u64);
                compacted = candidates.len();
                dedup_at = (candidates.len() * 2).max(dedup_min);
            }
            tick(1, &mut clock);
            done += count as u64;
            peak = peak.max(rss_bytes());
            if let Some(limit) = opts.max_memory {
                if rss_bytes() as f64 > 0.95 * limit as f64 {
                    stopped_by = Some("the memory limit (--max-memory)".into());
                    break;
                }
            }
        }
        if stopped_by.is_some() {
            break;
        }
        // By partition, the new keys join the visited set as they are found (`merged`).
        let (dropped, merged) = if candidates.is_empty() {
            (compact_parts(&pending, &mut visited, &mut candidates), true)
        } else {
            debug_assert!(pending.is_empty());
            (compact(&mut candidates, &visited), false)
        };
        // (Unknown, u64::MAX, stays unknown.)
        back_edges = back_edges.saturating_add(dropped as u64);
        drop(pending);
        let new_count = candidates.len() as u64;
        tick(1, &mut clock);
        layer_sizes.push(size);
        let mut next = store.layer_writer(depth + 1).map_err(|e| e.to_string())?;
        if new_count > 0 {
            // The new keys (sorted) join the visited set; then the records are sorted by parent
            // and rank, the order in which pass 2 emits them (the numbering of a sequential BFS).
            if !merged {
                visited.merge_by(&candidates, record_key);
            }
            if !keep {
                candidates.par_sort_unstable_by_key(record_link);
            }
            tick(2, &mut clock);
            // Pass 2: pack the next layer from the parents, in order.
            if keep {
                // The successors were kept: copy the new ones, in transition order.
                let (packed, parents, keys) = emit_kept(&candidates, &first_edge, &succ, &succ_first, w, layer_start)?;
                drop((succ, succ_first, first_edge));
                next.write_vec(packed);
                store.keys.push(keys).map_err(|e| e.to_string())?;
                store.push_parent_words(&parents).map_err(|e| e.to_string())?;
            }
            let mut reader = frontier.reader().map_err(|e| e.to_string())?;
            let mut done = 0u64;
            let mut emitted = if keep { new_count } else { 0 };
            let mut at = 0usize;
            while done < size && !keep {
                let count = (size - done).min(BATCH as u64) as usize;
                let words = reader.batch(count, w);
                let first = layer_start + done;
                let end = at + candidates[at..].partition_point(|r| record_link(r) >> 8 < first + count as u64);
                let records = &candidates[at..end];
                let results: Vec<(Vec<u64>, Vec<u64>, Vec<u8>)> = words
                    .par_chunks(CHUNK * w)
                    .enumerate()
                    .map(|(k, part)| {
                        let lo_n = first + (k * CHUNK) as u64;
                        let hi_n = lo_n + (part.len() / w) as u64;
                        let lo = records.partition_point(|r| record_link(r) >> 8 < lo_n);
                        let hi = records.partition_point(|r| record_link(r) >> 8 < hi_n);
                        engine.pass2(part, lo_n, &records[lo..hi])
                    })
                    .collect();
                for (packed, parents, keys) in results {
                    next.write(&packed);
                    store.push_parent_words(&parents).map_err(|e| e.to_string())?;
                    store.keys.push(keys).map_err(|e| e.to_string())?;
                    emitted += parents.len() as u64;
                }
                at = end;
                done += count as u64;
                peak = peak.max(rss_bytes());
            }
            if emitted != new_count {
                return Err(format!("internal error: {emitted} states emitted for {new_count} new fingerprints"));
            }
            if opts.max_memory.is_some() {
                // Under a memory limit the records' memory is given back; otherwise the next
                // layer reuses it (no page faults).
                candidates = Vec::new();
            }
            tick(3, &mut clock);
        }
        let mut next = next.finish().map_err(|e| e.to_string())?;
        states += new_count;
        depth += 1;
        peak = peak.max(peak_rss_bytes());
        // The checkpoint of the layer.
        store.out.flush().map_err(|e| e.to_string())?;
        store.dst.flush().map_err(|e| e.to_string())?;
        store.keys.flush().map_err(|e| e.to_string())?;
        if store.is_memory() && store.memory(&next) > store_budget {
            // Past the budget: the data so far goes to files, and the run goes on with them.
            store.spill(&mut next, depth).map_err(|e| e.to_string())?;
        }
        let seconds = elapsed_before + start.elapsed().as_secs_f64();
        if !store.owned {
            // (A temporary directory is removed at the end: nothing can resume from it.)
            let edges_src = store.out.written().map_err(|e| e.to_string())?;
            let edges_dst = store.dst.written().map_err(|e| e.to_string())?;
            let mut meta =
                format!("{identity}\n{depth} {states} {edges_src} {edges_dst} {} {back_edges}\n", seconds.to_bits());
            meta += &counts.to_vec().iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" ");
            meta += "\n";
            meta += &layer_sizes.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" ");
            meta += "\n";
            for (rule, msg, n, r) in &found {
                meta += &format!("{rule}\t{n}\t{r}\t{}\n", msg.replace('\n', " "));
            }
            let tmp = dir.join("meta.txt.new");
            fs::write(&tmp, meta).map_err(|e| e.to_string())?;
            fs::rename(&tmp, &meta_path).map_err(|e| e.to_string())?;
        }
        std::mem::replace(&mut frontier, next).remove();
        tick(4, &mut clock);
        if opts.progress {
            let secs = layer_clock.elapsed().as_secs_f64();
            eprintln!(
                "depth {:>3}  layer {:>13}  new {:>13}  states {:>14}  transitions {:>14}  {:>9.0} states/s  {:>7.1} s  rss {:>7} MB  peak {:>7} MB  total {:>8.1} s",
                depth - 1,
                size,
                new_count,
                states,
                counts.transitions,
                size as f64 / secs.max(1e-9),
                secs,
                rss_bytes() >> 20,
                peak >> 20,
                seconds
            );
        }
        if let Some(limit) = opts.max_states {
            if states > limit {
                stopped_by = Some("the state limit".into());
                break;
            }
        }
        if opts.max_depth.is_some_and(|d| depth > d) {
            stopped_by = Some("the depth limit".into());
            break;
        }
    }
    let truncated = stopped_by.is_some();
    // Counterexamples: the shortest path to the state, and the move.
    let mut violations: Vec<Violation> = Vec::new();
    for (rule, msg, n, r) in &found {
        let mut ranks = store.ranks_to(*n);
        if *r >= 0 {
            ranks.push(*r as usize);
        }
        let (moves, _, _) = engine.replay_lenient(&ranks);
        violations.push(Violation {
            rule: rule.clone(),
            message: msg.clone(),
            path: moves.iter().map(|m| m.format()).collect(),
        });
    }
    let table_bytes = visited.bytes();
    let mut longest = None;
    // Layered: no transition went back to a state of its own layer or an earlier one, so each
    // leads exactly one layer deeper. No cycle then (R25), and a game of n moves ends in layer
    // n: the longest game is the depth of the last layer, and the termination pass is not needed.
    let layered = !truncated && back_edges == 0 && !opts.peel;
    if layered {
        longest = Some(max_depth);
    } else if !truncated {
        store.out.flush().map_err(|e| e.to_string())?;
        store.dst.flush().map_err(|e| e.to_string())?;
        match termination(&store, visited, states, counts.transitions, opts.max_memory, &mut peak)? {
            Graph::Longest(l) => longest = Some(l),
            Graph::Cycle(cycle) => {
                if violations.len() < opts.max_violations {
                    violations.push(cycle_violation(&engine, &store, &cycle));
                }
            }
            Graph::TooBig(why) => stopped_by = Some(why),
        }
        tick(5, &mut clock);
    }
    if opts.progress {
        eprintln!(
            "seconds: pass 1 {:.2}, its results gathered {:.2}, duplicates {:.2}, visited set {:.2}, pass 2 {:.2}, checkpoints {:.2}, termination {:.2}",
            clock[0], clock[6], clock[1], clock[2], clock[3], clock[4], clock[5]
        );
    }
    let truncated = stopped_by.is_some();
    let Outcome { events, terminal, unreached, required, result } =
        outcome(&counts, rules, opts, truncated, !violations.is_empty());
    let n = states as f64;
    let m = counts.transitions as f64 + 1.0;
    let result = CheckResult {
        rules: *rules,
        result: result.into(),
        states,
        transitions: counts.transitions,
        terminal_by_reason: terminal,
        chance_nodes: counts.phases[0],
        max_depth,
        longest_game: longest,
        seconds: elapsed_before + start.elapsed().as_secs_f64(),
        peak_memory_mb: peak.max(peak_rss_bytes()) as f64 / (1u64 << 20) as f64,
        violations,
        unreached,
        events,
        coverage_required: required,
        positions: opts.positions,
        workers: opts.workers,
        soundness_checked: counts.soundness,
        collision_probability: n * (m - n).max(0.0) / 2f64.powi(FINGERPRINT_BITS as i32),
        collision_bound: n * (n - 1.0) / 2f64.powi(FINGERPRINT_BITS as i32 + 1),
        table_bytes,
        stopped_by,
        layer_sizes,
        packed_words: w,
        symmetry: opts.symmetry,
        ranked: false,
        layered,
        unreduced: opts.symmetry.then(|| {
            let u = &counts.unreduced;
            let terminal_by_reason = [(1usize, "FINAL_TURN"), (2, "STALL")]
                .iter()
                .filter(|(k, _)| u[3 + k] > 0)
                .map(|(k, name)| (name.to_string(), u[3 + k]))
                .collect();
            Unreduced { states: u[0], transitions: u[1], terminal_by_reason, chance_nodes: u[2] }
        }),
    };
    if store.owned {
        drop(store.out);
        drop(store.dst);
        drop(store.keys);
        let _ = fs::remove_dir_all(&dir);
    }
    Ok(result)
}

/// A new, empty directory for a run without `--checkpoint`, in the temporary directory: named
/// by `prefix`, the process, the clock and a number, and created by this call (two runs at
/// once, in one process or two, never share one: the first to create a name owns it, the other
/// takes the next number).
pub(crate) fn fresh_run_dir(prefix: &str) -> Result<PathBuf, String> {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    for n in 0..1000 {
        let d = std::env::temp_dir().join(format!("{prefix}-{}-{nanos}-{n}", std::process::id()));
        match fs::create_dir(&d) {
            Ok(()) => return Ok(d),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(format!("{}: {e}", d.display())),
        }
    }
    Err("no new run directory in the temporary directory".into())
}

/// The run's directory, for callers that keep it.
pub fn run_dir(opts: &Options) -> Option<&Path> {
    opts.checkpoint.as_deref()
}

/// What the event counts of a search say (shared by the breadth-first and ranked engines): the
/// events reached, terminal states by end reason, the required events never reached, the verdict.
pub(crate) struct Outcome {
    pub(crate) events: BTreeMap<String, u64>,
    pub(crate) terminal: BTreeMap<String, u64>,
    pub(crate) unreached: Vec<String>,
    pub(crate) required: bool,
    pub(crate) result: &'static str,
}

/// The [`Outcome`] of `counts`: VIOLATION, TRUNCATED, UNCOVERED (a required event unreached where
/// coverage is required) or OK.
pub(crate) fn outcome(counts: &Counts, rules: &Rules, opts: &Options, truncated: bool, violated: bool) -> Outcome {
    let mut events = BTreeMap::new();
    let mut terminal = BTreeMap::new();
    for (p, &n) in counts.phases.iter().enumerate() {
        if n > 0 {
            events.insert(format!("phase {}", phase_name(hatsuden::Phase::ALL[p])), n);
        }
    }
    for (k, name) in [(1usize, "FINAL_TURN"), (2, "STALL")] {
        if counts.ends[k] > 0 {
            events.insert(format!("end {name}"), counts.ends[k]);
            terminal.insert(name.to_string(), counts.ends[k]);
        }
    }
    for (k, d) in [
        hatsuden::Decision::Total,
        hatsuden::Decision::CityPoints,
        hatsuden::Decision::Supply,
        hatsuden::Decision::SecondPlayer,
    ]
    .iter()
    .enumerate()
    {
        if counts.decided[k] > 0 {
            events.insert(format!("decided {}", decision_name(*d)), counts.decided[k]);
        }
    }
    for (k, name) in KIND_NAMES.iter().enumerate() {
        if counts.kinds[k] > 0 {
            events.insert(format!("move {name}"), counts.kinds[k]);
        }
    }
    let unreached: Vec<String> = if truncated {
        Vec::new()
    } else {
        crate::props::required_events(rules).into_iter().filter(|e| !events.contains_key(e)).collect()
    };
    let required = opts.require_coverage.unwrap_or_else(|| crate::configs::is_named(rules));
    let result = if violated {
        "VIOLATION"
    } else if truncated {
        "TRUNCATED"
    } else if required && !unreached.is_empty() {
        "UNCOVERED"
    } else {
        "OK"
    };
    Outcome { events, terminal, unreached, required, result }
}
