//! Single-observer information-set MCTS (Cowling et al. 2012) on the native core.
//!
//! The algorithm of `hatsuden_rules.players._ismcts`, step for step: every iteration draws a
//! determinization with `sample_state` (R38) from a seed stream, descends the tree through the
//! moves legal in it (UCB1 on availability counts), adds one node (the untried move with the
//! best cheap price), plays a short rollout with the cheap policy of [`crate::heuristics`] and
//! scores the position it reaches: 1 or 0 at the end of the game (R29), else the logistic of
//! the heuristic evaluation. The root's moves start with a few virtual visits at their one-ply
//! evaluation (progressive bias). The floating-point operations are those of the Python player
//! in the same order; `exp`, `ln` and `sqrt` come from the platform's math library in both.

use std::time::{Duration, Instant};

use hatsuden::observe::{sample_state, Observation};
use hatsuden::{InvalidInput, Move, Phase, SplitMix64, State};

use crate::bots::splitmix64;
use crate::heuristics::{evaluate, rollout_move, totals_and_winner, Context};

/// Mixed into each iteration's rollout noise (`_ismcts._tree`).
const ROLLOUT_NOISE: u64 = 0x2545_F491_4F6C_DD1D;

/// The search's settings (the fields of `ISMCTSPlayer`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IsmctsConfig {
    /// Iterations per decision (at least 1).
    pub iterations: u64,
    /// Optional cap in seconds per decision (then the game depends on the machine's speed).
    pub time_limit: Option<f64>,
    /// The UCB1 exploration constant.
    pub exploration: f64,
    /// Turns a rollout plays before the position is scored.
    pub rollout_turns: u64,
    /// Points of evaluation per unit of log-odds.
    pub temperature: f64,
    /// Virtual visits given to each root move at its one-ply evaluation.
    pub prior_visits: u64,
    /// One rollout action in this many is uniformly random (0: none).
    pub rollout_randomness: u64,
}

impl Default for IsmctsConfig {
    fn default() -> Self {
        IsmctsConfig {
            iterations: 300,
            time_limit: None,
            exploration: 0.2,
            rollout_turns: 4,
            temperature: 1.5,
            prior_visits: 5,
            rollout_randomness: 0,
        }
    }
}

impl IsmctsConfig {
    /// Refuse what the Python player refuses, naming the field.
    pub fn validate(&self) -> Result<(), InvalidInput> {
        if self.iterations < 1 {
            return Err(InvalidInput::new("iterations", format!("must be an int >= 1, got {}", self.iterations)));
        }
        if let Some(limit) = self.time_limit {
            if !(limit.is_finite() && limit > 0.0) {
                return Err(InvalidInput::new("time_limit", format!("must be None or a number > 0, got {limit}")));
            }
        }
        if !(self.exploration.is_finite() && self.exploration >= 0.0) {
            return Err(InvalidInput::new("exploration", format!("must be a number >= 0, got {}", self.exploration)));
        }
        if !(self.temperature.is_finite() && self.temperature > 0.0) {
            return Err(InvalidInput::new("temperature", format!("must be a number > 0, got {}", self.temperature)));
        }
        Ok(())
    }
}

/// Statistics of the move that leads to a node, made by `mover`; children by move.
struct Node {
    mover: usize,
    visits: u64,
    available: u64,
    reward: f64,
    children: Vec<(Move, usize)>,
}

impl Node {
    fn new(mover: usize) -> Node {
        Node { mover, visits: 0, available: 0, reward: 0.0, children: Vec::new() }
    }
    fn child(&self, m: Move) -> Option<usize> {
        self.children.iter().find(|(c, _)| *c == m).map(|&(_, i)| i)
    }
}

fn step(s: &State, m: Move) -> State {
    // The search applies only moves listed as legal in the same state.
    s.apply(m).unwrap_or_else(|e| panic!("a searched move is illegal: {}", e.message))
}

/// `ISMCTSPlayer.choose`: one move is answered at once, a tech card is always drawn when
/// allowed (R17), every other decision is searched.
pub fn choose(config: &IsmctsConfig, o: &Observation, moves: &[Move], rng: SplitMix64) -> Result<Move, InvalidInput> {
    if moves.len() == 1 {
        return Ok(moves[0]);
    }
    if o.phase == Phase::Tech {
        return Ok(if moves.contains(&Move::DrawTech) { Move::DrawTech } else { moves[0] });
    }
    let seed = rng.clone().next();
    search(config, o, moves, seed).map(|(m, _)| m)
}

