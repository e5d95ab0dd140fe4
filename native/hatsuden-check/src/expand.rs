//! The workers' part of a layer: checking and expanding states (pass 1), packing the new ones
//! from their parents (pass 2), and delayed duplicate detection of the successor records.

use crate::props::{kind_name, Problem, Props, ScoreMemo};
use crate::search::{DETERMINISM_EVERY, SOUNDNESS_EVERY};
use crate::store::Store;
use crate::symmetry::{apply_mask, apply_mask_mut, canonical_mask, map_move, orbit_size};
use crate::table::{fingerprint, key_bytes, Visited, KEY_BYTES};
use hatsuden::packed::Packer;
use hatsuden::{new_game, Move, Rules, State};
use rayon::prelude::*;
use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

/// Counts of one part of the search, summed over chunks.
#[derive(Clone, Debug, Default)]
pub(crate) struct Counts {
    pub(crate) phases: [u64; 6],
    pub(crate) ends: [u64; 3],
    pub(crate) decided: [u64; 4],
    pub(crate) kinds: [u64; 17],
    pub(crate) expanded: u64,
    pub(crate) transitions: u64,
    pub(crate) soundness: u64,
    /// The unreduced figures, each stored state weighted by its orbit's size (symmetry: every
    /// member of an orbit has the same phase, end reason and out-degree): states, transitions,
    /// states in CHANCE, then terminal states by end reason (`3 + EndReason`). Without symmetry,
    /// the figures above.
    pub(crate) unreduced: [u64; 6],
}

impl Counts {
    pub(crate) fn add(&mut self, o: &Counts) {
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
        for (a, b) in self.unreduced.iter_mut().zip(&o.unreduced) {
            *a += b;
        }
    }
    pub(crate) fn to_vec(&self) -> Vec<u64> {
        let mut v = Vec::new();
        v.extend_from_slice(&self.phases);
        v.extend_from_slice(&self.ends);
        v.extend_from_slice(&self.decided);
        v.extend_from_slice(&self.kinds);
        v.extend([self.expanded, self.transitions, self.soundness]);
        v.extend_from_slice(&self.unreduced);
        v
    }
    pub(crate) fn from_vec(v: &[u64]) -> Counts {
        let mut c = Counts::default();
        c.phases.copy_from_slice(&v[0..6]);
        c.ends.copy_from_slice(&v[6..9]);
        c.decided.copy_from_slice(&v[9..13]);
        c.kinds.copy_from_slice(&v[13..30]);
        c.expanded = v[30];
        c.transitions = v[31];
        c.soundness = v[32];
        if v.len() >= 39 {
            c.unreduced.copy_from_slice(&v[33..39]);
        }
        c
    }
}

thread_local! {
    /// Each worker's grids and Smart columns whose score (R29) is checked.
    static MEMO: RefCell<ScoreMemo> = RefCell::new(ScoreMemo::new());
}

/// A successor record, 16 bytes: the 84-bit fingerprint, then the link (the parent's number,
/// 36 bits, and the move's rank, 8 bits). As pairs of words they sort by fingerprint, then
/// parent, then rank.
pub(crate) type Record = [u64; 2];
/// Bits of a record's link.
const LINK_BITS: u32 = 44;
/// The link bits of a record's second word (all set: a record dropped by [`compact`]).
pub(crate) const LINK_MASK: u64 = (1 << LINK_BITS) - 1;
/// The largest state number a record can name.
pub(crate) const MAX_NUMBER: u64 = (1 << (LINK_BITS - 8)) - 2;

/// The record of the successor `key` of state `number` by its move of rank `rank`.
#[inline]
pub(crate) fn record(key: u128, number: u64, rank: usize) -> Record {
    debug_assert!(number <= MAX_NUMBER && rank < 256 && key >> 84 == 0);
    [(key >> 20) as u64, (key as u64 & 0xfffff) << LINK_BITS | number << 8 | rank as u64]
}

/// The fingerprint of a record.
#[inline]
pub(crate) fn record_key(r: &Record) -> u128 {
    (r[0] as u128) << 20 | (r[1] >> LINK_BITS) as u128
}

/// The link of a record: parent number << 8 | move rank.
#[inline]
pub(crate) fn record_link(r: &Record) -> u64 {
    r[1] & LINK_MASK
}

/// A problem found while expanding: (rule, message, state number, move rank or -1).
pub(crate) type Found = (String, String, u64, i64);

pub(crate) struct Pass1 {
    pub(crate) counts: Counts,
    /// Every successor: [key high, key low, parent number << 8 | move rank].
    pub(crate) candidates: Vec<Record>,
    pub(crate) src: Vec<u8>,
    pub(crate) dst: Vec<u8>,
    pub(crate) found: Vec<Found>,
    /// The packed successors, in transition order (when kept).
    pub(crate) succ: Vec<u64>,
    /// Whether every legal move was applied (the successors' ranks are their indices).
    pub(crate) dense: bool,
    /// Where each partition of `candidates` starts, and the end ([`partition_records`]).
    pub(crate) parts: Parts,
}

