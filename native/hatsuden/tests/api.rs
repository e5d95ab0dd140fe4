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

/// The fixed-size accessors the model checker reads (`hand_array`, `deck_array`, `discard_array`,
/// `known_array`, `played_cell_index`, `turn_discard_index`) and `turn_discard` report what the
/// state notation writes (NOTATION.md, "State notation": `hands`, `deck`, `discards`,
/// `known_cards`, `played_cell`, `turn_discard`), along random games in seeded and explicit chance mode (R21,
/// R22, R23, R36).
#[test]
fn r22_r23_the_array_and_index_accessors_are_the_notations() {
    let letter = ['S', 'G', 'W', 'H', 'B'];
    let code = |c: &Card| format!("{}{}", letter[c.energy as usize], c.value);
    let cell_code = |c: &Cell| format!("{}{}", c.row, letter[c.energy as usize]);
    let field = |text: &str, key: &str| {
        let at = text.find(&format!(" {key}=")).expect("the field") + key.len() + 2;
        text[at..].split(' ').next().unwrap_or_default().to_string()
    };
    let counts = |cards: Vec<Card>, t: &Tables| {
        let mut n = [0u8; MAX_KINDS];
        for c in cards {
            n[t.index(c).unwrap() as usize] += 1;
        }
        n
    };
    let mut moves = Vec::new();
    let (mut played, mut discarded, mut known) = (0, 0, 0);
    for seed in 0..40u64 {
        let mut s = new_game(&Rules::STANDARD, if seed % 2 == 0 { Some(seed) } else { None }).unwrap();
        let mut g = SplitMix64::new(seed + 3);
        while !s.is_over() {
            let text = format_state(&s);
            let t = s.tables();
            for p in 0..2 {
                assert_eq!(s.hand_array(p), &counts(s.hand(p), t), "{text}");
                assert_eq!(s.known_array(p), &counts(s.known_cards(p), t), "{text}");
                known += s.known_cards(p).len();
            }
            assert_eq!(s.discard_array(), &counts(s.discards(), t), "{text}");
            assert_eq!(s.deck_array(), &counts(s.deck(), t), "{text}");
            let hands: Vec<String> = (0..2)
                .map(|p| s.hand(p).iter().map(code).collect::<Vec<_>>().join(","))
                .map(|h| if h.is_empty() { "-".to_string() } else { h })
                .collect();
            assert_eq!(field(&text, "hands"), hands.join("/"), "{text}");
            let discards = s.discards().iter().map(code).collect::<Vec<_>>().join(",");
            assert_eq!(field(&text, "discards"), if discards.is_empty() { "-".to_string() } else { discards });
            let cell = s.played_cell();
            assert_eq!(field(&text, "played_cell"), cell.map_or("-".to_string(), |c| cell_code(&c)), "{text}");
            assert_eq!(s.played_cell_index(), cell.map(|c| t.cell_index(c).unwrap() as usize), "{text}");
            let card = s.turn_discard();
            assert_eq!(field(&text, "turn_discard"), card.map_or("-".to_string(), |c| code(&c)), "{text}");
            assert_eq!(s.turn_discard_index(), card.map(|c| t.index(c).unwrap() as usize), "{text}");
            played += usize::from(cell.is_some());
            discarded += usize::from(card.is_some());
            s.legal_moves(&mut moves);
            s = s.apply(moves[(g.next() % moves.len() as u64) as usize]).unwrap();
        }
    }
    assert!(played > 100 && discarded > 20 && known > 100, "{played} {discarded} {known}");
}

