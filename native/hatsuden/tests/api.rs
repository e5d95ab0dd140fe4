//! Unit tests of the public API, citing the rules they test.

use hatsuden::*;

fn standard() -> State {
    new_game(&Rules::STANDARD, Some(0)).unwrap()
}

#[test]
fn r33_seeded_deal_example() {
    // R33 example: seed 0 deals player 0 G4, S1, W3, W2, B2 and player 1 B2, G2, S4, S3, G2.
    let s = standard();
    assert_eq!(s.phase(), Phase::Action);
    let text = format_state(&s);
    assert!(text.contains("hands=S1,G4,W2,W3,B2/S3,S4,G2,G2,B2"), "{text}");
}

#[test]
fn r7_explicit_new_game_is_chance() {
    let s = new_game(&Rules::STANDARD, None).unwrap();
    assert_eq!(s.phase(), Phase::Chance);
    let outcomes = s.chance_outcomes().unwrap();
    assert_eq!(outcomes.len(), 20);
    assert_eq!((outcomes[0].1, outcomes[0].2), (1, 20));
}

#[test]
fn r6_chance_outcomes_outside_chance_is_an_error() {
    assert!(standard().chance_outcomes().is_err());
}

#[test]
fn r16_pass_needs_an_empty_hand_and_state_is_unchanged() {
    let s = standard();
    let before = s;
    let e = s.apply(Move::Pass).unwrap_err();
    assert_eq!(e.rule, "R16");
    assert_eq!(s, before);
}

#[test]
fn r9_wrong_phase() {
    let e = standard().apply(Move::DrawFromDeck).unwrap_err();
    assert_eq!(e.rule, "R9");
}

#[test]
fn notation_round_trip() {
    let s = standard();
    let text = format_state(&s);
    assert_eq!(parse_state(&text).unwrap(), s);
    for m in s.legal_moves_vec() {
        assert_eq!(parse_move(&format_move(&m), Some(s.rules())).unwrap(), m);
    }
    assert_eq!(parse_rules("5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20").unwrap(), Rules::STANDARD);
    assert_eq!(format_rules(&Rules::PRINTED), "5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/off");
}

#[test]
fn notation_errors_name_field_and_position() {
    let e = parse_move("C S3 2S", None).unwrap_err();
    assert_eq!((e.field.as_str(), e.position), ("move", 5));
    let e = parse_move("C*S3 0S", None).unwrap_err();
    assert_eq!(e.position, 0);
    let e = parse_rules("6/4/2/5/10/-/city/retake/20").unwrap_err();
    assert_eq!(e.position, 13);
}

#[test]
fn r34_perft_small_start() {
    let rules = parse_rules("1/2/2/1/1/ACC/city_points/noretake/2").unwrap();
    let s = new_game(&rules, None).unwrap();
    assert_eq!(s.perft(2), vec![2, 4]);
}

#[test]
fn r25_random_playouts_terminate() {
    let mut buf = Vec::new();
    for seed in 0..50 {
        let s = new_game(&Rules::STANDARD, Some(seed)).unwrap();
        let mut g = SplitMix64::new(seed);
        let (end, plies) = s.playout(&mut g, 100_000, &mut buf);
        assert!(end.is_over(), "seed {seed}");
        assert!(plies > 0);
        let sc = score(&end);
        assert!(sc.winner < 2);
    }
}

#[test]
fn r37_r38_sample_state_observes_the_same() {
    let mut buf = Vec::new();
    for seed in 0..30 {
        let s = new_game(&Rules::STANDARD, Some(seed)).unwrap();
        let mut g = SplitMix64::new(seed + 1);
        let (mid, _) = s.playout(&mut g, 40, &mut buf);
        for p in 0..2 {
            let o = observe(&mid, p);
            let sampled = sample_state(&o, &mut SplitMix64::new(7)).unwrap();
            assert_eq!(observe(&sampled, p), o);
            assert_eq!(parse_observation(&format_observation(&o)).unwrap(), o);
            if mid.current_player() == p && !matches!(mid.phase(), Phase::Chance | Phase::GameOver) {
                assert_eq!(legal_moves_from(&o).unwrap(), mid.legal_moves_vec());
            }
        }
        assert_eq!(observation_tensor(&observe(&mid, 0)).len(), 323);
        let layout: usize = observation_tensor_layout(mid.tables()).iter().map(|x| x.1).sum();
        assert_eq!(layout, 323);
        assert_eq!(mid.hand(0).len(), mid.hand_size(0));
    }
}

