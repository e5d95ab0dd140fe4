//! The conformance adapter (CONFORMANCE.md "Protocol"): one JSON request per line in, one JSON
//! response per line out.

use crate::error::{Error, InvalidInput};
use crate::json::{self, Json};
use crate::rng::{seed_from_decimal, SplitMix64};
use crate::rules::{Rules, RULES_VERSION};
use crate::state::{Phase, State};
use crate::{docs, engine, notation, observe, score};
use std::collections::HashMap;
use std::io::{BufRead, Write};

/// Serve requests from `input` until it ends, one response line per request, flushed.
pub fn serve(input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    let mut cache = Cache::default();
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let response = handle_line(&line, &mut cache);
        output.write_all(response.as_bytes())?;
        output.write_all(b"\n")?;
        output.flush()?;
    }
    Ok(())
}

/// Parsed states, by text (states sent back by the runner are not parsed twice).
#[derive(Default)]
pub struct Cache {
    states: HashMap<String, State>,
}

impl Cache {
    fn state(&mut self, text: &str) -> Result<State, Error> {
        if let Some(s) = self.states.get(text) {
            return Ok(*s);
        }
        let s = notation::parse_state(text)?;
        self.remember(text.to_string(), s);
        Ok(s)
    }
    fn text(&mut self, s: &State) -> String {
        let text = notation::format_state(s);
        self.remember(text.clone(), *s);
        text
    }
    fn remember(&mut self, text: String, s: State) {
        if self.states.len() > 50_000 {
            self.states.clear();
        }
        self.states.insert(text, s);
    }
}

/// Answer one request line with one response line (no newline).
pub fn handle_line(line: &str, cache: &mut Cache) -> String {
    let request = match json::parse(line) {
        Ok(r) => r,
        Err(e) => return bad_request(Json::Null, &format!("request is not JSON: {e}")).to_text(),
    };
    handle(&request, cache).to_text()
}

fn bad_request(id: Json, msg: &str) -> Json {
    Json::Obj(vec![
        ("id".into(), id),
        ("ok".into(), Json::Bool(false)),
        (
            "error".into(),
            Json::Obj(vec![("type".into(), Json::str("bad_request")), ("message".into(), Json::str(msg))]),
        ),
    ])
}

struct Bad(String);

impl From<Error> for Bad2 {
    fn from(e: Error) -> Self {
        Bad2::Lib(e)
    }
}

enum Bad2 {
    Lib(Error),
    Request(Bad),
}

impl From<Bad> for Bad2 {
    fn from(b: Bad) -> Self {
        Bad2::Request(b)
    }
}

impl From<crate::error::NotationError> for Bad2 {
    fn from(e: crate::error::NotationError) -> Self {
        Bad2::Lib(e.into())
    }
}
impl From<crate::error::IllegalMove> for Bad2 {
    fn from(e: crate::error::IllegalMove) -> Self {
        Bad2::Lib(e.into())
    }
}
impl From<crate::error::JsonError> for Bad2 {
    fn from(e: crate::error::JsonError) -> Self {
        Bad2::Lib(e.into())
    }
}
impl From<crate::error::InvalidInput> for Bad2 {
    fn from(e: crate::error::InvalidInput) -> Self {
        Bad2::Lib(e.into())
    }
}

/// Answer one parsed request.
pub fn handle(request: &Json, cache: &mut Cache) -> Json {
    let id = request.get("id").cloned().unwrap_or(Json::Null);
    match answer(request, cache) {
        Ok(mut fields) => {
            let mut items = vec![("id".to_string(), id), ("ok".to_string(), Json::Bool(true))];
            items.append(&mut fields);
            Json::Obj(items)
        }
        Err(Bad2::Request(Bad(msg))) => bad_request(id, &msg),
        Err(Bad2::Lib(e)) => {
            let mut err = Vec::new();
            match &e {
                Error::Illegal(x) => {
                    err.push(("type".to_string(), Json::str("illegal_move")));
                    err.push(("rule".to_string(), Json::str(x.rule)));
                }
                Error::Notation(x) => {
                    err.push(("type".to_string(), Json::str("invalid_notation")));
                    err.push(("field".to_string(), Json::str(x.field.clone())));
                    err.push(("position".to_string(), Json::int(x.position as i128)));
                }
                Error::Json(x) => {
                    err.push(("type".to_string(), Json::str("invalid_json")));
                    err.push(("path".to_string(), Json::str(x.path.clone())));
                }
                Error::Invalid(x) => {
                    err.push(("type".to_string(), Json::str("invalid_input")));
                    err.push(("field".to_string(), Json::str(x.field.clone())));
                }
            }
            err.push(("message".to_string(), Json::str(e.to_string())));
            Json::Obj(vec![("id".into(), id), ("ok".into(), Json::Bool(false)), ("error".into(), Json::Obj(err))])
        }
    }
}

