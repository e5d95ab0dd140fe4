//! Bots and the match driver, drawing every choice from the portable sampler (R32, R33).
//!
//! The players of `hatsuden_rules.players` on the native core: [`Bot::Random`],
//! [`Bot::Greedy`] (mirrored exactly from `players/_greedy.py` and `_heuristics.py`) and
//! [`Bot::Ismcts`] (the search of `players/_ismcts.py`, see [`crate::ismcts`]). A bot sees only
//! its own [`Observation`] (R37), the legal moves in canonical order (R34) and the decision's
//! generator, as a Python player does. The match driver ([`play_game`], [`match_game`]) deals,
//! seeds and asks exactly as `hatsuden_rules.simulation.play_game` and `run_match` do, so a
//! seeded match with random and greedy players is the same game, move for move, on both cores.

use std::time::Instant;

use hatsuden::observe::{observe, sample_state, unseen_counts, Observation};
use hatsuden::{new_game, Error, InvalidInput, Move, Phase, Rules, SplitMix64, State};

use crate::heuristics::{all_placements, margin, outlook, Context};
use crate::ismcts::{self, IsmctsConfig};

/// Separates the players' stream from the deal's (`simulation._DECISIONS`).
pub const DECISIONS: u64 = 0xD1B5_4A32_D192_ED03;
/// Mixed into the greedy player's tie-break noise.
const GREEDY_NOISE: u64 = 0x5_DEEC_E66D;

/// One SplitMix64 step (R32) from `state`: `(next_state, output)`.
#[inline]
pub fn splitmix64(state: u64) -> (u64, u64) {
    let mut g = SplitMix64::new(state);
    let out = g.next();
    (g.state, out)
}

/// A 64-bit seed derived from `seed` and `keys` by SplitMix64 mixing
/// (`simulation._derive`): each key is xored in and the output taken as the new state.
pub fn derive(seed: u64, keys: &[u64]) -> u64 {
    keys.iter().fold(seed, |state, &key| splitmix64(state ^ key).1)
}

/// The `new_game` seed of game `index` of a match seeded `seed`: games 2k and 2k+1 share it.
pub fn deal_seed(seed: u64, index: u64) -> u64 {
    derive(seed, &[index / 2])
}

/// A player of the native core.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bot {
    /// A uniformly random legal move: `moves[next() mod n]` (one draw).
    Random,
    /// One-ply lookahead on the provisional score (R27-R29) with row-target tie-breaks.
    Greedy,
    /// Information-set MCTS over `sample_state` determinizations (R38).
    Ismcts(IsmctsConfig),
}

impl Bot {
    /// The move to play from observation `o`, one of `moves` (the legal moves, R34), with this
    /// decision's generator `rng` (its state; the generator is a value, as in Python).
    ///
    /// Errors: no move to choose from, or an observation `sample_state` cannot complete.
    pub fn choose(&self, o: &Observation, moves: &[Move], rng: SplitMix64) -> Result<Move, InvalidInput> {
        if moves.is_empty() {
            return Err(InvalidInput::new("legal_moves", "there is no move to choose from"));
        }
        if o.phase == Phase::Chance || o.phase == Phase::GameOver || o.current_player != o.player {
            return Err(InvalidInput::new("observation", format!("player {} has no decision to make now", o.player)));
        }
        match self {
            Bot::Random => {
                let mut g = rng;
                Ok(moves[(g.next() % moves.len() as u64) as usize])
            }
            Bot::Greedy => greedy(o, moves, rng),
            Bot::Ismcts(config) => ismcts::choose(config, o, moves, rng),
        }
    }
}

fn step(s: &State, m: Move) -> State {
    // The bots apply only moves listed as legal in the same state.
    s.apply(m).unwrap_or_else(|e| panic!("a bot's own move is illegal: {}", e.message))
}

/// `GreedyPlayer.choose`: always draw a tech card when allowed (R17); in DRAW weigh the
/// discards against the deck (R22); else the move with the best (margin, outlook, noise) after
/// the forced rest of the action, in a determinization of the observation (R38).
fn greedy(o: &Observation, moves: &[Move], rng: SplitMix64) -> Result<Move, InvalidInput> {
    if moves.len() == 1 {
        return Ok(moves[0]);
    }
    if o.phase == Phase::Tech {
        return Ok(if moves.contains(&Move::DrawTech) { Move::DrawTech } else { moves[0] });
    }
    let state = sample_state(o, &mut SplitMix64::new(rng.state))?;
    let noise = rng.clone().next() ^ GREEDY_NOISE;
    if all_placements(moves) {
        return Ok(best(&state, moves, o.player, noise, true)); // R40: owed placements
    }
    if o.phase == Phase::Draw {
        return draw(o, &state, moves);
    }
    Ok(best(&state, moves, o.player, noise, true))
}

