//! Strategies for property tests (proptest): games, valid position strings of any game, and
//! starts for random games.

use mancala_rules::{Position, Variant};
use proptest::prelude::*;

/// Any game.
pub fn variant() -> impl Strategy<Value = Variant> {
    prop::sample::select(Variant::ALL.to_vec())
}

/// A random but valid position string: counters spread at random over the pits and the two
/// captured totals (in a game that allows any total, 1 to 6 counters a pit's worth in all).
pub fn position_string(variant: Variant) -> impl Strategy<Value = String> {
    let rules = variant.rules();
    let len = rules.pit_count();
    let totals = if rules.any_total {
        (1..=6)
            .map(|k| k * len)
            .filter(|&t| t <= mancala_rules::MAX_COUNTERS as usize)
            .collect()
    } else {
        vec![rules.total() as usize]
    };
    (
        prop::sample::select(totals)
            .prop_flat_map(move |total| prop::collection::vec(0..len + 2 + 4, total)),
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
            if variant.rules().blocks_pits() {
                // Some empty pits blocked for the round.
                for (pit, field) in fields[..len].iter_mut().enumerate() {
                    if field == "0" && (pit + four) % 3 == 0 {
                        *field = "x".to_string();
                    }
                }
            }
            fields.push(if north { "N" } else { "S" }.to_string());
            if variant.rules().tracks_four_holders() {
                fields.push(["S", "N", "X"][four].to_string());
                fields.push(["S", "N", "X"][first].to_string());
            }
            if variant.rules().rounds.is_some() {
                // Who started the round.
                fields.push(["S", "N", "N"][first].to_string());
            }
            let wins_to_win = variant.rules().wins_to_win() as usize;
            if wins_to_win > 0 {
                // The rounds each has won, each short of the match.
                fields.push(format!("{}:{}", four % wins_to_win, first % wins_to_win));
            }
            if variant.rules().territory() {
                // Who owns each pit: the rows, some pits changed hands.
                let n = variant.rules().pits_per_row;
                let owners: String = (0..len)
                    .map(|pit| {
                        let moved = (pit + four + 2 * first) % 4 == 0;
                        if (pit >= n) != moved { 'N' } else { 'S' }
                    })
                    .collect();
                fields.push(owners);
            }
            if variant.rules().tracks_extra_move() {
                // Whether the side to move is on an extra move.
                fields.push(["E", "X", "X"][four].to_string());
            }
            if variant.rules().tracks_crossing() {
                // The pit a single counter crossed into: an end pit of the mover's row holding
                // one (where a single counter crossing over an end of the board lands for the
                // next mover), or none.
                let n = variant.rules().pits_per_row;
                let ends = if north { [n, 2 * n - 1] } else { [0, n - 1] };
                let crossed = ends.into_iter().find(|&pit| fields[pit] == "1");
                fields.push(match crossed {
                    Some(pit) if four != 2 => mancala_rules::Move::from_pit(pit, n).to_string(),
                    _ => "X".to_string(),
                });
            }
            if variant.rules().tracks_directions() {
                // The way South sows, where the first move chose it (or not yet).
                fields.push(["X", ">", "<"][(four + first) % 3].to_string());
            }
            let opening = variant.rules().opening_moves() as usize;
            if opening > 0 {
                // The opening's moves played: none, some, or all of them.
                fields.push(((four * opening).div_ceil(2)).min(opening).to_string());
            }
            fields.join("-")
        })
}

/// Any of `games`.
pub fn one_of(games: &[Variant]) -> impl Strategy<Value = Variant> + use<> {
    prop::sample::select(games.to_vec())
}

/// A start for a random game of `games` (see [`game_start`]).
pub fn game_start_of(games: &[Variant]) -> impl Strategy<Value = (Variant, String)> + use<> {
    one_of(games).prop_flat_map(start_of)
}

/// A start for a random game: the start position, a Mangala IV deal, or a random position.
pub fn game_start() -> impl Strategy<Value = (Variant, String)> {
    variant().prop_flat_map(start_of)
}

/// A start for a random game of `v`.
fn start_of(v: Variant) -> impl Strategy<Value = (Variant, String)> {
    {
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
    }
}

