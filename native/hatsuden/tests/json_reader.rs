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

/// A value of the wrong JSON type in a document is named with its type, in the Python
/// library's words (NOTATION.md, "JSON documents").
#[test]
fn a_value_of_the_wrong_type_is_named_with_its_type() {
    let rules = |techs: &str| {
        format!(
            r#"{{"type":"rules","format_version":1,"energies":5,"max_value":4,"copies":2,"hand_size":5,"city_demand":10,"techs":{techs},"tiebreak":"city_points","allow_retake_discard":true,"stall_limit":20}}"#
        )
    };
    let message = |text: &str| hatsuden::from_json(text, None).unwrap_err().to_string();
    assert!(hatsuden::from_json(&rules("[]"), None).is_ok());
    assert_eq!(message(&rules("{}")), "$.techs: expected an array, got an object");
    assert_eq!(message(&rules("\"x\"")), "$.techs: expected an array, got a string");
    assert_eq!(message(&rules("1")), "$.techs: expected an array, got a number");
    assert_eq!(message(&rules("null")), "$.techs: expected an array, got null");
    assert_eq!(message(&rules("true")), "$.techs: expected an array, got a boolean");
}
