//! Game records (NOTATION.md "Game records"): the rules, the seed or the chance outcomes, the
//! moves and the result; their text form, their JSON document, and `replay`.

use crate::docs::{read_rules_body, rules_body};
use crate::engine::new_game;
use crate::error::{Error, JsonError, NotationError};
use crate::json::{self, Json};
use crate::moves::Move;
use crate::rules::{Rules, Tiebreak};
use crate::score::{score, Decision};
use crate::state::{EndReason, Pending, State};
use std::fmt;

/// Longest player name.
pub const MAX_NAME: usize = 100;

/// Whether `name` is a player name: 1 to [`MAX_NAME`] characters, each printable
/// ([`crate::printable`], the table of the reference's `str.isprintable` at one Unicode version).
pub fn valid_name(name: &str) -> bool {
    (1..=MAX_NAME).contains(&name.chars().count()) && crate::printable::is_printable_text(name)
}

/// How a game ended (R26, R29).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// The winner.
    pub winner: usize,
    /// What decided it.
    pub decided_by: Decision,
    /// Both totals.
    pub totals: [i64; 2],
    /// Why the game ended.
    pub end_reason: EndReason,
}

impl GameResult {
    /// The result of a finished game, or None if it is not over.
    pub fn of(s: &State) -> Option<GameResult> {
        if s.end_reason() == EndReason::None {
            return None;
        }
        let sheet = score(s);
        Some(GameResult {
            winner: sheet.winner,
            decided_by: sheet.decided_by,
            totals: [sheet.players[0].total, sheet.players[1].total],
            end_reason: s.end_reason(),
        })
    }

    /// `Err((field, message))` unless the result is possible (R29).
    fn check(&self) -> Result<(), (&'static str, String)> {
        let [a, b] = self.totals;
        match self.decided_by {
            Decision::Total if a == b || self.winner != if a > b { 0 } else { 1 } => {
                return Err(("winner", "a decision by total goes to the higher total".into()));
            }
            Decision::Total => {}
            _ if a != b => return Err(("decided_by", "a tie-break decides equal totals only (R29)".into())),
            Decision::SecondPlayer if self.winner != 1 => {
                return Err(("winner", "the second-player rule makes player 1 win (R29)".into()))
            }
            _ => {}
        }
        if self.end_reason == EndReason::None {
            return Err(("end_reason", "a finished game has an end reason".into()));
        }
        Ok(())
    }

    fn text(r: Option<&GameResult>) -> String {
        match r {
            None => "*".into(),
            Some(r) => format!(
                "winner={} decided_by={} totals={}:{} end_reason={}",
                r.winner,
                r.decided_by.name(),
                r.totals[0],
                r.totals[1],
                r.end_reason.name()
            ),
        }
    }
}

/// A game as it was played.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameRecord {
    /// The rule set.
    pub rules: Rules,
    /// The seed (R8), or None in explicit chance mode (the chance outcomes are among the moves).
    pub seed: Option<u64>,
    /// Every move, in order.
    pub moves: Vec<Move>,
    /// The names of players 0 and 1.
    pub players: Option<[String; 2]>,
    /// The stated result.
    pub result: Option<GameResult>,
}

/// A record whose moves or result do not replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// `moves[i]` (0-based) for a move that is not legal, `result` for a result that is not
    /// the game's.
    pub field: String,
    /// The 1-based ply at fault, if a move.
    pub ply: Option<usize>,
    /// The move at fault.
    pub mv: Option<Move>,
    /// The rule the move breaks.
    pub rule: Option<&'static str>,
    /// Free text.
    pub message: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}
impl std::error::Error for ReplayError {}

impl GameRecord {
    /// The result's consistency with the rules. (The names are checked where each reader meets
    /// them, at their own position or path, and by `record_game`.)
    fn check(&self) -> Result<(), (&'static str, String)> {
        if let Some(r) = &self.result {
            r.check()?;
            let tiebreak =
                if self.rules.tiebreak == Tiebreak::CityPoints { Decision::CityPoints } else { Decision::Supply };
            if ![Decision::Total, Decision::SecondPlayer, tiebreak].contains(&r.decided_by) {
                return Err(("result", "not a tie-break of these rules (R29)".into()));
            }
            if r.end_reason == EndReason::Stall && self.rules.stall_limit.is_none() {
                return Err(("result", "no stall end without a stall limit (R25)".into()));
            }
        }
        Ok(())
    }
}

