//! The packer alone, for instruction counts per call: `pack` and `unpack_into` on the states of
//! random games of a configuration (by position, as the checker packs them).
//!
//! ```text
//! cargo build --release --example pack_calls -p hatsuden-check
//! valgrind --tool=callgrind target/release/examples/pack_calls choice
//! callgrind_annotate callgrind.out.* | grep Packer   # divide by the calls it prints
//! ```
//!
//! Arguments: the configuration (default `choice`), the number of states (default 20,000, of
//! whole games: a few more), the rounds (default 10). It prints the states, the calls of each
//! function and a checksum of the unpacked states (so that no call is optimised away).

use hatsuden::packed::Packer;
use hatsuden::{new_game, SplitMix64};
use hatsuden_check::configs::config;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("choice", String::as_str);
    let want: usize = args.get(2).map_or(20_000, |a| a.parse().expect("a number of states"));
    let rounds: usize = args.get(3).map_or(10, |a| a.parse().expect("a number of rounds"));
    let rules = config(name).unwrap_or_else(|| panic!("no configuration {name}"));
    let packer = Packer::new(&rules, false).expect("valid rules");
    let w = packer.words();
    let mut g = SplitMix64::new(5);
    let mut states = Vec::new();
    let mut moves = Vec::new();
    while states.len() < want {
        let mut s = new_game(&rules, None).expect("valid rules");
        loop {
            states.push(s.position());
            s.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            s = s.apply(moves[(g.next() % moves.len() as u64) as usize]).expect("a legal move");
        }
    }
    let mut words = vec![0u64; w * states.len()];
    let mut into = states[0];
    let mut sum = 0u64;
    for _ in 0..rounds {
        for (s, out) in states.iter().zip(words.chunks_exact_mut(w)) {
            packer.pack(std::hint::black_box(s), out);
        }
        for packed in words.chunks_exact(w) {
            packer.unpack_into(std::hint::black_box(packed), &mut into);
            sum = sum.wrapping_add(into.stall_count() as u64 + into.hand_size(0) as u64);
        }
    }
    let calls = states.len() * rounds;
    println!("{name}: {} states, {w} words; {calls} calls of pack and of unpack_into; checksum {sum}", states.len());
}
