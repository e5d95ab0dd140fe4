//! Soundness of the row-swap symmetry (R4, R19, R21, R27-R29, R36) on states reached by random
//! playouts of several rule sets, in explicit chance mode (R6).

use super::*;
use crate::configs::config;
use hatsuden::{new_game, score, Rules, Score, SplitMix64};

/// Rule sets: the small and the choice-bearing configurations, huge (duplicates), a variant
/// (any-set overflow, R41; tech cards placed at once, R40) and STANDARD.
fn rule_sets() -> Vec<Rules> {
    let mut v: Vec<Rules> =
        ["small", "large", "choice", "huge", "medium-any-set", "medium-place-at-once", "wide-any-set"]
            .iter()
            .map(|n| config(n).unwrap())
            .collect();
    v.push(Rules::STANDARD);
    v
}

/// States met on `games` random playouts from `new_game` (explicit chance, R6).
fn playouts(rules: &Rules, games: usize, seed: u64) -> Vec<State> {
    let mut g = SplitMix64::new(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut s = new_game(rules, None).unwrap();
        loop {
            out.push(s);
            s.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            s = s.apply(moves[(g.next() % moves.len() as u64) as usize]).unwrap();
        }
    }
    out
}

fn sorted(mut v: Vec<Move>) -> Vec<Move> {
    v.sort_by_key(|m| m.format());
    v
}

/// The score with `player`'s row supplies put back in the order of the unswapped state.
fn unswapped(mut sc: Score, player: usize) -> Score {
    sc.players[player].row_supply.swap(0, 1);
    sc
}

#[test]
fn a_swap_is_an_involution_and_the_swaps_commute() {
    for rules in rule_sets() {
        for s in playouts(&rules, 30, 1) {
            for p in 0..2 {
                assert_eq!(s.swap_rows(p).swap_rows(p), s);
                assert_eq!(s.swap_rows(p).swap_rows(1 - p), s.swap_rows(1 - p).swap_rows(p));
            }
            for mask in 0..4 {
                assert_eq!(apply_mask(&apply_mask(&s, mask), mask), s);
            }
        }
    }
}

#[test]
fn legal_moves_apply_and_scores_commute_with_a_swap() {
    // R21 (rows alike), R27-R29 (the score), R34 (legal moves as a set), R35/R36 (apply, logs).
    let mut seen_swapped_log = false;
    for rules in rule_sets() {
        for s in playouts(&rules, 20, 2) {
            let mover = s.current_player();
            let moves = s.legal_moves_vec();
            for mask in 1..4u8 {
                let t = apply_mask(&s, mask);
                let mapped: Vec<Move> = moves.iter().map(|m| map_move(*m, mover, mask)).collect();
                assert_eq!(sorted(mapped), sorted(t.legal_moves_vec()), "{s:?} mask {mask}");
                for m in &moves {
                    let a = apply_mask(&s.apply(*m).unwrap(), mask);
                    let b = t.apply(map_move(*m, mover, mask)).unwrap();
                    assert_eq!(a, b, "{s:?} {} mask {mask}", m.format());
                }
                let mut sc = score(&t);
                for p in 0..2 {
                    if mask >> p & 1 == 1 {
                        sc = unswapped(sc, p);
                    }
                }
                assert_eq!(sc, score(&s));
                if mask >> mover & 1 == 1 && s.this_turn().iter().any(|m| m.swap_rows() != *m) {
                    seen_swapped_log = true;
                    assert_ne!(t.this_turn(), s.this_turn());
                }
            }
        }
    }
    assert!(seen_swapped_log, "no logged move named a row");
}

#[test]
fn canonical_is_the_same_for_every_member_of_an_orbit_and_counts_it() {
    for rules in rule_sets() {
        for full in [true, false] {
            let packer = Packer::new(&rules, full).unwrap();
            let w = packer.words();
            let (mut a, mut b, mut packed) = (vec![0u64; w], vec![0u64; w], vec![0u64; w]);
            let mut sizes = [0u64; 5];
            for s in playouts(&rules, 20, 3) {
                let (size, mask) = canonical_mask(&packer, &s, &mut a);
                sizes[size as usize] += 1;
                // The image is the smallest of the distinct packed images, which number `size`.
                let mut images: Vec<Vec<u64>> = (0..4)
                    .map(|m| {
                        packer.pack(&apply_mask(&s, m), &mut packed);
                        packed.clone()
                    })
                    .collect();
                packer.pack(&apply_mask(&s, mask), &mut packed);
                assert_eq!(packed, a);
                images.sort();
                images.dedup();
                assert_eq!(images.len(), size as usize);
                assert_eq!(images[0], a);
                for m in 0..4 {
                    assert_eq!(canonical(&packer, &apply_mask(&s, m), &mut b), size);
                    assert_eq!(a, b);
                }
                assert_eq!(orbit_size(&packer, &s), size);
            }
            assert!(sizes[1] > 0 && sizes[2] > 0, "{}: orbit sizes {sizes:?}", rules.format());
            if rules.energies > 1 || rules.techs != 0 {
                assert!(sizes[4] > 0, "{}: orbit sizes {sizes:?}", rules.format());
            }
        }
    }
}

