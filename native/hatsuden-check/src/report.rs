//! Reports: the summary of `python -m hatsuden_rules.modelcheck` and its `--json` form
//! (`modelcheck/_report.py`), with the native engine's own lines.

use crate::search::{CheckResult, FINGERPRINT_BITS};
use hatsuden::json::Json;
use hatsuden::{Overflow, Rules, TechTiming, Tiebreak, TECH_NAMES};

fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The rules on one line, as `_report.rules_line`.
pub fn rules_line(r: &Rules) -> String {
    let techs: Vec<&str> =
        (0..4).filter(|k| r.techs >> k & 1 == 1).map(|k| ["ACCUMULATOR", "SECRET_BUILD", "SMART", "DOWN"][k]).collect();
    let mut s = format!(
        "energies={} max_value={} copies={} hand_size={} city_demand={} techs={} tiebreak={} retake={} stall_limit={}",
        r.energies,
        r.max_value,
        r.copies,
        r.hand_size,
        r.city_demand,
        if techs.is_empty() { "none".to_string() } else { techs.join(",") },
        if r.tiebreak == Tiebreak::Supply { "SUPPLY" } else { "CITY_POINTS" },
        if r.allow_retake_discard { "True" } else { "False" },
        r.stall_limit.map(|x| x.to_string()).unwrap_or_else(|| "None".into()),
    );
    if r.tech_timing == TechTiming::PlaceAtOnce {
        s += " tech_timing=PLACE_AT_ONCE";
    }
    if r.overflow == Overflow::AnySet {
        s += " overflow=ANY_SET";
    }
    s
}

/// The summary for humans, ending with the result line.
pub fn format_summary(r: &CheckResult) -> String {
    let by_reason: Vec<String> = r.terminal_by_reason.iter().map(|(k, n)| format!("{k} {}", thousands(*n))).collect();
    let terminal: u64 = r.terminal_by_reason.values().sum();
    let longest = match r.longest_game {
        Some(l) if r.layered => format!("{} plies (every transition one layer deeper: no cycle, R25)", thousands(l)),
        Some(l) => format!("{} plies", thousands(l)),
        None if r.violations.iter().any(|v| v.rule == "R25" && v.message.contains("cycle")) => {
            "none (the graph has a cycle)".into()
        }
        None => "unknown (the run was cut short)".into(),
    };
    let mut lines = vec![
        format!("rules             {}", rules_line(&r.rules)),
        format!("distinct states   {}", thousands(r.states)),
        format!("transitions       {}", thousands(r.transitions)),
        format!(
            "terminal states   {}{}",
            thousands(terminal),
            if by_reason.is_empty() { String::new() } else { format!("  ({})", by_reason.join(", ")) }
        ),
        format!("chance nodes      {}", thousands(r.chance_nodes)),
        format!("max depth         {}", thousands(r.max_depth)),
        format!("longest game      {longest}"),
        format!("time              {:.2} s  ({} states/s)", r.seconds, thousands(r.states_per_second() as u64)),
        format!("peak memory       {} MB", thousands(r.peak_memory_mb as u64)),
        "checks            R35 on 1 transition in 16, R29 score() once or more per grids and Smart; the rest on all"
            .into(),
    ];
    if let Some(u) = &r.unreduced {
        lines.extend(unreduced_lines(u, r.positions));
    }
    if r.positions {
        lines.push(format!(
            "identity          positions (turn logs and known cards dropped; soundness checked on {} states, known cards step by step)",
            thousands(r.soundness_checked)
        ));
    }
    if r.ranked {
        lines.push(format!(
            "engine            native ranked, {} thread(s), states stored exactly ({} words/packed state) in files on disk",
            r.workers, r.packed_words
        ));
        lines.push(
            "identity          exact (no fingerprints: collision probability 0); termination (R25) by a ranking function that grew on every transition".into(),
        );
    } else {
        lines.push(format!(
            "engine            native, {} thread(s), visited set {:.1} bytes/state, {} words/packed state",
            r.workers,
            r.table_bytes as f64 / r.states.max(1) as f64,
            r.packed_words
        ));
        lines.push(format!(
            "fingerprints      {FINGERPRINT_BITS}-bit; collision probability {:.2e} (TLC's estimate), at most {:.2e} (birthday bound)",
            r.collision_probability, r.collision_bound
        ));
    }
    if !r.unreached.is_empty() && r.coverage_required {
        lines.push("never reached (non-vacuity: each must occur at least once):".into());
        lines.extend(r.unreached.iter().map(|e| format!("  {e}")));
    } else if !r.unreached.is_empty() {
        lines.push("warning: never reached (not required of this rule set; --require-coverage makes it fail):".into());
        lines.extend(r.unreached.iter().map(|e| format!("  {e}")));
    }
    for (i, v) in r.violations.iter().enumerate() {
        lines.push(String::new());
        lines.push(format!("violation {}/{}  {}: {}", i + 1, r.violations.len(), v.rule, v.message));
        lines.push(format!("shortest path from new_game() ({} moves):", v.path.len()));
        if v.path.is_empty() {
            lines.push("  (no move: the initial state)".into());
        }
        let width = v.path.len().to_string().len();
        for (k, m) in v.path.iter().enumerate() {
            lines.push(format!("  {:>width$}. {m}", k + 1));
        }
    }
    lines.push(String::new());
    lines.push(match r.result.as_str() {
        "TRUNCATED" => format!(
            "result: TRUNCATED (stopped by {}: nothing is proven)",
            r.stopped_by.clone().unwrap_or_else(|| "a limit".into())
        ),
        "VIOLATION" => format!("result: VIOLATION ({} violation(s))", r.violations.len()),
        "UNCOVERED" => {
            format!("result: UNCOVERED (nothing failed, but {} required event(s) never reached)", r.unreached.len())
        }
        other => format!("result: {other}"),
    });
    lines.join("\n")
}

