//! The fuzz targets' seeds (`fuzz/corpus/<target>/`, picked by `scripts/fuzz-seeds.py`) replayed
//! through the same checks as the targets themselves (`fuzz/src/`), so that every seed, the
//! regressions among them, runs in every test run and not only under AFL.

use std::path::PathBuf;

#[path = "../../../fuzz/src/checks.rs"]
mod checks;

/// The seeds of `target`, with their names.
fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut seeds: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    seeds.sort();
    assert!(seeds.len() >= 10, "{target}: {} seeds", seeds.len());
    seeds
}

/// Runs `check` on every seed of `target`, on a thread of its own (a session spawns threads:
/// a panic on any of them fails the join), naming the seed that fails.
fn replay(target: &str, check: fn(&[u8])) {
    for (name, data) in seeds(target) {
        let run = std::thread::spawn(move || check(&data));
        assert!(
            run.join().is_ok(),
            "{target}: the seed {name} fails the target's checks"
        );
    }
}

#[test]
fn command_line_seeds_parse_or_say_why() {
    replay("command_line", checks::command_line);
}

#[test]
fn position_string_seeds_round_trip_and_play_to_an_end() {
    replay("position_string", checks::position_string);
}

#[test]
fn session_seeds_run_through_the_main_loop() {
    replay("session", checks::session);
}
