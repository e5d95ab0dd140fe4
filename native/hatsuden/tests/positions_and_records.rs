//! Positions (R36) and the line and column of a record error (NOTATION.md, "Game records"):
//! details no conformance vector reaches.

use hatsuden::{new_game, parse_record, Rules, SplitMix64, State};

/// States of a few random games, every ply.
fn states() -> Vec<State> {
    let mut all = Vec::new();
    let mut moves = Vec::new();
    for seed in 0..12 {
        let mut s = new_game(&Rules::STANDARD, Some(seed)).unwrap();
        let mut g = SplitMix64::new(seed + 100);
        for _ in 0..40 {
            all.push(s);
            if s.is_over() {
                break;
            }
            s.legal_moves(&mut moves);
            s = s.apply(moves[(g.next() % moves.len() as u64) as usize]).unwrap();
        }
    }
    all
}

/// R36: two states have the same position exactly when they are equal but for their turn logs
/// and known cards: `same_position` agrees with comparing `position()`s, for states of the same
/// game and of different games (two deals differ in their hands only, with empty boards).
#[test]
fn r36_same_position_is_the_equality_of_positions() {
    let all = states();
    let mut same = 0;
    for (i, a) in all.iter().enumerate() {
        assert!(a.same_position(&a.position()));
        for b in all.iter().skip(i % 7).step_by(7) {
            let expected = a.position() == b.position();
            assert_eq!(a.same_position(b), expected, "{a:?}\n{b:?}");
            same += expected as usize;
        }
    }
    assert!(same > 0);
    let (a, b) = (new_game(&Rules::STANDARD, Some(0)).unwrap(), new_game(&Rules::STANDARD, Some(1)).unwrap());
    assert!(!a.same_position(&b), "two deals with different hands");
}

/// A malformed record names the field `record`, the position, and its line and column (1-based,
/// as the Python library gives them).
#[test]
fn a_record_error_gives_its_line_and_column() {
    let rules = "[Rules \"5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20\"]";
    for (text, position, place) in [
        ("[Hatsuden \"1\"]\n[Ru!les \"x\"]\n".to_string(), 15, "line 2, column 1:"),
        (format!("[Hatsuden \"1\"]\n{rules}\n[Seed \"7\"]\n[Result \"*\"]\n1. Q\n"), 98, "line 5, column 1:"),
        ("[Hatsuden \"9\"]\n".to_string(), 11, "line 1, column 12:"),
    ] {
        let e = parse_record(&text).unwrap_err();
        assert_eq!((e.field.as_str(), e.position), ("record", position), "{text:?}");
        assert!(e.message.starts_with(place), "{text:?}: {}", e.message);
    }
}
