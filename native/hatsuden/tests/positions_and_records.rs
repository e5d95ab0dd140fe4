//! Positions (R36) and the line and column of a record error (NOTATION.md, "Game records"):
//! details no conformance vector reaches.

use hatsuden::{
    from_json, new_game, parse_record, parse_state, record_game, to_json, Document, Rules, SplitMix64, State,
};

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
    // Explicit chance (no generator): two first deals of different cards differ in the hand
    // and the deck only, every later field being equal (R6, R7).
    let start = new_game(&Rules::STANDARD, None).unwrap();
    let outcomes = start.chance_outcomes().unwrap();
    let (a, b) = (start.apply(outcomes[0].0).unwrap(), start.apply(outcomes[1].0).unwrap());
    assert!(!a.same_position(&b) && a.same_position(&a.position()), "two first deals");
    // The deal in every order of two cards, one to each player (R7): the same deck, the hands
    // swapped or the same.
    let mut deals = vec![start];
    for _ in 0..2 {
        deals = deals
            .iter()
            .flat_map(|s| s.chance_outcomes().unwrap().into_iter().take(3).map(|(m, _, _)| s.apply(m).unwrap()))
            .collect();
    }
    let mut different = 0;
    for a in &deals {
        for b in &deals {
            assert_eq!(a.same_position(b), a.position() == b.position(), "{a:?}\n{b:?}");
            different += (a.position() != b.position()) as usize;
        }
    }
    assert!(different > 0);
    // Two states that differ only in which hand holds two cards: the same deck and all else.
    let state = new_game(&Rules::STANDARD, Some(3)).unwrap();
    let text = to_json(&Document::State(Box::new(state)));
    let hands = r#""hands":[["S2","G3","W3","W4","H1"],["G1","W1","W2","B1","B2"]]"#;
    assert!(text.contains(hands), "{text}");
    let swapped = text.replace(hands, r#""hands":[["G3","W3","W4","H1","B2"],["S2","G1","W1","W2","B1"]]"#);
    let Ok(Document::State(other)) = from_json(&swapped, Some("state")) else { panic!("{swapped}") };
    assert!(!state.same_position(&other) && state.same_position(&state));
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
        // Two turns on one line: the second starts where the first ended (DD), as in Python.
        (
            format!(
                "[Hatsuden \"1\"]\n{rules}\n[Seed \"5\"]\n[Result \"*\"]\n\n1. C S1 0S, DD\n2. C G1 0G, DD, C G2 0G, DD\n4. C W4 0W, DT, DD\n"
            ),
            130,
            "line 7, column 17: the turn ends here",
        ),
        // A move that does not read, at its own error's column within the line.
        (format!("[Hatsuden \"1\"]\n{rules}\n[Seed \"5\"]\n[Result \"*\"]\n\n1. C S1 0S, C S9 0S, DD\n"), 113, "line 6, column 15:"),
        // A turn that does not end with its draw, followed by another line.
        (
            format!("[Hatsuden \"1\"]\n{rules}\n[Seed \"5\"]\n[Result \"*\"]\n\n1. C S1 0S\n2. C G1 0G, DD\n"),
            102,
            "line 6, column 4: a turn ends with its draw",
        ),
        // An explicit-chance record (R7) whose line 0 holds less than the deal, followed by
        // a turn.
        (
            format!("[Hatsuden \"1\"]\n{rules}\n[Seed \"-\"]\n[Result \"*\"]\n\n0. =S1, =S1, =S2\n1. C S1 0S, DD\n"),
            102,
            "line 6, column 4: the deal is 10 Deal moves",
        ),
        // A last line without its newline: refused at the end of the text, after its last move.
        (format!("[Hatsuden \"1\"]\n{rules}\n[Seed \"5\"]\n[Result \"*\"]\n\n1. C S1 0S, DD"), 113, "line 6, column 15: expected ', ' or the end of the line"),
    ] {
        let e = parse_record(&text).unwrap_err();
        assert_eq!((e.field.as_str(), e.position), ("record", position), "{text:?}");
        assert!(e.message.starts_with(place), "{text:?}: {}", e.message);
    }
}

/// A player's name in a record has 1 to `MAX_NAME` printable characters (NOTATION.md, "Game
/// records"): a name one character too long, or one with a character that is not printable, is
/// refused at its place, whatever else it holds.
#[test]
fn a_record_name_is_short_and_printable() {
    let record = |name: &str| {
        format!(
            "[Hatsuden \"1\"]\n[Rules \"5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20\"]\n\
             [Seed \"5\"]\n[Player0 \"{name}\"]\n[Player1 \"b\"]\n[Result \"*\"]\n"
        )
    };
    let longest = "n".repeat(hatsuden::records::MAX_NAME);
    let read = parse_record(&record(&longest)).unwrap();
    assert_eq!(read.players.as_ref().map(|p| p[0].clone()), Some(longest.clone()));
    // Printable is the reference's `str.isprintable` at Unicode 14.0.0 (hatsuden::printable):
    // letters, marks and symbols of any script and the space are; a control, a format character
    // (the zero-width space), a separator other than the space (no-break, ideographic, line), a
    // private-use, an unassigned code point and a noncharacter are not.
    for good in ["Zo\u{eb}", "\u{674e} \u{5c0f}\u{9f8d}", "\u{1F600}", "a b"] {
        let read = parse_record(&record(good)).unwrap();
        assert_eq!(read.players.as_ref().map(|p| p[0].clone()).as_deref(), Some(good));
    }
    let not_printable =
        ["a\u{7}b", "a\u{200b}b", "a\u{a0}b", "\u{3000}", "a\u{2028}", "\u{e000}", "\u{378}", "\u{ffff}"];
    for bad in [String::new(), format!("{longest}n")].into_iter().chain(not_printable.map(String::from)) {
        let text = record(&bad);
        let e = parse_record(&text).unwrap_err();
        // The position of the name's first character (its opening quote for an empty name).
        let at = text[..text.find("[Player0 ").unwrap()].chars().count() + "[Player0 \"".len();
        assert_eq!((e.field.as_str(), e.position), ("record", at), "{bad:?}: {}", e.message);
        assert!(e.message.contains("a name has 1 to"), "{bad:?}: {}", e.message);
    }
}

