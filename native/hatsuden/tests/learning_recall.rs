//! Learning episodes with perfect recall (`hatsuden::infostate::Episode`): the information
//! state is the observation tensor (R39) followed by how many times the player saw each move
//! as it is seen (R37, "Moves as seen"), as `hatsuden_rules.integrations._learning` counts it.

use hatsuden::infostate::{Episode, Learning};
use hatsuden::{Move, Overflow, Rules};

/// The seen counts of `player`, read from the raw information-state tensor.
fn seen(e: &Episode, l: &Learning, player: usize) -> Vec<i64> {
    let raw = e.raw(player);
    assert_eq!(raw.len(), l.raw_size(true));
    raw[l.raw_size(false)..].to_vec()
}

/// Plays `plies` moves of the game of `seed` (the `k`-th legal id at ply `k`).
fn play(e: &mut Episode, l: &Learning, plies: usize) -> usize {
    let (mut buf, mut ids) = (Vec::new(), Vec::new());
    for ply in 0..plies {
        e.legal_ids(l, &mut buf, &mut ids);
        if ids.is_empty() {
            return ply;
        }
        let before: [i64; 2] = [0, 1].map(|p| seen(e, l, p).iter().sum());
        e.step(l, ids[ply % ids.len()] as i64).unwrap();
        // R37: both players see every move (the mover as played, the other as it is seen),
        // and the deals it triggers.
        for (p, before) in before.into_iter().enumerate() {
            assert!(seen(e, l, p).iter().sum::<i64>() > before, "ply {ply}: player {p} saw nothing");
        }
        let counts = &e.counts;
        assert_eq!(counts[0].iter().sum::<u32>(), counts[1].iter().sum::<u32>());
    }
    plies
}

#[test]
fn r37_every_move_is_counted_once_for_each_player() {
    let l = Learning::new(&Rules::STANDARD).unwrap();
    let mut e = Episode::new(&l, true);
    for seed in 0..5 {
        e.reset(&l, seed);
        // The deal (R7): each player saw their own cards and the other's as concealed deals.
        let dealt: Vec<i64> = (0..2).map(|p| seen(&e, &l, p).iter().sum()).collect();
        assert!(dealt[0] > 0 && dealt[0] == dealt[1], "{dealt:?}");
        let plies = play(&mut e, &l, 40);
        let after: Vec<i64> = (0..2).map(|p| seen(&e, &l, p).iter().sum()).collect();
        assert!(after[0] >= dealt[0] + plies as i64, "{after:?} after {plies} plies");
    }
}

/// A reset starts the counts afresh (R7): a used episode reset with seed S has exactly the
/// information state of a new episode reset with S.
#[test]
fn r7_a_reset_forgets_the_previous_game() {
    let l = Learning::new(&Rules::STANDARD).unwrap();
    let mut used = Episode::new(&l, true);
    used.reset(&l, 11);
    play(&mut used, &l, 60);
    used.reset(&l, 3);
    let mut fresh = Episode::new(&l, true);
    fresh.reset(&l, 3);
    for p in 0..2 {
        assert_eq!(used.raw(p), fresh.raw(p), "player {p}");
    }
    let (mut a, mut b) = (vec![0f32; l.feature_size(true, true)], vec![0f32; l.feature_size(true, true)]);
    used.write_features(&l, 0, true, &mut a);
    fresh.write_features(&l, 0, true, &mut b);
    assert_eq!(a, b);
}

/// The bound on a game's player moves that OpenSpiel is given (R25: none without the stall
/// rule), as `hatsuden_rules.observation.max_game_length` computes it.
#[test]
fn r25_the_bound_on_a_games_length_is_the_python_librarys() {
    use hatsuden::infostate::max_game_length;
    let of = |text: &str| max_game_length(hatsuden::parse_rules(text).unwrap().tables().unwrap());
    assert_eq!(of("5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20"), Some(1702));
    assert_eq!(of("3/3/2/3/6/SEC/city_points/retake/6"), Some(258));
    assert_eq!(of("5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/off"), None);
}

