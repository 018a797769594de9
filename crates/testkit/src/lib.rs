//! What the workspace's tests share (a dev-dependency only, never published):
//!
//! - [`mod@reference`]: a deliberately naive second implementation of the rules, written straight
//!   from `RULES.md`, which the property tests play against the real one;
//! - [`naive_solver`]: plain minimax over those naive rules, the check of the solver and the
//!   tables on small positions;
//! - [`positions`]: random positions of any game with a given number of counters on the board;
//! - [`strategies`]: proptest strategies for games, position strings and random game starts;
//! - [`daemon`]: the engine binary as a test drives it, stdin held open, lines read with
//!   deadlines;
//! - [`send_signal`]: a signal to a process the test started, [`signal_at_line`]: one sent
//!   when its output reaches a given line, [`ignores_signal`]: whether this process (so every
//!   child it starts) ignores one, and [`ctrl_c_signal`]: the signal that stands for Ctrl-C.

pub mod daemon;
pub mod naive_solver;
pub mod positions;
pub mod reference;
pub mod strategies;

/// Runs `body` on a thread with room for the deep lines of solvers and naive searches (256 MiB
/// of stack), and passes on its panic, if any, as the test's own.
pub fn with_big_stack(body: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(body)
        .expect("a thread")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}

/// Sends signal `signal` (a name such as `INT`, `TERM`, `KILL`, `STOP`) to process `pid`, by
/// `kill`, and fails the test if it cannot.
pub fn send_signal(pid: u32, signal: &str) {
    let sent = std::process::Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(pid.to_string())
        .status()
        .expect("kill runs");
    assert!(sent.success(), "kill -{signal} {pid} failed");
}

/// Reads `stream` (a child's stdout or stderr) line by line until a line satisfies `until`,
/// then sends `signal` to the child `pid` and reads the stream to its end; returns all of it.
/// Panics if the stream ends before such a line.
pub fn signal_at_line(
    pid: u32,
    stream: impl std::io::Read,
    until: impl Fn(&str) -> bool,
    signal: &str,
) -> String {
    use std::io::BufRead;
    let mut lines = std::io::BufReader::new(stream).lines();
    let mut text = String::new();
    let mut sent = false;
    for line in lines.by_ref() {
        let line = line.expect("a line of text");
        text += &line;
        text.push('\n');
        if until(&line) {
            send_signal(pid, signal);
            sent = true;
            break;
        }
    }
    assert!(sent, "the line to signal at never came: {text}");
    for line in lines {
        text += &line.expect("a line of text");
        text.push('\n');
    }
    text
}

/// The signal a test sends to stand for Ctrl-C, and the exit status a tool that handles it
/// ends with: SIGINT (130), or SIGTERM (143) when this process ignores SIGINT, as the tests do
/// when run as a script's background job (the engine would inherit that and ignore it too).
pub fn ctrl_c_signal() -> (&'static str, i32) {
    if ignores_signal(2) {
        ("TERM", 143)
    } else {
        ("INT", 130)
    }
}

/// Whether this process ignores signal number `signum` (as a script's background job ignores
/// SIGINT, 2): its children start ignoring it too. Read from `/proc/self/status` (false where
/// there is none).
pub fn ignores_signal(signum: u32) -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("SigIgn:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask >> (signum - 1) & 1 == 1)
}

/// A fresh directory for one test, `<temp>/mancala-<tag>-<process id>`, removed when dropped,
/// a failing test's included: a test run leaves nothing in the temp directory.
pub struct Scratch(std::path::PathBuf);

impl Scratch {
    pub fn new(tag: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("mancala-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    pub fn path(&self) -> &std::path::Path {
        &self.0
    }
}

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
