//! Proven results are best margins: the solver against a naive minimax, and the search (with and
//! without the solver) on board literals where winning, losing and drawing moves differ by margin.

use std::sync::{Arc, Mutex};

use mancala_engine::search::{
    Limits, Score, SearchControl, SearchInfo, SearchOptions, SearchOutcome, TranspositionTable,
    search,
};
use mancala_engine::solve::{ProbeAnswer, SolveLimits, Solver, SolverTable, ValueQuery};
use mancala_rules::{Game, LastFourRule, Move, Position, SplitMix64, Variant};

use mancala_testkit::naive_solver::{naive_move_values, naive_value};
use mancala_testkit::positions::random_position;
use mancala_testkit::reference::RefPosition;
use mancala_testkit::with_big_stack;

fn position(variant: Variant, text: &str) -> Position {
    Position::from_position_string(variant, text).unwrap()
}

/// The solver's value of each legal move of `pos` (its probes by proof numbers or by
/// alpha-beta).
fn solver_move_values(pos: &Position, proof_numbers: bool) -> Vec<(Move, i32)> {
    let table = SolverTable::new(8);
    mancala_rules::with_spec!(pos.variant(), S => {
        let mut solver =
            Solver::<S>::new(&table, None, LastFourRule::default(), SolveLimits::NONE);
        if proof_numbers {
            solver = solver.with_proof_numbers(1);
        }
        pos.legal_moves()
            .iter()
            .map(|&mv| (mv, solver.move_value(pos, mv).unwrap()))
            .collect()
    })
}

fn solved(variant: Variant, text: &str) -> i32 {
    let pos = position(variant, text);
    let table = SolverTable::new(8);
    mancala_rules::with_spec!(variant, S => {
        Solver::<S>::new(&table, None, LastFourRule::default(), SolveLimits::NONE)
            .solve(&pos)
            .unwrap()
            .value
    })
}

#[test]
fn the_solver_agrees_with_a_naive_minimax() {
    with_big_stack(|| solver_agrees_with_a_naive_minimax(false));
}

#[test]
fn proof_number_search_agrees_with_a_naive_minimax() {
    with_big_stack(|| solver_agrees_with_a_naive_minimax(true));
}

/// The games whose small positions the naive minimax solves (Mangala IV has no choices to
/// solve: its value is its forced play).
const NAIVELY_SOLVED: [Variant; 5] = [
    Variant::MangalaII,
    Variant::AlManqala,
    Variant::Anywoli,
    Variant::Kalah,
    Variant::Oware,
];

/// Nodes the naive minimax may spend on a position before the position is passed over. The
/// naive rules are slow in Anywoli (relay laps replayed seed by seed), and the Anywoli positions
/// it solves at all need only a few thousand nodes: a larger budget costs a minute and adds few.
fn naive_budget(variant: Variant) -> u64 {
    if relays(variant) { 3_000 } else { 20_000 }
}

fn solver_agrees_with_a_naive_minimax(proof_numbers: bool) {
    let mut rng = SplitMix64::new(15 + proof_numbers as u64);
    for variant in NAIVELY_SOLVED {
        let mut compared = 0;
        let mut tries = 0;
        while compared < 120 && tries < 2_000 {
            tries += 1;
            let counters = 1 + (rng.next_u64() % 6) as u32;
            let text = random_position(variant, counters, &mut rng);
            let reference = RefPosition::parse(variant, &text);
            let Some(naive) = naive_move_values(&reference, naive_budget(variant)) else {
                continue; // too big for the naive solver
            };
            let n = variant.rules().pits_per_row;
            let naive: Vec<(Move, i32)> = naive
                .into_iter()
                .map(|(mv, v)| (mv.map_or(Move::PASS, |pit| Move::from_pit(pit, n)), v))
                .collect();
            let pos = position(variant, &text);
            assert_eq!(
                solver_move_values(&pos, proof_numbers),
                naive,
                "{variant} {text}"
            );
            // The solution's move (found by probes against the value) is one the naive
            // minimax gives the best value.
            if let Some(&(_, best)) = naive.iter().max_by_key(|(_, v)| *v) {
                let table = SolverTable::new(8);
                let solution = mancala_rules::with_spec!(variant, S => {
                    let mut solver =
                        Solver::<S>::new(&table, None, LastFourRule::default(), SolveLimits::NONE);
                    if proof_numbers {
                        solver = solver.with_proof_numbers(1);
                    }
                    solver.solve(&pos).unwrap()
                });
                assert_eq!(solution.value, best, "{variant} {text}");
                let chosen = solution.best.expect("a position with moves has a best one");
                assert!(
                    naive.contains(&(chosen, best)),
                    "{variant} {text}: {chosen} does not keep {best}"
                );
            }
            compared += 1;
        }
        assert!(
            compared >= 60,
            "{variant}: only {compared} positions compared"
        );
    }
}

