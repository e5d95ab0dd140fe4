//! The native core of the learning environments (issue 22): `VectorBatch` steps N games in one
//! call, `Episode` steps one game (PettingZoo), `SpielState` is one immutable OpenSpiel state.
//!
//! Arrays cross the boundary through the buffer protocol: the caller (numpy, in
//! `hatsuden_rules.integrations._learning`) allocates C-contiguous arrays and the batch reads
//! its inputs from them and writes its outputs into them (one copy, no Python object per
//! environment). Chance is resolved by the portable sampler exactly as the Python core's
//! `Episode._resolve` (R8, R33), so both cores play the same games.

use std::sync::Arc;

use hatsuden::infostate::{Episode as Game, Learning, StepError};
use hatsuden::{format_state, observe, parse_rules, score, Move, Phase, State};
use pyo3::buffer::PyBuffer;
use pyo3::prelude::*;

use super::{guard, illegal_error, input_error, notation_error, player_of, seed_of};

/// The shared tables of a rule set in notation.
fn learning_of(py: Python<'_>, rules: &str) -> PyResult<Arc<Learning>> {
    let parsed = parse_rules(rules).map_err(|e| notation_error(py, &e, rules, false))?;
    Learning::new(&parsed).map(Arc::new).map_err(|e| input_error(py, &e.field, &e.message))
}

/// `observation="observation"` (false) or `"information_state"` (true).
fn recall_of(py: Python<'_>, observation: &str) -> PyResult<bool> {
    match observation {
        "observation" => Ok(false),
        "information_state" => Ok(true),
        _ => Err(input_error(
            py,
            "observation",
            &format!("must be 'observation' or 'information_state', got {observation:?}"),
        )),
    }
}

/// The contents of a buffer of `n` entries named `field`.
fn read<T: pyo3::buffer::Element + Copy>(py: Python<'_>, buf: &PyBuffer<T>, n: usize, field: &str) -> PyResult<Vec<T>> {
    if buf.item_count() != n {
        return Err(input_error(py, field, &format!("must hold {n} entries, got {}", buf.item_count())));
    }
    buf.to_vec(py)
}

/// Copy `data` into the writable C-contiguous buffer `out` named `field`.
fn write<T: pyo3::buffer::Element + Copy>(py: Python<'_>, out: &PyBuffer<T>, data: &[T], field: &str) -> PyResult<()> {
    if out.item_count() != data.len() || out.readonly() || !out.is_c_contiguous() {
        return Err(input_error(
            py,
            field,
            &format!("must be a writable C-contiguous array of {} entries, got {}", data.len(), out.item_count()),
        ));
    }
    out.copy_from_slice(py, data)
}

/// The `n` entries of the writable C-contiguous buffer `out` named `field`, as a slice to write
/// in place: numpy's memory, no copy, plain stores the compiler can vectorise (the `Cell`s of
/// [`cells_of`] cannot be).
///
/// The slice borrows `out` mutably, so it is the only view Rust has of that buffer while it
/// lives; the caller reads every other buffer of the same call (which may be the same memory)
/// into owned vectors before it takes the slice, and writes no other buffer until it is dead.
#[allow(unsafe_code)]
fn slice_of<'a, T: pyo3::buffer::Element>(
    py: Python<'a>,
    out: &'a mut PyBuffer<T>,
    n: usize,
    field: &str,
) -> PyResult<&'a mut [T]> {
    if out.readonly() || !out.is_c_contiguous() || out.item_count() != n {
        return Err(input_error(
            py,
            field,
            &format!("must be a writable C-contiguous array of {n} entries, got {}", out.item_count()),
        ));
    }
    if n == 0 {
        return Ok(&mut []);
    }
    // SAFETY: `PyBuffer::get` checked that the buffer holds items of `T`'s size and format at
    // an address aligned for `T`; above we checked that it is writable, C-contiguous (one run
    // of memory) and holds exactly `n` items, so `buf_ptr()` points to `n` initialised,
    // writable `T`s (any bit pattern is a valid `T` for the `Element` types: plain numbers).
    // The memory lives as long as `out`: the exporter (numpy) keeps it and refuses to resize
    // or free it until the `PyBuffer` is released, and the returned slice borrows `out`. No
    // other reference exists while the slice lives: it borrows `out` mutably (so no second
    // slice of this buffer), the caller holds no other view of the same memory (see above),
    // and the caller holds the GIL for the slice's whole life, so no Python code runs
    // meanwhile; only a C extension that released the GIL while working on the very same
    // array in another thread could touch it, the data race numpy leaves to its users for any
    // array (the library's `NativeBatch` allocates each output array just before the call and
    // shares it with no thread).
    Ok(unsafe { std::slice::from_raw_parts_mut(out.buf_ptr().cast::<T>(), n) })
}