/// The search from `o` with seed `seed`: the most visited root move (then the best reward),
/// and the number of iterations run.
pub fn search(config: &IsmctsConfig, o: &Observation, moves: &[Move], seed: u64) -> Result<(Move, u64), InvalidInput> {
    let mut nodes = vec![Node::new(1 - o.player)];
    let deadline = config.time_limit.map(|s| Instant::now() + Duration::from_secs_f64(s));
    let mut seed = seed;
    let mut root_moves: Option<Vec<Move>> = None;
    let mut buf = Vec::with_capacity(64);
    let mut path: Vec<usize> = Vec::with_capacity(64);
    let mut done = 0;
    for iteration in 0..config.iterations {
        if iteration > 0 && deadline.is_some_and(|d| Instant::now() > d) {
            break;
        }
        done += 1;
        let (next, sample_seed) = splitmix64(seed);
        seed = next;
        let mut state = sample_state(o, &mut SplitMix64::new(sample_seed))?;
        let noise = sample_seed ^ ROLLOUT_NOISE;
        let mut node = 0usize;
        path.clear();
        path.push(0);
        if root_moves.is_none() {
            let pruned = prune(&state, moves);
            if pruned.len() == 1 {
                return Ok((pruned[0], done));
            }
            if config.prior_visits > 0 {
                seed_root(&mut nodes, &state, &pruned, config, noise, &mut buf);
            }
            root_moves = Some(pruned);
        }
        let root = root_moves.as_deref().unwrap_or(moves);
        while !state.is_over() {
            let owned;
            let options: &[Move] = if node == 0 {
                root
            } else {
                state.legal_moves(&mut buf);
                owned = prune(&state, &buf);
                &owned
            };
            let mover = state.current_player();
            let mut untried: Vec<Move> = Vec::new();
            for &m in options {
                match nodes[node].child(m) {
                    None => untried.push(m),
                    Some(c) => nodes[c].available += 1,
                }
            }
            if !untried.is_empty() {
                let fresh = if untried.len() == 1 {
                    untried[0]
                } else {
                    let ctx = Context::new(&state);
                    let mut best = (untried[0], ctx.price(&untried[0]));
                    for &m in &untried[1..] {
                        let price = ctx.price(&m);
                        if price > best.1 {
                            best = (m, price);
                        }
                    }
                    best.0
                };
                let mut child = Node::new(mover);
                child.available = 1;
                let index = nodes.len();
                nodes.push(child);
                nodes[node].children.push((fresh, index));
                state = step(&state, fresh);
                path.push(index);
                break;
            }
            let mut best_value = -1.0f64;
            let mut best_move = options[0];
            for &m in options {
                let Some(c) = nodes[node].child(m) else { continue };
                let child = &nodes[c];
                let value = child.reward / child.visits as f64
                    + config.exploration * ((child.available as f64).ln() / child.visits as f64).sqrt();
                if value > best_value {
                    best_value = value;
                    best_move = m;
                }
            }
            node = nodes[node].child(best_move).unwrap_or(0);
            state = step(&state, best_move);
            path.push(node);
        }
        let value = rollout(state, config, noise, &mut buf);
        for &n in &path {
            let node = &mut nodes[n];
            node.visits += 1;
            node.reward += if node.mover == 0 { value } else { 1.0 - value };
        }
    }
    let root = root_moves.unwrap_or_else(|| moves.to_vec());
    let mut best: Option<(Move, u64, f64)> = None;
    for &m in &root {
        let (visits, reward) = nodes[0].child(m).map(|c| (nodes[c].visits, nodes[c].reward)).unwrap_or((0, 0.0));
        if best.map_or(true, |(_, v, r)| visits > v || (visits == v && reward > r)) {
            best = Some((m, visits, reward));
        }
    }
    Ok((best.map(|b| b.0).unwrap_or(moves[0]), done))
}

/// Give each root move `prior_visits` virtual visits at its one-ply evaluation.
fn seed_root(
    nodes: &mut Vec<Node>,
    state: &State,
    moves: &[Move],
    config: &IsmctsConfig,
    mut noise: u64,
    buf: &mut Vec<Move>,
) {
    let me = state.current_player();
    let visits = config.prior_visits;
    for &m in moves {
        let mut after = step(state, m);
        while after.current_player() == me && matches!(after.phase(), Phase::Tech | Phase::Overflow) {
            let (next, r) = splitmix64(noise);
            noise = next;
            let reply = if after.phase() == Phase::Tech { Move::DeclineTech } else { rollout_move(&after, r, 0, buf) };
            after = step(&after, reply);
        }
        let mut child = Node::new(me);
        child.visits = visits;
        child.available = visits;
        child.reward = visits as f64 / (1.0 + (-evaluate(&after, me) / config.temperature).exp());
        let index = nodes.len();
        nodes.push(child);
        nodes[0].children.push((m, index));
    }
}

