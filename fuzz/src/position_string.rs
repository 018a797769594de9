//! Fuzz target: position strings of every game, and what the rules do with a parsed one.
//!
//! A string either fails with an error or gives a position that prints back to an equal
//! position, holds its game's counters, and plays any legal move (and whole games) without
//! losing a counter.

mod checks;

fn main() {
    afl::fuzz!(|data: &[u8]| checks::position_string(data));
}