/// Play out the forced rest of the action: decline a tech draw, resolve an overflow (R17, R21).
/// Allocates only when an overflow is to be resolved (no allocation for most moves).
fn finish(mut state: State, player: usize, noise: u64) -> State {
    while state.current_player() == player {
        match state.phase() {
            Phase::Tech => state = step(&state, Move::DeclineTech),
            Phase::Overflow => {
                let all = state.legal_moves_vec();
                // Placements of Smart do not resolve an overflow (R40: placed first if drawn).
                let resolving: Vec<Move> = all
                    .iter()
                    .copied()
                    .filter(|m| matches!(m, Move::Flip { .. } | Move::FlipSet { .. } | Move::PlaceAccumulator { .. }))
                    .collect();
                let moves = if resolving.is_empty() { &all } else { &resolving };
                let m = best(&state, moves, player, noise, false);
                state = step(&state, m);
            }
            _ => break,
        }
    }
    state
}

fn best(state: &State, moves: &[Move], player: usize, mut noise: u64, fin: bool) -> Move {
    let mut best_move = moves[0];
    let mut best_key: Option<(i64, f64, u64)> = None;
    for &m in moves {
        if matches!(m, Move::Construct { secret: true, .. }) {
            continue;
        }
        let mut after = step(state, m);
        if fin {
            after = finish(after, player, noise);
        }
        let (next, jitter) = splitmix64(noise);
        noise = next;
        let key = (margin(&after, player), outlook(&after, player), jitter);
        let better = match best_key {
            None => true,
            Some(b) => key.0 > b.0 || (key.0 == b.0 && (key.1 > b.1 || (key.1 == b.1 && key.2 > b.2))),
        };
        if better {
            best_move = m;
            best_key = Some(key);
        }
    }
    best_move
}

fn draw(o: &Observation, state: &State, moves: &[Move]) -> Result<Move, InvalidInput> {
    let player = o.player;
    let mut smart: Option<(Move, i64)> = None;
    for &m in moves {
        if matches!(m, Move::PlaceSmart { .. }) {
            let value = margin(&step(state, m), player);
            if smart.map_or(true, |(_, b)| value > b) {
                smart = Some((m, value));
            }
        }
    }
    if let Some((m, value)) = smart {
        if value > margin(state, player) {
            return Ok(m);
        }
    }
    let ctx = Context::new(state);
    let t = state.tables();
    let mut best_take: Option<Move> = None;
    let mut best_gain = 0.0f64;
    for &m in moves {
        if let Move::DrawFromDiscard { card } = m {
            let gain = ctx.best_placement(t.index(card).unwrap_or(0) as usize);
            if best_take.is_none() || gain > best_gain {
                best_take = Some(m);
                best_gain = gain;
            }
        }
    }
    let can_draw = moves.contains(&Move::DrawFromDeck);
    match best_take {
        Some(take) if can_draw => {
            let unseen = unseen_counts(o)?;
            let mut total = 0u64;
            let mut sum = 0.0f64;
            for (card, &n) in unseen[..t.kinds].iter().enumerate() {
                if n > 0 {
                    total += n as u64;
                    sum += n as f64 * ctx.best_placement(card);
                }
            }
            let expected = if total > 0 { sum / total as f64 } else { 0.0 };
            Ok(if best_gain > expected + 0.1 { take } else { Move::DrawFromDeck })
        }
        _ if can_draw => Ok(Move::DrawFromDeck),
        Some(take) => Ok(take),
        None => Ok(moves[0]),
    }
}

/// One game played to its end by two bots (`simulation.PlayedGame`).
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The `new_game` seed (the deal and every chance event, R8).
    pub seed: u64,
    /// Every move in order.
    pub moves: Vec<Move>,
    /// The final state.
    pub last: State,
    /// Turns played.
    pub turns: u64,
    /// Calls to each seat's bot (a single legal move is played without one).
    pub decisions: [u64; 2],
    /// Seconds each seat spent choosing.
    pub think_seconds: [f64; 2],
    /// The tech cards each seat drew (R17), as tech indices in canonical order (R3).
    pub techs_drawn: [Vec<u8>; 2],
}