/// The lines of the summary that give the unreduced figures of a search with symmetry.
fn unreduced_lines(u: &crate::search::Unreduced, positions: bool) -> Vec<String> {
    let by_reason: Vec<String> = u.terminal_by_reason.iter().map(|(k, n)| format!("{k} {}", thousands(*n))).collect();
    let terminal: u64 = u.terminal_by_reason.values().sum();
    vec![
        format!(
            "symmetry          one {} per orbit of the row swaps (a player's two cities are interchangeable); unreduced, by orbit sizes:",
            if positions { "position" } else { "state" }
        ),
        format!("  {}   {}", if positions { "positions" } else { "states   " }, thousands(u.states)),
        format!("  transitions {}", thousands(u.transitions)),
        format!(
            "  terminal    {}{}",
            thousands(terminal),
            if by_reason.is_empty() { String::new() } else { format!("  ({})", by_reason.join(", ")) }
        ),
        format!("  chance      {}", thousands(u.chance_nodes)),
    ]
}

/// The unreduced figures as JSON (`null` without symmetry).
fn unreduced_json(u: Option<&crate::search::Unreduced>) -> String {
    match u {
        None => "null".into(),
        Some(u) => {
            let terminal: u64 = u.terminal_by_reason.values().sum();
            let by_reason: Vec<String> =
                u.terminal_by_reason.iter().map(|(k, n)| format!("{}: {n}", json_str(&k.to_lowercase()))).collect();
            format!(
                "{{\"states\": {}, \"transitions\": {}, \"terminal_states\": {terminal}, \"terminal_by_reason\": {{{}}}, \"chance_nodes\": {}}}",
                u.states,
                u.transitions,
                by_reason.join(", "),
                u.chance_nodes
            )
        }
    }
}

fn json_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json_f64(x: f64) -> String {
    if x.is_finite() {
        format!("{x:e}")
    } else {
        "null".into()
    }
}

/// An event name with the library's JSON spelling of its enum member (`_report.json_event`).
pub fn json_event(e: &str) -> String {
    match e.split_once(' ') {
        Some((kind @ ("phase" | "end" | "decided"), name)) => {
            format!("{kind} {}", name.to_lowercase())
        }
        _ => e.to_string(),
    }
}

/// The rules as the library's JSON document (`to_dict`).
pub fn rules_json(r: &Rules) -> String {
    let techs: Vec<String> = (0..4).filter(|k| r.techs >> k & 1 == 1).map(|k| json_str(TECH_NAMES[k])).collect();
    let mut s = format!(
        "{{\"type\": \"rules\", \"format_version\": 1, \"energies\": {}, \"max_value\": {}, \"copies\": {}, \"hand_size\": {}, \"city_demand\": {}, \"techs\": [{}], \"tiebreak\": \"{}\", \"allow_retake_discard\": {}, \"stall_limit\": {}",
        r.energies,
        r.max_value,
        r.copies,
        r.hand_size,
        r.city_demand,
        techs.join(", "),
        if r.tiebreak == Tiebreak::Supply { "supply" } else { "city_points" },
        r.allow_retake_discard,
        r.stall_limit.map(|x| x.to_string()).unwrap_or_else(|| "null".into()),
    );
    if r.tech_timing == TechTiming::PlaceAtOnce {
        s += ", \"tech_timing\": \"place_at_once\"";
    }
    if r.overflow == Overflow::AnySet {
        s += ", \"overflow\": \"any_set\"";
    }
    s + "}"
}

