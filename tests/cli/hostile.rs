//! Hostile streams: blocks of valid commands, broken ones and random bytes, each block closed by a
//! `stop` + `isready` checkpoint, through the real binary.
//!
//! After every checkpoint the daemon must answer `readyok` within a second, every `go` of the
//! block must have had exactly one `bestmove` by then, and nothing may follow the `readyok` until
//! the next block is sent: a `stop` ends everything sent before it, whether running, starting or
//! still waiting in the queue.
//!
//! `cargo test --release --test cli hostile::` runs the short version (CI); the long runs are
//! `cargo test --release --test cli hostile:: -- --ignored` (`HOSTILE_LINES`, `HOSTILE_SEEDS` set their
//! size, e.g. `HOSTILE_LINES=200000 HOSTILE_SEEDS=10`).

use std::time::{Duration, Instant};

use mancala_rules::SplitMix64;

use mancala_testkit::daemon::Daemon;

/// Lines between checkpoints.
const BLOCK: usize = 50;
/// What a checkpoint may take.
const READY_WITHIN: Duration = Duration::from_secs(1);
/// How long the daemon must stay silent after a checkpoint's `readyok`.
const QUIET_AFTER: Duration = Duration::from_millis(3);

/// What one line of a block promises.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Promise {
    Nothing,
    /// Exactly one `bestmove`.
    Bestmove,
    /// `Nodes searched` or `perft stopped`.
    PerftEnd,
    /// `Nodes/second` or `bench stopped`.
    BenchEnd,
    /// `readyok`.
    Ready,
    /// Exactly one `info string error` line.
    Error,
}

/// Commands of the kinds that wedged the daemon, their broken twins, and noise.
fn hostile_line(rng: &mut SplitMix64) -> (Vec<u8>, Promise) {
    const VALID: &[(&str, Promise)] = &[
        ("go nodes 500", Promise::Bestmove),
        ("go depth 2", Promise::Bestmove),
        ("go depth 0", Promise::Bestmove),
        ("go movetime 5", Promise::Bestmove),
        ("go movetime 999999999999", Promise::Bestmove),
        ("go depth 4294967295", Promise::Bestmove),
        ("go infinite", Promise::Bestmove),
        ("go", Promise::Bestmove),
        ("go p1time 999999999 p2time 999999999", Promise::Bestmove),
        ("perft 2", Promise::PerftEnd),
        ("perft 40", Promise::PerftEnd),
        ("position startpos moves A", Promise::Nothing),
        ("position startpos", Promise::Nothing),
        ("setoption name Hash value 1", Promise::Nothing),
        ("setoption name Hash value 16", Promise::Nothing),
        ("setoption name Threads value 1", Promise::Nothing),
        ("setoption name Threads value 2", Promise::Nothing),
        ("ucinewgame", Promise::Nothing),
        ("isready", Promise::Ready),
        ("stop", Promise::Nothing),
        ("ponderhit", Promise::Nothing),
        ("query fen", Promise::Nothing),
        ("query moves", Promise::Nothing),
        ("uci", Promise::Nothing),
        ("ugi", Promise::Nothing),
        ("d", Promise::Nothing),
        ("eval", Promise::Nothing),
    ];
    /// Lines whose answer depends on the game (legal or not): no promise is checked.
    const EITHER: &[&str] = &[
        "undo",
        "move pass",
        "move A",
        "move a",
        "variant mangala-ii",
        "variant al-manqala",
        "variant anywoli",
        "variant mangala-iv",
    ];
    const BROKEN: &[&str] = &[
        "go movetime 99999999999999999999",
        "go nodes -1",
        "go depth x",
        "go movetime",
        "perft -1",
        "perft 9999",
        "position startpos moves Q",
        "setoption name Hash value 0",
        "setoption name Threads value many",
        "variant chess",
        "isready now",
        "stop now",
        "undo 99999",
        "position fen 1-2-3",
    ];
    match rng.next_u64() % 100 {
        0..=59 => {
            let (text, promise) = VALID[(rng.next_u64() % VALID.len() as u64) as usize];
            if text == "bench" {
                return (text.into(), Promise::BenchEnd);
            }
            (text.into(), promise)
        }
        60..=74 => {
            let text = EITHER[(rng.next_u64() % EITHER.len() as u64) as usize];
            (text.into(), Promise::Nothing)
        }
        75..=89 => {
            let text = BROKEN[(rng.next_u64() % BROKEN.len() as u64) as usize];
            (text.into(), Promise::Error)
        }
        90..=91 => ("bench".into(), Promise::BenchEnd),
        _ => {
            // Random bytes without a line end; a first byte that no command starts with.
            let len = 1 + rng.next_u64() % 40;
            let mut bytes: Vec<u8> = (0..len)
                .map(|_| match (rng.next_u64() % 256) as u8 {
                    b'\n' | b'\r' => b'#',
                    b => b,
                })
                .collect();
            bytes[0] = b'#';
            if bytes.iter().all(|b| b.is_ascii_whitespace() || *b == b'#') {
                bytes.push(b'#');
            }
            (bytes, Promise::Error)
        }
    }
}

/// Counts of what a block's output must hold.
#[derive(Debug, Default, PartialEq, Eq)]
struct Tally {
    bestmoves: usize,
    perft_ends: usize,
    bench_ends: usize,
    readyoks: usize,
}

impl Tally {
    fn expect(&mut self, promise: Promise) {
        match promise {
            Promise::Bestmove => self.bestmoves += 1,
            Promise::PerftEnd => self.perft_ends += 1,
            Promise::BenchEnd => self.bench_ends += 1,
            Promise::Ready => self.readyoks += 1,
            Promise::Nothing | Promise::Error => {}
        }
    }

