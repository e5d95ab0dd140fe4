//! `hatsuden_native._native`: the PyO3 binding of the `hatsuden` rules crate.
//!
//! Every failure reaches Python as one of hatsuden-rules' own exceptions, imported from the
//! public `hatsuden_rules` module when it is raised: an illegal move as `IllegalMoveError` (with
//! `.rule`), malformed notation as `NotationError` / `MoveNotationError` (with `.field` and
//! `.position`), a malformed JSON document as `InvalidDocumentError` (its `.field` is the JSON
//! path), any other refusal as `InvalidInputError` or `PhaseError`. Every entry point runs its
//! body under `catch_unwind`: a panic (a bug) becomes a `HatsudenError` saying "internal error",
//! never a `pyo3_runtime.PanicException`.
//!
//! The long loops (perft, divide, playouts, the adapter) release the GIL.

// One `unsafe` block in the whole binding, allowed where it stands: `batch::slice_of` (numpy's
// memory as a `&mut [T]`, its soundness argued there).
#![deny(unsafe_code)]

mod bots;
mod check;
mod shard;

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use hatsuden::{
    docs, format_state, json, observation_tensor, observe, parse_rules, parse_state, score, Error, IllegalMove,
    InvalidInput, JsonError, Move, NotationError, Phase, Rules, SplitMix64, State, RULES_VERSION,
};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};

mod batch;

// ---------------------------------------------------------------------------------------------
// Errors: the library's own exception classes.

/// An instance of `hatsuden_rules.<class>` built by `build`, as a `PyErr`. If even that fails
/// (hatsuden-rules missing or broken), the failure itself is raised.
fn library_error<'py>(
    py: Python<'py>,
    class: &str,
    build: impl FnOnce(&Bound<'py, PyModule>, Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>>,
) -> PyErr {
    let made = py.import("hatsuden_rules").and_then(|lib| {
        let cls = lib.getattr(class)?;
        build(&lib, cls)
    });
    match made {
        Ok(exception) => PyErr::from_value(exception),
        Err(error) => error,
    }
}

/// `NotationError(field, message, text, position)`; `MoveNotationError` for move notation.
fn notation_error(py: Python<'_>, e: &NotationError, text: &str, is_move: bool) -> PyErr {
    let class = if is_move { "MoveNotationError" } else { "NotationError" };
    library_error(py, class, |_, cls| cls.call1((e.field.as_str(), e.message.as_str(), text, e.position)))
}

/// `InvalidDocumentError(path, message)`.
fn json_error(py: Python<'_>, e: &JsonError) -> PyErr {
    library_error(py, "InvalidDocumentError", |_, cls| cls.call1((e.path.as_str(), e.message.as_str())))
}

/// `InvalidInputError(field, message)`.
fn input_error(py: Python<'_>, field: &str, message: &str) -> PyErr {
    library_error(py, "InvalidInputError", |_, cls| cls.call1((field, message)))
}

/// `IllegalMoveError(state, move, rule, reason)`, with the state and the move as the library's
/// own values (read back from their notation).
fn illegal_error(py: Python<'_>, state: &State, m: &Move, e: &IllegalMove) -> PyErr {
    library_error(py, "IllegalMoveError", |lib, cls| {
        let py_state = lib.getattr("parse_state")?.call1((format_state(state),))?;
        let rules = py_state.getattr("rules")?;
        let py_move = lib.getattr("parse_move")?.call1((m.format(), rules))?;
        let prefix = format!("{}: ", e.rule);
        let reason = e.message.strip_prefix(prefix.as_str()).unwrap_or(e.message.as_str());
        cls.call1((py_state, py_move, e.rule, reason))
    })
}

/// Any error of the crate, where no better context is known.
fn crate_error(py: Python<'_>, e: &Error, text: &str) -> PyErr {
    match e {
        Error::Illegal(x) => library_error(py, "HatsudenError", |_, cls| cls.call1((x.message.as_str(),))),
        Error::Notation(x) => notation_error(py, x, text, x.field == "move"),
        Error::Json(x) => json_error(py, x),
        Error::Invalid(x) => invalid_error(py, x),
    }
}

fn invalid_error(py: Python<'_>, e: &InvalidInput) -> PyErr {
    input_error(py, &e.field, &e.message)
}

