//! The search: breadth-first by layers over packed states, 84-bit fingerprints, delayed
//! duplicate detection per layer, parallel expansion, termination (R25) and the longest game.
//!
//! Each layer is done in two passes over its frontier file (packed states, in number order):
//!
//! 1. *Check*: every state is unpacked, checked ([`Props::state_violations`]) and expanded; every
//!    transition is checked; each successor's fingerprint is looked up in the visited set (read
//!    only during the layer) and, if absent, kept as a candidate. The transitions are written
//!    to disk (source fingerprint and out-degree, successor fingerprints) for the termination
//!    pass. Violations are kept as (rule, message, state number, move rank).
//! 2. *Emit*: the candidates are sorted and deduplicated (Korf's delayed duplicate detection,
//!    in memory): they are exactly the next layer. The frontier is expanded again and the first
//!    successor met with each new fingerprint is packed into the next frontier file, with its
//!    parent record (parent number and move rank: the shortest path to it).
//!
//! The visited set is 2^20 shards of sorted 64-bit words: a state's fingerprint is 128 bits of
//! a hash of its packed form, of which the top 20 choose the shard and the low 64 are stored:
//! 84 bits of identity for 8 bytes a state. Memory at the peak is about 8 bytes per visited
//! state plus 16 bytes per candidate of the layer being searched; everything else is on disk.

use crate::props::{decision_name, kind_name, phase_name, Problem, Props, KIND_NAMES};
use hatsuden::packed::Packer;
use hatsuden::{new_game, Move, Rules, State};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Bits of a fingerprint that choose its shard of the visited set.
pub const SHARD_BITS: u32 = 20;
/// Bits of identity of a fingerprint (shard bits + the stored 64).
pub const FINGERPRINT_BITS: u32 = SHARD_BITS + 64;
/// One expanded position in this many (by number) is checked for soundness (R36).
pub const SOUNDNESS_EVERY: u64 = 256;
/// R35 determinism re-applies one transition in this many (`_properties.DETERMINISM_EVERY`).
pub const DETERMINISM_EVERY: u64 = 16;
const CHUNK: usize = 2048;
const BATCH: usize = 1 << 18;
const NO_PARENT: u64 = u64::MAX;
const KEY_BYTES: usize = 12;

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

/// The 128-bit hash of a packed state: two chained 64-bit mixes (murmur3's finaliser).
#[inline]
pub fn fingerprint(words: &[u64]) -> u128 {
    #[inline]
    fn fmix(mut k: u64) -> u64 {
        k ^= k >> 33;
        k = k.wrapping_mul(0xff51afd7ed558ccd);
        k ^= k >> 33;
        k = k.wrapping_mul(0xc4ceb9fe1a85ec53);
        k ^ (k >> 33)
    }
    let mut a: u64 = 0x243f6a8885a308d3;
    let mut b: u64 = 0x13198a2e03707344;
    for &w in words {
        a = fmix(a.rotate_left(17) ^ w.wrapping_mul(0x9e3779b97f4a7c15));
        b = fmix(b.rotate_left(29) ^ w.wrapping_mul(0xbf58476d1ce4e5b9).wrapping_add(0x94d049bb133111eb));
    }
    a = fmix(a ^ words.len() as u64);
    b = fmix(b ^ a.rotate_left(32));
    // The key: shard bits of `a` above the 64 bits of `b`.
    ((a >> (64 - SHARD_BITS)) as u128) << 64 | b as u128
}

#[inline]
fn shard_of(key: u128) -> usize {
    (key >> 64) as usize
}

fn key_bytes(key: u128) -> [u8; KEY_BYTES] {
    let mut out = [0u8; KEY_BYTES];
    out[..4].copy_from_slice(&((key >> 64) as u32).to_le_bytes());
    out[4..].copy_from_slice(&(key as u64).to_le_bytes());
    out
}

fn key_from(b: &[u8]) -> u128 {
    let hi = u32::from_le_bytes(b[..4].try_into().unwrap()) as u128;
    let lo = u64::from_le_bytes(b[4..12].try_into().unwrap()) as u128;
    hi << 64 | lo
}

/// Bits of the shard number that choose a super-shard (a contiguous sorted vector).
const SUPER_BITS: u32 = 12;
const SUB_BITS: u32 = SHARD_BITS - SUPER_BITS;
const SUBS: usize = 1 << SUB_BITS;

