//! A rules engine and protocol daemon for two-row mancala games: Mangala II, Mangala IV,
//! Al-manqala and Anywoli.
//!
//! Layers point down only: [`rules`] (pure) ← [`engine`] (owns the game and background jobs) ←
//! [`protocol`] (parses lines, formats replies, owns stdout).

pub mod arena;
pub mod engine;
pub mod learn;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod tablebase;
