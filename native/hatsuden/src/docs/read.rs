//! Reading the JSON documents: the shape of a document (keys, types, ranges, notation strings),
//! then R31, then the consistency conditions, each problem reported at its JSON path.

use super::{jerr, JR};
use crate::error::JsonError;
use crate::json::Json;
use crate::moves::{push_card, push_cell, read_card, read_cell, read_move, Seen};
use crate::notation::{check_state, Items, RawStack, RawState};
use crate::observe::Observation;
use crate::rules::Card;
use crate::rules::{
    Overflow, Rules, TechTiming, Tiebreak, ENERGY_LETTERS, ENERGY_NAMES, MAX_CARDS, TECH_CODES, TECH_NAMES,
};
use crate::scan::Scanner;
use crate::score::{Decision, PlayerScore, Score};
use crate::state::{EndReason, Pending, State, DOWNSIZED, FACE_DOWN, FLIPPED, SECRET};

pub(super) fn keys<'a>(v: &'a Json, path: &str, required: &[&str], optional: &[&str]) -> JR<&'a [(String, Json)]> {
    let Json::Obj(items) = v else {
        return jerr(path, format!("expected an object, got {}", v.type_name()));
    };
    for (k, _) in items {
        if !required.contains(&k.as_str()) && !optional.contains(&k.as_str()) {
            return jerr(&format!("{path}.{k}"), format!("unknown key '{k}'"));
        }
    }
    for k in required {
        if !items.iter().any(|(x, _)| x == k) {
            return jerr(path, format!("missing key '{k}'"));
        }
    }
    Ok(items)
}

pub(super) fn get<'a>(v: &'a Json, key: &str) -> &'a Json {
    v.get(key).unwrap_or(&Json::Null)
}

fn integer(v: &Json, path: &str, lo: i128, hi: i128) -> JR<i128> {
    match v {
        Json::Int(Some(x), _) if *x >= lo && *x <= hi => Ok(*x),
        Json::Int(x, text) => {
            let _ = x;
            jerr(path, format!("{text} is out of range [{lo}, {hi}]"))
        }
        _ => jerr(path, format!("expected an integer, got {}", v.type_name())),
    }
}

fn boolean(v: &Json, path: &str) -> JR<bool> {
    match v {
        Json::Bool(b) => Ok(*b),
        _ => jerr(path, format!("expected a boolean, got {}", v.type_name())),
    }
}

fn string<'a>(v: &'a Json, path: &str) -> JR<&'a str> {
    v.as_str().ok_or_else(|| JsonError::new(path, format!("expected a string, got {}", v.type_name())))
}

fn word(v: &Json, path: &str, words: &[&str]) -> JR<usize> {
    match v.as_str().and_then(|x| words.iter().position(|w| *w == x)) {
        Some(i) => Ok(i),
        None => jerr(path, format!("expected one of {}", words.join(", "))),
    }
}

fn array<'a>(v: &'a Json, path: &str, len: Option<usize>) -> JR<&'a [Json]> {
    match v {
        Json::Arr(items) => {
            if let Some(n) = len {
                if items.len() != n {
                    return jerr(path, format!("expected {n} items, got {}", items.len()));
                }
            }
            Ok(items)
        }
        _ => jerr(path, format!("expected an array, got {}", v.type_name())),
    }
}

pub(super) fn notation<T>(v: &Json, path: &str, f: impl FnOnce(&mut Scanner) -> crate::scan::R<T>) -> JR<T> {
    let text = string(v, path)?;
    let chars: Vec<char> = text.chars().collect();
    let mut sc = Scanner::new(&chars, "move");
    let r = f(&mut sc).and_then(|x| sc.end().map(|_| x));
    r.map_err(|e| JsonError::new(path, format!("{} at position {}", e.message, e.position)))
}

const RULE_KEYS: [&str; 9] = [
    "energies",
    "max_value",
    "copies",
    "hand_size",
    "city_demand",
    "techs",
    "tiebreak",
    "allow_retake_discard",
    "stall_limit",
];