fn field<'a>(r: &'a Json, name: &str) -> Result<&'a Json, Bad> {
    r.get(name).ok_or_else(|| Bad(format!("the request needs '{name}'")))
}
fn str_field<'a>(r: &'a Json, name: &str) -> Result<&'a str, Bad> {
    field(r, name)?.as_str().ok_or_else(|| Bad(format!("'{name}' must be a string")))
}
fn int_field(r: &Json, name: &str) -> Result<i128, Bad> {
    field(r, name)?.as_int().ok_or_else(|| Bad(format!("'{name}' must be an integer")))
}
fn seed_field(r: &Json, name: &str) -> Result<u64, Bad> {
    let s = str_field(r, name)?;
    seed_from_decimal(s).ok_or_else(|| Bad(format!("'{name}' must be a decimal integer string")))
}
fn player_field(r: &Json) -> Result<usize, Bad> {
    match int_field(r, "player")? {
        0 => Ok(0),
        1 => Ok(1),
        _ => Err(Bad("'player' must be 0 or 1".into())),
    }
}

type Fields = Vec<(String, Json)>;

fn strings(v: impl IntoIterator<Item = String>) -> Json {
    Json::Arr(v.into_iter().map(Json::Str).collect())
}

fn answer(r: &Json, cache: &mut Cache) -> Result<Fields, Bad2> {
    let kind = str_field(r, "kind")?;
    let out: Fields = match kind {
        "hello" => vec![
            ("name".into(), Json::str("hatsuden (Rust)")),
            ("version".into(), Json::str(env!("CARGO_PKG_VERSION"))),
            ("rules_version".into(), Json::int(RULES_VERSION as i128)),
            ("format_version".into(), Json::int(1)),
        ],
        "rng" => {
            let mut g = SplitMix64::new(seed_field(r, "seed")?);
            let count = int_field(r, "count")?;
            if !(0..=1_000_000).contains(&count) {
                return Err(Bad("'count' must be in [0, 1000000]".into()).into());
            }
            let outputs: Vec<String> = (0..count.max(0)).map(|_| g.next().to_string()).collect();
            vec![("outputs".into(), strings(outputs)), ("state".into(), Json::str(g.state.to_string()))]
        }
        "sample" => {
            let mut g = SplitMix64::new(seed_field(r, "seed")?);
            let Some(Json::Arr(lists)) = r.get("weights") else {
                return Err(Bad("'weights' must be a list of lists".into()).into());
            };
            let mut picks = Vec::new();
            for list in lists {
                let Json::Arr(ws) = list else {
                    return Err(Bad("'weights' must be a list of lists".into()).into());
                };
                let ws: Vec<u64> = ws.iter().map(|w| w.as_int().unwrap_or(0).max(0) as u64).collect();
                match g.sample(&ws) {
                    Some(i) => picks.push(Json::int(i as i128)),
                    None => return Err(Bad("weights summing to 0".into()).into()),
                }
            }
            vec![("picks".into(), Json::Arr(picks)), ("state".into(), Json::str(g.state.to_string()))]
        }
        "new_game" => {
            let rules = Rules::parse(str_field(r, "rules")?)?;
            let seed = match field(r, "seed")? {
                Json::Null => None,
                _ => Some(seed_field(r, "seed")?),
            };
            let s = engine::new_game(&rules, seed)?;
            vec![("state".into(), Json::str(cache.text(&s)))]
        }
        "apply" => {
            let s = cache.state(str_field(r, "state")?)?;
            let m = crate::moves::Move::parse(str_field(r, "move")?, Some(s.rules()))?;
            let next = s.apply(m)?;
            vec![("state".into(), Json::str(cache.text(&next)))]
        }
        "legal_moves" => {
            let s = cache.state(str_field(r, "state")?)?;
            if s.phase() == Phase::Chance {
                let outs = s.chance_outcomes()?;
                vec![
                    ("moves".into(), strings(outs.iter().map(|(m, _, _)| m.format()))),
                    ("probabilities".into(), strings(outs.iter().map(|(_, p, q)| format!("{p}/{q}")))),
                ]
            } else {
                vec![("moves".into(), strings(s.legal_moves_vec().iter().map(|m| m.format())))]
            }
        }
        "score" => {
            let s = cache.state(str_field(r, "state")?)?;
            vec![("score".into(), docs::score_doc(&score::score(&s)))]
        }
        "observe" => {
            let s = cache.state(str_field(r, "state")?)?;
            let o = observe::observe(&s, player_field(r)?);
            vec![("observation".into(), Json::str(observe::format_observation(&o)))]
        }
        "tensor" => {
            let s = cache.state(str_field(r, "state")?)?;
            let o = observe::observe(&s, player_field(r)?);
            let t = observe::observation_tensor(&o);
            vec![("tensor".into(), Json::Arr(t.into_iter().map(|x| Json::int(x as i128)).collect()))]
        }
        "sample_state" => {
            let s = cache.state(str_field(r, "state")?)?;
            let o = observe::observe(&s, player_field(r)?);
            let mut g = SplitMix64::new(seed_field(r, "seed")?);
            let sampled = observe::sample_state(&o, &mut g)?;
            vec![("state".into(), Json::str(cache.text(&sampled)))]
        }
        "perft" => {
            let s = cache.state(str_field(r, "state")?)?;
            let depth = int_field(r, "depth")?;
            if !(1..=32).contains(&depth) {
                return Err(Bad("'depth' must be in [1, 32]".into()).into());
            }
            let depth = depth as usize;
            let counts = s.perft(depth);
            let mut f: Fields =
                vec![("counts".into(), Json::Arr(counts.iter().map(|c| Json::int(*c as i128)).collect()))];
            if matches!(r.get("divide"), Some(Json::Bool(true))) {
                let d = s.perft_divide(depth);
                f.push((
                    "divide".into(),
                    Json::Arr(
                        d.into_iter()
                            .map(|(m, n)| Json::Arr(vec![Json::str(m.format()), Json::int(n as i128)]))
                            .collect(),
                    ),
                ));
            }
            f
        }
        "parse" => {
            let format = str_field(r, "format")?;
            let ty = str_field(r, "type")?;
            let text = str_field(r, "text")?;
            let canonical = match format {
                "notation" => Json::Str(match ty {
                    "move" => {
                        let rules = match r.get("rules") {
                            Some(Json::Str(t)) => Some(Rules::parse(t)?),
                            _ => None,
                        };
                        crate::moves::Move::parse(text, rules.as_ref())?.format()
                    }
                    "rules" => Rules::parse(text)?.format(),
                    "state" => notation::format_state(&notation::parse_state(text)?),
                    "observation" => observe::format_observation(&observe::parse_observation(text)?),
                    _ => return Err(Bad(format!("unknown type '{ty}'")).into()),
                }),
                "json" => docs::canonical_json(text, ty)?,
                _ => return Err(Bad(format!("unknown format '{format}'")).into()),
            };
            vec![("canonical".into(), canonical)]
        }
        // Extension (not in CONFORMANCE.md): game records, for differential tests.
        "x_record" => {
            let rules = Rules::parse(str_field(r, "rules")?)?;
            let seed = match field(r, "seed")? {
                Json::Null => None,
                _ => Some(seed_field(r, "seed")?),
            };
            let Some(Json::Arr(ms)) = r.get("moves") else {
                return Err(Bad("'moves' must be a list".into()).into());
            };
            let mut moves = Vec::new();
            for m in ms {
                moves.push(crate::moves::Move::parse(m.as_str().unwrap_or(""), Some(&rules))?);
            }
            // `players`: absent or null (no names), or two names, as `record_game(players=...)`
            // takes them; anything else is refused naming the field, never read as no names.
            let players = match r.get("players") {
                None | Some(Json::Null) => None,
                Some(Json::Arr(p)) if p.len() == 2 => {
                    let name = |k: usize| {
                        p[k].as_str().filter(|n| crate::records::valid_name(n)).map(str::to_string).ok_or_else(|| {
                            InvalidInput::new(
                                &format!("players[{k}]"),
                                format!("a name is a str of 1 to {} printable characters", crate::records::MAX_NAME),
                            )
                        })
                    };
                    Some([name(0)?, name(1)?])
                }
                Some(other) => {
                    let got = other.to_text();
                    return Err(InvalidInput::new("players", format!("must be None or two names, got {got}")).into());
                }
            };
            match crate::records::record_game(&rules, seed, &moves, players) {
                Ok(rec) => vec![
                    ("text".into(), Json::str(crate::records::format_record(&rec))),
                    ("json".into(), crate::records::record_doc(&rec)),
                ],
                Err(e) => vec![
                    ("replay_error".into(), Json::str(e.field)),
                    ("rule".into(), e.rule.map(Json::str).unwrap_or(Json::Null)),
                ],
            }
        }
        "x_parse_record" => {
            let rec = crate::records::parse_record(str_field(r, "text")?)?;
            vec![("text".into(), Json::str(crate::records::format_record(&rec)))]
        }
        _ => return Err(Bad(format!("unknown kind '{kind}'")).into()),
    };
    Ok(out)
}