/// Where `b` is in the sorted `data` (interpolation from the uniform 64-bit value, then a
/// linear walk: about sqrt(len) steps, one or two cache lines).
#[inline]
fn find(data: &[u64], b: u64) -> Result<usize, usize> {
    let len = data.len();
    if len == 0 {
        return Err(0);
    }
    let mut i = ((b as u128 * len as u128) >> 64) as usize;
    if data[i] < b {
        while i + 1 < len && data[i + 1] <= b {
            i += 1;
        }
        if data[i] == b {
            Ok(i)
        } else {
            Err(i + 1)
        }
    } else {
        while i > 0 && data[i] > b {
            i -= 1;
        }
        if data[i] == b {
            Ok(i)
        } else if data[i] < b {
            Err(i + 1)
        } else {
            Err(i)
        }
    }
}

/// One super-shard: the stored words of its 2^8 shards, sorted by (shard, word), and where
/// each shard starts.
#[derive(Default)]
struct Super {
    data: Vec<u64>,
    offs: Vec<u32>,
}

/// The visited set: the low 64 bits of each fingerprint, sorted, in 2^20 shards chosen by its
/// top 20 bits (grouped into 2^12 contiguous super-shards): 8 bytes a state.
struct Visited {
    supers: Vec<Super>,
    len: u64,
}

impl Visited {
    fn new() -> Visited {
        Visited {
            supers: (0..1usize << SUPER_BITS).map(|_| Super { data: Vec::new(), offs: vec![0; SUBS + 1] }).collect(),
            len: 0,
        }
    }
    #[inline]
    fn locate(&self, key: u128) -> (&Super, usize, usize) {
        let shard = shard_of(key);
        let sup = &self.supers[shard >> SUB_BITS];
        let sub = shard & (SUBS - 1);
        (sup, sup.offs[sub] as usize, sup.offs[sub + 1] as usize)
    }
    #[inline]
    fn contains(&self, key: u128) -> bool {
        let (sup, lo, hi) = self.locate(key);
        find(&sup.data[lo..hi], key as u64).is_ok()
    }
    /// Merge the sorted, duplicate-free `new` keys (none visited).
    #[inline(never)]
    fn merge(&mut self, new: &[u128]) {
        self.merge_by(new, |&k| k);
    }

    /// Merge the items of `new`, sorted by `key` and duplicate-free (none visited).
    fn merge_by<T: Sync>(&mut self, new: &[T], key: impl Fn(&T) -> u128 + Sync) {
        self.len += new.len() as u64;
        self.supers.par_iter_mut().enumerate().for_each(|(g, sup)| {
            let first = g << SUB_BITS;
            let lo = new.partition_point(|k| shard_of(key(k)) < first);
            let hi = new.partition_point(|k| shard_of(key(k)) < first + SUBS);
            if lo == hi {
                return;
            }
            let add = &new[lo..hi];
            let mut data = Vec::with_capacity(sup.data.len() + add.len());
            let mut offs = vec![0u32; SUBS + 1];
            let mut j = 0;
            for sub in 0..SUBS {
                offs[sub] = data.len() as u32;
                let old = &sup.data[sup.offs[sub] as usize..sup.offs[sub + 1] as usize];
                let mut end = j;
                while end < add.len() && shard_of(key(&add[end])) == first + sub {
                    end += 1;
                }
                let run = &add[j..end];
                let (mut a, mut b) = (0, 0);
                while a < old.len() && b < run.len() {
                    let x = key(&run[b]) as u64;
                    if old[a] < x {
                        data.push(old[a]);
                        a += 1;
                    } else {
                        data.push(x);
                        b += 1;
                    }
                }
                data.extend_from_slice(&old[a..]);
                data.extend(run[b..].iter().map(|k| key(k) as u64));
                j = end;
            }
            offs[SUBS] = data.len() as u32;
            sup.data = data;
            sup.offs = offs;
        });
    }
    fn bytes(&self) -> u64 {
        self.supers.iter().map(|s| s.data.capacity() as u64 * 8 + s.offs.capacity() as u64 * 4 + 48).sum()
    }
    /// The rank of the first key of each super-shard (and the total).
    fn offsets(&self) -> Vec<u64> {
        let mut out = Vec::with_capacity(self.supers.len() + 1);
        let mut total = 0u64;
        for s in &self.supers {
            out.push(total);
            total += s.data.len() as u64;
        }
        out.push(total);
        out
    }
    #[inline]
    fn rank(&self, offsets: &[u64], key: u128) -> Option<u64> {
        let (sup, lo, hi) = self.locate(key);
        find(&sup.data[lo..hi], key as u64).ok().map(|i| offsets[shard_of(key) >> SUB_BITS] + (lo + i) as u64)
    }
}

