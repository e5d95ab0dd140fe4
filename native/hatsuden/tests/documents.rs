//! A malformed state document names the JSON path of the item at fault (NOTATION.md, "JSON
//! documents"), as the Python library does (`$.hands[0][1]: ...`).

use hatsuden::json::{parse, Json};
use hatsuden::{from_json, new_game, parse_state, to_json, Document, Error, Rules};

/// The state document of `seed` (None: before the deal, explicit chance) with `edit` applied
/// to the list `key`, a list of lists if `inner` is given.
fn edited(seed: Option<u64>, key: &str, inner: Option<usize>, edit: impl FnOnce(&mut Vec<Json>)) -> String {
    let state = new_game(&Rules::STANDARD, seed).unwrap();
    let mut doc = parse(&to_json(&Document::State(Box::new(state)))).unwrap();
    let Json::Obj(items) = &mut doc else { panic!("a state document is an object") };
    let (_, value) = items.iter_mut().find(|(k, _)| k == key).expect("the key");
    let Json::Arr(list) = value else { panic!("a list") };
    let list = match inner {
        Some(i) => match &mut list[i] {
            Json::Arr(l) => l,
            _ => panic!("a list of lists"),
        },
        None => list,
    };
    edit(list);
    doc.to_text()
}

/// The state document of the seeded deal 3 with `hands[player][k]` replaced by `card`.
fn with_hand_card(player: usize, k: usize, card: &str) -> String {
    edited(Some(3), "hands", Some(player), |hand| hand[k] = Json::str(card))
}

fn refused_at(text: &str) -> String {
    match from_json(text, Some("state")) {
        Err(Error::Json(e)) => e.path,
        other => panic!("expected a JSON document error, got {other:?}"),
    }
}

/// R2: the cards of a hand are cards in play, listed in canonical order; the error names the
/// card's place in the document.
#[test]
fn r2_a_bad_card_in_a_hand_is_refused_at_its_path() {
    assert!(from_json(&with_hand_card(0, 0, "S2"), Some("state")).is_ok(), "the deal itself");
    assert_eq!(refused_at(&with_hand_card(0, 1, "S1")), "$.hands[0][1]");
    assert_eq!(refused_at(&with_hand_card(1, 2, "S9")), "$.hands[1][2]");
}

/// R3: there is one copy of each tech card: one held by a player and still in the tech deck is
/// refused where it is found the second time.
#[test]
fn r3_a_tech_card_in_two_places_is_refused() {
    let smart = edited(Some(3), "tech_hands", Some(0), |hand| hand.push(Json::str("smart")));
    assert_eq!(refused_at(&smart), "$.tech_hands[0][0]");
    let down = edited(Some(3), "tech_hands", Some(1), |hand| hand.push(Json::str("down")));
    assert_eq!(refused_at(&down), "$.tech_hands[1][0]");
    // In state notation, at the tech card itself (positions as the reference gives them), not at
    // the field's key.
    for (to, position) in [("tech_hands=-/SMT", 242), ("tech_hands=SEC/-", 240)] {
        let e = parse_state(&THREE_ENERGIES.replace("tech_hands=-/-", to)).unwrap_err();
        assert_eq!((e.field.as_str(), e.position), ("tech_hands", position), "{to}: {}", e.message);
        assert!(e.message.contains("(R3)"), "{to}: {}", e.message);
    }
}

/// R7: nothing is played during the deal: a discarded card before it is refused.
#[test]
fn r7_a_discard_before_the_deal_is_refused() {
    let text = edited(None, "deck", None, |deck| {
        deck.remove(0);
    });
    let text = {
        let mut doc = parse(&text).unwrap();
        let Json::Obj(items) = &mut doc else { panic!("an object") };
        let (_, discards) = items.iter_mut().find(|(k, _)| k == "discards").expect("discards");
        *discards = Json::Arr(vec![Json::str("S1")]);
        doc.to_text()
    };
    assert_eq!(refused_at(&text), "$.pending_chance");
}

