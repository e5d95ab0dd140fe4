//! The native checker proves every property the Python checker proves: the rules named in the
//! Python checker's problems (`("R..", ...)` in `modelcheck/_properties.py` (with the variant
//! checks), `_positions.py`, `_explore.py`) are exactly the rules of
//! `PROPERTIES`, and the required events are the same list.

use hatsuden_check::props::{required_events, sub_multisets, PROPERTIES};
use std::collections::BTreeSet;
use std::path::Path;

fn python_rules() -> BTreeSet<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../src/hatsuden_rules/modelcheck");
    let mut rules = BTreeSet::new();
    for file in ["_properties.py", "_positions.py", "_explore.py"] {
        let path = dir.join(file);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("the Python checker's {}: {e}", path.display()));
        // Every `"R<digits>",` (the rule of a problem tuple, on one line or split over two).
        let bytes = text.as_bytes();
        for (i, _) in text.match_indices("\"R") {
            let digits: String = text[i + 2..].chars().take_while(|c| c.is_ascii_digit()).collect();
            let after = i + 2 + digits.len();
            if !digits.is_empty() && bytes.get(after) == Some(&b'"') && bytes.get(after + 1) == Some(&b',') {
                rules.insert(format!("R{digits}"));
            }
        }
    }
    rules
}

#[test]
fn every_python_property_rule_has_a_native_property_and_back() {
    let python = python_rules();
    if python.is_empty() {
        eprintln!("the Python checker's sources were not found; nothing compared");
        return;
    }
    let native: BTreeSet<String> = PROPERTIES.iter().map(|(rule, _)| rule.to_string()).collect();
    assert_eq!(
        python,
        native,
        "Python-only: {:?}; native-only: {:?}",
        python.difference(&native).collect::<Vec<_>>(),
        native.difference(&python).collect::<Vec<_>>()
    );
}

#[test]
fn required_events_of_small_are_those_of_the_python_checker() {
    // `_result.required_events(CONFIGS["small"])`, as Python prints it.
    let small = hatsuden_check::configs::config("small").unwrap();
    let expected = [
        "decided CITY_POINTS",
        "decided SECOND_PLAYER",
        "decided TOTAL",
        "end FINAL_TURN",
        "end STALL",
        "move BuildPylon",
        "move Construct",
        "move Deal",
        "move DealTech",
        "move DeclineTech",
        "move Discard",
        "move DrawFromDeck",
        "move DrawFromDiscard",
        "move DrawTech",
        "move EndTurn",
        "move Improve",
        "move Pass",
        "move PlaceAccumulator",
        "phase ACTION",
        "phase CHANCE",
        "phase DRAW",
        "phase GAME_OVER",
        "phase TECH",
    ];
    assert_eq!(required_events(&small), expected);
}

#[test]
fn sub_multisets_follow_the_python_order() {
    // `_positions.sub_multisets((3, 3, 5))` is ((5,), (3,), (3, 5), (3, 3), (3, 3, 5)).
    let mut hand = [0u8; hatsuden::MAX_KINDS];
    hand[3] = 2;
    hand[5] = 1;
    let subs = sub_multisets(&hand, 8);
    let as_lists: Vec<Vec<usize>> =
        subs.iter().map(|v| (0..8).flat_map(|i| std::iter::repeat_n(i, v[i] as usize)).collect()).collect();
    assert_eq!(as_lists, vec![vec![5], vec![3], vec![3, 5], vec![3, 3], vec![3, 3, 5]]);
}
