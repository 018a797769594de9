//! Property tests over random games and random positions of every variant: the rules agree with
//! the naive reference implementation move by move, counters are conserved, position strings
//! round-trip, and perft's bulk counting matches playing out.

use mancala_rules::{Ending, Game, LastFourRule, Move, Position, Side, Variant, perft};
use mancala_testkit::reference::{RefEnding, RefGame, RefMove, RefPosition};
use mancala_testkit::strategies::game_start;
use proptest::prelude::*;

fn to_ref_move(mv: Move, n: usize) -> RefMove {
    mv.pit(n)
}

fn ref_ending(ending: Ending) -> RefEnding {
    match ending {
        Ending::BoardEmpty => RefEnding::BoardEmpty,
        Ending::Starvation => RefEnding::Starvation,
        Ending::LastFour => RefEnding::LastFour,
        Ending::Repetition => RefEnding::Repetition,
        Ending::NoProgress => RefEnding::NoProgress,
        Ending::EndlessMove => RefEnding::Endless,
    }
}

fn conserved(pos: &Position) -> bool {
    let on_board: u32 = pos.pits().iter().map(|&c| c as u32).sum();
    on_board + pos.captured(Side::South) as u32 + pos.captured(Side::North) as u32
        == pos.rules().total()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// The engine and the reference agree on legal moves, every position, the ending and the
    /// final totals, under both Anywoli conventions.
    #[test]
    fn engine_agrees_with_reference(
        (v, start) in game_start(),
        choices in prop::collection::vec(any::<u16>(), 0..400),
        first_capture_rule in any::<bool>(),
    ) {
        let rule = if first_capture_rule { LastFourRule::FirstCapture } else { LastFourRule::MostRecentFour };
        let n = v.rules().pits_per_row;
        let base = Position::from_position_string(v, &start).unwrap();
        let mut game = Game::new(base, rule);
        let mut reference = RefGame::new(RefPosition::parse(v, &start));
        for choice in choices {
            let legal: Vec<Move> = game.legal_moves().iter().copied().collect();
            let ref_legal: Vec<RefMove> = legal.iter().map(|&m| to_ref_move(m, n)).collect();
            prop_assert_eq!(&ref_legal, &reference.legal(), "legal moves in {}", game.position());
            prop_assert_eq!(game.ending().map(ref_ending), reference.ending);
            let pos = game.position();
            prop_assert_eq!(pos.is_game_over(), pos.legal_moves().is_empty(), "{}", pos);
            if legal.is_empty() {
                let ending = reference.ending.unwrap();
                prop_assert_eq!(game.final_totals(), Some(reference.current().final_totals(ending, rule)));
                break;
            }
            let mv = legal[choice as usize % legal.len()];
            game.play(mv).unwrap();
            reference.play(to_ref_move(mv, n));
            prop_assert_eq!(game.position().to_string(), reference.current().to_text());
        }
    }

    /// Every move conserves the counters, and every position string reads back as the same
    /// position.
    #[test]
    fn counters_are_conserved_and_strings_round_trip(
        (v, start) in game_start(),
        choices in prop::collection::vec(any::<u16>(), 0..200),
    ) {
        let mut pos = Position::from_position_string(v, &start).unwrap();
        prop_assert_eq!(pos.to_string(), start);
        for choice in choices {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            pos.play(legal.as_slice()[choice as usize % legal.len()]).unwrap();
            prop_assert!(conserved(&pos), "not conserved: {}", pos);
            let text = pos.to_string();
            prop_assert_eq!(Position::from_position_string(v, &text), Ok(pos));
        }
    }

    /// Perft of depth 2 equals the sum of the children's move counts: the bulk-counted last ply
    /// matches playing every move.
    #[test]
    fn perft_bulk_counting_matches_playing_out((v, start) in game_start()) {
        let pos = Position::from_position_string(v, &start).unwrap();
        let mut expected = 0;
        for &mv in &pos.legal_moves() {
            let mut child = pos;
            let effect = child.play_unchecked(mv);
            if !effect.endless {
                expected += child.legal_moves().len() as u64;
            }
        }
        prop_assert_eq!(perft(&pos, 2), expected);
    }
}

proptest! {
    /// The capture hint never says "no capture" for a move that captures, and in one-lap games
    /// it is exact.
    #[test]
    fn capture_hint_never_misses_a_capture((v, start) in game_start()) {
        let pos = Position::from_position_string(v, &start).unwrap();
        let n = v.rules().pits_per_row;
        for &mv in &pos.legal_moves() {
            let Some(pit) = mv.pit(n) else { continue };
            let mut after = pos;
            let captured = after.play_unchecked(mv).captured > 0;
            let hint = pos.capture_hint(pit);
            if captured {
                prop_assert!(hint.is_some(), "{} {}: capture missed", pos, mv);
            }
            if matches!(v, Variant::MangalaII | Variant::AlManqala) {
                prop_assert_eq!(hint.is_some(), captured, "{} {}", pos, mv);
            }
        }
        // The search scans whole rows without skipping empty pits: they must never hint.
        if v != Variant::MangalaIV {
            for pit in (0..2 * n).filter(|&p| pos.pits()[p] == 0) {
                prop_assert_eq!(pos.capture_hint(pit), None, "{} pit {}", pos, pit);
            }
        }
    }
}
