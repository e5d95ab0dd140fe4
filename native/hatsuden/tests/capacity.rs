//! Card values 1..11 (R2, R31; issue 23 §2) and the compact state holding every valid rule set.

use hatsuden::*;

fn rules(max_value: u32, city_demand: u32) -> Rules {
    Rules { max_value, city_demand, ..Rules::STANDARD }
}

#[test]
fn r31_max_value_above_11_names_max_value() {
    let (field, message) = rules(12, 20).validate().unwrap_err();
    assert_eq!(field, "max_value");
    assert!(message.contains("must be <= 11, got 12") && message.contains("(R2, R31)"), "{message}");
    // The cross-field condition is checked first: with city_demand 10 its message stays.
    let (field, message) = rules(12, 10).validate().unwrap_err();
    assert_eq!(field, "max_value");
    assert!(message.contains("city_demand + 1 = 11"), "{message}");
    assert!(rules(11, 10).validate().is_ok());
    let e = parse_rules("5/12/2/5/20/-/city_points/retake/20").unwrap_err();
    assert_eq!((e.field.as_str(), e.position), ("rules", 2));
    assert!(e.message.starts_with("max_value: must be <= 11"), "{}", e.message);
    let e = rules(12, 20).tables().unwrap_err();
    assert_eq!(e.field, "max_value");
}

