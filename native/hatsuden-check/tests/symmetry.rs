//! The search with symmetry (one state or position per orbit of the row swaps, issue 21,
//! src/symmetry.rs) reports the exact figures of the search without it: its unreduced states
//! (or positions), transitions, terminal states by end reason and chance nodes, weighted by
//! orbit sizes, equal those of the full search; the max depth, the longest game (R25) and the
//! verdict are the same; a checkpointed run resumes to the same result.
//!
//! `small` (by state and by position) and a two-column rule set where the Accumulator sits on
//! a city (orbits of 4) always; `medium`, `large`, `choice` (by position), `medium-place-at-once`
//! (R40) and `medium-any-set` (R41) against the goldens with
//! `cargo test --release -p hatsuden-check --test symmetry -- --ignored` (`make
//! verify-native-check`).

use hatsuden::json::{parse, Json};
use hatsuden::{Rules, ACCUMULATOR};
use hatsuden_check::configs::config;
use hatsuden_check::report::{golden_mismatches, result_json};
use hatsuden_check::{check, CheckResult, Options};
use std::path::Path;

/// Both runs of `rules`, without and with symmetry.
fn both(rules: &Rules, positions: bool, workers: usize) -> (CheckResult, CheckResult) {
    let opts = Options { positions, workers, ..Options::default() };
    let full = check(rules, &opts).expect("the check runs");
    let reduced = check(rules, &Options { symmetry: true, ..opts }).expect("the check runs");
    (full, reduced)
}

/// The reduced run's unreduced figures are the full run's, and what the quotient keeps is equal.
fn assert_same_figures(full: &CheckResult, reduced: &CheckResult, what: &str) {
    assert!(full.unreduced.is_none() && !full.symmetry);
    let u = reduced.unreduced.as_ref().expect("unreduced figures");
    assert!(reduced.symmetry);
    assert_eq!(u.states, full.states, "{what} states");
    assert_eq!(u.transitions, full.transitions, "{what} transitions");
    assert_eq!(u.terminal_by_reason, full.terminal_by_reason, "{what} terminal states");
    assert_eq!(u.chance_nodes, full.chance_nodes, "{what} chance nodes");
    assert_eq!(reduced.max_depth, full.max_depth, "{what} max depth");
    assert_eq!(reduced.longest_game, full.longest_game, "{what} longest game (R25)");
    assert_eq!(reduced.result, full.result, "{what} verdict");
    assert_eq!(reduced.unreached, full.unreached, "{what} unreached events");
    // The quotient is smaller, but by at most the group's order (4).
    assert!(reduced.states < full.states && 4 * reduced.states >= full.states, "{what}");
    assert!(reduced.transitions < full.transitions, "{what}");
    // Every event the full search sees, the reduced one sees (non-vacuity is kept).
    assert_eq!(reduced.events.keys().collect::<Vec<_>>(), full.events.keys().collect::<Vec<_>>(), "{what}");
}

/// Every Construct draws a tech card, so the Accumulator lands on a city (R18, R19) and both
/// players' swaps act: orbits of 4 occur (as `TWO_COLUMNS` in the Python symmetry tests).
fn two_columns() -> Rules {
    Rules {
        energies: 2,
        max_value: 1,
        copies: 1,
        hand_size: 1,
        city_demand: 1,
        techs: 1 << ACCUMULATOR,
        ..config("small").unwrap()
    }
}

#[test]
fn small_by_state_gives_the_unreduced_figures() {
    let (full, reduced) = both(&config("small").unwrap(), false, 1);
    assert_same_figures(&full, &reduced, "small");
    assert_eq!(reduced.result, "OK");
    assert_eq!(reduced.longest_game, Some(24));
}

#[test]
fn small_by_position_and_with_two_threads_gives_the_unreduced_figures() {
    let (full, reduced) = both(&config("small").unwrap(), true, 2);
    assert_same_figures(&full, &reduced, "small by position");
}

#[test]
fn two_columns_with_the_accumulator_gives_the_unreduced_figures() {
    for positions in [false, true] {
        let (full, reduced) = both(&two_columns(), positions, 1);
        assert_same_figures(&full, &reduced, "two columns");
        // Orbits of 4 exist: more than half of the states are saved.
        assert!(2 * reduced.states < full.states, "{} of {}", reduced.states, full.states);
    }
}

