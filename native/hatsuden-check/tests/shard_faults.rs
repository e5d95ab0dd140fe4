//! With a fault planted (the rules crate's test-only feature `fault-injection`, the fault named
//! by `HATSUDEN_FAULT`, the rule set by `HATSUDEN_FAULT_RULES` in notation), the sharded search
//! finds the violations of the single-process search, in the same order, with the same
//! shortest paths. Run by tests/native/test_native_faults.py, once per fault (the fault is read
//! once per process):
//! `HATSUDEN_FAULT=moves-reversed HATSUDEN_FAULT_RULES=... cargo test -p hatsuden-check
//! --features fault-injection --test shard_faults`.

#![cfg(feature = "fault-injection")]

mod common;

use hatsuden_check::search::{check, Options};

#[test]
fn shards_find_the_violations_of_the_single_process_search() {
    let Ok(text) = std::env::var("HATSUDEN_FAULT_RULES") else { return };
    assert!(hatsuden::fault::active().is_some(), "HATSUDEN_FAULT names no fault");
    let rules = hatsuden::parse_rules(&text).unwrap();
    let many = 10_000;
    let single = check(&rules, &Options { max_violations: many, ..Options::default() }).unwrap();
    assert_eq!(single.result, "VIOLATION");
    let sharded = common::run(rules, 3, false, None, many);
    assert_eq!(sharded.result, single.result);
    let paths = |r: &hatsuden_check::CheckResult| -> Vec<(String, String, Vec<String>)> {
        let with_message = |v: &hatsuden_check::Violation| v.rule == "R25";
        r.violations
            .iter()
            .map(|v| (v.rule.clone(), if with_message(v) { v.message.clone() } else { String::new() }, v.path.clone()))
            .collect()
    };
    assert_eq!(paths(&sharded), paths(&single));
    assert_eq!(sharded.states, single.states);
    assert_eq!(sharded.longest_game, single.longest_game);
}