pub(crate) struct Engine {
    pub(crate) rules: Rules,
    pub(crate) props: Props,
    pub(crate) packer: Packer,
    pub(crate) positions: bool,
    /// Store one state per orbit of the row swaps (`symmetry`).
    pub(crate) symmetry: bool,
    /// The stored root (its canonical image, with symmetry).
    pub(crate) root: State,
    /// The row swaps that turn `new_game()` into `root`.
    pub(crate) root_mask: u8,
}

impl Engine {
    /// The state the search stores for `s`: its position when it searches by position (R36).
    pub(crate) fn stored(&self, mut s: State) -> State {
        self.store_in_place(&mut s);
        s
    }

    /// [`Engine::stored`] in place, without a copy of the state.
    #[inline]
    pub(crate) fn store_in_place(&self, s: &mut State) {
        if self.positions {
            s.forget_history();
        }
    }

    /// Pack `s` as the search stores it into `out`: its canonical image with symmetry.
    /// Returns the orbit's size and the swaps that give the image (1 and 0 without symmetry).
    #[inline]
    pub(crate) fn pack_stored(&self, s: &State, out: &mut [u64]) -> (u8, u8) {
        if self.symmetry {
            canonical_mask(&self.packer, s, out)
        } else {
            self.packer.pack(s, out);
            (1, 0)
        }
    }

    /// How many states (or positions) a stored one stands for: its orbit's size with symmetry.
    #[inline]
    pub(crate) fn weight(&self, s: &State) -> u64 {
        if self.symmetry {
            orbit_size(&self.packer, s) as u64
        } else {
            1
        }
    }

    /// The moves of `ranks` from the start, the stored state they reach and the full state.
    fn replay(&self, ranks: &[usize]) -> (Vec<Move>, State, State) {
        let (moves, stored, full, _) = self.replay_from(ranks, false);
        (moves, stored, full)
    }

    /// The real moves of the stored path `ranks` (move ranks in the stored states), the stored
    /// state it reaches and the full state the real moves reach, seen through the same row
    /// swaps as the stored one (so that its position is the stored one, R36), and those swaps
    /// (bit p: player p's rows). `lenient`: stop at a rank out of range or a refused move
    /// instead of panicking.
    pub(crate) fn replay_from(&self, ranks: &[usize], lenient: bool) -> (Vec<Move>, State, State, u8) {
        let mut stored = self.root;
        let mut full = new_game(&self.rules, None).expect("rules");
        // The row swaps that turn the real state into the stored one.
        let mut mask = self.root_mask;
        let mut moves = Vec::new();
        let mut buf = Vec::new();
        let mut scratch = vec![0u64; self.packer.words()];
        for &r in ranks {
            stored.legal_moves(&mut buf);
            let Some(&m) = buf.get(r) else {
                assert!(lenient, "a recorded rank out of range");
                break;
            };
            let real = map_move(m, stored.current_player(), mask);
            moves.push(real);
            if !lenient {
                // In place (a refused move panics here, so no half-applied state is seen): the
                // soundness replays (R36) make one step a state of their path.
                let ok = full.apply_mut(real).is_ok() && stored.apply_mut(m).is_ok();
                assert!(ok, "a recorded move refused");
                // Without symmetry the stored state is the state itself (no swaps): no pack.
                let swaps = if self.symmetry { self.pack_stored(&stored, &mut scratch).1 } else { 0 };
                apply_mask_mut(&mut stored, swaps);
                self.store_in_place(&mut stored);
                mask ^= swaps;
                continue;
            }
            match (full.apply(real), stored.apply(m)) {
                (Ok(f), Ok(after)) => {
                    full = f;
                    let (_, swaps) = self.pack_stored(&after, &mut scratch);
                    stored = self.stored(apply_mask(&after, swaps));
                    mask ^= swaps;
                }
                _ => {
                    assert!(lenient, "a recorded move refused");
                    break;
                }
            }
        }
        (moves, stored, apply_mask(&full, mask), mask)
    }

    /// Check and expand the states of one chunk (pass 1).
    #[inline(never)]
    /// `keep`: keep the packed successors (pass 2 then copies the new ones instead of rebuilding
    /// them from their parents).
    pub(crate) fn pass1(&self, words: &[u64], first: u64, store: &Store, keep: bool) -> Pass1 {
        MEMO.with(|memo| self.pass1_with(words, first, store, keep, &mut memo.borrow_mut()))
    }