pub(crate) fn read_rules_body(v: &Json, base: &str, extra: &[&str]) -> JR<Rules> {
    let mut optional = vec!["tech_timing", "overflow"];
    optional.extend_from_slice(extra);
    keys(v, base, &RULE_KEYS, &optional)?;
    let p = |k: &str| format!("{base}.{k}");
    let mut nums = [0u32; 5];
    for (i, k) in RULE_KEYS[..5].iter().enumerate() {
        nums[i] = integer(get(v, k), &p(k), 1, 1_000_000_000)? as u32;
    }
    let techs_arr = array(get(v, "techs"), &p("techs"), None)?;
    let mut techs = 0u8;
    let mut last = -1i32;
    for (i, x) in techs_arr.iter().enumerate() {
        let path = format!("{}[{i}]", p("techs"));
        let t = word(x, &path, &TECH_NAMES)?;
        if t as i32 <= last {
            return jerr(&path, "tech cards are listed once each, in order (R3)");
        }
        last = t as i32;
        techs |= 1 << t;
    }
    let tiebreak =
        [Tiebreak::CityPoints, Tiebreak::Supply][word(get(v, "tiebreak"), &p("tiebreak"), &["city_points", "supply"])?];
    let retake = boolean(get(v, "allow_retake_discard"), &p("allow_retake_discard"))?;
    let stall = match get(v, "stall_limit") {
        Json::Null => None,
        x => Some(integer(x, &p("stall_limit"), 1, 1_000_000_000)? as u32),
    };
    let tech_timing = match v.get("tech_timing") {
        None => TechTiming::Keep,
        Some(x) => [TechTiming::Keep, TechTiming::PlaceAtOnce][word(x, &p("tech_timing"), &["keep", "place_at_once"])?],
    };
    let overflow = match v.get("overflow") {
        None => Overflow::OneAtATime,
        Some(x) => [Overflow::OneAtATime, Overflow::AnySet][word(x, &p("overflow"), &["one_at_a_time", "any_set"])?],
    };
    let r = Rules {
        energies: nums[0],
        max_value: nums[1],
        copies: nums[2],
        hand_size: nums[3],
        city_demand: nums[4],
        techs,
        tiebreak,
        allow_retake_discard: retake,
        stall_limit: stall,
        tech_timing,
        overflow,
    };
    if let Err((field, msg)) = r.validate() {
        return jerr(&p(field), msg);
    }
    if r.card_count() > MAX_CARDS {
        return jerr(&p("copies"), "more plant cards than a document may describe (4096)");
    }
    Ok(r)
}

pub(super) fn check_envelope(v: &Json, ty: &str) -> JR<()> {
    let Json::Obj(_) = v else {
        return jerr("$", format!("a document is a JSON object, got {}", v.type_name()));
    };
    match v.get("type") {
        Some(Json::Str(x)) if x == ty => {}
        Some(Json::Str(x)) if ["rules", "move", "state", "score", "observation", "record"].contains(&x.as_str()) => {
            return jerr("$.type", format!("expected a {ty} document, got '{x}'"))
        }
        _ => return jerr("$.type", "must be one of rules, move, state, score, observation, record"),
    }
    match v.get("format_version") {
        Some(Json::Int(Some(1), _)) => Ok(()),
        _ => jerr("$.format_version", "this library reads version 1"),
    }
}

fn cards_line(v: &Json, path: &str, out: &mut String) -> JR<()> {
    let items = array(v, path, None)?;
    if items.is_empty() {
        out.push('-');
    }
    for (i, x) in items.iter().enumerate() {
        let c = notation(x, &format!("{path}[{i}]"), |sc| read_card(sc, None))?;
        if i > 0 {
            out.push(',');
        }
        push_card(out, c);
    }
    Ok(())
}