/// Play `new_game(seed, rules)` to its end, seat 0 `bots[0]`, seat 1 `bots[1]`
/// (`simulation.play_game`): decision k of the game gets `SplitMix64(x_k)`, x_k the k-th
/// output of a SplitMix64 stream started at `derive(decision_seed, [DECISIONS])`; a position
/// with one legal move is played without asking. Seeded mode resolves chance (R8).
pub fn play_game(bots: [&Bot; 2], rules: &Rules, seed: u64, decision_seed: u64) -> Result<PlayedGame, Error> {
    let mut stream = derive(decision_seed, &[DECISIONS]);
    let mut state = new_game(rules, Some(seed)).map_err(Error::Invalid)?;
    let mut moves = Vec::with_capacity(256);
    let mut decisions = [0u64; 2];
    let mut seconds = [0.0f64; 2];
    let mut drawn = [0u8; 2];
    let mut turns = 0u64;
    let mut legal = Vec::with_capacity(64);
    while !state.is_over() {
        let seat = state.current_player();
        state.legal_moves(&mut legal);
        let m = if legal.len() == 1 {
            legal[0]
        } else {
            let (next, value) = splitmix64(stream);
            stream = next;
            let bot = bots[seat];
            let start = Instant::now();
            let m = match bot {
                Bot::Random => legal[(SplitMix64::new(value).next() % legal.len() as u64) as usize],
                _ => bot.choose(&observe(&state, seat), &legal, SplitMix64::new(value)).map_err(Error::Invalid)?,
            };
            seconds[seat] += start.elapsed().as_secs_f64();
            decisions[seat] += 1;
            if !legal.contains(&m) {
                return Err(Error::Invalid(InvalidInput::new(
                    "players",
                    format!("player {seat} ({bot:?}) chose an illegal move {}", m.format()),
                )));
            }
            m
        };
        let held = state.tech_hand(seat);
        state.apply_mut(m).map_err(Error::Illegal)?;
        drawn[seat] |= state.tech_hand(seat) & !held;
        if state.current_player() != seat || state.is_over() {
            turns += 1;
        }
        moves.push(m);
    }
    let techs = |mask: u8| (0..4u8).filter(|x| mask & (1 << x) != 0).collect::<Vec<u8>>();
    Ok(PlayedGame {
        seed,
        moves,
        last: state,
        turns,
        decisions,
        think_seconds: seconds,
        techs_drawn: [techs(drawn[0]), techs(drawn[1])],
    })
}

/// Game `index` of a match seeded `seed` between `bots` (`simulation._match_game`): seats
/// `(A, B)` for an even index and `(B, A)` for an odd one, the deal `deal_seed(seed, index)`
/// and the decisions `derive(seed, [index])`.
pub fn match_game(bots: [&Bot; 2], rules: &Rules, seed: u64, index: u64) -> Result<PlayedGame, Error> {
    let seats = if index % 2 == 0 { bots } else { [bots[1], bots[0]] };
    play_game(seats, rules, deal_seed(seed, index), derive(seed, &[index]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seeded games replay exactly and end (R24-R26); a bot's move is always legal (R34).
    #[test]
    fn seeded_games_replay() {
        for bots in [[&Bot::Random, &Bot::Random], [&Bot::Greedy, &Bot::Random]] {
            for index in 0..6 {
                let a = match_game(bots, &Rules::STANDARD, 7, index).unwrap();
                let b = match_game(bots, &Rules::STANDARD, 7, index).unwrap();
                assert!(a.last.is_over());
                assert_eq!(a.moves, b.moves);
                assert_eq!(a.last, b.last);
                let mut s = new_game(&Rules::STANDARD, Some(a.seed)).unwrap();
                for &m in &a.moves {
                    s = s.apply(m).unwrap();
                }
                assert_eq!(s, a.last);
            }
        }
    }

    /// Greedy beats random clearly (it maximises the provisional margin, R27-R29).
    #[test]
    fn greedy_beats_random() {
        let mut wins = 0;
        for index in 0..20 {
            let g = match_game([&Bot::Greedy, &Bot::Random], &Rules::STANDARD, 3, index).unwrap();
            let greedy_seat = (index % 2) as usize;
            if hatsuden::score(&g.last).winner == greedy_seat {
                wins += 1;
            }
        }
        assert!(wins >= 16, "greedy won {wins} of 20");
    }

    #[test]
    fn derive_matches_python() {
        // simulation.deal_seed(7, 0) == deal_seed(7, 1) != deal_seed(7, 2)
        assert_eq!(deal_seed(7, 0), deal_seed(7, 1));
        assert_ne!(deal_seed(7, 1), deal_seed(7, 2));
    }
}
