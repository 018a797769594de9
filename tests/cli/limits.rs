//! Resource limits through the real binary: absurd option values, endless perft and searches,
//! zero limits, huge move lists and thousands of undos each work, stay bounded, or are refused
//! with an error; none kills the daemon or lets its memory grow past `Hash` plus a little.

use std::time::{Duration, Instant};

use mancala_testkit::daemon::Daemon;

fn errors(lines: &[String]) -> usize {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .count()
}

#[test]
fn absurd_hash_values_are_refused_and_big_ones_cost_nothing_until_used() {
    let mut d = Daemon::start();
    for value in [
        "0",
        "16385",
        "99999999999",
        "18446744073709551616",
        "-1",
        "lots",
    ] {
        d.send(&format!("setoption name Hash value {value}"));
        let lines = d.sync();
        assert_eq!(errors(&lines), 1, "Hash {value}: {lines:?}");
    }
    // The largest value: allocated lazily (or refused when the machine has less memory), and
    // either way the daemon answers at once and stays small.
    let started = Instant::now();
    d.send("setoption name Hash value 16384");
    let lines = d.sync();
    assert!(errors(&lines) <= 1, "{lines:?}");
    if let Some(error) = lines.first() {
        assert!(error.contains("memory available"), "{error}");
    }
    d.send("ucinewgame");
    d.send("go depth 4");
    d.until("bestmove", Duration::from_secs(10));
    d.sync();
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert!(d.peak_rss_mib() < 200, "peak {} MiB", d.peak_rss_mib());
    d.send("setoption name Hash value 16");
    assert_eq!(errors(&d.sync()), 0);
    d.quit();
}

#[test]
fn stop_interrupts_an_endless_perft_and_memory_stays_flat() {
    let mut d = Daemon::start();
    d.send("perft 50");
    std::thread::sleep(Duration::from_millis(500));
    let started = Instant::now();
    d.send("stop");
    let lines = d.until("info string perft stopped", Duration::from_secs(2));
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("Nodes searched")),
        "{lines:?}"
    );
    d.sync();
    d.send("go perft 40");
    std::thread::sleep(Duration::from_millis(300));
    d.send("stop");
    d.until("info string perft stopped", Duration::from_secs(2));
    // Perft depth beyond the limit is refused.
    d.send("perft 100000");
    assert_eq!(errors(&d.sync()), 1);
    assert!(d.peak_rss_mib() < 100, "peak {} MiB", d.peak_rss_mib());
    d.quit();
}

#[test]
fn endless_and_zero_search_limits_answer() {
    let mut d = Daemon::start();
    d.send("go depth 1000");
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    d.send("stop");
    d.until("bestmove", Duration::from_secs(2));
    assert!(started.elapsed() < Duration::from_millis(500));
    for limits in [
        "nodes 0",
        "movetime 0",
        "depth 0",
        "p1time 0 p2time 0",
        "nodes 1",
    ] {
        let started = Instant::now();
        d.send(&format!("go {limits}"));
        let lines = d.until("bestmove", Duration::from_secs(2));
        let best = lines.last().unwrap();
        assert!(
            best.len() > "bestmove ".len() && !best.contains("(none)"),
            "{best}"
        );
        assert!(started.elapsed() < Duration::from_secs(1), "go {limits}");
    }
    // Huge but valid numbers are accepted and bounded by the other limits.
    d.send("go depth 4294967295 movetime 50");
    d.until("bestmove", Duration::from_secs(2));
    d.send("go nodes 18446744073709551615 movetime 50");
    d.until("bestmove", Duration::from_secs(2));
    d.send("go movetime 99999999999999999999");
    assert_eq!(errors(&d.sync()), 1, "a number beyond 64 bits is refused");
    d.quit();
}

#[test]
fn huge_move_lists_are_refused_cleanly_and_long_games_replay() {
    let mut d = Daemon::start();
    // 200,000 moves: parsed, then refused at the first illegal one.
    let moves = vec!["A"; 200_000].join(" ");
    d.send(&format!("position startpos moves {moves}"));
    let lines = d.sync();
    assert_eq!(errors(&lines), 1, "{lines:?}");
    assert!(lines[0].contains("move 2 of the list"), "{}", lines[0]);
    // Past the line limit: read to its end and refused.
    let moves = vec!["A"; 600_000].join(" ");
    d.send(&format!("position startpos moves {moves}"));
    let lines = d.sync();
    assert_eq!(errors(&lines), 1);
    assert!(lines[0].contains("longer than"), "{}", lines[0]);
    d.send("query fen");
    let fen = d.until("response", Duration::from_secs(2));
    assert_eq!(
        fen.last().unwrap(),
        "response 6-6-6-6-6-6-6-6-6-6-6-6-0-0-S"
    );
    d.quit();
}

#[test]
fn thousands_of_undos_change_nothing_they_should_not() {
    let mut d = Daemon::start();
    d.send("position startpos moves A f B");
    for _ in 0..3000 {
        d.send("undo");
    }
    let lines = d.sync();
    assert_eq!(
        errors(&lines),
        2997,
        "three undos succeed, the rest are refused"
    );
    d.send("query fen");
    let fen = d.until("response", Duration::from_secs(2));
    assert_eq!(
        fen.last().unwrap(),
        "response 6-6-6-6-6-6-6-6-6-6-6-6-0-0-S"
    );
    d.send("undo 18446744073709551615");
    assert_eq!(errors(&d.sync()), 1);
    d.quit();
}

#[test]
fn peak_memory_stays_within_hash_plus_a_small_fixed_amount() {
    let mut d = Daemon::start();
    d.send("setoption name Hash value 64");
    d.send("setoption name Threads value 2");
    d.send("variant anywoli");
    d.send("go movetime 1500");
    d.until("bestmove", Duration::from_secs(5));
    d.send("setoption name Hash value 32");
    d.send("go movetime 500");
    d.until("bestmove", Duration::from_secs(5));
    d.sync();
    let peak = d.peak_rss_mib();
    println!("peak resident memory with Hash 64, two threads: {peak} MiB");
    assert!(peak <= 64 + 32, "peak {peak} MiB");
    d.quit();
}
