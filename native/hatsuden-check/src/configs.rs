//! The named configurations of `modelcheck/_configs.py` (RULES.md R31, "Reduced
//! configurations"), in the same order.

use hatsuden::{Overflow, Rules, TechTiming, Tiebreak, ACCUMULATOR, DOWN, SECRET_BUILD, SMART};

const ALL_TECHS: u8 = 1 << ACCUMULATOR | 1 << SECRET_BUILD | 1 << SMART | 1 << DOWN;

const MEDIUM: Rules = Rules {
    energies: 2,
    max_value: 2,
    copies: 1,
    hand_size: 1,
    city_demand: 2,
    techs: 1 << SMART,
    tiebreak: Tiebreak::CityPoints,
    allow_retake_discard: false,
    stall_limit: Some(2),
    tech_timing: TechTiming::Keep,
    overflow: Overflow::OneAtATime,
};

const CHOICE: Rules = Rules { hand_size: 2, techs: ALL_TECHS, ..MEDIUM };

/// The configurations `hatsuden-native-check --config NAME` knows, as `_configs.CONFIGS`.
pub const CONFIGS: &[(&str, Rules)] = &[
    (
        "small",
        Rules { energies: 1, max_value: 2, copies: 2, hand_size: 1, city_demand: 1, techs: 1 << ACCUMULATOR, ..MEDIUM },
    ),
    ("medium", MEDIUM),
    ("large", Rules { techs: ALL_TECHS, stall_limit: Some(4), ..MEDIUM }),
    (
        "medium-place-at-once",
        Rules { techs: 1 << ACCUMULATOR | 1 << SMART, tech_timing: TechTiming::PlaceAtOnce, ..MEDIUM },
    ),
    ("medium-any-set", Rules { overflow: Overflow::AnySet, ..MEDIUM }),
    (
        "wide-any-set",
        Rules {
            energies: 3,
            max_value: 1,
            copies: 2,
            hand_size: 1,
            city_demand: 1,
            techs: 0,
            overflow: Overflow::AnySet,
            ..MEDIUM
        },
    ),
    ("choice", CHOICE),
    ("huge", Rules { copies: 2, ..CHOICE }),
];

/// The configurations searched by position by default (`_configs.POSITION_CONFIGS`).
pub const POSITION_CONFIGS: &[&str] = &["choice", "huge"];

/// The configurations checked by the ranked engine by default (`--engine ranked`, issue 21
/// §2): their visited set does not fit in memory.
pub const RANKED_CONFIGS: &[&str] = &["huge"];

/// The rule set of a named configuration.
pub fn config(name: &str) -> Option<Rules> {
    CONFIGS.iter().find(|(n, _)| *n == name).map(|(_, r)| *r)
}

/// Whether `rules` is one of the named configurations (coverage is then required).
pub fn is_named(rules: &Rules) -> bool {
    CONFIGS.iter().any(|(_, r)| r == rules)
}
