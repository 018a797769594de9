//! The tablebases: small tables built in the suite, checked position by position against a naive
//! solver and the engine's solver, against the values of their own moves, and as files that are
//! refused when damaged or of another game.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use mancala_engine::solve::{SolveLimits, Solver, SolverTable};
use mancala_rules::{LastFourRule, Move, Position, Side, Variant};
use mancala_tablebase::generate::{build, build_in_memory};
use mancala_tablebase::index::Ranking;
use mancala_tablebase::{Layer, Tablebases, capture_window, states};

use mancala_testkit::naive_solver::naive_value;
use mancala_testkit::reference::RefPosition;
use mancala_testkit::with_big_stack;

/// Every position of `variant` with `counters` on the board (both sides to move, every holder
/// state), as position strings; the captured counters are split in a way that varies (in a
/// majority game, among the splits in which nobody has won yet).
fn every_position(variant: Variant, counters: u32) -> Vec<String> {
    let rules = variant.rules();
    let pits = rules.pit_count();
    let ranking = Ranking::new(pits);
    let mut board = vec![0u8; pits];
    let mut texts = Vec::new();
    for rank in 0..ranking.layer_size(counters as usize) {
        ranking.unrank(counters as usize, rank, &mut board);
        let rest = rules.total() - counters;
        for side in ["S", "N"] {
            let south = if rules.ends_on_majority() {
                let window = capture_window(variant, counters);
                let mine = window.start() + (rank as u32 * 7) % (window.end() - window.start() + 1);
                if side == "S" { mine } else { rest - mine }
            } else {
                (rank as u32 * 7) % (rest + 1)
            };
            let mut fields: Vec<String> = board.iter().map(u8::to_string).collect();
            fields.push(south.to_string());
            fields.push((rest - south).to_string());
            fields.push(side.into());
            if rules.tracks_four_holders() {
                for holder in ["X", "S", "N"] {
                    let mut with = fields.clone();
                    with.push(holder.into());
                    with.push(["X", "S", "N"][rank as usize % 3].into());
                    texts.push(with.join("-"));
                }
            } else {
                texts.push(fields.join("-"));
            }
        }
    }
    texts
}

fn position(variant: Variant, text: &str) -> Position {
    Position::from_position_string(variant, text).unwrap()
}

/// Oware with its endless play split evenly: a game of a file that ends on a majority of
/// captures and has tables (their states are the mover's captures).
fn oware_split_evenly() -> Variant {
    let text = mancala_rules::definition::write(Variant::Oware.rules())
        .replace("name = \"oware\"", "name = \"oware-split-evenly\"")
        .replace("leftover = \"row-owner\"", "leftover = \"split-evenly\"");
    mancala_rules::definition::register(&text).unwrap()
}