/// The parity the rules promise (`Position::margin_parity`, which lets the solver skip probes)
/// holds for every value the naive minimax finds, in every game.
#[test]
fn solved_values_have_the_parity_the_rules_promise() {
    let mut rng = SplitMix64::new(27);
    for variant in NAIVELY_SOLVED {
        let mut checked = 0;
        for _ in 0..600 {
            let counters = if relays(variant) {
                4 * (1 + (rng.next_u64() % 2) as u32) // Anywoli's boards hold fours
            } else {
                1 + (rng.next_u64() % 8) as u32
            };
            let text = random_position(variant, counters, &mut rng);
            let Some(parity) = position(variant, &text).margin_parity() else {
                continue;
            };
            let reference = RefPosition::parse(variant, &text);
            let Some(value) = naive_value(&reference, naive_budget(variant)) else {
                continue;
            };
            assert_eq!(
                value.rem_euclid(2) as u32,
                parity,
                "{variant} {text} has the value {value}"
            );
            checked += 1;
        }
        let promised = variant != Variant::Oware;
        assert_eq!(
            checked >= 30,
            promised,
            "{variant}: {checked} values checked"
        );
    }
}

/// The solver's table is shared by positions that differ only in their captured totals (in
/// games whose rules never look at them): their values must differ by their captured margins
/// exactly, whichever is solved first with the same table; and a value asked within a window
/// is the value clamped to it.
#[test]
fn positions_that_differ_only_in_captures_differ_by_their_margins() {
    with_big_stack(|| {
        let mut rng = SplitMix64::new(27);
        for variant in [
            Variant::MangalaII,
            Variant::AlManqala,
            Variant::Kalah,
            Variant::Oware,
        ] {
            let table = SolverTable::new(16);
            for _ in 0..40 {
                // Oware's seeds wander long before a capture: its positions stay small.
                let counters = if variant == Variant::Oware {
                    2 + (rng.next_u64() % 4) as u32
                } else {
                    4 + (rng.next_u64() % 8) as u32
                };
                let text = random_position(variant, counters, &mut rng);
                let pos = position(variant, &text);
                // The same board with the captures split another way.
                let mut fields: Vec<&str> = text.split('-').collect();
                let n = fields.len();
                let (south, north): (u32, u32) = (
                    fields[n - 3].parse().unwrap(),
                    fields[n - 2].parse().unwrap(),
                );
                let moved = (rng.next_u64() % (south as u64 + 1)) as u32;
                let (new_south, new_north) =
                    ((south - moved).to_string(), (north + moved).to_string());
                fields[n - 3] = &new_south;
                fields[n - 2] = &new_north;
                let other_text = fields.join("-");
                let other = position(variant, &other_text);
                mancala_rules::with_spec!(variant, S => {
                    let mut solver = Solver::<S>::new(
                        &table,
                        None,
                        LastFourRule::default(),
                        SolveLimits::NONE,
                    );
                    let first = solver.value(&pos).unwrap();
                    let second = solver.value(&other).unwrap();
                    let fresh = SolverTable::new(4);
                    let alone = Solver::<S>::new(
                        &fresh,
                        None,
                        LastFourRule::default(),
                        SolveLimits::NONE,
                    )
                    .value(&other)
                    .unwrap();
                    assert_eq!(second, alone, "{variant} {other_text} after {text}");
                    // Where the rules look at the captures, positions keep them in their key.
                    if !variant.rules().ends_on_majority() {
                        assert_eq!(
                            first - pos.captured_margin(),
                            second - other.captured_margin(),
                            "{variant} {text} and {other_text}"
                        );
                    }
                    for (lo, hi) in [(first - 1, first), (first, first + 1), (first - 3, first + 2)] {
                        let within = solver
                            .query(&pos, ValueQuery::default().within(lo, hi))
                            .unwrap();
                        assert_eq!(within, first.clamp(lo, hi), "{variant} {text} in {lo}..={hi}");
                    }
                });
            }
        }
    });
}

