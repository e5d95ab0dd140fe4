//! The ranked engine (issue 21 §2): an external-memory search in the order of a ranking
//! function, with exact storage, for configurations whose visited set does not fit in memory.
//!
//! A **ranking function** [`rank`] maps every state to a `u64` that strictly increases on every
//! transition; the engine checks this on every transition and stops with an error (a failure of
//! the method, never ignored) if one does not increase. Then:
//!
//! - no cycle exists, so every game ends (R25), with no termination pass;
//! - states are processed in increasing rank ("buckets"): every predecessor of a state lies in a
//!   lower bucket, so a bucket is complete when its turn comes, and has no internal edge, so it
//!   can be split by a hash of the state into parts processed one at a time;
//! - a bucket's raw file holds successor **records**: the packed words of the state (its exact
//!   identity: no fingerprint, no collision) and its minimum and maximum depth. A part is read
//!   and deduplicated in memory (min of the minimum depths, max of the maximum depths),
//!   then every state is checked and expanded with the checks of the breadth-first engine, and
//!   its successors are appended to the raw files of their buckets (buffered, deduplicated per
//!   buffer); the part's file is then deleted.
//!
//! The figures are the breadth-first engine's: positions (the sum of the deduplicated sizes),
//! transitions, terminal states, events; `max_depth` is the largest minimum depth (the BFS
//! depth) and `longest_game` the largest maximum depth (exact: every predecessor of a state is
//! processed before it). `layer_sizes` are the positions per minimum depth (the BFS layers).
//!
//! After each part the run directory (the pending raw files and `ranked.txt`, the counters) is a
//! checkpoint: a run killed at any moment resumes from the last one. Appending a record twice is
//! harmless (deduplication is idempotent), so a part interrupted after some of its successors
//! were written is simply processed again.

use crate::expand::{soundness_problems, Counts, Engine};
use crate::props::{Problem, Props, ScoreMemo};
use crate::search::{outcome, Outcome};
use crate::search::{CheckResult, Options, Unreduced, Violation, DETERMINISM_EVERY, SOUNDNESS_EVERY};
use crate::store::{peak_rss_bytes, rss_bytes};
use crate::symmetry::pack_oriented;
use crate::table::fingerprint;
use hatsuden::packed::Packer;
use hatsuden::{new_game, Move, Pending, Phase, Rules, State, FACE_DOWN};
use rayon::prelude::*;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A ranking function: strictly increasing on every transition, or the engine stops.
pub type RankFn = fn(&State) -> u64;

/// The ranking function of HATSUDEN, lexicographic in (most significant first):
///
/// 1. the cards in cells on both boards (16 bits): never decreases, and grows with every
///    Construct, Improve, Downsize and BuildPylon (R10-R14; cards stay in their cells, R21);
/// 2. the stall progress (16 bits): 0 once a card went into a cell this turn (the played cell
///    is set, R23 step 1), else the stall counter + 1; so the end of a turn that added a card
///    (counter reset to 0) passes from 0 to 1 while (1) already grew, and the end of a turn
///    that did not passes from counter + 1 to counter + 2 (R23, R25);
/// 3. a sum of counters that never decrease (24 bits): cards dealt from the deck (R6, R7, R22),
///    tech cards drawn (R17), placed ACCUMULATOR and SMART (R18), face-down stacks (pylons and
///    flips, R14, R21, R41);
/// 4. the progress within the turn (8 bits): ACTION (and the setup deals) 0, TECH 1, the
///    DealTech 2, OVERFLOW 3, DRAW 4, the draw's Deal 5, GAME_OVER 6 (R9).
///
/// Within a turn, every move raises (1) (a card into a cell), (3) (a deal, a tech card drawn or
/// placed, a flip) or (4) (Discard, Pass, DrawTech, DeclineTech, DrawFromDeck), and the end of a
/// turn raises (2) unless (1) grew. With `stall_limit = None` the counter is unbounded and the
/// printed rules have endless games (R25): the engine refuses that configuration.
pub fn rank(s: &State) -> u64 {
    let mut cells = 0u64;
    let mut face_down = 0u64;
    for p in 0..2 {
        for st in s.board(p) {
            cells += st.len as u64;
            face_down += (st.len > 0 && st.flags & FACE_DOWN != 0) as u64;
        }
    }
    let rules = s.rules();
    let stall = if s.played_cell().is_some() { 0 } else { (s.stall_count() as u64 + 1).min(0xffff) };
    let dealt = rules.card_count() - s.deck_size() as u64;
    let drawn = (rules.techs & !s.tech_deck()).count_ones() as u64;
    let placed = s.accumulator().is_some() as u64 + s.smart().is_some() as u64;
    let counters = dealt + drawn + placed + face_down;
    let progress = match s.phase() {
        Phase::Chance => match s.pending() {
            Pending::Tech => 2,
            Pending::Draw => 5,
            _ => 0,
        },
        Phase::Action => 0,
        Phase::Tech => 1,
        Phase::Overflow => 3,
        Phase::Draw => 4,
        Phase::GameOver => 6,
    };
    cells.min(0xffff) << 48 | stall << 32 | counters.min(0xff_ffff) << 8 | progress
}