/// The normalised features (docs/features.md) are the raw information-state tensor entries
/// each normalised by its plan entry (`Norm`): a count times its factor, a count without bound
/// as `n / (n + 1)`, and a stack's value (`-1` hidden, `0 .. max_value`) and top card one-hot
/// from the entry's first value (R39), along the first plies of several games.
#[test]
fn r39_normalised_features_follow_the_plan_entry_by_entry() {
    use hatsuden::infostate::Norm;
    let l = Learning::new(&Rules::STANDARD).unwrap();
    let mut e = Episode::new(&l, true);
    let plan = l.plan(true);
    let mut out = vec![0f32; l.feature_size(true, true)];
    let (mut buf, mut ids) = (Vec::new(), Vec::new());
    let mut hot = 0;
    for seed in 0..6 {
        e.reset(&l, seed);
        for ply in 0..40 {
            for p in 0..2 {
                let raw = e.raw(p);
                assert_eq!(raw.len(), plan.norms.len());
                let mut expected = Vec::with_capacity(out.len());
                for (&x, norm) in raw.iter().zip(&plan.norms) {
                    let x32 = x as f32;
                    match *norm {
                        Norm::Scale(mul) => expected.push(x32 * mul),
                        Norm::Saturate => expected.push(x32 / (x32 + 1.0)),
                        Norm::OneHot { first, len } => {
                            expected.extend((0..len).map(|k| if x - first == k as i64 { 1.0 } else { 0.0 }));
                            hot += usize::from(x >= first && x - first < len as i64);
                        }
                    }
                }
                e.write_features(&l, p, true, &mut out);
                assert_eq!(out, expected, "seed {seed}, ply {ply}, player {p}");
            }
            e.legal_ids(&l, &mut buf, &mut ids);
            if ids.is_empty() {
                break;
            }
            e.step(&l, ids[(ply * 7 + seed as usize) % ids.len()] as i64).unwrap();
        }
    }
    assert!(hot > 1000, "{hot}");
}

/// R1, R19, R20: an action id names a move of the rule set, and only those: an Accumulator on
/// a row past the two rows, or a Smart on an energy not in play, has none (the Python
/// library's `actions.action_id` refuses them too), whatever the number (an earlier reading
/// took it modulo 11, so row 12 was given row 1's id).
#[test]
fn r1_r19_r20_a_placement_outside_the_grid_has_no_action_id() {
    for rules in [Rules::STANDARD, Rules { energies: 3, ..Rules::STANDARD }] {
        let l = Learning::new(&rules).unwrap();
        let e = rules.energies as u8;
        for v in 0..=u8::MAX {
            let row = l.actions.id(&Move::PlaceAccumulator { row: v });
            let smart = l.actions.id(&Move::PlaceSmart { energy: v });
            assert_eq!(row.is_some(), v < 2, "PlaceAccumulator row {v}");
            assert_eq!(smart.is_some(), v < e, "PlaceSmart energy {v} of {e}");
            if let Some(a) = row {
                assert_eq!(l.actions.player[a as usize], Move::PlaceAccumulator { row: v });
            }
            if let Some(a) = smart {
                assert_eq!(l.actions.player[a as usize], Move::PlaceSmart { energy: v });
            }
        }
    }
}

/// R34: an action id names a player move of the rule set, and only those (as the Python
/// library's `move_to_action` looks it up): each listed move has its own index as its id, and
/// any other move (a Construct, Improve or Downsize on a cell of another energy, a secret
/// Construct without Secret Build, a card or cell not in play, a FlipSet or Flip of the other
/// overflow variant, R41) has none, under rule sets of one, two, three and five energies, with
/// and without the tech cards.
#[test]
fn r34_an_action_id_names_exactly_the_moves_of_the_rule_set() {
    use hatsuden::{Card, Cell};
    let bare = Rules { techs: 0, ..Rules::STANDARD };
    for rules in [
        Rules::STANDARD,
        Rules { energies: 1, max_value: 3, copies: 4, hand_size: 2, city_demand: 4, ..Rules::STANDARD },
        Rules { energies: 2, overflow: Overflow::AnySet, ..Rules::STANDARD },
        Rules { energies: 3, overflow: Overflow::AnySet, ..bare },
        Rules { energies: 1, max_value: 3, copies: 4, hand_size: 2, city_demand: 4, ..bare },
    ] {
        let l = Learning::new(&rules).unwrap();
        let mut all = vec![Move::Pass, Move::DrawTech, Move::DeclineTech, Move::DrawFromDeck, Move::EndTurn];
        let cards: Vec<Card> = (0..6).flat_map(|energy| (1..=5).map(move |value| Card { energy, value })).collect();
        let cells: Vec<Cell> = (0..3).flat_map(|row| (0..6).map(move |energy| Cell { row, energy })).collect();
        for &card in &cards {
            for &cell in &cells {
                all.push(Move::Construct { card, cell, secret: false });
                all.push(Move::Construct { card, cell, secret: true });
                all.push(Move::Improve { card, cell });
                all.push(Move::Downsize { card, cell });
                all.push(Move::BuildPylon { card, cell });
            }
            all.push(Move::Discard { card });
            all.push(Move::DrawFromDiscard { card });
        }
        all.extend(cells.iter().map(|&cell| Move::Flip { cell }));
        all.extend((0..1024).map(|cells| Move::FlipSet { cells }));
        all.extend((0..12).map(|row| Move::PlaceAccumulator { row }));
        all.extend((0..12).map(|energy| Move::PlaceSmart { energy }));
        let mut named = 0;
        for m in &all {
            let listed = l.actions.player.iter().position(|p| p == m);
            assert_eq!(l.actions.id(m), listed.map(|a| a as u32), "{rules:?}: {m:?}");
            named += usize::from(listed.is_some());
        }
        assert_eq!(named, l.actions.player.len(), "{rules:?}");
    }
}

