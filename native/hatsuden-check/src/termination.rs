//! Termination (R25) and the longest game, from the transitions kept on disk.

use crate::expand::Engine;
use crate::search::Violation;
use crate::store::{peak_rss_bytes, rss_bytes, Store};
use crate::table::{key_from, Visited, KEY_BYTES, SHARD_BITS};
use rayon::prelude::*;
use std::fs::{self, File};
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};

pub(crate) enum Graph {
    Longest(u64),
    Cycle(Vec<(u64, usize)>),
    TooBig(String),
}

/// Termination (R25) and the longest game, from the transition files: every successor's
/// fingerprint becomes a state number (through its rank in the visited set), then the graph is
/// peeled from the start a level at a time (Kahn): all peeled means no cycle, and the number of
/// levels less one is the longest game; otherwise a cycle is walked among the states left.
///
/// The fingerprints are looked up a block of 2^18 at a time, each worker's share of the block
/// grouped by the part of the visited set they fall in (a counting sort on their top bits), so
/// that consecutive lookups read the same few cache lines of the visited set and of `rank ->
/// number`: lookups in file order missed the cache at nearly every one. The run's data is read
/// from memory when the search kept it there (no checkpoint), and so are the successor numbers.
pub(crate) fn termination(
    store: &Store,
    visited: Visited,
    states: u64,
    transitions: u64,
    max_memory: Option<u64>,
    peak: &mut u64,
) -> Result<Graph, String> {
    let n = states as usize;
    // Phase A holds the visited set (already counted in the resident memory) with a rank ->
    // number map (4 bytes a state), the out-degrees (1) and a block of 2^18 sorted lookups (16
    // bytes each, and their results); phase B, without the visited set,
    // the successors as numbers (4 bytes a transition), in-degrees (2), out-degrees (1).
    let phase_a = 5 * states + (12 << 20);
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
        let mut f = store.out.reader(&store.path("edges_src.bin")).map_err(|e| e.to_string())?;
        f.read_exact(&mut degree).map_err(|e| format!("edges_src.bin: {e}"))?;
        let mut keys = store.keys.reader(&store.path("keys.bin")).map_err(|e| e.to_string())?;
        let step = 1usize << 18;
        let mut bytes = vec![0u8; step * KEY_BYTES];
        let mut num = 0usize;
        while num < n {
            let count = (n - num).min(step);
            keys.read_exact(&mut bytes[..count * KEY_BYTES]).map_err(|e| format!("keys.bin: {e}"))?;
            let mut ranks = vec![u64::MAX; count];
            sorted_lookups(
                &bytes[..count * KEY_BYTES],
                |key| visited.rank(&offsets, key).unwrap_or(u64::MAX),
                &mut ranks,
            );
            for (k, &rank) in ranks.iter().enumerate() {
                if rank == u64::MAX {
                    return Err("a state's fingerprint is not in the visited set".into());
                }
                rank_to_num[rank as usize] = (num + k) as u32;
            }
            num += count;
        }
    }
    // Targets as state numbers, written to disk while the visited set is still held (kept in
    // memory when the run's data is).
    let targets_path = store.path("targets.u32");
    let in_memory =
        store.is_memory() && max_memory.map_or(true, |limit| rss_bytes() + phase_a + 4 * transitions <= limit);
    let mut kept: Option<Vec<u32>> = in_memory.then(|| Vec::with_capacity(transitions as usize));
    {
        let mut f = store.dst.reader(&store.path("edges_dst.bin")).map_err(|e| e.to_string())?;
        let mut out = match kept {
            Some(_) => None,
            None => Some(BufWriter::with_capacity(1 << 22, File::create(&targets_path).map_err(|e| e.to_string())?)),
        };
        let step = 1usize << 18;
        let mut done = 0u64;
        let mut bytes = vec![0u8; step * KEY_BYTES];
        while done < transitions {
            let count = (transitions - done).min(step as u64) as usize;
            f.read_exact(&mut bytes[..count * KEY_BYTES]).map_err(|e| format!("edges_dst.bin: {e}"))?;
            let mut nums = vec![u32::MAX; count];
            sorted_lookups(
                &bytes[..count * KEY_BYTES],
                |key| visited.rank(&offsets, key).map_or(u32::MAX, |r| rank_to_num[r as usize]),
                &mut nums,
            );
            if nums.contains(&u32::MAX) {
                return Err("an edge leads to a fingerprint that was never stored".into());
            }
            if let Some(k) = &mut kept {
                k.extend_from_slice(&nums);
            } else if let Some(out) = &mut out {
                let mut b = Vec::with_capacity(count * 4);
                for x in nums {
                    b.extend_from_slice(&x.to_le_bytes());
                }
                out.write_all(&b).map_err(|e| e.to_string())?;
            }
            done += count as u64;
        }
        if let Some(mut out) = out {
            out.flush().map_err(|e| e.to_string())?;
        }
    }
    *peak = (*peak).max(peak_rss_bytes());
    drop(visited);
    drop(rank_to_num);
    drop(offsets);
    let mut targets = kept.unwrap_or_default();
    if !in_memory {
        targets = vec![0u32; transitions as usize];
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
        let _ = fs::remove_file(&targets_path);
    }
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
///
/// With symmetry the stored loop may lead from a state to another member of its orbit: the
/// real moves then come back to the first state after the loop is walked twice (every row swap
/// is its own inverse), so the loop is repeated until the real state repeats.
pub(crate) fn cycle_violation(engine: &Engine, store: &Store, cycle: &[(u64, usize)]) -> Violation {
    // The real position a path of ranks reaches (the full state it returns is seen through the
    // swaps it returns).
    let real = |ranks: &[usize]| {
        let (_, _, full, mask) = engine.replay_from(ranks, true);
        crate::symmetry::apply_mask(&full, mask).position()
    };
    let prefix = store.ranks_to(cycle[0].0);
    let start = real(&prefix);
    let mut ranks = prefix;
    let mut length = 0;
    for _ in 0..2 {
        ranks.extend(cycle.iter().map(|&(_, r)| r));
        length += cycle.len();
        if real(&ranks) == start {
            break;
        }
    }
    let (moves, _, _) = engine.replay_lenient(&ranks);
    Violation {
        rule: "R25".into(),
        message: format!("a cycle of {length} moves: the game need not end"),
        path: moves.iter().map(|m| m.format()).collect(),
    }
}

