//! `cargo bench --bench smp`: time to reach a fixed depth with 1 and with 2 threads (Lazy SMP)
//! on the bench positions, each measured several times; reports the median ratio.

use std::sync::Arc;
use std::time::{Duration, Instant};

use mancala_engine::engine::bench::positions;
use mancala_engine::search::{Limits, SearchControl, SearchOptions, TranspositionTable, search};
use mancala_rules::{Game, LastFourRule, Variant};

fn time_to_depth(game: &Game, depth: u32, threads: usize) -> Duration {
    let table = Arc::new(TranspositionTable::new(64).expect("64 MiB"));
    // The table's pages come from the system untouched; fault them in before the clock starts,
    // so that the kernel's page-fault work (serialised between threads) is not timed.
    table.clear();
    let options = SearchOptions {
        threads,
        ..SearchOptions::default()
    };
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let start = Instant::now();
    search(
        game,
        &limits,
        &options,
        table,
        Arc::new(SearchControl::new(false)),
        &mut |_| {},
    );
    start.elapsed()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let runs = 5;
    let mut ratios = Vec::new();
    for (position, depth) in positions() {
        if position.variant() == Variant::MangalaIV {
            continue; // forced play: nothing to search
        }
        let depth = depth + 3;
        let game = Game::new(position, LastFourRule::default());
        let one = median(
            (0..runs)
                .map(|_| time_to_depth(&game, depth, 1).as_secs_f64())
                .collect(),
        );
        let two = median(
            (0..runs)
                .map(|_| time_to_depth(&game, depth, 2).as_secs_f64())
                .collect(),
        );
        println!(
            "{:<11} depth {depth:>2}: 1 thread {:>7.1} ms, 2 threads {:>7.1} ms, ratio {:.2}",
            position.variant().name(),
            one * 1e3,
            two * 1e3,
            two / one
        );
        ratios.push(two / one);
    }
    println!("median ratio (2 threads / 1 thread): {:.2}", median(ratios));
}
