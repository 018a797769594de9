//! Endgames played one after another in one engine process, as a tournament manager or an
//! analysis GUI plays them without `ucinewgame`: what one game leaves behind (the hash table, the
//! solver's table, the solver having given up) must not change what the engine proves or plays
//! in the next, and every move must keep the solved value against a perfect opponent.

use std::time::Duration;

use mancala_engine::solve::{SolveLimits, Solver, SolverTable};
use mancala_rules::{LastFourRule, Move, Position, Variant};

use mancala_testkit::daemon::Daemon;
use mancala_testkit::with_big_stack;

const LONG: Duration = Duration::from_secs(60);

/// The side to move's solved value of `pos` and of each of its legal moves.
fn solved(pos: &Position, table: &mut SolverTable) -> (i32, Vec<(Move, i32)>) {
    mancala_rules::with_spec!(pos.variant(), S => {
        let mut solver =
            Solver::<S>::new(table, None, LastFourRule::default(), SolveLimits::NONE);
        let value = solver.solve(pos).unwrap().value;
        let moves = pos
            .legal_moves()
            .iter()
            .map(|&mv| (mv, solver.move_value(pos, mv).unwrap()))
            .collect();
        (value, moves)
    })
}

/// The answer to `go …`: the last `info` line with a score, and the move.
fn think(engine: &mut Daemon, go: &str) -> (String, String) {
    engine.send(go);
    let (lines, best) = engine.best_move(LONG);
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .cloned()
        .unwrap_or_default();
    (info, best.best.expect("a move").to_string())
}

/// The number after `word` in an `info` line.
fn field(info: &str, word: &str) -> Option<i32> {
    let mut tokens = info.split_whitespace();
    tokens.find(|&t| t == word)?;
    tokens.next()?.parse().ok()
}

/// Issue 24's session, made repeatable: the solver gives up on the first game (a search of 2,000
/// nodes), nine more endgames follow in the same process, and the last position must still be
/// proven (margin −82) and answered with a move that keeps it. Before the fix, the give-up of the
/// first game kept the solver away from every later position with as many counters, and the
/// search, misled by what the earlier games had left in its table, proved nothing.
#[test]
fn after_other_games_the_engine_still_proves_a_small_endgame() {
    let session = include_str!("../data/stale-table.in");
    let mut engine = Daemon::start();
    let mut last = None;
    for line in session.lines().filter(|l| !l.starts_with('#')) {
        if line == "quit" {
            break;
        }
        if line.starts_with("go") {
            last = Some(think(&mut engine, line));
        } else {
            engine.send(line);
        }
    }
    let (info, best) = last.expect("the session searches");
    assert_eq!(field(&info, "margin"), Some(-82), "{info}");
    assert!(["a", "b", "f"].contains(&best.as_str()), "{best}: {info}");
    engine.quit();
}

/// Small endgames of two games, played to the end in one process against a perfect opponent
/// (who keeps the value with the first such move in the list, or the last, so that the games
/// differ): every engine move keeps the solved value, and its score says the exact margin. The
/// process first gives the solver a search too small for it, in a game of its own.
#[test]
fn endgames_in_one_process_are_played_perfectly() {
    with_big_stack(|| {
        let endgames = [
            (Variant::AlManqala, "0-1-1-0-3-0-1-1-1-0-0-1-0-1-4-84-N"),
            (Variant::AlManqala, "1-0-0-1-2-1-0-2-0-2-0-0-1-0-32-56-S"),
            (Variant::AlManqala, "1-1-0-1-0-0-0-1-1-1-2-1-1-0-78-10-S"),
            (Variant::AlManqala, "1-2-1-0-0-0-0-0-1-2-0-0-1-2-8-80-N"),
            (Variant::AlManqala, "1-0-0-1-1-0-1-1-2-0-1-0-2-0-86-2-N"),
            (Variant::MangalaII, "2-0-1-0-3-0-0-1-0-2-0-1-30-32-S"),
            (Variant::MangalaII, "0-3-0-2-1-0-1-0-2-0-1-1-28-33-N"),
            (Variant::MangalaII, "1-1-2-0-0-3-0-2-0-1-0-1-30-31-S"),
        ];
        let mut engine = Daemon::start();
        engine.send("variant al-manqala");
        engine.send("position fen 1-1-2-1-0-0-2-0-0-1-0-1-1-0-50-38-S");
        think(&mut engine, "go nodes 2000");
        let mut table = SolverTable::new(64);
        let mut variant = Some(Variant::AlManqala);
        let mut engine_moves = 0;
        for (round, &(game, start)) in endgames.iter().enumerate() {
            if variant != Some(game) {
                engine.send(&format!("variant {game}"));
                variant = Some(game);
            }
            let mut pos = Position::from_position_string(game, start).unwrap();
            let mut moves: Vec<String> = Vec::new();
            // The engine plays the side to move at the start.
            let engine_side = pos.side_to_move();
            loop {
                engine.send(&format!("position fen {start} moves {}", moves.join(" ")));
                if engine.query("gameover") == "response true" {
                    break;
                }
                let (value, values) = solved(&pos, &mut table);
                let mv = if pos.side_to_move() == engine_side {
                    let (info, best) = think(&mut engine, "go nodes 400000");
                    let mv = values
                        .iter()
                        .find(|(m, _)| m.to_string() == best)
                        .unwrap_or_else(|| panic!("{best} is not legal in {pos:?}"));
                    assert_eq!(
                        mv.1,
                        value,
                        "{game} {start} moves {}: {best} gives {} instead of {value} ({info})",
                        moves.join(" "),
                        mv.1
                    );
                    assert_eq!(
                        field(&info, "margin"),
                        Some(value),
                        "{game} {start} moves {}: {info}",
                        moves.join(" ")
                    );
                    engine_moves += 1;
                    mv.0
                } else {
                    let mut keeping = values.iter().filter(|(_, v)| *v == value);
                    let chosen = if round % 2 == 0 {
                        keeping.next()
                    } else {
                        keeping.next_back()
                    };
                    chosen.expect("a move keeps the value").0
                };
                pos.play_unchecked(mv);
                moves.push(mv.to_string());
                assert!(moves.len() < 300, "{start}: the game does not end");
            }
        }
        assert!(
            engine_moves >= 30,
            "only {engine_moves} moves by the engine"
        );
        engine.quit();
    });
}