#[test]
fn solved_values_of_the_rule_book() {
    assert_eq!(
        solved(Variant::MangalaII, "0-1-1-1-0-0-0-0-0-2-0-0-61-6-N"),
        -55
    );
    assert_eq!(
        solved(Variant::MangalaII, "2-0-1-0-3-0-0-1-0-2-0-1-30-32-S"),
        0
    );
}

fn think(game: &Game, limits: Limits, with_solver: bool) -> (SearchOutcome, Vec<SearchInfo>) {
    let mut infos = Vec::new();
    let options = SearchOptions {
        solver: with_solver.then(|| Arc::new(Mutex::new(SolverTable::new(8)))),
        ..SearchOptions::default()
    };
    let outcome = search(
        game,
        &limits,
        &options,
        Arc::new(TranspositionTable::new(8).unwrap()),
        Arc::new(SearchControl::new(false)),
        &mut |info| infos.push(info),
    );
    (outcome, infos)
}

/// The search picks `best`, and its last report gives the exact `margin`, with the solver and
/// without it (then the search itself must prove that no other move has a better margin).
fn picks_the_best_margin(variant: Variant, text: &str, best: &str, margin: i32) {
    let game = Game::new(position(variant, text), LastFourRule::default());
    for with_solver in [true, false] {
        let limits = Limits {
            depth: Some(60),
            ..Limits::default()
        };
        let (outcome, infos) = think(&game, limits, with_solver);
        let last = infos.last().unwrap();
        assert_eq!(
            (
                outcome.best.unwrap().to_string().as_str(),
                last.exact_margin
            ),
            (best, Some(margin)),
            "{text} (solver: {with_solver}): {last:?}"
        );
        let expected_sign = margin.signum();
        match last.score {
            Score::Mate { margin: m, plies } => {
                assert_eq!((m, plies.signum()), (margin, expected_sign), "{text}");
            }
            Score::Centi(v) => assert_eq!((v, margin), (0, 0), "{text}"),
        }
    }
}

#[test]
fn the_larger_of_two_winning_margins() {
    // F, A and E win 86-12, C 87-11; D forces 88-10.
    picks_the_best_margin(
        Variant::AlManqala,
        "2-0-1-1-1-2-0-0-1-0-0-1-1-0-80-8-S",
        "D",
        78,
    );
}

#[test]
fn the_smaller_of_two_losing_margins() {
    // B loses 32-66; A loses only 34-64.
    picks_the_best_margin(
        Variant::AlManqala,
        "1-3-0-0-0-0-0-2-0-0-1-3-0-0-30-58-S",
        "A",
        -30,
    );
}

#[test]
fn a_draw_rather_than_a_small_loss() {
    // A draws; C loses by 4.
    let pos = position(Variant::MangalaII, "1-0-1-0-0-0-1-0-0-0-0-1-34-34-S");
    let values = solver_move_values(&pos, false);
    let mv = |name: &str| name.parse::<Move>().unwrap();
    assert_eq!(values, vec![(mv("A"), 0), (mv("C"), -4)]);
    picks_the_best_margin(
        Variant::MangalaII,
        "1-0-1-0-0-0-1-0-0-0-0-1-34-34-S",
        "A",
        0,
    );
}

