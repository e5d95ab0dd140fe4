//! Drives the sharded primitives of src/shard.rs as the Ray driver (modelcheck/_ray.py) does,
//! without Ray: shared by tests/shard.rs and tests/shard_faults.rs.

#![allow(dead_code)]

use std::collections::HashMap;

use hatsuden::Rules;
use hatsuden_check::search::Violation;
use hatsuden_check::shard::{replay, summarize, Found, Shard, Summary, COUNTERS};

const NO_PARENT: u64 = u64::MAX;

fn ranks_to(parents: &[u64], mut n: usize) -> Vec<usize> {
    let mut ranks = Vec::new();
    while parents[n] != NO_PARENT {
        ranks.push((parents[n] & 255) as usize);
        n = (parents[n] >> 8) as usize;
    }
    ranks.reverse();
    ranks
}

/// The search of `rules` over `shards` shards (saved and reloaded after layer `save_at`).
pub fn run(
    rules: Rules,
    shards: usize,
    positions: bool,
    save_at: Option<usize>,
    max_violations: usize,
) -> hatsuden_check::CheckResult {
    let mut found: Vec<Found> = Vec::new();
    let mut all: Vec<Shard> = (0..shards).map(|i| Shard::new(&rules, positions, i, shards).unwrap()).collect();
    let mut parents = vec![NO_PARENT];
    let mut counters = vec![0u64; COUNTERS];
    let (mut states, mut layer_start, mut depth) = (1u64, 0u64, 0usize);
    let mut layer_sizes = Vec::new();
    let dir = std::env::temp_dir().join(format!("hatsuden-shard-test-{}-{shards}-{positions}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    while states > layer_start {
        layer_sizes.push(states - layer_start);
        let mut batches: Vec<Vec<Vec<u8>>> = Vec::new();
        let mut layer_found: Vec<Found> = Vec::new();
        for shard in all.iter_mut() {
            let mut paths = HashMap::new();
            for &n in shard.frontier() {
                if n % 256 == 0 {
                    paths.insert(n, ranks_to(&parents, n as usize));
                }
            }
            batches.push(shard.expand(&paths));
            let (c, problems) = shard.take_counts();
            layer_found.extend(problems);
            for (a, b) in counters.iter_mut().zip(c) {
                *a += b;
            }
        }
        layer_found.sort_by_key(|f| (f.2, f.3)); // stable: a state's problems in their order
        let room = max_violations.saturating_sub(found.len());
        found.extend(layer_found.into_iter().take(room));
        let mut codes: Vec<(u64, usize, usize)> = Vec::new();
        let mut counts = vec![0usize; shards];
        for (j, shard) in all.iter_mut().enumerate() {
            let inbox: Vec<&[u8]> = batches.iter().map(|b| b[j].as_slice()).collect();
            let bytes = shard.receive(&inbox);
            for (k, c) in bytes.chunks_exact(8).enumerate() {
                codes.push((u64::from_le_bytes(c.try_into().unwrap()), j, k));
            }
            counts[j] = bytes.len() / 8;
        }
        codes.sort_unstable();
        let mut numbers: Vec<Vec<u64>> = counts.iter().map(|&c| vec![0; c]).collect();
        for (i, &(code, j, k)) in codes.iter().enumerate() {
            numbers[j][k] = states + i as u64;
            parents.push(code);
        }
        for (shard, nums) in all.iter_mut().zip(&numbers) {
            shard.number(nums).unwrap();
        }
        layer_start = states;
        states += codes.len() as u64;
        depth += 1;
        if save_at == Some(depth) {
            for (i, shard) in all.iter().enumerate() {
                shard.save(&dir.join(format!("shard-{i}.bin"))).unwrap();
            }
            all = (0..shards).map(|i| Shard::new(&rules, positions, i, shards).unwrap()).collect();
            for (i, shard) in all.iter_mut().enumerate() {
                shard.load(&dir.join(format!("shard-{i}.bin"))).unwrap();
            }
        }
    }
    let edges: Vec<Vec<Vec<u8>>> = all.iter().map(|s| s.edges_out()).collect();
    for (j, shard) in all.iter_mut().enumerate() {
        let inbox: Vec<&[u8]> = edges.iter().map(|b| b[j].as_slice()).collect();
        shard.indegrees_in(&inbox);
    }
    let mut levels = 1;
    loop {
        let out: Vec<Vec<Vec<u8>>> = all.iter_mut().map(|s| s.peel_out()).collect();
        let mut next = 0;
        for (j, shard) in all.iter_mut().enumerate() {
            let inbox: Vec<&[u8]> = out.iter().map(|b| b[j].as_slice()).collect();
            next += shard.peel_in(&inbox);
        }
        if next == 0 {
            break;
        }
        levels += 1;
    }
    let peeled: u64 = all.iter().map(|s| s.peeled()).sum();
    std::fs::remove_dir_all(&dir).unwrap();
    let mut violations: Vec<Violation> = found
        .iter()
        .map(|(rule, message, n, rank)| {
            let mut ranks = ranks_to(&parents, *n as usize);
            if *rank >= 0 {
                ranks.push(*rank as usize);
            }
            let path = replay(&rules, positions, &ranks).0.iter().map(|m| m.format()).collect();
            Violation { rule: rule.clone(), message: message.clone(), path }
        })
        .collect();
    if peeled < states && violations.len() < max_violations {
        // R25: walk from the lowest state left, along the first successor left, to a repeat.
        let owner = |k: u128| hatsuden_check::shard::owner(k, shards);
        let mut v = all.iter().filter_map(|s| s.lowest_left()).min().unwrap().1;
        let mut seen = HashMap::new();
        let mut walk: Vec<(u64, usize)> = Vec::new();
        while !seen.contains_key(&v) {
            seen.insert(v, walk.len());
            let (number, successors) = all[owner(v)].successors(v).unwrap();
            let (rank, &t) = successors.iter().enumerate().find(|(_, &t)| all[owner(t)].left(t)).unwrap();
            walk.push((number, rank));
            v = t;
        }
        let cycle = &walk[seen[&v]..];
        let mut ranks = ranks_to(&parents, cycle[0].0 as usize);
        ranks.extend(cycle.iter().map(|&(_, r)| r));
        let path = replay(&rules, positions, &ranks).0.iter().map(|m| m.format()).collect();
        let message = format!("a cycle of {} moves: the game need not end", cycle.len());
        violations.push(Violation { rule: "R25".into(), message, path });
    }
    summarize(Summary {
        rules,
        positions,
        workers: shards,
        counters,
        states,
        max_depth: layer_sizes.len() as u64 - 1,
        longest_game: if peeled == states { Some(levels - 1) } else { None },
        violations,
        layer_sizes,
        seconds: 0.0,
        peak_memory_mb: 0.0,
        require_coverage: None,
        stopped_by: None,
        table_bytes: 0,
    })
}
