//! The JSON readers (NOTATION.md "JSON documents") never panic, and what they accept
//! round-trips: from_json -> to_json -> from_json gives the same document and to_json is a fixed
//! point; the JSON value reader itself round-trips through its canonical text.
#![no_main]

use hatsuden::{docs, from_json, json, to_json};
use libfuzzer_sys::fuzz_target;

const TYPES: [&str; 5] = ["rules", "move", "state", "observation", "score"];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(v) = json::parse(text) {
        let t = v.to_text();
        assert_eq!(json::parse(&t).expect("canonical JSON read back"), v, "{text:?}");
    }
    if let Ok(d) = from_json(text, None) {
        let t = to_json(&d);
        let back = from_json(&t, Some(d.type_name())).expect("written document read back");
        assert_eq!(back, d, "{text:?}");
        assert_eq!(to_json(&back), t);
    }
    for ty in TYPES {
        if let Ok(v) = docs::canonical_json(text, ty) {
            let t = v.to_text();
            let again = docs::canonical_json(&t, ty).expect("canonical document read back");
            assert_eq!(again.to_text(), t, "{ty} {text:?}");
        }
    }
});