#[test]
fn json_documents_round_trip() {
    let s = standard();
    let doc = docs::state_doc(&s).to_text();
    let back = docs::state_from_json(&json::parse(&doc).unwrap()).unwrap();
    assert_eq!(back, s);
    let e = docs::canonical_json(r#"{"type":"rules","format_version":1,"energies":1.0,"max_value":2,"copies":2,"hand_size":1,"city_demand":1,"techs":["accumulator"],"tiebreak":"city_points","allow_retake_discard":false,"stall_limit":2}"#, "rules").unwrap_err();
    assert!(matches!(e, Error::Json(ref j) if j.path == "$.energies"), "{e:?}");
    let any = from_json(&doc, None).unwrap();
    assert_eq!(any, Document::State(Box::new(s)));
    assert_eq!(to_json(&any), doc);
    let sc = Document::Score(Box::new(score(&s)));
    assert_eq!(from_json(&to_json(&sc), Some("score")).unwrap(), sc);
    let e = docs::canonical_json(r#"{"type":"rules","type":"rules"}"#, "rules").unwrap_err();
    assert!(matches!(e, Error::Json(ref j) if j.path == "$"), "{e:?}");
}

#[test]
fn state_is_compact_and_copy() {
    fn is_copy<T: Copy>() {}
    is_copy::<State>();
    is_copy::<Move>();
    // Six card-count arrays of every valid rule set's 55 cards, 20 stacks of up to 22 cards, two
    // turn logs, and a few scalars (R31: max_value <= 11, energies <= 5).
    let arrays = 6 * MAX_KINDS + 2 * MAX_CELLS * std::mem::size_of::<Stack>() + 2 * std::mem::size_of::<Log>();
    assert!(std::mem::size_of::<State>() <= arrays + 64, "{}", std::mem::size_of::<State>());
    assert!(std::mem::size_of::<State>() <= 1064, "{}", std::mem::size_of::<State>());
    assert!(std::mem::size_of::<Move>() <= 8);
}

#[test]
fn r34_pick_action_is_the_nth_legal_move() {
    let mut buf = Vec::new();
    let mut g = SplitMix64::new(99);
    for text in [
        "5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20",
        "3/2/2/2/3/ACC+SEC+SMT+DWN/city_points/retake/6/place_at_once",
        "3/3/2/3/4/ACC+SEC+SMT+DWN/city_points/retake/6/any_set",
        "1/2/2/1/1/ACC/city_points/noretake/2",
    ] {
        let rules = parse_rules(text).unwrap();
        for seed in 0..200 {
            let mut s = new_game(&rules, Some(seed)).unwrap();
            while !s.is_over() {
                s.legal_moves(&mut buf);
                for _ in 0..4 {
                    let r = g.next();
                    if let Some(m) = s.pick_action(r) {
                        assert_eq!(m, buf[(r % buf.len() as u64) as usize], "{}", format_state(&s));
                    }
                }
                let m = buf[(g.next() % buf.len() as u64) as usize];
                s = s.apply(m).unwrap();
            }
        }
    }
}

#[test]
fn records_round_trip_and_replay() {
    let mut buf = Vec::new();
    for (seed, explicit) in [(5u64, false), (6, true), (7, false)] {
        let s0 = new_game(&Rules::STANDARD, if explicit { None } else { Some(seed) }).unwrap();
        let mut g = SplitMix64::new(seed);
        let mut s = s0;
        let mut moves = Vec::new();
        while !s.is_over() {
            s.legal_moves(&mut buf);
            let m = buf[(g.next() % buf.len() as u64) as usize];
            moves.push(m);
            s = s.apply(m).unwrap();
        }
        let players = Some(["Ann".to_string(), "Bo \"x\\".to_string()]);
        let r = record_game(&Rules::STANDARD, s0.rng_state().map(|_| seed), &moves, players).unwrap();
        assert!(r.result.is_some());
        let text = format_record(&r);
        assert_eq!(parse_record(&text).unwrap(), r, "{text}");
        assert_eq!(replay(&r).unwrap(), s);
        let doc = records::record_doc(&r).to_text();
        assert_eq!(records::record_from_json(&doc).unwrap(), r);
        let mut bad = r.clone();
        bad.moves.insert(0, Move::Pass);
        let e = replay(&bad).unwrap_err();
        assert_eq!((e.field.as_str(), e.ply), ("moves[0]", Some(1)));
    }
}

/// `playout` plays at most `max_plies` plies (R33's sampler choosing each), and the state's
/// `Debug` is its notation (what a failing assertion shows).
#[test]
fn playout_stops_at_max_plies_and_debug_is_the_notation() {
    let mut buf = Vec::new();
    for max in [0, 1, 5, 30] {
        let mut g = SplitMix64::new(max as u64);
        let (end, plies) = standard().playout(&mut g, max, &mut buf);
        assert_eq!(plies, max, "a standard game lasts longer than {max} plies");
        assert!(!end.is_over());
    }
    let mut g = SplitMix64::new(9);
    let (end, plies) = standard().playout(&mut g, 10_000, &mut buf);
    assert!(end.is_over() && plies < 10_000);
    assert_eq!(format!("{end:?}"), format_state(&end));
}
