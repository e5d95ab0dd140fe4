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
    let start = Instant::now();
    let mut plies = 0u64;
    for seed in 0..games {
        let s = new_game(&Rules::STANDARD, Some(seed)).expect("STANDARD");
        let mut g = SplitMix64::new(seed ^ 0x5EED);
        let (_, n) = s.playout(&mut g, 1_000_000, &mut buf);
        plies += n as u64;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "random playouts (STANDARD, seeded): {games} games, {plies} plies in {secs:.3} s: {:.0} plies/s, {:.0} games/s",
        plies as f64 / secs,
        games as f64 / secs
    );
}

fn perft(name: &str, depth: usize) {
    let s = new_game(&rules(name), None).expect("rules");
    let start = Instant::now();
    let counts = s.perft(depth);
    let secs = start.elapsed().as_secs_f64();
    let nodes: u64 = counts.iter().sum();
    println!(
        "perft {name} from new_game() 1..{depth}: last {}, {nodes} nodes in {secs:.3} s: {:.0} nodes/s",
        counts.last().copied().unwrap_or(0),
        nodes as f64 / secs
    );
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
