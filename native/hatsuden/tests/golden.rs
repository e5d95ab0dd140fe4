//! The model checker's golden counts (tests/golden/modelcheck.json of the repository): perft
//! 1..6 of every named configuration, and the whole reachable state space of `small`.

use hatsuden::json::{self, Json};
use hatsuden::{from_json, new_game, Document, EndReason, Phase, State};
use std::collections::{HashMap, HashSet};

fn golden() -> Option<Json> {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/golden/modelcheck.json");
    Some(json::parse(&std::fs::read_to_string(path).ok()?).expect("golden JSON"))
}

fn configs() -> Vec<(String, hatsuden::Rules, Json)> {
    let Some(g) = golden() else { return Vec::new() };
    let Some(Json::Obj(configs)) = g.get("configs") else { panic!("configs") };
    configs
        .iter()
        .map(|(name, c)| {
            let rules = match from_json(&c.get("rules").expect("rules").to_text(), Some("rules")).expect("rules doc") {
                Document::Rules(r) => r,
                _ => unreachable!(),
            };
            (name.clone(), rules, c.clone())
        })
        .collect()
}

#[test]
fn r34_perft_matches_the_golden_counts() {
    for (name, rules, c) in configs() {
        let Some(Json::Arr(expected)) = c.get("perft") else { continue };
        let expected: Vec<u64> = expected.iter().map(|x| x.as_int().expect("count") as u64).collect();
        let s = new_game(&rules, None).expect("new_game");
        assert_eq!(s.perft(expected.len()), expected, "{name}");
    }
}

#[test]
fn r23_r25_small_state_space_matches_the_golden_counts() {
    let Some((_, rules, c)) = configs().into_iter().find(|(n, _, _)| n == "small") else { return };
    let start = new_game(&rules, None).expect("new_game");
    let mut seen: HashSet<State> = HashSet::new();
    let mut layer = vec![start];
    seen.insert(start);
    let (mut transitions, mut terminal, mut chance, mut depth) = (0u64, 0u64, 0u64, 0u64);
    let mut reasons: HashMap<&str, u64> = HashMap::new();
    let mut buf = Vec::new();
    while !layer.is_empty() {
        let mut next = Vec::new();
        for s in &layer {
            if s.phase() == Phase::Chance {
                chance += 1;
            }
            if s.is_over() {
                terminal += 1;
                *reasons.entry(if s.end_reason() == EndReason::Stall { "stall" } else { "final_turn" }).or_default() +=
                    1;
            }
            s.legal_moves(&mut buf);
            transitions += buf.len() as u64;
            for &m in &buf {
                let n = s.apply(m).expect("legal");
                if seen.insert(n) {
                    next.push(n);
                }
            }
        }
        if !next.is_empty() {
            depth += 1;
        }
        layer = next;
    }
    let int = |k: &str| c.get(k).and_then(|x| x.as_int()).expect(k) as u64;
    assert_eq!(seen.len() as u64, int("states"));
    assert_eq!(transitions, int("transitions"));
    assert_eq!(terminal, int("terminal_states"));
    assert_eq!(chance, int("chance_nodes"));
    assert_eq!(depth, int("max_depth"));
    let by = c.get("terminal_by_reason").expect("reasons");
    assert_eq!(
        reasons.get("stall").copied().unwrap_or(0) as i128,
        by.get("stall").and_then(|x| x.as_int()).expect("stall")
    );
}
