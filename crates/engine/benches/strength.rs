//! `cargo bench --bench strength`: the search against the baseline strategies, in-process.
//!
//! For each game and each baseline (`greedy`, `random`): `GAMES` games (default 200) at
//! `MOVETIME` ms per search move (default 100), from openings of 2–5 random plies that capture
//! nothing, each opening played twice with the sides swapped; two games at a time. Prints W/D/L
//! and the score.
//! Environment: `GAMES`, `MOVETIME`, `VARIANTS` (comma-separated), `THREADS` (parallel games),
//! `BASELINES` (comma-separated strategies), `VERBOSE` (print every game the search did not win).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use mancala_engine::search::{
    Limits, SearchControl, SearchOptions, Strategy, TranspositionTable, search,
};
use mancala_rules::{Game, GameResult, LastFourRule, Position, Side, SplitMix64, Variant};

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The opening of pair `pair`: 2–5 random plies from the start that capture nothing, the same
/// for both games of the pair (an opening that already won counters would decide the pair).
fn opening(variant: Variant, pair: u64) -> Game {
    let mut rng = SplitMix64::new(pair * 7919 + variant.index() as u64);
    loop {
        let plies = 2 + rng.next_u64() % 4;
        let mut game = Game::new(Position::start(variant), LastFourRule::default());
        for _ in 0..plies {
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal.as_slice()[(rng.next_u64() % legal.len() as u64) as usize];
            game.play(mv).expect("legal");
        }
        let pos = game.position();
        if !game.is_over() && pos.captured(Side::South) == 0 && pos.captured(Side::North) == 0 {
            return game;
        }
    }
}

/// Plays one game; returns the result from the search's point of view (1, ½, 0).
fn play(variant: Variant, pair: u64, search_side: Side, baseline: Strategy, movetime: u64) -> f64 {
    let mut game = opening(variant, pair);
    let table = Arc::new(TranspositionTable::new(16).expect("16 MiB"));
    let mut rng = SplitMix64::new(pair ^ 0xABCD);
    let limits = Limits {
        movetime: Some(movetime),
        ..Limits::default()
    };
    while !game.is_over() {
        let mover = game.position().side_to_move();
        let options = SearchOptions {
            strategy: if mover == search_side {
                Strategy::Search
            } else {
                baseline
            },
            random: rng.next_u64(),
            move_overhead_ms: 0,
            ..SearchOptions::default()
        };
        let outcome = search(
            &game,
            &limits,
            &options,
            Arc::clone(&table),
            Arc::new(SearchControl::new(false)),
            &mut |_| {},
        );
        game.play(outcome.best.expect("a move while the game goes on"))
            .expect("the search plays legal moves");
    }
    let score = match (game.result().expect("over"), search_side) {
        (GameResult::Draw, _) => 0.5,
        (GameResult::SouthWins, Side::South) | (GameResult::NorthWins, Side::North) => 1.0,
        _ => 0.0,
    };
    if score < 1.0 && std::env::var("VERBOSE").is_ok() {
        let moves: Vec<String> = game.moves().map(|m| m.to_string()).collect();
        println!(
            "  {} pair {pair}, search {search_side}: {:?} {:?} after {} moves; final {}\n    {}",
            if score == 0.5 { "draw" } else { "loss" },
            game.ending(),
            game.score(),
            moves.len(),
            game.position(),
            moves.join(" ")
        );
    }
    score
}

fn main() {
    let games: usize = env("GAMES", 200);
    let movetime: u64 = env("MOVETIME", 100);
    let threads: usize = env("THREADS", 2);
    let variants: Vec<Variant> = std::env::var("VARIANTS")
        .unwrap_or_else(|_| "mangala-ii,al-manqala,anywoli".into())
        .split(',')
        .map(|v| v.parse().expect("variant name"))
        .collect();
    let baselines: Vec<Strategy> = std::env::var("BASELINES")
        .unwrap_or_else(|_| "greedy,random".into())
        .split(',')
        .map(|b| b.parse().expect("strategy name"))
        .collect();
    println!("{games} games per pairing, {movetime} ms per search move, {threads} at a time");
    for variant in variants {
        for &baseline in &baselines {
            let started = Instant::now();
            let next = AtomicUsize::new(0);
            let results = Mutex::new(Vec::new());
            std::thread::scope(|scope| {
                for _ in 0..threads {
                    scope.spawn(|| {
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            if i >= games {
                                break;
                            }
                            let side = if i.is_multiple_of(2) {
                                Side::South
                            } else {
                                Side::North
                            };
                            let score = play(variant, (i / 2) as u64, side, baseline, movetime);
                            results.lock().unwrap().push(score);
                        }
                    });
                }
            });
            let results = results.into_inner().unwrap();
            let wins = results.iter().filter(|&&s| s == 1.0).count();
            let draws = results.iter().filter(|&&s| s == 0.5).count();
            let losses = results.len() - wins - draws;
            let score: f64 = results.iter().sum();
            println!(
                "{:<11} search vs {:<6}: +{wins} ={draws} -{losses}  score {:.1}%  ({:.0} s)",
                variant.name(),
                baseline.name(),
                100.0 * score / results.len() as f64,
                started.elapsed().as_secs_f64()
            );
        }
    }
}