#[test]
fn r2_a_card_value_above_11_is_refused_where_it_is_read() {
    for (text, position) in [("C S12 0S", 3), ("DX W99", 4), ("I B123456789 1B", 3)] {
        let e = parse_move(text, None).unwrap_err();
        assert_eq!((e.field.as_str(), e.position), ("move", position), "{text}");
        assert_eq!(e.message, "a card value is at most 11 (R2)", "{text}");
    }
    // Under rules with values up to 11, S11 is a card in play; under STANDARD it is not (R2).
    let big = rules(11, 10);
    assert_eq!(parse_move("C S11 0S", Some(&big)).unwrap().format(), "C S11 0S");
    let e = parse_move("C S11 0S", Some(&Rules::STANDARD)).unwrap_err();
    assert_eq!(e.position, 2);
    let doc = r#"{"type":"move","format_version":1,"move":"C S12 0S"}"#;
    match from_json(doc, Some("move")).unwrap_err() {
        Error::Json(j) => assert_eq!(j.path, "$.move"),
        other => panic!("{other:?}"),
    }
    let doc = r#"{"type":"rules","format_version":1,"energies":5,"max_value":12,"copies":2,"hand_size":5,"city_demand":20,"techs":[],"tiebreak":"city_points","allow_retake_discard":true,"stall_limit":20}"#;
    match from_json(doc, Some("rules")).unwrap_err() {
        Error::Json(j) => assert_eq!(j.path, "$.max_value"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn every_valid_card_count_is_held_natively() {
    // 5 energies x values 1..11: 55 distinct cards, stacks of up to 22 cards (R2, R12, R13).
    let big = Rules { max_value: 11, copies: 3, hand_size: 8, city_demand: 10, ..Rules::STANDARD };
    let mut buf = Vec::new();
    let mut longest = 0;
    for seed in 0..40 {
        for full in [true, false] {
            let s = new_game(&big, Some(seed)).unwrap();
            let (end, plies) = s.playout(&mut SplitMix64::new(seed), 20_000, &mut buf);
            assert!(plies > 0);
            let text = format_state(&end);
            assert_eq!(format_state(&parse_state(&text).unwrap()), text);
            let packer = hatsuden::packed::Packer::new(&big, full).unwrap();
            let explicit = new_game(&big, None).unwrap();
            let mut words = vec![0u64; packer.words()];
            packer.pack(&explicit, &mut words);
            assert_eq!(packer.unpack(&words), if full { explicit } else { explicit.position() });
            for p in 0..2 {
                longest = longest.max(end.board(p).iter().map(|st| st.cards().len()).max().unwrap_or(0));
            }
        }
    }
    assert!(longest >= 2, "some stack was improved");
    // The longest stack: 1..11, downsized to 1, improved again to 11 (2 x max_value cards).
    let stack: Vec<String> = (1..=11).chain(1..=11).map(|v| format!("S{v}")).collect();
    let text = format!(
        "rules=1/11/2/1/10/DWN/city_points/retake/20 phase=action current_player=0 hands=-/- deck=- \
         discards=- boards=v{};./.;. tech_deck=- tech_hands=-/- accumulator=- smart=- played_cell=- \
         turn_discard=- pending_chance=- stall_count=0 end_triggered_by=- end_reason=- rng_state=- \
         known_cards=-/- this_turn=[] last_turn=[]",
        stack.join("+")
    );
    let s = parse_state(&text).unwrap();
    assert_eq!(s.board(0)[0].cards().len(), STACK_CAP);
    assert_eq!(format_state(&s), text);
    assert_eq!(s.legal_moves_vec(), vec![Move::Pass]);
    let packer = hatsuden::packed::Packer::new(s.rules(), true).unwrap();
    let mut words = vec![0u64; packer.words()];
    packer.pack(&s, &mut words);
    assert_eq!(packer.unpack(&words), s);
}

#[test]
fn copies_beyond_one_byte_are_refused_naming_copies() {
    let r = Rules { energies: 1, max_value: 1, copies: 256, hand_size: 1, city_demand: 1, ..Rules::STANDARD };
    assert!(r.validate().is_ok());
    let e = new_game(&r, None).unwrap_err();
    assert_eq!(e.field, "copies");
    assert!(e.message.contains("beyond the native engine's capacity"), "{}", e.message);
    let ok = Rules { copies: 255, ..r };
    let s = new_game(&ok, Some(1)).unwrap();
    assert_eq!(s.deck_size() + s.hand_size(0) + s.hand_size(1), 255);
    let e = parse_state(&format_state(&s).replace("1/1/255/", "1/1/256/")).unwrap_err();
    assert_eq!(e.field, "rules");
    assert!(e.message.starts_with("copies: beyond the native engine's capacity"), "{}", e.message);
}

#[test]
fn r31_conditions_in_order() {
    let base = Rules::STANDARD;
    let refused = |r: Rules| r.validate().unwrap_err().0;
    // RULES.md R31's own examples: field ranges first, then energies, then max_value, then decks.
    assert_eq!(refused(Rules { energies: 6, stall_limit: Some(0), ..base }), "stall_limit");
    let r = Rules { energies: 1, max_value: 3, copies: 1, hand_size: 9, city_demand: 1, ..base };
    assert_eq!(refused(r), "max_value");
    assert_eq!(refused(Rules { energies: 6, max_value: 12, ..base }), "energies");
    assert_eq!(refused(Rules { max_value: 12, city_demand: 20, hand_size: 500, ..base }), "max_value");
    assert_eq!(refused(Rules { energies: 0, max_value: 0, ..base }), "energies");
    assert_eq!(refused(Rules { hand_size: 21, ..base }), "hand_size");
}

/// A small grid of `energies` x `max_value` with `copies` of each card (hands of two, cities of
/// 8, a stall limit of 6), for the packing round trips.
fn small_grid(energies: u32, max_value: u32, copies: u32) -> Rules {
    Rules { energies, max_value, copies, hand_size: 2, city_demand: 8, stall_limit: Some(6), ..Rules::STANDARD }
}

/// Packs and unpacks every state of the explicit-chance random games of `seeds` under `r` (at
/// most `plies` plies each), full and by position (R6, R36), each equal to the state it was
/// packed from; `seen` is shown every state.
fn packed_round_trips(r: &Rules, seeds: std::ops::Range<u64>, plies: usize, mut seen: impl FnMut(&State)) {
    for full in [true, false] {
        let packer = hatsuden::packed::Packer::new(r, full).unwrap();
        let mut words = vec![0u64; packer.words()];
        for seed in seeds.clone() {
            let mut g = SplitMix64::new(seed);
            let mut s = new_game(r, None).unwrap();
            for _ in 0..plies {
                packer.pack(&s, &mut words);
                assert_eq!(packer.unpack(&words), if full { s } else { s.position() }, "{}", format_state(&s));
                seen(&s);
                if s.is_over() {
                    break;
                }
                let moves = s.legal_moves_vec();
                s = s.apply(moves[(g.next() % moves.len() as u64) as usize]).unwrap();
            }
        }
    }
}

/// The packed form's tail holds the turn's discard in as many bits as the largest card number
/// needs: every state of explicit-chance random games round-trips, for rule sets whose number
/// of distinct cards is one less than a power of two (3, 7 and 15: the width where a bit too
/// few or a tail misplaced by one shows) and for others, the end trigger after it included.
#[test]
fn every_state_round_trips_through_the_packed_form_at_every_card_count() {
    // (energies, max_value, copies): enough cards to fill both grids.
    let sets = [(3, 1, 6), (1, 3, 4), (1, 7, 2), (3, 5, 2), (5, 3, 2), (2, 2, 3), (5, 4, 2)];
    for (energies, max_value, copies) in sets {
        let mut discarded = false;
        let mut triggered = false;
        packed_round_trips(&small_grid(energies, max_value, copies), 0..30, usize::MAX, |s| {
            let text = format_state(s);
            discarded |= !text.contains("turn_discard=-");
            triggered |= !text.contains("end_triggered_by=-");
        });
        assert!(discarded, "{energies}x{max_value}: the games reached a discard");
        assert!(triggered, "{energies}x{max_value}: the games reached an end trigger");
    }
}

/// Card counts of up to 255 copies (R31; the native engine's capacity) take 8 bits each in the
/// packed form: with few distinct cards and many copies the counts of the hands, deck and
/// discards outweigh the grids, and every state of explicit-chance random games still
/// round-trips through the packed form, full and by position (R6, R36).
#[test]
fn states_with_many_copies_round_trip_through_the_packed_form() {
    // (energies, max_value, copies)
    for (energies, max_value, copies) in [(1, 2, 63), (1, 3, 255), (2, 2, 255), (1, 1, 255)] {
        packed_round_trips(&small_grid(energies, max_value, copies), 0..4, 400, |_| {});
    }
}

/// The packed form's size is a bound every consistent state fits in (NOTATION.md, "Consistency
/// conditions of a state": the turn logs are not compared with the rest, so each may hold its
/// full 16 moves): under a rule set of 255 copies of two cards and a stall limit of 2^28 - 1,
/// a state with every cell built and both logs full, the known cards kept (R36), round-trips.
#[test]
fn a_state_with_full_grids_and_full_turn_logs_round_trips_through_the_packed_form() {
    let r = parse_rules("2/1/255/2/1/-/city_points/retake/268435455").unwrap();
    let packer = hatsuden::packed::Packer::new(&r, true).unwrap();
    let mut words = vec![0u64; packer.words()];
    let logs = format!("this_turn=[{0}] last_turn=[{0}]", vec!["DD"; 16].join(", "));
    let mut found = 0;
    for seed in 0..20 {
        let mut g = SplitMix64::new(seed);
        let mut s = new_game(&r, None).unwrap();
        while !s.is_over() {
            if (0..2).all(|p| s.board(p).iter().all(|st| !st.cards().is_empty())) {
                let text = format_state(&s);
                let at = text.find("this_turn=").unwrap();
                let full = parse_state(&format!("{}{logs}", &text[..at])).unwrap();
                packer.pack(&full, &mut words);
                assert_eq!(packer.unpack(&words), full, "{}", format_state(&full));
                found += 1;
            }
            let moves = s.legal_moves_vec();
            s = s.apply(moves[(g.next() % moves.len() as u64) as usize]).unwrap();
        }
    }
    assert!(found > 0);
}

/// The packed form's size (`Packer::words`), on which the model checker's memory figures rest
/// (hatsuden-check README, "How": 4 words for a position of `huge`, about a dozen for a full
/// state): a position of `huge` takes 4 words, a full state of the named configurations (R31,
/// "Reduced configurations") at most 12, and a full state of the widest rule set the native
/// engine holds (5 energies of values 1..11, 255 copies, no stall limit, R31) at most 128, the
/// scratch into which the checker's symmetry reduction packs a state's images
/// (`hatsuden-check`'s `symmetry::MAX_WORDS`).
#[test]
fn r31_the_packed_form_takes_the_checkers_words() {
    let words = |r: &Rules, full: bool| hatsuden::packed::Packer::new(r, full).unwrap().words();
    let medium = Rules {
        energies: 2,
        max_value: 2,
        copies: 1,
        hand_size: 1,
        city_demand: 2,
        techs: 1 << SMART,
        tiebreak: Tiebreak::CityPoints,
        allow_retake_discard: false,
        stall_limit: Some(2),
        tech_timing: TechTiming::Keep,
        overflow: Overflow::OneAtATime,
    };
    let choice = Rules { hand_size: 2, techs: 0b1111, ..medium };
    let huge = Rules { copies: 2, ..choice };
    let small = Rules { energies: 1, max_value: 2, copies: 2, hand_size: 1, city_demand: 1, techs: 1, ..medium };
    assert_eq!(words(&huge, false), 4);
    for r in [small, medium, choice, huge] {
        assert!(words(&r, true) <= 12, "{}: {} words", r.format(), words(&r, true));
    }
    let widest = Rules { max_value: 11, copies: MAX_COPIES, stall_limit: None, ..Rules::STANDARD };
    assert!(words(&widest, true) <= 128, "{} words", words(&widest, true));
}

/// R31: the deck of `energies x max_value x copies` plant cards must deal two hands: 12 cards
/// deal two hands of 6, not of 7 (refused naming `hand_size`, with the Python library's message).
#[test]
fn r31_the_deck_deals_two_hands() {
    let r = |hand_size| Rules { energies: 1, max_value: 3, copies: 4, hand_size, city_demand: 4, ..Rules::STANDARD };
    assert!(r(6).validate().is_ok());
    let (field, message) = r(7).validate().unwrap_err();
    assert_eq!(field, "hand_size");
    assert_eq!(message, "the deck of 12 cards cannot deal two hands of 7 (R31)");
}

/// R36: a packer made by position (`full` false) drops the logs and known cards, one made full
/// keeps them, and says which (`Packer::full`, which the checker reads to swap the logs too).
#[test]
fn r36_a_packer_says_whether_it_keeps_the_logs() {
    for full in [true, false] {
        let packer = hatsuden::packed::Packer::new(&Rules::STANDARD, full).unwrap();
        assert_eq!(packer.full(), full);
        let s = new_game(&Rules::STANDARD, None).unwrap();
        let s = s.apply(s.legal_moves_vec()[0]).unwrap();
        let mut words = vec![0u64; packer.words()];
        packer.pack(&s, &mut words);
        assert_eq!(packer.unpack(&words), if full { s } else { s.position() });
    }
}

/// The packed form's size is that of its layout, field by field (the layout `Packer::pack`
/// documents; R31 gives the widths, R36 what a full state adds): the header (phase, player,
/// pending, end reason: 8 bits), the four list lengths (`bits(total cards)` each), the counts of
/// the hands, deck and discards (`bits(copies)` each), every cell of both grids (4 flags, the
/// length in `bits(2 x max_value)`, room for `2 x max_value` cards of `bits(kinds - 1)` bits,
/// R11-R13), the tail (tech deck and hands, Accumulator, Smart, played cell: 22 bits, the turn's
/// discard in `bits(kinds + 1)`, the end trigger: 2), the stall counter (`bits(limit + 1)`, 32
/// without a limit) and the seeded flag; full, the known cards' counts and the two turn logs (a
/// length of 5 bits, 16 moves of 16). `Packer::words` is that size in 64-bit words: it is part of
/// the packed format, which the model checker stores (its bucket files hold the packed words, its
/// fingerprints hash them; hatsuden-check README, "How"). Checked over the rule sets of every
/// grid, several copy counts and stall limits, and pinned where the layout ends one bit past a
/// word (1/3/2 full with a stall limit of 2^22: 705 bits) or exactly on one (1/4/1 by position
/// without a stall limit: 192 bits).
#[test]
fn r31_r36_the_packed_form_has_the_size_of_its_layout() {
    let bits = |x: u64| 64 - x.leading_zeros();
    let layout = |r: &Rules, full: bool| {
        let kinds = (r.energies * r.max_value) as u64;
        let cap = 2 * r.max_value;
        let card_bits = bits(kinds - 1).max(1);
        let count_bits = bits(r.copies as u64);
        let mut n = 8 + 4 * bits(r.card_count());
        n += 4 * kinds as u32 * count_bits;
        n += 2 * 2 * r.energies * (4 + bits(cap as u64) + cap * card_bits);
        n += 22 + bits(kinds + 1) + 2;
        n += r.stall_limit.map_or(32, |l| bits(l as u64 + 1)) + 1;
        if full {
            n += 2 * kinds as u32 * count_bits + 2 * (5 + 16 * 16);
        }
        n.div_ceil(64) as usize
    };
    let words = |r: &Rules, full: bool| hatsuden::packed::Packer::new(r, full).unwrap().words();
    let mut checked = 0;
    for energies in 1..=5 {
        for max_value in 1..=11 {
            for copies in [1, 2, 3, 4, 5, 8, 16, 255] {
                for stall_limit in [None, Some(1), Some(6), Some(20), Some(1 << 22), Some(u32::MAX)] {
                    let r = Rules {
                        energies,
                        max_value,
                        copies,
                        hand_size: 1,
                        city_demand: max_value,
                        stall_limit,
                        ..Rules::STANDARD
                    };
                    if r.card_count() < 2 || r.card_count() > MAX_CARDS {
                        continue;
                    }
                    for full in [false, true] {
                        assert_eq!(words(&r, full), layout(&r, full), "{} full={full}", r.format());
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 3000, "{checked}");
    let one_past = Rules {
        energies: 1,
        max_value: 3,
        copies: 2,
        hand_size: 1,
        city_demand: 3,
        stall_limit: Some(1 << 22),
        ..Rules::STANDARD
    };
    assert_eq!(words(&one_past, true), 12);
    let exact = Rules {
        energies: 1,
        max_value: 4,
        copies: 1,
        hand_size: 1,
        city_demand: 4,
        stall_limit: None,
        ..Rules::STANDARD
    };
    assert_eq!(words(&exact, false), 3);
}

/// Under `any_set` (R41) the overflow is resolved by one `FlipSet` move, which the turn logs keep
/// (R36) like any other move: every state of explicit-chance random games round-trips through
/// the full packed form, those whose logs hold a FlipSet included.
#[test]
fn r36_r41_a_flipset_in_the_turn_logs_round_trips_through_the_packed_form() {
    let rules = [
        parse_rules("3/3/2/3/4/ACC+SEC+SMT+DWN/city_points/retake/6/any_set").unwrap(),
        Rules { overflow: Overflow::AnySet, ..small_grid(2, 3, 3) },
    ];
    let mut with_flipset = 0;
    for r in &rules {
        let packer = hatsuden::packed::Packer::new(r, true).unwrap();
        let mut words = vec![0u64; packer.words()];
        for seed in 0..200 {
            let mut g = SplitMix64::new(seed);
            let mut s = new_game(r, None).unwrap();
            while !s.is_over() {
                let moves = s.legal_moves_vec();
                s = s.apply(moves[(g.next() % moves.len() as u64) as usize]).unwrap();
                packer.pack(&s, &mut words);
                let text = format_state(&s);
                assert_eq!(packer.unpack(&words), s, "{text}");
                with_flipset += usize::from(text[text.find("this_turn=").unwrap()..].contains("FS "));
            }
        }
    }
    assert!(with_flipset > 20, "{with_flipset} states whose logs hold a FlipSet");
}
