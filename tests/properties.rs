//! Property tests over random games and random positions of every variant: the engine agrees with
//! the naive reference implementation move by move, counters are conserved, position strings
//! round-trip, move lists are atomic and an illegal move changes nothing.

mod common;

use common::reference::{RefEnding, RefGame, RefMove, RefPosition};
use mancala_engine::engine::{Engine, PositionBase};
use mancala_engine::rules::{Ending, Game, LastFourRule, Move, Position, Side, Variant, perft};
use proptest::prelude::*;

fn variant() -> impl Strategy<Value = Variant> {
    prop::sample::select(Variant::ALL.to_vec())
}

/// A random but valid position string: counters spread at random over the pits and the two
/// captured totals.
fn position_string(variant: Variant) -> impl Strategy<Value = String> {
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
            if variant.rules().stores {
                fields.push(["S", "N", "X"][four].to_string());
                fields.push(["S", "N", "X"][first].to_string());
            }
            fields.join("-")
        })
}

/// A start for a random game: the start position, a Mangala IV deal, or a random position.
fn game_start() -> impl Strategy<Value = (Variant, String)> {
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

    /// `position fen X moves M…` gives the same game as `position fen X` and then each move alone;
    /// an illegal move anywhere in the list leaves the engine unchanged.
    #[test]
    fn move_lists_are_atomic(
        (v, start) in game_start(),
        choices in prop::collection::vec(any::<u16>(), 1..120),
        bad_letter in 0u8..26,
    ) {
        let mut one_by_one = Engine::new();
        one_by_one.set_variant(v);
        let base = PositionBase::PositionString(start.clone());
        one_by_one.set_position(&base, &[]).unwrap();
        let mut moves = Vec::new();
        for choice in choices {
            let legal = one_by_one.game().legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal.as_slice()[choice as usize % legal.len()];
            one_by_one.play(&[mv]).unwrap();
            moves.push(mv);
        }
        let mut at_once = Engine::new();
        at_once.set_variant(v);
        at_once.set_position(&base, &moves).unwrap();
        prop_assert_eq!(at_once.game().position(), one_by_one.game().position());
        prop_assert_eq!(at_once.game().ending(), one_by_one.game().ending());
        prop_assert_eq!(at_once.game().moves().len(), moves.len());

        // Append a move that is illegal at the end of the list: nothing changes.
        let illegal = [Move::PASS]
            .into_iter()
            .chain((0..v.rules().pits_per_row as u8).flat_map(|o| {
                [Move::sow(Side::South, o), Move::sow(Side::North, o)]
            }))
            .chain(std::iter::once(Move::sow(Side::South, bad_letter)))
            .find(|&m| !at_once.game().legal_moves().contains(m));
        if let Some(bad) = illegal {
            let before_fen = at_once.game().position().to_string();
            let mut longer = moves.clone();
            longer.push(bad);
            let mut fresh = Engine::new();
            fresh.set_variant(v);
            prop_assert!(fresh.set_position(&base, &longer).is_err());
            prop_assert_eq!(fresh.game().position(), &Position::start(v));
            prop_assert!(at_once.play(&[bad]).is_err());
            prop_assert_eq!(at_once.game().position().to_string(), before_fen);
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

proptest! {
    /// The search's fast evaluation is the sum of the parts `eval` prints, in every position.
    #[test]
    fn fast_evaluation_equals_the_sum_of_its_parts((v, start) in game_start(), plies in 0..30usize) {
        use mancala_engine::search::eval::{evaluate, evaluate_parts};
        let mut pos = Position::from_position_string(v, &start).unwrap();
        for i in 0..plies {
            prop_assert_eq!(evaluate(&pos), evaluate_parts(&pos).total(), "{}", pos);
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            pos.play_unchecked(legal.as_slice()[i % legal.len()]);
        }
    }
}
