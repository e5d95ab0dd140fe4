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

/// R40 by position (R36): a position has no turn log to show that a held Accumulator was drawn by
/// the very last move, so by position the state check keeps what the position shows (the mover
/// holds it in OVERFLOW or DRAW, its placements are the legal moves) and the step into the
/// position must be its DealTech (`_properties._fresh_problems`). By state, as strict as ever.
#[test]
fn r40_by_position_is_checked_on_the_step_into_the_position() {
    use hatsuden::{new_game, Move, State, ACCUMULATOR};
    use hatsuden_check::props::Props;
    let rules = hatsuden_check::configs::config("medium-place-at-once").unwrap();
    let holds = |s: &State| s.tech_hand(s.current_player()) & (1 << ACCUMULATOR) != 0;
    // The first state, breadth first, in which the mover holds the Accumulator, and its parent.
    let mut layer = vec![(new_game(&rules, None).unwrap(), None::<State>)];
    let (held, parent) = loop {
        if let Some(found) = layer.iter().find(|(s, _)| holds(s)) {
            break (found.0, found.1.expect("not the first state"));
        }
        assert!(layer.len() < 100_000, "no Accumulator drawn");
        layer = layer
            .iter()
            .flat_map(|(s, _)| s.legal_moves_vec().into_iter().map(move |m| (s.apply(m).unwrap(), Some(*s))))
            .collect();
    };
    let deal = Move::DealTech { tech: ACCUMULATOR };
    let place = Move::PlaceAccumulator { row: 0 };
    let moves = held.legal_moves_vec();
    assert!(moves.contains(&place));
    let r40 = |out: &[(&str, String)]| out.iter().filter(|(rule, _)| *rule == "R40").count();
    let (by_state, by_position) = (Props::new(&rules, false), Props::new(&rules, true));
    let mut out = Vec::new();
    by_state.state_violations(&held, &moves, &mut out);
    assert_eq!(r40(&out), 0, "{out:?}");
    by_position.state_violations(&held.position(), &moves, &mut out);
    assert_eq!(r40(&out), 0, "no false alarm by position: {out:?}");
    by_state.state_violations(&held.position(), &moves, &mut out);
    assert_eq!(r40(&out), 1, "by state a card held without its DealTech logged is stale");
    out.clear();
    by_position.transition_violations(&parent.position(), &deal, &held, true, &mut out);
    assert_eq!(r40(&out), 0, "{out:?}");
    // A faulty placement that leaves the card held: the position is unchanged, the step is not
    // its DealTech.
    by_position.transition_violations(&held.position(), &place, &held, false, &mut out);
    assert_eq!(r40(&out), 1, "{out:?}");
}
