//! `hatsuden-native-check --config NAME [--positions|--states] [--workers N] [--checkpoint DIR
//! [--resume]] [--max-memory SIZE] [--max-states N] [--engine bfs|ranked] [--symmetry] [--progress]
//! [--json] [--golden FILE]`: the native model checker, printing the figures and verdict of
//! `python -m hatsuden_rules.modelcheck` (`--golden`: and comparing them with the file's entry;
//! with `--symmetry`, one state or position per orbit of the row swaps is stored, and the
//! unreduced figures, weighted by orbit sizes, are the ones compared). `--engine ranked` (the
//! default for huge) is the external-memory ranked engine (`ranked.rs`).
//!
//! Exit codes as `hatsuden-check`: 0 OK, 1 VIOLATION, 2 TRUNCATED (or a usage error), 3
//! UNCOVERED.

use hatsuden_check::configs::{config, CONFIGS, POSITION_CONFIGS, RANKED_CONFIGS};
use hatsuden_check::report::{format_summary, golden_mismatches, result_json};
use hatsuden_check::{check, Options};
use std::path::PathBuf;
use std::process::ExitCode;

fn usage(msg: &str) -> ExitCode {
    let names: Vec<&str> = CONFIGS.iter().map(|c| c.0).collect();
    eprintln!("hatsuden-native-check: {msg}");
    eprintln!(
        "usage: hatsuden-native-check (--config NAME | --rules NOTATION) [--positions|--states] [--workers N] [--checkpoint DIR [--resume]] [--max-memory SIZE] [--max-states N] [--engine bfs|ranked] [--symmetry] [--progress] [--json] [--golden FILE] [--value]\nconfigs: {}",
        names.join(", ")
    );
    ExitCode::from(2)
}

fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let (num, mult) = match s.chars().last()? {
        'K' | 'k' => (&s[..s.len() - 1], 1u64 << 10),
        'M' | 'm' => (&s[..s.len() - 1], 1 << 20),
        'G' | 'g' => (&s[..s.len() - 1], 1 << 30),
        'T' | 't' => (&s[..s.len() - 1], 1 << 40),
        _ => (s, 1),
    };
    num.parse::<f64>().ok().map(|x| (x * mult as f64) as u64)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut opts = Options::default();
    let mut name: Option<String> = None;
    let mut rules = None;
    let mut positions: Option<bool> = None;
    let mut json = false;
    let mut solve = false;
    let mut golden: Option<PathBuf> = None;
    let mut engine: Option<bool> = None;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let mut value = || {
            i += 1;
            args.get(i).cloned()
        };
        match a {
            "--config" => name = value(),
            "--rules" => match value().map(|t| hatsuden::parse_rules(&t)) {
                Some(Ok(r)) => rules = Some(r),
                Some(Err(e)) => return usage(&format!("--rules: {e}")),
                None => return usage("--rules needs a value"),
            },
            "--positions" => positions = Some(true),
            "--states" => positions = Some(false),
            "--workers" => match value().and_then(|v| v.parse().ok()) {
                Some(n) if n >= 1 => opts.workers = n,
                _ => return usage("--workers needs a number >= 1"),
            },
            "--checkpoint" => opts.checkpoint = value().map(PathBuf::from),
            "--resume" => opts.resume = true,
            "--max-memory" => match value().and_then(|v| parse_size(&v)) {
                Some(n) => opts.max_memory = Some(n),
                None => return usage("--max-memory needs a size such as 20G"),
            },
            "--max-states" => match value().and_then(|v| v.parse().ok()) {
                Some(n) => opts.max_states = Some(n),
                None => return usage("--max-states needs a number"),
            },
            "--max-violations" => match value().and_then(|v| v.parse().ok()) {
                Some(n) => opts.max_violations = n,
                None => return usage("--max-violations needs a number"),
            },
            "--require-coverage" => opts.require_coverage = Some(true),
            "--engine" => match value().as_deref() {
                Some("ranked") => engine = Some(true),
                Some("bfs") => engine = Some(false),
                _ => return usage("--engine needs bfs or ranked"),
            },
            "--symmetry" => opts.symmetry = true,
            "--progress" => opts.progress = true,
            "--json" => json = true,
            "--value" => solve = true,
            "--golden" => match value() {
                Some(v) => golden = Some(PathBuf::from(v)),
                None => return usage("--golden needs a file"),
            },
            "-h" | "--help" => {
                usage("the native model checker of HATSUDEN");
                return ExitCode::SUCCESS;
            }
            other => return usage(&format!("unknown argument {other}")),
        }
        i += 1;
    }
    let rules = match (name.as_deref(), rules) {
        (Some(n), None) => match config(n) {
            Some(r) => r,
            None => return usage(&format!("unknown configuration {n}")),
        },
        (None, Some(r)) => r,
        _ => return usage("give --config NAME or --rules NOTATION"),
    };
    // The ranked engine (external memory, exact storage) for huge; breadth-first elsewhere.
    opts.ranked = engine.unwrap_or_else(|| RANKED_CONFIGS.contains(&name.as_deref().unwrap_or("")));
    opts.positions = positions.unwrap_or_else(|| name.as_deref().is_some_and(|n| POSITION_CONFIGS.contains(&n)));
    if solve {
        return match hatsuden_check::value::game_value(&rules) {
            Ok((v, n)) => {
                if json {
                    println!("{{\"value\": \"{v}\", \"positions\": {n}}}");
                } else {
                    println!("positions solved  {n}");
                    println!("value             {v}  (P(player 0 wins), perfect play, perfect information)");
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("hatsuden-native-check: {e}");
                ExitCode::from(2)
            }
        };
    }
    if opts.resume && opts.checkpoint.is_none() {
        return usage("--resume needs --checkpoint DIR");
    }
    // The golden entry, read before the run so that a bad file is refused at once.
    let entry = match &golden {
        None => None,
        Some(path) => {
            let text = match std::fs::read_to_string(path) {
                Ok(t) => t,
                Err(e) => return usage(&format!("--golden {}: {e}", path.display())),
            };
            let doc = match hatsuden::json::parse(&text) {
                Ok(d) => d,
                Err(e) => return usage(&format!("--golden {}: {e}", path.display())),
            };
            let key = name.clone().unwrap_or_default();
            match doc.get("configs").and_then(|c| c.get(&key)) {
                Some(e) => Some(e.clone()),
                None => {
                    eprintln!("hatsuden-native-check: no entry for {key:?} in {}: nothing compared", path.display());
                    None
                }
            }
        }
    };
    let result = match check(&rules, &opts) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("hatsuden-native-check: {e}");
            return ExitCode::from(2);
        }
    };
    if json {
        println!("{}", result_json(&result));
    } else {
        println!("{}", format_summary(&result));
    }
    if let (Some(entry), "OK") = (&entry, result.result.as_str()) {
        let wrong = golden_mismatches(&result, entry);
        for w in &wrong {
            eprintln!("hatsuden-native-check: golden mismatch: {w}");
        }
        if !wrong.is_empty() {
            return ExitCode::from(1);
        }
    }
    ExitCode::from(match result.result.as_str() {
        "OK" => 0,
        "VIOLATION" => 1,
        "TRUNCATED" => 2,
        _ => 3,
    })
}