/// Counts of one part of the search, summed over chunks.
#[derive(Clone, Debug, Default)]
struct Counts {
    phases: [u64; 6],
    ends: [u64; 3],
    decided: [u64; 4],
    kinds: [u64; 17],
    expanded: u64,
    transitions: u64,
    soundness: u64,
}

impl Counts {
    fn add(&mut self, o: &Counts) {
        for (a, b) in self.phases.iter_mut().zip(&o.phases) {
            *a += b;
        }
        for (a, b) in self.ends.iter_mut().zip(&o.ends) {
            *a += b;
        }
        for (a, b) in self.decided.iter_mut().zip(&o.decided) {
            *a += b;
        }
        for (a, b) in self.kinds.iter_mut().zip(&o.kinds) {
            *a += b;
        }
        self.expanded += o.expanded;
        self.transitions += o.transitions;
        self.soundness += o.soundness;
    }
    fn to_vec(&self) -> Vec<u64> {
        let mut v = Vec::new();
        v.extend_from_slice(&self.phases);
        v.extend_from_slice(&self.ends);
        v.extend_from_slice(&self.decided);
        v.extend_from_slice(&self.kinds);
        v.extend([self.expanded, self.transitions, self.soundness]);
        v
    }
    fn from_vec(v: &[u64]) -> Counts {
        let mut c = Counts::default();
        c.phases.copy_from_slice(&v[0..6]);
        c.ends.copy_from_slice(&v[6..9]);
        c.decided.copy_from_slice(&v[9..13]);
        c.kinds.copy_from_slice(&v[13..30]);
        c.expanded = v[30];
        c.transitions = v[31];
        c.soundness = v[32];
        c
    }
}

/// A problem found while expanding: (rule, message, state number, move rank or -1).
type Found = (String, String, u64, i64);

struct Pass1 {
    counts: Counts,
    /// Every successor: [key high, key low, parent number << 8 | move rank].
    candidates: Vec<[u64; 3]>,
    src: Vec<u8>,
    dst: Vec<u8>,
    found: Vec<Found>,
}

/// The files of a run.
struct Store {
    dir: PathBuf,
    owned: bool,
    parents: File,
    parents_len: u64,
    out: BufWriter<File>,
    dst: BufWriter<File>,
    keys: BufWriter<File>,
}

impl Store {
    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }
    fn layer(&self, d: u64) -> PathBuf {
        self.dir.join(format!("layer_{d}.bin"))
    }
    /// The parent record of state `n`: (parent number, move rank).
    fn parent(&self, n: u64) -> (u64, usize) {
        let mut b = [0u8; 8];
        self.parents.read_exact_at(&mut b, n * 8).expect("parent record");
        let v = u64::from_le_bytes(b);
        if v == NO_PARENT {
            return (NO_PARENT, 0);
        }
        (v & ((1 << 56) - 1), (v >> 56) as usize)
    }
    /// The move ranks from `new_game()` to state `n`.
    fn ranks_to(&self, mut n: u64) -> Vec<usize> {
        let mut ranks = Vec::new();
        loop {
            let (p, r) = self.parent(n);
            if p == NO_PARENT {
                break;
            }
            ranks.push(r);
            n = p;
        }
        ranks.reverse();
        ranks
    }
}

fn rss_bytes() -> u64 {
    fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1).and_then(|x| x.parse::<u64>().ok()))
        .map(|pages| pages * 4096)
        .unwrap_or(0)
}

fn peak_rss_bytes() -> u64 {
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|x| x.parse::<u64>().ok()))
        })
        .map(|kb| kb * 1024)
        .unwrap_or(0)
}

struct Engine {
    rules: Rules,
    props: Props,
    packer: Packer,
    positions: bool,
    root: State,
}

impl Engine {
    fn stored(&self, s: State) -> State {
        if self.positions {
            s.position()
        } else {
            s
        }
    }

    /// The moves of `ranks` from the start, the stored state they reach and the full state.
    fn replay(&self, ranks: &[usize]) -> (Vec<Move>, State, State) {
        let mut stored = self.root;
        let mut full = new_game(&self.rules, None).expect("rules");
        let mut moves = Vec::new();
        let mut buf = Vec::new();
        for &r in ranks {
            stored.legal_moves(&mut buf);
            let m = buf[r];
            moves.push(m);
            full = full.apply(m).expect("a recorded move");
            stored = self.stored(stored.apply(m).expect("a recorded move"));
        }
        (moves, stored, full)
    }