/// Environment indices `which`, each below `n`.
fn indices(py: Python<'_>, which: &PyBuffer<i64>, n: usize) -> PyResult<Vec<usize>> {
    let raw = which.to_vec(py)?;
    raw.iter()
        .map(|&i| {
            usize::try_from(i)
                .ok()
                .filter(|&i| i < n)
                .ok_or_else(|| input_error(py, "which", &format!("environment {i} is not in 0..{n}")))
        })
        .collect()
}

/// N games stepped together: the native twin of `hatsuden_rules.integrations._learning.
/// PythonBatch` (the same five methods, each over the whole batch in one call).
#[pyclass(module = "hatsuden_native._native")]
pub struct VectorBatch {
    learning: Arc<Learning>,
    games: Vec<Game>,
    recall: bool,
    normalize: bool,
    moves: Vec<Move>,
    ids: Vec<u32>,
    /// The raw observation tensor of one row, reused from call to call (no allocation per
    /// step).
    raw: Vec<f32>,
    /// The states after the actions of a step, reused from call to call.
    after: Vec<State>,
}

#[pymethods]
impl VectorBatch {
    /// `num_envs` games of `rules` (notation), observed as `observation`, normalised or raw.
    #[new]
    #[pyo3(signature = (rules, num_envs, observation="observation", normalize=false))]
    fn new(py: Python<'_>, rules: &str, num_envs: i64, observation: &str, normalize: bool) -> PyResult<Self> {
        guard(py, || {
            let learning = learning_of(py, rules)?;
            let recall = recall_of(py, observation)?;
            let n = usize::try_from(num_envs)
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| input_error(py, "num_envs", &format!("must be an int >= 1, got {num_envs}")))?;
            let games = (0..n).map(|_| Game::new(&learning, recall)).collect();
            Ok(VectorBatch {
                learning,
                games,
                recall,
                normalize,
                moves: Vec::with_capacity(64),
                ids: Vec::with_capacity(64),
                raw: vec![0.0; hatsuden::MAX_OBSERVATION_TENSOR],
                after: Vec::with_capacity(n),
            })
        })
    }

    /// The number of action ids (the width of a mask).
    #[getter]
    fn num_actions(&self) -> usize {
        self.learning.actions.player.len()
    }

    /// The width of an observation row.
    #[getter]
    fn observation_size(&self) -> usize {
        self.learning.feature_size(self.recall, self.normalize)
    }

    /// How many games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.games.len()
    }

    /// Start a new game in each environment of `which` with the matching seed (R8).
    fn reset(&mut self, py: Python<'_>, seeds: Vec<Bound<'_, PyAny>>, which: Vec<i64>) -> PyResult<()> {
        guard(py, || {
            if seeds.len() != which.len() {
                return Err(input_error(
                    py,
                    "seeds",
                    &format!("{} seeds for {} environments", seeds.len(), which.len()),
                ));
            }
            let n = self.games.len();
            let mut plan = Vec::with_capacity(which.len());
            for (seed, &i) in seeds.iter().zip(&which) {
                let i = usize::try_from(i)
                    .ok()
                    .filter(|&i| i < n)
                    .ok_or_else(|| input_error(py, "which", &format!("environment {i} is not in 0..{n}")))?;
                plan.push((i, seed_of(seed)?));
            }
            for (i, seed) in plan {
                self.games[i].reset(&self.learning, seed);
            }
            Ok(())
        })
    }

    /// Fill `mask` (rows x A bytes: a numpy bool array viewed as uint8) with the legal action
    /// ids and `players` (rows int64) with the seat to act, -1 where the game is over, for the
    /// environments `which` (default all, in order).
    #[pyo3(signature = (mask, players, which=None))]
    fn legal(
        &mut self,
        py: Python<'_>,
        mut mask: PyBuffer<u8>,
        players: PyBuffer<i64>,
        which: Option<PyBuffer<i64>>,
    ) -> PyResult<()> {
        guard(py, || {
            let a = self.learning.actions.player.len();
            let rows = match &which {
                Some(which) => indices(py, which, self.games.len())?,
                None => (0..self.games.len()).collect(),
            };
            let cells = slice_of(py, &mut mask, rows.len() * a, "mask")?;
            let mut p = vec![-1i64; rows.len()];
            for (r, &i) in rows.iter().enumerate() {
                let game = &self.games[i];
                game.legal_ids(&self.learning, &mut self.moves, &mut self.ids);
                let row = &mut cells[r * a..(r + 1) * a];
                row.fill(0);
                for &id in &self.ids {
                    if let Some(slot) = row.get_mut(id as usize) {
                        *slot = 1;
                    }
                }
                if !game.state.is_over() {
                    p[r] = game.state.current_player() as i64;
                }
            }
            write(py, &players, &p, "players")
        })
    }

    /// Fill `out` (len(which) x F float32) with the features of environments `which`, each
    /// from the view of `players[i]` (N int64).
    fn observations(
        &mut self,
        py: Python<'_>,
        players: PyBuffer<i64>,
        which: PyBuffer<i64>,
        mut out: PyBuffer<f32>,
    ) -> PyResult<()> {
        guard(py, || {
            let n = self.games.len();
            let seats = read(py, &players, n, "players")?;
            let rows = indices(py, &which, n)?;
            // Every seat is checked before anything is written.
            let views = rows.iter().map(|&i| player_of(py, seats[i])).collect::<PyResult<Vec<usize>>>()?;
            let f = self.learning.feature_size(self.recall, self.normalize);
            let out = slice_of(py, &mut out, rows.len() * f, "out")?;
            for ((&i, &seat), row) in rows.iter().zip(&views).zip(out.chunks_exact_mut(f.max(1))) {
                self.games[i].write_features_with(&self.learning, seat, self.normalize, row, &mut self.raw);
            }
            Ok(())
        })
    }

    /// Apply `actions[i]` (N int64) in each environment `i` of `which` and resolve chance.
    ///
    /// Every action is checked first: an out-of-range or illegal one raises `InvalidInputError`
    /// naming the environment, the action and the rule (R35), and no environment moves.
    fn step(&mut self, py: Python<'_>, actions: PyBuffer<i64>, which: PyBuffer<i64>) -> PyResult<()> {
        guard(py, || {
            let n = self.games.len();
            let acts = read(py, &actions, n, "actions")?;
            let rows = indices(py, &which, n)?;
            let mut after = std::mem::take(&mut self.after);
            after.clear();
            for &i in &rows {
                match self.games[i].probe(&self.learning, acts[i]) {
                    Ok(s) => after.push(s),
                    Err(e) => {
                        let what = match e {
                            StepError::OutOfRange => {
                                format!("out of range (0..{})", self.learning.actions.player.len())
                            }
                            StepError::Illegal(m, e) => format!("illegal: {} ({})", m.format(), e.message),
                        };
                        return Err(input_error(
                            py,
                            "actions",
                            &format!("environment {i}: action {} is {what}; no environment moved", acts[i]),
                        ));
                    }
                }
            }
            // Every action is legal: the transitions and chance, pure Rust, run without the GIL.
            let (learning, games) = (&self.learning, &mut self.games);
            py.detach(|| {
                for (&i, s) in rows.iter().zip(&after) {
                    games[i].commit(learning, acts[i], *s);
                }
            });
            self.after = after;
            Ok(())
        })
    }

    /// Fill `out` (len(which) int64) with the winner of each game of `which` (R29).
    fn winners(&self, py: Python<'_>, which: PyBuffer<i64>, out: PyBuffer<i64>) -> PyResult<()> {
        guard(py, || {
            let rows = indices(py, &which, self.games.len())?;
            let w: Vec<i64> = rows.iter().map(|&i| self.games[i].winner() as i64).collect();
            write(py, &out, &w, "out")
        })
    }
}