/// The rank's components, for messages: (cards in cells, stall progress, counters, progress).
fn rank_parts(r: u64) -> String {
    format!("({}, {}, {}, {})", r >> 48, r >> 32 & 0xffff, r >> 8 & 0xff_ffff, r & 0xff)
}

thread_local! {
    static MEMO: RefCell<ScoreMemo> = RefCell::new(ScoreMemo::new());
}

/// The counters of a run, kept in its checkpoint.
#[derive(Clone, Debug, Default)]
struct Totals {
    counts: Counts,
    /// Positions (weighted by orbit size) and stored images (orbits).
    positions: u64,
    orbits: u64,
    max_depth: u64,
    longest: u64,
    /// Positions by minimum depth.
    layers: Vec<u64>,
    parts: u64,
    peak_disk: u64,
    seconds: f64,
    /// (rule, message, minimum depth of the state).
    found: Vec<(String, String, u64)>,
}

impl Totals {
    fn to_text(&self, identity: &str) -> String {
        let mut t = format!("{identity}\n");
        t += &format!(
            "{} {} {} {} {} {} {}\n",
            self.positions,
            self.orbits,
            self.max_depth,
            self.longest,
            self.parts,
            self.peak_disk,
            self.seconds.to_bits()
        );
        t += &join(&self.counts.to_vec());
        t += "\n";
        t += &join(&self.layers);
        t += "\n";
        for (rule, msg, d) in &self.found {
            t += &format!("{rule}\t{d}\t{}\n", msg.replace(['\n', '\t'], " "));
        }
        t
    }
    fn from_text(text: &str, identity: &str) -> Result<Totals, String> {
        let mut lines = text.lines();
        if lines.next() != Some(identity) {
            return Err("the checkpoint holds a run of other rules, identity or engine".into());
        }
        let nums = |l: Option<&str>| -> Vec<u64> {
            l.unwrap_or("").split_whitespace().filter_map(|x| x.parse().ok()).collect()
        };
        let head = nums(lines.next());
        let counts = nums(lines.next());
        if head.len() != 7 || counts.len() != 39 {
            return Err("the checkpoint's counters are damaged".into());
        }
        let layers = nums(lines.next());
        let mut found = Vec::new();
        for l in lines {
            let p: Vec<&str> = l.splitn(3, '\t').collect();
            if p.len() == 3 {
                found.push((p[0].to_string(), p[2].to_string(), p[1].parse().unwrap_or(0)));
            }
        }
        Ok(Totals {
            counts: Counts::from_vec(&counts),
            positions: head[0],
            orbits: head[1],
            max_depth: head[2],
            longest: head[3],
            parts: head[4],
            peak_disk: head[5],
            seconds: f64::from_bits(head[6]),
            layers,
            found,
        })
    }
}

fn join(v: &[u64]) -> String {
    v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" ")
}

/// A pending file of the run directory: a bucket's raw file, or one part of a split bucket.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct PendingFile {
    bucket: u64,
    part: Option<u32>,
    path: PathBuf,
    bytes: u64,
}

fn bucket_path(dir: &Path, bucket: u64) -> PathBuf {
    dir.join(format!("b{bucket:016x}.raw"))
}

fn part_path(dir: &Path, bucket: u64, part: u32) -> PathBuf {
    dir.join(format!("b{bucket:016x}.p{part:04}.raw"))
}

/// The pending files, lowest bucket first; the total of their sizes.
fn pending(dir: &Path) -> Result<(Vec<PendingFile>, u64), String> {
    let mut out = Vec::new();
    let mut total = 0;
    for e in fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let e = e.map_err(|e| e.to_string())?;
        let name = e.file_name().to_string_lossy().to_string();
        let Some(stem) = name.strip_prefix('b').and_then(|n| n.strip_suffix(".raw")) else { continue };
        let bytes = e.metadata().map_err(|e| e.to_string())?.len();
        total += bytes;
        let (b, part) = match stem.split_once(".p") {
            Some((b, p)) => (b, Some(p.parse::<u32>().map_err(|_| format!("unexpected file {name}"))?)),
            None => (stem, None),
        };
        let bucket = u64::from_str_radix(b, 16).map_err(|_| format!("unexpected file {name}"))?;
        out.push(PendingFile { bucket, part, path: e.path(), bytes });
    }
    out.sort();
    Ok((out, total))
}

