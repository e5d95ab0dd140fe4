//! A malformed state document names the JSON path of the item at fault (NOTATION.md, "JSON
//! documents"), as the Python library does (`$.hands[0][1]: ...`).

use hatsuden::json::{parse, Json};
use hatsuden::{from_json, new_game, to_json, Document, Error, Rules};

/// The state document of the seeded deal 3 with `hands[player][k]` replaced by `card`.
fn with_hand_card(player: usize, k: usize, card: &str) -> String {
    let state = new_game(&Rules::STANDARD, Some(3)).unwrap();
    let mut doc = parse(&to_json(&Document::State(Box::new(state)))).unwrap();
    let Json::Obj(items) = &mut doc else { panic!("a state document is an object") };
    let (_, hands) = items.iter_mut().find(|(key, _)| key == "hands").expect("hands");
    let Json::Arr(hands) = hands else { panic!("hands") };
    let Json::Arr(hand) = &mut hands[player] else { panic!("a hand") };
    hand[k] = Json::str(card);
    doc.to_text()
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
