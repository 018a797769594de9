//! `cargo bench`: perft speed of every game from its start position, the cost of replaying a
//! whole game's move list (what tournament managers send before every move), and, as the
//! baseline measured in the same run, the naive reference implementation of the tests.
//!
//! Figures are medians of several runs on one thread. Nodes per second count perft leaves.

use std::hint::black_box;
use std::time::{Duration, Instant};

use mancala_engine::engine::{Engine, PositionBase};
use mancala_rules::{Game, LastFourRule, Move, Position, SplitMix64, Variant, perft};
use mancala_testkit::reference::RefPosition;

const RUNS: usize = 5;

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn time<T>(runs: usize, mut job: impl FnMut() -> T) -> Duration {
    median(
        (0..runs)
            .map(|_| {
                let start = Instant::now();
                black_box(job());
                start.elapsed()
            })
            .collect(),
    )
}

/// A long game: random moves until the game ends, so the list is as long as real games get.
fn long_game(variant: Variant, seed: u64) -> Vec<Move> {
    let mut rng = SplitMix64::new(seed);
    let mut game = Game::new(Position::start(variant), LastFourRule::default());
    while !game.is_over() {
        let legal = game.legal_moves();
        let mv = legal.as_slice()[(rng.next_u64() % legal.len() as u64) as usize];
        game.play(mv).expect("legal");
    }
    game.moves().collect()
}

fn main() {
    println!("perft from the start position (median of {RUNS} runs, one thread):");
    for (variant, depth) in [
        (Variant::MangalaII, 11),
        (Variant::AlManqala, 10),
        (Variant::Anywoli, 7),
        (Variant::Kalah, 10),
        (Variant::Oware, 10),
    ] {
        let pos = Position::start(variant);
        let nodes = perft(&pos, depth);
        let elapsed = time(RUNS, || perft(&pos, depth));
        println!(
            "  {variant:<11} depth {depth:>2}: {nodes:>11} nodes, {:>8.1} ms, {:>6.1} M nodes/s",
            elapsed.as_secs_f64() * 1e3,
            nodes as f64 / elapsed.as_secs_f64() / 1e6
        );
    }

    println!("a game loaded from its file against the same game compiled in (same run):");
    for (variant, depth) in [
        (Variant::MangalaII, 10),
        (Variant::AlManqala, 9),
        (Variant::Anywoli, 6),
        (Variant::Kalah, 9),
        (Variant::Oware, 9),
    ] {
        let text = mancala_rules::definition::write(variant.rules()).replace(
            &format!("name = \"{variant}\""),
            &format!("name = \"{variant}-file\""),
        );
        let loaded = mancala_rules::definition::register(&text).expect("a built-in game's file");
        let compiled_pos = Position::start(variant);
        let loaded_pos = Position::start(loaded);
        assert_eq!(perft(&compiled_pos, depth), perft(&loaded_pos, depth));
        let compiled = time(RUNS, || perft(&compiled_pos, depth));
        let from_file = time(RUNS, || perft(&loaded_pos, depth));
        println!(
            "  {variant:<11} depth {depth:>2}: compiled {:>7.1} ms, loaded {:>7.1} ms, loaded at \
             {:.2} of the compiled speed",
            compiled.as_secs_f64() * 1e3,
            from_file.as_secs_f64() * 1e3,
            compiled.as_secs_f64() / from_file.as_secs_f64()
        );
    }

    println!("against the naive reference implementation (same depth, same run):");
    for (variant, depth) in [
        (Variant::MangalaII, 7),
        (Variant::AlManqala, 6),
        (Variant::Anywoli, 5),
    ] {
        let pos = Position::start(variant);
        let reference = RefPosition::parse(variant, &pos.to_string());
        let engine = time(RUNS, || perft(&pos, depth));
        let naive = time(3, || reference.perft(depth));
        println!(
            "  {variant:<11} depth {depth}: engine {:>7.2} ms, reference {:>8.2} ms, {:>5.0}x faster",
            engine.as_secs_f64() * 1e3,
            naive.as_secs_f64() * 1e3,
            naive.as_secs_f64() / engine.as_secs_f64()
        );
    }

    println!("`position startpos moves …` with a whole game (median of 21):");
    for variant in Variant::ALL {
        let moves = (1..=20)
            .map(|seed| long_game(variant, seed))
            .max_by_key(Vec::len)
            .unwrap_or_default();
        let mut engine = Engine::new();
        engine.set_variant(variant);
        let elapsed = time(21, || {
            engine
                .set_position(&PositionBase::StartPos, &moves)
                .expect("legal game")
        });
        println!(
            "  {variant:<11} {:>5} moves: {:>8.1} µs ({:.2} µs per move)",
            moves.len(),
            elapsed.as_secs_f64() * 1e6,
            elapsed.as_secs_f64() * 1e6 / moves.len().max(1) as f64
        );
    }
}
