//! The ranked engine (issue 21 §2) gives exactly the breadth-first engine's figures: states or
//! positions, transitions, terminal states by end reason, chance nodes, max depth, longest game
//! (R25), events, unreached events, layer sizes and verdict; with and without symmetry. A run
//! cut short and resumed equals an uninterrupted one. A ranking function that does not
//! increase on a transition stops the run with an error, never a result.
//! `small` always; `medium`, variants and `choice` with symmetry in release builds (`cargo test
//! --release`); `large` and `choice` in full in `make verify-native-check` (`--ignored`).

use hatsuden::State;
use hatsuden_check::configs::config;
use hatsuden_check::ranked::{check_ranked, rank};
use hatsuden_check::{check, CheckResult, Options};

fn figures(r: &CheckResult) -> String {
    format!(
        "{} states {} transitions {} terminal {:?} chance {} depth {} longest {:?} events {:?} unreached {:?} layers {:?} unreduced {:?}",
        r.result,
        r.states,
        r.transitions,
        r.terminal_by_reason,
        r.chance_nodes,
        r.max_depth,
        r.longest_game,
        r.events,
        r.unreached,
        r.layer_sizes,
        r.unreduced.as_ref().map(|u| (u.states, u.transitions, u.chance_nodes, u.terminal_by_reason.clone()))
    )
}

fn same(name: &str, positions: bool, symmetry: bool) {
    let rules = config(name).expect("a named configuration");
    let opts = Options { positions, symmetry, workers: 2, ..Options::default() };
    let bfs = check(&rules, &opts).expect("the breadth-first check runs");
    let ranked = check(&rules, &Options { ranked: true, ..opts }).expect("the ranked check runs");
    assert_eq!(bfs.result, "OK", "{name}: {:?}", bfs.violations);
    assert_eq!(figures(&ranked), figures(&bfs), "{name} positions={positions} symmetry={symmetry}");
    assert_eq!(ranked.collision_probability, 0.0, "exact storage");
}

#[test]
fn small_ranked_equals_breadth_first_by_state_and_by_position() {
    same("small", false, false);
    same("small", true, false);
}

#[test]
fn small_ranked_equals_breadth_first_with_symmetry() {
    same("small", false, true);
    same("small", true, true);
}

#[test]
fn medium_a_variant_and_choice_ranked_equal_breadth_first_in_release() {
    if cfg!(debug_assertions) {
        return; // seconds in release, minutes in debug
    }
    same("medium", false, false);
    same("medium-any-set", false, false);
    same("medium-place-at-once", false, true);
    same("choice", true, true);
}

/// `make verify-native-check`: large and choice (by position), in full.
#[test]
#[ignore]
fn large_and_choice_ranked_equal_breadth_first() {
    same("large", false, false);
    same("choice", true, false);
}

#[test]
fn the_rank_grows_on_every_transition_of_small() {
    // The ranking function itself (R9, R23, R25): every transition from every state met by a
    // walk over the whole graph of small raises it.
    let rules = config("small").unwrap();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![hatsuden::new_game(&rules, None).unwrap()];
    let mut moves = Vec::new();
    while let Some(s) = stack.pop() {
        if !seen.insert(s) {
            continue;
        }
        s.legal_moves(&mut moves);
        for m in moves.clone() {
            let after = s.apply(m).unwrap();
            assert!(rank(&after) > rank(&s), "{m:?} from {s:?}");
            stack.push(after);
        }
    }
    assert_eq!(seen.len(), 44_513, "every state of small (the golden count)");
}

fn flat(_: &State) -> u64 {
    7
}

fn by_phase_only(s: &State) -> u64 {
    s.phase() as u64
}

#[test]
fn a_ranking_function_that_does_not_grow_stops_the_run() {
    let rules = config("small").unwrap();
    for bad in [flat as fn(&State) -> u64, by_phase_only] {
        let err = check_ranked(&rules, &Options::default(), bad).expect_err("a failure of the method");
        assert!(err.contains("does not increase"), "{err}");
    }
}

#[test]
fn no_stall_limit_is_refused() {
    // Without a stall limit the printed rules have endless games (R25): no ranking exists.
    let rules = hatsuden::Rules { stall_limit: None, ..config("small").unwrap() };
    let err = check(&rules, &Options { ranked: true, ..Options::default() }).expect_err("refused");
    assert!(err.contains("stall limit"), "{err}");
}

#[test]
fn a_resumed_run_equals_an_uninterrupted_one() {
    let rules = config("small").unwrap();
    let dir = std::env::temp_dir().join(format!("hatsuden-ranked-resume-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let whole = check(&rules, &Options { ranked: true, positions: true, ..Options::default() }).unwrap();
    let opts = Options {
        ranked: true,
        positions: true,
        checkpoint: Some(dir.clone()),
        max_states: Some(5_000),
        ..Options::default()
    };
    let cut = check(&rules, &opts).unwrap();
    assert_eq!(cut.result, "TRUNCATED");
    assert!(cut.states < whole.states);
    // A torn record at the end of a pending file (a crash mid-write) is dropped on resume.
    let pending = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "raw"))
        .expect("pending files");
    std::fs::OpenOptions::new().append(true).open(&pending).unwrap().write_all(&[1, 2, 3]).unwrap();
    let again = check(&rules, &opts).expect_err("a checkpoint is not overwritten");
    assert!(again.contains("resume"), "{again}");
    let done = check(&rules, &Options { resume: true, max_states: None, ..opts }).unwrap();
    assert_eq!(figures(&done), figures(&whole));
    assert_eq!(done.soundness_checked, whole.soundness_checked);
    std::fs::remove_dir_all(&dir).unwrap();
}

use std::io::Write;