/// R34, R40: `pick_action` gives a move in every ACTION where no placement is due, under
/// `place_at_once` as under the default timing (None only with a drawn Accumulator or Smart
/// still to place, where the legal moves are the placements alone).
#[test]
fn r40_pick_action_is_none_only_with_a_placement_due() {
    let mut buf = Vec::new();
    let mut g = SplitMix64::new(5);
    let mut picked = 0;
    for text in [
        "3/2/2/2/3/ACC+SEC+SMT+DWN/city_points/retake/6/place_at_once",
        "5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20/place_at_once",
    ] {
        let rules = parse_rules(text).unwrap();
        for seed in 0..100 {
            let mut s = new_game(&rules, Some(seed)).unwrap();
            while !s.is_over() {
                s.legal_moves(&mut buf);
                let due = buf.iter().all(|m| matches!(m, Move::PlaceAccumulator { .. } | Move::PlaceSmart { .. }));
                let r = g.next();
                let pick = s.pick_action(r);
                if s.phase() == Phase::Action && !due {
                    assert_eq!(pick, Some(buf[(r % buf.len() as u64) as usize]), "{}", format_state(&s));
                    picked += 1;
                } else {
                    assert_eq!(pick, None, "{}", format_state(&s));
                }
                s = s.apply(buf[(g.next() % buf.len() as u64) as usize]).unwrap();
            }
        }
    }
    assert!(picked > 1000, "{picked}");
}

/// R6, R33: a playout from an explicit-chance state draws every chance outcome (a `DealTech`
/// when a tech card is pending, a `Deal` otherwise) and so plays to the end of the game.
#[test]
fn r6_explicit_chance_playouts_deal_and_end() {
    let mut buf = Vec::new();
    for seed in 0..20 {
        let s = new_game(&Rules::STANDARD, None).unwrap();
        let (end, plies) = s.playout(&mut SplitMix64::new(seed), 100_000, &mut buf);
        assert!(end.is_over() && plies > 20, "seed {seed}: {plies} plies, {}", format_state(&end));
        assert_eq!(score(&end).winner, score(&end).winner & 1);
    }
}

/// An `InvalidInput` shows as `field: message`, the Python library's `InvalidInputError` text.
#[test]
fn invalid_input_displays_field_and_message() {
    assert_eq!(InvalidInput::new("copies", "too many").to_string(), "copies: too many");
    let r = Rules { energies: 1, max_value: 1, copies: 256, hand_size: 1, city_demand: 1, ..Rules::STANDARD };
    let e = new_game(&r, None).unwrap_err();
    assert_eq!(e.to_string(), format!("copies: {}", e.message));
}

/// Rules notation (NOTATION.md, "Rules notation"): the default variants `keep` and
/// `one_at_a_time` are never written (refused at the word, with the Python library's message),
/// the others are written once each, `place_at_once` before `any_set` (refused at the word
/// repeated or out of order, as in Python), and a rule set of more than 4,096 plant cards is refused at `copies`; exactly 4,096 is read
/// (R31).
#[test]
fn rules_notation_refuses_written_defaults_and_too_many_cards() {
    for (text, position, word) in [
        ("5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20/keep", 49, "keep"),
        ("5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20/one_at_a_time", 49, "one_at_a_time"),
        ("5/4/2/5/10/ACC/city_points/retake/20/place_at_once/one_at_a_time", 51, "one_at_a_time"),
    ] {
        let e = parse_rules(text).unwrap_err();
        assert_eq!((e.field.as_str(), e.position), ("rules", position), "{text}");
        assert_eq!(e.message, format!("{word} is a default: it is not written"), "{text}");
    }
    for (text, position) in [
        ("5/4/2/5/10/ACC/city_points/retake/20/place_at_once/place_at_once", 51),
        ("5/4/2/5/10/ACC/city_points/retake/20/any_set/place_at_once", 45),
        ("5/4/2/5/10/ACC/city_points/retake/20/any_set/any_set", 45),
        ("5/4/2/5/10/ACC/city_points/retake/20/place_at_once/any_set/any_set", 59),
    ] {
        let e = parse_rules(text).unwrap_err();
        assert_eq!((e.field.as_str(), e.position), ("rules", position), "{text}");
        assert_eq!(e.message, "variant options are written once each, tech_timing first", "{text}");
    }
    let r = parse_rules("4/4/256/5/10/ACC/city_points/retake/20").unwrap();
    assert_eq!(r.card_count(), 4096);
    let e = parse_rules("4/4/257/5/10/ACC/city_points/retake/20").unwrap_err();
    assert_eq!((e.field.as_str(), e.position), ("rules", 4));
    assert!(e.message.contains("notation may describe (4096)"), "{}", e.message);
}

