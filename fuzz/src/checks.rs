//! What each fuzz target checks of one input, in one file that the targets (`afl::fuzz!`) and
//! the engine's replay of the seeds (`crates/engine/tests/fuzz_seeds.rs`, which includes this
//! file) both run. A failed check panics.

// Each target binary runs one of the checks.
#![allow(dead_code)]

use std::io::{Cursor, Write};

use mancala_protocol::input::{InputLine, read_line};
use mancala_protocol::{Reply, parse_line};
use mancala_rules::{Game, LastFourRule, Position, Side, Variant};

/// Bytes through the line reader, the nom command parser and the reply parser: every line is a
/// command, nothing, or an error with a message; a command written back reads as itself; a
/// line read as a reply writes back as one that reads the same.
pub fn command_line(data: &[u8]) {
    let mut reader = Cursor::new(data);
    while let Ok(Some(line)) = read_line(&mut reader) {
        if let InputLine::Text(text) = line {
            assert!(!text.contains('\n'), "a line holds no line end");
            match parse_line(&text) {
                Ok(Some(command)) => {
                    let written = command.to_string();
                    assert_eq!(
                        parse_line(&written),
                        Ok(Some(command)),
                        "'{text}' written as '{written}'"
                    );
                }
                Ok(None) => {}
                Err(error) => assert!(
                    !error.to_string().is_empty(),
                    "every error says what was wrong"
                ),
            }
            if let Ok(reply) = Reply::parse(&text) {
                let written = reply.to_string();
                assert_eq!(Reply::parse(&written), Ok(reply), "'{text}' as '{written}'");
            }
        }
    }
}

/// Text as a position string of every game: a parsed position prints back to an equal one,
/// holds its game's counters, and first-legal-move games from it conserve them and end within
/// 1000 moves.
pub fn position_string(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for variant in Variant::ALL {
        let Ok(position) = Position::from_position_string(variant, text) else {
            continue;
        };
        let printed = position.to_string();
        let again =
            Position::from_position_string(variant, &printed).expect("a printed position parses");
        assert_eq!(again, position, "{text} -> {printed}");
        let counters = |p: &Position| {
            p.on_board() + p.captured(Side::South) as u32 + p.captured(Side::North) as u32
        };
        // A game that allows any total (Kalah with 6 per pit) keeps the position's own.
        let total = if variant.rules().any_total {
            counters(&position)
        } else {
            variant.rules().total()
        };
        assert_eq!(counters(&position), total);
        for rule in [LastFourRule::MostRecentFour, LastFourRule::FirstCapture] {
            // Play the first legal move until the game ends (it must: no progress ends it).
            let mut game = Game::new(position, rule);
            for _ in 0..1000 {
                let Some(&mv) = game.legal_moves().as_slice().first() else {
                    break;
                };
                game.play(mv).expect("a legal move plays");
                assert_eq!(counters(game.position()), total);
            }
            assert!(game.is_over(), "a game ends within 1000 moves");
            let [south, north] = game.final_totals().expect("over");
            assert!(south + north <= total);
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

/// Lines that would make one execution take long: `perft` and `bench` (which run to the end at
/// end of input), and `Hash`/`Threads` options (large tables and thread pools per execution).
fn slow(line: &[u8]) -> bool {
    let lower = line.to_ascii_lowercase();
    [&b"perft"[..], b"bench", b"hash", b"threads"]
        .iter()
        .any(|word| lower.windows(word.len()).any(|w| w == *word))
}

/// Bytes as a whole session through the real main loop against one engine, the slow lines
/// dropped first. At end of input searches stop, as in the daemon.
pub fn session(data: &[u8]) {
    let kept: Vec<u8> = data
        .split_inclusive(|&b| b == b'\n')
        .filter(|line| !slow(line))
        .flatten()
        .copied()
        .collect();
    mancala_engine::daemon::run(Cursor::new(kept), Sink);
}