fn techs_line(v: &Json, path: &str, out: &mut String) -> JR<()> {
    let items = array(v, path, None)?;
    if items.is_empty() {
        out.push('-');
    }
    for (i, x) in items.iter().enumerate() {
        let t = word(x, &format!("{path}[{i}]"), &TECH_NAMES)?;
        if i > 0 {
            out.push(',');
        }
        out.push_str(TECH_CODES[t]);
    }
    Ok(())
}

fn board_line(v: &Json, path: &str, e: usize, seen: bool, out: &mut String) -> JR<()> {
    let cells = array(v, path, Some(2 * e))?;
    for (c, x) in cells.iter().enumerate() {
        if c > 0 {
            out.push(if c == e { ';' } else { ',' });
        }
        let cp = format!("{path}[{c}]");
        if *x == Json::Null {
            out.push('.');
            continue;
        }
        keys(x, &cp, &["cards", "face_down", "flipped", "secret", "downsized"], &[])?;
        let fd = boolean(get(x, "face_down"), &format!("{cp}.face_down"))?;
        let fl = boolean(get(x, "flipped"), &format!("{cp}.flipped"))?;
        let se = boolean(get(x, "secret"), &format!("{cp}.secret"))?;
        let dn = boolean(get(x, "downsized"), &format!("{cp}.downsized"))?;
        let cards = array(get(x, "cards"), &format!("{cp}.cards"), None)?;
        if cards.is_empty() {
            return jerr(&format!("{cp}.cards"), "a stack has at least one card");
        }
        if fl && !fd {
            return jerr(&cp, "a flipped stack is face down (R21)");
        }
        let mut flags = 0;
        if fd {
            flags |= FACE_DOWN;
        }
        if fl {
            flags |= FLIPPED;
        }
        if se {
            flags |= SECRET;
        }
        if dn {
            flags |= DOWNSIZED;
        }
        crate::notation::push_flags(out, flags);
        for (k, card) in cards.iter().enumerate() {
            if k > 0 {
                out.push('+');
            }
            if seen && *card == Json::Null {
                out.push('?');
            } else {
                let c = notation(card, &format!("{cp}.cards[{k}]"), |sc| read_card(sc, None))?;
                push_card(out, c);
            }
        }
    }
    Ok(())
}

fn moves_line(v: &Json, path: &str, seen: bool, out: &mut String) -> JR<()> {
    let items = array(v, path, None)?;
    out.push('[');
    for (i, x) in items.iter().enumerate() {
        let m = notation(x, &format!("{path}[{i}]"), |sc| read_move(sc, None, seen))?;
        if i > 0 {
            out.push_str(", ");
        }
        m.write(out);
    }
    out.push(']');
    Ok(())
}

fn pair<'a>(v: &'a Json, path: &str) -> JR<&'a [Json]> {
    array(v, path, Some(2))
}

fn opt_line(v: &Json, out: &mut String, f: impl FnOnce(&Json, &mut String) -> JR<()>) -> JR<()> {
    if *v == Json::Null {
        out.push('-');
        Ok(())
    } else {
        f(v, out)
    }
}