/// A turn log names only cards, cells, energies and tech cards in play (R1-R3, NOTATION.md
/// "State notation"): a state or an observation whose log names the fourth energy's card, cell
/// or Smart placement under three energies is refused at that log, in notation and in JSON.
#[test]
fn r1_r2_a_turn_log_names_only_what_is_in_play() {
    let text = "rules=3/4/2/3/10/ACC+SEC+SMT+DWN/city_points/retake/20 phase=action current_player=1 \
        hands=S3,G3,G3/G1,W1,W2 deck=S1,S3,S4,S4,G1,G2,G2,G4,G4,W3,W3,W4,W4 discards=S1 \
        boards=.,.,W1;.,.,#S2/.,#W2,#S2;.,.,. tech_deck=ACC,SEC,SMT,DWN tech_hands=-/- accumulator=- \
        smart=- played_cell=- turn_discard=- pending_chance=- stall_count=1 end_triggered_by=- \
        end_reason=- rng_state=14727398570297873640 known_cards=-/- this_turn=[] last_turn=[X S1, DD, =S3]";
    let state = parse_state(text).unwrap();
    let seen = hatsuden::format_observation(&hatsuden::observe(&state, 1));
    assert!(seen.contains("last_turn=[X S1, DD, "), "{seen}");
    let at = text.find("last_turn=").unwrap() + "last_turn=[".len(); // the first move
    for bad in ["X H1", "P S1 1H", "F 0H", "FS 0S+0H", "M H"] {
        let e = parse_state(&text.replace("X S1", bad)).unwrap_err();
        assert_eq!((e.field.as_str(), e.position), ("last_turn", at), "{bad}: {}", e.message);
        let e = hatsuden::parse_observation(&seen.replace("X S1", bad)).unwrap_err();
        assert_eq!(e.field, "last_turn", "{bad}: {}", e.message);
        let mut doc = to_json(&Document::State(Box::new(state)));
        doc = doc.replace("\"X S1\"", &format!("\"{bad}\""));
        match from_json(&doc, Some("state")) {
            Err(hatsuden::Error::Json(e)) => assert_eq!(e.path, "$.last_turn[0]", "{bad}: {e}"),
            other => panic!("{bad}: expected a JSON document error, got {other:?}"),
        }
    }
}

/// `record_game` refuses a name the record's text or JSON could not hold, as `players[k]` (the
/// reference's `record_game(players=...)` does too).
#[test]
fn record_game_refuses_a_name_that_is_not_printable() {
    let named =
        |a: &str, b: &str| hatsuden::record_game(&Rules::STANDARD, Some(5), &[], Some([a.to_string(), b.to_string()]));
    assert_eq!(named("Ann", "Zo\u{eb}").unwrap().players, Some(["Ann".to_string(), "Zo\u{eb}".to_string()]));
    for (a, b, field) in
        [("a\u{200b}b", "Bo", "players[0]"), ("Ann", "", "players[1]"), ("Ann", "\u{ffff}", "players[1]")]
    {
        let e = named(a, b).unwrap_err();
        assert_eq!((e.field.as_str(), e.ply), (field, None), "{a:?} {b:?}: {e}");
    }
}

/// A name in a record document is held to the same table (NOTATION.md, "Game records"), and a
/// lone surrogate escape, which JSON allows and the reference reads as a non-printable character,
/// is refused at that name; a surrogate pair is the one character it escapes.
#[test]
fn a_record_document_name_is_printable() {
    let template = hatsuden::record_game(&Rules::STANDARD, Some(5), &[], Some(["NAME".into(), "Bo".into()]))
        .map(|r| hatsuden::records::record_doc(&r).to_text())
        .unwrap();
    // `name` is JSON string content: escapes stay escapes.
    let doc = |name: &str| template.replace("\"NAME\"", &format!("\"{name}\""));
    let read = hatsuden::records::record_from_json(&doc("\\ud83d\\ude00 Zo\u{eb}")).unwrap();
    assert_eq!(read.players.as_ref().map(|p| p[0].clone()).as_deref(), Some("\u{1F600} Zo\u{eb}"));
    for bad in [r"\ud800", r"x\ud800\u0041", r"\udc00", r"a\u200bb", "a\u{a0}b", r"\u0007"] {
        match hatsuden::records::record_from_json(&doc(bad)) {
            Err(hatsuden::Error::Json(e)) => assert_eq!(e.path, "$.players[0]", "{bad:?}: {e}"),
            other => panic!("{bad:?}: {other:?}"),
        }
    }
}

