//! The notation readers (NOTATION.md) never panic, and what they accept round-trips: every value
//! has one spelling (format(parse(text)) == text, NOTATION.md "One canonical form"; a record is
//! only checked to be a fixed point), and parse -> format -> parse gives the same value. The first byte chooses the
//! reader; the rest is the text (UTF-8 only: the readers take `&str`).
#![no_main]

use hatsuden::{
    format_observation, format_record, format_state, parse_move, parse_observation, parse_record, parse_rules,
    parse_state, Rules,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&kind, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    match kind % 6 {
        0 => {
            if let Ok(r) = parse_rules(text) {
                let f = r.format();
                assert_eq!(f, text, "a rule set has one spelling");
                assert_eq!(parse_rules(&f).expect("formatted rules read back"), r, "{text:?}");
                // A rule set the reader accepts is valid (R31); the native core holds it unless
                // it has more than 255 copies of a card.
                assert!(r.validate().is_ok());
                assert!(r.tables().is_ok() || r.copies > hatsuden::MAX_COPIES, "{f}");
            }
        }
        1 | 2 => {
            let rules = if kind % 6 == 2 { Some(&Rules::STANDARD) } else { None };
            if let Ok(m) = parse_move(text, rules) {
                let f = m.format();
                assert_eq!(f, text, "a move has one spelling");
                assert_eq!(parse_move(&f, rules).expect("formatted move read back"), m);
            }
        }
        3 => {
            if let Ok(s) = parse_state(text) {
                let f = format_state(&s);
                assert_eq!(f, text, "a state has one spelling");
                let back = parse_state(&f).expect("formatted state read back");
                assert_eq!(back, s, "{text:?}");
                assert_eq!(format_state(&back), f);
            }
        }
        4 => {
            if let Ok(o) = parse_observation(text) {
                let f = format_observation(&o);
                assert_eq!(f, text, "an observation has one spelling");
                let back = parse_observation(&f).expect("formatted observation read back");
                assert_eq!(back, o, "{text:?}");
                assert_eq!(format_observation(&back), f);
            }
        }
        _ => {
            if let Ok(r) = parse_record(text) {
                let f = format_record(&r);
                let back = parse_record(&f).expect("formatted record read back");
                assert_eq!(format_record(&back), f, "{text:?}");
            }
        }
    }
});
