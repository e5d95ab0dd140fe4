//! The JSON reader under the documents of NOTATION.md (RFC 8259 strings): details that no
//! conformance vector reaches.

use hatsuden::json::parse;

fn text(json: &str) -> String {
    parse(json).expect("valid JSON").as_str().expect("a string").to_owned()
}

/// RFC 8259 §7: a character outside the Basic Multilingual Plane is escaped as a surrogate
/// pair, high then low, and reads as one character (the first and last of the supplementary
/// planes, and one between).
#[test]
fn a_surrogate_pair_escape_reads_as_one_character() {
    assert_eq!(text(r#""\ud800\udc00""#), "\u{10000}");
    assert_eq!(text(r#""\ud83d\ude00""#), "\u{1F600}");
    assert_eq!(text(r#""\udbff\udfff""#), "\u{10FFFF}");
    assert_eq!(text(r#""a\ud83d\ude00b""#), "a\u{1F600}b");
}