/// R1: a cell is in play iff its row is 0 or 1 and its energy is one of the rule set's; no
/// other cell has an index, and no move may use one.
#[test]
fn r1_a_cell_outside_the_grid_has_no_index() {
    let s = standard();
    let t = s.tables();
    assert_eq!(t.cell_index(Cell { row: 1, energy: 4 }), Some(9));
    for cell in [Cell { row: 2, energy: 0 }, Cell { row: 2, energy: 4 }, Cell { row: 0, energy: 5 }] {
        assert_eq!(t.cell_index(cell), None, "{cell:?}");
        let card = s.hand(0)[0];
        let m = Move::Construct { card, cell: Cell { energy: card.energy, ..cell }, secret: false };
        if cell.row == 2 {
            assert!(s.apply(m).is_err(), "{m:?}");
        }
    }
}

/// R8, R32: a seed given as a decimal string is `-?(0|[1-9][0-9]*)` taken mod 2^64; anything
/// else (an empty string, a lone sign, a letter, a leading zero) is no seed.
#[test]
fn r32_seeds_from_decimal_text_at_their_limits() {
    for (text, seed) in [
        ("0", Some(0)),
        ("7", Some(7)),
        ("18446744073709551615", Some(u64::MAX)),
        ("18446744073709551616", Some(0)),
        ("-1", Some(u64::MAX)),
        ("-0", Some(0)),
        ("", None),
        ("-", None),
        ("1a", None),
        ("a", None),
        ("-x", None),
        ("05", None),
        ("00", None),
        ("+5", None),
    ] {
        assert_eq!(seed_from_decimal(text), seed, "{text:?}");
    }
}

/// NOTATION.md, "State notation": `rng_state` is a decimal without leading zeros; `0` and
/// 2^64 - 1 are read back, `00` is refused at the number, as the Python library refuses it.
#[test]
fn rng_state_zero_is_read_and_a_leading_zero_refused() {
    let text = format_state(&new_game(&Rules::STANDARD, Some(5)).unwrap());
    let at = text.find("rng_state=").unwrap() + "rng_state=".len();
    let end = at + text[at..].find(' ').unwrap();
    for value in ["0", "18446744073709551615"] {
        let t = format!("{}{value}{}", &text[..at], &text[end..]);
        assert_eq!(format_state(&parse_state(&t).unwrap()), t);
    }
    let e = parse_state(&format!("{}00{}", &text[..at], &text[end..])).unwrap_err();
    assert_eq!((e.field.as_str(), e.position), ("rng_state", at));
}

/// `map_rows` swaps the rows of a move iff the mover's bit of the mask is set (the row
/// symmetry of R36's positions): never with mask 0, only for player 1 with mask 2.
#[test]
fn map_rows_swaps_only_for_the_movers_bit() {
    let card = Card { energy: 0, value: 3 };
    let m = Move::Construct { card, cell: Cell { row: 0, energy: 0 }, secret: false };
    let swapped = Move::Construct { card, cell: Cell { row: 1, energy: 0 }, secret: false };
    assert_eq!(m.swap_rows(), swapped);
    for (mover, mask, expected) in
        [(0, 0, m), (1, 0, m), (0, 1, swapped), (1, 1, m), (0, 2, m), (1, 2, swapped), (0, 3, swapped), (1, 3, swapped)]
    {
        assert_eq!(m.map_rows(mover, mask), expected, "mover {mover}, mask {mask}");
    }
}

