//! The search through the real binary, with stdin held open as a GUI or tournament manager does:
//! `isready` and `stop` during a search, time limits, `quit` mid-search, repeatable node counts.

use std::time::{Duration, Instant};

use mancala_testkit::daemon::Daemon as Engine;

const LONG: Duration = Duration::from_secs(30);

fn legal_moves(engine: &mut Engine) -> Vec<String> {
    engine
        .query("moves")
        .split_whitespace()
        .skip(1)
        .map(str::to_string)
        .collect()
}

#[test]
fn isready_and_query_are_answered_during_an_infinite_search_and_stop_gives_one_legal_move() {
    for variant in ["mangala-ii", "al-manqala", "anywoli"] {
        let mut engine = Engine::start();
        engine.send(&format!("variant {variant}"));
        let legal = legal_moves(&mut engine);
        engine.send("go infinite");
        std::thread::sleep(Duration::from_millis(200));
        let asked = Instant::now();
        engine.send("isready");
        let lines = engine.until("readyok", LONG);
        assert!(
            asked.elapsed() < Duration::from_secs(1),
            "readyok took {:?}",
            asked.elapsed()
        );
        assert!(
            lines.iter().all(|l| !l.starts_with("bestmove")),
            "{lines:?}"
        );
        // The search may print an `info depth` line before the answer.
        engine.send("query p1turn");
        let answer = loop {
            let line = engine.line(LONG);
            if !line.starts_with("info depth") {
                break line;
            }
        };
        assert_eq!(answer, "response true");
        engine.send("stop");
        let stopped = Instant::now();
        let lines = engine.until("bestmove", LONG);
        assert!(stopped.elapsed() < Duration::from_secs(1));
        let best = lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string();
        assert!(legal.contains(&best), "{best} not in {legal:?}");
        // Exactly one bestmove: the next line answers the next command.
        engine.send("isready");
        assert_eq!(engine.line(LONG), "readyok");
    }
}

#[test]
fn infinite_search_never_answers_before_stop_even_when_forced_or_over() {
    let mut engine = Engine::start();
    engine.send("variant mangala-iv");
    engine.send("go infinite");
    assert!(
        engine
            .next_line(Duration::from_millis(300))
            .is_some_and(|l| l.starts_with("info"))
    );
    assert!(engine.next_line(Duration::from_millis(300)).is_none());
    engine.send("stop");
    assert_eq!(engine.until("bestmove", LONG).last().unwrap(), "bestmove A");
}

#[test]
fn movetime_is_respected() {
    let mut engine = Engine::start();
    engine.send("setoption name Move Overhead value 10");
    let mut worst = Duration::ZERO;
    for _ in 0..5 {
        engine.send("isready");
        engine.until("readyok", LONG);
        let sent = Instant::now();
        engine.send("go movetime 100");
        engine.until("bestmove", LONG);
        worst = worst.max(sent.elapsed());
    }
    // 100 ms plus the overhead, with slack for a loaded machine.
    assert!(
        worst < Duration::from_millis(250),
        "go movetime 100 took {worst:?}"
    );
}

#[test]
fn clock_limits_give_a_prompt_legal_move() {
    let mut engine = Engine::start();
    engine.send("variant anywoli");
    let legal = legal_moves(&mut engine);
    let sent = Instant::now();
    engine.send("go p1time 300 p2time 300 p1inc 0 p2inc 0");
    let best = engine.until("bestmove", LONG).pop().unwrap();
    assert!(
        sent.elapsed() < Duration::from_millis(300),
        "{:?}",
        sent.elapsed()
    );
    assert!(
        legal.iter().any(|m| best == format!("bestmove {m}")),
        "{best}"
    );
    let sent = Instant::now();
    engine.send("go wtime 5000 btime 5000 winc 100 binc 100 movestogo 1");
    engine.until("bestmove", LONG);
    assert!(sent.elapsed() < Duration::from_millis(4_500));
}

#[test]
fn quit_during_a_search_exits_cleanly() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    engine.send("quit");
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        if let Some(status) = engine.try_exit_status() {
            assert!(status.success());
            break;
        }
        assert!(Instant::now() < deadline, "quit did not end the search");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn end_of_input_stops_a_search_with_one_bestmove() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    engine.close_input();
    let lines = engine.until("bestmove", Duration::from_secs(5));
    assert!(lines.last().unwrap().starts_with("bestmove "));
    assert!(
        engine.next_line(Duration::from_secs(5)).is_none(),
        "nothing after bestmove"
    );
}

#[test]
fn go_nodes_after_ucinewgame_is_repeatable() {
    let mut engine = Engine::start();
    let mut answers = Vec::new();
    for _ in 0..2 {
        engine.send("ucinewgame");
        engine.send("position startpos moves C d");
        engine.send("go nodes 30000");
        let lines = engine.until("bestmove", LONG);
        let last_info = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .unwrap()
            .clone();
        let nodes = last_info
            .split_whitespace()
            .skip_while(|w| *w != "nodes")
            .nth(1)
            .unwrap()
            .to_string();
        let pv = last_info.split(" pv ").nth(1).unwrap().to_string();
        answers.push((lines.last().unwrap().clone(), nodes, pv));
    }
    assert_eq!(answers[0], answers[1]);
}

