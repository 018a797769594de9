//! The search on constructed positions: it finds the right move at a modest depth, scores proven
//! results exactly, uses the game history for repetition, and answers `go depth 1` everywhere.

use std::sync::Arc;

use mancala_engine::engine::bench::positions;
use mancala_engine::search::{
    Limits, Score, SearchControl, SearchInfo, SearchOptions, SearchOutcome, Strategy,
    TranspositionTable, search,
};
use mancala_rules::{Game, LastFourRule, Move, Position, Variant};

fn game(variant: &str, text: &str, moves: &str) -> Game {
    let v: Variant = variant.parse().unwrap();
    let mut game = Game::new(
        Position::from_position_string(v, text).unwrap(),
        LastFourRule::default(),
    );
    for m in moves.split_whitespace() {
        game.play(m.parse().unwrap()).unwrap();
    }
    game
}

fn think(game: &Game, depth: u32) -> (SearchOutcome, Vec<SearchInfo>) {
    let mut infos = Vec::new();
    let outcome = search(
        game,
        &Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        &SearchOptions::default(),
        Arc::new(TranspositionTable::new(4).unwrap()),
        Arc::new(SearchControl::new(false)),
        &mut |info| infos.push(info),
    );
    (outcome, infos)
}

fn best(game: &Game, depth: u32) -> String {
    think(game, depth).0.best.unwrap().to_string()
}

#[test]
fn takes_a_capture_chain_worth_taking() {
    // C takes a (2), F (4) and E (6): twelve counters.
    let g = game("mangala-ii", "0-0-4-7-5-3-1-0-0-0-0-0-26-26-S", "");
    assert_eq!(best(&g, 6), "C");
    // The same for North: c takes A (2), f (4) and e (6). Solved values after each move, for
    // South (`mancala-engine solve`): c −8, d +8, e +4, f +8, so c is the one right move.
    // (An earlier North position here, 0-1-0-0-0-0-0-0-0-4-7-5-27-28-N, had every move end 11
    // behind with best play, so it could not tell a good choice from a bad one.)
    let g = game("mangala-ii", "1-0-0-0-0-0-0-0-4-7-5-3-26-26-N", "");
    assert_eq!(best(&g, 6), "c");
}

#[test]
fn plays_an_anywoli_extra_turn_combination() {
    // A makes B four (South moves again), then D makes E four: only North's four in a remain,
    // the game ends, and they go to South, the most recent receiver: all twelve seeds, 54-42.
    let g = game(
        "anywoli",
        "1-3-0-1-3-0-0-0-0-0-0-0-4-0-0-0-0-0-0-0-0-0-0-0-42-42-S-X-X",
        "",
    );
    let (outcome, infos) = think(&g, 6);
    let first = outcome.best.unwrap().to_string();
    assert!(["A", "D"].contains(&first.as_str()), "{first}");
    let last = infos.last().unwrap();
    assert_eq!(
        last.score,
        Score::Mate {
            plies: 2,
            margin: 12
        }
    );
    let pv: Vec<String> = last.pv.iter().map(Move::to_string).collect();
    assert!(pv == ["A", "D"] || pv == ["D", "A"], "{pv:?}");
}

#[test]
fn avoids_the_al_manqala_feeding_trap() {
    // G captures two, but then North passes and South cannot feed it: North takes the five
    // counters left in South's row and wins 51-47. A (capturing four) wins instead.
    let g = game("al-manqala", "2-1-1-0-0-1-1-1-0-0-0-0-0-0-45-46-S", "");
    let choice = best(&g, 8);
    assert_ne!(choice, "G");
    let trapped = game("al-manqala", "2-1-1-0-0-1-1-1-0-0-0-0-0-0-45-46-S", "G");
    let (_, infos) = think(&trapped, 4);
    // North to move after G: a proven win for North by 4, after one move (its pass).
    assert_eq!(
        infos.last().unwrap().score,
        Score::Mate {
            plies: 1,
            margin: 4
        }
    );
}

#[test]
fn repetition_in_the_tree_counts_the_game_history() {
    // One counter goes round; the game history already holds two occurrences of the position
    // that the next moves reach, so the search sees the game end by repetition.
    let text = "0-0-0-0-0-1-0-0-0-0-0-0-35-36-S";
    let mut g = game("mangala-ii", text, "");
    let mut line = Vec::new();
    while let Some(&mv) = g.legal_moves().as_slice().first() {
        g.play(mv).unwrap();
        line.push(mv);
    }
    let total = line.len();
    // Replay all but the last move: the last move completes the third occurrence.
    let mut before = game("mangala-ii", text, "");
    for mv in &line[..total - 1] {
        before.play(*mv).unwrap();
    }
    let (_, infos) = think(&before, 3);
    // Split evenly, the odd counter to nobody: 35-36, a proven result for the side to move.
    let mover_is_south = before.position().side_to_move() == mancala_rules::Side::South;
    let margin = if mover_is_south { -1 } else { 1 };
    assert_eq!(
        infos.last().unwrap().score,
        Score::Mate {
            plies: if margin > 0 { 1 } else { -1 },
            margin
        }
    );
    // Without the history the same position is far from over.
    let fresh = Game::new(*before.position(), LastFourRule::default());
    let (_, infos) = think(&fresh, 3);
    assert!(matches!(infos.last().unwrap().score, Score::Centi(_)));
}

