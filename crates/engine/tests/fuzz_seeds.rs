//! The fuzz targets' seeds (`fuzz/corpus/<target>/`, picked by `scripts/fuzz-seeds.py`) replayed
//! through the same checks as the targets themselves (`fuzz/src/`), so that every seed, the
//! regressions among them, runs in every test run and not only under AFL.

use std::io::{Cursor, Write};
use std::path::PathBuf;

use mancala_engine::protocol::input::{InputLine, read_line};
use mancala_engine::protocol::parser::parse_line;
use mancala_rules::{Game, LastFourRule, Position, Side, Variant};

/// The seeds of `target`, with their names.
fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut seeds: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    seeds.sort();
    assert!(seeds.len() >= 10, "{target}: {} seeds", seeds.len());
    seeds
}

#[test]
fn command_line_seeds_parse_or_say_why() {
    for (name, data) in seeds("command_line") {
        let mut reader = Cursor::new(data);
        while let Ok(Some(line)) = read_line(&mut reader) {
            if let InputLine::Text(text) = line {
                assert!(!text.contains('\n'), "{name}: a line holds no line end");
                if let Err(error) = parse_line(&text) {
                    assert!(
                        !error.to_string().is_empty(),
                        "{name}: an error without words"
                    );
                }
            }
        }
    }
}

#[test]
fn position_string_seeds_round_trip_and_play_to_an_end() {
    for (name, data) in seeds("position_string") {
        let Ok(text) = std::str::from_utf8(&data) else {
            continue;
        };
        for variant in Variant::ALL {
            let Ok(position) = Position::from_position_string(variant, text) else {
                continue;
            };
            let printed = position.to_string();
            let again = Position::from_position_string(variant, &printed)
                .unwrap_or_else(|e| panic!("{name}: {printed} does not parse: {e:?}"));
            assert_eq!(again, position, "{name}: {text} -> {printed}");
            // A game that allows any total (Kalah with 6 per pit) keeps the position's own.
            let counters = |p: &Position| {
                p.on_board() + p.captured(Side::South) as u32 + p.captured(Side::North) as u32
            };
            let total = if variant.rules().any_total {
                counters(&position)
            } else {
                variant.rules().total()
            };
            assert_eq!(counters(&position), total, "{name}");
            for rule in [LastFourRule::MostRecentFour, LastFourRule::FirstCapture] {
                let mut game = Game::new(position, rule);
                for _ in 0..1000 {
                    let Some(&mv) = game.legal_moves().as_slice().first() else {
                        break;
                    };
                    game.play(mv).expect("a legal move plays");
                    assert_eq!(counters(game.position()), total, "{name}");
                }
                assert!(game.is_over(), "{name}: a game ends within 1000 moves");
            }
        }
    }
}

/// Output that goes nowhere.
struct Sink;

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Lines the session target drops: they make one run take long.
fn slow(line: &[u8]) -> bool {
    let lower = line.to_ascii_lowercase();
    [&b"perft"[..], b"bench", b"hash", b"threads"]
        .iter()
        .any(|word| lower.windows(word.len()).any(|w| w == *word))
}

#[test]
fn session_seeds_run_through_the_main_loop() {
    for (name, data) in seeds("session") {
        let kept: Vec<u8> = data
            .split_inclusive(|&b| b == b'\n')
            .filter(|line| !slow(line))
            .flatten()
            .copied()
            .collect();
        // A panic on the loop's threads would end the test's process or fail the join here.
        let run =
            std::thread::spawn(move || mancala_engine::protocol::run(Cursor::new(kept), Sink));
        assert!(run.join().is_ok(), "{name}: the session panicked");
    }
}
