//! The bots of the native core (`hatsuden_players::bots`, `hatsuden_players::ismcts`): seeded
//! matches, single decisions and the ISMCTS search, the long loops with the GIL released.

use std::collections::BTreeMap;

use hatsuden::{format_state, legal_moves_from, parse_observation, parse_rules, score, Error, SplitMix64, TECH_NAMES};
use hatsuden_players::bots::{deal_seed, match_game, Bot, PlayedGame};
use hatsuden_players::ismcts::{self, IsmctsConfig};
use pyo3::prelude::*;

use super::{crate_error, guard, input_error, invalid_error, notation_error, seed_of};

/// An option value of a player spec: an int, a float or None.
#[derive(FromPyObject)]
enum OptionValue {
    Int(i64),
    Float(f64),
}

fn int_option(py: Python<'_>, name: &str, value: Option<&OptionValue>, default: u64, least: i64) -> PyResult<u64> {
    match value {
        None => Ok(default),
        Some(OptionValue::Int(n)) if *n >= least => Ok(*n as u64),
        Some(OptionValue::Int(n)) => Err(input_error(py, name, &format!("must be an int >= {least}, got {n}"))),
        Some(OptionValue::Float(x)) => Err(input_error(py, name, &format!("must be an int >= {least}, got {x}"))),
    }
}

fn float_option(value: Option<&OptionValue>, default: f64) -> f64 {
    match value {
        None => default,
        Some(OptionValue::Int(n)) => *n as f64,
        Some(OptionValue::Float(x)) => *x,
    }
}

/// The bot named `kind` (`random`, `greedy`, `ismcts`) with the options of its Python class
/// (for `ismcts`: `iterations`, `time_limit` (None: no limit), `exploration`, `rollout_turns`,
/// `temperature`, `prior_visits`, `rollout_randomness`).
fn bot_of(py: Python<'_>, kind: &str, options: &BTreeMap<String, Option<OptionValue>>) -> PyResult<Bot> {
    let allowed: &[&str] = match kind {
        "random" | "greedy" => &[],
        "ismcts" => &[
            "iterations",
            "time_limit",
            "exploration",
            "rollout_turns",
            "temperature",
            "prior_visits",
            "rollout_randomness",
        ],
        _ => {
            return Err(input_error(
                py,
                "player",
                &format!("no native player {kind:?} (known: greedy, ismcts, random)"),
            ))
        }
    };
    if let Some(key) = options.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(input_error(py, "player", &format!("unknown field {key:?} for the native {kind} player")));
    }
    let get = |name: &str| options.get(name).and_then(|v| v.as_ref());
    Ok(match kind {
        "random" => Bot::Random,
        "greedy" => Bot::Greedy,
        _ => {
            let d = IsmctsConfig::default();
            let config = IsmctsConfig {
                iterations: int_option(py, "iterations", get("iterations"), d.iterations, 1)?,
                time_limit: get("time_limit").map(|v| float_option(Some(v), 0.0)),
                exploration: float_option(get("exploration"), d.exploration),
                rollout_turns: int_option(py, "rollout_turns", get("rollout_turns"), d.rollout_turns, 0)?,
                temperature: float_option(get("temperature"), d.temperature),
                prior_visits: int_option(py, "prior_visits", get("prior_visits"), d.prior_visits, 0)?,
                rollout_randomness: int_option(
                    py,
                    "rollout_randomness",
                    get("rollout_randomness"),
                    d.rollout_randomness,
                    0,
                )?,
            };
            config.validate().map_err(|e| invalid_error(py, &e))?;
            Bot::Ismcts(config)
        }
    })
}