/// `out[k] = lookup(key k of bytes)` ([`KEY_BYTES`] a key), the lookups made in the order of
/// the keys' top [`GROUP_BITS`] bits (a stable counting sort by them), in parts of `bytes` taken
/// by the workers: each part is sorted and then reads the visited set from its start to its end,
/// a few keys a super-shard, instead of at random. At most 2^32 keys.
fn sorted_lookups<T: Send>(bytes: &[u8], lookup: impl Fn(u128) -> T + Sync, out: &mut [T]) {
    let n = bytes.len() / KEY_BYTES;
    debug_assert_eq!(out.len(), n);
    // Eight parts a worker, so that a worker slowed down by others leaves its parts to the rest.
    let per = n.div_ceil(8 * rayon::current_num_threads().max(1)).max(1);
    out.par_chunks_mut(per).zip(bytes.par_chunks(per * KEY_BYTES)).for_each(|(out, bytes)| {
        let keys: Vec<u128> = bytes.chunks_exact(KEY_BYTES).map(key_from).collect();
        let group = |key: u128| (key >> (64 + SHARD_BITS - GROUP_BITS)) as usize;
        let mut at = vec![0u32; (1 << GROUP_BITS) + 1];
        for &key in &keys {
            at[group(key) + 1] += 1;
        }
        for g in 0..1 << GROUP_BITS {
            at[g + 1] += at[g];
        }
        let mut order = vec![0u32; keys.len()];
        for (k, &key) in keys.iter().enumerate() {
            let g = group(key);
            order[at[g] as usize] = k as u32;
            at[g] += 1;
        }
        for &k in &order {
            out[k as usize] = lookup(keys[k as usize]);
        }
    });
}

/// Top bits of a fingerprint by which [`sorted_lookups`] groups its lookups (those of the
/// visited set's super-shards).
const GROUP_BITS: u32 = 12;