    fn pass1_with(&self, words: &[u64], first: u64, store: &Store, keep: bool, memo: &mut ScoreMemo) -> Pass1 {
        let w = self.packer.words();
        let n = words.len() / w.max(1);
        // Room for two successors a state on average (choice has 1.4), so that the vectors
        // rarely grow.
        let mut r = Pass1 {
            counts: Counts::default(),
            candidates: Vec::with_capacity(2 * n),
            src: Vec::with_capacity(n),
            dst: Vec::with_capacity(2 * n * KEY_BYTES),
            found: Vec::new(),
            succ: if keep { Vec::with_capacity(2 * n * w) } else { Vec::new() },
            dense: true,
            parts: [0; PARTS + 1],
        };
        let mut moves = Vec::with_capacity(64);
        let mut problems: Vec<Problem> = Vec::new();
        let mut packed = vec![0u64; w];
        // The state being expanded and its successor: unpacked and applied in place, one copy
        // of the state a transition. The next state is unpacked one state ahead, so that its
        // entry of the R29 memo is loaded while this one is checked.
        let mut states = [self.root, self.root];
        let mut after: State;
        if n > 0 {
            self.packer.unpack_into(&words[..w], &mut states[0]);
            memo.prefetch(&states[0]);
        }
        for k in 0..n {
            let number = first + k as u64;
            let (a, b) = states.split_at_mut(1);
            let (s, ahead) = if k % 2 == 0 { (&a[0], &mut b[0]) } else { (&b[0], &mut a[0]) };
            if k + 1 < n {
                self.packer.unpack_into(&words[(k + 1) * w..(k + 2) * w], ahead);
                memo.prefetch(ahead);
            }
            s.legal_moves(&mut moves);
            let c = &mut r.counts;
            let weight = self.weight(s);
            c.expanded += 1;
            c.unreduced[0] += weight;
            c.phases[s.phase() as usize] += 1;
            if s.phase() == hatsuden::Phase::Chance {
                c.unreduced[2] += weight;
            }
            if s.is_over() {
                c.unreduced[3 + s.end_reason() as usize] += weight;
                c.ends[s.end_reason() as usize] += 1;
                c.decided[self.props.decision(s) as usize] += 1;
            }
            for m in &moves {
                c.kinds[m.kind_rank() as usize] += 1;
            }
            problems.clear();
            self.props.state_violations_memo(s, &moves, memo, &mut problems);
            if self.positions && number % SOUNDNESS_EVERY == 0 {
                c.soundness += 1;
                self.soundness(number, s, &moves, store, &mut problems);
            }
            for (rule, msg) in problems.drain(..) {
                r.found.push((rule.to_string(), msg, number, -1));
            }
            let mut degree = 0u8;
            for (rank, m) in moves.iter().enumerate() {
                after = *s;
                if let Err(e) = after.apply_mut(*m) {
                    r.found.push(("R35".into(), format!("a legal move was refused: {e}"), number, rank as i64));
                    r.dense = false;
                    continue;
                }
                let determinism = (number + rank as u64) % DETERMINISM_EVERY == 0;
                self.props.transition_violations(s, m, &after, determinism, &mut problems);
                if self.positions {
                    self.props.knowledge_problems(s, m, &after, &mut problems);
                }
                for (rule, msg) in problems.drain(..) {
                    r.found.push((rule.to_string(), msg, number, rank as i64));
                }
                // By position: the position is packed; with symmetry, its canonical image.
                self.pack_stored(&after, &mut packed);
                let key = fingerprint(&packed);
                r.dst.extend_from_slice(&key_bytes(key));
                if keep {
                    r.succ.extend_from_slice(&packed);
                }
                degree = degree.checked_add(1).expect("at most 255 legal moves per state");
                r.candidates.push(record(key, number, rank));
            }
            r.counts.transitions += degree as u64;
            r.counts.unreduced[1] += weight * degree as u64;
            r.src.push(degree);
        }
        // The successor keys stay in memory as they are (`Sink::push`): no room to spare.
        r.dst.shrink_to_fit();
        r.parts = partition_records(&mut r.candidates);
        r
    }

    /// Soundness of a position (R36): its shortest path replayed with full states.
    #[inline(never)]
    fn soundness(&self, number: u64, s: &State, moves: &[Move], store: &Store, out: &mut Vec<Problem>) {
        let (_, stored, full) = self.replay(&store.ranks_to(number));
        soundness_problems(&stored, &full, s, moves, out);
    }