/// A translated MancalaGames game of `tests/data/catalogue`, registered.
fn catalogue(name: &str) -> Variant {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/catalogue")
        .join(format!("{name}.toml"));
    mancala_rules::definition::register(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Small tables of each game, and the layers they go up to; with games of the catalogue whose
/// rules the built-in games lack (a majority and too few counters ending the game, a least move,
/// directions chosen by the pit or the hand, stores at the right end, relay sowing into a store).
fn small_tables() -> Vec<(Variant, u32, Tablebases)> {
    [
        (Variant::MangalaII, 7),
        (Variant::AlManqala, 6),
        (Variant::Anywoli, 5),
        (Variant::Kalah, 7),
        (oware_split_evenly(), 6),
        (catalogue("bohnenspiel"), 6),
        (catalogue("mangala-iii"), 6),
        (catalogue("cross-kalah"), 6),
        (catalogue("valah"), 6),
    ]
    .into_iter()
    .map(|(v, max)| (v, max, Tablebases::from_layers(v, build_in_memory(v, max))))
    .collect()
}

#[test]
fn tables_agree_with_a_naive_solver_position_by_position() {
    with_big_stack(|| {
        // The naive rules are written per built-in game; the game of a file is compared with the
        // engine's solver below.
        for (variant, _, tables) in small_tables()
            .into_iter()
            .filter(|(v, _, _)| v.is_built_in())
        {
            let mut compared = 0;
            // Anywoli's 24 pits give many more positions, and its single seeds wander long
            // before a line cycles: a sample of them, and its four-seed layer (where the
            // game is over) as well.
            let (every, top) = if variant == Variant::Anywoli {
                (37, 4)
            } else {
                (1, 3)
            };
            for counters in 0..=top {
                for (i, text) in every_position(variant, counters).into_iter().enumerate() {
                    if i % every != 0 {
                        continue;
                    }
                    let reference = RefPosition::parse(variant, &text);
                    let Some(naive) = naive_value(&reference, naive_budget(variant)) else {
                        continue;
                    };
                    let pos = position(variant, &text);
                    assert_eq!(tables.probe(&pos), Some(naive), "{variant} {text}");
                    compared += 1;
                }
            }
            assert!(compared > 100, "{variant}: {compared}");
        }
    });
}

/// Nodes the naive minimax may spend on a position before the position is passed over. The
/// naive Anywoli rules are slow (relay laps replayed seed by seed), and the Anywoli positions of
/// these layers that it solves at all need fewer than 1,000 nodes: a larger budget only spends
/// a minute on the ones it cannot.
fn naive_budget(variant: Variant) -> u64 {
    if relays(variant) { 1_000 } else { 20_000 }
}

#[test]
fn tables_agree_with_the_solver_on_every_position() {
    with_big_stack(|| {
        for (variant, max, tables) in small_tables() {
            let table = SolverTable::new(16);
            let mut compared = 0;
            for counters in 0..=max.min(5) {
                let positions = every_position(variant, counters);
                // At most about 600 positions of each layer.
                let every = positions.len() / 600 + 1;
                for (i, text) in positions.into_iter().enumerate() {
                    if i % every != 0 {
                        continue;
                    }
                    let pos = position(variant, &text);
                    // Sparse boards cycle a lot, which the solver searches slowly: those it
                    // cannot solve within its budget are left to the naive comparison.
                    let limits = SolveLimits {
                        nodes: Some(10_000),
                        ..SolveLimits::NONE
                    };
                    let solved = mancala_rules::with_spec!(variant, S => {
                        Solver::<S>::new(&table, None, LastFourRule::default(), limits)
                            .value(&pos)
                    });
                    let Ok(solved) = solved else { continue };
                    assert_eq!(tables.probe(&pos), Some(solved), "{variant} {text}");
                    compared += 1;
                }
            }
            assert!(compared > 1000, "{variant}: only {compared} solved");
        }
    });
}

/// The value of playing `mv` in `pos` by the tables alone: what the move captures and where it
/// leads (the same side again after an extra move).
fn move_value(tables: &Tablebases, pos: &Position, mv: Move) -> i32 {
    let mover = pos.side_to_move();
    let mut child = *pos;
    let effect = child.play_unchecked(mv);
    let ending = if effect.endless {
        Some(mancala_rules::Ending::EndlessMove)
    } else {
        // A majority game won by the move is in no table.
        child
            .own_ending()
            .filter(|_| tables.probe(&child).is_none())
    };
    if let Some(ending) = ending {
        let totals = child.final_totals(ending, LastFourRule::default());
        return totals[mover.index()] as i32 - totals[1 - mover.index()] as i32;
    }
    let value = tables
        .probe(&child)
        .expect("the child is in a smaller or equal layer");
    if child.side_to_move() == mover {
        value
    } else {
        -value
    }
}

#[test]
fn every_value_is_the_best_of_its_moves() {
    for (variant, max, tables) in small_tables() {
        for counters in 0..=max {
            for text in every_position(variant, counters) {
                let pos = position(variant, &text);
                let value = tables.probe(&pos).unwrap();
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    let ending = pos.own_ending().unwrap();
                    let totals = pos.final_totals(ending, LastFourRule::default());
                    let me = pos.side_to_move().index();
                    assert_eq!(value, totals[me] as i32 - totals[1 - me] as i32, "{text}");
                    continue;
                }
                let best = legal
                    .iter()
                    .map(|&mv| move_value(&tables, &pos, mv))
                    .max()
                    .unwrap();
                // A position whose best is to cycle is worth the leftover rule; otherwise the
                // best of its moves.
                let totals =
                    pos.final_totals(mancala_rules::Ending::Repetition, LastFourRule::default());
                let me = pos.side_to_move().index();
                let leftover = totals[me] as i32 - totals[1 - me] as i32;
                assert!(
                    value == best || (value == leftover && best <= leftover.max(best)),
                    "{variant} {text}: value {value}, best move {best}"
                );
                assert_eq!(
                    value, best,
                    "{variant} {text}: value {value}, best move {best}"
                );
            }
        }
    }
}

fn temporary_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mancala-tb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn files_hold_the_tables_and_damaged_or_wrong_ones_are_refused() {
    let dir = temporary_dir("files");
    let never = AtomicBool::new(false);
    let report = build(Variant::MangalaII, 6, &dir, 2, &never, &|_| {}).unwrap();
    assert_eq!(report.built, (0..=6).collect::<Vec<_>>());
    let loaded = Tablebases::load(&dir).unwrap();
    assert!(loaded.refused.is_empty());
    let memory =
        Tablebases::from_layers(Variant::MangalaII, build_in_memory(Variant::MangalaII, 6));
    for text in every_position(Variant::MangalaII, 6) {
        let pos = position(Variant::MangalaII, &text);
        assert_eq!(loaded.tablebases.probe(&pos), memory.probe(&pos), "{text}");
    }
    assert_eq!(loaded.tablebases.max_counters(Variant::MangalaII), Some(6));
    // A second build reuses every layer; a larger one extends them.
    let again = build(Variant::MangalaII, 7, &dir, 1, &never, &|_| {}).unwrap();
    assert_eq!((again.reused.len(), again.built), (7, vec![7]));

    // A damaged value is found when a probe first reads its block: the block answers nothing
    // (the layer's one block here), the rest of the tables still do.
    let layer5 = dir.join("mangala-ii-05.mtb");
    let mut bytes = std::fs::read(&layer5).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    std::fs::write(&layer5, &bytes).unwrap();
    let loaded = Tablebases::load(&dir).unwrap();
    assert!(loaded.refused.is_empty(), "mapped, not read at load");
    let five = position(Variant::MangalaII, "1-1-1-1-1-0-0-0-0-0-0-0-34-33-S");
    let four = position(Variant::MangalaII, "1-1-1-1-0-0-0-0-0-0-0-0-34-34-S");
    let game = loaded.tablebases.game(Variant::MangalaII).unwrap();
    assert_eq!(game.damaged_blocks(), 0);
    assert_eq!(loaded.tablebases.probe(&five), None);
    assert_eq!(game.damaged_blocks(), 1);
    assert!(loaded.tablebases.probe(&four).is_some());
    // A damaged header or block checksum is refused at once, and the game's tables stop below.
    let mut head_damaged = bytes.clone();
    head_damaged[70] ^= 0x01;
    std::fs::write(&layer5, &head_damaged).unwrap();
    let loaded = Tablebases::load(&dir).unwrap();
    assert_eq!(loaded.refused.len(), 1);
    assert!(
        loaded.refused[0].to_string().contains("damaged"),
        "{}",
        loaded.refused[0]
    );
    assert_eq!(loaded.tablebases.probe(&five), None);
    assert!(loaded.tablebases.probe(&four).is_some());
    assert_eq!(loaded.tablebases.max_counters(Variant::MangalaII), Some(4));
    // A build reads every layer it reuses whole, and replaces a damaged one.
    std::fs::write(&layer5, &bytes).unwrap();
    let rebuilt = build(Variant::MangalaII, 7, &dir, 1, &never, &|_| {}).unwrap();
    assert_eq!(rebuilt.built, vec![5]);
    let loaded = Tablebases::load(&dir).unwrap();
    assert_eq!(loaded.tablebases.probe(&five), memory.probe(&five));

    // A layer under another layer's name, a truncated file and a file of another game's
    // format are refused too.
    std::fs::copy(dir.join("mangala-ii-03.mtb"), dir.join("mangala-ii-02.mtb")).unwrap();
    let truncated = std::fs::read(dir.join("mangala-ii-04.mtb")).unwrap();
    std::fs::write(
        dir.join("mangala-ii-04.mtb"),
        &truncated[..truncated.len() / 2],
    )
    .unwrap();
    std::fs::write(
        dir.join("al-manqala-00.mtb"),
        b"not a table at all, just text",
    )
    .unwrap();
    let loaded = Tablebases::load(&dir).unwrap();
    let messages: Vec<String> = loaded.refused.iter().map(|e| e.to_string()).collect();
    assert_eq!(messages.len(), 3, "{messages:?}");
    assert!(
        messages
            .iter()
            .any(|m| m.contains("holds mangala-ii with 3 counters")),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m.contains("damaged")),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m.contains("not a tablebase file")),
        "{messages:?}"
    );
    assert_eq!(loaded.tablebases.max_counters(Variant::MangalaII), Some(1));
    assert!(Tablebases::load(&dir.join("nowhere")).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn anywoli_tables_know_who_received_the_last_four() {
    let tables = Tablebases::from_layers(Variant::Anywoli, build_in_memory(Variant::Anywoli, 4));
    assert_eq!(states(Variant::Anywoli, 4), 3);
    // Four seeds left end the game: they go to whoever received the most recent four.
    let base = "0-0-0-0-0-0-0-0-0-0-0-1-1-0-0-0-0-0-0-0-0-0-1-1-46-46";
    let cases = [
        ("S-S-X", 4),
        ("S-N-X", -4),
        ("S-X-X", 0),
        ("N-S-X", -4),
        ("N-N-X", 4),
    ];
    for (fields, value) in cases {
        let pos = position(Variant::Anywoli, &format!("{base}-{fields}"));
        assert_eq!(tables.probe(&pos), Some(value), "{fields}");
        // The first last-seed capture does not change the value under the default rule, and
        // the tables answer nothing under the other one.
        assert_eq!(
            tables.probe_with(&pos, LastFourRule::FirstCapture),
            None,
            "{fields}"
        );
    }
    let _ = (
        Side::South,
        Layer {
            counters: 0,
            boards: 1,
            values: vec![0],
        },
    );
}

/// Whether the game's moves relay (the naive rules replay such laps seed by seed, slowly).
fn relays(variant: Variant) -> bool {
    !matches!(variant.rules().laps, mancala_rules::Laps::Single { .. })
}

/// The tables of a game of a file are the tables of that file's rules: once the file changes
/// (the same name, other rules), its old tables are refused and a build makes them again.
#[test]
fn tables_of_a_game_file_are_refused_once_the_file_changes() {
    let dir = temporary_dir("game-file");
    let never = AtomicBool::new(false);
    // A name longer than the 16 bytes a file's header holds of it.
    let file = "name = \"kalah-of-four-pits-for-tables\"\npits-per-row = 4\nstart = 3\n\
                sow-own-store = true\nextra-turn-in-store = true\ncapture-side = \"own\"\n\
                capture-empty-opposite = true\ngame-ends = \"row-empty\"\n\
                leftover = \"row-owner\"\n";
    let first = mancala_rules::definition::register(file).unwrap();
    let report = build(first, 5, &dir, 1, &never, &|_| {}).unwrap();
    assert_eq!(report.built.len(), 6);
    let loaded = Tablebases::load(&dir).unwrap();
    assert!(loaded.refused.is_empty());
    assert_eq!(loaded.tablebases.max_counters(first), Some(5));
    let pos = position(first, "1-0-0-0-0-0-1-2-10-10-S");
    let solved = {
        let table = SolverTable::new(4);
        mancala_rules::with_spec!(first, S => {
            Solver::<S>::new(&table, None, LastFourRule::default(), SolveLimits::NONE)
                .value(&pos)
        })
        .unwrap()
    };
    assert_eq!(loaded.tablebases.probe(&pos), Some(solved));

    // The same name without the extra turn: other rules, other values.
    let changed = mancala_rules::definition::register(
        &file.replace("extra-turn-in-store = true", "extra-turn-in-store = false"),
    )
    .unwrap();
    assert_ne!(changed, first);
    let loaded = Tablebases::load(&dir).unwrap();
    assert_eq!(loaded.tablebases.max_counters(changed), None);
    assert!(
        loaded
            .refused
            .iter()
            .any(|e| e.to_string().contains("another definition")),
        "{:?}",
        loaded
            .refused
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
    );
    let rebuilt = build(changed, 5, &dir, 1, &never, &|_| {}).unwrap();
    assert_eq!(rebuilt.built.len(), 6, "every layer is built again");
    let _ = std::fs::remove_dir_all(&dir);
}