/// R6, R34: the chance outcomes (`Deal`, `DealTech`) are numbered apart from the player moves
/// (`chance_id`, as `hatsuden_rules.move_to_action` numbers them): none has an action id,
/// whatever its tech number, also under the `any_set` overflow (R41), whose FlipSets are keyed
/// just past the last kind of move.
#[test]
fn r6_a_chance_outcome_has_no_action_id() {
    for rules in [Rules::STANDARD, Rules { overflow: Overflow::AnySet, ..Rules::STANDARD }] {
        let l = Learning::new(&rules).unwrap();
        for v in 0..=u8::MAX {
            assert_eq!(l.actions.id(&Move::DealTech { tech: v }), None, "DealTech {v}");
        }
        for m in &l.actions.chance {
            assert_eq!(l.actions.id(m), None, "{m:?}");
            assert!(l.actions.chance_id(m).is_some(), "{m:?}");
        }
    }
}

/// R37: `probe` then `commit` of an action id is `step` of it (the learning environments probe
/// a move before making it): the same information state for both players, ply by ply.
#[test]
fn r37_probe_then_commit_is_a_step() {
    let l = Learning::new(&Rules::STANDARD).unwrap();
    let (mut stepped, mut committed) = (Episode::new(&l, true), Episode::new(&l, true));
    let (mut buf, mut ids) = (Vec::new(), Vec::new());
    for seed in 0..3 {
        stepped.reset(&l, seed);
        committed.reset(&l, seed);
        for ply in 0..60 {
            stepped.legal_ids(&l, &mut buf, &mut ids);
            if ids.is_empty() {
                break;
            }
            let action = ids[ply % ids.len()] as i64;
            stepped.step(&l, action).unwrap();
            let after = committed.probe(&l, action).unwrap();
            committed.commit(&l, action, after);
            for p in 0..2 {
                assert_eq!(stepped.raw(p), committed.raw(p), "seed {seed}, ply {ply}, player {p}");
            }
        }
    }
}

/// R7, R8, R33: an episode reset with seed S plays the game `new_game(S)`: its chance events
/// (the plant and tech cards dealt) are seeded mode's, move by move, also when a tech card is
/// dealt from a tech deck that already lost some (R17), and its winner is the score's (R29) at
/// every ply and at the end.
#[test]
fn r8_r33_an_episode_is_the_seeded_game() {
    // Values 1 to 3: every 3 built triggers TECH, so tech cards are drawn often.
    let rules = Rules { energies: 2, max_value: 3, copies: 4, hand_size: 3, city_demand: 4, ..Rules::STANDARD };
    let l = Learning::new(&rules).unwrap();
    let mut e = Episode::new(&l, false);
    let (mut buf, mut ids) = (Vec::new(), Vec::new());
    let (mut winners, mut late_tech_draws) = ([0; 2], 0);
    for seed in 0..8 {
        e.reset(&l, seed);
        let mut s = hatsuden::new_game(&rules, Some(seed)).unwrap();
        let mut g = hatsuden::SplitMix64::new(seed + 9);
        loop {
            assert_eq!(e.seeded_state(), s, "seed {seed}");
            assert_eq!(e.winner(), hatsuden::score(&s).winner, "seed {seed}");
            e.legal_ids(&l, &mut buf, &mut ids);
            if ids.is_empty() {
                break;
            }
            // A tech card drawn whenever one may be, so that the tech deck runs low.
            let draw = ids.iter().copied().find(|&a| l.actions.player[a as usize] == Move::DrawTech);
            let a = draw.unwrap_or(ids[(g.next() % ids.len() as u64) as usize]);
            late_tech_draws += usize::from(draw.is_some() && s.tech_deck().count_ones() < 4);
            e.step(&l, a as i64).unwrap();
            s = s.apply(l.actions.player[a as usize]).unwrap();
        }
        assert!(s.is_over(), "seed {seed}");
        winners[e.winner()] += 1;
    }
    assert!(winners[0] > 0 && winners[1] > 0 && late_tech_draws > 0, "{winners:?}, {late_tech_draws}");
}
