//! Requests of the conformance adapter that the vectors do not send: the `x_record` extension
//! (game records, for the differential tests of native/tools/diff_records.py).

use hatsuden::adapter::{handle, Cache};
use hatsuden::json::{parse, Json};

fn record(players: &str) -> Json {
    let request = format!(
        r#"{{"id":"r","kind":"x_record","rules":"5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20","seed":"7","moves":[],"players":{players}}}"#
    );
    handle(&parse(&request).expect("request JSON"), &mut Cache::default())
}

fn refused_field(response: &Json) -> String {
    assert_eq!(response.get("ok"), Some(&Json::Bool(false)), "{}", response.to_text());
    let error = response.get("error").expect("an error");
    assert_eq!(error.get("type").and_then(Json::as_str), Some("invalid_input"));
    error.get("field").and_then(Json::as_str).expect("a field").to_owned()
}

/// NOTATION.md, "Game records": a record has optional `players` (two names), as
/// `record_game(players=...)` takes them; a list of another length or a name that is not a string is refused naming the field,
/// never read as "no names".
#[test]
fn a_record_request_takes_two_names_or_none() {
    let named = record(r#"["Ann","Bo"]"#);
    assert_eq!(named.get("ok"), Some(&Json::Bool(true)), "{}", named.to_text());
    let players = named.get("json").and_then(|j| j.get("players")).expect("the names in the record");
    assert_eq!(players.to_text(), r#"["Ann","Bo"]"#);
    let unnamed = record("null");
    assert_eq!(unnamed.get("ok"), Some(&Json::Bool(true)), "{}", unnamed.to_text());
    assert!(!matches!(unnamed.get("json").and_then(|j| j.get("players")), Some(Json::Arr(_))));
    assert_eq!(refused_field(&record(r#"["Ann"]"#)), "players");
    assert_eq!(refused_field(&record(r#"["Ann","Bo","Cy"]"#)), "players");
    assert_eq!(refused_field(&record(r#""Ann""#)), "players");
    assert_eq!(refused_field(&record(r#"[1,"Bo"]"#)), "players[0]");
    assert_eq!(refused_field(&record(r#"["Ann",null]"#)), "players[1]");
    // A name holds 1 to MAX_NAME printable characters (NOTATION.md, "Game records").
    assert_eq!(refused_field(&record(r#"["","Bo"]"#)), "players[0]");
    assert_eq!(refused_field(&record(r#"["Ann","a\u200bb"]"#)), "players[1]");
    assert_eq!(refused_field(&record(r#"["\ud800","Bo"]"#)), "players[0]");
}

/// CONFORMANCE.md, "Protocol": `serve` answers every request line with one response line, in
/// order, and skips blank lines; a line that is not JSON still gets its (error) response.
#[test]
fn serve_answers_one_line_per_request_and_skips_blank_lines() {
    let input = "{\"id\":\"a\",\"kind\":\"hello\"}\n\n   \nnot json\n{\"id\":\"b\",\"kind\":\"hello\"}\n";
    let mut output = Vec::new();
    hatsuden::adapter::serve(input.as_bytes(), &mut output).expect("in-memory input and output");
    let text = String::from_utf8(output).expect("UTF-8");
    assert!(text.ends_with('\n'), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    let responses: Vec<Json> = lines.iter().map(|l| parse(l).expect("a JSON response")).collect();
    assert_eq!(responses[0].get("id").and_then(Json::as_str), Some("a"));
    assert_eq!(responses[0].get("ok"), Some(&Json::Bool(true)), "{}", lines[0]);
    assert_eq!(responses[1].get("ok"), Some(&Json::Bool(false)), "{}", lines[1]);
    assert_eq!(responses[2].get("id").and_then(Json::as_str), Some("b"));
    assert_eq!(responses[2].get("ok"), Some(&Json::Bool(true)), "{}", lines[2]);
}

/// The `x_parse_record` extension (native/tools/diff_records.py): a record text reads back as
/// the same text (`format_record(parse_record(text))`, NOTATION.md, "Game records"); a text
/// that is not a record is refused.
#[test]
fn a_parse_record_request_reads_a_record_text_back() {
    let parse_record = |text: &str| {
        let request = Json::Obj(vec![
            ("id".into(), Json::str("p")),
            ("kind".into(), Json::str("x_parse_record")),
            ("text".into(), Json::str(text)),
        ]);
        handle(&request, &mut Cache::default())
    };
    for players in [r#"["Ann","Bo"]"#, "null"] {
        let made = record(players);
        let text = made.get("text").and_then(Json::as_str).expect("the record text").to_owned();
        let back = parse_record(&text);
        assert_eq!(back.get("ok"), Some(&Json::Bool(true)), "{}", back.to_text());
        assert_eq!(back.get("text").and_then(Json::as_str), Some(text.as_str()), "{}", back.to_text());
    }
    let bad = parse_record("not a record");
    assert_eq!(bad.get("ok"), Some(&Json::Bool(false)), "{}", bad.to_text());
}

/// NOTATION.md, "Game records": a record request without a seed (`"seed": null`, explicit chance,
/// R6) makes a record without one, as `record_game(seed=None)` does.
#[test]
fn a_record_request_takes_a_null_seed() {
    let request = r#"{"id":"r","kind":"x_record","rules":"5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20","seed":null,"moves":[]}"#;
    let response = handle(&parse(request).expect("request JSON"), &mut Cache::default());
    assert_eq!(response.get("ok"), Some(&Json::Bool(true)), "{}", response.to_text());
    let seeded = record("null");
    assert_ne!(response.get("text"), seeded.get("text"), "{}", response.to_text());
}

/// CONFORMANCE.md, "Requests": `new_game` takes a seed, or null for explicit chance mode (R6):
/// the state then waits for the deal, as `new_game(rules, seed=None)` does; a seed deals.
#[test]
fn a_new_game_request_takes_a_null_seed() {
    let new_game = |seed: &str| {
        let request = format!(
            r#"{{"id":"n","kind":"new_game","rules":"5/4/2/5/10/ACC+SEC+SMT+DWN/city_points/retake/20","seed":{seed}}}"#
        );
        let response = handle(&parse(&request).expect("request JSON"), &mut Cache::default());
        assert_eq!(response.get("ok"), Some(&Json::Bool(true)), "{}", response.to_text());
        response.get("state").and_then(Json::as_str).expect("a state").to_owned()
    };
    let explicit = hatsuden::new_game(&hatsuden::Rules::STANDARD, None).unwrap();
    assert_eq!(new_game("null"), hatsuden::format_state(&explicit));
    let seeded = hatsuden::new_game(&hatsuden::Rules::STANDARD, Some(7)).unwrap();
    assert_eq!(new_game(r#""7""#), hatsuden::format_state(&seeded));
}