/// A panic's message.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

/// Run `f`; a panic becomes `hatsuden_rules.HatsudenError("internal error ...")`.
fn guard<T>(py: Python<'_>, f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(payload) => {
            let message = format!(
                "internal error in hatsuden-native {} (a bug, please report it): {}",
                env!("CARGO_PKG_VERSION"),
                panic_message(payload.as_ref())
            );
            let err = library_error(py, "HatsudenError", |_, cls| cls.call1((message.as_str(),)));
            if err.get_type(py).name().map(|n| n.to_string()).unwrap_or_default() == "HatsudenError" {
                Err(err)
            } else {
                Err(PyRuntimeError::new_err(message))
            }
        }
    }
}

/// A seed: any Python int, taken mod 2**64 (R8, R32), as `new_game` does.
fn seed_of(seed: &Bound<'_, PyAny>) -> PyResult<u64> {
    let py = seed.py();
    if !seed.is_instance_of::<PyInt>() || seed.is_instance_of::<PyBool>() {
        let name = seed.get_type().name().map(|n| n.to_string()).unwrap_or_default();
        return Err(input_error(py, "seed", &format!("expected an int, got {name}")));
    }
    seed.call_method1("__mod__", (1u128 << 64,))?.extract::<u64>()
}

fn player_of(py: Python<'_>, player: i64) -> PyResult<usize> {
    match player {
        0 => Ok(0),
        1 => Ok(1),
        _ => Err(input_error(py, "player", &format!("must be 0 or 1, got {player}"))),
    }
}

// ---------------------------------------------------------------------------------------------
// NativeState

/// A game state of the native core: a compact, immutable Rust value (`Copy`, no heap).
///
/// Moves, rules and states cross the boundary as notation (NOTATION.md): a move is read with
/// the state's rules, so `apply("C S3 0S")` is what `apply(state, parse_move("C S3 0S",
/// state.rules))` is in hatsuden-rules.
#[pyclass(module = "hatsuden_native._native", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct NativeState {
    state: State,
}

impl NativeState {
    fn wrap(state: State) -> Self {
        NativeState { state }
    }
}

