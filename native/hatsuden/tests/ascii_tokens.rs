//! Token letters and digits are ASCII only (NOTATION.md, "Letters of a token"; issue 23 §4.7):
//! a full-width or accented letter or digit ends the token and is refused where it stands, at
//! the same position (in characters) as the Python library gives.

use hatsuden::{format_rules, parse_move, parse_rules, Rules};

fn move_error(text: &str) -> (String, usize) {
    let e = parse_move(text, Some(&Rules::STANDARD)).expect_err(text);
    (e.field, e.position)
}

#[test]
fn a_move_keyword_is_read_in_ascii_letters_only() {
    // R35's notation: the keyword is the longest run of A-Z and *.
    assert_eq!(move_error("C\u{ff33}3 0S"), ("move".into(), 1)); // full-width S after C
    assert_eq!(move_error("\u{ff23} S3 0S"), ("move".into(), 0)); // a full-width keyword
    assert_eq!(move_error("C\u{e9} S3 0S"), ("move".into(), 1)); // an accented letter
    assert_eq!(move_error("C S3 0\u{ff33}"), ("move".into(), 6)); // a full-width energy
    assert_eq!(move_error("C S\u{ff13} 0S"), ("move".into(), 3)); // a full-width digit
    assert_eq!(move_error("PASS\u{c9}"), ("move".into(), 4)); // text after the end
    assert_eq!(move_error("=\u{ff33}3"), ("move".into(), 1));
}

#[test]
fn a_rules_word_or_number_is_read_in_ascii_only() {
    let standard = format_rules(&Rules::STANDARD);
    let cases = [
        (standard.replace("city_points", "city_points\u{e9}"), 38), // at the é
        (standard.replace("retake", "retak\u{e9}"), 39),            // the cut word, at its start
        (format!("\u{ff15}{}", &standard[1..]), 0),                 // a full-width digit
        (format!("{standard}/any_s\u{e9}t"), 48),                   // not a variant word: at the /
    ];
    for (text, position) in cases {
        let e = parse_rules(&text).expect_err(&text);
        assert_eq!((e.field.as_str(), e.position), ("rules", position), "{text}");
    }
}
