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

/// A value nested deeper than `MAX_DEPTH` (the top level is depth 0) is refused, in arrays as in
/// objects (the reader recurses once a level; a document of the protocol nests a few levels).
#[test]
fn nesting_deeper_than_the_limit_is_refused_in_arrays_and_objects() {
    let deep = hatsuden::json::MAX_DEPTH;
    let arrays = |n: usize| format!("{}1{}", "[".repeat(n), "]".repeat(n));
    let objects = |n: usize| format!("{}1{}", "{\"a\":".repeat(n), "}".repeat(n));
    for nested in [arrays, objects] {
        assert!(parse(&nested(deep)).is_ok(), "{}", nested(deep));
        assert_eq!(parse(&nested(deep + 1)).unwrap_err(), "nesting too deep");
        assert_eq!(parse(&nested(deep * 4)).unwrap_err(), "nesting too deep");
    }
}

/// A document names its type among the six the library reads (NOTATION.md, "JSON documents"):
/// another known type is "expected a <type> document", an unknown one is told the six.
#[test]
fn a_document_of_an_unknown_type_is_told_the_known_types() {
    for (doc, message) in [
        (r#"{"type":"move","format_version":1}"#, "expected a state document, got 'move'"),
        (r#"{"type":"game","format_version":1}"#, "must be one of rules, move, state, score, observation, record"),
        (r#"{"type":7,"format_version":1}"#, "must be one of rules, move, state, score, observation, record"),
    ] {
        match hatsuden::from_json(doc, Some("state")) {
            Err(hatsuden::Error::Json(e)) => {
                assert_eq!(e.path, "$.type", "{doc}");
                assert!(e.to_string().contains(message), "{doc}: {e}");
            }
            other => panic!("{doc}: expected a JSON document error, got {other:?}"),
        }
    }
}

/// RFC 8259 §6: an exponent may carry a sign (`1e+5`, `2.5E-3`), a number read as a float.
#[test]
fn an_exponent_may_carry_a_sign() {
    use hatsuden::json::Json;
    for number in ["1e+5", "2.5E-3", "-1E+0", "1e5", "7e-12"] {
        assert_eq!(parse(number), Ok(Json::Float(number.to_string())), "{number}");
        assert_eq!(parse(&format!("[{number}]")), Ok(Json::Arr(vec![Json::Float(number.to_string())])), "{number}");
    }
    for bad in ["1e+", "1e-", "1e", "1e+-5"] {
        assert!(parse(bad).is_err(), "{bad}");
    }
}

/// RFC 8259 §6: a number's integer part has no leading zero (`01`, `-00`, `01.5` are refused, as
/// Python's `json.loads` refuses them); `0`, `-0`, `0.5` and `10` are read.
#[test]
fn a_number_has_no_leading_zero() {
    for good in ["0", "-0", "0.5", "10", "[0,10]"] {
        assert!(parse(good).is_ok(), "{good}");
    }
    for bad in ["01", "-00", "01.5", "[007]"] {
        assert!(parse(bad).is_err(), "{bad}");
    }
}

/// RFC 8259 §7: every two-character escape reads as its character, the solidus `\/` too.
#[test]
fn every_short_escape_reads_as_its_character() {
    assert_eq!(text(r#""a\/b""#), "a/b");
    assert_eq!(text(r#""\"\\\/\b\f\n\r\t""#), "\"\\/\u{8}\u{c}\n\r\t");
}

/// RFC 8259 §7: the writer escapes every control character below U+0020 (those other than `\n`,
/// `\r` and `\t` as `\u00XX`, as Python's `json.dumps` writes U+0001 and U+001F), writes none
/// of them raw, and the text reads back as the string.
#[test]
fn the_writer_escapes_every_control_character() {
    use hatsuden::json::Json;
    let s: String = (0u8..0x20).map(char::from).chain("a\"\\\u{7f}é".chars()).collect();
    let written = Json::str(s.clone()).to_text();
    assert!(written.chars().all(|c| c as u32 >= 0x20), "{written:?}");
    assert_eq!(text(&written), s);
    assert_eq!(Json::str("\u{1}x\u{1f}").to_text(), r#""\u0001x\u001f""#);
}
