//! `mancala-match` against engines that misbehave on purpose, and against the real engine.
//!
//! This test binary has its own `main` (no libtest harness) so that it can also *be* the fake
//! engine: run with `--fake-engine <mode> <n>`, it speaks the protocol, plays the first legal
//! move, and at its `n`-th `go` misbehaves as `mode` says. The match runner starts it like any
//! other engine.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use mancala_engine::rules::{Game, LastFourRule, Move, Position, Variant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--fake-engine") {
        let mode = args.get(2).cloned().unwrap_or_default();
        let n = args.get(3).and_then(|n| n.parse().ok()).unwrap_or(1);
        fake_engine(&mode, n);
        return;
    }
    let filter = args.iter().skip(1).find(|a| !a.starts_with('-')).cloned();
    let tests: &[(&str, fn())] = &[
        ("help_explains_every_use", help_explains_every_use),
        (
            "a_missing_engine_fails_the_match_at_once",
            a_missing_engine_fails_the_match_at_once,
        ),
        (
            "a_crash_loses_and_the_engine_is_restarted",
            a_crash_loses_and_the_engine_is_restarted,
        ),
        (
            "a_hang_loses_and_the_engine_is_restarted",
            a_hang_loses_and_the_engine_is_restarted,
        ),
        ("no_readyok_loses_as_a_hang", no_readyok_loses_as_a_hang),
        ("an_illegal_move_loses", an_illegal_move_loses),
        ("an_unparsable_move_loses", an_unparsable_move_loses),
        ("overstepping_the_time_loses", overstepping_the_time_loses),
        (
            "identical_engines_do_not_pass_an_sprt",
            identical_engines_do_not_pass_an_sprt,
        ),
        (
            "openings_file_is_used_in_order",
            openings_file_is_used_in_order,
        ),
        (
            "search_beats_random_in_every_game",
            search_beats_random_in_every_game,
        ),
        (
            "four_clocked_games_at_once_lose_no_time",
            four_clocked_games_at_once_lose_no_time,
        ),
        ("round_robin_of_three", round_robin_of_three),
        (
            "the_ply_cap_adjudicates_by_the_leftover_rule",
            the_ply_cap_adjudicates_by_the_leftover_rule,
        ),
        (
            "load_in_every_game_without_a_fault",
            load_in_every_game_without_a_fault,
        ),
    ];
    let mut failed = Vec::new();
    for (name, test) in tests {
        if filter.as_deref().is_some_and(|f| !name.contains(f)) {
            continue;
        }
        let started = Instant::now();
        let outcome = std::panic::catch_unwind(test);
        let verdict = if outcome.is_ok() { "ok" } else { "FAILED" };
        println!(
            "test {name} ... {verdict} ({:.1} s)",
            started.elapsed().as_secs_f64()
        );
        if outcome.is_err() {
            failed.push(*name);
        }
    }
    if !failed.is_empty() {
        println!("failed: {failed:?}");
        std::process::exit(101);
    }
}

// ---------------------------------------------------------------------------------------------
// The fake engine.

