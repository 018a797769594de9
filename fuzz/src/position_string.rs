//! Fuzz target: position strings of every game, and what the rules do with a parsed one.
//!
//! A string either fails with an error or gives a position that prints back to an equal
//! position, holds its game's counters, and plays any legal move (and whole games) without
//! losing a counter.

use mancala_rules::{Game, LastFourRule, Position, Side, Variant};

fn main() {
    afl::fuzz!(|data: &[u8]| {
        let Ok(text) = std::str::from_utf8(data) else {
            return;
        };
        for variant in Variant::ALL {
            let Ok(position) = Position::from_position_string(variant, text) else {
                continue;
            };
            let printed = position.to_string();
            let again = Position::from_position_string(variant, &printed)
                .expect("a printed position parses");
            assert_eq!(again, position, "{text} -> {printed}");
            let counters =
                |p: &Position| p.on_board() + p.captured(Side::South) as u32 + p.captured(Side::North) as u32;
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
    });
}
