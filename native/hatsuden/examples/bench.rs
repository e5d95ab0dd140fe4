//! Speed of the native core, for the note.
//!
//! ```text
//! cargo run --release --example bench                       # both, STANDARD defaults
//! cargo run --release --example bench playouts 20000        # random playouts from seeded new games
//! cargo run --release --example bench perft standard 5      # perft from new_game() (explicit chance)
//! cargo run --release --example bench perft 2/2/1/1/2/SMT/city_points/noretake/2 14
//! ```

use hatsuden::{new_game, parse_rules, Rules, SplitMix64, State};
use std::time::Instant;

/// On-CPU time of this thread in seconds (Linux `/proc/thread-self/schedstat`), if available:
/// a fairer clock than the wall on a shared machine.
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

fn report(what: &str, units: &str, n: u64, wall: f64, cpu: Option<f64>) {
    match cpu {
        Some(c) => println!(
            "{what}: {n} {units} in {wall:.3} s wall ({:.0} {units}/s), {c:.3} s CPU ({:.0} {units}/s)",
            n as f64 / wall,
            n as f64 / c
        ),
        None => println!("{what}: {n} {units} in {wall:.3} s wall ({:.0} {units}/s)", n as f64 / wall),
    }
}

fn rules(name: &str) -> Rules {
    match name {
        "standard" => Rules::STANDARD,
        "printed" => Rules::PRINTED,
        "medium" => parse_rules("2/2/1/1/2/SMT/city_points/noretake/2").expect("medium"),
        "small" => parse_rules("1/2/2/1/1/ACC/city_points/noretake/2").expect("small"),
        text => parse_rules(text).expect("a rule set in notation"),
    }
}

fn playouts(games: u64) {
    let mut buf = Vec::with_capacity(128);
    let cpu0 = cpu_seconds();
    let start = Instant::now();
    let mut plies = 0u64;
    for seed in 0..games {
        let s = new_game(&Rules::STANDARD, Some(seed)).expect("STANDARD");
        let mut g = SplitMix64::new(seed ^ 0x5EED);
        let (_, n) = s.playout(&mut g, 1_000_000, &mut buf);
        plies += n as u64;
    }
    let secs = start.elapsed().as_secs_f64();
    let cpu = cpu_seconds().zip(cpu0).map(|(a, b)| a - b);
    report(&format!("random playouts (STANDARD, seeded, {games} games)"), "plies", plies, secs, cpu);
}

fn perft(name: &str, depth: usize) {
    let s = new_game(&rules(name), None).expect("rules");
    let cpu0 = cpu_seconds();
    let start = Instant::now();
    let counts = s.perft(depth);
    let secs = start.elapsed().as_secs_f64();
    let cpu = cpu_seconds().zip(cpu0).map(|(a, b)| a - b);
    let nodes: u64 = counts.iter().sum();
    report(&format!("perft {name} from new_game() 1..{depth} (last {:?})", counts.last()), "nodes", nodes, secs, cpu);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    println!(
        "size_of::<State>() = {} bytes, size_of::<Move>() = {} bytes",
        std::mem::size_of::<State>(),
        std::mem::size_of::<hatsuden::Move>()
    );
    match args.first().map(String::as_str) {
        Some("playouts") => playouts(args.get(1).and_then(|a| a.parse().ok()).unwrap_or(20_000)),
        Some("perft") => perft(
            args.get(1).map(String::as_str).unwrap_or("standard"),
            args.get(2).and_then(|a| a.parse().ok()).unwrap_or(5),
        ),
        _ => {
            playouts(20_000);
            perft("standard", 5);
            perft("medium", 14);
        }
    }
}