/// `same_stacks` is equality of the stacks, pair by pair: two grids differing in two stacks
/// (even the same two stacks exchanged) are not the same.
#[test]
fn same_stacks_is_stack_equality() {
    let mut buf = Vec::new();
    let mut g = SplitMix64::new(1);
    let mut compared = 0;
    for seed in 0..20 {
        let mut s = new_game(&Rules::STANDARD, Some(seed)).unwrap();
        while !s.is_over() {
            let a: Vec<Stack> = s.board(0).to_vec();
            assert!(same_stacks(&a, s.board(0)));
            assert!(!same_stacks(&a, &a[1..]));
            for i in 0..a.len() {
                for j in i + 1..a.len() {
                    let mut b = a.clone();
                    b.swap(i, j);
                    assert_eq!(same_stacks(&a, &b), a[i] == a[j], "{i} {j}");
                    compared += usize::from(a[i] != a[j]);
                }
            }
            s.legal_moves(&mut buf);
            s = s.apply(buf[(g.next() % buf.len() as u64) as usize]).unwrap();
        }
    }
    assert!(compared > 1000, "{compared}");
}

/// `same_stacks` compares every card slot of a stack, up to the longest (`STACK_CAP`, 22
/// cards: 1..11 downsized and improved again, R12, R13): a stack equals itself at every length,
/// and differs from the stack with any one card changed.
#[test]
fn same_stacks_compares_every_card_of_a_long_stack() {
    for len in 1..=STACK_CAP {
        let mut st = Stack { cards: [0; STACK_CAP], flags: 0, len: len as u8 };
        for (k, c) in st.cards[..len].iter_mut().enumerate() {
            *c = (k % 11) as u8;
        }
        let grid = [Stack::default(), st];
        assert!(same_stacks(&grid, &[Stack::default(), st]), "{len} cards");
        for k in 0..len {
            let mut other = st;
            other.cards[k] = 11;
            assert!(!same_stacks(&grid, &[Stack::default(), other]), "{len} cards, card {k}");
            assert!(!same_stacks(&[other], &[st]), "{len} cards, card {k}");
        }
        // Two cards changed alike, in different words of the stack, are two differences (not
        // one cancelling the other).
        for k in 0..len {
            for j in k + 1..len {
                let mut other = st;
                other.cards[k] ^= 3;
                other.cards[j] ^= 3;
                assert!(!same_stacks(&grid, &[Stack::default(), other]), "{len} cards, cards {k} and {j}");
            }
        }
    }
}

/// Rules notation (NOTATION.md, "Rules notation"): a rule set R31 refuses is refused at the
/// number of the field it names, with the Python library's position (`energies` at 0).
#[test]
fn r31_a_rules_notation_error_is_at_the_field_it_names() {
    for (text, position, field) in [
        ("6/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20", 0, "energies"),
        ("0/4/2/5/10/-/city_points/retake/20", 0, "energies"),
        ("5/12/2/5/20/-/city_points/retake/20", 2, "max_value"),
        ("5/4/0/5/10/-/city_points/retake/20", 4, "copies"),
        ("5/4/2/0/10/-/city_points/retake/20", 6, "hand_size"),
        ("5/4/2/5/0/-/city_points/retake/20", 8, "city_demand"),
        ("5/4/2/5/10/-/city_points/retake/0", 32, "stall_limit"),
    ] {
        let e = parse_rules(text).unwrap_err();
        assert_eq!((e.field.as_str(), e.position), ("rules", position), "{text}: {}", e.message);
        assert!(e.message.starts_with(&format!("{field}: ")), "{text}: {}", e.message);
    }
}