    /// Pass 2 on one chunk: the successor of each record (parent number << 8 | move rank,
    /// sorted), packed, with its parent record (`number | rank << 56`).
    #[inline(never)]
    pub(crate) fn pass2(&self, words: &[u64], first: u64, records: &[Record]) -> (Vec<u64>, Vec<u64>, Vec<u8>) {
        let w = self.packer.words();
        let mut out = vec![0u64; records.len() * w];
        let mut parents = Vec::with_capacity(records.len());
        let mut keys = Vec::with_capacity(records.len() * KEY_BYTES);
        let mut moves = Vec::with_capacity(64);
        let mut current = u64::MAX;
        let mut s = self.root;
        let mut after: State;
        for (i, r) in records.iter().enumerate() {
            let link = record_link(r);
            let (number, rank) = (link >> 8, (link & 255) as usize);
            if number != current {
                current = number;
                let k = (number - first) as usize;
                self.packer.unpack_into(&words[k * w..k * w + w], &mut s);
                s.legal_moves(&mut moves);
            }
            after = s;
            after.apply_mut(moves[rank]).expect("a move applied in pass 1");
            let slot = &mut out[i * w..i * w + w];
            self.pack_stored(&after, slot);
            let key = fingerprint(slot);
            assert_eq!(key, record_key(r), "pass 2 rebuilt another state");
            keys.extend_from_slice(&key_bytes(key));
            parents.push(number | (rank as u64) << 56);
        }
        (out, parents, keys)
    }
}

/// The next layer from pass 2: packed words, parent records and keys (bytes).
pub(crate) type Emitted = (Vec<u64>, Vec<u64>, Vec<u8>);

/// Pass 2 when the layer's successors were kept (`succ`, in transition order, in parts: part
/// `p` holds transitions `succ_first[p]..succ_first[p + 1]`; state `k` of the layer has
/// transitions `first_edge[k]..first_edge[k + 1]`): the new states of `records` in the order of
/// their parent and move rank (the numbering of a sequential BFS), found by marking their
/// transitions in a bitmap instead of sorting the records. Returns their packed words, parent
/// records (`number | rank << 56`) and keys.
pub(crate) fn emit_kept(
    records: &[Record],
    first_edge: &[u64],
    succ: &[Vec<u64>],
    succ_first: &[usize],
    w: usize,
    layer_start: u64,
) -> Result<Emitted, String> {
    let total = *first_edge.last().unwrap_or(&0) as usize;
    if succ_first.len() != succ.len() + 1 || succ_first.last() != Some(&total) {
        return Err("internal error: the kept successors are not the layer's transitions".into());
    }
    // The records' transitions marked in parallel (an atomic OR a record), with the sum of
    // their keys, checked against the sum of the keys found.
    let atomic: Vec<AtomicU64> = (0..total.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
    let mut sum = records
        .par_chunks(1 << 14)
        .map(|part| {
            let mut sum = 0u128;
            for r in part {
                let link = record_link(r);
                let t = (first_edge[((link >> 8) - layer_start) as usize] + (link & 255)) as usize;
                atomic[t / 64].fetch_or(1 << (t % 64), Ordering::Relaxed);
                sum = sum.wrapping_add(record_key(r));
            }
            sum
        })
        .reduce(|| 0, u128::wrapping_add);
    let marks: Vec<u64> = atomic.into_iter().map(AtomicU64::into_inner).collect();
    // Blocks of 2^16 transitions in parallel (each finds its first state and part by a binary
    // search), each writing its states straight into its own part of the outputs (the parts
    // follow from the blocks' counts of marked transitions).
    const BLOCK_WORDS: usize = 1 << 10;
    let counts: Vec<usize> =
        marks.chunks(BLOCK_WORDS).map(|block| block.iter().map(|x| x.count_ones() as usize).sum()).collect();
    let n: usize = counts.iter().sum();
    if n != records.len() {
        return Err("internal error: the kept successors are not the new states".into());
    }
    let mut packed = vec![0u64; n * w];
    let mut parents = vec![0u64; n];
    let mut keys = vec![0u8; n * KEY_BYTES];
    let mut parts = Vec::with_capacity(counts.len());
    {
        let (mut p, mut q, mut k) = (&mut packed[..], &mut parents[..], &mut keys[..]);
        for &c in &counts {
            let (a, rest) = std::mem::take(&mut p).split_at_mut(c * w);
            p = rest;
            let (b, rest) = std::mem::take(&mut q).split_at_mut(c);
            q = rest;
            let (d, rest) = std::mem::take(&mut k).split_at_mut(c * KEY_BYTES);
            k = rest;
            parts.push((a, b, d));
        }
    }
    let sums: Vec<u128> = marks
        .par_chunks(BLOCK_WORDS)
        .zip(parts.into_par_iter())
        .enumerate()
        .map(|(b, (block, (packed, parents, keys)))| {
            let mut sum = 0u128;
            let base = b * BLOCK_WORDS;
            // The state, and the part of `succ`, holding the block's first transition.
            let mut k = first_edge.partition_point(|&e| e as usize <= base * 64).saturating_sub(1);
            let mut part = succ_first.partition_point(|&f| f <= base * 64).saturating_sub(1);
            // The transitions of state k and of part `part` (the ends, while t is below them).
            let (mut edges, mut edges_end) = (first_edge[k] as usize, first_edge[k + 1] as usize);
            let (mut slots, mut slots_end) = (succ_first[part], succ_first[part + 1]);
            let mut outs = packed.chunks_exact_mut(w).zip(parents.iter_mut()).zip(keys.chunks_exact_mut(KEY_BYTES));
            for (i, &word) in block.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let t = (base + i) * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    while edges_end <= t {
                        k += 1;
                        edges = edges_end;
                        edges_end = first_edge[k + 1] as usize;
                    }
                    while slots_end <= t {
                        part += 1;
                        slots = slots_end;
                        slots_end = succ_first[part + 1];
                    }
                    let rank = (t - edges) as u64;
                    let at = (t - slots) * w;
                    let slot = &succ[part][at..at + w];
                    let key = fingerprint(slot);
                    sum = sum.wrapping_add(key);
                    let ((p, parent), k_bytes) = outs.next().expect("a slot for each marked transition");
                    p.copy_from_slice(slot);
                    *parent = (layer_start + k as u64) | rank << 56;
                    k_bytes.copy_from_slice(&key_bytes(key));
                }
            }
            sum
        })
        .collect();
    for part in sums {
        sum = sum.wrapping_sub(part);
    }
    if sum != 0 {
        return Err("internal error: the kept successors are not the new states".into());
    }
    Ok((packed, parents, keys))
}