/// The record of a game played from `new_game(rules, seed)`, with its result if it is over; a
/// name that [`valid_name`] refuses is refused as `players[k]`.
pub fn record_game(
    rules: &Rules,
    seed: Option<u64>,
    moves: &[Move],
    players: Option<[String; 2]>,
) -> Result<GameRecord, ReplayError> {
    if let Some(names) = &players {
        if let Some(k) = names.iter().position(|name| !valid_name(name)) {
            return Err(ReplayError {
                field: format!("players[{k}]"),
                ply: None,
                mv: None,
                rule: None,
                message: format!("a name has 1 to {MAX_NAME} printable characters"),
            });
        }
    }
    let mut record = GameRecord { rules: *rules, seed, moves: moves.to_vec(), players, result: None };
    let end = replay(&record)?;
    record.result = GameResult::of(&end);
    Ok(record)
}

/// Play the record again and return the final state, checking every move and the result.
pub fn replay(record: &GameRecord) -> Result<State, ReplayError> {
    let mut s = new_game(&record.rules, record.seed).map_err(|e| ReplayError {
        field: "rules".into(),
        ply: None,
        mv: None,
        rule: None,
        message: e.message,
    })?;
    let mut turn = if s.pending() == Pending::Setup { 0 } else { 1 };
    for (k, &m) in record.moves.iter().enumerate() {
        let before = s;
        if let Err(e) = s.apply_mut(m) {
            let where_ = if turn == 0 {
                "the deal".to_string()
            } else {
                format!("turn {turn}, player {}", before.current_player())
            };
            return Err(ReplayError {
                field: format!("moves[{k}]"),
                ply: Some(k + 1),
                mv: Some(m),
                rule: Some(e.rule),
                message: format!("ply {} ({where_}) {m}: {e}", k + 1),
            });
        }
        if before.pending() == Pending::Setup {
            if s.pending() != Pending::Setup {
                turn = 1;
            }
        } else if s.current_player() != before.current_player() {
            turn += 1;
        }
    }
    if let Some(stated) = &record.result {
        let fail = |message: String| ReplayError { field: "result".into(), ply: None, mv: None, rule: None, message };
        match GameResult::of(&s) {
            None => return Err(fail("a result is stated but the game is not over after the last move".into())),
            Some(actual) if actual != *stated => {
                return Err(fail(format!(
                    "the record states {}, the game gives {}",
                    GameResult::text(Some(stated)),
                    GameResult::text(Some(&actual))
                )))
            }
            _ => {}
        }
    }
    Ok(s)
}

fn ends_turn(m: &Move, previous: Option<&Move>, seeded: bool) -> bool {
    match m {
        Move::DrawFromDiscard { .. } | Move::EndTurn => true,
        Move::DrawFromDeck => seeded,
        Move::Deal { .. } => matches!(previous, Some(Move::DrawFromDeck)),
        _ => false,
    }
}

fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The canonical text form of a record.
pub fn format_record(r: &GameRecord) -> String {
    let mut head = vec![
        "[Hatsuden \"1\"]".to_string(),
        format!("[Rules {}]", quote(&r.rules.format())),
        format!("[Seed {}]", quote(&r.seed.map(|s| s.to_string()).unwrap_or_else(|| "-".into()))),
    ];
    if let Some([a, b]) = &r.players {
        head.push(format!("[Player0 {}]", quote(a)));
        head.push(format!("[Player1 {}]", quote(b)));
    }
    head.push(format!("[Result {}]", quote(&GameResult::text(r.result.as_ref()))));
    // One turn a line (line 0: the deal of an explicit game).
    let mut lines: Vec<(usize, Vec<Move>)> = Vec::new();
    let mut start = 0;
    if r.seed.is_none() {
        let deal = (2 * r.rules.hand_size as usize).min(r.moves.len());
        while start < deal && matches!(r.moves[start], Move::Deal { .. }) {
            start += 1;
        }
        if start > 0 {
            lines.push((0, r.moves[..start].to_vec()));
        }
    }
    let offset = if lines.is_empty() { 1 } else { 0 };
    let mut current = Vec::new();
    let mut previous: Option<Move> = None;
    for m in &r.moves[start..] {
        current.push(*m);
        if ends_turn(m, previous.as_ref(), r.seed.is_some()) {
            lines.push((lines.len() + offset, std::mem::take(&mut current)));
        }
        previous = Some(*m);
    }
    if !current.is_empty() {
        lines.push((lines.len() + offset, current));
    }
    let mut out = head.join("\n");
    out.push('\n');
    for (n, moves) in &lines {
        out.push('\n');
        out.push_str(&format!("{n}. "));
        out.push_str(&moves.iter().map(|m| m.format()).collect::<Vec<_>>().join(", "));
    }
    if !lines.is_empty() {
        out.push('\n');
    }
    out
}