#[pymethods]
impl NativeState {
    /// The state before the deal (explicit chance mode), or with a seed the seeded game after
    /// it (R5-R8). `rules` is rules notation; None is the printed game (STANDARD).
    #[staticmethod]
    #[pyo3(signature = (rules=None, seed=None))]
    fn new_game(py: Python<'_>, rules: Option<&str>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        guard(py, || {
            let parsed = match rules {
                None => Rules::STANDARD,
                Some(text) => parse_rules(text).map_err(|e| notation_error(py, &e, text, false))?,
            };
            let seed = seed.map(seed_of).transpose()?;
            let state = hatsuden::new_game(&parsed, seed).map_err(|e| invalid_error(py, &e))?;
            Ok(Self::wrap(state))
        })
    }

    /// Read a state in notation (NOTATION.md); malformed text raises `NotationError`.
    #[staticmethod]
    fn from_notation(py: Python<'_>, text: &str) -> PyResult<Self> {
        guard(py, || parse_state(text).map(Self::wrap).map_err(|e| notation_error(py, &e, text, false)))
    }

    /// Read a state JSON document; a malformed one raises `InvalidDocumentError`.
    #[staticmethod]
    fn from_json(py: Python<'_>, text: &str) -> PyResult<Self> {
        guard(py, || {
            let doc = json::parse(text)
                .map_err(|e| json_error(py, &JsonError { path: "$".into(), message: format!("not JSON: {e}") }))?;
            docs::state_from_json(&doc).map(Self::wrap).map_err(|e| json_error(py, &e))
        })
    }

    /// The state in canonical notation.
    fn notation(&self, py: Python<'_>) -> PyResult<String> {
        guard(py, || Ok(format_state(&self.state)))
    }

    /// The state JSON document.
    fn to_json(&self, py: Python<'_>) -> PyResult<String> {
        guard(py, || Ok(docs::state_doc(&self.state).to_text()))
    }

    /// The rule set, in rules notation.
    #[getter]
    fn rules(&self, py: Python<'_>) -> PyResult<String> {
        guard(py, || Ok(self.state.rules().format()))
    }

    /// The phase's name: `chance`, `action`, `tech`, `overflow`, `draw` or `game_over`.
    #[getter]
    fn phase(&self) -> &'static str {
        self.state.phase().name()
    }

    /// Whether the game is over (R26).
    #[getter]
    fn is_terminal(&self) -> bool {
        self.state.is_over()
    }

    /// Whether a chance event is pending (R6).
    #[getter]
    fn is_chance(&self) -> bool {
        self.state.phase() == Phase::Chance
    }

    /// The player to move (in CHANCE: the receiver, R6).
    #[getter]
    fn current_player(&self) -> usize {
        self.state.current_player()
    }

    /// Every legal move in canonical order (R34), in notation; in CHANCE the chance outcomes.
    fn legal_moves(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        guard(py, || Ok(self.state.legal_moves_vec().iter().map(Move::format).collect()))
    }

    /// The number of legal moves.
    fn legal_move_count(&self, py: Python<'_>) -> PyResult<usize> {
        guard(py, || {
            let mut buf = Vec::with_capacity(64);
            self.state.legal_moves(&mut buf);
            Ok(buf.len())
        })
    }

    /// The chance outcomes `(move, p, q)`: probability p/q in lowest terms, canonical order
    /// (R6). Outside CHANCE raises `PhaseError`.
    fn chance_outcomes(&self, py: Python<'_>) -> PyResult<Vec<(String, u64, u64)>> {
        guard(py, || match self.state.chance_outcomes() {
            Ok(outcomes) => Ok(outcomes.into_iter().map(|(m, p, q)| (m.format(), p, q)).collect()),
            Err(e) => Err(library_error(py, "PhaseError", |_, cls| cls.call1((e.message.as_str(),)))),
        })
    }

    /// The state after the move `move` (notation, read with this state's rules).
    ///
    /// Raises `MoveNotationError` for malformed notation, `IllegalMoveError` (with `.rule`) for
    /// a move the rules do not allow now (R35).
    fn apply(&self, py: Python<'_>, r#move: &str) -> PyResult<Self> {
        guard(py, || {
            let m = Move::parse(r#move, Some(self.state.rules())).map_err(|e| notation_error(py, &e, r#move, true))?;
            self.state.apply(m).map(Self::wrap).map_err(|e| illegal_error(py, &self.state, &m, &e))
        })
    }

    /// The state after the `index`-th legal move (`legal_moves()[index]`).
    fn apply_index(&self, py: Python<'_>, index: usize) -> PyResult<Self> {
        guard(py, || {
            let mut buf = Vec::with_capacity(64);
            self.state.legal_moves(&mut buf);
            let Some(&m) = buf.get(index) else {
                return Err(input_error(py, "index", &format!("must be below {}, got {index}", buf.len())));
            };
            self.state.apply(m).map(Self::wrap).map_err(|e| illegal_error(py, &self.state, &m, &e))
        })
    }

    /// The score sheet (R27-R29) as the score JSON document (`hatsuden_rules.from_json` reads
    /// it back into a `Score`). Defined for every state, as if the game ended now.
    fn score_json(&self, py: Python<'_>) -> PyResult<String> {
        guard(py, || Ok(docs::score_doc(&score(&self.state)).to_text()))
    }

    /// The winner as if the game ended now (R29).
    #[getter]
    fn winner(&self, py: Python<'_>) -> PyResult<usize> {
        guard(py, || Ok(score(&self.state).winner))
    }

    /// Player `player`'s observation (R37), in observation notation.
    fn observation(&self, py: Python<'_>, player: i64) -> PyResult<String> {
        guard(py, || {
            let p = player_of(py, player)?;
            Ok(hatsuden::format_observation(&observe(&self.state, p)))
        })
    }

    /// Player `player`'s observation tensor (R39): the layout of
    /// `hatsuden_rules.observation_tensor_layout`.
    fn observation_tensor(&self, py: Python<'_>, player: i64) -> PyResult<Vec<i64>> {
        guard(py, || {
            let p = player_of(py, player)?;
            Ok(observation_tensor(&observe(&self.state, p)))
        })
    }

    /// A complete state drawn uniformly among those consistent with player `player`'s
    /// observation of this state (R38), with the portable generator seeded with `seed` (any
    /// int, mod 2**64): `hatsuden_rules.sample_state(observe(state, player), seed)`.
    fn sample_state(&self, py: Python<'_>, player: i64, seed: &Bound<'_, PyAny>) -> PyResult<Self> {
        guard(py, || {
            let p = player_of(py, player)?;
            let mut g = SplitMix64::new(seed_of(seed)?);
            hatsuden::sample_state(&observe(&self.state, p), &mut g).map(Self::wrap).map_err(|e| invalid_error(py, &e))
        })
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        guard(py, || Ok(format!("NativeState.from_notation({:?})", format_state(&self.state))))
    }

    fn __str__(&self, py: Python<'_>) -> PyResult<String> {
        self.notation(py)
    }

    /// Pickles as its notation.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let from_notation = py.get_type::<NativeState>().getattr("from_notation")?;
        Ok((from_notation, (format_state(&self.state),)))
    }
}