fn fake_engine(mode: &str, misbehave_at: u32) {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut variant = Variant::MangalaII;
    let mut game = Game::new(Position::start(variant), LastFourRule::default());
    let mut gos = 0;
    let mut say = |line: &str| {
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    };
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["uci"] => {
                say(&format!("id name fake-{mode}"));
                say("uciok");
            }
            ["isready"] if mode == "noready" => {}
            ["isready"] => say("readyok"),
            ["setoption", "name", "Variant", "value", v] => variant = v.parse().unwrap(),
            ["position", "fen", fen, rest @ ..] => {
                let base = Position::from_position_string(variant, fen).unwrap();
                game = Game::new(base, LastFourRule::default());
                let moves: Vec<Move> = rest.iter().skip(1).map(|m| m.parse().unwrap()).collect();
                game.play_all(&moves).unwrap();
            }
            ["go", ..] => {
                gos += 1;
                let legal = game.legal_moves();
                let first = legal.as_slice()[0];
                if gos < misbehave_at {
                    say(&format!("info depth 1 score cp 0 pv {first}"));
                    say(&format!("bestmove {first}"));
                    continue;
                }
                match mode {
                    "crash" => std::process::exit(3),
                    "hang" => loop {
                        std::thread::sleep(Duration::from_secs(1));
                    },
                    "illegal" => say("bestmove pass"),
                    "garbage" => say("bestmove xyzzy"),
                    "slow" => {
                        std::thread::sleep(Duration::from_millis(400));
                        say(&format!("bestmove {first}"));
                    }
                    _ => say(&format!("bestmove {first}")),
                }
            }
            ["quit"] => return,
            _ => {}
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers.

fn fake(mode: &str, n: u32) -> Vec<String> {
    let me = std::env::current_exe().unwrap();
    vec![
        "--engine".into(),
        format!("cmd={}", me.display()),
        format!("name={mode}"),
        "arg=--fake-engine".into(),
        format!("arg={mode}"),
        format!("arg={n}"),
    ]
}

fn real(name: &str, options: &[&str]) -> Vec<String> {
    let mut words = vec![
        "--engine".into(),
        format!("cmd={}", env!("CARGO_BIN_EXE_mancala-engine")),
        format!("name={name}"),
    ];
    words.extend(options.iter().map(|o| format!("option.{o}")));
    words
}

struct Outcome {
    status: i32,
    stdout: String,
    stderr: String,
    json: String,
    records: String,
}

fn temp_path(tag: &str) -> PathBuf {
    std::env::temp_dir().join(format!("mancala-match-test-{}-{tag}", std::process::id()))
}

fn run_match(tag: &str, args: &[String]) -> Outcome {
    let json = temp_path(&format!("{tag}.json"));
    let records = temp_path(&format!("{tag}.txt"));
    let output = Command::new(env!("CARGO_BIN_EXE_mancala-match"))
        .args(args)
        .arg("--json")
        .arg(&json)
        .arg("--records")
        .arg(&records)
        .output()
        .unwrap();
    let outcome = Outcome {
        status: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        json: std::fs::read_to_string(&json).unwrap_or_default(),
        records: std::fs::read_to_string(&records).unwrap_or_default(),
    };
    let _ = std::fs::remove_file(json);
    let _ = std::fs::remove_file(records);
    outcome
}

fn args(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

/// A two-engine match of `games` games between a misbehaving fake and a good one.
fn fault_match(mode: &str, n: u32, games: u32, extra: &[&str]) -> Outcome {
    let mut a = fake(mode, n);
    a.extend(fake("good", u32::MAX));
    a.extend(args(&["--games", &games.to_string(), "--movetime", "50"]));
    a.extend(args(extra));
    let outcome = run_match(mode, &a);
    assert_eq!(outcome.status, 0, "{}{}", outcome.stdout, outcome.stderr);
    assert!(
        outcome.json.contains(&format!("\"games_played\": {games}")),
        "{}",
        outcome.json
    );
    outcome
}

fn assert_engine_line(json: &str, name: &str, expected: &str) {
    let line = json
        .lines()
        .find(|l| l.contains(&format!("\"name\": \"{name}\"")))
        .unwrap_or_else(|| panic!("no engine {name} in {json}"));
    assert!(line.contains(expected), "{line}\nexpected {expected}");
}

// ---------------------------------------------------------------------------------------------
// Tests.

fn help_explains_every_use() {
    let out = Command::new(env!("CARGO_BIN_EXE_mancala-match"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for flag in [
        "--engine",
        "--each",
        "--tournament",
        "--variant",
        "--games",
        "--concurrency",
        "--tc",
        "--movetime",
        "--depth",
        "--nodes",
        "--openings",
        "--random-plies",
        "--sprt",
        "--records",
        "--json",
        "--max-plies",
        "--time-margin",
        "--timeout",
    ] {
        assert!(text.contains(flag), "--help does not mention {flag}");
    }
    let bad = Command::new(env!("CARGO_BIN_EXE_mancala-match"))
        .args(["--engine", "cmd=x", "--games", "0"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--games must be at least 1"));
}

fn a_missing_engine_fails_the_match_at_once() {
    let mut a = args(&["--engine", "cmd=/nonexistent/engine"]);
    a.extend(fake("good", u32::MAX));
    let outcome = run_match("missing", &a);
    assert_eq!(outcome.status, 1);
    assert!(
        outcome.stderr.contains("cannot start"),
        "{}",
        outcome.stderr
    );
}

fn a_crash_loses_and_the_engine_is_restarted() {
    let outcome = fault_match("crash", 3, 4, &[]);
    assert_engine_line(
        &outcome.json,
        "crash",
        "\"wins\": 0, \"draws\": 0, \"losses\": 4",
    );
    assert_engine_line(&outcome.json, "crash", "\"crashes\": 4");
    assert!(
        outcome.json.contains("\"terminations\": {\"crash\": 4}"),
        "{}",
        outcome.json
    );
    assert!(
        outcome.records.contains("[Termination \"crash by"),
        "{}",
        outcome.records
    );
}

fn a_hang_loses_and_the_engine_is_restarted() {
    let outcome = fault_match("hang", 2, 2, &[]);
    assert_engine_line(&outcome.json, "hang", "\"losses\": 2");
    assert_engine_line(&outcome.json, "hang", "\"hangs\": 2");
    assert!(
        outcome.json.contains("\"terminations\": {\"hang\": 2}"),
        "{}",
        outcome.json
    );
}

fn no_readyok_loses_as_a_hang() {
    let outcome = fault_match("noready", 1, 2, &["--timeout", "300"]);
    assert_engine_line(&outcome.json, "noready", "\"hangs\": 2");
    assert!(
        outcome.records.contains("no 'readyok'"),
        "{}",
        outcome.records
    );
}

fn an_illegal_move_loses() {
    let outcome = fault_match("illegal", 2, 2, &[]);
    assert_engine_line(&outcome.json, "illegal", "\"illegal_moves\": 2");
    assert!(
        outcome.records.contains("illegal move by") && outcome.records.contains("'pass'"),
        "{}",
        outcome.records
    );
    // The engine stays: no restart is needed after an illegal move.
    assert_engine_line(&outcome.json, "illegal", "\"crashes\": 0, \"hangs\": 0");
}

fn an_unparsable_move_loses() {
    let outcome = fault_match("garbage", 1, 2, &[]);
    assert_engine_line(&outcome.json, "garbage", "\"illegal_moves\": 2");
    assert!(
        outcome.records.contains("'xyzzy' is not a move name"),
        "{}",
        outcome.records
    );
}

fn overstepping_the_time_loses() {
    let outcome = fault_match("slow", 2, 2, &[]);
    assert_engine_line(&outcome.json, "slow", "\"time_forfeits\": 2");
    assert!(
        outcome
            .json
            .contains("\"terminations\": {\"time forfeit\": 2}"),
        "{}",
        outcome.json
    );
    // The same engine under a clock: 300 ms for the game, so its 400 ms move is too late.
    let mut a = fake("slow", 2);
    a.extend(fake("good", u32::MAX));
    a.extend(args(&["--games", "2", "--tc", "0.3"]));
    let clocked = run_match("slow-clock", &a);
    assert_engine_line(&clocked.json, "slow", "\"time_forfeits\": 2");
}

fn identical_engines_do_not_pass_an_sprt() {
    let mut a = fake("good", u32::MAX);
    a.extend(fake("good", u32::MAX));
    a.extend(args(&[
        "--games", "400", "--sprt", "0", "10", "0.05", "0.05",
    ]));
    let outcome = run_match("sprt", &a);
    assert_eq!(outcome.status, 0, "{}", outcome.stderr);
    assert!(
        outcome.json.contains("\"result\": \"H0\""),
        "{}",
        outcome.json
    );
    assert!(
        !outcome.json.contains("\"games_played\": 400"),
        "stopped early: {}",
        outcome.json
    );
}

fn openings_file_is_used_in_order() {
    let file = temp_path("openings.txt");
    std::fs::write(
        &file,
        "# two openings\nC d\n6-6-6-6-6-6-6-6-6-6-6-6-0-0-N moves b\n",
    )
    .unwrap();
    let mut a = fake("good", u32::MAX);
    a.extend(fake("good", u32::MAX));
    a.extend(args(&[
        "--games",
        "4",
        "--openings",
        file.to_str().unwrap(),
    ]));
    let outcome = run_match("openings", &a);
    let _ = std::fs::remove_file(file);
    assert_eq!(outcome.status, 0, "{}", outcome.stderr);
    let games: Vec<&str> = outcome.records.split("[Event").skip(1).collect();
    assert_eq!(games.len(), 4);
    for game in &games[..2] {
        assert!(game.contains("1. S:C {book} 2. N:d {book}"), "{game}");
    }
    for game in &games[2..] {
        assert!(
            game.contains("[Start \"6-6-6-6-6-6-6-6-6-6-6-6-0-0-N\"]"),
            "{game}"
        );
        assert!(game.contains("1. N:b {book}"), "{game}");
    }
}

fn search_beats_random_in_every_game() {
    for variant in ["mangala-ii", "mangala-iv", "al-manqala", "anywoli"] {
        let mut a = real("search", &[]);
        a.extend(real("random", &["Strategy=random"]));
        a.extend(args(&[
            "--variant",
            variant,
            "--games",
            "12",
            "--depth",
            "4",
        ]));
        let outcome = run_match(variant, &a);
        assert_eq!(outcome.status, 0, "{}", outcome.stderr);
        let json = &outcome.json;
        for fault in ["\"crashes\": 0", "\"hangs\": 0", "\"illegal_moves\": 0"] {
            assert_eq!(json.matches(fault).count(), 2, "{variant}: {json}");
        }
        if variant == "mangala-iv" {
            // Forced play: each deal is won once by each side, or drawn twice.
            assert!(json.contains("\"pentanomial\": [0, 0, 6, 0, 0]"), "{json}");
        } else {
            assert_engine_line(json, "search", "\"losses\": 0");
        }
    }
}

fn four_clocked_games_at_once_lose_no_time() {
    let mut a = real("one", &[]);
    a.extend(real("two", &[]));
    a.extend(args(&[
        "--games",
        "4",
        "--concurrency",
        "4",
        "--tc",
        "1+0.01",
    ]));
    let outcome = run_match("clock", &a);
    assert_eq!(outcome.status, 0, "{}", outcome.stderr);
    assert!(
        outcome.json.contains("\"games_played\": 4"),
        "{}",
        outcome.json
    );
    assert_eq!(
        outcome.json.matches("\"time_forfeits\": 0").count(),
        2,
        "{}",
        outcome.json
    );
}

fn round_robin_of_three() {
    let mut a = fake("good", u32::MAX);
    a.extend(fake("illegal", 1));
    a.extend(real("random", &["Strategy=random"]));
    a.extend(args(&["--games", "2", "--depth", "1"]));
    let outcome = run_match("robin", &a);
    assert_eq!(outcome.status, 0, "{}", outcome.stderr);
    assert!(
        outcome.json.contains("\"games_played\": 6"),
        "{}",
        outcome.json
    );
    assert_engine_line(&outcome.json, "illegal", "\"losses\": 4");
    assert!(
        outcome.stdout.contains("Engines against the field"),
        "{}",
        outcome.stdout
    );
}

fn the_ply_cap_adjudicates_by_the_leftover_rule() {
    let mut a = fake("good", u32::MAX);
    a.extend(fake("good", u32::MAX));
    a.extend(args(&[
        "--games",
        "2",
        "--max-plies",
        "12",
        "--variant",
        "anywoli",
    ]));
    let outcome = run_match("cap", &a);
    assert_eq!(outcome.status, 0, "{}", outcome.stderr);
    assert!(
        outcome.json.contains("\"terminations\": {\"ply cap\": 2}"),
        "{}",
        outcome.json
    );
    for game in outcome.records.split("[Event").skip(1) {
        assert!(game.contains("[Plies \"12\"]"), "{game}");
        assert!(game.contains("[FinalScore"), "{game}");
    }
}

/// The reduced load test (the full one is `scripts/selfplay.sh --games 500 --movetime 20
/// --concurrency 4`, 2,000 games): the engine against itself at 20 ms per move in every game,
/// four games at a time, the position and whole move list sent to both engines before every move.
fn load_in_every_game_without_a_fault() {
    for variant in ["mangala-ii", "mangala-iv", "al-manqala", "anywoli"] {
        let mut a = real("one", &[]);
        a.extend(real("two", &[]));
        a.extend(args(&[
            "--variant",
            variant,
            "--games",
            "8",
            "--movetime",
            "20",
            "--concurrency",
            "4",
        ]));
        let outcome = run_match(&format!("load-{variant}"), &a);
        assert_eq!(outcome.status, 0, "{}", outcome.stderr);
        let json = &outcome.json;
        assert!(json.contains("\"games_played\": 8"), "{json}");
        for fault in [
            "\"crashes\": 0",
            "\"hangs\": 0",
            "\"illegal_moves\": 0",
            "\"time_forfeits\": 0",
        ] {
            assert_eq!(json.matches(fault).count(), 2, "{variant}: {json}");
        }
    }
}
