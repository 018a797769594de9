//! Random positions for the tests: any board of a game with a given number of counters on it.

use mancala_rules::{SplitMix64, Variant};

/// A random position string of `variant` with `counters` on the board: the rest captured, split
/// at random; the side to move and Anywoli's holder of the most recent four at random.
pub fn random_position(variant: Variant, counters: u32, rng: &mut SplitMix64) -> String {
    let rules = variant.rules();
    let len = rules.pit_count();
    let mut pits = vec![0u32; len];
    for _ in 0..counters {
        pits[(rng.next_u64() % len as u64) as usize] += 1;
    }
    let rest = rules.total() - counters;
    let south = (rng.next_u64() % (rest as u64 + 1)) as u32;
    let mut fields: Vec<String> = pits.iter().map(u32::to_string).collect();
    fields.push(south.to_string());
    fields.push((rest - south).to_string());
    fields.push(
        if rng.next_u64().is_multiple_of(2) {
            "S"
        } else {
            "N"
        }
        .into(),
    );
    if rules.tracks_four_holders() {
        for _ in 0..2 {
            fields.push(["S", "N", "X"][(rng.next_u64() % 3) as usize].into());
        }
    }
    if rules.rounds.is_some() {
        // Who started the round.
        fields.push(["S", "N"][(rng.next_u64() % 2) as usize].into());
    }
    if rules.tracks_extra_move() {
        // Whether the side to move is on an extra move.
        fields.push(["E", "X"][(rng.next_u64() % 2) as usize].into());
    }
    fields.join("-")
}