/// Delayed duplicate detection: sort the successor records by (key, parent, rank), keep the
/// first of each key (the smallest parent number and move rank: a shortest path), and drop the
/// keys already visited. Returns how many were dropped as visited: transitions back to a state
/// of this layer or an earlier one (none in a layered graph, [`crate::search`]).
///
/// The records are put into buckets by their keys' top bits ([`bucket_records`]); then each
/// group of buckets, in parallel, is sorted, loses its repeated and visited keys (a key's
/// records are all in one bucket) and keeps the rest at its front; last, the groups' kept
/// records are moved together.
pub(crate) fn compact(records: &mut Vec<Record>, visited: &Visited) -> usize {
    let groups = bucket_records(records);
    let kept: Vec<(usize, usize)> =
        split_groups(records, &groups).into_par_iter().map(|part| sort_and_filter(part, visited)).collect();
    let mut at = 0;
    let mut dropped = 0;
    for (k, &(n, d)) in kept.iter().enumerate() {
        let start = if k == 0 { 0 } else { groups[k - 1] };
        records.copy_within(start..start + n, at);
        at += n;
        dropped += d;
    }
    records.truncate(at);
    dropped
}

/// Sort `part`, keep the first record of each key that is not visited at its front; returns how
/// many it kept and how many keys it dropped as visited.
fn sort_and_filter(part: &mut [Record], visited: &Visited) -> (usize, usize) {
    part.sort_unstable();
    let distinct = dedup_sorted(part);
    let mut j = 0;
    for i in 0..distinct {
        let r = part[i];
        if !visited.contains(record_key(&r)) {
            part[j] = r;
            j += 1;
        }
    }
    (j, distinct - j)
}

/// Top bits of a record's fingerprint that choose its partition ([`partition_records`]).
const PART_BITS: u32 = 6;
/// Partitions of a chunk's records.
pub(crate) const PARTS: usize = 1 << PART_BITS;
/// Where each partition of a chunk's records starts, and the end.
pub(crate) type Parts = [u32; PARTS + 1];

/// Order a chunk's records by partition, the top bits of their fingerprints (done by the
/// worker that made them): [`compact_parts`] then gathers each partition from every chunk
/// without a serial pass over all the records. In place, one pass of an in-place radix sort
/// (American flag sort, as [`bucket_records`]): no copy of the records to allocate and fill.
/// (The order within a partition does not matter: it is sorted whole afterwards.)
pub(crate) fn partition_records(records: &mut [Record]) -> Parts {
    let part = |r: &Record| (r[0] >> (64 - PART_BITS)) as usize;
    let mut ends = [0u32; PARTS + 1];
    for r in records.iter() {
        ends[part(r) + 1] += 1;
    }
    for p in 0..PARTS {
        ends[p + 1] += ends[p];
    }
    // heads[p]: the next place of partition p not yet holding one of its records.
    let mut heads = ends;
    for p in 0..PARTS {
        while heads[p] < ends[p + 1] {
            // Carry the record at the head of partition p to its own partition, and the one
            // found there on, until one belongs to partition p.
            let mut r = records[heads[p] as usize];
            loop {
                let d = part(&r);
                if d == p {
                    break;
                }
                std::mem::swap(&mut r, &mut records[heads[d] as usize]);
                heads[d] += 1;
            }
            records[heads[p] as usize] = r;
            heads[p] += 1;
        }
    }
    ends
}