    /// Check and expand the states of one chunk (pass 1).
    #[inline(never)]
    fn pass1(&self, words: &[u64], first: u64, store: &Store) -> Pass1 {
        let w = self.packer.words();
        let mut r = Pass1 {
            counts: Counts::default(),
            candidates: Vec::new(),
            src: Vec::new(),
            dst: Vec::new(),
            found: Vec::new(),
        };
        let mut moves = Vec::with_capacity(64);
        let mut problems: Vec<Problem> = Vec::new();
        let mut packed = vec![0u64; w];
        for (k, rec) in words.chunks_exact(w).enumerate() {
            let number = first + k as u64;
            let s = self.packer.unpack(rec);
            s.legal_moves(&mut moves);
            let c = &mut r.counts;
            c.expanded += 1;
            c.phases[s.phase() as usize] += 1;
            if s.is_over() {
                c.ends[s.end_reason() as usize] += 1;
                c.decided[self.props.decision(&s) as usize] += 1;
            }
            for m in &moves {
                c.kinds[m.kind_rank() as usize] += 1;
            }
            problems.clear();
            self.props.state_violations(&s, &moves, &mut problems);
            if self.positions && number % SOUNDNESS_EVERY == 0 {
                c.soundness += 1;
                self.soundness(number, &s, &moves, store, &mut problems);
            }
            for (rule, msg) in problems.drain(..) {
                r.found.push((rule.to_string(), msg, number, -1));
            }
            let mut degree = 0u8;
            for (rank, m) in moves.iter().enumerate() {
                let after = match s.apply(*m) {
                    Ok(a) => a,
                    Err(e) => {
                        r.found.push(("R35".into(), format!("a legal move was refused: {e}"), number, rank as i64));
                        continue;
                    }
                };
                let determinism = (number + rank as u64) % DETERMINISM_EVERY == 0;
                self.props.transition_violations(&s, m, &after, determinism, &mut problems);
                if self.positions {
                    self.props.knowledge_problems(&s, m, &after, &mut problems);
                }
                for (rule, msg) in problems.drain(..) {
                    r.found.push((rule.to_string(), msg, number, rank as i64));
                }
                self.packer.pack(&after, &mut packed); // by position: the position is packed
                let key = fingerprint(&packed);
                r.dst.extend_from_slice(&key_bytes(key));
                degree = degree.checked_add(1).expect("at most 255 legal moves per state");
                r.candidates.push([(key >> 64) as u64, key as u64, number << 8 | rank as u64]);
            }
            r.counts.transitions += degree as u64;
            r.src.push(degree);
        }
        r
    }

    /// Soundness of a position (R36): its shortest path replayed with full states.
    #[inline(never)]
    fn soundness(&self, number: u64, s: &State, moves: &[Move], store: &Store, out: &mut Vec<Problem>) {
        let (_, stored, full) = self.replay(&store.ranks_to(number));
        if stored != *s || full.position() != *s {
            out.push(("R36", "replaying the shortest path does not lead to the position".into()));
            return;
        }
        if full.legal_moves_vec() != moves {
            out.push(("R36", "the legal moves depend on the turn logs or known cards".into()));
            return;
        }
        for m in moves {
            let a = full.apply(*m).map(|x| x.position());
            let b = s.apply(*m).map(|x| x.position());
            if a.ok() != b.ok() {
                out.push(("R36", format!("{} leads to a position that depends on the history", kind_name(m))));
            }
        }
    }

    /// Pass 2 on one chunk: the successor of each record (parent number << 8 | move rank,
    /// sorted), packed, with its parent record (`number | rank << 56`).
    #[inline(never)]
    fn pass2(&self, words: &[u64], first: u64, records: &[[u64; 3]]) -> (Vec<u64>, Vec<u64>, Vec<u8>) {
        let w = self.packer.words();
        let mut out = vec![0u64; records.len() * w];
        let mut parents = Vec::with_capacity(records.len());
        let mut keys = Vec::with_capacity(records.len() * KEY_BYTES);
        let mut moves = Vec::with_capacity(64);
        let mut current = u64::MAX;
        let mut s = self.root;
        for (i, r) in records.iter().enumerate() {
            let (number, rank) = (r[2] >> 8, (r[2] & 255) as usize);
            if number != current {
                current = number;
                let k = (number - first) as usize;
                s = self.packer.unpack(&words[k * w..k * w + w]);
                s.legal_moves(&mut moves);
            }
            let after = s.apply(moves[rank]).expect("a move applied in pass 1");
            let slot = &mut out[i * w..i * w + w];
            self.packer.pack(&after, slot);
            let key = fingerprint(slot);
            assert_eq!(key, (r[0] as u128) << 64 | r[1] as u128, "pass 2 rebuilt another state");
            keys.extend_from_slice(&key_bytes(key));
            parents.push(number | (rank as u64) << 56);
        }
        (out, parents, keys)
    }
}