#[test]
fn the_json_report_names_the_orbits_and_the_unreduced_figures() {
    let (full, reduced) = both(&config("small").unwrap(), false, 1);
    let doc = parse(&result_json(&reduced)).expect("JSON");
    assert_eq!(doc.get("symmetry"), Some(&Json::Bool(true)));
    assert_eq!(doc.get("orbits").and_then(Json::as_int), Some(reduced.states as i128));
    let u = doc.get("unreduced").expect("unreduced");
    assert_eq!(u.get("states").and_then(Json::as_int), Some(full.states as i128));
    assert_eq!(u.get("transitions").and_then(Json::as_int), Some(full.transitions as i128));
    let terminal: u64 = full.terminal_by_reason.values().sum();
    assert_eq!(u.get("terminal_states").and_then(Json::as_int), Some(terminal as i128));
    let plain = parse(&result_json(&full)).expect("JSON");
    assert_eq!(plain.get("symmetry"), Some(&Json::Bool(false)));
    assert_eq!(plain.get("unreduced"), Some(&Json::Null));
}

#[test]
fn a_checkpointed_run_with_symmetry_resumes_to_the_same_result() {
    let rules = config("small").unwrap();
    let dir = std::env::temp_dir().join(format!("hatsuden-check-symmetry-resume-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let opts = Options { checkpoint: Some(dir.clone()), max_states: Some(4_000), symmetry: true, ..Options::default() };
    let cut = check(&rules, &opts).unwrap();
    assert_eq!(cut.result, "TRUNCATED");
    // A checkpoint with symmetry is not resumed without it (another identity).
    let wrong = check(&rules, &Options { resume: true, max_states: None, symmetry: false, ..opts.clone() });
    assert!(wrong.is_err());
    let done = check(&rules, &Options { resume: true, max_states: None, ..opts }).unwrap();
    let whole = check(&rules, &Options { symmetry: true, ..Options::default() }).unwrap();
    assert_eq!(
        (done.result.as_str(), done.states, done.transitions, done.longest_game),
        ("OK", whole.states, whole.transitions, whole.longest_game)
    );
    assert_eq!(done.unreduced, whole.unreduced);
    assert_eq!(done.events, whole.events);
    let _ = std::fs::remove_dir_all(&dir);
}

fn golden() -> Json {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/golden/modelcheck.json");
    parse(&std::fs::read_to_string(path).expect("the golden file")).expect("golden JSON")
}

/// The run of `name` with symmetry, by the golden's identity (states or positions), against the
/// golden figures of the unreduced search (which the native search without symmetry matches,
/// tests/golden.rs).
fn against_golden(name: &str) {
    let g = golden();
    let entry = g.get("configs").and_then(|c| c.get(name)).expect("a golden entry");
    let positions = matches!(entry.get("positions"), Some(Json::Bool(true)));
    let rules = config(name).expect("a named configuration");
    let r = check(&rules, &Options { positions, workers: 2, symmetry: true, ..Options::default() }).unwrap();
    assert_eq!(r.result, "OK", "{name}: {:?} {:?}", r.violations, r.unreached);
    assert_eq!(golden_mismatches(&r, entry), Vec::<String>::new(), "{name}");
    let u = r.unreduced.as_ref().unwrap();
    assert!(r.states < u.states && 4 * r.states >= u.states);
    eprintln!("{name}: {} orbits of {} {}", r.states, u.states, if positions { "positions" } else { "states" });
}

#[test]
#[ignore = "release build, a minute: make verify-native-check"]
fn medium_with_symmetry_gives_the_golden_figures() {
    against_golden("medium");
}

#[test]
#[ignore = "release build, a minute: make verify-native-check"]
fn large_with_symmetry_gives_the_golden_figures() {
    against_golden("large");
}

#[test]
#[ignore = "release build, a minute: make verify-native-check"]
fn choice_by_position_with_symmetry_gives_the_golden_figures() {
    against_golden("choice");
}

#[test]
#[ignore = "release build, a minute: make verify-native-check"]
fn the_variants_with_symmetry_give_the_golden_figures() {
    against_golden("medium-place-at-once");
    against_golden("medium-any-set");
}
