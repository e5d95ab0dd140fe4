//! Scoring (R27-R29): defined for every state, as if the game ended now.

use crate::rules::Tiebreak;
use crate::state::State;

/// What decided the winner (R29).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// The higher total.
    Total,
    /// Tie-break 1 with `tiebreak = CITY_POINTS`.
    CityPoints,
    /// Tie-break 1 with `tiebreak = SUPPLY`.
    Supply,
    /// Tie-break 2: player 1 wins (R5).
    SecondPlayer,
}

impl Decision {
    /// JSON word.
    pub fn name(self) -> &'static str {
        match self {
            Decision::Total => "total",
            Decision::CityPoints => "city_points",
            Decision::Supply => "supply",
            Decision::SecondPlayer => "second_player",
        }
    }
}

/// One player's line of the score sheet.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct PlayerScore {
    /// R27.
    pub energy_points: i64,
    /// R28.
    pub city_points: i64,
    /// R29.
    pub total: i64,
    /// Supply of row 0 and row 1 (R21).
    pub row_supply: [u64; 2],
    /// Generation per energy in play (R27).
    pub generation: Vec<u64>,
}

/// The score sheet (R27-R29).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Score {
    /// Both players.
    pub players: [PlayerScore; 2],
    /// The winner (no draws).
    pub winner: usize,
    /// The step that decided it.
    pub decided_by: Decision,
    /// Per energy in play: the player with the strictly higher generation.
    pub energy_winners: Vec<Option<usize>>,
    /// The energy the Smart lies on.
    pub smart: Option<usize>,
}

/// Score the position as if the game ended now (R27-R29). Never changes the state.
pub fn score(s: &State) -> Score {
    let t = s.t;
    let e = t.e;
    let demand = t.rules.city_demand as u64;
    let mut players: [PlayerScore; 2] = Default::default();
    for (p, ps) in players.iter_mut().enumerate() {
        ps.generation = vec![0; e];
        for row in 0..2 {
            for col in 0..e {
                let st = &s.boards[p][row * e + col];
                if st.is_plant() {
                    let v = t.value[st.top() as usize] as u64;
                    ps.generation[col] += v;
                    ps.row_supply[row] += v;
                }
            }
            // R28: exactly city_demand +1, city_demand - 2 or less -1.
            let supply = ps.row_supply[row];
            if supply == demand {
                ps.city_points += 1;
            } else if supply + 2 <= demand {
                ps.city_points -= 1;
            }
        }
    }
    let mut energy_winners = vec![None; e];
    for col in 0..e {
        let (a, b) = (players[0].generation[col], players[1].generation[col]);
        let w = if a > b {
            Some(0)
        } else if b > a {
            Some(1)
        } else {
            None
        };
        energy_winners[col] = w;
        if let Some(w) = w {
            players[w].energy_points += if s.smart as usize == col { 2 } else { 1 };
        }
    }
    for ps in players.iter_mut() {
        ps.total = ps.energy_points + ps.city_points;
    }
    let (winner, decided_by) = if players[0].total != players[1].total {
        (if players[0].total > players[1].total { 0 } else { 1 }, Decision::Total)
    } else {
        let (a, b, d) = match t.rules.tiebreak {
            Tiebreak::CityPoints => (players[0].city_points, players[1].city_points, Decision::CityPoints),
            Tiebreak::Supply => (
                (players[0].row_supply[0] + players[0].row_supply[1]) as i64,
                (players[1].row_supply[0] + players[1].row_supply[1]) as i64,
                Decision::Supply,
            ),
        };
        if a != b {
            (if a > b { 0 } else { 1 }, d)
        } else {
            (1, Decision::SecondPlayer)
        }
    };
    #[cfg(feature = "fault-injection")]
    let winner = if decided_by == Decision::SecondPlayer && crate::fault::is(crate::fault::Fault::ScoreSecondPlayer) {
        0
    } else {
        winner
    };
    Score { players, winner, decided_by, energy_winners, smart: s.smart() }
}
