//! The state's public accessors of the tech cards in play, along random games: what they
//! report is what the moves placed (R19, R20); the observations of those states read back
//! from their notation (R37).

use hatsuden::{format_observation, new_game, observe, parse_observation, Move, Phase, Rules, SplitMix64};

/// R19: the Accumulator lies on the row its player chose, R20: the Smart on the chosen energy;
/// neither moves once placed, and neither is there before it is placed.
#[test]
fn r19_r20_the_accumulator_and_the_smart_are_where_they_were_placed() {
    let mut moves = Vec::new();
    let (mut accumulators, mut smarts) = (0, 0);
    for seed in 0..200 {
        let mut s = new_game(&Rules::STANDARD, Some(seed)).unwrap();
        let mut g = SplitMix64::new(seed + 7);
        let (mut accumulator, mut smart, mut placed) = (None, None, false);
        while s.phase() != Phase::GameOver {
            assert_eq!((s.accumulator(), s.smart()), (accumulator, smart), "seed {seed}");
            // NOTATION.md: each player's observation just after a tech card was placed reads
            // back from its notation (whoever placed it).
            if placed {
                for p in 0..2 {
                    let o = observe(&s, p);
                    assert_eq!(parse_observation(&format_observation(&o)).as_ref(), Ok(&o), "seed {seed}");
                }
            }
            s.legal_moves(&mut moves);
            // Prefer placing a tech card when it is offered, so that both are met often.
            let placings: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| matches!(m, Move::PlaceAccumulator { .. } | Move::PlaceSmart { .. }))
                .collect();
            let pick = g.next();
            let m = if placings.is_empty() {
                moves[(pick % moves.len() as u64) as usize]
            } else {
                placings[(pick % placings.len() as u64) as usize] // either row, any energy
            };
            let player = s.current_player();
            placed = matches!(m, Move::PlaceAccumulator { .. } | Move::PlaceSmart { .. });
            match m {
                Move::PlaceAccumulator { row } => {
                    accumulator = Some((player, row as usize));
                    accumulators += 1;
                }
                Move::PlaceSmart { energy } => {
                    smart = Some(energy as usize);
                    smarts += 1;
                }
                _ => {}
            }
            s = s.apply(m).unwrap();
        }
    }
    assert!(accumulators > 5 && smarts > 5, "{accumulators} {smarts}");
}