/// The result as JSON (the keys of `_report.result_dict`, plus the native engine's own).
pub fn result_json(r: &CheckResult) -> String {
    let terminal: u64 = r.terminal_by_reason.values().sum();
    let by_reason: Vec<String> =
        r.terminal_by_reason.iter().map(|(k, n)| format!("{}: {n}", json_str(&k.to_lowercase()))).collect();
    let violations: Vec<String> = r
        .violations
        .iter()
        .map(|v| {
            let path: Vec<String> = v.path.iter().map(|m| json_str(m)).collect();
            format!(
                "{{\"rule\": {}, \"message\": {}, \"path\": [{}]}}",
                json_str(&v.rule),
                json_str(&v.message),
                path.join(", ")
            )
        })
        .collect();
    let unreached: Vec<String> = r.unreached.iter().map(|e| json_str(&json_event(e))).collect();
    let events: Vec<String> = {
        let mut ev: Vec<(String, u64)> = r.events.iter().map(|(k, n)| (json_event(k), *n)).collect();
        ev.sort();
        ev.iter().map(|(k, n)| format!("{}: {n}", json_str(k))).collect()
    };
    let layers: Vec<String> = r.layer_sizes.iter().map(|x| x.to_string()).collect();
    format!(
        "{{\"result\": {}, \"states\": {}, \"transitions\": {}, \"terminal_states\": {terminal}, \"terminal_by_reason\": {{{}}}, \"chance_nodes\": {}, \"max_depth\": {}, \"longest_game\": {}, \"seconds\": {}, \"states_per_second\": {}, \"peak_memory_mb\": {}, \"rules\": {}, \"violations\": [{}], \"unreached\": [{}], \"coverage_required\": {}, \"events\": {{{}}}, \"exhaustive\": false, \"positions\": {}, \"engine\": \"native\", \"workers\": {}, \"soundness_checked\": {}, \"collision_probability\": {}, \"collision_bound\": {}, \"fingerprint_bits\": {FINGERPRINT_BITS}, \"table_bytes\": {}, \"stopped_by\": {}, \"layer_sizes\": [{}], \"packed_words\": {}, \"symmetry\": {}, \"orbits\": {}, \"unreduced\": {}, \"layered\": {}, \"native_engine\": \"{}\"}}",
        json_str(&r.result),
        r.states,
        r.transitions,
        by_reason.join(", "),
        r.chance_nodes,
        r.max_depth,
        r.longest_game.map(|x| x.to_string()).unwrap_or_else(|| "null".into()),
        json_f64(r.seconds),
        json_f64(r.states_per_second()),
        json_f64(r.peak_memory_mb),
        rules_json(&r.rules),
        violations.join(", "),
        unreached.join(", "),
        r.coverage_required,
        events.join(", "),
        r.positions,
        r.workers,
        r.soundness_checked,
        json_f64(r.collision_probability),
        json_f64(r.collision_bound),
        r.table_bytes,
        r.stopped_by.as_deref().map(json_str).unwrap_or_else(|| "null".into()),
        layers.join(", "),
        r.packed_words,
        r.symmetry,
        if r.symmetry { r.states.to_string() } else { "null".into() },
        unreduced_json(r.unreduced.as_ref()),
        r.layered,
        if r.ranked { "ranked" } else { "bfs" },
    )
}

/// How a complete result differs from its golden entry (an entry of `configs` in
/// `tests/golden/modelcheck.json`): states or positions, transitions, terminal states by end
/// reason, chance nodes, max depth and longest game. Empty when they are all equal. A result of a
/// search with symmetry is compared by its unreduced figures (the golden counts every state).
pub fn golden_mismatches(r: &CheckResult, entry: &Json) -> Vec<String> {
    let mut out = Vec::new();
    let mut r = r.clone();
    let orbits = r.states;
    if let Some(u) = r.unreduced.clone() {
        r.states = u.states;
        r.transitions = u.transitions;
        r.terminal_by_reason = u.terminal_by_reason;
        r.chance_nodes = u.chance_nodes;
    }
    let int = |key: &str| entry.get(key).and_then(Json::as_int).map(|v| v as u64);
    let mut expect = |what: &str, got: Option<u64>, want: Option<u64>| {
        if got != want {
            out.push(format!("{what}: {got:?}, the golden {want:?}"));
        }
    };
    if r.symmetry && entry.get("orbits").is_some() {
        expect("orbits", Some(orbits), int("orbits"));
    }
    expect("states", Some(r.states), int("states"));
    expect("transitions", Some(r.transitions), int("transitions"));
    expect("chance_nodes", Some(r.chance_nodes), int("chance_nodes"));
    expect("max_depth", Some(r.max_depth), int("max_depth"));
    expect("longest_game", r.longest_game, int("longest_game"));
    expect("terminal_states", Some(r.terminal_by_reason.values().sum()), int("terminal_states"));
    match entry.get("terminal_by_reason") {
        Some(Json::Obj(items)) => {
            for (reason, count) in items {
                let got = r.terminal_by_reason.get(&reason.to_uppercase()).copied();
                expect(&format!("terminal_by_reason {reason}"), got, count.as_int().map(|c| c as u64));
            }
            for reason in r.terminal_by_reason.keys() {
                if !items.iter().any(|(k, _)| k.to_uppercase() == *reason) {
                    out.push(format!("terminal_by_reason {}: not in the golden", reason.to_lowercase()));
                }
            }
        }
        _ => out.push("terminal_by_reason: not in the golden".into()),
    }
    out
}
