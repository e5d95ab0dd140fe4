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