/// [`compact`] for the records of several chunks, each ordered by partition
/// ([`partition_records`]), fused with the visited set's merge: the partitions in parallel,
/// each gathered from every chunk straight into its place in `out` (the partitions' sizes
/// summed over the chunks) and sorted there ([`sort_partition`]); then its keys go into its
/// group of the visited set ([`crate::table::Group::insert_new`]: a key's records are all in one
/// partition, and a partition's keys all in one group), where the merge itself drops the
/// repeated keys and the visited ones, and the first record of each key not visited is kept at
/// the front of its place. Last,
/// the kept records are moved together, in partition order, which is key order. Returns how
/// many were dropped as visited; the kept ones' keys are visited on return.
pub(crate) fn compact_parts(chunks: &[(Vec<Record>, Parts)], visited: &mut Visited, out: &mut Vec<Record>) -> usize {
    let mut starts = [0usize; PARTS + 1];
    for p in 0..PARTS {
        starts[p + 1] = starts[p] + chunks.iter().map(|(_, e)| (e[p + 1] - e[p]) as usize).sum::<usize>();
    }
    out.clear();
    out.resize(starts[PARTS], [0; 2]);
    let mut places = Vec::with_capacity(PARTS);
    let mut rest = &mut out[..];
    for p in 0..PARTS {
        let (place, tail) = std::mem::take(&mut rest).split_at_mut(starts[p + 1] - starts[p]);
        places.push(place);
        rest = tail;
    }
    let kept: Vec<(usize, usize)> = places
        .into_par_iter()
        .zip(visited.groups(PARTS))
        .enumerate()
        .map(|(p, (place, mut group))| {
            sort_partition(chunks, p, place);
            group.insert_new(place, record_key)
        })
        .collect();
    let mut at = 0;
    let mut dropped = 0;
    for (p, &(n, d)) in kept.iter().enumerate() {
        out.copy_within(starts[p]..starts[p] + n, at);
        at += n;
        dropped += d;
    }
    out.truncate(at);
    visited.len += at as u64;
    dropped
}

thread_local! {
    /// Each worker's bucket offsets for [`sort_partition`] (no allocation a partition).
    static BUCKETS: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
}

/// Records a bucket of [`sort_partition`] sorts by insertion; a larger one (many transitions
/// to one state, or a skewed hash) by `sort_unstable`, so that no input is quadratic.
const INSERTION_MAX: usize = 16;

/// Gather partition `p` of every chunk into `place` (as long as the partition's records),
/// sorted as `sort_unstable` sorts them, by (key, link). A radix pass instead of a comparison
/// sort: the fingerprints are uniform (a hash), so the bits below the partition's split its
/// records into about one bucket per two records (a counting pass, then each record copied
/// straight to its bucket), which leaves buckets of a few records to sort, by insertion. The
/// buckets' order is the keys' order, and records are compared whole, so equal keys come out in
/// link order: the first of each key is the one with the smallest parent and move rank, as with
/// the comparison sort.
fn sort_partition(chunks: &[(Vec<Record>, Parts)], p: usize, place: &mut [Record]) {
    let n = place.len();
    if n == 0 {
        return;
    }
    let bits = n.ilog2().min(16);
    // The `bits` bits of the fingerprint below its partition bits (none: one bucket).
    let digit = |r: &Record| ((r[0] << PART_BITS) >> 1 >> (63 - bits)) as usize;
    let slices = || chunks.iter().map(|(records, e)| &records[e[p] as usize..e[p + 1] as usize]);
    BUCKETS.with(|b| {
        let mut next = b.borrow_mut();
        let buckets = 1usize << bits;
        next.clear();
        next.resize(buckets + 1, 0);
        for r in slices().flatten() {
            next[digit(r) + 1] += 1;
        }
        for d in 0..buckets {
            next[d + 1] += next[d];
        }
        debug_assert_eq!(next[buckets] as usize, n);
        // next[d]: where the next record of bucket d goes; once all are placed, the end of
        // bucket d, the start of bucket d + 1.
        for r in slices().flatten() {
            let d = digit(r);
            place[next[d] as usize] = *r;
            next[d] += 1;
        }
        let mut start = 0;
        for &end in next[..buckets].iter() {
            let bucket = &mut place[start..end as usize];
            if bucket.len() <= INSERTION_MAX {
                insertion_sort(bucket);
            } else {
                bucket.sort_unstable();
            }
            start = end as usize;
        }
    });
}