/// Common fields of state and observation documents, written as notation.
fn common_line(doc: &Json, key: &str, e: usize, seen: bool, out: &mut String) -> JR<()> {
    let v = get(doc, key);
    let path = format!("$.{key}");
    match key {
        "phase" => {
            let i = word(v, &path, &["chance", "action", "tech", "overflow", "draw", "game_over"])?;
            out.push_str(crate::state::Phase::ALL[i].name());
        }
        "current_player" | "player" => out.push_str(&integer(v, &path, 0, 1)?.to_string()),
        "discards" | "deck" | "hand" | "known_to_opponent" | "opponent_known" => cards_line(v, &path, out)?,
        "boards" => {
            let b = pair(v, &path)?;
            board_line(&b[0], &format!("{path}[0]"), e, seen, out)?;
            out.push('/');
            board_line(&b[1], &format!("{path}[1]"), e, seen, out)?;
        }
        "accumulator" => opt_line(v, out, |v, out| {
            keys(v, &path, &["player", "row"], &[])?;
            let p = integer(get(v, "player"), &format!("{path}.player"), 0, 1)?;
            let r = integer(get(v, "row"), &format!("{path}.row"), 0, 1)?;
            out.push_str(&format!("{p}:{r}"));
            Ok(())
        })?,
        "smart" => opt_line(v, out, |v, out| {
            out.push(ENERGY_LETTERS[word(v, &path, &ENERGY_NAMES)?]);
            Ok(())
        })?,
        "played_cell" => opt_line(v, out, |v, out| {
            push_cell(out, notation(v, &path, |sc| read_cell(sc, None))?);
            Ok(())
        })?,
        "turn_discard" => opt_line(v, out, |v, out| {
            push_card(out, notation(v, &path, |sc| read_card(sc, None))?);
            Ok(())
        })?,
        "pending_chance" => {
            if *v == Json::Null {
                out.push('-');
            } else {
                out.push_str(["setup", "draw", "tech"][word(v, &path, &["setup", "draw", "tech"])?]);
            }
        }
        "end_reason" => {
            if *v == Json::Null {
                out.push('-');
            } else {
                out.push_str(["final_turn", "stall"][word(v, &path, &["final_turn", "stall"])?]);
            }
        }
        "end_triggered_by" => opt_line(v, out, |v, out| {
            out.push_str(&integer(v, &path, 0, 1)?.to_string());
            Ok(())
        })?,
        "stall_count" | "opponent_hand_size" | "opponent_tech_hand_size" | "deck_size" | "tech_deck_size" => {
            out.push_str(&integer(v, &path, 0, 1_000_000_000)?.to_string())
        }
        "this_turn" | "last_turn" => moves_line(v, &path, seen, out)?,
        "tech_deck" | "tech_hand" => techs_line(v, &path, out)?,
        _ => {}
    }
    Ok(())
}

const STATE_KEYS: [&str; 22] = [
    "rules",
    "phase",
    "current_player",
    "hands",
    "deck",
    "discards",
    "boards",
    "tech_deck",
    "tech_hands",
    "accumulator",
    "smart",
    "played_cell",
    "turn_discard",
    "pending_chance",
    "stall_count",
    "end_triggered_by",
    "end_reason",
    "rng_state",
    "known_cards",
    "this_turn",
    "last_turn",
    "type",
];

const OBS_KEYS: [&str; 25] = [
    "rules",
    "player",
    "phase",
    "current_player",
    "hand",
    "tech_hand",
    "known_to_opponent",
    "opponent_known",
    "opponent_hand_size",
    "opponent_tech_hand_size",
    "deck_size",
    "tech_deck_size",
    "discards",
    "boards",
    "accumulator",
    "smart",
    "played_cell",
    "turn_discard",
    "pending_chance",
    "stall_count",
    "end_triggered_by",
    "end_reason",
    "this_turn",
    "last_turn",
    "type",
];