/// A record text error: field `record`, the 0-based position, and the line and column.
fn rec_err(text: &[char], at: usize, message: impl Into<String>) -> NotationError {
    let line = text[..at.min(text.len())].iter().filter(|c| **c == '\n').count() + 1;
    let col = at - text[..at.min(text.len())].iter().rposition(|c| *c == '\n').map(|i| i + 1).unwrap_or(0) + 1;
    NotationError::new("record", at, format!("line {line}, column {col}: {}", message.into()))
}

struct Reader<'a> {
    t: &'a [char],
    pos: usize,
}

impl Reader<'_> {
    fn starts(&self, s: &str) -> bool {
        s.chars().enumerate().all(|(k, c)| self.t.get(self.pos + k) == Some(&c))
    }
    fn expect(&mut self, s: &str, what: &str) -> Result<(), NotationError> {
        if self.starts(s) {
            self.pos += s.chars().count();
            Ok(())
        } else {
            Err(rec_err(self.t, self.pos, format!("expected {what}")))
        }
    }
    fn tag(&mut self, name: &str) -> Result<(String, usize), NotationError> {
        self.expect(&format!("[{name} "), &format!("the tag [{name} ...]"))?;
        self.expect("\"", "a quoted value")?;
        let start = self.pos;
        let mut out = String::new();
        loop {
            match self.t.get(self.pos) {
                None | Some('\n') => return Err(rec_err(self.t, self.pos, "unterminated quoted value")),
                Some('"') => break,
                Some('\\') => match self.t.get(self.pos + 1) {
                    Some(c @ ('"' | '\\')) => {
                        out.push(*c);
                        self.pos += 2;
                    }
                    _ => return Err(rec_err(self.t, self.pos, "only \\\" and \\\\ are escapes")),
                },
                Some(c) => {
                    out.push(*c);
                    self.pos += 1;
                }
            }
        }
        self.pos += 1;
        self.expect("]\n", "']' and the end of the line")?;
        Ok((out, start))
    }
    fn inner(&self, e: NotationError, start: usize) -> NotationError {
        rec_err(self.t, start + e.position, e.message)
    }
}

fn is_int(s: &str) -> bool {
    let d = s.strip_prefix('-').unwrap_or(s);
    !d.is_empty() && d.len() <= 9 && d.bytes().all(|b| b.is_ascii_digit()) && (d == "0" || !d.starts_with('0'))
}

fn parse_result(text: &str) -> Option<Option<GameResult>> {
    if text == "*" {
        return Some(None);
    }
    let words: Vec<&str> = text.split(' ').collect();
    let keys = ["winner", "decided_by", "totals", "end_reason"];
    if words.len() != 4 {
        return None;
    }
    let mut values = Vec::new();
    for (w, k) in words.iter().zip(keys) {
        values.push(w.strip_prefix(k)?.strip_prefix('=')?);
    }
    let winner = match values[0] {
        "0" => 0,
        "1" => 1,
        _ => return None,
    };
    let decided_by = [Decision::Total, Decision::CityPoints, Decision::Supply, Decision::SecondPlayer]
        .into_iter()
        .find(|d| d.name() == values[1])?;
    let end_reason = [EndReason::FinalTurn, EndReason::Stall].into_iter().find(|r| r.name() == values[3])?;
    let totals: Vec<&str> = values[2].split(':').collect();
    if totals.len() != 2 || !totals.iter().all(|t| is_int(t)) {
        return None;
    }
    Some(Some(GameResult {
        winner,
        decided_by,
        totals: [totals[0].parse().ok()?, totals[1].parse().ok()?],
        end_reason,
    }))
}