/// Sort a few records by insertion.
#[inline]
fn insertion_sort(v: &mut [Record]) {
    for i in 1..v.len() {
        let r = v[i];
        let mut j = i;
        while j > 0 && r < v[j - 1] {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = r;
    }
}

/// Keep the first record of each key of the sorted `part` at its front; returns how many.
fn dedup_sorted(part: &mut [Record]) -> usize {
    let mut j = 0;
    for i in 0..part.len() {
        let r = part[i];
        // The key's bits: all of the first word, the top of the second.
        if j > 0 && part[j - 1][0] == r[0] && (part[j - 1][1] ^ r[1]) >> LINK_BITS == 0 {
            continue;
        }
        part[j] = r;
        j += 1;
    }
    j
}

/// `records` cut at the ends of `groups`.
fn split_groups<'a>(records: &'a mut [Record], groups: &[usize]) -> Vec<&'a mut [Record]> {
    let mut parts = Vec::with_capacity(groups.len());
    let mut rest = records;
    let mut start = 0;
    for &end in groups {
        let (part, tail) = std::mem::take(&mut rest).split_at_mut(end - start);
        start = end;
        parts.push(part);
        rest = tail;
    }
    parts
}

/// Put the records into buckets by the top bits of their fingerprints, which are uniform (a
/// hash), about 32 records a bucket, in place: one pass of an in-place radix sort (American
/// flag sort). No extra memory beyond the bucket offsets (the records may fill most of
/// `--max-memory`). Returns the ends of groups of 256 buckets (the last: `records.len()`), the
/// units the callers sort in parallel; fewer than 2^12 records are one group.
fn bucket_records(records: &mut [Record]) -> Vec<usize> {
    let n = records.len();
    if n < 1 << 12 {
        return vec![n];
    }
    let bits = (n / 32).next_power_of_two().trailing_zeros().clamp(7, 22);
    let shift = 64 - bits;
    let buckets = 1usize << bits;
    let mut ends = vec![0usize; buckets];
    for r in records.iter() {
        ends[(r[0] >> shift) as usize] += 1;
    }
    let mut total = 0;
    for e in ends.iter_mut() {
        total += *e;
        *e = total;
    }
    // heads[b]: the next place of bucket b not yet holding one of its records.
    let mut heads: Vec<usize> = std::iter::once(0).chain(ends[..buckets - 1].iter().copied()).collect();
    for b in 0..buckets {
        while heads[b] < ends[b] {
            // Carry the record at the head of bucket b to its own bucket, and the one found
            // there on, until one belongs to bucket b.
            let mut r = records[heads[b]];
            loop {
                let d = (r[0] >> shift) as usize;
                if d == b {
                    break;
                }
                std::mem::swap(&mut r, &mut records[heads[d]]);
                heads[d] += 1;
            }
            records[heads[b]] = r;
            heads[b] += 1;
        }
    }
    (1..=buckets.div_ceil(256)).map(|g| ends[(g * 256).min(buckets) - 1]).collect()
}

impl Engine {
    /// Like `replay`, stopping at a rank that is out of range (a refused move is still named).
    pub(crate) fn replay_lenient(&self, ranks: &[usize]) -> (Vec<Move>, State, State) {
        let (moves, stored, full, _) = self.replay_from(ranks, true);
        (moves, stored, full)
    }
}