/// Delayed duplicate detection: sort the successor records by (key, parent, rank), keep the
/// first of each key (the smallest parent number and move rank: a shortest path), and drop the
/// keys already visited (looked up in key order, so the visited set is read sequentially).
fn compact(records: &mut Vec<[u64; 3]>, visited: &Visited) {
    records.par_sort_unstable();
    records.dedup_by(|a, b| a[0] == b[0] && a[1] == b[1]);
    // Mark the visited in parallel, then drop them in place (no second copy of the records).
    records.par_chunks_mut(1 << 16).for_each(|part| {
        for r in part.iter_mut() {
            if visited.contains((r[0] as u128) << 64 | r[1] as u128) {
                r[2] = u64::MAX;
            }
        }
    });
    records.retain(|r| r[2] != u64::MAX);
}

fn read_words(file: &mut BufReader<File>, count: usize, w: usize) -> Vec<u64> {
    let mut bytes = vec![0u8; count * w * 8];
    file.read_exact(&mut bytes).expect("frontier file");
    bytes.chunks_exact(8).map(|b| u64::from_le_bytes(b.try_into().unwrap())).collect()
}

fn write_words(file: &mut impl Write, words: &[u64]) {
    let mut bytes = Vec::with_capacity(words.len() * 8);
    for x in words {
        bytes.extend_from_slice(&x.to_le_bytes());
    }
    file.write_all(&bytes).expect("write");
}