/// R34, R40: under the default timing (KEEP) `pick_action(r)` is `legal_moves[r mod n]` for
/// every `r` below `n`, so for the last kinds too: a player holding both the Accumulator and
/// the Smart picks the Smart's placements after the Accumulator's two rows.
#[test]
fn r34_pick_action_gives_every_legal_move_holding_accumulator_and_smart() {
    let mut buf = Vec::new();
    let mut g = SplitMix64::new(17);
    let mut both = 0;
    for text in ["3/2/2/2/3/ACC+SEC+SMT+DWN/city_points/retake/6", "5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20"] {
        let rules = parse_rules(text).unwrap();
        for seed in 0..150 {
            let mut s = new_game(&rules, Some(seed)).unwrap();
            while !s.is_over() {
                s.legal_moves(&mut buf);
                if s.phase() == Phase::Action {
                    for r in 0..buf.len() as u64 {
                        assert_eq!(s.pick_action(r), Some(buf[r as usize]), "{r} {}", format_state(&s));
                    }
                    let acc = buf.iter().any(|m| matches!(m, Move::PlaceAccumulator { .. }));
                    let smart = buf.iter().any(|m| matches!(m, Move::PlaceSmart { .. }));
                    both += (acc && smart) as usize;
                }
                // Draw every tech card offered and place none while another move is legal, so
                // that both are often held at once.
                let kept: Vec<Move> = buf
                    .iter()
                    .copied()
                    .filter(|m| !matches!(m, Move::PlaceAccumulator { .. } | Move::PlaceSmart { .. }))
                    .collect();
                let choice = if kept.is_empty() { &buf[..] } else { &kept[..] };
                let m = match choice.iter().find(|m| matches!(m, Move::DrawTech)) {
                    Some(&m) => m,
                    None => choice[(g.next() % choice.len() as u64) as usize],
                };
                s = s.apply(m).unwrap();
            }
        }
    }
    assert!(both > 20, "{both}");
}

/// R13, R34: `is_legal` and `apply` accept exactly the listed legal moves. Moves that were legal
/// in other states of the same rule set (among them a Downsize played by a player holding Down)
/// are refused where they are not listed: a Downsize without Down in the tech hand (R13) too.
#[test]
fn r13_is_legal_and_apply_accept_exactly_the_listed_moves() {
    let mut buf = Vec::new();
    let mut g = SplitMix64::new(23);
    let rules = parse_rules("3/2/2/2/3/ACC+SEC+SMT+DWN/city_points/retake/6").unwrap();
    let mut states = Vec::new();
    let mut pool: Vec<Move> = Vec::new();
    for seed in 0..60 {
        let mut s = new_game(&rules, Some(seed)).unwrap();
        while !s.is_over() {
            s.legal_moves(&mut buf);
            for &m in &buf {
                if !pool.contains(&m) {
                    pool.push(m);
                }
            }
            states.push(s);
            s = s.apply(buf[(g.next() % buf.len() as u64) as usize]).unwrap();
        }
    }
    assert!(pool.iter().any(|m| matches!(m, Move::Downsize { .. })));
    let mut refused_downsizes = 0;
    for s in &states {
        s.legal_moves(&mut buf);
        for &m in &pool {
            let listed = buf.contains(&m);
            assert_eq!(s.is_legal(m), listed, "{m:?} {}", format_state(s));
            assert_eq!(s.apply(m).is_ok(), listed, "{m:?} {}", format_state(s));
            refused_downsizes += (!listed && matches!(m, Move::Downsize { .. })) as usize;
        }
    }
    assert!(refused_downsizes > 100, "{refused_downsizes}");
}