    fn saw(&mut self, line: &str) {
        if line.starts_with("bestmove") {
            self.bestmoves += 1;
        } else if line.starts_with("Nodes searched") || line == "info string perft stopped" {
            self.perft_ends += 1;
        } else if line.starts_with("Nodes/second") || line == "info string bench stopped" {
            self.bench_ends += 1;
        } else if line == "readyok" {
            self.readyoks += 1;
        }
    }
}

/// Sends `lines` hostile lines in blocks from `seed`, checking every checkpoint; returns the
/// number of checkpoints passed.
fn hostile_run(seed: u64, lines: usize) -> usize {
    let mut rng = SplitMix64::new(seed);
    let mut engine = Daemon::start();
    let mut sent = 0;
    let mut checkpoints = 0;
    while sent < lines {
        let mut expected = Tally::default();
        let mut block = Vec::new();
        for _ in 0..BLOCK {
            let (mut bytes, promise) = hostile_line(&mut rng);
            expected.expect(promise);
            block.push(String::from_utf8_lossy(&bytes).into_owned());
            bytes.push(b'\n');
            engine.send_bytes(&bytes);
        }
        sent += BLOCK;
        engine.send("stop");
        engine.send("isready");
        expected.readyoks += 1;
        let checkpoint = Instant::now();
        let mut seen = Tally::default();
        let mut output = Vec::new();
        while seen.readyoks < expected.readyoks {
            let left = READY_WITHIN.saturating_sub(checkpoint.elapsed());
            let Some(line) = engine.next_line(left) else {
                panic!(
                    "seed {seed}, block ending at line {sent}: no readyok within {READY_WITHIN:?} \
                     of the checkpoint\nblock: {block:#?}\noutput: {:#?}",
                    last(&output, 30)
                );
            };
            seen.saw(&line);
            output.push(line);
        }
        if let Some(line) = engine.next_line(QUIET_AFTER) {
            panic!(
                "seed {seed}, block ending at line {sent}: '{line}' after the checkpoint's \
                 readyok\nblock: {block:#?}\noutput: {:#?}",
                last(&output, 30)
            );
        }
        assert_eq!(
            seen,
            expected,
            "seed {seed}, block ending at line {sent}: answers do not match the block\nblock: \
             {block:#?}\noutput: {:#?}",
            last(&output, 60)
        );
        checkpoints += 1;
    }
    engine.quit();
    checkpoints
}

fn last(lines: &[String], n: usize) -> &[String] {
    &lines[lines.len().saturating_sub(n)..]
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn hostile_streams_never_wedge_the_daemon() {
    for seed in 1..=4 {
        hostile_run(seed, 5_000);
    }
}

#[test]
#[ignore = "long: minutes per seed; see the module docs"]
fn long_hostile_streams_never_wedge_the_daemon() {
    let lines = env_number("HOSTILE_LINES", 200_000);
    let seeds = env_number("HOSTILE_SEEDS", 5) as u64;
    let started = Instant::now();
    for seed in 1000..1000 + seeds {
        let checkpoints = hostile_run(seed, lines);
        eprintln!(
            "seed {seed}: {lines} lines, {checkpoints} checkpoints passed ({:.0?} so far)",
            started.elapsed()
        );
    }
}

/// The races around a job's start and end, one at a time and many times over: commands that
/// arrive while a job is queued, starting or finishing.
#[test]
fn stop_reaches_jobs_queued_starting_and_ending() {
    let mut engine = Daemon::start();
    for round in 0..300 {
        // A queued search behind a blocked line, then a stop: the stop must reach it.
        let script: &[&str] = match round % 6 {
            0 => &["go infinite", "position startpos", "go infinite", "stop"],
            1 => &["go nodes 500", "undo 999", "go movetime 999999999", "stop"],
            2 => &["perft 40", "go infinite", "stop"],
            3 => &["go movetime 1", "go infinite", "stop"],
            4 => &[
                "go depth 1",
                "setoption name Hash value 1",
                "perft 50",
                "stop",
            ],
            _ => &["bench", "go", "stop"],
        };
        for line in script {
            engine.send(line);
        }
        let started = Instant::now();
        let seen = engine.sync();
        assert!(
            started.elapsed() < READY_WITHIN,
            "round {round}: readyok took {:?}",
            started.elapsed()
        );
        let gos = script.iter().filter(|l| l.starts_with("go")).count();
        let bestmoves = seen.iter().filter(|l| l.starts_with("bestmove")).count();
        assert_eq!(bestmoves, gos, "round {round}: {seen:?}");
        assert_eq!(engine.next_line(QUIET_AFTER), None, "round {round}");
    }
    engine.quit();
}

/// `isready` after `stop` answers after the stopped search's `bestmove`; `isready` during a
/// search nobody stopped answers at once, before it.
#[test]
fn isready_after_stop_follows_the_bestmove() {
    let mut engine = Daemon::start();
    for round in 0..200 {
        engine.send("go infinite");
        if round % 2 == 0 {
            let lines = engine.sync();
            assert!(
                !lines.iter().any(|l| l.starts_with("bestmove")),
                "round {round}: an unstopped infinite search answered: {lines:?}"
            );
        }
        engine.send("stop");
        engine.send("isready");
        let lines = engine.until("readyok", Duration::from_secs(5));
        let bestmove = lines.iter().position(|l| l.starts_with("bestmove"));
        assert_eq!(
            bestmove,
            Some(lines.len() - 2),
            "round {round}: the bestmove must come just before readyok: {lines:?}"
        );
    }
    engine.quit();
}
