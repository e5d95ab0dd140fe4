//! The JSON documents (NOTATION.md "JSON documents"): writers, and strict readers that report
//! the JSON path of the first problem.
//!
//! Split by concept: this file writes documents and is the entry point; `docs/read.rs` reads them.

use crate::error::{Error, JsonError};
use crate::json::{self, Json};
use crate::moves::{push_card, push_cell, read_move, Move, Seen};
use crate::observe::{format_observation, Observation, UNSEEN};
use crate::rules::{Overflow, Rules, Tables, TechTiming, Tiebreak, ENERGY_NAMES, TECH_NAMES};
use crate::score::Score;
use crate::state::{Stack, State, DOWNSIZED, FACE_DOWN, FLIPPED, NONE, SECRET};

type JR<T> = Result<T, JsonError>;

fn jerr<T>(path: &str, msg: impl Into<String>) -> JR<T> {
    Err(JsonError::new(path, msg))
}

fn s(x: &str) -> Json {
    Json::str(x)
}
fn int(x: i64) -> Json {
    Json::int(x as i128)
}
fn obj(items: Vec<(&str, Json)>) -> Json {
    Json::Obj(items.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

fn envelope(ty: &str, mut rest: Vec<(String, Json)>) -> Json {
    let mut items = vec![("type".to_string(), s(ty)), ("format_version".to_string(), int(1))];
    items.append(&mut rest);
    Json::Obj(items)
}

/// The body of a rules document (without the envelope).
pub fn rules_body(r: &Rules) -> Vec<(String, Json)> {
    let mut v: Vec<(String, Json)> = vec![
        ("energies".into(), int(r.energies as i64)),
        ("max_value".into(), int(r.max_value as i64)),
        ("copies".into(), int(r.copies as i64)),
        ("hand_size".into(), int(r.hand_size as i64)),
        ("city_demand".into(), int(r.city_demand as i64)),
        ("techs".into(), Json::Arr((0..4).filter(|t| r.techs & (1 << t) != 0).map(|t| s(TECH_NAMES[t])).collect())),
        ("tiebreak".into(), s(if r.tiebreak == Tiebreak::CityPoints { "city_points" } else { "supply" })),
        ("allow_retake_discard".into(), Json::Bool(r.allow_retake_discard)),
        ("stall_limit".into(), r.stall_limit.map(|x| int(x as i64)).unwrap_or(Json::Null)),
    ];
    if r.tech_timing == TechTiming::PlaceAtOnce {
        v.push(("tech_timing".into(), s("place_at_once")));
    }
    if r.overflow == Overflow::AnySet {
        v.push(("overflow".into(), s("any_set")));
    }
    v
}

/// The score document (R27-R29).
pub fn score_doc(sc: &Score) -> Json {
    let players = sc
        .players
        .iter()
        .map(|p| {
            obj(vec![
                ("energy_points", int(p.energy_points)),
                ("city_points", int(p.city_points)),
                ("total", int(p.total)),
                ("row_supply", Json::Arr(p.row_supply.iter().map(|&x| int(x as i64)).collect())),
                ("generation", Json::Arr(p.generation.iter().map(|&x| int(x as i64)).collect())),
            ])
        })
        .collect();
    envelope(
        "score",
        vec![
            ("players".into(), Json::Arr(players)),
            ("winner".into(), int(sc.winner as i64)),
            ("decided_by".into(), s(sc.decided_by.name())),
            (
                "energy_winners".into(),
                Json::Arr(sc.energy_winners.iter().map(|w| w.map(|x| int(x as i64)).unwrap_or(Json::Null)).collect()),
            ),
            ("smart".into(), sc.smart.map(|e| s(ENERGY_NAMES[e])).unwrap_or(Json::Null)),
        ],
    )
}

fn card_str(t: &Tables, i: u8) -> Json {
    if i == UNSEEN {
        return Json::Null;
    }
    let mut x = String::new();
    push_card(&mut x, t.card(i));
    Json::Str(x)
}

fn counts_json(t: &Tables, counts: &[u8]) -> Json {
    let mut v = Vec::new();
    for (i, &n) in counts.iter().enumerate().take(t.kinds) {
        for _ in 0..n {
            v.push(card_str(t, i as u8));
        }
    }
    Json::Arr(v)
}

fn techs_json(mask: u8) -> Json {
    Json::Arr((0..4).filter(|x| mask & (1 << x) != 0).map(|x| s(TECH_NAMES[x])).collect())
}

fn board_json(t: &Tables, board: &[Stack]) -> Json {
    Json::Arr(
        board
            .iter()
            .take(t.ncells)
            .map(|st| {
                if st.is_empty() {
                    Json::Null
                } else {
                    obj(vec![
                        ("cards", Json::Arr(st.cards().iter().map(|&i| card_str(t, i)).collect())),
                        ("face_down", Json::Bool(st.flags & FACE_DOWN != 0)),
                        ("flipped", Json::Bool(st.flags & FLIPPED != 0)),
                        ("secret", Json::Bool(st.flags & SECRET != 0)),
                        ("downsized", Json::Bool(st.flags & DOWNSIZED != 0)),
                    ])
                }
            })
            .collect(),
    )
}

fn opt_json(v: u8, f: impl FnOnce(u8) -> Json) -> Json {
    if v == NONE {
        Json::Null
    } else {
        f(v)
    }
}

fn acc_json(a: u8) -> Json {
    opt_json(a, |a| obj(vec![("player", int((a >> 1) as i64)), ("row", int((a & 1) as i64))]))
}

fn cell_json(t: &Tables, c: u8) -> Json {
    opt_json(c, |c| {
        let mut x = String::new();
        push_cell(&mut x, t.cell(c));
        Json::Str(x)
    })
}

fn moves_json<'a>(moves: impl Iterator<Item = &'a Seen>) -> Json {
    Json::Arr(
        moves
            .map(|m| {
                let mut x = String::new();
                m.write(&mut x);
                Json::Str(x)
            })
            .collect(),
    )
}

fn pending_json(p: crate::state::Pending) -> Json {
    if p == crate::state::Pending::None {
        Json::Null
    } else {
        s(p.name())
    }
}

fn reason_json(r: crate::state::EndReason) -> Json {
    if r == crate::state::EndReason::None {
        Json::Null
    } else {
        s(r.name())
    }
}

/// The state document.
pub fn state_doc(st: &State) -> Json {
    let t = st.t;
    let log = |l: &[Move]| moves_json(l.iter().map(|m| Seen::Move(*m)).collect::<Vec<_>>().iter());
    envelope(
        "state",
        vec![
            ("rules".into(), Json::Obj(rules_body(&t.rules))),
            ("phase".into(), s(st.phase.name())),
            ("current_player".into(), int(st.current as i64)),
            ("hands".into(), Json::Arr(vec![counts_json(t, &st.hands[0]), counts_json(t, &st.hands[1])])),
            ("deck".into(), counts_json(t, &st.deck)),
            ("discards".into(), counts_json(t, &st.discards)),
            ("boards".into(), Json::Arr(vec![board_json(t, &st.boards[0]), board_json(t, &st.boards[1])])),
            ("tech_deck".into(), techs_json(st.tech_deck)),
            ("tech_hands".into(), Json::Arr(vec![techs_json(st.tech_hands[0]), techs_json(st.tech_hands[1])])),
            ("accumulator".into(), acc_json(st.accumulator)),
            ("smart".into(), opt_json(st.smart, |e| s(ENERGY_NAMES[e as usize]))),
            ("played_cell".into(), cell_json(t, st.played)),
            ("turn_discard".into(), opt_json(st.turn_discard, |i| card_str(t, i))),
            ("pending_chance".into(), pending_json(st.pending)),
            ("stall_count".into(), int(st.stall as i64)),
            ("end_triggered_by".into(), opt_json(st.end_trigger, |p| int(p as i64))),
            ("end_reason".into(), reason_json(st.end_reason)),
            ("rng_state".into(), st.rng.map(|g| s(&g.to_string())).unwrap_or(Json::Null)),
            ("known_cards".into(), Json::Arr(vec![counts_json(t, &st.known[0]), counts_json(t, &st.known[1])])),
            ("this_turn".into(), log(st.this_turn())),
            ("last_turn".into(), log(st.last_turn())),
        ],
    )
}

/// The observation document.
pub fn observation_doc(o: &Observation) -> Json {
    let t = o.t;
    envelope(
        "observation",
        vec![
            ("rules".into(), Json::Obj(rules_body(&t.rules))),
            ("player".into(), int(o.player as i64)),
            ("phase".into(), s(o.phase.name())),
            ("current_player".into(), int(o.current_player as i64)),
            ("hand".into(), counts_json(t, &o.hand)),
            ("tech_hand".into(), techs_json(o.tech_hand)),
            ("known_to_opponent".into(), counts_json(t, &o.known_to_opponent)),
            ("opponent_known".into(), counts_json(t, &o.opponent_known)),
            ("opponent_hand_size".into(), int(o.opponent_hand_size as i64)),
            ("opponent_tech_hand_size".into(), int(o.opponent_tech_hand_size as i64)),
            ("deck_size".into(), int(o.deck_size as i64)),
            ("tech_deck_size".into(), int(o.tech_deck_size as i64)),
            ("discards".into(), counts_json(t, &o.discards)),
            ("boards".into(), Json::Arr(vec![board_json(t, &o.boards[0]), board_json(t, &o.boards[1])])),
            ("accumulator".into(), acc_json(o.accumulator)),
            ("smart".into(), opt_json(o.smart, |e| s(ENERGY_NAMES[e as usize]))),
            ("played_cell".into(), cell_json(t, o.played)),
            ("turn_discard".into(), opt_json(o.turn_discard, |i| card_str(t, i))),
            ("pending_chance".into(), pending_json(o.pending)),
            ("stall_count".into(), int(o.stall_count as i64)),
            ("end_triggered_by".into(), opt_json(o.end_trigger, |p| int(p as i64))),
            ("end_reason".into(), reason_json(o.end_reason)),
            ("this_turn".into(), moves_json(o.this_turn.iter())),
            ("last_turn".into(), moves_json(o.last_turn.iter())),
        ],
    )
}

mod read;

pub(crate) use read::read_rules_body;
use read::{check_envelope, get, keys, notation};
pub use read::{observation_from_json, score_from_json, state_from_json};

/// Read a JSON document of `ty` and write it again canonically (the `parse` request).
pub fn canonical_json(text: &str, ty: &str) -> Result<Json, Error> {
    let doc = json::parse(text).map_err(|m| JsonError::new("$", format!("not JSON: {m}")))?;
    let out = match ty {
        "rules" => {
            check_envelope(&doc, "rules")?;
            let r = read_rules_body(&doc, "$", &["type", "format_version"])?;
            envelope("rules", rules_body(&r))
        }
        "move" => {
            check_envelope(&doc, "move")?;
            keys(&doc, "$", &["type", "format_version", "move"], &[])?;
            let m = notation(get(&doc, "move"), "$.move", |sc| read_move(sc, None, false))?;
            let mut x = String::new();
            m.write(&mut x);
            envelope("move", vec![("move".into(), Json::Str(x))])
        }
        "state" => state_doc(&state_from_json(&doc)?),
        "observation" => observation_doc(&observation_from_json(&doc)?),
        "score" => score_doc(&score_from_json(&doc)?),
        "record" => crate::records::record_doc(&crate::records::record_from_value(&doc)?),
        _ => return Err(JsonError::new("$.type", format!("unknown document type '{ty}'")).into()),
    };
    Ok(out)
}

/// Read a move document.
pub fn move_from_json(text: &str) -> Result<Move, Error> {
    let doc = json::parse(text).map_err(|m| JsonError::new("$", format!("not JSON: {m}")))?;
    check_envelope(&doc, "move")?;
    keys(&doc, "$", &["type", "format_version", "move"], &[])?;
    match notation(get(&doc, "move"), "$.move", |sc| read_move(sc, None, false))? {
        Seen::Move(m) => Ok(m),
        _ => Err(JsonError::new("$.move", "a concealed move").into()),
    }
}

/// The move document.
pub fn move_doc(m: &Move) -> Json {
    envelope("move", vec![("move".into(), Json::Str(m.format()))])
}

/// The rules document.
pub fn rules_doc(r: &Rules) -> Json {
    envelope("rules", rules_body(r))
}

/// Read a rules document.
pub fn rules_from_json(text: &str) -> Result<Rules, Error> {
    let doc = json::parse(text).map_err(|m| JsonError::new("$", format!("not JSON: {m}")))?;
    check_envelope(&doc, "rules")?;
    Ok(read_rules_body(&doc, "$", &["type", "format_version"])?)
}

/// Observation notation, re-exported for the binding.
pub fn observation_text(o: &Observation) -> String {
    format_observation(o)
}

/// A JSON document of any type (NOTATION.md "JSON documents").
#[derive(Clone, Debug, PartialEq)]
pub enum Document {
    /// `rules`.
    Rules(Rules),
    /// `move`.
    Move(Move),
    /// `state`.
    State(Box<State>),
    /// `observation`.
    Observation(Box<Observation>),
    /// `score`.
    Score(Box<Score>),
}

impl Document {
    /// The document type (`"state"`).
    pub fn type_name(&self) -> &'static str {
        match self {
            Document::Rules(_) => "rules",
            Document::Move(_) => "move",
            Document::State(_) => "state",
            Document::Observation(_) => "observation",
            Document::Score(_) => "score",
        }
    }
}

