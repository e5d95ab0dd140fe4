//! Untrusted input never panics: every reader and the adapter, fed mutated vector inputs.

use hatsuden::adapter::{handle, Cache};
use hatsuden::json::{self, Json};
use hatsuden::{docs, parse_move, parse_observation, parse_rules, parse_state, Rules, SplitMix64};

const CHARS: &[char] = &[
    '0', '1', '2', '9', 'S', 'G', 'W', 'H', 'B', '-', '/', ',', ';', '.', '#', '~', '*', 'v', '+', '=', '[', ']', ':',
    '_', ' ', 'a', 'z', 'A', 'C', 'D', 'P', 'X', '?', '"', '{', '}', '\\', 'é', '\t',
];

fn mutate(text: &str, g: &mut SplitMix64) -> String {
    let mut c: Vec<char> = text.chars().collect();
    for _ in 0..1 + g.next() % 3 {
        let n = c.len().max(1);
        let k = (g.next() % n as u64) as usize;
        let x = CHARS[(g.next() % CHARS.len() as u64) as usize];
        match g.next() % 5 {
            0 if k < c.len() => c[k] = x,
            1 if k < c.len() => {
                c.remove(k);
            }
            2 => c.insert(k.min(c.len()), x),
            3 => c.truncate(k),
            _ => {
                if k < c.len() {
                    let digits = ['0', '9', '9', '9', '9', '9', '9', '9', '9', '9', '9', '9'];
                    for d in digits {
                        c.insert(k, d);
                    }
                }
            }
        }
    }
    c.into_iter().collect()
}

#[test]
fn mutated_inputs_never_panic() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../conformance");
    if !dir.join("manifest.json").exists() {
        eprintln!("skipped: no conformance suite at {}", dir.display());
        return;
    }
    let mut texts: Vec<(String, String)> = Vec::new();
    for group in ["transitions", "observations", "invalid", "legal_moves"] {
        let text = std::fs::read_to_string(dir.join(format!("{group}.jsonl"))).expect("vectors");
        for (n, line) in text.lines().enumerate() {
            if n % 7 != 0 {
                continue;
            }
            let v = json::parse(line).expect("vector");
            let input = v.get("input").expect("input");
            for key in ["state", "text", "move"] {
                if let Some(Json::Str(s)) = input.get(key) {
                    let kind = input.get("type").and_then(|t| t.as_str()).unwrap_or(key).to_string();
                    texts.push((kind, s.clone()));
                }
            }
        }
    }
    let mut g = SplitMix64::new(2026);
    let mut cache = Cache::default();
    let rules = Rules::STANDARD;
    for round in 0..12 {
        for (kind, text) in &texts {
            let m = mutate(text, &mut g);
            let _ = parse_state(&m);
            let _ = parse_observation(&m);
            let _ = parse_move(&m, Some(&rules));
            let _ = parse_move(&m, None);
            let _ = parse_rules(&m);
            for ty in ["rules", "move", "state", "observation", "score"] {
                let _ = docs::canonical_json(&m, ty);
            }
            if round % 4 == 0 && kind == "state" {
                for req in [
                    format!(r#"{{"id":"x","kind":"legal_moves","state":{}}}"#, Json::str(m.clone()).to_text()),
                    format!(r#"{{"id":"x","kind":"observe","state":{},"player":1}}"#, Json::str(m.clone()).to_text()),
                    format!(
                        r#"{{"id":"x","kind":"sample_state","state":{},"player":0,"seed":"5"}}"#,
                        Json::str(m.clone()).to_text()
                    ),
                    format!(
                        r#"{{"id":"x","kind":"perft","state":{},"depth":2,"divide":true}}"#,
                        Json::str(m.clone()).to_text()
                    ),
                    format!(r#"{{"id":"x","kind":"apply","state":{},"move":"DD"}}"#, Json::str(text.clone()).to_text()),
                ] {
                    let _ = handle(&json::parse(&req).expect("request"), &mut cache);
                }
            }
        }
    }
    // Requests of the wrong shape get a bad_request, not a panic.
    for req in [r#"{}"#, r#"{"kind":"rng","seed":"x","count":3}"#, r#"{"kind":"perft","state":1}"#, r#"[1]"#] {
        let _ = handle(&json::parse(req).expect("request"), &mut cache);
    }
}
