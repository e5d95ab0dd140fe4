//! Where the breadth-first engine keeps a run's data (src/store.rs) changes nothing it reports:
//! in memory (the default without `--checkpoint`), in files from the start (`store_budget:
//! Some(0)`), or in memory until a small budget is passed and in files after it (the data moved
//! to files mid-run), the figures, events, layers, longest game (R25) and soundness sample
//! (R36: each sampled position's shortest path is read back from the parent records and
//! replayed, so a wrong record would fail it) are the same; and a checkpointed run, whose data
//! is always in files, resumes as before. (Counterexample paths, read from the same records,
//! are compared with the Python checker's under planted faults: tests/native/test_native_faults.py.)

use hatsuden::Rules;
use hatsuden_check::configs::config;
use hatsuden_check::{check, CheckResult, Options};

fn assert_same(a: &CheckResult, b: &CheckResult, what: &str) {
    assert_eq!(a.result, b.result, "{what} verdict");
    assert_eq!(a.states, b.states, "{what} states");
    assert_eq!(a.transitions, b.transitions, "{what} transitions");
    assert_eq!(a.terminal_by_reason, b.terminal_by_reason, "{what} terminal states");
    assert_eq!(a.chance_nodes, b.chance_nodes, "{what} chance nodes");
    assert_eq!(a.max_depth, b.max_depth, "{what} max depth");
    assert_eq!(a.longest_game, b.longest_game, "{what} longest game (R25)");
    assert_eq!(a.layer_sizes, b.layer_sizes, "{what} layers");
    assert_eq!(a.events, b.events, "{what} events");
    assert_eq!(a.unreached, b.unreached, "{what} unreached events");
    assert_eq!(a.soundness_checked, b.soundness_checked, "{what} soundness sample (R36)");
    assert_eq!(a.violations, b.violations, "{what} violations");
    assert_eq!(a.stopped_by, b.stopped_by, "{what} stopped by");
}

/// The run of `rules` with its data in files, in memory, and moved to files after `spill_at`
/// bytes; each compared with the first.
fn every_store(rules: &Rules, base: Options, spill_at: u64, what: &str) -> CheckResult {
    let files = check(rules, &Options { store_budget: Some(0), ..base.clone() }).expect("the check runs");
    let memory = check(rules, &base).expect("the check runs");
    let spilled = check(rules, &Options { store_budget: Some(spill_at), ..base.clone() }).expect("the check runs");
    assert_same(&memory, &files, &format!("{what}, in memory"));
    assert_same(&spilled, &files, &format!("{what}, moved to files"));
    files
}

#[test]
fn small_gives_the_same_result_wherever_its_data_is() {
    let rules = config("small").unwrap();
    for positions in [false, true] {
        for workers in [1, 2] {
            let base = Options { positions, workers, ..Options::default() };
            // 64 KiB: the data passes it after a few layers.
            let r = every_store(&rules, base.clone(), 64 << 10, &format!("small, positions {positions}"));
            assert_eq!(r.result, "OK");
            // Duplicate detection compacting the records as they grow (a large layer's way),
            // from the first chunk on: the same as gathering each layer's partitions at its end.
            let compacted = every_store(
                &rules,
                Options { dedup_budget: Some(0), ..base.clone() },
                64 << 10,
                &format!("small, positions {positions}, compacted as they grow"),
            );
            assert_same(&compacted, &r, &format!("small, positions {positions}, compacted as they grow"));
            // Pass 2 rebuilding the new states from their parents reads the frontier again.
            every_store(
                &rules,
                Options { successor_budget: Some(0), ..base },
                64 << 10,
                &format!("small, positions {positions}, rebuilt"),
            );
        }
    }
}

#[test]
fn a_truncated_run_is_the_same_and_a_checkpoint_still_resumes() {
    let rules = config("small").unwrap();
    let cut = every_store(&rules, Options { max_states: Some(10_000), ..Options::default() }, 16 << 10, "truncated");
    assert_eq!(cut.result, "TRUNCATED");
    let dir = std::env::temp_dir().join(format!("hatsuden-check-store-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let opts = Options { checkpoint: Some(dir.clone()), max_states: Some(10_000), ..Options::default() };
    let first = check(&rules, &opts).unwrap();
    assert_same(&first, &cut, "checkpointed, truncated");
    // A checkpoint's data is in its files: they are there to resume from.
    assert!(dir.join("keys.bin").exists() && dir.join("parents.u64").exists());
    let done = check(&rules, &Options { resume: true, max_states: None, ..opts }).unwrap();
    let whole = check(&rules, &Options::default()).unwrap();
    assert_eq!(
        (done.result.as_str(), done.states, done.transitions, done.longest_game),
        ("OK", whole.states, whole.transitions, whole.longest_game)
    );
    assert_eq!(done.events, whole.events);
    let _ = std::fs::remove_dir_all(&dir);
}