#[test]
fn the_oriented_image_is_the_same_for_every_member_of_an_orbit_and_counts_it() {
    // The ranked engine's representative (R4, R19, R21; R36 by position): one image per orbit,
    // a member of it, whatever member it starts from, with the orbit's size. Full states also
    // meet the rare case where only the turn logs tell a player's rows apart.
    for rules in rule_sets() {
        for full in [true, false] {
            let packer = Packer::new(&rules, full).unwrap();
            let w = packer.words();
            let (mut a, mut b, mut packed) = (vec![0u64; w], vec![0u64; w], vec![0u64; w]);
            let (mut tied, mut swapped) = (0usize, 0usize);
            for s in playouts(&rules, 20, 5) {
                let s = if full { s } else { s.position() };
                let (size, mask) = oriented_mask(&packer, &s);
                assert_eq!(size, orbit_size(&packer, &s));
                swapped += (mask != 0) as usize;
                let mut t = s;
                assert_eq!(pack_oriented(&packer, &mut t, &mut a), size);
                packer.pack(&apply_mask(&s, mask), &mut packed);
                assert_eq!(packed, a, "the image is the member apply_mask(s, mask)");
                packer.pack(&t, &mut packed);
                assert_eq!(packed, a, "pack_oriented turns the state into its image");
                // The images of the orbit: `size` distinct packed forms, all oriented alike.
                let mut images: Vec<Vec<u64>> = (0..4)
                    .map(|m| {
                        packer.pack(&apply_mask(&s, m), &mut packed);
                        packed.clone()
                    })
                    .collect();
                images.sort();
                images.dedup();
                assert_eq!(images.len(), size as usize);
                assert!(images.contains(&a));
                for m in 0..4 {
                    let mut u = apply_mask(&s, m);
                    assert_eq!(pack_oriented(&packer, &mut u, &mut b), size);
                    assert_eq!(a, b, "{}: member {m} oriented differently", rules.format());
                }
                let logs_only = (0..2).any(|p| {
                    let (o, fixed) = orientation(&s, p, full);
                    o.is_none() && !fixed
                });
                tied += logs_only as usize;
            }
            assert!(swapped > 0, "{}: no state was swapped to its image", rules.format());
            if !full {
                assert_eq!(tied, 0, "positions have no turn logs (R36)");
            }
        }
    }
}

#[test]
fn position_then_swap_is_swap_then_position() {
    // R36: the position forgets the logs and known cards; the swap does not touch known cards.
    for rules in rule_sets() {
        let full = Packer::new(&rules, true).unwrap();
        let pos = Packer::new(&rules, false).unwrap();
        let (mut a, mut b) = (vec![0u64; pos.words()], vec![0u64; pos.words()]);
        for s in playouts(&rules, 20, 4) {
            for mask in 0..4 {
                assert_eq!(apply_mask(&s, mask).position(), apply_mask(&s.position(), mask));
            }
            // The canonical position of a state is that of its position, and its orbit as a
            // position is never larger than as a state.
            let n = canonical(&pos, &s, &mut a);
            assert_eq!(canonical(&pos, &s.position(), &mut b), n);
            assert_eq!(a, b);
            assert!(n <= orbit_size(&full, &s));
            assert_eq!(pos.unpack(&a).position(), pos.unpack(&a));
        }
    }
}

#[test]
fn the_scratch_holds_the_largest_packed_state() {
    // The widest rule set: 5 energies of max_value 11, 255 copies, no stall limit, full states.
    let mut big = Rules::STANDARD;
    big.max_value = 11;
    big.copies = hatsuden::MAX_COPIES;
    big.stall_limit = None;
    let words = Packer::new(&big, true).unwrap().words();
    assert!(words <= MAX_WORDS, "{words} words");
}