/// Explore every state (or position) reachable from `new_game(rules)` and check it.
pub fn check(rules: &Rules, opts: &Options) -> Result<CheckResult, String> {
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
    let engine = Engine {
        rules: *rules,
        props,
        packer,
        positions: opts.positions,
        root: if opts.positions { root0.position() } else { root0 },
    };
    let (dir, owned) = match &opts.checkpoint {
        Some(d) => (d.clone(), false),
        None => {
            let d = std::env::temp_dir().join(format!(
                "hatsuden-native-check-{}-{}",
                std::process::id(),
                start.elapsed().as_nanos()
            ));
            (d, true)
        }
    };
    let meta_path = dir.join("meta.txt");
    let identity = format!("format 1 rules {} positions {} words {w}", rules.format(), opts.positions);
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
    let mut store;
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
            parents: open("parents.u64", Some(states * 8)),
            parents_len: states,
            out: BufWriter::new(open("edges_src.bin", Some(edges_src))),
            dst: BufWriter::new(open("edges_dst.bin", Some(edges_dst))),
            keys: BufWriter::new(open("keys.bin", Some(states * KEY_BYTES as u64))),
        };
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
        let mut packed = vec![0u64; w];
        engine.packer.pack(&engine.root, &mut packed);
        let key = fingerprint(&packed);
        visited.merge(&[key]);
        store = Store {
            dir: dir.clone(),
            owned,
            parents: open("parents.u64", None),
            parents_len: 0,
            out: BufWriter::new(open("edges_src.bin", None)),
            dst: BufWriter::new(open("edges_dst.bin", None)),
            keys: BufWriter::new(open("keys.bin", None)),
        };
        store.parents.write_all_at(&NO_PARENT.to_le_bytes(), 0).map_err(|e| e.to_string())?;
        store.parents_len = 1;
        store.keys.write_all(&key_bytes(key)).map_err(|e| e.to_string())?;
        let mut f = File::create(store.layer(0)).map_err(|e| e.to_string())?;
        write_words(&mut f, &packed);
        depth = 0;
        states = 1;
        layer_sizes = Vec::new();
    }
    let mut stopped_by: Option<String> = None;
    let mut peak = peak_rss_bytes();
    let mut max_depth = depth;
    loop {
        let layer_path = store.layer(depth);
        let size = fs::metadata(&layer_path).map(|m| m.len()).unwrap_or(0) / (w as u64 * 8);
        if size == 0 {
            break;
        }
        max_depth = depth;
        let layer_start = states - size;
        let layer_clock = Instant::now();
        // Pass 1: check and expand; collect the candidates of the next layer.
        let mut candidates: Vec<[u64; 3]> = Vec::new();
        let mut dedup_at = 1usize << 22;
        let mut compacted = 0usize;
        let mut reader = BufReader::with_capacity(1 << 22, File::open(&layer_path).map_err(|e| e.to_string())?);
        let mut done = 0u64;
        while done < size {
            let count = (size - done).min(BATCH as u64) as usize;
            let words = read_words(&mut reader, count, w);
            let first = layer_start + done;
            let results: Vec<Pass1> = words
                .par_chunks(CHUNK * w)
                .enumerate()
                .map(|(k, part)| engine.pass1(part, first + (k * CHUNK) as u64, &store))
                .collect();
            for r in results {
                counts.add(&r.counts);
                candidates.extend_from_slice(&r.candidates);
                store.out.write_all(&r.src).map_err(|e| e.to_string())?;
                store.dst.write_all(&r.dst).map_err(|e| e.to_string())?;
                for f in r.found {
                    if found.len() < opts.max_violations {
                        found.push(f);
                    }
                }
            }
            // Compact when the records doubled since the last time, or earlier when the memory
            // limit comes near (they have grown by a tenth at least).
            let near_limit = opts.max_memory.is_some_and(|limit| rss_bytes() as f64 > 0.75 * limit as f64);
            if candidates.len() > dedup_at || (near_limit && candidates.len() * 10 > compacted * 11) {
                compact(&mut candidates, &visited);
                compacted = candidates.len();
                dedup_at = (candidates.len() * 2).max(1 << 22);
            }
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
        compact(&mut candidates, &visited);
        let new_count = candidates.len() as u64;
        layer_sizes.push(size);
        let next_path = store.layer(depth + 1);
        if new_count > 0 {
            // The new keys (sorted) join the visited set; then the records are sorted by parent
            // and rank, the order in which pass 2 emits them (the numbering of a sequential BFS).
            visited.merge_by(&candidates, |r| (r[0] as u128) << 64 | r[1] as u128);
            candidates.par_sort_unstable_by_key(|r| r[2]);
            // Pass 2: pack the next layer from the parents, in order.
            let mut next = BufWriter::with_capacity(1 << 22, File::create(&next_path).map_err(|e| e.to_string())?);
            let mut reader = BufReader::with_capacity(1 << 22, File::open(&layer_path).map_err(|e| e.to_string())?);
            let mut done = 0u64;
            let mut parent_bytes: Vec<u8> = Vec::new();
            let mut emitted = 0u64;
            let mut at = 0usize;
            while done < size {
                let count = (size - done).min(BATCH as u64) as usize;
                let words = read_words(&mut reader, count, w);
                let first = layer_start + done;
                let end = at + candidates[at..].partition_point(|r| r[2] >> 8 < first + count as u64);
                let records = &candidates[at..end];
                let results: Vec<(Vec<u64>, Vec<u64>, Vec<u8>)> = words
                    .par_chunks(CHUNK * w)
                    .enumerate()
                    .map(|(k, part)| {
                        let lo_n = first + (k * CHUNK) as u64;
                        let hi_n = lo_n + (part.len() / w) as u64;
                        let lo = records.partition_point(|r| r[2] >> 8 < lo_n);
                        let hi = records.partition_point(|r| r[2] >> 8 < hi_n);
                        engine.pass2(part, lo_n, &records[lo..hi])
                    })
                    .collect();
                for (packed, parents, keys) in results {
                    write_words(&mut next, &packed);
                    for p in &parents {
                        parent_bytes.extend_from_slice(&p.to_le_bytes());
                    }
                    store.keys.write_all(&keys).map_err(|e| e.to_string())?;
                    emitted += parents.len() as u64;
                }
                store.parents.write_all_at(&parent_bytes, store.parents_len * 8).map_err(|e| e.to_string())?;
                store.parents_len += (parent_bytes.len() / 8) as u64;
                parent_bytes.clear();
                at = end;
                done += count as u64;
                peak = peak.max(rss_bytes());
            }
            next.flush().map_err(|e| e.to_string())?;
            if emitted != new_count {
                return Err(format!("internal error: {emitted} states emitted for {new_count} new fingerprints"));
            }
            drop(candidates);
        } else {
            File::create(&next_path).map_err(|e| e.to_string())?;
        }
        states += new_count;
        depth += 1;
        peak = peak.max(peak_rss_bytes());
        // The checkpoint of the layer.
        store.out.flush().map_err(|e| e.to_string())?;
        store.dst.flush().map_err(|e| e.to_string())?;
        store.keys.flush().map_err(|e| e.to_string())?;
        let edges_src = store.out.get_ref().metadata().map(|m| m.len()).unwrap_or(0);
        let edges_dst = store.dst.get_ref().metadata().map(|m| m.len()).unwrap_or(0);
        let seconds = elapsed_before + start.elapsed().as_secs_f64();
        let mut meta = format!("{identity}\n{depth} {states} {edges_src} {edges_dst} {}\n", seconds.to_bits());
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
        let _ = fs::remove_file(&layer_path);
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
    if !truncated {
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
    }
    let truncated = stopped_by.is_some();
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
    let result = if !violations.is_empty() {
        "VIOLATION"
    } else if truncated {
        "TRUNCATED"
    } else if required && !unreached.is_empty() {
        "UNCOVERED"
    } else {
        "OK"
    };
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
    };
    if store.owned {
        drop(store.out);
        drop(store.dst);
        drop(store.keys);
        let _ = fs::remove_dir_all(&dir);
    }
    Ok(result)
}