#[test]
fn a_solved_position_answers_at_once() {
    let game = Game::new(
        position(Variant::AlManqala, "2-0-1-1-1-2-0-0-1-0-0-1-1-0-80-8-S"),
        LastFourRule::default(),
    );
    let started = std::time::Instant::now();
    let (outcome, _) = think(
        &game,
        Limits {
            movetime: Some(20_000),
            ..Limits::default()
        },
        true,
    );
    assert_eq!(outcome.best.unwrap().to_string(), "D");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

/// Plays `text` out under the real rules: the engine's search on one side, on the other a perfect
/// opponent (a move that keeps the solved value, chosen by the solver). Returns the engine's final
/// margin and the solved value it should reach, or `None` if the solver cannot solve the start.
fn play_against_perfection(variant: Variant, text: &str, limits: &Limits) -> Option<(i32, i32)> {
    let start = position(variant, text);
    let engine_side = start.side_to_move();
    let mut table = SolverTable::new(16);
    // The perfect opponent makes progress too: it plays as the engine's solver does.
    let solve = |table: &mut SolverTable, game: &Game| {
        let history: Vec<Position> = game.positions().copied().collect();
        let seen = |p: &Position| history.iter().filter(|&h| h == p).count();
        mancala_rules::with_spec!(variant, S => {
            let limits = SolveLimits {
                nodes: Some(5_000_000),
                ..SolveLimits::NONE
            };
            Solver::<S>::new(table, None, LastFourRule::default(), limits)
                .solve_for_play(game.position(), &seen)
                .ok()
        })
    };
    let target = solve(&mut table, &Game::new(start, LastFourRule::default()))?.value;
    let mut game = Game::new(start, LastFourRule::default());
    let options = SearchOptions {
        solver: Some(Arc::new(Mutex::new(SolverTable::new(16)))),
        ..SearchOptions::default()
    };
    let tt = Arc::new(TranspositionTable::new(8).unwrap());
    while !game.is_over() {
        let pos = *game.position();
        let mv = if pos.side_to_move() == engine_side {
            let control = Arc::new(SearchControl::new(false));
            search(
                &game,
                limits,
                &options,
                Arc::clone(&tt),
                control,
                &mut |_| {},
            )
            .best
            .unwrap()
        } else {
            solve(&mut table, &game)?.best.unwrap()
        };
        game.play(mv).unwrap();
    }
    let totals = game.final_totals().unwrap();
    let me = engine_side.index();
    if std::env::var("SOLVER_DEBUG").is_ok() {
        eprintln!(
            "{text}: {:?} after {} moves: {}",
            game.ending(),
            game.moves().len(),
            game.moves()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    Some((totals[me] as i32 - totals[1 - me] as i32, target))
}

#[test]
fn small_endgames_against_a_perfect_opponent_end_with_the_solved_margin() {
    with_big_stack(|| {
        let mut rng = SplitMix64::new(2026);
        let limits = Limits {
            nodes: Some(400_000),
            ..Limits::default()
        };
        for (variant, counters, games) in [
            (Variant::MangalaII, 12, 12),
            (Variant::AlManqala, 10, 12),
            (Variant::Anywoli, 4, 8),
        ] {
            let mut played = 0;
            for _ in 0..games * 4 {
                if played == games {
                    break;
                }
                let text = random_position(variant, counters, &mut rng);
                let Some((reached, solved)) = play_against_perfection(variant, &text, &limits)
                else {
                    continue;
                };
                assert_eq!(reached, solved, "{variant} {text}");
                played += 1;
            }
            assert_eq!(played, games, "{variant}: too few positions solved");
        }
    });
}

/// A probe that runs out of its node budget is left open and comes back later with more: the
/// value is the one proven without budgets, every answer on the way agrees with it, and some
/// probe did run out, the main one and a side one (by alpha-beta and by proof numbers, on one
/// thread and on two). The side probes' answers only narrow the window: the main probe comes
/// back at the same bound while the window holds it (were they to move MTD(f)'s guess, as
/// they did in a draft, the value would be the same at a higher cost: Kalah with 3 per pit,
/// one thread, budgets of 2^12, 3.92 M nodes against 4.44 M).
#[test]
fn probes_out_of_budget_come_back_with_more_and_prove_the_same_value() {
    with_big_stack(|| {
        for (variant, text) in [
            (Variant::MangalaII, "2-2-2-2-2-2-2-2-2-2-2-2-24-24-S"),
            (Variant::AlManqala, "2-2-2-2-2-2-2-2-2-2-2-2-2-2-35-35-S"),
            (Variant::MangalaII, "2-0-1-0-3-0-0-1-0-2-0-1-30-32-S"),
        ] {
            let value = solved(variant, text);
            let pos = position(variant, text);
            for proof_numbers in [false, true] {
                for threads in [1, 2] {
                    let table = SolverTable::new(8);
                    let mut answers = Vec::new();
                    let found = mancala_rules::with_spec!(variant, S => {
                        let rule = LastFourRule::default();
                        let mut solver = Solver::<S>::new(&table, None, rule, SolveLimits::NONE)
                            .with_threads(threads)
                            .with_probe_budget(16);
                        if proof_numbers {
                            solver = solver.with_proof_numbers(1);
                        }
                        solver.query(&pos, ValueQuery::default().reporting(&mut |probe| answers.push(probe)))
                    });
                    let how =
                        format!("{text} (proof numbers: {proof_numbers}, threads: {threads})");
                    assert_eq!(found, Ok(value), "{how}");
                    assert!(
                        answers
                            .iter()
                            .any(|probe| probe.answer == ProbeAnswer::OutOfBudget(16)),
                        "{how}: no probe ran out of 16 nodes: {answers:?}"
                    );
                    // While the main probe is open, side probes get an eighth of its budget.
                    assert!(
                        answers
                            .iter()
                            .any(|probe| probe.answer == ProbeAnswer::OutOfBudget(2)),
                        "{how}: no side probe ran out of 2 nodes: {answers:?}"
                    );
                    for probe in &answers {
                        match probe.answer {
                            ProbeAnswer::AtLeast => {
                                assert!(value >= probe.bound, "{how}: {probe:?}")
                            }
                            ProbeAnswer::Below => assert!(value < probe.bound, "{how}: {probe:?}"),
                            ProbeAnswer::OutOfBudget(_) => {}
                        }
                        let (lo, hi) = probe.proven;
                        assert!(lo <= value && value <= hi, "{how}: {probe:?}");
                    }
                    // Side answers only narrow the window: the main probe that ran out is
                    // asked again, with more, while the window still holds its bound.
                    let mut open_main: Option<i32> = None;
                    let mut side_answered = false;
                    for probe in &answers {
                        if probe.main {
                            if let Some(open) = open_main {
                                assert_eq!(probe.bound, open, "{how}: {answers:?}");
                            }
                            open_main = matches!(probe.answer, ProbeAnswer::OutOfBudget(_))
                                .then_some(probe.bound);
                        } else if let Some(open) = open_main {
                            side_answered |= !matches!(probe.answer, ProbeAnswer::OutOfBudget(_));
                            let (lo, hi) = probe.proven;
                            if !(lo < open && open <= hi) {
                                open_main = None;
                            }
                        }
                    }
                    assert!(side_answered, "{how}: no side probe answered: {answers:?}");
                    // The last answer leaves only the value.
                    let last = answers.last().expect("probes were made");
                    assert_eq!(last.proven, (value, value), "{how}");
                }
            }
        }
    });
}

/// Whether the game's moves relay (the naive rules replay such laps seed by seed, slowly).
fn relays(variant: Variant) -> bool {
    !matches!(variant.rules().laps, mancala_rules::Laps::Single { .. })
}

/// The ladder's Mangala II starts with 4 and 5 counters a pit (48 and 60 on the board), proved
/// without tables: both a draw. With 4 a pit it was out of reach (ten minutes and tables up to
/// 24 without a proof) until the static evaluation ordered moves of equal gain; it now takes a
/// few million nodes, and a node limit keeps a regression from running on.
#[test]
fn mangala_ii_with_four_and_five_a_pit_is_a_draw() {
    with_big_stack(|| {
        for text in [
            "4-4-4-4-4-4-4-4-4-4-4-4-12-12-S",
            "5-5-5-5-5-5-5-5-5-5-5-5-6-6-S",
        ] {
            let pos = position(Variant::MangalaII, text);
            let table = SolverTable::new(1024);
            let limits = SolveLimits {
                nodes: Some(200_000_000),
                ..SolveLimits::NONE
            };
            let mut solver = Solver::<mancala_rules::spec::MangalaII>::new(
                &table,
                None,
                LastFourRule::default(),
                limits,
            );
            let solution = solver.solve(&pos).expect("proved within the node limit");
            assert_eq!(solution.value, 0, "{text}");
        }
    });
}

/// Two threads split the work of a proof: a thread puts off a child the other one is searching
/// and searches its siblings first, so the two together search about the nodes one thread
/// searches alone, in half the time. Before, both searched the same tree side by side (twice
/// the nodes, no faster) wherever the helper's order was the same as the main thread's, as in
/// every game without extra turns.
#[test]
fn two_threads_split_a_proof_between_them() {
    with_big_stack(|| {
        let (variant, text) = (Variant::AlManqala, "2-2-2-2-2-2-2-2-2-2-2-2-2-2-35-35-S");
        let pos = position(variant, text);
        let solve = |threads: usize| {
            let table = SolverTable::new(64);
            mancala_rules::with_spec!(variant, S => {
                let mut solver =
                    Solver::<S>::new(&table, None, LastFourRule::default(), SolveLimits::NONE)
                        .with_threads(threads);
                let value = solver.value(&pos).unwrap();
                (value, solver.nodes())
            })
        };
        let (alone, alone_nodes) = solve(1);
        let (together, together_nodes) = solve(2);
        assert_eq!((alone, together), (0, 0));
        assert!(
            together_nodes * 2 < alone_nodes * 3,
            "two threads searched {together_nodes} nodes, one thread {alone_nodes}"
        );
    });
}

/// The line after a proof starts from the root move that proved the value's lower bound, whose
/// proof is in the table, so it costs a few nodes a move. Where the last probe proved the
/// upper bound (those positions, with small budgets), the root's best move in the table is
/// whatever that failing search left; starting from it cost 13,316 nodes instead of 298 on
/// the first position and 3,143 instead of 30 on the second (one thread: the counts are the
/// same each run).
#[test]
fn the_line_after_a_proof_starts_from_the_move_that_proved_it() {
    with_big_stack(|| {
        for (variant, text) in [
            (Variant::MangalaII, "2-2-2-2-2-2-2-2-2-2-2-2-24-24-S"),
            (Variant::AlManqala, "3-3-3-3-3-3-3-3-3-3-3-3-3-3-28-28-S"),
        ] {
            let pos = position(variant, text);
            let table = SolverTable::new(64);
            let (value, last, line_nodes) = mancala_rules::with_spec!(variant, S => {
                let rule = LastFourRule::default();
                let mut solver =
                    Solver::<S>::new(&table, None, rule, SolveLimits::NONE).with_probe_budget(64);
                let mut last = None;
                let value = solver
                    .query(&pos, ValueQuery::default().reporting(&mut |probe| last = Some(probe.answer)))
                    .unwrap();
                let before = solver.nodes();
                let solution = solver.solve_from(&pos, value).unwrap();
                (value, last, solution.nodes - before)
            });
            assert_eq!((value, last), (0, Some(ProbeAnswer::Below)), "{text}");
            assert!(
                line_nodes < 1_000,
                "{text}: the line took {line_nodes} nodes"
            );
        }
    });
}

/// The value of `pos` by plain minimax over the rules' own moves and endings, in a game that
/// cannot repeat a position (counters only move towards the stores).
fn plain_minimax(pos: &Position) -> i32 {
    if let Some(ending) = pos.own_ending() {
        return pos.final_margin(ending, LastFourRule::default());
    }
    pos.legal_moves()
        .iter()
        .map(|&mv| {
            let mut child = *pos;
            child.play_unchecked(mv);
            let v = plain_minimax(&child);
            if child.side_to_move() == pos.side_to_move() {
                v
            } else {
                -v
            }
        })
        .max()
        .expect("a game that goes on has a move")
}

/// Games won outright (to clear one's row, deprive or immobilize the opponent) are solved to
/// plus or minus their total, as a plain minimax finds them, by alpha-beta and proof numbers:
/// the solver's bounds follow the goal, not the counters on the board.
#[test]
fn games_won_outright_solve_to_their_whole_total() {
    let games = [
        "name = \"solve-clear\"\npits-per-row = 3\nstart = 2\nany-total = true\n\
         goal = \"clear-own-row\"\nsow-own-store = true\nextra-turn-in-store = true\n",
        "name = \"solve-deprive\"\npits-per-row = 3\nstart = 2\nany-total = true\n\
         goal = \"deprive\"\nsow-own-store = true\ncapture-empty-opposite = true\n\
         capture-side = \"own\"\n",
        "name = \"solve-immobilize\"\npits-per-row = 3\nstart = 2\nany-total = true\n\
         goal = \"immobilize\"\nsow-own-store = true\ncapture-counts = [2]\n",
    ];
    let mut rng = SplitMix64::new(61);
    for text in games {
        let variant = mancala_rules::definition::register(text).unwrap();
        let mut compared = 0;
        while compared < 40 {
            let counters = 2 + (rng.next_u64() % 6) as u32;
            let text = random_position(variant, counters, &mut rng);
            let pos = position(variant, &text);
            if pos.is_game_over() {
                continue;
            }
            let expected = plain_minimax(&pos);
            let total = pos.total() as i32;
            assert!(
                [-total, 0, total].contains(&expected),
                "{variant} {text}: {expected}"
            );
            assert_eq!(solved(variant, &text), expected, "{variant} {text}");
            let values = solver_move_values(&pos, true);
            assert_eq!(
                values.iter().map(|&(_, v)| v).max(),
                Some(expected),
                "{variant} {text}: {values:?}"
            );
            compared += 1;
        }
    }
}

/// The value of `pos` by plain negamax over the rules themselves, each position's value kept
/// (by its position string), for a game that cannot cycle (its board only loses counters: they
/// are sown into the stores).
fn plain_negamax(pos: &Position, known: &mut std::collections::HashMap<String, i32>) -> i32 {
    if let Some(ending) = pos.own_ending() {
        return pos.final_margin(ending, LastFourRule::default());
    }
    if let Some(&value) = known.get(&pos.to_string()) {
        return value;
    }
    let value = pos
        .legal_moves()
        .iter()
        .map(|&mv| {
            let mut child = *pos;
            let effect = child.play_unchecked(mv);
            let value = if effect.endless {
                child.final_margin(mancala_rules::Ending::EndlessMove, LastFourRule::default())
            } else {
                plain_negamax(&child, known)
            };
            if child.side_to_move() == pos.side_to_move() {
                value
            } else {
                -value
            }
        })
        .max()
        .expect("a position that has not ended has a move");
    known.insert(pos.to_string(), value);
    value
}

/// Where a last counter into an empty pit gives the mover's store away, captured counters
/// change hands: positions that differ only in their captured totals no longer differ in value
/// by their captured margins, and the solver must keep them apart (its keys hold the totals).
#[test]
fn the_solver_keeps_apart_positions_whose_stores_may_be_given_away() {
    // (Without its end on a majority, which alone would make the captured totals count.)
    let text = include_str!("../../../tests/data/catalogue/simplecapt-pcapt.toml")
        .replace("majority-ends = true", "majority-ends = false")
        .replace(
            "name = \"simplecapt-pcapt\"",
            "name = \"simplecapt-pcapt-to-the-end\"",
        );
    let variant = mancala_rules::definition::register(&text).expect("the file loads");
    assert!(!variant.rules().ends_on_majority());
    let mut rng = SplitMix64::new(53);
    let mut given_away_matters = 0;
    let known = &mut std::collections::HashMap::new();
    for _ in 0..60 {
        // A few counters on the board, the rest of the 48 in the stores.
        let mut pits = [0u32; 12];
        for _ in 0..(3 + rng.next_u64() % 5) {
            pits[(rng.next_u64() % 12) as usize] += 1;
        }
        let rest = 48 - pits.iter().sum::<u32>();
        let south = (rng.next_u64() % (rest as u64 + 1)) as u32;
        let side = if rng.next_u64().is_multiple_of(2) {
            "S"
        } else {
            "N"
        };
        let board: Vec<String> = pits.iter().map(u32::to_string).collect();
        let text = format!("{}-{south}-{}-{side}", board.join("-"), rest - south);
        let Ok(pos) = Position::from_position_string(variant, &text) else {
            continue; // a board the rules end at once
        };
        if pos.own_ending().is_some() {
            continue;
        }
        let expected = plain_negamax(&pos, known);
        assert_eq!(solved(variant, &text), expected, "{text}");
        // The same board with the captured totals shifted: the value is not simply shifted.
        let shifted = format!("{}-{}-{}-{side}", board.join("-"), rest, 0);
        let shifted_pos = position(variant, &shifted);
        let margin_change = shifted_pos.captured_margin() - pos.captured_margin();
        let shifted_value = plain_negamax(&shifted_pos, known);
        if shifted_value != expected + margin_change {
            given_away_matters += 1;
        }
        // One table for both: the solver must not take one's bounds for the other's.
        let table = SolverTable::new(8);
        mancala_rules::with_spec!(variant, S => {
            let mut solver =
                Solver::<S>::new(&table, None, LastFourRule::default(), SolveLimits::NONE);
            assert_eq!(solver.solve(&pos).unwrap().value, expected, "{text}");
            assert_eq!(
                solver.solve(&shifted_pos).unwrap().value,
                shifted_value,
                "{shifted} after {text}"
            );
        });
    }
    assert!(given_away_matters > 5, "{given_away_matters}");
}