/// One game stepped by action id (the PettingZoo environment's native core): the native twin of
/// `hatsuden_rules.integrations._learning.Episode`.
#[pyclass(module = "hatsuden_native._native", name = "Episode")]
pub struct NativeEpisode {
    learning: Arc<Learning>,
    game: Game,
    moves: Vec<Move>,
    ids: Vec<u32>,
}

#[pymethods]
impl NativeEpisode {
    /// A game of `rules` (notation), counting what each player saw with `recall`.
    #[new]
    #[pyo3(signature = (rules, recall=false))]
    fn new(py: Python<'_>, rules: &str, recall: bool) -> PyResult<Self> {
        guard(py, || {
            let learning = learning_of(py, rules)?;
            let game = Game::new(&learning, recall);
            Ok(NativeEpisode { learning, game, moves: Vec::with_capacity(64), ids: Vec::with_capacity(64) })
        })
    }

    /// A new game whose chance events follow `seed` (any int, mod 2**64): `new_game(seed=seed)`.
    fn reset(&mut self, py: Python<'_>, seed: &Bound<'_, PyAny>) -> PyResult<()> {
        guard(py, || {
            let seed = seed_of(seed)?;
            self.game.reset(&self.learning, seed);
            Ok(())
        })
    }

    /// Apply action id `action` and resolve chance. An id out of range raises
    /// `InvalidInputError`, an illegal move `IllegalMoveError` with its rule (R35); either
    /// changes nothing.
    fn step(&mut self, py: Python<'_>, action: i64) -> PyResult<()> {
        guard(py, || match self.game.probe(&self.learning, action) {
            Ok(after) => {
                self.game.commit(&self.learning, action, after);
                Ok(())
            }
            Err(StepError::OutOfRange) => Err(input_error(
                py,
                "action",
                &format!("must be an action id in 0..{}, got {action}", self.learning.actions.player.len()),
            )),
            Err(StepError::Illegal(m, e)) => Err(illegal_error(py, &self.game.state, &m, &e)),
        })
    }

