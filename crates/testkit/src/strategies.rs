//! Strategies for property tests (proptest): games, valid position strings of any game, and
//! starts for random games.

use mancala_rules::{Position, Variant};
use proptest::prelude::*;

/// Any game.
pub fn variant() -> impl Strategy<Value = Variant> {
    prop::sample::select(Variant::ALL.to_vec())
}

/// A random but valid position string: counters spread at random over the pits and the two
/// captured totals.
pub fn position_string(variant: Variant) -> impl Strategy<Value = String> {
    let rules = variant.rules();
    let len = rules.pit_count();
    let total = rules.total() as usize;
    (
        prop::collection::vec(0..len + 2 + 4, total),
        any::<bool>(),
        0..3usize,
        0..3usize,
    )
        .prop_map(move |(slots, north, four, first)| {
            // Each counter lands in a pit or a store; the extra slots weight the stores so that
            // near-finished positions come up too.
            let mut counts = vec![0u32; len + 2];
            for slot in slots {
                counts[if slot >= len + 2 {
                    len + (slot % 2)
                } else {
                    slot
                }] += 1;
            }
            let mut fields: Vec<String> = counts.iter().map(u32::to_string).collect();
            fields.push(if north { "N" } else { "S" }.to_string());
            if variant.rules().tracks_four_holders() {
                fields.push(["S", "N", "X"][four].to_string());
                fields.push(["S", "N", "X"][first].to_string());
            }
            fields.join("-")
        })
}

/// A start for a random game: the start position, a Mangala IV deal, or a random position.
pub fn game_start() -> impl Strategy<Value = (Variant, String)> {
    variant().prop_flat_map(|v| {
        let start = Position::start(v).to_string();
        prop_oneof![
            Just((v, start)),
            any::<u64>().prop_map(move |seed| (
                v,
                if v == Variant::MangalaIV {
                    Position::mangala_iv_deal(seed).to_string()
                } else {
                    Position::start(v).to_string()
                }
            )),
            position_string(v).prop_map(move |s| (v, s)),
        ]
    })
}