/// Player 0's chance of winning from `state`, after a short rollout (R29 at the end).
fn rollout(mut state: State, config: &IsmctsConfig, mut noise: u64, buf: &mut Vec<Move>) -> f64 {
    let mut ended = 0;
    while !state.is_over() && ended < config.rollout_turns {
        let (next, r) = splitmix64(noise);
        noise = next;
        let mover = state.current_player();
        let m = rollout_move(&state, r, config.rollout_randomness, buf);
        state.apply_mut(m).unwrap_or_else(|e| panic!("a rollout move is illegal: {}", e.message));
        if state.current_player() != mover {
            ended += 1;
        }
    }
    if state.is_over() {
        return if totals_and_winner(&state).1 == 0 { 1.0 } else { 0.0 };
    }
    let margin = evaluate(&state, 0);
    1.0 / (1.0 + (-margin / config.temperature).exp())
}

/// The moves the tree considers: no Secret Build, pylons of the weakest card only, the two
/// most useful discards, Smart on the best energy only if it pays now, the Accumulator in
/// ACTION and on an overflowing row (R18-R22).
fn prune(state: &State, moves: &[Move]) -> Vec<Move> {
    if moves.len() <= 2 {
        return moves.to_vec();
    }
    let phase = state.phase();
    let mut pylon_card = None;
    for m in moves {
        if let Move::BuildPylon { card, .. } = *m {
            if pylon_card.map_or(true, |c: hatsuden::Card| card.value < c.value) {
                pylon_card = Some(card);
            }
        }
    }
    let played_row = state.played_cell().map(|c| c.row);
    let mut out = Vec::with_capacity(moves.len());
    let mut takes = Vec::new();
    let mut smart = Vec::new();
    for &m in moves {
        match m {
            Move::Construct { secret, .. } => {
                if !secret {
                    out.push(m);
                }
            }
            Move::BuildPylon { card, .. } => {
                if Some(card) == pylon_card {
                    out.push(m);
                }
            }
            Move::DrawFromDiscard { .. } => takes.push(m),
            Move::PlaceSmart { .. } => smart.push(m),
            Move::PlaceAccumulator { row } => {
                if phase == Phase::Action || (phase == Phase::Overflow && played_row == Some(row)) {
                    out.push(m);
                }
            }
            _ => out.push(m),
        }
    }
    if !takes.is_empty() || !smart.is_empty() {
        let ctx = Context::new(state);
        if !takes.is_empty() {
            let mut ranked: Vec<(f64, usize, Move)> =
                takes.iter().enumerate().map(|(i, m)| (ctx.price(m), i, *m)).collect();
            ranked.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(std::cmp::Ordering::Equal).then(a.1.cmp(&b.1)));
            let can_draw = moves.contains(&Move::DrawFromDeck);
            let start = ranked.len().saturating_sub(2);
            out.extend(ranked[start..].iter().filter(|(v, _, _)| *v > 0.0 || !can_draw).map(|x| x.2));
        }
        if !smart.is_empty() {
            let mut best = (f64::NEG_INFINITY, smart[0]);
            for (i, m) in smart.iter().enumerate() {
                let v = ctx.price(m);
                if i == 0 || v >= best.0 {
                    best = (v, *m); // ties go to the later move, as max over (price, index)
                }
            }
            if best.0 > 0.0 {
                out.push(best.1);
            }
        }
    }
    if out.is_empty() {
        moves.to_vec()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::{match_game, Bot};
    use hatsuden::Rules;

    /// A small search returns a legal move, the same for the same seed, and beats random.
    #[test]
    fn ismcts_is_legal_deterministic_and_strong() {
        let bot = Bot::Ismcts(IsmctsConfig { iterations: 40, ..IsmctsConfig::default() });
        let mut wins = 0;
        for index in 0..6 {
            let a = match_game([&bot, &Bot::Random], &Rules::STANDARD, 11, index).unwrap();
            let b = match_game([&bot, &Bot::Random], &Rules::STANDARD, 11, index).unwrap();
            assert_eq!(a.moves, b.moves);
            if hatsuden::score(&a.last).winner == (index % 2) as usize {
                wins += 1;
            }
        }
        assert!(wins >= 5, "ismcts won {wins} of 6");
    }
}