    /// The legal action ids, ascending (empty at the end).
    fn legal_ids(&mut self, py: Python<'_>) -> PyResult<Vec<u32>> {
        guard(py, || {
            self.game.legal_ids(&self.learning, &mut self.moves, &mut self.ids);
            Ok(self.ids.clone())
        })
    }

    /// `player`'s raw tensor: the observation tensor (R39), then the seen counts if kept.
    fn raw(&self, py: Python<'_>, player: i64) -> PyResult<Vec<i64>> {
        guard(py, || Ok(self.game.raw(player_of(py, player)?)))
    }

    /// Whether the game is over (R26).
    #[getter]
    fn is_over(&self) -> bool {
        self.game.state.is_over()
    }

    /// The seat to act.
    #[getter]
    fn current_player(&self) -> usize {
        self.game.state.current_player()
    }

    /// The winner as if the game ended now (R29).
    fn winner(&self, py: Python<'_>) -> PyResult<usize> {
        guard(py, || Ok(self.game.winner()))
    }

    /// The state as seeded mode holds it, in notation (`parse_state` reads it back).
    fn seeded_notation(&self, py: Python<'_>) -> PyResult<String> {
        guard(py, || Ok(format_state(&self.game.seeded_state())))
    }
}

/// One state of the OpenSpiel game on the native core: immutable, stepped by action id.
///
/// The OpenSpiel adapter keeps each player's record (the seen ids and the information-state
/// string) itself and asks this state for the transitions and the tensors.
#[pyclass(module = "hatsuden_native._native", frozen)]
pub struct SpielState {
    learning: Arc<Learning>,
    state: State,
}

#[pymethods]
impl SpielState {
    /// The state before the deal (R7) of `rules` (notation).
    #[staticmethod]
    fn initial(py: Python<'_>, rules: &str) -> PyResult<Self> {
        guard(py, || {
            let learning = learning_of(py, rules)?;
            let state =
                hatsuden::new_game(&learning.t.rules, None).map_err(|e| input_error(py, &e.field, &e.message))?;
            Ok(SpielState { learning, state })
        })
    }

    /// A state of the same rules read from its notation (explicit chance mode).
    fn with_notation(&self, py: Python<'_>, text: &str) -> PyResult<Self> {
        guard(py, || {
            let state = hatsuden::parse_state(text).map_err(|e| notation_error(py, &e, text, false))?;
            if state.rules() != &self.learning.t.rules {
                return Err(input_error(py, "state", "has other rules than the game"));
            }
            Ok(SpielState { learning: self.learning.clone(), state })
        })
    }

    /// The state in notation (`parse_state` reads it back).
    fn notation(&self, py: Python<'_>) -> PyResult<String> {
        guard(py, || Ok(format_state(&self.state)))
    }