#[test]
fn depth_one_answers_with_a_legal_move_in_every_test_position() {
    let mut cases: Vec<Position> = positions().into_iter().map(|(p, _)| p).collect();
    for (v, text) in [
        ("mangala-ii", "0-0-0-0-0-0-1-2-0-0-0-0-35-34-S"),
        ("mangala-ii", "12-0-0-0-0-0-0-0-0-0-0-0-30-30-S"),
        ("al-manqala", "0-0-0-0-0-2-21-0-0-0-0-0-0-0-38-37-S"),
        ("al-manqala", "0-0-0-0-0-0-0-1-0-0-0-0-0-0-50-47-S"),
        (
            "anywoli",
            "1-3-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-2-2-4-36-48-S-N-S",
        ),
        ("mangala-iv", "1-2-0-4-2-0-1-3-1-2-3-1-2-3-73-0-N"),
    ] {
        cases.push(Position::from_position_string(v.parse().unwrap(), text).unwrap());
    }
    for pos in cases {
        let g = Game::new(pos, LastFourRule::default());
        let (outcome, _) = think(&g, 1);
        let best = outcome.best.expect("a move");
        assert!(g.legal_moves().contains(best), "{best} in {pos}");
    }
    // A finished game has no move.
    let over = game("al-manqala", "1-0-0-0-0-0-0-0-0-0-0-0-0-0-50-47-S", "");
    assert_eq!(think(&over, 1).0.best, None);
}

#[test]
fn proven_results_are_exact_final_margins() {
    // F takes the last two counters: South wins 37-35, a margin of 2, in one move.
    let g = game("mangala-ii", "0-0-0-0-0-1-1-0-0-0-0-0-35-35-S", "");
    let (_, infos) = think(&g, 5);
    assert_eq!(
        infos.last().unwrap().score,
        Score::Mate {
            plies: 1,
            margin: 2
        }
    );
    // Mangala IV's forced play: South, to move at the start, loses 39-59 in 108 moves.
    let g = game("mangala-iv", "7-7-7-7-7-7-7-7-7-7-7-7-7-7-0-0-S", "");
    let (outcome, infos) = think(&g, 1);
    assert_eq!(outcome.best.unwrap().to_string(), "A");
    assert_eq!(
        infos[0].score,
        Score::Mate {
            plies: -108,
            margin: -20
        }
    );
}

#[test]
fn greedy_and_random_strategies() {
    let options = |strategy, random| SearchOptions {
        strategy,
        random,
        ..SearchOptions::default()
    };
    let run = |g: &Game, o: SearchOptions| {
        search(
            g,
            &Limits::default().clone_with_depth(1),
            &o,
            Arc::new(TranspositionTable::new(1).unwrap()),
            Arc::new(SearchControl::new(false)),
            &mut |_| {},
        )
        .best
        .unwrap()
        .to_string()
    };
    let g = game("mangala-ii", "0-0-4-7-5-3-1-0-0-0-0-0-26-26-S", "");
    assert_eq!(run(&g, options(Strategy::Greedy, 0)), "C");
    // No capture anywhere: the lowest pit.
    let start = game("mangala-ii", "6-6-6-6-6-6-6-6-6-6-6-6-0-0-S", "");
    assert_eq!(run(&start, options(Strategy::Greedy, 0)), "A");
    let picks: Vec<String> = (0..6)
        .map(|r| run(&start, options(Strategy::Random, r)))
        .collect();
    assert_eq!(picks, ["A", "B", "C", "D", "E", "F"]);
}

trait WithDepth {
    fn clone_with_depth(&self, depth: u32) -> Limits;
}

impl WithDepth for Limits {
    fn clone_with_depth(&self, depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..self.clone()
        }
    }
}

/// What a search proves with a game's history (here 31 quiet moves before the position, which
/// bring the repetition and 100-move rules within reach) belongs to that game: a later search of
/// the same position in a new game, on the same table, must prove what a fresh table proves.
/// (Before the fix, the later search took the first game's margin, 66, for the position's: the
/// solved value is 68.)
#[test]
fn a_result_that_depends_on_a_games_history_does_not_outlive_its_search() {
    let history = game(
        "al-manqala",
        "1-0-0-0-0-0-0-0-1-1-0-0-0-0-80-15-N",
        "c A d B e C f D g E b F c G d A a B e C f D g A b B c C d E e",
    );
    let pos = *history.position();
    let fresh = Game::new(pos, LastFourRule::default());
    let limits = Limits {
        depth: Some(16),
        ..Limits::default()
    };
    let margin = |game: &Game, table: &Arc<TranspositionTable>| {
        let mut last = None;
        let outcome = search(
            game,
            &limits,
            &SearchOptions::default(),
            Arc::clone(table),
            Arc::new(SearchControl::new(false)),
            &mut |info| last = Some(info),
        );
        (
            outcome.best.unwrap().to_string(),
            last.unwrap().exact_margin,
        )
    };
    let table = Arc::new(TranspositionTable::new(4).unwrap());
    // In the game with its history, D ends it sooner, by 66.
    assert_eq!(margin(&history, &table), ("D".into(), Some(66)));
    let fresh_table = Arc::new(TranspositionTable::new(4).unwrap());
    assert_eq!(margin(&fresh, &fresh_table), ("D".into(), Some(68)));
    assert_eq!(margin(&fresh, &table), ("D".into(), Some(68)));
}
