//! `bench`: a fixed search over fixed positions of every game, the search's signature.
//!
//! Same binary, same node count: the positions are fixed, the table is cleared before each one,
//! and the search runs on one thread to a fixed depth.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::eval::tuning::tuning;
use crate::search::{
    Limits, SearchControl, SearchOptions, SearchOutcome, TranspositionTable, search,
};
use mancala_rules::{Game, LastFourRule, Position, SplitMix64, Variant};

/// The bench positions: each built-in game's start and three positions reached by seeded random
/// play.
pub fn positions() -> Vec<(Position, u32)> {
    let mut list = Vec::new();
    // Every built-in game, at the depth its settings give (crates/engine/games/<game>.toml).
    for variant in Variant::ALL {
        let depth = tuning(variant).bench_depth;
        for (seed, plies) in [(0u64, 0usize), (1, 9), (2, 18), (3, 31)] {
            // A game without a choice of move is decided by its deal: deals are its positions.
            let mut pos = if variant.rules().has_forced_moves() && seed > 0 {
                Position::random_deal(variant, seed)
            } else {
                Position::start(variant)
            };
            let mut rng = SplitMix64::new(seed);
            for _ in 0..plies {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                pos.play_unchecked(
                    legal.as_slice()[(rng.next_u64() % legal.len() as u64) as usize],
                );
            }
            list.push((pos, depth));
        }
    }
    list
}

/// One searched bench position.
#[derive(Clone, Debug)]
pub struct BenchItem {
    pub index: usize,
    pub count: usize,
    pub position: Position,
    pub depth: u32,
    pub outcome: SearchOutcome,
}

/// Runs the bench, calling `report` after each position; returns total nodes and the time spent
/// searching (clearing the table between positions is setup, not search, and is left out: with
/// the default 16 MiB table it would be several percent of the time).
pub fn run(mut report: impl FnMut(&BenchItem), control: &Arc<SearchControl>) -> (u64, Duration) {
    let table = Arc::new(TranspositionTable::new(16).unwrap_or_else(|_| {
        // 16 MiB could not be had: a one-bucket table still gives a deterministic count.
        TranspositionTable::new(0).expect("a single bucket")
    }));
    let list = positions();
    let mut searching = Duration::ZERO;
    let mut total = 0;
    for (index, (position, depth)) in list.iter().enumerate() {
        if control.is_stopped() {
            break;
        }
        table.clear();
        let game = Game::new(*position, LastFourRule::default());
        let limits = Limits {
            depth: Some(*depth),
            ..Limits::default()
        };
        let started = Instant::now();
        let outcome = search(
            &game,
            &limits,
            &SearchOptions::default(),
            Arc::clone(&table),
            Arc::clone(control),
            &mut |_| {},
        );
        searching += started.elapsed();
        total += outcome.nodes;
        report(&BenchItem {
            index: index + 1,
            count: list.len(),
            position: *position,
            depth: *depth,
            outcome,
        });
    }
    (total, searching)
}