/// The document as a JSON value.
pub fn to_value(d: &Document) -> Json {
    match d {
        Document::Rules(r) => rules_doc(r),
        Document::Move(m) => move_doc(m),
        Document::State(s) => state_doc(s),
        Document::Observation(o) => observation_doc(o),
        Document::Score(s) => score_doc(s),
    }
}

/// The compact canonical JSON text of a document.
pub fn to_json(d: &Document) -> String {
    to_value(d).to_text()
}

/// Read a JSON document; with `expected`, it must be of that type (`"state"`), else any type
/// (a game record: `records::record_from_json`). Errors carry the JSON path.
pub fn from_json(text: &str, expected: Option<&str>) -> Result<Document, Error> {
    let doc = json::parse(text).map_err(|m| JsonError::new("$", format!("not JSON: {m}")))?;
    let ty = match expected {
        Some(t) => t.to_string(),
        None => match doc.get("type") {
            Some(Json::Str(t)) if ["rules", "move", "state", "observation", "score"].contains(&t.as_str()) => t.clone(),
            _ => {
                check_envelope(&doc, "rules")?;
                unreachable_type()?
            }
        },
    };
    Ok(match ty.as_str() {
        "rules" => {
            check_envelope(&doc, "rules")?;
            Document::Rules(read_rules_body(&doc, "$", &["type", "format_version"])?)
        }
        "move" => {
            check_envelope(&doc, "move")?;
            keys(&doc, "$", &["type", "format_version", "move"], &[])?;
            match notation(get(&doc, "move"), "$.move", |sc| read_move(sc, None, false))? {
                Seen::Move(m) => Document::Move(m),
                _ => return Err(JsonError::new("$.move", "not a move of this engine").into()),
            }
        }
        "state" => Document::State(Box::new(state_from_json(&doc)?)),
        "observation" => Document::Observation(Box::new(observation_from_json(&doc)?)),
        "score" => Document::Score(Box::new(score_from_json(&doc)?)),
        other => return Err(JsonError::new("$.type", format!("unknown document type '{other}'")).into()),
    })
}

fn unreachable_type<T>() -> Result<T, JsonError> {
    Err(JsonError::new("$.type", "must be one of rules, move, state, score, observation, record"))
}
