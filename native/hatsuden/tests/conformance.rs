//! Every conformance vector of `conformance/*.jsonl`, fed to the adapter's request handler and
//! compared with `expected` as the Python runner compares (CONFORMANCE.md "Comparing").

use hatsuden::adapter::{handle, Cache};
use hatsuden::json::{self, Json};
use std::path::PathBuf;

fn suite_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../conformance")
}

/// JSON equality keeping integers, booleans and other numbers apart.
fn same(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Null, Json::Null) => true,
        (Json::Bool(x), Json::Bool(y)) => x == y,
        (Json::Int(x, tx), Json::Int(y, ty)) => x == y && (x.is_some() || tx == ty),
        (Json::Float(x), Json::Float(y)) => x.parse::<f64>().ok() == y.parse::<f64>().ok(),
        (Json::Str(x), Json::Str(y)) => x == y,
        (Json::Arr(x), Json::Arr(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b)),
        (Json::Obj(x), Json::Obj(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.iter().any(|(k2, v2)| k == k2 && same(v, v2)))
        }
        _ => false,
    }
}

fn check(expected: &Json, response: &Json) -> Option<String> {
    let ok = expected.get("ok") == Some(&Json::Bool(true));
    if response.get("ok") != Some(&Json::Bool(ok)) {
        return Some(format!("expected ok={ok}, got {}", response.to_text()));
    }
    if let Json::Obj(items) = expected {
        if ok {
            for (k, v) in items {
                if k == "ok" {
                    continue;
                }
                match response.get(k) {
                    Some(r) if same(v, r) => {}
                    Some(r) => return Some(format!("{k}: expected {}, got {}", v.to_text(), r.to_text())),
                    None => return Some(format!("{k}: missing")),
                }
            }
        } else {
            let e = expected.get("error")?;
            let got = response.get("error").cloned().unwrap_or(Json::Null);
            for key in ["type", "rule", "field", "position", "path"] {
                if let Some(v) = e.get(key) {
                    if !got.get(key).is_some_and(|g| same(v, g)) {
                        return Some(format!("error.{key}: expected {}, got {}", v.to_text(), got.to_text()));
                    }
                }
            }
        }
    }
    None
}

fn with(items: Vec<(&str, Json)>, id: &str) -> Json {
    let mut v = vec![("id".to_string(), Json::str(id))];
    v.extend(items.into_iter().map(|(k, x)| (k.to_string(), x)));
    Json::Obj(v)
}

fn run_game(vector: &Json, cache: &mut Cache) -> Option<String> {
    let input = vector.get("input")?;
    let expected = vector.get("expected")?;
    let Some(Json::Arr(states)) = expected.get("states") else { return Some("no states".into()) };
    let request = with(
        vec![
            ("kind", Json::str("new_game")),
            ("rules", input.get("rules")?.clone()),
            ("seed", input.get("seed")?.clone()),
        ],
        "new_game",
    );
    let response = handle(&request, cache);
    let exp = Json::Obj(vec![("ok".into(), Json::Bool(true)), ("state".into(), states[0].clone())]);
    if let Some(f) = check(&exp, &response) {
        return Some(format!("new_game: {f}"));
    }
    let mut state = response.get("state")?.clone();
    let Some(Json::Arr(moves)) = input.get("moves") else { return Some("no moves".into()) };
    for (n, m) in moves.iter().enumerate() {
        let request = with(vec![("kind", Json::str("apply")), ("state", state.clone()), ("move", m.clone())], "apply");
        let response = handle(&request, cache);
        let exp = Json::Obj(vec![("ok".into(), Json::Bool(true)), ("state".into(), states[n + 1].clone())]);
        if let Some(f) = check(&exp, &response) {
            return Some(format!("step {} ({}): {f}", n + 1, m.to_text()));
        }
        state = response.get("state")?.clone();
    }
    let response = handle(&with(vec![("kind", Json::str("score")), ("state", state)], "score"), cache);
    let exp = Json::Obj(vec![("ok".into(), Json::Bool(true)), ("score".into(), expected.get("score")?.clone())]);
    check(&exp, &response).map(|f| format!("score: {f}"))
}

#[test]
fn every_conformance_vector() {
    let dir = suite_dir();
    if !dir.join("manifest.json").exists() {
        eprintln!("skipped: no conformance suite at {} (run the tests from the repository)", dir.display());
        return;
    }
    let manifest =
        json::parse(&std::fs::read_to_string(dir.join("manifest.json")).expect("manifest")).expect("manifest JSON");
    let Some(Json::Obj(groups)) = manifest.get("groups") else { panic!("manifest groups") };
    let mut cache = Cache::default();
    let mut total = 0;
    let mut failures = Vec::new();
    for (group, info) in groups {
        let file = info.get("file").and_then(|f| f.as_str()).map(String::from).unwrap_or(format!("{group}.jsonl"));
        let text = std::fs::read_to_string(dir.join(&file)).expect("vector file");
        let mut n = 0;
        for line in text.lines().filter(|l| !l.is_empty()) {
            let vector = json::parse(line).expect("vector JSON");
            let id = vector.get("id").and_then(|i| i.as_str()).unwrap_or("?").to_string();
            let failure = if group == "seeded_games" {
                run_game(&vector, &mut cache)
            } else {
                let mut request = vector.get("input").cloned().expect("input");
                if let Json::Obj(items) = &mut request {
                    items.insert(0, ("id".into(), Json::str(id.clone())));
                }
                let response = handle(&request, &mut cache);
                check(vector.get("expected").expect("expected"), &response)
            };
            if let Some(f) = failure {
                failures.push(format!("{id}: {f}"));
            }
            n += 1;
        }
        if let Some(count) = info.get("count").and_then(|c| c.as_int()) {
            assert_eq!(n as i128, count, "{group}: vector count");
        }
        total += n;
    }
    // Every vector of the manifest ran (4,223 in the suite of RULES_VERSION 4).
    let listed = manifest.get("vector_count").and_then(|c| c.as_int()).expect("vector_count");
    assert_eq!(total as i128, listed, "vectors in the suite");
    assert!(total >= 4223, "vectors in the suite: {total}");
    assert!(
        failures.is_empty(),
        "{} of {total} vectors failed:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}