// ---------------------------------------------------------------------------------------------
// Batch work (a panic inside `detach` unwinds to the enclosing `guard`, the GIL taken back): perft, divide, playouts (GIL released).

fn depth_of(py: Python<'_>, depth: i64, least: i64) -> PyResult<usize> {
    if depth < least || depth > 64 {
        return Err(input_error(py, "depth", &format!("must be between {least} and 64, got {depth}")));
    }
    Ok(depth as usize)
}

/// The number of move paths of each length 1..depth from `state` (R34); chance outcomes count
/// as moves, as `hatsuden_rules.modelcheck.perft` counts them.
#[pyfunction]
fn perft(py: Python<'_>, state: &NativeState, depth: i64) -> PyResult<Vec<u64>> {
    guard(py, || {
        let depth = depth_of(py, depth, 0)?;
        if depth == 0 {
            return Ok(Vec::new());
        }
        let root = state.state;
        Ok(py.detach(move || root.perft(depth)))
    })
}

/// For each first move (notation, canonical order), the number of move paths of length `depth`
/// that start with it.
#[pyfunction]
fn divide(py: Python<'_>, state: &NativeState, depth: i64) -> PyResult<Vec<(String, u64)>> {
    guard(py, || {
        let depth = depth_of(py, depth, 1)?;
        let root = state.state;
        let counts = py.detach(move || root.perft_divide(depth));
        Ok(counts.into_iter().map(|(m, n)| (m.format(), n)).collect())
    })
}

/// What `playouts` counted.
#[pyclass(module = "hatsuden_native._native", frozen)]
pub struct PlayoutStats {
    /// Games played.
    #[pyo3(get)]
    games: u64,
    /// Plies in all (chance outcomes of explicit mode count as plies).
    #[pyo3(get)]
    plies: u64,
    /// Games won by player 0 and by player 1 (R29), over the finished games.
    #[pyo3(get)]
    wins: (u64, u64),
    /// Finished games by end reason (`final_turn`, `stall`).
    #[pyo3(get)]
    end_reasons: BTreeMap<String, u64>,
    /// Games stopped at `max_plies` before the end.
    #[pyo3(get)]
    truncated: u64,
    /// The state that ended the last game.
    #[pyo3(get)]
    last_state: Option<NativeState>,
}

#[pymethods]
impl PlayoutStats {
    fn __repr__(&self) -> String {
        format!(
            "PlayoutStats(games={}, plies={}, wins={:?}, end_reasons={:?}, truncated={})",
            self.games, self.plies, self.wins, self.end_reasons, self.truncated
        )
    }
}

/// `n` random games from `state`, every choice drawn with the portable sampler (R32, R33) from
/// one SplitMix64 seeded with `seed` and shared by the games in turn: a legal move with
/// `next() mod len(moves)` (uniform), a chance outcome of explicit mode by its weight (copies
/// left). The same draws in Python: `sample([1] * len(moves), rng)` and
/// `sample(weights, rng)`. A game stops at its end or after `max_plies` plies.
#[pyfunction]
#[pyo3(signature = (state, n, seed, max_plies=100_000))]
fn playouts(
    py: Python<'_>,
    state: &NativeState,
    n: u64,
    seed: &Bound<'_, PyAny>,
    max_plies: usize,
) -> PyResult<PlayoutStats> {
    guard(py, || {
        let seed = seed_of(seed)?;
        let root = state.state;
        let run = move || {
            let mut g = SplitMix64::new(seed);
            let mut buf = Vec::with_capacity(64);
            let mut stats = PlayoutStats {
                games: n,
                plies: 0,
                wins: (0, 0),
                end_reasons: BTreeMap::new(),
                truncated: 0,
                last_state: None,
            };
            let mut last = root;
            for _ in 0..n {
                let (end, plies) = root.playout(&mut g, max_plies, &mut buf);
                stats.plies += plies as u64;
                if end.is_over() {
                    if score(&end).winner == 0 {
                        stats.wins.0 += 1;
                    } else {
                        stats.wins.1 += 1;
                    }
                    *stats.end_reasons.entry(end.end_reason().name().to_string()).or_insert(0) += 1;
                } else {
                    stats.truncated += 1;
                }
                last = end;
            }
            if n > 0 {
                stats.last_state = Some(NativeState::wrap(last));
            }
            stats
        };
        Ok(py.detach(run))
    })
}