/// Read a record in its text form (strict: the canonical form only). The moves are checked for
/// form and cards in play, not for legality (`replay` does that).
pub fn parse_record(text: &str) -> Result<GameRecord, NotationError> {
    let chars: Vec<char> = text.chars().collect();
    let mut r = Reader { t: &chars, pos: 0 };
    let (version, at) = r.tag("Hatsuden")?;
    if version != "1" {
        return Err(rec_err(&chars, at, format!("this library reads version 1, got '{version}'")));
    }
    let (rules_text, at) = r.tag("Rules")?;
    let rules = Rules::parse(&rules_text).map_err(|e| r.inner(e, at))?;
    let (seed_text, at) = r.tag("Seed")?;
    let seed = if seed_text == "-" {
        None
    } else {
        let ok = seed_text.bytes().all(|b| b.is_ascii_digit())
            && !seed_text.is_empty()
            && (seed_text.len() == 1 || !seed_text.starts_with('0'));
        if !ok {
            return Err(rec_err(&chars, at, "expected '-' or a decimal seed in [0, 2**64)"));
        }
        match seed_text.parse::<u64>() {
            Ok(s) if seed_text.len() <= 20 => Some(s),
            _ => return Err(rec_err(&chars, at, "a seed is below 2**64")),
        }
    };
    let mut players = None;
    if r.starts("[Player0 ") {
        let (a, a_at) = r.tag("Player0")?;
        let (b, b_at) = r.tag("Player1")?;
        for (name, name_at) in [(&a, a_at), (&b, b_at)] {
            if !valid_name(name) {
                return Err(rec_err(&chars, name_at, format!("a name has 1 to {MAX_NAME} printable characters")));
            }
        }
        players = Some([a, b]);
    }
    let (result_text, result_at) = r.tag("Result")?;
    let result = parse_result(&result_text)
        .ok_or_else(|| rec_err(&chars, result_at, format!("malformed result '{result_text}'")))?;
    if let Some(res) = &result {
        if let Err((_, msg)) = res.check() {
            return Err(rec_err(&chars, result_at, msg));
        }
    }
    // The moves, one turn a line.
    let mut moves = Vec::new();
    if r.pos < chars.len() {
        r.expect("\n", "a blank line after the tags")?;
        let mut expected = if seed.is_none() { 0 } else { 1 };
        let mut previous: Option<Move> = None;
        let mut first = true;
        while r.pos < chars.len() {
            let line_start = r.pos;
            let mut end = r.pos;
            while end < chars.len() && chars[end].is_ascii_digit() {
                end += 1;
            }
            let token: String = chars[r.pos..end].iter().collect();
            if token.is_empty() || (token.len() > 1 && token.starts_with('0')) {
                return Err(rec_err(&chars, line_start, "expected a turn number"));
            }
            if token.len() > 9 {
                return Err(rec_err(&chars, line_start, "a turn number has at most 9 digits"));
            }
            r.pos = end;
            let number: usize = token.parse().unwrap_or(0);
            if first && seed.is_none() && number == 1 {
                expected = 1;
            }
            if number != expected {
                return Err(rec_err(&chars, line_start, format!("expected turn {expected}")));
            }
            r.expect(". ", "'. '")?;
            let mut line: Vec<(Move, usize)> = Vec::new();
            loop {
                let at = r.pos;
                let mut stop = at;
                while stop < chars.len()
                    && chars[stop] != '\n'
                    && !(chars[stop] == ',' && chars.get(stop + 1) == Some(&' '))
                {
                    stop += 1;
                }
                let piece: String = chars[at..stop].iter().collect();
                let m = Move::parse(&piece, Some(&rules)).map_err(|e| r.inner(e, at))?;
                line.push((m, at));
                r.pos = stop;
                if r.starts(", ") {
                    r.pos += 2;
                    continue;
                }
                r.expect("\n", "', ' or the end of the line")?;
                break;
            }
            let last_line = r.pos == chars.len();
            if number == 0 {
                let deal = 2 * rules.hand_size as usize;
                if let Some((_, at)) = line.iter().find(|(m, _)| !matches!(m, Move::Deal { .. })) {
                    return Err(rec_err(&chars, *at, "line 0 holds the deal: Deal moves only"));
                }
                if line.len() > deal || (line.len() < deal && !last_line) {
                    return Err(rec_err(&chars, line[0].1, format!("the deal is {deal} Deal moves")));
                }
                previous = line.last().map(|x| x.0);
            } else {
                for k in 0..line.len() {
                    let (m, at) = line[k];
                    let ends = ends_turn(&m, previous.as_ref(), seed.is_some());
                    if ends && k + 1 < line.len() {
                        return Err(rec_err(
                            &chars,
                            line[k + 1].1,
                            "the turn ends here: the next move starts a new line",
                        ));
                    }
                    if !ends && k + 1 == line.len() && !last_line {
                        return Err(rec_err(&chars, at, "a turn ends with its draw (DX, E, DD or the Deal after DD)"));
                    }
                    previous = Some(m);
                }
            }
            moves.extend(line.into_iter().map(|(m, _)| m));
            expected += 1;
            first = false;
        }
    }
    let record = GameRecord { rules, seed, moves, players, result };
    if let Err((_, msg)) = record.check() {
        return Err(rec_err(&chars, result_at, msg));
    }
    Ok(record)
}

