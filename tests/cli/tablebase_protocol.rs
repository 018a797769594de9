//! Tablebases through the real binary: `mancala-engine tablebase` builds them, `TablebasePath`
//! loads them, `query tb` answers the solved value, and `go` answers at once with a move that
//! keeps it, its exact margin and its table hits.

use mancala_protocol::{Command as ProtocolCommand, Limits};
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use mancala_rules::{Position, SplitMix64, Variant};
use mancala_tablebase::Tablebases;

use mancala_testkit::daemon::Daemon;
use mancala_testkit::positions::random_position;

const ENGINE: &str = env!("CARGO_BIN_EXE_mancala-engine");

fn build_tables(name: &str, variant: &str, max: u32) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mancala-tbp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let output = Command::new(ENGINE)
        .args([
            "tablebase",
            variant,
            &max.to_string(),
            dir.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(&format!("{} layers built", max + 1)),
        "{stdout}"
    );
    dir
}

/// Random positions of `variant` with `counters` on the board.
fn random_positions(variant: Variant, counters: u32, count: usize, seed: u64) -> Vec<String> {
    let mut rng = SplitMix64::new(seed);
    (0..count)
        .map(|_| random_position(variant, counters, &mut rng))
        .collect()
}

#[test]
fn query_tb_and_go_use_the_tables() {
    for (variant, max, counters) in [
        (Variant::MangalaII, 9, 9),
        (Variant::AlManqala, 8, 8),
        (Variant::Anywoli, 6, 6),
    ] {
        let dir = build_tables("query", variant.name(), max);
        let tables = Tablebases::load(&dir).unwrap().tablebases;
        let mut engine = Daemon::start();
        engine.send(&format!("variant {variant}"));
        engine.send(&format!(
            "setoption name TablebasePath value {}",
            dir.display()
        ));
        assert_eq!(
            engine.line(Duration::from_secs(30)),
            format!("info string tablebases: {variant} up to {max} counters")
        );
        for text in random_positions(variant, counters, 12, 7) {
            let pos = Position::from_position_string(variant, &text).unwrap();
            let value = tables.probe(&pos).unwrap();
            engine.send(&format!("position fen {text}"));
            assert_eq!(engine.query("tb"), format!("response {value}"), "{text}");
            if pos.legal_moves().is_empty() {
                continue;
            }
            let started = Instant::now();
            engine.command(&ProtocolCommand::Go(Limits {
                movetime: Some(20_000),
                ..Limits::default()
            }));
            let (lines, best) = engine.best_move(Duration::from_secs(30));
            assert!(
                started.elapsed() < Duration::from_secs(5),
                "{text}: not at once"
            );
            let info = &lines[lines.len() - 1];
            assert!(
                info.contains(&format!(" margin {value} ")) && info.contains(" tbhits "),
                "{text}: {info}"
            );
            // The move keeps the solved value.
            let mut child = pos;
            child.play_unchecked(best.best.expect("a move"));
            let after = tables.probe(&child).unwrap();
            let kept = if child.side_to_move() == pos.side_to_move() {
                after
            } else {
                -after
            };
            assert_eq!(kept, value, "{text}: {best}");
        }
        // A mistyped directory, or one without tables, is refused and leaves the tables loaded.
        let empty = std::env::temp_dir().join(format!("mancala-tbp-empty-{}", std::process::id()));
        std::fs::create_dir_all(&empty).unwrap();
        for (path, why) in [
            (dir.join("missing"), "it does not exist"),
            (empty.clone(), "no tables found in"),
        ] {
            engine.send(&format!(
                "setoption name TablebasePath value {}",
                path.display()
            ));
            let refused = engine.line(Duration::from_secs(30));
            assert!(
                refused.starts_with("info string error ")
                    && refused.contains(why)
                    && refused.ends_with("the tables loaded before stay"),
                "{refused}"
            );
        }
        let _ = std::fs::remove_dir_all(&empty);
        let text = &random_positions(variant, counters, 1, 8)[0];
        let pos = Position::from_position_string(variant, text).unwrap();
        engine.send(&format!("position fen {text}"));
        assert_eq!(
            engine.query("tb"),
            format!("response {}", tables.probe(&pos).unwrap()),
            "the tables stay loaded"
        );
        // Positions beyond the tables are not covered.
        engine.send("position startpos");
        assert_eq!(engine.query("tb"), "response none");
        engine.quit();
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn bad_tablebase_paths_and_files_are_reported_and_the_engine_plays_on() {
    let dir = build_tables("bad", "mangala-ii", 5);
    let layer = dir.join("mangala-ii-04.mtb");
    let mut bytes = std::fs::read(&layer).unwrap();
    // A byte of its block checksums: refused at once (a damaged value is found by the probe
    // that first reads its block, see crates/engine/tests/tablebase.rs).
    bytes[66] ^= 1;
    std::fs::write(&layer, &bytes).unwrap();
    let mut engine = Daemon::start();
    engine.send("setoption name TablebasePath value /no/such/directory");
    let line = engine.line(Duration::from_secs(10));
    assert!(
        line.starts_with("info string error cannot read the tablebase directory"),
        "{line}"
    );
    engine.send(&format!(
        "setoption name TablebasePath value {}",
        dir.display()
    ));
    let refused = engine.line(Duration::from_secs(10));
    assert!(
        refused.starts_with("info string tablebase file left out:") && refused.contains("damaged"),
        "{refused}"
    );
    assert_eq!(
        engine.line(Duration::from_secs(10)),
        "info string tablebases: mangala-ii up to 3 counters"
    );
    // Four counters are in the damaged layer: not covered, and `go` still answers.
    engine.send("position fen 1-1-1-1-0-0-0-0-0-0-0-0-34-34-S");
    assert_eq!(engine.query("tb"), "response none");
    engine.send("go depth 6");
    let lines = engine.until("bestmove", Duration::from_secs(30));
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
    engine.send("position fen 1-1-1-0-0-0-0-0-0-0-0-0-35-34-S");
    assert!(engine.query("tb").starts_with("response "));
    // An empty value unloads them.
    engine.send("setoption name TablebasePath value");
    assert_eq!(
        engine.line(Duration::from_secs(10)),
        "info string tablebases: none"
    );
    assert_eq!(engine.query("tb"), "response none");
    engine.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_command_line_refuses_what_it_cannot_build() {
    for (args, expected) in [
        (
            vec!["tablebase", "mangala-iv", "4", "/tmp/x"],
            "has no tables",
        ),
        (vec!["tablebase", "chess", "4", "/tmp/x"], "unknown variant"),
        (
            vec!["tablebase", "mangala-ii"],
            "required arguments were not provided: <MAX> <DIRECTORY>",
        ),
        (
            vec!["tablebase", "mangala-ii", "99", "/tmp/x"],
            "MAX is at most 72",
        ),
        (
            vec!["tablebase", "mangala-ii", "40", "/tmp/x"],
            "more than this build",
        ),
        (
            vec!["solve", "mangala-ii", "1-2-3"],
            "invalid position string",
        ),
        (
            vec!["tablebase", "mangala-ii", "6", "/tmp/x", "--part", "1/2"],
            "cannot be split among machines",
        ),
        (
            vec!["tablebase", "kalah", "6", "/tmp/x", "--part", "3/2"],
            "is not K/N with 1 <= K <= N",
        ),
        (
            vec![
                "tablebase",
                "kalah",
                "6",
                "/tmp/x",
                "--part",
                "1/2",
                "--merge",
                "2",
            ],
            "cannot be used with",
        ),
    ] {
        let output = Command::new(ENGINE).args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

/// A layer split among separate processes as a job array would run them (`--part J/K`), then
/// `--merge K`: the layer file the whole build writes, byte for byte, and the parts are gone.
/// A part refuses to start without the layers below it; a merge names a missing part.
#[test]
fn a_layer_built_in_parts_by_separate_processes_is_the_whole_layer() {
    let whole = build_tables("parts-whole", "kalah", 10);
    let split = build_tables("parts-split", "kalah", 9);
    let run = |args: &[&str]| {
        let mut all = vec!["tablebase", "kalah", "10", split.to_str().unwrap()];
        all.extend_from_slice(args);
        Command::new(ENGINE).args(&all).output().unwrap()
    };
    for number in 1..=3 {
        let output = run(&["--part", &format!("{number}/3"), "--threads", "1"]);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            stdout.contains(&format!("part {number} of 3 of layer 10")),
            "{stdout}"
        );
    }
    let rename = |from: &str, to: &str| std::fs::rename(split.join(from), split.join(to)).unwrap();
    rename("kalah-10.part-3-of-3.mtb", "kalah-10.part-3.mtb");
    let missing = run(&["--merge", "3"]);
    assert_eq!(missing.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert!(
        stderr.contains("kalah-10.part-3-of-3.mtb is missing"),
        "{stderr}"
    );
    rename("kalah-10.part-3.mtb", "kalah-10.part-3-of-3.mtb");
    let merged = run(&["--merge", "3"]);
    assert!(
        merged.status.success(),
        "{}",
        String::from_utf8_lossy(&merged.stderr)
    );
    assert_eq!(
        std::fs::read(split.join("kalah-10.mtb")).unwrap(),
        std::fs::read(whole.join("kalah-10.mtb")).unwrap()
    );
    let left: Vec<_> = std::fs::read_dir(&split)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains("part"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let too_far = Command::new(ENGINE)
        .args([
            "tablebase",
            "kalah",
            "12",
            split.to_str().unwrap(),
            "--part",
            "1/2",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&too_far.stderr);
    assert!(stderr.contains("kalah-11.mtb is missing"), "{stderr}");
    let _ = std::fs::remove_dir_all(whole);
    let _ = std::fs::remove_dir_all(split);
}

/// Ctrl-C stops a long build cleanly: the layers finished stay on disk and are whole (a build
/// up to the last of them reuses every one), the layer in hand is dropped without a partial
/// file, and the message says which it was and how to go on.
#[test]
fn a_build_stopped_by_ctrl_c_keeps_its_finished_layers() {
    // SIGINT, or SIGTERM where the tests run ignoring SIGINT.
    let (signal, status) = mancala_testkit::ctrl_c_signal();
    let dir = std::env::temp_dir().join(format!("mancala-tbp-stopped-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // One thread: layers 10 to 13 take seconds, so the signal comes in the middle of the build.
    let mut child = Command::new(ENGINE)
        .args(["tablebase", "al-manqala", "13", dir.to_str().unwrap()])
        .args(["--threads", "1"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let errors = mancala_testkit::signal_at_line(
        child.id(),
        child.stderr.take().unwrap(),
        |line| line.starts_with("layer  8:"),
        signal,
    );
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(status), "{errors}");
    assert!(output.stdout.is_empty(), "no report of a finished build");
    let stopped = errors
        .lines()
        .find_map(|line| line.strip_prefix(&format!("mancala-engine: stopped by SIG{signal}: ")))
        .unwrap_or_else(|| panic!("no line saying where it stopped: {errors}"));
    let dropped: u32 = stopped
        .strip_prefix("layer ")
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("the layer in hand is named: {stopped}"));
    assert!((9..=13).contains(&dropped), "{stopped}");
    assert!(
        stopped.contains(&format!("layers 0 to {} are kept", dropped - 1))
            && stopped.ends_with("the same command goes on from there"),
        "{stopped}"
    );
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let expected: Vec<String> = (0..dropped)
        .map(|n| format!("al-manqala-{n:02}.mtb"))
        .collect();
    assert_eq!(files, expected, "the finished layers and nothing else");
    // Whole files: the build up to the last one kept reuses every layer.
    let again = Command::new(ENGINE)
        .args(["tablebase", "al-manqala", &(dropped - 1).to_string()])
        .arg(&dir)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&again.stdout);
    assert!(again.status.success(), "{report}");
    assert!(
        report.contains(&format!("0 layers built, {dropped} reused")),
        "{report}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
