//! `sample_state` (R38) on every position of many random games, under each overflow rule
//! (R21 one flip at a time, R41 any set) and the tech-card timings (R40): the observation of a
//! real state always has a consistent state, so sampling it never fails, and what it gives
//! looks the same to the observer (R37); the observer's legal moves follow from the
//! observation alone (R37).

use hatsuden::{
    legal_moves_from, new_game, observe, sample_state, Overflow, Phase, Rules, SplitMix64, TechTiming, ACCUMULATOR,
    SMART,
};

fn every_position_samples(rules: Rules, games: u64) {
    let mut moves = Vec::new();
    for seed in 0..games {
        let mut s = new_game(&rules, Some(seed)).unwrap();
        let mut g = SplitMix64::new(seed ^ 0x5EED);
        for ply in 0..400 {
            for p in 0..2 {
                let o = observe(&s, p);
                let sampled = sample_state(&o, &mut SplitMix64::new(seed * 1000 + ply))
                    .unwrap_or_else(|e| panic!("seed {seed} ply {ply} player {p}: {e}"));
                assert_eq!(observe(&sampled, p), o, "seed {seed} ply {ply} player {p}");
                // R37: the observer's legal moves from the observation alone: the state's own
                // when it is to move in ACTION, TECH, OVERFLOW or DRAW, none otherwise.
                let to_move = p == s.current_player()
                    && matches!(s.phase(), Phase::Action | Phase::Tech | Phase::Overflow | Phase::Draw);
                let expected = if to_move { s.legal_moves_vec() } else { Vec::new() };
                assert_eq!(legal_moves_from(&o).unwrap(), expected, "seed {seed} ply {ply} player {p}");
            }
            if s.phase() == Phase::GameOver {
                break;
            }
            s.legal_moves(&mut moves);
            s = s.apply(moves[(g.next() % moves.len() as u64) as usize]).unwrap();
        }
    }
}

#[test]
fn r38_every_position_of_random_games_samples() {
    every_position_samples(Rules::STANDARD, 40);
}

#[test]
fn r38_r41_every_position_samples_when_any_set_may_flip() {
    every_position_samples(Rules { overflow: Overflow::AnySet, ..Rules::STANDARD }, 40);
}

#[test]
fn r38_r40_every_position_samples_when_tech_cards_are_placed_at_once() {
    every_position_samples(Rules { tech_timing: TechTiming::PlaceAtOnce, ..Rules::STANDARD }, 20);
    // Only the two cards placed at once (R40): the opponent never holds one after its turn.
    let placed =
        Rules { tech_timing: TechTiming::PlaceAtOnce, techs: (1 << ACCUMULATOR) | (1 << SMART), ..Rules::STANDARD };
    assert!(placed.validate().is_ok());
    every_position_samples(placed, 20);
}

/// A small grid (3 energies, values 1-3, city demand 6) with the Secret Build as the only tech
/// card, where rows overflow often (R21, R41): a concealed Secret Build stack whose row
/// overflowed is bounded from below by the values known beside it (face-up stacks included),
/// never above what the real state holds.
#[test]
fn r38_r21_every_position_samples_where_rows_overflow_often() {
    let rules = hatsuden::parse_rules("3/3/2/3/6/SEC/city_points/retake/6").unwrap();
    every_position_samples(rules, 200);
    every_position_samples(Rules { overflow: Overflow::AnySet, ..rules }, 200);
}