    /// -4 at the end (OpenSpiel's TERMINAL), -1 in CHANCE (its CHANCE), else the seat to move.
    fn spiel_player(&self) -> i64 {
        match self.state.phase() {
            Phase::GameOver => -4,
            Phase::Chance => -1,
            _ => self.state.current_player() as i64,
        }
    }

    /// The seat to move (in CHANCE the receiver, R6).
    #[getter]
    fn current_player(&self) -> usize {
        self.state.current_player()
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

    /// The legal action ids, ascending (empty at the end; chance ids in CHANCE).
    fn legal_actions(&self, py: Python<'_>) -> PyResult<Vec<u32>> {
        guard(py, || {
            let mut moves = Vec::with_capacity(64);
            if self.state.is_over() {
                return Ok(Vec::new());
            }
            self.state.legal_moves(&mut moves);
            let a = &self.learning.actions;
            let chance = self.state.phase() == Phase::Chance;
            Ok(moves.iter().filter_map(|m| if chance { a.chance_id(m) } else { a.id(m) }).collect())
        })
    }

    /// The chance outcomes `(chance id, probability)` (R6); outside CHANCE raises `PhaseError`.
    fn chance_outcomes(&self, py: Python<'_>) -> PyResult<Vec<(u32, f64)>> {
        guard(py, || match self.state.chance_outcomes() {
            Ok(outcomes) => Ok(outcomes
                .into_iter()
                .filter_map(|(m, p, q)| self.learning.actions.chance_id(&m).map(|c| (c, p as f64 / q as f64)))
                .collect()),
            Err(e) => Err(super::library_error(py, "PhaseError", |_, cls| cls.call1((e.message.as_str(),)))),
        })
    }

    /// The state after action id `action` (a chance id in CHANCE); an illegal one raises
    /// `IllegalMoveError` with its rule (R35).
    fn apply_action(&self, py: Python<'_>, action: i64) -> PyResult<Self> {
        guard(py, || {
            let a = &self.learning.actions;
            let table = if self.state.phase() == Phase::Chance { &a.chance } else { &a.player };
            let Some(&m) = usize::try_from(action).ok().and_then(|i| table.get(i)) else {
                return Err(input_error(py, "action", &format!("must be an id in 0..{}, got {action}", table.len())));
            };
            match self.state.apply(m) {
                Ok(state) => Ok(SpielState { learning: self.learning.clone(), state }),
                Err(e) => Err(illegal_error(py, &self.state, &m, &e)),
            }
        })
    }

    /// +1 for the winner and -1 for the loser at the end (R29), zeros before.
    fn returns(&self, py: Python<'_>) -> PyResult<(f64, f64)> {
        guard(py, || {
            if !self.state.is_over() {
                return Ok((0.0, 0.0));
            }
            Ok(if score(&self.state).winner == 0 { (1.0, -1.0) } else { (-1.0, 1.0) })
        })
    }

    /// Fill `out` (float32) with `player`'s observation tensor (R39), followed with `recall` by
    /// how many times `player` saw each seen id (`seen`: the ids of their record, as the
    /// adapter keeps it); normalised with `normalize`.
    fn write_tensor(
        &self,
        py: Python<'_>,
        player: i64,
        seen: Vec<u32>,
        recall: bool,
        normalize: bool,
        out: PyBuffer<f32>,
    ) -> PyResult<()> {
        guard(py, || {
            let p = player_of(py, player)?;
            let l = &self.learning;
            let mut counts = vec![0u32; if recall { l.codec.size } else { 0 }];
            if recall {
                for &id in &seen {
                    let Some(c) = counts.get_mut(id as usize) else {
                        return Err(input_error(py, "seen", &format!("seen id {id} is not in 0..{}", l.codec.size)));
                    };
                    *c += 1;
                }
            }
            let o = observe(&self.state, p);
            let raw = hatsuden::infostate::information_state_tensor(&o, &counts);
            let data = if normalize { l.plan(recall).normalize(&raw) } else { raw.iter().map(|&x| x as f32).collect() };
            write(py, &out, &data, "out")
        })
    }

    /// `player`'s observation tensor (R39) as ints.
    fn observation_tensor(&self, py: Python<'_>, player: i64) -> PyResult<Vec<i64>> {
        guard(py, || Ok(hatsuden::observation_tensor(&observe(&self.state, player_of(py, player)?))))
    }
}
