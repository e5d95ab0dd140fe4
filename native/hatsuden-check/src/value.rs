//! The exact value of a reduced game under perfect information (`modelcheck/_value.py`):
//! backward induction over the acyclic (R25) graph of positions. At a chance node the exact
//! expectation over `chance_outcomes` (R6), at a decision node the best value for the player to
//! move (player 0 maximises its probability of winning, player 1 minimises it), at the end 1 if
//! player 0 wins (R29), else 0. Hidden information is ignored (both players see every hand and
//! the deck's contents, not the order of future draws).
//!
//! Positions, not full states: the turn logs and known cards decide no move and no successor
//! (R36, proven by the checker's soundness checks), so a full state's value is its position's.

use hatsuden::packed::Packer;
use hatsuden::{new_game, score, Phase, Rules, State};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::collections::HashMap;

/// P(player 0 wins) with perfect play and perfect information, exactly, and the positions solved.
pub fn game_value(rules: &Rules) -> Result<(BigRational, usize), String> {
    if rules.stall_limit.is_none() {
        return Err("stall_limit=None: without the stall rule no value exists".into());
    }
    let packer = Packer::new(rules, false).map_err(|e| e.to_string())?;
    let w = packer.words();
    let key = |s: &State| -> Box<[u64]> {
        let mut k = vec![0u64; w];
        packer.pack(s, &mut k);
        k.into_boxed_slice()
    };
    let root = new_game(rules, None).map_err(|e| e.to_string())?.position();
    let mut values: HashMap<Box<[u64]>, BigRational> = HashMap::new();
    // (state, children expanded): a state is pushed again after its children.
    let mut stack: Vec<(State, bool)> = vec![(root, false)];
    let mut moves = Vec::new();
    while let Some((s, expanded)) = stack.pop() {
        let k = key(&s);
        if values.contains_key(&k) {
            continue;
        }
        if s.is_over() {
            let v = if score(&s).winner == 0 { BigRational::one() } else { BigRational::zero() };
            values.insert(k, v);
            continue;
        }
        s.legal_moves(&mut moves);
        if !expanded {
            stack.push((s, true));
            for m in &moves {
                let c = s.apply(*m).map_err(|e| e.to_string())?.position();
                if !values.contains_key(&key(&c)) {
                    stack.push((c, false));
                }
            }
            continue;
        }
        let v = if s.phase() == Phase::Chance {
            let mut total = BigRational::zero();
            for (m, p, q) in s.chance_outcomes().map_err(|e| e.to_string())? {
                let c = s.apply(m).map_err(|e| e.to_string())?.position();
                let cv = values.get(&key(&c)).ok_or("a child without a value: the graph has a cycle")?;
                total += cv * BigRational::new(BigInt::from(p), BigInt::from(q));
            }
            total
        } else {
            let mut best: Option<BigRational> = None;
            for m in &moves {
                let c = s.apply(*m).map_err(|e| e.to_string())?.position();
                let cv = values.get(&key(&c)).ok_or("a child without a value: the graph has a cycle")?;
                best = Some(match best {
                    None => cv.clone(),
                    Some(b) if (s.current_player() == 0) == (*cv > b) => cv.clone(),
                    Some(b) => b,
                });
            }
            best.ok_or("a position that is not over without a legal move (R26)")?
        };
        values.insert(k, v);
    }
    let v = values.get(&key(&root)).cloned().ok_or("no value for the start")?;
    Ok((v, values.len()))
}