/// The text of a random game file that the engine implements: any board from 2x2 to 2x12, a
/// uniform start or a pattern, and the rules in any combination the engine plays (one lap with
/// counts or Kalah's capture, stores sown or not, origin skipped or not, chains, grand slam,
/// extra turns, feeding, every end, matches of rounds; or one of the two relay kinds with what
/// they need). The
/// name is made from the rules, so that the same rules come back as the same game.
pub fn game_definition() -> impl Strategy<Value = String> {
    fn has_line(lines: &[String], wanted: &str) -> bool {
        lines.iter().any(|l| l == wanted)
    }
    /// The lines of a game file but those of the fields `dropped`.
    fn without_fields(lines: &[String], dropped: &[&str]) -> Vec<String> {
        lines
            .iter()
            .filter(|line| !dropped.contains(&line.split(" = ").next().unwrap_or("")))
            .cloned()
            .collect()
    }
    /// Whether the game file of `lines` (given a name) loads.
    fn loads(lines: &[String]) -> bool {
        mancala_rules::definition::parse(&format!("name = \"t\"\n{}\n", lines.join("\n"))).is_ok()
    }
    // Now and then more counters than a byte's signed half (127), up to the engine's 255.
    let board = (
        2usize..=12,
        prop_oneof![6 => 1u32..=5, 1 => 6u32..=10],
        any::<bool>(),
        any::<u64>(),
    );
    let single = (
        (
            any::<bool>(), // clockwise
            any::<bool>(), // sow-own-store
            any::<bool>(), // skip-origin
            any::<bool>(), // capture-empty-opposite (instead of counts)
            prop::collection::btree_set(1u32..=6, 0..4),
            0usize..3,     // capture side
            any::<bool>(), // chain
            any::<bool>(), // grand slam captures nothing
        ),
        (
            any::<bool>(), // extra turn (with a sown store)
            any::<bool>(), // must feed
            any::<bool>(), // mover takes all when unfed
            0usize..5,     // game end
            0usize..5,     // leftover
            prop_oneof![Just(0u32), 10u32..=120],
            any::<bool>(), // any total
        ),
        (
            any::<bool>(),                     // majority ends too
            prop_oneof![Just(0u32), 2u32..=6], // ends below
            any::<bool>(),                     // relay laps
            any::<bool>(),                     // relay from the next pit
            0usize..6,                         // passing captures
            0usize..3,                         // direction by
            1u32..=2,                          // least move
            0usize..6,                         // move filter
            any::<bool>(),                     // store at the right end
            0usize..6,                         // grand slam
            any::<bool>(),                     // the empty-pit capture takes its own counter
            any::<bool>(),                     // one counter of each lap into the store
        ),
    );
    let relay = (
        0usize..2,
        prop::collection::btree_set(1u32..=6, 1..4),
        any::<bool>(),
    );
    (
        board,
        prop_oneof![4 => single.prop_map(Some), 1 => Just(None)],
        relay,
    )
        .prop_map(
            |((n, per_pit, pattern, seed), single, (relay_kind, relay_counts, clockwise))| {
                let mut lines = vec![format!("pits-per-row = {n}")];
                let mut start: Vec<u32> = vec![per_pit; 2 * n];
                if pattern {
                    // A pattern: each pit 0 to 2 x per_pit, from the seed.
                    let mut x = seed | 1;
                    for count in &mut start {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        *count = (x % (2 * per_pit as u64 + 1)) as u32;
                    }
                    if start.iter().all(|&c| c == 0) {
                        start[0] = 1;
                    }
                }
                // At most the engine's 255 counters.
                while start.iter().sum::<u32>() > 250 {
                    let most = (0..start.len()).max_by_key(|&i| start[i]).unwrap();
                    start[most] -= 1;
                }
                let list = |v: &[u32]| {
                    v.iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                match single {
                    Some((
                        (clock, sow_store, skip, empty_opposite, counts, side, chain, slam),
                        (extra, feed, mover_takes, end, leftover, limit, any_total),
                        (
                            majority_ends,
                            ends_below,
                            relay,
                            from_next,
                            passing,
                            direction_by,
                            min_move,
                            filter,
                            store_at_right,
                            slam_kind,
                            takes_own,
                            store_one,
                        ),
                    )) => {
                        // A grand slam that moves again: one lap, and no capture's extra move.
                        let moves_again = slam && slam_kind == 5 && !empty_opposite;
                        let relay = relay && !moves_again;
                        lines.push(format!(
                            "direction = \"{}\"",
                            if clock {
                                "clockwise"
                            } else {
                                "counter-clockwise"
                            }
                        ));
                        lines.push(format!("sow-own-store = {sow_store}"));
                        lines.push(format!("skip-origin = {skip}"));
                        if empty_opposite {
                            lines.push("capture-empty-opposite = true".into());
                            lines.push(format!("capture-takes-own = {takes_own}"));
                        } else {
                            let counts: Vec<u32> = counts.into_iter().collect();
                            if !counts.is_empty() && passing > 0 {
                                lines.push(format!(
                                    "passing-captures = \"{}\"",
                                    [
                                        "off",
                                        "to-owner",
                                        "to-owner-last-too",
                                        "to-mover",
                                        "to-mover-in-own-row",
                                        "to-mover-in-opponent-row"
                                    ][passing]
                                ));
                            }
                            lines.push(format!("capture-counts = [{}]", list(&counts)));
                            // Or the capture past an empty pit at the end (the counts then
                            // serve captures in passing).
                            if seed & 128 != 0 && !sow_store && !slam {
                                lines.push("capture-past-empty = true".into());
                                lines
                                    .push(format!("past-empty-takes-facing = {}", seed & 256 != 0));
                            }
                        }
                        if relay {
                            lines.push("laps = \"relay\"".into());
                            lines.push("lap-limit = 40".into());
                            if from_next {
                                lines.push("relay-from = \"next-pit\"".into());
                            }
                        }
                        let direction_by = if direction_by == 2 && n % 2 == 1 {
                            1
                        } else {
                            direction_by
                        };
                        lines.push(format!(
                            "direction-by = \"{}\"",
                            ["fixed", "hand-parity", "row-halves"][direction_by]
                        ));
                        lines.push(format!("min-move = {min_move}"));
                        lines.push(format!(
                            "move-filter = \"{}\"",
                            [
                                "every",
                                "ends-away-or-empty",
                                "single-into-empty",
                                "one-only-if-all",
                                "two-only-if-all",
                                "ones-only-if-all-into-empty"
                            ][filter]
                        ));
                        lines.push(format!("store-at-right = {store_at_right}"));
                        lines.push(format!("store-one-per-lap = {store_one}"));
                        lines.push(format!(
                            "capture-side = \"{}\"",
                            ["any", "own", "opponent"][side]
                        ));
                        lines.push(format!("capture-chain = {chain}"));
                        lines.push(format!("chain-stops-at-origin = {}", seed & 2 == 0));
                        // (A grand slam that leaves a pit is not a rule of the capture that
                        // takes the one pit facing an empty landing.)
                        let slam_kind = if empty_opposite && slam_kind >= 3 {
                            slam_kind - 3
                        } else {
                            slam_kind
                        };
                        if slam {
                            lines.push(format!(
                                "grand-slam = \"{}\"",
                                [
                                    "captures-nothing",
                                    "movers-row-to-opponent",
                                    "captures-nothing-if-held",
                                    "leaves-leftmost",
                                    "leaves-rightmost",
                                    "captures-and-moves-again"
                                ][slam_kind]
                            ));
                        }
                        lines.push(format!("extra-turn-in-store = {}", extra && sow_store));
                        lines.push(format!("must-feed = {feed}"));
                        if mover_takes {
                            lines.push("unfed = \"mover-takes-all\"".into());
                        }
                        let end = [
                            "board-empty",
                            "row-empty",
                            "majority",
                            "either-row-empty",
                            "mover-row-empty",
                        ][end];
                        lines.push(format!("game-ends = \"{end}\""));
                        lines.push(format!(
                            "leftover = \"{}\"",
                            [
                                "split-evenly",
                                "row-owner",
                                "nobody",
                                "split-odd-to-trailing",
                                "last-mover"
                            ][leftover]
                        ));
                        lines.push(format!("no-progress-limit = {limit}"));
                        // A capture's extra move, and the sweep of the last counters (not with a
                        // grand-slam rule).
                        let capture_extra = if moves_again {
                            0
                        } else {
                            (seed >> 9 & 3) as usize % 3
                        };
                        lines.push(format!(
                            "capture-extra-move = \"{}\"",
                            ["no", "always", "once"][capture_extra]
                        ));
                        if !slam && seed >> 11 & 1 != 0 {
                            lines.push(format!("sweep-at-most = {}", 1 + (seed >> 12) % 6));
                        }
                        let any_total = any_total && end != "majority" && !majority_ends;
                        lines.push(format!("any-total = {any_total}"));
                        lines.push(format!("majority-ends = {majority_ends}"));
                        lines.push(format!("ends-below = {ends_below}"));
                        // A match of rounds, where the rules allow one: the same count in every
                        // pit, and every counter left to a player.
                        // (The last mover's, where a move may give another, is taken by the move
                        // that ends the game: not in a match of rounds.)
                        let claims_at_end =
                            leftover == 4 && (extra && sow_store || capture_extra != 0);
                        if seed & 4 != 0
                            && !pattern
                            && !any_total
                            && leftover != 0
                            && leftover != 2
                            && !claims_at_end
                        {
                            lines.push("rounds = true".into());
                        }
                        if has_line(&lines, "rounds = true") {
                            lines.push(format!(
                                "round-fill = \"{}\"",
                                ["from-left", "from-right", "from-board-left", "outside-in"]
                                    [(seed >> 3 & 1 | (seed >> 56 & 1) << 1) as usize]
                            ));
                            lines.push(format!(
                                "round-starter = \"{}\"",
                                ["alternate", "loser", "winner", "last-mover"]
                                    [(seed >> 4 & 3) as usize]
                            ));
                            lines.push(format!("round-blocks = {}", seed & 64 != 0));
                            lines.push(format!(
                                "round-pits-to-go-on = {}",
                                1 + (seed >> 7) as usize % n.min(3)
                            ));
                        }
                        // Captures on every lap, where the relay and the capture rules allow them.
                        let past_empty = lines.iter().any(|l| l == "capture-past-empty = true");
                        if seed >> 19 & 1 != 0
                            && relay
                            && !from_next
                            && !sow_store
                            && !slam
                            && past_empty != empty_opposite
                        {
                            lines.retain(|line| {
                                let key = line.split(" = ").next().unwrap_or("");
                                !matches!(
                                    key,
                                    "sweep-at-most" | "capture-extra-move" | "capture-takes-own"
                                )
                            });
                            if empty_opposite {
                                lines.push("capture-takes-own = false".into());
                            }
                            lines.push("lap-captures = true".into());
                        }
                        // Captures from an empty pit of either row.
                        if seed >> 22 & 1 != 0
                            && empty_opposite
                            && lines.iter().any(|l| l == "capture-takes-own = false")
                        {
                            lines.push("capture-empty-either-row = true".into());
                        }
                        // Play going on where no move can feed; the last counter taken alone.
                        if seed >> 20 & 1 != 0 && lines.iter().any(|l| l == "must-feed = true") {
                            lines.retain(|l| !l.starts_with("unfed = "));
                            lines.push("unfed = \"any-move\"".into());
                        }
                        if seed >> 21 & 1 != 0
                            && empty_opposite
                            && lines.iter().any(|l| l == "capture-takes-own = true")
                            && lines.iter().any(|l| l == "capture-extra-move = \"no\"")
                        {
                            lines.push("capture-takes-own-alone = true".into());
                        }
                        // A single counter's move: no capture at its end, or the pit facing it
                        // taken first (one lap, without captures in passing, a counter to the
                        // store per lap or pits blocked in rounds); a chain from one row into
                        // either (a count's chain at the end of a move, on one side).
                        let has =
                            |lines: &[String], wanted: &str| lines.iter().any(|l| l == wanted);
                        let passing = lines.iter().any(|l| l.starts_with("passing-captures"));
                        let plain_lap =
                            !relay && !passing && !store_one && !has(&lines, "round-blocks = true");
                        if seed >> 23 & 1 != 0 && plain_lap {
                            lines.push("single-counter-captures = false".into());
                        }
                        if seed >> 24 & 1 != 0 && plain_lap {
                            lines.push("single-counter-takes-facing = true".into());
                        }
                        if seed >> 25 & 1 != 0
                            && has(&lines, "capture-chain = true")
                            && !has(&lines, "capture-side = \"any\"")
                            && !empty_opposite
                            && !has(&lines, "capture-past-empty = true")
                            && !passing
                        {
                            lines.push("chain-either-row = true".into());
                        }
                        // A goal won outright, in place of the rules that end a game by its
                        // counters (which such a goal does without).
                        let goal = (seed >> 15 & 7) as usize;
                        if goal < 3 {
                            let immobilize = goal == 2;
                            lines.retain(|line| {
                                let key = line.split(" = ").next().unwrap_or("");
                                !(matches!(
                                    key,
                                    "majority-ends"
                                        | "ends-below"
                                        | "must-feed"
                                        | "unfed"
                                        | "min-move"
                                        | "rounds"
                                        | "round-fill"
                                        | "round-starter"
                                        | "round-blocks"
                                        | "round-pits-to-go-on"
                                        | "round-only-loser-refills"
                                        | "territory-pits-to-win"
                                        | "game-ends"
                                ) || immobilize
                                    && (matches!(
                                        key,
                                        "extra-turn-in-store" | "capture-extra-move"
                                    ) || line == "grand-slam = \"captures-and-moves-again\""))
                            });
                            lines.push(format!(
                                "game-ends = \"{}\"",
                                ["board-empty", "mover-row-empty"][(seed >> 18 & 1) as usize]
                            ));
                            lines.push(format!(
                                "goal = \"{}\"",
                                ["clear-own-row", "deprive", "immobilize"][goal]
                            ));
                        }
                        // Rows that belong to nobody, without the rules that ask whose row a pit
                        // is in.
                        if seed >> 26 & 1 != 0 && !empty_opposite {
                            lines.retain(|line| {
                                let key = line.split(" = ").next().unwrap_or("");
                                !matches!(
                                    key,
                                    "must-feed"
                                        | "unfed"
                                        | "move-filter"
                                        | "sow-own-store"
                                        | "extra-turn-in-store"
                                        | "capture-side"
                                        | "chain-either-row"
                                        | "grand-slam"
                                        | "passing-captures"
                                        | "rounds"
                                        | "round-fill"
                                        | "round-starter"
                                        | "round-blocks"
                                        | "round-pits-to-go-on"
                                        | "round-only-loser-refills"
                                        | "territory-pits-to-win"
                                        | "goal"
                                ) && line != "leftover = \"row-owner\""
                                    && !(key == "game-ends" && line != "game-ends = \"majority\"")
                            });
                            lines.push("moves = \"either-row\"".into());
                            if !lines.iter().any(|l| l.starts_with("game-ends")) {
                                lines.push("game-ends = \"board-empty\"".into());
                            }
                            if !lines.iter().any(|l| l.starts_with("leftover")) {
                                lines.push("leftover = \"nobody\"".into());
                            }
                        }
                        // A start made by South's move from its rightmost pit (the same count
                        // in every pit; not in rounds).
                        if seed >> 27 & 1 != 0
                            && !pattern
                            && !lines.iter().any(|l| l == "rounds = true")
                        {
                            lines.push("opening-from-rightmost = true".into());
                        }
                        // Pits whose direction the mover chooses (one to three places), without
                        // the rules that need a pit's direction before its move is chosen.
                        if seed >> 28 & 1 != 0
                            && !has(&lines, "sow-own-store = true")
                            && !lines.iter().any(|l| l.starts_with("grand-slam"))
                        {
                            lines.retain(|l| !l.starts_with("move-filter"));
                            let wanted = 1 + (seed >> 29) as usize % 3;
                            let mut places: Vec<usize> = (0..wanted)
                                .map(|i| 1 + (seed >> (31 + 4 * i)) as usize % n)
                                .collect();
                            places.sort_unstable();
                            places.dedup();
                            // Row halves of an odd row need the middle pit chosen.
                            if has(&lines, "direction-by = \"row-halves\"") && n % 2 == 1 {
                                places.retain(|&p| p != n / 2 + 1);
                                places.push(n / 2 + 1);
                            }
                            lines.push(format!("chosen-direction-pits = {places:?}"));
                        }
                        // A single counter's crossing over an end of the board not undone.
                        if seed >> 43 & 1 != 0 {
                            lines.push("no-crossing-back = true".into());
                        }
                    }
                    None if relay_kind == 0 => {
                        // (A count of 1 never captures there: a count of 2 or more with it.)
                        let mut counts: Vec<u32> = relay_counts.into_iter().collect();
                        if counts.iter().all(|&c| c < 2) {
                            counts.push(2);
                        }
                        lines.push("laps = \"relay-with-opposite\"".into());
                        lines.push(format!("capture-counts = [{}]", list(&counts)));
                        lines.push("capture-chain = true".into());
                        lines.push(format!(
                            "direction = \"{}\"",
                            if clockwise {
                                "clockwise"
                            } else {
                                "counter-clockwise"
                            }
                        ));
                        lines.push("leftover = \"row-owner\"".into());
                    }
                    None => {
                        // Anywoli's relay needs a multiple of four counters.
                        let mut total: u32 = start.iter().sum();
                        let mut pit = 0;
                        let pits = start.len();
                        while !total.is_multiple_of(4) || total == 0 {
                            start[pit % pits] += 1;
                            total += 1;
                            pit += 1;
                        }
                        lines.push("laps = \"relay-fours\"".into());
                        lines.push("game-ends = \"last-four\"".into());
                        lines.push("leftover = \"last-four-receiver\"".into());
                        lines.push("stores = true".into());
                    }
                }
                let start_line = if start.iter().all(|&c| c == start[0]) {
                    format!("start = {}", start[0])
                } else {
                    format!("start = [{}]", list(&start))
                };
                lines.insert(1, start_line);
                // A match for territory, the rules that ask whose row a pit is in by its row set
                // back (kept only where the file still loads).
                let n = lines
                    .iter()
                    .find_map(|l| l.strip_prefix("pits-per-row = "))
                    .and_then(|v| v.parse::<usize>().ok())
                    .unwrap_or(12);
                // (A file without rounds is tried with them: most of the rules generated above
                // are refused with territory, and rounds alone are rarer still.)
                if seed >> 44 & 1 != 0 {
                    let mut land = without_fields(
                        &lines,
                        &[
                            "round-fill",
                            "round-blocks",
                            "round-pits-to-go-on",
                            "round-only-loser-refills",
                            "capture-side",
                            "relay-side",
                            "grand-slam",
                            "move-filter",
                            "min-move",
                            "moves",
                            "direction-by",
                            "no-crossing-back",
                            "chosen-direction-pits",
                            "goal",
                            "capture-empty-opposite",
                            "capture-takes-own",
                            "capture-empty-either-row",
                            "capture-takes-own-alone",
                            "sow-own-store",
                            "extra-turn-in-store",
                            "store-at-right",
                            "store-one-per-lap",
                        ],
                    );
                    land.retain(|line| line != "game-ends = \"row-empty\"");
                    if !land.iter().any(|l| l.starts_with("capture-counts")) {
                        land.push("capture-counts = [2]".into());
                    }
                    if !has_line(&land, "rounds = true") {
                        land.retain(|line| !line.starts_with("round-starter"));
                        land.push("rounds = true".into());
                        land.push(format!(
                            "round-starter = \"{}\"",
                            ["alternate", "loser", "winner", "last-mover"]
                                [(seed >> 4 & 3) as usize]
                        ));
                    }
                    land.push(format!(
                        "territory-pits-to-win = {}",
                        n + 1 + (seed >> 45) as usize % n
                    ));
                    if seed >> 50 & 1 != 0 {
                        land.push("territory-partial-pit-to-loser = true".into());
                    }
                    if loads(&land) {
                        lines = land;
                    }
                }
                // Directions chosen by the first move, the rules that need a pit's direction
                // before its move is chosen set back (kept only where the file still loads).
                if seed >> 51 & 1 != 0 {
                    let mut ways = without_fields(
                        &lines,
                        &[
                            "direction-by",
                            "move-filter",
                            "grand-slam",
                            "chosen-direction-pits",
                            "no-crossing-back",
                            "opening-from-rightmost",
                            "moves",
                            "sow-own-store",
                            "extra-turn-in-store",
                            "store-at-right",
                            "store-one-per-lap",
                        ],
                    );
                    ways.push("direction-by = \"first-move\"".into());
                    if loads(&ways) {
                        lines = ways;
                    }
                }
                // A last counter into an empty pit that gives the mover's store away (one file
                // in four), without the rules it is refused with (kept only where the file
                // still loads).
                if seed >> 52 & 3 == 0 {
                    let mut gives = without_fields(
                        &lines,
                        &[
                            "capture-empty-opposite",
                            "capture-takes-own",
                            "capture-empty-either-row",
                            "capture-takes-own-alone",
                            "capture-past-empty",
                            "past-empty-takes-facing",
                            "lap-captures",
                            "capture-extra-move",
                            "sweep-at-most",
                            "goal",
                            "rounds",
                            "round-fill",
                            "round-starter",
                            "round-blocks",
                            "round-pits-to-go-on",
                            "territory-pits-to-win",
                            "territory-partial-pit-to-loser",
                            "round-only-loser-refills",
                        ],
                    );
                    gives.push("empty-landing-gives-store = true".into());
                    if !gives.iter().any(|l| l.starts_with("capture-side")) {
                        gives.push(
                            ["capture-side = \"opponent\"", "capture-side = \"any\""]
                                [(seed >> 54 & 1) as usize]
                                .into(),
                        );
                    }
                    if loads(&gives) {
                        lines = gives;
                    }
                }
                // Only the round's loser filling its row again, in half the matches of rounds
                // (kept only where the file still loads: it needs the leftover to the rows'
                // owners).
                if seed >> 55 & 1 != 0 && has_line(&lines, "rounds = true") {
                    let mut loser = lines.clone();
                    loser.push("round-only-loser-refills = true".into());
                    if loads(&loser) {
                        lines = loser;
                    }
                }
                // Each row its own ring (one file in eight; kept only where the file still loads).
                if seed >> 60 & 7 == 0 {
                    let mut rows = without_fields(
                        &lines,
                        &[
                            "moves",
                            "move-filter",
                            "direction-by",
                            "chosen-direction-pits",
                            "no-crossing-back",
                            "must-feed",
                            "unfed",
                            "passing-captures",
                        ],
                    );
                    rows.push("sowing-ring = \"own-row\"".into());
                    if loads(&rows) {
                        lines = rows;
                    }
                }
                // Children (one file in four), without the rules they are refused with (kept
                // only where the file still loads). More bits than the seed has left: mixed.
                if seed >> 57 & 3 == 0 {
                    let more = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
                    let mut kin = without_fields(
                        &lines,
                        &[
                            "moves",
                            "relay-from",
                            "relay-counts",
                            "relay-side",
                            "lap-captures",
                            "passing-captures",
                            "store-one-per-lap",
                            "capture-past-empty",
                            "past-empty-takes-facing",
                            "empty-landing-gives-store",
                            "grand-slam",
                            "sweep-at-most",
                            "single-counter-takes-facing",
                            "goal",
                            "round-only-loser-refills",
                        ],
                    );
                    kin.push(format!("child-count = {}", 1 + more % 5));
                    kin.push(format!(
                        "child-made-by = \"{}\"",
                        ["count", "one-each", "facing-pair"][(more >> 8) as usize % 3]
                    ));
                    kin.push(format!(
                        "child-side = \"{}\"",
                        ["any", "own", "opponent"][(more >> 16) as usize % 3]
                    ));
                    if more >> 24 & 1 != 0 {
                        kin.push(format!("child-landing-takes = {}", 1 + (more >> 25) % 3));
                    }
                    // Places barred to children, and a pit of the other row that keeps one
                    // from being made.
                    if more >> 28 & 1 != 0 {
                        kin.push(format!("child-barred-places = [{}]", 1 + (more >> 29) % 2));
                    }
                    kin.push(format!(
                        "child-apart = \"{}\"",
                        ["anywhere", "same-letter", "facing"][(more >> 32) as usize % 3]
                    ));
                    if loads(&kin) {
                        lines = kin;
                    }
                }
                // An opening's rules (one file in four, one of the three; kept only where the
                // file still loads). More bits, mixed otherwise than the children's.
                let opening = seed.wrapping_mul(0xD1B5_4A32_D192_ED03).rotate_left(17);
                if opening & 3 == 0 {
                    let mut first = lines.clone();
                    match (opening >> 2) % 3 {
                        0 => first.push(format!("no-capture-moves = {}", 1 + (opening >> 4) % 3)),
                        1 => first.push("first-move = \"one-from-every-other\"".into()),
                        _ => first.push(format!(
                            "fixed-direction-moves = {}",
                            1 + (opening >> 4) % 3
                        )),
                    }
                    if loads(&first) {
                        lines = first;
                    }
                }
                // A lap's capture sown on, a relay that needs the opponent's counters (where
                // the file still loads: relay laps, captures on every lap of an empty landing).
                for (bit, rule) in [
                    (8, "lap-captures-sown-on = true"),
                    (9, "relay-needs-opponent-counters = true"),
                ] {
                    if opening >> bit & 3 == 0 {
                        let mut more = lines.clone();
                        more.push(rule.into());
                        if loads(&more) {
                            lines = more;
                        }
                    }
                }
                // Pits that close (one file in four, where the file still loads with relay laps
                // from the landing pit, no store sown and no skipped origin).
                if opening >> 11 & 3 == 0 {
                    let mut closing = without_fields(
                        &lines,
                        &["laps", "relay-from", "skip-origin", "sow-own-store"],
                    );
                    closing.push("laps = \"relay\"".into());
                    closing.push(format!("closes-pits-at = {}", 2 + (opening >> 13) % 3));
                    if opening >> 15 & 1 != 0 {
                        closing.push("closing-spares-right-pits = true".into());
                    }
                    if loads(&closing) {
                        lines = closing;
                    }
                }
                // Every opponent's pit of a count taken from a last counter in reach (one file
                // in four, where the file still loads).
                if opening >> 16 & 3 == 0 {
                    // (One lap, counts, and none of the other captures it is refused with.)
                    let mut every = without_fields(
                        &lines,
                        &[
                            "capture-side",
                            "capture-counts",
                            "laps",
                            "lap-limit",
                            "relay-from",
                            "relay-counts",
                            "relay-side",
                            "lap-captures",
                            "lap-captures-sown-on",
                            "relay-needs-opponent-counters",
                            "capture-empty-opposite",
                            "capture-chain",
                            "capture-past-empty",
                            "past-empty-takes-facing",
                            "passing-captures",
                            "single-counter-takes-facing",
                            "empty-landing-gives-store",
                            "closes-pits-at",
                            "closing-spares-right-pits",
                            "grand-slam",
                            "chain-either-row",
                            "capture-takes-own-alone",
                        ],
                    );
                    every.push(format!(
                        "capture-counts = [{}, {}]",
                        1 + (opening >> 18) % 3,
                        4 + (opening >> 20) % 3
                    ));
                    every.push("capture-side = \"opponent\"".into());
                    every.push("capture-every-count = true".into());
                    if loads(&every) {
                        lines = every;
                    }
                }
                // A first counter kept in its pit (one file in four, where the file still
                // loads: one lap, no captures in passing, no counter of each lap to the store,
                // no skipped origin, no filter that looks at the last pit).
                if opening >> 22 & 3 == 0 {
                    let mut keeps = lines.clone();
                    keeps.push("origin-keeps-one = true".into());
                    if loads(&keeps) {
                        lines = keeps;
                    }
                }
                // Single counters taking across before a move (one file in four, where the file
                // still loads: one lap, no captures in passing, children or territory).
                if opening >> 24 & 3 == 0 {
                    let mut singles = lines.clone();
                    singles.push("singles-take-facing = true".into());
                    if loads(&singles) {
                        lines = singles;
                    }
                }
                // A match of rounds won (one file in four): every round dealt as the first, in
                // place of the fills of a match of rounds (kept where the file still loads).
                if opening >> 26 & 3 == 0 {
                    let mut won = without_fields(
                        &lines,
                        &[
                            "rounds",
                            "round-fill",
                            "round-blocks",
                            "round-pits-to-go-on",
                            "round-only-loser-refills",
                            "territory-pits-to-win",
                            "territory-partial-pit-to-loser",
                        ],
                    );
                    won.push("rounds = true".into());
                    won.push(format!("rounds-to-win = {}", 1 + (opening >> 28) % 3));
                    if loads(&won) {
                        lines = won;
                    }
                }
                let body = lines.join("\n") + "\n";
                // A name from the rules: the same rules, the same name.
                let hash = body.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
                    (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
                });
                format!("name = \"random-{:012x}\"\n{body}", hash & 0xffff_ffff_ffff)
            },
        )
}