#[test]
fn ponder_option_adds_the_expected_reply_and_ponderhit_finishes_the_search() {
    let mut engine = Engine::start();
    engine.send("go depth 6");
    let plain = engine.until("bestmove", LONG).pop().unwrap();
    assert_eq!(
        plain.split_whitespace().count(),
        2,
        "no ponder suffix by default: {plain}"
    );
    engine.send("setoption name Ponder value true");
    engine.send("go depth 6");
    let with_ponder = engine.until("bestmove", LONG).pop().unwrap();
    let words: Vec<&str> = with_ponder.split_whitespace().collect();
    assert_eq!(words.len(), 4, "{with_ponder}");
    assert_eq!(words[2], "ponder");
    // A ponder search waits for ponderhit, then finishes within its clock.
    engine.send(&format!(
        "position startpos moves {} {}",
        words[1], words[3]
    ));
    engine.send("go ponder wtime 1000 btime 1000");
    assert!(
        engine
            .next_line(Duration::from_millis(1500))
            .is_none_or(|l| !l.starts_with("bestmove"))
    );
    engine.send("ponderhit");
    let lines = engine.until("bestmove", Duration::from_secs(5));
    assert!(lines.last().unwrap().starts_with("bestmove "));
}

#[test]
fn multipv_reports_distinct_first_moves() {
    let mut engine = Engine::start();
    engine.send("setoption name MultiPV value 3");
    engine.send("go depth 5");
    let lines = engine.until("bestmove", LONG);
    let last_depth: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 5 "))
        .collect();
    assert_eq!(last_depth.len(), 3, "{lines:?}");
    let firsts: Vec<&str> = last_depth
        .iter()
        .map(|l| l.split(" pv ").nth(1).unwrap().split(' ').next().unwrap())
        .collect();
    assert_eq!(firsts.len(), 3);
    assert!(
        firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
        "{firsts:?}"
    );
    for (i, line) in last_depth.iter().enumerate() {
        assert!(line.contains(&format!(" multipv {} ", i + 1)), "{line}");
    }
    assert!(lines.last().unwrap().ends_with(firsts[0]));
}

#[test]
fn threads_option_searches_with_helpers_and_answers() {
    let mut engine = Engine::start();
    engine.send("setoption name Threads value 2");
    engine.send("setoption name Hash value 32");
    let legal = legal_moves(&mut engine);
    engine.send("go depth 10");
    let best = engine.until("bestmove", LONG).pop().unwrap();
    assert!(
        legal.iter().any(|m| best == format!("bestmove {m}")),
        "{best}"
    );
}

#[test]
fn bench_is_repeatable_and_ends_with_the_two_totals() {
    let run = || {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_mancala-engine"))
            .arg("bench")
            .output()
            .unwrap();
        assert!(output.status.success());
        String::from_utf8(output.stdout).unwrap()
    };
    let first = run();
    let lines: Vec<&str> = first.lines().collect();
    let n = lines.len();
    assert!(lines[n - 2].starts_with("Nodes searched: "));
    assert!(lines[n - 1].starts_with("Nodes/second: "));
    let second = run();
    assert_eq!(lines[n - 2], second.lines().nth(n - 2).unwrap());
    assert!(
        first
            .lines()
            .filter(|l| l.starts_with("info string bench"))
            .count()
            >= 12
    );
    // The bench's node count is the search's signature (as Stockfish's CI checks `Bench:`): a
    // change of search behaviour fails here until tests/data/bench-signature says the new count
    // (scripts/regress.sh --update-signature), which its commit names.
    let signature = include_str!("../data/bench-signature").trim();
    assert_eq!(
        lines[n - 2],
        format!("Nodes searched: {signature}"),
        "the bench signature changed: search behaviour is not what tests/data/bench-signature says"
    );
}

/// The search in games whose moves name a direction, whose rows belong to nobody, whose
/// positions remember a crossing, whose pits change hands (a match for territory), or whose
/// first move chooses the players' directions: along a game of short searches, every `bestmove` is one of the
/// position's legal moves (as `query moves` lists them) and is accepted by `move`.
#[test]
fn the_search_answers_legal_moves_in_games_of_the_new_kinds_of_moves() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/catalogue");
    // A match for territory from a round where each player owns a pit of the other's row.
    let territory = "fen 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-S-NSSSSSSNNNNN";
    for (game, from) in [
        ("mbangbi", "startpos"),
        ("alemungula", "startpos"),
        ("nosides", "startpos"),
        ("sadeqa-iv", "startpos"),
        ("namnam", territory),
        ("sowopdirs", "startpos"),
    ] {
        let mut engine = Engine::start();
        engine.send(&format!(
            "setoption name GameFile value {}",
            root.join(format!("{game}.toml")).display()
        ));
        engine.send(&format!("position {from}"));
        let loaded = engine.sync();
        assert!(
            loaded.iter().any(|l| l.contains("loaded")),
            "{game}: {loaded:?}"
        );
        for _ in 0..12 {
            let legal = legal_moves(&mut engine);
            if legal.is_empty() {
                break;
            }
            engine.send("go nodes 2000");
            let (_, best) = engine.best_move(LONG);
            let played = best
                .best
                .expect("a game not over has a best move")
                .to_string();
            assert!(legal.contains(&played), "{game}: {played} not in {legal:?}");
            engine.send(&format!("move {played}"));
            let errors: Vec<String> = engine
                .sync()
                .into_iter()
                .filter(|l| l.contains("error"))
                .collect();
            assert!(errors.is_empty(), "{game}: {errors:?}");
        }
        engine.quit();
    }
}