/// Soundness of a position (R36), given the state its shortest path `stored` and the full state
/// `full` that replaying that path with full states reaches: both lead to the position `s`, the
/// full state has the same legal moves, and every move leads to the same position from both.
/// Shared by the single-process search and the Ray shards.
pub(crate) fn soundness_problems(stored: &State, full: &State, s: &State, moves: &[Move], out: &mut Vec<Problem>) {
    if stored != s || full.position() != *s {
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

#[cfg(test)]
mod tests {
    use super::*;
    use hatsuden::SplitMix64;

    /// The radix pass of [`sort_partition`] sorts each partition as `sort_unstable` does: on
    /// random records, none, one, many repeated keys (one bucket sorted by `sort_unstable`),
    /// many keys in one bucket, and buckets just below and above the insertion sort's limit.
    #[test]
    fn sort_partition_is_sort_unstable() {
        let mut g = SplitMix64::new(11);
        let random = |g: &mut SplitMix64| {
            let key = (g.next() as u128) << 20 | (g.next() & 0xfffff) as u128;
            record(key, g.next() % 1000, (g.next() % 7) as usize)
        };
        let mut inputs: Vec<Vec<Record>> = vec![Vec::new()];
        for n in [1usize, 2, 3, 100, 5000, 70_000] {
            inputs.push((0..n).map(|_| random(&mut g)).collect());
        }
        // One key, 3,000 links (many equal keys).
        let key = record_key(&random(&mut g));
        inputs.push((0..3000).map(|_| record(key, g.next() % 1000, (g.next() % 7) as usize)).collect());
        // A few keys each repeated, in every size around INSERTION_MAX.
        for m in [INSERTION_MAX - 1, INSERTION_MAX, INSERTION_MAX + 1, 40] {
            let keys: Vec<u128> = (0..50).map(|_| record_key(&random(&mut g))).collect();
            inputs.push((0..50 * m).map(|i| record(keys[i % 50], g.next() % 1000, (g.next() % 7) as usize)).collect());
        }
        // Distinct keys sharing their top 40 bits (one bucket), and the same at the top of a
        // partition and at its bottom.
        for top in [0x12_3456_7890u128, 0xff_ffff_ffff, 0] {
            inputs.push(
                (0..2000).map(|_| record(top << 44 | (g.next() as u128 & ((1 << 44) - 1)), g.next() % 9, 0)).collect(),
            );
        }
        for v in inputs {
            let n = v.len();
            // In chunks of random sizes, each ordered by partition.
            let mut chunks = Vec::new();
            let mut at = 0;
            while at < n {
                let end = (at + 1 + (g.next() % 3000) as usize).min(n);
                let mut part = v[at..end].to_vec();
                let ends = partition_records(&mut part);
                chunks.push((part, ends));
                at = end;
            }
            for p in 0..PARTS {
                let mut want: Vec<Record> =
                    v.iter().filter(|r| (r[0] >> (64 - PART_BITS)) as usize == p).copied().collect();
                want.sort_unstable();
                let mut got = vec![[0u64; 2]; want.len()];
                sort_partition(&chunks, p, &mut got);
                assert_eq!(got, want, "{n} records, partition {p}");
            }
        }
    }

    /// Delayed duplicate detection gives what the comparison sort, `dedup` and a filter give:
    /// the first record of each key in (key, link) order, none visited, in that order; on
    /// sizes around the radix sort's thresholds, with many repeated keys and visited keys.
    #[test]
    fn compact_is_sort_dedup_and_filter() {
        let mut g = SplitMix64::new(5);
        for n in [0usize, 1, 100, 4095, 4096, 5000, 70_000, 300_000] {
            let mut v: Vec<Record> = (0..n)
                .map(|_| {
                    let key = (g.next() as u128) << 20 | (g.next() & 0xfffff) as u128;
                    record(key, g.next() % 1000, (g.next() % 7) as usize)
                })
                .collect();
            // One key in four repeats an earlier one, with another link.
            for i in (3..n).step_by(4) {
                let key = record_key(&v[i / 2]);
                v[i] = record(key, g.next() % 1000, (g.next() % 7) as usize);
            }
            // One key in five is visited.
            let mut seen: Vec<u128> = v.iter().step_by(5).map(record_key).collect();
            seen.sort_unstable();
            seen.dedup();
            let mut visited = Visited::new();
            visited.merge(&seen);
            let mut want = v.clone();
            want.sort_unstable();
            want.dedup_by(|a, b| record_key(a) == record_key(b));
            let distinct = want.len();
            want.retain(|r| seen.binary_search(&record_key(r)).is_err());
            // The same records in chunks of random sizes, each ordered by partition.
            let mut chunks = Vec::new();
            let mut at = 0;
            while at < n {
                let end = (at + 1 + (g.next() % 5000) as usize).min(n);
                let mut part = v[at..end].to_vec();
                let mut want = part.clone();
                let ends = partition_records(&mut part);
                assert!(part.windows(2).all(|p| p[0][0] >> 58 <= p[1][0] >> 58), "{n} records");
                assert!((0..PARTS)
                    .all(|p| part[ends[p] as usize..ends[p + 1] as usize].iter().all(|r| (r[0] >> 58) as usize == p)));
                let mut got = part.clone();
                got.sort_unstable();
                want.sort_unstable();
                assert_eq!(got, want, "{n} records: the same records");
                chunks.push((part, ends));
                at = end;
            }
            let dropped = compact(&mut v, &visited);
            assert_eq!(v, want, "{n} records");
            assert_eq!(dropped, distinct - want.len(), "{n} records");
            // compact_parts also makes the kept keys visited.
            let mut out = vec![[1, 1]];
            let dropped_parts = compact_parts(&chunks, &mut visited, &mut out);
            assert_eq!(out, want, "{n} records in chunks");
            assert_eq!(dropped_parts, dropped, "{n} records in chunks");
            assert_eq!(visited.len, (seen.len() + want.len()) as u64, "{n} records in chunks");
            assert!(v.iter().chain(&want).all(|r| visited.contains(record_key(r))), "{n} records in chunks");
            let mut all: Vec<u128> = seen.iter().copied().chain(want.iter().map(record_key)).collect();
            all.sort_unstable();
            let offsets = visited.offsets();
            assert_eq!(offsets[offsets.len() - 1], all.len() as u64, "{n} records in chunks");
            for (i, &key) in all.iter().enumerate() {
                assert_eq!(visited.rank(&offsets, key), Some(i as u64), "{n} records in chunks");
            }
        }
    }
}