impl Engine {
    /// Like `replay`, stopping at a rank that is out of range (a refused move is still named).
    fn replay_lenient(&self, ranks: &[usize]) -> (Vec<Move>, State, State) {
        let mut stored = self.root;
        let mut full = new_game(&self.rules, None).expect("rules");
        let mut moves = Vec::new();
        let mut buf = Vec::new();
        for &r in ranks {
            stored.legal_moves(&mut buf);
            let Some(&m) = buf.get(r) else { break };
            moves.push(m);
            match (full.apply(m), stored.apply(m)) {
                (Ok(f), Ok(s)) => {
                    full = f;
                    stored = self.stored(s);
                }
                _ => break,
            }
        }
        (moves, stored, full)
    }
}

enum Graph {
    Longest(u64),
    Cycle(Vec<(u64, usize)>),
    TooBig(String),
}

/// Termination (R25) and the longest game, from the transition files: every successor's
/// fingerprint becomes a state number (through its rank in the visited set), then the graph is
/// peeled from the start a level at a time (Kahn): all peeled means no cycle, and the number of
/// levels less one is the longest game; otherwise a cycle is walked among the states left.
fn termination(
    store: &Store,
    visited: Visited,
    states: u64,
    transitions: u64,
    max_memory: Option<u64>,
    peak: &mut u64,
) -> Result<Graph, String> {
    let n = states as usize;
    // Phase A holds the visited set (already counted in the resident memory) with a rank ->
    // number map (4 bytes a state) and the out-degrees (1); phase B, without the visited set,
    // the successors as numbers (4 bytes a transition), in-degrees (2), out-degrees (1).
    let phase_a = 5 * states;
    let phase_b = 4 * transitions + 3 * states + (states / 64 + 1) * 8 + (64 << 20);
    if let Some(limit) = max_memory {
        if rss_bytes() + phase_a > limit || phase_b > limit {
            return Ok(Graph::TooBig("the memory limit (the termination pass)".into()));
        }
    }
    if states >= u32::MAX as u64 {
        return Ok(Graph::TooBig("more than 2^32 states (the termination pass)".into()));
    }
    let offsets = visited.offsets();
    // Sources: state number -> degree; rank -> number.
    let mut degree = vec![0u8; n];
    let mut rank_to_num = vec![u32::MAX; n];
    {
        let mut f =
            BufReader::with_capacity(1 << 22, File::open(store.path("edges_src.bin")).map_err(|e| e.to_string())?);
        f.read_exact(&mut degree).map_err(|e| format!("edges_src.bin: {e}"))?;
        let mut keys =
            BufReader::with_capacity(1 << 22, File::open(store.path("keys.bin")).map_err(|e| e.to_string())?);
        let step = 1usize << 20;
        let mut bytes = vec![0u8; step * KEY_BYTES];
        let mut num = 0usize;
        while num < n {
            let count = (n - num).min(step);
            keys.read_exact(&mut bytes[..count * KEY_BYTES]).map_err(|e| format!("keys.bin: {e}"))?;
            let ranks: Vec<u64> = bytes[..count * KEY_BYTES]
                .par_chunks(KEY_BYTES)
                .map(|b| visited.rank(&offsets, key_from(b)).unwrap_or(u64::MAX))
                .collect();
            for (k, rank) in ranks.into_iter().enumerate() {
                if rank == u64::MAX {
                    return Err("a state's fingerprint is not in the visited set".into());
                }
                rank_to_num[rank as usize] = (num + k) as u32;
            }
            num += count;
        }
    }
    // Targets as state numbers, written to disk while the visited set is still held.
    let targets_path = store.path("targets.u32");
    {
        let mut f =
            BufReader::with_capacity(1 << 22, File::open(store.path("edges_dst.bin")).map_err(|e| e.to_string())?);
        let mut out = BufWriter::with_capacity(1 << 22, File::create(&targets_path).map_err(|e| e.to_string())?);
        let step = 1usize << 20;
        let mut done = 0u64;
        let mut bytes = vec![0u8; step * KEY_BYTES];
        while done < transitions {
            let count = (transitions - done).min(step as u64) as usize;
            f.read_exact(&mut bytes[..count * KEY_BYTES]).map_err(|e| format!("edges_dst.bin: {e}"))?;
            let nums: Vec<u32> = bytes[..count * KEY_BYTES]
                .par_chunks(KEY_BYTES)
                .map(|b| visited.rank(&offsets, key_from(b)).map(|r| rank_to_num[r as usize]).unwrap_or(u32::MAX))
                .collect();
            if nums.contains(&u32::MAX) {
                return Err("an edge leads to a fingerprint that was never stored".into());
            }
            let mut b = Vec::with_capacity(count * 4);
            for x in nums {
                b.extend_from_slice(&x.to_le_bytes());
            }
            out.write_all(&b).map_err(|e| e.to_string())?;
            done += count as u64;
        }
        out.flush().map_err(|e| e.to_string())?;
    }
    *peak = (*peak).max(peak_rss_bytes());
    drop(visited);
    drop(rank_to_num);
    drop(offsets);
    let mut targets = vec![0u32; transitions as usize];
    {
        let mut f = File::open(&targets_path).map_err(|e| e.to_string())?;
        f.seek(SeekFrom::Start(0)).map_err(|e| e.to_string())?;
        let mut r = BufReader::with_capacity(1 << 22, f);
        let mut b = vec![0u8; 1 << 22];
        let mut i = 0usize;
        while i < targets.len() {
            let count = (targets.len() - i).min(1 << 20);
            r.read_exact(&mut b[..count * 4]).map_err(|e| e.to_string())?;
            for (k, c) in b[..count * 4].chunks_exact(4).enumerate() {
                targets[i + k] = u32::from_le_bytes(c.try_into().unwrap());
            }
            i += count;
        }
    }
    let _ = fs::remove_file(&targets_path);
    // Sparse edge offsets: every 64th state.
    let mut sparse = Vec::with_capacity(n / 64 + 2);
    let mut total = 0u64;
    for (i, &d) in degree.iter().enumerate() {
        if i % 64 == 0 {
            sparse.push(total);
        }
        total += d as u64;
    }
    let edge_start = |v: usize| -> usize {
        let mut o = sparse[v / 64] as usize;
        for &d in &degree[v / 64 * 64..v] {
            o += d as usize;
        }
        o
    };
    let mut indegree = vec![0u16; n];
    for &t in &targets {
        let d = &mut indegree[t as usize];
        match d.checked_add(1) {
            Some(x) => *d = x,
            None => return Ok(Graph::TooBig("a state with 65,536 predecessors or more (the termination pass)".into())),
        }
    }
    let mut level: Vec<u32> = (0..n as u32).filter(|&v| indegree[v as usize] == 0).collect();
    let mut peeled = 0u64;
    let mut levels = 0u64;
    while !level.is_empty() {
        peeled += level.len() as u64;
        levels += 1;
        let mut next = Vec::new();
        for &v in &level {
            let s = edge_start(v as usize);
            for &t in &targets[s..s + degree[v as usize] as usize] {
                indegree[t as usize] -= 1;
                if indegree[t as usize] == 0 {
                    next.push(t);
                }
            }
        }
        level = next;
    }
    *peak = (*peak).max(peak_rss_bytes());
    if peeled == states {
        return Ok(Graph::Longest(levels.saturating_sub(1)));
    }
    // A cycle: walk forward among the states left (indegree > 0) until one repeats.
    let mut v = (0..n).find(|&v| indegree[v] > 0).unwrap();
    let mut seen = std::collections::HashMap::new();
    let mut walk: Vec<(u64, usize)> = Vec::new();
    while !seen.contains_key(&v) {
        seen.insert(v, walk.len());
        let s = edge_start(v);
        let (rank, &t) =
            targets[s..s + degree[v] as usize].iter().enumerate().find(|(_, &t)| indegree[t as usize] > 0).unwrap();
        walk.push((v as u64, rank));
        v = t as usize;
    }
    Ok(Graph::Cycle(walk[seen[&v]..].to_vec()))
}

/// A cycle as the shortest path to its first state, then the loop (R25).
fn cycle_violation(engine: &Engine, store: &Store, cycle: &[(u64, usize)]) -> Violation {
    let mut ranks = store.ranks_to(cycle[0].0);
    ranks.extend(cycle.iter().map(|&(_, r)| r));
    let (moves, _, _) = engine.replay_lenient(&ranks);
    Violation {
        rule: "R25".into(),
        message: format!("a cycle of {} moves: the game need not end", cycle.len()),
        path: moves.iter().map(|m| m.format()).collect(),
    }
}

/// The run's directory, for callers that keep it.
pub fn run_dir(opts: &Options) -> Option<&Path> {
    opts.checkpoint.as_deref()
}
