//! The sharded primitives of the distributed checker (src/shard.rs), driven here as the Ray
//! driver drives them (modelcheck/_ray.py), without Ray: 1 and 3 shards give the figures of the
//! single-process search on `small` (R24, R25 and every counted event), and a shard saved and
//! loaded mid-search goes on to the same result.

use std::collections::HashMap;

use hatsuden_check::configs::config;
use hatsuden_check::search::{check, Options};
use hatsuden_check::shard::{summarize, Shard, Summary, COUNTERS};

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

fn run(shards: usize, positions: bool, save_at: Option<usize>) -> hatsuden_check::CheckResult {
    let rules = config("small").unwrap();
    let mut all: Vec<Shard> = (0..shards).map(|i| Shard::new(&rules, positions, i, shards).unwrap()).collect();
    let mut parents = vec![NO_PARENT];
    let mut counters = vec![0u64; COUNTERS];
    let (mut states, mut layer_start, mut depth) = (1u64, 0u64, 0usize);
    let mut layer_sizes = Vec::new();
    let dir = std::env::temp_dir().join(format!("hatsuden-shard-test-{}-{shards}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    while states > layer_start {
        layer_sizes.push(states - layer_start);
        let mut batches: Vec<Vec<Vec<u8>>> = Vec::new();
        for shard in all.iter_mut() {
            let mut paths = HashMap::new();
            for &n in shard.frontier() {
                if n % 256 == 0 {
                    paths.insert(n, ranks_to(&parents, n as usize));
                }
            }
            batches.push(shard.expand(&paths));
            let (c, found) = shard.take_counts();
            assert!(found.is_empty(), "{found:?}");
            for (a, b) in counters.iter_mut().zip(c) {
                *a += b;
            }
        }
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
    assert_eq!(peeled, states, "R25: every state peeled, no cycle");
    std::fs::remove_dir_all(&dir).unwrap();
    summarize(Summary {
        rules,
        positions,
        workers: shards,
        counters,
        states,
        max_depth: layer_sizes.len() as u64 - 1,
        longest_game: Some(levels - 1),
        violations: Vec::new(),
        layer_sizes,
        seconds: 0.0,
        peak_memory_mb: 0.0,
        require_coverage: None,
        stopped_by: None,
        table_bytes: 0,
    })
}

#[test]
fn shards_give_the_figures_of_the_single_process_search() {
    for positions in [false, true] {
        let opts = Options { positions, ..Options::default() };
        let single = check(&config("small").unwrap(), &opts).unwrap();
        for (shards, save_at) in [(1, None), (3, None), (3, Some(7))] {
            let r = run(shards, positions, save_at);
            assert_eq!(r.result, single.result);
            assert_eq!((r.states, r.transitions), (single.states, single.transitions));
            assert_eq!(r.terminal_by_reason, single.terminal_by_reason);
            assert_eq!((r.chance_nodes, r.max_depth), (single.chance_nodes, single.max_depth));
            assert_eq!(r.longest_game, single.longest_game);
            assert_eq!(r.events, single.events);
            assert_eq!(r.unreached, single.unreached);
            assert_eq!(r.soundness_checked, single.soundness_checked);
            assert_eq!(r.layer_sizes, single.layer_sizes);
        }
    }
}
