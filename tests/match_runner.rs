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

use mancala_rules::{Game, LastFourRule, Move, Position, Variant};

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
        (
            "engines_play_under_limits_of_their_own",
            engines_play_under_limits_of_their_own,
        ),
        (
            "shards_merged_equal_the_whole_run",
            shards_merged_equal_the_whole_run,
        ),
        (
            "a_run_stopped_by_sigterm_goes_on_from_its_journal",
            a_run_stopped_by_sigterm_goes_on_from_its_journal,
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

impl Outcome {
    /// The JSON summary, read by a standard JSON parser.
    fn summary(&self) -> serde_json::Value {
        serde_json::from_str(&self.json)
            .unwrap_or_else(|e| panic!("the summary is not JSON ({e}): {}", self.json))
    }
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
    assert_eq!(outcome.summary()["games_played"], games, "{}", outcome.json);
    outcome
}

/// What the summary says of engine `name`: field `field` (a count).
fn engine_field(outcome: &Outcome, name: &str, field: &str) -> u64 {
    let summary = outcome.summary();
    let engine = summary["engines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == name)
        .unwrap_or_else(|| panic!("no engine {name} in {}", outcome.json))
        .clone();
    engine[field]
        .as_u64()
        .unwrap_or_else(|| panic!("no {field} for {name} in {}", outcome.json))
}

/// Every engine's count `field` is 0.
fn no_engine_has(outcome: &Outcome, field: &str) {
    for engine in outcome.summary()["engines"].as_array().unwrap() {
        assert_eq!(engine[field], 0, "{field}: {}", outcome.json);
    }
}

/// The first pairing's endings.
fn endings(outcome: &Outcome) -> serde_json::Value {
    outcome.summary()["pairings"][0]["terminations"].clone()
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
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert!(
        stderr.contains("--games") && stderr.contains("'0'"),
        "{stderr}"
    );
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
    let count = |field| engine_field(&outcome, "crash", field);
    assert_eq!((count("wins"), count("draws"), count("losses")), (0, 0, 4));
    assert_eq!(count("crashes"), 4);
    assert_eq!(endings(&outcome), serde_json::json!({"crash": 4}));
    assert!(
        outcome.records.contains("[Termination \"crash by"),
        "{}",
        outcome.records
    );
}

fn a_hang_loses_and_the_engine_is_restarted() {
    let outcome = fault_match("hang", 2, 2, &[]);
    assert_eq!(engine_field(&outcome, "hang", "losses"), 2);
    assert_eq!(engine_field(&outcome, "hang", "hangs"), 2);
    assert_eq!(endings(&outcome), serde_json::json!({"hang": 2}));
}

fn no_readyok_loses_as_a_hang() {
    let outcome = fault_match("noready", 1, 2, &["--timeout", "300"]);
    assert_eq!(engine_field(&outcome, "noready", "hangs"), 2);
    assert!(
        outcome.records.contains("no 'readyok'"),
        "{}",
        outcome.records
    );
}

fn an_illegal_move_loses() {
    let outcome = fault_match("illegal", 2, 2, &[]);
    assert_eq!(engine_field(&outcome, "illegal", "illegal_moves"), 2);
    assert!(
        outcome.records.contains("illegal move by") && outcome.records.contains("'pass'"),
        "{}",
        outcome.records
    );
    // The engine stays: no restart is needed after an illegal move.
    assert_eq!(engine_field(&outcome, "illegal", "crashes"), 0);
    assert_eq!(engine_field(&outcome, "illegal", "hangs"), 0);
}

fn an_unparsable_move_loses() {
    let outcome = fault_match("garbage", 1, 2, &[]);
    assert_eq!(engine_field(&outcome, "garbage", "illegal_moves"), 2);
    assert!(
        outcome.records.contains("'xyzzy' is not a move name"),
        "{}",
        outcome.records
    );
}

fn overstepping_the_time_loses() {
    let outcome = fault_match("slow", 2, 2, &[]);
    assert_eq!(engine_field(&outcome, "slow", "time_forfeits"), 2);
    assert_eq!(endings(&outcome), serde_json::json!({"time forfeit": 2}));
    // The same engine under a clock: 300 ms for the game, so its 400 ms move is too late.
    let mut a = fake("slow", 2);
    a.extend(fake("good", u32::MAX));
    a.extend(args(&["--games", "2", "--tc", "0.3"]));
    let clocked = run_match("slow-clock", &a);
    assert_eq!(engine_field(&clocked, "slow", "time_forfeits"), 2);
}

fn identical_engines_do_not_pass_an_sprt() {
    let mut a = fake("good", u32::MAX);
    a.extend(fake("good", u32::MAX));
    a.extend(args(&[
        "--games", "400", "--sprt", "0", "10", "0.05", "0.05",
    ]));
    let outcome = run_match("sprt", &a);
    assert_eq!(outcome.status, 0, "{}", outcome.stderr);
    let summary = outcome.summary();
    assert_eq!(summary["sprt"]["result"], "H0", "{}", outcome.json);
    assert!(
        summary["games_played"].as_u64().unwrap() < 400,
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
    // Records come in the order games end, which under load need not be their numbers' order.
    let mut games: Vec<(u32, &str)> = outcome
        .records
        .split("[Event")
        .skip(1)
        .map(|game| {
            let number = game
                .split("[Game \"")
                .nth(1)
                .and_then(|rest| rest.split('"').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("no game number in {game}"));
            (number, game)
        })
        .collect();
    games.sort();
    assert_eq!(games.iter().map(|g| g.0).collect::<Vec<_>>(), [1, 2, 3, 4]);
    for (_, game) in &games[..2] {
        assert!(game.contains("1. S:C {book} 2. N:d {book}"), "{game}");
    }
    for (_, game) in &games[2..] {
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
        for fault in ["crashes", "hangs", "illegal_moves"] {
            no_engine_has(&outcome, fault);
        }
        if variant == "mangala-iv" {
            // Forced play: each deal is won once by each side, or drawn twice.
            assert_eq!(
                outcome.summary()["pairings"][0]["pentanomial"],
                serde_json::json!([0, 0, 6, 0, 0]),
                "{}",
                outcome.json
            );
        } else {
            assert_eq!(engine_field(&outcome, "search", "losses"), 0, "{variant}");
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
    assert_eq!(outcome.summary()["games_played"], 4);
    no_engine_has(&outcome, "time_forfeits");
}

fn round_robin_of_three() {
    let mut a = fake("good", u32::MAX);
    a.extend(fake("illegal", 1));
    a.extend(real("random", &["Strategy=random"]));
    a.extend(args(&["--games", "2", "--depth", "1"]));
    let outcome = run_match("robin", &a);
    assert_eq!(outcome.status, 0, "{}", outcome.stderr);
    assert_eq!(outcome.summary()["games_played"], 6);
    assert_eq!(engine_field(&outcome, "illegal", "losses"), 4);
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
    assert_eq!(endings(&outcome), serde_json::json!({"ply cap": 2}));
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
        assert_eq!(outcome.summary()["games_played"], 8, "{variant}");
        for fault in ["crashes", "hangs", "illegal_moves", "time_forfeits"] {
            no_engine_has(&outcome, fault);
        }
    }
}

/// A time-odds match (here depth odds, which are repeatable): each engine plays under its own
/// limit, and the records and the summary say which.
fn engines_play_under_limits_of_their_own() {
    let mut a = real("shallow", &[]);
    a.push("depth=1".into());
    a.extend(real("deep", &[]));
    a.push("depth=5".into());
    a.extend(args(&["--games", "2", "--movetime", "100"]));
    let outcome = run_match("odds", &a);
    assert_eq!(outcome.status, 0, "{}", outcome.stderr);
    let summary = outcome.summary();
    let limits: Vec<&str> = summary["run"]["engines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["limit"].as_str().unwrap())
        .collect();
    assert_eq!(limits, ["depth 1", "depth 5"]);
    assert!(
        outcome
            .stdout
            .contains("limits: shallow depth 1, deep depth 5"),
        "{}",
        outcome.stdout
    );
    for game in outcome.records.split("[Event").skip(1) {
        let south_is_shallow = game.contains("[South \"shallow\"]");
        let (south, north) = if south_is_shallow {
            ("depth 1", "depth 5")
        } else {
            ("depth 5", "depth 1")
        };
        assert!(
            game.contains(&format!("[SouthTimeControl \"{south}\"]"))
                && game.contains(&format!("[NorthTimeControl \"{north}\"]")),
            "{game}"
        );
    }
}

/// A run cut into shards played by separate processes and merged gives the whole run's summary
/// (at fixed depth, which is repeatable); merge refuses what does not belong together.
fn shards_merged_equal_the_whole_run() {
    let mut base = real("a", &[]);
    base.extend(real("b", &["Hash=8"]));
    base.extend(args(&[
        "--games",
        "12",
        "--depth",
        "3",
        "--concurrency",
        "2",
        "--variant",
        "al-manqala",
        "--sprt",
        "0",
        "10",
        "0.001",
        "0.001",
    ]));
    let whole = run_match("whole", &base);
    assert_eq!(whole.status, 0, "{}", whole.stderr);
    let mut paths = Vec::new();
    for k in 1..=4 {
        let mut a = base.clone();
        a.extend(args(&["--shard", &format!("{k}/4")]));
        let shard = run_match(&format!("shard{k}"), &a);
        assert_eq!(shard.status, 0, "{}", shard.stderr);
        assert_eq!(shard.summary()["shard"]["index"], k);
        let path = temp_path(&format!("shard{k}.json"));
        std::fs::write(&path, &shard.json).unwrap();
        paths.push(path);
    }
    let merged_json = temp_path("merged.json");
    let merge = |inputs: &[&PathBuf], out: Option<&PathBuf>| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_mancala-match"));
        command.arg("merge").args(inputs);
        if let Some(out) = out {
            command.arg("--json").arg(out);
        }
        command.output().unwrap()
    };
    let output = merge(&paths.iter().collect::<Vec<_>>(), Some(&merged_json));
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let merged: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&merged_json).unwrap()).unwrap();
    let whole_summary = whole.summary();
    for field in [
        "games_total",
        "games_played",
        "engines",
        "pairings",
        "sprt",
        "run",
    ] {
        assert_eq!(merged[field], whole_summary[field], "{field}");
    }
    // The same final report as the whole run.
    let report = String::from_utf8_lossy(&output.stdout);
    let whole_report = &whole.stdout[whole.stdout.find("Finished").unwrap()..];
    assert_eq!(report, whole_report);

    // Some shards only: reported as partial, naming the missing ones, with a failing status.
    let partial = merge(&[&paths[0], &paths[2]], None);
    assert!(!partial.status.success());
    let (out, err) = (
        String::from_utf8_lossy(&partial.stdout),
        String::from_utf8_lossy(&partial.stderr),
    );
    assert!(
        out.contains("(PARTIAL: shards 1, 3 of 4 merged, 2, 4 missing)"),
        "{out}"
    );
    assert!(err.contains("shard(s) 2, 4 of 4 missing"), "{err}");

    // Refused: a shard twice, a whole run, a shard of another run.
    let twice = merge(&[&paths[0], &paths[0]], None);
    assert!(!twice.status.success());
    assert!(String::from_utf8_lossy(&twice.stderr).contains("given twice"));
    let whole_path = temp_path("whole-copy.json");
    std::fs::write(&whole_path, &whole.json).unwrap();
    let with_whole = merge(&[&paths[0], &whole_path], None);
    assert!(String::from_utf8_lossy(&with_whole.stderr).contains("not the summary of a shard"));
    let mut other = base.clone();
    other.extend(args(&["--seed", "99", "--shard", "2/4"]));
    let other = run_match("other", &other);
    let other_path = temp_path("other.json");
    std::fs::write(&other_path, &other.json).unwrap();
    let mixed = merge(&[&paths[0], &other_path], None);
    assert!(String::from_utf8_lossy(&mixed.stderr).contains("another run"));
    let garbage_path = temp_path("garbage.json");
    std::fs::write(&garbage_path, "{\"not\": \"a summary\"}").unwrap();
    let garbage = merge(&[&garbage_path], None);
    assert!(String::from_utf8_lossy(&garbage.stderr).contains("not a mancala-match summary"));
    for path in paths
        .iter()
        .chain([&merged_json, &whole_path, &other_path, &garbage_path])
    {
        let _ = std::fs::remove_file(path);
    }
}

/// What a batch system's time limit does to a shard: SIGTERM. The run stops without beginning a
/// game, writes its summary so far and exits 143; the same command then goes on from the
/// journal, and the whole is what an uninterrupted run gives (at fixed depth, repeatable).
fn a_run_stopped_by_sigterm_goes_on_from_its_journal() {
    let mut base = real("a", &[]);
    base.extend(real("b", &["Hash=8"]));
    base.extend(args(&[
        "--games",
        "16",
        "--depth",
        "4",
        "--variant",
        "al-manqala",
        "--shard",
        "1/2",
    ]));
    let whole = run_match("journal-whole", &base);
    assert_eq!(whole.status, 0, "{}", whole.stderr);

    let journal = temp_path("journal.txt");
    let _ = std::fs::remove_file(&journal);
    let mut with_journal = base.clone();
    with_journal.extend(["--journal".to_string(), journal.display().to_string()]);
    let json = temp_path("journal-stopped.json");
    let child = Command::new(env!("CARGO_BIN_EXE_mancala-match"))
        .args(&with_journal)
        .arg("--json")
        .arg(&json)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Stopped once three games are in the journal (its first line names the run).
    let deadline = Instant::now() + std::time::Duration::from_secs(60);
    while std::fs::read_to_string(&journal).map_or(0, |t| t.lines().count()) < 4 {
        assert!(Instant::now() < deadline, "no games in the journal");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(143), "{stderr}");
    assert!(stderr.contains("stopped by SIGTERM"), "{stderr}");
    let stopped: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let played_then = stopped["games_played"].as_u64().unwrap();
    assert!((3..8).contains(&played_then), "{played_then} of 8 played");
    let journal_games = std::fs::read_to_string(&journal).unwrap().lines().count() - 1;
    assert_eq!(journal_games as u64, played_then);

    let resumed = run_match("journal-resumed", &with_journal);
    assert_eq!(resumed.status, 0, "{}", resumed.stderr);
    assert!(
        resumed.stderr.contains("going on from the journal"),
        "{}",
        resumed.stderr
    );
    let (done, whole_summary) = (resumed.summary(), whole.summary());
    for field in ["games_total", "games_played", "engines", "pairings"] {
        assert_eq!(done[field], whole_summary[field], "{field}");
    }
    // A game the run does not have (a journal edited by hand) is refused.
    let kept = std::fs::read_to_string(&journal).unwrap();
    std::fs::write(&journal, format!("{kept}9999 0 0 1 - board empty\n")).unwrap();
    let edited = run_match("journal-edited", &with_journal);
    assert_ne!(edited.status, 0);
    assert!(
        edited.stderr.contains("not a game of this run"),
        "{}",
        edited.stderr
    );
    std::fs::write(&journal, &kept).unwrap();

    // A journal of another run is refused, and left as it was.
    let mut other = with_journal.clone();
    other.extend(args(&["--seed", "5"]));
    let refused = run_match("journal-other", &other);
    assert_ne!(refused.status, 0);
    assert!(
        refused.stderr.contains("journal of another run"),
        "{}",
        refused.stderr
    );
    assert_eq!(
        std::fs::read_to_string(&journal).unwrap().lines().count(),
        9,
        "the header and the shard's 8 games"
    );
    for path in [&journal, &json] {
        let _ = std::fs::remove_file(path);
    }
}