/// The conformance adapter loop (CONFORMANCE.md "Protocol") on this process's stdin and stdout,
/// the GIL released; `hatsuden-native-adapter` runs it. Returns the exit status.
#[pyfunction]
fn serve_stdio(py: Python<'_>) -> PyResult<i32> {
    guard(py, || {
        let result = py.detach(|| {
            let stdin = std::io::stdin();
            let stdout = std::io::stdout();
            hatsuden::adapter::serve(stdin.lock(), stdout.lock())
        });
        match result {
            Ok(()) => Ok(0),
            Err(e) => {
                eprintln!("hatsuden-native-adapter: {e}");
                Ok(1)
            }
        }
    })
}

/// Read any notation a caller holds (kept for error-mapping tests): `kind` is `move`, `rules`
/// or `state`; returns the canonical notation.
#[pyfunction]
#[pyo3(signature = (kind, text, rules=None))]
fn canonical(py: Python<'_>, kind: &str, text: &str, rules: Option<&str>) -> PyResult<String> {
    guard(py, || match kind {
        "move" => {
            let parsed = match rules {
                None => None,
                Some(r) => Some(parse_rules(r).map_err(|e| notation_error(py, &e, r, false))?),
            };
            Move::parse(text, parsed.as_ref()).map(|m| m.format()).map_err(|e| notation_error(py, &e, text, true))
        }
        "rules" => parse_rules(text).map(|r| r.format()).map_err(|e| notation_error(py, &e, text, false)),
        "state" => parse_state(text).map(|s| format_state(&s)).map_err(|e| notation_error(py, &e, text, false)),
        "observation" => hatsuden::parse_observation(text)
            .map(|o| hatsuden::format_observation(&o))
            .map_err(|e| notation_error(py, &e, text, false)),
        _ => Err(crate_error(
            py,
            &Error::Invalid(InvalidInput { field: "kind".into(), message: format!("unknown notation kind {kind:?}") }),
            text,
        )),
    })
}

/// Trigger a panic inside the binding (tests only): proves it arrives as `HatsudenError`.
#[pyfunction]
fn _panic_for_tests(py: Python<'_>) -> PyResult<()> {
    guard(py, || panic!("deliberate panic for the tests"))
}

/// The native core of hatsuden-rules.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<NativeState>()?;
    m.add_class::<PlayoutStats>()?;
    m.add_class::<batch::VectorBatch>()?;
    m.add_class::<batch::NativeEpisode>()?;
    m.add_class::<batch::SpielState>()?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    m.add_function(wrap_pyfunction!(divide, m)?)?;
    m.add_function(wrap_pyfunction!(playouts, m)?)?;
    m.add_function(wrap_pyfunction!(serve_stdio, m)?)?;
    m.add_function(wrap_pyfunction!(canonical, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_for_tests, m)?)?;
    bots::register(m)?;
    m.add_function(wrap_pyfunction!(check::model_check, m)?)?;
    m.add_function(wrap_pyfunction!(check::game_value, m)?)?;
    m.add_class::<shard::CheckShard>()?;
    m.add_function(wrap_pyfunction!(shard::replay_ranks, m)?)?;
    m.add_function(wrap_pyfunction!(shard::shard_result, m)?)?;
    m.add("RULES_VERSION", RULES_VERSION)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("STATE_SIZE_BYTES", std::mem::size_of::<State>())?;
    Ok(())
}
