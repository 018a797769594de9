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
//! - [`send_signal`]: a signal to a process the test started, and [`ignores_signal`]: whether
//!   this process (so every child it starts) ignores one.

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