/// R7: no tech card is drawn during the deal: one in a player's hand before it is refused.
#[test]
fn r7_a_tech_card_held_before_the_deal_is_refused() {
    let text = edited(None, "tech_deck", None, |deck| deck.retain(|x| x.as_str() != Some("down")));
    let text = {
        let mut doc = parse(&text).unwrap();
        let Json::Obj(items) = &mut doc else { panic!("an object") };
        let (_, hands) = items.iter_mut().find(|(k, _)| k == "tech_hands").expect("tech_hands");
        *hands = Json::Arr(vec![Json::Arr(vec![Json::str("down")]), Json::Arr(vec![])]);
        doc.to_text()
    };
    assert_eq!(refused_at(&text), "$.pending_chance");
}

/// R7: the Accumulator cannot lie on the board before the deal.
#[test]
fn r7_an_accumulator_placed_before_the_deal_is_refused() {
    let text = edited(None, "tech_deck", None, |deck| deck.retain(|x| x.as_str() != Some("accumulator")));
    let text = {
        let mut doc = parse(&text).unwrap();
        let Json::Obj(items) = &mut doc else { panic!("an object") };
        let (_, accumulator) = items.iter_mut().find(|(k, _)| k == "accumulator").expect("accumulator");
        *accumulator = parse(r#"{"player":0,"row":0}"#).unwrap();
        doc.to_text()
    };
    assert_eq!(refused_at(&text), "$.pending_chance");
}

/// A rule set may describe at most 4,096 plant cards (R31, NOTATION.md): exactly that many is
/// read (4 energies, values 1-8, 128 copies), one more copy of each card is refused at `copies`.
#[test]
fn r31_a_rules_document_describes_at_most_4096_plant_cards() {
    let rules = |copies: u32| {
        let r = Rules { energies: 4, max_value: 8, copies, ..Rules::STANDARD };
        to_json(&Document::Rules(r))
    };
    assert!(matches!(from_json(&rules(128), Some("rules")), Ok(Document::Rules(r)) if r.card_count() == 4096));
    match from_json(&rules(129), Some("rules")) {
        Err(Error::Json(e)) => {
            assert_eq!(e.path, "$.copies", "{e}");
            assert!(e.message.contains("(4096)"), "{e}");
        }
        other => panic!("expected a JSON document error, got {other:?}"),
    }
}

/// R9, R22 (consistency condition 17): after the action, and so while its draw is still to be
/// dealt (CHANCE with a pending draw), the mover holds fewer than `hand_size` cards. A card
/// moved from the deck into the mover's hand keeps every card counted, and is refused at the
/// mover's hand, where the reference refuses it (position 85).
#[test]
fn r9_r22_a_full_hand_while_the_draw_is_pending_is_refused() {
    let before = "rules=5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20 phase=chance current_player=1 \
        hands=G1,G4,W4,B2,B3/S1,H4,B3,B4 deck=S1,S2,S2,S3,S4,S4,G1,G2,G2,G3,G3,G4,W1,W1,W2,W2,W3,W3,W4,H1,H1,\
        H2,H2,H3,H3,H4,B1,B1,B2,B4 discards=- boards=.,.,.,.,.;.,.,.,.,./.,.,.,.,.;.,.,.,.,#S3 \
        tech_deck=ACC,SEC,SMT,DWN tech_hands=-/- accumulator=- smart=- played_cell=1B turn_discard=- \
        pending_chance=draw stall_count=1 end_triggered_by=- end_reason=- rng_state=- known_cards=G1/- \
        this_turn=[P S3 1B, DD] last_turn=[X G1, DX G1]";
    assert!(parse_state(before).is_ok(), "the state before the edit is consistent");
    let full = before.replace("/S1,H4,B3,B4", "/S1,S2,H4,B3,B4").replace("S1,S2,S2,S3", "S1,S2,S3");
    let e = parse_state(&full).unwrap_err();
    assert_eq!((e.field.as_str(), e.position), ("hands", 85), "{}", e.message);
    assert!(e.message.contains("fewer than hand_size cards (R9, R22)"), "{}", e.message);
}

/// The state of the turn-log test of `positions_and_records.rs` (three energies, a face-up
/// stack at `boards[0][2]`, a pylon at `boards[0][5]`).
const THREE_ENERGIES: &str = "rules=3/4/2/3/10/ACC+SEC+SMT+DWN/city_points/retake/20 phase=action current_player=1 \
    hands=S3,G3,G3/G1,W1,W2 deck=S1,S3,S4,S4,G1,G2,G2,G4,G4,W3,W3,W4,W4 discards=S1 \
    boards=.,.,W1;.,.,#S2/.,#W2,#S2;.,.,. tech_deck=ACC,SEC,SMT,DWN tech_hands=-/- accumulator=- \
    smart=- played_cell=- turn_discard=- pending_chance=- stall_count=1 end_triggered_by=- \
    end_reason=- rng_state=14727398570297873640 known_cards=-/- this_turn=[] last_turn=[X S1, DD, =S3]";

/// That state as a JSON document, with the first `edit` replaced by `to`.
fn three_energies_json(edit: &str, to: &str) -> String {
    let state = parse_state(THREE_ENERGIES).unwrap();
    let text = to_json(&Document::State(Box::new(state)));
    let edited = text.replacen(edit, to, 1);
    assert_ne!(edited, text, "{edit}");
    edited
}

/// R21, R14: a flipped stack is face down, and a pylon built from hand (face down, not flipped)
/// is one card, neither secret nor downsized; each is refused where the reference refuses it.
#[test]
fn r14_r21_a_stack_flag_that_no_move_gives_is_refused() {
    let state = parse_state(THREE_ENERGIES).unwrap();
    assert!(from_json(&to_json(&Document::State(Box::new(state))), Some("state")).is_ok());
    let face_up = r#"{"cards":["W1"],"face_down":false,"flipped":false"#;
    let flipped = three_energies_json(face_up, r#"{"cards":["W1"],"face_down":false,"flipped":true"#);
    assert_eq!(refused_at(&flipped), "$.boards[0][2].flipped");
    let pylon = r#"{"cards":["S2"],"face_down":true,"flipped":false,"secret":false"#;
    let secret = three_energies_json(pylon, r#"{"cards":["S2"],"face_down":true,"flipped":false,"secret":true"#);
    assert_eq!(refused_at(&secret), "$.boards[0][5]");
}

/// R36: each known card is a card of the hand, a card known twice is held twice: a second G1
/// known of a hand holding one is refused at the second.
#[test]
fn r36_a_card_known_twice_is_held_twice() {
    let twice = three_energies_json(r#""known_cards":[[],[]]"#, r#""known_cards":[[],["G1","G1"]]"#);
    assert_eq!(refused_at(&twice), "$.known_cards[1][1]");
    let text = THREE_ENERGIES.replace("known_cards=-/-", "known_cards=-/G1,G1");
    let e = parse_state(&text).unwrap_err();
    assert_eq!((e.field.as_str(), e.position), ("known_cards", 406), "{}", e.message);
    assert!(parse_state(&THREE_ENERGIES.replace("known_cards=-/-", "known_cards=-/G1")).is_ok());
}

/// R2: a card of the deck or of the discards that is not in play, or a copy too many, is
/// refused at that card (positions as the reference gives them), not at the field's key; so is
/// a card on a board (R2, R10-R13, R14: at the card, or at its stack).
#[test]
fn r2_a_bad_card_of_the_deck_or_discards_is_refused_at_the_card() {
    for (from, to, field, position) in [
        ("deck=S1,S3,S4,S4,G1", "deck=S1,S3,S4,S4,H1", "deck", 126),
        ("deck=S1,S3,S4,S4,G1", "deck=S1,S3,S4,S4,S4", "deck", 126),
        ("discards=S1 ", "discards=H1 ", "discards", 162),
        ("discards=S1 ", "discards=S4 ", "discards", 162),
        // On a board: at the card (a card of another column, a copy too many) or at the stack
        // (a pylon of two cards).
        (".,.,W1;", ".,.,W1+S4;", "boards", 179),
        (".,.,W1;", ".,.,W1+W2;", "boards", 193),
        (".,.,#S2/", ".,.,#S2+S3/", "boards", 183),
    ] {
        let e = parse_state(&THREE_ENERGIES.replace(from, to)).unwrap_err();
        assert_eq!((e.field.as_str(), e.position), (field, position), "{to}: {}", e.message);
    }
}

/// State notation (NOTATION.md): the two rows of a board are separated by `;`; the error names
/// what it found, as the reference does (`','` or `' '`).
#[test]
fn the_rows_of_a_board_are_separated_by_a_semicolon() {
    for (row, found) in [(".,.,W1,.,.,#S2/", "found ','"), (".,.,W1 .,.,#S2/", "found ' '")] {
        let e = parse_state(&THREE_ENERGIES.replace(".,.,W1;.,.,#S2/", row)).unwrap_err();
        assert_eq!((e.field.as_str(), e.position), ("boards", 178), "{}", e.message);
        assert!(e.message.ends_with(&format!("expected ';' between the two rows, {found}")), "{}", e.message);
    }
}

/// R7: during the deal (CHANCE, `pending_chance=setup`) player 0 is dealt its whole hand before
/// player 1 gets a card, and nothing of a turn exists yet: no known card, no stall count, no end
/// trigger, no turn log. Each is refused where the reference refuses it.
#[test]
fn r7_the_deal_comes_before_any_turn() {
    let base = "rules=5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20 phase=chance current_player=0 \
        hands=S1/- deck=S1,S2,S2,S3,S3,S4,S4,G1,G1,G2,G2,G3,G3,G4,G4,W1,W1,W2,W2,W3,W3,W4,W4,H1,H1,H2,H2,\
        H3,H3,H4,H4,B1,B1,B2,B2,B3,B3,B4,B4 discards=- boards=.,.,.,.,.;.,.,.,.,./.,.,.,.,.;.,.,.,.,. \
        tech_deck=ACC,SEC,SMT,DWN tech_hands=-/- accumulator=- smart=- played_cell=- turn_discard=- \
        pending_chance=setup stall_count=0 end_triggered_by=- end_reason=- rng_state=- known_cards=-/- \
        this_turn=[] last_turn=[]";
    assert!(parse_state(base).is_ok());
    for (from, to, field, position) in [
        ("hands=S1/- deck=S1,S2,S2", "hands=S1/S2 deck=S1,S2", "hands", 85),
        ("known_cards=-/-", "known_cards=S1/-", "pending_chance", 368),
        ("stall_count=0", "stall_count=1", "pending_chance", 368),
        ("end_triggered_by=-", "end_triggered_by=0", "pending_chance", 368),
        ("last_turn=[]", "last_turn=[DD]", "this_turn", 463),
        ("this_turn=[]", "this_turn=[DD]", "this_turn", 463),
    ] {
        let text = base.replace(from, to);
        assert_ne!(text, base);
        let e = parse_state(&text).unwrap_err();
        assert_eq!((e.field.as_str(), e.position), (field, position), "{to}: {}", e.message);
        assert!(e.message.contains("(R7)"), "{to}: {}", e.message);
    }
}

/// The rules document (NOTATION.md, "JSON documents") reads back as the rule set it describes,
/// and observation notation as the binding re-exports it is `format_observation`'s.
#[test]
fn a_rules_document_and_an_observation_text_read_back() {
    let r = Rules { energies: 3, hand_size: 3, stall_limit: None, ..Rules::STANDARD };
    assert_eq!(hatsuden::docs::rules_from_json(&to_json(&Document::Rules(r))).unwrap(), r);
    assert_eq!(hatsuden::docs::rules_from_json(&to_json(&Document::Rules(Rules::STANDARD))).unwrap(), Rules::STANDARD);
    assert!(hatsuden::docs::rules_from_json(r#"{"type":"rules","format_version":1}"#).is_err());
    let state = parse_state(THREE_ENERGIES).unwrap();
    let seen = hatsuden::observe(&state, 1);
    let text = hatsuden::docs::observation_text(&seen);
    assert!(text.starts_with("rules=3/4/2/3/10/"), "{text}");
    assert_eq!(text, hatsuden::format_observation(&seen));
}

/// A document read without an expected type names one of the known types; another is told the
/// six, at `$.type`.
#[test]
fn a_document_of_any_type_names_a_known_type() {
    for doc in [r#"{"type":"game","format_version":1}"#, r#"{"type":"record2","format_version":1}"#] {
        match from_json(doc, None) {
            Err(Error::Json(e)) => {
                assert_eq!(e.path, "$.type", "{doc}");
                assert!(e.message.contains("must be one of rules, move, state, score, observation, record"), "{e}");
            }
            other => panic!("{doc}: expected a JSON document error, got {other:?}"),
        }
    }
}

/// NOTATION.md, "JSON documents": a move document reads back as its move, with the type
/// expected or not (and through `docs::move_from_json`), and every document read back names the
/// type its `type` field gives.
#[test]
fn a_move_document_reads_back_and_every_document_names_its_type() {
    let mut buf = Vec::new();
    let mut s = new_game(&Rules::STANDARD, Some(4)).unwrap();
    let mut docs = vec![
        Document::Rules(Rules::STANDARD),
        Document::State(Box::new(s)),
        Document::Observation(Box::new(hatsuden::observe(&s, 0))),
    ];
    for _ in 0..8 {
        s.legal_moves(&mut buf);
        let m = buf[buf.len() / 2];
        let text = to_json(&Document::Move(m));
        for expected in [Some("move"), None] {
            match from_json(&text, expected) {
                Ok(Document::Move(back)) => assert_eq!(back, m, "{text}"),
                other => panic!("{text}: expected the move, got {other:?}"),
            }
        }
        assert_eq!(hatsuden::docs::move_from_json(&text).unwrap(), m, "{text}");
        docs.push(Document::Move(m));
        s = s.apply(m).unwrap();
    }
    for doc in docs {
        let text = to_json(&doc);
        let ty = parse(&text).unwrap().get("type").and_then(Json::as_str).expect("a type").to_owned();
        assert_eq!(doc.type_name(), ty, "{text}");
        assert_eq!(from_json(&text, None).unwrap().type_name(), ty, "{text}");
    }
}

/// R32, NOTATION.md ("JSON documents"): a state document's generator state is a decimal string
/// without leading zeros: `"0"` is read, `"05"` is refused at `$.rng_state`, as the reference
/// refuses it.
#[test]
fn r32_a_generator_state_has_no_leading_zero() {
    let state =
        |rng: &str| three_energies_json(r#""rng_state":"14727398570297873640""#, &format!(r#""rng_state":"{rng}""#));
    match from_json(&state("0"), Some("state")) {
        Ok(Document::State(s)) => assert!(s.rng_state().is_some(), "the state keeps its generator"),
        other => panic!("expected the state, got {other:?}"),
    }
    for bad in ["05", "00", "", "1x"] {
        assert_eq!(refused_at(&state(bad)), "$.rng_state", "{bad:?}");
    }
    // What is not a decimal is refused as such, a decimal out of range for R32's bounds (the
    // reference tells the two apart too: "expected a decimal string without leading zeros,
    // got '1x'", "must be below 2**64 (R32)").
    let message = |text: &str| match from_json(text, Some("state")) {
        Err(Error::Json(e)) => (e.path, e.message),
        other => panic!("expected a JSON document error, got {other:?}"),
    };
    for bad in ["", "1x", "x", "-5", " 5", "05"] {
        let (path, text) = message(&state(bad));
        assert_eq!(path, "$.rng_state", "{bad:?}");
        assert!(text.contains("decimal") && !text.contains("R32"), "{bad:?}: {text}");
    }
    let (path, text) = message(&state("18446744073709551616"));
    assert_eq!(path, "$.rng_state");
    assert!(text.contains("(R32)"), "{text}");
}

/// An observation document (NOTATION.md, "JSON documents") reads back as the observation it
/// describes, the observer's tech hand included: none, one or two tech cards (R3).
#[test]
fn r3_an_observation_document_with_tech_cards_reads_back() {
    for hands in ["tech_hands=ACC,SEC/DWN", "tech_hands=SEC/-", "tech_hands=ACC,SEC,DWN/-"] {
        let held: Vec<&str> = hands["tech_hands=".len()..].split(['/', ',']).filter(|x| *x != "-").collect();
        let deck: Vec<&str> = ["ACC", "SEC", "SMT", "DWN"].into_iter().filter(|x| !held.contains(x)).collect();
        let text = THREE_ENERGIES
            .replace("tech_deck=ACC,SEC,SMT,DWN", &format!("tech_deck={}", deck.join(",")))
            .replace("tech_hands=-/-", hands);
        let state = parse_state(&text).unwrap_or_else(|e| panic!("{hands}: {e}"));
        for player in 0..2 {
            let seen = hatsuden::observe(&state, player);
            let doc = to_json(&Document::Observation(Box::new(seen.clone())));
            match from_json(&doc, Some("observation")) {
                Ok(Document::Observation(back)) => assert_eq!(*back, seen, "{hands} player {player}"),
                other => panic!("{hands} player {player}: expected the observation, got {other:?}"),
            }
        }
    }
}

/// NOTATION.md, "JSON documents": a stack's `secret` and `downsized` flags (R11, R13) read back:
/// along random games that build secret and spend Down whenever they can, every state with such
/// a stack, and both players' observations of it, read back from their documents as they were.
#[test]
fn r11_r13_secret_and_downsized_stacks_read_back_from_their_documents() {
    use hatsuden::Move;
    let (mut secret, mut downsized) = (0, 0);
    let mut buf = Vec::new();
    for seed in 0..30u64 {
        let mut s = new_game(&Rules::STANDARD, Some(seed)).unwrap();
        let mut g = hatsuden::SplitMix64::new(seed + 40);
        while !s.is_over() {
            let text = hatsuden::format_state(&s);
            let board = text.split(' ').find(|f| f.starts_with("boards=")).unwrap();
            if board.contains('*') || board.contains('v') {
                secret += board.contains('*') as usize;
                downsized += board.contains('v') as usize;
                match from_json(&to_json(&Document::State(Box::new(s))), Some("state")) {
                    Ok(Document::State(back)) => assert_eq!(hatsuden::format_state(&back), text),
                    other => panic!("{text}: expected the state, got {other:?}"),
                }
                for player in 0..2 {
                    let seen = hatsuden::observe(&s, player);
                    match from_json(&to_json(&Document::Observation(Box::new(seen.clone()))), Some("observation")) {
                        Ok(Document::Observation(back)) => assert_eq!(*back, seen, "{text} player {player}"),
                        other => panic!("{text} player {player}: expected the observation, got {other:?}"),
                    }
                }
            }
            s.legal_moves(&mut buf);
            let secret = buf.iter().find(|m| matches!(m, Move::Construct { secret: true, .. }));
            let tech = secret.or(buf.iter().find(|m| matches!(m, Move::Downsize { .. } | Move::DrawTech)));
            let m = match tech {
                Some(m) => *m,
                None => buf[(g.next() % buf.len() as u64) as usize],
            };
            s = s.apply(m).unwrap();
        }
    }
    assert!(secret > 0 && downsized > 0, "secret {secret}, downsized {downsized}");
}

/// R19: the Accumulator lies in a row of a player, each 0 or 1: `accumulator=2:0` or `0:2` is
/// refused at the field's key (position 240), as the reference refuses it.
#[test]
fn r19_the_accumulator_player_and_row_are_0_or_1() {
    let base = THREE_ENERGIES.replace("tech_deck=ACC,", "tech_deck=");
    assert!(parse_state(&base.replace("accumulator=-", "accumulator=0:1")).is_ok());
    for bad in ["2:0", "0:2"] {
        let e = parse_state(&base.replace("accumulator=-", &format!("accumulator={bad}"))).unwrap_err();
        assert_eq!((e.field.as_str(), e.position), ("accumulator", 240), "{bad}: {}", e.message);
    }
}

/// R29, NOTATION.md ("JSON documents"): a score decided by the totals names the player with the
/// larger total: the other is refused at `$.winner`, as the reference refuses it; a city score
/// out of its range (R28) is refused at it with the reference's message
/// (`hatsuden_rules.from_json`, checked 2026-12-03).
#[test]
fn r29_a_score_decided_by_total_names_the_larger_total() {
    let score = |totals: [u32; 2], winner: usize| {
        format!(
            r#"{{"type":"score","format_version":1,"players":[{{"energy_points":0,"city_points":{a},"total":{a},"row_supply":[0,0],"generation":[0]}},{{"energy_points":0,"city_points":{b},"total":{b},"row_supply":[0,0],"generation":[0]}}],"winner":{winner},"decided_by":"total","energy_winners":[null],"smart":null}}"#,
            a = totals[0],
            b = totals[1]
        )
    };
    for (totals, winner) in [([1, 0], 0), ([0, 1], 1), ([2, 1], 0)] {
        match from_json(&score(totals, winner), Some("score")) {
            Ok(Document::Score(s)) => assert_eq!(s.winner, winner, "{totals:?}"),
            other => panic!("{totals:?}: expected the score, got {other:?}"),
        }
    }
    for (totals, winner) in [([1, 0], 1), ([0, 1], 0), ([2, 1], 1)] {
        match from_json(&score(totals, winner), Some("score")) {
            Err(Error::Json(e)) => assert_eq!(e.path, "$.winner", "{totals:?} {winner}: {e}"),
            other => panic!("{totals:?} {winner}: expected a JSON document error, got {other:?}"),
        }
    }
    // An integer out of its range is refused with the reference's message.
    match from_json(&score([3, 2], 0), Some("score")) {
        Err(Error::Json(e)) => {
            assert_eq!((e.path.as_str(), e.message.as_str()), ("$.players[0].city_points", "3 is out of range [-2, 2]"))
        }
        other => panic!("expected a JSON document error, got {other:?}"),
    }
}

/// R27, NOTATION.md ("JSON documents"): a score document has one generation per energy in play
/// for each player, one to five: a score of no energy, or of six, is refused at
/// `$.energy_winners`, which gives the number of energies, with the reference's message; a
/// player's `generation` of another length is refused at that player's `generation`. Path and
/// message are the reference's (`hatsuden_rules.from_json`, checked 2026-12-03).
#[test]
fn r27_a_score_document_has_one_to_five_energies() {
    let score = |gens: [usize; 2], winners: &str| {
        let g = gens.map(|n| vec!["0"; n].join(","));
        format!(
            r#"{{"type":"score","format_version":1,"players":[{{"energy_points":0,"city_points":1,"total":1,"row_supply":[0,0],"generation":[{}]}},{{"energy_points":0,"city_points":0,"total":0,"row_supply":[0,0],"generation":[{}]}}],"winner":0,"decided_by":"total","energy_winners":[{winners}],"smart":null}}"#,
            g[0], g[1]
        )
    };
    assert!(matches!(from_json(&score([1, 1], "null"), Some("score")), Ok(Document::Score(_))));
    assert!(matches!(from_json(&score([5, 5], "null,null,null,null,null"), Some("score")), Ok(Document::Score(_))));
    let six = "null,null,null,null,null,null";
    for (gens, winners, path, message) in [
        ([0, 0], "", "$.energy_winners", "one item per energy in play (1 to 5)"),
        ([6, 6], six, "$.energy_winners", "one item per energy in play (1 to 5)"),
        ([0, 0], six, "$.energy_winners", "one item per energy in play (1 to 5)"),
        ([3, 3], "null,null", "$.players[0].generation", "expected 2 items, got 3"),
        ([2, 3], "null,null", "$.players[1].generation", "expected 2 items, got 3"),
        ([0, 0], "null", "$.players[0].generation", "expected 1 items, got 0"),
    ] {
        match from_json(&score(gens, winners), Some("score")) {
            Err(Error::Json(e)) => assert_eq!((e.path.as_str(), e.message.as_str()), (path, message), "{gens:?}"),
            other => panic!("{gens:?} [{winners}]: expected a JSON document error, got {other:?}"),
        }
    }
}
