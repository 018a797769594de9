//! One named test per rule of RULES.md, each built from board literals (position strings).

use mancala_rules::{
    Ending, Game, GameResult, IllegalReason, LastFourRule, Move, MoveEffect, Position,
    PositionStringError, Side, SideChoice, SplitMix64, Variant,
};
use mancala_testkit::reference::{RefGame, RefPosition};

fn variant(name: &str) -> Variant {
    name.parse().unwrap()
}

fn position(game: &str, text: &str) -> Position {
    Position::from_position_string(variant(game), text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn mv(name: &str) -> Move {
    name.parse().unwrap()
}

/// Checks the legal moves of `before`, plays `played`, and checks the position after.
fn check_move(game: &str, before: &str, legal: &str, played: &str, after: &str) -> MoveEffect {
    let mut pos = position(game, before);
    assert_eq!(
        pos.legal_moves().to_string(),
        legal,
        "legal moves of {before}"
    );
    let effect = pos.play(mv(played)).unwrap();
    assert_eq!(pos.to_string(), after, "{before} after {played}");
    effect
}

fn game_from(game: &str, text: &str) -> Game {
    Game::new(position(game, text), LastFourRule::default())
}

fn illegal_reason(game: &str, text: &str, played: &str) -> IllegalReason {
    position(game, text)
        .check_move(mv(played))
        .unwrap_err()
        .reason
}

// ---------------------------------------------------------------------------------------------
// The board, sowing and capturing

#[test]
fn pits_are_lettered_from_each_owners_left() {
    assert_eq!(Move::from_pit(0, 6).to_string(), "A");
    assert_eq!(Move::from_pit(5, 6).to_string(), "F");
    assert_eq!(Move::from_pit(6, 6).to_string(), "a");
    assert_eq!(Move::from_pit(23, 12).to_string(), "l");
    assert_eq!(mv("g").pit(7), Some(13));
    assert_eq!(mv("pass").pit(7), None);
    for bad in ["", "AB", "1", "é", "Y", "y", "-", "pas", "passs"] {
        assert!(bad.parse::<Move>().is_err(), "{bad:?} is not a move");
    }
    // `pass` is a word, read in any case; pit letters keep their case.
    for pass in ["pass", "Pass", "PASS"] {
        assert_eq!(pass.parse::<Move>(), Ok(Move::PASS));
    }
}

#[test]
fn a_move_for_the_wrong_side_is_illegal() {
    let start = Position::start(Variant::MangalaII).to_string();
    assert_eq!(
        illegal_reason("mangala-ii", &start, "a"),
        IllegalReason::OpponentsPit
    );
    assert_eq!(
        illegal_reason("mangala-ii", &start, "G"),
        IllegalReason::NoSuchPit
    );
}

#[test]
fn the_landing_count_predicts_the_last_pit_of_a_one_lap_sowing() {
    // Mangala II: F's three counters land in pit 8, which then holds 1.
    let short = position("mangala-ii", "1-0-0-0-0-3-0-0-0-0-0-20-34-14-S");
    assert_eq!(short.landing_count(5), 1);
    check_move(
        "mangala-ii",
        "1-0-0-0-0-3-0-0-0-0-0-20-34-14-S",
        "A F",
        "F",
        "1-0-0-0-0-0-1-1-1-0-0-20-34-14-N",
    );
    // North's f with 20: a whole lap (the origin included), then eight more; the last lands in
    // pit 7, empty before, which ends with 2 (and is captured with pit 6).
    let long = position("mangala-ii", "1-0-0-0-0-3-0-0-0-0-0-20-34-14-N");
    assert_eq!(long.landing_count(11), 2);
    check_move(
        "mangala-ii",
        "1-0-0-0-0-3-0-0-0-0-0-20-34-14-N",
        "f",
        "f",
        "3-2-2-2-2-5-0-0-1-1-1-1-34-18-S",
    );
    // Al-manqala's start: A's seven counters end in pit 7, which then holds 8.
    let start = Position::start(variant("al-manqala"));
    assert_eq!(start.landing_count(0), 8);
}

#[test]
fn sowing_does_not_skip_the_origin() {
    check_move(
        "mangala-ii",
        "12-0-0-0-0-0-0-0-0-0-0-0-30-30-S",
        "A",
        "A",
        "1-1-1-1-1-1-1-1-1-1-1-1-30-30-N",
    );
}

#[test]
fn capture_chain_runs_backwards_across_rows() {
    check_move(
        "mangala-ii",
        "0-1-0-0-0-0-0-0-0-4-7-5-27-28-N",
        "d e f",
        "d",
        "1-0-0-0-0-0-0-0-0-0-8-6-27-30-S",
    );
}

#[test]
fn capture_chain_never_includes_the_lap_origin() {
    check_move(
        "mangala-ii",
        "2-3-1-0-0-0-0-0-0-0-0-0-33-33-S",
        "A B C",
        "A",
        "0-0-0-0-0-0-0-0-0-0-0-0-39-33-N",
    );
}

#[test]
fn lap_ending_in_its_own_origin_is_judged_and_the_chain_stops_before_it() {
    // 24 counters: two rounds, so every pit (the origin too) ends with 2. The landing pit A is
    // taken, then the chain runs back through L…B and stops before coming round to A again.
    check_move(
        "mangala-ii",
        "24-0-0-0-0-0-0-0-0-0-0-0-24-24-S",
        "A",
        "A",
        "0-0-0-0-0-0-0-0-0-0-0-0-48-24-N",
    );
}

#[test]
fn pass_is_the_only_move_with_an_empty_row() {
    check_move(
        "mangala-ii",
        "0-0-0-0-0-0-1-2-0-0-0-0-35-34-S",
        "pass",
        "pass",
        "0-0-0-0-0-0-1-2-0-0-0-0-35-34-N",
    );
}

#[test]
fn a_player_with_a_move_cannot_pass() {
    let start = Position::start(Variant::Anywoli).to_string();
    assert_eq!(
        illegal_reason("anywoli", &start, "pass"),
        IllegalReason::CannotPass
    );
}

#[test]
fn third_occurrence_ends_the_game_by_repetition() {
    // One counter goes round and round the board; the player whose row is empty passes.
    let mut game = game_from("mangala-ii", "0-0-0-0-0-1-0-0-0-0-0-0-35-36-S");
    while let Some(&next) = game.legal_moves().as_slice().first() {
        game.play(next).unwrap();
    }
    assert_eq!(game.ending(), Some(Ending::Repetition));
    // The cycle: F (1 ply), North moves a..f while South passes (11), South moves A..E while
    // North passes (10): 22 plies back to the start, so the third occurrence is at ply 44.
    let last = *game.position();
    assert_eq!(last, *game.base());
    assert_eq!(game.positions().filter(|&&p| p == last).count(), 3);
    assert_eq!(game.moves().len(), 44);
    // Leftover rule of Mangala II: split evenly; the odd counter goes to nobody.
    assert_eq!(game.final_totals(), Some([35, 36]));
    assert_eq!(game.result(), Some(GameResult::NorthWins));
}

#[test]
fn repetition_counts_only_the_history_since_the_position_command() {
    // Replaying the cycle from a later base needs three fresh occurrences again.
    let mut game = game_from("mangala-ii", "0-0-0-0-0-1-0-0-0-0-0-0-35-36-S");
    while let Some(&next) = game.legal_moves().as_slice().first() {
        game.play(next).unwrap();
    }
    let played = game.moves().len();
    let mut later = Game::new(*game.position(), LastFourRule::default());
    assert!(!later.is_over());
    let mut count = 0;
    while let Some(&next) = later.legal_moves().as_slice().first() {
        later.play(next).unwrap();
        count += 1;
    }
    // The earlier game's occurrences do not count: all three are needed again.
    assert_eq!(later.ending(), Some(Ending::Repetition));
    assert_eq!((played, count), (44, 44));
}

fn play_line(game: &mut Game, line: &str) {
    for name in line.split_whitespace() {
        game.play(mv(name))
            .unwrap_or_else(|e| panic!("{name} in {}: {e}", game.position()));
    }
}

#[test]
fn hundred_moves_without_capture_end_the_game() {
    let mut game = game_from("mangala-ii", "0-1-0-0-2-1-0-0-0-0-0-1-33-34-N");
    play_line(
        &mut game,
        "f B pass A pass C pass B pass D pass C pass E b D a E c F a pass b pass d pass c pass e \
         B d A e C f A pass B pass D pass C pass E b D a E c F a pass b pass d pass c pass e B d \
         A e C f A pass B pass D pass E a C b E c D d F e E f A c B b C a D d F e E f A c B b",
    );
    assert_eq!(game.moves().len(), 99);
    assert!(!game.is_over());
    game.play(mv("C")).unwrap();
    assert_eq!(game.quiet_run(), 100);
    assert_eq!(game.ending(), Some(Ending::NoProgress));
    assert!(game.legal_moves().is_empty());
    // Five counters left: split evenly, the odd one to nobody.
    assert_eq!(game.final_totals(), Some([35, 36]));
}

#[test]
fn own_end_takes_precedence_over_no_progress() {
    // The 100th quiet move empties North's row and no South move can refill it: the game ends
    // by starvation (North takes the five left), not by no progress (which would split them).
    let mut game = game_from("al-manqala", "0-1-0-0-1-0-0-1-0-0-0-2-0-0-46-47-S");
    play_line(
        &mut game,
        "B a C b E c D d F e A g B f A g G a C b B c A d E e D f F g G a C b B c A d E e F f \
         G a D b C c B d E e D g F f G a A b C c B d E e F g G a A b D c C d E f D e F g E f G \
         a B b A c C d D e B g A f C",
    );
    assert!(!game.is_over());
    game.play(mv("g")).unwrap();
    assert_eq!(game.quiet_run(), 100);
    assert_eq!(game.ending(), Some(Ending::Starvation));
    assert_eq!(game.score(), [46, 52]);
}

#[test]
fn no_progress_is_counted_from_the_position_command_and_a_capture_resets_it() {
    let mut game = game_from("mangala-ii", "0-0-0-0-0-1-1-0-0-0-0-0-35-35-S");
    assert_eq!(game.quiet_run(), 0);
    game.play(mv("F")).unwrap(); // captures 2
    assert_eq!(game.quiet_run(), 0);
    let mut game = game_from("mangala-ii", "0-0-0-0-1-0-0-0-0-0-0-1-35-35-S");
    game.play(mv("E")).unwrap();
    assert_eq!(game.quiet_run(), 1);
    game.play(mv("f")).unwrap();
    assert_eq!(game.quiet_run(), 2);
}

#[test]
fn result_compares_final_totals() {
    assert_eq!(GameResult::from_totals([37, 35]), GameResult::SouthWins);
    assert_eq!(GameResult::from_totals([36, 36]), GameResult::Draw);
    assert_eq!(GameResult::from_totals([49, 49]), GameResult::Draw);
    assert_eq!(GameResult::from_totals([10, 62]), GameResult::NorthWins);
}

// ---------------------------------------------------------------------------------------------
// Mangala II

#[test]
fn mangala_ii_last_counter_making_two_captures() {
    check_move(
        "mangala-ii",
        "0-0-0-0-0-1-1-0-0-0-0-0-35-35-S",
        "F",
        "F",
        "0-0-0-0-0-0-0-0-0-0-0-0-37-35-N",
    );
}

#[test]
fn mangala_ii_chain_stops_at_eight() {
    check_move(
        "mangala-ii",
        "0-0-4-7-5-3-1-0-0-0-0-0-26-26-S",
        "C D E F",
        "C",
        "0-0-0-8-0-0-0-0-0-0-0-0-38-26-N",
    );
}

#[test]
fn mangala_ii_odd_counts_are_not_taken() {
    // The last counter makes 3 in a: no capture even though F behind holds 2.
    check_move(
        "mangala-ii",
        "0-0-0-0-2-1-2-0-0-0-0-0-32-35-S",
        "E F",
        "F",
        "0-0-0-0-2-0-3-0-0-0-0-0-32-35-N",
    );
}

#[test]
fn mangala_ii_empty_board_ends_the_game_and_37_wins() {
    let mut game = game_from("mangala-ii", "0-0-0-0-0-1-1-0-0-0-0-0-35-35-S");
    game.play(mv("F")).unwrap();
    assert_eq!(game.ending(), Some(Ending::BoardEmpty));
    assert_eq!(game.score(), [37, 35]);
    assert_eq!(game.result(), Some(GameResult::SouthWins));
    assert!(game.legal_moves().is_empty());
}

#[test]
fn mangala_ii_leftover_is_split_evenly() {
    let pos = position("mangala-ii", "0-0-0-0-0-2-0-2-0-0-0-0-34-34-S");
    assert_eq!(
        pos.final_totals(Ending::Repetition, LastFourRule::default()),
        [36, 36]
    );
    // An odd leftover (only possible in a hand-typed position) leaves the odd counter unowned.
    let pos = position("mangala-ii", "0-0-0-0-0-1-0-2-0-0-0-0-35-34-S");
    assert_eq!(
        pos.final_totals(Ending::NoProgress, LastFourRule::default()),
        [36, 35]
    );
}

// ---------------------------------------------------------------------------------------------
// Mangala IV

#[test]
fn mangala_iv_only_the_leftmost_pit_may_be_played() {
    let start = Position::start(Variant::MangalaIV).to_string();
    assert_eq!(
        illegal_reason("mangala-iv", &start, "B"),
        IllegalReason::NotLeftmost
    );
    let pos = position("mangala-iv", "0-0-3-2-1-5-0-0-1-1-3-0-0-4-39-39-N");
    assert_eq!(pos.legal_moves().to_string(), "b");
}

#[test]
fn mangala_iv_sows_clockwise_first_into_the_opposite_pit_and_relays() {
    check_move(
        "mangala-iv",
        "7-7-7-7-7-7-7-7-7-7-7-7-7-7-0-0-S",
        "A",
        "A",
        "0-10-10-10-1-10-10-2-10-0-10-10-10-0-5-0-N",
    );
}

#[test]
fn mangala_iv_capture_takes_the_opposite_pits_along_the_chain() {
    check_move(
        "mangala-iv",
        "0-0-3-2-1-5-0-0-1-1-3-0-0-4-39-39-S",
        "C",
        "C",
        "1-1-0-0-0-0-0-0-0-0-0-1-1-0-55-39-N",
    );
}

#[test]
fn mangala_iv_chain_judges_the_live_board() {
    // A sows g f e d c b a G; G makes 2: take G and its opposite a (which just made 2). The
    // chain's next pit is a itself, now empty on the live board: the chain stops there.
    check_move(
        "mangala-iv",
        "8-0-0-0-0-0-1-1-0-0-0-0-0-0-44-44-S",
        "A",
        "A",
        "0-0-0-0-0-0-0-0-1-1-1-1-1-1-48-44-N",
    );
}

#[test]
fn mangala_iv_endless_relay_ends_game() {
    let effect = check_move(
        "mangala-iv",
        "1-2-0-4-2-0-1-3-1-2-3-1-2-3-73-0-N",
        "a",
        "a",
        "1-2-0-4-2-0-1-3-1-2-3-1-2-3-73-0-S",
    );
    assert!(effect.endless);
    let mut game = game_from("mangala-iv", "1-2-0-4-2-0-1-3-1-2-3-1-2-3-73-0-N");
    game.play(mv("a")).unwrap();
    assert_eq!(game.ending(), Some(Ending::EndlessMove));
    // Leftover rule of Mangala IV: each row to its owner (South 10, North 15).
    assert_eq!(game.final_totals(), Some([83, 15]));
    // The reference implementation, with a plain list of lap starts, agrees.
    let mut reference = RefGame::new(RefPosition::parse(
        Variant::MangalaIV,
        "1-2-0-4-2-0-1-3-1-2-3-1-2-3-73-0-N",
    ));
    reference.play(Some(7));
    assert_eq!(reference.current().to_text(), game.position().to_string());
}

#[test]
fn mangala_iv_deal_uses_splitmix64() {
    // Reference outputs of SplitMix64 for seed 1234567 (Vigna's splitmix64.c).
    let mut rng = SplitMix64::new(1234567);
    assert_eq!(rng.next_u64(), 6457827717110365317);
    assert_eq!(rng.next_u64(), 3203168211198807973);
    let deal = Position::mangala_iv_deal(42);
    assert_eq!(deal.to_string(), "6-6-4-5-5-11-8-6-9-7-11-10-6-4-0-0-S");
    assert!(deal.pits().iter().all(|&c| c >= 2));
    assert_eq!(deal.on_board(), 98);
}

#[test]
fn mangala_iv_leftover_gives_each_row_to_its_owner() {
    let pos = position("mangala-iv", "0-0-0-0-0-1-0-0-0-0-0-0-0-0-38-59-S");
    assert_eq!(
        pos.final_totals(Ending::Repetition, LastFourRule::default()),
        [39, 59]
    );
}

#[test]
fn mangala_iv_whole_game_from_startpos() {
    let mut game = Game::new(Position::start(Variant::MangalaIV), LastFourRule::default());
    while let Some(&next) = game.legal_moves().as_slice().first() {
        game.play(next).unwrap();
        assert!(
            game.position().on_board() > 0,
            "forced play never empties the board"
        );
    }
    assert_eq!(game.moves().len(), 108);
    assert_eq!(game.ending(), Some(Ending::Repetition));
    assert_eq!(game.score(), [39, 59]);
    assert_eq!(game.result(), Some(GameResult::NorthWins));
}

#[test]
fn mangala_iv_side_choice_plays_out_both_choices() {
    // The start position is symmetric: whoever moves second wins 59-39 either way.
    let start = SideChoice::for_board(&Position::start(Variant::MangalaIV)).unwrap();
    assert_eq!(start.choose_north, [39, 59]);
    assert_eq!(start.choose_south, [59, 39]);
    assert_eq!(start.best(), None);
    // Deal 0: taking South wins by 36, taking North loses by 56.
    let deal = SideChoice::for_board(&Position::mangala_iv_deal(0)).unwrap();
    assert_eq!((deal.choose_south, deal.choose_north), ([67, 31], [77, 21]));
    assert_eq!(
        (deal.margin(Side::South), deal.margin(Side::North)),
        (36, -56)
    );
    assert_eq!(deal.best(), Some(Side::South));
    // Deal 1: North is the better choice (+4 against -16).
    let deal = SideChoice::for_board(&Position::mangala_iv_deal(1)).unwrap();
    assert_eq!(deal.best(), Some(Side::North));
    // The board's side to move does not matter; other games have no side choice.
    let north_to_move = Position::mangala_iv_deal(1).with_side_to_move(Side::North);
    assert_eq!(SideChoice::for_board(&north_to_move), Some(deal));
    assert!(SideChoice::for_board(&Position::start(Variant::MangalaII)).is_none());
}

// ---------------------------------------------------------------------------------------------
// Al-manqala

#[test]
fn al_manqala_captures_only_two_and_four() {
    // The last counter makes 6 in a: no capture (6 is not taken in this game).
    check_move(
        "al-manqala",
        "0-0-0-0-0-0-1-5-0-0-0-0-0-0-46-46-S",
        "G",
        "G",
        "0-0-0-0-0-0-0-6-0-0-0-0-0-0-46-46-N",
    );
    // Making 4 captures, and the chain goes back over 2.
    check_move(
        "al-manqala",
        "0-0-0-0-0-1-1-3-0-0-0-0-0-0-46-47-S",
        "F G",
        "G",
        "0-0-0-0-0-1-0-0-0-0-0-0-0-0-50-47-N",
    );
}

#[test]
fn al_manqala_must_feed_an_empty_row() {
    check_move(
        "al-manqala",
        "1-0-0-0-0-0-1-0-0-0-0-0-0-0-50-46-S",
        "G",
        "G",
        "1-0-0-0-0-0-0-1-0-0-0-0-0-0-50-46-N",
    );
    assert_eq!(
        illegal_reason("al-manqala", "1-0-0-0-0-0-1-0-0-0-0-0-0-0-50-46-S", "A"),
        IllegalReason::DoesNotFeed
    );
}

#[test]
fn al_manqala_feeding_is_judged_after_captures() {
    check_move(
        "al-manqala",
        "0-0-0-0-0-2-21-0-0-0-0-0-0-0-38-37-S",
        "F",
        "F",
        "0-0-0-0-0-0-22-1-0-0-0-0-0-0-38-37-N",
    );
}

#[test]
fn al_manqala_starved_player_takes_what_is_left() {
    let game = game_from("al-manqala", "1-0-0-0-0-0-0-0-0-0-0-0-0-0-50-47-S");
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.ending(), Some(Ending::Starvation));
    assert_eq!(game.score(), [50, 48]);
    assert_eq!(game.result(), Some(GameResult::SouthWins));
}

#[test]
fn al_manqala_pass_then_the_opponent_must_feed() {
    let mut game = game_from("al-manqala", "0-0-0-0-0-0-0-1-0-0-0-0-0-0-50-47-S");
    assert_eq!(game.legal_moves().to_string(), "pass");
    game.play(Move::PASS).unwrap();
    // North's only counter, sown from a, stays in North's row: South stays starved.
    assert_eq!(game.ending(), Some(Ending::Starvation));
    assert_eq!(game.score(), [51, 47]);
}

#[test]
fn al_manqala_fifty_wins_and_49_49_draws() {
    let game = game_from("al-manqala", "0-0-0-0-0-0-0-0-0-0-0-0-0-0-49-49-S");
    assert_eq!(game.result(), Some(GameResult::Draw));
}

// ---------------------------------------------------------------------------------------------
// Anywoli

#[test]
fn anywoli_mid_sow_four_goes_to_the_pits_owner() {
    check_move(
        "anywoli",
        "0-3-3-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-44-46-S-N-N",
        "B C",
        "B",
        "0-0-0-1-1-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-48-46-N-S-N",
    );
    // South sows through North's a (3 → 4): the four go to North, who owns a.
    check_move(
        "anywoli",
        "0-0-0-0-0-0-0-0-0-0-0-2-3-0-0-0-0-0-0-0-0-0-0-0-44-47-S-X-X",
        "L",
        "L",
        "0-0-0-0-0-0-0-0-0-0-0-0-0-1-0-0-0-0-0-0-0-0-0-0-44-51-N-N-X",
    );
}

#[test]
fn anywoli_last_seed_relays_on_other_counts() {
    check_move(
        "anywoli",
        "2-0-1-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-5-40-48-S-N-S",
        "A C",
        "A",
        "0-1-0-1-1-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-5-40-48-N-N-S",
    );
}

#[test]
fn anywoli_last_seed_four_gives_extra_move() {
    let effect = check_move(
        "anywoli",
        "1-3-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-2-2-4-36-48-S-N-S",
        "A B",
        "A",
        "0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-2-2-4-40-48-S-S-S",
    );
    assert!(effect.extra_turn);
}

#[test]
fn anywoli_extra_move_with_an_empty_row_is_a_pass() {
    let mut pos = position(
        "anywoli",
        "1-3-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-2-2-4-36-48-S-N-S",
    );
    pos.play(mv("A")).unwrap();
    assert_eq!(pos.side_to_move(), Side::South);
    assert_eq!(pos.legal_moves().to_string(), "pass");
}

#[test]
fn anywoli_first_last_seed_capture_is_recorded_once() {
    let effect = check_move(
        "anywoli",
        "0-0-0-0-0-0-0-0-0-0-0-0-1-3-0-0-0-0-0-0-0-0-3-1-42-46-N-S-X",
        "a b k l",
        "a",
        "0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-3-1-42-50-N-N-N",
    );
    assert!(effect.extra_turn);
}

#[test]
fn anywoli_pits_above_four_only_grow() {
    // B holds 5: a passing seed makes it 6 and it stays; the last seed lands in empty D.
    check_move(
        "anywoli",
        "3-5-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-44-44-S-X-X",
        "A B",
        "A",
        "0-6-1-1-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-44-44-N-X-X",
    );
}

#[test]
fn anywoli_last_four_go_to_the_most_recent_receiver() {
    let mut game = game_from(
        "anywoli",
        "0-0-0-0-0-0-0-0-0-0-1-3-0-0-0-0-0-0-0-0-0-0-0-4-40-48-S-N-S",
    );
    game.play(mv("K")).unwrap();
    assert_eq!(game.ending(), Some(Ending::LastFour));
    assert_eq!(game.score(), [48, 48]);
    assert_eq!(game.result(), Some(GameResult::Draw));
}

#[test]
fn anywoli_last_four_by_first_capture_convention() {
    let mut game = Game::new(
        position(
            "anywoli",
            "0-0-0-0-0-0-0-0-0-0-1-3-0-0-0-0-0-0-0-0-0-0-0-4-40-48-S-N-N",
        ),
        LastFourRule::FirstCapture,
    );
    game.play(mv("K")).unwrap();
    // South received the most recent four, but North made the first last-seed capture.
    assert_eq!(game.score(), [44, 52]);
    assert_eq!(game.result(), Some(GameResult::NorthWins));
}

#[test]
fn anywoli_empty_board_ends_the_game() {
    let game = game_from(
        "anywoli",
        "0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-48-48-S-S-N",
    );
    assert_eq!(game.ending(), Some(Ending::BoardEmpty));
    assert_eq!(game.score(), [48, 48]);
}

#[test]
fn anywoli_leftover_goes_to_the_last_four_receiver_or_is_split() {
    let pos = position(
        "anywoli",
        "1-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-7-40-48-N-N-S",
    );
    assert_eq!(
        pos.final_totals(Ending::NoProgress, LastFourRule::FirstCapture),
        [40, 56]
    );
    let nobody = position(
        "anywoli",
        "1-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-7-40-48-N-X-X",
    );
    assert_eq!(
        nobody.final_totals(Ending::Repetition, LastFourRule::default()),
        [44, 52]
    );
}

// ---------------------------------------------------------------------------------------------
// Position strings

#[test]
fn start_position_strings() {
    let expected = [
        (Variant::MangalaII, "6-6-6-6-6-6-6-6-6-6-6-6-0-0-S"),
        (Variant::MangalaIV, "7-7-7-7-7-7-7-7-7-7-7-7-7-7-0-0-S"),
        (Variant::AlManqala, "7-7-7-7-7-7-7-7-7-7-7-7-7-7-0-0-S"),
        (
            Variant::Anywoli,
            "4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-X-X",
        ),
    ];
    for (v, text) in expected {
        assert_eq!(Position::start(v).to_string(), text);
        assert_eq!(
            Position::from_position_string(v, text),
            Ok(Position::start(v))
        );
    }
}

#[test]
fn malformed_position_strings_are_rejected_with_the_reason() {
    let v = Variant::MangalaII;
    let err = |s: &str| Position::from_position_string(v, s).unwrap_err();
    assert!(matches!(
        err("6-6-6-6-6-6-6-6-6-6-6-6-0-S"),
        PositionStringError::FieldCount {
            expected: 15,
            found: 14,
            ..
        }
    ));
    assert!(matches!(
        err(""),
        PositionStringError::FieldCount { found: 1, .. }
    ));
    assert!(matches!(
        err("6-6-6-6-6-6-6-6-6-6-6-6-0-0-S-X-X"),
        PositionStringError::FieldCount { found: 17, .. }
    ));
    for bad in [
        "x-6-6-6-6-6-6-6-6-6-6-6-0-0-S",
        "+6-6-6-6-6-6-6-6-6-6-6-6-0-0-S",
        "-6-6-6-6-6-6-6-6-6-6-6-0-0-S",
        "6-6-6-6-6-6-6-6-6-6-6-6- 0-0-S",
        "6-6-6-6-6-6-6-6-6-6-6-6-0-1.5-S",
        "99999999999999999999999-6-6-6-6-6-6-6-6-6-6-6-0-0-S",
    ] {
        assert!(
            matches!(err(bad), PositionStringError::BadCount { .. }),
            "{bad}"
        );
    }
    // A negative count splits into an extra field, so the field count catches it first.
    assert!(matches!(
        err("-6-6-6-6-6-6-6-6-6-6-6-6-0-0-S"),
        PositionStringError::FieldCount { .. }
    ));
    assert!(matches!(
        err("6-6-6-6-6-6-6-6-6-6-6-6-0-1-S"),
        PositionStringError::WrongTotal {
            expected: 72,
            found: 73,
            ..
        }
    ));
    for side in ["s", "W", "", "SN", "X"] {
        let text = format!("6-6-6-6-6-6-6-6-6-6-6-6-0-0-{side}");
        assert!(
            matches!(err(&text), PositionStringError::BadSide { .. }),
            "{text}"
        );
    }
    let anywoli = |s: &str| Position::from_position_string(Variant::Anywoli, s).unwrap_err();
    assert!(matches!(
        anywoli("4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-Y-X"),
        PositionStringError::BadHolder { .. }
    ));
    assert!(matches!(
        anywoli("4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"),
        PositionStringError::FieldCount { expected: 29, .. }
    ));
}

#[test]
fn position_string_errors_read_well() {
    let err = Position::from_position_string(Variant::MangalaII, "6-6-6-x-6-6-6-6-6-6-6-6-0-0-S")
        .unwrap_err();
    assert_eq!(err.to_string(), "pit D is 'x', not a non-negative integer");
}

// ---------------------------------------------------------------------------------------------
// Kalah

#[test]
fn kalah_sowing_passes_through_the_movers_store() {
    // C's four counters: D, E, F and South's store.
    check_move(
        "kalah",
        "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
        "A B C D E F",
        "C",
        "4-4-0-5-5-5-4-4-4-4-4-4-1-0-S",
    );
}

#[test]
fn kalah_sowing_skips_the_opponents_store() {
    // F's nine: South's store, a to f, then past North's store into A and B (B, empty before,
    // faces e's two: captured with the last counter).
    check_move(
        "kalah",
        "0-0-0-0-0-9-1-1-1-1-1-1-20-13-S",
        "F",
        "F",
        "1-0-0-0-0-0-2-2-2-2-0-2-24-13-N",
    );
    // North's hand goes through North's store, past South's, and ends in North's empty b,
    // facing E's two: North's store gains 1 + 3.
    let mut pos = position("kalah", "0-0-0-0-1-0-0-0-0-0-0-9-10-10-N");
    pos.play(mv("f")).unwrap();
    assert_eq!(pos.to_string(), "1-1-1-1-0-1-1-0-0-0-0-0-10-14-S");
}

#[test]
fn kalah_last_counter_in_the_movers_store_moves_again() {
    let effect = check_move(
        "kalah",
        "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
        "A B C D E F",
        "C",
        "4-4-0-5-5-5-4-4-4-4-4-4-1-0-S",
    );
    assert_eq!(
        effect.captured, 1,
        "a counter sown into the store counts as gained"
    );
    let mut pos = position("kalah", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-N");
    pos.play(mv("c")).unwrap();
    assert_eq!(pos.side_to_move(), Side::North);
}

#[test]
fn kalah_last_counter_in_an_empty_own_pit_takes_the_opposite_pit() {
    check_move(
        "kalah",
        "1-0-3-0-0-0-0-0-0-0-5-2-10-10-S",
        "A C",
        "A",
        "0-0-3-0-0-0-0-0-0-0-0-2-16-10-N",
    );
    // North's the same way: a into the empty b, facing E.
    let mut pos = position("kalah", "1-1-1-1-1-1-1-0-0-0-0-1-10-10-N");
    pos.play(mv("a")).unwrap();
    assert_eq!(pos.to_string(), "1-1-1-1-0-1-0-0-0-0-0-1-10-12-S");
}

#[test]
fn kalah_an_empty_own_pit_facing_an_empty_pit_takes_nothing() {
    check_move(
        "kalah",
        "1-0-0-0-0-3-0-0-0-0-0-2-10-10-S",
        "A F",
        "A",
        "0-1-0-0-0-3-0-0-0-0-0-2-10-10-N",
    );
}

#[test]
fn kalah_an_empty_pit_of_the_opponent_takes_nothing() {
    check_move(
        "kalah",
        "0-0-0-0-1-2-0-5-0-0-0-0-10-10-S",
        "E F",
        "F",
        "0-0-0-0-1-0-1-5-0-0-0-0-11-10-N",
    );
}

#[test]
fn kalah_a_lap_of_thirteen_ends_in_its_emptied_origin_and_captures() {
    // A's thirteen: B to F, the store, a to f, past North's store, and back into A (emptied
    // when lifted): A's counter and f's three go to the store.
    check_move(
        "kalah",
        "13-1-1-1-1-1-2-2-2-2-2-2-10-10-S",
        "A B C D E F",
        "A",
        "0-2-2-2-2-2-3-3-3-3-3-0-15-10-N",
    );
}

#[test]
fn kalah_either_row_empty_ends_the_game_and_each_takes_their_own_row() {
    // South's move empties South's row: North adds its 18 and wins.
    let mut game = game_from("kalah", "0-0-0-0-0-1-3-3-3-3-3-3-20-10-S");
    game.play(mv("F")).unwrap();
    assert_eq!(game.ending(), Some(Ending::RowEmpty));
    assert_eq!(game.score(), [21, 28]);
    assert_eq!(game.result(), Some(GameResult::NorthWins));
    // North's move empties North's row: South adds what is left in theirs.
    let mut game = game_from("kalah", "0-0-0-0-0-1-0-0-0-0-0-3-10-10-N");
    game.play(mv("f")).unwrap();
    assert_eq!(
        game.position().to_string(),
        "1-1-0-0-0-1-0-0-0-0-0-0-10-11-S"
    );
    assert_eq!(game.ending(), Some(Ending::RowEmpty));
    assert_eq!(game.score(), [13, 11]);
    // Equal stores are a draw.
    let game = game_from("kalah", "0-0-0-0-0-0-0-0-0-0-0-2-12-10-S");
    assert_eq!(game.result(), Some(GameResult::Draw));
}

#[test]
fn kalah_position_strings_take_any_total() {
    for count in 3..=6 {
        let text = format!("{count}-").repeat(12) + "0-0-S";
        let pos = position("kalah", &text);
        assert_eq!(pos.on_board(), 12 * count);
        assert_eq!(pos.to_string(), text);
    }
    // Oware's total is fixed.
    assert!(matches!(
        Position::from_position_string(Variant::Oware, "3-3-3-3-3-3-3-3-3-3-3-3-0-0-S")
            .unwrap_err(),
        PositionStringError::WrongTotal {
            expected: 48,
            found: 36,
            ..
        }
    ));
}

// ---------------------------------------------------------------------------------------------
// Oware

#[test]
fn oware_captures_twos_and_threes_of_the_opponents_row_only() {
    // B becomes 2 on South's own row: nothing is taken.
    check_move(
        "oware",
        "1-1-0-0-0-0-4-4-4-4-4-4-11-11-S",
        "A B",
        "A",
        "0-2-0-0-0-0-4-4-4-4-4-4-11-11-N",
    );
    // A 4 is not taken.
    check_move(
        "oware",
        "0-0-0-0-0-1-3-4-4-4-4-4-12-12-S",
        "F",
        "F",
        "0-0-0-0-0-0-4-4-4-4-4-4-12-12-N",
    );
}

#[test]
fn oware_capture_chain_runs_backwards_while_pits_hold_two_or_three() {
    // d (2), c (3) and b (2) are taken; a (1) stops the chain.
    check_move(
        "oware",
        "0-0-0-0-0-4-0-1-2-1-4-4-16-16-S",
        "F",
        "F",
        "0-0-0-0-0-0-1-0-0-0-4-4-23-16-N",
    );
}

#[test]
fn oware_capture_chain_stops_at_the_movers_own_row() {
    // a (2) is taken; F, holding 2 but South's own, is not.
    check_move(
        "oware",
        "0-0-0-0-2-1-1-4-4-4-4-4-12-12-S",
        "E F",
        "E",
        "0-0-0-0-0-2-0-4-4-4-4-4-14-12-N",
    );
}

#[test]
fn oware_grand_slam_is_played_and_takes_nothing() {
    check_move(
        "oware",
        "4-4-4-4-4-3-1-2-1-0-0-0-10-11-S",
        "A B C D E F",
        "F",
        "4-4-4-4-4-0-2-3-2-0-0-0-10-11-N",
    );
}

#[test]
fn oware_a_lap_of_twelve_or_more_skips_its_origin() {
    // F's twelve: a to f, A to E, past F, and a again (a then holds 2 and is taken).
    check_move(
        "oware",
        "0-0-0-0-0-12-0-0-0-0-0-0-18-18-S",
        "F",
        "F",
        "1-1-1-1-1-0-0-1-1-1-1-1-20-18-N",
    );
}

#[test]
fn oware_must_feed_an_empty_row() {
    check_move(
        "oware",
        "0-0-3-0-1-2-0-0-0-0-0-0-20-22-S",
        "F",
        "F",
        "0-0-3-0-1-0-1-1-0-0-0-0-20-22-N",
    );
    assert_eq!(
        illegal_reason("oware", "0-0-3-0-1-2-0-0-0-0-0-0-20-22-S", "C"),
        IllegalReason::DoesNotFeed
    );
}

#[test]
fn oware_when_no_move_can_feed_the_mover_takes_their_row() {
    let game = game_from("oware", "0-0-0-1-1-0-0-0-0-0-0-0-24-22-S");
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.ending(), Some(Ending::Starvation));
    assert_eq!(game.score(), [26, 22]);
    assert_eq!(game.result(), Some(GameResult::SouthWins));
}

#[test]
fn oware_more_than_half_captured_ends_the_game_at_once() {
    let mut game = game_from("oware", "0-0-0-0-0-2-1-2-0-0-0-4-23-16-S");
    game.play(mv("F")).unwrap();
    assert_eq!(game.ending(), Some(Ending::Majority));
    // The counters left on the board go to nobody.
    assert_eq!(game.score(), [28, 16]);
    assert_eq!(game.result(), Some(GameResult::SouthWins));
    // 24 each is a draw (with nothing left, the board is empty as well, which names the end).
    let game = game_from("oware", "0-0-0-0-0-0-0-0-0-0-0-0-24-24-S");
    assert_eq!(game.ending(), Some(Ending::BoardEmpty));
    assert_eq!(game.result(), Some(GameResult::Draw));
}

#[test]
fn oware_third_occurrence_gives_each_row_to_its_owner() {
    // One counter each, chasing each other round the board: twelve moves bring the position
    // back, and twenty-four make its third occurrence.
    let mut game = game_from("oware", "1-0-0-0-0-0-0-1-0-0-0-0-23-23-S");
    let cycle = "A b B c C d D e E f F a";
    play_line(&mut game, cycle);
    assert_eq!(game.ending(), None);
    play_line(&mut game, cycle);
    assert_eq!(game.ending(), Some(Ending::Repetition));
    assert_eq!(game.score(), [24, 24]);
}

// ---------------------------------------------------------------------------------------------
// Rules only game files use
// ---------------------------------------------------------------------------------------------

/// Oware's board without a pass: the player to move with an empty row ends the game.
fn no_pass_oware() -> Variant {
    let text = mancala_rules::definition::write(variant("oware").rules())
        .replace("name = \"oware\"", "name = \"oware-no-pass\"")
        .replace(
            "game-ends = \"majority\"",
            "game-ends = \"mover-row-empty\"",
        )
        .replace("must-feed = true", "must-feed = false");
    mancala_rules::definition::register(&text).unwrap()
}

#[test]
fn mover_row_empty_ends_the_game_and_each_takes_their_own_row() {
    let v = no_pass_oware();
    let pos = Position::from_position_string(v, "0-0-0-0-0-0-0-3-0-0-2-0-20-23-S").unwrap();
    let game = Game::new(pos, LastFourRule::default());
    assert_eq!(game.ending(), Some(Ending::RowEmpty));
    assert_eq!(game.score(), [20, 28]);
    // North's row empty with South to move is no end: South plays on.
    let pos = Position::from_position_string(v, "0-0-0-3-0-2-0-0-0-0-0-0-20-23-S").unwrap();
    let game = Game::new(pos, LastFourRule::default());
    assert_eq!(game.ending(), None);
    assert_eq!(game.legal_moves().to_string(), "D F");
}

// ---------------------------------------------------------------------------------------------
// A move told step by step (`Position::trace_move`, the protocol's `query sowing`)
// ---------------------------------------------------------------------------------------------

fn told(game: &str, text: &str, played: &str) -> String {
    let pos = position(game, text);
    let trace = pos.trace_move(mv(played)).unwrap();
    let mut after = pos;
    after.play(mv(played)).unwrap();
    let replayed = trace.replay(&pos);
    assert_eq!(replayed.pits(), after.pits(), "{text} {played}: {trace}");
    trace.to_string()
}

#[test]
fn a_move_is_told_counter_by_counter_with_its_store_and_extra_turn() {
    assert_eq!(
        told("kalah", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "C"),
        "C:4 D E F *S again"
    );
}

#[test]
fn a_capture_chain_is_told_from_the_landing_pit_backwards() {
    assert_eq!(
        told("oware", "0-0-0-0-0-2-1-2-0-0-0-4-23-16-S", "F"),
        "F:2 a b xb:3>S xa:2>S"
    );
    // A grand slam is sown and captures nothing.
    assert_eq!(
        told("oware", "0-0-0-0-0-2-1-2-0-0-0-0-24-19-S", "F"),
        "F:2 a b"
    );
}

#[test]
fn kalahs_capture_is_told_with_the_pit_facing_it() {
    assert_eq!(
        told("kalah", "1-0-3-0-0-0-0-0-0-0-5-2-10-10-S", "A"),
        "A:1 B xB:1>S xe:5>S"
    );
}

#[test]
fn relay_laps_and_anywolis_fours_are_told_lap_by_lap() {
    // Mangala IV: relays until a last counter makes 2 in g, taken with A across from it.
    let mangala_iv = told("mangala-iv", "7-7-7-7-7-7-7-7-7-7-7-7-7-7-0-0-S", "A");
    assert!(
        mangala_iv.starts_with("A:7 g f e d c b a a:8 "),
        "{mangala_iv}"
    );
    assert!(mangala_iv.ends_with(" xg:2>S xA:3>S"), "{mangala_iv}");
    // Anywoli: a lap that makes a pit 4 before its last counter gives it to the pit's owner.
    assert_eq!(
        told(
            "anywoli",
            "3-0-0-0-0-0-0-0-0-0-0-0-3-0-0-0-0-0-0-0-0-0-0-0-42-48-S-N-N",
            "A"
        ),
        "A:3 B C D"
    );
    let fours = told(
        "anywoli",
        "0-0-0-0-0-0-0-0-0-0-0-2-3-0-0-0-0-0-0-0-0-0-0-1-42-48-S-N-N",
        "L",
    );
    assert_eq!(fours, "L:2 a xa:4>N b");
}

#[test]
fn a_pass_is_told_as_nothing_and_an_illegal_move_is_refused() {
    let pos = position("mangala-ii", "0-0-0-0-0-0-0-0-1-0-0-0-36-35-S");
    assert_eq!(pos.trace_move(Move::PASS).unwrap().to_string(), "pass");
    assert!(pos.trace_move(mv("A")).is_err());
}

/// The distance to the stores (what the tables sort a layer of a game with stores by): each
/// counter weighted by its steps to its owner's store, the store one step past the row's last
/// pit, along either sowing direction; none in a game without stores in the sowing.
#[test]
fn the_distance_to_the_stores_weighs_each_counter_by_its_steps_to_its_store() {
    // South A = 1 and F = 2, North f = 3.
    let board = [1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 3];
    let kalah = *variant("kalah").rules();
    assert_eq!(kalah.distance_to_stores(&board), Some(6 + 2 + 3));
    let clockwise = mancala_rules::Rules {
        direction: mancala_rules::Direction::Clockwise,
        ..kalah
    };
    assert_eq!(
        clockwise.distance_to_stores(&board),
        Some(1 + 2 * 6 + 3 * 6)
    );
    assert_eq!(
        variant("mangala-ii").rules().distance_to_stores(&board),
        None
    );
    // One move within South's row: its counter one pit nearer.
    let before = position("kalah", "0-1-0-0-0-0-0-0-0-0-0-1-0-0-S");
    let mut after = before;
    after.play(mv("B")).unwrap();
    assert_eq!(after.to_string(), "0-0-1-0-0-0-0-0-0-0-0-1-0-0-N");
    assert_eq!(kalah.distance_to_stores(before.pits()), Some(5 + 1));
    assert_eq!(kalah.distance_to_stores(after.pits()), Some(4 + 1));
}

/// Where every counter ends with a player, a final margin has the parity of the counters in
/// the game; the rules say so only where that is certain.
#[test]
fn the_margin_parity_is_known_only_where_no_counter_can_go_to_nobody() {
    let parity = |game: &str, text: &str| position(game, text).margin_parity();
    // Al-manqala takes only 2s and 4s: an even board stays even, and splits lose nothing.
    assert_eq!(
        parity("al-manqala", "4-4-4-4-4-4-4-4-4-4-4-4-4-4-21-21-S"),
        Some(0)
    );
    // An odd board (typed by hand) may end split evenly, its odd counter to nobody.
    assert_eq!(
        parity("al-manqala", "1-0-0-0-0-0-0-0-0-0-0-0-0-0-48-49-S"),
        None
    );
    // Mangala II: 2s, 4s and 6s.
    assert_eq!(
        parity("mangala-ii", "6-6-6-6-6-6-6-6-6-6-6-6-0-0-S"),
        Some(0)
    );
    // Kalah gives every counter to a row's owner, whatever the board: odd games too.
    assert_eq!(parity("kalah", "1-0-0-0-0-0-0-0-0-0-0-0-0-0-S"), Some(1));
    assert_eq!(parity("kalah", "3-3-3-3-3-3-3-3-3-3-3-3-0-0-S"), Some(0));
    // Mangala IV takes the facing pit too, but its leftover goes to the rows' owners.
    assert_eq!(
        parity("mangala-iv", "7-7-7-7-7-7-7-7-7-7-7-7-7-7-0-0-S"),
        Some(0)
    );
    // Anywoli takes fours, and splits only a multiple of four.
    assert_eq!(
        parity(
            "anywoli",
            "4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-X-X"
        ),
        Some(0)
    );
    // Oware's majority end leaves the board to nobody.
    assert_eq!(parity("oware", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"), None);
}

/// What a GUI prints of a finished game: the ending and the result in the words of the engine's
/// replies (`d` says "Game over: board empty (South wins 40-32)").
#[test]
fn endings_and_results_print_as_the_replies_say_them() {
    use mancala_rules::{Ending, GameResult};
    assert_eq!(Ending::BoardEmpty.to_string(), "board empty");
    assert_eq!(Ending::LastFour.to_string(), "last four");
    assert_eq!(GameResult::from_totals([40, 32]).to_string(), "South wins");
    assert_eq!(GameResult::from_totals([10, 38]).to_string(), "North wins");
    assert_eq!(GameResult::from_totals([24, 24]).to_string(), "draw");
}