/// Explore every state (or position) of `rules` in the order of `rank` (see the module).
pub fn check_ranked(rules: &Rules, opts: &Options, rank: RankFn) -> Result<CheckResult, String> {
    let start = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(opts.workers.max(1)).build().map_err(|e| e.to_string())?;
    let w = Packer::new(rules, !opts.positions).map_err(|e| e.to_string())?.words();
    pool.install(|| match w {
        1 => Ranked::<2>::run(rules, opts, rank, start),
        2 => Ranked::<3>::run(rules, opts, rank, start),
        3 => Ranked::<4>::run(rules, opts, rank, start),
        4 => Ranked::<5>::run(rules, opts, rank, start),
        5 => Ranked::<6>::run(rules, opts, rank, start),
        6 => Ranked::<7>::run(rules, opts, rank, start),
        7 => Ranked::<8>::run(rules, opts, rank, start),
        8 => Ranked::<9>::run(rules, opts, rank, start),
        9 => Ranked::<10>::run(rules, opts, rank, start),
        10 => Ranked::<11>::run(rules, opts, rank, start),
        11 => Ranked::<12>::run(rules, opts, rank, start),
        12 => Ranked::<13>::run(rules, opts, rank, start),
        13 => Ranked::<14>::run(rules, opts, rank, start),
        14 => Ranked::<15>::run(rules, opts, rank, start),
        15 => Ranked::<16>::run(rules, opts, rank, start),
        16 => Ranked::<17>::run(rules, opts, rank, start),
        _ => Err(format!("the ranked engine stores at most 16 words a state; these rules need {w}")),
    })
}

/// What expanding a chunk of states gives.
struct ChunkOut<const R: usize> {
    counts: Counts,
    succ: Vec<(u64, [u64; R])>,
    found: Vec<(String, String, u64)>,
    broken: Option<String>,
    positions: u64,
    max_depth: u64,
    longest: u64,
    layers: Vec<u64>,
}

/// The engine for records of `R` words: `R - 1` packed words, then the depths
/// (minimum << 32 | maximum).
struct Ranked<const R: usize> {
    engine: Engine,
    rank: RankFn,
    dir: PathBuf,
    /// Raw records a part may hold; buffered successor records before a flush.
    part_records: u64,
    flush_records: usize,
    buffers: HashMap<u64, Vec<[u64; R]>, BuildHasherDefault<RankHasher>>,
    buffered: usize,
    /// The write of the last flush, under way on its own thread.
    writing: Option<std::thread::JoinHandle<Result<(), String>>>,
    peak_disk: u64,
}

const DEPTH_MASK: u64 = 0xffff_ffff;

/// The hasher of the successor buffers' map, keyed by rank: one multiplication (a successor is
/// filed on every transition; the map holds a few thousand buckets, no adversary).
#[derive(Default)]
struct RankHasher(u64);

impl Hasher for RankHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    #[inline]
    fn write_u64(&mut self, x: u64) {
        // The rank's low bits (progress, counters) and high bits (cells) both vary: fold them.
        let h = (self.0 ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = h ^ h >> 29;
    }
}

/// Sort and merge the records of equal states (min of the minimum depths, max of the maximum).
/// Large vectors are ordered by a hash of the state first ([`radix_by_hash`]: linear, where a
/// comparison sort of a part of `huge` takes some 27 levels), small ones by a comparison sort.
/// Either way the records of a state end up adjacent, its smallest minimum depth first.
fn dedup<const R: usize>(v: &mut Vec<[u64; R]>) {
    if v.len() > RADIX_MIN {
        radix_by_hash(v);
    } else {
        v.sort_unstable();
    }
    let mut k = 0usize;
    for i in 0..v.len() {
        if k > 0 && v[k - 1][..R - 1] == v[i][..R - 1] {
            // Sorted: the first of a run has the smallest minimum depth.
            let max = (v[k - 1][R - 1] & DEPTH_MASK).max(v[i][R - 1] & DEPTH_MASK);
            v[k - 1][R - 1] = (v[k - 1][R - 1] & !DEPTH_MASK) | max;
        } else {
            v[k] = v[i];
            k += 1;
        }
    }
    v.truncate(k);
}

/// Below this many records [`dedup`] sorts by comparison.
const RADIX_MIN: usize = 1 << 12;