/// The record document.
pub fn record_doc(r: &GameRecord) -> Json {
    let mut items: Vec<(String, Json)> = vec![
        ("type".into(), Json::str("record")),
        ("format_version".into(), Json::int(1)),
        ("rules".into(), Json::Obj(rules_body(&r.rules))),
        ("seed".into(), r.seed.map(|s| Json::str(s.to_string())).unwrap_or(Json::Null)),
        (
            "players".into(),
            r.players
                .as_ref()
                .map(|[a, b]| Json::Arr(vec![Json::str(a.clone()), Json::str(b.clone())]))
                .unwrap_or(Json::Null),
        ),
        ("moves".into(), Json::Arr(r.moves.iter().map(|m| Json::str(m.format())).collect())),
    ];
    let result = match &r.result {
        None => Json::Null,
        Some(x) => Json::Obj(vec![
            ("winner".into(), Json::int(x.winner as i128)),
            ("decided_by".into(), Json::str(x.decided_by.name())),
            ("totals".into(), Json::Arr(vec![Json::int(x.totals[0] as i128), Json::int(x.totals[1] as i128)])),
            ("end_reason".into(), Json::str(x.end_reason.name())),
        ]),
    };
    items.push(("result".into(), result));
    Json::Obj(items)
}

fn jerr<T>(path: &str, msg: impl Into<String>) -> Result<T, JsonError> {
    Err(JsonError::new(path, msg))
}

/// Read a record document.
pub fn record_from_json(text: &str) -> Result<GameRecord, Error> {
    let doc = json::parse(text).map_err(|m| JsonError::new("$", format!("not JSON: {m}")))?;
    Ok(record_from_value(&doc)?)
}