/// JSON strings (crate::json): a high surrogate escape followed by an escape that is not a low
/// surrogate leaves that escape a character of its own; a lone surrogate reads as U+FFFF.
#[test]
fn a_lone_surrogate_escape_reads_as_a_noncharacter() {
    use hatsuden::json::{parse, Json, LONE_SURROGATE};
    let read = |text: &str| match parse(text).unwrap() {
        Json::Str(s) => s,
        other => panic!("{other:?}"),
    };
    assert_eq!(read(r#""x\ud800\u0041""#), format!("x{LONE_SURROGATE}A"));
    assert_eq!(read(r#""\udc00\ud800""#), format!("{LONE_SURROGATE}{LONE_SURROGATE}"));
    assert_eq!(read(r#""\ud83d\ude00""#), "\u{1F600}");
    assert_eq!(read(r#""\ud83d\n""#), format!("{LONE_SURROGATE}\n"));
    assert!(!hatsuden::printable::is_printable(LONE_SURROGATE));
    assert_eq!(hatsuden::printable::UNICODE_VERSION, "14.0.0");
}

/// A record's seed is `-` or a decimal in [0, 2**64) without leading zeros (NOTATION.md, "Game
/// records"): one digit (`0` too), many digits and the largest seed are read; a leading zero,
/// a sign, a letter, an empty seed and 2**64 are refused at the seed, each with its reason.
#[test]
fn a_record_seed_is_a_decimal_without_leading_zeros() {
    let record = |seed: &str| {
        format!(
            "[Hatsuden \"1\"]\n[Rules \"5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20\"]\n\
             [Seed \"{seed}\"]\n[Result \"*\"]\n"
        )
    };
    for (text, seed) in [("0", 0), ("7", 7), ("12", 12), ("907", 907), ("18446744073709551615", u64::MAX)] {
        assert_eq!(parse_record(&record(text)).unwrap().seed, Some(seed), "{text}");
    }
    assert_eq!(parse_record(&record("-")).unwrap().seed, None);
    let at = record("").find("[Seed ").unwrap() + "[Seed \"".len();
    for (bad, reason) in [
        ("05", "expected '-' or a decimal seed"),
        ("00", "expected '-' or a decimal seed"),
        ("+5", "expected '-' or a decimal seed"),
        ("-1", "expected '-' or a decimal seed"),
        ("1a", "expected '-' or a decimal seed"),
        ("", "expected '-' or a decimal seed"),
        ("18446744073709551616", "a seed is below 2**64"),
        ("123456789012345678901", "a seed is below 2**64"),
    ] {
        let e = parse_record(&record(bad)).unwrap_err();
        assert_eq!((e.field.as_str(), e.position), ("record", at), "{bad:?}: {}", e.message);
        assert!(e.message.contains(reason), "{bad:?}: {}", e.message);
    }
}

/// A record's result must be one the rules can give (R29): a decision by total goes to the
/// higher total, a tie-break decides equal totals only, the second-player rule makes player 1
/// win. The text is refused at the result tag, the JSON document at the result's field.
#[test]
fn r29_a_record_result_is_possible() {
    let tags = "[Hatsuden \"1\"]\n[Rules \"5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20\"]\n[Seed \"5\"]\n";
    let good = [
        "winner=0 decided_by=total totals=5:3 end_reason=final_turn",
        "winner=1 decided_by=total totals=2:4 end_reason=stall",
        "winner=0 decided_by=city_points totals=3:3 end_reason=final_turn",
        "winner=1 decided_by=second_player totals=3:3 end_reason=final_turn",
    ];
    let bad = [
        ("winner=1 decided_by=total totals=5:3 end_reason=final_turn", "winner", "higher total"),
        ("winner=0 decided_by=total totals=2:4 end_reason=final_turn", "winner", "higher total"),
        ("winner=0 decided_by=total totals=3:3 end_reason=final_turn", "winner", "higher total"),
        ("winner=1 decided_by=total totals=3:3 end_reason=final_turn", "winner", "higher total"),
        ("winner=0 decided_by=city_points totals=4:3 end_reason=final_turn", "decided_by", "equal totals only"),
        ("winner=1 decided_by=second_player totals=3:2 end_reason=final_turn", "decided_by", "equal totals only"),
        ("winner=0 decided_by=second_player totals=3:3 end_reason=final_turn", "winner", "player 1 win"),
    ];
    let text = |result: &str| format!("{tags}[Result \"{result}\"]\n");
    for result in good {
        let read = parse_record(&text(result)).unwrap();
        assert_eq!(hatsuden::records::format_record(&read).lines().nth(3), Some(&*format!("[Result \"{result}\"]")));
    }
    let at = text("").find("[Result ").unwrap() + "[Result \"".len();
    for (result, field, reason) in bad {
        let e = parse_record(&text(result)).unwrap_err();
        assert_eq!((e.field.as_str(), e.position), ("record", at), "{result}: {}", e.message);
        assert!(e.message.contains(reason), "{result}: {}", e.message);
        // The same result in a record document, refused at `$.result.<field>`.
        let doc = hatsuden::records::record_doc(&parse_record(&text("*")).unwrap()).to_text();
        let words: Vec<&str> = result.split(' ').map(|w| w.split('=').nth(1).unwrap()).collect();
        let totals: Vec<&str> = words[2].split(':').collect();
        let json = doc.replace(
            "\"result\":null",
            &format!(
                "\"result\":{{\"winner\":{},\"decided_by\":\"{}\",\"totals\":[{},{}],\"end_reason\":\"{}\"}}",
                words[0], words[1], totals[0], totals[1], words[3]
            ),
        );
        assert_ne!(json, doc, "the document holds its result as null");
        let e = hatsuden::records::record_from_json(&json).unwrap_err();
        assert!(e.to_string().contains(&format!("$.result.{field}")), "{result}: {e}");
    }
}

/// A seeded record of a game stopped inside a turn (NOTATION.md, "Game records"): the turn so
/// far is written on its own numbered line, turn 1 for the first, and reads back.
#[test]
fn a_record_ends_with_the_turn_in_progress() {
    let mut moves = Vec::new();
    for plies in 1..6 {
        let mut s = new_game(&Rules::STANDARD, Some(11)).unwrap();
        let mut played = Vec::new();
        for _ in 0..plies {
            s.legal_moves(&mut moves);
            played.push(moves[0]);
            s = s.apply(moves[0]).unwrap();
        }
        let record = record_game(&Rules::STANDARD, Some(11), &played, None).unwrap();
        let text = hatsuden::records::format_record(&record);
        let last = text.lines().last().unwrap();
        let turns = text.lines().filter(|l| l.chars().next().is_some_and(|c| c.is_ascii_digit())).count();
        assert!(last.starts_with(&format!("{turns}. ")), "{plies} plies: {text}");
        assert!(turns >= 1 && last.starts_with(|c: char| c != '0'), "{plies} plies: {text}");
        assert_eq!(parse_record(&text).unwrap().moves, played, "{plies} plies: {text}");
    }
}

/// A FlipSet (R41) lists its cells in cell order, row 0 before row 1, each row by energy: the
/// second energy of row 0 comes before the first of row 1 (as the reference reads it).
#[test]
fn r41_a_flipset_lists_its_cells_in_cell_order() {
    for text in ["FS 0G+1S", "FS 0B+1S", "FS 0S+0G+1S+1B"] {
        let m = hatsuden::parse_move(text, None).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(hatsuden::format_move(&m), text);
    }
    for bad in ["FS 1S+0G", "FS 0G+0S", "FS 0G+0G"] {
        assert!(hatsuden::parse_move(bad, None).is_err(), "{bad}");
    }
}

/// The text of a record of game 1 under the standard rules with the stall limit `stall`
/// (a number or `off`), seed 5, result tag `result`, then `rest` (its turns).
fn seed_5_record(stall: &str, result: &str, rest: &str) -> String {
    format!(
        "[Hatsuden \"1\"]\n[Rules \"5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/{stall}\"]\n[Seed \"5\"]\n\
         [Result \"{result}\"]\n{rest}"
    )
}

/// A stall end needs a stall limit (R25): under `off` a result ending by the final turn is
/// read, one ending by a stall is refused at the result tag (as the reference does).
#[test]
fn r25_a_record_stall_end_needs_a_stall_limit() {
    let text = |result: &str| seed_5_record("off", result, "");
    let read = parse_record(&text("winner=0 decided_by=total totals=5:3 end_reason=final_turn")).unwrap();
    assert!(read.result.is_some() && read.rules.stall_limit.is_none());
    let e = parse_record(&text("winner=0 decided_by=total totals=5:3 end_reason=stall")).unwrap_err();
    assert_eq!((e.field.as_str(), e.position), ("record", 95), "{}", e.message);
    assert!(e.message.contains("no stall end without a stall limit (R25)"), "{}", e.message);
}

/// A result's totals are two integers `a:b` without leading zeros, of at most 9 digits
/// (NOTATION.md, "Game records"): anything else is a malformed result, refused at the tag.
#[test]
fn a_record_result_has_two_integer_totals() {
    let text = |totals: &str| {
        seed_5_record("20", &format!("winner=0 decided_by=total totals={totals} end_reason=final_turn"), "")
    };
    for good in ["5:3", "0:-2", "123456789:3"] {
        assert!(parse_record(&text(good)).is_ok(), "{good}");
    }
    for bad in ["5:", ":3", "-:3", "x:3", "5:x", "05:3", "-05:3", "5:3:1", "1234567890:3", "5"] {
        let e = parse_record(&text(bad)).unwrap_err();
        assert_eq!((e.field.as_str(), e.position), ("record", 94), "{bad}: {}", e.message);
        assert!(e.message.contains("malformed result"), "{bad}: {}", e.message);
    }
}

/// A turn number has no leading zero (NOTATION.md, "Game records"): `01.` is refused at the
/// start of its line, as the reference refuses it.
#[test]
fn a_record_turn_number_has_no_leading_zero() {
    let text = |line: &str| seed_5_record("20", "*", &format!("\n{line}\n"));
    let e = parse_record(&text("01. C S1 0S, DD")).unwrap_err();
    assert_eq!((e.field.as_str(), e.position), ("record", 99), "{}", e.message);
    assert!(e.message.contains("expected a turn number"), "{}", e.message);
}

/// An explicit-chance record (seed `-`) holds the deal on line 0: `2 * hand_size` Deal moves,
/// fewer only when the record stops inside the deal; a replay names the deal and then the turns
/// (R7) in its errors.
#[test]
fn r7_a_record_line_0_holds_the_deal() {
    let deal = |s: &State| s.chance_outcomes().unwrap()[0].0;
    let mut s = new_game(&Rules::STANDARD, None).unwrap();
    let mut moves = Vec::new();
    for _ in 0..10 {
        let m = deal(&s);
        moves.push(m);
        s = s.apply(m).unwrap();
    }
    let extra = deal(&new_game(&Rules::STANDARD, None).unwrap());
    // Stopped inside the deal: a short line 0, read back.
    let short = record_game(&Rules::STANDARD, None, &moves[..3], None).unwrap();
    let text = hatsuden::records::format_record(&short);
    assert_eq!(parse_record(&text).unwrap().moves, moves[..3], "{text}");
    // The whole deal, then one Deal move too many on line 0.
    let full = record_game(&Rules::STANDARD, None, &moves, None).unwrap();
    let text = hatsuden::records::format_record(&full);
    assert_eq!(parse_record(&text).unwrap().moves, moves, "{text}");
    let line0 = text.lines().find(|l| l.starts_with("0. ")).expect("line 0").to_string();
    let long = text.replace(&line0, &format!("{line0}, {}", hatsuden::format_move(&extra)));
    let e = parse_record(&long).unwrap_err();
    assert_eq!((e.field.as_str(), e.position), ("record", 102), "{long}: {}", e.message);
    assert!(e.message.contains("line 6, column 4: the deal is 10 Deal moves"), "{long}: {}", e.message);
    // A move that is not legal: during the deal, then in the first turn (player 0), then in the
    // second (player 1).
    let mut legal = Vec::new();
    s.legal_moves(&mut legal);
    let play = legal[0];
    let mut bad = moves[..2].to_vec();
    bad.push(play);
    let e = record_game(&Rules::STANDARD, None, &bad, None).unwrap_err();
    assert!(e.message.starts_with("ply 3 (the deal) "), "{}", e.message);
    let mut bad = moves.clone();
    bad.push(extra);
    let e = record_game(&Rules::STANDARD, None, &bad, None).unwrap_err();
    assert!(e.message.starts_with("ply 11 (turn 1, player 0) "), "{}", e.message);
    let mut turn = moves.clone();
    let mut t = s;
    while t.current_player() == 0 {
        let m = match t.chance_outcomes() {
            Ok(outcomes) if !outcomes.is_empty() => outcomes[0].0,
            _ => {
                t.legal_moves(&mut legal);
                legal[0]
            }
        };
        turn.push(m);
        t = t.apply(m).unwrap();
    }
    let ply = turn.len() + 1;
    turn.push(extra);
    let e = record_game(&Rules::STANDARD, None, &turn, None).unwrap_err();
    assert!(e.message.starts_with(&format!("ply {ply} (turn 2, player 1) ")), "{}", e.message);
}

/// The JSON document of a record of no move, seed 5, under the standard rules with retake and a
/// stall limit of 20, its result `null`.
fn unfinished_record_doc() -> String {
    let record = parse_record(
        "[Hatsuden \"1\"]\n[Rules \"5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20\"]\n[Seed \"5\"]\n[Result \"*\"]\n",
    )
    .unwrap();
    hatsuden::records::record_doc(&record).to_text()
}

/// A record document's type is `record`, its seed a decimal string without leading zeros
/// (`"0"` is one), its winner 0 or 1 (NOTATION.md, "Game records"), each refused at its path
/// otherwise.
#[test]
fn a_record_document_seed_and_winner() {
    let doc = unfinished_record_doc();
    assert!(doc.contains("\"seed\":\"5\"") && doc.contains("\"result\":null"), "{doc}");
    let seed0 = doc.replace("\"seed\":\"5\"", "\"seed\":\"0\"");
    assert_eq!(hatsuden::records::record_from_json(&seed0).unwrap().seed, Some(0));
    let path = |json: &str| match hatsuden::records::record_from_json(json) {
        Err(hatsuden::Error::Json(e)) => e.path,
        other => panic!("{json}: expected a JSON document error, got {other:?}"),
    };
    for bad in ["\"05\"", "\"00\""] {
        assert_eq!(path(&doc.replace("\"seed\":\"5\"", &format!("\"seed\":{bad}"))), "$.seed", "{bad}");
    }
    // A document of another type, or of none, is not a record: refused at `$.type`.
    assert!(doc.contains("\"type\":\"record\""), "{doc}");
    for other in ["\"state\"", "\"Record\"", "1"] {
        assert_eq!(path(&doc.replace("\"type\":\"record\"", &format!("\"type\":{other}"))), "$.type", "{other}");
    }
    // A tie-break of equal totals names no winner by itself: the winner's own check refuses 2.
    let result = |winner: &str, decided_by: &str, totals: &str| {
        doc.replace(
            "\"result\":null",
            &format!(
                "\"result\":{{\"winner\":{winner},\"decided_by\":\"{decided_by}\",\"totals\":{totals},\"end_reason\":\"final_turn\"}}"
            ),
        )
    };
    assert!(hatsuden::records::record_from_json(&result("0", "total", "[5,3]")).is_ok());
    assert!(hatsuden::records::record_from_json(&result("1", "city_points", "[3,3]")).is_ok());
    for (bad, decided_by, totals) in [
        ("2", "city_points", "[3,3]"),
        ("2", "total", "[5,3]"),
        ("-1", "city_points", "[3,3]"),
        ("1.0", "total", "[2,4]"),
    ] {
        match hatsuden::records::record_from_json(&result(bad, decided_by, totals)) {
            Err(hatsuden::Error::Json(e)) => {
                assert_eq!(e.path, "$.result.winner", "{bad}: {e}");
                assert!(e.message.contains("expected 0 or 1"), "{bad}: {e}");
            }
            other => panic!("{bad}: expected a JSON document error, got {other:?}"),
        }
    }
}

/// A record document's result (NOTATION.md, "Game records"; R25, R29): its totals are two
/// integers in [-10**9, 10**9] and its end reason `final_turn` or `stall`, both read back; a
/// list of one or three totals is refused at `$.result.totals`, a total out of range at its own
/// index, an unknown end reason at `$.result.end_reason` (the Python library's paths).
#[test]
fn a_record_document_result_has_two_totals_and_an_end_reason() {
    use hatsuden::{Decision, EndReason, GameResult};
    let doc = unfinished_record_doc();
    let result = |winner: usize, totals: &str, end_reason: &str| {
        doc.replace(
            "\"result\":null",
            &format!(
                "\"result\":{{\"winner\":{winner},\"decided_by\":\"total\",\"totals\":{totals},\"end_reason\":\"{end_reason}\"}}"
            ),
        )
    };
    for (winner, totals, end_reason, read) in [
        (0, "[5,3]", "final_turn", ([5, 3], EndReason::FinalTurn)),
        (1, "[2,4]", "stall", ([2, 4], EndReason::Stall)),
        (0, "[1000000000,-1000000000]", "stall", ([1_000_000_000, -1_000_000_000], EndReason::Stall)),
    ] {
        let json = result(winner, totals, end_reason);
        let got = hatsuden::records::record_from_json(&json).unwrap_or_else(|e| panic!("{json}: {e}"));
        let expected = GameResult { winner, decided_by: Decision::Total, totals: read.0, end_reason: read.1 };
        assert_eq!(got.result, Some(expected), "{json}");
    }
    for (winner, totals, end_reason, path) in [
        (0, "[5]", "stall", "$.result.totals"),
        (0, "[5,3,1]", "stall", "$.result.totals"),
        (0, "[1000000001,3]", "stall", "$.result.totals[0]"),
        (1, "[3,-1000000001]", "final_turn", "$.result.totals[1]"),
        (1, "[3,4]", "Stall", "$.result.end_reason"),
    ] {
        let json = result(winner, totals, end_reason);
        match hatsuden::records::record_from_json(&json) {
            Err(hatsuden::Error::Json(e)) => assert_eq!(e.path, path, "{json}: {e}"),
            other => panic!("{json}: expected a JSON document error, got {other:?}"),
        }
    }
}

/// A replay error displays as `field: message`, as the Python library's `ReplayError` does:
/// under seed 5 the first legal move played twice is refused at `moves[1]`, a Construct in the
/// draw phase (R9), named by its ply, turn, player and move as in Python (the reason after the
/// rule is the crate's own wording; the vectors compare the rule).
#[test]
fn a_replay_error_displays_its_field_and_message() {
    let first = new_game(&Rules::STANDARD, Some(5)).unwrap().legal_moves_vec()[0];
    let e = record_game(&Rules::STANDARD, Some(5), &[first, first], None).unwrap_err();
    let text = e.to_string();
    assert_eq!(text, format!("{}: {}", e.field, e.message));
    assert!(text.starts_with("moves[1]: ply 2 (turn 1, player 0) C S1 0S: R9: "), "{text}");
}

/// A turn number has at most 9 digits (NOTATION.md, "Game records"): 9 digits are read as a
/// number (here not the turn expected), 10 are refused as too long, and a record that ends in
/// a turn number is refused where the Python library refuses it.
#[test]
fn a_record_turn_number_has_at_most_9_digits() {
    for (rest, position, reason) in [
        ("\n123456789. C S1 0S, DD\n", 99, "expected turn 1"),
        ("\n1234567890. C S1 0S, DD\n", 99, "a turn number has at most 9 digits"),
        ("\n12", 99, "expected turn 1"),
        ("\n1", 100, "expected '. '"),
        ("\n1. C S1 0S, DD\n2", 115, "expected '. '"),
    ] {
        let e = parse_record(&seed_5_record("20", "*", rest)).unwrap_err();
        assert_eq!((e.field.as_str(), e.position), ("record", position), "{rest:?}: {}", e.message);
        assert!(e.message.contains(reason), "{rest:?}: {}", e.message);
    }
}

/// A record holds one turn a line (NOTATION.md, "Game records"): a line ends exactly where its
/// turn ends, after the draw (`DD`), a draw from the discards (`DX`, R22) or an end of turn, so
/// the lines of a seeded record are the turns of its game, numbered from 1.
#[test]
fn a_record_line_is_one_turn() {
    let mut from_discards = 0;
    for seed in 0..20 {
        let mut s = new_game(&Rules::STANDARD, Some(seed)).unwrap();
        let mut g = SplitMix64::new(seed + 7);
        let (mut moves, mut turns) = (Vec::new(), vec![Vec::new()]);
        while !s.is_over() {
            let legal = s.legal_moves_vec();
            let m = legal[(g.next() % legal.len() as u64) as usize];
            let mover = s.current_player();
            s = s.apply(m).unwrap();
            moves.push(m);
            turns.last_mut().unwrap().push(hatsuden::format_move(&m));
            if !s.is_over() && s.current_player() != mover {
                turns.push(Vec::new());
            }
            from_discards += usize::from(matches!(m, hatsuden::Move::DrawFromDiscard { .. }));
        }
        let text = hatsuden::records::format_record(&record_game(&Rules::STANDARD, Some(seed), &moves, None).unwrap());
        let lines: Vec<&str> = text.lines().skip_while(|l| !l.is_empty()).skip(1).collect();
        let expected: Vec<String> =
            turns.iter().enumerate().map(|(k, turn)| format!("{}. {}", k + 1, turn.join(", "))).collect();
        assert_eq!(lines, expected, "{text}");
    }
    assert!(from_discards > 10, "{from_discards}");
}

/// R36 and the row symmetry (VERIFICATION.md, "Symmetry reduction"): a player's two rows are
/// interchangeable, so the game played with one player's moves moved to the other row reaches,
/// ply by ply, the state with that player's rows swapped, its logged moves too (`swap_rows`);
/// `swap_rows_fixed` tells whether that swap leaves the state unchanged (with the logs) or only
/// its position (without them), also where the two differ: a grid of two equal rows after a
/// turn that built on one of them.
#[test]
fn r36_a_game_with_one_players_rows_swapped_is_a_game() {
    let rules = Rules {
        energies: 1,
        max_value: 3,
        copies: 4,
        hand_size: 2,
        city_demand: 4,
        stall_limit: Some(6),
        ..Rules::STANDARD
    };
    let mut logs_only = 0;
    for seed in 0..60 {
        for p in 0..2 {
            let mut s = new_game(&rules, Some(seed)).unwrap();
            let mut swapped = s;
            let mut g = SplitMix64::new(seed);
            while !s.is_over() {
                assert_eq!(s.swap_rows(p), swapped, "player {p}: {s:?}");
                let fixed = s.swap_rows_fixed(p, true);
                assert_eq!(fixed, swapped == s, "player {p}: {s:?}");
                assert_eq!(s.swap_rows_fixed(p, false), swapped.same_position(&s), "player {p}: {s:?}");
                logs_only += usize::from(!fixed && swapped.same_position(&s));
                let legal = s.legal_moves_vec();
                let m = legal[(g.next() % legal.len() as u64) as usize];
                swapped = swapped.apply(m.map_rows(s.current_player(), 1 << p)).unwrap();
                s = s.apply(m).unwrap();
            }
        }
    }
    assert!(logs_only > 0);
}

/// R19 and the row symmetry (VERIFICATION.md, "Symmetry reduction"): a player's two equal rows
/// with the Accumulator on one of them are not fixed by the swap, which moves the Accumulator
/// to the other city, in the other player's turn too (the game of seed 250 under the rules of
/// `r36_a_game_with_one_players_rows_swapped_is_a_game`, after player 0's first two turns).
#[test]
fn r19_the_accumulator_on_one_of_two_equal_rows_is_moved_by_the_swap() {
    let text = "rules=1/3/4/2/4/ACC+SEC+SMT+DWN/city_points/retake/6 phase=action current_player=1 \
        hands=S1,S3/S1,S2 deck=S1,S2,S2,S2,S3 discards=- boards=S3;S3/.;#S1 tech_deck=SEC,SMT,DWN \
        tech_hands=-/- accumulator=0:1 smart=- played_cell=- turn_discard=- pending_chance=- stall_count=0 \
        end_triggered_by=0 end_reason=- rng_state=17418742259747381666 known_cards=-/- this_turn=[] \
        last_turn=[C S3 0S, DT, =ACC, A 1, DD, =S3]";
    let s = parse_state(text).unwrap();
    assert_eq!(s.board(0)[0], s.board(0)[1]);
    assert_eq!(s.accumulator(), Some((0, 1)));
    let swapped = s.swap_rows(0);
    assert_eq!(swapped.accumulator(), Some((0, 0)));
    assert!(!swapped.same_position(&s));
    assert!(!s.swap_rows_fixed(0, false) && !s.swap_rows_fixed(0, true));
}

/// R29: a record's result is that of its game: replayed, a record that states a result while
/// its game is not over is refused at `result`, as the reference refuses it.
#[test]
fn r29_a_result_stated_before_the_game_is_over_is_refused() {
    let text = seed_5_record("20", "winner=0 decided_by=total totals=5:3 end_reason=final_turn", "\n1. C S1 0S, DD\n");
    let record = parse_record(&text).unwrap();
    let e = hatsuden::replay(&record).unwrap_err();
    assert_eq!(e.field, "result", "{e}");
    assert_eq!(e.message, "a result is stated but the game is not over after the last move");
    assert!(hatsuden::replay(&parse_record(&seed_5_record("20", "*", "\n1. C S1 0S, DD\n")).unwrap()).is_ok());
}

/// R29: a record states the result its game gives. A finished game's record read back with
/// another end reason (or another winner and totals) is refused at `result`, naming both, in the
/// Python library's words; with its own result it replays.
#[test]
fn r29_a_record_states_the_result_its_game_gives() {
    use hatsuden::{EndReason, GameResult};
    let text = |r: &GameResult| {
        format!(
            "winner={} decided_by={} totals={}:{} end_reason={}",
            r.winner,
            r.decided_by.name(),
            r.totals[0],
            r.totals[1],
            r.end_reason.name()
        )
    };
    for seed in 0..4 {
        let mut s = new_game(&Rules::STANDARD, Some(seed)).unwrap();
        let mut g = SplitMix64::new(seed + 40);
        let mut moves = Vec::new();
        while !s.is_over() {
            let legal = s.legal_moves_vec();
            let m = legal[(g.next() % legal.len() as u64) as usize];
            s = s.apply(m).unwrap();
            moves.push(m);
        }
        let mut record = record_game(&Rules::STANDARD, Some(seed), &moves, None).unwrap();
        let actual = record.result.expect("a finished game has a result");
        assert!(hatsuden::replay(&record).is_ok());
        let other_end = if actual.end_reason == EndReason::Stall { EndReason::FinalTurn } else { EndReason::Stall };
        let [a, b] = actual.totals;
        for stated in [
            GameResult { end_reason: other_end, ..actual },
            GameResult { winner: 1 - actual.winner, totals: [b, a], ..actual },
            GameResult { totals: [a + 1, b + 1], ..actual },
        ] {
            record.result = Some(stated);
            let e = hatsuden::replay(&record).unwrap_err();
            assert_eq!(e.field, "result", "seed {seed}: {e}");
            assert_eq!(
                e.message,
                format!("the record states {}, the game gives {}", text(&stated), text(&actual)),
                "seed {seed}"
            );
        }
    }
}

/// R7, NOTATION.md ("Game records"): an explicit-chance record (seed `-`) holds the deal on
/// line 0 and then one turn a line: a turn ends with its draw, `DD` and the Deal after it, `DX`
/// or `E`, so its lines are the game's turns, numbered from 1; a record of no move has no line
/// at all (as the reference writes it).
#[test]
fn r7_an_explicit_chance_record_line_is_one_turn() {
    let empty = hatsuden::records::format_record(&record_game(&Rules::STANDARD, None, &[], None).unwrap());
    assert_eq!(
        empty,
        "[Hatsuden \"1\"]\n[Rules \"5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20\"]\n[Seed \"-\"]\n[Result \"*\"]\n"
    );
    for seed in 0..10 {
        let mut s = new_game(&Rules::STANDARD, None).unwrap();
        let mut g = SplitMix64::new(seed + 70);
        let mut moves = Vec::new();
        let mut lines = vec![Vec::new()];
        while !s.is_over() && moves.len() < 300 {
            let options: Vec<hatsuden::Move> = match s.chance_outcomes() {
                Ok(outcomes) if !outcomes.is_empty() => outcomes.iter().map(|x| x.0).collect(),
                _ => s.legal_moves_vec(),
            };
            let m = options[(g.next() % options.len() as u64) as usize];
            let (mover, dealing) = (s.current_player(), moves.len() < 10);
            s = s.apply(m).unwrap();
            moves.push(m);
            lines.last_mut().unwrap().push(hatsuden::format_move(&m));
            let ended = if dealing { moves.len() == 10 } else { s.current_player() != mover };
            if ended && !s.is_over() {
                lines.push(Vec::new());
            }
        }
        let text = hatsuden::records::format_record(&record_game(&Rules::STANDARD, None, &moves, None).unwrap());
        let written: Vec<&str> = text.lines().skip_while(|l| !l.is_empty()).skip(1).collect();
        let expected: Vec<String> = lines
            .iter()
            .filter(|l| !l.is_empty())
            .enumerate()
            .map(|(k, turn)| format!("{k}. {}", turn.join(", ")))
            .collect();
        assert!(expected.len() > 5, "{text}");
        assert_eq!(written, expected, "{text}");
        assert_eq!(parse_record(&text).unwrap().moves, moves, "{text}");
    }
}

/// R3: a turn log deals only tech cards in play: a Smart dealt (`=SMT`) under rules without
/// the Smart is refused at that move of the log, in state notation, where the reference refuses
/// it (positions 431 and 440, `hatsuden_rules.parse_state`, checked 2026-12-03). So is a Smart
/// in the tech deck, in a tech hand, placed, or dealt in this turn's log: each at the item that
/// names it (the reference's fields and positions).
#[test]
fn r3_a_turn_log_deals_only_tech_cards_in_play() {
    let text = "rules=3/4/2/3/10/ACC+SEC+DWN/city_points/retake/20 phase=action current_player=1 \
        hands=S3,G3,G3/G1,W1,W2 deck=S1,S3,S4,S4,G1,G2,G2,G4,G4,W3,W3,W4,W4 discards=S1 \
        boards=.,.,W1;.,.,#S2/.,#W2,#S2;.,.,. tech_deck=ACC,SEC,DWN tech_hands=-/- accumulator=- \
        smart=- played_cell=- turn_discard=- pending_chance=- stall_count=1 end_triggered_by=- \
        end_reason=- rng_state=14727398570297873640 known_cards=-/- this_turn=[] last_turn=[X S1, DD, =S3]";
    assert!(parse_state(text).is_ok());
    for (log, position) in [("[X S1, DD, =S3, DT, =SMT]", 440), ("[X S1, DT, =SMT, DD, =S3]", 431)] {
        let e = parse_state(&text.replace("[X S1, DD, =S3]", log)).unwrap_err();
        assert_eq!((e.field.as_str(), e.position), ("last_turn", position), "{log}: {}", e.message);
    }
    for (from, to, field, position) in [
        ("tech_deck=ACC,SEC,DWN", "tech_deck=ACC,SEC,SMT,DWN", "tech_deck", 217),
        ("tech_deck=ACC,SEC,DWN", "tech_deck=ACC,SMT,SEC,DWN", "tech_deck", 213),
        ("tech_deck=ACC,SEC,DWN tech_hands=-/-", "tech_deck=ACC,SEC tech_hands=-/DWN,SMT", "tech_hands", 234),
        ("this_turn=[]", "this_turn=[X G1, DT, =SMT]", "this_turn", 418),
        ("this_turn=[]", "this_turn=[X G1, DD, =S9]", "this_turn", 418),
        ("smart=-", "smart=W", "smart", 250),
    ] {
        let e = parse_state(&text.replace(from, to)).unwrap_err();
        assert_eq!((e.field.as_str(), e.position), (field, position), "{to}: {}", e.message);
    }
}

/// R24, R26: a game over by its final turn (`end_reason=final_turn`) ended on the turn after the
/// other player's trigger: a trigger by the player who played it (both grids full) or none is
/// refused at `end_reason`, where the reference refuses it (position 396,
/// `hatsuden_rules.parse_state`, checked 2026-12-03; a random game of seed 8).
#[test]
fn r24_a_final_turn_follows_the_other_players_trigger() {
    let text = "rules=5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20 phase=game_over current_player=1 \
        hands=G1,W2,W3,W4,W4/S1,G3,G4,H1,B2 deck=S3,S4,S4,G2,W1,H2,H4,B1,B3,B4 discards=- \
        boards=#H1,#S2,#S3,H2,#B3;#H3,G1,#W3,#G3,#G2/#G4,#B2,#H3,#B4,#S1;#H4,#W2,W1,#B1,#S2 \
        tech_deck=ACC,SEC,SMT,DWN tech_hands=-/- accumulator=- smart=- played_cell=- turn_discard=- \
        pending_chance=- stall_count=0 end_triggered_by=1 end_reason=final_turn \
        rng_state=9980051252924025470 known_cards=-/- this_turn=[] last_turn=[P S2 0G, DD, =W2]";
    assert!(parse_state(text).is_ok());
    for trigger in ["end_triggered_by=0", "end_triggered_by=-"] {
        let e = parse_state(&text.replace("end_triggered_by=1", trigger)).unwrap_err();
        assert_eq!((e.field.as_str(), e.position), ("end_reason", 396), "{trigger}: {}", e.message);
    }
}

/// R9, R17: TECH follows a card played this turn: a state in TECH without a played cell is
/// refused at `played_cell`, where the reference refuses it (position 332,
/// `hatsuden_rules.parse_state`, checked 2026-12-03; a random game of seed 0).
#[test]
fn r17_tech_follows_a_card_played_this_turn() {
    let text = "rules=5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20 phase=tech current_player=1 \
        hands=S1,S2,G4,W2,B2/S3,G2,G2,B2 \
        deck=S1,S2,S3,S4,G1,G1,G3,G3,G4,W1,W1,W2,W3,W4,W4,H1,H1,H2,H2,H3,H3,H4,H4,B1,B1,B3,B3,B4,B4 \
        discards=- boards=.,.,.,.,.;.,.,.,.,#W3/S4,.,.,.,.;.,.,.,.,. tech_deck=ACC,SEC,SMT,DWN \
        tech_hands=-/- accumulator=- smart=- played_cell=0S turn_discard=- pending_chance=- \
        stall_count=0 end_triggered_by=- end_reason=- rng_state=14727398570297873639 known_cards=-/- \
        this_turn=[C S4 0S] last_turn=[P W3 1B, DD, =S2]";
    assert!(parse_state(text).is_ok());
    let e = parse_state(&text.replace("played_cell=0S", "played_cell=-")).unwrap_err();
    assert_eq!((e.field.as_str(), e.position), ("played_cell", 332), "{}", e.message);
}