fn with_envelope(keys: &[&'static str]) -> Vec<&'static str> {
    let mut v: Vec<&str> = keys.iter().copied().filter(|k| *k != "type").collect();
    v.insert(0, "format_version");
    v.insert(0, "type");
    v
}

fn card_items(v: &Json, path: &str) -> JR<Items<Card>> {
    let items = array(v, path, None)?;
    items
        .iter()
        .enumerate()
        .map(|(i, x)| Ok((notation(x, &format!("{path}[{i}]"), |sc| read_card(sc, None))?, 0)))
        .collect()
}

fn tech_items(v: &Json, path: &str) -> JR<Items<u8>> {
    let items = array(v, path, None)?;
    items.iter().enumerate().map(|(i, x)| Ok((word(x, &format!("{path}[{i}]"), &TECH_NAMES)? as u8, 0))).collect()
}

fn opt(v: &Json) -> Option<&Json> {
    (*v != Json::Null).then_some(v)
}

fn stack_items(v: &Json, path: &str) -> JR<Vec<Option<RawStack>>> {
    let cells = array(v, path, None)?;
    let mut out = Vec::with_capacity(cells.len());
    for (c, x) in cells.iter().enumerate() {
        let cp = format!("{path}[{c}]");
        if *x == Json::Null {
            out.push(None);
            continue;
        }
        keys(x, &cp, &["cards", "face_down", "flipped", "secret", "downsized"], &[])?;
        let mut flags = 0;
        for (name, bit) in
            [("face_down", FACE_DOWN), ("flipped", FLIPPED), ("secret", SECRET), ("downsized", DOWNSIZED)]
        {
            if boolean(get(x, name), &format!("{cp}.{name}"))? {
                flags |= bit;
            }
        }
        let cards = array(get(x, "cards"), &format!("{cp}.cards"), None)?;
        let mut items = Vec::with_capacity(cards.len());
        for (k, card) in cards.iter().enumerate() {
            items.push((Some(notation(card, &format!("{cp}.cards[{k}]"), |sc| read_card(sc, None))?), 0));
        }
        out.push(Some(RawStack { pos: 0, flags, cards: items }));
    }
    Ok(out)
}

fn log_items(v: &Json, path: &str) -> JR<Items<Seen>> {
    let items = array(v, path, None)?;
    items
        .iter()
        .enumerate()
        .map(|(i, x)| Ok((notation(x, &format!("{path}[{i}]"), |sc| read_move(sc, None, false))?, 0)))
        .collect()
}

/// Read a state document: its shape (keys, types, ranges, notation strings), then R31, then the
/// consistency conditions of a state, each reported at its JSON path.
pub fn state_from_json(doc: &Json) -> JR<State> {
    check_envelope(doc, "state")?;
    let all = with_envelope(&STATE_KEYS);
    keys(doc, "$", &all, &[])?;
    let rules_v = get(doc, "rules");
    let f = |k: &str| get(doc, k);
    let phase = crate::state::Phase::ALL
        [word(f("phase"), "$.phase", &["chance", "action", "tech", "overflow", "draw", "game_over"])?];
    let current = integer(f("current_player"), "$.current_player", 0, 1)? as u64;
    let hp = pair(f("hands"), "$.hands")?;
    let hands = [card_items(&hp[0], "$.hands[0]")?, card_items(&hp[1], "$.hands[1]")?];
    let deck = card_items(f("deck"), "$.deck")?;
    let discards = card_items(f("discards"), "$.discards")?;
    let bp = pair(f("boards"), "$.boards")?;
    let boards = [stack_items(&bp[0], "$.boards[0]")?, stack_items(&bp[1], "$.boards[1]")?];
    let tech_deck = tech_items(f("tech_deck"), "$.tech_deck")?;
    let tp = pair(f("tech_hands"), "$.tech_hands")?;
    let tech_hands = [tech_items(&tp[0], "$.tech_hands[0]")?, tech_items(&tp[1], "$.tech_hands[1]")?];
    let accumulator = match opt(f("accumulator")) {
        None => None,
        Some(v) => {
            keys(v, "$.accumulator", &["player", "row"], &[])?;
            Some((
                integer(get(v, "player"), "$.accumulator.player", 0, 1)? as u64,
                integer(get(v, "row"), "$.accumulator.row", 0, 1)? as u64,
            ))
        }
    };
    let smart = opt(f("smart")).map(|v| word(v, "$.smart", &ENERGY_NAMES).map(|e| e as u8)).transpose()?;
    let played = opt(f("played_cell")).map(|v| notation(v, "$.played_cell", |sc| read_cell(sc, None))).transpose()?;
    let turn_discard =
        opt(f("turn_discard")).map(|v| notation(v, "$.turn_discard", |sc| read_card(sc, None))).transpose()?;
    let pending = match opt(f("pending_chance")) {
        None => Pending::None,
        Some(v) => {
            [Pending::Setup, Pending::Draw, Pending::Tech][word(v, "$.pending_chance", &["setup", "draw", "tech"])?]
        }
    };
    let stall = integer(f("stall_count"), "$.stall_count", 0, 1_000_000_000)? as u64;
    let end_trigger =
        opt(f("end_triggered_by")).map(|v| integer(v, "$.end_triggered_by", 0, 1).map(|x| x as u64)).transpose()?;
    let end_reason = match opt(f("end_reason")) {
        None => EndReason::None,
        Some(v) => [EndReason::FinalTurn, EndReason::Stall][word(v, "$.end_reason", &["final_turn", "stall"])?],
    };
    let rng = match opt(f("rng_state")) {
        None => None,
        Some(v) => {
            let x = string(v, "$.rng_state")?;
            if x.is_empty()
                || x.len() > 20
                || !x.bytes().all(|b| b.is_ascii_digit())
                || (x.len() > 1 && x.starts_with('0'))
            {
                return jerr("$.rng_state", "expected a decimal generator state");
            }
            Some(x.parse::<u128>().unwrap_or(u128::MAX))
        }
    };
    let kp = pair(f("known_cards"), "$.known_cards")?;
    let known = [card_items(&kp[0], "$.known_cards[0]")?, card_items(&kp[1], "$.known_cards[1]")?];
    let this_turn = log_items(f("this_turn"), "$.this_turn")?;
    let last_turn = log_items(f("last_turn"), "$.last_turn")?;
    let rules = read_rules_body(rules_v, "$.rules", &[])?;
    let raw = RawState {
        rules,
        phase,
        current,
        hands,
        deck,
        discards,
        boards,
        tech_deck,
        tech_hands,
        accumulator,
        smart,
        played,
        turn_discard,
        pending,
        stall,
        end_trigger,
        end_reason,
        rng,
        known,
        this_turn,
        last_turn,
        keys: Vec::new(),
    };
    check_state(&raw).map_err(|p| JsonError::new(p.json_path(), p.message))
}

/// Read an observation document.
pub fn observation_from_json(doc: &Json) -> JR<Observation> {
    check_envelope(doc, "observation")?;
    let all = with_envelope(&OBS_KEYS);
    keys(doc, "$", &all, &[])?;
    let rules = read_rules_body(get(doc, "rules"), "$.rules", &[])?;
    let e = rules.energies as usize;
    let mut line = format!("rules={}", rules.format());
    for key in &OBS_KEYS[1..24] {
        line.push(' ');
        line.push_str(key);
        line.push('=');
        common_line(doc, key, e, true, &mut line)?;
    }
    crate::observe::read_observation(&line).map_err(|e| JsonError::new(e.path, e.e.message))
}

/// Read a score document and check it (totals add up, energy winners follow the generations,
/// the winner follows `decided_by`).
pub fn score_from_json(doc: &Json) -> JR<Score> {
    check_envelope(doc, "score")?;
    keys(doc, "$", &["type", "format_version", "players", "winner", "decided_by", "energy_winners", "smart"], &[])?;
    // The number of energies in play comes from `energy_winners`, checked first, and each
    // player's `generation` has that many items, as the reference reads a score.
    let ew = array(get(doc, "energy_winners"), "$.energy_winners", None)?;
    if ew.is_empty() || ew.len() > ENERGY_NAMES.len() {
        return jerr("$.energy_winners", format!("one item per energy in play (1 to {})", ENERGY_NAMES.len()));
    }
    let players = pair(get(doc, "players"), "$.players")?;
    let mut totals = [0i128; 2];
    let mut gens: Vec<Vec<i128>> = Vec::new();
    for (p, x) in players.iter().enumerate() {
        let base = format!("$.players[{p}]");
        keys(x, &base, &["energy_points", "city_points", "total", "row_supply", "generation"], &[])?;
        let ep = integer(get(x, "energy_points"), &format!("{base}.energy_points"), 0, 1_000_000_000)?;
        let cp = integer(get(x, "city_points"), &format!("{base}.city_points"), -2, 2)?;
        let total = integer(get(x, "total"), &format!("{base}.total"), -2, 1_000_000_000)?;
        if total != ep + cp {
            return jerr(&format!("{base}.total"), "the total is energy points + city points (R29)");
        }
        totals[p] = total;
        let rs = pair(get(x, "row_supply"), &format!("{base}.row_supply"))?;
        for (i, r) in rs.iter().enumerate() {
            integer(r, &format!("{base}.row_supply[{i}]"), 0, 1_000_000_000_000)?;
        }
        let g = array(get(x, "generation"), &format!("{base}.generation"), Some(ew.len()))?;
        let mut gv = Vec::new();
        for (i, r) in g.iter().enumerate() {
            gv.push(integer(r, &format!("{base}.generation[{i}]"), 0, 1_000_000_000_000)?);
        }
        gens.push(gv);
    }
    let winner = integer(get(doc, "winner"), "$.winner", 0, 1)?;
    let decided = word(get(doc, "decided_by"), "$.decided_by", &["total", "city_points", "supply", "second_player"])?;
    for (i, w) in ew.iter().enumerate() {
        let expect = if gens[0][i] > gens[1][i] {
            Some(0)
        } else if gens[1][i] > gens[0][i] {
            Some(1)
        } else {
            None
        };
        let got = if *w == Json::Null { None } else { Some(integer(w, &format!("$.energy_winners[{i}]"), 0, 1)?) };
        if got != expect {
            return jerr(&format!("$.energy_winners[{i}]"), "the energy winner follows the generations (R27)");
        }
    }
    let mut smart = None;
    if *get(doc, "smart") != Json::Null {
        let e = word(get(doc, "smart"), "$.smart", &ENERGY_NAMES)?;
        if e >= gens[0].len() {
            return jerr("$.smart", "not an energy in play");
        }
        smart = Some(e);
    }
    // R27: the energy points follow the energy winners and the Smart.
    for (p, x) in players.iter().enumerate() {
        let expect: i128 = (0..gens[0].len())
            .filter(|&i| {
                let (a, b) = (gens[p][i], gens[1 - p][i]);
                a > b
            })
            .map(|i| if smart == Some(i) { 2 } else { 1 })
            .sum();
        if get(x, "energy_points").as_int() != Some(expect) {
            return jerr(&format!("$.players[{p}].energy_points"), "the energy points follow the generations (R27)");
        }
    }
    if decided == 0 && (totals[0] == totals[1] || (totals[0] > totals[1]) != (winner == 0)) {
        return jerr("$.winner", "the winner follows decided_by (R29)");
    }
    if decided != 0 && totals[0] != totals[1] {
        return jerr("$.decided_by", "a tie-break only on equal totals (R29)");
    }
    if decided == 3 && winner != 1 {
        return jerr("$.winner", "tie-break 2 gives player 1 (R29)");
    }
    let decided_by = [Decision::Total, Decision::CityPoints, Decision::Supply, Decision::SecondPlayer][decided];
    let mut out: [PlayerScore; 2] = Default::default();
    for (p, x) in players.iter().enumerate() {
        let n = |k: &str| get(x, k).as_int().unwrap_or(0) as i64;
        let rs = pair(get(x, "row_supply"), "$")?;
        out[p] = PlayerScore {
            energy_points: n("energy_points"),
            city_points: n("city_points"),
            total: n("total"),
            row_supply: [rs[0].as_int().unwrap_or(0) as u64, rs[1].as_int().unwrap_or(0) as u64],
            generation: gens[p].iter().map(|&g| g as u64).collect(),
        };
    }
    Ok(Score {
        players: out,
        winner: winner as usize,
        decided_by,
        energy_winners: ew.iter().map(|w| w.as_int().map(|x| x as usize)).collect(),
        smart,
    })
}