/// Read a record document (parsed JSON).
pub fn record_from_value(doc: &Json) -> Result<GameRecord, JsonError> {
    let Json::Obj(items) = doc else { return jerr("$", "a document is a JSON object") };
    match doc.get("type") {
        Some(Json::Str(t)) if t == "record" => {}
        _ => return jerr("$.type", "expected a record document"),
    }
    if !matches!(doc.get("format_version"), Some(Json::Int(Some(1), _))) {
        return jerr("$.format_version", "this library reads version 1");
    }
    let known = ["type", "format_version", "rules", "seed", "players", "moves", "result"];
    for (k, _) in items {
        if !known.contains(&k.as_str()) {
            return jerr(&format!("$.{k}"), format!("unknown key '{k}'"));
        }
    }
    for k in &known[2..] {
        if doc.get(k).is_none() {
            return jerr("$", format!("missing key '{k}'"));
        }
    }
    let rules = read_rules_body(doc.get("rules").unwrap_or(&Json::Null), "$.rules", &[])?;
    let seed = match doc.get("seed") {
        Some(Json::Null) | None => None,
        Some(Json::Str(s)) => {
            let ok = !s.is_empty()
                && s.len() <= 20
                && s.bytes().all(|b| b.is_ascii_digit())
                && (s.len() == 1 || !s.starts_with('0'));
            match s.parse::<u64>() {
                Ok(v) if ok => Some(v),
                _ => return jerr("$.seed", "expected a decimal seed in [0, 2**64)"),
            }
        }
        Some(_) => return jerr("$.seed", "expected a string or null"),
    };
    let players = match doc.get("players") {
        Some(Json::Null) | None => None,
        Some(Json::Arr(v)) if v.len() == 2 => {
            let mut names = [String::new(), String::new()];
            for (k, x) in v.iter().enumerate() {
                let Json::Str(name) = x else { return jerr(&format!("$.players[{k}]"), "expected a string") };
                if !valid_name(name) {
                    return jerr(
                        &format!("$.players[{k}]"),
                        format!("a name has 1 to {MAX_NAME} printable characters"),
                    );
                }
                names[k] = name.clone();
            }
            Some(names)
        }
        Some(_) => return jerr("$.players", "expected two names or null"),
    };
    let Some(Json::Arr(raw_moves)) = doc.get("moves") else { return jerr("$.moves", "expected an array") };
    let mut moves = Vec::with_capacity(raw_moves.len());
    for (k, m) in raw_moves.iter().enumerate() {
        let path = format!("$.moves[{k}]");
        let Json::Str(text) = m else { return jerr(&path, "expected a string") };
        moves.push(Move::parse(text, Some(&rules)).map_err(|e| JsonError::new(path, e.message))?);
    }
    let result = match doc.get("result") {
        Some(Json::Null) | None => None,
        Some(v @ Json::Obj(items)) => {
            for (k, _) in items {
                if !["winner", "decided_by", "totals", "end_reason"].contains(&k.as_str()) {
                    return jerr(&format!("$.result.{k}"), format!("unknown key '{k}'"));
                }
            }
            let winner = match v.get("winner") {
                Some(Json::Int(Some(w), _)) if *w == 0 || *w == 1 => *w as usize,
                _ => return jerr("$.result.winner", "expected 0 or 1"),
            };
            let decided_by = match v.get("decided_by").and_then(|d| d.as_str()) {
                Some(d) => [Decision::Total, Decision::CityPoints, Decision::Supply, Decision::SecondPlayer]
                    .into_iter()
                    .find(|x| x.name() == d),
                None => None,
            };
            let Some(decided_by) = decided_by else { return jerr("$.result.decided_by", "expected a decision") };
            let totals = match v.get("totals") {
                Some(Json::Arr(t)) if t.len() == 2 => {
                    let mut out = [0i64; 2];
                    for (k, x) in t.iter().enumerate() {
                        match x {
                            Json::Int(Some(n), _) if n.abs() <= 1_000_000_000 => out[k] = *n as i64,
                            _ => return jerr(&format!("$.result.totals[{k}]"), "expected an integer"),
                        }
                    }
                    out
                }
                _ => return jerr("$.result.totals", "expected two integers"),
            };
            let end_reason = match v.get("end_reason").and_then(|d| d.as_str()) {
                Some("final_turn") => EndReason::FinalTurn,
                Some("stall") => EndReason::Stall,
                _ => return jerr("$.result.end_reason", "expected final_turn or stall"),
            };
            let r = GameResult { winner, decided_by, totals, end_reason };
            if let Err((field, msg)) = r.check() {
                return jerr(&format!("$.result.{field}"), msg);
            }
            Some(r)
        }
        Some(_) => return jerr("$.result", "expected an object or null"),
    };
    let record = GameRecord { rules, seed, moves, players, result };
    if let Err((field, msg)) = record.check() {
        return jerr(&format!("$.{field}"), msg);
    }
    Ok(record)
}