/// A 64-bit mix of a record's state words (not its depths).
#[inline(always)]
fn key_hash<const R: usize>(r: &[u64; R]) -> u64 {
    let mut h = 0x243f_6a88_85a3_08d3u64;
    for &x in &r[..R - 1] {
        h = (h ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        h ^= h >> 29;
    }
    h.wrapping_mul(0xbf58_476d_1ce4_e5b9)
}

/// The bits of [`key_hash`] the radix passes order by, and their digits.
const HASH_BITS: u32 = 33;
const DIGIT: u32 = 11;

/// Orders `v` by the top [`HASH_BITS`] bits of [`key_hash`] (a least-significant-digit radix
/// sort: three stable passes of 11 bits through a scratch copy), then sorts each run of equal
/// hash bits by comparison: the records of a state are adjacent, its smallest minimum depth
/// first. Exact whatever the hash does (distinct states with equal bits are sorted apart); the
/// hash only decides the speed and the order of the states, which no figure depends on.
fn radix_by_hash<const R: usize>(v: &mut [[u64; R]]) {
    let n = v.len();
    let digit =
        |r: &[u64; R], pass: u32| ((key_hash(r) >> (64 - HASH_BITS) >> (pass * DIGIT)) & ((1 << DIGIT) - 1)) as usize;
    let passes = HASH_BITS / DIGIT;
    let mut counts = vec![0usize; (passes as usize) << DIGIT];
    for r in v.iter() {
        let h = key_hash(r) >> (64 - HASH_BITS);
        for pass in 0..passes {
            counts[(pass as usize) << DIGIT | ((h >> (pass * DIGIT)) & ((1 << DIGIT) - 1)) as usize] += 1;
        }
    }
    for pass in 0..passes as usize {
        let c = &mut counts[pass << DIGIT..(pass + 1) << DIGIT];
        let mut at = 0;
        for x in c.iter_mut() {
            let k = *x;
            *x = at;
            at += k;
        }
    }
    let mut tmp = vec![[0u64; R]; n];
    for pass in 0..passes {
        let (from, to): (&[[u64; R]], &mut [[u64; R]]) =
            if pass % 2 == 0 { (&*v, &mut tmp[..]) } else { (&tmp[..], &mut *v) };
        let c = &mut counts[(pass as usize) << DIGIT..(pass as usize + 1) << DIGIT];
        for r in from {
            let d = digit(r, pass);
            to[c[d]] = *r;
            c[d] += 1;
        }
    }
    if passes % 2 == 1 {
        v.copy_from_slice(&tmp);
    }
    drop(tmp);
    let mut i = 0;
    while i < n {
        let h = key_hash(&v[i]) >> (64 - HASH_BITS);
        let mut j = i + 1;
        while j < n && key_hash(&v[j]) >> (64 - HASH_BITS) == h {
            j += 1;
        }
        if j - i > 1 {
            v[i..j].sort_unstable();
        }
        i = j;
    }
}

fn to_bytes<const R: usize>(v: &[[u64; R]]) -> Vec<u8> {
    let mut b = Vec::with_capacity(v.len() * R * 8);
    for r in v {
        for x in r {
            b.extend_from_slice(&x.to_le_bytes());
        }
    }
    b
}

fn read_records<const R: usize>(path: &Path) -> Result<Vec<[u64; R]>, String> {
    let mut f = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let len = f.metadata().map_err(|e| e.to_string())?.len() as usize;
    let n = len / (R * 8);
    let mut out = Vec::with_capacity(n);
    let mut buf = vec![0u8; (1 << 20) * R * 8];
    let mut left = n;
    while left > 0 {
        let k = left.min(1 << 20);
        f.read_exact(&mut buf[..k * R * 8]).map_err(|e| format!("{}: {e}", path.display()))?;
        for rec in buf[..k * R * 8].chunks_exact(R * 8) {
            let mut r = [0u64; R];
            for (j, x) in rec.chunks_exact(8).enumerate() {
                r[j] = u64::from_le_bytes(x.try_into().expect("8 bytes"));
            }
            out.push(r);
        }
        left -= k;
    }
    Ok(out)
}

fn append(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut f =
        OpenOptions::new().create(true).append(true).open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    f.write_all(bytes).map_err(|e| format!("{}: {e}", path.display()))
}

impl<const R: usize> Ranked<R> {
    fn run(rules: &Rules, opts: &Options, rank: RankFn, start: Instant) -> Result<CheckResult, String> {
        rules.validate().map_err(|(f, m)| format!("{f}: {m}"))?;
        if rules.stall_limit.is_none() {
            return Err("the ranked engine needs a stall limit (R25): without one the game has endless plays".into());
        }
        let packer = Packer::new(rules, !opts.positions).map_err(|e| e.to_string())?;
        let root0 = new_game(rules, None).map_err(|e| e.to_string())?;
        let mut engine = Engine {
            rules: *rules,
            props: Props::new(rules, opts.positions),
            packer,
            positions: opts.positions,
            symmetry: opts.symmetry,
            root: root0,
            root_mask: 0,
        };
        let mut scratch = [0u64; R];
        let (_, root_mask) = engine.pack_stored(&root0, &mut scratch[..R - 1]);
        engine.root = engine.stored(crate::symmetry::apply_mask(&root0, root_mask));
        engine.root_mask = root_mask;
        let (dir, owned) = match &opts.checkpoint {
            Some(d) => (d.clone(), false),
            None => (crate::search::fresh_run_dir("hatsuden-ranked")?, true),
        };
        let meta_path = dir.join("ranked.txt");
        let identity = format!(
            "ranked 2 rules {} positions {} words {} symmetry {}",
            rules.format(),
            opts.positions,
            R - 1,
            opts.symmetry
        );
        if meta_path.exists() && !opts.resume {
            return Err(format!("{} holds a checkpoint: resume it, or use another directory", dir.display()));
        }
        if opts.resume && !meta_path.exists() {
            return Err(format!("no checkpoint of the ranked engine to resume in {}", dir.display()));
        }
        fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        // Memory: a part's raw records take a quarter of the limit, the buffered successors an
        // eighth, and as much again for the flush being written meanwhile (each record is R
        // words; sorting is in place).
        let limit = opts.max_memory.unwrap_or(4 << 30);
        let rec = (R * 8) as u64;
        let mut me = Ranked::<R> {
            engine,
            rank,
            dir: dir.clone(),
            part_records: (limit / 4 / rec).max(1 << 12),
            flush_records: ((limit / 8 / (rec + 8)) as usize).max(1 << 12),
            buffers: HashMap::default(),
            buffered: 0,
            writing: None,
            peak_disk: 0,
        };
        let mut totals = if opts.resume {
            let text = fs::read_to_string(&meta_path).map_err(|e| e.to_string())?;
            let t = Totals::from_text(&text, &identity)?;
            me.peak_disk = t.peak_disk;
            me.repair()?;
            t
        } else {
            let mut words = [0u64; R];
            let mut root = me.engine.root;
            me.pack(&mut root, &mut words[..R - 1]);
            words[R - 1] = 0; // depths 0, 0
            append(&bucket_path(&dir, rank(&me.engine.root)), &to_bytes(&[words]))?;
            let t = Totals::default();
            fs::write(&meta_path, t.to_text(&identity)).map_err(|e| e.to_string())?;
            t
        };
        let elapsed_before = totals.seconds;
        let mut peak = peak_rss_bytes();
        let mut stopped_by: Option<String> = None;
        loop {
            let (files, disk) = pending(&dir)?;
            me.peak_disk = me.peak_disk.max(disk);
            let Some(next) = files.first().cloned() else { break };
            if let Some(limit) = opts.max_states {
                if totals.positions > limit {
                    stopped_by = Some("the state limit".into());
                    break;
                }
            }
            let clock = Instant::now();
            if next.part.is_none() && next.bytes / rec > me.part_records {
                me.split(&next, &files)?;
                continue;
            }
            let raw = next.bytes / rec;
            let before = totals.orbits;
            let distinct = me.process(&next, &mut totals, opts)? - before;
            totals.seconds = elapsed_before + start.elapsed().as_secs_f64();
            totals.peak_disk = me.peak_disk;
            totals.parts += 1;
            let tmp = dir.join("ranked.txt.new");
            fs::write(&tmp, totals.to_text(&identity)).map_err(|e| e.to_string())?;
            fs::rename(&tmp, &meta_path).map_err(|e| e.to_string())?;
            fs::remove_file(&next.path).map_err(|e| e.to_string())?;
            peak = peak.max(peak_rss_bytes());
            if opts.progress {
                let secs = clock.elapsed().as_secs_f64();
                eprintln!(
                    "bucket {:<22} part {:>4}  records {:>12}  distinct {:>12}  stored {:>14}  transitions {:>15}  {:>9.0}/s  rss {:>6} MB  peak {:>6} MB  disk {:>7} MB  total {:>8.1} s",
                    rank_parts(next.bucket),
                    next.part.map_or("-".to_string(), |p| p.to_string()),
                    raw,
                    distinct,
                    totals.positions,
                    totals.counts.transitions,
                    distinct as f64 / secs.max(1e-9),
                    rss_bytes() >> 20,
                    peak >> 20,
                    me.peak_disk >> 20,
                    totals.seconds
                );
            }
        }
        let truncated = stopped_by.is_some();
        let mut violations = Vec::new();
        if !totals.found.is_empty() {
            violations = shortest_counterexamples(rules, opts, &totals)?;
        }
        let result =
            finish(rules, opts, &totals, violations, stopped_by, truncated, R - 1, peak, elapsed_before, start);
        if owned {
            let _ = fs::remove_dir_all(&dir);
        }
        if opts.progress {
            eprintln!(
                "ranked: {} states (positions) stored, {} unreduced, {} parts, peak disk {} MB, {:.1} bytes/stored state on disk at the peak",
                totals.positions,
                totals.counts.unreduced[0],
                totals.parts,
                totals.peak_disk >> 20,
                totals.peak_disk as f64 / totals.positions.max(1) as f64
            );
        }
        Ok(result)
    }

    /// After a crash: drop a torn record at the end of a raw file, and the parts of a bucket
    /// whose split did not finish (its raw file is still there).
    fn repair(&self) -> Result<(), String> {
        let (files, _) = pending(&self.dir)?;
        let rec = (R * 8) as u64;
        for f in &files {
            if f.part.is_some() && bucket_path(&self.dir, f.bucket).exists() {
                fs::remove_file(&f.path).map_err(|e| e.to_string())?;
            } else if f.bytes % rec != 0 {
                let file = OpenOptions::new().write(true).open(&f.path).map_err(|e| e.to_string())?;
                file.set_len(f.bytes - f.bytes % rec).map_err(|e| e.to_string())?;
            }
        }
        Ok(())
    }

    /// Split a bucket too big for memory into parts by a hash of the state (a bucket has no
    /// internal edge, so its parts are independent); equal states land in the same part.
    fn split(&mut self, f: &PendingFile, files: &[PendingFile]) -> Result<(), String> {
        let rec = (R * 8) as u64;
        let parts = (f.bytes / rec).div_ceil(self.part_records / 2).max(2) as u32;
        for p in files.iter().filter(|p| p.bucket == f.bucket && p.part.is_some()) {
            fs::remove_file(&p.path).map_err(|e| e.to_string())?;
        }
        let mut file = File::open(&f.path).map_err(|e| e.to_string())?;
        let mut left = f.bytes / rec;
        let step = 1u64 << 20;
        let mut buf = vec![0u8; (step * rec) as usize];
        let mut outs: Vec<Vec<u8>> = vec![Vec::new(); parts as usize];
        while left > 0 {
            let k = left.min(step);
            file.read_exact(&mut buf[..(k * rec) as usize]).map_err(|e| e.to_string())?;
            for r in buf[..(k * rec) as usize].chunks_exact(rec as usize) {
                let mut words = [0u64; R];
                for (j, x) in r.chunks_exact(8).enumerate() {
                    words[j] = u64::from_le_bytes(x.try_into().expect("8 bytes"));
                }
                let part = (fingerprint(&words[..R - 1]) >> 64) as u64 % parts as u64;
                outs[part as usize].extend_from_slice(r);
            }
            for (j, o) in outs.iter_mut().enumerate() {
                if o.len() > 1 << 22 {
                    append(&part_path(&self.dir, f.bucket, j as u32), o)?;
                    o.clear();
                }
            }
            left -= k;
        }
        for (j, o) in outs.iter().enumerate() {
            append(&part_path(&self.dir, f.bucket, j as u32), o)?;
        }
        let (_, disk) = pending(&self.dir)?;
        self.peak_disk = self.peak_disk.max(disk);
        // The parts are complete: the bucket's raw file goes (a crash before this line leaves
        // it, and `repair` drops the parts).
        fs::remove_file(&f.path).map_err(|e| e.to_string())
    }

    /// Process one part: deduplicate, check and expand every state, write the successors.
    /// Returns the number of distinct states.
    fn process(&mut self, f: &PendingFile, totals: &mut Totals, opts: &Options) -> Result<u64, String> {
        let mut states = read_records::<R>(&f.path)?;
        dedup(&mut states);
        let batch = 1usize << 18;
        const CHUNK: usize = 2048;
        for (b, group) in states.chunks(batch).enumerate() {
            let first = totals.orbits + (b * batch) as u64;
            let outs: Vec<ChunkOut<R>> = group
                .par_chunks(CHUNK)
                .enumerate()
                .map(|(k, chunk)| self.expand(chunk, f.bucket, first + (k * CHUNK) as u64))
                .collect();
            for o in outs {
                if let Some(why) = o.broken {
                    return Err(why);
                }
                totals.counts.add(&o.counts);
                totals.positions += o.positions;
                totals.max_depth = totals.max_depth.max(o.max_depth);
                totals.longest = totals.longest.max(o.longest);
                if totals.layers.len() < o.layers.len() {
                    totals.layers.resize(o.layers.len(), 0);
                }
                for (d, n) in o.layers.iter().enumerate() {
                    totals.layers[d] += n;
                }
                for x in o.found {
                    if totals.found.len() < opts.max_violations {
                        totals.found.push(x);
                    }
                }
                for (bucket, r) in o.succ {
                    self.buffers.entry(bucket).or_default().push(r);
                    self.buffered += 1;
                }
                if self.buffered > self.flush_records {
                    self.flush(false)?;
                }
            }
        }
        totals.orbits += states.len() as u64;
        drop(states);
        self.flush(true)?;
        if self.engine.positions {
            let due = totals.orbits / SOUNDNESS_EVERY;
            if due > totals.counts.soundness {
                let (n, found) = self.walks(totals.counts.soundness, due - totals.counts.soundness);
                totals.counts.soundness += n;
                for x in found {
                    if totals.found.len() < opts.max_violations {
                        totals.found.push(x);
                    }
                }
            }
        }
        Ok(totals.orbits)
    }

    /// Write the buffered successors, each bucket's sorted and deduplicated, to its raw file.
    /// The buckets are sorted on every worker (they are independent); the writing goes to a
    /// thread of its own, so that the expansion goes on meanwhile (`wait`: finish it before
    /// returning, as the end of a part must for its checkpoint). One write at a time, so a
    /// bucket's file receives its flushes in order.
    fn flush(&mut self, wait: bool) -> Result<(), String> {
        let mut buckets: Vec<(u64, Vec<[u64; R]>)> = self.buffers.drain().collect();
        self.buffered = 0;
        buckets.sort_unstable_by_key(|b| b.0);
        buckets.par_iter_mut().for_each(|(_, v)| dedup(v));
        self.wait_writes()?;
        let dir = self.dir.clone();
        self.writing = Some(std::thread::spawn(move || {
            for (bucket, v) in buckets {
                append(&bucket_path(&dir, bucket), &to_bytes(&v))?;
            }
            Ok(())
        }));
        if wait {
            self.wait_writes()?;
        }
        Ok(())
    }

    /// Wait for the write of the last flush, if any; then measure the pending files.
    fn wait_writes(&mut self) -> Result<(), String> {
        if let Some(h) = self.writing.take() {
            h.join().map_err(|_| "the thread writing the successors stopped".to_string())??;
            let (_, disk) = pending(&self.dir)?;
            self.peak_disk = self.peak_disk.max(disk);
        }
        Ok(())
    }

    /// Pack `s` as this engine stores it into `out`: with symmetry its oriented image
    /// ([`crate::symmetry::oriented_mask`]: one pack, where the breadth-first engine's smallest packed image
    /// packs every member of the orbit), `s` turned into it in place.
    #[inline]
    fn pack(&self, s: &mut State, out: &mut [u64]) {
        if self.engine.symmetry {
            pack_oriented(&self.engine.packer, s, out);
        } else {
            self.engine.packer.pack(s, out);
        }
    }

    /// Check and expand the states of a chunk (numbered from `first`, for the sampling of R35).
    fn expand(&self, chunk: &[[u64; R]], bucket: u64, first: u64) -> ChunkOut<R> {
        let e = &self.engine;
        let mut o = ChunkOut {
            counts: Counts::default(),
            succ: Vec::with_capacity(chunk.len() * 2),
            found: Vec::new(),
            broken: None,
            positions: 0,
            max_depth: 0,
            longest: 0,
            layers: Vec::new(),
        };
        let mut moves: Vec<Move> = Vec::with_capacity(64);
        let mut problems: Vec<Problem> = Vec::new();
        // The state being expanded, unpacked in place (every field overwritten), and its
        // successor, applied in place: one copy of the state a transition.
        let mut s = e.root;
        let mut after: State;
        for (k, rec) in chunk.iter().enumerate() {
            let number = first + k as u64;
            e.packer.unpack_into(&rec[..R - 1], &mut s);
            let (dmin, dmax) = (rec[R - 1] >> 32, rec[R - 1] & DEPTH_MASK);
            let r = (self.rank)(&s);
            if r != bucket {
                o.broken = Some(format!(
                    "internal error: a state of rank {} in the file of rank {}",
                    rank_parts(r),
                    rank_parts(bucket)
                ));
                return o;
            }
            // With symmetry, `s` is the canonical image of its orbit: the counts are of stored
            // states (orbits), as the breadth-first engine's, and `unreduced` weights each by its
            // orbit's size.
            let weight = e.weight(&s);
            o.positions += 1;
            o.max_depth = o.max_depth.max(dmin);
            o.longest = o.longest.max(dmax);
            if o.layers.len() <= dmin as usize {
                o.layers.resize(dmin as usize + 1, 0);
            }
            o.layers[dmin as usize] += 1;
            s.legal_moves(&mut moves);
            let c = &mut o.counts;
            c.expanded += 1;
            c.unreduced[0] += weight;
            c.phases[s.phase() as usize] += 1;
            if s.phase() == Phase::Chance {
                c.unreduced[2] += weight;
            }
            if s.is_over() {
                c.unreduced[3 + s.end_reason() as usize] += weight;
                c.ends[s.end_reason() as usize] += 1;
                c.decided[e.props.decision(&s) as usize] += 1;
            }
            for m in &moves {
                c.kinds[m.kind_rank() as usize] += 1;
            }
            problems.clear();
            MEMO.with(|memo| e.props.state_violations_memo(&s, &moves, &mut memo.borrow_mut(), &mut problems));
            for (rule, msg) in problems.drain(..) {
                o.found.push((rule.to_string(), msg, dmin));
            }
            for (i, m) in moves.iter().enumerate() {
                after = s;
                if let Err(err) = after.apply_mut(*m) {
                    o.found.push(("R35".into(), format!("a legal move was refused: {err}"), dmin));
                    continue;
                }
                o.counts.transitions += 1;
                o.counts.unreduced[1] += weight;
                let determinism = (number + i as u64) % DETERMINISM_EVERY == 0;
                e.props.transition_violations(&s, m, &after, determinism, &mut problems);
                if e.positions {
                    e.props.knowledge_problems(&s, m, &after, &mut problems);
                }
                for (rule, msg) in problems.drain(..) {
                    o.found.push((rule.to_string(), msg, dmin));
                }
                // The stored successor (`after` is overwritten by the next move).
                e.store_in_place(&mut after);
                let ra = (self.rank)(&after);
                if ra <= r {
                    o.broken = Some(format!(
                        "the ranking function does not increase on {} (rank {} to {}) from a state at depth {dmin}: the ranked engine cannot be used for these rules",
                        m.format(),
                        rank_parts(r),
                        rank_parts(ra)
                    ));
                    return o;
                }
                let mut words = [0u64; R];
                self.pack(&mut after, &mut words[..R - 1]);
                words[R - 1] = (dmin + 1) << 32 | (dmax + 1);
                o.succ.push((ra, words));
            }
        }
        o
    }

    /// Soundness of positions (R36) on `count` positions met by seeded random playouts with
    /// full states (the ranked engine keeps no paths): the full state and its position have the
    /// same legal moves, and every move leads to the same position from both. Deterministic in
    /// `seed`, so a resumed run checks the same positions.
    fn walks(&self, seed: u64, count: u64) -> (u64, Vec<(String, String, u64)>) {
        let e = &self.engine;
        let mut rng = seed.wrapping_mul(0x9e3779b97f4a7c15) ^ 0x5851f42d4c957f2d;
        let mut next = || {
            rng = rng.wrapping_add(0x9e3779b97f4a7c15);
            let mut z = rng;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
            z ^ (z >> 31)
        };
        let mut found = Vec::new();
        let mut done = 0u64;
        let mut full = new_game(&e.rules, None).expect("rules");
        let mut depth = 0u64;
        let mut problems = Vec::new();
        let mut moves = Vec::new();
        while done < count {
            let p = full.position();
            p.legal_moves(&mut moves);
            problems.clear();
            soundness_problems(&p, &full, &p, &moves, &mut problems);
            done += 1;
            for (rule, msg) in problems.drain(..) {
                found.push((rule.to_string(), msg, depth));
            }
            if moves.is_empty() {
                full = new_game(&e.rules, None).expect("rules");
                depth = 0;
                continue;
            }
            let m = moves[(next() % moves.len() as u64) as usize];
            match full.apply(m) {
                Ok(a) => {
                    full = a;
                    depth += 1;
                }
                Err(_) => {
                    full = new_game(&e.rules, None).expect("rules");
                    depth = 0;
                }
            }
        }
        (done, found)
    }
}

/// The shortest counterexamples: the breadth-first engine rerun up to the depth of the
/// shallowest violating state (it meets the same violation there, with its path).
fn shortest_counterexamples(rules: &Rules, opts: &Options, totals: &Totals) -> Result<Vec<Violation>, String> {
    let depth = totals.found.iter().map(|f| f.2).min().unwrap_or(0);
    let bfs = Options {
        checkpoint: None,
        resume: false,
        ranked: false,
        max_depth: Some(depth),
        progress: false,
        max_states: None,
        ..opts.clone()
    };
    let r = crate::search::check(rules, &bfs)?;
    if r.violations.is_empty() {
        // Not expected: name what the ranked engine found, without a path.
        return Ok(totals
            .found
            .iter()
            .map(|(rule, msg, d)| Violation {
                rule: rule.clone(),
                message: format!("{msg} (at depth {d}; the breadth-first rerun did not meet it)"),
                path: Vec::new(),
            })
            .collect());
    }
    Ok(r.violations)
}

#[allow(clippy::too_many_arguments)]
fn finish(
    rules: &Rules,
    opts: &Options,
    t: &Totals,
    violations: Vec<Violation>,
    stopped_by: Option<String>,
    truncated: bool,
    words: usize,
    peak: u64,
    elapsed_before: f64,
    start: Instant,
) -> CheckResult {
    let counts = &t.counts;
    let Outcome { events, terminal, unreached, required, result } =
        outcome(counts, rules, opts, truncated, !violations.is_empty());
    CheckResult {
        rules: *rules,
        result: result.into(),
        states: t.positions,
        transitions: counts.transitions,
        terminal_by_reason: terminal,
        chance_nodes: counts.phases[0],
        max_depth: t.max_depth,
        longest_game: if truncated { None } else { Some(t.longest) },
        seconds: elapsed_before + start.elapsed().as_secs_f64(),
        peak_memory_mb: peak.max(peak_rss_bytes()) as f64 / (1u64 << 20) as f64,
        violations,
        unreached,
        events,
        coverage_required: required,
        positions: opts.positions,
        workers: opts.workers,
        soundness_checked: counts.soundness,
        collision_probability: 0.0,
        collision_bound: 0.0,
        table_bytes: 0,
        stopped_by,
        layer_sizes: t.layers.clone(),
        packed_words: words,
        symmetry: opts.symmetry,
        ranked: true,
        layered: false,
        unreduced: opts.symmetry.then(|| {
            let u = &counts.unreduced;
            let terminal_by_reason = [(1usize, "FINAL_TURN"), (2, "STALL")]
                .iter()
                .filter(|(k, _)| u[3 + k] > 0)
                .map(|(k, name)| (name.to_string(), u[3 + k]))
                .collect();
            Unreduced { states: u[0], transitions: u[1], terminal_by_reason, chance_nodes: u[2] }
        }),
    }
}
