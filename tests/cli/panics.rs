//! The daemon survives its own bugs: a panic in a job or a command (switched on by a test with
//! `MANCALA_ENGINE_FAULT`) still gives the client what the command promises, plus one
//! `info string error internal …` line, and the daemon goes on.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs the engine with a fault at `place` on `input`; returns its output lines.
fn run_with_fault(place: &str, input: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala-engine"))
        .env("MANCALA_ENGINE_FAULT", place)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{place}: {}", output.status);
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

fn internal_errors(lines: &[String]) -> usize {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error internal: a fault injected by a test"))
        .count()
}

/// The daemon still answers after the fault, with the state it had.
fn goes_on(lines: &[String]) {
    assert_eq!(
        lines.last().map(String::as_str),
        Some("readyok"),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"response 1-8-8-8-8-8-7-6-6-6-6-0-0-0-S".to_string()),
        "{lines:?}"
    );
}

const AFTER: &str = "position startpos moves A f\nquery fen\nisready\n";

#[test]
fn a_failed_search_still_answers_a_legal_bestmove() {
    let lines = run_with_fault("search", &format!("go depth 5\n{AFTER}"));
    assert_eq!(internal_errors(&lines), 1, "{lines:?}");
    let bestmoves: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(bestmoves.len(), 1, "{lines:?}");
    let legal = ["A", "B", "C", "D", "E", "F"];
    let mv = bestmoves[0].split_whitespace().nth(1).unwrap();
    assert!(legal.contains(&mv), "{mv}");
    goes_on(&lines);
}

#[test]
fn a_failed_perft_and_bench_end_with_their_closing_lines() {
    let lines = run_with_fault("perft", &format!("perft 3\n{AFTER}"));
    assert_eq!(internal_errors(&lines), 1, "{lines:?}");
    assert!(
        lines.contains(&"info string perft stopped".to_string()),
        "{lines:?}"
    );
    goes_on(&lines);
    let lines = run_with_fault("bench", &format!("bench\n{AFTER}"));
    assert_eq!(internal_errors(&lines), 1, "{lines:?}");
    assert!(
        lines.contains(&"info string bench stopped".to_string()),
        "{lines:?}"
    );
    goes_on(&lines);
}

#[test]
fn a_failed_command_is_reported_and_changes_nothing() {
    let lines = run_with_fault(
        "side",
        &format!("variant mangala-iv\nquery side\nvariant mangala-ii\n{AFTER}"),
    );
    assert_eq!(internal_errors(&lines), 1, "{lines:?}");
    goes_on(&lines);
    let lines = run_with_fault("command", &format!("eval\n{AFTER}"));
    assert_eq!(internal_errors(&lines), 1, "{lines:?}");
    goes_on(&lines);
}

#[test]
fn without_the_switch_nothing_fails() {
    let lines = run_with_fault("nothing", &format!("go depth 3\nperft 2\neval\n{AFTER}"));
    assert_eq!(internal_errors(&lines), 0, "{lines:?}");
    goes_on(&lines);
}
