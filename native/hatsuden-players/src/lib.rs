//! # hatsuden-players
//!
//! The players of HATSUDEN on the native rules crate [`hatsuden`]: the bots of the Python
//! package's `hatsuden_rules.players` ([`bots::Bot::Random`], [`bots::Bot::Greedy`],
//! [`bots::Bot::Ismcts`]) and the seeded match driver of `hatsuden_rules.simulation`
//! ([`bots::play_game`], [`bots::match_game`]), move for move the same games on both cores.
//!
//! A crate of its own, as `players/` is a package of its own above the Python rules core
//! (docs/architecture.md): the players use the rules only through `hatsuden`'s public API (a
//! player sees its own observation, R37, and the legal moves, R34), and the rules crate stays
//! the rules alone, which is what its mutation testing (MUTATION.md) judges. The bots'
//! behaviour is held by the unit tests here and by the Python binding's differential tests
//! (tests/native: the same seeded matches, move for move, as the Python players).

#![forbid(unsafe_code)]
#![warn(missing_docs)]
// Index loops over card, cell and player indices read like the rules they implement.
#![allow(clippy::needless_range_loop)]

pub mod bots;
pub mod heuristics;
pub mod ismcts;
