//! One named test per rule that game files have for the MancalaGames catalogue (RULES.md, "Games
//! as data"), each on a small game of its own and board literals. Boards are 2×3 unless said:
//! South's `A B C` are pits 0 to 2, North's `a b c` pits 3 to 5, sown counter-clockwise
//! `A B C a b c A …` unless the game says otherwise.

use mancala_rules::{
    Ending, Game, GameResult, IllegalReason, LastFourRule, Move, Position, Side, SowStep, Variant,
    definition,
};

/// Registers a 2×3 game of any total with `rules` added to its file.
fn game(name: &str, rules: &str) -> Variant {
    definition::register(&format!(
        "name = \"{name}\"\npits-per-row = 3\nstart = 2\nany-total = true\n{rules}"
    ))
    .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn position(variant: Variant, text: &str) -> Position {
    Position::from_position_string(variant, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn mv(name: &str) -> Move {
    name.parse().unwrap()
}

/// Plays `played` from `before` and returns the position and whether the move was endless.
fn play(variant: Variant, before: &str, played: &str) -> (String, bool) {
    let mut pos = position(variant, before);
    let effect = pos.play(mv(played)).unwrap();
    (pos.to_string(), effect.endless)
}

fn final_totals(variant: Variant, text: &str) -> (Ending, [u32; 2]) {
    let pos = position(variant, text);
    let ending = pos.own_ending().expect("the position ends the game");
    (ending, pos.final_totals(ending, LastFourRule::default()))
}

// ---------------------------------------------------------------------------------------------
// Relay sowing that ends in a one-lap capture

#[test]
fn relay_sows_on_from_a_landing_pit_that_held_counters() {
    let relay = game("relay-on", "laps = \"relay\"\ncapture-counts = [4]\n");
    // `A` sows `B C`; `C` now holds 2, which no capture takes: lifted and sown into `a b`.
    // `a` becomes 4 on the way (not the last counter: no capture); `b` held nothing: the end.
    assert_eq!(
        play(relay, "2-0-1-3-0-0-0-0-S", "A"),
        ("0-1-0-4-1-0-0-0-N".to_string(), false)
    );
}

#[test]
fn relay_stops_where_the_last_counter_makes_a_capture() {
    let relay = game("relay-capture", "laps = \"relay\"\ncapture-counts = [4]\n");
    // `A` sows `B C`; `C` becomes 4: captured, and the move ends there.
    assert_eq!(
        play(relay, "2-0-3-1-0-0-0-0-S", "A"),
        ("0-1-0-1-0-0-4-0-N".to_string(), false)
    );
}

#[test]
fn relay_with_the_empty_pit_capture_ends_in_an_empty_pit() {
    let relay = game(
        "relay-empty",
        "laps = \"relay\"\ncapture-empty-opposite = true\ncapture-side = \"own\"\n",
    );
    // `A` sows `B`: 2 there, relay: `C a`; `a` (North's) held nothing: the end, no capture.
    assert_eq!(
        play(relay, "1-1-0-0-0-5-0-0-S", "A"),
        ("0-0-1-1-0-5-0-0-N".to_string(), false)
    );
    // `B` sows `C`, which held nothing and faces `a`: both taken.
    assert_eq!(
        play(relay, "0-1-0-3-0-0-0-0-S", "B"),
        ("0-0-0-0-0-0-4-0-N".to_string(), false)
    );
}

#[test]
fn a_move_longer_than_the_lap_limit_is_endless() {
    let limited = game(
        "relay-limited",
        "laps = \"relay\"\ncapture-counts = [4]\nlap-limit = 1\n",
    );
    // The first lap ends in `C` (2): another lap would be the second, over the limit. The move
    // stops there, the game is over, and `C` keeps its counters.
    assert_eq!(
        play(limited, "2-0-1-3-0-0-0-0-S", "A"),
        ("0-1-2-3-0-0-0-0-N".to_string(), true)
    );
    let mut game = Game::new(
        position(limited, "2-0-1-3-0-0-0-0-S"),
        LastFourRule::default(),
    );
    game.play(mv("A")).unwrap();
    assert_eq!(game.ending(), Some(Ending::EndlessMove));
}

// ---------------------------------------------------------------------------------------------
// Captures

#[test]
fn the_empty_pit_capture_may_leave_the_last_counter() {
    let leaves = game(
        "leaves-own",
        "capture-empty-opposite = true\ncapture-side = \"own\"\ncapture-takes-own = false\n",
    );
    // `A` sows `B`, which was empty and faces `b` (3): `b` is taken, `B` keeps its counter.
    assert_eq!(
        play(leaves, "1-0-0-0-3-0-0-0-S", "A"),
        ("0-1-0-0-0-0-3-0-N".to_string(), false)
    );
}

#[test]
fn a_chain_may_go_on_past_the_pit_the_lap_came_from() {
    // 13 counters from `A`: two laps (`A` itself gets 2) and `B` once more: `B` 3, `C a b` 2,
    // `c` 4. The chain takes `B` (3), then `A` (2) unless it stops at the origin; `c` (4) ends it.
    let stops = game(
        "chain-stops",
        "capture-counts = [2, 3]\ncapture-chain = true\n",
    );
    let goes_on = game(
        "chain-goes-on",
        "capture-counts = [2, 3]\ncapture-chain = true\nchain-stops-at-origin = false\n",
    );
    assert_eq!(
        play(stops, "13-0-0-0-0-2-0-0-S", "A").0,
        "2-0-2-2-2-4-3-0-N"
    );
    assert_eq!(
        play(goes_on, "13-0-0-0-0-2-0-0-S", "A").0,
        "0-0-2-2-2-4-5-0-N"
    );
}

#[test]
fn a_grand_slam_is_a_capture_of_a_row_that_held_counters() {
    let slam = game(
        "slam",
        "capture-counts = [1, 2]\ncapture-side = \"opponent\"\ncapture-chain = true\n\
         grand-slam = \"captures-nothing-if-held\"\n",
    );
    // North's `a b` held 1 each: `C` makes them 2 and 2, the whole row; nothing is taken.
    assert_eq!(play(slam, "0-0-2-1-1-0-0-0-S", "C").0, "0-0-0-2-2-0-0-0-N");
    // North's row held nothing: `C` makes `a b` 1 and 1, and they are taken.
    assert_eq!(play(slam, "0-0-2-0-0-0-0-0-S", "C").0, "0-0-0-0-0-0-2-0-N");
}

#[test]
fn a_plain_grand_slam_rule_counts_a_row_the_move_filled_too() {
    let slam = game(
        "slam-any-row",
        "capture-counts = [1, 2]\ncapture-side = \"opponent\"\ncapture-chain = true\n\
         grand-slam = \"captures-nothing\"\n",
    );
    // North's row held nothing; `C` makes `a b` 1 and 1, its whole row: nothing is taken.
    assert_eq!(play(slam, "0-0-2-0-0-0-0-0-S", "C").0, "0-0-0-1-1-0-0-0-N");
}

#[test]
fn a_grand_slam_may_leave_the_first_pit_from_one_end() {
    let rule = |end: &str| {
        game(
            &format!("slam-leaves-{end}"),
            &format!(
                "capture-counts = [1, 2]\ncapture-side = \"opponent\"\ncapture-chain = true\n\
                 grand-slam = \"leaves-{end}\"\n"
            ),
        )
    };
    // `C` makes North's `a b c` 2 each, the whole row. From South's seat `a` is on the right.
    assert_eq!(
        play(rule("rightmost"), "0-0-3-1-1-1-0-0-S", "C").0,
        "0-0-0-2-0-0-4-0-N"
    );
    assert_eq!(
        play(rule("leftmost"), "0-0-3-1-1-1-0-0-S", "C").0,
        "0-0-0-0-0-2-4-0-N"
    );
    // A single pit holding counters is taken all the same.
    assert_eq!(
        play(rule("rightmost"), "0-0-1-1-0-0-0-0-S", "C").0,
        "0-0-0-0-0-0-2-0-N"
    );
}

#[test]
fn a_grand_slam_may_capture_and_give_the_mover_another_move() {
    let slam = game(
        "slam-moves-again",
        "capture-counts = [1, 2]\ncapture-side = \"opponent\"\ncapture-chain = true\n\
         grand-slam = \"captures-and-moves-again\"\nmust-feed = true\n\
         unfed = \"starved-player-takes-all\"\n",
    );
    // North's `a b` held 1 each: `C` makes them 2 and 2, the whole row, taken; South moves again.
    assert_eq!(play(slam, "1-0-2-1-1-0-0-0-S", "C").0, "1-0-0-0-0-0-4-0-S");
    // And must feed North: `A` reaches no North pit, so the game ends and North, the starved
    // player, takes the counter left.
    let pos = position(slam, "1-0-0-0-0-0-4-0-S");
    assert_eq!(pos.legal_moves().to_string(), "");
    assert_eq!(final_totals(slam, "1-0-0-0-0-0-4-0-S").1, [4, 1]);
    // Feeding asks for counters left to North after the move's captures: a move that fills
    // North's empty row and takes it all back is no move.
    assert_eq!(
        position(slam, "0-0-2-0-0-0-0-0-S")
            .legal_moves()
            .to_string(),
        ""
    );
    // Without feeding: North's row held nothing before the move, so the capture is no grand
    // slam, and North moves.
    let unfed = game(
        "slam-moves-again-unfed",
        "capture-counts = [1, 2]\ncapture-side = \"opponent\"\ncapture-chain = true\n\
         grand-slam = \"captures-and-moves-again\"\n",
    );
    assert_eq!(play(unfed, "0-0-2-0-0-0-0-0-S", "C").0, "0-0-0-0-0-0-2-0-N");
    // A capture that leaves North a counter gives no other move.
    assert_eq!(play(slam, "0-0-2-1-0-1-0-0-S", "C").0, "0-0-0-0-0-1-3-0-N");
}

// ---------------------------------------------------------------------------------------------
// Which pits move, and which way

#[test]
fn a_pit_below_the_least_move_cannot_be_played() {
    let two = game("min-two", "min-move = 2\n");
    let pos = position(two, "1-2-0-1-1-0-0-0-S");
    assert_eq!(pos.legal_moves().to_string(), "B");
    assert_eq!(
        pos.check_move(mv("A")).unwrap_err().reason,
        IllegalReason::TooFewToMove
    );
    // A player without such a pit passes; a board without any ends the game.
    assert_eq!(
        position(two, "1-1-0-2-0-0-0-0-S").legal_moves().to_string(),
        "pass"
    );
    assert_eq!(
        position(two, "1-1-0-1-0-1-0-0-S").own_ending(),
        Some(Ending::Immobile)
    );
}

#[test]
fn the_hand_s_parity_chooses_the_direction() {
    let parity = game("by-parity", "direction-by = \"hand-parity\"\n");
    // An odd hand sows counter-clockwise: `A` (1) into `B`.
    assert_eq!(
        play(parity, "1-0-0-1-0-0-0-0-S", "A").0,
        "0-1-0-1-0-0-0-0-N"
    );
    // An even hand clockwise: `A` (2) into `c b`.
    assert_eq!(
        play(parity, "2-0-0-1-0-0-0-0-S", "A").0,
        "0-0-0-1-1-1-0-0-N"
    );
}

#[test]
fn each_half_row_sows_out_over_its_own_end() {
    let halves = definition::register(
        "name = \"by-halves\"\npits-per-row = 4\nstart = 2\nany-total = true\n\
         direction-by = \"row-halves\"\n",
    )
    .unwrap();
    // South's left half (`A B`) sows clockwise: `B` (2) into `A` and North's `d`.
    assert_eq!(
        play(halves, "0-2-0-0-0-0-0-1-0-0-S", "B").0,
        "1-0-0-0-0-0-0-2-0-0-N"
    );
    // Its right half (`C D`) counter-clockwise: `C` (2) into `D a`.
    assert_eq!(
        play(halves, "0-0-2-0-0-0-0-1-0-0-S", "C").0,
        "0-0-0-1-1-0-0-1-0-0-N"
    );
}

#[test]
fn a_store_at_the_right_end_is_reached_after_the_opponent_s_row_going_clockwise() {
    let right = game(
        "store-right",
        "direction = \"clockwise\"\nsow-own-store = true\nstore-at-right = true\n",
    );
    // `A` (4) sows `c b a`, then South's store (between North's `a` and South's `C`).
    assert_eq!(play(right, "4-0-0-0-0-0-0-0-S", "A").0, "0-0-0-1-1-1-1-0-N");
    // `A` (1) sows `c`: the store is not next to `A`.
    assert_eq!(play(right, "1-0-0-0-0-0-0-0-S", "A").0, "0-0-0-0-0-1-0-0-N");
    // Where the store is where the sowing leaves the row, `A` (1) drops its counter there.
    let leaving = game(
        "store-leaving",
        "direction = \"clockwise\"\nsow-own-store = true\n",
    );
    assert_eq!(
        play(leaving, "1-0-0-0-0-0-0-0-S", "A").0,
        "0-0-0-0-0-0-1-0-N"
    );
}

// ---------------------------------------------------------------------------------------------
// How a game ends, and who takes what is left

#[test]
fn a_majority_ends_the_game_besides_its_own_end() {
    // 12 counters in all (a majority needs a fixed total).
    let fixed = definition::register(
        "name = \"majority-fixed\"\npits-per-row = 3\nstart = 2\nmajority-ends = true\n\
         capture-counts = [2]\n",
    )
    .unwrap();
    assert_eq!(
        position(fixed, "1-0-0-1-1-2-7-0-N").own_ending(),
        Some(Ending::Majority)
    );
    assert_eq!(position(fixed, "1-0-0-1-1-3-6-0-N").own_ending(), None);
}

#[test]
fn too_few_counters_for_a_capture_end_the_game() {
    let few = game(
        "too-few",
        "capture-counts = [3]\nends-below = 3\nleftover = \"row-owner\"\n",
    );
    assert_eq!(
        final_totals(few, "1-0-0-0-1-0-5-5-S"),
        (Ending::TooFew, [6, 6])
    );
    assert_eq!(position(few, "1-0-0-0-2-0-5-5-S").own_ending(), None);
}

#[test]
fn the_leftover_rules_share_what_is_left() {
    let rule = |leftover: &str| {
        game(
            &format!("leftover-{leftover}"),
            &format!("ends-below = 3\nleftover = \"{leftover}\"\n"),
        )
    };
    // Nobody scores the two counters left.
    assert_eq!(final_totals(rule("nobody"), "1-0-0-1-0-0-5-5-S").1, [5, 5]);
    // One left: it goes to the player behind, and to North when level.
    let trailing = rule("split-odd-to-trailing");
    assert_eq!(final_totals(trailing, "1-0-0-0-0-0-6-5-S").1, [6, 6]);
    assert_eq!(final_totals(trailing, "1-0-0-0-0-0-5-5-S").1, [5, 6]);
    assert_eq!(final_totals(trailing, "1-0-0-1-0-0-5-5-S").1, [6, 6]);
    // The player who moved last (North, South being to move) takes both.
    assert_eq!(
        final_totals(rule("last-mover"), "1-0-0-1-0-0-5-5-S").1,
        [5, 7]
    );
}

#[test]
fn a_mover_without_counters_ends_the_game_and_the_leftover_rule_shares_the_rest() {
    let nobody = game(
        "mover-empty-nobody",
        "game-ends = \"mover-row-empty\"\nleftover = \"nobody\"\n",
    );
    assert_eq!(
        final_totals(nobody, "0-0-0-1-2-0-4-5-S"),
        (Ending::RowEmpty, [4, 5])
    );
}

#[test]
fn a_random_deal_is_a_deal_of_the_game_asked_for() {
    let forced = definition::register(
        "name = \"forced-small\"\npits-per-row = 4\nstart = 3\nmoves = \"leftmost\"\n",
    )
    .unwrap();
    for seed in 0..20 {
        let deal = Position::random_deal(forced, seed);
        assert_eq!(deal.variant(), forced);
        assert_eq!(deal.pits().len(), 8);
        assert_eq!(deal.pits().iter().map(|&c| c as u32).sum::<u32>(), 24);
        assert!(
            deal.pits().iter().all(|&c| c >= 2),
            "two in every pit first"
        );
    }
    // Mangala IV's deal is the same deal of its own game.
    assert_eq!(
        Position::random_deal(Variant::MangalaIV, 7),
        Position::mangala_iv_deal(7)
    );
}

#[test]
fn a_move_filter_keeps_the_pits_its_rule_allows() {
    let away = game("filter-away", "move-filter = \"ends-away-or-empty\"\n");
    // `A` (1) would end in `B`, an own pit that holds counters; `B` ends in `C`, empty.
    let pos = position(away, "1-1-0-0-2-0-0-0-S");
    assert_eq!(pos.legal_moves().to_string(), "B");
    assert_eq!(
        pos.check_move(mv("A")).unwrap_err().reason,
        IllegalReason::Filtered
    );
    let single = game("filter-single", "move-filter = \"single-into-empty\"\n");
    // A single counter into an empty pit (`A` into `B`), not into one that holds some (`C`
    // into `a`); a larger hand as it likes.
    assert_eq!(
        position(single, "1-0-1-1-0-0-0-0-S")
            .legal_moves()
            .to_string(),
        "A"
    );
    assert_eq!(
        position(single, "1-0-2-1-0-0-0-0-S")
            .legal_moves()
            .to_string(),
        "A C"
    );
    let ones = game("filter-ones", "move-filter = \"one-only-if-all\"\n");
    assert_eq!(
        position(ones, "1-2-0-1-0-0-0-0-S")
            .legal_moves()
            .to_string(),
        "B"
    );
    assert_eq!(
        position(ones, "1-1-0-1-0-0-0-0-S")
            .legal_moves()
            .to_string(),
        "A B"
    );
}

#[test]
fn a_player_the_filter_leaves_without_a_move_passes_or_the_game_ends() {
    let passes = game("filter-pass", "move-filter = \"single-into-empty\"\n");
    assert_eq!(
        position(passes, "0-0-1-1-0-0-0-0-S")
            .legal_moves()
            .to_string(),
        "pass"
    );
    let ends = game(
        "filter-ends",
        "move-filter = \"single-into-empty\"\ngame-ends = \"mover-row-empty\"\n\
         leftover = \"row-owner\"\n",
    );
    assert_eq!(
        final_totals(ends, "0-0-1-1-0-0-0-0-S"),
        (Ending::NoLegalMove, [1, 1])
    );
}

#[test]
fn a_pit_made_capturable_in_passing_is_taken_at_once() {
    let rule = |who: &str| {
        game(
            &format!("passing-{who}"),
            &format!("capture-counts = [4]\npassing-captures = \"{who}\"\n"),
        )
    };
    // `A` (3) sows `B C a`: `B` becomes 4 on the way (South's pit), `a` 4 with the last counter.
    let before = "3-3-0-3-0-0-0-0-S";
    // To the pit's owner, the last counter's pit captured as usual (by the mover).
    assert_eq!(play(rule("to-owner"), before, "A").0, "0-0-1-0-0-0-8-0-N");
    // To the mover.
    assert_eq!(play(rule("to-mover"), before, "A").0, "0-0-1-0-0-0-8-0-N");
    // Only in the opponent's row: `B` stays; `a` is the last counter's, captured as usual.
    assert_eq!(
        play(rule("to-mover-in-opponent-row"), before, "A").0,
        "0-4-1-0-0-0-4-0-N"
    );
    // North sows `c A B` from `b`: `c` (North's) and `A` (South's) become 4 on the way, `B`
    // with the last counter.
    let north = "3-3-0-0-3-3-0-0-N";
    assert_eq!(play(rule("to-owner"), north, "b").0, "0-0-0-0-0-0-4-8-S");
    assert_eq!(play(rule("to-mover"), north, "b").0, "0-0-0-0-0-0-0-12-S");
    // The last counter's pit to its owner as well: `c` (North's, made 4 by the last counter of
    // `a`'s 2 counters `b c`) goes to North, whoever sows.
    assert_eq!(
        play(rule("to-owner-last-too"), "0-0-0-2-0-3-0-0-N", "a").0,
        "0-0-0-0-1-0-0-4-S"
    );
}

#[test]
fn a_relay_from_the_next_pit_goes_on_while_that_pit_holds_counters() {
    let next = game(
        "relay-next",
        "laps = \"relay\"\nrelay-from = \"next-pit\"\ncapture-counts = [4]\n",
    );
    // `A` (1) sows `B`; the pit after it, `C`, holds 2: lifted, sown into `a b`; `c` after `b`
    // is empty: the move ends.
    assert_eq!(play(next, "1-0-2-0-0-0-0-0-S", "A").0, "0-1-0-1-1-0-0-0-N");
}

#[test]
fn a_lap_may_first_put_one_counter_into_the_store() {
    let toll = game(
        "store-one",
        "laps = \"relay\"\ncapture-counts = [4]\nstore-one-per-lap = true\n",
    );
    // `A` (3): one counter to South's store, `B C` sown; `C` then holds 2: its lap too gives
    // one to the store and sows `a`, which held nothing: the end.
    assert_eq!(play(toll, "3-0-1-0-0-0-0-0-S", "A").0, "0-1-0-1-0-0-2-0-N");
}

#[test]
fn a_move_cut_by_the_lap_limit_is_told_as_far_as_it_is_played() {
    let limited = game(
        "relay-told-limit",
        "laps = \"relay\"\ncapture-counts = [4]\nlap-limit = 1\n",
    );
    let before = position(limited, "2-0-1-3-0-0-0-0-S");
    let trace = before.trace_move(mv("A")).unwrap();
    assert_eq!(trace.steps.last(), Some(&SowStep::Endless), "{trace}");
    let mut after = before;
    after.play(mv("A")).unwrap();
    assert_eq!(trace.replay(&before).pits(), after.pits(), "{trace}");
}

// ---------------------------------------------------------------------------------------------
// A match of rounds

/// Registers a 2×3 match of rounds, 2 a pit (12 counters), captures on 2, the empty board ending
/// a round, with `rules` added to its file.
fn rounds_game(name: &str, rules: &str) -> Variant {
    game_file(&format!(
        "name = \"{name}\"\npits-per-row = 3\nstart = 2\ncapture-counts = [2]\n\
         leftover = \"row-owner\"\nrounds = true\nround-blocks = true\n{rules}"
    ))
}

fn game_file(text: &str) -> Variant {
    definition::register(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn a_round_that_ends_deals_the_next_from_what_each_player_holds() {
    let rounds = rounds_game("rounds-deal", "round-fill = \"from-right\"\n");
    // `C` sows into `a`, which makes 2: captured, and the board is empty. South holds 8 (three
    // pits of 2, and 2 left in the store); North 4: its two rightmost pits `c b`, and `a` is
    // blocked. North did not start this round: North starts the next.
    let mut game = Game::new(
        position(rounds, "0-0-1-1-0-0-6-4-S-S"),
        LastFourRule::default(),
    );
    game.play(mv("C")).unwrap();
    assert_eq!(game.position().to_string(), "2-2-2-x-2-2-2-0-N-N");
    let end = game.round_end().expect("the move ended a round");
    assert_eq!((end.ending, end.totals), (Ending::BoardEmpty, [8, 4]));
    assert!(!game.is_over());
    assert_eq!(game.rounds_ended(), 1);
    // Filled from the left instead, North's `a b` are filled and `c` is blocked.
    let left = rounds_game("rounds-deal-left", "round-fill = \"from-left\"\n");
    let mut game = Game::new(
        position(left, "0-0-1-1-0-0-6-4-S-S"),
        LastFourRule::default(),
    );
    game.play(mv("C")).unwrap();
    assert_eq!(game.position().to_string(), "2-2-2-2-2-x-2-0-N-N");
    // Taken back, the round is as it was.
    game.undo(1).unwrap();
    assert_eq!(game.position().to_string(), "0-0-1-1-0-0-6-4-S-S");
    assert_eq!(game.round_end(), None);
}

#[test]
fn a_blocked_pit_is_passed_by_and_cannot_be_played() {
    let rounds = rounds_game("rounds-blocked", "");
    // `A` sows `B C`, passes the blocked `a`, and drops its last counter in `b`.
    assert_eq!(
        play(rounds, "3-0-0-x-0-0-3-6-S-S", "A"),
        ("0-1-1-x-1-0-3-6-N-S".to_string(), false)
    );
    // A blocked pit holds nothing: no move from it, and its string says `x`, not a count.
    let pos = position(rounds, "3-0-0-x-1-0-2-6-N-S");
    assert_eq!(pos.legal_moves().to_string(), "b");
    assert!(pos.is_blocked(3) && !pos.is_blocked(4));
    // A game whose rounds block nothing has no `x`; every match of rounds says who started.
    let open = game_file(
        "name = \"rounds-open\"\npits-per-row = 3\nstart = 2\ncapture-counts = [2]\n\
         leftover = \"row-owner\"\nrounds = true\n",
    );
    let error = Position::from_position_string(open, "3-0-0-x-1-0-2-6-N-S").unwrap_err();
    assert_eq!(
        error.to_string(),
        "pit a is blocked ('x'), but this game blocks no pits"
    );
    let error = Position::from_position_string(rounds, "3-0-0-x-1-0-2-6-N").unwrap_err();
    assert!(error.to_string().contains("10 fields"), "{error}");
    // A row all blocked is no round's: refused (with the origin skipped, a hand there would have
    // nowhere to fall).
    let skipping = rounds_game(
        "rounds-skipping",
        "skip-origin = true
",
    );
    let error = Position::from_position_string(skipping, "x-x-x-4-0-0-2-6-N-S").unwrap_err();
    assert_eq!(
        error.to_string(),
        "every pit of South's row is blocked ('x'): a round leaves one open"
    );
    // One open pit a row is enough: the hand passes the blocked pits and its own.
    assert_eq!(
        play(skipping, "x-x-3-4-x-x-1-4-S-S", "C"),
        ("x-x-0-7-x-x-1-4-N-S".to_string(), false)
    );
}

#[test]
fn the_next_round_s_starter_follows_the_game_s_rule() {
    let starter = |rule: &str, totals: [u32; 2], last_mover: Side| {
        let rounds = rounds_game(
            &format!("rounds-starter-{rule}"),
            &format!("round-starter = \"{rule}\"\n"),
        );
        // North started this round (the last field).
        let ended = position(rounds, "0-0-0-0-0-0-6-6-S-N");
        let next = ended.next_round(totals, last_mover).expect("both go on");
        assert_eq!(next.side_to_move(), next.round_starter());
        next.side_to_move()
    };
    use Side::{North, South};
    assert_eq!(starter("alternate", [8, 4], North), South);
    assert_eq!(starter("loser", [8, 4], North), North);
    assert_eq!(starter("winner", [8, 4], North), South);
    assert_eq!(starter("winner", [4, 8], South), North);
    assert_eq!(starter("last-mover", [8, 4], North), North);
    // After a drawn round the result chooses nobody; as MancalaGames has it, the loser rule
    // gives the start to the player not to move at its end (here North, as South is to move),
    // the winner rule to the player to move.
    assert_eq!(starter("loser", [6, 6], North), North);
    assert_eq!(starter("winner", [6, 6], North), South);
}

/// Registers a 2×3 match of rounds won (two to win), 2 a pit (12 counters), captures on 2, the
/// empty board ending a round, with `rules` added to its file.
fn rounds_won_game(name: &str, rules: &str) -> Variant {
    game_file(&format!(
        "name = \"{name}\"\npits-per-row = 3\ncapture-counts = [2]\nleftover = \"row-owner\"\n\
         rounds = true\nrounds-to-win = 2\n{rules}"
    ))
}

fn match_from(variant: Variant, text: &str) -> Game {
    Game::new(position(variant, text), LastFourRule::default())
}

#[test]
fn a_won_round_scores_and_the_next_round_is_dealt_as_the_first() {
    let won = rounds_won_game("rounds-won-deal", "start = 2\n");
    // `C` sows into `a`, which makes 2: captured, and the board is empty; South holds 8 against
    // 4 and wins the round. The next is the start again, North (who did not start this one)
    // to move, South one round up.
    let mut game = match_from(won, "0-0-1-1-0-0-6-4-S-S-0:0");
    game.play(mv("C")).unwrap();
    let end = game.round_end().expect("the move ended a round");
    assert_eq!((end.ending, end.totals), (Ending::BoardEmpty, [8, 4]));
    assert_eq!(game.position().to_string(), "2-2-2-2-2-2-0-0-N-N-1:0");
    assert_eq!(game.position().round_wins(), [1, 0]);
    assert!(!game.is_over());
    // The start itself has no round won yet.
    assert_eq!(Position::start(won).to_string(), "2-2-2-2-2-2-0-0-S-S-0:0");
}

#[test]
fn the_first_to_win_the_rounds_to_win_wins_the_match() {
    let won = rounds_won_game("rounds-won-end", "start = 2\n");
    // South's second round win ends the match: the round's end is the match's.
    let mut game = match_from(won, "0-0-1-1-0-0-6-4-S-N-1:0");
    game.play(mv("C")).unwrap();
    assert!(game.is_over());
    assert_eq!(game.round_end(), None);
    assert_eq!(game.ending(), Some(Ending::BoardEmpty));
    assert_eq!(game.result(), Some(GameResult::SouthWins));
    // North winning that round instead evens the match, which goes on.
    let mut game = match_from(won, "0-0-1-1-0-0-2-8-S-N-1:0");
    game.play(mv("C")).unwrap();
    assert_eq!(game.position().to_string(), "2-2-2-2-2-2-0-0-S-S-1:1");
    // A position string never shows a match already won: at most one win fewer each.
    let error = Position::from_position_string(won, "2-2-2-2-2-2-0-0-S-S-2:0").unwrap_err();
    assert_eq!(
        error.to_string(),
        "the rounds-won field is '2:0', expected South's and North's round wins as S:N, each \
         from 0 to 1"
    );
    for bad in ["1-0", "1", "a:0", "1:0:0"] {
        let text = format!("2-2-2-2-2-2-0-0-S-S-{bad}");
        assert!(
            Position::from_position_string(won, &text).is_err(),
            "{text}"
        );
    }
}

#[test]
fn a_drawn_round_scores_nobody_and_the_other_player_starts_the_next() {
    // Whatever the starter rule says, as MancalaGames has it.
    for rule in ["alternate", "loser", "winner", "last-mover"] {
        let won = rounds_won_game(
            &format!("rounds-won-draw-{rule}"),
            &format!("start = 2\nround-starter = \"{rule}\"\n"),
        );
        // 6 each: nobody scores; South started, North starts the next.
        let mut game = match_from(won, "0-0-1-1-0-0-4-6-S-S-1:0");
        game.play(mv("C")).unwrap();
        assert_eq!(
            game.round_end().map(|end| end.totals),
            Some([6, 6]),
            "{rule}"
        );
        assert_eq!(
            game.position().to_string(),
            "2-2-2-2-2-2-0-0-N-N-1:0",
            "{rule}"
        );
    }
    // A won round follows the rule: the loser (North) starts under "loser".
    let loser = rounds_won_game("rounds-won-loser", "start = 2\nround-starter = \"loser\"\n");
    let mut game = match_from(loser, "0-0-1-1-0-0-6-4-S-N-0:0");
    game.play(mv("C")).unwrap();
    assert_eq!(game.position().to_string(), "2-2-2-2-2-2-0-0-N-N-1:0");
}

#[test]
fn a_start_that_differs_between_the_rows_is_turned_round_after_a_round_south_started() {
    let won = rounds_won_game("rounds-won-turned", "start = [1, 2, 3, 2, 2, 2]\n");
    // South started the round that ends: the next is dealt turned round (North's row first).
    let mut game = match_from(won, "0-0-1-1-0-0-6-4-S-S-0:0");
    game.play(mv("C")).unwrap();
    assert_eq!(game.position().to_string(), "2-2-2-1-2-3-0-0-N-N-1:0");
    // After a round North started, as the file says.
    let mut game = match_from(won, "0-0-1-1-0-0-6-4-S-N-0:0");
    game.play(mv("C")).unwrap();
    assert_eq!(game.position().to_string(), "1-2-3-2-2-2-0-0-S-S-1:0");
}

#[test]
fn a_round_of_a_match_of_rounds_won_ends_at_a_majority_where_the_game_says_so() {
    // Half of 12 decides, not the pits to go on of the other matches: South's 7 ends the round
    // (the counters left on the board are nobody's at a majority).
    let majority = rounds_won_game("rounds-won-majority", "start = 2\nmajority-ends = true\n");
    let mut game = match_from(majority, "0-1-1-1-0-1-5-3-S-S-0:0");
    game.play(mv("C")).unwrap();
    let end = game.round_end().expect("the majority ended the round");
    assert_eq!((end.ending, end.totals), (Ending::Majority, [7, 3]));
    assert_eq!(game.position().to_string(), "2-2-2-2-2-2-0-0-N-N-1:0");
    // Without the rule the round goes on.
    let plain = rounds_won_game("rounds-won-no-majority", "start = 2\n");
    let mut game = match_from(plain, "0-1-1-1-0-1-5-3-S-S-0:0");
    game.play(mv("C")).unwrap();
    assert_eq!(game.round_end(), None);
    assert_eq!(game.position().to_string(), "0-1-0-0-0-1-7-3-N-S-0:0");
}

#[test]
fn a_match_dealt_at_random_deals_each_round_at_random_from_the_round_s_end() {
    let won = rounds_won_game("rounds-won-random", "start = 2\nrandom-start = true\n");
    let dealt = |ended: &str| {
        let mut game = match_from(won, ended);
        game.play(mv("C")).unwrap();
        *game.position()
    };
    // The same end deals the same round; the deal keeps every counter, at least one a pit
    // (the random deal's two where there are enough: here 12 counters in 6 pits).
    let next = dealt("0-0-1-1-0-0-6-4-S-S-0:0");
    assert_eq!(next, dealt("0-0-1-1-0-0-6-4-S-S-0:0"));
    assert_eq!(next.to_string(), "2-2-2-2-2-2-0-0-N-N-1:0");
    // With more counters than two a pit, the deal varies with the round's end.
    let many = rounds_won_game("rounds-won-random-many", "start = 4\nrandom-start = true\n");
    let deal = |ended: &str| {
        let mut game = match_from(many, ended);
        game.play(mv("C")).unwrap();
        *game.position()
    };
    let first = deal("0-0-1-1-0-0-14-8-S-S-0:0");
    let second = deal("0-0-1-1-0-0-14-8-S-N-0:0");
    for next in [first, second] {
        assert_eq!(
            next.pits().iter().map(|&c| c as u32).sum::<u32>(),
            24,
            "{next}"
        );
        assert!(next.pits().iter().all(|&c| c >= 2), "{next}");
        assert_eq!(next.round_wins(), [1, 0]);
    }
    assert_eq!(first, deal("0-0-1-1-0-0-14-8-S-S-0:0"));
    assert_ne!(first.pits(), second.pits(), "{first} {second}");
}

#[test]
fn a_history_rule_gives_the_match_to_the_player_with_more_rounds_won() {
    let won = rounds_won_game("rounds-won-history", "start = 2\nno-progress-limit = 1\n");
    // `A` sows into `B`: no capture, and the limit of one quiet move ends the match. The round
    // is drawn (6 each, as the leftover gives them): North's round won decides.
    let mut game = match_from(won, "1-0-0-0-1-0-5-5-S-S-0:1");
    game.play(mv("A")).unwrap();
    assert_eq!(game.ending(), Some(Ending::NoProgress));
    assert_eq!(game.final_totals(), Some([6, 6]));
    assert_eq!(game.result(), Some(GameResult::NorthWins));
    // The round it ended counts as any other: South's 7 against 5 evens the match.
    let mut game = match_from(won, "1-0-0-0-1-0-6-4-S-S-0:1");
    game.play(mv("A")).unwrap();
    assert_eq!(game.result(), Some(GameResult::Draw));
}

#[test]
fn a_match_of_rounds_won_deals_every_round_as_the_first() {
    // The fills of the other matches are refused with it.
    for (extra, field) in [
        ("round-blocks = true\n", "round-blocks"),
        ("round-fill = \"from-right\"\n", "round-fill"),
        ("round-pits-to-go-on = 2\n", "round-pits-to-go-on"),
        ("territory-pits-to-win = 4\n", "territory-pits-to-win"),
        // (The rounds won are kept where the four holders would be.)
        ("leftover = \"last-four-receiver\"\n", "leftover"),
    ] {
        let error = definition::parse(&format!(
            "name = \"x\"\npits-per-row = 3\nstart = 2\ncapture-counts = [2]\n\
             leftover = \"row-owner\"\nrounds = true\nrounds-to-win = 2\n{extra}"
        ))
        .unwrap_err();
        assert_eq!(error.field, field, "{error}");
    }
    // Each round may be played for a goal won outright, the leftover giving nothing.
    let deprive = rounds_won_game(
        "rounds-won-deprive",
        "start = 2\ngoal = \"deprive\"\ngame-ends = \"mover-row-empty\"\n",
    );
    // `C` sows `a`: captured, and North's row is empty: South deprives North, wins the round.
    let mut game = match_from(deprive, "0-0-1-1-0-0-6-4-S-S-0:0");
    game.play(mv("C")).unwrap();
    assert_eq!(game.position().to_string(), "2-2-2-2-2-2-0-0-N-N-1:0");
    // Without rounds the field is refused.
    let error = definition::parse("name = \"x\"\npits-per-row = 3\nstart = 2\nrounds-to-win = 2\n")
        .unwrap_err();
    assert_eq!(error.field, "rounds-to-win", "{error}");
}

#[test]
fn only_the_round_s_loser_fills_its_row_again() {
    let loser_only = rounds_game(
        "rounds-loser-only",
        "game-ends = \"either-row-empty\"\nround-only-loser-refills = true\n\
         round-fill = \"from-board-left\"\n",
    );
    // `C` sows its one counter into `a` and leaves South's row empty: the round ends. South
    // holds 5, North 2 and its row's 5. Only South, the loser, fills again, from the board's
    // left end: `A B`, 1 left in its store, `C` blocked. North keeps its row and store, and
    // (South having started) starts the next round.
    let mut game = Game::new(
        position(loser_only, "0-0-1-0-2-2-5-2-S-S"),
        LastFourRule::default(),
    );
    game.play(mv("C")).unwrap();
    let end = game.round_end().expect("the move ended a round");
    assert_eq!(end.totals, [5, 7]);
    assert_eq!(game.position().to_string(), "2-2-x-1-2-2-1-2-N-N");
    assert!(!game.is_over());
    // North loses the next: its row is filled from its right (the board's left end), the pits
    // it cannot fill are blocked, and South's row (its blocked `C` too) stays as it was.
    let ended = position(loser_only, "0-1-x-0-0-0-8-3-N-N");
    let next = ended.next_round([9, 3], Side::North).expect("both go on");
    assert_eq!(next.to_string(), "0-1-x-x-x-2-8-1-S-S");
    // A drawn round ends the match.
    let mut game = Game::new(
        position(loser_only, "0-0-1-0-2-2-6-1-S-S"),
        LastFourRule::default(),
    );
    game.play(mv("C")).unwrap();
    assert!(game.is_over());
    assert_eq!(game.result(), Some(mancala_rules::GameResult::Draw));
    // So does a round whose winner has no move on the board it left: South won with its row
    // empty.
    let mut game = Game::new(
        position(loser_only, "0-0-1-0-1-1-8-1-S-S"),
        LastFourRule::default(),
    );
    game.play(mv("C")).unwrap();
    assert!(game.is_over());
    assert_eq!(game.result(), Some(mancala_rules::GameResult::SouthWins));
    // The winner keeps its row: only a game whose leftover goes to the rows' owners has the rule.
    let error = definition::parse(
        "name = \"rounds-loser-only-split\"\npits-per-row = 3\nstart = 2\n\
         leftover = \"split-odd-to-trailing\"\nrounds = true\nround-only-loser-refills = true\n",
    )
    .unwrap_err();
    assert_eq!(error.field, "round-only-loser-refills", "{error}");
    // Both fill again where the rule is not set: the winner's row goes to its store first.
    let both = rounds_game(
        "rounds-both-refill",
        "game-ends = \"either-row-empty\"\nround-fill = \"from-board-left\"\n",
    );
    let mut game = Game::new(
        position(both, "0-0-1-0-2-2-5-2-S-S"),
        LastFourRule::default(),
    );
    game.play(mv("C")).unwrap();
    assert_eq!(game.position().to_string(), "2-2-x-2-2-2-1-1-N-N");
}

#[test]
fn a_player_who_cannot_fill_the_pits_to_go_on_loses_the_match() {
    let rounds = rounds_game("rounds-short", "round-pits-to-go-on = 2\n");
    // North ends the round with 2 counters, short of the 4 that two pits take: the match ends.
    let mut game = Game::new(
        position(rounds, "0-0-1-1-0-0-8-2-S-S"),
        LastFourRule::default(),
    );
    game.play(mv("C")).unwrap();
    assert!(game.is_over());
    assert_eq!(game.round_end(), None);
    assert_eq!(game.result(), Some(mancala_rules::GameResult::SouthWins));
    assert_eq!(game.score(), [10, 2]);
}

#[test]
fn in_a_match_of_rounds_a_majority_is_what_leaves_the_other_short() {
    // Two pits of 2 to go on: a player with more than 12 - 4 = 8 captured ends the match.
    let rounds = rounds_game(
        "rounds-majority",
        "round-pits-to-go-on = 2\nmajority-ends = true\n",
    );
    assert_eq!(
        final_totals(rounds, "1-1-0-0-0-1-9-0-N-S").0,
        Ending::Majority
    );
    // More than half, but the other can still fill two pits: the round goes on.
    assert_eq!(position(rounds, "1-1-0-1-0-1-8-0-N-S").own_ending(), None);
}

#[test]
fn a_position_whose_round_is_over_starts_the_next_round() {
    let rounds = rounds_game("rounds-given", "round-starter = \"last-mover\"\n");
    // The board is empty: the round is over, North (not to move) made its last move.
    let game = Game::new(
        position(rounds, "0-0-0-0-0-0-5-7-S-S"),
        LastFourRule::default(),
    );
    assert_eq!(game.position().to_string(), "2-2-x-2-2-2-1-1-N-N");
    assert!(!game.is_over());
}

#[test]
fn a_round_may_be_filled_from_both_ends_inwards() {
    let rounds = rounds_game("rounds-outside-in", "round-fill = \"outside-in\"\n");
    // South holds 4: its left end `A`, then the other end `C`; `B` in the middle is blocked.
    // North holds 8: the board's left end is North's rightmost `c`, then `a`, then `b`, and 2
    // stay in its store.
    let ended = position(rounds, "0-0-0-0-0-0-4-8-S-S");
    let next = ended.next_round([4, 8], Side::North).unwrap();
    assert_eq!(next.to_string(), "2-x-2-2-2-2-0-2-N-N");
    let short = ended.next_round([10, 2], Side::North).unwrap();
    assert_eq!(short.to_string(), "2-2-2-x-x-2-4-0-N-N");
}

// ---------------------------------------------------------------------------------------------
// Captures past an empty pit

/// Registers a 2×4 game of any total that captures past an empty pit, with `rules` added.
fn game4(name: &str, rules: &str) -> Variant {
    game_file(&format!(
        "name = \"{name}\"\npits-per-row = 4\nstart = 2\nany-total = true\n\
         capture-past-empty = true\n{rules}"
    ))
}

#[test]
fn a_move_captures_past_the_empty_pit_after_its_last() {
    let past = game4("past-empty", "");
    // 2×4: South `A B C D` are pits 0 to 3, North `a b c d` pits 4 to 7. `A` sows `B C`; `C`
    // held a counter before, the next pit `D` is empty: the pit after it, `a`, is taken.
    assert_eq!(
        play(past, "2-0-1-0-3-1-0-0-0-0-S", "A"),
        ("0-1-2-0-0-1-0-0-3-0-N".to_string(), false)
    );
    // A last counter into an empty pit captures nothing in a one-lap game.
    assert_eq!(
        play(past, "2-0-0-0-3-1-0-0-0-0-S", "A"),
        ("0-1-1-0-3-1-0-0-0-0-N".to_string(), false)
    );
    // Nothing past a pit that holds counters, nor an empty pit past the gap.
    assert_eq!(
        play(past, "2-0-1-1-3-1-0-0-0-0-S", "A"),
        ("0-1-2-1-3-1-0-0-0-0-N".to_string(), false)
    );
    // With a chain: past `D`, `a` is taken; past the empty `b`, `c` too; past `d`, `A` is empty.
    let chain = game4("past-empty-chain", "capture-chain = true\n");
    assert_eq!(
        play(chain, "2-0-1-0-3-0-2-0-0-0-S", "A"),
        ("0-1-2-0-0-0-0-0-5-0-N".to_string(), false)
    );
    // On a side: only the opponent's pits are taken.
    let theirs = game4("past-empty-theirs", "capture-side = \"opponent\"\n");
    assert_eq!(
        play(theirs, "0-1-0-2-0-1-0-0-0-0-N", "b"),
        ("0-1-0-2-0-0-1-0-0-0-S".to_string(), false)
    );
}

#[test]
fn a_relay_move_captures_past_the_empty_pit_where_its_laps_end() {
    let relay = game4(
        "past-empty-relay",
        "laps = \"relay\"\nrelay-from = \"next-pit\"\n",
    );
    // `A` sows `B`, which held nothing; the next pit `C` holds 1: lifted and sown into `D`; the
    // pit after `D`, `a`, is empty: the laps end, and `b`, past it, is taken.
    assert_eq!(
        play(relay, "1-0-1-0-0-2-0-0-0-0-S", "A"),
        ("0-1-0-1-0-0-0-0-2-0-N".to_string(), false)
    );
}

#[test]
fn a_capture_past_an_empty_pit_may_take_the_pit_facing_it_too() {
    let facing = game4("past-empty-facing", "past-empty-takes-facing = true\n");
    // `A` sows `B C`; past the empty `D`, `a` (pit 4) is taken, and the pit facing it, `D`
    // (pit 3)... is the empty gap: nothing more. Past `B` instead: `A` sows `B` alone, `C` is
    // empty, `D` (pit 3) is taken with its facing pit `a` (pit 4).
    assert_eq!(
        play(facing, "2-0-1-0-3-1-0-0-0-0-S", "A"),
        ("0-1-2-0-0-1-0-0-3-0-N".to_string(), false)
    );
    assert_eq!(
        play(facing, "1-1-0-2-3-1-0-0-0-0-S", "A"),
        ("0-2-0-0-0-1-0-0-5-0-N".to_string(), false)
    );
    // Without a capture, the facing pit stays.
    assert_eq!(
        play(facing, "1-1-1-2-3-1-0-0-0-0-S", "A"),
        ("0-2-1-2-3-1-0-0-0-0-N".to_string(), false)
    );
    // Only with captures past an empty pit.
    let error = definition::parse(
        "name = \"x\"\npits-per-row = 4\nstart = 2\npast-empty-takes-facing = true\n",
    )
    .unwrap_err();
    assert_eq!(error.field, "past-empty-takes-facing");
}

// ---------------------------------------------------------------------------------------------
// A start dealt at random

#[test]
fn a_start_dealt_at_random_shares_the_game_s_counters() {
    let dealt = game_file(
        "name = \"dealt\"\npits-per-row = 3\nstart = 4\nrandom-start = true\n\
         capture-counts = [2]\n",
    );
    // The start position is the equal deal; a random deal has the same counters, at least two
    // a pit, South to move, and each seed its own deal.
    assert_eq!(Position::start(dealt).to_string(), "4-4-4-4-4-4-0-0-S");
    let deal = Position::random_deal(dealt, 7);
    assert_eq!(deal.pits().iter().map(|&c| c as u32).sum::<u32>(), 24);
    assert!(deal.pits().iter().all(|&c| c >= 2), "{deal}");
    assert_eq!(deal.side_to_move(), Side::South);
    assert_eq!(Position::random_deal(dealt, 7), deal);
    assert!((0..20).any(|seed| Position::random_deal(dealt, seed) != deal));
    // It needs one count a pit.
    let error = definition::parse(
        "name = \"x\"\npits-per-row = 2\nstart = [1, 2, 3, 4]\nrandom-start = true\n",
    )
    .unwrap_err();
    assert_eq!(error.field, "random-start");
}

#[test]
fn a_round_that_starts_as_an_earlier_one_for_the_third_time_ends_the_match() {
    // 2×2, one counter a pit: each round, each player captures two and the round ends level;
    // the last mover starts the next, so the starts alternate between South's and North's.
    let level = game_file(
        "name = \"rounds-cycle\"\npits-per-row = 2\nstart = 1\ncapture-counts = [2]\n\
         leftover = \"row-owner\"\nrounds = true\nround-starter = \"last-mover\"\n",
    );
    let mut game = Game::new(position(level, "1-1-1-1-0-0-S-S"), LastFourRule::default());
    for (i, name) in ["B", "b", "b", "B", "B", "b", "b"].iter().enumerate() {
        game.play(mv(name)).unwrap();
        assert!(!game.is_over(), "after move {}", i + 1);
        if i == 5 {
            // The second start North's way: the match goes on.
            assert_eq!(game.position().to_string(), "1-1-1-1-0-0-N-N");
        }
    }
    game.play(mv("B")).unwrap();
    // The third start South's way, counting the one given.
    assert_eq!(game.position().to_string(), "1-1-1-1-0-0-S-S");
    assert_eq!(game.ending(), Some(Ending::Repetition));
    assert_eq!(game.rounds_ended(), 4);
}

// ---------------------------------------------------------------------------------------------
// What follows a move's captures: a capture's extra move, the sweep of the last counters

#[test]
fn a_capture_that_ends_a_move_gives_another_move() {
    let again = game(
        "capture-again",
        "capture-counts = [2]\ncapture-extra-move = \"always\"\n",
    );
    // `C` sows `a`, which becomes 2: taken, and South moves again.
    assert_eq!(play(again, "0-0-1-1-1-1-0-0-S", "C").0, "0-0-0-0-1-1-2-0-S");
    // A move that captures nothing hands over.
    assert_eq!(play(again, "0-1-0-1-1-1-0-0-S", "B").0, "0-0-1-1-1-1-0-0-N");
    // Without the rule the capture hands over too.
    let plain = game("capture-no-again", "capture-counts = [2]\n");
    assert_eq!(play(plain, "0-0-1-1-1-1-0-0-S", "C").0, "0-0-0-0-1-1-2-0-N");
}

#[test]
fn a_capture_in_passing_gives_no_extra_move() {
    let again = game(
        "passing-again",
        "capture-counts = [2]\npassing-captures = \"to-mover\"\ncapture-extra-move = \"always\"\n",
    );
    // `A` sows `B`, which becomes 2 and is taken in passing, then `C`: the end takes nothing.
    assert_eq!(play(again, "2-1-0-1-1-1-0-0-S", "A").0, "0-0-1-1-1-1-2-0-N");
}

#[test]
fn a_capture_on_an_extra_move_gives_no_other_where_one_is_the_most() {
    let once = game(
        "capture-once",
        "capture-counts = [2]\ncapture-extra-move = \"once\"\n",
    );
    // The position string's last field says whether the side to move is on an extra move.
    assert_eq!(
        play(once, "0-0-1-1-0-0-0-0-S-X", "C").0,
        "0-0-0-0-0-0-2-0-S-E"
    );
    assert_eq!(
        play(once, "0-0-1-1-0-1-0-0-S-E", "C").0,
        "0-0-0-0-0-1-2-0-N-X"
    );
    // A pass ends the turn: the opponent's capture then gives an extra move.
    let mut pos = position(once, "0-0-0-0-1-1-2-0-S-E");
    assert_eq!(pos.legal_moves().as_slice(), &[Move::PASS]);
    pos.play(Move::PASS).unwrap();
    assert_eq!(pos.to_string(), "0-0-0-0-1-1-2-0-N-X");
    // Anything but E or X is refused, and the field is needed.
    let error = Position::from_position_string(once, "0-0-1-1-0-0-0-0-S-Y").unwrap_err();
    assert!(
        error.to_string().contains("extra-move field is 'Y'"),
        "{error}"
    );
    assert!(Position::from_position_string(once, "0-0-1-1-0-0-0-0-S").is_err());
}

#[test]
fn the_last_counters_left_are_swept_by_the_mover() {
    let sweep = game("sweep", "capture-counts = [3]\nsweep-at-most = 2\n");
    // `A` sows `B`: two counters are left on the board, which South takes.
    assert_eq!(play(sweep, "1-0-0-0-1-0-0-0-S", "A").0, "0-0-0-0-0-0-2-0-N");
    // Three are more than two: nothing is swept.
    assert_eq!(play(sweep, "1-0-0-1-1-0-0-0-S", "A").0, "0-1-0-1-1-0-0-0-N");
    // They are counted where captures are judged: here the opponent's row, two of four.
    let opponent = game(
        "sweep-opponent",
        "capture-counts = [3]\ncapture-side = \"opponent\"\nsweep-at-most = 2\n",
    );
    assert_eq!(
        play(opponent, "3-0-0-0-1-0-0-0-S", "A").0,
        "0-0-0-0-0-0-4-0-N"
    );
    // After a capture that leaves the board empty there is nothing to sweep.
    assert_eq!(play(sweep, "0-0-1-2-0-0-0-0-S", "C").0, "0-0-0-0-0-0-3-0-N");
    // Nor after a last counter in the store that gives another move: `b`'s one stays.
    let stores = game(
        "sweep-stores",
        "sow-own-store = true
extra-turn-in-store = true
sweep-at-most = 2
",
    );
    assert_eq!(
        play(stores, "0-0-1-0-1-0-0-0-S", "C").0,
        "0-0-0-0-1-0-1-0-S"
    );
    // A last counter in a pit after passing the store does not give one: swept.
    assert_eq!(
        play(stores, "0-0-2-0-1-0-0-0-S", "C").0,
        "0-0-0-0-0-0-3-0-N"
    );
}

#[test]
fn a_sweep_and_an_extra_move_are_told_with_the_move() {
    let sweep = game("sweep-told", "capture-counts = [3]\nsweep-at-most = 2\n");
    let before = position(sweep, "1-0-0-0-1-0-0-0-S");
    let trace = before.trace_move(mv("A")).unwrap();
    assert_eq!(trace.to_string(), "A:1 B xB:1>S xb:1>S");
    let mut after = before;
    after.play(mv("A")).unwrap();
    assert_eq!(trace.replay(&before).pits(), after.pits());
    let once = game(
        "once-told",
        "capture-counts = [2]\ncapture-extra-move = \"once\"\n",
    );
    let before = position(once, "0-0-1-1-0-0-0-0-S-X");
    assert_eq!(
        before.trace_move(mv("C")).unwrap().to_string(),
        "C:1 a xa:2>S again"
    );
}

#[test]
fn the_rules_after_a_move_s_captures_are_refused_where_the_engine_lacks_them() {
    let base = "name = \"x\"\npits-per-row = 6\nstart = 4\n";
    for (extra, field, why) in [
        (
            "laps = \"relay-fours\"\ngame-ends = \"last-four\"\nleftover = \"last-four-receiver\"\n\
             capture-extra-move = \"always\"\n",
            "capture-extra-move",
            "single",
        ),
        (
            "capture-counts = [2]\nsweep-at-most = 4\ngrand-slam = \"captures-nothing\"\n",
            "sweep-at-most",
            "grand-slam",
        ),
        ("sweep-at-most = 400\n", "sweep-at-most", "more than"),
        (
            "capture-extra-move = \"twice\"\n",
            "capture-extra-move",
            "is not one of",
        ),
        (
            "capture-counts = [2]\ncapture-extra-move = \"once\"\nleftover = \"last-mover\"\n\
             rounds = true\n",
            "leftover",
            "match of rounds",
        ),
    ] {
        let error = definition::parse(&format!("{base}{extra}")).unwrap_err();
        assert_eq!(error.field, field, "{extra}: {error}");
        assert!(error.why.contains(why), "{extra}: {error}");
    }
}

// ---------------------------------------------------------------------------------------------
// Goals other than the most counters: won outright, the winner counting every counter

#[test]
fn clearing_one_s_own_row_first_wins() {
    let clear = game("clear", "goal = \"clear-own-row\"\n");
    // `C` sows into `a`: South's row is empty, and South wins with every counter.
    let (after, _) = play(clear, "0-0-1-2-0-0-0-0-S", "C");
    assert_eq!(after, "0-0-0-3-0-0-0-0-N");
    assert_eq!(final_totals(clear, &after), (Ending::RowCleared, [3, 0]));
    // A row emptied by the opponent's sowing is a win for its owner too.
    assert_eq!(
        final_totals(clear, "2-0-0-0-0-0-0-0-S"),
        (Ending::RowCleared, [0, 2])
    );
    // An end the goal does not name goes to the player with fewer counters in their row.
    let pos = position(clear, "1-0-0-3-0-0-0-0-S");
    assert_eq!(
        pos.final_totals(Ending::Repetition, LastFourRule::default()),
        [4, 0]
    );
    let level = position(clear, "1-0-0-1-0-0-0-0-S");
    assert_eq!(
        level.final_totals(Ending::NoProgress, LastFourRule::default()),
        [1, 1]
    );
}

#[test]
fn with_both_rows_empty_the_player_who_emptied_them_clears_first() {
    // A capture that takes the last counters of both rows gives another move here: the
    // position string says whether the side to move is on an extra move, which tells who
    // moved last.
    let clear = game(
        "clear-again",
        "goal = \"clear-own-row\"\ncapture-empty-opposite = true\ncapture-side = \"own\"\n\
         capture-extra-move = \"always\"\n",
    );
    // `A` drops its counter into the empty `B`, which takes itself and the `b` facing it.
    let (after, _) = play(clear, "1-0-0-0-1-0-0-0-S-X", "A");
    assert_eq!(after, "0-0-0-0-0-0-2-0-S-E");
    assert_eq!(final_totals(clear, &after), (Ending::RowCleared, [2, 0]));
    assert_eq!(
        final_totals(clear, "0-0-0-0-0-0-2-0-S-X"),
        (Ending::RowCleared, [0, 2])
    );
}

#[test]
fn depriving_the_opponent_of_counters_or_moves_wins() {
    let deprive = game("deprive", "goal = \"deprive\"\ncapture-counts = [2]\n");
    // `C` makes `a` two, taken: North's row is empty, and South wins.
    let (after, _) = play(deprive, "0-0-1-1-0-0-0-0-S", "C");
    assert_eq!(after, "0-0-0-0-0-0-2-0-N");
    assert_eq!(final_totals(deprive, &after), (Ending::Deprived, [2, 0]));
    // A player who empties their own row loses.
    let (after, _) = play(deprive, "0-0-1-0-1-0-0-0-S", "C");
    assert_eq!(after, "0-0-0-1-1-0-0-0-N");
    assert_eq!(final_totals(deprive, &after), (Ending::Deprived, [0, 2]));
    // A player to move with counters but no move loses, and does not pass: here North's `b`
    // and `c` may only drop a single counter into an empty pit, and `c`'s next pit, `A`, holds
    // one.
    let filtered = game(
        "deprive-filtered",
        "goal = \"deprive\"\nmove-filter = \"single-into-empty\"\n",
    );
    let pos = position(filtered, "1-0-0-0-1-1-0-0-N");
    assert!(pos.legal_moves().is_empty());
    assert_eq!(
        final_totals(filtered, "1-0-0-0-1-1-0-0-N"),
        (Ending::Deprived, [3, 0])
    );
}

#[test]
fn leaving_the_player_to_move_without_a_move_wins_where_the_goal_is_to_immobilize() {
    let immobilize = game("immobilize", "goal = \"immobilize\"\n");
    let (after, _) = play(immobilize, "1-0-0-0-0-0-0-0-S", "A");
    assert_eq!(after, "0-1-0-0-0-0-0-0-N");
    assert_eq!(
        final_totals(immobilize, &after),
        (Ending::Immobilized, [1, 0])
    );
    // An empty row of the player not to move is no end: the player to move plays on.
    assert!(!position(immobilize, "0-1-0-0-0-0-0-0-S").is_game_over());
    // A game with extra moves cannot have this goal (the mover's opponent is not always the
    // player to move).
    let error = definition::parse(
        "name = \"x\"\npits-per-row = 6\nstart = 4\ngoal = \"immobilize\"\nsow-own-store = true\n\
         extra-turn-in-store = true\n",
    )
    .unwrap_err();
    assert_eq!(error.field, "goal");
}

#[test]
fn a_goal_won_outright_refuses_the_rules_that_end_a_game_by_counters() {
    let base = "name = \"x\"\npits-per-row = 6\nstart = 4\ngoal = \"deprive\"\n";
    for (extra, field) in [
        ("majority-ends = true\n", "majority-ends"),
        ("ends-below = 2\n", "ends-below"),
        ("must-feed = true\n", "must-feed"),
        ("game-ends = \"row-empty\"\n", "game-ends"),
        ("rounds = true\nleftover = \"row-owner\"\n", "rounds"),
    ] {
        let error = definition::parse(&format!("{base}{extra}")).unwrap_err();
        assert_eq!(error.field, field, "{extra}: {error}");
    }
    // A player to move whose pits hold too few to move has no move: to deprive (or immobilize),
    // that loses; to clear one's row, it is refused.
    definition::parse(&format!("{base}min-move = 2\n")).unwrap();
    let clear = base.replace("deprive", "clear-own-row");
    let error = definition::parse(&format!("{clear}min-move = 2\n")).unwrap_err();
    assert_eq!(error.field, "min-move");
    let error =
        definition::parse("name = \"x\"\npits-per-row = 6\nstart = 4\ngoal = \"territory\"\n")
            .unwrap_err();
    assert_eq!(error.field, "goal");
}

// ---------------------------------------------------------------------------------------------
// Captures at the end of every lap

#[test]
fn a_lap_captures_past_an_empty_pit_and_goes_on_from_its_last_pit() {
    let laps = game(
        "lap-two-out",
        "laps = \"relay\"\ncapture-past-empty = true\nlap-captures = true\n",
    );
    // `A` sows `B`, which held one: past the empty `C`, `a`'s three are taken, and the lap goes
    // on from `B`'s two: `C`, then `a` (now one, the end: past `b` and `c`, nothing to take).
    assert_eq!(play(laps, "1-1-0-3-0-0-0-0-S", "A").0, "0-0-1-1-0-0-3-0-N");
    // Without the rule, the capture waits for the move's last lap.
    let plain = game(
        "relay-two-out",
        "laps = \"relay\"\ncapture-past-empty = true\n",
    );
    assert_eq!(play(plain, "1-1-0-3-0-0-0-0-S", "A").0, "1-1-1-0-1-1-0-0-N");
}

#[test]
fn a_lap_that_takes_across_from_an_empty_pit_goes_on_from_it() {
    let laps = game(
        "lap-cross",
        "laps = \"relay\"\ncapture-empty-opposite = true\ncapture-side = \"own\"\n\
         capture-takes-own = false\nlap-captures = true\n",
    );
    // `A` sows the empty `B`, which takes `b`'s two and goes on: `B`'s counter into the empty
    // `C`, facing the empty `a`: nothing taken, the end.
    assert_eq!(play(laps, "1-0-0-0-2-0-0-0-S", "A").0, "0-0-1-0-0-0-2-0-N");
    let plain = game(
        "relay-cross",
        "laps = \"relay\"\ncapture-empty-opposite = true\ncapture-side = \"own\"\n\
         capture-takes-own = false\n",
    );
    assert_eq!(play(plain, "1-0-0-0-2-0-0-0-S", "A").0, "0-1-0-0-0-0-2-0-N");
    // The captures are told lap by lap.
    let before = position(laps, "1-0-0-0-2-0-0-0-S");
    assert_eq!(
        before.trace_move(mv("A")).unwrap().to_string(),
        "A:1 B xb:2>S B:1 C"
    );
}

#[test]
fn a_lap_that_makes_a_capture_count_takes_it_and_goes_on_from_the_next_pit() {
    let laps = game(
        "lap-counts",
        "laps = \"relay\"\ncapture-counts = [4]\nlap-captures = true\n",
    );
    // `A` makes `C` 4: taken, and the move goes on from `a`: its two into `b c`, `c`'s two into
    // `A B`, `B`'s two into `C a`, where the last counter is alone: the end.
    assert_eq!(play(laps, "2-0-3-2-0-1-0-0-S", "A").0, "1-0-1-1-1-0-4-0-N");
    // The pit after the capture is empty: the move ends there.
    assert_eq!(play(laps, "2-0-3-0-1-0-0-0-S", "A").0, "0-1-0-0-1-0-4-0-N");
    // Without the rule, the capture ends the move.
    let plain = game("relay-counts", "laps = \"relay\"\ncapture-counts = [4]\n");
    assert_eq!(play(plain, "2-0-3-2-0-1-0-0-S", "A").0, "0-1-0-2-0-1-4-0-N");
}

#[test]
fn lap_captures_go_with_relays_from_the_landing_pit_and_one_capture_rule() {
    let base = "name = \"x\"\npits-per-row = 6\nstart = 4\nlap-captures = true\n";
    for (extra, field) in [
        ("capture-past-empty = true\n", "laps"),
        (
            "laps = \"relay\"\ncapture-past-empty = true\nrelay-from = \"next-pit\"\n",
            "relay-from",
        ),
        ("laps = \"relay\"\ncapture-counts = []\n", "capture-counts"),
        (
            "laps = \"relay\"\ncapture-counts = [2]\npassing-captures = \"to-owner\"\n",
            "passing-captures",
        ),
        (
            "laps = \"relay\"\ncapture-empty-opposite = true\n",
            "capture-takes-own",
        ),
    ] {
        let error = definition::parse(&format!("{base}{extra}")).unwrap_err();
        assert_eq!(error.field, field, "{extra}: {error}");
    }
}

#[test]
fn after_a_drawn_round_the_loser_rule_gives_the_start_to_the_last_mover() {
    // `C` takes `a`'s two and empties the board: 6 each, a drawn round. North is to move at its
    // end: under the loser rule South (who made the last move) starts the next, under the
    // winner rule North, as MancalaGames has it.
    for (starter, next) in [("loser", "S"), ("winner", "N"), ("alternate", "N")] {
        let rounds = rounds_game(
            &format!("rounds-drawn-{starter}"),
            &format!("round-starter = \"{starter}\"\n"),
        );
        let mut game = Game::new(
            position(rounds, "0-0-1-1-0-0-4-6-S-S"),
            LastFourRule::default(),
        );
        game.play(mv("C")).unwrap();
        let end = game.round_end().expect("the move ended a round");
        assert_eq!(end.totals, [6, 6]);
        assert_eq!(
            game.position().to_string(),
            format!("2-2-2-2-2-2-0-0-{next}-{next}"),
            "{starter}"
        );
    }
}

#[test]
fn a_player_who_cannot_feed_plays_any_move_where_the_game_goes_on() {
    let any_move = game(
        "feed-any-move",
        "must-feed = true\nunfed = \"any-move\"\ncapture-counts = [2]\n",
    );
    // North's row is empty and `A` cannot reach it: it is played all the same, and North, with
    // nothing to move, passes.
    let pos = position(any_move, "1-0-0-0-0-0-5-0-S");
    assert_eq!(pos.legal_moves().as_slice(), &[mv("A")]);
    let (after, _) = play(any_move, "1-0-0-0-0-0-5-0-S", "A");
    assert_eq!(after, "0-1-0-0-0-0-5-0-N");
    assert_eq!(
        position(any_move, &after).legal_moves().as_slice(),
        &[Move::PASS]
    );
    // A move that feeds is still the only one allowed where there is one.
    let pos = position(any_move, "1-0-1-0-0-0-4-0-S");
    assert_eq!(pos.legal_moves().as_slice(), &[mv("C")]);
    // Where the starved player takes the rest instead, the game ends there.
    let ends = game(
        "feed-ends",
        "must-feed = true\nunfed = \"starved-player-takes-all\"\ncapture-counts = [2]\n",
    );
    assert_eq!(
        final_totals(ends, "1-0-0-0-0-0-5-0-S"),
        (Ending::Starvation, [5, 1])
    );
}

#[test]
fn the_last_counter_may_be_taken_alone_from_an_empty_pit() {
    let alone = game(
        "takes-own-alone",
        "capture-empty-opposite = true\ncapture-side = \"own\"\ncapture-takes-own-alone = true\n",
    );
    // `A` drops its counter into the empty `B`, facing the empty `b`: taken all the same.
    assert_eq!(play(alone, "1-0-0-2-0-0-0-0-S", "A").0, "0-0-0-2-0-0-1-0-N");
    // Facing counters are taken with it, as always.
    assert_eq!(play(alone, "1-0-0-0-3-0-0-0-S", "A").0, "0-0-0-0-0-0-4-0-N");
    let plain = game(
        "takes-own",
        "capture-empty-opposite = true\ncapture-side = \"own\"\n",
    );
    assert_eq!(play(plain, "1-0-0-2-0-0-0-0-S", "A").0, "0-1-0-2-0-0-0-0-N");
    // It needs the own counter taken with a capture, and no extra move after captures.
    let error = definition::parse(
        "name = \"x\"\npits-per-row = 6\nstart = 4\ncapture-empty-opposite = true\n\
         capture-takes-own = false\ncapture-takes-own-alone = true\n",
    )
    .unwrap_err();
    assert_eq!(error.field, "capture-takes-own-alone");
}

#[test]
fn a_last_counter_in_an_empty_pit_of_either_row_may_take_the_pit_facing_it() {
    let either = game(
        "empty-either-row",
        "capture-empty-opposite = true\ncapture-takes-own = false\n\
         capture-empty-either-row = true\n",
    );
    // `C` sows its two into `a` and `b`; `b`, North's, was empty and faces `B`, whose three
    // South takes from its own row.
    assert_eq!(
        play(either, "0-3-2-1-0-0-0-0-S", "C").0,
        "0-0-0-2-1-0-3-0-N"
    );
    // Only one's own empty pits capture without the rule.
    let own = game(
        "empty-own-row",
        "capture-empty-opposite = true\ncapture-takes-own = false\n",
    );
    assert_eq!(play(own, "0-3-2-1-0-0-0-0-S", "C").0, "0-3-0-2-1-0-0-0-N");
}

// ---------------------------------------------------------------------------------------------
// The end on either row empty, and the last mover's counters where a move may give another

/// A 2×3 game sown into the mover's store, a last counter there giving another move, with
/// `rules` added to its file.
fn store_game(name: &str, rules: &str) -> Variant {
    game(
        name,
        &format!("sow-own-store = true\nextra-turn-in-store = true\nstores = true\n{rules}"),
    )
}

#[test]
fn a_move_that_empties_its_movers_row_ends_the_game_where_either_row_empty_ends_it() {
    let either = store_game(
        "either-row-empty",
        "game-ends = \"either-row-empty\"\nleftover = \"row-owner\"\n",
    );
    // `C` sows one counter into South's store and one into `a`: North is to move, and South's
    // row is empty. The game is over; North takes its own row.
    let (after, _) = play(either, "0-0-2-2-1-0-0-0-S", "C");
    assert_eq!(after, "0-0-0-3-1-0-1-0-N");
    assert_eq!(final_totals(either, &after), (Ending::RowEmpty, [1, 4]));
    // Where only the player to move without counters ends it, North plays on.
    let mover = store_game(
        "mover-row-empty-store",
        "game-ends = \"mover-row-empty\"\nleftover = \"row-owner\"\n",
    );
    let (after, _) = play(mover, "0-0-2-2-1-0-0-0-S", "C");
    assert_eq!(position(mover, &after).own_ending(), None);
    // No pass: a player with counters but none to move ends it too (as a row without a move,
    // like `mover-row-empty`).
    let few = store_game(
        "either-row-empty-min",
        "game-ends = \"either-row-empty\"\nleftover = \"row-owner\"\nmin-move = 2\n",
    );
    let pos = position(few, "1-1-0-2-2-0-0-0-S");
    assert_eq!(pos.own_ending(), Some(Ending::RowEmpty));
    assert!(pos.is_game_over() && pos.legal_moves().is_empty());
}

#[test]
fn the_last_mover_takes_the_counters_left_at_once_where_a_move_may_give_another() {
    let last = store_game(
        "last-mover-extra",
        "game-ends = \"either-row-empty\"\nleftover = \"last-mover\"\n",
    );
    // `C`'s last counter goes into the store, which would give South another move, but South's
    // row is empty: the game is over, and South, who moved last, takes North's three at once
    // (the position would not say who moved last: South is still to move).
    let (after, _) = play(last, "0-0-1-2-1-0-0-0-S", "C");
    assert_eq!(after, "0-0-0-0-0-0-4-0-S");
    assert_eq!(final_totals(last, &after), (Ending::BoardEmpty, [4, 0]));
    // Without another move the same: North is to move, South moved last.
    let (after, _) = play(last, "0-0-2-2-1-0-0-0-S", "C");
    assert_eq!(after, "0-0-0-0-0-0-5-0-N");
    // A move that does not end the game leaves the board as it is.
    let (after, _) = play(last, "1-0-1-2-1-0-0-0-S", "C");
    assert_eq!(after, "1-0-0-2-1-0-1-0-S");
    // In a match of rounds the file is refused: the next round is filled before the claim.
    let error = definition::parse(
        "name = \"last-rounds\"\npits-per-row = 3\nstart = 2\nsow-own-store = true\n\
         extra-turn-in-store = true\ncapture-counts = [2]\nleftover = \"last-mover\"\n\
         rounds = true\n",
    )
    .unwrap_err();
    assert_eq!(error.field, "leftover", "{error}");
}

// ---------------------------------------------------------------------------------------------
// Single counters, and chains into either row

#[test]
fn a_chain_from_the_opponents_row_may_go_on_into_ones_own() {
    let rules = "capture-counts = [2, 3]\ncapture-side = \"opponent\"\ncapture-chain = true\n";
    let either = game(
        "chain-either-row",
        &format!("{rules}chain-either-row = true\n"),
    );
    // `B` sows `C a`: `a` makes 2 and is taken, and the chain goes back into South's own `C`,
    // which makes 2 too; `B`, the pit sown from, ends it.
    assert_eq!(
        play(either, "1-2-1-1-0-0-0-0-S", "B").0,
        "1-0-0-0-0-0-4-0-N"
    );
    // Without the rule the chain stops at the row's end.
    let opponent = game("chain-opponent-row", rules);
    assert_eq!(
        play(opponent, "1-2-1-1-0-0-0-0-S", "B").0,
        "1-0-2-0-0-0-2-0-N"
    );
    // The last pit must still be the opponent's: `A` ends in South's `C`, which makes 2.
    assert_eq!(
        play(either, "2-1-1-1-0-0-0-0-S", "A").0,
        "0-2-2-1-0-0-0-0-N"
    );
    // A chain into either row needs a chain and a side of one row.
    let error = definition::parse(
        "name = \"x\"\npits-per-row = 3\nstart = 2\ncapture-counts = [2]\nchain-either-row = true\n",
    )
    .unwrap_err();
    assert_eq!(error.field, "chain-either-row", "{error}");
}

#[test]
fn a_single_counter_captures_nothing_where_the_game_says_so() {
    let none = game(
        "single-no-capture",
        "capture-counts = [2]\nsingle-counter-captures = false\n",
    );
    // `C`'s one counter makes `a` 2: no capture.
    assert_eq!(play(none, "0-0-1-1-0-0-0-0-S", "C").0, "0-0-0-2-0-0-0-0-N");
    // Two counters capture as ever: `B` sows `C a`, and `a` makes 2.
    assert_eq!(play(none, "0-2-0-1-0-0-0-0-S", "B").0, "0-0-1-0-0-0-2-0-N");
    // Any game's single counter would have taken it.
    let plain = game("single-captures", "capture-counts = [2]\n");
    assert_eq!(play(plain, "0-0-1-1-0-0-0-0-S", "C").0, "0-0-0-0-0-0-2-0-N");
}

#[test]
fn a_single_counter_first_takes_the_pit_facing_it() {
    let facing = game(
        "single-takes-facing",
        "capture-counts = [2]\nsingle-counter-takes-facing = true\n",
    );
    // `B` holds one counter: it takes North's `b` (facing it) and is sown into `C`.
    let before = position(facing, "0-1-0-0-3-0-0-0-S");
    let mut after = before;
    after.play(mv("B")).unwrap();
    assert_eq!(after.to_string(), "0-0-1-0-0-0-3-0-N");
    // The telling shows the take, and replays to the same board.
    let trace = before.trace_move(mv("B")).unwrap();
    assert!(
        trace.steps.contains(&SowStep::Capture {
            pit: 4,
            count: 3,
            to: Side::South
        }),
        "{trace}"
    );
    assert_eq!(trace.replay(&before).pits(), after.pits(), "{trace}");
    // Two counters take nothing first.
    assert_eq!(
        play(facing, "0-2-0-0-3-0-0-0-S", "B").0,
        "0-0-1-1-3-0-0-0-N"
    );
    // Where the single counter goes into the store and gives another move, the take is told
    // before it: another move is always the last step.
    let stores = store_game(
        "single-takes-facing-store",
        "single-counter-takes-facing = true\n",
    );
    let before = position(stores, "1-1-1-1-0-0-0-0-S");
    let mut after = before;
    assert!(after.play(mv("C")).unwrap().extra_turn);
    assert_eq!(after.to_string(), "1-1-0-0-0-0-2-0-S");
    let trace = before.trace_move(mv("C")).unwrap();
    assert_eq!(trace.steps.last(), Some(&SowStep::ExtraTurn), "{trace}");
    assert_eq!(trace.replay(&before).pits(), after.pits(), "{trace}");
    // Not with relay laps.
    let error = definition::parse(
        "name = \"x\"\npits-per-row = 3\nstart = 2\nlaps = \"relay\"\ncapture-counts = [4]\n\
         single-counter-takes-facing = true\n",
    )
    .unwrap_err();
    assert_eq!(error.field, "single-counter-takes-facing", "{error}");
}

#[test]
fn every_single_counter_of_the_row_takes_the_pit_facing_it_before_the_move() {
    let singles = game(
        "singles-take-facing",
        "capture-counts = [2]\nsingles-take-facing = true\n",
    );
    // `A` and `C` hold one counter each: before `B` is sown, `A` takes `c` (4) and `C` takes
    // `a` (2). `B` then sows `C a b`; its last counter makes 1 in `b`: no capture.
    let before = position(singles, "1-3-1-2-0-4-0-0-S");
    let mut after = before;
    after.play(mv("B")).unwrap();
    assert_eq!(after.to_string(), "1-0-2-1-1-0-6-0-N");
    // The telling shows the takes (as captures), and replays to the same board.
    let trace = before.trace_move(mv("B")).unwrap();
    assert_eq!(trace.replay(&before).pits(), after.pits(), "{trace}");
    // (The stores too: the takes and the sowing's captures add up; the side is not replayed.)
    let replayed = trace.replay(&before).to_string();
    assert_eq!(
        replayed[..replayed.len() - 1],
        after.to_string()[..replayed.len() - 1]
    );
    // The moved pit takes too when it holds one counter; an empty facing pit gives nothing.
    assert_eq!(
        play(singles, "0-1-0-0-3-0-0-0-S", "B").0,
        "0-0-1-0-0-0-3-0-N"
    );
    assert_eq!(
        play(singles, "0-1-0-5-0-0-0-0-S", "B").0,
        "0-0-1-5-0-0-0-0-N"
    );
    // North's singles take South's pits: `a` takes `C`, facing it.
    assert_eq!(
        play(singles, "0-0-3-1-2-0-0-0-N", "b").0,
        "1-0-0-1-0-1-0-3-S"
    );
    // Not with relay laps.
    let error = definition::parse(
        "name = \"x\"\npits-per-row = 3\nstart = 2\nlaps = \"relay\"\ncapture-counts = [4]\n\
         singles-take-facing = true\n",
    )
    .unwrap_err();
    assert_eq!(error.field, "laps", "{error}");
}

// ---------------------------------------------------------------------------------------------
// Rows that belong to nobody

#[test]
fn either_row_lets_a_player_move_from_any_pit_of_the_board() {
    let either = game(
        "either-row",
        "moves = \"either-row\"\ncapture-counts = [2]\ngame-ends = \"board-empty\"\n\
         leftover = \"nobody\"\n",
    );
    // South may play North's pits: every non-empty pit of the board, in index order.
    let pos = position(either, "1-0-2-3-0-1-0-0-S");
    let names: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(names, ["A", "C", "a", "c"]);
    assert_eq!(
        pos.check_move(mv("B")).unwrap_err().reason,
        IllegalReason::EmptyPit
    );
    // North's `a` sown by South: `b c A`, and `A` makes 2, which South captures.
    assert_eq!(
        play(either, "1-0-2-3-0-1-0-0-S", "a").0,
        "0-0-2-0-1-2-2-0-N"
    );
    // North moves from South's row alike, and captures for itself: `c` into `A`.
    assert_eq!(
        play(either, "1-0-2-3-0-1-0-0-N", "A").0,
        "0-1-2-3-0-1-0-0-S"
    );
    assert_eq!(
        play(either, "1-0-2-3-0-1-0-0-N", "c").0,
        "0-0-2-3-0-0-0-2-S"
    );
    // No pass: a player always has a move while the board has a counter, and the counters left
    // when the game ends otherwise count for nobody.
    let alone = position(either, "0-0-0-1-0-0-3-2-N");
    assert_eq!(
        alone
            .legal_moves()
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>(),
        ["a"]
    );
}

#[test]
fn a_pit_of_either_row_whose_direction_is_chosen_gives_two_moves() {
    let either = game(
        "either-row-chosen",
        "moves = \"either-row\"\nchosen-direction-pits = [2]\ngame-ends = \"board-empty\"\n\
         leftover = \"nobody\"\n",
    );
    // The middle pit of each row, South's `B` and North's `b`, is played either way.
    let pos = Position::start(either);
    assert_eq!(pos.legal_moves().to_string(), "A B> B< C a b> b< c");
    // South sows North's `b` clockwise, into `a` and `C`, or counter-clockwise, into `c` and `A`.
    assert_eq!(
        play(either, "2-2-2-2-2-2-0-0-S", "b<").0,
        "2-2-3-3-0-2-0-0-N"
    );
    assert_eq!(
        play(either, "2-2-2-2-2-2-0-0-S", "b>").0,
        "3-2-2-2-0-3-0-0-N"
    );
    // A pit of a chosen place is never played without its direction.
    assert!(pos.check_move(mv("b")).is_err());
    // More moves than a position may have: every pit of two rows of 9, both ways.
    let error = definition::parse(
        "name = \"x\"\npits-per-row = 9\nstart = 2\nmoves = \"either-row\"\n\
         chosen-direction-pits = [1, 2, 3, 4, 5, 6, 7, 8, 9]\ngame-ends = \"board-empty\"\n\
         leftover = \"nobody\"\n",
    )
    .unwrap_err();
    assert_eq!(error.field, "chosen-direction-pits", "{error}");
}

#[test]
fn either_row_refuses_rules_that_ask_whose_row_a_pit_is_in() {
    let base = "name = \"x\"\npits-per-row = 3\nstart = 2\nmoves = \"either-row\"\n\
                game-ends = \"board-empty\"\nleftover = \"nobody\"\n";
    for (extra, field) in [
        ("must-feed = true\n", "must-feed"),
        (
            "capture-counts = [2]\ncapture-side = \"opponent\"\n",
            "capture-side",
        ),
        (
            "capture-counts = [2]\ngrand-slam = \"captures-nothing\"\n",
            "grand-slam",
        ),
        ("goal = \"deprive\"\n", "goal"),
    ] {
        let error = definition::parse(&format!("{base}{extra}")).unwrap_err();
        assert_eq!(error.field, field, "{extra}: {error}");
    }
    // The end on an empty row, and each row's counters to its owner, mean nothing here.
    let error = definition::parse(
        "name = \"x\"\npits-per-row = 3\nstart = 2\nmoves = \"either-row\"\n\
         game-ends = \"mover-row-empty\"\n",
    )
    .unwrap_err();
    assert_eq!(error.field, "game-ends", "{error}");
    let error = definition::parse(
        "name = \"x\"\npits-per-row = 3\nstart = 2\nmoves = \"either-row\"\n\
         game-ends = \"board-empty\"\nleftover = \"row-owner\"\n",
    )
    .unwrap_err();
    assert_eq!(error.field, "leftover", "{error}");
    // A move list holds every pit of the board: a 2×12 board's 24 moves.
    let wide = definition::register(
        "name = \"either-row-wide\"\npits-per-row = 12\nstart = 2\nmoves = \"either-row\"\n\
         game-ends = \"board-empty\"\nleftover = \"nobody\"\n",
    )
    .unwrap();
    let moves = Position::start(wide).legal_moves();
    assert_eq!(moves.len(), 24);
    assert_eq!(
        moves.to_string(),
        "A B C D E F G H I J K L a b c d e f g h i j k l"
    );
}

// ---------------------------------------------------------------------------------------------
// A start made by a move

#[test]
fn the_opening_move_from_the_rightmost_pit_is_made_for_south() {
    let opening = definition::register(
        "name = \"opening-rightmost\"\npits-per-row = 3\nstart = 2\ncapture-counts = [3]\n\
         opening-from-rightmost = true\n",
    )
    .unwrap();
    // South's `C` sows `a b`; `b` makes 3 and is captured: the start is after it, North to move.
    assert_eq!(Position::start(opening).to_string(), "2-2-0-3-0-2-3-0-N");
    // Without the rule, the equal deal with South to move.
    let plain = game("opening-plain", "capture-counts = [3]\n");
    assert_eq!(Position::start(plain).to_string(), "2-2-2-2-2-2-0-0-S");
    // Refused where the start is dealt at random, in rounds, or where the pit is empty.
    for (extra, field) in [
        ("random-start = true\n", "random-start"),
        ("rounds = true\nleftover = \"row-owner\"\n", "rounds"),
    ] {
        let error = definition::parse(&format!(
            "name = \"x\"\npits-per-row = 3\nstart = 2\nopening-from-rightmost = true\n{extra}"
        ))
        .unwrap_err();
        assert_eq!(error.field, field, "{extra}: {error}");
    }
    let error = definition::parse(
        "name = \"x\"\npits-per-row = 3\nstart = [2, 2, 0, 2, 2, 2]\n\
         opening-from-rightmost = true\n",
    )
    .unwrap_err();
    assert_eq!(error.field, "opening-from-rightmost", "{error}");
}

// ---------------------------------------------------------------------------------------------
// Directions the player chooses

#[test]
fn a_pit_whose_direction_the_mover_chooses_gives_two_moves() {
    let chosen = game("chosen-direction", "chosen-direction-pits = [2]\n");
    let pos = position(chosen, "1-2-1-1-1-1-0-0-S");
    let names: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(names, ["A", "B>", "B<", "C"]);
    // `B>` sows counter-clockwise (`C a`), `B<` clockwise (`A c`).
    assert_eq!(
        play(chosen, "1-2-1-1-1-1-0-0-S", "B>").0,
        "1-0-2-2-1-1-0-0-N"
    );
    assert_eq!(
        play(chosen, "1-2-1-1-1-1-0-0-S", "B<").0,
        "2-0-1-1-1-2-0-0-N"
    );
    // The direction is needed where it is chosen, and refused elsewhere.
    assert_eq!(
        pos.check_move(mv("B")).unwrap_err().reason,
        IllegalReason::DirectionNeeded
    );
    assert_eq!(
        pos.check_move(mv("A>")).unwrap_err().reason,
        IllegalReason::NoDirectionChoice
    );
    // North's pit at the same place: `b`.
    let north = position(chosen, "1-1-1-1-2-1-0-0-N");
    let names: Vec<String> = north.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(names, ["a", "b>", "b<", "c"]);
    // The telling follows the chosen direction and replays to the same board.
    let trace = pos.trace_move(mv("B<")).unwrap();
    let mut after = pos;
    after.play(mv("B<")).unwrap();
    assert_eq!(trace.replay(&pos).pits(), after.pits(), "{trace}");
}

#[test]
fn a_chain_after_a_chosen_direction_runs_against_the_games_direction_where_it_has_one() {
    let fixed = game(
        "chosen-chain-fixed",
        "chosen-direction-pits = [2]\ncapture-counts = [2]\ncapture-chain = true\n",
    );
    // `B<` sows `A c`: `c` makes 2 and is taken; the chain goes on against the game's
    // counter-clockwise sowing, to `b` (1: the end), not to `A` (2).
    assert_eq!(
        play(fixed, "1-2-0-0-1-1-0-0-S", "B<").0,
        "2-0-0-0-1-0-2-0-N"
    );
    // Where each pit has its own direction (row halves), against the move's: `A` is taken too.
    let halves = game(
        "chosen-chain-halves",
        "chosen-direction-pits = [2]\ncapture-counts = [2]\ncapture-chain = true\n\
         direction-by = \"row-halves\"\n",
    );
    assert_eq!(
        play(halves, "1-2-0-0-1-1-0-0-S", "B<").0,
        "0-0-0-0-1-0-4-0-N"
    );
}

#[test]
fn chosen_directions_refuse_what_needs_a_direction_before_the_move() {
    let base = "name = \"x\"\npits-per-row = 3\nstart = 2\nchosen-direction-pits = [1]\n";
    for (extra, field) in [
        ("move-filter = \"single-into-empty\"\n", "move-filter"),
        ("sow-own-store = true\n", "sow-own-store"),
        (
            "capture-counts = [2]\ngrand-slam = \"captures-nothing\"\n",
            "grand-slam",
        ),
        ("moves = \"leftmost\"\n", "moves"),
    ] {
        let error = definition::parse(&format!("{base}{extra}")).unwrap_err();
        assert_eq!(error.field, field, "{extra}: {error}");
    }
    // A place beyond the row.
    let error = definition::parse(
        "name = \"x\"\npits-per-row = 3\nstart = 2\nchosen-direction-pits = [4]\n",
    )
    .unwrap_err();
    assert_eq!(error.field, "chosen-direction-pits", "{error}");
    // Every pit of a 12-pit row chosen: 24 moves, all in a move list.
    let every = definition::register(
        "name = \"chosen-every-pit\"\npits-per-row = 12\nstart = 2\n\
         chosen-direction-pits = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]\n",
    )
    .unwrap();
    assert_eq!(Position::start(every).legal_moves().len(), 24);
    // Row halves of an odd row: the middle pit must be chosen.
    let error = definition::parse(
        "name = \"x\"\npits-per-row = 3\nstart = 2\ndirection-by = \"row-halves\"\n",
    )
    .unwrap_err();
    assert_eq!(error.field, "direction-by", "{error}");
}

// ---------------------------------------------------------------------------------------------
// A single counter's crossing over an end of the board, not undone

#[test]
fn a_single_counter_that_crossed_an_end_of_the_board_may_not_go_straight_back() {
    let no_back = game(
        "no-crossing-back",
        "no-crossing-back = true\ndirection-by = \"row-halves\"\nchosen-direction-pits = [2]\n",
    );
    // Row halves: `A` sows clockwise, over the board's end into `c`; `c` sows
    // counter-clockwise, straight back into `A`.
    let (after, _) = play(no_back, "1-0-0-1-1-1-0-0-S-X", "A");
    assert_eq!(
        after, "0-0-0-1-1-2-0-0-N-X",
        "c held a counter: no lone crossing"
    );
    let (after, _) = play(no_back, "1-0-0-1-1-0-0-0-S-X", "A");
    assert_eq!(after, "0-0-0-1-1-1-0-0-N-c");
    // North may not play `c` now; every other pit as ever.
    let pos = position(no_back, &after);
    let names: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(names, ["a", "b>", "b<"]);
    assert_eq!(pos.crossed_into(), Some(5));
    // The next move clears it (or names its own crossing), and the string reads back.
    let (next, _) = play(no_back, &after, "b>");
    assert_eq!(next, "0-0-0-1-0-2-0-0-S-X");
    let (next, _) = play(no_back, &after, "a");
    assert_eq!(
        next, "0-0-1-0-1-1-0-0-S-C",
        "a crosses into C: South may not play C"
    );
    assert_eq!(position(no_back, &after).to_string(), after);
    // Where the crossed pit is the only one, the player has no move but a pass (a game with
    // passes: this one ends on an empty board).
    let alone = position(no_back, "0-0-0-0-0-1-3-3-N-c");
    assert_eq!(alone.legal_moves().as_slice(), [Move::PASS]);
    // The field must be a pit of the board, or X.
    assert!(Position::from_position_string(no_back, "1-0-0-1-1-1-0-0-S-z").is_err());
    assert!(Position::from_position_string(no_back, "1-0-0-1-1-1-0-0-S-B>").is_err());
    // Without the rule, `c` may go straight back.
    let plain = game(
        "crossing-back",
        "direction-by = \"row-halves\"\nchosen-direction-pits = [2]\n",
    );
    let (after, _) = play(plain, "1-0-0-1-1-0-0-0-S", "A");
    let names: Vec<String> = position(plain, &after)
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(names, ["a", "b>", "b<", "c"]);
}

#[test]
fn a_relay_with_opposite_whose_only_count_is_one_is_refused() {
    // A landing pit holding one ends the move first: such a relay would never capture.
    let error = definition::parse(
        "name = \"x\"\npits-per-row = 3\nstart = 2\nlaps = \"relay-with-opposite\"\n\
         capture-counts = [1]\ncapture-chain = true\n",
    )
    .unwrap_err();
    assert_eq!(error.field, "capture-counts", "{error}");
    assert!(
        definition::parse(
            "name = \"x\"\npits-per-row = 3\nstart = 2\nlaps = \"relay-with-opposite\"\n\
             capture-counts = [1, 4]\ncapture-chain = true\n",
        )
        .is_ok()
    );
}

#[test]
fn a_lap_whose_capture_empties_its_own_last_pit_ends_the_move() {
    // 2x2, clockwise, one counter of each lap to the store. `b` (3): one to North's store, `a B`;
    // `B` (2) relays: one to the store, one into `A`. The capture at the end of that lap goes
    // round the small board and takes `A` itself, and the move ends there: it went on from the
    // emptied pit, and a counter to the store out of an empty hand made 256 of nothing.
    let small = definition::register(
        "name = \"lap-capture-round\"\npits-per-row = 2\nstart = 2\ndirection = \"clockwise\"\n\
         capture-past-empty = true\nlaps = \"relay\"\nlap-limit = 40\nstore-one-per-lap = true\n\
         capture-chain = true\nlap-captures = true\n",
    )
    .unwrap();
    let mut pos = position(small, "1-1-0-3-3-0-N");
    pos.play(mv("b")).unwrap();
    let total: u32 = pos.pits().iter().map(|&c| c as u32).sum::<u32>()
        + pos.captured(Side::South) as u32
        + pos.captured(Side::North) as u32;
    assert_eq!(total, 8, "{pos}");
    assert_eq!(pos.to_string(), "0-0-0-0-3-5-S");
}

// ---------------------------------------------------------------------------------------------
// A match for territory

/// Registers a 2×3 match for territory: 3 a pit (18 counters), 5 pits to win, with `rules` added.
fn territory_game(name: &str, rules: &str) -> Variant {
    game_file(&format!(
        "name = \"{name}\"\npits-per-row = 3\nstart = 3\ncapture-counts = [2]\n\
         leftover = \"row-owner\"\nrounds = true\nterritory-pits-to-win = 5\n{rules}"
    ))
}

#[test]
fn in_a_match_for_territory_a_player_moves_from_the_pits_it_owns() {
    let land = territory_game("territory-moves", "");
    // North owns South's `A` this round (the last field names each pit's owner).
    let south = position(land, "2-2-2-2-2-2-3-3-S-S-NSSNNN");
    assert_eq!(south.legal_moves().to_string(), "B C");
    let refused = south.check_move(mv("A")).unwrap_err();
    assert_eq!(refused.reason, IllegalReason::OpponentsPit);
    let north = position(land, "2-2-2-2-2-2-3-3-N-S-NSSNNN");
    assert_eq!(north.legal_moves().to_string(), "A a b c");
    // North sows from `A` as from any pit, counter-clockwise.
    assert_eq!(
        play(land, "2-2-2-2-2-2-3-3-N-S-NSSNNN", "A").0,
        "0-3-3-2-2-2-3-3-S-S-NSSNNN"
    );
}

#[test]
fn in_a_match_for_territory_the_pits_a_player_owns_are_its_row() {
    // Feeding: North's own pits `b c` are empty, so South must feed them: `C` sows into `a`,
    // which South owns; only `a` reaches North's.
    let feeding = territory_game(
        "territory-feeding",
        "must-feed = true\nunfed = \"as-leftover\"\n",
    );
    let pos = position(feeding, "0-0-1-2-0-0-8-7-S-S-SSSSNN");
    assert_eq!(pos.legal_moves().to_string(), "a");
    assert_eq!(
        pos.check_move(mv("C")).unwrap_err().reason,
        IllegalReason::DoesNotFeed
    );
    // The end on the mover's row empty, and the leftover to each pit's owner: South's `A C`
    // are empty, North takes its `B` and `a`.
    let ends = territory_game("territory-row-empty", "game-ends = \"mover-row-empty\"\n");
    assert_eq!(
        final_totals(ends, "0-3-0-1-0-0-7-7-S-S-SNSNNN"),
        (Ending::RowEmpty, [7, 11])
    );
}

#[test]
fn a_match_for_territory_deals_the_winner_the_pits_its_counters_fill() {
    let land = territory_game("territory-deal", "");
    let ended = position(land, "0-0-0-0-0-0-9-9-S-S-SSSNNN");
    let deal = |totals: [u32; 2]| ended.next_round(totals, Side::North).map(|p| p.to_string());
    // North's 11 fill three pits and two thirds of a fourth (over half: it is North's), from
    // North's first pit `a`, round to South's `A`. Every pit starts again with 3.
    assert_eq!(deal([7, 11]).unwrap(), "3-3-3-3-3-3-0-0-N-N-NSSNNN");
    // South's 10 fill three pits and a third of a fourth: three pits, as at the start.
    assert_eq!(deal([10, 8]).unwrap(), "3-3-3-3-3-3-0-0-N-N-SSSNNN");
    // South's 11: four pits, from its `A` to North's `a`.
    assert_eq!(deal([11, 7]).unwrap(), "3-3-3-3-3-3-0-0-N-N-SSSSNN");
    // A drawn round: each owns its row.
    let drawn = position(land, "0-0-0-0-0-0-9-9-S-S-NSSNNN");
    assert_eq!(
        drawn.next_round([9, 9], Side::North).unwrap().to_string(),
        "3-3-3-3-3-3-0-0-N-N-SSSNNN"
    );
    // Five pits to win: more than 4 × 3 + 1 = 13 counters win; a round that leaves a player
    // fewer than 18 - 14 + 1 = 5 ends the match.
    assert!(deal([13, 5]).is_some());
    assert_eq!(deal([14, 4]), None);
}

#[test]
fn a_match_for_territory_ends_when_a_player_can_no_longer_hold_enough_pits() {
    let land = territory_game("territory-end", "");
    // South's `C` makes 2 in `a` and takes them: the board is empty with 14 against 4, and the
    // match is South's.
    let mut game = Game::new(
        position(land, "0-0-1-1-0-0-12-4-S-S-SSSNNN"),
        LastFourRule::default(),
    );
    game.play(mv("C")).unwrap();
    assert!(game.is_over());
    assert_eq!(game.result(), Some(mancala_rules::GameResult::SouthWins));
    assert_eq!(game.score(), [14, 4]);
    // With `majority-ends`, a player past 13 captured ends the match at once.
    let majority = territory_game("territory-majority", "majority-ends = true\n");
    assert_eq!(
        final_totals(majority, "1-1-1-0-0-0-15-0-N-S-SSSNNN").0,
        Ending::Majority
    );
    assert_eq!(
        position(majority, "1-1-1-1-0-0-14-0-N-S-SSSNNN").own_ending(),
        None
    );
}

#[test]
fn position_strings_of_a_match_for_territory_name_each_pit_s_owner() {
    let land = territory_game("territory-strings", "");
    assert_eq!(
        Position::start(land).to_string(),
        "3-3-3-3-3-3-0-0-S-S-SSSNNN"
    );
    let error = Position::from_position_string(land, "3-3-3-3-3-3-0-0-S-S-SSXNNN").unwrap_err();
    assert_eq!(
        error.to_string(),
        "the owners field is 'SSXNNN', expected S or N for each of the 6 pits, in pit order"
    );
    assert!(Position::from_position_string(land, "3-3-3-3-3-3-0-0-S-S").is_err());
    // Rules that ask whose row a pit is in by its row are refused with territory.
    let refused = definition::register(
        "name = \"territory-side\"\npits-per-row = 3\nstart = 3\nleftover = \"row-owner\"\n\
         rounds = true\nterritory-pits-to-win = 5\ncapture-side = \"own\"\n",
    )
    .unwrap_err();
    assert!(refused.to_string().contains("capture-side"), "{refused}");
}

#[test]
fn a_partly_filled_pit_may_go_to_the_round_s_loser() {
    let land = territory_game(
        "territory-to-loser",
        "territory-partial-pit-to-loser = true\n",
    );
    let ended = position(land, "0-0-0-0-0-0-9-9-S-S-SSSNNN");
    let deal = |totals: [u32; 2]| ended.next_round(totals, Side::North).map(|p| p.to_string());
    // South's 11 fill three pits and two thirds of a fourth: the fourth is North's all the same.
    assert_eq!(deal([11, 7]).unwrap(), "3-3-3-3-3-3-0-0-N-N-SSSNNN");
    // Every one of the five pits to win must be filled: 14 fill four and go on (North's 4 are at
    // least 18 - 15 + 1); 15 fill five, and North's 3 end the match.
    assert_eq!(deal([14, 4]).unwrap(), "3-3-3-3-3-3-0-0-N-N-SSSSNN");
    assert_eq!(deal([15, 3]), None);
}

// ---------------------------------------------------------------------------------------------
// Directions chosen by the first move

#[test]
fn the_first_move_chooses_the_way_each_player_sows() {
    let ways = game("first-move-ways", "direction-by = \"first-move\"\n");
    // Before the first move every pit has two moves, and a move names its direction.
    let start = position(ways, "2-2-2-2-2-2-0-0-S-X");
    assert_eq!(start.legal_moves().to_string(), "A> A< B> B< C> C<");
    assert_eq!(
        start.check_move(mv("A")).unwrap_err().reason,
        IllegalReason::DirectionNeeded
    );
    // South chooses clockwise: `A<` sows North's `c` and `b`. South sows clockwise from now on,
    // North counter-clockwise, and the moves name no direction.
    let (after, _) = play(ways, "2-2-2-2-2-2-0-0-S-X", "A<");
    assert_eq!(after, "0-2-2-2-3-3-0-0-N-<");
    let north = position(ways, &after);
    assert_eq!(north.legal_moves().to_string(), "a b c");
    assert_eq!(
        north.check_move(mv("a>")).unwrap_err().reason,
        IllegalReason::NoDirectionChoice
    );
    // North's `a` sows counter-clockwise: into `b` and `c`.
    assert_eq!(play(ways, &after, "a").0, "0-2-2-0-4-4-0-0-S-<");
    // And South's `C` clockwise: into `B` and `A`.
    assert_eq!(
        play(ways, "0-2-2-0-4-4-0-0-S-<", "C").0,
        "1-3-0-0-4-4-0-0-N-<"
    );
    // The field is checked.
    let error = Position::from_position_string(ways, "2-2-2-2-2-2-0-0-S-Y").unwrap_err();
    assert!(
        error.to_string().contains("directions field is 'Y'"),
        "{error}"
    );
    // In a match of rounds each round's first move chooses again.
    let rounds = rounds_game("first-move-rounds", "direction-by = \"first-move\"\n");
    let ended = position(rounds, "0-0-0-0-0-0-6-6-S-S-<");
    let next = ended.next_round([6, 6], Side::North).unwrap();
    assert_eq!(next.to_string(), "2-2-2-2-2-2-0-0-N-N-X");
}

// ---------------------------------------------------------------------------------------------
// The last mover's leftover taken by the move that ends the game

#[test]
fn a_move_that_ends_the_game_and_takes_the_leftover_is_hinted_as_a_capture() {
    // Extra moves after captures, so the move that ends the game takes what is left at once.
    let last = game(
        "leftover-hint",
        "capture-counts = [3]\ncapture-extra-move = \"always\"\nleftover = \"last-mover\"\n\
         game-ends = \"either-row-empty\"\n",
    );
    // `C` sows its one counter into `a` (2: no capture) and empties South's row: the game is
    // over, and South, its last mover, takes the 4 left.
    let pos = position(last, "0-0-1-1-2-0-0-0-S");
    assert_eq!(play(last, "0-0-1-1-2-0-0-0-S", "C").0, "0-0-0-0-0-0-4-0-N");
    assert!(
        pos.capture_hint(2).is_some(),
        "the move takes 4 and was not hinted"
    );
}

#[test]
fn a_crossing_whose_pit_the_leftover_emptied_is_not_remembered() {
    let last = game(
        "leftover-crossing",
        "capture-counts = [3]\ncapture-extra-move = \"always\"\nleftover = \"last-mover\"\n\
         game-ends = \"either-row-empty\"\nno-crossing-back = true\n",
    );
    // `C`'s single counter crosses into the empty `a`, but the game ends and South takes `a`
    // with the rest: no pit holds a crossed counter, so the last field is `X`.
    assert_eq!(
        play(last, "0-0-1-0-2-0-0-0-S-X", "C").0,
        "0-0-0-0-0-0-3-0-N-X"
    );
    // Where the game goes on, the pit crossed into is remembered.
    assert_eq!(
        play(last, "1-0-1-0-2-0-0-0-S-X", "C").0,
        "1-0-0-1-2-0-0-0-N-a"
    );
}

// ---------------------------------------------------------------------------------------------
// A last counter into an empty pit that gives the mover's store away

#[test]
fn a_last_counter_into_an_empty_pit_of_the_opponent_gives_the_movers_store_away() {
    let gives = game(
        "empty-landing-gives-store",
        "empty-landing-gives-store = true\ncapture-side = \"opponent\"\n",
    );
    // `C` sows its one counter into North's empty `a`: South's store of 5 goes to North.
    let before = position(gives, "0-0-1-0-1-0-5-3-S");
    let mut after = before;
    let effect = after.play(mv("C")).unwrap();
    assert_eq!(after.to_string(), "0-0-0-1-1-0-0-8-N");
    // The opponent gained five: a capture of theirs, progress as any capture.
    assert_eq!(effect.captured, 5);
    // The telling gives the store away, and replays to the same totals.
    let trace = before.trace_move(mv("C")).unwrap();
    assert_eq!(trace.to_string(), "C:1 a x*S:5>N");
    assert_eq!(
        trace.steps.last(),
        Some(&SowStep::StoreGiven {
            from: Side::South,
            count: 5
        })
    );
    let replayed = trace.replay(&before);
    assert_eq!(replayed.captured(Side::South), 0);
    assert_eq!(replayed.captured(Side::North), 8);
    // Into a pit that held counters: nothing.
    assert_eq!(play(gives, "0-0-1-1-1-0-5-3-S", "C").0, "0-0-0-2-1-0-5-3-N");
    // Into an empty pit of the mover's own row, off the capture side: nothing.
    assert_eq!(play(gives, "0-1-0-0-1-0-5-3-S", "B").0, "0-0-1-0-1-0-5-3-N");
    // An empty store gives nothing, and the move made no progress.
    let mut empty = position(gives, "0-0-1-0-1-0-0-3-S");
    assert_eq!(empty.play(mv("C")).unwrap().captured, 0);
    assert_eq!(empty.to_string(), "0-0-0-1-1-0-0-3-N");
    // A final margin may now be anywhere within the total: South's 5 ahead can still end 8
    // behind.
    assert_eq!(before.final_margin_range(), (-10, 10));
}

#[test]
fn a_relay_move_ending_in_an_empty_pit_of_the_opponent_gives_the_movers_store_away() {
    let gives = game(
        "relay-empty-landing-gives-store",
        "laps = \"relay\"\nempty-landing-gives-store = true\ncapture-side = \"opponent\"\n",
    );
    // `C` sows `a b`; `b` was empty: the move ends there, and South's 4 go to North.
    assert_eq!(play(gives, "0-0-2-1-0-0-4-0-S", "C").0, "0-0-0-2-1-0-0-4-N");
    // Not with other captures of an empty landing, nor with another move after a capture.
    for clash in [
        "capture-empty-opposite = true\n",
        "capture-extra-move = \"always\"\ncapture-counts = [2]\n",
    ] {
        let error = definition::parse(&format!(
            "name = \"x\"\npits-per-row = 3\nstart = 2\nempty-landing-gives-store = true\n{clash}"
        ))
        .unwrap_err();
        assert_eq!(error.field, "empty-landing-gives-store", "{error}");
    }
}

#[test]
fn a_store_given_away_is_told_after_the_take_that_filled_it_and_hinted_for_either_rows_mover() {
    // A single counter takes the pit facing it into the store, then lands in an empty pit and
    // gives that store away: the telling says both (found by the property tests).
    let takes_then_gives = game(
        "takes-facing-then-gives-store",
        "single-counter-takes-facing = true\nempty-landing-gives-store = true\n\
         capture-side = \"any\"\n",
    );
    let before = position(takes_then_gives, "0-1-0-0-3-0-0-0-S");
    let mut after = before;
    after.play(mv("B")).unwrap();
    assert_eq!(after.to_string(), "0-0-1-0-0-0-0-3-N");
    let trace = before.trace_move(mv("B")).unwrap();
    assert_eq!(trace.to_string(), "B:1 C xb:3>S x*S:3>N");
    let replayed = trace.replay(&before);
    assert_eq!(
        (
            replayed.captured(Side::South),
            replayed.captured(Side::North)
        ),
        (0, 3)
    );
    // Where either player moves any pit, North's move from South's `B` gives North's store
    // away: the capture hint of the side to move sees it (it used to sow as the row's owner).
    let either = game(
        "either-row-gives-store",
        "moves = \"either-row\"\ngame-ends = \"board-empty\"\nleftover = \"nobody\"\n\
         empty-landing-gives-store = true\ncapture-side = \"any\"\n",
    );
    let pos = position(either, "0-1-0-0-0-0-0-3-N");
    let mut played = pos;
    played.play(mv("B")).unwrap();
    assert_eq!(played.to_string(), "0-0-1-0-0-0-3-0-S");
    assert!(pos.capture_hint(1).is_some());
}

// ---------------------------------------------------------------------------------------------
// Children

#[test]
fn a_last_counter_that_makes_the_child_count_makes_the_pit_the_mover_s() {
    let kin = game("children-count", "child-count = 3\ncapture-counts = [4]\n");
    // `C` sows `a b`; `b` now holds 3: South's child, in North's row (any side will do).
    assert_eq!(
        play(kin, "1-1-2-1-2-1-2-2-S", "C"),
        ("1-1-0-2-3s-1-2-2-N".to_string(), false)
    );
    // Nobody moves from a child, and no capture takes it: `a` sows `b c`, making `b` 4, the
    // count that captures, but `b` is a child.
    let pos = position(kin, "1-1-0-2-3s-1-2-2-N");
    assert_eq!(pos.legal_moves().to_string(), "a c");
    assert_eq!(
        play(kin, "1-1-0-2-3s-1-2-2-N", "a"),
        ("1-1-0-0-4s-2-2-2-S".to_string(), false)
    );
    // Only in the mover's own row where the game says so: the same move makes no child.
    let own = game("children-own", "child-count = 3\nchild-side = \"own\"\n");
    assert_eq!(
        play(own, "1-1-2-1-2-1-2-2-S", "C"),
        ("1-1-0-2-3-1-2-2-N".to_string(), false)
    );
    // A move that makes a child captures nothing: `C` would take the 3 it makes in `b`.
    let either = game(
        "children-before-captures",
        "child-count = 3\ncapture-counts = [3]\n",
    );
    assert_eq!(
        play(either, "1-1-2-1-2-1-2-2-S", "C"),
        ("1-1-0-2-3s-1-2-2-N".to_string(), false)
    );
    // Told step by step, the child made is a step of its own.
    let trace = position(kin, "1-1-2-1-2-1-2-2-S")
        .trace_move(mv("C"))
        .unwrap();
    assert_eq!(trace.to_string(), "C:2 a b +b>S");
}

#[test]
fn a_last_counter_into_the_opponent_s_child_takes_from_it() {
    let weg = game(
        "children-weg",
        "child-count = 3\nchild-landing-takes = 2\ncapture-extra-move = \"always\"\n",
    );
    // `a`'s one counter falls into South's child `b`, which then holds 4: North takes 2, a
    // capture, and so moves again.
    let mut pos = position(weg, "1-1-0-1-3s-2-2-2-N");
    let effect = pos.play(mv("a")).unwrap();
    assert_eq!(pos.to_string(), "1-1-0-0-2s-2-2-4-N");
    assert!(effect.extra_turn);
    // A child holding one gives its one.
    assert_eq!(play(weg, "1-1-0-1-0s-2-2-2-N", "a").0, "1-1-0-0-0s-2-2-3-N");
    // Into one's own child: nothing taken, and no other move.
    assert_eq!(
        play(weg, "1-1-0-1-3n-2-2-2-N", "a"),
        ("1-1-0-0-4n-2-2-2-S".to_string(), false)
    );
    let trace = position(weg, "1-1-0-1-3s-2-2-2-N")
        .trace_move(mv("a"))
        .unwrap();
    assert_eq!(trace.to_string(), "a:1 b xb:2>N again");
}

#[test]
fn a_last_counter_into_an_empty_pit_facing_the_count_makes_a_pair() {
    let qur = game(
        "children-pair",
        "child-count = 3\nchild-made-by = \"facing-pair\"\n",
    );
    // `A`'s one counter falls into the empty `B`, facing `b` of 3: both become South's.
    assert_eq!(
        play(qur, "1-0-1-2-3-1-2-2-S", "A"),
        ("0-1s-1-2-3s-1-2-2-N".to_string(), false)
    );
    // Not where the landing pit held counters, nor where the facing pit holds another count.
    assert_eq!(play(qur, "1-1-1-2-3-1-2-2-S", "A").0, "0-2-1-2-3-1-2-2-N");
    assert_eq!(play(qur, "1-0-1-2-2-1-2-2-S", "A").0, "0-1-1-2-2-1-2-2-N");
    let trace = position(qur, "1-0-1-2-3-1-2-2-S")
        .trace_move(mv("A"))
        .unwrap();
    assert_eq!(trace.to_string(), "A:1 B +B>S +b>S");
}

#[test]
fn one_child_each_where_the_game_says_so() {
    let one = game(
        "children-one-each",
        "child-count = 3\nchild-made-by = \"one-each\"\n",
    );
    // South has its child (`c`): `C` makes `b` hold 3, but no second child.
    assert_eq!(play(one, "1-1-2-1-2-1s-2-2-S", "C").0, "1-1-0-2-3-1s-2-2-N");
    // North has none: `a` makes `b` North's.
    assert_eq!(
        play(one, "1-1-0-1-2-1s-2-4-N", "a").0,
        "1-1-0-0-3n-1s-2-4-S"
    );
    // A position with two children of one player is not one of this game's.
    let error = Position::from_position_string(one, "1s-1s-0-1-2-1-2-4-N").unwrap_err();
    assert_eq!(
        error.to_string(),
        "South has more than one child, where this game allows one each"
    );
}

#[test]
fn a_relay_move_stops_where_it_makes_a_child_or_ends_in_one() {
    let relay = game("children-relay", "laps = \"relay\"\nchild-count = 3\n");
    // `A` sows `B C`; `C` now holds 3: a child, and the move ends there (without children it
    // would go on from `C`).
    assert_eq!(
        play(relay, "2-0-2-0-0-0-4-4-S", "A").0,
        "0-1-3s-0-0-0-4-4-N"
    );
    let plain = game("children-relay-none", "laps = \"relay\"\n");
    assert_eq!(play(plain, "2-0-2-0-0-0-4-4-S", "A").0, "0-1-0-1-1-1-4-4-N");
    // A lap that ends in a child (here South's `C`, now 2) ends the move.
    assert_eq!(
        play(relay, "2-0-1s-1-0-0-4-4-S", "A").0,
        "0-1-2s-1-0-0-4-4-N"
    );
}

#[test]
fn a_child_s_counters_are_its_owner_s_at_the_end() {
    let kin = game(
        "children-end",
        "child-count = 3\ncapture-counts = [2]\nleftover = \"row-owner\"\n\
         game-ends = \"mover-row-empty\"\n",
    );
    // `C` makes `a` 2, captured: only North's child `c` holds counters, so the board is empty;
    // its 3 are North's.
    let mut game = Game::new(position(kin, "0-0-1-1-0-3n-4-3-S"), LastFourRule::default());
    game.play(mv("C")).unwrap();
    assert_eq!(game.position().to_string(), "0-0-0-0-0-3n-6-3-N");
    assert!(game.is_over());
    assert_eq!(game.ending(), Some(Ending::BoardEmpty));
    assert_eq!(game.final_totals(), Some([6, 6]));
    // North to move has no counters outside South's child `b`: the game is over. The counters
    // left go by `leftover`, the child's to its owner: South 3 captured, its row's 1 and the
    // child's 4.
    assert_eq!(
        final_totals(kin, "1-0-0-0-4s-0-3-4-N"),
        (Ending::RowEmpty, [8, 4])
    );
}

#[test]
fn too_few_counters_end_the_game_only_without_children() {
    let kin = game(
        "children-too-few",
        "child-count = 3\ncapture-counts = [2]\nends-below = 2\n",
    );
    // One counter left outside a child: a counter sown into the child may still change the
    // outcome, so the game goes on; without a child it is over.
    assert_eq!(position(kin, "1-0-0-0-3n-0-4-4-S").own_ending(), None);
    assert_eq!(
        position(kin, "1-0-0-0-0-0-4-4-S").own_ending(),
        Some(Ending::TooFew)
    );
    // Strings mark a child's count with its owner; a game without children has none.
    let plain = game("children-none", "capture-counts = [2]\n");
    let error = Position::from_position_string(plain, "1-0-0-0-3n-0-4-4-S").unwrap_err();
    assert_eq!(
        error.to_string(),
        "pit b is marked a child, but this game has no children"
    );
}

// ---------------------------------------------------------------------------------------------
// Each player's own row as its ring

#[test]
fn each_player_sows_round_its_own_row() {
    let rows = game("own-row-ring", "sowing-ring = \"own-row\"\n");
    // `C` sows `A B C`: past its row's end it comes round to its own first pit, not to `a`.
    assert_eq!(play(rows, "1-1-3-2-2-2-0-0-S", "C").0, "2-2-1-2-2-2-0-0-N");
    // North's `c` sows `a b`, in its own row too.
    assert_eq!(play(rows, "1-1-3-2-2-2-0-0-N", "c").0, "1-1-3-3-3-0-0-0-S");
    let trace = position(rows, "1-1-3-2-2-2-0-0-S")
        .trace_move(mv("C"))
        .unwrap();
    assert_eq!(trace.to_string(), "C:3 A B C");
    // With the store, it closes the mover's ring after the row's last pit.
    let stores = game(
        "own-row-ring-store",
        "sowing-ring = \"own-row\"\nsow-own-store = true\nextra-turn-in-store = true\n",
    );
    assert_eq!(
        play(stores, "1-1-3-2-2-2-0-0-S", "C").0,
        "2-2-0-2-2-2-1-0-N"
    );
    let mut pos = position(stores, "1-1-1-2-2-2-0-0-S");
    assert!(pos.play(mv("C")).unwrap().extra_turn);
    assert_eq!(pos.to_string(), "1-1-0-2-2-2-1-0-S");
    // Clockwise, the store lies after the row's first pit.
    let back = game(
        "own-row-ring-clockwise",
        "sowing-ring = \"own-row\"\nsow-own-store = true\ndirection = \"clockwise\"\n",
    );
    assert_eq!(play(back, "3-1-1-2-2-2-0-0-S", "A").0, "0-2-2-2-2-2-1-0-N");
    // Captures still reach across: a last counter into an own empty pit takes the pit facing it.
    let across = game(
        "own-row-ring-capture",
        "sowing-ring = \"own-row\"\ncapture-empty-opposite = true\ncapture-takes-own = true\n",
    );
    assert_eq!(
        play(across, "0-1-0-2-2-2-0-0-S", "B").0,
        "0-0-0-0-2-2-3-0-N"
    );
    // Rules that need the whole board's ring are refused with it.
    let error = definition::parse(
        "name = \"own-row-feeding\"\npits-per-row = 3\nstart = 2\nsowing-ring = \"own-row\"\n\
         must-feed = true\n",
    )
    .unwrap_err();
    assert_eq!(error.field, "sowing-ring", "{error}");
}

#[test]
fn a_grand_slam_may_give_the_mover_s_row_to_the_opponent() {
    let across = game(
        "slam-row-across",
        "capture-empty-opposite = true\ncapture-takes-own = true\n\
         grand-slam = \"movers-row-to-opponent\"\n",
    );
    // `B`'s counter falls into the empty `C` and takes `a`, North's last counters, with itself:
    // a grand slam, so South's row (its 3 in `A`) goes to North.
    assert_eq!(
        play(across, "3-1-0-2-0-0-0-0-S", "B").0,
        "0-0-0-0-0-0-3-3-N"
    );
    let trace = position(across, "3-1-0-2-0-0-0-0-S")
        .trace_move(mv("B"))
        .unwrap();
    assert_eq!(trace.to_string(), "B:1 C xC:1>S xa:2>S xA:3>N");
    // Not where North's row was empty before the move.
    assert_eq!(
        play(across, "3-1-0-0-0-0-0-2-S", "B").0,
        "3-0-1-0-0-0-0-2-N"
    );
    let counts = game(
        "slam-row-counts",
        "capture-counts = [2]\ngrand-slam = \"movers-row-to-opponent\"\n",
    );
    // `C` makes `a` 2, taken: North's row is empty, and South's 2 in `A` go to North.
    assert_eq!(
        play(counts, "2-0-1-1-0-0-0-0-S", "C").0,
        "0-0-0-0-0-0-2-2-N"
    );
    // A grand slam that leaves a pit is not a rule of the capture that takes one pit.
    let error = definition::parse(
        "name = \"slam-leaves-across\"\npits-per-row = 3\nstart = 2\n\
         capture-empty-opposite = true\ngrand-slam = \"leaves-leftmost\"\n",
    )
    .unwrap_err();
    assert_eq!(error.field, "grand-slam", "{error}");
}

#[test]
fn a_child_s_counters_count_for_its_owner_s_majority() {
    let kin = game_file(
        "name = \"children-majority\"\npits-per-row = 3\nstart = 2\nchild-count = 3\n\
         majority-ends = true\n",
    );
    // South has captured 4 and its child `a` holds 3: 7 of the 12 counters, a majority.
    assert_eq!(
        final_totals(kin, "1-0-0-3s-1-0-4-3-N"),
        (Ending::Majority, [7, 3])
    );
    // The same counters outside a child are nobody's yet: no majority.
    assert_eq!(position(kin, "1-0-0-3-1-0-4-3-N").own_ending(), None);
}

#[test]
fn each_round_begins_without_children_and_only_counts_are_marked() {
    let rounds = rounds_game("rounds-children", "child-count = 3\n");
    // Only South's child `c` holds counters: the round is over, and the next has no children.
    let ended = position(rounds, "0-0-0-0-0-3s-6-3-S-S");
    let next = ended.next_round([9, 3], Side::South).expect("both go on");
    assert_eq!(next.to_string(), "2-2-2-2-x-x-3-1-N-N");
    // A child's mark goes with a count only: not a blocked pit, not alone.
    for text in ["xs-0-0-0-0-3s-6-3-S-S", "s-0-0-0-0-3s-6-3-S-S"] {
        let error = Position::from_position_string(rounds, text).unwrap_err();
        assert!(error.to_string().starts_with("pit A is"), "{text}: {error}");
    }
}

// ---------------------------------------------------------------------------------------------
// An opening's rules, a chain's length, a sweep to the round's starter

#[test]
fn the_opening_moves_capture_nothing() {
    let quiet = game(
        "quiet-opening",
        "capture-counts = [2]\nno-capture-moves = 2\n",
    );
    // `A` makes `B` hold 2: in the opening nothing is taken, after it `B` is captured. The
    // position string's last field counts the opening's moves, up to its two.
    assert_eq!(
        play(quiet, "1-1-0-0-0-1-0-0-S-0", "A"),
        ("0-2-0-0-0-1-0-0-N-1".to_string(), false)
    );
    assert_eq!(
        play(quiet, "1-1-0-0-0-1-0-0-S-1", "A"),
        ("0-2-0-0-0-1-0-0-N-2".to_string(), false)
    );
    assert_eq!(
        play(quiet, "1-1-0-0-0-1-0-0-S-2", "A"),
        ("0-0-0-0-0-1-2-0-N-2".to_string(), false)
    );
    // More moves than the opening has is not a position of the game.
    let err = Position::from_position_string(quiet, "1-1-0-0-0-1-0-0-S-3").unwrap_err();
    assert_eq!(
        err.to_string(),
        "the opening field is '3', expected the moves played so far, from 0 to 2"
    );
}

#[test]
fn a_pass_counts_but_never_ends_the_opening() {
    let quiet = game("quiet-pass", "capture-counts = [2]\nno-capture-moves = 1\n");
    // North has no counter and passes: the pass is a move, but the opening of one move ends
    // only with a sown one, so South's `A` still captures nothing.
    let mut pos = position(quiet, "1-1-0-0-0-0-0-0-N-0");
    assert_eq!(pos.legal_moves().as_slice(), &[Move::PASS]);
    pos.play(Move::PASS).unwrap();
    assert_eq!(pos.to_string(), "1-1-0-0-0-0-0-0-S-0");
    pos.play(mv("A")).unwrap();
    assert_eq!(pos.to_string(), "0-2-0-0-0-0-0-0-N-1");
}

#[test]
fn the_first_move_moves_one_counter_from_every_other_pit() {
    let shifted = game(
        "one-from-every-other",
        "capture-counts = [2]\nfirst-move = \"one-from-every-other\"\n",
    );
    // `A` keeps its counters; `B` gives one to `C`, `a` one to `b`, and `c`, the last, one to
    // the pit facing `A`: `c` itself. The move then captures there as a last counter would.
    let pos = position(shifted, "2-2-2-2-2-2-0-0-S-0");
    assert_eq!(
        pos.trace_move(mv("A")).unwrap().to_string(),
        "B>C a>b c>c xc:2>S"
    );
    assert_eq!(
        play(shifted, "2-2-2-2-2-2-0-0-S-0", "A"),
        ("2-1-3-1-3-0-2-0-N-1".to_string(), false)
    );
    // Every later move is sown.
    assert_eq!(
        play(shifted, "2-1-3-1-3-0-2-0-N-1", "a"),
        ("2-1-3-0-4-0-2-0-S-1".to_string(), false)
    );
    // A pit without a counter gives none (a position a game never reaches: nothing is lost).
    assert_eq!(
        play(shifted, "2-0-2-2-2-2-0-0-S-0", "A"),
        ("2-0-2-1-3-0-2-0-N-1".to_string(), false)
    );
}

#[test]
fn the_first_moves_sow_in_the_game_s_direction_from_chosen_pits() {
    let fixed = game(
        "fixed-first",
        "chosen-direction-pits = [1, 2, 3]\nfixed-direction-moves = 2\n",
    );
    let names = |text: &str| -> Vec<String> {
        let pos = position(fixed, text);
        pos.legal_moves().iter().map(|m| m.to_string()).collect()
    };
    // In the opening each pit is one move, sown counter-clockwise; then the mover chooses.
    assert_eq!(names("2-2-0-2-2-2-0-0-S-0"), ["A", "B"]);
    assert_eq!(names("2-2-0-2-2-2-0-0-N-1"), ["a", "b", "c"]);
    assert_eq!(names("2-2-0-2-2-2-0-0-S-2"), ["A>", "A<", "B>", "B<"]);
    assert_eq!(
        play(fixed, "2-2-0-2-2-2-0-0-N-1", "a"),
        ("2-2-0-0-3-3-0-0-S-2".to_string(), false)
    );
    let err = position(fixed, "2-2-0-2-2-2-0-0-S-0")
        .play(mv("A<"))
        .unwrap_err();
    assert_eq!(err.reason, IllegalReason::NoDirectionChoice);
}

#[test]
fn a_capture_chain_takes_at_most_its_most_pits() {
    let short = game(
        "short-chain",
        "capture-counts = [2]\ncapture-chain = true\ncapture-chain-most = 2\n",
    );
    // `A` makes `B`, `C` and `a` hold 2: the chain from `a` takes `a` and `C`, not `B`.
    assert_eq!(
        play(short, "3-1-1-1-0-0-0-0-S", "A"),
        ("0-2-0-0-0-0-4-0-N".to_string(), false)
    );
}

#[test]
fn the_last_counters_may_go_to_the_round_s_starter() {
    let swept = definition::register(
        "name = \"swept-to-starter\"\npits-per-row = 3\nstart = 2\nrounds = true\n\
         leftover = \"row-owner\"\ncapture-counts = [2]\nsweep-at-most = 2\n\
         sweep-taker = \"round-starter\"\n",
    )
    .unwrap();
    // South's `A` captures `B`; the one counter left (`b`) goes to North, who started the
    // round, not to South.
    let mut pos = position(swept, "1-1-0-0-1-0-6-3-S-N");
    assert_eq!(
        pos.trace_move(mv("A")).unwrap().to_string(),
        "A:1 B xB:2>S xb:1>N"
    );
    pos.play(mv("A")).unwrap();
    assert_eq!(pos.captured(Side::South), 8);
    assert_eq!(pos.captured(Side::North), 4);
}

#[test]
fn a_lap_s_capture_may_be_sown_on_from_its_last_pit() {
    let sown_on = game(
        "sown-on",
        "laps = \"relay\"\ncapture-empty-opposite = true\ncapture-takes-own = false\n\
         lap-captures = true\nlap-captures-sown-on = true\n",
    );
    // `A` drops its counter into `B`, empty and facing `b`: `b`'s two counters go into `B`,
    // which is lifted and sown on; the lap ends in North's empty `b`.
    let pos = position(sown_on, "1-0-0-0-2-0-0-0-S");
    assert_eq!(
        pos.trace_move(mv("A")).unwrap().to_string(),
        "A:1 B b>B b>B B:3 C a b"
    );
    assert_eq!(
        play(sown_on, "1-0-0-0-2-0-0-0-S", "A"),
        ("0-0-1-1-1-0-0-0-N".to_string(), false)
    );
}

#[test]
fn a_relay_may_need_the_opponent_to_hold_counters() {
    let needs = game(
        "relay-needs-opponent",
        "laps = \"relay\"\nrelay-needs-opponent-counters = true\n",
    );
    let plain = game("relay-plain", "laps = \"relay\"\n");
    // `A` makes `B` hold 2: North's row is empty, so the move ends there; else `B` relays.
    assert_eq!(
        play(needs, "1-1-0-0-0-0-0-0-S", "A"),
        ("0-2-0-0-0-0-0-0-N".to_string(), false)
    );
    assert_eq!(
        play(plain, "1-1-0-0-0-0-0-0-S", "A"),
        ("0-0-1-1-0-0-0-0-N".to_string(), false)
    );
}

// ---------------------------------------------------------------------------------------------
// Pits that close

#[test]
fn a_lap_leaving_the_closing_count_in_an_opponent_s_pit_closes_it() {
    let closing = game("closing", "laps = \"relay\"\ncloses-pits-at = 3\n");
    // `C` makes `a` hold 3: `a` closes (`x`), and the lap goes on with its counters into
    // `b c A`; `A` held nothing: the end.
    assert_eq!(
        play(closing, "0-1-1-2-0-0-0-0-S", "C"),
        ("1-1-0-x-1-1-0-0-N".to_string(), false)
    );
    // One's own pit at the count does not close: `A` makes `B` hold 3, which relays on.
    assert_eq!(
        play(closing, "1-2-0-0-0-0-0-0-S", "A"),
        ("0-0-1-1-1-0-0-0-N".to_string(), false)
    );
    // A closed pit cannot be played.
    let pos = position(closing, "1-1-0-x-1-1-0-0-N");
    assert_eq!(
        pos.check_move(mv("a")).unwrap_err().reason,
        IllegalReason::ClosedPit
    );
    // The telling closes the pit before its counters are lifted.
    let before = position(closing, "0-1-1-2-0-0-0-0-S");
    let trace = before.trace_move(mv("C")).unwrap();
    assert_eq!(trace.to_string(), "C:1 a #a a:3 b c A");
}

#[test]
fn counters_for_the_opponent_s_closed_pit_leave_the_game() {
    let closing = game("closing-leave", "laps = \"relay\"\ncloses-pits-at = 3\n");
    // `C` sows two: `a` is North's closed pit, so the first counter leaves the game (the
    // total falls from 3 to 2), the second falls into `b`.
    let (after, _) = play(closing, "0-0-2-x-0-1-0-0-S", "C");
    assert_eq!(after, "0-0-0-x-1-1-0-0-N");
    assert_eq!(position(closing, &after).total(), 2);
    let before = position(closing, "0-0-2-x-0-1-0-0-S");
    let trace = before.trace_move(mv("C")).unwrap();
    assert_eq!(trace.to_string(), "C:2 -a b");
    assert_eq!(trace.replay(&before).total(), 2);
    // One's own closed pit is passed by: `B` is South's, closed by North; `A` sows `C a`.
    assert_eq!(
        play(closing, "2-x-0-0-0-0-0-0-S", "A"),
        ("0-x-1-1-0-0-0-0-N".to_string(), false)
    );
}

#[test]
fn a_last_counter_leaving_the_game_ends_the_move() {
    let closing = game("closing-last", "laps = \"relay\"\ncloses-pits-at = 3\n");
    // `C`'s one counter is for North's closed `a`: it leaves the game, and the move ends.
    assert_eq!(
        play(closing, "1-0-1-x-0-1-0-0-S", "C"),
        ("1-0-0-x-0-1-0-0-N".to_string(), false)
    );
}

#[test]
fn closing_may_spare_each_row_s_right_hand_pit() {
    let spares = game(
        "closing-spares",
        "laps = \"relay\"\ncloses-pits-at = 3\nclosing-spares-right-pits = true\n",
    );
    let plain = game("closing-plain", "laps = \"relay\"\ncloses-pits-at = 3\n");
    // `B` sows `C a b c`: `c` (North's right-hand pit, as North sees it) holds 3, and relays
    // `A B C`; `C` (2) relays `a b`; `b` (2) relays `c A`; `A` (2) relays `B C`, and `C` held
    // nothing: the end.
    assert_eq!(
        play(spares, "0-4-0-0-0-2-0-0-S", "B"),
        ("0-2-1-2-0-1-0-0-N".to_string(), false)
    );
    // Where `c` closes, the same laps go round, but `b`'s counter for `c` leaves the game.
    assert_eq!(
        play(plain, "0-4-0-0-0-2-0-0-S", "B"),
        ("0-2-1-2-0-x-0-0-N".to_string(), false)
    );
}

#[test]
fn no_pit_closes_within_an_opening_that_captures_nothing() {
    let quiet = game(
        "closing-quiet",
        "laps = \"relay\"\ncloses-pits-at = 3\nno-capture-moves = 1\n",
    );
    // The first move makes `a` hold 3, which relays on, open; the second closes it.
    assert_eq!(
        play(quiet, "0-1-1-2-0-0-0-0-S-0", "C"),
        ("1-1-0-0-1-1-0-0-N-1".to_string(), false)
    );
    assert_eq!(
        play(quiet, "0-1-1-2-0-0-0-0-S-1", "C"),
        ("1-1-0-x-1-1-0-0-N-1".to_string(), false)
    );
    // Within the opening, a closed pit is still passed by.
    assert_eq!(
        play(quiet, "0-0-2-x-0-1-0-0-S-0", "C"),
        ("0-0-0-x-1-1-0-0-N-1".to_string(), false)
    );
}

#[test]
fn a_game_won_outright_gives_the_winner_the_counters_that_left_it_too() {
    let closing = definition::register(
        "name = \"closing-immobilize\"\npits-per-row = 3\nstart = 1\nlaps = \"relay\"\n\
         closes-pits-at = 2\ngoal = \"immobilize\"\nmin-move = 2\n",
    )
    .unwrap();
    // Every counter has left the game: South, to move, has none, and loses all six.
    assert_eq!(
        final_totals(closing, "x-0-0-x-0-0-0-0-S"),
        (Ending::Immobilized, [0, 6])
    );
    // South's single counters cannot move (min-move 2): South has no move, and loses.
    let pos = position(closing, "1-1-0-x-2-0-0-0-S");
    assert!(pos.legal_moves().is_empty());
    let game = Game::new(pos, LastFourRule::default());
    assert_eq!(game.ending(), Some(Ending::Immobilized));
    assert_eq!(game.final_totals(), Some([0, 6]));
    // More counters than the game's are refused.
    assert!(Position::from_position_string(closing, "2-2-2-x-1-0-0-0-S").is_err());
}

#[test]
fn a_last_counter_in_reach_takes_every_opponent_s_pit_of_a_capture_count() {
    let every = game(
        "every-count",
        "capture-every-count = true\ncapture-counts = [2, 4]\ncapture-side = \"opponent\"\n",
    );
    // `C`'s counter makes `a` hold 2, in North's row: every pit of North's holding 2 or 4 is
    // taken (`a` and `b`), not `c` with 1.
    assert_eq!(
        play(every, "0-0-1-1-4-1-0-0-S", "C"),
        ("0-0-0-0-0-1-6-0-N".to_string(), false)
    );
    // A last counter in the mover's right-hand pit (`C`) takes them too, with no count there.
    assert_eq!(
        play(every, "0-1-0-2-3-4-0-0-S", "B"),
        ("0-0-1-0-3-0-6-0-N".to_string(), false)
    );
    // Elsewhere in one's own row, nothing is taken.
    assert_eq!(
        play(every, "1-0-0-2-0-0-0-0-S", "A"),
        ("0-1-0-2-0-0-0-0-N".to_string(), false)
    );
    // The telling takes each pit.
    let before = position(every, "0-0-1-1-4-1-0-0-S");
    assert_eq!(
        before.trace_move(mv("C")).unwrap().to_string(),
        "C:1 a xa:2>S xb:4>S"
    );
}

#[test]
fn a_move_keeps_one_counter_in_its_pit_and_a_single_counter_moves_on() {
    let keeps = game("origin-keeps-one", "origin-keeps-one = true\n");
    // `A`'s first counter goes back into `A`, the other two into `B` and `C`.
    assert_eq!(play(keeps, "3-0-0-0-0-0-0-0-S", "A").0, "1-1-1-0-0-0-0-0-N");
    // A single counter goes to the next pit.
    assert_eq!(play(keeps, "1-0-0-0-0-0-0-0-S", "A").0, "0-1-0-0-0-0-0-0-N");
    // Seven counters: one kept, six round the ring of six, the last back into `A`.
    assert_eq!(play(keeps, "7-0-0-0-0-0-0-0-S", "A").0, "2-1-1-1-1-1-0-0-N");
    let plain = game("origin-sown-away", "");
    assert_eq!(play(plain, "7-0-0-0-0-0-0-0-S", "A").0, "1-2-1-1-1-1-0-0-N");
    // The last pit is the one a hand one smaller reaches: `C`'s two counters end in `a`, which
    // the capture of 2 takes (sown away, they would end in `b`, with 1).
    let capturing = game(
        "origin-keeps-one-captures",
        "origin-keeps-one = true\ncapture-counts = [2]\ncapture-side = \"opponent\"\n",
    );
    assert_eq!(
        play(capturing, "0-0-2-1-0-0-0-0-S", "C").0,
        "0-0-1-0-0-0-2-0-N"
    );
    let trace = position(capturing, "0-0-2-1-0-0-0-0-S")
        .trace_move(mv("C"))
        .unwrap();
    assert_eq!(trace.to_string(), "C:2 C a xa:2>S");
    // Laps that would keep one at every lap's origin are refused.
    let error = definition::parse(
        "name = \"k\"\npits-per-row = 3\nstart = 2\norigin-keeps-one = true\nlaps = \"relay\"\n",
    )
    .unwrap_err();
    assert_eq!(error.field, "origin-keeps-one");
}

#[test]
fn no_child_is_made_at_a_barred_place_of_either_row() {
    let barred = game(
        "children-barred",
        "child-count = 3\nchild-barred-places = [3]\n",
    );
    // `C` makes `c` (North's third place) hold 3: barred, no child.
    assert_eq!(
        play(barred, "0-0-3-0-0-2-2-2-S", "C").0,
        "0-0-0-1-1-3-2-2-N"
    );
    // `b`, the second place, may be one.
    assert_eq!(
        play(barred, "0-0-2-0-2-0-2-2-S", "C").0,
        "0-0-0-1-3s-0-2-2-N"
    );
    // South's own third place `C` is barred too: North's `c` makes it hold 3.
    assert_eq!(
        play(barred, "1-1-0-0-0-3-2-2-N", "c").0,
        "2-2-1-0-0-0-2-2-S"
    );
    assert_eq!(
        play(barred, "2-0-2-0-0-3-2-2-N", "c").0,
        "3-1-3-0-0-0-2-2-S"
    );
    // Its first place `A` may be one: North's `c` makes it hold 3.
    assert_eq!(
        play(barred, "2-0-0-0-0-1-2-2-N", "c").0,
        "3n-0-0-0-0-0-2-2-S"
    );
    // A place beyond the row is refused.
    let error = definition::parse(
        "name = \"b\"\npits-per-row = 3\nstart = 2\nchild-count = 3\nchild-barred-places = [4]\n",
    )
    .unwrap_err();
    assert_eq!(
        (error.field.as_str(), error.why.as_str()),
        ("child-barred-places", "4 is not a place in a row of 3 pits")
    );
}

#[test]
fn no_child_where_the_other_row_s_pit_of_its_letter_or_facing_it_is_one() {
    let same_letter = game(
        "children-apart-letter",
        "child-count = 3\nchild-apart = \"same-letter\"\n",
    );
    let facing = game(
        "children-apart-facing",
        "child-count = 3\nchild-apart = \"facing\"\n",
    );
    // `B` makes `a` hold 3. `A`, of the same letter, is North's child: no child for the first
    // game; `a` faces `C`, no child: a child for the second.
    let before = "1n-2-0-2-0-0-2-2-S";
    assert_eq!(play(same_letter, before, "B").0, "1n-0-1-3-0-0-2-2-N");
    assert_eq!(play(facing, before, "B").0, "1n-0-1-3s-0-0-2-2-N");
    // With North's child at `C` instead (sown into as any pit), the other way round.
    let before = "0-2-1n-2-0-0-2-2-S";
    assert_eq!(play(same_letter, before, "B").0, "0-0-2n-3s-0-0-2-2-N");
    assert_eq!(play(facing, before, "B").0, "0-0-2n-3-0-0-2-2-N");
    // The rule needs children.
    let error =
        definition::parse("name = \"a\"\npits-per-row = 3\nstart = 2\nchild-apart = \"facing\"\n")
            .unwrap_err();
    assert_eq!(error.field, "child-apart");
}

#[test]
fn an_endless_move_s_last_landing_keeps_its_counters_and_does_not_close() {
    // Found by the property test: the 40th lap of `B` ends in `e`, leaving 4 there, which
    // would close it, but the move is endless and stops before that lap is sown on.
    let closing = definition::register(
        "name = \"closing-endless\"\npits-per-row = 5\n\
         start = [11, 2, 18, 15, 6, 12, 8, 1, 13, 16]\nlap-limit = 40\ncapture-side = \"any\"\n\
         direction-by = \"first-move\"\nempty-landing-gives-store = true\nlaps = \"relay\"\n\
         closes-pits-at = 4\nno-progress-limit = 0\n",
    )
    .unwrap();
    let mut pos = position(closing, "2-2-x-1-9-20-14-2-0-37-0-0-S-<");
    assert!(pos.play(mv("B")).unwrap().endless);
    assert_eq!(pos.to_string(), "5-2-x-0-1-22-6-19-28-4-0-0-N-<");
    assert_eq!(
        Position::from_position_string(closing, &pos.to_string()),
        Ok(pos)
    );
    let told = position(closing, "2-2-x-1-9-20-14-2-0-37-0-0-S-<")
        .trace_move(mv("B"))
        .unwrap()
        .to_string();
    assert!(told.ends_with(" e endless"), "{told}");
}
