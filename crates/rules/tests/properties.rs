//! Property tests over random games and random positions of every variant: the rules agree with
//! the naive reference implementation move by move, counters are conserved, position strings
//! round-trip, and perft's bulk counting matches playing out.

use mancala_rules::definition;
use mancala_rules::{Ending, Game, LastFourRule, Move, Position, Side, Variant, perft};
use mancala_testkit::reference::{RefEnding, RefGame, RefMove, RefPosition};
use mancala_testkit::strategies::{game_definition, game_start, game_start_of, position_string};
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
        Ending::RowEmpty => RefEnding::RowEmpty,
        Ending::Majority => RefEnding::Majority,
        Ending::TooFew => RefEnding::TooFew,
        Ending::Immobile => RefEnding::Immobile,
        Ending::NoLegalMove => RefEnding::NoLegalMove,
        // The reference plays the built-in games, none of which has such a goal.
        Ending::RowCleared | Ending::Deprived | Ending::Immobilized => {
            unreachable!("{ending}: a goal no built-in game has")
        }
    }
}

/// Plays `choices` from `start` on the rules and on the reference, demanding the same legal
/// moves, positions, endings and final totals.
fn agree_with_reference(
    v: Variant,
    start: &str,
    choices: &[u16],
    first_capture_rule: bool,
) -> Result<(), TestCaseError> {
    let rule = if first_capture_rule {
        LastFourRule::FirstCapture
    } else {
        LastFourRule::MostRecentFour
    };
    let n = v.rules().pits_per_row;
    let base = Position::from_position_string(v, start).unwrap();
    let mut game = Game::new(base, rule);
    let mut reference = RefGame::new(RefPosition::parse(v, start));
    for &choice in choices {
        let legal: Vec<Move> = game.legal_moves().iter().copied().collect();
        let ref_legal: Vec<RefMove> = legal.iter().map(|&m| to_ref_move(m, n)).collect();
        prop_assert_eq!(
            &ref_legal,
            &reference.legal(),
            "legal moves in {}",
            game.position()
        );
        prop_assert_eq!(game.ending().map(ref_ending), reference.ending);
        let pos = game.position();
        prop_assert_eq!(pos.is_game_over(), pos.legal_moves().is_empty(), "{}", pos);
        if legal.is_empty() {
            let ending = reference.ending.unwrap();
            prop_assert_eq!(
                game.final_totals(),
                Some(reference.current().final_totals(ending, rule))
            );
            break;
        }
        let mv = legal[choice as usize % legal.len()];
        game.play(mv).unwrap();
        reference.play(to_ref_move(mv, n));
        prop_assert_eq!(game.position().to_string(), reference.current().to_text());
    }
    Ok(())
}

/// In a game that sows into the mover's store, every move that keeps all the counters on the
/// board (no capture, nothing into a store) lowers their distance to the stores, but a pass,
/// which keeps it: the tables solve a layer in that order, trusting it.
fn moves_within_the_board_lower_the_distance(pos: &Position) -> Result<(), TestCaseError> {
    let rules = pos.variant().rules();
    let Some(distance) = rules.distance_to_stores(pos.pits()) else {
        return Ok(());
    };
    for &mv in &pos.legal_moves() {
        let mut child = *pos;
        if !child.play_unchecked(mv).endless && child.on_board() == pos.on_board() {
            let after = rules.distance_to_stores(child.pits()).unwrap();
            if mv == Move::PASS {
                prop_assert_eq!(after, distance, "{} then a pass", pos);
            } else {
                prop_assert!(
                    after < distance,
                    "{} then {}: {} -> {}",
                    pos,
                    mv,
                    distance,
                    after
                );
            }
        }
    }
    Ok(())
}

fn conserved(pos: &Position) -> bool {
    let on_board: u32 = pos.pits().iter().map(|&c| c as u32).sum();
    on_board + pos.captured(Side::South) as u32 + pos.captured(Side::North) as u32 == pos.total()
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
        agree_with_reference(v, &start, &choices, first_capture_rule)?;
    }

    /// The same for the two games beyond the seeds, which the suite above samples less often.
    #[test]
    fn kalah_and_oware_agree_with_reference(
        (v, start) in game_start_of(&[Variant::Kalah, Variant::Oware]),
        choices in prop::collection::vec(any::<u16>(), 0..400),
    ) {
        agree_with_reference(v, &start, &choices, false)?;
    }

    /// Every move conserves the counters, every position string reads back as the same
    /// position, and moves that keep the counters on the board lower their distance to the
    /// stores where the game sows into them.
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
            moves_within_the_board_lower_the_distance(&pos)?;
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