type Pair<T> = (T, T);
/// One game of a match as `play_match` returns it (see there).
type GameRow = (
    (u64, u64, usize, &'static str, &'static str),
    (Pair<i64>, Pair<i64>, Pair<i64>, Pair<Pair<u64>>, Vec<Option<usize>>),
    (u64, usize, Pair<u64>, Pair<f64>, Pair<Vec<&'static str>>),
    Option<(String, Vec<String>)>,
);

fn row_of(index: u64, game: PlayedGame, record: bool) -> GameRow {
    let sheet = score(&game.last);
    let [a, b] = &sheet.players;
    let techs = |v: &[u8]| v.iter().map(|&x| TECH_NAMES[x as usize]).collect::<Vec<_>>();
    (
        (index, game.seed, sheet.winner, sheet.decided_by.name(), game.last.end_reason().name()),
        (
            (a.total, b.total),
            (a.energy_points, b.energy_points),
            (a.city_points, b.city_points),
            ((a.row_supply[0], a.row_supply[1]), (b.row_supply[0], b.row_supply[1])),
            sheet.energy_winners.clone(),
        ),
        (
            game.turns,
            game.moves.len(),
            (game.decisions[0], game.decisions[1]),
            (game.think_seconds[0], game.think_seconds[1]),
            (techs(&game.techs_drawn[0]), techs(&game.techs_drawn[1])),
        ),
        record.then(|| (format_state(&game.last), game.moves.iter().map(|m| m.format()).collect())),
    )
}

/// Games `first .. first + count` of a match seeded `seed` between two players, each
/// `(kind, options)`, on the rule set `rules` (notation): exactly the games of
/// `hatsuden_rules.simulation.run_match` (seats alternated, deals shared by pairs, decisions
/// seeded per game). One tuple per game, by seat: `((index, deal_seed, winner, decided_by,
/// end_reason), (totals, energy_points, city_points, row_supply, energy_winners), (turns,
/// plies, decisions, think_seconds, techs_drawn), record)`; `record` is `(final state notation,
/// moves in notation)` when `record` is true, else None.
#[pyfunction]
#[pyo3(signature = (rules, players, seed, first, count, record=false))]
#[allow(clippy::type_complexity)]
fn play_match(
    py: Python<'_>,
    rules: &str,
    players: ((String, BTreeMap<String, Option<OptionValue>>), (String, BTreeMap<String, Option<OptionValue>>)),
    seed: &Bound<'_, PyAny>,
    first: u64,
    count: u64,
    record: bool,
) -> PyResult<Vec<GameRow>> {
    guard(py, || {
        let parsed = parse_rules(rules).map_err(|e| notation_error(py, &e, rules, false))?;
        parsed.tables().map_err(|e| invalid_error(py, &e))?;
        let a = bot_of(py, &players.0 .0, &players.0 .1)?;
        let b = bot_of(py, &players.1 .0, &players.1 .1)?;
        let seed = seed_of(seed)?;
        let run = move || -> Result<Vec<GameRow>, Error> {
            let mut rows = Vec::with_capacity(count as usize);
            for index in first..first + count {
                let game = match_game([&a, &b], &parsed, seed, index)?;
                debug_assert_eq!(game.seed, deal_seed(seed, index));
                rows.push(row_of(index, game, record));
            }
            Ok(rows)
        };
        py.detach(run).map_err(|e| crate_error(py, &e, rules))
    })
}

/// The move (notation) the native player `(kind, options)` chooses from the observation
/// `observation` (observation notation) with the decision generator `SplitMix64(rng_state)`:
/// what `make_player(...).choose(observation, legal_moves_from(observation), SplitMix64(rng_state))`
/// chooses in Python (the same move for `random` and `greedy`).
#[pyfunction]
fn bot_choose(
    py: Python<'_>,
    kind: &str,
    options: BTreeMap<String, Option<OptionValue>>,
    observation: &str,
    rng_state: &Bound<'_, PyAny>,
) -> PyResult<String> {
    guard(py, || {
        let bot = bot_of(py, kind, &options)?;
        let o = parse_observation(observation).map_err(|e| notation_error(py, &e, observation, false))?;
        let moves = legal_moves_from(&o).map_err(|e| invalid_error(py, &e))?;
        let state = seed_of(rng_state)?;
        let chosen = py.detach(move || bot.choose(&o, &moves, SplitMix64::new(state)));
        chosen.map(|m| m.format()).map_err(|e| invalid_error(py, &e))
    })
}

/// One ISMCTS search from `observation` (notation) with seed `seed` and the player's options:
/// `(move in notation, iterations run)`. For measuring iterations per second.
#[pyfunction]
fn ismcts_search(
    py: Python<'_>,
    observation: &str,
    seed: &Bound<'_, PyAny>,
    options: BTreeMap<String, Option<OptionValue>>,
) -> PyResult<(String, u64)> {
    guard(py, || {
        let Bot::Ismcts(config) = bot_of(py, "ismcts", &options)? else {
            unreachable!("bot_of(\"ismcts\") is an ISMCTS bot")
        };
        let o = parse_observation(observation).map_err(|e| notation_error(py, &e, observation, false))?;
        let moves = legal_moves_from(&o).map_err(|e| invalid_error(py, &e))?;
        if moves.is_empty() {
            return Err(input_error(py, "observation", &format!("player {} has no decision to make now", o.player)));
        }
        let seed = seed_of(seed)?;
        let found = py.detach(move || ismcts::search(&config, &o, &moves, seed));
        found.map(|(m, n)| (m.format(), n)).map_err(|e| invalid_error(py, &e))
    })
}

/// Register the functions of this file.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(play_match, m)?)?;
    m.add_function(wrap_pyfunction!(bot_choose, m)?)?;
    m.add_function(wrap_pyfunction!(ismcts_search, m)?)?;
    Ok(())
}
