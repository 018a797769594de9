//! Property tests of the engine over random games of every variant: `position … moves …` is
//! atomic (an illegal move anywhere leaves the engine as it was), and the search's fast
//! evaluation is the sum of the parts `eval` prints.

use mancala_engine::engine::{Engine, PositionBase};
use mancala_rules::{Move, Position, Side};
use mancala_testkit::strategies::game_start;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

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
}

proptest! {
    /// The search's fast evaluation is the sum of the parts `eval` prints, in every position.
    #[test]
    fn fast_evaluation_equals_the_sum_of_its_parts((v, start) in game_start(), plies in 0..30usize) {
        use mancala_engine::eval::{evaluate, evaluate_parts};
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