proptest! {
    // Every case registers a game, and a process holds a few hundred.
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// The same for random game files (stores in the ring, captures past an empty pit, blocked
    /// pits, relays): along a random game, the hint never misses a capture.
    #[test]
    fn capture_hint_of_a_game_file_never_misses_a_capture(
        text in game_definition(),
        choices in prop::collection::vec(any::<u16>(), 0..80),
    ) {
        let v = definition::register(&text).unwrap();
        let n = v.rules().pits_per_row;
        let mut game = Game::new(Position::start(v), LastFourRule::default());
        for choice in choices {
            let pos = *game.position();
            for &mv in &pos.legal_moves() {
                let Some(pit) = mv.pit(n) else { continue };
                let mut after = pos;
                if after.play_unchecked(mv).captured > 0 {
                    prop_assert!(pos.capture_hint(pit).is_some(), "{} {}: capture missed", pos, mv);
                }
            }
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            game.play(legal.as_slice()[choice as usize % legal.len()]).unwrap();
        }
    }
}

/// The built-in game `v` registered again from its own file under another name: the same rules
/// played through the general code instead of the compiled specialisation.
fn loaded_copy(v: Variant) -> Variant {
    let text = definition::write(v.rules()).replace(
        &format!("name = \"{}\"", v.name()),
        &format!("name = \"{}-from-file\"", v.name()),
    );
    definition::register(&text).unwrap()
}

/// Plays `choices` from `start` in a game of a file, checking every invariant a game must keep:
/// counters conserved, strings that read back, no moves exactly when the game is over, the
/// distance to the stores, and perft's bulk counting.
fn keeps_the_invariants(v: Variant, start: &str, choices: &[u16]) -> Result<(), TestCaseError> {
    let base = Position::from_position_string(v, start)
        .map_err(|e| TestCaseError::fail(format!("{start}: {e}")))?;
    prop_assert_eq!(base.to_string(), start);
    let mut game = Game::new(base, LastFourRule::default());
    for &choice in choices {
        let pos = *game.position();
        prop_assert!(conserved(&pos), "not conserved: {}", pos);
        prop_assert_eq!(Position::from_position_string(v, &pos.to_string()), Ok(pos));
        prop_assert_eq!(pos.is_game_over(), pos.legal_moves().is_empty(), "{}", pos);
        moves_within_the_board_lower_the_distance(&pos)?;
        let mut expected = 0;
        for &mv in &pos.legal_moves() {
            let mut child = pos;
            if !child.play_unchecked(mv).endless {
                expected += child.legal_moves().len() as u64;
            }
        }
        prop_assert_eq!(perft(&pos, 2), expected, "{}", pos);
        let legal = game.legal_moves();
        if legal.is_empty() {
            let totals = game
                .final_totals()
                .expect("a finished game has final totals");
            // (A game won outright gives the winner the counters that left it, too.)
            prop_assert!(
                totals[0] + totals[1] <= pos.goal_total(),
                "{:?} of {}",
                totals,
                pos
            );
            break;
        }
        game.play(legal.as_slice()[choice as usize % legal.len()])
            .unwrap();
    }
    Ok(())
}

proptest! {
    // Every case may register a game, and a process holds a few hundred.
    #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

    /// A random game file that the engine accepts reads back from its written form, and its
    /// games keep every invariant, from the start and from random positions.
    #[test]
    fn random_game_files_load_and_keep_the_invariants(
        text in game_definition(),
        choices in prop::collection::vec(any::<u16>(), 0..300),
        from_start in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let rules = definition::parse(&text)
            .map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(definition::parse(&definition::write(&rules)), Ok(rules));
        let v = definition::register(&text).unwrap();
        let start = if from_start {
            Position::start(v).to_string()
        } else {
            use proptest::strategy::ValueTree;
            let mut runner = proptest::test_runner::TestRunner::new_with_rng(
                ProptestConfig::default(),
                proptest::test_runner::TestRng::from_seed(
                    proptest::test_runner::RngAlgorithm::ChaCha,
                    &[seed.to_le_bytes(), [7; 8], [1; 8], [2; 8]].concat(),
                ),
            );
            position_string(v).new_tree(&mut runner).unwrap().current()
        };
        keeps_the_invariants(v, &start, &choices)?;
    }

    /// Each built-in game loaded from its own file plays exactly as the compiled one: the same
    /// legal moves, positions, endings and totals, and the same perft.
    #[test]
    fn a_game_loaded_from_its_file_plays_as_the_compiled_one(
        (v, start) in game_start(),
        choices in prop::collection::vec(any::<u16>(), 0..300),
    ) {
        let copy = loaded_copy(v);
        prop_assert!(!copy.is_built_in());
        let mut compiled = Game::new(Position::from_position_string(v, &start).unwrap(),
            LastFourRule::default());
        let mut loaded = Game::new(Position::from_position_string(copy, &start).unwrap(),
            LastFourRule::default());
        prop_assert_eq!(perft(compiled.position(), 3), perft(loaded.position(), 3));
        for choice in choices {
            prop_assert_eq!(compiled.position().to_string(), loaded.position().to_string());
            prop_assert_eq!(compiled.ending(), loaded.ending());
            prop_assert_eq!(compiled.final_totals(), loaded.final_totals());
            let legal = compiled.legal_moves();
            let loaded_legal = loaded.legal_moves();
            prop_assert_eq!(legal.as_slice(), loaded_legal.as_slice());
            if legal.is_empty() {
                break;
            }
            let mv = legal.as_slice()[choice as usize % legal.len()];
            prop_assert_eq!(compiled.play(mv).unwrap(), loaded.play(mv).unwrap());
        }
    }
}