/// R38, R21, R19: a state sampled from an observation keeps every flip of the turn logs an
/// overflow, on both rows (a concealed Secret Build stack on the second row is bounded by its
/// own row's other stacks, not the first row's) and with the Accumulator on either player's
/// either row (its tolerance only for its own row and player). Small grids where rows
/// overflow often, played favouring the tech moves; several samples of each observation.
#[test]
fn r38_r21_samples_keep_every_flip_an_overflow_with_the_accumulator_on_any_row() {
    let mut buf = Vec::new();
    // Seed 634 of the first grid meets a concealed stack bounded under the Accumulator, and
    // seed 1993 one on the second row beside a face-up first row; the others, more of both.
    let small = "3/3/2/3/6/ACC+SEC/city_points/retake/6";
    for (text, seeds) in [
        (small, 600..660),
        (small, 1960..2000),
        ("3/3/2/3/6/ACC+SEC/city_points/retake/6/any_set", 0..60),
        ("2/3/2/3/5/ACC+SEC/city_points/retake/6", 0..60),
    ] {
        let rules = parse_rules(text).unwrap();
        for seed in seeds {
            let mut s = new_game(&rules, Some(seed)).unwrap();
            let mut g = SplitMix64::new(seed ^ 0xACC);
            while !s.is_over() {
                for p in 0..2 {
                    let o = observe(&s, p);
                    for k in 0..4 {
                        let x =
                            sample_state(&o, &mut g).unwrap_or_else(|e| panic!("{text} seed {seed} player {p}: {e:?}"));
                        if let Err(e) = crate::sampling::flipped_rows_overflowed(&x) {
                            panic!("{text} seed {seed} sample {k} of player {p}: {e}\n{}", format_state(&x));
                        }
                    }
                }
                s.legal_moves(&mut buf);
                let tech: Vec<Move> = buf
                    .iter()
                    .copied()
                    .filter(|m| {
                        matches!(
                            m,
                            Move::DrawTech | Move::Construct { secret: true, .. } | Move::PlaceAccumulator { .. }
                        )
                    })
                    .collect();
                let from = if tech.is_empty() { &buf[..] } else { &tech[..] };
                s = s.apply(from[(g.next() % from.len() as u64) as usize]).unwrap();
            }
        }
    }
}

/// R35: an illegal move's message starts with the rule that forbids it and names the card by
/// its code (NOTATION.md, "Move notation"): a card not in the hand, for each action that plays
/// one (R10, R12, R14, R15).
#[test]
fn r35_a_card_not_in_the_hand_is_named_by_its_code() {
    let s = standard(); // player 0 holds S1, G4, W2, W3, B2 (R33)
    for (text, rule) in [("C S4 0S", "R10"), ("I S4 0S", "R12"), ("P S4 0S", "R14"), ("X S4", "R15")] {
        let e = s.apply(parse_move(text, Some(&Rules::STANDARD)).unwrap()).unwrap_err();
        assert_eq!(e.rule, rule, "{text}");
        assert_eq!(e.to_string(), format!("{rule}: S4 is not in the hand"), "{text}");
    }
}

/// NOTATION.md, "Errors: which one, and where": a notation error shows as `field: message at
/// position N`, the start of the Python library's `NotationError` text (which then quotes the
/// text).
#[test]
fn a_notation_error_displays_its_field_message_and_position() {
    let e = parse_state("rules=5/4/2/5/10/-/city_points/retake/20 phase=bogus").unwrap_err();
    assert!(!e.message.is_empty());
    assert_eq!(e.to_string(), format!("{}: {} at position {}", e.field, e.message, e.position));
    let e = parse_move("C S12 0S", None).unwrap_err();
    assert_eq!(e.to_string(), "move: a card value is at most 11 (R2) at position 3");
}

/// R31: a state belongs to its rule set: two states alike but for their rules (here only the
/// stall limit, R25) are not equal, as the Python library's `GameState`s compare their rules.
#[test]
fn r31_states_under_different_rules_are_not_equal() {
    let a = new_game(&Rules::STANDARD, None).unwrap();
    let b = new_game(&Rules { stall_limit: Some(19), ..Rules::STANDARD }, None).unwrap();
    assert_ne!(a, b);
    assert!(a.tables() != b.tables());
    assert_eq!(a, new_game(&Rules::STANDARD, None).unwrap());
    // Tables compare their rule sets, not their addresses: a copy built field by field (the
    // fields are public) is equal to the shared tables of its rule set, and not to another's.
    let t = a.tables();
    let copy = Tables {
        rules: t.rules,
        e: t.e,
        mv: t.mv,
        kinds: t.kinds,
        ncells: t.ncells,
        copies: t.copies,
        total_cards: t.total_cards,
        tolerance: t.tolerance,
        acc_tolerance: t.acc_tolerance,
        value: t.value,
        col: t.col,
        flip_set_order: t.flip_set_order.clone(),
        cards: t.cards,
        cells: t.cells,
    };
    assert!(copy == *t);
    assert!(copy != *b.tables());
}