/// Every legal move of `pos`, told step by step (`trace_move`), replays to exactly the position
/// the move gives (pits, captured totals, children, closed pits and total), says so when the mover moves again, and starts by
/// lifting the move's pit.
fn traces_replay(pos: &Position) -> Result<(), TestCaseError> {
    let n = pos.rules().pits_per_row;
    for &mv in &pos.legal_moves() {
        let trace = pos.trace_move(mv).unwrap();
        let mut after = *pos;
        let effect = after.play_unchecked(mv);
        if effect.endless {
            continue;
        }
        let Some(pit) = mv.pit(n) else {
            prop_assert!(trace.steps.is_empty());
            continue;
        };
        let unsown = pos.rules().first_move != mancala_rules::FirstMove::Sown
            && pos.opening_moves_played() == 0;
        if unsown {
            // A first move that is not sown starts with a counter moved on (the move's pit
            // keeps its counters).
            prop_assert!(
                matches!(
                    trace.steps.first(),
                    None | Some(mancala_rules::SowStep::Shift { .. })
                ),
                "{} {}: {}",
                pos,
                mv,
                trace
            );
        } else {
            prop_assert_eq!(
                trace.steps.first(),
                Some(&mancala_rules::SowStep::Lift {
                    pit,
                    count: pos.pits()[pit]
                })
            );
        }
        let replayed = trace.replay(pos);
        prop_assert_eq!(replayed.pits(), after.pits(), "{} {}: {}", pos, mv, trace);
        // The pits closed and the counters that left the game (a game whose pits close).
        prop_assert_eq!(
            replayed.blocked_pits(),
            after.blocked_pits(),
            "{} {}: {}",
            pos,
            mv,
            trace
        );
        prop_assert_eq!(replayed.total(), after.total(), "{} {}: {}", pos, mv, trace);
        for side in Side::BOTH {
            prop_assert_eq!(
                replayed.captured(side),
                after.captured(side),
                "{} {}: {}",
                pos,
                mv,
                trace
            );
            prop_assert_eq!(
                replayed.children_of(side),
                after.children_of(side),
                "{} {}: {}",
                pos,
                mv,
                trace
            );
        }
        prop_assert_eq!(
            trace.steps.last() == Some(&mancala_rules::SowStep::ExtraTurn),
            effect.extra_turn,
            "{} {}: {}",
            pos,
            mv,
            trace
        );
    }
    Ok(())
}

/// [`traces_replay`] at every position of the game from `base` that `choices` pick.
fn traces_replay_along(base: Position, choices: &[u16]) -> Result<(), TestCaseError> {
    let mut game = Game::new(base, LastFourRule::default());
    for &choice in choices {
        traces_replay(game.position())?;
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        game.play(legal.as_slice()[choice as usize % legal.len()])
            .unwrap();
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Along random games of every built-in game, every move's telling replays to its position.
    #[test]
    fn a_move_told_step_by_step_gives_its_position(
        (v, start) in game_start(),
        choices in prop::collection::vec(any::<u16>(), 0..120),
    ) {
        let base = Position::from_position_string(v, &start).unwrap();
        traces_replay_along(base, &choices)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, ..ProptestConfig::default() })]

    /// The same for random game files (stores in the ring, skipped origins, chains, Kalah's
    /// capture, grand slams).
    #[test]
    fn a_move_of_a_game_file_told_step_by_step_gives_its_position(
        text in game_definition(),
        choices in prop::collection::vec(any::<u16>(), 0..120),
    ) {
        let v = definition::register(&text).unwrap();
        traces_replay_along(Position::start(v), &choices)?;
    }
}
